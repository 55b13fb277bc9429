//! The reader process: the hidden subcommand that opens the files the parent names, one after
//! another, and streams their sheets back ([`super::protocol`]).
//!
//! It keeps serving files while it stays small: before each file it checks how far its
//! address space has grown since it started, and past [`REUSE_GROWTH`] it asks the parent for
//! a fresh process (`R`) instead, so that what one file left behind never counts against the
//! next file's memory cap. Its processor-time limit is moved on by the per-file limit before
//! each file.

use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::Path;
use std::time::Duration;

use super::super::{quiet_guarded_panics, SheetInfo, Workbook};
use super::protocol::{self, Fault, Reply, Request, Writer, MAGIC};

/// How much the reader's address space may grow over its start before it is replaced.
const REUSE_GROWTH: u64 = 32 * 1024 * 1024;

/// Serve requests on standard input until it ends; `time` is the per-file processor-time
/// limit. Returns the exit code.
pub fn serve(time: Duration) -> u8 {
    quiet_guarded_panics();
    let input = BufReader::new(io::stdin().lock());
    let output = BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    match run(input, output, time) {
        Ok(()) => 0,
        Err(_) => 2,
    }
}

fn run(input: impl Read, output: impl Write, time: Duration) -> Result<(), Fault> {
    let mut input = protocol::Reader::new(input);
    let mut out = Writer::new(output);
    out.out.write_all(MAGIC)?;
    out.out.flush()?;
    let start = address_space();
    let mut served = 0u64;
    let mut book: Option<Workbook<'static>> = None;
    loop {
        let open = match input.next::<Request<'_>>(u32::MAX) {
            Err(Fault::Io(e)) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(()),
            Err(e) => return Err(e),
            Ok(Request::ReadSheet(index)) => {
                let Some(b) = book.as_mut() else {
                    return Err(Fault::Breach("a sheet asked for before a file".into()));
                };
                let mut sender = protocol::CellSender::new(&mut out);
                let sent = b.send_sheet(index as usize, &mut sender);
                sender.flush()?;
                out.send(&sent.map_or_else(Reply::Failed, |()| Reply::Done))?;
                out.out.flush()?;
                continue;
            }
            Ok(Request::OpenPath(path)) => {
                let path = path_of(path.to_vec());
                Box::new(move || Workbook::open(&path)) as Box<dyn FnOnce() -> _>
            }
            Ok(Request::OpenBytes { sheet, len }) => {
                let sheet = sheet.to_string();
                let mut bytes = Vec::new();
                (&mut input.input).take(len).read_to_end(&mut bytes)?;
                Box::new(move || Workbook::from_vec(bytes, &sheet))
            }
        };
        book = None;
        if served > 0 && !reusable(start) {
            out.send(&Reply::Restart)?;
            out.out.flush()?;
            return Ok(());
        }
        served += 1;
        allow_processor_time(time);
        let opened: Result<Workbook<'static>, _> = open();
        match opened {
            Ok(b) => {
                let sheets = (b.sheet_names().iter())
                    .map(|n| SheetInfo {
                        name: n.clone(),
                        hidden: b.is_hidden(n),
                    })
                    .collect();
                out.send(&Reply::Opened {
                    format: b.format(),
                    sheets,
                })?;
                book = Some(b);
            }
            Err(e) => out.send(&Reply::Failed(e))?,
        }
        out.out.flush()?;
    }
}

#[cfg(unix)]
fn path_of(bytes: Vec<u8>) -> std::path::PathBuf {
    use std::os::unix::ffi::OsStringExt;
    std::ffi::OsString::from_vec(bytes).into()
}

#[cfg(not(unix))]
fn path_of(bytes: Vec<u8>) -> std::path::PathBuf {
    String::from_utf8_lossy(&bytes).into_owned().into()
}

/// The process's address space now, in bytes, where the system says (Linux).
fn address_space() -> Option<u64> {
    let statm = std::fs::read_to_string(Path::new("/proc/self/statm")).ok()?;
    let pages: u64 = statm.split_whitespace().next()?.parse().ok()?;
    // SAFETY: sysconf only reads a system constant.
    #[cfg(unix)]
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(1) as u64;
    #[cfg(not(unix))]
    let page = 4096;
    Some(pages * page)
}

/// Whether the process is still small enough to read another file (always false where its
/// size cannot be known).
fn reusable(start: Option<u64>) -> bool {
    match (start, address_space()) {
        (Some(start), Some(now)) => now <= start + REUSE_GROWTH,
        _ => false,
    }
}

/// Move the processor-time limit to `time` (and a second of grace) past what was used so far.
#[cfg(unix)]
fn allow_processor_time(time: Duration) {
    // SAFETY: getrusage and getrlimit/setrlimit only write the structs handed to them.
    unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        if libc::getrusage(libc::RUSAGE_SELF, &mut usage) != 0 {
            return;
        }
        let used = (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) as u64 + 1;
        let mut limit: libc::rlimit = std::mem::zeroed();
        if libc::getrlimit(libc::RLIMIT_CPU, &mut limit) != 0 {
            return;
        }
        let wanted = used + time.as_secs() + 1;
        limit.rlim_cur = if limit.rlim_max == libc::RLIM_INFINITY {
            wanted as libc::rlim_t
        } else {
            limit.rlim_max.min(wanted as libc::rlim_t)
        };
        libc::setrlimit(libc::RLIMIT_CPU, &limit);
    }
}

#[cfg(not(unix))]
fn allow_processor_time(_time: Duration) {}
