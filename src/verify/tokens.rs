//! The text layer's tokeniser: text from anywhere (a line of a file, one cell, a column of
//! cells holding pasted lines) into rows of positioned tokens. Every notation that reads text
//! reads it through here, so `[41][60]`, `| 41 | 60 |`, `41, 60` and `41 60` are the same two
//! numbers wherever they are typed.
//!
//! **Tokens.** A number (`17`, `05`, `-1`, `2.5`), a word (`e4`, `Nf3`, `Solution`, `A`,
//! `5a`: letters and digits that are not a number), a coordinate pair (two numbers in one
//! bracket group: `(7,6)`, `[3, 4]`), or a blank placeholder (`.`, `-`, `*`, `_` standing
//! alone, or a pipe-separated segment holding only spaces). Everything else is a separator
//! and dropped: spaces, `|`, `,`, `;`, `:`, quotes, arrows (`->`, `→`), dashes between moves
//! (`c1-b3`), `+---+` borders, and brackets themselves. Each token keeps its line and its
//! byte columns in that line, so labels and alignment stay visible to the layout.
//!
//! **Rows.** A line break ends a row, except inside an open bracket group holding only
//! numbers (numpy wraps a long row over several lines; pretty-printed JSON puts one number a
//! line). A bracket group of three or more numbers (`[1, 6, 15, 10, 21]`) is a row of its own,
//! so a one-line JSON array `[[11,8,5,0],[0,3,10,7]]` is two rows; a group of one number
//! (`[41]`) is that number, in the row it is in.
//!
//! **Lines.** A line holding only border characters (`+---+---+`, `|---|---|`, `=====`) is a
//! rule: no row, and it does not count as a blank line between rows.

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Kind {
    /// A number as written (`05` is 5).
    Number(f64),
    /// Two whole numbers in one bracket group (coordinates: each fits 32 bits, far past any
    /// board).
    Pair(i32, i32),
    /// A placeholder for an empty cell.
    Blank,
    /// Anything else: a square name, a label letter, a word.
    Word,
}

/// One token: its kind and where it is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Token {
    /// What it is.
    pub(crate) kind: Kind,
    /// The line it is on (its first line, for a pair written over two).
    pub(crate) line: u32,
    /// Its first byte in that line.
    pub(crate) start: u32,
    /// One past its last byte in that line (for a pair over two lines, the line's end).
    pub(crate) end: u32,
}

/// A line as the layout needs to know it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Line {
    /// Nothing but spaces (a rule, or a line of brackets, is not blank: it has no tokens and
    /// does not part two rows).
    pub(crate) blank: bool,
}

/// The rows of positioned tokens of some text.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tokens {
    /// Every token, in reading order.
    pub(crate) tokens: Vec<Token>,
    /// Each row as a range of `tokens`; no row is empty.
    pub(crate) rows: Vec<std::ops::Range<usize>>,
    /// Every line fed, in order.
    pub(crate) lines: Vec<Line>,
    /// More than [`MAX_TOKENS`] tokens were fed: those past it are not kept.
    pub(crate) over: bool,
}

/// The most tokens kept from one text: as many cells as a sheet may hold, so that the text of
/// a sheet laid out as cells stays within what a reader would keep of it.
pub(crate) const MAX_TOKENS: usize = crate::workbook::read::MAX_SHEET_CELLS;

impl Tokens {
    /// The tokens of one row.
    pub(crate) fn row(&self, i: usize) -> &[Token] {
        &self.tokens[self.rows[i].clone()]
    }
}

/// Tokenise one piece of text (a cell's, line breaks included).
pub(crate) fn tokenise(text: &str) -> Tokens {
    let mut t = Tokeniser::default();
    for line in text.lines() {
        t.line(line);
    }
    t.finish()
}

/// The deepest bracket nesting followed; deeper brackets are separators.
const MAX_DEPTH: usize = 32;

/// An open bracket group.
#[derive(Clone, Copy, Debug)]
struct Group {
    /// The first token inside it.
    first: usize,
    /// Where it opened: line and byte.
    line: u32,
    start: u32,
    /// Tokens directly inside (a pair or number group inside counts as one).
    direct: u32,
    /// Every direct token is a number.
    numbers: bool,
    /// It holds a row group (a group of three or more numbers, or one holding rows).
    rows: bool,
}

/// Feeds lines one at a time; bracket groups carry over from line to line.
#[derive(Default)]
pub(crate) struct Tokeniser {
    out: Tokens,
    stack: Vec<Group>,
    /// Where the current row starts in `out.tokens`.
    row_start: usize,
}

