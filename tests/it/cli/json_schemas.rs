//! The JSON documents match their schemas in `docs/schemas/` (issue 20, finding 13): real
//! outputs of `generate --json`, the JSON tour file, `verify --json` and the error document are
//! validated, and each schema documents every field and requires the documented ones.

use assert_cmd::Command;
use serde_json::Value;

use crate::support::schema;

const SCHEMAS: [&str; 5] = [
    "generate-summary.schema.json",
    "tour.schema.json",
    "verify-report.schema.json",
    "error.schema.json",
    "puzzle.schema.json",
];

fn run(dir: &std::path::Path, args: &[&str]) -> Value {
    let out = Command::cargo_bin("knights-tour")
        .unwrap()
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{args:?}: {e}\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

fn file(dir: &std::path::Path, name: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap()
}

fn assert_valid(schema_name: &str, doc: &Value, what: &str) {
    let errors = schema::validate(&schema::load(schema_name), doc);
    assert!(
        errors.is_empty(),
        "{what} against {schema_name}:\n{}",
        errors.join("\n")
    );
}

#[test]
fn every_schema_documents_each_field_and_uses_only_what_the_test_checks() {
    for name in SCHEMAS {
        let problems = schema::check_schema(&schema::load(name));
        assert!(problems.is_empty(), "{name}:\n{}", problems.join("\n"));
    }
}

#[test]
fn generate_summaries_and_tour_files_match_their_schemas() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let runs: &[&[&str]] = &[
        &["generate", "--size", "6", "--seed", "1", "--json"],
        // Seed 1 on 5x5: a failed attempt before the tour.
        &[
            "generate", "--size", "5", "--seed", "1", "--json", "-o", "w.xlsx",
        ],
        &[
            "generate",
            "--method",
            "warnsdorff",
            "--closed",
            "--size",
            "6",
            "--attempts",
            "1",
            "--seed",
            "1",
            "--json",
            "-o",
            "failed.json",
        ],
        &[
            "generate", "--size", "8", "--seed", "2", "--json", "-o", "one.json",
        ],
        &[
            "generate",
            "--tours",
            "3",
            "--method",
            "construct",
            "--seed",
            "4",
            "--json",
            "-o",
            "three.json",
        ],
        &[
            "generate", "--all", "--size", "5", "--start", "a1", "--limit", "3", "--json", "-o",
            "all.json",
        ],
        &[
            "generate",
            "--method",
            "hand",
            "--seed",
            "1",
            "--json",
            "-o",
            "hand.json",
        ],
        &[
            "generate", "--all", "--size", "5", "--start", "a1", "--json", "-o", "all.csv",
        ],
        // The time limit comes while writing (issue 20, finding 7): no file, no sheets.
        &[
            "generate",
            "--size",
            "1000",
            "--seed",
            "1",
            "--timeout",
            "0.5",
            "--json",
            "-o",
            "cut.xlsx",
        ],
    ];
    for args in runs {
        assert_valid(
            "generate-summary.schema.json",
            &run(d, args),
            &format!("{args:?}"),
        );
    }
    for name in [
        "failed.json",
        "one.json",
        "three.json",
        "all.json",
        "hand.json",
    ] {
        assert_valid("tour.schema.json", &file(d, name), name);
    }
    // The shapes the schema allows are the ones written: an object for one tour, a list else.
    assert!(file(d, "one.json").is_object() && file(d, "failed.json").is_object());
    assert!(file(d, "three.json").is_array() && file(d, "all.json").is_array());
}

#[test]
fn verify_reports_match_their_schema() {
    let samples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/samples");
    let mut files: Vec<String> = std::fs::read_dir(&samples)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e != "md" && e != "json"))
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert!(files.len() > 10, "{files:?}");
    files.push("no-such-file.xlsx".into());
    let dir = tempfile::tempdir().unwrap();
    let mut args = vec!["verify", "--json"];
    args.extend(files.iter().map(String::as_str));
    let doc = run(dir.path(), &args);
    // The sample set shows every verdict the schema names but no-board ... and no-board too.
    let verdicts: std::collections::BTreeSet<&str> = doc["files"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|f| f["sheets"].as_array().unwrap())
        .filter_map(|s| s["verdict"].as_str())
        .collect();
    assert!(verdicts.len() >= 4, "{verdicts:?}");
    assert_valid(
        "verify-report.schema.json",
        &doc,
        "verify --json fixtures/samples/*",
    );
}

