//! `knights-tour verify [OPTIONS] FILE...`
//!
//! Checks every knight's tour on every worksheet of each workbook (xlsx, xlsm, xlsb, xls, ods,
//! CSV/TSV, generate's JSON and text grids; the content decides the format, not the extension;
//! folders are walked, `-` is standard input, see [`inputs`]): grids of move numbers and lists of
//! squares, as many as a sheet holds. `--format text` (the default) prints one line per board:
//! the verdict (`closed`, `open`, `partial`, `invalid`; `no-board` for a sheet without one),
//! where the board is, its start and end, then every problem found. `--format json` (or
//! `--json`) prints one JSON document, `--format csv` one row per board (a class report).
//! `-o FILE` writes the report to a file in the format its extension names; `-o report.xlsx`
//! writes a class workbook (see [`crate::verify::class`]).
//!
//! Exit codes: 0 when every file holds at least one board and every board is a complete tour;
//! 1 when a board is `partial` or `invalid`, or a file holds no board; 2 when a file cannot be
//! read (or a `--sheet` is missing, or the usage is wrong).

use std::path::{Path, PathBuf};

use crate::cli::args::command_line;
use crate::cli::progress::{self, Spinner};
use crate::error::{Error, Result};
use crate::exit_codes;
use crate::output::format::Format;
use crate::output::write_budget::WriteBudget;
use crate::output::{self, Destination};
use crate::solve::backtrack::Budget;
use crate::verify::class::{is_marked, save_class_report, Capacity, ClassReport};
use crate::verify::{complete, csv, inputs, text, FileReport, JsonDocument, Totals, VerifyOptions};
use crate::workbook::cellref::{CellRange, CellRef};
use crate::workbook::read::watched::{Limits, Opener};

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
    /// Write the report to this file instead of standard output; its extension picks the
    /// format: .xlsx writes a class workbook (a Results sheet, and every partial or invalid
    /// board on a sheet of its own with its mistakes marked), .csv, .json and .txt the reports
    /// --format names.
    #[arg(short, long, value_name = "FILE", conflicts_with = "complete")]
    pub output: Option<String>,
    /// Replace the -o or --complete file if it exists.
    #[arg(long)]
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

/// Where the report goes.
enum Sink {
    /// Standard output, in the report format.
    Stdout,
    /// A file in the report format (`-o report.csv`, `.json`, `.txt`).
    File(PathBuf),
    /// The class workbook (`-o report.xlsx`).
    Workbook(PathBuf),
}

/// The report's format and where it goes: the flags, and `-o`'s extension (which decides, as
/// for `generate`; `--format` may agree with it or stand in where there is none).
fn sink(args: &Args) -> Result<(ReportFormat, Sink)> {
    let flag = match (args.format, args.json) {
        (Some(f), _) => Some(f),
        (None, true) => Some(ReportFormat::Json),
        (None, false) => None,
    };
    let Some(out) = args.output.as_deref() else {
        return Ok((flag.unwrap_or(ReportFormat::Text), Sink::Stdout));
    };
    let exported = flag.map(|f| match f {
        ReportFormat::Text => Format::Text,
        ReportFormat::Json => Format::Json,
        ReportFormat::Csv => Format::Csv,
    });
    let (format, dest) = Format::resolve(exported, Some(out), out).map_err(|e| match e {
        // Say the flag the user gave.
        Error::Usage(m) if args.json => Error::Usage(
            m.replace("--format json", "--json")
                .replace("drop --format", "drop --json"),
        ),
        e => e,
    })?;
    let report = match format {
        Format::Json => ReportFormat::Json,
        Format::Csv => ReportFormat::Csv,
        Format::Text | Format::Xlsx => ReportFormat::Text,
    };
    Ok(match (format, dest) {
        (_, Destination::Stdout) => (report, Sink::Stdout),
        (Format::Xlsx, Destination::File(path)) => (report, Sink::Workbook(path)),
        (_, Destination::File(path)) => (report, Sink::File(path)),
    })
}

