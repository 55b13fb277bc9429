//! Where things go on a board sheet and how big they are: whether a board fits, the square
//! cell size, font size and zoom that keep the board readable, the rank and file labels, where
//! the notes panel goes, and how the sheet prints. Tour sheets, completed sheets and the
//! practice template all lay out their board through [`BoardLayout`].

use rust_xlsxwriter::{Format, Worksheet, XlsxError};

use super::styles::TextFormats;
use crate::board::{column_letters, file_letters, Board};
use crate::english::{a_board, count};
use crate::workbook::cellref::{CellRef, SHEET_COLS, SHEET_ROWS};

/// Why a board cannot be placed on a worksheet at a given top-left cell.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{} does not fit a worksheet with its top-left square at {top_left}: {reason}",
    a_board(*.board)
)]
pub struct FitError {
    /// The board.
    pub board: Board,
    /// Where its top-left square was to go.
    pub top_left: CellRef,
    /// Which limit it crosses and what would fit.
    pub reason: String,
}

/// Check that `board` fits a worksheet (1,048,576 rows x 16,384 columns) with its top-left
/// square at `top_left`.
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::workbook::cellref::CellRef;
/// use knights_tour::workbook::write::check_fits;
/// let c3 = CellRef::new(2, 2);
/// assert!(check_fits(Board::new(8, 8).unwrap(), c3).is_ok());
/// assert!(check_fits(Board::new(8, 16_382).unwrap(), c3).is_ok());
/// let err = check_fits(Board::new(8, 16_383).unwrap(), c3).unwrap_err();
/// assert!(err.to_string().contains("column XFD"), "{err}");
/// ```
pub fn check_fits(board: Board, top_left: CellRef) -> Result<(), FitError> {
    let mut problems = Vec::new();
    let last_row = u64::from(top_left.row) + u64::from(board.rows());
    if last_row > u64::from(SHEET_ROWS) {
        let free = SHEET_ROWS.saturating_sub(top_left.row);
        let (room, fit) = (count(free, "row"), fits(free));
        problems.push(format!(
            "its {} would end at row {last_row}, past the worksheet's last row {SHEET_ROWS} \
             (at most {room} {fit} below row {})",
            count(board.rows(), "row"),
            u64::from(top_left.row) + 1,
        ));
    }
    let last_col = u64::from(top_left.col) + u64::from(board.cols());
    if last_col > u64::from(SHEET_COLS) {
        let free = SHEET_COLS.saturating_sub(top_left.col);
        let (room, fit) = (count(free, "column"), fits(free));
        problems.push(format!(
            "its {} would end past column {} (the worksheet's last of {SHEET_COLS} columns; \
             at most {room} {fit} from column {})",
            count(board.cols(), "column"),
            column_letters(SHEET_COLS - 1),
            column_letters(top_left.col),
        ));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(FitError {
            board,
            top_left,
            reason: problems.join("; and "),
        })
    }
}

/// The verb for `n` things: "1 column fits", "2 columns fit".
fn fits(n: u32) -> &'static str {
    if n == 1 {
        "fits"
    } else {
        "fit"
    }
}

/// One board on one worksheet: where it goes and how big its cells are. Everything that
/// depends on the board's geometry (cell sizes, labels, the notes panel, the print page) is
/// derived from here, so the tour sheet, the completed sheet and the template agree.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct BoardLayout {
    /// The board.
    pub board: Board,
    /// Where its top-left square goes.
    pub top_left: CellRef,
    /// Its cells' size, font and zoom.
    pub look: Look,
    /// Height in pixels of the rows outside the board (the board's own height unless the
    /// sheet sets them lower).
    pub text_row_px: u32,
}

/// Width of the column of rank labels left of the board, in pixels.
const LABEL_COL_PX: u32 = 24;
/// Excel's default column width in pixels (8.43 characters of Calibri 11).
pub(crate) const DEFAULT_COL_PX: u32 = 64;
/// Excel's default row height in pixels (15 points).
pub(crate) const DEFAULT_ROW_PX: u32 = 20;
/// Width of a character in pixels, to estimate how far text runs: Calibri 11 averages about 7,
/// the bold 12-point titles about 8.
const CHAR_PX: u32 = 8;

