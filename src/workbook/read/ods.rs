//! OpenDocument spreadsheets (`.ods`, and flat `.fods`) read by our own streaming reader.
//!
//! calamine is not used for ods: version 0.38 fails on whitespace between cells (Gnumeric
//! indents its `content.xml`; see `docs/upstream.md`), reads `META-INF/manifest.xml` whole
//! whatever its size, and expands every sheet densely. Here `content.xml` is streamed through
//! the scanner the xlsx sheets use (`Scanner`), through `Capped`, under the reading budget,
//! and nothing else in the package is read (the manifest only when `content.xml` is not XML, to
//! tell an encrypted file from a damaged one, and then at most [`MAX_MANIFEST_BYTES`]).
//!
//! **Repeats.** `table:number-columns-repeated` and `table:number-rows-repeated` expand only
//! cells that hold a value, each copy counted as a cell scanned and its text counted once per
//! copy, so a value repeated 2^31 times is refused at the cap before anything is held. An empty
//! cell or row repeated any number of times costs one element: LibreOffice ends every sheet
//! with a million empty rows, and Gnumeric every row with thousands of empty cells.
//!
//! **One pass, forward.** Opening walks `content.xml` once for the sheet names (and to find a
//! file cut short); reading sheet k continues the second pass from where sheet k-1 ended, so a
//! workbook of 30,000 small sheets costs two passes, not 30,000. Reading sheets out of order
//! starts the pass again.
//!
//! Values are read as calamine reads them: `office:value` for numbers, percentages and
//! currencies; the text of a string cell (paragraphs joined by line breaks, `text:s` spaces,
//! annotations left out) unless `office:string-value` gives it; dates and times as their ISO
//! text; booleans. Formulas count by their cached value. Formats are not read
//! ([`SheetCells::formats_known`] is false).

use std::collections::HashSet;
use std::io::{self, Read, Seek, SeekFrom, Take};

use flate2::read::DeflateDecoder;

use super::budget::{text_value, Capped, RunBudget, SheetBudget, MAX_SHEETS, MAX_TEXT_KEPT};
use super::xmlscan::{attributes, decode_text, ScanError, Scanner, Token};
use super::{CellValue, Format, ReadError, SheetCell, SheetCells, SheetInfo, SheetSource};

/// The most bytes of `META-INF/manifest.xml` looked through for `encryption-data`.
pub const MAX_MANIFEST_BYTES: u64 = 1024 * 1024;

/// The most table styles that hide their sheet kept (a real file has one or two).
const MAX_HIDING_STYLES: usize = 10_000;

/// How much raw text of one cell is kept before decoding: entities are at most 10 bytes for
/// the character they stand for, so the decoded text is still longer than [`MAX_TEXT_KEPT`]
/// and [`keep_text`] marks it cut.
const MAX_RAW_KEPT: usize = 10 * (MAX_TEXT_KEPT + 8);

/// Where the bytes of `content.xml` are in the file.
#[derive(Clone, Copy, Debug)]
enum Layout {
    /// A member of the zip package, from `start`, `len` bytes, deflated or stored.
    Zip {
        start: u64,
        len: u64,
        deflated: bool,
    },
    /// A flat ODS: the whole file is the document.
    Flat { len: u64 },
}

/// `content.xml` as a byte stream that owns the workbook's reader (so that a pass can be
/// kept between two sheets and the reader taken back to start another).
enum Member<RS> {
    Stored(Take<RS>),
    Deflated(DeflateDecoder<Take<RS>>),
}

impl<RS: Read + Seek> Member<RS> {
    fn open(mut reader: RS, layout: Layout) -> io::Result<Member<RS>> {
        let (start, len, deflated) = match layout {
            Layout::Zip {
                start,
                len,
                deflated,
            } => (start, len, deflated),
            Layout::Flat { len } => (0, len, false),
        };
        reader.seek(SeekFrom::Start(start))?;
        let bytes = reader.take(len);
        Ok(if deflated {
            Member::Deflated(DeflateDecoder::new(bytes))
        } else {
            Member::Stored(bytes)
        })
    }

    fn into_inner(self) -> RS {
        match self {
            Member::Stored(t) => t.into_inner(),
            Member::Deflated(d) => d.into_inner().into_inner(),
        }
    }
}

