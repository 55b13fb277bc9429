//! xlsb (Excel's binary workbook), read by our own walk of its records; calamine reads no xlsb.
//!
//! calamine 0.38 skips the short cell records of the format (`BrtShortBlank` ..
//! `BrtShortIsst`, types 0x0C-0x12, whose column is the previous cell's plus one), which
//! SheetJS and Aspose write for every cell but the first of a row: a whole board arrives as its
//! first column (`docs/upstream.md`). So this module is the one xlsb parser. It reads the parts
//! a sheet's values need, at the depth calamine read them: the main part's sheet list
//! (`BrtBundleSh`: name, relationship, hidden or not), its relationships, the shared strings
//! (`BrtSSTItem`) and each sheet's records between `BrtBeginSheetData` and `BrtEndSheetData`:
//! row headers and every cell record of MS-XLSB 2.4 (`BrtCellBlank` .. `BrtShortIsst`,
//! `BrtCellRString`). A cell record it cannot read is an error naming it, never a silent skip.
//! Cell formats are not read ([`super::SheetCells::formats_known`] is false); numbers keep
//! their value (a date is its serial number).
//!
//! Record bodies are read as their bytes arrive (a length declared in the file sizes
//! nothing), and what is not a cell is skipped unread. A file that is large anyway is bounded
//! from outside, in the reader process ([`super::watched`]).

use std::io::{self, BufReader, Read, Seek};

use quick_xml::events::Event;
use zip::ZipArchive;

use super::budget::{SheetBudget, MAX_TEXT_KEPT};
use super::{CellFormat, CellValueRef, CellView, Format, ReadError, SheetInfo, SheetSource};

/// Record types (MS-XLSB 2.3.2).
mod rt {
    pub const ROW_HDR: u16 = 0x0000;
    pub const CELL_RSTRING: u16 = 0x003E;
    pub const SST_ITEM: u16 = 0x0013;
    pub const BEGIN_SHEET_DATA: u16 = 0x0091;
    pub const END_SHEET_DATA: u16 = 0x0092;
    pub const BUNDLE_SH: u16 = 0x009C;
    pub const END_BUNDLE_SHS: u16 = 0x0090;
}

/// The name of each cell record type, for messages.
fn cell_record_name(typ: u16) -> Option<&'static str> {
    Some(match typ {
        0x01 => "BrtCellBlank",
        0x02 => "BrtCellRk",
        0x03 => "BrtCellError",
        0x04 => "BrtCellBool",
        0x05 => "BrtCellReal",
        0x06 => "BrtCellSt",
        0x07 => "BrtCellIsst",
        0x08 => "BrtFmlaString",
        0x09 => "BrtFmlaNum",
        0x0A => "BrtFmlaBool",
        0x0B => "BrtFmlaError",
        0x0C => "BrtShortBlank",
        0x0D => "BrtShortRk",
        0x0E => "BrtShortError",
        0x0F => "BrtShortBool",
        0x10 => "BrtShortReal",
        0x11 => "BrtShortSt",
        0x12 => "BrtShortIsst",
        rt::CELL_RSTRING => "BrtCellRString",
        _ => return None,
    })
}

/// A part's records, one at a time.
struct Records<R> {
    r: R,
    /// The part's name, for messages.
    part: String,
    /// The body of the last record read with [`Records::next`] (`keep`).
    body: Vec<u8>,
}

impl<R: Read> Records<R> {
    fn new(r: R, part: &str) -> Records<R> {
        Records {
            r,
            part: part.to_string(),
            body: Vec::new(),
        }
    }

    fn cut_short(&self) -> ReadError {
        Format::Xlsb.damaged(format!(
            "its part {} ends inside a record (the file was cut short?)",
            self.part
        ))
    }

    /// A 1-to-`n` byte little-endian number of 7 bits a byte; `None` at the end of the part.
    fn varint(&mut self, n: usize) -> Result<Option<u32>, ReadError> {
        let mut value = 0u32;
        for i in 0..n {
            let mut b = [0u8];
            match self.r.read(&mut b) {
                Ok(0) if i == 0 => return Ok(None),
                Ok(0) => return Err(self.cut_short()),
                Ok(_) => {}
                Err(e) => return Err(Format::Xlsb.damaged(format!("{}: {e}", self.part))),
            }
            value |= u32::from(b[0] & 0x7F) << (7 * i);
            if b[0] & 0x80 == 0 {
                return Ok(Some(value));
            }
        }
        Ok(Some(value))
    }

