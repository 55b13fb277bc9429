//! `--method auto`: every search that applies to a request, run by one loop from one table
//! ([`TABLE`]) of (search, when it applies, its share of a round). `--method X` is the same
//! loop over X's rows alone, so a search takes the same course alone as in the portfolio, and
//! a tour the portfolio names it for, it finds alone with the same seed.
//!
//! Rounds grow [`ROUND_GROWTH`]-fold from [`FIRST_ROUND_TICKS`]: in each, every row that
//! applies gets its share of the round's cap, in the table's order, so no search starves
//! another and the one that suits the request finds the tour within a small factor of its
//! time alone. A search that is spent ([`Answer::Spent`]) sits out the rest of the run; an
//! exhaustive one's proof ([`Answer::NoTour`]) ends it. Why each row applies where it does,
//! and how its share was measured, is in `docs/solver.md`.
//!
//! ```
//! use knights_tour::board::Board;
//! use knights_tour::solve::portfolio::Portfolio;
//! use knights_tour::solve::search::{Answer, Search};
//! use knights_tour::solve::{rng_from_seed, Budget, Plan, Request};
//! let req = Request::open(Board::new(6, 6).unwrap());
//! let mut auto = Portfolio::new(&req, &Plan::default());
//! let found = loop {
//!     match auto.step(&Budget::nodes(10_000_000), &mut rng_from_seed(1)).0 {
//!         Answer::Found { tour, by } => break (tour, by),
//!         Answer::Missed { .. } | Answer::Unfinished => {} // a failed Warnsdorff attempt
//!         other => panic!("{other:?}"),
//!     }
//! };
//! assert!(req.is_satisfied_by(&found.0));
//! ```

use rand::SeedableRng as _;

use crate::solve::search::{self, Answer, Declined, Search};
use crate::solve::{Budget, Method, Plan, Request, Rng};

/// One row of the portfolio: a search, when it applies, and its share of each round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// The search.
    pub method: Method,
    /// When `--method auto` runs it.
    pub when: When,
    /// What it gets of each round.
    pub share: Share,
}

/// When a row applies to a request under `--method auto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    /// Boards of at most [`WARNSDORFF_MAX_SQUARES`], or any board when a tie-break or a number
    /// of attempts was chosen (only Warnsdorff uses them).
    WarnsdorffFirst,
    /// No "move k on X" constraints (a start or an end may be fixed).
    Unconstrained,
    /// "Move k on X" constraints on an open tour whose pieces between fixed squares average
    /// more than `pieces_over` and at most `pieces_upto` moves ([`piece_moves`]).
    Open {
        /// Fewest moves, exclusive.
        pieces_over: usize,
        /// Most moves, inclusive.
        pieces_upto: usize,
    },
    /// "Move k on X" constraints on a closed tour.
    Closed,
}

/// A row's share of a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Share {
    /// The first round only, until the search is spent or finds the tour.
    FirstRound,
    /// Everything left of the run.
    Rest,
    /// `times / per` of the round's cap, in ticks ([`nodes_per_tick`]) for each copy raced.
    Ticks {
        /// Numerator.
        times: u64,
        /// Denominator.
        per: u64,
    },
    /// `1 / per` of the round's cap until round `whole_from` (from 0), the whole cap from
    /// then on: a search that rarely answers first where another usually answers soon, given
    /// an equal share once the other has not.
    Hedge {
        /// Denominator in the first rounds.
        per: u64,
        /// The first round with the whole cap.
        whole_from: u32,
    },
}

impl Share {
    /// The row's cap in round `round` (from 0) when the round's is `cap` ticks, or `None` for
    /// a share not counted in ticks (the first round's, the rest of the run).
    ///
    /// ```
    /// use knights_tour::solve::portfolio::Share;
    /// let hedge = Share::Hedge { per: 16, whole_from: 4 };
    /// assert_eq!(hedge.ticks(3, 32_768), Some(2_048));
    /// assert_eq!(hedge.ticks(4, 65_536), Some(65_536));
    /// assert_eq!(Share::Ticks { times: 1, per: 4 }.ticks(0, 4_096), Some(1_024));
    /// assert_eq!(Share::Rest.ticks(9, 4_096), None);
    /// ```
    pub fn ticks(self, round: u32, cap: u64) -> Option<u64> {
        match self {
            Share::FirstRound | Share::Rest => None,
            Share::Ticks { times, per } => Some((cap / per).saturating_mul(times)),
            Share::Hedge { per, whole_from } if round < whole_from => Some(cap / per),
            Share::Hedge { .. } => Some(cap),
        }
    }
}

