//! The workbook of `knights-tour pairs`: every (start, end) pair of a board answered.
//!
//! - `Matrix`: the title, the one-line answer ("8x8: a tour exists for all 2,048 pairs of
//!   opposite colours; none for the 1,984 of the same colour"), a legend with the total of each
//!   answer, then the matrix from row [`MATRIX_HEADER_ROW`]: starts down column A, ends across
//!   that row, both in algebraic order (a1, a2, ..., b1, ...), each cell one mark
//!   ([`Mark::glyph`]) on its answer's colour, so it reads in colour and in black and white.
//!   A medium line separates the files. Everything on it is text (square names, marks,
//!   totals written into sentences), so a verifier finds no board there.
//! - `Tours`: one row per pair with a tour, from row [`TOURS_FIRST_ROW`]: start, end, a blank
//!   column, then the squares in move order, so each row reads as a tour written as a list of
//!   squares (the blank keeps start and end out of it). Written row by row in constant-memory
//!   mode: a 12x12 board's 10,368 tours are 1.5 million cells.
//!
//! Both sheets print one page wide; the matrix on one page.

use std::io::Write;
use std::path::Path;

use rust_xlsxwriter::{
    Color, DocProperties, Format, FormatAlign, FormatBorder, Workbook, Worksheet, XlsxError,
};

use crate::board::Square;
use crate::english::thousands;
use crate::output::write_budget::{TimedOut, Work, WriteBudget};
use crate::solve::pairs::{Mark, Pairs};
use crate::workbook::cellref::CellRef;
use crate::workbook::write::board_layout::{self, PrintArea, DEFAULT_ROW_PX};

/// Name of the matrix sheet.
pub const MATRIX_SHEET: &str = "Matrix";
/// Name of the sheet listing the tours.
pub const TOURS_SHEET: &str = "Tours";
/// Row (from 0) of the matrix's header (the end squares); start `k` (from 0, algebraic order)
/// is on row `MATRIX_HEADER_ROW + 1 + k`, end `k` in column `1 + k`.
pub const MATRIX_HEADER_ROW: u32 = 11;
/// Row (from 0) of the first tour on the `Tours` sheet; its squares start in column
/// [`TOURS_FIRST_SQUARE_COL`].
pub const TOURS_FIRST_ROW: u32 = 2;
/// Column (from 0) of a tour's first square on the `Tours` sheet (start and end are in columns
/// 0 and 1).
pub const TOURS_FIRST_SQUARE_COL: u16 = 3;

/// The line under the answer on the matrix sheet.
const INTRO: &str = "Starts down the side, ends across the top, in algebraic order; a thick line begins each file. Every tour found is on the Tours sheet, in the same order.";

/// The text above the matrix wraps within the matrix's width, or this many pixels on boards
/// whose matrix is narrower.
const MIN_TEXT_PX: u32 = 760;

/// Width of a matrix cell in pixels (rows are as high).
const CELL_PX: u32 = 20;
/// Width of the column of start squares.
const START_COL_PX: u32 = 40;

/// What the workbook records besides the answers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PairsWorkbook {
    /// The command that makes it again, seed included.
    pub command_line: String,
    /// Creation time; `None`: now, or `SOURCE_DATE_EPOCH` ([`crate::workbook::write::creation_time`]).
    pub created: Option<std::time::SystemTime>,
}

/// Write the pairs workbook to `path` atomically, refusing to replace a file without `force`,
/// within `budget` (the deadline and the progress line: see [`crate::output::write_budget`]).
pub fn save_pairs_workbook(
    pairs: &Pairs,
    meta: &PairsWorkbook,
    path: &Path,
    force: bool,
    budget: &WriteBudget<'_>,
) -> crate::error::Result<()> {
    crate::output::write_atomically_with(path, force, budget, |out| {
        write_pairs_workbook_within(pairs, meta, out, budget).map_err(|e| {
            crate::error::Error::Workbook {
                path: path.to_path_buf(),
                message: e.to_string(),
            }
        })
    })
}

