//! `knights-tour puzzle` end to end (issue 18): the workbook read back by independent readers
//! (calamine for the cells, zip for the sheet and style XML), the numbers given locked under
//! sheet protection and the rest open, the answer re-proved unique by a plain exhaustive count,
//! the answer typed in verifying open or closed, typed mistakes named, an unfilled puzzle read
//! as `unfinished`, the text formats, and the flags' refusals.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use calamine::{open_workbook_auto, Data, Reader};
use knights_tour::board::Board;
use knights_tour::solve::{backtrack, Budget, Constraint, Request};
use knights_tour::verify::{verify_path, ProblemKind, Verdict, VerifyOptions};
use knights_tour::workbook::cellref::CellRef;
use predicates::prelude::*;
use predicates::str::contains;
use serde_json::Value;

use crate::support::cmd;
use crate::support::typing::type_into;

/// Run `puzzle` with `args` in `dir`; it must succeed.
fn puzzle(dir: &Path, args: &[&str]) {
    cmd()
        .current_dir(dir)
        .arg("puzzle")
        .args(args)
        .assert()
        .success()
        .stdout(contains("proved unique"))
        .stderr(contains("seed"));
}

/// The JSON document of `puzzle ... -o NAME.json`.
fn json(dir: &Path, args: &[&str], name: &str) -> Value {
    let mut all = args.to_vec();
    all.extend(["-o", name]);
    puzzle(dir, &all);
    serde_json::from_str(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap()
}

/// One puzzle of the JSON document: (move, square) given, and the answer's squares in order.
struct Given {
    board: Board,
    given: Vec<(u32, String)>,
    path: Vec<String>,
    closed: bool,
}

fn given(doc: &Value, i: usize) -> Given {
    let board = Board::new(
        doc["board"]["rows"].as_u64().unwrap() as u32,
        doc["board"]["cols"].as_u64().unwrap() as u32,
    )
    .unwrap();
    let p = &doc["puzzles"][i];
    Given {
        board,
        given: p["given"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| {
                (
                    g["move"].as_u64().unwrap() as u32,
                    g["square"].as_str().unwrap().to_string(),
                )
            })
            .collect(),
        path: p["solution"]["path"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect(),
        closed: p["solution"]["closed"].as_bool().unwrap(),
    }
}

/// The cell of square `name` on a sheet whose board's top-left square is at C3.
fn cell_of(board: Board, name: &str) -> CellRef {
    let sq = board.parse_square(name).unwrap();
    CellRef::new(2 + sq.row, 2 + sq.col)
}

/// Every number on sheet `sheet`, by cell.
fn numbers(path: &Path, sheet: &str) -> HashMap<CellRef, u32> {
    let mut wb = open_workbook_auto(path).unwrap();
    let range = wb.worksheet_range(sheet).unwrap();
    let (r0, c0) = range.start().unwrap_or((0, 0));
    range
        .used_cells()
        .filter_map(|(r, c, d)| match d {
            Data::Float(v) => Some((CellRef::new(r as u32 + r0, c as u32 + c0), *v as u32)),
            _ => None,
        })
        .collect()
}

fn part(path: &Path, name: &str) -> String {
    let mut zip = zip::ZipArchive::new(std::fs::File::open(path).unwrap()).unwrap();
    let mut xml = String::new();
    zip.by_name(name).unwrap().read_to_string(&mut xml).unwrap();
    xml
}

/// Whether each cell style (`s` index) of the workbook is locked.
fn locked_styles(path: &Path) -> Vec<bool> {
    let styles = part(path, "xl/styles.xml");
    let xfs = &styles[styles.find("<cellXfs").unwrap()..styles.find("</cellXfs>").unwrap()];
    xfs.split("<xf ")
        .skip(1)
        .map(|xf| {
            let xf = &xf[..xf.find("</xf>").or_else(|| xf.find("/>")).unwrap()];
            !xf.contains("locked=\"0\"")
        })
        .collect()
}

/// The style index of `cell` in a sheet's XML.
fn style_of(xml: &str, cell: CellRef) -> usize {
    let open = format!("<c r=\"{cell}\"");
    let at = xml.find(&open).unwrap_or_else(|| panic!("no {cell}"));
    let rest = &xml[at..];
    let head = &rest[..rest.find('>').unwrap()];
    head.split("s=\"")
        .nth(1)
        .map_or(0, |s| s[..s.find('"').unwrap()].parse().unwrap())
}

/// The verdicts of every board in `path`, by sheet.
fn verdicts(path: &Path) -> Vec<(String, Vec<Verdict>)> {
    let report = verify_path(path, &VerifyOptions::default());
    assert!(report.readable, "{:?}", report.error);
    report
        .sheets
        .iter()
        .map(|s| {
            (
                s.sheet.clone(),
                s.boards.iter().map(|b| b.verdict).collect(),
            )
        })
        .collect()
}

fn complete_verdict(closed: bool) -> Verdict {
    if closed {
        Verdict::Closed
    } else {
        Verdict::Open
    }
}

#[test]
fn the_workbook_locks_the_numbers_given_and_holds_the_answers() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let args = ["--size", "6", "--count", "2", "--seed", "5"];
    let doc = json(d, &args, "p.json");
    let mut xlsx_args = args.to_vec();
    xlsx_args.extend(["-o", "p.xlsx"]);
    puzzle(d, &xlsx_args);
    let path = d.join("p.xlsx");
    let wb = open_workbook_auto(&path).unwrap();
    assert_eq!(wb.sheet_names(), ["Puzzle 1", "Puzzle 2", "Solutions"]);
    let locked = locked_styles(&path);
    for i in 0..2 {
        let g = given(&doc, i);
        assert_eq!(g.given.len(), 11, "medium: 30% of 36 squares");
        // Exactly the numbers given are on the sheet, where the JSON says.
        let on_sheet = numbers(&path, &format!("Puzzle {}", i + 1));
        let want: HashMap<CellRef, u32> = g
            .given
            .iter()
            .map(|(k, sq)| (cell_of(g.board, sq), *k))
            .collect();
        assert_eq!(on_sheet, want);
        // Protected without a password; the numbers given locked, every other square open,
        // with the template's checks on the board.
        let xml = part(&path, &format!("xl/worksheets/sheet{}.xml", i + 1));
        let protection = &xml[xml.find("<sheetProtection").unwrap()..];
        let protection = &protection[..protection.find("/>").unwrap()];
        assert!(!protection.contains("password"), "{protection}");
        for sq in g.board.squares() {
            let cell = CellRef::new(2 + sq.row, 2 + sq.col);
            assert_eq!(
                locked[style_of(&xml, cell)],
                want.contains_key(&cell),
                "{cell}"
            );
        }
        assert!(xml.contains("<dataValidation ") && xml.contains("sqref=\"C3:H8\""));
        assert_eq!(xml.matches("<cfRule").count(), 3);
    }
    // The answers: one board each on the Solutions sheet, the JSON's tours.
    let answers = verify_path(&path, &VerifyOptions::default());
    let solutions = answers
        .sheets
        .iter()
        .find(|s| s.sheet == "Solutions")
        .unwrap();
    assert_eq!(solutions.boards.len(), 2);
    for (i, b) in solutions.boards.iter().enumerate() {
        let g = given(&doc, i);
        assert_eq!(b.verdict, complete_verdict(g.closed));
        let read: Vec<String> = b
            .tour
            .as_ref()
            .unwrap()
            .squares()
            .map(|s| g.board.algebraic(s))
            .collect();
        assert_eq!(read, g.path, "answer {}", i + 1);
    }
    // Unfilled, each puzzle sheet is unfinished (no mistake nobody typed).
    assert_eq!(
        verdicts(&path),
        vec![
            ("Puzzle 1".to_string(), vec![Verdict::Unfinished]),
            ("Puzzle 2".to_string(), vec![Verdict::Unfinished]),
            (
                "Solutions".to_string(),
                (0..2)
                    .map(|i| complete_verdict(given(&doc, i).closed))
                    .collect()
            ),
        ]
    );
    cmd()
        .arg("verify")
        .arg(&path)
        .assert()
        .code(1)
        .stdout(contains("Puzzle 1: unfinished (11 of 36 squares visited"));
}

#[test]
fn each_answer_is_the_only_one_by_a_plain_exhaustive_count() {
    let dir = tempfile::tempdir().unwrap();
    for (args, name) in [
        (
            &["--size", "6", "--difficulty", "hard", "--seed", "2"][..],
            "h.json",
        ),
        (
            &["--rows", "5", "--cols", "6", "--clues", "9", "--seed", "3"][..],
            "c.json",
        ),
        (
            &["--size", "8", "--difficulty", "easy", "--seed", "4"][..],
            "e.json",
        ),
    ] {
        let doc = json(dir.path(), args, name);
        let g = given(&doc, 0);
        let req = Request {
            constraints: g
                .given
                .iter()
                .map(|(k, sq)| Constraint {
                    move_number: *k,
                    square: g.board.parse_square(sq).unwrap(),
                })
                .collect(),
            ..Request::open(g.board)
        };
        let mut found = Vec::new();
        let plain = backtrack::enumerate(&req, Some(2), &Budget::nodes(2_000_000_000), |t| {
            found.push(
                t.squares()
                    .map(|s| g.board.algebraic(s))
                    .collect::<Vec<_>>(),
            );
            true
        });
        assert!(plain.exhaustive, "{args:?}: the plain count did not finish");
        assert_eq!(found, vec![g.path.clone()], "{args:?}");
    }
}

/// A puzzle on 6x6 whose answer is closed (`true`) or open, by trying seeds.
fn puzzle_with(dir: &Path, closed: bool) -> (PathBuf, Given) {
    for seed in 1..200 {
        let name = format!("s{seed}");
        let seed = seed.to_string();
        let doc = json(
            dir,
            &["--size", "6", "--seed", &seed],
            &format!("{name}.json"),
        );
        let g = given(&doc, 0);
        if g.closed == closed {
            let path = dir.join(format!("{name}.xlsx"));
            puzzle(
                dir,
                &[
                    "--size",
                    "6",
                    "--seed",
                    &seed,
                    "-o",
                    &format!("{name}.xlsx"),
                ],
            );
            return (path, g);
        }
    }
    panic!("no 6x6 puzzle with a closed={closed} answer in 200 seeds");
}

/// The answer's numbers on the squares not given.
fn answer_values(g: &Given) -> HashMap<CellRef, String> {
    let given: Vec<&String> = g.given.iter().map(|(_, sq)| sq).collect();
    g.path
        .iter()
        .enumerate()
        .filter(|(_, sq)| !given.contains(sq))
        .map(|(i, sq)| (cell_of(g.board, sq), (i + 1).to_string()))
        .collect()
}

#[test]
fn a_filled_puzzle_verifies_and_typed_mistakes_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for closed in [false, true] {
        let d = &d.join(if closed { "closed" } else { "open" });
        std::fs::create_dir(d).unwrap();
        let (path, g) = puzzle_with(d, closed);
        let filled = d.join(format!("filled-{closed}.xlsx"));
        let values = answer_values(&g);
        type_into(&path, &filled, &values, &[]);
        let v = verdicts(&filled);
        assert_eq!(v[0].1, vec![complete_verdict(closed)], "{v:?}");

        // Typed mistakes, each named as on any board.
        let sq = |k: usize| cell_of(g.board, &g.path[k - 1]);
        let typed: Vec<CellRef> = values.keys().copied().collect();
        let problems = |values: &HashMap<CellRef, String>, name: &str| {
            let out = d.join(name);
            type_into(&path, &out, values, &[]);
            let report = verify_path(&out, &VerifyOptions::default());
            let b = &report.sheets[0].boards[0];
            (
                b.verdict,
                b.problems.iter().map(|p| p.kind).collect::<Vec<_>>(),
            )
        };
        // A number typed twice (so another is missing).
        let mut twice = values.clone();
        let (a, b) = (typed[0], typed[1]);
        twice.insert(b, values[&a].clone());
        let (verdict, kinds) = problems(&twice, "twice.xlsx");
        assert_eq!(verdict, Verdict::Invalid);
        assert!(kinds.contains(&ProblemKind::DuplicateNumber), "{kinds:?}");
        assert!(kinds.contains(&ProblemKind::MissingNumber), "{kinds:?}");
        // Two typed numbers swapped: jumps that are not knight's moves.
        let (k, next) = (1..36)
            .find(|&k| values.contains_key(&sq(k)) && values.contains_key(&sq(k + 1)))
            .map(|k| (sq(k), sq(k + 1)))
            .unwrap();
        let mut swapped = values.clone();
        swapped.insert(k, values[&next].clone());
        swapped.insert(next, values[&k].clone());
        let (verdict, kinds) = problems(&swapped, "swapped.xlsx");
        assert_eq!(verdict, Verdict::Invalid);
        assert!(kinds.contains(&ProblemKind::NotAKnightMove), "{kinds:?}");
        // One square left empty: unfinished, not a mistake.
        let mut one_left = values.clone();
        one_left.remove(&a);
        assert_eq!(
            problems(&one_left, "one-left.xlsx"),
            (Verdict::Unfinished, vec![])
        );
        // A wrong number in an empty square that breaks the path.
        let mut wrong = one_left.clone();
        let far = (1..=36)
            .map(|k| k.to_string())
            .find(|k| *k != values[&a] && !values.values().any(|v| v == k))
            .unwrap_or_else(|| values[&typed[2]].clone());
        wrong.insert(a, far);
        let (verdict, _) = problems(&wrong, "wrong.xlsx");
        assert_eq!(verdict, Verdict::Invalid);
    }
}

