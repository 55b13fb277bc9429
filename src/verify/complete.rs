//! `verify --complete`: extend every failed attempt (a `partial` board, grid or list) to a full
//! tour that keeps the person's moves, or prove that none exists.
//!
//! The person's moves `1..=k` are kept exactly; only moves `k+1..` are searched, by the
//! exhaustive backtracking search ([`crate::solve::backtrack::complete`], Warnsdorff order with
//! pruning), which either finds a completion or proves there is none. It only gives up when
//! the [`Budget`] runs out.
//!
//! Most failed Warnsdorff attempts end *stuck*: every square a knight's move from the last one
//! is already visited. No tour can keep such a path, so those sheets get
//! [`Completion::NoCompletion`] at once with `dead_end: true` (no search needed). A path whose
//! knight can still move is searched; it may or may not have a completion.
//!
//! The board completed is the one the verifier found. A failed attempt typed without borders
//! whose numbers do not reach every edge of the board is read as the bounding box of its
//! numbers (see [`crate::verify::notation`]); give `--range` (here [`VerifyOptions::range`]) to
//! complete it on the full board.
//!
//! [`VerifyOptions::range`]: crate::verify::VerifyOptions::range
//!
//! ```
//! use knights_tour::board::{Board, Square};
//! use knights_tour::solve::backtrack::Budget;
//! use knights_tour::tour::Tour;
//! use knights_tour::verify::complete::{complete_tour, Completion};
//! let board = Board::new(5, 5).unwrap();
//! let prefix = Tour::from_squares(board, [Square::new(0, 0), Square::new(1, 2)]).unwrap();
//! match complete_tour(&prefix, &Budget::unlimited()) {
//!     Completion::Completed { original, completed } => {
//!         assert_eq!(&completed.indices()[..2], original.indices());
//!         assert!(completed.is_complete());
//!     }
//!     other => panic!("{other:?}"),
//! }
//! ```

use std::path::Path;

use crate::error::Result;
use crate::output::write_budget::WriteBudget;
use crate::solve::runner::{self, Ending, Goal, Plan};
use crate::solve::{rng_from_seed, Budget, Method, Request};
use crate::tour::Tour;
use crate::verify::completion::{write_completions_within, CompletedSheet, SheetResult};
use crate::verify::{BoardReport, FileReport, Verdict};
use crate::workbook::cellref::CellRef;

/// Search nodes `verify --complete` spends on one sheet before giving up: about 5 seconds in
/// a release build (the search places roughly 4.5 million squares a second), and the answer
/// is the same on every machine, unlike a time limit. The 8x8 prefixes in the tests need far
/// fewer.
pub const DEFAULT_NODE_BUDGET: u64 = 20_000_000;

/// What became of one sheet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Completion {
    /// A full tour whose first `original.len()` moves are the person's.
    Completed {
        /// The person's path (moves `1..=k`).
        original: Tour,
        /// The full tour: `original` followed by the added moves.
        completed: Tour,
    },
    /// No tour starts with the person's moves: proved, either because the knight is stuck
    /// (`dead_end`: every square a knight's move from the last one is visited) or by an
    /// exhaustive search of every continuation.
    NoCompletion {
        /// The person's path.
        original: Tour,
        /// `true` if the knight has no unvisited square to move to (no search was needed).
        dead_end: bool,
    },
    /// The search spent its budget without an answer.
    GaveUp {
        /// Search nodes used.
        nodes: u64,
    },
    /// The sheet is not a failed attempt to complete (already a tour, invalid, no board).
    NotApplicable(String),
}

impl Completion {
    /// One short phrase for reports: `completed (12 moves added)`, `no completion exists ...`.
    pub fn describe(&self) -> String {
        match self {
            Completion::Completed {
                original,
                completed,
            } => format!(
                "completed: kept moves 1-{}, added moves {}-{}",
                original.len(),
                original.len() + 1,
                completed.len()
            ),
            Completion::NoCompletion { original, dead_end } => {
                let board = original.board();
                let end = original
                    .end()
                    .map(|s| board.algebraic(s))
                    .unwrap_or_default();
                if *dead_end {
                    format!(
                        "no completion exists: after move {} on {end} every square a knight's move away is already visited",
                        original.len()
                    )
                } else {
                    format!(
                        "no completion exists: an exhaustive search found no tour that keeps moves 1-{}",
                        original.len()
                    )
                }
            }
            Completion::GaveUp { nodes } => {
                format!("gave up after searching {nodes} positions (unknown whether a completion exists)")
            }
            Completion::NotApplicable(why) => format!("not completed: {why}"),
        }
    }
}

