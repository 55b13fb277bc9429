//! The class workbook `verify FILES... -o report.xlsx` writes: what a teacher hands back.
//!
//! # Layout
//!
//! - `Results` (first): [`REPORT_TITLE`] in A1 (which tells a verifier this sheet is the
//!   report's own table, not a submission), the totals line, the tool's version and command
//!   line, the files read; from row [`RESULTS_HEADER_ROW`] a table with one row per board (or
//!   per file without one: [`FileReport::rows`]) in the columns [`RESULTS_COLUMNS`], the
//!   verdict cell coloured (closed and open green, partial and unfinished amber, invalid red, no board and
//!   unreadable grey), a frozen header and an autofilter, each row of a partial or invalid
//!   board linked to its marked sheet. Beside the table, the totals per verdict and a column
//!   chart of them.
//! - One marked sheet per partial or invalid board (see `marked`), in the order of the
//!   rows: the board as the person typed it at C3 with rank and file labels, each problem's
//!   cells filled by kind with a note in plain words, the path drawn up to the first break,
//!   and a failed attempt's reachable squares. The only numbers on a marked sheet are the
//!   board's, so it verifies with the verdict of the original.
//! - `Path data` (hidden, when a path is drawn): the charts' values, as `generate` writes
//!   them.
//!
//! Bounded: a report with more rows, marked sheets or marked cells than a workbook should hold
//! ([`Capacity`]) is refused before anything is written, naming the CSV and JSON reports that
//! stream any number.

mod marked;

use std::io::Write;
use std::path::Path;

use rust_xlsxwriter::{
    Chart, ChartDataLabel, ChartFormat, ChartSolidFill, ChartType, Color, DocProperties, Format,
    FormatBorder, Url, Workbook, Worksheet, XlsxError,
};

use crate::verify::{
    text::render_totals, BoardReport, FileReport, ResultRow, Totals, Verdict, REPORT_TITLE,
};
use crate::workbook::write::names::{link_to, SheetNames, PATH_DATA_SHEET};
use crate::workbook::write::{creation_time, excel_time, WriteError};

/// Name of the results sheet (always the first).
pub const RESULTS_SHEET: &str = "Results";

/// Row (from 0) of the results table's header; the rows follow it.
pub const RESULTS_HEADER_ROW: u32 = 5;

/// The results table's column headings, in order.
pub const RESULTS_COLUMNS: [&str; 13] = [
    "File",
    "Sheet",
    "Cells",
    "Board",
    "Notation",
    "Verdict",
    "Magic",
    "Squares visited",
    "Start",
    "End",
    "Problems",
    "First problem",
    "Marked sheet",
];

/// Column of the totals table (right of the results table, one column apart).
const TOTALS_COL: u16 = RESULTS_COLUMNS.len() as u16 + 1;

/// Width of the totals' verdict column (characters).
const TOTALS_WIDTH: f64 = 12.0;

/// At most this many rows in the results table.
pub const MAX_RESULT_ROWS: usize = 20_000;

/// At most this many marked sheets: a workbook holds at most
/// [`MAX_WORKBOOK_SHEETS`](crate::workbook::write::MAX_WORKBOOK_SHEETS) sheets, and the results and
/// path data take two.
pub const MAX_MARKED_SHEETS: usize = crate::workbook::write::MAX_WORKBOOK_SHEETS as usize - 2;

/// At most this many cells on all the marked sheets together (2,000 boards of 8x8 need
/// 128,000).
pub const MAX_MARKED_CELLS: u64 = 1_000_000;

/// Fill and font of a verdict cell: (fill, font).
fn verdict_colours(verdict: &str) -> (u32, u32) {
    match verdict {
        "closed" | "open" => (0xC6EFCE, 0x006100),
        "partial" | "unfinished" => (0xFFEB9C, 0x9C5700),
        "invalid" => (0xFFC7CE, 0x9C0006),
        _ => (0xD9D9D9, 0x404040),
    }
}

/// Whether `board` gets a marked sheet: a partial or invalid board whose cells were kept.
pub fn is_marked(board: &BoardReport) -> bool {
    matches!(board.verdict, Verdict::Partial | Verdict::Invalid) && board.typed.is_some()
}

/// What the report will hold, counted file by file as they are verified, so a report that
/// would be too big for a workbook is refused as soon as that is known.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Capacity {
    /// Rows of the results table.
    pub rows: usize,
    /// Marked sheets.
    pub marked: usize,
    /// Cells on the marked sheets' boards.
    pub cells: u64,
}

