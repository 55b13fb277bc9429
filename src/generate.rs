//! `generate` as a library: a checked [`Job`] (request, plan, seed, output) in, the tours
//! written in the chosen format, and a [`Report`] out. The command line only builds the job
//! and prints the report; the same job gives the same tours whatever the format.
//!
//! Bounded always: text formats stream each tour as it is found (an `--all` run holds none of
//! them); a workbook holds at most [`MAX_WORKBOOK_TOURS`] tours, and a request that would need
//! more is refused before any work, naming the formats that stream.

use std::time::{Duration, Instant};

use crate::board::{Board, Square};
use crate::error::{Error, Result};
use crate::exit_codes;
use crate::export::stream::TourStream;
use crate::export::{self, Format, SheetSummary, Summary};
use crate::output::{self, Destination};
use crate::solve::backtrack::{self, Budget};
use crate::solve::runner::{self, Attempt, Outcome, Plan};
use crate::solve::{construct, existence, rng_from_seed, Method, Request, Tiebreak};
use crate::tour::Tour;
use crate::workbook::cellref::CellRef;
use crate::workbook::write as xlsx;

/// A workbook holds at most this many tours (one worksheet each, kept in memory until the
/// workbook is written); csv and json stream any number.
pub const MAX_WORKBOOK_TOURS: u64 = 1000;

/// Squares of all the tours a run may hold at once (4 bytes each): a workbook's attempts, or
/// the tours of `--tours K` before they are written.
pub const MAX_HELD_SQUARES: u64 = 25_000_000;

/// Everything `generate` needs, built once from the command line.
#[derive(Clone, Debug)]
pub struct Job {
    /// What to solve.
    pub request: Request,
    /// How (method, tie-break, attempts, tours, time limit).
    pub plan: Plan,
    /// The seed of every random choice.
    pub seed: u64,
    /// The output format.
    pub format: Format,
    /// Where the output goes.
    pub dest: Destination,
    /// Replace an existing output.
    pub force: bool,
    /// `--all`: enumerate every tour, up to `limit`.
    pub all: Option<All>,
    /// How a workbook is laid out (xlsx only).
    pub workbook: WorkbookOptions,
}

/// `--all [--limit N]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct All {
    /// Stop after this many tours.
    pub limit: Option<u64>,
}

/// Workbook layout choices.
#[derive(Clone, Debug)]
pub struct WorkbookOptions {
    /// The board's top-left cell.
    pub top_left: CellRef,
    /// Whether to draw the path chart.
    pub draw_path: xlsx::PathDrawing,
    /// The command that makes this output again (recorded in the properties).
    pub command_line: String,
}

impl Default for WorkbookOptions {
    fn default() -> Self {
        WorkbookOptions {
            top_left: CellRef::new(2, 2),
            draw_path: xlsx::PathDrawing::Auto,
            command_line: String::new(),
        }
    }
}

/// What a run did: the summary (`--json`) whose message a person reads.
#[derive(Clone, Debug)]
pub struct Report {
    /// The facts, message included.
    pub summary: Summary,
}

impl Report {
    /// 0 when everything asked for was found, 1 otherwise (the output is still written).
    pub fn exit_code(&self) -> u8 {
        if self.summary.solved {
            exit_codes::SUCCESS
        } else {
            exit_codes::FAILURE
        }
    }
}

impl Job {
    /// Refuse, before any work or any file is touched, every request that cannot be met or
    /// held: impossible boards (naming the theorem), boards that do not fit a sheet, outputs
    /// that exist, requests bigger than the output can hold.
    pub fn check(&self) -> Result<()> {
        existence::check_request(&self.request).map_err(|e| Error::Impossible(e.to_string()))?;
        let board = self.request.board;
        if self.format == Format::Xlsx {
            xlsx::check_fits(board, self.workbook.top_left)
                .map_err(|e| Error::Usage(e.to_string()))?;
            let tours = match self.all {
                Some(All { limit: Some(l) }) => l,
                Some(All { limit: None }) => MAX_WORKBOOK_TOURS,
                None => u64::from(self.plan.tours),
            };
            if tours > MAX_WORKBOOK_TOURS {
                return Err(Error::Usage(format!(
                    "a workbook holds at most {MAX_WORKBOOK_TOURS} tours (one worksheet each), \
                     not {tours}; write .csv or .json, which stream any number"
                )));
            }
        }
        if self.all.is_none() {
            let held = u64::from(self.plan.tours) * board.len() as u64;
            if self.plan.tours > 1 && held > MAX_HELD_SQUARES {
                return Err(Error::Usage(format!(
                    "--tours {} on {board} would hold {held} squares at once, more than \
                     {MAX_HELD_SQUARES}; ask for fewer tours",
                    self.plan.tours
                )));
            }
        }
        if let Destination::File(path) = &self.dest {
            output::check_writable(path, self.force)?;
        }
        Ok(())
    }
}