/// Boards up to this many squares get Warnsdorff attempts first; on bigger ones Warnsdorff's
/// random ties mostly fail, so construction comes first.
pub const WARNSDORFF_MAX_SQUARES: usize = 10_000;

/// The first round's cap, in ticks (joint-search nodes): tens of milliseconds of each search,
/// and most of the repair search's first fresh start (5,000 nodes).
pub const FIRST_ROUND_TICKS: u64 = 1 << 12;

/// The round from which the joint search's row over [`SPARSE_PIECE_MOVES`] gets an equal
/// share: about a second and a quarter of the rotation search before it (which answers most
/// such requests sooner), then the joint search answers those the rotation search misses.
pub const HEDGE_ROUND: u32 = 5;

/// Growth of the round's cap from one round to the next.
pub const ROUND_GROWTH: u64 = 2;

/// The portfolio, in the order each round runs it (`docs/solver.md` has the measurements):
/// up to [`SPARSE_PIECE_MOVES`] the joint search answers most requests first and goes first,
/// over it the rotation search.
pub const TABLE: [Row; 8] = [
    Row {
        method: Method::Warnsdorff,
        when: When::WarnsdorffFirst,
        share: Share::FirstRound,
    },
    Row {
        method: Method::Construct,
        when: When::Unconstrained,
        share: Share::FirstRound,
    },
    Row {
        method: Method::Backtrack,
        when: When::Unconstrained,
        share: Share::Rest,
    },
    Row {
        method: Method::Joint,
        when: When::Open {
            pieces_over: 0,
            pieces_upto: SPARSE_PIECE_MOVES,
        },
        share: Share::Ticks { times: 1, per: 1 },
    },
    Row {
        method: Method::Rotations,
        when: When::Open {
            pieces_over: DENSE_PIECE_MOVES,
            pieces_upto: usize::MAX,
        },
        share: Share::Ticks { times: 1, per: 1 },
    },
    Row {
        method: Method::Joint,
        when: When::Open {
            pieces_over: SPARSE_PIECE_MOVES,
            pieces_upto: usize::MAX,
        },
        share: Share::Hedge {
            per: 16,
            whole_from: HEDGE_ROUND,
        },
    },
    Row {
        method: Method::Backtrack,
        when: When::Closed,
        share: Share::Ticks { times: 1, per: 4 },
    },
    Row {
        method: Method::Segments,
        when: When::Closed,
        share: Share::Ticks { times: 1, per: 1 },
    },
];

/// Pieces averaging at most this many moves make a request dense: the rotation search meets
/// few such (a reversal moves every constrained square inside it), the joint search most.
pub const DENSE_PIECE_MOVES: usize = 64;

/// Pieces averaging more than this many moves make a request sparse: the rotation search
/// meets most such sooner than the joint search, and goes first there, the joint search
/// getting a sixteenth of the first rounds ([`HEDGE_ROUND`]).
pub const SPARSE_PIECE_MOVES: usize = 128;

/// A search's own nodes in a tick, the time of one node of the joint search (CPU time on the
/// `requests` example's constrained requests, `docs/solver.md`): the rotation search looks at
/// about 2,048 squares in that time, the backtracking engine places about 60.
pub fn nodes_per_tick(method: Method) -> u64 {
    match method {
        Method::Rotations => 2048,
        Method::Segments | Method::Backtrack => 60,
        _ => 1,
    }
}

/// The moves a piece between fixed squares averages: the squares over the fixed squares plus
/// one.
pub fn piece_moves(request: &Request) -> usize {
    request.board.len() / (request.all_constraints().len() + 1)
}

