//! `generate --method hand` (issue 21): the hand method's steps re-checked from scratch here, on
//! 100 seeds of 8x8 and on the other boards it takes; every workbook read back by `verify` sheet
//! by sheet with the verdict the sheet claims, and opened cell by cell; the CLI end to end
//! (formats, the seed, the flags that do not apply, the boards it refuses).

use std::collections::HashSet;

use calamine::{Data, Reader};
use knights_tour::board::{Board, Square};
use knights_tour::generate::hand_sheets::STEP_SHEETS;
use knights_tour::generate::workbook::WorkbookSpec;
use knights_tour::solve::hand::{in_rings, HandTour};
use knights_tour::solve::runner::{run, Plan};
use knights_tour::solve::{rng_from_seed, Method, Request};
use knights_tour::verify::{verify_bytes, verify_path, Verdict, VerifyOptions};
use predicates::prelude::*;
use serde_json::Value;

use crate::support::workdir::WorkDir;
use crate::support::xlsx_bytes;

/// A hand-built tour of `board` from `seed` through the runner, and its workbook's bytes.
fn hand_workbook(board: Board, seed: u64) -> (HandTour, Vec<u8>) {
    let request = Request {
        closed: true,
        ..Request::open(board)
    };
    let plan = Plan {
        method: Method::Hand,
        ..Plan::default()
    };
    let outcome = run(&request, &plan, &mut rng_from_seed(seed), &mut |_| {});
    assert!(
        outcome.report.is_done(),
        "{board} seed {seed}: {:?}",
        outcome.report
    );
    assert_eq!(outcome.attempts.len(), 1);
    let built = *outcome.attempts[0].steps.clone().expect("the steps");
    let mut spec = WorkbookSpec::new(outcome.attempts);
    spec.seed = Some(seed);
    spec.created = Some(std::time::UNIX_EPOCH);
    (built, xlsx_bytes::write(&spec))
}

/// The rule's rank of a square, computed here: corner 0, edge 1, second ring 2, centre 3.
fn rank(board: Board, s: Square) -> u32 {
    let ring = s
        .row
        .min(s.col)
        .min(board.rows() - 1 - s.row)
        .min(board.cols() - 1 - s.col);
    let corner =
        (s.row == 0 || s.row == board.rows() - 1) && (s.col == 0 || s.col == board.cols() - 1);
    match ring {
        0 if corner => 0,
        0 => 1,
        1 => 2,
        _ => 3,
    }
}

