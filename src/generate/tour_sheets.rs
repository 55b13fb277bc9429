//! One attempt's worksheet: the numbered board, the title and file letters above it, the notes
//! panel beside it, and (via [`crate::workbook::write::chart`]) the path chart and colour scale.
//!
//! Cells are written strictly row by row so the same code serves constant-memory worksheets,
//! where a row can no longer be written once a later one has been.

use rust_xlsxwriter::{Workbook, Worksheet, XlsxError};

use crate::board::{Board, Square};
use crate::english::{all_squares, count_usize};
use crate::generate::workbook::{Outcome, WorkbookSpec};
use crate::output::write_budget::{TimedOut, WriteBudget};
use crate::solve::Attempt;
use crate::workbook::write::board_layout::{self, BoardLayout, Look, Text};
use crate::workbook::write::styles::{edges, BoardFormats, SquareKind, TextFormats};
use crate::workbook::write::{chart, CONSTANT_MEMORY_SQUARES};

/// What [`TourSheet::add_to`] needs to know about one attempt.
pub(crate) struct TourSheet<'a> {
    /// The whole workbook's spec (offset, seed, options).
    pub spec: &'a WorkbookSpec,
    /// This attempt.
    pub attempt: &'a Attempt,
    /// Its number from 1.
    pub number: usize,
    /// Its worksheet name.
    pub name: &'a str,
    /// How it ended.
    pub outcome: Outcome,
    /// The hidden path-data sheet and this path's slot on it, if its path is drawn.
    pub drawn: Option<(&'a chart::PathData<'a>, usize)>,
}

impl TourSheet<'_> {
    /// Add this attempt's worksheet to `workbook`.
    /// Each board row is a step of `budget`'s stage.
    pub(crate) fn add_to(
        &self,
        workbook: &mut Workbook,
        budget: &WriteBudget<'_>,
    ) -> Result<(), XlsxError> {
        let board = self.attempt.tour.board();
        let bl = BoardLayout::new(board, self.spec.top_left)
            .map_err(crate::workbook::write::fit_error)?;
        let look = bl.look;
        let sheet = if board.len() >= CONSTANT_MEMORY_SQUARES {
            workbook.add_worksheet_with_constant_memory()?
        } else {
            workbook.add_worksheet()
        };
        sheet.set_name(self.name)?;
        bl.set_geometry(sheet)?;
        let text_formats = TextFormats::new();
        let mut texts = self.texts(&bl, &text_formats);
        texts.sort_by_key(|t| (t.cell.row, t.cell.col));
        self.write_cells(sheet, board, look, &texts, budget)?;
        bl.quiet_label_warnings(sheet)?;
        bl.set_print_page(sheet, bl.print_area(&texts), true)?;
        if let Some((paths, slot)) = self.drawn {
            paths.insert(sheet, self.spec.top_left, slot, look, look.row_px)?;
        }
        if super::workbook::colour_scale_wanted(self.spec, self.attempt) {
            chart::add_colour_scale(sheet, self.spec.top_left, self.attempt)?;
        }
        Ok(())
    }

    /// Every cell in sheet order: text rows before the board, then each board row with the
    /// text on it, then text rows after.
    fn write_cells(
        &self,
        sheet: &mut Worksheet,
        board: Board,
        look: Look,
        texts: &[Text<'_>],
        budget: &WriteBudget<'_>,
    ) -> Result<(), XlsxError> {
        let tl = self.spec.top_left;
        let formats = BoardFormats::new(look.font_size);
        let grid = self.attempt.tour.numbering();
        let mut specials: Vec<(Square, SquareKind)> = Vec::new();
        if let Some(s) = self.attempt.tour.start() {
            specials.push((s, SquareKind::Start));
        }
        match (self.outcome, self.attempt.tour.end()) {
            // A one-square path starts and gets stuck on the same square: stuck wins.
            (Outcome::Stuck | Outcome::Stopped, Some(e)) => specials.push((e, SquareKind::Stuck)),
            (_, Some(e)) if self.attempt.tour.len() > 1 => specials.push((e, SquareKind::End)),
            _ => {}
        }
        let rows = board.rows();
        let mut next_text = 0;
        for r in 0..rows {
            let sheet_row = tl.row + r;
            next_text = write_texts(sheet, texts, next_text, sheet_row)?;
            let row = BoardRow {
                board,
                r,
                sheet_row,
                first_col: tl.col,
                numbers: &grid[board.index(Square::new(r, 0)) as usize..][..board.cols() as usize],
            };
            row.write(sheet, &formats, &specials)?;
            budget.step(1).map_err(TimedOut::into_xlsx)?;
        }
        write_texts(sheet, texts, next_text, u32::MAX)?;
        Ok(())
    }

    /// The title, rank and file labels and notes panel as text cells.
    fn texts<'f>(&self, bl: &BoardLayout, f: &'f TextFormats) -> Vec<Text<'f>> {
        let board = bl.board;
        let status_format = if self.attempt.solved { &f.good } else { &f.bad };
        let mut lines = vec![(self.status_line(board), status_format)];
        lines.extend(self.detail_lines(board).into_iter().map(|l| (l, &f.plain)));
        board_layout::place_texts(bl, self.title_line(board), lines, f)
    }

    /// `Tour 1 of 3: solved` / `Attempt 2 of 3: stuck` and the board.
    fn title_line(&self, board: Board) -> String {
        let total = self.spec.attempts.len();
        let kind = if self.attempt.solved {
            "Tour"
        } else {
            "Attempt"
        };
        format!(
            "{kind} {} of {total}: {} on the {board} board",
            self.number,
            self.outcome.word()
        )
    }

    /// What happened, in one line.
    fn status_line(&self, board: Board) -> String {
        let tour = &self.attempt.tour;
        let k = tour.len();
        let n = board.len();
        let shape = if tour.is_closed() { "closed" } else { "open" };
        let end = tour.end().map(|s| board.algebraic(s)).unwrap_or_default();
        match self.outcome {
            Outcome::Solved => format!("Solved: a complete {shape} tour of {}", all_squares(n)),
            Outcome::Stuck => format!(
                "Stuck after visiting {k} of {n} squares: every square a knight's move from {end} (red) is taken"
            ),
            Outcome::Stopped if k == 0 => "Stopped before the first move".to_string(),
            Outcome::Stopped => format!(
                "Stopped after visiting {k} of {n} squares, at {end} (red): the search gave up"
            ),
            Outcome::NotClosed => format!(
                "Not closed: {} visited, but {end} is not a knight's move from the start",
                all_squares(n)
            ),
            Outcome::Failed => {
                format!("Failed: a complete {shape} tour that does not meet the request")
            }
        }
    }

    /// Start and end, method, seed, note and a legend.
    fn detail_lines(&self, board: Board) -> Vec<String> {
        let tour = &self.attempt.tour;
        let mut lines = Vec::new();
        if let (Some(s), Some(e)) = (tour.start(), tour.end()) {
            let end_colour = if self.attempt.tour.is_complete() {
                "purple"
            } else {
                "red"
            };
            // Moves are the knight's jumps: a closed tour's last one goes back to the start.
            let moves = match tour.is_closed() {
                true => format!(
                    "{}, the last back to the start",
                    count_usize(tour.len(), "move")
                ),
                false => count_usize(tour.len().saturating_sub(1), "move"),
            };
            lines.push(format!(
                "Start {} (yellow), end {} ({end_colour}), {moves}",
                board.algebraic(s),
                board.algebraic(e),
            ));
        }
        let mut method = format!("Method: {}", self.attempt.method.name());
        if let Some(t) = self.attempt.tiebreak {
            method.push_str(&format!(", tie-break: {}", t.name()));
        }
        lines.push(method);
        if let Some(seed) = self.spec.seed {
            lines.push(format!("Seed: {seed}"));
        }
        if let Some(note) = self.attempt.note.as_deref().filter(|n| !n.is_empty()) {
            lines.push(format!("Note: {note}"));
        }
        if self.attempt.steps.is_some() {
            lines.push(format!(
                "The cycle of Step 3 with its insertions, renumbered 1 to {} from Step 1's start",
                tour.len()
            ));
        }
        let mut legend = "Numbers are move numbers".to_string();
        if self.drawn.is_some() {
            legend.push_str("; the line is the knight's path");
            if self.attempt.tour.is_closed() {
                legend.push_str(", back to the start at the end");
            }
        }
        lines.push(legend);
        lines
    }
}

