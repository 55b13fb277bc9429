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
//!   knights-tour generate --size 2000 --format csv -o -
//! ```
//!
//! Exit codes: 0 the requested tours were found; 1 attempts ran out (the output is still
//! written); 2 usage error or impossible request (nothing written).

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::ValueEnum;
use serde::Serialize;

use crate::board::{Board, Square};
use crate::cli::progress::Spinner;
use crate::error::{Error, Result};
use crate::exit_codes;
use crate::export::{self, TourJson};
use crate::output::{self, Destination};
use crate::solve::runner::{self, Attempt, Goal, Outcome, Plan};
use crate::solve::{constraints, existence, rng_from_seed, Method, Request, Tiebreak};
use crate::workbook::cellref::CellRef;
use crate::workbook::write as xlsx;

/// Options of `knights-tour generate`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Compute knight's tours and write them to a workbook, one worksheet per attempt",
    long_about = "Compute knight's tours and write them to a workbook, one worksheet per attempt.\n\n\
        As in the classic Excel macro, Warnsdorff's rule runs from a random square for up to 10 \
        attempts; each attempt becomes a worksheet (failed ones show how far they got), then a \
        Summary sheet. With --method auto (the default) a method that cannot fail takes over \
        when the attempts run out, so a tour is produced whenever one exists; impossible \
        requests are refused with the theorem that rules them out.",
    after_help = "Squares: algebraic (a1 is bottom-left, files a..z, aa..) or row,col from 1 at the top-left.\n\
        Exit codes: 0 tours found; 1 attempts ran out (output still written); 2 usage error or impossible request."
)]
pub struct Args {
    /// What to solve.
    #[command(flatten)]
    pub solve: SolveArgs,

    /// How many distinct complete tours to produce.
    #[arg(long, default_value_t = 1, value_name = "K")]
    pub tours: u32,

    /// Enumerate every tour meeting the request (small boards), up to --limit.
    #[arg(long)]
    pub all: bool,

    /// With --all: stop after this many tours.
    #[arg(long, value_name = "N", requires = "all")]
    pub limit: Option<u64>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Xlsx)]
    pub format: Format,

    /// Output file, or `-` for standard output (not for xlsx). Default: knights-tour.xlsx
    /// (.csv, .json; text goes to standard output).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<String>,

    /// Overwrite the output file if it exists.
    #[arg(long)]
    pub force: bool,

    /// The board's top-left cell on each worksheet.
    #[arg(long, default_value = "C3", value_name = "CELL")]
    pub at: String,

    /// Draw the knight's path over the board as a chart (auto: boards up to 30x30).
    #[arg(long, value_enum, default_value_t = PathArg::Auto)]
    pub path: PathArg,

    /// Print a machine-readable summary (JSON) on standard output instead of the message.
    #[arg(long)]
    pub json: bool,
}

/// The request and the method: shared by `generate` and `draw`.
#[derive(Debug, Clone, clap::Args)]
pub struct SolveArgs {
    /// Board size.
    #[command(flatten)]
    pub board: BoardArgs,

    /// Start square (algebraic like e4, or row,col), or `random`.
    #[arg(long, default_value = "random", value_name = "SQUARE|random")]
    pub start: String,

    /// End square: the tour must finish here.
    #[arg(long, value_name = "SQUARE")]
    pub end: Option<String>,

    /// Ask for a closed (re-entrant) tour: the last square a knight's move from the first.
    #[arg(long)]
    pub closed: bool,

    /// File of "move k is on square X" lines (`k SQUARE`, `#` comments), e.g. `1 a1`.
    #[arg(long, value_name = "FILE")]
    pub constraints: Option<PathBuf>,

    /// How to find tours.
    #[arg(long, value_enum, default_value_t = MethodArg::Auto)]
    pub method: MethodArg,

    /// Warnsdorff's tie-break between equally constrained squares.
    #[arg(long, value_enum, default_value_t = TiebreakArg::Random)]
    pub tiebreak: TiebreakArg,

    /// Warnsdorff attempts allowed for each tour asked for.
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub attempts: u32,

