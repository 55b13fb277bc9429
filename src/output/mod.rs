//! The files layer every command writes through: output formats from the extension
//! ([`mod@format`]), text grids and JSON ([`grids`], [`json`]), the write budget that shows
//! progress and honours `--timeout` ([`write_budget`]), running out of memory as an error
//! ([`memory`]), and, here, the atomic write itself.
//!
//! Writing output files without ever losing data: an existing file is kept unless `--force`,
//! and the new content goes to a temp file in the same folder that is renamed into place only
//! once complete, so a failed run leaves no half-written file.
//!
//! Interrupted runs leave nothing either: every temp file being written is listed, and
//! [`remove_temp_files_on_signals`] (installed by the command line) removes them on SIGINT,
//! SIGTERM or SIGHUP before exiting 130, 143 or 129. Only a SIGKILL (or a power cut) can leave
//! a `.knights-tour-XXXXXX.tmp` file beside the output: a partial file of ours, safe to delete.
//!
//! An output "written as found" (a stream of tours) is finished instead, as a time limit
//! finishes it: while [`FinishOnSignal`] is held, the first signal only sets [`interrupted`],
//! which the writer checks between tours; it then closes its output and renames it into place,
//! and the command exits 130, 143 or 129. Should it not be done within [`FINISH_GRACE`], or a
//! second signal come, the temp file is removed and the process exits as above.

pub mod format;
pub mod grids;
pub mod json;
pub mod memory;
pub mod write_budget;

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Mutex, MutexGuard, Once, OnceLock};
use std::time::Duration;

use crate::error::{Error, Result};
use crate::output::write_budget::WriteBudget;

/// Where output goes: a file, or standard output for `-o -`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Destination {
    /// Standard output.
    Stdout,
    /// A file path.
    File(PathBuf),
}

impl Destination {
    /// `-` means standard output.
    pub fn parse(text: &str) -> Destination {
        if text == "-" {
            Destination::Stdout
        } else {
            Destination::File(PathBuf::from(text))
        }
    }

    /// A name for messages.
    pub fn display(&self) -> String {
        match self {
            Destination::Stdout => "standard output".to_string(),
            Destination::File(p) => p.display().to_string(),
        }
    }
}

/// Refuse early, before any work, when `path` exists and `force` is off, or when its folder does
/// not exist. The final rename checks again, so a file that appears meanwhile is not clobbered.
pub fn check_writable(path: &Path, force: bool) -> Result<()> {
    if is_special(path) {
        return Ok(());
    }
    // A folder first: --force would not help, so "use --force" would send the user round.
    if path.is_dir() {
        return Err(Error::io(
            path,
            io::Error::new(io::ErrorKind::IsADirectory, "is a folder, not a file"),
        ));
    }
    if path.exists() && !force {
        return Err(Error::OutputExists {
            path: path.to_path_buf(),
        });
    }
    let dir = parent_dir(path);
    if !dir.is_dir() {
        let why = if dir.exists() {
            format!("{} is a file, not a folder", dir.display())
        } else {
            "its folder does not exist".to_string()
        };
        return Err(Error::io(
            path,
            io::Error::new(io::ErrorKind::NotFound, why),
        ));
    }
    // A folder nobody may create files in (read-only, another user's, /sys) is found now, by
    // making the temp file the write will make, not after a long search. Listed for the signal
    // handler like every temp file, and gone when dropped.
    let mut listed = Listed(None);
    let probe = temp_builder(path)
        .tempfile_in(dir)
        .map_err(|e| Error::io(path, without_temp_path(e)))?;
    listed.add(probe.path());
    drop(probe);
    Ok(())
}

/// Temp files are named `.knights-tour-XXXXXX.tmp`, so a stray one is recognisably ours.
fn temp_builder(path: &Path) -> tempfile::Builder<'static, 'static> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(".knights-tour-").suffix(".tmp");
    if let Some(mode) = output_permissions(path) {
        builder.permissions(mode);
    }
    builder
}

