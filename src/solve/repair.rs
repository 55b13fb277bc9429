//! "Move k on X" requests the joint search ([`joint`]) does not finish alone: a large
//! neighbourhood search (Shaw, 1998) around it. A dead end the joint search finds late is
//! usually caused by a choice made much earlier and far away, and it backs up to it. This search
//! keeps the deepest position the joint search reached, takes back every move placed near one
//! square still free there (the constrained moves stay), and lets the joint search fill that
//! part again with every other move held as a constraint: a small, dense request, answered or
//! refuted in a few hundred nodes. A deeper position is kept, and so is one a little shallower
//! than the deepest so far (threshold accepting, Dueck and Scheuer, 1990), so that the search
//! moves on instead of repairing one position until the radius grows; when several repairs in
//! a row do not go deeper than the deepest so far the region grows, and after a few sweeps of
//! growing regions the search starts again from a fresh joint search.
//!
//! Only those fresh joint searches see the request alone, so only they prove "no tour"; their
//! node caps grow, so the proof comes on any request the joint search proves given time.

use std::collections::VecDeque;

use rand::Rng as _;

use crate::board::Board;
use crate::solve::joint::{self, Tables};
use crate::solve::race::{Race, COPIES};
use crate::solve::search::{Answer, Search};
use crate::solve::{Budget, Constraint, Method, Request, Rng};

/// Node cap of each repair: most repairs are refuted within a few dozen nodes, and one still
/// searching after a few hundred rarely goes deeper (`docs/solver.md`).
const REPAIR_NODES: u64 = 500;

/// Node cap of the first fresh joint search, whose deepest position is the first repaired;
/// each later one gets more ([`START_GROWTH_DIVISOR`]).
const FIRST_START_NODES: u64 = 5000;

/// Repairs take back the moves within this many knight moves of the free square first, and at
/// most [`LAST_RADIUS`].
const FIRST_RADIUS: u32 = 3;

/// The largest region a repair takes back, in knight moves from its free square.
const LAST_RADIUS: u32 = 6;

/// Repairs in a row at one radius that do not go deeper before the radius grows.
const TRIES_PER_RADIUS: u32 = 21;

/// Sweeps from [`FIRST_RADIUS`] to [`LAST_RADIUS`] without a deeper position before a fresh
/// start.
const SWEEPS_PER_START: u32 = 3;

/// A repair's position is kept when it holds at most this many moves fewer than the deepest
/// since the last fresh start (threshold accepting): the few repairs that run to their cap
/// give a position a move or three short of the deepest, a different one to repair next.
const KEPT_SHALLOWER: usize = 3;

/// Each fresh start's joint search gets this fraction more nodes than the last (1/4), so that
/// a request without a tour is proved so in the end.
const START_GROWTH_DIVISOR: u64 = 4;

/// The largest board the search takes: each joint search holds a dozen arrays a square.
pub const MAX_SQUARES: usize = crate::solve::segments::MAX_SQUARES;

/// [`COPIES`] repair searches raced on threads ([`Race`]): `--method joint`.
pub fn raced(request: &Request) -> Race<'_, Repair<'_>> {
    Race::new(COPIES, move |_| Repair::new(request))
}

