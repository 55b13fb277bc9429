//! The one way into the solvers: a [`Request`] (what tour) and a [`Plan`] (how, how many, how
//! long) go in, and every attempt comes out as it is made, through a sink, so that `--all` and
//! `--tours K` stream in bounded memory and every caller (generate in any format, draw, verify's
//! completion) gets the same tours from the same seed.
//!
//! Warnsdorff attempts come first for `--method auto` on boards up to
//! [`WARNSDORFF_MAX_SQUARES`] (each attempt a worksheet, as in the Excel macro), then
//! construction, then search; a search that runs out of time says so ([`Ending::TimeLimit`]),
//! which is not the proof of [`Ending::NoTour`]. The plan depends on the request only, never on
//! the output format.
//!
//! ```
//! use knights_tour::board::Board;
//! use knights_tour::solve::{rng_from_seed, Event, Goal, Plan, Request};
//! use knights_tour::solve::runner::run_with;
//! let req = Request::open(Board::new(5, 5).unwrap());
//! let plan = Plan { goal: Goal::Tours(3), ..Plan::default() };
//! let mut tours = 0;
//! let report = run_with(&req, &plan, &mut rng_from_seed(1), &mut |event| {
//!     if let Event::Attempt(a) = event {
//!         tours += usize::from(a.solved);
//!     }
//!     true
//! });
//! assert_eq!((report.tours, tours), (3, 3));
//! assert!(report.is_done());
//! ```

use std::collections::HashSet;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::time::{Duration, Instant};

use rand::Rng as _;

use crate::board::Square;
use crate::solve::backtrack::{self, Search};
use crate::solve::lanes::{Lanes, LANES};
use crate::solve::rotations::Rotations;
use crate::solve::{
    construct, existence, hand, joint, repair, rotations, segments, warnsdorff, Budget, Meter,
    Method, Request, Rng, Tiebreak,
};
use crate::tour::Tour;

/// Time a run may take when the caller sets none: no search runs silently for minutes.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// Nodes of the first round of the segment search for constraints ([`Run::by_segments`]); the
/// capped exhaustive search before it gets a quarter.
const FIRST_SEGMENT_ROUND_NODES: u64 = 1 << 18;

/// Squares the rotation search ([`rotations`]) may look at in a round for each node the
/// segment search may place: a node there costs about as long as this many squares here.
const ROTATION_WORK_PER_NODE: u64 = 64;

/// Squares the rotation search may look at before the first round of the segment search: it
/// meets long pieces on big boards in well under a second where the segment search takes
/// minutes, and gives up on short pieces, which are the segment search's.
const FIRST_ROTATION_WORK: u64 = 300_000_000;

/// The largest board on which the exhaustive, segment and repair searches run for "move k on
/// X" constraints (bigger ones get the rotation search alone, up to its own limit): each holds
/// several arrays a square, the exhaustive search's plan alone 32 bytes a square. On
/// 10000x10000 they took 9 GB and 100 s under `--timeout 10`.
const SEARCH_MAX_SQUARES: usize = 1_000_000;

/// Growth of the node caps from one round of the segment search to the next.
const SEGMENT_ROUND_GROWTH: u64 = 4;

/// On dense requests the segment search sits out the rounds below this cap (the first two).
/// On the 19 dense requests of the `requests` example (15 with 80 constraints, 4 with 40;
/// seeds 2026 and 7, each with its own seed, 10 s) every answer came from the repair search,
/// 18 in the first two rounds, where the segment search held 10 to 20% of the time; the
/// repair search's draws are its own, so its tours do not change.
const DENSE_SEGMENT_FIRST_CAP: u64 =
    FIRST_SEGMENT_ROUND_NODES * SEGMENT_ROUND_GROWTH * SEGMENT_ROUND_GROWTH;

/// Boards beyond this many squares, when the rotation search runs, get no segment search and
/// no capped exhaustive search: the rotation search runs alone. Their nodes cost more the
/// bigger the board, so the node caps that share a round gave them most of the time there. On
/// the `requests` example's 130x144 request with 40 constraints (10 s) the segment search took
/// 2.4 s of the first round and 4.5 s of the second, where the rotation search had 3.1 s in
/// all; without it no request of the table was lost (at seeds 2026 and 7 the 12-, 20- and
/// 30-constraint groups and the `constraints` group answered as before; the 24
/// forty-constraint requests through the CLI, `--seed 1..3`, 55 times in 72, from 48). On its
/// 40x148 request the exhaustive search then took 4.7 s of 10 (65,536 nodes in 1.25 s in the
/// first round): without it, through the CLI, `--seed 1..7`, 40x148 was answered 6 times in 7
/// (from 2), the other 12 requests over 4,096 squares 30 times in 36 (`--seed 1..3`) as before.
const SEARCHES_BESIDE_ROTATIONS_MAX_SQUARES: usize = 4096;

