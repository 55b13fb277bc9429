//! `knights-tour generate`: compute knight's tours and write them out.
//!
//! ```text
//! Usage: knights-tour generate [OPTIONS]
//!
//! Every attempt becomes its own worksheet, as in the classic Excel macro: Warnsdorff's rule
//! from a random square, up to 10 attempts, failed attempts showing how far they got, then a
//! Summary sheet. With --method auto (the default) a method that cannot fail takes over when
//! the attempts run out, so a tour is always produced when one exists.
//!
//! Examples:
//!   knights-tour generate                          # 8x8 from a random square -> knights-tour.xlsx
//!   knights-tour generate --size 100 --seed 7      # failed attempts appear before the tour
//!   knights-tour generate --rows 6 --cols 8 --closed --start a1
//!   knights-tour generate --start a1 --end h1      # a fixed end square
//!   knights-tour generate --size 2000 -o tour.csv  # the format follows the extension
//!   knights-tour generate --all --size 5 --start a1 -o all.json
//!   knights-tour generate --method hand --seed 3   # a closed tour by hand, a sheet per step
//! ```
//!
//! This file only parses and prints: the flags become a [`crate::generate::Job`] once, and the
//! library does the rest.
//!
//! Exit codes: 0 the requested tours were found; 1 attempts ran out or --timeout stopped the
//! run (the output is still written, unless the limit came while writing it: then no file is
//! made); 2 usage error or impossible request (nothing written).

use crate::cli::args::{command_line, PathArg, SolveArgs};
use crate::cli::progress::Spinner;
use crate::error::{Error, Result};
use crate::generate::{self, Job, WorkbookOptions};
use crate::output::format::Format;
use crate::output::{self, Destination};
use crate::solve::{Goal, Method};
use crate::workbook::cellref::CellRef;

/// Options of `knights-tour generate`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Compute knight's tours and write them to a workbook, one worksheet per attempt",
    long_about = "Compute knight's tours and write them to a workbook, one worksheet per attempt.\n\n\
        As in the classic Excel macro, Warnsdorff's rule runs from a random square for up to 10 \
        attempts; each attempt becomes a worksheet (failed ones show how far they got), then a \
        Summary sheet. With --method auto (the default) a method that cannot fail takes over \
        when the attempts run out, so a tour is produced whenever one exists; impossible \
        requests are refused with the theorem that rules them out.\n\n\
        The output format follows the file's extension: .xlsx, .csv, .json or .txt.",
    after_help = "Squares: algebraic (a1 is bottom-left, files a..z, aa..) or row,col from 1 at the top-left.\n\
        Flags that do not combine (usage errors): --all with --tours, --method, --tiebreak or --attempts; \
        --limit without --all; --tiebreak/--attempts with --method construct, backtrack or hand; \
        --end, --constraints or --tours with --method hand; \
--at/--path with a non-xlsx output; --format contradicting -o's extension; \
        --json with -o -.\n\
        The seed is reported on stderr, as `seed` in the JSON and in the workbook (--all makes no random choice and reports none).\n\
        Exit codes: 0 tours found; 1 attempts ran out or --timeout stopped the run (output still written, \
        unless the limit came while writing: no file); \
        2 usage error or impossible request."
)]
pub struct Args {
    /// What to solve.
    #[command(flatten)]
    pub solve: SolveArgs,

