//! The class report: `verify --format csv`, one row per board.
//!
//! Columns: [`CSV_COLUMNS`]. A file without any board still gets one row (verdict `no-board`,
//! or `unreadable` with the reason as its first problem) so a teacher sees every submission;
//! a sheet that cannot be read gets an `unreadable` row of its own.
//! Fields that a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`) are
//! prefixed with `'`.

use super::report::{BoardReport, FileReport, ResultRow};

/// The header row. Names are the JSON report's where the fact is the same: `cells` (the
/// cells the board occupies), `rows` and `cols` (the chessboard), `moves`, `start` and `end`
/// (cells), `start_square` and `end_square` (squares), `magic` (`semi-magic` or `magic` for a
/// complete tour whose ranks and files sum alike, else empty); `problem_count` counts the
/// problems listed, `first_problem` is the first of them (or why a file has no board or is
/// unreadable). Columns are only ever added at the end.
pub const CSV_COLUMNS: [&str; 15] = [
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
    "magic",
];

/// The header line.
pub fn header() -> String {
    CSV_COLUMNS.join(",") + "\r\n"
}

/// The fields of one row, by column ([`CSV_COLUMNS`]); empty fields stay empty.
fn fields(row: &ResultRow<'_>) -> [String; 15] {
    let text = |x: Option<String>| x.unwrap_or_default();
    let b = row.board();
    let of = |f: &dyn Fn(&BoardReport) -> Option<String>| text(b.and_then(f));
    [
        row.file.to_string(),
        row.sheet.to_string(),
        of(&|b| b.cells.map(|c| c.to_string())),
        of(&|b| Some(b.notation.as_str().into())),
        row.verdict().to_string(),
        of(&|b| Some(b.board.rows.to_string())),
        of(&|b| Some(b.board.cols.to_string())),
        b.map_or(0, |b| b.moves).to_string(),
        of(&|b| b.start.map(|c| c.to_string())),
        of(&|b| b.end.map(|c| c.to_string())),
        of(&|b| b.start_square.map(|s| s.to_string())),
        of(&|b| b.end_square.map(|s| s.to_string())),
        b.map_or(0, |b| b.problems.len()).to_string(),
        row.first_problem(),
        of(&|b| b.magic.map(|m| m.as_str().into())),
    ]
}

/// The rows for one file ([`FileReport::rows`]), each ending with CRLF (RFC 4180).
pub fn rows(report: &FileReport) -> String {
    let mut out = String::new();
    for row in report.rows() {
        let quoted: Vec<String> = fields(&row).iter().map(|f| field(f)).collect();
        out.push_str(&quoted.join(","));
        out.push_str("\r\n");
    }
    out
}

/// One field, quoted when it needs to be, and defused when a spreadsheet would run it.
fn field(text: &str) -> String {
    // A lone `-` (standard input) is no formula: a spreadsheet shows it as typed.
    let text = if text.starts_with(['=', '+', '-', '@']) && text != "-" {
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
            written_by_verify: false,
            file: "empty.xlsx".into(),
            format: Some("xlsx".into()),
            readable: true,
            error: None,
            sheets: vec![crate::verify::SheetReport::no_board("Sheet1", 0, None)],
        };
        assert_eq!(
            rows(&r),
            "empty.xlsx,,,,no-board,,,0,,,,,0,no board found in empty.xlsx,\r\n"
        );
    }
}
