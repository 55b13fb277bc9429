//! Puzzle workbooks: one worksheet per puzzle, laid out as a practice board
//! ([`crate::template`]) with the given numbers locked under sheet protection (no
//! password) and the empty squares open for typing under the same live checks, then a
//! `Solutions` sheet with every answer.
//!
//! ```
//! use knights_tour::board::Board;
//! use knights_tour::puzzle::make;
//! use knights_tour::solve::{rng_from_seed, Budget};
//! use knights_tour::puzzle::sheets::workbook;
//! let board = Board::new(6, 6).unwrap();
//! let p = make(board, 14, &mut rng_from_seed(3), &Budget::nodes(50_000_000)).unwrap();
//! let mut book = workbook(&[p], "C3".parse().unwrap()).unwrap();
//! assert!(book.save_to_buffer().unwrap().len() > 1000);
//! ```

use rust_xlsxwriter::{DocProperties, Workbook, XlsxError};

use crate::english::a_board;
use crate::output::write_budget::WriteBudget;
use crate::puzzle::Puzzle;
use crate::template::{Content, Template};
use crate::workbook::cellref::CellRef;
use crate::workbook::write::{creation_time, excel_time};

/// Name of the sheet holding the answers.
pub const SOLUTIONS_SHEET: &str = "Solutions";

/// The worksheet name of puzzle `i` (from 1).
pub fn sheet_name(i: usize) -> String {
    format!("Puzzle {i}")
}

/// The workbook of `puzzles` (all on one board), each board's top-left square at `at`.
pub fn workbook(puzzles: &[Puzzle], at: CellRef) -> Result<Workbook, XlsxError> {
    let mut workbook = Workbook::new();
    let Some(first) = puzzles.first() else {
        return Err(XlsxError::ParameterError("no puzzle to write".into()));
    };
    let board = first.board;
    let template =
        Template::new(board, at).map_err(|e| XlsxError::ParameterError(e.to_string()))?;
    workbook.set_properties(
        &DocProperties::new()
            .set_title(format!("Knight's tour puzzles on {}", a_board(board)))
            .set_creation_datetime(&excel_time(creation_time())?),
    );
    for (i, puzzle) in puzzles.iter().enumerate() {
        let given = puzzle.given();
        let sheet = workbook.add_worksheet();
        sheet.set_name(sheet_name(i + 1))?;
        template.write(
            sheet,
            &content(puzzle, i + 1, &given),
            &WriteBudget::unlimited(),
        )?;
    }
    let answers: Vec<(String, Vec<u32>)> = puzzles
        .iter()
        .enumerate()
        .map(|(i, p)| {
            (
                format!(
                    "{} {}",
                    crate::workbook::write::names::PUZZLE_ANSWER_TITLE,
                    i + 1
                ),
                p.solution.numbering(),
            )
        })
        .collect();
    let sheet = workbook.add_worksheet();
    sheet.set_name(SOLUTIONS_SHEET)?;
    template.write_answers(sheet, &answers)?;
    Ok(workbook)
}

/// A puzzle sheet's title and instructions.
fn content<'a>(puzzle: &Puzzle, number: usize, given: &'a [u32]) -> Content<'a> {
    let squares = puzzle.board.len();
    let mut lines = vec![
        format!(
            "Fill in the empty squares with the missing numbers from 1 to {squares} so that \
             the knight visits the squares in that order (each move: two squares one way, one \
             the other). The numbers given are fixed."
        ),
        format!("There is exactly one answer; it is on the {SOLUTIONS_SHEET} sheet."),
    ];
    lines.extend(Template::colour_lines());
    Content {
        title: format!(
            "{} {number} on {} ({} of {squares} given)",
            crate::workbook::write::names::PUZZLE_TITLE,
            a_board(puzzle.board),
            puzzle.clues.len()
        ),
        lines,
        given,
    }
}
