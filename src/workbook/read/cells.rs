//! A sheet's cells, stored compactly: 16 bytes a cell, whatever the reader.
//!
//! A 1000x1000 board is a million cells; kept as an owned value and format each (48 bytes) it
//! cost more than the whole verification of it. Here each cell is a position and two 32-bit
//! handles: whole numbers from 0 to 2^31 - 1 (every move number) are stored in the handle
//! itself, anything else (fractions, text, booleans, errors) in a side list of 16 bytes a value
//! with all text in one buffer (a text cell costs its length and 32 bytes, not an allocation
//! of its own), and formats in a small table of the distinct formats seen. Readers see cells as
//! [`CellView`]s, copies that borrow their text from the store.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::{CellFormat, CellValue};
use crate::workbook::cellref::CellRange;

/// A cell's value borrowed from its sheet (see [`CellValue`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum CellValueRef<'a> {
    /// A number.
    Number(f64),
    /// Text, as typed.
    Text(&'a str),
    /// TRUE or FALSE.
    Bool(bool),
    /// An error value such as `#REF!`.
    Error(&'a str),
}

impl CellValue {
    /// The value as a [`CellValueRef`].
    pub fn as_value_ref(&self) -> CellValueRef<'_> {
        match self {
            CellValue::Number(f) => CellValueRef::Number(*f),
            CellValue::Text(t) => CellValueRef::Text(t),
            CellValue::Bool(b) => CellValueRef::Bool(*b),
            CellValue::Error(e) => CellValueRef::Error(e),
        }
    }
}

/// One cell of a [`SheetCells`], as read from it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CellView<'a> {
    /// Row from 0.
    pub row: u32,
    /// Column from 0.
    pub col: u32,
    /// The value, `None` for a blank cell that is only formatted.
    #[serde(borrow)]
    pub value: Option<CellValueRef<'a>>,
    /// Its formatting (default when unknown).
    pub format: CellFormat,
}

/// A stored cell: position, value handle, format index.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Slot {
    row: u32,
    col: u32,
    value: u32,
    format: u32,
}

/// Value handle: 0 is no value; with this bit set, the whole number in the other 31 bits;
/// otherwise `others[handle - 1]`.
const INLINE: u32 = 1 << 31;

/// A value that is not a small whole number; text lives in the sheet's text buffer.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Other {
    Number(f64),
    Text { start: u32, len: u32 },
    Bool(bool),
    Error { start: u32, len: u32 },
}

/// The bytes a cell costs in the store: its slot, and its value when not a small whole number.
pub(crate) fn cost_of(value: Option<CellValueRef<'_>>) -> u64 {
    let slot = std::mem::size_of::<Slot>() as u64;
    let other = std::mem::size_of::<Other>() as u64;
    match value {
        None => slot,
        Some(CellValueRef::Number(f)) if inline(f).is_some() => slot,
        Some(CellValueRef::Text(t) | CellValueRef::Error(t)) => slot + other + t.len() as u64,
        Some(_) => slot + other,
    }
}

/// The bytes a whole number from 0 to [`MAX_SMALL_NUMBER`] costs in the store.
pub(crate) const SMALL_NUMBER_COST: u64 = std::mem::size_of::<Slot>() as u64;

/// The largest whole number stored in place.
pub(crate) const MAX_SMALL_NUMBER: u32 = INLINE - 1;

/// The handle of a whole number stored in place.
#[inline]
pub(crate) fn inline(f: f64) -> Option<u32> {
    // `as` keeps a whole number in range exactly and saturates anything else (NaN to 0), so
    // only a whole number comes back unchanged (`fract` is a call); -0.0 is not stored in
    // place, so it reads back as written.
    let v = f as u32;
    (v < INLINE && f64::from(v) == f && f.is_sign_positive()).then_some(INLINE | v)
}

/// A worksheet as a sparse list of cells in row-major order, one entry per position.
///
/// ```
/// use knights_tour::workbook::read::{CellValue, CellValueRef, SheetCells};
/// let cells = SheetCells::from_values([(1, 0, CellValue::Number(2.0)), (0, 0, CellValue::Number(1.0))]);
/// assert_eq!(cells.cells().get(0).unwrap().row, 0);
/// assert_eq!(cells.find(1, 0).unwrap().value, Some(CellValueRef::Number(2.0)));
/// assert!(!cells.formats_known());
///
/// // A board's fast path: positions, whole numbers and formats by index, without a view.
/// let all = cells.cells();
/// assert_eq!(all.position(1), Some((1, 0)));
/// assert_eq!(all.small_whole_number(1), Some(2));
/// assert_eq!(all.format(1), Some(Default::default()));
/// use knights_tour::workbook::cellref::{CellRange, CellRef};
/// let column_a = CellRange::new(CellRef { row: 0, col: 0 }, CellRef { row: 1, col: 0 });
/// let mut seen = Vec::new();
/// cells.for_each_in(column_a, |i, row, col| seen.push((i, row, col)));
/// assert_eq!(seen, [(0, 0, 0), (1, 1, 0)]);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SheetCells {
    slots: Vec<Slot>,
    others: Vec<Other>,
    text: String,
    /// The distinct formats; index 0 is the default.
    formats: Vec<CellFormat>,
    formats_known: bool,
}

