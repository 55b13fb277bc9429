//! Writing generated tours into an `.xlsx` workbook, the way the original Excel macro did: one
//! worksheet per attempt with the board at `C3`, squares numbered in move order and the start
//! square filled yellow, then a `Summary` sheet that says "Solved after N attempts".
//!
//! # Layout of a workbook
//!
//! - A tour built by hand (`--method hand`) is preceded by its steps, a sheet each
//!   (`Step 1 - the edges`, `Step 2 - a cycle`, `Step 3 - insertions`: see [`hand_sheets`]).
//! - One worksheet per attempt, in order. Its name tells at a glance how it ended:
//!   `Tour 1` (solved), `Attempt 2 (stuck)` (the knight had no unvisited square to jump to),
//!   `Attempt 3 (stopped)` (partial, but the knight could have gone on: the search gave up),
//!   `Attempt 4 (not closed)` (complete but not re-entrant when a closed tour was asked for),
//!   `Attempt 5 (failed)` (anything else). See [`sheet_name`] and [`Outcome`].
//! - On a tour sheet the board's top-left square is at [`WorkbookSpec::top_left`] (`C3` by
//!   default). Board cells hold the move numbers `1..=k` **as numbers**; unvisited squares are
//!   blank. The start square has a solid yellow (`FFFF00`) fill; on a failed partial attempt the
//!   square where the knight got stuck has a red (`FF7C80`) fill and border, and a note beside
//!   the board says so. Cells are square: the column width and row height are set in pixels
//!   (the height 3% over the width, because LibreOffice draws stored column widths about 6%
//!   wider than Excel does), with a font and cell size that fit the largest move number, and
//!   the sheet opens at a zoom that shows the whole board when that keeps it readable.
//!   Everything else on a tour sheet is text (title, file letters above the board, the notes
//!   panel), so a reader looking for numbers finds exactly the board.
//! - Optionally (see [`PathDrawing`]) the knight's path is drawn over the board as a
//!   transparent native line chart, and the board gets a colour scale by move number that
//!   leaves the yellow start square (and the red stuck square) alone.
//! - `Summary`: the title, the overall result line ("Solved after 3 attempts"), the options and
//!   seed, then from row [`SUMMARY_HEADER_ROW`](crate::workbook::write::names::SUMMARY_HEADER_ROW) a table with one row per attempt (columns
//!   [`SUMMARY_COLUMNS`](crate::workbook::write::names::SUMMARY_COLUMNS)), whose sheet name links to the attempt's board.
//! - `Path data` (hidden, only when a path is drawn): the charts' values, one row per chart
//!   series, each path's rows together, each row's label after its values (`Tour 1 path 3`):
//!   column `k` holds the height (`rows - row - 0.5` at a square's centre) where the line
//!   crosses category `k`, half a square from the left edge each; see `workbook/write/chart.rs` for why the
//!   path is cut into such rows.
//!
//! Big boards (at least [`CONSTANT_MEMORY_SQUARES`](crate::workbook::write::CONSTANT_MEMORY_SQUARES) squares) are written in rust_xlsxwriter's
//! constant-memory mode, row by row, so a 1000x1000 tour needs a few megabytes of memory beside
//! the tour itself, and only one format lookup per board row (see `benches/workbook.rs`: about
//! as fast as writing the same numbers as plain integers).
//!
//! The document properties record the title, the boards and result (subject) and the command
//! line with the seed (comment). The creation time is fixed unless given, so the same spec
//! always gives the same bytes. [`save_workbook`] writes to a path atomically.
//!
//! ```
//! use knights_tour::board::{Board, Square};
//! use knights_tour::tour::Tour;
//! use knights_tour::solve::{Attempt, Method};
//! use knights_tour::generate::workbook::{write_workbook, WorkbookSpec};
//!
//! let board = Board::new(3, 4).unwrap();
//! let path = [(0,0),(1,2),(2,0),(0,1),(1,3),(2,1),(0,2),(2,3),(1,1),(0,3),(2,2),(1,0)];
//! let tour = Tour::from_squares(board, path.iter().map(|&(r, c)| Square::new(r, c))).unwrap();
//! let spec = WorkbookSpec::new(vec![Attempt::new(tour, true, Method::Warnsdorff)]);
//! let mut bytes = std::io::Cursor::new(Vec::new());
//! write_workbook(&spec, &mut bytes).unwrap();
//! assert!(bytes.get_ref().starts_with(b"PK"));
//! ```

use std::io::Write;
use std::path::Path;
use std::time::SystemTime;

use rust_xlsxwriter::{DocProperties, Workbook};

