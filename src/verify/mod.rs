//! Checking the knight's tours that people typed into workbooks.
//!
//! [`verify_path`] opens a workbook of any supported format (the content decides, not the
//! extension), finds the boards on each worksheet and judges each ([`Verdict`]): `closed`,
//! `open`, `partial` (a failed attempt), `invalid` (with every [`Problem`] found), or
//! `no-board` for a sheet without one. [`verify_grid`] does the same for cells already in
//! memory. The reports serialise to the `--json` document.
//!
//! Data flows one way, each layer using only those below it:
//! - cells ([`crate::workbook::read`]) and what a value or a square name means (`value`,
//!   [`square`]);
//! - [`notation`]: each way of writing a tour (grid, squares, coordinates, one cell) proposes
//!   candidate boards with their evidence;
//! - `select`: one step chooses among all candidates (absurd readings out, one board a cell,
//!   reading order);
//! - [`check`]: the verdict on each board, with its problems;
//! - [`report`], then [`text`], [`csv`] and the JSON document on top.
//!
//! ```
//! use knights_tour::verify::{verify_grid, Verdict, VerifyOptions};
//! use knights_tour::workbook::read::{CellValue, SheetCells};
//! // An open tour of the 3x4 board, typed at B2.
//! let rows = [[1, 4, 7, 10], [12, 9, 2, 5], [3, 6, 11, 8]];
//! let cells = SheetCells::from_values(rows.iter().enumerate().flat_map(|(r, row)| {
//!     row.iter().enumerate().map(move |(c, &v)| (r as u32 + 1, c as u32 + 1, CellValue::Number(v as f64)))
//! }));
//! let report = verify_grid("Sheet1", 0, &cells, &VerifyOptions::default());
//! assert_eq!(report.verdict, Verdict::Open);
//! assert_eq!(report.board.as_ref().unwrap().top_left.to_string(), "B2");
//! assert_eq!(report.start.map(|c| c.to_string()).as_deref(), Some("B2"));
//! assert_eq!(report.boards[0].start_square.unwrap().to_string(), "a3");
//! assert_eq!(report.tour().unwrap().len(), 12);
//! ```

mod block;
pub mod check;
pub mod class;
pub mod complete;
pub mod completion;
pub mod csv;
pub mod inputs;
mod layout;
mod magic;
pub mod marks;
pub mod notation;
pub mod report;
pub mod select;
pub mod square;
pub mod text;
mod tokens;
mod value;

use std::path::Path;

pub use report::{
    BoardPosition, BoardReport, FileReport, JsonDocument, Magic, Notation, Problem, ProblemKind,
    ResultRow, RowOutcome, SheetReport, SquareName, Totals, TypedCells, Verdict,
};

use crate::error::{Error, Result};
use crate::tour::Tour;
use crate::workbook::cellref::{CellRange, CellRef};
use crate::workbook::read::watched::Opener;
use crate::workbook::read::{CellValueRef, Format, SheetCells, Workbook};
use crate::workbook::write::names::{PATH_DATA_SHEET, SUMMARY_COLUMNS, SUMMARY_HEADER_ROW};

use block::BlockGrid;
pub use block::MAX_BOARD_SQUARES;
use check::Checked;
use notation::{Candidate, GridCandidate, PathCandidate};
use value::owned;

/// What to check.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VerifyOptions {
    /// Only these sheets (by name), in this order; all sheets when empty.
    pub sheets: Vec<String>,
    /// Where the board is on every sheet checked, skipping detection.
    pub range: Option<CellRange>,
    /// Keep only the board whose top-left cell is this (`--board`).
    pub board: Option<CellRef>,
    /// The chessboard (rows, cols) of tours written as lists (`--board-size`); the smallest
    /// a1-anchored board holding every listed square when `None`.
    pub board_size: Option<(u32, u32)>,
    /// Draw small invalid boards for the text report.
    pub drawings: bool,
    /// Keep the cells as typed ([`BoardReport::typed`]) of each board that is not a complete
    /// tour and spans at most [`KEEP_TYPED_MAX_CELLS`] cells, for a class report to mark.
    pub keep_typed: bool,
}

/// The most cells a board may span to keep its typed cells (a 64x64 board).
pub const KEEP_TYPED_MAX_CELLS: u64 = 4096;

/// The first cell (A1) of the Results sheet of a class report (`verify -o report.xlsx`): a
/// sheet starting so is the report's own table, not a submission, and is left out of a
/// verification of the report unless asked for by name.
pub const REPORT_TITLE: &str = "Knight's tour class report";

/// Verify every (selected) sheet of the workbook at `path`, read in this process. Never panics
/// and never fails: an unreadable file gives a report with `readable: false` and an `error`.
pub fn verify_path(path: &Path, options: &VerifyOptions) -> FileReport {
    verify_path_with(&mut Opener::in_process(), path, options)
}

