//! `generate`'s own text outputs read back as one sheet: the JSON tour documents (`-o t.json`)
//! and the text grids (`-o t.txt`). (Its CSV is plain delimited text, [`super::delimited`].)
//!
//! Both become the sheet `generate` would have written as a workbook, labels included: each
//! tour a grid of move numbers with its rank numbers in column A and its file letters in the
//! row under it, tours one blank row apart. The labels give a failed attempt its whole board,
//! blank edges included, so the verdict is the one the file claims.
//!
//! - **Text grid**: a line `8 | 1 . 3 ...` is a rank (its number in column A, `.` an unvisited
//!   square); a line of dashes is the rule under a board and takes no row; any other line is
//!   split on spaces (an indented one from column B, so the file letters sit under their
//!   files), except a puzzle's title or its answer's (one cell); a blank line is a blank row.
//! - **JSON**: one tour object or a list of them; `board` (`rows`, `cols`) and `path` (squares
//!   in move order) are read, every other field is left alone (they are claims; the verdict
//!   comes from the path). `knights-tour pairs`' document (`board`, then `pairs`) gives the
//!   `tour` of every pair that has one; a `puzzle` document's puzzles become, each, its title,
//!   its board with the numbers given, and its answer as a tour. A path that a grid cannot
//!   hold (a square off its board, or visited
//!   twice, as a person's edit may make it) is written as a list of squares down column A
//!   instead, so that the verifier names the problem.
//!
//! Bounds: lines and JSON strings are read through a byte cap ([`MAX_LINE_BYTES`],
//! [`MAX_JSON_BYTES`]) and every cell counts against the sheet's caps.

use std::fmt;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

use super::budget::{keep_text, SheetBudget};
use super::delimited::{for_each_line, plain_number};
use super::{CellValue, ReadError, SheetCell};
use crate::board::{file_letters, parse_file_letters};

/// The longest line of a text grid read (a 10,000-column board's line is 60 KB), as for
/// plain text.
pub use super::delimited::MAX_LINE_BYTES;

/// The most bytes of a JSON document read: a 2000x2000 tour is 40 MB.
pub const MAX_JSON_BYTES: u64 = 64 * 1024 * 1024;

/// Whether `head` starts like `generate`'s text grid: its first non-blank line is a rank,
/// `  8 | ...`.
///
/// ```
/// use knights_tour::workbook::read::generated::looks_like_text_grid;
/// assert!(looks_like_text_grid(b"5 | 21 10  5 12 23\n4 |  4 13 22 17  6\n"));
/// assert!(!looks_like_text_grid(b"21,10,5\n"));
/// ```
pub fn looks_like_text_grid(head: &[u8]) -> bool {
    let text = String::from_utf8_lossy(&head[..head.len().min(64 * 1024)]);
    let text = text.trim_start_matches('\u{feff}');
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    match lines.next() {
        Some(l) if rank_line(l).is_some() => true,
        // A puzzle's grid comes under its title.
        Some(l) if l.starts_with(crate::workbook::write::names::PUZZLE_TITLE) => {
            lines.next().is_some_and(|l| rank_line(l).is_some())
        }
        _ => false,
    }
}

/// `  8 | 1 . 3` -> (8, "1 . 3").
fn rank_line(line: &str) -> Option<(u32, &str)> {
    let t = line.trim_start();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let rest = t[digits..].strip_prefix(" |")?;
    if digits == 0 || !(rest.is_empty() || rest.starts_with(' ')) {
        return None;
    }
    Some((t[..digits].parse().ok()?, rest))
}

/// Whether `head` starts like `generate`'s JSON: an object, or a list of objects (a list of
/// numbers or of lists is an array of rows, read as text).
///
/// ```
/// use knights_tour::workbook::read::generated::looks_like_json;
/// assert!(looks_like_json(b"{\"board\": {\"rows\": 5}}"));
/// assert!(looks_like_json(b"[\n  {\"board\": {}}]"));
/// assert!(!looks_like_json(b"[[11,8,5,0],[0,3,10,7]]"));
/// assert!(!looks_like_json(b"{{1, 16, 31}, {30, 39, 2}}"));
/// ```
pub fn looks_like_json(head: &[u8]) -> bool {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let mut rest = head.iter().filter(|b| !b.is_ascii_whitespace());
    // An object opens with a key (or closes at once); a C array `{{1, 2}, ...}` does not.
    let object = |next: Option<&u8>| matches!(next, Some(b'"' | b'}') | None);
    match rest.next() {
        Some(b'{') => object(rest.next()),
        Some(b'[') => match rest.next() {
            Some(b'{') => object(rest.next()),
            next => matches!(next, Some(b']') | None),
        },
        _ => false,
    }
}

