//! Reading any workbook (xlsx, xlsm, xlsb, xls, ods), CSV/TSV file or `generate` output (JSON,
//! text grid) into sparse sheets of cells.
//!
//! The verifier never trusts a file's name: [`sniff`] looks at the bytes first (a zip holding
//! `xl/workbook.xml` is xlsx, `xl/workbook.bin` xlsb, `content.xml`/`mimetype` ods, an XML
//! document with an ods mimetype a flat ods; an OLE compound file is xls, or a
//! password-protected OOXML package when it holds `EncryptionInfo`; text is `generate`'s JSON
//! or text grid by its first bytes, else CSV/TSV, [`delimited`], [`generated`]).
//! Cells are **streamed** where the reader allows it (xlsx and xlsm by our own reader, which
//! finds parts as calamine does; xlsb by calamine; ods by our own reader, [`ods`]), so a tiny
//! file that declares a huge
//! used range (one cell at A1, one at row 500000) costs memory for two cells, not for the
//! rectangle between them. xls is read through calamine's dense ranges, which calamine builds
//! when the workbook is opened. Every reader call runs under [`std::panic::catch_unwind`] as a
//! last line of defence: a reader bug on a hostile file becomes an "unreadable" report, never a
//! crash.

pub mod biff;
pub mod budget;
mod cells;
pub mod delimited;
mod engine;
pub mod generated;
mod guard;
pub mod ods;
mod ole;
mod package;
mod sniff;
pub mod xlsb;
mod xlsx;
mod xmlpart;
mod xmlscan;

use std::fmt;
use std::fs::File;
use std::io::{BufReader, Cursor, Read, Seek, SeekFrom};
use std::path::Path;

use budget::RunBudget;
use engine::{open_inner, read_inner, Inner};
use guard::guarded;
pub use guard::quiet_guarded_panics;
use sniff::{classify_text, describe_content, head_and_tail, TextKind};
pub use sniff::{sniff, Sniffed};

pub use budget::MAX_SHEET_CELLS;
pub(crate) use cells::CellsBuilder;
pub use cells::{CellIter, CellValueRef, CellView, Cells, SheetCells};

/// A workbook format, as found in the file's content (text formats read as one sheet).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
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
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
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
}

/// An open workbook of any supported format, over any seekable byte source.
pub struct Workbook<RS: Read + Seek> {
    format: Format,
    sheets: Vec<String>,
    /// The sheets the workbook hides.
    hidden: Vec<String>,
    source: Source<RS>,
    run: RunBudget,
}

/// The reader behind a workbook.
enum Source<RS: Read + Seek> {
    /// xlsx, xlsm (our own reader), xlsb, xls (calamine).
    Engine(Inner<RS>),
    /// ods and flat ods: our own reader.
    Ods(Box<ods::Book<RS>>),
    /// CSV, TSV, `generate`'s JSON and text grids: one sheet, read from the start each time.
    Text { reader: RS, kind: TextKind },
}

impl Workbook<BufReader<File>> {
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
}

impl<'a> Workbook<Cursor<&'a [u8]>> {
    /// Open a workbook held in memory (the fuzzer's entry point); a text format's sheet is
    /// `Sheet1`.
    pub fn from_bytes(bytes: &'a [u8]) -> Result<Self, ReadError> {
        Workbook::from_reader(Cursor::new(bytes), None)
    }

    /// Open a workbook held in memory whose name is unknown (standard input); a text format's
    /// one sheet is `sheet`.
    pub fn from_bytes_named(bytes: &'a [u8], sheet: &str) -> Result<Self, ReadError> {
        Workbook::open_named(Cursor::new(bytes), None, sheet)
    }
}

impl<RS: Read + Seek> Workbook<RS> {
    /// Open a workbook from any seekable reader; `claimed` is the format the file name claims.
    /// A text format's sheet is `Sheet1`.
    pub fn from_reader(reader: RS, claimed: Option<Format>) -> Result<Self, ReadError> {
        Workbook::open_named(reader, claimed, "Sheet1")
    }

    /// Open a workbook; `stem` names the one sheet of a text format.
    fn open_named(mut reader: RS, claimed: Option<Format>, stem: &str) -> Result<Self, ReadError> {
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
                return Ok(Workbook {
                    format,
                    sheets: vec![stem.to_string()],
                    hidden: Vec::new(),
                    source: Source::Text { reader, kind },
                    run: RunBudget::default(),
                });
            }
        };
        if format == Format::Ods {
            let flat = !head.starts_with(sniff::ZIP_MAGIC);
            let (book, sheets, hidden) = guarded(format, || ods::Book::open(reader, flat))??;
            return Ok(Workbook {
                format,
                sheets,
                hidden,
                source: Source::Ods(Box::new(book)),
                run: RunBudget::default(),
            });
        }
        if format == Format::Xls {
            guarded(format, || biff::prescan(&mut reader))??;
        }
        reader
            .seek(SeekFrom::Start(0))
            .map_err(|e| ReadError::Io(e.to_string()))?;
        let (inner, cost) = guarded(format, || open_inner(format, reader))??;
        let sheets = guarded(format, || inner.sheet_names())?;
        let hidden = guarded(format, || inner.hidden_sheets())?;
        Ok(Workbook {
            format,
            sheets,
            hidden,
            source: Source::Engine(inner),
            run: RunBudget::new(&cost),
        })
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
        let Some(index) = self.sheets.iter().position(|s| s == name) else {
            return Err(ReadError::NoSuchSheet {
                name: name.to_string(),
                available: self
                    .sheets
                    .iter()
                    .map(|s| format!("'{s}'"))
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        };
        let (format, run) = (self.format, &mut self.run);
        match &mut self.source {
            Source::Ods(book) => guarded(format, || book.read_sheet(index, run))?,
            Source::Engine(inner) => guarded(format, || read_inner(format, inner, name, run))?,
            Source::Text { reader, kind } => guarded(format, || {
                let mut budget = budget::SheetBudget::new(run);
                match *kind {
                    TextKind::Delimited(d) => delimited::read(reader, d, &mut budget)?,
                    TextKind::Json => generated::read_json(reader, &mut budget)?,
                    TextKind::TextGrid => generated::read_text_grid(reader, &mut budget)?,
                    TextKind::Lines => delimited::read_lines(reader, &mut budget)?,
                }
                Ok(budget.finish(false))
            })?,
        }
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