/// [`verify_path`], the workbook opened by `opener` (the command line's reads in a watched
/// reader process).
pub fn verify_path_with(opener: &mut Opener, path: &Path, options: &VerifyOptions) -> FileReport {
    let label = path.display().to_string();
    match opener.open(path) {
        Ok(book) => verify_workbook(book, label, options),
        Err(e) => unreadable(
            label,
            e.format()
                .or_else(|| Format::from_extension(path))
                .map(|f| f.name().to_string()),
            e.to_string(),
        ),
    }
}

/// Verify a workbook held in memory; `label` names it in the report.
pub fn verify_bytes(bytes: &[u8], label: &str, options: &VerifyOptions) -> FileReport {
    match Workbook::from_bytes(bytes) {
        Ok(book) => verify_workbook(book, label.to_string(), options),
        Err(e) => unreadable(
            label.to_string(),
            e.format().map(|f| f.name().to_string()),
            e.to_string(),
        ),
    }
}

fn unreadable(file: String, format: Option<String>, error: String) -> FileReport {
    FileReport {
        file,
        format,
        readable: false,
        error: Some(error),
        sheets: Vec::new(),
        written_by_verify: false,
    }
}

/// Verify the selected sheets of an open workbook. A reader stopped while reading a sheet
/// makes the whole file unreadable.
pub fn verify_workbook(
    mut book: Workbook<'_>,
    file: String,
    options: &VerifyOptions,
) -> FileReport {
    let names: Vec<String> = book.sheet_names().to_vec();
    let mut report = FileReport {
        file,
        format: Some(book.format().name().to_string()),
        readable: true,
        error: None,
        sheets: Vec::new(),
        written_by_verify: false,
    };
    let wanted: Vec<(usize, String)> = if options.sheets.is_empty() {
        names.iter().cloned().enumerate().collect()
    } else {
        let mut out = Vec::new();
        for want in &options.sheets {
            match names.iter().position(|n| n == want) {
                Some(i) => out.push((i, want.clone())),
                None => {
                    let available = names
                        .iter()
                        .map(|s| format!("'{s}'"))
                        .collect::<Vec<_>>()
                        .join(", ");
                    report.error = Some(format!(
                        "no sheet named '{want}' (the sheets are: {available})"
                    ));
                }
            }
        }
        out
    };
    for (index, name) in wanted {
        // generate's chart coordinates (two columns of x.5 numbers, a million rows under a
        // 1000x1000 tour) are its own hidden helper: not read unless asked for by name.
        if options.sheets.is_empty() && name == PATH_DATA_SHEET && book.is_hidden(&name) {
            continue;
        }
        let sheet = match book.read_sheet(&name) {
            Err(e) if e.ends_the_file() => {
                return unreadable(report.file, report.format, e.to_string());
            }
            Ok(cells) if is_report_table(&cells) || is_csv_report(&cells) => {
                report.written_by_verify = true;
                match options.sheets.is_empty() && is_report_table(&cells) {
                    true => continue,
                    false => verify_grid(&name, index, &cells, options),
                }
            }
            // generate's Summary is a table of its attempts, not a submission: still listed
            // (scripts count every sheet), but quiet in the text report; a --range meant for
            // the boards does not apply to it.
            Ok(cells) if options.sheets.is_empty() && is_generated_summary(&cells) => SheetReport {
                quiet: true,
                ..SheetReport::no_board(&name, index, None)
            },
            Ok(cells) => verify_grid(&name, index, &cells, options),
            Err(e) => SheetReport::unreadable(&name, index, e.to_string()),
        };
        // A hidden sheet without a board is a program's helper (generate's chart coordinates),
        // not a submission: it is left out unless asked for by name. So is a class report's
        // Results table.
        let helper = options.sheets.is_empty()
            && book.is_hidden(&name)
            && sheet.boards.is_empty()
            && !sheet.unreadable;
        if !helper {
            report.sheets.push(sheet);
        }
    }
    report
}

/// Whether any cell of `range` holds a number (as a number or typed as text).
fn holds_a_number(cells: &SheetCells, range: CellRange) -> bool {
    cells.cells().iter().any(|c| {
        range.contains(CellRef::new(c.row, c.col))
            && match c.value {
                Some(CellValueRef::Number(_)) => true,
                Some(CellValueRef::Text(t)) => t.trim().parse::<f64>().is_ok(),
                _ => false,
            }
    })
}

