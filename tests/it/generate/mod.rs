//! `knights-tour generate`: its flags and workbook end to end, its command line's edges, and the
//! hand method.

mod cli;
mod end_to_end;
mod hand;
