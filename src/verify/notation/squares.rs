//! Tours written as square names: `e4`, `f6`, ... (a1 bottom-left, upper or lower case,
//! perhaps with the knight's letter `Nf3`, a move number `12. e4` or words around them
//! `Move 12: Knight to E4`) one a cell down a column or along a row, optionally beside move
//! numbers; a whole tour in one cell (`e4 f6 g8 ...`, `c1-b3-a1-...`, `1. Nf3 2. Ng5 ...`);
//! or anything between, such as lines of a list pasted one a cell, several squares each, or
//! steps `a1 -> b3` one a cell. What each cell names is read by the text layer (`entries.rs`).
//!
//! A run is a maximal line of consecutive cells that each name a square; its moves are those
//! of its cells in order (the runs naming more first, each cell in one run). It is a
//! candidate when it reads as a tour attempt: at least
//! [`MIN_PATH`](super::MIN_PATH) moves, at least half of the steps knight's moves, so a row of
//! cell names (`A1`, `B1`, ...) or a column of labels is not. A run of one cell is a tour in
//! one cell ([`ListForm::OneCell`]). Entries that start with the knight's letter have two
//! readings (`Nd6` is the knight on d6, or file `nd`): both are proposed, and the selection
//! keeps the one whose board is not absurd.

use super::super::square::Readings;
use super::entries::{lists, Entries, List};
use super::{ListForm, PathCandidate};

/// Every run of square names on the sheet that reads as a tour attempt, each in every reading.
pub(crate) fn propose(entries: &[Entries]) -> Vec<PathCandidate> {
    lists(entries, |e| &e.squares[..], read)
}

/// The candidates one list gives: as written, and with the knight's letter read as a piece.
fn read(list: List<Readings>) -> Vec<PathCandidate> {
    let form = if list.one_cell {
        ListForm::OneCell
    } else {
        ListForm::Squares
    };
    let moves = &list.moves;
    let plain: Option<Vec<_>> = moves.iter().map(|r| r.plain).collect();
    let pieces = moves.iter().any(|r| r.piece.is_some());
    let piece: Option<Vec<_>> = pieces
        .then(|| moves.iter().map(|r| r.piece.or(r.plain)).collect())
        .flatten();
    [piece, plain]
        .into_iter()
        .flatten()
        .map(|squares| PathCandidate::new(form, list.cells.clone(), squares, list.footprint))
        .filter(PathCandidate::reads_as_tour)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workbook::read::{CellValue, SheetCells};

    fn propose(s: &SheetCells) -> Vec<PathCandidate> {
        super::propose(&super::super::entries::of_sheet(s))
    }

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

    #[test]
    fn a_tour_in_one_cell_with_any_separator_and_move_numbers() {
        let one = |text: &str| propose(&sheet_col(0, 1, &[text]));
        let spaces = &one("Tour: a1 b3 c1 a2 c3")[0];
        assert_eq!((spaces.squares.len(), spaces.board), (5, (3, 3)));
        assert_eq!(spaces.form, ListForm::OneCell);
        assert_eq!(one("c3-a2-c1-e2-f4")[0].squares[4].to_string(), "f4");
        assert_eq!(one("1. Nf3 2. Ng5 3. Ne4")[0].squares[0].to_string(), "f3");
        assert!(one("the knight starts on a1 and goes to b3 then c1").is_empty());
        assert!(one("a1 b3").is_empty());
        assert!(one("a1 a2 a3 a4 a5").is_empty());
    }

    #[test]
    fn lines_of_a_list_one_a_cell_are_one_list() {
        // Moves with words around them, and a wrapped list, one line a cell.
        let s = sheet_col(
            0,
            0,
            &[
                "Move 1: Knight to A3",
                "Move 2: Knight to C2",
                "Move 3: Knight to A1",
            ],
        );
        let found = propose(&s);
        assert_eq!((found.len(), found[0].form), (1, ListForm::Squares));
        let s = sheet_col(0, 0, &["a3 c2 a1 b3", "d2 b1 c3 d1", "b2 d3 c1 a2"]);
        let found = propose(&s);
        assert_eq!(found.len(), 1);
        assert_eq!((found[0].squares.len(), found[0].board), (12, (3, 4)));
        assert_eq!(found[0].footprint.to_string(), "A1:A3");
    }

    #[test]
    fn whole_tours_one_a_row_stay_apart() {
        // Two tours of 3x4 one a cell down a column, as `pairs -o p.csv` writes them.
        let tour = "a3 c2 a1 b3 d2 b1 c3 d1 b2 d3 c1 a2";
        let back: Vec<&str> = tour.split(' ').rev().collect();
        let s = sheet_col(4, 1, &[tour, &back.join(" ")]);
        let found = propose(&s);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found.iter().all(|p| p.form == ListForm::OneCell));
    }
}
