//! Reading untrusted workbooks in a watched child process.
//!
//! A workbook parser can be made to allocate terabytes, loop forever or crash by a few crafted
//! bytes, and chasing each way with checks in front of it grows a second parser. So the
//! command line parses no workbook itself: an [`Opener::watched`] starts the program again as
//! its hidden reader subcommand ([`SUBCOMMAND`], [`serve`]), with its address space and
//! processor time capped before it starts (`setrlimit` between `fork` and `exec`) and a
//! wall-clock deadline for each file kept by the parent. The child opens each file the parent
//! names and streams its sheets back in a compact, bounded form (`protocol.rs`). A child that
//! runs out of memory or time, crashes, or sends what the protocol does not allow is killed,
//! and its file is unreadable with the reason in words ([`ReadError::ReaderStopped`]:
//! "reading it needs more than 192 MB", "reading it took more than 8 s"); the next file gets a
//! new child. The parent never parses a workbook's bytes. This is how Apache Tika's
//! ForkParser and ImageMagick's resource policies keep a parser bounded: from outside.
//!
//! One child reads file after file while it stays small (starting a process costs about as
//! much as reading a small workbook, and a class's folder holds hundreds), and is replaced
//! when it grew or died. Its processor-time limit moves on by the per-file limit before each
//! file. On Linux the child is killed when the parent dies (`PR_SET_PDEATHSIG`), so Ctrl-C or
//! a `kill` of the command never leaves a reader running; a Ctrl-C from the terminal reaches
//! both anyway, as they share the process group.
//!
//! Where the platform has no such limits (not unix), [`Opener::watched`] reads in this
//! process, as a library does ([`Opener::in_process`]): a library user's program is not ours
//! to start again.

mod protocol;
mod serve;

#[cfg(unix)]
mod process;

use std::path::{Path, PathBuf};
use std::time::Duration;

pub use serve::serve;

use super::budget::SheetBudget;
use super::{Format, ReadError, SheetInfo, SheetSource, Workbook};
use protocol::{Fault, Reply, Request};

/// The hidden subcommand the reader process runs as.
pub const SUBCOMMAND: &str = "__read-workbooks";

/// What one file may cost its reader process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Bytes of address space (`RLIMIT_AS`).
    pub memory: u64,
    /// Time spent waiting for the reader on one file (and, as a backstop, processor time).
    pub time: Duration,
}

impl Default for Limits {
    /// 192 MB and 8 s: a 1000x1000 board typed as text needs a tenth of each. A debug build
    /// reads about ten times slower, so it waits ten times longer (80 s).
    fn default() -> Limits {
        let seconds = if cfg!(debug_assertions) { 80 } else { 8 };
        Limits {
            memory: 192 * 1024 * 1024,
            time: Duration::from_secs(seconds),
        }
    }
}

impl Limits {
    /// The default limits, or those the environment sets: `KNIGHTS_TOUR_READ_MEMORY_MB` and
    /// `KNIGHTS_TOUR_READ_SECONDS` (for machines that need other bounds, and for tests).
    ///
    /// ```
    /// use knights_tour::workbook::read::watched::Limits;
    /// assert_eq!(Limits::default().memory, 192 << 20);
    /// ```
    pub fn from_env() -> Limits {
        let default = Limits::default();
        let var = |name: &str| std::env::var(name).ok()?.trim().parse::<f64>().ok();
        Limits {
            memory: var("KNIGHTS_TOUR_READ_MEMORY_MB")
                .filter(|mb| *mb >= 1.0)
                .map_or(default.memory, |mb| (mb * 1024.0 * 1024.0) as u64),
            time: var("KNIGHTS_TOUR_READ_SECONDS")
                .filter(|s| *s > 0.0 && *s < 1e6)
                .map_or(default.time, Duration::from_secs_f64),
        }
    }

    /// "reading it needs more than 192 MB".
    fn out_of_memory(&self) -> String {
        format!(
            "reading it needs more than {} MB",
            self.memory / (1024 * 1024)
        )
    }

