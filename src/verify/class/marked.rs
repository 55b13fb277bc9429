//! One marked sheet of the class workbook: a partial or invalid board as the person typed it,
//! with every problem marked ([`crate::verify::marks`]).
//!
//! A grid is laid out as `generate` lays out its boards ([`BoardLayout`]): its top-left square
//! at C3, file letters above and rank numbers to the left (text), the notes panel to the
//! right. Each marked cell is filled by the kind of its mark and carries a note in plain
//! words; the knight's path is drawn over the board up to the first break (a failed attempt's
//! whole path). A list (squares, coordinates, one cell) is copied as typed from C3 with its
//! entries marked the same way. Everything but the typed cells is text, so the sheet verifies
//! as the original did.

use rust_xlsxwriter::{Color, Format, Note, Url, Workbook, Worksheet, XlsxError};

use super::RESULTS_SHEET;
use crate::board::Board;
use crate::tour::Tour;
use crate::verify::marks::{marks, BoardMarks, MarkKind};
use crate::verify::{BoardReport, Notation, TypedCells, Verdict};
use crate::workbook::cellref::CellRef;
use crate::workbook::read::CellValue;
use crate::workbook::write::board_layout::{self, BoardLayout, Text};
use crate::workbook::write::names::link_to;
use crate::workbook::write::styles::{edges, square_base, TextFormats};

/// Where the board (or list) goes on a marked sheet.
pub(crate) const TOP_LEFT: CellRef = CellRef::new(2, 2);

/// The fill of each kind of mark.
pub(crate) fn fill(kind: MarkKind) -> u32 {
    match kind {
        MarkKind::Jump => 0xFF7C80,
        MarkKind::Repeated => 0xCC99FF,
        MarkKind::NotAMove => 0xFFC000,
        MarkKind::Blank => 0xBFBFBF,
        MarkKind::Edge => 0xE7E6E6,
        MarkKind::BesideMissing => 0x9BC2E6,
        MarkKind::Last => 0x66CCCC,
        MarkKind::Reachable => 0xA9D08E,
        MarkKind::Start => 0xFFFF00,
    }
}

/// The path drawn on `board`'s marked sheet: a failed attempt's, or an invalid board's up
/// to its first break; `None` for paths of fewer than two moves.
pub(super) fn drawn_path(board: &BoardReport) -> Option<&Tour> {
    let path = match board.verdict {
        Verdict::Partial => board.tour.as_ref(),
        _ => board.unbroken.as_ref(),
    }?;
    let typed = board.typed.as_ref()?;
    let fits = board.notation == Notation::List
        || (path.board().rows() == typed.range.rows() && path.board().cols() == typed.range.cols());
    (fits && path.len() >= 2).then_some(path)
}

/// What [`MarkedSheet::add_to`] needs.
pub(super) struct MarkedSheet<'a> {
    /// The board, with its typed cells.
    pub board: &'a BoardReport,
    /// The file it came from, as given.
    pub file: &'a str,
    /// The sheet it came from.
    pub sheet: &'a str,
    /// This sheet's name.
    pub name: &'a str,
    /// The hidden path-data sheet and this path's slot on it, if its path is drawn.
    pub drawn: Option<(&'a crate::workbook::write::chart::PathData<'a>, usize)>,
}