    /// The next record's type, its body read into [`Records::body`] when `keep` says so for
    /// that type (skipped unread otherwise); `None` at the end of the part.
    fn next(&mut self, keep: impl Fn(u16) -> bool) -> Result<Option<u16>, ReadError> {
        let Some(typ) = self.varint(2)? else {
            return Ok(None);
        };
        let typ = typ as u16;
        let Some(len) = self.varint(4)? else {
            return Err(self.cut_short());
        };
        self.body.clear();
        let mut body = (&mut self.r).take(u64::from(len));
        let got = if keep(typ) {
            body.read_to_end(&mut self.body)
        } else {
            io::copy(&mut body, &mut io::sink()).map(|n| n as usize)
        }
        .map_err(|e| match e.kind() {
            io::ErrorKind::OutOfMemory => ReadError::TooLarge {
                detail: format!(
                    "its part {} holds a record of {len} bytes that does not fit in memory",
                    self.part
                ),
            },
            _ => Format::Xlsb.damaged(format!("{}: {e}", self.part)),
        })?;
        if got < len as usize {
            return Err(self.cut_short());
        }
        Ok(Some(typ))
    }
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

/// An `XLWideString` at `at`: its text (cut a little past [`MAX_TEXT_KEPT`] when `cut`) and
/// where it ends; `None` when the bytes end first.
fn wide_string(b: &[u8], at: usize, cut: bool) -> Option<(String, usize)> {
    let units = u32_at(b, at)? as usize;
    let end = at.checked_add(4)?.checked_add(units.checked_mul(2)?)?;
    let bytes = b.get(at + 4..end)?;
    let mut text = String::new();
    let words = bytes
        .chunks_exact(2)
        .map(|w| u16::from_le_bytes([w[0], w[1]]));
    for c in char::decode_utf16(words) {
        if cut && text.len() > MAX_TEXT_KEPT + 4 {
            break;
        }
        text.push(c.unwrap_or(char::REPLACEMENT_CHARACTER));
    }
    Some((text, end))
}

/// An `RkNumber` (MS-XLSB 2.5.122): a 30-bit integer or the high bits of a double, maybe
/// divided by 100.
fn rk(v: u32) -> f64 {
    let n = if v & 2 != 0 {
        f64::from((v as i32) >> 2)
    } else {
        f64::from_bits(u64::from(v & !3) << 32)
    };
    if v & 1 != 0 {
        n / 100.0
    } else {
        n
    }
}

/// The text of an error code (MS-XLSB 2.5.97.2).
fn error_text(code: u8) -> Option<&'static str> {
    Some(match code {
        0x00 => "#NULL!",
        0x07 => "#DIV/0!",
        0x0F => "#VALUE!",
        0x17 => "#REF!",
        0x1D => "#NAME?",
        0x24 => "#NUM!",
        0x2A => "#N/A",
        0x2B => "#GETTING_DATA",
        _ => return None,
    })
}

/// The shared strings, each kept cut to what a cell keeps: one buffer and where each ends
/// (twelve million one-letter strings take 60 MB, not 650).
#[derive(Default)]
struct Strings {
    text: String,
    ends: Vec<u32>,
}

impl Strings {
    fn get(&self, i: usize) -> Option<&str> {
        let end = *self.ends.get(i)? as usize;
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        self.text.get(start..end)
    }

    fn push(&mut self, s: &str) -> Option<()> {
        self.text.push_str(s);
        self.ends.push(u32::try_from(self.text.len()).ok()?);
        Some(())
    }
}

/// An open xlsb workbook.
pub(super) struct Book<RS: Read + Seek> {
    zip: ZipArchive<RS>,
    sheets: Vec<SheetInfo>,
    /// Each sheet's part, in the order of `sheets` (`None`: its part is missing).
    parts: Vec<Option<String>>,
    strings: Strings,
}

