//! The hand method for closed tours, as an encyclopedia article teaches it: the way a person
//! builds a closed tour on paper in a few minutes, in three steps a workbook shows one sheet
//! each ([`crate::workbook::write`]).
//!
//! 1. **The edges.** Walk the knight around the board keeping near the edges: take a corner
//!    whenever one is a move away, else a square on the edge, else one on the second ring, and
//!    enter the centre (the squares inside the two outer rings, the 16 central squares of an
//!    8x8 board) only when no square of the rings is a move away, until every square of the
//!    two outer rings is visited. Equal options are chosen at random (from the seed).
//! 2. **A cycle.** Close the path: from its last square, through part of the centre (the
//!    shortest way over unvisited squares), to a square a knight's move from the first.
//! 3. **Insertions.** Each square still unvisited goes in between two consecutive squares of
//!    the cycle, in runs: when squares `u1 .. uk` are a knight's path, `5` is a move from `u1`
//!    and `uk` a move from `6`, the cycle can go `5 -> 5a .. 5d -> 6`. (A run between two
//!    consecutive squares always has an even number of squares: they are of opposite colours.)
//!    The longest run that fits between some pair goes in first; each pair takes one run.
//!
//! Renumbering the cycle with its insertions gives the closed tour.
//!
//! A walk can fail: the knight gets stuck before the rings are covered, no unvisited way closes
//! the path, or some squares fit between no pair. The person then starts again, and so does
//! [`build`], from another square and other choices, until the budget ends; every walk that
//! failed is reported ([`HandTour::failed`]).
//!
//! The method needs a centre: on a board with a side of 5 the centre is a single row, no two
//! of its squares a move apart, and nothing can be inserted; with a side of 6 it is two squares
//! wide, few runs fit, and most walks fail (more the longer the board). [`check_board`] says
//! which boards it takes.
//!
//! ```
//! use knights_tour::board::Board;
//! use knights_tour::solve::{hand, rng_from_seed, Budget};
//! let board = Board::new(8, 8).unwrap();
//! let built = hand::build(board, None, &mut rng_from_seed(1), &Budget::unlimited()).unwrap();
//! assert!(built.tour.is_closed());
//! // Step 1 covers the two outer rings; Step 2 is a cycle; Step 3 fills in the rest.
//! assert!(board.squares().filter(|&s| hand::in_rings(board, s)).all(|s| built.edges.indices().contains(&board.index(s))));
//! assert!(built.cycle.squares().next().unwrap().is_knight_move(built.cycle.end().unwrap()));
//! let inserted: usize = built.insertions.iter().map(|i| i.squares.len()).sum();
//! assert_eq!(built.cycle.len() + inserted, 64);
//! ```

use rand::Rng as _;

use crate::board::{file_letters, Board, Square};
use crate::english::count_usize;
use crate::solve::search::{Answer, Search};
use crate::solve::{Budget, Method, Request, Rng};
use crate::tour::Tour;

/// The smallest side the method takes: on a side of 5 the centre is one row, no two of its
/// squares a move apart, so nothing can ever be inserted and Steps 1 and 2 alone must cover
/// the board, which they rarely do (`docs/solver.md` has the walks each board took).
pub const MIN_SIDE: u32 = 6;

/// On a board one of whose sides is 6 (a centre two squares wide, few runs fit) the other side
/// is at most this: longer ones take thousands of walks a tour, and some none in
/// [`MAX_WALKS`].
pub const MAX_SIDE_BESIDE_6: u32 = 16;

/// The largest side the method takes: a person does not build bigger tours by hand.
pub const MAX_SIDE: u32 = 30;

/// Walks tried at most before [`build`] gives up (each a fresh start), far more than any board
/// the method takes has needed.
pub const MAX_WALKS: u32 = 10_000;

/// Search nodes one gap of the cycle may spend looking for its longest run in Step 3.
const RUN_NODES: u64 = 2_000;

/// Whether `sq` lies on the two outer rings of `board` (an edge square or a neighbour of one).
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::solve::hand::in_rings;
/// let b = Board::new(8, 8).unwrap();
/// assert!(in_rings(b, b.parse_square("b2").unwrap()));
/// assert!(!in_rings(b, b.parse_square("c3").unwrap()), "one of the 16 central squares");
/// ```
pub fn in_rings(board: Board, sq: Square) -> bool {
    ring(board, sq) < 2
}

