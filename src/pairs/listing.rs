//! The text forms of `knights-tour pairs`: CSV and JSON with one entry per ordered (start,
//! end) pair (its answer, the reason when there is no tour, the tour as squares when there is
//! one), and a text matrix for terminals.
//!
//! CSV columns: `start,end,answer,reason,tour`, `answer` one of [`Mark::word`] (`found`,
//! `colour`, `theorem`, `no-tour`, `not-answered`), `tour` the squares in move order separated
//! by spaces. JSON: `{"board", "seed", "answer", "complete", "totals", "pairs": [{"start",
//! "end", "answer", "reason"?, "tour"?}]}`. Both list the pairs in algebraic order (starts,
//! then ends) and leave out the diagonal (a square paired with itself).

use std::io::{self, Write};

use serde::Serialize;

use crate::board::{file_letters, Board, Square};
use crate::english::thousands;
use crate::output::json::BoardJson;
use crate::solve::pairs::{Mark, Pairs, Totals};

/// The ordered pairs of distinct squares, in algebraic order.
fn ordered_pairs(pairs: &Pairs) -> impl Iterator<Item = (Square, Square)> + '_ {
    let squares = pairs.squares();
    let ends = squares.clone();
    squares.into_iter().flat_map(move |s| {
        ends.clone()
            .into_iter()
            .filter(move |&e| e != s)
            .map(move |e| (s, e))
    })
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// Every pair as a CSV row (see the module doc).
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::solve::pairs::{solve, PairsPlan};
/// let pairs = solve(Board::new(5, 5).unwrap(), 1, &PairsPlan::default(), &mut |_| {}).unwrap();
/// let mut out = Vec::new();
/// knights_tour::pairs::listing::write_csv(&pairs, &mut out).unwrap();
/// let text = String::from_utf8(out).unwrap();
/// assert!(text.starts_with("start,end,answer,reason,tour\n"));
/// assert_eq!(text.lines().count(), 1 + 25 * 24);
/// ```
pub fn write_csv(pairs: &Pairs, out: &mut dyn Write) -> io::Result<()> {
    let board = pairs.board();
    writeln!(out, "start,end,answer,reason,tour")?;
    for (s, e) in ordered_pairs(pairs) {
        let mark = pairs.mark(s, e);
        let reason = pairs.reason(s, e).unwrap_or_default();
        let tour = pairs
            .tour(s, e)
            .map(|t| squares_text(board, t.squares()))
            .unwrap_or_default();
        writeln!(
            out,
            "{},{},{},{},{}",
            board.algebraic(s),
            board.algebraic(e),
            mark.word(),
            csv_field(&reason),
            tour
        )?;
    }
    Ok(())
}

