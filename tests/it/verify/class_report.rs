//! `verify FILES... -o report.xlsx` end to end (issue 19): a class folder built here (complete
//! tours, a semi-magic one among them, a failed attempt, invalid boards of each problem kind,
//! a list, a file with two boards, an unreadable file, a file without a board) gives a class
//! workbook whose Results rows, fills, notes and links are checked by opening it, and which
//! verifies back with the verdicts of the originals.

use std::collections::BTreeMap;
use std::io::Cursor;
use std::path::Path;

use calamine::{Data, Reader, Xlsx};
use knights_tour::board::{Board, Square};
use knights_tour::tour::Tour;
use knights_tour::workbook::read::Workbook;
use serde_json::Value;

use crate::support;
use crate::support::cmd;
use crate::support::xlsx_bytes::part;

/// Beverley's semi-magic tour (1848): every rank and file sums to 260, the diagonals do not.
const BEVERLEY: [[u32; 8]; 8] = [
    [1, 30, 47, 52, 5, 28, 43, 54],
    [48, 51, 2, 29, 44, 53, 6, 27],
    [31, 46, 49, 4, 25, 8, 55, 42],
    [50, 3, 32, 45, 56, 41, 26, 7],
    [33, 62, 15, 20, 9, 24, 39, 58],
    [16, 19, 34, 61, 40, 57, 10, 23],
    [63, 14, 17, 36, 21, 12, 59, 38],
    [18, 35, 64, 13, 60, 37, 22, 11],
];

/// A cell as typed.
#[derive(Clone, Debug, PartialEq)]
enum Typed {
    Num(f64),
    Text(String),
}

/// The closed tour of `common` as a board of move numbers.
fn closed() -> Vec<Vec<Option<Typed>>> {
    let mut g = vec![vec![None; 8]; 8];
    for (i, &(r, c)) in support::CLOSED_8X8.iter().enumerate() {
        g[r as usize][c as usize] = Some(Typed::Num(i as f64 + 1.0));
    }
    g
}

/// Where move `n` is on `g`.
fn at(g: &[Vec<Option<Typed>>], n: u32) -> (usize, usize) {
    for (r, row) in g.iter().enumerate() {
        for (c, v) in row.iter().enumerate() {
            if *v == Some(Typed::Num(f64::from(n))) {
                return (r, c);
            }
        }
    }
    panic!("no {n}")
}

fn set(g: &mut [Vec<Option<Typed>>], n: u32, v: Option<Typed>) {
    let (r, c) = at(g, n);
    g[r][c] = v;
}

/// Add a sheet holding `g` at C3 with file letters above and rank numbers left of it, as
/// `template` and `generate` lay boards out.
fn add_board(book: &mut rust_xlsxwriter::Workbook, name: &str, g: &[Vec<Option<Typed>>]) {
    let sheet = book.add_worksheet();
    sheet.set_name(name).unwrap();
    let rows = g.len() as u32;
    for c in 0..g[0].len() {
        let letter = ((b'a' + c as u8) as char).to_string();
        sheet.write_string(1, 2 + c as u16, letter).unwrap();
    }
    for (r, row) in g.iter().enumerate() {
        sheet
            .write_string(2 + r as u32, 1, (rows - r as u32).to_string())
            .unwrap();
        for (c, v) in row.iter().enumerate() {
            let (r, c) = (2 + r as u32, 2 + c as u16);
            match v {
                Some(Typed::Num(n)) => sheet.write_number(r, c, *n).map(drop).unwrap(),
                Some(Typed::Text(t)) => sheet.write_string(r, c, t).map(drop).unwrap(),
                None => {}
            }
        }
    }
}

fn save_board(path: &Path, name: &str, g: &[Vec<Option<Typed>>]) {
    let mut book = rust_xlsxwriter::Workbook::new();
    add_board(&mut book, name, g);
    book.save(path).unwrap();
}

