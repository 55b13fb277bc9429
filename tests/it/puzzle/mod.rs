//! `knights-tour puzzle`: unique answers from the library, and the workbook end to end.

mod cli;
mod library;
