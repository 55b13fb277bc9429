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

use std::sync::Arc;
use std::time::Instant;

use rand::Rng as _;

use crate::board::Board;
use crate::solve::backtrack::{knight_distance, neighbour_arrays, rank};
use crate::solve::search::Answer;
use crate::solve::{Budget, Constraint, Meter, Method, Request, Rng, METER_STEP};
use crate::tour::Tour;

mod regions;

use regions::{Graph, Regions};

/// The knight's graph and free squares of a [`Joint`], for its [`Regions`] (a macro, not a
/// method, so that the regions can be borrowed mutably beside it).
macro_rules! graph {
    ($joint:expr) => {
        Graph {
            nbr: &$joint.nbr,
            nbr_len: &$joint.nbr_len,
            time: &$joint.time,
            class_of: &$joint.class_of,
        }
    };
}

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
    distances: &Distances,
) -> (Answer, u64, Vec<Constraint>) {
    if !supports(req) {
        return (Answer::Unfinished, 0, Vec::new());
    }
    let Some(mut search) = Joint::new(req, distances) else {
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

/// Exact knight distances on one board ([`TABLE_MAX_SQUARES`] at most; none on larger
/// boards), built once and shared: the repair search starts hundreds of joint searches on one
/// board, and building the table was four fifths of each on 42x32.
#[derive(Clone)]
pub(crate) struct Distances {
    board: Board,
    table: Arc<[u8]>,
}

impl Distances {
    pub(crate) fn new(board: Board) -> Distances {
        let table = if board.len() <= TABLE_MAX_SQUARES {
            let (nbr, nbr_len) = neighbour_arrays(board);
            distance_table(&nbr, &nbr_len)
        } else {
            Vec::new()
        };
        Distances {
            board,
            table: table.into(),
        }
    }
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
/// ([`supports`]) counts nothing and is not exhaustive.
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
    let Some(mut search) = Joint::new(req, &Distances::new(req.board)) else {
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

/// Nodes of the first round of [`solve_deepest`] at least (2 a square on larger boards). The search
/// has a heavy tail: measured on the `requests` example's unanswered requests of 30 to 80
/// constraints (28 requests, 2 s each), rounds of 2,000 nodes answered 9, of 5,000 nodes 8, of
/// 20,000 nodes 6, and caps tripling from 16,384 nodes 5.
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

/// The decisions a dead end depends on, as decision levels (depths of the search stack, from
/// 1; the constrained squares are level 0 and never named): every level up to `floor`, and
/// `levels` above it. "Everything up to here" is a `floor`, so falling back to chronological
/// backtracking costs nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Conflict {
    floor: u32,
    /// Sorted, each above `floor`.
    levels: Vec<u32>,
}

impl Conflict {
    /// Every level up to `depth`: chronological backtracking.
    fn everything(depth: u32) -> Conflict {
        Conflict {
            floor: depth,
            levels: Vec::new(),
        }
    }

    /// The levels in `raw` (any order, repeats and zeros allowed).
    fn of(mut raw: Vec<u32>) -> Conflict {
        raw.retain(|&l| l > 0);
        raw.sort_unstable();
        raw.dedup();
        Conflict {
            floor: 0,
            levels: raw,
        }
    }

    fn max(&self) -> u32 {
        self.levels.last().copied().unwrap_or(0).max(self.floor)
    }

    fn contains(&self, level: u32) -> bool {
        level <= self.floor || self.levels.binary_search(&level).is_ok()
    }

    /// Add `other` without `level` (the level absorbing it: `other` names nothing deeper).
    fn absorb(&mut self, other: &Conflict, level: u32) {
        debug_assert!(other.max() <= level);
        self.floor = self.floor.max(other.floor);
        let mut merged = Vec::with_capacity(self.levels.len() + other.levels.len());
        let (mut i, mut j) = (0, 0);
        let (a, b) = (&self.levels, &other.levels);
        while i < a.len() || j < b.len() {
            let next = match (a.get(i), b.get(j)) {
                (Some(&x), Some(&y)) if x <= y => {
                    i += 1;
                    j += usize::from(x == y);
                    x
                }
                (Some(&x), None) => {
                    i += 1;
                    x
                }
                (_, Some(&y)) => {
                    j += 1;
                    y
                }
                (None, None) => break,
            };
            merged.push(next);
        }
        if self.floor >= level {
            self.floor = level - 1;
        }
        let floor = self.floor;
        merged.retain(|&l| l > floor && l != level);
        self.levels = merged;
    }
}

/// One piece of the tour: the moves strictly between two constrained moves `lo` and `hi` (`0`
/// for a free start, `n + 1` for a free end). The front has reached move `f` (from `lo`), the
/// back move `g` (from `hi`); the moves strictly between them are still open.
#[derive(Clone, Copy, Debug)]
struct Gap {
    lo: u32,
    hi: u32,
    f: u32,
    g: u32,
}

impl Gap {
    /// Squares still to place.
    fn open(&self) -> u32 {
        self.g - self.f - 1
    }
}

/// Free squares in a set with O(1) insertion and removal (squares with a given number of ways).
struct SparseSet {
    items: Vec<u32>,
    pos: Vec<u32>,
}

impl SparseSet {
    fn new(n: usize) -> SparseSet {
        SparseSet {
            items: Vec::new(),
            pos: vec![NONE; n],
        }
    }

    fn insert(&mut self, v: u32) {
        if self.pos[v as usize] == NONE {
            self.pos[v as usize] = self.items.len() as u32;
            self.items.push(v);
        }
    }

    fn remove(&mut self, v: u32) {
        let p = self.pos[v as usize];
        if p == NONE {
            return;
        }
        let last = self.items.pop().unwrap_or(v);
        if last != v {
            self.items[p as usize] = last;
            self.pos[last as usize] = p;
        }
        self.pos[v as usize] = NONE;
    }
}

/// One level of the search stack: the end being extended (move `t` of piece `gap`), its
/// candidate squares in the order tried, and the levels its failures so far depend on.
struct Frame {
    t: u32,
    cands: [u32; 8],
    len: u8,
    next: u8,
    conflict: Conflict,
}

/// Why the regions rule failed ([`Joint::regions_fill`]).
enum Fill {
    /// A piece has no region next to both its ends.
    Everything,
    /// These regions cannot be filled, in the order of their ids.
    Regions(Vec<(u32, Shortfall)>),
}

/// How a region cannot be filled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shortfall {
    /// Fewer squares of a colour can come into it than it holds.
    TooFew,
    /// The pieces that can go nowhere else bring more squares of a colour than it holds.
    TooMany,
}

/// What [`Joint::evaluate`] found at a node.
enum Node {
    /// Every move is placed.
    Solved,
    /// No tour extends this position, because of these decisions.
    Dead(Conflict),
    /// The deadline passed while the position was being looked at.
    Late,
    /// Extend move `t` with one of these squares; the levels that removed the others.
    Branch {
        t: u32,
        cands: [u32; 8],
        len: u8,
        excluded: Conflict,
    },
}

/// The whole state of one joint search.
struct Joint {
    board: Board,
    n: u32,
    nbr: Vec<u32>,
    nbr_len: Vec<u8>,
    /// Exact distances (`u8`, 255 unreachable, saturating at 254: a lower bound), or empty.
    table: Arc<[u8]>,
    /// Move number of each square, 0 if free.
    time: Vec<u32>,
    /// The free squares (`time` 0), so that a pass over them costs what they number, not
    /// what the board does: the repair search's requests leave a tenth of the board free.
    free: SparseSet,
    /// 0 for the colour of move 1, 1 for the other, by square ([`Joint::class`]).
    class_of: Vec<u8>,
    /// Square of each move `0..=n + 1` (the two ends are sentinels, always [`NONE`]).
    sq: Vec<u32>,
    /// Decision level of each placed move (0 for the constrained ones).
    level: Vec<u32>,
    /// The piece each move belongs to (for moves strictly inside a piece).
    gap_of: Vec<u32>,
    gaps: Vec<Gap>,
    /// The piece before the first constrained move, if the start is free.
    head: Option<usize>,
    /// The piece after the last constrained move, if the end is free.
    tail: Option<usize>,
    /// Colour (`is_corner_colour`) of move 1.
    first_colour: bool,
    /// Ways in or out of each free square: free neighbours and neighbouring piece ends.
    conn: Vec<u8>,
    zeros: SparseSet,
    ones: SparseSet,
    /// Which piece takes each free square (the coverage rule), when it runs.
    cover: Option<Cover>,
    /// The regions of the free squares, kept up to date take by take (`None` only while the
    /// search is being set up, or lent out).
    regions: Option<Regions>,
    /// The piece of the last move placed.
    last_gap: Option<usize>,
    /// Secondary order of squares for [`Order::Fixed`] (farther from the centre first).
    tie_key: Vec<u32>,
    order: Order,
    frames: Vec<Frame>,
    /// The deepest position so far, when kept ([`solve_deepest`]).
    deepest: Option<Deepest>,
    /// The run's deadline, for the steps within a node that can take long (the first
    /// matching of the coverage rule on a large board).
    deadline: Option<Instant>,
    /// Squares placed by the current run.
    nodes: u64,
}

impl Joint {
    /// The search for `req` (which [`supports`]); `None` when the constraints alone rule out
    /// every tour (contradictions, colours, distances; a square out of everyone's reach is
    /// found at the first node). The distance table is the one in `distances` when that is for
    /// this board.
    fn new(req: &Request, distances: &Distances) -> Option<Joint> {
        let board = req.board;
        let n = board.len();
        let (nbr, nbr_len) = neighbour_arrays(board);
        let mut anchors: Vec<(u32, u32)> = Vec::new();
        for c in req.all_constraints() {
            if c.move_number == 0 || c.move_number as usize > n || !board.contains(c.square) {
                return None;
            }
            anchors.push((c.move_number, board.index(c.square)));
        }
        anchors.sort_unstable();
        anchors.dedup();
        let mut time = vec![0u32; n];
        let mut sq = vec![NONE; n + 2];
        for &(t, s) in &anchors {
            if sq[t as usize] != NONE || time[s as usize] != 0 {
                return None; // two squares for one move, or two moves on one square
            }
            sq[t as usize] = s;
            time[s as usize] = t;
        }
        let colour = |s: u32| board.square_at(s).is_corner_colour();
        let (t0, s0) = anchors[0];
        let first_colour = colour(s0) == (t0 % 2 == 1);
        if anchors
            .iter()
            .any(|&(t, s)| colour(s) != (first_colour == (t % 2 == 1)))
        {
            return None;
        }
        let first_count = (n as u32).div_ceil(2) as usize;
        let same = board
            .squares()
            .filter(|s| s.is_corner_colour() == first_colour)
            .count();
        if same != first_count {
            return None;
        }
        let table = if distances.board == board {
            Arc::clone(&distances.table)
        } else {
            Distances::new(board).table
        };
        let mut joint = Joint {
            board,
            n: n as u32,
            nbr,
            nbr_len,
            table,
            free: SparseSet::new(n),
            class_of: board
                .squares()
                .map(|s| u8::from(s.is_corner_colour() != first_colour))
                .collect(),
            time,
            sq,
            level: vec![0; n + 2],
            gap_of: vec![NONE; n + 2],
            gaps: Vec::new(),
            head: None,
            tail: None,
            first_colour,
            conn: vec![0; n],
            zeros: SparseSet::new(n),
            ones: SparseSet::new(n),
            cover: None,
            regions: None,
            last_gap: None,
            tie_key: centre_keys(board),
            order: Order::Fixed,
            frames: Vec::new(),
            deepest: None,
            deadline: None,
            nodes: 0,
        };
        // The pieces, and the distances between consecutive constrained squares.
        let mut bounds: Vec<u32> = vec![0];
        bounds.extend(anchors.iter().map(|&(t, _)| t));
        bounds.push(n as u32 + 1);
        for w in bounds.windows(2) {
            let (lo, hi) = (w[0], w[1]);
            if hi - lo < 2 {
                if lo >= 1
                    && hi <= n as u32
                    && joint.dist(joint.sq[lo as usize], joint.sq[hi as usize]) != 1
                {
                    return None; // consecutive moves on squares a knight's move apart
                }
                continue;
            }
            if lo >= 1
                && hi <= n as u32
                && joint.dist(joint.sq[lo as usize], joint.sq[hi as usize]) > hi - lo
            {
                return None;
            }
            let gi = joint.gaps.len() as u32;
            for t in lo + 1..hi {
                joint.gap_of[t as usize] = gi;
            }
            if lo == 0 {
                joint.head = Some(gi as usize);
            }
            if hi == n as u32 + 1 {
                joint.tail = Some(gi as usize);
            }
            joint.gaps.push(Gap {
                lo,
                hi,
                f: lo,
                g: hi,
            });
        }
        for s in 0..n as u32 {
            if joint.time[s as usize] == 0 {
                joint.free.insert(s);
                let c = joint.count_ways(s);
                joint.conn[s as usize] = c;
                joint.note_ways(s, c);
            }
        }
        joint.regions = Some(Regions::new(&graph!(joint)));
        // The squares are matched at the first node, within the time limit: on a 200x200
        // board with 1,000 constraints the first matching took 3.4 s.
        let pieces = joint.gaps.len().max(1);
        if n / pieces <= COVERAGE_MAX_PIECE {
            joint.cover = Some(Cover::new(&joint));
        }
        Some(joint)
    }

    /// Lower bound on the knight distance from `a` to `b` ([`FAR`] when unreachable). The
    /// distance is symmetric, and the table is read along `a`'s row: callers put the square
    /// that stays fixed over a loop (a piece's end) first, so that the loop reads one row.
    /// With the varying square first, every read fell in another row of a table of up to
    /// 2.5 MB (cachegrind, 25x59 and 32x39 with 80 constraints: 17% fewer first-level data
    /// cache misses this way round, the same instructions).
    #[inline]
    fn dist(&self, a: u32, b: u32) -> u32 {
        if !self.table.is_empty() {
            let d = self.table[a as usize * self.n as usize + b as usize];
            return if d == u8::MAX { FAR } else { u32::from(d) };
        }
        let cols = self.board.cols();
        let (ra, ca, rb, cb) = (a / cols, a % cols, b / cols, b % cols);
        knight_distance(ra.abs_diff(rb), ca.abs_diff(cb))
    }

    #[inline]
    fn neighbours(&self, s: u32) -> &[u32] {
        let b = 8 * s as usize;
        &self.nbr[b..b + self.nbr_len[s as usize] as usize]
    }

    #[inline]
    fn is_free(&self, s: u32) -> bool {
        self.time[s as usize] == 0
    }

    /// Whether the placed move `t` still has a neighbouring move to be placed.
    #[inline]
    fn is_end(&self, t: u32) -> bool {
        (t < self.n && self.sq[t as usize + 1] == NONE)
            || (t > 1 && self.sq[t as usize - 1] == NONE)
    }

    /// Ways in or out of the free square `s`, counted afresh.
    fn count_ways(&self, s: u32) -> u8 {
        self.neighbours(s)
            .iter()
            .filter(|&&u| {
                let t = self.time[u as usize];
                t == 0 || self.is_end(t)
            })
            .count() as u8
    }

    /// File `s` under its number of ways (0 and 1 are watched).
    fn note_ways(&mut self, s: u32, ways: u8) {
        match ways {
            0 => self.zeros.insert(s),
            1 => self.ones.insert(s),
            _ => {}
        }
    }

    fn forget_ways(&mut self, s: u32, ways: u8) {
        match ways {
            0 => self.zeros.remove(s),
            1 => self.ones.remove(s),
            _ => {}
        }
    }

    /// Add `delta` to the ways of every free neighbour of `s`.
    fn adjust_neighbours(&mut self, s: u32, delta: i8) {
        let b = 8 * s as usize;
        for i in 0..self.nbr_len[s as usize] as usize {
            let x = self.nbr[b + i];
            if self.time[x as usize] == 0 {
                let old = self.conn[x as usize];
                let new = (i16::from(old) + i16::from(delta)) as u8;
                self.conn[x as usize] = new;
                self.forget_ways(x, old);
                self.note_ways(x, new);
            }
        }
    }

    /// Place square `s` as move `t` (the next move of a piece's front or back) at `level`.
    fn assign(&mut self, t: u32, s: u32, level: u32) {
        let around = [t - 1, t + 1];
        let was_end = around
            .map(|u| (1..=self.n).contains(&u) && self.sq[u as usize] != NONE && self.is_end(u));
        self.sq[t as usize] = s;
        self.time[s as usize] = t;
        self.free.remove(s);
        if let Some(regions) = self.regions.as_mut() {
            regions.take(&graph!(self), s);
        }
        self.level[t as usize] = level;
        if let Some(cover) = &mut self.cover {
            cover.taken(s);
        }
        let old = self.conn[s as usize];
        self.forget_ways(s, old);
        if !self.is_end(t) {
            self.adjust_neighbours(s, -1);
        }
        for (i, &u) in around.iter().enumerate() {
            if was_end[i] && !self.is_end(u) {
                self.adjust_neighbours(self.sq[u as usize], -1);
            }
        }
        let gi = self.gap_of[t as usize] as usize;
        let gap = &mut self.gaps[gi];
        if t == gap.f + 1 {
            gap.f = t;
        } else {
            debug_assert_eq!(t + 1, gap.g);
            gap.g = t;
        }
        self.last_gap = Some(gi);
    }

    /// Take back move `t` (the last move placed at its piece's front or back).
    fn unassign(&mut self, t: u32) {
        let s = self.sq[t as usize];
        let around = [t - 1, t + 1];
        let was_end = around
            .map(|u| (1..=self.n).contains(&u) && self.sq[u as usize] != NONE && self.is_end(u));
        let s_end = self.is_end(t);
        self.sq[t as usize] = NONE;
        for (i, &u) in around.iter().enumerate() {
            if (1..=self.n).contains(&u)
                && self.sq[u as usize] != NONE
                && !was_end[i]
                && self.is_end(u)
            {
                self.adjust_neighbours(self.sq[u as usize], 1);
            }
        }
        if !s_end {
            self.adjust_neighbours(s, 1);
        }
        self.time[s as usize] = 0;
        self.free.insert(s);
        if let Some(regions) = self.regions.as_mut() {
            regions.give_back(&graph!(self), s);
        }
        if let Some(cover) = &mut self.cover {
            cover.pending.push(s);
        }
        let ways = self.count_ways(s);
        self.conn[s as usize] = ways;
        self.note_ways(s, ways);
        let gi = self.gap_of[t as usize] as usize;
        let gap = &mut self.gaps[gi];
        if t == gap.f {
            gap.f = t - 1;
        } else {
            debug_assert_eq!(t, gap.g);
            gap.g = t + 1;
        }
    }

    /// Level of the placement of move `t` (0 for none, or a constrained move).
    #[inline]
    fn lv(&self, t: u32) -> u32 {
        if t >= 1 && t <= self.n && self.sq[t as usize] != NONE {
            self.level[t as usize]
        } else {
            0
        }
    }

    /// The levels that make the placed square `u` what it is to its neighbours: its own and
    /// its two neighbouring moves' (which decide whether it is still a piece's end).
    fn square_reason(&self, u: u32, out: &mut Vec<u32>) {
        let t = self.time[u as usize];
        out.extend([self.lv(t - 1), self.lv(t), self.lv(t + 1)]);
    }

    /// The levels that took ways away from the free square `x`.
    fn ways_reason(&self, x: u32, out: &mut Vec<u32>) {
        for &u in self.neighbours(x) {
            if !self.is_free(u) {
                self.square_reason(u, out);
            }
        }
    }

    /// The levels that decide which squares may still be the tour's first and last.
    fn endpoint_reason(&self, out: &mut Vec<u32>) {
        if let Some(h) = self.head {
            out.push(self.lv(self.gaps[h].g));
        }
        if let Some(t) = self.tail {
            out.push(self.lv(self.gaps[t].f));
        }
    }

    /// Whether the free square `x` may still be move 1.
    fn can_be_first(&self, x: u32) -> bool {
        let Some(h) = self.head else { return false };
        let g = self.gaps[h].g;
        g > 1
            && self.board.square_at(x).is_corner_colour() == self.first_colour
            && self.dist(self.sq[g as usize], x) < g
    }

    /// Whether the free square `x` may still be move n.
    fn can_be_last(&self, x: u32) -> bool {
        let Some(tl) = self.tail else { return false };
        let f = self.gaps[tl].f;
        let last_colour = self.first_colour == (self.n % 2 == 1);
        f < self.n
            && self.board.square_at(x).is_corner_colour() == last_colour
            && self.dist(self.sq[f as usize], x) <= self.n - f
    }

    /// Whether piece `gi` can still take the free square `v`, with its slack (moves to spare).
    fn cover_slack(&self, gi: usize, v: u32) -> Option<u32> {
        let gap = self.gaps[gi];
        if gap.open() == 0 {
            return None;
        }
        let span = gap.g - gap.f;
        let to_front = if gap.f == 0 {
            1
        } else {
            self.dist(self.sq[gap.f as usize], v)
        };
        let to_back = if gap.g > self.n {
            1
        } else {
            self.dist(self.sq[gap.g as usize], v)
        };
        let need = to_front + to_back;
        let span = if gap.f == 0 || gap.g > self.n {
            span + 1
        } else {
            span
        };
        (need <= span).then(|| span - need)
    }

    /// Capacity of piece `gi` for squares of colour class `c` (0: move 1's colour).
    fn capacity(&self, gi: usize, c: usize) -> u32 {
        let gap = self.gaps[gi];
        let (odd, even) = self.colour_counts(gap.f, gap.g);
        [odd, even][c]
    }

    /// Colour class of square `s`: 0 for move 1's colour (odd moves), 1 for the other.
    fn class(&self, s: u32) -> usize {
        usize::from(self.class_of[s as usize])
    }

    /// The coverage rule: after piece `gi` grew (if any) and squares were freed, every free
    /// square is matched to a piece that can still take it in time, each piece taking no
    /// more squares of a colour than it has moves of that colour (Hall's condition, kept by
    /// augmenting paths). `Ok(false)` when the deadline passed first (the squares not
    /// matched yet are still pending).
    fn rematch(&mut self) -> Result<bool, Conflict> {
        let Some(mut cover) = self.cover.take() else {
            return Ok(true);
        };
        let result = self.rematch_with(&mut cover);
        self.cover = Some(cover);
        result
    }

    fn rematch_with(&self, cover: &mut Cover) -> Result<bool, Conflict> {
        if let Some(gi) = self.last_gap {
            for c in 0..2 {
                let cap = self.capacity(gi, c) as usize;
                while cover.members[gi][c].len() > cap {
                    let x = cover.members[gi][c][cover.members[gi][c].len() - 1];
                    cover.unmatch(x, c);
                    cover.pending.push(x);
                }
                let mut k = 0;
                while k < cover.members[gi][c].len() {
                    let x = cover.members[gi][c][k];
                    if self.cover_slack(gi, x).is_none() {
                        cover.unmatch(x, c);
                        cover.pending.push(x);
                    } else {
                        k += 1;
                    }
                }
            }
        }
        let mut paths = 0u32;
        while let Some(v) = cover.pending.pop() {
            if !self.is_free(v) || cover.owner[v as usize] != NONE {
                continue;
            }
            paths += 1;
            if paths.is_multiple_of(MATCHING_DEADLINE_STEP)
                && self.deadline.is_some_and(|t| Instant::now() >= t)
            {
                cover.pending.push(v);
                return Ok(false);
            }
            if !self.augment(cover, v) {
                cover.pending.push(v);
                return Err(Conflict::of(self.stuck_pieces_levels(cover)));
            }
        }
        Ok(true)
    }

    /// Why the squares a failed augmenting path searched have no piece: the levels of the
    /// ends of every piece that could ever take one of them, each piece once (`cover.listed`,
    /// gathered by the search itself).
    fn stuck_pieces_levels(&self, cover: &Cover) -> Vec<u32> {
        let mut raw = Vec::new();
        for (blk, &word) in cover.listed.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let gap = self.gaps[blk * 64 + bits.trailing_zeros() as usize];
                bits &= bits - 1;
                raw.extend([self.lv(gap.f), self.lv(gap.g)]);
            }
        }
        raw
    }

    /// Match the free square `v` to a piece, moving other squares along an augmenting path;
    /// `false` (the squares searched left in `cover.queue`) when no path exists.
    fn augment(&self, cover: &mut Cover, v: u32) -> bool {
        let c = self.class(v);
        let stamp = cover.next_stamp();
        cover.queue.clear();
        cover.expanded.fill(0);
        cover.listed.fill(0);
        cover.queue.push(v);
        cover.seen[v as usize] = stamp;
        cover.from[v as usize] = NONE;
        let mut head = 0;
        while head < cover.queue.len() {
            let u = cover.queue[head];
            head += 1;
            let (a, b) = (
                cover.start[u as usize] as usize,
                cover.start[u as usize + 1] as usize,
            );
            // A piece with room ends the path; only when none has room are the full ones'
            // squares searched (the path found is the one a single pass finds, first piece
            // with room in the pieces' order, without queueing squares first). Pieces whose
            // squares are queued already are skipped a word at a time.
            cover.full.clear();
            for k in a..b {
                let (blk, word) = cover.blocks[k];
                let blk = blk as usize;
                cover.listed[blk] |= word;
                let mut bits = word & !cover.expanded[blk];
                while bits != 0 {
                    let j = blk * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if self.cover_slack(j, u).is_none() {
                        continue;
                    }
                    if (cover.members[j][c].len() as u32) < self.capacity(j, c) {
                        // Shift every square on the path one piece along.
                        let (mut x, mut target) = (u, j as u32);
                        loop {
                            let old = cover.owner[x as usize];
                            if old != NONE {
                                cover.unmatch(x, c);
                            }
                            cover.matched(x, target, c);
                            if cover.from[x as usize] == NONE {
                                return true;
                            }
                            target = old;
                            x = cover.from[x as usize];
                        }
                    }
                    cover.full.push(j as u32);
                }
            }
            for f in 0..cover.full.len() {
                let j = cover.full[f] as usize;
                cover.expanded[j / 64] |= 1 << (j % 64);
                for m in 0..cover.members[j][c].len() {
                    let x = cover.members[j][c][m];
                    if cover.seen[x as usize] != stamp {
                        cover.seen[x as usize] = stamp;
                        cover.from[x as usize] = u;
                        cover.queue.push(x);
                    }
                }
            }
        }
        false
    }

    /// Every free square `v` and piece `gi` that could ever take it, pieces in order.
    fn each_cover_pair(&self, mut pair: impl FnMut(u32, u32)) {
        let (n, cols) = (self.n as usize, self.board.cols());
        for (gi, gap) in self.gaps.iter().enumerate() {
            let ((r0, r1), (c0, c1)) = self.near_piece(gap);
            let gi = gi as u32;
            if self.table.is_empty() {
                for r in r0..r1 {
                    for v in r * cols + c0..r * cols + c1 {
                        if self.is_free(v) && self.could_ever_cover(gap, v) {
                            pair(v, gi);
                        }
                    }
                }
                continue;
            }
            // With the distance table, a pass over the box reads the rows of the piece's placed
            // ends side by side; a free end counts 0 (`could_ever_cover` counts it as one move
            // of one more), and an unreachable square (255) never passes.
            let row = |t: u32| {
                (1..=self.n).contains(&t).then(|| {
                    let a = self.sq[t as usize] as usize * n;
                    &self.table[a..a + n]
                })
            };
            let (lo_row, hi_row) = (row(gap.lo), row(gap.hi));
            let moves = gap.hi - gap.lo;
            let within = |d: u8| d != u8::MAX && u32::from(d) <= moves;
            for r in r0..r1 {
                let a = (r * cols + c0) as usize;
                let b = (r * cols + c1) as usize;
                for (i, &t) in self.time[a..b].iter().enumerate() {
                    let v = a + i;
                    let dx = lo_row.map_or(0, |x| x[v]);
                    let dy = hi_row.map_or(0, |y| y[v]);
                    if t == 0 && within(dx) && within(dy) && u32::from(dx) + u32::from(dy) <= moves
                    {
                        pair(v as u32, gi);
                    }
                }
            }
        }
    }

    /// The rows and columns (half-open ranges) of a box holding every square `gap` could ever take
    /// ([`Joint::could_ever_cover`]): a knight's move changes a row or a column by two at most,
    /// so a square `dr` rows from a placed end is at least `dr / 2` (rounded up) moves from it,
    /// and the rows (and likewise the columns) whose distances to the placed ends add up to
    /// more than the piece's `m` moves are left out. The distances used are never less than
    /// that (the whole board for a piece as long as [`TABLE_SATURATES`]: the table's distances
    /// stop there). Between two ends the box is the thin one around them, not the `4m + 1`
    /// squares wide one around one end: the repair search builds a joint search per repair,
    /// and with boxes around one end, building the lists was a fifth of its time (perf, 21x37
    /// and 25x59 with 80 constraints, repairs of 500 nodes).
    fn near_piece(&self, gap: &Gap) -> ((u32, u32), (u32, u32)) {
        let (rows, cols) = (self.board.rows(), self.board.cols());
        let moves = gap.hi - gap.lo;
        let placed = |t: u32| {
            (1..=self.n)
                .contains(&t)
                .then(|| self.board.square_at(self.sq[t as usize]))
        };
        let ends = [placed(gap.lo), placed(gap.hi)];
        if moves < TABLE_SATURATES && ends.iter().any(Option::is_some) {
            let ends = ends.iter().flatten();
            (
                axis_range(rows, moves, ends.clone().map(|e| e.row)),
                axis_range(cols, moves, ends.map(|e| e.col)),
            )
        } else {
            ((0, rows), (0, cols)) // the whole board
        }
    }

    /// Whether the piece could take `v` with nothing of it placed yet.
    fn could_ever_cover(&self, gap: &Gap, v: u32) -> bool {
        let n = self.n;
        let span = gap.hi - gap.lo;
        let to_lo = if gap.lo == 0 {
            1
        } else {
            self.dist(self.sq[gap.lo as usize], v)
        };
        let to_hi = if gap.hi > n {
            1
        } else {
            self.dist(self.sq[gap.hi as usize], v)
        };
        let span = if gap.lo == 0 || gap.hi > n {
            span + 1
        } else {
            span
        };
        to_lo + to_hi <= span
    }

    /// Colour counts of the moves strictly between `f` and `g`: (move 1's colour, the other).
    fn colour_counts(&self, f: u32, g: u32) -> (u32, u32) {
        // Moves f+1 ..= g-1; odd moves have move 1's colour.
        let odd = |t: u32| t.div_ceil(2); // odd numbers in 1..=t
        let (a, b) = (f + 1, g - 1);
        if a > b {
            return (0, 0);
        }
        let odds = odd(b) - odd(a - 1);
        (odds, (b - a + 1) - odds)
    }

    /// The regions rule over the whole board: every region of free squares is filled exactly,
    /// colour by colour, by the pieces that can enter it.
    fn check_regions(&mut self) -> Result<(), Conflict> {
        let Some(mut regions) = self.regions.take() else {
            return Ok(());
        };
        let result = self.check_all_regions(&mut regions);
        self.regions = Some(regions);
        result
    }

    fn check_all_regions(&self, regions: &mut Regions) -> Result<(), Conflict> {
        let failing = match self.regions_fill(regions) {
            Ok(()) => return Ok(()),
            Err(Fill::Everything) => return Err(Conflict::everything(self.frames.len() as u32)),
            Err(Fill::Regions(failing)) => failing,
        };
        // The failing region met first in the free squares' order (the order in which a pass
        // over them found the regions before they were kept up to date), so that the search
        // takes the course it took then.
        let first = self.free.items.iter().find_map(|&s| {
            let r = regions.of(s);
            failing.iter().find(|f| f.0 == r).map(|f| (s, f.1))
        });
        let Some((s, kind)) = first else {
            return Err(Conflict::everything(self.frames.len() as u32));
        };
        match kind {
            Shortfall::TooFew => {
                // Too few squares can come into the region: that holds while the squares
                // around it stay as they are (and so the piece ends next to it).
                let mut raw = Vec::new();
                for &v in regions.squares(&graph!(self), s) {
                    self.ways_reason(v, &mut raw);
                }
                Err(Conflict::of(raw))
            }
            Shortfall::TooMany => Err(Conflict::everything(self.frames.len() as u32)),
        }
    }

    /// The regions rule: every region can be filled exactly, colour by colour, by the pieces
    /// that can enter it (those with both ends next to it). Otherwise either a piece next to
    /// no region, or the regions that fail, in the order of their ids.
    fn regions_fill(&self, regions: &Regions) -> Result<(), Fill> {
        let sizes = regions.sizes();
        let count_of_regions = sizes.len();
        let mut possible = vec![[0u32; 2]; count_of_regions];
        let mut forced = vec![[0u32; 2]; count_of_regions];
        for gap in &self.gaps {
            if gap.open() == 0 {
                continue;
            }
            // The regions next to one end of the piece (none for a free start or end).
            let side = |t: u32| -> Option<[u32; 8]> {
                if t == 0 || t > self.n {
                    return None;
                }
                let mut ids = [NONE; 8];
                for (k, &w) in self.neighbours(self.sq[t as usize]).iter().enumerate() {
                    if self.time[w as usize] == 0 {
                        ids[k] = regions.of(w);
                    }
                }
                Some(ids)
            };
            let mut options = [NONE; 8];
            let mut count = 0;
            let mut add = |id: u32| {
                if id != NONE && !options[..count].contains(&id) {
                    options[count] = id;
                    count += 1;
                }
            };
            match (side(gap.f), side(gap.g)) {
                (Some(a), Some(b)) => a.iter().filter(|id| b.contains(id)).for_each(|&id| add(id)),
                (Some(a), None) | (None, Some(a)) => a.iter().for_each(|&id| add(id)),
                (None, None) => continue, // free at both ends: anywhere
            }
            if count == 0 {
                // No region next to both ends: the piece cannot be finished.
                return Err(Fill::Everything);
            }
            let (odd, even) = self.colour_counts(gap.f, gap.g);
            for &id in &options[..count] {
                possible[id as usize][0] += odd;
                possible[id as usize][1] += even;
            }
            if count == 1 {
                let id = options[0] as usize;
                forced[id][0] += odd;
                forced[id][1] += even;
            }
        }
        let mut failing = Vec::new();
        for r in 0..count_of_regions {
            let size = sizes[r];
            if possible[r][0] < size[0] || possible[r][1] < size[1] {
                failing.push((r as u32, Shortfall::TooFew));
            } else if forced[r][0] > size[0] || forced[r][1] > size[1] {
                failing.push((r as u32, Shortfall::TooMany));
            }
        }
        if failing.is_empty() {
            Ok(())
        } else {
            Err(Fill::Regions(failing))
        }
    }

    /// The candidates for the next move of piece `gi` at its front (`front`) or back, in
    /// `out`; the count, and the levels that excluded the other neighbours.
    fn candidates(
        &self,
        gi: usize,
        front: bool,
        out: &mut [u32; 8],
        why: Option<&mut Vec<u32>>,
    ) -> u8 {
        let gap = self.gaps[gi];
        let (from_t, t, other_t) = if front {
            (gap.f, gap.f + 1, gap.g)
        } else {
            (gap.g, gap.g - 1, gap.f)
        };
        let from = self.sq[from_t as usize];
        let other = (other_t >= 1 && other_t <= self.n).then(|| self.sq[other_t as usize]);
        let left = t.abs_diff(other_t);
        let mut len = 0u8;
        let mut by_distance = false;
        let mut why = why;
        for &w in self.neighbours(from) {
            if !self.is_free(w) {
                if let Some(r) = why.as_deref_mut() {
                    r.push(self.lv(self.time[w as usize]));
                }
                continue;
            }
            if let Some(o) = other {
                if self.dist(o, w) > left {
                    by_distance = true;
                    continue;
                }
            }
            out[len as usize] = w;
            len += 1;
        }
        // A free square whose every way is needed (two, one if it may be the tour's first or
        // last square) must take this end's next move when this end is one of its ways and
        // has no other side open.
        let back_side = if front { from_t - 1 } else { from_t + 1 };
        let single_side = !(1..=self.n).contains(&back_side) || self.sq[back_side as usize] != NONE;
        let mut forced = [NONE; 2];
        let mut n_forced = 0;
        if single_side {
            for &w in &out[..len as usize] {
                let ways = self.conn[w as usize];
                if ways <= 2 {
                    let capable = self.can_be_first(w) || self.can_be_last(w);
                    if ways <= 2 - u8::from(capable) {
                        if n_forced < 2 {
                            forced[n_forced] = w;
                        }
                        n_forced += 1;
                    }
                }
            }
        }
        if n_forced >= 1 {
            len = if n_forced == 1 { 1 } else { 0 };
            out[0] = forced[0];
        }
        if let Some(r) = why {
            r.push(self.lv(from_t));
            if by_distance {
                r.push(self.lv(other_t));
            }
            if n_forced >= 1 {
                for &w in &forced[..n_forced.min(2)] {
                    self.ways_reason(w, r);
                }
                self.endpoint_reason(r);
            }
        }
        len
    }

    /// Look at the position: dead (and why), solved, or the end to extend next.
    fn evaluate(&mut self) -> Node {
        if let Some(&x) = self.zeros.items.first() {
            let mut raw = Vec::new();
            self.ways_reason(x, &mut raw);
            return Node::Dead(Conflict::of(raw));
        }
        if !self.ones.items.is_empty() {
            let ones: Vec<u32> = self.ones.items.iter().copied().take(3).collect();
            let caps: Vec<(bool, bool)> = ones
                .iter()
                .map(|&x| (self.can_be_first(x), self.can_be_last(x)))
                .collect();
            let fits = match caps.as_slice() {
                [(a, b)] => *a || *b,
                [(a0, b0), (a1, b1)] => (*a0 && *b1) || (*b0 && *a1),
                _ => false,
            };
            if !fits {
                let mut raw = Vec::new();
                for &x in &ones {
                    self.ways_reason(x, &mut raw);
                }
                self.endpoint_reason(&mut raw);
                return Node::Dead(Conflict::of(raw));
            }
        }
        match self.rematch() {
            Err(c) => return Node::Dead(c),
            Ok(false) => return Node::Late,
            Ok(true) => {}
        }
        if let Err(c) = self.check_regions() {
            return Node::Dead(c);
        }
        // Fail first: the end with the fewest candidates.
        let mut best: Option<(u8, u32, u32, usize, bool)> = None;
        let mut scratch = [NONE; 8];
        for gi in 0..self.gaps.len() {
            let gap = self.gaps[gi];
            if gap.open() == 0 {
                continue;
            }
            let slack = self.slack(gi);
            for front in [true, false] {
                if (front && gap.f == 0) || (!front && gap.g > self.n) {
                    continue;
                }
                let len = self.candidates(gi, front, &mut scratch, None);
                if len == 0 {
                    let mut raw = Vec::new();
                    self.candidates(gi, front, &mut scratch, Some(&mut raw));
                    return Node::Dead(Conflict::of(raw));
                }
                let tie = match &mut self.order {
                    Order::Fixed => gi as u32,
                    Order::Random(r) => r.random(),
                };
                let key = (len, slack, tie, gi, front);
                if best.is_none_or(|b| (key.0, key.1, key.2) < (b.0, b.1, b.2)) {
                    best = Some(key);
                }
            }
        }
        let Some((_, _, _, gi, front)) = best else {
            return Node::Solved;
        };
        let mut cands = [NONE; 8];
        let mut raw = Vec::new();
        let len = self.candidates(gi, front, &mut cands, Some(&mut raw));
        let gap = self.gaps[gi];
        let t = if front { gap.f + 1 } else { gap.g - 1 };
        self.sort_candidates(&mut cands[..len as usize]);
        Node::Branch {
            t,
            cands,
            len,
            excluded: Conflict::of(raw),
        }
    }

    /// Moves to spare in piece `gi` (its length beyond the distance between its ends).
    fn slack(&self, gi: usize) -> u32 {
        let gap = self.gaps[gi];
        if gap.f == 0 || gap.g > self.n {
            return gap.open();
        }
        (gap.g - gap.f).saturating_sub(self.dist(self.sq[gap.f as usize], self.sq[gap.g as usize]))
    }

    /// Warnsdorff's order: fewest ways on first; ties by the order's key.
    fn sort_candidates(&mut self, cands: &mut [u32]) {
        let mut keys = [0u64; 8];
        for (i, &w) in cands.iter().enumerate() {
            let tie = match &mut self.order {
                Order::Fixed => u64::from(self.tie_key[w as usize]),
                Order::Random(r) => u64::from(r.random::<u32>()),
            };
            keys[i] = (u64::from(self.conn[w as usize]) << 32) | tie;
        }
        // Insertion sort: at most 8.
        for i in 1..cands.len() {
            let mut j = i;
            while j > 0 && keys[j - 1] > keys[j] {
                keys.swap(j - 1, j);
                cands.swap(j - 1, j);
                j -= 1;
            }
        }
    }

    /// Search every completion of the current position, calling `found` with each tour (the
    /// squares of moves 1..=n); `found` returns `false` to stop.
    fn run(&mut self, limits: Limits, found: &mut dyn FnMut(&[u32]) -> bool) -> Stop {
        self.nodes = 0;
        self.deadline = limits.deadline;
        loop {
            let mut conflict = match self.evaluate() {
                Node::Solved => {
                    if !found(&self.sq[1..=self.n as usize]) {
                        return Stop::Visitor;
                    }
                    Conflict::everything(self.frames.len() as u32)
                }
                Node::Dead(c) => c,
                Node::Late => return Stop::Budget,
                Node::Branch {
                    t,
                    cands,
                    len,
                    excluded,
                } => {
                    self.note_depth();
                    self.frames.push(Frame {
                        t,
                        cands,
                        len,
                        next: 1,
                        conflict: excluded,
                    });
                    let level = self.frames.len() as u32;
                    self.assign(t, cands[0], level);
                    if let Some(stop) = self.count_node(&limits) {
                        return stop;
                    }
                    continue;
                }
            };
            // Back up to the latest decision the dead end depends on.
            loop {
                let level = self.frames.len() as u32;
                let Some(frame) = self.frames.last() else {
                    return Stop::Exhausted;
                };
                let t = frame.t;
                self.unassign(t);
                if !conflict.contains(level) {
                    self.frames.pop();
                    continue;
                }
                let frame = self.frames.last_mut().expect("a frame");
                frame.conflict.absorb(&conflict, level);
                if frame.next < frame.len {
                    let s = frame.cands[frame.next as usize];
                    frame.next += 1;
                    self.assign(t, s, level);
                    if let Some(stop) = self.count_node(&limits) {
                        return stop;
                    }
                    break;
                }
                conflict = std::mem::take(&mut frame.conflict);
                self.frames.pop();
            }
        }
    }

    /// Keep the position when it is the deepest so far (and kept at all). A tie replaces the
    /// one kept: of equally deep positions the latest is kept, so that repeated searches from
    /// one position do not all return it.
    fn note_depth(&mut self) {
        let depth = self.frames.len() as u32;
        if let Some(d) = self.deepest.as_mut().filter(|d| depth >= d.depth) {
            d.depth = depth;
            d.sq.clear();
            d.sq.extend_from_slice(&self.sq[1..=self.n as usize]);
        }
    }

    /// Count a node; `Some` when the limits are reached.
    fn count_node(&mut self, limits: &Limits) -> Option<Stop> {
        self.nodes += 1;
        if self.nodes >= limits.max_nodes {
            return Some(Stop::Budget);
        }
        if self.nodes.is_multiple_of(METER_STEP) {
            if let Some(meter) = limits.meter {
                meter.add(METER_STEP);
            }
        }
        // A node here costs up to a few microseconds (the region and coverage rules), so the
        // clock is read more often than the meter is fed: a time limit is kept to a few ms.
        if self.nodes.is_multiple_of(DEADLINE_STEP)
            && limits.deadline.is_some_and(|t| Instant::now() >= t)
        {
            return Some(Stop::Budget);
        }
        None
    }

    /// Take back every decision: the position of the constrained squares alone.
    fn reset(&mut self) {
        while let Some(frame) = self.frames.pop() {
            self.unassign(frame.t);
        }
        self.last_gap = None;
    }
}