/// Why no row of the table takes `request`, or `None`: "move k on X" on a board too large for
/// every search that places them ([`Declined::TooLarge`] with the largest board any of them
/// takes).
pub fn declines(request: &Request) -> Option<Declined> {
    let constrained = !request.constraints.is_empty();
    if constrained
        && !rows(request, &Plan::default())
            .iter()
            .any(Row::places_constraints)
    {
        let largest = TABLE
            .iter()
            .filter(|row| row.places_constraints())
            .filter_map(|row| match search::declines(row.method, request) {
                Some(Declined::TooLarge { max_squares }) => Some(max_squares),
                _ => None,
            })
            .max();
        return Some(Declined::TooLarge {
            max_squares: largest.unwrap_or(0),
        });
    }
    None
}

/// The rows this run goes through: under `auto` those that apply, or, when "move k on X"
/// constraints find no search there (a board too large for those that apply), every row
/// for them whose search takes the request; for a method alone, its row that applies, else
/// its first, else all that is left.
fn rows(request: &Request, plan: &Plan) -> Vec<Row> {
    let takes = |row: &Row| search::declines(row.method, request).is_none();
    if plan.method == Method::Auto {
        let mut rows: Vec<Row> = TABLE
            .into_iter()
            .filter(|row| row.when.holds(request, plan) && takes(row))
            .collect();
        if !request.constraints.is_empty() && !rows.iter().any(Row::places_constraints) {
            rows.extend(TABLE.into_iter().filter(|row| {
                row.places_constraints()
                    && (row.when == When::Closed) == request.closed
                    && takes(row)
            }));
        }
        return rows;
    }
    let own = TABLE.iter().filter(|row| row.method == plan.method);
    let row = own.clone().find(|row| row.when.holds(request, plan));
    vec![row.or(own.clone().next()).copied().unwrap_or(Row {
        method: plan.method,
        when: When::Unconstrained,
        share: Share::Rest,
    })]
}

impl Row {
    /// Whether the row is one of those for "move k on X" constraints.
    fn places_constraints(&self) -> bool {
        matches!(self.when, When::Open { .. } | When::Closed)
    }
}

impl When {
    /// Whether a row with this condition runs for `request` under `plan` (`--method auto`).
    pub fn holds(self, request: &Request, plan: &Plan) -> bool {
        let constrained = !request.constraints.is_empty();
        match self {
            When::WarnsdorffFirst => {
                plan.warnsdorff_any_size || request.board.len() <= WARNSDORFF_MAX_SQUARES
            }
            When::Unconstrained => !constrained,
            When::Open {
                pieces_over,
                pieces_upto,
            } => {
                let moves = piece_moves(request);
                constrained && !request.closed && pieces_over < moves && moves <= pieces_upto
            }
            When::Closed => constrained && request.closed,
        }
    }
}

/// The portfolio for one run: the rows that apply, each with its search.
pub struct Portfolio<'a> {
    request: &'a Request,
    plan: Plan,
    entries: Vec<Entry<'a>>,
    /// The round under way, from 0, and its node cap.
    round: u32,
    cap: u64,
    /// The entry whose turn it is in this round.
    next: usize,
}

/// A row of the table with its search.
struct Entry<'a> {
    row: Row,
    search: Box<dyn Search + 'a>,
    /// Its own generator, a stream of the run's seed, for the searches that follow the first
    /// round's: their course does not depend on what the others drew. `None`: the run's
    /// generator, as Warnsdorff's attempts and the construction have always drawn from it.
    rng: Option<Rng>,
    /// Whether it draws from a generator of its own ([`Entry::rng`], made at its first turn).
    own_rng: bool,
    /// Search nodes per node of the run: the rotation search counts squares looked at, a
    /// sixty-fourth of a backtracking node's time.
    scale: u64,
    /// Its nodes in a tick ([`nodes_per_tick`]).
    per_tick: u64,
    spent: bool,
}