    /// Seed for every random choice; the same seed gives the same output. Default: random
    /// (printed in the summary so the run can be repeated).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,

    /// Time allowed to the search methods, in seconds (per tour).
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
}

/// Board size flags, shared by the commands that lay out a board.
#[derive(Debug, Clone, clap::Args)]
pub struct BoardArgs {
    /// Board side for a square board.
    #[arg(long, default_value_t = 8, value_name = "N", conflicts_with_all = ["rows", "cols"])]
    pub size: u32,
    /// Rows of a rectangular board (with --cols).
    #[arg(long, value_name = "R", requires = "cols")]
    pub rows: Option<u32>,
    /// Columns of a rectangular board (with --rows).
    #[arg(long, value_name = "C", requires = "rows")]
    pub cols: Option<u32>,
}

impl BoardArgs {
    /// The board these flags describe.
    pub fn board(&self) -> Result<Board> {
        let (rows, cols) = match (self.rows, self.cols) {
            (Some(r), Some(c)) => (r, c),
            _ => (self.size, self.size),
        };
        Board::new(rows, cols).map_err(|e| Error::Usage(format!("board size: {e}")))
    }
}

/// `--method`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MethodArg {
    /// Warnsdorff attempts, then a method that cannot fail.
    Auto,
    /// Warnsdorff's rule only (may fail).
    Warnsdorff,
    /// Depth-first search with pruning (exhaustive; use --timeout).
    Backtrack,
    /// Divide-and-conquer construction (linear time, any size).
    Construct,
}

/// `--tiebreak`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TiebreakArg {
    /// At random (the Excel macro).
    Random,
    /// Farthest from the centre (Roth).
    Center,
    /// Pohl's second-level rule, then random.
    Pohl,
}

/// `--format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Excel workbook, one worksheet per attempt.
    Xlsx,
    /// Grid of move numbers, one board row per line.
    Csv,
    /// Board, start, end, closed flag and path as squares.
    Json,
    /// Aligned grid for terminals.
    Text,
}

/// `--path`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PathArg {
    /// Drawn on boards up to 30x30.
    Auto,
    /// Always drawn.
    On,
    /// Never drawn.
    Off,
}

impl From<MethodArg> for Method {
    fn from(m: MethodArg) -> Method {
        match m {
            MethodArg::Auto => Method::Auto,
            MethodArg::Warnsdorff => Method::Warnsdorff,
            MethodArg::Backtrack => Method::Backtrack,
            MethodArg::Construct => Method::Construct,
        }
    }
}

impl From<TiebreakArg> for Tiebreak {
    fn from(t: TiebreakArg) -> Tiebreak {
        match t {
            TiebreakArg::Random => Tiebreak::Random,
            TiebreakArg::Center => Tiebreak::Center,
            TiebreakArg::Pohl => Tiebreak::Pohl,
        }
    }
}

/// Everything `generate` needs, checked: the request, the plan and where output goes.
#[derive(Debug)]
struct Job {
    request: Request,
    plan: Plan,
    seed: u64,
    format: Format,
    dest: Destination,
    top_left: CellRef,
    enumerate: Option<Option<u64>>,
}

/// Run `knights-tour generate`.
pub fn run(args: Args) -> Result<u8> {
    let job = plan(&args)?;
    if let Some(done) = streamed_grid(&args, &job) {
        return done;
    }
    let mut rng = rng_from_seed(job.seed);
    let spinner = Spinner::new();
    let outcome = runner::run(&job.request, &job.plan, &mut rng, &mut |msg| {
        spinner.set(msg)
    });
    let enumerated = job.enumerate.map(|_| Enumerated {
        exhaustive: outcome.report.is_done(),
        undirected: outcome.report.undirected,
    });
    if outcome.attempts.is_empty() {
        spinner.finish();
        return Err(Error::Impossible(format!(
            "no tour meets the request: {}",
            outcome.report.reason()
        )));
    }
    spinner.set("writing");
    write(&args, &job, &outcome)?;
    spinner.finish();
    report(&args, &job, &outcome, enumerated.as_ref())
}