/// The repair search as a [`Search`]: each step is a fresh joint search of the whole request or
/// one repair of the deepest position, and the deepest position and the radius carry over
/// from one step to the next. Exhaustive: its fresh joint searches see the request alone,
/// their node caps grow, and they prove "no tour".
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::solve::repair::Repair;
/// use knights_tour::solve::search::{Answer, Search};
/// use knights_tour::solve::{rng_from_seed, Budget, Constraint, Request};
/// let board = Board::new(6, 6).unwrap();
/// let sq = |name| board.parse_square(name).unwrap();
/// // Moves 1 and 4 three moves apart, but four knight's moves away: no tour.
/// let req = Request {
///     constraints: vec![
///         Constraint { move_number: 1, square: sq("a1") },
///         Constraint { move_number: 4, square: sq("f6") },
///     ],
///     ..Request::open(board)
/// };
/// let mut search = Repair::new(&req);
/// assert_eq!(search.run(&Budget::nodes(1_000), &mut rng_from_seed(1)).0, Answer::NoTour);
/// ```
pub struct Repair<'a> {
    req: &'a Request,
    tables: Tables,
    /// Whether move `k` is one of the request's own constraints (which every repair keeps), at
    /// `k`.
    is_fixed: Vec<bool>,
    /// The deepest position so far (every move placed there, the request's own included);
    /// `None` before a fresh start.
    deepest: Option<Vec<Constraint>>,
    radius: u32,
    /// Repairs in a row at this radius that went no deeper.
    stale: u32,
    /// Sweeps of radii since the last fresh start (a deeper position starts the sweep again
    /// from the first radius, and does not take sweeps back).
    sweeps: u32,
    /// Node cap of the next fresh start.
    start_nodes: u64,
    /// Moves in the deepest position since the last fresh start.
    best: usize,
}

impl Search for Repair<'_> {
    fn method(&self) -> Method {
        Method::Joint
    }

    fn exhaustive(&self) -> bool {
        true
    }

    /// A fresh start, or one repair of the deepest position (each within its own node cap as
    /// well).
    fn step(&mut self, budget: &Budget, rng: &mut Rng) -> (Answer, u64) {
        match self.deepest.take() {
            None => self.start(budget, rng),
            Some(deepest) => self.repair(deepest, budget, rng),
        }
    }
}

