//! `knights-tour template` end to end: the file it writes, read back by independent readers
//! (calamine for the cells, zip for the sheet XML), filled in by a test-side writer that edits
//! the sheet XML directly, and refusals of bad input.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use calamine::{open_workbook_auto, Data, Reader};
use knights_tour::board::{Board, Square};
use knights_tour::template::{duplicate_rule, not_a_move_rule, successor_rule};
use knights_tour::tour::Tour;
use knights_tour::verify::{verify_path, Verdict, VerifyOptions};
use knights_tour::workbook::cellref::{CellRange, CellRef};
use predicates::prelude::*;
use predicates::str::contains;

use crate::support::cmd;
use crate::support::typing::type_into;
use crate::support::CLOSED_8X8;

/// Run `template` with `args` in a fresh folder; returns the folder and the file written.
fn write_template(args: &[&str]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    cmd()
        .current_dir(dir.path())
        .arg("template")
        .args(args)
        .assert()
        .success()
        .stdout(contains("wrote"));
    let out = args
        .iter()
        .position(|a| *a == "-o")
        .map_or("knights-tour-template.xlsx", |i| args[i + 1]);
    let path = dir.path().join(out);
    assert!(path.is_file());
    (dir, path)
}

/// Every non-empty cell of the first sheet as (row, col) from 0 -> value.
fn cells(path: &Path) -> HashMap<(u32, u32), Data> {
    let mut wb = open_workbook_auto(path).unwrap();
    let name = wb.sheet_names()[0].clone();
    let range = wb.worksheet_range(&name).unwrap();
    let (r0, c0) = range.start().unwrap_or((0, 0));
    range
        .used_cells()
        .filter(|(_, _, d)| !matches!(d, Data::Empty))
        .map(|(r, c, d)| ((r as u32 + r0, c as u32 + c0), d.clone()))
        .collect()
}

fn sheet_xml(path: &Path) -> String {
    let mut zip = zip::ZipArchive::new(std::fs::File::open(path).unwrap()).unwrap();
    let mut xml = String::new();
    zip.by_name("xl/worksheets/sheet1.xml")
        .unwrap()
        .read_to_string(&mut xml)
        .unwrap();
    xml
}

/// The text of the first element `<tag ...>` whose attributes contain `attr`.
fn element<'a>(xml: &'a str, tag: &str, attr: &str) -> &'a str {
    let mut from = 0;
    while let Some(i) = xml[from..].find(&format!("<{tag} ")) {
        let start = from + i;
        let end = start + xml[start..].find(&format!("</{tag}>")).unwrap();
        let head_end = start + xml[start..].find('>').unwrap();
        if xml[start..head_end].contains(attr) {
            return &xml[start..end];
        }
        from = end;
    }
    panic!("no <{tag}> with {attr} in the sheet")
}

#[test]
fn an_empty_template_has_no_numbers_only_text_labels() {
    let (_dir, path) = write_template(&[]);
    let cells = cells(&path);
    for (at, d) in &cells {
        assert!(
            matches!(d, Data::String(_)),
            "cell {:?} holds {d:?}; only text may be on an empty template",
            at
        );
    }
    // Files a..h above C3:J10, ranks 8..1 to its left, all as text.
    for c in 0..8u32 {
        let want = ((b'a' + c as u8) as char).to_string();
        assert_eq!(cells[&(1, 2 + c)], Data::String(want));
    }
    for r in 0..8u32 {
        assert_eq!(cells[&(2 + r, 1)], Data::String((8 - r).to_string()));
    }
    let note = cells.values().filter_map(|d| match d {
        Data::String(s) if s.contains("1 to 64") => Some(s),
        _ => None,
    });
    assert_eq!(note.count(), 1, "one instruction line");
    // Nothing inside the board.
    assert!(cells
        .keys()
        .all(|&(r, c)| !((2..10).contains(&r) && (2..10).contains(&c))));
    // And so the verifier finds no board on it.
    assert_eq!(verdict(&path), (Verdict::NoBoard, None));
}

/// The verifier's verdict and board range for the workbook's only sheet.
fn verdict(path: &Path) -> (Verdict, Option<String>) {
    let report = verify_path(path, &VerifyOptions::default());
    assert!(report.readable, "{:?}", report.error);
    let sheet = &report.sheets[0];
    let board = sheet
        .board
        .as_ref()
        .map(|b| format!("{} {}x{}", b.top_left, b.rows, b.cols));
    (sheet.verdict, board)
}

