//! Tours as programs print them: coordinates, one move a row.
//!
//! - **Numeric columns.** A block of rows each holding two to four whole numbers (0 or more)
//!   side by side, nothing else beside them: step or index columns first (`0, 1, 2, ...` or
//!   `1, 2, 3, ...` down the block, as a program's `step` or pandas' index), then the two
//!   coordinates. A header row above may name them: `row`/`r`/`y`/`rank` first means row then
//!   column; anything else (`x, y`, or no header) means `x` (the column) then `y` (the row).
//! - **Pairs.** `(x,y)` (or `[x,y]`) text, one pair a cell down a column or along a row (a
//!   program's console line split into cells), several a cell (`(7,6) (5,7) (6,5) ...`, a
//!   C# program's console line in one cell, or its lines pasted one a cell), or a JSON or
//!   Python list of them (`[[0,0],[1,2],...]`): read by the text layer (`entries.rs`), one list for the
//!   whole run of cells, with one reading.
//!
//! Both count from 0 when any coordinate is 0 and from 1 otherwise; rows are counted from the
//! top, as programs index arrays ([`super::CoordReading`]; the mirror reading would give the
//! same verdict). The board is as large as the largest coordinates.
//!
//! Evidence: columns of small numbers are common in tables (chart data `1 2 / 2 4 / 3 6`, whose
//! steps all happen to be `(1, 2)`), so numeric columns need at least [`MIN_ROWS`] moves, at
//! least half of the steps knight's moves in at least two directions, and at least 3/4 of the
//! squares distinct. Pairs, written only by programs that print coordinates, need what a list
//! of squares needs.

use std::collections::HashSet;

use crate::workbook::cellref::{CellRange, CellRef};
use crate::workbook::read::{CellValueRef, SheetCells};

use super::super::square::SquareName;
use super::super::value::{kinds, Kind};
use super::entries::{lists, Entries};
use super::{CoordOrder, CoordReading, ListForm, PathCandidate};

/// The fewest rows a block of numeric coordinates needs.
pub const MIN_ROWS: usize = 5;

/// The widest block read: two step or index columns and the two coordinates.
const MAX_WIDTH: u32 = 4;

/// Every coordinate list on the sheet that reads as a tour attempt: numeric columns, and runs
/// of the cells in `entries` that hold pairs.
pub(crate) fn propose(sheet: &SheetCells, entries: &[Entries]) -> Vec<PathCandidate> {
    let mut out: Vec<PathCandidate> = blocks(sheet)
        .into_iter()
        .filter_map(|b| read_block(sheet, &b))
        .collect();
    out.extend(pair_runs(entries));
    out
}

/// A block of rows of whole numbers, all in columns `first_col..=last_col`.
struct Block {
    first_row: u32,
    first_col: u32,
    last_col: u32,
    /// The numbers, row by row (`last_col - first_col + 1` a row).
    values: Vec<i64>,
}

impl Block {
    fn width(&self) -> usize {
        (self.last_col - self.first_col + 1) as usize
    }

    fn rows(&self) -> usize {
        self.values.len() / self.width()
    }

    fn column(&self, k: usize) -> impl Iterator<Item = i64> + '_ {
        self.values.iter().skip(k).step_by(self.width()).copied()
    }
}

