//! Streaming one xlsx worksheet's cells under the reading budget.
//!
//! Every cell element (empty `<c/>` included) counts against
//! [`MAX_SHEET_SCANNED_CELLS`](super::super::budget::MAX_SHEET_SCANNED_CELLS), every element
//! against [`MAX_SHEET_ELEMENTS`], what comes before `<sheetData>` against
//! [`MAX_PRESHEET_BYTES`], a text cell keeps at most [`MAX_TEXT_KEPT`] bytes, and the
//! XML is read through [`Capped`], so no text or tag is ever buffered whole past
//! [`MAX_XML_RUN`](super::super::budget::MAX_XML_RUN) and no sheet reads past its share of
//! [`MAX_RUN_SHEET_BYTES`](super::super::budget::MAX_RUN_SHEET_BYTES).

use std::io::Read;

use super::super::budget::{
    keep_text, Capped, SheetBudget, MAX_PART_BYTES, MAX_PRESHEET_BYTES, MAX_RUN_SHEET_BYTES,
    MAX_SHEET_ELEMENTS, MAX_TEXT_KEPT,
};
use super::super::xmlscan::{attributes, decode_text, ScanError, Scanner, Token};
use super::super::{CellFormat, CellValue, Format, ReadError, SheetCell};
use super::strings::{push_capped, SharedStrings};

fn too_large(detail: String) -> ReadError {
    ReadError::TooLarge { detail }
}

/// Stream the cells of the sheet part `member` under the sheet's and the workbook's budget.
/// `palette` maps style ids to what the verifier needs of them.
pub(super) fn read<R: Read>(
    member: R,
    strings: &SharedStrings,
    palette: &[CellFormat],
    budget: &mut SheetBudget<'_>,
) -> Result<(), ReadError> {
    let left = MAX_RUN_SHEET_BYTES.saturating_sub(budget.run_sheet_bytes());
    let mut capped = Capped::with_limit(member, left.min(MAX_PART_BYTES));
    let mut sheet = SheetStream::new(strings, palette, budget);
    let result = sheet.read(&mut capped);
    // Past the workbook's share first: that is the cap that stopped the reading then.
    sheet.budget.sheet_bytes(capped.total())?;
    match (result, capped.over.take()) {
        (_, Some(over)) => Err(too_large(format!("the sheet holds {}", over.0))),
        (Err(e), None) => Err(e),
        (Ok(()), None) => Ok(()),
    }
}

/// The state of one sheet's streaming.
struct SheetStream<'a, 'b> {
    strings: &'a SharedStrings,
    palette: &'a [CellFormat],
    budget: &'a mut SheetBudget<'b>,
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

impl<'a, 'b> SheetStream<'a, 'b> {
    fn new(
        strings: &'a SharedStrings,
        palette: &'a [CellFormat],
        budget: &'a mut SheetBudget<'b>,
    ) -> Self {
        SheetStream {
            strings,
            palette,
            budget,
            raw: Vec::new(),
            value: String::new(),
        }
    }

    fn read<R: Read>(&mut self, part: &mut Capped<R>) -> Result<(), ReadError> {
        let damaged = |detail: String| ReadError::Damaged {
            format: Format::Xlsx,
            detail,
        };
        let mut xml = Scanner::new(part);
        let (mut row, mut col) = (0u32, 0u32);
        let mut cell: Option<Pending> = None;
        let mut in_sheet_data = false;
        let mut elements = 0u64;
        loop {
            if !in_sheet_data && xml.get_ref().total() > MAX_PRESHEET_BYTES {
                return Err(too_large(format!(
                    "the sheet holds more than {} MB before its cells",
                    MAX_PRESHEET_BYTES / (1024 * 1024)
                )));
            }
            let token = xml.next_token().map_err(|e| match e {
                ScanError::Io(e) => damaged(format!("the sheet's XML is damaged: {e}")),
                e => damaged(format!("the sheet's XML is damaged: {e}")),
            })?;
            if !matches!(token, Token::Text(_)) && !self.raw.is_empty() {
                decode_text(&self.raw, &mut self.value);
                self.raw.clear();
                cap(&mut self.value);
            }
            if matches!(token, Token::Start { .. }) {
                elements += 1;
                if elements > MAX_SHEET_ELEMENTS {
                    return Err(too_large(format!(
                        "the sheet holds more than {MAX_SHEET_ELEMENTS} elements"
                    )));
                }
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