/// Whether `path` is an existing device, FIFO or socket (`/dev/null`, `/dev/stdout`, a pipe):
/// such files are written in place, since renaming over them would replace the device itself,
/// and writing to them loses no data.
pub fn is_special(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Write `path` atomically: `fill` writes into a temp file beside it, which is renamed over
/// `path` only if `fill` succeeds. Without `force` an existing file is never replaced.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("out.txt");
/// knights_tour::output::write_atomically(&path, false, |f| {
///     use std::io::Write;
///     f.write_all(b"hello")
/// }).unwrap();
/// assert_eq!(std::fs::read_to_string(&path).unwrap(), "hello");
/// // A second write without force keeps the first.
/// assert!(knights_tour::output::write_atomically(&path, false, |_| Ok(())).is_err());
/// ```
pub fn write_atomically(
    path: &Path,
    force: bool,
    fill: impl FnOnce(&mut (dyn Write + Send)) -> io::Result<()>,
) -> Result<()> {
    write_atomically_with(path, force, &WriteBudget::unlimited(), |out| {
        fill(out).map_err(|e| Error::io(path, e))
    })
}

/// Like [`write_atomically`], within `budget` (the run's deadline and the progress line, see
/// [`crate::output::write_budget`]), for fillers with their own error (e.g. a workbook writer). `fill`
/// writes through a buffer; a write the deadline stopped is [`Error::TimedOut`], and leaves
/// no file, like any failed write.
pub fn write_atomically_with(
    path: &Path,
    force: bool,
    budget: &WriteBudget<'_>,
    fill: impl FnOnce(&mut (dyn Write + Send)) -> Result<()>,
) -> Result<()> {
    check_writable(path, force)?;
    if is_special(path) {
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| Error::io(path, e))?;
        return fill_within(path, &mut file, budget, fill);
    }
    let dir = parent_dir(path);
    let builder = temp_builder(path);
    // Declared before the temp file so that it is dropped after it: the file is deleted before
    // it leaves the list a signal handler works from.
    let mut listed = Listed(None);
    let mut tmp = builder
        .tempfile_in(dir)
        .map_err(|e| Error::io(path, without_temp_path(e)))?;
    listed.add(tmp.path());
    fill_within(path, tmp.as_file_mut(), budget, fill)?;
    tmp.as_file_mut()
        .sync_all()
        .map_err(|e| Error::io(path, e))?;
    // Renamed while holding the list, so a signal either removes the temp file or finds the
    // output complete, never half of each.
    let list = pending();
    let persisted = if force {
        tmp.persist(path).map_err(|e| e.error)
    } else {
        tmp.persist_noclobber(path).map_err(|e| e.error)
    };
    drop(list);
    persisted.map(|_| ()).map_err(|e| {
        if e.kind() == io::ErrorKind::AlreadyExists {
            Error::OutputExists {
                path: path.to_path_buf(),
            }
        } else {
            Error::io(path, e)
        }
    })
}

/// Run `fill` on `file` through a buffer and `budget`. Latched: a full disk is reported once,
/// by us, not again by a zip writer's drop. A write the deadline stopped is a failure even if
/// the writer carried on (a latched writer swallows what follows its first error).
fn fill_within(
    path: &Path,
    file: &mut File,
    budget: &WriteBudget<'_>,
    fill: impl FnOnce(&mut (dyn Write + Send)) -> Result<()>,
) -> Result<()> {
    let mut out = BufWriter::new(Latched::new(budget.watch(file)));
    let filled = fill(&mut out).and_then(|()| out.flush().map_err(|e| Error::io(path, e)));
    match budget.fired() {
        Some(cause) => Err(Error::TimedOut {
            output: path.display().to_string(),
            file: true,
            cause,
        }),
        None => filled,
    }
}

