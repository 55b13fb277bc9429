//! Board geometry: sizes, squares, knight moves and the two notations people use.
//!
//! Squares are stored as `(row, col)` counted from 0 at the **top-left**, because that is how a
//! worksheet lays the board out. People name squares either in chess algebraic notation (files
//! `a`, `b`, ... `z`, `aa`, `ab`, ... left to right; rank 1 is the *bottom* row, so `a1` is the
//! bottom-left square) or as `row,col` counted from 1 at the top-left, as seen in the sheet.

use std::fmt;
use std::str::FromStr;

/// The eight knight moves as `(d_row, d_col)`, in a fixed order so that every strategy that
/// iterates them is deterministic for a given seed.
pub const KNIGHT_MOVES: [(i32, i32); 8] = [
    (-2, 1),
    (-1, 2),
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
];

/// The largest board side we accept. A worksheet holds 1,048,576 rows; the solvers index squares
/// with `u32`, so `rows * cols` must also stay below `u32::MAX`.
pub const MAX_SIDE: u32 = 1 << 20;

/// A square on a board, `(row, col)` from 0 at the top-left.
///
/// ```
/// use knights_tour::board::{Board, Square};
/// let board = Board::new(8, 8).unwrap();
/// let sq: Square = board.parse_square("a1").unwrap();
/// assert_eq!(sq, Square::new(7, 0));
/// assert_eq!(board.algebraic(sq), "a1");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    /// Row from 0 at the top.
    pub row: u32,
    /// Column from 0 at the left.
    pub col: u32,
}

impl Square {
    /// A square at `(row, col)`, both from 0 at the top-left.
    pub const fn new(row: u32, col: u32) -> Self {
        Square { row, col }
    }

    /// Whether a knight jumps from `self` to `other` in one move.
    ///
    /// ```
    /// use knights_tour::board::Square;
    /// assert!(Square::new(0, 0).is_knight_move(Square::new(2, 1)));
    /// assert!(!Square::new(0, 0).is_knight_move(Square::new(1, 1)));
    /// ```
    pub fn is_knight_move(self, other: Square) -> bool {
        let dr = self.row.abs_diff(other.row);
        let dc = self.col.abs_diff(other.col);
        (dr == 1 && dc == 2) || (dr == 2 && dc == 1)
    }

    /// The square's colour on a chessboard: `true` for the colour of the top-left corner.
    pub fn is_corner_colour(self) -> bool {
        (self.row + self.col).is_multiple_of(2)
    }
}

/// Why a board size or a square name was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// A side of zero or beyond [`MAX_SIDE`].
    #[error("a board needs at least 1 row and 1 column and at most {max} of each (got {rows}x{cols})", max = MAX_SIDE)]
    BadSize {
        /// Rows requested.
        rows: u64,
        /// Columns requested.
        cols: u64,
    },
    /// The board has more squares than the solvers can index.
    #[error("{} board has too many squares (at most 4,294,967,295)", crate::english::with_article(&format!("{rows}x{cols}")))]
    TooManySquares {
        /// Rows requested.
        rows: u32,
        /// Columns requested.
        cols: u32,
    },
    /// A square name that is neither algebraic nor `row,col`.
    #[error("'{text}' is not a square: use algebraic notation like e4 (files a..z, aa.., rank 1 at the bottom) or row,col from 1 at the top-left like 5,3")]
    Malformed {
        /// What the user typed.
        text: String,
    },
    /// A well-formed square outside the board.
    #[error("square '{text}' is off the {rows}x{cols} board")]
    OffBoard {
        /// What the user typed.
        text: String,
        /// Board rows.
        rows: u32,
        /// Board columns.
        cols: u32,
    },
}

/// A rectangular board of `rows x cols` squares.
///
/// ```
/// use knights_tour::board::Board;
/// let board = Board::new(3, 4).unwrap();
/// assert_eq!(board.len(), 12);
/// assert!(Board::new(0, 4).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    rows: u32,
    cols: u32,
}

