//! Grids of move numbers: `1` on the start square, `2` a knight's move away, and so on. Any
//! number of them per sheet, each found by evidence.
//!
//! The rule, in order:
//! 1. **Labels.** Lines of file letters `a b c ...` (rows, or columns for ranks written as
//!    letters) and lines of consecutive numbers `1 2 3 ...`, `8 7 ... 1` or `0 1 2 ...` (as
//!    numbers or as text) are labels (`labels.rs`) when no number is on one side of them,
//!    when two of them frame a board (a row along its top and a column down its side meeting
//!    at a corner, which is no square whatever number it holds), or when the numbers beside
//!    one are a knight's path it spans: a knight never moves to the next cell, so such a line
//!    is never part of a tour. A header row and an index column counting `0..n-1` (pandas
//!    `to_excel`) are labels too. Numeric labels are set aside before anything else.
//! 2. **Pieces.** The remaining numbers (whole or not) are grouped into pieces of touching
//!    cells (neighbours, diagonals included). Blank rows and columns and text separate
//!    pieces, so boards one blank column apart stay apart.
//! 3. **Continuations.** Two pieces whose numbers continue each other by a knight's move
//!    (v in one, v+1 a knight's move away in the other) and which share no number are one
//!    board: a sparse failed attempt with an empty column stays whole, while two tours side
//!    by side (which share every number) do not merge.
//! 4. **Extent.** A piece's board is the bounding box of its numbers, grown to what its labels
//!    say (files give the columns, ranks the rows), so a partial board under a-h / 8..1 labels
//!    is 8x8. Without labels, on xlsx, blank bordered lines next to a bordered board are
//!    squares too. A label line taken from a block that, with it, holds exactly 1..N (or
//!    0..N-1) on all its N cells is given back: label stripping never breaks a complete
//!    permutation.
//! 5. **Unvisited marks.** A block holding `0` (or `-1`) on two or more squares, its other
//!    numbers positive, marks its unvisited squares with it (programs print failed attempts
//!    so): those squares count as blank. Not when its largest number is N - 1: that is a tour
//!    numbered from 0 with a mistake.
//! 6. **Evidence.** A block is a tour attempt, not a table of numbers, when whole numbers (and
//!    insertion labels such as `5a`, the hand method's Step 3) fill at least half of its
//!    non-blank cells and
//!    - at least three pairs of consecutive numbers are present (each once) and at least half
//!      of them sit a knight's move apart; or
//!    - it holds exactly 1..N (or 0..N-1) on its N squares and a tour of its size exists (a
//!      row-by-row fill of 5x5 is an invalid attempt; 1..9 on 3x3, where no tour exists, is a
//!      table unless labels frame it); or
//!    - file letters (`a b c ...`) and rank numbers frame it and at least 3/4 of its whole
//!      numbers are distinct and within 1..N (a board frame with a few moves typed in; one
//!      move is enough); or
//!    - numbers frame it on two sides (`1..n` along the top, `1..m` down the side, perhaps
//!      another number in the corner where they meet) and it holds moves 1..k (k >= 2), each
//!      a knight's move from the one before: an attempt begun.
//!
//!    A block with a side under 3, or a 1..N where no tour exists, is a board only in a
//!    frame of file and rank labels (a 1x1 board's are one cell each: see `labels.rs`). Tables of statistics, chart
//!    data (`2 4 6 / 3 6 9`), key/value rows, grids of zeros, dates and small-value game grids
//!    fail this and produce no problems.
//! 7. **Numbering.** A block counts from 0 when it holds 0 once, not N, and its 1 (if any) is a
//!    knight's move from the 0.
//!
//! Text cells and blanks inside a board's rectangle are part of it (they become `text-cell`
//! and `blank-cell` problems). Which of overlapping candidates is kept, and their order, is
//! [`super::super::select`]'s business.
//!
//! **Ragged or failed attempt?** (decided in [`super::super::check`]) A blank cell at the end
//! of its row *and* at the end of its column (a short last row, a missing corner) makes the
//! board `not-rectangular` only when *every* blank of the board is such an edge cell, the
//! blanks are fewer than the filled cells, and the formatting (xlsx borders) does not mark it as
//! a square. A board with blanks inside as well is a failed attempt whose edge blanks are
//! squares. Without labels or readable formatting, a failed attempt whose whole edge rows are
//! blank is measured by the bounding box of its numbers, so it can read as a smaller board.

use std::collections::HashMap;

use crate::board::Board;
use crate::solve::existence;
use crate::workbook::cellref::{CellRange, CellRef};
use crate::workbook::read::SheetCells;

use super::super::block::{BlockGrid, MAX_BOARD_SQUARES};
use super::super::check::inserted;
use super::super::value::{classify, kinds, Kind};
use super::labels::{self, Extent, Labels};
use super::{Candidate, GridCandidate};

