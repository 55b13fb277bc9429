//! CSV and TSV: delimited text read as one sheet, the way a spreadsheet opens it; and plain
//! text, one cell a line down column A, the way a spreadsheet pastes it.
//!
//! **Dialect.** The delimiter is sniffed from the first lines ([`sniff_dialect`]): tab,
//! semicolon (what spreadsheets in countries with a decimal comma export) or comma, whichever
//! splits most lines into the same number of fields (at least two), in that order of preference
//! on a tie; a file with one column needs no delimiter. Fields may be quoted (`"a, b"`, `""`
//! for a quote), a UTF-8 byte order mark is skipped, and lines end in LF, CRLF or CR.
//!
//! **Cells.** Line k is row k, field j column j, as a spreadsheet places them: blank lines stay
//! blank rows (they separate the tours of `generate -o t.csv --tours 3`), and a quoted field
//! holding line breaks takes one row. A field that is a plain number (`17`, `-3`, `2.5`,
//! `1e3`, no spaces) is a number, as a spreadsheet's import makes it; any other field is text
//! exactly as written (so `" 17 "` is a number typed as text, read like one in xlsx), and a
//! blank or all-space field is an empty cell.
//!
//! **Bounds.** The parser is `csv-core`, the `csv` crate's own, driven one field at a time
//! into a fixed buffer: no row or field is ever held whole. Every field, empty ones included,
//! counts against the sheet's cell caps, text fields' bytes against its text cap, a text field
//! keeps at most [`MAX_TEXT_KEPT`] bytes, and at most
//! [`MAX_TEXT_INPUT_BYTES`] are read.

use std::io::{Read, Seek, SeekFrom};

use csv_core::{ReadFieldResult, Reader, ReaderBuilder};

use super::budget::{SheetBudget, MAX_TEXT_KEPT};
use super::{CellValueRef, ReadError};

/// The most bytes of a text input read (CSV, TSV, a text grid): the cell caps stop real
/// files far earlier; this bounds the time a file of blank lines can take.
pub const MAX_TEXT_INPUT_BYTES: u64 = 512 * 1024 * 1024;

/// How a delimited file is split.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dialect {
    /// `,`, `;` or tab.
    pub delimiter: u8,
}

impl Dialect {
    /// Comma-separated.
    pub const CSV: Dialect = Dialect { delimiter: b',' };
    /// Tab-separated.
    pub const TSV: Dialect = Dialect { delimiter: b'\t' };

    fn reader(self) -> Reader {
        ReaderBuilder::new().delimiter(self.delimiter).build()
    }
}

/// How many lines the sniffer looks at.
const SNIFF_RECORDS: usize = 200;

/// The delimiter that splits the lines of `sample` (the start of a file) into the same number
/// of fields most often, with the share of lines it splits so; `None` when no delimiter splits
/// most lines into two fields or more.
///
/// ```
/// use knights_tour::workbook::read::delimited::{sniff_dialect, Dialect};
/// assert_eq!(sniff_dialect(b"1;2;3\n4;5;6\n").unwrap().0.delimiter, b';');
/// assert_eq!(sniff_dialect(b"move\tsquare\n1\te4\n").unwrap().0, Dialect::TSV);
/// assert_eq!(sniff_dialect(b"\"Tour\",,\n,1,2\n").unwrap().0, Dialect::CSV);
/// assert_eq!(sniff_dialect(b"This is prose, not a table.\nIt has no fields.\n"), None);
/// ```
pub fn sniff_dialect(sample: &[u8]) -> Option<(Dialect, f64)> {
    let mut best: Option<(Dialect, f64)> = None;
    for delimiter in [b'\t', b';', b','] {
        let dialect = Dialect { delimiter };
        let counts = field_counts(sample, dialect);
        let Some((mode, share)) = mode_share(&counts) else {
            continue;
        };
        // Two fields or more on at least half of the lines; the first delimiter in order of
        // preference keeps a tie.
        if mode >= 2 && share >= 0.5 && best.is_none_or(|(_, s)| share > s) {
            best = Some((dialect, share));
        }
    }
    best
}