impl Capacity {
    /// Count `report`; the error says which limit the report passes, and what to do instead.
    pub fn add(&mut self, report: &FileReport) -> Result<(), String> {
        self.rows += report.rows().len();
        for b in report.boards().filter(|b| is_marked(b)) {
            self.marked += 1;
            self.cells += b.typed.as_ref().map_or(0, |t| t.values.len() as u64);
        }
        let over = if self.rows > MAX_RESULT_ROWS {
            Some(format!("more than {MAX_RESULT_ROWS} rows of results"))
        } else if self.marked > MAX_MARKED_SHEETS {
            Some(format!(
                "more than {MAX_MARKED_SHEETS} marked boards (a workbook holds at most {} sheets)",
                crate::workbook::write::MAX_WORKBOOK_SHEETS
            ))
        } else if self.cells > MAX_MARKED_CELLS {
            Some(format!("more than {MAX_MARKED_CELLS} marked cells"))
        } else {
            None
        };
        match over {
            Some(what) => Err(format!(
                "the class workbook would hold {what}; write the report as .csv or .json \
                 (-o report.csv or -o report.json), which hold any number"
            )),
            None => Ok(()),
        }
    }
}

/// Everything the class workbook shows.
#[derive(Clone, Copy, Debug)]
pub struct ClassReport<'a> {
    /// The reports on the files, in the order read.
    pub files: &'a [FileReport],
    /// The command that made the report (recorded on the Results sheet).
    pub command_line: &'a str,
}

/// One marked board: where its row is and what its sheet is called.
struct MarkedBoard<'a> {
    /// Its index among the report's rows.
    row: usize,
    board: &'a BoardReport,
    file: &'a str,
    sheet: &'a str,
    name: String,
}

/// Write the class workbook to `out`.
pub fn write_class_report<W: Write + Send>(
    report: &ClassReport<'_>,
    out: W,
) -> Result<(), WriteError> {
    let rows: Vec<ResultRow<'_>> = report.files.iter().flat_map(FileReport::rows).collect();
    let marked = marked_boards(report.files, &rows);
    let mut workbook = Workbook::new();
    let created = excel_time(creation_time())?;
    workbook.set_properties(
        &DocProperties::new()
            .set_title(REPORT_TITLE)
            .set_subject(render_totals(&totals(report.files)).trim_end())
            .set_comment(report.command_line)
            .set_keywords("knight's tour")
            .set_creation_datetime(&created),
    );
    add_results(&mut workbook, report, &rows, &marked)?;
    let mut paths = crate::workbook::write::chart::PathData::default();
    let slots: Vec<Option<usize>> = marked
        .iter()
        .map(|m| {
            let drawing = match m.board.notation {
                crate::verify::Notation::List => crate::workbook::write::chart::Drawing::Picture,
                crate::verify::Notation::Grid => crate::workbook::write::chart::Drawing::OverCells,
            };
            marked::drawn_path(m.board)
                .and_then(|tour| paths.add(&m.name, tour, drawing, marked::TOP_LEFT.row))
        })
        .collect();
    for (m, slot) in marked.iter().zip(slots) {
        let sheet = marked::MarkedSheet {
            board: m.board,
            file: m.file,
            sheet: m.sheet,
            name: &m.name,
            drawn: slot.map(|slot| (&paths, slot)),
        };
        sheet.add_to(&mut workbook)?;
    }
    if !paths.is_empty() {
        paths.write(&mut workbook)?;
    }
    workbook.save_to_writer(out)?;
    Ok(())
}

/// Write the class workbook to `path` atomically, refusing to replace a file without `force`,
/// within `budget` (the progress line: see [`crate::output::write_budget`]).
pub fn save_class_report(
    report: &ClassReport<'_>,
    path: &Path,
    force: bool,
    budget: &crate::output::write_budget::WriteBudget<'_>,
) -> crate::error::Result<()> {
    crate::output::write_atomically_with(path, force, budget, |out| {
        write_class_report(report, out).map_err(|e| e.at(path))
    })
}

fn totals(files: &[FileReport]) -> Totals {
    let mut t = Totals::default();
    for f in files {
        t.add(f);
    }
    t
}

