//! Opening inputs: a path must name a regular file, and `-` is the only way to read a stream.
//!
//! A named pipe nobody writes to blocks `open` forever, and a device such as `/dev/zero` never
//! ends, so anything that is not a regular file (after following symbolic links) is refused
//! before it is opened, with a message naming what it is. Standard input is read whole into
//! memory, at most [`MAX_STDIN_BYTES`], since the workbook readers need to seek.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// The most bytes read from standard input (`verify -`): more than any workbook, CSV or JSON
/// of a tour this tool checks, and a bound on the memory a stream can take.
pub const MAX_STDIN_BYTES: u64 = 64 * 1024 * 1024;

/// Why `path` is not a regular file, as a sentence for a person, or `None` when it is one (or
/// cannot be looked at: opening it then says why).
///
/// ```
/// use knights_tour::input::not_a_regular_file;
/// assert_eq!(not_a_regular_file(std::path::Path::new("Cargo.toml")), None);
/// let why = not_a_regular_file(std::path::Path::new("src")).unwrap();
/// assert_eq!(why, "a folder, not a file");
/// ```
pub fn not_a_regular_file(path: &Path) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    let kind = meta.file_type();
    if kind.is_file() {
        return None;
    }
    if kind.is_dir() {
        return Some("a folder, not a file".into());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let what = if kind.is_fifo() {
            "a named pipe (FIFO)"
        } else if kind.is_char_device() {
            "a character device"
        } else if kind.is_block_device() {
            "a block device"
        } else if kind.is_socket() {
            "a socket"
        } else {
            "a special file"
        };
        return Some(format!(
            "{what}, not a regular file (to read a stream, give `-` and send it to standard input)"
        ));
    }
    #[allow(unreachable_code)]
    Some("a special file, not a regular file".into())
}

/// Open `path` for reading when it is a regular file; anything else is refused before it is
/// opened (an [`io::ErrorKind::InvalidInput`] error saying what it is).
pub fn open_regular(path: &Path) -> io::Result<File> {
    if let Some(what) = not_a_regular_file(path) {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, what));
    }
    File::open(path)
}

/// Read standard input whole, refusing a stream longer than [`MAX_STDIN_BYTES`].
pub fn read_stdin() -> Result<Vec<u8>, String> {
    read_capped(io::stdin().lock(), MAX_STDIN_BYTES)
}

/// Read `source` whole, refusing it past `cap` bytes (without reading further).
///
/// ```
/// use knights_tour::input::read_capped;
/// assert_eq!(read_capped(&b"abc"[..], 3).unwrap(), b"abc");
/// assert!(read_capped(&b"abcd"[..], 3).unwrap_err().contains("more than"));
/// ```
pub fn read_capped(source: impl Read, cap: u64) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    source
        .take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read standard input: {e}"))?;
    if bytes.len() as u64 > cap {
        return Err(format!(
            "standard input holds more than {} MB: save it to a file and give the file",
            cap / (1024 * 1024)
        ));
    }
    Ok(bytes)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_device_is_named_and_refused_before_it_is_opened() {
        let why = not_a_regular_file(Path::new("/dev/null")).unwrap();
        assert!(why.starts_with("a character device"), "{why}");
        let e = open_regular(Path::new("/dev/zero")).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
    }
}
