//! A dense view of a rectangle of a sparse sheet: the cells of a candidate board by position,
//! read by the grid notation, the grid check and the text drawing.

use crate::workbook::cellref::CellRange;
use crate::workbook::read::{CellFormat, CellView, SheetCells};

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
        let first = range.first;
        let cols = range.cols() as usize;
        let mut idx = vec![NONE; range.rows() as usize * cols];
        sheet.for_each_in(range, |i, row, col| {
            idx[(row - first.row) as usize * cols + (col - first.col) as usize] = i as u32;
        });
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
        self.cell_at(r * self.range.cols() + c)
    }

    /// The cell at block-relative linear index `at` (`r * cols + c`), if the sheet has one.
    pub(crate) fn cell_at(&self, at: u32) -> Option<CellView<'a>> {
        match self.idx[at as usize] {
            NONE => None,
            i => self.sheet.cells().get(i as usize),
        }
    }

    /// The format of the cell at block-relative linear index `at`, if the sheet has a cell
    /// there (without reading its value).
    pub(crate) fn format_at(&self, at: u32) -> Option<CellFormat> {
        match self.idx[at as usize] {
            NONE => None,
            i => self.sheet.cells().format(i as usize),
        }
    }

    /// The kind of the value at block-relative `(r, c)`.
    pub(crate) fn kind(&self, r: u32, c: u32) -> Kind {
        self.kind_at(r * self.range.cols() + c)
    }

    /// The kind of the value at block-relative linear index `at` (`r * cols + c`): the
    /// passes over a board read every square through here, a move number in a few steps.
    #[inline]
    pub(crate) fn kind_at(&self, at: u32) -> Kind {
        if let Some(numbers) = &self.numbers {
            return match numbers[at as usize] {
                0 => Kind::Blank,
                v => Kind::Int(v),
            };
        }
        match self.idx[at as usize] {
            NONE => Kind::Blank,
            i => match self.sheet.cells().small_whole_number(i as usize) {
                Some(v) => Kind::Int(i64::from(v)),
                None => self.classify_cell(i),
            },
        }
    }

    /// The kind of a cell that is not a small whole number (kept out of [`Self::kind_at`]).
    #[inline(never)]
    fn classify_cell(&self, i: u32) -> Kind {
        classify(self.sheet.cells().get(i as usize).and_then(|c| c.value))
    }

    /// How many cells the block has (`rows * cols`).
    pub(crate) fn len(&self) -> u32 {
        self.idx.len() as u32
    }

    /// The whole numbers of the block with their block-relative linear index, in reading
    /// order. (Read from the grid each time rather than collected: a million of them cost
    /// 16 MB.)
    pub(crate) fn ints(&self) -> impl Iterator<Item = (i64, u32)> + '_ {
        (0..self.len()).filter_map(move |at| match self.kind_at(at) {
            Kind::Int(v) => Some((v, at)),
            _ => None,
        })
    }
}
