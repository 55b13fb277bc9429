//! Messages speak English and name what the user named: "an 8x8 board", "1 column",
//! "1 move", a cell where a range was asked for, the output file (never the temp file).

use predicates::prelude::*;
use predicates::str::contains;

use crate::support::cmd;
use crate::support::fixture;

#[test]
fn a_board_that_does_not_fit_is_an_8x8_board_with_room_for_1_column() {
    let dir = tempfile::tempdir().unwrap();
    for sub in ["generate", "template"] {
        cmd()
            .current_dir(dir.path())
            .args([sub, "--size", "8", "--at", "XFD1"])
            .assert()
            .code(2)
            .stderr(contains("an 8x8 board does not fit"))
            .stderr(contains("at most 1 column fits from column XFD"))
            .stderr(contains("a 8x8").not());
    }
    cmd()
        .current_dir(dir.path())
        .args(["template", "--size", "11", "--at", "A1048570"])
        .assert()
        .code(2)
        .stderr(contains("an 11x11 board does not fit"))
        .stderr(contains("its 11 rows"));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn a_cell_given_for_a_range_asks_for_two_corners() {
    cmd()
        .args(["verify", "--range", "A1"])
        .arg(fixture("samples/tour_5x5_A1.xlsx"))
        .assert()
        .code(2)
        .stderr(contains(
            "'A1' is not a cell range: give two corners, like A1:H8",
        ))
        .stderr(contains("not a cell reference").not());
}

/// A path of k squares is k - 1 moves (issue 20: "64 moves" for 64 squares), a closed tour of
/// k squares k moves (its closing move counts), and a board of one square is "the 1 square",
/// never "all 1 squares". The 8x8 tours are chosen to be open (a1 to h7 are no knight's move
/// apart) and closed, not left to a random start (about one in ten is closed).
#[test]
fn moves_are_counted_between_squares() {
    let dir = tempfile::tempdir().unwrap();
    cmd()
        .current_dir(dir.path())
        .args(["draw", "--size", "1", "-o", "one.svg"])
        .assert()
        .success()
        .stdout(contains("(0 moves)"));
    cmd()
        .current_dir(dir.path())
        .args([
            "draw",
            "--size",
            "8",
            "--start",
            "a1",
            "--end",
            "h7",
            "-o",
            "eight.svg",
        ])
        .assert()
        .success()
        .stdout(contains("(63 moves)"))
        .stdout(contains("closed").not());
    cmd()
        .current_dir(dir.path())
        .args(["draw", "--size", "8", "--closed", "-o", "closed.svg"])
        .assert()
        .success()
        .stdout(contains("closed tour"))
        .stdout(contains("(64 moves)"));
    cmd()
        .current_dir(dir.path())
        .args(["generate", "--size", "1", "-o", "one.xlsx"])
        .assert()
        .success();
    let texts = sheet_texts(&dir.path().join("one.xlsx"), "Tour 1");
    assert!(
        texts
            .iter()
            .any(|t| t.contains("a complete open tour of the 1 square")
                || t.contains("a complete closed tour of the 1 square")),
        "{texts:?}"
    );
    assert!(
        texts.iter().all(|t| !t.contains("all 1 squares")),
        "{texts:?}"
    );
    assert!(texts.iter().any(|t| t.ends_with(", 0 moves")), "{texts:?}");
    // A stuck attempt's note: on 2x3, a1 to c2, and the knight has nowhere else to go.
    use knights_tour::board::{Board, Square};
    let board = Board::new(2, 3).unwrap();
    let stuck =
        knights_tour::tour::Tour::from_squares(board, [Square::new(1, 0), Square::new(0, 2)])
            .unwrap();
    assert!(stuck.is_stuck());
    let request = knights_tour::solve::Request::open(board);
    let note = knights_tour::solve::runner::failure_note(&request, &stuck);
    assert_eq!(note.as_deref(), Some("stuck at c2 after 1 move"));
}

/// Every text cell of a sheet.
fn sheet_texts(path: &std::path::Path, sheet: &str) -> Vec<String> {
    use calamine::{open_workbook, Data, Reader, Xlsx};
    let mut wb: Xlsx<_> = open_workbook(path).unwrap();
    let range = wb.worksheet_range(sheet).unwrap();
    range
        .rows()
        .flatten()
        .filter_map(|c| match c {
            Data::String(s) => Some(s.clone()),
            _ => None,
        })
        .collect()
}

/// Nobody, not even root, may create a file in /sys: the error names the output the user
/// asked for, not the temp file beside it.
#[cfg(target_os = "linux")]
#[test]
fn an_unwritable_folder_names_the_output_not_the_temp_file() {
    for sub in ["generate", "template"] {
        cmd()
            .args([sub, "--size", "5", "-o", "/sys/tour.xlsx"])
            .assert()
            .code(2)
            .stderr(contains("/sys/tour.xlsx"))
            .stderr(contains(".tmp").not())
            .stderr(contains(".knights-tour-").not());
    }
}

/// Issue 20, finding 12: one error style. Our usage errors read like clap's own (`error: `, the
/// subcommand's usage, the pointer to --help), and every other error starts `error: ` too.
#[test]
fn every_error_has_one_style() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        let out = cmd()
            .current_dir(dir.path())
            .args(args)
            .assert()
            .code(2)
            .get_output()
            .stderr
            .clone();
        String::from_utf8(out).unwrap()
    };
    let clap = run(&["generate", "--size", "x"]);
    let ours = run(&["generate", "--method", "construct", "--tiebreak", "pohl"]);
    for text in [&clap, &ours] {
        assert!(text.starts_with("error: "), "{text}");
        assert!(
            text.contains("For more information, try '--help'."),
            "{text}"
        );
    }
    assert!(ours.contains("Usage: knights-tour generate"), "{ours}");
    let impossible = run(&["generate", "--size", "3"]);
    assert!(
        impossible.starts_with("error: no knight's tour exists"),
        "{impossible}"
    );
    assert!(!impossible.contains("knights-tour: error"), "{impossible}");
    // A notice reads like the errors too: a lower-case word and a colon, no program name.
    std::fs::write(dir.path().join("none.csv"), "just words\n").unwrap();
    let out = cmd()
        .current_dir(dir.path())
        .args(["verify", "none.csv"])
        .assert()
        .code(1)
        .get_output()
        .stderr
        .clone();
    let notice = String::from_utf8(out).unwrap();
    assert!(
        notice.starts_with("note: no board found in none.csv"),
        "{notice}"
    );
}

