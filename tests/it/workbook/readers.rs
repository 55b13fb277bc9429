//! The readers beside xlsx, end to end: ods as LibreOffice and Gnumeric write it (our own
//! reader), flat ods; CSV and TSV (delimiter sniffed, quoted fields, a byte order mark);
//! generate's JSON and text; folders; standard input. Every file is built here, in Rust.

use std::io::Write;

use predicates::prelude::*;
use serde_json::Value;

use crate::support;
use crate::support::workdir::WorkDir;

/// The closed 8x8 tour of `support` as rows of move numbers.
fn closed_grid() -> Vec<Vec<u32>> {
    let mut grid = vec![vec![0u32; 8]; 8];
    for (i, &(r, c)) in support::CLOSED_8X8.iter().enumerate() {
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

/// The closed 8x8 tour as delimited text: a title line, then the board from column B.
fn delimited_grid(delimiter: &str, eol: &str, quote_numbers: bool) -> String {
    let mut text = format!("\u{feff}\"Tour, as typed\"{}{eol}", delimiter.repeat(8));
    for row in closed_grid() {
        let cells: Vec<String> = row
            .iter()
            .map(|v| {
                if quote_numbers {
                    format!("\" {v} \"")
                } else {
                    v.to_string()
                }
            })
            .collect();
        text += &format!("{delimiter}{}{eol}", cells.join(delimiter));
    }
    text
}

#[test]
fn csv_and_tsv_are_read_with_their_delimiter_sniffed() {
    let w = WorkDir::new();
    for (name, delimiter, eol) in [
        ("comma.csv", ",", "\n"),
        ("semicolon.csv", ";", "\r\n"),
        ("tabs.tsv", "\t", "\n"),
        ("tabs_named.csv", "\t", "\r"),
        ("no_extension", ";", "\n"),
    ] {
        std::fs::write(w.path(name), delimited_grid(delimiter, eol, false)).unwrap();
        let (code, json) = verify_json(&w, &[name]);
        let stem = name.split('.').next().unwrap();
        assert_eq!(
            (code, boards(&json)),
            (0, vec![(stem.into(), "closed".into(), "B2".into())]),
            "{name}: {json}"
        );
        let want = if delimiter == "\t" { "tsv" } else { "csv" };
        assert_eq!(json["files"][0]["format"], want, "{name}");
    }
}

#[test]
fn a_byte_order_mark_before_the_first_number_is_not_part_of_it() {
    let w = WorkDir::new();
    let rows: Vec<String> = closed_grid()
        .iter()
        .map(|row| row.iter().map(u32::to_string).collect::<Vec<_>>().join(","))
        .collect();
    std::fs::write(
        w.path("bom.csv"),
        format!("\u{feff}{}\r\n", rows.join("\r\n")),
    )
    .unwrap();
    let (code, json) = verify_json(&w, &["bom.csv"]);
    assert_eq!(
        (code, boards(&json)),
        (0, vec![("bom".into(), "closed".into(), "A1".into())]),
        "{json}"
    );
    let b = &json["files"][0]["sheets"][0]["boards"][0];
    assert_eq!(b["problems"], serde_json::json!([]), "{json}");
    assert_eq!(b["moves"], 64);
}

#[test]
fn numbers_typed_as_text_in_a_csv_read_as_in_a_workbook() {
    let w = WorkDir::new();
    // Quoted with spaces: text cells, which the verifier reads as numbers typed as text.
    std::fs::write(w.path("quoted.csv"), delimited_grid(",", "\n", true)).unwrap();
    let (code, json) = verify_json(&w, &["quoted.csv"]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(boards(&json)[0].1, "closed");
}

#[test]
fn a_list_of_squares_in_a_tsv_is_a_tour() {
    let w = WorkDir::new();
    let mut text = String::from("move\tsquare\n");
    for (i, &(r, c)) in support::CLOSED_8X8.iter().enumerate() {
        let square = format!("{}{}", (b'a' + c as u8) as char, 8 - r);
        text += &format!("{}\t{square}\n", i + 1);
    }
    std::fs::write(w.path("moves.tsv"), text).unwrap();
    let (code, json) = verify_json(&w, &["moves.tsv"]);
    assert_eq!(code, 0, "{json}");
    let b = &json["files"][0]["sheets"][0]["boards"][0];
    assert_eq!(
        (b["notation"].as_str(), b["verdict"].as_str()),
        (Some("list"), Some("closed"))
    );
}

#[test]
fn text_named_as_a_workbook_is_csv_only_when_its_lines_split_into_fields() {
    let w = WorkDir::new();
    std::fs::write(w.path("export.xls"), delimited_grid("\t", "\r\n", false)).unwrap();
    let (code, json) = verify_json(&w, &["export.xls"]);
    assert_eq!(
        (code, json["files"][0]["format"].as_str()),
        (0, Some("tsv"))
    );
    std::fs::write(
        w.path("notes.xlsx"),
        "This is a letter, not a table.\nIt was renamed.\nNothing to check here\n",
    )
    .unwrap();
    w.cmd("verify", &["notes.xlsx"])
        .assert()
        .code(2)
        .stdout(predicate::str::contains("plain text"));
}

#[test]
fn a_csv_of_millions_of_empty_fields_is_refused_by_the_cell_cap() {
    let w = WorkDir::new();
    let mut text = delimited_grid(",", "\n", false);
    text += &",".repeat(9 << 20);
    std::fs::write(w.path("wide.csv"), text).unwrap();
    w.cmd("verify", &["wide.csv"])
        .assert()
        .code(2)
        .stdout(predicate::str::contains("cells (empty ones included)"));
}

#[test]
fn generated_json_and_text_edited_by_hand_get_the_verdict_of_their_content() {
    let w = WorkDir::new();
    w.generate(&["--size", "5", "--seed", "9", "-o", "t.json"])
        .assert()
        .success();
    w.generate(&["--size", "5", "--seed", "9", "-o", "t.txt"])
        .assert()
        .success();
    // A person repeats the first square in place of the second: no grid can hold that, so the
    // path is read as a list, which names the repeat.
    let mut doc: Value = serde_json::from_str(&w.read("t.json")).unwrap();
    doc["path"][1] = doc["path"][0].clone();
    std::fs::write(w.path("edited.json"), doc.to_string()).unwrap();
    let (code, json) = verify_json(&w, &["edited.json"]);
    let b = &json["files"][0]["sheets"][0]["boards"][0];
    assert_eq!(
        (code, b["verdict"].as_str()),
        (1, Some("invalid")),
        "{json}"
    );
    // Two moves swapped in the text grid: no longer knight's moves.
    let text = w
        .read("t.txt")
        .replacen(" 1 ", " X ", 1)
        .replacen(" 2 ", " 1 ", 1)
        .replacen(" X ", " 2 ", 1);
    std::fs::write(w.path("edited.txt"), text).unwrap();
    let (code, json) = verify_json(&w, &["edited.txt"]);
    let b = &json["files"][0]["sheets"][0]["boards"][0];
    assert_eq!(
        (code, b["verdict"].as_str()),
        (1, Some("invalid")),
        "{json}"
    );
    // JSON that is not a tour.
    std::fs::write(w.path("other.json"), r#"{"name": "not a tour"}"#).unwrap();
    w.cmd("verify", &["other.json"])
        .assert()
        .code(2)
        .stdout(predicate::str::contains("not a tour file"));
}

#[test]
fn a_folder_is_walked_in_name_order_skipping_hidden_and_lock_files() {
    let w = WorkDir::new();
    let grid = delimited_grid(",", "\n", false);
    for dir in ["class/b", "class/a", "class/.git"] {
        std::fs::create_dir_all(w.path(dir)).unwrap();
    }
    for file in [
        "class/b/z.csv",
        "class/a/y.tsv",
        "class/x.CSV",
        "class/.hidden.csv",
        "class/.git/config.csv",
        "class/~$x.xlsx",
        "class/notes.txt",
    ] {
        std::fs::write(w.path(file), &grid).unwrap();
    }
    let (code, json) = verify_json(&w, &["class"]);
    let files: Vec<&str> = json["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["file"].as_str().unwrap())
        .collect();
    let sep = std::path::MAIN_SEPARATOR;
    assert_eq!(
        files,
        [
            format!("class{sep}a{sep}y.tsv"),
            format!("class{sep}b{sep}z.csv"),
            format!("class{sep}x.CSV"),
        ]
    );
    assert_eq!(code, 0);
    std::fs::create_dir(w.path("empty")).unwrap();
    let (code, json) = verify_json(&w, &["empty"]);
    assert_eq!(code, 2);
    assert!(json["files"][0]["error"]
        .as_str()
        .unwrap()
        .contains("holds no workbook"));
}

#[test]
fn dash_reads_standard_input_once_and_bounded() {
    let w = WorkDir::new();
    let out = w
        .cmd("verify", &["--json", "-"])
        .write_stdin(delimited_grid(";", "\n", false))
        .output()
        .unwrap();
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(json["files"][0]["file"], "-");
    assert_eq!(
        boards(&json),
        [("stdin".into(), "closed".into(), "B2".into())]
    );
    // A workbook on standard input reads too.
    w.generate(&["--size", "5", "--seed", "1", "-o", "t.xlsx"])
        .assert()
        .success();
    let book = std::fs::read(w.path("t.xlsx")).unwrap();
    let piped = w
        .cmd("verify", &["--json", "-"])
        .write_stdin(book)
        .output()
        .unwrap();
    let piped: Value = serde_json::from_slice(&piped.stdout).unwrap();
    let (_, named) = verify_json(&w, &["t.xlsx"]);
    assert_eq!(piped["files"][0]["format"], "xlsx");
    assert_eq!(piped["files"][0]["sheets"], named["files"][0]["sheets"]);
    w.cmd("verify", &["-", "-"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("more than once"));
    let flood = vec![b'1'; (knights_tour::input::MAX_STDIN_BYTES + 10) as usize];
    w.cmd("verify", &["-"])
        .write_stdin(flood)
        .assert()
        .code(2)
        .stdout(predicate::str::contains("standard input holds more than"));
}

#[cfg(unix)]
#[test]
fn a_named_pipe_is_refused_before_it_is_opened() {
    let w = WorkDir::new();
    let fifo = w.path("x.xlsx");
    let c_path = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: mkfifo reads the NUL-terminated path, which lives until the call returns.
    let made = unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) };
    assert_eq!(made, 0, "mkfifo {}", fifo.display());
    w.cmd("verify", &["x.xlsx"])
        .timeout(std::time::Duration::from_secs(20))
        .assert()
        .code(2)
        .stdout(predicate::str::contains("named pipe"));
}
