//! Several boards per sheet, as people keep them: every sheet of fixtures/samples2 (copied
//! from ../shared/samples2, made by openpyxl, xlwt and odfpy) and of ../shared/realworld
//! (read in place, with `--features corpora`) against its manifest: the boards in
//! reading order with notation, verdict, top-left cell, size, start and the designed problem.
//! Nothing in realworld/odd/ reports a board or panics.

use std::path::{Path, PathBuf};

use knights_tour::verify::{verify_path, BoardReport, FileReport, Notation, VerifyOptions};
use serde_json::Value;

fn project(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// One board against its manifest entry; the reasons it differs.
fn board_errors(want: &Value, got: &BoardReport) -> Vec<String> {
    let mut errs = Vec::new();
    let s = |k: &str| want[k].as_str().unwrap_or_default().to_string();
    let notation = match got.notation {
        Notation::Grid => "grid",
        Notation::List => "list",
    };
    if notation != s("notation") {
        errs.push(format!("notation {notation} != {}", s("notation")));
    }
    if got.verdict.as_str() != s("verdict") {
        errs.push(format!(
            "verdict {} != {}",
            got.verdict.as_str(),
            s("verdict")
        ));
    }
    let at = (
        got.board.top_left.to_string(),
        u64::from(got.board.rows),
        u64::from(got.board.cols),
    );
    let expect = (
        s("top_left"),
        want["rows"].as_u64().unwrap_or(0),
        want["cols"].as_u64().unwrap_or(0),
    );
    if at != expect {
        errs.push(format!("board {at:?} != {expect:?}"));
    }
    if matches!(s("verdict").as_str(), "open" | "closed" | "partial") {
        if notation == "grid" {
            let start = got.start.map(|c| c.to_string()).unwrap_or_default();
            if start != s("start_cell") {
                errs.push(format!("start {start} != {}", s("start_cell")));
            }
        } else {
            let start = got.start_square.map(|q| q.to_string()).unwrap_or_default();
            if start != s("start_square") {
                errs.push(format!("start square {start} != {}", s("start_square")));
            }
        }
    }
    if let Some(from) = want["numbering_from"].as_u64() {
        if u64::from(got.numbering_from) != from {
            errs.push(format!("numbering from {} != {from}", got.numbering_from));
        }
    }
    if let Some(cells) = want["cells"].as_str() {
        let have = got.cells.map(|c| c.to_string()).unwrap_or_default();
        if have != cells {
            errs.push(format!("cells {have} != {cells}"));
        }
    }
    if s("verdict") == "invalid" {
        let designed = want["problems"][0].as_str().unwrap_or_default();
        if !got.problems.iter().any(|p| p.kind.as_str() == designed) {
            errs.push(format!("designed problem {designed} not reported"));
        }
    } else if !got.problems.is_empty() {
        errs.push(format!("problems on a valid board: {:?}", got.problems));
    }
    errs
}

/// Every entry of `dir/manifest.json` against the verifier; the misses.
fn misses(dir: &Path) -> (usize, Vec<String>) {
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    let entries = manifest["entries"].as_array().unwrap();
    let mut out = Vec::new();
    let mut last: Option<(String, FileReport)> = None;
    for e in entries {
        let file = e["file"].as_str().unwrap().to_string();
        if last.as_ref().is_none_or(|(f, _)| *f != file) {
            last = Some((
                file.clone(),
                verify_path(&dir.join(&file), &VerifyOptions::default()),
            ));
        }
        let report = &last.as_ref().unwrap().1;
        let name = e["sheet"].as_str().unwrap();
        let Some(sheet) = report.sheets.iter().find(|s| s.sheet == name) else {
            out.push(format!("{file}[{name}]: no report ({:?})", report.error));
            continue;
        };
        let want = e["boards"].as_array().unwrap();
        if want.len() != sheet.boards.len() {
            let got: Vec<String> = sheet
                .boards
                .iter()
                .map(|b| format!("{} at {}", b.verdict.as_str(), b.board.top_left))
                .collect();
            out.push(format!(
                "{file}[{name}]: {} boards, expected {}: {got:?}",
                sheet.boards.len(),
                want.len()
            ));
            continue;
        }
        // Sheet-level fields describe the first board; a sheet without one says no-board.
        match sheet.boards.first() {
            Some(b) if sheet.verdict != b.verdict || sheet.board.as_ref() != Some(&b.board) => out
                .push(format!(
                    "{file}[{name}]: sheet fields differ from the first board"
                )),
            None if sheet.verdict.as_str() != "no-board" => {
                out.push(format!("{file}[{name}]: no board but {:?}", sheet.verdict))
            }
            _ => {}
        }
        for (i, (w, g)) in want.iter().zip(&sheet.boards).enumerate() {
            for err in board_errors(w, g) {
                out.push(format!("{file}[{name}] board {}: {err}", i + 1));
            }
        }
    }
    (entries.len(), out)
}

#[test]
fn every_samples2_sheet_reads_as_its_manifest_says() {
    let (n, bad) = misses(&project("fixtures/samples2"));
    assert_eq!(n, 19);
    assert!(bad.is_empty(), "{} misses:\n{}", bad.len(), bad.join("\n"));
}

#[test]
#[cfg_attr(
    not(feature = "corpora"),
    ignore = "needs ../shared/realworld: cargo test --features corpora"
)]
fn every_realworld_sheet_reads_as_its_manifest_says() {
    let dir = crate::support::corpus("realworld");
    let (_, bad) = misses(&dir);
    assert!(bad.is_empty(), "{} misses:\n{}", bad.len(), bad.join("\n"));
}

#[test]
#[cfg_attr(
    not(feature = "corpora"),
    ignore = "needs ../shared/realworld: cargo test --features corpora"
)]
fn nothing_in_realworld_odd_is_a_board() {
    let dir = crate::support::corpus("realworld");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir.join("odd")).unwrap() {
        let path = entry.unwrap().path();
        let report = verify_path(&path, &VerifyOptions::default());
        seen += 1;
        let boards: Vec<String> = report
            .sheets
            .iter()
            .flat_map(|s| {
                s.boards
                    .iter()
                    .map(move |b| format!("{}!{}", s.sheet, b.board.top_left))
            })
            .collect();
        assert!(boards.is_empty(), "{}: {boards:?}", path.display());
        assert_ne!(
            report.exit_code(),
            0,
            "{}: no board must not pass",
            path.display()
        );
    }
    assert!(seen >= 10);
}
