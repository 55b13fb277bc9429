//! `verify --complete` as a library: failed 8x8 Warnsdorff attempts written by the generator's
//! workbook writer are read back by the verifier, completed (or proved incompletable), and the
//! completions are written to a workbook that itself verifies as complete tours.

use std::io::Cursor;
use std::path::Path;

use calamine::{open_workbook, Reader, Xlsx};
use knights_tour::board::{Board, Square};
use knights_tour::generate::workbook::{write_workbook, WorkbookSpec};
use knights_tour::output::write_budget::WriteBudget;
use knights_tour::solve::backtrack::{enumerate, Budget};
use knights_tour::solve::warnsdorff;
use knights_tour::solve::{rng_from_seed, Constraint, Request, Tiebreak};
use knights_tour::solve::{Attempt, Method};
use knights_tour::tour::Tour;
use knights_tour::verify::complete::{
    complete_file, complete_tour, save_completions, Completion, SheetCompletion,
    DEFAULT_NODE_BUDGET,
};
use knights_tour::verify::completion::{
    write_completions, CompletedSheet, SheetResult, ADDED_FILL, ADDED_FONT,
};
use knights_tour::verify::{verify_bytes, verify_path, Verdict, VerifyOptions};

fn board8() -> Board {
    Board::new(8, 8).unwrap()
}

/// The first `want` failed Warnsdorff attempts (random tie-break) over seeds 0.., each from
/// the square `seed % 64`.
fn failed_attempts(want: usize) -> Vec<Tour> {
    let board = board8();
    let mut out = Vec::new();
    for seed in 0u64.. {
        let start = board.square_at((seed % 64) as u32);
        let t = warnsdorff::attempt(board, start, Tiebreak::Random, &mut rng_from_seed(seed));
        if !t.is_complete() {
            out.push(t);
            if out.len() == want {
                break;
            }
        }
        assert!(seed < 100_000, "too few failed attempts");
    }
    out
}

/// The first `k` moves of `tour`.
fn prefix(tour: &Tour, k: usize) -> Tour {
    Tour::from_indices(tour.board(), tour.indices()[..k].to_vec()).unwrap()
}

/// Write `paths` as failed attempts with the generator's writer (board at C3).
fn write_attempts(paths: &[Tour], file: &Path) {
    let attempts = paths
        .iter()
        .map(|t| Attempt::new(t.clone(), false, Method::Warnsdorff))
        .collect();
    let spec = WorkbookSpec::new(attempts);
    let mut bytes = Cursor::new(Vec::new());
    write_workbook(&spec, &mut bytes).unwrap();
    std::fs::write(file, bytes.into_inner()).unwrap();
}

/// Independent check that the knight is stuck: every knight's move from the last square
/// lands on a visited square.
fn trivially_stuck(t: &Tour) -> bool {
    let board = t.board();
    let end = t.end().unwrap();
    let stuck = board
        .knight_moves(end)
        .all(|s| t.indices().contains(&board.index(s)));
    stuck
}

/// Independent check that no tour keeps moves 1..=k: enumerate tours under constraints that
/// fix every one of those moves (a different route into the search than the prefix replay).
fn no_tour_with_fixed_moves(t: &Tour) -> bool {
    let board = t.board();
    let mut req = Request::open(board);
    req.constraints = t
        .squares()
        .enumerate()
        .map(|(i, square)| Constraint {
            move_number: i as u32 + 1,
            square,
        })
        .collect();
    let e = enumerate(&req, Some(1), &Budget::unlimited(), |_| true);
    e.exhaustive && e.count == 0
}

/// Verify `file`, complete its partial sheets, and check each answer against `paths` (the
/// paths written, one per sheet in order). Returns the completions.
fn complete_and_check(file: &Path, paths: &[Tour]) -> Vec<SheetCompletion> {
    let report = verify_path(file, &VerifyOptions::default());
    let partial = report
        .sheets
        .iter()
        .filter(|s| s.verdict == Verdict::Partial)
        .count();
    assert_eq!(
        partial,
        paths.len(),
        "every written attempt reads as partial"
    );
    let all = complete_file(&report, &Budget::nodes(DEFAULT_NODE_BUDGET));
    let listed = report.sheets.iter().filter(|s| !s.quiet).count();
    assert_eq!(
        all.len(),
        listed,
        "every sheet but the quiet Summary accounted for"
    );
    let (done, other): (Vec<_>, Vec<_>) = all
        .into_iter()
        .partition(|c| !matches!(c.completion, Completion::NotApplicable(_)));
    // The generator's own Summary and hidden path data are not listed.
    assert!(other.is_empty(), "{other:?}");
    assert_eq!(done.len(), paths.len());
    for (c, path) in done.iter().zip(paths) {
        assert_eq!(c.top_left.map(|t| t.to_string()).as_deref(), Some("C3"));
        match &c.completion {
            Completion::Completed {
                original,
                completed,
            } => {
                assert_eq!(original, path, "{}: the person's moves as read", c.sheet);
                assert_eq!(&completed.indices()[..path.len()], path.indices());
                assert!(Request::open(board8()).is_satisfied_by(completed));
                assert!(completed.check().is_ok());
            }
            Completion::NoCompletion { original, dead_end } => {
                assert_eq!(original, path);
                assert_eq!(*dead_end, trivially_stuck(path), "{}", c.sheet);
                if !dead_end {
                    assert!(no_tour_with_fixed_moves(path), "{}: a tour exists", c.sheet);
                }
            }
            other => panic!("{}: {other:?}", c.sheet),
        }
    }
    done
}

