//! Linear-time tour construction for big boards, in the spirit of Parberry (1997).
//!
//! The board is cut into blocks of 5..=12 squares a side (mostly 8 x 8); each block gets a
//! hard-coded base tour (the tiles were searched once and are re-checked by the tests), copied
//! into a successor array with an offset, and neighbouring blocks' tours are joined by swapping
//! two edges per join. The work is a streaming write of 4 bytes a square.
//!
//! Coverage:
//! - every board with both sides at least 5 and at least one side even: a **closed** tour
//!   (these are exactly Schwenk's closed-tour boards with both sides at least 5);
//! - every board with both sides odd and at least 5: an **open** tour, whose ends lie in the
//!   bottom-right block (both on the corners' colour, as they must be), or one starting on any
//!   given corner-coloured square ([`successors_starting_at`]);
//! - the 1 x 1 board (a single move);
//! - 3 x n boards with n even and at least 10: a **closed** tour (two-lane strips, `lanes`);
//! - other boards 3 or 4 squares wide: an **open** tour for 3 x 4, 3 x n with n >= 7 and
//!   4 x n with n >= 5, by chaining strip paths (`thin`, `lanes`), or one starting on any given
//!   square that starts a tour ([`successors_starting_at`], `narrow`: a small window around
//!   the start searched, the rest laid out in lanes);
//!
//! so every board that has a closed tour gets one, and every board that has only open tours gets
//! an open one (Schwenk 1991; Cull & De Curtins 1978; Conrad et al. 1994).
//!
//! ```
//! use knights_tour::board::Board;
//! use knights_tour::solve::construct;
//! let tour = construct::closed_tour(Board::new(30, 41).unwrap()).unwrap();
//! assert!(tour.is_closed());
//! let open = construct::open_tour(Board::new(25, 25).unwrap()).unwrap();
//! assert!(open.is_complete() && open.check().is_ok());
//! ```

mod chain;
mod fill;
mod lane_strips;
mod lanes;
mod narrow;
mod thin;
mod tile_search;
mod tiles;

use crate::board::{Board, Square};
use crate::solve::search::{Answer, Declined, Search};
use crate::solve::{Budget, Method, Request, Rng};
use crate::tour::Tour;

/// The successor of an open tour's last square.
pub const END: u32 = u32::MAX;

/// A base tour of a small block, as local square indices (`row * cols + col`) in move order:
/// closed when the block has an even side, a Hamiltonian path when both sides are odd.
pub(crate) struct Tile {
    rows: u8,
    cols: u8,
    order: &'static [u8],
}

/// A tour held as successors: `next[square] = following square`, the compact form the
/// construction produces (4 bytes a square) and the one huge boards should stay in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Successors {
    /// The board.
    pub board: Board,
    /// The square of move 1 (any square of a closed tour would do; this one was chosen).
    pub start: u32,
    /// `next[i]` is the square after `i`; [`END`] after an open tour's last square.
    pub next: Vec<u32>,
    /// Whether the tour is closed (then `next` is one cycle through every square).
    pub closed: bool,
}

impl Successors {
    /// The squares in move order from [`Successors::start`] (a second array of 4 bytes a
    /// square).
    pub fn to_tour(&self) -> Tour {
        let n = self.next.len();
        let mut order = Vec::with_capacity(n);
        let mut cur = self.start;
        for _ in 0..n {
            order.push(cur);
            cur = self.next[cur as usize];
        }
        Tour::from_indices_unchecked(self.board, order)
    }

    /// Move numbers by square index (from 1), written over the successor array itself so a
    /// huge board never holds two arrays.
    pub fn into_numbering(self) -> Vec<u32> {
        let mut next = self.next;
        let mut cur = self.start as usize;
        let n = next.len() as u32;
        for k in 1..=n {
            let following = next[cur];
            next[cur] = k;
            if k < n {
                cur = following as usize;
            }
        }
        next
    }
}

