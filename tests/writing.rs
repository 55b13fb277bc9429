//! Long writes (issue 20, finding 7): `--timeout` bounds writing as well as searching, for every
//! writer through one mechanism (`knights_tour::writing`), and a long write shows how far it
//! got as a fraction. `generate --size 3000 --timeout 3` ran 9 s and exited 0.
//!
//! A write the time limit stops leaves no file and no temp file, says so, and exits 1 (the code
//! of every run `--timeout` stopped). The boards are sized so the write takes seconds in a debug
//! build while the search takes a fraction of one.

use std::time::{Duration, Instant};

use predicates::prelude::*;
use serde_json::Value;

#[cfg(unix)]
mod pty;
mod workdir;
use workdir::WorkDir;

/// Ran in less than `limit`, and left nothing behind.
fn bounded_and_clean(wd: &WorkDir, started: Instant, limit: Duration) {
    let took = started.elapsed();
    assert!(took < limit, "took {took:?}");
    assert!(wd.files().is_empty(), "left behind: {:?}", wd.files());
}

#[test]
fn a_workbook_the_time_limit_stops_is_not_written_and_the_run_says_so() {
    let wd = WorkDir::new();
    let started = Instant::now();
    let out = wd
        .generate(&[
            "--size",
            "1000",
            "--seed",
            "1",
            "--timeout",
            "1",
            "--json",
            "-o",
            "big.xlsx",
        ])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    bounded_and_clean(&wd, started, Duration::from_secs(6));
    let v: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["solved"], false);
    assert_eq!(v["timed_out"], true);
    assert_eq!(v["sheets"], Value::Array(vec![]), "no sheet was written");
    let msg = v["message"].as_str().unwrap();
    assert!(
        msg.starts_with(
            "Nothing written to big.xlsx: the time limit (--timeout) came while writing it, at "
        ) || msg.starts_with(
            "Nothing written to big.xlsx: the time limit (--timeout) came while compressing it, at "
        ),
        "{msg}"
    );
    assert!(msg.contains("(the tour was found)"), "{msg}");
}

#[test]
fn text_outputs_are_bounded_too_and_standard_output_is_said_to_be_cut_short() {
    let wd = WorkDir::new();
    let started = Instant::now();
    wd.generate(&[
        "--size",
        "2000",
        "--seed",
        "1",
        "--timeout",
        "0.5",
        "-o",
        "big.txt",
    ])
    .assert()
    .code(1)
    .stdout(predicate::str::contains(
        "Nothing written to big.txt: the time limit (--timeout) came while writing it, at ",
    ))
    .stdout(predicate::str::contains(" of 2,000 rows"));
    bounded_and_clean(&wd, started, Duration::from_secs(5));
    let out = wd
        .generate(&[
            "--size",
            "3000",
            "--seed",
            "1",
            "--timeout",
            "0.5",
            "--format",
            "csv",
            "-o",
            "-",
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "Standard output cut short: the time limit (--timeout) came while writing it",
        ))
        .get_output()
        .stdout
        .clone();
    let rows = out.iter().filter(|&&b| b == b'\n').count();
    assert!(rows < 3000, "{rows} rows: the stream was not cut");
}

#[test]
fn pictures_and_pairs_are_bounded_by_the_same_time_limit() {
    let wd = WorkDir::new();
    for (sub, size, out, doing) in [
        ("draw", "1000", "big.png", "drawing it, at "),
        ("pairs", "12", "p.xlsx", ""),
    ] {
        let started = Instant::now();
        let args = ["--size", size, "--seed", "1", "--timeout", "1", "-o", out];
        wd.cmd(sub, &args)
            .assert()
            .code(1)
            .stderr(predicate::str::contains(format!(
                "{out}: not written: the time limit (--timeout) came while {doing}"
            )));
        bounded_and_clean(&wd, started, Duration::from_secs(6));
    }
}

/// The progress line shows a long write as a fraction: rows written of the board's rows, then
/// the compression in megabytes.
#[cfg(unix)]
#[test]
fn a_long_write_shows_its_progress_as_a_fraction() {
    let dir = tempfile::tempdir().unwrap();
    let seen = pty::run(
        dir.path(),
        &["generate", "--size", "500", "--seed", "1", "-o", "big.xlsx"],
    );
    assert_eq!(seen.code, Some(0), "{}", seen.screen);
    let raw = String::from_utf8_lossy(&seen.raw);
    assert!(raw.contains("writing big.xlsx: "), "{raw}");
    assert!(raw.contains(" of 500 rows ("), "{raw}");
    // Cleared before the report.
    assert!(!seen.screen.contains(" rows ("), "{}", seen.screen);
}
