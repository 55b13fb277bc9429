//! Spreadsheet files, the layer every command's workbook stands on: reading any workbook
//! ([`mod@read`]), the primitives workbooks are written with ([`mod@write`]: board layout,
//! styles, sheet names, the path chart, compression) and A1 cell references ([`cellref`]).
//! Each command's own workbook lives in the command's folder.

pub mod cellref;
pub mod read;
pub mod write;