/// Whether the construction gives a tour of `board` (a closed one when `closed`). It covers
/// exactly the boards that have one (Schwenk 1991 for closed tours; Cull & De Curtins 1978 and
/// Conrad et al. 1994 for open ones), so this is also the existence test.
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::solve::construct::constructible;
/// assert!(constructible(Board::new(6, 7).unwrap(), true));
/// assert!(!constructible(Board::new(7, 7).unwrap(), true));
/// assert!(constructible(Board::new(7, 7).unwrap(), false));
/// assert!(constructible(Board::new(4, 9).unwrap(), false));
/// assert!(!constructible(Board::new(4, 4).unwrap(), false));
/// ```
pub fn constructible(board: Board, closed: bool) -> bool {
    let (r, c) = (board.rows(), board.cols());
    let (short, long) = (r.min(c), r.max(c));
    if short == 3 && long >= 10 && long.is_multiple_of(2) {
        return true;
    }
    if short < 5 {
        let open = match short {
            1 => long == 1,
            3 => long == 4 || long >= 7,
            4 => long >= 5,
            _ => false,
        };
        return !closed && open;
    }
    !closed || r.is_multiple_of(2) || c.is_multiple_of(2)
}

/// A tour of `board` as successors: closed where the construction can make one, else open
/// (odd x odd boards, 3 x n, 4 x n, 1 x 1); `None` on boards without tours.
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::solve::construct;
/// let s = construct::successors(Board::new(9, 11).unwrap()).unwrap();
/// assert!(!s.closed);
/// assert!(s.to_tour().check().is_ok());
/// ```
pub fn successors(board: Board) -> Option<Successors> {
    let (rows, cols) = (board.rows(), board.cols());
    if rows == 1 && cols == 1 {
        return Some(Successors {
            board,
            start: 0,
            next: vec![END],
            closed: false,
        });
    }
    if !constructible(board, false) {
        return None;
    }
    if rows < 5 || cols < 5 {
        let (start, next, closed) = short_side(rows, cols)?;
        return Some(Successors {
            board,
            start,
            next,
            closed,
        });
    }
    let (start, next) = fill::build(rows, cols, &fill::Layout::standard(rows, cols)?)?;
    Some(Successors {
        board,
        start,
        next,
        closed: rows.is_multiple_of(2) || cols.is_multiple_of(2),
    })
}

/// A tour of a board 3 or 4 squares on its short side, built along its long side: its first
/// square, successors, and whether it is closed (3 x n, n even and at least 10).
fn short_side(rows: u32, cols: u32) -> Option<(u32, Vec<u32>, bool)> {
    let along = |short: u32, long: u32| match short {
        3 if long >= 10 && long.is_multiple_of(2) => lanes::three_closed(long).map(|n| (0, n)),
        4 => lanes::four_open(long),
        _ => thin::open(short, long),
    };
    let closed = rows.min(cols) == 3 && rows.max(cols) >= 10 && (rows * cols).is_multiple_of(2);
    if rows <= cols {
        let (start, next) = along(rows, cols)?;
        return Some((start, next, closed));
    }
    let (start, next_t) = along(cols, rows)?;
    let (start, next) = turned(rows, cols, start, &next_t);
    Some((start, next, closed))
}

/// Successors built on the board turned a quarter (`cols x rows`), mapped back to the
/// `rows x cols` board: square `(r, c)` there is `(c, r)` here.
fn turned(rows: u32, cols: u32, start: u32, next_t: &[u32]) -> (u32, Vec<u32>) {
    let here = |t: u32| (t % rows) * cols + t / rows;
    let mut next = vec![END; next_t.len()];
    for (t, &nt) in next_t.iter().enumerate() {
        if nt != END {
            next[here(t as u32) as usize] = here(nt);
        }
    }
    (here(start), next)
}

/// Whether `board` is 3 or 4 squares on its short side and has open tours only.
fn narrow(board: Board) -> bool {
    matches!(board.rows().min(board.cols()), 3 | 4) && !constructible(board, true)
}

/// An open tour of a board 3 or 4 squares on its short side starting on `start` (`narrow`).
fn narrow_from(board: Board, start: Square) -> Option<Successors> {
    let (rows, cols) = (board.rows(), board.cols());
    let (first, next) = if rows <= cols {
        narrow::open_from(rows, cols, start.row, start.col)?
    } else {
        let (first, next_t) = narrow::open_from(cols, rows, start.col, start.row)?;
        turned(rows, cols, first, &next_t)
    };
    Some(Successors {
        board,
        start: first,
        next,
        closed: false,
    })
}