/// Printable width and height in pixels (96 a inch) of the smaller of A4 and Letter, with the
/// margins [`BoardLayout::set_print_page`] sets: portrait `(w, h)`; landscape swaps them.
pub(crate) const PRINTABLE_PORTRAIT_PX: (f64, f64) = ((8.27 - 0.8) * 96.0, (11.0 - 1.0) * 96.0);

/// The cells a sheet prints, and their size on screen at 100% (pixels).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PrintArea {
    /// Top-left cell.
    pub first: CellRef,
    /// Bottom-right cell.
    pub last: CellRef,
    /// Width of the area in pixels.
    pub width_px: u32,
    /// Height of the area in pixels.
    pub height_px: u32,
}

impl BoardLayout {
    /// The layout of `board` at `top_left` with the tour sheets' look; refused if it does not
    /// fit a worksheet.
    pub(crate) fn new(board: Board, top_left: CellRef) -> Result<BoardLayout, FitError> {
        check_fits(board, top_left)?;
        let look = look(board);
        Ok(BoardLayout {
            board,
            top_left,
            look,
            text_row_px: look.row_px,
        })
    }

    /// The same board with cells at least `px` pixels a side (a practice board is written in
    /// by hand once printed, and needs room for it).
    pub(crate) fn with_min_cell(mut self, px: u32) -> BoardLayout {
        if self.look.cell_px < px {
            self.look.cell_px = px;
            self.look.row_px = (px * 103 + 50) / 100;
            self.text_row_px = self.look.row_px;
        }
        self
    }

    /// Sheet row of board row `r` and sheet column of board column `c`.
    pub(crate) fn cell(&self, r: u32, c: u32) -> CellRef {
        self.top_left.offset(r, c)
    }

    /// The board's last cell.
    pub(crate) fn last(&self) -> CellRef {
        self.cell(self.board.rows() - 1, self.board.cols() - 1)
    }

    /// Column of the rank labels (left of the board), if there is one.
    pub(crate) fn rank_col(&self) -> Option<u32> {
        self.top_left.col.checked_sub(1)
    }

    /// Square cells, the label column, zoom, no gridlines (the board has its own borders).
    /// Every row gets the board's height: per-row heights in constant-memory mode would repeat
    /// the last row's element, which Excel reports as a damaged file.
    pub(crate) fn set_geometry(&self, sheet: &mut Worksheet) -> Result<(), XlsxError> {
        let tl = self.top_left;
        sheet.set_default_row_height_pixels(self.look.row_px);
        let last_col = tl.col + self.board.cols() - 1;
        sheet.set_column_range_width_pixels(col16(tl.col), col16(last_col), self.look.cell_px)?;
        if let Some(c) = self.rank_col() {
            sheet.set_column_width_pixels(col16(c), LABEL_COL_PX)?;
        }
        sheet.set_zoom(self.look.zoom);
        sheet.set_screen_gridlines(false);
        Ok(())
    }

    /// Width in pixels of sheet column `c` as [`BoardLayout::set_geometry`] sets it.
    fn col_px(&self, c: u32) -> u32 {
        let tl = self.top_left;
        if (tl.col..tl.col + self.board.cols()).contains(&c) {
            self.look.cell_px
        } else if Some(c) == self.rank_col() {
            LABEL_COL_PX
        } else {
            DEFAULT_COL_PX
        }
    }