impl MarkedSheet<'_> {
    /// Add the sheet to `workbook`.
    pub(super) fn add_to(&self, workbook: &mut Workbook) -> Result<(), XlsxError> {
        let Some(typed) = self.board.typed.as_ref() else {
            return Ok(());
        };
        let m = marks(self.board);
        let sheet = workbook.add_worksheet();
        sheet.set_name(self.name)?;
        let back = Url::new(link_to(RESULTS_SHEET, "A1")).set_text("<< Results");
        sheet.write_url(0, 0, back)?;
        let f = TextFormats::new();
        let path = self.drawn.map(|_| match self.board.verdict {
            Verdict::Partial => "the knight's path",
            _ => "the knight's path, up to the first break",
        });
        let legend = Legend::new(&m, path);
        let headline = match self.board.verdict {
            Verdict::Partial => f
                .plain
                .clone()
                .set_bold()
                .set_font_color(Color::RGB(0x9C5700)),
            _ => f.bad.clone(),
        };
        let mut lines: Vec<(String, &Format)> = vec![(m.headline.clone(), &headline)];
        lines.push(("Hover over a marked cell to read its note".into(), &f.plain));
        lines.extend(m.lines.iter().map(|l| (l.clone(), &f.plain)));
        let title = format!(
            "{}, sheet '{}': {}",
            self.file,
            self.sheet,
            self.board.verdict.as_str()
        );
        let page = Page {
            typed,
            marks: &m,
            f: &f,
            legend: &legend,
            title,
            lines,
        };
        match self.board.notation {
            Notation::Grid => self.grid(sheet, page),
            Notation::List => self.list(sheet, page),
        }
    }

    /// A grid, laid out as generate lays out boards, with its path drawn.
    fn grid(&self, sheet: &mut Worksheet, mut page: Page<'_>) -> Result<(), XlsxError> {
        let (typed, f, legend) = (page.typed, page.f, page.legend);
        let (title, lines) = (
            std::mem::take(&mut page.title),
            std::mem::take(&mut page.lines),
        );
        let (rows, cols) = (typed.range.rows(), typed.range.cols());
        let board = Board::new(rows, cols).map_err(|e| XlsxError::ParameterError(e.to_string()))?;
        let bl = BoardLayout::new(board, TOP_LEFT).map_err(crate::workbook::write::fit_error)?;
        bl.set_geometry(sheet)?;
        let mut texts = board_layout::place_texts(&bl, title, lines, f);
        // The legend below the board and the panel, in rows of the usual height.
        let below = TOP_LEFT.row + rows;
        let start = texts
            .iter()
            .map(|t| t.cell.row + 2)
            .fold(below + 1, u32::max);
        let from = texts.len();
        texts.extend(legend.texts(CellRef::new(start, TOP_LEFT.col), f));
        for row in below..=texts.iter().map(|t| t.cell.row).max().unwrap_or(below) {
            sheet.set_row_height_pixels(row, board_layout::DEFAULT_ROW_PX)?;
        }
        write_texts(sheet, &texts, legend, from)?;
        let font = bl.look.font_size;
        page.write_cells(sheet, |r, c, kind| {
            square_format(font, edges(r, c, rows, cols), kind)
        })?;
        bl.quiet_label_warnings(sheet)?;
        bl.set_print_page(sheet, bl.print_area(&texts), true)?;
        if let Some((paths, slot)) = self.drawn {
            paths.insert(sheet, TOP_LEFT, slot, bl.look, bl.look.row_px)?;
        }
        Ok(())
    }

    /// A list, copied as typed from C3, its entries marked, the panel to its right.
    fn list(&self, sheet: &mut Worksheet, mut page: Page<'_>) -> Result<(), XlsxError> {
        let (typed, f, legend) = (page.typed, page.f, page.legend);
        let (title, lines) = (
            std::mem::take(&mut page.title),
            std::mem::take(&mut page.lines),
        );
        let (rows, cols) = (typed.range.rows(), typed.range.cols());
        let mut texts = vec![Text {
            cell: CellRef::new(0, TOP_LEFT.col),
            text: title,
            format: &f.title,
        }];
        let panel = TOP_LEFT.offset(0, cols + 1);
        let n = lines.len() as u32;
        for (i, (text, format)) in lines.into_iter().enumerate() {
            texts.push(Text {
                cell: panel.offset(i as u32, 0),
                text,
                format,
            });
        }
        let from = texts.len();
        texts.extend(legend.texts(panel.offset(n, 0), f));
        write_texts(sheet, &texts, legend, from)?;
        let mut width_px = 0;
        for c in 0..cols {
            let longest = (0..rows)
                .filter_map(|r| typed.values[(r * cols + c) as usize].as_ref())
                .map(|v| match v {
                    CellValue::Text(t) => t.chars().count(),
                    _ => 6,
                })
                .max()
                .unwrap_or(6);
            let chars = longest.min(80) + 2;
            sheet.set_column_width((TOP_LEFT.col + c) as u16, chars as f64)?;
            width_px += chars as u32 * 7 + 5;
        }
        page.write_cells(sheet, |_, _, kind| list_format(kind))?;
        // The path on a board of its own, below the panel.
        let below = panel.offset(texts.len() as u32, 0);
        let line_px = texts
            .iter()
            .map(|t| t.text.chars().count() as u32 * 7)
            .max();
        let mut panel_px = (
            line_px.unwrap_or(0),
            below.row * board_layout::DEFAULT_ROW_PX,
        );
        if let (Some((paths, slot)), Some(path)) = (self.drawn, drawn_path(self.board)) {
            let look = board_layout::look(path.board());
            paths.insert(sheet, below, slot, look, board_layout::DEFAULT_ROW_PX)?;
            panel_px.0 = panel_px.0.max(path.board().cols() * look.cell_px);
            panel_px.1 += path.board().rows() * look.row_px;
        }
        // The list, the panel and the picture on one page.
        let height_px = panel_px
            .1
            .max((TOP_LEFT.row + rows) * board_layout::DEFAULT_ROW_PX);
        let area = board_layout::PrintArea {
            first: CellRef::new(0, TOP_LEFT.col),
            last: CellRef::new(
                height_px.div_ceil(board_layout::DEFAULT_ROW_PX),
                panel.col + panel_px.0.div_ceil(board_layout::DEFAULT_COL_PX),
            ),
            width_px: width_px + board_layout::DEFAULT_COL_PX + panel_px.0,
            height_px,
        };
        board_layout::set_print_page(sheet, area, true)?;
        if f64::from(height_px) > board_layout::PRINTABLE_PORTRAIT_PX.1 {
            sheet.set_print_fit_to_pages(1, 1);
        }
        Ok(())
    }
}

