//! OpenDocument spreadsheets (`.ods`, and flat `.fods`), read by our own streaming reader on
//! quick-xml, the XML parser calamine itself uses.
//!
//! calamine is not used for ods: version 0.38 fails on whitespace between cells (Gnumeric
//! indents its `content.xml`; see `docs/upstream.md`) and expands every sheet densely. Here
//! `content.xml` is streamed, and nothing else in the package is read (the manifest only when
//! `content.xml` is not XML, to tell an encrypted file from a damaged one, and then at most
//! [`MAX_MANIFEST_BYTES`]). What a hostile `content.xml` costs the XML parser itself (one text
//! of a gigabyte, elements nested a million deep) is bounded from outside, in the reader
//! process ([`super::watched`]).
//!
//! **Repeats.** `table:number-columns-repeated` and `table:number-rows-repeated` expand only
//! cells that hold a value, each copy counted as a cell scanned and its text counted once per
//! copy, so a value repeated 2^31 times is refused at the cap before anything is held. An empty
//! cell or row repeated any number of times costs one element: LibreOffice ends every sheet
//! with a million empty rows, and Gnumeric every row with thousands of empty cells.
//!
//! **One pass, forward.** Opening walks `content.xml` once for the sheet names (and to find a
//! file cut short); reading sheet k continues the second pass from where sheet k-1 ended, so a
//! workbook of 4,000 small sheets costs two passes, not 4,000. Reading sheets out of order
//! starts the pass again.
//!
//! Values are read as calamine reads them: `office:value` for numbers, percentages and
//! currencies; the text of a string cell (paragraphs joined by line breaks, `text:s` spaces,
//! annotations left out) unless `office:string-value` gives it; dates and times as their ISO
//! text; booleans. Formulas count by their cached value. Formats are not read
//! ([`SheetCells::formats_known`] is false).

use std::borrow::Cow;
use std::collections::HashSet;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Take};

use flate2::read::DeflateDecoder;
use quick_xml::events::{BytesRef, BytesStart, Event};
use quick_xml::XmlVersion;

use super::budget::{text_value, SheetBudget, MAX_SHEETS, MAX_TEXT_KEPT};
use super::{CellValue, Format, ReadError, SheetCells, SheetInfo, SheetSource};