/// Like [`successors`], but the tour starts on `start`: a closed tour is simply started there;
/// on an odd x odd board the cut into blocks is chosen so that the odd block holds `start`, and
/// that block's path is searched (a small, seeded, deterministic search) to begin on it; a
/// board 3 or 4 squares wide without closed tours gets a tour built around `start` (linear
/// time and memory, `narrow`). `None` if `start` is off the corners' colour of an odd board or
/// on the inner ranks of a 4 x n board (no tour starts there), on the few other squares of
/// 3 x 4, 3 x 7 and 3 x 8 that start none, or where [`successors`] gives none.
///
/// ```
/// use knights_tour::board::{Board, Square};
/// use knights_tour::solve::construct;
/// let board = Board::new(4, 1001).unwrap();
/// let s = construct::successors_starting_at(board, Square::new(3, 500)).unwrap();
/// let tour = s.to_tour();
/// assert_eq!(tour.start(), Some(Square::new(3, 500)));
/// assert!(tour.is_complete() && tour.check().is_ok());
/// assert!(construct::successors_starting_at(board, Square::new(1, 500)).is_none());
/// ```
///
/// ```
/// use knights_tour::board::{Board, Square};
/// use knights_tour::solve::construct;
/// let board = Board::new(21, 23).unwrap();
/// let s = construct::successors_starting_at(board, Square::new(10, 4)).unwrap();
/// let tour = s.to_tour();
/// assert_eq!(tour.start(), Some(Square::new(10, 4)));
/// assert!(tour.is_complete() && tour.check().is_ok());
/// assert!(construct::successors_starting_at(board, Square::new(10, 5)).is_none());
/// ```
pub fn successors_starting_at(board: Board, start: Square) -> Option<Successors> {
    if !board.contains(start) {
        return None;
    }
    let (rows, cols) = (board.rows(), board.cols());
    if narrow(board) {
        // Open tours only: built around the start.
        return narrow_from(board, start);
    }
    if rows.is_multiple_of(2) || cols.is_multiple_of(2) || rows < 5 || cols < 5 {
        let mut s = successors(board)?;
        if s.closed {
            s.start = board.index(start);
            return Some(s);
        }
        return (s.start == board.index(start)).then_some(s);
    }
    if !start.is_corner_colour() {
        return None;
    }
    let layout = fill::Layout::starting_at(rows, cols, (start.row, start.col))?;
    let (first, next) = fill::build(rows, cols, &layout)?;
    Some(Successors {
        board,
        start: first,
        next,
        closed: false,
    })
}

/// A closed tour as a successor array (`succ[square] = next square`); `None` exactly when the
/// board has no closed tour (Schwenk: both sides odd, a side of 1, 2 or 4, or 3 x 4/6/8).
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::solve::construct;
/// let succ = construct::closed_successors(Board::new(8, 8).unwrap()).unwrap();
/// assert_eq!(succ.len(), 64);
/// assert!(construct::closed_successors(Board::new(5, 5).unwrap()).is_none());
/// ```
pub fn closed_successors(board: Board) -> Option<Vec<u32>> {
    if !constructible(board, true) {
        return None;
    }
    successors(board).filter(|s| s.closed).map(|s| s.next)
}

/// A closed tour of `board` starting on square 0 (the top-left corner), or `None` as for
/// [`closed_successors`].
pub fn closed_tour(board: Board) -> Option<Tour> {
    if !constructible(board, true) {
        return None;
    }
    Some(successors(board)?.to_tour())
}

/// A closed tour where there is one, else an open tour (odd x odd boards, 3 x n, 4 x n, 1 x 1);
/// `None` where there is no tour at all.
pub fn open_tour(board: Board) -> Option<Tour> {
    Some(successors(board)?.to_tour())
}