/// Write the pairs workbook to any writer.
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::solve::pairs::{solve, PairsPlan};
/// use knights_tour::pairs::matrix::{write_pairs_workbook, PairsWorkbook};
/// let pairs = solve(Board::new(5, 5).unwrap(), 1, &PairsPlan::default(), &mut |_| {}).unwrap();
/// let mut bytes = std::io::Cursor::new(Vec::new());
/// write_pairs_workbook(&pairs, &PairsWorkbook::default(), &mut bytes).unwrap();
/// assert!(bytes.get_ref().starts_with(b"PK"));
/// ```
pub fn write_pairs_workbook<W: Write + Send>(
    pairs: &Pairs,
    meta: &PairsWorkbook,
    out: W,
) -> Result<(), XlsxError> {
    write_pairs_workbook_within(pairs, meta, out, &WriteBudget::unlimited())
}

/// [`write_pairs_workbook`] within `budget`: the Tours sheet's rows are the steps of its
/// stage, then the compression.
fn write_pairs_workbook_within<W: Write + Send>(
    pairs: &Pairs,
    meta: &PairsWorkbook,
    out: W,
    budget: &WriteBudget<'_>,
) -> Result<(), XlsxError> {
    let mut workbook = Workbook::new();
    workbook.set_properties(&properties(pairs, meta)?);
    matrix_sheet(workbook.add_worksheet(), pairs, meta)?;
    let found = pairs.totals().found;
    {
        let _stage = budget.stage(Work::Rows, found);
        tours_sheet(
            workbook.add_worksheet_with_constant_memory()?,
            pairs,
            budget,
        )?;
    }
    let cells = found * (pairs.board().len() as u64 + 2) + pairs.squares().len().pow(2) as u64;
    crate::workbook::write::compress(
        &mut workbook,
        out,
        budget,
        crate::workbook::write::zip_estimate(cells, 2),
    )
}

fn properties(pairs: &Pairs, meta: &PairsWorkbook) -> Result<DocProperties, XlsxError> {
    let created = crate::workbook::write::excel_time(
        meta.created
            .unwrap_or_else(crate::workbook::write::creation_time),
    )?;
    let comment = if meta.command_line.is_empty() {
        format!("seed {}", pairs.seed())
    } else {
        format!("{} (seed {})", meta.command_line, pairs.seed())
    };
    Ok(DocProperties::new()
        .set_title(format!(
            "Knight's tours between every pair of squares, {}",
            pairs.board()
        ))
        .set_subject(pairs.answer_line())
        .set_comment(comment)
        .set_keywords("knight's tour")
        .set_creation_datetime(&created))
}

/// The colours of a mark: (fill, font).
fn colours(mark: Mark) -> (u32, u32) {
    match mark {
        Mark::Found => (0xC6EFCE, 0x006100),
        Mark::Colour => (0xF2F2F2, 0x808080),
        Mark::Theorem => (0xDDEBF7, 0x1F4E79),
        Mark::NoTour => (0xFFC7CE, 0x9C0006),
        Mark::NotAnswered => (0xFFEB9C, 0x9C5700),
        Mark::Same => (0x595959, 0xFFFFFF),
    }
}

/// The format of a matrix cell: its mark's colours, a light grid, and a medium line on the
/// top (left) when the row's (column's) square opens a new file.
fn cell_format(mark: Mark, file_top: bool, file_left: bool) -> Format {
    let (fill, font) = colours(mark);
    let grid = |f: Format, edge: bool, top: bool| {
        let (style, colour) = if edge {
            (FormatBorder::Medium, Color::Black)
        } else {
            (FormatBorder::Thin, Color::RGB(0xBFBFBF))
        };
        if top {
            f.set_border_top(style).set_border_top_color(colour)
        } else {
            f.set_border_left(style).set_border_left_color(colour)
        }
    };
    let f = Format::new()
        .set_font_size(9)
        .set_font_color(Color::RGB(font))
        .set_background_color(Color::RGB(fill))
        .set_align(FormatAlign::Center)
        .set_align(FormatAlign::VerticalCenter)
        .set_border_bottom(FormatBorder::Thin)
        .set_border_bottom_color(Color::RGB(0xBFBFBF))
        .set_border_right(FormatBorder::Thin)
        .set_border_right_color(Color::RGB(0xBFBFBF));
    grid(grid(f, file_top, true), file_left, false)
}

