//! End-to-end tests of generate's command line for issue 12's findings on the CLI side: formats
//! from the extension, the seed reported, flags that do not combine, bounded `--all` with
//! `--timeout`, the broken pipe, the same tour in every format; and issue 9's constraints cap.

use std::path::Path;
use std::process::Stdio;

use calamine::{open_workbook, Data, Reader, Xlsx};
use predicates::prelude::*;
use serde_json::Value;

use crate::support::workdir::WorkDir;

/// The move numbers of the board on a workbook's first tour sheet, row by row.
fn xlsx_grid(path: &Path) -> Vec<Vec<u32>> {
    let mut wb: Xlsx<_> = open_workbook(path).unwrap();
    let names = wb.sheet_names();
    let first = names
        .iter()
        .find(|n| n.starts_with("Tour"))
        .unwrap_or(&names[0])
        .clone();
    let range = wb.worksheet_range(&first).unwrap();
    range
        .rows()
        .map(|row| {
            row.iter()
                .filter_map(|c| match c {
                    Data::Int(i) => Some(*i as u32),
                    Data::Float(f) => Some(*f as u32),
                    _ => None,
                })
                .collect::<Vec<u32>>()
        })
        .filter(|r| !r.is_empty())
        .collect()
}

fn csv_grid(text: &str) -> Vec<Vec<u32>> {
    text.lines()
        .map(|l| l.split(',').map(|n| n.parse().unwrap()).collect())
        .collect()
}

/// The text grid's numbers (rank label and file letters left out).
fn text_grid(text: &str) -> Vec<Vec<u32>> {
    text.lines()
        .filter_map(|l| l.split_once(" | "))
        .map(|(_, cells)| {
            cells
                .split_whitespace()
                .map(|n| n.parse().unwrap())
                .collect()
        })
        .collect()
}

/// The grid of a JSON tour: move numbers by square from its path of algebraic squares.
fn json_grid(v: &Value) -> Vec<Vec<u32>> {
    let rows = v["board"]["rows"].as_u64().unwrap() as usize;
    let cols = v["board"]["cols"].as_u64().unwrap() as usize;
    let mut grid = vec![vec![0u32; cols]; rows];
    for (k, sq) in v["path"].as_array().unwrap().iter().enumerate() {
        let sq = sq.as_str().unwrap();
        let split = sq.find(|c: char| c.is_ascii_digit()).unwrap();
        let (file, rank) = sq.split_at(split);
        assert_eq!(file.len(), 1, "boards under 27 files in these tests");
        let col = (file.as_bytes()[0] - b'a') as usize;
        let row = rows - rank.parse::<usize>().unwrap();
        grid[row][col] = k as u32 + 1;
    }
    grid
}

fn no_temp_files(wd: &WorkDir) {
    let tmp: Vec<String> = wd
        .files()
        .into_iter()
        .filter(|f| f.starts_with(".knights-tour-"))
        .collect();
    assert!(tmp.is_empty(), "temp files left: {tmp:?}");
}