/// The class: one file per case, named for what it holds.
fn build_class(dir: &Path) {
    let beverley: Vec<Vec<Option<Typed>>> = BEVERLEY
        .iter()
        .map(|row| row.iter().map(|&n| Some(Typed::Num(n.into()))).collect())
        .collect();
    save_board(&dir.join("beverley.xlsx"), "Tour", &beverley);
    save_board(&dir.join("closed.xlsx"), "Tour", &closed());
    let mut partial = closed();
    for n in 21..=64 {
        set(&mut partial, n, None);
    }
    save_board(&dir.join("partial.xlsx"), "Attempt", &partial);
    let mut jump = closed();
    let (a, b) = (at(&jump, 18), at(&jump, 30));
    jump[a.0][a.1] = Some(Typed::Num(30.0));
    jump[b.0][b.1] = Some(Typed::Num(18.0));
    save_board(&dir.join("jump.xlsx"), "Tour", &jump);
    let mut twice = closed();
    set(&mut twice, 40, Some(Typed::Num(7.0)));
    save_board(&dir.join("twice.xlsx"), "Tour", &twice);
    let mut values = closed();
    set(&mut values, 12, Some(Typed::Text("x".into())));
    set(&mut values, 50, Some(Typed::Num(99.0)));
    set(&mut values, 51, Some(Typed::Num(12.5)));
    save_board(&dir.join("values.xlsx"), "Tour", &values);
    let mut blanks = closed();
    set(&mut blanks, 20, None);
    set(&mut blanks, 45, None);
    save_board(&dir.join("blanks.xlsx"), "Tour", &blanks);
    // A list of squares whose move 11 lands on move 4's square again.
    let mut squares: Vec<String> = support::CLOSED_8X8
        .iter()
        .map(|&(r, c)| format!("{}{}", (b'a' + c as u8) as char, 8 - r))
        .collect();
    squares[10] = squares[3].clone();
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    for (i, s) in squares.iter().enumerate() {
        sheet.write_string(i as u32, 0, s).unwrap();
    }
    book.save(dir.join("list.xlsx")).unwrap();
    // Two boards in one file: a failed attempt and a jump.
    let mut book = rust_xlsxwriter::Workbook::new();
    let mut first = closed();
    for n in 11..=64 {
        set(&mut first, n, None);
    }
    add_board(&mut book, "First", &first);
    add_board(&mut book, "Second", &jump);
    book.save(dir.join("two.xlsx")).unwrap();
    std::fs::write(dir.join("broken.xlsx"), b"PK\x03\x04garbage").unwrap();
    let mut book = rust_xlsxwriter::Workbook::new();
    book.add_worksheet()
        .write_string(0, 0, "Name: Ann")
        .unwrap();
    book.save(dir.join("empty.xlsx")).unwrap();
}

/// The Results sheet as text rows.
fn results_sheet(bytes: &[u8]) -> Vec<Vec<String>> {
    let mut book: Xlsx<_> = Xlsx::new(Cursor::new(bytes.to_vec())).unwrap();
    let range = book.worksheet_range("Results").unwrap();
    let rows: Vec<Vec<String>> = range
        .rows()
        .map(|r| {
            r.iter()
                .map(|d| match d {
                    Data::Empty => String::new(),
                    Data::Float(f) => f.to_string(),
                    other => other.to_string(),
                })
                .collect()
        })
        .collect();
    rows
}

/// The Results table as text rows, header first.
fn results(bytes: &[u8]) -> Vec<Vec<String>> {
    let rows = results_sheet(bytes);
    let header = rows.iter().position(|r| r[0] == "File").unwrap();
    rows[header..].to_vec()
}

