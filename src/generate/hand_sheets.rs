//! The hand method's steps ([`crate::solve::hand`]), one worksheet each before the tour they
//! made, laid out like every board here (the board at the spec's top-left cell, file letters
//! above, ranks left, notes beside), and its record on the Summary sheet.
//!
//! - `Step 1 - the edges`: the path when every square of the two outer rings is visited, its
//!   move numbers as numbers; the centre's squares filled grey ([`CENTRE_FILL`]).
//! - `Step 2 - a cycle`: the path closed into a cycle, the squares that close it filled orange
//!   ([`CLOSING_FILL`]); the squares still unvisited blank.
//! - `Step 3 - insertions`: the cycle's numbers, and each inserted square labelled after the
//!   square it follows, as text: `5a`, `5b` ... ([`crate::solve::hand::Insertion::label`]),
//!   italic blue on green ([`INSERTED_FILL`]), as in the article's figure. `verify` reads the
//!   labels in order (5a after 5), so the sheet checks as the closed tour it describes.
//! - The tour's own sheet follows (`Tour 1`): the same tour renumbered from 1.
//!
//! Step 1 and Step 2 are failed attempts to `verify` (`partial`): numbers 1..k, a knight's
//! path, the other squares blank. Everything else on the sheets is text.

use rust_xlsxwriter::{Color, Format, Url, Workbook, Worksheet, XlsxError};

use crate::board::{Board, Square};
use crate::english::{all_squares, count_usize};
use crate::generate::workbook::WorkbookSpec;
use crate::solve::hand::{in_rings, HandTour};
use crate::workbook::write::board_layout::{self, BoardLayout};
use crate::workbook::write::styles::{edges, ringed, BoardFormats, SquareKind, TextFormats};

/// Fill of the centre's squares on Steps 1 and 2 (the squares inside the two outer rings).
pub const CENTRE_FILL: u32 = 0xE7E6E6;
/// Fill of the squares that close the path into a cycle (Step 2).
pub const CLOSING_FILL: u32 = 0xF8CBAD;
/// Fill of the inserted squares (Step 3).
pub const INSERTED_FILL: u32 = 0xE2EFDA;
/// Font colour of the inserted squares' labels (Step 3).
pub const INSERTED_FONT: u32 = 0x0070C0;
/// Border of the squares a run goes in between (Step 3).
pub const PAIR_MARK: u32 = 0x548235;

/// A run of Step 3 listed on its sheet with at most this many squares (all of them on the
/// Summary).
const MAX_LISTED_SQUARES: usize = 8;

/// Names of the step sheets, in order.
pub const STEP_SHEETS: [&str; 3] = [
    "Step 1 - the edges",
    "Step 2 - a cycle",
    "Step 3 - insertions",
];

/// The step sheets' names for the tour of attempt `number`: [`STEP_SHEETS`], with ` (tour N)`
/// when the workbook holds the steps of `several` tours (names must be unique).
///
/// ```
/// use knights_tour::generate::hand_sheets::step_sheet_names;
/// assert_eq!(step_sheet_names(1, false)[2], "Step 3 - insertions");
/// assert_eq!(step_sheet_names(12, true)[2], "Step 3 - insertions (tour 12)");
/// ```
pub fn step_sheet_names(number: usize, several: bool) -> [String; 3] {
    STEP_SHEETS.map(|s| match several {
        true => format!("{s} (tour {number})"),
        false => s.to_string(),
    })
}

/// What one square of a step sheet shows.
enum Cell {
    Blank,
    Number(u32),
    Label(String),
}

/// How one square of a step sheet looks, besides its outer edges.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Look {
    Plain,
    Start,
    End,
    Centre,
    Closing,
    Inserted,
    /// A square of the cycle a run goes in after or before (5 and 6 of `5 -> 5a..5d -> 6`).
    Pair,
}

/// One step sheet's board and notes.
struct StepSheet<'a> {
    name: &'a str,
    title: String,
    status: String,
    lines: Vec<String>,
    cells: Vec<(Cell, Look)>,
}

/// Add the three step sheets of `built` to `workbook` under `names`; `tour_sheet` is the name
/// of the tour's own sheet, which the notes point to.
pub(crate) fn add_step_sheets(
    workbook: &mut Workbook,
    spec: &WorkbookSpec,
    built: &HandTour,
    names: &[String; 3],
    tour_sheet: &str,
) -> Result<(), XlsxError> {
    for step in [
        edges_sheet(spec, built, &names[0]),
        cycle_sheet(built, &names[1]),
        insertions_sheet(built, &names[2], tour_sheet),
    ] {
        add_sheet(workbook, spec, built.tour.board(), &step)?;
    }
    Ok(())
}

