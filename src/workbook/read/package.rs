//! An OOXML package (xlsx, xlsm, xlsb) as calamine sees it, opened once per workbook.
//!
//! calamine finds a part by its path lower-cased, among member names with `\` turned into
//! `/` and lower-cased (the last member wins when two names fold to the same key), and falls
//! back to the path as given when no member folds to it. The pre-scans must read exactly the
//! members calamine will read, or calamine reads a member nobody counted (a workbook part
//! under another name, a sheet stored as `xl\worksheets\sheet1.xml`...). So the lookup here is
//! calamine's, and where it could pick one of two members (two members with one name, or two
//! names that fold to one key) the package is refused instead: no reader should have to guess.
//!
//! The zip archive's directory is read once here and kept, so reading many sheets of a
//! package with many members costs one pass over its directory, not one per sheet. The zip
//! crate keeps a few hundred bytes for each member of the directory (46 bytes in the file at
//! least) before anyone can count them, so at most [`MAX_ZIP_DIRECTORY_BYTES`] are read while
//! the directory is read ([`open_archive`]): a 53 MB file of a million empty members took
//! 347 MB before it was refused.

use std::collections::HashMap;
use std::io::{self, Read, Seek, SeekFrom};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use zip::read::ZipFile;
use zip::ZipArchive;

use super::budget::OpenCost;
use super::{Format, ReadError};

/// The most bytes read from a file while its zip directory is read: a workbook of 4,096
/// sheets has about 10,000 members, about 1 MB; 8 MB of the smallest members (46 bytes) cost
/// the zip crate about 60 MB.
pub const MAX_ZIP_DIRECTORY_BYTES: u64 = 8 * 1024 * 1024;

/// A reader that delivers at most [`MAX_ZIP_DIRECTORY_BYTES`] until its [`Allowance`] is lifted
/// (once the zip directory has been read).
pub(super) struct Metered<R> {
    inner: R,
    allowance: Allowance,
}

/// What a [`Metered`] reader may still read; shared with whoever opens the archive on it.
#[derive(Clone)]
pub(super) struct Allowance(Arc<AtomicU64>);

/// Past the allowance (an error the zip crate hands back as it is).
const OVER: u64 = u64::MAX - 1;
/// Lifted: no cap.
const LIFTED: u64 = u64::MAX;

impl Allowance {
    /// The allowance is no longer applied.
    fn lift(&self) {
        self.0.store(LIFTED, Ordering::Relaxed);
    }

    /// Whether the reader refused to read past it.
    fn exceeded(&self) -> bool {
        self.0.load(Ordering::Relaxed) == OVER
    }
}

impl<R> Metered<R> {
    fn new(inner: R) -> (Metered<R>, Allowance) {
        let allowance = Allowance(Arc::new(AtomicU64::new(MAX_ZIP_DIRECTORY_BYTES)));
        let metered = Metered {
            inner,
            allowance: allowance.clone(),
        };
        (metered, allowance)
    }

    /// The reader inside, given back.
    pub(super) fn into_inner(self) -> R {
        self.inner
    }
}

impl<R: Read> Read for Metered<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.allowance.0.load(Ordering::Relaxed);
        if left == LIFTED {
            return self.inner.read(buf);
        }
        if left == OVER || (left == 0 && !buf.is_empty()) {
            self.allowance.0.store(OVER, Ordering::Relaxed);
            return Err(io::Error::other("the zip directory is too large"));
        }
        let want = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut buf[..want])?;
        self.allowance.0.store(left - n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

impl<R: Seek> Seek for Metered<R> {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        self.inner.seek(pos)
    }
}

/// Read the zip directory of `reader` under [`MAX_ZIP_DIRECTORY_BYTES`] (from its start).
pub(super) fn open_archive<R: Read + Seek>(
    mut reader: R,
    format: Format,
) -> Result<ZipArchive<Metered<R>>, ReadError> {
    reader
        .seek(SeekFrom::Start(0))
        .map_err(|e| ReadError::Io(e.to_string()))?;
    let (metered, allowance) = Metered::new(reader);
    match ZipArchive::new(metered) {
        Ok(zip) => {
            allowance.lift();
            Ok(zip)
        }
        Err(_) if allowance.exceeded() => Err(ReadError::TooLarge {
            detail: format!(
                "its zip archive's directory takes more than {} MB (a workbook's takes a few KB)",
                MAX_ZIP_DIRECTORY_BYTES / (1024 * 1024)
            ),
        }),
        Err(e) => Err(ReadError::Damaged {
            format,
            detail: e.to_string(),
        }),
    }
}

