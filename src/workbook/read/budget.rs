//! What a sheet may keep: caps no real board reaches, on what is kept of a sheet (its cells,
//! their text) and, for our own readers of ods and text, on what they scan, so that a sheet is
//! refused with a reason instead of filling the memory of whoever keeps it.
//!
//! The largest board the verifier checks, 1000 x 1000 squares typed as text, stays well inside
//! every cap. Bounding a parser against a hostile file is not done here: the command line reads
//! in a watched reader process ([`super::watched`]).

use std::io::{self, Read};

use super::cells::{cost_of, cost_of_ref, CellsBuilder};
use super::{CellFormat, CellValue, CellValueRef, CellView, ReadError, SheetCell, SheetCells};

/// The most cells (including formatted empty ones) kept from one worksheet, 16 bytes each
/// (plus the value of each that is not a whole number from 0 to 2^31 - 1).
pub const MAX_SHEET_CELLS: usize = 4 * 1024 * 1024;

/// The most cell elements scanned on one worksheet, empty ones (`<c/>`) included.
pub const MAX_SHEET_SCANNED_CELLS: u64 = 8 * 1024 * 1024;

/// The most cell elements scanned over all the sheets of one workbook.
pub const MAX_RUN_SCANNED_CELLS: u64 = 24 * 1024 * 1024;

/// The most bytes of text a workbook may hold (its shared strings), and the most bytes of text
/// read from one sheet's cells (an ods cell's text counted once per repeated copy).
pub const MAX_STRING_BYTES: u64 = 32 * 1024 * 1024;

/// The most uncompressed bytes of XML read from one part of a package (a sheet,
/// `content.xml`, the shared strings...).
pub const MAX_PART_BYTES: u64 = 512 * 1024 * 1024;

/// The longest run of bytes between two `<` of an XML part: one text or one tag this long
/// would be held whole in memory by the XML reader.
pub const MAX_XML_RUN: u64 = 16 * 1024 * 1024;

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

/// The refusal of a cap: the words end a sentence such as "the workbook holds ...".
fn over(detail: String) -> ReadError {
    ReadError::TooLarge { detail }
}

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

/// Counts against the per-workbook caps, shared by all the sheets read from one file.
#[derive(Clone, Debug, Default)]
pub(crate) struct RunBudget {
    /// Cell elements scanned so far.
    pub(crate) scanned_cells: u64,
}

/// Where a sheet's cells go once counted: kept here, or sent on as they come (the reader
/// process sends them to its parent, so it never holds a sheet).
pub(crate) trait CellOut {
    /// Send one cell on.
    fn cell(&mut self, cell: &CellView<'_>) -> io::Result<()>;
}

/// Kept in memory, or sent on.
enum Store<'a> {
    Keep(CellsBuilder),
    Send(&'a mut dyn CellOut),
}

/// Counts one sheet's reading against the per-sheet caps (and the workbook's), and keeps its
/// cells (or sends them on, [`SheetBudget::sending`]).
pub(crate) struct SheetBudget<'a> {
    run: &'a mut RunBudget,
    scanned: u64,
    text: u64,
    /// Cells kept (or sent) so far, and the bytes they take.
    cells: usize,
    kept: u64,
    store: Store<'a>,
}

impl<'a> SheetBudget<'a> {
    pub(crate) fn new(run: &'a mut RunBudget) -> SheetBudget<'a> {
        SheetBudget::with(run, Store::Keep(CellsBuilder::default()))
    }

    /// Send each cell to `out` instead of keeping it; the caps are the same.
    pub(crate) fn sending(run: &'a mut RunBudget, out: &'a mut dyn CellOut) -> SheetBudget<'a> {
        SheetBudget::with(run, Store::Send(out))
    }

