//! Reading any workbook (xlsx, xlsm, xlsb, xls, ods), CSV/TSV file or `generate` output (JSON,
//! text grid) into sparse sheets of cells.
//!
//! The verifier never trusts a file's name: [`sniff`] looks at the bytes first (a zip holding
//! `xl/workbook.xml` is xlsx, `xl/workbook.bin` xlsb, `content.xml`/`mimetype` ods, an XML
//! document with an ods mimetype a flat ods; an OLE compound file is xls, or a
//! password-protected OOXML package when it holds `EncryptionInfo`; text is `generate`'s JSON
//! or text grid by its first bytes, else CSV/TSV, [`delimited`], [`generated`]).
//!
//! One parser reads each format: calamine reads xlsx and xlsm (its streaming cell reader, with
//! each cell's border and fill) and xls; our own readers read ods ([`ods`]: calamine 0.38
//! cannot read Gnumeric's), xlsb ([`xlsb`]) and the text formats. Every reader is a
//! `SheetSource`: it lists the sheets and streams one sheet's cells into a sink, so a sheet
//! declaring a huge range costs memory for the cells it holds, not for the rectangle.
//!
//! Nothing here bounds a parser against a hostile file: the command line reads every file in
//! a watched reader process with capped memory and time ([`watched`]), and a library user
//! who reads untrusted files in process does the same or accepts calamine's behaviour on them
//! (`docs/upstream.md`). What is kept of a sheet is still capped ([`budget`]), since the
//! process keeping it is the caller's. Every reader call runs under
//! [`std::panic::catch_unwind`]: a reader bug on a damaged file becomes an "unreadable"
//! report, not a crash.

mod archive;
pub mod budget;
mod cells;
pub mod delimited;
mod excel;
pub mod generated;
mod guard;
pub mod ods;
mod sniff;
pub mod watched;
pub mod xlsb;

use std::fmt;
use std::fs::File;
use std::io::{BufReader, Cursor, Read, Seek, SeekFrom};
use std::path::Path;

use serde::{Deserialize, Serialize};

use budget::{CellOut, SheetBudget, MAX_SHEETS};
use guard::guarded;
pub use guard::quiet_guarded_panics;
use sniff::{classify_text, describe_content, head_and_tail, TextKind};
pub use sniff::{sniff, Sniffed};

pub use budget::MAX_SHEET_CELLS;
pub(crate) use cells::CellsBuilder;
pub use cells::{CellIter, CellValueRef, CellView, Cells, SheetCells};

/// A workbook format, as found in the file's content (text formats read as one sheet).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Format {
    /// Office Open XML workbook.
    Xlsx,
    /// Office Open XML workbook with macros (read like xlsx).
    Xlsm,
    /// Excel binary workbook.
    Xlsb,
    /// Excel 97-2003 workbook (BIFF in an OLE compound file).
    Xls,
    /// OpenDocument spreadsheet (also flat, one XML document).
    Ods,
    /// Comma- or semicolon-separated values.
    Csv,
    /// Tab-separated values.
    Tsv,
    /// `generate`'s JSON tour documents.
    Json,
    /// `generate`'s text grids.
    Text,
}