/// The blocks of rows whose only numbers are one run of 2..=[`MAX_WIDTH`] whole numbers (0 or
/// more) in the same columns, at least [`MIN_ROWS`] rows long. One pass over the cells.
fn blocks(sheet: &SheetCells) -> Vec<Block> {
    let mut done: Vec<Block> = Vec::new();
    let mut open: Option<(u32, Block)> = None; // (its last row, the block)
    let mut cells = kinds(sheet).peekable();
    while let Some(row) = cells.peek().map(|c| c.0) {
        // The row's runs of consecutive columns holding whole numbers >= 0.
        let mut runs: Vec<(u32, u32, Vec<i64>)> = Vec::new();
        let mut other_numbers = false;
        while let Some((_, col, kind)) = cells.next_if(|c| c.0 == row) {
            match kind {
                Kind::Int(v) if v >= 0 => match runs.last_mut() {
                    Some((_, last, vals)) if *last + 1 == col => {
                        *last = col;
                        if vals.len() <= MAX_WIDTH as usize {
                            vals.push(v);
                        }
                    }
                    _ => runs.push((col, col, vec![v])),
                },
                Kind::Int(_) | Kind::NonInt(_) => other_numbers = true,
                _ => {}
            }
        }
        let single = match runs.as_slice() {
            [(first, last, _)]
                if !other_numbers && (2..=MAX_WIDTH).contains(&(last - first + 1)) =>
            {
                runs.pop()
            }
            _ => None,
        };
        if let (Some((last_row, b)), Some((first, last, vals))) = (&mut open, &single) {
            if *last_row + 1 == row && b.first_col == *first && b.last_col == *last {
                b.values.extend_from_slice(vals);
                *last_row = row;
                continue;
            }
        }
        if let Some((_, b)) = open.take() {
            if b.rows() >= MIN_ROWS {
                done.push(b);
            }
        }
        open = single.map(|(first_col, last_col, values)| {
            (
                row,
                Block {
                    first_row: row,
                    first_col,
                    last_col,
                    values,
                },
            )
        });
    }
    if let Some((_, b)) = open {
        if b.rows() >= MIN_ROWS {
            done.push(b);
        }
    }
    done
}

/// Whether a column counts `v, v + 1, v + 2, ...` from 0 or 1 (a step or index column).
fn counts(values: impl Iterator<Item = i64>) -> bool {
    let mut expect: Option<i64> = None;
    for v in values {
        match expect {
            None if v == 0 || v == 1 => expect = Some(v + 1),
            Some(e) if v == e => expect = Some(e + 1),
            _ => return false,
        }
    }
    true
}

/// Read one block as coordinates: step or index columns first, then exactly two coordinates.
fn read_block(sheet: &SheetCells, b: &Block) -> Option<PathCandidate> {
    let width = b.width();
    let mut first = 0;
    while first < width && counts(b.column(first)) {
        first += 1;
    }
    if width - first != 2 {
        return None;
    }
    let (a, c) = (first, first + 1);
    if counts(b.column(a)) || counts(b.column(c)) {
        return None;
    }
    let col_a = b.first_col + a as u32;
    let order = header_order(sheet, b.first_row, col_a);
    let pairs: Vec<(i64, i64)> = b.column(a).zip(b.column(c)).collect();
    let cells: Vec<CellRef> = (0..pairs.len() as u32)
        .map(|i| CellRef::new(b.first_row + i, col_a))
        .collect();
    let footprint = CellRange::new(
        CellRef::new(b.first_row, b.first_col),
        CellRef::new(b.first_row + pairs.len() as u32 - 1, b.last_col),
    );
    let path = from_pairs(&pairs, order, cells, footprint, ListForm::Coordinates)?;
    strong(&path).then_some(path)
}

/// The order the header row above `row` names for the coordinates in columns `col` and
/// `col + 1`: row first when the first is called `row`, `r`, `y` or `rank`.
fn header_order(sheet: &SheetCells, row: u32, col: u32) -> CoordOrder {
    let name = |c: u32| match row.checked_sub(1).and_then(|r| sheet.find(r, c)) {
        Some(cell) => match cell.value {
            Some(CellValueRef::Text(t)) => t.trim().to_ascii_lowercase(),
            _ => String::new(),
        },
        None => String::new(),
    };
    match name(col).as_str() {
        "row" | "r" | "y" | "rank" | "i" => CoordOrder::RowCol,
        _ => CoordOrder::Xy,
    }
}