    /// The rank numbers (as text, `8` at the top to `1` at the bottom, so that a1 is the
    /// bottom-left square) left of the board and the file letters above it.
    pub(crate) fn labels<'f>(&self, format: &'f Format) -> Vec<Text<'f>> {
        let mut out = Vec::new();
        if let Some(row) = letters_row(self.top_left) {
            for c in 0..self.board.cols() {
                out.push(Text {
                    cell: CellRef::new(row, self.top_left.col + c),
                    text: file_letters(c),
                    format,
                });
            }
        }
        if let Some(col) = self.rank_col() {
            let rows = self.board.rows();
            for r in 0..rows {
                out.push(Text {
                    cell: CellRef::new(self.top_left.row + r, col),
                    text: (rows - r).to_string(),
                    format,
                });
            }
        }
        out
    }

    /// Rank labels are digits stored as text on purpose (so no reader takes them for moves):
    /// tell Excel not to flag them.
    pub(crate) fn quiet_label_warnings(&self, sheet: &mut Worksheet) -> Result<(), XlsxError> {
        if let Some(c) = self.rank_col() {
            let (r0, r1) = (self.top_left.row, self.last().row);
            sheet.ignore_error_range(
                r0,
                col16(c),
                r1,
                col16(c),
                rust_xlsxwriter::IgnoreError::NumberStoredAsText,
            )?;
        }
        Ok(())
    }

    /// The cells that print: the board, its labels and every text around it (each text's
    /// estimated run to the right included, so titles and notes are never cut off).
    pub(crate) fn print_area(&self, texts: &[Text<'_>]) -> PrintArea {
        let tl = self.top_left;
        let first = CellRef::new(
            texts.iter().map(|t| t.cell.row).fold(tl.row, u32::min),
            texts
                .iter()
                .map(|t| t.cell.col)
                .fold(self.rank_col().unwrap_or(tl.col), u32::min),
        );
        let mut last = self.last();
        for t in texts {
            last.row = last.row.max(t.cell.row);
            // Text runs on over the empty cells to its right.
            let mut need = t.text.chars().count() as u32 * CHAR_PX;
            let mut c = t.cell.col;
            loop {
                let w = self.col_px(c);
                if need <= w || c + 1 >= SHEET_COLS {
                    break;
                }
                need -= w;
                c += 1;
            }
            last.col = last.col.max(c);
        }
        let width_px = (first.col..=last.col).map(|c| self.col_px(c)).sum();
        let rows = last.row - first.row + 1;
        let height_px =
            self.board.rows() * self.look.row_px + (rows - self.board.rows()) * self.text_row_px;
        PrintArea {
            first,
            last,
            width_px,
            height_px,
        }
    }

    /// Print `area` one page wide (as many pages tall as it needs), landscape when wider than
    /// tall, centred, with narrow margins. With `grow` an area smaller than the page is
    /// enlarged to fill it (up to 400%): a small board prints big, and a practice board big
    /// enough to write in.
    pub(crate) fn set_print_page(
        &self,
        sheet: &mut Worksheet,
        area: PrintArea,
        grow: bool,
    ) -> Result<(), XlsxError> {
        set_print_page(sheet, area, grow)
    }
}

/// See [`BoardLayout::set_print_page`]; also used by sheets without a board (the Summary).
pub(crate) fn set_print_page(
    sheet: &mut Worksheet,
    area: PrintArea,
    grow: bool,
) -> Result<(), XlsxError> {
    let landscape = area.width_px > area.height_px;
    let (pw, ph) = if landscape {
        (PRINTABLE_PORTRAIT_PX.1, PRINTABLE_PORTRAIT_PX.0)
    } else {
        PRINTABLE_PORTRAIT_PX
    };
    if landscape {
        sheet.set_landscape();
    } else {
        sheet.set_portrait();
    }
    sheet
        .set_margins(0.4, 0.4, 0.5, 0.5, 0.2, 0.2)
        .set_print_center_horizontally(true);
    // LibreOffice draws columns up to ~6% wider than Excel: leave that much room.
    let fill_w = pw / f64::from(area.width_px.max(1)) * 0.92;
    let fill_h = ph / f64::from(area.height_px.max(1)) * 0.92;
    let fill = fill_w.min(fill_h);
    if grow && fill > 1.0 {
        sheet.set_print_scale((fill * 100.0).min(400.0) as u16);
    } else if fill_h >= fill_w * 0.75 {
        // Nearly as tall as wide: a quarter smaller at most puts it all on one page, rather
        // than a few rows on a second.
        sheet.set_print_fit_to_pages(1, 1);
    } else {
        sheet.set_print_fit_to_pages(1, 0);
    }
    sheet.set_print_area(
        area.first.row,
        col16(area.first.col),
        area.last.row,
        col16(area.last.col),
    )?;
    Ok(())
}

/// Print a table (the Summary sheets) one page wide: columns `0..widths.len()` of `widths`
/// characters, rows `0..=last_row`, the header row `header` repeated on every page. A long
/// table stays landscape (it is wide, and continues on further pages).
pub(crate) fn set_table_print_page(
    sheet: &mut Worksheet,
    widths: &[f64],
    last_row: u32,
    header: u32,
) -> Result<(), XlsxError> {
    let width_px = widths.iter().map(|w| (w * 7.0 + 5.0) as u32).sum();
    let area = PrintArea {
        first: CellRef::new(0, 0),
        last: CellRef::new(last_row, widths.len().saturating_sub(1) as u32),
        width_px,
        height_px: (last_row + 1).min(30) * DEFAULT_ROW_PX,
    };
    set_print_page(sheet, area, false)?;
    // One page wide, as many tall as the rows need.
    sheet.set_print_fit_to_pages(1, 0);
    sheet.set_repeat_rows(header, header)?;
    Ok(())
}

