//! The integration tests, one crate so the library and every dev-dependency link once: a
//! module per command (`generate`, `verify`, `pairs`, `puzzle`, `draw`, `template`), per layer
//! below them (`solve`, `workbook`, `hostile` for untrusted files), `cli` for what every command
//! shares, and `support` for the helpers the tests share.
//!
//! Tests that need programs from outside the Rust toolchain (LibreOffice, Gnumeric, poppler,
//! prlimit, openxml-audit, bash, mkfifo) run with `--features external`; tests that read the
//! corpora in `../shared` run with `--features corpora`. Without the feature they are listed as
//! ignored, with the reason; with it, a missing program or folder fails the test.

mod cli;
mod draw;
mod generate;
mod hostile;
mod pairs;
mod puzzle;
mod solve;
mod support;
mod template;
mod verify;
mod workbook;
