//! Building hostile workbooks in Rust and running `verify` on them, shared by the hostile
//! test files (each uses a part of it).

use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use serde_json::Value;

/// The 8x8 open tour `make_hostile.py` types at B2.
pub const GRID: [[u32; 8]; 8] = [
    [46, 29, 32, 7, 48, 19, 34, 9],
    [31, 6, 47, 58, 33, 8, 21, 18],
    [28, 45, 30, 49, 20, 59, 10, 35],
    [5, 50, 43, 60, 57, 36, 17, 22],
    [44, 27, 56, 1, 54, 23, 62, 11],
    [51, 4, 53, 42, 61, 14, 37, 16],
    [26, 41, 2, 55, 24, 39, 12, 63],
    [3, 52, 25, 40, 13, 64, 15, 38],
];

pub const NS: &str = r#"xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships""#;

pub fn colname(mut n: u32) -> String {
    let mut s = String::new();
    while n > 0 {
        let rem = (n - 1) % 26;
        s.insert(0, (b'A' + rem as u8) as char);
        n = (n - 1) / 26;
    }
    s
}

/// The board's rows at B2, as sheet XML.
pub fn board_rows() -> String {
    let mut out = String::new();
    for (r, row) in GRID.iter().enumerate() {
        let r = r as u32 + 2;
        out += &format!(r#"<row r="{r}">"#);
        for (c, v) in row.iter().enumerate() {
            out += &format!(r#"<c r="{}{r}"><v>{v}</v></c>"#, colname(c as u32 + 2));
        }
        out += "</row>";
    }
    out
}

pub fn sheet_xml(body: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet {NS}><sheetData>{body}</sheetData></worksheet>"#
    )
}

pub fn workbook_xml(names: &[&str]) -> String {
    let sheets: String = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            format!(
                r#"<sheet name="{n}" sheetId="{}" r:id="rId{}"/>"#,
                i + 1,
                i + 1
            )
        })
        .collect();
    format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook {NS}><sheets>{sheets}</sheets></workbook>"#
    )
}

/// The namespaces of an ods `content.xml`.
pub const ODS_NS: &str = r#"xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0""#;