/// The cause of a temp-file error without the temp file's name: tempfile appends
/// `at path "/dir/.knights-tour-EOp6SK.tmp"`, a file the user never asked for; messages name
/// the output instead (the caller adds it).
fn without_temp_path(e: io::Error) -> io::Error {
    let text = e.to_string();
    match text.find(" at path ") {
        Some(i) if e.get_ref().is_some() => io::Error::new(e.kind(), text[..i].to_string()),
        _ => e,
    }
}

/// Temp files being written now, for the signal handler.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn pending() -> MutexGuard<'static, Vec<PathBuf>> {
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

/// A temp file's place in [`PENDING`], given up when dropped.
struct Listed(Option<PathBuf>);

impl Listed {
    fn add(&mut self, path: &Path) {
        pending().push(path.to_path_buf());
        self.0 = Some(path.to_path_buf());
    }
}

impl Drop for Listed {
    fn drop(&mut self) {
        if let Some(path) = self.0.take() {
            pending().retain(|p| *p != path);
        }
    }
}

/// Remove every temp file being written, now, on the way out of a run that cannot go on (out
/// of memory: see [`crate::output::memory`]). Takes the list only if nobody holds it, and allocates
/// nothing for paths under 384 bytes.
pub fn remove_temp_files_now() {
    let list = match PENDING.try_lock() {
        Ok(list) => list,
        Err(std::sync::TryLockError::Poisoned(e)) => e.into_inner(),
        Err(std::sync::TryLockError::WouldBlock) => return,
    };
    for path in list.iter() {
        let _ = std::fs::remove_file(path);
    }
}

/// Whether a signal should let the run finish its output ([`FinishOnSignal`] held).
static FINISH: AtomicBool = AtomicBool::new(false);
/// The signal that asked the run to finish, 0 for none.
static INTERRUPTED: AtomicI32 = AtomicI32::new(0);

/// How long a run that finishes its output on a signal has to do so.
pub const FINISH_GRACE: Duration = Duration::from_secs(3);

/// While held, a signal asks the run to finish its output (see the module's documentation)
/// rather than ending it at once.
#[must_use = "the request lasts while the guard is held"]
pub struct FinishOnSignal(());

impl FinishOnSignal {
    /// Ask that a signal let the output be finished.
    pub fn new() -> FinishOnSignal {
        FINISH.store(true, Ordering::SeqCst);
        FinishOnSignal(())
    }
}

impl Default for FinishOnSignal {
    fn default() -> Self {
        FinishOnSignal::new()
    }
}

impl Drop for FinishOnSignal {
    fn drop(&mut self) {
        FINISH.store(false, Ordering::SeqCst);
    }
}

/// The signal (SIGINT 2, SIGTERM 15, SIGHUP 1) that asked the run to finish, if one did.
pub fn interrupted() -> Option<i32> {
    match INTERRUPTED.load(Ordering::SeqCst) {
        0 => None,
        signal => Some(signal),
    }
}

/// The signal's name for a message: `Ctrl-C (SIGINT)`.
pub fn signal_name(signal: i32) -> &'static str {
    match signal {
        2 => "Ctrl-C (SIGINT)",
        15 => "SIGTERM",
        1 => "SIGHUP",
        _ => "a signal",
    }
}

/// Remove every temp file being written and exit with 128 plus `signal`, holding the list so
/// no rename can complete any more.
fn remove_and_exit(signal: i32) -> ! {
    let list = pending();
    for path in list.iter() {
        let _ = std::fs::remove_file(path);
    }
    std::process::exit(128 + signal);
}