/// The stronger evidence numeric columns need (see the module docs).
fn strong(path: &PathCandidate) -> bool {
    let n = path.squares.len();
    let directions: HashSet<(i64, i64)> = path
        .squares
        .windows(2)
        .filter(|w| w[0].is_knight_move(w[1]))
        .map(|w| {
            (
                i64::from(w[1].file) - i64::from(w[0].file),
                i64::from(w[1].rank) - i64::from(w[0].rank),
            )
        })
        .collect();
    let distinct: HashSet<SquareName> = path.squares.iter().copied().collect();
    n >= MIN_ROWS && directions.len() >= 2 && distinct.len() * 4 >= n * 3
}

/// A path from coordinate pairs (in `order`), counted from 0 when any is 0 and from 1 otherwise,
/// rows from the top; `None` when a coordinate is negative or the entries do not read as a
/// tour attempt.
pub(crate) fn from_pairs(
    pairs: &[(i64, i64)],
    order: CoordOrder,
    cells: Vec<CellRef>,
    footprint: CellRange,
    form: ListForm,
) -> Option<PathCandidate> {
    let min = pairs.iter().map(|&(a, b)| a.min(b)).min()?;
    if min < 0 {
        return None;
    }
    let from = u8::from(min > 0);
    let base = i64::from(from);
    // (x, y) from 0, y from the top.
    let xy: Vec<(i64, i64)> = pairs
        .iter()
        .map(|&(a, b)| match order {
            CoordOrder::Xy => (a - base, b - base),
            CoordOrder::RowCol => (b - base, a - base),
        })
        .collect();
    let cols = xy.iter().map(|p| p.0).max()? + 1;
    let rows = xy.iter().map(|p| p.1).max()? + 1;
    let (rows, cols) = (u32::try_from(rows).ok()?, u32::try_from(cols).ok()?);
    let squares = xy
        .iter()
        .map(|&(x, y)| SquareName {
            file: x as u32,
            rank: rows - y as u32,
        })
        .collect();
    let mut path = PathCandidate::new(form, cells, squares, footprint);
    path.board = (rows, cols);
    path.reading = Some(CoordReading { order, from });
    path.reads_as_tour().then_some(path)
}