/// Huge boards as CSV or text: the constructor numbers the squares in place (4 bytes a square)
/// and the grid streams straight out, without the tour in move order beside it. `None` when
/// the request needs the general path (Warnsdorff attempts, several tours, a search).
fn streamed_grid(args: &Args, job: &Job) -> Option<Result<u8>> {
    if !matches!(job.format, Format::Csv | Format::Text) {
        return None;
    }
    let numbering = runner::numbering(&job.request, &job.plan, &mut rng_from_seed(job.seed))?;
    let board = job.request.board;
    let written = output::write_to(&job.dest, args.force, |w| match job.format {
        Format::Text => export::write_text(board, &numbering, w),
        _ => export::write_csv(board, &numbering, w),
    });
    Some(written.and_then(|()| {
        let facts = PathFacts::from_numbering(board, &numbering);
        drop(numbering);
        let message = format!(
            "Solved after 1 attempt: {}",
            facts.describe(board, &job.dest)
        );
        print_report(args, job, &message, || Summary {
            sheets: vec![facts.sheet(board, true, Method::Construct, None, None)],
            ..summary_head(job, true, message.clone(), 1, 1)
        })
    }))
}

/// What a message says of one path; gathered from a tour or from a numbering.
#[derive(Debug, Clone, Copy)]
struct PathFacts {
    start: Option<Square>,
    end: Option<Square>,
    moves: usize,
    complete: bool,
    closed: bool,
}

impl PathFacts {
    fn from_tour(t: &crate::tour::Tour) -> PathFacts {
        PathFacts {
            start: t.start(),
            end: t.end(),
            moves: t.len(),
            complete: t.is_complete(),
            closed: t.is_closed(),
        }
    }

    /// Facts of a numbering (move number by square, 0 unvisited): one pass, no allocation.
    fn from_numbering(board: Board, numbering: &[u32]) -> PathFacts {
        let moves = numbering.iter().filter(|&&n| n != 0).count();
        let at = |k: u32| {
            (k != 0)
                .then(|| numbering.iter().position(|&n| n == k))
                .flatten()
                .map(|i| board.square_at(i as u32))
        };
        let (start, end) = (at(1), at(moves as u32));
        let complete = moves == board.len();
        let closed = complete && matches!((start, end), (Some(a), Some(b)) if a.is_knight_move(b));
        PathFacts {
            start,
            end,
            moves,
            complete,
            closed,
        }
    }

    /// "8x8 closed tour from a1 to b3 written to OUT".
    fn describe(&self, board: Board, dest: &Destination) -> String {
        let kind = if self.closed { "closed tour" } else { "tour" };
        let name = |s: Option<Square>| s.map(|s| board.algebraic(s)).unwrap_or_default();
        format!(
            "{board} {kind} from {} to {} written to {}",
            name(self.start),
            name(self.end),
            dest.display()
        )
    }

    fn sheet(
        &self,
        board: Board,
        solved: bool,
        method: Method,
        tiebreak: Option<Tiebreak>,
        note: Option<String>,
    ) -> SheetSummary {
        SheetSummary {
            solved,
            method: method.name(),
            tiebreak: tiebreak.map(Tiebreak::name),
            start: self.start.map(|s| board.algebraic(s)),
            end: self.end.map(|s| board.algebraic(s)),
            moves: self.moves,
            complete: self.complete,
            closed: self.closed,
            note,
        }
    }
}

/// Turn flags into a checked job; every usage error and impossible request stops here, before
/// any work or any file is touched.
fn plan(args: &Args) -> Result<Job> {
    let (request, mut plan, seed) = args.solve.prepare()?;
    if args.tours == 0 {
        return Err(Error::Usage("--tours must be at least 1".into()));
    }
    plan.goal = match args.all {
        true => Goal::All { limit: args.limit },
        false => Goal::Tours(args.tours),
    };
    let top_left: CellRef = args
        .at
        .parse()
        .map_err(|e| Error::Usage(format!("--at: {e}")))?;
    let dest = destination(args)?;
    if args.format == Format::Xlsx {
        xlsx::check_fits(request.board, top_left).map_err(|e| Error::Usage(e.to_string()))?;
    }
    if let Destination::File(path) = &dest {
        output::check_writable(path, args.force)?;
    }
    Ok(Job {
        request,
        plan,
        seed,
        format: args.format,
        dest,
        top_left,
        enumerate: args.all.then_some(args.limit),
    })
}