    fn with(run: &'a mut RunBudget, store: Store<'a>) -> SheetBudget<'a> {
        SheetBudget {
            run,
            scanned: 0,
            text: 0,
            cells: 0,
            kept: 0,
            store,
        }
    }

    /// One more cell element seen, empty or not.
    pub(crate) fn scan(&mut self) -> Result<(), ReadError> {
        self.scanned += 1;
        self.run.scanned_cells += 1;
        if self.scanned > MAX_SHEET_SCANNED_CELLS {
            return Err(ReadError::TooLarge {
                detail: format!(
                    "the sheet holds more than {MAX_SHEET_SCANNED_CELLS} cells (empty ones included)"
                ),
            });
        }
        if self.run.scanned_cells > MAX_RUN_SCANNED_CELLS {
            return Err(ReadError::TooLarge {
                detail: format!(
                    "the workbook holds more than {MAX_RUN_SCANNED_CELLS} cells (empty ones included) over its sheets"
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

    /// Keep a cell (its text already cut by [`keep_text`]).
    pub(crate) fn push(&mut self, cell: SheetCell) -> Result<(), ReadError> {
        self.push_view(&CellView {
            row: cell.row,
            col: cell.col,
            value: cell.value.as_ref().map(CellValue::as_value_ref),
            format: cell.format,
        })
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
        self.room(cost_of_ref(cell.value))?;
        match &mut self.store {
            Store::Keep(cells) => cells.push_view(&cell).map_err(out_of_memory),
            Store::Send(out) => out.cell(&cell).map_err(sent),
        }
    }

    /// Keep a number without formatting: the hot path of a board.
    pub(crate) fn push_number(
        &mut self,
        row: u32,
        col: u32,
        value: f64,
        format: CellFormat,
    ) -> Result<(), ReadError> {
        self.room(cost_of(Some(&CellValue::Number(value))))?;
        match &mut self.store {
            Store::Keep(cells) => cells
                .push_number(row, col, value, format)
                .map_err(out_of_memory),
            Store::Send(out) => out
                .cell(&CellView {
                    row,
                    col,
                    value: Some(CellValueRef::Number(value)),
                    format,
                })
                .map_err(sent),
        }
    }

    /// Room for one more cell costing `bytes`.
    fn room(&mut self, bytes: u64) -> Result<(), ReadError> {
        if self.cells >= MAX_SHEET_CELLS {
            return Err(ReadError::TooLarge {
                detail: format!(
                    "the sheet holds more than {MAX_SHEET_CELLS} filled or formatted cells"
                ),
            });
        }
        self.kept += bytes;
        if self.kept > MAX_KEPT_BYTES {
            return Err(over(format!(
                "the sheet's {} cells kept so far come to more than {} MB in memory",
                self.cells,
                MAX_KEPT_BYTES / (1024 * 1024)
            )));
        }
        self.cells += 1;
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

/// Why a budget refused to go on: the words end a sentence "the sheet is ...".
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct OverBudget(pub(crate) String);

impl From<OverBudget> for io::Error {
    fn from(e: OverBudget) -> io::Error {
        io::Error::other(e.0)
    }
}

/// A reader over an XML part that refuses to deliver more than [`MAX_PART_BYTES`], or a run of
/// more than [`MAX_XML_RUN`] bytes without a `<` (a text or tag the XML reader would buffer
/// whole). What it refused is kept in [`Capped::over`] so the caller can tell it from damage.
pub(crate) struct Capped<R> {
    inner: R,
    total: u64,
    run: u64,
    max_total: u64,
    /// Set when a cap stopped the reading.
    pub(crate) over: Option<OverBudget>,
}

impl<R: Read> Capped<R> {
    pub(crate) fn new(inner: R) -> Capped<R> {
        Capped::with_limit(inner, MAX_PART_BYTES)
    }

    /// The reader inside, to be used again (an ods pass that starts over).
    pub(crate) fn into_inner(self) -> R {
        self.inner
    }

    pub(crate) fn with_limit(inner: R, max_total: u64) -> Capped<R> {
        Capped {
            inner,
            total: 0,
            run: 0,
            max_total,
            over: None,
        }
    }
}

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(over) = &self.over {
            return Err(over.clone().into());
        }
        let n = self.inner.read(buf)?;
        let got = &buf[..n];
        self.total += n as u64;
        self.run = match got.iter().rposition(|&b| b == b'<') {
            Some(at) => (n - at - 1) as u64,
            None => self.run + n as u64,
        };
        let over = if self.total > self.max_total {
            Some(format!(
                "more than {} MB of XML",
                self.max_total / (1024 * 1024)
            ))
        } else if self.run > MAX_XML_RUN {
            Some(format!(
                "a single text or tag of more than {} MB",
                MAX_XML_RUN / (1024 * 1024)
            ))
        } else {
            None
        };
        if let Some(why) = over {
            let over = OverBudget(why);
            self.over = Some(over.clone());
            return Err(over.into());
        }
        Ok(n)
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

    #[test]
    fn capped_reader_refuses_long_runs_and_totals() {
        let text = vec![b'x'; (MAX_XML_RUN + 10) as usize];
        let mut r = Capped::new(&text[..]);
        assert!(std::io::copy(&mut r, &mut std::io::sink()).is_err());
        assert!(r.over.is_some());
        let tags = b"<a/>".repeat(1000);
        let mut r = Capped::with_limit(&tags[..], 100);
        assert!(std::io::copy(&mut r, &mut std::io::sink()).is_err());
        let mut r = Capped::new(&tags[..]);
        assert_eq!(std::io::copy(&mut r, &mut std::io::sink()).unwrap(), 4000);
    }
}
