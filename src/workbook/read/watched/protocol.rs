//! The messages between the command line and its reader process: compact, binary, and read
//! by the parent under bounds it sets itself, so nothing the child sends (whatever the file
//! made it do) can make the parent allocate more than a bounded amount.
//!
//! Requests (parent to child): `P` + path (open a file), `B` + sheet name + bytes (open bytes
//! handed over, standard input), `S` + sheet index (read that sheet). Replies (child to
//! parent): the child first writes [`MAGIC`]; `W` + format + sheets (opened), `E` + error,
//! `R` (start a new reader before this file: this one has grown), and for a sheet a stream of
//! `C` cells and `N` runs (whole numbers side by side along a row with one format: a row of a
//! board in one message, kept by the parent in one step) ended by `D` or `E`. Integers are little-endian; a string is its length (`u32`)
//! and its UTF-8 bytes.

use std::io::{self, Read, Write};

use super::super::budget::{CellOut, MAX_TEXT_KEPT};
use super::super::cells::MAX_SMALL_NUMBER;
use super::super::{
    CellFormat, CellValue, CellValueRef, CellView, Format, ReadError, SheetCell, SheetInfo,
};

/// The child's first bytes: which protocol it speaks.
pub(super) const MAGIC: &[u8; 4] = b"KTR1";

/// Request: open the file at a path.
pub(super) const OPEN_PATH: u8 = b'P';
/// Request: open bytes handed over.
pub(super) const OPEN_BYTES: u8 = b'B';
/// Request: read one sheet.
pub(super) const READ_SHEET: u8 = b'S';

/// Reply: the workbook is open.
pub(super) const OPENED: u8 = b'W';
/// Reply: opening or reading failed.
pub(super) const FAILED: u8 = b'E';
/// Reply: start a new reader and ask it again.
pub(super) const RESTART: u8 = b'R';
/// Reply: one cell of the sheet being read.
pub(super) const CELL: u8 = b'C';
/// Reply: whole numbers in consecutive cells of a row, with one format.
pub(super) const RUN: u8 = b'N';
/// Reply: the sheet's cells are all sent.
pub(super) const DONE: u8 = b'D';

/// The most numbers in one run.
const MAX_RUN: u32 = 4096;

/// The longest string the parent accepts in a message (a sheet name, an error's words).
const MAX_STRING: u32 = 64 * 1024;
/// The longest text of a cell: what a reader keeps ([`MAX_TEXT_KEPT`], then `…`).
const MAX_CELL_TEXT: u32 = MAX_TEXT_KEPT as u32 + 4;

/// Formats by their code in messages.
const FORMATS: [Format; 9] = [
    Format::Xlsx,
    Format::Xlsm,
    Format::Xlsb,
    Format::Xls,
    Format::Ods,
    Format::Csv,
    Format::Tsv,
    Format::Json,
    Format::Text,
];

/// What went wrong reading the child's replies.
#[derive(Debug)]
pub(super) enum Fault {
    /// The pipe failed, ended, or the time ran out ([`io::ErrorKind::TimedOut`]).
    Io(io::Error),
    /// The bytes make no sense: the child broke the protocol.
    Breach(String),
}

impl From<io::Error> for Fault {
    fn from(e: io::Error) -> Fault {
        Fault::Io(e)
    }
}

fn breach<T>(what: impl Into<String>) -> Result<T, Fault> {
    Err(Fault::Breach(what.into()))
}

/// Writing messages.
pub(super) struct Writer<W: Write>(pub(super) W);

impl<W: Write> Writer<W> {
    pub(super) fn u8(&mut self, v: u8) -> io::Result<()> {
        self.0.write_all(&[v])
    }

    pub(super) fn u32(&mut self, v: u32) -> io::Result<()> {
        self.0.write_all(&v.to_le_bytes())
    }

    pub(super) fn u64(&mut self, v: u64) -> io::Result<()> {
        self.0.write_all(&v.to_le_bytes())
    }

