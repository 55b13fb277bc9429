//! xlsx/xlsm under the reading budget: a pre-scan of the parts calamine reads whole when it
//! opens a workbook (shared strings, styles, workbook, relationships, theme), and our own
//! streaming reader of a sheet's cells.
//!
//! calamine reserves memory for the shared strings from the `uniqueCount` the file declares
//! and keeps every string, so those parts are counted first: a workbook declaring or holding
//! more than [`MAX_DISTINCT_STRINGS`] strings or [`MAX_STRING_BYTES`] of text is refused before
//! calamine sees it. Sheets are then streamed here rather than by calamine: every cell element
//! (empty `<c/>` included) counts against [`MAX_SHEET_SCANNED_CELLS`], a text cell keeps at
//! most [`MAX_TEXT_KEPT`] bytes, and the XML is read through [`Capped`], so no text or tag is
//! ever buffered whole past [`MAX_XML_RUN`](super::budget::MAX_XML_RUN).

use std::collections::HashMap;
use std::io::{BufReader, Read, Seek, SeekFrom};

use quick_xml::events::{BytesStart, Event};

use super::budget::{
    keep_text, Capped, RunBudget, SheetBudget, MAX_DISTINCT_STRINGS, MAX_PART_ELEMENTS,
    MAX_STRING_BYTES, MAX_TEXT_KEPT,
};
use super::xmlscan::{attributes, decode_text, ScanError, Scanner, Token};
use super::{CellFormat, CellValue, Format, ReadError, SheetCell, SheetCells};

/// The shared strings as kept: each cut to [`MAX_TEXT_KEPT`] bytes, all in one buffer.
#[derive(Default)]
struct SharedStrings {
    text: String,
    ends: Vec<u32>,
}

impl SharedStrings {
    fn get(&self, i: usize) -> Option<&str> {
        let end = *self.ends.get(i)? as usize;
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        self.text.get(start..end)
    }
}

/// What the pre-scan learnt, enough to stream sheets without calamine.
pub(super) struct Package {
    strings: SharedStrings,
    /// Sheet name -> its part's name in the zip, as stored.
    sheet_parts: HashMap<String, String>,
    /// Lower-case part name -> the name as stored (parts are found case-insensitively).
    parts: HashMap<String, String>,
}

fn xml_reader<R: std::io::BufRead>(r: R) -> quick_xml::Reader<R> {
    let mut xml = quick_xml::Reader::from_reader(r);
    let config = xml.config_mut();
    // As calamine reads them, so that what passes here is what calamine sees.
    config.check_end_names = false;
    config.trim_text(false);
    config.check_comments = false;
    xml
}

fn too_large(detail: String) -> ReadError {
    ReadError::TooLarge { detail }
}

/// Check the parts calamine reads when it opens the workbook, and learn the shared strings and
/// where each sheet is. Parts that are missing or cannot be found are left to calamine.
pub(super) fn prescan<RS: Read + Seek>(
    reader: &mut RS,
    format: Format,
) -> Result<Option<Package>, ReadError> {
    reader
        .seek(SeekFrom::Start(0))
        .map_err(|e| ReadError::Io(e.to_string()))?;
    let Ok(mut zip) = zip::ZipArchive::new(&mut *reader) else {
        return Ok(None);
    };
    let parts: HashMap<String, String> = zip
        .file_names()
        .filter_map(|n| n.ok())
        .map(|n| (n.to_ascii_lowercase(), n.to_string()))
        .collect();
    let damaged = |detail: String| ReadError::Damaged { format, detail };
    let mut strings = SharedStrings::default();
    let mut texts: HashMap<String, Vec<(String, String)>> = HashMap::new();
    for (lower, name) in &parts {
        let whole_at_open = lower.ends_with(".rels")
            || lower.ends_with("workbook.xml")
            || lower.ends_with("styles.xml")
            || lower.ends_with("sharedstrings.xml")
            || (lower.contains("theme/") && lower.ends_with(".xml"));
        if !whole_at_open {
            continue;
        }
        let Ok(member) = zip.by_name(name) else {
            continue;
        };
        let mut capped = Capped::new(member);
        let result = if lower.ends_with("sharedstrings.xml") {
            read_shared_strings(&mut capped, &mut strings)
        } else {
            scan_part(&mut capped, lower, &mut texts)
        };
        match (result, capped.over.take()) {
            (_, Some(over)) => return Err(too_large(format!("its part {name} holds {}", over.0))),
            (Err(PartError::TooLarge(e)), None) => {
                return Err(too_large(format!("its part {name} {e}")))
            }
            (Err(PartError::Damaged(e)), None) => return Err(damaged(format!("{name}: {e}"))),
            (Ok(()), None) => {}
        }
    }
    let sheet_parts = sheet_parts(&texts, &parts);
    Ok(Some(Package {
        strings,
        sheet_parts,
        parts,
    }))
}