impl Format {
    /// The usual file extension, which is also the name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Format::Xlsx => "xlsx",
            Format::Xlsm => "xlsm",
            Format::Xlsb => "xlsb",
            Format::Xls => "xls",
            Format::Ods => "ods",
            Format::Csv => "csv",
            Format::Tsv => "tsv",
            Format::Json => "json",
            Format::Text => "txt",
        }
    }

    /// Whether this is a spreadsheet program's workbook format (not a text format).
    pub fn is_workbook(self) -> bool {
        !matches!(
            self,
            Format::Csv | Format::Tsv | Format::Json | Format::Text
        )
    }

    /// The format a file extension names, if any (case-insensitive).
    pub fn from_extension(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        Some(match ext.as_str() {
            "xlsx" => Format::Xlsx,
            "xlsm" | "xlam" => Format::Xlsm,
            "xlsb" => Format::Xlsb,
            "xls" | "xla" => Format::Xls,
            "ods" | "fods" => Format::Ods,
            "csv" => Format::Csv,
            "tsv" | "tab" => Format::Tsv,
            "json" => Format::Json,
            "txt" | "text" => Format::Text,
            _ => return None,
        })
    }

    /// Whether its reader reads cell formats (borders and fills): only xlsx and xlsm.
    pub fn formats_read(self) -> bool {
        matches!(self, Format::Xlsx | Format::Xlsm)
    }

    /// The error for a workbook of this format whose content is damaged.
    pub(crate) fn damaged(self, detail: impl fmt::Display) -> ReadError {
        ReadError::Damaged {
            format: self,
            detail: detail.to_string(),
        }
    }

    /// Whether two formats are read by the same reader (xlsx and xlsm are).
    fn same_family(self, other: Format) -> bool {
        let family = |f| match f {
            Format::Xlsm => Format::Xlsx,
            f => f,
        };
        family(self) == family(other)
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A cell's value as read, before any interpretation.
#[derive(Clone, Debug, PartialEq)]
pub enum CellValue {
    /// A number (integers, floats, dates as their serial number, formula results).
    Number(f64),
    /// Text, as typed (numeric text such as `" 17 "` is interpreted later).
    Text(Box<str>),
    /// TRUE or FALSE.
    Bool(bool),
    /// An error value such as `#REF!`.
    Error(Box<str>),
}

/// What the sheet's formatting says about a cell, where the format lets calamine read it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CellFormat {
    /// The cell has a visible border on some side.
    pub bordered: bool,
    /// The cell's solid fill colour as `0xRRGGBB`, if filled.
    pub fill: Option<u32>,
}

/// One non-blank or formatted cell of a worksheet, as a reader hands it over (stored compactly
/// in [`SheetCells`]).
#[derive(Clone, Debug, PartialEq)]
pub struct SheetCell {
    /// Row from 0.
    pub row: u32,
    /// Column from 0.
    pub col: u32,
    /// The value, `None` for a blank cell that is only formatted.
    pub value: Option<CellValue>,
    /// Its formatting (default when unknown).
    pub format: CellFormat,
}

/// Why a workbook or a sheet could not be read, worded for a person.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum ReadError {
    /// The file could not be opened or read at all.
    #[error("cannot read the file: {0}")]
    Io(String),
    /// Zero bytes.
    #[error("the file is empty (0 bytes), not a workbook")]
    Empty,
    /// An encrypted workbook.
    #[error("the workbook is password-protected (encrypted); remove the password in the spreadsheet program and save it again")]
    PasswordProtected,
    /// Not a spreadsheet at all.
    #[error("not a spreadsheet: {0}")]
    NotASpreadsheet(String),
    /// A path that is not a regular file (a folder, a named pipe, a device): refused before it
    /// is opened.
    #[error("{0}")]
    NotAFile(String),
    /// A JSON or text file that is not a tour as `generate` writes it.
    #[error("not a tour file: {0}")]
    NotATourFile(String),
    /// A spreadsheet format whose content is damaged.
    #[error("the {format} workbook is damaged or truncated: {detail}")]
    Damaged {
        /// The format the content claims.
        format: Format,
        /// What the reader said.
        detail: String,
    },
    /// The reader panicked (caught): a damaged file calamine does not guard against.
    #[error("the {format} workbook is damaged: the reader failed on it ({detail})")]
    ReaderCrashed {
        /// The format the content claims.
        format: Format,
        /// The panic message.
        detail: String,
    },
    /// A sheet or workbook past a cap of the reading budget ([`budget`]): `detail` says which,
    /// e.g. "the sheet holds more than 8388608 cells (empty ones included)".
    #[error("{detail}: too large to hold a board this tool checks")]
    TooLarge {
        /// What went past which cap.
        detail: String,
    },
    /// The child process reading the file was stopped: it needed more memory or time than a
    /// workbook holding a board ever does, it crashed, or its answer made no sense
    /// ([`watched`]). `reason` says which, e.g. "reading it needs more than 192 MB". The
    /// whole file is unreadable then, not just the sheet being read.
    #[error("{reason}")]
    ReaderStopped {
        /// What stopped it, worded for a person.
        reason: String,
    },
    /// No sheet of that name.
    #[error("no sheet named '{name}' (the sheets are: {available})")]
    NoSuchSheet {
        /// The name asked for.
        name: String,
        /// The names present, quoted and comma-separated.
        available: String,
    },
}

