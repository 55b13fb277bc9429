//! Empty practice boards: a workbook with a bordered board to fill in by hand, which checks
//! the typing as it goes.
//!
//! The board's cells accept only whole numbers `1..=N` (data validation with an input and an
//! error message), and conditional formatting marks a number typed twice, a number whose
//! successor is not a knight's move away, and anything in the board that is not a move
//! number. File and rank labels and the instruction line are text, so a verifier never mistakes
//! them for the board: an empty template has no numbers at all (it verifies as `no-board`).
//!
//! The rules are plain formulas (`COUNTIF`, `SUMPRODUCT`, `ROW`, `COLUMN`) that work the same
//! in Excel and LibreOffice; [`duplicate_rule`], [`successor_rule`] and [`not_a_move_rule`]
//! give them for any cell so they can be tested outside conditional formatting too.

use rust_xlsxwriter::{
    ConditionalFormatFormula, DataValidation, DataValidationErrorStyle, DataValidationRule, Format,
    FormatAlign, FormatBorder, Formula, Workbook, Worksheet, XlsxError,
};

use crate::board::{file_letters, Board, Square};
use crate::workbook::cellref::{CellRange, CellRef, SHEET_COLS, SHEET_ROWS};
use crate::workbook::write::{check_fits, FitError};

/// Why a template cannot be laid out.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TemplateError {
    /// The board runs past the sheet's last row or column (the same check as tour sheets).
    #[error(transparent)]
    DoesNotFit(#[from] FitError),
}

/// Where an empty practice board goes on its worksheet.
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::workbook::template::Template;
/// let t = Template::new(Board::new(8, 8).unwrap(), "C3".parse().unwrap()).unwrap();
/// assert_eq!(t.range().to_string(), "C3:J10");
/// assert!(Template::new(Board::new(8, 8).unwrap(), "XFA1".parse().unwrap()).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Template {
    board: Board,
    at: CellRef,
}

impl Template {
    /// A template for `board` with its top-left square at cell `at`; refused if the board
    /// does not fit on a worksheet from there.
    pub fn new(board: Board, at: CellRef) -> Result<Template, TemplateError> {
        check_fits(board, at)?;
        Ok(Template { board, at })
    }

    /// The board.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The board's cells on the sheet.
    pub fn range(&self) -> CellRange {
        CellRange::new(
            self.at,
            self.at.offset(self.board.rows() - 1, self.board.cols() - 1),
        )
    }

    /// The cell of a board square.
    pub fn cell(&self, sq: Square) -> CellRef {
        self.at.offset(sq.row, sq.col)
    }

    /// The text telling a person what to do.
    pub fn instructions(&self) -> String {
        format!(
            "Knight's tour practice: type 1 to {} in the order a knight visits the squares \
             (each move: two squares one way, one the other). Red: a number typed twice. \
             Orange: the next number is not a knight's move away. Grey: not a move number.",
            self.board.len()
        )
    }

    /// The whole workbook: one worksheet, `Tour`, with the board, labels, instructions,
    /// validation and conditional formatting.
    pub fn workbook(&self) -> Result<Workbook, XlsxError> {
        let mut workbook = Workbook::new();
        let sheet = workbook.add_worksheet_with_constant_memory()?;
        sheet.set_name("Tour")?;
        self.lay_out(sheet)?;
        Ok(workbook)
    }