/// Why a part was refused, worded to follow "the part ... ": past a cap, or broken XML.
enum PartError {
    TooLarge(String),
    Damaged(String),
}

type PartResult = Result<(), PartError>;

fn attr_value(e: &BytesStart<'_>, key: &str) -> Option<String> {
    e.attributes()
        .flatten()
        .find(|a| a.key.as_ref() == key)
        .and_then(|a| {
            a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                .ok()
                .map(|v| v.into_owned())
        })
}

/// Count a part's elements; keep the sheet entries of a workbook and the relationships.
fn scan_part<R: Read>(
    part: R,
    lower_name: &str,
    texts: &mut HashMap<String, Vec<(String, String)>>,
) -> PartResult {
    let mut xml = xml_reader(BufReader::new(part));
    let mut buf = Vec::new();
    let mut elements = 0u64;
    let keep = lower_name.ends_with(".rels") || lower_name.ends_with("workbook.xml");
    loop {
        match xml.read_event_into(&mut buf) {
            Ok(Event::Start(e)) | Ok(Event::Empty(e)) => {
                elements += 1;
                if elements > MAX_PART_ELEMENTS {
                    return Err(PartError::TooLarge(format!(
                        "holds more than {MAX_PART_ELEMENTS} elements"
                    )));
                }
                if keep {
                    let entry = match e.local_name().as_ref() {
                        "Relationship" => attr_value(&e, "Id").zip(attr_value(&e, "Target")),
                        "sheet" => attr_value(&e, "name").zip(
                            e.attributes()
                                .flatten()
                                .find(|a| a.key.local_name().as_ref() == "id")
                                .and_then(|a| {
                                    a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                                        .ok()
                                        .map(|v| v.into_owned())
                                }),
                        ),
                        _ => None,
                    };
                    if let Some(entry) = entry {
                        texts.entry(lower_name.to_string()).or_default().push(entry);
                    }
                }
            }
            Ok(Event::Eof) => return Ok(()),
            Err(e) => return Err(PartError::Damaged(e.to_string())),
            Ok(_) => {}
        }
        buf.clear();
    }
}

/// Read `sharedStrings.xml` under the caps, keeping each string cut to [`MAX_TEXT_KEPT`].
fn read_shared_strings<R: Read>(part: R, strings: &mut SharedStrings) -> PartResult {
    let mut xml = xml_reader(BufReader::new(part));
    let mut buf = Vec::new();
    let (mut count, mut bytes) = (0u64, 0u64);
    let mut current = String::new();
    let (mut in_si, mut in_t, mut phonetic) = (false, false, 0u32);
    loop {
        match xml.read_event_into(&mut buf) {
            Ok(Event::Start(e)) => match e.local_name().as_ref() {
                "sst" => {
                    let declared = attr_value(&e, "uniqueCount")
                        .and_then(|v| v.trim().parse::<u64>().ok())
                        .unwrap_or(0);
                    if declared > MAX_DISTINCT_STRINGS {
                        return Err(PartError::TooLarge(format!(
                            "declares {declared} distinct strings (uniqueCount), more than {MAX_DISTINCT_STRINGS}"
                        )));
                    }
                }
                "si" => (in_si, current) = (true, String::new()),
                "t" if in_si && phonetic == 0 => in_t = true,
                "rPh" => phonetic += 1,
                _ => {}
            },
            Ok(Event::Empty(e)) if e.local_name().as_ref() == "si" => {
                count += 1;
                push_string(strings, "", count)?;
            }
            Ok(Event::End(e)) => match e.local_name().as_ref() {
                "si" if in_si => {
                    in_si = false;
                    count += 1;
                    push_string(strings, &current, count)?;
                }
                "t" => in_t = false,
                "rPh" => phonetic = phonetic.saturating_sub(1),
                _ => {}
            },
            Ok(Event::Text(t)) if in_t => {
                let t = t.xml10_content();
                bytes += t.len() as u64;
                push_capped(&mut current, &t);
            }
            Ok(Event::CData(t)) if in_t => {
                bytes += t.len() as u64;
                push_capped(&mut current, &t.xml10_content());
            }
            Ok(Event::GeneralRef(r)) if in_t => {
                bytes += 1;
                push_capped(&mut current, &resolve_ref(&r));
            }
            Ok(Event::Eof) => return Ok(()),
            Err(e) => return Err(PartError::Damaged(e.to_string())),
            Ok(_) => {}
        }
        if bytes > MAX_STRING_BYTES {
            return Err(PartError::TooLarge(format!(
                "holds more than {} MB of text",
                MAX_STRING_BYTES / (1024 * 1024)
            )));
        }
        buf.clear();
    }
}

