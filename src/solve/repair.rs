//! Dense "move k on X" requests on boards the joint search ([`joint`]) does not finish alone: a
//! large neighbourhood search (Shaw, 1998) around it. The joint search stops short on such
//! boards: on the `requests` example's 80-constraint group (boards of 300 to 1,500 squares) it
//! reached at most nine tenths of the squares in 10 s and backed up from there, because a dead
//! end found late is usually caused by a choice made much earlier and far away. This search
//! keeps the deepest position the joint search reached, takes back every move placed near one
//! square still free there (the constrained moves stay), and lets the joint search fill that
//! part again with every other move held as a constraint: a small, dense request, answered or
//! refuted in a few thousand nodes. A deeper position is kept; when several repairs in a row
//! do not go deeper the region grows, and after a few sweeps of growing regions the search
//! starts again from a fresh joint search.
//!
//! Only those fresh joint searches see the request alone, so only they prove "no tour"; their
//! node caps grow, so the proof comes on any request the joint search proves given time.

use std::collections::VecDeque;

use rand::Rng as _;

use crate::board::Board;
use crate::solve::backtrack::Search;
use crate::solve::joint::{self, Distances};
use crate::solve::{Budget, Constraint, Request, Rng};
use crate::tour::Tour;

/// Node cap of each repair, and of the first fresh joint search. Measured on the 80-constraint
/// group's seven requests the runner missed (seeds 1-3, 10 s): caps of 3,000, 5,000, 10,000 and
/// 20,000 nodes met 14, 18, 16 and 15 of 21.
const REPAIR_NODES: u64 = 5000;

/// Repairs take back the moves within this many knight moves of the free square first, and at
/// most [`LAST_RADIUS`]; radii from 2 met 5 of 21 and 15 of 21 where 3 met 18.
const FIRST_RADIUS: u32 = 3;

/// The largest region a repair takes back, in knight moves from its free square.
const LAST_RADIUS: u32 = 6;

/// Repairs in a row at one radius that do not go deeper before the radius grows (10: 15 of 21
/// met; 40: 15 of 21).
const TRIES_PER_RADIUS: u32 = 21;

/// Sweeps from [`FIRST_RADIUS`] to [`LAST_RADIUS`] without a deeper position before a fresh
/// start. Seeds 4-6: 3 sweeps met 19 of 21, never starting afresh 14 of 21.
const SWEEPS_PER_START: u32 = 3;

/// Each fresh start's joint search gets this fraction more nodes than the last (1/4), so that
/// a request without a tour is proved so in the end.
const START_GROWTH_DIVISOR: u64 = 4;

/// Whether the repair search takes `req`: the requests the joint search takes.
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::solve::{repair, Request};
/// assert!(!repair::supports(&Request::open(Board::new(8, 8).unwrap())));
/// ```
pub fn supports(req: &Request) -> bool {
    joint::supports(req)
}

/// One tour meeting `req` and the search nodes used (every joint search's); [`Search::NoTour`]
/// when a fresh joint search proved there is none. A request the search does not take
/// ([`supports`]) gives `OutOfBudget` with no nodes.
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::solve::construct::open_tour;
/// use knights_tour::solve::backtrack::Search;
/// use knights_tour::solve::{repair, rng_from_seed, Budget, Constraint, Request};
/// // Every fourth move of a 12x12 tour fixed: a puzzle with 36 clues.
/// let board = Board::new(12, 12).unwrap();
/// let tour = open_tour(board).unwrap();
/// let constraints = (0..board.len())
///     .step_by(4)
///     .map(|i| Constraint { move_number: i as u32 + 1, square: tour.squares().nth(i).unwrap() })
///     .collect();
/// let req = Request { constraints, ..Request::open(board) };
/// match repair::solve(&req, &Budget::nodes(1_000_000), &mut rng_from_seed(1)).0 {
///     Search::Found(found) => assert!(req.is_satisfied_by(&found)),
///     other => panic!("{other:?}"),
/// }
/// ```
pub fn solve(req: &Request, budget: &Budget, rng: &mut Rng) -> (Search, u64) {
    if !supports(req) {
        return (Search::OutOfBudget { nodes: 0 }, 0);
    }
    let mut repair = Repair {
        req,
        budget,
        distances: Distances::new(req.board),
        fixed: req.all_constraints(),
        is_fixed: vec![false; req.board.len() + 1],
        spent: 0,
    };
    for c in &repair.fixed {
        if let Some(f) = repair.is_fixed.get_mut(c.move_number as usize) {
            *f = true;
        }
    }
    let mut start_nodes = REPAIR_NODES;
    loop {
        let budget = budget.after(repair.spent).capped(start_nodes);
        let (result, nodes, deepest) = joint::solve_deepest(req, &budget, rng, &repair.distances);
        repair.spent += nodes.max(1);
        match result {
            Search::OutOfBudget { .. } => {}
            found_or_proof => return (found_or_proof, repair.spent),
        }
        if let Some(tour) = repair.sweeps(deepest, rng) {
            return (Search::Found(tour), repair.spent);
        }
        if repair.budget_spent() {
            return (
                Search::OutOfBudget {
                    nodes: repair.spent,
                },
                repair.spent,
            );
        }
        start_nodes = start_nodes.saturating_add(start_nodes / START_GROWTH_DIVISOR);
    }
}

