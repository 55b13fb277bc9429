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

/// How a block's numbers are read: what the reader knows of the file and what the person said.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Reading {
    /// The file records cell formats (fills, borders): a highlighted start can be looked for,
    /// and a bordered blank is a square of the board, not a ragged edge.
    pub(crate) formats_known: bool,
    /// Whether a short row or column is reported as such; off when the user gave the range.
    pub(crate) detect_ragged: bool,
    /// The first move's number: 1, or 0 for tours numbered 0..N-1.
    pub(crate) base: u8,
    /// What a program marks unvisited squares with (0 or -1), read as blank.
    pub(crate) unvisited: Option<i64>,
}

/// The block being judged: names its cells by their block-relative linear index
/// (`row * cols + col`) and reads their numbers as move numbers.
struct Squares<'g, 'a> {
    grid: &'g BlockGrid<'a>,
    /// Columns of the block.
    cols: u32,
    /// Rows of the block.
    rows: u32,
    /// Added to a typed number to count moves from 1 inside (`1 - base`).
    shift: i64,
    /// Read as blank: see [`Reading::unvisited`].
    unvisited: Option<i64>,
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

    /// Cells of the block.
    fn total(&self) -> usize {
        self.rows as usize * self.cols as usize
    }

    /// The kind of the cell at `i`, an unvisited mark as blank. Kinds are read from the grid
    /// when needed, not held: a million of them cost 16 MB.
    #[inline]
    fn kind_at(&self, i: u32) -> Kind {
        match self.grid.kind_at(i) {
            Kind::Int(v) if Some(v) == self.unvisited => Kind::Blank,
            k => k,
        }
    }

    /// The number the person wrote for move `m` (counted from 1 inside).
    fn shown(&self, m: u64) -> i64 {
        m as i64 - self.shift
    }