/// Every step of `built` as the article describes it.
fn check_steps(board: Board, built: &HandTour) {
    let edges: Vec<Square> = built.edges.squares().collect();
    let rings: HashSet<Square> = board.squares().filter(|&s| in_rings(board, s)).collect();
    assert_eq!(
        rings.len(),
        board.len() - (board.rows() - 4) as usize * (board.cols() - 4) as usize
    );
    // Step 1: a knight's path, each move the best square by the rules, stopping exactly when
    // the last square of the two outer rings is visited.
    assert_eq!(built.edges.check(), Ok(()));
    let mut seen = HashSet::new();
    for (k, &s) in edges.iter().enumerate() {
        if k > 0 {
            let best = board
                .knight_moves(edges[k - 1])
                .filter(|m| !seen.contains(m))
                .map(|m| rank(board, m))
                .min()
                .unwrap();
            assert_eq!(
                rank(board, s),
                best,
                "move {}: {}",
                k + 1,
                board.algebraic(s)
            );
        }
        seen.insert(s);
    }
    assert!(
        rings.iter().all(|s| seen.contains(s)),
        "Step 1 covers the two outer rings"
    );
    assert!(
        rings.contains(edges.last().unwrap()),
        "Step 1 ends on the last ring square"
    );
    // Step 2: Step 1 continued over centre squares into a cycle.
    let cycle: Vec<Square> = built.cycle.squares().collect();
    assert_eq!(built.cycle.check(), Ok(()));
    assert_eq!(&cycle[..edges.len()], &edges[..]);
    assert!(cycle[edges.len()..].iter().all(|s| !rings.contains(s)));
    assert!(
        cycle[0].is_knight_move(*cycle.last().unwrap()),
        "Step 2 is a cycle"
    );
    // Step 3: runs of unvisited squares, each between two consecutive cycle squares that are
    // a move from its ends, each pair once; together with the cycle, every square once.
    let mut all: HashSet<Square> = cycle.iter().copied().collect();
    let mut pairs = HashSet::new();
    let l = cycle.len();
    for run in &built.insertions {
        let k = run.after as usize;
        assert!(
            (1..=l).contains(&k) && pairs.insert(k),
            "pair {k} used once"
        );
        let (before, after) = (cycle[k - 1], cycle[k % l]);
        let mut path = vec![before];
        path.extend(&run.squares);
        path.push(after);
        assert!(
            path.windows(2).all(|w| w[0].is_knight_move(w[1])),
            "{run:?}"
        );
        assert!(!run.squares.is_empty() && run.squares.len() % 2 == 0);
        for &s in &run.squares {
            assert!(all.insert(s), "{} inserted twice", board.algebraic(s));
        }
    }
    assert_eq!(all.len(), board.len(), "every square once");
    // The tour: the cycle with its insertions, renumbered from Step 1's start, closed.
    let mut spliced = Vec::new();
    for (k, &s) in cycle.iter().enumerate() {
        spliced.push(s);
        if let Some(run) = built.insertions.iter().find(|r| r.after as usize == k + 1) {
            spliced.extend(&run.squares);
        }
    }
    assert_eq!(built.tour.squares().collect::<Vec<_>>(), spliced);
    assert!(built.tour.is_closed() && built.tour.check().is_ok());
    // The Summary's record of the walks: every failed one, then the one that worked.
    assert!(built.failed.iter().all(|w| rings.contains(&w.start)));
}

/// The verdict of each sheet of a hand workbook, read back by `verify`.
fn verdicts(bytes: &[u8]) -> Vec<(String, Verdict, usize)> {
    let report = verify_bytes(bytes, "hand.xlsx", &VerifyOptions::default());
    report
        .sheets
        .iter()
        .map(|s| (s.sheet.clone(), s.verdict, s.moves))
        .collect()
}

#[test]
fn a_hundred_seeds_on_8x8_each_a_closed_tour_every_step_as_described_and_read_back() {
    let board = Board::new(8, 8).unwrap();
    let mut walks = 0;
    for seed in 0..100 {
        let (built, bytes) = hand_workbook(board, seed);
        check_steps(board, &built);
        walks += built.failed.len() + 1;
        let (k, l) = (built.edges.len(), built.cycle.len());
        // A Step 2 cycle that already visits every square (rare) is a closed tour itself.
        let cycle = if l == 64 {
            Verdict::Closed
        } else {
            Verdict::Partial
        };
        assert_eq!(
            verdicts(&bytes),
            [
                (STEP_SHEETS[0].to_string(), Verdict::Partial, k),
                (STEP_SHEETS[1].to_string(), cycle, l),
                (STEP_SHEETS[2].to_string(), Verdict::Closed, 64),
                ("Tour 1".to_string(), Verdict::Closed, 64),
                ("Summary".to_string(), Verdict::NoBoard, 0),
            ],
            "seed {seed}"
        );
    }
    // Most walks succeed: retries are the exception (measured: 168 failed walks in 100 seeds).
    assert!(walks < 500, "{walks} walks for 100 tours");
}

#[test]
fn other_boards_it_takes_give_closed_tours() {
    // 16x16: the inserted centre (140 labels) outnumbers the cycle's numbers; Step 3 still
    // reads as a board.
    // 6x6: Step 3 never has anything to insert there; 6x16: many walks fail.
    for (rows, cols, seeds) in [
        (6, 6, 3),
        (6, 9, 2),
        (6, 16, 1),
        (7, 8, 3),
        (8, 10, 3),
        (10, 10, 3),
        (9, 12, 2),
        (12, 12, 2),
        (7, 10, 3),
        (16, 16, 1),
    ] {
        let board = Board::new(rows, cols).unwrap();
        for seed in 0..seeds {
            let (built, bytes) = hand_workbook(board, seed);
            check_steps(board, &built);
            let v = verdicts(&bytes);
            assert_eq!(v[2].1, Verdict::Closed, "{board} seed {seed}: {v:?}");
            assert_eq!(v[3].1, Verdict::Closed, "{board} seed {seed}");
        }
    }
}