/// Run the job: solve, write the output, report. Errors are only the output's (a full disk,
/// a vanished folder); a search that finds nothing is a report with exit code 1.
pub fn run(job: &Job, progress: &mut dyn FnMut(&str)) -> Result<Report> {
    job.check()?;
    if let Some(all) = job.all {
        return enumerate(job, all, progress);
    }
    if let Some(report) = streamed_grid(job)? {
        return Ok(report);
    }
    let mut rng = rng_from_seed(job.seed);
    let outcome = runner::run(&job.request, &job.plan, &mut rng, progress);
    if outcome.attempts.is_empty() {
        return Err(Error::Impossible(format!(
            "no tour meets the request: {}",
            outcome.gave_up.as_deref().unwrap_or("none was found")
        )));
    }
    progress("writing");
    write_outcome(job, &outcome)?;
    let found = outcome.tours_found();
    let solved = found >= job.plan.tours as usize;
    let timed_out = !solved && outcome.gave_up.as_deref().is_some_and(is_time_limit);
    let message = outcome_message(job, &outcome, solved, timed_out);
    let mut summary = summary_head(job, solved, message, outcome.attempts.len(), found);
    summary.timed_out = timed_out;
    for a in &outcome.attempts {
        summary.push_sheet(PathFacts::from_tour(&a.tour).sheet(
            job.request.board,
            a.solved,
            a.method,
            a.tiebreak,
            a.note.clone(),
        ));
    }
    Ok(Report { summary })
}

fn is_time_limit(why: &str) -> bool {
    why.contains("time limit")
}

/// The method `auto` would reach without Warnsdorff attempts: construction alone.
fn construct_only(plan: &Plan) -> bool {
    match plan.method {
        Method::Construct => true,
        Method::Auto => !plan.warnsdorff_first,
        _ => false,
    }
}

/// Huge boards as CSV or text: the constructor numbers the squares in place (4 bytes a square)
/// and the grid streams straight out, without the tour in move order beside it. `None` when
/// the request needs the general path. The tour is the one every other format gets.
fn streamed_grid(job: &Job) -> Result<Option<Report>> {
    let grid = matches!(job.format, Format::Csv | Format::Text);
    if !construct_only(&job.plan) || !grid || job.plan.tours != 1 {
        return Ok(None);
    }
    let Some(numbering) = construct::numbering(&job.request) else {
        return Ok(None);
    };
    let board = job.request.board;
    output::write_to(&job.dest, job.force, |w| match job.format {
        Format::Text => export::write_text(board, &numbering, w),
        _ => export::write_csv(board, &numbering, w),
    })?;
    let facts = PathFacts::from_numbering(board, &numbering);
    drop(numbering);
    let message = format!(
        "Solved after 1 attempt: {}",
        facts.describe(board, &job.dest)
    );
    let mut summary = summary_head(job, true, message, 1, 1);
    summary.push_sheet(facts.sheet(board, true, Method::Construct, None, None));
    Ok(Some(Report { summary }))
}

/// Write a run's attempts: a workbook shows every attempt; a text format the tours found, or
/// else the attempt that got farthest.
fn write_outcome(job: &Job, outcome: &Outcome) -> Result<()> {
    match job.format {
        Format::Xlsx => {
            let attempts = outcome.attempts.iter().map(sheet_attempt).collect();
            write_workbook(job, attempts)
        }
        _ => output::write_to(&job.dest, job.force, |w| {
            let single = job.plan.tours == 1;
            let mut stream = TourStream::new(job.format, w, job.seed, single);
            for a in &outcome.attempts {
                if a.solved {
                    stream.tour(&a.tour)?;
                } else {
                    stream.failed(&a.tour);
                }
            }
            stream.finish().map(drop)
        }),
    }
}