impl<RS: Read + Seek> Book<RS> {
    /// Open the package: the sheet list, where each sheet is, the shared strings.
    pub(super) fn open(reader: RS) -> Result<Book<RS>, ReadError> {
        let mut zip = ZipArchive::new(reader)
            .map_err(|e| Format::Xlsb.damaged(format!("its zip archive: {e}")))?;
        let rels = relationships(&mut zip)?;
        let Some(main) = member(&zip, "xl/workbook.bin") else {
            return Err(Format::Xlsb.damaged("its main part xl/workbook.bin is missing"));
        };
        let mut listed = Vec::new();
        let file = zip
            .by_name(&main)
            .map_err(|e| Format::Xlsb.damaged(format!("{main}: {e}")))?;
        let mut records = Records::new(BufReader::new(file), &main);
        while let Some(typ) = records.next(|t| t == rt::BUNDLE_SH)? {
            match typ {
                rt::BUNDLE_SH => listed.push(bundle_sheet(&records.body).ok_or_else(|| {
                    Format::Xlsb.damaged(format!("its part {main} lists a sheet it cannot name"))
                })?),
                rt::END_BUNDLE_SHS => break,
                _ => {}
            }
        }
        drop(records);
        let (sheets, parts) = listed
            .into_iter()
            .map(|(info, rel)| {
                let part = rel
                    .and_then(|id| rels.iter().find(|(i, _, _)| *i == id))
                    .and_then(|(_, target, _)| member(&zip, &resolve(target)));
                (info, part)
            })
            .unzip();
        let sst = rels
            .iter()
            .find(|(_, _, kind)| kind.ends_with("/sharedStrings"))
            .and_then(|(_, target, _)| member(&zip, &resolve(target)))
            .or_else(|| member(&zip, "xl/sharedStrings.bin"));
        let strings = match sst {
            Some(part) => shared_strings(&mut zip, &part)?,
            None => Strings::default(),
        };
        Ok(Book {
            zip,
            sheets,
            parts,
            strings,
        })
    }
}

/// `BrtBundleSh`: the sheet, hidden or not, and its relationship id.
fn bundle_sheet(b: &[u8]) -> Option<(SheetInfo, Option<String>)> {
    let state = u32_at(b, 0)?;
    let rel = if u32_at(b, 8)? == u32::MAX {
        (None, 12)
    } else {
        let (id, end) = wide_string(b, 8, false)?;
        (Some(id), end)
    };
    let (name, _) = wide_string(b, rel.1, false)?;
    let info = SheetInfo {
        name,
        hidden: state != 0,
    };
    Some((info, rel.0))
}

/// A relationship target as a member name: relative to `xl/`, or absolute.
fn resolve(target: &str) -> String {
    match target.strip_prefix('/') {
        Some(absolute) => absolute.to_string(),
        None => format!("xl/{target}"),
    }
}

/// The member named `name`, or one whose name differs only in letter case or `\`.
fn member<RS: Read + Seek>(zip: &ZipArchive<RS>, name: &str) -> Option<String> {
    if zip.index_for_name(name).is_some() {
        return Some(name.to_string());
    }
    let fold = |n: &str| n.replace('\\', "/").to_ascii_lowercase();
    let wanted = fold(name);
    zip.file_names()
        .flatten()
        .find(|n| fold(n) == wanted)
        .map(|n| n.into_owned())
}

/// The main part's relationships: (id, target, type).
fn relationships<RS: Read + Seek>(
    zip: &mut ZipArchive<RS>,
) -> Result<Vec<(String, String, String)>, ReadError> {
    let Some(name) = member(zip, "xl/_rels/workbook.bin.rels") else {
        return Ok(Vec::new());
    };
    let file = zip
        .by_name(&name)
        .map_err(|e| Format::Xlsb.damaged(format!("{name}: {e}")))?;
    let mut xml = quick_xml::Reader::from_reader(BufReader::new(file));
    let mut out = Vec::new();
    let mut buf = Vec::new();
    loop {
        let e = match xml.read_event_into(&mut buf) {
            Ok(Event::Start(e) | Event::Empty(e)) => e,
            Ok(Event::Eof) => return Ok(out),
            Ok(_) => {
                buf.clear();
                continue;
            }
            Err(e) => return Err(Format::Xlsb.damaged(format!("{name}: {e}"))),
        };
        if e.local_name().as_ref() == "Relationship" {
            let (mut id, mut target, mut kind) = (None, None, String::new());
            for a in e.attributes().flatten() {
                let value = a
                    .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                    .map_err(|e| Format::Xlsb.damaged(format!("{name}: {e}")))?
                    .into_owned();
                match a.key.local_name().as_ref() {
                    "Id" => id = Some(value),
                    "Target" => target = Some(value),
                    "Type" => kind = value,
                    _ => {}
                }
            }
            if let (Some(id), Some(target)) = (id, target) {
                out.push((id, target, kind));
            }
        }
        buf.clear();
    }
}

