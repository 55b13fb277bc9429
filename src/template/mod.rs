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
    ConditionalFormatFormula, DataValidation, DataValidationErrorStyle, DataValidationRule,
    DocProperties, Format, FormatAlign, FormatBorder, Formula, Workbook, Worksheet, XlsxError,
};

use crate::board::{Board, Square};
use crate::english::a_board;
use crate::output::write_budget::{TimedOut, Work, WriteBudget};
use crate::workbook::cellref::{CellRange, CellRef, SHEET_ROWS};
use crate::workbook::write::board_layout::{col16, BoardLayout, Text, DEFAULT_ROW_PX};
use crate::workbook::write::{
    check_fits, compress, creation_time, excel_time, zip_estimate, FitError,
    CONSTANT_MEMORY_SQUARES,
};

/// Why a template cannot be laid out.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TemplateError {
    /// The board runs past the sheet's last row or column (the same check as tour sheets).
    #[error(transparent)]
    DoesNotFit(#[from] FitError),
    /// The board starts in row 1 or column A: its file letters (the row above) and rank
    /// numbers (the column to the left) would have nowhere to go.
    #[error(
        "the file letters go in the row above the board and the rank numbers in the column to \
         its left, so a practice board starts at B2 at the earliest (C3 leaves room for the title too)"
    )]
    NoRoomForLabels,
}

/// What a practice sheet holds besides its empty squares: a practice board's title and
/// instructions with nothing given ([`Template::practice`]), or a puzzle's, whose given move
/// numbers are locked under sheet protection (no password) while the empty squares stay open
/// for typing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Content<'a> {
    /// The sheet's title, above the board.
    pub title: String,
    /// The instructions below the board, one thought a line.
    pub lines: Vec<String>,
    /// Move numbers given, by square index (0: empty, to fill in); empty for none.
    pub given: &'a [u32],
}

