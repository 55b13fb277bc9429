//! xlsb under the reading budget: calamine's own walk over the workbook's binary records, done
//! first with caps, then calamine.
//!
//! calamine reads an xlsb record by zero-filling a buffer as long as the record claims (up to
//! 2^28 bytes) before reading it, keeps every shared string and cell format, and skips any
//! number of non-cell records inside a sheet's data without anyone counting them. So every
//! part calamine reads is walked here first exactly as calamine walks it (the same record
//! framing, the same skips, the same reuse of one buffer, even where calamine reads the bytes
//! of an unknown record as the next record's header), and refused when a record is longer than
//! [`MAX_RECORD_BYTES`], when a part holds more than [`MAX_PART_RECORDS`] records, when the
//! shared strings pass [`MAX_DISTINCT_STRINGS`] or [`MAX_STRING_BYTES`], the cell formats
//! [`MAX_CELL_FORMATS`], the sheets [`MAX_SHEETS`], or when what calamine would keep passes
//! the workbook's `OpenCost`. Every sheet is walked when the workbook opens (calamine holds
//! the file from then on), and its verdict kept for when it is read.

use std::collections::HashMap;
use std::io::{BufReader, Read, Seek, SeekFrom};

use calamine::{open_workbook_from_rs, DataRef, Reader, Xlsb};
use quick_xml::events::Event;

use super::budget::text_value;
use super::budget::{
    OpenCost, SheetBudget, MAX_CELL_FORMATS, MAX_DISTINCT_STRINGS, MAX_OPEN_XML_BYTES,
    MAX_PART_BYTES, MAX_RUN_SHEET_BYTES, MAX_SHEETS, MAX_SHEET_ELEMENTS, MAX_STRING_BYTES,
};
use super::package::{Metered, Package};
use super::xmlpart::{decode_attr, get_attrs, XmlPart};
use super::{CellFormat, CellValue, Format, ReadError, SheetCell, SheetInfo, SheetSource};

/// The longest record: a cell's text is at most 32,767 characters (64 KB), a shared string
/// with its runs a few hundred KB.
pub const MAX_RECORD_BYTES: usize = 4 * 1024 * 1024;

/// The most records read from one part (a sheet's, or the shared strings...).
pub const MAX_PART_RECORDS: u64 = MAX_SHEET_ELEMENTS;

/// The longest defined-name formula (its tokens): calamine turns each into text, and the text
/// of one grows with the square of its tokens in the worst case.
pub const MAX_NAME_FORMULA_BYTES: usize = 2048;

/// The most bytes of defined-name formulas over a workbook.
pub const MAX_NAME_FORMULAS_BYTES: u64 = 64 * 1024;

/// The longest sheet or defined name, in UTF-16 units (Excel allows 31 and 255).
pub const MAX_NAME_UNITS: usize = 255;

fn too_large(detail: String) -> ReadError {
    ReadError::TooLarge { detail }
}

fn damaged(detail: String) -> ReadError {
    ReadError::Damaged {
        format: Format::Xlsb,
        detail,
    }
}

/// How a walk ended short of its goal: where calamine fails too (the part ends, a record is
/// shorter than calamine indexes), so calamine reads no further either.
struct Stop;

/// A walk's step: a value, calamine failing there ([`Stop`]), or a cap reached.
type Step<T> = Result<Result<T, Stop>, ReadError>;

/// Calamine's record iterator, mirrored: one byte at a time for headers, a buffer that grows
/// to the longest record read and is never shrunk (calamine reads stale bytes from it where a
/// record is shorter than what it indexes).
struct Records<R> {
    r: R,
    /// The part's name, for messages.
    name: String,
    buf: Vec<u8>,
    records: u64,
    bytes: u64,
    max_bytes: u64,
}

impl<R: Read> Records<R> {
    fn new(r: R, name: &str, max_bytes: u64) -> Records<R> {
        Records {
            r,
            name: name.to_string(),
            buf: Vec::new(),
            records: 0,
            bytes: 0,
            max_bytes,
        }
    }