    /// A string or bytes: length, then the bytes (longer ones are cut, never sent whole).
    pub(super) fn bytes(&mut self, b: &[u8]) -> io::Result<()> {
        let b = &b[..b.len().min(MAX_STRING as usize)];
        self.u32(b.len() as u32)?;
        self.0.write_all(b)
    }

    /// A string, cut at a character boundary to what the parent accepts.
    pub(super) fn str(&mut self, s: &str) -> io::Result<()> {
        let mut end = s.len().min(MAX_STRING as usize);
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        self.bytes(&s.as_bytes()[..end])
    }

    pub(super) fn format(&mut self, f: Format) -> io::Result<()> {
        self.u8(FORMATS.iter().position(|&x| x == f).unwrap_or(0) as u8)
    }

    /// `W`: the workbook is open.
    pub(super) fn opened(
        &mut self,
        format: Format,
        sheets: &[String],
        hidden: impl Fn(&str) -> bool,
    ) -> io::Result<()> {
        self.u8(OPENED)?;
        self.format(format)?;
        self.u32(sheets.len() as u32)?;
        for name in sheets {
            self.u8(u8::from(hidden(name)))?;
            self.str(name)?;
        }
        Ok(())
    }

    /// `E`: an error, each variant with its words.
    pub(super) fn failed(&mut self, e: &ReadError) -> io::Result<()> {
        self.u8(FAILED)?;
        let (code, format, a, b): (u8, Option<Format>, &str, &str) = match e {
            ReadError::Io(s) => (0, None, s, ""),
            ReadError::Empty => (1, None, "", ""),
            ReadError::PasswordProtected => (2, None, "", ""),
            ReadError::NotASpreadsheet(s) => (3, None, s, ""),
            ReadError::NotAFile(s) => (4, None, s, ""),
            ReadError::NotATourFile(s) => (5, None, s, ""),
            ReadError::Damaged { format, detail } => (6, Some(*format), detail, ""),
            ReadError::ReaderCrashed { format, detail } => (7, Some(*format), detail, ""),
            ReadError::TooLarge { detail } => (8, None, detail, ""),
            ReadError::ReaderStopped { reason } => (9, None, reason, ""),
            ReadError::NoSuchSheet { name, available } => (10, None, name, available),
        };
        self.u8(code)?;
        self.format(format.unwrap_or(Format::Xlsx))?;
        self.str(a)?;
        self.str(b)
    }

    /// `C`: one cell.
    pub(super) fn cell(&mut self, cell: &CellView<'_>) -> io::Result<()> {
        self.u8(CELL)?;
        self.u32(cell.row)?;
        self.u32(cell.col)?;
        self.cell_format(cell.format)?;
        match cell.value {
            None => self.u8(0),
            Some(CellValueRef::Number(n)) => match whole(n) {
                Some(n) => {
                    self.u8(1)?;
                    self.u32(n)
                }
                None => {
                    self.u8(2)?;
                    self.0.write_all(&n.to_le_bytes())
                }
            },
            Some(CellValueRef::Text(t)) => {
                self.u8(3)?;
                self.str(t)
            }
            Some(CellValueRef::Bool(b)) => self.u8(4 + u8::from(b)),
            Some(CellValueRef::Error(t)) => {
                self.u8(6)?;
                self.str(t)
            }
        }
    }

    fn cell_format(&mut self, f: CellFormat) -> io::Result<()> {
        self.u8(u8::from(f.bordered) | u8::from(f.fill.is_some()) << 1)?;
        match f.fill {
            Some(fill) => self.u32(fill),
            None => Ok(()),
        }
    }

    /// `N`: whole numbers in the cells from `(row, col)` along the row.
    fn run(&mut self, row: u32, col: u32, format: CellFormat, values: &[u32]) -> io::Result<()> {
        self.u8(RUN)?;
        self.u32(row)?;
        self.u32(col)?;
        self.cell_format(format)?;
        self.u32(values.len() as u32)?;
        // A row of a board is a thousand numbers: written a block at a time.
        let mut block = [0u8; 1024];
        for chunk in values.chunks(block.len() / 4) {
            for (b, v) in block.chunks_exact_mut(4).zip(chunk) {
                b.copy_from_slice(&v.to_le_bytes());
            }
            self.0.write_all(&block[..4 * chunk.len()])?;
        }
        Ok(())
    }
}