/// Check that the completions workbook holds exactly the completed boards, each verifying as
/// a complete tour that starts with the person's moves, and a summary with no board.
fn check_output(out: &Path, done: &[SheetCompletion]) {
    let report = verify_path(out, &VerifyOptions::default());
    assert!(report.readable, "{:?}", report.error);
    let completed: Vec<(&Tour, &Tour)> = done
        .iter()
        .filter_map(|c| match &c.completion {
            Completion::Completed {
                original,
                completed,
            } => Some((original, completed)),
            _ => None,
        })
        .collect();
    assert_eq!(report.sheets.len(), completed.len() + 1);
    for (sheet, (original, full)) in report.sheets.iter().zip(&completed) {
        assert!(sheet.verdict.is_complete_tour(), "{sheet:?}");
        assert_eq!(sheet.board.as_ref().unwrap().top_left.to_string(), "C3");
        assert!(sheet.start_highlighted == Some(true), "{sheet:?}");
        let read = sheet.tour().unwrap();
        assert_eq!(read, *full);
        assert_eq!(&read.indices()[..original.len()], original.indices());
    }
    let summary = report.sheets.last().unwrap();
    assert_eq!(summary.sheet, "Summary");
    assert_eq!(summary.verdict, Verdict::NoBoard);
}

#[test]
fn failed_generator_attempts_are_stuck_so_no_completion_exists() {
    let dir = tempfile::tempdir().unwrap();
    let paths = failed_attempts(12);
    let file = dir.path().join("failed.xlsx");
    write_attempts(&paths, &file);
    let done = complete_and_check(&file, &paths);
    // Warnsdorff stops only when the knight is stuck, so every one is a dead end.
    for c in &done {
        assert!(
            matches!(
                c.completion,
                Completion::NoCompletion { dead_end: true, .. }
            ),
            "{c:?}"
        );
    }
    let out = dir.path().join("completed.xlsx");
    save_completions(&out, &done, false, &WriteBudget::unlimited()).unwrap();
    check_output(&out, &done);
    // Nothing completed: the workbook still holds the summary, which says why for each sheet.
    let mut book: Xlsx<_> = open_workbook(&out).unwrap();
    assert_eq!(book.sheet_names(), vec!["Summary".to_string()]);
    let range = book.worksheet_range("Summary").unwrap();
    let text: Vec<String> = range.cells().map(|(_, _, v)| v.to_string()).collect();
    assert!(text
        .iter()
        .any(|t| t == "0 of 12 failed attempts completed"));
    assert_eq!(
        text.iter().filter(|t| *t == "no completion exists").count(),
        12
    );
    // Written without force once: a second save refuses to replace it.
    assert!(save_completions(&out, &done, false, &WriteBudget::unlimited()).is_err());
}

#[test]
fn truncated_attempts_are_completed_or_proved_incompletable() {
    let dir = tempfile::tempdir().unwrap();
    let mut paths = Vec::new();
    for t in failed_attempts(10) {
        let k = t.len();
        for cut in [1, 5, 10, k / 2] {
            if cut < k && k - cut >= 1 {
                paths.push(prefix(&t, k - cut));
            }
        }
    }
    let file = dir.path().join("truncated.xlsx");
    write_attempts(&paths, &file);
    let done = complete_and_check(&file, &paths);
    let completed = done
        .iter()
        .filter(|c| matches!(c.completion, Completion::Completed { .. }))
        .count();
    let proved = done
        .iter()
        .filter(|c| matches!(c.completion, Completion::NoCompletion { .. }))
        .count();
    let searched = done
        .iter()
        .filter(|c| {
            matches!(
                c.completion,
                Completion::NoCompletion {
                    dead_end: false,
                    ..
                }
            )
        })
        .count();
    eprintln!(
        "{} truncated attempts: {completed} completed, {proved} proved incompletable ({searched} by search)",
        paths.len()
    );
    assert!(completed > 0, "some truncated attempts can be completed");
    assert!(
        searched > 0,
        "some need a search to prove there is no completion"
    );
    assert_eq!(completed + proved, paths.len());
    let out = dir.path().join("completed.xlsx");
    save_completions(&out, &done, false, &WriteBudget::unlimited()).unwrap();
    check_output(&out, &done);
}

