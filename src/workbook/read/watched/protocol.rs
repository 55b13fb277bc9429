//! The messages between the command line and its reader process: serde types written by
//! postcard, each in a frame (its length as a little-endian `u32`, then its bytes), after the
//! child's first bytes [`MAGIC`].
//!
//! The parent reads a frame only up to [`MAX_FRAME`] bytes and checks what it decodes against
//! what a reader ever sends, so nothing the child sends (whatever the file made it do) makes
//! the parent allocate more than a frame. Whole numbers side by side along a row with one
//! format go as one [`Reply::Run`]: a row of a board in one message, kept in one step.

use std::io::{self, Read, Write};

use serde::{Deserialize, Serialize};

use super::super::budget::{CellOut, MAX_SHEETS};
use super::super::cells::{inline, MAX_SMALL_NUMBER};
use super::super::{CellFormat, CellValueRef, CellView, Format, ReadError, SheetInfo};

/// The child's first bytes: which protocol it speaks.
pub(super) const MAGIC: &[u8; 4] = b"KTR2";

/// The largest frame the parent reads: a sheet list of [`MAX_SHEETS`] long names, an error's
/// words, a cell's 32 KB of text and a run all fit many times over.
pub(super) const MAX_FRAME: u32 = 16 * 1024 * 1024;

/// The most numbers in one run.
const MAX_RUN: usize = 4096;

/// What the parent asks.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub(super) enum Request<'a> {
    /// Open the file at a path (the bytes of its `OsStr`).
    OpenPath(#[serde(serialize_with = "as_bytes")] &'a [u8]),
    /// Open the `len` bytes that follow the frame (standard input); a text format's one sheet
    /// is `sheet`.
    OpenBytes { sheet: &'a str, len: u64 },
    /// Read a sheet of the open file.
    ReadSheet(u32),
}

/// Bytes as one run of bytes, not a sequence of numbers.
fn as_bytes<S: serde::Serializer>(bytes: &&[u8], s: S) -> Result<S::Ok, S::Error> {
    s.serialize_bytes(bytes)
}

/// What the child answers.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub(super) enum Reply<'a> {
    /// The workbook is open.
    Opened {
        format: Format,
        sheets: Vec<SheetInfo>,
    },
    /// Opening or reading failed.
    Failed(ReadError),
    /// Start a new reader and ask it again: this one has grown.
    Restart,
    /// One cell of the sheet being read.
    Cell(#[serde(borrow)] CellView<'a>),
    /// Whole numbers in the cells from `(row, col)` along the row, with one format: each
    /// number's four bytes, little-endian (a row of a board is read in one step, not decoded
    /// one number at a time; [`numbers`]).
    Run {
        row: u32,
        col: u32,
        format: CellFormat,
        #[serde(serialize_with = "as_bytes")]
        values: &'a [u8],
    },
    /// The sheet's cells are all sent.
    Done,
}

impl Reply<'_> {
    /// The reply, if it stays within what a reader sends.
    fn checked(self) -> Result<Self, Fault> {
        match &self {
            Reply::Opened { sheets, .. } if sheets.len() > MAX_SHEETS => {
                breach(format!("{} sheets (at most {MAX_SHEETS})", sheets.len()))
            }
            Reply::Run { col, values, .. }
                if values.is_empty()
                    || values.len() % 4 != 0
                    || values.len() > 4 * MAX_RUN
                    || col.checked_add(values.len() as u32 / 4 - 1).is_none() =>
            {
                breach(format!("a run of {} bytes from column {col}", values.len()))
            }
            _ => Ok(self),
        }
    }
}

/// A run's numbers (its bytes, [`Reply::Run`]) into `into`, each checked.
pub(super) fn numbers(bytes: &[u8], into: &mut Vec<u32>) -> Result<(), Fault> {
    into.clear();
    into.extend((bytes.chunks_exact(4)).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])));
    match into.iter().find(|&&v| v > MAX_SMALL_NUMBER) {
        Some(v) => breach(format!("{v} in a run")),
        None => Ok(()),
    }
}

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

/// Writing frames.
pub(super) struct Writer<W: Write> {
    pub(super) out: W,
    frame: Vec<u8>,
}

impl<W: Write> Writer<W> {
    pub(super) fn new(out: W) -> Writer<W> {
        Writer {
            out,
            frame: Vec::new(),
        }
    }

