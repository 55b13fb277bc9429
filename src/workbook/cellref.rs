//! A1 cell references, the way spreadsheets name cells (`C3`, `XFD1048576`).
//!
//! Both the writer (where the board goes) and the verifier (where the board was found, which
//! cell is wrong) speak in these, so they live apart from either.

use std::fmt;
use std::str::FromStr;

use crate::board::{column_letters, parse_file_letters};

/// Rows in a worksheet (Excel 2007 and later, LibreOffice 7.4 and later).
pub const SHEET_ROWS: u32 = 1_048_576;
/// Columns in a worksheet.
pub const SHEET_COLS: u32 = 16_384;

/// A cell position, `row` and `col` from 0 (`A1` is `(0, 0)`).
///
/// ```
/// use knights_tour::workbook::cellref::CellRef;
/// let c: CellRef = "C3".parse().unwrap();
/// assert_eq!((c.row, c.col), (2, 2));
/// assert_eq!(c.to_string(), "C3");
/// assert_eq!(CellRef::new(0, 16383).to_string(), "XFD1");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CellRef {
    /// Row from 0.
    pub row: u32,
    /// Column from 0.
    pub col: u32,
}

impl CellRef {
    /// A cell at `(row, col)` from 0.
    pub const fn new(row: u32, col: u32) -> Self {
        CellRef { row, col }
    }

    /// The cell `dr` rows down and `dc` columns right of this one.
    pub fn offset(self, dr: u32, dc: u32) -> CellRef {
        CellRef::new(self.row + dr, self.col + dc)
    }
}

impl fmt::Display for CellRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", column_letters(self.col), u64::from(self.row) + 1)
    }
}

/// Why a cell reference was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "'{text}' is not a cell reference: use A1 notation like C3 (columns A..XFD, rows 1..1048576)"
)]
pub struct CellRefError {
    /// What the user typed.
    pub text: String,
}

impl FromStr for CellRef {
    type Err = CellRefError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let err = || CellRefError {
            text: text.trim().to_string(),
        };
        let t = text.trim().replace('$', "");
        let split = t.find(|c: char| !c.is_ascii_alphabetic()).ok_or_else(err)?;
        let (letters, digits) = t.split_at(split);
        if letters.is_empty() || letters.len() > 3 || digits.is_empty() || digits.len() > 7 {
            return Err(err());
        }
        if !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(err());
        }
        let col = parse_file_letters(letters).ok_or_else(err)?;
        let row: u64 = digits.parse().map_err(|_| err())?;
        if row == 0 || row > u64::from(SHEET_ROWS) || col >= u64::from(SHEET_COLS) {
            return Err(err());
        }
        Ok(CellRef::new((row - 1) as u32, col as u32))
    }
}

/// A rectangle of cells, e.g. `A1:H8`.
///
/// ```
/// use knights_tour::workbook::cellref::CellRange;
/// let r: CellRange = "C3:J10".parse().unwrap();
/// assert_eq!((r.rows(), r.cols()), (8, 8));
/// assert_eq!(r.to_string(), "C3:J10");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CellRange {
    /// Top-left cell.
    pub first: CellRef,
    /// Bottom-right cell.
    pub last: CellRef,
}

impl CellRange {
    /// The range from `first` to `last`, normalised so `first` is top-left.
    pub fn new(a: CellRef, b: CellRef) -> CellRange {
        CellRange {
            first: CellRef::new(a.row.min(b.row), a.col.min(b.col)),
            last: CellRef::new(a.row.max(b.row), a.col.max(b.col)),
        }
    }

    /// Rows spanned.
    pub fn rows(&self) -> u32 {
        self.last.row - self.first.row + 1
    }

    /// Columns spanned.
    pub fn cols(&self) -> u32 {
        self.last.col - self.first.col + 1
    }

    /// Whether `cell` lies inside.
    pub fn contains(&self, cell: CellRef) -> bool {
        (self.first.row..=self.last.row).contains(&cell.row)
            && (self.first.col..=self.last.col).contains(&cell.col)
    }
}

impl fmt::Display for CellRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.first, self.last)
    }
}

/// Why a cell range was refused: it is not two corners joined by `:`, or a corner is not a
/// cell reference.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{text}' is not a cell range: {reason}")]
pub struct CellRangeError {
    /// What the user typed.
    pub text: String,
    /// What is wrong and what to type instead.
    pub reason: String,
}

impl FromStr for CellRange {
    type Err = CellRangeError;

    /// `C3:J10` (either corner first, `$` allowed). A single cell such as `A1` is refused with
    /// a message that asks for two corners, not one that calls `A1` a bad cell reference.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let err = |reason: String| CellRangeError {
            text: text.trim().to_string(),
            reason,
        };
        let Some((a, b)) = text.split_once(':') else {
            let hint = match text.parse::<CellRef>() {
                Ok(cell) => format!("give two corners, like {cell}:{}", cell.offset(7, 7)),
                Err(_) => "give two corners in A1 notation, like A1:H8".to_string(),
            };
            return Err(err(hint));
        };
        let corner = |t: &str| t.parse::<CellRef>().map_err(|e| err(e.to_string()));
        Ok(CellRange::new(corner(a)?, corner(b)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_round_trip() {
        for (text, row, col) in [
            ("A1", 0, 0),
            ("c3", 2, 2),
            ("AA10", 9, 26),
            ("XFD1048576", 1_048_575, 16_383),
        ] {
            let c: CellRef = text.parse().unwrap();
            assert_eq!((c.row, c.col), (row, col), "{text}");
            assert_eq!(c.to_string(), text.to_uppercase());
        }
        assert_eq!("$B$2".parse::<CellRef>().unwrap(), CellRef::new(1, 1));
    }

    #[test]
    fn bad_references_are_refused() {
        for bad in ["", "A", "1", "A0", "XFE1", "A1048577", "1A", "A1B", "AAAA1"] {
            assert!(bad.parse::<CellRef>().is_err(), "{bad:?}");
        }
        assert!("A1-B2".parse::<CellRange>().is_err());
    }

    #[test]
    fn a_single_cell_is_not_called_a_bad_reference() {
        let e = "A1".parse::<CellRange>().unwrap_err().to_string();
        assert_eq!(e, "'A1' is not a cell range: give two corners, like A1:H8");
        let e = "A1-H8".parse::<CellRange>().unwrap_err().to_string();
        assert!(
            e.contains("'A1-H8' is not a cell range: give two corners"),
            "{e}"
        );
        let e = "A1:H0".parse::<CellRange>().unwrap_err().to_string();
        assert!(e.contains("'H0' is not a cell reference"), "{e}");
    }

    #[test]
    fn ranges_normalise() {
        let r: CellRange = "H8:A1".parse().unwrap();
        assert_eq!(r.to_string(), "A1:H8");
        assert!(r.contains(CellRef::new(7, 7)));
        assert!(!r.contains(CellRef::new(8, 0)));
    }
}
