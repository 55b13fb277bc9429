//! The reader process itself (unix): started with its limits set between `fork` and `exec`,
//! read with a deadline, killed and its end put in words.
//!
//! `libc` is used directly for what `std` does not offer: `setrlimit` (address space and
//! processor time), `prctl(PR_SET_PDEATHSIG)` and `poll` (a read that gives up at a deadline).

use std::io::{self, BufReader, BufWriter, Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use super::protocol::{self, Fault, Reply, Request, Writer, MAGIC};
use super::{Limits, SUBCOMMAND};

/// The time a new reader has to answer its first bytes.
const STARTING: Duration = Duration::from_secs(10);

/// A running reader process.
pub(super) struct Child {
    process: std::process::Child,
    requests: Writer<BufWriter<ChildStdin>>,
    replies: protocol::Reader<BufReader<Timed>>,
}

/// The child's standard output, read with a deadline.
pub(super) struct Timed {
    pipe: ChildStdout,
    /// Time left for the file being read.
    left: Duration,
}

impl Read for Timed {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let started = Instant::now();
        let mut fd = libc::pollfd {
            fd: self.pipe.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        loop {
            let left = self.left.saturating_sub(started.elapsed());
            if left.is_zero() {
                self.left = Duration::ZERO;
                return Err(io::ErrorKind::TimedOut.into());
            }
            let ms = left.as_millis().clamp(1, i32::MAX as u128) as libc::c_int;
            // SAFETY: one valid pollfd, for the duration of the call.
            let ready = unsafe { libc::poll(&mut fd, 1, ms) };
            if ready > 0 {
                break;
            }
            if ready < 0 {
                let e = io::Error::last_os_error();
                if e.kind() != io::ErrorKind::Interrupted {
                    return Err(e);
                }
            }
        }
        let n = self.pipe.read(buf);
        self.left = self.left.saturating_sub(started.elapsed());
        n
    }
}

/// Limits as `setrlimit` takes them: never above what this process may have itself.
fn rlimits(limits: &Limits) -> (libc::rlimit, libc::rlimit) {
    let current = |resource| {
        // SAFETY: getrlimit only writes the struct handed to it.
        unsafe {
            let mut r: libc::rlimit = std::mem::zeroed();
            if libc::getrlimit(resource, &mut r) != 0 {
                r.rlim_cur = libc::RLIM_INFINITY;
                r.rlim_max = libc::RLIM_INFINITY;
            }
            r
        }
    };
    let at_most = |hard: libc::rlim_t, wanted: u64| {
        if hard == libc::RLIM_INFINITY {
            wanted as libc::rlim_t
        } else {
            hard.min(wanted as libc::rlim_t)
        }
    };
    let space = current(libc::RLIMIT_AS);
    let memory = at_most(space.rlim_max, limits.memory);
    let cpu = current(libc::RLIMIT_CPU);
    // The first file's processor time, and a second for starting; the child moves the soft
    // limit on before each further file, so the hard limit stays where it was.
    let seconds = limits.time.as_secs_f64().ceil() as u64 + 1;
    (
        libc::rlimit {
            rlim_cur: memory,
            rlim_max: memory,
        },
        libc::rlimit {
            rlim_cur: at_most(cpu.rlim_max, seconds),
            rlim_max: cpu.rlim_max,
        },
    )
}

impl Child {
    /// Start `exe`'s reader subcommand under `limits`.
    pub(super) fn spawn(exe: &Path, limits: &Limits) -> io::Result<Child> {
        let (space, cpu) = rlimits(limits);
        let seconds = limits.time.as_secs_f64().ceil().max(1.0);
        let mut command = Command::new(exe);
        command
            .arg(SUBCOMMAND)
            .arg("--seconds")
            .arg(format!("{seconds}"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // SAFETY: between fork and exec only async-signal-safe system calls run, on values
        // computed before the fork.
        unsafe {
            command.pre_exec(move || {
                if libc::setrlimit(libc::RLIMIT_AS, &space) != 0
                    || libc::setrlimit(libc::RLIMIT_CPU, &cpu) != 0
                {
                    return Err(io::Error::last_os_error());
                }
                #[cfg(target_os = "linux")]
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
        let mut process = command.spawn()?;
        let (Some(stdin), Some(stdout)) = (process.stdin.take(), process.stdout.take()) else {
            let _ = process.kill();
            let _ = process.wait();
            return Err(io::Error::other("its pipes could not be opened"));
        };
        Ok(Child {
            process,
            requests: Writer::new(BufWriter::new(stdin)),
            replies: protocol::Reader::new(BufReader::with_capacity(
                64 * 1024,
                Timed {
                    pipe: stdout,
                    // Starting is not reading: a loaded machine may take its time.
                    left: limits.time.max(STARTING),
                },
            )),
        })
    }

    /// Read the child's first bytes: it speaks the protocol.
    pub(super) fn greet(&mut self) -> Result<(), Fault> {
        let mut magic = [0u8; 4];
        self.replies.input.read_exact(&mut magic)?;
        if &magic != MAGIC {
            return Err(Fault::Breach(
                "the program does not answer as a reader".into(),
            ));
        }
        Ok(())
    }

    /// A new file: `time` to read it.
    pub(super) fn start_file(&mut self, time: Duration) {
        self.replies.input.get_mut().left = time;
    }

    /// Send one request, and then `then` (the bytes it says follow).
    pub(super) fn send(&mut self, request: &Request<'_>, then: &[u8]) -> Result<(), Fault> {
        self.requests.send(request)?;
        self.requests.out.write_all(then)?;
        self.requests.out.flush()?;
        Ok(())
    }

    /// The next reply.
    pub(super) fn reply(&mut self) -> Result<Reply<'_>, Fault> {
        self.replies.reply()
    }

    /// Kill the child over `fault` and say what stopped it.
    pub(super) fn stop(mut self, fault: Fault, limits: &Limits) -> String {
        let _ = self.process.kill();
        let status = self.process.wait();
        let mut said = Vec::new();
        if let Some(stderr) = self.process.stderr.take() {
            let _ = stderr.take(4096).read_to_end(&mut said);
        }
        let said = String::from_utf8_lossy(&said);
        match fault {
            Fault::Io(e) if e.kind() == io::ErrorKind::TimedOut => limits.out_of_time(),
            Fault::Breach(what) => {
                format!("the reader's answer made no sense ({what}), so the file was not read")
            }
            Fault::Io(_) => match status {
                Ok(s) => ended(s, &said, limits),
                Err(e) => format!("the reader stopped ({e})"),
            },
        }
    }

    /// End an idle child (between two files: nothing is lost).
    pub(super) fn retire(mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

/// Why a child that ended by itself ended, from its exit status and what it printed.
fn ended(status: std::process::ExitStatus, said: &str, limits: &Limits) -> String {
    if said.contains("memory allocation of") || said.contains("out of memory") {
        return limits.out_of_memory();
    }
    if said.contains("overflowed its stack") {
        return "reading it nests deeper than the reader's stack allows".into();
    }
    match status.signal() {
        Some(libc::SIGXCPU) | Some(libc::SIGKILL) => limits.out_of_time(),
        // An abort with nothing said: an allocation past the cap (the message may be lost).
        Some(libc::SIGABRT) => limits.out_of_memory(),
        Some(signal) => format!("the reader crashed on it (signal {signal})"),
        None => format!(
            "the reader stopped before answering (exit code {})",
            status.code().unwrap_or(-1)
        ),
    }
}
