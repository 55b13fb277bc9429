//! Every (start, end) pair of a board answered: a tour from the start to the end, or the reason
//! none exists. This is the question of the Delphi program's companion, AllKnightsTours: "does
//! at least one tour exist from every square of an 8x8 chessboard to every other valid
//! square?" (yes: for all 2,048 ordered pairs of opposite colours, and for none of the 1,984 of
//! the same colour).
//!
//! Each pair gets one of five answers ([`Mark`]):
//! - a tour found by the backtracking search ([`crate::solve::backtrack`]);
//! - impossible by colour: a knight's move always changes the square's colour, so on a board
//!   with an even number of squares a tour's ends have opposite colours, and on an odd board
//!   both ends are on the corners' colour (it has one square more);
//! - impossible by another theorem ([`existence::open_tour_between`]: the outer ranks of a
//!   `4 x n` board, the exceptions of `3 x n` boards);
//! - no tour, proved by the exhaustive search running out of moves to try;
//! - not answered within the time limit (nothing proved).
//!
//! A tour from `s` to `e` walked backwards goes from `e` to `s`, so each unordered pair is
//! searched once. Searches run in passes with a node cap per pair that grows
//! [`PASS_GROWTH`]-fold, so a hard pair cannot starve the easy ones before the time limit, on
//! as many threads as the machine offers (at most [`MAX_THREADS`]). Each search draws its tie
//! order from its own stream of the seed (pair and pass), so the answers are the same whatever
//! the number of threads and the order in which they finish; only which pairs a time limit
//! leaves unanswered depends on the machine.
//!
//! ```
//! use knights_tour::board::Board;
//! use knights_tour::solve::pairs::{solve, Mark, PairsPlan};
//! let board = Board::new(5, 5).unwrap();
//! let pairs = solve(board, 1, &PairsPlan::default(), &mut |_| {}).unwrap();
//! let t = pairs.totals();
//! assert_eq!(t.found + t.colour + t.no_tour, 25 * 24);
//! assert_eq!(t.not_answered, 0);
//! let a1 = board.parse_square("a1").unwrap();
//! let e5 = board.parse_square("e5").unwrap();
//! assert_eq!(pairs.mark(a1, e5), Mark::Found);
//! assert!(pairs.tour(e5, a1).is_some_and(|t| t.start() == Some(e5)));
//! ```

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::board::{Board, Square};
use crate::english::thousands;
use crate::solve::backtrack::Backtrack;
use crate::solve::search::{self, Search as _};
use crate::solve::{existence, rng_from_seed, Budget, Meter, Request};
use crate::tour::Tour;

/// The most squares a board may have here: 144 (12x12, or 8x18) has 20,592 ordered pairs, a
/// matrix a sheet shows and a workbook holds with every tour in a row of its own.
pub const MAX_SQUARES: usize = 144;

/// Search nodes each pair may use in the first pass.
pub const FIRST_PASS_NODES: u64 = 1 << 16;

/// Growth of the per-pair node cap from one pass to the next.
pub const PASS_GROWTH: u64 = 4;

/// The most threads the searches run on.
pub const MAX_THREADS: usize = 8;

/// What a pair's cell says: the answer for one ordered (start, end) pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mark {
    /// A tour from the start to the end was found.
    Found,
    /// No tour: the two squares' colours rule it out.
    Colour,
    /// No tour: another theorem rules it out (the `4 x n` outer ranks, the `3 x n` exceptions).
    Theorem,
    /// No tour: an exhaustive search proved it.
    NoTour,
    /// The time limit came first: nothing is proved.
    NotAnswered,
    /// Start and end are the same square: not a pair.
    Same,
}

impl Mark {
    /// The answers a pair can get, in the order legends and totals list them.
    pub const ANSWERS: [Mark; 5] = [
        Mark::Found,
        Mark::Colour,
        Mark::Theorem,
        Mark::NoTour,
        Mark::NotAnswered,
    ];

    /// The one-character mark of a cell (matrix sheet and text output alike).
    pub fn glyph(self) -> &'static str {
        match self {
            Mark::Found => "✓",
            Mark::Colour => "·",
            Mark::Theorem => "×",
            // Not a cross: × (another theorem) and ✗ looked alike in a terminal.
            Mark::NoTour => "∅",
            Mark::NotAnswered => "?",
            Mark::Same => "—",
        }
    }

    /// The word used in csv and json (`answer`).
    pub fn word(self) -> &'static str {
        match self {
            Mark::Found => "found",
            Mark::Colour => "colour",
            Mark::Theorem => "theorem",
            Mark::NoTour => "no-tour",
            Mark::NotAnswered => "not-answered",
            Mark::Same => "same-square",
        }
    }

    /// What the mark means, for legends.
    pub fn meaning(self) -> &'static str {
        match self {
            Mark::Found => "a tour found",
            Mark::Colour => "impossible by colour",
            Mark::Theorem => "impossible by theorem",
            Mark::NoTour => "no tour, proved by exhaustive search",
            Mark::NotAnswered => "not answered within the time limit (one may exist)",
            Mark::Same => "the same square",
        }
    }
}

