//! What a sheet may keep: caps no real board reaches, on what is kept of a sheet (its cells,
//! their text), so that a sheet is refused with a reason instead of filling the memory of
//! whoever keeps it: the command, which is not capped, keeps what its reader process sends.
//!
//! Two more caps only turn a would-be stop of the reader process into a clearer message,
//! cheaply: the cells our own readers of ods and text scan, empty ones included
//! ([`MAX_SHEET_SCANNED_CELLS`]: a sheet of millions of empty cells is named as such rather than
//! "reading it took more than 8 s"), and the text they read ([`MAX_STRING_BYTES`]). Bounding a
//! parser against a hostile file is not done here: the command line reads in a watched reader
//! process ([`super::watched`]). The largest board the verifier checks, 1000 x 1000 squares
//! typed as text, stays well inside every cap.

use std::io;

use super::cells::{cost_of, inline, CellsBuilder, MAX_SMALL_NUMBER, SMALL_NUMBER_COST};
use super::{CellFormat, CellValue, CellValueRef, CellView, ReadError, SheetCells};

/// The most cells (including formatted empty ones) kept from one worksheet, 16 bytes each
/// (plus the value of each that is not a whole number from 0 to 2^31 - 1).
pub const MAX_SHEET_CELLS: usize = 4 * 1024 * 1024;

/// The most cell elements scanned on one worksheet, empty ones (`<c/>`) included.
pub const MAX_SHEET_SCANNED_CELLS: u64 = 8 * 1024 * 1024;

/// The most bytes of text read from one sheet's cells by our readers (an ods cell's text
/// counted once per repeated copy).
pub const MAX_STRING_BYTES: u64 = 32 * 1024 * 1024;

/// How much of a text cell is kept: as much as a cell holds in Excel (32,767 characters), so
/// that a whole tour typed into one cell (`(7,6) (5,7) ...`, a JSON array) is read. Longer
/// text ends in `…`, so that it can never read as a number.
pub const MAX_TEXT_KEPT: usize = 32 * 1024;

/// The most sheets a workbook may list. `generate` writes at most 2,000; a workbook listing
/// more would take minutes to check, one board after another.
pub const MAX_SHEETS: usize = 4096;

/// The most bytes a sheet's cells may take once kept (16 bytes a cell, and the value of each
/// that is not a whole number with its text): many strings used by many cells are caught,
/// not each count alone. Half of what the reader process may use (192 MB): a file that makes the
/// command keep this much leaves the reader little room beside it.
pub const MAX_KEPT_BYTES: u64 = 96 * 1024 * 1024;

/// Text as a cell value: `None` when blank, cut to what is kept ([`keep_text`]) otherwise.
pub(crate) fn text_value(s: &str) -> Option<CellValue> {
    (!s.trim().is_empty()).then(|| CellValue::Text(keep_text(s)))
}

/// The text of a cell as kept: at most [`MAX_TEXT_KEPT`] bytes, cut at a character boundary
/// and marked with `…` when cut.
pub fn keep_text(text: &str) -> Box<str> {
    if text.len() <= MAX_TEXT_KEPT {
        return text.into();
    }
    let mut end = MAX_TEXT_KEPT;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let mut kept = String::with_capacity(end + 3);
    kept.push_str(&text[..end]);
    kept.push('…');
    kept.into_boxed_str()
}

/// Where a sheet's cells go once counted: kept here, or sent on as they come (the reader
/// process sends them to its parent, so it never holds a sheet).
pub(crate) trait CellOut {
    /// Send one cell on.
    fn cell(&mut self, cell: &CellView<'_>) -> io::Result<()>;

    /// Send on a whole number from 0 to [`MAX_SMALL_NUMBER`] (every move number of a board)
    /// in one step, without a [`CellView`] to look through.
    fn small_number(
        &mut self,
        row: u32,
        col: u32,
        value: u32,
        format: CellFormat,
    ) -> io::Result<()>;
}

/// Kept in memory, or sent on.
enum Store<'a> {
    Keep(CellsBuilder),
    Send(&'a mut dyn CellOut),
}

/// Counts one sheet's reading against the caps, and keeps its cells (or sends them on,
/// [`SheetBudget::sending`]).
pub(crate) struct SheetBudget<'a> {
    scanned: u64,
    text: u64,
    /// Cells kept (or sent) so far, and the bytes they take.
    cells: usize,
    kept: u64,
    store: Store<'a>,
}

