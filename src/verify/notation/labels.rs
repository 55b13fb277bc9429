//! File and rank labels around boards: rows of letters `a b c ...`, lines of numbers
//! `1 2 3 ...`, `8 7 ... 1` or `0 1 2 ...` (stored as numbers or as text), on any side: the
//! labels people type and the header row and index column pandas writes.
//!
//! A knight never moves to the next cell of a row or column, so consecutive numbers in
//! consecutive cells of a line are never part of a tour: a line of 1..R (or 0..R-1) is a label
//! when one of its sides has no number next to it (the side away from the board). Labels are
//! taken out before boards are looked for, and then give a board its extent (see
//! [`super::grid`]).

use std::collections::HashSet;

use crate::board::file_letters;
use crate::workbook::cellref::{CellRange, CellRef};
use crate::workbook::read::{CellValueRef, SheetCells};

use super::super::value::{classify, Kind};

/// A label line: `fixed` is its row (horizontal) or column (vertical); it covers positions
/// `first..=last` along it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Line {
    /// Along a row (file labels) or down a column (rank labels).
    pub(crate) vertical: bool,
    /// Its row (horizontal) or column (vertical).
    pub(crate) fixed: u32,
    /// First position along it.
    pub(crate) first: u32,
    /// Last position along it.
    pub(crate) last: u32,
    /// Made of numbers (which the board detection must not see).
    pub(crate) numeric: bool,
}

impl Line {
    fn cells(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        (self.first..=self.last).map(move |p| {
            if self.vertical {
                (p, self.fixed)
            } else {
                (self.fixed, p)
            }
        })
    }

    /// Whether the line spans `a..=b` along its direction.
    pub(crate) fn covers(&self, a: u32, b: u32) -> bool {
        self.first <= a && self.last >= b
    }
}

/// The labels of a sheet and the numeric cells they hold.
#[derive(Debug, Default)]
pub(crate) struct Labels {
    /// Every label line.
    pub(crate) lines: Vec<Line>,
    /// The cells of the numeric lines, `(row, col)`, in row-major order (as a sheet's cells
    /// are, so a pass over the sheet can walk them alongside), each once.
    pub(crate) numeric_cells: Vec<(u32, u32)>,
}

impl Labels {
    /// Whether the cell at `(row, col)` belongs to a numeric label line.
    pub(crate) fn is_numeric_label(&self, row: u32, col: u32) -> bool {
        self.numeric_cells.binary_search(&(row, col)).is_ok()
    }
}

/// The extent labels give a block of numbers, and which labels gave it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Extent {
    /// The board's rectangle.
    pub(crate) rect: CellRange,
    /// File labels (a row) gave its columns.
    pub(crate) files: bool,
    /// Rank labels (a column) gave its rows.
    pub(crate) ranks: bool,
    /// The file labels are letters `a b c ...`, as on a chessboard.
    pub(crate) letters: bool,
}

/// Shortest line of numbers taken as labels; lines of numbers stored as text may be shorter.
const MIN_NUMERIC: u32 = 3;
const MIN_TEXT: u32 = 2;
/// Shortest row of file letters.
const MIN_LETTERS: u32 = 3;