/// The answer for one unordered pair of distinct squares (tours run from the lower index).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Answer {
    Found(Tour),
    Colour,
    Theorem(String),
    NoTour,
    NotAnswered,
}

impl Answer {
    fn mark(&self) -> Mark {
        match self {
            Answer::Found(_) => Mark::Found,
            Answer::Colour => Mark::Colour,
            Answer::Theorem(_) => Mark::Theorem,
            Answer::NoTour => Mark::NoTour,
            Answer::NotAnswered => Mark::NotAnswered,
        }
    }
}

/// How to answer the pairs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairsPlan {
    /// Time allowed to the whole run (`None`: until every pair is answered).
    pub timeout: Option<Duration>,
    /// Threads to search on (0: as many as the machine offers, at most [`MAX_THREADS`]).
    pub threads: usize,
    /// Where the searches add their nodes, for a progress line.
    pub meter: Option<Meter>,
}

impl Default for PairsPlan {
    fn default() -> Self {
        PairsPlan {
            timeout: Some(crate::solve::runner::DEFAULT_TIMEOUT),
            threads: 0,
            meter: None,
        }
    }
}

/// How far a run has got, for a progress line: ordered pairs answered of all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Ordered pairs answered so far (found or proved impossible).
    pub answered: u64,
    /// Ordered pairs in all.
    pub total: u64,
    /// The search pass (from 1): later passes give each open pair more nodes.
    pub pass: u32,
}

/// How many ordered pairs got each answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Tours found.
    pub found: u64,
    /// Impossible by colour.
    pub colour: u64,
    /// Impossible by another theorem.
    pub theorem: u64,
    /// No tour, by exhaustive search.
    pub no_tour: u64,
    /// Not answered within the time limit.
    pub not_answered: u64,
}

impl Totals {
    /// The count for `mark` (0 for [`Mark::Same`]).
    pub fn of(&self, mark: Mark) -> u64 {
        match mark {
            Mark::Found => self.found,
            Mark::Colour => self.colour,
            Mark::Theorem => self.theorem,
            Mark::NoTour => self.no_tour,
            Mark::NotAnswered => self.not_answered,
            Mark::Same => 0,
        }
    }

    /// Every ordered pair of distinct squares.
    pub fn pairs(&self) -> u64 {
        self.found + self.colour + self.theorem + self.no_tour + self.not_answered
    }
}

/// Every pair of a board, answered.
#[derive(Clone, Debug)]
pub struct Pairs {
    board: Board,
    seed: u64,
    /// By unordered pair, see [`pair_index`].
    answers: Vec<Answer>,
    nodes: u64,
    passes: u32,
    elapsed: Duration,
}

/// Index of the unordered pair `{i, j}` (`i < j`) of square indices.
fn pair_index(i: u32, j: u32) -> usize {
    debug_assert!(i < j);
    (j as usize * (j as usize - 1)) / 2 + i as usize
}

impl Pairs {
    /// The board.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The seed the searches drew their tie orders from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Search nodes used in all.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Search passes made.
    pub fn passes(&self) -> u32 {
        self.passes
    }

    /// Time the run took.
    pub fn elapsed(&self) -> Duration {
        self.elapsed
    }

    fn answer(&self, start: Square, end: Square) -> Option<&Answer> {
        let (i, j) = (self.board.index(start), self.board.index(end));
        (i != j).then(|| &self.answers[pair_index(i.min(j), i.max(j))])
    }

    /// The answer for the ordered pair (start, end).
    pub fn mark(&self, start: Square, end: Square) -> Mark {
        self.answer(start, end).map_or(Mark::Same, Answer::mark)
    }

    /// The tour found from `start` to `end`, if any.
    pub fn tour(&self, start: Square, end: Square) -> Option<Tour> {
        match self.answer(start, end)? {
            Answer::Found(t) if t.start() == Some(start) => Some(t.clone()),
            Answer::Found(t) => Some(t.reversed()),
            _ => None,
        }
    }

