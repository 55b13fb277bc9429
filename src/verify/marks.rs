//! What a teacher writes in the margin of a partial or invalid board: each cell that is wrong
//! (or, on a failed attempt, each square the knight can still reach), what kind of mark it
//! gets, and a note in plain words, all from the verifier's own [`Problem`]s (their kinds,
//! cells, squares and move numbers), never from a second check. The class report
//! ([`crate::verify::class`]) fills and annotates the cells from these marks.
//!
//! ```
//! use knights_tour::verify::marks::{marks, MarkKind};
//! use knights_tour::verify::{verify_grid, VerifyOptions};
//! use knights_tour::workbook::read::{CellValue, SheetCells};
//! // A 3x4 tour with 8 and 9 swapped: 7 -> 8 and 9 -> 10 are no knight's moves.
//! let rows = [[1, 4, 7, 10], [12, 8, 2, 5], [3, 6, 11, 9]];
//! let cells = SheetCells::from_values(rows.iter().enumerate().flat_map(|(r, row)| {
//!     row.iter().enumerate().map(move |(c, &v)| (r as u32, c as u32, CellValue::Number(v as f64)))
//! }));
//! let options = VerifyOptions { keep_typed: true, ..VerifyOptions::default() };
//! let report = verify_grid("Sheet1", 0, &cells, &options);
//! let m = marks(&report.boards[0]);
//! let b2 = m.marks.iter().find(|m| m.cell.to_string() == "B2").unwrap();
//! assert_eq!(b2.kind, MarkKind::Jump);
//! assert!(b2.notes.contains(&"8 is not a knight's move from 7 (c3 to b2)".to_string()));
//! ```

use std::collections::BTreeMap;

use crate::english::count_usize;
use crate::workbook::cellref::CellRef;

use super::report::{BoardReport, Notation, Problem, ProblemKind, SquareName, Verdict};
use super::value::{classify, describe, Kind};

/// At most this many notes on one cell; the rest are counted.
const MAX_NOTES_PER_CELL: usize = 6;
/// At most this many problems in words beside the board; the rest are counted.
const MAX_LINES: usize = 12;

/// How a marked cell is filled, most important first: a cell with several marks shows the
/// first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MarkKind {
    /// One of two consecutive moves that are not a knight's move apart.
    Jump,
    /// A number typed on more than one square (a square listed more than once).
    Repeated,
    /// Not a move number: out of range, a fraction, text.
    NotAMove,
    /// A blank square, from a report that still lists them (`blank-cell`): blank squares are
    /// no longer problems, only counted (`empty_squares`).
    Blank,
    /// An empty cell at the short edge of a board that is not rectangular.
    Edge,
    /// The move before or after a missing number: the missing one belongs a knight's move
    /// from it.
    BesideMissing,
    /// A failed attempt's last move.
    Last,
    /// A square the knight can still reach from a failed attempt's last move.
    Reachable,
    /// The first move.
    Start,
}

impl MarkKind {
    /// Every kind, most important first.
    pub const ALL: [MarkKind; 9] = [
        MarkKind::Jump,
        MarkKind::Repeated,
        MarkKind::NotAMove,
        MarkKind::Blank,
        MarkKind::Edge,
        MarkKind::BesideMissing,
        MarkKind::Last,
        MarkKind::Reachable,
        MarkKind::Start,
    ];

    /// What the fill means, for a legend.
    pub fn legend(self) -> &'static str {
        match self {
            MarkKind::Jump => "a move that is not a knight's move from the one before",
            MarkKind::Repeated => "a number typed more than once",
            MarkKind::NotAMove => "not a move number (out of range, a fraction, text)",
            MarkKind::Blank => "a blank square",
            MarkKind::Edge => "a short row or column: the board is not rectangular",
            MarkKind::BesideMissing => "next to a missing number: it belongs a knight's move away",
            MarkKind::Last => "the last move",
            MarkKind::Reachable => "a square the knight can still reach",
            MarkKind::Start => "the first move",
        }
    }
}

/// One marked cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    /// The cell on the person's sheet.
    pub cell: CellRef,
    /// How it is filled (the most important of its marks).
    pub kind: MarkKind,
    /// What is wrong with it, in plain words, one sentence each (none for the start).
    pub notes: Vec<String>,
}

