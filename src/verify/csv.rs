//! The class report: `verify --format csv`, one row per board.
//!
//! Columns: [`CSV_COLUMNS`]. A file without any board still gets one row (verdict `no-board`,
//! or `unreadable` with the reason as its first problem) so a teacher sees every submission.
//! Fields that a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`) are
//! prefixed with `'`.

use super::report::{BoardReport, FileReport};

/// The header row.
pub const CSV_COLUMNS: [&str; 10] = [
    "file",
    "sheet",
    "board",
    "notation",
    "verdict",
    "moves",
    "start",
    "end",
    "problems",
    "first_problem",
];

/// The header line.
pub fn header() -> String {
    CSV_COLUMNS.join(",") + "\r\n"
}

/// The rows for one file, each ending with CRLF (RFC 4180).
pub fn rows(report: &FileReport) -> String {
    let mut out = String::new();
    let mut line = |fields: [String; 10]| {
        let quoted: Vec<String> = fields.iter().map(|f| field(f)).collect();
        out.push_str(&quoted.join(","));
        out.push_str("\r\n");
    };
    if !report.readable {
        line([
            report.file.clone(),
            String::new(),
            String::new(),
            String::new(),
            "unreadable".into(),
            String::new(),
            String::new(),
            String::new(),
            "1".into(),
            report.error.clone().unwrap_or_default(),
        ]);
        return out;
    }
    for s in &report.sheets {
        for b in &s.boards {
            line(board_row(&report.file, &s.sheet, b));
        }
    }
    if !report.has_board() {
        let why = report
            .error
            .clone()
            .or_else(|| report.sheets.iter().find_map(|s| s.note.clone()))
            .unwrap_or_else(|| format!("no board found in {}", report.file));
        line([
            report.file.clone(),
            String::new(),
            String::new(),
            String::new(),
            "no-board".into(),
            "0".into(),
            String::new(),
            String::new(),
            "0".into(),
            why,
        ]);
    }
    out
}

fn board_row(file: &str, sheet: &str, b: &BoardReport) -> [String; 10] {
    let range = b.cells.map(|c| c.to_string()).unwrap_or_else(|| {
        let f = b.board.top_left;
        format!("{f}:{}", f.offset(b.board.rows - 1, b.board.cols - 1))
    });
    [
        file.to_string(),
        sheet.to_string(),
        range,
        b.notation.as_str().into(),
        b.verdict.as_str().into(),
        b.moves.to_string(),
        b.start_square.map(|s| s.to_string()).unwrap_or_default(),
        b.end_square.map(|s| s.to_string()).unwrap_or_default(),
        b.problems.len().to_string(),
        b.problems
            .first()
            .map(|p| format!("{}: {}", p.kind.as_str(), p.message))
            .unwrap_or_default(),
    ]
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
            "empty.xlsx,,,,no-board,0,,,0,no board found in empty.xlsx\r\n"
        );
    }
}