use super::{hand_sheets, summary_sheet, tour_sheets};
use crate::board::Board;
use crate::output::write_budget::{Work, WriteBudget};
use crate::solve::Attempt;
use crate::workbook::cellref::{CellRef, SHEET_COLS, SHEET_ROWS};
use crate::workbook::write::names::MAX_SHEET_NAME;
use crate::workbook::write::{
    chart, check_fits, compress, creation_time, excel_time, zip_estimate, WriteError,
};

/// Under [`PathDrawing::Auto`] the path chart is drawn on boards with at most this many rows
/// and at most this many columns; beyond that a line through every square is unreadable.
pub const AUTO_CHART_MAX_SIDE: u32 = 30;

/// Under [`PathDrawing::Auto`] the colour scale is applied to boards with at most this many
/// squares; spreadsheet programs get slow evaluating it over millions of cells.
pub const AUTO_COLOUR_SCALE_MAX_SQUARES: usize = 65_536;

/// At most this many attempts get a path chart (the hidden `Path data` sheet has room for
/// the rows of many more small boards; this bounds the charts a workbook holds).
pub const MAX_CHARTED_ATTEMPTS: usize = (SHEET_COLS / 2) as usize;

/// How an attempt ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The attempt satisfied the request.
    Solved,
    /// The path is partial and the knight had nowhere left to go: every square a knight's move
    /// from the last one is already visited.
    Stuck,
    /// The path is partial but the knight could still move: the search gave up (a limit).
    Stopped,
    /// The path is complete but not closed although a closed tour was asked for.
    NotClosed,
    /// Complete but rejected for another reason (e.g. a constraint not met).
    Failed,
}

impl Outcome {
    /// How `attempt` ended; `closed_requested` makes a complete open path "not closed".
    pub fn of(attempt: &Attempt, closed_requested: bool) -> Outcome {
        if attempt.solved {
            Outcome::Solved
        } else if !attempt.tour.is_complete() {
            if attempt.tour.is_stuck() {
                Outcome::Stuck
            } else {
                Outcome::Stopped
            }
        } else if closed_requested && !attempt.tour.is_closed() {
            Outcome::NotClosed
        } else {
            Outcome::Failed
        }
    }

    /// The word used in the summary: `solved`, `stuck`, `not closed`, `failed`.
    pub fn word(self) -> &'static str {
        match self {
            Outcome::Solved => "solved",
            Outcome::Stuck => "stuck",
            Outcome::Stopped => "stopped",
            Outcome::NotClosed => "not closed",
            Outcome::Failed => "failed",
        }
    }
}

/// Whether to add an optional decoration to tour sheets (the path chart, or the colour scale).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum PathDrawing {
    /// Only where it stays readable and fast: the chart up to [`AUTO_CHART_MAX_SIDE`] squares a
    /// side, the colour scale up to [`AUTO_COLOUR_SCALE_MAX_SQUARES`] squares.
    #[default]
    Auto,
    /// Never.
    Off,
    /// Whatever the board's size, where the charts fit: Excel draws 255 series a chart and a
    /// path takes about two for every square of a side, so a path needing more charts
    /// than there are rows above the board to anchor them (over about 350 squares a side at
    /// `C3`), or a board over 8,191 columns, is not drawn.
    On,
}

/// Everything [`write_workbook`] needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkbookSpec {
    /// The attempts, one worksheet each, in order. At least one.
    pub attempts: Vec<Attempt>,
    /// Where each board's top-left square goes (`C3` by default, as in the macro).
    pub top_left: CellRef,
    /// The seed the attempts were generated with (shown on every sheet and in the summary);
    /// `None` when no random choice was made (`--all` enumerates in a fixed order).
    pub seed: Option<u64>,
    /// Workbook title (document properties and the summary's first line).
    pub title: String,
    /// The command's options, recorded in the document properties and the summary so the
    /// workbook says how to make it again.
    pub command_line: String,
    /// Whether to draw the knight's path over the board as a chart.
    pub draw_path: PathDrawing,
    /// Whether to colour the board by move number.
    pub colour_scale: PathDrawing,
    /// Whether a closed tour was asked for (a complete open path then counts as "not closed").
    pub closed_requested: bool,
    /// The creation time recorded in the document properties. `None` records the time of
    /// writing, or `SOURCE_DATE_EPOCH` when that is set (see [`creation_time`]), so builds
    /// that set it get byte-identical files.
    pub created: Option<SystemTime>,
}

