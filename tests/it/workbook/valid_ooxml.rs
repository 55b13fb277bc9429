//! Every kind of workbook the tool writes is valid Office Open XML, as an OOXML validator
//! (`openxml-audit`, `python3 -m openxml_audit -f microsoft365`) judges it for Microsoft 365:
//! no schema or semantic finding, so Excel opens it without a repair. No Excel is at hand to
//! try them, so this is the check (issue 44: the path charts once wrote a scatter series' marker
//! before its shape properties, out of the schema's order).
//!
//! Ignored by default, as it needs Python with `pip install openxml-audit` (`.ci/run` installs
//! it); run with `cargo test --test valid_ooxml -- --include-ignored`. Without the validator
//! the test fails, it does not skip.

use std::path::Path;
use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;

/// Run `knights-tour ARGS` in `dir`; exit 0 or 1 (a failed attempt, a partial board) are fine,
/// but the file must be written.
fn knights_tour(dir: &Path, args: &[&str], writes: &str) {
    let out = Command::cargo_bin("knights-tour")
        .unwrap()
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "knights-tour {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        dir.join(writes).is_file(),
        "knights-tour {args:?} wrote no {writes}"
    );
}

/// Every workbook kind: each `generate` variant, failed attempts, `--method hand`, `--all`,
/// `--path on` past one chart's 255 series, `pairs`, `puzzle`, `template`, a class report
/// (a marked grid with its path, a marked list with its picture, a failed attempt) and a
/// `--complete` workbook.
fn write_every_kind(dir: &Path) -> Vec<&'static str> {
    let cases: &[(&[&str], &str)] = &[
        (
            &["generate", "--seed", "1", "-o", "default.xlsx"],
            "default.xlsx",
        ),
        (
            &["generate", "--closed", "--seed", "1", "-o", "closed.xlsx"],
            "closed.xlsx",
        ),
        (
            &[
                "generate",
                "--tours",
                "3",
                "--seed",
                "1",
                "-o",
                "tours3.xlsx",
            ],
            "tours3.xlsx",
        ),
        (
            &[
                "generate",
                "--size",
                "10",
                "--method",
                "warnsdorff",
                "--seed",
                "4",
                "-o",
                "failed.xlsx",
            ],
            "failed.xlsx",
        ),
        (
            &[
                "generate", "--start", "a1", "--end", "h1", "--seed", "1", "-o", "end.xlsx",
            ],
            "end.xlsx",
        ),
        (
            &[
                "generate",
                "--constraints",
                "moves.txt",
                "--seed",
                "1",
                "-o",
                "constrained.xlsx",
            ],
            "constrained.xlsx",
        ),
        (
            &[
                "generate",
                "--method",
                "hand",
                "--seed",
                "17",
                "-o",
                "hand.xlsx",
            ],
            "hand.xlsx",
        ),
        (
            &[
                "generate", "--all", "--size", "5", "--start", "a1", "--limit", "20", "-o",
                "all.xlsx",
            ],
            "all.xlsx",
        ),
        (
            &[
                "generate",
                "--size",
                "100",
                "--seed",
                "7",
                "-o",
                "hundred.xlsx",
            ],
            "hundred.xlsx",
        ),
        (
            &[
                "generate",
                "--size",
                "200",
                "--seed",
                "1",
                "--method",
                "warnsdorff",
                "--tiebreak",
                "center",
                "--path",
                "on",
                "-o",
                "path-on.xlsx",
            ],
            "path-on.xlsx",
        ),
        (
            &["pairs", "--size", "5", "--seed", "1", "-o", "pairs.xlsx"],
            "pairs.xlsx",
        ),
        (
            &["puzzle", "--size", "6", "--seed", "1", "-o", "puzzle.xlsx"],
            "puzzle.xlsx",
        ),
        (
            &["template", "--size", "8", "-o", "template.xlsx"],
            "template.xlsx",
        ),
        (&["verify", "class", "-o", "report.xlsx"], "report.xlsx"),
        (
            &[
                "verify",
                "--board-size",
                "8x8",
                "begun.csv",
                "--complete",
                "completed.xlsx",
            ],
            "completed.xlsx",
        ),
    ];
    std::fs::write(dir.join("moves.txt"), "1 a1\n32 d5\n64 h1\n").unwrap();
    std::fs::write(dir.join("begun.csv"), "a1\nb3\nc5\nd7\n").unwrap();
    let class = dir.join("class");
    std::fs::create_dir(&class).unwrap();
    std::fs::write(class.join("ben.csv"), "1,4,7,10\n12,8,2,5\n3,6,11,9\n").unwrap();
    std::fs::write(class.join("list.csv"), "a1\nb3\nc5\nd7\n").unwrap();
    let mut written = Vec::new();
    for (args, file) in cases {
        if args[0] == "verify" && args[1] == "class" {
            std::fs::copy(dir.join("failed.xlsx"), class.join("failed.xlsx")).unwrap();
        }
        knights_tour(dir, args, file);
        written.push(*file);
    }
    written
}

#[test]
#[cfg_attr(
    not(feature = "external"),
    ignore = "needs python3 with openxml-audit (pip install openxml-audit): cargo test --features external"
)]
fn every_workbook_the_tool_writes_is_valid_ooxml() {
    crate::support::require_program("python3", "apt-get install -y python3");
    let audit = Command::new("python3")
        .args(["-c", "import openxml_audit"])
        .output()
        .unwrap();
    assert!(
        audit.status.success(),
        "python3 cannot import openxml_audit: install it with `pip install openxml-audit` \
         (or run without --features external): {}",
        String::from_utf8_lossy(&audit.stderr)
    );
    let dir = tempfile::tempdir().unwrap();
    let files = write_every_kind(dir.path());
    let out = Command::new("python3")
        .current_dir(dir.path())
        .args([
            "-m",
            "openxml_audit",
            "-f",
            "microsoft365",
            "-o",
            "json",
            "-r",
            ".",
        ])
        .output()
        .expect("python3, with openxml-audit installed (pip install openxml-audit)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "openxml-audit gave no JSON report ({e}); is it installed (pip install \
             openxml-audit)?\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let entries = report.as_array().expect("a list of files");
    assert!(
        entries.len() > files.len(),
        "the class folder's copy too: {stdout}"
    );
    for entry in entries {
        assert_eq!(entry["valid"], true, "{entry:#}");
    }
    for file in &files {
        let entry = entries
            .iter()
            .find(|e| e["file"].as_str() == Some(file))
            .unwrap_or_else(|| panic!("{file} not in the validator's report: {stdout}"));
        assert_eq!(entry["valid"], true, "{file}: {entry:#}");
        assert_eq!(entry["error_count"], 0, "{file}: {entry:#}");
        assert_eq!(entry["warning_count"], 0, "{file}: {entry:#}");
    }
}
