//! A dense view of a rectangle of a sparse sheet: the cells of a candidate board by position,
//! read by the grid notation, the grid check and the text drawing.

use crate::workbook::cellref::{CellRange, CellRef};
use crate::workbook::read::{CellView, SheetCells};

use super::value::{classify, Kind};

/// The most squares a board may have: a dense index of this many cells costs 64 MiB.
pub const MAX_BOARD_SQUARES: u64 = 1 << 24;

/// The cells of `range` by block-relative position (row-major), as indices into the sheet.
pub(crate) struct BlockGrid<'a> {
    sheet: &'a SheetCells,
    pub(crate) range: CellRange,
    idx: Vec<u32>,
    /// Move numbers read in place of the cells' own (0 blank): insertion labels renumbered.
    numbers: Option<Vec<i64>>,
}

const NONE: u32 = u32::MAX;

impl<'a> BlockGrid<'a> {
    /// Index the cells of `range`; the caller keeps the area below [`MAX_BOARD_SQUARES`].
    pub(crate) fn new(sheet: &'a SheetCells, range: CellRange) -> BlockGrid<'a> {
        let (rows, cols) = (range.rows() as usize, range.cols() as usize);
        let mut idx = vec![NONE; rows * cols];
        let first = sheet.first_in_row(range.first.row);
        for (i, (row, col)) in sheet.cells().positions().enumerate().skip(first) {
            if row > range.last.row {
                break;
            }
            if range.contains(CellRef::new(row, col)) {
                let r = (row - range.first.row) as usize;
                let k = (col - range.first.col) as usize;
                idx[r * cols + k] = i as u32;
            }
        }
        BlockGrid {
            sheet,
            range,
            idx,
            numbers: None,
        }
    }

    /// Read the block with `numbers` (by block-relative index, 0 blank) in place of its cells'
    /// values, such as insertion labels renumbered; `None` reads the cells again.
    pub(crate) fn set_numbers(&mut self, numbers: Option<Vec<i64>>) {
        self.numbers = numbers;
    }

    /// The cell at block-relative `(r, c)`, if the sheet has one there.
    pub(crate) fn cell(&self, r: u32, c: u32) -> Option<CellView<'a>> {
        let i = self.idx[(r * self.range.cols() + c) as usize];
        if i == NONE {
            return None;
        }
        self.sheet.cells().get(i as usize)
    }

    /// The kind of the value at block-relative `(r, c)`.
    pub(crate) fn kind(&self, r: u32, c: u32) -> Kind {
        let at = (r * self.range.cols() + c) as usize;
        if let Some(numbers) = &self.numbers {
            return match numbers[at] {
                0 => Kind::Blank,
                v => Kind::Int(v),
            };
        }
        let i = self.idx[at];
        if i == NONE {
            return Kind::Blank;
        }
        let cells = self.sheet.cells();
        match cells.small_whole_number(i as usize) {
            Some(v) => Kind::Int(i64::from(v)),
            None => classify(cells.get(i as usize).and_then(|c| c.value)),
        }
    }

    /// The whole numbers of the block with their block-relative linear index, in reading
    /// order. (Read from the grid each time rather than collected: a million of them cost
    /// 16 MB.)
    pub(crate) fn ints(&self) -> impl Iterator<Item = (i64, u32)> + '_ {
        let (rows, cols) = (self.range.rows(), self.range.cols());
        (0..rows).flat_map(move |r| {
            (0..cols).filter_map(move |c| match self.kind(r, c) {
                Kind::Int(v) => Some((v, r * cols + c)),
                _ => None,
            })
        })
    }
}
