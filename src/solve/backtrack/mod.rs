//! Exhaustive depth-first search for knight's tours: it cannot fail given time, and it proves
//! impossibility ([`Answer::NoTour`]) when it runs out of moves to try.
//!
//! The search walks in Warnsdorff order (fewest onward moves first; ties by distance from the
//! centre, or at random after the first step of a [`Backtrack`]) on an explicit stack, and prunes with rules that
//! never discard a tour:
//! - colour parity and constraint distances are checked before any move (the `plan` module);
//! - an unvisited square with no way in is fatal; one with a single way in must be the last
//!   square, so at most one such square may exist, it must be allowed to be last (the fixed end,
//!   a neighbour of the start for closed tours, the right colour for open ones), and a neighbour
//!   of the knight in that state must be visited now if the last-square slot is taken;
//! - the unvisited squares must stay connected;
//! - move `k` must land on its constrained square, constrained squares are kept free until
//!   their move, and the next constrained square must stay within reach in time.
//!
//! ```
//! use knights_tour::board::{Board, Square};
//! use knights_tour::solve::backtrack::Backtrack;
//! use knights_tour::solve::search::{Answer, Search};
//! use knights_tour::solve::{rng_from_seed, Budget, Request};
//! let mut req = Request::open(Board::new(8, 8).unwrap());
//! req.start = Some(Square::new(0, 0));
//! req.end = Some(Square::new(0, 1));
//! match Backtrack::new(&req).run(&Budget::unlimited(), &mut rng_from_seed(1)).0 {
//!     Answer::Found { tour, .. } => assert!(req.is_satisfied_by(&tour)),
//!     other => panic!("{other:?}"),
//! }
//! ```

mod engine;
mod plan;

use rand::Rng as _;

use crate::board::Square;
use crate::solve::search::{Answer, Declined, Search};
use crate::solve::{Method, Request, Rng};
use crate::tour::Tour;
pub(crate) use engine::Limits;
use engine::{Engine, Stop};
use plan::Plan;
pub(crate) use plan::{from_centre, knight_distance, neighbour_arrays, rank};

pub use crate::solve::Budget;

/// What [`enumerate`] counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Enumeration {
    /// Tours found (each passed to the visitor).
    pub count: u64,
    /// `true` if every tour was counted; `false` if the limit, the budget or the visitor stopped
    /// the search.
    pub exhaustive: bool,
    /// Search nodes used.
    pub nodes: u64,
}

/// The exhaustive search as a [`Search`]. Its first step keeps a fixed order among equally
/// constrained moves (so a run's first tour depends on the request alone); later steps break
/// ties at random, so that they find other tours. Where the request fixes nothing on an open
/// tour, each step starts on a random square from which a tour can exist; a closed tour found
/// with nothing fixed is turned to start on a random square in a random direction. Each step
/// searches afresh within its budget: a step that ends within it is exhaustive, a proof.
pub struct Backtrack<'a> {
    request: &'a Request,
    /// Whether the next step keeps the fixed order.
    fixed: bool,
}

/// The largest board the search takes: about 100 bytes a square (420 MB on 2000x2000,
/// measured through the CLI; on 10000x10000 it would take 10 GB).
pub const MAX_SQUARES: usize = 4_000_000;

/// Why the search does not take `request`, or `None` when it does: a board of at most
/// [`MAX_SQUARES`].
pub fn declines(request: &Request) -> Option<Declined> {
    (request.board.len() > MAX_SQUARES).then_some(Declined::TooLarge {
        max_squares: MAX_SQUARES,
    })
}

