//! Workbooks written to memory and looked into, for the tests of the workbook writer
//! (`workbook_write.rs`, `print.rs`): the bytes, calamine's view of them, one zip part as text.

use std::io::{Cursor, Read};

use calamine::{Reader, Xlsx};
use knights_tour::workbook::write::{write_workbook, WorkbookSpec};

/// The workbook `spec` describes, as bytes.
pub fn write(spec: &WorkbookSpec) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    write_workbook(spec, &mut out).unwrap();
    out.into_inner()
}

/// calamine reading `bytes`.
pub fn open(bytes: &[u8]) -> Xlsx<Cursor<Vec<u8>>> {
    Xlsx::new(Cursor::new(bytes.to_vec())).unwrap()
}

/// The text of one part of the xlsx zip.
pub fn part(bytes: &[u8], name: &str) -> String {
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).unwrap();
    let mut text = String::new();
    zip.by_name(name)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .read_to_string(&mut text)
        .unwrap();
    text
}