/// The cells of a sheet in row-major order (see [`SheetCells::cells`]).
#[derive(Clone, Copy)]
pub struct Cells<'a> {
    sheet: &'a SheetCells,
}

impl<'a> Cells<'a> {
    /// How many cells.
    pub fn len(&self) -> usize {
        self.sheet.slots.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.sheet.slots.is_empty()
    }

    /// The `i`-th cell in row-major order.
    pub fn get(&self, i: usize) -> Option<CellView<'a>> {
        self.sheet.slots.get(i).map(|s| self.sheet.view(s))
    }

    /// The `i`-th cell's value when it is a whole number from 0 to 2^31 - 1, without looking
    /// at anything else (the fast path through a board's move numbers).
    pub fn small_whole_number(&self, i: usize) -> Option<u32> {
        let v = self.sheet.slots.get(i)?.value;
        (v & INLINE != 0).then_some(v & !INLINE)
    }

    /// The `i`-th cell's position `(row, col)`.
    pub fn position(&self, i: usize) -> Option<(u32, u32)> {
        self.sheet.slots.get(i).map(|s| (s.row, s.col))
    }

    /// The `i`-th cell's format, without reading its value.
    pub fn format(&self, i: usize) -> Option<CellFormat> {
        let slot = self.sheet.slots.get(i)?;
        Some(
            self.sheet
                .formats
                .get(slot.format as usize)
                .copied()
                .unwrap_or_default(),
        )
    }

    /// The cells' positions `(row, col)` in row-major order.
    pub fn positions(
        &self,
    ) -> impl DoubleEndedIterator<Item = (u32, u32)> + ExactSizeIterator + 'a {
        self.sheet.slots.iter().map(|s| (s.row, s.col))
    }

    /// The cells in row-major order.
    pub fn iter(&self) -> CellIter<'a> {
        CellIter {
            sheet: self.sheet,
            slots: self.sheet.slots.iter(),
        }
    }
}

impl<'a> IntoIterator for Cells<'a> {
    type Item = CellView<'a>;
    type IntoIter = CellIter<'a>;

    fn into_iter(self) -> CellIter<'a> {
        self.iter()
    }
}

/// An iterator over a sheet's cells in row-major order.
pub struct CellIter<'a> {
    sheet: &'a SheetCells,
    slots: std::slice::Iter<'a, Slot>,
}

impl<'a> Iterator for CellIter<'a> {
    type Item = CellView<'a>;

    fn next(&mut self) -> Option<CellView<'a>> {
        self.slots.next().map(|s| self.sheet.view(s))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.slots.size_hint()
    }
}

impl DoubleEndedIterator for CellIter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.slots.next_back().map(|s| self.sheet.view(s))
    }
}

impl ExactSizeIterator for CellIter<'_> {}

impl SheetCells {
    /// Cells from `(row, col, value)` triples without formatting, in any order; a later cell
    /// at the same position replaces an earlier one.
    pub fn from_values(values: impl IntoIterator<Item = (u32, u32, CellValue)>) -> SheetCells {
        let mut builder = CellsBuilder::default();
        for (row, col, value) in values {
            let cell = CellView {
                row,
                col,
                value: Some(value.as_value_ref()),
                format: CellFormat::default(),
            };
            // The caller holds these values already: running out of memory here ends the
            // process as a Vec's push would.
            if builder.push_view(&cell).is_err() {
                std::process::abort();
            }
        }
        builder.finish(false)
    }

