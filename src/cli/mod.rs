//! The command line: one file per subcommand, each starting with its usage text. This module
//! only dispatches and turns errors into messages and exit codes.

pub mod args;
pub mod completions;
pub mod draw;
pub mod generate;
pub mod man;
pub mod pairs_command;
pub mod progress;
pub mod puzzle;
pub mod template;
pub mod verify;

use clap::{CommandFactory, Parser, Subcommand};

use crate::exit_codes;

/// Knight's tours for spreadsheets.
#[derive(Debug, Parser)]
#[command(
    name = "knights-tour",
    version,
    about = "Knight's tours for spreadsheets: generate tours into .xlsx workbooks, verify tours typed by hand",
    long_about = None,
    propagate_version = true,
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Compute knight's tours and write them to a workbook, one worksheet per attempt.
    Generate(generate::Args),
    /// Check the knight's tours in workbooks, CSV/TSV files, folders or standard input.
    Verify(verify::Args),
    /// Draw a tour as SVG, PNG or an animated GIF.
    Draw(draw::Args),
    /// Write an empty practice board that flags mistakes as you type.
    Template(template::Args),
    /// Answer every (start, end) pair of a board: a tour, or why none exists.
    Pairs(pairs_command::Args),
    /// Write knight's-tour puzzles (some move numbers given, one answer) to solve in a spreadsheet.
    Puzzle(puzzle::Args),
    /// Print a shell completion script.
    Completions(completions::Args),
    /// Print a manual page.
    Man(man::Args),
    /// The reader process `verify` and `draw` start for each workbook (not for people: see
    /// `workbook::read::watched`).
    #[command(name = "__read-workbooks", hide = true)]
    ReadWorkbooks(ReaderArgs),
}

/// Options of the hidden reader subcommand.
#[derive(Debug, clap::Args)]
pub struct ReaderArgs {
    /// The processor time one file may take.
    #[arg(long, default_value_t = 8.0)]
    pub seconds: f64,
}

/// Parse the process arguments, run, and return the exit code.
pub fn main() -> u8 {
    // Asked for before parsing, so that a usage error too answers a script in JSON.
    let json = json_requested(std::env::args_os().skip(1));
    // `solved` is generate's; verify's report has no such field, nor then its error.
    let solved = std::env::args_os().nth(1).is_none_or(|a| a != "verify");
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // clap prints help/version to stdout with exit 0, usage errors to stderr with 2.
            if e.use_stderr() && json {
                print_json_error(
                    "usage",
                    &first_line(&e.render().to_string()),
                    exit_codes::ERROR,
                    solved,
                );
            }
            let _ = e.print();
            return if e.use_stderr() {
                exit_codes::ERROR
            } else {
                exit_codes::SUCCESS
            };
        }
    };
    // The reader process writes no file and reports no error itself: no signal thread, no
    // handlers (an abort is for its parent to read).
    if !matches!(cli.command, Command::ReadWorkbooks(_)) {
        crate::output::remove_temp_files_on_signals();
        crate::output::memory::install();
    }
    crate::output::set_step_aside(progress::step_aside);
    let name = cli.command.name();
    let result = match cli.command {
        Command::Generate(args) => generate::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Draw(args) => draw::run(args),
        Command::Template(args) => template::run(args),
        Command::Pairs(args) => pairs_command::run(args),
        Command::Puzzle(args) => puzzle::run(args),
        Command::Completions(args) => completions::run(args),
        Command::Man(args) => man::run(args),
        Command::ReadWorkbooks(args) => {
            let seconds = std::time::Duration::from_secs_f64(args.seconds.clamp(0.001, 1e6));
            Ok(crate::workbook::read::watched::serve(seconds))
        }
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            if json {
                print_json_error(error_kind(&e), &e.to_string(), e.exit_code(), solved);
            }
            print_error(name, &e);
            e.exit_code()
        }
    }
}

impl Command {
    /// The subcommand's name, as typed.
    fn name(&self) -> &'static str {
        match self {
            Command::Generate(_) => "generate",
            Command::Verify(_) => "verify",
            Command::Draw(_) => "draw",
            Command::Template(_) => "template",
            Command::Pairs(_) => "pairs",
            Command::Puzzle(_) => "puzzle",
            Command::Completions(_) => "completions",
            Command::Man(_) => "man",
            Command::ReadWorkbooks(_) => crate::workbook::read::watched::SUBCOMMAND,
        }
    }
}

/// One style for every error, clap's: `error: ...`; a usage error of ours also gets the
/// subcommand's usage line and the pointer to `--help`, exactly as clap's own usage errors do.
fn print_error(subcommand: &str, e: &crate::error::Error) {
    use clap::error::ErrorKind;
    let mut cli = Cli::command();
    cli.build();
    let err = match (e, cli.find_subcommand_mut(subcommand)) {
        (crate::error::Error::Usage(msg), Some(sub)) => sub.error(ErrorKind::ValueValidation, msg),
        _ => clap::Error::raw(ErrorKind::Io, format!("{e}\n")).with_cmd(&cli),
    };
    let _ = err.print();
}

/// Whether the arguments ask for a JSON report (`--json`, or `--format json` of verify), before
/// a `--` that ends the flags.
fn json_requested(args: impl Iterator<Item = std::ffi::OsString>) -> bool {
    let args: Vec<_> = args.take_while(|a| a != "--").collect();
    args.iter().any(|a| a == "--json")
        || args
            .windows(2)
            .any(|w| w[0] == "--format" && w[1] == "json")
        || args.iter().any(|a| a == "--format=json")
}

/// What kind of failure, for scripts: `usage`, `impossible`, `io`, `timeout` or `other`.
fn error_kind(e: &crate::error::Error) -> &'static str {
    use crate::error::Error;
    match e {
        Error::Usage(_) | Error::OutputExists { .. } => "usage",
        Error::Impossible(_) => "impossible",
        Error::Io { .. } | Error::Workbook { .. } => "io",
        Error::TimedOut { .. } => "timeout",
        Error::Other(_) => "other",
    }
}

/// The error as one JSON document on standard output, where a script run with `--json` looks
/// (see `docs/schemas/error.schema.json`): it gets a document whatever happened. Not on a
/// terminal, where a person would read the error twice (it goes to standard error as well).
/// `solved` (always false) is for `generate`, whose summary has it.
fn print_json_error(kind: &str, message: &str, exit_code: u8, solved: bool) {
    if std::io::IsTerminal::is_terminal(&std::io::stdout()) {
        return;
    }
    let mut doc = serde_json::json!({
        "error": kind,
        "message": message,
        "exit_code": exit_code,
    });
    if solved {
        doc["solved"] = serde_json::Value::Bool(false);
    }
    let _ = crate::output::print_stdout(&format!("{doc}\n"));
}

/// A clap message's first line, without the `error: ` clap puts before it.
fn first_line(text: &str) -> String {
    let line = text.lines().next().unwrap_or_default();
    line.strip_prefix("error: ").unwrap_or(line).to_string()
}
