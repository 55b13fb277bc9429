//! Spreadsheet files: writing generated tours ([`mod@write`]), reading any workbook ([`mod@read`]),
//! empty practice boards ([`template`]) and puzzles ([`mod@puzzle`]), and A1 cell references
//! ([`cellref`]).

pub mod cellref;
pub mod puzzle;
pub mod read;
pub mod template;
pub mod write;
