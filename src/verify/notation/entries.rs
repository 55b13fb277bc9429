//! The moves a cell's text names, read through the text layer ([`crate::verify`]'s
//! tokeniser): the entries of the lists that [`super::squares`] and [`super::coords`] read,
//! whether a cell holds one move (`e4`, `12. Nf3`, `(0,2)`, `Move 12: Knight to E4`) or a
//! whole tour (`e4 f6 g8 ...`, `c1-b3-a1`, `(7,6) (5,7) (6,5) ...`).
//!
//! In a cell naming one or two squares (or pairs), words may stand anywhere around them: the
//! program's phrasing, the piece's name, `from a1 to b3`. A cell naming three or more is a
//! tour written out, and words may only come before the first of them (`Tour: e4 f6 ...`):
//! a sentence that mentions squares is not a tour. Move numbers, arrows and dashes between
//! moves are separators everywhere.

use std::collections::HashSet;

use crate::workbook::cellref::{CellRange, CellRef};
use crate::workbook::read::SheetCells;

use super::super::square::{readings, Readings};
use super::super::tokens::{tokenise, Kind, Token};
use super::super::value::texts;
use super::PathCandidate;

/// The longest cell text read: a cell holds at most 32,767 characters in Excel, and a text
/// file's line is read whole.
const MAX_TEXT: usize = 16 * 1024 * 1024;

/// The moves one cell names, in the order written.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Entries {
    /// Its row.
    pub(crate) row: u32,
    /// Its column.
    pub(crate) col: u32,
    /// The squares it names, each in both readings (see [`Readings`]).
    pub(crate) squares: Vec<Readings>,
    /// The coordinate pairs it holds.
    pub(crate) pairs: Vec<(i64, i64)>,
    /// Its move number: the whole number before its first move, if any.
    pub(crate) number: Option<i64>,
    /// It has words besides its moves.
    pub(crate) wordy: bool,
}

/// Every text cell of the sheet that names a square or holds a coordinate pair, in row-major
/// order.
pub(crate) fn of_sheet(sheet: &SheetCells) -> Vec<Entries> {
    texts(sheet)
        .filter(|&(_, _, t)| t.len() <= MAX_TEXT)
        .map(|(row, col, t)| of_text(t, row, col))
        .filter(|e| !e.squares.is_empty() || !e.pairs.is_empty())
        .collect()
}

/// The moves one cell's text names.
fn of_text(text: &str, row: u32, col: u32) -> Entries {
    let mut out = Entries {
        row,
        col,
        ..Entries::default()
    };
    // A square name or a pair needs a letter and a digit, or a bracket.
    let b = text.as_bytes();
    if !b.iter().any(u8::is_ascii_digit) {
        return out;
    }
    let tokens = tokenise(text);
    if tokens.over {
        return out;
    }
    let lines: Vec<&str> = text.lines().collect();
    let word = |t: &Token| {
        lines
            .get(t.line as usize)
            .and_then(|l| l.get(t.start as usize..t.end as usize))
            .unwrap_or_default()
    };
    // Each token as a square (both readings), a pair, or something else (a word, or nothing
    // that matters: a number or a blank).
    #[derive(Clone, Copy, PartialEq)]
    enum Is {
        Square(Readings),
        Pair(i64, i64),
        Word,
        Other,
    }
    let read: Vec<Is> = tokens
        .tokens
        .iter()
        .map(|t| match t.kind {
            Kind::Word => {
                let r = readings(word(t));
                if r.any() {
                    Is::Square(r)
                } else {
                    Is::Word
                }
            }
            Kind::Pair(x, y) => Is::Pair(i64::from(x), i64::from(y)),
            Kind::Number(_) | Kind::Blank => Is::Other,
        })
        .collect();
    let squares: Vec<Readings> = read
        .iter()
        .filter_map(|x| match x {
            Is::Square(r) => Some(*r),
            _ => None,
        })
        .collect();
    let pairs: Vec<(i64, i64)> = read
        .iter()
        .filter_map(|x| match x {
            Is::Pair(a, b) => Some((*a, *b)),
            _ => None,
        })
        .collect();
    // The first whole number before the first move.
    let number = |first: Option<usize>| {
        tokens.tokens[..first.unwrap_or(0)]
            .iter()
            .find_map(|t| match t.kind {
                Kind::Number(f) if f >= 0.0 && f.fract() == 0.0 && f < 1e15 => Some(f as i64),
                _ => None,
            })
    };
    // Three moves or more are a tour written out: words only before the first (a caption).
    // One or two moves with words around them need their move number before them (`Move 12:
    // Knight to e4`), so that a sentence naming a cell or two is no move.
    let fits = |is_move: &dyn Fn(&Is) -> bool, moves: usize| {
        let first = read.iter().position(is_move);
        let words_before = |i: usize| first.is_none_or(|f| i < f);
        if moves >= 3 {
            return read
                .iter()
                .enumerate()
                .all(|(i, x)| *x != Is::Word || words_before(i));
        }
        !read.contains(&Is::Word) || number(first).is_some()
    };
    if fits(&|x| matches!(x, Is::Square(_)), squares.len()) {
        out.squares = squares;
    }
    if fits(&|x| matches!(x, Is::Pair(..)), pairs.len()) {
        out.pairs = pairs;
    }
    let first = read
        .iter()
        .position(|x| matches!(x, Is::Square(_) | Is::Pair(..)));
    out.number = number(first);
    out.wordy = read.contains(&Is::Word);
    out
}

