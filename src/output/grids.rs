//! A board's numbers as plain-text grids: CSV to paste into a spreadsheet, text for a terminal.
//!
//! The grid forms take the *numbering* (move number by square, 0 where unvisited) rather than
//! a [`Tour`](crate::tour::Tour), so that a huge constructed tour can be streamed from the 4-bytes-a-square array
//! the constructor builds, without a second copy.

use std::io::{self, Write};

use crate::board::Board;
use crate::output::write_budget::{TimedOut, Work, WriteBudget};

/// The board as CSV: one board row per line, move numbers, blank where unvisited. Each row
/// is a step of `budget` (see [`crate::output::write_budget`]).
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::output::write_budget::WriteBudget;
/// let board = Board::new(1, 3).unwrap();
/// let mut out = Vec::new();
/// knights_tour::output::grids::write_csv(board, &[1, 0, 2], &mut out, &WriteBudget::unlimited()).unwrap();
/// assert_eq!(String::from_utf8(out).unwrap(), "1,,2\n");
/// ```
pub fn write_csv(
    board: Board,
    numbering: &[u32],
    out: &mut dyn Write,
    budget: &WriteBudget<'_>,
) -> io::Result<()> {
    let cols = board.cols() as usize;
    let mut line: Vec<u8> = Vec::with_capacity(cols * 8 + 1);
    let _stage = budget.stage(Work::Rows, u64::from(board.rows()));
    for row in numbering.chunks(cols) {
        budget.step(1).map_err(TimedOut::into_io)?;
        line.clear();
        for (i, &n) in row.iter().enumerate() {
            if i > 0 {
                line.push(b',');
            }
            if n != 0 {
                push_decimal(&mut line, n);
            }
        }
        line.push(b'\n');
        out.write_all(&line)?;
    }
    Ok(())
}

/// Append `n` in decimal without going through `fmt` (this is the whole cost of CSV output).
fn push_decimal(buf: &mut Vec<u8>, mut n: u32) {
    let mut digits = [0u8; 10];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    buf.extend_from_slice(&digits[i..]);
}

/// The board as an aligned grid for terminals, with file letters and rank numbers around it;
/// unvisited squares show as `.`. Each row is a step of `budget`.
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::output::write_budget::WriteBudget;
/// let board = Board::new(1, 3).unwrap();
/// let mut out = Vec::new();
/// knights_tour::output::grids::write_text(board, &[1, 0, 2], &mut out, &WriteBudget::unlimited()).unwrap();
/// let text = String::from_utf8(out).unwrap();
/// assert!(text.contains("1 | 1 . 2"), "{text}");
/// ```
pub fn write_text(
    board: Board,
    numbering: &[u32],
    out: &mut dyn Write,
    budget: &WriteBudget<'_>,
) -> io::Result<()> {
    let width = board.len().to_string().len();
    let rank_width = board.rows().to_string().len();
    let cols = board.cols() as usize;
    let _stage = budget.stage(Work::Rows, u64::from(board.rows()));
    for (r, row) in numbering.chunks(cols).enumerate() {
        budget.step(1).map_err(TimedOut::into_io)?;
        let rank = board.rows() as usize - r;
        let cells: Vec<String> = row
            .iter()
            .map(|&n| match n {
                0 => format!("{:>width$}", "."),
                n => format!("{n:>width$}"),
            })
            .collect();
        writeln!(out, "{rank:>rank_width$} | {}", cells.join(" "))?;
    }
    let files: Vec<String> = (0..board.cols())
        .map(|c| format!("{:>width$}", crate::board::file_letters(c)))
        .collect();
    writeln!(
        out,
        "{:>rank_width$}   {}",
        "",
        "-".repeat(files.join(" ").len())
    )?;
    writeln!(out, "{:>rank_width$}   {}", "", files.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_has_one_line_per_row_and_blanks_for_unvisited() {
        let board = Board::new(2, 3).unwrap();
        let mut out = Vec::new();
        write_csv(
            board,
            &[1, 0, 1000, 0, 4_000_000_000, 7],
            &mut out,
            &WriteBudget::unlimited(),
        )
        .unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "1,,1000\n,4000000000,7\n");
    }

    #[test]
    fn text_grid_is_aligned_with_labels() {
        let board = Board::new(2, 2).unwrap();
        let mut out = Vec::new();
        write_text(board, &[1, 2, 3, 0], &mut out, &WriteBudget::unlimited()).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "2 | 1 2");
        assert_eq!(lines[1], "1 | 3 .");
        assert_eq!(lines[3], "    a b");
    }
}
