//! Worksheet names a workbook can hold: at most 31 characters, none of `[]:*?/\`, no
//! apostrophe at either end, never empty, unique ignoring case, and clear of the names a
//! workbook reserves for its own sheets (`Summary`, `Results`, `Path data`).
//!
//! Also the names and headings of the tool's own sheets, which its reader recognises when a
//! workbook comes back: one definition for the writer and the reader.
//!
//! ```
//! use knights_tour::workbook::write::names::{PUZZLE_TITLE, SUMMARY_COLUMNS, SUMMARY_SHEET};
//! assert_eq!(SUMMARY_SHEET, "Summary");
//! assert_eq!(SUMMARY_COLUMNS[0], "Sheet");
//! assert!(PUZZLE_TITLE.starts_with("Knight's tour"));
//! ```

/// Name of the summary worksheet (always the last visible sheet).
pub const SUMMARY_SHEET: &str = "Summary";

/// Name of the hidden worksheet that holds the path charts' coordinates.
pub const PATH_DATA_SHEET: &str = "Path data";

/// Row (from 0) of the summary table's header; attempt `i` (from 0) is on row
/// `SUMMARY_HEADER_ROW + 1 + i`.
pub const SUMMARY_HEADER_ROW: u32 = 5;

/// The table's column headings, in order.
pub const SUMMARY_COLUMNS: [&str; 11] = [
    "Sheet",
    "Board",
    "Start",
    "End",
    "Squares visited",
    "Result",
    "Path",
    "Method",
    "Tie-break",
    "Seed",
    "Note",
];

/// How a puzzle sheet's title starts.
pub const PUZZLE_TITLE: &str = "Knight's tour puzzle";

/// How the title of a puzzle's answer starts (`Answer to puzzle 1`).
pub const PUZZLE_ANSWER_TITLE: &str = "Answer to puzzle";

/// Excel's limit on worksheet names, in characters.
pub(crate) const MAX_SHEET_NAME: usize = 31;

/// Names handed out so far, ignoring case.
pub(crate) struct SheetNames {
    taken: Vec<String>,
}

impl SheetNames {
    /// A set where `reserved` are already taken.
    pub(crate) fn new(reserved: &[&str]) -> SheetNames {
        SheetNames {
            taken: reserved.iter().map(|n| n.to_lowercase()).collect(),
        }
    }

    /// `wanted` made safe (see [`safe_name`], `fallback` when nothing is left of it) and
    /// unique, by a ` (2)`, ` (3)`, ... suffix within the 31 characters.
    pub(crate) fn claim(&mut self, wanted: &str, fallback: &str) -> String {
        let base = safe_name(wanted, fallback);
        let mut name = base.clone();
        let mut n = 2;
        while self.taken.contains(&name.to_lowercase()) {
            let suffix = format!(" ({n})");
            let room = MAX_SHEET_NAME - suffix.chars().count();
            let stem: String = base.chars().take(room).collect();
            name = format!("{}{suffix}", stem.trim_end());
            n += 1;
        }
        self.taken.push(name.to_lowercase());
        name
    }
}

/// `name` without the characters Excel forbids, without leading/trailing apostrophes and
/// spaces, at most 31 characters, `fallback` if nothing is left.
pub(crate) fn safe_name(name: &str, fallback: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| {
            if "[]:*?/\\".contains(c) || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect();
    let trimmed: String = cleaned
        .trim_matches(|c: char| c == '\'' || c.is_whitespace())
        .chars()
        .take(MAX_SHEET_NAME)
        .collect();
    let trimmed = trimmed
        .trim_end_matches(|c: char| c == '\'' || c.is_whitespace())
        .to_string();
    if trimmed.is_empty() {
        fallback.to_string()
    } else {
        trimmed
    }
}

/// An internal link's target: `'Name'!C3`, apostrophes in the name doubled.
pub(crate) fn link_to(name: &str, cell: &str) -> String {
    format!("internal:'{}'!{cell}", name.replace('\'', "''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_safe_unique_and_short() {
        let mut names = SheetNames::new(&["Summary"]);
        assert_eq!(names.claim("A/B", "X"), "A_B");
        assert_eq!(names.claim("a_b", "X"), "a_b (2)");
        assert_eq!(names.claim("summary", "X"), "summary (2)");
        let long = "x".repeat(40);
        let (a, b) = (names.claim(&long, "X"), names.claim(&long, "X"));
        assert_eq!(a.chars().count(), 31);
        assert!(b.chars().count() <= 31 && a != b, "{a} {b}");
        assert_eq!(names.claim("'", "Completed"), "Completed");
        assert_eq!(names.claim(" 'é' ", "X"), "é");
    }

    #[test]
    fn links_double_apostrophes() {
        assert_eq!(link_to("O'Brien", "C3"), "internal:'O''Brien'!C3");
    }
}