/// What a marked sheet shows, whatever its layout.
struct Page<'a> {
    /// The cells as typed.
    typed: &'a TypedCells,
    /// Their marks.
    marks: &'a BoardMarks,
    /// The text formats.
    f: &'a TextFormats,
    /// What the colours mean.
    legend: &'a Legend,
    /// The sheet's title.
    title: String,
    /// The notes panel's lines.
    lines: Vec<(String, &'a Format)>,
}

impl Page<'_> {
    /// Write the typed cells from C3 on, each in `format_of(row, col, its mark)`, and a note
    /// on each marked cell.
    fn write_cells(
        &self,
        sheet: &mut Worksheet,
        format_of: impl Fn(u32, u32, Option<MarkKind>) -> Format,
    ) -> Result<(), XlsxError> {
        let range = self.typed.range;
        let cols = range.cols();
        for r in 0..range.rows() {
            for c in 0..cols {
                let here = range.first.offset(r, c);
                let kind = self
                    .marks
                    .marks
                    .iter()
                    .find(|x| x.cell == here)
                    .map(|x| x.kind);
                let value = self.typed.values[(r * cols + c) as usize].as_ref();
                write_value(sheet, TOP_LEFT.offset(r, c), value, &format_of(r, c, kind))?;
            }
        }
        write_notes(sheet, self.typed, self.marks)
    }
}

/// The legend: one line per kind of mark used (and the path), each with its swatch colour.
struct Legend {
    /// (colour, text) by line.
    lines: Vec<(u32, String)>,
}

impl Legend {
    /// The legend of `m`'s marks, and of the path when one is drawn (`path` says what it is).
    fn new(m: &BoardMarks, path: Option<&str>) -> Legend {
        let mut lines: Vec<(u32, String)> = m
            .kinds()
            .into_iter()
            .map(|k| (fill(k), k.legend().to_string()))
            .collect();
        if let Some(path) = path {
            lines.push((crate::workbook::write::styles::PATH_LINE, path.to_string()));
        }
        Legend { lines }
    }

