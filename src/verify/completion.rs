//! Writing completed failed attempts (`verify --complete OUT.xlsx`) into an `.xlsx` workbook.
//!
//! # Layout
//!
//! - One worksheet per completed board, in order, named after its source sheet (made
//!   Excel-safe: at most 31 characters, none of `[]:*?/\`, unique ignoring case; `Summary` is
//!   reserved). The board's top-left square is at the same cell as on the source sheet, so the
//!   two line up. Board cells hold the move numbers `1..=n` as numbers.
//! - The person's moves `1..=k` are **bold black** on the normal (unfilled) background, the
//!   start square filled yellow (`FFFF00`) as on generated sheets; the added moves `k+1..=n`
//!   are *italic blue* ([`ADDED_FONT`]) on a light green fill ([`ADDED_FILL`]).
//! - A title above the board and a legend beside it, all text: the only numbers on a board
//!   sheet are the board's, so the written sheet itself verifies as an `open` or `closed` tour.
//! - `Summary` (always last): one row per source sheet from row [`COMPLETION_HEADER_ROW`]
//!   (columns [`COMPLETION_COLUMNS`]) with the result: completed, no completion exists, gave
//!   up, or not applicable. All text. It is written even when no board was completed.
//!
//! ```
//! use knights_tour::board::{Board, Square};
//! use knights_tour::tour::Tour;
//! use knights_tour::workbook::cellref::CellRef;
//! use knights_tour::verify::completion::{write_completions, CompletedSheet, SheetResult};
//! let board = Board::new(3, 4).unwrap();
//! let path = [(0,0),(1,2),(2,0),(0,1),(1,3),(2,1),(0,2),(2,3),(1,1),(0,3),(2,2),(1,0)];
//! let tour = Tour::from_squares(board, path.iter().map(|&(r, c)| Square::new(r, c))).unwrap();
//! let item = CompletedSheet {
//!     file: "mine.xlsx".into(),
//!     sheet: "Attempt 1".into(),
//!     top_left: CellRef::new(2, 2),
//!     result: SheetResult::Completed { tour, kept: 5 },
//! };
//! let mut bytes = std::io::Cursor::new(Vec::new());
//! write_completions(&[item], &mut bytes).unwrap();
//! assert!(bytes.get_ref().starts_with(b"PK"));
//! ```

use std::io::Write;

use rust_xlsxwriter::{Color, Format, Workbook, Worksheet, XlsxError};

use crate::board::Square;
use crate::output::write_budget::{TimedOut, Work, WriteBudget};
use crate::tour::Tour;
use crate::workbook::cellref::CellRef;
use crate::workbook::write::board_layout::{self, BoardLayout, Look, Text};
use crate::workbook::write::names::SheetNames;
use crate::workbook::write::names::SUMMARY_SHEET;
use crate::workbook::write::styles::{edges, BoardFormats, SquareKind, TextFormats};
use crate::workbook::write::{check_fits, WriteError, CONSTANT_MEMORY_SQUARES};

/// Font colour of the added moves.
pub const ADDED_FONT: u32 = 0x0070C0;
/// Fill of the added moves' squares.
pub const ADDED_FILL: u32 = 0xE2EFDA;

/// Row (from 0) of the summary table's header; item `i` (from 0) is on the row after + `i`.
pub const COMPLETION_HEADER_ROW: u32 = 3;

/// The summary table's column headings.
pub const COMPLETION_COLUMNS: [&str; 5] =
    ["File", "Source sheet", "Result", "Written to", "Details"];

/// One source sheet and what became of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompletedSheet {
    /// The source file (as shown in the summary).
    pub file: String,
    /// The source sheet's name.
    pub sheet: String,
    /// Where the board's top-left square was on the source sheet (and goes on the new one).
    pub top_left: CellRef,
    /// The result.
    pub result: SheetResult,
}

/// The result for one source sheet, as the summary shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SheetResult {
    /// A full tour whose first `kept` moves are the person's: gets a worksheet.
    Completed {
        /// The full tour.
        tour: Tour,
        /// How many leading moves are the person's.
        kept: usize,
    },
    /// No completion exists; the text says why.
    NoCompletion(String),
    /// The search gave up; the text says after how much.
    GaveUp(String),
    /// The sheet was not a failed attempt; the text says what it was.
    NotApplicable(String),
}