impl Board {
    /// A board of `rows x cols`; both at least 1.
    pub fn new(rows: u32, cols: u32) -> Result<Board, BoardError> {
        if rows == 0 || cols == 0 || rows > MAX_SIDE || cols > MAX_SIDE {
            return Err(BoardError::BadSize {
                rows: rows.into(),
                cols: cols.into(),
            });
        }
        if u64::from(rows) * u64::from(cols) >= u64::from(u32::MAX) {
            return Err(BoardError::TooManySquares { rows, cols });
        }
        Ok(Board { rows, cols })
    }

    /// A square board of side `n`.
    pub fn square(n: u32) -> Result<Board, BoardError> {
        Board::new(n, n)
    }

    /// Number of rows.
    pub fn rows(&self) -> u32 {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> u32 {
        self.cols
    }

    /// Number of squares.
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        self.rows as usize * self.cols as usize
    }

    /// The same board turned a quarter: rows become columns.
    pub fn transposed(&self) -> Board {
        Board {
            rows: self.cols,
            cols: self.rows,
        }
    }

    /// Whether `sq` lies on the board.
    pub fn contains(&self, sq: Square) -> bool {
        sq.row < self.rows && sq.col < self.cols
    }

    /// The dense index of a square, row-major: `row * cols + col`.
    #[inline]
    pub fn index(&self, sq: Square) -> u32 {
        sq.row * self.cols + sq.col
    }

    /// The square at a dense index.
    #[inline]
    pub fn square_at(&self, index: u32) -> Square {
        Square::new(index / self.cols, index % self.cols)
    }

