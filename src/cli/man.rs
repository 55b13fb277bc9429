//! `knights-tour man [SUBCOMMAND]`: a manual page (roff) on standard output, made from the same
//! clap definitions as `--help`, so it never drifts from the flags. One page per command, as
//! git and cargo have them: `knights-tour(1)` lists the subcommands, `knights-tour-generate(1)`
//! and the others give each one's options.
//!
//! ```text
//! knights-tour man | man -l -                      # read it now
//! knights-tour man generate > knights-tour-generate.1
//! ```

use clap::CommandFactory;

use crate::error::{Error, Result};
use crate::exit_codes;
use crate::output;

/// Options of `knights-tour man`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Print a manual page (roff): the whole command's, or one subcommand's",
    after_help = "Examples:\n  \
        knights-tour man | man -l -\n  \
        knights-tour man generate > ~/.local/share/man/man1/knights-tour-generate.1"
)]
pub struct Args {
    /// The subcommand whose page to print (default: the page of knights-tour itself).
    #[arg(value_name = "SUBCOMMAND")]
    pub subcommand: Option<String>,
}

/// The names of the subcommands that have a page of their own, in `--help`'s order.
pub fn subcommands() -> Vec<String> {
    crate::cli::Cli::command()
        .get_subcommands()
        .filter(|s| !s.is_hide_set())
        .map(|s| s.get_name().to_string())
        .collect()
}

/// The page of `subcommand` (`None`: the whole command's), or a usage error naming the
/// subcommands that exist.
///
/// ```
/// let page = knights_tour::cli::man::page(Some("generate")).unwrap();
/// assert!(page.contains("knights\\-tour\\-generate") && page.contains("\\-\\-tiebreak"));
/// assert!(knights_tour::cli::man::page(Some("nonsense")).is_err());
/// ```
pub fn page(subcommand: Option<&str>) -> Result<String> {
    let mut cmd = crate::cli::Cli::command().disable_help_subcommand(true);
    // Built so that each subcommand knows its full name (`knights-tour generate`).
    cmd.build();
    let cmd = match subcommand {
        None => cmd,
        Some(name) => cmd.find_subcommand(name).cloned().ok_or_else(|| {
            Error::Usage(format!(
                "man {name}: no such subcommand; give one of {}",
                subcommands().join(", ")
            ))
        })?,
    };
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd)
        .render(&mut out)
        .map_err(|e| Error::Other(format!("cannot render the manual page: {e}")))?;
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// Run `knights-tour man`.
pub fn run(args: Args) -> Result<u8> {
    output::print_stdout(&page(args.subcommand.as_deref())?)?;
    Ok(exit_codes::SUCCESS)
}