#[test]
fn csv_json_and_text_give_the_numbers_given_and_the_answer() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let doc = json(d, &["--size", "5", "--seed", "11"], "p.json");
    let g = given(&doc, 0);
    puzzle(d, &["--size", "5", "--seed", "11", "-o", "p.csv"]);
    let csv = std::fs::read_to_string(d.join("p.csv")).unwrap();
    let blocks: Vec<&str> = csv.split("\n\n").collect();
    assert_eq!(blocks.len(), 2, "{csv}");
    assert!(blocks[0].starts_with("Knight's tour puzzle 1 ("), "{csv}");
    assert!(blocks[1].starts_with("Answer to puzzle 1\n"), "{csv}");
    let numbers_in = |block: &str| -> Vec<u32> {
        block
            .split([',', '\n'])
            .filter_map(|f| f.trim().parse().ok())
            .collect()
    };
    let mut given_numbers: Vec<u32> = g.given.iter().map(|(k, _)| *k).collect();
    let mut in_csv = numbers_in(blocks[0]);
    given_numbers.sort_unstable();
    in_csv.sort_unstable();
    assert_eq!(in_csv, given_numbers);
    assert_eq!(numbers_in(blocks[1]).len(), 25);
    // verify reads every format back: the puzzle unfinished, the answer the tour it is.
    puzzle(d, &["--size", "5", "--seed", "11", "-o", "p.txt"]);
    for name in ["p.csv", "p.json", "p.txt"] {
        let v: Vec<Verdict> = verdicts(&d.join(name))
            .into_iter()
            .flat_map(|(_, b)| b)
            .collect();
        // CSV has no labels: a sparse puzzle's grid may not be taken for a board at all.
        let want: &[Verdict] = if name == "p.csv" && v.len() == 1 {
            &[complete_verdict(g.closed)]
        } else {
            &[Verdict::Unfinished, complete_verdict(g.closed)]
        };
        assert_eq!(v, want, "{name}");
    }
    // Text on standard output: the numbers given with dots, then the answer.
    let out = cmd()
        .current_dir(d)
        .args([
            "puzzle", "--size", "5", "--seed", "11", "--format", "text", "-o", "-",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text, std::fs::read_to_string(d.join("p.txt")).unwrap());
    assert!(text.starts_with(&format!(
        "Knight's tour puzzle 1 ({} of 25 squares given)\n",
        g.given.len()
    )));
    assert!(text.contains("\nAnswer to puzzle 1\n"), "{text}");
    // The same seed gives the same puzzles, in every format.
    let again = json(d, &["--size", "5", "--seed", "11"], "again.json");
    assert_eq!(doc, again);
    assert_eq!(doc["seed"], 11);
    assert_eq!(doc["difficulty"], "medium");
}

