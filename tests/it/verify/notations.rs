//! Every way of writing a tour that `verify` reads, end to end through the CLI on workbooks
//! written here: coordinates (step/x/y from 0, move/row/col from 1, bare pairs, `(x,y)` one a
//! cell), a tour in one cell (spaces, dashes, the knight's letter, move numbers, pairs), the
//! knight's letter in lists, unvisited squares marked 0 or -1, pandas' header and index; and
//! tables of numbers that are not boards.

use std::path::Path;

use assert_cmd::Command;
use knights_tour::board::{file_letters, Board, Square};
use knights_tour::solve::{rng_from_seed, warnsdorff, Tiebreak};
use serde_json::Value;

use crate::support::CLOSED_8X8;

/// A cell's content.
enum V {
    N(f64),
    T(String),
}

fn n(v: impl Into<f64>) -> V {
    V::N(v.into())
}

fn t(s: impl Into<String>) -> V {
    V::T(s.into())
}

/// A sheet's cells: (row, col, value).
type Cells = Vec<(u32, u16, V)>;

/// Write named sheets of cells to `path`.
fn write(path: &Path, sheets: &[(&str, Cells)]) {
    let mut book = rust_xlsxwriter::Workbook::new();
    for (name, cells) in sheets {
        let sheet = book.add_worksheet();
        sheet.set_name(*name).unwrap();
        for (r, c, v) in cells {
            match v {
                V::N(x) => sheet.write_number(*r, *c, *x).unwrap(),
                V::T(s) => sheet.write_string(*r, *c, s).unwrap(),
            };
        }
    }
    book.save(path).unwrap();
}

/// `verify --json` on `path`: the document and the exit code.
fn verify_json(path: &Path) -> (Value, i32) {
    let out = Command::cargo_bin("knights-tour")
        .unwrap()
        .args(["verify", "--json"])
        .arg(path)
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    (doc, out.status.code().unwrap())
}

/// The boards of every sheet, by sheet name.
fn boards(doc: &Value) -> Vec<(String, Vec<Value>)> {
    doc["files"][0]["sheets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["sheet"].as_str().unwrap().to_string(),
                s["boards"].as_array().unwrap().clone(),
            )
        })
        .collect()
}

fn sheet<'a>(all: &'a [(String, Vec<Value>)], name: &str) -> &'a [Value] {
    &all.iter().find(|(n, _)| n == name).unwrap().1
}

/// An open tour of a `rows` x `cols` board as (row, col) from the top-left.
fn open_tour(rows: u32, cols: u32) -> Vec<(u32, u32)> {
    let board = Board::new(rows, cols).unwrap();
    for seed in 0..50 {
        let tour = warnsdorff::attempt(
            board,
            Square::new(0, 0),
            Tiebreak::Random,
            &mut rng_from_seed(seed),
        );
        if tour.is_complete() {
            return tour.squares().map(|s| (s.row, s.col)).collect();
        }
    }
    panic!("no {rows}x{cols} tour");
}

fn name(rows: u32, (r, c): (u32, u32)) -> String {
    format!("{}{}", file_letters(c), rows - r)
}

#[test]
fn coordinate_columns_with_and_without_headers() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("coords.xlsx");
    // step, x, y from 0 (y from the top) with a header row.
    let mut xy = vec![(0, 0, t("step")), (0, 1, t("x")), (0, 2, t("y"))];
    for (i, &(r, c)) in CLOSED_8X8.iter().enumerate() {
        let row = i as u32 + 1;
        xy.extend([(row, 0, n(i as f64)), (row, 1, n(c)), (row, 2, n(r))]);
    }
    // move, row, col from 1 on a 5x6 board.
    let tour = open_tour(5, 6);
    let mut rc = vec![(0, 1, t("move")), (0, 2, t("row")), (0, 3, t("col"))];
    for (i, &(r, c)) in tour.iter().enumerate() {
        let row = i as u32 + 1;
        rc.extend([
            (row, 1, n(i as f64 + 1.0)),
            (row, 2, n(r + 1)),
            (row, 3, n(c + 1)),
        ]);
    }
    // Bare x, y from 0, no header, entries 5 and 9 swapped.
    let mut broken: Vec<(u32, u32)> = CLOSED_8X8.to_vec();
    broken.swap(5, 9);
    let bare: Vec<_> = broken
        .iter()
        .enumerate()
        .flat_map(|(i, &(r, c))| [(i as u32 + 3, 4, n(c)), (i as u32 + 3, 5, n(r))])
        .collect();
    write(
        &path,
        &[("xy from 0", xy), ("row col from 1", rc), ("bare", bare)],
    );
    let (doc, code) = verify_json(&path);
    assert_eq!(code, 1);
    let all = boards(&doc);
    let b = &sheet(&all, "xy from 0")[0];
    assert_eq!(b["notation"], "list");
    assert_eq!(b["list_form"], "coordinates");
    assert_eq!(b["verdict"], "closed");
    assert_eq!(b["board"]["top_left"], "B2");
    assert_eq!(
        (b["board"]["rows"].as_u64(), b["board"]["cols"].as_u64()),
        (Some(8), Some(8))
    );
    assert_eq!(b["coordinates"]["order"], "xy");
    assert_eq!(b["coordinates"]["from"], 0);
    assert_eq!(b["start_square"], name(8, CLOSED_8X8[0]));
    assert_eq!(b["cells"], "A2:C65");
    let b = &sheet(&all, "row col from 1")[0];
    assert_eq!(b["verdict"], "open");
    assert_eq!(
        (b["board"]["rows"].as_u64(), b["board"]["cols"].as_u64()),
        (Some(5), Some(6))
    );
    assert_eq!(b["coordinates"]["order"], "row-col");
    assert_eq!(b["coordinates"]["from"], 1);
    assert_eq!(b["start_square"], name(5, tour[0]));
    let b = &sheet(&all, "bare")[0];
    assert_eq!(b["verdict"], "invalid");
    assert_eq!(b["board"]["top_left"], "E4");
    assert!(b["problems"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["kind"] == "not-a-knight-move"));
}

