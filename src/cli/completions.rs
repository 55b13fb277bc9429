//! `knights-tour completions SHELL`: the shell's completion script on standard output, made
//! from the same clap definitions as `--help`, so it never drifts from the flags.
//!
//! ```text
//! knights-tour completions bash > ~/.local/share/bash-completion/completions/knights-tour
//! knights-tour completions zsh > ~/.zfunc/_knights-tour      # with fpath+=~/.zfunc
//! knights-tour completions fish > ~/.config/fish/completions/knights-tour.fish
//! knights-tour completions powershell >> $PROFILE
//! ```

use clap::CommandFactory;
use clap_complete::Shell;

use crate::error::Result;
use crate::exit_codes;
use crate::output;

/// Options of `knights-tour completions`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Print a shell completion script (bash, zsh, fish, powershell, elvish)",
    after_help = "Examples:\n  \
        knights-tour completions bash > ~/.local/share/bash-completion/completions/knights-tour\n  \
        knights-tour completions zsh > ~/.zfunc/_knights-tour   # with fpath+=~/.zfunc in .zshrc\n  \
        knights-tour completions fish > ~/.config/fish/completions/knights-tour.fish\n  \
        knights-tour completions powershell >> $PROFILE"
)]
pub struct Args {
    /// The shell to complete in.
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: Shell,
}

/// The completion script for `shell`.
///
/// ```
/// let script = knights_tour::cli::completions::script(clap_complete::Shell::Bash);
/// assert!(script.contains("generate") && script.contains("--tiebreak"));
/// ```
pub fn script(shell: Shell) -> String {
    let mut out = Vec::new();
    clap_complete::generate(
        shell,
        &mut crate::cli::Cli::command(),
        "knights-tour",
        &mut out,
    );
    let script = String::from_utf8_lossy(&out).into_owned();
    match shell {
        Shell::Bash => mend_bash(&script),
        _ => script,
    }
}

/// clap_complete 4.6 names a bash subcommand's state `knights__tour__subcmd__generate` where
/// it is set and `knights__subcmd__tour__subcmd__generate` where it is matched (the hyphen in
/// the program's name is read as a subcommand separator: clap-rs/clap#6421), so bash completed
/// the subcommands but none of their flags. The matched names are written as they are set.
fn mend_bash(script: &str) -> String {
    script.replace("knights__subcmd__tour__subcmd__", "knights__tour__subcmd__")
}

/// Run `knights-tour completions`.
pub fn run(args: Args) -> Result<u8> {
    output::print_stdout(&script(args.shell))?;
    Ok(exit_codes::SUCCESS)
}
