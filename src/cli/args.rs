//! Flags shared by several subcommands (the board, the request, the method), and their one
//! translation into the library's [`Request`] and [`Plan`]. Subcommand files import from here,
//! never from each other.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::ValueEnum;

use crate::board::{Board, Square};
use crate::english::a_board;
use crate::error::{Error, Result};
use crate::solve::runner::{self, Plan};
use crate::solve::search::{self, Declined};
use crate::solve::{constraints, existence, hand, Method, Request, Tiebreak};

/// Board size flags, shared by the commands that lay out a board.
#[derive(Debug, Clone, clap::Args)]
pub struct BoardArgs {
    /// Board side for a square board.
    #[arg(long, default_value_t = 8, value_name = "N", conflicts_with_all = ["rows", "cols"])]
    pub size: u32,
    /// Rows of a rectangular board (with --cols).
    #[arg(long, value_name = "R", requires = "cols")]
    pub rows: Option<u32>,
    /// Columns of a rectangular board (with --rows).
    #[arg(long, value_name = "C", requires = "rows")]
    pub cols: Option<u32>,
}

impl BoardArgs {
    /// The board these flags describe.
    pub fn board(&self) -> Result<Board> {
        let (rows, cols) = match (self.rows, self.cols) {
            (Some(r), Some(c)) => (r, c),
            _ => (self.size, self.size),
        };
        Board::new(rows, cols).map_err(|e| Error::Usage(format!("board size: {e}")))
    }
}

/// The request and the method: shared by `generate` and `draw`.
#[derive(Debug, Clone, clap::Args)]
pub struct SolveArgs {
    /// Board size.
    #[command(flatten)]
    pub board: BoardArgs,

    /// Start square (algebraic like e4, or row,col), or `random`.
    #[arg(long, default_value = "random", value_name = "SQUARE|random")]
    pub start: String,

    /// End square: the tour must finish here.
    #[arg(long, value_name = "SQUARE")]
    pub end: Option<String>,

    /// Ask for a closed (re-entrant) tour: the last square a knight's move from the first.
    #[arg(long)]
    pub closed: bool,

    /// File of "move k is on square X" lines (`k SQUARE`, `#` comments), e.g. `1 a1`.
    #[arg(long, value_name = "FILE")]
    pub constraints: Option<PathBuf>,

    /// How to find tours.
    #[arg(long, value_enum, default_value_t = Method::Auto)]
    pub method: Method,

    /// Warnsdorff's tie-break between equally constrained squares [default: random]. Only for
    /// --method auto or warnsdorff; given with auto, Warnsdorff is tried on every board size
    /// (without it, auto constructs boards over 10,000 squares directly).
    #[arg(long, value_enum)]
    pub tiebreak: Option<Tiebreak>,

    /// Warnsdorff attempts allowed for each tour asked for [default: 10]. Only for --method
    /// auto or warnsdorff.
    #[arg(long, value_name = "N")]
    pub attempts: Option<u32>,

    /// Seed for every random choice; the same seed gives the same output. Default: random,
    /// and reported (stderr, the JSON, the workbook) so the run can be repeated.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,

    /// Time allowed to the run, writing included, in seconds [default: 60]: it stops there
    /// with what it found written, and exits 1. A search whose finds are written at the end (a
    /// workbook, a picture) gets four fifths of it; a write still running at the limit stops
    /// too, leaving no file.
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
}

/// `--timeout SECONDS`: a positive number of seconds, [`runner::DEFAULT_TIMEOUT`] when not
/// given.
pub fn timeout(seconds: Option<f64>) -> Result<Duration> {
    match seconds {
        None => Ok(runner::DEFAULT_TIMEOUT),
        Some(t) if t.is_finite() && t > 0.0 => Ok(Duration::from_secs_f64(t.min(1e9))),
        Some(t) => Err(Error::Usage(format!(
            "--timeout must be a positive number of seconds, not {t}"
        ))),
    }
}

/// The command that makes this output again, with the seed when the run uses one (recorded in
/// workbooks).
pub fn command_line(seed: Option<u64>) -> String {
    let mut words: Vec<String> = std::env::args().skip(1).collect();
    if let Some(seed) = seed.filter(|_| {
        !words
            .iter()
            .any(|w| w == "--seed" || w.starts_with("--seed="))
    }) {
        words.push(format!("--seed {seed}"));
    }
    format!("knights-tour {}", words.join(" "))
}

/// A constraints file may hold at most this many bytes a square, beyond a fixed allowance for
/// comments: one `k SQUARE` line per square is about 20.
const CONSTRAINT_BYTES_PER_SQUARE: u64 = 64;
const CONSTRAINT_BYTES_FIXED: u64 = 64 * 1024;