/// Extend `prefix` (the person's moves) to a complete tour of its board, keeping every move.
///
/// A stuck prefix gives `NoCompletion { dead_end: true }` without searching.
pub fn complete_tour(prefix: &Tour, budget: &Budget) -> Completion {
    if prefix.is_empty() {
        return Completion::NotApplicable("the path has no moves".to_string());
    }
    if prefix.is_complete() {
        return Completion::NotApplicable("the path is already a complete tour".to_string());
    }
    if prefix.is_stuck() {
        return Completion::NoCompletion {
            original: prefix.clone(),
            dead_end: true,
        };
    }
    let req = Request::open(prefix.board());
    let now = std::time::Instant::now();
    let plan = Plan {
        method: Method::Backtrack,
        goal: Goal::Complete(prefix.clone()),
        max_nodes: budget.max_nodes,
        timeout: budget.deadline.map(|d| d.saturating_duration_since(now)),
        meter: budget.meter,
        ..Plan::default()
    };
    // The search is deterministic: the generator is never drawn from.
    let outcome = runner::run(&req, &plan, &mut rng_from_seed(0), &mut |_| {});
    match (outcome.attempts.into_iter().next(), outcome.report.ending) {
        (Some(found), _) => Completion::Completed {
            original: prefix.clone(),
            completed: found.tour,
        },
        (None, Ending::NoTour) => Completion::NoCompletion {
            original: prefix.clone(),
            dead_end: false,
        },
        (None, _) => Completion::GaveUp {
            nodes: outcome.report.nodes,
        },
    }
}

/// Complete the failed attempt on one verified board (verdict `partial`).
pub fn complete_board(report: &BoardReport, budget: &Budget) -> Completion {
    match report.verdict {
        Verdict::Partial => {}
        Verdict::Open | Verdict::Closed => {
            return Completion::NotApplicable("it is already a complete tour".to_string())
        }
        Verdict::Invalid => {
            return Completion::NotApplicable(
                "the board is invalid (see the problems), not a failed attempt".to_string(),
            )
        }
        Verdict::Unfinished => {
            return Completion::NotApplicable(
                "the board is unfinished (numbers missing between those typed), not an attempt from move 1"
                    .to_string(),
            )
        }
        Verdict::NoBoard => return Completion::NotApplicable("there is no board".to_string()),
    }
    match &report.tour {
        Some(tour) => complete_tour(tour, budget),
        None => Completion::NotApplicable("no knight's path was read".to_string()),
    }
}

/// One sheet's completion, with where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SheetCompletion {
    /// The source file, as labelled in its report.
    pub file: String,
    /// The source sheet's name.
    pub sheet: String,
    /// The board's top-left cell on the source sheet, if there is a board.
    pub top_left: Option<CellRef>,
    /// What became of it.
    pub completion: Completion,
}

/// Complete every `partial` board of a verified file. Every sheet gets at least one entry, in
/// order: boards that are not failed attempts (and sheets without a board) are
/// [`Completion::NotApplicable`] saying what they are, so the summary accounts for every one
/// (but a program's own quiet table, `generate`'s Summary).
pub fn complete_file(report: &FileReport, budget: &Budget) -> Vec<SheetCompletion> {
    let mut out = Vec::new();
    for s in report.sheets.iter().filter(|s| !s.quiet) {
        if s.boards.is_empty() {
            out.push(SheetCompletion {
                file: report.file.clone(),
                sheet: s.sheet.clone(),
                top_left: None,
                completion: Completion::NotApplicable(
                    s.note
                        .clone()
                        .unwrap_or_else(|| "there is no board".to_string()),
                ),
            });
        }
        for b in &s.boards {
            out.push(SheetCompletion {
                file: report.file.clone(),
                sheet: s.sheet.clone(),
                top_left: Some(b.board.top_left),
                completion: complete_board(b, budget),
            });
        }
    }
    out
}