/// The most bytes of `META-INF/manifest.xml` looked through for `encryption-data`.
pub const MAX_MANIFEST_BYTES: u64 = 1024 * 1024;

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
    fn open(mut reader: RS, layout: Layout) -> Result<Member<RS>, ReadError> {
        let (start, len, deflated) = match layout {
            Layout::Zip {
                start,
                len,
                deflated,
            } => (start, len, deflated),
            Layout::Flat { len } => (0, len, false),
        };
        reader
            .seek(SeekFrom::Start(start))
            .map_err(|e| ReadError::Io(e.to_string()))?;
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

/// A pass over a package's `content.xml`.
type Pass<RS> = Walk<BufReader<Member<RS>>>;

/// The workbook's reader, taken back from a pass.
fn reader_of<RS: Read + Seek>(pass: Pass<RS>) -> RS {
    pass.into_inner().into_inner().into_inner()
}

/// An open ods workbook.
pub(super) struct Book<RS: Read + Seek> {
    sheets: Vec<SheetInfo>,
    layout: Layout,
    /// The pass in progress and the index of the next sheet it will meet.
    pass: Option<(Pass<RS>, usize)>,
    /// The workbook's reader while no pass holds it.
    idle: Option<RS>,
}

impl<RS: Read + Seek> Book<RS> {
    /// Open an ods package (`flat`: a flat ODS document) and list its sheets, and which of
    /// them it hides (`table:display="false"` in their style). The whole of `content.xml` is
    /// walked once here: a file cut short is refused now.
    pub(super) fn open(mut reader: RS, flat: bool) -> Result<Book<RS>, ReadError> {
        let layout = if flat {
            let len = reader
                .seek(SeekFrom::End(0))
                .map_err(|e| ReadError::Io(e.to_string()))?;
            Layout::Flat { len }
        } else {
            locate_content(&mut reader)?
        };
        let mut walk = Walk::new(BufReader::new(Member::open(reader, layout)?));
        let mut sheets = Vec::new();
        let listed = (|| {
            while let Some((name, hidden)) = walk.next_table()? {
                // Cheap, and clearer than the reader process running out of memory on a
                // million empty tables.
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
        let reader = reader_of(walk);
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
}

impl<RS: Read + Seek> SheetSource for Book<RS> {
    fn sheets(&self) -> &[SheetInfo] {
        &self.sheets
    }

    /// Read the `index`-th sheet, continuing the pass in progress when it has not passed it.
    fn stream(&mut self, index: usize, sink: &mut SheetBudget<'_>) -> Result<(), ReadError> {
        let (mut walk, mut next) = match self.pass.take() {
            Some((walk, next)) if next <= index => (walk, next),
            other => {
                let reader = match other {
                    Some((walk, _)) => reader_of(walk),
                    None => self.idle.take().ok_or_else(|| {
                        ReadError::Io("the workbook was lost after an earlier error".into())
                    })?,
                };
                let member = Member::open(reader, self.layout)?;
                (Walk::new(BufReader::new(member)), 0)
            }
        };
        let result = (|| loop {
            if walk.next_table()?.is_none() {
                return Err(Format::Ods.damaged(format!(
                    "its content.xml no longer holds sheet {} (it changed while being read?)",
                    index + 1
                )));
            }
            next += 1;
            if next - 1 == index {
                return walk.table(Some(&mut *sink));
            }
            walk.table(None)?;
        })();
        match &result {
            Ok(_) => self.pass = Some((walk, next)),
            Err(_) => self.idle = Some(reader_of(walk)),
        }
        result
    }
}

/// Find `content.xml` in the package.
fn locate_content<RS: Read + Seek>(reader: &mut RS) -> Result<Layout, ReadError> {
    reader
        .seek(SeekFrom::Start(0))
        .map_err(|e| ReadError::Io(e.to_string()))?;
    let mut zip = zip::ZipArchive::new(&mut *reader)
        .map_err(|e| Format::Ods.damaged(format!("its zip archive: {e}")))?;
    let member = zip
        .by_name("content.xml")
        .map_err(|e| Format::Ods.damaged(format!("content.xml: {e}")))?;
    let deflated = match member.compression() {
        zip::CompressionMethod::Stored => false,
        zip::CompressionMethod::Deflated => true,
        other => {
            return Err(Format::Ods.damaged(format!(
                "its content.xml is compressed with {other}, which no spreadsheet program writes"
            )))
        }
    };
    let start = member
        .data_start()
        .ok_or_else(|| Format::Ods.damaged("content.xml: its data cannot be found"))?;
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
        let mut xml =
            quick_xml::Reader::from_reader(BufReader::new(manifest.take(MAX_MANIFEST_BYTES)));
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match xml.read_event_into(&mut buf).ok()? {
                Event::Start(e) | Event::Empty(e)
                    if e.local_name().as_ref() == "encryption-data" =>
                {
                    return Some(true)
                }
                Event::Eof => return Some(false),
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
    xml: quick_xml::Reader<R>,
    buf: Vec<u8>,
    /// Elements open.
    depth: u64,
    /// The sheet [`Walk::next_table`] named is an empty element (`<table:table .../>`).
    empty_table: bool,
    /// The table styles seen so far that hide their table, and the style being read.
    hiding_styles: HashSet<String>,
    style: Option<String>,
}

/// An XML error worded for a person.
fn xml_error(e: quick_xml::Error) -> ReadError {
    match e {
        quick_xml::Error::Io(e) => {
            Format::Ods.damaged(format!("its content.xml cannot be read: {e}"))
        }
        e => Format::Ods.damaged(format!("its content.xml is not well-formed XML: {e}")),
    }
}

/// The value of attribute `key`, its entities decoded (an undecodable one kept as written).
fn attr(e: &BytesStart<'_>, key: &str) -> Option<String> {
    let a = e.try_get_attribute(key).ok()??;
    let value = a
        .normalized_value(XmlVersion::Implicit1_0)
        .unwrap_or_else(|_| a.value.clone());
    Some(value.into_owned())
}

/// The text an entity reference stands for (an unknown one kept as written).
fn entity(r: &BytesRef<'_>) -> Cow<'static, str> {
    if let Some(s) = quick_xml::escape::resolve_predefined_entity(r) {
        return Cow::Borrowed(s);
    }
    match r.resolve_char_ref() {
        Ok(Some(c)) => Cow::Owned(c.to_string()),
        _ => Cow::Owned(format!("&{};", &**r)),
    }
}

impl<R: BufRead> Walk<R> {
    fn new(content: R) -> Self {
        let mut xml = quick_xml::Reader::from_reader(content);
        // A lone `&` in text is text, as LibreOffice reads it.
        xml.config_mut().allow_dangling_amp = true;
        Walk {
            xml,
            buf: Vec::new(),
            depth: 0,
            empty_table: false,
            hiding_styles: HashSet::new(),
            style: None,
        }
    }

    fn into_inner(self) -> R {
        self.xml.into_inner()
    }

    /// Move to the start of the next sheet (a named `table:table` outside any table) and give
    /// its name and whether its style hides it; `None` at the end of the document.
    fn next_table(&mut self) -> Result<Option<(String, bool)>, ReadError> {
        loop {
            self.buf.clear();
            let (e, empty) = match self.xml.read_event_into(&mut self.buf).map_err(xml_error)? {
                Event::Start(e) => (e, false),
                Event::Empty(e) => (e, true),
                Event::End(_) => {
                    self.depth = self.depth.saturating_sub(1);
                    continue;
                }
                Event::Eof if self.depth == 0 => return Ok(None),
                Event::Eof => {
                    return Err(Format::Ods.damaged(
                        "its content.xml ends inside an element: the file was cut short or edited by hand",
                    ))
                }
                _ => continue,
            };
            if !empty {
                self.depth += 1;
            }
            match e.local_name().as_ref() {
                "table" => {
                    if let Some(name) = attr(&e, "table:name") {
                        let hidden = attr(&e, "table:style-name")
                            .is_some_and(|s| self.hiding_styles.contains(&s));
                        self.empty_table = empty;
                        return Ok(Some((name, hidden)));
                    }
                }
                "style" => self.style = attr(&e, "style:name"),
                "table-properties" if attr(&e, "table:display").as_deref() == Some("false") => {
                    if let Some(style) = self.style.take() {
                        self.hiding_styles.insert(style);
                    }
                }
                _ => {}
            }
        }
    }

    /// Read the sheet [`Walk::next_table`] just named to its end, keeping its cells in
    /// `budget` (or skipping them without one).
    fn table(&mut self, mut budget: Option<&mut SheetBudget<'_>>) -> Result<(), ReadError> {
        if std::mem::take(&mut self.empty_table) {
            return Ok(());
        }
        let table_depth = self.depth;
        let mut sheet = Sheet::default();
        loop {
            let depth = self.depth;
            self.buf.clear();
            let event = self.xml.read_event_into(&mut self.buf).map_err(xml_error)?;
            let (e, empty) = match event {
                Event::Start(e) => (e, false),
                Event::Empty(e) => (e, true),
                Event::End(_) => {
                    self.depth = depth.saturating_sub(1);
                    if depth == table_depth {
                        return Ok(());
                    }
                    if let Some(budget) = budget.as_deref_mut() {
                        sheet.end(depth, budget)?;
                    }
                    continue;
                }
                Event::Text(t) => {
                    sheet.text(&t.xml10_content());
                    continue;
                }
                Event::CData(t) => {
                    sheet.text(&t.xml10_content());
                    continue;
                }
                Event::GeneralRef(r) => {
                    sheet.text(&entity(&r));
                    continue;
                }
                Event::Eof => {
                    return Err(Format::Ods.damaged(
                        "its content.xml ends inside a sheet (a sheet is not closed): the file was cut short or edited by hand",
                    ))
                }
                _ => continue,
            };
            if !empty {
                self.depth += 1;
            }
            if let Some(budget) = budget.as_deref_mut() {
                sheet.start(&e, empty, depth + 1, budget)?;
            }
        }
    }
}

/// Where the reading of one sheet is.
#[derive(Default)]
struct Sheet {
    row: u64,
    row_repeat: u64,
    col: u64,
    /// The depth of the row element being read, or 0.
    row_depth: u64,
    /// The row's cells that hold a value, as runs of equal values.
    runs: Vec<Run>,
    /// The cell element being read.
    cell: Option<Cell>,
}

/// Cells of one row: `n` copies of a value from column `col`, each copy already counted.
struct Run {
    col: u64,
    n: u64,
    value: CellValue,
}

impl Sheet {
    /// An element at `depth` starts.
    fn start(
        &mut self,
        e: &BytesStart<'_>,
        empty: bool,
        depth: u64,
        budget: &mut SheetBudget<'_>,
    ) -> Result<(), ReadError> {
        if let Some(c) = self.cell.as_mut() {
            c.start(e, empty, depth);
            return Ok(());
        }
        match e.local_name().as_ref() {
            "table-row" if self.row_depth == 0 => {
                self.row_repeat = repeat(e, "table:number-rows-repeated");
                self.col = 0;
                if empty {
                    self.row = self.row.saturating_add(self.row_repeat);
                } else {
                    self.row_depth = depth;
                }
            }
            "table-cell" | "covered-table-cell" if self.row_depth > 0 => {
                budget.scan()?;
                let c = Cell::new(e, depth);
                if empty {
                    self.finish_cell(c, budget)?;
                } else {
                    self.cell = Some(c);
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The element at `depth` ends.
    fn end(&mut self, depth: u64, budget: &mut SheetBudget<'_>) -> Result<(), ReadError> {
        match self.cell.take() {
            Some(c) if c.depth == depth => self.finish_cell(c, budget),
            Some(mut c) => {
                c.end(depth);
                self.cell = Some(c);
                Ok(())
            }
            None if depth == self.row_depth => {
                self.flush_row(budget)?;
                self.row = self.row.saturating_add(self.row_repeat);
                self.row_depth = 0;
                Ok(())
            }
            None => Ok(()),
        }
    }

    fn text(&mut self, t: &str) {
        if let Some(c) = self.cell.as_mut() {
            c.text(t);
        }
    }

    /// The cell ends: count its copies (along the row, and down for each repeat of the row)
    /// and keep its value as a run of the row.
    fn finish_cell(&mut self, mut c: Cell, budget: &mut SheetBudget<'_>) -> Result<(), ReadError> {
        let col = self.col;
        self.col = col.saturating_add(c.repeat);
        let copies = c.repeat.saturating_mul(self.row_repeat);
        // Text counts once per copy, also when it is all blanks (`text:s` spaces).
        budget.text(usize::try_from(c.bytes.saturating_mul(copies)).unwrap_or(usize::MAX))?;
        let value = match c.value.take() {
            Some(v) => Some(v),
            None if c.wants_text => text_value(&c.text),
            None => None,
        };
        let Some(value) = value else {
            return Ok(());
        };
        // The element was counted once when it started; each further copy is a cell too.
        for _ in 1..copies {
            budget.scan()?;
        }
        self.runs.push(Run {
            col,
            n: c.repeat,
            value,
        });
        Ok(())
    }

    /// Keep the row's cells, once for each repeat of the row.
    fn flush_row(&mut self, budget: &mut SheetBudget<'_>) -> Result<(), ReadError> {
        if !self.runs.is_empty() {
            for r in self.row..self.row.saturating_add(self.row_repeat) {
                for run in &self.runs {
                    for c in run.col..run.col.saturating_add(run.n) {
                        budget.push_at(r, c, run.value.as_value_ref())?;
                    }
                }
            }
        }
        self.runs.clear();
        Ok(())
    }
}

fn parse_repeat(v: &str) -> u64 {
    v.trim().parse::<u64>().unwrap_or(1).max(1)
}

fn repeat(e: &BytesStart<'_>, key: &str) -> u64 {
    attr(e, key).map_or(1, |v| parse_repeat(&v))
}

/// One cell element being read.
#[derive(Default)]
struct Cell {
    /// The depth of the cell element.
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
    /// The text, cut a little past [`MAX_TEXT_KEPT`].
    text: String,
}

impl Cell {
    fn new(e: &BytesStart<'_>, depth: u64) -> Cell {
        let mut cell = Cell {
            depth,
            repeat: 1,
            ..Cell::default()
        };
        let (mut number, mut string, mut date, mut boolean) = (None, None, None, None);
        let (mut string_type, mut error) = (false, false);
        for a in e.attributes().with_checks(false).flatten() {
            let value = || {
                a.normalized_value(XmlVersion::Implicit1_0)
                    .unwrap_or_else(|_| a.value.clone())
                    .into_owned()
            };
            match a.key.as_ref() {
                "table:number-columns-repeated" => cell.repeat = parse_repeat(&value()),
                "office:value" => number = Some(value()),
                "office:string-value" => string = Some(value()),
                "office:date-value" | "office:time-value" => date = Some(value()),
                "office:boolean-value" => boolean = Some(value()),
                "office:value-type" => string_type = a.value == "string",
                "calcext:value-type" => error = a.value == "error",
                _ => {}
            }
        }
        cell.value = if let Some(v) = number {
            match v.trim().parse::<f64>() {
                Ok(f) => Some(CellValue::Number(f)),
                Err(_) => text_value(&v),
            }
        } else if let Some(v) = string.filter(|s| !(error && s.is_empty())) {
            cell.bytes = v.len() as u64;
            text_value(&v)
        } else if let Some(v) = date {
            text_value(&v)
        } else if let Some(v) = boolean {
            Some(CellValue::Bool(v == "true" || v == "TRUE"))
        } else {
            cell.wants_text = string_type || error;
            None
        };
        cell
    }

    /// An element starts inside the cell (at `depth`).
    fn start(&mut self, e: &BytesStart<'_>, empty: bool, depth: u64) {
        if !self.wants_text || self.annotation > 0 {
            return;
        }
        match e.local_name().as_ref() {
            "annotation" if !empty => self.annotation = depth,
            "p" | "h" => {
                if self.paragraphs > 0 {
                    self.push("\n");
                }
                self.paragraphs += 1;
                if !empty {
                    self.paragraph = depth;
                }
            }
            "s" if self.paragraph > 0 => {
                let n = repeat(e, "text:c");
                let room = (MAX_TEXT_KEPT + 8).saturating_sub(self.text.len()) as u64;
                self.text
                    .extend(std::iter::repeat_n(' ', n.min(room) as usize));
                self.bytes = self.bytes.saturating_add(n);
            }
            "tab" if self.paragraph > 0 => self.push("\t"),
            "line-break" if self.paragraph > 0 => self.push("\n"),
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

    /// Text inside the cell: part of its value inside a paragraph outside an annotation.
    fn text(&mut self, t: &str) {
        if self.wants_text && self.annotation == 0 && self.paragraph > 0 {
            self.push(t);
        }
    }

    /// Append text, counted whole but kept only a little past [`MAX_TEXT_KEPT`] (so that
    /// `keep_text` still marks it cut).
    fn push(&mut self, s: &str) {
        self.bytes = self.bytes.saturating_add(s.len() as u64);
        let room = (MAX_TEXT_KEPT + 8).saturating_sub(self.text.len());
        let mut end = s.len().min(room);
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        self.text.push_str(&s[..end]);
        if end < s.len() {
            while self.text.len() <= MAX_TEXT_KEPT {
                self.text.push(' ');
            }
        }
    }
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
    let mut walk = Walk::new(BufReader::new(content));
    let mut sheets = Vec::new();
    while let Some((name, _)) = walk.next_table()? {
        let mut budget = SheetBudget::new();
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
                <table:table-cell office:value-type="string"><text:p>a<text:s text:c="2"/>b</text:p><text:p>c &amp; d&#x41;&bogus;<![CDATA[<&>]]></text:p><office:annotation><text:p>note</text:p></office:annotation></table:table-cell>
                <table:covered-table-cell table:number-columns-repeated="2" office:value-type="boolean" office:boolean-value="true"/>
                <table:table-cell office:value-type="string" office:string-value="x &lt; y"/>
              </table:table-row>
            </table:table>"#,
        );
        let sheets = read_content(c.as_bytes()).unwrap();
        let t = &sheets[0].1;
        assert_eq!(t.cells().len(), 6);
        assert_eq!(value(t, 0, 3), Some(CellValueRef::Number(5.0)));
        assert_eq!(value(t, 1, 3), Some(CellValueRef::Number(5.0)));
        assert_eq!(
            value(t, 2, 0),
            Some(CellValueRef::Text("a  b\nc & dA&bogus;<&>"))
        );
        assert_eq!(value(t, 2, 2), Some(CellValueRef::Bool(true)));
        assert_eq!(value(t, 2, 3), Some(CellValueRef::Text("x < y")));
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