#[test]
fn flags_that_conflict_or_do_not_apply_are_usage_errors_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (args, says) in [
        (
            &["--clues", "10", "--difficulty", "easy"][..],
            "cannot be used with",
        ),
        (&["--clues", "0"][..], "--clues"),
        (&["--size", "6", "--clues", "37"][..], "1 to 36"),
        (&["--at", "B2", "-o", "p.csv"][..], "--at"),
        (&["--count", "0"][..], "--count"),
        (&["--size", "4"][..], "no puzzle"),
        (&["-o", "-"][..], "--format"),
        (&["--timeout", "0"][..], "--timeout"),
    ] {
        cmd()
            .current_dir(d)
            .arg("puzzle")
            .args(args)
            .assert()
            .code(2)
            .stderr(contains(says));
    }
    assert_eq!(std::fs::read_dir(d).unwrap().count(), 0, "nothing written");
    // An existing file is kept without --force.
    std::fs::write(d.join("keep.xlsx"), "mine").unwrap();
    cmd()
        .current_dir(d)
        .args(["puzzle", "--size", "5", "-o", "keep.xlsx"])
        .assert()
        .code(2)
        .stderr(contains("exists"));
    assert_eq!(
        std::fs::read_to_string(d.join("keep.xlsx")).unwrap(),
        "mine"
    );
}