/// The cells of a sheet at the board's place (C3), row by row.
fn board_cells(bytes: &[u8], sheet: &str, board: Board) -> Vec<Vec<Data>> {
    let mut wb = xlsx_bytes::open(bytes);
    let range = wb.worksheet_range(sheet).unwrap();
    (0..board.rows())
        .map(|r| {
            (0..board.cols())
                .map(|c| {
                    range
                        .get_value((2 + r, 2 + c))
                        .cloned()
                        .unwrap_or(Data::Empty)
                })
                .collect()
        })
        .collect()
}

#[test]
fn each_sheet_shows_its_step() {
    let board = Board::new(8, 8).unwrap();
    let (built, bytes) = hand_workbook(board, 7);
    let wb = xlsx_bytes::open(&bytes);
    assert_eq!(
        wb.sheet_names(),
        [
            STEP_SHEETS[0],
            STEP_SHEETS[1],
            STEP_SHEETS[2],
            "Tour 1",
            "Summary",
            "Path data"
        ]
    );
    let number = |d: &Data| match d {
        Data::Float(f) => Some(*f as u32),
        Data::Int(i) => Some(*i as u32),
        _ => None,
    };
    // Laid out like the tour's own sheet: the same columns, rows and zoom, no gridlines.
    let layout = |part: &str| {
        let xml = xlsx_bytes::part(&bytes, part);
        let cut = |from: &str, to: &str| {
            let a = xml.find(from).unwrap();
            xml[a..a + xml[a..].find(to).unwrap()].to_string()
        };
        let view = cut("<sheetView ", ">");
        let zoom = view
            .contains("showGridLines=\"0\"")
            .then(|| cut("zoomScale=", " "));
        (zoom, cut("<sheetFormatPr", ">"), cut("<cols>", "</cols>"))
    };
    let tour_sheet = layout("xl/worksheets/sheet4.xml");
    for i in 1..=3 {
        assert_eq!(
            layout(&format!("xl/worksheets/sheet{i}.xml")),
            tour_sheet,
            "sheet {i}"
        );
    }
    assert!(
        tour_sheet.0.is_some(),
        "no gridlines, a zoom: {tour_sheet:?}"
    );
    // Steps 1 and 2: their paths' move numbers, as numbers; the rest blank.
    for (sheet, path) in [
        (STEP_SHEETS[0], &built.edges),
        (STEP_SHEETS[1], &built.cycle),
    ] {
        let cells = board_cells(&bytes, sheet, board);
        let numbers = path.numbering();
        for s in board.squares() {
            let got = number(&cells[s.row as usize][s.col as usize]);
            let want = Some(numbers[board.index(s) as usize]).filter(|&n| n > 0);
            assert_eq!(got, want, "{sheet} {}", board.algebraic(s));
        }
    }
    // Step 3: the cycle's numbers, each inserted square labelled as text after the square it
    // follows (5a, 5b ...).
    let cells = board_cells(&bytes, STEP_SHEETS[2], board);
    let cycle = built.cycle.numbering();
    let mut labels = 0;
    for s in board.squares() {
        let cell = &cells[s.row as usize][s.col as usize];
        match cycle[board.index(s) as usize] {
            0 => {
                let run = built
                    .insertions
                    .iter()
                    .find(|r| r.squares.contains(&s))
                    .unwrap();
                let i = run.squares.iter().position(|&q| q == s).unwrap();
                assert_eq!(
                    cell,
                    &Data::String(format!("{}{}", run.after, (b'a' + i as u8) as char))
                );
                labels += 1;
            }
            n => assert_eq!(number(cell), Some(n)),
        }
    }
    assert_eq!(labels, 64 - built.cycle.len());
    // The tour's sheet: renumbered 1..64 along the spliced cycle.
    let cells = board_cells(&bytes, "Tour 1", board);
    let final_numbers = built.tour.numbering();
    for s in board.squares() {
        assert_eq!(
            number(&cells[s.row as usize][s.col as usize]),
            Some(final_numbers[board.index(s) as usize])
        );
    }
    // The Summary: the seed, the walks, the closing, the pairs used and the choices.
    let mut wb = xlsx_bytes::open(&bytes);
    let summary = wb.worksheet_range("Summary").unwrap();
    let text: Vec<String> = summary
        .rows()
        .flat_map(|r| r.iter().map(|c| c.to_string()))
        .collect();
    let has = |needle: &str| text.iter().any(|t| t.contains(needle));
    assert!(has("The hand method, step by step"));
    assert!(
        has("every choice among equals drawn from seed 7"),
        "{text:?}"
    );
    assert!(has("Step 2 closed the path from"));
    for run in &built.insertions {
        assert!(
            has(&run.describe(board, built.cycle.len() as u32)),
            "{run:?}"
        );
    }
    for c in &built.choices {
        assert!(has(&format!(
            "move {}: {}",
            c.move_number,
            board.algebraic(c.square)
        )));
    }
    for (i, w) in built.failed.iter().enumerate() {
        assert!(has(&format!(
            "walk {} from {}:",
            i + 1,
            board.algebraic(w.start)
        )));
    }
}