fn push_string(strings: &mut SharedStrings, s: &str, count: u64) -> PartResult {
    if count > MAX_DISTINCT_STRINGS {
        return Err(PartError::TooLarge(format!(
            "holds more than {MAX_DISTINCT_STRINGS} distinct strings"
        )));
    }
    strings.text.push_str(&keep_text(s));
    strings.ends.push(strings.text.len() as u32);
    Ok(())
}

/// Append up to a little more than [`MAX_TEXT_KEPT`] bytes (enough for [`keep_text`] to see
/// the text is long and mark it cut).
fn push_capped(to: &mut String, s: &str) {
    let room = (MAX_TEXT_KEPT + 8).saturating_sub(to.len());
    if s.len() <= room {
        to.push_str(s);
    } else {
        let mut end = room;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        to.push_str(&s[..end]);
        // Make sure the result is seen as longer than the cap even if `end` fell short.
        while to.len() <= MAX_TEXT_KEPT {
            to.push(' ');
        }
    }
}

fn resolve_ref(r: &quick_xml::events::BytesRef<'_>) -> String {
    let name: String = r.as_ref().to_string();
    if let Some(s) = quick_xml::escape::resolve_xml_entity(&name) {
        return s.to_string();
    }
    match r.resolve_char_ref() {
        Ok(Some(c)) => c.to_string(),
        _ => format!("&{name};"),
    }
}

/// Sheet name -> part name, from the workbook's relationships (`r:id` -> `Target`).
fn sheet_parts(
    texts: &HashMap<String, Vec<(String, String)>>,
    parts: &HashMap<String, String>,
) -> HashMap<String, String> {
    let mut out = HashMap::new();
    let root = texts.get("_rels/.rels");
    let workbook = root
        .and_then(|rels| {
            rels.iter()
                .map(|(_, target)| target.trim_start_matches('/').to_string())
                .find(|t| t.to_ascii_lowercase().ends_with("workbook.xml"))
        })
        .unwrap_or_else(|| "xl/workbook.xml".to_string());
    let (dir, file) = match workbook.rfind('/') {
        Some(i) => (&workbook[..=i], &workbook[i + 1..]),
        None => ("", workbook.as_str()),
    };
    let rels_name = format!("{dir}_rels/{file}.rels").to_ascii_lowercase();
    let (Some(sheets), Some(rels)) = (
        texts.get(&workbook.to_ascii_lowercase()),
        texts.get(&rels_name),
    ) else {
        return out;
    };
    let targets: HashMap<&str, &str> = rels
        .iter()
        .map(|(id, t)| (id.as_str(), t.as_str()))
        .collect();
    for (name, id) in sheets {
        let Some(target) = targets.get(id.as_str()) else {
            continue;
        };
        let path = match target.strip_prefix('/') {
            Some(abs) => abs.to_string(),
            None => normalise(&format!("{dir}{target}")),
        };
        if let Some(stored) = parts.get(&path.to_ascii_lowercase()) {
            out.insert(name.clone(), stored.clone());
        }
    }
    out
}

fn normalise(path: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                out.pop();
            }
            s => out.push(s),
        }
    }
    out.join("/")
}

impl Package {
    /// The part holding this sheet's cells, if the relationships name one that exists.
    pub(super) fn sheet_part(&self, sheet: &str) -> Option<&str> {
        self.sheet_parts.get(sheet).map(String::as_str)
    }

    /// Stream one sheet's cells from `reader` (the workbook's bytes) under the budget.
    /// `palette` maps style ids to what the verifier needs of them.
    pub(super) fn read_sheet<RS: Read + Seek>(
        &self,
        reader: &mut RS,
        part: &str,
        palette: &[CellFormat],
        run: &mut RunBudget,
    ) -> Result<SheetCells, ReadError> {
        let damaged = |detail: String| ReadError::Damaged {
            format: Format::Xlsx,
            detail,
        };
        reader
            .seek(SeekFrom::Start(0))
            .map_err(|e| ReadError::Io(e.to_string()))?;
        let mut zip = zip::ZipArchive::new(&mut *reader).map_err(|e| damaged(e.to_string()))?;
        let stored = self
            .parts
            .get(&part.to_ascii_lowercase())
            .map(String::as_str)
            .unwrap_or(part);
        let member = zip.by_name(stored).map_err(|e| damaged(e.to_string()))?;
        let mut capped = Capped::new(member);
        let mut sheet = SheetStream::new(&self.strings, palette, run);
        let result = sheet.read(&mut capped);
        match (result, capped.over.take()) {
            (_, Some(over)) => Err(too_large(format!("the sheet holds {}", over.0))),
            (Err(e), None) => Err(e),
            (Ok(()), None) => Ok(sheet.budget.finish(true)),
        }
    }
}

