//! "Move k on X" constraints searched all together: the tour is cut at its constrained squares
//! into pieces of known length (between move `a` on square A and move `b` on square B the knight
//! makes exactly `b - a` moves), and every piece is grown at once, from both of its ends, one
//! square at a time, always where the fewest squares are possible. Written for requests dense in
//! constraints (puzzles, dozens of constraints): every constraint shortens the pieces, and
//! every rule below gets stronger as they shorten.
//!
//! The search is exhaustive: it proves that no tour meets a request ([`Answer::NoTour`]) and
//! counts the tours that do ([`count`]), which is how a puzzle's answer is proved unique. The
//! rules that cut it short never discard a tour:
//! - **distance and colour**: a piece's end steps only to a square from which the piece's other
//!   end is still within reach in the moves left (knight distance on the board, exact on boards
//!   up to [`TABLE_MAX_SQUARES`] squares, the infinite board's otherwise, a lower bound either
//!   way); the knight changes colour every move, so the colours follow from the move numbers;
//! - **every square covered**: each free square is matched to a piece that can still reach it
//!   in time, no piece taking more squares of a colour than it has moves of that colour
//!   (Hall's condition, kept by augmenting paths); so the squares only one piece can reach are
//!   that piece's, and a corner no piece has time for is found at once (Hidato solvers'
//!   orphan check). It runs when the pieces average at most [`COVERAGE_MAX_PIECE`] squares;
//! - **degrees**: a free square needs two ways in or out (free neighbours, or piece ends next
//!   to it), one if it may be the tour's first or last square, and at most two squares may have
//!   a single way; a square whose every way is needed takes the next move of the piece end
//!   next to it;
//! - **regions**: the free squares fall into regions (connected through free squares), and a
//!   piece's remaining squares all lie in one region next to both of its ends, so every region
//!   must be filled exactly, colour by colour, by the pieces that can enter it.
//!
//! The branching is "fail first": of all the pieces' ends, the one with the fewest possible
//! next squares is extended, its candidates in Warnsdorff's order (fewest onward ways first).
//! A dead end is explained by the decisions it depends on (the squares next to it, the ends of
//! the pieces involved), and the search backs up to the latest of those (Prosser's
//! conflict-directed backjumping), so a dead end in one piece does not make the search
//! re-enumerate the unrelated pieces grown after the decision that caused it.

use std::time::Instant;

use rand::Rng as _;

use crate::solve::search::Answer;
use crate::solve::{Budget, Constraint, Meter, Method, Request, Rng};
use crate::tour::Tour;

/// The knight's graph and free squares of a [`Joint`], for its regions (a macro, not a
/// method, so that the regions can be borrowed mutably beside it).
macro_rules! graph {
    ($joint:expr) => {
        $crate::solve::joint::regions::Graph {
            nbr: &$joint.nbr,
            nbr_len: &$joint.nbr_len,
            time: &$joint.time,
            class_of: &$joint.class_of,
        }
    };
}

mod branch;
mod conflict;
mod cover;
mod position;
mod regions;

use conflict::Conflict;
use position::Joint;
pub(crate) use position::Tables;

/// "No square" / "no move" in the dense tables.
const NONE: u32 = u32::MAX;

/// An unreachable distance, small enough to add without overflow.
const FAR: u32 = u32::MAX / 4;

/// The distance table's largest distance: longer ones are stored as this one.
const TABLE_SATURATES: u32 = 254;

/// Boards up to this many squares get a table of exact knight distances (one byte per pair:
/// 2.5 MB at the limit, built in milliseconds); larger ones use the infinite board's distance.
pub const TABLE_MAX_SQUARES: usize = 1600;

/// The coverage rule runs when the pieces average at most this many squares: each piece keeps
/// the squares matched to it, re-checked whenever it grows, which costs about as many distance
/// lookups as a piece is long.
pub const COVERAGE_MAX_PIECE: usize = 160;

/// Whether the joint search takes `req`: an open tour with at least one fixed square (a closed
/// tour, or one with nothing fixed, is left to the other searches).
fn supports(req: &Request) -> bool {
    !req.closed && !req.all_constraints().is_empty()
}

/// One tour meeting `req` (which the search takes) and the search nodes used;
/// [`Answer::NoTour`] when the search proved there is none. Ties between equally good squares
/// are broken by `rng`; the search restarts with growing node caps and fresh ties, so one
/// unlucky early choice cannot stall it, and a round that ends within its cap is a proof.
/// When no tour was found, also the deepest position the search reached that the rules did
/// not rule out: every move placed there (the constrained ones too), for the repair search
/// ([`crate::solve::repair`]) to keep most of and search the rest again. `distances` is built
/// once for the board and shared by every search on it.
pub(crate) fn solve_deepest(
    req: &Request,
    budget: &Budget,
    rng: &mut Rng,
    tables: &Tables,
) -> (Answer, u64, Vec<Constraint>) {
    if !supports(req) {
        return (Answer::Unfinished, 0, Vec::new());
    }
    let Some(mut search) = Joint::new(req, tables) else {
        return (Answer::NoTour, 0, Vec::new());
    };
    search.deepest = Some(Deepest::default());
    let (result, nodes) = search.solve(budget, rng);
    let placed = search.deepest.take().map_or_else(Vec::new, |d| {
        let board = req.board;
        (1..=search.n)
            .zip(d.sq)
            .filter(|&(_, s)| s != NONE)
            .map(|(move_number, s)| Constraint {
                move_number,
                square: board.square_at(s),
            })
            .collect()
    });
    (result, nodes, placed)
}

