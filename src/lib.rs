//! # knights-tour
//!
//! Knight's tours for spreadsheets: compute tours on any board and write them into `.xlsx`
//! workbooks (one worksheet per attempt, as in the classic Excel macro), and verify tours that
//! people typed into workbooks by hand.
//!
//! Data flows one way: the command line ([`cli`]) turns arguments into a [`solve::Request`],
//! the solvers ([`solve`]) turn it into [`tour::Tour`]s, and the writers ([`workbook`],
//! [`draw`]) or the verifier ([`verify`]) report.

#![deny(missing_docs)]

pub mod board;
pub mod cli;
pub mod draw;
pub mod english;
pub mod error;
pub mod exit_codes;
pub mod export;
pub mod generate;
pub mod input;
pub mod output;
pub mod pairs;
pub mod puzzle;
pub mod resources;
pub mod solve;
pub mod tour;
pub mod verify;
pub mod workbook;
pub mod writing;

/// The README's Rust example, run as a doc-test so it cannot rot (its shell examples are run
/// by `tests/it/cli/readme.rs`).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
