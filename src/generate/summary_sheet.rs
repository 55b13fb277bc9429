//! The `Summary` sheet: what was asked, one row per attempt with a link to its sheet, and the
//! overall result line the macro showed ("Solved after 3 attempts").

use rust_xlsxwriter::{
    Color, Format, FormatBorder, IgnoreError, Url, Workbook, Worksheet, XlsxError,
};

use crate::generate::workbook::{Outcome, WorkbookSpec};
use crate::solve::Attempt;
use crate::workbook::write::names::{SUMMARY_COLUMNS, SUMMARY_HEADER_ROW, SUMMARY_SHEET};

const WIDTHS: [f64; 11] = [
    24.0, 10.0, 7.0, 7.0, 16.0, 11.0, 9.0, 13.0, 10.0, 22.0, 40.0,
];

/// Add the summary sheet after the attempts' sheets, whose `names` and `outcomes` are given.
pub(crate) fn add_summary(
    workbook: &mut Workbook,
    spec: &WorkbookSpec,
    names: &[String],
    outcomes: &[Outcome],
) -> Result<(), XlsxError> {
    let sheet = workbook.add_worksheet();
    sheet.set_name(SUMMARY_SHEET)?;
    write_heading(sheet, spec)?;
    let header = Format::new()
        .set_bold()
        .set_background_color(Color::RGB(0xD9E1F2))
        .set_border_bottom(FormatBorder::Thin);
    for (c, (title, width)) in SUMMARY_COLUMNS.iter().zip(WIDTHS).enumerate() {
        sheet.write_string_with_format(SUMMARY_HEADER_ROW, c as u16, *title, &header)?;
        sheet.set_column_width(c as u16, width)?;
    }
    let rows = AttemptRows {
        spec,
        good: Format::new().set_font_color(Color::RGB(0x00803C)),
        bad: Format::new().set_font_color(Color::RGB(0xC00000)),
    };
    for (i, (attempt, name)) in spec.attempts.iter().zip(names).enumerate() {
        rows.write(
            sheet,
            SUMMARY_HEADER_ROW + 1 + i as u32,
            attempt,
            name,
            outcomes[i],
        )?;
    }
    if !spec.attempts.is_empty() {
        // The seed column is digits kept as text on purpose.
        let last = SUMMARY_HEADER_ROW + spec.attempts.len() as u32;
        sheet.ignore_error_range(
            SUMMARY_HEADER_ROW + 1,
            9,
            last,
            9,
            IgnoreError::NumberStoredAsText,
        )?;
    }
    sheet.set_freeze_panes(SUMMARY_HEADER_ROW + 1, 0)?;
    let mut last_row = SUMMARY_HEADER_ROW + spec.attempts.len() as u32;
    let several_hand = spec.attempts.iter().filter(|a| a.steps.is_some()).count() > 1;
    for (i, attempt) in spec.attempts.iter().enumerate() {
        if let Some(built) = &attempt.steps {
            let steps = super::hand_sheets::step_sheet_names(i + 1, several_hand);
            last_row = super::hand_sheets::add_summary_record(
                sheet,
                last_row + 2,
                spec,
                built,
                &steps,
                &names[i],
            )?;
        }
    }
    crate::workbook::write::board_layout::set_table_print_page(
        sheet,
        &WIDTHS,
        last_row,
        SUMMARY_HEADER_ROW,
    )?;
    Ok(())
}

/// The lines above the table: the title, the result line, the options and the seed.
fn write_heading(sheet: &mut Worksheet, spec: &WorkbookSpec) -> Result<(), XlsxError> {
    let solved_any = spec.attempts.iter().any(|a| a.solved);
    let result_colour = if solved_any { 0x00803C } else { 0xC00000 };
    sheet.write_string_with_format(
        0,
        0,
        &spec.title,
        &Format::new().set_bold().set_font_size(14),
    )?;
    sheet.write_string_with_format(
        1,
        0,
        spec.result_line(),
        &Format::new()
            .set_bold()
            .set_font_size(12)
            .set_font_color(Color::RGB(result_colour)),
    )?;
    if !spec.command_line.is_empty() {
        sheet.write_string(2, 0, format!("Options: {}", spec.command_line))?;
    }
    let seed = match spec.seed {
        Some(seed) => format!("Seed: {seed}"),
        None => "Seed: none (no random choice was made)".to_string(),
    };
    sheet.write_string(3, 0, seed)?;
    Ok(())
}

/// The table's rows, one an attempt (columns [`SUMMARY_COLUMNS`]).
struct AttemptRows<'s> {
    spec: &'s WorkbookSpec,
    /// The result's colour when solved, and when not.
    good: Format,
    bad: Format,
}

impl AttemptRows<'_> {
    fn write(
        &self,
        sheet: &mut Worksheet,
        row: u32,
        attempt: &Attempt,
        name: &str,
        outcome: Outcome,
    ) -> Result<(), XlsxError> {
        let tour = &attempt.tour;
        let board = tour.board();
        let link = Url::new(format!("internal:'{name}'!{}", self.spec.top_left)).set_text(name);
        sheet.write_url(row, 0, link)?;
        sheet.write_string(row, 1, board.to_string())?;
        if let (Some(s), Some(e)) = (tour.start(), tour.end()) {
            sheet.write_string(row, 2, board.algebraic(s))?;
            sheet.write_string(row, 3, board.algebraic(e))?;
        }
        // "58 of 64" as text: numbers in a table would look like a board to a verifier.
        sheet.write_string(row, 4, format!("{} of {}", tour.len(), board.len()))?;
        let fmt = if outcome == Outcome::Solved {
            &self.good
        } else {
            &self.bad
        };
        sheet.write_string_with_format(row, 5, outcome.word(), fmt)?;
        let path = if !tour.is_complete() {
            "partial"
        } else if tour.is_closed() {
            "closed"
        } else {
            "open"
        };
        sheet.write_string(row, 6, path)?;
        sheet.write_string(row, 7, attempt.method.name())?;
        if let Some(t) = attempt.tiebreak {
            sheet.write_string(row, 8, t.name())?;
        }
        // As text: a u64 seed does not survive a trip through a spreadsheet's doubles.
        if let Some(seed) = self.spec.seed {
            sheet.write_string(row, 9, seed.to_string())?;
        }
        if let Some(note) = attempt.note.as_deref().filter(|n| !n.is_empty()) {
            sheet.write_string(row, 10, note)?;
        }
        Ok(())
    }
}
