//! The one interface every search implements: built from a request (or declining it, saying
//! why), stepped under a [`Budget`] and a seeded generator, and saying whether it is
//! exhaustive, that is whether its failure proves that no tour exists.
//!
//! A step does a bounded piece of work (a Warnsdorff attempt, a repair, one goal met, a round
//! of backtracking) and says what came of it; the caller decides how many steps each search
//! gets ([`portfolio`]). Every tour names the search that found it, so
//! every output can say which search that was.
//!
//! ```
//! use knights_tour::board::Board;
//! use knights_tour::solve::search::{self, Answer};
//! use knights_tour::solve::{rng_from_seed, Budget, Method, Plan, Request};
//! let req = Request::open(Board::new(6, 6).unwrap());
//! let mut search = search::build(Method::Backtrack, &req, &Plan::default()).unwrap();
//! assert!(search.exhaustive());
//! let (answer, _nodes) = search.run(&Budget::nodes(1_000_000), &mut rng_from_seed(1));
//! let Answer::Found { tour, by } = answer else { panic!("{answer:?}") };
//! assert!(req.is_satisfied_by(&tour) && by == Method::Backtrack);
//! ```

use std::fmt;

use crate::solve::{
    backtrack, construct, hand, portfolio, repair, rotations, segments, warnsdorff, Budget, Method,
    Plan, Request, Rng,
};
use crate::tour::Tour;

/// What a step of a search came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A complete tour meeting the request, and the search that found it.
    Found {
        /// The tour.
        tour: Tour,
        /// The search that found it.
        by: Method,
    },
    /// A path that does not meet the request, worth showing as a failed attempt (a
    /// Warnsdorff attempt that got stuck, or that finished elsewhere than asked).
    Missed {
        /// The path made.
        path: Tour,
        /// The search that made it.
        by: Method,
    },
    /// A closed tour built by the hand method, with the steps that made it.
    Built(Box<hand::HandTour>),
    /// Proof that no tour meets the request (exhaustive searches only).
    NoTour,
    /// Nothing yet: the budget of the step ran out, or the step ended without a tour.
    Unfinished,
    /// The search can give this request nothing more (its attempts are used up, the
    /// construction only repeats itself, no starting path exists): step it no more.
    Spent,
}

/// A search for tours, stepped by its caller.
pub trait Search: Send {
    /// The `--method` value that runs this search alone, and that its tours name.
    fn method(&self) -> Method;

    /// Whether the search is exhaustive: it answers [`Answer::NoTour`] only with a proof, and
    /// given time it always answers (a tour or that proof).
    fn exhaustive(&self) -> bool;

    /// Copies of the search run at once ([`Race`](super::race::Race)), each given the nodes
    /// one copy would be: 1 for a single search.
    fn copies(&self) -> usize {
        1
    }

    /// One step within `budget` (search nodes in the search's own unit, and a deadline):
    /// what came of it, and the nodes used. Random choices are drawn from `rng`.
    fn step(&mut self, budget: &Budget, rng: &mut Rng) -> (Answer, u64);

    /// Steps until one answers anything but [`Answer::Unfinished`] (a missed path too, so
    /// that the caller can show it) or `budget` is spent, with the nodes used in all.
    fn run(&mut self, budget: &Budget, rng: &mut Rng) -> (Answer, u64) {
        let mut spent = 0u64;
        while !budget.exhausted(spent) {
            let (answer, nodes) = self.step(&budget.after(spent), rng);
            // At least one node a step, so that a node budget always runs out.
            spent += nodes.max(1);
            if answer != Answer::Unfinished {
                return (answer, spent);
            }
        }
        (Answer::Unfinished, spent)
    }
}

/// Why a search does not take a request: facts, for the caller to put in words of its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Declined {
    /// It places no "move k on X" constraints (the construction).
    Constraints,
    /// It makes open tours only.
    Closed,
    /// It works from fixed squares ("move k on X", a start or an end), and the request fixes
    /// none.
    NothingFixed,
    /// It would need more memory than allowed on a board this large.
    TooLarge {
        /// The largest board it takes, in squares.
        max_squares: usize,
    },
    /// The construction builds no tour of this kind on this board.
    NotConstructible,
    /// The hand method does not take this board or start.
    Hand(hand::Unsupported),
    /// Every tour is found by exhaustive search only, and this search is not exhaustive.
    NotExhaustive,
}

