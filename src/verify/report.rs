//! What the verifier says: one [`FileReport`] per file, one [`SheetReport`] per worksheet.
//! These serialise to the `--json` document (`{"files": [...]}`, see [`JsonDocument`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::tour::Tour;
use crate::workbook::cellref::{CellRange, CellRef};
use crate::workbook::read::{CellValue, CellValueRef};

pub use super::magic::Magic;
pub use super::notation::{CoordOrder, CoordReading, ListForm};
pub use super::square::SquareName;

/// The verdict on one worksheet: exactly one of these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// A complete tour whose last square is a knight's move from its first.
    Closed,
    /// A complete tour that is not closed.
    Open,
    /// A failed attempt: the numbers present are exactly 1..k (k below the number of squares),
    /// a valid knight path, every other square blank.
    Partial,
    /// A board being filled in (a puzzle being solved, a practice board with moves typed
    /// here and there): some squares still blank and no mistake among the numbers present,
    /// which are not just 1..k (that is `partial`).
    Unfinished,
    /// Anything else on a board: see the problems.
    Invalid,
    /// No board on the sheet (no numbers, or too few to be a board).
    NoBoard,
}

impl Verdict {
    /// The word used in reports (`closed`, `no-board`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Closed => "closed",
            Verdict::Open => "open",
            Verdict::Partial => "partial",
            Verdict::Unfinished => "unfinished",
            Verdict::Invalid => "invalid",
            Verdict::NoBoard => "no-board",
        }
    }

    /// Whether the sheet holds a complete tour.
    pub fn is_complete_tour(self) -> bool {
        matches!(self, Verdict::Closed | Verdict::Open)
    }
}

/// The kinds of problem an `invalid` board can have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProblemKind {
    /// A move number on more than one square.
    DuplicateNumber,
    /// A move number from 1 to the number of squares on no square.
    MissingNumber,
    /// An integer below 1 or above the number of squares.
    OutOfRange,
    /// Two consecutive move numbers not a knight's move apart.
    NotAKnightMove,
    /// A number that is not a whole number (12.5).
    NonInteger,
    /// Text (or TRUE/FALSE, or an error value) where a move number belongs.
    TextCell,
    /// A blank square on a board that is not a failed attempt. No longer reported: a blank
    /// square is still empty, not a mistake (`empty_squares` counts them); kept so reports
    /// that name it still read.
    BlankCell,
    /// The filled cells do not form a rectangle (a short row or column).
    NotRectangular,
}

impl ProblemKind {
    /// The kebab-case name used in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            ProblemKind::DuplicateNumber => "duplicate-number",
            ProblemKind::MissingNumber => "missing-number",
            ProblemKind::OutOfRange => "out-of-range",
            ProblemKind::NotAKnightMove => "not-a-knight-move",
            ProblemKind::NonInteger => "non-integer",
            ProblemKind::TextCell => "text-cell",
            ProblemKind::BlankCell => "blank-cell",
            ProblemKind::NotRectangular => "not-rectangular",
        }
    }
}

/// One thing wrong with a board, with the cells involved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    /// What kind of problem.
    pub kind: ProblemKind,
    /// The cells involved (written `["E5", "F8"]`); empty when no cell holds the culprit
    /// (a missing number).
    pub cells: Vec<CellRef>,
    /// The squares of the chessboard those cells stand for, in the same order (`["c1", "e2"]`):
    /// for a grid the square each cell is, for a list the square each entry names (also one off
    /// the board). A list's `missing-number` names the squares no entry names.
    #[serde(default)]
    pub squares: Vec<SquareName>,
    /// A sentence a person understands, naming cells and their squares: `E10 (c1)`.
    pub message: String,
    /// The move numbers the problem is about, as written: a jump's two, the number typed
    /// twice (for a list, the moves that repeat a square), the first and last of a missing run,
    /// the number out of range (for a list, the move naming a square off the board). Empty for
    /// cells that hold no move number (text, fractions, blanks).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub numbers: Vec<i64>,
}

/// Where the board sits on the sheet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardPosition {
    /// Top-left cell (for a list: the cell of its first square).
    pub top_left: CellRef,
    /// Rows of the board (for a ragged board, of its bounding box; for a list, the
    /// chessboard's).
    pub rows: u32,
    /// Columns of the board (as for `rows`).
    pub cols: u32,
}

/// How a tour is written on the sheet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Notation {
    /// Move numbers on the squares of a grid.
    Grid,
    /// A tour written entry by entry in move order: square names (`e4`) down a column or
    /// along a row, coordinates, or all in one cell ([`ListForm`]).
    List,
}

impl Notation {
    /// The word used in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Notation::Grid => "grid",
            Notation::List => "list",
        }
    }
}