/// Every grid on the sheet that reads as a tour attempt (see the module docs for the rule).
pub(crate) fn propose(sheet: &SheetCells) -> Vec<Candidate> {
    let labels = labels::find_labels(sheet);
    // The common big case: one dense rectangle of numbers and nothing else.
    if labels.lines.is_empty() {
        if let Some(rect) = dense_rectangle(sheet) {
            return judge(sheet, &labels, rect, None, rect_ints(rect))
                .into_iter()
                .collect();
        }
    }
    pieces(sheet, &labels)
        .into_iter()
        .filter_map(|p| {
            let rect = CellRange::new(CellRef::new(p.top, p.left), CellRef::new(p.bottom, p.right));
            let ext = labels::extent(&labels, (p.top, p.left, p.bottom, p.right));
            judge(sheet, &labels, rect, ext, p.ints)
        })
        .collect()
}

fn rect_ints(rect: CellRange) -> u64 {
    u64::from(rect.rows()) * u64::from(rect.cols())
}

fn too_large(rect: CellRange) -> Candidate {
    Candidate::TooLarge {
        at: rect.first,
        rows: u64::from(rect.rows()),
        cols: u64::from(rect.cols()),
    }
}

/// Turn one block of numbers (its bounding box `rect`, and what its labels say) into a board,
/// or `None` when it does not read as a tour attempt.
fn judge(
    sheet: &SheetCells,
    labels: &Labels,
    rect: CellRange,
    ext: Option<Extent>,
    ints: u64,
) -> Option<Candidate> {
    let rect = ext.map_or(rect, |e| e.rect);
    if rect_ints(rect) > MAX_BOARD_SQUARES {
        return Some(too_large(rect));
    }
    let mut grid = BlockGrid::new(sheet, rect);
    let mut survey = survey(&grid, true);
    let grown = give_back_labels(sheet, labels, rect, survey.permutation());
    // Label lines given back are part of the board, not labels saying what it is.
    let ext = if grown == rect {
        ext
    } else {
        let (f, l) = (grown.first, grown.last);
        grid = BlockGrid::new(sheet, grown);
        survey = self::survey(&grid, true);
        labels::extent(labels, (f.row, f.col, l.row, l.col))
    };
    let rect = grown;
    let found = evidence(&grid, &survey, ext)?;
    let range = if ext.is_none() && sheet.formats_known() {
        extend_by_borders(sheet, &grid, rect)
    } else {
        rect
    };
    Some(Candidate::Grid(GridCandidate {
        range,
        base: found.base,
        labelled: ext.is_some(),
        unvisited: found.unvisited,
        ints,
        steps: found.steps,
        knight_moves: found.knight_moves,
    }))
}

/// What the evidence test found in a block.
struct Evidence {
    /// The first move's number.
    base: u8,
    /// The number marking unvisited squares, if any.
    unvisited: Option<i64>,
    /// Pairs of consecutive numbers, each present once.
    steps: u64,
    /// Those a knight's move apart.
    knight_moves: u64,
}

/// The evidence test (rule 6).
fn evidence(grid: &BlockGrid<'_>, survey: &Survey, ext: Option<Extent>) -> Option<Evidence> {
    let (rows, cols) = (grid.range.rows(), grid.range.cols());
    // Files and ranks both label it: a board frame, whatever numbers are in it (down to the
    // one square of a 1x1 board, see labels::one_square_frame).
    let frame = ext.is_some_and(|e| e.files && e.ranks);
    let min_side = if frame { 1 } else { 3 };
    if rows < min_side || cols < min_side {
        return None;
    }
    let n = u64::from(rows) * u64::from(cols);
    let ints = survey.ints;
    if ints == 0 || (ints as u64 + survey.labels) * 2 < survey.filled {
        return None;
    }
    let unvisited = survey.unvisited(n);
    let base = if unvisited.is_some() {
        1
    } else {
        survey.base(grid)
    };
    // Where each value of base..base + N is, if it occurs exactly once.
    let pos = &survey.pos.as_deref()?[usize::from(base)..][..n as usize];
    let unique = |p: u32| p != NONE && p != MANY;
    let (mut distinct, mut pairs, mut knights) = (0usize, 0u64, 0u64);
    // Each cell's row and column worked out once, for its pairs with both neighbours.
    let mut previous: Option<(u32, u32)> = None;
    for &p in pos {
        distinct += usize::from(p != NONE);
        let here = unique(p).then(|| (p / cols, p % cols));
        if let (Some(a), Some(b)) = (previous, here) {
            pairs += 1;
            let (dr, dc) = (a.0.abs_diff(b.0), a.1.abs_diff(b.1));
            if (dr == 1 && dc == 2) || (dr == 2 && dc == 1) {
                knights += 1;
            }
        }
        previous = here;
    }
    let found = Evidence {
        base,
        unvisited,
        steps: pairs,
        knight_moves: knights,
    };
    let knight_path = pairs >= 3 && knights * 2 >= pairs;
    let permutation = distinct as u64 == n && ints as u64 == n;
    let tour_exists = Board::new(rows, cols).is_ok_and(|b| existence::open_tour(b).is_ok());
    let chessboard = frame && ext.is_some_and(|e| e.letters) && distinct * 4 >= ints * 3;
    // In a frame of numbers, the first moves of an attempt: 1..k (k >= 2), each a knight's
    // move from the one before.
    let begun = frame
        && ints >= 2
        && distinct == ints
        && knights as usize + 1 == ints
        && pos.iter().take(ints).all(|&p| unique(p));
    (knight_path || (permutation && (tour_exists || frame)) || chessboard || begun).then_some(found)
}

