//! Tours as other people write them down (issue 40), read from files other programs made:
//! fixtures/wild/ (ExcelJS, Apache POI HSSF and openpyxl, written once by
//! fixtures/wild/make_wild.py: lines pasted one a cell, labelled grids, attempts stacked in
//! frames) and ../shared/samples4 (tours copied byte for byte from public sources, as text,
//! CSV/TSV and pasted workbooks), each against its manifest.

use std::path::{Path, PathBuf};

use knights_tour::verify::{verify_path, BoardReport, VerifyOptions};
use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn manifest(dir: &Path) -> Value {
    let path = dir.join("manifest.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{} cannot be read: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

fn describe(b: &BoardReport) -> String {
    format!(
        "{} {}x{} start {} at {}",
        b.verdict.as_str(),
        b.board.rows,
        b.board.cols,
        b.start_square.map(|s| s.to_string()).unwrap_or_default(),
        b.board.top_left
    )
}

#[test]
fn the_wild_fixtures_read_as_their_manifest_says() {
    let dir = root().join("fixtures/wild");
    let m = manifest(&dir);
    let mut misses = Vec::new();
    let mut boards = 0;
    for f in m["files"].as_array().unwrap() {
        let file = f["file"].as_str().unwrap();
        let report = verify_path(&dir.join(file), &VerifyOptions::default());
        assert!(report.readable, "{file}: {:?}", report.error);
        for s in f["sheets"].as_array().unwrap() {
            let name = s["sheet"].as_str().unwrap();
            let got: Vec<String> = report
                .sheets
                .iter()
                .find(|x| x.sheet == name)
                .map(|x| x.boards.iter().map(describe).collect())
                .unwrap_or_default();
            let want: Vec<String> = s["boards"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| {
                    format!(
                        "{} {}x{} start {} at {}",
                        b["verdict"].as_str().unwrap(),
                        b["rows"],
                        b["cols"],
                        b["start"].as_str().unwrap(),
                        b["top_left"].as_str().unwrap()
                    )
                })
                .collect();
            boards += want.len();
            if got != want {
                misses.push(format!("{file} / {name}: want {want:?}, got {got:?}"));
            }
        }
    }
    assert!(boards >= 50, "the manifest lists {boards} boards");
    assert!(misses.is_empty(), "{}", misses.join("\n"));
}

/// Whether a board matches an expected one of samples4's manifest: the verdict (or one the
/// manifest also accepts), and for a tour the size and the start square (or one of
/// `start_ok`).
fn matches(want: &Value, got: &BoardReport) -> bool {
    let verdict = got.verdict.as_str();
    let also = want["verdict_ok"].as_array();
    if also.is_some_and(|ok| ok.iter().any(|v| v.as_str() == Some(verdict))) {
        return true;
    }
    if want["verdict"] == "invalid" {
        return verdict == "invalid";
    }
    let start = got
        .start_square
        .map(|s| s.to_string().to_lowercase())
        .unwrap_or_default();
    let starts: Vec<&str> = std::iter::once(want["start"].as_str().unwrap_or_default())
        .chain(
            want["start_ok"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str),
        )
        .collect();
    want["verdict"].as_str() == Some(verdict)
        && want["rows"].as_u64() == Some(u64::from(got.board.rows))
        && want["cols"].as_u64() == Some(u64::from(got.board.cols))
        && starts.contains(&start.as_str())
}

#[test]
#[cfg_attr(
    not(feature = "corpora"),
    ignore = "needs ../shared/samples4: cargo test --features corpora"
)]
fn every_file_of_samples4_reads_as_its_manifest_says() {
    let dir = crate::support::corpus("samples4");
    let m = manifest(&dir);
    let files = m["files"].as_array().unwrap();
    assert!(files.len() >= 38, "{} files in the manifest", files.len());
    let mut misses = Vec::new();
    for f in files {
        let file = f["file"].as_str().unwrap();
        let report = verify_path(&dir.join(file), &VerifyOptions::default());
        let got: Vec<&BoardReport> = report.sheets.iter().flat_map(|s| &s.boards).collect();
        let want = f["boards"].as_array().unwrap();
        let right = got.len() == want.len() && want.iter().zip(&got).all(|(w, g)| matches(w, g));
        if !right {
            let got: Vec<String> = got.iter().map(|b| describe(b)).collect();
            misses.push(format!("{file}: want {want:?}, got {got:?}"));
        }
    }
    assert!(
        misses.is_empty(),
        "{} of {} files miss:\n{}",
        misses.len(),
        files.len(),
        misses.join("\n")
    );
}