/// Places cells row by row into the sheet.
struct Sheet<'b, 'r> {
    budget: &'b mut SheetBudget<'r>,
    row: u64,
}

impl Sheet<'_, '_> {
    fn push(&mut self, row: u64, col: u64, value: CellValue) -> Result<(), ReadError> {
        self.budget.scan()?;
        let position = |i: u64, what: &str| {
            u32::try_from(i).map_err(|_| ReadError::TooLarge {
                detail: format!("the file has a {what} beyond {}", u32::MAX),
            })
        };
        let (row, col) = (position(row, "row")?, position(col, "column")?);
        match value {
            CellValue::Number(n) => self.budget.push_number(row, col, n, Default::default()),
            value => {
                if let CellValue::Text(t) = &value {
                    self.budget.text(t.len())?;
                }
                self.budget.push(SheetCell {
                    row,
                    col,
                    value: Some(value),
                    format: Default::default(),
                })
            }
        }
    }

    fn token(&mut self, row: u64, col: u64, token: &str) -> Result<(), ReadError> {
        let value = match plain_number(token) {
            Some(n) => CellValue::Number(n),
            None => CellValue::Text(keep_text(token)),
        };
        self.push(row, col, value)
    }

    /// A tour as a labelled grid at the current row: ranks in column A, move numbers from
    /// column B, file letters under it; then a blank row.
    fn grid(&mut self, rows: u32, cols: u32, numbering: &[u32]) -> Result<(), ReadError> {
        for r in 0..rows {
            let row = self.row + u64::from(r);
            self.push(row, 0, CellValue::Number(f64::from(rows - r)))?;
            let line = &numbering[(r * cols) as usize..((r + 1) * cols) as usize];
            for (c, &n) in line.iter().enumerate() {
                if n > 0 {
                    self.push(row, c as u64 + 1, CellValue::Number(f64::from(n)))?;
                }
            }
        }
        let letters = self.row + u64::from(rows);
        for c in 0..cols {
            self.push(
                letters,
                u64::from(c) + 1,
                CellValue::Text(file_letters(c).into()),
            )?;
        }
        self.row = letters + 2;
        Ok(())
    }

    /// A path as a list of squares down column A; then a blank row.
    fn list(&mut self, path: &[Square]) -> Result<(), ReadError> {
        for (i, sq) in path.iter().enumerate() {
            let name = format!("{}{}", file_letters(sq.file), sq.rank);
            self.push(self.row + i as u64, 0, CellValue::Text(name.into()))?;
        }
        self.row += path.len() as u64 + 1;
        Ok(())
    }
}

/// Read a text grid from the start of `reader` into `budget`.
pub(super) fn read_text_grid<R: Read + Seek>(
    reader: &mut R,
    budget: &mut SheetBudget<'_>,
) -> Result<(), ReadError> {
    let mut sheet = Sheet { budget, row: 0 };
    for_each_line(reader, |text| {
        let row = sheet.row;
        if let Some((rank, cells)) = rank_line(text) {
            sheet.push(row, 0, CellValue::Number(f64::from(rank)))?;
            for (c, token) in cells.split_whitespace().enumerate() {
                if token != "." {
                    sheet.token(row, c as u64 + 1, token)?;
                }
            }
        } else if text.starts_with(crate::workbook::write::names::PUZZLE_TITLE)
            || text.starts_with(crate::workbook::write::names::PUZZLE_ANSWER_TITLE)
        {
            // A puzzle's title, or its answer's, is one cell as in the workbook: its numbers
            // are no moves.
            sheet.push(row, 0, CellValue::Text(keep_text(text)))?;
        } else if !text.trim().is_empty() && text.trim().bytes().all(|b| b == b'-') {
            // The rule under a board takes no row: the file letters sit under it.
            return Ok(());
        } else {
            let from = u64::from(text.starts_with(char::is_whitespace));
            for (c, token) in text.split_whitespace().enumerate() {
                sheet.token(row, c as u64 + from, token)?;
            }
        }
        sheet.row += 1;
        Ok(())
    })
}

