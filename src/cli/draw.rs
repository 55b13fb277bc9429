//! `knights-tour draw` (in progress).

use crate::error::{Error, Result};

/// Options of `knights-tour draw`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Run `knights-tour draw`.
pub fn run(_args: Args) -> Result<u8> {
    Err(Error::Other("'draw' is not available yet".into()))
}