    /// Why no tour joins `start` and `end`, in words; `None` when one was found.
    pub fn reason(&self, start: Square, end: Square) -> Option<String> {
        let board = self.board;
        let area = board.len();
        let answer = match self.answer(start, end) {
            None => return Some("start and end are the same square".into()),
            Some(a) => a,
        };
        Some(match answer {
            Answer::Found(_) => return None,
            Answer::Colour if area.is_multiple_of(2) => format!(
                "same colour: a knight's move always changes colour, so a tour of {} \
                 ({} moves, an odd number) ends on the colour opposite its start",
                thousands(area as u64),
                thousands(area as u64 - 1)
            ),
            Answer::Colour => format!(
                "{} has one more square of the corners' colour, so a tour (which alternates \
                 colours) starts and ends on it",
                crate::english::with_article(&board.to_string())
            ),
            Answer::Theorem(why) => why.clone(),
            Answer::NoTour => "an exhaustive search proved that no tour joins them".into(),
            Answer::NotAnswered => "not answered within the time limit; a tour may exist".into(),
        })
    }

    /// The squares in algebraic order (a1, a2, ..., b1, ...): the matrix's rows and columns.
    pub fn squares(&self) -> Vec<Square> {
        algebraic_order(self.board)
    }

    /// How many ordered pairs got each answer.
    pub fn totals(&self) -> Totals {
        let mut t = Totals::default();
        for a in &self.answers {
            let slot = match a {
                Answer::Found(_) => &mut t.found,
                Answer::Colour => &mut t.colour,
                Answer::Theorem(_) => &mut t.theorem,
                Answer::NoTour => &mut t.no_tour,
                Answer::NotAnswered => &mut t.not_answered,
            };
            *slot += 2;
        }
        t
    }

    /// Whether every pair is answered (found, or proved impossible).
    pub fn all_answered(&self) -> bool {
        self.totals().not_answered == 0
    }

    /// The answer in one line, as the Delphi question asks it: "8x8: a tour exists for all
    /// 2,048 pairs of opposite colours; none for the 1,984 of the same colour".
    pub fn answer_line(&self) -> String {
        answer_line(self.board, &self.totals())
    }
}

/// The squares of `board` in algebraic order: by file, then by rank (a1, a2, ..., b1, ...).
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::solve::pairs::algebraic_order;
/// let b = Board::new(3, 4).unwrap();
/// let names: Vec<String> = algebraic_order(b).iter().map(|&s| b.algebraic(s)).collect();
/// assert_eq!(&names[..4], ["a1", "a2", "a3", "b1"]);
/// ```
pub fn algebraic_order(board: Board) -> Vec<Square> {
    let rows = board.rows();
    (0..board.cols())
        .flat_map(|c| (0..rows).rev().map(move |r| Square::new(r, c)))
        .collect()
}

/// The one-line answer for `totals` on `board`.
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::solve::pairs::{answer_line, Totals};
/// let t = Totals { found: 2048, colour: 1984, ..Totals::default() };
/// assert_eq!(
///     answer_line(Board::new(8, 8).unwrap(), &t),
///     "8x8: a tour exists for all 2,048 pairs of opposite colours; none for the 1,984 of the same colour"
/// );
/// ```
pub fn answer_line(board: Board, t: &Totals) -> String {
    let odd = !board.len().is_multiple_of(2);
    let (kind, others) = if odd {
        (
            "pairs of squares of the corners' colour",
            format!(
                "none for the {} others (on an odd board a tour starts and ends on the corners' colour)",
                thousands(t.colour)
            ),
        )
    } else {
        (
            "pairs of opposite colours",
            format!("none for the {} of the same colour", thousands(t.colour)),
        )
    };
    let eligible = t.pairs() - t.colour;
    let head = if t.found == eligible {
        format!("a tour exists for all {} {kind}", thousands(t.found))
    } else {
        let mut rest = Vec::new();
        if t.no_tour > 0 {
            rest.push(format!(
                "{} proved to have none by exhaustive search",
                thousands(t.no_tour)
            ));
        }
        if t.theorem > 0 {
            rest.push(format!("{} ruled out by theorem", thousands(t.theorem)));
        }
        if t.not_answered > 0 {
            rest.push(format!(
                "{} not answered within the time limit",
                thousands(t.not_answered)
            ));
        }
        format!(
            "a tour exists for {} of the {} {kind} ({})",
            thousands(t.found),
            thousands(eligible),
            rest.join(", ")
        )
    };
    format!("{board}: {head}; {others}")
}

