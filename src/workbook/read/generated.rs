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
//!   (The verifier's text layer reads printed grids too, but not a 1x1 board's frame.)
//! - **JSON**: one tour object or a list of them, read by `board` (`rows`, `cols`) and `path`
//!   (squares in move order); every other field is a claim and left alone. `knights-tour
//!   pairs`' document gives the `tour` of every pair that has one; a `puzzle` document's
//!   puzzles become, each, its title, its board with the numbers given, and its answer as a
//!   tour. A path that a grid cannot hold (a square off its board, or visited twice, as a
//!   person's edit may make it) is written as a list of squares down column A instead, so
//!   that the verifier names the problem. The document is parsed whole (a 2000x2000 tour
//!   takes about as much memory as its cells), from at most [`MAX_JSON_BYTES`].
//!
//! Lines are read through a byte cap ([`MAX_LINE_BYTES`]), and every cell counts against the
//! sheet's caps.

use std::fmt;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};

use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;

use super::budget::{keep_text, SheetBudget};
use super::delimited::{for_each_line, token};
use super::{CellFormat, CellValueRef, CellView, ReadError};
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

/// Places cells row by row into the sheet (the cell caps bound the rows: every row but the
/// blank ones between tours holds a cell).
struct Sheet<'b, 'r> {
    budget: &'b mut SheetBudget<'r>,
    row: u32,
}

impl Sheet<'_, '_> {
    fn push(&mut self, row: u32, col: u32, value: CellValueRef<'_>) -> Result<(), ReadError> {
        let format = CellFormat::default();
        let value = Some(value);
        (self.budget).push_view(&CellView {
            row,
            col,
            value,
            format,
        })
    }

    /// A tour as a labelled grid at the current row: ranks in column A, move numbers from
    /// column B, file letters under it; then a blank row.
    fn grid(&mut self, rows: u32, cols: u32, numbering: &[u32]) -> Result<(), ReadError> {
        for (r, line) in numbering.chunks(cols as usize).enumerate() {
            let row = self.row + r as u32;
            self.push(row, 0, CellValueRef::Number(f64::from(rows - r as u32)))?;
            for (c, &n) in line.iter().enumerate().filter(|(_, &n)| n > 0) {
                self.push(row, c as u32 + 1, CellValueRef::Number(f64::from(n)))?;
            }
        }
        self.row += rows;
        for c in 0..cols {
            self.push(self.row, c + 1, CellValueRef::Text(&file_letters(c)))?;
        }
        self.row += 2;
        Ok(())
    }

