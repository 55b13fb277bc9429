//! Long writes: how far they got, and when they must give up.
//!
//! Writing can take longer than the search (a 3000x3000 workbook: about 9 s of rows and
//! compression after a tour found in a tenth of a second), so it is bounded and shown like a
//! search. Every writer (`generate`'s workbook, CSV, JSON and text; `draw`; `template`;
//! `verify --complete`; `pairs`) gets one [`WriteBudget`] for its output, and works in
//! [`WriteBudget::stage`]s: it announces the work of a stage (rows to write, moves or frames to
//! draw, bytes to compress) and counts it with [`WriteBudget::step`]. The budget
//!
//! - tells the progress line the stage as a fraction with the time left ("writing big.xlsx:
//!   1,200 of 3,000 rows (40%), about 4 s left"), at most ten times a second;
//! - gives up at the run's deadline (`--timeout`) with [`TimedOut`], which the atomic write
//!   ([`crate::output`]) turns into an error after removing its temp file: a run stopped while
//!   writing leaves no file at all, never half of one, and says so.
//!
//! Two rules keep what a search found from being lost to the deadline. Every stage may run
//! [`MIN_STAGE_TIME`] whatever the deadline, so a tour found just before it is still written
//! (and bytes written between stages, such as the end of a JSON list, are never cut off).
//! And a search whose finds are written only when it ends (a workbook, `pairs`, `draw`) gets
//! [`search_share`] of `--timeout`, leaving the rest to the write.
//!
//! ```
//! use std::time::{Duration, Instant};
//! use knights_tour::output::write_budget::{WriteBudget, Work};
//! // No deadline: every step succeeds.
//! let budget = WriteBudget::unlimited();
//! let stage = budget.stage(Work::Rows, 3);
//! assert!(budget.step(3).is_ok());
//! drop(stage);
//! // A deadline long past: a stage may still run its first second, then it gives up.
//! let past = Instant::now().checked_sub(Duration::from_secs(5));
//! let budget = WriteBudget::new("big.xlsx", past, None);
//! let _stage = budget.stage(Work::Rows, 3000);
//! assert!(budget.step(1).is_ok());
//! std::thread::sleep(knights_tour::output::write_budget::MIN_STAGE_TIME);
//! let err = budget.step(1).unwrap_err();
//! assert_eq!(err.to_string(), "the time limit came while writing big.xlsx, at 2 of 3,000 rows");
//! ```

use std::io::{self, Write};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::english::thousands;

/// Every stage of a write may run this long, whatever the deadline: long enough for what a
/// search found just before the deadline (a tour of a stream, a small workbook), short enough
/// that a write of minutes still stops close to it.
pub const MIN_STAGE_TIME: Duration = Duration::from_millis(250);

/// The share of `--timeout` a search may use when what it finds is written only after it
/// ends (a workbook, `pairs`, `draw`): four fifths, the rest is for writing.
///
/// ```
/// use std::time::Duration;
/// let t = knights_tour::output::write_budget::search_share(Duration::from_secs(60));
/// assert_eq!(t, Duration::from_secs(48));
/// ```
pub fn search_share(timeout: Duration) -> Duration {
    timeout * 4 / 5
}

/// The progress line hears of a stage at most this often.
const SHOW_EVERY: Duration = Duration::from_millis(100);

/// A stage is shown once it has run this long: the many short writes of a stream (a tour of
/// `--all` at a time) never take the progress line from the search.
const SHOW_AFTER: Duration = Duration::from_millis(250);

/// The time left is shown once a stage has run this long (before, the rate means little).
const ETA_AFTER: Duration = Duration::from_millis(500);

/// A stage is judged against the deadline once it has run this long: long enough for its
/// rate to mean something, short enough that a write that cannot fit says so at once rather
/// than at the deadline (a 5000x5000 workbook under `--timeout 10` stopped after 8 s of rows).
const JUDGE_AFTER: Duration = Duration::from_secs(1);

