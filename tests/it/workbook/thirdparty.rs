//! Workbooks written by other people's libraries (fixtures/thirdparty/, made once by its
//! make.sh with the producers' own packages). SheetJS writes xlsb cells after the first of a
//! row as short records (BrtShortRk, BrtShortIsst...), which calamine 0.38 skips
//! (docs/upstream.md): our xlsb reader reads them all.

use std::path::PathBuf;

use assert_cmd::Command;
use calamine::{open_workbook, Data, Reader, Xlsb};
use knights_tour::workbook::read::{CellValueRef, Workbook};
use serde_json::Value;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/thirdparty")
        .join(name)
}

#[test]
fn a_sheetjs_xlsb_reads_whole_boards_through_the_command_line() {
    let out = Command::cargo_bin("knights-tour")
        .unwrap()
        .args(["verify", "--json"])
        .arg(fixture("sheetjs.xlsb"))
        .output()
        .unwrap();
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let sheets = &json["files"][0]["sheets"];
    for (i, top_left, start) in [(0, "B2", "E6"), (1, "A1", "D5")] {
        let s = &sheets[i];
        assert_eq!(s["verdict"], "open", "{s}");
        assert_eq!(s["board"]["top_left"], top_left, "{s}");
        assert_eq!(s["board"]["rows"], 8, "{s}");
        assert_eq!(s["start"], start, "{s}");
    }
    assert_eq!(sheets[2]["verdict"], "no-board");
}

#[test]
fn every_kind_of_short_cell_record_is_read() {
    let mut book = Workbook::open(&fixture("sheetjs.xlsb")).unwrap();
    let mixed = book.read_sheet("Mixed").unwrap();
    let at = |row, col| mixed.find(row, col).and_then(|c| c.value);
    assert_eq!(at(0, 1), Some(CellValueRef::Number(2.5)));
    assert_eq!(at(1, 1), Some(CellValueRef::Bool(true)));
    assert_eq!(at(2, 1), Some(CellValueRef::Error("#N/A")));
    assert_eq!(at(3, 1), Some(CellValueRef::Text("words")));
    assert_eq!(at(4, 1), Some(CellValueRef::Number(123456789.0)));
    assert_eq!(at(0, 0), Some(CellValueRef::Text("x")));
    let tour = book.read_sheet("Tour").unwrap();
    assert_eq!(tour.cells().len(), 65);
}

/// The calamine defect of docs/upstream.md, still there: its xlsb reader keeps only the first
/// cell of each row. When this fails, calamine reads short records and the entry can go.
#[test]
fn calamine_still_skips_the_short_records() {
    let mut book: Xlsb<_> = open_workbook(fixture("sheetjs.xlsb")).unwrap();
    let range = book.worksheet_range("Tour").unwrap();
    let numbers = range
        .used_cells()
        .filter(|(_, _, v)| matches!(v, Data::Float(_) | Data::Int(_)))
        .count();
    assert_eq!(numbers, 8, "calamine read {numbers} of the 64 move numbers");
}