impl ReadError {
    /// The format the content showed before reading failed, if it got that far.
    pub fn format(&self) -> Option<Format> {
        match self {
            ReadError::Damaged { format, .. } | ReadError::ReaderCrashed { format, .. } => {
                Some(*format)
            }
            _ => None,
        }
    }

    /// Whether the error ends the reading of the whole file (the reader was stopped), not of
    /// one sheet.
    pub fn ends_the_file(&self) -> bool {
        matches!(self, ReadError::ReaderStopped { .. })
    }
}

/// A sheet as its workbook lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SheetInfo {
    /// Its name.
    pub name: String,
    /// Whether the workbook hides it from its reader (hidden or very hidden).
    pub hidden: bool,
}

/// An open workbook of any supported format: its format, its sheets, and the reader that
/// reads them (in this process, or in a watched child process, [`watched`]).
pub struct Workbook<'a> {
    format: Format,
    sheets: Vec<String>,
    /// The sheets the workbook hides.
    hidden: Vec<String>,
    source: Box<dyn SheetSource + 'a>,
}

/// A workbook reader, the one interface of every format's reader (and of the watched reader
/// process that runs them, [`watched`]): opened on a file, it lists the sheets and streams
/// any sheet's cells, with their formats where the format has them.
pub(crate) trait SheetSource {
    /// The sheets in workbook order.
    fn sheets(&self) -> &[SheetInfo];

    /// Stream the cells of sheet `index` into `sink`, in any order (a later cell at a
    /// position replaces an earlier one).
    fn stream(&mut self, index: usize, sink: &mut SheetBudget<'_>) -> Result<(), ReadError>;
}

/// CSV, TSV, `generate`'s JSON and text grids, plain text: one sheet, read from the start
/// each time.
struct TextSource<RS> {
    reader: RS,
    kind: TextKind,
    sheet: [SheetInfo; 1],
}

impl<RS: Read + Seek> SheetSource for TextSource<RS> {
    fn sheets(&self) -> &[SheetInfo] {
        &self.sheet
    }

    fn stream(&mut self, _index: usize, sink: &mut SheetBudget<'_>) -> Result<(), ReadError> {
        match self.kind {
            TextKind::Delimited(d) => delimited::read(&mut self.reader, d, sink),
            TextKind::Json => generated::read_json(&mut self.reader, sink),
            TextKind::TextGrid => generated::read_text_grid(&mut self.reader, sink),
            TextKind::Lines => delimited::read_lines(&mut self.reader, sink),
        }
    }
}

/// A reader's calls, each under [`guarded`]: a reader that panics on a hostile file gives an
/// error, not a crash.
struct Guarded<S> {
    format: Format,
    source: S,
}

impl<S: SheetSource> SheetSource for Guarded<S> {
    fn sheets(&self) -> &[SheetInfo] {
        self.source.sheets()
    }

    fn stream(&mut self, index: usize, sink: &mut SheetBudget<'_>) -> Result<(), ReadError> {
        guarded(self.format, || self.source.stream(index, sink))?
    }
}

/// Open a workbook format's reader on `reader`.
fn open_source<'a, RS: Read + Seek + 'a>(
    format: Format,
    reader: RS,
    zipped: bool,
) -> Result<Box<dyn SheetSource + 'a>, ReadError> {
    fn boxed<'a, S: SheetSource + 'a>(format: Format, source: S) -> Box<dyn SheetSource + 'a> {
        Box::new(Guarded { format, source })
    }
    let mut reader = reader;
    if zipped {
        archive::check_directory(&mut reader)?;
    }
    guarded(
        format,
        || -> Result<Box<dyn SheetSource + 'a>, ReadError> {
            Ok(match format {
                Format::Xlsx | Format::Xlsm => {
                    boxed(format, excel::XlsxBook::open(reader, format)?)
                }
                Format::Xls => boxed(format, excel::XlsBook::open(reader)?),
                Format::Xlsb => boxed(format, xlsb::Book::open(reader)?),
                Format::Ods => boxed(format, ods::Book::open(reader, !zipped)?),
                Format::Csv | Format::Tsv | Format::Json | Format::Text => {
                    return Err(ReadError::Damaged {
                        format,
                        detail: "a text format is not a workbook".into(),
                    })
                }
            })
        },
    )?
}

