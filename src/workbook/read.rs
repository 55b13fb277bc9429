//! Reading any workbook (xlsx, xlsm, xlsb, xls, ods) into sparse sheets of cells.
//!
//! The verifier never trusts a file's name: [`sniff`] looks at the bytes first (a zip holding
//! `xl/workbook.xml` is xlsx, `xl/workbook.bin` xlsb, `content.xml`/`mimetype` ods; an OLE
//! compound file is xls, or a password-protected OOXML package when it holds `EncryptionInfo`).
//! Cells are **streamed** where calamine allows it (xlsx and xlsb), so a tiny file that declares
//! a huge used range (one cell at A1, one at row 500000) costs memory for two cells, not for the
//! rectangle between them. xls and ods are read through calamine's dense ranges, which calamine
//! builds when the workbook is opened. Every calamine call runs under
//! [`std::panic::catch_unwind`] as a last line of defence: a reader bug on a hostile file becomes
//! an "unreadable" report, never a crash.

use std::fmt;
use std::fs::File;
use std::io::{BufReader, Cursor, Read, Seek, SeekFrom};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use calamine::{open_workbook_from_rs, Data, DataRef, Ods, Reader, Xls, Xlsb, Xlsx};

/// The most cells (including formatted empty ones) read from one worksheet. Beyond it the sheet
/// is reported as too large instead of filling memory (about 40 bytes a cell).
pub const MAX_SHEET_CELLS: usize = 16 * 1024 * 1024;

/// The largest rectangle of cells an ods sheet may span: calamine reads ods sheets into dense
/// ranges (about 56 bytes a cell with formulas), so this caps that at about 250 MB.
pub const MAX_ODS_DENSE_CELLS: u64 = 4 * 1024 * 1024;

/// How many bytes of the start and of the end of a file [`sniff`] looks at.
const SNIFF_BYTES: u64 = 256 * 1024;
/// OLE files up to this size are searched whole for their stream names.
const OLE_SNIFF_ALL: u64 = 64 * 1024 * 1024;

