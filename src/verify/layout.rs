//! The text layer's layout: text cells holding the rows of a table (a text file's lines, lines
//! pasted one a cell down a column as Excel and LibreOffice paste them, one cell holding a JSON
//! array) laid out as the cells they would be if split into columns, so the notations read a
//! printed grid exactly as they read a typed one.
//!
//! **Blocks.** The text cells of one column, one after another with at most one blank row (or
//! only numbers) between them, some holding more than one word or number, are read as one
//! text, a line a cell ([`super::tokens`]): bracket groups and blank lines carry over from
//! cell to cell, and a number cell between them (the last number of a row of a pretty-printed
//! JSON array, made a number by the paste) is a line of its own.
//!
//! **Rows.** A row of two or more numbers (or blank placeholders), with at most one word beside
//! them when they are three or more (`A 24 33 10 ...`, `Row 1: ...`), is a row of a table;
//! so is a row of single letters (`A B C D`, file labels). Anything else (a caption such as
//! `Solution 304` or `Trial 1: The knight was able to touch 64 squares.`, a list of moves) is
//! left as the text it is. Table rows one after another are one table; a blank line between
//! every two rows of three or more is double spacing, not a gap; any other blank line ends a
//! table, and rule lines (`+---+---+`) are no lines at all.
//!
//! **Columns.** A table is as wide as most of its rows. A shorter row of labels (file letters,
//! or numbers counting up or down by one) over or under rows that start with labels of their
//! own (rank letters or numbers) sits over the last columns, as a header printed without its
//! corner does; another short row takes the columns its characters line up with when the rows
//! are printed in fixed-width columns, else the first ones. A space between two columns of a
//! fixed-width table much wider than the others (boards printed side by side) is an empty
//! column.
//!
//! **Placement.** A table's first row goes where its first line is; the table takes the rows
//! under it and the columns to its right, which must hold nothing else (otherwise the text is
//! left as it is). A cell whose text is one number in brackets or padding (`[05]`, `| 7 |`)
//! becomes that number. Boards found in a laid-out table are reported in these cells: the
//! third number of the line in A5 is C5.

use std::borrow::Cow;

use crate::workbook::cellref::{CellRange, CellRef};
use crate::workbook::read::{CellFormat, CellValueRef, CellView, CellsBuilder, SheetCells};

use super::tokens::{Kind as TokenKind, Token, Tokeniser, Tokens, MAX_TOKENS};
use super::value::{classify, texts, Kind};

/// A sheet with its text laid out as cells.
pub(crate) struct LaidOut<'a> {
    /// The cells: the sheet's own when no text needed laying out.
    pub(crate) cells: Cow<'a, SheetCells>,
    /// Why some text was left as it is, if it was for its size.
    pub(crate) note: Option<String>,
}

/// The sheet with its text laid out as cells; the sheet itself when no text needs it.
pub(crate) fn lay_out(sheet: &SheetCells) -> LaidOut<'_> {
    let mut note = None;
    let cells = lay_out_cells(sheet, &mut note);
    LaidOut { cells, note }
}

fn lay_out_cells<'a>(sheet: &'a SheetCells, note: &mut Option<String>) -> Cow<'a, SheetCells> {
    let mut texts: Vec<(u32, u32, &str)> = texts(sheet).collect();
    if !texts.iter().any(|t| splittable(t.2)) {
        return Cow::Borrowed(sheet);
    }
    texts.sort_by_key(|&(r, c, _)| (c, r));
    let mut plan = Plan::default();
    let mut from = 0;
    while from < texts.len() {
        let mut to = from + 1;
        while to < texts.len() && same_block(sheet, texts[to - 1], texts[to]) {
            to += 1;
        }
        if texts[from..to].iter().any(|t| splittable(t.2)) {
            let items = items(sheet, &texts[from..to]);
            if !lay_out_block(sheet, &items, &mut plan) {
                let (first, last) = (&items[0], &items[items.len() - 1]);
                *note = Some(format!(
                    "the text in {}:{} holds more than {MAX_TOKENS} numbers and words, too many to read as cells",
                    CellRef::new(first.0, first.1),
                    CellRef::new(last.0, last.1)
                ));
            }
        }
        from = to;
    }
    if plan.consumed.is_empty() {
        return Cow::Borrowed(sheet);
    }
    plan.consumed.sort_unstable();
    let mut out = plan.cells;
    for c in sheet.cells() {
        if plan.consumed.binary_search(&(c.row, c.col)).is_ok() {
            continue;
        }
        if out.push_view(&c).is_err() {
            // The sheet's own cells did fit; a copy that does not is as good as out of memory.
            return Cow::Borrowed(sheet);
        }
    }
    Cow::Owned(out.finish(sheet.formats_known()))
}