/// Grow `rect` over an adjacent numeric label line that spans it exactly when the grown block
/// is then a complete permutation (label stripping never breaks one). `holds` is what `rect`
/// holds when it holds each of `lo..=hi` once: a line repeating one of them is not given back.
fn give_back_labels(
    sheet: &SheetCells,
    labels: &Labels,
    mut rect: CellRange,
    mut holds: Option<(i64, i64)>,
) -> CellRange {
    if labels.numeric_cells.is_empty() {
        return rect;
    }
    loop {
        let (f, l) = (rect.first, rect.last);
        // Each way to grow: the grown block, and the line it adds (fixed row or column, and
        // the span along it).
        let mut options = Vec::new();
        if f.row > 0 {
            let g = CellRange::new(CellRef::new(f.row - 1, f.col), l);
            options.push((g, false, f.row - 1, (f.col, l.col)));
        }
        let g = CellRange::new(f, CellRef::new(l.row + 1, l.col));
        options.push((g, false, l.row + 1, (f.col, l.col)));
        if f.col > 0 {
            let g = CellRange::new(CellRef::new(f.row, f.col - 1), l);
            options.push((g, true, f.col - 1, (f.row, l.row)));
        }
        let g = CellRange::new(f, CellRef::new(l.row, l.col + 1));
        options.push((g, true, l.col + 1, (f.row, l.row)));
        let grown = options.into_iter().find(|&(g, vertical, fixed, (a, b))| {
            let line = (a..=b).map(|p| if vertical { (p, fixed) } else { (fixed, p) });
            let repeats = |(r, c): (u32, u32)| {
                holds.is_some_and(|(lo, hi)| {
                    sheet.find(r, c).is_some_and(
                        |x| matches!(classify(x.value), Kind::Int(v) if (lo..=hi).contains(&v)),
                    )
                })
            };
            line.clone().all(|(r, c)| labels.is_numeric_label(r, c))
                && !line.clone().any(repeats)
                && u64::from(g.rows()) * u64::from(g.cols()) <= MAX_BOARD_SQUARES
                && complete_permutation(sheet, g)
        });
        match grown {
            Some((g, ..)) => {
                rect = g;
                holds = None;
            }
            None => return rect,
        }
    }
}

/// Whether every cell of `range` holds a whole number and they are exactly 1..N or 0..N-1
/// (read from the sheet: no block is indexed for a line that is rarely given back).
fn complete_permutation(sheet: &SheetCells, range: CellRange) -> bool {
    let n = rect_ints(range);
    let mut seen = vec![false; n as usize + 1];
    let (mut count, mut zero, mut fits) = (0u64, false, true);
    let cells = sheet.cells();
    sheet.for_each_in(range, |i, _, _| {
        if !fits {
            return;
        }
        let v = match cells.small_whole_number(i) {
            Some(v) => i64::from(v),
            None => match classify(cells.get(i).and_then(|c| c.value)) {
                Kind::Int(v) => v,
                _ => {
                    fits = false;
                    return;
                }
            },
        };
        if v < 0 || v as u64 > n || seen[v as usize] {
            fits = false;
            return;
        }
        seen[v as usize] = true;
        zero |= v == 0;
        count += 1;
    });
    // n distinct values in 0..=n: exactly one of 0 and n is absent.
    fits && count == n && zero != seen[n as usize]
}

/// The board the user gave (`--range`): no evidence needed, its numbering and unvisited mark
/// read from its cells (a range too large to hold a board is left to the caller to refuse).
pub(crate) fn given(sheet: &SheetCells, range: CellRange) -> Candidate {
    let mut g = GridCandidate {
        range,
        base: 1,
        labelled: false,
        unvisited: None,
        ints: 0,
        steps: 0,
        knight_moves: 0,
    };
    if rect_ints(range) <= MAX_BOARD_SQUARES {
        let grid = BlockGrid::new(sheet, range);
        let survey = survey(&grid, false);
        g.unvisited = survey.unvisited(rect_ints(range));
        if g.unvisited.is_none() {
            g.base = survey.base(&grid);
        }
    }
    Candidate::Grid(g)
}

