//! The depth-first search itself: an explicit stack of candidate lists, incremental onward
//! degrees, and the pruning rules that let it skip hopeless subtrees.
//!
//! Invariants while a path `p_1 .. p_d` is on the stack (`U` = unvisited squares, `m = |U|`):
//! `deg[s]` is the number of unvisited neighbours of `s`; `ones[e]` counts unvisited squares
//! with `deg == 1` that are (`e = 1`) or are not (`e = 0`) allowed to be the last square;
//! `zeros` counts unvisited squares with `deg == 0`; `endset_left` counts unvisited squares
//! allowed to be last. The remaining path enters `U` from `p_d` and must leave every square of
//! `U` except the last one, which gives the rules in [`Engine::expand`].

use std::time::Instant;

use rand::Rng as _;

use super::plan::{Plan, NONE};
use crate::solve::{Meter, Rng, METER_STEP};

/// Why [`Engine::run`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stop {
    /// Every extension of the fixed prefix was examined.
    Exhausted,
    /// The visitor asked to stop.
    Visitor,
    /// The node limit or the deadline was reached.
    Budget,
}

/// Node and time limits for one run.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    /// Stop once this many nodes (squares placed) have been counted in total.
    pub max_nodes: u64,
    /// Stop at this instant (checked every 4096 nodes).
    pub deadline: Option<Instant>,
    /// Where to add the nodes as they are spent ([`crate::solve::Budget::meter`]).
    pub meter: Option<Meter>,
}

/// Connectivity of the unvisited squares is checked only while at least this many remain (a
/// split near the end is found by the degree rules almost as fast).
const CONNECTIVITY_MIN_LEFT: usize = 8;

// Connectivity: a full breadth-first check at every node saves few nodes and makes the search
// quadratic (`docs/solver.md`). The check below is local (bounded work near the square just left, exact when it decides),
// with a full check only when two large regions meet there. It is kept as insurance against a
// region cut off early on a large board, which the degree rules would only find after
// exploring it exhaustively.

/// Nodes between looks at the clock. A node costs up to a full connectivity check, a pass over
/// the board, so on large boards thousands of nodes overrun a time limit.
const DEADLINE_STEP: u64 = 256;

/// Squares a local connectivity search may visit before giving up undecided.
const LOCAL_SEARCH_LIMIT: usize = 64;

/// The mutable state of one search over a [`Plan`].
pub(super) struct Engine<'p, 'r> {
    plan: &'p Plan,
    free: Vec<bool>,
    deg: Vec<u8>,
    path: Vec<u32>,
    /// Candidates for the move after depth `d` live in `cands[8 * d ..]`.
    cands: Vec<u32>,
    cand_len: Vec<u8>,
    cand_next: Vec<u8>,
    ones: [u32; 2],
    zeros: u32,
    endset_left: u32,
    mark: Vec<u32>,
    stamp: u32,
    queue: Vec<u32>,
    /// Squares placed so far (the start and a fixed prefix are not counted).
    pub nodes: u64,
    rng: Option<&'r mut Rng>,
    /// Path length at which [`Engine::run`] reports a path: the whole board, or the end of one
    /// piece when a tour is grown piece by piece ([`Engine::set_goal`]).
    goal: usize,
    /// Knight distances to the goal's square through the squares that were free when the
    /// piece began (a lower bound on the distance now), while `homing`.
    home: Vec<u32>,
    /// Squares given a distance in `home` (reset to [`NONE`] for the next goal).
    home_touched: Vec<u32>,
    /// Whether `home` holds distances for the current goal.
    homing: bool,
    /// Move number of the constrained square nearest each square (by knight distance), empty
    /// until [`Engine::set_owners`].
    owner: Vec<u32>,
    /// Moves to spare on the way to the goal's square below which the knight heads for it
    /// rather than following Warnsdorff's rule ([`Engine::set_goal`]).
    homing_slack: u32,
}