fn sheet_attempt(a: &Attempt) -> xlsx::SheetAttempt {
    xlsx::SheetAttempt {
        tour: a.tour.clone(),
        solved: a.solved,
        method: a.method.name().to_string(),
        tiebreak: a.tiebreak.map(|t| t.name().to_string()),
        note: a.note.clone(),
    }
}

fn write_workbook(job: &Job, attempts: Vec<xlsx::SheetAttempt>) -> Result<()> {
    let Destination::File(path) = &job.dest else {
        return Err(export::format::xlsx_to_stdout());
    };
    let mut spec = xlsx::WorkbookSpec::new(attempts);
    spec.top_left = job.workbook.top_left;
    spec.seed = job.seed;
    spec.title = format!("Knight's tour {}", job.request.board);
    spec.command_line = job.workbook.command_line.clone();
    spec.closed_requested = job.request.closed;
    spec.draw_path = job.workbook.draw_path;
    xlsx::save_workbook(&spec, path, job.force)
}

/// Why an enumeration ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    /// Every tour was found.
    Exhaustive,
    /// `--limit` reached.
    Limit(u64),
    /// `--timeout` reached.
    Timeout,
    /// The workbook is full.
    WorkbookFull,
}

/// `--all`: every tour meeting the request, by exhaustive search, each written as it is found.
/// Closed tours with no fixed start are counted as undirected cycles (each once), the way the
/// literature counts them; otherwise directed tours.
fn enumerate(job: &Job, all: All, progress: &mut dyn FnMut(&str)) -> Result<Report> {
    let mut request = job.request.clone();
    let undirected = request.closed && request.start.is_none() && request.end.is_none();
    if undirected {
        // Every closed tour passes through a1: fixing it there loses none.
        request.start = Some(Square::new(request.board.rows() - 1, 0));
    }
    let deadline = job.plan.timeout.and_then(|t| Instant::now().checked_add(t));
    let budget = Budget {
        max_nodes: None,
        deadline,
    };
    let cap = match (job.format, all.limit) {
        (Format::Xlsx, l) => Some(l.unwrap_or(MAX_WORKBOOK_TOURS).min(MAX_WORKBOOK_TOURS)),
        (_, l) => l,
    };
    let mut found = 0u64;
    let mut last_progress = Instant::now();
    let mut summary = summary_head(job, false, String::new(), 0, 0);
    progress("enumerating every tour");
    // Each tour found: skip the reversed copy of an undirected cycle, hand it on, and say
    // whether to go on.
    let mut each = |tour: &Tour, sink: &mut dyn FnMut(&Tour) -> bool| -> bool {
        let idx = tour.indices();
        if undirected && idx.len() > 2 && idx[1] > idx[idx.len() - 1] {
            return true; // the same cycle walked the other way
        }
        if !sink(tour) {
            return false;
        }
        found += 1;
        summary.push_sheet(PathFacts::from_tour(tour).sheet(
            job.request.board,
            true,
            Method::Backtrack,
            None,
            None,
        ));
        if last_progress.elapsed() > Duration::from_millis(200) {
            last_progress = Instant::now();
            progress(&format!("enumerating: {found} tours found"));
        }
        cap.is_none_or(|c| found < c)
    };
    let e = match job.format {
        Format::Xlsx => {
            let mut sheets = Vec::new();
            let e = backtrack::enumerate(&request, None, &budget, |t| {
                each(t, &mut |t| {
                    sheets.push(xlsx::SheetAttempt::new(t.clone(), true, "backtrack"));
                    true
                })
            });
            if !sheets.is_empty() {
                write_workbook(job, sheets)?;
            }
            e
        }
        _ => {
            let mut result = None;
            output::write_to(&job.dest, job.force, |w| {
                let mut stream = TourStream::new(job.format, w, job.seed, false);
                let mut failed = None;
                let e = backtrack::enumerate(&request, None, &budget, |t| {
                    each(t, &mut |t| match stream.tour(t) {
                        Ok(()) => true,
                        Err(err) => {
                            failed = Some(err);
                            false
                        }
                    })
                });
                result = Some(e);
                match failed {
                    Some(err) => Err(err),
                    None => stream.finish().map(drop),
                }
            })?;
            result.ok_or_else(|| Error::Other("the enumeration did not run".into()))?
        }
    };
    let stop = if e.exhaustive {
        Stop::Exhaustive
    } else if deadline.is_some_and(|d| Instant::now() >= d) && cap.is_none_or(|c| found < c) {
        Stop::Timeout
    } else if job.format == Format::Xlsx && all.limit.is_none_or(|l| l > found) {
        Stop::WorkbookFull
    } else {
        Stop::Limit(found)
    };
    let solved = found > 0 && matches!(stop, Stop::Exhaustive | Stop::Limit(_));
    summary.solved = solved;
    summary.message = enumeration_message(job, found, undirected, stop, e.nodes);
    summary.attempts = found as usize;
    summary.tours_found = found as usize;
    summary.exhaustive = Some(e.exhaustive);
    summary.timed_out = stop == Stop::Timeout;
    Ok(Report { summary })
}