    /// All squares in row-major order.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.rows).flat_map(move |r| (0..self.cols).map(move |c| Square::new(r, c)))
    }

    /// The squares a knight reaches from `sq` in one move, in [`KNIGHT_MOVES`] order.
    ///
    /// ```
    /// use knights_tour::board::{Board, Square};
    /// let board = Board::new(8, 8).unwrap();
    /// assert_eq!(board.knight_moves(Square::new(0, 0)).count(), 2);
    /// assert_eq!(board.knight_moves(Square::new(3, 3)).count(), 8);
    /// ```
    pub fn knight_moves(&self, sq: Square) -> impl Iterator<Item = Square> + '_ {
        let (rows, cols) = (i64::from(self.rows), i64::from(self.cols));
        KNIGHT_MOVES.iter().filter_map(move |&(dr, dc)| {
            let r = i64::from(sq.row) + i64::from(dr);
            let c = i64::from(sq.col) + i64::from(dc);
            (r >= 0 && r < rows && c >= 0 && c < cols).then(|| Square::new(r as u32, c as u32))
        })
    }

    /// Number of knight moves from `sq` (its degree in the knight's graph).
    pub fn degree(&self, sq: Square) -> u32 {
        self.knight_moves(sq).count() as u32
    }

    /// Neighbour lists for every square by dense index, in [`KNIGHT_MOVES`] order.
    ///
    /// Solvers that visit every square many times want this precomputed once.
    pub fn neighbour_table(&self) -> Vec<Vec<u32>> {
        self.squares()
            .map(|sq| self.knight_moves(sq).map(|n| self.index(n)).collect())
            .collect()
    }

    /// The algebraic name of a square: file letters then rank, rank 1 at the bottom.
    pub fn algebraic(&self, sq: Square) -> String {
        format!("{}{}", file_letters(sq.col), self.rows - sq.row)
    }

    /// Whether `sq` is a dark square when the board is drawn as a chessboard: a1 (the
    /// bottom-left square) is dark on every board, odd or even, as on a real chessboard.
    ///
    /// ```
    /// use knights_tour::board::{Board, Square};
    /// let b = Board::new(5, 6).unwrap();
    /// assert!(b.is_dark(Square::new(4, 0)), "a1");
    /// assert!(!b.is_dark(Square::new(4, 1)), "b1");
    /// assert!(b.is_dark(Square::new(0, 0)), "a5: on an odd number of ranks, like a1");
    /// let b = Board::new(8, 8).unwrap();
    /// assert!(b.is_dark(Square::new(7, 0)) && !b.is_dark(Square::new(0, 0)));
    /// ```
    pub fn is_dark(&self, sq: Square) -> bool {
        (self.rows - 1 - sq.row + sq.col).is_multiple_of(2)
    }

    /// The `row,col` name of a square, counted from 1 at the top-left.
    pub fn row_col(&self, sq: Square) -> String {
        format!("{},{}", sq.row + 1, sq.col + 1)
    }

    /// Parse a square in algebraic notation (`e4`, `aa10`, case-insensitive) or as `row,col`
    /// counted from 1 at the top-left (`5,3`), and check it lies on this board.
    ///
    /// ```
    /// use knights_tour::board::{Board, Square};
    /// let board = Board::new(8, 8).unwrap();
    /// assert_eq!(board.parse_square("h8").unwrap(), Square::new(0, 7));
    /// assert_eq!(board.parse_square("1,8").unwrap(), Square::new(0, 7));
    /// assert!(board.parse_square("i1").is_err());
    /// assert!(board.parse_square("e").is_err());
    /// ```
    pub fn parse_square(&self, text: &str) -> Result<Square, BoardError> {
        let name = SquareName::from_str(text)?;
        self.resolve(&name, text)
    }

    fn resolve(&self, name: &SquareName, text: &str) -> Result<Square, BoardError> {
        let off = || BoardError::OffBoard {
            text: text.trim().to_string(),
            rows: self.rows,
            cols: self.cols,
        };
        let (row, col) = match *name {
            SquareName::Algebraic { file, rank } => {
                if rank == 0 || rank > u64::from(self.rows) {
                    return Err(off());
                }
                (u64::from(self.rows) - rank, file)
            }
            SquareName::RowCol { row, col } => (row - 1, col - 1),
        };
        if row >= u64::from(self.rows) || col >= u64::from(self.cols) {
            return Err(off());
        }
        Ok(Square::new(row as u32, col as u32))
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

/// A square name parsed without a board: the board is needed to turn a rank into a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SquareName {
    /// File from 0 at the left, rank from 1 at the bottom.
    Algebraic { file: u64, rank: u64 },
    /// Both from 1 at the top-left.
    RowCol { row: u64, col: u64 },
}

impl FromStr for SquareName {
    type Err = BoardError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let malformed = || BoardError::Malformed {
            text: text.trim().to_string(),
        };
        let t = text.trim();
        if let Some((r, c)) = t.split_once(',') {
            let row: u64 = r.trim().parse().map_err(|_| malformed())?;
            let col: u64 = c.trim().parse().map_err(|_| malformed())?;
            if row == 0 || col == 0 {
                return Err(malformed());
            }
            return Ok(SquareName::RowCol { row, col });
        }
        let split = t
            .find(|c: char| !c.is_ascii_alphabetic())
            .ok_or_else(malformed)?;
        let (letters, digits) = t.split_at(split);
        if letters.is_empty() || letters.len() > 4 || digits.is_empty() {
            return Err(malformed());
        }
        if !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 9 {
            return Err(malformed());
        }
        let file = parse_file_letters(letters).ok_or_else(malformed)?;
        let rank: u64 = digits.parse().map_err(|_| malformed())?;
        Ok(SquareName::Algebraic { file, rank })
    }
}

/// File letters for a column from 0: `a`..`z`, then `aa`, `ab`, ... (bijective base 26).
///
/// ```
/// use knights_tour::board::file_letters;
/// assert_eq!(file_letters(0), "a");
/// assert_eq!(file_letters(25), "z");
/// assert_eq!(file_letters(26), "aa");
/// assert_eq!(file_letters(27), "ab");
/// ```
pub fn file_letters(col: u32) -> String {
    bijective_base26(col, b'a')
}