// Finding 1: `--all` is bounded and honours --timeout in every format, with a valid file.
#[test]
fn all_stops_at_the_timeout_in_every_format_with_a_valid_file() {
    let wd = WorkDir::new();
    for out in ["a.csv", "a.json", "a.txt"] {
        wd.generate(&["--all", "--size", "8", "--timeout", "1", "-o", out])
            .assert()
            .code(1)
            .stdout(predicate::str::contains("stopped at --timeout after"));
    }
    let csv = wd.read("a.csv");
    let grids: Vec<&str> = csv.split("\n\n").collect();
    assert!(grids.len() > 10, "tours found within a second");
    for g in &grids {
        let grid = csv_grid(g);
        assert_eq!(grid.len(), 8);
        let mut all: Vec<u32> = grid.concat();
        all.sort_unstable();
        assert_eq!(all, (1..=64).collect::<Vec<_>>());
    }
    let json: Value = serde_json::from_str(&wd.read("a.json")).unwrap();
    assert!(json.as_array().unwrap().len() > 10);
    assert_eq!(json[0]["path"].as_array().unwrap().len(), 64);
    assert!(text_grid(&wd.read("a.txt")).len() > 80);
    // A workbook holds at most 1000 tours: it says so, exit 1, and the file is there. (Time
    // enough for a debug build to write 1000 sheets: --timeout bounds the writing too.)
    wd.generate(&["--all", "--size", "6", "--timeout", "30", "-o", "a.xlsx"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "stopped at 1,000 tours, the most a workbook holds",
        ));
    assert_eq!(xlsx_grid(&wd.path("a.xlsx")).len(), 6);
    // A time limit that comes before the workbook is full stops the run there, exit 1, with
    // what was found written (or, when that is nothing, no file and an honest message; or,
    // when writing what was found takes longer than the time left, no file and a message
    // saying the time limit came while writing). How many tours 10 ms holds depends on the
    // machine: a fast one fills the workbook first, which is another honest ending, so each
    // ending is checked for what it claims.
    let out = wd
        .generate(&["--all", "--size", "8", "--timeout", "0.01", "-o", "t.xlsx"])
        .assert()
        .code(1);
    let said = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    if wd.path("t.xlsx").exists() {
        assert!(
            said.contains("stopped at --timeout after")
                || said.contains("the most a workbook holds"),
            "{said}"
        );
        assert_eq!(xlsx_grid(&wd.path("t.xlsx")).len(), 8);
    } else {
        assert!(
            said.contains("no 8x8 tour found within the time limit; one may exist")
                || said.contains("the time limit (--timeout) came while"),
            "{said}"
        );
    }
    no_temp_files(&wd);
}

#[test]
fn all_into_a_workbook_beyond_its_capacity_is_refused_up_front() {
    let wd = WorkDir::new();
    wd.generate(&["--all", "--limit", "5000", "--size", "6"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(".csv or .json"));
    assert!(wd.files().is_empty());
    wd.generate(&["--all", "--limit", "3", "--size", "5", "--start", "a1"])
        .assert()
        .success()
        .stdout(predicate::str::contains("stopped at --limit 3"));
}

// Finding 6: the seed is reported for every format.
#[test]
fn the_seed_is_reported_on_stderr_and_in_the_json() {
    let wd = WorkDir::new();
    for out in ["t.csv", "t.txt"] {
        wd.generate(&["--seed", "42", "-o", out])
            .assert()
            .success()
            .stderr(predicate::str::contains("seed 42: repeat with --seed 42"));
    }
    let out = wd
        .generate(&["--seed", "43", "--format", "json", "-o", "-"])
        .assert()
        .success()
        .stderr(predicate::str::contains("seed 43: repeat with --seed 43"))
        .get_output()
        .stdout
        .clone();
    let v: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["seed"], 43);
    // A random seed is reported too, and repeats the run.
    let out = wd
        .generate(&["--format", "csv", "-o", "-"])
        .assert()
        .success()
        .get_output()
        .clone();
    let stderr = String::from_utf8(out.stderr).unwrap();
    let seed = stderr
        .lines()
        .find_map(|l| l.strip_prefix("seed "))
        .and_then(|l| l.split(':').next())
        .expect("seed line")
        .to_string();
    wd.generate(&["--format", "csv", "-o", "-", "--seed", &seed])
        .assert()
        .success()
        .stdout(String::from_utf8(out.stdout).unwrap());
}

