//! Finding knight's tours: what is asked ([`Request`]), whether it can exist
//! ([`existence`]), one module per search, each behind one interface ([`search::Search`]),
//! and the portfolio that runs them ([`portfolio`]).
//!
//! - [`warnsdorff`]: Warnsdorff's rule, fast, may get stuck (each attempt a worksheet);
//! - [`construct`]: divide-and-conquer construction, linear time on any board with a tour;
//! - [`backtrack`]: exhaustive depth-first search with pruning, cannot fail given time;
//! - [`segments`]: "move k on X" constraints, the tour searched segment by segment;
//! - [`joint`]: "move k on X" constraints, every piece between them grown at once, exhaustive
//!   (proofs, counts of completions); [`repair`] repairs its deepest position region by
//!   region (large neighbourhood search), the `joint` search of `--method`;
//! - [`rotations`]: "move k on X" constraints, a whole tour rearranged until each is met;
//! - [`hand`]: the hand method for closed tours (edges first, then a cycle, then insertions),
//!   with every step kept for the workbook;
//! - [`race`]: any search raced in copies on two threads, the tour still a function of the seed;
//! - [`runner`]: the one way into all of them ([`runner::run_with`]): goals (tours, every
//!   tour, a completion), each tour handed over as it is found.
//!
//! `docs/solver.md` holds the measurements behind the portfolio's table.

pub mod backtrack;
pub mod constraints;
pub mod construct;
pub mod existence;
pub mod hand;
pub mod joint;
mod meter;
pub mod pairs;
pub mod portfolio;
pub mod race;
pub mod repair;
pub mod rotations;
pub mod runner;
pub mod search;
pub mod segments;
pub mod steered;
pub mod warnsdorff;

pub use meter::{Meter, METER_STEP};
pub use runner::{Attempt, Ending, Event, Goal, Plan, Report};

use std::time::{Duration, Instant};

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

/// Seeds drawn at random stay below 2^53, the largest whole number a JSON reader that keeps
/// numbers as doubles (JavaScript, `jq` before 1.7) holds exactly: a seed read back from
/// `generate --json` repeats the run. A seed given with `--seed` may be any `u64`.
pub const RANDOM_SEED_LIMIT: u64 = 1 << 53;

/// A fresh seed for a run that was given none, below [`RANDOM_SEED_LIMIT`].
///
/// ```
/// let seed = knights_tour::solve::random_seed();
/// assert!(seed < knights_tour::solve::RANDOM_SEED_LIMIT);
/// assert_eq!(seed as f64 as u64, seed, "exact as a JSON number");
/// ```
pub fn random_seed() -> u64 {
    rand::random::<u64>() % RANDOM_SEED_LIMIT
}

/// A start square chosen at random among those from which a tour can exist, so a random start
/// never dooms an attempt on boards like 5x5 (corner colour only) or 4xn (outer ranks only).
pub(crate) fn random_start(request: &Request, rng: &mut Rng) -> Square {
    use rand::Rng as _;
    let board = request.board;
    let admissible = |sq: Square| existence::open_tour_from(board, sq).is_ok();
    // Rejection sampling: admissible squares are at least a third of any board with a tour.
    for _ in 0..64 {
        let idx = rng.random_range(0..board.len() as u32);
        let sq = board.square_at(idx);
        if admissible(sq) {
            return sq;
        }
    }
    let first = board.squares().find(|&sq| admissible(sq));
    first.unwrap_or(Square::new(0, 0))
}

/// "Move `move_number` must be on `square`" (move 1 is the start).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Constraint {
    /// Move number from 1.
    pub move_number: u32,
    /// The square that move must land on.
    pub square: Square,
}

/// How Warnsdorff's rule breaks ties between squares with equally few onward moves. The
/// command line's `--tiebreak` values are these (clap's `ValueEnum`), so no copy exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, clap::ValueEnum)]
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

/// Which search to use: each names one search ([`search::build`]), `auto` the portfolio of
/// them all ([`portfolio`]). The command line's `--method` values are these (clap's
/// `ValueEnum`), and every tour names the one that found it ([`Attempt::method`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, clap::ValueEnum)]
pub enum Method {
    /// Warnsdorff attempts first, then the searches that apply, so a tour is found whenever
    /// one exists.
    #[default]
    Auto,
    /// Warnsdorff's rule only (may fail).
    Warnsdorff,
    /// Depth-first search with pruning (exhaustive; bounded by the time limit).
    Backtrack,
    /// Divide-and-conquer construction (linear time, any size; no "move k on X").
    Construct,
    /// The hand method for closed tours, step by step (sides 6 to 30, even area; 6xN up to
    /// 6x16).
    Hand,
    /// "Move k on X" constraints: the tour grown segment by segment between them.
    Segments,
    /// "Move k on X" constraints: every piece between them grown at once, the deepest
    /// position repaired region by region (exhaustive; open tours).
    Joint,
    /// "Move k on X" constraints: a whole tour rearranged until each sits at its move (open
    /// tours).
    Rotations,
}

