//! Warnsdorff's rule (1823): always jump to the unvisited square with the fewest onward
//! unvisited moves. It is linear in the number of squares and usually completes a tour, but it
//! can get stuck; each attempt is one worksheet of the classic Excel macro, successful or not.
//!
//! Ties between equally constrained squares are broken by a [`Tiebreak`]:
//!
//! - [`Tiebreak::Random`]: uniformly at random, as the Excel macro does;
//! - [`Tiebreak::Center`]: the square farthest from the board's centre (Roth), then the first
//!   in [`KNIGHT_MOVES`] order, so the attempt does not depend on the generator at all;
//! - [`Tiebreak::Pohl`]: the square whose onward squares have the smallest total number of
//!   onward moves (Pohl 1967), then at random.
//!
//! The search runs on a board padded with a two-square border of "visited" sentinels, so a move
//! is one addition with no bounds test, and keeps every square's count of unvisited neighbours
//! up to date as squares are visited: about 15-30 ns a square on a 1000x1000 board.
//!
//! ```
//! use knights_tour::board::{Board, Square};
//! use knights_tour::solve::{rng_from_seed, warnsdorff, Tiebreak};
//! let board = Board::new(8, 8).unwrap();
//! let tour = warnsdorff::attempt(board, Square::new(0, 0), Tiebreak::Center, &mut rng_from_seed(1));
//! assert!(tour.is_complete());
//! assert_eq!(tour.check(), Ok(()));
//! ```

use rand::Rng as _;

use crate::board::{Board, Square, KNIGHT_MOVES};
use crate::solve::search::{Answer, Search};
use crate::solve::{Budget, Method, Request, Rng, Tiebreak};
use crate::tour::Tour;

/// A visited square or a border cell: never a candidate.
const BLOCKED: u8 = u8::MAX;

/// One Warnsdorff attempt on `board` from `start`. The result is the path the knight made:
/// complete (a tour) or partial where it got stuck ([`Tour::len`] below `board.len()`). A start
/// off the board gives an empty path.
///
/// For many attempts on one board, [`Warnsdorff`] keeps its buffers between attempts.
///
/// ```
/// use knights_tour::board::{Board, Square};
/// use knights_tour::solve::{rng_from_seed, warnsdorff, Tiebreak};
/// let board = Board::new(5, 5).unwrap();
/// let tour = warnsdorff::attempt(board, Square::new(0, 0), Tiebreak::Random, &mut rng_from_seed(3));
/// assert_eq!(tour.start(), Some(Square::new(0, 0)));
/// assert_eq!(tour.check(), Ok(()));
/// ```
pub fn attempt(board: Board, start: Square, tiebreak: Tiebreak, rng: &mut Rng) -> Tour {
    Warnsdorff::new(board).attempt(start, tiebreak, rng)
}

/// Warnsdorff's rule on one board with buffers reused between attempts, so that many attempts
/// on a large board allocate only the returned paths.
///
/// ```
/// use knights_tour::board::{Board, Square};
/// use knights_tour::solve::{rng_from_seed, warnsdorff::Warnsdorff, Tiebreak};
/// let board = Board::new(100, 100).unwrap();
/// let mut solver = Warnsdorff::new(board);
/// let mut rng = rng_from_seed(42);
/// let tours: Vec<_> = (0..3)
///     .map(|_| solver.attempt(Square::new(0, 0), Tiebreak::Random, &mut rng))
///     .collect();
/// assert!(tours.iter().all(|t| t.check().is_ok()));
/// ```
#[derive(Clone, Debug)]
pub struct Warnsdorff {
    board: Board,
    /// Width of the padded board: `cols + 4`.
    width: usize,
    /// The eight moves as offsets in the padded board (wrapping), in [`KNIGHT_MOVES`] order.
    offsets: [usize; 8],
    /// Unvisited-neighbour counts of a fresh board, [`BLOCKED`] on the border.
    fresh: Vec<u8>,
    /// The counts during an attempt; visited squares become [`BLOCKED`].
    cells: Vec<u8>,
}

