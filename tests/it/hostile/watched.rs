//! The watched reader process (issue 41): every workbook the command line reads is parsed in a
//! child process with capped memory and time. A child that runs out of either, crashes, or
//! answers nonsense is killed and its file reported unreadable with the reason in words (exit
//! 2), and the files after it are read by a new child.

#![cfg(unix)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;
use knights_tour::workbook::read::watched::{Limits, Opener};
use knights_tour::workbook::read::ReadError;
use serde_json::Value;

use crate::support::hostile_kit::*;

/// A sheet of `cells` empty `<c/>` elements after the board: slow to stream, small to store.
fn slow_workbook(path: &Path, cells: usize) {
    let head = format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet {NS}><sheetData>{}"#,
        board_rows()
    );
    let block = format!("<row>{}</row>", "<c/>".repeat(1000));
    let wb = workbook_xml(&["S"]);
    let rels = part_rels(&["worksheets/sheet1.xml".to_string()], "worksheet");
    let root = root_rels("xl/workbook.xml");
    zip_bodies(
        path,
        &[
            ("[Content_Types].xml", Body::Bytes(CONTENT_TYPES.as_bytes())),
            ("_rels/.rels", Body::Bytes(root.as_bytes())),
            ("xl/workbook.xml", Body::Bytes(wb.as_bytes())),
            ("xl/_rels/workbook.xml.rels", Body::Bytes(rels.as_bytes())),
            (
                "xl/worksheets/sheet1.xml",
                Body::Repeat {
                    head: head.as_bytes(),
                    block: block.as_bytes(),
                    times: cells / 1000,
                    tail: b"</sheetData></worksheet>",
                },
            ),
        ],
    );
}

fn board(path: &Path) {
    xlsx(path, &[("S", sheet_xml(&board_rows()))], None, None);
}

fn verify_json(files: &[&Path], env: &[(&str, &str)]) -> (i32, Value) {
    let mut cmd = Command::cargo_bin("knights-tour").unwrap();
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd
        .args(["verify", "--json"])
        .args(files)
        .timeout(Duration::from_secs(300))
        .output()
        .unwrap();
    let json = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code().unwrap_or(-1), json)
}

#[test]
fn a_reader_past_its_time_is_stopped_and_the_next_file_still_read() {
    let d = dir();
    let slow = d.path().join("slow.xlsx");
    slow_workbook(&slow, 8_000_000);
    let good = d.path().join("good.xlsx");
    board(&good);
    let (code, json) = verify_json(
        &[&slow, &good, &slow, &good],
        &[("KNIGHTS_TOUR_READ_SECONDS", "0.5")],
    );
    assert_eq!(code, 2, "{json}");
    let files = json["files"].as_array().unwrap();
    for i in [0, 2] {
        assert_eq!(files[i]["readable"], false, "{json}");
        assert_eq!(
            files[i]["error"], "reading it took more than 0.5 s",
            "{json}"
        );
        assert_eq!(files[i]["format"], "xlsx", "{json}");
    }
    for i in [1, 3] {
        assert_eq!(files[i]["readable"], true, "{json}");
        assert_eq!(files[i]["sheets"][0]["verdict"], "open", "{json}");
    }
}