impl WorkbookSpec {
    /// A spec with the defaults: board at `C3`, seed 0, title "Knight's tour", decorations
    /// [`PathDrawing::Auto`], open tours, created when written.
    pub fn new(attempts: Vec<Attempt>) -> WorkbookSpec {
        WorkbookSpec {
            attempts,
            top_left: CellRef::new(2, 2),
            seed: None,
            title: "Knight's tour".to_string(),
            command_line: String::new(),
            draw_path: PathDrawing::Auto,
            colour_scale: PathDrawing::Auto,
            closed_requested: false,
            created: None,
        }
    }

    /// The overall result line of the summary, as the macro said it: `Solved after 3 attempts`
    /// when the last attempt solved it, `Failed after 10 attempts` when none did, and
    /// `2 tours found in 5 attempts` when several did.
    pub fn result_line(&self) -> String {
        let n = self.attempts.len();
        let solved = self.attempts.iter().filter(|a| a.solved).count();
        let plural = |k: usize, word: &str| {
            if k == 1 {
                format!("{k} {word}")
            } else {
                format!("{k} {word}s")
            }
        };
        match solved {
            0 => format!("Failed after {}", plural(n, "attempt")),
            1 if self.attempts.last().is_some_and(|a| a.solved) => {
                format!("Solved after {}", plural(n, "attempt"))
            }
            _ => format!(
                "{} found in {}",
                plural(solved, "tour"),
                plural(n, "attempt")
            ),
        }
    }
}

/// The worksheet name of attempt `number` (from 1): `Tour N` when solved, otherwise
/// `Attempt N (stuck)`, `Attempt N (not closed)` or `Attempt N (failed)`. Names are unique
/// (they carry the number), at most 31 characters and free of `[]:*?/\`, as Excel requires.
///
/// ```
/// use knights_tour::generate::workbook::{sheet_name, Outcome};
/// assert_eq!(sheet_name(1, Outcome::Solved), "Tour 1");
/// assert_eq!(sheet_name(2, Outcome::Stuck), "Attempt 2 (stuck)");
/// ```
pub fn sheet_name(number: usize, outcome: Outcome) -> String {
    let full = match outcome {
        Outcome::Solved => format!("Tour {number}"),
        other => format!("Attempt {number} ({})", other.word()),
    };
    if full.len() <= MAX_SHEET_NAME {
        return full;
    }
    let short = format!("{number} ({})", outcome.word());
    if short.len() <= MAX_SHEET_NAME {
        short
    } else {
        number.to_string()
    }
}

/// Write the workbook described by `spec` to `out` (a file, or any writer: rust_xlsxwriter
/// streams the zip, no seeking needed). Boards are checked to fit before anything is written.
///
/// The same spec gives the same bytes when its creation time is fixed
/// ([`WorkbookSpec::created`], or `SOURCE_DATE_EPOCH`).
pub fn write_workbook<W: Write + Send>(spec: &WorkbookSpec, out: W) -> Result<(), WriteError> {
    let budget = WriteBudget::unlimited();
    let mut workbook = build_workbook(spec, &budget)?;
    compress(&mut workbook, out, &budget, estimated_bytes(spec))?;
    Ok(())
}

/// The workbook of `spec`, its rows counted against `budget`.
fn build_workbook(spec: &WorkbookSpec, budget: &WriteBudget<'_>) -> Result<Workbook, WriteError> {
    validate(spec)?;
    let mut workbook = Workbook::new();
    workbook.set_properties(&properties(spec)?);
    let outcomes: Vec<Outcome> = spec
        .attempts
        .iter()
        .map(|a| Outcome::of(a, spec.closed_requested))
        .collect();
    let names: Vec<String> = outcomes
        .iter()
        .enumerate()
        .map(|(i, &o)| sheet_name(i + 1, o))
        .collect();
    let rows = spec
        .attempts
        .iter()
        .map(|a| a.tour.board().rows())
        .map(u64::from);
    let _stage = budget.stage(Work::Rows, rows.sum());
    let mut paths = chart::PathData::default();
    let mut slots: Vec<Option<usize>> = vec![None; spec.attempts.len()];
    for i in charted_attempts(spec) {
        let tour = &spec.attempts[i].tour;
        let rows_above = spec.top_left.row;
        slots[i] = paths.add(&names[i], tour, chart::Drawing::OverCells, rows_above);
    }
    let several_hand = spec.attempts.iter().filter(|a| a.steps.is_some()).count() > 1;
    for (i, attempt) in spec.attempts.iter().enumerate() {
        if let Some(built) = &attempt.steps {
            let steps = hand_sheets::step_sheet_names(i + 1, several_hand);
            hand_sheets::add_step_sheets(&mut workbook, spec, built, &steps, &names[i])?;
        }
        let sheet = tour_sheets::TourSheet {
            spec,
            attempt,
            number: i + 1,
            name: &names[i],
            outcome: outcomes[i],
            drawn: slots[i].map(|slot| (&paths, slot)),
        };
        sheet.add_to(&mut workbook, budget)?;
    }
    summary_sheet::add_summary(&mut workbook, spec, &names, &outcomes)?;
    // Open on the tour, not on the failed attempts before it (a hand-built tour's workbook
    // opens on its first step, as it is meant to be read).
    if let Some(i) = spec.attempts.iter().position(|a| a.solved) {
        if i > 0 && spec.attempts[..=i].iter().all(|a| a.steps.is_none()) {
            workbook.worksheet_from_name(&names[i])?.set_active(true);
        }
    }
    if !paths.is_empty() {
        paths.write(&mut workbook)?;
    }
    Ok(workbook)
}