impl<RS: Read> Read for Member<RS> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Member::Stored(t) => t.read(buf),
            Member::Deflated(d) => d.read(buf),
        }
    }
}

fn damaged(detail: String) -> ReadError {
    ReadError::Damaged {
        format: Format::Ods,
        detail,
    }
}

/// An open ods workbook.
pub(super) struct Book<RS: Read + Seek> {
    sheets: Vec<SheetInfo>,
    layout: Layout,
    /// The pass in progress and the index of the next sheet it will meet.
    pass: Option<(Walk<Capped<Member<RS>>>, usize)>,
    /// The workbook's reader while no pass holds it.
    idle: Option<RS>,
}

impl<RS: Read + Seek> Book<RS> {
    /// Open an ods package (`flat`: a flat ODS document) and list its sheets, and which of
    /// them it hides (`table:display="false"` in their style). The whole of `content.xml` is
    /// walked once here: a file cut short is refused now.
    pub(super) fn open(mut reader: RS, flat: bool) -> Result<Book<RS>, ReadError> {
        let io = |e: io::Error| ReadError::Io(e.to_string());
        let layout = if flat {
            Layout::Flat {
                len: reader.seek(SeekFrom::End(0)).map_err(io)?,
            }
        } else {
            locate_content(&mut reader)?
        };
        let mut walk = Walk::new(Capped::new(Member::open(reader, layout).map_err(io)?));
        let mut sheets = Vec::new();
        let listed = (|| {
            while let Some((name, hidden)) = walk.next_table()? {
                if sheets.len() >= MAX_SHEETS {
                    return Err(ReadError::TooLarge {
                        detail: format!("the workbook lists more than {MAX_SHEETS} sheets"),
                    });
                }
                sheets.push(SheetInfo { name, hidden });
                walk.table(None)?;
            }
            Ok(())
        })();
        let reader = walk.into_inner().into_inner();
        if let Err(e) = listed {
            return Err(match (&e, layout) {
                (ReadError::Damaged { .. }, Layout::Zip { .. }) => encrypted_or(reader, e),
                _ => e,
            });
        }
        Ok(Book {
            sheets,
            layout,
            pass: None,
            idle: Some(reader),
        })
    }

    /// Read the `index`-th sheet (in [`Book::open`]'s list) under the budget.
    fn read_sheet(&mut self, index: usize, budget: &mut SheetBudget<'_>) -> Result<(), ReadError> {
        let io = |e: io::Error| ReadError::Io(e.to_string());
        let (mut walk, mut next) = match self.pass.take() {
            Some((walk, next)) if next <= index => (walk, next),
            other => {
                let reader = match other {
                    Some((walk, _)) => walk.into_inner().into_inner(),
                    None => self.idle.take().ok_or_else(|| {
                        ReadError::Io("the workbook was lost after an earlier error".into())
                    })?,
                };
                let member = Member::open(reader, self.layout).map_err(io)?;
                (Walk::new(Capped::new(member)), 0)
            }
        };
        let result = (|| loop {
            if walk.next_table()?.is_none() {
                return Err(damaged(format!(
                    "its content.xml no longer holds sheet {} (it changed while being read?)",
                    index + 1
                )));
            }
            next += 1;
            if next - 1 == index {
                return walk.table(Some(&mut *budget));
            }
            walk.table(None)?;
        })();
        match &result {
            Ok(_) => self.pass = Some((walk, next)),
            Err(_) => self.idle = Some(walk.into_inner().into_inner()),
        }
        result
    }
}

impl<RS: Read + Seek> SheetSource for Book<RS> {
    fn sheets(&self) -> &[SheetInfo] {
        &self.sheets
    }

    fn stream(&mut self, index: usize, sink: &mut SheetBudget<'_>) -> Result<(), ReadError> {
        self.read_sheet(index, sink)
    }
}

