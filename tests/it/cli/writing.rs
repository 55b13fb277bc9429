//! Long writes (issue 20, finding 7): `--timeout` bounds writing as well as searching, for every
//! writer through one mechanism (`knights_tour::output::write_budget`), and a long write shows how far it
//! got as a fraction. `generate --size 3000 --timeout 3` ran 9 s and exited 0.
//!
//! A write the time limit stops leaves no file and no temp file, says so, and exits 1 (the code
//! of every run `--timeout` stopped). The boards are sized so the write takes several times the
//! limit while the search takes a fraction of it, in the build the tests run in ([`side`]).

use std::time::{Duration, Instant};

use predicates::prelude::*;
use serde_json::Value;

#[cfg(unix)]
use crate::support::pty;
use crate::support::workdir::WorkDir;

/// The board side for a write that takes several times the time limit: `debug` in a debug
/// build, `release` in a release build (some ten times faster). Measured at seed 1: the xlsx
/// write at 2,000 (debug) got 91 of 2,000 rows written in its second, at 4,000 (release) 480 of
/// 4,000; the text write at 3,000 (debug) 420 of 3,000 rows in half a second, at 5,000
/// (release) 1,399 of 5,000; the CSV stream at 4,000 (debug) 852 rows; the PNG at 2,000
/// (debug) 40,960 of 3,999,999 moves, at 4,000 (release) 5,894,144 of 15,999,999.
fn side(debug: u32, release: u32) -> String {
    if cfg!(debug_assertions) {
        debug
    } else {
        release
    }
    .to_string()
}

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
    let size = side(2000, 4000);
    let out = wd
        .generate(&[
            "--size",
            &size,
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
    let size = side(3000, 5000);
    wd.generate(&[
        "--size",
        &size,
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
    .stdout(predicate::str::contains(if cfg!(debug_assertions) {
        " of 3,000 rows"
    } else {
        " of 5,000 rows"
    }));
    bounded_and_clean(&wd, started, Duration::from_secs(5));
    if !cfg!(debug_assertions) {
        // A release build streams 5,000 rows of CSV within the quarter second every stage
        // may run past the limit (`write_budget::MIN_STAGE_TIME`): no board it can hold in memory
        // is slow enough to be cut.
        return;
    }
    let out = wd
        .generate(&[
            "--size",
            "4000",
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
    assert!(rows < 4000, "{rows} rows: the stream was not cut");
}

#[test]
fn pictures_and_pairs_are_bounded_by_the_same_time_limit() {
    let wd = WorkDir::new();
    for (sub, size, out, doing) in [
        ("draw", side(2000, 4000), "big.png", "drawing it, at "),
        ("pairs", "12".to_string(), "p.xlsx", ""),
    ] {
        let started = Instant::now();
        let args = ["--size", &size, "--seed", "1", "--timeout", "1", "-o", out];
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
    // Long enough for the progress line's first redraw, in the build the test runs in.
    let size = side(500, 1500);
    let seen = pty::run(
        dir.path(),
        &["generate", "--size", &size, "--seed", "1", "-o", "big.xlsx"],
    );
    assert_eq!(seen.code, Some(0), "{}", seen.screen);
    let raw = String::from_utf8_lossy(&seen.raw);
    assert!(raw.contains("writing big.xlsx: "), "{raw}");
    assert!(
        raw.contains(&format!(
            " of {} rows (",
            if cfg!(debug_assertions) {
                "500"
            } else {
                "1,500"
            }
        )),
        "{raw}"
    );
    // Cleared before the report.
    assert!(!seen.screen.contains(" rows ("), "{}", seen.screen);
}

/// Issue 44, finding 10: a write whose rate shows, a second in, that it cannot fit the time
/// left says so then, not at the deadline.
#[test]
fn a_write_that_cannot_fit_the_time_left_says_so_at_once() {
    let wd = WorkDir::new();
    let started = Instant::now();
    // Rows that need about twice the time left, a second in (on a quiet machine: the write
    // stops only when clearly over, and a slower machine is further over).
    let (size, timeout) = (side(2500, 4000), side(6, 3));
    let out = wd
        .generate(&[
            "--size",
            &size,
            "--seed",
            "1",
            "--timeout",
            &timeout,
            "--json",
            "-o",
            "big.xlsx",
        ])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let took = started.elapsed();
    bounded_and_clean(&wd, started, Duration::from_secs(6));
    let v: Value = serde_json::from_slice(&out).unwrap();
    let msg = v["message"].as_str().unwrap();
    assert!(
        msg.starts_with(
            "Nothing written to big.xlsx: the time limit (--timeout) would come while writing it: "
        ),
        "{msg}"
    );
    assert!(msg.contains(" rows took 1."), "{msg}");
    // Stopped about a second into the rows, well before the deadline.
    let deadline: u64 = timeout.parse().unwrap();
    assert!(took < Duration::from_secs(deadline), "took {took:?}");
}