/// Find the label lines of a sheet.
pub(crate) fn find_labels(sheet: &SheetCells) -> Labels {
    let mut lines = Vec::new();
    let int_at = |r: u32, c: u32| -> Option<(i64, bool)> {
        let cell = sheet.find(r, c)?;
        match classify(cell.value) {
            Kind::Int(v) => Some((v, matches!(cell.value, Some(CellValueRef::Text(_))))),
            _ => None,
        }
    };
    for cell in sheet.cells() {
        if let Kind::Int(first @ (0 | 1)) = classify(cell.value) {
            for vertical in [true, false] {
                if let Some(line) = number_line(cell.row, cell.col, first, vertical, &int_at) {
                    lines.push(line);
                }
            }
        }
        if let Some(CellValueRef::Text(t)) = cell.value {
            if t.trim().eq_ignore_ascii_case("a") {
                match letter_line(sheet, cell.row, cell.col) {
                    Some(line) => lines.push(line),
                    None => lines.extend(
                        one_square_frame(sheet, cell.row, cell.col)
                            .into_iter()
                            .flatten(),
                    ),
                }
            }
        }
    }
    // A numeric line is a label only when one side is free of other numbers.
    let number = |r: u32, c: u32| {
        sheet
            .find(r, c)
            .is_some_and(|x| classify(x.value).is_numeric())
    };
    let mut numeric_cells = Vec::new();
    lines.retain(|l| {
        if !l.numeric {
            return true;
        }
        let own: HashSet<(u32, u32)> = l.cells().collect();
        let side_free = |delta: i64| {
            l.cells().all(|(r, c)| {
                let (r, c) = if l.vertical {
                    (i64::from(r), i64::from(c) + delta)
                } else {
                    (i64::from(r) + delta, i64::from(c))
                };
                r < 0 || c < 0 || own.contains(&(r as u32, c as u32)) || !number(r as u32, c as u32)
            })
        };
        let keep = side_free(-1) || side_free(1);
        if keep {
            numeric_cells.extend(own);
        }
        keep
    });
    numeric_cells.sort_unstable();
    numeric_cells.dedup();
    Labels {
        lines,
        numeric_cells,
    }
}

/// From a cell holding `first` (0 or 1): the longest run `first`, `first + 1`, ... in
/// consecutive cells going forward or backward along the row (or column).
fn number_line(
    row: u32,
    col: u32,
    first: i64,
    vertical: bool,
    int_at: &impl Fn(u32, u32) -> Option<(i64, bool)>,
) -> Option<Line> {
    let (fixed, start) = if vertical { (col, row) } else { (row, col) };
    let at = |p: u32| {
        if vertical {
            int_at(p, fixed)
        } else {
            int_at(fixed, p)
        }
    };
    let mut best: Option<Line> = None;
    for forward in [true, false] {
        let (mut len, mut all_text) = (1u32, at(start).is_some_and(|x| x.1));
        loop {
            let p = if forward {
                start.checked_add(len)
            } else {
                start.checked_sub(len)
            };
            match p.and_then(at) {
                Some((v, text)) if v == i64::from(len) + first => {
                    len += 1;
                    all_text &= text;
                }
                _ => break,
            }
        }
        let min = if all_text { MIN_TEXT } else { MIN_NUMERIC };
        if len >= min && best.is_none_or(|b| b.last - b.first + 1 < len) {
            let (first, last) = if forward {
                (start, start + len - 1)
            } else {
                (start + 1 - len, start)
            };
            best = Some(Line {
                vertical,
                fixed,
                first,
                last,
                numeric: true,
            });
        }
    }
    best
}

/// From a cell holding `a`: the run `a b c ...` to its right.
fn letter_line(sheet: &SheetCells, row: u32, col: u32) -> Option<Line> {
    let mut len = 1u32;
    while let Some(cell) = sheet.find(row, col + len) {
        match cell.value {
            Some(CellValueRef::Text(t)) if t.trim().eq_ignore_ascii_case(&file_letters(len)) => {
                len += 1;
            }
            _ => break,
        }
    }
    (len >= MIN_LETTERS).then_some(Line {
        vertical: false,
        fixed: row,
        first: col,
        last: col + len - 1,
        numeric: false,
    })
}

