//! Where things go on a tour sheet and how big they are: whether a board fits, the square
//! cell size, font size and zoom that keep the board readable, and where the notes panel goes.

use rust_xlsxwriter::Format;

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
/// room above), the file letters over its columns, and the notes `lines` in the panel.
pub(crate) fn place_texts<'f>(
    board: Board,
    top_left: CellRef,
    title: String,
    lines: Vec<(String, &'f Format)>,
    f: &'f TextFormats,
) -> Vec<Text<'f>> {
    let mut out = Vec::new();
    let mut panel: Vec<(String, &'f Format)> = Vec::with_capacity(lines.len() + 1);
    match title_row(top_left) {
        Some(row) => out.push(Text {
            cell: CellRef::new(row, top_left.col),
            text: title,
            format: &f.title,
        }),
        None => panel.push((title, &f.title)),
    }
    if let Some(row) = letters_row(top_left) {
        for c in 0..board.cols() {
            out.push(Text {
                cell: CellRef::new(row, top_left.col + c),
                text: file_letters(c),
                format: &f.letters,
            });
        }
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