/// Boards up to this many squares get Warnsdorff attempts first under `--method auto`; on
/// bigger ones Warnsdorff's random ties mostly fail, so construction comes first.
pub const WARNSDORFF_MAX_SQUARES: usize = 10_000;

/// What a run should produce.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Goal {
    /// This many distinct tours (at least 1).
    Tours(u32),
    /// Every tour meeting the request, by exhaustive search, up to `limit` of them. Closed tours
    /// with neither end fixed are counted as undirected cycles (each once, through a1).
    All {
        /// Stop after this many tours.
        limit: Option<u64>,
    },
    /// A tour beginning with these moves (a person's failed attempt completed).
    Complete(Tour),
}

/// How to look for tours, and for how long.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Which strategy.
    pub method: Method,
    /// Warnsdorff's tie-break.
    pub tiebreak: Tiebreak,
    /// Warnsdorff attempts allowed for each tour asked for (the macro's 10).
    pub attempts: u32,
    /// What to produce.
    pub goal: Goal,
    /// Time allowed to the whole run (`None`: no limit). Defaults to [`DEFAULT_TIMEOUT`].
    pub timeout: Option<Duration>,
    /// Search nodes allowed to the whole run (`None`: no limit).
    pub max_nodes: Option<u64>,
    /// Warnsdorff attempts first under `auto` on every board size, not only up to
    /// [`WARNSDORFF_MAX_SQUARES`]: the user chose a tie-break or a number of attempts, which
    /// only Warnsdorff uses, so it must not be silently skipped.
    pub warnsdorff_any_size: bool,
    /// Where searches add their nodes as they go, for a progress line (`None`: nowhere).
    pub meter: Option<Meter>,
}

impl Default for Plan {
    fn default() -> Self {
        Plan {
            method: Method::Auto,
            tiebreak: Tiebreak::Random,
            attempts: 10,
            goal: Goal::Tours(1),
            timeout: Some(DEFAULT_TIMEOUT),
            max_nodes: None,
            warnsdorff_any_size: false,
            meter: None,
        }
    }
}

impl Plan {
    /// Whether this plan's first step for `request` is the construction (so its tour can be
    /// numbered in place, [`numbering`]). Depends on the request only, not on any output.
    pub fn constructs_first(&self, request: &Request) -> bool {
        match self.method {
            Method::Construct => true,
            Method::Auto => !self.warnsdorff_any_size && !warnsdorff_first(request),
            _ => false,
        }
    }
}

/// Whether `--method auto` starts with Warnsdorff attempts on this request.
fn warnsdorff_first(request: &Request) -> bool {
    request.board.len() <= WARNSDORFF_MAX_SQUARES
}

/// One attempt, solved or not, from the solver to the writer: one worksheet of a workbook
/// (see [`crate::workbook::write`]), one tour of a text format.
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
    /// For a tour built by hand ([`Method::Hand`]): the steps that made it, each a worksheet
    /// before the tour's.
    pub steps: Option<Box<hand::HandTour>>,
}

impl Attempt {
    /// An attempt with no tie-break and no note.
    ///
    /// ```
    /// use knights_tour::board::Board;
    /// use knights_tour::solve::{Attempt, Method};
    /// use knights_tour::tour::Tour;
    /// let path = Tour::from_indices(Board::new(5, 5).unwrap(), vec![0, 7]).unwrap();
    /// let a = Attempt::new(path, false, Method::Warnsdorff);
    /// assert!(!a.solved && a.note.is_none());
    /// ```
    pub fn new(tour: Tour, solved: bool, method: Method) -> Attempt {
        Attempt {
            tour,
            solved,
            method,
            tiebreak: None,
            note: None,
            steps: None,
        }
    }

    fn solved(tour: Tour, method: Method) -> Attempt {
        Attempt::new(tour, true, method)
    }
}

/// What a run hands its sink, in order.
#[derive(Debug)]
pub enum Event<'a> {
    /// What the run is doing now ("Warnsdorff attempt 3", "searching (backtracking)").
    Progress(&'a str),
    /// An attempt just made; the sink owns it (write it, then drop it: memory stays bounded).
    Attempt(Attempt),
}