/// Whether a text cell may hold more than one token, or one in brackets: something besides
/// letters and digits inside it, and not a number as it stands.
fn splittable(t: &str) -> bool {
    let t = t.trim();
    !t.chars().all(char::is_alphanumeric) && !classify(Some(CellValueRef::Text(t))).is_numeric()
}

/// The most rows of numbers between two text cells of one block (a pretty-printed JSON array
/// pasted into a sheet, its last number of a row without a comma, became a number).
const MAX_NUMBERS_BETWEEN: u32 = 64;

/// Whether the text cell `b` continues the block of `a`: the same column, with nothing but
/// numbers between them and never two blank rows running.
fn same_block(sheet: &SheetCells, a: (u32, u32, &str), b: (u32, u32, &str)) -> bool {
    if a.1 != b.1 || b.0 - a.0 > MAX_NUMBERS_BETWEEN {
        return false;
    }
    let mut blank_before = false;
    for r in a.0 + 1..b.0 {
        match sheet.find(r, a.1).and_then(|c| c.value) {
            Some(CellValueRef::Number(_)) => blank_before = false,
            value if classify(value) == Kind::Blank && !blank_before => blank_before = true,
            _ => return false,
        }
    }
    true
}

/// Where a line of a block comes from.
#[derive(Clone, Copy, Debug)]
enum Source<'a> {
    /// A text cell.
    Text(&'a str),
    /// A number cell between text cells.
    Number(f64),
    /// A blank row.
    Blank,
}

/// The cells of a block from its first text cell to its last, one a row: `(row, col, source)`.
fn items<'a>(sheet: &'a SheetCells, texts: &[(u32, u32, &'a str)]) -> Vec<(u32, u32, Source<'a>)> {
    let col = texts[0].1;
    let mut out = Vec::new();
    for (i, &(row, _, text)) in texts.iter().enumerate() {
        if i > 0 {
            for r in texts[i - 1].0 + 1..row {
                let source = match sheet.find(r, col).and_then(|c| c.value) {
                    Some(CellValueRef::Number(f)) => Source::Number(f),
                    _ => Source::Blank,
                };
                out.push((r, col, source));
            }
        }
        out.push((row, col, Source::Text(text)));
    }
    out
}

/// What the layout changes: the cells it writes and the cells whose text they replace.
#[derive(Default)]
struct Plan {
    cells: CellsBuilder,
    /// How many cells it wrote.
    written: usize,
    consumed: Vec<(u32, u32)>,
    /// The rectangles tables took.
    taken: Vec<CellRange>,
}

/// One block's text: its lines and the cell each came from.
struct Block<'a> {
    lines: Vec<&'a str>,
    /// For each line, the index of its cell in the block (`None` for a blank row between).
    cell_of: Vec<Option<usize>>,
    tokens: Tokens,
}