#[test]
fn validation_and_conditional_formats_cover_exactly_the_board() {
    for (args, board, n) in [
        (vec![], "C3:J10", 64),
        (
            vec!["--rows", "5", "--cols", "6", "--at", "B2"],
            "B2:G6",
            30,
        ),
        (vec!["--size", "12", "--at", "AA100"], "AA100:AL111", 144),
    ] {
        let (_dir, path) = write_template(&args);
        let xml = sheet_xml(&path);
        let sqref = format!("sqref=\"{board}\"");
        let dv = element(&xml, "dataValidation", &sqref);
        assert!(dv.contains("type=\"whole\""), "{dv}");
        assert!(dv.contains("<formula1>1</formula1>"), "{dv}");
        assert!(dv.contains(&format!("<formula2>{n}</formula2>")), "{dv}");
        assert!(dv.contains("prompt=") && dv.contains("error="), "{dv}");
        let cf = element(&xml, "conditionalFormatting", &sqref);
        assert_eq!(cf.matches("<cfRule").count(), 3, "{cf}");
        let range: CellRange = board.parse().unwrap();
        let esc = |s: String| {
            s.replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
        };
        for rule in [
            duplicate_rule(range, range.first),
            successor_rule(range, range.first),
            not_a_move_rule(range.first, n),
        ] {
            assert!(cf.contains(&esc(rule.clone())), "missing {rule}");
        }
        assert_eq!(xml.matches("<dataValidation ").count(), 1);
        assert_eq!(xml.matches("<conditionalFormatting ").count(), 1);
    }
}

fn tour_values(at: CellRef) -> HashMap<CellRef, String> {
    CLOSED_8X8
        .iter()
        .enumerate()
        .map(|(i, &(r, c))| (at.offset(r, c), (i + 1).to_string()))
        .collect()
}

#[test]
fn filled_with_a_valid_tour_it_reads_back_as_that_tour() {
    let (dir, path) = write_template(&["--at", "D5"]);
    let at = CellRef::new(4, 3);
    let filled = dir.path().join("filled.xlsx");
    type_into(&path, &filled, &tour_values(at), &[]);
    let read = cells(&filled);
    let mut by_move = vec![None; 64];
    for (&(r, c), d) in &read {
        if let Data::Float(v) = d {
            assert!(r >= 4 && c >= 3, "number outside the board at {r},{c}");
            by_move[*v as usize - 1] = Some(Square::new(r - 4, c - 3));
        }
    }
    let squares: Vec<Square> = by_move.into_iter().map(Option::unwrap).collect();
    let tour = Tour::from_squares(Board::new(8, 8).unwrap(), squares).unwrap();
    assert!(tour.is_closed());
    assert_eq!(verdict(&filled), (Verdict::Closed, Some("D5 8x8".into())));

    // One duplicate: the rule that marks it is still there, on the board's range.
    let mut values = tour_values(at);
    values.insert(at.offset(0, 1), "1".into());
    let dup = dir.path().join("dup.xlsx");
    type_into(&path, &dup, &values, &[]);
    let xml = sheet_xml(&dup);
    let cf = element(&xml, "conditionalFormatting", "sqref=\"D5:K12\"");
    assert!(cf.contains("COUNTIF($D$5:$K$12,D5)&gt;1"), "{cf}");
    let ones = cells(&dup)
        .values()
        .filter(|d| **d == Data::Float(1.0))
        .count();
    assert_eq!(ones, 2);
    assert_eq!(verdict(&dup).0, Verdict::Invalid);
}

#[test]
fn an_existing_file_is_kept_without_force() {
    let (dir, path) = write_template(&["-o", "t.xlsx"]);
    std::fs::write(&path, "precious").unwrap();
    cmd()
        .current_dir(dir.path())
        .args(["template", "-o", "t.xlsx"])
        .assert()
        .code(2)
        .stderr(contains("already exists").and(contains("--force")));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "precious");
    cmd()
        .current_dir(dir.path())
        .args(["template", "-o", "t.xlsx", "--force", "--size", "5"])
        .assert()
        .success();
    assert!(cells(&path)
        .values()
        .any(|d| *d == Data::String("e".into())));
}