#[test]
fn pairs_one_a_cell_and_tours_in_one_cell() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("one.xlsx");
    let tour = open_tour(5, 5);
    let pairs: Vec<String> = tour.iter().map(|&(r, c)| format!("({c},{r})")).collect();
    let squares: Vec<String> = tour.iter().map(|&sq| name(5, sq)).collect();
    let pieces: Vec<String> = squares.iter().map(|s| format!("N{s}")).collect();
    let numbered: Vec<String> = squares
        .iter()
        .enumerate()
        .map(|(i, s)| format!("{}. N{s}", i + 1))
        .collect();
    let per_cell: Vec<_> = pairs
        .iter()
        .enumerate()
        .map(|(i, p)| (1, i as u16, t(p.clone())))
        .collect();
    write(
        &path,
        &[
            ("pairs per cell", per_cell),
            ("pairs in one cell", vec![(0, 0, t(pairs.join(" ")))]),
            (
                "spaces",
                vec![(0, 0, t("Tour:")), (1, 0, t(squares.join(" ")))],
            ),
            ("dashes", vec![(1, 1, t(squares.join("-")))]),
            ("pieces", vec![(0, 0, t(pieces.join(", ")))]),
            ("numbered", vec![(2, 2, t(numbered.join(" ")))]),
        ],
    );
    let (doc, code) = verify_json(&path);
    assert_eq!(code, 0, "{doc:#}");
    let all = boards(&doc);
    for (sheet_name, form, top_left) in [
        ("pairs per cell", "coordinates", "A2"),
        ("pairs in one cell", "one-cell", "A1"),
        ("spaces", "one-cell", "A2"),
        ("dashes", "one-cell", "B2"),
        ("pieces", "one-cell", "A1"),
        ("numbered", "one-cell", "C3"),
    ] {
        let got = sheet(&all, sheet_name);
        assert_eq!(got.len(), 1, "{sheet_name}: {got:?}");
        let b = &got[0];
        assert_eq!(b["notation"], "list", "{sheet_name}");
        assert_eq!(b["list_form"], form, "{sheet_name}");
        assert_eq!(b["verdict"], "open", "{sheet_name}: {b}");
        assert_eq!(b["board"]["top_left"], top_left, "{sheet_name}");
        assert_eq!(b["board"]["rows"], 5, "{sheet_name}");
        assert_eq!(b["start_square"], squares[0], "{sheet_name}");
    }
}

#[test]
fn the_knights_letter_is_not_a_file_and_absurd_readings_say_why() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("letters.xlsx");
    let tour = open_tour(6, 6);
    let down: Vec<_> = tour
        .iter()
        .enumerate()
        .map(|(i, &sq)| (i as u32 + 2, 1, t(format!("N{}", name(6, sq)))))
        .collect();
    let tour5 = open_tour(5, 5);
    let mut along: Vec<_> = tour5
        .iter()
        .enumerate()
        .map(|(i, &sq)| (2, i as u16 + 1, t(format!("N{}", name(5, sq)))))
        .collect();
    along.extend((0..25).map(|i| (3, i as u16 + 1, n(i as f64 + 1.0))));
    // Files far right of z: read as written they need a board 700 files wide.
    let far: Vec<_> = tour
        .iter()
        .enumerate()
        .map(|(i, &(r, c))| (i as u32, 0, t(format!("z{}{}", file_letters(c), 6 - r))))
        .collect();
    write(
        &path,
        &[("down", down), ("along", along), ("far files", far)],
    );
    let out = Command::cargo_bin("knights-tour")
        .unwrap()
        .arg("verify")
        .arg(&path)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("down: open, list of 36 squares at B3:B38 on a 6x6 board"),
        "{text}"
    );
    assert!(
        text.contains("along: open, list of 25 squares at B3:Z3 on a 5x5 board"),
        "{text}"
    );
    assert!(text.contains("far files: no-board (the 36 entries at A1:A36 are not a board: read as written they need a 6x"), "{text}");
    assert!(text.contains("files they never visit"), "{text}");
}

