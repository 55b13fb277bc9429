//! `knights-tour generate` (in progress).

use crate::error::{Error, Result};

/// Options of `knights-tour generate`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Run `knights-tour generate`.
pub fn run(_args: Args) -> Result<u8> {
    Err(Error::Other("'generate' is not available yet".into()))
}