#[test]
fn bad_input_is_refused_with_exit_2_and_nothing_written() {
    let dir = tempfile::tempdir().unwrap();
    for (args, message) in [
        (vec!["--at", "C0"], "--at"),
        (vec!["--at", "3C"], "not a cell reference"),
        (vec!["--size", "20", "--at", "XEZ1"], "does not fit"),
        (
            vec!["--rows", "5", "--cols", "5", "--at", "A1048573"],
            "does not fit",
        ),
        (vec!["--size", "0"], "board size"),
        (vec!["--rows", "5"], "--cols"),
        (
            vec!["--size", "5", "--rows", "5", "--cols", "6"],
            "cannot be used with",
        ),
    ] {
        cmd()
            .current_dir(dir.path())
            .arg("template")
            .args(&args)
            .assert()
            .code(2)
            .stderr(contains(message));
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            0,
            "{args:?}"
        );
    }
}

// ---------- the rules, evaluated by LibreOffice ----------

/// What the three rules should say about each board cell: 1 duplicate, 2 not a move
/// number, 4 successor not a knight's move away.
fn expected_flags(
    values: &HashMap<CellRef, String>,
    at: CellRef,
    n: usize,
) -> HashMap<CellRef, u32> {
    let num = |cell: &CellRef| values.get(cell).and_then(|v| v.parse::<f64>().ok());
    let mut flags = HashMap::new();
    for r in 0..8 {
        for c in 0..8 {
            let cell = at.offset(r, c);
            let mut f = 0;
            if let Some(v) = num(&cell) {
                if values.keys().filter(|k| num(k) == Some(v)).count() > 1 {
                    f |= 1;
                }
                if v < 1.0 || v > n as f64 || v.fract() != 0.0 {
                    f |= 2;
                }
                let next: Vec<&CellRef> =
                    values.keys().filter(|k| num(k) == Some(v + 1.0)).collect();
                if next.len() == 1 {
                    let (dr, dc) = (
                        next[0].row.abs_diff(cell.row),
                        next[0].col.abs_diff(cell.col),
                    );
                    if dr * dc != 2 {
                        f |= 4;
                    }
                }
            } else if values.contains_key(&cell) {
                f |= 2;
            }
            flags.insert(cell, f);
        }
    }
    flags
}

/// Fill a template with `values`, add a formula beside each board cell that evaluates the
/// three rules for it, let LibreOffice compute and export CSV, and compare with
/// [`expected_flags`]. Needs `soffice` (libreoffice-calc).
#[test]
#[cfg_attr(
    not(feature = "external"),
    ignore = "needs LibreOffice (soffice): cargo test --features external"
)]
fn libreoffice_evaluates_the_rules_as_intended() {
    crate::support::require_program("soffice", "apt-get install -y libreoffice-calc");
    let (dir, path) = write_template(&[]);
    let at = CellRef::new(2, 2);
    let range = CellRange::new(at, at.offset(7, 7));
    let mut cases = Vec::new();
    cases.push(("valid", tour_values(at)));
    let mut broken = tour_values(at);
    broken.insert(at.offset(0, 1), "10".into()); // a duplicate 10 (and move 54 lost)
    broken.insert(at.offset(3, 3), "abc".into());
    broken.insert(at.offset(5, 5), "2.5".into());
    broken.insert(at.offset(7, 7), "0".into());
    broken.insert(at.offset(6, 6), "70".into());
    broken.remove(&at.offset(4, 4));
    cases.push(("broken", broken));
    let mut files = Vec::new();
    for (name, values) in &cases {
        let mut formulas = Vec::new();
        for r in 0..8 {
            for c in 0..8 {
                let cell = at.offset(r, c);
                let f = format!(
                    "IF({},1,0)+IF({},2,0)+IF({},4,0)",
                    duplicate_rule(range, cell),
                    not_a_move_rule(cell, 64),
                    successor_rule(range, cell)
                );
                formulas.push((cell.offset(0, 10), f));
            }
        }
        let file = dir.path().join(format!("{name}.xlsx"));
        type_into(&path, &file, values, &formulas);
        files.push(file);
    }
    // A profile of its own: LibreOffice runs elsewhere (other tests, other users) must not share it.
    let status = std::process::Command::new("soffice")
        .arg(format!(
            "-env:UserInstallation=file://{}/lo-profile",
            dir.path().display()
        ))
        .args(["--headless", "--convert-to", "csv", "--outdir"])
        .arg(dir.path())
        .args(&files)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("soffice runs");
    assert!(status.success());
    for (name, values) in &cases {
        let csv = std::fs::read_to_string(dir.path().join(format!("{name}.csv"))).unwrap();
        let rows: Vec<Vec<&str>> = csv.lines().map(|l| l.split(',').collect()).collect();
        let expected = expected_flags(values, at, 64);
        let mut flagged = 0;
        for (cell, want) in &expected {
            let got = rows[cell.row as usize][cell.col as usize + 10];
            assert_eq!(
                got,
                want.to_string(),
                "{name}: {cell} holds {:?}",
                values.get(cell)
            );
            flagged += u32::from(*want != 0);
        }
        if *name == "valid" {
            assert_eq!(flagged, 0);
        } else {
            assert!(flagged >= 6, "{flagged}");
        }
    }
}