/// Characters that stand for an empty cell when alone.
fn placeholder(c: char) -> bool {
    matches!(c, '.' | '-' | '_' | '*' | '·' | '…' | '–' | '—')
}

/// Characters of border lines.
fn border(c: char) -> bool {
    matches!(c, '-' | '=' | '+' | '|' | ':' | '_' | '~' | '*' | '#')
        || ('\u{2500}'..='\u{257f}').contains(&c)
}

/// Characters that belong to a word (or a number).
fn word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || (!c.is_ascii() && c.is_alphanumeric()) || matches!(c, '♘' | '♞')
}

fn open_bracket(c: char) -> bool {
    matches!(c, '(' | '[' | '{')
}

fn close_bracket(c: char) -> bool {
    matches!(c, ')' | ']' | '}')
}

/// Whether a line is a rule: border characters only, with a run of two or more, or a `+`.
fn is_rule(line: &str) -> bool {
    let t = line.trim();
    if t.is_empty() || !t.chars().all(|c| border(c) || c.is_whitespace()) {
        return false;
    }
    let mut prev = ' ';
    t.chars().any(|c| {
        let run = c == prev && !c.is_whitespace() && c != '|';
        prev = c;
        run || c == '+' || ('\u{2500}'..='\u{257f}').contains(&c)
    })
}

impl Tokeniser {
    /// Feed the next line (without its line break).
    pub(crate) fn line(&mut self, text: &str) {
        let index = self.out.lines.len() as u32;
        let blank = text.trim().is_empty();
        self.out.lines.push(Line { blank });
        if !blank && !self.out.over && !is_rule(text) {
            self.scan(text, index);
        }
        self.end_of_line();
    }

    /// Feed a line that is a number cell's value.
    pub(crate) fn number(&mut self, value: f64) {
        let index = self.out.lines.len() as u32;
        self.out.lines.push(Line::default());
        self.push(Kind::Number(value), index, 0, 0);
        self.end_of_line();
    }

    /// The rows and tokens of everything fed.
    pub(crate) fn finish(mut self) -> Tokens {
        self.stack.clear();
        self.break_row();
        self.out
    }

    fn end_of_line(&mut self) {
        // Inside groups of numbers a row goes on (a wrapped row); anywhere else a line break
        // ends it, and an unclosed group of words is forgotten.
        if !self.stack.is_empty() && self.stack.iter().all(|g| g.numbers) {
            return;
        }
        self.stack.clear();
        self.break_row();
    }

    fn break_row(&mut self) {
        let end = self.out.tokens.len();
        if end > self.row_start {
            self.out.rows.push(self.row_start..end);
        }
        self.row_start = end;
    }

    fn push(&mut self, kind: Kind, line: u32, start: usize, end: usize) {
        if self.out.tokens.len() >= MAX_TOKENS {
            self.out.over = true;
            return;
        }
        if let Some(g) = self.stack.last_mut() {
            g.direct += 1;
            g.numbers &= matches!(kind, Kind::Number(_));
        }
        self.out.tokens.push(Token {
            kind,
            line,
            start: start as u32,
            end: end as u32,
        });
    }

    fn open(&mut self, line: u32, at: usize) {
        // A nested group opening after tokens outside its parent (`Solution 1: [[1, 2, ...`)
        // starts a row: the caption is not part of the first row.
        if let Some(p) = self.stack.last() {
            if self.row_start < p.first && self.out.tokens.len() > self.row_start {
                let (start, first) = (self.row_start, p.first);
                self.out.rows.push(start..first);
                self.row_start = first;
            }
        }
        self.stack.push(Group {
            first: self.out.tokens.len(),
            line,
            start: at as u32,
            direct: 0,
            numbers: true,
            rows: false,
        });
    }

    fn close(&mut self, line: u32, at: usize) {
        let Some(g) = self.stack.pop() else { return };
        let inside = g.first..self.out.tokens.len();
        if g.rows {
            // A list of rows ends.
            self.break_row();
            self.mark_rows();
            return;
        }
        if g.numbers && g.direct == 2 && inside.len() == 2 {
            let (a, b) = (
                self.out.tokens[inside.start],
                self.out.tokens[inside.start + 1],
            );
            if let (Some(x), Some(y)) = (whole(a.kind), whole(b.kind)) {
                self.out.tokens.truncate(inside.start);
                let start = g.start as usize;
                let end = if g.line == line { at + 1 } else { start + 1 };
                self.push(Kind::Pair(x, y), g.line, start, end);
                return;
            }
        }
        if g.numbers && g.direct >= 3 {
            // A row of its own (with what precedes it on the line: `Row 1: [1, 2, 3]`).
            self.break_row();
            self.mark_rows();
            return;
        }
        // A bracketed number (`[41]`) or words in brackets: what is inside stays in the row,
        // one token for the parent.
        if let Some(p) = self.stack.last_mut() {
            p.direct += 1;
            p.numbers &= g.numbers && g.direct == 1;
        }
    }