    /// "reading it took more than 8 s".
    fn out_of_time(&self) -> String {
        format!("reading it took more than {} s", self.time.as_secs_f64())
    }
}

/// Opens workbooks: in this process, or through a watched reader process.
///
/// ```
/// use knights_tour::workbook::read::watched::Opener;
/// let mut opener = Opener::in_process();
/// let mut book = opener.open("fixtures/samples/labeled_8x8.xlsx".as_ref()).unwrap();
/// let name = book.sheet_names()[0].clone();
/// assert!(book.read_sheet(&name).unwrap().cells().len() >= 64);
/// ```
pub struct Opener {
    /// `None`: in this process.
    watch: Option<Watch>,
}

impl Opener {
    /// Read in this process: what a library does by default.
    pub fn in_process() -> Opener {
        Opener { watch: None }
    }

    /// Read through a reader process running this program's [`SUBCOMMAND`] under `limits`
    /// (in this process where the platform cannot set them).
    pub fn watched(limits: Limits) -> Opener {
        let exe = std::env::current_exe()
            .unwrap_or_else(|_| PathBuf::from(std::env::args_os().next().unwrap_or_default()));
        Opener::watched_with(exe, limits)
    }

    /// Read through `exe`'s [`SUBCOMMAND`] (a program built on this library).
    pub fn watched_with(exe: PathBuf, limits: Limits) -> Opener {
        if cfg!(unix) {
            Opener {
                watch: Some(Watch {
                    exe,
                    limits,
                    child: None,
                }),
            }
        } else {
            Opener::in_process()
        }
    }

    /// Open the workbook at `path` (see [`Workbook::open`]).
    pub fn open(&mut self, path: &Path) -> Result<Workbook<'_>, ReadError> {
        match &mut self.watch {
            None => Workbook::open(path),
            Some(watch) => watch.open(Request::OpenPath(&path_bytes(path)), &[]),
        }
    }

    /// Open a workbook whose bytes are held in memory (standard input); a text format's one
    /// sheet is `sheet`.
    pub fn open_bytes<'a>(
        &'a mut self,
        bytes: &'a [u8],
        sheet: &str,
    ) -> Result<Workbook<'a>, ReadError> {
        match &mut self.watch {
            None => Workbook::from_bytes_named(bytes, sheet),
            Some(watch) => {
                let len = bytes.len() as u64;
                watch.open(Request::OpenBytes { sheet, len }, bytes)
            }
        }
    }
}

/// The reader process and how to start it.
struct Watch {
    exe: PathBuf,
    limits: Limits,
    #[cfg(unix)]
    child: Option<process::Child>,
    #[cfg(not(unix))]
    child: Option<std::convert::Infallible>,
}

