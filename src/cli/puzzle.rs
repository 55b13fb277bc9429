//! `knights-tour puzzle`: knight's-tour puzzles to solve in a spreadsheet, each with exactly one
//! answer.
//!
//! ```text
//! Usage: knights-tour puzzle [OPTIONS]
//!
//! Each puzzle is a board with some move numbers given; the rest are to be filled in so that
//! the numbers 1..N follow a knight's path. The answer is proved unique by an exhaustive count
//! before the puzzle is written.
//!
//! Examples:
//!   knights-tour puzzle                              # one medium 8x8 puzzle -> knights-tour-puzzle.xlsx
//!   knights-tour puzzle --size 6 --difficulty hard --count 3 --seed 7 -o hard.xlsx
//!   knights-tour puzzle --rows 6 --cols 7 --clues 14 -o puzzle.json
//!   knights-tour puzzle --size 8 --format text -o -
//! ```
//!
//! This file only parses and prints; [`crate::puzzle`] makes the puzzles and
//! [`crate::puzzle::sheets`] lays out the workbook.
//!
//! Exit codes: 0 the puzzles were written; 1 no puzzle with a proved unique answer was found
//! within --timeout (nothing written); 2 usage error or impossible request (nothing written).

use std::io::Write;
use std::time::Duration;

use crate::board::Board;
use crate::cli::args::{timeout, BoardArgs};
use crate::cli::progress::Spinner;
use crate::error::{Error, Result};
use crate::exit_codes;
use crate::output::format::Format;
use crate::output::write_budget::{search_share, WriteBudget};
use crate::output::{self, Destination};
use crate::puzzle::{self, clues_for, Difficulty, Puzzle, PuzzleError};
use crate::solve::{rng_from_seed, Budget};
use crate::workbook::cellref::CellRef;

/// Most puzzles one run makes.
const MAX_COUNT: u32 = 1000;

/// Options of `knights-tour puzzle`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Write knight's-tour puzzles (some move numbers given, one answer) to solve in a spreadsheet",
    long_about = "Write knight's-tour puzzles to solve in a spreadsheet.\n\n\
        Each puzzle is a board with some move numbers given; fill in the rest so that the \
        numbers 1..N follow a knight's path. Every puzzle has exactly one answer, proved by an \
        exhaustive count before it is written. In the workbook each puzzle is a sheet: the \
        numbers given are locked (sheet protection without a password), the empty squares \
        flag mistakes as you type, and a Solutions sheet holds the answers.\n\n\
        The output format follows the file's extension: .xlsx, .csv, .json or .txt.",
    after_help = "Difficulty: easy gives 40% of the squares, medium 30% (the default), hard 22%; \
        --clues K gives exactly K instead. Larger boards and fewer clues take longer to prove \
        unique: --timeout bounds the whole run.\n\
        The seed is reported on stderr and in the JSON: the same --seed gives the same puzzles.\n\
        Exit codes: 0 puzzles written; 1 none with a proved unique answer found within --timeout \
        (nothing written); 2 usage error or impossible request."
)]
pub struct Args {
    /// Board size.
    #[command(flatten)]
    pub board: BoardArgs,

    /// How many move numbers to give (instead of --difficulty).
    #[arg(long, value_name = "K", conflicts_with = "difficulty")]
    pub clues: Option<usize>,

    /// How hard: how many numbers are given (easy 40%, medium 30%, hard 22% of the squares)
    /// [default: medium].
    #[arg(long, value_enum)]
    pub difficulty: Option<Difficulty>,

    /// How many puzzles (one sheet each).
    #[arg(long, default_value_t = 1, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=MAX_COUNT as i64))]
    pub count: u32,

    /// Seed for every random choice; the same seed gives the same puzzles. Default: random,
    /// and reported.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,

    /// Time allowed to the whole run, in seconds [default: 60]; when it runs out before every
    /// puzzle is proved unique, nothing is written and the exit code is 1.
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,

    /// Output format (it may not contradict -o's extension). Without -o, csv, json and text go
    /// to standard output and xlsx to knights-tour-puzzle.xlsx. Default: from -o, else xlsx.
    #[arg(long, value_enum)]
    pub format: Option<Format>,

    /// Output file (.xlsx, .csv, .json, .txt), or `-` for standard output with --format csv,
    /// json or text. Default: knights-tour-puzzle.xlsx (with --format csv, json or text:
    /// standard output).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<String>,

    /// Overwrite the output file if it exists.
    #[arg(long)]
    pub force: bool,

    /// The board's top-left cell on each sheet (xlsx only) [default: C3].
    #[arg(long, value_name = "CELL")]
    pub at: Option<String>,
}

/// What the flags ask for, checked once.
struct Job {
    board: Board,
    clues: usize,
    difficulty: Option<Difficulty>,
    count: usize,
    seed: u64,
    timeout: Duration,
    format: Format,
    dest: Destination,
    at: CellRef,
}

