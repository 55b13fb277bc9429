//! The 17 sample workbooks in fixtures/samples/ (made by openpyxl, xlwt, odfpy and LibreOffice,
//! not by this tool) with the verdict manifest.json expects for each of their 32 entries:
//! verdict, board position and size, start cell, start highlighting, and the problem kinds
//! (every designed kind reported, nothing outside `problems` + `may_also`).

use std::collections::BTreeSet;
use std::path::PathBuf;

use knights_tour::verify::{verify_path, FileReport, VerifyOptions};
use serde_json::Value;

fn samples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/samples")
}

fn kinds(v: &Value) -> BTreeSet<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|k| k.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

fn check_entry(entry: &Value, report: &FileReport) -> Result<(), String> {
    let verdict = entry["verdict"].as_str().unwrap_or_default();
    if verdict == "unreadable" {
        if report.readable || report.error.is_none() || !report.sheets.is_empty() {
            return Err(format!("expected unreadable, got {report:?}"));
        }
        if let Some(part) = entry["error_contains"].as_str() {
            let error = report.error.as_deref().unwrap_or_default();
            if !error.contains(part) {
                return Err(format!("error {error:?} does not say {part:?}"));
            }
        }
        return Ok(());
    }
    if !report.readable {
        return Err(format!("unreadable: {:?}", report.error));
    }
    let index = entry["sheet_index"].as_u64().ok_or("no sheet_index")? as usize;
    let sheet = report
        .sheets
        .iter()
        .find(|s| s.index == index)
        .ok_or_else(|| format!("no report for sheet {index}"))?;
    if sheet.sheet != entry["sheet"].as_str().unwrap_or_default() {
        return Err(format!("sheet name {} differs", sheet.sheet));
    }
    if sheet.verdict.as_str() != verdict {
        return Err(format!(
            "verdict {} instead of {verdict}; problems {:?}",
            sheet.verdict.as_str(),
            sheet.problems
        ));
    }
    match (&sheet.board, entry["top_left"].as_str()) {
        (None, None) => {}
        (Some(b), Some(tl)) => {
            let want = (tl, entry["rows"].as_u64(), entry["cols"].as_u64());
            let top_left = b.top_left.to_string();
            let got = (
                top_left.as_str(),
                Some(u64::from(b.rows)),
                Some(u64::from(b.cols)),
            );
            if want != got {
                return Err(format!("board {got:?} instead of {want:?}"));
            }
        }
        (b, tl) => return Err(format!("board {b:?} but manifest says {tl:?}")),
    }
    if let Some(start) = entry["start_cell"].as_str() {
        if sheet.start.map(|c| c.to_string()).as_deref() != Some(start) {
            return Err(format!("start {:?} instead of {start}", sheet.start));
        }
    }
    let format = entry["format"].as_str().unwrap_or_default();
    let expect_highlight = match format {
        "xlsx" | "xlsm" if entry["start_cell"].is_string() => Some(entry["start_fill"].is_string()),
        _ => None,
    };
    if sheet.start_highlighted != expect_highlight {
        return Err(format!(
            "start_highlighted {:?} instead of {expect_highlight:?}",
            sheet.start_highlighted
        ));
    }
    let required = kinds(&entry["problems"]);
    let allowed: BTreeSet<String> = required
        .union(&kinds(&entry["may_also"]))
        .cloned()
        .collect();
    let got: BTreeSet<String> = sheet
        .problems
        .iter()
        .map(|p| p.kind.as_str().to_string())
        .collect();
    if !required.is_subset(&got) {
        return Err(format!(
            "missing problem kinds: got {got:?}, need {required:?}"
        ));
    }
    if !got.is_subset(&allowed) {
        return Err(format!(
            "unexpected problem kinds: got {got:?}, allowed {allowed:?}"
        ));
    }
    for p in &sheet.problems {
        if p.message.is_empty() {
            return Err(format!("empty message in {p:?}"));
        }
    }
    Ok(())
}

fn check_manifest(dir: &std::path::Path, expected_entries: usize) {
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    let entries = manifest["entries"].as_array().unwrap();
    assert_eq!(entries.len(), expected_entries);
    let mut failures = Vec::new();
    for entry in entries {
        let file = entry["file"].as_str().unwrap();
        let report = verify_path(&dir.join(file), &VerifyOptions::default());
        if let Err(why) = check_entry(entry, &report) {
            failures.push(format!("{file} / {}: {why}", entry["sheet"]));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_manifest_entry_gets_its_expected_verdict() {
    check_manifest(&samples(), 32);
}

/// fixtures/extra/ (written by fixtures/make_extra.py): boards far from A1, labels on the
/// right and bottom, numbers as text with spaces, a huge used range, renamed and encrypted
/// files, partial boards at the edge, several problems at once.
#[test]
fn every_extra_fixture_gets_its_expected_verdict() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/extra");
    check_manifest(&dir, 31);
}

#[test]
fn every_sheet_of_every_readable_sample_is_reported_in_order() {
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(samples().join("manifest.json")).unwrap())
            .unwrap();
    let mut files: Vec<&str> = manifest["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["sheet"].is_string())
        .map(|e| e["file"].as_str().unwrap())
        .collect();
    files.dedup();
    for file in files {
        let report = verify_path(&samples().join(file), &VerifyOptions::default());
        let expected: Vec<&str> = manifest["entries"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["file"] == file)
            .map(|e| e["sheet"].as_str().unwrap())
            .collect();
        let got: Vec<&str> = report.sheets.iter().map(|s| s.sheet.as_str()).collect();
        assert_eq!(got, expected, "{file}");
    }
}

#[test]
fn complete_and_partial_sheets_yield_their_path() {
    let report = verify_path(
        &samples().join("macro_runs.xlsm"),
        &VerifyOptions::default(),
    );
    let partial = &report.sheets[1];
    let tour = partial.tour().expect("a failed attempt has a path");
    assert_eq!(tour.len(), 58);
    assert_eq!(tour.check(), Ok(()));
    let closed = report.sheets[0].tour().unwrap();
    assert!(closed.is_closed());
    let invalid = verify_path(&samples().join("invalid_b.ods"), &VerifyOptions::default());
    assert!(invalid.sheets.iter().all(|s| s.tour().is_none()));
}