/// Lay out one block's tables; `false` when its text is too large to (left as it is).
fn lay_out_block(sheet: &SheetCells, cells: &[(u32, u32, Source<'_>)], plan: &mut Plan) -> bool {
    let mut t = Tokeniser::default();
    let (mut lines, mut cell_of) = (Vec::new(), Vec::new());
    for (i, &(_, _, source)) in cells.iter().enumerate() {
        match source {
            Source::Text(text) => {
                for line in text.lines() {
                    t.line(line);
                    lines.push(line);
                    cell_of.push(Some(i));
                }
            }
            Source::Number(f) => {
                t.number(f);
                lines.push("");
                cell_of.push(Some(i));
            }
            Source::Blank => {
                t.line("");
                lines.push("");
                cell_of.push(None);
            }
        }
    }
    let block = Block {
        lines,
        cell_of,
        tokens: t.finish(),
    };
    if block.tokens.over || plan.written + block.tokens.tokens.len() > MAX_TOKENS {
        return false;
    }
    let mut consumed = vec![false; cells.len()];
    for table in tables(&block) {
        place(sheet, cells, &block, &table, plan, &mut consumed);
    }
    // Text cells left whose whole text is one number in brackets or padding: that number.
    let mut count = vec![(0u32, None); cells.len()];
    for tok in &block.tokens.tokens {
        if let Some(i) = block.cell_of[tok.line as usize] {
            count[i].0 += 1;
            count[i].1 = Some(tok.kind);
        }
    }
    for (i, &(row, col, source)) in cells.iter().enumerate() {
        let Source::Text(text) = source else { continue };
        if let (false, true, (1, Some(TokenKind::Number(f)))) =
            (consumed[i], splittable(text), count[i])
        {
            if plan
                .cells
                .push_view(&CellView {
                    row,
                    col,
                    value: Some(CellValueRef::Number(f)),
                    format: CellFormat::default(),
                })
                .is_ok()
            {
                plan.consumed.push((row, col));
            }
        }
    }
    true
}

/// How a row of tokens reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RowKind {
    /// Numbers (or blanks), at most one word beside three or more of them.
    Grid,
    /// Single letters: file labels.
    Letters,
    /// Anything else: left as text.
    Other,
}

fn row_kind(block: &Block<'_>, row: &[Token]) -> RowKind {
    let (mut numbers, mut words, mut letters, mut pairs) = (0usize, 0usize, 0usize, 0usize);
    for t in row {
        match t.kind {
            TokenKind::Number(_) | TokenKind::Blank => numbers += 1,
            TokenKind::Pair(..) => pairs += 1,
            TokenKind::Word => {
                words += 1;
                letters += usize::from(is_letter(text(block, t)));
            }
        }
    }
    if pairs > 0 {
        RowKind::Other
    } else if numbers >= 2 && (words == 0 || (words == 1 && numbers >= 3)) {
        RowKind::Grid
    } else if numbers == 0 && letters >= 2 && letters == words {
        RowKind::Letters
    } else {
        RowKind::Other
    }
}

fn text<'a>(block: &Block<'a>, t: &Token) -> &'a str {
    let line = block.lines[t.line as usize];
    line.get(t.start as usize..t.end as usize)
        .unwrap_or_default()
}

fn is_letter(s: &str) -> bool {
    s.len() == 1 && s.as_bytes()[0].is_ascii_alphabetic()
}

