//! The joint search's branching: at each node, the rules look at the position (dead, solved,
//! or the piece end with the fewest candidates to extend, fail first), and the search backs up
//! from a dead end to the latest decision it depends on.

use std::time::Instant;

use rand::Rng as _;

use crate::solve::METER_STEP;

use super::{Conflict, Joint, Limits, Order, Stop, DEADLINE_STEP, NONE};

/// One level of the search stack: the end being extended (move `t` of piece `gap`), its
/// candidate squares in the order tried, and the levels its failures so far depend on.
pub(super) struct Frame {
    pub(super) t: u32,
    pub(super) cands: [u32; 8],
    pub(super) len: u8,
    pub(super) next: u8,
    pub(super) conflict: Conflict,
}

/// What [`Joint::evaluate`] found at a node.
pub(super) enum Node {
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

impl Joint {
    /// The candidates for the next move of piece `gi` at its front (`front`) or back, in
    /// `out`; the count, and the levels that excluded the other neighbours.
    pub(super) fn candidates(
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
    pub(super) fn evaluate(&mut self) -> Node {
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
    pub(super) fn slack(&self, gi: usize) -> u32 {
        let gap = self.gaps[gi];
        if gap.f == 0 || gap.g > self.n {
            return gap.open();
        }
        (gap.g - gap.f).saturating_sub(self.dist(self.sq[gap.f as usize], self.sq[gap.g as usize]))
    }

    /// Warnsdorff's order: fewest ways on first; ties by the order's key.
    pub(super) fn sort_candidates(&mut self, cands: &mut [u32]) {
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
    pub(super) fn run(&mut self, limits: Limits, found: &mut dyn FnMut(&[u32]) -> bool) -> Stop {
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
    pub(super) fn note_depth(&mut self) {
        let depth = self.frames.len() as u32;
        if let Some(d) = self.deepest.as_mut().filter(|d| depth >= d.depth) {
            d.depth = depth;
            d.sq.clear();
            d.sq.extend_from_slice(&self.sq[1..=self.n as usize]);
        }
    }

    /// Count a node; `Some` when the limits are reached.
    pub(super) fn count_node(&mut self, limits: &Limits) -> Option<Stop> {
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
}