impl Workbook<'static> {
    /// Open the workbook at `path`, trusting its content over its extension. Returns the
    /// format the content shows (the extension's own name when they agree, so `.xlsm` stays
    /// `xlsm`).
    ///
    /// A path that is not a regular file is refused before it is opened (a named pipe would
    /// block). A text format's one sheet is named after the file (its stem).
    pub fn open(path: &Path) -> Result<Self, ReadError> {
        if let Some(why) = crate::input::not_a_regular_file(path) {
            return Err(ReadError::NotAFile(why));
        }
        let file = File::open(path).map_err(|e| ReadError::Io(e.to_string()))?;
        let stem = path
            .file_stem()
            .map_or_else(|| "Sheet1".into(), |s| s.to_string_lossy());
        Workbook::open_named(BufReader::new(file), Format::from_extension(path), &stem)
    }

    /// Open a workbook whose bytes are handed over (standard input, read whole); a text
    /// format's one sheet is `sheet`.
    pub fn from_vec(bytes: Vec<u8>, sheet: &str) -> Result<Self, ReadError> {
        Workbook::open_named(Cursor::new(bytes), None, sheet)
    }
}

impl<'a> Workbook<'a> {
    /// Open a workbook held in memory (the fuzzer's entry point); a text format's sheet is
    /// `Sheet1`.
    pub fn from_bytes(bytes: &'a [u8]) -> Result<Self, ReadError> {
        Workbook::open_named(Cursor::new(bytes), None, "Sheet1")
    }

    /// Open a workbook held in memory whose name is unknown (standard input); a text format's
    /// one sheet is `sheet`.
    pub fn from_bytes_named(bytes: &'a [u8], sheet: &str) -> Result<Self, ReadError> {
        Workbook::open_named(Cursor::new(bytes), None, sheet)
    }

    /// A workbook whose sheets `source` reads; one listing more than [`MAX_SHEETS`] sheets is
    /// refused (each would be read in turn).
    pub(crate) fn from_source(
        format: Format,
        source: Box<dyn SheetSource + 'a>,
    ) -> Result<Self, ReadError> {
        let listed = source.sheets();
        if listed.len() > MAX_SHEETS {
            return Err(ReadError::TooLarge {
                detail: format!("the workbook lists more than {MAX_SHEETS} sheets"),
            });
        }
        let sheets = listed.iter().map(|s| s.name.clone()).collect();
        let hidden = listed
            .iter()
            .filter(|s| s.hidden)
            .map(|s| s.name.clone())
            .collect();
        Ok(Workbook {
            format,
            sheets,
            hidden,
            source,
        })
    }