/// The verdict on one board of a sheet.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoardReport {
    /// The verdict (never `no-board`).
    pub verdict: Verdict,
    /// Where the board is.
    pub board: BoardPosition,
    /// How many squares hold a valid move number (the squares visited).
    pub moves: usize,
    /// How many squares are still empty (blank, or marked unvisited; for a list, the squares
    /// it does not name). An empty square is never a problem: a board with some and no
    /// mistake is `partial` or `unfinished`.
    #[serde(default)]
    pub empty_squares: usize,
    /// The cell holding the first move.
    pub start: Option<CellRef>,
    /// The cell holding the last move.
    pub end: Option<CellRef>,
    /// Whether the start cell is filled with a colour the rest of the board does not have;
    /// `None` where the format does not let us read fills (everything but xlsx/xlsm) and for
    /// lists.
    pub start_highlighted: Option<bool>,
    /// Every problem found (empty unless `invalid`), at most
    /// [`MAX_PROBLEMS_PER_KIND`](super::check::MAX_PROBLEMS_PER_KIND) of a kind.
    pub problems: Vec<Problem>,
    /// How many problems of each kind were found beyond those listed in `problems`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub problems_not_listed: BTreeMap<ProblemKind, usize>,
    /// `grid` or `list` (squares, coordinates or a one-cell tour: see `list_form`).
    pub notation: Notation,
    /// The square of the first move.
    pub start_square: Option<SquareName>,
    /// The square of the last move.
    pub end_square: Option<SquareName>,
    /// The first move's number: 1, or 0 for tours numbered 0..N-1.
    pub numbering_from: u8,
    /// The cells the board occupies on the sheet: a grid's rectangle (`C3:J10`), a list's run
    /// (`B3:B66`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cells: Option<CellRange>,
    /// For a `partial` board: `true` when the knight is stuck (no unvisited square is a
    /// knight's move from the last one), `false` for a tour in progress.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stuck: Option<bool>,
    /// For lists, how the tour is written: `squares` (one a cell), `coordinates`, or
    /// `one-cell` (the whole tour in one cell).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list_form: Option<ListForm>,
    /// For coordinates, how they were read: `order` (`xy` or `row-col`) and `from` (0 or 1);
    /// rows are counted from the top.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coordinates: Option<CoordReading>,
    /// For a grid whose program marks unvisited squares with a number (0 or -1), that number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unvisited: Option<i64>,
    /// For a complete tour whose ranks and files all sum alike: `semi-magic`, or `magic` when
    /// both long diagonals do too (see [`Magic`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub magic: Option<Magic>,
    /// For a list, how many moves it writes (a cell may write several); not serialised.
    #[serde(skip)]
    pub entries: Option<usize>,
    /// The path in move order, for complete tours and failed attempts; not serialised.
    #[serde(skip)]
    pub tour: Option<Tour>,
    /// For an `invalid` board, its moves from the first up to the first break (a number
    /// missing or typed twice, or a jump), for drawing; not serialised.
    #[serde(skip)]
    pub unbroken: Option<Tour>,
    /// The cells of the board as typed, kept when [`VerifyOptions::keep_typed`] asks for them
    /// (a class report marks them); not serialised.
    ///
    /// [`VerifyOptions::keep_typed`]: super::VerifyOptions::keep_typed
    #[serde(skip)]
    pub typed: Option<TypedCells>,
    /// A drawing of a small invalid board with the bad cells marked, made only for text
    /// output; not serialised.
    #[serde(skip)]
    pub drawing: Option<String>,
}

/// The cells of a board as the person typed them: a grid's rectangle, a list's run.
#[derive(Clone, Debug, PartialEq)]
pub struct TypedCells {
    /// Where they are on the sheet.
    pub range: CellRange,
    /// Their values row by row (`None` where blank).
    pub values: Vec<Option<CellValue>>,
}

impl TypedCells {
    /// The value at sheet cell `cell`, if it is in the range and not blank.
    pub fn get(&self, cell: CellRef) -> Option<CellValueRef<'_>> {
        if !self.range.contains(cell) {
            return None;
        }
        let (r, c) = (
            cell.row - self.range.first.row,
            cell.col - self.range.first.col,
        );
        let i = r as usize * self.range.cols() as usize + c as usize;
        self.values.get(i)?.as_ref().map(CellValue::as_value_ref)
    }
}