#[test]
fn a_non_stuck_prefix_without_completion_is_proved_by_search() {
    // Look for a prefix whose knight can still move but that no tour keeps: one move short of
    // a stuck failed attempt, the knight often has only squares that lead nowhere.
    let budget = Budget::nodes(DEFAULT_NODE_BUDGET);
    let mut found = None;
    'outer: for t in failed_attempts(40) {
        for cut in 1..t.len().min(12) {
            let p = prefix(&t, t.len() - cut);
            if trivially_stuck(&p) {
                continue;
            }
            if let Completion::NoCompletion { dead_end, .. } = complete_tour(&p, &budget) {
                assert!(!dead_end);
                found = Some(p);
                break 'outer;
            }
        }
    }
    let p = found.expect("a non-trivial prefix without completion among 40 failed attempts");
    assert!(no_tour_with_fixed_moves(&p));
}

#[test]
fn kept_and_added_moves_are_styled_apart() {
    let dir = tempfile::tempdir().unwrap();
    let t = &failed_attempts(1)[0];
    let p = prefix(t, t.len() / 2);
    let file = dir.path().join("half.xlsx");
    write_attempts(std::slice::from_ref(&p), &file);
    let done = complete_and_check(&file, std::slice::from_ref(&p));
    let Completion::Completed { completed, .. } = &done[0].completion else {
        panic!("half of a failed attempt completes: {:?}", done[0]);
    };
    let out = dir.path().join("styled.xlsx");
    save_completions(&out, &done, false, &WriteBudget::unlimited()).unwrap();
    let mut book: Xlsx<_> = open_workbook(&out).unwrap();
    let name = book.sheet_names()[0].clone();
    assert_eq!(name, done[0].sheet);
    let styles = book.worksheet_style(&name).unwrap();
    let board = completed.board();
    let numbers = completed.numbering();
    for sq in board.squares() {
        let m = numbers[board.index(sq) as usize] as usize;
        let cell = (2 + sq.row, 2 + sq.col);
        let style = styles
            .get(cell)
            .unwrap_or_else(|| panic!("no style at {cell:?}"));
        let font = style.font.as_ref().unwrap();
        let fill = style.fill.as_ref().filter(|f| f.is_visible());
        let fill_rgb = fill
            .and_then(|f| f.get_color())
            .map(|c| c.to_argb() & 0xFF_FFFF);
        if m == 1 {
            assert!(font.is_bold() && !font.is_italic());
            assert_eq!(fill_rgb, Some(0xFFFF00), "start square yellow");
        } else if m <= p.len() {
            assert!(font.is_bold() && !font.is_italic(), "move {m} kept: bold");
            assert_eq!(fill_rgb, None, "move {m} kept: no fill");
        } else {
            assert!(
                font.is_italic() && !font.is_bold(),
                "move {m} added: italic"
            );
            assert_eq!(
                font.color.map(|c| c.to_argb() & 0xFF_FFFF),
                Some(ADDED_FONT),
                "move {m}"
            );
            assert_eq!(fill_rgb, Some(ADDED_FILL), "move {m} added: green");
        }
    }
}

#[test]
fn a_path_typed_anywhere_on_a_blank_board_is_completed_in_place() {
    // A person's path: numbers 1..=k typed from E5 on an otherwise blank sheet, no colours,
    // beside a sheet of text.
    let t = &failed_attempts(2)[1];
    let p = prefix(t, 20);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("typed.xlsx");
    let mut book = rust_xlsxwriter::Workbook::new();
    let typed = book.add_worksheet().set_name("Summary").unwrap();
    for (i, sq) in p.squares().enumerate() {
        typed
            .write_number(4 + sq.row, (4 + sq.col) as u16, i as f64 + 1.0)
            .unwrap();
    }
    let notes = book.add_worksheet().set_name("Notes").unwrap();
    notes.write_string(0, 0, "just words").unwrap();
    book.save(&file).unwrap();
    let report = verify_path(&file, &VerifyOptions::default());
    let done = complete_file(&report, &Budget::nodes(DEFAULT_NODE_BUDGET));
    assert_eq!(done.len(), 2);
    assert!(matches!(done[1].completion, Completion::NotApplicable(_)));
    let Completion::Completed {
        original,
        completed,
    } = &done[0].completion
    else {
        panic!("{:?}", done[0]);
    };
    assert_eq!(original, &p);
    assert_eq!(&completed.indices()[..20], p.indices());
    let out = dir.path().join("out.xlsx");
    save_completions(&out, &done, false, &WriteBudget::unlimited()).unwrap();
    let written = verify_path(&out, &VerifyOptions::default());
    assert_eq!(written.sheets.len(), 2);
    let sheet = &written.sheets[0];
    // The output's own summary keeps its name; the board sheet gives way.
    assert_eq!(sheet.sheet, "Summary (2)");
    assert_eq!(written.sheets[1].sheet, "Summary");
    assert!(sheet.verdict.is_complete_tour(), "{sheet:?}");
    assert_eq!(sheet.board.as_ref().unwrap().top_left.to_string(), "E5");
    assert_eq!(sheet.tour(), Some(completed));
}