/// How far `sq` is from the nearest edge: 0 on the edge, 1 next to it, ...
fn ring(board: Board, sq: Square) -> u32 {
    let bottom = board.rows() - 1 - sq.row;
    let right = board.cols() - 1 - sq.col;
    sq.row.min(sq.col).min(bottom).min(right)
}

/// Why the hand method does not take a request: facts, for the caller to word (and to say
/// which method does take it).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unsupported {
    /// A side below [`MIN_SIDE`].
    #[error(
        "it needs both sides at least {MIN_SIDE}, not {0}: it keeps to the two outer \
         rings first and inserts the centre last, and a centre one square wide takes no \
         insertion (no two of its squares are a move apart)"
    )]
    Narrow(Board),
    /// A side above [`MAX_SIDE`].
    #[error("it builds tours by hand, on boards up to {MAX_SIDE}x{MAX_SIDE}, not {0}")]
    Large(Board),
    /// An odd number of squares: no closed tour.
    #[error(
        "it builds closed tours, and the {0} board has none: it has an odd number \
         of squares and a closed tour alternates colours"
    )]
    OddArea(Board),
    /// Six squares wide and longer than [`MAX_SIDE_BESIDE_6`].
    #[error(
        "it takes boards {MIN_SIDE} squares wide up to {MIN_SIDE}x{MAX_SIDE_BESIDE_6}, \
         not {0}: their centre is two squares wide, few runs fit in it, and most walks fail (on \
         6x24 one tour took up to 6,434 walks; from 6x27 some seeds find none in 10,000)"
    )]
    SixWideLong(Board),
    /// A start in the centre (named, algebraic).
    #[error("it starts on the two outer rings, and {0} is in the centre")]
    CentreStart(String),
    /// An end square, or "move k on X" constraints.
    #[error(
        "it builds a closed tour from a start square only: it takes no end square \
         and no \"move k on X\" constraints"
    )]
    FixedSquares,
}

/// Whether the hand method takes `board`; `Err` says why not.
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::solve::hand::{check_board, Unsupported};
/// assert!(check_board(Board::new(8, 8).unwrap()).is_ok());
/// assert!(check_board(Board::new(8, 10).unwrap()).is_ok());
/// assert!(check_board(Board::new(6, 6).unwrap()).is_ok());
/// assert!(check_board(Board::new(6, 18).unwrap()).is_err());
/// let board = Board::new(5, 6).unwrap();
/// assert_eq!(check_board(board), Err(Unsupported::Narrow(board)));
/// ```
pub fn check_board(board: Board) -> Result<(), Unsupported> {
    let (short, long) = (
        board.rows().min(board.cols()),
        board.rows().max(board.cols()),
    );
    if short < MIN_SIDE {
        return Err(Unsupported::Narrow(board));
    }
    if long > MAX_SIDE {
        return Err(Unsupported::Large(board));
    }
    if board.len() % 2 == 1 {
        return Err(Unsupported::OddArea(board));
    }
    if short == MIN_SIDE && long > MAX_SIDE_BESIDE_6 {
        return Err(Unsupported::SixWideLong(board));
    }
    Ok(())
}

/// Whether the hand method takes `request`: its board ([`check_board`]), a start on the two
/// outer rings if any, and nothing else fixed (its tour is closed whether asked or not).
pub fn check_request(request: &Request) -> Result<(), Unsupported> {
    if request.end.is_some() || !request.constraints.is_empty() {
        return Err(Unsupported::FixedSquares);
    }
    check_board(request.board)?;
    match request.start {
        Some(s) if !in_rings(request.board, s) => {
            Err(Unsupported::CentreStart(request.board.algebraic(s)))
        }
        _ => Ok(()),
    }
}

/// The rule that chose a move of Step 1, in the article's order of preference.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rule {
    /// A corner was a move away.
    Corner,
    /// A square on the edge.
    Edge,
    /// A square on the second ring (a neighbour of the edge).
    SecondRing,
    /// No square of the two rings was a move away: into the centre.
    Centre,
}

