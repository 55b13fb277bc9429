//! Running the command on a pseudo-terminal, as a person's terminal runs it: standard output and
//! standard error both on the terminal, and what the person ends up seeing read back through a
//! terminal emulator (vt100), so that a progress line left behind or text written over it shows.

use std::fs::File;
use std::io::Read;
use std::os::fd::{FromRawFd, OwnedFd};
use std::path::Path;
use std::process::Stdio;

/// What a terminal shows at the end of a run, and the exit code.
pub struct Seen {
    /// The screen's text, one line per terminal row, trailing blank rows removed.
    pub screen: String,
    /// Every byte the program wrote, escape sequences included.
    pub raw: Vec<u8>,
    /// The exit code.
    pub code: Option<i32>,
}

/// Run `knights-tour ARGS` in `dir` with standard output and standard error on a fresh
/// 200x120 pseudo-terminal; standard input is empty.
pub fn run(dir: &Path, args: &[&str]) -> Seen {
    let (rows, cols) = (200u16, 120u16);
    let (mut master, mut slave) = (0, 0);
    let size = libc::winsize {
        ws_row: rows,
        ws_col: cols,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: openpty writes two descriptors into the integers given and reads `size`.
    let made = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            &size,
        )
    };
    assert_eq!(made, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors were just opened for us and are owned by nothing else.
    let (mut master, slave) = unsafe { (File::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
    let mut child = {
        let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("knights-tour"));
        cmd.current_dir(dir)
            .args(args)
            .env_remove("CI")
            .env("TERM", "xterm-256color")
            .stdin(Stdio::null())
            .stdout(Stdio::from(slave.try_clone().unwrap()))
            .stderr(Stdio::from(slave));
        cmd.spawn().unwrap()
        // `cmd` goes here, and with it our copies of the terminal's slave side: the master
        // then reads end-of-file (EIO) once the program exits.
    };
    let mut raw = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match master.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => raw.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break, // EIO: the slave side is closed
        }
    }
    let code = child.wait().unwrap().code();
    let mut parser = vt100::Parser::new(
        std::num::NonZeroU16::new(rows).unwrap(),
        std::num::NonZeroU16::new(cols).unwrap(),
        0,
    );
    parser.process(&raw);
    let screen = parser.screen().contents().trim_end().to_string();
    Seen { screen, raw, code }
}