impl<'a> Repair<'a> {
    /// A search for `req`, which it takes ([`declines`](crate::solve::search::declines) is `None`).
    pub fn new(req: &'a Request) -> Repair<'a> {
        let mut is_fixed = vec![false; req.board.len() + 1];
        for c in req.all_constraints() {
            if let Some(f) = is_fixed.get_mut(c.move_number as usize) {
                *f = true;
            }
        }
        Repair {
            req,
            tables: Tables::new(req.board),
            is_fixed,
            deepest: None,
            radius: FIRST_RADIUS,
            stale: 0,
            sweeps: 0,
            start_nodes: FIRST_START_NODES,
            best: 0,
        }
    }

    /// A fresh joint search of the whole request, the one step that can prove "no tour"; its
    /// deepest position is the one repaired next (none when it stopped before its first
    /// decision, and the next step starts afresh again).
    fn start(&mut self, budget: &Budget, rng: &mut Rng) -> (Answer, u64) {
        let budget = budget.capped(self.start_nodes);
        self.start_nodes = self
            .start_nodes
            .saturating_add(self.start_nodes / START_GROWTH_DIVISOR);
        let (result, nodes, deepest) = joint::solve_deepest(self.req, &budget, rng, &self.tables);
        self.best = deepest.len();
        self.deepest = (!deepest.is_empty()).then_some(deepest);
        (self.radius, self.stale, self.sweeps) = (FIRST_RADIUS, 0, 0);
        (result, nodes)
    }

    /// Take back the moves of `placed` within the radius of a free square drawn uniformly (not
    /// the request's own), and search that part again with every other move fixed; keep the
    /// deeper position of the two, and grow the radius, or start afresh, when repairs stop
    /// going deeper. A tour when one is found.
    fn repair(&mut self, placed: Vec<Constraint>, budget: &Budget, rng: &mut Rng) -> (Answer, u64) {
        let board = self.req.board;
        let mut taken = vec![false; board.len()];
        for c in &placed {
            taken[board.index(c.square) as usize] = true;
        }
        let free: Vec<u32> = (0..board.len() as u32)
            .filter(|&s| !taken[s as usize])
            .collect();
        let Some(&focus) = free.get(rng.random_range(0..free.len().max(1))) else {
            return (Answer::Unfinished, 0); // a full position is a tour, found
        };
        let near = within(board, focus, self.radius);
        let constraints = placed.iter().filter(|c| {
            self.is_fixed[c.move_number as usize] || !near[board.index(c.square) as usize]
        });
        let sub = Request {
            constraints: constraints.copied().collect(),
            ..Request::open(board)
        };
        let budget = budget.capped(REPAIR_NODES);
        let (result, nodes, deeper) = joint::solve_deepest(&sub, &budget, rng, &self.tables);
        if let Answer::Found { tour, by } = result {
            if self.req.is_satisfied_by(&tour) {
                return (Answer::Found { tour, by }, nodes);
            }
        }
        self.keep_position(placed, deeper);
        (Answer::Unfinished, nodes)
    }

    /// Keep a repair's `deeper` position instead of `placed` when it is at most
    /// [`KEPT_SHALLOWER`] moves short of the deepest so far, and move on in the schedule of
    /// radii (back to the first radius when it is the deepest so far).
    fn keep_position(&mut self, placed: Vec<Constraint>, deeper: Vec<Constraint>) {
        self.best = self.best.max(placed.len());
        if deeper.len() > self.best {
            (self.radius, self.stale) = (FIRST_RADIUS, 0);
        } else {
            self.stale += 1;
        }
        self.deepest = Some(if deeper.len() + KEPT_SHALLOWER >= self.best {
            deeper
        } else {
            placed
        });
        if self.stale >= TRIES_PER_RADIUS {
            self.stale = 0;
            self.radius += 1;
            if self.radius > LAST_RADIUS {
                self.radius = FIRST_RADIUS;
                self.sweeps += 1;
                if self.sweeps >= SWEEPS_PER_START {
                    self.deepest = None;
                }
            }
        }
    }
}

/// The squares within `radius` knight moves of `from`.
fn within(board: Board, from: u32, radius: u32) -> Vec<bool> {
    let mut dist = vec![u32::MAX; board.len()];
    let mut queue = VecDeque::from([from]);
    dist[from as usize] = 0;
    while let Some(s) = queue.pop_front() {
        let d = dist[s as usize];
        if d == radius {
            continue;
        }
        for t in board.knight_moves(board.square_at(s)) {
            let t = board.index(t);
            if dist[t as usize] == u32::MAX {
                dist[t as usize] = d + 1;
                queue.push_back(t);
            }
        }
    }
    dist.into_iter().map(|d| d != u32::MAX).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A position of `len` moves (which squares does not matter to the schedule).
    fn position(board: Board, len: usize) -> Vec<Constraint> {
        (0..len)
            .map(|i| Constraint {
                move_number: i as u32 + 1,
                square: board.square_at(i as u32),
            })
            .collect()
    }

    #[test]
    fn keeps_a_position_a_little_shallower_than_the_deepest_and_no_more() {
        let board = Board::new(8, 8).unwrap();
        let req = Request::open(board);
        let mut search = Repair::new(&req);
        let kept = |s: &Repair| s.deepest.as_ref().map(Vec::len);

        search.keep_position(position(board, 40), position(board, 40 - KEPT_SHALLOWER));
        assert_eq!(kept(&search), Some(40 - KEPT_SHALLOWER));
        assert_eq!((search.best, search.stale), (40, 1));

        // Measured against the deepest so far, not against the position repaired.
        search.keep_position(position(board, 38), position(board, 39 - KEPT_SHALLOWER));
        assert_eq!(kept(&search), Some(38));
        assert_eq!(search.stale, 2);

        search.radius = FIRST_RADIUS + 1;
        search.keep_position(position(board, 38), position(board, 41));
        assert_eq!(kept(&search), Some(41));
        assert_eq!((search.radius, search.stale), (FIRST_RADIUS, 0));

        // As deep as the deepest: kept, but the schedule moves on.
        search.keep_position(position(board, 41), position(board, 41));
        assert_eq!((search.best, search.stale), (41, 1));
    }
}
