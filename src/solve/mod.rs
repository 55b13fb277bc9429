//! Finding knight's tours: what is asked ([`Request`]), whether it can exist
//! ([`existence`]), and one module per strategy.
//!
//! - [`warnsdorff`]: Warnsdorff's rule, fast, may get stuck (each attempt a worksheet);
//! - [`backtrack`]: exhaustive depth-first search with pruning, cannot fail given time;
//! - [`construct`]: divide-and-conquer construction, linear time on any board with a tour;
//! - [`runner`]: the order `generate` tries them in, attempt by attempt.

pub mod backtrack;
pub mod constraints;
pub mod construct;
pub mod existence;
pub mod runner;
pub mod warnsdorff;

use rand::SeedableRng;

use crate::board::{Board, Square};
use crate::tour::Tour;

/// The random generator every strategy uses. ChaCha8 is a fixed, portable algorithm, so the same
/// `--seed` gives the same tours on every platform, version of `rand` and run.
pub type Rng = rand_chacha::ChaCha8Rng;

/// A generator for `seed`.
///
/// ```
/// use rand::Rng as _;
/// let mut a = knights_tour::solve::rng_from_seed(7);
/// let mut b = knights_tour::solve::rng_from_seed(7);
/// assert_eq!(a.random::<u64>(), b.random::<u64>());
/// ```
pub fn rng_from_seed(seed: u64) -> Rng {
    Rng::seed_from_u64(seed)
}

/// "Move `move_number` must be on `square`" (move 1 is the start).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Constraint {
    /// Move number from 1.
    pub move_number: u32,
    /// The square that move must land on.
    pub square: Square,
}

/// How Warnsdorff's rule breaks ties between squares with equally few onward moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Tiebreak {
    /// At random (the classic Excel macro).
    #[default]
    Random,
    /// The square farthest from the board's centre (Roth's rule).
    Center,
    /// Pohl's second level: the smallest total onward degree, then random.
    Pohl,
}

impl Tiebreak {
    /// The name used on the command line and in workbooks.
    pub fn name(self) -> &'static str {
        match self {
            Tiebreak::Random => "random",
            Tiebreak::Center => "center",
            Tiebreak::Pohl => "pohl",
        }
    }
}

/// Which strategy to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Method {
    /// Warnsdorff attempts first, then a method that cannot fail.
    #[default]
    Auto,
    /// Warnsdorff's rule only.
    Warnsdorff,
    /// Depth-first search with pruning.
    Backtrack,
    /// Divide-and-conquer construction.
    Construct,
}

impl Method {
    /// The name used on the command line and in workbooks.
    pub fn name(self) -> &'static str {
        match self {
            Method::Auto => "auto",
            Method::Warnsdorff => "warnsdorff",
            Method::Backtrack => "backtrack",
            Method::Construct => "construct",
        }
    }
}

/// What the user asks for: a tour of `board`, optionally with fixed ends, closed, constrained.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The board.
    pub board: Board,
    /// Square of move 1, if fixed.
    pub start: Option<Square>,
    /// Square of the last move, if fixed.
    pub end: Option<Square>,
    /// Whether the tour must be re-entrant.
    pub closed: bool,
    /// Further "move k on square X" demands (may repeat start/end; checked for consistency by
    /// [`existence::check_request`]).
    pub constraints: Vec<Constraint>,
}

impl Request {
    /// An open tour of `board` from anywhere.
    pub fn open(board: Board) -> Request {
        Request {
            board,
            start: None,
            end: None,
            closed: false,
            constraints: Vec::new(),
        }
    }

    /// Every fixed square as a constraint: start (move 1), end (last move) and the rest.
    pub fn all_constraints(&self) -> Vec<Constraint> {
        let n = self.board.len() as u32;
        let mut out = Vec::with_capacity(self.constraints.len() + 2);
        if let Some(s) = self.start {
            out.push(Constraint {
                move_number: 1,
                square: s,
            });
        }
        if let Some(e) = self.end {
            out.push(Constraint {
                move_number: n,
                square: e,
            });
        }
        out.extend_from_slice(&self.constraints);
        out
    }

    /// Whether `tour` is a complete tour meeting every demand of this request.
    pub fn is_satisfied_by(&self, tour: &Tour) -> bool {
        if tour.board() != self.board || !tour.is_complete() || tour.check().is_err() {
            return false;
        }
        if self.closed && !tour.is_closed() {
            return false;
        }
        let idx = tour.indices();
        self.all_constraints().iter().all(|c| {
            let k = c.move_number as usize;
            k >= 1 && k <= idx.len() && idx[k - 1] == self.board.index(c.square)
        })
    }
}