/// The shared strings (`BrtSSTItem`: flags, then the text).
fn shared_strings<RS: Read + Seek>(
    zip: &mut ZipArchive<RS>,
    part: &str,
) -> Result<Strings, ReadError> {
    let file = zip
        .by_name(part)
        .map_err(|e| Format::Xlsb.damaged(format!("{part}: {e}")))?;
    let mut records = Records::new(BufReader::new(file), part);
    let mut strings = Strings::default();
    while let Some(typ) = records.next(|t| t == rt::SST_ITEM)? {
        if typ == rt::SST_ITEM {
            let (text, _) = wide_string(&records.body, 1, true).ok_or_else(|| {
                Format::Xlsb.damaged(format!(
                    "its part {part} holds a shared string (BrtSSTItem) it cannot read"
                ))
            })?;
            strings.push(&text).ok_or_else(|| {
                Format::Xlsb.damaged(format!(
                    "its part {part} holds more than 4 GB of shared strings"
                ))
            })?;
        }
    }
    Ok(strings)
}

impl<RS: Read + Seek> SheetSource for Book<RS> {
    fn sheets(&self) -> &[SheetInfo] {
        &self.sheets
    }

    fn stream(&mut self, index: usize, sink: &mut SheetBudget<'_>) -> Result<(), ReadError> {
        let name = self.sheets.get(index).map_or("", |s| s.name.as_str());
        let Some(part) = self.parts.get(index).cloned().flatten() else {
            return Err(Format::Xlsb.damaged(format!("the part of sheet '{name}' is missing")));
        };
        let file = self
            .zip
            .by_name(&part)
            .map_err(|e| Format::Xlsb.damaged(format!("{part}: {e}")))?;
        read_sheet(BufReader::new(file), &part, &self.strings, sink)
    }
}

/// Read a sheet part's cells into `sink`.
fn read_sheet(
    r: impl Read,
    part: &str,
    strings: &Strings,
    sink: &mut SheetBudget<'_>,
) -> Result<(), ReadError> {
    let mut records = Records::new(r, part);
    // Up to the cells.
    loop {
        match records.next(|_| false)? {
            Some(rt::BEGIN_SHEET_DATA) => break,
            Some(_) => {}
            None => return Ok(()),
        }
    }
    let (mut row, mut col) = (0u32, 0u32);
    let keep = |t: u16| t == rt::ROW_HDR || cell_record_name(t).is_some();
    loop {
        let Some(typ) = records.next(keep)? else {
            return Err(Format::Xlsb.damaged(format!(
                "its part {part} ends before its cells do (the file was cut short?)"
            )));
        };
        let b = &records.body;
        match typ {
            rt::END_SHEET_DATA => return Ok(()),
            rt::ROW_HDR => {
                row = u32_at(b, 0).ok_or_else(|| not_understood(part, "BrtRowHdr", typ, row))?;
                continue;
            }
            _ => {}
        }
        let Some(record) = cell_record_name(typ) else {
            continue;
        };
        // A short cell (0x0C-0x12) is the next column; the others start with theirs.
        let short = (0x0C..=0x12).contains(&typ);
        let (at, c) = if short {
            (4, col.wrapping_add(1))
        } else {
            let c = u32_at(b, 0).ok_or_else(|| not_understood(part, record, typ, row))?;
            (8, c)
        };
        if b.len() < at {
            return Err(not_understood(part, record, typ, row));
        }
        col = c;
        let value = cell_value(typ, b, at, strings)
            .ok_or_else(|| not_understood(part, record, typ, row))?;
        let text;
        let value = match value {
            Value::None => None,
            Value::Number(n) => Some(CellValueRef::Number(n)),
            Value::Bool(v) => Some(CellValueRef::Bool(v)),
            Value::Error(e) => Some(CellValueRef::Error(e)),
            Value::Shared(i) => Some(CellValueRef::Text(strings.get(i).unwrap_or_default())),
            Value::Text(t) => {
                text = t;
                Some(CellValueRef::Text(&text))
            }
        };
        sink.push_view(&CellView {
            row,
            col,
            value,
            format: CellFormat::default(),
        })?;
    }
}

