//! Puzzles as text: CSV and aligned grids give each puzzle's board (the numbers given, the
//! rest empty) and then its answer; JSON gives the numbers given as a list and the answer as a
//! tour document (`docs/schemas/puzzle.schema.json`).

use std::io::{self, Write};

use serde::Serialize;

use crate::board::Board;

use crate::output::grids::{write_csv as csv_grid, write_text as text_grid};
use crate::output::json::{BoardJson, TourJson};
use crate::output::write_budget::WriteBudget;
use crate::puzzle::Puzzle;

/// Every puzzle as CSV: its title, its board with the numbers given (empty squares blank), an
/// empty line, `Answer to puzzle N` and its answer; an empty line between puzzles. Each grid is one board row a line, as `generate`
/// writes a tour.
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::puzzle::make;
/// use knights_tour::solve::{rng_from_seed, Budget};
/// let p = make(Board::new(5, 5).unwrap(), 10, &mut rng_from_seed(1), &Budget::nodes(10_000_000)).unwrap();
/// let mut out = Vec::new();
/// knights_tour::puzzle::formats::write_csv(&[p], &mut out).unwrap();
/// assert_eq!(String::from_utf8(out).unwrap().lines().count(), 13);
/// ```
pub fn write_csv(puzzles: &[Puzzle], out: &mut dyn Write) -> io::Result<()> {
    write_grids(puzzles, out, csv_grid)
}

/// Every puzzle as aligned grids for a terminal: its title, the board with the numbers given
/// (`.` to fill in), then its answer.
pub fn write_text(puzzles: &[Puzzle], out: &mut dyn Write) -> io::Result<()> {
    write_grids(puzzles, out, text_grid)
}

/// Each puzzle's title and board, an empty line, its answer's title and board, each board
/// written by `grid`; an empty line between puzzles.
fn write_grids(
    puzzles: &[Puzzle],
    out: &mut dyn Write,
    grid: fn(Board, &[u32], &mut dyn Write, &WriteBudget<'_>) -> io::Result<()>,
) -> io::Result<()> {
    for (i, p) in puzzles.iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        writeln!(out, "{}", title(p, i + 1))?;
        grid(p.board, &p.given(), out, &WriteBudget::unlimited())?;
        writeln!(out)?;
        writeln!(
            out,
            "{} {}",
            crate::workbook::write::names::PUZZLE_ANSWER_TITLE,
            i + 1
        )?;
        grid(
            p.board,
            &p.solution.numbering(),
            out,
            &WriteBudget::unlimited(),
        )?;
    }
    Ok(())
}

/// `Knight's tour puzzle 1 (20 of 64 squares given)`: `verify` knows a puzzle by it.
fn title(p: &Puzzle, number: usize) -> String {
    format!(
        "{} {number} ({} of {} squares given)",
        crate::workbook::write::names::PUZZLE_TITLE,
        p.clues.len(),
        p.board.len()
    )
}

/// The JSON document of a run of puzzles.
#[derive(Serialize)]
struct PuzzlesJson<'a> {
    board: BoardJson,
    seed: u64,
    /// The seed in decimal digits: exact in every JSON reader, whatever its size.
    seed_text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    difficulty: Option<&'a str>,
    puzzles: Vec<PuzzleJson<'a>>,
}

#[derive(Serialize)]
struct PuzzleJson<'a> {
    clues: usize,
    given: Vec<GivenJson>,
    solution: TourJson<'a>,
}

#[derive(Serialize)]
struct GivenJson {
    #[serde(rename = "move")]
    move_number: u32,
    square: String,
}

/// Every puzzle as one JSON document: the board, the seed, the difficulty (absent when a
/// number of clues was asked for), and for each puzzle the numbers given (`move`, `square`)
/// and its answer as a tour.
pub fn write_json(
    puzzles: &[Puzzle],
    seed: u64,
    difficulty: Option<&str>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let Some(first) = puzzles.first() else {
        return Ok(());
    };
    let doc = PuzzlesJson {
        board: first.board.into(),
        seed,
        seed_text: seed.to_string(),
        difficulty,
        puzzles: puzzles
            .iter()
            .map(|p| PuzzleJson {
                clues: p.clues.len(),
                given: p
                    .clues
                    .iter()
                    .map(|c| GivenJson {
                        move_number: c.move_number,
                        square: p.board.algebraic(c.square),
                    })
                    .collect(),
                solution: TourJson::new(&p.solution),
            })
            .collect(),
    };
    serde_json::to_writer_pretty(&mut *out, &doc)?;
    writeln!(out)
}