impl SheetResult {
    /// The word in the summary's Result column.
    pub fn word(&self) -> &'static str {
        match self {
            SheetResult::Completed { .. } => "completed",
            SheetResult::NoCompletion(_) => "no completion exists",
            SheetResult::GaveUp(_) => "gave up",
            SheetResult::NotApplicable(_) => "not applicable",
        }
    }
}

/// Write the completions workbook to `out`: a sheet per completed board, then `Summary`.
/// Boards are checked (they fit at their top-left cell, the kept count is within the tour, the
/// path is a knight's path) before anything is written.
pub fn write_completions<W: Write + Send>(
    items: &[CompletedSheet],
    out: W,
) -> Result<(), WriteError> {
    write_completions_within(items, out, &WriteBudget::unlimited())
}

/// [`write_completions`] within `budget`: each board row a step of its stage, then the
/// compression (see [`crate::output::write_budget`]).
pub fn write_completions_within<W: Write + Send>(
    items: &[CompletedSheet],
    out: W,
    budget: &WriteBudget<'_>,
) -> Result<(), WriteError> {
    validate(items)?;
    let names = sheet_names(items);
    let mut workbook = Workbook::new();
    let created = crate::workbook::write::excel_time(crate::workbook::write::creation_time())?;
    workbook.set_properties(
        &rust_xlsxwriter::DocProperties::new()
            .set_title("Completions of failed attempts")
            .set_creation_datetime(&created),
    );
    let completed = || {
        items.iter().filter_map(|item| match &item.result {
            SheetResult::Completed { tour, .. } => Some(tour),
            _ => None,
        })
    };
    let rows = completed().map(|t| u64::from(t.board().rows())).sum();
    let cells = completed().map(|t| t.len() as u64).sum();
    {
        let _stage = budget.stage(Work::Rows, rows);
        for (item, name) in items.iter().zip(&names) {
            if let (SheetResult::Completed { tour, kept }, Some(name)) = (&item.result, name) {
                add_board_sheet(&mut workbook, item, tour, *kept, name, budget)?;
            }
        }
    }
    add_summary(&mut workbook, items, &names)?;
    let sheets = completed().count() as u64 + 1;
    crate::workbook::write::compress(
        &mut workbook,
        out,
        budget,
        crate::workbook::write::zip_estimate(cells, sheets),
    )?;
    Ok(())
}

fn validate(items: &[CompletedSheet]) -> Result<(), WriteError> {
    for (i, item) in items.iter().enumerate() {
        if let SheetResult::Completed { tour, kept } = &item.result {
            check_fits(tour.board(), item.top_left).map_err(|source| WriteError::DoesNotFit {
                attempt: i + 1,
                source,
            })?;
            let bad = |message: String| WriteError::BadPath {
                attempt: i + 1,
                message,
            };
            tour.check().map_err(|e| bad(e.to_string()))?;
            if *kept > tour.len() {
                return Err(bad(format!(
                    "{kept} kept moves but the path has only {}",
                    tour.len()
                )));
            }
        }
    }
    Ok(())
}

/// The worksheet name of each completed item (`None` for the others): the source sheet's
/// name made Excel-safe and unique (ignoring case), never `Summary`.
fn sheet_names(items: &[CompletedSheet]) -> Vec<Option<String>> {
    let mut names = SheetNames::new(&[SUMMARY_SHEET]);
    items
        .iter()
        .map(|item| {
            matches!(item.result, SheetResult::Completed { .. })
                .then(|| names.claim(&item.sheet, "Completed"))
        })
        .collect()
}

/// The formats of kept, start and added squares, by outer edges (as on generated sheets).
struct CompletionFormats {
    kept: Vec<Format>,
    start: Vec<Format>,
    added: Vec<Format>,
}

impl CompletionFormats {
    fn new(font_size: f64) -> CompletionFormats {
        let base = BoardFormats::new(font_size);
        let all = |f: &dyn Fn(&Format) -> Format, kind| {
            (0u8..16).map(|e| f(base.get(kind, e))).collect::<Vec<_>>()
        };
        CompletionFormats {
            kept: all(
                &|f| f.clone().set_bold().set_font_color(Color::Black),
                SquareKind::Plain,
            ),
            start: all(
                &|f| f.clone().set_bold().set_font_color(Color::Black),
                SquareKind::Start,
            ),
            added: all(
                &|f| {
                    f.clone()
                        .set_italic()
                        .set_font_color(Color::RGB(ADDED_FONT))
                        .set_background_color(Color::RGB(ADDED_FILL))
                },
                SquareKind::Plain,
            ),
        }
    }
}