impl<'p, 'r> Engine<'p, 'r> {
    /// A search with move 1 placed on the plan's start; `rng` breaks ties at random.
    pub fn new(plan: &'p Plan, rng: Option<&'r mut Rng>) -> Self {
        let n = plan.n;
        let mut e = Engine {
            plan,
            free: vec![true; n],
            deg: plan.nbr_len.clone(),
            path: Vec::with_capacity(n),
            cands: vec![NONE; 8 * (n + 1)],
            cand_len: vec![0; n + 1],
            cand_next: vec![0; n + 1],
            ones: [0; 2],
            zeros: 0,
            endset_left: 0,
            mark: vec![0; n],
            stamp: 0,
            queue: Vec::with_capacity(n),
            nodes: 0,
            rng,
            goal: n,
            home: Vec::new(),
            home_touched: Vec::new(),
            homing: false,
            owner: Vec::new(),
            homing_slack: 0,
        };
        for s in 0..n {
            let cls = usize::from(plan.in_endset[s]);
            e.endset_left += cls as u32;
            match e.deg[s] {
                0 => e.zeros += 1,
                1 => e.ones[cls] += 1,
                _ => {}
            }
        }
        e.visit(plan.start);
        e
    }

    /// Place a prefix move (after the start) without counting it; `false` if `s` is not a free
    /// neighbour of the last square or breaks a constraint.
    pub fn push_prefix(&mut self, s: u32) -> bool {
        let k = self.path.len() + 1;
        let Some(&last) = self.path.last() else {
            return false;
        };
        let ok = (s as usize) < self.plan.n
            && self.free[s as usize]
            && self.plan.neighbours(last).contains(&s)
            && (self.plan.reserved[s as usize] == 0 || self.plan.reserved[s as usize] == k as u32)
            && (self.plan.required[k] == NONE || self.plan.required[k] == s);
        if ok {
            self.visit(s);
        }
        ok
    }

    fn visit(&mut self, v: u32) {
        let plan = self.plan;
        let vi = v as usize;
        self.free[vi] = false;
        let cls = usize::from(plan.in_endset[vi]);
        self.endset_left -= cls as u32;
        match self.deg[vi] {
            0 => self.zeros -= 1,
            1 => self.ones[cls] -= 1,
            _ => {}
        }
        for &w in plan.neighbours(v) {
            let wi = w as usize;
            if self.free[wi] {
                let old = self.deg[wi];
                self.deg[wi] = old - 1;
                let c = usize::from(plan.in_endset[wi]);
                match old {
                    2 => self.ones[c] += 1,
                    1 => {
                        self.ones[c] -= 1;
                        self.zeros += 1;
                    }
                    _ => {}
                }
            }
        }
        self.path.push(v);
    }

    fn unvisit(&mut self) {
        let plan = self.plan;
        let Some(v) = self.path.pop() else { return };
        for &w in plan.neighbours(v) {
            let wi = w as usize;
            if self.free[wi] {
                let old = self.deg[wi];
                self.deg[wi] = old + 1;
                let c = usize::from(plan.in_endset[wi]);
                match old {
                    1 => self.ones[c] -= 1,
                    0 => {
                        self.zeros -= 1;
                        self.ones[c] += 1;
                    }
                    _ => {}
                }
            }
        }
        let vi = v as usize;
        self.free[vi] = true;
        let cls = usize::from(plan.in_endset[vi]);
        self.endset_left += cls as u32;
        match self.deg[vi] {
            0 => self.zeros += 1,
            1 => self.ones[cls] += 1,
            _ => {}
        }
    }

    /// Make [`Engine::run`] report paths of `goal` squares (at most the board's) instead of
    /// complete tours: each is a path that passed every pruning rule at its last square, so it
    /// may still extend to a tour. With fewer than `homing_slack` moves to spare, the knight
    /// heads for the goal's square rather than following Warnsdorff's rule.
    pub fn set_goal(&mut self, goal: usize, homing_slack: u32) {
        self.goal = goal.min(self.plan.n);
        self.homing_slack = homing_slack;
        for &s in &self.home_touched {
            self.home[s as usize] = NONE;
        }
        self.home_touched.clear();
        self.homing = false;
        let target = self.plan.required.get(self.goal).copied().unwrap_or(NONE);
        let base = self.path.len();
        if self.goal < self.plan.n && target != NONE && self.free[target as usize] && base < goal {
            self.homing = true;
            self.distances_through_free(target, (self.goal - base) as u32);
        }
    }