/// The state of one sheet's streaming.
struct SheetStream<'a> {
    strings: &'a SharedStrings,
    palette: &'a [CellFormat],
    budget: SheetBudget<'a>,
    /// The current text run, raw (decoded when it ends), at most [`MAX_RAW_KEPT`] bytes.
    raw: Vec<u8>,
    /// The current cell's value as decoded, cut a little past [`MAX_TEXT_KEPT`].
    value: String,
}

/// How much of one raw text run is kept: entities at most 5 times longer than what they stand
/// for, so the decoded text is still longer than [`MAX_TEXT_KEPT`] and [`keep_text`] marks it cut.
const MAX_RAW_KEPT: usize = 5 * (MAX_TEXT_KEPT + 8) + 16;

/// What a cell's `t` attribute says its value is.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum CellType {
    /// A number (no `t`, `t="n"`, or a type this reader does not know).
    #[default]
    Number,
    /// An index into the shared strings (`s`).
    Shared,
    /// Text in the cell (`str`, `inlineStr`, an ISO date `d`).
    Inline,
    /// `b`.
    Bool,
    /// `e`.
    Error,
}

impl CellType {
    fn of(t: &[u8]) -> CellType {
        match t {
            b"s" => CellType::Shared,
            b"str" | b"inlineStr" | b"d" => CellType::Inline,
            b"b" => CellType::Bool,
            b"e" => CellType::Error,
            _ => CellType::Number,
        }
    }
}

/// One cell element being read.
#[derive(Default)]
struct Pending {
    row: u32,
    col: u32,
    style: usize,
    kind: CellType,
    in_v: bool,
    in_t: bool,
    phonetic: u32,
}

impl Pending {
    fn in_text(&self) -> bool {
        self.in_v || self.in_t
    }
}

impl<'a> SheetStream<'a> {
    fn new(strings: &'a SharedStrings, palette: &'a [CellFormat], run: &'a mut RunBudget) -> Self {
        SheetStream {
            strings,
            palette,
            budget: SheetBudget::new(run),
            raw: Vec::new(),
            value: String::new(),
        }
    }

    fn read<R: Read>(&mut self, part: R) -> Result<(), ReadError> {
        let damaged = |detail: String| ReadError::Damaged {
            format: Format::Xlsx,
            detail,
        };
        let mut xml = Scanner::new(part);
        let (mut row, mut col) = (0u32, 0u32);
        let mut cell: Option<Pending> = None;
        let mut in_sheet_data = false;
        loop {
            let token = xml.next_token().map_err(|e| match e {
                ScanError::Io(e) => damaged(format!("the sheet's XML is damaged: {e}")),
                e => damaged(format!("the sheet's XML is damaged: {e}")),
            })?;
            if !matches!(token, Token::Text(_)) && !self.raw.is_empty() {
                decode_text(&self.raw, &mut self.value);
                self.raw.clear();
                cap(&mut self.value);
            }
            match token {
                Token::Start { name, attrs, empty } if cell.is_none() => match name {
                    b"sheetData" if empty => return Ok(()),
                    b"sheetData" => in_sheet_data = true,
                    b"row" => {
                        let r = attributes(attrs).find(|(k, _)| *k == b"r");
                        if let Some(r) = r.and_then(|(_, v)| parse_u32(v)) {
                            row = r.saturating_sub(1);
                        }
                        col = 0;
                        if empty {
                            row = row.saturating_add(1);
                        }
                    }
                    b"c" if in_sheet_data => {
                        self.budget.scan()?;
                        let mut p = Pending {
                            row,
                            col,
                            ..Pending::default()
                        };
                        for (key, value) in attributes(attrs) {
                            match key {
                                b"r" => {
                                    if let Some((r, c)) = parse_ref(value) {
                                        (p.row, p.col) = (r, c);
                                    }
                                }
                                b"s" => p.style = parse_u32(value).unwrap_or(0) as usize,
                                b"t" => p.kind = CellType::of(value),
                                _ => {}
                            }
                        }
                        col = p.col.saturating_add(1);
                        self.value.clear();
                        if empty {
                            self.finish(p)?;
                        } else {
                            cell = Some(p);
                        }
                    }
                    _ => {}
                },
                Token::Start { name, empty, .. } => {
                    if let (Some(p), false) = (cell.as_mut(), empty) {
                        match name {
                            b"v" => p.in_v = true,
                            b"t" if p.phonetic == 0 => p.in_t = true,
                            b"rPh" => p.phonetic += 1,
                            _ => {}
                        }
                    }
                }
                Token::End { name } => match name {
                    b"c" => {
                        if let Some(p) = cell.take() {
                            self.finish(p)?;
                        }
                    }
                    b"v" | b"t" | b"rPh" => {
                        if let Some(p) = cell.as_mut() {
                            match name {
                                b"v" => p.in_v = false,
                                b"t" => p.in_t = false,
                                _ => p.phonetic = p.phonetic.saturating_sub(1),
                            }
                        }
                    }
                    b"row" => {
                        row = row.saturating_add(1);
                        col = 0;
                    }
                    b"sheetData" => return Ok(()),
                    _ => {}
                },
                Token::Text(t) => {
                    if cell.as_ref().is_some_and(Pending::in_text) {
                        self.budget.text(t.len())?;
                        let room = MAX_RAW_KEPT.saturating_sub(self.raw.len());
                        self.raw.extend_from_slice(&t[..t.len().min(room)]);
                    }
                }
                Token::CData(t) => {
                    if cell.as_ref().is_some_and(Pending::in_text) {
                        self.budget.text(t.len())?;
                        push_capped(&mut self.value, &String::from_utf8_lossy(t));
                    }
                }
                Token::Eof => {
                    return Err(damaged(
                        "the sheet's XML ends before its cells do (the file was cut short)".into(),
                    ))
                }
            }
        }
    }