/// Whether the sheet is `verify --format csv`'s report: its first row is the CSV header.
fn is_csv_report(cells: &SheetCells) -> bool {
    csv::CSV_COLUMNS.iter().enumerate().all(|(c, name)| {
        cells
            .find(0, c as u32)
            .is_some_and(|x| x.value == Some(CellValueRef::Text(name)))
    })
}

/// Whether the sheet is the `Summary` `generate` writes: its table's header names the
/// columns [`SUMMARY_COLUMNS`] starts with.
fn is_generated_summary(cells: &SheetCells) -> bool {
    SUMMARY_COLUMNS[..4].iter().enumerate().all(|(c, name)| {
        cells
            .find(SUMMARY_HEADER_ROW, c as u32)
            .is_some_and(|x| x.value == Some(CellValueRef::Text(name)))
    })
}

/// Whether the sheet is a class report's Results table: its A1 holds [`REPORT_TITLE`].
fn is_report_table(cells: &SheetCells) -> bool {
    cells
        .find(0, 0)
        .is_some_and(|c| c.value == Some(CellValueRef::Text(REPORT_TITLE)))
}

/// Verify one sheet's cells: find its boards (or use `options.range`) and judge each.
pub fn verify_grid(
    sheet: &str,
    index: usize,
    cells: &SheetCells,
    options: &VerifyOptions,
) -> SheetReport {
    // Text holding the rows of a table (pasted lines, a text file) is read as its cells.
    let laid_out = layout::lay_out(cells);
    let cells: &SheetCells = &laid_out.cells;
    let selection = match options.range {
        // A range given for every sheet (no --sheet) that holds no number on this one marks
        // no board here: a notes or summary sheet is not an invalid board of text cells.
        Some(range) if options.sheets.is_empty() && !holds_a_number(cells, range) => {
            select::Selection {
                boards: Vec::new(),
                notes: vec![format!("the range {range} holds no number on this sheet")],
            }
        }
        Some(range) => select::Selection {
            boards: vec![notation::grid::given(cells, range)],
            notes: Vec::new(),
        },
        None => select::select(notation::propose(cells), options.board_size),
    };
    let mut boards = Vec::new();
    let mut notes: Vec<String> = laid_out.note.into_iter().collect();
    notes.extend(selection.notes);
    for candidate in selection.boards {
        match candidate {
            Candidate::Grid(g) => {
                let area = u64::from(g.range.rows()) * u64::from(g.range.cols());
                if area > MAX_BOARD_SQUARES {
                    notes.push(format!(
                        "the range {} has {area} cells, too large to hold a board (at most {MAX_BOARD_SQUARES} squares)",
                        g.range
                    ));
                    continue;
                }
                boards.push(grid_report(cells, &g, options, &mut notes));
            }
            Candidate::Path(p) => boards.push(path_report(cells, &p, options)),
            Candidate::TooLarge { rows, cols, .. } => notes.push(format!(
                "the numbers on this sheet spread over {rows} rows by {cols} columns, too large to hold a board (at most {MAX_BOARD_SQUARES} squares)"
            )),
        }
    }
    if let Some(want) = options.board {
        let here: Vec<String> = boards
            .iter()
            .map(|b| b.board.top_left.to_string())
            .collect();
        boards.retain(|b| b.board.top_left == want);
        if boards.is_empty() && !here.is_empty() {
            notes.push(format!(
                "no board has its top-left cell at {want} (boards at: {})",
                here.join(", ")
            ));
        }
    }
    let note = (!notes.is_empty()).then(|| notes.join("; "));
    SheetReport::from_boards(sheet, index, boards, note)
}

/// Judge one grid board.
fn grid_report(
    cells: &SheetCells,
    g: &GridCandidate,
    options: &VerifyOptions,
    notes: &mut Vec<String>,
) -> BoardReport {
    let mut grid = BlockGrid::new(cells, g.range);
    let ragged = options.range.is_none() && !g.labelled;
    let check = |grid: &BlockGrid<'_>| {
        let reading = check::numbering::Reading {
            formats_known: cells.formats_known(),
            detect_ragged: ragged,
            base: g.base,
            unvisited: g.unvisited,
        };
        check::numbering::check_board(grid, reading)
    };
    let mut checked = check(&grid);
    // Text on the board may be the hand method's insertion labels (5a after 5): read in their
    // order, kept only when that gives a board without a problem.
    let text = checked
        .problems
        .iter()
        .any(|p| p.kind == ProblemKind::TextCell);
    if text && g.base == 1 && g.unvisited.is_none() {
        if let Some(numbers) = check::inserted::renumbered(&grid) {
            grid.set_numbers(Some(numbers));
            let again = check(&grid);
            if again.problems.is_empty() {
                notes.push(format!(
                    "the board at {} has insertion labels, read in order (5a after 5, 5b after \
                     5a, then 6) and renumbered 1 to {}",
                    g.range.first, again.moves
                ));
                checked = again;
            } else {
                grid.set_numbers(None);
            }
        }
    }
    let position = BoardPosition {
        top_left: g.range.first,
        rows: g.range.rows(),
        cols: g.range.cols(),
    };
    let mut report = board_report(checked, position, Notation::Grid, g.range);
    report.numbering_from = g.base;
    report.unvisited = g.unvisited;
    if options.drawings {
        report.drawing = text::drawing(&grid, &report);
    }
    if options.keep_typed && !report.verdict.is_complete_tour() {
        report.typed = typed(&grid);
    }
    report
}