impl Rule {
    fn of(board: Board, sq: Square) -> Rule {
        let last = (board.rows() - 1, board.cols() - 1);
        let corner = (sq.row == 0 || sq.row == last.0) && (sq.col == 0 || sq.col == last.1);
        match ring(board, sq) {
            0 if corner => Rule::Corner,
            0 => Rule::Edge,
            1 => Rule::SecondRing,
            _ => Rule::Centre,
        }
    }

    /// In words, for the Summary: `corner`, `edge`, `second ring`, `centre (no ring square
    /// free)`.
    pub fn words(self) -> &'static str {
        match self {
            Rule::Corner => "corner",
            Rule::Edge => "edge",
            Rule::SecondRing => "second ring",
            Rule::Centre => "centre (no ring square a move away)",
        }
    }
}

/// One move of Step 1 where the knight had more than one square to go to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The move's number (its square's number on the Step 1 sheet).
    pub move_number: u32,
    /// The square taken.
    pub square: Square,
    /// The rule that decided.
    pub rule: Rule,
    /// Every unvisited square a move away.
    pub options: Vec<Square>,
    /// The options the rule left equal, among which the seed chose (one when the rule decided
    /// alone).
    pub equal: Vec<Square>,
}

/// A run of squares inserted between two consecutive squares of the cycle (Step 3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Insertion {
    /// The cycle's move number the run follows (`5` in `5 -> 5a .. 5d -> 6`); the cycle's
    /// last number when the run goes in between the last square and the first.
    pub after: u32,
    /// The run, in order.
    pub squares: Vec<Square>,
}

impl Insertion {
    /// The label of the run's `i`-th square (from 0) on the Step 3 sheet: `5a`, `5b`, ...,
    /// `5z`, `5aa` ...
    ///
    /// ```
    /// use knights_tour::solve::hand::Insertion;
    /// let run = Insertion { after: 5, squares: vec![] };
    /// assert_eq!((run.label(0), run.label(3), run.label(26)), ("5a".into(), "5d".into(), "5aa".into()));
    /// ```
    pub fn label(&self, i: usize) -> String {
        format!("{}{}", self.after, file_letters(i as u32))
    }

    /// The run as the article writes it, with its squares: `5 -> 5a..5d -> 6 (c4 d6 e4 f6)`;
    /// `cycle_len` numbers the square after the last (back to 1).
    pub fn describe(&self, board: Board, cycle_len: u32) -> String {
        self.describe_listing(board, cycle_len, usize::MAX)
    }

    /// [`Insertion::describe`], the squares listed only up to `max_listed` of them (a long
    /// run names its first and last): `1 -> 1a..1bf -> 2 (58 squares, c10 to d10)`.
    ///
    /// ```
    /// use knights_tour::board::Board;
    /// use knights_tour::solve::hand::Insertion;
    /// let b = Board::new(8, 8).unwrap();
    /// let squares = ["c4", "d6", "e4", "f6"].map(|s| b.parse_square(s).unwrap()).to_vec();
    /// let run = Insertion { after: 5, squares };
    /// assert_eq!(run.describe_listing(b, 50, 2), "5 -> 5a..5d -> 6 (4 squares, c4 to f6)");
    /// ```
    pub fn describe_listing(&self, board: Board, cycle_len: u32, max_listed: usize) -> String {
        let next = if self.after >= cycle_len {
            1
        } else {
            self.after + 1
        };
        let labels = match self.squares.len() {
            0 => String::new(),
            1 => self.label(0),
            n => format!("{}..{}", self.label(0), self.label(n - 1)),
        };
        let squares: Vec<String> = self.squares.iter().map(|&s| board.algebraic(s)).collect();
        let listed = match (squares.first(), squares.last()) {
            (Some(first), Some(last)) if squares.len() > max_listed => {
                format!("{} squares, {first} to {last}", squares.len())
            }
            _ => squares.join(" "),
        };
        format!("{} -> {labels} -> {next} ({listed})", self.after)
    }
}

/// Why one walk failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// Step 1: no unvisited square a move away before the rings were covered.
    Stuck {
        /// Where the knight stood.
        at: Square,
        /// Squares visited.
        moves: usize,
        /// Squares of the rings still unvisited.
        rings_left: usize,
    },
    /// Step 2: no way over unvisited squares back to a move from the start.
    NoClosing {
        /// The path's last square.
        from: Square,
    },
    /// Step 3: these squares fit between no two consecutive squares of the cycle.
    NoInsertion {
        /// The squares left over.
        left: Vec<Square>,
    },
}