/// A block's number not present (see [`Survey::pos`]).
const NONE: u32 = u32::MAX;
/// A block's number present more than once.
const MANY: u32 = u32::MAX - 1;

/// What one pass over a block finds: what its cells hold, and what rules 5 and 7 read.
struct Survey {
    /// Whole numbers.
    ints: usize,
    /// Insertion labels (`5a`, the hand method's Step 3): they count with the numbers, as a
    /// big board's inserted centre outnumbers its cycle.
    labels: u64,
    /// Cells not blank.
    filled: u64,
    /// How many 0s and -1s, and where the last 0 is.
    zeros: usize,
    minus_ones: usize,
    zero_at: u32,
    /// A number below -1.
    other_negative: bool,
    /// The largest number.
    max: i64,
    /// Whether N (the block's cell count) is there.
    has_n: bool,
    /// Where each number of 0..=N is: its cell, [`NONE`] or [`MANY`] (when asked for).
    pos: Option<Vec<u32>>,
}

/// One pass over the block (a million cells for a big board: read once, not once a rule).
fn survey(grid: &BlockGrid<'_>, with_pos: bool) -> Survey {
    let cols = grid.range.cols();
    let n = i64::from(grid.len());
    let mut pos = with_pos.then(|| vec![NONE; n as usize + 1]);
    let mut s = Survey {
        ints: 0,
        labels: 0,
        filled: 0,
        zeros: 0,
        minus_ones: 0,
        zero_at: 0,
        other_negative: false,
        max: i64::MIN,
        has_n: false,
        pos: None,
    };
    for at in 0..grid.len() {
        match grid.kind_at(at) {
            Kind::Blank => {}
            Kind::Int(v) => {
                s.ints += 1;
                s.filled += 1;
                s.max = s.max.max(v);
                match v {
                    0 => {
                        s.zeros += 1;
                        s.zero_at = at;
                    }
                    -1 => s.minus_ones += 1,
                    v if v < 0 => s.other_negative = true,
                    v => s.has_n |= v == n,
                }
                if let Some(slot) = pos.as_mut().and_then(|p| p.get_mut(v as usize)) {
                    *slot = if *slot == NONE { at } else { MANY };
                }
            }
            Kind::Text if inserted::is_label(grid, at / cols, at % cols) => {
                s.labels += 1;
                s.filled += 1;
            }
            _ => s.filled += 1,
        }
    }
    s.pos = pos;
    s
}

impl Survey {
    /// The numbers `(lo, hi)` when the block holds each of `lo..=hi` once and nothing else,
    /// `lo` 0 or 1 (a complete permutation).
    fn permutation(&self) -> Option<(i64, i64)> {
        let pos = self.pos.as_deref()?;
        let n = pos.len() - 1;
        if self.ints != n || self.filled != n as u64 {
            return None;
        }
        let once = |lo: usize| pos[lo..][..n].iter().all(|&p| p != NONE && p != MANY);
        [1, 0]
            .into_iter()
            .find(|&lo| once(lo))
            .map(|lo| (lo as i64, (lo + n) as i64 - 1))
    }

    /// The number marking unvisited squares (rule 5): 0 or -1 on two or more squares, no
    /// other number below 1 (a single 0 is the first move of a tour numbered from 0). Zeros
    /// beside a largest number of N - 1 are moves of a tour numbered from 0 with a mistake
    /// (`0` typed twice), not marks: moves 1..N-1 leave no room for two unvisited squares.
    fn unvisited(&self, n: u64) -> Option<i64> {
        if self.other_negative {
            return None;
        }
        match (self.zeros, self.minus_ones) {
            (z, 0) if z >= 2 && self.max != n as i64 - 1 => Some(0),
            (0, m) if m >= 2 => Some(-1),
            _ => None,
        }
    }

    /// 0 when the block holds 0 once, not N, and its 1 (if any) is a knight's move from the
    /// 0 (rule 7).
    fn base(&self, grid: &BlockGrid<'_>) -> u8 {
        if self.has_n || self.zeros != 1 {
            return 1;
        }
        let cols = grid.range.cols();
        let knight = |a: u32, b: u32| {
            let (dr, dc) = ((a / cols).abs_diff(b / cols), (a % cols).abs_diff(b % cols));
            (dr == 1 && dc == 2) || (dr == 2 && dc == 1)
        };
        let from_zero = match self.pos.as_ref().map(|p| p[1]) {
            Some(NONE) => true,
            Some(one) if one != MANY => knight(self.zero_at, one),
            // Several 1s (or no positions kept): any of them.
            _ => {
                let mut ones = grid.ints().filter(|x| x.0 == 1).peekable();
                ones.peek().is_none() || ones.any(|(_, at)| knight(self.zero_at, at))
            }
        };
        if from_zero {
            0
        } else {
            1
        }
    }
}

