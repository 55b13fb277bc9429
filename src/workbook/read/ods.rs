//! The ods pre-scan: `content.xml` is streamed once before calamine expands it densely.

use std::io::{BufReader, Read, Seek, SeekFrom};

use super::{ReadError, MAX_ODS_DENSE_CELLS};

/// Stream an ods `content.xml` and refuse it when a table's filled cells span more than
/// [`MAX_ODS_DENSE_CELLS`], counting `number-rows-repeated` and `number-columns-repeated`
/// the way calamine will expand them. Problems reading the zip are left to calamine to report.
pub(super) fn ods_extent_check<RS: Read + Seek>(reader: &mut RS) -> Result<(), ReadError> {
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