fn estimated_bytes(spec: &WorkbookSpec) -> u64 {
    let cells = spec.attempts.iter().map(|a| a.tour.len() as u64).sum();
    zip_estimate(cells, spec.attempts.len() as u64 + 1)
}

/// Write the workbook to `path` atomically (a temp file beside it, renamed into place once
/// complete), refusing to replace an existing file unless `force`, within `budget` (the
/// deadline and the progress line: see [`crate::output::write_budget`]). Errors name the file; a board that
/// does not fit is a usage error. This is what `knights-tour generate` calls.
///
/// ```
/// use knights_tour::board::{Board, Square};
/// use knights_tour::tour::Tour;
/// use knights_tour::solve::{Attempt, Method};
/// use knights_tour::generate::workbook::{save_workbook, WorkbookSpec};
/// use knights_tour::output::write_budget::WriteBudget;
///
/// let board = Board::new(3, 4).unwrap();
/// let path = [(0,0),(1,2),(2,0),(0,1),(1,3),(2,1),(0,2),(2,3),(1,1),(0,3),(2,2),(1,0)];
/// let tour = Tour::from_squares(board, path.iter().map(|&(r, c)| Square::new(r, c))).unwrap();
/// let spec = WorkbookSpec::new(vec![Attempt::new(tour, true, Method::Warnsdorff)]);
/// let dir = tempfile::tempdir().unwrap();
/// let out = dir.path().join("tour.xlsx");
/// let budget = WriteBudget::unlimited();
/// save_workbook(&spec, &out, false, &budget).unwrap();
/// assert!(save_workbook(&spec, &out, false, &budget).is_err(), "kept without force");
/// ```
pub fn save_workbook(
    spec: &WorkbookSpec,
    path: &Path,
    force: bool,
    budget: &WriteBudget<'_>,
) -> crate::error::Result<()> {
    validate(spec).map_err(|e| e.at(path))?;
    crate::output::write_atomically_with(path, force, budget, |out| {
        let mut workbook = build_workbook(spec, budget).map_err(|e| e.at(path))?;
        compress(&mut workbook, out, budget, estimated_bytes(spec))
            .map_err(|e| WriteError::from(e).at(path))
    })
}

/// Refuse a spec we cannot write before creating anything.
fn validate(spec: &WorkbookSpec) -> Result<(), WriteError> {
    if spec.attempts.is_empty() {
        return Err(WriteError::NoAttempts);
    }
    for (i, a) in spec.attempts.iter().enumerate() {
        check_fits(a.tour.board(), spec.top_left).map_err(|source| WriteError::DoesNotFit {
            attempt: i + 1,
            source,
        })?;
        a.tour.check().map_err(|e| WriteError::BadPath {
            attempt: i + 1,
            message: e.to_string(),
        })?;
    }
    Ok(())
}