fn enumeration_message(job: &Job, found: u64, undirected: bool, stop: Stop, nodes: u64) -> String {
    let board = job.request.board;
    let kind = match (undirected, job.request.closed) {
        (true, _) => "undirected closed tours",
        (false, true) => "directed closed tours",
        (false, false) => "directed tours",
    };
    let dest = if found == 0 && job.format == Format::Xlsx {
        "nothing: a workbook needs at least one tour".to_string()
    } else {
        job.dest.display()
    };
    match stop {
        Stop::Exhaustive => format!("Found {found} {kind} on {board} (all of them) written to {dest}"),
        Stop::Limit(l) => format!("Found {found} {kind} on {board} (stopped at --limit {l}) written to {dest}"),
        Stop::Timeout => format!(
            "Found {found} {kind} on {board} written to {dest}; stopped at --timeout after {found} tours ({nodes} search nodes), there may be more"
        ),
        Stop::WorkbookFull => format!(
            "Found {found} {kind} on {board} written to {dest}; stopped at {MAX_WORKBOOK_TOURS}, the most a workbook holds here: write .csv or .json to stream them all"
        ),
    }
}

fn outcome_message(job: &Job, outcome: &Outcome, solved: bool, timed_out: bool) -> String {
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
        [one] if solved => format!(
            "{head} after {attempts}: {}",
            PathFacts::from_tour(&one.tour).describe(board, &job.dest)
        ),
        [] => format!(
            "{head} after {attempts}: no {board} tour found; every attempt written to {dest}"
        ),
        many => format!(
            "{head} after {attempts}: {} of {} {board} tours found, written to {dest}",
            many.len(),
            job.plan.tours
        ),
    };
    if timed_out {
        msg.push_str(&format!(
            "; stopped at --timeout after {} tours",
            found.len()
        ));
    } else if !solved {
        if let Some(why) = &outcome.gave_up {
            msg.push_str(&format!(" ({why})"));
        }
    }
    msg
}

/// The run-wide part of the summary (no sheets yet).
fn summary_head(
    job: &Job,
    solved: bool,
    message: String,
    attempts: usize,
    tours_found: usize,
) -> Summary {
    Summary {
        solved,
        message,
        board: job.request.board.into(),
        attempts,
        tours_found,
        tours_requested: job.plan.tours,
        seed: job.seed,
        method: job.plan.method.name(),
        tiebreak: job.plan.tiebreak.name(),
        output: job.dest.display(),
        format: job.format.name(),
        exhaustive: None,
        timed_out: false,
        sheets: Vec::new(),
        sheets_not_listed: 0,
    }
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
    fn from_tour(t: &Tour) -> PathFacts {
        PathFacts {
            start: t.start(),
            end: t.end(),
            moves: t.len(),
            complete: t.is_complete(),
            closed: t.is_closed(),
        }
    }

    /// Facts of a numbering (move number by square, 0 unvisited): no allocation.
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