impl Failure {
    /// In words: `stuck at c7 after 40 moves, 8 ring squares unvisited`.
    pub fn words(&self, board: Board) -> String {
        match self {
            Failure::Stuck {
                at,
                moves,
                rings_left,
            } => format!(
                "Step 1 stuck at {} after {}, {} of the rings unvisited",
                board.algebraic(*at),
                count_usize(*moves, "square"),
                count_usize(*rings_left, "square")
            ),
            Failure::NoClosing { from } => format!(
                "Step 2 found no way over unvisited squares from {} back to a move from the start",
                board.algebraic(*from)
            ),
            Failure::NoInsertion { left } => {
                let names: Vec<String> = left.iter().map(|&s| board.algebraic(s)).collect();
                format!(
                    "Step 3 could not insert {} ({})",
                    count_usize(left.len(), "square"),
                    names.join(" ")
                )
            }
        }
    }
}

/// A walk that failed, and where it started.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FailedWalk {
    /// Its first square.
    pub start: Square,
    /// What went wrong.
    pub failure: Failure,
}

/// A closed tour built by hand, with every step that made it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandTour {
    /// Step 1: the path at the moment every square of the two outer rings was visited.
    pub edges: Tour,
    /// Step 2: Step 1's path continued through part of the centre into a cycle (its last
    /// square a knight's move from its first); not every square visited yet.
    pub cycle: Tour,
    /// Step 3: the runs inserted, in the cycle's order.
    pub insertions: Vec<Insertion>,
    /// The closed tour: the cycle with its insertions, renumbered from Step 1's first square.
    pub tour: Tour,
    /// The moves of Step 1 that had more than one square to go to.
    pub choices: Vec<Choice>,
    /// The walks that failed before this one, in order.
    pub failed: Vec<FailedWalk>,
    /// Search nodes spent, the failed walks' included (squares placed, steps of the search
    /// for runs).
    pub nodes: u64,
}

/// Why [`build`] made no tour.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HandError {
    /// The method does not take this board or start ([`check_board`]).
    #[error("{0}")]
    Unsupported(Unsupported),
    /// The budget (time, nodes or [`MAX_WALKS`]) ended before a walk succeeded.
    #[error("the hand method made no closed tour in {} (the last: {last})", count_usize(*.failed, "walk"))]
    GaveUp {
        /// Walks that failed.
        failed: usize,
        /// The last one's failure, in words.
        last: String,
        /// Search nodes used.
        nodes: u64,
    },
}

/// Build a closed tour of `board` by hand, from `start` (a square of the two outer rings) or
/// from random ones, every choice among equals drawn from `rng`. Walks that fail are retried
/// from scratch within `budget` and [`MAX_WALKS`].
pub fn build(
    board: Board,
    start: Option<Square>,
    rng: &mut Rng,
    budget: &Budget,
) -> Result<HandTour, HandError> {
    check_board(board).map_err(HandError::Unsupported)?;
    if let Some(s) = start.filter(|&s| !in_rings(board, s)) {
        return Err(HandError::Unsupported(Unsupported::CentreStart(
            board.algebraic(s),
        )));
    }
    let mut hand = Hand::new(board);
    let rings: Vec<u32> = (0..board.len() as u32)
        .filter(|&i| in_rings(board, board.square_at(i)))
        .collect();
    let mut failed = Vec::new();
    loop {
        let from = match start {
            Some(s) => board.index(s),
            None => rings[rng.random_range(0..rings.len())],
        };
        match hand.walk(from, rng) {
            Ok(mut built) => {
                built.failed = failed;
                built.nodes = hand.nodes;
                return Ok(built);
            }
            Err(failure) => failed.push(FailedWalk {
                start: board.square_at(from),
                failure,
            }),
        }
        if failed.len() as u32 >= MAX_WALKS || budget.exhausted(hand.nodes) {
            let last = failed.last().map(|f| f.failure.words(board));
            return Err(HandError::GaveUp {
                failed: failed.len(),
                last: last.unwrap_or_default(),
                nodes: hand.nodes,
            });
        }
    }
}

