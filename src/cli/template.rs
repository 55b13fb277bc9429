//! Write an empty practice board that flags mistakes as you type.
//!
//! ```text
//! Usage:
//!     knights-tour template [options]
//!
//! Options:
//!     --size N           A square board of side N (default 8).
//!     --rows R --cols C  A rectangular board (instead of --size).
//!     --at CELL          The board's top-left cell (default C3); file letters go in the row
//!                        above and rank numbers (as text) in the column to the left.
//!     -o, --output FILE  Where to write (default knights-tour-template.xlsx).
//!     --force            Overwrite FILE if it exists.
//! ```
//!
//! The board's cells accept whole numbers 1..N only; conditional formatting marks a number
//! typed twice (red), a number whose successor is not a knight's move away (orange), and
//! anything else in the board (grey). An empty template has no numbers, so `knights-tour
//! verify` reports it as `no-board` until it is filled in.
//!
//! ```text
//! Examples:
//!     knights-tour template
//!     knights-tour template --rows 5 --cols 6 --at B2 -o practice.xlsx
//! ```

use crate::cli::args::BoardArgs;
use crate::cli::progress::Spinner;
use crate::error::{Error, Result};
use crate::exit_codes;
use crate::output::format::xlsx_output;
use crate::output::write_budget::WriteBudget;
use crate::solve::{existence, Request};
use crate::template::Template;
use crate::workbook::cellref::CellRef;

/// Options of `knights-tour template`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Write an empty practice board that flags mistakes as you type",
    after_help = "Example: knights-tour template --rows 5 --cols 6 --at B2 -o practice.xlsx"
)]
pub struct Args {
    /// Board size.
    #[command(flatten)]
    pub board: BoardArgs,
    /// The board's top-left cell in A1 notation; labels go above and to the left.
    #[arg(long, value_name = "CELL", default_value = "C3")]
    pub at: String,
    /// The workbook to write (.xlsx; not standard output).
    #[arg(
        short,
        long,
        value_name = "FILE.xlsx",
        default_value = "knights-tour-template.xlsx"
    )]
    pub output: String,
    /// Overwrite the output if it exists.
    #[arg(long)]
    pub force: bool,
}

impl Args {
    /// The template these options describe, or a usage error naming the bad flag. A board
    /// without any knight's tour is refused with the theorem that rules it out: a practice
    /// board nobody can fill would be a trap.
    pub fn template(&self) -> Result<Template> {
        let board = self.board.board()?;
        existence::check_request(&Request::open(board))
            .map_err(|e| Error::Impossible(format!("no practice board: {e}")))?;
        let at: CellRef = self
            .at
            .parse()
            .map_err(|e| Error::Usage(format!("--at: {e}")))?;
        Template::new(board, at).map_err(|e| Error::Usage(format!("--at {}: {e}", self.at)))
    }
}

/// Run `knights-tour template`: write the workbook, never over an existing file without
/// `--force`.
pub fn run(args: Args) -> Result<u8> {
    let template = args.template()?;
    let path = &xlsx_output(&args.output, "-o")?;
    let spinner = Spinner::new();
    let name = path.display().to_string();
    let show = |msg: &str| spinner.set(msg);
    template.save(path, args.force, &WriteBudget::new(name, None, Some(&show)))?;
    spinner.finish();
    println!(
        "wrote {}: an empty {} board at {}",
        path.display(),
        template.board(),
        template.range()
    );
    Ok(exit_codes::SUCCESS)
}
