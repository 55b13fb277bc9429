//! `knights-tour verify [OPTIONS] FILE...`
//!
//! Checks every knight's tour on every worksheet of each workbook (xlsx, xlsm, xlsb, xls, ods,
//! CSV/TSV, generate's JSON and text grids; the content decides the format, not the extension;
//! folders are walked, `-` is standard input, see [`inputs`]): grids of move numbers and lists of
//! squares, as many as a sheet holds. `--format text` (the default) prints one line per board:
//! the verdict (`closed`, `open`, `partial`, `invalid`; `no-board` for a sheet without one),
//! where the board is, its start and end, then every problem found. `--format json` (or
//! `--json`) prints one JSON document, `--format csv` one row per board (a class report).
//!
//! Exit codes: 0 when every file holds at least one board and every board is a complete tour;
//! 1 when a board is `partial` or `invalid`, or a file holds no board; 2 when a file cannot be
//! read (or a `--sheet` is missing, or the usage is wrong).

use std::path::PathBuf;

use crate::cli::progress::{self, Spinner};
use crate::error::{Error, Result};
use crate::exit_codes;
use crate::output;
use crate::solve::backtrack::Budget;
use crate::verify::{complete, csv, inputs, text, JsonDocument, Totals, VerifyOptions};
use crate::workbook::cellref::{CellRange, CellRef};
use crate::writing::WriteBudget;

/// Options of `knights-tour verify`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Workbooks (xlsx, xlsm, xlsb, xls, ods), CSV/TSV files, generate's .json/.txt, or
    /// folders (walked for workbooks and CSV/TSV, hidden files skipped); `-` reads standard
    /// input.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// Check only this sheet (repeat for several); all sheets by default.
    #[arg(long = "sheet", value_name = "NAME")]
    pub sheets: Vec<String>,
    /// Where the board is, e.g. A1:H8 (skips board detection; applies to every sheet checked).
    #[arg(long, value_name = "RANGE", value_parser = parse_range)]
    pub range: Option<CellRange>,
    /// The report's format: text for people, json for programs, csv (one row per board) for a
    /// class report.
    #[arg(long, value_enum, conflicts_with_all = ["quiet", "json"])]
    pub format: Option<ReportFormat>,
    /// Print one JSON document instead of text (same as --format json).
    #[arg(long, conflicts_with = "quiet")]
    pub json: bool,
    /// The chessboard of tours written as lists of squares, e.g. 8x8 (default: the smallest
    /// board anchored at a1 that holds every square listed).
    #[arg(long, value_name = "RxC", value_parser = parse_size)]
    pub board_size: Option<(u32, u32)>,
    /// With --complete, complete only the board whose top-left cell is this (e.g. H3) on a
    /// sheet holding several.
    #[arg(long, value_name = "CELL", requires = "complete", value_parser = parse_cell)]
    pub board: Option<CellRef>,
    /// Print nothing; the exit code says it all.
    #[arg(long, short)]
    pub quiet: bool,
    /// Extend each failed attempt (`partial` sheet) to a full tour keeping its moves, and write
    /// the completed boards to this .xlsx (added moves styled apart, plus a Summary sheet);
    /// says when no completion exists.
    #[arg(long, value_name = "OUT.xlsx")]
    pub complete: Option<PathBuf>,
    /// Replace the --complete workbook if it exists.
    #[arg(long, requires = "complete")]
    pub force: bool,
}

/// `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ReportFormat {
    /// Lines for people.
    Text,
    /// One JSON document.
    Json,
    /// One CSV row per board.
    Csv,
}

fn parse_cell(text: &str) -> std::result::Result<CellRef, String> {
    text.parse::<CellRef>().map_err(|e| e.to_string())
}

