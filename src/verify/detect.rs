//! Finding the board on a worksheet.
//!
//! The rule, in order:
//! 1. **Components.** Non-blank cells are grouped into connected components. Two cells touch
//!    when they are neighbours (including diagonally); two *numeric* cells also touch up to two
//!    rows or columns apart, so a failed attempt whose numbers are sparse (every move is a
//!    knight's jump, at most two cells away) stays in one piece while a text note needs to sit
//!    right next to the board to join it.
//! 2. **The board's component** is the one with the most whole numbers; a tie goes to the
//!    first in reading order. Everything else on the sheet (titles, far-away notes, other
//!    tables) is ignored.
//! 3. **Labels are stripped.** The component's bounding box loses, repeatedly, any edge row or
//!    column with no number in it (file letters, titles, blank lines), and any edge row or
//!    column whose numbers are exactly 1..R or R..1 in consecutive cells where R matches the
//!    span of the numbers left on the board (rank labels).
//! 4. **Formatting** (xlsx only): when most of the board's cells have borders, blank rows or
//!    columns right next to it whose every cell is bordered are board squares too, so a
//!    failed attempt with an untouched edge keeps its full size. Without formatting, the board
//!    is the bounding box of its numbers.
//! 5. **Sanity:** a board needs at least two whole numbers, and whole numbers must make at
//!    least half of its non-blank cells, over at least two rows and two columns (a knight
//!    never moves within a single row or column); otherwise the sheet has no board.
//!
//! Text cells and blanks inside the final rectangle are part of the board (they become
//! `text-cell` and `blank-cell` problems).
//!
//! **Ragged or failed attempt?** (decided in [`super::check`]) A blank cell at the end of its
//! row *and* at the end of its column (a short last row, a missing corner) makes the board
//! `not-rectangular` only when *every* blank of the board is such an edge cell and the
//! formatting (xlsx borders) does not mark it as a square. A board with blanks inside as well
//! is a failed attempt whose edge blanks are squares. Without readable formatting (xls, ods,
//! xlsb), a failed attempt whose whole edge rows are blank is measured by the bounding box of
//! its numbers, so it can read as a smaller board.

use crate::workbook::cellref::{CellRange, CellRef};
use crate::workbook::read::{SheetCell, SheetCells};

use super::value::{classify, Kind};

/// The most squares a board may have: a dense index of this many cells costs 64 MiB.
pub const MAX_BOARD_SQUARES: u64 = 1 << 24;

/// What [`find_board`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Found {
    /// No board on the sheet.
    NoBoard,
    /// Numbers spread over an area too large to hold a board.
    TooLarge {
        /// Rows spanned.
        rows: u64,
        /// Columns spanned.
        cols: u64,
    },
    /// The board's rectangle.
    Board(CellRange),
}

/// A dense view of a rectangle of a sparse sheet: cell indices by position.
pub(crate) struct BlockGrid<'a> {
    sheet: &'a SheetCells,
    pub(crate) range: CellRange,
    idx: Vec<u32>,
}

const NONE: u32 = u32::MAX;

impl<'a> BlockGrid<'a> {
    /// Index the cells of `range`; the caller keeps the area below [`MAX_BOARD_SQUARES`].
    pub(crate) fn new(sheet: &'a SheetCells, range: CellRange) -> BlockGrid<'a> {
        let (rows, cols) = (range.rows() as usize, range.cols() as usize);
        let mut idx = vec![NONE; rows * cols];
        let cells = sheet.cells();
        let first = cells.partition_point(|c| c.row < range.first.row);
        for (i, c) in cells.iter().enumerate().skip(first) {
            if c.row > range.last.row {
                break;
            }
            if range.contains(CellRef::new(c.row, c.col)) {
                let r = (c.row - range.first.row) as usize;
                let k = (c.col - range.first.col) as usize;
                idx[r * cols + k] = i as u32;
            }
        }
        BlockGrid { sheet, range, idx }
    }

    /// The cell at block-relative `(r, c)`, if the sheet has one there.
    pub(crate) fn cell(&self, r: u32, c: u32) -> Option<&'a SheetCell> {
        let i = self.idx[(r * self.range.cols() + c) as usize];
        (i != NONE).then(|| &self.sheet.cells()[i as usize])
    }

