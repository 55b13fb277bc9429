//! The joint search's position: the board, the pieces between constrained squares and how far
//! each has grown, the ways in and out of each free square, and taking and giving back a move
//! (everything the rules read, kept up to date move by move).

use std::sync::Arc;
use std::time::Instant;

use crate::board::Board;
use crate::solve::backtrack::{from_centre, knight_distance, neighbour_arrays, rank};
use crate::solve::Request;

use super::branch::Frame;
use super::cover::Cover;
use super::regions::Regions;
use super::{Deepest, Order, COVERAGE_MAX_PIECE, FAR, NONE, TABLE_MAX_SQUARES, TABLE_SATURATES};

/// What a joint search reads of its board and never changes: the knight's moves, the exact
/// knight distances ([`TABLE_MAX_SQUARES`] at most; none on larger boards), the tie-break
/// order and the colours. Built once and shared: the repair search starts hundreds of joint
/// searches on one board, and building these was most of each on large boards.
#[derive(Clone)]
pub(crate) struct Tables {
    pub(super) board: Board,
    pub(super) table: Arc<[u8]>,
    /// Up to eight neighbours of square `s` at `nbr[8 * s..]`, `nbr_len[s]` of them.
    pub(super) nbr: Arc<[u32]>,
    pub(super) nbr_len: Arc<[u8]>,
    /// Roth's order (farther from the centre first) for [`Order::Fixed`].
    pub(super) tie_key: Arc<[u32]>,
    /// Colour class of each square (0 for move 1's colour), when move 1 is not on the
    /// corners' colour and when it is.
    pub(super) class_of: [Arc<[u8]>; 2],
}

impl Tables {
    pub(crate) fn new(board: Board) -> Tables {
        let (nbr, nbr_len) = neighbour_arrays(board);
        let table = if board.len() <= TABLE_MAX_SQUARES {
            distance_table(&nbr, &nbr_len)
        } else {
            Vec::new()
        };
        let class = |first_colour: bool| -> Arc<[u8]> {
            board
                .squares()
                .map(|s| u8::from(s.is_corner_colour() != first_colour))
                .collect()
        };
        Tables {
            board,
            table: table.into(),
            nbr: nbr.into(),
            nbr_len: nbr_len.into(),
            tie_key: centre_keys(board).into(),
            class_of: [class(false), class(true)],
        }
    }
}

/// One piece of the tour: the moves strictly between two constrained moves `lo` and `hi` (`0`
/// for a free start, `n + 1` for a free end). The front has reached move `f` (from `lo`), the
/// back move `g` (from `hi`); the moves strictly between them are still open.
#[derive(Clone, Copy, Debug)]
pub(super) struct Gap {
    pub(super) lo: u32,
    pub(super) hi: u32,
    pub(super) f: u32,
    pub(super) g: u32,
}

impl Gap {
    /// Squares still to place.
    pub(super) fn open(&self) -> u32 {
        self.g - self.f - 1
    }
}

/// Free squares in a set with O(1) insertion and removal (squares with a given number of ways).
pub(super) struct SparseSet {
    pub(super) items: Vec<u32>,
    pub(super) pos: Vec<u32>,
}

impl SparseSet {
    pub(super) fn new(n: usize) -> SparseSet {
        SparseSet {
            items: Vec::new(),
            pos: vec![NONE; n],
        }
    }

    pub(super) fn insert(&mut self, v: u32) {
        if self.pos[v as usize] == NONE {
            self.pos[v as usize] = self.items.len() as u32;
            self.items.push(v);
        }
    }