/// Spreadsheet column letters for a column from 0: `A`..`Z`, `AA`, ... `XFD`.
pub fn column_letters(col: u32) -> String {
    bijective_base26(col, b'A')
}

fn bijective_base26(col: u32, base: u8) -> String {
    let mut n = u64::from(col) + 1;
    let mut out = Vec::new();
    while n > 0 {
        let rem = ((n - 1) % 26) as u8;
        out.push(base + rem);
        n = (n - 1) / 26;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// Column from 0 for letters in bijective base 26, case-insensitive; `None` if not letters.
pub fn parse_file_letters(letters: &str) -> Option<u64> {
    if letters.is_empty() {
        return None;
    }
    let mut n: u64 = 0;
    for b in letters.bytes() {
        let b = b.to_ascii_lowercase();
        if !b.is_ascii_lowercase() {
            return None;
        }
        n = n.checked_mul(26)?.checked_add(u64::from(b - b'a') + 1)?;
    }
    Some(n - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn algebraic_round_trips_on_rectangular_boards() {
        let board = Board::new(5, 30).unwrap();
        for sq in board.squares() {
            let name = board.algebraic(sq);
            assert_eq!(board.parse_square(&name).unwrap(), sq, "{name}");
            let rc = board.row_col(sq);
            assert_eq!(board.parse_square(&rc).unwrap(), sq, "{rc}");
        }
        assert_eq!(board.algebraic(Square::new(0, 26)), "aa5");
        assert_eq!(board.algebraic(Square::new(4, 0)), "a1");
    }

    #[test]
    fn parsing_is_case_insensitive_and_trims() {
        let board = Board::new(8, 8).unwrap();
        assert_eq!(board.parse_square(" E4 ").unwrap(), Square::new(4, 4));
        assert_eq!(board.parse_square(" 5 , 3 ").unwrap(), Square::new(4, 2));
    }

    #[test]
    fn malformed_and_off_board_squares_are_told_apart() {
        let board = Board::new(8, 8).unwrap();
        for bad in ["", "e", "4", "e4x", "4e", "e-1", "0,3", "3,0", "a,b", "é4"] {
            assert!(
                matches!(board.parse_square(bad), Err(BoardError::Malformed { .. })),
                "{bad:?}"
            );
        }
        for off in ["i1", "a9", "a0", "9,1", "1,9", "zz1"] {
            assert!(
                matches!(board.parse_square(off), Err(BoardError::OffBoard { .. })),
                "{off:?}"
            );
        }
    }

    #[test]
    fn knight_moves_match_degrees_on_8x8() {
        let board = Board::new(8, 8).unwrap();
        let total: u32 = board.squares().map(|s| board.degree(s)).sum();
        // 168 undirected knight moves on a chessboard.
        assert_eq!(total, 336);
        for sq in board.squares() {
            for n in board.knight_moves(sq) {
                assert!(sq.is_knight_move(n));
            }
        }
    }

    #[test]
    fn column_letters_match_excel() {
        assert_eq!(column_letters(0), "A");
        assert_eq!(column_letters(701), "ZZ");
        assert_eq!(column_letters(702), "AAA");
        assert_eq!(column_letters(16383), "XFD");
        assert_eq!(parse_file_letters("XFD"), Some(16383));
        assert_eq!(parse_file_letters("a1"), None);
    }

    #[test]
    fn sizes_are_checked() {
        assert!(Board::new(1, 1).is_ok());
        assert!(Board::new(0, 1).is_err());
        assert!(Board::new(MAX_SIDE + 1, 1).is_err());
        assert!(matches!(
            Board::new(MAX_SIDE, MAX_SIDE),
            Err(BoardError::TooManySquares { .. })
        ));
    }
}
