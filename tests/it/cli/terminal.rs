//! What a person sees in a terminal (issue 20): the progress line is cleared before the report
//! and never lands in front of it, and no binary picture is written onto the terminal. Run on a
//! pseudo-terminal and read back through a terminal emulator.
#![cfg(unix)]

use crate::support::pty;

fn fixture(rel: &str) -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel)
        .to_string_lossy()
        .into_owned()
}

/// Finding 2: `verify A B` printed its header after "⠁ reading A [0s]".
#[test]
fn the_progress_line_is_gone_before_verify_reports() {
    let dir = tempfile::tempdir().unwrap();
    let files = [
        fixture("samples/tour_5x5_A1.xlsx"),
        fixture("samples/tour_5x5_A1.xlsx"),
    ];
    let seen = pty::run(dir.path(), &["verify", &files[0], &files[1]]);
    assert_eq!(seen.code, Some(0), "{}", seen.screen);
    assert!(!seen.screen.contains("reading"), "{}", seen.screen);
    let headers = seen
        .screen
        .lines()
        .filter(|l| l.contains("tour_5x5_A1.xlsx"))
        .collect::<Vec<_>>();
    assert_eq!(headers.len(), 2, "{}", seen.screen);
    for h in headers {
        assert!(
            h.starts_with(&files[0]),
            "header not at the start of its line: {h:?}"
        );
    }
}

/// Finding 2: `generate -o - --format text` printed the board's first row after
/// "⠁ Warnsdorff attempt 1".
#[test]
fn the_progress_line_is_gone_before_a_board_on_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let seen = pty::run(
        dir.path(),
        &[
            "generate", "--size", "8", "--seed", "1", "--format", "text", "-o", "-",
        ],
    );
    assert_eq!(seen.code, Some(0), "{}", seen.screen);
    assert!(
        !seen.screen.contains("Warnsdorff attempt"),
        "{}",
        seen.screen
    );
    let ranks: Vec<&str> = seen.screen.lines().filter(|l| l.contains(" | ")).collect();
    assert_eq!(ranks.len(), 8, "{}", seen.screen);
    assert!(
        ranks[0].starts_with("8 | "),
        "{:?}\n{}",
        ranks[0],
        seen.screen
    );
}

/// Finding 12: a PNG or GIF is not written onto a terminal; an SVG (text) is.
#[test]
fn no_binary_picture_onto_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    for format in ["png", "gif"] {
        let seen = pty::run(dir.path(), &["draw", "--format", format, "-o", "-"]);
        assert_eq!(seen.code, Some(2), "{format}: {}", seen.screen);
        assert!(
            seen.screen.contains("standard output is a terminal"),
            "{}",
            seen.screen
        );
        assert!(!seen.raw.windows(4).any(|w| w == b"\x89PNG" || w == b"GIF8"));
    }
    let seen = pty::run(dir.path(), &["draw", "--format", "svg", "-o", "-"]);
    assert_eq!(seen.code, Some(0), "{}", seen.screen);
    assert!(seen.screen.contains("<svg"), "{}", seen.screen);
}

/// Issue 44, finding 15: `verify --json -o rep2.csv` on a terminal printed its error twice (the
/// JSON document for scripts, then the message); a person reads it once.
#[test]
fn a_json_error_on_a_terminal_is_said_once() {
    let dir = tempfile::tempdir().unwrap();
    let seen = pty::run(
        dir.path(),
        &["verify", "--json", "-o", "rep2.csv", "x.xlsx"],
    );
    assert_eq!(seen.code, Some(2), "{}", seen.screen);
    assert_eq!(
        seen.screen.matches("--json contradicts").count(),
        1,
        "{}",
        seen.screen
    );
    assert!(!seen.screen.contains("\"error\""), "{}", seen.screen);
}