/// The number of fields of each of the first records of `sample` (a last line cut short by
/// the sample's end is left out).
fn field_counts(sample: &[u8], dialect: Dialect) -> Vec<u32> {
    let sample = match sample.iter().rposition(|&b| b == b'\n' || b == b'\r') {
        Some(end) => &sample[..=end],
        None => sample,
    };
    let mut reader = dialect.reader();
    let mut scratch = [0u8; 1024];
    let (mut input, mut counts, mut fields) = (sample, Vec::new(), 0u32);
    while counts.len() < SNIFF_RECORDS {
        let (result, nin, _) = reader.read_field(input, &mut scratch);
        input = &input[nin..];
        match result {
            ReadFieldResult::Field { record_end } => {
                fields += 1;
                if record_end {
                    counts.push(fields);
                    fields = 0;
                }
            }
            ReadFieldResult::End => break,
            ReadFieldResult::InputEmpty | ReadFieldResult::OutputFull => {}
        }
    }
    counts
}

/// The most frequent value (the smaller on a tie: two lines of prose, one with a comma, are
/// not a table) and the share of `counts` equal to it.
fn mode_share(counts: &[u32]) -> Option<(u32, f64)> {
    let mut sorted = counts.to_vec();
    sorted.sort_unstable();
    let mut best: Option<(u32, usize)> = None;
    for run in sorted.chunk_by(|a, b| a == b) {
        if best.is_none_or(|(_, n)| run.len() > n) {
            best = Some((run[0], run.len()));
        }
    }
    best.map(|(mode, n)| (mode, n as f64 / counts.len() as f64))
}

/// Read a delimited file from its start into `budget`.
pub(super) fn read<R: Read + Seek>(
    reader: &mut R,
    dialect: Dialect,
    budget: &mut SheetBudget<'_>,
) -> Result<(), ReadError> {
    reader
        .seek(SeekFrom::Start(0))
        .map_err(|e| ReadError::Io(e.to_string()))?;
    let mut source = reader.take(MAX_TEXT_INPUT_BYTES + 1);
    let mut parser = dialect.reader();
    let mut buf = vec![0u8; 64 * 1024];
    let (mut start, mut end, mut total) = (0usize, 0usize, 0u64);
    let mut scratch = [0u8; 4096];
    let mut field = Field::default();
    let mut gap = Gap::default();
    // Blank lines before the first record are blank rows too.
    gap.open(None);
    let (mut row, mut col) = (0u64, 0u64);
    let mut first_read = true;
    loop {
        if start == end {
            end = source
                .read(&mut buf)
                .map_err(|e| ReadError::Io(e.to_string()))?;
            start = 0;
            total += end as u64;
            if total > MAX_TEXT_INPUT_BYTES {
                return Err(ReadError::TooLarge {
                    detail: format!(
                        "the file holds more than {} MB of text",
                        MAX_TEXT_INPUT_BYTES / (1024 * 1024)
                    ),
                });
            }
            if first_read && buf[..end].starts_with(b"\xEF\xBB\xBF") {
                start = 3;
            }
            first_read = false;
        }
        let input = &buf[start..end];
        let (result, nin, nout) = parser.read_field(input, &mut scratch);
        if gap.open {
            gap.scan(&input[..nin]);
        }
        start += nin;
        field.take(&scratch[..nout]);
        match result {
            ReadFieldResult::InputEmpty | ReadFieldResult::OutputFull => {}
            ReadFieldResult::Field { record_end } => {
                if gap.open {
                    row = row.saturating_add(gap.close());
                }
                budget.scan()?;
                field.keep(budget, row, col)?;
                col += 1;
                if record_end {
                    row += 1;
                    col = 0;
                    gap.open(buf[..start].last().copied());
                }
            }
            ReadFieldResult::End => return Ok(()),
        }
    }
}

/// The field being read: its first bytes and its length.
#[derive(Default)]
struct Field {
    kept: Vec<u8>,
    len: u64,
}

impl Field {
    fn take(&mut self, bytes: &[u8]) {
        self.len += bytes.len() as u64;
        let room = (MAX_TEXT_KEPT + 16).saturating_sub(self.kept.len());
        self.kept.extend_from_slice(&bytes[..bytes.len().min(room)]);
    }

    /// Keep the field as the cell at `(row, col)` and start the next one.
    fn keep(&mut self, budget: &mut SheetBudget<'_>, row: u64, col: u64) -> Result<(), ReadError> {
        let mut text = String::from_utf8_lossy(&self.kept).into_owned();
        if self.len > self.kept.len() as u64 {
            // Cut: longer than a cell keeps, so the sheet marks it cut (never a number).
            while text.len() <= MAX_TEXT_KEPT {
                text.push(' ');
            }
        }
        let value = token(&text);
        if matches!(value, CellValueRef::Text(t) if !t.trim().is_empty()) {
            budget.text(usize::try_from(self.len).unwrap_or(usize::MAX))?;
        }
        self.kept.clear();
        self.len = 0;
        budget.push_at(row, col, value)
    }
}