/// A number sent as a `u32`: whole, from 0 (not -0) to 2^32 - 1.
fn whole(n: f64) -> Option<u32> {
    // `as` saturates (NaN to 0): only a whole number in range comes back unchanged.
    let v = n as u32;
    (f64::from(v) == n && n.is_sign_positive()).then_some(v)
}

/// Sends a sheet's cells, gathering whole numbers side by side on a row into runs (`N`).
pub(super) struct CellSender<'w, W: Write> {
    out: &'w mut Writer<W>,
    row: u32,
    col: u32,
    format: CellFormat,
    run: Vec<u32>,
}

impl<'w, W: Write> CellSender<'w, W> {
    pub(super) fn new(out: &'w mut Writer<W>) -> CellSender<'w, W> {
        CellSender {
            out,
            row: 0,
            col: 0,
            format: CellFormat::default(),
            run: Vec::new(),
        }
    }

    /// Send the run gathered so far (call before `D` or `E`).
    pub(super) fn flush(&mut self) -> io::Result<()> {
        match self.run[..] {
            [] => Ok(()),
            [v] => self.out.cell(&CellView {
                row: self.row,
                col: self.col,
                value: Some(CellValueRef::Number(f64::from(v))),
                format: self.format,
            }),
            _ => self.out.run(self.row, self.col, self.format, &self.run),
        }?;
        self.run.clear();
        Ok(())
    }

    /// Whether `cell` carries on the run gathered so far.
    fn continues(&self, cell: &CellView<'_>) -> bool {
        !self.run.is_empty()
            && self.run.len() < MAX_RUN as usize
            && cell.row == self.row
            && cell.format == self.format
            && self.col.checked_add(self.run.len() as u32) == Some(cell.col)
    }
}

impl<W: Write> CellOut for CellSender<'_, W> {
    fn cell(&mut self, cell: &CellView<'_>) -> io::Result<()> {
        let small = match cell.value {
            Some(CellValueRef::Number(n)) => whole(n).filter(|&v| v <= MAX_SMALL_NUMBER),
            _ => None,
        };
        let Some(v) = small else {
            self.flush()?;
            return self.out.cell(cell);
        };
        if !self.continues(cell) {
            self.flush()?;
            (self.row, self.col, self.format) = (cell.row, cell.col, cell.format);
        }
        self.run.push(v);
        Ok(())
    }
}

/// Reading messages, every length checked before anything is allocated for it.
pub(super) struct Reader<R: Read>(pub(super) R);

impl<R: Read> Reader<R> {
    fn array<const N: usize>(&mut self) -> Result<[u8; N], Fault> {
        let mut b = [0u8; N];
        self.0.read_exact(&mut b)?;
        Ok(b)
    }

    pub(super) fn u8(&mut self) -> Result<u8, Fault> {
        Ok(self.array::<1>()?[0])
    }

    pub(super) fn u32(&mut self) -> Result<u32, Fault> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    pub(super) fn u64(&mut self) -> Result<u64, Fault> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    /// Bytes of at most `max`.
    pub(super) fn bytes(&mut self, max: u32) -> Result<Vec<u8>, Fault> {
        let len = self.u32()?;
        if len > max {
            return breach(format!("a string of {len} bytes (at most {max})"));
        }
        let mut b = vec![0u8; len as usize];
        self.0.read_exact(&mut b)?;
        Ok(b)
    }

    fn string_of(&mut self, max: u32) -> Result<String, Fault> {
        String::from_utf8(self.bytes(max)?).or_else(|_| breach("text that is not UTF-8"))
    }

    pub(super) fn string(&mut self) -> Result<String, Fault> {
        self.string_of(MAX_STRING)
    }

    pub(super) fn format(&mut self) -> Result<Format, Fault> {
        let code = self.u8()?;
        match FORMATS.get(usize::from(code)) {
            Some(&f) => Ok(f),
            None => breach(format!("format code {code}")),
        }
    }