/// A list read from a run of cells: its moves in order, the cell of each, and the cells it
/// spans.
pub(crate) struct List<T> {
    /// The moves, in the order written.
    pub(crate) moves: Vec<T>,
    /// The cell holding each move.
    pub(crate) cells: Vec<CellRef>,
    /// The run's first cell to its last.
    pub(crate) footprint: CellRange,
    /// The run is one cell: a tour in one cell.
    pub(crate) one_cell: bool,
}

/// The candidates of every list the cells of `entries` write, `moves` picking a cell's moves:
/// runs naming more moves first, each cell in one list at most (a run whose reading gives no
/// candidate leaves its cells to the others). Two cells of a run that each write a tour of
/// their own (three moves or more) are one list only when the second does not go over the
/// first's squares again: the lines of a wrapped list do not, the tours of a table one a row
/// (`pairs -o p.csv`) do. `read` turns a list of at least [`MIN_PATH`](super::MIN_PATH)
/// moves into candidates.
pub(crate) fn lists<T: Copy + Eq + std::hash::Hash>(
    entries: &[Entries],
    moves: impl Fn(&Entries) -> &[T],
    mut read: impl FnMut(List<T>) -> Vec<PathCandidate>,
) -> Vec<PathCandidate> {
    let held: Vec<&Entries> = entries.iter().filter(|e| !moves(e).is_empty()).collect();
    let mut taken: HashSet<(u32, u32)> = HashSet::new();
    let mut out = Vec::new();
    for run in runs(&held, |e| moves(e).len()) {
        let run: Vec<&Entries> = run.iter().map(|&i| held[i]).collect();
        let apart = |a: &Entries, b: &Entries| {
            let (a, b) = (moves(a), moves(b));
            if a.len() < super::MIN_PATH || b.len() < super::MIN_PATH {
                return false;
            }
            let seen: HashSet<&T> = a.iter().collect();
            let again = b.iter().filter(|m| seen.contains(m)).count();
            again >= 2 && 2 * again >= a.len().min(b.len())
        };
        for run in run.chunk_by(|a, b| !apart(a, b)) {
            if run.iter().any(|e| taken.contains(&(e.row, e.col))) {
                continue;
            }
            let (list, cells) = chain(run, &moves);
            if list.len() < super::MIN_PATH {
                continue;
            }
            let (first, last) = (run[0], run[run.len() - 1]);
            let found = read(List {
                moves: list,
                cells,
                footprint: CellRange::new(
                    CellRef::new(first.row, first.col),
                    CellRef::new(last.row, last.col),
                ),
                one_cell: run.len() == 1,
            });
            if !found.is_empty() {
                taken.extend(run.iter().map(|e| (e.row, e.col)));
                out.extend(found);
            }
        }
    }
    out
}

/// The runs of cells next to each other along a row (one cell or more) and down a column (two
/// or more) among `cells` (in row-major order), as indices into `cells`; the runs naming more
/// moves first (`moves` counts a cell's).
fn runs(cells: &[&Entries], moves: impl Fn(&Entries) -> usize) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut split = |order: &[usize], vertical: bool, min: usize| {
        let mut run: Vec<usize> = Vec::new();
        for &i in order {
            let next = run.last().is_some_and(|&j| {
                let (a, b) = (cells[j], cells[i]);
                if vertical {
                    a.col == b.col && a.row + 1 == b.row
                } else {
                    a.row == b.row && a.col + 1 == b.col
                }
            });
            if !next {
                if run.len() >= min {
                    out.push(std::mem::take(&mut run));
                }
                run.clear();
            }
            run.push(i);
        }
        if run.len() >= min {
            out.push(run);
        }
    };
    let along: Vec<usize> = (0..cells.len()).collect();
    split(&along, false, 1);
    let mut down = along;
    down.sort_by_key(|&i| (cells[i].col, cells[i].row));
    split(&down, true, 2);
    out.sort_by_cached_key(|run| {
        let n: usize = run.iter().map(|&i| moves(cells[i])).sum();
        (std::cmp::Reverse(n), std::cmp::Reverse(run.len()))
    });
    out
}