/// A square of a JSON path: file from 0, rank from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Square {
    file: u32,
    rank: u32,
}

impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Square;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a square such as \"e4\"")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Square, E> {
                let letters = s.bytes().take_while(u8::is_ascii_alphabetic).count();
                let file = parse_file_letters(&s[..letters]).and_then(|f| u32::try_from(f).ok());
                let rank = s[letters..].parse::<u32>().ok().filter(|&r| r >= 1);
                match (file, rank) {
                    (Some(file), Some(rank)) => Ok(Square { file, rank }),
                    _ => Err(E::custom(format!("'{}' is not a square", keep_text(s)))),
                }
            }
        }
        d.deserialize_str(V)
    }
}

/// The fields of a tour document that are read.
#[derive(Deserialize)]
struct Tour {
    board: Dims,
    path: Vec<Square>,
}

/// The fields of one puzzle that are read: the numbers given and the answer.
#[derive(Deserialize)]
struct PuzzleDoc {
    given: Vec<Given>,
    solution: Tour,
}

#[derive(Deserialize)]
struct Given {
    #[serde(rename = "move")]
    move_number: u32,
    square: Square,
}

#[derive(Clone, Copy, Deserialize)]
struct Dims {
    rows: u32,
    cols: u32,
}

/// Lays out each tour as it is parsed, so a list of tours is never held whole.
struct Tours<'s, 'b, 'r> {
    sheet: &'s mut Sheet<'b, 'r>,
    /// Tours laid out so far.
    count: usize,
    /// Why laying out stopped (the parse error then only carries it out).
    stopped: Option<ReadError>,
}

impl Tours<'_, '_, '_> {
    fn lay_out(&mut self, tour: Tour) -> Result<(), ReadError> {
        self.count += 1;
        let (rows, cols) = (tour.board.rows, tour.board.cols);
        let squares = u64::from(rows) * u64::from(cols);
        if rows == 0 || cols == 0 || squares > super::budget::MAX_SHEET_CELLS as u64 {
            return Err(ReadError::TooLarge {
                detail: format!(
                    "tour {} claims a {rows}x{cols} board, which no sheet this tool checks can hold",
                    self.count
                ),
            });
        }
        let mut numbering = vec![0u32; squares as usize];
        let mut fits = true;
        for (i, sq) in tour.path.iter().enumerate() {
            let on_board = sq.file < cols && sq.rank <= rows;
            let at = (u64::from(rows - sq.rank.min(rows)) * u64::from(cols)) as usize
                + sq.file.min(cols - 1) as usize;
            if !on_board || numbering[at] != 0 || i as u64 >= squares {
                fits = false;
                break;
            }
            numbering[at] = i as u32 + 1;
        }
        if fits {
            self.sheet.grid(rows, cols, &numbering)
        } else {
            self.sheet.list(&tour.path)
        }
    }

    /// Puzzle `number`: its title, its board with the numbers given, then its answer.
    fn puzzle(&mut self, number: usize, p: PuzzleDoc) -> Result<(), ReadError> {
        let board = &p.solution.board;
        let (rows, cols) = (board.rows, board.cols);
        let squares = u64::from(rows) * u64::from(cols);
        if rows == 0 || cols == 0 || squares > super::budget::MAX_SHEET_CELLS as u64 {
            return Err(ReadError::TooLarge {
                detail: format!("puzzle {number} claims a {rows}x{cols} board"),
            });
        }
        let title = format!("{} {number}", crate::workbook::write::names::PUZZLE_TITLE);
        self.sheet
            .push(self.sheet.row, 0, CellValue::Text(title.into()))?;
        self.sheet.row += 1;
        let mut given = vec![0u32; squares as usize];
        for g in &p.given {
            if g.square.file < cols && (1..=rows).contains(&g.square.rank) {
                let at = (rows - g.square.rank) as usize * cols as usize + g.square.file as usize;
                given[at] = g.move_number;
            }
        }
        self.sheet.grid(rows, cols, &given)?;
        self.lay_out(p.solution)
    }

    fn take<E: de::Error>(&mut self, tour: Tour) -> Result<(), E> {
        self.lay_out(tour).map_err(|e| {
            let message = e.to_string();
            self.stopped = Some(e);
            E::custom(message)
        })
    }
}