fn squares_text(board: Board, squares: impl Iterator<Item = Square>) -> String {
    squares
        .map(|q| board.algebraic(q))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The totals in JSON.
#[derive(Serialize)]
struct TotalsJson {
    pairs: u64,
    found: u64,
    colour: u64,
    theorem: u64,
    no_tour: u64,
    not_answered: u64,
}

impl From<Totals> for TotalsJson {
    fn from(t: Totals) -> TotalsJson {
        TotalsJson {
            pairs: t.pairs(),
            found: t.found,
            colour: t.colour,
            theorem: t.theorem,
            no_tour: t.no_tour,
            not_answered: t.not_answered,
        }
    }
}

/// One pair in JSON.
#[derive(Serialize)]
struct PairJson {
    start: String,
    end: String,
    answer: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tour: Option<Vec<String>>,
}

/// Every pair as one JSON document (see the module doc), written pair by pair.
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::solve::pairs::{solve, PairsPlan};
/// let pairs = solve(Board::new(5, 5).unwrap(), 1, &PairsPlan::default(), &mut |_| {}).unwrap();
/// let mut out = Vec::new();
/// knights_tour::pairs::listing::write_json(&pairs, &mut out).unwrap();
/// let doc: serde_json::Value = serde_json::from_slice(&out).unwrap();
/// assert_eq!(doc["pairs"].as_array().unwrap().len(), 25 * 24);
/// assert_eq!(doc["totals"]["not_answered"], 0);
/// ```
pub fn write_json(pairs: &Pairs, out: &mut dyn Write) -> io::Result<()> {
    let board = pairs.board();
    write!(
        out,
        "{{\"board\":{},\"seed\":{},\"seed_text\":\"{}\",\"answer\":{},\"complete\":{},\"totals\":{},\"pairs\":[",
        json(&BoardJson::from(board))?,
        pairs.seed(),
        pairs.seed(),
        json(&pairs.answer_line())?,
        pairs.all_answered(),
        json(&TotalsJson::from(pairs.totals()))?,
    )?;
    for (k, (s, e)) in ordered_pairs(pairs).enumerate() {
        if k > 0 {
            out.write_all(b",")?;
        }
        let entry = PairJson {
            start: board.algebraic(s),
            end: board.algebraic(e),
            answer: pairs.mark(s, e).word(),
            reason: pairs.reason(s, e),
            tour: pairs
                .tour(s, e)
                .map(|t| t.squares().map(|q| board.algebraic(q)).collect()),
        };
        out.write_all(b"\n")?;
        serde_json::to_writer(&mut *out, &entry).map_err(io::Error::other)?;
    }
    out.write_all(b"\n]}\n")
}

fn json<T: Serialize + ?Sized>(value: &T) -> io::Result<String> {
    serde_json::to_string(value).map_err(io::Error::other)
}

/// The answer line, the legend with totals, and the matrix (starts down, ends across, one
/// character per end square, its name written downwards above it, a space between files: the
/// 8x8 matrix is 75 columns wide, within a terminal's 80).
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::solve::pairs::{solve, PairsPlan};
/// let pairs = solve(Board::new(5, 5).unwrap(), 1, &PairsPlan::default(), &mut |_| {}).unwrap();
/// let mut out = Vec::new();
/// knights_tour::pairs::listing::write_text(&pairs, &mut out).unwrap();
/// let text = String::from_utf8(out).unwrap();
/// assert!(text.starts_with("5x5: a tour exists for "));
/// assert!(text.lines().any(|l| l.starts_with("a1  —")));
/// ```
pub fn write_text(pairs: &Pairs, out: &mut dyn Write) -> io::Result<()> {
    let board = pairs.board();
    let totals = pairs.totals();
    writeln!(out, "{}", pairs.answer_line())?;
    writeln!(out)?;
    for mark in Mark::ANSWERS {
        let n = totals.of(mark);
        if n > 0 || matches!(mark, Mark::Found | Mark::Colour) {
            writeln!(
                out,
                "  {} {}: {}",
                mark.glyph(),
                mark.meaning(),
                thousands(n)
            )?;
        }
    }
    writeln!(out, "  {} {}", Mark::Same.glyph(), Mark::Same.meaning())?;
    writeln!(out)?;
    let squares = pairs.squares();
    let name_width = squares
        .iter()
        .map(|&s| board.algebraic(s).len())
        .max()
        .unwrap_or(2);
    let left = name_width.max(3) + 1;
    // The end squares' names, one character a line, over their columns.
    let names: Vec<Vec<char>> = squares
        .iter()
        .map(|&s| {
            let mut name: Vec<char> = file_letters(s.col).chars().collect();
            let rank = format!("{:>w$}", board.rows() - s.row, w = rank_width(board));
            name.extend(rank.chars());
            name
        })
        .collect();
    // A space before each file's first square (squares come file by file: a1, a2, ..., b1).
    let gap: Vec<bool> = (0..squares.len())
        .map(|i| i > 0 && squares[i].col != squares[i - 1].col)
        .collect();
    let tall = names.iter().map(Vec::len).max().unwrap_or(0);
    for line in 0..tall {
        let mut text = format!("{:left$}", if line == 0 { "end" } else { "" });
        for (i, name) in names.iter().enumerate() {
            if gap[i] {
                text.push(' ');
            }
            // Align the names at the bottom.
            let pad = tall - name.len();
            text.push(if line >= pad { name[line - pad] } else { ' ' });
        }
        writeln!(out, "{}", text.trim_end())?;
    }
    writeln!(out, "start")?;
    for &s in &squares {
        let mut text = format!("{:left$}", board.algebraic(s));
        for (i, &e) in squares.iter().enumerate() {
            if gap[i] {
                text.push(' ');
            }
            text.push_str(pairs.mark(s, e).glyph());
        }
        writeln!(out, "{}", text.trim_end())?;
    }
    Ok(())
}

/// Digits of the largest rank.
fn rank_width(board: Board) -> usize {
    board.rows().to_string().len()
}