/// The coverage rule's state: which piece takes each free square ([`Joint::rematch`]).
struct Cover {
    /// The pieces that could take square `v` with nothing placed, as words of a bit set over
    /// the pieces (piece `64 * block + i` is bit `i`), the words with a bit set only:
    /// `blocks[start[v]..start[v + 1]]`, blocks in order. An augmenting path search met each
    /// piece in dozens of squares' lists, nine times in ten one already searched (perf, 25x59
    /// with 80 constraints); a word skips 64 of them at once.
    start: Vec<u32>,
    blocks: Vec<(u32, u64)>,
    /// The piece each free square is matched to, [`NONE`] if none.
    owner: Vec<u32>,
    /// Where each matched square is in its piece's list.
    pos: Vec<u32>,
    /// Squares matched to each piece, by colour class.
    members: Vec<[Vec<u32>; 2]>,
    /// Free squares that may be unmatched.
    pending: Vec<u32>,
    seen: Vec<u32>,
    /// Bit set of the pieces whose squares an augmenting path search has queued.
    expanded: Vec<u64>,
    /// Bit set of the pieces in the lists of the squares it searched: the explanation when
    /// no path exists.
    listed: Vec<u64>,
    from: Vec<u32>,
    queue: Vec<u32>,
    /// The full pieces that could take the square an augmenting path is at.
    full: Vec<u32>,
    stamp: u32,
}