    /// The cells in row-major order.
    pub fn cells(&self) -> Cells<'_> {
        Cells { sheet: self }
    }

    /// The cell at `(row, col)`, if the sheet has one there.
    pub fn find(&self, row: u32, col: u32) -> Option<CellView<'_>> {
        self.slots
            .binary_search_by_key(&(row, col), |s| (s.row, s.col))
            .ok()
            .map(|i| self.view(&self.slots[i]))
    }

    /// Calls `f(i, row, col)` for the `i`-th cell at each position of `range`, in row-major
    /// order (one pass over the rows it spans: how a board's cells are indexed).
    pub fn for_each_in(&self, range: CellRange, mut f: impl FnMut(usize, u32, u32)) {
        let (first, last) = (range.first, range.last);
        let start = self.first_in_row(first.row);
        for (k, s) in self.slots[start..].iter().enumerate() {
            if s.row > last.row {
                break;
            }
            if s.col >= first.col && s.col <= last.col {
                f(start + k, s.row, s.col);
            }
        }
    }

    /// The index of the first cell at or below `row`.
    pub fn first_in_row(&self, row: u32) -> usize {
        self.slots.partition_point(|s| s.row < row)
    }

    /// Whether [`CellFormat`]s were read; when not, every format is the default.
    pub fn formats_known(&self) -> bool {
        self.formats_known
    }

    fn text_at(&self, start: u32, len: u32) -> &str {
        let start = start as usize;
        self.text
            .get(start..start + len as usize)
            .unwrap_or_default()
    }

    fn view(&self, s: &Slot) -> CellView<'_> {
        let value = match s.value {
            0 => None,
            v if v & INLINE != 0 => Some(CellValueRef::Number(f64::from(v & !INLINE))),
            v => self.others.get(v as usize - 1).map(|o| match *o {
                Other::Number(f) => CellValueRef::Number(f),
                Other::Bool(b) => CellValueRef::Bool(b),
                Other::Text { start, len } => CellValueRef::Text(self.text_at(start, len)),
                Other::Error { start, len } => CellValueRef::Error(self.text_at(start, len)),
            }),
        };
        CellView {
            row: s.row,
            col: s.col,
            value,
            format: self
                .formats
                .get(s.format as usize)
                .copied()
                .unwrap_or_default(),
        }
    }
}

/// Collects a sheet's cells as they are read, in the compact form.
#[derive(Default)]
pub(crate) struct CellsBuilder {
    slots: Vec<Slot>,
    others: Vec<Other>,
    text: String,
    formats: Vec<CellFormat>,
    format_ids: HashMap<CellFormat, u32>,
    /// The last format looked up and its index (most cells share their neighbour's).
    last_format: Option<(CellFormat, u32)>,
}

impl CellsBuilder {
    /// Keep a cell whose value is borrowed (its text copied into the sheet's buffer).
    pub(crate) fn push_view(
        &mut self,
        cell: &CellView<'_>,
    ) -> Result<(), std::collections::TryReserveError> {
        let small = match cell.value {
            Some(CellValueRef::Number(f)) => inline(f),
            _ => None,
        };
        let value = match (small, cell.value) {
            (Some(handle), _) => handle,
            (None, None) => 0,
            (None, Some(value)) => {
                let other = match value {
                    CellValueRef::Number(f) => Other::Number(f),
                    CellValueRef::Bool(b) => Other::Bool(b),
                    CellValueRef::Text(t) => {
                        let (start, len) = self.keep_text(t)?;
                        Other::Text { start, len }
                    }
                    CellValueRef::Error(t) => {
                        let (start, len) = self.keep_text(t)?;
                        Other::Error { start, len }
                    }
                };
                self.others.try_reserve(1)?;
                self.others.push(other);
                self.others.len() as u32
            }
        };
        self.push_slot(cell.row, cell.col, value, cell.format)
    }

    /// Keep a cell whose value handle is known (a whole number's, [`inline`]).
    #[inline]
    pub(crate) fn push_slot(
        &mut self,
        row: u32,
        col: u32,
        value: u32,
        format: CellFormat,
    ) -> Result<(), std::collections::TryReserveError> {
        let format = self.format_id(format)?;
        self.slots.try_reserve(1)?;
        self.slots.push(Slot {
            row,
            col,
            value,
            format,
        });
        Ok(())
    }

    /// Whole numbers from 0 to [`MAX_SMALL_NUMBER`] along row `row` from column `col`, all
    /// with one format (a row of a board), kept in one step. The caller has checked that the
    /// columns do not pass `u32::MAX`.
    pub(crate) fn push_run(
        &mut self,
        row: u32,
        col: u32,
        values: &[u32],
        format: CellFormat,
    ) -> Result<(), std::collections::TryReserveError> {
        let format = self.format_id(format)?;
        self.slots.try_reserve(values.len())?;
        self.slots
            .extend(values.iter().enumerate().map(|(i, &v)| Slot {
                row,
                col: col.wrapping_add(i as u32),
                value: INLINE | (v & MAX_SMALL_NUMBER),
                format,
            }));
        Ok(())
    }

