//! The errors a command can end with. Each names what went wrong (file, flag, square) in words
//! a person understands; every one of them exits with [`crate::exit_codes::ERROR`].

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
    /// Anything else, already worded for a person.
    #[error("{0}")]
    Other(String),
}

impl Error {
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