/// The constructed tour meeting `req` as successors (start and direction set), or `None` where
/// the construction cannot meet it: a closed tour is started at `req.start` (or just after
/// `req.end`) in either direction; an odd x odd board's open tour is built to start on
/// `req.start` (or on `req.end`, then walked backwards). Other constraints are checked, never
/// searched for. [`Successors::into_numbering`] numbers the tour in place (about 4 bytes a
/// square, for boards too big for two arrays). With no fixed square and a generator, the start is drawn
/// at random among the squares that start a tour (a closed tour is turned to start there, in a
/// random direction), so a random start is random here too; without a generator the tour starts
/// where the construction starts it.
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::solve::{construct, rng_from_seed, Request};
/// let req = Request::open(Board::new(300, 300).unwrap());
/// let a = construct::build(&req, Some(&mut rng_from_seed(1))).unwrap();
/// let b = construct::build(&req, Some(&mut rng_from_seed(2))).unwrap();
/// assert_ne!(a.start, b.start);
/// assert!(req.is_satisfied_by(&a.to_tour()));
/// ```
pub fn build(req: &Request, rng: Option<&mut Rng>) -> Option<Successors> {
    let board = req.board;
    if !constructible(board, req.closed) {
        return None;
    }
    let built = match (req.start, req.end) {
        (None, None) => match rng {
            Some(rng) => random_start(board, rng),
            None => successors(board),
        },
        (Some(s), Some(e)) => between(board, s, e),
        (Some(s), None) => successors_starting_at(board, s),
        (None, Some(e)) => successors_starting_at(board, e),
    };
    if let Some(fitted) = built.and_then(|t| fit(req, t)) {
        return Some(fitted);
    }
    // The standard tour may still happen to fit either way round (3 x n and 4 x n boards, or
    // both ends fixed on an odd board).
    fit(req, successors(board)?)
}

/// Why the construction does not take `request`, or `None` when it does: it places no "move
/// k on X" constraints (its start and end it does place).
pub fn declines(request: &Request) -> Option<Declined> {
    if !request.constraints.is_empty() {
        Some(Declined::Constraints)
    } else if !constructible(request.board, request.closed) {
        Some(Declined::NotConstructible)
    } else {
        None
    }
}

/// The construction as a [`Search`]: each step builds one tour ([`build`], from a random
/// start where nothing fixes it). A request fixing a square gets one tour; a free start gets
/// a few draws, after which the construction is spent (it may only repeat itself), as it is
/// when it cannot meet the ends asked for.
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::solve::construct::Construction;
/// use knights_tour::solve::search::{Answer, Search};
/// use knights_tour::solve::{rng_from_seed, Budget, Request};
/// let req = Request::open(Board::new(300, 300).unwrap());
/// let (answer, _) = Construction::new(&req).step(&Budget::unlimited(), &mut rng_from_seed(1));
/// assert!(matches!(answer, Answer::Found { tour, .. } if req.is_satisfied_by(&tour)));
/// ```
pub struct Construction<'a> {
    request: &'a Request,
    draws: u32,
}

/// Tours drawn from random starts before the construction counts as spent.
const FREE_START_DRAWS: u32 = 4;

impl<'a> Construction<'a> {
    /// The construction for `request`, which it takes ([`declines`] is `None`).
    pub fn new(request: &'a Request) -> Construction<'a> {
        let free = request.start.is_none() && request.end.is_none();
        Construction {
            request,
            draws: if free { FREE_START_DRAWS } else { 1 },
        }
    }
}

impl Search for Construction<'_> {
    fn method(&self) -> Method {
        Method::Construct
    }

    fn exhaustive(&self) -> bool {
        false
    }

    fn step(&mut self, _budget: &Budget, rng: &mut Rng) -> (Answer, u64) {
        if self.draws == 0 {
            return (Answer::Spent, 0);
        }
        self.draws -= 1;
        match build(self.request, Some(rng)) {
            Some(built) => {
                let tour = built.to_tour();
                (
                    Answer::Found {
                        tour,
                        by: Method::Construct,
                    },
                    0,
                )
            }
            None => {
                self.draws = 0;
                (Answer::Spent, 0)
            }
        }
    }
}