    /// The group now on top holds rows.
    fn mark_rows(&mut self) {
        if let Some(p) = self.stack.last_mut() {
            p.rows = true;
            p.direct += 1;
        }
    }

    /// Scan one line's text.
    fn scan(&mut self, text: &str, line: u32) {
        let b = text.as_bytes();
        let mut i = 0usize;
        // The previous character was a boundary (start, space, separator, bracket).
        let mut boundary = true;
        // Since the last `|`: only spaces (and at least one).
        let mut pipe: Option<usize> = None;
        let mut spaces = false;
        while i < b.len() {
            let c = match b[i] {
                x if x < 0x80 => x as char,
                _ => text[i..].chars().next().unwrap_or(' '),
            };
            let len = c.len_utf8();
            if c.is_whitespace() {
                spaces = true;
                boundary = true;
                i += len;
                continue;
            }
            let signed = c == '-' && boundary && b.get(i + 1).is_some_and(u8::is_ascii_digit);
            if c.is_ascii_digit() || signed || word_char(c) {
                let end = self.word(text, i, line);
                pipe = None;
                boundary = false;
                i = end;
                continue;
            }
            if c == '|' {
                if pipe.is_some() && spaces {
                    self.push(Kind::Blank, line, i, i);
                }
                pipe = Some(i);
                spaces = false;
                boundary = true;
                i += len;
                continue;
            }
            pipe = None;
            if open_bracket(c) && self.stack.len() < MAX_DEPTH {
                self.open(line, i);
                boundary = true;
                i += len;
                continue;
            }
            if close_bracket(c) {
                self.close(line, i);
                boundary = true;
                i += len;
                continue;
            }
            if placeholder(c) && boundary {
                // A run of the same character standing alone is an empty cell.
                let mut end = i + len;
                while text[end..].starts_with(c) {
                    end += len;
                }
                let after = text[end..].chars().next();
                if after.is_none_or(|a| {
                    a.is_whitespace()
                        || matches!(a, '|' | ',' | ';')
                        || open_bracket(a)
                        || close_bracket(a)
                }) {
                    self.push(Kind::Blank, line, i, end);
                    boundary = false;
                    i = end;
                    continue;
                }
            }
            // A separator.
            boundary = true;
            i += len;
        }
    }

    /// A number or a word starting at `i`; returns where it ends.
    fn word(&mut self, text: &str, i: usize, line: u32) -> usize {
        let b = text.as_bytes();
        let mut j = i + usize::from(b[i] == b'-');
        let digits_from = j;
        while b.get(j).is_some_and(u8::is_ascii_digit) {
            j += 1;
        }
        let mut number = j > digits_from;
        if number && b.get(j) == Some(&b'.') && b.get(j + 1).is_some_and(u8::is_ascii_digit) {
            j += 1;
            while b.get(j).is_some_and(u8::is_ascii_digit) {
                j += 1;
            }
        }
        // Letters right after the digits make it a word (`5a`, `1st`).
        let mut end = j;
        while let Some(c) = text[end..].chars().next().filter(|&c| word_char(c)) {
            end += c.len_utf8();
            number = false;
        }
        if !number {
            // A word: letters and digits (and no sign).
            let start = if b[i] == b'-' { i + 1 } else { i };
            if start < end {
                self.push(Kind::Word, line, start, end);
            }
            return end;
        }
        match text[i..j].parse::<f64>() {
            Ok(f) if f.is_finite() => self.push(Kind::Number(f), line, i, j),
            _ => self.push(Kind::Word, line, i, j),
        }
        j
    }
}