/// The look of every square of a path's sheet: start, end, centre or plain.
fn path_cells(built: &HandTour, path: &crate::tour::Tour) -> Vec<(Cell, Look)> {
    let board = path.board();
    let numbers = path.numbering();
    let last = path.len() as u32;
    board
        .squares()
        .map(|sq| {
            let n = numbers[board.index(sq) as usize];
            let look = match n {
                1 => Look::Start,
                n if n == last => Look::End,
                n if n > built.edges.len() as u32 => Look::Closing,
                _ if !in_rings(board, sq) => Look::Centre,
                _ => Look::Plain,
            };
            let cell = if n == 0 { Cell::Blank } else { Cell::Number(n) };
            (cell, look)
        })
        .collect()
}

fn edges_sheet<'a>(spec: &WorkbookSpec, built: &HandTour, name: &'a str) -> StepSheet<'a> {
    let board = built.tour.board();
    let path = &built.edges;
    let rings = board.squares().filter(|&s| in_rings(board, s)).count();
    let in_centre = path.squares().filter(|&s| !in_rings(board, s)).count();
    let centre = board.len() - rings;
    let mut lines = vec![
        format!(
            "Start {} (yellow); the path ends at {} (purple)",
            algebraic(board, path.start()),
            algebraic(board, path.end())
        ),
        "Rules: take a corner when one is a move away; else a square on the edge;".to_string(),
        format!("else one on the second ring; the centre (grey, {centre} squares) only when no"),
        "square of the two rings is a move away. Equal options: chosen at random".to_string(),
    ];
    match spec.seed {
        Some(seed) => lines.push(format!(
            "Seed: {seed}; the choices are listed on the Summary sheet"
        )),
        None => lines.push("The choices are listed on the Summary sheet".to_string()),
    }
    if !built.failed.is_empty() {
        lines.push(format!(
            "Walk {}: the {} before it failed and were started again (see the Summary)",
            built.failed.len() + 1,
            count_usize(built.failed.len(), "walk")
        ));
    }
    lines.push("Numbers are move numbers".to_string());
    StepSheet {
        name,
        title: format!("Step 1 of 3: the edges, on the {board} board"),
        status: format!(
            "All {rings} squares of the two outer rings visited: a path of {} squares, {in_centre} in the centre",
            path.len()
        ),
        lines,
        cells: path_cells(built, path),
    }
}

fn cycle_sheet<'a>(built: &HandTour, name: &'a str) -> StepSheet<'a> {
    let board = built.tour.board();
    let (k, l) = (built.edges.len(), built.cycle.len());
    let closing = match l - k {
        0 => format!("Step 1's end, {k}, is already a move from 1: no square added"),
        1 => format!("Move {l} (purple) closes the path through the centre"),
        _ => format!(
            "Moves {}-{l} (orange, the last purple) close the path through the centre",
            k + 1
        ),
    };
    StepSheet {
        name,
        title: format!("Step 2 of 3: a cycle, on the {board} board"),
        status: format!("A cycle of {l} squares: {l} is a knight's move from 1"),
        lines: vec![
            closing,
            format!(
                "{} left blank: Step 3 inserts them",
                count_usize(board.len() - l, "square")
            ),
            "Numbers are move numbers".to_string(),
        ],
        cells: path_cells(built, &built.cycle),
    }
}

fn insertions_sheet<'a>(built: &HandTour, name: &'a str, tour_sheet: &str) -> StepSheet<'a> {
    let board = built.tour.board();
    let l = built.cycle.len() as u32;
    let mut cells: Vec<(Cell, Look)> = path_cells(built, &built.cycle)
        .into_iter()
        .map(|(cell, look)| {
            let look = match look {
                Look::Start => Look::Start,
                _ => Look::Plain,
            };
            (cell, look)
        })
        .collect();
    let cycle: Vec<Square> = built.cycle.squares().collect();
    for run in &built.insertions {
        for (i, &sq) in run.squares.iter().enumerate() {
            cells[board.index(sq) as usize] = (Cell::Label(run.label(i)), Look::Inserted);
        }
        for k in [run.after as usize - 1, run.after as usize % cycle.len()] {
            let look = &mut cells[board.index(cycle[k]) as usize].1;
            if *look != Look::Start {
                *look = Look::Pair;
            }
        }
    }
    let inserted: usize = built.insertions.iter().map(|r| r.squares.len()).sum();
    let mut lines = vec![
        "Each inserted square (green) is labelled after the square it follows: 5a comes"
            .to_string(),
        "after 5, 5b after 5a, and the run goes on to 6 (5 and 6 ringed green). The runs:"
            .to_string(),
    ];
    // A long run names its first and last squares only, so the notes stay beside the board.
    lines.extend(
        built
            .insertions
            .iter()
            .map(|r| r.describe_listing(board, l, MAX_LISTED_SQUARES)),
    );
    lines.push(format!(
        "'{tour_sheet}' numbers the tour 1 to {} in this order",
        board.len()
    ));
    let status = match inserted {
        0 => format!(
            "Nothing to insert: the cycle is a closed tour of {}",
            all_squares(board.len())
        ),
        _ => format!(
            "A closed tour of {}: the cycle with {} inserted in {}",
            all_squares(board.len()),
            count_usize(inserted, "square"),
            count_usize(built.insertions.len(), "run")
        ),
    };
    StepSheet {
        name,
        title: format!("Step 3 of 3: insertions, on the {board} board"),
        status,
        lines,
        cells,
    }
}