/// Why a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The goal was met: the tours asked for, every tour enumerated, the completion found.
    Done,
    /// The time limit ran out before the goal was met: nothing is proved.
    TimeLimit {
        /// Search nodes used.
        nodes: u64,
    },
    /// The node limit ran out before the goal was met: nothing is proved.
    NodeLimit {
        /// Search nodes used.
        nodes: u64,
    },
    /// An exhaustive search proved that no tour meets the request.
    NoTour,
    /// An exhaustive search proved that exactly this many tours meet the request, fewer than
    /// asked for.
    NoMore {
        /// How many tours exist.
        count: u64,
    },
    /// `--all` stopped at its limit.
    Limit,
    /// The sink asked to stop.
    Stopped,
    /// Every Warnsdorff attempt got stuck or missed the request.
    AttemptsRanOut,
    /// The chosen method cannot meet the request; the text says why and which method can.
    Cannot(String),
    /// The chosen method gave up without proving anything (the hand method's walks ran out);
    /// the text says after what and which method can.
    GaveUp(String),
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::Done => write!(f, "done"),
            Ending::TimeLimit { nodes } => write!(
                f,
                "stopped at the time limit after {nodes} search nodes; more tours may exist"
            ),
            Ending::NodeLimit { nodes } => write!(
                f,
                "stopped at the limit of {nodes} search nodes; more tours may exist"
            ),
            Ending::NoTour => write!(
                f,
                "an exhaustive search proved that no tour meets the request"
            ),
            Ending::NoMore { count } => {
                let meet = if *count == 1 {
                    "tour meets"
                } else {
                    "tours meet"
                };
                write!(f, "only {count} {meet} the request, by exhaustive search")
            }
            Ending::Limit => write!(f, "stopped at the limit"),
            Ending::Stopped => write!(f, "stopped"),
            Ending::AttemptsRanOut => write!(f, "every Warnsdorff attempt failed"),
            Ending::Cannot(why) | Ending::GaveUp(why) => write!(f, "{why}"),
        }
    }
}

/// What a run did, besides the attempts it handed over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Attempts handed over (solved or not).
    pub attempts: u64,
    /// Distinct tours handed over.
    pub tours: u64,
    /// Search nodes used.
    pub nodes: u64,
    /// Why the run ended.
    pub ending: Ending,
    /// With [`Goal::All`] on a closed request with no fixed end: tours were counted as
    /// undirected cycles.
    pub undirected: bool,
}

impl Report {
    /// Whether the goal was met.
    pub fn is_done(&self) -> bool {
        self.ending == Ending::Done
    }

    /// Why no tour (or no further tour) came, in words, honest about what was proved: "no tour
    /// found within the time limit; one may exist" differs from "no tour exists".
    pub fn reason(&self) -> String {
        match (&self.ending, self.tours) {
            (Ending::TimeLimit { .. }, 0) => {
                "no tour found within the time limit; one may exist".to_string()
            }
            (Ending::NodeLimit { .. }, 0) => {
                "no tour found within the search limit; one may exist".to_string()
            }
            (Ending::TimeLimit { .. }, k) => format!(
                "stopped at the time limit after {}; more may exist",
                crate::english::count(k, "tour")
            ),
            (e, _) => e.to_string(),
        }
    }
}

/// Everything a run made, kept in memory: for small requests, tests and pictures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Every attempt in the order made.
    pub attempts: Vec<Attempt>,
    /// How the run went.
    pub report: Report,
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

    /// Why the run fell short of its goal, in words; `None` when it met it.
    pub fn gave_up(&self) -> Option<String> {
        (!self.report.is_done()).then(|| self.report.reason())
    }
}

