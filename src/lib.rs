//! # knights-tour
//!
//! Knight's tours for spreadsheets: compute tours on any board and write them into `.xlsx`
//! workbooks (one worksheet per attempt, as in the classic Excel macro), and verify tours that
//! people typed into workbooks by hand.
//!
//! Data flows one way, and each layer uses only the ones below it (`.ci/layers.sh` checks):
//!
//! 1. the vocabulary: [`board`], [`tour`], [`english`], [`exit_codes`];
//! 2. finding tours: [`solve`] turns a [`solve::Request`] into [`tour::Tour`]s;
//! 3. files: [`output`] (atomic writes, write budgets, output formats, memory limits),
//!    [`input`], [`error`];
//! 4. spreadsheets: [`workbook`] reads any workbook and holds the writing primitives;
//! 5. the commands, one folder each: [`generate`], [`verify`], [`pairs`], [`puzzle`],
//!    [`draw`], [`template`] (which `puzzle` fills in);
//! 6. the command line, [`cli`], which turns arguments into the commands' jobs and passes
//!    in what the library must not know of (the progress line).

#![deny(missing_docs)]
// Functions are broken into steps named for what they decide (clippy.toml: at most 100 lines).
#![warn(clippy::too_many_lines)]

pub mod board;
pub mod cli;
pub mod draw;
pub mod english;
pub mod error;
pub mod exit_codes;
pub mod generate;
pub mod input;
pub mod output;
pub mod pairs;
pub mod puzzle;
pub mod solve;
pub mod template;
pub mod tour;
pub mod verify;
pub mod workbook;

/// The README's Rust example, run as a doc-test so it cannot rot (its shell examples are run
/// by `tests/it/cli/readme.rs`).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