#[test]
fn the_same_seed_gives_the_same_workbook_and_another_seed_another_tour() {
    let board = Board::new(8, 8).unwrap();
    let (a, bytes_a) = hand_workbook(board, 11);
    let (_, bytes_b) = hand_workbook(board, 11);
    let (c, _) = hand_workbook(board, 12);
    assert!(bytes_a == bytes_b, "same seed, same bytes");
    assert_ne!(a.tour, c.tour);
}

#[test]
fn the_command_writes_every_format_and_verify_reads_it_back() {
    let w = WorkDir::new();
    let out = w
        .generate(&["--method", "hand", "--seed", "5", "-o", "h.xlsx"])
        .assert()
        .success()
        .get_output()
        .clone();
    let msg = String::from_utf8(out.stdout).unwrap();
    assert!(
        msg.starts_with("Solved after 1 attempt: 8x8 closed tour from "),
        "{msg}"
    );
    assert!(
        msg.contains("built by hand in ") && msg.contains("each step on its own sheet"),
        "{msg}"
    );
    let report = verify_path(&w.path("h.xlsx"), &VerifyOptions::default());
    let got: Vec<(&str, Verdict)> = report
        .sheets
        .iter()
        .map(|s| (s.sheet.as_str(), s.verdict))
        .collect();
    assert_eq!(
        got,
        [
            (STEP_SHEETS[0], Verdict::Partial),
            (STEP_SHEETS[1], Verdict::Partial),
            (STEP_SHEETS[2], Verdict::Closed),
            ("Tour 1", Verdict::Closed),
            ("Summary", Verdict::NoBoard),
        ]
    );
    assert!(report.sheets[2]
        .note
        .as_deref()
        .unwrap()
        .contains("insertion labels"));
    // csv, json and text give the final tour: the same one.
    let tour = report.sheets[3].boards[0].tour.clone().unwrap();
    for name in ["h.csv", "h.json", "h.txt"] {
        w.generate(&["--method", "hand", "--seed", "5", "-o", name])
            .assert()
            .success();
        let r = verify_path(&w.path(name), &VerifyOptions::default());
        assert_eq!(r.sheets.len(), 1, "{name}");
        assert_eq!(r.sheets[0].verdict, Verdict::Closed, "{name}");
        assert_eq!(r.sheets[0].boards[0].tour.as_ref(), Some(&tour), "{name}");
    }
    let json: Value = serde_json::from_str(&w.read("h.json")).unwrap();
    assert_eq!(json["closed"], true);
    // The JSON summary names the method.
    let out = w
        .generate(&["--method", "hand", "--seed", "5", "--json", "-o", "j.xlsx"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let summary: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(summary["method"], "hand");
    assert_eq!(summary["sheets"][0]["closed"], true);
}

#[test]
fn flags_that_do_not_apply_are_usage_errors_naming_both() {
    let w = WorkDir::new();
    std::fs::write(w.path("c.txt"), "1 a1\n").unwrap();
    for (args, words) in [
        (&["--end", "a1"][..], &["--end", "--method hand"][..]),
        (
            &["--constraints", "c.txt"],
            &["--constraints", "--method hand"],
        ),
        (&["--tiebreak", "pohl"], &["--tiebreak", "--method hand"]),
        (&["--attempts", "3"], &["--attempts", "--method hand"]),
        (&["--tours", "2"], &["--tours 2", "--method hand"]),
        (&["--all"], &["--all", "--method"]),
        (&["--start", "d4"], &["--start d4", "centre"]),
    ] {
        let mut all = vec!["--method", "hand", "-o", "x.xlsx"];
        all.extend(args);
        let mut assert = w.generate(&all).assert().code(2);
        for word in words {
            assert = assert.stderr(predicate::str::contains(*word));
        }
    }
    assert_eq!(w.files(), ["c.txt"], "nothing written");
}

#[test]
fn boards_it_does_not_take_are_refused_naming_the_method_and_another() {
    let w = WorkDir::new();
    // The other method named builds what it says on that board (issue 44, finding 4: 5x5 has
    // no closed tour, 4x4 no tour at all).
    let closed = "--method auto --closed builds a closed tour";
    let open = "--method auto builds an open tour on it (it has no closed tour)";
    for (board, why, instead) in [
        (
            &["--rows", "5", "--cols", "6"][..],
            "both sides at least 6",
            closed,
        ),
        (&["--size", "5"], "both sides at least 6", open),
        (
            &["--size", "4"],
            "both sides at least 6",
            "it has no tour at all",
        ),
        (&["--rows", "6", "--cols", "18"], "up to 6x16", closed),
        (&["--size", "7"], "odd number of squares", open),
        (
            &["--rows", "9", "--cols", "11"],
            "odd number of squares",
            open,
        ),
        (&["--size", "31"], "up to 30x30", open),
        (&["--rows", "31", "--cols", "32"], "up to 30x30", closed),
    ] {
        let mut all = vec!["--method", "hand", "-o", "x.xlsx"];
        all.extend(board);
        w.generate(&all)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("--method hand"))
            .stderr(predicate::str::contains(why))
            .stderr(predicate::str::contains(instead));
    }
    assert!(w.files().is_empty());
    // A start on the rings is honoured.
    w.generate(&[
        "--method", "hand", "--start", "a1", "--seed", "2", "-o", "a1.json",
    ])
    .assert()
    .success();
    let json: Value = serde_json::from_str(&w.read("a1.json")).unwrap();
    assert_eq!(json["path"][0], "a1");
    assert_eq!(json["closed"], true);
}

/// Step 3's board as CSV: the cycle's numbers and the labels, `edit` applied to the labels.
fn step3_csv(board: Board, built: &HandTour, edit: &dyn Fn(String) -> String) -> String {
    let cycle = built.cycle.numbering();
    let mut rows = Vec::new();
    for r in 0..board.rows() {
        let row: Vec<String> = (0..board.cols())
            .map(|c| {
                let s = Square::new(r, c);
                match cycle[board.index(s) as usize] {
                    0 => {
                        let run = built.insertions.iter().find(|x| x.squares.contains(&s));
                        let run = run.unwrap();
                        let i = run.squares.iter().position(|&q| q == s).unwrap();
                        edit(run.label(i))
                    }
                    n => n.to_string(),
                }
            })
            .collect();
        rows.push(row.join(","));
    }
    rows.join("\n") + "\n"
}

#[test]
fn verify_reads_insertion_labels_in_order_and_strictly() {
    let board = Board::new(8, 8).unwrap();
    let (built, _) = hand_workbook(board, 3);
    assert!(!built.insertions.is_empty());
    let first = built.insertions[0].label(0);
    let w = WorkDir::new();
    type Edit<'a> = &'a dyn Fn(String) -> String;
    let cases: [(&str, Edit, Verdict); 4] = [
        ("as_written.csv", &|l| l, Verdict::Closed),
        ("upper_case.csv", &|l| l.to_uppercase(), Verdict::Closed),
        // A label whose letters skip one, or a label left as its number: typos stay problems.
        (
            "gap.csv",
            &|l| if l == first { l.replace('a', "c") } else { l },
            Verdict::Invalid,
        ),
        (
            "typo.csv",
            &|l| if l == first { "x".into() } else { l },
            Verdict::Invalid,
        ),
    ];
    for (name, edit, verdict) in cases {
        std::fs::write(w.path(name), step3_csv(board, &built, edit)).unwrap();
        let r = verify_path(&w.path(name), &VerifyOptions::default());
        let s = &r.sheets[0];
        assert_eq!(s.verdict, verdict, "{name}: {s:?}");
        match verdict {
            Verdict::Closed => {
                let tour = s.boards[0].tour.as_ref().unwrap();
                assert_eq!(tour, &built.tour, "{name}: the tour the labels describe");
            }
            _ => assert!(
                s.problems.iter().any(|p| p.kind.as_str() == "text-cell"),
                "{name}: {s:?}"
            ),
        }
    }
}

#[test]
fn the_runner_says_what_the_hand_method_cannot_do() {
    use knights_tour::solve::hand::Unsupported;
    use knights_tour::solve::search::Declined;
    use knights_tour::solve::{Ending, Goal};
    let board = Board::new(8, 8).unwrap();
    let plan = |goal| Plan {
        method: Method::Hand,
        goal,
        ..Plan::default()
    };
    let closed = Request {
        closed: true,
        ..Request::open(board)
    };
    let cannot = |req: &Request, goal| {
        let outcome = run(req, &plan(goal), &mut rng_from_seed(1), &mut |_| {});
        assert!(outcome.attempts.is_empty());
        match outcome.report.ending {
            Ending::Declined(Method::Hand, why) => why,
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(
        cannot(&closed, Goal::All { limit: None }),
        Declined::NotExhaustive
    );
    let to_h1 = Request {
        end: board.parse_square("h1").ok(),
        ..closed.clone()
    };
    assert_eq!(
        cannot(&to_h1, Goal::Tours(1)),
        Declined::Hand(Unsupported::FixedSquares)
    );
    let small = Request {
        closed: true,
        ..Request::open(Board::new(5, 6).unwrap())
    };
    let why = cannot(&small, Goal::Tours(1));
    assert!(why.to_string().contains("at least 6"), "{why}");
    // Several tours: each from further walks, each with its steps, all different.
    let outcome = run(
        &closed,
        &plan(Goal::Tours(3)),
        &mut rng_from_seed(1),
        &mut |_| {},
    );
    assert_eq!(outcome.tours_found(), 3);
    assert!(outcome
        .attempts
        .iter()
        .all(|a| a.steps.is_some() && a.tour.is_closed()));
    let bytes = xlsx_bytes::write(&WorkbookSpec::new(outcome.attempts));
    let names = xlsx_bytes::open(&bytes).sheet_names();
    assert_eq!(names.len(), 3 * 4 + 2, "{names:?}");
    assert_eq!(names[4], "Step 1 - the edges (tour 2)");
    assert_eq!(names[7], "Tour 2");
    // A node budget that ends the walks is an honest limit, not a proof.
    let mut tight = plan(Goal::Tours(1));
    tight.max_nodes = Some(1);
    let outcome = run(&closed, &tight, &mut rng_from_seed(1), &mut |_| {});
    assert!(
        matches!(outcome.report.ending, Ending::NodeLimit { .. }),
        "{:?}",
        outcome.report
    );
}
