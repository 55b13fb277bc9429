//! The selection step: from every notation's candidates, the boards a sheet holds.
//!
//! 1. **Sane boards.** A reading that needs an absurd board is not a board: a path whose
//!    squares leave more empty files (or ranks) before them than both the path spans and the
//!    26 letters of one alphabet (`Nd6` read as file `nd`: a 36-entry list on a 6x370 board),
//!    or any board over [`MAX_BOARD_SQUARES`]. Without `--board-size` the path's board is
//!    the one its reading needs; with it, the given one, and squares off it are problems.
//! 2. **One board a cell.** Candidates are taken strongest first (most steps that are
//!    knight's moves, less the steps that are not; then most numbers); one that overlaps a
//!    board already taken is
//!    dropped, so the other reading of the same list, a table's column beside a list, or a
//!    second piece of the same labelled board do not become boards of their own.
//! 3. **Order.** The boards are reported in reading order of their top-left cells (row first,
//!    then column).
//!
//! A reading dropped in step 1 whose cells no board takes is reported in the sheet's note,
//! saying why it is not a board.

use crate::workbook::cellref::CellRange;

use super::block::MAX_BOARD_SQUARES;
use super::notation::{Candidate, PathCandidate};

/// The boards chosen, and what to tell about readings that were not boards.
#[derive(Debug, Default)]
pub(crate) struct Selection {
    /// The boards, in reading order.
    pub(crate) boards: Vec<Candidate>,
    /// Why readings that no board replaced are not boards.
    pub(crate) notes: Vec<String>,
}

/// Choose the boards among `candidates`; `board_size` is `--board-size` for paths.
pub(crate) fn select(candidates: Vec<Candidate>, board_size: Option<(u32, u32)>) -> Selection {
    let mut rejected: Vec<(CellRange, String)> = Vec::new();
    let mut sane: Vec<Candidate> = Vec::new();
    for mut c in candidates {
        if let Candidate::Path(p) = &mut c {
            match board_size {
                Some(size) => on_board(p, size),
                None => {
                    if let Some(why) = absurd(p) {
                        rejected.push((p.footprint, why));
                        continue;
                    }
                }
            }
        }
        sane.push(c);
    }
    // Strongest first; ties in reading order.
    sane.sort_by_key(|c| {
        let (moves, size) = c.strength();
        (
            std::cmp::Reverse(moves),
            std::cmp::Reverse(size),
            c.footprint().first,
        )
    });
    let mut boards: Vec<Candidate> = Vec::new();
    for c in sane {
        let f = c.footprint();
        if boards.iter().any(|b| overlaps(&b.footprint(), &f)) {
            continue;
        }
        boards.push(c);
    }
    boards.sort_by_key(|c| c.footprint().first);
    let mut notes: Vec<String> = Vec::new();
    if board_size.is_none() {
        // A list that names only some squares has its board guessed: say so, and how to give
        // the real one ("4 of 28 squares on a 7x4 board" puzzles a person who means 8x8).
        for c in &boards {
            if let Candidate::Path(p) = c {
                let (rows, cols) = p.board;
                if (p.squares.len() as u64) < u64::from(rows) * u64::from(cols) {
                    notes.push(format!(
                        "the list at {} names {} squares; its board, {rows}x{cols}, is the \
                         smallest anchored at a1 holding them all: give --board-size (8x8, \
                         say) for the board the tour is on",
                        p.footprint,
                        p.squares.len()
                    ));
                }
            }
        }
    }
    for (at, why) in rejected {
        if !boards.iter().any(|b| overlaps(&b.footprint(), &at)) && !notes.contains(&why) {
            notes.push(why);
        }
    }
    Selection { boards, notes }
}

/// Put a path on the board `--board-size` gives: coordinates count rows from the top, so
/// their squares move with the board's height (a row past the bottom names rank 0, which is
/// off every board).
fn on_board(p: &mut PathCandidate, size: (u32, u32)) {
    if p.reading.is_some() {
        let shift = i64::from(size.0) - i64::from(p.board.0);
        for s in &mut p.squares {
            s.rank = (i64::from(s.rank) + shift).clamp(0, i64::from(u32::MAX)) as u32;
        }
    }
    p.board = size;
}

fn overlaps(a: &CellRange, b: &CellRange) -> bool {
    a.first.row <= b.last.row
        && b.first.row <= a.last.row
        && a.first.col <= b.last.col
        && b.first.col <= a.last.col
}

/// Why the board a path's reading needs is absurd, if it is (rule 1).
fn absurd(p: &PathCandidate) -> Option<String> {
    let (rows, cols) = p.board;
    let what = format!(
        "the {} entries at {}",
        p.squares.len(),
        if p.footprint.rows() * p.footprint.cols() == 1 {
            p.footprint.first.to_string()
        } else {
            p.footprint.to_string()
        }
    );
    if u64::from(rows) * u64::from(cols) > MAX_BOARD_SQUARES {
        return Some(format!(
            "{what} would need a {rows}x{cols} board, too large to hold a board (at most {MAX_BOARD_SQUARES} squares)"
        ));
    }
    let (min_file, max_file) = min_max(p.squares.iter().map(|s| s.file))?;
    let (min_rank, max_rank) = min_max(p.squares.iter().map(|s| s.rank))?;
    let (files, ranks) = (max_file - min_file + 1, max_rank - min_rank + 1);
    let empty_files = cols.saturating_sub(files);
    let empty_ranks = rows.saturating_sub(ranks);
    if empty_files > files.max(26) {
        return Some(format!(
            "{what} are not a board: read as written they need a {rows}x{cols} board, {empty_files} of whose {cols} files they never visit"
        ));
    }
    if empty_ranks > ranks.max(26) {
        return Some(format!(
            "{what} are not a board: read as written they need a {rows}x{cols} board, {empty_ranks} of whose {rows} ranks they never visit"
        ));
    }
    None
}

fn min_max(values: impl Iterator<Item = u32>) -> Option<(u32, u32)> {
    values.fold(None, |acc, v| match acc {
        None => Some((v, v)),
        Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
    })
}