/// The hand method as a [`Search`]: each step builds one closed tour of the request's board
/// ([`build`], from its start if fixed), its steps kept for the workbook.
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::solve::hand::ByHand;
/// use knights_tour::solve::search::{Answer, Search};
/// use knights_tour::solve::{rng_from_seed, Budget, Request};
/// let req = Request::open(Board::new(8, 8).unwrap());
/// let (answer, _) = ByHand::new(&req).step(&Budget::unlimited(), &mut rng_from_seed(1));
/// let Answer::Built(built) = answer else { panic!("{answer:?}") };
/// assert!(built.tour.is_closed());
/// ```
pub struct ByHand<'a> {
    request: &'a Request,
}

impl<'a> ByHand<'a> {
    /// The hand method for `request`, which it takes ([`check_request`]).
    pub fn new(request: &'a Request) -> ByHand<'a> {
        ByHand { request }
    }
}

impl Search for ByHand<'_> {
    fn method(&self) -> Method {
        Method::Hand
    }

    fn exhaustive(&self) -> bool {
        false
    }

    fn step(&mut self, budget: &Budget, rng: &mut Rng) -> (Answer, u64) {
        let r = self.request;
        match build(r.board, r.start, rng, budget) {
            Ok(built) => {
                let nodes = built.nodes;
                (Answer::Built(Box::new(built)), nodes)
            }
            // Walks out of the budget prove nothing and may go on; out of walks, they stop.
            Err(HandError::GaveUp { nodes, failed, .. }) if failed < MAX_WALKS as usize => {
                (Answer::Unfinished, nodes)
            }
            Err(HandError::GaveUp { nodes, .. }) => (Answer::Spent, nodes),
            Err(HandError::Unsupported(_)) => (Answer::Spent, 0),
        }
    }
}

/// One board's neighbour table and the state of the current walk.
struct Hand {
    board: Board,
    next: Vec<Vec<u32>>,
    visited: Vec<bool>,
    /// Search nodes spent (squares placed and run-search steps), for the budget.
    nodes: u64,
}

impl Hand {
    fn new(board: Board) -> Hand {
        Hand {
            board,
            next: board.neighbour_table(),
            visited: vec![false; board.len()],
            nodes: 0,
        }
    }

    fn square(&self, i: u32) -> Square {
        self.board.square_at(i)
    }

    fn tour(&self, path: &[u32]) -> Tour {
        Tour::from_indices_unchecked(self.board, path.to_vec())
    }

    /// One walk from `from`: the three steps, or why they failed.
    fn walk(&mut self, from: u32, rng: &mut Rng) -> Result<HandTour, Failure> {
        self.visited.iter_mut().for_each(|v| *v = false);
        let (path, choices) = self.edges(from, rng)?;
        let edges = self.tour(&path);
        let closing = self.closing(&path, rng)?;
        let mut cycle = path;
        cycle.extend(closing);
        let insertions = self.insertions(&cycle, rng)?;
        let mut tour = Vec::with_capacity(self.board.len());
        for (k, &sq) in cycle.iter().enumerate() {
            tour.push(sq);
            if let Some(run) = insertions.iter().find(|r| r.after as usize == k + 1) {
                tour.extend(run.squares.iter().map(|&s| self.board.index(s)));
            }
        }
        Ok(HandTour {
            edges,
            cycle: self.tour(&cycle),
            insertions,
            tour: self.tour(&tour),
            choices,
            failed: Vec::new(),
            nodes: 0,
        })
    }

    fn visit(&mut self, i: u32) {
        self.visited[i as usize] = true;
        self.nodes += 1;
    }

