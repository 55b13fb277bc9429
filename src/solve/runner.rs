//! The one way into the solvers: a [`Request`] (what tour) and a [`Plan`] (how, how many, how
//! long) go in, and every attempt comes out as it is made, through a sink, so that `--all` and
//! `--tours K` stream in bounded memory and every caller (generate in any format, draw, verify's
//! completion) gets the same tours from the same seed.
//!
//! Tours come from the plan's method: `auto` is the portfolio of every search that applies
//! ([`portfolio`]), any other method its search alone. Each attempt names the search that made
//! it. A search that runs out of time says so ([`Ending::TimeLimit`]), which is not the proof
//! of [`Ending::NoTour`]. The plan depends on the request only, never on the output format.
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

use crate::board::Square;
use crate::solve::portfolio::{self, Portfolio};
use crate::solve::search::{self, Answer, Declined, Search};
use crate::solve::{backtrack, construct, hand, Budget, Meter, Method, Request, Rng, Tiebreak};
use crate::tour::Tour;

/// Time a run may take when the caller sets none: no search runs silently for minutes.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// Tours found again in a row before a run concludes its searches only repeat themselves (and
/// enumerates the rest, where it can).
const REPEATS: u32 = 8;

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
    /// [`portfolio::WARNSDORFF_MAX_SQUARES`]: the user chose a tie-break or a number of
    /// attempts, which only Warnsdorff uses, so it must not be silently skipped.
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
            Method::Auto => {
                request.constraints.is_empty()
                    && !portfolio::When::WarnsdorffFirst.holds(request, self)
            }
            _ => false,
        }
    }
}

/// One attempt, solved or not, from the solver to the writer: one worksheet of a workbook
/// (see [`crate::workbook::write`]), one tour of a text format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attempt {
    /// The path made: a tour meeting the request when `solved`, else how far it got.
    pub tour: Tour,
    /// Whether the path meets the request.
    pub solved: bool,
    /// The search that made it (never [`Method::Auto`]).
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
    /// The chosen method does not take the request, for this reason.
    Declined(Method, Declined),
    /// The chosen method gave all it could without proving anything: the construction or the
    /// hand method only repeat tours found before (after `tours`) or meet nothing; a search
    /// that is not exhaustive found no more.
    Spent {
        /// The method.
        method: Method,
        /// Tours it had found.
        tours: u64,
    },
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
            Ending::Declined(Method::Auto, Declined::TooLarge { max_squares }) => write!(
                f,
                "no search here takes the request on a board this large: those that could take \
                 boards of up to {} squares, beyond which their memory would pass a few \
                 hundred MB",
                crate::english::thousands(*max_squares as u64)
            ),
            Ending::Declined(method, why) => {
                write!(
                    f,
                    "{} does not take the request: {why}",
                    method.search_name()
                )
            }
            Ending::Spent { method, tours: 0 } => {
                write!(
                    f,
                    "{} found no tour meeting the request",
                    method.search_name()
                )
            }
            Ending::Spent { method, tours } => write!(
                f,
                "{} gives no further distinct tour for this request after {}",
                method.search_name(),
                crate::english::count(*tours, "tour")
            ),
        }
    }
}