    /// Breadth-first knight distances from `target` up to `horizon`, through free squares not
    /// reserved for another move, into `home` ([`NONE`] elsewhere).
    fn distances_through_free(&mut self, target: u32, horizon: u32) {
        let plan = self.plan;
        if self.home.len() != plan.n {
            self.home = vec![NONE; plan.n];
        }
        let touched = &mut self.home_touched;
        touched.push(target);
        self.home[target as usize] = 0;
        let mut head = 0;
        while head < touched.len() {
            let s = touched[head];
            head += 1;
            let next = self.home[s as usize] + 1;
            if next > horizon {
                continue;
            }
            for &t in plan.neighbours(s) {
                let ti = t as usize;
                if self.free[ti] && plan.reserved[ti] == 0 && self.home[ti] == NONE {
                    self.home[ti] = next;
                    touched.push(t);
                }
            }
        }
    }

    /// For each square, the move number of the nearest constrained square (a multi-source
    /// breadth-first search over the board; ties to the earlier move).
    pub fn set_owners(&mut self) {
        let plan = self.plan;
        let mut owner = vec![0u32; plan.n];
        let mut queue = std::collections::VecDeque::new();
        for (k, &s) in plan.required.iter().enumerate() {
            if s != NONE && (s as usize) < plan.n && owner[s as usize] == 0 {
                owner[s as usize] = k as u32;
                queue.push_back(s);
            }
        }
        while let Some(s) = queue.pop_front() {
            for &t in plan.neighbours(s) {
                if owner[t as usize] == 0 {
                    owner[t as usize] = owner[s as usize];
                    queue.push_back(t);
                }
            }
        }
        self.owner = owner;
    }

    /// Whether every constrained square after the path's end can still be reached in time:
    /// each from the one before it (the first from the path's end) within the moves between
    /// them, through free squares not reserved for another move, and each keeps enough free
    /// neighbours for its moves before and after. The search's own rules look only at the next
    /// constrained square, by board distance; a segment ending here can have used up the way
    /// to, or the squares around, one needed hundreds of moves later (measured on long thin
    /// boards, where that was the cause of every unanswered request).
    pub fn later_constraints_reachable(&mut self) -> bool {
        let plan = self.plan;
        let Some(&end) = self.path.last() else {
            return true;
        };
        let (mut from, mut k) = (end, self.path.len());
        loop {
            let j = plan.next_constraint.get(k + 1).copied().unwrap_or(0) as usize;
            if j == 0 {
                return true;
            }
            let to = plan.required[j];
            if !self.free[to as usize]
                || !self.enough_free_neighbours(to, j)
                || !self.reaches_within(from, to, (j - k) as u32)
            {
                return false;
            }
            (from, k) = (to, j);
        }
    }

    /// Whether square `s`, reserved for move `k`, has a free neighbour for each of its moves
    /// before and after (one for the last move).
    fn enough_free_neighbours(&self, s: u32, k: usize) -> bool {
        let plan = self.plan;
        let usable = |t: &&u32| {
            let ti = **t as usize;
            let r = plan.reserved[ti] as usize;
            self.free[ti] && (r == 0 || r + 1 == k || r == k + 1)
        };
        let need = if k >= plan.n { 1 } else { 2 };
        plan.neighbours(s).iter().filter(usable).take(need).count() >= need
    }