/// The marked boards in row order, with unique sheet names: the file's stem, and the sheet
/// (and the board's cell) when the file has several marked boards.
fn marked_boards<'a>(files: &'a [FileReport], rows: &[ResultRow<'a>]) -> Vec<MarkedBoard<'a>> {
    let mut names = SheetNames::new(&[RESULTS_SHEET, PATH_DATA_SHEET]);
    let mut out = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let Some(board) = row.board().filter(|b| is_marked(b)) else {
            continue;
        };
        let file = files.iter().find(|f| f.file == row.file);
        let in_file = file.map_or(1, |f| f.boards().filter(|b| is_marked(b)).count());
        let on_sheet = file
            .and_then(|f| f.sheets.iter().find(|s| s.sheet == row.sheet))
            .map_or(1, |s| s.boards.iter().filter(|b| is_marked(b)).count());
        let stem = Path::new(row.file).file_stem().map_or_else(
            || row.file.to_string(),
            |s| s.to_string_lossy().into_owned(),
        );
        let wanted = match (in_file, on_sheet) {
            (1, _) => stem,
            (_, 1) => format!("{stem} {}", row.sheet),
            _ => format!("{stem} {} {}", row.sheet, board.board.top_left),
        };
        out.push(MarkedBoard {
            row: i,
            board,
            file: row.file,
            sheet: row.sheet,
            name: names.claim(&wanted, "Board"),
        });
    }
    out
}