/// On SIGINT, SIGTERM or SIGHUP, remove every temp file being written and exit with 128 plus
/// the signal's number (130, 143, 129), as a shell reports a process the signal ended; while a
/// [`FinishOnSignal`] is held, let the run finish its output first. Once per process; later
/// calls do nothing.
pub fn remove_temp_files_on_signals() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return; // without the handler a signal ends the process as usual
        };
        let spawned = std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                for signal in signals.forever() {
                    let first = INTERRUPTED
                        .compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst)
                        .is_ok();
                    if !(first && FINISH.load(Ordering::SeqCst)) {
                        remove_and_exit(signal);
                    }
                    // The run finishes its output and exits; if it has not within the grace,
                    // it ends as any other.
                    let timer = std::thread::Builder::new().spawn(move || {
                        std::thread::sleep(FINISH_GRACE);
                        remove_and_exit(signal);
                    });
                    if timer.is_err() {
                        remove_and_exit(signal);
                    }
                }
            });
        drop(spawned);
    });
}

/// A writer that, after its first error, accepts and drops everything. A zip writer dropped
/// after a failed write (a full disk) then finishes quietly instead of printing its own
/// "ZipWriter::drop: failed to finalize archive" line; the first error is still returned to
/// the caller, who reports it once, naming the file.
pub struct Latched<W> {
    inner: W,
    failed: bool,
}

impl<W: Write> Latched<W> {
    /// Wrap `inner`.
    pub fn new(inner: W) -> Latched<W> {
        Latched {
            inner,
            failed: false,
        }
    }
}

impl<W: Write> Write for Latched<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.failed {
            return Ok(buf.len());
        }
        self.inner.write(buf).inspect_err(|_| self.failed = true)
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.failed {
            return Ok(());
        }
        self.inner.flush().inspect_err(|_| self.failed = true)
    }
}

