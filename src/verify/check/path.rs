//! Judging a tour written entry by entry (squares, coordinates, one cell) on its board.
//!
//! Verdicts are the grid's: a repeated square is a `duplicate-number`, a jump a
//! `not-a-knight-move`, a square off the board `out-of-range`, and a path as long as the board
//! that misses squares names them (`missing-number`). A path whose squares are all different
//! and a knight's move apart is `partial` until it covers the board.

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::board::{Board, Square};
use crate::tour::Tour;

use super::super::notation::{ListForm, PathCandidate};
use super::super::report::{Problem, ProblemKind, SquareName, Verdict};
use super::{Checked, MAX_CELLS_PER_PROBLEM, MAX_PROBLEMS_PER_KIND};

/// The entries being judged, on a board of `rows` x `cols`.
struct Entries<'p> {
    path: &'p PathCandidate,
    rows: u32,
    cols: u32,
}

impl Entries<'_> {
    /// `A5 (c2)` for an entry in a cell of its own, `move 5 (c2)` in a one-cell tour.
    fn name(&self, i: usize) -> String {
        match self.path.form {
            ListForm::OneCell => format!("move {} ({})", i + 1, self.path.squares[i]),
            _ => format!("{} ({})", self.path.cells[i], self.path.squares[i]),
        }
    }

    /// Where each square on the board is first named, and the squares named again with every
    /// entry naming them; a problem for each entry off the board.
    fn place(&self, problems: &mut Vec<Problem>) -> Placed {
        let (rows, cols) = (self.rows, self.cols);
        let mut first_at: HashMap<SquareName, usize> = HashMap::new();
        let mut dups: Vec<(SquareName, Vec<usize>)> = Vec::new();
        for (i, &sq) in self.path.squares.iter().enumerate() {
            if sq.on(rows, cols).is_none() {
                problems.push(Problem {
                    kind: ProblemKind::OutOfRange,
                    cells: vec![self.path.cells[i]],
                    squares: vec![sq],
                    message: format!(
                        "{} names a square off the {rows}x{cols} board",
                        self.name(i)
                    ),
                    numbers: vec![i as i64 + 1],
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
        Placed { first_at, dups }
    }

    /// A problem for each square named more than once.
    fn report_duplicates(&self, dups: &[(SquareName, Vec<usize>)], problems: &mut Vec<Problem>) {
        let path = self.path;
        for (sq, at) in dups {
            let cells: Vec<String> = at.iter().map(|&i| path.cells[i].to_string()).collect();
            let moves = at
                .iter()
                .map(|i| (i + 1).to_string())
                .collect::<Vec<_>>()
                .join(", ");
            let message = match path.form {
                ListForm::OneCell => format!("{sq} is listed {} times: moves {moves}", at.len()),
                _ => format!(
                    "{sq} is listed {} times: at {} (moves {moves})",
                    at.len(),
                    cells.join(", ")
                ),
            };
            problems.push(Problem {
                kind: ProblemKind::DuplicateNumber,
                cells: at.iter().map(|&i| path.cells[i]).collect(),
                squares: at.iter().map(|&i| path.squares[i]).collect(),
                message,
                numbers: at.iter().map(|&i| i as i64 + 1).collect(),
            });
        }
    }

    /// The squares no entry names, as one problem (on boards of at most 65,536 squares).
    fn missing_squares(&self, first_at: &HashMap<SquareName, usize>) -> Problem {
        let mut missing = Vec::new();
        for rank in (1..=self.rows).rev() {
            for file in 0..self.cols {
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
        missing.truncate(MAX_CELLS_PER_PROBLEM);
        Problem {
            kind: ProblemKind::MissingNumber,
            cells: Vec::new(),
            squares: missing,
            message: format!("no entry names {shown}{more}"),
            numbers: Vec::new(),
        }
    }

    /// A problem for each step that is not a knight's move (the first
    /// [`MAX_PROBLEMS_PER_KIND`], then one line counting the rest); the count not listed.
    fn report_bad_moves(&self, problems: &mut Vec<Problem>) -> BTreeMap<ProblemKind, usize> {
        let (path, squares) = (self.path, &self.path.squares);
        let mut bad_moves = 0;
        let mut not_listed = BTreeMap::new();
        for i in 1..squares.len() {
            let (a, b) = (squares[i - 1], squares[i]);
            if a.is_knight_move(b) {
                continue;
            }
            bad_moves += 1;
            if bad_moves > MAX_PROBLEMS_PER_KIND {
                *not_listed.entry(ProblemKind::NotAKnightMove).or_insert(0) += 1;
                continue;
            }
            let (from, to) = match path.form {
                ListForm::OneCell => (self.name(i - 1), self.name(i)),
                _ => (
                    format!("move {i} at {}", self.name(i - 1)),
                    format!("move {} at {}", i + 1, self.name(i)),
                ),
            };
            problems.push(Problem {
                kind: ProblemKind::NotAKnightMove,
                cells: vec![path.cells[i - 1], path.cells[i]],
                squares: vec![a, b],
                message: format!("{from} -> {to} is not a knight's move"),
                numbers: vec![i as i64, i as i64 + 1],
            });
        }
        if let Some(&count) = not_listed.get(&ProblemKind::NotAKnightMove) {
            problems.push(Problem {
                kind: ProblemKind::NotAKnightMove,
                cells: Vec::new(),
                squares: Vec::new(),
                message: format!("... and {count} more not-a-knight-move problems not listed"),
                numbers: Vec::new(),
            });
        }
        not_listed
    }
}

/// Where the squares are named: first, and again.
struct Placed {
    first_at: HashMap<SquareName, usize>,
    dups: Vec<(SquareName, Vec<usize>)>,
}

/// Judge `path` on a board of `rows` x `cols`.
pub(crate) fn check_path(path: &PathCandidate, (rows, cols): (u32, u32)) -> Checked {
    let n = u64::from(rows) * u64::from(cols);
    let squares = &path.squares;
    let entries = Entries { path, rows, cols };
    let mut problems = Vec::new();
    let Placed { first_at, dups } = entries.place(&mut problems);
    entries.report_duplicates(&dups, &mut problems);
    if squares.len() as u64 >= n && first_at.len() as u64 != n && n <= 1 << 16 {
        problems.push(entries.missing_squares(&first_at));
    }
    let not_listed = entries.report_bad_moves(&mut problems);
    let verdict = if !problems.is_empty() {
        Verdict::Invalid
    } else if squares.len() as u64 == n {
        let (a, b) = (squares[0], squares[squares.len() - 1]);
        if n > 1 && a.is_knight_move(b) {
            Verdict::Closed
        } else {
            Verdict::Open
        }
    } else {
        Verdict::Partial
    };
    let tour = match (verdict, Board::new(rows, cols)) {
        (Verdict::Invalid, _) | (_, Err(_)) => None,
        (_, Ok(board)) => {
            Tour::from_squares(board, squares.iter().filter_map(|s| s.on(rows, cols))).ok()
        }
    };
    let unbroken = match (verdict, Board::new(rows, cols)) {
        (Verdict::Invalid, Ok(board)) => unbroken(board, squares),
        _ => None,
    };
    let last = squares.len() - 1;
    Checked {
        verdict,
        problems,
        not_listed,
        moves: first_at.len(),
        empty: (rows as usize * cols as usize).saturating_sub(first_at.len()),
        start: Some(path.cells[0]),
        end: Some(path.cells[last]),
        start_square: Some(squares[0]),
        end_square: Some(squares[last]),
        start_highlighted: None,
        tour,
        unbroken,
    }
}

/// The entries from the first up to the first break (a square off the board or named again,
/// or a jump) as a path on `board`; `None` when the first entry is off the board.
fn unbroken(board: Board, squares: &[SquareName]) -> Option<Tour> {
    let mut path: Vec<Square> = Vec::new();
    let mut seen: HashSet<Square> = HashSet::new();
    for s in squares {
        let Some(sq) = s.on(board.rows(), board.cols()) else {
            break;
        };
        if !seen.insert(sq) || path.last().is_some_and(|p| !p.is_knight_move(sq)) {
            break;
        }
        path.push(sq);
    }
    (!path.is_empty())
        .then(|| Tour::from_squares(board, path).ok())
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workbook::cellref::{CellRange, CellRef};

    fn column(squares: &[&str]) -> PathCandidate {
        let cells: Vec<CellRef> = (0..squares.len() as u32)
            .map(|r| CellRef::new(r, 0))
            .collect();
        let footprint = CellRange::new(cells[0], cells[cells.len() - 1]);
        let squares = squares
            .iter()
            .map(|s| crate::verify::square::parse(s).unwrap())
            .collect();
        PathCandidate::new(ListForm::Squares, cells, squares, footprint)
    }

    #[test]
    fn a_tour_of_the_3x4_board_is_open() {
        let p = column(&[
            "a3", "c2", "a1", "b3", "d2", "b1", "c3", "d1", "b2", "d3", "c1", "a2",
        ]);
        let c = check_path(&p, p.board);
        assert_eq!(c.verdict, Verdict::Open, "{:?}", c.problems);
        assert_eq!(c.tour.unwrap().len(), 12);
    }

    #[test]
    fn repeats_and_jumps_name_the_cells() {
        let p = column(&["a3", "c2", "a1", "b3", "c2", "b1"]);
        let c = check_path(&p, p.board);
        assert_eq!(c.verdict, Verdict::Invalid);
        let dup = c
            .problems
            .iter()
            .find(|p| p.kind == ProblemKind::DuplicateNumber)
            .unwrap();
        assert_eq!(dup.cells, vec![CellRef::new(1, 0), CellRef::new(4, 0)]);
        assert!(c
            .problems
            .iter()
            .any(|p| p.kind == ProblemKind::NotAKnightMove && p.message.contains("A5 (c2)")));
    }
}