    /// Open a workbook; `stem` names the one sheet of a text format.
    fn open_named<RS: Read + Seek + 'a>(
        mut reader: RS,
        claimed: Option<Format>,
        stem: &str,
    ) -> Result<Self, ReadError> {
        let (head, tail) = head_and_tail(&mut reader).map_err(|e| ReadError::Io(e.to_string()))?;
        let format = match sniff(&head, &tail) {
            Sniffed::Workbook(found) => match claimed {
                Some(c) if c.same_family(found) => c,
                _ => found,
            },
            Sniffed::Encrypted => return Err(ReadError::PasswordProtected),
            Sniffed::Empty => return Err(ReadError::Empty),
            Sniffed::TruncatedZip => {
                return Err(ReadError::Damaged {
                    format: claimed.unwrap_or(Format::Xlsx),
                    detail: "the zip archive ends early (its central directory is missing), as if the file was cut short".into(),
                })
            }
            Sniffed::OtherZip => {
                return Err(ReadError::NotASpreadsheet(
                    "a zip archive without a workbook inside (no xl/workbook.xml, xl/workbook.bin or content.xml); perhaps a truncated download or another kind of document".into(),
                ))
            }
            Sniffed::OtherOle => {
                return Err(ReadError::NotASpreadsheet(
                    "an OLE compound file without an Excel workbook stream (perhaps a Word or PowerPoint 97 document)".into(),
                ))
            }
            Sniffed::NotASpreadsheet => {
                let Some((format, kind)) = classify_text(&head, claimed) else {
                    return Err(ReadError::NotASpreadsheet(describe_content(&head)));
                };
                let source = TextSource {
                    reader,
                    kind,
                    sheet: [SheetInfo {
                        name: stem.to_string(),
                        hidden: false,
                    }],
                };
                let source = Box::new(Guarded { format, source });
                return Workbook::from_source(format, source);
            }
        };
        reader
            .seek(SeekFrom::Start(0))
            .map_err(|e| ReadError::Io(e.to_string()))?;
        let zipped = head.starts_with(sniff::ZIP_MAGIC);
        Workbook::from_source(format, open_source(format, reader, zipped)?)
    }

    /// The format, from the content.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Sheet names in workbook order.
    pub fn sheet_names(&self) -> &[String] {
        &self.sheets
    }

    /// Whether the workbook hides the sheet `name` from its reader (a program's helper sheet,
    /// such as the chart coordinates `generate` writes).
    pub fn is_hidden(&self, name: &str) -> bool {
        self.hidden.iter().any(|h| h == name)
    }

    /// Read one sheet's cells. Streams xlsx, xlsb and ods; refuses sheets beyond
    /// [`MAX_SHEET_CELLS`].
    pub fn read_sheet(&mut self, name: &str) -> Result<SheetCells, ReadError> {
        let index = self.index_of(name)?;
        let mut sink = SheetBudget::new();
        self.source.stream(index, &mut sink)?;
        Ok(sink.finish(self.format.formats_read()))
    }

    /// Stream sheet `index`'s cells to `out` as they are read, under the same caps as
    /// [`Workbook::read_sheet`] (the reader process sends them to its parent).
    pub(crate) fn send_sheet(
        &mut self,
        index: usize,
        out: &mut dyn CellOut,
    ) -> Result<(), ReadError> {
        if index >= self.sheets.len() {
            return Err(ReadError::Io(format!(
                "the workbook has no sheet {}",
                index + 1
            )));
        }
        let mut sink = SheetBudget::sending(out);
        self.source.stream(index, &mut sink)
    }

    /// Where the sheet `name` is in workbook order.
    fn index_of(&self, name: &str) -> Result<usize, ReadError> {
        self.sheets
            .iter()
            .position(|s| s == name)
            .ok_or_else(|| ReadError::NoSuchSheet {
                name: name.to_string(),
                available: self
                    .sheets
                    .iter()
                    .map(|s| format!("'{s}'"))
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workbook::read::sniff::OLE_MAGIC;

    #[test]
    fn cells_are_sorted_and_deduplicated_last_wins() {
        let cells = SheetCells::from_values([
            (2, 0, CellValue::Number(3.0)),
            (0, 1, CellValue::Number(1.0)),
            (2, 0, CellValue::Number(4.0)),
        ]);
        let got: Vec<_> = cells.cells().iter().map(|c| (c.row, c.col)).collect();
        assert_eq!(got, vec![(0, 1), (2, 0)]);
        assert_eq!(
            cells.cells().get(1).unwrap().value,
            Some(CellValueRef::Number(4.0))
        );
    }

    #[test]
    fn garbage_bytes_are_refused_without_panicking() {
        for bytes in [
            &b""[..],
            b"PK\x03\x04garbage",
            OLE_MAGIC,
            b"\x00\x01 binary",
        ] {
            assert!(Workbook::from_bytes(bytes).is_err());
        }
        // Text without a name or a delimiter is plain lines, one cell a line.
        let text = Workbook::from_bytes(b"just text").unwrap();
        assert_eq!(
            (text.format(), text.sheet_names()),
            (Format::Text, &["Sheet1".to_string()][..])
        );
    }
}
