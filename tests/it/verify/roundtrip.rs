//! The tool reads back what it writes, also after a person types into it: every sheet of a
//! generated workbook (tour sheets are one board each; Summary is no board, the hidden Path data
//! helper is left out unless asked for by name), a
//! template with moves typed in by an independent writer (partial at the board, no problems,
//! and `--complete` completes it), and the `--complete` output itself. Plus the CLI around
//! several boards: `--format csv`, exit codes for files without a board, `--board`.

use std::collections::HashMap;
use std::path::PathBuf;

use knights_tour::verify::{verify_path, Notation, Verdict, VerifyOptions};
use knights_tour::workbook::cellref::CellRef;
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;

use crate::support::cmd;
use crate::support::fixture;
use crate::support::typing::type_into;

/// A practice board with nothing typed into it: a workbook without a board.
fn empty_template(dir: &std::path::Path) -> PathBuf {
    let path = dir.join("empty.xlsx");
    cmd()
        .arg("template")
        .arg("-o")
        .arg(&path)
        .assert()
        .success();
    path
}

#[test]
fn every_generated_sheet_reads_back_as_one_board_and_the_rest_as_none() {
    let dir = tempfile::tempdir().unwrap();
    for (i, args) in [
        vec!["--size", "5", "--attempts", "3"],
        vec!["--size", "6", "--closed"],
        vec!["--rows", "3", "--cols", "4"],
        vec!["--size", "8", "--start", "d4"],
    ]
    .iter()
    .enumerate()
    {
        let out = dir.path().join(format!("g{i}.xlsx"));
        cmd()
            .arg("generate")
            .args(args)
            .args(["--seed", "7", "-o"])
            .arg(&out)
            .assert()
            .success();
        let report = verify_path(&out, &VerifyOptions::default());
        assert!(report.readable, "{:?}", report.error);
        let mut tours = 0;
        assert!(
            report.sheets.iter().all(|s| s.sheet != "Path data"),
            "{args:?}: the hidden helper sheet is listed"
        );
        let asked = VerifyOptions {
            sheets: vec!["Path data".into()],
            ..VerifyOptions::default()
        };
        let helper = verify_path(&out, &asked);
        if helper.error.is_none() {
            assert_eq!(helper.sheets.len(), 1, "{args:?}");
            assert_eq!(helper.sheets[0].verdict, Verdict::NoBoard, "{args:?}");
        }
        for s in &report.sheets {
            if s.sheet == "Summary" {
                assert!(s.boards.is_empty(), "{args:?} {}: {:?}", s.sheet, s.boards);
                assert_eq!(s.verdict, Verdict::NoBoard);
                continue;
            }
            tours += 1;
            assert_eq!(s.boards.len(), 1, "{args:?} {}: {:?}", s.sheet, s.boards);
            let b = &s.boards[0];
            assert!(
                b.problems.is_empty(),
                "{args:?} {}: {:?}",
                s.sheet,
                b.problems
            );
            assert_ne!(b.verdict, Verdict::Invalid);
            assert_eq!(b.notation, Notation::Grid);
            assert_eq!(b.numbering_from, 1);
            assert!(b.tour.is_some());
            assert_eq!(b.start_square.is_some(), b.start.is_some());
        }
        assert!(tours >= 1, "{args:?}");
    }
}

#[test]
fn a_template_with_moves_typed_in_is_partial_at_the_board_and_completes() {
    let dir = tempfile::tempdir().unwrap();
    let template = dir.path().join("t.xlsx");
    cmd()
        .arg("template")
        .arg("-o")
        .arg(&template)
        .assert()
        .success();
    // The board is C3:J10: d4 is F7, c2 is E9, a1 is C10.
    let typed = dir.path().join("typed.xlsx");
    let moves = [("F7", 1), ("E9", 2), ("C10", 3)]
        .map(|(cell, n)| (cell.parse::<CellRef>().unwrap(), n.to_string()));
    type_into(&template, &typed, &HashMap::from(moves), &[]);
    let report = verify_path(&typed, &VerifyOptions::default());
    let s = &report.sheets[0];
    assert_eq!(s.boards.len(), 1, "{:?}", s.boards);
    let b = &s.boards[0];
    assert_eq!(b.verdict, Verdict::Partial, "{:?}", b.problems);
    assert!(b.problems.is_empty(), "{:?}", b.problems);
    // a1 still has b3 free: a tour in progress, not a knight that got stuck.
    assert_eq!(b.stuck, Some(false));
    assert_eq!(
        (b.board.top_left.to_string(), b.board.rows, b.board.cols),
        ("C3".to_string(), 8, 8)
    );
    assert_eq!(b.start_square.unwrap().to_string(), "d4");
    assert_eq!(b.end_square.unwrap().to_string(), "a1");
    assert_eq!(b.moves, 3);

    // --complete completes it, and what it writes reads back as a complete tour.
    let done = dir.path().join("done.xlsx");
    cmd()
        .arg("verify")
        .arg(&typed)
        .arg("--complete")
        .arg(&done)
        .assert()
        .code(1)
        .stdout(contains("board at C3: completed: kept moves 1-3"));
    let back = verify_path(&done, &VerifyOptions::default());
    let boards: Vec<_> = back.sheets.iter().flat_map(|s| &s.boards).collect();
    assert_eq!(boards.len(), 1, "{back:?}");
    assert!(boards[0].verdict.is_complete_tour(), "{:?}", boards[0]);
    assert_eq!(boards[0].board.top_left.to_string(), "C3");
    let tour = boards[0].tour.as_ref().unwrap();
    let kept: Vec<String> = tour
        .squares()
        .take(3)
        .map(|q| tour.board().algebraic(q))
        .collect();
    assert_eq!(kept, ["d4", "c2", "a1"]);
    assert_eq!(back.exit_code(), 0);
    let summary = back.sheets.iter().find(|s| s.sheet == "Summary").unwrap();
    assert!(summary.boards.is_empty());
}

