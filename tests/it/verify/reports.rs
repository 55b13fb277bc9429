//! What `verify` reports, end to end: `partial` says "stuck" only when the knight is, several
//! files end with one totals line, the CSV columns carry the JSON report's names, and the hidden
//! helper sheets the tool writes are not listed.

use std::path::Path;

use predicates::prelude::*;
use serde_json::Value;

use crate::support::cmd;
use crate::support::fixture;
use crate::support::json_of;

/// Write one sheet of numbers (`None` blank) at A1 to `path`.
fn write_grid(path: &Path, rows: &[&[Option<i64>]]) {
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    for (r, row) in rows.iter().enumerate() {
        for (c, v) in row.iter().enumerate() {
            if let Some(v) = v {
                sheet.write_number(r as u32, c as u16, *v as f64).unwrap();
            }
        }
    }
    book.save(path).unwrap();
}

#[test]
fn partial_says_stuck_only_when_no_free_square_is_a_knights_move_away() {
    // The generator's failed attempt: the knight had nowhere to go.
    cmd()
        .arg("verify")
        .arg(fixture("samples/macro_runs.xlsm"))
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "Sheet2: partial (the knight got stuck after 58 of 64 squares)",
        ));
    // Five moves typed on a 5x5 board: from b2 the knight can still reach a4.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("five.xlsx");
    let n = None;
    write_grid(
        &path,
        &[
            &[Some(1), n, n, n, n],
            &[n, n, Some(2), n, n],
            &[n, n, n, n, Some(3)],
            &[n, Some(5), n, n, n],
            &[n, n, n, Some(4), n],
        ],
    );
    let out = cmd().arg("verify").arg(&path).assert().code(1);
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        text.contains("partial (5 of 25 squares, a tour in progress)"),
        "{text}"
    );
    assert!(!text.contains("stuck"), "{text}");
    let (doc, _) = json_of(&[path.to_str().unwrap()]);
    assert_eq!(doc["files"][0]["sheets"][0]["boards"][0]["stuck"], false);
    let (doc, _) = json_of(&[fixture("samples/macro_runs.xlsm").to_str().unwrap()]);
    assert_eq!(doc["files"][0]["sheets"][1]["boards"][0]["stuck"], true);
}

#[test]
fn several_files_end_with_one_totals_line() {
    let out = cmd()
        .arg("verify")
        .arg(fixture("samples/macro_runs.xlsm"))
        .arg(fixture("samples2/tries.xlsx"))
        .arg(fixture("samples/broken_zero_byte.xlsx"))
        .arg(fixture("samples/notes_and_empty.xlsx"))
        .assert()
        .code(2);
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let last = text.lines().last().unwrap();
    assert_eq!(
        last,
        "4 files, 9 boards: 5 open, 1 closed, 2 partial, 1 invalid; 1 file unreadable"
    );
    assert_eq!(text.matches(" files, ").count(), 1, "{text}");
    // One file: no totals line.
    cmd()
        .arg("verify")
        .arg(fixture("samples2/tries.xlsx"))
        .assert()
        .stdout(predicate::str::contains("boards:").not());
}

#[test]
fn csv_names_cells_and_squares_as_the_json_does() {
    let out = cmd()
        .arg("verify")
        .args(["--format", "csv"])
        .arg(fixture("samples/macro_runs.xlsm"))
        .arg(fixture("samples/broken_zero_byte.xlsx"))
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let first: Vec<&str> = lines.next().unwrap().split(',').collect();
    let column = |name: &str| first[header.iter().position(|h| *h == name).unwrap()];
    let (doc, _) = json_of(&[fixture("samples/macro_runs.xlsm").to_str().unwrap()]);
    let board = &doc["files"][0]["sheets"][0]["boards"][0];
    for name in [
        "start",
        "end",
        "start_square",
        "end_square",
        "cells",
        "verdict",
    ] {
        assert_eq!(board[name], column(name), "{name}");
    }
    assert_eq!(board["board"]["rows"].to_string(), column("rows"));
    assert_eq!(board["moves"].to_string(), column("moves"));
    // An unreadable file's row says so with the documented word.
    let broken = lines.last().unwrap();
    assert!(broken.contains(",unreadable,"), "{broken}");
    assert!(broken.contains("the file is empty"), "{broken}");
}

/// Issue 44, finding 13: generate's Summary is its own table of attempts, left out of the
/// report as its hidden chart data is (it said `Summary: no-board` on every generated
/// workbook); named with --sheet, both are listed.
#[test]
fn the_generators_summary_and_hidden_chart_data_are_not_listed() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("g.xlsx");
    cmd()
        .args(["generate", "--size", "6", "--seed", "2", "-o"])
        .arg(&out)
        .assert()
        .success();
    cmd()
        .arg("verify")
        .arg(&out)
        .assert()
        .stdout(predicate::str::contains("Summary").not())
        .stdout(predicate::str::contains("(not highlighted)").not())
        .stdout(predicate::str::contains("Path data").not());
    // Scripts count every sheet: the JSON still lists the Summary, as a sheet without a board.
    let json = cmd().args(["verify", "--json"]).arg(&out).output().unwrap();
    let report: Value = serde_json::from_slice(&json.stdout).unwrap();
    let summary = report["files"][0]["sheets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["sheet"] == "Summary")
        .expect("the Summary sheet is listed in JSON");
    assert_eq!(summary["verdict"], "no-board");
    cmd()
        .arg("verify")
        .args(["--sheet", "Summary"])
        .arg(&out)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("Summary: no-board"));
    // Asked for by name, it is listed.
    cmd()
        .arg("verify")
        .args(["--sheet", "Path data"])
        .arg(&out)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("Path data: no-board"));
}