    /// Write one message in its frame.
    pub(super) fn send(&mut self, message: &impl Serialize) -> io::Result<()> {
        let frame = postcard::to_extend(message, std::mem::take(&mut self.frame));
        self.frame = frame.map_err(io::Error::other)?;
        let len = u32::try_from(self.frame.len()).map_err(io::Error::other)?;
        self.out.write_all(&len.to_le_bytes())?;
        self.out.write_all(&self.frame)?;
        self.frame.clear();
        Ok(())
    }
}

/// Reading frames, each at most a given size.
pub(super) struct Reader<R: Read> {
    pub(super) input: R,
    frame: Vec<u8>,
}

impl<R: Read> Reader<R> {
    pub(super) fn new(input: R) -> Reader<R> {
        Reader {
            input,
            frame: Vec::new(),
        }
    }

    /// The next message, from a frame of at most `max` bytes.
    pub(super) fn next<'a, T: Deserialize<'a>>(&'a mut self, max: u32) -> Result<T, Fault> {
        let mut len = [0u8; 4];
        self.input.read_exact(&mut len)?;
        let len = u32::from_le_bytes(len);
        if len > max {
            return breach(format!("a message of {len} bytes (at most {max})"));
        }
        self.frame.resize(len as usize, 0);
        self.input.read_exact(&mut self.frame)?;
        match postcard::take_from_bytes(&self.frame) {
            Ok((message, [])) => Ok(message),
            Ok(_) => breach("a message with bytes left over"),
            Err(e) => breach(format!("a message that does not decode ({e})")),
        }
    }

    /// The child's next reply, checked.
    pub(super) fn reply(&mut self) -> Result<Reply<'_>, Fault> {
        self.next::<Reply<'_>>(MAX_FRAME)?.checked()
    }
}

/// Sends a sheet's cells, gathering whole numbers side by side on a row into runs.
pub(super) struct CellSender<'w, W: Write> {
    out: &'w mut Writer<W>,
    row: u32,
    col: u32,
    format: CellFormat,
    /// The run's numbers, as they are sent.
    run: Vec<u8>,
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

    /// Send the run gathered so far (call before `Done` or `Failed`).
    pub(super) fn flush(&mut self) -> io::Result<()> {
        match self.run[..] {
            [] => Ok(()),
            [a, b, c, d] => self.out.send(&Reply::Cell(CellView {
                row: self.row,
                col: self.col,
                value: Some(CellValueRef::Number(f64::from(u32::from_le_bytes([
                    a, b, c, d,
                ])))),
                format: self.format,
            })),
            _ => self.out.send(&Reply::Run {
                row: self.row,
                col: self.col,
                format: self.format,
                values: &self.run,
            }),
        }?;
        self.run.clear();
        Ok(())
    }

    /// Send a cell that is not a whole number kept in place, after the run before it.
    fn send_cell(&mut self, cell: &CellView<'_>) -> io::Result<()> {
        self.flush()?;
        self.out.send(&Reply::Cell(*cell))
    }

    /// Whether a number at `(row, col)` with `format` carries on the run gathered so far.
    fn continues(&self, row: u32, col: u32, format: CellFormat) -> bool {
        !self.run.is_empty()
            && self.run.len() < 4 * MAX_RUN
            && row == self.row
            && format == self.format
            && self.col.checked_add(self.run.len() as u32 / 4) == Some(col)
    }
}