/// The zip path of the worksheet named `name`.
fn sheet_part(bytes: &[u8], name: &str) -> String {
    let workbook = part(bytes, "xl/workbook.xml");
    let rels = part(bytes, "xl/_rels/workbook.xml.rels");
    let tag = format!("name=\"{name}\"");
    let sheet = workbook
        .split("<sheet ")
        .find(|s| s.contains(&tag))
        .unwrap();
    let rid = attr(sheet, "r:id").unwrap();
    let rel = rels
        .split("<Relationship ")
        .find(|r| r.contains(&format!("Id=\"{rid}\"")))
        .unwrap();
    format!("xl/{}", attr(rel, "Target").unwrap())
}

fn attr(element: &str, name: &str) -> Option<String> {
    let start = element.find(&format!("{name}=\""))? + name.len() + 2;
    let len = element[start..].find('"')?;
    Some(unescape(&element[start..start + len]))
}

fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// The notes of the sheet named `name`, by cell.
fn notes(bytes: &[u8], name: &str) -> BTreeMap<String, String> {
    let sheet = sheet_part(bytes, name);
    let file = sheet.rsplit('/').next().unwrap();
    let rels = part(bytes, &format!("xl/worksheets/_rels/{file}.rels"));
    let target = rels
        .split("<Relationship ")
        .find(|r| r.contains("/comments\""))
        .and_then(|r| attr(r, "Target"))
        .unwrap();
    let comments = part(bytes, &format!("xl/{}", target.trim_start_matches("../")));
    comments
        .split("<comment ")
        .skip(1)
        .map(|c| {
            let text: String = c
                .split("<t>")
                .skip(1)
                .map(|t| unescape(&t[..t.find("</t>").unwrap()]))
                .collect();
            (attr(c, "ref").unwrap(), text)
        })
        .collect()
}

/// The internal links of the sheet named `name`: cell -> target.
fn links(bytes: &[u8], name: &str) -> BTreeMap<String, String> {
    part(bytes, &sheet_part(bytes, name))
        .split("<hyperlink ")
        .skip(1)
        .map(|h| (attr(h, "ref").unwrap(), attr(h, "location").unwrap()))
        .collect()
}

/// Each cell of sheet `name` on or below and right of C3 (where boards go): its name, its
/// value as text and its fill (read by the crate's own reader, which reads fills).
fn fills(bytes: &[u8], name: &str) -> Vec<(String, String, Option<u32>)> {
    let mut book = Workbook::from_bytes(bytes).unwrap();
    let cells = book.read_sheet(name).unwrap();
    cells
        .cells()
        .iter()
        .filter(|c| c.row >= 2 && c.col >= 2)
        .map(|c| {
            let value = match c.value {
                Some(knights_tour::workbook::read::CellValueRef::Number(n)) => n.to_string(),
                Some(knights_tour::workbook::read::CellValueRef::Text(t)) => t.to_string(),
                Some(other) => format!("{other:?}"),
                None => String::new(),
            };
            let cell = format!(
                "{}{}",
                knights_tour::board::column_letters(c.col),
                c.row + 1
            );
            (cell, value, c.format.fill)
        })
        .collect()
}

fn fill_of(all: &[(String, String, Option<u32>)], value: &str) -> Vec<Option<u32>> {
    all.iter()
        .filter(|(_, v, _)| v == value)
        .map(|(_, _, f)| *f)
        .collect()
}

const JUMP: u32 = 0xFF7C80;
const REPEATED: u32 = 0xCC99FF;
const NOT_A_MOVE: u32 = 0xFFC000;
const BESIDE_MISSING: u32 = 0x9BC2E6;
const LAST: u32 = 0x66CCCC;
const REACHABLE: u32 = 0xA9D08E;
const START: u32 = 0xFFFF00;