#[test]
fn a_reader_out_of_memory_is_stopped_and_the_next_file_still_read() {
    let d = dir();
    // calamine reserves room for the strings a shared-string table says it holds: 24 TB.
    let hungry = d.path().join("hungry.xlsx");
    xlsx(
        &hungry,
        &[("S", sheet_xml(&board_rows()))],
        Some(sst("<si><t>a</t></si>", r#" uniqueCount="1000000000000""#)),
        None,
    );
    let good = d.path().join("good.xlsx");
    board(&good);
    let (code, json) = verify_json(&[&hungry, &good], &[]);
    assert_eq!(code, 2, "{json}");
    assert_eq!(json["files"][0]["readable"], false, "{json}");
    assert_eq!(
        json["files"][0]["error"], "reading it needs more than 192 MB",
        "{json}"
    );
    assert_eq!(json["files"][1]["sheets"][0]["verdict"], "open", "{json}");
}

#[test]
fn thousands_of_small_files_share_one_reader_and_each_gets_its_report() {
    let d = dir();
    let good = d.path().join("good.xlsx");
    board(&good);
    let bad = d.path().join("bad.xlsx");
    std::fs::write(&bad, b"PK\x03\x04 not really").unwrap();
    let mut files: Vec<PathBuf> = Vec::new();
    for i in 0..300 {
        files.push(if i % 7 == 3 {
            bad.clone()
        } else {
            good.clone()
        });
    }
    let refs: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    let (code, json) = verify_json(&refs, &[]);
    assert_eq!(code, 2);
    let reports = json["files"].as_array().unwrap();
    assert_eq!(reports.len(), 300);
    for (i, r) in reports.iter().enumerate() {
        assert_eq!(r["readable"], i % 7 != 3, "{i}: {r}");
    }
}

/// A stand-in for the reader program: a shell script, made executable.
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// What opening `file` through the stand-in reader `exe` gives.
fn open_with(exe: &Path, file: &Path) -> Result<Vec<String>, ReadError> {
    let limits = Limits {
        memory: 512 << 20,
        time: Duration::from_secs(2),
    };
    let mut opener = Opener::watched_with(exe.to_path_buf(), limits);
    opener.open(file).map(|b| b.sheet_names().to_vec())
}

fn stopped(result: Result<Vec<String>, ReadError>) -> String {
    match result {
        Err(ReadError::ReaderStopped { reason }) => reason,
        other => panic!("expected the reader to be stopped, got {other:?}"),
    }
}

#[test]
fn a_reader_that_dies_or_answers_nonsense_is_stopped_with_the_reason_in_words() {
    let d = dir();
    let file = d.path().join("any.xlsx");
    board(&file);
    // Greets, then aborts as a failed allocation does.
    let abort = script(d.path(), "abort", "printf KTR2; kill -ABRT $$");
    assert_eq!(
        stopped(open_with(&abort, &file)),
        "reading it needs more than 512 MB"
    );
    let segv = script(d.path(), "segv", "printf KTR2; kill -SEGV $$");
    assert_eq!(
        stopped(open_with(&segv, &file)),
        "the reader crashed on it (signal 11)"
    );
    let hang = script(d.path(), "hang", "printf KTR2; exec sleep 60");
    assert_eq!(
        stopped(open_with(&hang, &file)),
        "reading it took more than 2 s"
    );
    let garbage = script(d.path(), "garbage", "printf KTR2Zzzz; exec sleep 60");
    let why = stopped(open_with(&garbage, &file));
    assert!(why.contains("answer made no sense"), "{why}");
    let huge = script(
        d.path(),
        "huge",
        r"printf 'KTR2\377\377\377\377'; exec sleep 60",
    );
    let why = stopped(open_with(&huge, &file));
    assert!(why.contains("a message of 4294967295 bytes"), "{why}");
    let not_a_reader = script(d.path(), "silent", "exit 3");
    let why = stopped(open_with(&not_a_reader, &file));
    assert!(why.contains("exit code 3"), "{why}");
}

#[test]
fn the_library_reads_in_process_and_the_cli_reader_reads_the_same() {
    let d = dir();
    let file = d.path().join("board.xlsx");
    board(&file);
    let own = Opener::in_process()
        .open(&file)
        .unwrap()
        .read_sheet("S")
        .unwrap();
    let exe = PathBuf::from(env!("CARGO_BIN_EXE_knights-tour"));
    let mut watched = Opener::watched_with(exe, Limits::default());
    let theirs = watched.open(&file).unwrap().read_sheet("S").unwrap();
    assert_eq!(own, theirs);
    assert_eq!(own.cells().len(), 64);
}

/// The processes whose parent is `pid` (from /proc).
#[cfg(target_os = "linux")]
fn children_of(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(child) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // pid (comm) state ppid ...: the command may hold spaces, so split after ')'.
        let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
        let ppid = after.split_whitespace().nth(1).and_then(|p| p.parse().ok());
        if ppid == Some(pid) {
            out.push(child);
        }
    }
    out
}

/// Whether the process is gone (or a zombie waiting to be reaped).
#[cfg(target_os = "linux")]
fn gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

/// Linux kills the reader when its parent dies (`PR_SET_PDEATHSIG`).
#[cfg(target_os = "linux")]
#[test]
fn an_interrupted_verify_leaves_no_reader_running() {
    if !Path::new("/proc/self/stat").exists() {
        panic!("this test needs /proc to find the reader process");
    }
    let d = dir();
    let slow = d.path().join("slow.xlsx");
    slow_workbook(&slow, 20_000_000);
    for signal in ["-INT", "-TERM", "-KILL"] {
        let mut verify = std::process::Command::new(env!("CARGO_BIN_EXE_knights-tour"))
            .env("KNIGHTS_TOUR_READ_SECONDS", "600")
            .args(["verify", "--json"])
            .arg(&slow)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let started = std::time::Instant::now();
        let reader = loop {
            if let Some(&pid) = children_of(verify.id()).first() {
                break pid;
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "no reader process started"
            );
            std::thread::sleep(Duration::from_millis(10));
        };
        std::thread::sleep(Duration::from_millis(200)); // well into the reading
        let sent = std::process::Command::new("kill")
            .args([signal, &verify.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let status = verify.wait().unwrap();
        assert!(!status.success(), "{signal}: {status:?}");
        let waited = std::time::Instant::now();
        while !gone(reader) {
            assert!(
                waited.elapsed() < Duration::from_secs(5),
                "{signal}: the reader {reader} still runs after its parent ended"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}
