//! Which format an output is written in, and where it goes. The file's extension decides, as
//! it does for `draw`; `--format` is needed where there is no extension to go by (`-o -`, a
//! device) or where there is no `-o`: csv, json and text then go to standard output and a
//! workbook to the command's usual file, the same for every command ([`Format::resolve`]).
//! Contradicting the extension is a usage error rather than a `.csv` full of zip bytes.

use std::path::Path;

use crate::error::{Error, Result};
use crate::output::Destination;

/// An output format of `generate`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Format {
    /// Excel workbook, one worksheet per attempt (.xlsx).
    Xlsx,
    /// Grid of move numbers, one board row per line (.csv).
    Csv,
    /// Board, start, end, closed flag, seed and path as squares (.json).
    Json,
    /// Aligned grid for terminals (.txt).
    Text,
}

impl Format {
    /// Every format, in the order `--help` lists them.
    pub const ALL: [Format; 4] = [Format::Xlsx, Format::Csv, Format::Json, Format::Text];

    /// The name used by `--format` and in the JSON summary.
    pub fn name(self) -> &'static str {
        match self {
            Format::Xlsx => "xlsx",
            Format::Csv => "csv",
            Format::Json => "json",
            Format::Text => "text",
        }
    }

    /// The file extension that selects this format.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Xlsx => "xlsx",
            Format::Csv => "csv",
            Format::Json => "json",
            Format::Text => "txt",
        }
    }

    /// The format a file name asks for, from its extension (any case).
    ///
    /// ```
    /// use knights_tour::output::format::Format;
    /// assert_eq!(Format::from_path("tour.CSV".as_ref()), Some(Format::Csv));
    /// assert_eq!(Format::from_path("tour.txt".as_ref()), Some(Format::Text));
    /// assert_eq!(Format::from_path("/dev/null".as_ref()), None);
    /// ```
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        Format::ALL.into_iter().find(|f| f.extension() == ext)
    }

    /// Whether the format is text (and so may go to standard output).
    pub fn is_text(self) -> bool {
        self != Format::Xlsx
    }

    /// The format and destination for `--format` (`flag`) and `-o` (`output`), for a command
    /// whose workbook is called `workbook` when no `-o` names one. The rule is every
    /// command's: without `-o`, csv, json and text go to standard output (as `verify` prints
    /// its report), and a workbook (no `--format`, or `--format xlsx`) to `workbook`; with
    /// `-o`, the extension decides, `--format` may only agree with it or stand in where there
    /// is none. Every contradiction is a usage error naming both flags.
    ///
    /// ```
    /// use knights_tour::output::format::Format;
    /// use knights_tour::output::Destination;
    /// let (f, _) = Format::resolve(None, Some("tour.json"), "knights-tour.xlsx").unwrap();
    /// assert_eq!(f, Format::Json);
    /// assert!(Format::resolve(Some(Format::Text), Some("st.xlsx"), "k.xlsx").is_err());
    /// assert!(Format::resolve(None, Some("-"), "k.xlsx").is_err(), "say which text format");
    /// assert!(Format::resolve(Some(Format::Xlsx), Some("-"), "k.xlsx").is_err());
    /// let stdout = (Format::Csv, Destination::Stdout);
    /// assert_eq!(Format::resolve(Some(Format::Csv), Some("-"), "k.xlsx").unwrap(), stdout);
    /// assert_eq!(Format::resolve(Some(Format::Csv), None, "k.xlsx").unwrap(), stdout);
    /// let workbook = (Format::Xlsx, Destination::File("k.xlsx".into()));
    /// assert_eq!(Format::resolve(None, None, "k.xlsx").unwrap(), workbook);
    /// ```
    pub fn resolve(
        flag: Option<Format>,
        output: Option<&str>,
        workbook: &str,
    ) -> Result<(Format, Destination)> {
        let Some(text) = output else {
            return Ok(match flag {
                None | Some(Format::Xlsx) => (Format::Xlsx, Destination::File(workbook.into())),
                Some(f) => (f, Destination::Stdout),
            });
        };
        let dest = Destination::parse(text);
        let format = match (&dest, flag) {
            (Destination::Stdout, Some(Format::Xlsx)) => return Err(xlsx_to_stdout()),
            (Destination::Stdout, Some(f)) => f,
            (Destination::Stdout, None) => {
                return Err(Error::Usage(
                    "-o - writes to standard output: give --format csv, json or text (an xlsx \
                     workbook needs a file)"
                        .into(),
                ))
            }
            (Destination::File(path), flag) => match (Format::from_path(path), flag) {
                (Some(ext), Some(f)) if ext != f => {
                    return Err(Error::Usage(format!(
                        "--format {} contradicts -o {} (a .{} file is written as {}); drop \
                         --format or rename the output",
                        f.name(),
                        path.display(),
                        ext.extension(),
                        ext.name()
                    )))
                }
                (Some(ext), _) => ext,
                (None, Some(f)) => {
                    refuse_other_workbook(path)?;
                    f
                }
                (None, None) => {
                    refuse_other_workbook(path)?;
                    return Err(Error::Usage(format!(
                        "-o {}: name the output .xlsx, .csv, .json or .txt, or give --format",
                        path.display()
                    )));
                }
            },
        };
        Ok((format, dest))
    }
}

/// The message for an xlsx workbook asked to go to standard output.
pub fn xlsx_to_stdout() -> Error {
    Error::Usage(
        "-o -: an xlsx workbook cannot go to standard output (it is a zip archive); name a \
         .xlsx file, or write csv, json or text there"
            .into(),
    )
}

/// Spreadsheet extensions we read but do not write: naming one for output would give a file
/// whose content contradicts its name.
const OTHER_WORKBOOKS: [&str; 5] = ["ods", "xls", "xlsm", "xlsb", "fods"];

fn refuse_other_workbook(path: &Path) -> Result<()> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext {
        Some(e) if OTHER_WORKBOOKS.contains(&e.as_str()) => Err(Error::Usage(format!(
            "{}: knights-tour writes workbooks as .xlsx only, not .{e}; name it .xlsx",
            path.display()
        ))),
        _ => Ok(()),
    }
}

/// Check a workbook output (`template -o`, `verify --complete`): a file named .xlsx (or a
/// device such as /dev/null), never standard output, never another spreadsheet format.
///
/// ```
/// use knights_tour::output::format::xlsx_output;
/// assert!(xlsx_output("-", "-o").is_err());
/// assert!(xlsx_output("out.ods", "--complete").is_err());
/// assert!(xlsx_output("out.xlsx", "--complete").is_ok());
/// ```
pub fn xlsx_output(text: &str, flag: &str) -> Result<std::path::PathBuf> {
    let path = match Destination::parse(text) {
        Destination::Stdout => return Err(xlsx_to_stdout_for(flag)),
        Destination::File(path) => path,
    };
    match Format::from_path(&path) {
        Some(Format::Xlsx) => Ok(path),
        _ if crate::output::is_special(&path) => Ok(path),
        _ => {
            refuse_other_workbook(&path)?;
            Err(Error::Usage(format!(
                "{flag} {}: a workbook is written as .xlsx; name it .xlsx",
                path.display()
            )))
        }
    }
}

fn xlsx_to_stdout_for(flag: &str) -> Error {
    Error::Usage(format!(
        "{flag} -: an xlsx workbook cannot go to standard output (it is a zip archive); name a \
         .xlsx file"
    ))
}