    /// Step 1: corners, then the edge, then the second ring, the centre only when no ring
    /// square is a move away, until every ring square is visited.
    fn edges(&mut self, from: u32, rng: &mut Rng) -> Result<(Vec<u32>, Vec<Choice>), Failure> {
        let board = self.board;
        let mut rings_left = board
            .squares()
            .filter(|&s| in_rings(board, s))
            .count()
            .saturating_sub(1);
        let mut path = vec![from];
        let mut choices = Vec::new();
        self.visit(from);
        while rings_left > 0 {
            let at = *path.last().unwrap_or(&from);
            let options: Vec<u32> = self.next[at as usize]
                .iter()
                .copied()
                .filter(|&n| !self.visited[n as usize])
                .collect();
            let Some(rule) = options
                .iter()
                .map(|&n| Rule::of(board, self.square(n)))
                .min()
            else {
                return Err(Failure::Stuck {
                    at: self.square(at),
                    moves: path.len(),
                    rings_left,
                });
            };
            let equal: Vec<u32> = options
                .iter()
                .copied()
                .filter(|&n| Rule::of(board, self.square(n)) == rule)
                .collect();
            let pick = equal[rng.random_range(0..equal.len())];
            if options.len() > 1 {
                choices.push(Choice {
                    move_number: path.len() as u32 + 1,
                    square: self.square(pick),
                    rule,
                    options: options.iter().map(|&n| self.square(n)).collect(),
                    equal: equal.iter().map(|&n| self.square(n)).collect(),
                });
            }
            self.visit(pick);
            path.push(pick);
            if rule != Rule::Centre {
                rings_left -= 1;
            }
        }
        Ok((path, choices))
    }

    /// Step 2: the shortest way over unvisited squares from the path's end to a square a move
    /// from its start (through the centre: at least one square when there is such a way;
    /// none when the end is already a move from the start and there is not).
    fn closing(&mut self, path: &[u32], rng: &mut Rng) -> Result<Vec<u32>, Failure> {
        let (first, last) = (path[0], path[path.len() - 1]);
        let n = self.board.len();
        let mut came_from = vec![u32::MAX; n];
        let mut queue = std::collections::VecDeque::new();
        let order = |list: &[u32], rng: &mut Rng| {
            let mut v = list.to_vec();
            for i in (1..v.len()).rev() {
                v.swap(i, rng.random_range(0..=i));
            }
            v
        };
        for m in order(&self.next[last as usize], rng) {
            if !self.visited[m as usize] {
                came_from[m as usize] = last;
                queue.push_back(m);
            }
        }
        while let Some(v) = queue.pop_front() {
            self.nodes += 1;
            if self.next[v as usize].contains(&first) {
                let mut way = vec![v];
                while let Some(&p) = way.last().filter(|&&p| came_from[p as usize] != last) {
                    way.push(came_from[p as usize]);
                }
                way.reverse();
                for &s in &way {
                    self.visited[s as usize] = true;
                }
                return Ok(way);
            }
            for m in order(&self.next[v as usize], rng) {
                if !self.visited[m as usize] && came_from[m as usize] == u32::MAX && m != last {
                    came_from[m as usize] = v;
                    queue.push_back(m);
                }
            }
        }
        if self.next[last as usize].contains(&first) {
            return Ok(Vec::new());
        }
        Err(Failure::NoClosing {
            from: self.square(last),
        })
    }

    /// Step 3: while squares are unvisited, the longest run that fits between two consecutive
    /// squares of the cycle (a pair not used yet), ties at random.
    fn insertions(&mut self, cycle: &[u32], rng: &mut Rng) -> Result<Vec<Insertion>, Failure> {
        let len = cycle.len();
        let mut left = self.board.len() - len;
        let mut used = vec![false; len];
        let mut runs: Vec<(usize, Vec<u32>)> = Vec::new();
        while left > 0 {
            let mut best: Vec<(usize, Vec<u32>)> = Vec::new();
            for k in (0..len).filter(|&k| !used[k]) {
                let run = self.longest_run(cycle[k], cycle[(k + 1) % len], left);
                match best.first().map_or(0, |b| b.1.len()) {
                    _ if run.is_empty() => {}
                    m if run.len() > m => best = vec![(k, run)],
                    m if run.len() == m => best.push((k, run)),
                    _ => {}
                }
                if best.first().is_some_and(|b| b.1.len() == left) {
                    break;
                }
            }
            if best.is_empty() {
                let left: Vec<Square> = (0..self.board.len() as u32)
                    .filter(|&i| !self.visited[i as usize])
                    .map(|i| self.square(i))
                    .collect();
                return Err(Failure::NoInsertion { left });
            }
            let (k, run) = best.swap_remove(rng.random_range(0..best.len()));
            for &s in &run {
                self.visited[s as usize] = true;
            }
            used[k] = true;
            left -= run.len();
            runs.push((k, run));
        }
        runs.sort_by_key(|r| r.0);
        Ok(runs
            .into_iter()
            .map(|(k, run)| Insertion {
                after: k as u32 + 1,
                squares: run.into_iter().map(|i| self.square(i)).collect(),
            })
            .collect())
    }