    /// The kind of the value at block-relative `(r, c)`.
    pub(crate) fn kind(&self, r: u32, c: u32) -> Kind {
        classify(self.cell(r, c).and_then(|c| c.value.as_ref()))
    }
}

/// Find the board on a sheet (see the module docs for the rule).
#[cfg(test)]
pub(crate) fn find_board(sheet: &SheetCells) -> Found {
    find_board_keeping_grid(sheet).0
}

/// [`find_board`], also handing back the index built for the component's bounding box so the
/// caller need not build it again when the board is that box.
pub(crate) fn find_board_keeping_grid(sheet: &SheetCells) -> (Found, Option<BlockGrid<'_>>) {
    let Some(bbox) = main_component(sheet) else {
        return (Found::NoBoard, None);
    };
    let (rows, cols) = (u64::from(bbox.rows()), u64::from(bbox.cols()));
    if rows * cols > MAX_BOARD_SQUARES {
        return (Found::TooLarge { rows, cols }, None);
    }
    let grid = BlockGrid::new(sheet, bbox);
    let Some(inner) = strip_labels(&grid) else {
        return (Found::NoBoard, None);
    };
    // Extension only adds blank squares, so plausibility is judged on the numbers' block.
    if !plausible(&grid, inner) {
        return (Found::NoBoard, None);
    }
    let block = if sheet.formats_known() {
        extend_by_borders(sheet, &grid, inner)
    } else {
        inner
    };
    (Found::Board(block), Some(grid))
}

/// The bounding box of the component with the most whole numbers.
fn main_component(sheet: &SheetCells) -> Option<CellRange> {
    if let Some(rect) = dense_rectangle(sheet) {
        return Some(rect);
    }
    let pts: Vec<(u32, u32, Kind)> = sheet
        .cells()
        .iter()
        .filter_map(|c| {
            let k = classify(c.value.as_ref());
            (k != Kind::Blank).then_some((c.row, c.col, k))
        })
        .collect();
    if pts.is_empty() {
        return None;
    }
    let mut uf = UnionFind::new(pts.len());
    link_neighbours(&pts, &mut uf);
    let mut ints = vec![0u32; pts.len()];
    for (i, p) in pts.iter().enumerate() {
        if matches!(p.2, Kind::Int(_)) {
            ints[uf.find(i)] += 1;
        }
    }
    // Best root: most integers, first in reading order on ties.
    let mut best: Option<usize> = None;
    for i in 0..pts.len() {
        let r = uf.find(i);
        if ints[r] > 0 && best.is_none_or(|b| ints[r] > ints[b]) {
            best = Some(r);
        }
    }
    let best = best?;
    let (mut top, mut left, mut bottom, mut right) = (u32::MAX, u32::MAX, 0, 0);
    for (i, p) in pts.iter().enumerate() {
        if uf.find(i) == best {
            top = top.min(p.0);
            bottom = bottom.max(p.0);
            left = left.min(p.1);
            right = right.max(p.1);
        }
    }
    Some(CellRange::new(
        CellRef::new(top, left),
        CellRef::new(bottom, right),
    ))
}