/// One row of the board, to be written into the sheet.
struct BoardRow<'g> {
    board: Board,
    /// Board row.
    r: u32,
    /// Sheet row it goes to.
    sheet_row: u32,
    /// Sheet column of the board's first column.
    first_col: u32,
    /// Move numbers of the row's squares, 0 where unvisited.
    numbers: &'g [u32],
}

impl BoardRow<'_> {
    /// Write the row's numbers and formats with as little work per cell as rust_xlsxwriter
    /// allows: every `*_with_format` call hashes the whole `Format` to find its index, so
    /// only the first cell is written with its format (which also makes this row the current
    /// one in constant-memory mode), the other numbers are written plain, and then one
    /// [`Worksheet::set_range_format`] call gives the inner squares their shared format (and
    /// creates the blank squares) with a single lookup. The last square and the start and
    /// stuck squares get their own formats last.
    fn write(
        &self,
        sheet: &mut Worksheet,
        formats: &BoardFormats,
        specials: &[(Square, SquareKind)],
    ) -> Result<(), XlsxError> {
        let (rows, cols) = (self.board.rows(), self.board.cols());
        let col = |c: u32| (self.first_col + c) as u16;
        let kind_of = |c: u32| {
            let here = Square::new(self.r, c);
            specials
                .iter()
                .rev()
                .find(|(s, _)| *s == here)
                .map_or(SquareKind::Plain, |&(_, k)| k)
        };
        let format_of = |c: u32| formats.get(kind_of(c), edges(self.r, c, rows, cols));
        let row = self.sheet_row;
        match self.numbers[0] {
            0 => sheet.write_blank(row, col(0), format_of(0))?,
            n => sheet.write_number_with_format(row, col(0), n, format_of(0))?,
        };
        for (c, &n) in (1..cols).zip(&self.numbers[1..]) {
            if n > 0 {
                sheet.write_number(row, col(c), n)?;
            }
        }
        if cols > 2 {
            let inner = formats.get(SquareKind::Plain, edges(self.r, 1, rows, cols));
            sheet.set_range_format(row, col(1), row, col(cols - 2), inner)?;
        }
        if cols > 1 {
            sheet.set_cell_format(row, col(cols - 1), format_of(cols - 1))?;
        }
        for &(s, _) in specials {
            if s.row == self.r && s.col > 0 && s.col + 1 < cols {
                sheet.set_cell_format(row, col(s.col), format_of(s.col))?;
            }
        }
        Ok(())
    }
}

/// Write the texts from `from` on that lie on rows up to `row` (inclusive); return the index
/// of the first text not written.
fn write_texts(
    sheet: &mut Worksheet,
    texts: &[Text<'_>],
    from: usize,
    row: u32,
) -> Result<usize, XlsxError> {
    let mut i = from;
    while let Some(t) = texts.get(i).filter(|t| t.cell.row <= row) {
        sheet.write_string_with_format(t.cell.row, t.cell.col as u16, &t.text, t.format)?;
        i += 1;
    }
    Ok(i)
}