/// A stage whose rate says the rest needs this many times the time left stops at once (a
/// margin: the first rows of a workbook are not slower than the last, but a loaded machine
/// varies).
const CLEARLY_OVER: f64 = 1.5;

/// What a stage counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// Rows written: of a workbook's board sheets, or of a CSV or text grid.
    Rows,
    /// Moves of the path drawn (SVG, PNG).
    Moves,
    /// Frames of an animation.
    Frames,
    /// Bytes of a text document (JSON), against an estimate of its size.
    Bytes,
    /// Bytes of a workbook's zip, against an estimate of its size: the compression after
    /// the rows are written.
    Compressed,
}

impl Work {
    fn verb(self) -> &'static str {
        match self {
            Work::Rows | Work::Bytes => "writing",
            Work::Moves | Work::Frames => "drawing",
            Work::Compressed => "compressing",
        }
    }

    /// "1,200 of 3,000 rows", "frame 12 of 500", "23 of about 53 MB".
    fn fraction(self, done: u64, total: u64) -> String {
        let (done_t, total_t) = (thousands(done), thousands(total));
        match self {
            Work::Rows => format!("{done_t} of {total_t} rows"),
            Work::Moves => format!("{done_t} of {total_t} moves"),
            Work::Frames => format!("frame {done_t} of {total_t}"),
            Work::Bytes | Work::Compressed => {
                format!(
                    "{} of about {} MB",
                    megabytes(done),
                    megabytes(total.max(done))
                )
            }
        }
    }

    /// Whether the total is an estimate (and may be passed).
    fn estimated(self) -> bool {
        matches!(self, Work::Bytes | Work::Compressed)
    }
}

/// Megabytes: "0.4", "53".
fn megabytes(bytes: u64) -> String {
    let mb = bytes as f64 / 1e6;
    if mb < 10.0 {
        format!("{mb:.1}")
    } else {
        thousands(mb.round() as u64)
    }
}

/// "about 4 s left", "about 3 min left".
fn time_left(d: Duration) -> String {
    match d.as_secs() {
        s if s < 100 => format!("about {} s left", s.max(1)),
        s => format!("about {} min left", s.div_ceil(60)),
    }
}

/// One stage of a write.
#[derive(Debug)]
struct Stage {
    work: Work,
    done: u64,
    total: u64,
    started: Instant,
    shown: Option<Instant>,
}

/// The state the writer and its output share.
#[derive(Debug, Default)]
struct State {
    stage: Option<Stage>,
    fired: Option<TimedOut>,
}

/// The progress and time limit of writing one output. See the module documentation.
pub struct WriteBudget<'a> {
    name: String,
    deadline: Option<Instant>,
    show: Option<&'a (dyn Fn(&str) + Sync)>,
    state: Mutex<State>,
}

impl std::fmt::Debug for WriteBudget<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WriteBudget")
            .field("name", &self.name)
            .field("deadline", &self.deadline)
            .finish_non_exhaustive()
    }
}