#[test]
fn csv_has_one_row_per_board_and_one_per_file_without_boards() {
    let dir = tempfile::tempdir().unwrap();
    let empty = empty_template(dir.path());
    let out = cmd()
        .arg("verify")
        .args(["--format", "csv"])
        .arg(fixture("samples2/tries.xlsx"))
        .arg(&empty)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "file,sheet,cells,notation,verdict,rows,cols,moves,start,end,start_square,end_square,problem_count,first_problem,magic"
    );
    // tries.xlsx: three boards on 'attempts', two on 'stacked'; the template: one no-board row.
    assert_eq!(lines.len(), 1 + 5 + 1, "{text}");
    assert!(
        lines[1].contains(",attempts,B3:F7,grid,open,5,5,25,C4,B7,b4,a1,0,"),
        "{}",
        lines[1]
    );
    assert!(
        lines[2].contains(",attempts,H3:L7,grid,invalid,5,5,25,"),
        "{}",
        lines[2]
    );
    assert!(
        lines[2].contains("not-a-knight-move: move 5 at"),
        "{}",
        lines[2]
    );
    assert!(
        lines[5].contains(",stacked,A12:H19,grid,partial,8,8,54,"),
        "{}",
        lines[5]
    );
    assert!(lines[6].contains(",,,,no-board,,,0,,,,,0,"), "{}", lines[6]);
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("no board found in"));
}

