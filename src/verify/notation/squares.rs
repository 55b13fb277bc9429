//! Tours written as square names, one a cell: `e4`, `f6`, ... (a1 bottom-left, upper or lower
//! case, perhaps with the knight's letter `Nf3` or a move number `12. e4`) down a column or
//! along a row, optionally beside move numbers.
//!
//! A run is a maximal line of consecutive cells that each hold a square name. It is a
//! candidate when it reads as a tour attempt: at least [`MIN_PATH`](super::MIN_PATH) entries,
//! at least half of the steps knight's moves, so a row of cell names (`A1`, `B1`, ...) or a
//! column of labels is not. Entries that start with the
//! knight's letter have two readings (`Nd6` is the knight on d6, or file `nd`): both are
//! proposed, and the selection keeps the one whose board is not absurd.

use std::collections::HashSet;

use crate::workbook::cellref::{CellRange, CellRef};
use crate::workbook::read::{CellValueRef, SheetCells};

use super::super::square::{readings, Readings};
use super::{ListForm, PathCandidate};

/// Every run of square names on the sheet that reads as a tour attempt, each in every reading.
pub(crate) fn propose(sheet: &SheetCells) -> Vec<PathCandidate> {
    let named: Vec<(u32, u32, Readings)> = sheet
        .cells()
        .iter()
        .filter_map(|c| match c.value {
            Some(CellValueRef::Text(t)) if t.len() <= 24 => {
                let r = readings(t);
                r.any().then_some((c.row, c.col, r))
            }
            _ => None,
        })
        .collect();
    if named.len() < super::MIN_PATH {
        return Vec::new();
    }
    let mut runs: Vec<Vec<(CellRef, Readings)>> = Vec::new();
    // Along rows: `named` is in row-major order.
    runs.extend(split_runs(named.iter().map(|&(r, c, s)| (r, c, s)), false));
    // Down columns.
    let mut by_col = named;
    by_col.sort_by_key(|&(r, c, _)| (c, r));
    runs.extend(split_runs(by_col.iter().map(|&(r, c, s)| (c, r, s)), true));
    // A cell belongs to at most one run: the longer one wins.
    runs.sort_by_key(|r| std::cmp::Reverse(r.len()));
    let mut taken: HashSet<CellRef> = HashSet::new();
    let mut out = Vec::new();
    for run in runs {
        if run.iter().any(|(c, _)| taken.contains(c)) {
            continue;
        }
        let before = out.len();
        out.extend(read_run(&run));
        if out.len() > before {
            taken.extend(run.iter().map(|(c, _)| *c));
        }
    }
    out
}

/// The candidates one run gives: as written, and with the knight's letter read as a piece.
fn read_run(run: &[(CellRef, Readings)]) -> Vec<PathCandidate> {
    let cells: Vec<CellRef> = run.iter().map(|(c, _)| *c).collect();
    let footprint = CellRange::new(cells[0], cells[cells.len() - 1]);
    let plain: Option<Vec<_>> = run.iter().map(|(_, r)| r.plain).collect();
    let pieces = run.iter().any(|(_, r)| r.piece.is_some());
    let piece: Option<Vec<_>> = pieces
        .then(|| run.iter().map(|(_, r)| r.piece.or(r.plain)).collect())
        .flatten();
    [piece, plain]
        .into_iter()
        .flatten()
        .map(|squares| PathCandidate::new(ListForm::Squares, cells.clone(), squares, footprint))
        .filter(PathCandidate::reads_as_tour)
        .collect()
}

/// Split `(line, pos, readings)` triples sorted by line then position into runs of
/// consecutive positions of at least [`MIN_PATH`](super::MIN_PATH) cells.
fn split_runs(
    items: impl Iterator<Item = (u32, u32, Readings)>,
    vertical: bool,
) -> Vec<Vec<(CellRef, Readings)>> {
    let cell = |line: u32, pos: u32| {
        if vertical {
            CellRef::new(pos, line)
        } else {
            CellRef::new(line, pos)
        }
    };
    let mut out: Vec<Vec<(CellRef, Readings)>> = Vec::new();
    let mut cur: Vec<(CellRef, Readings)> = Vec::new();
    let mut last: Option<(u32, u32)> = None;
    for (line, pos, r) in items {
        let continues = last.is_some_and(|(l, p)| l == line && p + 1 == pos);
        if !continues && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        cur.push((cell(line, pos), r));
        last = Some((line, pos));
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out.retain(|r| r.len() >= super::MIN_PATH);
    out
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
    fn a_list_down_a_column_is_proposed() {
        // An open tour of the 3x4 board (rows 3, cols 4) written as squares.
        let s = sheet_col(
            2,
            1,
            &[
                "a3", "c2", "a1", "b3", "d2", "b1", "c3", "d1", "b2", "d3", "c1", "a2",
            ],
        );
        let found = propose(&s);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].board, (3, 4));
        assert_eq!(found[0].footprint.to_string(), "C2:C13");
        assert_eq!(found[0].squares[0].to_string(), "a3");
    }

    #[test]
    fn cell_names_in_a_row_are_not_a_list() {
        let s = SheetCells::from_values(
            ["A1", "B1", "C1", "D1"]
                .iter()
                .enumerate()
                .map(|(i, t)| (0, i as u32, CellValue::Text((*t).into()))),
        );
        assert!(propose(&s).is_empty());
    }

    #[test]
    fn the_knights_letter_gives_two_readings() {
        let s = sheet_col(1, 2, &["Nc2", "Na1", "Nb3", "Na5", "Nc4"]);
        let found = propose(&s);
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(found[0].squares[0].to_string(), "c2");
        assert_eq!(found[0].board, (5, 3));
        assert_eq!(found[1].squares[0].to_string(), "nc2");
    }
}