/// A field or line as a cell's value: a plain number ([`plain_number`]), else its text.
pub(super) fn token(text: &str) -> CellValueRef<'_> {
    plain_number(text).map_or(CellValueRef::Text(text), CellValueRef::Number)
}

/// A number as a spreadsheet's import reads one: an optional sign, digits with an optional
/// decimal point, an optional exponent; nothing else (no spaces, no `inf`, no thousands
/// separators).
///
/// ```
/// use knights_tour::workbook::read::delimited::plain_number;
/// assert_eq!(plain_number("17"), Some(17.0));
/// assert_eq!(plain_number("-2.5e1"), Some(-25.0));
/// assert_eq!(plain_number(" 17"), None);
/// assert_eq!(plain_number("inf"), None);
/// assert_eq!(plain_number("1,5"), None);
/// ```
pub fn plain_number(text: &str) -> Option<f64> {
    let b = text.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let digits = |i: &mut usize| {
        let from = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - from
    };
    let mut n = digits(&mut i);
    if b.get(i) == Some(&b'.') {
        i += 1;
        n += digits(&mut i);
    }
    if n == 0 {
        return None;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return None;
        }
    }
    if i != b.len() {
        return None;
    }
    text.parse().ok().filter(|f: &f64| f.is_finite())
}

/// The longest line of plain text read (a 1000x1000 board as one line of JSON is about 5 MB;
/// a cell keeps the first 32 KB of it).
pub const MAX_LINE_BYTES: u64 = 16 * 1024 * 1024;

/// Read plain text from its start into `budget`: line k (LF, CRLF or CR ended) is the cell
/// A(k+1), as a spreadsheet pastes text where no TAB splits a line; a blank line is a blank
/// row, a UTF-8 byte order mark is skipped, a line that is a plain number is a number. A line
/// keeps what a cell keeps ([`MAX_TEXT_KEPT`](super::budget::MAX_TEXT_KEPT) bytes, as Excel
/// cuts a pasted line at 32,767 characters); the verifier's text layer reads it.
pub(super) fn read_lines<R: Read + Seek>(
    reader: &mut R,
    budget: &mut SheetBudget<'_>,
) -> Result<(), ReadError> {
    let mut row = 0u64;
    for_each_line(reader, |line| {
        // A lone CR ends a line too (old Mac files).
        for part in line.split('\r') {
            budget.scan()?;
            let value = token(part);
            if matches!(value, CellValueRef::Text(t) if !t.trim().is_empty()) {
                budget.text(part.len())?;
            }
            budget.push_at(row, 0, value)?;
            row += 1;
        }
        Ok(())
    })
}

/// Call `each` with every line of text from the start of `reader`, without its line break
/// (LF or CRLF) and the first without a byte order mark; refuses a line longer than
/// [`MAX_LINE_BYTES`] or more than [`MAX_TEXT_INPUT_BYTES`] in all.
pub(super) fn for_each_line<R: Read + Seek>(
    reader: &mut R,
    mut each: impl FnMut(&str) -> Result<(), ReadError>,
) -> Result<(), ReadError> {
    use std::io::BufRead;
    let io = |e: std::io::Error| ReadError::Io(e.to_string());
    reader.seek(SeekFrom::Start(0)).map_err(io)?;
    let mut source = std::io::BufReader::new(reader.take(MAX_TEXT_INPUT_BYTES + 1));
    let (mut line, mut total, mut first) = (Vec::new(), 0u64, true);
    loop {
        line.clear();
        let n = (&mut source)
            .take(MAX_LINE_BYTES + 1)
            .read_until(b'\n', &mut line)
            .map_err(io)?;
        if n == 0 {
            return Ok(());
        }
        total += n as u64;
        if line.len() as u64 > MAX_LINE_BYTES || total > MAX_TEXT_INPUT_BYTES {
            return Err(ReadError::TooLarge {
                detail: format!(
                    "the file holds a line longer than {} MB, or more than {} MB",
                    MAX_LINE_BYTES / (1024 * 1024),
                    MAX_TEXT_INPUT_BYTES / (1024 * 1024)
                ),
            });
        }
        let text = String::from_utf8_lossy(&line);
        let text = if first {
            text.trim_start_matches('\u{feff}')
        } else {
            &text
        };
        first = false;
        each(text.trim_end_matches(['\n', '\r']))?;
    }
}