impl<'a> SheetBudget<'a> {
    /// Keep the cells.
    pub(crate) fn new() -> SheetBudget<'a> {
        SheetBudget::with(Store::Keep(CellsBuilder::default()))
    }

    /// Send each cell to `out` instead of keeping it; the caps are the same.
    pub(crate) fn sending(out: &'a mut dyn CellOut) -> SheetBudget<'a> {
        SheetBudget::with(Store::Send(out))
    }

    fn with(store: Store<'a>) -> SheetBudget<'a> {
        SheetBudget {
            scanned: 0,
            text: 0,
            cells: 0,
            kept: 0,
            store,
        }
    }

    /// One more cell seen, empty or not.
    pub(crate) fn scan(&mut self) -> Result<(), ReadError> {
        self.scanned += 1;
        if self.scanned > MAX_SHEET_SCANNED_CELLS {
            return Err(ReadError::TooLarge {
                detail: format!(
                    "the sheet holds more than {MAX_SHEET_SCANNED_CELLS} cells (empty ones included)"
                ),
            });
        }
        Ok(())
    }

    /// `n` more bytes of text read from the sheet's cells.
    pub(crate) fn text(&mut self, n: usize) -> Result<(), ReadError> {
        self.text += n as u64;
        if self.text > MAX_STRING_BYTES {
            return Err(ReadError::TooLarge {
                detail: format!(
                    "the sheet holds more than {} MB of text",
                    MAX_STRING_BYTES / (1024 * 1024)
                ),
            });
        }
        Ok(())
    }

    /// Keep a cell without a format at `(row, col)` (as a text reader counts them), refusing
    /// a position past `u32::MAX`.
    pub(crate) fn push_at(
        &mut self,
        row: u64,
        col: u64,
        value: CellValueRef<'_>,
    ) -> Result<(), ReadError> {
        let position = |i: u64, what: &str| {
            u32::try_from(i).map_err(|_| ReadError::TooLarge {
                detail: format!("the file has a {what} beyond {}", u32::MAX),
            })
        };
        self.push_view(&CellView {
            row: position(row, "row")?,
            col: position(col, "column")?,
            value: Some(value),
            format: CellFormat::default(),
        })
    }

    /// Keep a number: a whole number kept in place (every move number of a board) is kept or
    /// sent on in one step, anything else as [`SheetBudget::push_view`] keeps it.
    pub(crate) fn push_number(
        &mut self,
        row: u32,
        col: u32,
        value: f64,
        format: CellFormat,
    ) -> Result<(), ReadError> {
        let Some(handle) = inline(value) else {
            return self.push_view(&CellView {
                row,
                col,
                value: Some(CellValueRef::Number(value)),
                format,
            });
        };
        self.room(1, SMALL_NUMBER_COST)?;
        match &mut self.store {
            Store::Keep(cells) => cells
                .push_slot(row, col, handle, format)
                .map_err(out_of_memory),
            Store::Send(out) => out
                .small_number(row, col, handle & MAX_SMALL_NUMBER, format)
                .map_err(sent),
        }
    }

    /// Keep a cell whose value is borrowed: its text is cut here to [`MAX_TEXT_KEPT`]
    /// (marked `…`), blank text is no value, and a cell with neither value nor format is
    /// not kept.
    pub(crate) fn push_view(&mut self, cell: &CellView<'_>) -> Result<(), ReadError> {
        let cut;
        let value = match cell.value {
            Some(CellValueRef::Text(t)) if t.trim().is_empty() => None,
            Some(CellValueRef::Text(t)) if t.len() > MAX_TEXT_KEPT => {
                cut = keep_text(t);
                Some(CellValueRef::Text(&cut))
            }
            Some(CellValueRef::Error(t)) if t.len() > MAX_TEXT_KEPT => {
                cut = keep_text(t);
                Some(CellValueRef::Error(&cut))
            }
            v => v,
        };
        if value.is_none() && cell.format == CellFormat::default() {
            return Ok(());
        }
        let cell = CellView { value, ..*cell };
        self.room(1, cost_of(cell.value))?;
        match &mut self.store {
            Store::Keep(cells) => cells.push_view(&cell).map_err(out_of_memory),
            Store::Send(out) => out.cell(&cell).map_err(sent),
        }
    }

    /// Keep whole numbers from 0 to 2^31 - 1 along row `row` from column `col`, all with one
    /// format (a row of a board from the reader process, whose protocol has checked that the
    /// columns do not pass `u32::MAX`).
    pub(crate) fn push_run(
        &mut self,
        row: u32,
        col: u32,
        values: &[u32],
        format: CellFormat,
    ) -> Result<(), ReadError> {
        self.room(values.len(), SMALL_NUMBER_COST * values.len() as u64)?;
        match &mut self.store {
            Store::Keep(cells) => cells
                .push_run(row, col, values, format)
                .map_err(out_of_memory),
            Store::Send(out) => values.iter().enumerate().try_for_each(|(i, &v)| {
                out.small_number(
                    row,
                    col.wrapping_add(i as u32),
                    v & MAX_SMALL_NUMBER,
                    format,
                )
                .map_err(sent)
            }),
        }
    }

    /// Room for `n` more cells costing `bytes` together.
    fn room(&mut self, n: usize, bytes: u64) -> Result<(), ReadError> {
        if self.cells + n > MAX_SHEET_CELLS {
            return Err(ReadError::TooLarge {
                detail: format!(
                    "the sheet holds more than {MAX_SHEET_CELLS} filled or formatted cells"
                ),
            });
        }
        self.kept += bytes;
        if self.kept > MAX_KEPT_BYTES {
            return Err(ReadError::TooLarge {
                detail: format!(
                    "the sheet's {} cells kept so far come to more than {} MB in memory",
                    self.cells,
                    MAX_KEPT_BYTES / (1024 * 1024)
                ),
            });
        }
        self.cells += n;
        Ok(())
    }

    /// The sheet's cells (none when they were sent on); `formats_known` says whether borders
    /// and fills were read.
    pub(crate) fn finish(self, formats_known: bool) -> SheetCells {
        match self.store {
            Store::Keep(cells) => cells.finish(formats_known),
            Store::Send(_) => SheetCells::default(),
        }
    }
}

/// A cell could not be sent on: whoever reads them is gone.
fn sent(e: io::Error) -> ReadError {
    ReadError::Io(format!("the cells could not be sent on: {e}"))
}

fn out_of_memory(e: std::collections::TryReserveError) -> ReadError {
    ReadError::TooLarge {
        detail: format!("the sheet's cells do not fit in memory ({e})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_cut_and_never_numeric() {
        let digits = "1".repeat(MAX_TEXT_KEPT + 1000);
        let kept = keep_text(&digits);
        assert!(kept.len() <= MAX_TEXT_KEPT + 3);
        assert!(kept.ends_with('…'));
        assert!(kept.parse::<f64>().is_err());
        assert_eq!(&*keep_text("17"), "17");
        let wide = "é".repeat(MAX_TEXT_KEPT / 2 + 50);
        assert!(keep_text(&wide).is_char_boundary(0));
    }
}