impl SolveArgs {
    /// The checked request, the plan for one tour, and the seed (drawn at random when not
    /// given). Impossible requests are refused here with the theorem that rules them out.
    pub fn prepare(&self) -> Result<(Request, Plan, u64)> {
        let board = self.board.board()?;
        let request = self.request(board)?;
        existence::check_request(&request).map_err(|e| Error::Impossible(e.to_string()))?;
        if self.attempts == 0 {
            return Err(Error::Usage("--attempts must be at least 1".into()));
        }
        let timeout = match self.timeout {
            None => Some(runner::DEFAULT_TIMEOUT),
            Some(t) if t.is_finite() && t > 0.0 => Some(Duration::from_secs_f64(t.min(1e9))),
            Some(t) => {
                return Err(Error::Usage(format!(
                    "--timeout must be a positive number of seconds, not {t}"
                )))
            }
        };
        let plan = Plan {
            method: self.method.into(),
            tiebreak: self.tiebreak.into(),
            attempts: self.attempts,
            timeout,
            ..Plan::default()
        };
        Ok((request, plan, self.seed.unwrap_or_else(rand::random)))
    }

    fn request(&self, board: Board) -> Result<Request> {
        let square = |flag: &str, text: &str| -> Result<Square> {
            board
                .parse_square(text)
                .map_err(|e| Error::Usage(format!("--{flag}: {e}")))
        };
        let start = match self.start.trim() {
            s if s.eq_ignore_ascii_case("random") => None,
            s => Some(square("start", s)?),
        };
        let end = self.end.as_deref().map(|e| square("end", e)).transpose()?;
        let constraints = match &self.constraints {
            None => Vec::new(),
            Some(path) => {
                let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
                constraints::parse(board, &text)
                    .map_err(|e| Error::Usage(format!("{}: {e}", path.display())))?
            }
        };
        Ok(Request {
            board,
            start,
            end,
            closed: self.closed,
            constraints,
        })
    }
}

fn destination(args: &Args) -> Result<Destination> {
    let default = match args.format {
        Format::Xlsx => "knights-tour.xlsx",
        Format::Csv => "knights-tour.csv",
        Format::Json => "knights-tour.json",
        Format::Text => "-",
    };
    let dest = Destination::parse(args.output.as_deref().unwrap_or(default));
    if dest == Destination::Stdout && args.format == Format::Xlsx {
        return Err(Error::Usage(
            "-o -: an xlsx workbook cannot go to standard output; use --format csv, json or text, or name a file".into(),
        ));
    }
    if dest == Destination::Stdout && args.json {
        return Err(Error::Usage(
            "--json and -o - would both write to standard output; choose one".into(),
        ));
    }
    Ok(dest)
}

/// What `--all` found.
#[derive(Debug)]
struct Enumerated {
    exhaustive: bool,
    undirected: bool,
}

/// Write the output in the chosen format.
fn write(args: &Args, job: &Job, outcome: &Outcome) -> Result<()> {
    match job.format {
        Format::Xlsx => {
            let Destination::File(path) = &job.dest else {
                return Err(Error::Usage("xlsx needs a file".into()));
            };
            write_xlsx(args, job, outcome, path)
        }
        Format::Csv | Format::Json | Format::Text => {
            let tours = shown_tours(outcome);
            output::write_to(&job.dest, args.force, |w| match job.format {
                Format::Csv => write_grids(&tours, w, export::write_csv),
                Format::Text => write_grids(&tours, w, export::write_text),
                _ => write_json(&tours, job, w),
            })
        }
    }
}

/// The tours a text format shows: those found, or else the attempt that got farthest.
fn shown_tours(outcome: &Outcome) -> Vec<&Attempt> {
    let found: Vec<&Attempt> = outcome.tours().collect();
    if !found.is_empty() {
        return found;
    }
    outcome
        .attempts
        .iter()
        .max_by_key(|a| a.tour.len())
        .into_iter()
        .collect()
}