#[test]
fn a_class_report_marks_every_mistake_and_verifies_back() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    std::fs::create_dir(&class).unwrap();
    build_class(&class);
    let report = dir.path().join("report.xlsx");
    let out = cmd()
        .current_dir(dir.path())
        .args(["verify", "class", "-o", "report.xlsx"])
        .assert()
        .code(2) // broken.xlsx cannot be read
        .get_output()
        .clone();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains("report written to report.xlsx (7 boards marked)"),
        "{stdout}"
    );
    let bytes = std::fs::read(&report).unwrap();

    // Results: one row per board or per file without one, in file order.
    let rows = results(&bytes);
    let col = |name: &str| rows[0].iter().position(|h| h == name).unwrap();
    let (file, sheet, verdict, magic, marked) = (
        col("File"),
        col("Sheet"),
        col("Verdict"),
        col("Magic"),
        col("Marked sheet"),
    );
    let got: Vec<(String, String, String, String, String)> = rows[1..]
        .iter()
        .map(|r| {
            let name = r[file].trim_start_matches("class/").to_string();
            (
                name,
                r[sheet].clone(),
                r[verdict].clone(),
                r[magic].clone(),
                r[marked].clone(),
            )
        })
        .collect();
    let want = [
        ("beverley.xlsx", "Tour", "open", "semi-magic", ""),
        // Two squares left blank, no mistake: still being filled in, nothing to mark.
        ("blanks.xlsx", "Tour", "unfinished", "", ""),
        ("broken.xlsx", "", "unreadable", "", ""),
        ("closed.xlsx", "Tour", "closed", "", ""),
        ("empty.xlsx", "", "no-board", "", ""),
        ("jump.xlsx", "Tour", "invalid", "", "jump"),
        ("list.xlsx", "Sheet1", "invalid", "", "list"),
        ("partial.xlsx", "Attempt", "partial", "", "partial"),
        ("twice.xlsx", "Tour", "invalid", "", "twice"),
        ("two.xlsx", "First", "partial", "", "two First"),
        ("two.xlsx", "Second", "invalid", "", "two Second"),
        ("values.xlsx", "Tour", "invalid", "", "values"),
    ];
    let want: Vec<(String, String, String, String, String)> = want
        .iter()
        .map(|w| {
            (
                w.0.to_string(),
                w.1.to_string(),
                w.2.to_string(),
                w.3.to_string(),
                w.4.to_string(),
            )
        })
        .collect();
    assert_eq!(got, want);
    // Moves and problems are numbers; the first problem is in words.
    let jump_row = &rows[6];
    assert_eq!(jump_row[col("Squares visited")], "64");
    assert_eq!(jump_row[col("Problems")], "4");
    assert!(
        jump_row[col("First problem")].starts_with("not-a-knight-move: move 17"),
        "{jump_row:?}"
    );
    // Each marked row links to its sheet.
    let row_links = links(&bytes, "Results");
    for (i, w) in want.iter().enumerate() {
        let cell = format!("M{}", 7 + i);
        match w.4.as_str() {
            "" => assert!(!row_links.contains_key(&cell), "{cell}"),
            name => assert_eq!(row_links[&cell], format!("'{name}'!C3")),
        }
    }
    // The lines above the table: title, totals, version and command line, files read.
    let head = results_sheet(&bytes);
    assert_eq!(head[0][0], "Knight's tour class report");
    assert!(
        head[1][0].starts_with("11 files, 10 boards: "),
        "{:?}",
        head[1]
    );
    let version = format!("Checked by knights-tour {}: ", env!("CARGO_PKG_VERSION"));
    assert!(head[2][0].starts_with(&version), "{:?}", head[2]);
    assert!(
        head[2][0].ends_with("verify class -o report.xlsx"),
        "{:?}",
        head[2]
    );
    assert!(head[3][0].starts_with("Files read (11): class/beverley.xlsx, "));

    // Fills by kind, and a note on each marked cell.
    let jump = fills(&bytes, "jump");
    for n in ["17", "18", "19", "29", "30", "31"] {
        assert_eq!(fill_of(&jump, n), vec![Some(JUMP)], "jump {n}");
    }
    assert_eq!(fill_of(&jump, "1"), vec![Some(START)]);
    assert!(matches!(fill_of(&jump, "40")[..], [None | Some(0xFFFFFF)]));
    let jump_notes = notes(&bytes, "jump");
    let (r18, c18) = {
        let g = closed();
        at(&g, 30) // 18 was typed where 30 belongs
    };
    let cell18 = format!(
        "{}{}",
        knights_tour::board::column_letters(2 + c18 as u32),
        3 + r18
    );
    assert!(
        jump_notes[&cell18].contains("18 is not a knight's move from 17 ("),
        "{jump_notes:?}"
    );

    let twice = fills(&bytes, "twice");
    assert_eq!(fill_of(&twice, "7"), vec![Some(REPEATED); 2]);
    assert_eq!(fill_of(&twice, "39"), vec![Some(BESIDE_MISSING)]);
    assert_eq!(fill_of(&twice, "41"), vec![Some(BESIDE_MISSING)]);
    let twice_notes: Vec<String> = notes(&bytes, "twice").into_values().collect();
    assert!(
        twice_notes
            .iter()
            .any(|n| n.starts_with("7 appears twice: also at ")),
        "{twice_notes:?}"
    );
    assert!(twice_notes
        .iter()
        .any(|n| n.contains("40 is missing: it belongs a knight's move from this 39")));

    let values = fills(&bytes, "values");
    for v in ["x", "99", "12.5"] {
        assert_eq!(fill_of(&values, v), vec![Some(NOT_A_MOVE)], "{v}");
    }
    for n in ["11", "13", "49", "52"] {
        assert_eq!(fill_of(&values, n), vec![Some(BESIDE_MISSING)], "{n}");
    }
    let value_notes: Vec<String> = notes(&bytes, "values").into_values().collect();
    for want in [
        "the text 'x' is not a move number",
        "12.5 is not a whole number",
        "99 is not a move number here: moves run from 1 to 64",
    ] {
        assert!(
            value_notes.iter().any(|n| n == want),
            "{want}: {value_notes:?}"
        );
    }

    let book = Workbook::from_bytes(&bytes).unwrap();
    let names = book.sheet_names();
    assert!(!names.iter().any(|n| n == "blanks"), "{names:?}");

    // The failed attempt: its last move, and every square the knight can still reach.
    let partial = fills(&bytes, "partial");
    assert_eq!(fill_of(&partial, "20"), vec![Some(LAST)]);
    let board = Board::new(8, 8).unwrap();
    let path = support::CLOSED_8X8[..20]
        .iter()
        .map(|&(r, c)| Square::new(r, c));
    let reach = Tour::from_squares(board, path).unwrap().reachable();
    assert!(!reach.is_empty());
    let green: Vec<String> = partial
        .iter()
        .filter(|c| c.2 == Some(REACHABLE))
        .map(|c| c.0.clone())
        .collect();
    let mut want_green: Vec<String> = reach
        .iter()
        .map(|s| {
            format!(
                "{}{}",
                knights_tour::board::column_letters(2 + s.col),
                3 + s.row
            )
        })
        .collect();
    want_green.sort();
    let mut green = green;
    green.sort();
    assert_eq!(green, want_green);

    // The list, copied from C3: move 4's square comes again at move 11, a jump from move 10
    // and to move 12. A cell with several marks shows the first kind and every note.
    let list = fills(&bytes, "list");
    let kind = |cell: &str| list.iter().find(|c| c.0 == cell).unwrap().2;
    assert_eq!(kind("C6"), Some(REPEATED));
    for cell in ["C12", "C13", "C14"] {
        assert_eq!(kind(cell), Some(JUMP), "{cell}");
    }
    assert_eq!(kind("C3"), Some(START));
    let list_notes = notes(&bytes, "list");
    assert_eq!(
        list_notes["C6"],
        format!(
            "{} is listed twice: also at move 11",
            list.iter().find(|c| c.0 == "C6").unwrap().1
        )
    );
    assert!(list_notes["C13"].contains("is listed twice: also at move 4"));
    assert!(list_notes["C13"].contains("move 11 is not a knight's move from move 10"));

    // Sheet names are unique and short enough.
    let mut book: Xlsx<_> = Xlsx::new(Cursor::new(bytes.clone())).unwrap();
    let names = book.sheet_names();
    assert!(names.iter().all(|n| n.chars().count() <= 31));
    let _ = book.worksheet_range("Results").unwrap();

    // Read back: the Results sheet is no board and says nothing; each marked sheet has the
    // verdict of its original.
    let out = cmd()
        .arg("verify")
        .arg("--json")
        .arg(&report)
        .assert()
        .code(1)
        .get_output()
        .clone();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let sheets = doc["files"][0]["sheets"].as_array().unwrap();
    let back: Vec<(String, String)> = sheets
        .iter()
        .map(|s| {
            (
                s["sheet"].as_str().unwrap().to_string(),
                s["verdict"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let expected: Vec<(String, String)> = want
        .iter()
        .filter(|w| !w.4.is_empty())
        .map(|w| (w.4.clone(), w.2.clone()))
        .collect();
    assert_eq!(back, expected);
    for s in sheets {
        let boards = s["boards"].as_array().unwrap();
        assert_eq!(boards.len(), 1, "{}: {boards:#?}", s["sheet"]);
    }
    // ... with the moves and the kinds of problem of the original too.
    let original = cmd()
        .current_dir(dir.path())
        .args(["verify", "--json", "class"])
        .assert()
        .code(2)
        .get_output()
        .stdout
        .clone();
    let original: Value = serde_json::from_slice(&original).unwrap();
    let facts = |b: &Value| {
        let kinds: Vec<String> = b["problems"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["kind"].as_str().unwrap().to_string())
            .collect();
        (b["verdict"].clone(), b["moves"].clone(), kinds)
    };
    let before: Vec<_> = original["files"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|f| f["sheets"].as_array().unwrap().iter())
        .flat_map(|s| s["boards"].as_array().unwrap().iter())
        .filter(|b| b["verdict"] == "partial" || b["verdict"] == "invalid")
        .map(facts)
        .collect();
    let after: Vec<_> = sheets.iter().map(|s| facts(&s["boards"][0])).collect();
    assert_eq!(before, after);
    assert!(String::from_utf8(out.stderr).unwrap().is_empty());
}

#[test]
fn reports_go_to_files_in_the_format_their_extension_names() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    std::fs::create_dir(&class).unwrap();
    save_board(&class.join("closed.xlsx"), "Tour", &closed());
    let mut jump = closed();
    let (a, b) = (at(&jump, 18), at(&jump, 30));
    jump[a.0][a.1] = Some(Typed::Num(30.0));
    jump[b.0][b.1] = Some(Typed::Num(18.0));
    save_board(&class.join("jump.xlsx"), "Tour", &jump);
    let run = |args: &[&str]| {
        cmd()
            .current_dir(dir.path())
            .args(args)
            .assert()
            .code(1)
            .get_output()
            .stdout
            .clone()
    };
    for (ext, flag) in [("csv", "csv"), ("json", "json"), ("txt", "text")] {
        let name = format!("r.{ext}");
        run(&["verify", "class", "-o", &name]);
        let written = std::fs::read(dir.path().join(&name)).unwrap();
        let printed = run(&["verify", "class", "--format", flag]);
        assert_eq!(written, printed, "{name}");
        // An existing report is kept without --force, replaced with it.
        cmd()
            .current_dir(dir.path())
            .args(["verify", "class", "-o", &name])
            .assert()
            .code(2)
            .stderr(predicates::str::contains("already exists"));
        run(&["verify", "class", "-o", &name, "--force"]);
    }
}

#[test]
fn flags_that_do_not_fit_the_output_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    save_board(&dir.path().join("t.xlsx"), "Tour", &closed());
    for (args, says) in [
        (
            &["-o", "r.xlsx", "--complete", "c.xlsx"][..],
            "cannot be used with",
        ),
        (&["--force"][..], "--force replaces the file"),
        (&["-o", "r.ods"][..], "as .xlsx only"),
        (&["-o", "-"][..], "give --format csv, json or text"),
        (
            &["-o", "r.csv", "--format", "json"][..],
            "contradicts -o r.csv",
        ),
        (
            &["-o", "r.csv", "--json"][..],
            "--json contradicts -o r.csv",
        ),
    ] {
        cmd()
            .current_dir(dir.path())
            .arg("verify")
            .arg("t.xlsx")
            .args(args)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(says));
        assert!(!dir.path().join("r.xlsx").exists());
    }
}