/// Why `pairs` does not answer `board`, or `Ok`: it must have an open tour (naming the theorem)
/// and at most [`MAX_SQUARES`] squares.
pub fn check_board(board: Board) -> Result<(), existence::Infeasible> {
    existence::open_tour(board)?;
    if board.len() > MAX_SQUARES {
        let n = board.len() as u64;
        return Err(existence::Infeasible {
            reason: format!(
                "{} has {} ordered pairs of squares; pairs answers boards of at most \
                 {MAX_SQUARES} squares (12x12, 8x18, ...), whose matrix a sheet shows",
                crate::english::a_board(board),
                thousands(n * (n - 1))
            ),
        });
    }
    Ok(())
}

/// Answer every pair of `board` (see the module doc), telling `progress` how far it got.
/// Refused boards are those of [`check_board`].
pub fn solve(
    board: Board,
    seed: u64,
    plan: &PairsPlan,
    progress: &mut dyn FnMut(Progress),
) -> Result<Pairs, existence::Infeasible> {
    check_board(board)?;
    let started = Instant::now();
    let deadline = plan.timeout.and_then(|t| started.checked_add(t));
    let n = board.len() as u32;
    let mut answers = Vec::new();
    let mut open = Vec::new();
    for j in 0..n {
        for i in 0..j {
            let (s, e) = (board.square_at(i), board.square_at(j));
            let answer = if colour_rules_out(board, s, e) {
                Answer::Colour
            } else if let Err(why) = existence::open_tour_between(board, s, e) {
                Answer::Theorem(why.reason)
            } else {
                open.push(pair_index(i, j));
                Answer::NotAnswered
            };
            answers.push(answer);
        }
    }
    let total = 2 * answers.len() as u64;
    let mut answered = total - 2 * open.len() as u64;
    let threads = match plan.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        t => t,
    }
    .clamp(1, MAX_THREADS);
    let mut nodes = 0u64;
    let mut cap = FIRST_PASS_NODES;
    let mut passes = 0u32;
    while !open.is_empty() && deadline.is_none_or(|d| Instant::now() < d) {
        passes += 1;
        progress(Progress {
            answered,
            total,
            pass: passes,
        });
        let budget = Budget {
            max_nodes: Some(cap),
            deadline,
            meter: plan.meter,
        };
        let task = PassTask {
            board,
            seed,
            pass: passes,
            budget,
            open: &open,
        };
        task.run(threads, &mut |k, result, used| {
            nodes += used;
            let idx = open[k];
            match result {
                search::Answer::Found { tour, .. } => {
                    answers[idx] = Answer::Found(tour);
                    answered += 2;
                }
                search::Answer::NoTour => {
                    answers[idx] = Answer::NoTour;
                    answered += 2;
                }
                _ => {}
            }
            progress(Progress {
                answered,
                total,
                pass: passes,
            });
        });
        // Out of budget, or kept from starting by the deadline: still open.
        open.retain(|&i| answers[i] == Answer::NotAnswered);
        cap = cap.saturating_mul(PASS_GROWTH);
    }
    Ok(Pairs {
        board,
        seed,
        answers,
        nodes,
        passes,
        elapsed: started.elapsed(),
    })
}

/// Whether the squares' colours alone rule out a tour from `s` to `e` (distinct squares): on an
/// even board they must differ, on an odd one both must be the corners' colour.
fn colour_rules_out(board: Board, s: Square, e: Square) -> bool {
    if board.len().is_multiple_of(2) {
        s.is_corner_colour() == e.is_corner_colour()
    } else {
        !s.is_corner_colour() || !e.is_corner_colour()
    }
}

/// One pass over the open pairs: each searched under the pass's node cap, on `threads` threads.
struct PassTask<'a> {
    board: Board,
    seed: u64,
    pass: u32,
    budget: Budget,
    /// Unordered pair indices still open, in order.
    open: &'a [usize],
}