/// The deepest position of a search, kept when asked for ([`solve_deepest`]).
#[derive(Default)]
struct Deepest {
    /// Decisions taken there.
    depth: u32,
    /// Square of each move `1..=n` there, [`NONE`] for moves not placed.
    sq: Vec<u32>,
}

impl Joint {
    /// The rounds of [`solve_deepest`]: node caps growing, ties broken afresh each round,
    /// until a tour, a proof or the end of `budget`.
    fn solve(&mut self, budget: &Budget, rng: &mut Rng) -> (Answer, u64) {
        let mut spent = 0u64;
        let mut cap = FIRST_ROUND_NODES.max(2 * self.board.len() as u64);
        loop {
            if budget.exhausted(spent) {
                return (Answer::Unfinished, spent);
            }
            let mut limits = Limits::of(budget, spent);
            let capped = limits.max_nodes > cap;
            limits.max_nodes = limits.max_nodes.min(cap);
            self.order = Order::Random(Box::new(crate::solve::rng_from_seed(rng.random())));
            let mut found = None;
            let stop = self.run(limits, &mut |path| {
                found = Some(path.to_vec());
                false
            });
            spent += self.nodes;
            self.reset();
            if let Some(path) = found {
                let tour = Tour::from_indices_unchecked(self.board, path);
                return (
                    Answer::Found {
                        tour,
                        by: Method::Joint,
                    },
                    spent,
                );
            }
            match stop {
                Stop::Exhausted => return (Answer::NoTour, spent),
                Stop::Budget if capped => {}
                _ => return (Answer::Unfinished, spent),
            }
            cap = cap.saturating_add(cap / ROUND_GROWTH_DIVISOR);
        }
    }
}

/// What [`count`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    /// Tours meeting the request found (at most the limit).
    pub tours: u64,
    /// Whether every tour was counted: the search ended on its own, not at the limit or the
    /// budget.
    pub exhaustive: bool,
    /// Search nodes used.
    pub nodes: u64,
}

/// Count the tours meeting `req`, stopping at `limit` (2 tells whether a puzzle's answer is
/// unique), each passed to `visit` as found. A request the search does not take
/// (`supports`) counts nothing and is not exhaustive.
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::solve::{joint, Budget, Constraint, Request};
/// let board = Board::new(5, 5).unwrap();
/// let req = Request {
///     constraints: vec![Constraint { move_number: 1, square: board.parse_square("a1").unwrap() }],
///     ..Request::open(board)
/// };
/// // The 304 open tours of 5x5 from a corner.
/// let c = joint::count(&req, None, &Budget::unlimited(), |t| assert!(req.is_satisfied_by(t)));
/// assert_eq!((c.tours, c.exhaustive), (304, true));
/// ```
pub fn count(
    req: &Request,
    limit: Option<u64>,
    budget: &Budget,
    mut visit: impl FnMut(&Tour),
) -> Count {
    let mut out = Count {
        tours: 0,
        exhaustive: false,
        nodes: 0,
    };
    if !supports(req) {
        return out;
    }
    let Some(mut search) = Joint::new(req, &Tables::new(req.board)) else {
        out.exhaustive = true;
        return out;
    };
    if limit == Some(0) {
        return out;
    }
    let board = req.board;
    let stop = search.run(Limits::of(budget, 0), &mut |path| {
        out.tours += 1;
        visit(&Tour::from_indices_unchecked(board, path.to_vec()));
        limit.is_none_or(|l| out.tours < l)
    });
    out.nodes = search.nodes;
    out.exhaustive = stop == Stop::Exhausted;
    out
}

/// Nodes of the first round of [`solve_deepest`] at least (2 a square on larger boards): the
/// search has a heavy tail, so short rounds that restart often do best.
const FIRST_ROUND_NODES: u64 = 2000;

/// Each round's node cap grows by this fraction of the last (1/10), so the search keeps
/// restarting often yet a proof on a small board still gets a round long enough to finish.
const ROUND_GROWTH_DIVISOR: u64 = 10;

/// The search reads the clock every this many nodes.
const DEADLINE_STEP: u64 = 256;

/// The coverage rule reads the clock every this many augmenting paths (about 85 us each in
/// the first matching of a 200x200 board with 1,000 constraints).
const MATCHING_DEADLINE_STEP: u32 = 64;

/// Node and time limits of one run.
#[derive(Clone, Copy)]
struct Limits {
    max_nodes: u64,
    deadline: Option<Instant>,
    meter: Option<Meter>,
}

impl Limits {
    fn of(budget: &Budget, spent: u64) -> Limits {
        Limits {
            max_nodes: budget
                .max_nodes
                .map_or(u64::MAX, |m| m.saturating_sub(spent)),
            deadline: budget.deadline,
            meter: budget.meter,
        }
    }
}

/// Why [`Joint::run`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    /// Every possibility was examined.
    Exhausted,
    /// The visitor asked to stop.
    Visitor,
    /// The node limit or the deadline came first.
    Budget,
}

/// How ties between equally good squares are broken.
enum Order {
    /// By a fixed key (Roth's rule: farther from the centre first), for reproducible proofs.
    Fixed,
    /// At random.
    Random(Box<Rng>),
}