/// Formats of every (mark, file line above, file line left), built once.
struct CellFormats(Vec<Format>);

impl CellFormats {
    const MARKS: [Mark; 6] = [
        Mark::Found,
        Mark::Colour,
        Mark::Theorem,
        Mark::NoTour,
        Mark::NotAnswered,
        Mark::Same,
    ];

    fn new() -> CellFormats {
        let mut v = Vec::with_capacity(24);
        for mark in Self::MARKS {
            for top in [false, true] {
                for left in [false, true] {
                    v.push(cell_format(mark, top, left));
                }
            }
        }
        CellFormats(v)
    }

    fn get(&self, mark: Mark, top: bool, left: bool) -> &Format {
        let m = Self::MARKS.iter().position(|&k| k == mark).unwrap_or(0);
        &self.0[m * 4 + usize::from(top) * 2 + usize::from(left)]
    }
}

/// The text lines above the matrix: they wrap within its width (at least [`MIN_TEXT_PX`]),
/// each in cells merged across it, its row as high as its lines need.
struct TextLines {
    last_col: u32,
    width_px: u32,
}

impl TextLines {
    fn new(n: u32) -> TextLines {
        let matrix_px = START_COL_PX + n * CELL_PX;
        let extra_cols = MIN_TEXT_PX
            .saturating_sub(matrix_px)
            .div_ceil(board_layout::DEFAULT_COL_PX);
        TextLines {
            last_col: n + extra_cols,
            width_px: matrix_px + extra_cols * board_layout::DEFAULT_COL_PX,
        }
    }

    /// `text` on `row` from `col`, in `format` of `points`.
    fn line(
        &self,
        sheet: &mut Worksheet,
        (row, col): (u32, u32),
        text: &str,
        format: Format,
        points: u32,
    ) -> Result<(), XlsxError> {
        let left = if col == 0 {
            0
        } else {
            START_COL_PX + (col - 1) * CELL_PX
        };
        // Average character widths: about half the font's size in points, in pixels.
        let text_px = text.chars().count() as u32 * (points * 6 / 10 + 1);
        let lines = text_px.div_ceil(self.width_px - left).max(1);
        sheet.set_row_height_pixels(row, lines * (points * 4 / 3 + 4))?;
        let format = format.set_text_wrap().set_align(FormatAlign::Top);
        sheet.merge_range(row, col as u16, row, self.last_col as u16, text, &format)?;
        Ok(())
    }
}

fn matrix_sheet(
    sheet: &mut Worksheet,
    pairs: &Pairs,
    meta: &PairsWorkbook,
) -> Result<(), XlsxError> {
    sheet.set_name(MATRIX_SHEET)?;
    let n = pairs.squares().len() as u32;
    let formats = CellFormats::new();
    let lines = TextLines::new(n);
    write_heading(sheet, pairs, meta, &lines, &formats)?;
    write_matrix(sheet, pairs, &formats)?;
    sheet.set_column_width_pixels(0, START_COL_PX)?;
    sheet.set_column_range_width_pixels(1, n as u16, CELL_PX)?;
    sheet.set_default_row_height_pixels(CELL_PX);
    sheet.set_freeze_panes(MATRIX_HEADER_ROW + 1, 1)?;
    sheet.set_screen_gridlines(false);
    let area = PrintArea {
        first: CellRef::new(0, 0),
        last: CellRef::new(MATRIX_HEADER_ROW + n, lines.last_col),
        width_px: lines.width_px,
        height_px: (MATRIX_HEADER_ROW + 1 + n) * CELL_PX,
    };
    board_layout::set_print_page(sheet, area, false)?;
    sheet.set_print_fit_to_pages(1, 1);
    Ok(())
}

