//! `generate` as a library: a checked [`Job`] (request, plan, seed, output) in, the tours
//! written in the chosen format, and a [`Report`] out. The command line only builds the job
//! and prints the report; the same job gives the same tours whatever the format.
//!
//! Its parts: the workbook of attempts ([`workbook`], with the sheets of [`hand_sheets`] and
//! the summary sheet), the text formats written as tours are found ([`stream`]), and the
//! `--json` summary ([`summary_json`]).
//!
//! Bounded always: text formats stream each tour as it is found (an `--all` run holds none of
//! them); a workbook holds at most [`MAX_WORKBOOK_TOURS`] tours: `--tours` or `--limit` above
//! it is refused before any work, naming the formats that stream, and `--all` without a limit
//! stops there and says so (exit 1, the workbook written), as it does at `--timeout`.

pub mod hand_sheets;
pub mod stream;
pub mod summary_json;
mod summary_sheet;
mod tour_sheets;
pub mod workbook;

use crate::board::{Board, Square};
use crate::english::{count, count_usize, thousands};
use crate::error::{Error, Result};
use crate::exit_codes;
use crate::generate::stream::TourStream;
use crate::output::format::Format;
use crate::output::grids;
use crate::output::write_budget::{search_share, TimedOut, WriteBudget};
use crate::output::{self, Destination, FinishOnSignal};
use crate::solve::runner::{self, Attempt, Ending, Event, Goal, Plan};
use crate::solve::{existence, rng_from_seed, Method, Request, Tiebreak};
use crate::tour::Tour;
use crate::workbook::cellref::CellRef;
use crate::workbook::write::{check_fits, MAX_WORKBOOK_SHEETS};
use summary_json::{SheetSummary, Summary};

/// A workbook holds at most this many tours (one worksheet each, kept in memory until the
/// workbook is written); csv and json stream any number.
pub const MAX_WORKBOOK_TOURS: u64 = 1000;

/// Squares of all the tours a run may hold at once (4 bytes each): a workbook's attempts, or
/// the tours of `--tours K` before they are written.
pub const MAX_HELD_SQUARES: u64 = 25_000_000;

/// The most squares of one tour a workbook or a JSON document is written with: the tour is
/// held in move order beside the rows being written (8 bytes a square or so), 200 MB here.
pub const MAX_WORKBOOK_SQUARES: u64 = MAX_HELD_SQUARES;

/// The most squares of one tour streamed as CSV or text: the grid streams from its numbering
/// (4 bytes a square), 400 MB here.
pub const MAX_STREAMED_SQUARES: u64 = 100_000_000;

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
    /// How a workbook is laid out (xlsx only).
    pub workbook: WorkbookOptions,
}

/// Workbook layout choices.
#[derive(Clone, Debug)]
pub struct WorkbookOptions {
    /// The board's top-left cell.
    pub top_left: CellRef,
    /// Whether to draw the path chart.
    pub draw_path: workbook::PathDrawing,
    /// The command that makes this output again (recorded in the properties).
    pub command_line: String,
}