    fn at(&self, i: u32) -> Square {
        Square::new(i / self.cols, i % self.cols)
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

/// Where the numbers are: `pos[v]` the cell of move `v` (1..=n, [`NONE`] where no square
/// holds it), the numbers typed more than once with all their cells, the cells holding
/// something else than a move number, and the blank squares.
struct Placed {
    pos: Vec<u32>,
    dups: Vec<(u64, Vec<u32>)>,
    holes: Vec<u32>,
    blanks: Vec<u32>,
}

impl Placed {
    /// Squares of the board (the cells less a ragged edge).
    fn n(&self) -> u64 {
        self.pos.len() as u64 - 1
    }

    fn has(&self, v: u64) -> bool {
        self.pos[v as usize] != NONE
    }

    /// The cells of move `v`: all of them for a number typed twice.
    fn cells_of(&self, v: u64) -> &[u32] {
        match self.dups.binary_search_by_key(&v, |(d, _)| *d) {
            Ok(at) => &self.dups[at].1,
            Err(_) => std::slice::from_ref(&self.pos[v as usize]),
        }
    }
}

/// What the numbers add up to, for the verdict.
struct Tally {
    /// No problem but knight moves so far (none out of range, typed twice, ...).
    clean: bool,
    /// Every number 1..=n is on the board.
    complete: bool,
    /// Shaped as a failed attempt: 1..k present, k+1..n all absent.
    partial_shaped: bool,
    /// The last move of an unbroken run from 1.
    k: u64,
    /// Consecutive numbers not a knight's move apart.
    bad_moves: usize,
}

/// Check the board in `grid`, read as `reading` says.
pub(crate) fn check_board(grid: &BlockGrid<'_>, reading: Reading) -> Checked {
    let sq = Squares {
        grid,
        cols: grid.range.cols(),
        rows: grid.range.rows(),
        shift: 1 - i64::from(reading.base),
        unvisited: reading.unvisited,
    };
    let mut problems = Problems::default();
    let ragged = ragged_edge(&sq, reading);
    if !ragged.is_empty() {
        problems.push(not_rectangular(&sq, grid.range, &ragged));
    }
    let mut placed = place_numbers(&sq, &ragged, &mut problems);
    resolve_duplicates(&mut placed.pos, &placed.dups, sq.cols, &mut placed.holes);
    report_duplicates(&sq, &placed.dups, &mut problems);
    let n = placed.n();
    let missing = missing_ranges(&placed.pos);
    let k = match missing.first() {
        Some(&(a, _)) => a - 1,
        None => n,
    };
    let clean = problems.is_empty() && placed.dups.is_empty();
    let partial_shaped = clean && k >= 1 && k < n && missing.len() == 1 && missing[0].1 == n;
    let complete = clean && missing.is_empty();
    // A blank square is still empty, not a mistake: the numbers no square holds then are
    // those not typed yet (and, beyond them, knock-ons of the mistakes listed: a number typed
    // twice leaves another out). Only a board without a blank square lists its missing numbers.
    if !partial_shaped && !complete && placed.blanks.is_empty() {
        report_missing(&sq, &missing, &mut placed.holes, &mut problems);
    }
    let bad_moves = report_bad_moves(&sq, &placed, &mut problems);
    let tally = Tally {
        clean,
        complete,
        partial_shaped,
        k,
        bad_moves,
    };
    conclude(&sq, &placed, &tally, reading, problems)
}

/// The cells of a ragged edge (a short row or column), or none. A board is ragged only when
/// its blanks are all at the edge and fewer than its filled cells: a ragged board is mostly
/// filled (a short row, a missing corner), while a sparse failed attempt has blanks at the ends
/// of its rows and columns too, and a board with blanks inside as well is a failed attempt
/// whose edge blanks are squares.
fn ragged_edge(sq: &Squares<'_, '_>, reading: Reading) -> Vec<u32> {
    if !reading.detect_ragged || reading.unvisited.is_some() {
        return Vec::new();
    }
    let total = sq.total();
    let blank_count = (0..total as u32)
        .filter(|&i| sq.kind_at(i) == Kind::Blank)
        .count();
    if blank_count == 0 || blank_count * 2 >= total {
        return Vec::new();
    }
    let edge = ragged_cells(sq.grid, reading.formats_known);
    if edge.len() == blank_count {
        edge
    } else {
        Vec::new()
    }
}

/// Finds each number's cell, and reports the cells that hold no move number (out of range,
/// not whole, text).
fn place_numbers(sq: &Squares<'_, '_>, ragged: &[u32], problems: &mut Problems) -> Placed {
    let total = sq.total();
    let mut is_square = vec![true; total];
    for &i in ragged {
        is_square[i as usize] = false;
    }
    let n = (total - ragged.len()) as u64;
    let mut pos = vec![NONE; n as usize + 1];
    let mut dups: HashMap<u64, Vec<u32>> = HashMap::new();
    let mut holes: Vec<u32> = Vec::new();
    let mut blanks: Vec<u32> = Vec::new();
    for i in 0..total as u32 {
        if !is_square[i as usize] {
            continue;
        }
        let kind = match sq.kind_at(i) {
            Kind::Int(v) => Kind::Int(v.saturating_add(sq.shift)),
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
            Kind::Blank => blanks.push(i),
            other => {
                holes.push(i);
                problems.push(not_a_move_number(sq, i, other, n));
            }
        }
    }
    let mut dups: Vec<(u64, Vec<u32>)> = dups.into_iter().collect();
    dups.sort();
    Placed {
        pos,
        dups,
        holes,
        blanks,
    }
}

/// The problem with cell `i`, which holds `kind` (shifted to count from 1) where a move number
/// of 1..=n belongs.
fn not_a_move_number(sq: &Squares<'_, '_>, i: u32, kind: Kind, n: u64) -> Problem {
    match kind {
        Kind::Int(v) => sq
            .problem(
                ProblemKind::OutOfRange,
                &[i],
                format!(
                    "{} holds {}, outside {}..{}",
                    sq.name(i),
                    v - sq.shift,
                    sq.shown(1),
                    sq.shown(n)
                ),
            )
            .about(vec![v - sq.shift]),
        Kind::NonInt(f) => sq.problem(
            ProblemKind::NonInteger,
            &[i],
            format!("{} holds {f}, which is not a whole number", sq.name(i)),
        ),
        Kind::Text | Kind::Blank => {
            let value = sq.grid.cell_at(i).and_then(|c| c.value);
            sq.problem(
                ProblemKind::TextCell,
                &[i],
                format!(
                    "{} holds {} where a move number belongs",
                    sq.name(i),
                    describe(value)
                ),
            )
        }
    }
}

/// One problem per number typed more than once, naming its cells.
fn report_duplicates(sq: &Squares<'_, '_>, dups: &[(u64, Vec<u32>)], problems: &mut Problems) {
    for (v, cells) in dups {
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
                    sq.shown(*v),
                    thousands(cells.len()),
                    listed.join(", ")
                ),
            )
            .about(vec![sq.shown(*v)]),
        );
    }
}