    /// The legend's lines from `at` down: a heading, then a line per colour.
    fn texts<'f>(&self, at: CellRef, f: &'f TextFormats) -> Vec<Text<'f>> {
        let all = std::iter::once("Colours:".to_string())
            .chain(self.lines.iter().map(|(_, l)| l.clone()));
        all.enumerate()
            .map(|(i, text)| Text {
                cell: at.offset(i as u32, 0),
                text,
                format: &f.plain,
            })
            .collect()
    }
}

/// Write the texts; those from `from` on are `legend`'s (see [`Legend::texts`]), and its
/// colour lines get a swatch in their colour before them.
fn write_texts(
    sheet: &mut Worksheet,
    texts: &[Text<'_>],
    legend: &Legend,
    from: usize,
) -> Result<(), XlsxError> {
    for (i, t) in texts.iter().enumerate() {
        let (row, col) = (t.cell.row, t.cell.col as u16);
        // The legend's heading comes first, then a line per colour.
        let colour = i
            .checked_sub(from + 1)
            .and_then(|k| legend.lines.get(k))
            .map(|&(c, _)| c);
        match colour {
            Some(colour) => {
                let swatch = Format::new().set_font_color(Color::RGB(colour));
                let plain = Format::new();
                sheet.write_rich_string(
                    row,
                    col,
                    &[(&swatch, "\u{2588}\u{2588} "), (&plain, &t.text)],
                )?;
            }
            None => {
                sheet.write_string_with_format(row, col, &t.text, t.format)?;
            }
        }
    }
    Ok(())
}

/// A board square as generate writes it, filled and bold if marked.
fn square_format(font_size: f64, edges: u8, kind: Option<MarkKind>) -> Format {
    let f = square_base(font_size, edges);
    match kind {
        Some(k) => f.set_background_color(Color::RGB(fill(k))).set_bold(),
        None => f,
    }
}

/// A list entry: filled and bold if marked.
fn list_format(kind: Option<MarkKind>) -> Format {
    match kind {
        Some(k) => Format::new()
            .set_background_color(Color::RGB(fill(k)))
            .set_bold(),
        None => Format::new(),
    }
}

/// A typed value as it was: a number as a number, text as text, a blank as a formatted blank.
fn write_value(
    sheet: &mut Worksheet,
    at: CellRef,
    value: Option<&CellValue>,
    format: &Format,
) -> Result<(), XlsxError> {
    let (row, col) = (at.row, at.col as u16);
    match value {
        None => sheet.write_blank(row, col, format)?,
        Some(CellValue::Number(n)) => sheet.write_number_with_format(row, col, *n, format)?,
        Some(CellValue::Text(t)) => sheet.write_string_with_format(row, col, t.as_ref(), format)?,
        Some(CellValue::Bool(b)) => sheet.write_boolean_with_format(row, col, *b, format)?,
        Some(CellValue::Error(e)) => {
            sheet.write_string_with_format(row, col, e.as_ref(), format)?
        }
    };
    Ok(())
}

/// A note on each marked cell that has something to say, sized to its text.
fn write_notes(sheet: &mut Worksheet, typed: &TypedCells, m: &BoardMarks) -> Result<(), XlsxError> {
    let first = typed.range.first;
    for mark in m.marks.iter().filter(|x| !x.notes.is_empty()) {
        if !typed.range.contains(mark.cell) {
            continue;
        }
        let at = TOP_LEFT.offset(mark.cell.row - first.row, mark.cell.col - first.col);
        let text = mark.notes.join("\n");
        // 10-point text runs about 7 pixels a character and 17 a line.
        let longest = mark
            .notes
            .iter()
            .map(|n| n.chars().count())
            .max()
            .unwrap_or(0);
        let width = (longest as u32 * 7 + 16).clamp(160, 440);
        let per_line = ((width - 16) / 7).max(1) as usize;
        let lines: usize = mark
            .notes
            .iter()
            .map(|n| n.chars().count().div_ceil(per_line))
            .sum();
        let note = Note::new(text)
            .add_author_prefix(false)
            .set_author("knights-tour")
            .set_font_size(10)
            .set_width(width)
            .set_height(17 * lines as u32 + 10);
        sheet.insert_note(at.row, at.col as u16, &note)?;
    }
    Ok(())
}
