//! Tours written as lists of squares: `e4`, `f6`, ... (a1 bottom-left, upper or lower case)
//! down a column or along a row, optionally beside move numbers.
//!
//! A run is a maximal line of consecutive cells that each hold a square name. It is a tour
//! attempt (a board) when it has at least [`MIN_LIST`] entries and at least half of its
//! consecutive entries are a knight's move apart, so a row of cell names (`A1`, `B1`, ...)
//! or a column of labels is not. Its board is the smallest a1-anchored board that holds every
//! square listed, unless the caller gives one (`--board-size`). Verdicts are the grid's:
//! a repeated square is a `duplicate-number`, a jump a `not-a-knight-move`, a square off the
//! given board `out-of-range`, and a list as long as the board that misses squares names them
//! (`missing-number`).

use std::collections::HashMap;

use crate::board::{Board, Square};
use crate::tour::Tour;
use crate::workbook::cellref::{CellRange, CellRef};
use crate::workbook::read::{CellValueRef, SheetCells};

use super::report::{BoardPosition, BoardReport, Notation, Problem, ProblemKind, Verdict};
use super::square::{self, SquareName};

/// The fewest entries a list needs to count as a tour attempt.
pub const MIN_LIST: usize = 3;

/// A run of square names on a sheet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ListRun {
    /// The cells in move order.
    pub(crate) cells: Vec<CellRef>,
    /// The squares named, in move order.
    pub(crate) squares: Vec<SquareName>,
}

impl ListRun {
    /// The whole run as a range.
    pub(crate) fn range(&self) -> CellRange {
        let first = self.cells[0];
        let last = self.cells[self.cells.len() - 1];
        CellRange::new(first, last)
    }

    fn knight_pairs(&self) -> usize {
        self.squares
            .windows(2)
            .filter(|w| {
                let (a, b) = (w[0], w[1]);
                let (df, dr) = (a.file.abs_diff(b.file), a.rank.abs_diff(b.rank));
                (df == 1 && dr == 2) || (df == 2 && dr == 1)
            })
            .count()
    }
}

/// Every run of square names on the sheet that reads as a tour attempt, in reading order.
pub(crate) fn find_lists(sheet: &SheetCells) -> Vec<ListRun> {
    let named: Vec<(u32, u32, SquareName)> = sheet
        .cells()
        .iter()
        .filter_map(|c| match c.value {
            Some(CellValueRef::Text(t)) => square::parse(t).map(|s| (c.row, c.col, s)),
            _ => None,
        })
        .collect();
    if named.len() < MIN_LIST {
        return Vec::new();
    }
    let mut runs = Vec::new();
    // Along rows: `named` is in row-major order.
    runs.extend(split_runs(named.iter().map(|&(r, c, s)| (r, c, s)), false));
    // Down columns.
    let mut by_col = named.clone();
    by_col.sort_by_key(|&(r, c, _)| (c, r));
    runs.extend(split_runs(by_col.iter().map(|&(r, c, s)| (c, r, s)), true));
    // A cell belongs to at most one run: the longer one wins.
    runs.sort_by_key(|r: &ListRun| std::cmp::Reverse(r.cells.len()));
    let mut taken: HashMap<CellRef, ()> = HashMap::new();
    let mut kept: Vec<ListRun> = Vec::new();
    for run in runs {
        if run.cells.iter().any(|c| taken.contains_key(c)) {
            continue;
        }
        for c in &run.cells {
            taken.insert(*c, ());
        }
        kept.push(run);
    }
    kept.sort_by_key(|r| r.cells[0]);
    kept
}