impl<'a> WriteBudget<'a> {
    /// Writing `name` (as messages call the output), giving up at `deadline` (none: never),
    /// telling `show` how far it got.
    pub fn new(
        name: impl Into<String>,
        deadline: Option<Instant>,
        show: Option<&'a (dyn Fn(&str) + Sync)>,
    ) -> WriteBudget<'a> {
        WriteBudget {
            name: name.into(),
            deadline,
            show,
            state: Mutex::new(State::default()),
        }
    }

    /// No deadline and no progress line: for library callers and tests.
    pub fn unlimited() -> WriteBudget<'static> {
        WriteBudget::new("the output", None, None)
    }

    /// The deadline, if any.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Begin a stage of `total` units of `work`; it ends when the returned guard is dropped.
    /// Outside a stage nothing is counted and nothing gives up.
    pub fn stage(&self, work: Work, total: u64) -> StageGuard<'_, 'a> {
        let now = Instant::now();
        let mut state = self.state();
        state.stage = Some(Stage {
            work,
            done: 0,
            total,
            started: now,
            shown: None,
        });
        StageGuard(self)
    }

    /// Count `n` more units of the current stage; [`TimedOut`] once the deadline has passed
    /// (and the stage has run [`MIN_STAGE_TIME`]). The writer stops there.
    pub fn step(&self, n: u64) -> Result<(), TimedOut> {
        let now = Instant::now();
        let mut state = self.state();
        if let Some(fired) = &state.fired {
            return Err(fired.clone());
        }
        let Some(stage) = state.stage.as_mut() else {
            return Ok(());
        };
        stage.done = stage.done.saturating_add(n);
        let limit = self.deadline.map(|d| d.max(stage.started + MIN_STAGE_TIME));
        if limit.is_some_and(|t| now >= t) {
            let fired = TimedOut {
                verb: stage.work.verb(),
                name: self.name.clone(),
                at: stage.work.fraction(stage.done, stage.total),
                projected: None,
            };
            state.fired = Some(fired.clone());
            return Err(fired);
        }
        if let Some(fired) = limit.and_then(|l| self.wont_fit(stage, now, l)) {
            state.fired = Some(fired.clone());
            return Err(fired);
        }
        let due = match stage.shown {
            None => now.duration_since(stage.started) >= SHOW_AFTER,
            Some(t) => now.duration_since(t) >= SHOW_EVERY,
        };
        if due {
            self.show_now(&mut state, now);
        }
        Ok(())
    }

    /// `bytes` more bytes went to the output: counted when the stage counts bytes, else only
    /// the deadline is checked.
    /// The stop a stage's rate calls for: once it has run [`JUDGE_AFTER`], a counted stage
    /// (not an estimate of bytes) whose rest needs [`CLEARLY_OVER`] times the time left.
    fn wont_fit(&self, stage: &Stage, now: Instant, limit: Instant) -> Option<TimedOut> {
        let elapsed = now.duration_since(stage.started);
        if stage.work.estimated() || elapsed < JUDGE_AFTER || stage.done == 0 {
            return None;
        }
        let rest = stage.total.saturating_sub(stage.done);
        let needed = elapsed.mul_f64(rest as f64 / stage.done as f64);
        let left = limit.saturating_duration_since(now);
        (needed.as_secs_f64() > left.as_secs_f64() * CLEARLY_OVER).then(|| TimedOut {
            verb: stage.work.verb(),
            name: self.name.clone(),
            at: stage.work.fraction(stage.done, stage.total),
            projected: Some(Box::new(Projection {
                elapsed,
                needed,
                left,
            })),
        })
    }

    fn wrote(&self, bytes: usize) -> Result<(), TimedOut> {
        let counts_bytes = self
            .state()
            .stage
            .as_ref()
            .is_some_and(|s| s.work.estimated());
        self.step(if counts_bytes { bytes as u64 } else { 0 })
    }

    /// Whether (and where) the deadline stopped this write.
    pub fn fired(&self) -> Option<TimedOut> {
        self.state().fired.clone()
    }

    /// `out` with every write counted and checked against the deadline: what an output file
    /// (or standard output) is written through.
    pub fn watch<W: Write>(&self, out: W) -> Watched<'_, 'a, W> {
        Watched { out, budget: self }
    }

    /// Tell the progress line where the stage is.
    fn show_now(&self, state: &mut State, now: Instant) {
        let (Some(show), Some(stage)) = (self.show, state.stage.as_mut()) else {
            return;
        };
        stage.shown = Some(now);
        show(&self.describe(stage, now));
    }

    /// "writing big.xlsx: 1,200 of 3,000 rows (40%), about 4 s left".
    fn describe(&self, stage: &Stage, now: Instant) -> String {
        let mut text = format!(
            "{} {}: {}",
            stage.work.verb(),
            self.name,
            stage.work.fraction(stage.done, stage.total)
        );
        let (done, total) = (stage.done, stage.total);
        if total == 0 || (stage.work.estimated() && done >= total) {
            return text;
        }
        text.push_str(&format!(" ({}%)", done.min(total) * 100 / total));
        let elapsed = now.duration_since(stage.started);
        if done > 0 && done < total && elapsed >= ETA_AFTER {
            let left = elapsed.mul_f64((total - done) as f64 / done as f64);
            text.push_str(&format!(", {}", time_left(left)));
        }
        text
    }
}

