//! The report for people: one line per board (or per sheet without one), then its problems,
//! and for small invalid boards a drawing with the bad cells marked.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt::Write as _;

use crate::board::column_letters;
use crate::workbook::cellref::CellRef;

use super::block::BlockGrid;
use super::report::{
    BoardReport, FileReport, ListForm, Notation, SheetReport, SquareName, Totals, Verdict,
};
use super::value::{classify, Kind};

/// Boards up to this many rows and columns get a drawing when invalid.
pub const DRAW_MAX_SIDE: u32 = 16;

/// The text report on one file, ending with a newline.
pub fn render_file(report: &FileReport) -> String {
    let mut out = String::new();
    let format = report.format.as_deref().unwrap_or("unknown format");
    if !report.readable {
        let _ = writeln!(
            out,
            "{}: unreadable ({format}): {}",
            escape_control(&report.file),
            escape_control(report.error.as_deref().unwrap_or("unknown error"))
        );
        return out;
    }
    let _ = writeln!(out, "{} ({format})", escape_control(&report.file));
    if let Some(e) = &report.error {
        let _ = writeln!(out, "  error: {}", escape_control(e));
    }
    for sheet in &report.sheets {
        out.push_str(&render_sheet(sheet));
    }
    out
}

/// The closing line of a report on several files, ending with a newline: `50 files, 64
/// boards: 41 open, 3 closed, 12 partial, 8 invalid; 2 files unreadable`.
///
/// ```
/// use knights_tour::verify::{text::render_totals, Totals};
/// let t = Totals { files: 3, open: 2, invalid: 1, unreadable: 1, ..Totals::default() };
/// assert_eq!(render_totals(&t), "3 files, 3 boards: 2 open, 1 invalid; 1 file unreadable\n");
/// ```
pub fn render_totals(t: &Totals) -> String {
    use crate::english::count_usize as count;
    let mut out = format!("{}, {}", count(t.files, "file"), count(t.boards(), "board"));
    let verdicts: Vec<String> = [
        (t.open, "open"),
        (t.closed, "closed"),
        (t.partial, "partial"),
        (t.unfinished, "unfinished"),
        (t.invalid, "invalid"),
    ]
    .iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, word)| format!("{n} {word}"))
    .collect();
    if !verdicts.is_empty() {
        let _ = write!(out, ": {}", verdicts.join(", "));
    }
    let mut tail = Vec::new();
    if t.without_board > 0 {
        tail.push(format!(
            "{} without a board",
            count(t.without_board, "file")
        ));
    }
    if t.unreadable > 0 {
        tail.push(format!("{} unreadable", count(t.unreadable, "file")));
    }
    if !tail.is_empty() {
        let _ = write!(out, "; {}", tail.join(", "));
    }
    out.push('\n');
    out
}

/// One sheet: a line per board (`  NAME: VERDICT, RxC board at CELL, ...`) and its problems;
/// `  NAME: no-board` for a sheet without one.
pub fn render_sheet(s: &SheetReport) -> String {
    let mut out = String::new();
    if s.boards.is_empty() && s.quiet {
        return out;
    }
    if s.boards.is_empty() {
        let _ = write!(
            out,
            "  {}: {}",
            escape_control(&s.sheet),
            Verdict::NoBoard.as_str()
        );
        if let Some(note) = &s.note {
            let _ = write!(out, " ({})", escape_control(note));
        }
        out.push('\n');
        return out;
    }
    for b in &s.boards {
        out.push_str(&render_board(&s.sheet, b));
    }
    if let Some(note) = &s.note {
        let _ = writeln!(
            out,
            "  {}: ({})",
            escape_control(&s.sheet),
            escape_control(note)
        );
    }
    out
}

/// One board's line, problems and drawing.
fn render_board(sheet: &str, b: &BoardReport) -> String {
    let mut out = String::new();
    let _ = write!(out, "  {}: {}", escape_control(sheet), b.verdict.as_str());
    if let Some(magic) = b.magic {
        let _ = write!(out, " ({})", magic.as_str());
    }
    push_progress(&mut out, b);
    push_placement(&mut out, b);
    push_ends(&mut out, b);
    out.push('\n');
    for p in &b.problems {
        let _ = writeln!(
            out,
            "    {}: {}",
            p.kind.as_str(),
            escape_control(&p.message)
        );
    }
    if let Some(d) = &b.drawing {
        out.push_str(d);
    }
    out
}

/// How far a board not yet a tour got: ` (40 of 64 squares visited, ...)`.
fn push_progress(out: &mut String, b: &BoardReport) {
    let squares = u64::from(b.board.rows) * u64::from(b.board.cols);
    if b.verdict == Verdict::Unfinished {
        let _ = write!(
            out,
            " ({} of {squares} squares visited, no mistake so far, {} still empty)",
            b.moves,
            super::check::thousands(b.empty_squares)
        );
    }
    if b.verdict == Verdict::Invalid && b.empty_squares > 0 {
        // Mistakes only: the squares still empty are counted, not listed.
        let mistakes = b.problems.len() - b.problems_not_listed.len()
            + b.problems_not_listed.values().sum::<usize>();
        let _ = write!(
            out,
            " ({}, {} still empty)",
            crate::english::count_usize(mistakes, "mistake"),
            crate::english::count_usize(b.empty_squares, "square")
        );
    }
    if b.verdict == Verdict::Partial {
        if b.stuck == Some(true) {
            let _ = write!(
                out,
                " (the knight got stuck after {} of {squares} squares)",
                b.moves
            );
        } else {
            let _ = write!(
                out,
                " ({} of {squares} squares, a tour in progress)",
                b.moves
            );
        }
    }
}