/// Find `content.xml` in the package.
fn locate_content<RS: Read + Seek>(reader: &mut RS) -> Result<Layout, ReadError> {
    reader
        .seek(SeekFrom::Start(0))
        .map_err(|e| ReadError::Io(e.to_string()))?;
    let mut zip =
        zip::ZipArchive::new(&mut *reader).map_err(|e| damaged(format!("its zip archive: {e}")))?;
    let member = zip
        .by_name("content.xml")
        .map_err(|e| damaged(format!("content.xml: {e}")))?;
    let deflated = match member.compression() {
        zip::CompressionMethod::Stored => false,
        zip::CompressionMethod::Deflated => true,
        other => {
            return Err(damaged(format!(
                "its content.xml is compressed with {other}, which no spreadsheet program writes"
            )))
        }
    };
    let start = member
        .data_start()
        .ok_or_else(|| damaged("content.xml: its data cannot be found".into()))?;
    Ok(Layout::Zip {
        start,
        len: member.compressed_size(),
        deflated,
    })
}

/// A `content.xml` that is not XML is encrypted when the manifest says so.
fn encrypted_or<RS: Read + Seek>(mut reader: RS, error: ReadError) -> ReadError {
    let says_encrypted = (|| -> Option<bool> {
        reader.seek(SeekFrom::Start(0)).ok()?;
        let mut zip = zip::ZipArchive::new(&mut reader).ok()?;
        let manifest = zip.by_name("META-INF/manifest.xml").ok()?;
        let mut xml = Scanner::new(manifest.take(MAX_MANIFEST_BYTES));
        loop {
            match xml.next_token().ok()? {
                Token::Start { name, .. } if name == b"encryption-data" => return Some(true),
                Token::Eof => return Some(false),
                _ => {}
            }
        }
    })();
    if says_encrypted == Some(true) {
        ReadError::PasswordProtected
    } else {
        error
    }
}

/// A pass over `content.xml`.
struct Walk<R> {
    xml: Scanner<R>,
    /// Elements open.
    depth: u64,
    /// The sheet being read is an empty element (`<table:table .../>`).
    empty_table: bool,
    /// The table styles seen so far that hide their table (at most [`MAX_HIDING_STYLES`]), and
    /// the style being read.
    hiding_styles: HashSet<String>,
    style: Option<String>,
}

/// The cells of one row being read: runs of equal values, each copy already counted.
struct Run {
    col: u64,
    n: u64,
    value: CellValue,
}

/// One cell element being read.
struct Cell {
    /// `depth` inside the cell element.
    depth: u64,
    repeat: u64,
    /// The value its attributes give (a string cell without `office:string-value` takes its
    /// text).
    value: Option<CellValue>,
    /// The cell's text is its value.
    wants_text: bool,
    /// Depth of the paragraph (`text:p`, `text:h`) being read, or 0.
    paragraph: u64,
    paragraphs: u32,
    /// Depth of an annotation (a comment, not the value) being skipped, or 0.
    annotation: u64,
    /// The text's bytes, counted whole.
    bytes: u64,
    text: String,
    raw: Vec<u8>,
}

impl<R: Read> Walk<Capped<R>> {
    fn new(content: Capped<R>) -> Self {
        Walk {
            xml: Scanner::new(content),
            depth: 0,
            empty_table: false,
            hiding_styles: HashSet::new(),
            style: None,
        }
    }

    fn into_inner(self) -> R {
        self.xml.into_inner().into_inner()
    }

    /// Move to the start of the next sheet (a named `table:table` outside any table) and give
    /// its name and whether its style hides it; `None` at the end of the document.
    fn next_table(&mut self) -> Result<Option<(String, bool)>, ReadError> {
        loop {
            let depth = self.depth;
            let token = match self.xml.next_token() {
                Ok(t) => t,
                Err(e) => return Err(scan_error(&self.xml, e)),
            };
            match token {
                Token::Start { name, attrs, empty } => {
                    let attr = |key: &[u8]| {
                        attributes(attrs)
                            .find(|(k, _)| *k == key)
                            .map(|(_, v)| decoded(v))
                    };
                    match name {
                        b"table" => {
                            if let Some(n) = attr(b"table:name") {
                                let hides = attr(b"table:style-name")
                                    .is_some_and(|s| self.hiding_styles.contains(&s));
                                self.empty_table = empty;
                                if !empty {
                                    self.depth += 1;
                                }
                                return Ok(Some((n, hides)));
                            }
                        }
                        b"style" => self.style = attr(b"style:name"),
                        b"table-properties"
                            if attr(b"table:display").as_deref() == Some("false") =>
                        {
                            if let Some(style) = self.style.take() {
                                if self.hiding_styles.len() < MAX_HIDING_STYLES {
                                    self.hiding_styles.insert(style);
                                }
                            }
                        }
                        _ => {}
                    }
                    if !empty {
                        self.depth += 1;
                    }
                }
                Token::End { .. } => self.depth = depth.saturating_sub(1),
                Token::Eof if depth == 0 => return Ok(None),
                Token::Eof => {
                    return Err(damaged(
                        "its content.xml ends inside an element: the file was cut short or edited by hand".into(),
                    ))
                }
                Token::Text(_) | Token::CData(_) => {}
            }
        }
    }