/// A tour from `start` to `end` (different squares): on boards at least 5 a side, a chain of
/// blocks carrying the path from one to the other (`chain`, linear time); elsewhere a tour
/// built to start on `start` that happens to end on `end`.
fn between(board: Board, start: Square, end: Square) -> Option<Successors> {
    let (rows, cols) = (board.rows(), board.cols());
    if rows >= 5 && cols >= 5 {
        let (s, e) = (board.index(start), board.index(end));
        let (from, to) = ((start.row, start.col), (end.row, end.col));
        // The chain runs along the first square's block-row: built the other way round (from
        // the end, then reversed) it takes another route, which helps where the first fails.
        let built = chain::between(rows, cols, from, to)
            .map(|next| (s, next))
            .or_else(|| chain::between(rows, cols, to, from).map(|next| (e, next)));
        if let Some((first, next)) = built {
            let mut tour = Successors {
                board,
                start: first,
                next,
                closed: false,
            };
            if first == e {
                tour.reverse();
            }
            if start.is_knight_move(end) {
                // A path ending a knight's move from its start closes into a tour.
                tour.next[e as usize] = s;
                tour.closed = true;
            }
            return Some(tour);
        }
    }
    if board.len() <= SMALL_BOARD {
        // One block or a few: its own exhaustive search, bounded, is the construction.
        let req = Request {
            start: Some(start),
            end: Some(end),
            ..Request::open(board)
        };
        let budget = Budget::nodes(SMALL_BOARD_NODES);
        if let Answer::Found { tour, .. } = crate::solve::backtrack::search(&req, &budget, None).0 {
            return Some(successors_of(&tour));
        }
    }
    successors_starting_at(board, start)
}

/// Boards up to this many squares fall back on a bounded exhaustive search for fixed ends
/// when the chain of blocks (searched greedily block by block) finds none.
const SMALL_BOARD: usize = 256;

/// Nodes that search may use: a few milliseconds.
const SMALL_BOARD_NODES: u64 = 2_000_000;

/// A tour as successors.
fn successors_of(tour: &Tour) -> Successors {
    let idx = tour.indices();
    let mut next = vec![END; idx.len()];
    for pair in idx.windows(2) {
        next[pair[0] as usize] = pair[1];
    }
    let closed = tour.is_closed();
    if closed {
        if let (Some(&last), Some(&first)) = (idx.last(), idx.first()) {
            next[last as usize] = first;
        }
    }
    Successors {
        board: tour.board(),
        start: idx.first().copied().unwrap_or(0),
        next,
        closed,
    }
}

/// A tour starting on a square drawn with `rng` among those that start one.
fn random_start(board: Board, rng: &mut Rng) -> Option<Successors> {
    use rand::Rng as _;
    if constructible(board, true) {
        let mut s = successors(board)?;
        s.start = rng.random_range(0..board.len() as u32);
        if rng.random_bool(0.5) {
            s.reverse();
        }
        return Some(s);
    }
    let admissible = |sq: Square| crate::solve::existence::open_tour_from(board, sq).is_ok();
    // Admissible squares are at least a third of any board with a tour.
    for _ in 0..64 {
        let sq = board.square_at(rng.random_range(0..board.len() as u32));
        if admissible(sq) {
            if let Some(s) = successors_starting_at(board, sq) {
                return Some(s);
            }
        }
    }
    successors(board)
}

/// `tour` started and directed to meet `req` (its fixed start or end; a closed tour may start
/// anywhere and run either way), if some way of walking it does; every constraint checked.
fn fit(req: &Request, mut tour: Successors) -> Option<Successors> {
    let board = req.board;
    if req.closed && !tour.closed {
        return None;
    }
    let start = req.start.map(|s| board.index(s));
    let end = req.end.map(|e| board.index(e));
    for direction in 0..2 {
        if direction == 1 {
            tour.reverse();
        }
        if tour.closed {
            match (start, end) {
                (Some(s), _) => tour.start = s,
                (None, Some(e)) => tour.start = tour.next[e as usize],
                (None, None) => {}
            }
        }
        if tour.meets(req) {
            return Some(tour);
        }
    }
    None
}

impl Successors {
    /// The same tour walked the other way, in place: a closed tour keeps its start, an open
    /// one starts on its old last square.
    pub fn reverse(&mut self) {
        let n = self.next.len();
        let mut prev = END;
        let mut cur = self.start;
        for _ in 0..n {
            let following = self.next[cur as usize];
            self.next[cur as usize] = prev;
            prev = cur;
            cur = following;
        }
        if self.closed {
            self.next[self.start as usize] = prev;
        } else {
            self.start = prev;
        }
    }

    /// Whether the walk from [`Successors::start`] meets every fixed square of `req` (one pass,
    /// no allocation beyond the request's constraints).
    pub fn meets(&self, req: &Request) -> bool {
        let fixed = req.all_constraints();
        if fixed.is_empty() {
            return !req.closed || self.closed;
        }
        let board = req.board;
        let mut wanted: Vec<(u32, u32)> = fixed
            .iter()
            .map(|c| (c.move_number, board.index(c.square)))
            .collect();
        wanted.sort_unstable();
        let mut cur = self.start;
        let mut k = 1u32;
        for &(move_number, square) in &wanted {
            while k < move_number {
                cur = self.next[cur as usize];
                if cur == END {
                    return false;
                }
                k += 1;
            }
            if cur != square {
                return false;
            }
        }
        !req.closed || self.closed
    }
}