/// The blank lines between two records: csv-core skips them, a spreadsheet keeps them as
/// empty rows. Counted from the bytes consumed after a record ends up to the next field.
#[derive(Default)]
struct Gap {
    open: bool,
    /// The last line-break byte seen was `\r` (a `\n` right after it ends the same line).
    after_cr: bool,
    breaks: u64,
    done: bool,
}

impl Gap {
    /// A record ended; `last` is the last byte consumed (its terminator, if consumed).
    fn open(&mut self, last: Option<u8>) {
        *self = Gap {
            open: true,
            after_cr: last == Some(b'\r'),
            breaks: 0,
            done: false,
        };
    }

    fn scan(&mut self, consumed: &[u8]) {
        for &b in consumed {
            if self.done {
                return;
            }
            match b {
                b'\n' if self.after_cr => self.after_cr = false,
                b'\n' => self.breaks += 1,
                b'\r' => {
                    self.breaks += 1;
                    self.after_cr = true;
                }
                _ => self.done = true,
            }
        }
    }

    /// The next record starts: the blank lines skipped before it.
    fn close(&mut self) -> u64 {
        self.open = false;
        self.breaks
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workbook::read::{CellValueRef, SheetCells};
    use std::io::Cursor;

    fn cells(text: &[u8], dialect: Dialect) -> SheetCells {
        let mut budget = SheetBudget::new();
        read(&mut Cursor::new(text), dialect, &mut budget).unwrap();
        budget.finish(false)
    }

    fn at(sheet: &SheetCells, row: u32, col: u32) -> Option<CellValueRef<'_>> {
        sheet.find(row, col).and_then(|c| c.value)
    }

    #[test]
    fn blank_lines_stay_blank_rows_and_quoted_breaks_take_one_row() {
        for eol in ["\n", "\r\n", "\r"] {
            let text = ["\u{feff}a,b", "", "", "1,\"x", "y\"", "", "2, 3 "].join(eol);
            let s = cells(text.as_bytes(), Dialect::CSV);
            assert_eq!(at(&s, 0, 0), Some(CellValueRef::Text("a")), "{eol:?}");
            assert_eq!(at(&s, 3, 0), Some(CellValueRef::Number(1.0)), "{eol:?}");
            let quoted = at(&s, 3, 1).unwrap();
            assert!(matches!(quoted, CellValueRef::Text(t) if t.starts_with('x')));
            assert_eq!(at(&s, 5, 0), Some(CellValueRef::Number(2.0)), "{eol:?}");
            assert_eq!(at(&s, 5, 1), Some(CellValueRef::Text(" 3 ")), "{eol:?}");
            assert_eq!(s.cells().len(), 6, "{eol:?}");
        }
    }

    #[test]
    fn a_long_field_is_cut_and_counted() {
        let long = "7".repeat(100_000);
        let s = cells(
            format!("{long};1\n").as_bytes(),
            Dialect { delimiter: b';' },
        );
        let CellValueRef::Text(t) = at(&s, 0, 0).unwrap() else {
            panic!("a cut field is text")
        };
        assert!(t.ends_with('…') && t.len() < MAX_TEXT_KEPT + 16);
        assert_eq!(at(&s, 0, 1), Some(CellValueRef::Number(1.0)));
    }

    #[test]
    fn plain_text_is_a_cell_a_line() {
        let mut budget = SheetBudget::new();
        let text = "\u{feff}Solution 3\r\n 1 10 5\r\n\r\n17\rlast";
        read_lines(&mut Cursor::new(text.as_bytes()), &mut budget).unwrap();
        let s = budget.finish(false);
        assert_eq!(at(&s, 0, 0), Some(CellValueRef::Text("Solution 3")));
        assert_eq!(at(&s, 1, 0), Some(CellValueRef::Text(" 1 10 5")));
        assert_eq!(at(&s, 2, 0), None);
        assert_eq!(at(&s, 3, 0), Some(CellValueRef::Number(17.0)));
        assert_eq!(at(&s, 4, 0), Some(CellValueRef::Text("last")));
    }

    #[test]
    fn a_row_of_millions_of_empty_fields_is_refused_by_the_cell_cap() {
        let commas = vec![b','; 9 << 20];
        let mut budget = SheetBudget::new();
        let r = read(&mut Cursor::new(commas), Dialect::CSV, &mut budget);
        assert!(matches!(r, Err(ReadError::TooLarge { .. })), "{r:?}");
    }
}
