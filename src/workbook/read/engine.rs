//! Opening an xlsx, xlsm, xlsb or xls workbook and reading one sheet into [`SheetCells`]:
//! xlsx and xlsm by our own reader ([`xlsx`]), xlsb by calamine streaming behind our walk of
//! its records ([`xlsb`]), xls by calamine's dense ranges behind the BIFF pre-scan. ods has its
//! own reader ([`super::ods`]).

use std::io::{Read, Seek};

use calamine::{open_workbook_from_rs, Data, Reader, Xls};

use super::budget::{text_value, OpenCost, SheetBudget};
use super::{xlsb, xlsx};
use super::{CellFormat, CellValue, Format, ReadError, SheetCell};

pub(super) enum Inner<RS: Read + Seek> {
    Xlsx(Box<xlsx::Book<RS>>),
    Xlsb(Box<xlsb::Book<RS>>),
    Xls(Box<Xls<RS>>),
}

impl<RS: Read + Seek> Inner<RS> {
    /// Sheet names in workbook order.
    pub(super) fn sheet_names(&self) -> Vec<String> {
        match self {
            Inner::Xlsx(b) => b.sheet_names(),
            Inner::Xlsb(b) => b.sheet_names(),
            Inner::Xls(b) => b.sheet_names(),
        }
    }

    /// The names of the sheets the workbook hides from its reader (hidden or very hidden).
    pub(super) fn hidden_sheets(&self) -> Vec<String> {
        let sheets = match self {
            Inner::Xlsx(b) => return b.hidden_sheets(),
            Inner::Xlsb(b) => return b.hidden_sheets(),
            Inner::Xls(b) => b.sheets_metadata(),
        };
        sheets
            .iter()
            .filter(|s| s.visible != calamine::SheetVisible::Visible)
            .map(|s| s.name.clone())
            .collect()
    }
}

/// Open a workbook of a known format; also returns what opening it keeps in memory, as far
/// as it is known before a reader builds it.
pub(super) fn open_inner<RS: Read + Seek>(
    format: Format,
    reader: RS,
) -> Result<(Inner<RS>, OpenCost), ReadError> {
    let damaged = |detail: String| ReadError::Damaged { format, detail };
    let inner = match format {
        Format::Xlsx | Format::Xlsm => {
            let (book, cost) = xlsx::Book::open(reader, format)?;
            return Ok((Inner::Xlsx(Box::new(book)), cost));
        }
        Format::Xlsb => {
            let (book, cost) = xlsb::Book::open(reader)?;
            return Ok((Inner::Xlsb(Box::new(book)), cost));
        }
        Format::Xls => match open_workbook_from_rs::<Xls<RS>, RS>(reader) {
            Ok(b) => Inner::Xls(Box::new(b)),
            Err(calamine::XlsError::Password) => return Err(ReadError::PasswordProtected),
            Err(e) => return Err(damaged(e.to_string())),
        },
        Format::Ods | Format::Csv | Format::Tsv | Format::Json | Format::Text => {
            return Err(damaged(format!(
                "{format} is read by its own reader, not calamine"
            )))
        }
    };
    Ok((inner, OpenCost::default()))
}

/// Read one sheet through calamine under the sheet's budget.
pub(super) fn read_inner<RS: Read + Seek>(
    format: Format,
    inner: &mut Inner<RS>,
    name: &str,
    budget: &mut SheetBudget<'_>,
) -> Result<(), ReadError> {
    let damaged = |detail: String| ReadError::Damaged { format, detail };
    match inner {
        Inner::Xlsx(book) => book.read_sheet(name, budget),
        Inner::Xlsb(book) => book.read_sheet(name, budget),
        Inner::Xls(book) => {
            let range = book
                .worksheet_range(name)
                .map_err(|e| damaged(e.to_string()))?;
            dense_to_cells(&range, budget)
        }
    }
}

fn dense_to_cells(
    range: &calamine::Range<Data>,
    budget: &mut SheetBudget<'_>,
) -> Result<(), ReadError> {
    let (row0, col0) = range.start().unwrap_or((0, 0));
    for (r, c, data) in range.used_cells() {
        let Some(value) = from_data(data) else {
            continue;
        };
        budget.push(SheetCell {
            row: row0.saturating_add(r as u32),
            col: col0.saturating_add(c as u32),
            value: Some(value),
            format: CellFormat::default(),
        })?;
    }
    Ok(())
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
