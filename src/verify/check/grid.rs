//! Judging a grid of move numbers: verdict, problems, start and end, and the path itself.
//!
//! Knock-on noise is kept out of the problems: a move pair is checked only when both numbers
//! are on the board, a duplicated number passes a move check when any of its cells fits, and a
//! failed attempt (numbers 1..k, the rest blank) that breaks the knight's path reports only
//! the broken moves, not its blanks and absent numbers.

use std::collections::HashMap;

use crate::board::{Board, Square};
use crate::tour::Tour;
use crate::workbook::cellref::{CellRange, CellRef};

use super::super::block::BlockGrid;
use super::super::report::{Problem, ProblemKind, SquareName, Verdict};
use super::super::value::{describe, Kind};
use super::{thousands, Checked, Problems, MAX_CELLS_IN_MESSAGE, MAX_CELLS_PER_PROBLEM};

const NONE: u32 = u32::MAX;

/// Names the cells of the block by their block-relative linear index (`row * cols + col`).
struct Squares<'g, 'a> {
    grid: &'g BlockGrid<'a>,
    /// Columns of the block.
    cols: u32,
    /// Rows of the block.
    rows: u32,
}

impl Squares<'_, '_> {
    fn cell_ref(&self, idx: u32) -> CellRef {
        let o = self.grid.range.first;
        o.offset(idx / self.cols, idx % self.cols)
    }

    fn square(&self, idx: u32) -> SquareName {
        SquareName {
            file: idx % self.cols,
            rank: self.rows - idx / self.cols,
        }
    }

    /// `E10 (c1)`: the cell and its square.
    fn name(&self, idx: u32) -> String {
        format!("{} ({})", self.cell_ref(idx), self.square(idx))
    }

    /// A problem about the cells at `idxs` (at most [`MAX_CELLS_PER_PROBLEM`] are kept), with
    /// their squares.
    fn problem(&self, kind: ProblemKind, idxs: &[u32], message: String) -> Problem {
        let idxs = &idxs[..idxs.len().min(MAX_CELLS_PER_PROBLEM)];
        Problem {
            kind,
            cells: idxs.iter().map(|&i| self.cell_ref(i)).collect(),
            squares: idxs.iter().map(|&i| self.square(i)).collect(),
            message,
            numbers: Vec::new(),
        }
    }
}

