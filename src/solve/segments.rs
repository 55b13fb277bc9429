//! Tours with "move k on X" constraints, grown segment by segment: the path from one
//! constrained square to the next (an exact number of moves) is searched on its own, under a
//! small node cap, and a segment that cannot be finished is retried with other random ties, then
//! the segment before it is redone.
//!
//! One depth-first search over the whole tour (the [`backtrack`](super::backtrack) search)
//! keeps the same pruning rules but backtracks chronologically: when the knight cannot reach
//! the next constrained square in time, or leaves a region it can no longer cover, the cause
//! lies hundreds of moves back and the search is lost in the subtrees in between.
//!
//! Every segment is searched by the [`backtrack`](super::backtrack) engine with its pruning intact (constrained
//! squares kept free until their move, the next one within reach in time, the unvisited squares
//! connected, no stranded square), so a segment's end is a position from which a tour may still
//! exist. Within a segment the knight follows Warnsdorff's rule, heads for the segment's end
//! square once few moves are to spare, and among equally constrained moves leaves alone the
//! squares nearer a later constrained square (that segment will need them). Attempts
//! alternate between growing the tour from move 1 and from move n, whichever ends are fixed
//! (`orientations` says why). This is not exhaustive: it never proves that no tour exists; the
//! portfolio keeps the exhaustive search beside it for that.

use rand::Rng as _;

use crate::board::Square;
use crate::solve::backtrack::{Extension, Pieces};
use crate::solve::search::{Answer, Search};
use crate::solve::{Budget, Method, Request, Rng};
use crate::tour::Tour;

/// Attempts at one segment from the same prefix before the segment before it is redone.
const RETRIES: u32 = 3;

/// Nodes one attempt at a whole tour may use, per square of the board, before it starts again
/// from a new start: a segment that keeps failing is often doomed by segments placed long
/// before it.
const NODES_PER_SQUARE: u64 = 10;

/// Nodes one attempt may use at least, whatever the board's size: each attempt sets up a new
/// search (a start and its plan, the engine, the map of nearest constrained squares), which on
/// a small board costs about as much as ten nodes a square.
const MIN_NODES_PER_ATTEMPT: u64 = 4096;

/// Nodes one attempt at a segment of `len` moves may use: a walk without backtracking takes
/// `len`; the rest is room to repair the segment's end. Larger caps only lose time: a segment
/// that is not found soon is rarely found at all.
fn segment_cap(len: usize) -> u64 {
    2 * len as u64 + 256
}

/// Moves to spare on the way to a segment's end square below which the knight heads for it,
/// drawn for each attempt: heading home late makes the knight sweep the squares around it
/// first, early leaves them for later segments, and which is right depends on the request.
const HOMING_SLACKS: std::ops::RangeInclusive<u32> = 2..=4;

/// Random starts tried before giving up on a request whose start is free (each refused start
/// costs a plan only).
const START_DRAWS: u32 = 256;

/// The largest board the search takes: it holds several arrays a square, the plan alone 32
/// bytes a square (on 10000x10000, 9 GB).
pub const MAX_SQUARES: usize = 1_000_000;

/// The segment search as a [`Search`]: each step grows whole tours from fresh starts until
/// one is found or the step's budget is spent. Ties are broken by the step's generator, so a
/// seed gives one tour.
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::solve::segments::Segments;
/// use knights_tour::solve::search::{Answer, Search};
/// use knights_tour::solve::{rng_from_seed, Budget, Constraint, Request};
/// let board = Board::new(20, 20).unwrap();
/// let at = |k, name| Constraint { move_number: k, square: board.parse_square(name).unwrap() };
/// let req = Request { constraints: vec![at(1, "a1"), at(400, "t19")], ..Request::open(board) };
/// let (answer, _) = Segments::new(&req).run(&Budget::nodes(1_000_000), &mut rng_from_seed(1));
/// assert!(matches!(answer, Answer::Found { tour, .. } if req.is_satisfied_by(&tour)));
/// ```
pub struct Segments<'a> {
    request: &'a Request,
}

impl<'a> Segments<'a> {
    /// The search for `request`, which it takes ([`declines`](crate::solve::search::declines) is `None`).
    pub fn new(request: &'a Request) -> Segments<'a> {
        Segments { request }
    }
}

impl Search for Segments<'_> {
    fn method(&self) -> Method {
        Method::Segments
    }

    fn exhaustive(&self) -> bool {
        false
    }

    fn step(&mut self, budget: &Budget, rng: &mut Rng) -> (Answer, u64) {
        solve(self.request, budget, rng)
    }
}

