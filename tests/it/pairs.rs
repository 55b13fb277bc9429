//! `knights-tour pairs` end to end (issue 21): every (start, end) pair answered, every tour it
//! lists re-checked here, every "no tour" on 5x5 checked against an independent enumeration,
//! the workbook read back by `verify` with the verdicts it claims, usage errors, the time limit
//! and the seed.

use std::collections::{BTreeMap, HashSet};

use calamine::{open_workbook, Data, Reader, Xlsx};
use knights_tour::board::{Board, Square};
use knights_tour::pairs::matrix::{
    write_pairs_workbook, PairsWorkbook, MATRIX_HEADER_ROW, TOURS_FIRST_ROW,
};
use knights_tour::solve::backtrack::{enumerate, Budget};
use knights_tour::solve::pairs::{solve, Mark, PairsPlan};
use knights_tour::solve::Request;
use knights_tour::tour::Tour;
use knights_tour::verify::{verify_bytes, verify_path, Verdict, VerifyOptions};
use predicates::prelude::*;
use proptest::prelude::*;
use serde_json::Value;

use crate::support::workdir::WorkDir;

/// The JSON output of `pairs` for these flags.
fn pairs_json(w: &WorkDir, args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.extend(["-o", "p.json", "--force"]);
    w.cmd("pairs", &all).assert().success();
    serde_json::from_str(&w.read("p.json")).unwrap()
}

/// Check every pair of a `pairs` JSON document: each tour a complete tour of `board` from its
/// start to its end; return the pairs by answer word.
fn check_json(doc: &Value, board: Board) -> BTreeMap<String, Vec<(String, String)>> {
    let mut by_answer: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    let pairs = doc["pairs"].as_array().unwrap();
    let n = board.len();
    assert_eq!(
        pairs.len(),
        n * (n - 1),
        "every ordered pair of distinct squares"
    );
    let mut seen = HashSet::new();
    for p in pairs {
        let (s, e) = (p["start"].as_str().unwrap(), p["end"].as_str().unwrap());
        assert!(seen.insert((s.to_string(), e.to_string())), "{s}-{e} twice");
        let answer = p["answer"].as_str().unwrap().to_string();
        if answer == "found" {
            let squares: Vec<Square> = p["tour"]
                .as_array()
                .unwrap()
                .iter()
                .map(|q| board.parse_square(q.as_str().unwrap()).unwrap())
                .collect();
            let tour = Tour::from_squares(board, squares).unwrap();
            let req = Request {
                start: Some(board.parse_square(s).unwrap()),
                end: Some(board.parse_square(e).unwrap()),
                ..Request::open(board)
            };
            assert!(req.is_satisfied_by(&tour), "{s}-{e}");
        } else {
            assert!(p["tour"].is_null(), "{s}-{e}: {answer} with a tour");
            assert!(!p["reason"].as_str().unwrap().is_empty(), "{s}-{e}");
        }
        by_answer
            .entry(answer)
            .or_default()
            .push((s.to_string(), e.to_string()));
    }
    by_answer
}

fn count(by: &BTreeMap<String, Vec<(String, String)>>, answer: &str) -> usize {
    by.get(answer).map_or(0, Vec::len)
}