impl Warnsdorff {
    /// Buffers for attempts on `board`: two bytes per square of the board plus its border.
    pub fn new(board: Board) -> Warnsdorff {
        let width = board.cols() as usize + 4;
        let height = board.rows() as usize + 4;
        let offsets = KNIGHT_MOVES.map(|(dr, dc)| {
            (dr as isize * width as isize + dc as isize) as usize // wrapping on purpose
        });
        let mut fresh = vec![BLOCKED; width * height];
        for sq in board.squares() {
            fresh[padded(width, sq)] = board.degree(sq) as u8;
        }
        Warnsdorff {
            board,
            width,
            offsets,
            cells: fresh.clone(),
            fresh,
        }
    }

    /// The board the attempts are on.
    pub fn board(&self) -> Board {
        self.board
    }

    /// One attempt from `start`; see [`attempt`].
    pub fn attempt(&mut self, start: Square, tiebreak: Tiebreak, rng: &mut Rng) -> Tour {
        let board = self.board;
        if !board.contains(start) {
            return Tour::from_indices_unchecked(board, Vec::new());
        }
        self.cells.copy_from_slice(&self.fresh);
        let mut path = Vec::with_capacity(board.len());
        let cols = board.cols() as i64;
        let (mut row, mut col) = (i64::from(start.row), i64::from(start.col));
        let mut cur = padded(self.width, start);
        loop {
            path.push((row * cols + col) as u32);
            let Some(k) = self.step(cur, row, col, tiebreak, rng) else {
                break;
            };
            cur = cur.wrapping_add(self.offsets[k]);
            row += i64::from(KNIGHT_MOVES[k].0);
            col += i64::from(KNIGHT_MOVES[k].1);
        }
        Tour::from_indices_unchecked(board, path)
    }

    /// Visit `cur` (at `row`, `col`) and choose the move to make from it, if any.
    #[inline]
    fn step(
        &mut self,
        cur: usize,
        row: i64,
        col: i64,
        tiebreak: Tiebreak,
        rng: &mut Rng,
    ) -> Option<usize> {
        self.cells[cur] = BLOCKED;
        // Branch-free: every neighbour's count goes down by one (blocked cells stay blocked),
        // then the least count and the first move reaching it.
        let mut counts = [BLOCKED; 8];
        for (count, &off) in counts.iter_mut().zip(&self.offsets) {
            let cell = &mut self.cells[cur.wrapping_add(off)];
            *cell -= u8::from(*cell != BLOCKED);
            *count = *cell;
        }
        let best = counts.iter().copied().min().unwrap_or(BLOCKED);
        if best == BLOCKED {
            return None;
        }
        let ties = counts.iter().filter(|&&c| c == best).count() as u32;
        let choice = counts.iter().position(|&c| c == best).unwrap_or(0);
        if ties == 1 {
            return Some(choice);
        }
        match tiebreak {
            Tiebreak::Random => Some(random_among(&counts, best, ties, rng)),
            Tiebreak::Center => Some(self.farthest_from_centre(&counts, row, col, best)),
            Tiebreak::Pohl => Some(self.pohl(cur, &counts, best, rng)),
        }
    }

    /// Among the moves landing on a count of `best`, the farthest from the board's centre by
    /// exact squared distance on doubled coordinates; the first in move order on a tie.
    fn farthest_from_centre(&self, counts: &[u8; 8], row: i64, col: i64, best: u8) -> usize {
        let (rows, cols) = (i64::from(self.board.rows()), i64::from(self.board.cols()));
        let mut choice = 0;
        let mut far = -1i64;
        for (k, &count) in counts.iter().enumerate() {
            if count == best {
                let r = 2 * (row + i64::from(KNIGHT_MOVES[k].0)) - (rows - 1);
                let c = 2 * (col + i64::from(KNIGHT_MOVES[k].1)) - (cols - 1);
                let d = r * r + c * c;
                if d > far {
                    far = d;
                    choice = k;
                }
            }
        }
        choice
    }