impl Method {
    /// The name used on the command line and in workbooks.
    pub fn name(self) -> &'static str {
        match self {
            Method::Auto => "auto",
            Method::Warnsdorff => "warnsdorff",
            Method::Backtrack => "backtrack",
            Method::Construct => "construct",
            Method::Hand => "hand",
            Method::Segments => "segments",
            Method::Joint => "joint",
            Method::Rotations => "rotations",
        }
    }

    /// The search in words, as the subject of a sentence: "the rotation search".
    pub fn search_name(self) -> &'static str {
        match self {
            Method::Auto => "the portfolio of searches",
            Method::Warnsdorff => "Warnsdorff's rule",
            Method::Backtrack => "the backtracking search",
            Method::Construct => "the construction",
            Method::Hand => "the hand method",
            Method::Segments => "the segment search",
            Method::Joint => "the joint search",
            Method::Rotations => "the rotation search",
        }
    }

    /// Every method, in `--help`'s order.
    pub const ALL: [Method; 8] = [
        Method::Auto,
        Method::Warnsdorff,
        Method::Backtrack,
        Method::Construct,
        Method::Hand,
        Method::Segments,
        Method::Joint,
        Method::Rotations,
    ];
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

    /// The same request walked from its end: move k becomes move n + 1 - k, start and end swap.
    /// A tour meets it exactly when the tour reversed meets `self`, so a search may grow
    /// whichever end is easier.
    ///
    /// ```
    /// use knights_tour::board::Board;
    /// use knights_tour::solve::{Constraint, Request};
    /// let board = Board::new(5, 5).unwrap();
    /// let a1 = board.parse_square("a1").unwrap();
    /// let req = Request {
    ///     end: Some(a1),
    ///     constraints: vec![Constraint { move_number: 3, square: a1 }],
    ///     ..Request::open(board)
    /// };
    /// let back = req.reversed();
    /// assert_eq!((back.start, back.end), (Some(a1), None));
    /// assert_eq!(back.constraints[0].move_number, 23);
    /// assert_eq!(back.reversed(), req);
    /// ```
    pub fn reversed(&self) -> Request {
        let n = self.board.len() as u32;
        Request {
            board: self.board,
            start: self.end,
            end: self.start,
            closed: self.closed,
            constraints: self
                .constraints
                .iter()
                .map(|c| Constraint {
                    move_number: (n + 1).saturating_sub(c.move_number),
                    square: c.square,
                })
                .collect(),
        }
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

/// How much work a search may do before it gives up: search nodes and a deadline. Every
/// strategy honours it (the backtracking search reports [`Answer::Unfinished`](search::Answer::Unfinished)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Most squares placed (search nodes) in total, `None` for no limit.
    pub max_nodes: Option<u64>,
    /// Instant after which the search stops, `None` for no limit.
    pub deadline: Option<Instant>,
    /// Where the search adds its nodes as it goes, for a progress line on another thread.
    pub meter: Option<Meter>,
}

impl Budget {
    /// No limit: the search runs until it finds a tour or proves there is none.
    pub fn unlimited() -> Budget {
        Budget::default()
    }

    /// At most `n` search nodes.
    ///
    /// ```
    /// use knights_tour::solve::Budget;
    /// assert_eq!(Budget::nodes(10).max_nodes, Some(10));
    /// ```
    pub fn nodes(n: u64) -> Budget {
        Budget {
            max_nodes: Some(n),
            ..Budget::default()
        }
    }

    /// Stop after `time` from now.
    pub fn time(time: Duration) -> Budget {
        Budget {
            deadline: Instant::now().checked_add(time),
            ..Budget::default()
        }
    }

    /// What is left of this budget after `spent` nodes.
    ///
    /// ```
    /// use knights_tour::solve::Budget;
    /// assert_eq!(Budget::nodes(10).after(4).max_nodes, Some(6));
    /// ```
    pub fn after(self, spent: u64) -> Budget {
        Budget {
            max_nodes: self.max_nodes.map(|m| m.saturating_sub(spent)),
            ..self
        }
    }

    /// This budget with at most `nodes` more search nodes.
    ///
    /// ```
    /// use knights_tour::solve::Budget;
    /// assert_eq!(Budget::nodes(10).capped(4).max_nodes, Some(4));
    /// assert_eq!(Budget::unlimited().capped(4).max_nodes, Some(4));
    /// ```
    pub fn capped(self, nodes: u64) -> Budget {
        Budget {
            max_nodes: Some(self.max_nodes.map_or(nodes, |m| m.min(nodes))),
            ..self
        }
    }

    pub(crate) fn limits(&self, spent: u64) -> backtrack::Limits {
        backtrack::Limits {
            max_nodes: self.max_nodes.map_or(u64::MAX, |m| m.saturating_sub(spent)),
            deadline: self.deadline,
            meter: self.meter,
        }
    }

    /// Whether the budget is spent after `spent` nodes (or its deadline passed).
    pub fn exhausted(&self, spent: u64) -> bool {
        self.max_nodes.is_some_and(|m| spent >= m)
            || self.deadline.is_some_and(|t| Instant::now() >= t)
    }
}