/// The tables of a block: runs of table rows (see the module docs), as row indices.
fn tables(block: &Block<'_>) -> Vec<Vec<usize>> {
    let t = &block.tokens;
    let mut out: Vec<Vec<usize>> = Vec::new();
    let (mut run, mut gaps): (Vec<usize>, Vec<u32>) = (Vec::new(), Vec::new());
    let first_line = |r: usize| t.tokens[t.rows[r].start].line as usize;
    let last_line = |r: usize| t.tokens[t.rows[r].end - 1].line as usize;
    let close = |run: &mut Vec<usize>, gaps: &mut Vec<u32>, out: &mut Vec<Vec<usize>>| {
        let double = run.len() >= 3 && gaps.iter().all(|&g| g == 1);
        let mut piece = Vec::new();
        for (i, r) in run.drain(..).enumerate() {
            if i > 0 && !double && gaps[i - 1] == 1 {
                out.push(std::mem::take(&mut piece));
            }
            piece.push(r);
        }
        out.push(piece);
        gaps.clear();
    };
    for r in 0..t.rows.len() {
        let kind = row_kind(block, t.row(r));
        if kind == RowKind::Other {
            if !run.is_empty() {
                close(&mut run, &mut gaps, &mut out);
            }
            continue;
        }
        if let Some(&prev) = run.last() {
            // Blank lines between the two rows (rules and lines of brackets do not count).
            let gap = (last_line(prev) + 1..first_line(r))
                .filter(|&l| t.lines[l].blank)
                .count() as u32;
            if gap >= 2 {
                close(&mut run, &mut gaps, &mut out);
            } else {
                gaps.push(gap);
            }
        }
        run.push(r);
    }
    if !run.is_empty() {
        close(&mut run, &mut gaps, &mut out);
    }
    // A table needs a row of numbers: letters alone are text.
    out.retain(|rows| {
        rows.iter()
            .any(|&r| row_kind(block, t.row(r)) == RowKind::Grid)
    });
    out
}

/// How a table's rows are laid out in columns.
struct Columns {
    /// Each row's first column.
    firsts: Vec<u32>,
    /// Columns before which an empty column goes: the gutter between two boards printed side
    /// by side.
    gutters: Vec<u32>,
}

impl Columns {
    /// The column of the `k`-th column of tokens, gutters counted.
    fn at(&self, k: u32) -> u32 {
        k + self.gutters.iter().filter(|&&g| g <= k).count() as u32
    }
}

/// Lay out one table's rows into columns (see the module docs).
fn columns(block: &Block<'_>, rows: &[usize]) -> Columns {
    let t = &block.tokens;
    let len = |r: usize| t.rows[r].len();
    // The width most rows have (the wider on a tie).
    let mut widths: Vec<usize> = rows
        .iter()
        .filter(|&&r| row_kind(block, t.row(r)) == RowKind::Grid)
        .map(|&r| len(r))
        .collect();
    widths.sort_unstable();
    let mut width = 0;
    let mut best = 0;
    for run in widths.chunk_by(|a, b| a == b) {
        if run.len() >= best {
            best = run.len();
            width = run[0];
        }
    }
    let full: Vec<usize> = rows.iter().copied().filter(|&r| len(r) == width).collect();
    let labelled = labels_first(block, &full);
    let spans = spans(block, &full, width);
    let gutters = spans.as_deref().map(gutters).unwrap_or_default();
    let firsts = rows
        .iter()
        .map(|&r| {
            let row = t.row(r);
            if row.len() >= width {
                return 0;
            }
            if labelled && is_label_row(block, row) {
                return (width - row.len()) as u32;
            }
            spans
                .as_deref()
                .and_then(|s| aligned(row, s))
                .unwrap_or_default()
        })
        .collect();
    Columns { firsts, gutters }
}

/// The columns before which the space between two columns of a fixed-width table is a
/// gutter: at least four spaces, and three times the usual space or more.
fn gutters(spans: &[(u32, u32)]) -> Vec<u32> {
    let gaps: Vec<u32> = spans
        .windows(2)
        .map(|w| w[1].0.saturating_sub(w[0].1))
        .collect();
    let mut sorted = gaps.clone();
    sorted.sort_unstable();
    let usual = sorted.get(sorted.len() / 2).copied().unwrap_or(1).max(1);
    gaps.iter()
        .enumerate()
        .filter(|&(_, &g)| g >= 4 && g >= 3 * usual)
        .map(|(k, _)| k as u32 + 1)
        .collect()
}