    /// The longest knight's path over unvisited squares from a move after `p` to a move
    /// before `q` that a bounded search finds (empty if none): onward squares with the fewest
    /// unvisited onward moves first, so long runs come early.
    fn longest_run(&mut self, p: u32, q: u32, left: usize) -> Vec<u32> {
        let mut best = Vec::new();
        let mut run = Vec::new();
        let mut spent = 0u64;
        let starts: Vec<u32> = self.next[p as usize]
            .iter()
            .copied()
            .filter(|&u| !self.visited[u as usize])
            .collect();
        for u in starts {
            self.extend_run(u, q, left, &mut run, &mut best, &mut spent);
            if best.len() == left || spent >= RUN_NODES {
                break;
            }
        }
        self.nodes += spent;
        best
    }

    fn extend_run(
        &mut self,
        v: u32,
        q: u32,
        left: usize,
        run: &mut Vec<u32>,
        best: &mut Vec<u32>,
        spent: &mut u64,
    ) {
        *spent += 1;
        self.visited[v as usize] = true;
        run.push(v);
        if run.len() > best.len() && self.next[v as usize].contains(&q) {
            best.clone_from(run);
        }
        if best.len() < left && *spent < RUN_NODES {
            let mut onward: Vec<(usize, u32)> = self.next[v as usize]
                .iter()
                .copied()
                .filter(|&w| !self.visited[w as usize])
                .map(|w| (self.free_degree(w), w))
                .collect();
            onward.sort_unstable();
            for (_, w) in onward {
                self.extend_run(w, q, left, run, best, spent);
                if best.len() == left || *spent >= RUN_NODES {
                    break;
                }
            }
        }
        run.pop();
        self.visited[v as usize] = false;
    }

    fn free_degree(&self, v: u32) -> usize {
        self.next[v as usize]
            .iter()
            .filter(|&&w| !self.visited[w as usize])
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::rng_from_seed;

    #[test]
    fn rules_rank_corners_edges_rings_centre() {
        let b = Board::new(8, 8).unwrap();
        let rule = |name: &str| Rule::of(b, b.parse_square(name).unwrap());
        assert_eq!(rule("a1"), Rule::Corner);
        assert_eq!(rule("h8"), Rule::Corner);
        assert_eq!(rule("d1"), Rule::Edge);
        assert_eq!(rule("b2"), Rule::SecondRing);
        assert_eq!(rule("g4"), Rule::SecondRing);
        assert_eq!(rule("c3"), Rule::Centre);
        assert!(Rule::Corner < Rule::Edge && Rule::SecondRing < Rule::Centre);
        let centre = b.squares().filter(|&s| !in_rings(b, s)).count();
        assert_eq!(centre, 16);
    }

    #[test]
    fn a_centre_square_is_no_start() {
        let b = Board::new(8, 8).unwrap();
        let e4 = b.parse_square("e4").ok();
        let err = build(b, e4, &mut rng_from_seed(1), &Budget::unlimited()).unwrap_err();
        assert!(err.to_string().contains("e4 is in the centre"), "{err}");
    }

    #[test]
    fn the_budget_ends_the_walks_honestly() {
        let b = Board::new(8, 8).unwrap();
        let err = build(b, None, &mut rng_from_seed(1), &Budget::nodes(1)).unwrap_err();
        assert!(
            matches!(err, HandError::GaveUp { failed: 1.., .. }),
            "{err}"
        );
    }

    #[test]
    fn insertion_words_follow_the_article() {
        let b = Board::new(8, 8).unwrap();
        let sq = |n: &str| b.parse_square(n).unwrap();
        let run = Insertion {
            after: 5,
            squares: vec![sq("c4"), sq("d6"), sq("e4"), sq("f6")],
        };
        assert_eq!(run.describe(b, 50), "5 -> 5a..5d -> 6 (c4 d6 e4 f6)");
        let last = Insertion {
            after: 50,
            squares: vec![sq("c4"), sq("d6")],
        };
        assert_eq!(last.describe(b, 50), "50 -> 50a..50b -> 1 (c4 d6)");
    }
}