/// The fields added for issue 19 are in the schema and in real reports: `magic` on a complete
/// tour whose ranks and files sum alike (Beverley's, 1848), `numbers` on problems.
#[test]
fn magic_tours_and_problem_numbers_match_the_schema() {
    let dir = tempfile::tempdir().unwrap();
    let beverley = "1,30,47,52,5,28,43,54\n48,51,2,29,44,53,6,27\n31,46,49,4,25,8,55,42\n\
                    50,3,32,45,56,41,26,7\n33,62,15,20,9,24,39,58\n16,19,34,61,40,57,10,23\n\
                    63,14,17,36,21,12,59,38\n18,35,64,13,60,37,22,11\n";
    std::fs::write(dir.path().join("beverley.csv"), beverley).unwrap();
    // 52 typed twice, and so 54 missing: a problem about each number.
    std::fs::write(dir.path().join("twice.csv"), beverley.replace("54", "52")).unwrap();
    let doc = run(
        dir.path(),
        &["verify", "--json", "beverley.csv", "twice.csv"],
    );
    let board = |f: usize| doc["files"][f]["sheets"][0]["boards"][0].clone();
    assert_eq!(board(0)["magic"], "semi-magic");
    let numbers: Vec<Value> = board(1)["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["numbers"].clone())
        .collect();
    assert_eq!(
        numbers,
        [serde_json::json!([52]), serde_json::json!([54, 54])]
    );
    assert_valid(
        "verify-report.schema.json",
        &doc,
        "verify --json beverley.csv twice.csv",
    );
}

#[test]
fn puzzle_files_and_the_reports_on_them_match_their_schemas() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let runs: &[&[&str]] = &[
        &["puzzle", "--size", "6", "--seed", "1", "-o", "medium.json"],
        &[
            "puzzle",
            "--rows",
            "5",
            "--cols",
            "6",
            "--clues",
            "9",
            "--count",
            "2",
            "--seed",
            "2",
            "-o",
            "clues.json",
        ],
        &["puzzle", "--size", "5", "--seed", "3", "-o", "p.xlsx"],
    ];
    for args in runs {
        let out = Command::cargo_bin("knights-tour")
            .unwrap()
            .current_dir(d)
            .args(*args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}");
    }
    for name in ["medium.json", "clues.json"] {
        assert_valid("puzzle.schema.json", &file(d, name), name);
    }
    assert_eq!(file(d, "medium.json")["difficulty"], "medium");
    assert!(file(d, "clues.json").get("difficulty").is_none());
    // An unfilled puzzle is `unfinished`, a verdict the report's schema names.
    let doc = run(d, &["verify", "--json", "p.xlsx"]);
    assert_eq!(
        doc["files"][0]["sheets"][0]["verdict"], "unfinished",
        "{doc}"
    );
    assert_valid("verify-report.schema.json", &doc, "verify --json p.xlsx");
}

#[test]
fn error_documents_match_their_schema() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["generate", "--json", "--size", "3"][..],
        &["generate", "--json", "--size", "x"][..],
        &["verify", "--json", "--range", "A1", "x.xlsx"][..],
    ] {
        assert_valid(
            "error.schema.json",
            &run(dir.path(), args),
            &format!("{args:?}"),
        );
    }
}

/// The validator rejects what it should: a missing required field, a wrong type, a verdict
/// word outside the contract; extra fields are allowed (other engineers add fields).
#[test]
fn the_validator_can_fail() {
    let dir = tempfile::tempdir().unwrap();
    let summary = run(
        dir.path(),
        &["generate", "--size", "5", "--seed", "3", "--json"],
    );
    let schema = schema::load("generate-summary.schema.json");
    let mut missing = summary.clone();
    missing.as_object_mut().unwrap().remove("solved");
    assert!(!schema::validate(&schema, &missing).is_empty());
    let mut wrong = summary.clone();
    wrong["attempts"] = Value::from("three");
    assert!(!schema::validate(&schema, &wrong).is_empty());
    let mut extra = summary.clone();
    extra["magic"] = Value::from(true);
    assert!(schema::validate(&schema, &extra).is_empty());
    let report = serde_json::json!({"files": [{"file": "a.xlsx", "format": "xlsx", "readable": true,
        "error": null, "sheets": [{"sheet": "S", "index": 0, "verdict": "great", "board": null,
        "moves": 0, "start": null, "end": null, "start_highlighted": null, "problems": [],
        "boards": []}]}]});
    let errors = schema::validate(&schema::load("verify-report.schema.json"), &report);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].contains("/files/0/sheets/0/verdict"),
        "{errors:?}"
    );
}

/// The README names every schema, so a reader of `--json` output finds its fields.
#[test]
fn the_readme_names_every_schema() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let mut names: Vec<String> = std::fs::read_dir(root.join("docs/schemas"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.len() >= 5, "{names:?}");
    for name in names {
        assert!(
            readme.contains(&format!("docs/schemas/{name}")),
            "README.md does not name docs/schemas/{name}"
        );
    }
}