    fn finish(&mut self, p: Pending) -> Result<(), ReadError> {
        let format = self.palette.get(p.style).copied().unwrap_or_default();
        if p.kind == CellType::Number {
            if let Some(n) = small_integer(self.value.as_bytes()) {
                return self.budget.push_number(p.row, p.col, f64::from(n), format);
            }
        }
        let value = self.value_of(&p);
        if value.is_none() && format == CellFormat::default() {
            return Ok(());
        }
        self.budget.push(SheetCell {
            row: p.row,
            col: p.col,
            value,
            format,
        })
    }

    fn value_of(&self, p: &Pending) -> Option<CellValue> {
        let v = self.value.as_str();
        let text = |s: &str| (!s.trim().is_empty()).then(|| CellValue::Text(keep_text(s)));
        match p.kind {
            CellType::Shared => {
                let i = v.trim().parse::<usize>().ok()?;
                text(self.strings.get(i)?)
            }
            CellType::Inline => text(v),
            CellType::Bool => (!v.trim().is_empty()).then(|| CellValue::Bool(v.trim() != "0")),
            CellType::Error => {
                (!v.trim().is_empty()).then(|| CellValue::Error(keep_text(v.trim())))
            }
            CellType::Number => {
                let t = v.trim();
                if t.is_empty() {
                    None
                } else {
                    match t.parse::<f64>() {
                        Ok(f) => Some(CellValue::Number(f)),
                        Err(_) => text(v),
                    }
                }
            }
        }
    }
}

/// Cut a decoded value a little past [`MAX_TEXT_KEPT`] (see [`push_capped`]).
fn cap(value: &mut String) {
    if value.len() > MAX_TEXT_KEPT + 8 {
        let whole = std::mem::take(value);
        push_capped(value, &whole);
    }
}

/// Plain digits (at most nine, so no overflow): the number they write.
fn small_integer(v: &[u8]) -> Option<u32> {
    if v.is_empty() || v.len() > 9 {
        return None;
    }
    v.iter().try_fold(0u32, |n, &b| {
        b.is_ascii_digit().then(|| n * 10 + u32::from(b - b'0'))
    })
}

fn parse_u32(v: &[u8]) -> Option<u32> {
    std::str::from_utf8(v).ok()?.trim().parse().ok()
}

/// `AB12` -> (row 11, column 27), both from 0.
fn parse_ref(v: &[u8]) -> Option<(u32, u32)> {
    let letters = v.iter().take_while(|b| b.is_ascii_alphabetic()).count();
    if letters == 0 || letters > 3 {
        return None;
    }
    let mut col = 0u32;
    for &b in &v[..letters] {
        col = col * 26 + u32::from(b.to_ascii_uppercase() - b'A' + 1);
    }
    let row = parse_u32(&v[letters..])?;
    (row >= 1).then(|| (row - 1, col - 1))
}