/// Fast path for the common big case: when the non-blank cells fill their bounding box
/// exactly and hold a whole number, they are the only component.
fn dense_rectangle(sheet: &SheetCells) -> Option<CellRange> {
    let (mut top, mut left, mut bottom, mut right) = (u32::MAX, u32::MAX, 0u32, 0u32);
    let (mut count, mut ints) = (0u64, 0u64);
    for c in sheet.cells() {
        match classify(c.value.as_ref()) {
            Kind::Blank => continue,
            Kind::Int(_) => ints += 1,
            _ => {}
        }
        count += 1;
        top = top.min(c.row);
        bottom = bottom.max(c.row);
        left = left.min(c.col);
        right = right.max(c.col);
    }
    let dense =
        count > 0 && ints > 0 && u64::from(bottom - top + 1) * u64::from(right - left + 1) == count;
    dense.then(|| CellRange::new(CellRef::new(top, left), CellRef::new(bottom, right)))
}

/// Union cells that touch: Chebyshev distance 1, or 2 when both are numeric. `pts` is in
/// row-major order; each row is compared with the two rows above it by a moving window.
fn link_neighbours(pts: &[(u32, u32, Kind)], uf: &mut UnionFind) {
    // Row groups: (row, start, end) over pts.
    let mut groups: Vec<(u32, usize, usize)> = Vec::new();
    for (i, p) in pts.iter().enumerate() {
        match groups.last_mut() {
            Some(g) if g.0 == p.0 => g.2 = i + 1,
            _ => groups.push((p.0, i, i + 1)),
        }
    }
    let touch = |a: &(u32, u32, Kind), b: &(u32, u32, Kind)| {
        let d = a.0.abs_diff(b.0).max(a.1.abs_diff(b.1));
        d <= 1 || (d == 2 && a.2.is_numeric() && b.2.is_numeric())
    };
    for (g, &(row, start, end)) in groups.iter().enumerate() {
        // Same row: the previous two cells at most.
        for i in start..end {
            for j in i.saturating_sub(2).max(start)..i {
                if touch(&pts[i], &pts[j]) {
                    uf.union(i, j);
                }
            }
        }
        // The two rows above, when they are within two rows.
        for back in 1..=2usize {
            let Some(&(prow, pstart, pend)) = g.checked_sub(back).and_then(|h| groups.get(h))
            else {
                continue;
            };
            if row - prow > 2 {
                continue;
            }
            let mut lo = pstart;
            for i in start..end {
                let c = pts[i].1;
                while lo < pend && pts[lo].1 + 2 < c {
                    lo += 1;
                }
                let mut j = lo;
                while j < pend && pts[j].1 <= c + 2 {
                    if touch(&pts[i], &pts[j]) {
                        uf.union(i, j);
                    }
                    j += 1;
                }
            }
        }
    }
}

/// Block edges: `top, bottom, left, right`, block-relative and inclusive.
#[derive(Clone, Copy, Debug)]
struct Edges {
    top: u32,
    bottom: u32,
    left: u32,
    right: u32,
}

/// Strip label rows/columns and empty edges; `None` when nothing numeric is left.
fn strip_labels(grid: &BlockGrid<'_>) -> Option<CellRange> {
    let mut e = Edges {
        top: 0,
        bottom: grid.range.rows() - 1,
        left: 0,
        right: grid.range.cols() - 1,
    };
    loop {
        let before = (e.top, e.bottom, e.left, e.right);
        // Lines without any number.
        while e.top < e.bottom && !row_has_number(grid, e, e.top) {
            e.top += 1;
        }
        while e.bottom > e.top && !row_has_number(grid, e, e.bottom) {
            e.bottom -= 1;
        }
        while e.left < e.right && !col_has_number(grid, e, e.left) {
            e.left += 1;
        }
        while e.right > e.left && !col_has_number(grid, e, e.right) {
            e.right -= 1;
        }
        // Rank labels.
        if e.left < e.right && is_rank_col(grid, e, e.left) {
            e.left += 1;
        } else if e.right > e.left && is_rank_col(grid, e, e.right) {
            e.right -= 1;
        } else if e.top < e.bottom && is_rank_row(grid, e, e.top) {
            e.top += 1;
        } else if e.bottom > e.top && is_rank_row(grid, e, e.bottom) {
            e.bottom -= 1;
        }
        if before == (e.top, e.bottom, e.left, e.right) {
            break;
        }
    }
    let any = (e.top..=e.bottom).any(|r| row_has_number(grid, e, r));
    any.then(|| {
        let o = grid.range.first;
        CellRange::new(o.offset(e.top, e.left), o.offset(e.bottom, e.right))
    })
}