/// The lines above the matrix: the question, the answer, how to read it, a legend with the
/// totals, and how the answers were found.
fn write_heading(
    sheet: &mut Worksheet,
    pairs: &Pairs,
    meta: &PairsWorkbook,
    lines: &TextLines,
    formats: &CellFormats,
) -> Result<(), XlsxError> {
    let board = pairs.board();
    let totals = pairs.totals();
    let title = format!(
        "Knight's tours between every pair of squares of the {board} board: is there an open tour from each start to each end?"
    );
    let bold = Format::new().set_bold().set_font_size(14);
    lines.line(sheet, (0, 0), &title, bold, 14)?;
    let answer_colour = if pairs.all_answered() {
        0x00803C
    } else {
        0x9C5700
    };
    let answer = Format::new()
        .set_bold()
        .set_font_size(12)
        .set_font_color(Color::RGB(answer_colour));
    lines.line(sheet, (1, 0), &pairs.answer_line(), answer, 12)?;
    lines.line(sheet, (2, 0), INTRO, Format::new(), 11)?;
    // The legend: a sample cell and what it means, with its total.
    let mut row = 3;
    for mark in Mark::ANSWERS.into_iter().chain([Mark::Same]) {
        let count = totals.of(mark);
        if mark != Mark::Same && count == 0 && !matches!(mark, Mark::Found | Mark::Colour) {
            continue;
        }
        let text = match mark {
            Mark::Same => format!("{} (the diagonal: not a pair)", mark.meaning()),
            Mark::Colour => format!(
                "{}: {} pairs ({})",
                mark.meaning(),
                thousands(count),
                colour_rule(board)
            ),
            _ => format!(
                "{}: {} {}",
                mark.meaning(),
                thousands(count),
                if count == 1 { "pair" } else { "pairs" }
            ),
        };
        lines.line(sheet, (row, 2), &text, Format::new(), 11)?;
        let sample = formats
            .get(mark, false, false)
            .clone()
            .set_align(FormatAlign::Top);
        sheet.write_string_with_format(row, 1, mark.glyph(), &sample)?;
        row += 1;
    }
    let nodes = thousands(pairs.nodes());
    let mut about = format!(
        "{} ordered pairs of distinct squares; seed {}; {:.2} s, {nodes} search nodes",
        thousands(totals.pairs()),
        pairs.seed(),
        pairs.elapsed().as_secs_f64()
    );
    if !meta.command_line.is_empty() {
        about.push_str(&format!("; made by: {}", meta.command_line));
    }
    let grey = Format::new().set_font_color(Color::RGB(0x595959));
    lines.line(sheet, (row, 1), &about, grey, 11)?;
    debug_assert!(row < MATRIX_HEADER_ROW - 1);
    Ok(())
}

/// The matrix: ends across, starts down, a mark in each cell.
fn write_matrix(
    sheet: &mut Worksheet,
    pairs: &Pairs,
    formats: &CellFormats,
) -> Result<(), XlsxError> {
    let board = pairs.board();
    let squares = pairs.squares();
    let label = Format::new()
        .set_bold()
        .set_font_size(8)
        .set_align(FormatAlign::Center)
        .set_align(FormatAlign::VerticalCenter);
    sheet.write_string_with_format(
        MATRIX_HEADER_ROW,
        0,
        "start ↓ end →",
        &Format::new().set_font_size(7).set_text_wrap(),
    )?;
    for (k, &sq) in squares.iter().enumerate() {
        let col = 1 + k as u16;
        sheet.write_string_with_format(MATRIX_HEADER_ROW, col, board.algebraic(sq), &label)?;
    }
    sheet.set_row_height_pixels(MATRIX_HEADER_ROW, 26)?;
    let file_start = |sq: Square| sq.row + 1 == board.rows();
    for (r, &start) in squares.iter().enumerate() {
        let sheet_row = MATRIX_HEADER_ROW + 1 + r as u32;
        sheet.write_string_with_format(sheet_row, 0, board.algebraic(start), &label)?;
        for (c, &end) in squares.iter().enumerate() {
            let mark = pairs.mark(start, end);
            let format = formats.get(mark, file_start(start), file_start(end));
            sheet.write_string_with_format(sheet_row, 1 + c as u16, mark.glyph(), format)?;
        }
    }
    Ok(())
}

