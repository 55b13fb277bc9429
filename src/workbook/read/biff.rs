//! The BIFF pre-scan of an xls workbook, before calamine builds its dense ranges.
//!
//! calamine reads every sheet of an xls file when it opens it: it reserves memory for the
//! rectangle a sheet's DIMENSIONS record declares (with impossible bounds, "last row before
//! first", that is an allocation of terabytes and an abort), then holds each sheet as a dense
//! rectangle spanning its cells (two cells at A1 and IV65536 make 16.7 million). So the
//! Workbook stream is read here first, the way calamine walks it (the globals, then each sheet
//! from the position its BoundSheet8 record gives), and refused when a DIMENSIONS record is
//! impossible or too large, when a cell lies outside an xls sheet, when it lists more than
//! [`MAX_SHEETS`] sheets, or when the sheets' extents add up past [`MAX_DENSE_CELLS`]. The OLE tables are checked first (`Ole`), whatever the
//! file's size.

use std::io::{Read, Seek};

use super::budget::{MAX_DENSE_CELLS, MAX_SHEETS};
use super::ole::Ole;
use super::{Format, ReadError};

/// The most records walked over all sheets (sheets may share a substream).
const MAX_RECORDS: u64 = 32 * 1024 * 1024;
/// Columns of an xls (BIFF8) sheet.
const XLS_COLS: u32 = 256;

/// Check the OLE container and pre-scan the Workbook stream of the xls file in `reader`.
pub(crate) fn prescan<RS: Read + Seek>(reader: &mut RS) -> Result<(), ReadError> {
    let damaged = |detail: String| ReadError::Damaged {
        format: Format::Xls,
        detail,
    };
    let ole = Ole::open(reader).map_err(damaged)?;
    let stream = match ole.stream(reader, "Workbook").map_err(damaged)? {
        Some(s) => Some(s),
        None => ole.stream(reader, "Book").map_err(damaged)?,
    };
    match stream {
        Some(s) => scan_workbook_stream(&s),
        None => Ok(()),
    }
}

/// One BIFF record: its type and data (CONTINUE records are not joined: no cell record is
/// continued).
struct Records<'a> {
    stream: &'a [u8],
}

