//! Spreadsheet files: writing generated tours ([`mod@write`]), reading any workbook ([`mod@read`]),
//! empty practice boards ([`template`]), and A1 cell references ([`cellref`]).

pub mod cellref;
pub mod read;
pub mod template;
pub mod write;