/// A workbook format, as found in the file's content.
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
    /// OpenDocument spreadsheet.
    Ods,
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
        }
    }

    /// The format a file extension names, if any (case-insensitive).
    pub fn from_extension(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        Some(match ext.as_str() {
            "xlsx" => Format::Xlsx,
            "xlsm" | "xlam" => Format::Xlsm,
            "xlsb" => Format::Xlsb,
            "xls" | "xla" => Format::Xls,
            "ods" => Format::Ods,
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

/// What the first and last bytes of a file say it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sniffed {
    /// A workbook in this format.
    Workbook(Format),
    /// An OLE compound file holding an encrypted OOXML package (a password-protected workbook).
    Encrypted,
    /// Zero bytes.
    Empty,
    /// A zip archive that holds no workbook (a Word document, a plain archive...).
    OtherZip,
    /// A zip archive cut short: no workbook member found and no central directory at the end.
    TruncatedZip,
    /// An OLE compound file that is not an Excel workbook (a Word 97 document...).
    OtherOle,
    /// Neither zip nor OLE: text, an image, anything else.
    NotASpreadsheet,
}

const ZIP_MAGIC: &[u8] = b"PK\x03\x04";
const ZIP_EMPTY_MAGIC: &[u8] = b"PK\x05\x06";
const OLE_MAGIC: &[u8] = &[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];

/// Tell the format from a file's bytes: `head` is its start, `tail` its end (they may overlap
/// or be the same slice for small files). The names of zip members are stored in clear both in
/// the local headers (at the start) and in the central directory (at the end).
///
/// ```
/// use knights_tour::workbook::read::{sniff, Sniffed};
/// assert_eq!(sniff(b"", b""), Sniffed::Empty);
/// assert_eq!(sniff(b"hello", b"hello"), Sniffed::NotASpreadsheet);
/// ```
pub fn sniff(head: &[u8], tail: &[u8]) -> Sniffed {
    if head.is_empty() {
        return Sniffed::Empty;
    }
    let has = |needle: &[u8]| contains(head, needle) || contains(tail, needle);
    if head.starts_with(ZIP_MAGIC) || head.starts_with(ZIP_EMPTY_MAGIC) {
        return if has(b"xl/workbook.bin") {
            Sniffed::Workbook(Format::Xlsb)
        } else if has(b"xl/workbook.xml") {
            if has(b"macroEnabled") || has(b"vbaProject.bin") {
                Sniffed::Workbook(Format::Xlsm)
            } else {
                Sniffed::Workbook(Format::Xlsx)
            }
        } else if has(b"opendocument.spreadsheet")
            || (has(b"content.xml") && !has(b"opendocument.text"))
        {
            Sniffed::Workbook(Format::Ods)
        } else if !has(b"PK\x05\x06") {
            Sniffed::TruncatedZip
        } else {
            Sniffed::OtherZip
        };
    }
    if head.starts_with(OLE_MAGIC) {
        let utf16 = |s: &str| -> Vec<u8> { s.encode_utf16().flat_map(u16::to_le_bytes).collect() };
        return if has(&utf16("EncryptionInfo")) || has(&utf16("EncryptedPackage")) {
            Sniffed::Encrypted
        } else if has(&utf16("Workbook")) || has(&utf16("Book")) {
            Sniffed::Workbook(Format::Xls)
        } else {
            Sniffed::OtherOle
        };
    }
    Sniffed::NotASpreadsheet
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    !needle.is_empty() && haystack.windows(needle.len()).any(|w| w == needle)
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CellFormat {
    /// The cell has a visible border on some side.
    pub bordered: bool,
    /// The cell's solid fill colour as `0xRRGGBB`, if filled.
    pub fill: Option<u32>,
}

/// One non-blank or formatted cell of a worksheet.
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

/// A worksheet as a sparse list of cells in row-major order, one entry per position.
///
/// ```
/// use knights_tour::workbook::read::{CellValue, SheetCells};
/// let cells = SheetCells::from_values([(1, 0, CellValue::Number(2.0)), (0, 0, CellValue::Number(1.0))]);
/// assert_eq!(cells.cells()[0].row, 0);
/// assert!(!cells.formats_known());
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SheetCells {
    cells: Vec<SheetCell>,
    formats_known: bool,
}

impl SheetCells {
    /// Cells from any order; a later cell at the same position replaces an earlier one.
    /// `formats_known` says whether borders and fills were read (only xlsx allows it).
    pub fn new(mut cells: Vec<SheetCell>, formats_known: bool) -> SheetCells {
        let sorted = cells
            .windows(2)
            .all(|w| (w[0].row, w[0].col) < (w[1].row, w[1].col));
        if !sorted {
            // Stable sort keeps input order among equal positions: keep the last one.
            cells.sort_by_key(|c| (c.row, c.col));
            let mut deduped: Vec<SheetCell> = Vec::with_capacity(cells.len());
            for c in cells {
                match deduped.last_mut() {
                    Some(last) if (last.row, last.col) == (c.row, c.col) => *last = c,
                    _ => deduped.push(c),
                }
            }
            cells = deduped;
        }
        SheetCells {
            cells,
            formats_known,
        }
    }

    /// Cells from `(row, col, value)` triples without formatting.
    pub fn from_values(values: impl IntoIterator<Item = (u32, u32, CellValue)>) -> SheetCells {
        let cells = values
            .into_iter()
            .map(|(row, col, value)| SheetCell {
                row,
                col,
                value: Some(value),
                format: CellFormat::default(),
            })
            .collect();
        SheetCells::new(cells, false)
    }

    /// The cells in row-major order.
    pub fn cells(&self) -> &[SheetCell] {
        &self.cells
    }

    /// Whether [`CellFormat`]s were read; when not, every format is the default.
    pub fn formats_known(&self) -> bool {
        self.formats_known
    }
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
    /// An ods sheet whose filled cells spread over more than [`MAX_ODS_DENSE_CELLS`]: calamine
    /// would hold the whole rectangle in memory.
    #[error("sheet '{sheet}' spreads over {rows} rows by {cols} columns; reading it would hold {cells} cells in memory, too large to hold a board this tool checks (at most {max})", cells = rows * cols, max = MAX_ODS_DENSE_CELLS)]
    OdsTooLarge {
        /// The sheet.
        sheet: String,
        /// Rows spanned by its filled cells.
        rows: u64,
        /// Columns spanned by its filled cells.
        cols: u64,
    },
    /// A sheet with more cells than [`MAX_SHEET_CELLS`].
    #[error("the sheet holds more than {max} cells, too large to hold a board this tool checks", max = MAX_SHEET_CELLS)]
    TooLarge,
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
    inner: Inner<RS>,
    sheets: Vec<String>,
}

enum Inner<RS: Read + Seek> {
    Xlsx(Box<Xlsx<RS>>),
    Xlsb(Box<Xlsb<RS>>),
    Xls(Box<Xls<RS>>),
    Ods(Box<Ods<RS>>),
}

impl Workbook<BufReader<File>> {
    /// Open the workbook at `path`, trusting its content over its extension. Returns the
    /// format the content shows (the extension's own name when they agree, so `.xlsm` stays
    /// `xlsm`).
    pub fn open(path: &Path) -> Result<Self, ReadError> {
        let file = File::open(path).map_err(|e| ReadError::Io(e.to_string()))?;
        Workbook::from_reader(BufReader::new(file), Format::from_extension(path))
    }
}

impl<'a> Workbook<Cursor<&'a [u8]>> {
    /// Open a workbook held in memory (the fuzzer's entry point).
    pub fn from_bytes(bytes: &'a [u8]) -> Result<Self, ReadError> {
        Workbook::from_reader(Cursor::new(bytes), None)
    }
}

impl<RS: Read + Seek> Workbook<RS> {
    /// Open a workbook from any seekable reader; `claimed` is the format the file name claims.
    pub fn from_reader(mut reader: RS, claimed: Option<Format>) -> Result<Self, ReadError> {
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
                return Err(ReadError::NotASpreadsheet(describe_content(&head)))
            }
        };
        if format == Format::Ods {
            guarded(format, || ods_extent_check(&mut reader))??;
        }
        if format == Format::Xls && head.starts_with(OLE_MAGIC) && ole_chains_loop(&head) {
            return Err(ReadError::Damaged {
                format,
                detail: "the sector chains of its OLE container loop back on themselves".into(),
            });
        }
        reader
            .seek(SeekFrom::Start(0))
            .map_err(|e| ReadError::Io(e.to_string()))?;
        let inner = guarded(format, || open_inner(format, reader))??;
        let sheets = guarded(format, || match &inner {
            Inner::Xlsx(b) => b.sheet_names(),
            Inner::Xlsb(b) => b.sheet_names(),
            Inner::Xls(b) => b.sheet_names(),
            Inner::Ods(b) => b.sheet_names(),
        })?;
        Ok(Workbook {
            format,
            inner,
            sheets,
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

    /// Read one sheet's cells. Streams xlsx and xlsb; refuses sheets beyond [`MAX_SHEET_CELLS`].
    pub fn read_sheet(&mut self, name: &str) -> Result<SheetCells, ReadError> {
        if !self.sheets.iter().any(|s| s == name) {
            return Err(ReadError::NoSuchSheet {
                name: name.to_string(),
                available: self
                    .sheets
                    .iter()
                    .map(|s| format!("'{s}'"))
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        }
        let format = self.format;
        let inner = &mut self.inner;
        guarded(format, || read_inner(format, inner, name))?
    }
}

thread_local! {
    /// Set while a calamine call runs under [`guarded`].
    static IN_GUARD: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Keep the panic messages of guarded calamine calls (reported as unreadable files) off the
/// terminal, while any other panic still prints through the previous hook. For programs.
pub fn quiet_guarded_panics() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !IN_GUARD.with(|g| g.get()) {
            previous(info);
        }
    }));
}

/// Run a calamine call, turning a panic into [`ReadError::ReaderCrashed`].
fn guarded<T>(format: Format, f: impl FnOnce() -> T) -> Result<T, ReadError> {
    let outer = IN_GUARD.with(|g| g.replace(true));
    let result = catch_unwind(AssertUnwindSafe(f));
    IN_GUARD.with(|g| g.set(outer));
    result.map_err(|payload| {
        let detail = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_string());
        ReadError::ReaderCrashed { format, detail }
    })
}

fn head_and_tail<RS: Read + Seek>(reader: &mut RS) -> std::io::Result<(Vec<u8>, Vec<u8>)> {
    let len = reader.seek(SeekFrom::End(0))?;
    reader.seek(SeekFrom::Start(0))?;
    let mut head = Vec::new();
    reader.by_ref().take(SNIFF_BYTES).read_to_end(&mut head)?;
    let mut tail = Vec::new();
    if head.starts_with(OLE_MAGIC) && len <= OLE_SNIFF_ALL {
        // An OLE directory can sit anywhere: read it all to find `EncryptionInfo`.
        reader.read_to_end(&mut head)?;
    } else if len > SNIFF_BYTES {
        reader.seek(SeekFrom::Start(
            len.saturating_sub(SNIFF_BYTES).max(SNIFF_BYTES),
        ))?;
        reader.by_ref().take(SNIFF_BYTES).read_to_end(&mut tail)?;
    }
    Ok((head, tail))
}

fn describe_content(head: &[u8]) -> String {
    let sample = &head[..head.len().min(4096)];
    let texty = sample
        .iter()
        .all(|&b| b == b'\n' || b == b'\r' || b == b'\t' || (0x20..0x7f).contains(&b) || b >= 0x80);
    if texty {
        "the file holds plain text (perhaps CSV or a renamed text file), not a workbook".into()
    } else {
        "the content is neither a zip-based workbook (xlsx, xlsm, xlsb, ods) nor an OLE compound file (xls)".into()
    }
}

fn open_inner<RS: Read + Seek>(format: Format, reader: RS) -> Result<Inner<RS>, ReadError> {
    let damaged = |detail: String| ReadError::Damaged { format, detail };
    Ok(match format {
        Format::Xlsx | Format::Xlsm => match open_workbook_from_rs::<Xlsx<RS>, RS>(reader) {
            Ok(b) => Inner::Xlsx(Box::new(b)),
            Err(calamine::XlsxError::Password) => return Err(ReadError::PasswordProtected),
            Err(e) => return Err(damaged(e.to_string())),
        },
        Format::Xlsb => match open_workbook_from_rs::<Xlsb<RS>, RS>(reader) {
            Ok(b) => Inner::Xlsb(Box::new(b)),
            Err(calamine::XlsbError::Password) => return Err(ReadError::PasswordProtected),
            Err(e) => return Err(damaged(e.to_string())),
        },
        Format::Xls => match open_workbook_from_rs::<Xls<RS>, RS>(reader) {
            Ok(b) => Inner::Xls(Box::new(b)),
            Err(calamine::XlsError::Password) => return Err(ReadError::PasswordProtected),
            Err(e) => return Err(damaged(e.to_string())),
        },
        Format::Ods => match open_workbook_from_rs::<Ods<RS>, RS>(reader) {
            Ok(b) => Inner::Ods(Box::new(b)),
            Err(calamine::OdsError::Password) => return Err(ReadError::PasswordProtected),
            Err(e) => return Err(damaged(e.to_string())),
        },
    })
}

fn read_inner<RS: Read + Seek>(
    format: Format,
    inner: &mut Inner<RS>,
    name: &str,
) -> Result<SheetCells, ReadError> {
    let damaged = |detail: String| ReadError::Damaged { format, detail };
    match inner {
        Inner::Xlsx(book) => read_xlsx(book, name).map_err(|e| damaged(e.to_string())),
        Inner::Xlsb(book) => read_xlsb(book, name).map_err(|e| damaged(e.to_string())),
        Inner::Xls(book) => {
            let range = book
                .worksheet_range(name)
                .map_err(|e| damaged(e.to_string()))?;
            dense_to_cells(&range)
        }
        Inner::Ods(book) => {
            let range = book
                .worksheet_range(name)
                .map_err(|e| damaged(e.to_string()))?;
            dense_to_cells(&range)
        }
    }
    .and_then(|cells| cells.ok_or(ReadError::TooLarge))
}

/// Streams an xlsx sheet's cells with their style ids, in one pass.
fn read_xlsx<RS: Read + Seek>(
    book: &mut Xlsx<RS>,
    name: &str,
) -> Result<Option<SheetCells>, calamine::XlsxError> {
    let mut reader = book.worksheet_cells_reader(name)?;
    let palette: Vec<CellFormat> = reader
        .styles()
        .iter()
        .map(|style| CellFormat {
            bordered: style
                .borders
                .as_ref()
                .is_some_and(|b| b.has_visible_borders()),
            fill: style
                .fill
                .as_ref()
                .filter(|f| f.is_visible())
                .and_then(|f| f.get_color())
                .map(|c| c.to_argb() & 0x00FF_FFFF),
        })
        .collect();
    // The declared dimension is only a hint (it can lie): reserve at most 2M cells (about 100 MB) from it.
    let hint = reader.dimensions().len().min(1 << 21) as usize;
    let mut cells = Vec::with_capacity(hint);
    while let Some((cell, style_id)) = reader.next_cell_with_style_id()? {
        let (row, col) = cell.get_position();
        let value = from_data_ref(cell.get_value());
        let format = palette.get(style_id).copied().unwrap_or_default();
        if value.is_none() && format == CellFormat::default() {
            continue;
        }
        if cells.len() >= MAX_SHEET_CELLS {
            return Ok(None);
        }
        cells.push(SheetCell {
            row,
            col,
            value,
            format,
        });
    }
    Ok(Some(SheetCells::new(cells, true)))
}

fn read_xlsb<RS: Read + Seek>(
    book: &mut Xlsb<RS>,
    name: &str,
) -> Result<Option<SheetCells>, calamine::XlsbError> {
    let mut reader = book.worksheet_cells_reader(name)?;
    let mut cells = Vec::new();
    while let Some(cell) = reader.next_cell()? {
        let (row, col) = cell.get_position();
        let Some(value) = from_data_ref(cell.get_value()) else {
            continue;
        };
        if cells.len() >= MAX_SHEET_CELLS {
            return Ok(None);
        }
        cells.push(SheetCell {
            row,
            col,
            value: Some(value),
            format: CellFormat::default(),
        });
    }
    Ok(Some(SheetCells::new(cells, false)))
}

fn dense_to_cells(range: &calamine::Range<Data>) -> Result<Option<SheetCells>, ReadError> {
    let mut cells = Vec::new();
    let (row0, col0) = range.start().unwrap_or((0, 0));
    for (r, c, data) in range.used_cells() {
        let Some(value) = from_data(data) else {
            continue;
        };
        if cells.len() >= MAX_SHEET_CELLS {
            return Ok(None);
        }
        cells.push(SheetCell {
            row: row0.saturating_add(r as u32),
            col: col0.saturating_add(c as u32),
            value: Some(value),
            format: CellFormat::default(),
        });
    }
    Ok(Some(SheetCells::new(cells, false)))
}

/// Stream an ods `content.xml` and refuse it when a table's filled cells span more than
/// [`MAX_ODS_DENSE_CELLS`], counting `number-rows-repeated` and `number-columns-repeated`
/// the way calamine will expand them. Problems reading the zip are left to calamine to report.
fn ods_extent_check<RS: Read + Seek>(reader: &mut RS) -> Result<(), ReadError> {
    use quick_xml::events::{BytesStart, Event};

    reader
        .seek(SeekFrom::Start(0))
        .map_err(|e| ReadError::Io(e.to_string()))?;
    let Ok(mut zip) = zip::ZipArchive::new(&mut *reader) else {
        return Ok(());
    };
    let Ok(content) = zip.by_name("content.xml") else {
        return Ok(());
    };
    let mut xml = quick_xml::Reader::from_reader(BufReader::new(content));
    let attr = |e: &BytesStart<'_>, name: &str| -> Option<String> {
        e.try_get_attribute(name)
            .ok()
            .flatten()
            .map(|a| a.value.to_string())
    };
    let repeat = |e: &BytesStart<'_>, name: &str| -> u64 {
        attr(e, name)
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(1)
            .clamp(1, 1 << 21)
    };
    let mut buf = Vec::new();
    let mut sheet = String::new();
    let (mut row, mut col, mut row_repeat) = (0u64, 0u64, 1u64);
    let mut row_cols: Option<(u64, u64)> = None;
    let mut extent: Option<(u64, u64, u64, u64)> = None;
    loop {
        let (event_start, is_empty) = match xml.read_event_into(&mut buf) {
            Ok(Event::Start(e)) => (Some(e.into_owned()), false),
            Ok(Event::Empty(e)) => (Some(e.into_owned()), true),
            Ok(Event::End(e)) => {
                match e.local_name().as_ref() {
                    "table-row" => {
                        close_row(&mut extent, &mut row_cols, row, row_repeat);
                        row += row_repeat;
                    }
                    "table" => check_extent(&sheet, extent)?,
                    _ => {}
                }
                (None, false)
            }
            Ok(Event::Eof) | Err(_) => break,
            Ok(_) => (None, false),
        };
        if let Some(e) = event_start {
            match e.local_name().as_ref() {
                "table" => {
                    sheet = attr(&e, "table:name").unwrap_or_default();
                    (row, extent) = (0, None);
                }
                "table-row" => {
                    (col, row_repeat, row_cols) =
                        (0, repeat(&e, "table:number-rows-repeated"), None);
                    if is_empty {
                        row += row_repeat;
                    }
                }
                "table-cell" | "covered-table-cell" => {
                    let n = repeat(&e, "table:number-columns-repeated");
                    let filled = !is_empty
                        || attr(&e, "office:value-type").is_some()
                        || attr(&e, "table:formula").is_some();
                    if filled {
                        let (a, b) = row_cols.unwrap_or((col, col));
                        row_cols = Some((a.min(col), b.max(col + n - 1)));
                    }
                    col += n;
                }
                _ => {}
            }
        }
        buf.clear();
    }
    Ok(())
}