#[cfg(test)]
mod tests {
    use super::tiles::TILES;
    use super::*;
    use crate::board::Square;

    fn local(t: &Tile, r: u32, c: u32) -> u8 {
        (r * u32::from(t.cols) + c) as u8
    }

    fn has_edge(t: &Tile, a: u8, b: u8) -> bool {
        let o = t.order;
        let n = o.len();
        let closed = n.is_multiple_of(2);
        (0..n).any(|i| {
            let j = i + 1;
            let next = if j < n {
                Some(o[j])
            } else if closed {
                Some(o[0])
            } else {
                None
            };
            next.is_some_and(|x| (o[i], x) == (a, b) || (o[i], x) == (b, a))
        })
    }

    #[test]
    fn every_tile_is_a_valid_tour_with_its_join_edges() {
        let mut seen = std::collections::HashSet::new();
        for t in TILES {
            let (h, w) = (u32::from(t.rows), u32::from(t.cols));
            assert!(seen.insert((h, w)), "duplicate tile {h}x{w}");
            let board = Board::new(h, w).unwrap();
            let tour = Tour::from_indices(board, t.order.iter().map(|&x| u32::from(x)).collect())
                .unwrap_or_else(|e| panic!("tile {h}x{w}: {e}"));
            assert!(tour.is_complete(), "tile {h}x{w} incomplete");
            let closed = (h * w).is_multiple_of(2);
            assert_eq!(tour.is_closed(), closed, "tile {h}x{w} closedness");
            if closed {
                assert!(
                    has_edge(t, local(t, 1, w - 2), local(t, 3, w - 1)),
                    "{h}x{w}"
                );
                assert!(has_edge(t, local(t, 1, 1), local(t, 0, 3)), "{h}x{w}");
                assert!(has_edge(t, local(t, 0, 0), local(t, 2, 1)), "{h}x{w}");
                assert!(
                    has_edge(t, local(t, h - 1, 0), local(t, h - 2, 2)),
                    "{h}x{w}"
                );
            } else {
                assert!(has_edge(t, local(t, 0, 0), local(t, 2, 1)), "{h}x{w}");
                assert!(has_edge(t, local(t, 1, 1), local(t, 0, 3)), "{h}x{w}");
            }
        }
        for h in 5..=12 {
            for w in 5..=12 {
                assert!(seen.contains(&(h, w)), "missing tile {h}x{w}");
            }
        }
    }

    #[test]
    fn block_sides_cover_every_length_from_5() {
        for len in 5..200 {
            let p = fill::parts(len).unwrap();
            assert_eq!(p.iter().sum::<u32>(), len);
            assert!(p.iter().all(|&x| (5..=12).contains(&x)));
            assert!(p.iter().filter(|&&x| x % 2 == 1).count() <= 1);
            assert!(p[..p.len() - 1].iter().all(|&x| x.is_multiple_of(2)));
        }
        assert!(fill::parts(4).is_none());
    }

    #[test]
    fn numbering_honours_start_and_end_both_ways() {
        let board = Board::new(6, 9).unwrap();
        let succ = closed_successors(board).unwrap();
        let s = Square::new(2, 5);
        let after = board.square_at(succ[board.index(s) as usize]);
        // Ending on the square after `start` means walking the cycle backwards.
        let req = Request {
            board,
            start: Some(s),
            end: Some(after),
            closed: true,
            constraints: Vec::new(),
        };
        let solve = |req: &Request| build(req, None).map(|s| s.to_tour());
        let tour = solve(&req).unwrap();
        assert!(req.is_satisfied_by(&tour));
        let req_end_only = Request {
            start: None,
            ..req.clone()
        };
        assert!(req_end_only.is_satisfied_by(&solve(&req_end_only).unwrap()));
        let bad = Request {
            end: Some(Square::new(2, 4)),
            ..req
        };
        assert!(solve(&bad).is_none());
    }
}
