//! Any search run in several independent copies at once, each on its own thread with its own
//! random draws, the answer still a function of the seed alone.
//!
//! The searches raced (the joint and rotation searches) are randomised and their running
//! times vary widely from draw to draw: of two copies, the first to finish is usually much
//! sooner than either on its average. Which copy finishes first in *time* depends on the
//! machine; which finishes first in *search nodes* does not. So every copy advances step by
//! step, counts its own nodes, and stops once it has used as many as a copy that has already
//! answered; the answer kept is the one found in the fewest nodes (the lower copy on a tie). A
//! step's course depends only on its copy's draws and the budget, never on the other copies;
//! after an answer the losing copies start afresh (where each stopped depended on the timing).
//! So the same seed gives the same tours on one core or many; only a time limit falling
//! mid-race can change what is found, as it can without a race.

use std::sync::atomic::{AtomicU64, Ordering};

use rand::{Rng as _, SeedableRng as _};

use crate::solve::search::{Answer, Search};
use crate::solve::{Budget, Method, Rng};

/// Copies raced where memory allows. A fixed number, not the machine's cores: the answer must
/// not depend on the machine (on one core the copies share it, each at half speed).
pub const COPIES: usize = 2;

/// Copies of a search raced on threads; itself a [`Search`], whose step is one race.
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::solve::construct::open_tour;
/// use knights_tour::solve::race::{Race, COPIES};
/// use knights_tour::solve::repair::Repair;
/// use knights_tour::solve::search::{Answer, Search};
/// use knights_tour::solve::{rng_from_seed, Budget, Constraint, Request};
/// let board = Board::new(10, 10).unwrap();
/// let tour = open_tour(board).unwrap();
/// let constraints = (0..board.len())
///     .step_by(5)
///     .map(|i| Constraint { move_number: i as u32 + 1, square: tour.squares().nth(i).unwrap() })
///     .collect();
/// let req = Request { constraints, ..Request::open(board) };
/// let answer = |seed| {
///     let mut race = Race::new(COPIES, |_| Repair::new(&req));
///     race.run(&Budget::nodes(10_000_000), &mut rng_from_seed(seed)).0
/// };
/// let Answer::Found { tour: found, .. } = answer(3) else { panic!() };
/// assert!(req.is_satisfied_by(&found));
/// // The same seed, the same tour, whichever thread is faster.
/// assert!(matches!(answer(3), Answer::Found { tour, .. } if tour == found));
/// ```
pub struct Race<'a, S> {
    copies: Vec<S>,
    /// The copies' generators, seeded at the first race.
    rngs: Vec<Rng>,
    /// Makes copy `i` afresh.
    make: Box<dyn Fn(usize) -> S + Send + Sync + 'a>,
    /// Seeds of the copies' generators, drawn in order from the first race's generator.
    seeds: Option<Rng>,
}

impl<'a, S: Search> Race<'a, S> {
    /// `count` copies (at least one), copy `i` made by `make(i)`. The count must depend on
    /// the request alone, never on the machine. The copies' generators are seeded from the
    /// first race's.
    pub fn new(count: usize, make: impl Fn(usize) -> S + Send + Sync + 'a) -> Race<'a, S> {
        Race {
            copies: (0..count.max(1)).map(&make).collect(),
            rngs: Vec::new(),
            make: Box::new(make),
            seeds: None,
        }
    }

    /// How many copies run.
    pub fn len(&self) -> usize {
        self.copies.len()
    }

    /// Never: there is always at least one copy.
    pub fn is_empty(&self) -> bool {
        self.copies.is_empty()
    }

    /// Every copy but `w` made afresh. Where a losing copy stopped depends on when it saw the
    /// winner's answer, that is on the threads' timing: were it kept, the next race (another
    /// tour asked for, or this one not accepted) would depend on the machine.
    fn restart_all_but(&mut self, w: usize) {
        let Some(seeds) = self.seeds.as_mut() else {
            return;
        };
        for i in (0..self.copies.len()).filter(|&i| i != w) {
            self.copies[i] = (self.make)(i);
            self.rngs[i] = Rng::seed_from_u64(seeds.random());
        }
    }
}

impl<S: Search> Search for Race<'_, S> {
    fn method(&self) -> Method {
        self.copies[0].method()
    }

    fn exhaustive(&self) -> bool {
        self.copies[0].exhaustive()
    }

    fn copies(&self) -> usize {
        self.copies.len()
    }

    /// Every copy steps, within `budget` shared among them, until one settles something: the
    /// answer found in the fewest of its copy's nodes ([`Answer::Spent`] only when every copy
    /// is spent), or [`Answer::Unfinished`]; and the nodes used by all copies together. The
    /// copies keep their state for the next race.
    fn step(&mut self, budget: &Budget, rng: &mut Rng) -> (Answer, u64) {
        let seeds = self
            .seeds
            .get_or_insert_with(|| Rng::seed_from_u64(rng.random()));
        while self.rngs.len() < self.copies.len() {
            self.rngs.push(Rng::seed_from_u64(seeds.random()));
        }
        let share = Budget {
            max_nodes: budget.max_nodes.map(|m| m / self.copies.len() as u64),
            ..*budget
        };
        // The fewest nodes any copy has answered in so far.
        let best = AtomicU64::new(u64::MAX);
        let answers: Vec<(u64, Answer)> = std::thread::scope(|scope| {
            let runs: Vec<_> = self
                .copies
                .iter_mut()
                .zip(&mut self.rngs)
                .map(|(copy, rng)| {
                    let best = &best;
                    scope.spawn(move || run(copy, rng, &share, best))
                })
                .collect();
            runs.into_iter()
                .map(|run| run.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect()
        });
        let used = answers.iter().map(|a| a.0).sum();
        if answers.iter().all(|(_, a)| *a == Answer::Spent) {
            return (Answer::Spent, used);
        }
        let winner = answers
            .into_iter()
            .enumerate()
            .filter(|(_, (_, answer))| !matches!(answer, Answer::Unfinished | Answer::Spent))
            .min_by_key(|(_, (nodes, _))| *nodes);
        match winner {
            Some((w, (_, answer))) => {
                self.restart_all_but(w);
                (answer, used)
            }
            None => (Answer::Unfinished, used),
        }
    }
}

/// One copy's part of a race: steps until it settles something, its share is spent, or it has
/// used as many nodes as the best answer so far; its nodes and its answer.
fn run<S: Search>(copy: &mut S, rng: &mut Rng, share: &Budget, best: &AtomicU64) -> (u64, Answer) {
    let mut spent = 0u64;
    while !share.exhausted(spent) && spent < best.load(Ordering::Relaxed) {
        let (answer, nodes) = copy.step(&share.after(spent), rng);
        spent += nodes.max(1);
        match answer {
            Answer::Unfinished | Answer::Missed { .. } => {}
            Answer::Spent => return (spent, Answer::Spent),
            answer => {
                best.fetch_min(spent, Ordering::Relaxed);
                return (spent, answer);
            }
        }
    }
    (spent, Answer::Unfinished)
}
