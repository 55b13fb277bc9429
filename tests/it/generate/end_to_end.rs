//! End-to-end tests of `knights-tour generate`: every flag, every bad input, the workbook read
//! back with calamine.

use std::path::Path;

use calamine::{open_workbook, Data, Reader, Xlsx};
use predicates::prelude::*;
use serde_json::Value;

use crate::support::workdir::WorkDir;

/// A worksheet's numeric cells as (row, col, value), rows/cols from 0.
fn numbers(path: &Path, sheet: &str) -> Vec<(u32, u32, i64)> {
    let mut wb: Xlsx<_> = open_workbook(path).unwrap();
    let range = wb.worksheet_range(sheet).unwrap();
    let (r0, c0) = range.start().unwrap_or((0, 0));
    let mut out = Vec::new();
    for (r, row) in range.rows().enumerate() {
        for (c, cell) in row.iter().enumerate() {
            let v = match cell {
                Data::Int(i) => *i,
                Data::Float(f) => *f as i64,
                _ => continue,
            };
            out.push((r0 + r as u32, c0 + c as u32, v));
        }
    }
    out
}

/// The sheets a person sees, in order (the hidden chart-data sheet left out).
fn sheet_names(path: &Path) -> Vec<String> {
    let wb: Xlsx<_> = open_workbook(path).unwrap();
    let hidden: Vec<String> = wb
        .sheets_metadata()
        .iter()
        .filter(|s| s.visible != calamine::SheetVisible::Visible)
        .map(|s| s.name.clone())
        .collect();
    wb.sheet_names()
        .iter()
        .filter(|n| !hidden.contains(n))
        .cloned()
        .collect()
}

/// Check the numbers on a sheet form a knight's path 1..k inside the board at (top, left).
fn assert_knight_path(
    cells: &[(u32, u32, i64)],
    top: u32,
    left: u32,
    rows: u32,
    cols: u32,
) -> usize {
    let mut by_number = std::collections::BTreeMap::new();
    for &(r, c, v) in cells {
        assert!(
            r >= top && r < top + rows && c >= left && c < left + cols,
            "number {v} outside the board at ({r},{c})"
        );
        assert!(by_number.insert(v, (r, c)).is_none(), "duplicate {v}");
    }
    let k = by_number.len() as i64;
    assert_eq!(
        by_number.keys().copied().collect::<Vec<_>>(),
        (1..=k).collect::<Vec<_>>()
    );
    for n in 1..k {
        let (a, b) = (by_number[&n], by_number[&(n + 1)]);
        let (dr, dc) = (a.0.abs_diff(b.0), a.1.abs_diff(b.1));
        assert!(
            (dr, dc) == (1, 2) || (dr, dc) == (2, 1),
            "{n} -> {} is not a knight move",
            n + 1
        );
    }
    k as usize
}

fn json(out: &[u8]) -> Value {
    serde_json::from_slice(out).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(out)))
}

#[test]
fn default_run_writes_an_8x8_workbook_and_says_so() {
    let wd = WorkDir::new();
    wd.generate(&["--seed", "1"])
        .assert()
        .success()
        .stdout(predicate::str::is_match(r"^Solved after \d+ attempts?: 8x8 (closed )?tour from [a-h][1-8] to [a-h][1-8] written to knights-tour.xlsx, found by Warnsdorff's rule\n$").unwrap());
    let path = wd.path("knights-tour.xlsx");
    let names = sheet_names(&path);
    assert_eq!(names.last().map(String::as_str), Some("Summary"));
    let last_tour = &names[names.len() - 2];
    assert!(last_tour.starts_with("Tour"), "{names:?}");
    let cells = numbers(&path, last_tour);
    assert_eq!(assert_knight_path(&cells, 2, 2, 8, 8), 64);
}

#[test]
fn same_seed_same_workbook_contents() {
    let wd = WorkDir::new();
    for name in ["a.xlsx", "b.xlsx"] {
        wd.generate(&["--size", "12", "--seed", "42", "-o", name])
            .assert()
            .success();
    }
    let (a, b) = (wd.path("a.xlsx"), wd.path("b.xlsx"));
    assert_eq!(sheet_names(&a), sheet_names(&b));
    for sheet in sheet_names(&a) {
        if sheet != "Summary" {
            assert_eq!(numbers(&a, &sheet), numbers(&b, &sheet), "{sheet}");
        }
    }
    wd.generate(&["--size", "12", "--seed", "43", "-o", "c.xlsx"])
        .assert()
        .success();
    let first = |p: &Path| numbers(p, &sheet_names(p)[0]);
    assert_ne!(
        first(&a),
        first(&wd.path("c.xlsx")),
        "another seed gives another run"
    );
}