/// Run `plan` for `request`, handing every attempt to `sink` as it is made (`sink` returns
/// `false` to stop). The request must already have passed [`existence::check_request`]; `rng`
/// drives every random choice, so a seed reproduces the whole run.
pub fn run_with(
    request: &Request,
    plan: &Plan,
    rng: &mut Rng,
    sink: &mut dyn FnMut(Event<'_>) -> bool,
) -> Report {
    let started = Instant::now();
    let budget = Budget {
        max_nodes: plan.max_nodes,
        deadline: plan.timeout.and_then(|t| started.checked_add(t)),
        meter: plan.meter,
    };
    let mut state = Run {
        request,
        plan,
        rng,
        sink,
        budget,
        seen: Seen::default(),
        report: Report {
            attempts: 0,
            tours: 0,
            nodes: 0,
            ending: Ending::Done,
            undirected: false,
        },
        stopped: false,
    };
    match &plan.goal {
        Goal::Tours(k) => state.tours(u64::from((*k).max(1))),
        Goal::All { limit } => state.all(*limit),
        Goal::Complete(prefix) => state.complete(prefix),
    }
    state.report
}

/// [`run_with`], keeping every attempt; `progress` hears what the run is doing.
pub fn run(
    request: &Request,
    plan: &Plan,
    rng: &mut Rng,
    progress: &mut dyn FnMut(&str),
) -> Outcome {
    let mut attempts = Vec::new();
    let report = run_with(request, plan, rng, &mut |event| {
        match event {
            Event::Progress(p) => progress(p),
            Event::Attempt(a) => attempts.push(a),
        }
        true
    });
    Outcome { attempts, report }
}

/// The tour [`run_with`] would produce, as move numbers by square (from 1), built in place by
/// the construction (about 4 bytes a square): for grids of huge boards. `None` unless the plan
/// asks for one tour and its first step is the construction ([`Plan::constructs_first`]) and
/// that succeeds; the caller then runs the plan. Same request, plan and seed: the same tour as
/// [`run_with`].
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::solve::{rng_from_seed, Plan, Request};
/// use knights_tour::solve::runner::{numbering, run};
/// let req = Request::open(Board::new(120, 120).unwrap());
/// let plan = Plan::default();
/// let numbers = numbering(&req, &plan, &mut rng_from_seed(5)).unwrap();
/// let outcome = run(&req, &plan, &mut rng_from_seed(5), &mut |_| {});
/// assert_eq!(outcome.attempts[0].tour.numbering(), numbers);
/// ```
pub fn numbering(request: &Request, plan: &Plan, rng: &mut Rng) -> Option<Vec<u32>> {
    if plan.goal != Goal::Tours(1) || !plan.constructs_first(request) {
        return None;
    }
    construct::build(request, Some(rng)).map(construct::Successors::into_numbering)
}

/// One step towards the next tour.
enum Step {
    /// A new tour was handed over.
    Found,
    /// The strategies only repeat tours already found.
    Repeats,
    /// The run ends here.
    End(Ending),
}

/// Everything one run reads and builds, so the strategies below share it.
struct Run<'a, 's> {
    request: &'a Request,
    plan: &'a Plan,
    rng: &'a mut Rng,
    sink: &'a mut (dyn FnMut(Event<'_>) -> bool + 's),
    budget: Budget,
    seen: Seen,
    report: Report,
    stopped: bool,
}

impl Run<'_, '_> {
    fn progress(&mut self, what: &str) {
        if !(self.sink)(Event::Progress(what)) {
            self.stopped = true;
        }
    }

    /// Hand an attempt over; `false` if the sink asked to stop.
    fn deliver(&mut self, attempt: Attempt) -> bool {
        self.report.attempts += 1;
        self.report.tours += u64::from(attempt.solved);
        if !(self.sink)(Event::Attempt(attempt)) {
            self.stopped = true;
        }
        !self.stopped
    }

    /// Hand over a tour meeting the request; `false` (nothing handed over) if it repeats one.
    fn record(&mut self, tour: Tour, method: Method) -> bool {
        if !self.seen.insert(&tour) {
            return false;
        }
        self.deliver(Attempt::solved(tour, method));
        true
    }

    fn out_of_budget(&self) -> Option<Ending> {
        let nodes = self.report.nodes;
        if self.budget.deadline.is_some_and(|t| Instant::now() >= t) {
            Some(Ending::TimeLimit { nodes })
        } else if self.budget.max_nodes.is_some_and(|m| nodes >= m) {
            Some(Ending::NodeLimit { nodes })
        } else {
            None
        }
    }

    fn tours(&mut self, k: u64) {
        while self.report.tours < k {
            if self.stopped {
                self.report.ending = Ending::Stopped;
                return;
            }
            if let Some(ending) = self.out_of_budget() {
                self.report.ending = ending;
                return;
            }
            match self.find_one() {
                Step::Found => {}
                Step::Repeats => return self.enumerate_rest(k),
                Step::End(ending) => {
                    self.report.ending = ending;
                    return;
                }
            }
        }
        self.report.ending = Ending::Done;
    }

    fn find_one(&mut self) -> Step {
        let method = self.plan.method;
        if method == Method::Hand {
            return self.by_hand();
        }
        if method == Method::Warnsdorff
            || (method == Method::Auto
                && (self.plan.warnsdorff_any_size || warnsdorff_first(self.request)))
        {
            if self.warnsdorff_attempts() {
                return Step::Found;
            }
            if self.stopped {
                return Step::End(Ending::Stopped);
            }
            if method == Method::Warnsdorff {
                return Step::End(Ending::AttemptsRanOut);
            }
        }
        if matches!(method, Method::Construct | Method::Auto) {
            match self.by_construction() {
                Step::Found => return Step::Found,
                Step::End(e) if method == Method::Construct => return Step::End(e),
                Step::Repeats if method == Method::Construct => {
                    return Step::End(Ending::Cannot(format!(
                        "construction gives no further distinct tour for this request after {}; --method backtrack can find more",
                        crate::english::count(self.report.tours, "tour")
                    )))
                }
                _ => {}
            }
        }
        if let Some(ending) = self.out_of_budget() {
            return Step::End(ending);
        }
        if !self.request.constraints.is_empty() {
            return self.by_segments();
        }
        self.by_search()
    }