// Finding 7: the format follows the file name; standard output only for text.
#[test]
fn the_format_follows_the_extension_and_contradictions_are_refused() {
    let wd = WorkDir::new();
    wd.generate(&["-o", "tour.csv", "--seed", "1"])
        .assert()
        .success();
    assert_eq!(csv_grid(&wd.read("tour.csv")).len(), 8, "CSV, not a zip");
    wd.generate(&["-o", "tour.json", "--seed", "1"])
        .assert()
        .success();
    let v: Value = serde_json::from_str(&wd.read("tour.json")).unwrap();
    assert_eq!(v["moves"], 64);
    wd.generate(&["-o", "tour.txt", "--seed", "1"])
        .assert()
        .success();
    assert_eq!(text_grid(&wd.read("tour.txt")).len(), 8);
    wd.generate(&["--format", "text", "-o", "st.xlsx"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--format text contradicts -o st.xlsx",
        ));
    wd.generate(&["-o", "tour.ods"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(".xlsx"));
    wd.generate(&["-o", "tour.dat"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--format"));
    // --format stands in where there is no extension.
    wd.generate(&["--format", "csv", "-o", "tour.dat"])
        .assert()
        .success();
    assert_eq!(csv_grid(&wd.read("tour.dat")).len(), 8);
    wd.generate(&["--format", "xlsx", "-o", "-"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("standard output"));
    // template and verify --complete: no file named `-`, no xlsx bytes in an .ods.
    wd.cmd("template", &["-o", "-"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("standard output"));
    wd.generate(&[
        "--size",
        "5",
        "--start",
        "c3",
        "--method",
        "warnsdorff",
        "--attempts",
        "1",
        "--seed",
        "1",
        "-o",
        "w.xlsx",
    ])
    .assert()
    .code(predicate::in_iter([0, 1]));
    for out in ["-", "out.ods"] {
        wd.cmd("verify", &["w.xlsx", "--complete", out])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(".xlsx"));
    }
    let files = wd.files();
    assert!(!files.contains(&"-".to_string()), "{files:?}");
    assert!(!files.contains(&"out.ods".to_string()), "{files:?}");
    assert!(!files.contains(&"st.xlsx".to_string()), "{files:?}");
}

// Finding 8: flags that do not combine are usage errors naming both.
#[test]
fn flags_that_do_not_combine_are_usage_errors_naming_both() {
    let wd = WorkDir::new();
    let cases: &[(&[&str], &str, &str)] = &[
        (&["--all", "--tours", "3"], "--all", "--tours"),
        (&["--all", "--method", "warnsdorff"], "--all", "--method"),
        (&["--all", "--tiebreak", "center"], "--all", "--tiebreak"),
        (&["--limit", "3"], "--limit", "--all"),
        (&["--all", "--limit", "0"], "--limit", "0"),
        (
            &["--method", "construct", "--tiebreak", "pohl"],
            "--tiebreak",
            "--method construct",
        ),
        (
            &["--method", "backtrack", "--attempts", "3"],
            "--attempts",
            "--method backtrack",
        ),
        (&["--format", "csv", "--at", "B2"], "--at", "csv"),
        (&["-o", "t.json", "--path", "on"], "--path", "json"),
        (&["--json", "--format", "csv", "-o", "-"], "--json", "-o -"),
    ];
    for (args, a, b) in cases {
        wd.generate(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(*a).and(predicate::str::contains(*b)));
    }
    wd.cmd("draw", &["some.xlsx", "--size", "10", "-o", "x.svg"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("FILE").and(predicate::str::contains("--size")));
    assert!(wd.files().is_empty());
    // --help lists them.
    wd.generate(&["--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Flags that do not combine"));
}

// Finding 9: several tours by construction are made (distinct, from random starts), not a
// "Failed after 1 attempt ... written" with exit 1.
#[test]
fn several_tours_by_construction_are_made() {
    let wd = WorkDir::new();
    let out = wd
        .generate(&[
            "--tours",
            "3",
            "--method",
            "construct",
            "--seed",
            "4",
            "-o",
            "t.json",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("3 tours").and(predicate::str::contains("Failed").not()))
        .get_output()
        .stdout
        .clone();
    assert!(!out.is_empty());
    let v: Value = serde_json::from_str(&wd.read("t.json")).unwrap();
    let paths: std::collections::HashSet<String> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["path"].to_string())
        .collect();
    assert_eq!(paths.len(), 3, "three distinct tours");
    no_temp_files(&wd);
}

// Finding 10: no practice board for a board without a tour.
#[test]
fn template_refuses_boards_without_a_tour() {
    let wd = WorkDir::new();
    for size in ["3", "2"] {
        wd.cmd("template", &["--size", size])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("no knight's tour exists"));
    }
    wd.cmd("template", &["--rows", "3", "--cols", "4"])
        .assert()
        .success();
    assert_eq!(wd.files(), ["knights-tour-template.xlsx"]);
}

// Finding 11: a reader that goes away is no panic.
#[test]
fn a_closed_pipe_ends_quietly() {
    let wd = WorkDir::new();
    for args in [
        &["--size", "8", "--json", "-o", "x.xlsx"][..],
        &["--size", "300", "--format", "csv", "-o", "-"][..],
        &["--size", "5", "--all", "--format", "json", "-o", "-"][..],
    ] {
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("knights-tour"))
            .current_dir(wd.root())
            .arg("generate")
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take()); // the reader is gone before anything is written
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(
            out.status.code().is_some_and(|c| c <= 1),
            "{args:?}: {stderr}"
        );
    }
}

// Finding 12: the same flags and seed give the same tour in every format.
#[test]
fn the_same_flags_give_the_same_tour_in_every_format() {
    let wd = WorkDir::new();
    for flags in [
        &["--size", "8", "--seed", "5"][..],
        &["--rows", "6", "--cols", "9", "--seed", "9", "--closed"][..],
        &["--size", "120", "--seed", "1"][..],
        &["--size", "120", "--seed", "1", "--tiebreak", "center"][..],
    ] {
        let _ = std::fs::remove_dir_all(wd.root()).map(|()| std::fs::create_dir(wd.root()));
        for out in ["t.xlsx", "t.csv", "t.json", "t.txt"] {
            let mut args = flags.to_vec();
            args.extend(["-o", out]);
            wd.generate(&args).assert().success();
        }
        let xlsx = xlsx_grid(&wd.path("t.xlsx"));
        let csv = csv_grid(&wd.read("t.csv"));
        assert_eq!(xlsx, csv, "{flags:?}: xlsx and csv");
        assert_eq!(text_grid(&wd.read("t.txt")), csv, "{flags:?}: text");
        if !flags.contains(&"120") {
            let v: Value = serde_json::from_str(&wd.read("t.json")).unwrap();
            assert_eq!(json_grid(&v), csv, "{flags:?}: json");
        }
    }
}

// Constraints on a board too big for any constraint search (a closed tour on over four million
// squares) end at once with a message saying so, exit 1 (nothing is proved), and no file;
// before, the exhaustive search's plan was built there (9 GB on 10000x10000).
#[test]
fn constraints_on_a_board_too_big_for_the_searches_say_so_at_once() {
    let wd = WorkDir::new();
    std::fs::write(wd.path("c.txt"), "5 c3\n").unwrap();
    let start = std::time::Instant::now();
    wd.generate(&[
        "--rows",
        "2002",
        "--cols",
        "2000",
        "--closed",
        "--constraints",
        "c.txt",
        "-o",
        "t.csv",
    ])
    .assert()
    .code(1)
    .stdout(predicate::str::contains(
        "no search here takes the request on a board this large",
    ));
    assert!(start.elapsed().as_secs() < 10);
    assert_eq!(wd.files(), ["c.txt"]);
}

// Issue 9: a constraints file larger than the board could need is refused at once.
#[test]
fn an_oversized_constraints_file_is_refused_at_once() {
    let wd = WorkDir::new();
    std::fs::write(wd.path("big.txt"), "# comment\n".repeat(100_000)).unwrap();
    wd.generate(&["--size", "6", "--constraints", "big.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "larger than a 6x6 board could need",
        ));
    if cfg!(unix) {
        let start = std::time::Instant::now();
        wd.generate(&["--size", "6", "--constraints", "/dev/zero"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("/dev/zero"));
        assert!(start.elapsed().as_secs() < 10);
    }
    assert_eq!(wd.files(), ["big.txt"]);
}

// Issue 20, finding 1: a text output into a folder nobody may write in names the file and the
// cause, before any work, in every format (it said "the solver did not run").
#[cfg(target_os = "linux")]
#[test]
fn an_unwritable_folder_is_named_in_every_format() {
    let wd = WorkDir::new();
    for (out, extra) in [
        ("/sys/t.csv", &[][..]),
        ("/sys/t.json", &[][..]),
        ("/sys/t.txt", &[][..]),
        ("/sys/t.xlsx", &[][..]),
        ("/sys/a.csv", &["--all", "--size", "5"][..]),
    ] {
        let mut args = vec!["-o", out];
        args.extend(extra);
        wd.generate(&args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!("{out}: ")))
            .stderr(predicate::str::contains("solver").not());
    }
}

// Issue 20, finding 3: a seed drawn at random survives JSON readers that keep numbers as
// doubles (JavaScript, older jq), and the seed read back repeats the run.
#[test]
fn a_random_seed_read_from_the_json_repeats_the_run() {
    let wd = WorkDir::new();
    for i in 0..12 {
        let out = format!("t{i}.csv");
        let json = wd
            .generate(&["--size", "5", "--json", "-o", &out])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let v: Value = serde_json::from_slice(&json).unwrap();
        let seed = v["seed"].as_u64().expect("a whole seed");
        // What a double-based reader makes of it.
        let as_double = v["seed"].as_f64().unwrap();
        assert_eq!(
            as_double as u64, seed,
            "seed {seed} is not exact as a double"
        );
        let again = format!("again{i}.csv");
        wd.generate(&[
            "--size",
            "5",
            "-o",
            &again,
            "--seed",
            &format!("{as_double:.0}"),
        ])
        .assert()
        .success();
        assert_eq!(wd.read(&out), wd.read(&again), "seed {seed}");
    }
}

// Issue 20, finding 6: a Warnsdorff attempt that repeats an earlier tour is no sheet of its
// own: `--tours 70` on 5x5 gave 116 sheets, 46 of them "failed" repeats.
#[test]
fn repeated_tours_are_not_written_as_failed_attempts() {
    let wd = WorkDir::new();
    let out = wd
        .generate(&[
            "--tours", "70", "--size", "5", "--start", "a1", "--seed", "1", "--json", "-o",
            "t.xlsx",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: Value = serde_json::from_slice(&out).unwrap();
    let sheets = v["sheets"].as_array().unwrap();
    let repeats = sheets
        .iter()
        .filter(|s| s["note"].as_str().is_some_and(|n| n.contains("same tour")))
        .count();
    assert_eq!(repeats, 0, "{}", v["message"]);
    assert_eq!(sheets.len(), 70, "{}", v["message"]);
    let mut wb: Xlsx<_> = open_workbook(wd.path("t.xlsx")).unwrap();
    let range = wb.worksheet_range("Tour 1").unwrap();
    let title = range
        .rows()
        .flatten()
        .find_map(|c| match c {
            Data::String(s) if s.starts_with("Tour 1 of") => Some(s.clone()),
            _ => None,
        })
        .unwrap();
    assert!(title.starts_with("Tour 1 of 70:"), "{title}");
}

// Issue 20, finding 8: each message says what happened.
#[test]
fn a_closed_request_that_fails_says_no_closed_tour() {
    let wd = WorkDir::new();
    let out = wd
        .generate(&[
            "--method",
            "warnsdorff",
            "--closed",
            "--size",
            "6",
            "--attempts",
            "1",
            "--seed",
            "1",
            "--json",
            "-o",
            "c.xlsx",
        ])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let v: Value = serde_json::from_slice(&out).unwrap();
    // The attempt written is a complete open tour: the message must not deny it.
    assert_eq!(v["sheets"][0]["complete"], true);
    let msg = v["message"].as_str().unwrap();
    assert!(msg.contains("no closed 6x6 tour found"), "{msg}");
}

#[test]
fn a_search_stopped_by_the_timeout_before_any_tour_says_one_may_exist() {
    // 100x100: a 30x30 request like this one was met within the millisecond a third of the
    // time once the rotation search alternated ways, so the test failed at random.
    let wd = WorkDir::new();
    constraints_from_a_tour(&wd, "100", |_| [1, 500, 2000, 4000, 7777, 10000].to_vec());
    for out in ["x.xlsx", "x.csv"] {
        let said = wd
            .generate(&[
                "--size",
                "100",
                "--constraints",
                "c.txt",
                "--timeout",
                "0.001",
                "-o",
                out,
            ])
            .assert()
            .code(1)
            .get_output()
            .stdout
            .clone();
        let said = String::from_utf8(said).unwrap();
        assert!(
            said.contains(
                "no 100x100 tour meeting 6 constraints found within the time limit; one may exist"
            ),
            "{said}"
        );
        assert!(!said.contains("0 tours"), "{said}");
    }
}

#[test]
fn fewer_tours_than_asked_is_said_in_plain_words() {
    let wd = WorkDir::new();
    let said = wd
        .generate(&[
            "--tours", "400", "--size", "5", "--start", "a1", "-o", "t.json",
        ])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let said = String::from_utf8(said).unwrap();
    assert!(
        said.contains("(only 304 tours meet the request, by exhaustive search)"),
        "{said}"
    );
    assert!(!said.contains("))"), "{said}");
    wd.generate(&[
        "--all", "--limit", "1", "--size", "5", "--start", "a1", "-o", "a.json",
    ])
    .assert()
    .success()
    .stdout(predicate::str::contains("Found 1 directed tour on 5x5"));
}

#[test]
fn the_seed_is_printed_for_a_workbook_and_not_for_all() {
    let wd = WorkDir::new();
    wd.generate(&["--size", "5"])
        .assert()
        .success()
        .stderr(predicate::str::is_match(r"^seed \d+: repeat with --seed \d+\n$").unwrap());
    let out = wd
        .generate(&[
            "--all", "--size", "5", "--start", "a1", "--json", "-o", "a.json",
        ])
        .assert()
        .success()
        .stderr(predicate::str::contains("seed").not())
        .get_output()
        .stdout
        .clone();
    let v: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["seed"], Value::Null, "--all makes no random choice");
    assert_eq!(
        v["tiebreak"],
        Value::Null,
        "--all makes no Warnsdorff attempt"
    );
    let tours: Value = serde_json::from_str(&wd.read("a.json")).unwrap();
    assert!(tours[0].get("seed").is_none(), "{}", tours[0]);
}

#[test]
fn an_all_stream_whose_reader_leaves_ends_well() {
    let wd = WorkDir::new();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("knights-tour"))
        .current_dir(wd.root())
        .args([
            "generate", "--all", "--size", "5", "--format", "json", "-o", "-",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read a little, as `| head -c 100` does, then go away.
    let mut first = [0u8; 100];
    std::io::Read::read_exact(child.stdout.as_mut().unwrap(), &mut first).unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("until its reader closed it"), "{stderr}");
}

#[test]
fn a_dense_request_on_a_big_board_stops_at_the_timeout() {
    // 1,000 constraints on 200x200: the joint search's first matching of the squares to the
    // pieces took 3.4 s (release) before it read the clock, and `--timeout 1` ran 12 s.
    let wd = WorkDir::new();
    constraints_from_a_tour(&wd, "200", |n| (1..=n).step_by(40).collect());
    let started = std::time::Instant::now();
    let out = wd
        .generate(&[
            "--size",
            "200",
            "--constraints",
            "c.txt",
            "--timeout",
            "1",
            "-o",
            "x.csv",
        ])
        .output()
        .unwrap();
    let took = started.elapsed();
    let said = String::from_utf8_lossy(&out.stdout);
    // Either answered or given up honestly, but not long after the second asked for (a debug
    // build takes 2.5 s here; before, a release build took 12 s).
    assert!(
        out.status.code() == Some(0) || said.contains("time limit"),
        "{said}"
    );
    assert!(took.as_secs_f64() < 10.0, "took {took:?}");
}

/// `c.txt` in `wd`: "move k on X" constraints taken from the tour `generate --seed 3` writes
/// on a `size` board, at the move numbers `moves` picks (given the tour's length).
fn constraints_from_a_tour(wd: &WorkDir, size: &str, moves: impl Fn(usize) -> Vec<usize>) {
    wd.generate(&["--size", size, "--seed", "3", "-o", "t.json"])
        .assert()
        .success();
    let v: Value = serde_json::from_str(&wd.read("t.json")).unwrap();
    let path = v["path"].as_array().unwrap();
    let lines: String = moves(path.len())
        .iter()
        .map(|&k| format!("{k} {}\n", path[k - 1].as_str().unwrap()))
        .collect();
    std::fs::write(wd.path("c.txt"), lines).unwrap();
}
