//! Running a request the way `generate` does: Warnsdorff attempts first (each one a worksheet,
//! as in the Excel macro), then, for `--method auto`, a method that cannot fail.
//!
//! This is the library's "generate" without any file format: it turns a [`Request`] and a
//! [`Plan`] into the list of [`Attempt`]s that the writers lay out.

use std::collections::HashSet;
use std::hash::{Hash, Hasher};
use std::time::{Duration, Instant};

use rand::Rng as _;

use crate::board::Square;
use crate::solve::backtrack::{self, Budget, Search};
use crate::solve::{construct, existence, warnsdorff, Method, Request, Rng, Tiebreak};
use crate::tour::Tour;

/// How to look for tours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Which strategy.
    pub method: Method,
    /// Warnsdorff's tie-break.
    pub tiebreak: Tiebreak,
    /// Warnsdorff attempts allowed for each tour asked for (the macro's 10).
    pub attempts: u32,
    /// How many distinct tours to produce.
    pub tours: u32,
    /// Time allowed to the search methods, per tour.
    pub timeout: Option<Duration>,
    /// Whether `auto` starts with Warnsdorff attempts (they are what a workbook shows; output
    /// that shows only the tour can go straight to a method that cannot fail).
    pub warnsdorff_first: bool,
}

impl Default for Plan {
    fn default() -> Self {
        Plan {
            method: Method::Auto,
            tiebreak: Tiebreak::Random,
            attempts: 10,
            tours: 1,
            timeout: None,
            warnsdorff_first: true,
        }
    }
}

/// One attempt, solved or not: one worksheet of the workbook.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attempt {
    /// The path made: a tour meeting the request when `solved`, else how far it got.
    pub tour: Tour,
    /// Whether the path meets the request.
    pub solved: bool,
    /// The method that made it.
    pub method: Method,
    /// Warnsdorff's tie-break, for Warnsdorff attempts.
    pub tiebreak: Option<Tiebreak>,
    /// Why an unsolved attempt failed, in words ("stuck after 58 moves", "not closed").
    pub note: Option<String>,
}

/// Everything a run made, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Every attempt in the order made.
    pub attempts: Vec<Attempt>,
    /// Set when the search gave up (budget or timeout) rather than proving anything.
    pub gave_up: Option<String>,
}

impl Outcome {
    /// The solved attempts.
    pub fn tours(&self) -> impl Iterator<Item = &Attempt> {
        self.attempts.iter().filter(|a| a.solved)
    }

    /// Number of tours found.
    pub fn tours_found(&self) -> usize {
        self.tours().count()
    }
}

/// Something to tell about progress: the attempt number and the moves made so far.
pub type Progress<'a> = &'a mut dyn FnMut(&str);

/// Run `plan` for `request`. The request must already have passed
/// [`existence::check_request`]; `rng` drives every random choice, so a seed reproduces the
/// whole run.
pub fn run(request: &Request, plan: &Plan, rng: &mut Rng, progress: Progress<'_>) -> Outcome {
    let mut state = Run {
        request,
        plan,
        rng,
        progress,
        seen: Seen::default(),
        out: Outcome::default(),
    };
    for _ in 0..plan.tours.max(1) {
        if !state.find_one() {
            break;
        }
    }
    state.out
}

/// Everything one run reads and builds, so the strategies below share it instead of passing
/// it along argument by argument.
struct Run<'a, 'p> {
    request: &'a Request,
    plan: &'a Plan,
    rng: &'a mut Rng,
    progress: Progress<'p>,
    seen: Seen,
    out: Outcome,
}

impl Run<'_, '_> {
    fn find_one(&mut self) -> bool {
        let warnsdorff = match self.plan.method {
            Method::Warnsdorff => true,
            Method::Auto => self.plan.warnsdorff_first,
            _ => false,
        };
        if warnsdorff && self.warnsdorff_attempts() {
            return true;
        }
        match self.plan.method {
            Method::Warnsdorff => false,
            Method::Construct => self.by_construction(),
            Method::Backtrack => self.by_search(),
            Method::Auto => self.by_construction() || self.by_search(),
        }
    }

