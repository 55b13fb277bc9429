//! The ods pre-scan: `content.xml` is streamed once, under the reading budget, before calamine
//! reads it. calamine expands every sheet densely when it opens the workbook, repeating a
//! cell's text once per repeated cell, and some of its loops never end on XML cut short. So the
//! pre-scan requires well-formed XML (end tags match, nothing left open at the end) and counts
//! each sheet's extent and the bytes of text the repeats expand to, and refuses the file past
//! [`MAX_DENSE_CELLS`] or [`MAX_STRING_BYTES`].

use std::io::{BufReader, Read, Seek, SeekFrom};

use quick_xml::events::{BytesStart, Event};

use super::budget::{Capped, MAX_DENSE_CELLS, MAX_STRING_BYTES};
use super::{Format, ReadError};

/// calamine caps rows at this many; repeats beyond it are cut by calamine too.
const MAX_REPEAT: u64 = 1 << 20;

/// Pre-scan an ods package read from `reader`. Problems opening the zip are left to calamine
/// to report.
pub(crate) fn prescan<RS: Read + Seek>(reader: &mut RS) -> Result<(), ReadError> {
    reader
        .seek(SeekFrom::Start(0))
        .map_err(|e| ReadError::Io(e.to_string()))?;
    let Ok(mut zip) = zip::ZipArchive::new(&mut *reader) else {
        return Ok(());
    };
    let Ok(content) = zip.by_name("content.xml") else {
        return Ok(());
    };
    let mut capped = Capped::new(content);
    let result = scan_content(&mut capped);
    match capped.over.take() {
        Some(over) => Err(ReadError::TooLarge {
            detail: format!("its content.xml holds {}", over.0),
        }),
        None => result,
    }
}

/// The counts of one sheet (`table:table`) being scanned.
#[derive(Default)]
struct Table {
    name: String,
    row: u64,
    row_repeat: u64,
    col: u64,
    /// First and last column filled in the current row.
    row_cols: Option<(u64, u64)>,
    /// First row, last row, first column, last column filled.
    extent: Option<(u64, u64, u64, u64)>,
}

/// One cell being scanned: its repeat and the bytes of text it holds.
struct Cell {
    repeat: u64,
    bytes: u64,
}

/// Scan `content.xml`: well-formedness, extents and expanded text. Public for the fuzz target.
pub fn scan_content<R: Read>(content: R) -> Result<(), ReadError> {
    let damaged = |detail: String| ReadError::Damaged {
        format: Format::Ods,
        detail,
    };
    let mut xml = quick_xml::Reader::from_reader(BufReader::new(content));
    xml.config_mut().check_end_names = true;
    let mut buf = Vec::new();
    let mut depth = 0u64;
    let mut table: Option<Table> = None;
    let mut cell: Option<Cell> = None;
    let (mut dense, mut text_bytes) = (0u64, 0u64);
    loop {
        let event = xml.read_event_into(&mut buf).map_err(|e| {
            damaged(format!(
                "its content.xml is not well-formed XML ({e}, at byte {})",
                xml.error_position()
            ))
        })?;
        match event {
            Event::Start(ref e) | Event::Empty(ref e) => {
                let empty = matches!(event, Event::Empty(_));
                if !empty {
                    depth += 1;
                }
                match e.local_name().as_ref() {
                    "table" if !empty => {
                        table = Some(Table {
                            name: attr(e, "table:name").unwrap_or_default(),
                            ..Table::default()
                        });
                    }
                    "table-row" => {
                        if let Some(t) = table.as_mut() {
                            (t.col, t.row_repeat, t.row_cols) =
                                (0, repeat(e, "table:number-rows-repeated"), None);
                            if empty {
                                t.row += t.row_repeat;
                            }
                        }
                    }
                    "table-cell" | "covered-table-cell" => {
                        if let Some(t) = table.as_mut() {
                            let n = repeat(e, "table:number-columns-repeated");
                            let mut bytes = 0;
                            let mut filled = !empty;
                            for a in e.attributes().flatten() {
                                match a.key.as_ref() {
                                    "office:value-type" | "table:formula" => filled = true,
                                    _ => {}
                                }
                                if matches!(
                                    a.key.as_ref(),
                                    "office:string-value"
                                        | "table:formula"
                                        | "office:date-value"
                                        | "office:time-value"
                                ) {
                                    bytes += a.value.len() as u64;
                                }
                            }
                            if filled {
                                let (a, b) = t.row_cols.unwrap_or((t.col, t.col));
                                t.row_cols = Some((a.min(t.col), b.max(t.col + n - 1)));
                            }
                            t.col = t.col.saturating_add(n);
                            let expanded = bytes.saturating_mul(n).saturating_mul(t.row_repeat);
                            text_bytes = text_bytes.saturating_add(expanded);
                            if !empty {
                                cell = Some(Cell { repeat: n, bytes });
                            }
                        }
                    }
                    "s" => {
                        // calamine writes `text:c` spaces.
                        let spaces = attr(e, "text:c")
                            .and_then(|v| v.trim().parse::<u64>().ok())
                            .unwrap_or(1);
                        add_cell_text(&mut cell, &table, spaces, &mut text_bytes);
                    }
                    _ => {}
                }
            }
            Event::End(ref e) => {
                depth = depth.saturating_sub(1);
                match e.local_name().as_ref() {
                    "table-cell" | "covered-table-cell" => cell = None,
                    "table-row" => {
                        if let Some(t) = table.as_mut() {
                            close_row(t);
                        }
                    }
                    "table" => {
                        if let Some(t) = table.take() {
                            dense = dense.saturating_add(check_extent(&t)?);
                            if dense > MAX_DENSE_CELLS {
                                return Err(ReadError::TooLarge {
                                    detail: format!(
                                        "its sheets spread over more than {MAX_DENSE_CELLS} cells in all"
                                    ),
                                });
                            }
                        }
                    }
                    _ => {}
                }
            }
            Event::Text(ref t) => {
                let n = t.len() as u64;
                add_cell_text(&mut cell, &table, n, &mut text_bytes);
            }
            Event::GeneralRef(_) => add_cell_text(&mut cell, &table, 1, &mut text_bytes),
            Event::Eof => {
                if depth > 0 || table.is_some() {
                    return Err(damaged(
                        "its content.xml ends inside an element (a sheet is not closed): the file was cut short or edited by hand".into(),
                    ));
                }
                return Ok(());
            }
            _ => {}
        }
        if text_bytes > MAX_STRING_BYTES {
            return Err(ReadError::TooLarge {
                detail: format!(
                    "its cells' text, repeated as the file asks, comes to more than {} MB",
                    MAX_STRING_BYTES / (1024 * 1024)
                ),
            });
        }
        buf.clear();
    }
}