/// Whether the full rows all start with a label: a word, or numbers counting by one.
fn labels_first(block: &Block<'_>, full: &[usize]) -> bool {
    let t = &block.tokens;
    let firsts: Vec<Token> = full.iter().map(|&r| t.row(r)[0]).collect();
    if firsts.len() < 2 {
        return false;
    }
    if firsts.iter().all(|x| x.kind == TokenKind::Word) {
        return true;
    }
    let values: Option<Vec<f64>> = firsts
        .iter()
        .map(|x| match x.kind {
            TokenKind::Number(f) => Some(f),
            _ => None,
        })
        .collect();
    values.is_some_and(|v| counts_by_one(&v))
}

/// Whether a short row is labels: single letters, or numbers counting by one.
fn is_label_row(block: &Block<'_>, row: &[Token]) -> bool {
    if row
        .iter()
        .all(|x| x.kind == TokenKind::Word && is_letter(text(block, x)))
    {
        return true;
    }
    let values: Option<Vec<f64>> = row
        .iter()
        .map(|x| match x.kind {
            TokenKind::Number(f) => Some(f),
            _ => None,
        })
        .collect();
    values.is_some_and(|v| v.len() >= 2 && counts_by_one(&v))
}

fn counts_by_one(v: &[f64]) -> bool {
    let up = v.windows(2).all(|w| w[1] == w[0] + 1.0);
    let down = v.windows(2).all(|w| w[1] == w[0] - 1.0);
    up || down
}

/// The byte columns each of `width` columns spans over the full rows printed on one line
/// each; `None` when no such row exists.
fn spans(block: &Block<'_>, full: &[usize], width: usize) -> Option<Vec<(u32, u32)>> {
    let t = &block.tokens;
    let mut spans = vec![(u32::MAX, 0u32); width];
    let mut any = false;
    for &r in full {
        let row = t.row(r);
        if row[0].line != row[row.len() - 1].line {
            continue;
        }
        any = true;
        for (k, x) in row.iter().enumerate() {
            spans[k].0 = spans[k].0.min(x.start);
            spans[k].1 = spans[k].1.max(x.end.max(x.start + 1));
        }
    }
    any.then_some(spans)
}

/// The column of a short row's first token when each of its tokens lines up with one column,
/// in order.
fn aligned(row: &[Token], spans: &[(u32, u32)]) -> Option<u32> {
    if row[0].line != row[row.len() - 1].line {
        return None;
    }
    let mut next = 0usize;
    let mut first = None;
    for x in row {
        let (s, e) = (x.start, x.end.max(x.start + 1));
        let k = (next..spans.len()).find(|&k| s < spans[k].1 && spans[k].0 < e)?;
        first.get_or_insert(k as u32);
        next = k + 1;
    }
    // Only a row that keeps its tokens in consecutive columns can be placed by its first.
    let k0 = first?;
    let consecutive = row.iter().enumerate().all(|(i, x)| {
        let (s, e) = (x.start, x.end.max(x.start + 1));
        let k = k0 as usize + i;
        k < spans.len() && s < spans[k].1 && spans[k].0 < e
    });
    consecutive.then_some(k0)
}