    /// How many distinct complete tours to produce.
    #[arg(long, default_value_t = 1, value_name = "K",
          value_parser = clap::value_parser!(u32).range(1..))]
    pub tours: u32,

    /// Enumerate every tour meeting the request (small boards), up to --limit; streamed to
    /// .csv/.json/.txt, at most 1000 into a workbook. Not with --tours, --method, --tiebreak,
    /// --attempts.
    #[arg(long, conflicts_with_all = ["tours", "method", "tiebreak", "attempts"])]
    pub all: bool,

    /// With --all: stop after this many tours (at least 1).
    #[arg(long, value_name = "N", requires = "all",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,

    /// Output format (it may not contradict -o's extension). Without -o, csv, json and text go
    /// to standard output and xlsx to knights-tour.xlsx. Default: from -o, else xlsx.
    #[arg(long, value_enum)]
    pub format: Option<Format>,

    /// Output file (.xlsx, .csv, .json, .txt), or `-` for standard output with --format csv,
    /// json or text. Default: knights-tour.xlsx (with --format csv, json or text: standard
    /// output).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<String>,

    /// Overwrite the output file if it exists.
    #[arg(long)]
    pub force: bool,

    /// The board's top-left cell on each worksheet (xlsx only) [default: C3].
    #[arg(long, value_name = "CELL")]
    pub at: Option<String>,

    /// Draw the knight's path over the board as a chart (xlsx only; auto: boards up to 30x30)
    /// [default: auto].
    #[arg(long, value_enum)]
    pub path: Option<PathArg>,

    /// Print a machine-readable summary (JSON) on standard output instead of the message.
    #[arg(long)]
    pub json: bool,
}

/// Run `knights-tour generate`.
pub fn run(args: Args) -> Result<u8> {
    let job = job(&args)?;
    let spinner = Spinner::new();
    let report = generate::run(&job, &|msg| spinner.set(msg));
    spinner.finish();
    let report = report?;
    // Every format, the workbook too: a person reads the terminal before opening the file's
    // properties. Not for --all, which makes no random choice.
    if let Some(seed) = job.seed_used() {
        eprintln!("seed {seed}: repeat with --seed {seed}");
    }
    if args.json {
        let text =
            serde_json::to_string(&report.summary).map_err(|e| Error::Other(e.to_string()))?;
        output::print_stdout(&(text + "\n"))?;
    } else if job.dest == Destination::Stdout {
        eprintln!("{}", report.summary.message);
    } else {
        output::print_stdout(&format!("{}\n", report.summary.message))?;
    }
    // A signal stopped the run once its output was finished: exit as the signal would have.
    if let Some(signal) = output::interrupted() {
        return Ok((128 + signal) as u8);
    }
    Ok(report.exit_code())
}

/// Turn the flags into the library's job, once; every usage error stops here.
fn job(args: &Args) -> Result<Job> {
    let (request, mut plan, seed) = args.solve.prepare()?;
    if plan.method == Method::Hand && args.tours != 1 {
        return Err(Error::Usage(format!(
            "--tours {} does not apply to --method hand, which builds one tour a run with its \
             steps; run it again with another --seed, or drop one",
            args.tours
        )));
    }
    plan.goal = match args.all {
        true => Goal::All { limit: args.limit },
        false => Goal::Tours(args.tours),
    };
    let (format, dest) = Format::resolve(args.format, args.output.as_deref(), "knights-tour.xlsx")?;
    if dest == Destination::Stdout && args.json {
        return Err(Error::Usage(
            "--json and the tours would both go to standard output (a csv, json or text output \
             without -o, or -o -, goes there); give -o FILE for the tours, or drop --json"
                .into(),
        ));
    }
    if format != Format::Xlsx {
        for (given, flag) in [(args.at.is_some(), "--at"), (args.path.is_some(), "--path")] {
            if given {
                return Err(Error::Usage(format!(
                    "{flag} lays out a workbook; it does not apply to {} output",
                    format.name()
                )));
            }
        }
    }
    let top_left: CellRef = args
        .at
        .as_deref()
        .unwrap_or("C3")
        .parse()
        .map_err(|e| Error::Usage(format!("--at: {e}")))?;
    Ok(Job {
        request,
        plan,
        seed,
        format,
        dest,
        force: args.force,
        workbook: WorkbookOptions {
            top_left,
            draw_path: args.path.unwrap_or(PathArg::Auto).into(),
            command_line: command_line((!args.all).then_some(seed)),
        },
    })
}
