//! Magic tours, the fact a puzzle fan checks first: a complete tour whose move numbers sum
//! alike along every rank and every file is *semi-magic* (Beverley's 1848 tour of the 8x8
//! board is the first known), and *magic* when both long diagonals of a square board sum to
//! the same too (none exists on 8x8; larger boards have them).
//!
//! ```
//! use knights_tour::board::{Board, Square};
//! use knights_tour::tour::Tour;
//! use knights_tour::verify::Magic;
//! // Beverley's semi-magic tour: every rank and file sums to 260.
//! let rows = [
//!     [1, 30, 47, 52, 5, 28, 43, 54],
//!     [48, 51, 2, 29, 44, 53, 6, 27],
//!     [31, 46, 49, 4, 25, 8, 55, 42],
//!     [50, 3, 32, 45, 56, 41, 26, 7],
//!     [33, 62, 15, 20, 9, 24, 39, 58],
//!     [16, 19, 34, 61, 40, 57, 10, 23],
//!     [63, 14, 17, 36, 21, 12, 59, 38],
//!     [18, 35, 64, 13, 60, 37, 22, 11],
//! ];
//! let mut squares = vec![Square::new(0, 0); 64];
//! for (r, row) in rows.iter().enumerate() {
//!     for (c, &n) in row.iter().enumerate() {
//!         squares[n - 1] = Square::new(r as u32, c as u32);
//!     }
//! }
//! let tour = Tour::from_squares(Board::new(8, 8).unwrap(), squares).unwrap();
//! assert_eq!(Magic::of(&tour), Some(Magic::SemiMagic));
//! ```

use serde::{Deserialize, Serialize};

use crate::tour::Tour;

/// How magic a complete tour is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Magic {
    /// Every rank sums alike and every file sums alike.
    SemiMagic,
    /// Semi-magic on a square board whose two long diagonals sum alike too.
    Magic,
}

impl Magic {
    /// The word used in reports: `semi-magic` or `magic`.
    pub fn as_str(self) -> &'static str {
        match self {
            Magic::SemiMagic => "semi-magic",
            Magic::Magic => "magic",
        }
    }

    /// How magic `tour` is; `None` when it is not complete, has a single square, or its
    /// ranks or files do not all sum alike.
    pub fn of(tour: &Tour) -> Option<Magic> {
        if !tour.is_complete() || tour.len() < 2 {
            return None;
        }
        let board = tour.board();
        of_numbering(board.rows(), board.cols(), &tour.numbering())
    }
}

/// [`Magic::of`] for move numbers laid out row by row on a `rows x cols` board.
fn of_numbering(rows: u32, cols: u32, numbers: &[u32]) -> Option<Magic> {
    let (rows, cols) = (rows as usize, cols as usize);
    let at = |r: usize, c: usize| u64::from(numbers[r * cols + c]);
    let all_alike = |mut sums: Box<dyn Iterator<Item = u64> + '_>| {
        let first = sums.next();
        sums.all(|s| Some(s) == first)
    };
    let ranks = Box::new((0..rows).map(|r| (0..cols).map(|c| at(r, c)).sum::<u64>()));
    let files = Box::new((0..cols).map(|c| (0..rows).map(|r| at(r, c)).sum::<u64>()));
    if !all_alike(ranks) || !all_alike(files) {
        return None;
    }
    if rows != cols {
        return Some(Magic::SemiMagic);
    }
    let rank: u64 = (0..cols).map(|c| at(0, c)).sum();
    let down: u64 = (0..rows).map(|i| at(i, i)).sum();
    let up: u64 = (0..rows).map(|i| at(i, cols - 1 - i)).sum();
    Some(if down == rank && up == rank {
        Magic::Magic
    } else {
        Magic::SemiMagic
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagonals_make_a_semi_magic_square_magic() {
        // Dürer's magic square: ranks, files and both diagonals sum to 34.
        let durer = [16, 3, 2, 13, 5, 10, 11, 8, 9, 6, 7, 12, 4, 15, 14, 1];
        assert_eq!(of_numbering(4, 4, &durer), Some(Magic::Magic));
        // Swapping two files keeps every sum but the diagonals'.
        let swapped = [3, 16, 2, 13, 10, 5, 11, 8, 6, 9, 7, 12, 15, 4, 14, 1];
        assert_eq!(of_numbering(4, 4, &swapped), Some(Magic::SemiMagic));
        // Row by row is not magic at all.
        let plain: Vec<u32> = (1..=16).collect();
        assert_eq!(of_numbering(4, 4, &plain), None);
    }

    #[test]
    fn an_ordinary_tour_is_not_magic() {
        let tour = crate::tour::tests::tour_3x4();
        assert_eq!(Magic::of(&tour), None);
        assert_eq!(Magic::of(&tour.truncated(5)), None);
    }
}