    /// Warnsdorff can honour a start square; an end square, constraints or closure only by
    /// luck, which is still worth the macro's few cheap attempts.
    fn warnsdorff_attempts(&mut self) -> bool {
        let (request, plan) = (self.request, self.plan);
        let mut solver = warnsdorff::Warnsdorff::new(request.board);
        for i in 0..plan.attempts {
            if self.stopped || self.out_of_budget().is_some() {
                return false;
            }
            self.progress(&format!("Warnsdorff attempt {}", i + 1));
            let start = match request.start {
                Some(s) => s,
                None => random_start(request, self.rng),
            };
            let tour = solver.attempt(start, plan.tiebreak, self.rng);
            let solved = request.is_satisfied_by(&tour);
            if solved && !self.seen.insert(&tour) {
                // A tour found before is no new attempt to show: a sheet repeating an earlier
                // tour as "failed" would only pad the workbook (it still uses up an attempt).
                continue;
            }
            let note = failure_note(request, &tour);
            let attempt = Attempt {
                tour,
                solved,
                method: Method::Warnsdorff,
                tiebreak: Some(plan.tiebreak),
                note: if solved { None } else { note },
                steps: None,
            };
            if !self.deliver(attempt) || solved {
                return solved;
            }
        }
        false
    }

    /// The hand method: one closed tour and the steps that made it. It fixes at most the start
    /// (a closed tour has no end of its own, and it places no constraints).
    fn by_hand(&mut self) -> Step {
        let r = self.request;
        if r.end.is_some() || !r.constraints.is_empty() {
            return Step::End(Ending::Cannot(
                "--method hand builds a closed tour from a start square only: it does not take \
                 an end square or \"move k on X\" constraints; --method auto can"
                    .into(),
            ));
        }
        self.progress("building by hand");
        // Another seed's walk repeating a tour found before is rare; a few more walks, then
        // stop rather than hand the request to another method.
        for _ in 0..8 {
            match hand::build(r.board, r.start, self.rng, &self.remaining()) {
                Ok(built) => {
                    self.report.nodes += built.nodes;
                    if !r.is_satisfied_by(&built.tour) {
                        return Step::End(Ending::Cannot(
                            "the hand method's tour does not meet the request".into(),
                        ));
                    }
                    if !self.seen.insert(&built.tour) {
                        continue;
                    }
                    let mut attempt = Attempt::solved(built.tour.clone(), Method::Hand);
                    attempt.steps = Some(Box::new(built));
                    self.deliver(attempt);
                    return Step::Found;
                }
                Err(hand::HandError::Unsupported(why)) => return Step::End(Ending::Cannot(why)),
                Err(e @ hand::HandError::GaveUp { nodes, .. }) => {
                    self.report.nodes += nodes;
                    let ending = self.out_of_budget();
                    return Step::End(ending.unwrap_or_else(|| Ending::GaveUp(e.to_string())));
                }
            }
        }
        Step::End(Ending::GaveUp(format!(
            "the hand method only repeated tours found before after {}",
            crate::english::count(self.report.tours, "tour")
        )))
    }

    /// The construction, started at random where nothing fixes the start; a few draws before
    /// concluding it only repeats itself.
    fn by_construction(&mut self) -> Step {
        self.progress("constructing");
        let free_start = self.request.start.is_none() && self.request.end.is_none();
        let draws = if free_start { 4 } else { 1 };
        for _ in 0..draws {
            let Some(built) = construct::build(self.request, Some(self.rng)) else {
                return Step::End(Ending::Cannot(construct_cannot(self.request)));
            };
            if self.record(built.to_tour(), Method::Construct) {
                return Step::Found;
            }
        }
        Step::Repeats
    }

