//! Issue 9: an interrupted write leaves nothing behind. SIGINT, SIGTERM and SIGHUP during
//! `generate --size 1000 --tiebreak center -o big.xlsx` remove the temp file, write no output,
//! and exit 130, 143 and 129 as a shell reports the signal. Also: a full disk gives our own
//! error line only.

#![cfg(unix)]

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn temp_files(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".knights-tour-"))
        .collect()
}

/// Start the big write, wait until its temp file exists, send `signal`, and give the exit
/// code and what is left in the folder.
fn interrupt(signal: &str) -> (Option<i32>, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("knights-tour"))
        .current_dir(dir.path())
        .args([
            "generate",
            "--size",
            "1000",
            "--tiebreak",
            "center",
            "-o",
            "big.xlsx",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let waited = Instant::now();
    while temp_files(dir.path()).is_empty() {
        assert!(
            waited.elapsed() < Duration::from_secs(120),
            "the temp file never appeared"
        );
        if child.try_wait().unwrap().is_some() {
            panic!("finished before it could be interrupted");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(100)); // well into the write
    let sent = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let status = child.wait().unwrap();
    let left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    (status.code(), left)
}

#[test]
fn sigint_sigterm_and_sighup_during_a_write_leave_nothing() {
    for (signal, code) in [("-INT", 130), ("-TERM", 143), ("-HUP", 129)] {
        let (exit, left) = interrupt(signal);
        assert_eq!(exit, Some(code), "{signal}");
        assert!(left.is_empty(), "{signal}: left behind {left:?}");
    }
}

#[test]
fn a_full_disk_is_reported_once_in_our_words() {
    if !Path::new("/dev/full").exists() {
        return;
    }
    for args in [
        &[
            "generate",
            "--size",
            "300",
            "--format",
            "xlsx",
            "-o",
            "/dev/full",
        ][..],
        &[
            "generate",
            "--size",
            "300",
            "--format",
            "csv",
            "-o",
            "/dev/full",
        ][..],
        &["template", "--size", "100", "-o", "/dev/full"][..],
    ] {
        let out = Command::new(assert_cmd::cargo::cargo_bin("knights-tour"))
            .args(args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("error: /dev/full: "),
            "{args:?}: {stderr}"
        );
        assert!(stderr.contains("No space left"), "{args:?}: {stderr}");
        assert_eq!(
            stderr.lines().count(),
            1,
            "{args:?}: one line only: {stderr}"
        );
        assert!(!stderr.contains("ZipWriter"), "{args:?}: {stderr}");
    }
}