    /// Read the sheet [`Walk::next_table`] just named to its end, keeping its cells in
    /// `budget` (or skipping them without one).
    fn table(&mut self, mut budget: Option<&mut SheetBudget<'_>>) -> Result<(), ReadError> {
        if self.empty_table {
            self.empty_table = false;
            return Ok(());
        }
        let table_depth = self.depth;
        let (mut row, mut row_repeat, mut col) = (0u64, 1u64, 0u64);
        // The depth inside the row element being read, or 0.
        let mut row_depth = 0u64;
        let mut runs: Vec<Run> = Vec::new();
        let mut cell: Option<Cell> = None;
        loop {
            let depth = self.depth;
            let token = match self.xml.next_token() {
                Ok(t) => t,
                Err(e) => return Err(scan_error(&self.xml, e)),
            };
            if !matches!(token, Token::Text(_)) {
                if let Some(c) = cell.as_mut() {
                    c.flush_raw();
                }
            }
            match token {
                Token::Start { name, attrs, empty } => {
                    if !empty {
                        self.depth += 1;
                    }
                    let Some(budget) = budget.as_deref_mut() else {
                        continue;
                    };
                    if let Some(c) = cell.as_mut() {
                        c.start(name, attrs, empty, depth + 1);
                        continue;
                    }
                    match name {
                        b"table-row" if row_depth == 0 => {
                            row_repeat = repeat(attrs, b"table:number-rows-repeated");
                            col = 0;
                            if empty {
                                row = row.saturating_add(row_repeat);
                            } else {
                                row_depth = depth + 1;
                            }
                        }
                        b"table-cell" | b"covered-table-cell" if row_depth > 0 => {
                            budget.scan()?;
                            let mut c = Cell::new(attrs, depth + 1);
                            if empty {
                                c.finish(budget, row_repeat, col, &mut runs)?;
                                col = col.saturating_add(c.repeat);
                            } else {
                                cell = Some(c);
                            }
                        }
                        _ => {}
                    }
                }
                Token::End { .. } => {
                    self.depth = depth.saturating_sub(1);
                    if depth == table_depth {
                        return Ok(());
                    }
                    let Some(budget) = budget.as_deref_mut() else {
                        continue;
                    };
                    if let Some(mut c) = cell.take() {
                        if depth == c.depth {
                            c.finish(budget, row_repeat, col, &mut runs)?;
                            col = col.saturating_add(c.repeat);
                        } else {
                            c.end(depth);
                            cell = Some(c);
                        }
                    } else if depth == row_depth {
                        flush_row(budget, row, row_repeat, &mut runs)?;
                        row = row.saturating_add(row_repeat);
                        row_depth = 0;
                    }
                }
                Token::Text(t) => {
                    if let Some(c) = cell.as_mut() {
                        c.text(t);
                    }
                }
                Token::CData(t) => {
                    if let Some(c) = cell.as_mut() {
                        c.text(t);
                        c.flush_raw();
                    }
                }
                Token::Eof => {
                    return Err(damaged(
                        "its content.xml ends inside a sheet (a sheet is not closed): the file was cut short or edited by hand".into(),
                    ))
                }
            }
        }
    }
}

/// A scanner error worded for a person (a cap of [`Capped`] as too large).
fn scan_error<R: Read>(xml: &Scanner<Capped<R>>, e: ScanError) -> ReadError {
    match xml.get_ref().over.clone() {
        Some(over) => ReadError::TooLarge {
            detail: format!("its content.xml holds {}", over.0),
        },
        None => match e {
            ScanError::Io(e) => damaged(format!("its content.xml cannot be read: {e}")),
            e => damaged(format!("its content.xml is not well-formed XML: {e}")),
        },
    }
}