impl Cover {
    /// Nothing matched yet; every free square pending.
    fn new(joint: &Joint) -> Cover {
        let n = joint.n as usize;
        // Each piece's squares are looked for only near its ends: a piece of m moves reaches
        // no square more than 2m rows or columns from either end. Trying every piece on every
        // square was 640 million tests on 400x400 with 4,000 constraints (3.7 s, before the
        // search could read the clock). Two passes (count, then fill) keep the memory to the
        // lists themselves, each in the pieces' order.
        // Each square's pieces come in order, so a piece in a new word starts a new block.
        let mut start = vec![0u32; n + 1];
        let mut last = vec![NONE; n];
        joint.each_cover_pair(|v, gi| {
            if last[v as usize] != gi / 64 {
                last[v as usize] = gi / 64;
                start[v as usize + 1] += 1;
            }
        });
        for v in 0..n {
            start[v + 1] += start[v];
        }
        let mut blocks = vec![(0u32, 0u64); start[n] as usize];
        let mut next = start.clone();
        last.fill(NONE);
        joint.each_cover_pair(|v, gi| {
            let v = v as usize;
            if last[v] != gi / 64 {
                last[v] = gi / 64;
                blocks[next[v] as usize] = (gi / 64, 0);
                next[v] += 1;
            }
            blocks[next[v] as usize - 1].1 |= 1 << (gi % 64);
        });
        let mut pending: Vec<u32> = (0..n as u32).filter(|&v| joint.is_free(v)).collect();
        pending.reverse();
        Cover {
            start,
            blocks,
            owner: vec![NONE; n],
            pos: vec![0; n],
            members: vec![[Vec::new(), Vec::new()]; joint.gaps.len()],
            pending,
            seen: vec![0; n],
            expanded: vec![0; joint.gaps.len().div_ceil(64)],
            listed: vec![0; joint.gaps.len().div_ceil(64)],
            from: vec![NONE; n],
            queue: Vec::new(),
            full: Vec::new(),
            stamp: 0,
        }
    }