fn row_has_number(grid: &BlockGrid<'_>, e: Edges, r: u32) -> bool {
    (e.left..=e.right).any(|c| grid.kind(r, c).is_numeric())
}

fn col_has_number(grid: &BlockGrid<'_>, e: Edges, c: u32) -> bool {
    (e.top..=e.bottom).any(|r| grid.kind(r, c).is_numeric())
}

/// Whether column `c` holds rank labels: its numbers are 1..R or R..1 in consecutive rows and
/// the numbers in the other columns span exactly those rows.
fn is_rank_col(grid: &BlockGrid<'_>, e: Edges, c: u32) -> bool {
    let line: Vec<(u32, Kind)> = (e.top..=e.bottom).map(|r| (r, grid.kind(r, c))).collect();
    let Some((first, last)) = rank_span(&line) else {
        return false;
    };
    let others = |r: u32| (e.left..=e.right).any(|k| k != c && grid.kind(r, k).is_numeric());
    let top = (e.top..=e.bottom).find(|&r| others(r));
    let bottom = (e.top..=e.bottom).rev().find(|&r| others(r));
    spans_match((first, last), top.zip(bottom))
}

/// Whether a label sequence spans the board's numbers, allowing one extra line at either end
/// of the board's span for a perpendicular line of numeric labels not stripped yet (file
/// numbers above a board with rank numbers beside it).
fn spans_match(labels: (u32, u32), board: Option<(u32, u32)>) -> bool {
    board.is_some_and(|(a, b)| {
        labels.0 >= a && labels.0 <= a + 1 && labels.1 <= b && labels.1 + 1 >= b
    })
}

/// Like [`is_rank_col`] for a row of file numbers.
fn is_rank_row(grid: &BlockGrid<'_>, e: Edges, r: u32) -> bool {
    let line: Vec<(u32, Kind)> = (e.left..=e.right).map(|c| (c, grid.kind(r, c))).collect();
    let Some((first, last)) = rank_span(&line) else {
        return false;
    };
    let others = |c: u32| (e.top..=e.bottom).any(|k| k != r && grid.kind(k, c).is_numeric());
    let left = (e.left..=e.right).find(|&c| others(c));
    let right = (e.left..=e.right).rev().find(|&c| others(c));
    spans_match((first, last), left.zip(right))
}