/// A sheet column as the writer wants it (checked against [`SHEET_COLS`] by [`check_fits`]).
pub(crate) fn col16(c: u32) -> u16 {
    c.min(SHEET_COLS - 1) as u16
}

/// How a board's cells look: square cells of `cell_px` pixels with numbers in `font_size`
/// points, opened at `zoom` percent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Look {
    /// Font size of the move numbers, in points.
    pub font_size: f64,
    /// Width of a board cell (column width), in pixels at 100% zoom in Excel.
    pub cell_px: u32,
    /// Height of a board cell (row height), in pixels. About 3% more than the width: Excel
    /// shows the column `cell_px` wide, LibreOffice about 6% wider (it scales the stored
    /// character width by its own digit width), so both see squares within 3%.
    pub row_px: u32,
    /// Zoom percentage the sheet opens at.
    pub zoom: u16,
}

/// Pixels a board may take on screen at the chosen zoom (a laptop window, roughly).
const SCREEN_PX: u32 = 640;
/// Below this zoom numbers are too small to read; a board that would need it opens at 100%.
const MIN_READABLE_ZOOM: u32 = 55;
/// Above this small boards look clumsy.
const MAX_ZOOM: u32 = 150;

/// The look for `board`: cells wide enough for its largest move number, square in pixels
/// (column width and row height are both set in pixels), zoomed so the whole board shows
/// when that keeps the numbers readable.
pub(crate) fn look(board: Board) -> Look {
    let digits = decimal_digits(board.len());
    let (font_size, cell_px) = match digits {
        0..=2 => (12.0, 32),
        3 => (11.0, 32),
        4 => (10.0, 38),
        5 => (9.0, 42),
        6 => (8.0, 46),
        7 => (8.0, 52),
        d => (8.0, 52 + 7 * (d - 7)),
    };
    // Two extra rows for the title and the file letters above the board.
    let side_px = (board.rows().max(board.cols()) + 2).saturating_mul(cell_px);
    let fit = SCREEN_PX.saturating_mul(100) / side_px.max(1);
    let zoom = if fit < MIN_READABLE_ZOOM {
        100
    } else {
        fit.min(MAX_ZOOM)
    };
    Look {
        font_size,
        cell_px,
        row_px: (cell_px * 103 + 50) / 100,
        zoom: zoom as u16,
    }
}

/// Number of decimal digits of `n` (at least 1).
pub(crate) fn decimal_digits(n: usize) -> u32 {
    n.checked_ilog10().map_or(1, |d| d + 1)
}

/// Where the notes panel (a column of text lines) goes: right of the board if the sheet has
/// room, else below, else in column A left of it, else above; `None` if nowhere.
pub(crate) fn panel_anchor(board: Board, top_left: CellRef, lines: u32) -> Option<CellRef> {
    let right_col = u64::from(top_left.col) + u64::from(board.cols()) + 1;
    if right_col < u64::from(SHEET_COLS)
        && u64::from(top_left.row) + u64::from(lines) <= u64::from(SHEET_ROWS)
    {
        return Some(CellRef::new(top_left.row, right_col as u32));
    }
    let below_row = u64::from(top_left.row) + u64::from(board.rows()) + 1;
    if below_row + u64::from(lines) <= u64::from(SHEET_ROWS) {
        return Some(CellRef::new(below_row as u32, top_left.col));
    }
    if top_left.col >= 2 && u64::from(top_left.row) + u64::from(lines) <= u64::from(SHEET_ROWS) {
        return Some(CellRef::new(top_left.row, 0));
    }
    // Above, clear of the title and file-letter rows.
    if top_left.row >= lines + 3 {
        return Some(CellRef::new(0, top_left.col));
    }
    None
}

/// Row of the sheet title (two rows above the board), if there is room.
pub(crate) fn title_row(top_left: CellRef) -> Option<u32> {
    top_left.row.checked_sub(2)
}

/// Row of the file letters (just above the board), if there is room.
pub(crate) fn letters_row(top_left: CellRef) -> Option<u32> {
    top_left.row.checked_sub(1)
}