/// Split `(line, pos, square)` triples sorted by line then position into runs of consecutive
/// positions, keeping those that read as tours.
fn split_runs(items: impl Iterator<Item = (u32, u32, SquareName)>, vertical: bool) -> Vec<ListRun> {
    let mut out = Vec::new();
    let mut cur: Option<(u32, u32, ListRun)> = None;
    let cell = |line: u32, pos: u32| {
        if vertical {
            CellRef::new(pos, line)
        } else {
            CellRef::new(line, pos)
        }
    };
    let mut finish = |run: ListRun| {
        let pairs = run.squares.len() - 1;
        if run.squares.len() >= MIN_LIST && run.knight_pairs() * 2 >= pairs {
            out.push(run);
        }
    };
    for (line, pos, sq) in items {
        match &mut cur {
            Some((l, p, run)) if *l == line && *p + 1 == pos => {
                *p = pos;
                run.cells.push(cell(line, pos));
                run.squares.push(sq);
            }
            _ => {
                if let Some((_, _, run)) = cur.take() {
                    finish(run);
                }
                cur = Some((
                    line,
                    pos,
                    ListRun {
                        cells: vec![cell(line, pos)],
                        squares: vec![sq],
                    },
                ));
            }
        }
    }
    if let Some((_, _, run)) = cur {
        finish(run);
    }
    out
}