/// Fast path for the common big case: when the non-blank cells fill their bounding box
/// exactly and hold a whole number, they are the only component.
fn dense_rectangle(sheet: &SheetCells) -> Option<CellRange> {
    let (mut top, mut left, mut bottom, mut right) = (u32::MAX, u32::MAX, 0u32, 0u32);
    let (mut count, mut ints) = (0u64, 0u64);
    for (row, col, kind) in kinds(sheet) {
        match kind {
            Kind::Blank => continue,
            Kind::Int(_) => ints += 1,
            _ => {}
        }
        count += 1;
        top = top.min(row);
        bottom = bottom.max(row);
        left = left.min(col);
        right = right.max(col);
    }
    let dense =
        count > 0 && ints > 0 && u64::from(bottom - top + 1) * u64::from(right - left + 1) == count;
    dense.then(|| CellRange::new(CellRef::new(top, left), CellRef::new(bottom, right)))
}

/// A piece of touching numbers: its bounding box and how many whole numbers it holds.
struct Piece {
    top: u32,
    left: u32,
    bottom: u32,
    right: u32,
    ints: u64,
}

/// Consecutive numbers along one row (label cells left out): the unit pieces are made of, so
/// a dense board of a million numbers is a thousand runs, not a million cells to link.
struct Run {
    row: u32,
    first: u32,
    last: u32,
    ints: u32,
}

/// The numbers of the sheet that are not labels, as `(row, col, kind)` in row-major order.
fn numbers<'a>(
    sheet: &'a SheetCells,
    labels: &'a Labels,
) -> impl Iterator<Item = (u32, u32, Kind)> + 'a {
    // Both lists are in row-major order: the label cells are walked alongside.
    let label_cells = &labels.numeric_cells[..];
    let mut next_label = 0usize;
    kinds(sheet).filter(move |&(row, col, k)| {
        if !k.is_numeric() {
            return false;
        }
        while label_cells.get(next_label).is_some_and(|&l| l < (row, col)) {
            next_label += 1;
        }
        let label = label_cells.get(next_label) == Some(&(row, col));
        next_label += usize::from(label);
        !label
    })
}

/// The pieces of touching numbers (rules 2 and 3), label cells left out, in reading order of
/// their top-left corners.
fn pieces(sheet: &SheetCells, labels: &Labels) -> Vec<Piece> {
    let mut runs: Vec<Run> = Vec::new();
    for (row, col, k) in numbers(sheet, labels) {
        let int = u32::from(matches!(k, Kind::Int(_)));
        match runs.last_mut() {
            Some(r) if r.row == row && r.last + 1 == col && !labels.cuts_col(col) => {
                r.last = col;
                r.ints += int;
            }
            _ => runs.push(Run {
                row,
                first: col,
                last: col,
                ints: int,
            }),
        }
    }
    let mut uf = UnionFind::new(runs.len());
    link_neighbours(&runs, labels, &mut uf);
    merge_continuations(sheet, labels, &runs, &mut uf);
    // Pieces by root, in the order their first run appears.
    let mut slot_of_root: HashMap<usize, usize> = HashMap::new();
    let mut out: Vec<Piece> = Vec::new();
    for (i, r) in runs.iter().enumerate() {
        let slot = *slot_of_root.entry(uf.find(i)).or_insert_with(|| {
            out.push(Piece {
                top: r.row,
                left: r.first,
                bottom: r.row,
                right: r.last,
                ints: 0,
            });
            out.len() - 1
        });
        let p = &mut out[slot];
        p.bottom = p.bottom.max(r.row);
        p.left = p.left.min(r.first);
        p.right = p.right.max(r.last);
        p.ints += u64::from(r.ints);
    }
    out.retain(|p| p.ints > 0);
    out.sort_by_key(|p| (p.top, p.left));
    out
}

/// Union runs that touch (diagonals included): runs of the same row never do, runs of
/// consecutive rows do when their columns overlap or meet at a corner, unless labels start
/// again between them (`Labels::row_cuts`, `Labels::col_cuts`). `runs` is in row-major
/// order.
fn link_neighbours(runs: &[Run], labels: &Labels, uf: &mut UnionFind) {
    // Where each row's runs start.
    let mut rows: Vec<(u32, usize, usize)> = Vec::new();
    for (i, r) in runs.iter().enumerate() {
        match rows.last_mut() {
            Some(g) if g.0 == r.row => g.2 = i + 1,
            _ => rows.push((r.row, i, i + 1)),
        }
    }
    for w in rows.windows(2) {
        let ((above, pstart, pend), (row, start, end)) = (w[0], w[1]);
        if row != above + 1 || labels.cuts_row(row) {
            continue;
        }
        let mut lo = pstart;
        for i in start..end {
            let (first, last) = (runs[i].first, runs[i].last);
            while lo < pend && runs[lo].last + 1 < first {
                lo += 1;
            }
            let mut j = lo;
            while j < pend && runs[j].first <= last + 1 {
                // Runs meeting only at a corner across a restart of file labels stay apart.
                let corner_cut = (runs[j].first == last + 1 && labels.cuts_col(runs[j].first))
                    || (runs[j].last + 1 == first && labels.cuts_col(first));
                if !corner_cut {
                    uf.union(i, j);
                }
                j += 1;
            }
        }
    }
}