/// The labels of a board of one square, as `generate --size 1` writes it: the file letter `a`
/// right above or below a lone `1`, and the rank `1` (text or number) right left of it.
///
/// ```text
///     a          1  1
///  1  1             a
/// ```
///
/// Too short for label lines (a lone `1` at the edge of any grid would be one), so only this
/// exact frame counts, around a `1` with no other number beside it: its file and rank lines,
/// one cell each.
fn one_square_frame(sheet: &SheetCells, row: u32, col: u32) -> Option<[Line; 2]> {
    let int = |r: Option<u32>, c: Option<u32>| {
        let (r, c) = (r?, c?);
        match classify(sheet.find(r, c)?.value) {
            Kind::Int(v) => Some(v),
            _ => None,
        }
    };
    let numeric = |r: Option<u32>, c: Option<u32>| {
        r.zip(c)
            .and_then(|(r, c)| sheet.find(r, c))
            .is_some_and(|x| classify(x.value).is_numeric())
    };
    let next = |x: u32| x.checked_add(1);
    let prev = |x: u32| x.checked_sub(1);
    let mv = [prev(row), next(row)]
        .into_iter()
        .flatten()
        .find(|&r| int(Some(r), Some(col)) == Some(1))?;
    let rank_col = prev(col)?;
    let other = if mv < row { prev(mv) } else { next(mv) };
    let alone = int(Some(mv), Some(rank_col)) == Some(1)
        && !numeric(Some(mv), prev(rank_col))
        && !numeric(Some(mv), next(col))
        && !numeric(other, Some(col))
        && [prev(col), next(col)]
            .into_iter()
            .all(|c| !numeric(other, c) && !numeric(Some(row), c));
    alone.then_some([
        Line {
            vertical: false,
            fixed: row,
            first: col,
            last: col,
            numeric: false,
        },
        Line {
            vertical: true,
            fixed: rank_col,
            first: mv,
            last: mv,
            numeric: true,
        },
    ])
}

/// The extent labels give a block of numbers `(top, left, bottom, right)`: file labels
/// (a row of letters or numbers above or below) give its columns, rank labels (a column of
/// numbers left or right) its rows. A pair is used when it fits together (the rank column
/// beside the files, the file row beside the ranks); a single line only when it sits next to
/// the numbers. `None` when no label belongs to the block.
pub(crate) fn extent(labels: &Labels, block: (u32, u32, u32, u32)) -> Option<Extent> {
    let (top, left, bottom, right) = block;
    let files: Vec<&Line> = labels
        .lines
        .iter()
        .filter(|l| !l.vertical && l.covers(left, right) && (l.fixed < top || l.fixed > bottom))
        .collect();
    let ranks: Vec<&Line> = labels
        .lines
        .iter()
        .filter(|l| l.vertical && l.covers(top, bottom) && (l.fixed < left || l.fixed > right))
        .collect();
    let beside = |x: u32, a: u32, b: u32| x + 1 == a || x == b + 1;
    let rect =
        |t: u32, l: u32, b: u32, r: u32| CellRange::new(CellRef::new(t, l), CellRef::new(b, r));
    // The nearest consistent pair.
    let mut best: Option<(u32, Extent)> = None;
    for f in &files {
        for r in &ranks {
            if beside(r.fixed, f.first, f.last) && beside(f.fixed, r.first, r.last) {
                let d = f.fixed.abs_diff(top.min(bottom)) + r.fixed.abs_diff(left);
                if best.is_none_or(|b| d < b.0) {
                    let e = Extent {
                        rect: rect(r.first, f.first, r.last, f.last),
                        files: true,
                        ranks: true,
                        letters: !f.numeric,
                    };
                    best = Some((d, e));
                }
            }
        }
    }
    if let Some((_, e)) = best {
        return Some(e);
    }
    if let Some(f) = files.iter().find(|f| beside(f.fixed, top, bottom)) {
        return Some(Extent {
            rect: rect(top, f.first, bottom, f.last),
            files: true,
            ranks: false,
            letters: !f.numeric,
        });
    }
    if let Some(r) = ranks.iter().find(|r| beside(r.fixed, left, right)) {
        return Some(Extent {
            rect: rect(r.first, left, r.last, right),
            files: false,
            ranks: true,
            letters: false,
        });
    }
    None
}