    /// Write everything onto `sheet`, row by row (the sheet may be in constant-memory mode).
    fn lay_out(&self, sheet: &mut Worksheet) -> Result<(), XlsxError> {
        let (at, rows, cols) = (self.at, self.board.rows(), self.board.cols());
        let side = cell_side_px(self.board.len());
        let label = Format::new()
            .set_align(FormatAlign::Center)
            .set_align(FormatAlign::VerticalCenter)
            .set_font_color(0x606060);
        let note = Format::new().set_italic();
        let square = |light: bool| {
            let f = Format::new()
                .set_border(FormatBorder::Thin)
                .set_align(FormatAlign::Center)
                .set_align(FormatAlign::VerticalCenter)
                .set_unlocked();
            f.set_background_color(if light { 0xF7F0E1 } else { 0xD9C3A5 })
        };
        let (light, dark) = (square(true), square(false));

        // Every row gets the board's height: per-row heights in constant-memory mode would
        // repeat the last row's element, which Excel reports as a damaged file.
        sheet.set_default_row_height_pixels(side);
        for c in 0..cols {
            sheet.set_column_width_pixels(col(at.col + c), side)?;
        }
        if at.col > 0 {
            sheet.set_column_width_pixels(col(at.col - 1), 24)?;
        }
        // Instructions above the labels if there is room, else below the board.
        let note_row = if at.row >= 2 {
            Some(at.row - 2)
        } else {
            Some(at.row + rows + 1).filter(|&r| r < SHEET_ROWS)
        };
        let note_col = at.col.saturating_sub(1);
        if let Some(r) = note_row.filter(|&r| r < at.row) {
            sheet.write_string_with_format(r, col(note_col), self.instructions(), &note)?;
        }
        if at.row > 0 {
            for c in 0..cols {
                sheet.write_string_with_format(
                    at.row - 1,
                    col(at.col + c),
                    file_letters(c),
                    &label,
                )?;
            }
        }
        for r in 0..rows {
            if at.col > 0 {
                let rank = (rows - r).to_string();
                sheet.write_string_with_format(at.row + r, col(at.col - 1), rank, &label)?;
            }
            for c in 0..cols {
                let fmt = if Square::new(r, c).is_corner_colour() {
                    &light
                } else {
                    &dark
                };
                sheet.write_blank(at.row + r, col(at.col + c), fmt)?;
            }
        }
        if let Some(r) = note_row.filter(|&r| r > at.row) {
            sheet.write_string_with_format(r, col(note_col), self.instructions(), &note)?;
        }
        self.add_checks(sheet)?;
        sheet.set_selection(at.row, col(at.col), at.row, col(at.col))?;
        sheet.set_print_fit_to_pages(1, 1);
        Ok(())
    }

    /// Data validation and the three conditional formats, all on the board range.
    fn add_checks(&self, sheet: &mut Worksheet) -> Result<(), XlsxError> {
        let range = self.range();
        let (r0, c0) = (range.first.row, col(range.first.col));
        let (r1, c1) = (range.last.row, col(range.last.col));
        let n = self.board.len();
        let validation = DataValidation::new()
            .allow_whole_number_formula(DataValidationRule::Between(
                Formula::new("1"),
                Formula::new(n.to_string()),
            ))
            .set_input_title("Move number")?
            .set_input_message(format!(
                "The move on which the knight lands here: a whole number from 1 to {n}."
            ))?
            .set_error_title("Not a move number")?
            .set_error_message(format!("Type a whole number from 1 to {n}."))?
            .set_error_style(DataValidationErrorStyle::Stop);
        sheet.add_data_validation(r0, c0, r1, c1, &validation)?;

        let top_left = range.first;
        let rules = [
            (duplicate_rule(range, top_left), 0xFFC7CE, 0x9C0006),
            (not_a_move_rule(top_left, n), 0xBFBFBF, 0x404040),
            (successor_rule(range, top_left), 0xFFCC80, 0x7A3E00),
        ];
        for (rule, fill, font) in rules {
            let format = Format::new()
                .set_background_color(fill)
                .set_font_color(font)
                .set_bold();
            let cf = ConditionalFormatFormula::new()
                .set_rule(format!("={rule}").as_str())
                .set_format(format);
            sheet.add_conditional_format(r0, c0, r1, c1, &cf)?;
        }
        Ok(())
    }
}