#[test]
fn json_summary_has_the_facts() {
    let wd = WorkDir::new();
    let out = wd
        .generate(&[
            "--rows", "5", "--cols", "6", "--start", "a1", "--seed", "3", "--json",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v = json(&out);
    assert_eq!(v["solved"], true);
    assert_eq!(v["board"]["rows"], 5);
    assert_eq!(v["board"]["cols"], 6);
    assert_eq!(v["seed"], 3);
    assert_eq!(v["output"], "knights-tour.xlsx");
    let sheets = v["sheets"].as_array().unwrap();
    assert_eq!(sheets.len() as u64, v["attempts"].as_u64().unwrap());
    assert!(sheets.iter().all(|s| s["start"] == "a1"));
    assert_eq!(sheets.last().unwrap()["moves"], 30);
}

#[test]
fn impossible_boards_are_refused_with_the_theorem_and_nothing_written() {
    for size in ["1", "2", "3", "4"] {
        if size == "1" {
            continue; // a 1x1 board has its one-square tour
        }
        let wd = WorkDir::new();
        wd.generate(&["--size", size])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!(
                "tour exists on the {size}x{size} board"
            )))
            .stderr(predicate::str::contains("Cull & De Curtins"));
        assert!(wd.files().is_empty(), "{:?}", wd.files());
    }
    let wd = WorkDir::new();
    wd.generate(&["--size", "5", "--closed"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("Schwenk"));
    assert!(wd.files().is_empty());
}

#[test]
fn bad_squares_are_usage_errors() {
    let wd = WorkDir::new();
    wd.generate(&["--start", "i9"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("i9").and(predicate::str::contains("off the 8x8 board")));
    wd.generate(&["--start", "e"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("'e' is not a square"));
    wd.generate(&["--end", "0,0"]).assert().code(2);
    assert!(wd.files().is_empty());
}

#[test]
fn bad_counts_and_cells_are_usage_errors() {
    let wd = WorkDir::new();
    wd.generate(&["--attempts", "0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--attempts"));
    wd.generate(&["--tours", "0"]).assert().code(2);
    wd.generate(&["--at", "ZZZZ1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--at"));
    wd.generate(&["--size", "0"]).assert().code(2);
    wd.generate(&["--rows", "5"]).assert().code(2);
    wd.generate(&["--timeout", "-1"]).assert().code(2);
    assert!(wd.files().is_empty());
}

#[test]
fn a_board_that_does_not_fit_the_sheet_is_refused() {
    let wd = WorkDir::new();
    wd.generate(&["--rows", "5", "--cols", "16383", "--at", "C3"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("16384").or(predicate::str::contains("XFD")));
    assert!(wd.files().is_empty());
}

#[test]
fn existing_output_is_kept_without_force() {
    let wd = WorkDir::new();
    std::fs::write(wd.path("knights-tour.xlsx"), "precious").unwrap();
    wd.generate(&[]).assert().code(2).stderr(
        predicate::str::contains("already exists").and(predicate::str::contains("--force")),
    );
    assert_eq!(
        std::fs::read_to_string(wd.path("knights-tour.xlsx")).unwrap(),
        "precious"
    );
    wd.generate(&["--force", "--seed", "1"]).assert().success();
    assert_eq!(
        sheet_names(&wd.path("knights-tour.xlsx")).last().unwrap(),
        "Summary"
    );
    assert_eq!(
        wd.files(),
        ["knights-tour.xlsx"],
        "no temp files left behind"
    );
}

#[test]
fn unwritable_paths_are_reported() {
    let wd = WorkDir::new();
    wd.generate(&["-o", "no/such/folder/x.xlsx"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no/such/folder/x.xlsx"));
    std::fs::create_dir(wd.path("adir")).unwrap();
    wd.generate(&["-o", "adir", "--force"]).assert().code(2);
    // A file where a folder should be is named as such, not as a missing folder.
    std::fs::write(wd.path("afile"), "").unwrap();
    for out in ["afile/x.xlsx", "afile/x.csv"] {
        wd.generate(&["-o", out])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!(
                "{out}: afile is a file, not a folder"
            )));
    }
    wd.generate(&["-o", "no/x.csv"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "no/x.csv: its folder does not exist",
        ));
}

#[test]
fn failed_attempts_come_before_the_tour_on_100x100() {
    let wd = WorkDir::new();
    let out = wd
        .generate(&[
            "--size",
            "100",
            "--seed",
            "7",
            "--method",
            "warnsdorff",
            "--attempts",
            "30",
            "--path",
            "off",
            "--json",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v = json(&out);
    let sheets = v["sheets"].as_array().unwrap();
    assert!(
        sheets.len() > 1,
        "seed 7 fails twice at 100x100 before a tour"
    );
    assert!(sheets[..sheets.len() - 1]
        .iter()
        .all(|s| s["solved"] == false));
    let names = sheet_names(&wd.path("knights-tour.xlsx"));
    assert_eq!(names.len(), sheets.len() + 1);
    assert!(names[0].contains("stuck"), "{names:?}");
    let stuck = numbers(&wd.path("knights-tour.xlsx"), &names[0]);
    let k = assert_knight_path(&stuck, 2, 2, 100, 100);
    assert!(k < 10_000);
    assert_eq!(k as u64, sheets[0]["moves"].as_u64().unwrap());
}

#[test]
fn running_out_of_attempts_exits_1_and_still_writes_the_workbook() {
    let wd = WorkDir::new();
    // Centre ties fail from every square of a 4x10 board (0 of 20 feasible starts).
    wd.generate(&[
        "--rows",
        "4",
        "--cols",
        "10",
        "--start",
        "a1",
        "--method",
        "warnsdorff",
        "--tiebreak",
        "center",
        "--attempts",
        "2",
    ])
    .assert()
    .code(1)
    .stdout(predicate::str::starts_with("Failed after 2 attempts"));
    let names = sheet_names(&wd.path("knights-tour.xlsx"));
    assert_eq!(names.len(), 3, "{names:?}");
}

#[test]
fn auto_never_fails_where_warnsdorff_does() {
    let wd = WorkDir::new();
    wd.generate(&[
        "--rows",
        "4",
        "--cols",
        "10",
        "--start",
        "a1",
        "--tiebreak",
        "center",
        "--attempts",
        "2",
        "--json",
    ])
    .assert()
    .success();
}

#[test]
fn text_csv_and_json_formats_go_to_stdout() {
    let wd = WorkDir::new();
    let csv = wd
        .generate(&[
            "--size", "5", "--start", "a1", "--format", "csv", "-o", "-", "--seed", "2",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5);
    assert!(lines.iter().all(|l| l.split(',').count() == 5));
    assert_eq!(
        lines[4].split(',').next(),
        Some("1"),
        "a1 is the bottom-left cell"
    );
    let js = wd
        .generate(&[
            "--size", "6", "--closed", "--start", "c3", "--format", "json", "-o", "-",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v = json(&js);
    assert_eq!(v["closed"], true);
    assert_eq!(v["start"], "c3");
    assert_eq!(v["path"].as_array().unwrap().len(), 36);
    wd.generate(&["--size", "5", "--format", "text"])
        .assert()
        .success()
        .stdout(predicate::str::contains("  a  b  c  d  e"));
    assert!(wd.files().is_empty());
}

/// Issue 44, finding 2: every command's rule for `--format` without `-o`: csv, json and text
/// go to standard output, a workbook to the usual file.
#[test]
fn format_without_o_prints_text_formats_and_writes_the_workbook() {
    let wd = WorkDir::new();
    for (format, shows) in [("csv", "1,"), ("json", "\"path\""), ("text", "  a  b  c")] {
        wd.generate(&["--size", "6", "--seed", "1", "--format", format])
            .assert()
            .success()
            .stdout(predicate::str::contains(shows));
        assert!(wd.files().is_empty(), "--format {format}: {:?}", wd.files());
    }
    wd.generate(&["--size", "6", "--seed", "1", "--format", "xlsx"])
        .assert()
        .success();
    assert_eq!(wd.files(), ["knights-tour.xlsx"]);
    wd.generate(&["--format", "csv", "--json"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("give -o FILE for the tours"));
    wd.generate(&["-o", "-"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("standard output"));
}

/// Issue 44, finding 12: "moves" meant three things. A move is a jump (a closed tour of 36
/// squares has 36, the last back to the start); the squares the knight stood on are "squares
/// visited", the Summary's column too.
#[test]
fn moves_are_jumps_and_squares_visited_are_counted_apart() {
    let wd = WorkDir::new();
    wd.generate(&["--size", "6", "--closed", "--seed", "1", "-o", "c.xlsx"])
        .assert()
        .success();
    let mut wb: Xlsx<_> = open_workbook(wd.path("c.xlsx")).unwrap();
    let summary = wb.worksheet_range("Summary").unwrap();
    let header: Vec<String> = summary
        .rows()
        .find(|r| r.first() == Some(&Data::String("Sheet".into())))
        .unwrap()
        .iter()
        .map(|d| d.to_string())
        .collect();
    assert!(
        header.contains(&"Squares visited".to_string()),
        "{header:?}"
    );
    assert!(!header.contains(&"Moves".to_string()), "{header:?}");
    let tour = wb
        .sheet_names()
        .into_iter()
        .find(|n| n.starts_with("Tour"))
        .unwrap();
    let text: Vec<String> = wb
        .worksheet_range(&tour)
        .unwrap()
        .cells()
        .filter_map(|(_, _, d)| match d {
            Data::String(s) => Some(s.clone()),
            _ => None,
        })
        .collect();
    assert!(
        text.iter()
            .any(|t| t.ends_with("36 moves, the last back to the start")),
        "{text:?}"
    );
}

/// Issue 44, finding 6: an output that is a folder says so at once, not "already exists; use
/// --force" (which would not help).
#[test]
fn an_output_that_is_a_folder_says_so_without_sending_for_force() {
    let wd = WorkDir::new();
    std::fs::create_dir(wd.path("d2.xlsx")).unwrap();
    for force in [false, true] {
        let mut args = vec!["--seed", "1", "-o", "d2.xlsx"];
        if force {
            args.push("--force");
        }
        wd.generate(&args)
            .assert()
            .failure()
            .stderr(predicate::str::contains("is a folder"))
            .stderr(predicate::str::contains("--force").not());
    }
    assert!(wd.path("d2.xlsx").is_dir());
}

/// Issue 44, finding 10: `--size 16000 -o x.xlsx` ran a minute to the time limit at 2 GB and
/// wrote nothing; a request that cannot fit the memory allowed is refused at once.
#[test]
fn a_request_that_cannot_fit_in_memory_is_refused_at_once() {
    let wd = WorkDir::new();
    let started = std::time::Instant::now();
    for out in ["x.xlsx", "x.json", "x.csv"] {
        wd.generate(&["--size", "16000", "-o", out])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("256,000,000 squares"))
            .stderr(predicate::str::contains("a few hundred MB"));
    }
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
    assert!(wd.files().is_empty(), "{:?}", wd.files());
}

/// Issue 44, finding 17: a seed above 2^53 is rounded by a JSON reader in JavaScript or jq,
/// so every JSON document names it as decimal digits too (`seed_text`), exact in any reader.
#[test]
fn a_seed_above_2_53_is_written_as_text_too() {
    let wd = WorkDir::new();
    let seed = "18446744073709551557";
    let summary = json(
        &wd.generate(&["--size", "5", "--seed", seed, "--json", "-o", "t.json"])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone(),
    );
    assert_eq!(summary["seed_text"], seed);
    let tour: Value = serde_json::from_str(&wd.read("t.json")).unwrap();
    assert_eq!(tour["seed_text"], seed);
    wd.cmd("puzzle", &["--size", "5", "--seed", seed, "-o", "p.json"])
        .assert()
        .success();
    let puzzle: Value = serde_json::from_str(&wd.read("p.json")).unwrap();
    assert_eq!(puzzle["seed_text"], seed);
    wd.cmd(
        "pairs",
        &["--size", "5", "--seed", seed, "-o", "pairs.json"],
    )
    .assert()
    .success();
    let pairs: Value = serde_json::from_str(&wd.read("pairs.json")).unwrap();
    assert_eq!(pairs["seed_text"], seed);
    // verify still reads the tour back.
    wd.cmd("verify", &["t.json"]).assert().success();
}

/// Issue 44, finding 16: `--closed` and `--end` workbooks opened on "Attempt 1 (failed)";
/// they open on the tour.
#[test]
fn a_workbook_opens_on_its_tour_not_on_the_failed_attempts() {
    let wd = WorkDir::new();
    wd.generate(&["--closed", "--seed", "1", "-o", "c.xlsx"])
        .assert()
        .success();
    let names = sheet_names(&wd.path("c.xlsx"));
    let tour = names.iter().position(|n| n.starts_with("Tour")).unwrap();
    assert!(tour > 0, "{names:?}: the test wants failed attempts first");
    let mut zip = zip::ZipArchive::new(std::fs::File::open(wd.path("c.xlsx")).unwrap()).unwrap();
    let mut xml = String::new();
    std::io::Read::read_to_string(&mut zip.by_name("xl/workbook.xml").unwrap(), &mut xml).unwrap();
    assert!(xml.contains(&format!("activeTab=\"{tour}\"")), "{xml}");
}

#[test]
fn every_tiebreak_and_offset_works() {
    for tb in ["random", "center", "pohl"] {
        let wd = WorkDir::new();
        wd.generate(&[
            "--tiebreak",
            tb,
            "--at",
            "A1",
            "--seed",
            "9",
            "--start",
            "b1",
            "--method",
            "auto",
        ])
        .assert()
        .success();
        let path = wd.path("knights-tour.xlsx");
        let names = sheet_names(&path);
        let cells = numbers(&path, &names[names.len() - 2]);
        assert_knight_path(&cells, 0, 0, 8, 8);
        // b1 is the bottom row, second column: the sheet cell B8.
        assert!(cells.contains(&(7, 1, 1)), "{tb}");
    }
}

#[test]
fn several_distinct_tours() {
    let wd = WorkDir::new();
    let out = wd
        .generate(&[
            "--size", "6", "--tours", "3", "--seed", "4", "--format", "json", "-o", "-",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v = json(&out);
    let tours = v.as_array().unwrap();
    assert_eq!(tours.len(), 3);
    assert_ne!(tours[0]["path"], tours[1]["path"]);
    assert_ne!(tours[1]["path"], tours[2]["path"]);
    assert_ne!(tours[0]["path"], tours[2]["path"]);
}

#[test]
fn fixed_end_and_constraints_are_honoured() {
    let wd = WorkDir::new();
    std::fs::write(wd.path("c.txt"), "# corners\n1 a1\n10 3,3\n").unwrap();
    let out = wd
        .generate(&[
            "--constraints",
            "c.txt",
            "--end",
            "h1",
            "--format",
            "json",
            "-o",
            "-",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v = json(&out);
    assert_eq!(v["start"], "a1");
    assert_eq!(v["end"], "h1");
    assert_eq!(v["path"][9], "c6");
    std::fs::write(wd.path("bad.txt"), "1 a1\n2 q7\n").unwrap();
    wd.generate(&["--constraints", "bad.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("bad.txt").and(predicate::str::contains("line 2")));
    wd.generate(&["--constraints", "missing.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("missing.txt"));
}

#[test]
fn help_lists_the_flags() {
    let wd = WorkDir::new();
    wd.generate(&["--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("--tiebreak").and(predicate::str::contains("--attempts")));
}

/// Every workbook `generate` writes verifies with the verdicts it claims: solved sheets as
/// `open`/`closed` (as the summary says), failed attempts as `partial`, the summary as
/// `no-board`, every start square highlighted; the hidden chart data is a helper, not listed.
#[test]
fn generated_workbooks_verify_with_the_verdicts_they_claim() {
    let wd = WorkDir::new();
    let runs: [&[&str]; 4] = [
        &["--size", "8", "--seed", "3", "--tours", "4"],
        &["--size", "100", "--seed", "7", "--path", "off"],
        &["--rows", "6", "--cols", "8", "--closed", "--seed", "1"],
        &[
            "--rows",
            "4",
            "--cols",
            "10",
            "--start",
            "a1",
            "--tiebreak",
            "center",
            "--attempts",
            "2",
        ],
    ];
    for (i, args) in runs.iter().enumerate() {
        let out = format!("w{i}.xlsx");
        let summary = json(
            &wd.generate(args)
                .args(["-o", &out, "--json"])
                .assert()
                .success()
                .get_output()
                .stdout
                .clone(),
        );
        let claims = summary["sheets"].as_array().unwrap();
        let any_failed = claims.iter().any(|s| s["solved"] == false);
        let report = wd
            .cmd("verify", &["--json", &out])
            .assert()
            .code(if any_failed { 1 } else { 0 })
            .get_output()
            .stdout
            .clone();
        let report = json(&report);
        let sheets = report["files"][0]["sheets"].as_array().unwrap();
        // The Summary is generate's table of attempts: listed, quiet in the text report.
        let extra: Vec<&Value> = sheets[claims.len()..].iter().map(|s| &s["sheet"]).collect();
        assert_eq!(extra, ["Summary"], "{args:?}");
        for (claim, sheet) in claims.iter().zip(sheets) {
            let expected = match (claim["complete"].as_bool(), claim["closed"].as_bool()) {
                (Some(true), Some(true)) => "closed",
                (Some(true), _) => "open",
                _ => "partial",
            };
            assert_eq!(sheet["verdict"], expected, "{args:?} {}", sheet["sheet"]);
            assert_eq!(sheet["moves"], claim["moves"]);
            assert_eq!(sheet["start_highlighted"], true);
        }
        for extra in &sheets[claims.len()..] {
            assert_eq!(extra["verdict"], "no-board", "{args:?} {}", extra["sheet"]);
        }
    }
}

/// Parse a CSV grid into move numbers by (row, col) and check it is a complete knight's tour.
fn assert_csv_tour(text: &str, rows: u32, cols: u32) {
    let mut cells = Vec::new();
    for (r, line) in text.lines().enumerate() {
        let fields: Vec<&str> = line.split(',').collect();
        assert_eq!(fields.len() as u32, cols);
        for (c, f) in fields.iter().enumerate() {
            cells.push((r as u32, c as u32, f.parse::<i64>().unwrap()));
        }
    }
    assert_eq!(
        assert_knight_path(&cells, 0, 0, rows, cols),
        (rows * cols) as usize
    );
}

#[test]
fn big_boards_stream_as_csv_from_the_constructor() {
    let wd = WorkDir::new();
    let out = wd
        .generate(&[
            "--rows", "150", "--cols", "121", "--format", "csv", "-o", "-", "--start", "c3",
        ])
        .assert()
        .success()
        .stderr(predicate::str::contains("150x121 closed tour from c3"))
        .get_output()
        .stdout
        .clone();
    assert_csv_tour(&String::from_utf8(out).unwrap(), 150, 121);
    let v = json(
        &wd.generate(&[
            "--size", "120", "--closed", "--format", "csv", "-o", "big.csv", "--json",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone(),
    );
    assert_eq!(v["sheets"][0]["method"], "construct");
    assert_eq!(v["sheets"][0]["closed"], true);
    assert_csv_tour(
        &std::fs::read_to_string(wd.path("big.csv")).unwrap(),
        120,
        120,
    );
}

#[test]
fn all_reproduces_the_known_counts() {
    let wd = WorkDir::new();
    wd.generate(&[
        "--size",
        "5",
        "--start",
        "a5",
        "--all",
        "--format",
        "csv",
        "-o",
        "corner.csv",
    ])
    .assert()
    .success()
    .stdout(predicate::str::contains(
        "Found 304 directed tours on 5x5 (all of them)",
    ));
    let text = std::fs::read_to_string(wd.path("corner.csv")).unwrap();
    assert_eq!(text.split("\n\n").count(), 304);
    wd.generate(&["--size", "5", "--all", "--format", "csv", "-o", "all.csv"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Found 1,728 directed tours"));
    wd.generate(&[
        "--size",
        "6",
        "--closed",
        "--all",
        "--format",
        "csv",
        "-o",
        "closed.csv",
    ])
    .assert()
    .success()
    .stdout(predicate::str::contains(
        "Found 9,862 undirected closed tours on 6x6 (all of them)",
    ));
    wd.generate(&[
        "--size", "6", "--all", "--limit", "7", "--format", "json", "-o", "-",
    ])
    .assert()
    .success()
    .stderr(predicate::str::contains("Found 7 directed tours"));
}