impl<'a> Iterator for Records<'a> {
    type Item = (u16, &'a [u8]);
    fn next(&mut self) -> Option<(u16, &'a [u8])> {
        if self.stream.len() < 4 {
            return None;
        }
        let typ = u16::from_le_bytes([self.stream[0], self.stream[1]]);
        let len = usize::from(u16::from_le_bytes([self.stream[2], self.stream[3]]));
        let data = self.stream.get(4..4 + len)?;
        self.stream = &self.stream[4 + len..];
        Some((typ, data))
    }
}

fn u16_at(d: &[u8], at: usize) -> Option<u32> {
    d.get(at..at + 2)
        .map(|x| u32::from(u16::from_le_bytes([x[0], x[1]])))
}

fn u32_at(d: &[u8], at: usize) -> Option<u32> {
    d.get(at..at + 4)
        .map(|x| u32::from_le_bytes([x[0], x[1], x[2], x[3]]))
}

/// Pre-scan a whole Workbook stream (BIFF records). Public for the fuzz target.
pub fn scan_workbook_stream(stream: &[u8]) -> Result<(), ReadError> {
    let mut sheets = Vec::new();
    for (typ, data) in (Records { stream }) {
        match typ {
            // BoundSheet8: where a sheet's substream starts.
            0x0085 => {
                if let Some(pos) = u32_at(data, 0) {
                    if sheets.len() >= MAX_SHEETS {
                        return Err(ReadError::TooLarge {
                            detail: format!("the workbook lists more than {MAX_SHEETS} sheets"),
                        });
                    }
                    sheets.push((pos as usize, sheet_name(data)));
                }
            }
            0x000A => break,
            _ => {}
        }
    }
    let mut dense = 0u64;
    let mut records = 0u64;
    for (pos, name) in sheets {
        let Some(sub) = stream.get(pos..) else {
            continue;
        };
        dense = dense.saturating_add(scan_sheet(sub, &name, &mut records)?);
        if dense > MAX_DENSE_CELLS {
            return Err(ReadError::TooLarge {
                detail: format!(
                    "its sheets spread over more than {MAX_DENSE_CELLS} cells in all (the last counted is '{name}')"
                ),
            });
        }
    }
    Ok(())
}

/// The sheet's name as far as it can be read (for messages only).
fn sheet_name(data: &[u8]) -> String {
    let Some(&cch) = data.get(6) else {
        return String::new();
    };
    let flags = data.get(7).copied().unwrap_or(0);
    let body = data.get(8..).unwrap_or_default();
    let cch = usize::from(cch);
    if flags & 1 == 1 {
        let units: Vec<u16> = body
            .chunks_exact(2)
            .take(cch)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        String::from_utf16_lossy(&units)
    } else {
        body.iter().take(cch).map(|&b| char::from(b)).collect()
    }
}

/// Scan one sheet substream the way calamine walks it; returns the extent of its cells.
fn scan_sheet(sub: &[u8], name: &str, records: &mut u64) -> Result<u64, ReadError> {
    let damaged = |detail: String| ReadError::Damaged {
        format: Format::Xls,
        detail: format!("sheet '{name}': {detail}"),
    };
    let too_large = |detail: String| ReadError::TooLarge {
        detail: format!("sheet '{name}' {detail}"),
    };
    let mut extent: Option<(u32, u32, u32, u32)> = None;
    let mut add = |row: u32, col: u32| -> Result<(), ReadError> {
        if col >= XLS_COLS {
            return Err(damaged(format!(
                "a cell at row {} column {}, beyond the {XLS_COLS} columns an xls sheet has",
                row + 1,
                col + 1
            )));
        }
        extent = Some(match extent {
            None => (row, row, col, col),
            Some((r0, r1, c0, c1)) => (r0.min(row), r1.max(row), c0.min(col), c1.max(col)),
        });
        Ok(())
    };
    let (mut seen_bof, mut depth) = (false, 0usize);
    for (typ, data) in (Records { stream: sub }) {
        *records += 1;
        if *records > MAX_RECORDS {
            return Err(ReadError::TooLarge {
                detail: format!(
                    "the workbook holds more than {MAX_RECORDS} records over its sheets"
                ),
            });
        }
        if depth > 0 {
            match typ {
                0x0809 => depth += 1,
                0x000A => depth -= 1,
                _ => {}
            }
            continue;
        }
        match typ {
            0x0809 if seen_bof => depth += 1,
            0x0809 => seen_bof = true,
            0x000A => break,
            // DIMENSIONS: calamine reserves its rectangle.
            0x0200 => {
                let (rf, rl, cf, cl) = match data.len() {
                    10 => (
                        u16_at(data, 0),
                        u16_at(data, 2),
                        u16_at(data, 4),
                        u16_at(data, 6),
                    ),
                    14 | 16 => (
                        u32_at(data, 0),
                        u32_at(data, 4),
                        u16_at(data, 8),
                        u16_at(data, 10),
                    ),
                    _ => continue,
                };
                let (Some(rf), Some(rl), Some(mut cf), Some(cl)) = (rf, rl, cf, cl) else {
                    continue;
                };
                if 0xFF < cf || cl < cf {
                    cf = 0;
                }
                if rl >= 1 && cl >= 1 {
                    let (last_row, last_col) = (rl - 1, cl - 1);
                    if last_row < rf || last_col < cf {
                        return Err(damaged(format!(
                            "its DIMENSIONS record is impossible (rows {rf}..{rl}, columns {cf}..{cl}: the last before the first)"
                        )));
                    }
                    let cells = u64::from(last_row - rf + 1) * u64::from(last_col - cf + 1);
                    if last_row > 0xFFFF || last_col >= XLS_COLS {
                        return Err(damaged(format!(
                            "its DIMENSIONS record reaches row {} column {}, beyond an xls sheet",
                            u64::from(last_row) + 1,
                            u64::from(last_col) + 1
                        )));
                    }
                    if cells > MAX_DENSE_CELLS {
                        return Err(too_large(format!(
                            "declares {cells} cells (DIMENSIONS), more than {MAX_DENSE_CELLS}"
                        )));
                    }
                }
            }
            // Cell records with a row and a column first.
            0x0203 | 0x0204 | 0x00D6 | 0x0205 | 0x027E | 0x00FD | 0x0006 | 0x0201 => {
                if let (Some(row), Some(col)) = (u16_at(data, 0), u16_at(data, 2)) {
                    add(row, col)?;
                }
            }
            // MULRK: a row, a first column, ..., a last column.
            0x00BD => {
                if let (Some(row), Some(first), Some(last)) = (
                    u16_at(data, 0),
                    u16_at(data, 2),
                    data.len().checked_sub(2).and_then(|at| u16_at(data, at)),
                ) {
                    add(row, first)?;
                    if last >= first {
                        add(row, last)?;
                    }
                }
            }
            _ => {}
        }
    }
    let cells = extent.map_or(0, |(r0, r1, c0, c1)| {
        u64::from(r1 - r0 + 1) * u64::from(c1 - c0 + 1)
    });
    if cells > MAX_DENSE_CELLS {
        let (r0, r1, c0, c1) = extent.unwrap_or_default();
        return Err(too_large(format!(
            "spreads over {} rows by {} columns ({cells} cells), more than {MAX_DENSE_CELLS}",
            r1 - r0 + 1,
            c1 - c0 + 1
        )));
    }
    Ok(cells)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(typ: u16, data: &[u8]) -> Vec<u8> {
        let mut v = typ.to_le_bytes().to_vec();
        v.extend((data.len() as u16).to_le_bytes());
        v.extend(data);
        v
    }

    /// A Workbook stream: globals naming one sheet, then the sheet's records.
    fn stream(sheet: &[Vec<u8>]) -> Vec<u8> {
        let bof = record(0x0809, &[0, 6, 5, 0]);
        let mut bound = vec![0u8; 8];
        bound[6] = 1;
        bound.push(b'S');
        let globals_len = bof.len() + record(0x0085, &bound).len() + 4;
        bound[..4].copy_from_slice(&(globals_len as u32).to_le_bytes());
        let mut s = bof.clone();
        s.extend(record(0x0085, &bound));
        s.extend(record(0x000A, &[]));
        s.extend(record(0x0809, &[0, 6, 0x10, 0]));
        for r in sheet {
            s.extend(r);
        }
        s.extend(record(0x000A, &[]));
        s
    }

    fn number(row: u16, col: u16) -> Vec<u8> {
        let mut d = row.to_le_bytes().to_vec();
        d.extend(col.to_le_bytes());
        d.extend([0u8; 10]);
        record(0x0203, &d)
    }

    fn dimensions(rf: u32, rl: u32, cf: u16, cl: u16) -> Vec<u8> {
        let mut d = rf.to_le_bytes().to_vec();
        d.extend(rl.to_le_bytes());
        d.extend(cf.to_le_bytes());
        d.extend(cl.to_le_bytes());
        d.extend([0, 0]);
        record(0x0200, &d)
    }

    #[test]
    fn a_small_sheet_passes() {
        let s = stream(&[dimensions(0, 8, 0, 8), number(0, 0), number(7, 7)]);
        assert_eq!(scan_workbook_stream(&s), Ok(()));
    }

    #[test]
    fn impossible_bounds_and_huge_extents_are_refused() {
        let backwards = stream(&[dimensions(5, 1, 0, 0xFFFF)]);
        assert!(matches!(
            scan_workbook_stream(&backwards),
            Err(ReadError::Damaged { .. })
        ));
        let wide = stream(&[number(0xFFFF, 0xFFFF)]);
        assert!(matches!(
            scan_workbook_stream(&wide),
            Err(ReadError::Damaged { .. })
        ));
        let corners = stream(&[number(0, 0), number(65535, 255)]);
        assert!(matches!(
            scan_workbook_stream(&corners),
            Err(ReadError::TooLarge { .. })
        ));
        let declared = stream(&[dimensions(0, 65536, 0, 256)]);
        assert!(matches!(
            scan_workbook_stream(&declared),
            Err(ReadError::TooLarge { .. })
        ));
    }
}