/// Runs of cells holding `(x,y)` pairs, down a column or along a row, each read as one list.
fn pair_runs(entries: &[Entries]) -> Vec<PathCandidate> {
    lists(
        entries,
        |e| &e.pairs[..],
        |list| {
            let form = if list.one_cell {
                ListForm::OneCell
            } else {
                ListForm::Coordinates
            };
            from_pairs(
                &list.moves,
                CoordOrder::Xy,
                list.cells,
                list.footprint,
                form,
            )
            .into_iter()
            .collect()
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workbook::read::CellValue;

    /// A 5x5 open tour as (x, y) from 0, y from the top.
    const TOUR_5X5: [(i64, i64); 25] = [
        (0, 0),
        (1, 2),
        (0, 4),
        (2, 3),
        (4, 4),
        (3, 2),
        (4, 0),
        (2, 1),
        (0, 2),
        (1, 4),
        (3, 3),
        (4, 1),
        (2, 0),
        (0, 1),
        (1, 3),
        (3, 4),
        (4, 2),
        (3, 0),
        (1, 1),
        (2, 2),
        (3, 1),
        (1, 0),
        (0, 3),
        (2, 4),
        (4, 3),
    ];

    fn columns(header: &[&str], rows: &[Vec<i64>]) -> SheetCells {
        let mut v = Vec::new();
        for (c, h) in header.iter().enumerate() {
            v.push((0, c as u32, CellValue::Text((*h).into())));
        }
        for (r, row) in rows.iter().enumerate() {
            for (c, x) in row.iter().enumerate() {
                v.push((r as u32 + 1, c as u32, CellValue::Number(*x as f64)));
            }
        }
        SheetCells::from_values(v)
    }

    #[test]
    fn step_x_y_columns_from_0_are_a_tour() {
        let rows: Vec<Vec<i64>> = TOUR_5X5
            .iter()
            .enumerate()
            .map(|(i, &(x, y))| vec![i as i64 + 1, x, y])
            .collect();
        let found = propose(&columns(&["step", "x", "y"], &rows), &[]);
        assert_eq!(found.len(), 1, "{found:?}");
        let p = &found[0];
        assert_eq!(p.board, (5, 5));
        assert_eq!(p.squares[0].to_string(), "a5");
        assert_eq!(p.cells[0].to_string(), "B2");
        assert_eq!(p.footprint.to_string(), "A2:C26");
        assert_eq!(
            p.reading,
            Some(CoordReading {
                order: CoordOrder::Xy,
                from: 0
            })
        );
    }

    #[test]
    fn row_col_headers_from_1_swap_the_order() {
        let rows: Vec<Vec<i64>> = TOUR_5X5.iter().map(|&(x, y)| vec![y + 1, x + 1]).collect();
        let found = propose(&columns(&["row", "col"], &rows), &[]);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].squares[0].to_string(), "a5");
        assert_eq!(found[0].reading.unwrap().from, 1);
        assert_eq!(found[0].reading.unwrap().order, CoordOrder::RowCol);
    }

    #[test]
    fn chart_data_and_counters_are_not_coordinates() {
        // 1 2 3 / 2 4 6 / ...: the first column counts, and (2,3) -> (4,6) is no knight's move.
        let rows: Vec<Vec<i64>> = (1..=6).map(|i| vec![i, 2 * i, 3 * i]).collect();
        assert!(propose(&columns(&["a", "b", "c"], &rows), &[]).is_empty());
        // Two columns stepping (1, 2) each row: knight's moves, all in one direction.
        let rows: Vec<Vec<i64>> = (1..=6).map(|i| vec![i + 3, 2 * i]).collect();
        assert!(propose(&columns(&["a", "b"], &rows), &[]).is_empty());
        // Five columns wide: a table, not coordinates.
        let rows: Vec<Vec<i64>> = TOUR_5X5.iter().map(|&(x, y)| vec![7, 8, 9, x, y]).collect();
        assert!(propose(&columns(&[], &rows), &[]).is_empty());
    }

    #[test]
    fn pairs_one_a_cell_several_a_cell_and_lines_of_them() {
        let text = |cells: Vec<(u32, u32, String)>| {
            SheetCells::from_values(
                cells
                    .into_iter()
                    .map(|(r, c, t)| (r, c, CellValue::Text(t.into()))),
            )
        };
        let found = |s: &SheetCells| propose(s, &super::super::entries::of_sheet(s));
        let one = text(
            TOUR_5X5
                .iter()
                .enumerate()
                .map(|(i, &(x, y))| (2, i as u32, format!("({x},{y})")))
                .collect(),
        );
        let got = found(&one);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].squares.len(), 25);
        assert_eq!(got[0].footprint.to_string(), "A3:Y3");
        // A console line wrapped five pairs a line, pasted one line a cell: one list, one
        // reading (the lines from 1 would each read as from 1 on their own).
        let lines: Vec<(u32, u32, String)> = TOUR_5X5
            .chunks(5)
            .enumerate()
            .map(|(i, c)| {
                let line: Vec<String> = c.iter().map(|&(x, y)| format!("({x},{y})")).collect();
                (i as u32, 0, line.join(" "))
            })
            .collect();
        let got = found(&text(lines));
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!((got[0].squares.len(), got[0].board), (25, (5, 5)));
        assert_eq!(got[0].reading.unwrap().from, 0);
        assert_eq!(got[0].form, ListForm::Coordinates);
        // Negative coordinates are no board.
        let neg = text(vec![(0, 0, "(1,-2) (3,-1) (5,0)".into())]);
        assert!(found(&neg).is_empty());
    }
}
