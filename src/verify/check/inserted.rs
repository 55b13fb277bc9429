//! Insertion labels, as the encyclopedia article's hand method writes them (and `generate
//! --method hand` on its `Step 3 - insertions` sheet): a square labelled `5a` was inserted
//! after 5, `5b` after `5a`, and the run goes on to 6. A grid of move numbers whose every text
//! cell is such a label reads in that order, renumbered 1, 2, 3 ...: the tour it describes.
//!
//! The reading is strict, so a typo stays a `text-cell` problem: every label's number is on
//! the board, its letters run `a`, `b`, `c` ... without a gap or a repeat, and no other text
//! (or fraction) is on the board. Whether the renumbered board is a tour is the grid check's
//! business; the caller keeps this reading only when that check finds no problem.

use crate::board::parse_file_letters;

use super::super::block::BlockGrid;
use super::super::value::Kind;
use crate::workbook::read::CellValueRef;

/// Boards up to this many squares are read for labels (a hand-built board is at most 30x30).
const MAX_SQUARES: u64 = 1 << 16;

/// The grid's numbers in the order its labels give (0 on a blank square), by block-relative
/// index; `None` unless it holds at least one label and reads cleanly (see the module docs).
/// The numbers count from 1.
pub(crate) fn renumbered(grid: &BlockGrid<'_>) -> Option<Vec<i64>> {
    let (rows, cols) = (grid.range.rows(), grid.range.cols());
    if u64::from(rows) * u64::from(cols) > MAX_SQUARES {
        return None;
    }
    // (number, 0 for the number itself or 1.. for its label's letters, cell)
    let mut entries: Vec<(i64, u64, u32)> = Vec::new();
    let mut labels = 0usize;
    for i in 0..rows * cols {
        match grid.kind_at(i) {
            Kind::Blank => {}
            Kind::Int(v) => entries.push((v, 0, i)),
            Kind::NonInt(_) => return None,
            Kind::Text => {
                let Some(CellValueRef::Text(text)) = grid.cell_at(i)?.value else {
                    return None;
                };
                let (n, letter) = label(text)?;
                entries.push((n, letter + 1, i));
                labels += 1;
            }
        }
    }
    if labels == 0 {
        return None;
    }
    entries.sort_unstable();
    // The numbers are 1..m, each once; each label follows its number or the label before it:
    // 5, 5a, 5b ...
    let mut number = 0;
    let mut previous = (0, 0);
    for &(n, letter, _) in &entries {
        match letter {
            0 if n == number + 1 => number = n,
            l if l > 0 && previous == (n, l - 1) => {}
            _ => return None,
        }
        previous = (n, letter);
    }
    let mut out = vec![0i64; (rows * cols) as usize];
    for (rank, &(_, _, i)) in entries.iter().enumerate() {
        out[i as usize] = rank as i64 + 1;
    }
    Some(out)
}

/// Whether the cell at block-relative `(r, c)` holds an insertion label (`5a`).
pub(crate) fn is_label(grid: &BlockGrid<'_>, r: u32, c: u32) -> bool {
    matches!(
        grid.cell(r, c).and_then(|cell| cell.value),
        Some(CellValueRef::Text(t)) if label(t).is_some()
    )
}

/// `5a` -> (5, 0), `12ab` -> (12, 27); anything else `None`.
fn label(text: &str) -> Option<(i64, u64)> {
    let t = text.trim();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits == t.len() {
        return None;
    }
    let n: i64 = t[..digits].parse().ok()?;
    Some((n, parse_file_letters(&t[digits..])?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_a_number_and_letters() {
        assert_eq!(label("5a"), Some((5, 0)));
        assert_eq!(label(" 12ab "), Some((12, 27)));
        assert_eq!(label("5"), None);
        assert_eq!(label("a5"), None);
        assert_eq!(label("5a1"), None);
        assert_eq!(label("5-a"), None);
    }
}