/// Run `knights-tour verify`.
pub fn run(args: Args) -> Result<u8> {
    // A reader that panics on a hostile file is caught (see workbook::read); keep its panic
    // message off the user's terminal, the report says what happened.
    crate::workbook::read::quiet_guarded_panics();
    let opener = Opener::watched(Limits::from_env());
    if args.force && args.complete.is_none() && args.output.is_none() {
        return Err(Error::Usage(
            "--force replaces the file -o or --complete names; give one of them".into(),
        ));
    }
    if let Some(out) = &args.complete {
        let out = crate::output::format::xlsx_output(&out.to_string_lossy(), "--complete")?;
        output::check_writable(&out, args.force)?;
    }
    let (format, sink) = sink(&args)?;
    if let Sink::File(path) | Sink::Workbook(path) = &sink {
        output::check_writable(path, args.force)?;
    }
    let inputs = inputs::expand(&args.files).map_err(Error::Usage)?;
    let mut run = Run::new(&args, format, &sink, opener);
    match &sink {
        Sink::Stdout => run.print_reports(&inputs, format, args.quiet)?,
        Sink::File(path) => run.write_report_file(&inputs, format, path, args.force)?,
        Sink::Workbook(path) => run.write_class_workbook(&inputs, path, args.force)?,
    }
    let Run {
        spinner,
        code,
        totals,
        reports,
        ..
    } = run;
    let completions = match &args.complete {
        Some(out) => Some(complete_failed(&reports, out, args.force, &spinner)?),
        None => None,
    };
    spinner.finish();
    print_ending(&args, &sink, format, &totals, reports)?;
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

/// `--complete`: the failed attempts of `reports` completed into the workbook `out`; the lines
/// that say so.
fn complete_failed(
    reports: &[FileReport],
    out: &Path,
    force: bool,
    spinner: &Spinner,
) -> Result<String> {
    spinner.set("completing failed attempts");
    let budget = Budget {
        meter: Some(progress::meter()),
        ..Budget::nodes(complete::DEFAULT_NODE_BUDGET)
    };
    let show = |msg: &str| spinner.set(msg);
    let writing = WriteBudget::new(out.display().to_string(), None, Some(&show));
    let items = complete::complete_reports(reports, out, force, &budget, &writing)?;
    Ok(complete::render_completions(&items, out))
}

/// What is printed once every file is read: the totals, the JSON document, or where the
/// report went.
fn print_ending(
    args: &Args,
    sink: &Sink,
    format: ReportFormat,
    totals: &Totals,
    reports: Vec<FileReport>,
) -> Result<()> {
    match sink {
        Sink::Stdout if args.quiet => {}
        Sink::Stdout if format == ReportFormat::Text && totals.files > 1 => {
            write_stdout(&text::render_totals(totals))?;
        }
        Sink::Stdout if format == ReportFormat::Json => {
            write_stdout(&json_document(reports)?)?;
        }
        Sink::Stdout => {}
        Sink::File(path) | Sink::Workbook(path) if !args.quiet => {
            let marked = reports
                .iter()
                .flat_map(FileReport::boards)
                .filter(|b| is_marked(b))
                .count();
            let what = match sink {
                Sink::Workbook(_) => {
                    format!(" ({} marked)", crate::english::count_usize(marked, "board"))
                }
                _ => String::new(),
            };
            write_stdout(&format!(
                "{}report written to {}{what}\n",
                text::render_totals(totals),
                path.display()
            ))?;
        }
        _ => {}
    }
    Ok(())
}

/// The JSON document on `reports`, ending with a newline.
fn json_document(reports: Vec<FileReport>) -> Result<String> {
    let doc = JsonDocument { files: reports };
    serde_json::to_string_pretty(&doc)
        .map(|json| json + "\n")
        .map_err(|e| Error::Other(format!("cannot write the JSON report: {e}")))
}

/// The verification of every input, file by file.
struct Run {
    /// Opens each workbook in the watched reader process.
    opener: Opener,
    options: VerifyOptions,
    spinner: Spinner,
    quiet: bool,
    /// The exit code so far.
    code: u8,
    totals: Totals,
    /// The reports kept (for JSON, --complete and the class workbook).
    reports: Vec<FileReport>,
    keep: bool,
    /// What the class workbook holds so far, when one is written.
    capacity: Option<Capacity>,
}

impl Run {
    /// The run `args` ask for, reporting in `format` to `sink`.
    fn new(args: &Args, format: ReportFormat, sink: &Sink, opener: Opener) -> Run {
        let to_file = !matches!(sink, Sink::Stdout);
        let workbook = matches!(sink, Sink::Workbook(_));
        let options = VerifyOptions {
            sheets: args.sheets.clone(),
            range: args.range,
            board: args.board,
            board_size: args.board_size,
            drawings: format == ReportFormat::Text && (to_file || !args.quiet),
            keep_typed: workbook,
        };
        Run {
            opener,
            options,
            spinner: Spinner::new(),
            quiet: args.quiet,
            code: exit_codes::SUCCESS,
            totals: Totals::default(),
            reports: Vec::new(),
            // Text and CSV stream file by file; reports are kept for JSON, --complete and -o .xlsx.
            keep: format == ReportFormat::Json || args.complete.is_some() || workbook,
            capacity: workbook.then(Capacity::default),
        }
    }

    /// Every input verified, text and CSV printed file by file as they are read.
    fn print_reports(
        &mut self,
        inputs: &[inputs::Input],
        format: ReportFormat,
        quiet: bool,
    ) -> Result<()> {
        let stream = !quiet && format != ReportFormat::Json;
        if stream && format == ReportFormat::Csv {
            write_stdout(&csv::header())?;
        }
        self.each(inputs, &mut |report| match (stream, format) {
            (false, _) | (_, ReportFormat::Json) => Ok(()),
            (_, ReportFormat::Csv) => write_stdout(&csv::rows(report)),
            (_, ReportFormat::Text) => write_stdout(&text::render_file(report)),
        })
    }

    /// Every input verified into the report file `path` (`-o report.csv`, `.json`, `.txt`).
    fn write_report_file(
        &mut self,
        inputs: &[inputs::Input],
        format: ReportFormat,
        path: &Path,
        force: bool,
    ) -> Result<()> {
        output::write_atomically_with(path, force, &WriteBudget::unlimited(), |w| {
            let io = |e: std::io::Error| Error::io(path, e);
            if format == ReportFormat::Csv {
                w.write_all(csv::header().as_bytes()).map_err(io)?;
            }
            self.each(inputs, &mut |report| {
                let text = match format {
                    ReportFormat::Json => return Ok(()),
                    ReportFormat::Csv => csv::rows(report),
                    ReportFormat::Text => text::render_file(report),
                };
                w.write_all(text.as_bytes()).map_err(io)
            })?;
            let tail = match format {
                ReportFormat::Text if self.totals.files > 1 => text::render_totals(&self.totals),
                ReportFormat::Json => json_document(std::mem::take(&mut self.reports))?,
                _ => String::new(),
            };
            w.write_all(tail.as_bytes()).map_err(io)
        })
    }

    /// Every input verified into the class workbook `path` (`-o report.xlsx`).
    fn write_class_workbook(
        &mut self,
        inputs: &[inputs::Input],
        path: &Path,
        force: bool,
    ) -> Result<()> {
        self.each(inputs, &mut |_| Ok(()))?;
        self.spinner.set("writing the class workbook");
        let report = ClassReport {
            files: &self.reports,
            command_line: &command_line(None),
        };
        let show = |msg: &str| self.spinner.set(msg);
        let writing = WriteBudget::new(path.display().to_string(), None, Some(&show));
        save_class_report(&report, path, force, &writing)
    }

    /// Verify each input in turn and hand its report to `emit`; a class workbook that grows
    /// past what a workbook holds stops the run before anything is written.
    fn each(
        &mut self,
        inputs: &[inputs::Input],
        emit: &mut dyn FnMut(&FileReport) -> Result<()>,
    ) -> Result<()> {
        for input in inputs {
            self.spinner.set(&format!("reading {}", input.label()));
            let report = inputs::verify_input(&mut self.opener, input, &self.options);
            if matches!(input, inputs::Input::Found(_)) && report.written_by_verify {
                // A report saved into the class's folder is not a submission.
                if !self.quiet {
                    eprintln!(
                        "note: skipped {}: a report knights-tour verify wrote (name the file \
                         to verify it)",
                        text::escape_control(&report.file)
                    );
                }
                continue;
            }
            self.code = self.code.max(report.exit_code());
            self.totals.add(&report);
            // A file with an error (a sheet named that is not there) says so in its report;
            // "no board found" before it would only mislead.
            if !self.quiet && report.readable && report.error.is_none() && !report.has_board() {
                eprintln!(
                    "note: no board found in {}",
                    text::escape_control(&report.file)
                );
            }
            if let Some(capacity) = &mut self.capacity {
                capacity.add(&report).map_err(Error::Usage)?;
            }
            emit(&report)?;
            if self.keep {
                self.reports.push(report);
            }
        }
        Ok(())
    }
}

/// Print the report; a reader that went away (`| head`) is not an error, and the progress
/// line steps aside (see [`output::print_stdout`]).
fn write_stdout(text: &str) -> Result<()> {
    output::print_stdout(text)
}