fn close_row(
    extent: &mut Option<(u64, u64, u64, u64)>,
    row_cols: &mut Option<(u64, u64)>,
    row: u64,
    repeat: u64,
) {
    if let Some((c0, c1)) = row_cols.take() {
        let last = row + repeat - 1;
        *extent = Some(match *extent {
            None => (row, last, c0, c1),
            Some((r0, _, a, b)) => (r0, last, a.min(c0), b.max(c1)),
        });
    }
}

fn check_extent(sheet: &str, extent: Option<(u64, u64, u64, u64)>) -> Result<(), ReadError> {
    if let Some((r0, r1, c0, c1)) = extent {
        let (rows, cols) = (r1 - r0 + 1, c1 - c0 + 1);
        if rows.saturating_mul(cols) > MAX_ODS_DENSE_CELLS {
            return Err(ReadError::OdsTooLarge {
                sheet: sheet.to_string(),
                rows,
                cols,
            });
        }
    }
    Ok(())
}

/// Whether an OLE compound file's allocation tables (FAT, or mini FAT) contain a cycle, or its
/// DIFAT chain runs longer than the file. calamine follows such chains without a bound and
/// grows memory until the process dies (found by fuzzing), so the bytes are checked first.
/// `bytes` is the whole file; tables that cannot be read are left to calamine to report.
fn ole_chains_loop(bytes: &[u8]) -> bool {
    const FIRST_SPECIAL: u32 = 0xFFFF_FFFA;
    let u32_at = |b: &[u8], at: usize| {
        b.get(at..at + 4)
            .map(|x| u32::from_le_bytes([x[0], x[1], x[2], x[3]]))
    };
    let shift = match bytes.get(0x1E..0x20) {
        Some(x) => u16::from_le_bytes([x[0], x[1]]),
        None => return false,
    };
    if shift != 9 && shift != 12 {
        return false;
    }
    let size = 1usize << shift;
    let sectors = (bytes.len() / size).saturating_sub(1);
    // Sectors as calamine reads them: from just after the header block (one sector), ids up
    // to len / size, a sector cut short by the end of the file padded with zeros.
    let sector = |id: u32| -> Option<std::borrow::Cow<'_, [u8]>> {
        if id as usize > bytes.len() / size {
            return None;
        }
        let start = size.checked_add((id as usize).checked_mul(size)?)?;
        let end = start.checked_add(size)?;
        match bytes.get(start..end) {
            Some(s) => Some(std::borrow::Cow::Borrowed(s)),
            None => {
                let mut v = bytes.get(start..).unwrap_or_default().to_vec();
                v.resize(size, 0);
                Some(std::borrow::Cow::Owned(v))
            }
        }
    };
    let words = |s: &[u8]| -> Vec<u32> {
        s.chunks_exact(4)
            .map(|x| u32::from_le_bytes([x[0], x[1], x[2], x[3]]))
            .collect()
    };
    let mut fat_ids: Vec<u32> = (0..109)
        .filter_map(|i| u32_at(bytes, 0x4C + 4 * i))
        .filter(|&id| id < FIRST_SPECIAL)
        .collect();
    let mut difat = u32_at(bytes, 0x44).unwrap_or(u32::MAX);
    let mut steps = 0usize;
    while difat < FIRST_SPECIAL {
        steps += 1;
        if steps > sectors + 1 {
            return true;
        }
        let Some(s) = sector(difat) else {
            return false;
        };
        let ids = words(&s);
        let (next, list) = ids.split_last().unwrap_or((&u32::MAX, &[]));
        fat_ids.extend(list.iter().copied().filter(|&id| id < FIRST_SPECIAL));
        difat = *next;
    }
    let fat: Vec<u32> = fat_ids
        .iter()
        .filter_map(|&id| sector(id))
        .flat_map(|s| words(&s))
        .collect();
    if has_cycle(&fat) {
        return true;
    }
    // The mini FAT is itself a chain in the FAT (acyclic by now).
    let mut mini = Vec::new();
    let mut id = u32_at(bytes, 0x3C).unwrap_or(u32::MAX);
    while id < FIRST_SPECIAL && mini.len() <= bytes.len() / 4 {
        match sector(id) {
            Some(s) => mini.extend(words(&s)),
            None => break,
        }
        id = fat.get(id as usize).copied().unwrap_or(u32::MAX);
    }
    has_cycle(&mini)
}