impl<'a> Portfolio<'a> {
    /// `--method auto` for `request`, or `plan.method` alone.
    pub fn new(request: &'a Request, plan: &Plan) -> Portfolio<'a> {
        let mut portfolio = Portfolio {
            request,
            plan: plan.clone(),
            entries: Vec::new(),
            round: 0,
            cap: FIRST_ROUND_TICKS,
            next: 0,
        };
        portfolio.entries = rows(request, plan)
            .into_iter()
            .filter_map(|row| portfolio.entry(row))
            .collect();
        portfolio
    }

    /// The search whose turn it is (for a progress line).
    pub fn now(&self) -> Option<Method> {
        self.entries.get(self.next).map(|e| e.row.method)
    }

    /// A tour was found and kept: the search for the next one starts from the first round
    /// again, Warnsdorff with its attempts and the construction with its draws afresh.
    pub fn next_tour(&mut self) {
        for i in 0..self.entries.len() {
            if self.entries[i].row.share == Share::FirstRound {
                if let Some(fresh) = self.entry(self.entries[i].row) {
                    self.entries[i] = fresh;
                }
            }
        }
        (self.round, self.cap, self.next) = (0, FIRST_ROUND_TICKS, 0);
    }

    /// The row's search, or `None` when it does not take the request.
    fn entry(&self, row: Row) -> Option<Entry<'a>> {
        let search = search::build(row.method, self.request, &self.plan).ok()?;
        let own = !matches!(
            (row.method, row.when),
            (Method::Warnsdorff | Method::Construct | Method::Hand, _)
                | (Method::Backtrack, When::Unconstrained)
        );
        Some(Entry {
            row,
            search,
            own_rng: own,
            rng: None,
            scale: if row.method == Method::Rotations {
                64
            } else {
                1
            },
            per_tick: nodes_per_tick(row.method),
            spent: false,
        })
    }

    /// The entry whose turn it is, moving on to the next round when every entry has had its
    /// turn in this one; `None` when none will ever run again.
    fn turn(&mut self) -> Option<usize> {
        let runs =
            |e: &Entry, round: u32| !e.spent && (round == 0 || e.row.share != Share::FirstRound);
        if !self.entries.iter().any(|e| runs(e, self.round.max(1))) && self.round > 0 {
            return None;
        }
        loop {
            if self.next >= self.entries.len() {
                if !self.entries.iter().any(|e| runs(e, self.round + 1)) {
                    return None;
                }
                self.next = 0;
                self.round += 1;
                self.cap = self.cap.saturating_mul(ROUND_GROWTH);
            }
            if runs(&self.entries[self.next], self.round) {
                return Some(self.next);
            }
            self.next += 1;
        }
    }
}

/// Stream `method` of the seed of `run` (the run's generator): a generator of its own for a
/// search, the same in the portfolio and alone, whatever the others drew.
fn stream(run: &Rng, method: Method) -> Rng {
    let mut rng = Rng::from_seed(run.get_seed());
    rng.set_stream(method as u64 + 1);
    rng
}

impl Search for Portfolio<'_> {
    fn method(&self) -> Method {
        self.plan.method
    }

    fn exhaustive(&self) -> bool {
        self.entries.iter().any(|e| e.search.exhaustive())
    }

    /// The next entry's share of the round, or until it answers: a tour (the entry goes on
    /// from there at the next step, should the tour be one found before), a missed attempt,
    /// a proof, or [`Answer::Spent`] once no entry will run again.
    fn step(&mut self, budget: &Budget, rng: &mut Rng) -> (Answer, u64) {
        let Some(i) = self.turn() else {
            return (Answer::Spent, 0);
        };
        let (cap, round) = (self.cap, self.round);
        let entry = &mut self.entries[i];
        if entry.own_rng && entry.rng.is_none() {
            entry.rng = Some(stream(rng, entry.row.method));
        }
        let scale = entry.scale;
        let share = entry.row.share.ticks(round, cap);
        let slice = match share {
            None => *budget,
            Some(ticks) => {
                let nodes = ticks.saturating_mul(entry.per_tick) * entry.search.copies() as u64;
                budget.capped(nodes / scale)
            }
        };
        let slice = Budget {
            max_nodes: slice.max_nodes.map(|m| m.saturating_mul(scale)),
            ..slice
        };
        let rng = entry.rng.as_mut().unwrap_or(rng);
        let (answer, nodes) = entry.search.run(&slice, rng);
        let nodes = nodes.div_ceil(scale);
        match (&answer, share) {
            (Answer::Spent, _) => {
                entry.spent = true;
                self.next += 1;
                (Answer::Unfinished, nodes)
            }
            // A share of the round: the next entry's turn, whatever came of it.
            (_, Some(_)) => {
                self.next += 1;
                (answer, nodes)
            }
            // Until spent, or the run's budget ends.
            _ => (answer, nodes),
        }
    }
}