/// A text cell beside a board (title, file letter, notes line).
pub(crate) struct Text<'f> {
    /// Where it goes.
    pub cell: CellRef,
    /// What it says.
    pub text: String,
    /// How it looks.
    pub format: &'f Format,
}

/// The text around a board: the title above it (or first in the notes panel when there is no
/// room above), the rank and file labels, and the notes `lines` in the panel.
pub(crate) fn place_texts<'f>(
    layout: &BoardLayout,
    title: String,
    lines: Vec<(String, &'f Format)>,
    f: &'f TextFormats,
) -> Vec<Text<'f>> {
    let (board, top_left) = (layout.board, layout.top_left);
    let mut out = layout.labels(&f.letters);
    let mut panel: Vec<(String, &'f Format)> = Vec::with_capacity(lines.len() + 1);
    match title_row(top_left) {
        Some(row) => out.push(Text {
            cell: CellRef::new(row, top_left.col),
            text: title,
            format: &f.title,
        }),
        None => panel.push((title, &f.title)),
    }
    panel.extend(lines);
    if let Some(anchor) = panel_anchor(board, top_left, panel.len() as u32) {
        for (i, (text, format)) in panel.into_iter().enumerate() {
            out.push(Text {
                cell: anchor.offset(i as u32, 0),
                text,
                format,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_is_exact_at_the_sheet_edges() {
        let b = Board::new(3, 4).unwrap();
        assert!(check_fits(b, CellRef::new(SHEET_ROWS - 3, SHEET_COLS - 4)).is_ok());
        let e = check_fits(b, CellRef::new(SHEET_ROWS - 2, 0)).unwrap_err();
        assert!(e.reason.contains("rows"), "{e}");
        assert!(e.to_string().contains("A1048575"), "{e}");
        let e = check_fits(b, CellRef::new(0, SHEET_COLS - 3)).unwrap_err();
        assert!(e.reason.contains("at most 3 columns fit"), "{e}");
        let both = check_fits(b, CellRef::new(SHEET_ROWS - 1, SHEET_COLS - 1)).unwrap_err();
        assert!(
            both.reason.contains("rows") && both.reason.contains("columns"),
            "{both}"
        );
    }

    #[test]
    fn cells_grow_with_the_largest_number() {
        let small = look(Board::new(8, 8).unwrap());
        let big = look(Board::new(1000, 1000).unwrap());
        assert!(big.cell_px > small.cell_px);
        assert!(big.font_size < small.font_size);
        // An 8x8 board fits the screen and is zoomed in; a huge one opens at 100%.
        assert!(small.zoom > 100);
        assert_eq!(big.zoom, 100);
        let thirty = look(Board::new(30, 30).unwrap());
        assert!((55..100).contains(&thirty.zoom), "{thirty:?}");
    }

    #[test]
    fn digits_are_counted() {
        assert_eq!(decimal_digits(0), 1);
        assert_eq!(decimal_digits(9), 1);
        assert_eq!(decimal_digits(64), 2);
        assert_eq!(decimal_digits(1_000_000), 7);
    }

    #[test]
    fn panel_falls_back_around_the_board() {
        let b = Board::new(8, 8).unwrap();
        assert_eq!(
            panel_anchor(b, CellRef::new(2, 2), 8),
            Some(CellRef::new(2, 11))
        );
        let at_right_edge = CellRef::new(2, SHEET_COLS - 8);
        assert_eq!(
            panel_anchor(b, at_right_edge, 8),
            Some(CellRef::new(11, SHEET_COLS - 8))
        );
        let corner = CellRef::new(SHEET_ROWS - 8, SHEET_COLS - 8);
        assert_eq!(
            panel_anchor(b, corner, 8),
            Some(CellRef::new(SHEET_ROWS - 8, 0))
        );
        let tall = Board::new(SHEET_ROWS, 4).unwrap();
        assert_eq!(
            panel_anchor(tall, CellRef::new(0, SHEET_COLS - 4), 8),
            Some(CellRef::new(0, 0))
        );
        assert_eq!(
            panel_anchor(tall, CellRef::new(0, SHEET_COLS - 6), 8),
            Some(CellRef::new(0, SHEET_COLS - 1))
        );
        assert_eq!(
            panel_anchor(tall, CellRef::new(0, 1), 8),
            Some(CellRef::new(0, 6))
        );
    }
}