/// Whether following `next[i]` from some `i` ever comes back (a functional graph with a loop).
fn has_cycle(next: &[u32]) -> bool {
    // 0 = unseen, 1 = on the current walk, 2 = known to end.
    let mut state = vec![0u8; next.len()];
    let mut walk = Vec::new();
    for startpoint in 0..next.len() {
        let mut i = startpoint;
        while i < next.len() && state[i] == 0 {
            state[i] = 1;
            walk.push(i);
            i = next[i] as usize;
        }
        if i < next.len() && state[i] == 1 {
            return true;
        }
        for &w in &walk {
            state[w] = 2;
        }
        walk.clear();
    }
    false
}

fn text_value(s: &str) -> Option<CellValue> {
    (!s.trim().is_empty()).then(|| CellValue::Text(s.into()))
}

fn from_data_ref(data: &DataRef<'_>) -> Option<CellValue> {
    match data {
        DataRef::Int(i) => Some(CellValue::Number(*i as f64)),
        DataRef::Float(f) => Some(CellValue::Number(*f)),
        DataRef::String(s) => text_value(s),
        DataRef::SharedString(s) => text_value(s),
        DataRef::Bool(b) => Some(CellValue::Bool(*b)),
        DataRef::DateTime(d) => Some(CellValue::Number(d.as_f64())),
        DataRef::DateTimeIso(s) | DataRef::DurationIso(s) => text_value(s),
        DataRef::Error(e) => Some(CellValue::Error(e.to_string().into())),
        DataRef::Empty => None,
    }
}

