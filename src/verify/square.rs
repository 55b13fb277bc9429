//! Square names as people write them in sheets: `e4`, `E4`, `aa10` (a1 bottom-left), with or
//! without the knight's letter (`Nf3`). The lowest layer of the verifier beside the cell
//! values: notations parse with it, reports print it.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::board::{file_letters, parse_file_letters, Board, Square};

/// A square in algebraic notation (a1 bottom-left), typed; written `c1` only at output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SquareName {
    /// File from 0 (`a`).
    pub file: u32,
    /// Rank from 1 at the bottom.
    pub rank: u32,
}

impl SquareName {
    /// The name of `sq` on `board` (row 0 is the top rank).
    pub fn of(board: Board, sq: Square) -> SquareName {
        SquareName {
            file: sq.col,
            rank: board.rows() - sq.row,
        }
    }

    /// The square on a board of `rows` rows, if the name is on it (`cols` wide).
    pub fn on(self, rows: u32, cols: u32) -> Option<Square> {
        (self.rank >= 1 && self.rank <= rows && self.file < cols)
            .then(|| Square::new(rows - self.rank, self.file))
    }

    /// Whether two squares are a knight's move apart.
    pub fn is_knight_move(self, other: SquareName) -> bool {
        let (df, dr) = (
            self.file.abs_diff(other.file),
            self.rank.abs_diff(other.rank),
        );
        (df == 1 && dr == 2) || (df == 2 && dr == 1)
    }
}

impl fmt::Display for SquareName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", file_letters(self.file), self.rank)
    }
}

impl Serialize for SquareName {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for SquareName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        parse(&text).ok_or_else(|| serde::de::Error::custom(format!("'{text}' is not a square")))
    }
}

/// Parse a square name: 1-3 letters then 1-7 digits, rank at least 1 (`e4`, `AA10`), spaces
/// around it ignored.
///
/// ```
/// use knights_tour::verify::square::{parse, SquareName};
/// assert_eq!(parse(" e4 "), Some(SquareName { file: 4, rank: 4 }));
/// assert_eq!(parse("Solved"), None);
/// ```
pub fn parse(text: &str) -> Option<SquareName> {
    let t = text.trim_matches(|c: char| c.is_whitespace() || c == '\u{a0}');
    let split = t.find(|c: char| !c.is_ascii_alphabetic())?;
    let (letters, digits) = t.split_at(split);
    if letters.is_empty() || letters.len() > 3 || digits.is_empty() || digits.len() > 7 {
        return None;
    }
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let file = parse_file_letters(&letters.to_ascii_lowercase())?;
    let rank: u32 = digits.parse().ok()?;
    (rank >= 1 && file < u64::from(u32::MAX)).then_some(SquareName {
        file: file as u32,
        rank,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_parse_in_either_case() {
        assert_eq!(parse(" E4 "), Some(SquareName { file: 4, rank: 4 }));
        assert_eq!(parse("aa10"), Some(SquareName { file: 26, rank: 10 }));
        assert_eq!(parse("e0"), None);
        assert_eq!(parse("Solved"), None);
        assert_eq!(parse("4e"), None);
    }

    #[test]
    fn names_map_to_squares_on_a_board() {
        let e4 = SquareName { file: 4, rank: 4 };
        assert_eq!(e4.on(8, 8), Some(Square::new(4, 4)));
        assert_eq!(e4.on(3, 8), None);
        assert!(e4.is_knight_move(SquareName { file: 5, rank: 6 }));
        assert!(!e4.is_knight_move(SquareName { file: 5, rank: 5 }));
    }
}