/// Check the board in `grid`. `detect_ragged` is off when the user gave the range; `base` is
/// the first move's number (1, or 0 for tours numbered 0..N-1); squares holding `unvisited`
/// (0 or -1, where a program marks them so) count as blank.
pub(crate) fn check_board(
    grid: &BlockGrid<'_>,
    formats_known: bool,
    detect_ragged: bool,
    base: u8,
    unvisited: Option<i64>,
) -> Checked {
    let detect_ragged = detect_ragged && unvisited.is_none();
    let range = grid.range;
    let (rows, cols) = (range.rows(), range.cols());
    let sq = Squares { grid, cols, rows };
    // Move numbers are counted from 1 inside; `shown` gives the number the person wrote.
    let shift = 1 - i64::from(base);
    let shown = |m: u64| m as i64 - shift;
    // Kinds are read from the grid when needed, not held: a million of them cost 16 MB.
    let total = rows as usize * cols as usize;
    let kind_at = |i: u32| match grid.kind(i / cols, i % cols) {
        Kind::Int(v) if Some(v) == unvisited => Kind::Blank,
        k => k,
    };
    // A board is ragged (a short row or column) only when its blanks are all at the edge and
    // fewer than its filled cells; a board with blanks inside as well is a failed attempt whose
    // edge blanks are squares.
    let blank_count = (0..total as u32)
        .filter(|&i| kind_at(i) == Kind::Blank)
        .count();
    // A ragged board is mostly filled (a short row, a missing corner); a sparse failed attempt
    // has blanks at the ends of its rows and columns too, and is not ragged.
    let ragged = if detect_ragged && blank_count > 0 && blank_count * 2 < total {
        let edge = ragged_cells(grid, formats_known);
        if edge.len() == blank_count {
            edge
        } else {
            Vec::new()
        }
    } else {
        Vec::new()
    };
    let mut is_square = vec![true; total];
    for &i in &ragged {
        is_square[i as usize] = false;
    }
    let n = (total - ragged.len()) as u64;
    let mut problems = Problems::default();
    if !ragged.is_empty() {
        problems.push(not_rectangular(&sq, range, &ragged));
    }

    // Where each number is; duplicates; bad cells.
    let mut pos = vec![NONE; n as usize + 1];
    let mut dups: HashMap<u64, Vec<u32>> = HashMap::new();
    let mut holes: Vec<u32> = Vec::new();
    let mut blanks: Vec<u32> = Vec::new();
    for i in 0..total as u32 {
        if !is_square[i as usize] {
            continue;
        }
        let kind = match kind_at(i) {
            Kind::Int(v) => Kind::Int(v.saturating_add(shift)),
            other => other,
        };
        match kind {
            Kind::Int(v) if v >= 1 && (v as u64) <= n => {
                let slot = &mut pos[v as usize];
                if *slot == NONE {
                    *slot = i;
                } else {
                    dups.entry(v as u64).or_insert_with(|| vec![*slot]).push(i);
                }
            }
            Kind::Int(v) => {
                holes.push(i);
                problems.push(
                    sq.problem(
                        ProblemKind::OutOfRange,
                        &[i],
                        format!(
                            "{} holds {}, outside {}..{}",
                            sq.name(i),
                            v - shift,
                            shown(1),
                            shown(n)
                        ),
                    )
                    .about(vec![v - shift]),
                );
            }
            Kind::NonInt(f) => {
                holes.push(i);
                problems.push(sq.problem(
                    ProblemKind::NonInteger,
                    &[i],
                    format!("{} holds {f}, which is not a whole number", sq.name(i)),
                ));
            }
            Kind::Text => {
                holes.push(i);
                let value = grid.cell(i / cols, i % cols).and_then(|c| c.value);
                problems.push(sq.problem(
                    ProblemKind::TextCell,
                    &[i],
                    format!(
                        "{} holds {} where a move number belongs",
                        sq.name(i),
                        describe(value)
                    ),
                ));
            }
            Kind::Blank => blanks.push(i),
        }
    }
    let mut dup_list: Vec<(u64, Vec<u32>)> = dups.into_iter().collect();
    dup_list.sort();
    resolve_duplicates(&mut pos, &dup_list, cols, &mut holes);
    for (v, cells) in &dup_list {
        let listed: Vec<String> = cells
            .iter()
            .take(MAX_CELLS_IN_MESSAGE)
            .map(|&i| sq.name(i))
            .collect();
        let more = match cells.len() - listed.len() {
            0 => String::new(),
            m => format!(" and {} more", thousands(m)),
        };
        problems.push(
            sq.problem(
                ProblemKind::DuplicateNumber,
                cells,
                format!(
                    "{} appears {} times: at {}{more}",
                    shown(*v),
                    thousands(cells.len()),
                    listed.join(", ")
                ),
            )
            .about(vec![shown(*v)]),
        );
    }

    let missing = missing_ranges(&pos);
    let k = match missing.first() {
        Some(&(a, _)) => a - 1,
        None => n,
    };
    let clean = problems.is_empty() && dup_list.is_empty();
    let partial_shaped = clean && k >= 1 && k < n && missing.len() == 1 && missing[0].1 == n;
    let complete = clean && missing.is_empty();

    // A blank square is still empty, not a mistake: the numbers no square holds then are
    // those not typed yet (and, beyond them, knock-ons of the mistakes listed: a number typed
    // twice leaves another out). Only a board without a blank square lists its missing numbers.
    if !partial_shaped && !complete && blanks.is_empty() {
        holes.sort_unstable();
        let missing_count: u64 = missing.iter().map(|&(a, b)| b - a + 1).sum();
        for &(a, b) in &missing {
            let what = if a == b {
                format!("{} is missing: no square of the board holds it", shown(a))
            } else {
                format!(
                    "the numbers {}..{} are missing: no square of the board holds them",
                    shown(a),
                    shown(b)
                )
            };
            let (cells, hint) = if missing_count == holes.len() as u64 && holes.len() == 1 {
                (
                    &holes[..1],
                    format!(" (perhaps it belongs in {})", sq.name(holes[0])),
                )
            } else {
                (&[][..], String::new())
            };
            problems.push(
                sq.problem(ProblemKind::MissingNumber, cells, format!("{what}{hint}"))
                    .about(vec![shown(a), shown(b)]),
            );
        }
    }

    // Knight moves between consecutive numbers that are both present. A number typed twice
    // fits when any of its cells does; `pos` holds one of them, so a knight's move between
    // `pos` entries settles it without looking further (and without allocating: a board with
    // one duplicate used to build two lists per move).
    let cells_of = |v: u64| -> &[u32] {
        match dup_list.binary_search_by_key(&v, |(d, _)| *d) {
            Ok(at) => &dup_list[at].1,
            Err(_) => std::slice::from_ref(&pos[v as usize]),
        }
    };
    let at = |i: u32| Square::new(i / cols, i % cols);
    let mut bad_moves = 0usize;
    for v in 1..n {
        if pos[v as usize] == NONE || pos[v as usize + 1] == NONE {
            continue;
        }
        let (pa, pb) = (pos[v as usize], pos[v as usize + 1]);
        if at(pa).is_knight_move(at(pb)) {
            continue;
        }
        let (a, b) = (cells_of(v), cells_of(v + 1));
        let fits = a
            .iter()
            .any(|&x| b.iter().any(|&y| at(x).is_knight_move(at(y))));
        if !fits {
            bad_moves += 1;
            problems.push(
                sq.problem(
                    ProblemKind::NotAKnightMove,
                    &[a[0], b[0]],
                    format!(
                        "move {} at {} -> move {} at {} is not a knight's move",
                        shown(v),
                        sq.name(a[0]),
                        shown(v + 1),
                        sq.name(b[0])
                    ),
                )
                .about(vec![shown(v), shown(v + 1)]),
            );
        }
    }

    let present = (1..=n).filter(|&v| pos[v as usize] != NONE).count();
    let start = (pos.len() > 1 && pos[1] != NONE).then(|| sq.cell_ref(pos[1]));
    let start_square = (pos.len() > 1 && pos[1] != NONE).then(|| sq.square(pos[1]));
    let verdict = if bad_moves == 0 && complete {
        let (first, lastsq) = (at(pos[1]), at(pos[n as usize]));
        if n > 1 && first.is_knight_move(lastsq) {
            Verdict::Closed
        } else {
            Verdict::Open
        }
    } else if bad_moves == 0 && partial_shaped {
        Verdict::Partial
    } else if clean && bad_moves == 0 && !blanks.is_empty() {
        Verdict::Unfinished
    } else {
        Verdict::Invalid
    };
    // The last move: the highest number present, but on a board still being filled in (empty
    // squares, not a failed attempt 1..k) only the last number of all: the highest typed so
    // far ends nothing.
    let last = match verdict {
        Verdict::Unfinished | Verdict::Invalid if !blanks.is_empty() => {
            Some(n).filter(|&v| pos[v as usize] != NONE)
        }
        _ => (1..=n).rev().find(|&v| pos[v as usize] != NONE),
    };
    let end = last.map(|v| sq.cell_ref(pos[v as usize]));
    let end_square = last.map(|v| sq.square(pos[v as usize]));
    let tour = match verdict {
        Verdict::Closed | Verdict::Open | Verdict::Partial => Board::new(rows, cols)
            .ok()
            // Every square was checked above: on the board, once each, knight moves between.
            .map(|board| Tour::from_indices_unchecked(board, pos[1..=k as usize].to_vec())),
        _ => None,
    };
    let unbroken = match verdict {
        Verdict::Invalid => unbroken(&pos, &dup_list, cols, rows),
        _ => None,
    };
    let start_highlighted = formats_known
        .then(|| start.map(|s| highlighted(grid, s)))
        .flatten();
    let (problems, not_listed) = problems.finish();
    Checked {
        verdict,
        problems,
        not_listed,
        moves: present,
        empty: blanks.len(),
        start,
        end,
        start_square,
        end_square,
        start_highlighted,
        tour,
        unbroken,
    }
}

