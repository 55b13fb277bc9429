//! The ways people and programs write a tour on a sheet. Each notation is a module that reads
//! the sheet's cells and proposes candidate boards, each with the evidence that it is a tour
//! attempt; [`super::select`] then chooses among all of them (no notation decides alone, as
//! ripgrep's searcher finds matches and its printer decides what to show).
//!
//! - [`grid`]: move numbers on the squares of a grid (`1` on the start square), with rank and
//!   file labels around it (`a b c`, `8 7 6`, or a header row and index column counting `0..n-1`
//!   or `1..n`, as pandas writes them) giving its extent. `0` or `-1` on many squares marks
//!   unvisited squares when the other numbers are a knight's path.
//! - [`squares`]: square names in move order, down a column or along a row (`e4`, `Nf3` with
//!   the knight's letter, words around them), optionally beside move numbers; or a whole tour
//!   in one cell: `e4 f6 g8 ...`, `c1-b3-a1-...`, `1. Nf3 2. Ng5`.
//! - [`coords`]: coordinates from programs: two numeric columns (`x, y` or `row, col`), with
//!   step or index columns before them, a header row optional, counted from 0 or from 1; or
//!   `(x,y)` pairs, one or several a cell (`(0,0) (1,2) (2,4) ...`).
//!
//! Text is read through the text layer first: lines holding the rows of a table are laid out
//! as cells (`super::layout`), and what a cell's text names is read by one tokeniser
//! (`entries`), so a notation reads a printed grid or a pasted list exactly as it reads one
//! typed into cells.
//!
//! A candidate written as squares or coordinates is a path candidate: its entries in move
//! order and the board its reading needs. Coordinates are read as `x` (the file, from the
//! left) then `y` (counted from the top row, as programs index arrays), or `row` then `col`
//! when the header says so, from 0 when a coordinate is 0 and from 1 otherwise. Counting `y`
//! from the bottom instead would give the mirror image, which is a tour exactly when this
//! reading is, so the verdict does not depend on the choice; only the square names do.

pub mod coords;
mod entries;
pub mod grid;
mod labels;
pub mod squares;

use serde::{Deserialize, Serialize};

use crate::workbook::cellref::{CellRange, CellRef};
use crate::workbook::read::SheetCells;

use super::square::SquareName;

/// A board one notation proposes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Candidate {
    /// Move numbers on a grid.
    Grid(GridCandidate),
    /// A tour written entry by entry: squares, coordinates, or all in one cell.
    Path(PathCandidate),
    /// Numbers spread over an area too large to hold a board.
    TooLarge {
        /// Top-left of the area.
        at: CellRef,
        /// Rows spanned.
        rows: u64,
        /// Columns spanned.
        cols: u64,
    },
}

impl Candidate {
    /// The cells the candidate occupies: two boards never share one.
    pub(crate) fn footprint(&self) -> CellRange {
        match self {
            Candidate::Grid(g) => g.range,
            Candidate::Path(p) => p.footprint,
            Candidate::TooLarge { at, rows, cols } => CellRange::new(
                *at,
                at.offset(
                    (*rows).clamp(1, u64::from(u32::MAX)) as u32 - 1,
                    (*cols).clamp(1, u64::from(u32::MAX)) as u32 - 1,
                ),
            ),
        }
    }

    /// How strongly the candidate reads as a tour attempt: its steps that are knight's moves
    /// less those that are not, then its size. Overlapping candidates give way to the
    /// stronger (a block of coordinates read as a grid shows few knight's moves and many
    /// jumps).
    pub(crate) fn strength(&self) -> (i64, u64) {
        let net = |knights: u64, steps: u64| 2 * knights as i64 - steps as i64;
        match self {
            Candidate::Grid(g) => (net(g.knight_moves, g.steps), g.ints),
            Candidate::Path(p) => (
                net(p.knight_moves() as u64, p.squares.len() as u64 - 1),
                p.squares.len() as u64,
            ),
            Candidate::TooLarge { rows, cols, .. } => (0, rows.saturating_mul(*cols)),
        }
    }
}