/// Values occurring more often than this are not followed from piece to piece.
const MAX_REPEATS: usize = 4;

/// A whole number of the sheet: its value, position and run.
#[derive(Clone, Copy)]
struct Int {
    value: i64,
    row: u32,
    col: u32,
    run: u32,
}

/// Rule 3: merge pieces whose numbers continue each other by a knight's move and which share
/// no number. Nothing to do (and nothing collected) when the numbers are all in one piece,
/// as on every board typed without gaps.
fn merge_continuations(sheet: &SheetCells, labels: &Labels, runs: &[Run], uf: &mut UnionFind) {
    let mut roots = runs
        .iter()
        .enumerate()
        .filter(|(_, r)| r.ints > 0)
        .map(|(i, _)| uf.find(i));
    let Some(first) = roots.next() else { return };
    if roots.all(|r| r == first) {
        return;
    }
    // The whole numbers with their runs (cells and runs are both in row-major order), by
    // value, then in reading order.
    let mut ints: Vec<Int> = Vec::new();
    let mut run = 0usize;
    for (row, col, k) in numbers(sheet, labels) {
        while runs[run].row != row || runs[run].last < col {
            run += 1;
        }
        if let Kind::Int(value) = k {
            ints.push(Int {
                value,
                row,
                col,
                run: run as u32,
            });
        }
    }
    ints.sort_by_key(|x| x.value);
    // Runs of equal values, those repeated too often left out.
    let groups: Vec<&[Int]> = ints
        .chunk_by(|a, b| a.value == b.value)
        .filter(|g| g.len() <= MAX_REPEATS)
        .collect();
    let mut candidates: Vec<(usize, usize)> = Vec::new();
    for w in groups.windows(2) {
        let (here, next) = (w[0], w[1]);
        if next[0].value != here[0].value + 1 {
            continue;
        }
        for x in here {
            for y in next {
                let (dr, dc) = (x.row.abs_diff(y.row), x.col.abs_diff(y.col));
                let knight = (dr == 1 && dc == 2) || (dr == 2 && dc == 1);
                let (a, b) = (x.run as usize, y.run as usize);
                if knight && uf.find(a) != uf.find(b) {
                    candidates.push((a, b));
                }
            }
        }
    }
    if candidates.is_empty() {
        return;
    }
    // The (sorted) values of each piece a candidate touches, by root.
    let mut values: HashMap<usize, Vec<i64>> = candidates
        .iter()
        .flat_map(|&(a, b)| [(uf.find(a), Vec::new()), (uf.find(b), Vec::new())])
        .collect();
    for x in &ints {
        if let Some(v) = values.get_mut(&uf.find(x.run as usize)) {
            v.push(x.value);
        }
    }
    drop(ints);
    for (x, y) in candidates {
        let (a, b) = (uf.find(x), uf.find(y));
        if a == b {
            continue;
        }
        let (va, vb) = (&values[&a], &values[&b]);
        if shares_a_value(va, vb) {
            continue;
        }
        let mut merged: Vec<i64> = va.iter().chain(vb.iter()).copied().collect();
        merged.sort_unstable();
        values.remove(&a);
        values.remove(&b);
        uf.union(a, b);
        values.insert(uf.find(a), merged);
    }
}

fn shares_a_value(a: &[i64], b: &[i64]) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => return true,
        }
    }
    false
}