impl<W: Write> CellOut for CellSender<'_, W> {
    fn cell(&mut self, cell: &CellView<'_>) -> io::Result<()> {
        match cell.value {
            Some(CellValueRef::Number(n)) => match inline(n) {
                Some(handle) => {
                    self.small_number(cell.row, cell.col, handle & MAX_SMALL_NUMBER, cell.format)
                }
                None => self.send_cell(cell),
            },
            _ => self.send_cell(cell),
        }
    }

    fn small_number(
        &mut self,
        row: u32,
        col: u32,
        value: u32,
        format: CellFormat,
    ) -> io::Result<()> {
        if !self.continues(row, col, format) {
            self.flush()?;
            (self.row, self.col, self.format) = (row, col, format);
        }
        self.run.extend_from_slice(&value.to_le_bytes());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn replies(sent: &[Reply<'_>]) -> Reader<io::Cursor<Vec<u8>>> {
        let mut w = Writer::new(Vec::new());
        sent.iter().for_each(|r| w.send(r).unwrap());
        Reader::new(io::Cursor::new(w.out))
    }

    #[test]
    fn cells_and_errors_round_trip() {
        let cell = |row, col, value, format| {
            Reply::Cell(CellView {
                row,
                col,
                value,
                format,
            })
        };
        let sent = [
            cell(
                3,
                7,
                Some(CellValueRef::Number(17.0)),
                CellFormat::default(),
            ),
            cell(
                0,
                1,
                Some(CellValueRef::Number(-2.5)),
                CellFormat {
                    bordered: true,
                    fill: Some(0xFFFF00),
                },
            ),
            cell(
                9,
                9,
                Some(CellValueRef::Text("a1 é")),
                CellFormat::default(),
            ),
            cell(
                1,
                0,
                None,
                CellFormat {
                    bordered: true,
                    fill: None,
                },
            ),
            Reply::Failed(ReadError::Damaged {
                format: Format::Xls,
                detail: "x".into(),
            }),
            Reply::Failed(ReadError::NoSuchSheet {
                name: "A".into(),
                available: "'B'".into(),
            }),
        ];
        let mut r = replies(&sent);
        for reply in &sent {
            assert_eq!(&r.reply().unwrap(), reply);
        }
        assert!(matches!(r.reply(), Err(Fault::Io(_))));
    }

    #[test]
    fn whole_numbers_side_by_side_go_as_one_run_and_the_rest_as_cells() {
        let view = |col, value| CellView {
            row: 2,
            col,
            value: Some(CellValueRef::Number(value)),
            format: CellFormat::default(),
        };
        let mut w = Writer::new(Vec::new());
        let mut sender = CellSender::new(&mut w);
        for cell in [view(4, 1.0), view(5, 64.0), view(6, 2.5), view(7, 3.0)] {
            sender.cell(&cell).unwrap();
        }
        sender.flush().unwrap();
        let mut r = Reader::new(&w.out[..]);
        let Reply::Run {
            row,
            col,
            format,
            values,
        } = r.reply().unwrap()
        else {
            panic!("a run first")
        };
        let mut run = Vec::new();
        numbers(values, &mut run).unwrap();
        assert_eq!(
            (row, col, format, run),
            (2, 4, CellFormat::default(), vec![1, 64])
        );
        for (col, value) in [(6, 2.5), (7, 3.0)] {
            assert_eq!(r.reply().unwrap(), Reply::Cell(view(col, value)));
        }
        assert!(r.reply().is_err());
    }

    #[test]
    fn runs_past_the_last_column_or_the_largest_kept_number_are_a_breach() {
        let run = |col: u32, n: usize, v: u32| {
            let values: Vec<u8> = (0..n).flat_map(|_| v.to_le_bytes()).collect();
            let format = CellFormat::default();
            let sent = [Reply::Run {
                row: 0,
                col,
                format,
                values: &values,
            }];
            let mut r = replies(&sent);
            let Reply::Run { values, .. } = r.reply()? else {
                return Ok(false);
            };
            numbers(values, &mut Vec::new()).map(|()| true)
        };
        assert!(run(u32::MAX - 1, 2, 5).unwrap());
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
        let len = u32::MAX.to_le_bytes();
        let mut huge = Reader::new(&len[..]);
        assert!(matches!(huge.reply(), Err(Fault::Breach(_))));
        assert_eq!(huge.frame.capacity(), 0);
        let sheets = vec![
            SheetInfo {
                name: "S".into(),
                hidden: false
            };
            MAX_SHEETS + 1
        ];
        let format = Format::Xlsx;
        let mut r = replies(&[Reply::Opened { format, sheets }]);
        assert!(matches!(r.reply(), Err(Fault::Breach(_))));
        // A frame cut short, and one that does not decode.
        assert!(matches!(
            Reader::new(&[9u8, 0, 0, 0, 1][..]).reply(),
            Err(Fault::Io(_))
        ));
        assert!(matches!(
            Reader::new(&[1u8, 0, 0, 0, 99][..]).reply(),
            Err(Fault::Breach(_))
        ));
    }
}
