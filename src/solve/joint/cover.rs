//! The coverage rule of the joint search: every free square matched to a piece that can still
//! reach it in time, no piece taking more squares of a colour than it has moves of that colour
//! (Hall's condition, kept by augmenting paths).

use std::time::Instant;

use super::position::Gap;
use super::{Conflict, Joint, MATCHING_DEADLINE_STEP, NONE, TABLE_SATURATES};

impl Joint {
    /// Whether piece `gi` can still take the free square `v`, with its slack (moves to spare).
    pub(super) fn cover_slack(&self, gi: usize, v: u32) -> Option<u32> {
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
    pub(super) fn capacity(&self, gi: usize, c: usize) -> u32 {
        let gap = self.gaps[gi];
        let (odd, even) = self.colour_counts(gap.f, gap.g);
        [odd, even][c]
    }

    /// Colour class of square `s`: 0 for move 1's colour (odd moves), 1 for the other.
    pub(super) fn class(&self, s: u32) -> usize {
        usize::from(self.class_of[s as usize])
    }

    /// The coverage rule: after piece `gi` grew (if any) and squares were freed, every free
    /// square is matched to a piece that can still take it in time, each piece taking no
    /// more squares of a colour than it has moves of that colour (Hall's condition, kept by
    /// augmenting paths). `Ok(false)` when the deadline passed first (the squares not
    /// matched yet are still pending).
    pub(super) fn rematch(&mut self) -> Result<bool, Conflict> {
        let Some(mut cover) = self.cover.take() else {
            return Ok(true);
        };
        let result = self.rematch_with(&mut cover);
        self.cover = Some(cover);
        result
    }

    pub(super) fn rematch_with(&self, cover: &mut Cover) -> Result<bool, Conflict> {
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
    pub(super) fn stuck_pieces_levels(&self, cover: &Cover) -> Vec<u32> {
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
    pub(super) fn augment(&self, cover: &mut Cover, v: u32) -> bool {
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
    pub(super) fn each_cover_pair(&self, mut pair: impl FnMut(u32, u32)) {
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
    /// and builds these lists each time.
    pub(super) fn near_piece(&self, gap: &Gap) -> ((u32, u32), (u32, u32)) {
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
    pub(super) fn could_ever_cover(&self, gap: &Gap, v: u32) -> bool {
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
}

/// The coverage rule's state: which piece takes each free square ([`Joint::rematch`]).
pub(super) struct Cover {
    /// The pieces that could take square `v` with nothing placed, as words of a bit set over
    /// the pieces (piece `64 * block + i` is bit `i`), the words with a bit set only:
    /// `blocks[start[v]..start[v + 1]]`, blocks in order: an augmenting path search meets each
    /// piece in dozens of squares' lists, mostly one already searched, and a word skips 64.
    pub(super) start: Vec<u32>,
    pub(super) blocks: Vec<(u32, u64)>,
    /// The piece each free square is matched to, [`NONE`] if none.
    pub(super) owner: Vec<u32>,
    /// Where each matched square is in its piece's list.
    pub(super) pos: Vec<u32>,
    /// Squares matched to each piece, by colour class.
    pub(super) members: Vec<[Vec<u32>; 2]>,
    /// Free squares that may be unmatched.
    pub(super) pending: Vec<u32>,
    pub(super) seen: Vec<u32>,
    /// Bit set of the pieces whose squares an augmenting path search has queued.
    pub(super) expanded: Vec<u64>,
    /// Bit set of the pieces in the lists of the squares it searched: the explanation when
    /// no path exists.
    pub(super) listed: Vec<u64>,
    pub(super) from: Vec<u32>,
    pub(super) queue: Vec<u32>,
    /// The full pieces that could take the square an augmenting path is at.
    pub(super) full: Vec<u32>,
    pub(super) stamp: u32,
}

impl Cover {
    /// Nothing matched yet; every free square pending.
    pub(super) fn new(joint: &Joint) -> Cover {
        let n = joint.n as usize;
        // Each piece's squares are looked for only near its ends: a piece of m moves reaches
        // no square more than 2m rows or columns from either end (trying every piece on every
        // square is quadratic). Two passes (count, then fill) keep the memory to the
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

    pub(super) fn next_stamp(&mut self) -> u32 {
        if self.stamp == u32::MAX {
            self.seen.fill(0);
            self.stamp = 0;
        }
        self.stamp += 1;
        self.stamp
    }

    pub(super) fn matched(&mut self, x: u32, gi: u32, c: usize) {
        let list = &mut self.members[gi as usize][c];
        self.pos[x as usize] = list.len() as u32;
        list.push(x);
        self.owner[x as usize] = gi;
    }

    pub(super) fn unmatch(&mut self, x: u32, c: usize) {
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
    pub(super) fn taken(&mut self, s: u32) {
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
pub(super) fn axis_range(
    len: u32,
    moves: u32,
    ends: impl Iterator<Item = u32> + Clone,
) -> (u32, u32) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::solve::joint::Tables;
    use crate::solve::{Constraint, Request};

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
            let joint = Joint::new(&req, &Tables::new(board)).unwrap();
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
}