/// A sheet column as the writer wants it; [`Template::new`] has checked it is below
/// [`SHEET_COLS`] (16,384), so it fits.
fn col(c: u32) -> u16 {
    c.min(SHEET_COLS - 1) as u16
}

/// Square-looking cells wide enough for the largest move number (pixels, for both the column
/// width and the row height).
fn cell_side_px(squares: usize) -> u32 {
    let digits = squares.to_string().len() as u32;
    (digits * 8 + 14).max(32)
}

/// `$C$3:$J$10`: a range with absolute references, for formulas.
fn absolute(range: CellRange) -> String {
    let abs = |c: CellRef| {
        let text = c.to_string();
        let split = text
            .find(|ch: char| ch.is_ascii_digit())
            .unwrap_or(text.len());
        format!("${}${}", &text[..split], &text[split..])
    };
    format!("{}:{}", abs(range.first), abs(range.last))
}

/// True when `cell` holds a number that also appears elsewhere in `range`.
///
/// ```
/// use knights_tour::workbook::template::duplicate_rule;
/// let range = "C3:J10".parse().unwrap();
/// assert_eq!(duplicate_rule(range, "C3".parse().unwrap()),
///            "AND(ISNUMBER(C3),COUNTIF($C$3:$J$10,C3)>1)");
/// ```
pub fn duplicate_rule(range: CellRange, cell: CellRef) -> String {
    format!(
        "AND(ISNUMBER({cell}),COUNTIF({},{cell})>1)",
        absolute(range)
    )
}

/// True when `cell` holds a number `v`, `v + 1` appears exactly once in `range`, and it is not
/// a knight's move away: the rows and columns between them, multiplied, are not 2 (only
/// `{1, 2}` multiplies to 2). `IF` guards the arithmetic: spreadsheets' `AND` evaluates every
/// argument, and text plus one is an error.
///
/// ```
/// use knights_tour::workbook::template::successor_rule;
/// let rule = successor_rule("C3:J10".parse().unwrap(), "D4".parse().unwrap());
/// assert!(rule.starts_with("IF(ISNUMBER(D4),AND(COUNTIF($C$3:$J$10,D4+1)=1,"));
/// ```
pub fn successor_rule(range: CellRange, cell: CellRef) -> String {
    let b = absolute(range);
    format!(
        "IF(ISNUMBER({cell}),AND(COUNTIF({b},{cell}+1)=1,\
         ABS(SUMPRODUCT(({b}={cell}+1)*ROW({b}))-ROW({cell}))\
         *ABS(SUMPRODUCT(({b}={cell}+1)*COLUMN({b}))-COLUMN({cell}))<>2),FALSE)"
    )
}

/// True when `cell` is not empty and not a whole number from 1 to `squares` (text, a
/// fraction, zero, too large): values pasted past the data validation.
pub fn not_a_move_rule(cell: CellRef, squares: usize) -> String {
    format!(
        "AND({cell}<>\"\",OR(NOT(ISNUMBER({cell})),IF(ISNUMBER({cell}),OR({cell}<1,{cell}>{squares},{cell}<>INT({cell})),FALSE)))"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_must_fit_the_sheet() {
        let b = Board::new(8, 8).unwrap();
        assert!(Template::new(b, CellRef::new(SHEET_ROWS - 8, SHEET_COLS - 8)).is_ok());
        let err = Template::new(b, CellRef::new(SHEET_ROWS - 7, 0)).unwrap_err();
        assert!(err.to_string().contains("does not fit"), "{err}");
        assert!(Template::new(b, CellRef::new(0, SHEET_COLS - 7)).is_err());
    }

    #[test]
    fn absolute_ranges() {
        let r: CellRange = "AA10:AB12".parse().unwrap();
        assert_eq!(absolute(r), "$AA$10:$AB$12");
    }

    #[test]
    fn cells_grow_with_the_numbers() {
        assert_eq!(cell_side_px(64), 32);
        assert!(cell_side_px(10_000) > cell_side_px(64));
    }
}