/// A cell's value as its record holds it.
enum Value {
    None,
    Number(f64),
    Bool(bool),
    Error(&'static str),
    Shared(usize),
    Text(String),
}

/// The value of the cell record `typ` whose value starts at `at` in `b`; `None` where the
/// record does not hold what its type says.
fn cell_value(typ: u16, b: &[u8], at: usize, strings: &Strings) -> Option<Value> {
    let f64_at = |at: usize| Some(f64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?));
    Some(match typ {
        0x01 | 0x0C => Value::None,
        0x02 | 0x0D => Value::Number(rk(u32_at(b, at)?)),
        0x03 | 0x0B | 0x0E => Value::Error(error_text(*b.get(at)?)?),
        0x04 | 0x0A | 0x0F => Value::Bool(*b.get(at)? != 0),
        0x05 | 0x09 | 0x10 => Value::Number(f64_at(at)?),
        0x06 | 0x08 | 0x11 => Value::Text(wide_string(b, at, true)?.0),
        // BrtCellRString: flags, then the text.
        rt::CELL_RSTRING => Value::Text(wide_string(b, at + 1, true)?.0),
        0x07 | 0x12 => {
            let i = u32_at(b, at)? as usize;
            strings.get(i)?;
            Value::Shared(i)
        }
        _ => return None,
    })
}

/// A cell record that is not what its type says, named.
fn not_understood(part: &str, record: &str, typ: u16, row: u32) -> ReadError {
    Format::Xlsb.damaged(format!(
        "its part {part} holds a cell record {record} (0x{typ:04X}) in row {} that cannot be read",
        u64::from(row) + 1
    ))
}

/// Read a sheet part's bytes as the cells of one sheet, without shared strings (the fuzz
/// target's entry point): whatever the bytes, an error or cells, never a panic.
///
/// ```
/// // BrtBeginSheetData, a row header (row 0), BrtCellRk 7 at column 1, BrtShortRk 8 at
/// // column 2, BrtEndSheetData.
/// let bytes = [
///     0x91, 0x01, 0x00, 0x00, 0x04, 0, 0, 0, 0, 0x02, 0x0C, 1, 0, 0, 0, 0, 0, 0, 0, 0x1E, 0,
///     0, 0, 0x0D, 0x08, 0, 0, 0, 0, 0x22, 0, 0, 0, 0x92, 0x01, 0x00,
/// ];
/// let cells = knights_tour::workbook::read::xlsb::read_sheet_part(&bytes).unwrap();
/// assert_eq!(cells.cells().len(), 2);
/// assert_eq!(cells.find(0, 2).unwrap().value, Some(knights_tour::workbook::read::CellValueRef::Number(8.0)));
/// ```
pub fn read_sheet_part(bytes: &[u8]) -> Result<super::SheetCells, ReadError> {
    let mut sink = SheetBudget::new();
    read_sheet(bytes, "sheet.bin", &Strings::default(), &mut sink)?;
    Ok(sink.finish(false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rk_numbers_are_integers_or_doubles_maybe_hundredths() {
        assert_eq!(rk((17 << 2) | 2), 17.0);
        assert_eq!(rk(((-3i32 << 2) as u32) | 2), -3.0);
        assert_eq!(rk((1234 << 2) | 3), 12.34);
        let half = (0.5f64.to_bits() >> 32) as u32;
        assert_eq!(rk(half), 0.5);
    }

    #[test]
    fn a_cell_record_too_short_for_its_type_is_an_error_naming_it() {
        // BrtBeginSheetData, then a BrtShortRk of two bytes.
        let bytes = [0x91, 0x01, 0x00, 0x0D, 0x02, 0, 0];
        let err = read_sheet_part(&bytes).unwrap_err().to_string();
        assert!(err.contains("BrtShortRk (0x000D)"), "{err}");
        // An unknown error code is not understood either.
        let bytes = [0x91, 0x01, 0x00, 0x0E, 0x05, 0, 0, 0, 0, 0x55];
        let err = read_sheet_part(&bytes).unwrap_err().to_string();
        assert!(err.contains("BrtShortError"), "{err}");
    }

    #[test]
    fn any_bytes_give_cells_or_an_error_without_panicking() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for len in 0..600usize {
            let mut bytes: Vec<u8> = vec![0x91, 0x01, 0x00];
            bytes.extend((0..len).map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 24) as u8
            }));
            let _ = read_sheet_part(&bytes);
        }
    }
}