impl Default for WorkbookOptions {
    fn default() -> Self {
        WorkbookOptions {
            top_left: CellRef::new(2, 2),
            draw_path: workbook::PathDrawing::Auto,
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
    /// The seed, when the run makes random choices with it; `--all` enumerates every tour in
    /// a fixed order and uses none, so it reports none (no "repeat with --seed" that means
    /// nothing).
    pub fn seed_used(&self) -> Option<u64> {
        match self.plan.goal {
            Goal::All { .. } => None,
            _ => Some(self.seed),
        }
    }

    /// Warnsdorff's tie-break, when the run may make Warnsdorff attempts (`--method auto` or
    /// `warnsdorff`, not `--all`).
    pub fn tiebreak_used(&self) -> Option<Tiebreak> {
        let warnsdorff = matches!(self.plan.method, Method::Auto | Method::Warnsdorff);
        (warnsdorff && !matches!(self.plan.goal, Goal::All { .. })).then_some(self.plan.tiebreak)
    }

    /// Refuse, before any work or any file is touched, every request that cannot be met or
    /// held: impossible boards (naming the theorem), boards that do not fit a sheet, outputs
    /// that exist, requests bigger than the output can hold.
    pub fn check(&self) -> Result<()> {
        existence::check_request(&self.request).map_err(|e| Error::Impossible(e.to_string()))?;
        let board = self.request.board;
        // Memory, at once: a request that cannot fit is refused before minutes of search.
        let (most, what) = match self.format {
            Format::Xlsx => (MAX_WORKBOOK_SQUARES, "a workbook"),
            Format::Json => (MAX_WORKBOOK_SQUARES, "a JSON document"),
            Format::Csv | Format::Text => (MAX_STREAMED_SQUARES, "a CSV or text grid"),
        };
        if board.len() as u64 > most {
            let side = (most as f64).sqrt() as u64;
            let streams = match self.format {
                Format::Xlsx | Format::Json => format!(
                    "; a CSV or text grid streams up to {} squares",
                    thousands(MAX_STREAMED_SQUARES)
                ),
                _ => String::new(),
            };
            return Err(Error::Usage(format!(
                "{} has {} squares: {what} is written with at most {} ({side}x{side}) here, \
                 so that the run stays within a few hundred MB{streams}",
                crate::english::a_board(board),
                thousands(board.len() as u64),
                thousands(most),
            )));
        }
        if self.format == Format::Xlsx {
            check_fits(board, self.workbook.top_left).map_err(|e| Error::Usage(e.to_string()))?;
            let tours = match self.plan.goal {
                Goal::All { limit: Some(l) } => l,
                Goal::All { limit: None } => MAX_WORKBOOK_TOURS,
                Goal::Tours(k) => u64::from(k),
                Goal::Complete(_) => 1,
            };
            if tours > MAX_WORKBOOK_TOURS {
                return Err(Error::Usage(format!(
                    "a workbook holds at most {MAX_WORKBOOK_TOURS} tours (one worksheet each), \
                     not {tours}; write .csv or .json, which stream any number"
                )));
            }
        }
        if let Goal::Tours(k) = self.plan.goal {
            let held = u64::from(k) * board.len() as u64;
            if self.format == Format::Xlsx && k > 1 && held > MAX_HELD_SQUARES {
                return Err(Error::Usage(format!(
                    "--tours {k} on {} would hold {held} squares in one workbook, more than \
                     {MAX_HELD_SQUARES}; write .csv or .json, which stream",
                    crate::english::a_board(board)
                )));
            }
        }
        if let Destination::File(path) = &self.dest {
            output::check_writable(path, self.force)?;
        }
        Ok(())
    }
}

/// Run the job: solve, write the output as the attempts come, report. Errors are only an
/// impossible request and the output's (a full disk, a vanished folder); a search that finds
/// less than asked is a report with exit code 1, its output written. `--timeout` bounds the
/// writing too (see [`crate::output::write_budget`]): a workbook's search gets [`search_share`] of it, and a
/// write the time limit stops leaves no file and a report saying so, exit 1.
pub fn run(job: &Job, progress: &(dyn Fn(&str) + Sync)) -> Result<Report> {
    job.check()?;
    let deadline = job
        .plan
        .timeout
        .and_then(|t| std::time::Instant::now().checked_add(t));
    let budget = WriteBudget::new(job.dest.display(), deadline, Some(progress));
    if let Some(report) = streamed_grid(job, &budget)? {
        return Ok(report);
    }
    let mut plan = job.plan.clone();
    if job.format == Format::Xlsx {
        // Written only once the search ends: leave time to write it.
        plan.timeout = plan.timeout.map(search_share);
    }
    let cap = workbook_cap(job);
    if let (Goal::All { limit }, Some(cap)) = (&mut plan.goal, cap) {
        *limit = Some(limit.map_or(cap, |l| l.min(cap)));
    }
    let mut tracker = Tracker::new(job, progress);
    let searched = match job.format {
        Format::Xlsx => search_into_workbook(job, &plan, &mut tracker, &budget)?,
        _ => search_into_stream(job, &plan, &mut tracker, &budget)?,
    };
    match searched {
        Searched::Over(report) => Ok(report),
        Searched::Written(ended) => Ok(conclude(job, tracker, ended)),
    }
}

/// The bookkeeping every event of a search gets, whatever the format: the progress line, the
/// summary's list of sheets, and what the message will say of the first tour.
struct Tracker<'p> {
    progress: &'p (dyn Fn(&str) + Sync),
    board: Board,
    summary: Summary,
    first_tour: Option<PathFacts>,
    /// Walks the hand method made for its first tour (the failed ones and the one that worked).
    hand_walks: Option<u64>,
    /// The searches that found the tours, with how many each, in the order first met.
    finders: Vec<(Method, u64)>,
    /// What the run is doing, and how many tours it has found, for the progress line.
    phase: String,
    tours_so_far: u64,
    shown: std::time::Instant,
}

impl<'p> Tracker<'p> {
    fn new(job: &Job, progress: &'p (dyn Fn(&str) + Sync)) -> Tracker<'p> {
        Tracker {
            progress,
            board: job.request.board,
            summary: summary_head(job, false, String::new(), 0, 0),
            first_tour: None,
            hand_walks: None,
            finders: Vec::new(),
            phase: String::new(),
            tours_so_far: 0,
            shown: std::time::Instant::now(),
        }
    }

    fn event(&mut self, event: &Event<'_>) {
        match event {
            Event::Progress(p) => {
                self.phase = p.to_string();
                (self.progress)(p);
            }
            Event::Attempt(a) => {
                self.listed(a);
                self.tours_so_far += u64::from(a.solved);
                if self.shown.elapsed() >= std::time::Duration::from_millis(100) {
                    self.shown = std::time::Instant::now();
                    let found = count(self.tours_so_far, "tour");
                    (self.progress)(&format!("{}: {found}", self.phase));
                }
            }
        }
    }

    fn listed(&mut self, a: &Attempt) {
        if a.solved && self.first_tour.is_none() {
            self.first_tour = Some(PathFacts::from_tour(&a.tour));
            self.hand_walks = a.steps.as_ref().map(|b| b.failed.len() as u64 + 1);
        }
        if a.solved {
            match self.finders.iter_mut().find(|(m, _)| *m == a.method) {
                Some((_, n)) => *n += 1,
                None => self.finders.push((a.method, 1)),
            }
        }
        self.summary.push_sheet(PathFacts::from_tour(&a.tour).sheet(
            self.board,
            a.solved,
            a.method,
            a.tiebreak,
            a.note.clone(),
        ));
    }
}

/// How a search and the write of its output ended.
enum Searched {
    /// The output is written.
    Written(Ended),
    /// The run is over without an output: nothing to write, or the time limit came while
    /// writing.
    Over(Report),
}

/// A search whose output is written: its report, and what stopped it beside the search.
struct Ended {
    report: runner::Report,
    /// Which of a workbook's limits stopped the run, in words ("2000 sheets").
    full: Option<String>,
    /// The reader of standard output went away (`| head`): what it wanted, it got.
    reader_gone: bool,
}

/// Search, holding the attempts until a workbook's limits are reached, then write them.
fn search_into_workbook(
    job: &Job,
    plan: &Plan,
    tracker: &mut Tracker<'_>,
    budget: &WriteBudget<'_>,
) -> Result<Searched> {
    let mut rng = rng_from_seed(job.seed);
    let mut sheets = Vec::new();
    let mut held = 0u64;
    let mut full: Option<String> = None;
    let report = runner::run_with(&job.request, plan, &mut rng, &mut |event| {
        tracker.event(&event);
        match event {
            Event::Progress(_) => true,
            Event::Attempt(a) => {
                held += a.tour.len() as u64;
                sheets.push(a);
                if sheets.len() as u64 >= MAX_WORKBOOK_SHEETS {
                    full = Some(format!("{MAX_WORKBOOK_SHEETS} sheets"));
                } else if held >= MAX_HELD_SQUARES {
                    full = Some(format!("{MAX_HELD_SQUARES} squares of tours"));
                }
                full.is_none()
            }
        }
    });
    if sheets.is_empty() {
        return nothing_written(job, &report).map(Searched::Over);
    }
    (tracker.progress)(&format!("writing {}", job.dest.display()));
    match write_workbook(job, sheets, budget) {
        Err(Error::TimedOut { cause, .. }) => Ok(Searched::Over(unwritten(
            job,
            report.tours,
            report.attempts,
            &cause,
        ))),
        written => written.map(|()| {
            Searched::Written(Ended {
                report,
                full,
                reader_gone: false,
            })
        }),
    }
}

/// Search, writing each tour as it is found (CSV, JSON, text).
fn search_into_stream(
    job: &Job,
    plan: &Plan,
    tracker: &mut Tracker<'_>,
    budget: &WriteBudget<'_>,
) -> Result<Searched> {
    let mut rng = rng_from_seed(job.seed);
    let single = plan.goal == Goal::Tours(1);
    let mut ran = None;
    let mut reader_gone = false;
    // Written as found: a signal, like a time limit, ends the search and the file is
    // closed with what it holds (see `output`).
    let _finish = matches!(job.dest, Destination::File(_)).then(FinishOnSignal::new);
    let written = output::write_to(&job.dest, job.force, budget, |w| {
        let mut stream = TourStream::new(job.format, w, job.seed_used(), single, budget);
        let mut failed = None;
        let report = runner::run_with(&job.request, plan, &mut rng, &mut |event| {
            tracker.event(&event);
            let Event::Attempt(a) = event else {
                return output::interrupted().is_none();
            };
            if !a.solved {
                stream.failed(&a.tour);
                return output::interrupted().is_none();
            }
            match stream.tour(&a.tour) {
                Ok(()) => output::interrupted().is_none(),
                Err(e) => {
                    failed = Some(e);
                    false
                }
            }
        });
        let nothing = report.attempts == 0;
        ran = Some(report);
        match failed {
            Some(e) => {
                reader_gone =
                    e.kind() == std::io::ErrorKind::BrokenPipe && job.dest == Destination::Stdout;
                Err(e)
            }
            // Nothing to show: fail the write so no empty file is left.
            None if nothing => Err(std::io::Error::other("no attempt")),
            None => stream.finish().map(drop),
        }
    });
    // No report: the output could not even be opened (a folder we may not write in),
    // so the write's own error is the one to show.
    let Some(report) = ran else {
        return Err(written
            .err()
            .unwrap_or_else(|| Error::Other("the output was not written".into())));
    };
    if report.attempts == 0 {
        return nothing_written(job, &report).map(Searched::Over);
    }
    if let Err(Error::TimedOut { cause, .. }) = &written {
        return Ok(Searched::Over(unwritten(
            job,
            report.tours,
            report.attempts,
            cause,
        )));
    }
    written?;
    Ok(Searched::Written(Ended {
        report,
        full: None,
        reader_gone,
    }))
}

/// The report of a search whose output is written: solved or not, and the message.
fn conclude(job: &Job, tracker: Tracker<'_>, ended: Ended) -> Report {
    let Ended {
        report,
        full,
        reader_gone,
    } = ended;
    // The workbook's capacity, not the user's --limit, ended the run.
    let capped = match (&job.plan.goal, &report.ending) {
        (Goal::All { limit }, Ending::Limit) => limit.is_none_or(|l| report.tours < l),
        _ => false,
    };
    let full = match full {
        Some(what) if !report.is_done() => Some(what),
        _ if capped => Some(count(MAX_WORKBOOK_TOURS, "tour")),
        _ => None,
    };
    let solved = report.tours > 0
        && match (&job.plan.goal, &report.ending) {
            (_, Ending::Done) => true,
            (Goal::All { limit: Some(l) }, Ending::Limit) => report.tours >= *l,
            // A reader that closed the pipe (`| head`) had all it asked for.
            (_, Ending::Stopped) => reader_gone,
            _ => false,
        };
    let mut summary = tracker.summary;
    summary.solved = solved;
    summary.attempts = report.attempts as usize;
    summary.tours_found = report.tours as usize;
    summary.timed_out = matches!(report.ending, Ending::TimeLimit { .. });
    if let Goal::All { .. } = job.plan.goal {
        summary.exhaustive = Some(report.is_done());
    }
    let ended = Ended {
        report,
        full,
        reader_gone,
    };
    let found_by = found_by(&tracker.finders);
    summary.message = message(job, &ended, solved, tracker.first_tour, found_by);
    if let Some(walks) = tracker.hand_walks {
        let sheets = match job.format {
            Format::Xlsx => ", each step on its own sheet",
            _ => "",
        };
        summary.message.push_str(&format!(
            " (built by hand in {}{sheets})",
            count(walks, "walk")
        ));
    }
    Report { summary }
}

/// ", found by the rotation search" (", found by Warnsdorff's rule (2) and the backtracking
/// search (1)" for several): which searches found the tours. Nothing for the hand method, whose
/// message says how it built its tour, nor when no tour was found.
fn found_by(finders: &[(Method, u64)]) -> Option<String> {
    let named: Vec<String> = match finders {
        [] | [(Method::Hand, _)] => return None,
        [(method, _)] => vec![method.search_name().to_string()],
        several => several
            .iter()
            .map(|(method, n)| format!("{} ({n})", method.search_name()))
            .collect(),
    };
    let last = named.len() - 1;
    let list = match last {
        0 => named[0].clone(),
        _ => format!("{} and {}", named[..last].join(", "), named[last]),
    };
    Some(format!(", found by {list}"))
}

/// The most tours `--all` may put in this job's output: a workbook's capacity, none for text.
fn workbook_cap(job: &Job) -> Option<u64> {
    (job.format == Format::Xlsx).then_some(MAX_WORKBOOK_TOURS)
}

/// Huge boards as CSV or text: the constructor numbers the squares in place (4 bytes a square)
/// and the grid streams straight out, without the tour in move order beside it. `None` when
/// the plan does not start by construction. The tour is the one every other format gets.
fn streamed_grid(job: &Job, budget: &WriteBudget<'_>) -> Result<Option<Report>> {
    if !matches!(job.format, Format::Csv | Format::Text) {
        return Ok(None);
    }
    let Some(numbering) = runner::numbering(&job.request, &job.plan, &mut rng_from_seed(job.seed))
    else {
        return Ok(None);
    };
    let board = job.request.board;
    let written = output::write_to(&job.dest, job.force, budget, |w| match job.format {
        Format::Text => grids::write_text(board, &numbering, w, budget),
        _ => grids::write_csv(board, &numbering, w, budget),
    });
    match written {
        Err(Error::TimedOut { cause, .. }) => return Ok(Some(unwritten(job, 1, 1, &cause))),
        written => written?,
    }
    let facts = PathFacts::from_numbering(board, &numbering);
    drop(numbering);
    let message = format!(
        "Solved after 1 attempt: {}{}",
        facts.describe(board, &job.dest),
        found_by(&[(Method::Construct, 1)]).unwrap_or_default()
    );
    let mut summary = summary_head(job, true, message, 1, 1);
    summary.push_sheet(facts.sheet(board, true, Method::Construct, None, None));
    Ok(Some(Report { summary }))
}

/// A run that made no attempt at all. When an exhaustive search proved there is no tour (or
/// the method cannot meet the request), the request is impossible: an error, exit 2. A limit
/// that ran out first proves nothing: a report saying so honestly, exit 1, and no file (there
/// is nothing to put in one).
fn nothing_written(job: &Job, report: &runner::Report) -> Result<Report> {
    match &report.ending {
        // No search here takes the request: nothing is proved, and no flag is wrong.
        Ending::Declined(Method::Auto, _) => {}
        Ending::Declined(method, why) => {
            return Err(Error::Usage(format!(
                "--method {} does not take this request: {why}",
                method.name()
            )))
        }
        _ => {}
    }
    let proved = matches!(
        report.ending,
        Ending::NoTour | Ending::NoMore { .. } | Ending::Done
    );
    if proved {
        return Err(Error::Impossible(format!(
            "no tour meets the request: {}",
            report.reason()
        )));
    }
    // A time limit names the tour asked for, as when attempts were made.
    let why = match report.ending {
        Ending::TimeLimit { .. } => format!(
            "no {} found within the time limit; one may exist",
            wanted_tour(&job.request)
        ),
        _ => report.reason(),
    };
    let message = format!("Nothing written to {}: {why}", job.dest.display());
    let mut summary = summary_head(job, false, message, 0, 0);
    summary.timed_out = matches!(report.ending, Ending::TimeLimit { .. });
    Ok(Report { summary })
}

/// The time limit came while writing: the output was not made (or, on standard output, is
/// cut short). Exit 1, as for every run `--timeout` stopped.
fn unwritten(job: &Job, tours: u64, attempts: u64, cause: &TimedOut) -> Report {
    let found = match tours {
        0 => format!("{} and no tour", count(attempts, "failed attempt")),
        1 => "the tour was found".to_string(),
        n => format!("{} were found", count(n, "tour")),
    };
    let head = match &job.dest {
        Destination::Stdout => "Standard output cut short".to_string(),
        Destination::File(path) => format!("Nothing written to {}", path.display()),
    };
    let quicker = match job.format {
        Format::Xlsx => ", or write .csv, which is quicker",
        _ => "",
    };
    let message = format!(
        "{head}: the time limit (--timeout) {} ({found}); allow more time{quicker}",
        cause.ending("it")
    );
    let mut summary = summary_head(job, false, message, attempts as usize, tours as usize);
    summary.timed_out = true;
    Report { summary }
}

fn write_workbook(job: &Job, attempts: Vec<Attempt>, budget: &WriteBudget<'_>) -> Result<()> {
    let Destination::File(path) = &job.dest else {
        return Err(crate::output::format::xlsx_to_stdout());
    };
    let mut spec = workbook::WorkbookSpec::new(attempts);
    spec.top_left = job.workbook.top_left;
    spec.seed = job.seed_used();
    spec.title = format!("Knight's tour {}", job.request.board);
    spec.command_line = job.workbook.command_line.clone();
    spec.closed_requested = job.request.closed;
    spec.draw_path = job.workbook.draw_path;
    workbook::save_workbook(&spec, path, job.force, budget)
}

/// The message a person reads: what was found, by which search ([`found_by`]), where it went,
/// and, when it fell short, why (honestly: a time limit proves nothing).
fn message(
    job: &Job,
    ended: &Ended,
    solved: bool,
    first_tour: Option<PathFacts>,
    found_by: Option<String>,
) -> String {
    let stop = stop_reason(ended);
    if let Goal::All { limit } = job.plan.goal {
        return all_message(job, ended, limit, stop);
    }
    let (board, dest) = (job.request.board, job.dest.display());
    let report = &ended.report;
    let found = report.tours;
    let attempts = count(report.attempts, "attempt");
    let wanted = match job.plan.goal {
        Goal::Tours(k) => u64::from(k),
        _ => 1,
    };
    let head = if solved { "Solved" } else { "Failed" };
    if found == 0 {
        return none_found_message(job, report, head, stop);
    }
    let mut msg = if let (1, Some(first)) = (wanted, first_tour) {
        format!(
            "{head} after {attempts}: {}",
            first.describe(board, &job.dest)
        )
    } else if solved {
        format!(
            "{head} after {attempts}: {} on {board} written to {dest}",
            count(found, "tour")
        )
    } else {
        format!(
            "{head} after {attempts}: {found} of {} on {board} written to {dest}",
            count(wanted, "tour")
        )
    };
    msg.push_str(found_by.as_deref().unwrap_or_default());
    if let Some(stop) = stop {
        msg.push_str(&format!("; {stop}"));
    } else if !solved {
        msg.push_str(&format!(" ({})", report.reason()));
    }
    msg
}

/// Why the run stopped before the search was done, when something other than the search
/// stopped it: the reader, a signal, the time limit, a workbook's capacity.
fn stop_reason(ended: &Ended) -> Option<String> {
    let report = &ended.report;
    let found = report.tours;
    let tours = |n: u64| count(n, "tour");
    match &report.ending {
        _ if ended.reader_gone => Some(format!("its reader closed it after {}", tours(found))),
        Ending::Stopped if output::interrupted().is_some() => Some(format!(
            "stopped by {}; more may exist",
            output::signal_name(output::interrupted().unwrap_or(0)),
        )),
        Ending::TimeLimit { .. } if found == 0 => {
            Some("no tour found within the time limit; one may exist".to_string())
        }
        Ending::TimeLimit { nodes } => Some(format!(
            "stopped at --timeout after {}{}; more may exist",
            tours(found),
            match nodes {
                0 => String::new(),
                n => format!(" ({n} search nodes)"),
            }
        )),
        _ => ended.full.as_ref().map(|what| {
            format!(
                "stopped at {what}, the most a workbook holds here: write .csv or .json to \
                 stream them all"
            )
        }),
    }
}

/// The message of `--all`: how many tours of which kind, and whether that is all of them.
fn all_message(job: &Job, ended: &Ended, limit: Option<u64>, stop: Option<String>) -> String {
    let report = &ended.report;
    let found = report.tours;
    let kind = match (report.undirected, job.request.closed) {
        (true, _) => "undirected closed tour",
        (false, true) => "directed closed tour",
        (false, false) => "directed tour",
    };
    let head = format!("Found {} on {}", count(found, kind), job.request.board);
    let dest = if found == 0 && job.format == Format::Xlsx {
        "nothing: a workbook needs at least one tour".to_string()
    } else {
        job.dest.display()
    };
    match (&report.ending, stop) {
        _ if ended.reader_gone => format!("{head} written to {dest} until its reader closed it"),
        (_, Some(stop)) => format!("{head} written to {dest}; {stop}"),
        (Ending::Done, _) => format!("{head} (all of them) written to {dest}"),
        (Ending::Limit, _) => format!(
            "{head} (stopped at --limit {}) written to {dest}",
            limit.unwrap_or(found)
        ),
        (e, _) => format!("{head} written to {dest}; {e}"),
    }
}

/// The message when no tour was found: what was asked for, what was written, and why.
fn none_found_message(
    job: &Job,
    report: &runner::Report,
    head: &str,
    stop: Option<String>,
) -> String {
    let timed_out = matches!(report.ending, Ending::TimeLimit { .. });
    let n = report.attempts;
    let attempts = count(n, "attempt");
    let dest = job.dest.display();
    // Say what was asked for: an open tour written after "no 6x6 tour found" would
    // contradict the message when the request was a closed one.
    let wanted = wanted_tour(&job.request);
    let why = match stop {
        Some(_) if timed_out => " within the time limit; one may exist".to_string(),
        Some(stop) => format!(": {stop}"),
        None => format!(": {}", report.reason()),
    };
    // A workbook holds every attempt; a text format only the one that got farthest.
    let written = match (n, job.format) {
        (0, _) => "nothing written".to_string(),
        (1, _) => format!("the attempt written to {dest}"),
        (_, Format::Xlsx) => format!("every attempt written to {dest}"),
        _ => format!("the farthest attempt written to {dest}"),
    };
    format!("{head} after {attempts} ({written}): no {wanted} found{why}")
}

/// The tour a request asks for, in words: `closed 6x6 tour`, `8x8 tour from a1 to h1`,
/// `30x30 tour meeting 6 constraints`.
fn wanted_tour(request: &Request) -> String {
    let board = request.board;
    let mut words = match request.closed {
        true => format!("closed {board} tour"),
        false => format!("{board} tour"),
    };
    if let Some(s) = request.start {
        words.push_str(&format!(" from {}", board.algebraic(s)));
    }
    if let Some(e) = request.end {
        words.push_str(&format!(" to {}", board.algebraic(e)));
    }
    if !request.constraints.is_empty() {
        words.push_str(&format!(
            " meeting {}",
            count_usize(request.constraints.len(), "constraint")
        ));
    }
    words
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
        tours_requested: match job.plan.goal {
            Goal::Tours(k) => k,
            _ => 0,
        },
        seed: job.seed_used(),
        seed_text: job.seed_used().map(|s| s.to_string()),
        method: job.plan.method.name(),
        tiebreak: job.tiebreak_used().map(Tiebreak::name),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    /// A job for `board` writing `format` into a fresh folder.
    fn job(board: Board, format: Format, dir: &std::path::Path) -> Job {
        let mut request = Request::open(board);
        request.start = Some(Square::new(board.rows() - 1, 0));
        request.end = Some(Square::new(board.rows() - 1, 1));
        Job {
            request,
            plan: Plan {
                method: Method::Backtrack,
                max_nodes: Some(1),
                ..Plan::default()
            },
            seed: 1,
            format,
            dest: Destination::File(dir.join(format!("out.{}", format.extension()))),
            force: false,
            workbook: WorkbookOptions::default(),
        }
    }

    #[test]
    fn a_search_that_runs_out_before_any_tour_reports_exit_1_and_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        for format in [Format::Xlsx, Format::Csv, Format::Json, Format::Text] {
            let job = job(Board::new(6, 6).unwrap(), format, dir.path());
            let report = run(&job, &|_| {}).unwrap();
            assert_eq!(report.exit_code(), exit_codes::FAILURE);
            let msg = &report.summary.message;
            assert!(
                msg.contains("no tour found within the search limit; one may exist"),
                "{msg}"
            );
            assert!(msg.starts_with("Nothing written to "), "{msg}");
        }
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert!(left.is_empty(), "{left:?}");
    }

    #[test]
    fn a_proof_that_no_tour_exists_is_an_impossible_request() {
        let dir = tempfile::tempdir().unwrap();
        // 3x4 from a1: tours exist, but none has move 4 on a2 (the search proves it).
        let mut job = job(Board::new(3, 4).unwrap(), Format::Csv, dir.path());
        job.plan.max_nodes = None;
        job.request.end = None;
        job.request.constraints = vec![crate::solve::Constraint {
            move_number: 4,
            square: Square::new(1, 0),
        }];
        match run(&job, &|_| {}) {
            Err(Error::Impossible(why)) => assert!(why.contains("proved"), "{why}"),
            other => panic!("{other:?}"),
        }
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
