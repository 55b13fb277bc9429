//! File and rank labels around boards: lines of letters `a b c ...` (along a row, or down a
//! column for ranks written as letters), lines of numbers `1 2 3 ...`, `8 7 ... 1` or
//! `0 1 2 ...` (stored as numbers or as text), on any side: the labels people type and the
//! header row and index column pandas writes.
//!
//! The knight's structure decides: consecutive move numbers sit a knight's move apart, label
//! sequences a king's step apart along a line, so consecutive numbers in consecutive cells of
//! a line are never part of a tour. A line of 1..R (or 0..R-1) is a label when
//! - one of its sides has no number next to it (the side away from the board); or
//! - it frames a board with a line across it: files along the top (or bottom) and ranks
//!   down the side meeting at a corner, where a lone number (the attempt's number, a count)
//!   is no square either; so boards stacked on one sheet, each in its frame, read apart
//!   even with no blank row between them and moves 1..8 inside them too; or
//! - the numbers on one side of it, within its span and as deep as it is long, are a
//!   knight's path (three or more consecutive numbers a knight's move apart, more than those
//!   a king's step apart) with nothing just past the line's ends.
//!
//! Labels are taken out before boards are looked for, and then give a board its extent (see
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
    /// Rows where a column of rank labels starts again right under another (boards stacked
    /// with no blank row between): no board spans the boundary above such a row. Sorted.
    pub(crate) row_cuts: Vec<u32>,
    /// Columns where a row of file labels starts again right after another (boards side by
    /// side with no blank column between). Sorted.
    pub(crate) col_cuts: Vec<u32>,
}

impl Labels {
    /// Whether a label line starts again at row `row` (vertical) or column `col`.
    pub(crate) fn cuts_row(&self, row: u32) -> bool {
        self.row_cuts.binary_search(&row).is_ok()
    }

    /// Whether a row of file labels starts again at column `col`.
    pub(crate) fn cuts_col(&self, col: u32) -> bool {
        self.col_cuts.binary_search(&col).is_ok()
    }

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
    let mut lines = candidate_lines(sheet);
    let (keep, mut numeric_cells) = judge_numeric_lines(sheet, &lines);
    let mut kept = keep.iter();
    lines.retain(|_| kept.next().copied().unwrap_or(false));
    numeric_cells.sort_unstable();
    numeric_cells.dedup();
    let (row_cuts, col_cuts) = (cuts(&lines, true), cuts(&lines, false));
    Labels {
        row_cuts,
        col_cuts,
        lines,
        numeric_cells,
    }
}