/// Keep a row's cells, once for each repeat of the row.
fn flush_row(
    budget: &mut SheetBudget<'_>,
    row: u64,
    repeat: u64,
    runs: &mut Vec<Run>,
) -> Result<(), ReadError> {
    for r in row..row.saturating_add(repeat) {
        if runs.is_empty() {
            break;
        }
        let r = position(r, "row")?;
        for run in runs.iter() {
            for c in run.col..run.col.saturating_add(run.n) {
                let c = position(c, "column")?;
                match run.value {
                    CellValue::Number(f) => {
                        budget.push_number(r, c, f, Default::default())?;
                    }
                    ref v => budget.push(SheetCell {
                        row: r,
                        col: c,
                        value: Some(v.clone()),
                        format: Default::default(),
                    })?,
                }
            }
        }
    }
    runs.clear();
    Ok(())
}

/// A row or column index as a cell position.
fn position(i: u64, what: &str) -> Result<u32, ReadError> {
    u32::try_from(i).map_err(|_| ReadError::TooLarge {
        detail: format!("a cell lies beyond {what} {}", u32::MAX),
    })
}

impl Cell {
    fn new(attrs: &[u8], depth: u64) -> Cell {
        let mut cell = Cell {
            depth,
            repeat: 1,
            value: None,
            wants_text: false,
            paragraph: 0,
            paragraphs: 0,
            annotation: 0,
            bytes: 0,
            text: String::new(),
            raw: Vec::new(),
        };
        let (mut number, mut string, mut date, mut boolean) = (None, None, None, None);
        let (mut string_type, mut error) = (false, false);
        for (key, value) in attributes(attrs) {
            match key {
                b"table:number-columns-repeated" => cell.repeat = parse_repeat(value),
                b"office:value" => number = Some(value),
                b"office:string-value" => string = Some(value),
                b"office:date-value" | b"office:time-value" => date = Some(value),
                b"office:boolean-value" => boolean = Some(value),
                b"office:value-type" => string_type = value == b"string",
                b"calcext:value-type" => error = value == b"error",
                _ => {}
            }
        }
        cell.value = if let Some(v) = number {
            let text = decoded(v);
            match text.trim().parse::<f64>() {
                Ok(f) => Some(CellValue::Number(f)),
                Err(_) => text_value(&text),
            }
        } else if let Some(v) = string.filter(|s| !(error && s.is_empty())) {
            cell.bytes = v.len() as u64;
            text_value(&decoded(v))
        } else if let Some(v) = date {
            text_value(&decoded(v))
        } else if let Some(v) = boolean {
            Some(CellValue::Bool(v == b"true" || v == b"TRUE"))
        } else {
            cell.wants_text = string_type || error;
            None
        };
        cell
    }

    /// An element starts inside the cell (`depth` inside it).
    fn start(&mut self, name: &[u8], attrs: &[u8], empty: bool, depth: u64) {
        if !self.wants_text || self.annotation > 0 {
            return;
        }
        match name {
            b"annotation" if !empty => self.annotation = depth,
            b"p" | b"h" => {
                if self.paragraphs > 0 {
                    self.push("\n", 1);
                }
                self.paragraphs += 1;
                if !empty {
                    self.paragraph = depth;
                }
            }
            b"s" if self.paragraph > 0 => {
                let n = attributes(attrs)
                    .find(|(k, _)| *k == b"text:c")
                    .map_or(1, |(_, v)| parse_repeat(v));
                self.bytes = self.bytes.saturating_add(n);
                let room = (MAX_TEXT_KEPT + 8).saturating_sub(self.text.len()) as u64;
                self.text
                    .extend(std::iter::repeat_n(' ', n.min(room) as usize));
            }
            b"tab" if self.paragraph > 0 => self.push("\t", 1),
            b"line-break" if self.paragraph > 0 => self.push("\n", 1),
            _ => {}
        }
    }

    /// An element at `depth` inside the cell ends.
    fn end(&mut self, depth: u64) {
        if depth == self.annotation {
            self.annotation = 0;
        } else if depth == self.paragraph {
            self.paragraph = 0;
        }
    }