    fn by_search(&mut self) -> Step {
        self.progress("searching (backtracking)");
        // A few randomised searches, so that a later tour differs from the earlier ones.
        for round in 0..8 {
            let budget = self.remaining();
            let first = round == 0 && self.seen.is_empty();
            let (result, nodes) = match random_start_request(self.request, self.rng) {
                Some(req) => {
                    let rng = (!first).then_some(&mut *self.rng);
                    match backtrack::search(&req, &budget, rng) {
                        // A start with no tour (rare): search from any start instead.
                        (Search::NoTour, n) => {
                            let budget = budget.after(n);
                            let (r, m) = backtrack::search(self.request, &budget, None);
                            (r, n + m)
                        }
                        found => found,
                    }
                }
                None => {
                    let rng = (!first).then_some(&mut *self.rng);
                    backtrack::search(self.request, &budget, rng)
                }
            };
            self.report.nodes += nodes;
            match result {
                Search::Found(tour) => {
                    let tour = self.turn_closed(tour);
                    if self.record(tour, Method::Backtrack) {
                        return Step::Found;
                    }
                }
                Search::NoTour => return Step::End(Ending::NoTour),
                Search::OutOfBudget { .. } => {
                    let ending = self.out_of_budget().unwrap_or(Ending::TimeLimit {
                        nodes: self.report.nodes,
                    });
                    return Step::End(ending);
                }
            }
        }
        Step::Repeats
    }

    /// "Move k on X" constraints: the segment search ([`segments`]) in rounds, each after a
    /// capped exhaustive search (which proves "no tour" on small boards), the caps growing
    /// [`SEGMENT_ROUND_GROWTH`]-fold, so that neither starves the other. Each round starts
    /// with a randomised search raced in [`Lanes`] and resumed where the last round left it:
    /// when the constraints are dense ([`dense`]), the repair search ([`repair`]), the joint
    /// search (which grows every piece at once and also proves "no tour") with its deepest
    /// position repaired region by region; otherwise the rotation search ([`rotations`]),
    /// which rearranges a whole tour and meets long pieces on big boards (the first round
    /// gives it [`FIRST_ROTATION_WORK`]), beside which the segment search sits out on boards
    /// over [`SEARCHES_BESIDE_ROTATIONS_MAX_SQUARES`], as does the exhaustive search.
    fn by_segments(&mut self) -> Step {
        self.progress("searching segment by segment");
        let mut cap = FIRST_SEGMENT_ROUND_NODES;
        let mut repeats = 0;
        let small = self.request.board.len() <= SEARCH_MAX_SQUARES;
        let dense = small && dense(self.request);
        if !small && !rotations::supports(self.request) {
            return Step::End(Ending::GaveUp(format!(
                "no search here takes \"move k on X\" constraints on a {} board ({} squares): \
                 they take at most {SEARCH_MAX_SQUARES} squares, or {} for an open tour, \
                 beyond which their memory would pass a few hundred MB",
                self.request.board,
                self.request.board.len(),
                rotations::MAX_SQUARES
            )));
        }
        // One repair search for the whole run, raced in lanes: each round resumes the lanes
        // where the last stopped.
        let request = self.request;
        let mut repair =
            dense.then(|| Lanes::new(LANES, move |_| repair::Repair::new(request), self.rng));
        // Likewise one rotation search, its lanes starting one each way (lane 1 from the last
        // move), each lane's attempts alternating ways after that. Before, each round started
        // the search afresh, every other round the other way. 15 sparse requests of the
        // `requests` example's 20- and 40-constraint groups (seed 2026) through the CLI,
        // seeds 1-3, 10 s: 20 constraints 25/27 met either way, median 0.75 s before and
        // 0.55 s now; 40 constraints 4/18 either way.
        let mut rotations = (!dense && rotations::supports(self.request)).then(|| {
            Lanes::new(
                rotations::lanes(self.request.board),
                move |i| Rotations::new(request, i % 2 == 1),
                self.rng,
            )
        });
        let rotations_alone = !small
            || (rotations.is_some()
                && self.request.board.len() > SEARCHES_BESIDE_ROTATIONS_MAX_SQUARES);
        let mut first = true;
        loop {
            if let Some(ending) = self.out_of_budget() {
                return Step::End(ending);
            }
            if let Some(repair) = repair.as_mut() {
                // Each copy gets the round's whole cap, so that the repair search keeps its
                // share of the round's time. 38 runs of dense requests through the CLI (10 s
                // limit, one run at a time): one copy met 31, median 2.28 s; two copies
                // sharing the cap 33, median 1.43 s; two copies with a cap each 33, 0.93 s.
                let (result, nodes) = repair.race(
                    &self.remaining().capped(cap.saturating_mul(LANES as u64)),
                    |search, budget, rng| search.step(budget, rng),
                );
                self.report.nodes += nodes;
                match result {
                    Search::Found(tour) => {
                        if self.request.is_satisfied_by(&tour)
                            && self.record(tour, Method::Backtrack)
                        {
                            return Step::Found;
                        }
                        repeats += 1;
                    }
                    Search::NoTour => return Step::End(Ending::NoTour),
                    Search::OutOfBudget { .. } => {}
                }
                if let Some(ending) = self.out_of_budget() {
                    return Step::End(ending);
                }
            }
            if let Some(rotations) = rotations.as_mut() {
                let work = if first {
                    FIRST_ROTATION_WORK
                } else {
                    cap.saturating_mul(ROTATION_WORK_PER_NODE)
                };
                // The run's node budget in the rotation search's units of work.
                let left = self.remaining();
                let budget = Budget {
                    max_nodes: left
                        .max_nodes
                        .map(|m| m.saturating_mul(ROTATION_WORK_PER_NODE)),
                    ..left
                }
                .capped(work.saturating_mul(rotations.len() as u64));
                let (result, work) =
                    rotations.race(&budget, |search, budget, rng| search.step(budget, rng));
                // At least one node a round, so that a node budget always runs out.
                self.report.nodes += (work / ROTATION_WORK_PER_NODE).max(1);
                if let Search::Found(tour) = result {
                    if self.request.is_satisfied_by(&tour) && self.record(tour, Method::Backtrack) {
                        return Step::Found;
                    }
                    repeats += 1;
                }
                if let Some(ending) = self.out_of_budget() {
                    return Step::End(ending);
                }
            }
            first = false;
            if rotations_alone {
                // Eight tours found again mean the rotation search only repeats itself, as
                // below.
                if repeats >= 8 {
                    return Step::Repeats;
                }
                cap = cap.saturating_mul(SEGMENT_ROUND_GROWTH);
                continue;
            }
            let exhaustive = self.remaining().capped(cap / 4);
            let (result, nodes) = backtrack::search(self.request, &exhaustive, None);
            self.report.nodes += nodes;
            match result {
                Search::Found(tour) => {
                    if self.record(tour, Method::Backtrack) {
                        return Step::Found;
                    }
                    repeats += 1;
                }
                Search::NoTour => return Step::End(Ending::NoTour),
                Search::OutOfBudget { .. } => {}
            }
            // On dense requests the segment search gets a quarter of the round, as the plain
            // search does: the repair search meets most of them, and it went on for the time
            // the segment search held. 38 runs of dense requests through the CLI (10 s limit):
            // 31 met either way, median 3.2 s with the whole round, 2.2 s with a quarter. It
            // joins from [`DENSE_SEGMENT_FIRST_CAP`] on.
            if !dense || cap >= DENSE_SEGMENT_FIRST_CAP {
                let segment_nodes = if dense { cap / 4 } else { cap };
                let (result, nodes) = segments::solve(
                    self.request,
                    &self.remaining().capped(segment_nodes),
                    self.rng,
                );
                self.report.nodes += nodes;
                if let Search::Found(tour) = result {
                    if self.request.is_satisfied_by(&tour) && self.record(tour, Method::Backtrack) {
                        return Step::Found;
                    }
                    repeats += 1;
                }
            }
            if repeats >= 8 {
                return Step::Repeats;
            }
            cap = cap.saturating_mul(SEGMENT_ROUND_GROWTH);
        }
    }