    /// Whether `to` is at most `horizon` knight moves from `from` through free squares not
    /// reserved for another move (breadth-first, stopping at the horizon).
    fn reaches_within(&mut self, from: u32, to: u32, horizon: u32) -> bool {
        let plan = self.plan;
        let stamp = self.next_stamp();
        let mut queue = std::mem::take(&mut self.queue);
        queue.clear();
        queue.push(from);
        self.mark[from as usize] = stamp;
        let (mut head, mut level_end, mut depth) = (0, 1, 0u32);
        let mut hit = false;
        'bfs: while head < queue.len() {
            if head == level_end {
                depth += 1;
                level_end = queue.len();
            }
            if depth >= horizon {
                break;
            }
            let s = queue[head];
            head += 1;
            for &t in plan.neighbours(s) {
                if t == to {
                    hit = true;
                    break 'bfs;
                }
                let ti = t as usize;
                if self.free[ti] && plan.reserved[ti] == 0 && self.mark[ti] != stamp {
                    self.mark[ti] = stamp;
                    queue.push(t);
                }
            }
        }
        self.queue = queue;
        hit
    }

    /// Squares on the path.
    pub fn depth(&self) -> usize {
        self.path.len()
    }

    /// The path so far.
    pub fn path(&self) -> &[u32] {
        &self.path
    }

    /// Take moves back until `len` squares remain (at least the start).
    pub fn truncate(&mut self, len: usize) {
        while self.path.len() > len.max(1) {
            self.unvisit();
        }
    }

    /// Moves to spare on the way to the goal's square if `w` becomes move `k`, `None` if it
    /// can no longer be reached in time (always `Some` without a goal square).
    #[inline]
    fn slack(&self, w: u32, k: usize) -> Option<u32> {
        if !self.homing || k > self.goal {
            return Some(u32::MAX);
        }
        let left = (self.goal - k) as u32;
        let d = self.home[w as usize];
        (d <= left).then(|| left - d)
    }

    /// Search every extension of the current path (the fixed prefix), calling `found` with each
    /// complete tour (each path of the goal's length); `found` returns `false` to stop.
    pub fn run(&mut self, limits: Limits, found: &mut dyn FnMut(&[u32]) -> bool) -> Stop {
        let n = self.plan.n;
        let goal = self.goal;
        let base = self.path.len();
        if base >= goal && goal < n {
            if base == goal && !found(&self.path) {
                return Stop::Visitor;
            }
            return Stop::Exhausted;
        }
        if base == n {
            let closes = !self.plan.closed || self.plan.in_endset[self.path[n - 1] as usize];
            if closes && !found(&self.path) {
                return Stop::Visitor;
            }
            return Stop::Exhausted;
        }
        self.expand(base, true);
        loop {
            let d = self.path.len();
            let next = self.cand_next[d];
            if next < self.cand_len[d] {
                self.cand_next[d] = next + 1;
                let w = self.cands[8 * d + next as usize];
                self.visit(w);
                self.nodes += 1;
                if self.nodes >= limits.max_nodes {
                    return Stop::Budget;
                }
                if self.nodes.is_multiple_of(DEADLINE_STEP) {
                    if self.nodes.is_multiple_of(METER_STEP) {
                        if let Some(meter) = limits.meter {
                            meter.add(METER_STEP);
                        }
                    }
                    if limits.deadline.is_some_and(|t| Instant::now() >= t) {
                        return Stop::Budget;
                    }
                }
                if d + 1 == goal {
                    // A piece's end must leave a position the pruning rules accept, from
                    // which every later constrained square can still be reached in time.
                    let alive = goal == n
                        || (self.candidates(goal, true) > 0 && self.later_constraints_reachable());
                    if alive && !found(&self.path) {
                        return Stop::Visitor;
                    }
                    self.cand_len[goal] = 0;
                    self.cand_next[goal] = 0;
                } else {
                    self.expand(d + 1, false);
                }
            } else {
                if d == base {
                    return Stop::Exhausted;
                }
                self.unvisit();
            }
        }
    }

    /// Fill the candidate list for the move after depth `d` (the path has `d` squares), empty if
    /// the position is proved hopeless.
    ///
    /// `root` forces the connectivity check, which is otherwise made only when the last move
    /// could have split the unvisited squares (see [`Engine::candidates`]).
    fn expand(&mut self, d: usize, root: bool) {
        let len = self.candidates(d, root);
        self.cand_len[d] = len;
        self.cand_next[d] = 0;
    }

    /// The candidate moves after depth `d` in `cands[8 * d..]`, best first, and how many:
    /// the last move, else the one forced or required move, else the ranked moves; none when
    /// the position is proved hopeless.
    #[inline]
    fn candidates(&mut self, d: usize, root: bool) -> u8 {
        let c = self.path[d - 1];
        let m = self.plan.n - d;
        let k = d + 1;
        let base = 8 * d;
        if m == 1 {
            return self.last_move(c, base);
        }
        if self.zeros > 0 || self.endset_left == 0 {
            return 0;
        }
        let Some((forced, free_nbrs)) = self.forced_square(c) else {
            return 0;
        };
        let required = self.plan.required[k];
        if forced != NONE {
            let wi = forced as usize;
            let reserved = self.plan.reserved[wi];
            let allowed = (reserved == 0 || reserved == k as u32)
                && (required == NONE || required == forced)
                && self.plan.can_reach_next(forced, k)
                && self.slack(forced, k).is_some();
            self.cands[base] = forced;
            return u8::from(allowed);
        }
        if required != NONE {
            let ok = self.free[required as usize]
                && self.plan.neighbours(c).contains(&required)
                && self.plan.can_reach_next(required, k)
                && self.slack(required, k).is_some();
            self.cands[base] = required;
            return u8::from(ok);
        }
        let len = self.ranked_moves(c, k, base);
        if len > 0 && m >= CONNECTIVITY_MIN_LEFT && self.splits(c, m, base, root, free_nbrs) {
            return 0;
        }
        len as u8
    }

    /// The last move from `c`: a free neighbour in the end set, if any.
    #[inline(always)]
    fn last_move(&mut self, c: u32, base: usize) -> u8 {
        let plan = self.plan;
        let mut len = 0;
        for &w in plan.neighbours(c) {
            if self.free[w as usize] && plan.in_endset[w as usize] {
                self.cands[base] = w;
                len = 1;
            }
        }
        len
    }

    /// The square next to `c` the knight must take now ([`NONE`] if none) and how many free
    /// neighbours `c` has; `None` when a square with one way left can no longer be reached.
    #[inline(always)]
    fn forced_square(&self, c: u32) -> Option<(u32, u32)> {
        let plan = self.plan;
        // Unvisited squares with one way in or out that are next to the knight.
        let mut adj_ones = [0u32; 2];
        let mut free_nbrs = 0;
        for &w in plan.neighbours(c) {
            if self.free[w as usize] {
                free_nbrs += 1;
                if self.deg[w as usize] == 1 {
                    adj_ones[usize::from(plan.in_endset[w as usize])] += 1;
                }
            }
        }
        // A far square with one way in must be the last one.
        if self.ones[0] > adj_ones[0] {
            return None;
        }
        let far_end = self.ones[1] - adj_ones[1];
        if far_end > 1 {
            return None;
        }
        let slot_used = plan.fixed_end != NONE || far_end == 1;
        let mut forced = NONE;
        for &w in plan.neighbours(c) {
            let wi = w as usize;
            if self.free[wi]
                && self.deg[wi] == 1
                && (!plan.in_endset[wi] || (slot_used && w != plan.fixed_end))
            {
                if forced != NONE {
                    return None;
                }
                forced = w;
            }
        }
        Some((forced, free_nbrs))
    }

    /// The free, unreserved moves from `c` that can become move `k` in `cands[base..]`, most
    /// urgent first, then fewest ways on (Warnsdorff), then the tie-break; how many.
    #[inline(always)]
    fn ranked_moves(&mut self, c: u32, k: usize, base: usize) -> usize {
        let plan = self.plan;
        let mut keys = [0u64; 8];
        let mut len = 0usize;
        for &w in plan.neighbours(c) {
            let wi = w as usize;
            if self.free[wi] && plan.reserved[wi] == 0 && plan.can_reach_next(w, k) {
                let Some(slack) = self.slack(w, k) else {
                    continue;
                };
                let tie = match self.rng.as_mut() {
                    Some(r) => u64::from(r.random::<u32>()),
                    None => u64::from(plan.tie_key[wi]),
                };
                // Near the goal's square, moves that keep a few moves to spare come first.
                let urgency = u64::from(self.homing_slack.saturating_sub(slack));
                // Among equally constrained moves, a square nearer a later segment's square
                // than to any other is left for that segment.
                let later =
                    self.homing && self.owner.get(wi).is_some_and(|&o| o as usize > self.goal);
                let key = (urgency << 41)
                    | (u64::from(self.deg[wi]) << 33)
                    | (u64::from(later) << 32)
                    | tie;
                // Insertion sort: at most 8 entries.
                let mut i = len;
                while i > 0 && keys[i - 1] > key {
                    keys[i] = keys[i - 1];
                    self.cands[base + i] = self.cands[base + i - 1];
                    i -= 1;
                }
                keys[i] = key;
                self.cands[base + i] = w;
                len += 1;
            }
        }
        len
    }

    /// Whether leaving `c` splits the `m` unvisited squares (then no tour goes on from here).
    /// Removing `c` can split them only if `c` had two or more unvisited neighbours; `root`
    /// forces the full check.
    #[inline(always)]
    fn splits(&mut self, c: u32, m: usize, base: usize, root: bool, free_nbrs: u32) -> bool {
        if root {
            return !self.unvisited_connected(self.cands[base], m);
        }
        free_nbrs >= 2
            && self.split_around(c, m).unwrap_or_else(|| {
                // Two large regions near `c`: only a full check tells.
                !self.unvisited_connected(self.cands[base], m)
            })
    }

    /// A fresh stamp for marking squares (clearing the marks when the counter wraps).
    fn next_stamp(&mut self) -> u32 {
        if self.stamp == u32::MAX {
            self.mark.fill(0);
            self.stamp = 0;
        }
        self.stamp += 1;
        self.stamp
    }

    /// Whether visiting `c` split the `m` unvisited squares, looking only near `c`: a
    /// breadth-first search from each unvisited neighbour of `c` in turn, stopped after
    /// [`LOCAL_SEARCH_LIMIT`] squares or on meeting an earlier search, so the cost is bounded
    /// whatever the board size. A search that runs out of squares has found a whole region:
    /// `Some(true)` if that is not all of them. `Some(false)` when all neighbours of `c` meet
    /// (the squares were connected before `c` was visited, as far as earlier checks tell);
    /// `None` when two searches stopped at the limit without meeting (two large regions?).
    fn split_around(&mut self, c: u32, m: usize) -> Option<bool> {
        let plan = self.plan;
        if self.stamp > u32::MAX - 16 {
            // At most 9 stamps are taken below: none may wrap.
            self.mark.fill(0);
            self.stamp = 0;
        }
        // Unvisited neighbours of `c` not reached yet carry the stamp `first`.
        let first = self.next_stamp();
        let mut targets = 0;
        for &f in plan.neighbours(c) {
            if self.free[f as usize] {
                self.mark[f as usize] = first;
                targets += 1;
            }
        }
        let mut large_regions = 0;
        let mut first_search = true;
        for &f in plan.neighbours(c) {
            let fi = f as usize;
            if !self.free[fi] || self.mark[fi] != first {
                continue;
            }
            let stamp = self.next_stamp();
            self.queue.clear();
            self.queue.push(f);
            self.mark[fi] = stamp;
            targets -= 1;
            let mut head = 0;
            let mut open = true;
            'bfs: while head < self.queue.len() {
                if first_search && targets == 0 {
                    // Every neighbour of `c` is in one region.
                    return Some(false);
                }
                if self.queue.len() >= LOCAL_SEARCH_LIMIT {
                    open = false;
                    large_regions += 1;
                    break;
                }
                let s = self.queue[head];
                head += 1;
                for &t in plan.neighbours(s) {
                    let ti = t as usize;
                    let mk = self.mark[ti];
                    if !self.free[ti] || mk == stamp {
                        continue;
                    }
                    if mk > first && mk < stamp {
                        // Met an earlier search: same region.
                        open = false;
                        break 'bfs;
                    }
                    if mk == first {
                        targets -= 1;
                    }
                    self.mark[ti] = stamp;
                    self.queue.push(t);
                }
            }
            if open {
                return Some(self.queue.len() < m);
            }
            first_search = false;
        }
        (large_regions < 2).then_some(false)
    }

    /// Whether all `m` unvisited squares are reachable from `from` through unvisited squares.
    fn unvisited_connected(&mut self, from: u32, m: usize) -> bool {
        let stamp = self.next_stamp();
        self.queue.clear();
        self.queue.push(from);
        self.mark[from as usize] = stamp;
        let mut head = 0;
        while head < self.queue.len() {
            let s = self.queue[head];
            head += 1;
            for &t in self.plan.neighbours(s) {
                let ti = t as usize;
                if self.free[ti] && self.mark[ti] != stamp {
                    self.mark[ti] = stamp;
                    self.queue.push(t);
                }
            }
        }
        self.queue.len() == m
    }
}