/// A stage of a write, ended when dropped (see [`WriteBudget::stage`]).
#[must_use = "the stage ends when this is dropped"]
pub struct StageGuard<'b, 'a>(&'b WriteBudget<'a>);

impl Drop for StageGuard<'_, '_> {
    fn drop(&mut self) {
        self.0.state().stage = None;
    }
}

/// An output written through a [`WriteBudget`] (see [`WriteBudget::watch`]).
pub struct Watched<'b, 'a, W> {
    out: W,
    budget: &'b WriteBudget<'a>,
}

impl<W: Write> Write for Watched<'_, '_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.budget.wrote(buf.len()).map_err(TimedOut::into_io)?;
        self.out.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// The deadline came while writing, or the write's rate showed it would: the writer stops,
/// and the output is not made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the time limit {}", self.ending(&self.name))]
pub struct TimedOut {
    verb: &'static str,
    name: String,
    at: String,
    /// Boxed: errors carrying it stay small.
    projected: Option<Box<Projection>>,
}

/// Why a write stopped before its deadline: at its rate, the rest needed more than was left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Projection {
    elapsed: Duration,
    needed: Duration,
    left: Duration,
}

impl TimedOut {
    /// How far the write got: "1,200 of 3,000 rows".
    pub fn at(&self) -> &str {
        &self.at
    }