    /// A closed tour found with no fixed square, turned to start on a random square in a
    /// random direction: the random start is random for the search too.
    fn turn_closed(&mut self, tour: Tour) -> Tour {
        let r = self.request;
        if !r.closed || r.start.is_some() || r.end.is_some() || !r.constraints.is_empty() {
            return tour;
        }
        let board = r.board;
        let start = board.square_at(self.rng.random_range(0..board.len() as u32));
        let tour = if self.rng.random_bool(0.5) {
            tour.reversed()
        } else {
            tour
        };
        tour.rotated_to(start).unwrap_or(tour)
    }

    /// What is left of the run's budget.
    fn remaining(&self) -> Budget {
        Budget {
            max_nodes: self
                .budget
                .max_nodes
                .map(|m| m.saturating_sub(self.report.nodes)),
            ..self.budget
        }
    }

    /// `--tours K` once the randomised strategies only repeat themselves: every tour by
    /// exhaustive search, the new ones handed over until there are `k`; if the search ends
    /// first, exactly that many exist.
    fn enumerate_rest(&mut self, k: u64) {
        self.progress("enumerating every tour");
        let budget = self.remaining();
        let (seen, report, sink, stopped) = (
            &mut self.seen,
            &mut self.report,
            &mut self.sink,
            &mut self.stopped,
        );
        let e = backtrack::enumerate(self.request, None, &budget, |tour| {
            if !seen.insert(tour) {
                return true;
            }
            report.attempts += 1;
            report.tours += 1;
            if !sink(Event::Attempt(Attempt::solved(
                tour.clone(),
                Method::Backtrack,
            ))) {
                *stopped = true;
            }
            !*stopped && report.tours < k
        });
        self.report.nodes += e.nodes;
        self.report.ending = if self.report.tours >= k {
            Ending::Done
        } else if e.exhaustive {
            Ending::NoMore {
                count: self.report.tours,
            }
        } else if self.stopped {
            Ending::Stopped
        } else {
            self.out_of_budget().unwrap_or(Ending::TimeLimit {
                nodes: self.report.nodes,
            })
        };
    }

