//! `knights-tour draw`: a picture of a tour.
//!
//! ```text
//! Usage: knights-tour draw [OPTIONS] [FILE]
//!
//! Draws the tour on a workbook sheet (FILE --sheet NAME), or a freshly generated one (no FILE:
//! the same board and solving options as `generate`), as SVG, PNG or an animated GIF that adds
//! one move per frame (several on long tours, so it plays in about ten seconds). The format follows the output's extension unless --format says.
//!
//! Examples:
//!   knights-tour draw -o tour.svg                          # a new 8x8 tour
//!   knights-tour draw --size 12 --closed --seed 3 -o tour.gif
//!   knights-tour draw knights-tour.xlsx --sheet "Tour 1" -o tour.png
//!   knights-tour draw --size 1000 --tiebreak center --numbers off -o big.png
//! ```
//!
//! Exit codes: 0 a complete tour was drawn; 1 a partial path was drawn (a failed attempt), or
//! --timeout came while drawing (no file made); 2 usage error, unreadable workbook or a sheet
//! without a knight's path.

use std::path::PathBuf;
use std::time::Instant;

use clap::ValueEnum;

use crate::cli::args::{timeout, SolveArgs};
use crate::cli::progress::Spinner;
use crate::draw::{self, DrawOptions, Numbers};
use crate::error::{Error, Result};
use crate::exit_codes;
use crate::output;
use crate::output::write_budget::{search_share, WriteBudget};
use crate::solve::{rng_from_seed, runner};
use crate::tour::Tour;
use crate::verify;
use crate::workbook::cellref::{CellRange, CellRef};
use crate::workbook::read::watched::{Limits, Opener};

/// Options of `knights-tour draw`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Draw a tour as SVG, PNG or an animated GIF",
    after_help = "Without FILE a tour is generated with the same options as `generate`.\n\
        Exit codes: 0 a complete tour drawn; 1 a partial path drawn, or --timeout came while drawing (no file); \
        2 usage error or nothing to draw."
)]
pub struct Args {
    /// A workbook to draw from (xlsx, xlsm, xlsb, xls, ods); omit it to generate a tour with
    /// the solving flags (--size, --start, --method, ...), which do not apply to a FILE.
    #[arg(value_name = "FILE", conflicts_with_all = SOLVE_FLAGS)]
    pub file: Option<PathBuf>,

    /// The sheet holding the tour (default: the first complete tour in the workbook, else the
    /// first partial path).
    #[arg(long, value_name = "NAME", requires = "file")]
    pub sheet: Option<String>,

    /// Where the board is on the sheet, skipping detection.
    #[arg(long, value_name = "A1:H8", requires = "file")]
    pub range: Option<String>,

    /// On a sheet holding several boards, the one whose top-left cell is this (e.g. H3).
    #[arg(long, value_name = "CELL", requires = "file", conflicts_with = "range", value_parser = parse_cell)]
    pub board: Option<CellRef>,

    /// The picture to write (.svg, .png or .gif), or `-` for standard output with --format.
    /// Default: knights-tour.svg (with --format svg: standard output; png or gif:
    /// knights-tour.png, knights-tour.gif).
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<String>,

    /// Picture format (default: from the output's extension). Without -o, svg goes to standard
    /// output and png or gif to knights-tour.png or .gif, as every command's --format does.
    #[arg(long, value_enum)]
    pub format: Option<PictureFormat>,

    /// The picture's longest side in pixels (default: about 60 px a square, at most 2000).
    #[arg(long, value_name = "PX")]
    pub size_px: Option<u32>,

    /// Draw move numbers in the squares (auto: where they are legible).
    #[arg(long, value_enum, default_value_t = NumbersArg::Auto)]
    pub numbers: NumbersArg,

    /// Overwrite the output if it exists.
    #[arg(long)]
    pub force: bool,

    /// What to generate when no FILE is given.
    #[command(flatten)]
    pub solve: SolveArgs,
}