/// The cells of `grid` as typed, if it is small enough to keep.
fn typed(grid: &BlockGrid<'_>) -> Option<TypedCells> {
    let range = grid.range;
    if u64::from(range.rows()) * u64::from(range.cols()) > KEEP_TYPED_MAX_CELLS {
        return None;
    }
    let values = (0..range.rows())
        .flat_map(|r| (0..range.cols()).map(move |c| (r, c)))
        .map(|(r, c)| grid.cell(r, c).and_then(|x| x.value).map(owned))
        .collect();
    Some(TypedCells { range, values })
}

/// Judge one tour written entry by entry, on the board the selection gave it.
fn path_report(cells: &SheetCells, p: &PathCandidate, options: &VerifyOptions) -> BoardReport {
    let checked = check::path::check_path(p, p.board);
    let position = BoardPosition {
        top_left: p.cells[0],
        rows: p.board.0,
        cols: p.board.1,
    };
    let mut report = board_report(checked, position, Notation::List, p.footprint);
    report.list_form = Some(p.form);
    report.coordinates = p.reading;
    report.entries = Some(p.squares.len());
    let area = u64::from(p.footprint.rows()) * u64::from(p.footprint.cols());
    if options.keep_typed && !report.verdict.is_complete_tour() && area <= KEEP_TYPED_MAX_CELLS {
        report.typed = typed(&BlockGrid::new(cells, p.footprint));
    }
    report
}

/// The report on one board from its check.
fn board_report(
    checked: Checked,
    board: BoardPosition,
    notation: Notation,
    cells: CellRange,
) -> BoardReport {
    let stuck = (checked.verdict == Verdict::Partial)
        .then(|| checked.tour.as_ref().is_some_and(Tour::is_stuck));
    let magic = checked.tour.as_ref().and_then(Magic::of);
    BoardReport {
        verdict: checked.verdict,
        board,
        moves: checked.moves,
        empty_squares: checked.empty,
        start: checked.start,
        end: checked.end,
        start_highlighted: checked.start_highlighted,
        problems: checked.problems,
        problems_not_listed: checked.not_listed,
        notation,
        start_square: checked.start_square,
        end_square: checked.end_square,
        numbering_from: 1,
        cells: Some(cells),
        stuck,
        list_form: None,
        coordinates: None,
        unvisited: None,
        magic,
        entries: None,
        tour: checked.tour,
        unbroken: checked.unbroken,
        typed: None,
        drawing: None,
    }
}

/// Read the tour on one sheet of a workbook: the squares in move order of a complete tour or
/// of a failed attempt (`partial`), on the sheet's first board or the one whose top-left cell
/// is `board`. Used by `draw FILE --sheet NAME` and `verify --complete`.
///
/// The error names the file, the sheet and what is wrong with it.
pub fn read_tour(
    opener: &mut Opener,
    path: &Path,
    sheet: &str,
    range: Option<CellRange>,
    board: Option<CellRef>,
) -> Result<Tour> {
    let options = VerifyOptions {
        sheets: vec![sheet.to_string()],
        range,
        board,
        ..VerifyOptions::default()
    };
    let report = verify_path_with(opener, path, &options);
    let file = path.display();
    if let Some(e) = &report.error {
        return Err(Error::Other(format!("{file}: {e}")));
    }
    let Some(s) = report.sheets.into_iter().next() else {
        return Err(Error::Other(format!("{file}: no sheet named '{sheet}'")));
    };
    let Some(b) = s.boards.into_iter().next() else {
        let why = s
            .note
            .unwrap_or_else(|| "there is no board on it".to_string());
        return Err(Error::Other(format!(
            "{file}, sheet '{sheet}': no knight's path to read (no-board): {why}"
        )));
    };
    if let Some(tour) = b.tour {
        return Ok(tour);
    }
    let why = b
        .problems
        .iter()
        .take(3)
        .map(|p| p.message.clone())
        .collect::<Vec<_>>()
        .join("; ");
    Err(Error::Other(format!(
        "{file}, sheet '{sheet}': no knight's path to read ({}): {why}",
        b.verdict.as_str()
    )))
}