/// Text inside a cell counts once per repeated cell.
fn add_cell_text(cell: &mut Option<Cell>, table: &Option<Table>, n: u64, total: &mut u64) {
    if let (Some(c), Some(t)) = (cell.as_mut(), table.as_ref()) {
        c.bytes = c.bytes.saturating_add(n);
        let expanded = n.saturating_mul(c.repeat).saturating_mul(t.row_repeat);
        *total = total.saturating_add(expanded);
    }
}

fn attr(e: &BytesStart<'_>, name: &str) -> Option<String> {
    e.attributes()
        .flatten()
        .find(|a| a.key.as_ref() == name)
        .map(|a| a.value.to_string())
}

fn repeat(e: &BytesStart<'_>, name: &str) -> u64 {
    attr(e, name)
        .and_then(|v| v.trim().parse::<u64>().ok())
        .unwrap_or(1)
        .clamp(1, MAX_REPEAT)
}

fn close_row(t: &mut Table) {
    if let Some((c0, c1)) = t.row_cols.take() {
        let last = t.row + t.row_repeat - 1;
        t.extent = Some(match t.extent {
            None => (t.row, last, c0, c1),
            Some((r0, _, a, b)) => (r0, last, a.min(c0), b.max(c1)),
        });
    }
    t.row = t.row.saturating_add(t.row_repeat);
}

/// The sheet's extent in cells, refused past [`MAX_DENSE_CELLS`].
fn check_extent(t: &Table) -> Result<u64, ReadError> {
    let Some((r0, r1, c0, c1)) = t.extent else {
        return Ok(0);
    };
    let (rows, cols) = (r1 - r0 + 1, c1 - c0 + 1);
    let cells = rows.saturating_mul(cols);
    if cells > MAX_DENSE_CELLS {
        return Err(ReadError::OdsTooLarge {
            sheet: t.name.clone(),
            rows,
            cols,
        });
    }
    Ok(cells)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn content(tables: &str) -> String {
        format!(
            r#"<?xml version="1.0"?><office:document-content xmlns:office="o" xmlns:table="t" xmlns:text="x"><office:body><office:spreadsheet>{tables}</office:spreadsheet></office:body></office:document-content>"#
        )
    }

    #[test]
    fn a_small_sheet_passes() {
        let c = content(
            r#"<table:table table:name="T"><table:table-row><table:table-cell office:value-type="float" office:value="1"><text:p>1</text:p></table:table-cell></table:table-row></table:table>"#,
        );
        assert_eq!(scan_content(c.as_bytes()), Ok(()));
    }

    #[test]
    fn an_unclosed_table_or_mismatched_tag_is_damaged() {
        let c = content(r#"<table:table table:name="T"><table:table-row>"#);
        let cut = &c[..c.find("</office:spreadsheet>").unwrap()];
        assert!(matches!(
            scan_content(cut.as_bytes()),
            Err(ReadError::Damaged { .. })
        ));
        let bad = content(r#"<table:table table:name="T"></table:tablex>"#);
        assert!(matches!(
            scan_content(bad.as_bytes()),
            Err(ReadError::Damaged { .. })
        ));
    }

    #[test]
    fn repeated_text_and_extent_are_counted() {
        let big = "y".repeat(10_000);
        let c = content(&format!(
            r#"<table:table table:name="T"><table:table-row table:number-rows-repeated="100"><table:table-cell table:number-columns-repeated="100" office:value-type="string"><text:p>{big}</text:p></table:table-cell></table:table-row></table:table>"#
        ));
        assert!(matches!(
            scan_content(c.as_bytes()),
            Err(ReadError::TooLarge { .. })
        ));
        let wide = content(
            r#"<table:table table:name="T"><table:table-row table:number-rows-repeated="4000"><table:table-cell table:number-columns-repeated="4000" office:value-type="float" office:value="1"/></table:table-row></table:table>"#,
        );
        assert!(matches!(
            scan_content(wide.as_bytes()),
            Err(ReadError::OdsTooLarge { .. })
        ));
        let spaces = content(
            r#"<table:table table:name="T"><table:table-row><table:table-cell office:value-type="string"><text:p><text:s text:c="1000000000"/></text:p></table:table-cell></table:table-row></table:table>"#,
        );
        assert!(matches!(
            scan_content(spaces.as_bytes()),
            Err(ReadError::TooLarge { .. })
        ));
    }
}