/// Issue 20, finding 11: every small practice board prints about as wide as an 8x8 one (a
/// 5x5 printed 4.75 in and a 3x4 3.83 in against 6.1 in), and so do their squares' width and
/// the print scale say, read from the file as a spreadsheet reads them.
#[test]
fn small_practice_boards_print_as_big_as_an_8x8_one() {
    let printed_inches = |args: &[&str], cols: u32| {
        let (_dir, path) = write_template(args);
        let xml = sheet_xml(&path);
        let scale: f64 = xml
            .split("<pageSetup ")
            .nth(1)
            .and_then(|s| s.split("scale=\"").nth(1))
            .and_then(|s| s.split('"').next())
            .map_or(100.0, |s| s.parse().unwrap());
        // The board's columns start at C (3); widths are characters, 7 px each plus 5.
        let mut px = 0.0;
        for col in xml.split("<col ").skip(1) {
            let attr = |name: &str| -> f64 {
                col.split(&format!("{name}=\""))
                    .nth(1)
                    .unwrap()
                    .split('"')
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap()
            };
            let (min, max, width) = (attr("min") as u32, attr("max") as u32, attr("width"));
            let board_cols = (min.max(3)..=max.min(2 + cols)).count() as f64;
            px += board_cols * (width * 7.0 + 5.0).round();
        }
        px * scale / 100.0 / 96.0
    };
    let eight = printed_inches(&["--size", "8"], 8);
    assert!(eight > 5.5, "8x8: {eight:.2} in");
    for (args, cols) in [
        (&["--size", "5"][..], 5),
        (&["--rows", "3", "--cols", "4"][..], 4),
        (&["--size", "6"][..], 6),
    ] {
        let inches = printed_inches(args, cols);
        assert!(
            (inches - eight).abs() <= eight * 0.1,
            "{args:?}: {inches:.2} in, 8x8 {eight:.2} in"
        );
    }
}

/// Issue 20, finding 11: `--at A1` left no room for the labels and silently dropped them; it
/// is refused, naming where a board may start.
#[test]
fn a_board_with_no_room_for_its_labels_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for at in ["A1", "A5", "C1"] {
        cmd()
            .current_dir(dir.path())
            .args(["template", "--at", at])
            .assert()
            .code(2)
            .stderr(contains("B2 at the earliest"));
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    let (_dir, path) = write_template(&["--at", "B2"]);
    let cells = cells(&path);
    // The labels are there: file letters in row 1, rank numbers in column A.
    assert_eq!(cells[&(0, 1)], Data::String("a".into()));
    assert_eq!(cells[&(1, 0)], Data::String("8".into()));
}

/// Issue 20, finding 11: the instructions stay within the board's width, in characters a
/// wide italic font keeps inside it (Gnumeric cut them at the print area's right edge).
#[test]
fn the_instructions_stay_within_the_boards_width() {
    for (args, cols) in [
        (&["--size", "8"][..], 8u32),
        (&["--size", "5"][..], 5),
        (&["--size", "12"][..], 12),
    ] {
        let (_dir, path) = write_template(args);
        let xml = sheet_xml(&path);
        let col_px: f64 = xml
            .split("<col ")
            .skip(1)
            .find(|c| c.contains("min=\"3\""))
            .and_then(|c| c.split("width=\"").nth(1))
            .and_then(|s| s.split('"').next())
            .map(|w| (w.parse::<f64>().unwrap() * 7.0 + 5.0).round())
            .unwrap();
        let board_px = col_px * f64::from(cols);
        let longest = cells(&path)
            .values()
            .filter_map(|d| match d {
                Data::String(s) if s.contains("knight") || s.contains(':') => {
                    Some(s.chars().count())
                }
                _ => None,
            })
            .max()
            .unwrap();
        // 10 px a character: Gnumeric's italic Carlito averages about 7.
        assert!(
            longest as f64 * 10.0 <= board_px + 1.0,
            "{args:?}: a line of {longest} characters beside a board of {board_px} px"
        );
    }
}
