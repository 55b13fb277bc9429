//! `knights-tour verify`: exit codes and reports end to end, boards found among tables, every
//! notation people type, the class report, `--complete`, and the sample sets with manifests.

mod boards;
mod boards_prop;
mod class_report;
mod complete;
mod end_to_end;
mod notations;
mod reports;
mod roundtrip;
mod samples;
mod text_layer;
mod wild;
