//! What a cell's value means for a board: a move number, a non-integer, text, or blank.

use crate::workbook::read::{CellValue, CellValueRef, Cells, SheetCells};

/// A cell's value as the verifier sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Kind {
    /// No value (or only spaces).
    Blank,
    /// A whole number: stored as an integer, as an integer-valued float (17.0), as numeric text
    /// (" 17 ") or as a formula's cached result.
    Int(i64),
    /// A number that is not whole (12.5).
    NonInt(f64),
    /// Text that is not a number, TRUE/FALSE, or an error value.
    Text,
}

impl Kind {
    /// Whether the value is a number of any sort.
    pub(crate) fn is_numeric(self) -> bool {
        matches!(self, Kind::Int(_) | Kind::NonInt(_))
    }
}

/// Largest integer an f64 holds exactly.
const MAX_EXACT: f64 = 9_007_199_254_740_992.0;

/// Classify a value.
pub(crate) fn classify(value: Option<CellValueRef<'_>>) -> Kind {
    match value {
        None => Kind::Blank,
        Some(CellValueRef::Number(f)) => number(f),
        Some(CellValueRef::Text(t)) => text(t),
        Some(CellValueRef::Bool(_) | CellValueRef::Error(_)) => Kind::Text,
    }
}

fn number(f: f64) -> Kind {
    // `as` truncates (and is one instruction, where `fract` is a library call); the bound
    // rules out NaN and the infinities.
    if f.abs() <= MAX_EXACT && (f as i64) as f64 == f {
        Kind::Int(f as i64)
    } else {
        Kind::NonInt(f)
    }
}

fn text(t: &str) -> Kind {
    let t = t.trim_matches(|c: char| c.is_whitespace() || c == '\u{a0}');
    if t.is_empty() {
        return Kind::Blank;
    }
    let plain = t
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'+' | b'-' | b'.' | b'e' | b'E'));
    if plain && t.bytes().any(|b| b.is_ascii_digit()) {
        if let Ok(f) = t.parse::<f64>() {
            return number(f);
        }
    }
    Kind::Text
}

/// The kind of every cell of a sheet, `(row, col, kind)` in row-major order; a whole number
/// (a board's move number) is read without looking at the rest of its cell.
pub(crate) fn kinds(sheet: &SheetCells) -> Kinds<'_> {
    Kinds {
        cells: sheet.cells(),
        next: 0,
    }
}

/// The kind of every cell of a sheet (see [`kinds`]).
pub(crate) struct Kinds<'a> {
    cells: Cells<'a>,
    next: usize,
}

impl Iterator for Kinds<'_> {
    type Item = (u32, u32, Kind);

    #[inline]
    fn next(&mut self) -> Option<(u32, u32, Kind)> {
        let i = self.next;
        let (row, col) = self.cells.position(i)?;
        self.next += 1;
        let kind = match self.cells.small_whole_number(i) {
            Some(v) => Kind::Int(i64::from(v)),
            None => kind_of_cell(self.cells, i),
        };
        Some((row, col, kind))
    }
}

/// The kind of the `i`-th cell (kept out of the loops that pass over a board's numbers).
#[inline(never)]
fn kind_of_cell(cells: Cells<'_>, i: usize) -> Kind {
    classify(cells.get(i).and_then(|c| c.value))
}

/// The text cells of a sheet, `(row, col, text)` in row-major order; the whole numbers a
/// board is made of are passed over without looking at them.
pub(crate) fn texts(sheet: &SheetCells) -> impl Iterator<Item = (u32, u32, &str)> + '_ {
    let cells = sheet.cells();
    (0..cells.len()).filter_map(move |i| {
        if cells.small_whole_number(i).is_some() {
            return None;
        }
        let c = cells.get(i)?;
        match c.value {
            Some(CellValueRef::Text(t)) => Some((c.row, c.col, t)),
            _ => None,
        }
    })
}

/// A value borrowed from a sheet, owned (to keep it, or to write it into another sheet).
pub(crate) fn owned(value: CellValueRef<'_>) -> CellValue {
    match value {
        CellValueRef::Number(f) => CellValue::Number(f),
        CellValueRef::Text(t) => CellValue::Text(t.into()),
        CellValueRef::Bool(b) => CellValue::Bool(b),
        CellValueRef::Error(e) => CellValue::Error(e.into()),
    }
}

/// How a value reads in a message: `12.5`, `'x'`, `TRUE`, `#REF!`.
pub(crate) fn describe(value: Option<CellValueRef<'_>>) -> String {
    match value {
        None => "nothing".into(),
        Some(CellValueRef::Number(f)) => format!("{f}"),
        Some(CellValueRef::Text(t)) => format!("the text '{}'", t.trim()),
        Some(CellValueRef::Bool(b)) => {
            format!("the logical value {}", if b { "TRUE" } else { "FALSE" })
        }
        Some(CellValueRef::Error(e)) => format!("the error value {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Kind {
        classify(Some(CellValueRef::Text(s)))
    }

    #[test]
    fn integers_count_however_they_are_stored() {
        assert_eq!(classify(Some(CellValueRef::Number(17.0))), Kind::Int(17));
        assert_eq!(t("17"), Kind::Int(17));
        assert_eq!(t("  17 "), Kind::Int(17));
        assert_eq!(t("17.0"), Kind::Int(17));
        assert_eq!(t("\u{a0}5"), Kind::Int(5));
    }

    #[test]
    fn fractions_text_and_blanks_are_told_apart() {
        assert_eq!(
            classify(Some(CellValueRef::Number(12.5))),
            Kind::NonInt(12.5)
        );
        assert_eq!(t("12.5"), Kind::NonInt(12.5));
        assert_eq!(t("x"), Kind::Text);
        assert_eq!(t("inf"), Kind::Text);
        assert_eq!(t("-"), Kind::Text);
        assert_eq!(t("   "), Kind::Blank);
        assert_eq!(classify(None), Kind::Blank);
        assert_eq!(classify(Some(CellValueRef::Bool(true))), Kind::Text);
        assert!(matches!(
            classify(Some(CellValueRef::Number(f64::NAN))),
            Kind::NonInt(_)
        ));
    }
}
