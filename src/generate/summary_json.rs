//! The run summary `generate --json` prints instead of its message: a contract for scripts,
//! fields are added, never renamed.

use serde::Serialize;

use crate::output::json::BoardJson;

/// The facts of a `generate` run, printed by `--json` instead of the message.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// Whether everything asked for was found (the exit code is 0 exactly then).
    pub solved: bool,
    /// The message a person would have read.
    pub message: String,
    /// Board size.
    pub board: BoardJson,
    /// Attempts made (worksheets of a workbook, tours of `--all`).
    pub attempts: usize,
    /// Complete tours meeting the request.
    pub tours_found: usize,
    /// `--tours`.
    pub tours_requested: u32,
    /// The seed: `--seed` repeats the run. Below 2^53 when drawn at random, so exact in every
    /// JSON reader; `null` when the run made no random choice (`--all`).
    pub seed: Option<u64>,
    /// The seed in decimal digits, exact in every JSON reader whatever its size (a `--seed`
    /// above 2^53 is rounded as a number by JavaScript and jq); `null` with `seed`.
    pub seed_text: Option<String>,
    /// `--method`.
    pub method: &'static str,
    /// `--tiebreak`; `null` when no Warnsdorff attempt could be made (`--all`, `--method
    /// construct` or `backtrack`).
    pub tiebreak: Option<&'static str>,
    /// Where the output went.
    pub output: String,
    /// The output format.
    pub format: &'static str,
    /// With `--all`: whether every tour was enumerated (not stopped by --limit or --timeout).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exhaustive: Option<bool>,
    /// Whether `--timeout` stopped the run before it found everything asked for.
    pub timed_out: bool,
    /// One entry per attempt, at most [`Summary::MAX_SHEETS_LISTED`].
    pub sheets: Vec<SheetSummary>,
    /// Attempts made beyond those listed in `sheets` (an `--all` run can find millions).
    #[serde(skip_serializing_if = "is_zero")]
    pub sheets_not_listed: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Summary {
    /// At most this many attempts are listed one by one; the rest are counted.
    pub const MAX_SHEETS_LISTED: usize = 1000;

    /// List one more attempt (or count it once the list is full).
    pub fn push_sheet(&mut self, sheet: SheetSummary) {
        if self.sheets.len() < Summary::MAX_SHEETS_LISTED {
            self.sheets.push(sheet);
        } else {
            self.sheets_not_listed += 1;
        }
    }
}

/// One attempt in the summary.
#[derive(Clone, Debug, Serialize)]
pub struct SheetSummary {
    /// Whether it meets the request.
    pub solved: bool,
    /// The method that made it.
    pub method: &'static str,
    /// Warnsdorff's tie-break, for Warnsdorff attempts.
    pub tiebreak: Option<&'static str>,
    /// Square of move 1.
    pub start: Option<String>,
    /// Square of the last move.
    pub end: Option<String>,
    /// Squares visited.
    pub moves: usize,
    /// Whether every square is visited.
    pub complete: bool,
    /// Whether it is a closed tour.
    pub closed: bool,
    /// Why it failed, if it did.
    pub note: Option<String>,
}