type GridWriter = fn(Board, &[u32], &mut dyn std::io::Write) -> std::io::Result<()>;

fn write_grids(
    tours: &[&Attempt],
    w: &mut dyn std::io::Write,
    grid: GridWriter,
) -> std::io::Result<()> {
    for (i, a) in tours.iter().enumerate() {
        if i > 0 {
            writeln!(w)?;
        }
        grid(a.tour.board(), &a.tour.numbering(), w)?;
    }
    Ok(())
}

fn write_json(tours: &[&Attempt], job: &Job, w: &mut dyn std::io::Write) -> std::io::Result<()> {
    let docs: Vec<TourJson> = tours.iter().map(|a| TourJson::new(&a.tour)).collect();
    let single = job.plan.goal == Goal::Tours(1);
    if single && docs.len() == 1 {
        serde_json::to_writer(&mut *w, &docs[0])?;
    } else {
        serde_json::to_writer(&mut *w, &docs)?;
    }
    writeln!(w)
}

fn write_xlsx(args: &Args, job: &Job, outcome: &Outcome, path: &Path) -> Result<()> {
    let attempts = outcome
        .attempts
        .iter()
        .map(|a| xlsx::SheetAttempt {
            tour: a.tour.clone(),
            solved: a.solved,
            method: a.method.name().to_string(),
            tiebreak: a.tiebreak.map(|t| t.name().to_string()),
            note: a.note.clone(),
        })
        .collect();
    let board = job.request.board;
    let mut spec = xlsx::WorkbookSpec::new(attempts);
    spec.top_left = job.top_left;
    spec.seed = job.seed;
    spec.title = format!("Knight's tour {board}");
    spec.command_line = command_line(job);
    spec.closed_requested = job.request.closed;
    spec.draw_path = match args.path {
        PathArg::Auto => xlsx::PathDrawing::Auto,
        PathArg::On => xlsx::PathDrawing::On,
        PathArg::Off => xlsx::PathDrawing::Off,
    };
    output::write_atomically_with(path, args.force, |file| {
        xlsx::write_workbook(&spec, std::io::BufWriter::new(file)).map_err(|e| e.at(path))
    })
}

/// The command that makes this workbook again, seed included.
fn command_line(job: &Job) -> String {
    let mut words: Vec<String> = std::env::args().skip(1).collect();
    if !words
        .iter()
        .any(|w| w == "--seed" || w.starts_with("--seed="))
    {
        words.push(format!("--seed {}", job.seed));
    }
    format!("knights-tour {}", words.join(" "))
}

/// The facts of a run, for the message and for `--json`.
#[derive(Debug, Serialize)]
struct Summary {
    solved: bool,
    message: String,
    board: crate::export::BoardJson,
    attempts: usize,
    tours_found: usize,
    tours_requested: u32,
    seed: u64,
    method: &'static str,
    tiebreak: &'static str,
    output: String,
    format: &'static str,
    /// With `--all`: whether every tour was enumerated (not stopped by --limit or --timeout).
    #[serde(skip_serializing_if = "Option::is_none")]
    exhaustive: Option<bool>,
    sheets: Vec<SheetSummary>,
}

#[derive(Debug, Serialize)]
struct SheetSummary {
    solved: bool,
    method: &'static str,
    tiebreak: Option<&'static str>,
    start: Option<String>,
    end: Option<String>,
    moves: usize,
    complete: bool,
    closed: bool,
    note: Option<String>,
}

fn report(args: &Args, job: &Job, outcome: &Outcome, all: Option<&Enumerated>) -> Result<u8> {
    let wanted = match job.plan.goal {
        Goal::Tours(k) => k as usize,
        _ => 1,
    };
    let found = outcome.tours_found();
    let solved = match job.enumerate {
        Some(_) => found > 0,
        None => found >= wanted,
    };
    let message = match all {
        Some(e) => enumeration_message(job, outcome, e),
        None => message(job, outcome, solved),
    };
    print_report(args, job, &message, || {
        summary(job, outcome, solved, message.clone())
    })
}

