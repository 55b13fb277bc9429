//! One resumable search run in several independent copies at once, each on its own thread with
//! its own random draws, the answer still a function of the seed alone.
//!
//! The searches this serves (the repair search above all) are randomised and their running
//! times vary widely from draw to draw: of two copies, the first to finish is usually much
//! sooner than either on its average. Which copy finishes first in *time* depends on the
//! machine; which finishes first in *search nodes* does not. So every copy advances in steps
//! (one repair, one fresh start), counts its own nodes, and stops once it has used as many as
//! a copy that has already answered; the answer kept is the one found in the fewest nodes (the
//! lower lane on a tie). A step's course depends only on its copy's draws and the budget,
//! never on the other copies; after an answer the losing copies start afresh (where each
//! stopped depended on the timing). So the same seed gives the same tours on one core or many;
//! only a time limit falling mid-race can change what is found, as it can without lanes.

use std::sync::atomic::{AtomicU64, Ordering};

use rand::{Rng as _, SeedableRng as _};

use crate::solve::backtrack::Search;
use crate::solve::{Budget, Rng};

/// Copies of a search run at once where memory allows. A fixed number, not the machine's cores:
/// the answer must not depend on the machine (on one core the copies share it, each at half
/// speed). Four copies of the repair search on two cores, each round's cap for each, met 63
/// of the 64 runs of the `requests` example's 80-constraint requests (seed 2026; CLI
/// `--seed 1..8`, 10 s) with a median of 0.99 s, where two met 63 in 0.72 s.
pub const LANES: usize = 2;

/// Copies of a resumable search, each with its own generator.
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::solve::backtrack::Search;
/// use knights_tour::solve::construct::open_tour;
/// use knights_tour::solve::lanes::{Lanes, LANES};
/// use knights_tour::solve::repair::Repair;
/// use knights_tour::solve::{rng_from_seed, Budget, Constraint, Request};
/// let board = Board::new(10, 10).unwrap();
/// let tour = open_tour(board).unwrap();
/// let constraints = (0..board.len())
///     .step_by(5)
///     .map(|i| Constraint { move_number: i as u32 + 1, square: tour.squares().nth(i).unwrap() })
///     .collect();
/// let req = Request { constraints, ..Request::open(board) };
/// let answer = |seed| {
///     let mut lanes = Lanes::new(LANES, |_| Repair::new(&req), &mut rng_from_seed(seed));
///     lanes.race(&Budget::nodes(10_000_000), |search, budget, rng| search.step(budget, rng))
/// };
/// let (Search::Found(found), _) = answer(3) else { panic!() };
/// assert!(req.is_satisfied_by(&found));
/// // The same seed, the same tour, whichever thread is faster.
/// assert_eq!(answer(3).0, Search::Found(found));
/// ```
pub struct Lanes<'a, L> {
    lanes: Vec<(L, Rng)>,
    /// Makes lane `i` afresh.
    make: Box<dyn Fn(usize) -> L + 'a>,
    /// Seeds of the lanes' generators, drawn in order.
    seeds: Rng,
}

impl<'a, L: Send> Lanes<'a, L> {
    /// `count` searches (at least one), lane `i`'s made by `make(i)`, their generators seeded
    /// from `rng`. The count must depend on the request alone, never on the machine.
    pub fn new(count: usize, make: impl Fn(usize) -> L + 'a, rng: &mut Rng) -> Lanes<'a, L> {
        let mut seeds = Rng::seed_from_u64(rng.random());
        let lanes = (0..count.max(1))
            .map(|i| (make(i), Rng::seed_from_u64(seeds.random())))
            .collect();
        Lanes {
            lanes,
            make: Box::new(make),
            seeds,
        }
    }

    /// How many copies run.
    pub fn len(&self) -> usize {
        self.lanes.len()
    }

    /// Never: there is always at least one copy.
    pub fn is_empty(&self) -> bool {
        self.lanes.is_empty()
    }

    /// Run every copy, step after step (`step` advances a search by one step within a budget
    /// and gives its answer and the nodes it used), within `budget` shared among them, until
    /// one answers: the answer found in the fewest of its copy's nodes, or `OutOfBudget`; and
    /// the nodes used by all copies together. The copies keep their state for the next race.
    pub fn race<S>(&mut self, budget: &Budget, step: S) -> (Search, u64)
    where
        S: Fn(&mut L, &Budget, &mut Rng) -> (Search, u64) + Sync,
    {
        let share = Budget {
            max_nodes: budget.max_nodes.map(|m| m / self.lanes.len() as u64),
            ..*budget
        };
        // The fewest nodes any copy has answered in so far.
        let best = AtomicU64::new(u64::MAX);
        let answers: Vec<(u64, Search)> = std::thread::scope(|scope| {
            let runs: Vec<_> = self
                .lanes
                .iter_mut()
                .map(|(lane, rng)| {
                    let (step, best) = (&step, &best);
                    scope.spawn(move || run(lane, rng, &share, best, step))
                })
                .collect();
            runs.into_iter()
                .map(|run| run.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect()
        });
        let used = answers.iter().map(|a| a.0).sum();
        let winner = answers
            .into_iter()
            .enumerate()
            .filter(|(_, (_, answer))| !matches!(answer, Search::OutOfBudget { .. }))
            .min_by_key(|(_, (nodes, _))| *nodes);
        match winner {
            Some((w, (_, answer))) => {
                self.restart_all_but(w);
                (answer, used)
            }
            None => (Search::OutOfBudget { nodes: used }, used),
        }
    }

    /// Every lane but `w` made afresh. Where a losing lane stopped depends on when it saw the
    /// winner's answer, that is on the threads' timing: were it kept, the next race (another
    /// tour asked for, or this one not accepted) would depend on the machine.
    fn restart_all_but(&mut self, w: usize) {
        for (i, lane) in self.lanes.iter_mut().enumerate() {
            if i != w {
                *lane = ((self.make)(i), Rng::seed_from_u64(self.seeds.random()));
            }
        }
    }
}

/// One copy's part of a race: steps until it answers, its share is spent, or it has used as
/// many nodes as the best answer so far; its nodes and its answer (`OutOfBudget` when it has
/// none).
fn run<L, S>(
    lane: &mut L,
    rng: &mut Rng,
    share: &Budget,
    best: &AtomicU64,
    step: &S,
) -> (u64, Search)
where
    S: Fn(&mut L, &Budget, &mut Rng) -> (Search, u64),
{
    let mut spent = 0u64;
    while !share.exhausted(spent) && spent < best.load(Ordering::Relaxed) {
        let (answer, nodes) = step(lane, &share.after(spent), rng);
        spent += nodes.max(1);
        if !matches!(answer, Search::OutOfBudget { .. }) {
            best.fetch_min(spent, Ordering::Relaxed);
            return (spent, answer);
        }
    }
    (spent, Search::OutOfBudget { nodes: spent })
}
