//! The errors a command can end with. Each names what went wrong (file, flag, square) in words
//! a person understands; every one of them exits with [`crate::exit_codes::ERROR`] but a time
//! limit met while writing (see [`Error::exit_code`]).

use std::path::PathBuf;

/// An error that ends a command.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A flag or argument that cannot be used as given.
    #[error("{0}")]
    Usage(String),
    /// A request that no tour can satisfy, with the reason (often a theorem).
    #[error("{0}")]
    Impossible(String),
    /// The output exists and `--force` was not given.
    #[error("{} already exists; use --force to overwrite it", path.display())]
    OutputExists {
        /// The output path.
        path: PathBuf,
    },
    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// Writing a workbook failed.
    #[error("{}: could not write the workbook: {message}", path.display())]
    Workbook {
        /// The file.
        path: PathBuf,
        /// The cause.
        message: String,
    },
    /// The time limit came while writing an output: the write stopped there and no file was
    /// made (standard output got only its beginning). Exits with
    /// [`crate::exit_codes::FAILURE`], like any run `--timeout` stopped.
    #[error(
        "{output}: {}: the time limit (--timeout) {}",
        if *.file { "not written" } else { "cut short" },
        cause.ending("it")
    )]
    TimedOut {
        /// The output, as messages name it.
        output: String,
        /// Whether it is a file (none was made) rather than standard output.
        file: bool,
        /// Where the write was.
        cause: crate::output::write_budget::TimedOut,
    },
    /// Anything else, already worded for a person.
    #[error("{0}")]
    Other(String),
}

impl Error {
    /// The exit code this error ends a command with: [`crate::exit_codes::ERROR`], except a
    /// time limit, which is [`crate::exit_codes::FAILURE`] as for every run `--timeout`
    /// stopped.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::TimedOut { .. } => crate::exit_codes::FAILURE,
            _ => crate::exit_codes::ERROR,
        }
    }

    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Error {
        Error::Io {
            path: path.into(),
            source,
        }
    }
}

/// Result with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
