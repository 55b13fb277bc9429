//! The readers beside xlsx, end to end: ods as LibreOffice and Gnumeric write it (our own
//! reader), flat ods. Every file is built here, in Rust.

mod common;
mod workdir;

use std::io::Write;

use predicates::prelude::*;
use serde_json::Value;
use workdir::WorkDir;

/// The closed 8x8 tour of `common` as rows of move numbers.
fn closed_grid() -> Vec<Vec<u32>> {
    let mut grid = vec![vec![0u32; 8]; 8];
    for (i, &(r, c)) in common::CLOSED_8X8.iter().enumerate() {
        grid[r as usize][c as usize] = i as u32 + 1;
    }
    grid
}

const ODS_NS: &str = r#"xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0""#;

const ODS_MIME: &[u8] = b"application/vnd.oasis.opendocument.spreadsheet";

const MANIFEST: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>"#;

fn zip_file(path: &std::path::Path, members: &[(&str, &[u8])]) {
    let mut z = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    for (name, body) in members {
        let options = zip::write::SimpleFileOptions::default();
        z.start_file(*name, options).unwrap();
        z.write_all(body).unwrap();
    }
    z.finish().unwrap();
}

/// A sheet as Gnumeric writes it: indented, a row of 16384 empty cells first, every row
/// ending in thousands of empty cells; the board from column B.
fn gnumeric_table(name: &str, grid: &[Vec<u32>]) -> String {
    let mut t = format!("\n      <table:table table:name=\"{name}\">\n");
    t += "        <table:table-column table:number-columns-repeated=\"16384\"/>\n";
    t += "        <table:table-row>\n          <table:table-cell table:number-columns-repeated=\"16384\"/>\n        </table:table-row>\n";
    for row in grid {
        t += "        <table:table-row>\n          <table:table-cell/>\n";
        for &v in row {
            if v == 0 {
                t += "          <table:table-cell/>\n";
            } else {
                t += &format!("          <table:table-cell office:value-type=\"float\" office:value=\"{v}\">\n            <text:p>{v}</text:p>\n          </table:table-cell>\n");
            }
        }
        t += &format!(
            "          <table:table-cell table:number-columns-repeated=\"{}\"/>\n        </table:table-row>\n",
            16384 - 1 - row.len()
        );
    }
    t += "        <table:table-row table:number-rows-repeated=\"1048566\">\n          <table:table-cell table:number-columns-repeated=\"16384\"/>\n        </table:table-row>\n      </table:table>";
    t
}

fn content_xml(tables: &str) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<office:document-content {ODS_NS} office:version=\"1.2\">\n  <office:body>\n    <office:spreadsheet>{tables}\n    </office:spreadsheet>\n  </office:body>\n</office:document-content>\n"
    )
}

fn ods(path: &std::path::Path, content: &str, manifest: &[u8]) {
    zip_file(
        path,
        &[
            ("mimetype", ODS_MIME),
            ("META-INF/manifest.xml", manifest),
            ("content.xml", content.as_bytes()),
        ],
    );
}

fn verify_json(w: &WorkDir, args: &[&str]) -> (i32, Value) {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let out = w.cmd("verify", &all).output().unwrap();
    let json = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code().unwrap(), json)
}

/// `(sheet, verdict, top-left)` of every board of the first file.
fn boards(json: &Value) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for s in json["files"][0]["sheets"].as_array().unwrap() {
        for b in s["boards"].as_array().unwrap() {
            out.push((
                s["sheet"].as_str().unwrap().to_string(),
                b["verdict"].as_str().unwrap().to_string(),
                b["board"]["top_left"].as_str().unwrap().to_string(),
            ));
        }
    }
    out
}