/// Document properties: title, subject (board sizes and result), comment (the command line).
fn properties(spec: &WorkbookSpec) -> Result<DocProperties, WriteError> {
    let created = excel_time(spec.created.unwrap_or_else(creation_time))?;
    let boards = distinct_boards(spec)
        .iter()
        .map(Board::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    let subject = format!("Knight's tours on {boards}: {}", spec.result_line());
    let comment = match (spec.command_line.is_empty(), spec.seed) {
        (true, Some(seed)) => format!("seed {seed}"),
        (false, Some(seed)) => format!("{} (seed {seed})", spec.command_line),
        (_, None) => spec.command_line.clone(),
    };
    Ok(DocProperties::new()
        .set_title(&spec.title)
        .set_subject(subject)
        .set_comment(comment)
        .set_keywords("knight's tour")
        .set_creation_datetime(&created))
}

/// The boards of the attempts, each once, in order of first appearance.
fn distinct_boards(spec: &WorkbookSpec) -> Vec<Board> {
    let mut out: Vec<Board> = Vec::new();
    for a in &spec.attempts {
        if !out.contains(&a.tour.board()) {
            out.push(a.tour.board());
        }
    }
    out
}

/// Indices of the attempts whose path is drawn, in order.
pub(crate) fn charted_attempts(spec: &WorkbookSpec) -> Vec<usize> {
    spec.attempts
        .iter()
        .enumerate()
        .filter(|(_, a)| {
            chart::drawable(&a.tour) && wanted(spec.draw_path, chart_auto(a.tour.board()))
        })
        .map(|(i, _)| i)
        .take(MAX_CHARTED_ATTEMPTS)
        .collect()
}

fn chart_auto(board: Board) -> bool {
    board.rows() <= AUTO_CHART_MAX_SIDE && board.cols() <= AUTO_CHART_MAX_SIDE
}

fn wanted(setting: PathDrawing, auto: bool) -> bool {
    match setting {
        PathDrawing::Auto => auto,
        PathDrawing::On => true,
        PathDrawing::Off => false,
    }
}

/// Whether `attempt`'s board gets the colour scale.
pub(crate) fn colour_scale_wanted(spec: &WorkbookSpec, attempt: &Attempt) -> bool {
    let auto = attempt.tour.board().len() <= AUTO_COLOUR_SCALE_MAX_SQUARES;
    attempt.tour.len() >= 2 && wanted(spec.colour_scale, auto)
}

/// Sanity checks on the module's constants against the sheet limits.
const _: () = assert!(SHEET_ROWS > 0 && MAX_CHARTED_ATTEMPTS <= SHEET_COLS as usize);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;
    use crate::solve::Method;
    use crate::tour::tests::tour_3x4;
    use crate::tour::Tour;

    #[test]
    fn result_line_follows_the_macro() {
        let t = tour_3x4();
        let fail = Attempt::new(t.truncated(5), false, Method::Warnsdorff);
        let win = Attempt::new(t.clone(), true, Method::Warnsdorff);
        let spec = WorkbookSpec::new(vec![fail.clone(), fail.clone(), win.clone()]);
        assert_eq!(spec.result_line(), "Solved after 3 attempts");
        let spec = WorkbookSpec::new(vec![win.clone()]);
        assert_eq!(spec.result_line(), "Solved after 1 attempt");
        let spec = WorkbookSpec::new(vec![fail.clone(); 10]);
        assert_eq!(spec.result_line(), "Failed after 10 attempts");
        let spec = WorkbookSpec::new(vec![win.clone(), fail, win]);
        assert_eq!(spec.result_line(), "2 tours found in 3 attempts");
    }

    #[test]
    fn outcomes_name_sheets() {
        // On 3x3 the knight circles the centre, which it can never reach: after 8 moves it is
        // stuck; after 4 it could still go on.
        let ring = [
            (0, 0),
            (1, 2),
            (2, 0),
            (0, 1),
            (2, 2),
            (1, 0),
            (0, 2),
            (2, 1),
        ];
        let board = Board::new(3, 3).unwrap();
        let ring = Tour::from_squares(board, ring.iter().map(|&(r, c)| Square::new(r, c))).unwrap();
        assert!(ring.is_stuck());
        assert_eq!(
            Outcome::of(
                &Attempt::new(ring.clone(), false, Method::Warnsdorff),
                false
            ),
            Outcome::Stuck
        );
        let cut = Attempt::new(ring.truncated(4), false, Method::Warnsdorff);
        assert!(!cut.tour.is_stuck());
        assert_eq!(Outcome::of(&cut, false), Outcome::Stopped);
        assert_eq!(
            sheet_name(2, Outcome::of(&cut, false)),
            "Attempt 2 (stopped)"
        );
        let t = tour_3x4();
        let open = Attempt::new(t.clone(), false, Method::Warnsdorff);
        assert_eq!(Outcome::of(&open, true), Outcome::NotClosed);
        assert_eq!(Outcome::of(&open, false), Outcome::Failed);
        for (n, o) in [
            (1, Outcome::Solved),
            (99_999_999, Outcome::NotClosed),
            (usize::MAX, Outcome::NotClosed),
        ] {
            let name = sheet_name(n, o);
            assert!(name.chars().count() <= 31, "{name}");
            assert!(!name.contains(['[', ']', ':', '*', '?', '/', '\\']));
        }
    }

    #[test]
    fn empty_spec_is_refused() {
        let spec = WorkbookSpec::new(vec![]);
        let err = write_workbook(&spec, std::io::sink()).unwrap_err();
        assert!(matches!(err, WriteError::NoAttempts));
    }
}