/// The writer's view of the completions: completed boards and one summary line each.
pub fn to_written(items: &[SheetCompletion]) -> Vec<CompletedSheet> {
    items
        .iter()
        .map(|c| CompletedSheet {
            file: c.file.clone(),
            sheet: c.sheet.clone(),
            top_left: c.top_left.unwrap_or(CellRef::new(2, 2)),
            result: match &c.completion {
                Completion::Completed {
                    original,
                    completed,
                } => SheetResult::Completed {
                    tour: completed.clone(),
                    kept: original.len(),
                },
                Completion::NoCompletion { .. } => {
                    SheetResult::NoCompletion(c.completion.describe())
                }
                Completion::GaveUp { .. } => SheetResult::GaveUp(c.completion.describe()),
                Completion::NotApplicable(_) => SheetResult::NotApplicable(c.completion.describe()),
            },
        })
        .collect()
}

/// Write the completions to `path` atomically (refusing to replace a file unless `force`):
/// one worksheet per completed board and a summary sheet listing every item. The workbook is
/// written even when nothing could be completed (the summary then says why).
pub fn save_completions(
    path: &Path,
    items: &[SheetCompletion],
    force: bool,
    budget: &WriteBudget<'_>,
) -> Result<()> {
    let written = to_written(items);
    crate::output::write_atomically_with(path, force, budget, |out| {
        write_completions_within(&written, out, budget).map_err(|e| e.at(path))
    })
}

/// What `verify --complete OUT` does after verifying: complete the `partial` sheets of every
/// report (each gets `budget`) and write them to `out` within `writing` (see
/// [`save_completions`]); with no failed attempt at all nothing is written. Returns every
/// sheet's completion, in file and sheet order.
pub fn complete_reports(
    reports: &[FileReport],
    out: &Path,
    force: bool,
    budget: &Budget,
    writing: &WriteBudget<'_>,
) -> Result<Vec<SheetCompletion>> {
    let items: Vec<SheetCompletion> = reports
        .iter()
        .flat_map(|r| complete_file(r, budget))
        .collect();
    // With no failed attempt at all the workbook would hold a Summary and nothing else.
    if items
        .iter()
        .any(|c| !matches!(c.completion, Completion::NotApplicable(_)))
    {
        save_completions(out, &items, force, writing)?;
    }
    Ok(items)
}

/// The text `verify --complete` prints: one line per failed attempt (`FILE, sheet 'S':
/// completed: ...` / `no completion exists: ...` / `gave up ...`), then where the workbook
/// went. Sheets that are not failed attempts are left out (the verdicts already say what
/// they are).
///
/// ```
/// use knights_tour::verify::complete::{render_completions, Completion, SheetCompletion};
/// let items = [SheetCompletion {
///     file: "a.xlsx".into(),
///     sheet: "Tour 1".into(),
///     top_left: None,
///     completion: Completion::NotApplicable("it is already a complete tour".into()),
/// }];
/// let text = render_completions(&items, std::path::Path::new("out.xlsx"));
/// assert!(text.contains("no failed attempt to complete"), "{text}");
/// ```
pub fn render_completions(items: &[SheetCompletion], out: &Path) -> String {
    let mut text = String::new();
    let mut failed = 0;
    let mut done = 0;
    for c in items {
        if matches!(c.completion, Completion::NotApplicable(_)) {
            continue;
        }
        failed += 1;
        if matches!(c.completion, Completion::Completed { .. }) {
            done += 1;
        }
        let board = c
            .top_left
            .map(|t| format!(", board at {t}"))
            .unwrap_or_default();
        text.push_str(&format!(
            "{}, sheet '{}'{board}: {}\n",
            c.file,
            c.sheet,
            c.completion.describe()
        ));
    }
    if failed == 0 {
        text.push_str(&format!(
            "no failed attempt to complete: nothing written to {}\n",
            out.display()
        ));
    } else {
        text.push_str(&format!(
            "completed {done} of {failed} failed attempts; wrote {}\n",
            out.display()
        ));
    }
    text
}