#[test]
fn files_without_a_board_fail_and_complete_tours_pass() {
    let dir = tempfile::tempdir().unwrap();
    let empty = empty_template(dir.path());
    cmd()
        .arg("verify")
        .arg("--quiet")
        .arg(&empty)
        .assert()
        .code(1)
        .stdout("")
        .stderr("");
    cmd()
        .arg("verify")
        .arg(&empty)
        .assert()
        .code(1)
        .stderr(contains("no board found in"));
    // Every board a complete tour: 0, also with --json, which carries every board.
    let out = cmd()
        .arg("verify")
        .arg("--json")
        .arg(fixture("samples2/row_of_boards.xls"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let sheet = &doc["files"][0]["sheets"][0];
    let boards = sheet["boards"].as_array().unwrap();
    assert_eq!(boards.len(), 3);
    assert_eq!(boards[1]["board"]["top_left"], "H2");
    assert_eq!(boards[1]["verdict"], "closed");
    assert_eq!(boards[1]["notation"], "grid");
    assert_eq!(boards[1]["numbering_from"], 1);
    assert!(boards[1]["start_square"].is_string());
    // A grid's cells are its rectangle (the board is 6x6 at H2).
    assert_eq!(boards[1]["board"]["rows"], 6);
    assert_eq!(boards[1]["cells"], "H2:M7");
    // The sheet-level fields are the first board's.
    assert_eq!(sheet["board"], boards[0]["board"]);
    assert_eq!(sheet["start"], boards[0]["start"]);
    // A list carries its cells.
    let out = cmd()
        .arg("verify")
        .arg("--format")
        .arg("json")
        .arg(fixture("samples2/lists.xlsx"))
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let b = &doc["files"][0]["sheets"][0]["boards"][0];
    assert_eq!(b["notation"], "list");
    assert_eq!(b["cells"], "C3:C66");
    assert_eq!(b["start_square"], "h2");
}

#[test]
fn board_chooses_one_board_for_complete_and_draw() {
    let dir = tempfile::tempdir().unwrap();
    let done = dir.path().join("done.xlsx");
    cmd()
        .arg("verify")
        .arg(fixture("samples2/tries.xlsx"))
        .args(["--sheet", "stacked", "--board", "A12", "--complete"])
        .arg(&done)
        .assert()
        .code(1)
        .stdout(contains("sheet 'stacked', board at A12:"))
        .stdout(contains("board at A2:").not());
    // --board without --complete does not apply to verify: a usage error.
    cmd()
        .arg("verify")
        .arg(fixture("samples2/tries.xlsx"))
        .args(["--board", "A12"])
        .assert()
        .code(2);
    let svg = dir.path().join("n3.svg");
    cmd()
        .arg("draw")
        .arg(fixture("samples2/tries.xlsx"))
        .args(["--sheet", "attempts", "--board", "N3", "-o"])
        .arg(&svg)
        .assert()
        .success();
    assert!(svg.is_file());
    // The invalid board in the middle has no path to draw.
    cmd()
        .arg("draw")
        .arg(fixture("samples2/tries.xlsx"))
        .args(["--sheet", "attempts", "--board", "H3", "-o"])
        .arg(dir.path().join("h3.svg"))
        .assert()
        .code(2)
        .stderr(contains("invalid"));
}

/// What `generate`'s JSON says of each tour it wrote: (verdict, moves, start, end).
fn claims(json: &serde_json::Value) -> Vec<(String, u64, String, String)> {
    let tours = match json.as_array() {
        Some(list) => list.clone(),
        None => vec![json.clone()],
    };
    tours
        .iter()
        .map(|t| {
            let verdict = if t["closed"] == true {
                "closed"
            } else if t["complete"] == true {
                "open"
            } else {
                "partial"
            };
            (
                verdict.to_string(),
                t["moves"].as_u64().unwrap(),
                t["start"].as_str().unwrap().to_string(),
                t["end"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The boards `verify --json` found in a file, in reading order: (verdict, moves, start, end).
fn verified(path: &std::path::Path) -> Vec<(String, u64, String, String)> {
    let out = cmd().args(["verify", "--json"]).arg(path).output().unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let file = &doc["files"][0];
    assert_eq!(file["readable"], true, "{}: {file}", path.display());
    let mut boards = Vec::new();
    for sheet in file["sheets"].as_array().unwrap() {
        for b in sheet["boards"].as_array().unwrap() {
            assert!(
                b["problems"].as_array().unwrap().is_empty(),
                "{}: {b}",
                path.display()
            );
            boards.push((
                b["verdict"].as_str().unwrap().to_string(),
                b["moves"].as_u64().unwrap(),
                b["start_square"].as_str().unwrap().to_string(),
                b["end_square"].as_str().unwrap().to_string(),
            ));
        }
    }
    boards
}

#[test]
fn every_format_generate_writes_verifies_back_with_the_verdict_it_claims() {
    let dir = tempfile::tempdir().unwrap();
    for (i, (args, code)) in [
        (vec!["--size", "6", "--seed", "3"], 0),
        (
            vec!["--rows", "5", "--cols", "6", "--closed", "--seed", "4"],
            0,
        ),
        (vec!["--size", "5", "--tours", "3", "--seed", "5"], 0),
        // A failed attempt: Warnsdorff gets stuck after 1384 of 2500 squares with this seed.
        (
            vec![
                "--size",
                "50",
                "--method",
                "warnsdorff",
                "--attempts",
                "1",
                "--seed",
                "1",
            ],
            1,
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let write = |ext: &str| {
            let path = dir.path().join(format!("r{i}.{ext}"));
            cmd()
                .arg("generate")
                .args(&args)
                .arg("-o")
                .arg(&path)
                .assert()
                .code(code);
            path
        };
        let json = write("json");
        let claimed =
            claims(&serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap());
        assert!(!claimed.is_empty(), "{args:?}");
        for ext in ["json", "csv", "txt"] {
            let path = if ext == "json" {
                json.clone()
            } else {
                write(ext)
            };
            assert_eq!(verified(&path), claimed, "{args:?} .{ext}");
        }
        // A workbook holds every attempt, each on its sheet: the tours claimed are among its
        // boards in order (attempts that miss the request, such as an open tour when a closed
        // one is asked for, come before them), and a run without a tour holds its attempt.
        let book = verified(&write("xlsx"));
        let mut rest = book.iter();
        for tour in &claimed {
            assert!(
                rest.any(|b| b == tour),
                "{args:?} .xlsx: {tour:?} not in {book:?}"
            );
        }
        if code == 1 {
            assert!(book.iter().all(|b| b.0 == "partial"), "{args:?}: {book:?}");
        }
    }
}

/// Issue 20, finding 12: a 1x1 workbook read back as `no-board`. Its frame (the file `a`
/// above the one square, the rank `1` left of it) marks it as a board, in the workbook and in
/// the JSON and text outputs read back. (A CSV holds the bare `1` without labels, like any
/// one-number CSV: it stays no board.)
#[test]
fn a_one_square_board_reads_back_in_every_labelled_format() {
    let dir = tempfile::tempdir().unwrap();
    for ext in ["xlsx", "json", "txt"] {
        let path = dir.path().join(format!("one.{ext}"));
        cmd()
            .args(["generate", "--size", "1", "-o"])
            .arg(&path)
            .assert()
            .success();
        let one = ("open".to_string(), 1, "a1".to_string(), "a1".to_string());
        assert_eq!(verified(&path), [one], ".{ext}");
        cmd()
            .arg("verify")
            .arg(&path)
            .assert()
            .success()
            .stdout(contains("1 square visited"));
    }
    let report = verify_path(&dir.path().join("one.xlsx"), &VerifyOptions::default());
    assert_eq!(report.sheets[0].boards[0].start_highlighted, Some(true));
}