/// Issue 20, finding 12: `generate --json` answers with a JSON document also when it fails.
#[test]
fn json_is_printed_when_a_run_fails() {
    let dir = tempfile::tempdir().unwrap();
    for (args, kind) in [
        (&["generate", "--json", "--size", "3"][..], "impossible"),
        (&["generate", "--json", "--size", "x"][..], "usage"),
        (
            &[
                "generate",
                "--json",
                "--method",
                "construct",
                "--attempts",
                "2",
            ][..],
            "usage",
        ),
        (
            &["verify", "--json", "--range", "A1", "x.xlsx"][..],
            "usage",
        ),
    ] {
        let out = cmd()
            .current_dir(dir.path())
            .args(args)
            .assert()
            .code(2)
            .get_output()
            .stdout
            .clone();
        let v: serde_json::Value = serde_json::from_slice(&out)
            .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&out)));
        // `solved` is generate's (issue 44, finding 15: verify's error carried it too).
        match args[0] {
            "verify" => assert!(v.get("solved").is_none(), "{args:?}"),
            _ => assert_eq!(v["solved"], false, "{args:?}"),
        }
        assert_eq!(v["error"], kind, "{args:?}");
        assert_eq!(v["exit_code"], 2, "{args:?}");
        assert!(!v["message"].as_str().unwrap().is_empty(), "{args:?}");
    }
}