#[test]
fn eight_by_eight_answers_the_delphi_question_and_every_tour_is_rechecked() {
    let w = WorkDir::new();
    let out = w
        .cmd("pairs", &["--size", "8", "--seed", "1", "-o", "p.xlsx"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let stdout = String::from_utf8(out).unwrap();
    assert_eq!(
        stdout.lines().next().unwrap(),
        "8x8: a tour exists for all 2,048 pairs of opposite colours; none for the 1,984 of the same colour"
    );
    let board = Board::new(8, 8).unwrap();
    let doc = pairs_json(&w, &["--size", "8", "--seed", "1"]);
    let by = check_json(&doc, board);
    assert_eq!(count(&by, "found"), 2048);
    assert_eq!(count(&by, "colour"), 1984);
    assert_eq!(by.len(), 2, "{:?}", by.keys().collect::<Vec<_>>());
    for (s, e) in &by["colour"] {
        let (s, e) = (
            board.parse_square(s).unwrap(),
            board.parse_square(e).unwrap(),
        );
        assert_eq!(s.is_corner_colour(), e.is_corner_colour());
    }
    assert_eq!(doc["totals"]["found"], 2048);
    assert_eq!(doc["complete"], true);

    // The workbook read back: the matrix is no board, each row of Tours the tour it lists.
    let report = verify_path(&w.path("p.xlsx"), &VerifyOptions::default());
    let sheets: Vec<&str> = report.sheets.iter().map(|s| s.sheet.as_str()).collect();
    assert_eq!(sheets, ["Matrix", "Tours"]);
    assert_eq!(report.sheets[0].verdict, Verdict::NoBoard);
    let tours = &report.sheets[1].boards;
    assert_eq!(tours.len(), 2048);
    let json_tours: HashSet<Vec<String>> = doc["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["answer"] == "found")
        .map(|p| {
            p["tour"]
                .as_array()
                .unwrap()
                .iter()
                .map(|q| q.as_str().unwrap().to_string())
                .collect()
        })
        .collect();
    for b in tours {
        let tour = b.tour.as_ref().unwrap();
        let expected = if tour.is_closed() {
            Verdict::Closed
        } else {
            Verdict::Open
        };
        assert_eq!(b.verdict, expected);
        let names: Vec<String> = tour.squares().map(|q| board.algebraic(q)).collect();
        assert!(
            json_tours.contains(&names),
            "the same tours in every format"
        );
    }
    assert_eq!(report.exit_code(), 0);

    // The matrix holds the marks the JSON gives, starts down and ends across.
    let mut wb: Xlsx<_> = open_workbook(w.path("p.xlsx")).unwrap();
    let m = wb.worksheet_range("Matrix").unwrap();
    let cell = |r: u32, c: u32| match m.get_value((r, c)) {
        Some(Data::String(s)) => s.clone(),
        other => panic!("({r}, {c}): {other:?}"),
    };
    let order: Vec<String> = (0..64).map(|k| cell(MATRIX_HEADER_ROW, 1 + k)).collect();
    assert_eq!(
        &order[..9],
        ["a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "b1"]
    );
    let by_pair: BTreeMap<(String, String), String> = doc["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let key = (
                p["start"].as_str().unwrap().to_string(),
                p["end"].as_str().unwrap().to_string(),
            );
            (key, p["answer"].as_str().unwrap().to_string())
        })
        .collect();
    for (r, s) in order.iter().enumerate() {
        assert_eq!(&cell(MATRIX_HEADER_ROW + 1 + r as u32, 0), s);
        for (c, e) in order.iter().enumerate() {
            let glyph = cell(MATRIX_HEADER_ROW + 1 + r as u32, 1 + c as u32);
            let expected = if s == e {
                Mark::Same.glyph()
            } else if by_pair[&(s.clone(), e.clone())] == "found" {
                Mark::Found.glyph()
            } else {
                Mark::Colour.glyph()
            };
            assert_eq!(glyph, expected, "{s}-{e}");
        }
    }
    let t = wb.worksheet_range("Tours").unwrap();
    assert_eq!(
        t.get_value((TOURS_FIRST_ROW, 0)),
        Some(&Data::String("a1".into()))
    );
}

/// Every (start, end) pair joined by some open tour of `board`, by enumerating them all.
fn pairs_by_enumeration(board: Board) -> HashSet<(Square, Square)> {
    let mut joined = HashSet::new();
    let e = enumerate(&Request::open(board), None, &Budget::unlimited(), |t| {
        joined.insert((t.start().unwrap(), t.end().unwrap()));
        true
    });
    assert!(e.exhaustive);
    joined
}

#[test]
fn five_by_five_every_no_tour_is_proved_and_matches_an_enumeration_of_all_tours() {
    let w = WorkDir::new();
    let board = Board::new(5, 5).unwrap();
    let doc = pairs_json(&w, &["--size", "5", "--seed", "3"]);
    let by = check_json(&doc, board);
    assert_eq!(count(&by, "not-answered"), 0);
    assert_eq!(count(&by, "found") + count(&by, "no-tour"), 13 * 12);
    let joined = pairs_by_enumeration(board);
    for (answer, expect_joined) in [("found", true), ("no-tour", false), ("colour", false)] {
        for (s, e) in &by[answer] {
            let key = (
                board.parse_square(s).unwrap(),
                board.parse_square(e).unwrap(),
            );
            assert_eq!(joined.contains(&key), expect_joined, "{s}-{e}: {answer}");
        }
    }
    assert_eq!(joined.len(), count(&by, "found"));
    assert!(count(&by, "no-tour") > 0);
}

#[test]
fn six_by_six_every_pair_is_answered() {
    let w = WorkDir::new();
    let board = Board::new(6, 6).unwrap();
    let doc = pairs_json(&w, &["--size", "6", "--seed", "2"]);
    let by = check_json(&doc, board);
    assert_eq!(count(&by, "found"), 648);
    assert_eq!(count(&by, "colour"), 612);
    assert_eq!(doc["complete"], true);
}

#[test]
fn rectangles_and_odd_boards_get_their_colour_rule() {
    let w = WorkDir::new();
    let board = Board::new(5, 6).unwrap();
    let doc = pairs_json(&w, &["--rows", "5", "--cols", "6", "--seed", "1"]);
    let by = check_json(&doc, board);
    assert_eq!(count(&by, "not-answered"), 0);
    assert_eq!(count(&by, "colour"), 2 * 15 * 14);
    // 3x4: the short-edge rule is a theorem, not a colour.
    let board = Board::new(3, 4).unwrap();
    let doc = pairs_json(&w, &["--rows", "3", "--cols", "4", "--seed", "1"]);
    let by = check_json(&doc, board);
    assert!(count(&by, "theorem") > 0);
    let why = doc["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["answer"] == "theorem")
        .unwrap()["reason"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(why.contains("3x4"), "{why}");
    let joined = pairs_by_enumeration(board);
    assert_eq!(joined.len(), count(&by, "found"));
}

#[test]
fn the_same_seed_gives_the_same_output() {
    let w = WorkDir::new();
    for format in ["csv", "json", "txt"] {
        let name = format!("a.{format}");
        let other = format!("b.{format}");
        for out in [&name, &other] {
            w.cmd("pairs", &["--size", "6", "--seed", "9", "-o", out])
                .assert()
                .success();
        }
        assert_eq!(w.read(&name), w.read(&other), "{format}");
    }
    w.cmd("pairs", &["--size", "6", "--seed", "10", "-o", "c.csv"])
        .assert()
        .success();
    assert_ne!(
        w.read("a.csv"),
        w.read("c.csv"),
        "another seed, other tours"
    );
}

/// Issue 44, finding 2: `--format` without `-o` follows every command's rule: csv and json
/// go to standard output (pairs prints there anyway), xlsx to pairs.xlsx.
#[test]
fn format_without_o_prints_text_formats_and_writes_the_workbook() {
    let w = WorkDir::new();
    w.cmd("pairs", &["--size", "5", "--seed", "1", "--format", "csv"])
        .assert()
        .success()
        .stdout(predicate::str::contains("a1,a2,colour,"));
    w.cmd("pairs", &["--size", "5", "--seed", "1", "--format", "json"])
        .assert()
        .success()
        .stdout(predicate::str::contains("\"answer\""));
    assert!(w.files().is_empty(), "{:?}", w.files());
    w.cmd("pairs", &["--size", "5", "--seed", "1", "--format", "xlsx"])
        .assert()
        .success();
    assert_eq!(w.files(), ["pairs.xlsx"]);
}

/// Issue 44, finding 16: the 8x8 text matrix was 135 columns wide and its two crosses (× by a
/// theorem, ✗ by exhaustive search) looked alike: one character a square, a space between
/// files, fits 80 columns; an exhaustive search's "no tour" is ∅.
#[test]
fn the_text_matrix_fits_a_terminal_and_its_marks_differ() {
    let w = WorkDir::new();
    let out = w
        .cmd("pairs", &["--size", "8", "--seed", "1"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let widest = text.lines().map(|l| l.chars().count()).max().unwrap();
    assert!(widest <= 100, "{widest} columns: the answer line");
    let matrix = text.split("start\n").nth(1).unwrap();
    let widest = matrix.lines().map(|l| l.chars().count()).max().unwrap();
    assert!(widest <= 80, "{widest} columns");
    w.cmd("pairs", &["--size", "5", "--seed", "1"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "∅ no tour, proved by exhaustive search",
        ))
        .stdout(predicate::str::contains("✗").not());
}

#[test]
fn text_goes_to_standard_output_by_default() {
    let w = WorkDir::new();
    w.cmd("pairs", &["--size", "5", "--seed", "1"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "5x5: a tour exists for 84 of the 156 pairs",
        ))
        .stdout(predicate::str::contains("a1  —·✓·✓ "))
        .stderr(predicate::str::contains("600 pairs answered"));
    assert!(w.files().is_empty());
}

#[test]
fn csv_lists_every_pair_with_its_tour_or_reason() {
    let w = WorkDir::new();
    w.cmd("pairs", &["--size", "5", "--seed", "1", "-o", "p.csv"])
        .assert()
        .success();
    let text = w.read("p.csv");
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("start,end,answer,reason,tour"));
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 600);
    let found = rows.iter().filter(|r| r.contains(",found,")).count();
    assert_eq!(found, 84);
    let a1_e5 = rows.iter().find(|r| r.starts_with("a1,e5,")).unwrap();
    assert!(
        a1_e5.ends_with(" e5") && a1_e5.contains(",found,,a1 "),
        "{a1_e5}"
    );
    assert!(rows
        .iter()
        .any(|r| r.starts_with("a1,a2,colour,\"") && r.ends_with("\",")));
}

#[test]
fn a_time_limit_marks_open_pairs_not_answered_and_exits_1() {
    let w = WorkDir::new();
    w.cmd(
        "pairs",
        &[
            "--rows",
            "3",
            "--cols",
            "40",
            "--timeout",
            "0.3",
            "-o",
            "p.json",
        ],
    )
    .assert()
    .code(1)
    .stdout(predicate::str::contains(
        "not answered within the time limit",
    ))
    .stdout(predicate::str::contains("left open at the time limit"));
    let doc: Value = serde_json::from_str(&w.read("p.json")).unwrap();
    assert_eq!(doc["complete"], false);
    assert!(doc["totals"]["not_answered"].as_u64().unwrap() > 0);
    check_json(&doc, Board::new(3, 40).unwrap());
}

#[test]
fn usage_errors_name_the_problem_and_write_nothing() {
    let w = WorkDir::new();
    let cases: [(&[&str], &str); 7] = [
        (&["--closed"], "--closed does not apply to pairs"),
        (&["--size", "4"], "4x4"),
        (&["--size", "13", "-o", "p.csv"], "at most 144 squares"),
        (&["--timeout", "0"], "--timeout must be a positive number"),
        (&["-o", "-"], "give --format"),
        (&["--format", "text", "-o", "p.xlsx"], "contradicts"),
        (&["--start", "a1"], "--start"),
    ];
    for (args, message) in cases {
        w.cmd("pairs", args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message));
    }
    assert!(w.files().is_empty(), "{:?}", w.files());
    w.cmd("pairs", &["--size", "5", "-o", "p.xlsx"])
        .assert()
        .success();
    w.cmd("pairs", &["--size", "5", "-o", "p.xlsx"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("already exists"));
    assert_eq!(w.files(), ["p.xlsx"]);
}

/// Boards with an open tour and at most 30 squares: small enough to answer every pair at once.
fn small_board() -> impl Strategy<Value = Board> {
    prop::sample::select(vec![(3, 4), (3, 7), (3, 8), (4, 5), (4, 6), (5, 5), (5, 6)])
        .prop_map(|(r, c)| Board::new(r, c).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Every tour a pairs workbook lists is found again by the verifier as a complete tour from
    /// its pair's start to its end, and the matrix sheet is no board.
    #[test]
    fn every_tour_in_a_pairs_workbook_is_rechecked_by_the_verifier(
        board in small_board(),
        seed in any::<u64>(),
    ) {
        let pairs = solve(board, seed, &PairsPlan::default(), &mut |_| {}).unwrap();
        prop_assert!(pairs.all_answered());
        let mut bytes = std::io::Cursor::new(Vec::new());
        write_pairs_workbook(&pairs, &PairsWorkbook::default(), &mut bytes).unwrap();
        let report = verify_bytes(bytes.get_ref(), "pairs.xlsx", &VerifyOptions {
            board_size: Some((board.rows(), board.cols())),
            ..VerifyOptions::default()
        });
        prop_assert_eq!(report.sheets[0].verdict, Verdict::NoBoard);
        let boards = &report.sheets[1].boards;
        prop_assert_eq!(boards.len() as u64, pairs.totals().found);
        let squares = pairs.squares();
        let listed = squares
            .iter()
            .flat_map(|&s| squares.iter().map(move |&e| (s, e)))
            .filter_map(|(s, e)| pairs.tour(s, e));
        for (b, tour) in boards.iter().zip(listed) {
            prop_assert!(b.verdict.is_complete_tour());
            prop_assert_eq!(b.tour.as_ref(), Some(&tour));
            let req = Request {
                start: tour.start(),
                end: tour.end(),
                ..Request::open(board)
            };
            prop_assert!(req.is_satisfied_by(&tour));
            prop_assert_eq!(pairs.mark(tour.start().unwrap(), tour.end().unwrap()), Mark::Found);
        }
    }
}

/// `verify` reads every format `pairs` writes back: each found pair's tour, in order, complete
/// from its start to its end (open, or closed when the end is a move from the start); the
/// matrix and the reasons are no boards.
#[test]
fn verify_finds_every_tour_of_the_csv_and_the_json() {
    let w = WorkDir::new();
    let board = Board::new(6, 6).unwrap();
    let doc = pairs_json(&w, &["--size", "6", "--seed", "4"]);
    let found: Vec<Vec<String>> = doc["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["answer"] == "found")
        .map(|p| {
            let tour = p["tour"].as_array().unwrap();
            tour.iter()
                .map(|q| q.as_str().unwrap().to_string())
                .collect()
        })
        .collect();
    assert_eq!(found.len(), 648);
    w.cmd("pairs", &["--size", "6", "--seed", "4", "-o", "p.csv"])
        .assert()
        .success();
    for name in ["p.json", "p.csv"] {
        let report = verify_path(&w.path(name), &VerifyOptions::default());
        assert_eq!(report.sheets.len(), 1, "{name}");
        let boards = &report.sheets[0].boards;
        assert_eq!(boards.len(), found.len(), "{name}");
        for (b, want) in boards.iter().zip(&found) {
            let tour = b.tour.as_ref().unwrap();
            let names: Vec<String> = tour.squares().map(|q| board.algebraic(q)).collect();
            assert_eq!(&names, want, "{name}");
            let closed = tour.start().unwrap().is_knight_move(tour.end().unwrap());
            let verdict = if closed {
                Verdict::Closed
            } else {
                Verdict::Open
            };
            assert_eq!(b.verdict, verdict, "{name}");
        }
        assert_eq!(report.exit_code(), 0, "{name}");
    }
}