    /// Record a tour meeting the request; `false` (nothing recorded) if it repeats one found
    /// before.
    fn record_tour(&mut self, tour: Tour, method: Method) -> bool {
        if !self.seen.insert(&tour) {
            return false;
        }
        self.out.attempts.push(Attempt {
            tour,
            solved: true,
            method,
            tiebreak: None,
            note: None,
        });
        true
    }

    /// Warnsdorff can honour a start square; an end square, constraints or closure only by
    /// luck, which is still worth the macro's few cheap attempts.
    fn warnsdorff_attempts(&mut self) -> bool {
        let (request, plan) = (self.request, self.plan);
        let mut solver = warnsdorff::Warnsdorff::new(request.board);
        for i in 0..plan.attempts {
            (self.progress)(&format!("Warnsdorff attempt {}", i + 1));
            let start = match request.start {
                Some(s) => s,
                None => random_start(request, self.rng),
            };
            let tour = solver.attempt(start, plan.tiebreak, self.rng);
            let mut solved = request.is_satisfied_by(&tour);
            let mut note = failure_note(request, &tour);
            if solved && !self.seen.insert(&tour) {
                solved = false;
                note = Some("the same tour as an earlier one".into());
            }
            self.out.attempts.push(Attempt {
                tour,
                solved,
                method: Method::Warnsdorff,
                tiebreak: Some(plan.tiebreak),
                note: if solved { None } else { note },
            });
            if solved {
                return true;
            }
        }
        false
    }

    fn by_construction(&mut self) -> bool {
        match construct::solve(self.request) {
            Some(tour) if self.request.is_satisfied_by(&tour) => {
                self.record_tour(tour, Method::Construct)
            }
            _ => false,
        }
    }

    fn by_search(&mut self) -> bool {
        (self.progress)("searching (backtracking)");
        let budget = Budget {
            max_nodes: None,
            deadline: self.plan.timeout.map(|t| Instant::now() + t),
        };
        // A few randomised searches, so that a later tour differs from the earlier ones.
        for round in 0..8 {
            let result = if round == 0 && self.seen.is_empty() {
                backtrack::solve(self.request, &budget)
            } else {
                backtrack::solve_with_rng(self.request, &budget, self.rng)
            };
            match result {
                Search::Found(tour) => {
                    if self.record_tour(tour, Method::Backtrack) {
                        return true;
                    }
                }
                Search::NoTour => {
                    self.out.gave_up =
                        Some("an exhaustive search found no tour meeting the request".into());
                    return false;
                }
                Search::OutOfBudget { nodes } => {
                    self.out.gave_up = Some(format!(
                        "the search stopped at the time limit after {nodes} nodes"
                    ));
                    return false;
                }
            }
        }
        self.out.gave_up = Some("no further distinct tour was found".into());
        false
    }
}

/// A start square chosen at random among those from which a tour can exist, so a random start
/// never dooms an attempt on boards like 5x5 (corner colour only) or 4xn (outer ranks only).
fn random_start(request: &Request, rng: &mut Rng) -> Square {
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

/// Fingerprints of the tours found so far, so `--tours K` gives K different tours without
/// keeping K copies of huge paths.
#[derive(Default)]
struct Seen(HashSet<u64>);

impl Seen {
    /// Record `tour`; `false` if an identical one was seen before.
    fn insert(&mut self, tour: &Tour) -> bool {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        tour.indices().hash(&mut h);
        self.0.insert(h.finish())
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Words for why a path does not meet the request.
pub fn failure_note(request: &Request, tour: &Tour) -> Option<String> {
    let board = request.board;
    if !tour.is_complete() {
        let at = tour.end().map(|s| board.algebraic(s)).unwrap_or_default();
        return Some(format!(
            "stuck at {at} after {}",
            crate::english::count_usize(tour.len(), "move")
        ));
    }
    if request.closed && !tour.is_closed() {
        return Some("complete but not closed".into());
    }
    if let (Some(end), Some(last)) = (request.end, tour.end()) {
        if end != last {
            return Some(format!(
                "complete but ends on {} instead of {}",
                board.algebraic(last),
                board.algebraic(end)
            ));
        }
    }
    if !request.is_satisfied_by(tour) {
        return Some("complete but breaks a constraint".into());
    }
    None
}
