//! `pairs` as a library: a checked [`Job`] (board, seed, time limit, output) in, every (start,
//! end) pair answered ([`crate::solve::pairs`]) and written in the chosen format, and a
//! [`Report`] out whose first line answers the Delphi question ("8x8: a tour exists for all
//! 2,048 pairs of opposite colours; none for the 1,984 of the same colour").
//!
//! Written as a workbook ([`matrix`]: the matrix and the tours) or as CSV, JSON or a text
//! matrix ([`listing`]).
//!
//! Bounded: boards of at most [`crate::solve::pairs::MAX_SQUARES`] squares, the searches
//! stopped by the time limit (pairs left open are marked "not answered", exit 1, the output
//! still written), and the output written atomically (nothing is left behind on an error).

pub mod listing;
pub mod matrix;

use std::time::Duration;

use crate::board::Board;
use crate::english::thousands;
use crate::error::{Error, Result};
use crate::exit_codes;
use crate::output::format::Format;
use crate::output::write_budget::{search_share, WriteBudget};
use crate::output::{self, Destination};
use crate::pairs::matrix::{save_pairs_workbook, PairsWorkbook};
use crate::solve::pairs::{self, Pairs, PairsPlan, Totals};

/// Everything `pairs` needs, built once from the command line.
#[derive(Clone, Debug)]
pub struct Job {
    /// The board.
    pub board: Board,
    /// The seed of every search's tie order.
    pub seed: u64,
    /// Time limit, threads, progress meter.
    pub plan: PairsPlan,
    /// The output format.
    pub format: Format,
    /// Where the output goes.
    pub dest: Destination,
    /// Replace an existing output.
    pub force: bool,
    /// The command that makes this output again (recorded in a workbook).
    pub command_line: String,
}

/// What a run found.
#[derive(Clone, Debug)]
pub struct Report {
    /// The one-line answer.
    pub answer: String,
    /// Where the output went, how long it took, the seed.
    pub detail: String,
    /// How many ordered pairs got each answer.
    pub totals: Totals,
}

impl Report {
    /// 0 when every pair is answered (a tour, or proof that none exists), 1 when the time
    /// limit left some open (the output is still written).
    pub fn exit_code(&self) -> u8 {
        if self.totals.not_answered == 0 {
            exit_codes::SUCCESS
        } else {
            exit_codes::FAILURE
        }
    }
}

impl Job {
    /// Refuse, before any work, a board `pairs` does not answer (no tour at all, naming the
    /// theorem, or too many squares) and an output that exists.
    pub fn check(&self) -> Result<()> {
        pairs::check_board(self.board).map_err(|e| Error::Impossible(e.to_string()))?;
        if self.format == Format::Xlsx && self.dest == Destination::Stdout {
            return Err(crate::output::format::xlsx_to_stdout());
        }
        if let Destination::File(path) = &self.dest {
            output::check_writable(path, self.force)?;
        }
        Ok(())
    }
}

/// Answer every pair and write the output; `progress` hears how far the searches (and the
/// writing) got. The output is written after the searches, which get [`search_share`] of the
/// time limit; a write the limit stops leaves no file ([`Error::TimedOut`], exit 1).
pub fn run(job: &Job, progress: &(dyn Fn(&str) + Sync)) -> Result<Report> {
    job.check()?;
    let deadline = job
        .plan
        .timeout
        .and_then(|t| std::time::Instant::now().checked_add(t));
    let budget = WriteBudget::new(job.dest.display(), deadline, Some(progress));
    let plan = PairsPlan {
        timeout: job.plan.timeout.map(search_share),
        ..job.plan.clone()
    };
    let n = job.board.len() as u64;
    progress(&format!(
        "answering {} pairs",
        thousands(n * n.saturating_sub(1))
    ));
    let mut shown = std::time::Instant::now();
    let answered = pairs::solve(job.board, job.seed, &plan, &mut |p| {
        if shown.elapsed() >= Duration::from_millis(100) {
            shown = std::time::Instant::now();
            progress(&format!(
                "answering pairs: {} of {} (pass {})",
                thousands(p.answered),
                thousands(p.total),
                p.pass
            ));
        }
    })
    .map_err(|e| Error::Impossible(e.to_string()))?;
    progress(&format!("writing {}", job.dest.display()));
    write(job, &answered, &budget)?;
    let totals = answered.totals();
    let open = match totals.not_answered {
        0 => String::new(),
        1 => "; 1 pair left open at the time limit (--timeout)".to_string(),
        k => format!(
            "; {} pairs left open at the time limit (--timeout)",
            thousands(k)
        ),
    };
    let detail = format!(
        "{} pairs answered in {:.2} s{open}; written to {}; seed {}",
        thousands(totals.pairs() - totals.not_answered),
        answered.elapsed().as_secs_f64(),
        job.dest.display(),
        job.seed
    );
    Ok(Report {
        answer: answered.answer_line(),
        detail,
        totals,
    })
}

fn write(job: &Job, answered: &Pairs, budget: &WriteBudget<'_>) -> Result<()> {
    match (job.format, &job.dest) {
        (Format::Xlsx, Destination::File(path)) => {
            let meta = PairsWorkbook {
                command_line: job.command_line.clone(),
                created: None,
            };
            save_pairs_workbook(answered, &meta, path, job.force, budget)
        }
        (Format::Xlsx, Destination::Stdout) => Err(crate::output::format::xlsx_to_stdout()),
        (Format::Csv, dest) => {
            output::write_to(dest, job.force, budget, |w| listing::write_csv(answered, w))
        }
        (Format::Json, dest) => output::write_to(dest, job.force, budget, |w| {
            listing::write_json(answered, w)
        }),
        (Format::Text, dest) => output::write_to(dest, job.force, budget, |w| {
            listing::write_text(answered, w)
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(board: Board, format: Format, dir: &std::path::Path) -> Job {
        Job {
            board,
            seed: 1,
            plan: PairsPlan::default(),
            format,
            dest: Destination::File(dir.join(format!("p.{}", format.extension()))),
            force: false,
            command_line: String::new(),
        }
    }

    #[test]
    fn a_board_without_a_tour_is_refused_before_any_file() {
        let dir = tempfile::tempdir().unwrap();
        let j = job(Board::new(4, 4).unwrap(), Format::Csv, dir.path());
        match run(&j, &|_| {}) {
            Err(Error::Impossible(why)) => assert!(why.contains("4x4"), "{why}"),
            other => panic!("{other:?}"),
        }
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn every_format_is_written_and_the_report_answers() {
        let dir = tempfile::tempdir().unwrap();
        for format in Format::ALL {
            let j = job(Board::new(5, 5).unwrap(), format, dir.path());
            let report = run(&j, &|_| {}).unwrap();
            assert_eq!(report.exit_code(), exit_codes::SUCCESS);
            assert!(report.answer.starts_with("5x5: a tour exists for "));
            assert!(
                report.detail.contains("600 pairs answered"),
                "{}",
                report.detail
            );
            let Destination::File(path) = &j.dest else {
                unreachable!()
            };
            assert!(std::fs::metadata(path).unwrap().len() > 0);
            // A second run keeps the file.
            assert!(matches!(run(&j, &|_| {}), Err(Error::OutputExists { .. })));
        }
    }
}