/// Every line that may be labels: runs of numbers from 0 or 1, letters from `a`, and the
/// frame of a one-square board.
fn candidate_lines(sheet: &SheetCells) -> Vec<Line> {
    let mut lines = Vec::new();
    let int_at = |r: u32, c: u32| -> Option<(i64, bool)> {
        let cell = sheet.find(r, c)?;
        match classify(cell.value) {
            Kind::Int(v) => Some((v, matches!(cell.value, Some(CellValueRef::Text(_))))),
            _ => None,
        }
    };
    let cells = sheet.cells();
    for i in 0..cells.len() {
        // A whole number above 1 starts no line: most cells of a board.
        if cells.small_whole_number(i).is_some_and(|v| v > 1) {
            continue;
        }
        let Some(cell) = cells.get(i) else { continue };
        if let Kind::Int(first @ (0 | 1)) = classify(cell.value) {
            for vertical in [true, false] {
                if let Some(line) = number_line(cell.row, cell.col, first, vertical, &int_at) {
                    lines.push(line);
                }
            }
        }
        if let Some(CellValueRef::Text(t)) = cell.value {
            if t.trim().eq_ignore_ascii_case("a") {
                // Ranks as letters too (`A` to `H` down the left, letters on both axes).
                if let Some(line) = letter_line(sheet, cell.row, cell.col, true) {
                    lines.push(line);
                }
                match letter_line(sheet, cell.row, cell.col, false) {
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
    lines
}

/// Which lines are labels (one flag a line), and the cells of the numeric ones with the
/// corners where their frames meet. A numeric line is a label when one side is free of other
/// numbers, when it frames a board with a line across it (files along the top, ranks down the
/// side, meeting at a corner), or when the numbers beside it are a knight's path and it spans
/// them; a line of letters always is.
fn judge_numeric_lines(sheet: &SheetCells, lines: &[Line]) -> (Vec<bool>, Vec<(u32, u32)>) {
    let number = |r: u32, c: u32| {
        sheet
            .find(r, c)
            .is_some_and(|x| classify(x.value).is_numeric())
    };
    let framed: Vec<Option<(u32, u32)>> = lines
        .iter()
        .map(|l| lines.iter().find_map(|m| corner(l, m)))
        .collect();
    let mut numeric_cells = Vec::new();
    let mut keep = Vec::with_capacity(lines.len());
    for (l, frame) in lines.iter().zip(&framed) {
        if !l.numeric {
            keep.push(true);
            continue;
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
        let label = side_free(-1)
            || side_free(1)
            || frame.is_some()
            || knights_beside(sheet, l, -1)
            || knights_beside(sheet, l, 1);
        if label {
            numeric_cells.extend(own);
        }
        keep.push(label);
    }
    // The corner where a frame's two lines meet is no square, whatever number it holds (the
    // attempt's number, a count).
    for ((frame, &label), l) in framed.iter().zip(&keep).zip(lines) {
        if let (Some((r, c)), true) = (frame, label || !l.numeric) {
            if number(*r, *c) {
                numeric_cells.push((*r, *c));
            }
        }
    }
    (keep, numeric_cells)
}

/// Where a line of labels (`vertical`: ranks) starts again right after another: the
/// boundaries no board spans. Sorted.
fn cuts(lines: &[Line], vertical: bool) -> Vec<u32> {
    let mut out: Vec<u32> = lines
        .iter()
        .filter(|a| a.vertical == vertical)
        .filter(|a| {
            lines.iter().any(|b| {
                b.vertical == vertical
                    && b.fixed == a.fixed
                    && b.last.checked_add(1) == Some(a.first)
            })
        })
        .map(|a| a.first)
        .collect();
    out.sort_unstable();
    out.dedup();
    out
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

/// From a cell holding `a`: the run `a b c ...` to its right (or down, for ranks written as
/// letters).
fn letter_line(sheet: &SheetCells, row: u32, col: u32, vertical: bool) -> Option<Line> {
    let at = |k: u32| {
        if vertical {
            sheet.find(row.checked_add(k)?, col)
        } else {
            sheet.find(row, col.checked_add(k)?)
        }
    };
    let mut len = 1u32;
    while let Some(cell) = at(len) {
        match cell.value {
            Some(CellValueRef::Text(t)) if t.trim().eq_ignore_ascii_case(&file_letters(len)) => {
                len += 1;
            }
            _ => break,
        }
    }
    let (fixed, first) = if vertical { (col, row) } else { (row, col) };
    (len >= MIN_LETTERS).then_some(Line {
        vertical,
        fixed,
        first,
        last: first + len - 1,
        numeric: false,
    })
}

/// The corner where `a` and a line `b` across it meet, when they frame a board: `b` starts
/// or ends right beside the end of `a`, level with the cell just before or after `a`.
fn corner(a: &Line, b: &Line) -> Option<(u32, u32)> {
    if a.vertical == b.vertical {
        return None;
    }
    let outside = |x: u32, first: u32, last: u32| {
        x.checked_add(1) == Some(first) || last.checked_add(1) == Some(x)
    };
    // `a`'s fixed line is just outside `b`'s span and `b`'s just outside `a`'s.
    let at = if a.vertical {
        (b.fixed, a.fixed)
    } else {
        (a.fixed, b.fixed)
    };
    (outside(a.fixed, b.first, b.last) && outside(b.fixed, a.first, a.last)).then_some(at)
}

/// Whether the numbers beside `l` on one side (`delta` -1: above or left, 1: below or right),
/// within its span and as deep as it is long, are a knight's path that the line spans: three
/// or more consecutive numbers a knight's move apart, more than those a king's step apart,
/// and no number just past the line's ends. A line counting `1 2 3 ...` in adjacent cells is
/// then no part of them (stacked boards with only a top label line, no blank row between).
fn knights_beside(sheet: &SheetCells, l: &Line, delta: i64) -> bool {
    let len = i64::from(l.last - l.first + 1);
    // (along, across) from the line's first cell to a sheet cell.
    let cell = |along: i64, across: i64| -> Option<(u32, u32)> {
        let (a, b) = (
            i64::from(l.first) + along,
            i64::from(l.fixed) + across * delta,
        );
        let (r, c) = if l.vertical { (a, b) } else { (b, a) };
        Some((u32::try_from(r).ok()?, u32::try_from(c).ok()?))
    };
    let int = |at: Option<(u32, u32)>| match at.and_then(|(r, c)| sheet.find(r, c)) {
        Some(x) => match classify(x.value) {
            Kind::Int(v) => Some(v),
            _ => None,
        },
        None => None,
    };
    let mut seen: std::collections::HashMap<i64, Option<(i64, i64)>> = Default::default();
    for across in 1..=len {
        if int(cell(-1, across)).is_some() || int(cell(len, across)).is_some() {
            return false;
        }
        for along in 0..len {
            if let Some(v) = int(cell(along, across)) {
                seen.entry(v)
                    .and_modify(|p| *p = None)
                    .or_insert(Some((along, across)));
            }
        }
    }
    let (mut knights, mut kings) = (0u32, 0u32);
    for (v, p) in &seen {
        let (Some(a), Some(Some(b))) = (p, seen.get(&(v + 1))) else {
            continue;
        };
        let (d1, d2) = ((a.0 - b.0).abs(), (a.1 - b.1).abs());
        if (d1 == 1 && d2 == 2) || (d1 == 2 && d2 == 1) {
            knights += 1;
        } else if d1 <= 1 && d2 <= 1 {
            kings += 1;
        }
    }
    knights >= 3 && knights > 2 * kings
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