/// Judge a list: on `size` (rows, cols) when given, else on the smallest a1-anchored board
/// holding every square.
pub(crate) fn check_list(run: &ListRun, size: Option<(u32, u32)>) -> BoardReport {
    let (rows, cols) = size.unwrap_or_else(|| {
        let rows = run.squares.iter().map(|s| s.rank).max().unwrap_or(1);
        let cols = run.squares.iter().map(|s| s.file + 1).max().unwrap_or(1);
        (rows, cols)
    });
    let n = u64::from(rows) * u64::from(cols);
    let name = |i: usize| format!("{} ({})", run.cells[i], run.squares[i]);
    let mut problems = Vec::new();
    let mut first_at: HashMap<SquareName, usize> = HashMap::new();
    let mut dups: Vec<(SquareName, Vec<usize>)> = Vec::new();
    let on_board = |s: SquareName| s.rank <= rows && s.file < cols;
    for (i, &sq) in run.squares.iter().enumerate() {
        if !on_board(sq) {
            problems.push(Problem {
                kind: ProblemKind::OutOfRange,
                cells: vec![run.cells[i]],
                squares: vec![sq],
                message: format!("{} names a square off the {rows}x{cols} board", name(i)),
            });
            continue;
        }
        match first_at.get(&sq) {
            Some(&j) => match dups.iter_mut().find(|(s, _)| *s == sq) {
                Some((_, at)) => at.push(i),
                None => dups.push((sq, vec![j, i])),
            },
            None => {
                first_at.insert(sq, i);
            }
        }
    }
    for (sq, at) in &dups {
        let cells: Vec<String> = at.iter().map(|&i| run.cells[i].to_string()).collect();
        problems.push(Problem {
            kind: ProblemKind::DuplicateNumber,
            cells: at.iter().map(|&i| run.cells[i]).collect(),
            squares: at.iter().map(|&i| run.squares[i]).collect(),
            message: format!(
                "{sq} is listed {} times: at {} (moves {})",
                at.len(),
                cells.join(", "),
                at.iter()
                    .map(|i| (i + 1).to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        });
    }
    if run.squares.len() as u64 >= n && first_at.len() as u64 != n && n <= 1 << 16 {
        let mut missing = Vec::new();
        for rank in (1..=rows).rev() {
            for file in 0..cols {
                let sq = SquareName { file, rank };
                if !first_at.contains_key(&sq) {
                    missing.push(sq);
                }
            }
        }
        let shown = missing
            .iter()
            .take(8)
            .map(SquareName::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        let more = if missing.len() > 8 {
            format!(" and {} more", missing.len() - 8)
        } else {
            String::new()
        };
        missing.truncate(super::check::MAX_CELLS_PER_PROBLEM);
        problems.push(Problem {
            kind: ProblemKind::MissingNumber,
            cells: Vec::new(),
            squares: missing,
            message: format!("no entry names {shown}{more}"),
        });
    }
    let mut bad_moves = 0;
    let mut not_listed = std::collections::BTreeMap::new();
    for i in 1..run.squares.len() {
        let (a, b) = (run.squares[i - 1], run.squares[i]);
        let (df, dr) = (a.file.abs_diff(b.file), a.rank.abs_diff(b.rank));
        if !((df == 1 && dr == 2) || (df == 2 && dr == 1)) {
            bad_moves += 1;
            if bad_moves > super::check::MAX_PROBLEMS_PER_KIND {
                *not_listed.entry(ProblemKind::NotAKnightMove).or_insert(0) += 1;
            } else {
                problems.push(Problem {
                    kind: ProblemKind::NotAKnightMove,
                    cells: vec![run.cells[i - 1], run.cells[i]],
                    squares: vec![a, b],
                    message: format!(
                        "move {i} at {} -> move {} at {} is not a knight's move",
                        name(i - 1),
                        i + 1,
                        name(i)
                    ),
                });
            }
        }
    }
    let board = Board::new(rows, cols).ok();
    let to_square = |s: SquareName| Square::new(rows - s.rank, s.file);
    let verdict = if !problems.is_empty() {
        Verdict::Invalid
    } else if run.squares.len() as u64 == n {
        let (a, b) = (run.squares[0], run.squares[run.squares.len() - 1]);
        if n > 1 && to_square(a).is_knight_move(to_square(b)) {
            Verdict::Closed
        } else {
            Verdict::Open
        }
    } else {
        Verdict::Partial
    };
    let tour = match (verdict, board) {
        (Verdict::Invalid, _) | (_, None) => None,
        (_, Some(board)) => {
            Tour::from_squares(board, run.squares.iter().map(|&s| to_square(s))).ok()
        }
    };
    let last = run.cells.len() - 1;
    BoardReport {
        verdict,
        board: BoardPosition {
            top_left: run.cells[0],
            rows,
            cols,
        },
        moves: first_at.len(),
        start: Some(run.cells[0]),
        end: Some(run.cells[last]),
        start_highlighted: None,
        problems,
        problems_not_listed: not_listed,
        notation: Notation::List,
        start_square: Some(run.squares[0]),
        end_square: Some(run.squares[last]),
        numbering_from: 1,
        cells: Some(run.range()),
        stuck: (verdict == Verdict::Partial).then(|| tour.as_ref().is_some_and(Tour::is_stuck)),
        tour,
        drawing: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workbook::read::CellValue;

    fn sheet_col(col: u32, first_row: u32, squares: &[&str]) -> SheetCells {
        SheetCells::from_values(
            squares
                .iter()
                .enumerate()
                .map(|(i, s)| (first_row + i as u32, col, CellValue::Text((*s).into()))),
        )
    }

    #[test]
    fn a_list_down_a_column_is_found_and_judged() {
        // An open tour of the 3x4 board (rows 3, cols 4) written as squares.
        let s = sheet_col(
            2,
            1,
            &[
                "a3", "c2", "a1", "b3", "d2", "b1", "c3", "d1", "b2", "d3", "c1", "a2",
            ],
        );
        let runs = find_lists(&s);
        assert_eq!(runs.len(), 1);
        let r = check_list(&runs[0], None);
        assert_eq!(r.verdict, Verdict::Open, "{:?}", r.problems);
        assert_eq!((r.board.rows, r.board.cols), (3, 4));
        assert_eq!(r.cells.unwrap().to_string(), "C2:C13");
        assert_eq!(r.start_square.unwrap().to_string(), "a3");
    }

    #[test]
    fn cell_names_in_a_row_are_not_a_list() {
        let s = SheetCells::from_values(
            ["A1", "B1", "C1", "D1"]
                .iter()
                .enumerate()
                .map(|(i, t)| (0, i as u32, CellValue::Text((*t).into()))),
        );
        assert!(find_lists(&s).is_empty());
    }

    #[test]
    fn repeats_and_jumps_name_the_cells() {
        let s = sheet_col(0, 0, &["a3", "c2", "a1", "b3", "c2", "b1"]);
        let r = check_list(&find_lists(&s)[0], None);
        assert_eq!(r.verdict, Verdict::Invalid);
        let dup = r
            .problems
            .iter()
            .find(|p| p.kind == ProblemKind::DuplicateNumber)
            .unwrap();
        assert_eq!(dup.cells, vec![CellRef::new(1, 0), CellRef::new(4, 0)]);
        assert!(r
            .problems
            .iter()
            .any(|p| p.kind == ProblemKind::NotAKnightMove && p.message.contains("A5 (c2)")));
    }
}
