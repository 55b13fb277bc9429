//! A whole tour typed into one cell: squares separated by spaces, commas, semicolons, dashes
//! or arrows (`e4 f6 g8 ...`, `c1-b3-a1-...`), with or without the knight's letter (`Na1 Nb3`)
//! and move numbers (`1. Nf3 2. Ng5`); or coordinate pairs (`(0,0) (1,2) (2,4) ...`, the
//! console line of a program). A label before a colon (`Tour: e4 f6 ...`) is skipped.
//!
//! Every token must be a move (or a move number): a sentence that mentions a square is not a
//! tour. The moves then need what a list of squares needs ([`super::squares`]).
//! Coordinates are read as [`super::coords`] reads pairs.

use crate::workbook::cellref::{CellRange, CellRef};
use crate::workbook::read::{CellValueRef, SheetCells};

use super::super::square::{readings, Readings};
use super::coords::{from_pairs, parse_pair};
use super::{CoordOrder, ListForm, PathCandidate, MIN_PATH};

/// The longest cell text read: a cell holds at most 32,767 characters in Excel.
const MAX_TEXT: usize = 40_000;

/// Every cell on the sheet that holds a tour, in every reading.
pub(crate) fn propose(sheet: &SheetCells) -> Vec<PathCandidate> {
    let mut out = Vec::new();
    for c in sheet.cells() {
        if let Some(CellValueRef::Text(t)) = c.value {
            if t.len() >= 6 && t.len() <= MAX_TEXT {
                out.extend(read_cell(t, CellRef::new(c.row, c.col)));
            }
        }
    }
    out
}

/// The readings of one cell's text as a tour.
fn read_cell(text: &str, cell: CellRef) -> Vec<PathCandidate> {
    let body = skip_label(text);
    let footprint = CellRange::new(cell, cell);
    if body.contains(['(', '[']) {
        let Some(pairs) = pairs(body) else {
            return Vec::new();
        };
        let cells = vec![cell; pairs.len()];
        return from_pairs(&pairs, CoordOrder::Xy, cells, footprint, ListForm::OneCell)
            .into_iter()
            .collect();
    }
    let mut moves: Vec<Readings> = Vec::new();
    for token in body
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '-' | '–' | '—' | '→' | '>'))
        .filter(|t| !t.is_empty())
    {
        if is_move_number(token) {
            continue;
        }
        let r = readings(token);
        if !r.any() {
            return Vec::new();
        }
        moves.push(r);
    }
    if moves.len() < MIN_PATH {
        return Vec::new();
    }
    let cells = vec![cell; moves.len()];
    let plain: Option<Vec<_>> = moves.iter().map(|r| r.plain).collect();
    let piece: Option<Vec<_>> = moves
        .iter()
        .any(|r| r.piece.is_some())
        .then(|| moves.iter().map(|r| r.piece.or(r.plain)).collect())
        .flatten();
    [piece, plain]
        .into_iter()
        .flatten()
        .map(|squares| PathCandidate::new(ListForm::OneCell, cells.clone(), squares, footprint))
        .filter(PathCandidate::reads_as_tour)
        .collect()
}

/// `Tour: e4 f6` -> `e4 f6`: a leading label of letters and spaces ending with a colon.
fn skip_label(text: &str) -> &str {
    match text.split_once(':') {
        Some((label, rest))
            if !label.trim().is_empty()
                && label.chars().all(|c| c.is_alphabetic() || c == ' ')
                && !rest.trim().is_empty() =>
        {
            rest
        }
        _ => text,
    }
}

/// `12`, `12.`, `12)`: a move number between moves.
fn is_move_number(token: &str) -> bool {
    let digits = token.trim_end_matches(['.', ')', ':']);
    !digits.is_empty() && digits.len() <= 7 && digits.bytes().all(|b| b.is_ascii_digit())
}

/// The pairs of `(0,0) (1,2) ...`, only separators between them; `None` otherwise.
fn pairs(body: &str) -> Option<Vec<(i64, i64)>> {
    let mut out = Vec::new();
    let mut rest = body;
    loop {
        let start = rest.find(['(', '['])?.min(rest.len());
        let between = &rest[..start];
        if !between
            .chars()
            .all(|c| c.is_whitespace() || matches!(c, ',' | ';' | '-' | '–' | '—' | '→' | '>'))
        {
            return None;
        }
        let close = rest[start..].find([')', ']'])? + start;
        out.push(parse_pair(&rest[start..=close])?);
        rest = &rest[close + 1..];
        if !rest.contains(['(', '[']) {
            let tail_ok = rest
                .chars()
                .all(|c| c.is_whitespace() || matches!(c, ',' | ';' | '.'));
            return (tail_ok && out.len() >= MIN_PATH).then_some(out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first(text: &str) -> Option<PathCandidate> {
        read_cell(text, CellRef::new(1, 0)).into_iter().next()
    }

    #[test]
    fn squares_with_any_separator_and_move_numbers() {
        let spaces = first("Tour: a1 b3 c1 a2 c3").unwrap();
        assert_eq!(spaces.squares.len(), 5);
        assert_eq!(spaces.board, (3, 3));
        let dashes = first("c3-a2-c1-e2-f4").unwrap();
        assert_eq!(dashes.squares[4].to_string(), "f4");
        let numbered = first("1. Nf3 2. Ng5 3. Ne4").unwrap();
        assert_eq!(numbered.squares[0].to_string(), "f3");
        let commas = first("e4,f6,g8,h6").unwrap();
        assert_eq!(commas.form, ListForm::OneCell);
    }

    #[test]
    fn prose_and_short_lines_are_not_tours() {
        assert!(first("the knight starts on a1 and goes to b3").is_none());
        assert!(first("a1 b3").is_none());
        assert!(first("a1 a2 a3 a4 a5").is_none());
    }

    #[test]
    fn coordinate_pairs_in_one_cell() {
        let p = first("(0,0) (1,2) (2,4) (0,3) (1,1)").unwrap();
        assert_eq!(p.squares.len(), 5);
        assert_eq!(p.board, (5, 3));
        assert_eq!(p.squares[0].to_string(), "a5");
        assert!(first("(0,0) and (1,2) and (2,4)").is_none());
    }
}