impl SolveArgs {
    /// The checked request, the plan for one tour, and the seed (drawn at random when not
    /// given). Flags that do not apply to the method are usage errors naming both.
    pub fn prepare(&self) -> Result<(Request, Plan, u64)> {
        let board = self.board.board()?;
        let method = self.method;
        if method == Method::Hand {
            self.hand_flags()?;
        }
        let mut request = self.request(board)?;
        // A method that does not take the request is a usage error; the portfolio that takes
        // none (a board too large for every search) says so when it runs.
        if let Some(why) = search::declines(method, &request).filter(|_| method != Method::Auto) {
            return Err(Error::Usage(self.declined(method, &request, &why)));
        }
        // The hand method's tour is closed, asked or not.
        request.closed |= method == Method::Hand;
        existence::check_request(&request).map_err(|e| Error::Impossible(e.to_string()))?;
        let warnsdorff = matches!(method, Method::Auto | Method::Warnsdorff);
        if !warnsdorff {
            for (given, flag) in [
                (self.tiebreak.is_some(), "--tiebreak"),
                (self.attempts.is_some(), "--attempts"),
            ] {
                if given {
                    return Err(Error::Usage(format!(
                        "{flag} applies to Warnsdorff attempts, not to --method {}; drop one",
                        method.name()
                    )));
                }
            }
        }
        let attempts = self.attempts.unwrap_or(10);
        if attempts == 0 {
            return Err(Error::Usage("--attempts must be at least 1".into()));
        }
        let timeout = Some(timeout(self.timeout)?);
        // Under auto, Warnsdorff goes first on boards up to a size (never by output format, so
        // the same flags give the same tour in every format); a tie-break or a number of
        // attempts asks for Warnsdorff on any size.
        let plan = Plan {
            method,
            tiebreak: self.tiebreak.unwrap_or_default(),
            attempts,
            timeout,
            warnsdorff_any_size: self.tiebreak.is_some() || self.attempts.is_some(),
            meter: Some(crate::cli::progress::meter()),
            ..Plan::default()
        };
        Ok((
            request,
            plan,
            self.seed.unwrap_or_else(crate::solve::random_seed),
        ))
    }

    /// `--method hand` takes no end square and no constraints: usage errors naming both flags
    /// (before any file is read).
    fn hand_flags(&self) -> Result<()> {
        for (given, flag) in [
            (self.end.is_some(), "--end"),
            (self.constraints.is_some(), "--constraints"),
        ] {
            if given {
                return Err(Error::Usage(format!(
                    "{flag} does not apply to --method hand, which builds a closed tour from a \
                     start square only; drop one (--method auto takes {flag})"
                )));
            }
        }
        Ok(())
    }

    /// Why `method` does not take `request`, in words that name the flags and say what does
    /// take it, true for this request.
    fn declined(&self, method: Method, request: &Request, why: &Declined) -> String {
        let board = request.board;
        let flag = format!("--method {}", method.name());
        match why {
            Declined::Hand(hand::Unsupported::CentreStart(_)) => format!(
                "--start {}: {flag}: {why}; start on one of them, or let it choose",
                self.start.trim()
            ),
            Declined::Hand(_) => {
                // Advice true for this board: a closed tour, an open one, or none at all.
                let instead = match (existence::closed_tour(board), existence::open_tour(board)) {
                    (Ok(()), _) => "--method auto --closed builds a closed tour on it".to_string(),
                    (_, Ok(())) => {
                        "--method auto builds an open tour on it (it has no closed tour)".into()
                    }
                    (_, Err(none)) => format!("it has no tour at all: {none}"),
                };
                format!("{flag} does not take {}: {why}; {instead}", a_board(board))
            }
            _ => format!("{flag} does not take this request: {why}; --method auto takes it"),
        }
    }

    fn request(&self, board: Board) -> Result<Request> {
        let square = |flag: &str, text: &str| -> Result<Square> {
            board
                .parse_square(text)
                .map_err(|e| Error::Usage(format!("--{flag}: {e}")))
        };
        let start = match self.start.trim() {
            s if s.eq_ignore_ascii_case("random") => None,
            s => Some(square("start", s)?),
        };
        let end = self.end.as_deref().map(|e| square("end", e)).transpose()?;
        let constraints = match &self.constraints {
            None => Vec::new(),
            Some(path) => {
                let text = read_constraints(path, board)?;
                constraints::parse(board, &text)
                    .map_err(|e| Error::Usage(format!("{}: {e}", path.display())))?
            }
        };
        Ok(Request {
            board,
            start,
            end,
            closed: self.closed,
            constraints,
        })
    }
}

/// Read a constraints file, refusing at once one larger than any the board could need (a log
/// file named by mistake) instead of reading it all, and anything but a regular file (a device
/// such as /dev/zero, a named pipe) before it is opened.
fn read_constraints(path: &Path, board: Board) -> Result<String> {
    let cap = CONSTRAINT_BYTES_FIXED + board.len() as u64 * CONSTRAINT_BYTES_PER_SQUARE;
    // A named pipe would block and a device never end: regular files only.
    let file = crate::input::open_regular(path).map_err(|e| Error::io(path, e))?;
    let mut bytes = Vec::new();
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(path, e))?;
    if bytes.len() as u64 > cap {
        return Err(Error::Usage(format!(
            "--constraints {}: larger than {} could need (over {cap} bytes); \
             is it the right file?",
            path.display(),
            crate::english::a_board(board)
        )));
    }
    String::from_utf8(bytes).map_err(|_| {
        Error::Usage(format!(
            "--constraints {}: not a text file (expected lines like `1 a1`)",
            path.display()
        ))
    })
}

/// `--path`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PathArg {
    /// Drawn on boards up to 30x30.
    Auto,
    /// Always drawn.
    On,
    /// Never drawn.
    Off,
}

impl From<PathArg> for crate::generate::workbook::PathDrawing {
    fn from(p: PathArg) -> Self {
        use crate::generate::workbook::PathDrawing;
        match p {
            PathArg::Auto => PathDrawing::Auto,
            PathArg::On => PathDrawing::On,
            PathArg::Off => PathDrawing::Off,
        }
    }
}
