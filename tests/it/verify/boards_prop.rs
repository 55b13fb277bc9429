//! Property tests for finding boards: a tour placed anywhere among random tables and notes
//! is found with the right verdict; k tours one blank row or column apart are k boards; a
//! list and a grid of the same path get the same verdict, and so do the same path written as
//! coordinates and in one cell.

use knights_tour::board::file_letters;
use knights_tour::verify::{verify_grid, Verdict, VerifyOptions};
use knights_tour::workbook::read::{CellValue, SheetCells};
use proptest::prelude::*;

use crate::support::CLOSED_8X8;

type Cells = Vec<(u32, u32, CellValue)>;

fn num(v: i64) -> CellValue {
    CellValue::Number(v as f64)
}

/// The closed 8x8 tour at (top, left), its numbers as typed (`swap` exchanges two moves).
fn tour_at(top: u32, left: u32, swap: Option<(usize, usize)>) -> Cells {
    let mut order: Vec<usize> = (0..64).collect();
    if let Some((a, b)) = swap {
        order.swap(a, b);
    }
    order
        .iter()
        .enumerate()
        .map(|(i, &k)| {
            let (r, c) = CLOSED_8X8[k];
            (top + r, left + c, num(i as i64 + 1))
        })
        .collect()
}

/// A table of statistics: a header of words, then rows of a year, a decimal, a word and a
/// small repeated count.
fn table(top: u32, left: u32, rows: u32, seed: u64) -> Cells {
    let mut out = Vec::new();
    for (c, h) in ["Year", "Rate", "Result", "Tries"].iter().enumerate() {
        out.push((top, left + c as u32, CellValue::Text((*h).into())));
    }
    for r in 1..=rows {
        let x = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(u64::from(r));
        out.push((top + r, left, num(1900 + (x % 120) as i64)));
        out.push((
            top + r,
            left + 1,
            CellValue::Number((x % 1000) as f64 / 7.0 + 0.5),
        ));
        let word = if x % 3 == 0 { "Solved" } else { "Stuck" };
        out.push((top + r, left + 2, CellValue::Text(word.into())));
        out.push((top + r, left + 3, num((x % 4) as i64)));
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A tour among random tables and notes, each a blank line away from the others, is the
    /// only board, at its place, with its verdict; the tables produce no problems.
    #[test]
    fn a_tour_among_tables_and_notes_is_found_with_its_verdict(
        top in 0u32..30,
        left in 0u32..30,
        above in 0u32..3,
        beside in 0u32..3,
        rows in 3u32..25,
        seed in any::<u64>(),
        broken in any::<bool>(),
        note in "[A-Za-z ]{1,20}",
    ) {
        let swap = broken.then_some((10, 30));
        let t = top + 30; // room above for a table
        let l = left + 10; // room at the left for notes
        let mut cells = tour_at(t, l, swap);
        // A table below the board, one to its right, one above (if it fits), notes beside.
        cells.extend(table(t + 8 + 1 + above, l, rows, seed));
        cells.extend(table(t, l + 8 + 1 + beside, rows, seed ^ 1));
        if rows + 1 < 30 - above {
            cells.extend(table(t - rows - 2 - above, l + 2, rows, seed ^ 2));
        }
        cells.push((t + 3, l - 2 - beside, CellValue::Text(note.clone().into())));
        cells.push((0, 0, CellValue::Text("Knight's tours".into())));
        let report = verify_grid("S", 0, &SheetCells::from_values(cells), &VerifyOptions::default());
        prop_assert_eq!(report.boards.len(), 1, "{:?}", report.boards.iter().map(|b| (b.verdict, b.board.top_left.to_string())).collect::<Vec<_>>());
        let b = &report.boards[0];
        prop_assert_eq!(b.board.top_left, knights_tour::workbook::cellref::CellRef::new(t, l));
        prop_assert_eq!((b.board.rows, b.board.cols), (8, 8));
        let want = if broken { Verdict::Invalid } else { Verdict::Closed };
        prop_assert_eq!(b.verdict, want, "{:?}", b.problems);
    }

    /// k tours side by side (or stacked), one blank column (row) apart, are k boards.
    #[test]
    fn k_tours_one_blank_line_apart_are_k_boards(
        k in 2u32..5,
        stacked in any::<bool>(),
        top in 0u32..5,
        left in 0u32..5,
        bad in proptest::option::of(0u32..5),
    ) {
        let mut cells = Vec::new();
        for i in 0..k {
            let (t, l) = if stacked { (top + 9 * i, left) } else { (top, left + 9 * i) };
            let swap = (bad == Some(i)).then_some((5, 40));
            cells.extend(tour_at(t, l, swap));
        }
        let report = verify_grid("S", 0, &SheetCells::from_values(cells), &VerifyOptions::default());
        prop_assert_eq!(report.boards.len(), k as usize);
        for (i, b) in report.boards.iter().enumerate() {
            let i = i as u32;
            let (t, l) = if stacked { (top + 9 * i, left) } else { (top, left + 9 * i) };
            prop_assert_eq!(b.board.top_left, knights_tour::workbook::cellref::CellRef::new(t, l));
            prop_assert_eq!((b.board.rows, b.board.cols), (8, 8));
            let want = if bad == Some(i) { Verdict::Invalid } else { Verdict::Closed };
            prop_assert_eq!(b.verdict, want);
        }
    }

    /// The same path written as a labelled grid and as a list of squares gets the same
    /// verdict: whole, cut short, or with two moves swapped.
    #[test]
    fn a_list_and_a_grid_of_the_same_path_agree(
        len in 3usize..=64,
        swap in proptest::option::of((0usize..64, 0usize..64)),
        vertical in any::<bool>(),
    ) {
        let mut path: Vec<(u32, u32)> = CLOSED_8X8[..len].to_vec();
        if let Some((a, b)) = swap {
            path.swap(a % len, b % len);
        }
        // The grid under a-h labels with ranks 8..1 on the left, at B2.
        let mut grid: Cells = Vec::new();
        for c in 0..8u32 {
            grid.push((0, 1 + c, CellValue::Text(file_letters(c).into())));
        }
        for r in 0..8u32 {
            grid.push((1 + r, 0, num(8 - i64::from(r))));
        }
        for (i, &(r, c)) in path.iter().enumerate() {
            grid.push((1 + r, 1 + c, num(i as i64 + 1)));
        }
        let g = verify_grid("G", 0, &SheetCells::from_values(grid), &VerifyOptions::default());
        // The list, with --board-size 8x8 (a cut-short path need not reach every edge).
        let list: Cells = path
            .iter()
            .enumerate()
            .map(|(i, &(r, c))| {
                let name = format!("{}{}", file_letters(c), 8 - r);
                let (row, col) = if vertical { (2 + i as u32, 3) } else { (3, 2 + i as u32) };
                (row, col, CellValue::Text(name.into()))
            })
            .collect();
        let options = VerifyOptions { board_size: Some((8, 8)), ..VerifyOptions::default() };
        let l = verify_grid("L", 0, &SheetCells::from_values(list), &options);
        let knight = |a: (u32, u32), b: (u32, u32)| {
            let (dr, dc) = (a.0.abs_diff(b.0), a.1.abs_diff(b.1));
            (dr == 1 && dc == 2) || (dr == 2 && dc == 1)
        };
        prop_assert_eq!(g.boards.len(), 1);
        // A list needs half of its steps to be knight's moves to be read at all.
        if l.boards.len() == 1 {
            prop_assert_eq!(l.boards[0].verdict, g.boards[0].verdict, "{:?} / {:?}", l.boards[0].problems, g.boards[0].problems);
            prop_assert_eq!((l.boards[0].board.rows, l.boards[0].board.cols), (8, 8));
        } else {
            let steps = path.windows(2).filter(|w| knight(w[0], w[1])).count();
            prop_assert!(steps * 2 < len - 1, "a list with {steps} knight steps was not read");
        }
        let valid = path.windows(2).all(|w| knight(w[0], w[1]));
        let expected = match (valid, len) {
            (false, _) => Verdict::Invalid,
            (true, 64) if knight(path[0], path[63]) => Verdict::Closed,
            (true, 64) => Verdict::Open,
            _ => Verdict::Partial,
        };
        prop_assert_eq!(g.boards[0].verdict, expected);
    }

    /// The same path written as squares down a column, as (step, x, y) columns from 0 and as
    /// one cell gets the same verdict and start in every notation that reads it.
    #[test]
    fn every_notation_of_the_same_path_agrees(
        len in 5usize..=64,
        from in 0usize..64,
        swap in proptest::option::of((0usize..64, 0usize..64)),
        piece in any::<bool>(),
    ) {
        // A closed tour from any square is a tour: cut short, it need not reach an edge.
        let mut path: Vec<(u32, u32)> = (0..len).map(|i| CLOSED_8X8[(from + i) % 64]).collect();
        if let Some((a, b)) = swap {
            path.swap(a % len, b % len);
        }
        let name = |&(r, c): &(u32, u32)| {
            format!("{}{}{}", if piece { "N" } else { "" }, file_letters(c), 8 - r)
        };
        let squares: Cells = path
            .iter()
            .enumerate()
            .map(|(i, sq)| (1 + i as u32, 1, CellValue::Text(name(sq).into())))
            .collect();
        let mut coords: Cells = ["step", "x", "y"]
            .iter()
            .enumerate()
            .map(|(c, h)| (0, c as u32, CellValue::Text((*h).into())))
            .collect();
        for (i, &(r, c)) in path.iter().enumerate() {
            let row = 1 + i as u32;
            coords.extend([(row, 0, num(i as i64 + 1)), (row, 1, num(c.into())), (row, 2, num(r.into()))]);
        }
        let line: Vec<String> = path.iter().map(name).collect();
        let one_cell: Cells = vec![(3, 2, CellValue::Text(line.join(" ").into()))];
        let options = VerifyOptions { board_size: Some((8, 8)), ..VerifyOptions::default() };
        let mut verdicts = Vec::new();
        for (what, cells) in [("squares", squares), ("coordinates", coords), ("one cell", one_cell)] {
            let report = verify_grid(what, 0, &SheetCells::from_values(cells), &options);
            prop_assert!(report.boards.len() <= 1, "{what}: {:?}", report.boards);
            if let Some(b) = report.boards.first() {
                // Coordinates that never touch row 0 or column 0 read as counted from 1: the
                // same path one square up and left, with the same verdict.
                let from_1 = what == "coordinates" && path.iter().all(|&(r, c)| r > 0 && c > 0);
                let first = if from_1 { (path[0].0 - 1, path[0].1 - 1) } else { path[0] };
                let want = name(&first).trim_start_matches('N').to_string();
                prop_assert_eq!(b.start_square.map(|s| s.to_string()), Some(want), "{}", what);
                verdicts.push((what, b.verdict));
            }
        }
        let knight = |a: (u32, u32), b: (u32, u32)| {
            let (dr, dc) = (a.0.abs_diff(b.0), a.1.abs_diff(b.1));
            (dr == 1 && dc == 2) || (dr == 2 && dc == 1)
        };
        let steps = path.windows(2).filter(|w| knight(w[0], w[1])).count();
        if steps * 2 >= len - 1 {
            // Squares and one cell need only half of the steps to be knight's moves.
            prop_assert!(verdicts.iter().any(|v| v.0 == "squares"), "{verdicts:?}");
            prop_assert!(verdicts.iter().any(|v| v.0 == "one cell"), "{verdicts:?}");
        }
        let first = verdicts.first().map(|v| v.1);
        prop_assert!(verdicts.iter().all(|v| Some(v.1) == first), "{verdicts:?}");
    }
}