impl PassTask<'_> {
    /// Search every open pair, handing `(position in open, answer, nodes)` to `done` on this
    /// thread as the answers come in.
    fn run(&self, threads: usize, done: &mut dyn FnMut(usize, search::Answer, u64)) {
        let next = AtomicUsize::new(0);
        let (tx, rx) = mpsc::channel::<(usize, search::Answer, u64)>();
        std::thread::scope(|scope| {
            for _ in 0..threads.min(self.open.len()) {
                let tx = tx.clone();
                let next = &next;
                scope.spawn(move || loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= self.open.len() || self.budget.exhausted(0) {
                        break;
                    }
                    let (result, used) = self.search(self.open[k]);
                    if tx.send((k, result, used)).is_err() {
                        break;
                    }
                });
            }
            drop(tx);
            for (k, result, used) in rx {
                done(k, result, used);
            }
        });
    }

    /// Search the unordered pair `idx` (tour from the lower square index to the higher). Odd
    /// passes grow the tour from the lower square, even ones from the higher: one direction
    /// is sometimes much easier than the other.
    fn search(&self, idx: usize) -> (search::Answer, u64) {
        let (i, j) = unpair(idx);
        let (s, e) = (self.board.square_at(i), self.board.square_at(j));
        let forward = self.pass % 2 == 1;
        let mut request = Request::open(self.board);
        (request.start, request.end) = if forward {
            (Some(s), Some(e))
        } else {
            (Some(e), Some(s))
        };
        let mut rng = rng_from_seed(self.seed);
        rng.set_stream((idx as u64) << 8 | u64::from(self.pass & 0xff));
        let (result, used) = Backtrack::shuffled(&request).step(&self.budget, &mut rng);
        let result = match result {
            search::Answer::Found { tour, by } if !forward => search::Answer::Found {
                tour: tour.reversed(),
                by,
            },
            other => other,
        };
        (result, used)
    }
}

/// The squares `(i, j)`, `i < j`, of unordered pair `idx` ([`pair_index`]'s inverse).
fn unpair(idx: usize) -> (u32, u32) {
    // j is the largest with j(j-1)/2 <= idx.
    let mut j = (((8 * idx + 1) as f64).sqrt() as usize).div_ceil(2).max(1);
    while j * (j - 1) / 2 > idx {
        j -= 1;
    }
    while (j + 1) * j / 2 <= idx {
        j += 1;
    }
    ((idx - j * (j - 1) / 2) as u32, j as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pair_indices_round_trip() {
        let mut k = 0;
        for j in 1..200u32 {
            for i in 0..j {
                assert_eq!(pair_index(i, j), k);
                assert_eq!(unpair(k), (i, j));
                k += 1;
            }
        }
    }

    #[test]
    fn colours_rule_out_pairs_on_even_and_odd_boards() {
        let b8 = Board::new(8, 8).unwrap();
        let sq = |b: Board, s: &str| b.parse_square(s).unwrap();
        assert!(colour_rules_out(b8, sq(b8, "a1"), sq(b8, "h8")));
        assert!(!colour_rules_out(b8, sq(b8, "a1"), sq(b8, "a8")));
        let b5 = Board::new(5, 5).unwrap();
        assert!(!colour_rules_out(b5, sq(b5, "a1"), sq(b5, "e5")));
        assert!(colour_rules_out(b5, sq(b5, "a1"), sq(b5, "a2")));
        assert!(colour_rules_out(b5, sq(b5, "b1"), sq(b5, "a2")));
    }

    #[test]
    fn the_answer_line_says_what_was_not_found() {
        let b = Board::new(5, 5).unwrap();
        let t = Totals {
            found: 84,
            colour: 444,
            no_tour: 72,
            ..Totals::default()
        };
        assert_eq!(
            answer_line(b, &t),
            "5x5: a tour exists for 84 of the 156 pairs of squares of the corners' colour (72 \
             proved to have none by exhaustive search); none for the 444 others (on an odd board \
             a tour starts and ends on the corners' colour)"
        );
        let t = Totals {
            found: 100,
            colour: 120,
            not_answered: 20,
            ..Totals::default()
        };
        let line = answer_line(Board::new(4, 5).unwrap(), &t);
        assert!(
            line.contains("100 of the 120 pairs of opposite colours (20 not answered"),
            "{line}"
        );
    }

    #[test]
    fn a_time_limit_leaves_pairs_not_answered_and_says_so() {
        let board = Board::new(5, 12).unwrap();
        let plan = PairsPlan {
            timeout: Some(Duration::from_millis(1)),
            ..PairsPlan::default()
        };
        let pairs = solve(board, 1, &plan, &mut |_| {}).unwrap();
        let t = pairs.totals();
        assert_eq!(t.pairs(), 60 * 59);
        assert!(t.not_answered > 0, "{t:?}");
        assert!(!pairs.all_answered());
        assert!(pairs
            .answer_line()
            .contains("not answered within the time limit"));
    }

    #[test]
    fn boards_without_a_tour_or_too_big_are_refused() {
        let e = check_board(Board::new(4, 4).unwrap()).unwrap_err();
        assert!(e.reason.contains("4x4"), "{e}");
        let e = check_board(Board::new(13, 13).unwrap()).unwrap_err();
        assert!(e.reason.contains("28,392"), "{e}");
        assert!(check_board(Board::new(12, 12).unwrap()).is_ok());
    }
}