impl<'de> DeserializeSeed<'de> for &mut Tours<'_, '_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for &mut Tours<'_, '_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a tour as `knights-tour generate` writes it, or a list of them")
    }

    /// A tour (`board` and `path`), `pairs`' document (`board`, then `pairs` whose found
    /// entries carry a `tour`) or `puzzle`'s (`puzzles`): every tour in it laid out as it is
    /// parsed.
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let (mut board, mut path, mut many) = (None, None, false);
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            match key.as_ref() {
                "board" => board = Some(map.next_value::<Dims>()?),
                "path" => path = Some(map.next_value::<Vec<Square>>()?),
                "pairs" => {
                    let Some(board) = board else {
                        return Err(de::Error::custom("`pairs` comes before `board`"));
                    };
                    map.next_value_seed(PairTours { tours: self, board })?;
                    many = true;
                }
                "puzzles" => {
                    let puzzles = map.next_value::<Vec<PuzzleDoc>>()?;
                    for (i, p) in puzzles.into_iter().enumerate() {
                        self.puzzle(i + 1, p).map_err(|e| {
                            let message = e.to_string();
                            self.stopped = Some(e);
                            <A::Error as de::Error>::custom(message)
                        })?;
                    }
                    many = true;
                }
                _ => {
                    map.next_value::<de::IgnoredAny>()?;
                }
            }
        }
        match (board, path) {
            (Some(board), Some(path)) => self.take(Tour { board, path }),
            _ if many => Ok(()),
            (None, _) => Err(de::Error::missing_field("board")),
            (Some(_), None) => Err(de::Error::missing_field("path")),
        }
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(tour) = seq.next_element::<Tour>()? {
            self.take(tour)?;
        }
        Ok(())
    }
}

/// The `pairs` list of `knights-tour pairs`' JSON: each entry with a `tour` is a tour of
/// `board` (the others say why there is none, and lay out nothing).
struct PairTours<'t, 's, 'b, 'r> {
    tours: &'t mut Tours<'s, 'b, 'r>,
    board: Dims,
}

/// One entry of the `pairs` list; only its tour is read.
#[derive(Deserialize)]
struct Pair {
    tour: Option<Vec<Square>>,
}

impl<'de> DeserializeSeed<'de> for PairTours<'_, '_, '_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for PairTours<'_, '_, '_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the list of pairs `knights-tour pairs` writes")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(pair) = seq.next_element::<Pair>()? {
            if let Some(path) = pair.tour {
                self.tours.take(Tour {
                    board: self.board,
                    path,
                })?;
            }
        }
        Ok(())
    }
}

/// Read a JSON tour document from the start of `reader` into `budget`.
pub(super) fn read_json<R: Read + Seek>(
    reader: &mut R,
    budget: &mut SheetBudget<'_>,
) -> Result<(), ReadError> {
    reader
        .seek(SeekFrom::Start(0))
        .map_err(|e| ReadError::Io(e.to_string()))?;
    let mut source = BufReader::new(ByteCap {
        inner: reader,
        left: MAX_JSON_BYTES,
    });
    // serde_json does not skip a byte order mark.
    if source
        .fill_buf()
        .is_ok_and(|b| b.starts_with(b"\xEF\xBB\xBF"))
    {
        source.consume(3);
    }
    let mut sheet = Sheet { budget, row: 0 };
    let mut tours = Tours {
        sheet: &mut sheet,
        count: 0,
        stopped: None,
    };
    let mut de = serde_json::Deserializer::from_reader(source);
    let parsed = (&mut tours).deserialize(&mut de).and_then(|()| de.end());
    if let Some(e) = tours.stopped.take() {
        return Err(e);
    }
    parsed.map_err(|e| {
        if e.io_error_kind() == Some(std::io::ErrorKind::FileTooLarge) {
            ReadError::TooLarge {
                detail: format!(
                    "the JSON holds more than {} MB",
                    MAX_JSON_BYTES / (1024 * 1024)
                ),
            }
        } else {
            ReadError::NotATourFile(format!(
                "JSON that is not a tour as `knights-tour generate` writes it ({e})"
            ))
        }
    })
}

/// A reader that fails with [`std::io::ErrorKind::FileTooLarge`] past `left` bytes.
struct ByteCap<R> {
    inner: R,
    left: u64,
}

impl<R: Read> Read for ByteCap<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n as u64 > self.left {
            return Err(std::io::ErrorKind::FileTooLarge.into());
        }
        self.left -= n as u64;
        Ok(n)
    }
}
