//! `knights-tour verify` (in progress).

use crate::error::{Error, Result};

/// Options of `knights-tour verify`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Run `knights-tour verify`.
pub fn run(_args: Args) -> Result<u8> {
    Err(Error::Other("'verify' is not available yet".into()))
}