/// One problem per run of numbers no square holds; when exactly one is missing and exactly
/// one cell holds no move number, the number probably belongs there.
fn report_missing(
    sq: &Squares<'_, '_>,
    missing: &[(u64, u64)],
    holes: &mut [u32],
    problems: &mut Problems,
) {
    holes.sort_unstable();
    let missing_count: u64 = missing.iter().map(|&(a, b)| b - a + 1).sum();
    for &(a, b) in missing {
        let what = if a == b {
            format!(
                "{} is missing: no square of the board holds it",
                sq.shown(a)
            )
        } else {
            format!(
                "the numbers {}..{} are missing: no square of the board holds them",
                sq.shown(a),
                sq.shown(b)
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
                .about(vec![sq.shown(a), sq.shown(b)]),
        );
    }
}

/// Knight moves between consecutive numbers that are both present, a problem for each that is
/// not one; returns how many. A number typed twice fits when any of its cells does; `pos` holds
/// one of them, so a knight's move between `pos` entries settles it without looking further
/// (and without allocating: a board with one duplicate used to build two lists per move).
fn report_bad_moves(sq: &Squares<'_, '_>, placed: &Placed, problems: &mut Problems) -> usize {
    let pos = &placed.pos;
    let mut bad_moves = 0usize;
    // Each move's square worked out once, for its steps from the move before and to the next.
    let square = |v: u64| {
        pos.get(v as usize)
            .filter(|&&p| p != NONE)
            .map(|&p| sq.at(p))
    };
    let mut here = square(1);
    for v in 1..placed.n() {
        let next = square(v + 1);
        let (Some(a), Some(b)) = (std::mem::replace(&mut here, next), next) else {
            continue;
        };
        if a.is_knight_move(b) {
            continue;
        }
        let (a, b) = (placed.cells_of(v), placed.cells_of(v + 1));
        let fits = a
            .iter()
            .any(|&x| b.iter().any(|&y| sq.at(x).is_knight_move(sq.at(y))));
        if !fits {
            bad_moves += 1;
            problems.push(
                sq.problem(
                    ProblemKind::NotAKnightMove,
                    &[a[0], b[0]],
                    format!(
                        "move {} at {} -> move {} at {} is not a knight's move",
                        sq.shown(v),
                        sq.name(a[0]),
                        sq.shown(v + 1),
                        sq.name(b[0])
                    ),
                )
                .about(vec![sq.shown(v), sq.shown(v + 1)]),
            );
        }
    }
    bad_moves
}

/// The verdict the tally gives.
fn verdict(sq: &Squares<'_, '_>, placed: &Placed, tally: &Tally) -> Verdict {
    let n = placed.n();
    if tally.bad_moves == 0 && tally.complete {
        let (first, last) = (sq.at(placed.pos[1]), sq.at(placed.pos[n as usize]));
        if n > 1 && first.is_knight_move(last) {
            Verdict::Closed
        } else {
            Verdict::Open
        }
    } else if tally.bad_moves == 0 && tally.partial_shaped {
        Verdict::Partial
    } else if tally.clean && tally.bad_moves == 0 && !placed.blanks.is_empty() {
        Verdict::Unfinished
    } else {
        Verdict::Invalid
    }
}

/// The checked board: verdict, start and end, and the path when there is one.
fn conclude(
    sq: &Squares<'_, '_>,
    placed: &Placed,
    tally: &Tally,
    reading: Reading,
    problems: Problems,
) -> Checked {
    let (n, pos) = (placed.n(), &placed.pos);
    let verdict = verdict(sq, placed, tally);
    let present = (1..=n).filter(|&v| placed.has(v)).count();
    let first = (pos.len() > 1 && pos[1] != NONE).then_some(pos[1]);
    let start = first.map(|i| sq.cell_ref(i));
    // The last move: the highest number present, but on a board still being filled in (empty
    // squares, not a failed attempt 1..k) only the last number of all: the highest typed so
    // far ends nothing.
    let last = match verdict {
        Verdict::Unfinished | Verdict::Invalid if !placed.blanks.is_empty() => {
            Some(n).filter(|&v| placed.has(v))
        }
        _ => (1..=n).rev().find(|&v| placed.has(v)),
    };
    let tour = match verdict {
        Verdict::Closed | Verdict::Open | Verdict::Partial => Board::new(sq.rows, sq.cols)
            .ok()
            // Every square was checked above: on the board, once each, knight moves between.
            .map(|board| Tour::from_indices_unchecked(board, pos[1..=tally.k as usize].to_vec())),
        _ => None,
    };
    let unbroken = match verdict {
        Verdict::Invalid => unbroken(pos, &placed.dups, sq.cols, sq.rows),
        _ => None,
    };
    let start_highlighted = reading
        .formats_known
        .then(|| start.map(|s| highlighted(sq.grid, s)))
        .flatten();
    let (problems, not_listed) = problems.finish();
    Checked {
        verdict,
        problems,
        not_listed,
        moves: present,
        empty: placed.blanks.len(),
        start,
        end: last.map(|v| sq.cell_ref(pos[v as usize])),
        start_square: first.map(|i| sq.square(i)),
        end_square: last.map(|v| sq.square(pos[v as usize])),
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
            let bordered =
                formats_known && grid.format_at(r * cols + c).is_some_and(|f| f.bordered);
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
            grid.format_at(i)
                .and_then(|f| f.fill)
                .is_some_and(|f| f == fill)
        })
        .count();
    same * 2 < total || total == 1
}