impl<'a> Backtrack<'a> {
    /// The search for `request`, which it takes ([`declines`] is `None`).
    pub fn new(request: &'a Request) -> Backtrack<'a> {
        Backtrack {
            request,
            fixed: true,
        }
    }

    /// The search for `request`, every step breaking ties at random (the first too): for a
    /// caller that wants another tour, or another course, from each step.
    pub fn shuffled(request: &'a Request) -> Backtrack<'a> {
        Backtrack {
            request,
            fixed: false,
        }
    }
}

impl Search for Backtrack<'_> {
    fn method(&self) -> Method {
        Method::Backtrack
    }

    fn exhaustive(&self) -> bool {
        true
    }

    fn step(&mut self, budget: &Budget, rng: &mut Rng) -> (Answer, u64) {
        let first = std::mem::replace(&mut self.fixed, false);
        let req = self.request;
        let (answer, nodes) = match random_start_request(req, rng) {
            Some(from) => {
                let ties = (!first).then_some(&mut *rng);
                match search(&from, budget, ties) {
                    // A start with no tour (rare): search from any start instead.
                    (Answer::NoTour, n) => {
                        let (answer, m) = search(req, &budget.after(n), None);
                        (answer, n + m)
                    }
                    found => found,
                }
            }
            None => search(req, budget, (!first).then_some(&mut *rng)),
        };
        match answer {
            Answer::Found { tour, by } => (
                Answer::Found {
                    tour: turn_closed(req, tour, rng),
                    by,
                },
                nodes,
            ),
            other => (other, nodes),
        }
    }
}

/// For an open request that fixes nothing, the same request from a random admissible start,
/// so the search's tour starts at random too; `None` when the request fixes a square or is
/// closed (a closed tour is turned afterwards instead).
fn random_start_request(request: &Request, rng: &mut Rng) -> Option<Request> {
    if request.closed || !request.all_constraints().is_empty() {
        return None;
    }
    Some(Request {
        start: Some(crate::solve::random_start(request, rng)),
        ..request.clone()
    })
}

/// A closed tour found with no fixed square, turned to start on a random square in a random
/// direction: the random start is random for the search too.
fn turn_closed(r: &Request, tour: Tour, rng: &mut Rng) -> Tour {
    if !r.closed || !r.all_constraints().is_empty() {
        return tour;
    }
    let board = r.board;
    let start = board.square_at(rng.random_range(0..board.len() as u32));
    let tour = if rng.random_bool(0.5) {
        tour.reversed()
    } else {
        tour
    };
    tour.rotated_to(start).unwrap_or(tour)
}

/// Extend `prefix` (moves 1..=k fixed) to a complete tour meeting `req`, with the search
/// nodes used; [`Answer::NoTour`] if no tour starts with that prefix (including a prefix that
/// is not a knight's path on `req.board` or contradicts the request). An empty prefix is a
/// search of the request alone.
///
/// ```
/// use knights_tour::board::{Board, Square};
/// use knights_tour::solve::backtrack::{complete, Budget};
/// use knights_tour::solve::search::Answer;
/// use knights_tour::solve::Request;
/// use knights_tour::tour::Tour;
/// let board = Board::new(5, 5).unwrap();
/// let prefix = Tour::from_squares(board, [Square::new(0, 0), Square::new(1, 2)]).unwrap();
/// match complete(&prefix, &Request::open(board), &Budget::unlimited()).0 {
///     Answer::Found { tour, .. } => assert_eq!(&tour.indices()[..2], prefix.indices()),
///     other => panic!("{other:?}"),
/// }
/// ```
pub fn complete(prefix: &Tour, req: &Request, budget: &Budget) -> (Answer, u64) {
    if prefix.board() != req.board || prefix.check().is_err() {
        return (Answer::NoTour, 0);
    }
    let Some(start) = prefix.start() else {
        return search(req, budget, None);
    };
    // Each round replays the prefix without counting nodes; a prefix that breaks the request
    // leaves nothing to search, hence `NoTour`.
    search_in_rounds(req, vec![start], &prefix.indices()[1..], budget, None)
}

/// One tour meeting `req` and the search nodes used, [`Answer::NoTour`] when the search
/// proved there is none; ties between equally constrained moves broken in a fixed order, or
/// by `rng` when given (the first round included).
pub(crate) fn search(req: &Request, budget: &Budget, rng: Option<&mut Rng>) -> (Answer, u64) {
    solve_ordered(req, budget, rng)
}

/// Call `visit` on every tour meeting `req` (each directed path once: a closed tour from a
/// fixed start is counted in both directions; without a fixed start or end every start is
/// tried), up to `limit` tours; `visit` returns `false` to stop.
///
/// ```
/// use knights_tour::board::{Board, Square};
/// use knights_tour::solve::Request;
/// use knights_tour::solve::backtrack::{enumerate, Budget};
/// let mut req = Request::open(Board::new(5, 5).unwrap());
/// req.start = Some(Square::new(0, 0));
/// let e = enumerate(&req, None, &Budget::unlimited(), |t| req.is_satisfied_by(t));
/// assert_eq!((e.count, e.exhaustive), (304, true));
/// ```
pub fn enumerate(
    req: &Request,
    limit: Option<u64>,
    budget: &Budget,
    mut visit: impl FnMut(&Tour) -> bool,
) -> Enumeration {
    let mut out = Enumeration {
        count: 0,
        exhaustive: true,
        nodes: 0,
    };
    let (search_req, reverse) = oriented(req);
    let starts: Vec<Square> = match search_req.start {
        Some(s) => vec![s],
        None => search_req.board.squares().collect(),
    };
    for start in starts {
        if limit.is_some_and(|l| out.count >= l) || budget.exhausted(out.nodes) {
            out.exhaustive = false;
            break;
        }
        let Some(plan) = Plan::build(&search_req, start) else {
            continue;
        };
        let mut engine = Engine::new(&plan, None);
        let mut stopped = false;
        let stop = engine.run(budget.limits(out.nodes), &mut |path| {
            out.count += 1;
            let tour = to_tour(req, path, reverse);
            if !visit(&tour) || limit.is_some_and(|l| out.count >= l) {
                stopped = true;
                return false;
            }
            true
        });
        out.nodes += engine.nodes;
        if stop != Stop::Exhausted || stopped {
            out.exhaustive = false;
            break;
        }
    }
    out
}

/// The request to search: with no start but an end, the reversed request (start at the end);
/// `true` if found tours must be reversed back.
fn oriented(req: &Request) -> (Request, bool) {
    if req.start.is_some() || req.end.is_none() {
        return (req.clone(), false);
    }
    (req.reversed(), true)
}

fn to_tour(req: &Request, path: &[u32], reverse: bool) -> Tour {
    let mut squares = path.to_vec();
    if reverse {
        squares.reverse();
    }
    Tour::from_indices_unchecked(req.board, squares)
}

/// Run until the first tour; map the engine's stop to an answer.
fn run_to_first(engine: &mut Engine<'_, '_>, req: &Request, limits: Limits) -> Answer {
    let mut found: Option<Vec<u32>> = None;
    let stop = engine.run(limits, &mut |path| {
        found = Some(path.to_vec());
        false
    });
    match (found, stop) {
        (Some(path), _) => Answer::Found {
            tour: to_tour(req, &path, false),
            by: Method::Backtrack,
        },
        (None, Stop::Budget) => Answer::Unfinished,
        (None, _) => Answer::NoTour,
    }
}

fn solve_ordered(req: &Request, budget: &Budget, mut rng: Option<&mut Rng>) -> (Answer, u64) {
    let (search_req, reverse) = oriented(req);
    let result = match search_req.start {
        Some(start) => solve_from(&search_req, start, budget, rng),
        None if search_req.closed && search_req.constraints.is_empty() => {
            // A closed tour visits every square: any start will do.
            solve_from(&search_req, Square::new(0, 0), budget, rng)
        }
        None => solve_any_start(&search_req, budget, &mut rng),
    };
    match result {
        (Answer::Found { tour, by }, nodes) if reverse => (
            Answer::Found {
                tour: tour.reversed(),
                by,
            },
            nodes,
        ),
        other => other,
    }
}

fn solve_from(
    req: &Request,
    start: Square,
    budget: &Budget,
    rng: Option<&mut Rng>,
) -> (Answer, u64) {
    search_in_rounds(req, vec![start], &[], budget, rng)
}

/// No start and no end: try every start, corners (far from the centre) first. Plans are built
/// one at a time: a plan per square of a big board would not fit in memory.
fn solve_any_start(req: &Request, budget: &Budget, rng: &mut Option<&mut Rng>) -> (Answer, u64) {
    // A constraint on move 1 is the start: every other start would be refused, each after a
    // pass over the board (on 1000x1000, a million passes).
    if let Some(first) = req.all_constraints().iter().find(|c| c.move_number == 1) {
        return search_in_rounds(req, vec![first.square], &[], budget, rng.as_deref_mut());
    }
    let mut starts: Vec<Square> = req.board.squares().collect();
    starts.sort_by_key(|&sq| std::cmp::Reverse(from_centre(req.board, sq)));
    search_in_rounds(req, starts, &[], budget, rng.as_deref_mut())
}

/// Node cap of the first round: enough for a search without backtracking on most boards.
fn first_round_cap(n: usize) -> u64 {
    (FIRST_ROUND_NODES).max(4 * n as u64)
}

/// Nodes each search gets in the first round at least; rounds multiply it by [`ROUND_GROWTH`].
const FIRST_ROUND_NODES: u64 = 1 << 12;

/// Growth of the node cap from one round to the next: faster growth starves the later rounds'
/// random orders, slower repeats the proofs (`docs/solver.md`).
const ROUND_GROWTH: u64 = 3;

/// Seed of the tie order of restarts when the caller gave no generator (so [`solve`] stays
/// deterministic).
const RESTART_SEED: u64 = 0x6b6e_6967_6874;

/// Search from each start, after the fixed moves `prefix` that follow it, in
/// rounds with a node cap per search that grows
/// [`ROUND_GROWTH`]-fold each round. The first round uses the caller's order; later rounds break
/// ties at random, so one unlucky early choice (the heavy tail of depth-first search) cannot
/// stall the search and one hard start cannot hide an easy one. A round that finishes is
/// exhaustive, so starts proved hopeless are dropped and `NoTour` comes once every start is; the
/// rounds before the last one cost at most half as many nodes as the last.
fn search_in_rounds(
    req: &Request,
    mut starts: Vec<Square>,
    prefix: &[u32],
    budget: &Budget,
    mut rng: Option<&mut Rng>,
) -> (Answer, u64) {
    let mut own_rng = crate::solve::rng_from_seed(RESTART_SEED);
    let mut spent = 0u64;
    let mut cap = first_round_cap(req.board.len());
    let mut first_round = true;
    while !starts.is_empty() {
        let mut still_open = Vec::new();
        for start in starts {
            // Checked before the plan is built: building one is a pass over the board, and
            // refusing a start costs that pass too.
            if budget.exhausted(spent) {
                return (Answer::Unfinished, spent);
            }
            // Parity and constraint checks refuse some starts without search.
            let Some(plan) = Plan::build(req, start) else {
                continue;
            };
            let mut limits = budget.limits(spent);
            let capped = limits.max_nodes > cap;
            limits.max_nodes = limits.max_nodes.min(cap);
            let order = match (first_round, rng.as_deref_mut()) {
                (_, Some(r)) => Some(r),
                (true, None) => None,
                (false, None) => Some(&mut own_rng),
            };
            let mut engine = Engine::new(&plan, order);
            if !prefix.iter().all(|&s| engine.push_prefix(s)) {
                continue;
            }
            let answer = run_to_first(&mut engine, req, limits);
            spent += engine.nodes;
            match answer {
                Answer::Unfinished if capped => still_open.push(start),
                Answer::NoTour => {}
                other => return (other, spent),
            }
        }
        starts = still_open;
        cap = cap.saturating_mul(ROUND_GROWTH);
        first_round = false;
    }
    (Answer::NoTour, spent)
}

/// The search's plan and pruning rules for a tour grown piece by piece (`solve::segments`): a
/// path is extended from a prefix to a given length, under a node cap, and the caller decides
/// what to retry.
pub(crate) struct Pieces {
    plan: Plan,
}

/// How [`Pieces::extend`] ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Extension {
    /// The path reached the goal's length.
    Reached,
    /// No extension of the prefix reaches the goal: proved.
    Exhausted,
    /// The limits ran out first.
    Budget,
}