/// A zip member as calamine names it.
pub(super) struct Package<RS: Read + Seek> {
    zip: ZipArchive<Metered<RS>>,
    /// Member name with `\` as `/`, lower-cased -> member index (calamine's lookup cache).
    folded: HashMap<String, usize>,
    /// Member name as decoded -> its index (the zip crate's own fallback lookup by name).
    exact: HashMap<String, usize>,
    format: Format,
}

impl<RS: Read + Seek> Package<RS> {
    /// Open the zip archive in `reader`, refusing a package where a name could mean two
    /// members. The memory its directory takes is counted in `cost`.
    pub(super) fn open(
        reader: RS,
        format: Format,
        cost: &mut OpenCost,
    ) -> Result<Package<RS>, ReadError> {
        let damaged = |detail: String| ReadError::Damaged { format, detail };
        let zip = open_archive(reader, format)?;
        if zip.has_duplicate_names() {
            return Err(damaged(
                "two members of its zip archive have the same name, so readers may take different ones".into(),
            ));
        }
        let mut folded = HashMap::with_capacity(zip.len());
        let mut exact = HashMap::with_capacity(zip.len());
        for (index, name) in zip.file_names().enumerate() {
            let name = name.map_err(|e| damaged(format!("a member name cannot be read: {e}")))?;
            // Two archives (ours and calamine's) and calamine's lookup cache hold each name.
            cost.add_zip_member(name.len())?;
            let key = name.replace('\\', "/").to_ascii_lowercase();
            if let Some(&other) = folded.get(&key) {
                let first = member_name(&zip, other);
                return Err(damaged(format!(
                    "its members '{first}' and '{name}' name the same part (letter case and `\\` aside), so readers may take different ones"
                )));
            }
            folded.insert(key, index);
            exact.entry(name.into_owned()).or_insert(index);
        }
        Ok(Package {
            zip,
            folded,
            exact,
            format,
        })
    }

    /// The member calamine reads for `path` (its lookup cache, then the zip crate's own
    /// lookup by name): `None` where calamine finds nothing.
    pub(super) fn find(&self, path: &str) -> Option<usize> {
        match self.folded.get(&path.to_ascii_lowercase()) {
            Some(&index) => Some(index),
            None => self.find_exact(path),
        }
    }

    /// The member the zip crate returns for `path` as given (what calamine reads where it
    /// looks a path up without its cache).
    pub(super) fn find_exact(&self, path: &str) -> Option<usize> {
        self.zip
            .index_for_name_raw(path.as_bytes())
            .or_else(|| self.exact.get(path).copied())
    }

    /// The stored name of a member, for messages.
    pub(super) fn name(&self, index: usize) -> String {
        member_name(&self.zip, index)
    }

    /// A member's uncompressed bytes as a stream.
    pub(super) fn open_member(
        &mut self,
        index: usize,
    ) -> Result<ZipFile<'_, Metered<RS>>, ReadError> {
        let format = self.format;
        self.zip.by_index(index).map_err(|e| ReadError::Damaged {
            format,
            detail: e.to_string(),
        })
    }

    /// The reader the package was opened on, given back.
    pub(super) fn into_inner(self) -> RS {
        self.zip.into_inner().into_inner()
    }
}

fn member_name<RS: Read + Seek>(zip: &ZipArchive<RS>, index: usize) -> String {
    zip.name_for_index(index)
        .and_then(Result::ok)
        .map(|n| n.into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Cursor, Write};

    fn zip_of(names: &[&str]) -> Vec<u8> {
        let mut out = Cursor::new(Vec::new());
        let mut w = zip::ZipWriter::new(&mut out);
        for n in names {
            w.start_file(*n, zip::write::SimpleFileOptions::default())
                .unwrap();
            w.write_all(n.as_bytes()).unwrap();
        }
        w.finish().unwrap();
        out.into_inner()
    }

    #[test]
    fn parts_are_found_as_calamine_finds_them() {
        let bytes = zip_of(&["xl\\worksheets\\Sheet1.xml", "xl/workbook.xml"]);
        let p = Package::open(
            Cursor::new(&bytes[..]),
            Format::Xlsx,
            &mut OpenCost::default(),
        )
        .unwrap();
        let i = p.find("xl/worksheets/sheet1.xml").unwrap();
        assert_eq!(p.name(i), "xl\\worksheets\\Sheet1.xml");
        assert!(p.find("xl/WORKBOOK.xml").is_some());
        assert!(p.find("xl/../xl/workbook.xml").is_none());
        assert!(p.find_exact("xl/WORKBOOK.xml").is_none());
    }

    #[test]
    fn names_folding_to_one_part_are_refused() {
        let bytes = zip_of(&["xl/a.xml", "XL\\A.xml"]);
        let err = Package::open(
            Cursor::new(&bytes[..]),
            Format::Xlsx,
            &mut OpenCost::default(),
        )
        .err()
        .unwrap();
        assert!(err.to_string().contains("name the same part"), "{err}");
    }
}
