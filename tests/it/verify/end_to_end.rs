//! `knights-tour verify` end to end (exit codes, broken files, JSON shape, options) and the
//! library's `verify_grid` on generated knight paths (proptest).

use std::path::Path;

use knights_tour::board::{Board, Square};
use knights_tour::verify::{verify_grid, ProblemKind, Verdict, VerifyOptions};
use knights_tour::workbook::read::{CellValue, SheetCells};
use predicates::prelude::*;
use proptest::prelude::*;
use serde_json::Value;

use crate::support::fixture;
use crate::support::typing;
use crate::support::{cmd, json_of};

#[test]
fn complete_tours_exit_0_and_say_so() {
    cmd()
        .arg("verify")
        .arg(fixture("samples/macro_runs.xlsx"))
        .assert()
        .code(0)
        .stdout(predicate::str::contains("Sheet2: closed, 8x8 board at C3"))
        .stdout(predicate::str::contains(
            "start F5 (d6) (highlighted), end H8 (f3)",
        ));
}

#[test]
fn partial_or_invalid_sheets_exit_1_with_their_problems() {
    cmd()
        .arg("verify")
        .arg(fixture("samples/macro_runs.xlsm"))
        .assert()
        .code(1)
        .stdout(predicate::str::contains("Sheet2: partial"));
    cmd()
        .arg("verify")
        .arg(fixture("samples/invalid_b.ods"))
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "not-a-knight-move: move 42 at F5 (d6) -> move 43 at F4 (d7) is not a knight's move",
        ))
        .stdout(predicate::str::contains(
            "text-cell: D4 (c3) holds the text 'x'",
        ));
}

#[test]
fn each_broken_file_kind_exits_2_with_a_clear_error() {
    let cases = [
        ("samples/broken_zero_byte.xlsx", "empty (0 bytes)"),
        ("samples/broken_not_a_workbook.xlsx", "plain text"),
        ("samples/broken_truncated.xlsx", "cut short"),
        ("extra/encrypted.xlsx", "password-protected"),
        ("extra/word_like.xlsx", "zip archive without a workbook"),
        ("extra/png_named.xls", "not a spreadsheet"),
        // Found by the fuzzer: an OLE file whose sector chain loops (calamine grows memory
        // without bound on it, so its reader process is stopped).
        (
            "fuzz/ole_chain_loop.bin",
            "reading it needs more than 192 MB",
        ),
        (
            "fuzz/ole_chain_loop_2.bin",
            "reading it needs more than 192 MB",
        ),
    ];
    for (file, words) in cases {
        cmd()
            .arg("verify")
            .arg(fixture(file))
            .assert()
            .code(2)
            .stdout(predicate::str::contains("unreadable"))
            .stdout(predicate::str::contains(words))
            .stderr(predicate::str::contains("panicked").not());
    }
}

#[test]
fn a_missing_file_exits_2() {
    cmd()
        .args(["verify", "/nonexistent/tours.xlsx"])
        .assert()
        .code(2)
        .stdout(predicate::str::contains("cannot read the file"));
}