    /// Among the moves landing on a count of `best`, those whose onward squares have the
    /// smallest total count; one of them at random.
    fn pohl(&self, cur: usize, counts: &[u8; 8], best: u8, rng: &mut Rng) -> usize {
        let mut least = u32::MAX;
        let mut choice = 0;
        let mut ties = 0u32;
        for (k, (&count, &off)) in counts.iter().zip(&self.offsets).enumerate() {
            if count != best {
                continue;
            }
            let n = cur.wrapping_add(off);
            let total: u32 = self
                .offsets
                .iter()
                .map(|&o| self.cells[n.wrapping_add(o)])
                .filter(|&v| v != BLOCKED)
                .map(u32::from)
                .sum();
            if total < least {
                least = total;
                choice = k;
                ties = 1;
            } else if total == least {
                // Reservoir sampling: the i-th tie replaces the choice with probability 1/i.
                ties += 1;
                if rng.random_range(0..ties) == 0 {
                    choice = k;
                }
            }
        }
        choice
    }
}

/// Of the `ties` moves whose count is `best`, one uniformly at random.
fn random_among(counts: &[u8; 8], best: u8, ties: u32, rng: &mut Rng) -> usize {
    let pick = rng.random_range(0..ties) as usize;
    counts
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c == best)
        .nth(pick)
        .map_or(0, |(k, _)| k)
}

/// Warnsdorff's rule as a [`Search`]: each step one attempt, from the request's start or a
/// random square from which a tour can exist; an attempt that misses the request (stuck, or
/// finished elsewhere than asked) is shown as a failed one. The attempts are the Excel
/// macro's: `attempts` of them for each tour found, then the search is spent. An end square,
/// closure or constraints are met only by luck, which is still worth a few cheap attempts.
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::solve::search::{Answer, Search};
/// use knights_tour::solve::warnsdorff::Attempts;
/// use knights_tour::solve::{rng_from_seed, Budget, Request, Tiebreak};
/// let req = Request::open(Board::new(8, 8).unwrap());
/// let mut search = Attempts::new(&req, Tiebreak::Random, 1);
/// let (answer, _) = search.step(&Budget::unlimited(), &mut rng_from_seed(1));
/// if matches!(answer, Answer::Missed { .. }) {
///     // Its one attempt is used up.
///     assert_eq!(search.step(&Budget::unlimited(), &mut rng_from_seed(1)).0, Answer::Spent);
/// }
/// ```
pub struct Attempts<'a> {
    request: &'a Request,
    tiebreak: Tiebreak,
    attempts: u32,
    left: u32,
    solver: Option<Warnsdorff>,
}

impl<'a> Attempts<'a> {
    /// `attempts` attempts a tour at `request` with `tiebreak`.
    pub fn new(request: &'a Request, tiebreak: Tiebreak, attempts: u32) -> Attempts<'a> {
        Attempts {
            request,
            tiebreak,
            attempts,
            left: attempts,
            solver: None,
        }
    }

    /// The tie-break the attempts use.
    pub fn tiebreak(&self) -> Tiebreak {
        self.tiebreak
    }
}

impl Search for Attempts<'_> {
    fn method(&self) -> Method {
        Method::Warnsdorff
    }

    fn exhaustive(&self) -> bool {
        false
    }

    fn step(&mut self, _budget: &Budget, rng: &mut Rng) -> (Answer, u64) {
        if self.left == 0 {
            return (Answer::Spent, 0);
        }
        self.left -= 1;
        let req = self.request;
        let start = match req.start {
            Some(s) => s,
            None => crate::solve::random_start(req, rng),
        };
        let solver = self
            .solver
            .get_or_insert_with(|| Warnsdorff::new(req.board));
        let path = solver.attempt(start, self.tiebreak, rng);
        let nodes = path.len() as u64;
        if req.is_satisfied_by(&path) {
            // Each tour found earns the next tour its own attempts.
            self.left = self.attempts;
            let by = Method::Warnsdorff;
            return (Answer::Found { tour: path, by }, nodes);
        }
        let by = Method::Warnsdorff;
        (Answer::Missed { path, by }, nodes)
    }
}

/// The index of `sq` in a board padded by two cells on every side, `width` wide.
fn padded(width: usize, sq: Square) -> usize {
    (sq.row as usize + 2) * width + sq.col as usize + 2
}