/// The Results sheet.
fn add_results(
    workbook: &mut Workbook,
    report: &ClassReport<'_>,
    rows: &[ResultRow<'_>],
    marked: &[MarkedBoard<'_>],
) -> Result<(), XlsxError> {
    let sheet = workbook.add_worksheet();
    sheet.set_name(RESULTS_SHEET)?;
    let totals = totals(report.files);
    let bold = Format::new().set_bold();
    sheet.write_string_with_format(0, 0, REPORT_TITLE, &bold.clone().set_font_size(14))?;
    sheet.write_string_with_format(1, 0, render_totals(&totals).trim_end(), &bold)?;
    sheet.write_string(
        2,
        0,
        format!(
            "Checked by knights-tour {}: {}",
            env!("CARGO_PKG_VERSION"),
            report.command_line
        ),
    )?;
    sheet.write_string(3, 0, files_line(report.files))?;
    let header = Format::new()
        .set_bold()
        .set_background_color(Color::RGB(0xD9E1F2))
        .set_border_bottom(FormatBorder::Thin);
    for (c, title) in RESULTS_COLUMNS.iter().enumerate() {
        sheet.write_string_with_format(RESULTS_HEADER_ROW, c as u16, *title, &header)?;
    }
    let mut widths: Vec<usize> = RESULTS_COLUMNS.iter().map(|h| h.len() + 3).collect();
    for (i, row) in rows.iter().enumerate() {
        let r = RESULTS_HEADER_ROW + 1 + i as u32;
        let name = marked.iter().find(|m| m.row == i).map(|m| m.name.as_str());
        let cells = result_cells(row, name);
        for (c, cell) in cells.iter().enumerate() {
            widths[c] = widths[c].max(cell.width());
            cell.write(sheet, r, c as u16)?;
            // Wrapped text gets the lines it needs: Gnumeric (and Excel until edited) keep
            // a row's stored height, cutting the rest off.
            if let ResultCell::Wrapped(t) = cell {
                let lines = t.chars().count().div_ceil(WRAPPED_WIDTH - 3).max(1);
                if lines > 1 {
                    sheet.set_row_height(r, 15.0 * lines as f64)?;
                }
            }
        }
    }
    let widths: Vec<f64> = widths
        .iter()
        .enumerate()
        .map(|(c, &w)| w.min(if c == 11 { WRAPPED_WIDTH } else { 40 }) as f64 + 1.0)
        .collect();
    for (c, &w) in widths.iter().enumerate() {
        sheet.set_column_width(c as u16, w)?;
    }
    let last = RESULTS_HEADER_ROW + rows.len() as u32;
    sheet.set_freeze_panes(RESULTS_HEADER_ROW + 1, 0)?;
    sheet.autofilter(
        RESULTS_HEADER_ROW,
        0,
        last,
        RESULTS_COLUMNS.len() as u16 - 1,
    )?;
    add_totals(sheet, &totals)?;
    // The page prints the table alone, one page wide, at a size to read: the totals and their
    // chart beside it are for the screen (the line above the table says the totals too), and
    // fitting them in shrank the whole page to a few points.
    crate::workbook::write::board_layout::set_table_print_page(
        sheet,
        &widths,
        last,
        RESULTS_HEADER_ROW,
    )?;
    Ok(())
}

/// `Files read (30): a.xlsx, b.xlsx, ...`, at most about 1,000 characters.
fn files_line(files: &[FileReport]) -> String {
    let mut line = format!("Files read ({}): ", files.len());
    for (i, f) in files.iter().enumerate() {
        if line.len() > 1000 {
            line.push_str(&format!("... and {} more", files.len() - i));
            break;
        }
        if i > 0 {
            line.push_str(", ");
        }
        line.push_str(&f.file);
    }
    line
}

/// The first problem's column is this many characters wide, its text wrapped: at 80 the
/// table printed at half size.
const WRAPPED_WIDTH: usize = 45;

/// One cell of the results table.
enum ResultCell {
    /// Text wrapped within [`WRAPPED_WIDTH`] characters (the first problem, often long).
    Wrapped(String),
    Text(String),
    Number(f64),
    Verdict(&'static str),
    Link(String),
    Blank,
}

impl ResultCell {
    /// Its width in characters, for the column.
    fn width(&self) -> usize {
        match self {
            ResultCell::Text(t) | ResultCell::Link(t) => t.chars().count(),
            ResultCell::Wrapped(t) => t.chars().count().min(WRAPPED_WIDTH),
            ResultCell::Verdict(v) => v.len(),
            ResultCell::Number(n) => n.to_string().len(),
            ResultCell::Blank => 0,
        }
    }

    fn write(&self, sheet: &mut Worksheet, row: u32, col: u16) -> Result<(), XlsxError> {
        match self {
            ResultCell::Text(t) => sheet.write_string(row, col, t).map(drop),
            ResultCell::Wrapped(t) => {
                let wrap = Format::new()
                    .set_text_wrap()
                    .set_align(rust_xlsxwriter::FormatAlign::Top);
                sheet.write_string_with_format(row, col, t, &wrap).map(drop)
            }
            ResultCell::Number(n) => {
                let centred = Format::new().set_align(rust_xlsxwriter::FormatAlign::Center);
                sheet
                    .write_number_with_format(row, col, *n, &centred)
                    .map(drop)
            }
            ResultCell::Verdict(v) => {
                let (fill, font) = verdict_colours(v);
                let format = Format::new()
                    .set_bold()
                    .set_background_color(Color::RGB(fill))
                    .set_font_color(Color::RGB(font));
                sheet
                    .write_string_with_format(row, col, *v, &format)
                    .map(drop)
            }
            ResultCell::Link(name) => sheet
                .write_url(row, col, Url::new(link_to(name, "C3")).set_text(name))
                .map(drop),
            ResultCell::Blank => Ok(()),
        }
    }
}

/// The cells of one results row, by [`RESULTS_COLUMNS`]; `marked` names the row's marked
/// sheet.
fn result_cells(row: &ResultRow<'_>, marked: Option<&str>) -> Vec<ResultCell> {
    use ResultCell::{Blank, Link, Number, Text, Verdict as V};
    let text = |t: Option<String>| t.map_or(Blank, Text);
    let b = row.board();
    let marked_cell = match (marked, b) {
        (Some(name), _) => Link(name.to_string()),
        (None, Some(b)) if matches!(b.verdict, Verdict::Partial | Verdict::Invalid) => {
            Text("too large to mark".into())
        }
        _ => Blank,
    };
    vec![
        Text(row.file.to_string()),
        Text(row.sheet.to_string()),
        text(b.and_then(|b| b.cells.map(|c| c.to_string()))),
        text(b.map(|b| format!("{}x{}", b.board.rows, b.board.cols))),
        text(b.map(|b| b.notation.as_str().to_string())),
        V(row.verdict()),
        text(b.and_then(|b| b.magic.map(|m| m.as_str().to_string()))),
        b.map_or(Blank, |b| Number(b.moves as f64)),
        text(b.and_then(|b| b.start_square.map(|s| s.to_string()))),
        text(b.and_then(|b| b.end_square.map(|s| s.to_string()))),
        b.map_or(Blank, |b| Number(b.problems.len() as f64)),
        ResultCell::Wrapped(row.first_problem()),
        marked_cell,
    ]
}

/// The totals per verdict beside the table, and a column chart of them.
fn add_totals(sheet: &mut Worksheet, t: &Totals) -> Result<(), XlsxError> {
    let items = [
        ("closed", t.closed),
        ("open", t.open),
        ("partial", t.partial),
        ("unfinished", t.unfinished),
        ("invalid", t.invalid),
        ("no-board", t.without_board),
        ("unreadable", t.unreadable),
    ];
    let header = Format::new()
        .set_bold()
        .set_background_color(Color::RGB(0xD9E1F2))
        .set_border_bottom(FormatBorder::Thin);
    let top = RESULTS_HEADER_ROW;
    sheet.write_string_with_format(top, TOTALS_COL, "Totals", &header)?;
    sheet.write_string_with_format(top, TOTALS_COL + 1, "Count", &header)?;
    for (i, (word, n)) in items.iter().enumerate() {
        let r = top + 1 + i as u32;
        ResultCell::Verdict(word).write(sheet, r, TOTALS_COL)?;
        sheet.write_number(r, TOTALS_COL + 1, *n as f64)?;
    }
    sheet.write_string(
        top + 1 + items.len() as u32,
        TOTALS_COL,
        "(boards; no-board and unreadable count files)",
    )?;
    sheet.set_column_width(TOTALS_COL, TOTALS_WIDTH)?;
    let (first, last) = (top + 1, top + items.len() as u32);
    let mut chart = Chart::new(ChartType::Column);
    chart.title().set_name("Boards by verdict");
    chart.legend().set_hidden();
    chart
        .add_series()
        .set_categories((RESULTS_SHEET, first, TOTALS_COL, last, TOTALS_COL))
        .set_values((RESULTS_SHEET, first, TOTALS_COL + 1, last, TOTALS_COL + 1))
        .set_data_label(ChartDataLabel::new().show_value())
        .set_points(
            &items
                .iter()
                .map(|(word, _)| {
                    let (fill, font) = verdict_colours(word);
                    rust_xlsxwriter::ChartPoint::new().set_format(
                        ChartFormat::new()
                            .set_solid_fill(ChartSolidFill::new().set_color(fill))
                            .set_border(rust_xlsxwriter::ChartLine::new().set_color(font)),
                    )
                })
                .collect::<Vec<_>>(),
        );
    // Whole boards: steps of 1 (or of a round number for a big class), never 0.2.
    let most = items.iter().map(|(_, n)| *n).max().unwrap_or(0).max(1);
    let step = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000]
        .into_iter()
        .find(|s| most / s <= 8)
        .unwrap_or(10_000);
    chart
        .y_axis()
        .set_min(0)
        .set_max((most.div_ceil(step) * step) as f64)
        .set_major_unit(step as f64)
        .set_num_format("0");
    chart.set_width(420).set_height(260);
    sheet.insert_chart(top + items.len() as u32 + 3, TOTALS_COL, &chart)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::{verify_grid, SheetReport, VerifyOptions};
    use crate::workbook::read::{CellValue, SheetCells};

    /// A file whose one sheet holds `boards` copies of an invalid 3x4 board (8 and 9 swapped).
    fn file(name: &str, boards: usize) -> FileReport {
        let rows = [[1, 4, 7, 10], [12, 8, 2, 5], [3, 6, 11, 9]];
        let cells = SheetCells::from_values(rows.iter().enumerate().flat_map(|(r, row)| {
            row.iter()
                .enumerate()
                .map(move |(c, &v)| (r as u32, c as u32, CellValue::Number(v as f64)))
        }));
        let options = VerifyOptions {
            keep_typed: true,
            ..VerifyOptions::default()
        };
        let one = verify_grid("Sheet1", 0, &cells, &options).boards.remove(0);
        assert!(is_marked(&one));
        let sheet = SheetReport::from_boards("Sheet1", 0, vec![one; boards], None);
        FileReport {
            written_by_verify: false,
            file: name.into(),
            format: Some("xlsx".into()),
            readable: true,
            error: None,
            sheets: vec![sheet],
        }
    }

    #[test]
    fn a_report_past_the_sheet_cap_is_refused_naming_csv_and_json() {
        let mut capacity = Capacity::default();
        capacity
            .add(&file("a.xlsx", MAX_MARKED_SHEETS - 1))
            .unwrap();
        capacity.add(&file("b.xlsx", 1)).unwrap();
        let err = capacity.add(&file("c.xlsx", 1)).unwrap_err();
        assert!(err.contains("more than 1998 marked boards"), "{err}");
        assert!(err.contains("-o report.csv or -o report.json"), "{err}");
        assert_eq!(capacity.cells, (MAX_MARKED_SHEETS as u64 + 1) * 12);
    }

    #[test]
    fn marked_sheet_names_are_unique_and_short() {
        let long = format!("{}.xlsx", "a-student-with-a-very-long-name".repeat(2));
        let files = [
            file(&long, 1),
            file(&long.replace(".xlsx", ".ods"), 1),
            file("Results.xlsx", 1),
            file("two.xlsx", 2),
        ];
        let rows: Vec<ResultRow<'_>> = files.iter().flat_map(FileReport::rows).collect();
        let names: Vec<String> = marked_boards(&files, &rows)
            .into_iter()
            .map(|m| m.name)
            .collect();
        assert_eq!(names.len(), 5);
        assert_eq!(names[0].chars().count(), 31);
        assert!(names[1].ends_with(" (2)") && names[1].chars().count() <= 31);
        assert_eq!(names[2], "Results (2)");
        assert_eq!(names[3], "two Sheet1 A1");
        assert_eq!(names[4], "two Sheet1 A1 (2)");
    }
}