/// Where an empty practice board goes on its worksheet.
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::template::Template;
/// let t = Template::new(Board::new(8, 8).unwrap(), "C3".parse().unwrap()).unwrap();
/// assert_eq!(t.range().to_string(), "C3:J10");
/// assert!(Template::new(Board::new(8, 8).unwrap(), "XFA1".parse().unwrap()).is_err());
/// // Row 1 and column A leave no room for the labels.
/// assert!(Template::new(Board::new(8, 8).unwrap(), "A1".parse().unwrap()).is_err());
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
        if at.row == 0 || at.col == 0 {
            return Err(TemplateError::NoRoomForLabels);
        }
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
        self.instruction_lines().join(" ")
    }

    /// The instructions, one thought a line (each wrapped to the board's width on the sheet).
    fn instruction_lines(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "Type 1 to {} in the order a knight visits the squares \
             (each move: two squares one way, one the other).",
            self.board.len()
        )];
        lines.extend(Template::colour_lines());
        lines
    }

    /// What the colours of the live checks mean.
    pub fn colour_lines() -> [String; 3] {
        [
            "Red: a number typed twice.".to_string(),
            "Orange: the next number is not a knight's move away.".to_string(),
            "Grey: not a move number.".to_string(),
        ]
    }

    /// A practice board's content: its title and instructions, nothing given.
    pub fn practice(&self) -> Content<'static> {
        Content {
            title: format!("Knight's tour practice on {}", a_board(self.board)),
            lines: self.instruction_lines(),
            given: &[],
        }
    }

    /// The board's layout: the tour sheets' layout, with squares big enough to write in by
    /// hand once printed. Boards up to about 8x8 get squares that make the board as wide as
    /// the printed page at 100%, whatever its size, so that a 5x5 or a 3x4 practice board
    /// prints as big as an 8x8 one (the print scale only grows the text along with it).
    fn layout(&self) -> BoardLayout {
        let (rows, cols) = (self.board.rows(), self.board.cols());
        let page_cell = (PAGE_BOARD_PX.0 / cols).min(PAGE_BOARD_PX.1 / rows);
        let mut layout = BoardLayout {
            board: self.board,
            top_left: self.at,
            look: crate::workbook::write::board_layout::look(self.board),
            text_row_px: 0,
        }
        .with_min_cell(page_cell.max(WRITING_CELL_PX));
        // Numbers a person types fill the square the way the tour sheets' do.
        let fitting = f64::from(layout.look.cell_px) * 0.3;
        layout.look.font_size = layout.look.font_size.max(fitting.min(28.0));
        layout
    }

    /// The whole workbook: one worksheet, `Tour`, with the board, labels, instructions,
    /// validation and conditional formatting.
    pub fn workbook(&self) -> Result<Workbook, XlsxError> {
        self.build(&WriteBudget::unlimited())
    }

    /// Write the workbook to `path` atomically (never over an existing file without `force`),
    /// within `budget` (see [`crate::output::write_budget`]).
    pub fn save(
        &self,
        path: &std::path::Path,
        force: bool,
        budget: &WriteBudget<'_>,
    ) -> crate::error::Result<()> {
        let failed = |e: XlsxError| crate::error::Error::Workbook {
            path: path.to_path_buf(),
            message: e.to_string(),
        };
        crate::output::write_atomically_with(path, force, budget, |out| {
            let mut workbook = self.build(budget).map_err(failed)?;
            let estimate = zip_estimate(self.board.len() as u64, 1);
            compress(&mut workbook, out, budget, estimate).map_err(failed)
        })
    }

    /// [`Template::workbook`], its rows counted against `budget`.
    fn build(&self, budget: &WriteBudget<'_>) -> Result<Workbook, XlsxError> {
        let mut workbook = Workbook::new();
        let created = excel_time(creation_time())?;
        workbook.set_properties(
            &DocProperties::new()
                .set_title(format!("Knight's tour practice on {}", a_board(self.board)))
                .set_creation_datetime(&created),
        );
        let sheet = if self.board.len() >= CONSTANT_MEMORY_SQUARES {
            workbook.add_worksheet_with_constant_memory()?
        } else {
            workbook.add_worksheet()
        };
        sheet.set_name("Tour")?;
        let _stage = budget.stage(Work::Rows, u64::from(self.board.rows()));
        self.write(sheet, &self.practice(), budget)?;
        Ok(workbook)
    }

    /// The title and instruction lines around the board, and the labels.
    fn texts<'f>(
        &self,
        bl: &BoardLayout,
        f: &'f TemplateFormats,
        content: &Content<'_>,
    ) -> Vec<Text<'f>> {
        let (at, rows) = (self.at, self.board.rows());
        let mut texts = bl.labels(&f.label);
        let left = bl.rank_col().unwrap_or(at.col);
        let title = content.title.clone();
        // Lines no wider than the board, at a width every spreadsheet's italic font keeps
        // within it (Gnumeric's runs wider than Excel's: at 8 px a character it cut the
        // lines at the print area's right edge).
        let width = (self.board.cols() * bl.look.cell_px).max(WRITING_CELL_PX * 5) / TEXT_CHAR_PX;
        let lines = content
            .lines
            .iter()
            .flat_map(|l| wrap(l, width as usize))
            .collect::<Vec<_>>();
        let below = at.row + rows + 1;
        let (title_at, first_line) = match at.row.checked_sub(2) {
            Some(r) => (Some(r), below),
            None => (None, below),
        };
        let mut panel: Vec<(String, &Format)> = Vec::new();
        match title_at {
            Some(r) => texts.push(Text {
                cell: CellRef::new(r, left),
                text: title,
                format: &f.title,
            }),
            None => panel.push((title, &f.title)),
        }
        panel.extend(lines.into_iter().map(|l| (l, &f.note)));
        for (i, (text, format)) in panel.into_iter().enumerate() {
            let row = first_line + i as u32;
            if row < SHEET_ROWS {
                texts.push(Text {
                    cell: CellRef::new(row, left),
                    text,
                    format,
                });
            }
        }
        texts.sort_by_key(|t| (t.cell.row, t.cell.col));
        texts
    }

    /// Write the board, its labels, `content` and the live checks onto `sheet`, row by row (the
    /// sheet may be in constant-memory mode), each row a step of `budget`; with numbers given,
    /// protect the sheet (no password) so that they stay as given while the empty squares take
    /// typing.
    pub fn write(
        &self,
        sheet: &mut Worksheet,
        content: &Content<'_>,
        budget: &WriteBudget<'_>,
    ) -> Result<(), XlsxError> {
        let (at, rows, cols) = (self.at, self.board.rows(), self.board.cols());
        let mut bl = self.layout();
        let formats = TemplateFormats::new(bl.look.font_size);
        bl.set_geometry(sheet)?;
        // Rows of text are ordinary rows, so the board gets the page; a constant-memory sheet
        // keeps one height for every row (see BoardLayout::set_geometry).
        let small = self.board.len() < CONSTANT_MEMORY_SQUARES;
        if small {
            bl.text_row_px = DEFAULT_ROW_PX;
        }
        let texts = self.texts(&bl, &formats, content);
        let mut next = 0;
        let mut write_texts_to = |sheet: &mut Worksheet, row: u32| -> Result<(), XlsxError> {
            while let Some(t) = texts.get(next).filter(|t| t.cell.row <= row) {
                if small && !(at.row..at.row + rows).contains(&t.cell.row) {
                    sheet.set_row_height_pixels(t.cell.row, DEFAULT_ROW_PX)?;
                }
                sheet.write_string_with_format(t.cell.row, col16(t.cell.col), &t.text, t.format)?;
                next += 1;
            }
            Ok(())
        };
        for r in 0..rows {
            write_texts_to(sheet, at.row + r)?;
            for c in 0..cols {
                let sq = Square::new(r, c);
                let dark = self.board.is_dark(sq);
                let (row, col) = (at.row + r, col16(at.col + c));
                match content.given.get(self.board.index(sq) as usize) {
                    Some(&n) if n > 0 => {
                        let fmt = if dark {
                            &formats.given_dark
                        } else {
                            &formats.given_light
                        };
                        sheet.write_number_with_format(row, col, f64::from(n), fmt)?;
                    }
                    _ => {
                        let fmt = if dark { &formats.dark } else { &formats.light };
                        sheet.write_blank(row, col, fmt)?;
                    }
                }
            }
            budget.step(1).map_err(TimedOut::into_xlsx)?;
        }
        if small && at.row + rows < SHEET_ROWS {
            sheet.set_row_height_pixels(at.row + rows, DEFAULT_ROW_PX)?;
        }
        write_texts_to(sheet, u32::MAX)?;
        self.add_checks(sheet)?;
        bl.quiet_label_warnings(sheet)?;
        sheet.set_selection(at.row, col16(at.col), at.row, col16(at.col))?;
        bl.set_print_page(sheet, bl.print_area(&texts), true)?;
        if content.given.iter().any(|&n| n > 0) {
            sheet.protect();
        }
        Ok(())
    }

    /// Boards with every number written in (the answers to puzzles), one below the other on
    /// `sheet`, each under its title and between its labels like the practice board, the first
    /// at this template's place; no checks, no protection.
    pub fn write_answers(
        &self,
        sheet: &mut Worksheet,
        boards: &[(String, Vec<u32>)],
    ) -> Result<(), XlsxError> {
        let (rows, cols) = (self.board.rows(), self.board.cols());
        let bl = self.layout();
        let formats = TemplateFormats::new(bl.look.font_size);
        bl.set_geometry(sheet)?;
        // A title row, the letters' row, the board, one row apart.
        let step = rows + 3;
        let mut texts = Vec::new();
        for (i, (title, numbering)) in boards.iter().enumerate() {
            let at = self.at.offset(i as u32 * step, 0);
            check_fits(self.board, at).map_err(|e| XlsxError::ParameterError(e.to_string()))?;
            let mut here = bl;
            here.top_left = at;
            texts.extend(here.labels(&formats.label));
            if let Some(r) = at.row.checked_sub(2) {
                texts.push(Text {
                    cell: CellRef::new(r, here.rank_col().unwrap_or(at.col)),
                    text: title.clone(),
                    format: &formats.title,
                });
            }
            for r in 0..rows {
                for c in 0..cols {
                    let sq = Square::new(r, c);
                    let fmt = if self.board.is_dark(sq) {
                        &formats.dark
                    } else {
                        &formats.light
                    };
                    let (row, col) = (at.row + r, col16(at.col + c));
                    match numbering.get(self.board.index(sq) as usize) {
                        Some(&n) if n > 0 => {
                            sheet.write_number_with_format(row, col, f64::from(n), fmt)?
                        }
                        _ => sheet.write_blank(row, col, fmt)?,
                    };
                }
            }
            here.quiet_label_warnings(sheet)?;
        }
        for t in &texts {
            sheet.write_string_with_format(t.cell.row, col16(t.cell.col), &t.text, t.format)?;
        }
        bl.set_print_page(sheet, bl.print_area(&texts), false)?;
        Ok(())
    }

    /// Data validation and the three conditional formats, all on the board range.
    fn add_checks(&self, sheet: &mut Worksheet) -> Result<(), XlsxError> {
        let range = self.range();
        let (r0, c0) = (range.first.row, col16(range.first.col));
        let (r1, c1) = (range.last.row, col16(range.last.col));
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

/// Squares of a practice board are at least this many pixels a side (about 0.46 inch at
/// 100%): room to write a number by hand once printed.
const WRITING_CELL_PX: u32 = 44;

/// The board's width and height at most, in pixels at 100% (96 a printed inch), when its
/// squares are sized for the page: about 6.25 inches wide, leaving room on a portrait page
/// (A4 or Letter) for the title and the instructions below.
const PAGE_BOARD_PX: (u32, u32) = (600, 620);

/// Pixels a character of the instructions is allowed when they are wrapped (italic, 11 pt).
const TEXT_CHAR_PX: u32 = 10;

/// Formats of the practice sheet.
struct TemplateFormats {
    title: Format,
    label: Format,
    note: Format,
    light: Format,
    dark: Format,
    /// Squares holding a given number: locked, bold.
    given_light: Format,
    given_dark: Format,
}

impl TemplateFormats {
    /// The formats, the squares' numbers in `font_size` points.
    fn new(font_size: f64) -> TemplateFormats {
        let given = |fill: u32| {
            Format::new()
                .set_font_size(font_size)
                .set_border(FormatBorder::Thin)
                .set_align(FormatAlign::Center)
                .set_align(FormatAlign::VerticalCenter)
                .set_background_color(fill)
        };
        let square = |fill: u32| given(fill).set_unlocked();
        TemplateFormats {
            title: Format::new().set_bold().set_font_size(12),
            label: Format::new()
                .set_align(FormatAlign::Center)
                .set_align(FormatAlign::VerticalCenter)
                .set_font_color(0x606060),
            note: Format::new().set_italic(),
            light: square(LIGHT_SQUARE),
            dark: square(DARK_SQUARE),
            given_light: given(LIGHT_SQUARE).set_bold().set_font_color(GIVEN_FONT),
            given_dark: given(DARK_SQUARE).set_bold().set_font_color(GIVEN_FONT),
        }
    }
}

/// Colour of the numbers a puzzle gives (navy, apart from what a person types).
const GIVEN_FONT: u32 = 0x1F3864;

/// Fill of the light squares.
const LIGHT_SQUARE: u32 = 0xF7F0E1;
/// Fill of the dark squares (a1 is dark on every board).
const DARK_SQUARE: u32 = 0xD9C3A5;

/// `text` broken at spaces into lines of at most `width` characters (a longer word gets a
/// line of its own).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// `$C$3:$J$10`: a range with absolute references, for formulas.
fn absolute(range: CellRange) -> String {
    let (a, b) = (range.first, range.last);
    rust_xlsxwriter::utility::cell_range_absolute(a.row, col16(a.col), b.row, col16(b.col))
}

/// True when `cell` holds a number that also appears elsewhere in `range`.
///
/// ```
/// use knights_tour::template::duplicate_rule;
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
/// use knights_tour::template::successor_rule;
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
    use crate::workbook::cellref::SHEET_COLS;

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
    fn lines_wrap_at_spaces() {
        assert_eq!(wrap("ab cd ef", 5), ["ab cd", "ef"]);
        assert_eq!(wrap("abcdefgh ij", 4), ["abcdefgh", "ij"]);
        assert!(wrap("", 4).is_empty());
    }

    #[test]
    fn a1_is_dark_on_odd_and_even_templates() {
        for (rows, cols) in [(8, 8), (5, 5), (5, 6), (6, 5), (3, 4)] {
            let board = Board::new(rows, cols).unwrap();
            let a1 = Square::new(rows - 1, 0);
            assert!(board.is_dark(a1), "{rows}x{cols}");
            assert!(!board.is_dark(Square::new(rows - 1, 1)), "{rows}x{cols} b1");
        }
    }
}