/// Everything marked on one board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoardMarks {
    /// One line saying what the board is: `Invalid: 3 problems`, `Partial: 23 of 64 squares,
    /// the knight is stuck`.
    pub headline: String,
    /// The marked cells, in sheet order, one each.
    pub marks: Vec<Mark>,
    /// The problems in words, one a line, for beside the board.
    pub lines: Vec<String>,
}

impl BoardMarks {
    /// The kinds used, most important first.
    pub fn kinds(&self) -> Vec<MarkKind> {
        let mut kinds: Vec<MarkKind> = self.marks.iter().map(|m| m.kind).collect();
        kinds.sort_unstable();
        kinds.dedup();
        kinds
    }
}

/// The marks of `board`: its problems, and for a failed attempt its last move and the squares
/// the knight can still reach. Cells that hold no culprit (a list's missing squares) give
/// lines only.
pub fn marks(board: &BoardReport) -> BoardMarks {
    let mut out = Marker {
        board,
        cells: BTreeMap::new(),
        lines: Vec::new(),
    };
    for p in &board.problems {
        out.problem(p);
    }
    if board.verdict == Verdict::Partial {
        out.attempt();
    }
    if let Some(start) = board.start {
        out.mark(start, MarkKind::Start, None);
    }
    let mut lines = out.lines;
    if lines.len() > MAX_LINES {
        let more = lines.len() - (MAX_LINES - 1);
        lines.truncate(MAX_LINES - 1);
        lines.push(format!("... and {more} more (see the notes on the cells)"));
    }
    BoardMarks {
        headline: headline(board),
        marks: out
            .cells
            .into_iter()
            .map(|(cell, (kind, notes))| Mark {
                cell,
                kind,
                notes: capped(notes),
            })
            .collect(),
        lines,
    }
}

fn capped(mut notes: Vec<String>) -> Vec<String> {
    if notes.len() > MAX_NOTES_PER_CELL {
        let more = notes.len() - (MAX_NOTES_PER_CELL - 1);
        notes.truncate(MAX_NOTES_PER_CELL - 1);
        notes.push(format!("... and {more} more"));
    }
    notes
}

/// `Invalid: 3 problems` or `Partial: 23 of 64 squares, ...`.
fn headline(b: &BoardReport) -> String {
    let squares = u64::from(b.board.rows) * u64::from(b.board.cols);
    match b.verdict {
        Verdict::Partial if b.stuck == Some(true) => format!(
            "Partial: {} of {squares} squares, then the knight is stuck",
            b.moves
        ),
        Verdict::Partial => format!(
            "Partial: {} of {squares} squares, a tour in progress",
            b.moves
        ),
        Verdict::Invalid => {
            // Each kind with problems not listed has one summary line among the problems.
            let not_listed = &b.problems_not_listed;
            let listed = b.problems.len().saturating_sub(not_listed.len());
            let all = listed + not_listed.values().sum::<usize>();
            match b.empty_squares {
                0 => format!("Invalid: {}", count_usize(all, "problem")),
                empty => format!(
                    "Invalid: {}, {} still empty",
                    count_usize(all, "problem"),
                    count_usize(empty, "square")
                ),
            }
        }
        Verdict::Unfinished => format!(
            "Unfinished: {} of {squares} squares visited, no mistake so far",
            b.moves
        ),
        other => other.as_str().to_string(),
    }
}

/// Collects marks cell by cell.
struct Marker<'a> {
    board: &'a BoardReport,
    cells: BTreeMap<CellRef, (MarkKind, Vec<String>)>,
    lines: Vec<String>,
}

