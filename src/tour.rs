//! A knight's path on a board: a complete tour or a failed attempt's partial path.
//!
//! Every solver produces a [`Tour`]; the writers and the verifier consume it. Squares are kept
//! as dense `u32` indices in move order (4 bytes a square), the smallest form that still lets
//! huge constructed tours be rotated and streamed.

use crate::board::{Board, Square};

/// A sequence of squares in move order; move `k` (from 1) is `squares[k - 1]`.
///
/// ```
/// use knights_tour::board::{Board, Square};
/// use knights_tour::tour::Tour;
/// let board = Board::new(3, 4).unwrap();
/// // An open tour of the 3x4 board, written as (row, col) pairs.
/// let path = [(0,0),(1,2),(2,0),(0,1),(1,3),(2,1),(0,2),(2,3),(1,1),(0,3),(2,2),(1,0)];
/// let tour = Tour::from_squares(board, path.iter().map(|&(r, c)| Square::new(r, c))).unwrap();
/// assert!(tour.is_complete());
/// assert!(!tour.is_closed());
/// assert_eq!(tour.numbering()[0], 1);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tour {
    board: Board,
    squares: Vec<u32>,
}

/// Why a sequence of squares is not a knight's path.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PathError {
    /// A square off the board.
    #[error("move {move_number} is off the board")]
    OffBoard {
        /// Move number from 1.
        move_number: usize,
    },
    /// A square visited twice.
    #[error("move {move_number} revisits the square of move {first}")]
    Revisit {
        /// Move number from 1.
        move_number: usize,
        /// The earlier move on the same square.
        first: usize,
    },
    /// Two consecutive squares that are not a knight's move apart.
    #[error("move {from} -> move {to} is not a knight's move")]
    NotAKnightMove {
        /// Move number from 1.
        from: usize,
        /// The next move number.
        to: usize,
    },
}

impl Tour {
    /// A path from squares in move order, checked: on the board, no revisits, knight moves.
    pub fn from_squares(
        board: Board,
        squares: impl IntoIterator<Item = Square>,
    ) -> Result<Tour, PathError> {
        let mut indices = Vec::new();
        for (i, sq) in squares.into_iter().enumerate() {
            if !board.contains(sq) {
                return Err(PathError::OffBoard { move_number: i + 1 });
            }
            indices.push(board.index(sq));
        }
        Tour::from_indices(board, indices)
    }

    /// A path from dense square indices in move order, checked like [`Tour::from_squares`].
    pub fn from_indices(board: Board, squares: Vec<u32>) -> Result<Tour, PathError> {
        let tour = Tour { board, squares };
        tour.check()?;
        Ok(tour)
    }

    /// A path the caller guarantees is valid (solvers that maintain the invariant themselves).
    ///
    /// Debug builds still check it.
    pub fn from_indices_unchecked(board: Board, squares: Vec<u32>) -> Tour {
        let tour = Tour { board, squares };
        debug_assert_eq!(tour.check(), Ok(()));
        tour
    }

    /// Re-check the whole path: squares on the board, each visited once, knight moves between.
    pub fn check(&self) -> Result<(), PathError> {
        let n = self.board.len();
        let mut seen = vec![0u32; n];
        let mut prev: Option<Square> = None;
        for (i, &idx) in self.squares.iter().enumerate() {
            if idx as usize >= n {
                return Err(PathError::OffBoard { move_number: i + 1 });
            }
            if seen[idx as usize] != 0 {
                return Err(PathError::Revisit {
                    move_number: i + 1,
                    first: seen[idx as usize] as usize,
                });
            }
            seen[idx as usize] = i as u32 + 1;
            let sq = self.board.square_at(idx);
            if let Some(p) = prev {
                if !p.is_knight_move(sq) {
                    return Err(PathError::NotAKnightMove { from: i, to: i + 1 });
                }
            }
            prev = Some(sq);
        }
        Ok(())
    }

    /// The board this path is on.
    pub fn board(&self) -> Board {
        self.board
    }

    /// Squares as dense indices in move order.
    pub fn indices(&self) -> &[u32] {
        &self.squares
    }

    /// Give up the path's indices (for writers that stream huge tours).
    pub fn into_indices(self) -> Vec<u32> {
        self.squares
    }