    /// Append text to the sheet's text buffer: its start and length there.
    fn keep_text(&mut self, t: &str) -> Result<(u32, u32), std::collections::TryReserveError> {
        let start = self.text.len();
        let fits = u32::try_from(start + t.len()).is_ok();
        if !fits {
            // Past 4 GB of text the offsets would not fit: as good as out of memory.
            return Err(Vec::<u8>::new().try_reserve(usize::MAX).unwrap_err());
        }
        self.text.try_reserve(t.len())?;
        self.text.push_str(t);
        Ok((start as u32, t.len() as u32))
    }

    /// The index of `format` in the table: most cells share their neighbour's.
    #[inline]
    fn format_id(&mut self, format: CellFormat) -> Result<u32, std::collections::TryReserveError> {
        match self.last_format {
            Some((f, id)) if f == format => Ok(id),
            _ => self.new_format_id(format),
        }
    }

    fn new_format_id(
        &mut self,
        format: CellFormat,
    ) -> Result<u32, std::collections::TryReserveError> {
        if self.formats.is_empty() && format != CellFormat::default() {
            self.formats.push(CellFormat::default());
        }
        let id = match self.format_ids.get(&format) {
            _ if format == CellFormat::default() => 0,
            Some(&id) => id,
            None => {
                self.formats.try_reserve(1)?;
                self.formats.push(format);
                let id = (self.formats.len() - 1) as u32;
                self.format_ids.insert(format, id);
                id
            }
        };
        self.last_format = Some((format, id));
        Ok(id)
    }

    /// The cells in row-major order, a later cell at a position replacing an earlier one.
    pub(crate) fn finish(self, formats_known: bool) -> SheetCells {
        let mut slots = self.slots;
        let sorted = slots
            .windows(2)
            .all(|w| (w[0].row, w[0].col) < (w[1].row, w[1].col));
        if !sorted {
            // Stable sort keeps input order among equal positions: keep the last one.
            slots.sort_by_key(|s| (s.row, s.col));
            let mut kept = 0usize;
            for i in 0..slots.len() {
                if kept > 0
                    && (slots[kept - 1].row, slots[kept - 1].col) == (slots[i].row, slots[i].col)
                {
                    slots[kept - 1] = slots[i];
                } else {
                    slots[kept] = slots[i];
                    kept += 1;
                }
            }
            slots.truncate(kept);
        }
        slots.shrink_to_fit();
        SheetCells {
            slots,
            others: self.others,
            text: self.text,
            formats: self.formats,
            formats_known,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip_through_the_compact_form() {
        let values = [
            CellValue::Number(0.0),
            CellValue::Number(17.0),
            CellValue::Number(2147483647.0),
            CellValue::Number(2147483648.0),
            CellValue::Number(-0.0),
            CellValue::Number(-3.0),
            CellValue::Number(12.5),
            CellValue::Number(f64::NAN),
            CellValue::Text("x".into()),
            CellValue::Bool(true),
            CellValue::Error("#REF!".into()),
        ];
        let cells = SheetCells::from_values(
            values
                .iter()
                .enumerate()
                .map(|(i, v)| (0, i as u32, v.clone())),
        );
        for (i, v) in values.iter().enumerate() {
            let got = cells.find(0, i as u32).unwrap().value.unwrap();
            match (got, v) {
                (CellValueRef::Number(a), CellValue::Number(b)) => {
                    assert_eq!(a.to_bits(), b.to_bits(), "{b}")
                }
                (got, v) => assert_eq!(got, v.as_value_ref()),
            }
        }
    }

    #[test]
    fn formats_are_kept_per_cell_and_runs_place_whole_numbers_along_a_row() {
        let red = CellFormat {
            bordered: true,
            fill: Some(0xFF0000),
        };
        let mut b = CellsBuilder::default();
        b.push_view(&CellView {
            row: 0,
            col: 0,
            value: None,
            format: red,
        })
        .unwrap();
        b.push_run(0, 1, &[7, 0, MAX_SMALL_NUMBER], CellFormat::default())
            .unwrap();
        let cells = b.finish(true);
        assert_eq!(cells.find(0, 0).unwrap().format, red);
        assert_eq!(cells.find(0, 1).unwrap().format, CellFormat::default());
        let numbers: Vec<_> = (0..cells.cells().len())
            .map(|i| cells.cells().small_whole_number(i))
            .collect();
        assert_eq!(numbers, [None, Some(7), Some(0), Some(MAX_SMALL_NUMBER)]);
        assert_eq!(
            cells.find(0, 3).unwrap().value,
            Some(CellValueRef::Number(f64::from(MAX_SMALL_NUMBER)))
        );
    }
}
