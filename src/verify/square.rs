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

/// The readings of one written move, in a list or a one-cell tour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Readings {
    /// The square as written: `nd6` is file `nd`, rank 6.
    pub plain: Option<SquareName>,
    /// The square after the knight's letter (`N`, `♘`, `♞`): `Nd6` is d6.
    pub piece: Option<SquareName>,
}

impl Readings {
    /// Whether the text reads as a square either way.
    pub fn any(&self) -> bool {
        self.plain.is_some() || self.piece.is_some()
    }
}

/// Read one written move: a square, perhaps with the knight's letter in front (`Nf3`), perhaps
/// after its move number (`12.`, `12)`, `12:`), spaces allowed between them.
///
/// ```
/// use knights_tour::verify::square::{readings, SquareName};
/// let r = readings("1. Nd6");
/// assert_eq!(r.piece, Some(SquareName { file: 3, rank: 6 }));
/// assert_eq!(r.plain.unwrap().to_string(), "nd6");
/// assert_eq!(readings("e4").piece, None);
/// ```
pub fn readings(text: &str) -> Readings {
    let t = text.trim_matches(|c: char| c.is_whitespace() || c == '\u{a0}');
    let t = skip_move_number(t);
    let piece = ['N', 'n', '♘', '♞']
        .iter()
        .find_map(|&p| t.strip_prefix(p))
        .and_then(parse);
    Readings {
        plain: parse(t),
        piece,
    }
}

/// `12. e4` -> `e4`: a leading move number with its `.`, `)` or `:`; the text itself otherwise.
fn skip_move_number(t: &str) -> &str {
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return t;
    }
    match t[digits..].strip_prefix(['.', ')', ':']) {
        Some(rest) if !rest.trim_start().is_empty() => rest.trim_start(),
        _ => t,
    }
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
    fn moves_read_with_and_without_the_knights_letter() {
        let sq = |s: &str| parse(s).unwrap();
        assert_eq!(readings("Nf3").piece, Some(sq("f3")));
        assert_eq!(readings("Nf3").plain, Some(sq("nf3")));
        assert_eq!(readings("12.Nf3").piece, Some(sq("f3")));
        assert_eq!(readings("12) e4").plain, Some(sq("e4")));
        assert_eq!(readings("♘c2").piece, Some(sq("c2")));
        assert_eq!(
            readings("N6"),
            Readings {
                plain: Some(sq("n6")),
                piece: None
            }
        );
        assert!(!readings("Solved").any());
        assert!(!readings("12.").any());
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
