//! `knights-tour pairs`: every (start, end) pair of a board answered.
//!
//! ```text
//! Usage: knights-tour pairs [OPTIONS]
//!
//! For every ordered pair of distinct squares: an open tour from the start to the end, or why
//! none exists (the colours, another theorem, or an exhaustive search's proof); pairs the time
//! limit leaves open are marked "not answered". The first line answers the question of the
//! Delphi program's companion, AllKnightsTours:
//!   8x8: a tour exists for all 2,048 pairs of opposite colours; none for the 1,984 of the same colour
//!
//! Examples:
//!   knights-tour pairs                      # 8x8, the matrix as text on standard output
//!   knights-tour pairs -o pairs.xlsx        # a Matrix sheet and a Tours sheet
//!   knights-tour pairs --size 6 -o pairs.csv
//!   knights-tour pairs --rows 5 --cols 12 --timeout 20 -o pairs.json
//! ```
//!
//! This file only parses and prints: the flags become a [`crate::pairs::Job`] once, and the
//! library does the rest.
//!
//! Exit codes: 0 every pair answered; 1 the time limit left pairs unanswered (the output is
//! still written, those pairs marked), or came while writing (no file made); 2 usage error, or
//! a board with no tour at all or too many squares (nothing written).

use crate::cli::args::{command_line, timeout, BoardArgs};
use crate::cli::progress::Spinner;
use crate::error::{Error, Result};
use crate::output::format::Format;
use crate::output::{self, Destination};
use crate::pairs::{self, Job};
use crate::solve::pairs::PairsPlan;

/// Options of `knights-tour pairs`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Answer every (start, end) pair of a board: a tour, or why none exists",
    long_about = "Answer every (start, end) pair of a board: an open tour from the start to the end, \
        or the reason none exists (the squares' colours, another theorem, or an exhaustive \
        search's proof). Pairs the time limit leaves open are marked \"not answered\".\n\n\
        The first line answers the question of the Delphi program's companion, AllKnightsTours: \
        \"8x8: a tour exists for all 2,048 pairs of opposite colours; none for the 1,984 of the \
        same colour\".\n\n\
        The output format follows the file's extension: .xlsx (a Matrix sheet, starts down and \
        ends across, and a Tours sheet with one row per tour), .csv or .json (one entry per \
        pair, with its tour or reason), .txt (the matrix); without -o the matrix goes to \
        standard output as text.",
    after_help = "Boards: any with an open tour and at most 144 squares (5x5 to 12x12, 5x12, 8x18 ...).\n\
        --closed does not apply: a closed tour has no start and end (usage error).\n\
        Exit codes: 0 every pair answered; 1 --timeout left pairs unanswered (output still written) \
        or came while writing (no file); \
        2 usage error or a board pairs does not answer."
)]
pub struct Args {
    /// Board size.
    #[command(flatten)]
    pub board: BoardArgs,

    /// Output file (.xlsx, .csv, .json, .txt), or `-` for standard output with --format csv,
    /// json or text. Default: the text matrix on standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<String>,

    /// Output format; only needed for -o - or a file without one of the extensions (it may not
    /// contradict the extension).
    #[arg(long, value_enum)]
    pub format: Option<Format>,

    /// Time allowed to the run, writing included, in seconds [default: 60]: the searches get
    /// four fifths of it, pairs still open then are marked "not answered" and the run exits 1;
    /// a write still running at the limit stops too, leaving no file.
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,

    /// Seed of the searches' tie order; the same seed gives the same tours. Default: random,
    /// and reported.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,

    /// Overwrite the output file if it exists.
    #[arg(long)]
    pub force: bool,

    /// Not applicable: a closed tour has no start and end square (a usage error).
    #[arg(long, hide = true)]
    pub closed: bool,
}

/// Run `knights-tour pairs`.
pub fn run(args: Args) -> Result<u8> {
    let job = job(&args)?;
    let spinner = Spinner::new();
    let report = pairs::run(&job, &|msg| spinner.set(msg));
    spinner.finish();
    let report = report?;
    if job.dest == Destination::Stdout {
        // The text already starts with the answer; keep standard output for it alone.
        eprintln!("{}", report.detail);
    } else {
        output::print_stdout(&format!("{}\n{}\n", report.answer, report.detail))?;
    }
    Ok(report.exit_code())
}

/// Turn the flags into the library's job, once; every usage error stops here.
fn job(args: &Args) -> Result<Job> {
    if args.closed {
        return Err(Error::Usage(
            "--closed does not apply to pairs: a closed tour has no start and end square (it \
             can begin anywhere on its cycle); pairs answers open tours from each start to \
             each end"
                .into(),
        ));
    }
    let board = args.board.board()?;
    // Its usual output is the text matrix on standard output; the rest is every command's rule.
    let (format, dest) = match (args.format, args.output.as_deref()) {
        (None, None) => (Format::Text, Destination::Stdout),
        (flag, output) => Format::resolve(flag, output, "pairs.xlsx")?,
    };
    let seed = args.seed.unwrap_or_else(crate::solve::random_seed);
    let plan = PairsPlan {
        timeout: Some(timeout(args.timeout)?),
        threads: 0,
        meter: Some(crate::cli::progress::meter()),
    };
    Ok(Job {
        board,
        seed,
        plan,
        format,
        dest,
        force: args.force,
        command_line: command_line(Some(seed)),
    })
}