    /// After `W`: the format and the sheets; at most `max_sheets`.
    pub(super) fn opened(&mut self, max_sheets: usize) -> Result<(Format, Vec<SheetInfo>), Fault> {
        let format = self.format()?;
        let n = self.u32()? as usize;
        if n > max_sheets {
            return breach(format!("{n} sheets (at most {max_sheets})"));
        }
        let mut sheets = Vec::with_capacity(n);
        for _ in 0..n {
            let hidden = self.u8()? != 0;
            let name = self.string()?;
            sheets.push(SheetInfo { name, hidden });
        }
        Ok((format, sheets))
    }

    /// After `E`: the error.
    pub(super) fn failed(&mut self) -> Result<ReadError, Fault> {
        let code = self.u8()?;
        let format = self.format()?;
        let a = self.string()?;
        let b = self.string()?;
        Ok(match code {
            0 => ReadError::Io(a),
            1 => ReadError::Empty,
            2 => ReadError::PasswordProtected,
            3 => ReadError::NotASpreadsheet(a),
            4 => ReadError::NotAFile(a),
            5 => ReadError::NotATourFile(a),
            6 => ReadError::Damaged { format, detail: a },
            7 => ReadError::ReaderCrashed { format, detail: a },
            8 => ReadError::TooLarge { detail: a },
            9 => ReadError::ReaderStopped { reason: a },
            10 => ReadError::NoSuchSheet {
                name: a,
                available: b,
            },
            _ => return breach(format!("error code {code}")),
        })
    }

    fn cell_format(&mut self) -> Result<CellFormat, Fault> {
        let flags = self.u8()?;
        if flags > 3 {
            return breach(format!("cell format flags {flags}"));
        }
        let fill = if flags & 2 != 0 {
            Some(self.u32()?)
        } else {
            None
        };
        Ok(CellFormat {
            bordered: flags & 1 != 0,
            fill,
        })
    }

    /// After `N`: the run's first cell and format, its numbers put in `values`.
    pub(super) fn run(&mut self, values: &mut Vec<u32>) -> Result<(u32, u32, CellFormat), Fault> {
        let row = self.u32()?;
        let col = self.u32()?;
        let format = self.cell_format()?;
        let n = self.u32()?;
        if n == 0 || n > MAX_RUN || col.checked_add(n - 1).is_none() {
            return breach(format!("a run of {n} cells from column {col}"));
        }
        let mut bytes = [0u8; 4 * MAX_RUN as usize];
        let bytes = &mut bytes[..4 * n as usize];
        self.0.read_exact(bytes)?;
        values.clear();
        for b in bytes.chunks_exact(4) {
            let v = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            if v > MAX_SMALL_NUMBER {
                return breach(format!("{v} in a run"));
            }
            values.push(v);
        }
        Ok((row, col, format))
    }

