//! What `verify` reads: files, folders walked the way `fd` and `rg` walk them, and `-` for
//! standard input.
//!
//! A folder is walked recursively in name order, keeping the files whose extension names a
//! workbook or CSV/TSV ([`VERIFIED_EXTENSIONS`]); hidden files and folders (a name starting
//! with `.`), office lock files (`~$book.xlsx`) and anything that is not a regular file (a
//! named pipe, a symbolic link: links are not followed) are skipped. A folder holding more than
//! [`MAX_FOLDER_FILES`] such files, or more than [`MAX_FOLDER_ENTRIES`] entries in all, is
//! refused before anything is read. A folder holding none is reported as unreadable.
//!
//! `-` reads standard input, at most [`MAX_STDIN_BYTES`](crate::input::MAX_STDIN_BYTES), its
//! format found from its content like any file's; a CSV read that way is the sheet `stdin`.

use std::path::{Path, PathBuf};

use super::{unreadable, verify_path_with, verify_workbook, FileReport, VerifyOptions};
use crate::workbook::read::watched::Opener;

/// The extensions a folder walk keeps (case-insensitive).
pub const VERIFIED_EXTENSIONS: &[&str] =
    &["xlsx", "xlsm", "xlsb", "xls", "ods", "fods", "csv", "tsv"];

/// The most workbooks a folder walk collects.
pub const MAX_FOLDER_FILES: usize = 100_000;

/// The most entries (files and folders, kept or not) a folder walk looks at.
pub const MAX_FOLDER_ENTRIES: usize = 1_000_000;

/// One thing to verify, each giving one file report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A path given.
    File(PathBuf),
    /// A file found in a folder walk (a report `verify` wrote there is left out: see
    /// [`FileReport::written_by_verify`](super::FileReport::written_by_verify)).
    Found(PathBuf),
    /// Standard input (`-`).
    Stdin,
    /// A folder, or a part of one, that gave nothing to read: why.
    Unreadable {
        /// The folder or entry.
        path: PathBuf,
        /// What went wrong, for a person.
        error: String,
    },
}

impl Input {
    /// How the report names it: the path, or `-`.
    pub fn label(&self) -> String {
        match self {
            Input::File(p) | Input::Found(p) | Input::Unreadable { path: p, .. } => {
                p.display().to_string()
            }
            Input::Stdin => "-".into(),
        }
    }
}

/// The inputs the command line names, folders walked: paths in the order given, each folder's
/// files in name order. `-` may be given once.
///
/// ```
/// use knights_tour::verify::inputs::{expand, Input};
/// use std::path::PathBuf;
/// let got = expand(&[PathBuf::from("-"), PathBuf::from("a.xlsx")]).unwrap();
/// assert_eq!(got, [Input::Stdin, Input::File("a.xlsx".into())]);
/// assert!(expand(&[PathBuf::from("-"), PathBuf::from("-")]).is_err());
/// ```
pub fn expand(args: &[PathBuf]) -> Result<Vec<Input>, String> {
    let mut out = Vec::new();
    let mut stdin = false;
    for arg in args {
        if arg.as_os_str() == "-" {
            if stdin {
                return Err("`-` (standard input) is given more than once".into());
            }
            stdin = true;
            out.push(Input::Stdin);
        } else if arg.is_dir() {
            walk(arg, &mut out)?;
        } else {
            out.push(Input::File(arg.clone()));
        }
    }
    Ok(out)
}

/// Whether a folder walk keeps a file of this name.
///
/// ```
/// use knights_tour::verify::inputs::is_verified_name;
/// assert!(is_verified_name("Class 3/Tour.XLSX".as_ref()));
/// assert!(is_verified_name("moves.tsv".as_ref()));
/// assert!(!is_verified_name("~$Tour.xlsx".as_ref()));
/// assert!(!is_verified_name("notes.txt".as_ref()));
/// ```
pub fn is_verified_name(path: &Path) -> bool {
    let name = path.file_name().map(|n| n.to_string_lossy());
    if name
        .as_deref()
        .is_none_or(|n| n.starts_with('.') || n.starts_with("~$"))
    {
        return false;
    }
    path.extension().is_some_and(|e| {
        let e = e.to_string_lossy().to_ascii_lowercase();
        VERIFIED_EXTENSIONS.contains(&e.as_str())
    })
}

fn walk(dir: &Path, out: &mut Vec<Input>) -> Result<(), String> {
    let (mut entries, mut files) = (0usize, 0usize);
    let walker = walkdir::WalkDir::new(dir)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'));
    for entry in walker {
        entries += 1;
        if entries > MAX_FOLDER_ENTRIES {
            return Err(format!(
                "{}: more than {MAX_FOLDER_ENTRIES} files and folders to look through; name a smaller folder",
                dir.display()
            ));
        }
        match entry {
            Ok(e) if e.file_type().is_file() && is_verified_name(e.path()) => {
                files += 1;
                if files > MAX_FOLDER_FILES {
                    return Err(format!(
                        "{}: more than {MAX_FOLDER_FILES} workbooks; name a smaller folder",
                        dir.display()
                    ));
                }
                out.push(Input::Found(e.into_path()));
            }
            Ok(_) => {}
            Err(e) => out.push(Input::Unreadable {
                path: e.path().unwrap_or(dir).to_path_buf(),
                error: format!(
                    "cannot read the folder: {}",
                    e.io_error()
                        .map_or_else(|| e.to_string(), |io| io.to_string())
                ),
            }),
        }
    }
    if files == 0 {
        out.push(Input::Unreadable {
            path: dir.to_path_buf(),
            error: format!(
                "the folder holds no workbook or CSV/TSV file ({}; hidden files skipped)",
                VERIFIED_EXTENSIONS.join(", ")
            ),
        });
    }
    Ok(())
}

/// Verify one input, its workbook opened by `opener`.
pub fn verify_input(opener: &mut Opener, input: &Input, options: &VerifyOptions) -> FileReport {
    match input {
        Input::File(path) | Input::Found(path) => verify_path_with(opener, path, options),
        Input::Unreadable { error, .. } => unreadable(input.label(), None, error.clone()),
        Input::Stdin => match crate::input::read_stdin() {
            Ok(bytes) => verify_stdin_bytes(opener, &bytes, options),
            Err(e) => unreadable(input.label(), None, e),
        },
    }
}

/// Verify what was read from standard input: labelled `-`; a text format's sheet is `stdin`.
pub fn verify_stdin_bytes(
    opener: &mut Opener,
    bytes: &[u8],
    options: &VerifyOptions,
) -> FileReport {
    match opener.open_bytes(bytes, "stdin") {
        Ok(book) => verify_workbook(book, "-".into(), options),
        Err(e) => unreadable(
            "-".into(),
            e.format().map(|f| f.name().to_string()),
            e.to_string(),
        ),
    }
}