/// The verdict on one worksheet: its boards, and (for readers of the first version) the
/// first board's fields at the sheet level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SheetReport {
    /// The worksheet name.
    pub sheet: String,
    /// Its position in the workbook from 0.
    pub index: usize,
    /// The first board's verdict; `no-board` when the sheet holds none.
    pub verdict: Verdict,
    /// Where the first board is; `None` for `no-board`.
    pub board: Option<BoardPosition>,
    /// The first board's move count.
    pub moves: usize,
    /// The cell holding the first board's first move.
    pub start: Option<CellRef>,
    /// The cell holding the first board's last move.
    pub end: Option<CellRef>,
    /// Whether the first board's start cell is highlighted (see [`BoardReport`]).
    pub start_highlighted: Option<bool>,
    /// The first board's problems.
    pub problems: Vec<Problem>,
    /// Anything else worth telling about this sheet (e.g. why it holds no board).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// How many problems of each kind the first board has beyond those listed in `problems`
    /// (at most [`MAX_PROBLEMS_PER_KIND`](super::check::MAX_PROBLEMS_PER_KIND) of a kind are
    /// listed).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub problems_not_listed: BTreeMap<ProblemKind, usize>,
    /// The sheet could not be read (the `note` says why): an error, never a pass.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unreadable: bool,
    /// Every board on the sheet in reading order (by top-left cell, row first).
    #[serde(default)]
    pub boards: Vec<BoardReport>,
    /// A program's own table that holds no submission (`generate`'s Summary): listed in JSON
    /// and CSV like every sheet, left out of the text report, where its `no-board` line on
    /// every generated workbook was noise.
    #[serde(skip)]
    pub quiet: bool,
}

impl SheetReport {
    /// A report for a sheet with no board.
    pub fn no_board(sheet: &str, index: usize, note: Option<String>) -> SheetReport {
        SheetReport::from_boards(sheet, index, Vec::new(), note)
    }

    /// A report whose sheet-level fields describe the first of `boards`.
    pub fn from_boards(
        sheet: &str,
        index: usize,
        boards: Vec<BoardReport>,
        note: Option<String>,
    ) -> SheetReport {
        let first = boards.first();
        SheetReport {
            sheet: sheet.to_string(),
            index,
            verdict: first.map_or(Verdict::NoBoard, |b| b.verdict),
            board: first.map(|b| b.board.clone()),
            moves: first.map_or(0, |b| b.moves),
            start: first.and_then(|b| b.start),
            end: first.and_then(|b| b.end),
            start_highlighted: first.and_then(|b| b.start_highlighted),
            problems: first.map(|b| b.problems.clone()).unwrap_or_default(),
            note,
            problems_not_listed: first
                .map(|b| b.problems_not_listed.clone())
                .unwrap_or_default(),
            unreadable: false,
            boards,
            quiet: false,
        }
    }

    /// A report for a sheet that could not be read: `no-board`, `unreadable`, with the reason.
    pub fn unreadable(sheet: &str, index: usize, why: String) -> SheetReport {
        SheetReport {
            unreadable: true,
            ..SheetReport::no_board(sheet, index, Some(format!("cannot read this sheet: {why}")))
        }
    }

    /// The first board's path (see [`BoardReport::tour`]).
    pub fn tour(&self) -> Option<&Tour> {
        self.boards.first().and_then(|b| b.tour.as_ref())
    }
}

/// The report on one file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FileReport {
    /// The file as given.
    pub file: String,
    /// The format found in the content (or named by the extension when unreadable).
    pub format: Option<String>,
    /// Whether the workbook could be opened.
    pub readable: bool,
    /// Why the file (or a requested sheet) could not be read.
    pub error: Option<String>,
    /// One report per worksheet checked.
    pub sheets: Vec<SheetReport>,
    /// Whether the file is a report `verify` itself wrote (a class workbook, whose Results
    /// sheet's A1 says so, or a CSV report, known by its header row): a folder walk leaves it
    /// out, so a report saved into the class's folder is not counted as a submission.
    #[serde(skip)]
    pub written_by_verify: bool,
}

impl FileReport {
    /// The exit code this file alone deserves: 2 when unreadable (or a requested sheet is
    /// missing, or no sheet could be read), 1 when a board is partial or invalid, a sheet could
    /// not be read while others were, or the file holds no board at all, else 0 (every board a
    /// complete tour).
    pub fn exit_code(&self) -> u8 {
        let unreadable = self.sheets.iter().filter(|s| s.unreadable).count();
        if !self.readable
            || self.error.is_some()
            || (unreadable > 0 && unreadable == self.sheets.len())
        {
            crate::exit_codes::ERROR
        } else if unreadable > 0
            || !self.has_board()
            || self.boards().any(|b| !b.verdict.is_complete_tour())
        {
            crate::exit_codes::FAILURE
        } else {
            crate::exit_codes::SUCCESS
        }
    }
}

impl FileReport {
    /// Every board of every sheet, in order.
    pub fn boards(&self) -> impl Iterator<Item = &BoardReport> {
        self.sheets.iter().flat_map(|s| s.boards.iter())
    }