/// Where the board is and how it is written: `, 8x8 board at B2, 64 squares visited`.
fn push_placement(out: &mut String, b: &BoardReport) {
    let p = &b.board;
    let on_board = crate::english::with_article(&format!("{}x{} board", p.rows, p.cols));
    match (b.notation, b.cells) {
        (Notation::List, Some(cells)) => {
            let entries = b
                .entries
                .unwrap_or_else(|| cells.rows().max(cells.cols()) as usize);
            let _ = match (b.list_form, b.coordinates) {
                (Some(ListForm::OneCell), reading) => write!(
                    out,
                    ", tour in one cell at {}{} on {on_board}",
                    cells.first,
                    reading
                        .map(|r| format!(" (coordinates {})", r.describe()))
                        .unwrap_or_default()
                ),
                (_, Some(reading)) => write!(
                    out,
                    ", list of {entries} coordinates ({}) at {cells} on {on_board}",
                    reading.describe()
                ),
                _ => write!(out, ", list of {entries} squares at {cells} on {on_board}"),
            };
        }
        _ => {
            let _ = write!(out, ", {}x{} board at {}", p.rows, p.cols, p.top_left);
            if b.numbering_from == 0 {
                out.push_str(" (numbered from 0)");
            }
            if let Some(mark) = b.unvisited {
                let _ = write!(out, " (unvisited squares hold {mark})");
            }
            let _ = write!(
                out,
                ", {} visited",
                crate::english::count_usize(b.moves, "square")
            );
        }
    }
}

/// The start and the end: `, start C3 (a1) (highlighted), end D5 (b3)`.
fn push_ends(out: &mut String, b: &BoardReport) {
    let at = |cell: Option<CellRef>, square: Option<SquareName>| match (cell, square) {
        (Some(c), Some(s)) => Some(format!("{c} ({s})")),
        (Some(c), None) => Some(c.to_string()),
        _ => None,
    };
    if let Some(start) = at(b.start, b.start_square) {
        let _ = write!(out, ", start {start}");
        // Said only when it is: most boards typed by hand have no highlighted start, and
        // saying so on each is noise (JSON has `start_highlighted` either way).
        if b.start_highlighted == Some(true) {
            out.push_str(" (highlighted)");
        }
    }
    if let Some(end) = at(b.end, b.end_square) {
        let _ = write!(out, ", end {end}");
    }
}

/// Text from a file (sheet names, cell text, file names) made safe for a terminal: control
/// characters (escape sequences, bells, newlines, bidi overrides) are written as `\u{1b}`.
/// The JSON report keeps the exact text.
///
/// ```
/// use knights_tour::verify::text::escape_control;
/// assert_eq!(escape_control("a\u{1b}[31mRED"), "a\\u{1b}[31mRED");
/// assert_eq!(escape_control("plain é"), "plain é");
/// ```
pub fn escape_control(text: &str) -> Cow<'_, str> {
    let unsafe_char = |c: char| {
        c.is_control()
            || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    };
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unsafe_char(c) {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A drawing of a small board, bad cells marked `*`, blanks `.`; `None` for boards larger
/// than [`DRAW_MAX_SIDE`] or sheets that are not invalid.
pub(crate) fn drawing(grid: &BlockGrid<'_>, s: &BoardReport) -> Option<String> {
    let range = grid.range;
    if s.verdict != Verdict::Invalid || range.rows() > DRAW_MAX_SIDE || range.cols() > DRAW_MAX_SIDE
    {
        return None;
    }
    let bad: HashSet<CellRef> = s
        .problems
        .iter()
        .flat_map(|p| p.cells.iter().copied())
        .collect();
    let mut texts = Vec::new();
    for r in 0..range.rows() {
        let mut row = Vec::new();
        for c in 0..range.cols() {
            let cell = grid.cell(r, c);
            let text = match classify(cell.and_then(|x| x.value)) {
                Kind::Blank => ".".to_string(),
                Kind::Int(n) => n.to_string(),
                Kind::NonInt(f) => f.to_string(),
                Kind::Text => "x".to_string(),
            };
            let mark = if bad.contains(&range.first.offset(r, c)) {
                "*"
            } else {
                " "
            };
            row.push(format!("{text}{mark}"));
        }
        texts.push(row);
    }
    let width = texts.iter().flatten().map(String::len).max().unwrap_or(2);
    let label_width = (range.last.row + 1).to_string().len();
    let mut out = String::new();
    let _ = write!(out, "      {:label_width$}", "");
    for c in 0..range.cols() {
        let _ = write!(
            out,
            " {:>width$}",
            format!("{} ", column_letters(range.first.col + c))
        );
    }
    out.push('\n');
    for (r, row) in texts.iter().enumerate() {
        let CellRef { row: abs, .. } = range.first.offset(r as u32, 0);
        let _ = write!(out, "      {:>label_width$}", abs + 1);
        for t in row {
            let _ = write!(out, " {t:>width$}");
        }
        out.push('\n');
    }
    Some(out)
}