fn algebraic(board: Board, sq: Option<Square>) -> String {
    sq.map(|s| board.algebraic(s)).unwrap_or_default()
}

/// Write one step sheet.
fn add_sheet(
    workbook: &mut Workbook,
    spec: &WorkbookSpec,
    board: Board,
    step: &StepSheet<'_>,
) -> Result<(), XlsxError> {
    let bl = BoardLayout::new(board, spec.top_left).map_err(crate::workbook::write::fit_error)?;
    let sheet = workbook.add_worksheet();
    sheet.set_name(step.name)?;
    bl.set_geometry(sheet)?;
    let f = TextFormats::new();
    let mut lines = vec![(step.status.clone(), &f.good)];
    lines.extend(step.lines.iter().map(|l| (l.clone(), &f.plain)));
    let texts = board_layout::place_texts(&bl, step.title.clone(), lines, &f);
    for t in &texts {
        sheet.write_string_with_format(t.cell.row, t.cell.col as u16, &t.text, t.format)?;
    }
    write_board(sheet, &bl, step)?;
    bl.quiet_label_warnings(sheet)?;
    bl.set_print_page(sheet, bl.print_area(&texts), true)
}

fn write_board(
    sheet: &mut Worksheet,
    bl: &BoardLayout,
    step: &StepSheet<'_>,
) -> Result<(), XlsxError> {
    let board = bl.board;
    let base = BoardFormats::new(bl.look.font_size);
    let (rows, cols) = (board.rows(), board.cols());
    for sq in board.squares() {
        let (cell, look) = &step.cells[board.index(sq) as usize];
        let e = edges(sq.row, sq.col, rows, cols);
        let format = square_format(&base, *look, e);
        let at = bl.cell(sq.row, sq.col);
        let (row, col) = (at.row, at.col as u16);
        match cell {
            Cell::Blank => sheet.write_blank(row, col, &format)?,
            Cell::Number(n) => sheet.write_number_with_format(row, col, *n, &format)?,
            Cell::Label(text) => sheet.write_string_with_format(row, col, text, &format)?,
        };
    }
    Ok(())
}

fn square_format(base: &BoardFormats, look: Look, e: u8) -> Format {
    let fill = |f: &Format, rgb: u32| f.clone().set_background_color(Color::RGB(rgb));
    match look {
        Look::Plain => base.get(SquareKind::Plain, e).clone(),
        Look::Start => base.get(SquareKind::Start, e).clone(),
        Look::End => base.get(SquareKind::End, e).clone(),
        Look::Centre => fill(base.get(SquareKind::Plain, e), CENTRE_FILL),
        Look::Closing => fill(base.get(SquareKind::Plain, e), CLOSING_FILL),
        Look::Inserted => fill(base.get(SquareKind::Plain, e), INSERTED_FILL)
            .set_italic()
            .set_font_color(Color::RGB(INSERTED_FONT)),
        Look::Pair => ringed(base.get(SquareKind::Plain, e).clone(), PAIR_MARK),
    }
}