/// Place one table where its first line is, if the cells it needs are free.
fn place(
    sheet: &SheetCells,
    cells: &[(u32, u32, Source<'_>)],
    block: &Block<'_>,
    rows: &[usize],
    plan: &mut Plan,
    consumed: &mut [bool],
) {
    let t = &block.tokens;
    let layout = columns(block, rows);
    let Some(first_cell) = block.cell_of[t.tokens[t.rows[rows[0]].start].line as usize] else {
        return;
    };
    let (top, left) = (cells[first_cell].0, cells[first_cell].1);
    let width = rows
        .iter()
        .zip(&layout.firsts)
        .map(|(&r, &f)| layout.at(f + t.rows[r].len() as u32 - 1) + 1)
        .max()
        .unwrap_or(1);
    let (Some(bottom), Some(right)) = (
        top.checked_add(rows.len() as u32 - 1),
        left.checked_add(width - 1),
    ) else {
        return;
    };
    let area = CellRange::new(CellRef::new(top, left), CellRef::new(bottom, right));
    // The cells whose text the table replaces: those of its lines, rules between them
    // included.
    let (mut from, mut to) = (
        t.tokens[t.rows[rows[0]].start].line as usize,
        t.tokens[t.rows[rows[rows.len() - 1]].end - 1].line as usize,
    );
    // The box's top and bottom borders too, and lines of brackets (`[`, `]]`).
    let mut has_tokens = vec![false; t.lines.len()];
    for x in &t.tokens {
        has_tokens[x.line as usize] = true;
    }
    let bare = |l: usize| !t.lines[l].blank && !has_tokens[l];
    while from > 0 && bare(from - 1) {
        from -= 1;
    }
    while to + 1 < t.lines.len() && bare(to + 1) {
        to += 1;
    }
    let mut mine: Vec<usize> = block.cell_of[from..=to].iter().flatten().copied().collect();
    mine.dedup();
    // The block's cells are in one column, in row order, as `mine` is.
    let own = |row: u32, col: u32| {
        col == left && mine.binary_search_by_key(&row, |&i| cells[i].0).is_ok()
    };
    let start = sheet.first_in_row(top);
    let busy = sheet
        .cells()
        .iter()
        .skip(start)
        .take_while(|c| c.row <= bottom)
        .any(|c| area.contains(CellRef::new(c.row, c.col)) && !own(c.row, c.col));
    let overlaps = plan.taken.iter().any(|a| {
        a.first.row <= area.last.row
            && area.first.row <= a.last.row
            && a.first.col <= area.last.col
            && area.first.col <= a.last.col
    });
    if busy || overlaps {
        return;
    }
    for (i, (&r, &f)) in rows.iter().zip(&layout.firsts).enumerate() {
        for (k, x) in t.row(r).iter().enumerate() {
            let (row, col) = (top + i as u32, left + layout.at(f + k as u32));
            let pair;
            let value = match x.kind {
                TokenKind::Number(n) => CellValueRef::Number(n),
                TokenKind::Word => CellValueRef::Text(text(block, x)),
                TokenKind::Pair(a, b) => {
                    pair = format!("({a},{b})");
                    CellValueRef::Text(&pair)
                }
                TokenKind::Blank => continue,
            };
            plan.written += 1;
            let pushed = plan.cells.push_view(&CellView {
                row,
                col,
                value: Some(value),
                format: Default::default(),
            });
            if pushed.is_err() {
                return;
            }
        }
    }
    plan.taken.push(area);
    for i in mine {
        consumed[i] = true;
        plan.consumed.push((cells[i].0, cells[i].1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workbook::read::CellValue;

    /// A text laid out as `generate`'s readers would give it: one line a cell down column A.
    fn pasted(text: &str) -> SheetCells {
        SheetCells::from_values(
            text.lines()
                .enumerate()
                .filter(|(_, l)| !l.trim().is_empty())
                .map(|(i, l)| (i as u32, 0, CellValue::Text(l.into()))),
        )
    }

    /// The laid-out sheet as rows of `value@cell`.
    fn cells(s: &SheetCells) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let mut row = u32::MAX;
        for c in s.cells() {
            let v = match c.value {
                Some(CellValueRef::Number(f)) => f.to_string(),
                Some(CellValueRef::Text(t)) => t.to_string(),
                _ => "?".into(),
            };
            if c.row != row {
                out.push(String::new());
                row = c.row;
            }
            let line = out.last_mut().unwrap();
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&format!("{v}@{}", CellRef::new(c.row, c.col)));
        }
        out
    }

    #[test]
    fn a_plain_grid_is_split_into_cells() {
        let s = pasted("8 1 10\n11 14 7\n26 9 12");
        assert_eq!(
            cells(&lay_out(&s).cells),
            ["8@A1 1@B1 10@C1", "11@A2 14@B2 7@C2", "26@A3 9@B3 12@C3"]
        );
    }

    #[test]
    fn rules_of_a_box_take_no_row() {
        let s = pasted(
            "  +---+---+---+\n  |  1| 62| 13|\n  +---+---+---+\n  | 14| 35|  2|\n  +---+---+---+",
        );
        assert_eq!(
            cells(&lay_out(&s).cells),
            ["1@A2 62@B2 13@C2", "14@A3 35@B3 2@C3"]
        );
    }

    #[test]
    fn captions_stay_text_and_double_spacing_closes_up() {
        let s = pasted("Solution 304\n   1  10   5\n   4  17   2\n   9  20  13");
        let got = cells(&lay_out(&s).cells);
        assert_eq!(got[0], "Solution 304@A1");
        assert_eq!(got[1], "1@A2 10@B2 5@C2");
        let s = pasted("0 33 2\n\n3 18 55\n\n56 1 34\n");
        assert_eq!(
            cells(&lay_out(&s).cells),
            ["0@A1 33@B1 2@C1", "3@A2 18@B2 55@C2", "56@A3 1@B3 34@C3"]
        );
        // Two boards one blank line apart stay apart.
        let s = pasted("1 2 3\n4 5 6\n\n7 8 9\n1 2 3");
        let got = cells(&lay_out(&s).cells);
        assert_eq!(got[2], "7@A4 8@B4 9@C4");
    }

    #[test]
    fn a_header_without_its_corner_sits_over_the_last_columns() {
        let s = pasted("A B C\nA 24 33 10\nB 9 6 25\nC 34 23 8");
        let got = cells(&lay_out(&s).cells);
        assert_eq!(got[0], "A@B1 B@C1 C@D1");
        assert_eq!(got[1], "A@A2 24@B2 33@C2 10@D2");
    }

    #[test]
    fn a_short_row_takes_the_columns_it_lines_up_with() {
        let s = pasted("  1  10   5\n       4  17\n   9  20  13");
        let got = cells(&lay_out(&s).cells);
        assert_eq!(got[1], "4@B2 17@C2");
    }

    #[test]
    fn pretty_printed_json_one_number_a_line() {
        let s =
            pasted("[\n  [\n    1,\n    16,\n    31\n  ],\n  [\n    30,\n    39,\n    2\n  ]\n]");
        assert_eq!(
            cells(&lay_out(&s).cells),
            ["1@A3 16@B3 31@C3", "30@A4 39@B4 2@C4"]
        );
    }

    #[test]
    fn boards_side_by_side_keep_their_gutter() {
        let s = pasted(" 1 10  5       9  2  7\n 4 17  2       6 11 12\n 9 20 13       1  8  3");
        let got = cells(&lay_out(&s).cells);
        assert_eq!(got[0], "1@A1 10@B1 5@C1 9@E1 2@F1 7@G1");
    }

    #[test]
    fn one_cell_holding_a_json_array_is_laid_out_under_it() {
        let s = SheetCells::from_values([(
            2,
            1,
            CellValue::Text("[[9,6,3,0],[4,1,10,7],[11,8,5,2]]".into()),
        )]);
        let got = cells(&lay_out(&s).cells);
        assert_eq!(got[0], "9@B3 6@C3 3@D3 0@E3");
        assert_eq!(got[2], "11@B5 8@C5 5@D5 2@E5");
    }

    #[test]
    fn text_is_left_alone_where_its_cells_are_taken() {
        let s = SheetCells::from_values([
            (0, 0, CellValue::Text("1 2 3".into())),
            (0, 1, CellValue::Number(5.0)),
            (3, 0, CellValue::Text("[05]".into())),
        ]);
        let got = cells(&lay_out(&s).cells);
        assert_eq!(got, ["1 2 3@A1 5@B1", "5@A4"]);
        let words = SheetCells::from_values([(0, 0, CellValue::Text("e4 f6 g8".into()))]);
        assert!(matches!(lay_out(&words).cells, Cow::Borrowed(_)));
    }
}