    fn read_exact(&mut self, into: &mut [u8]) -> Step<()> {
        self.bytes += into.len() as u64;
        if self.bytes > self.max_bytes {
            return Err(too_large(format!(
                "its part {} holds more than {} MB",
                self.name,
                self.max_bytes / (1024 * 1024)
            )));
        }
        match self.r.read_exact(into) {
            Ok(()) => Ok(Ok(())),
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(Err(Stop)),
            Err(e) => Err(damaged(format!("{}: {e}", self.name))),
        }
    }

    fn read_u8(&mut self) -> Step<u8> {
        let mut b = [0u8];
        Ok(self.read_exact(&mut b)?.map(|()| b[0]))
    }

    /// A record's type (calamine's `read_type`).
    fn read_type(&mut self) -> Step<u16> {
        self.records += 1;
        if self.records > MAX_PART_RECORDS {
            return Err(too_large(format!(
                "its part {} holds more than {MAX_PART_RECORDS} records",
                self.name
            )));
        }
        let b = match self.read_u8()? {
            Ok(b) => b,
            Err(stop) => return Ok(Err(stop)),
        };
        if b & 0x80 == 0 {
            return Ok(Ok(u16::from(b)));
        }
        Ok(self
            .read_u8()?
            .map(|hi| u16::from(b & 0x7F) + (u16::from(hi & 0x7F) << 7)))
    }

    /// A record's body into the buffer (calamine's `fill_buffer`): its length.
    fn fill_buffer(&mut self) -> Step<usize> {
        let mut b = match self.read_u8()? {
            Ok(b) => b,
            Err(stop) => return Ok(Err(stop)),
        };
        let mut len = usize::from(b & 0x7F);
        for i in 1..4 {
            if b & 0x80 == 0 {
                break;
            }
            b = match self.read_u8()? {
                Ok(b) => b,
                Err(stop) => return Ok(Err(stop)),
            };
            len += usize::from(b & 0x7F) << (7 * i);
        }
        if len > MAX_RECORD_BYTES {
            return Err(too_large(format!(
                "its part {} holds a record of {len} bytes (at most {MAX_RECORD_BYTES})",
                self.name
            )));
        }
        if self.buf.len() < len {
            self.buf.resize(len, 0);
        }
        let mut body = std::mem::take(&mut self.buf);
        let step = self.read_exact(&mut body[..len]);
        self.buf = body;
        Ok(step?.map(|()| len))
    }

    /// Records up to one of type `wanted`, skipping the blocks `bounds` open and close
    /// (calamine's `next_skip_blocks`): its length.
    fn next_skip_blocks(&mut self, wanted: u16, bounds: &[(u16, Option<u16>)]) -> Step<usize> {
        loop {
            let typ = match self.read_type()? {
                Ok(t) => t,
                Err(stop) => return Ok(Err(stop)),
            };
            let len = match self.fill_buffer()? {
                Ok(len) => len,
                Err(stop) => return Ok(Err(stop)),
            };
            if typ == wanted {
                return Ok(Ok(len));
            }
            if let Some(end) = bounds.iter().find(|b| b.0 == typ).and_then(|b| b.1) {
                loop {
                    match self.read_type()? {
                        Ok(t) if t == end => break,
                        Ok(_) => {
                            if let Err(stop) = self.fill_buffer()? {
                                return Ok(Err(stop));
                            }
                        }
                        Err(stop) => return Ok(Err(stop)),
                    }
                }
                if let Err(stop) = self.fill_buffer()? {
                    return Ok(Err(stop));
                }
            }
        }
    }
}

/// Unwrap a step, or end the walk: `Ok(())` where calamine stops too.
macro_rules! step {
    ($e:expr) => {
        match $e? {
            Ok(v) => v,
            Err(Stop) => return Ok(()),
        }
    };
}

