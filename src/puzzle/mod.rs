//! Knight's-tour puzzles: a board with some move numbers given (the clues) whose completion to
//! a tour is unique, proved by an exhaustive count ([`crate::solve::joint::count`], stopped at
//! 2).
//!
//! A puzzle is made from a random tour: every move starts as a clue, and clues are taken away
//! in random order as long as the tour stays the only completion, until as many are left as
//! asked for. A clue whose removal cannot be proved harmless within the time left is kept. If
//! no clue can go and more remain than asked for, another tour is tried, until the time runs
//! out: then no puzzle is given, honestly.
//!
//! Written as a workbook ([`sheets`]: each puzzle on a practice board of
//! [`crate::template`], then the answers) or as CSV, JSON or text ([`formats`]).
//!
//! ```
//! use knights_tour::board::Board;
//! use knights_tour::puzzle::{make, Puzzle};
//! use knights_tour::solve::{rng_from_seed, Budget};
//! let board = Board::new(6, 6).unwrap();
//! let puzzle = make(board, 14, &mut rng_from_seed(3), &Budget::nodes(50_000_000)).unwrap();
//! assert_eq!(puzzle.clues.len(), 14);
//! assert!(puzzle.request().is_satisfied_by(&puzzle.solution));
//! ```

pub mod formats;
pub mod sheets;

use rand::seq::SliceRandom;

use crate::board::Board;
use crate::english::thousands;
use crate::solve::runner::{run, Plan};
use crate::solve::{joint, Budget, Constraint, Request, Rng};
use crate::tour::Tour;

/// A puzzle: its clues and the one tour that completes them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The board.
    pub board: Board,
    /// The move numbers given, by move number.
    pub clues: Vec<Constraint>,
    /// The only tour meeting the clues.
    pub solution: Tour,
}

impl Puzzle {
    /// The clues as a request (an open tour meeting them).
    pub fn request(&self) -> Request {
        Request {
            constraints: self.clues.clone(),
            ..Request::open(self.board)
        }
    }

    /// The given numbers by square index, 0 where the square is to be filled in.
    pub fn given(&self) -> Vec<u32> {
        let mut out = vec![0; self.board.len()];
        for c in &self.clues {
            out[self.board.index(c.square) as usize] = c.move_number;
        }
        out
    }
}

/// Why no puzzle was made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleError {
    /// The time (or node) limit came before a puzzle with a proved unique answer.
    #[error("no puzzle with a proved unique answer found within the time limit")]
    TimeLimit,
    /// At the rate the uniqueness proofs went so far, the ones still needed would take past
    /// the time limit: said at once, not when the limit comes.
    #[error(
        "no puzzle within the time limit: at the rate of the first {} uniqueness proofs ({} a \
         second), the {} or more still needed would take about {} s, and later ones (fewer \
         numbers given) take longer; a smaller board or more clues fit",
        thousands(*done), thousands(*rate), thousands(*needed), thousands(*eta)
    )]
    WillNotFit {
        /// Proofs done so far.
        done: u64,
        /// Proofs still needed at the least (a clue taken away each).
        needed: u64,
        /// Proofs a second so far.
        rate: u64,
        /// Seconds the rest would take at that rate.
        eta: u64,
    },
    /// The board has no tour, so no puzzle.
    #[error("{0}")]
    NoTour(String),
    /// More clues than squares, or none.
    #[error("a puzzle on {board} takes 1 to {squares} clues, not {clues}")]
    Clues {
        /// The board's name.
        board: String,
        /// Squares on the board.
        squares: usize,
        /// Clues asked for.
        clues: usize,
    },
}

/// The clue counts of `--difficulty`: a share of the squares (easy 40%, medium 30%, hard 22%).
pub fn clues_for(board: Board, difficulty: Difficulty) -> usize {
    let percent = match difficulty {
        Difficulty::Easy => 40,
        Difficulty::Medium => 30,
        Difficulty::Hard => 22,
    };
    (board.len() * percent).div_ceil(100).max(1)
}

/// How hard a puzzle is: fewer clues are harder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, clap::ValueEnum)]
pub enum Difficulty {
    /// 40% of the squares given.
    Easy,
    /// 30% given.
    #[default]
    Medium,
    /// 22% given.
    Hard,
}

impl Difficulty {
    /// The name `--difficulty` takes and the JSON gives.
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
        }
    }
}