#[cfg(unix)]
impl Watch {
    /// Open a file (`then`: the bytes `request` says follow it), in a new reader when the one
    /// running asks to be replaced.
    fn open(&mut self, request: Request<'_>, then: &[u8]) -> Result<Workbook<'_>, ReadError> {
        for _ in 0..2 {
            if let Some((format, sheets)) = self.ask_open(request, then)? {
                let remote = Remote {
                    watch: self,
                    sheets,
                };
                return Workbook::from_source(format, Box::new(remote));
            }
            self.retire();
        }
        Err(self.stop(Fault::Breach(
            "a new reader asked to be replaced before reading anything".into(),
        )))
    }

    /// Send the request to open a file, starting a reader if none runs, and read the answer:
    /// the workbook's format and sheets, or `None` when the reader asks to be replaced.
    fn ask_open(
        &mut self,
        request: Request<'_>,
        then: &[u8],
    ) -> Result<Option<(Format, Vec<SheetInfo>)>, ReadError> {
        if self.child.is_none() {
            let child = process::Child::spawn(&self.exe, &self.limits).map_err(|e| {
                ReadError::ReaderStopped {
                    reason: format!("the reader process could not be started: {e}"),
                }
            })?;
            let child = self.child.insert(child);
            if let Err(fault) = child.greet() {
                return Err(self.stop(fault));
            }
        }
        let limits = self.limits;
        let Some(child) = self.child.as_mut() else {
            unreachable!("a child was just started");
        };
        child.start_file(limits.time);
        let answer = (|| {
            child.send(&request, then)?;
            match child.reply()? {
                Reply::Restart => Ok(Ok(None)),
                Reply::Failed(e) => Ok(Err(e)),
                Reply::Opened { format, sheets } => Ok(Ok(Some((format, sheets)))),
                _ => Err(Fault::Breach(
                    "cells as the answer to opening a file".into(),
                )),
            }
        })();
        answer.unwrap_or_else(|fault| Err(self.stop(fault)))
    }

    /// Read sheet `index` of the open file into `sink`.
    fn read(&mut self, index: usize, sink: &mut SheetBudget<'_>) -> Result<(), ReadError> {
        let Some(child) = self.child.as_mut() else {
            return Err(ReadError::ReaderStopped {
                reason: "the reader was stopped".into(),
            });
        };
        let answer = (|| {
            child.send(&Request::ReadSheet(index as u32), &[])?;
            let too_many = |e| Fault::Breach(format!("more cells than a reader keeps ({e})"));
            let mut run = Vec::new();
            loop {
                match child.reply()? {
                    Reply::Cell(cell) => sink.push_view(&cell).map_err(too_many)?,
                    Reply::Run {
                        row,
                        col,
                        format,
                        values,
                    } => {
                        protocol::numbers(values, &mut run)?;
                        sink.push_run(row, col, &run, format).map_err(too_many)?
                    }
                    Reply::Done => return Ok(Ok(())),
                    Reply::Failed(e) => return Ok(Err(e)),
                    _ => return Err(Fault::Breach("an answer out of place among cells".into())),
                }
            }
        })();
        answer.unwrap_or_else(|fault| Err(self.stop(fault)))
    }

    /// Kill the reader over `fault` and say why, for a person.
    fn stop(&mut self, fault: Fault) -> ReadError {
        let reason = match self.child.take() {
            Some(child) => child.stop(fault, &self.limits),
            None => "the reader was stopped".into(),
        };
        ReadError::ReaderStopped { reason }
    }

    /// End the reader between two files.
    fn retire(&mut self) {
        if let Some(child) = self.child.take() {
            child.retire();
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        #[cfg(unix)]
        self.retire();
    }
}

#[cfg(not(unix))]
impl Watch {
    fn open(&mut self, _request: Request<'_>, _then: &[u8]) -> Result<Workbook<'_>, ReadError> {
        unreachable!("Opener::watched_with reads in process where there is no reader process")
    }

    fn read(&mut self, _index: usize, _sink: &mut SheetBudget<'_>) -> Result<(), ReadError> {
        unreachable!("Opener::watched_with reads in process where there is no reader process")
    }
}

/// A path as the reader process takes it: the bytes of its `OsStr`.
#[cfg(unix)]
fn path_bytes(path: &Path) -> std::borrow::Cow<'_, [u8]> {
    use std::os::unix::ffi::OsStrExt;
    path.as_os_str().as_bytes().into()
}

#[cfg(not(unix))]
fn path_bytes(path: &Path) -> std::borrow::Cow<'_, [u8]> {
    path.to_string_lossy().into_owned().into_bytes().into()
}

/// An open workbook's sheets, read by the reader process.
struct Remote<'w> {
    watch: &'w mut Watch,
    sheets: Vec<SheetInfo>,
}

impl SheetSource for Remote<'_> {
    fn sheets(&self) -> &[SheetInfo] {
        &self.sheets
    }

    fn stream(&mut self, index: usize, sink: &mut SheetBudget<'_>) -> Result<(), ReadError> {
        self.watch.read(index, sink)
    }
}