impl fmt::Display for Declined {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Declined::Constraints => write!(f, "it places no \"move k on X\" constraints"),
            Declined::Closed => write!(f, "it makes open tours only"),
            Declined::NothingFixed => write!(
                f,
                "it works from fixed squares (\"move k on X\" constraints, a start or an end), \
                 and the request fixes none"
            ),
            Declined::TooLarge { max_squares } => write!(
                f,
                "it takes boards of up to {} squares, beyond which its memory would pass a few \
                 hundred MB",
                crate::english::thousands(*max_squares as u64)
            ),
            Declined::NotConstructible => {
                write!(
                    f,
                    "the construction builds no tour of this kind on this board"
                )
            }
            Declined::Hand(why) => write!(f, "{why}"),
            Declined::NotExhaustive => write!(
                f,
                "every tour is found by exhaustive search, and this search is not exhaustive"
            ),
        }
    }
}

/// The search `method` names for `request` (which passed
/// [`existence::check_request`](super::existence::check_request)), or why it does not take
/// the request. `plan` gives Warnsdorff's tie-break and attempts; [`Method::Auto`] is the
/// portfolio ([`portfolio`]), every search that applies.
pub fn build<'a>(
    method: Method,
    request: &'a Request,
    plan: &Plan,
) -> Result<Box<dyn Search + 'a>, Declined> {
    if let Some(why) = declines(method, request) {
        return Err(why);
    }
    Ok(match method {
        Method::Auto => Box::new(portfolio::Portfolio::new(request, plan)),
        Method::Warnsdorff => Box::new(warnsdorff::Attempts::new(
            request,
            plan.tiebreak,
            plan.attempts,
        )),
        Method::Construct => Box::new(construct::Construction::new(request)),
        Method::Backtrack => Box::new(backtrack::Backtrack::new(request)),
        Method::Segments => Box::new(segments::Segments::new(request)),
        Method::Joint => Box::new(repair::raced(request)),
        Method::Rotations => Box::new(rotations::raced(request)),
        Method::Hand => Box::new(hand::ByHand::new(request)),
    })
}

/// Why `method` does not take `request`, or `None` when it does: what a caller checks before
/// a run, to refuse a method that cannot take the request with the reason.
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::solve::search::{declines, Declined};
/// use knights_tour::solve::{Method, Request};
/// let mut req = Request::open(Board::new(8, 8).unwrap());
/// assert_eq!(declines(Method::Rotations, &req), Some(Declined::NothingFixed));
/// req.closed = true;
/// assert_eq!(declines(Method::Joint, &req), Some(Declined::Closed));
/// assert_eq!(declines(Method::Auto, &req), None);
/// ```
pub fn declines(method: Method, request: &Request) -> Option<Declined> {
    match method {
        Method::Auto => portfolio::declines(request),
        Method::Warnsdorff => None,
        Method::Backtrack => backtrack::declines(request),
        Method::Hand => hand::check_request(request).err().map(Declined::Hand),
        Method::Construct => construct::declines(request),
        Method::Segments => from_fixed_squares(request, true, segments::MAX_SQUARES),
        Method::Joint => from_fixed_squares(request, false, repair::MAX_SQUARES),
        Method::Rotations => from_fixed_squares(request, false, rotations::MAX_SQUARES),
    }
}

/// Why a search that grows tours from fixed squares ("move k on X", a start or an end), on
/// boards of at most `max_squares`, does not take `request`; `takes_closed` when it makes
/// closed tours too.
fn from_fixed_squares(
    request: &Request,
    takes_closed: bool,
    max_squares: usize,
) -> Option<Declined> {
    if request.closed && !takes_closed {
        Some(Declined::Closed)
    } else if request.all_constraints().is_empty() {
        Some(Declined::NothingFixed)
    } else if request.board.len() > max_squares {
        Some(Declined::TooLarge { max_squares })
    } else {
        None
    }
}