    fn next_stamp(&mut self) -> u32 {
        if self.stamp == u32::MAX {
            self.seen.fill(0);
            self.stamp = 0;
        }
        self.stamp += 1;
        self.stamp
    }

    fn matched(&mut self, x: u32, gi: u32, c: usize) {
        let list = &mut self.members[gi as usize][c];
        self.pos[x as usize] = list.len() as u32;
        list.push(x);
        self.owner[x as usize] = gi;
    }

    fn unmatch(&mut self, x: u32, c: usize) {
        let gi = self.owner[x as usize] as usize;
        let list = &mut self.members[gi][c];
        let p = self.pos[x as usize] as usize;
        let last = list.pop().unwrap_or(x);
        if last != x {
            list[p] = last;
            self.pos[last as usize] = p as u32;
        }
        self.owner[x as usize] = NONE;
    }

    /// Square `s` is placed: it needs no piece any more.
    fn taken(&mut self, s: u32) {
        if self.owner[s as usize] != NONE {
            let gi = self.owner[s as usize] as usize;
            let c = usize::from(self.members[gi][1].get(self.pos[s as usize] as usize) == Some(&s));
            self.unmatch(s, c);
        }
    }
}

/// From the first to the last coordinate `x` in `0..len` (a half-open range, empty when there
/// is none) whose lower bounds on the moves to the placed ends at coordinates `ends` (half the
/// distance along this axis, rounded up) add up to at most `moves`: every coordinate that
/// passes, all within `2 * moves` of the ends.
fn axis_range(len: u32, moves: u32, ends: impl Iterator<Item = u32> + Clone) -> (u32, u32) {
    let bound = |x: u32| -> u32 { ends.clone().map(|e| x.abs_diff(e).div_ceil(2)).sum() };
    let (lo, hi) = ends
        .clone()
        .fold((u32::MAX, 0), |(a, b), e| (a.min(e), b.max(e)));
    let first = lo.saturating_sub(2 * moves);
    let last = hi.saturating_add(2 * moves).min(len - 1);
    let mut range = (first..=last).filter(|&x| bound(x) <= moves);
    match range.next() {
        Some(a) => (a, range.next_back().unwrap_or(a) + 1),
        None => (0, 0),
    }
}