#[test]
fn magic_is_reported_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let beverley: Vec<Vec<Option<Typed>>> = BEVERLEY
        .iter()
        .map(|row| row.iter().map(|&n| Some(Typed::Num(n.into()))).collect())
        .collect();
    save_board(&dir.path().join("b.xlsx"), "Tour", &beverley);
    save_board(&dir.path().join("c.xlsx"), "Tour", &closed());
    let out = |args: &[&str]| {
        let o = cmd().current_dir(dir.path()).args(args).assert().code(0);
        String::from_utf8(o.get_output().stdout.clone()).unwrap()
    };
    let text = out(&["verify", "b.xlsx", "c.xlsx"]);
    assert!(
        text.contains("Tour: open (semi-magic), 8x8 board at C3"),
        "{text}"
    );
    assert!(text.contains("Tour: closed, 8x8 board at C3"), "{text}");
    let csv = out(&["verify", "--format", "csv", "b.xlsx", "c.xlsx"]);
    let lines: Vec<&str> = csv.lines().collect();
    assert!(lines[0].ends_with(",magic"));
    assert!(lines[1].ends_with(",semi-magic"), "{csv}");
    assert!(lines[2].ends_with(','), "{csv}");
    let json: Value =
        serde_json::from_str(&out(&["verify", "--json", "b.xlsx", "c.xlsx"])).unwrap();
    let board = |f: usize| json["files"][f]["sheets"][0]["boards"][0].clone();
    assert_eq!(board(0)["magic"], "semi-magic");
    assert!(board(1).get("magic").is_none(), "not magic: {}", board(1));
}