    fn text(&mut self, t: &[u8]) {
        if self.wants_text && self.annotation == 0 && self.paragraph > 0 {
            self.bytes = self.bytes.saturating_add(t.len() as u64);
            let room = MAX_RAW_KEPT.saturating_sub(self.raw.len());
            self.raw.extend_from_slice(&t[..t.len().min(room)]);
        }
    }

    /// Decode the raw text gathered so far.
    fn flush_raw(&mut self) {
        if !self.raw.is_empty() {
            let mut decoded = String::new();
            decode_text(&self.raw, &mut decoded);
            self.raw.clear();
            self.push(&decoded, 0);
        }
    }

    /// Append decoded text (`bytes` more to count), cut a little past [`MAX_TEXT_KEPT`].
    fn push(&mut self, s: &str, bytes: u64) {
        self.bytes = self.bytes.saturating_add(bytes);
        let room = (MAX_TEXT_KEPT + 8).saturating_sub(self.text.len());
        if s.len() <= room {
            self.text.push_str(s);
            return;
        }
        let mut end = room;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        self.text.push_str(&s[..end]);
        // Longer than the cap whatever `end` was, so keep_text marks it cut.
        while self.text.len() <= MAX_TEXT_KEPT {
            self.text.push(' ');
        }
    }

    /// The cell ends: count its copies (`repeat` along the row, `row_repeat` down) and keep
    /// its value as a run of the row.
    fn finish(
        &mut self,
        budget: &mut SheetBudget<'_>,
        row_repeat: u64,
        col: u64,
        runs: &mut Vec<Run>,
    ) -> Result<(), ReadError> {
        self.flush_raw();
        let copies = self.repeat.saturating_mul(row_repeat);
        // Text counts once per copy, also when it is all blanks (`text:s` spaces).
        let text_bytes = self.bytes.saturating_mul(copies);
        budget.text(usize::try_from(text_bytes).unwrap_or(usize::MAX))?;
        let value = match self.value.take() {
            Some(v) => Some(v),
            None if self.wants_text => text_value(&self.text),
            None => None,
        };
        let Some(value) = value else {
            return Ok(());
        };
        // The element was counted once when it started; each further copy is a cell too.
        for _ in 1..copies {
            budget.scan()?;
        }
        runs.push(Run {
            col,
            n: self.repeat,
            value,
        });
        Ok(())
    }
}

/// An attribute value with its entities decoded.
fn decoded(raw: &[u8]) -> String {
    let mut s = String::new();
    decode_text(raw, &mut s);
    s
}

fn parse_repeat(v: &[u8]) -> u64 {
    std::str::from_utf8(v)
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .unwrap_or(1)
        .max(1)
}

fn repeat(attrs: &[u8], key: &[u8]) -> u64 {
    attributes(attrs)
        .find(|(k, _)| *k == key)
        .map_or(1, |(_, v)| parse_repeat(v))
}