/// One run of the repair search.
struct Repair<'a> {
    req: &'a Request,
    budget: &'a Budget,
    distances: Distances,
    /// The request's own constraints, kept by every repair.
    fixed: Vec<Constraint>,
    /// Whether move `k` is one of them, at `k`.
    is_fixed: Vec<bool>,
    spent: u64,
}

impl Repair<'_> {
    fn budget_spent(&self) -> bool {
        self.budget.exhausted(self.spent)
    }

    /// Repairs from `deepest` until [`SWEEPS_PER_START`] sweeps of radii go no deeper or the
    /// budget is spent; the tour when one is found.
    fn sweeps(&mut self, mut deepest: Vec<Constraint>, rng: &mut Rng) -> Option<Tour> {
        let mut radius = FIRST_RADIUS;
        let mut stale = 0;
        let mut sweeps = 0;
        while sweeps < SWEEPS_PER_START && !self.budget_spent() {
            let (found, placed) = self.repair(&deepest, radius, rng);
            if let Some(tour) = found {
                return Some(tour);
            }
            if placed.len() > deepest.len() {
                radius = FIRST_RADIUS;
                stale = 0;
            } else {
                stale += 1;
            }
            if placed.len() >= deepest.len() {
                deepest = placed;
            }
            if stale >= TRIES_PER_RADIUS {
                stale = 0;
                radius += 1;
                if radius > LAST_RADIUS {
                    radius = FIRST_RADIUS;
                    sweeps += 1;
                }
            }
        }
        None
    }

    /// Take back the moves of `placed` within `radius` knight moves of a random free square
    /// (not the request's own), and search the rest again with every other move fixed: the
    /// tour when found, else the deepest position reached.
    fn repair(
        &mut self,
        placed: &[Constraint],
        radius: u32,
        rng: &mut Rng,
    ) -> (Option<Tour>, Vec<Constraint>) {
        let board = self.req.board;
        let mut taken = vec![false; board.len()];
        for c in placed {
            taken[board.index(c.square) as usize] = true;
        }
        let free: Vec<u32> = (0..board.len() as u32)
            .filter(|&s| !taken[s as usize])
            .collect();
        if free.is_empty() {
            return (None, Vec::new());
        }
        let near = within(board, free[rng.random_range(0..free.len())], radius);
        let mut constraints = self.fixed.clone();
        constraints.extend(placed.iter().filter(|c| {
            !near[board.index(c.square) as usize] && !self.is_fixed[c.move_number as usize]
        }));
        let sub = Request {
            constraints,
            ..Request::open(board)
        };
        let budget = self.budget.after(self.spent).capped(REPAIR_NODES);
        let (result, nodes, deeper) = joint::solve_deepest(&sub, &budget, rng, &self.distances);
        self.spent += nodes.max(1);
        match result {
            Search::Found(tour) if self.req.is_satisfied_by(&tour) => (Some(tour), deeper),
            _ => (None, deeper),
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