/// Issue 44, finding 14: the Results sheet printed tiny (the table, the totals and their chart
/// fitted on one page) and the count chart's axis ran 0-1.2 in steps of 0.2. The table prints
/// alone (its long first problems wrapped), and the axis counts whole boards.
#[test]
fn the_results_print_at_a_size_to_read_and_the_chart_counts_whole_boards() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    std::fs::create_dir(&class).unwrap();
    build_class(&class);
    cmd()
        .current_dir(dir.path())
        .args(["verify", "class", "-o", "report.xlsx"])
        .assert()
        .code(2);
    let bytes = std::fs::read(dir.path().join("report.xlsx")).unwrap();
    let workbook = part(&bytes, "xl/workbook.xml");
    let area = workbook
        .split("<definedName name=\"_xlnm.Print_Area\" localSheetId=\"0\">")
        .nth(1)
        .and_then(|s| s.split('<').next())
        .unwrap();
    // Columns A to M: the results table, not the totals and the chart beside it.
    assert!(area.starts_with("Results!$A$1:$M$"), "{area}");
    let chart = part(&bytes, "xl/charts/chart1.xml");
    assert!(
        chart.contains("<c:barChart>"),
        "the totals chart comes first"
    );
    assert!(chart.contains(r#"<c:majorUnit val="1"/>"#), "{chart}");
    assert!(chart.contains(r#"<c:numFmt formatCode="0""#), "{chart}");
}