/// Moves 1, 2, ... up to the first break (a number missing or typed twice, or a jump) as a
/// path on the board; `None` when move 1 is already missing or typed twice.
fn unbroken(pos: &[u32], dups: &[(u64, Vec<u32>)], cols: u32, rows: u32) -> Option<Tour> {
    let at = |i: u32| Square::new(i / cols, i % cols);
    let is_dup = |v: usize| dups.binary_search_by_key(&(v as u64), |(d, _)| *d).is_ok();
    let mut path: Vec<u32> = Vec::new();
    for (v, &here) in pos.iter().enumerate().skip(1) {
        let joins = path.last().is_none_or(|&p| at(p).is_knight_move(at(here)));
        if here == NONE || is_dup(v) || !joins {
            break;
        }
        path.push(here);
    }
    if path.is_empty() {
        return None;
    }
    // Block-relative indices are the board's (row * cols + col), and each step was checked.
    Board::new(rows, cols)
        .ok()
        .map(|board| Tour::from_indices_unchecked(board, path))
}

/// For each duplicated number keep, in `pos`, the cell that best fits its neighbours' cells
/// (knight moves to the cells of v-1 and v+1); the others become holes (likely typos).
fn resolve_duplicates(pos: &mut [u32], dups: &[(u64, Vec<u32>)], cols: u32, holes: &mut Vec<u32>) {
    let at = |i: u32| Square::new(i / cols, i % cols);
    let is_dup = |v: u64| dups.binary_search_by_key(&v, |(d, _)| *d).is_ok();
    for (v, cells) in dups {
        let v = *v;
        let neighbour = |w: u64| {
            (w >= 1 && (w as usize) < pos.len() && !is_dup(w) && pos[w as usize] != NONE)
                .then(|| pos[w as usize])
        };
        let score = |x: u32| {
            [v.wrapping_sub(1), v + 1]
                .into_iter()
                .filter_map(neighbour)
                .filter(|&y| at(x).is_knight_move(at(y)))
                .count()
        };
        let best = cells
            .iter()
            .copied()
            .max_by_key(|&x| (score(x), std::cmp::Reverse(x)))
            .unwrap_or(cells[0]);
        pos[v as usize] = best;
        holes.extend(cells.iter().copied().filter(|&x| x != best));
    }
}