/// One tour meeting `req` (which fixes a square), or [`Answer::Unfinished`]; never
/// [`Answer::NoTour`], and the nodes used.
fn solve(req: &Request, budget: &Budget, rng: &mut Rng) -> (Answer, u64) {
    let ways = orientations(req);
    let mut spent = 0u64;
    // Orientations in a row that found no start the plan accepts.
    let mut startless = 0;
    for attempt in 0.. {
        if startless == ways.len() && ways.iter().all(|(req, _)| first_move_fixed(req)) {
            // No plan from either end's one start: no attempt ever starts.
            return (Answer::Spent, spent);
        }
        if budget.exhausted(spent) || startless == ways.len() {
            break;
        }
        let (oriented, reverse) = &ways[attempt % ways.len()];
        let Some(pieces) = pieces_from_some_start(oriented, rng) else {
            startless += 1;
            continue;
        };
        startless = 0;
        let (path, nodes) = grow(oriented, &pieces, &budget.after(spent), rng);
        spent += nodes;
        if let Some(mut path) = path {
            if *reverse {
                path.reverse();
            }
            let tour = Tour::from_indices_unchecked(req.board, path);
            return (
                Answer::Found {
                    tour,
                    by: Method::Segments,
                },
                spent,
            );
        }
    }
    (Answer::Unfinished, spent)
}

/// The request as the attempts grow it, each with `true` when reversed (move k becomes move
/// n + 1 - k): attempts alternate between the two, so that a tour is grown from either end
/// whatever the request fixes. Growing from the other end changes which segments come first,
/// and the hard ones are often the last.
fn orientations(req: &Request) -> [(Request, bool); 2] {
    [(req.clone(), false), (req.reversed(), true)]
}

/// Whether move 1's square is given, so that [`pieces_from_some_start`] draws no start.
fn first_move_fixed(req: &Request) -> bool {
    req.all_constraints().iter().any(|c| c.move_number == 1)
}

/// The plan from the request's start, or from a random square the plan accepts (right colour,
/// the first constrained square within reach in time).
fn pieces_from_some_start(req: &Request, rng: &mut Rng) -> Option<Pieces> {
    if let Some(start) = req.start {
        return Pieces::new(req, start);
    }
    let board = req.board;
    let first = req
        .all_constraints()
        .into_iter()
        .min_by_key(|c| c.move_number)?;
    // A knight moves at most two rows and two columns a move: draw from that box around the
    // first constrained square, of the right colour, so a constraint on move 2 or 3 does not
    // leave the draws to luck.
    let steps = first.move_number - 1;
    let reach = 2u32.saturating_mul(steps);
    let box_of = |at: u32, size: u32| {
        (
            at.saturating_sub(reach),
            (at.saturating_add(reach)).min(size - 1),
        )
    };
    let (rows, cols) = (
        box_of(first.square.row, board.rows()),
        box_of(first.square.col, board.cols()),
    );
    (0..START_DRAWS).find_map(|_| {
        let start = Square::new(
            rng.random_range(rows.0..=rows.1),
            rng.random_range(cols.0..=cols.1),
        );
        let colour_ok =
            (start.row.abs_diff(first.square.row) + start.col.abs_diff(first.square.col)) % 2
                == steps % 2;
        colour_ok.then(|| Pieces::new(req, start)).flatten()
    })
}

/// Grow a tour from the plan's start, segment by segment; `None` when the budget runs out, the
/// attempt has used its share ([`NODES_PER_SQUARE`], at least [`MIN_NODES_PER_ATTEMPT`]) or
/// the first segment keeps failing (a new start may do better).
fn grow(req: &Request, pieces: &Pieces, budget: &Budget, rng: &mut Rng) -> (Option<Vec<u32>>, u64) {
    let n = req.board.len();
    // Path lengths at which a segment ends: every constrained move after the first, then n.
    let mut goals: Vec<usize> = req
        .all_constraints()
        .iter()
        .map(|c| c.move_number as usize)
        .filter(|&k| k > 1 && k < n)
        .collect();
    goals.push(n);
    goals.sort_unstable();
    goals.dedup();
    let mut fails = vec![0u32; goals.len()];
    let slack = rng.random_range(HOMING_SLACKS);
    let mut grower = pieces.grower(rng, slack);
    let share = (NODES_PER_SQUARE * n as u64).max(MIN_NODES_PER_ATTEMPT);
    let mut j = 0;
    let mut spent = 0u64;
    loop {
        if budget.exhausted(spent) || spent > share {
            return (None, spent);
        }
        let goal = goals[j];
        let mut limits = budget.limits(spent);
        let len = goal - grower.path().len();
        limits.max_nodes = limits.max_nodes.min(segment_cap(len));
        let (extension, nodes) = grower.extend(goal, limits);
        spent += nodes;
        match extension {
            Extension::Reached => {
                if goal == n {
                    return (Some(grower.path().to_vec()), spent);
                }
                j += 1;
                fails[j] = 0;
            }
            Extension::Budget | Extension::Exhausted => {
                fails[j] += 1;
                let proved = extension == Extension::Exhausted;
                // Back up while a segment has used its retries (or cannot be finished at all).
                while proved || fails[j] > RETRIES {
                    if j == 0 {
                        return (None, spent);
                    }
                    fails[j] = 0;
                    j -= 1;
                    fails[j] += 1;
                    grower.truncate(if j == 0 { 1 } else { goals[j - 1] });
                    if fails[j] <= RETRIES {
                        break;
                    }
                }
            }
        }
    }
}