    /// What the write was doing: "writing", "compressing", "drawing".
    pub fn verb(&self) -> &'static str {
        self.verb
    }

    /// What happened, after "the time limit ", naming the output `it`: "came while writing
    /// it, at 2 of 3,000 rows", or, when the rate showed at once that the rest could not fit,
    /// "would come while writing it: 120 of 3,000 rows took 1.0 s, the rest needs about 25 s
    /// and 8 s are left".
    pub fn ending(&self, it: &str) -> String {
        let (verb, at) = (self.verb, &self.at);
        match self.projected.as_deref() {
            None => format!("came while {verb} {it}, at {at}"),
            Some(p) => format!(
                "would come while {verb} {it}: {at} took {:.1} s, the rest needs about {} s and \
                 {} s {} left",
                p.elapsed.as_secs_f64(),
                p.needed.as_secs().max(1),
                p.left.as_secs(),
                if p.left.as_secs() == 1 { "is" } else { "are" }
            ),
        }
    }

    /// As an I/O error, for writers that speak `io::Result`.
    pub fn into_io(self) -> io::Error {
        io::Error::new(io::ErrorKind::TimedOut, self)
    }

    /// As a workbook writer's error.
    pub fn into_xlsx(self) -> rust_xlsxwriter::XlsxError {
        rust_xlsxwriter::XlsxError::IoError(self.into_io())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stages_are_shown_as_fractions_with_the_time_left() {
        let budget = WriteBudget::new("big.xlsx", None, None);
        let start = Instant::now();
        let stage = Stage {
            work: Work::Rows,
            done: 1200,
            total: 3000,
            started: start,
            shown: None,
        };
        assert_eq!(
            budget.describe(&stage, start),
            "writing big.xlsx: 1,200 of 3,000 rows (40%)"
        );
        assert_eq!(
            budget.describe(&stage, start + Duration::from_secs(2)),
            "writing big.xlsx: 1,200 of 3,000 rows (40%), about 3 s left"
        );
        let zip = Stage {
            work: Work::Compressed,
            done: 23_400_000,
            total: 52_700_000,
            ..stage
        };
        assert_eq!(
            budget.describe(&zip, start),
            "compressing big.xlsx: 23 of about 53 MB (44%)"
        );
        // An estimate passed: no percentage, no time left.
        let over = Stage {
            done: 60_000_000,
            ..zip
        };
        assert_eq!(
            budget.describe(&over, start + Duration::from_secs(9)),
            "compressing big.xlsx: 60 of about 60 MB"
        );
        assert_eq!(time_left(Duration::from_secs(250)), "about 5 min left");
    }

    #[test]
    fn the_progress_line_hears_of_each_stage() {
        let heard = Mutex::new(Vec::new());
        let show = |s: &str| heard.lock().unwrap().push(s.to_string());
        let budget = WriteBudget::new("t.gif", None, Some(&show));
        {
            let _stage = budget.stage(Work::Frames, 500);
            budget.step(1).unwrap();
            // A short stage is not shown: a stream's many small writes leave the line alone.
            assert!(heard.lock().unwrap().is_empty());
            let started = Instant::now() - Duration::from_secs(1);
            budget.state().stage.as_mut().unwrap().started = started;
            budget.step(99).unwrap();
            budget.step(1).unwrap(); // within SHOW_EVERY of the last: not shown again
        }
        let heard = heard.lock().unwrap();
        assert_eq!(
            *heard,
            ["drawing t.gif: frame 100 of 500 (20%), about 4 s left"]
        );
    }

    #[test]
    fn a_write_past_the_deadline_fails_and_remembers_it() {
        let past = Instant::now().checked_sub(Duration::from_secs(10));
        let budget = WriteBudget::new("x.csv", past, None);
        // Outside a stage nothing gives up: the end of a document is always written.
        assert!(budget.step(1).is_ok());
        let _stage = budget.stage(Work::Rows, 10);
        // As if the stage had begun long ago.
        budget.state().stage.as_mut().unwrap().started = past.unwrap();
        let err = budget.step(4).unwrap_err();
        assert_eq!(err.at(), "4 of 10 rows");
        assert_eq!(budget.fired(), Some(err.clone()));
        let io = err.into_io();
        assert_eq!(io.kind(), io::ErrorKind::TimedOut);
        // A writer through the budget refuses every byte from now on.
        let mut sink = Vec::new();
        assert!(budget.watch(&mut sink).write(b"late").is_err());
        assert!(sink.is_empty());
    }

    #[test]
    fn a_stage_whose_rate_cannot_fit_stops_at_once_and_one_that_fits_goes_on() {
        let now = Instant::now();
        let ago = |secs| now.checked_sub(Duration::from_secs(secs)).unwrap();
        // 20 of 1,000 rows in 2 s: the rest needs 98 s, 10 s are left.
        let budget = WriteBudget::new("big.xlsx", Some(now + Duration::from_secs(10)), None);
        let _stage = budget.stage(Work::Rows, 1000);
        budget.state().stage.as_mut().unwrap().started = ago(2);
        let err = budget.step(20).unwrap_err();
        let text = err.to_string();
        assert!(
            text.starts_with(
                "the time limit would come while writing big.xlsx: 20 of 1,000 rows took 2."
            ),
            "{text}"
        );
        assert!(text.contains("the rest needs about 98 s and "), "{text}");
        assert_eq!(budget.fired(), Some(err));
        // 500 of 1,000 rows in 2 s: the rest needs 2 s of the 10 left.
        let budget = WriteBudget::new("ok.xlsx", Some(now + Duration::from_secs(10)), None);
        let _stage = budget.stage(Work::Rows, 1000);
        budget.state().stage.as_mut().unwrap().started = ago(2);
        assert!(budget.step(500).is_ok());
        // An estimate of bytes is never judged by its rate.
        let budget = WriteBudget::new("z.xlsx", Some(now + Duration::from_secs(10)), None);
        let _stage = budget.stage(Work::Compressed, 1_000_000);
        budget.state().stage.as_mut().unwrap().started = ago(2);
        assert!(budget.step(1).is_ok());
    }
}