/// Blank cells that make the block ragged: at the end of their row's run of filled cells and
/// at the end of their column's, and (where formatting is known) not bordered as the board is.
fn ragged_cells(grid: &BlockGrid<'_>, formats_known: bool) -> Vec<u32> {
    let (rows, cols) = (grid.range.rows(), grid.range.cols());
    let filled = |r: u32, c: u32| grid.kind(r, c) != Kind::Blank;
    let mut row_span = vec![None; rows as usize];
    let mut col_span: Vec<Option<(u32, u32)>> = vec![None; cols as usize];
    for r in 0..rows {
        for c in 0..cols {
            if filled(r, c) {
                let rs: &mut Option<(u32, u32)> = &mut row_span[r as usize];
                *rs = Some(rs.map_or((c, c), |(a, _)| (a, c)));
                let cs = &mut col_span[c as usize];
                *cs = Some(cs.map_or((r, r), |(a, _)| (a, r)));
            }
        }
    }
    let outside = |span: Option<(u32, u32)>, x: u32| span.is_none_or(|(a, b)| x < a || x > b);
    let mut out = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            if filled(r, c) {
                continue;
            }
            let bordered = formats_known && grid.cell(r, c).is_some_and(|x| x.format.bordered);
            if !bordered && outside(row_span[r as usize], c) && outside(col_span[c as usize], r) {
                out.push(r * cols + c);
            }
        }
    }
    out
}

fn not_rectangular(sq: &Squares<'_, '_>, range: CellRange, ragged: &[u32]) -> Problem {
    let names: Vec<String> = ragged
        .iter()
        .take(MAX_CELLS_PER_PROBLEM)
        .map(|&i| sq.cell_ref(i).to_string())
        .collect();
    let shown = names.iter().take(8).cloned().collect::<Vec<_>>().join(", ");
    let more = if ragged.len() > 8 {
        format!(" and {} more", thousands(ragged.len() - 8))
    } else {
        String::new()
    };
    sq.problem(
        ProblemKind::NotRectangular,
        ragged,
        format!(
            "the board is not rectangular: its rows or columns have different lengths ({shown}{more} empty at the edge of {range})"
        ),
    )
}

/// Ranges `(a, b)` of numbers in 1..n that no square holds.
fn missing_ranges(pos: &[u32]) -> Vec<(u64, u64)> {
    let mut out: Vec<(u64, u64)> = Vec::new();
    for (v, &p) in pos.iter().enumerate().skip(1) {
        if p != NONE {
            continue;
        }
        let v = v as u64;
        match out.last_mut() {
            Some(last) if last.1 + 1 == v => last.1 = v,
            _ => out.push((v, v)),
        }
    }
    out
}

/// Whether the start cell has a fill that fewer than half of the board's squares share (on a
/// board of one square, any fill but white).
fn highlighted(grid: &BlockGrid<'_>, start: CellRef) -> bool {
    let o = grid.range.first;
    let (r, c) = (start.row - o.row, start.col - o.col);
    let Some(fill) = grid.cell(r, c).and_then(|x| x.format.fill) else {
        return false;
    };
    if fill == 0xFF_FFFF {
        return false;
    }
    let cols = grid.range.cols();
    let total = grid.range.rows() as usize * cols as usize;
    let same = (0..total as u32)
        .filter(|&i| {
            grid.cell(i / cols, i % cols)
                .and_then(|x| x.format.fill)
                .is_some_and(|f| f == fill)
        })
        .count();
    same * 2 < total || total == 1
}