/// A puzzle on `board` with `clues` clues, its answer proved unique, made from random tours
/// drawn with `rng` until `budget` runs out.
pub fn make(
    board: Board,
    clues: usize,
    rng: &mut Rng,
    budget: &Budget,
) -> Result<Puzzle, PuzzleError> {
    crate::solve::existence::open_tour(board).map_err(|e| PuzzleError::NoTour(e.to_string()))?;
    if clues == 0 || clues > board.len() {
        return Err(PuzzleError::Clues {
            board: board.to_string(),
            squares: board.len(),
            clues,
        });
    }
    let mut spent = 0u64;
    loop {
        if budget.exhausted(spent) {
            return Err(PuzzleError::TimeLimit);
        }
        let plan = Plan {
            timeout: budget
                .deadline
                .map(|d| d.saturating_duration_since(std::time::Instant::now())),
            max_nodes: Some(10_000_000),
            meter: budget.meter,
            ..Plan::default()
        };
        let source = run(&Request::open(board), &plan, rng, &mut |_| {});
        spent += source.report.nodes;
        let Some(tour) = source.tours().next().map(|a| a.tour.clone()) else {
            continue;
        };
        if let Some(puzzle) = thin_out(&tour, clues, rng, budget, &mut spent)? {
            return Ok(puzzle);
        }
    }
}

/// `count` puzzles on `board` with `clues` clues each, made one after the other from `rng` within
/// `budget` (shared by all of them); `progress` hears which one is being made.
pub fn make_many(
    board: Board,
    clues: usize,
    count: usize,
    rng: &mut Rng,
    budget: &Budget,
    progress: &mut dyn FnMut(usize),
) -> Result<Vec<Puzzle>, PuzzleError> {
    let mut out = Vec::with_capacity(count);
    for i in 0..count {
        progress(i + 1);
        out.push(make(board, clues, rng, budget)?);
    }
    Ok(out)
}

/// Proofs timed before the rate they go at says whether the rest can fit the time limit.
const PROOFS_BEFORE_ESTIMATE: u64 = 32;

/// Take clues away from `tour` (all its moves at first) in random order while its answer stays
/// unique, down to `clues`; `None` when it gets stuck above that, an error when the proofs
/// still needed cannot fit the time limit at the rate they went so far (they only get slower
/// as clues go, so the estimate errs on the hopeful side).
fn thin_out(
    tour: &Tour,
    clues: usize,
    rng: &mut Rng,
    budget: &Budget,
    spent: &mut u64,
) -> Result<Option<Puzzle>, PuzzleError> {
    let started = std::time::Instant::now();
    let board = tour.board();
    let mut kept: Vec<Constraint> = tour
        .squares()
        .enumerate()
        .map(|(i, square)| Constraint {
            move_number: i as u32 + 1,
            square,
        })
        .collect();
    let mut order: Vec<u32> = (1..=board.len() as u32).collect();
    order.shuffle(rng);
    for (proofs, k) in (0u64..).zip(order) {
        if kept.len() <= clues {
            break;
        }
        if budget.exhausted(*spent) {
            return Ok(None);
        }
        if let (PROOFS_BEFORE_ESTIMATE.., Some(deadline)) = (proofs, budget.deadline) {
            let each = started.elapsed().as_secs_f64() / proofs as f64;
            let needed = (kept.len() - clues) as u64;
            let eta = each * needed as f64;
            let left = deadline
                .saturating_duration_since(std::time::Instant::now())
                .as_secs_f64();
            if eta > left {
                return Err(PuzzleError::WillNotFit {
                    done: proofs,
                    needed,
                    rate: (1.0 / each.max(1e-9)) as u64,
                    eta: eta.ceil() as u64,
                });
            }
        }
        let trial: Vec<Constraint> = kept
            .iter()
            .copied()
            .filter(|c| c.move_number != k)
            .collect();
        let req = Request {
            constraints: trial.clone(),
            ..Request::open(board)
        };
        let counted = joint::count(&req, Some(2), &budget.after(*spent), |_| {});
        *spent += counted.nodes;
        if counted.exhaustive && counted.tours == 1 {
            kept = trial;
        }
    }
    Ok((kept.len() == clues).then(|| Puzzle {
        board,
        clues: kept,
        solution: tour.clone(),
    }))
}