/// Exact knight distances between every pair of squares, saturating at 254 (255: unreachable).
fn distance_table(nbr: &[u32], nbr_len: &[u8]) -> Vec<u8> {
    let n = nbr_len.len();
    let mut table = vec![u8::MAX; n * n];
    let mut queue = Vec::with_capacity(n);
    for from in 0..n {
        let row = &mut table[from * n..(from + 1) * n];
        queue.clear();
        queue.push(from as u32);
        row[from] = 0;
        let mut head = 0;
        while head < queue.len() {
            let s = queue[head] as usize;
            head += 1;
            let d = row[s].saturating_add(1).min(TABLE_SATURATES as u8);
            for &t in &nbr[8 * s..8 * s + nbr_len[s] as usize] {
                if row[t as usize] == u8::MAX {
                    row[t as usize] = d;
                    queue.push(t);
                }
            }
        }
    }
    table
}

/// Roth's order: squares farther from the centre first (smaller key).
fn centre_keys(board: Board) -> Vec<u32> {
    let (rows, cols) = (i64::from(board.rows()), i64::from(board.cols()));
    let far: Vec<i64> = board
        .squares()
        .map(|sq| {
            let dr = 2 * i64::from(sq.row) - (rows - 1);
            let dc = 2 * i64::from(sq.col) - (cols - 1);
            -(dr * dr + dc * dc)
        })
        .collect();
    rank(&far)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::Constraint;

    /// The rows (or columns) near a piece's ends run from the first to the last within the
    /// bound, on small boards, with one end or two, at any length.
    #[test]
    fn axis_range_is_every_coordinate_within_the_bound() {
        for len in 1..12u32 {
            for moves in 0..9 {
                for a in 0..len {
                    for ends in [vec![a], vec![a, (a * 7 + 3) % len], vec![a, len - 1 - a]] {
                        let within = |x: u32| -> bool {
                            ends.iter().map(|&e| x.abs_diff(e).div_ceil(2)).sum::<u32>() <= moves
                        };
                        let (lo, hi) = axis_range(len, moves, ends.iter().copied());
                        let first = (0..len).find(|&x| within(x));
                        let last = (0..len).rev().find(|&x| within(x));
                        let want = first.zip(last).map_or((0, 0), |(a, b)| (a, b + 1));
                        assert_eq!((lo, hi), want, "{len} {moves} {ends:?}");
                    }
                }
            }
        }
    }

    /// The pieces listed for each square, looked for near the pieces' ends, are the ones
    /// found by trying every piece on every square, in the same order: on a square board, a
    /// thin one whose pieces are longer than the distance table goes, and with a free start
    /// and end.
    #[test]
    fn cover_lists_match_every_piece_tried_on_every_square() {
        for (rows, cols, every) in [(12, 12, 5), (5, 300, 400), (6, 9, 7), (8, 8, 3)] {
            let board = Board::new(rows, cols).unwrap();
            let tour = crate::solve::construct::open_tour(board).unwrap();
            let squares: Vec<_> = tour.squares().collect();
            let constraints = (every / 2..squares.len())
                .step_by(every)
                .map(|k| Constraint {
                    move_number: k as u32 + 1,
                    square: squares[k],
                })
                .collect();
            let req = Request {
                constraints,
                ..Request::open(board)
            };
            let joint = Joint::new(&req, &Distances::new(board)).unwrap();
            let cover = Cover::new(&joint);
            for v in 0..board.len() as u32 {
                let want: Vec<u32> = if joint.is_free(v) {
                    (0..joint.gaps.len() as u32)
                        .filter(|&gi| joint.could_ever_cover(&joint.gaps[gi as usize], v))
                        .collect()
                } else {
                    Vec::new()
                };
                let (a, b) = (
                    cover.start[v as usize] as usize,
                    cover.start[v as usize + 1] as usize,
                );
                let got: Vec<u32> = cover.blocks[a..b]
                    .iter()
                    .flat_map(|&(blk, word)| {
                        (0..64)
                            .filter(move |i| word >> i & 1 == 1)
                            .map(move |i| blk * 64 + i)
                    })
                    .collect();
                assert_eq!(got, want, "{rows}x{cols}, square {v}");
            }
        }
    }

    fn request(board: Board, pairs: &[(u32, &str)]) -> Request {
        Request {
            constraints: pairs
                .iter()
                .map(|&(move_number, name)| Constraint {
                    move_number,
                    square: board.parse_square(name).unwrap(),
                })
                .collect(),
            ..Request::open(board)
        }
    }

    #[test]
    fn conflicts_merge_and_fall_back_to_chronological() {
        let mut a = Conflict::of(vec![3, 1, 0, 3]);
        assert_eq!(a.levels, [1, 3]);
        a.absorb(&Conflict::of(vec![2, 5]), 5);
        assert_eq!((a.floor, a.levels.clone()), (0, vec![1, 2, 3]));
        a.absorb(&Conflict::everything(4), 4);
        assert_eq!((a.floor, a.max()), (3, 3));
        assert!(a.contains(2) && !a.contains(4));
    }

    #[test]
    fn counts_agree_with_the_plain_search_on_5x5() {
        let board = Board::new(5, 5).unwrap();
        for pairs in [
            vec![(1, "a1")],
            vec![(1, "c3")],
            vec![(25, "a1")],
            vec![(5, "c3")],
            vec![(1, "a1"), (25, "e5")],
            vec![(3, "b2"), (20, "e1")],
        ] {
            let req = request(board, &pairs);
            let ours = count(&req, None, &Budget::unlimited(), |t| {
                assert!(req.is_satisfied_by(t))
            });
            let plain =
                crate::solve::backtrack::enumerate(&req, None, &Budget::unlimited(), |_| true);
            assert!(ours.exhaustive && plain.exhaustive, "{pairs:?}");
            assert_eq!(ours.tours, plain.count, "{pairs:?}");
        }
    }
}