    /// Whether any sheet holds a board.
    pub fn has_board(&self) -> bool {
        self.boards().next().is_some()
    }

    /// The rows of a class report on this file (the CSV report, the class workbook's Results
    /// sheet): one per board, one per sheet that could not be read, and for a file without
    /// any board one row saying why (`no-board`, or `unreadable` for a file that cannot be
    /// read at all), so a teacher sees every submission.
    pub fn rows(&self) -> Vec<ResultRow<'_>> {
        let file = self.file.as_str();
        if !self.readable {
            let why = self.error.clone().unwrap_or_default();
            let outcome = RowOutcome::Unreadable(why);
            return vec![ResultRow {
                file,
                sheet: "",
                outcome,
            }];
        }
        let mut out = Vec::new();
        for s in &self.sheets {
            let sheet = s.sheet.as_str();
            for b in &s.boards {
                let outcome = RowOutcome::Board(b);
                out.push(ResultRow {
                    file,
                    sheet,
                    outcome,
                });
            }
            if s.unreadable {
                let outcome = RowOutcome::Unreadable(s.note.clone().unwrap_or_default());
                out.push(ResultRow {
                    file,
                    sheet,
                    outcome,
                });
            }
        }
        if out.is_empty() {
            let why = self
                .error
                .clone()
                .or_else(|| self.sheets.iter().find_map(|s| s.note.clone()))
                .unwrap_or_else(|| format!("no board found in {}", self.file));
            let outcome = RowOutcome::NoBoard(why);
            out.push(ResultRow {
                file,
                sheet: "",
                outcome,
            });
        }
        out
    }
}

/// One row of a class report: a board, or why there is none.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultRow<'a> {
    /// The file as given.
    pub file: &'a str,
    /// The sheet (empty for a row about the whole file).
    pub sheet: &'a str,
    /// The board, or why there is none.
    pub outcome: RowOutcome<'a>,
}

/// What a [`ResultRow`] is about.
#[derive(Clone, Debug, PartialEq)]
pub enum RowOutcome<'a> {
    /// A board and its verdict.
    Board(&'a BoardReport),
    /// A readable file without any board, and why.
    NoBoard(String),
    /// A file or sheet that could not be read, and why.
    Unreadable(String),
}

impl<'a> ResultRow<'a> {
    /// The verdict word: the board's, `no-board` or `unreadable`.
    pub fn verdict(&self) -> &'static str {
        match &self.outcome {
            RowOutcome::Board(b) => b.verdict.as_str(),
            RowOutcome::NoBoard(_) => Verdict::NoBoard.as_str(),
            RowOutcome::Unreadable(_) => "unreadable",
        }
    }

    /// The board, if the row has one.
    pub fn board(&self) -> Option<&'a BoardReport> {
        match self.outcome {
            RowOutcome::Board(b) => Some(b),
            _ => None,
        }
    }

    /// The first problem as `kind: message`, or why there is no board.
    pub fn first_problem(&self) -> String {
        match &self.outcome {
            RowOutcome::Board(b) => b
                .problems
                .first()
                .map(|p| format!("{}: {}", p.kind.as_str(), p.message))
                .unwrap_or_default(),
            RowOutcome::NoBoard(why) | RowOutcome::Unreadable(why) => why.clone(),
        }
    }
}

/// The whole `--json` document.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JsonDocument {
    /// One report per file, in the order given.
    pub files: Vec<FileReport>,
}

/// Counts over several files, for the closing line of a report on many files.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Files checked.
    pub files: usize,
    /// Boards found, by verdict: closed, open, partial, invalid.
    pub closed: usize,
    /// Open tours.
    pub open: usize,
    /// Partial attempts.
    pub partial: usize,
    /// Unfinished boards (puzzles being solved).
    pub unfinished: usize,
    /// Invalid boards.
    pub invalid: usize,
    /// Files that could not be read (or a requested sheet was missing).
    pub unreadable: usize,
    /// Readable files without a board.
    pub without_board: usize,
}

impl Totals {
    /// Count one file's report.
    pub fn add(&mut self, report: &FileReport) {
        self.files += 1;
        if !report.readable || report.error.is_some() {
            self.unreadable += 1;
        } else if !report.has_board() {
            self.without_board += 1;
        }
        for b in report.boards() {
            match b.verdict {
                Verdict::Closed => self.closed += 1,
                Verdict::Open => self.open += 1,
                Verdict::Partial => self.partial += 1,
                Verdict::Unfinished => self.unfinished += 1,
                Verdict::Invalid | Verdict::NoBoard => self.invalid += 1,
            }
        }
    }

    /// Boards found.
    pub fn boards(&self) -> usize {
        self.closed + self.open + self.partial + self.unfinished + self.invalid
    }
}
