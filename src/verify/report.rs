//! What the verifier says: one [`FileReport`] per file, one [`SheetReport`] per worksheet.
//! These serialise to the `--json` document (`{"files": [...]}`, see [`JsonDocument`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::tour::Tour;

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
    /// A blank square on a board that is not a failed attempt.
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

/// One thing wrong with a board, with the cells involved (A1 notation).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    /// What kind of problem.
    pub kind: ProblemKind,
    /// The cells involved, e.g. `["E5", "F8"]`; empty when no cell holds the culprit
    /// (a missing number).
    pub cells: Vec<String>,
    /// A sentence a person understands.
    pub message: String,
}

/// Where the board sits on the sheet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardPosition {
    /// Top-left cell in A1 notation.
    pub top_left: String,
    /// Rows of the board (for a ragged board, of its bounding box).
    pub rows: u32,
    /// Columns of the board (for a ragged board, of its bounding box).
    pub cols: u32,
}

/// The verdict on one worksheet.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SheetReport {
    /// The worksheet name.
    pub sheet: String,
    /// Its position in the workbook from 0.
    pub index: usize,
    /// The verdict.
    pub verdict: Verdict,
    /// Where the board is; `None` for `no-board`.
    pub board: Option<BoardPosition>,
    /// How many squares hold a valid move number (the squares visited).
    pub moves: usize,
    /// The cell holding 1.
    pub start: Option<String>,
    /// The cell holding the last move number.
    pub end: Option<String>,
    /// Whether the start cell is filled with a colour the rest of the board does not have;
    /// `None` where the format does not let us read fills (everything but xlsx/xlsm).
    pub start_highlighted: Option<bool>,
    /// Every problem found (empty unless `invalid`).
    pub problems: Vec<Problem>,
    /// Anything else worth telling about this sheet (e.g. why it holds no board).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// How many problems of each kind were found beyond those listed in `problems` (at most
    /// [`MAX_PROBLEMS_PER_KIND`](super::check::MAX_PROBLEMS_PER_KIND) of a kind are listed).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub problems_not_listed: BTreeMap<ProblemKind, usize>,
    /// The sheet could not be read (the `note` says why): an error, never a pass.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unreadable: bool,
    /// The path in move order, for complete tours and failed attempts; not serialised.
    #[serde(skip)]
    pub tour: Option<Tour>,
    /// A drawing of a small invalid board with the bad cells marked; not serialised.
    #[serde(skip)]
    pub drawing: Option<String>,
}

impl SheetReport {
    /// A report for a sheet with no board.
    pub fn no_board(sheet: &str, index: usize, note: Option<String>) -> SheetReport {
        SheetReport {
            sheet: sheet.to_string(),
            index,
            verdict: Verdict::NoBoard,
            board: None,
            moves: 0,
            start: None,
            end: None,
            start_highlighted: None,
            problems: Vec::new(),
            note,
            problems_not_listed: BTreeMap::new(),
            unreadable: false,
            tour: None,
            drawing: None,
        }
    }

    /// A report for a sheet that could not be read: `no-board`, `unreadable`, with the reason.
    pub fn unreadable(sheet: &str, index: usize, why: String) -> SheetReport {
        SheetReport {
            unreadable: true,
            ..SheetReport::no_board(sheet, index, Some(format!("cannot read this sheet: {why}")))
        }
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
}

impl FileReport {
    /// The exit code this file alone deserves: 2 when unreadable (or a requested sheet is
    /// missing, or no sheet could be read), 1 when a sheet is partial or invalid or could not
    /// be read while others were, else 0.
    pub fn exit_code(&self) -> u8 {
        let unreadable = self.sheets.iter().filter(|s| s.unreadable).count();
        if !self.readable
            || self.error.is_some()
            || (unreadable > 0 && unreadable == self.sheets.len())
        {
            crate::exit_codes::ERROR
        } else if unreadable > 0
            || self
                .sheets
                .iter()
                .any(|s| matches!(s.verdict, Verdict::Partial | Verdict::Invalid))
        {
            crate::exit_codes::FAILURE
        } else {
            crate::exit_codes::SUCCESS
        }
    }
}

/// The whole `--json` document.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JsonDocument {
    /// One report per file, in the order given.
    pub files: Vec<FileReport>,
}