/// The moves of a run of cells in order, with the cell of each: a cell naming a step
/// (`a1 -> b3`) whose first square is the last one before it does not name it twice. Cells
/// with words around their moves (`Move 12: Knight to e4`) make a list only when their move
/// numbers count up by one: none when they do not.
fn chain<T: Copy + PartialEq>(
    run: &[&Entries],
    moves: impl Fn(&Entries) -> &[T],
) -> (Vec<T>, Vec<CellRef>) {
    let (mut out, mut cells) = (Vec::new(), Vec::new());
    let counted = run
        .windows(2)
        .all(|w| matches!((w[0].number, w[1].number), (Some(a), Some(b)) if b == a + 1));
    if run.len() > 1 && run.iter().any(|e| e.wordy) && !counted {
        return (out, cells);
    }
    for e in run {
        let mut m = moves(e);
        if m.len() >= 2 && out.last() == m.first() {
            m = &m[1..];
        }
        out.extend_from_slice(m);
        cells.extend(std::iter::repeat_n(CellRef::new(e.row, e.col), m.len()));
    }
    (out, cells)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn squares(text: &str) -> Vec<String> {
        of_text(text, 0, 0)
            .squares
            .iter()
            .map(|r| r.piece.or(r.plain).unwrap().to_string())
            .collect()
    }

    fn pairs(text: &str) -> Vec<(i64, i64)> {
        of_text(text, 0, 0).pairs
    }

    #[test]
    fn one_move_with_words_around_it() {
        assert_eq!(squares("e4"), ["e4"]);
        assert_eq!(squares("12. Nf3"), ["f3"]);
        assert_eq!(squares("Move 12: Knight to E4"), ["e4"]);
        assert_eq!(squares("1 a8 (0,0)"), ["a8"]);
        assert_eq!(pairs("1 a8 (0,0)"), [(0, 0)]);
        assert_eq!(squares("1: from a1 to b3"), ["a1", "b3"]);
        assert_eq!(squares("a1 -> b3"), ["a1", "b3"]);
        assert_eq!(pairs("Step 3: (2,4)"), [(2, 4)]);
        // Sentences naming a cell or two are no moves.
        assert!(squares("J5 (h6) holds the text 'x' where a move number belongs").is_empty());
        assert!(squares("G10 (e1) holds 99, outside 1..64").is_empty());
        assert!(squares("Knight to e4").is_empty());
    }

    #[test]
    fn runs_go_along_rows_and_down_columns_and_steps_chain() {
        let e = |row, col, text: &str| of_text(text, row, col);
        let cells = [
            e(0, 0, "1: a1 -> b3"),
            e(1, 0, "2: b3 -> c5"),
            e(2, 0, "3: c5 to d7"),
            e(2, 1, "x"),
        ];
        let refs: Vec<&Entries> = cells.iter().collect();
        let runs = runs(&refs, |e| e.squares.len());
        assert_eq!(runs[0], [0, 1, 2]);
        let run: Vec<&Entries> = runs[0].iter().map(|&i| refs[i]).collect();
        let (moves, at) = chain(&run, |e| &e.squares[..]);
        let names: Vec<String> = moves.iter().map(|r| r.plain.unwrap().to_string()).collect();
        assert_eq!(names, ["a1", "b3", "c5", "d7"]);
        assert_eq!(at[3].to_string(), "A3");
        // Sentences with squares, one a cell, are no list.
        let prose = [
            e(0, 0, "1 game opened e4 against me"),
            e(1, 0, "7 times she answered f6"),
            e(2, 0, "3 rounds later g8"),
        ];
        let refs: Vec<&Entries> = prose.iter().collect();
        assert!(chain(&refs, |e| &e.squares[..]).0.is_empty());
    }

    #[test]
    fn a_tour_in_one_cell_has_words_only_before_it() {
        assert_eq!(squares("Tour: a1 b3 c1"), ["a1", "b3", "c1"]);
        assert_eq!(squares("1. Nf3 2. Ng5 3. Ne4"), ["f3", "g5", "e4"]);
        assert_eq!(
            squares("c3-a2-c1 -> e2 → f4"),
            ["c3", "a2", "c1", "e2", "f4"]
        );
        assert!(squares("the knight goes a1 then b3 and c1").is_empty());
        assert_eq!(pairs("(7,6) (5,7) (6,5)"), [(7, 6), (5, 7), (6, 5)]);
        assert_eq!(pairs("[[0,0],[1,2],[2,4]]"), [(0, 0), (1, 2), (2, 4)]);
        assert!(pairs("(0,0) and (1,2) and (2,4)").is_empty());
        assert!(squares("Solved in 12 moves").is_empty());
    }
}