#[test]
fn the_time_limit_gives_an_honest_no_and_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // One number given cannot pin a 6x6 tour down: no unique answer, ever.
    cmd()
        .current_dir(d)
        .args([
            "puzzle",
            "--size",
            "6",
            "--clues",
            "1",
            "--timeout",
            "0.5",
            "--seed",
            "1",
        ])
        .assert()
        .code(1)
        // Under load the run may stop early, when the rate of its first proofs shows the rest
        // cannot fit (issue 44, finding 10): either way an honest no about the time limit.
        .stderr(contains("no puzzle").and(contains("within the time limit")));
    assert_eq!(
        std::fs::read_dir(d).unwrap().count(),
        0,
        "no file, no temp file"
    );
}

/// Issue 44, finding 2: `puzzle --format text` without `-o` prints the puzzle (it said the
/// format contradicted `-o knights-tour-puzzle.xlsx`, an `-o` nobody typed); `--format xlsx`
/// writes the usual knights-tour-puzzle.xlsx.
#[test]
fn format_without_o_prints_text_formats_and_writes_the_workbook() {
    let dir = tempfile::tempdir().unwrap();
    for format in ["text", "csv", "json"] {
        cmd()
            .current_dir(dir.path())
            .args(["puzzle", "--size", "5", "--seed", "4", "--format", format])
            .assert()
            .success()
            .stdout(contains("uzzle"));
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    puzzle(
        dir.path(),
        &["--size", "5", "--seed", "4", "--format", "xlsx"],
    );
    assert!(dir.path().join("knights-tour-puzzle.xlsx").is_file());
}

/// Issue 44, finding 10: `puzzle --size 100` ran 48 s and wrote nothing. The uniqueness proofs
/// are timed as they go, and a puzzle whose remaining proofs cannot fit the time limit at that
/// rate is given up at once, saying why.
#[test]
fn a_puzzle_that_cannot_fit_the_time_limit_says_so_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let started = std::time::Instant::now();
    cmd()
        .current_dir(dir.path())
        .args(["puzzle", "--size", "100", "--seed", "1", "--timeout", "20"])
        .assert()
        .code(1)
        .stderr(contains("uniqueness proofs"))
        .stderr(contains("would take about"));
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}