    /// After `C`: the cell.
    pub(super) fn cell(&mut self) -> Result<SheetCell, Fault> {
        let row = self.u32()?;
        let col = self.u32()?;
        let format = self.cell_format()?;
        let value = match self.u8()? {
            0 => None,
            1 => Some(CellValue::Number(f64::from(self.u32()?))),
            2 => Some(CellValue::Number(f64::from_le_bytes(self.array()?))),
            3 => Some(CellValue::Text(self.string_of(MAX_CELL_TEXT)?.into())),
            4 => Some(CellValue::Bool(false)),
            5 => Some(CellValue::Bool(true)),
            6 => Some(CellValue::Error(self.string_of(MAX_CELL_TEXT)?.into())),
            kind => return breach(format!("cell value kind {kind}")),
        };
        Ok(SheetCell {
            row,
            col,
            value,
            format,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_and_errors_round_trip() {
        let cells = [
            SheetCell {
                row: 3,
                col: 7,
                value: Some(CellValue::Number(17.0)),
                format: CellFormat::default(),
            },
            SheetCell {
                row: 0,
                col: 1,
                value: Some(CellValue::Number(-2.5)),
                format: CellFormat {
                    bordered: true,
                    fill: Some(0xFFFF00),
                },
            },
            SheetCell {
                row: 9,
                col: 9,
                value: Some(CellValue::Text("a1 é".into())),
                format: CellFormat::default(),
            },
            SheetCell {
                row: 1,
                col: 0,
                value: None,
                format: CellFormat {
                    bordered: true,
                    fill: None,
                },
            },
        ];
        let mut w = Writer(Vec::new());
        for c in &cells {
            w.cell(&CellView {
                row: c.row,
                col: c.col,
                value: c.value.as_ref().map(CellValue::as_value_ref),
                format: c.format,
            })
            .unwrap();
        }
        let errors = [
            ReadError::Damaged {
                format: Format::Xls,
                detail: "x".into(),
            },
            ReadError::NoSuchSheet {
                name: "A".into(),
                available: "'B'".into(),
            },
        ];
        for e in &errors {
            w.failed(e).unwrap();
        }
        let mut r = Reader(&w.0[..]);
        for c in &cells {
            assert_eq!(r.u8().unwrap(), CELL);
            assert_eq!(&r.cell().unwrap(), c);
        }
        for e in &errors {
            assert_eq!(r.u8().unwrap(), FAILED);
            assert_eq!(&r.failed().unwrap(), e);
        }
    }

    #[test]
    fn whole_numbers_side_by_side_go_as_one_run_and_the_rest_as_cells() {
        let view = |col, value| CellView {
            row: 2,
            col,
            value: Some(CellValueRef::Number(value)),
            format: CellFormat::default(),
        };
        let mut w = Writer(Vec::new());
        let mut sender = CellSender::new(&mut w);
        for cell in [view(4, 1.0), view(5, 64.0), view(6, 2.5), view(7, 3.0)] {
            sender.cell(&cell).unwrap();
        }
        sender.flush().unwrap();
        let mut r = Reader(&w.0[..]);
        let mut run = Vec::new();
        assert_eq!(r.u8().unwrap(), RUN);
        assert_eq!(r.run(&mut run).unwrap(), (2, 4, CellFormat::default()));
        assert_eq!(run, [1, 64]);
        for (col, value) in [(6, 2.5), (7, 3.0)] {
            assert_eq!(r.u8().unwrap(), CELL);
            let cell = r.cell().unwrap();
            assert_eq!(
                (cell.col, cell.value),
                (col, Some(CellValue::Number(value)))
            );
        }
        assert!(r.u8().is_err());
    }

    #[test]
    fn runs_past_the_last_column_or_the_largest_kept_number_are_a_breach() {
        let run = |col: u32, n: u32, v: u32| {
            let mut w = Writer(Vec::new());
            w.u32(0).unwrap();
            w.u32(col).unwrap();
            w.u8(0).unwrap();
            w.u32(n).unwrap();
            (0..n).for_each(|_| w.u32(v).unwrap());
            Reader(&w.0[..]).run(&mut Vec::new())
        };
        assert!(run(u32::MAX - 1, 2, 5).is_ok());
        assert!(matches!(run(u32::MAX - 1, 3, 5), Err(Fault::Breach(_))));
        assert!(matches!(run(0, 0, 5), Err(Fault::Breach(_))));
        assert!(matches!(run(0, MAX_RUN + 1, 5), Err(Fault::Breach(_))));
        assert!(matches!(
            run(0, 2, MAX_SMALL_NUMBER + 1),
            Err(Fault::Breach(_))
        ));
    }

    #[test]
    fn lengths_past_the_bounds_are_a_breach_before_anything_is_allocated() {
        let mut bytes = vec![0, 0, 0, 0, 0, 0, 0, 0, 0, 3];
        bytes.extend(u32::MAX.to_le_bytes());
        assert!(matches!(Reader(&bytes[..]).cell(), Err(Fault::Breach(_))));
        let sheets = [0u8]
            .into_iter()
            .chain(1_000_000u32.to_le_bytes())
            .collect::<Vec<_>>();
        assert!(matches!(
            Reader(&sheets[..]).opened(4096),
            Err(Fault::Breach(_))
        ));
        assert!(matches!(Reader(&[9u8][..]).cell(), Err(Fault::Io(_))));
    }
}