    /// A path as a list of squares down column A; then a blank row.
    fn list(&mut self, path: &[Square]) -> Result<(), ReadError> {
        for sq in path {
            let name = format!("{}{}", file_letters(sq.file), sq.rank);
            self.push(self.row, 0, CellValueRef::Text(&name))?;
            self.row += 1;
        }
        self.row += 1;
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
        let token = |sheet: &mut Sheet<'_, '_>, col: usize, cell: &str| {
            sheet.push(row, u32::try_from(col).unwrap_or(u32::MAX), token(cell))
        };
        if let Some((rank, cells)) = rank_line(text) {
            sheet.push(row, 0, CellValueRef::Number(f64::from(rank)))?;
            for (c, cell) in cells.split_whitespace().enumerate() {
                if cell != "." {
                    token(&mut sheet, c + 1, cell)?;
                }
            }
        } else if text.starts_with(crate::workbook::write::names::PUZZLE_TITLE)
            || text.starts_with(crate::workbook::write::names::PUZZLE_ANSWER_TITLE)
        {
            // A puzzle's title, or its answer's, is one cell as in the workbook: its numbers
            // are no moves.
            sheet.push(row, 0, CellValueRef::Text(text))?;
        } else if !text.trim().is_empty() && text.trim().bytes().all(|b| b == b'-') {
            // The rule under a board takes no row: the file letters sit under it.
            return Ok(());
        } else {
            let from = usize::from(text.starts_with(char::is_whitespace));
            for (c, cell) in text.split_whitespace().enumerate() {
                token(&mut sheet, c + from, cell)?;
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

/// The fields of a document that are read: a tour's (`board`, `path`), `pairs`' (`board`,
/// `pairs`) or `puzzle`'s (`puzzles`).
#[derive(Deserialize)]
struct Document {
    board: Option<Dims>,
    path: Option<Vec<Square>>,
    pairs: Option<Vec<Pair>>,
    puzzles: Option<Vec<PuzzleDoc>>,
}

/// One entry of the `pairs` list; only its tour is read (the others say why there is none).
#[derive(Deserialize)]
struct Pair {
    tour: Option<Vec<Square>>,
}

impl Sheet<'_, '_> {
    /// Tour `number` as a grid, or as a list when no grid can hold its path.
    fn tour(&mut self, number: usize, tour: Tour) -> Result<(), ReadError> {
        let (rows, cols) = (tour.board.rows, tour.board.cols);
        let squares = board_squares(tour.board)
            .ok_or_else(|| too_large(format!("tour {number} claims a {rows}x{cols} board")))?;
        let mut numbering = vec![0u32; squares];
        for (i, sq) in tour.path.iter().enumerate() {
            let at = (sq.file < cols && (1..=rows).contains(&sq.rank))
                .then(|| (rows - sq.rank) as usize * cols as usize + sq.file as usize);
            match at {
                Some(at) if numbering[at] == 0 && i < squares => numbering[at] = i as u32 + 1,
                _ => return self.list(&tour.path),
            }
        }
        self.grid(rows, cols, &numbering)
    }

    /// Puzzle `number`: its title, its board with the numbers given, then its answer.
    fn puzzle(&mut self, number: usize, p: PuzzleDoc) -> Result<(), ReadError> {
        let (rows, cols) = (p.solution.board.rows, p.solution.board.cols);
        let squares = board_squares(p.solution.board)
            .ok_or_else(|| too_large(format!("puzzle {number} claims a {rows}x{cols} board")))?;
        let title = format!("{} {number}", crate::workbook::write::names::PUZZLE_TITLE);
        self.push(self.row, 0, CellValueRef::Text(&title))?;
        self.row += 1;
        let mut given = vec![0u32; squares];
        for g in &p.given {
            if g.square.file < cols && (1..=rows).contains(&g.square.rank) {
                let at = (rows - g.square.rank) as usize * cols as usize + g.square.file as usize;
                given[at] = g.move_number;
            }
        }
        self.grid(rows, cols, &given)?;
        self.tour(number, p.solution)
    }
}

/// The squares of a board a sheet can hold.
fn board_squares(board: Dims) -> Option<usize> {
    let squares = u64::from(board.rows) * u64::from(board.cols);
    (squares > 0 && squares <= super::budget::MAX_SHEET_CELLS as u64).then_some(squares as usize)
}

fn too_large(what: String) -> ReadError {
    ReadError::TooLarge {
        detail: format!("{what}, which no sheet this tool checks can hold"),
    }
}

fn not_a_tour(e: impl fmt::Display) -> ReadError {
    ReadError::NotATourFile(format!(
        "JSON that is not a tour as `knights-tour generate` writes it ({e})"
    ))
}

/// Read a JSON tour document from the start of `reader` into `budget`.
pub(super) fn read_json<R: Read + Seek>(
    reader: &mut R,
    budget: &mut SheetBudget<'_>,
) -> Result<(), ReadError> {
    let io = |e: std::io::Error| ReadError::Io(e.to_string());
    reader.seek(SeekFrom::Start(0)).map_err(io)?;
    let mut capped = reader.take(MAX_JSON_BYTES + 1);
    let mut source = BufReader::new(&mut capped);
    // serde_json does not skip a byte order mark; the first character tells a list of tours.
    if source.fill_buf().map_err(io)?.starts_with(b"\xEF\xBB\xBF") {
        source.consume(3);
    }
    loop {
        let blank = (source.fill_buf().map_err(io)?.iter())
            .take_while(|b| b.is_ascii_whitespace())
            .count();
        if blank == 0 {
            break;
        }
        source.consume(blank);
    }
    let list = source.fill_buf().map_err(io)?.first() == Some(&b'[');
    let parsed = if list {
        serde_json::from_reader(source).map(Err)
    } else {
        serde_json::from_reader(source).map(Ok)
    };
    let document: Result<Document, Vec<Tour>> = parsed.map_err(|e| {
        if capped.limit() == 0 {
            too_large(format!(
                "the JSON holds more than {} MB",
                MAX_JSON_BYTES / (1024 * 1024)
            ))
        } else {
            not_a_tour(e)
        }
    })?;
    let mut sheet = Sheet { budget, row: 0 };
    let tours = match document {
        Err(tours) => tours,
        Ok(Document {
            board: Some(board),
            path: Some(path),
            ..
        }) => vec![Tour { board, path }],
        Ok(Document {
            board: Some(board),
            pairs: Some(pairs),
            ..
        }) => (pairs.into_iter())
            .filter_map(|p| {
                Some(Tour {
                    board,
                    path: p.tour?,
                })
            })
            .collect(),
        Ok(Document {
            puzzles: Some(puzzles),
            ..
        }) => {
            return (puzzles.into_iter().enumerate()).try_for_each(|(i, p)| sheet.puzzle(i + 1, p))
        }
        Ok(Document { board: None, .. }) => return Err(not_a_tour("missing field `board`")),
        Ok(_) => return Err(not_a_tour("missing field `path`")),
    };
    (tours.into_iter().enumerate()).try_for_each(|(i, tour)| sheet.tour(i + 1, tour))
}