/// The mode the output gets: a replaced file keeps its own; a new one is created like any file
/// (0o666 less the umask on Unix), not with the temp file's private 0o600.
fn output_permissions(path: &Path) -> Option<std::fs::Permissions> {
    if let Ok(meta) = std::fs::metadata(path) {
        return Some(meta.permissions());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        Some(std::fs::Permissions::from_mode(0o666))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// Write text output to a destination within `budget`: stdout directly, a file atomically.
pub fn write_to(
    dest: &Destination,
    force: bool,
    budget: &WriteBudget<'_>,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<()> {
    match dest {
        Destination::Stdout => {
            let stdout = io::stdout();
            let mut lock = BufWriter::new(budget.watch(BesideProgress::new(stdout.lock())));
            let written = fill(&mut lock)
                .and_then(|_| lock.flush())
                .or_else(ignore_broken_pipe);
            match budget.fired() {
                Some(cause) => Err(Error::TimedOut {
                    output: dest.display(),
                    file: false,
                    cause,
                }),
                None => written.map_err(|e| Error::Other(format!("standard output: {e}"))),
            }
        }
        Destination::File(path) => write_atomically_with(path, force, budget, |out| {
            fill(out).map_err(|e| Error::io(path, e))
        }),
    }
}

/// Print a report on standard output; a reader that went away (`| head`) is not an error, and
/// never a panic as `println!` would be. A progress line on the same terminal steps aside.
pub fn print_stdout(text: &str) -> Result<()> {
    let mut stdout = BesideProgress::new(io::stdout().lock());
    stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        .or_else(ignore_broken_pipe)
        .map_err(|e| Error::Other(format!("cannot write to standard output: {e}")))
}

/// How the command line keeps its progress line out of standard output's way: it runs the
/// write it is given with the line cleared, then draws the line again (see
/// [`set_step_aside`]).
///
/// ```
/// use knights_tour::output::StepAside;
/// fn around(write: &mut dyn FnMut()) {
///     // clear the progress line here
///     write();
///     // and draw it again here
/// }
/// let hook: StepAside = around;
/// knights_tour::output::set_step_aside(hook);
/// ```
pub type StepAside = fn(&mut dyn FnMut());

static STEP_ASIDE: OnceLock<StepAside> = OnceLock::new();

/// Install what standard output on a terminal runs each write through, once per process (the
/// command line passes its progress line's; later calls are ignored). Without one, writes go
/// straight out.
///
/// ```
/// fn direct(write: &mut dyn FnMut()) {
///     write()
/// }
/// knights_tour::output::set_step_aside(direct);
/// knights_tour::output::print_stdout("").unwrap();
/// ```
pub fn set_step_aside(hook: StepAside) {
    let _ = STEP_ASIDE.set(hook);
}

/// `write` run through the installed [`StepAside`], if any.
fn stepped_aside<R>(write: impl FnOnce() -> R) -> R {
    let Some(step_aside) = STEP_ASIDE.get() else {
        return write();
    };
    let mut write = Some(write);
    let mut result = None;
    step_aside(&mut || result = write.take().map(|w| w()));
    match (result, write) {
        (Some(result), _) => result,
        // A hook that did not call back: write anyway.
        (None, Some(write)) => write(),
        (None, None) => unreachable!("the write ran, so it returned"),
    }
}

/// Standard output that lets a progress line on the same terminal step aside before each write
/// ([`set_step_aside`]); anywhere else, a plain writer.
struct BesideProgress<W> {
    inner: W,
    terminal: bool,
}

impl<W: Write> BesideProgress<W> {
    fn new(inner: W) -> BesideProgress<W> {
        use std::io::IsTerminal;
        BesideProgress {
            inner,
            terminal: io::stdout().is_terminal(),
        }
    }
}

impl<W: Write> Write for BesideProgress<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self.terminal {
            true => stepped_aside(|| self.inner.write(buf)),
            false => self.inner.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.terminal {
            true => stepped_aside(|| self.inner.flush()),
            false => self.inner.flush(),
        }
    }
}

/// `knights-tour generate -o - | head` closing the pipe early is not an error.
fn ignore_broken_pipe(e: io::Error) -> io::Result<()> {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Ok(())
    } else {
        Err(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder nobody may create files in (even root cannot in /sys): the error names the
    /// output, not the temp file that could not be made.
    #[cfg(target_os = "linux")]
    #[test]
    fn unwritable_folder_error_names_the_output() {
        let out = Path::new("/sys/knights-tour-out.xlsx");
        let err = write_atomically(out, false, |_| Ok(()))
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("/sys/knights-tour-out.xlsx: "), "{err}");
        assert!(!err.contains(".tmp") && !err.contains("at path"), "{err}");
    }

    #[test]
    fn failed_fill_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.xlsx");
        let r = write_atomically(&path, false, |f| {
            f.write_all(b"half")?;
            Err(io::Error::other("boom"))
        });
        assert!(r.is_err());
        assert!(!path.exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn existing_file_is_kept_without_force_and_replaced_with_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.txt");
        std::fs::write(&path, "old").unwrap();
        let r = write_atomically(&path, false, |f| f.write_all(b"new"));
        assert!(matches!(r, Err(Error::OutputExists { .. })));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        write_atomically(&path, true, |f| f.write_all(b"new")).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
    }

    #[test]
    fn devices_are_written_in_place_not_replaced() {
        let null = Path::new("/dev/null");
        if !null.exists() {
            return;
        }
        write_atomically(null, false, |f| f.write_all(b"gone")).unwrap();
        write_atomically(null, true, |f| f.write_all(b"gone")).unwrap();
        assert!(is_special(null), "/dev/null must still be a device");
    }

    #[cfg(unix)]
    #[test]
    fn outputs_are_readable_like_any_new_file_and_replacements_keep_their_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.txt");
        write_atomically(&path, false, |f| f.write_all(b"a")).unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_ne!(mode, 0o600, "not the temp file's private mode");
        assert_eq!(mode & 0o600, 0o600);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        write_atomically(&path, true, |f| f.write_all(b"b")).unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
    }

    #[test]
    fn missing_folder_is_reported() {
        let r = check_writable(Path::new("/no/such/folder/x.xlsx"), false);
        assert!(r.unwrap_err().to_string().contains("folder does not exist"));
    }
}