/// What a search is doing, for a progress line.
fn doing(method: Method) -> &'static str {
    match method {
        Method::Auto => "searching",
        Method::Warnsdorff => "Warnsdorff attempts",
        Method::Backtrack => "searching (backtracking)",
        Method::Construct => "constructing",
        Method::Hand => "building by hand",
        Method::Segments => "searching (segment by segment)",
        Method::Joint => "searching (joint search)",
        Method::Rotations => "searching (rotations)",
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
/// `false` to stop). The request must already have passed [`check_request`](super::existence::check_request); `rng`
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

/// Everything one run reads and builds, so the goals below share it.
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
    fn record(&mut self, attempt: Attempt) -> bool {
        if !self.seen.insert(&attempt.tour) {
            return false;
        }
        self.deliver(attempt);
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

    /// What is left of the run's budget.
    fn remaining(&self) -> Budget {
        self.budget.after(self.report.nodes)
    }

    /// `k` tours from the plan's method: the portfolio, or one search alone, stepped until
    /// the tours are found, the budget ends, a proof comes, or the searches are spent.
    fn tours(&mut self, k: u64) {
        let method = self.plan.method;
        if let Some(why) = search::declines(method, self.request) {
            self.report.ending = Ending::Declined(method, why);
            return;
        }
        let mut searches = Portfolio::new(self.request, self.plan);
        let mut repeats = 0;
        let mut shown = None;
        self.report.ending = loop {
            if self.report.tours >= k {
                break Ending::Done;
            }
            if self.stopped {
                break Ending::Stopped;
            }
            if let Some(ending) = self.out_of_budget() {
                break ending;
            }
            if let Some(now) = searches.now().filter(|&m| Some(m) != shown) {
                shown = Some(now);
                self.progress(doing(now));
            }
            let (answer, nodes) = searches.step(&self.remaining(), self.rng);
            self.report.nodes += nodes;
            let attempt = match answer {
                Answer::Found { tour, by } => self.attempt(tour, true, by),
                Answer::Built(built) => {
                    let mut attempt = self.attempt(built.tour.clone(), true, Method::Hand);
                    attempt.steps = Some(built);
                    attempt
                }
                Answer::Missed { path, by } => {
                    let attempt = self.attempt(path, false, by);
                    self.deliver(attempt);
                    continue;
                }
                Answer::NoTour => break Ending::NoTour,
                Answer::Unfinished => continue,
                Answer::Spent if method == Method::Warnsdorff => break Ending::AttemptsRanOut,
                Answer::Spent => {
                    let tours = self.report.tours;
                    break Ending::Spent { method, tours };
                }
            };
            if self.record(attempt) {
                searches.next_tour();
                repeats = 0;
            } else {
                repeats += 1;
                if repeats >= REPEATS && matches!(method, Method::Auto | Method::Backtrack) {
                    return self.enumerate_rest(k);
                } else if repeats >= REPEATS {
                    let tours = self.report.tours;
                    break Ending::Spent { method, tours };
                }
            }
        };
    }

    /// An attempt by `by`, with Warnsdorff's tie-break and why a path misses the request.
    fn attempt(&self, path: Tour, solved: bool, by: Method) -> Attempt {
        Attempt {
            note: if solved {
                None
            } else {
                failure_note(self.request, &path)
            },
            tiebreak: (by == Method::Warnsdorff).then_some(self.plan.tiebreak),
            ..Attempt::new(path, solved, by)
        }
    }

    /// `--tours K` once the randomised strategies only repeat themselves: every tour by
    /// exhaustive search, the new ones handed over until there are `k`; if the search ends
    /// first, exactly that many exist.
    fn enumerate_rest(&mut self, k: u64) {
        let request = self.request;
        let exhaustive = self.enumerate(request, |tour, seen| seen.insert(tour), k);
        self.report.ending = if self.report.tours >= k {
            Ending::Done
        } else if exhaustive {
            Ending::NoMore {
                count: self.report.tours,
            }
        } else {
            self.cut_short()
        };
    }

    /// `--all`: every tour meeting the request, by exhaustive search, each handed over as found.
    fn all(&mut self, limit: Option<u64>) {
        let method = self.plan.method;
        if !matches!(method, Method::Auto | Method::Backtrack) {
            self.report.ending = Ending::Declined(method, Declined::NotExhaustive);
            return;
        }
        let mut request = self.request.clone();
        let undirected = request.closed && request.start.is_none() && request.end.is_none();
        if undirected {
            // Every closed tour passes through a1: fixing it there loses none.
            request.start = Some(Square::new(request.board.rows() - 1, 0));
        }
        self.report.undirected = undirected;
        // Undirected, a cycle walked the other way is the same tour.
        let once = |tour: &Tour, _: &mut Seen| {
            let idx = tour.indices();
            !(undirected && idx.len() > 2 && idx[1] > idx[idx.len() - 1])
        };
        let limit = limit.unwrap_or(u64::MAX);
        let exhaustive = self.enumerate(&request, once, limit);
        self.report.ending = if exhaustive {
            Ending::Done
        } else if self.report.tours >= limit {
            Ending::Limit
        } else {
            self.cut_short()
        };
    }

    /// Every tour meeting `request` by exhaustive search, each that `keep` keeps handed over as
    /// found, until the run has `enough` tours; whether the search ended on its own.
    fn enumerate(
        &mut self,
        request: &Request,
        mut keep: impl FnMut(&Tour, &mut Seen) -> bool,
        enough: u64,
    ) -> bool {
        self.progress("enumerating every tour");
        let budget = self.remaining();
        let (seen, report, sink, stopped) = (
            &mut self.seen,
            &mut self.report,
            &mut self.sink,
            &mut self.stopped,
        );
        let e = backtrack::enumerate(request, None, &budget, |tour| {
            if !keep(tour, seen) {
                return true;
            }
            report.attempts += 1;
            report.tours += 1;
            let attempt = Attempt::new(tour.clone(), true, Method::Backtrack);
            if !sink(Event::Attempt(attempt)) {
                *stopped = true;
            }
            !*stopped && report.tours < enough
        });
        self.report.nodes += e.nodes;
        e.exhaustive
    }

    /// Why a run that did not finish stopped: the sink, or a limit.
    fn cut_short(&self) -> Ending {
        if self.stopped {
            Ending::Stopped
        } else {
            self.out_of_budget().unwrap_or(Ending::TimeLimit {
                nodes: self.report.nodes,
            })
        }
    }

    /// A tour beginning with `prefix`, by exhaustive search.
    fn complete(&mut self, prefix: &Tour) {
        self.progress("completing");
        let budget = self.remaining();
        let (result, nodes) = backtrack::complete(prefix, self.request, &budget);
        self.report.nodes += nodes;
        self.report.ending = match result {
            Answer::Found { tour, by } => {
                self.deliver(Attempt::new(tour, true, by));
                Ending::Done
            }
            Answer::NoTour => Ending::NoTour,
            _ => self.out_of_budget().unwrap_or(Ending::NodeLimit {
                nodes: self.report.nodes,
            }),
        };
    }
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