fn add_board_sheet(
    workbook: &mut Workbook,
    item: &CompletedSheet,
    tour: &Tour,
    kept: usize,
    name: &str,
    budget: &WriteBudget<'_>,
) -> Result<(), XlsxError> {
    let board = tour.board();
    let bl = BoardLayout::new(board, item.top_left).map_err(crate::workbook::write::fit_error)?;
    let sheet = if board.len() >= CONSTANT_MEMORY_SQUARES {
        workbook.add_worksheet_with_constant_memory()?
    } else {
        workbook.add_worksheet()
    };
    sheet.set_name(name)?;
    bl.set_geometry(sheet)?;
    let text_formats = TextFormats::new();
    let legend = LegendFormats::new();
    let mut texts = texts(item, &bl, tour, kept, &text_formats, &legend);
    texts.sort_by_key(|t| (t.cell.row, t.cell.col));
    write_cells(sheet, item.top_left, tour, kept, bl.look, &texts, budget)?;
    bl.quiet_label_warnings(sheet)?;
    bl.set_print_page(sheet, bl.print_area(&texts), true)
}

/// Legend lines in the style of the squares they describe (without the borders).
struct LegendFormats {
    kept: Format,
    added: Format,
}

impl LegendFormats {
    fn new() -> LegendFormats {
        LegendFormats {
            kept: Format::new().set_bold().set_font_color(Color::Black),
            // No fill: the line runs on over the next cells, which a fill would not cover.
            added: Format::new()
                .set_italic()
                .set_font_color(Color::RGB(ADDED_FONT)),
        }
    }
}

fn texts<'f>(
    item: &CompletedSheet,
    bl: &BoardLayout,
    tour: &Tour,
    kept: usize,
    f: &'f TextFormats,
    legend: &'f LegendFormats,
) -> Vec<Text<'f>> {
    let board = tour.board();
    let n = tour.len();
    let shape = if tour.is_closed() { "closed" } else { "open" };
    let title = format!(
        "Completed: '{}' ({}) on the {board} board",
        item.sheet, item.file
    );
    let mut lines: Vec<(String, &Format)> = Vec::new();
    lines.push((
        format!(
            "A complete {shape} tour of {}",
            crate::english::all_squares(n)
        ),
        &f.good,
    ));
    let start = tour.start().map(|s| board.algebraic(s)).unwrap_or_default();
    lines.push((
        format!("Bold black: your moves 1-{kept} (start {start} in yellow), kept as typed"),
        &legend.kept,
    ));
    if kept < n {
        lines.push((
            format!("Blue italic on green: moves {}-{n} added", kept + 1),
            &legend.added,
        ));
    }
    lines.push(("Numbers are move numbers".to_string(), &f.plain));
    board_layout::place_texts(bl, title, lines, f)
}