/// Grow the block over adjacent blank, bordered lines when the board itself is bordered.
fn extend_by_borders(sheet: &SheetCells, grid: &BlockGrid<'_>, block: CellRange) -> CellRange {
    let o = grid.range.first;
    let (dr, dc) = (block.first.row - o.row, block.first.col - o.col);
    let bordered = (dr..dr + block.rows())
        .flat_map(|r| (dc..dc + block.cols()).map(move |c| (r, c)))
        .filter(|&(r, c)| {
            grid.format_at(r * grid.range.cols() + c)
                .is_some_and(|f| f.bordered)
        })
        .count() as u64;
    let area = u64::from(block.rows()) * u64::from(block.cols());
    if bordered * 2 < area {
        return block;
    }
    let blank_bordered = |row: u32, col: u32| {
        sheet
            .find(row, col)
            .is_some_and(|x| x.format.bordered && classify(x.value) == Kind::Blank)
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

    fn board(s: &SheetCells) -> String {
        let found = propose(s);
        match found.first() {
            Some(Candidate::Grid(g)) if found.len() == 1 => g.range.to_string(),
            Some(Candidate::TooLarge { .. }) => "TooLarge".into(),
            None => "NoBoard".into(),
            _ => format!("{found:?}"),
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
        assert_eq!(board(&s), "B4:E6");
    }

    #[test]
    fn labels_on_the_right_and_bottom_are_stripped_too() {
        let s = sheet(&[
            (0, 0, &["1", "4", "7", "10", "1"]),
            (1, 0, &["12", "9", "2", "5", "2"]),
            (2, 0, &["8", "11", "6", "3", "3"]),
            (3, 0, &["a", "b", "c", "d"]),
        ]);
        assert_eq!(board(&s), "A1:D3");
    }

    #[test]
    fn numeric_labels_on_two_sides_are_both_stripped() {
        let s = sheet(&[
            (0, 1, &["1", "2", "3", "4"]),
            (1, 0, &["3", "1", "4", "7", "10"]),
            (2, 0, &["2", "12", "9", "2", "5"]),
            (3, 0, &["1", "3", "6", "11", "8"]),
        ]);
        assert_eq!(board(&s), "B2:E4");
    }

    #[test]
    fn a_column_of_numbers_in_a_table_is_no_board() {
        // A summary table: text columns and one column of seeds stored as numeric text.
        let s = sheet(&[
            (0, 0, &["Tour 1", "solved", "42", "lucky"]),
            (1, 0, &["Tour 2", "solved", "42", "again"]),
            (2, 0, &["Tour 3", "stuck", "42", "no"]),
        ]);
        assert_eq!(board(&s), "NoBoard");
        let row = sheet(&[(0, 0, &["1", "2", "3", "4"])]);
        assert_eq!(board(&row), "NoBoard");
    }

    #[test]
    fn far_notes_are_ignored_and_text_only_sheets_have_no_board() {
        let s = sheet(&[
            (0, 0, &["1", "4", "7", "10"]),
            (1, 0, &["12", "9", "2", "5"]),
            (2, 0, &["3", "6", "11", "8"]),
            (30, 12, &["note"]),
        ]);
        assert_eq!(board(&s), "A1:D3");
        let notes = sheet(&[(0, 0, &["just"]), (1, 0, &["words"])]);
        assert_eq!(board(&notes), "NoBoard");
        assert_eq!(board(&SheetCells::default()), "NoBoard");
    }

    #[test]
    fn sparse_failed_attempts_stay_in_one_piece() {
        // 1 at A1, 2 at B3, 3 at C5, 4 at E4: knight moves, never adjacent cells.
        let s = sheet(&[
            (0, 0, &["1"]),
            (2, 1, &["2"]),
            (3, 4, &["4"]),
            (4, 2, &["3"]),
        ]);
        assert_eq!(board(&s), "A1:E5");
    }

    #[test]
    fn tables_of_small_numbers_are_not_boards() {
        // Chart data, 1..9 down the columns of 3x3 (no tour exists there), 1..6 in 3x2.
        for rows in [
            &[&["2", "4", "6"][..], &["3", "6", "9"], &["4", "8", "12"]][..],
            &[&["1", "4", "7"], &["2", "5", "8"], &["3", "6", "9"]],
            &[&["1", "2"], &["3", "4"], &["5", "6"]],
        ] {
            let s = sheet(
                &rows
                    .iter()
                    .enumerate()
                    .map(|(r, l)| (r as u32 + 2, 1, *l))
                    .collect::<Vec<_>>(),
            );
            assert_eq!(board(&s), "NoBoard", "{rows:?}");
        }
        // A row-by-row fill of 5x5 (a tour exists there) is an invalid attempt.
        let fill: Vec<Vec<String>> = (0..5)
            .map(|r| (1..=5).map(|c| (r * 5 + c).to_string()).collect())
            .collect();
        let lines: Vec<Vec<&str>> = fill
            .iter()
            .map(|l| l.iter().map(String::as_str).collect())
            .collect();
        let s = sheet(
            &lines
                .iter()
                .enumerate()
                .map(|(r, l)| (r as u32 + 1, 1, &l[..]))
                .collect::<Vec<_>>(),
        );
        assert_eq!(board(&s), "B2:F6");
    }

    #[test]
    fn zeros_on_many_squares_mark_unvisited_ones() {
        let s = sheet(&[
            (0, 0, &["1", "0", "0", "0"]),
            (1, 0, &["0", "0", "2", "0"]),
            (2, 0, &["0", "0", "0", "0"]),
            (3, 0, &["0", "3", "0", "5"]),
            (4, 0, &["0", "0", "4", "0"]),
        ]);
        let found = propose(&s);
        let Some(Candidate::Grid(g)) = found.first() else {
            panic!("{found:?}");
        };
        assert_eq!(g.unvisited, Some(0));
        assert_eq!(g.base, 1);
        // A tour numbered from 0 with 0 typed twice (11 the last move of 3x4): no marks.
        let s = sheet(&[
            (0, 0, &["11", "8", "5", "0"]),
            (1, 0, &["0", "3", "10", "7"]),
            (2, 0, &["9", "6", "1", "4"]),
        ]);
        let Some(Candidate::Grid(g)) = propose(&s).into_iter().next() else {
            panic!("a board");
        };
        assert_eq!(g.unvisited, None);
    }

    #[test]
    fn a_pandas_header_and_index_counting_from_0_are_labels() {
        let s = sheet(&[
            (0, 1, &["0", "1", "2", "3"]),
            (1, 0, &["0", "1", "4", "7", "10"]),
            (2, 0, &["1", "12", "9", "2", "5"]),
            (3, 0, &["2", "3", "6", "11", "8"]),
        ]);
        assert_eq!(board(&s), "B2:E4");
    }

    /// An open tour of 5x5, rows of move numbers.
    const T5: [[i64; 5]; 5] = [
        [1, 6, 15, 10, 21],
        [14, 9, 20, 5, 16],
        [19, 2, 7, 22, 11],
        [8, 13, 24, 17, 4],
        [25, 18, 3, 12, 23],
    ];

    /// Boards stacked down a sheet from row 0, each as `(corner, moves shown)`: `None` corner
    /// for no frame but a left label column, a frame of 1..5 along the top and down the left
    /// otherwise; `gap` blank rows between.
    fn stacked(boards: &[(Option<i64>, i64)], top: bool, gap: u32) -> SheetCells {
        let mut v = Vec::new();
        let mut row = 0u32;
        for &(corner, moves) in boards {
            if top {
                if let Some(c) = corner {
                    v.push((row, 0, CellValue::Number(c as f64)));
                }
                for c in 1..=5u32 {
                    v.push((row, c, CellValue::Number(f64::from(c))));
                }
                row += 1;
            }
            for (r, line) in T5.iter().enumerate() {
                if corner.is_some() || !top {
                    v.push((row, 0, CellValue::Number(r as f64 + 1.0)));
                }
                for (c, &m) in line.iter().enumerate() {
                    if m <= moves {
                        v.push((row, c as u32 + 1, CellValue::Number(m as f64)));
                    }
                }
                row += 1;
            }
            row += gap;
        }
        SheetCells::from_values(v)
    }

    fn boards(s: &SheetCells) -> Vec<String> {
        propose(s)
            .iter()
            .map(|c| match c {
                Candidate::Grid(g) => g.range.to_string(),
                other => format!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn frames_with_a_number_in_the_corner_stack_without_blank_rows() {
        // Moves 1..5 inside each board too, a partial attempt with blanks below the first.
        let s = stacked(&[(Some(1), 25), (Some(2), 9), (Some(7), 25)], true, 0);
        assert_eq!(boards(&s), ["B2:F6", "B8:F12", "B14:F18"]);
        let gap = stacked(&[(Some(64), 25), (Some(0), 4)], true, 1);
        assert_eq!(boards(&gap), ["B2:F6", "B9:F13"]);
    }

    #[test]
    fn a_label_line_over_a_knights_path_is_a_label_with_numbers_on_both_sides() {
        // Only file labels, boards one under the other: each label row has a board above.
        let mut v = Vec::new();
        for (b, row0) in [(25, 0u32), (25, 6)] {
            for c in 0..5u32 {
                v.push((row0, c, CellValue::Number(f64::from(c + 1))));
            }
            for (r, line) in T5.iter().enumerate() {
                for (c, &m) in line.iter().enumerate() {
                    if m <= b {
                        v.push((row0 + 1 + r as u32, c as u32, CellValue::Number(m as f64)));
                    }
                }
            }
        }
        assert_eq!(boards(&SheetCells::from_values(v)), ["A2:E6", "A8:E12"]);
    }

    #[test]
    fn rank_labels_starting_again_part_boards_stacked_without_a_gap() {
        let s = stacked(&[(None, 25), (None, 20)], false, 0);
        assert_eq!(boards(&s), ["B1:F5", "B6:F10"]);
    }

    #[test]
    fn a_framed_table_is_no_board() {
        // A multiplication table: 1..9 along the top and down the side.
        let mut v = vec![(0, 0, CellValue::Text("x".into()))];
        for i in 1..=9u32 {
            v.push((0, i, CellValue::Number(f64::from(i))));
            v.push((i, 0, CellValue::Number(f64::from(i))));
            for j in 1..=9u32 {
                v.push((i, j, CellValue::Number(f64::from(i * j))));
            }
        }
        assert!(boards(&SheetCells::from_values(v)).is_empty());
    }

    #[test]
    fn a_huge_spread_is_too_large_not_allocated() {
        let mut v = Vec::new();
        for i in 0..5000u32 {
            v.push((i, i, CellValue::Number(f64::from(i + 1))));
        }
        let s = SheetCells::from_values(v);
        assert_eq!(board(&s), "TooLarge");
    }
}
