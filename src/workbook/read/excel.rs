//! The formats calamine reads: xlsx and xlsm through its streaming cell reader (with each
//! cell's style: a visible border, a solid fill's colour), xls through its ranges.
//!
//! Nothing here bounds calamine: a file that makes it allocate or loop without end is stopped
//! from outside, in the reader process ([`super::watched`]).

use std::io::{Read, Seek};

use calamine::{
    open_workbook_from_rs, DataRef, DataType, Reader, SheetType, SheetVisible, Xls, XlsError, Xlsx,
    XlsxError,
};

use super::budget::SheetBudget;
use super::{CellFormat, CellValueRef, CellView, Format, ReadError, SheetInfo, SheetSource};

/// The sheets as calamine lists them, with whether each is hidden (or very hidden).
fn sheets(listed: &[calamine::Sheet]) -> Vec<SheetInfo> {
    listed
        .iter()
        .map(|s| SheetInfo {
            name: s.name.clone(),
            hidden: s.visible != SheetVisible::Visible,
        })
        .collect()
}

/// A value as the verifier takes it: dates and times as their serial number, ISO text as
/// text, an empty cell as none.
fn value<'a>(data: &'a impl DataType, error: &'a mut String) -> Option<CellValueRef<'a>> {
    let text = || {
        data.get_string()
            .or(data.get_datetime_iso())
            .or(data.get_duration_iso())
    };
    Some(if let Some(f) = data.get_float() {
        CellValueRef::Number(f)
    } else if let Some(i) = data.get_int() {
        CellValueRef::Number(i as f64)
    } else if let Some(t) = text() {
        CellValueRef::Text(t)
    } else if let Some(b) = data.get_bool() {
        CellValueRef::Bool(b)
    } else if let Some(d) = data.get_datetime() {
        CellValueRef::Number(d.as_f64())
    } else {
        *error = data.get_error()?.to_string();
        CellValueRef::Error(error)
    })
}

/// An xlsx or xlsm workbook, read by calamine.
pub(super) struct XlsxBook<RS: Read + Seek> {
    format: Format,
    book: Xlsx<RS>,
    sheets: Vec<SheetInfo>,
    /// What the verifier needs of each cell style, by style id (built at the first sheet).
    palette: Option<Vec<CellFormat>>,
}

impl<RS: Read + Seek> XlsxBook<RS> {
    /// Open the workbook: calamine reads its shared strings, styles and sheet list.
    pub(super) fn open(reader: RS, format: Format) -> Result<Self, ReadError> {
        let book = match open_workbook_from_rs::<Xlsx<RS>, RS>(reader) {
            Ok(book) => book,
            Err(XlsxError::Password) => return Err(ReadError::PasswordProtected),
            Err(e) => return Err(format.damaged(e)),
        };
        let sheets = sheets(book.sheets_metadata());
        Ok(XlsxBook {
            format,
            book,
            sheets,
            palette: None,
        })
    }
}

/// A cell style as the verifier sees it: a visible border on some side, a visible fill's
/// colour.
fn cell_format(style: &calamine::Style) -> CellFormat {
    CellFormat {
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
    }
}

impl<RS: Read + Seek> SheetSource for XlsxBook<RS> {
    fn sheets(&self) -> &[SheetInfo] {
        &self.sheets
    }

    fn stream(&mut self, index: usize, sink: &mut SheetBudget<'_>) -> Result<(), ReadError> {
        let format = self.format;
        let Some(sheet) = self.book.sheets_metadata().get(index) else {
            return Err(format.damaged(format!("no sheet {}", index + 1)));
        };
        if sheet.typ == SheetType::ChartSheet {
            return Ok(());
        }
        let name = sheet.name.clone();
        let mut cells = match self.book.worksheet_cells_reader(&name) {
            Ok(cells) => cells,
            // A chart or dialog sheet listed as a worksheet: no cells.
            Err(XlsxError::NotAWorksheet(_)) => return Ok(()),
            Err(e) => return Err(format.damaged(e)),
        };
        let palette = self
            .palette
            .get_or_insert_with(|| cells.styles().iter().map(cell_format).collect());
        let mut error = String::new();
        while let Some((cell, style)) = cells
            .next_cell_with_style_id()
            .map_err(|e| format.damaged(e))?
        {
            let format = palette.get(style).copied().unwrap_or_default();
            keep(
                sink,
                cell.get_position(),
                cell.get_value(),
                format,
                &mut error,
            )?;
        }
        Ok(())
    }
}

/// Keep one cell: numbers (every move number of a board) go straight to the store. Not
/// inlined: calamine's reading loop around it stays small.
#[inline(never)]
fn keep(
    sink: &mut SheetBudget<'_>,
    (row, col): (u32, u32),
    data: &DataRef<'_>,
    format: CellFormat,
    error: &mut String,
) -> Result<(), ReadError> {
    match data {
        DataRef::Float(f) => sink.push_number(row, col, *f, format),
        DataRef::Int(i) => sink.push_number(row, col, *i as f64, format),
        data => sink.push_view(&CellView {
            row,
            col,
            value: value(data, error),
            format,
        }),
    }
}

/// An xls workbook, read by calamine (which reads every sheet when it opens the file).
pub(super) struct XlsBook<RS: Read + Seek> {
    book: Xls<RS>,
    sheets: Vec<SheetInfo>,
}

impl<RS: Read + Seek> XlsBook<RS> {
    /// Open the workbook.
    pub(super) fn open(reader: RS) -> Result<Self, ReadError> {
        let book = match open_workbook_from_rs::<Xls<RS>, RS>(reader) {
            Ok(book) => book,
            Err(XlsError::Password) => return Err(ReadError::PasswordProtected),
            Err(e) => return Err(Format::Xls.damaged(e)),
        };
        let sheets = sheets(book.sheets_metadata());
        Ok(XlsBook { book, sheets })
    }
}

impl<RS: Read + Seek> SheetSource for XlsBook<RS> {
    fn sheets(&self) -> &[SheetInfo] {
        &self.sheets
    }

    fn stream(&mut self, index: usize, sink: &mut SheetBudget<'_>) -> Result<(), ReadError> {
        let Some(name) = self.sheets.get(index).map(|s| s.name.clone()) else {
            return Err(Format::Xls.damaged(format!("no sheet {}", index + 1)));
        };
        let range = self
            .book
            .worksheet_range(&name)
            .map_err(|e| Format::Xls.damaged(e))?;
        let (row0, col0) = range.start().unwrap_or((0, 0));
        let mut error = String::new();
        for (r, c, data) in range.used_cells() {
            sink.push_view(&CellView {
                row: row0.saturating_add(r as u32),
                col: col0.saturating_add(c as u32),
                value: value(data, &mut error),
                format: CellFormat::default(),
            })?;
        }
        Ok(())
    }
}