/// Every cell strictly row by row (constant-memory sheets need it).
fn write_cells(
    sheet: &mut Worksheet,
    tl: CellRef,
    tour: &Tour,
    kept: usize,
    look: Look,
    texts: &[Text<'_>],
    budget: &WriteBudget<'_>,
) -> Result<(), XlsxError> {
    let board = tour.board();
    let formats = CompletionFormats::new(look.font_size);
    let numbers = tour.numbering();
    let (rows, cols) = (board.rows(), board.cols());
    let mut next = 0;
    for r in 0..rows {
        let sheet_row = tl.row + r;
        while let Some(t) = texts.get(next).filter(|t| t.cell.row < sheet_row) {
            write_text(sheet, t)?;
            next += 1;
        }
        for c in 0..cols {
            let e = usize::from(edges(r, c, rows, cols));
            let move_number = numbers[board.index(Square::new(r, c)) as usize];
            let format = match move_number as usize {
                1 => &formats.start[e],
                m if m <= kept => &formats.kept[e],
                _ => &formats.added[e],
            };
            sheet.write_number_with_format(sheet_row, (tl.col + c) as u16, move_number, format)?;
        }
        budget.step(1).map_err(TimedOut::into_xlsx)?;
        while let Some(t) = texts.get(next).filter(|t| t.cell.row == sheet_row) {
            write_text(sheet, t)?;
            next += 1;
        }
    }
    for t in &texts[next..] {
        write_text(sheet, t)?;
    }
    Ok(())
}

fn write_text(sheet: &mut Worksheet, t: &Text<'_>) -> Result<(), XlsxError> {
    sheet.write_string_with_format(t.cell.row, t.cell.col as u16, &t.text, t.format)?;
    Ok(())
}

/// The `Summary` sheet: a title, a result line, then the table. All text.
fn add_summary(
    workbook: &mut Workbook,
    items: &[CompletedSheet],
    names: &[Option<String>],
) -> Result<(), XlsxError> {
    let sheet = workbook.add_worksheet();
    sheet.set_name(SUMMARY_SHEET)?;
    let bold = Format::new().set_bold();
    sheet.write_string_with_format(
        0,
        0,
        "Completions of failed attempts",
        &Format::new().set_bold().set_font_size(14),
    )?;
    let done = names.iter().filter(|n| n.is_some()).count();
    let failed = items
        .iter()
        .filter(|i| !matches!(i.result, SheetResult::NotApplicable(_)))
        .count();
    let line = if failed == 0 {
        "No failed attempts (partial boards) to complete".to_string()
    } else {
        format!("{done} of {failed} failed attempts completed")
    };
    sheet.write_string_with_format(1, 0, line, &bold)?;
    for (c, h) in COMPLETION_COLUMNS.iter().enumerate() {
        sheet.write_string_with_format(COMPLETION_HEADER_ROW, c as u16, *h, &bold)?;
    }
    for (i, (item, name)) in items.iter().zip(names).enumerate() {
        let row = COMPLETION_HEADER_ROW + 1 + i as u32;
        let details = match &item.result {
            SheetResult::Completed { tour, kept } => format!(
                "kept moves 1-{kept}, added moves {}-{}",
                kept + 1,
                tour.len()
            ),
            SheetResult::NoCompletion(t)
            | SheetResult::GaveUp(t)
            | SheetResult::NotApplicable(t) => t.clone(),
        };
        sheet.write_string(row, 0, &item.file)?;
        sheet.write_string(row, 1, &item.sheet)?;
        sheet.write_string(row, 2, item.result.word())?;
        sheet.write_string(row, 3, name.as_deref().unwrap_or(""))?;
        sheet.write_string(row, 4, details)?;
    }
    let widths = [30.0, 24.0, 20.0, 24.0, 80.0];
    for (c, w) in widths.into_iter().enumerate() {
        sheet.set_column_width(c as u16, w)?;
    }
    let last_row = COMPLETION_HEADER_ROW + items.len() as u32;
    board_layout::set_table_print_page(sheet, &widths, last_row, COMPLETION_HEADER_ROW)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(sheet: &str) -> CompletedSheet {
        let tour = crate::tour::tests::tour_3x4();
        CompletedSheet {
            file: "f.xlsx".into(),
            sheet: sheet.into(),
            top_left: CellRef::new(2, 2),
            result: SheetResult::Completed { tour, kept: 4 },
        }
    }

    #[test]
    fn names_are_safe_and_unique() {
        let long = "x".repeat(40);
        let items = [
            item("A/B"),
            item("a_b"),
            item("Summary"),
            item(&long),
            item(&long),
            item("'"),
        ];
        let names: Vec<String> = sheet_names(&items).into_iter().flatten().collect();
        assert_eq!(names[0], "A_B");
        assert_eq!(names[1], "a_b (2)");
        assert_eq!(names[2], "Summary (2)");
        assert_eq!(names[3].chars().count(), 31);
        assert_eq!(names[4].chars().count(), 31);
        assert_ne!(names[3], names[4]);
        assert_eq!(names[5], "Completed");
    }

    #[test]
    fn kept_beyond_the_path_is_refused() {
        let mut it = item("S");
        if let SheetResult::Completed { kept, .. } = &mut it.result {
            *kept = 13;
        }
        let err = write_completions(&[it], std::io::Cursor::new(Vec::new())).unwrap_err();
        assert!(err.to_string().contains("13 kept moves"), "{err}");
    }
}