fn u32_at(buf: &[u8], at: usize) -> Option<u32> {
    buf.get(at..at + 4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// The length in UTF-16 units of the wide string at the start of `buf` (calamine's
/// `wide_str`), `None` where calamine fails on it.
fn wide_len(buf: &[u8]) -> Option<usize> {
    let len = u32_at(buf, 0)? as usize;
    (buf.len() >= 4 + len * 2).then_some(len)
}

/// UTF-16LE text as calamine decodes it (`encoding_rs`, which also honours a byte order mark).
fn utf16(bytes: &[u8]) -> String {
    encoding_rs::UTF_16LE.decode(bytes).0.into_owned()
}

/// What the walk of the parts read at open learnt: enough to walk the sheets.
#[derive(Default)]
struct Opened {
    /// Each sheet: its name and its part's path.
    sheets: Vec<(String, String)>,
    /// The longest sheet or defined name so far, in bytes of UTF-8.
    longest_name: usize,
    /// Bytes of defined-name formulas so far.
    formula_bytes: u64,
}

/// The shared strings (calamine's `read_shared_strings`).
fn shared_strings<R: Read>(p: &mut Records<R>, cost: &mut OpenCost) -> Result<(), ReadError> {
    step!(p.next_skip_blocks(0x009F, &[]));
    let Some(declared) = u32_at(&p.buf, 4) else {
        return Ok(());
    };
    let (mut count, mut text) = (0u64, 0u64);
    for _ in 0..declared {
        step!(p.next_skip_blocks(0x0013, &[(0x0023, Some(0x0024))]));
        let Some(units) = p.buf.get(1..).and_then(wide_len) else {
            return Ok(());
        };
        count += 1;
        text += 2 * units as u64;
        if count > MAX_DISTINCT_STRINGS {
            return Err(too_large(format!(
                "its shared strings hold more than {MAX_DISTINCT_STRINGS} distinct strings"
            )));
        }
        if text > MAX_STRING_BYTES {
            return Err(too_large(format!(
                "its shared strings hold more than {} MB of text",
                MAX_STRING_BYTES / (1024 * 1024)
            )));
        }
        // A String each: its header, its heap block, up to 3 bytes a UTF-16 unit.
        cost.add(40 + 3 * units as u64, "its shared strings")?;
    }
    Ok(())
}

/// The cell formats (calamine's `read_styles`).
fn styles<R: Read>(p: &mut Records<R>, cost: &mut OpenCost) -> Result<(), ReadError> {
    loop {
        match step!(p.read_type()) {
            0x0267 => {
                step!(p.fill_buffer());
                let Some(n) = u32_at(&p.buf, 0) else {
                    return Ok(());
                };
                for _ in 0..n {
                    step!(p.next_skip_blocks(0x002C, &[]));
                    if p.buf.len() < 2 || p.buf.get(2..).and_then(wide_len).is_none() {
                        return Ok(());
                    }
                    cost.add(16, "its number formats")?;
                }
            }
            0x0269 => {
                step!(p.fill_buffer());
                let Some(n) = u32_at(&p.buf, 0) else {
                    return Ok(());
                };
                for i in 0..u64::from(n) {
                    step!(p.next_skip_blocks(0x002F, &[]));
                    if p.buf.len() < 4 {
                        return Ok(());
                    }
                    if i >= MAX_CELL_FORMATS {
                        return Err(too_large(format!(
                            "its styles define more than {MAX_CELL_FORMATS} cell formats (Excel's most)"
                        )));
                    }
                    cost.add(1, "its cell formats")?;
                }
                return Ok(());
            }
            _ => {}
        }
        p.buf.clear();
    }
}

/// The main part's relationships (calamine's `read_relationships` for xlsb): id -> target.
fn relationships<R: Read>(
    part: &mut XmlPart<R>,
    cost: &mut OpenCost,
) -> Result<HashMap<String, String>, ReadError> {
    let mut out = HashMap::new();
    let mut buf = Vec::new();
    loop {
        match part.event(&mut buf)? {
            Event::Start(e) if e.name().as_ref() == "Relationship" => {
                let [id, target] = get_attrs(&e, ["Id", "Target"]).map_err(|d| part.damaged(d))?;
                if let (Some(id), Some(target)) = (id, target) {
                    let target = decode_attr(target).map_err(|d| part.damaged(d))?;
                    cost.add((id.len() + target.len() + 96) as u64, "its relationships")?;
                    out.insert(id.to_string(), target);
                }
            }
            Event::Eof => return Ok(out),
            _ => {}
        }
    }
}

/// The main part (calamine's `read_workbook`): the sheets, then the names.
fn workbook<R: Read>(
    p: &mut Records<R>,
    rels: &HashMap<String, String>,
    cost: &mut OpenCost,
    opened: &mut Opened,
) -> Result<(), ReadError> {
    loop {
        match step!(p.read_type()) {
            0x0099 => {
                step!(p.fill_buffer());
                if p.buf.is_empty() {
                    return Ok(());
                }
            }
            0x009C => {
                let len = step!(p.fill_buffer());
                let Some(rel_len) = p.buf.get(8..len).and_then(|b| u32_at(b, 0)) else {
                    return Ok(());
                };
                if rel_len != 0xFFFF_FFFF {
                    let rel_len = rel_len as usize * 2;
                    let Some(relid) = p.buf.get(12..12 + rel_len) else {
                        return Ok(());
                    };
                    let relid = utf16(relid);
                    let Some(target) = rels.get(&relid) else {
                        return Ok(());
                    };
                    let path = format!("xl/{target}");
                    let known = matches!(
                        path.split('/').nth(1),
                        Some("worksheets" | "chartsheets" | "dialogsheets")
                    );
                    if u32_at(&p.buf, 0).is_none_or(|v| v > 2) || !known {
                        return Ok(());
                    }
                    let Some((name, units)) = p.buf.get(12 + rel_len..len).and_then(|b| {
                        let units = wide_len(b)?;
                        Some((utf16(&b[4..4 + 2 * units]), units))
                    }) else {
                        return Ok(());
                    };
                    if units > MAX_NAME_UNITS {
                        return Err(too_large(format!(
                            "a sheet's name is longer than {MAX_NAME_UNITS} characters"
                        )));
                    }
                    if opened.sheets.len() >= MAX_SHEETS {
                        return Err(too_large(format!(
                            "the workbook lists more than {MAX_SHEETS} sheets"
                        )));
                    }
                    cost.add((2 * name.len() + path.len() + 96) as u64, "its sheet list")?;
                    opened.longest_name = opened.longest_name.max(name.len());
                    opened.sheets.push((name, path));
                }
            }
            0x0090 => {
                step!(p.fill_buffer());
                break;
            }
            _ => {
                step!(p.fill_buffer());
            }
        }
        p.buf.clear();
    }
    loop {
        match step!(p.read_type()) {
            0x016A => {
                step!(p.fill_buffer());
                let Some(cxti) = u32_at(&p.buf, 0) else {
                    return Ok(());
                };
                if cxti < 1_000_000 {
                    cost.add(24 * u64::from(cxti), "its sheet references")?;
                }
                let sheets = &opened.sheets;
                let mut bytes = 0u64;
                for xti in p.buf[4..].chunks(12).take(cxti as usize) {
                    let Some(i) = xti.get(4..8) else {
                        return Ok(());
                    };
                    let i = i32::from_le_bytes([i[0], i[1], i[2], i[3]]);
                    let name = usize::try_from(i)
                        .ok()
                        .and_then(|i| sheets.get(i))
                        .map_or(18, |(n, _)| n.len());
                    bytes += 40 + name as u64;
                }
                cost.add(bytes, "its sheet references")?;
            }
            0x0027 => {
                let len = step!(p.fill_buffer());
                let record = &p.buf[..len];
                let Some(units) = record.get(9..).and_then(wide_len) else {
                    return Ok(());
                };
                if units > MAX_NAME_UNITS {
                    return Err(too_large(format!(
                        "a defined name is longer than {MAX_NAME_UNITS} characters"
                    )));
                }
                // The formula's length right after the name, then its tokens.
                let start = 13 + 4 + 2 * units;
                let Some(n) = u32_at(record, start - 4).map(|n| n as usize) else {
                    return Ok(());
                };
                if record.get(start..).is_none_or(|r| r.len() < n) {
                    return Ok(());
                }
                if n > MAX_NAME_FORMULA_BYTES {
                    return Err(too_large(format!(
                        "a defined name's formula is longer than {MAX_NAME_FORMULA_BYTES} bytes"
                    )));
                }
                opened.formula_bytes += n as u64;
                if opened.formula_bytes > MAX_NAME_FORMULAS_BYTES {
                    return Err(too_large(format!(
                        "its defined names' formulas hold more than {} KB",
                        MAX_NAME_FORMULAS_BYTES / 1024
                    )));
                }
                opened.longest_name = opened.longest_name.max(3 * units);
                // Each token writes at most a name and a few characters.
                let text = n as u64 * (opened.longest_name as u64 + 40);
                cost.add(text + 3 * units as u64 + 64, "its defined names")?;
            }
            0x009D | 0x0225 | 0x018D | 0x0180 | 0x009A | 0x0252 | 0x0229 | 0x009B | 0x0084 => {
                return Ok(())
            }
            _ => {
                step!(p.fill_buffer());
            }
        }
    }
}

/// A sheet's records (calamine's `XlsbCellsReader`): up to the dimension, up to the start
/// of the cells skipping calamine's blocks, then every record to the end of the cells.
/// Walked whole, with no stop calamine might not make (a bad cell, a row past Excel's).
fn sheet<R: Read>(p: &mut Records<R>) -> Result<(), ReadError> {
    step!(p.next_skip_blocks(0x0094, &[(0x0081, None), (0x0093, None)]));
    if p.buf.len() < 16 {
        return Ok(());
    }
    step!(p.next_skip_blocks(
        0x0091,
        &[
            (0x0085, Some(0x0086)),
            (0x0025, Some(0x0026)),
            (0x01E5, None),
            (0x0186, Some(0x0187)),
        ],
    ));
    loop {
        let typ = step!(p.read_type());
        step!(p.fill_buffer());
        if typ == 0x0092 {
            return Ok(());
        }
    }
}

/// Walk `bytes` as each kind of xlsb part in turn (the fuzz target's entry point): shared
/// strings, styles, a main part (with a relationship `rId1` to a worksheet) and a sheet.
/// Whatever the bytes, this returns (a cap or nothing), never panics, never allocates past
/// [`MAX_RECORD_BYTES`] a buffer.
pub fn prescan_parts(bytes: &[u8]) -> Result<(), ReadError> {
    let max = MAX_PART_BYTES;
    let mut cost = OpenCost::default();
    let mut opened = Opened::default();
    let rels = HashMap::from([("rId1".to_string(), "worksheets/sheet1.bin".to_string())]);
    let results = [
        shared_strings(
            &mut Records::new(bytes, "sharedStrings.bin", max),
            &mut cost,
        ),
        styles(&mut Records::new(bytes, "styles.bin", max), &mut cost),
        workbook(
            &mut Records::new(bytes, "workbook.bin", max),
            &rels,
            &mut cost,
            &mut opened,
        ),
        sheet(&mut Records::new(bytes, "sheet1.bin", max)),
    ];
    results.into_iter().collect()
}

/// An open xlsb workbook: calamine's reader, and each sheet's walk.
pub(super) struct Book<RS: Read + Seek> {
    calamine: Xlsb<RS>,
    listed: Vec<SheetInfo>,
    /// Each sheet's part walked when the workbook opened: refused when it went past a cap.
    sheets: HashMap<String, Result<(), ReadError>>,
}

impl<RS: Read + Seek> Book<RS> {
    /// Walk every part calamine will read, then open the workbook with calamine.
    pub(super) fn open(reader: RS) -> Result<Book<RS>, ReadError> {
        let mut cost = OpenCost::default();
        let mut package = Package::open(reader, Format::Xlsb, &mut cost)?;
        let mut opened = Opened::default();
        let max = MAX_PART_BYTES;
        if let Some(i) = package.find("xl/sharedStrings.bin") {
            let name = package.name(i);
            shared_strings(
                &mut Records::new(member(&mut package, i)?, &name, max),
                &mut cost,
            )?;
        }
        if let Some(i) = package.find("xl/styles.bin") {
            let name = package.name(i);
            styles(
                &mut Records::new(member(&mut package, i)?, &name, max),
                &mut cost,
            )?;
        }
        let rels = match package.find_exact("xl/_rels/workbook.bin.rels") {
            Some(i) => {
                let name = package.name(i);
                let m = package.open_member(i)?;
                let mut part = XmlPart::new(m, name, MAX_OPEN_XML_BYTES, Format::Xlsb);
                relationships(&mut part, &mut cost)?
            }
            None => HashMap::new(),
        };
        let Some(i) = package.find("xl/workbook.bin") else {
            return Err(damaged("its main part xl/workbook.bin is missing".into()));
        };
        let name = package.name(i);
        workbook(
            &mut Records::new(member(&mut package, i)?, &name, max),
            &rels,
            &mut cost,
            &mut opened,
        )?;
        let mut sheets = HashMap::new();
        let mut walked: HashMap<usize, Result<(), ReadError>> = HashMap::new();
        let mut run_bytes = 0u64;
        for (name, path) in &opened.sheets {
            let verdict = match package.find(path) {
                None => Ok(()),
                Some(i) => match walked.get(&i) {
                    Some(v) => v.clone(),
                    None => {
                        let left = MAX_RUN_SHEET_BYTES.saturating_sub(run_bytes);
                        let part = package.name(i);
                        let mut records =
                            Records::new(member(&mut package, i)?, &part, left.min(max));
                        let verdict = sheet(&mut records).map_err(|e| match e {
                            ReadError::TooLarge { .. } if records.bytes > left => too_large(
                                format!(
                                    "the workbook holds more than {} MB of sheet data over its sheets",
                                    MAX_RUN_SHEET_BYTES / (1024 * 1024)
                                ),
                            ),
                            e => e,
                        });
                        run_bytes += records.bytes;
                        walked.insert(i, verdict.clone());
                        verdict
                    }
                },
            };
            sheets.entry(name.clone()).or_insert(verdict);
        }
        let mut reader = package.into_inner();
        reader
            .seek(SeekFrom::Start(0))
            .map_err(|e| ReadError::Io(e.to_string()))?;
        let calamine = match open_workbook_from_rs::<Xlsb<RS>, RS>(reader) {
            Ok(b) => b,
            Err(calamine::XlsbError::Password) => return Err(ReadError::PasswordProtected),
            Err(e) => return Err(damaged(e.to_string())),
        };
        let listed = calamine
            .sheets_metadata()
            .iter()
            .map(|s| SheetInfo {
                name: s.name.clone(),
                hidden: s.visible != calamine::SheetVisible::Visible,
            })
            .collect();
        Ok(Book {
            calamine,
            listed,
            sheets,
        })
    }

    /// Stream one sheet's cells through calamine, once its walk passed.
    fn read_sheet(&mut self, name: &str, budget: &mut SheetBudget<'_>) -> Result<(), ReadError> {
        match self.sheets.get(name) {
            Some(Err(e)) => return Err(e.clone()),
            Some(Ok(())) => {}
            None => return Err(damaged(format!("the sheet '{name}' was not walked"))),
        }
        let damaged = |e: calamine::XlsbError| damaged(e.to_string());
        let mut reader = self
            .calamine
            .worksheet_cells_reader(name)
            .map_err(damaged)?;
        while let Some(cell) = reader.next_cell().map_err(damaged)? {
            budget.scan()?;
            keep(budget, cell.get_position(), cell.get_value())?;
        }
        Ok(())
    }
}

impl<RS: Read + Seek> SheetSource for Book<RS> {
    fn sheets(&self) -> &[SheetInfo] {
        &self.listed
    }

    fn stream(&mut self, index: usize, sink: &mut SheetBudget<'_>) -> Result<(), ReadError> {
        let Some(name) = self.listed.get(index).map(|s| s.name.clone()) else {
            return Err(damaged(format!("no sheet {}", index + 1)));
        };
        self.read_sheet(&name, sink)
    }
}

fn member<RS: Read + Seek>(
    package: &mut Package<RS>,
    index: usize,
) -> Result<BufReader<zip::read::ZipFile<'_, Metered<RS>>>, ReadError> {
    Ok(BufReader::new(package.open_member(index)?))
}

/// Keep a streamed cell if it has a value.
fn keep(
    budget: &mut SheetBudget<'_>,
    (row, col): (u32, u32),
    data: &DataRef<'_>,
) -> Result<(), ReadError> {
    let value = match data {
        DataRef::String(s) => {
            budget.text(s.len())?;
            text_value(s)
        }
        DataRef::SharedString(s) => {
            budget.text(s.len())?;
            text_value(s)
        }
        DataRef::Int(i) => Some(CellValue::Number(*i as f64)),
        DataRef::Float(f) => Some(CellValue::Number(*f)),
        DataRef::Bool(b) => Some(CellValue::Bool(*b)),
        DataRef::DateTime(d) => Some(CellValue::Number(d.as_f64())),
        DataRef::DateTimeIso(s) | DataRef::DurationIso(s) => text_value(s),
        DataRef::Error(e) => Some(CellValue::Error(e.to_string().into())),
        DataRef::Empty => None,
    };
    if value.is_none() {
        return Ok(());
    }
    budget.push(SheetCell {
        row,
        col,
        value,
        format: CellFormat::default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(typ: u16, body: &[u8], length: Option<usize>) -> Vec<u8> {
        let mut out = if typ < 0x80 {
            vec![typ as u8]
        } else {
            vec![(typ & 0x7F) as u8 | 0x80, (typ >> 7) as u8]
        };
        let mut n = length.unwrap_or(body.len());
        loop {
            let b = (n & 0x7F) as u8;
            n >>= 7;
            out.push(if n > 0 { b | 0x80 } else { b });
            if n == 0 {
                break;
            }
        }
        out.extend_from_slice(body);
        out
    }

    fn walk(
        part: fn(&mut Records<&[u8]>, &mut OpenCost) -> Result<(), ReadError>,
        bytes: &[u8],
    ) -> Result<(), ReadError> {
        part(
            &mut Records::new(bytes, "part", MAX_PART_BYTES),
            &mut OpenCost::default(),
        )
    }

    #[test]
    fn a_record_longer_than_the_cap_is_refused_before_it_is_read() {
        let styles = rec(0x0267, b"", Some((1 << 28) - 1));
        let err = walk(styles_walk, &styles).unwrap_err();
        assert!(err.to_string().contains("268435455 bytes"), "{err}");
        // Calamine reads an unknown style record's body as the next headers: so does the walk.
        let hidden = [vec![0x05], rec(0x0267, b"", Some(1 << 23))].concat();
        assert!(walk(styles_walk, &hidden).is_err());
    }

    #[test]
    fn shared_strings_and_cell_formats_are_counted() {
        let n = (MAX_DISTINCT_STRINGS + 1) as u32;
        let mut sst = rec(0x009F, &[n.to_le_bytes(), n.to_le_bytes()].concat(), None);
        let item = rec(0x0013, &[0, 1, 0, 0, 0, b'a', 0], None);
        sst.extend(item.repeat(n as usize));
        let err = walk(strings_walk, &sst).unwrap_err();
        assert!(err.to_string().contains("distinct strings"), "{err}");
        let mut few = rec(
            0x009F,
            &[2u32.to_le_bytes(), 2u32.to_le_bytes()].concat(),
            None,
        );
        few.extend(item.repeat(2));
        assert!(walk(strings_walk, &few).is_ok());

        let n = MAX_CELL_FORMATS as u32 + 1;
        let mut styles = rec(0x0269, &n.to_le_bytes(), None);
        styles.extend(rec(0x002F, &[0; 16], None).repeat(n as usize));
        let err = walk(styles_walk, &styles).unwrap_err();
        assert!(err.to_string().contains("cell formats"), "{err}");
    }

    #[test]
    fn a_sheet_is_walked_to_the_end_of_its_cells_counting_every_record() {
        let head = [
            rec(0x0081, b"", None),
            rec(0x0094, &[0; 16], None),
            rec(0x0091, b"", None),
        ]
        .concat();
        let blanks = rec(0x0001, b"", None).repeat(1000);
        let sheet_bytes = [head.clone(), blanks, rec(0x0092, b"", None), vec![0xFF; 3]].concat();
        let mut records = Records::new(&sheet_bytes[..], "sheet", MAX_PART_BYTES);
        sheet(&mut records).unwrap();
        assert_eq!(records.records, 1004);
    }

    fn strings_walk(p: &mut Records<&[u8]>, cost: &mut OpenCost) -> Result<(), ReadError> {
        shared_strings(p, cost)
    }

    fn styles_walk(p: &mut Records<&[u8]>, cost: &mut OpenCost) -> Result<(), ReadError> {
        styles(p, cost)
    }

    #[test]
    fn any_bytes_walk_without_panicking() {
        // A fixed pseudo-random stream: every part kind over 600 lengths of bytes.
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for len in 0..600usize {
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    (x >> 24) as u8
                })
                .collect();
            let _ = prescan_parts(&bytes);
        }
    }
}