fn parse_cell(text: &str) -> std::result::Result<CellRef, String> {
    text.parse::<CellRef>().map_err(|e| e.to_string())
}

/// The flags that describe a tour to generate, which a FILE to draw from contradicts.
const SOLVE_FLAGS: [&str; 12] = [
    "size",
    "rows",
    "cols",
    "start",
    "end",
    "closed",
    "constraints",
    "method",
    "tiebreak",
    "attempts",
    "seed",
    "timeout",
];

/// `--format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PictureFormat {
    /// Scalable vector graphics.
    Svg,
    /// PNG image.
    Png,
    /// Animated GIF, one move a frame (several on tours over 500 squares: about 10 s in all).
    Gif,
}

/// `--numbers`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum NumbersArg {
    /// Where legible.
    Auto,
    /// Always.
    On,
    /// Never.
    Off,
}

/// Run `knights-tour draw`.
pub fn run(args: Args) -> Result<u8> {
    let dest = destination(&args);
    let format = picture_format(&args, &dest)?;
    // Binary bytes on a terminal garble it; a picture there is always a mistake (`gzip` and
    // `convert` refuse the same way).
    if dest == output::Destination::Stdout
        && format != draw::Format::Svg
        && std::io::IsTerminal::is_terminal(&std::io::stdout())
    {
        let name = if format == draw::Format::Png {
            "png"
        } else {
            "gif"
        };
        return Err(Error::Usage(format!(
            "-o -: a {} picture is binary and standard output is a terminal; redirect it \
             (> tour.{name}) or name a file with -o",
            name.to_uppercase()
        )));
    }
    if let output::Destination::File(path) = &dest {
        output::check_writable(path, args.force)?;
    }
    // A generated tour and its picture share --timeout: the search gets most of it (see
    // crate::output::write_budget). A FILE's tour is drawn without a time limit (none was given).
    let deadline = match &args.file {
        Some(_) => None,
        None => Instant::now().checked_add(timeout(args.solve.timeout)?),
    };
    let spinner = Spinner::new();
    spinner.set("finding the tour");
    let (tour, seed) = match &args.file {
        Some(file) => (tour_from_workbook(file, &args)?, None),
        None => generated_tour(&args.solve).map(|(t, s)| (t, Some(s)))?,
    };
    let opts = DrawOptions {
        size_px: args.size_px,
        numbers: match args.numbers {
            NumbersArg::Auto => Numbers::Auto,
            NumbersArg::On => Numbers::On,
            NumbersArg::Off => Numbers::Off,
        },
        ..DrawOptions::default()
    };
    if let Some(px) = args.size_px {
        if px == 0 {
            return Err(Error::Usage("--size-px must be at least 1".into()));
        }
    }
    spinner.set(&format!("drawing {}", dest.display()));
    let show = |msg: &str| spinner.set(msg);
    let budget = WriteBudget::new(dest.display(), deadline, Some(&show));
    output::write_to(&dest, args.force, &budget, |w| {
        draw::draw(&tour, &opts, format, w, &budget)
    })?;
    spinner.finish();
    let board = tour.board();
    let what = if tour.is_complete() {
        if tour.is_closed() {
            "closed tour"
        } else {
            "tour"
        }
    } else {
        "partial path"
    };
    let from = tour.start().map(|s| board.algebraic(s)).unwrap_or_default();
    let to = tour.end().map(|s| board.algebraic(s)).unwrap_or_default();
    // A path of k squares visited is k - 1 moves (the knight's jumps), a closed tour's k; a
    // partial one also says how far it got.
    let moves = match tour.is_closed() {
        true => crate::english::count_usize(tour.len(), "move"),
        false => crate::english::count_usize(tour.len().saturating_sub(1), "move"),
    };
    let extent = match tour.is_complete() {
        true => moves,
        false => format!(
            "{moves}, {} of {} squares visited",
            crate::english::thousands(tour.len() as u64),
            crate::english::thousands(board.len() as u64)
        ),
    };
    let message = format!(
        "Drew the {board} {what} from {from} to {to} ({extent}) to {}",
        dest.display()
    );
    if dest == output::Destination::Stdout {
        eprintln!("{message}");
    } else {
        println!("{message}");
    }
    if let Some(seed) = seed {
        eprintln!("seed {seed}: repeat with --seed {seed}");
    }
    Ok(if tour.is_complete() {
        exit_codes::SUCCESS
    } else {
        exit_codes::FAILURE
    })
}