/// The colour rule of `board`, in a few words, for the legend.
fn colour_rule(board: crate::board::Board) -> String {
    if board.len().is_multiple_of(2) {
        format!(
            "a knight's move changes colour, so a tour of {} squares ends on the colour opposite its start",
            board.len()
        )
    } else {
        "on an odd board a tour starts and ends on the corners' colour, which has one square more"
            .to_string()
    }
}

fn tours_sheet(
    sheet: &mut Worksheet,
    pairs: &Pairs,
    budget: &WriteBudget<'_>,
) -> Result<(), XlsxError> {
    sheet.set_name(TOURS_SHEET)?;
    let board = pairs.board();
    let n = board.len();
    let bold = Format::new().set_bold();
    let header = Format::new()
        .set_bold()
        .set_background_color(Color::RGB(0xD9E1F2))
        .set_border_bottom(FormatBorder::Thin);
    let found = pairs.totals().found;
    // Constant-memory sheets take their settings before the first row.
    let last_col = TOURS_FIRST_SQUARE_COL + n as u16 - 1;
    sheet.set_column_range_width(0, 1, 6.0)?;
    sheet.set_column_width(2, 2.0)?;
    sheet.set_column_range_width(TOURS_FIRST_SQUARE_COL, last_col, 4.5)?;
    sheet.set_freeze_panes(TOURS_FIRST_ROW, TOURS_FIRST_SQUARE_COL)?;
    sheet.write_string_with_format(
        0,
        0,
        format!(
            "Every tour found on the {board} board: {} tours, one row per (start, end) pair, the squares in move order",
            thousands(found)
        ),
        &bold,
    )?;
    sheet.write_string_with_format(1, 0, "Start", &header)?;
    sheet.write_string_with_format(1, 1, "End", &header)?;
    sheet.write_string_with_format(
        1,
        TOURS_FIRST_SQUARE_COL,
        format!("Squares in move order, 1 to {n}"),
        &header,
    )?;
    let squares = pairs.squares();
    let mut row = TOURS_FIRST_ROW;
    for &start in &squares {
        for &end in &squares {
            let Some(tour) = pairs.tour(start, end) else {
                continue;
            };
            sheet.write_string_with_format(row, 0, board.algebraic(start), &bold)?;
            sheet.write_string_with_format(row, 1, board.algebraic(end), &bold)?;
            for (k, sq) in tour.squares().enumerate() {
                sheet.write_string(row, TOURS_FIRST_SQUARE_COL + k as u16, board.algebraic(sq))?;
            }
            budget.step(1).map_err(TimedOut::into_xlsx)?;
            row += 1;
        }
    }
    let last_row = row.saturating_sub(1).max(1);
    let area = PrintArea {
        first: CellRef::new(0, 0),
        last: CellRef::new(last_row, u32::from(last_col)),
        width_px: 2 * 47 + 19 + n as u32 * 36,
        height_px: (last_row + 1).min(40) * DEFAULT_ROW_PX,
    };
    board_layout::set_print_page(sheet, area, false)?;
    sheet.set_print_fit_to_pages(1, 0);
    sheet.set_repeat_rows(1, 1)?;
    Ok(())
}