/// If the numbers of a line are 1..R or R..1 (R >= 2) in consecutive positions, their span.
fn rank_span(line: &[(u32, Kind)]) -> Option<(u32, u32)> {
    let nums: Vec<(u32, Kind)> = line
        .iter()
        .copied()
        .filter(|(_, k)| k.is_numeric())
        .collect();
    if nums.len() < 2 {
        return None;
    }
    let values: Vec<i64> = nums
        .iter()
        .map(|(_, k)| match k {
            Kind::Int(n) => Some(*n),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let consecutive_cells = nums.windows(2).all(|w| w[1].0 == w[0].0 + 1);
    let len = values.len() as i64;
    let ascending = values.iter().enumerate().all(|(i, &v)| v == i as i64 + 1);
    let descending = values.iter().enumerate().all(|(i, &v)| v == len - i as i64);
    (consecutive_cells && (ascending || descending)).then(|| (nums[0].0, nums[nums.len() - 1].0))
}

/// Grow the block over adjacent blank, bordered lines when the board itself is bordered.
fn extend_by_borders(sheet: &SheetCells, grid: &BlockGrid<'_>, block: CellRange) -> CellRange {
    let o = grid.range.first;
    let (dr, dc) = (block.first.row - o.row, block.first.col - o.col);
    let bordered = (dr..dr + block.rows())
        .flat_map(|r| (dc..dc + block.cols()).map(move |c| (r, c)))
        .filter(|&(r, c)| grid.cell(r, c).is_some_and(|x| x.format.bordered))
        .count() as u64;
    let area = u64::from(block.rows()) * u64::from(block.cols());
    if bordered * 2 < area {
        return block;
    }
    let blank_bordered = |row: u32, col: u32| {
        lookup(sheet, row, col)
            .is_some_and(|x| x.format.bordered && classify(x.value.as_ref()) == Kind::Blank)
    };
    let (mut first, mut last) = (block.first, block.last);
    let limit = |first: CellRef, last: CellRef| {
        u64::from(last.row - first.row + 2) * u64::from(last.col - first.col + 2)
            <= MAX_BOARD_SQUARES
    };
    loop {
        let mut grew = false;
        if first.row > 0
            && limit(first, last)
            && (first.col..=last.col).all(|c| blank_bordered(first.row - 1, c))
        {
            first.row -= 1;
            grew = true;
        }
        if limit(first, last) && (first.col..=last.col).all(|c| blank_bordered(last.row + 1, c)) {
            last.row += 1;
            grew = true;
        }
        if first.col > 0
            && limit(first, last)
            && (first.row..=last.row).all(|r| blank_bordered(r, first.col - 1))
        {
            first.col -= 1;
            grew = true;
        }
        if limit(first, last) && (first.row..=last.row).all(|r| blank_bordered(r, last.col + 1)) {
            last.col += 1;
            grew = true;
        }
        if !grew {
            return CellRange::new(first, last);
        }
    }
}

/// The sheet's cell at an absolute position (binary search).
pub(crate) fn lookup(sheet: &SheetCells, row: u32, col: u32) -> Option<&SheetCell> {
    let cells = sheet.cells();
    cells
        .binary_search_by_key(&(row, col), |c| (c.row, c.col))
        .ok()
        .map(|i| &cells[i])
}

/// At least two whole numbers, and whole numbers at least half of the non-blank cells, over at
/// least two rows and two columns: a knight never moves within one row or column, so a strip
/// one cell wide is a list of numbers (a table column, a seed), not a board.
fn plausible(grid: &BlockGrid<'_>, block: CellRange) -> bool {
    if block.rows() < 2 || block.cols() < 2 {
        return false;
    }
    let (mut ints, mut filled) = (0u64, 0u64);
    let o = grid.range.first;
    let (dr, dc) = (block.first.row - o.row, block.first.col - o.col);
    for r in dr..dr + block.rows() {
        for c in dc..dc + block.cols() {
            match grid.kind(r, c) {
                Kind::Blank => {}
                Kind::Int(_) => {
                    ints += 1;
                    filled += 1;
                }
                _ => filled += 1,
            }
        }
    }
    ints >= 2 && ints * 2 >= filled
}

/// Union-find with path halving and union by size.
struct UnionFind {
    parent: Vec<u32>,
    size: Vec<u32>,
}

impl UnionFind {
    fn new(n: usize) -> Self {
        UnionFind {
            parent: (0..n as u32).collect(),
            size: vec![1; n],
        }
    }

    fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] as usize != x {
            let p = self.parent[x] as usize;
            self.parent[x] = self.parent[p];
            x = self.parent[x] as usize;
        }
        x
    }

    fn union(&mut self, a: usize, b: usize) {
        let (mut a, mut b) = (self.find(a), self.find(b));
        if a == b {
            return;
        }
        if self.size[a] < self.size[b] {
            std::mem::swap(&mut a, &mut b);
        }
        self.parent[b] = a as u32;
        self.size[a] += self.size[b];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workbook::read::CellValue;

    fn sheet(rows: &[(u32, u32, &[&str])]) -> SheetCells {
        let mut v = Vec::new();
        for &(r0, c0, line) in rows {
            for (i, s) in line.iter().enumerate() {
                if s.is_empty() {
                    continue;
                }
                let value = match s.parse::<f64>() {
                    Ok(f) => CellValue::Number(f),
                    Err(_) => CellValue::Text((*s).into()),
                };
                v.push((r0, c0 + i as u32, value));
            }
        }
        SheetCells::from_values(v)
    }

    fn board(found: Found) -> String {
        match found {
            Found::Board(r) => r.to_string(),
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn labels_and_titles_are_not_part_of_the_board() {
        let s = sheet(&[
            (0, 0, &["Title"]),
            (2, 1, &["a", "b", "c", "d"]),
            (3, 0, &["3", "1", "4", "7", "10"]),
            (4, 0, &["2", "12", "9", "2", "5"]),
            (5, 0, &["1", "8", "11", "6", "3"]),
        ]);
        assert_eq!(board(find_board(&s)), "B4:E6");
    }

    #[test]
    fn labels_on_the_right_and_bottom_are_stripped_too() {
        let s = sheet(&[
            (0, 0, &["1", "4", "7", "10", "1"]),
            (1, 0, &["12", "9", "2", "5", "2"]),
            (2, 0, &["8", "11", "6", "3", "3"]),
            (3, 0, &["a", "b", "c", "d"]),
        ]);
        assert_eq!(board(find_board(&s)), "A1:D3");
    }

    #[test]
    fn numeric_labels_on_two_sides_are_both_stripped() {
        let s = sheet(&[
            (0, 1, &["1", "2", "3", "4"]),
            (1, 0, &["3", "1", "4", "7", "10"]),
            (2, 0, &["2", "12", "9", "2", "5"]),
            (3, 0, &["1", "3", "6", "11", "8"]),
        ]);
        assert_eq!(board(find_board(&s)), "B2:E4");
    }

    #[test]
    fn a_column_of_numbers_in_a_table_is_no_board() {
        // A summary table: text columns and one column of seeds stored as numeric text.
        let s = sheet(&[
            (0, 0, &["Tour 1", "solved", "42", "lucky"]),
            (1, 0, &["Tour 2", "solved", "42", "again"]),
            (2, 0, &["Tour 3", "stuck", "42", "no"]),
        ]);
        assert_eq!(find_board(&s), Found::NoBoard);
        let row = sheet(&[(0, 0, &["1", "2", "3", "4"])]);
        assert_eq!(find_board(&row), Found::NoBoard);
    }

    #[test]
    fn far_notes_are_ignored_and_text_only_sheets_have_no_board() {
        let s = sheet(&[
            (0, 0, &["1", "4"]),
            (1, 0, &["3", "2"]),
            (30, 12, &["note"]),
        ]);
        assert_eq!(board(find_board(&s)), "A1:B2");
        let notes = sheet(&[(0, 0, &["just"]), (1, 0, &["words"])]);
        assert_eq!(find_board(&notes), Found::NoBoard);
        assert_eq!(find_board(&SheetCells::default()), Found::NoBoard);
    }

    #[test]
    fn sparse_failed_attempts_stay_in_one_piece() {
        // 1 at A1, 2 at B3, 3 at C5: knight moves, never adjacent cells.
        let s = sheet(&[(0, 0, &["1"]), (2, 1, &["2"]), (4, 2, &["3"])]);
        assert_eq!(board(find_board(&s)), "A1:C5");
    }

    #[test]
    fn a_huge_spread_is_too_large_not_allocated() {
        let mut v = Vec::new();
        for i in 0..5000u32 {
            v.push((i, i, CellValue::Number(f64::from(i + 1))));
        }
        let s = SheetCells::from_values(v);
        assert!(matches!(find_board(&s), Found::TooLarge { .. }));
    }
}