impl Marker<'_> {
    fn mark(&mut self, cell: CellRef, kind: MarkKind, note: Option<&str>) {
        let entry = self.cells.entry(cell).or_insert((kind, Vec::new()));
        entry.0 = entry.0.min(kind);
        if let Some(note) = note.filter(|n| !entry.1.iter().any(|x| x == n)) {
            entry.1.push(note.to_string());
        }
    }

    fn list(&self) -> bool {
        self.board.notation == Notation::List
    }

    /// `17` on a grid, `move 17` in a list.
    fn who(&self, n: i64) -> String {
        if self.list() {
            format!("move {n}")
        } else {
            n.to_string()
        }
    }

    fn problem(&mut self, p: &Problem) {
        let line = match p.kind {
            ProblemKind::NotAKnightMove => self.jump(p),
            ProblemKind::DuplicateNumber => self.repeated(p),
            ProblemKind::MissingNumber => self.missing(p),
            ProblemKind::OutOfRange | ProblemKind::NonInteger | ProblemKind::TextCell => {
                self.not_a_move(p)
            }
            ProblemKind::BlankCell => self.each(
                p,
                MarkKind::Blank,
                "this square is blank: a finished tour numbers every square",
            ),
            ProblemKind::NotRectangular => self.each(
                p,
                MarkKind::Edge,
                "empty at the edge: the board's rows or columns have different lengths",
            ),
        };
        // A summary of problems beyond those listed names no cell: say it as it is.
        self.lines.push(line.unwrap_or_else(|| p.message.clone()));
    }

    /// The same note on every cell of `p`.
    fn each(&mut self, p: &Problem, kind: MarkKind, note: &str) -> Option<String> {
        for &cell in &p.cells {
            self.mark(cell, kind, Some(note));
        }
        match p.kind {
            ProblemKind::BlankCell => Some(format!("{} is blank", p.squares.first()?)),
            _ => Some(
                "The board is not rectangular: its rows or columns have different lengths"
                    .to_string(),
            ),
        }
    }

    /// `18 is not a knight's move from 17 (c3 to c5)` on both cells.
    fn jump(&mut self, p: &Problem) -> Option<String> {
        let (&[a, b], &[sa, sb]) = (p.numbers.as_slice(), p.squares.as_slice()) else {
            return None;
        };
        let note = format!(
            "{} is not a knight's move from {} ({sa} to {sb})",
            self.who(b),
            self.who(a)
        );
        for &cell in &p.cells {
            self.mark(cell, MarkKind::Jump, Some(&note));
        }
        Some(note)
    }

    /// `7 appears twice: also at e4` on each cell holding it.
    fn repeated(&mut self, p: &Problem) -> Option<String> {
        let times = |k: usize| match k {
            2 => "twice".to_string(),
            k => format!("{k} times"),
        };
        let joined = |items: Vec<String>| match items.as_slice() {
            [one] => one.clone(),
            [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
            [] => String::new(),
        };
        if self.list() {
            // The same square at several moves.
            let square = *p.squares.first()?;
            let k = p.numbers.len();
            for (i, &cell) in p.cells.iter().enumerate() {
                let others: Vec<String> = (p.numbers.iter().enumerate())
                    .filter(|&(j, _)| j != i)
                    .map(|(_, m)| m.to_string())
                    .collect();
                let word = if others.len() == 1 { "move" } else { "moves" };
                let note = format!(
                    "{square} is listed {}: also at {word} {}",
                    times(k),
                    joined(others)
                );
                self.mark(cell, MarkKind::Repeated, Some(&note));
            }
            let moves = joined(p.numbers.iter().map(i64::to_string).collect());
            return Some(format!("{square} is listed {}: moves {moves}", times(k)));
        }
        let &[v] = p.numbers.as_slice() else {
            return None;
        };
        let k = p.cells.len();
        for (i, &cell) in p.cells.iter().enumerate() {
            let others: Vec<String> = (p.squares.iter().enumerate())
                .filter(|&(j, _)| j != i)
                .map(|(_, s)| s.to_string())
                .collect();
            let note = format!("{v} appears {}: also at {}", times(k), joined(others));
            self.mark(cell, MarkKind::Repeated, Some(&note));
        }
        let at = joined(p.squares.iter().map(SquareName::to_string).collect());
        Some(format!("{v} appears {}: at {at}", times(k)))
    }

    /// On a grid, the numbers before and after a missing run: the run belongs a knight's
    /// move from them. A list's missing squares have no cell.
    fn missing(&mut self, p: &Problem) -> Option<String> {
        let &[a, b] = p.numbers.as_slice() else {
            return None;
        };
        let (what, it, them) = if a == b {
            (format!("{a} is missing"), "it".to_string(), "it")
        } else {
            (format!("{a} to {b} are missing"), a.to_string(), "them")
        };
        let first = i64::from(self.board.numbering_from);
        let last = first + i64::from(self.board.board.rows) * i64::from(self.board.board.cols) - 1;
        if a > first {
            if let Some(cell) = self.cell_holding(a - 1) {
                let note = format!("{what}: {it} belongs a knight's move from this {}", a - 1);
                self.mark(cell, MarkKind::BesideMissing, Some(&note));
            }
        }
        if b < last {
            if let Some(cell) = self.cell_holding(b + 1) {
                let it = if a == b {
                    "it".to_string()
                } else {
                    b.to_string()
                };
                let note = format!("{what}: {it} belongs a knight's move from this {}", b + 1);
                self.mark(cell, MarkKind::BesideMissing, Some(&note));
            }
        }
        // The checker names the one empty or bad cell the number probably belongs in.
        let hint = p.cells.first().zip(p.squares.first());
        if let Some((&cell, square)) = hint {
            let note = format!("perhaps the missing {a} belongs here ({square})");
            self.mark(cell, MarkKind::BesideMissing, Some(&note));
            return Some(format!("{what} (perhaps it belongs on {square})"));
        }
        Some(format!("{what}: no square holds {them}"))
    }

    /// The cell holding the move number `n` as written, on a grid whose cells were kept.
    fn cell_holding(&self, n: i64) -> Option<CellRef> {
        let typed = self.board.typed.as_ref()?;
        let range = typed.range;
        let cols = range.cols() as usize;
        typed.values.iter().enumerate().find_map(|(i, v)| {
            let kind = classify(v.as_ref().map(|v| v.as_value_ref()));
            (kind == Kind::Int(n)).then(|| range.first.offset((i / cols) as u32, (i % cols) as u32))
        })
    }

    /// Out of range, not a whole number, or text.
    fn not_a_move(&mut self, p: &Problem) -> Option<String> {
        let cell = *p.cells.first()?;
        let square = *p.squares.first()?;
        let b = &self.board.board;
        let note = match (p.kind, p.numbers.as_slice(), self.list()) {
            (ProblemKind::OutOfRange, &[m], true) => {
                format!(
                    "move {m} names {square}, off the {}x{} board",
                    b.rows, b.cols
                )
            }
            (ProblemKind::OutOfRange, &[v], false) => {
                let first = i64::from(self.board.numbering_from);
                let last = first + i64::from(b.rows) * i64::from(b.cols) - 1;
                format!("{v} is not a move number here: moves run from {first} to {last}")
            }
            (kind, _, _) => {
                let value = self.board.typed.as_ref().and_then(|t| t.get(cell));
                let what = match value {
                    Some(v) => describe(Some(v)),
                    None => "this".to_string(),
                };
                match kind {
                    ProblemKind::NonInteger => format!("{what} is not a whole number"),
                    _ => format!("{what} is not a move number"),
                }
            }
        };
        self.mark(cell, MarkKind::NotAMove, Some(&note));
        Some(match self.list() {
            true => note,
            false => format!("{square}: {note}"),
        })
    }

    /// A failed attempt: its last move, and on a grid the squares the knight can still reach.
    fn attempt(&mut self) {
        let Some(tour) = self.board.tour.as_ref() else {
            return;
        };
        let (Some(end), Some(end_cell)) = (tour.end(), self.board.end) else {
            return;
        };
        let board = tour.board();
        let k = tour.len() as i64 - 1 + i64::from(self.board.numbering_from);
        let end_square = board.algebraic(end);
        let reach = tour.reachable();
        if reach.is_empty() {
            let note = format!(
                "the knight is stuck after {}: every square a knight's move from here is taken",
                self.who(k)
            );
            self.mark(end_cell, MarkKind::Last, Some(&note));
            self.lines.push(format!(
                "The knight is stuck on {end_square} after {}",
                self.who(k)
            ));
            return;
        }
        let note = format!(
            "the last move, {}: the knight can go on from here to {}",
            self.who(k),
            count_usize(reach.len(), "square")
        );
        self.mark(end_cell, MarkKind::Last, Some(&note));
        let grid = self.board.notation == Notation::Grid;
        let squares: Vec<String> = reach.iter().map(|&s| board.algebraic(s)).collect();
        for &s in &reach {
            if grid {
                let note = format!("the knight can still go here from {end_square}");
                self.mark(
                    self.board.board.top_left.offset(s.row, s.col),
                    MarkKind::Reachable,
                    Some(&note),
                );
            }
        }
        let shown = match grid {
            true => "marked green".to_string(),
            false => squares.join(", "),
        };
        self.lines.push(format!(
            "From {end_square} the knight can still go to {} ({shown})",
            count_usize(reach.len(), "square")
        ));
    }
}