    pub(super) fn remove(&mut self, v: u32) {
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

/// The whole state of one joint search.
pub(super) struct Joint {
    pub(super) board: Board,
    pub(super) n: u32,
    pub(super) nbr: Arc<[u32]>,
    pub(super) nbr_len: Arc<[u8]>,
    /// Exact distances (`u8`, 255 unreachable, saturating at 254: a lower bound), or empty.
    pub(super) table: Arc<[u8]>,
    /// Move number of each square, 0 if free.
    pub(super) time: Vec<u32>,
    /// The free squares (`time` 0), so that a pass over them costs what they number, not
    /// what the board does: the repair search's requests leave a tenth of the board free.
    pub(super) free: SparseSet,
    /// 0 for the colour of move 1, 1 for the other, by square ([`Joint::class`]).
    pub(super) class_of: Arc<[u8]>,
    /// Square of each move `0..=n + 1` (the two ends are sentinels, always [`NONE`]).
    pub(super) sq: Vec<u32>,
    /// Decision level of each placed move (0 for the constrained ones).
    pub(super) level: Vec<u32>,
    /// The piece each move belongs to (for moves strictly inside a piece).
    pub(super) gap_of: Vec<u32>,
    pub(super) gaps: Vec<Gap>,
    /// The piece before the first constrained move, if the start is free.
    pub(super) head: Option<usize>,
    /// The piece after the last constrained move, if the end is free.
    pub(super) tail: Option<usize>,
    /// Colour (`is_corner_colour`) of move 1.
    pub(super) first_colour: bool,
    /// Ways in or out of each free square: free neighbours and neighbouring piece ends.
    pub(super) conn: Vec<u8>,
    pub(super) zeros: SparseSet,
    pub(super) ones: SparseSet,
    /// Which piece takes each free square (the coverage rule), when it runs.
    pub(super) cover: Option<Cover>,
    /// The regions of the free squares, kept up to date take by take (`None` only while the
    /// search is being set up, or lent out).
    pub(super) regions: Option<Regions>,
    /// The piece of the last move placed.
    pub(super) last_gap: Option<usize>,
    /// Secondary order of squares for [`Order::Fixed`] (farther from the centre first).
    pub(super) tie_key: Arc<[u32]>,
    pub(super) order: Order,
    pub(super) frames: Vec<Frame>,
    /// The deepest position so far, when kept ([`solve_deepest`]).
    pub(super) deepest: Option<Deepest>,
    /// The run's deadline, for the steps within a node that can take long (the first
    /// matching of the coverage rule on a large board).
    pub(super) deadline: Option<Instant>,
    /// Squares placed by the current run.
    pub(super) nodes: u64,
}

impl Joint {
    /// The search for `req` (which [`supports`]); `None` when the constraints alone rule out
    /// every tour (contradictions, colours, distances; a square out of everyone's reach is
    /// found at the first node). The board's tables are `tables` when they are for this board.
    pub(super) fn new(req: &Request, tables: &Tables) -> Option<Joint> {
        let board = req.board;
        let anchors = anchors(req)?;
        let (time, sq) = place(&anchors, board.len())?;
        let first_colour = first_colour(board, &anchors)?;
        let own;
        let tables = if tables.board == board {
            tables
        } else {
            own = Tables::new(board);
            &own
        };
        let mut joint = Joint::unset(tables, time, sq, first_colour);
        joint.add_pieces(&anchors)?;
        joint.count_free_ways();
        joint.regions = Some(Regions::new(&graph!(joint)));
        // The squares are matched at the first node, within the time limit: on a large board
        // with many constraints the first matching takes seconds.
        let pieces = joint.gaps.len().max(1);
        if board.len() / pieces <= COVERAGE_MAX_PIECE {
            joint.cover = Some(Cover::new(&joint));
        }
        Some(joint)
    }

    /// The position with the constrained moves placed (`time`, `sq`), before its pieces and
    /// the free squares' ways are counted.
    fn unset(tables: &Tables, time: Vec<u32>, sq: Vec<u32>, first_colour: bool) -> Joint {
        let board = tables.board;
        let n = board.len();
        Joint {
            board,
            n: n as u32,
            nbr: Arc::clone(&tables.nbr),
            nbr_len: Arc::clone(&tables.nbr_len),
            table: Arc::clone(&tables.table),
            free: SparseSet::new(n),
            class_of: Arc::clone(&tables.class_of[usize::from(first_colour)]),
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
            tie_key: Arc::clone(&tables.tie_key),
            order: Order::Fixed,
            frames: Vec::new(),
            deepest: None,
            deadline: None,
            nodes: 0,
        }
    }

    /// The pieces between consecutive constrained moves (`anchors`, sorted); `None` when two
    /// of them are farther apart than their moves can go.
    fn add_pieces(&mut self, anchors: &[(u32, u32)]) -> Option<()> {
        let n = self.n;
        let mut bounds: Vec<u32> = vec![0];
        bounds.extend(anchors.iter().map(|&(t, _)| t));
        bounds.push(n + 1);
        for w in bounds.windows(2) {
            let (lo, hi) = (w[0], w[1]);
            let both_placed = lo >= 1 && hi <= n;
            let dist = || self.dist(self.sq[lo as usize], self.sq[hi as usize]);
            if hi - lo < 2 {
                if both_placed && dist() != 1 {
                    return None; // consecutive moves on squares a knight's move apart
                }
                continue;
            }
            if both_placed && dist() > hi - lo {
                return None;
            }
            let gi = self.gaps.len() as u32;
            for t in lo + 1..hi {
                self.gap_of[t as usize] = gi;
            }
            if lo == 0 {
                self.head = Some(gi as usize);
            }
            if hi == n + 1 {
                self.tail = Some(gi as usize);
            }
            self.gaps.push(Gap {
                lo,
                hi,
                f: lo,
                g: hi,
            });
        }
        Some(())
    }

    /// Every free square in [`Joint::free`], with its ways counted.
    fn count_free_ways(&mut self) {
        for s in 0..self.n {
            if self.time[s as usize] == 0 {
                self.free.insert(s);
                let c = self.count_ways(s);
                self.conn[s as usize] = c;
                self.note_ways(s, c);
            }
        }
    }

    /// Lower bound on the knight distance from `a` to `b` ([`FAR`] when unreachable). The
    /// distance is symmetric, and the table is read along `a`'s row: callers put the square
    /// that stays fixed over a loop (a piece's end) first, so that the loop reads one row.
    /// With the varying square first, every read falls in another row of a table of
    /// megabytes.
    #[inline]
    pub(super) fn dist(&self, a: u32, b: u32) -> u32 {
        if !self.table.is_empty() {
            let d = self.table[a as usize * self.n as usize + b as usize];
            return if d == u8::MAX { FAR } else { u32::from(d) };
        }
        let cols = self.board.cols();
        let (ra, ca, rb, cb) = (a / cols, a % cols, b / cols, b % cols);
        knight_distance(ra.abs_diff(rb), ca.abs_diff(cb))
    }

    #[inline]
    pub(super) fn neighbours(&self, s: u32) -> &[u32] {
        let b = 8 * s as usize;
        &self.nbr[b..b + self.nbr_len[s as usize] as usize]
    }

    #[inline]
    pub(super) fn is_free(&self, s: u32) -> bool {
        self.time[s as usize] == 0
    }

    /// Whether the placed move `t` still has a neighbouring move to be placed.
    #[inline]
    pub(super) fn is_end(&self, t: u32) -> bool {
        (t < self.n && self.sq[t as usize + 1] == NONE)
            || (t > 1 && self.sq[t as usize - 1] == NONE)
    }

    /// Ways in or out of the free square `s`, counted afresh.
    pub(super) fn count_ways(&self, s: u32) -> u8 {
        self.neighbours(s)
            .iter()
            .filter(|&&u| {
                let t = self.time[u as usize];
                t == 0 || self.is_end(t)
            })
            .count() as u8
    }

    /// File `s` under its number of ways (0 and 1 are watched).
    pub(super) fn note_ways(&mut self, s: u32, ways: u8) {
        match ways {
            0 => self.zeros.insert(s),
            1 => self.ones.insert(s),
            _ => {}
        }
    }

    pub(super) fn forget_ways(&mut self, s: u32, ways: u8) {
        match ways {
            0 => self.zeros.remove(s),
            1 => self.ones.remove(s),
            _ => {}
        }
    }

    /// Add `delta` to the ways of every free neighbour of `s`.
    pub(super) fn adjust_neighbours(&mut self, s: u32, delta: i8) {
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
    pub(super) fn assign(&mut self, t: u32, s: u32, level: u32) {
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
    pub(super) fn unassign(&mut self, t: u32) {
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
    pub(super) fn lv(&self, t: u32) -> u32 {
        if t >= 1 && t <= self.n && self.sq[t as usize] != NONE {
            self.level[t as usize]
        } else {
            0
        }
    }

    /// The levels that make the placed square `u` what it is to its neighbours: its own and
    /// its two neighbouring moves' (which decide whether it is still a piece's end).
    pub(super) fn square_reason(&self, u: u32, out: &mut Vec<u32>) {
        let t = self.time[u as usize];
        out.extend([self.lv(t - 1), self.lv(t), self.lv(t + 1)]);
    }

    /// The levels that took ways away from the free square `x`.
    pub(super) fn ways_reason(&self, x: u32, out: &mut Vec<u32>) {
        for &u in self.neighbours(x) {
            if !self.is_free(u) {
                self.square_reason(u, out);
            }
        }
    }

    /// The levels that decide which squares may still be the tour's first and last.
    pub(super) fn endpoint_reason(&self, out: &mut Vec<u32>) {
        if let Some(h) = self.head {
            out.push(self.lv(self.gaps[h].g));
        }
        if let Some(t) = self.tail {
            out.push(self.lv(self.gaps[t].f));
        }
    }

    /// Whether the free square `x` may still be move 1.
    pub(super) fn can_be_first(&self, x: u32) -> bool {
        let Some(h) = self.head else { return false };
        let g = self.gaps[h].g;
        g > 1
            && self.board.square_at(x).is_corner_colour() == self.first_colour
            && self.dist(self.sq[g as usize], x) < g
    }

    /// Whether the free square `x` may still be move n.
    pub(super) fn can_be_last(&self, x: u32) -> bool {
        let Some(tl) = self.tail else { return false };
        let f = self.gaps[tl].f;
        let last_colour = self.first_colour == (self.n % 2 == 1);
        f < self.n
            && self.board.square_at(x).is_corner_colour() == last_colour
            && self.dist(self.sq[f as usize], x) <= self.n - f
    }

    /// Colour counts of the moves strictly between `f` and `g`: (move 1's colour, the other).
    pub(super) fn colour_counts(&self, f: u32, g: u32) -> (u32, u32) {
        // Moves f+1 ..= g-1; odd moves have move 1's colour.
        let odd = |t: u32| t.div_ceil(2); // odd numbers in 1..=t
        let (a, b) = (f + 1, g - 1);
        if a > b {
            return (0, 0);
        }
        let odds = odd(b) - odd(a - 1);
        (odds, (b - a + 1) - odds)
    }

    /// Take back every decision: the position of the constrained squares alone.
    pub(super) fn reset(&mut self) {
        while let Some(frame) = self.frames.pop() {
            self.unassign(frame.t);
        }
        self.last_gap = None;
    }
}

/// Exact knight distances between every pair of squares, saturating at 254 (255: unreachable).
pub(super) fn distance_table(nbr: &[u32], nbr_len: &[u8]) -> Vec<u8> {
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
pub(super) fn centre_keys(board: Board) -> Vec<u32> {
    let far: Vec<i64> = board.squares().map(|sq| -from_centre(board, sq)).collect();
    rank(&far)
}

/// The constrained moves of `req` as (move, square), sorted and without repeats; `None` when
/// one is off the board or its move out of the tour.
fn anchors(req: &Request) -> Option<Vec<(u32, u32)>> {
    let board = req.board;
    let n = board.len();
    let mut anchors: Vec<(u32, u32)> = Vec::new();
    for c in req.all_constraints() {
        if c.move_number == 0 || c.move_number as usize > n || !board.contains(c.square) {
            return None;
        }
        anchors.push((c.move_number, board.index(c.square)));
    }
    // A repair's request lists its thousands of moves in order already.
    if !anchors.is_sorted() {
        anchors.sort_unstable();
    }
    anchors.dedup();
    Some(anchors)
}

/// The move number of each square and the square of each move `0..=n + 1`, for the
/// constrained moves; `None` with two squares for one move or two moves on one square.
fn place(anchors: &[(u32, u32)], n: usize) -> Option<(Vec<u32>, Vec<u32>)> {
    let mut time = vec![0u32; n];
    let mut sq = vec![NONE; n + 2];
    for &(t, s) in anchors {
        if sq[t as usize] != NONE || time[s as usize] != 0 {
            return None;
        }
        sq[t as usize] = s;
        time[s as usize] = t;
    }
    Some((time, sq))
}

/// Whether move 1 is on the corners' colour, or `None` when the constrained moves' colours
/// disagree, or the board is odd and move 1 is not on the corners' colour (odd moves take
/// move 1's colour, (n + 1) / 2 of them).
fn first_colour(board: Board, anchors: &[(u32, u32)]) -> Option<bool> {
    let colour = |s: u32| board.square_at(s).is_corner_colour();
    let &(t0, s0) = anchors.first()?;
    let first_colour = colour(s0) == (t0 % 2 == 1);
    let agree = anchors
        .iter()
        .all(|&(t, s)| colour(s) == (first_colour == (t % 2 == 1)));
    (agree && (board.len().is_multiple_of(2) || first_colour)).then_some(first_colour)
}
