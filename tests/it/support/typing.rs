//! What a person does to a workbook we wrote: type numbers, words or formulas into cells of its
//! first sheet. Done by editing the sheet's XML, so the writer is independent of ours and of
//! any spreadsheet library (`template`, `verify::roundtrip`).

use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::Path;

use knights_tour::workbook::cellref::CellRef;

/// Write values into the board cells of a template by editing its sheet XML (an independent
/// writer: no spreadsheet library), plus formula cells if given, into a new file.
pub fn type_into(
    src: &Path,
    dst: &Path,
    values: &HashMap<CellRef, String>,
    formulas: &[(CellRef, String)],
) {
    let mut zin = zip::ZipArchive::new(std::fs::File::open(src).unwrap()).unwrap();
    let mut zout = zip::ZipWriter::new(std::fs::File::create(dst).unwrap());
    for i in 0..zin.len() {
        let mut file = zin.by_index(i).unwrap();
        let name = file.name().unwrap().to_string();
        let mut data = Vec::new();
        file.read_to_end(&mut data).unwrap();
        if name == "xl/worksheets/sheet1.xml" {
            let mut xml = String::from_utf8(data).unwrap();
            for (cell, value) in values {
                let open = format!("<c r=\"{cell}\" ");
                let start = xml.find(&open).unwrap_or_else(|| panic!("no {cell}"));
                let end = start + xml[start..].find("/>").unwrap();
                let style = &xml[start + open.len()..end];
                let new = if value.parse::<f64>().is_ok() {
                    format!("<c r=\"{cell}\" {style}><v>{value}</v></c>")
                } else {
                    format!("<c r=\"{cell}\" {style} t=\"inlineStr\"><is><t>{value}</t></is></c>")
                };
                xml.replace_range(start..end + 2, &new);
            }
            for (cell, formula) in formulas {
                let row = format!("<row r=\"{}\"", cell.row + 1);
                let start = xml.find(&row).unwrap();
                let end = start + xml[start..].find("</row>").unwrap();
                let f = formula
                    .replace('&', "&amp;")
                    .replace('<', "&lt;")
                    .replace('>', "&gt;");
                xml.insert_str(end, &format!("<c r=\"{cell}\"><f>{f}</f></c>"));
            }
            data = xml.into_bytes();
        }
        zout.start_file(name, zip::write::SimpleFileOptions::default())
            .unwrap();
        zout.write_all(&data).unwrap();
    }
    zout.finish().unwrap();
}