/// The whole number a token holds, if it is one that fits 32 bits.
fn whole(kind: Kind) -> Option<i32> {
    match kind {
        Kind::Number(f) if f.fract() == 0.0 && f.abs() <= f64::from(i32::MAX) => Some(f as i32),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rows of `text`, each token written as `7`, `(1,2)`, `.` or its text.
    fn rows(text: &str) -> Vec<String> {
        let lines: Vec<&str> = text.lines().collect();
        let t = tokenise(text);
        (0..t.rows.len())
            .map(|r| {
                t.row(r)
                    .iter()
                    .map(|k| match k.kind {
                        Kind::Number(f) => f.to_string(),
                        Kind::Pair(a, b) => format!("({a},{b})"),
                        Kind::Blank => ".".into(),
                        Kind::Word => {
                            lines[k.line as usize][k.start as usize..k.end as usize].to_string()
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }

    #[test]
    fn separators_borders_and_padding_are_dropped() {
        assert_eq!(rows("8 1 10 13 \r\n"), ["8 1 10 13"]);
        assert_eq!(rows("| 1|38|59|"), ["1 38 59"]);
        assert_eq!(rows("|| 1 || 38 ||"), ["1 38"]);
        assert_eq!(rows("[41][60][05]"), ["41 60 5"]);
        assert_eq!(
            rows("  +---+---+\n  |  1| 62|\n  +---+---+\n  | 14| 35|"),
            ["1 62", "14 35"]
        );
        assert_eq!(rows("0  13 18 7  24"), ["0 13 18 7 24"]);
    }

    #[test]
    fn bracket_groups_make_rows_and_pairs() {
        assert_eq!(
            rows("[[11,8,5,0],[0,3,10,7],[9,6,1,4]]"),
            ["11 8 5 0", "0 3 10 7", "9 6 1 4"]
        );
        assert_eq!(rows("   [1, 6, 15, 10, 21]"), ["1 6 15 10 21"]);
        assert_eq!(
            rows("[[ 1 38 55\n   34  3]\n [54  4 37 2 9]]"),
            ["1 38 55 34 3", "54 4 37 2 9"]
        );
        assert_eq!(rows("(7,6) (5,7) (6,5)"), ["(7,6) (5,7) (6,5)"]);
        assert_eq!(rows("[(0, 0), (1, 2)]"), ["(0,0) (1,2)"]);
        assert_eq!(
            rows("Solution 1: [[1, 2, 3], [4, 5, 6]]"),
            ["Solution 1", "1 2 3", "4 5 6"]
        );
        assert_eq!(
            rows("[\n  [1,\n   2,\n   3],\n  [4, 5, 6]\n]"),
            ["1 2 3", "4 5 6"]
        );
    }

    #[test]
    fn words_squares_signs_and_placeholders() {
        assert_eq!(rows("1. Nf3 2. Ng5"), ["1 Nf3 2 Ng5"]);
        assert_eq!(rows("c1-b3-a1"), ["c1 b3 a1"]);
        assert_eq!(rows("a1 -> b3 → c5"), ["a1 b3 c5"]);
        assert_eq!(rows("-1 -1 5 -1"), ["-1 -1 5 -1"]);
        assert_eq!(rows("1 . 3 -- 5"), ["1 . 3 . 5"]);
        assert_eq!(rows("|   | 3 |"), [". 3"]);
        assert_eq!(
            rows("Move 12: Knight to 'e4' (stuck)"),
            ["Move 12 Knight to e4 stuck"]
        );
        assert_eq!(rows("A 24 33 5a"), ["A 24 33 5a"]);
        assert_eq!(rows("2.5 12."), ["2.5 12"]);
    }

    #[test]
    fn rule_lines_and_blank_lines_are_told_apart() {
        let t = tokenise("+---+\n\n| 1 |\n=====\n|---|---|");
        let blank: Vec<bool> = t.lines.iter().map(|l| l.blank).collect();
        assert_eq!(blank, [false, true, false, false, false]);
        assert_eq!(t.rows.len(), 1);
        assert!(is_rule("|---|---|") && is_rule("  +---+---+"));
        assert!(!is_rule("| |"));
        assert!(!is_rule("a - b"));
    }

    #[test]
    fn tokens_past_the_cap_are_not_kept() {
        let mut t = Tokeniser::default();
        let line = "1 ".repeat(1000);
        for _ in 0..MAX_TOKENS / 1000 + 1 {
            t.line(&line);
        }
        let t = t.finish();
        assert!(t.over);
        assert_eq!(t.tokens.len(), MAX_TOKENS);
        assert_eq!(std::mem::size_of::<Token>(), 32);
    }

    #[test]
    fn columns_are_kept() {
        let t = tokenise("  1  10");
        assert_eq!((t.tokens[0].start, t.tokens[0].end), (2, 3));
        assert_eq!((t.tokens[1].start, t.tokens[1].end), (5, 7));
    }
}
