//! Judging a candidate board: the verdict, every problem with its cells and squares, the
//! start and end, and the knight's path itself. [`numbering`] judges move numbers on a grid,
//! [`path`] a tour written entry by entry (squares, coordinates, one cell); `inserted` reads
//! the hand method's insertion labels (`5a` after 5) on a grid.

pub(crate) mod inserted;
pub mod numbering;
pub mod path;

use std::collections::{BTreeMap, HashMap};

use crate::tour::Tour;
use crate::workbook::cellref::CellRef;

use super::report::{Problem, ProblemKind, SquareName, Verdict};

/// At most this many problems of one kind are listed; the rest are summed up in one more.
pub const MAX_PROBLEMS_PER_KIND: usize = 100;

/// At most this many cells are listed by one problem (a number typed on a million squares):
/// every cell of a board small enough to draw.
pub const MAX_CELLS_PER_PROBLEM: usize = 256;

/// At most this many cells are named in one problem's message.
pub(crate) const MAX_CELLS_IN_MESSAGE: usize = 20;

/// The outcome of checking one board.
#[derive(Clone, Debug)]
pub(crate) struct Checked {
    pub(crate) verdict: Verdict,
    pub(crate) problems: Vec<Problem>,
    /// How many problems of each kind were found beyond those listed.
    pub(crate) not_listed: BTreeMap<ProblemKind, usize>,
    pub(crate) moves: usize,
    /// Squares still empty (blank, or marked unvisited): not mistakes.
    pub(crate) empty: usize,
    pub(crate) start: Option<CellRef>,
    pub(crate) end: Option<CellRef>,
    pub(crate) start_square: Option<SquareName>,
    pub(crate) end_square: Option<SquareName>,
    pub(crate) start_highlighted: Option<bool>,
    pub(crate) tour: Option<Tour>,
    /// For an invalid board, its moves up to the first break.
    pub(crate) unbroken: Option<Tour>,
}

/// Problems with a cap per kind.
#[derive(Default)]
pub(crate) struct Problems {
    list: Vec<Problem>,
    dropped: HashMap<ProblemKind, usize>,
    counts: HashMap<ProblemKind, usize>,
}

impl Problems {
    pub(crate) fn push(&mut self, p: Problem) {
        let count = self.counts.entry(p.kind).or_default();
        *count += 1;
        if *count > MAX_PROBLEMS_PER_KIND {
            *self.dropped.entry(p.kind).or_default() += 1;
        } else {
            self.list.push(p);
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The listed problems, a summary line per kind with more, and those counts.
    pub(crate) fn finish(mut self) -> (Vec<Problem>, BTreeMap<ProblemKind, usize>) {
        let dropped: BTreeMap<_, _> = self.dropped.into_iter().collect();
        for (&kind, &count) in &dropped {
            self.list.push(Problem {
                kind,
                cells: Vec::new(),
                squares: Vec::new(),
                message: format!(
                    "... and {} more {} problems not listed",
                    thousands(count),
                    kind.as_str()
                ),
                numbers: Vec::new(),
            });
        }
        (self.list, dropped)
    }
}

impl Problem {
    /// The problem about the move numbers `numbers` (see [`Problem::numbers`]).
    pub(crate) fn about(mut self, numbers: Vec<i64>) -> Problem {
        self.numbers = numbers;
        self
    }
}

/// `1279597` -> `1,279,597`.
pub(crate) fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}
