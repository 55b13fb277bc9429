//! `knights-tour template` (in progress).

use crate::error::{Error, Result};

/// Options of `knights-tour template`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Run `knights-tour template`.
pub fn run(_args: Args) -> Result<u8> {
    Err(Error::Other("'template' is not available yet".into()))
}