/// Print the message (stderr when the output itself goes to stdout) or the JSON summary, and
/// give the exit code.
fn print_report(
    args: &Args,
    job: &Job,
    message: &str,
    summary: impl FnOnce() -> Summary,
) -> Result<u8> {
    let summary = summary();
    if args.json {
        let text = serde_json::to_string(&summary).map_err(|e| Error::Other(e.to_string()))?;
        println!("{text}");
    } else if job.dest == Destination::Stdout {
        eprintln!("{message}");
    } else {
        println!("{message}");
    }
    Ok(if summary.solved {
        exit_codes::SUCCESS
    } else {
        exit_codes::FAILURE
    })
}

fn message(job: &Job, outcome: &Outcome, solved: bool) -> String {
    let board = job.request.board;
    let n = outcome.attempts.len();
    let attempts = if n == 1 {
        "1 attempt".to_string()
    } else {
        format!("{n} attempts")
    };
    let dest = job.dest.display();
    let found: Vec<&Attempt> = outcome.tours().collect();
    let head = if solved { "Solved" } else { "Failed" };
    let mut msg = match found.as_slice() {
        [one] => format!(
            "{head} after {attempts}: {}",
            PathFacts::from_tour(&one.tour).describe(board, &job.dest)
        ),
        [] => format!(
            "{head} after {attempts}: no {board} tour found; every attempt written to {dest}"
        ),
        many => format!(
            "{head} after {attempts}: {} {board} tours written to {dest}",
            many.len()
        ),
    };
    if !solved {
        if let Some(why) = outcome.gave_up() {
            msg.push_str(&format!(" ({why})"));
        }
    }
    msg
}

fn enumeration_message(job: &Job, outcome: &Outcome, e: &Enumerated) -> String {
    let board = job.request.board;
    let n = outcome.attempts.len();
    let kind = match (e.undirected, job.request.closed) {
        (true, _) => "undirected closed tours",
        (false, true) => "directed closed tours",
        (false, false) => "directed tours",
    };
    let scope = match job.enumerate {
        _ if e.exhaustive => "all of them".to_string(),
        Some(Some(limit)) if n as u64 >= limit => format!("stopped at --limit {limit}"),
        _ => "the search stopped before the end".to_string(),
    };
    let mut msg = format!(
        "Found {n} {kind} on {board} ({scope}) written to {}",
        job.dest.display()
    );
    let hit_limit = outcome.report.ending == runner::Ending::Limit;
    if let (Some(why), false) = (outcome.gave_up(), e.exhaustive || hit_limit) {
        msg.push_str(&format!(" ({why})"));
    }
    msg
}

fn summary(job: &Job, outcome: &Outcome, solved: bool, message: String) -> Summary {
    let board = job.request.board;
    let head = summary_head(
        job,
        solved,
        message,
        outcome.attempts.len(),
        outcome.tours_found(),
    );
    Summary {
        sheets: outcome
            .attempts
            .iter()
            .map(|a| {
                PathFacts::from_tour(&a.tour).sheet(
                    board,
                    a.solved,
                    a.method,
                    a.tiebreak,
                    a.note.clone(),
                )
            })
            .collect(),
        ..head
    }
}

/// The run-wide part of the summary (no sheets yet).
fn summary_head(
    job: &Job,
    solved: bool,
    message: String,
    attempts: usize,
    tours_found: usize,
) -> Summary {
    let board = job.request.board;
    Summary {
        solved,
        message,
        board: crate::export::BoardJson {
            rows: board.rows(),
            cols: board.cols(),
        },
        attempts,
        tours_found,
        tours_requested: match job.plan.goal {
            Goal::Tours(k) => k,
            _ => 0,
        },
        seed: job.seed,
        method: job.plan.method.name(),
        tiebreak: job.plan.tiebreak.name(),
        output: job.dest.display(),
        format: match job.format {
            Format::Xlsx => "xlsx",
            Format::Csv => "csv",
            Format::Json => "json",
            Format::Text => "text",
        },
        exhaustive: None,
        sheets: Vec::new(),
    }
}
