//! Checking the knight's tours that people typed into workbooks.
//!
//! [`verify_path`] opens a workbook of any supported format (the content decides, not the
//! extension), finds the board on each worksheet ([`detect`] documents the rule), and judges it
//! ([`Verdict`]): `closed`, `open`, `partial` (a failed attempt), `invalid` (with every
//! [`Problem`] found) or `no-board`. [`verify_grid`] does the same for cells already in memory.
//! The reports serialise to the `--json` document.
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
//! assert_eq!(report.board.unwrap().top_left, "B2");
//! assert_eq!(report.start.as_deref(), Some("B2"));
//! assert_eq!(report.tour.unwrap().len(), 12);
//! ```

pub mod check;
pub mod complete;
pub mod detect;
pub mod report;
pub mod text;
mod value;

use std::io::{Read, Seek};
use std::path::Path;

pub use report::{
    BoardPosition, FileReport, JsonDocument, Problem, ProblemKind, SheetReport, Verdict,
};

use crate::error::{Error, Result};
use crate::tour::Tour;
use crate::workbook::cellref::CellRange;
use crate::workbook::read::{Format, SheetCells, Workbook};

use detect::{find_board_keeping_grid, BlockGrid, Found, MAX_BOARD_SQUARES};

/// What to check.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VerifyOptions {
    /// Only these sheets (by name), in this order; all sheets when empty.
    pub sheets: Vec<String>,
    /// Where the board is on every sheet checked, skipping detection.
    pub range: Option<CellRange>,
}

/// Verify every (selected) sheet of the workbook at `path`. Never panics and never fails: an
/// unreadable file gives a report with `readable: false` and an `error`.
pub fn verify_path(path: &Path, options: &VerifyOptions) -> FileReport {
    let label = path.display().to_string();
    match Workbook::open(path) {
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
    }
}

/// Verify the selected sheets of an open workbook.
pub fn verify_workbook<RS: Read + Seek>(
    mut book: Workbook<RS>,
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
        let sheet = match book.read_sheet(&name) {
            Ok(cells) => verify_grid(&name, index, &cells, options),
            Err(e) => SheetReport::unreadable(&name, index, e.to_string()),
        };
        report.sheets.push(sheet);
    }
    report
}

/// Verify one sheet's cells: find the board (or use `options.range`) and judge it.
pub fn verify_grid(
    sheet: &str,
    index: usize,
    cells: &SheetCells,
    options: &VerifyOptions,
) -> SheetReport {
    let (found, grid) = match options.range {
        Some(range) => (Found::Board(range), None),
        None => find_board_keeping_grid(cells),
    };
    let given = options.range.is_some();
    let block = match found {
            Found::Board(block) => block,
            Found::NoBoard => return SheetReport::no_board(sheet, index, None),
            Found::TooLarge { rows, cols } => {
                return SheetReport::no_board(
                    sheet,
                    index,
                    Some(format!(
                        "the numbers on this sheet spread over {rows} rows by {cols} columns, too large to hold a board (at most {MAX_BOARD_SQUARES} squares)"
                    )),
                )
            }
    };
    let area = u64::from(block.rows()) * u64::from(block.cols());
    if area > MAX_BOARD_SQUARES {
        return SheetReport::no_board(
            sheet,
            index,
            Some(format!(
                "the range {block} has {area} cells, too large to hold a board (at most {MAX_BOARD_SQUARES} squares)"
            )),
        );
    }
    let grid = match grid {
        Some(g) if g.range == block => g,
        _ => BlockGrid::new(cells, block),
    };
    let checked = check::check_board(&grid, cells.formats_known(), !given);
    let mut report = SheetReport {
        sheet: sheet.to_string(),
        index,
        verdict: checked.verdict,
        board: Some(BoardPosition {
            top_left: block.first.to_string(),
            rows: block.rows(),
            cols: block.cols(),
        }),
        moves: checked.moves,
        start: checked.start.map(|c| c.to_string()),
        end: checked.end.map(|c| c.to_string()),
        start_highlighted: checked.start_highlighted,
        problems: checked.problems,
        note: None,
        problems_not_listed: checked.not_listed,
        unreadable: false,
        tour: checked.tour,
        drawing: None,
    };
    report.drawing = text::drawing(&grid, &report);
    report
}

/// Read the tour on one sheet of a workbook: the squares in move order of a complete tour or
/// of a failed attempt (`partial`). Used by `draw FILE --sheet NAME` and `verify --complete`.
///
/// The error names the file, the sheet and what is wrong with it.
pub fn read_tour(path: &Path, sheet: &str, range: Option<CellRange>) -> Result<Tour> {
    let options = VerifyOptions {
        sheets: vec![sheet.to_string()],
        range,
    };
    let report = verify_path(path, &options);
    let file = path.display();
    if let Some(e) = &report.error {
        return Err(Error::Other(format!("{file}: {e}")));
    }
    let Some(s) = report.sheets.into_iter().next() else {
        return Err(Error::Other(format!("{file}: no sheet named '{sheet}'")));
    };
    if let Some(tour) = s.tour {
        return Ok(tour);
    }
    let why = match s.verdict {
        Verdict::NoBoard => s
            .note
            .unwrap_or_else(|| "there is no board on it".to_string()),
        _ => s
            .problems
            .iter()
            .take(3)
            .map(|p| p.message.clone())
            .collect::<Vec<_>>()
            .join("; "),
    };
    Err(Error::Other(format!(
        "{file}, sheet '{sheet}': no knight's path to read ({}): {why}",
        s.verdict.as_str()
    )))
}