/// The hand method's record on the Summary sheet from `row` on: its sheets (linked), the walks
/// that failed, how Step 2 closed the path, the runs Step 3 inserted and between which squares,
/// and every choice of Step 1. All text (move numbers written `move 5`), so `verify` finds no
/// board in it. Returns the last row written.
pub(crate) fn add_summary_record(
    sheet: &mut Worksheet,
    row: u32,
    spec: &WorkbookSpec,
    built: &HandTour,
    names: &[String; 3],
    tour_sheet: &str,
) -> Result<u32, XlsxError> {
    let mut lines: Vec<(String, bool)> = Vec::new();
    lines.push(("The hand method, step by step".into(), true));
    walk_lines(&mut lines, spec, built);
    step_lines(&mut lines, built);
    choice_lines(&mut lines, built);
    let bold = Format::new().set_bold();
    let mut r = row;
    for (text, is_head) in lines {
        match is_head {
            true => sheet.write_string_with_format(r, 0, text, &bold)?,
            false => sheet.write_string(r, 0, text)?,
        };
        r += 1;
        if is_head && r == row + 1 {
            // The sheets, linked, right under the first heading.
            for (name, what) in names.iter().zip(["the edges", "a cycle", "insertions"]) {
                let link = Url::new(format!("internal:'{name}'!{}", spec.top_left))
                    .set_text(name.as_str());
                sheet.write_url(r, 0, link)?;
                sheet.write_string(r, 1, format!("Step: {what}"))?;
                r += 1;
            }
            let link =
                Url::new(format!("internal:'{tour_sheet}'!{}", spec.top_left)).set_text(tour_sheet);
            sheet.write_url(r, 0, link)?;
            sheet.write_string(r, 1, "the tour, renumbered")?;
            r += 1;
        }
    }
    Ok(r.saturating_sub(1))
}

/// The record's walks: how many, and why each that failed did.
fn walk_lines(lines: &mut Vec<(String, bool)>, spec: &WorkbookSpec, built: &HandTour) {
    let board = built.tour.board();
    let seed = spec.seed.map_or(String::new(), |s| {
        format!("; every choice among equals drawn from seed {s}")
    });
    let walks = match built.failed.len() {
        0 => "1, and it succeeded".to_string(),
        n => format!(
            "{}: the first {} failed and the person started again from scratch; the last succeeded",
            n + 1,
            count_usize(n, "walk")
        ),
    };
    lines.push((format!("Walks: {walks}{seed}"), false));
    const MAX_LISTED_WALKS: usize = 50;
    for (i, w) in built.failed.iter().take(MAX_LISTED_WALKS).enumerate() {
        lines.push((
            format!(
                "  walk {} from {}: {}",
                i + 1,
                board.algebraic(w.start),
                w.failure.words(board)
            ),
            false,
        ));
    }
    if built.failed.len() > MAX_LISTED_WALKS {
        lines.push((
            format!(
                "  ... and {} more failed walks",
                built.failed.len() - MAX_LISTED_WALKS
            ),
            false,
        ));
    }
}

/// How Step 2 closed the path and which runs Step 3 inserted where.
fn step_lines(lines: &mut Vec<(String, bool)>, built: &HandTour) {
    let board = built.tour.board();
    let (k, l) = (built.edges.len(), built.cycle.len());
    let closing: Vec<String> = built
        .cycle
        .squares()
        .skip(k)
        .map(|s| board.algebraic(s))
        .collect();
    lines.push((
        format!(
            "Step 2 closed the path from {} (move {k}) back to {} (move 1) {}",
            algebraic(board, built.edges.end()),
            algebraic(board, built.cycle.start()),
            match closing.is_empty() {
                true => "directly".to_string(),
                false => format!("through {}", closing.join(" ")),
            }
        ),
        false,
    ));
    lines.push((
        format!(
            "Step 3 inserted {} between consecutive squares of the cycle:",
            count_usize(built.insertions.len(), "run")
        ),
        false,
    ));
    let cycle: Vec<Square> = built.cycle.squares().collect();
    for run in &built.insertions {
        let before = cycle[run.after as usize - 1];
        let after = cycle[run.after as usize % cycle.len()];
        lines.push((
            format!(
                "  {}, between {} and {}",
                run.describe(board, l as u32),
                board.algebraic(before),
                board.algebraic(after)
            ),
            false,
        ));
    }
}

/// Every choice of Step 1 where the knight had more than one square to go to.
fn choice_lines(lines: &mut Vec<(String, bool)>, built: &HandTour) {
    let board = built.tour.board();
    lines.push((
        format!(
            "Step 1's choices: {} where the knight had more than one square to go to",
            count_usize(built.choices.len(), "move")
        ),
        true,
    ));
    for c in &built.choices {
        let names = |list: &[Square]| {
            list.iter()
                .map(|&s| board.algebraic(s))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let how = match c.equal.len() {
            1 => "the rule decided".to_string(),
            _ => format!("at random among {}", names(&c.equal)),
        };
        lines.push((
            format!(
                "  move {}: {} ({}; {how}; options {})",
                c.move_number,
                board.algebraic(c.square),
                c.rule.words(),
                names(&c.options)
            ),
            false,
        ));
    }
}