    /// `--all`: every tour meeting the request, by exhaustive search, each handed over as found.
    fn all(&mut self, limit: Option<u64>) {
        if matches!(
            self.plan.method,
            Method::Warnsdorff | Method::Construct | Method::Hand
        ) {
            self.report.ending = Ending::Cannot(format!(
                "every tour is found by exhaustive search, not by --method {}; use --method backtrack or auto",
                self.plan.method.name()
            ));
            return;
        }
        self.progress("enumerating every tour");
        let mut request = self.request.clone();
        let undirected = request.closed && request.start.is_none() && request.end.is_none();
        if undirected {
            // Every closed tour passes through a1: fixing it there loses none.
            request.start = Some(Square::new(request.board.rows() - 1, 0));
        }
        self.report.undirected = undirected;
        let budget = self.remaining();
        let (report, sink, stopped) = (&mut self.report, &mut self.sink, &mut self.stopped);
        let mut at_limit = false;
        let e = backtrack::enumerate(&request, None, &budget, |tour| {
            let idx = tour.indices();
            if undirected && idx.len() > 2 && idx[1] > idx[idx.len() - 1] {
                return true; // the same cycle walked the other way
            }
            report.attempts += 1;
            report.tours += 1;
            if !sink(Event::Attempt(Attempt::solved(
                tour.clone(),
                Method::Backtrack,
            ))) {
                *stopped = true;
            }
            at_limit = limit.is_some_and(|l| report.tours >= l);
            !*stopped && !at_limit
        });
        self.report.nodes += e.nodes;
        self.report.ending = if e.exhaustive {
            Ending::Done
        } else if at_limit {
            Ending::Limit
        } else if self.stopped {
            Ending::Stopped
        } else {
            self.out_of_budget().unwrap_or(Ending::TimeLimit {
                nodes: self.report.nodes,
            })
        };
    }

    /// A tour beginning with `prefix`, by exhaustive search.
    fn complete(&mut self, prefix: &Tour) {
        self.progress("completing");
        let budget = self.remaining();
        let (result, nodes) = backtrack::complete_counted(prefix, self.request, &budget);
        self.report.nodes += nodes;
        self.report.ending = match result {
            Search::Found(tour) => {
                self.deliver(Attempt::solved(tour, Method::Backtrack));
                Ending::Done
            }
            Search::NoTour => Ending::NoTour,
            Search::OutOfBudget { nodes } => self.out_of_budget().unwrap_or(Ending::NodeLimit {
                nodes: self.report.nodes.max(nodes),
            }),
        };
    }
}

/// Whether the constraints of `request` are dense enough for the joint search: an open tour
/// whose pieces between fixed squares average at most [`DENSE_PIECE`] moves.
fn dense(request: &Request) -> bool {
    let fixed = request.all_constraints().len();
    joint::supports(request) && request.board.len() <= DENSE_PIECE * (fixed + 1)
}

/// Pieces between fixed squares at most this long on average make a request dense
/// ([`dense`]). Measured on the `requests` example's table (30 to 80 constraints): the joint
/// search answered most requests whose pieces average up to about 40 moves and few beyond;
/// the 12-constraint group (pieces of 2 to 500 moves) is left to the segment search as before,
/// except on its smallest boards.
const DENSE_PIECE: usize = 64;

/// Why the construction cannot meet `request`, and which method can.
fn construct_cannot(request: &Request) -> String {
    let what = if !request.constraints.is_empty() {
        "the construction does not place \"move k on X\" constraints"
    } else if request.start.is_some() && request.end.is_some() {
        "the construction found no tour between these two squares"
    } else {
        "the construction found no tour meeting the request"
    };
    format!("{what}; --method auto or backtrack can search for one")
}

/// For an open request that fixes nothing, the same request from a random admissible start,
/// so the search's tour starts at random too; `None` when the request fixes a square or is
/// closed (a closed tour is turned afterwards instead).
fn random_start_request(request: &Request, rng: &mut Rng) -> Option<Request> {
    if request.closed
        || request.start.is_some()
        || request.end.is_some()
        || !request.constraints.is_empty()
    {
        return None;
    }
    let mut req = request.clone();
    req.start = Some(random_start(request, rng));
    Some(req)
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
        // A path of k squares is k - 1 moves.
        return Some(format!(
            "stuck at {at} after {}",
            crate::english::count_usize(tour.len().saturating_sub(1), "move")
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