/// The board of [`GRID`] as ods table rows.
pub fn ods_board() -> String {
    GRID.iter()
        .map(|row| {
            let cells: String = row
                .iter()
                .map(|v| format!(r#"<table:table-cell office:value-type="float" office:value="{v}"><text:p>{v}</text:p></table:table-cell>"#))
                .collect();
            format!("<table:table-row>{cells}</table:table-row>")
        })
        .collect()
}

/// An xlsx package; members are (name, bytes).
pub fn zip_file(path: &Path, members: &[(&str, &[u8])]) {
    let file = std::fs::File::create(path).unwrap();
    let mut zip = zip::ZipWriter::new(file);
    let deflate = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .large_file(true);
    let stored =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for (name, data) in members {
        let opts = if *name == "mimetype" { stored } else { deflate };
        zip.start_file(*name, opts).unwrap();
        zip.write_all(data).unwrap();
    }
    zip.finish().unwrap();
}

/// A zip member's content: bytes, or a head, a block repeated, a tail (written as it goes, so
/// hundreds of megabytes never sit in memory).
#[derive(Clone, Copy)]
pub enum Body<'a> {
    Bytes(&'a [u8]),
    Repeat {
        head: &'a [u8],
        block: &'a [u8],
        times: usize,
        tail: &'a [u8],
    },
}

/// A zip archive of `members`, deflated.
pub fn zip_bodies(path: &Path, members: &[(&str, Body<'_>)]) {
    let file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let mut zip = zip::ZipWriter::new(file);
    let deflate = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .compression_level(Some(1))
        .large_file(true);
    for (name, body) in members {
        zip.start_file(*name, deflate).unwrap();
        match body {
            Body::Bytes(b) => zip.write_all(b).unwrap(),
            Body::Repeat {
                head,
                block,
                times,
                tail,
            } => {
                zip.write_all(head).unwrap();
                for _ in 0..*times {
                    zip.write_all(block).unwrap();
                }
                zip.write_all(tail).unwrap();
            }
        }
    }
    zip.finish().unwrap();
}

pub const CONTENT_TYPES: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>"#;

/// `_rels/.rels` naming `target` as the main part.
pub fn root_rels(target: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="{target}"/></Relationships>"#
    )
}

/// The main part's relationships: `rId1`..`rIdN` to `targets`, of `kind` (`worksheet`...).
pub fn part_rels(targets: &[String], kind: &str) -> String {
    let rels: String = targets
        .iter()
        .enumerate()
        .map(|(i, t)| {
            format!(
                r#"<Relationship Id="rId{}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/{kind}" Target="{t}"/>"#,
                i + 1
            )
        })
        .collect();
    format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{rels}</Relationships>"#
    )
}

pub fn xlsx(path: &Path, sheets: &[(&str, String)], shared: Option<String>, wb: Option<String>) {
    let ct = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>"#;
    let rels = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#;
    let mut wb_rels: String = (0..sheets.len())
        .map(|i| format!(r#"<Relationship Id="rId{}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet{}.xml"/>"#, i + 1, i + 1))
        .collect();
    if shared.is_some() {
        wb_rels += r#"<Relationship Id="rIdS" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>"#;
    }
    let wb_rels = format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{wb_rels}</Relationships>"#
    );
    let names: Vec<&str> = sheets.iter().map(|(n, _)| *n).collect();
    let wb = wb.unwrap_or_else(|| workbook_xml(&names));
    let sheet_names: Vec<String> = (0..sheets.len())
        .map(|i| format!("xl/worksheets/sheet{}.xml", i + 1))
        .collect();
    let mut members: Vec<(&str, &[u8])> = vec![
        ("[Content_Types].xml", ct.as_bytes()),
        ("_rels/.rels", rels.as_bytes()),
        ("xl/workbook.xml", wb.as_bytes()),
        ("xl/_rels/workbook.xml.rels", wb_rels.as_bytes()),
    ];
    if let Some(s) = &shared {
        members.push(("xl/sharedStrings.xml", s.as_bytes()));
    }
    for (i, (_, body)) in sheets.iter().enumerate() {
        members.push((&sheet_names[i], body.as_bytes()));
    }
    zip_file(path, &members);
}

pub fn sst(body: &str, attrs: &str) -> String {
    format!(
        r#"<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"{attrs}>{body}</sst>"#
    )
}

// ---- running verify ----

pub struct Run {
    pub code: i32,
    pub json: Value,
    pub elapsed: Duration,
}

pub fn run_verify(file: &Path, limit_address_space: bool) -> Run {
    run_verify_within(file, limit_address_space.then_some(512 << 20))
}

/// The reader process's time for one file in these tests: debug builds on a loaded machine
/// read many times slower than the release build the 8 s are for. A test of the time limit
/// sets its own.
pub const READ_SECONDS: &str = "120";

/// `verify --json FILE` with the reader's limits set by `env` (`KNIGHTS_TOUR_READ_SECONDS`,
/// `KNIGHTS_TOUR_READ_MEMORY_MB`).
pub fn run_verify_with(file: &Path, env: &[(&str, &str)]) -> Run {
    run_verify_env(file, None, env)
}

/// `verify --json FILE`, under `prlimit --as=BYTES` when given (no backtrace asked for).
pub fn run_verify_within(file: &Path, address_space: Option<u64>) -> Run {
    run_verify_env(file, address_space, &[])
}

fn run_verify_env(file: &Path, address_space: Option<u64>, env: &[(&str, &str)]) -> Run {
    let start = Instant::now();
    let mut cmd = if let Some(bytes) = address_space {
        let mut c = Command::new("prlimit");
        c.arg(format!("--as={bytes}"))
            .arg(assert_cmd::cargo::cargo_bin("knights-tour"));
        c
    } else {
        Command::cargo_bin("knights-tour").unwrap()
    };
    let out = cmd
        .env_remove("RUST_BACKTRACE")
        .env("KNIGHTS_TOUR_READ_SECONDS", READ_SECONDS)
        .envs(env.iter().copied())
        .args(["verify", "--json"])
        .arg(file)
        .timeout(Duration::from_secs(300))
        .output()
        .unwrap();
    let elapsed = start.elapsed();
    let code = out.status.code().unwrap_or(-1);
    let json: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{}: exit {code}, stdout is not JSON ({e}); stderr: {}",
            file.display(),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    Run {
        code,
        json,
        elapsed,
    }
}

pub fn dir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

/// Debug builds are slow; the 5 s of the issue is for release, so allow more here.
pub const SLOW: Duration = Duration::from_secs(120);

pub fn file_error(run: &Run) -> String {
    run.json["files"][0]["error"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

pub fn sheet_notes(run: &Run) -> Vec<String> {
    run.json["files"][0]["sheets"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|s| s["note"].as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// What the reader process says when a file needs more than its memory (the default 192 MB).
pub const OUT_OF_MEMORY: &str = "reading it needs more than 192 MB";

/// The file is refused as a whole: exit 2, an error naming the problem.
pub fn assert_refused(run: &Run, words: &str) {
    assert_eq!(run.code, 2, "{}", run.json);
    assert!(run.elapsed < SLOW, "took {:?}", run.elapsed);
    let error = file_error(run);
    let notes = sheet_notes(run).join(" ");
    assert!(
        error.contains(words) || notes.contains(words),
        "expected '{words}' in {error} / {notes}"
    );
}

// ---- xlsb records, by hand ----

/// One xlsb record: its type (one or two bytes), its length (1 to 4 bytes of 7 bits) and
/// body; `length` overrides the length written.
pub fn rec(typ: u16, body: &[u8], length: Option<usize>) -> Vec<u8> {
    let mut out = if typ < 0x80 {
        vec![typ as u8]
    } else {
        vec![(typ & 0x7F) as u8 | 0x80, (typ >> 7) as u8]
    };
    let mut n = length.unwrap_or(body.len());
    for _ in 0..4 {
        let b = (n & 0x7F) as u8;
        n >>= 7;
        out.push(if n > 0 { b | 0x80 } else { b });
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(body);
    out
}

/// A wide string: its length in UTF-16 units, then the units.
pub fn wstr(s: &str) -> Vec<u8> {
    let units: Vec<u16> = s.encode_utf16().collect();
    let mut out = (units.len() as u32).to_le_bytes().to_vec();
    out.extend(units.iter().flat_map(|u| u.to_le_bytes()));
    out
}

/// A sheet's records up to its cells (begin sheet, dimension, begin sheet data).
pub fn xlsb_sheet_head() -> Vec<u8> {
    let mut dim = Vec::new();
    for v in [1u32, 8, 1, 8] {
        dim.extend_from_slice(&v.to_le_bytes());
    }
    [
        rec(0x0081, b"", None),
        rec(0x0094, &dim, None),
        rec(0x0091, b"", None),
    ]
    .concat()
}

/// The board at B2 as rows of RK cells.
pub fn xlsb_board_rows() -> Vec<u8> {
    let mut out = Vec::new();
    for (r, row) in GRID.iter().enumerate() {
        let mut hdr = (r as u32 + 1).to_le_bytes().to_vec();
        hdr.extend_from_slice(&[0; 4]);
        hdr.extend_from_slice(&300u16.to_le_bytes());
        hdr.extend_from_slice(&[0; 5]);
        out.extend(rec(0x0000, &hdr, None));
        for (c, v) in row.iter().enumerate() {
            let mut cell = (c as u32 + 1).to_le_bytes().to_vec();
            cell.extend_from_slice(&[0; 4]);
            cell.extend_from_slice(&(((*v as i32) << 2) | 2).to_le_bytes());
            out.extend(rec(0x0002, &cell, None));
        }
    }
    out
}

/// The end of a sheet's cells and of the sheet.
pub fn xlsb_sheet_tail() -> Vec<u8> {
    [rec(0x0092, b"", None), rec(0x0082, b"", None)].concat()
}

/// An xlsb package: `sheets` sheet names, each with the part `xl/worksheets/sheetN.bin`
/// (N from 1), whose bodies are `members`; `extra` members beside them.
pub fn xlsb(path: &Path, names: &[String], members: &[(&str, Body<'_>)]) {
    let mut wb = rec(0x0083, b"", None);
    let mut props = vec![0u8; 12];
    props.extend(wstr(""));
    wb.extend(rec(0x0099, &props, None));
    wb.extend(rec(0x008F, b"", None));
    let mut rels = String::new();
    for (i, n) in names.iter().enumerate() {
        let mut body = 0u32.to_le_bytes().to_vec();
        body.extend_from_slice(&(i as u32 + 1).to_le_bytes());
        body.extend(wstr(&format!("rId{}", i + 1)));
        body.extend(wstr(n));
        wb.extend(rec(0x009C, &body, None));
        rels += &format!(
            r#"<Relationship Id="rId{}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet{}.bin"/>"#,
            i + 1,
            i + 1
        );
    }
    wb.extend(rec(0x0090, b"", None));
    wb.extend(rec(0x009D, &[0; 30], None));
    wb.extend(rec(0x0084, b"", None));
    let rels = format!(
        r#"<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{rels}</Relationships>"#
    );
    let root = root_rels("xl/workbook.bin");
    let mut all = vec![
        ("[Content_Types].xml", Body::Bytes(CONTENT_TYPES.as_bytes())),
        ("_rels/.rels", Body::Bytes(root.as_bytes())),
        ("xl/workbook.bin", Body::Bytes(&wb)),
        ("xl/_rels/workbook.bin.rels", Body::Bytes(rels.as_bytes())),
    ];
    all.extend(members.iter().copied());
    zip_bodies(path, &all);
}
