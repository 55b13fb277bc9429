//! The class report: `verify --format csv`, one row per board.
//!
//! Columns: [`CSV_COLUMNS`]. A file without any board still gets one row (verdict `no-board`,
//! or `unreadable` with the reason as its first problem) so a teacher sees every submission;
//! a sheet that cannot be read gets an `unreadable` row of its own.
//! Fields that a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`) are
//! prefixed with `'`.

use super::report::{BoardReport, FileReport};

/// The header row. Names are the JSON report's where the fact is the same: `cells` (the
/// cells the board occupies), `rows` and `cols` (the chessboard), `moves`, `start` and `end`
/// (cells), `start_square` and `end_square` (squares); `problem_count` counts the problems
/// listed, `first_problem` is the first of them (or why a file has no board or is unreadable).
pub const CSV_COLUMNS: [&str; 14] = [
    "file",
    "sheet",
    "cells",
    "notation",
    "verdict",
    "rows",
    "cols",
    "moves",
    "start",
    "end",
    "start_square",
    "end_square",
    "problem_count",
    "first_problem",
];

/// The header line.
pub fn header() -> String {
    CSV_COLUMNS.join(",") + "\r\n"
}

/// One row, by column; empty fields stay empty.
#[derive(Default)]
struct Row {
    file: String,
    sheet: String,
    cells: String,
    notation: String,
    verdict: String,
    rows: String,
    cols: String,
    moves: String,
    start: String,
    end: String,
    start_square: String,
    end_square: String,
    problem_count: String,
    first_problem: String,
}

impl Row {
    /// A row saying why a file or sheet has no board: `verdict` is `no-board` or `unreadable`.
    fn without_board(file: &str, sheet: &str, verdict: &str, why: String) -> Row {
        Row {
            file: file.to_string(),
            sheet: sheet.to_string(),
            verdict: verdict.to_string(),
            moves: "0".into(),
            problem_count: "0".into(),
            first_problem: why,
            ..Row::default()
        }
    }

    fn board(file: &str, sheet: &str, b: &BoardReport) -> Row {
        let text = |x: Option<String>| x.unwrap_or_default();
        Row {
            file: file.to_string(),
            sheet: sheet.to_string(),
            cells: text(b.cells.map(|c| c.to_string())),
            notation: b.notation.as_str().into(),
            verdict: b.verdict.as_str().into(),
            rows: b.board.rows.to_string(),
            cols: b.board.cols.to_string(),
            moves: b.moves.to_string(),
            start: text(b.start.map(|c| c.to_string())),
            end: text(b.end.map(|c| c.to_string())),
            start_square: text(b.start_square.map(|s| s.to_string())),
            end_square: text(b.end_square.map(|s| s.to_string())),
            problem_count: b.problems.len().to_string(),
            first_problem: text(
                b.problems
                    .first()
                    .map(|p| format!("{}: {}", p.kind.as_str(), p.message)),
            ),
        }
    }

    /// The line, ending with CRLF (RFC 4180).
    fn line(&self) -> String {
        let fields = [
            &self.file,
            &self.sheet,
            &self.cells,
            &self.notation,
            &self.verdict,
            &self.rows,
            &self.cols,
            &self.moves,
            &self.start,
            &self.end,
            &self.start_square,
            &self.end_square,
            &self.problem_count,
            &self.first_problem,
        ];
        let quoted: Vec<String> = fields.iter().map(|f| field(f)).collect();
        quoted.join(",") + "\r\n"
    }
}

/// The rows for one file: one per board, one per sheet that could not be read, and for a file
/// without any board one row saying why (verdict `no-board`, or `unreadable` for a file that
/// cannot be read at all) so a teacher sees every submission.
pub fn rows(report: &FileReport) -> String {
    if !report.readable {
        let why = report.error.clone().unwrap_or_default();
        return Row::without_board(&report.file, "", "unreadable", why).line();
    }
    let mut out = String::new();
    for s in &report.sheets {
        for b in &s.boards {
            out.push_str(&Row::board(&report.file, &s.sheet, b).line());
        }
        if s.unreadable {
            let why = s.note.clone().unwrap_or_default();
            out.push_str(&Row::without_board(&report.file, &s.sheet, "unreadable", why).line());
        }
    }
    if out.is_empty() {
        let why = report
            .error
            .clone()
            .or_else(|| report.sheets.iter().find_map(|s| s.note.clone()))
            .unwrap_or_else(|| format!("no board found in {}", report.file));
        out = Row::without_board(&report.file, "", "no-board", why).line();
    }
    out
}

/// One field, quoted when it needs to be, and defused when a spreadsheet would run it.
fn field(text: &str) -> String {
    let text = if text.starts_with(['=', '+', '-', '@']) {
        format!("'{text}")
    } else {
        text.to_string()
    };
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_quoted_and_defused() {
        assert_eq!(field("plain"), "plain");
        assert_eq!(field("a, b"), "\"a, b\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(field("=SUM(A1)"), "'=SUM(A1)");
    }

    #[test]
    fn a_file_without_boards_still_gets_a_row() {
        let r = FileReport {
            file: "empty.xlsx".into(),
            format: Some("xlsx".into()),
            readable: true,
            error: None,
            sheets: vec![crate::verify::SheetReport::no_board("Sheet1", 0, None)],
        };
        assert_eq!(
            rows(&r),
            "empty.xlsx,,,,no-board,,,0,,,,,0,no board found in empty.xlsx\r\n"
        );
    }
}