fn parse_size(text: &str) -> std::result::Result<(u32, u32), String> {
    let bad = || format!("'{text}' is not a board size: give ROWSxCOLS, e.g. 8x8");
    let (r, c) = text.trim().split_once(['x', 'X']).ok_or_else(bad)?;
    let rows: u32 = r.trim().parse().map_err(|_| bad())?;
    let cols: u32 = c.trim().parse().map_err(|_| bad())?;
    crate::board::Board::new(rows, cols).map_err(|e| e.to_string())?;
    Ok((rows, cols))
}

fn parse_range(text: &str) -> std::result::Result<CellRange, String> {
    text.parse::<CellRange>().map_err(|e| e.to_string())
}

/// Run `knights-tour verify`.
pub fn run(args: Args) -> Result<u8> {
    // A reader that panics on a hostile file is caught (see workbook::read); keep its panic
    // message off the user's terminal, the report says what happened.
    crate::workbook::read::quiet_guarded_panics();
    if let Some(out) = &args.complete {
        let out = crate::export::format::xlsx_output(&out.to_string_lossy(), "--complete")?;
        output::check_writable(&out, args.force)?;
    }
    let format = match (args.format, args.json) {
        (Some(f), _) => f,
        (None, true) => ReportFormat::Json,
        (None, false) => ReportFormat::Text,
    };
    let options = VerifyOptions {
        sheets: args.sheets,
        range: args.range,
        board: args.board,
        board_size: args.board_size,
        drawings: format == ReportFormat::Text && !args.quiet,
    };
    let spinner = Spinner::new();
    // Text and CSV stream file by file; reports are kept only for JSON and --complete.
    let stream = !args.quiet && format != ReportFormat::Json;
    let keep = format == ReportFormat::Json || args.complete.is_some();
    let mut code = exit_codes::SUCCESS;
    let mut reports = Vec::new();
    let mut totals = Totals::default();
    if stream && format == ReportFormat::Csv {
        write_stdout(&csv::header())?;
    }
    let inputs = inputs::expand(&args.files).map_err(Error::Usage)?;
    for input in &inputs {
        spinner.set(&format!("reading {}", input.label()));
        let report = inputs::verify_input(input, &options);
        code = code.max(report.exit_code());
        totals.add(&report);
        if !args.quiet && report.readable && !report.has_board() {
            eprintln!(
                "knights-tour: no board found in {}",
                text::escape_control(&report.file)
            );
        }
        if stream {
            match format {
                ReportFormat::Csv => write_stdout(&csv::rows(&report))?,
                _ => write_stdout(&text::render_file(&report))?,
            }
        }
        if keep {
            reports.push(report);
        }
    }
    let completions = match &args.complete {
        Some(out) => {
            spinner.set("completing failed attempts");
            let budget = Budget {
                meter: Some(progress::meter()),
                ..Budget::nodes(complete::DEFAULT_NODE_BUDGET)
            };
            let show = |msg: &str| spinner.set(msg);
            let writing = WriteBudget::new(out.display().to_string(), None, Some(&show));
            let items = complete::complete_reports(&reports, out, args.force, &budget, &writing)?;
            Some(complete::render_completions(&items, out))
        }
        None => None,
    };
    spinner.finish();
    if stream && format == ReportFormat::Text && totals.files > 1 {
        write_stdout(&text::render_totals(&totals))?;
    }
    if format == ReportFormat::Json && !args.quiet {
        let doc = JsonDocument { files: reports };
        let json = serde_json::to_string_pretty(&doc)
            .map_err(|e| Error::Other(format!("cannot write the JSON report: {e}")))?;
        write_stdout(&(json + "\n"))?;
    }
    if let Some(lines) = &completions {
        // With --format json or csv, stdout stays a single document.
        if format != ReportFormat::Text {
            eprint!("{lines}");
        } else if !args.quiet {
            write_stdout(lines)?;
        }
    }
    Ok(code)
}

/// Print the report; a reader that went away (`| head`) is not an error, and the progress
/// line steps aside (see [`output::print_stdout`]).
fn write_stdout(text: &str) -> Result<()> {
    output::print_stdout(text)
}