/// Run `knights-tour puzzle`.
pub fn run(args: Args) -> Result<u8> {
    let job = job(&args)?;
    if let Destination::File(path) = &job.dest {
        output::check_writable(path, args.force)?;
    }
    let spinner = Spinner::new();
    // The puzzles are written after the search: it gets its share of the time limit, the
    // write the rest (a write the limit stops leaves no file).
    let deadline = std::time::Instant::now().checked_add(job.timeout);
    let budget = Budget {
        meter: Some(crate::cli::progress::meter()),
        ..Budget::time(search_share(job.timeout))
    };
    let count = job.count;
    let made = puzzle::make_many(
        job.board,
        job.clues,
        count,
        &mut rng_from_seed(job.seed),
        &budget,
        &mut |i| spinner.set(&format!("making puzzle {i} of {count}")),
    );
    let puzzles = match made {
        Ok(p) => p,
        Err(PuzzleError::TimeLimit) => {
            spinner.finish();
            eprintln!("seed {}: repeat with --seed {}", job.seed, job.seed);
            eprintln!(
                "knights-tour puzzle: no puzzle with a proved unique answer found within the \
                 time limit ({} s); nothing written",
                job.timeout.as_secs_f64()
            );
            return Ok(exit_codes::FAILURE);
        }
        Err(e @ PuzzleError::WillNotFit { .. }) => {
            spinner.finish();
            eprintln!("seed {}: repeat with --seed {}", job.seed, job.seed);
            eprintln!(
                "knights-tour puzzle: {e} (--timeout {} s); nothing written",
                job.timeout.as_secs_f64()
            );
            return Ok(exit_codes::FAILURE);
        }
        Err(PuzzleError::NoTour(why)) => {
            return Err(Error::Impossible(format!("no puzzle: {why}")))
        }
        Err(e @ PuzzleError::Clues { .. }) => return Err(Error::Usage(e.to_string())),
    };
    let show = |msg: &str| spinner.set(msg);
    let writing = WriteBudget::new(job.dest.display(), deadline, Some(&show));
    let written = write(&job, &puzzles, args.force, &writing);
    spinner.finish();
    eprintln!("seed {}: repeat with --seed {}", job.seed, job.seed);
    written?;
    let message = format!(
        "wrote {}: {} on {}, {} of {} squares given, each answer proved unique",
        job.dest.display(),
        crate::english::count(count as u64, "puzzle"),
        crate::english::a_board(job.board),
        job.clues,
        job.board.len()
    );
    if job.dest == Destination::Stdout {
        eprintln!("{message}");
    } else {
        output::print_stdout(&format!("{message}\n"))?;
    }
    Ok(exit_codes::SUCCESS)
}

/// Turn the flags into a job; every usage error stops here, before any work.
fn job(args: &Args) -> Result<Job> {
    let board = args.board.board()?;
    let (format, dest) = Format::resolve(
        args.format,
        args.output.as_deref(),
        "knights-tour-puzzle.xlsx",
    )?;
    if format != Format::Xlsx && args.at.is_some() {
        return Err(Error::Usage(format!(
            "--at lays out a workbook; it does not apply to {} output",
            format.name()
        )));
    }
    let at: CellRef = args
        .at
        .as_deref()
        .unwrap_or("C3")
        .parse()
        .map_err(|e| Error::Usage(format!("--at: {e}")))?;
    crate::template::Template::new(board, at)
        .map_err(|e| Error::Usage(format!("--at {}: {e}", args.at.as_deref().unwrap_or("C3"))))?;
    let clues = match args.clues {
        Some(k) if k == 0 || k > board.len() => {
            return Err(Error::Usage(format!(
                "--clues: a puzzle on {} gives 1 to {} numbers, not {k}",
                crate::english::a_board(board),
                board.len()
            )))
        }
        Some(k) => k,
        None => clues_for(board, args.difficulty.unwrap_or_default()),
    };
    Ok(Job {
        board,
        clues,
        difficulty: match args.clues {
            Some(_) => None,
            None => Some(args.difficulty.unwrap_or_default()),
        },
        count: args.count as usize,
        seed: args.seed.unwrap_or_else(crate::solve::random_seed),
        timeout: timeout(args.timeout)?,
        format,
        dest,
        at,
    })
}

/// Write the puzzles in the job's format, atomically.
fn write(job: &Job, puzzles: &[Puzzle], force: bool, budget: &WriteBudget<'_>) -> Result<()> {
    let fill = |out: &mut dyn Write| -> std::io::Result<()> {
        match job.format {
            Format::Csv => crate::puzzle::formats::write_csv(puzzles, out),
            Format::Json => crate::puzzle::formats::write_json(
                puzzles,
                job.seed,
                job.difficulty.map(|d| d.name()),
                out,
            ),
            Format::Text => crate::puzzle::formats::write_text(puzzles, out),
            Format::Xlsx => unreachable!("workbooks are written below"),
        }
    };
    match (&job.dest, job.format) {
        (Destination::File(path), Format::Xlsx) => {
            output::write_atomically_with(path, force, budget, |out| {
                let to_error = |e: rust_xlsxwriter::XlsxError| Error::Workbook {
                    path: path.clone(),
                    message: e.to_string(),
                };
                let mut book =
                    crate::puzzle::sheets::workbook(puzzles, job.at).map_err(to_error)?;
                book.save_to_writer(out).map_err(to_error)
            })
        }
        (Destination::File(path), _) => output::write_atomically_with(path, force, budget, |out| {
            fill(out).map_err(|e| Error::io(path, e))
        }),
        (Destination::Stdout, _) => {
            let mut text = Vec::new();
            fill(&mut text).map_err(|e| Error::Other(e.to_string()))?;
            output::print_stdout(&String::from_utf8_lossy(&text))
        }
    }
}