#[test]
fn usage_errors_exit_2() {
    cmd().arg("verify").assert().code(2);
    cmd()
        .args(["verify", "--range", "A1-H8"])
        .arg(fixture("samples/tour_5x5_A1.xlsx"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a cell range"));
    cmd()
        .args(["verify", "--json", "--quiet"])
        .arg(fixture("samples/tour_5x5_A1.xlsx"))
        .assert()
        .code(2);
}

#[test]
fn the_worst_file_decides_the_exit_code() {
    cmd()
        .arg("verify")
        .arg(fixture("samples/tour_5x5_A1.xlsx"))
        .arg(fixture("samples/invalid_a.xlsx"))
        .assert()
        .code(1);
    cmd()
        .arg("verify")
        .arg(fixture("samples/invalid_a.xlsx"))
        .arg(fixture("samples/broken_zero_byte.xlsx"))
        .assert()
        .code(2);
}

#[test]
fn quiet_prints_nothing() {
    cmd()
        .args(["verify", "--quiet"])
        .arg(fixture("samples/invalid_a.xlsx"))
        .assert()
        .code(1)
        .stdout(predicate::str::is_empty());
}

#[test]
fn sheets_are_selected_by_name_and_a_missing_one_is_an_error() {
    let f = fixture("samples/macro_runs.xlsm");
    let (doc, code) = json_of(&[
        "--sheet",
        "Sheet3",
        "--sheet",
        "Sheet1",
        f.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "Sheet2 (partial) was not asked for");
    let sheets = doc["files"][0]["sheets"].as_array().unwrap();
    let names: Vec<&str> = sheets
        .iter()
        .map(|s| s["sheet"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Sheet3", "Sheet1"]);
    assert_eq!(sheets[0]["index"], 2);
    let (doc, code) = json_of(&["--sheet", "Nope", f.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(doc["files"][0]["error"]
        .as_str()
        .unwrap()
        .contains("no sheet named 'Nope'"));
}

#[test]
fn range_skips_detection() {
    let f = fixture("samples/labeled_8x8.xlsx");
    // Including the rank labels in the range makes the board 8x9: no longer a tour.
    let (doc, code) = json_of(&["--range", "A4:I11", f.to_str().unwrap()]);
    assert_eq!(code, 1);
    let sheet = &doc["files"][0]["sheets"][0];
    assert_eq!(sheet["board"]["top_left"], "A4");
    assert_eq!(sheet["board"]["cols"], 9);
    let (doc, code) = json_of(&["--range", "B4:I11", f.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(doc["files"][0]["sheets"][0]["verdict"], "closed");
}

#[test]
fn json_has_the_documented_shape() {
    let good = fixture("samples/invalid_b.ods");
    let bad = fixture("samples/broken_zero_byte.xlsx");
    let (doc, code) = json_of(&[good.to_str().unwrap(), bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    let files = doc["files"].as_array().unwrap();
    assert_eq!(files.len(), 2);
    let f = &files[0];
    for key in ["file", "format", "readable", "error", "sheets"] {
        assert!(f.get(key).is_some(), "file report lacks {key}");
    }
    assert_eq!(f["format"], "ods");
    assert_eq!(f["readable"], true);
    assert!(f["error"].is_null());
    let swap = &f["sheets"][0];
    for key in [
        "sheet",
        "index",
        "verdict",
        "board",
        "moves",
        "start",
        "end",
        "start_highlighted",
        "problems",
    ] {
        assert!(swap.get(key).is_some(), "sheet report lacks {key}");
    }
    assert_eq!(swap["sheet"], "swap");
    assert_eq!(swap["verdict"], "invalid");
    assert_eq!(
        swap["board"],
        serde_json::json!({"top_left": "C3", "rows": 8, "cols": 8})
    );
    assert_eq!(swap["moves"], 64);
    assert_eq!(swap["start"], "C5");
    assert!(
        swap["start_highlighted"].is_null(),
        "ods fills are not read"
    );
    let p = &swap["problems"][0];
    assert_eq!(p["kind"], "not-a-knight-move");
    assert_eq!(p["cells"], serde_json::json!(["D3", "G3"]));
    assert!(p["message"].as_str().unwrap().contains("move 2 at D3"));
    let broken = &files[1];
    assert_eq!(broken["readable"], false);
    assert!(broken["error"].as_str().unwrap().contains("empty"));
    assert_eq!(broken["sheets"], serde_json::json!([]));
    // xlsx: fills are read.
    let (doc, _) = json_of(&[fixture("samples/macro_runs.xlsx").to_str().unwrap()]);
    assert_eq!(doc["files"][0]["sheets"][0]["start_highlighted"], true);
    let (doc, _) = json_of(&[fixture("samples/notes_and_empty.xlsx").to_str().unwrap()]);
    let empty = &doc["files"][0]["sheets"][2];
    assert_eq!(empty["verdict"], "no-board");
    assert!(empty["board"].is_null() && empty["start"].is_null());
}

#[test]
fn renamed_files_are_read_by_their_content() {
    for name in ["extra/xlsx_named.ods", "extra/xlsx_without_extension"] {
        let (doc, code) = json_of(&[fixture(name).to_str().unwrap()]);
        assert_eq!(code, 0, "{name}");
        assert_eq!(doc["files"][0]["format"], "xlsx", "{name}");
    }
}

// ---- verify_grid on generated paths ----

/// A random self-avoiding knight walk on a rows x cols board, at most `len` squares.
fn knight_walk(rows: u32, cols: u32, start: (u32, u32), choices: &[u8], len: usize) -> Vec<Square> {
    let board = Board::new(rows, cols).unwrap();
    let mut path = vec![Square::new(start.0 % rows, start.1 % cols)];
    let mut seen = std::collections::HashSet::from([path[0]]);
    for &pick in choices.iter().take(len.saturating_sub(1)) {
        let here = *path.last().unwrap();
        let options: Vec<Square> = board
            .knight_moves(here)
            .filter(|s| !seen.contains(s))
            .collect();
        if options.is_empty() {
            break;
        }
        let next = options[pick as usize % options.len()];
        seen.insert(next);
        path.push(next);
    }
    path
}

fn grid_of(path: &[Square], top: u32, left: u32) -> SheetCells {
    SheetCells::from_values(
        path.iter()
            .enumerate()
            .map(|(i, s)| (top + s.row, left + s.col, CellValue::Number((i + 1) as f64))),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A knight walk typed anywhere on a sheet is a partial board (or a tour if it covers the
    /// board) and the path read back is the walk.
    #[test]
    fn typed_walks_are_read_back_exactly(
        rows in 3u32..9, cols in 3u32..9, start in (0u32..9, 0u32..9),
        choices in proptest::collection::vec(any::<u8>(), 0..80),
        top in 0u32..50, left in 0u32..50,
    ) {
        let path = knight_walk(rows, cols, start, &choices, 80);
        prop_assume!(path.len() >= 2);
        let options = VerifyOptions {
            range: Some(format!(
                "{}:{}",
                knights_tour::workbook::cellref::CellRef::new(top, left),
                knights_tour::workbook::cellref::CellRef::new(top + rows - 1, left + cols - 1)
            ).parse().unwrap()),
            ..VerifyOptions::default()
        };
        let report = verify_grid("S", 0, &grid_of(&path, top, left), &options);
        let full = path.len() == (rows * cols) as usize;
        prop_assert!(
            if full { report.verdict.is_complete_tour() } else { report.verdict == Verdict::Partial },
            "{:?}", report
        );
        prop_assert!(report.problems.is_empty());
        let tour = report.tour().unwrap();
        prop_assert_eq!(tour.check(), Ok(()));
        prop_assert_eq!(tour.squares().collect::<Vec<_>>(), path.clone());
        prop_assert_eq!(report.moves, path.len());
    }

    /// Breaking one square of a walk is always caught, with the right kind, at the right cell.
    #[test]
    fn a_broken_square_is_reported_where_it_is(
        choices in proptest::collection::vec(any::<u8>(), 30..60),
        which in any::<prop::sample::Index>(),
        breakage in 0u8..3,
    ) {
        let path = knight_walk(8, 8, (0, 0), &choices, 60);
        prop_assume!(path.len() >= 10);
        let victim = path[which.index(path.len())];
        let mut cells: Vec<(u32, u32, CellValue)> = path
            .iter()
            .enumerate()
            .map(|(i, s)| (s.row, s.col, CellValue::Number((i + 1) as f64)))
            .collect();
        let (value, kind) = match breakage {
            0 => (CellValue::Text("x".into()), ProblemKind::TextCell),
            1 => (CellValue::Number(2.5), ProblemKind::NonInteger),
            _ => (CellValue::Number(1000.0), ProblemKind::OutOfRange),
        };
        for c in cells.iter_mut() {
            if (c.0, c.1) == (victim.row, victim.col) {
                c.2 = value.clone();
            }
        }
        let options = VerifyOptions { range: Some("A1:H8".parse().unwrap()), ..Default::default() };
        let report = verify_grid("S", 0, &SheetCells::from_values(cells), &options);
        prop_assert_eq!(report.verdict, Verdict::Invalid);
        let name = knights_tour::workbook::cellref::CellRef::new(victim.row, victim.col);
        prop_assert!(
            report.problems.iter().any(|p| p.kind == kind && p.cells == vec![name]),
            "{:?}", report.problems
        );
        prop_assert!(report.tour().is_none());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Any scatter of numbers, fractions and text gives a coherent report: no panic, a board
    /// exactly when the verdict is not no-board, problems only on invalid boards and only on
    /// cells inside the board, a path only for tours and failed attempts.
    #[test]
    fn any_sheet_gets_a_coherent_report(
        cells in proptest::collection::vec(
            (0u32..40, 0u32..40, prop_oneof![
                (0i64..80).prop_map(|n| CellValue::Number(n as f64)),
                Just(CellValue::Number(2.5)),
                Just(CellValue::Text("x".into())),
                (0i64..80).prop_map(|n| CellValue::Text(format!(" {n} ").into())),
            ]),
            0..200,
        )
    ) {
        let sheet = SheetCells::from_values(cells);
        let report = verify_grid("S", 0, &sheet, &VerifyOptions::default());
        prop_assert_eq!(report.board.is_none(), report.verdict == Verdict::NoBoard);
        prop_assert_eq!(report.problems.is_empty(), report.verdict != Verdict::Invalid);
        for b in &report.boards {
            prop_assert_eq!(
                b.tour.is_some(),
                matches!(b.verdict, Verdict::Open | Verdict::Closed | Verdict::Partial)
            );
            prop_assert_eq!(b.problems.is_empty(), b.verdict != Verdict::Invalid);
            let first = b.board.top_left;
            let range = knights_tour::workbook::cellref::CellRange::new(
                first,
                first.offset(b.board.rows - 1, b.board.cols - 1),
            );
            for p in &b.problems {
                for c in &p.cells {
                    prop_assert!(range.contains(*c), "{} outside {}", c, range);
                }
            }
        }
    }
}

/// `knights-tour ARGS` in `dir`, its exit code and standard output.
fn run_in(dir: &Path, args: &[&str]) -> (i32, String) {
    let out = cmd().current_dir(dir).args(args).output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// Type `values` (cell, number) into the first sheet of `src`, saved as `dst`.
fn typed(dir: &Path, src: &str, dst: &str, values: &[(&str, &str)]) {
    let values = values
        .iter()
        .map(|(c, v)| (c.parse().unwrap(), v.to_string()))
        .collect();
    typing::type_into(&dir.join(src), &dir.join(dst), &values, &[]);
}

/// Issue 44, finding 1: a board being filled in (a puzzle with one number typed twice) lists
/// its one mistake and counts the squares still empty, not 43 blank cells and 13 missing
/// numbers; its JSON says `empty_squares`.
#[test]
fn a_board_being_filled_in_lists_only_its_mistakes_and_counts_the_empty_squares() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    run_in(d, &["puzzle", "--seed", "2026", "-o", "p.xlsx"]);
    // Puzzle 1 gives 14 on g8 (I3); a8 (C3) is empty: 14 typed there too.
    typed(d, "p.xlsx", "p14.xlsx", &[("C3", "14")]);
    let (code, text) = run_in(d, &["verify", "p14.xlsx"]);
    assert_eq!(code, 1);
    assert!(
        text.contains("Puzzle 1: invalid (1 mistake, 43 squares still empty)"),
        "{text}"
    );
    assert!(
        text.contains("duplicate-number: 14 appears 2 times"),
        "{text}"
    );
    assert!(!text.contains("blank-cell"), "{text}");
    assert!(!text.contains("missing-number"), "{text}");
    let (doc, _) = json_of(&[d.join("p14.xlsx").to_str().unwrap()]);
    let board = &doc["files"][0]["sheets"][0]["boards"][0];
    assert_eq!(board["verdict"], "invalid");
    assert_eq!(board["empty_squares"], 43);
    let kinds: Vec<&str> = board["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["duplicate-number"]);
    // The class workbook marks the two 14s and nothing else, and says so.
    let (_, out) = run_in(d, &["verify", "p14.xlsx", "-o", "report.xlsx"]);
    assert!(out.contains("1 board marked"), "{out}");
    let (_, back) = run_in(d, &["verify", "--json", "report.xlsx"]);
    let back: Value = serde_json::from_str(&back).unwrap();
    let marked = back["files"][0]["sheets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["verdict"] == "invalid")
        .expect("the marked board");
    assert_eq!(marked["boards"][0]["empty_squares"], 43);
}

/// Issue 44, finding 1: moves 1-3 and 62-64 typed into a practice board with no mistake are
/// `unfinished` (exit 1), not `invalid` with 58 blank cells; on any sheet, not only a puzzle's.
#[test]
fn moves_typed_here_and_there_with_no_mistake_are_unfinished() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    run_in(d, &["template", "--size", "8", "-o", "t.xlsx"]);
    // 1-3 on a1 b3 c5 and 62-64 on d4 e6 g7, each a knight's move from the one before.
    let cells = [
        ("C10", "1"),
        ("D8", "2"),
        ("E6", "3"),
        ("F7", "62"),
        ("G5", "63"),
        ("I4", "64"),
    ];
    typed(d, "t.xlsx", "t6.xlsx", &cells);
    let (code, text) = run_in(d, &["verify", "t6.xlsx"]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains(
            "Tour: unfinished (6 of 64 squares visited, no mistake so far, 58 still empty)"
        ),
        "{text}"
    );
    assert!(!text.contains("blank-cell"), "{text}");
    // Issue 44, finding 13: a start typed without a highlight is no news on every board.
    assert!(!text.contains("(not highlighted)"), "{text}");
    // The template's board with one number typed twice: the duplicate only.
    let mut dup = cells.to_vec();
    dup.push(("J3", "2"));
    typed(d, "t.xlsx", "t7.xlsx", &dup);
    let (_, text) = run_in(d, &["verify", "t7.xlsx"]);
    assert!(
        text.contains("invalid (1 mistake, 57 squares still empty)"),
        "{text}"
    );
    let kinds = [
        "duplicate-number",
        "missing-number",
        "blank-cell",
        "not-a-knight-move",
    ];
    let listed: Vec<&str> = kinds.into_iter().filter(|k| text.contains(k)).collect();
    assert_eq!(listed, ["duplicate-number"], "{text}");
}

/// Issue 44, finding 5: `--range` without `--sheet` applies to every sheet; a sheet holding no
/// number there has no board there (a note says so), not an invalid board of text cells.
#[test]
fn a_range_for_every_sheet_leaves_sheets_without_a_number_there_alone() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let args = [
        "generate",
        "--size",
        "10",
        "--method",
        "warnsdorff",
        "--seed",
        "4",
        "-o",
        "tries.xlsx",
    ];
    run_in(d, &args);
    let (code, text) = run_in(d, &["verify", "tries.xlsx", "--range", "C3:L12"]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("Attempt 1 (stuck): partial"), "{text}");
    assert!(text.contains("Tour 2: open"), "{text}");
    assert!(!text.contains("text-cell"), "{text}");
    std::fs::write(d.join("notes.csv"), "name,class\nAnn,7b\nBen,7c\n").unwrap();
    let (_, text) = run_in(d, &["verify", "notes.csv", "--range", "A1:B3"]);
    assert!(
        text.contains("notes: no-board (the range A1:B3 holds no number"),
        "{text}"
    );
}

/// Issue 44, finding 8: a report saved into the class's folder is recognised and left out of
/// the next folder walk (said on standard error), not counted as a second copy of every board.
#[test]
fn a_report_in_the_folder_walked_is_skipped_and_said_so() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("class")).unwrap();
    std::fs::write(d.join("class/ben.csv"), "1,4,7,10\n12,8,2,5\n3,6,11,9\n").unwrap();
    run_in(
        d,
        &[
            "generate",
            "--size",
            "5",
            "--seed",
            "1",
            "-o",
            "class/ann.xlsx",
        ],
    );
    run_in(d, &["verify", "class", "-o", "class/report.xlsx"]);
    run_in(
        d,
        &[
            "verify",
            "class",
            "--format",
            "csv",
            "-o",
            "class/report.csv",
        ],
    );
    let out = cmd()
        .current_dir(d)
        .args(["verify", "class"])
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(stdout.contains("2 files, 3 boards"), "{stdout}");
    for report in ["class/report.csv", "class/report.xlsx"] {
        assert!(
            stderr.contains(&format!(
                "note: skipped {report}: a report knights-tour verify wrote"
            )),
            "{stderr}"
        );
    }
    // Named, a report is verified: the class workbook's marked boards read back.
    let (_, text) = run_in(d, &["verify", "class/report.xlsx"]);
    assert!(text.contains("ben: invalid"), "{text}");
}

/// Issue 44, finding 13: a list whose board is guessed (the smallest anchored at a1) says so
/// and how to give the real one.
#[test]
fn a_list_with_a_guessed_board_says_how_to_give_one() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("begun.csv"), "a1\nb3\nc5\nd7\n").unwrap();
    let (_, text) = run_in(dir.path(), &["verify", "begun.csv"]);
    assert!(text.contains("on a 7x4 board"), "{text}");
    assert!(text.contains("give --board-size"), "{text}");
    let (_, text) = run_in(dir.path(), &["verify", "--board-size", "8x8", "begun.csv"]);
    assert!(!text.contains("give --board-size"), "{text}");
}

/// Issue 44, finding 15: a sheet named that is not there is the one message (no "no board
/// found" before it); `--json -o rep2.csv` names the flag given (`--json`, not `--format`) and
/// its error document has no `solved`, which is generate's; standard input is `-` in the CSV
/// report, not `'-`.
#[test]
fn errors_name_what_was_typed_and_stdin_is_a_dash() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let args = [
        "generate",
        "--size",
        "10",
        "--method",
        "warnsdorff",
        "--seed",
        "4",
        "-o",
        "tries.xlsx",
    ];
    run_in(d, &args);
    let out = cmd()
        .current_dir(d)
        .args(["verify", "--sheet", "Attempt 1", "tries.xlsx"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stdout).contains("no sheet named 'Attempt 1'"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("no board found"), "{stderr}");
    let out = cmd()
        .current_dir(d)
        .args(["verify", "--json", "-o", "rep2.csv", "tries.xlsx"])
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(doc.get("solved").is_none(), "{doc}");
    let message = doc["message"].as_str().unwrap();
    assert!(message.contains("drop --json"), "{message}");
    assert!(!message.contains("--format"), "{message}");
    let csv = cmd()
        .current_dir(d)
        .args(["verify", "--format", "csv", "-"])
        .write_stdin("1,4,7,10\n12,8,2,5\n3,6,11,9\n")
        .output()
        .unwrap();
    let csv = String::from_utf8_lossy(&csv.stdout);
    assert!(csv.lines().nth(1).unwrap().starts_with("-,stdin,"), "{csv}");
}

/// Issue 44, finding 16: `--complete` with nothing to complete wrote a workbook holding only a
/// Summary sheet; now it writes nothing and says so.
#[test]
fn complete_with_no_failed_attempt_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    run_in(d, &["generate", "--seed", "1", "-o", "tours.xlsx"]);
    let (code, text) = run_in(d, &["verify", "tours.xlsx", "--complete", "done.xlsx"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("no failed attempt to complete: nothing written to done.xlsx"),
        "{text}"
    );
    assert!(!d.join("done.xlsx").exists());
}