#[test]
fn zero_or_minus_one_on_unvisited_squares_is_a_partial_attempt() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("unvisited.xlsx");
    let grid = |mark: f64, k: usize, top: u32| {
        let mut number = [[mark; 8]; 8];
        for (i, &(r, c)) in CLOSED_8X8[..k].iter().enumerate() {
            number[r as usize][c as usize] = i as f64 + 1.0;
        }
        let mut cells = Vec::new();
        for (r, row) in number.iter().enumerate() {
            for (c, &v) in row.iter().enumerate() {
                cells.push((top + r as u32, c as u16 + 1, n(v)));
            }
        }
        cells
    };
    write(
        &path,
        &[
            ("zeros", grid(0.0, 37, 0)),
            ("minus one", grid(-1.0, 58, 1)),
        ],
    );
    let (doc, code) = verify_json(&path);
    assert_eq!(code, 1);
    let all = boards(&doc);
    for (s, mark, moves, top_left) in [("zeros", 0, 37, "B1"), ("minus one", -1, 58, "B2")] {
        let b = &sheet(&all, s)[0];
        assert_eq!(b["verdict"], "partial", "{s}: {b}");
        assert_eq!(b["unvisited"], mark, "{s}");
        assert_eq!(b["moves"], moves, "{s}");
        assert_eq!(b["board"]["top_left"], top_left, "{s}");
        assert_eq!(b["problems"].as_array().unwrap().len(), 0, "{s}");
    }
}

#[test]
fn a_pandas_header_row_and_index_column_are_labels() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pandas.xlsx");
    let mut cells: Cells = (0..8).map(|c| (0, c as u16 + 1, n(c))).collect();
    cells.extend((0..8).map(|r| (r + 1, 0, n(r))));
    for (i, &(r, c)) in CLOSED_8X8.iter().enumerate() {
        cells.push((r + 1, c as u16 + 1, n(i as f64 + 1.0)));
    }
    write(&path, &[("df", cells)]);
    let (doc, code) = verify_json(&path);
    assert_eq!(code, 0, "{doc:#}");
    let b = &boards(&doc)[0].1[0];
    assert_eq!(b["verdict"], "closed");
    assert_eq!(b["board"]["top_left"], "B2");
    assert_eq!(b["board"]["rows"], 8);
}

#[test]
fn tables_of_small_numbers_are_not_boards_but_a_filled_5x5_is_an_attempt() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tables.xlsx");
    let rows = |data: &[&[f64]], top: u32| -> Cells {
        data.iter()
            .enumerate()
            .flat_map(|(r, row)| {
                row.iter()
                    .enumerate()
                    .map(move |(c, &v)| (top + r as u32, c as u16, n(v)))
            })
            .collect()
    };
    let chart = rows(
        &[
            &[1.0, 2.0, 3.0],
            &[2.0, 4.0, 6.0],
            &[3.0, 6.0, 9.0],
            &[4.0, 8.0, 12.0],
            &[5.0, 10.0, 15.0],
        ],
        1,
    );
    let mut chart_with_header = vec![
        (0, 0, t("Number")),
        (0, 1, t("Batch 1")),
        (0, 2, t("Batch 2")),
    ];
    chart_with_header.extend(chart);
    let nine = rows(&[&[1.0, 4.0, 7.0], &[2.0, 5.0, 8.0], &[3.0, 6.0, 9.0]], 0);
    let six = rows(&[&[1.0, 2.0], &[3.0, 4.0], &[5.0, 6.0]], 0);
    let key_value = rows(
        &[
            &[1.0, 10.0],
            &[2.0, 20.0],
            &[3.0, 30.0],
            &[4.0, 40.0],
            &[5.0, 50.0],
        ],
        0,
    );
    let fill: Vec<Vec<f64>> = (0..5)
        .map(|r| (1..=5).map(|c| f64::from(r * 5 + c)).collect())
        .collect();
    let fill_refs: Vec<&[f64]> = fill.iter().map(Vec::as_slice).collect();
    write(
        &path,
        &[
            ("chart", chart_with_header),
            ("nine", nine),
            ("six", six),
            ("key value", key_value),
            ("row by row", rows(&fill_refs, 0)),
        ],
    );
    let (doc, _) = verify_json(&path);
    let all = boards(&doc);
    for s in ["chart", "nine", "six", "key value"] {
        assert!(sheet(&all, s).is_empty(), "{s}: {:?}", sheet(&all, s));
    }
    let b = &sheet(&all, "row by row")[0];
    assert_eq!(b["verdict"], "invalid");
    assert_eq!(b["board"]["rows"], 5);
}