#[test]
fn big_boards_are_written_row_by_row_and_still_verify() {
    // 100x100 = 10,000 squares: the constant-memory worksheet, where cells must come in order.
    let board = Board::new(100, 100).unwrap();
    let tour = (0u64..50)
        .map(|seed| {
            warnsdorff::attempt(
                board,
                board.square_at(0),
                Tiebreak::Random,
                &mut rng_from_seed(seed),
            )
        })
        .find(Tour::is_complete)
        .expect("a Warnsdorff tour of 100x100 within 50 seeds");
    let item = CompletedSheet {
        file: "big.xlsx".into(),
        sheet: "Big".into(),
        top_left: "B4".parse().unwrap(),
        result: SheetResult::Completed {
            tour: tour.clone(),
            kept: 5_000,
        },
    };
    let mut bytes = Cursor::new(Vec::new());
    write_completions(&[item], &mut bytes).unwrap();
    let report = verify_bytes(bytes.get_ref(), "big.xlsx", &VerifyOptions::default());
    let sheet = &report.sheets[0];
    assert!(sheet.verdict.is_complete_tour(), "{:?}", sheet.verdict);
    assert_eq!(sheet.board.as_ref().unwrap().top_left.to_string(), "B4");
    assert_eq!(sheet.tour(), Some(&tour));
}

#[test]
fn an_unformatted_short_path_needs_the_range_to_be_completed_on_the_full_board() {
    // Four moves typed at E5 without borders span less than 8x8: the verifier sees only the
    // bounding box of the numbers unless told the range.
    let board = board8();
    let squares = [(0, 0), (1, 2), (0, 4), (2, 3)];
    let p = Tour::from_squares(board, squares.iter().map(|&(r, c)| Square::new(r, c))).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("short.xlsx");
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    for (i, sq) in p.squares().enumerate() {
        sheet
            .write_number(4 + sq.row, (4 + sq.col) as u16, i as f64 + 1.0)
            .unwrap();
    }
    book.save(&file).unwrap();
    let options = VerifyOptions {
        range: Some("E5:L12".parse().unwrap()),
        ..VerifyOptions::default()
    };
    let report = verify_path(&file, &options);
    let done = complete_file(&report, &Budget::nodes(DEFAULT_NODE_BUDGET));
    let Completion::Completed { completed, .. } = &done[0].completion else {
        panic!("{:?}", done[0]);
    };
    assert_eq!(completed.board(), board);
    assert_eq!(&completed.indices()[..4], p.indices());
    // Without the range the board is the 3x5 box of the numbers, not 8x8.
    let guessed = verify_path(&file, &VerifyOptions::default());
    let pos = guessed.sheets[0].board.as_ref().unwrap();
    assert_eq!((pos.rows, pos.cols), (3, 5));
}

/// `verify --complete` end to end: a prefix of a real tour is completed, a stuck attempt is
/// reported as having no completion, and the written workbook verifies as complete tours.
#[test]
fn cli_completes_what_can_be_completed_and_says_what_cannot() {
    use assert_cmd::Command;
    use predicates::prelude::*;

    let dir = tempfile::tempdir().unwrap();
    let board = board8();
    let full = warnsdorff::attempt(
        board,
        Square::new(7, 0),
        Tiebreak::Center,
        &mut rng_from_seed(0),
    );
    assert!(full.is_complete());
    let stuck = failed_attempts(1).remove(0);
    write_attempts(&[prefix(&full, 40), stuck], &dir.path().join("in.xlsx"));
    let run = |args: &[&str]| {
        let mut cmd = Command::cargo_bin("knights-tour").unwrap();
        cmd.current_dir(dir.path()).arg("verify").args(args);
        cmd
    };
    run(&["in.xlsx", "--complete", "out.xlsx"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("no completion exists"))
        .stdout(predicate::str::contains("completed 1 of 2 failed attempts"));
    run(&["out.xlsx"]).assert().success();
    // The output is not replaced without --force, and then the verdicts still print.
    run(&["in.xlsx", "--complete", "out.xlsx"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--force"));
    run(&["in.xlsx", "--complete", "out.xlsx", "--force"])
        .assert()
        .code(1);
}