impl Pieces {
    /// The plan for `req` with move 1 on `start`; `None` when that is refused without search
    /// (parity, constrained squares too far apart in time).
    pub(crate) fn new(req: &Request, start: Square) -> Option<Pieces> {
        Plan::build(req, start).map(|plan| Pieces { plan })
    }

    /// A search from move 1 on [`Pieces::start`], ties broken by `rng`, grown piece by piece;
    /// with fewer than `homing_slack` moves to spare the knight heads for a piece's end square.
    pub(crate) fn grower<'p, 'r>(&'p self, rng: &'r mut Rng, homing_slack: u32) -> Grower<'p, 'r> {
        let mut engine = Engine::new(&self.plan, Some(rng));
        engine.set_owners();
        Grower {
            engine,
            homing_slack,
        }
    }
}

/// A path grown piece by piece ([`Pieces::grower`]): extended to a goal length, or cut back.
pub(crate) struct Grower<'p, 'r> {
    engine: Engine<'p, 'r>,
    homing_slack: u32,
}

impl Grower<'_, '_> {
    /// The path so far (from move 1).
    pub(crate) fn path(&self) -> &[u32] {
        self.engine.path()
    }

    /// Take moves back until `len` squares remain (at least the start).
    pub(crate) fn truncate(&mut self, len: usize) {
        self.engine.truncate(len);
    }

    /// Extend the path to `goal` squares (a path every pruning rule accepts at its end); on
    /// failure the path is left as it was. Also returns the search nodes used.
    pub(crate) fn extend(&mut self, goal: usize, limits: Limits) -> (Extension, u64) {
        let base = self.engine.depth();
        let before = self.engine.nodes;
        // The engine counts nodes over its whole life.
        let limits = Limits {
            max_nodes: before.saturating_add(limits.max_nodes),
            ..limits
        };
        self.engine.set_goal(goal, self.homing_slack);
        let mut reached = false;
        let stop = self.engine.run(limits, &mut |_| {
            reached = true;
            false
        });
        let nodes = self.engine.nodes - before;
        let answer = match (reached, stop) {
            (true, _) => Extension::Reached,
            (false, Stop::Budget) => Extension::Budget,
            (false, _) => Extension::Exhausted,
        };
        if !reached {
            self.engine.truncate(base);
        }
        (answer, nodes)
    }
}