#[test]
fn an_ods_indented_as_gnumeric_writes_it_reads_every_sheet() {
    let w = WorkDir::new();
    let mut partial = closed_grid();
    for row in partial.iter_mut() {
        for v in row.iter_mut() {
            if *v > 40 {
                *v = 0;
            }
        }
    }
    let tables = gnumeric_table("tour", &closed_grid()) + &gnumeric_table("attempt", &partial);
    ods(&w.path("g.ods"), &content_xml(&tables), MANIFEST.as_bytes());
    let (code, json) = verify_json(&w, &["g.ods"]);
    assert_eq!(
        boards(&json),
        [
            ("tour".into(), "closed".into(), "B2".into()),
            ("attempt".into(), "partial".into(), "B2".into())
        ]
    );
    assert_eq!(code, 1, "a partial board exits 1");
    // Sheets asked for out of order: the reader starts its pass again.
    let (code, json) = verify_json(&w, &["--sheet", "attempt", "--sheet", "tour", "g.ods"]);
    let sheets: Vec<&str> = json["files"][0]["sheets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["verdict"].as_str().unwrap())
        .collect();
    assert_eq!((code, sheets), (1, vec!["partial", "closed"]));
}

#[test]
fn the_ods_manifest_is_never_read_unless_the_content_is_not_xml() {
    let w = WorkDir::new();
    let tables = gnumeric_table("tour", &closed_grid());
    // Not XML at all, and large: a reader that parsed it would fail or fill memory.
    let junk = vec![b'<'; 8 << 20];
    ods(&w.path("m.ods"), &content_xml(&tables), &junk);
    let (code, json) = verify_json(&w, &["m.ods"]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(boards(&json)[0].1, "closed");
}

#[test]
fn an_encrypted_ods_is_called_password_protected() {
    let w = WorkDir::new();
    let manifest = MANIFEST.replace(
        r#"manifest:media-type="text/xml"/>"#,
        r#"manifest:media-type="text/xml"><manifest:encryption-data manifest:checksum-type="SHA1/1K" manifest:checksum="x"/></manifest:file-entry>"#,
    );
    let scrambled: Vec<u8> = (0..4096u32).map(|i| (i * 7919 % 251) as u8).collect();
    zip_file(
        &w.path("locked.ods"),
        &[
            ("mimetype", ODS_MIME),
            ("META-INF/manifest.xml", manifest.as_bytes()),
            ("content.xml", &scrambled),
        ],
    );
    w.cmd("verify", &["locked.ods"])
        .assert()
        .code(2)
        .stdout(predicate::str::contains("password-protected"));
}

#[test]
fn a_flat_ods_document_reads_like_an_ods() {
    let w = WorkDir::new();
    let doc = content_xml(&gnumeric_table("flat", &closed_grid()))
        .replace("office:document-content", "office:document")
        .replace(
            "office:version=\"1.2\"",
            "office:version=\"1.2\" office:mimetype=\"application/vnd.oasis.opendocument.spreadsheet\"",
        );
    std::fs::write(w.path("t.fods"), doc).unwrap();
    let (code, json) = verify_json(&w, &["t.fods"]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["files"][0]["format"], "ods");
    assert_eq!(
        boards(&json),
        [("flat".into(), "closed".into(), "B2".into())]
    );
}

#[test]
fn a_value_repeated_two_billion_times_is_refused_by_the_cell_cap() {
    let w = WorkDir::new();
    let tables = r#"<table:table table:name="T"><table:table-row table:number-rows-repeated="1000000000"><table:table-cell table:number-columns-repeated="2147483648" office:value-type="float" office:value="5"/></table:table-row></table:table>"#;
    ods(&w.path("r.ods"), &content_xml(tables), MANIFEST.as_bytes());
    w.cmd("verify", &["r.ods"])
        .assert()
        .code(2)
        .stdout(predicate::str::contains("cells (empty ones included)"));
}

#[test]
fn a_sheet_an_ods_hides_is_known_as_hidden() {
    let w = WorkDir::new();
    let styles = r#"<office:automatic-styles><style:style style:name="ta2" style:family="table"><style:table-properties table:display="false"/></style:style></office:automatic-styles>"#;
    let hidden = r#"<table:table table:name="Helper" table:style-name="ta2"><table:table-row><table:table-cell office:value-type="string"><text:p>x</text:p></table:table-cell></table:table-row></table:table>"#;
    let content = content_xml(&(gnumeric_table("tour", &closed_grid()) + hidden))
        .replace("<office:body>", &format!("{styles}<office:body>"))
        .replace(
            "office:version=",
            "xmlns:style=\"urn:oasis:names:tc:opendocument:xmlns:style:1.0\" office:version=",
        );
    ods(&w.path("h.ods"), &content, MANIFEST.as_bytes());
    let (code, json) = verify_json(&w, &["h.ods"]);
    let sheets: Vec<&str> = json["files"][0]["sheets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["sheet"].as_str().unwrap())
        .collect();
    assert_eq!((code, sheets), (0, vec!["tour"]), "{json}");
    let (_, json) = verify_json(&w, &["--sheet", "Helper", "h.ods"]);
    assert_eq!(json["files"][0]["sheets"][0]["verdict"], "no-board");
}
