//! Workbook writing primitives every command's workbook is built from: the board layout and
//! its look (`board_layout`), styles, sheet names and links, the path chart, the document
//! times, the compression stage, and the limits all workbooks share. Each command's own
//! workbook lives with the command (`generate`, `verify`'s class workbook and completion,
//! `pairs`, `puzzle`, `template`).
//!
//! ```
//! use std::time::{Duration, UNIX_EPOCH};
//! use knights_tour::workbook::write::{source_date_epoch, MAX_WORKBOOK_SHEETS};
//! assert_eq!(
//!     source_date_epoch(Some("60".as_ref())),
//!     Some(UNIX_EPOCH + Duration::from_secs(60))
//! );
//! assert_eq!(MAX_WORKBOOK_SHEETS, 2000);
//! ```

pub(crate) mod board_layout;
pub(crate) mod chart;
pub mod names;
pub(crate) mod styles;

use std::io::Write;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use rust_xlsxwriter::{ExcelDateTime, Workbook, XlsxError};

use crate::output::write_budget::{Work, WriteBudget};

pub use board_layout::{check_fits, FitError};

/// A workbook holds at most this many worksheets (attempts), whatever the goal.
pub const MAX_WORKBOOK_SHEETS: u64 = 2000;

/// Boards with at least this many squares are written in constant-memory mode (row by row
/// through a temporary file). Smaller ones are kept in memory, which needs no temporary file:
/// a workbook of many small failed attempts then does not hold one open file per sheet.
pub const CONSTANT_MEMORY_SQUARES: usize = 10_000;

/// Why a workbook could not be written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// There is nothing to write.
    #[error("no attempts to write: a workbook needs at least one tour or attempt")]
    NoAttempts,
    /// A board does not fit a worksheet at the requested top-left cell.
    #[error("attempt {attempt}: {source}")]
    DoesNotFit {
        /// Attempt number from 1.
        attempt: usize,
        /// Why.
        source: FitError,
    },
    /// An attempt's path is not a valid knight's path (a bug in whoever made it).
    #[error("attempt {attempt}: not a knight's path: {message}")]
    BadPath {
        /// Attempt number from 1.
        attempt: usize,
        /// What is wrong with it.
        message: String,
    },
    /// rust_xlsxwriter refused something or writing the output failed.
    #[error("{0}")]
    Xlsx(#[from] XlsxError),
}

impl WriteError {
    /// This error as the crate's command error for the output file `path`: a board that does
    /// not fit is a usage error (the user picked the board and the offset), the rest are
    /// workbook errors naming the file.
    pub fn at(self, path: &Path) -> crate::error::Error {
        match self {
            WriteError::DoesNotFit { .. } | WriteError::NoAttempts => {
                crate::error::Error::Usage(self.to_string())
            }
            other => crate::error::Error::Workbook {
                path: path.to_path_buf(),
                message: other.to_string(),
            },
        }
    }
}

/// Save a built workbook to `out`: rust_xlsxwriter compresses every sheet into the zip now, a
/// stage of its own, counted in bytes against `estimated_bytes`. Every workbook the tool
/// writes goes out this way.
pub(crate) fn compress<W: Write + Send>(
    workbook: &mut Workbook,
    out: W,
    budget: &WriteBudget<'_>,
    estimated_bytes: u64,
) -> Result<(), XlsxError> {
    let _stage = budget.stage(Work::Compressed, estimated_bytes);
    workbook.save_to_writer(out)
}

/// About what a workbook of `cells` written cells on `sheets` sheets takes once zipped
/// (measured: 5.5 to 5.9 bytes a numbered cell on 1000x1000 and 3000x3000 tours, 4.6 a square
/// name on the pairs' Tours sheet), for the compression's progress.
pub(crate) fn zip_estimate(cells: u64, sheets: u64) -> u64 {
    cells * 6 + sheets * 8_192 + 16_384
}

/// The creation time a workbook records when none is given: `SOURCE_DATE_EPOCH` (seconds
/// since 1970, the reproducible-builds convention) when it is set to a number, else now.
pub fn creation_time() -> SystemTime {
    source_date_epoch(std::env::var_os("SOURCE_DATE_EPOCH").as_deref())
        .unwrap_or_else(SystemTime::now)
}

/// The time a `SOURCE_DATE_EPOCH` value names, if it is a whole number of seconds.
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// use knights_tour::workbook::write::source_date_epoch;
/// let t = source_date_epoch(Some("1700000000".as_ref()));
/// assert_eq!(t, Some(UNIX_EPOCH + Duration::from_secs(1_700_000_000)));
/// assert_eq!(source_date_epoch(Some("yesterday".as_ref())), None);
/// assert_eq!(source_date_epoch(None), None);
/// ```
pub fn source_date_epoch(value: Option<&std::ffi::OsStr>) -> Option<SystemTime> {
    let secs: u64 = value?.to_str()?.trim().parse().ok()?;
    UNIX_EPOCH.checked_add(std::time::Duration::from_secs(secs))
}

/// `time` as the writer's date (whole seconds, UTC; before 1970 or unrepresentable: 1970).
pub(crate) fn excel_time(time: SystemTime) -> Result<ExcelDateTime, XlsxError> {
    let secs = time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    ExcelDateTime::from_timestamp(i64::try_from(secs).unwrap_or(0))
        .or_else(|_| ExcelDateTime::from_timestamp(0))
}

/// A board that does not fit was refused before anything was written; should it get here
/// anyway, say so rather than write a broken sheet.
pub(crate) fn fit_error(e: FitError) -> XlsxError {
    XlsxError::ParameterError(e.to_string())
}