/// Where the picture goes: `-o`, else by every command's rule for `--format` without `-o`
/// (text to standard output, the rest to the usual file).
fn destination(args: &Args) -> output::Destination {
    match (&args.output, args.format) {
        (Some(out), _) => output::Destination::parse(out),
        (None, Some(PictureFormat::Svg)) => output::Destination::Stdout,
        (None, Some(PictureFormat::Png)) => output::Destination::File("knights-tour.png".into()),
        (None, Some(PictureFormat::Gif)) => output::Destination::File("knights-tour.gif".into()),
        (None, None) => output::Destination::File("knights-tour.svg".into()),
    }
}

fn picture_format(args: &Args, dest: &output::Destination) -> Result<draw::Format> {
    if let Some(f) = args.format {
        return Ok(match f {
            PictureFormat::Svg => draw::Format::Svg,
            PictureFormat::Png => draw::Format::Png,
            PictureFormat::Gif => draw::Format::Gif,
        });
    }
    match dest {
        output::Destination::File(path) => draw::Format::from_path(path).ok_or_else(|| {
            Error::Usage(format!(
                "-o {}: name the picture .svg, .png or .gif, or give --format",
                path.display()
            ))
        }),
        output::Destination::Stdout => Err(Error::Usage(
            "-o -: give --format svg, png or gif for standard output".into(),
        )),
    }
}

fn tour_from_workbook(file: &std::path::Path, args: &Args) -> Result<Tour> {
    let range: Option<CellRange> = args
        .range
        .as_deref()
        .map(|r| r.parse().map_err(|e| Error::Usage(format!("--range: {e}"))))
        .transpose()?;
    let mut opener = Opener::watched(Limits::from_env());
    if let Some(sheet) = &args.sheet {
        return verify::read_tour(&mut opener, file, sheet, range, args.board);
    }
    let report = verify::verify_path_with(
        &mut opener,
        file,
        &verify::VerifyOptions {
            range,
            board: args.board,
            ..verify::VerifyOptions::default()
        },
    );
    if let Some(e) = report.error {
        return Err(Error::Other(format!("{}: {e}", file.display())));
    }
    // A generated workbook lists its failed attempts before the tour: the tour is what a
    // person wants drawn, a partial path only when there is nothing better.
    let paths: Vec<Tour> = report
        .sheets
        .into_iter()
        .flat_map(|s| s.boards)
        .filter_map(|b| b.tour)
        .collect();
    let complete = paths.iter().position(Tour::is_complete);
    paths.into_iter().nth(complete.unwrap_or(0)).ok_or_else(|| {
        Error::Other(format!(
            "{}: no sheet holds a knight's tour or partial tour to draw",
            file.display()
        ))
    })
}

/// A tour made with `generate`'s options, and the seed it was made with (reported, as
/// `generate` reports it, so the picture can be made again).
fn generated_tour(solve: &SolveArgs) -> Result<(Tour, u64)> {
    let (request, mut plan, seed) = solve.prepare()?;
    plan.timeout = plan.timeout.map(search_share);
    let mut rng = rng_from_seed(seed);
    let outcome = runner::run(&request, &plan, &mut rng, &mut |_| {});
    let best = outcome
        .tours()
        .next()
        .or_else(|| outcome.attempts.iter().max_by_key(|a| a.tour.len()));
    best.map(|a| (a.tour.clone(), seed)).ok_or_else(|| {
        Error::Impossible(format!(
            "no tour meets the request: {}",
            outcome.report.reason()
        ))
    })
}