fn from_data(data: &Data) -> Option<CellValue> {
    match data {
        Data::Int(i) => Some(CellValue::Number(*i as f64)),
        Data::Float(f) => Some(CellValue::Number(*f)),
        Data::String(s) => text_value(s),
        Data::Bool(b) => Some(CellValue::Bool(*b)),
        Data::DateTime(d) => Some(CellValue::Number(d.as_f64())),
        Data::DateTimeIso(s) | Data::DurationIso(s) => text_value(s),
        Data::Error(e) => Some(CellValue::Error(e.to_string().into())),
        Data::Empty => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffing_tells_formats_from_member_names() {
        let zip = |names: &str| {
            let mut v = ZIP_MAGIC.to_vec();
            v.extend_from_slice(names.as_bytes());
            v
        };
        let x = zip("[Content_Types].xml xl/workbook.xml");
        assert_eq!(sniff(&x, &x), Sniffed::Workbook(Format::Xlsx));
        let b = zip("xl/workbook.bin");
        assert_eq!(sniff(&b, &b), Sniffed::Workbook(Format::Xlsb));
        let o = zip("mimetypeapplication/vnd.oasis.opendocument.spreadsheet");
        assert_eq!(sniff(&o, &o), Sniffed::Workbook(Format::Ods));
        let w = zip("word/document.xml PK\x05\x06");
        assert_eq!(sniff(&w, &w), Sniffed::OtherZip);
        let cut = zip("[Content_Types].xml docProps/app.xml");
        assert_eq!(sniff(&cut, &cut), Sniffed::TruncatedZip);
        let mut ole = OLE_MAGIC.to_vec();
        ole.extend("EncryptionInfo".encode_utf16().flat_map(u16::to_le_bytes));
        assert_eq!(sniff(&ole, &ole), Sniffed::Encrypted);
    }

    #[test]
    fn cells_are_sorted_and_deduplicated_last_wins() {
        let cells = SheetCells::from_values([
            (2, 0, CellValue::Number(3.0)),
            (0, 1, CellValue::Number(1.0)),
            (2, 0, CellValue::Number(4.0)),
        ]);
        let got: Vec<_> = cells.cells().iter().map(|c| (c.row, c.col)).collect();
        assert_eq!(got, vec![(0, 1), (2, 0)]);
        assert_eq!(cells.cells()[1].value, Some(CellValue::Number(4.0)));
    }

    #[test]
    fn looping_ole_chains_are_detected() {
        assert!(has_cycle(&[1, 2, 0]));
        assert!(has_cycle(&[0xFFFF_FFFE, 2, 1]));
        assert!(!has_cycle(&[1, 2, 0xFFFF_FFFE, 0xFFFF_FFFF]));
        // A minimal OLE header whose single FAT sector (sector 0) says sector 1 -> 1.
        let mut file = vec![0u8; 512 * 3];
        file[..8].copy_from_slice(OLE_MAGIC);
        file[0x1E] = 9;
        file[0x3C..0x40].copy_from_slice(&u32::MAX.to_le_bytes());
        file[0x44..0x48].copy_from_slice(&u32::MAX.to_le_bytes());
        for i in 0..109 {
            file[0x4C + 4 * i..0x50 + 4 * i].copy_from_slice(&u32::MAX.to_le_bytes());
        }
        file[0x4C..0x50].copy_from_slice(&0u32.to_le_bytes());
        let fat = 512;
        for i in 0..128 {
            file[fat + 4 * i..fat + 4 * i + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        }
        file[fat..fat + 4].copy_from_slice(&0xFFFF_FFFDu32.to_le_bytes());
        assert!(!ole_chains_loop(&file));
        file[fat + 4..fat + 8].copy_from_slice(&1u32.to_le_bytes());
        assert!(ole_chains_loop(&file));
    }

    #[test]
    fn a_panicking_reader_becomes_an_error() {
        let r: Result<(), ReadError> = guarded(Format::Xls, || panic!("boom"));
        assert_eq!(
            r,
            Err(ReadError::ReaderCrashed {
                format: Format::Xls,
                detail: "boom".into()
            })
        );
        assert!(!IN_GUARD.with(|g| g.get()), "the guard flag is reset");
    }

    #[test]
    fn garbage_bytes_are_refused_without_panicking() {
        for bytes in [&b""[..], b"PK\x03\x04garbage", OLE_MAGIC, b"just text"] {
            assert!(Workbook::from_bytes(bytes).is_err());
        }
    }
}