    /// Squares in move order.
    pub fn squares(&self) -> impl ExactSizeIterator<Item = Square> + '_ {
        self.squares.iter().map(|&i| self.board.square_at(i))
    }

    /// Number of squares visited (the last move number).
    pub fn len(&self) -> usize {
        self.squares.len()
    }

    /// Whether no square is visited.
    pub fn is_empty(&self) -> bool {
        self.squares.is_empty()
    }

    /// The square of move 1.
    pub fn start(&self) -> Option<Square> {
        self.squares.first().map(|&i| self.board.square_at(i))
    }

    /// The square of the last move.
    pub fn end(&self) -> Option<Square> {
        self.squares.last().map(|&i| self.board.square_at(i))
    }

    /// Whether every square is visited.
    pub fn is_complete(&self) -> bool {
        self.squares.len() == self.board.len()
    }

    /// Whether the tour is complete and its last square is a knight's move from its first
    /// (re-entrant). A one-square board is not closed: there is no move back.
    pub fn is_closed(&self) -> bool {
        match (self.start(), self.end()) {
            (Some(a), Some(b)) => self.is_complete() && a.is_knight_move(b),
            _ => false,
        }
    }

    /// Move numbers by dense square index: `grid[idx]` is the move (from 1) on that square, 0
    /// where unvisited. This is the sheet's view of the path.
    pub fn numbering(&self) -> Vec<u32> {
        let mut grid = vec![0u32; self.board.len()];
        for (i, &idx) in self.squares.iter().enumerate() {
            grid[idx as usize] = i as u32 + 1;
        }
        grid
    }

    /// The same tour walked backwards.
    pub fn reversed(&self) -> Tour {
        let mut squares = self.squares.clone();
        squares.reverse();
        Tour {
            board: self.board,
            squares,
        }
    }

    /// For a closed tour, the same cycle started at `start`, keeping its direction; `None` if
    /// the tour is not closed or does not visit `start`.
    pub fn rotated_to(&self, start: Square) -> Option<Tour> {
        if !self.is_closed() {
            return None;
        }
        let target = self.board.index(start);
        let pos = self.squares.iter().position(|&i| i == target)?;
        let mut squares = Vec::with_capacity(self.squares.len());
        squares.extend_from_slice(&self.squares[pos..]);
        squares.extend_from_slice(&self.squares[..pos]);
        Some(Tour {
            board: self.board,
            squares,
        })
    }

    /// Whether the knight is stuck: no unvisited square is a knight's move from the last one
    /// (an empty path is not stuck: the knight never started). A complete tour is stuck.
    ///
    /// ```
    /// use knights_tour::board::{Board, Square};
    /// use knights_tour::tour::Tour;
    /// let board = Board::new(5, 5).unwrap();
    /// let two = Tour::from_squares(board, [Square::new(0, 0), Square::new(1, 2)]).unwrap();
    /// assert!(!two.is_stuck());
    /// ```
    pub fn is_stuck(&self) -> bool {
        self.end().is_some() && self.reachable().is_empty()
    }

    /// The unvisited squares a knight's move from the last one: where the path can go on.
    ///
    /// ```
    /// use knights_tour::board::{Board, Square};
    /// use knights_tour::tour::Tour;
    /// let board = Board::new(3, 3).unwrap();
    /// let two = Tour::from_squares(board, [Square::new(0, 0), Square::new(1, 2)]).unwrap();
    /// assert_eq!(two.reachable(), vec![Square::new(2, 0)]);
    /// ```
    pub fn reachable(&self) -> Vec<Square> {
        let Some(end) = self.end() else {
            return Vec::new();
        };
        let mut open: Vec<Square> = self.board.knight_moves(end).collect();
        for &idx in &self.squares {
            let sq = self.board.square_at(idx);
            open.retain(|&n| n != sq);
            if open.is_empty() {
                break;
            }
        }
        open
    }

    /// The path truncated to its first `k` moves (a partial tour).
    pub fn truncated(&self, k: usize) -> Tour {
        Tour {
            board: self.board,
            squares: self.squares[..k.min(self.squares.len())].to_vec(),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// An open tour of the 3x4 board from its top-left corner, for tests across the crate.
    pub(crate) fn tour_3x4() -> Tour {
        let board = Board::new(3, 4).unwrap();
        let path = [
            (0, 0),
            (1, 2),
            (2, 0),
            (0, 1),
            (1, 3),
            (2, 1),
            (0, 2),
            (2, 3),
            (1, 1),
            (0, 3),
            (2, 2),
            (1, 0),
        ];
        Tour::from_squares(board, path.iter().map(|&(r, c)| Square::new(r, c))).unwrap()
    }

    #[test]
    fn complete_open_tour_is_recognised() {
        let t = tour_3x4();
        assert!(t.is_complete());
        assert!(!t.is_closed());
        assert_eq!(t.start(), Some(Square::new(0, 0)));
        assert_eq!(t.end(), Some(Square::new(1, 0)));
        let grid = t.numbering();
        assert_eq!(grid.iter().filter(|&&n| n == 0).count(), 0);
        assert_eq!(grid[t.board().index(Square::new(1, 0)) as usize], 12);
    }

    #[test]
    fn bad_paths_are_refused_with_the_move_number() {
        let board = Board::new(3, 4).unwrap();
        let err = Tour::from_squares(board, [Square::new(0, 0), Square::new(1, 1)]).unwrap_err();
        assert_eq!(err, PathError::NotAKnightMove { from: 1, to: 2 });
        let err = Tour::from_squares(
            board,
            [Square::new(0, 0), Square::new(2, 1), Square::new(0, 0)],
        )
        .unwrap_err();
        assert_eq!(
            err,
            PathError::Revisit {
                move_number: 3,
                first: 1
            }
        );
        let err = Tour::from_squares(board, [Square::new(3, 0)]).unwrap_err();
        assert_eq!(err, PathError::OffBoard { move_number: 1 });
    }

    #[test]
    fn truncation_and_reversal_keep_validity() {
        let t = tour_3x4();
        assert_eq!(t.truncated(5).len(), 5);
        assert!(!t.truncated(5).is_complete());
        let r = t.reversed();
        assert_eq!(r.check(), Ok(()));
        assert_eq!(r.start(), t.end());
        assert!(
            t.rotated_to(Square::new(0, 0)).is_none(),
            "open tours do not rotate"
        );
    }
}