/// Read every sheet of a `content.xml` under a fresh budget: the fuzz target's entry point.
///
/// ```
/// let xml = br#"<office:document-content><office:body><office:spreadsheet>
///   <table:table table:name="T">
///     <table:table-row>
///       <table:table-cell office:value-type="float" office:value="7"><text:p>7</text:p></table:table-cell>
///     </table:table-row>
///   </table:table>
/// </office:spreadsheet></office:body></office:document-content>"#;
/// let sheets = knights_tour::workbook::read::ods::read_content(&xml[..]).unwrap();
/// assert_eq!(sheets[0].0, "T");
/// assert_eq!(sheets[0].1.cells().len(), 1);
/// ```
pub fn read_content<R: Read>(content: R) -> Result<Vec<(String, SheetCells)>, ReadError> {
    let mut walk = Walk::new(Capped::new(content));
    let mut run = RunBudget::default();
    let mut sheets = Vec::new();
    while let Some((name, _)) = walk.next_table()? {
        let mut budget = SheetBudget::new(&mut run);
        walk.table(Some(&mut budget))?;
        sheets.push((name, budget.finish(false)));
    }
    Ok(sheets)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workbook::read::CellValueRef;

    fn content(tables: &str) -> String {
        format!(
            r#"<?xml version="1.0"?><office:document-content xmlns:office="o" xmlns:table="t" xmlns:text="x"><office:body><office:spreadsheet>{tables}</office:spreadsheet></office:body></office:document-content>"#
        )
    }

    fn value(sheet: &SheetCells, row: u32, col: u32) -> Option<CellValueRef<'_>> {
        sheet.find(row, col).and_then(|c| c.value)
    }

    #[test]
    fn whitespace_between_cells_is_ignored_and_repeats_place_cells() {
        let c = content(
            r#"<table:table table:name="T">
              <table:table-row table:number-rows-repeated="2">
                <table:table-cell table:number-columns-repeated="3"/>
                <table:table-cell office:value-type="float" office:value="5"><text:p>5</text:p></table:table-cell>
              </table:table-row>
              <table:table-row>
                <table:table-cell office:value-type="string"><text:p>a<text:s text:c="2"/>b</text:p><text:p>c &amp; d</text:p><office:annotation><text:p>note</text:p></office:annotation></table:table-cell>
                <table:covered-table-cell table:number-columns-repeated="2" office:value-type="boolean" office:boolean-value="true"/>
              </table:table-row>
            </table:table>"#,
        );
        let sheets = read_content(c.as_bytes()).unwrap();
        let t = &sheets[0].1;
        assert_eq!(t.cells().len(), 5);
        assert_eq!(value(t, 0, 3), Some(CellValueRef::Number(5.0)));
        assert_eq!(value(t, 1, 3), Some(CellValueRef::Number(5.0)));
        assert_eq!(value(t, 2, 0), Some(CellValueRef::Text("a  b\nc & d")));
        assert_eq!(value(t, 2, 2), Some(CellValueRef::Bool(true)));
        assert!(!t.formats_known());
    }

    #[test]
    fn an_unclosed_table_is_damaged() {
        let c = content(r#"<table:table table:name="T"><table:table-row>"#);
        let cut = &c[..c.find("</office:spreadsheet>").unwrap()];
        assert!(matches!(
            read_content(cut.as_bytes()),
            Err(ReadError::Damaged { .. })
        ));
    }

    #[test]
    fn repeated_values_and_text_are_counted_before_they_are_held() {
        let big = "y".repeat(10_000);
        let c = content(&format!(
            r#"<table:table table:name="T"><table:table-row table:number-rows-repeated="2000"><table:table-cell table:number-columns-repeated="2000" office:value-type="string"><text:p>{big}</text:p></table:table-cell></table:table-row></table:table>"#
        ));
        assert!(matches!(
            read_content(c.as_bytes()),
            Err(ReadError::TooLarge { .. })
        ));
        let wide = content(
            r#"<table:table table:name="T"><table:table-row table:number-rows-repeated="1000000000"><table:table-cell table:number-columns-repeated="2147483648" office:value-type="float" office:value="1"/></table:table-row></table:table>"#,
        );
        assert!(matches!(
            read_content(wide.as_bytes()),
            Err(ReadError::TooLarge { .. })
        ));
        let spaces = content(
            r#"<table:table table:name="T"><table:table-row><table:table-cell office:value-type="string"><text:p><text:s text:c="1000000000"/></text:p></table:table-cell></table:table-row></table:table>"#,
        );
        assert!(matches!(
            read_content(spaces.as_bytes()),
            Err(ReadError::TooLarge { .. })
        ));
        let empty = content(
            r#"<table:table table:name="T"><table:table-row table:number-rows-repeated="1048576"><table:table-cell table:number-columns-repeated="16384"/></table:table-row></table:table>"#,
        );
        assert_eq!(
            read_content(empty.as_bytes()).unwrap()[0].1.cells().len(),
            0
        );
    }

    #[test]
    fn rows_inside_cells_and_nested_tables_are_not_sheet_rows() {
        let c = content(
            r#"<table:table table:name="A"><table:table-row><table:table-cell office:value-type="float" office:value="1"><table:table table:name="inner"><table:table-row><table:table-cell office:value-type="float" office:value="9"/></table:table-row></table:table></table:table-cell></table:table-row></table:table><table:table table:name="B"/>"#,
        );
        let sheets = read_content(c.as_bytes()).unwrap();
        let names: Vec<&str> = sheets.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["A", "B"]);
        assert_eq!(sheets[0].1.cells().len(), 1);
    }
}
