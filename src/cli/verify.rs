//! `knights-tour verify [OPTIONS] FILE...`
//!
//! Checks the knight's tour on every worksheet of each workbook (xlsx, xlsm, xlsb, xls, ods;
//! the content decides the format, not the extension) and prints one line per sheet: the
//! verdict (`closed`, `open`, `partial`, `invalid`, `no-board`), where the board is, its start
//! and end, then every problem found. `--json` prints one JSON document instead.
//!
//! Exit codes: 0 when every board found is a complete tour, 1 when a sheet is `partial` or
//! `invalid`, 2 when a file cannot be read (or a `--sheet` is missing, or the usage is wrong).

use std::path::PathBuf;

use crate::cli::progress::Spinner;
use crate::error::{Error, Result};
use crate::exit_codes;
use crate::output;
use crate::solve::backtrack::Budget;
use crate::verify::{complete, text, verify_path, JsonDocument, VerifyOptions};
use crate::workbook::cellref::CellRange;

/// Options of `knights-tour verify`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Workbooks to check.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// Check only this sheet (repeat for several); all sheets by default.
    #[arg(long = "sheet", value_name = "NAME")]
    pub sheets: Vec<String>,
    /// Where the board is, e.g. A1:H8 (skips board detection; applies to every sheet checked).
    #[arg(long, value_name = "RANGE", value_parser = parse_range)]
    pub range: Option<CellRange>,
    /// Print one JSON document instead of text.
    #[arg(long, conflicts_with = "quiet")]
    pub json: bool,
    /// Print nothing; the exit code says it all.
    #[arg(long, short)]
    pub quiet: bool,
    /// Extend each failed attempt (`partial` sheet) to a full tour keeping its moves, and write
    /// the completed boards to this .xlsx (added moves styled apart, plus a Summary sheet);
    /// says when no completion exists.
    #[arg(long, value_name = "OUT.xlsx")]
    pub complete: Option<PathBuf>,
    /// Replace the --complete workbook if it exists.
    #[arg(long, requires = "complete")]
    pub force: bool,
}

fn parse_range(text: &str) -> std::result::Result<CellRange, String> {
    text.parse::<CellRange>().map_err(|e| e.to_string())
}

/// Run `knights-tour verify`.
pub fn run(args: Args) -> Result<u8> {
    // A reader that panics on a hostile file is caught (see workbook::read); keep its panic
    // message off the user's terminal, the report says what happened.
    crate::workbook::read::quiet_guarded_panics();
    if let Some(out) = &args.complete {
        let out = crate::export::format::xlsx_output(&out.to_string_lossy(), "--complete")?;
        output::check_writable(&out, args.force)?;
    }
    let options = VerifyOptions {
        sheets: args.sheets,
        range: args.range,
    };
    let spinner = Spinner::new();
    // The text report streams file by file; reports are kept only for JSON and --complete.
    let stream_text = !args.json && !args.quiet;
    let keep = args.json || args.complete.is_some();
    let mut code = exit_codes::SUCCESS;
    let mut reports = Vec::new();
    for f in &args.files {
        spinner.set(&format!("reading {}", f.display()));
        let report = verify_path(f, &options);
        code = code.max(report.exit_code());
        if stream_text {
            write_stdout(&text::render_file(&report))?;
        }
        if keep {
            reports.push(report);
        }
    }
    let completions = match &args.complete {
        Some(out) => {
            spinner.set("completing failed attempts");
            let budget = Budget::nodes(complete::DEFAULT_NODE_BUDGET);
            let items = complete::complete_reports(&reports, out, args.force, &budget)?;
            Some(complete::render_completions(&items, out))
        }
        None => None,
    };
    spinner.finish();
    if args.json {
        let doc = JsonDocument { files: reports };
        let json = serde_json::to_string_pretty(&doc)
            .map_err(|e| Error::Other(format!("cannot write the JSON report: {e}")))?;
        write_stdout(&(json + "\n"))?;
    }
    if let Some(lines) = &completions {
        // With --json, stdout stays a single JSON document.
        if args.json {
            eprint!("{lines}");
        } else if !args.quiet {
            write_stdout(lines)?;
        }
    }
    Ok(code)
}

/// Print the report; a reader that went away (`| head`) is not an error.
fn write_stdout(text: &str) -> Result<()> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(Error::Other(format!("cannot write the report: {e}")))
        }
        _ => Ok(()),
    }
}
