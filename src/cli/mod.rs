//! The command line: one file per subcommand, each starting with its usage text. This module
//! only dispatches and turns errors into messages and exit codes.

pub mod args;
pub mod draw;
pub mod generate;
pub mod pairs;
pub mod progress;
pub mod template;
pub mod verify;

use clap::{Parser, Subcommand};

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
    /// Check the knight's tours in workbooks (xlsx, xlsm, xlsb, xls, ods), sheet by sheet.
    Verify(verify::Args),
    /// Draw a tour as SVG, PNG or an animated GIF.
    Draw(draw::Args),
    /// Write an empty practice board that flags mistakes as you type.
    Template(template::Args),
    /// Answer every (start, end) pair of a board: a tour, or why none exists.
    Pairs(pairs::Args),
}

/// Parse the process arguments, run, and return the exit code.
pub fn main() -> u8 {
    crate::output::remove_temp_files_on_signals();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // clap prints help/version to stdout with exit 0, usage errors to stderr with 2.
            let _ = e.print();
            return if e.use_stderr() {
                exit_codes::ERROR
            } else {
                exit_codes::SUCCESS
            };
        }
    };
    let result = match cli.command {
        Command::Generate(args) => generate::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Draw(args) => draw::run(args),
        Command::Template(args) => template::run(args),
        Command::Pairs(args) => pairs::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("knights-tour: error: {e}");
            exit_codes::ERROR
        }
    }
}