/// A grid of move numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct GridCandidate {
    /// The board's rectangle.
    pub(crate) range: CellRange,
    /// The first move's number: 1, or 0 for tours numbered 0..N-1.
    pub(crate) base: u8,
    /// Labels gave its extent: its blank edge cells are squares, never a ragged edge.
    pub(crate) labelled: bool,
    /// The number that marks unvisited squares (0 or -1), if the grid uses one.
    pub(crate) unvisited: Option<i64>,
    /// How many whole numbers it holds.
    pub(crate) ints: u64,
    /// How many pairs of consecutive move numbers it holds (each number once).
    pub(crate) steps: u64,
    /// How many of those sit a knight's move apart.
    pub(crate) knight_moves: u64,
}

/// How a path is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ListForm {
    /// Square names, one a cell, down a column or along a row.
    Squares,
    /// Coordinates: numeric columns or `(x,y)` pairs.
    Coordinates,
    /// The whole tour in one cell.
    OneCell,
}

impl ListForm {
    /// The word used in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            ListForm::Squares => "squares",
            ListForm::Coordinates => "coordinates",
            ListForm::OneCell => "one-cell",
        }
    }
}

/// Which coordinate comes first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CoordOrder {
    /// `x` (the file, from the left), then `y` (the row, from the top).
    Xy,
    /// `row` (from the top), then `col` (from the left).
    RowCol,
}

/// How coordinates were read: which comes first and where counting starts. Rows (`y`) are
/// counted from the top of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CoordReading {
    /// `xy` or `row-col`.
    pub order: CoordOrder,
    /// The first row's and column's number: 0 or 1.
    pub from: u8,
}

impl CoordReading {
    /// `x, y from 0` or `row, col from 1`, for the text report.
    pub fn describe(&self) -> String {
        let order = match self.order {
            CoordOrder::Xy => "x, y",
            CoordOrder::RowCol => "row, col",
        };
        format!("{order} from {}, rows counted from the top", self.from)
    }
}

/// A tour written entry by entry, in move order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PathCandidate {
    /// How it is written.
    pub(crate) form: ListForm,
    /// The cell holding each entry (for a tour in one cell, that cell each time).
    pub(crate) cells: Vec<CellRef>,
    /// The square each entry names, in move order.
    pub(crate) squares: Vec<SquareName>,
    /// Every cell the path occupies (entries, and coordinates' other columns).
    pub(crate) footprint: CellRange,
    /// The board (rows, cols) the reading needs: for squares, the smallest a1-anchored board
    /// holding every square; for coordinates, the largest coordinates.
    pub(crate) board: (u32, u32),
    /// For coordinates, how they were read.
    pub(crate) reading: Option<CoordReading>,
}

/// The fewest entries a path needs to count as a tour attempt.
pub const MIN_PATH: usize = 3;

impl PathCandidate {
    /// A path over `squares` with the smallest a1-anchored board holding them all.
    pub(crate) fn new(
        form: ListForm,
        cells: Vec<CellRef>,
        squares: Vec<SquareName>,
        footprint: CellRange,
    ) -> PathCandidate {
        let rows = squares.iter().map(|s| s.rank).max().unwrap_or(1);
        let cols = squares.iter().map(|s| s.file + 1).max().unwrap_or(1);
        PathCandidate {
            form,
            cells,
            squares,
            footprint,
            board: (rows, cols),
            reading: None,
        }
    }

    /// How many consecutive entries are a knight's move apart.
    pub(crate) fn knight_moves(&self) -> usize {
        self.squares
            .windows(2)
            .filter(|w| w[0].is_knight_move(w[1]))
            .count()
    }

    /// Whether the entries read as a tour attempt: at least [`MIN_PATH`] of them and at least
    /// half of the steps knight's moves (so a row of cell names `A1 B1 C1` is not one).
    pub(crate) fn reads_as_tour(&self) -> bool {
        let n = self.squares.len();
        n >= MIN_PATH && self.knight_moves() * 2 >= n - 1
    }
}

/// Every candidate board on a sheet, from every notation, in no particular order.
pub(crate) fn propose(sheet: &SheetCells) -> Vec<Candidate> {
    let entries = entries::of_sheet(sheet);
    let mut out = grid::propose(sheet);
    out.extend(squares::propose(&entries).into_iter().map(Candidate::Path));
    out.extend(
        coords::propose(sheet, &entries)
            .into_iter()
            .map(Candidate::Path),
    );
    out
}
