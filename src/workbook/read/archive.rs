//! A zip package's central directory, sized before any reader opens the package.
//!
//! This check exists only to turn a kill into a clearer message, cheaply: a zip reader keeps a
//! few hundred bytes for each member of the directory before anyone can count them, so a
//! 51 MB file of a million empty members would stop the reader process with "reading it needs
//! more than 192 MB". Reading the end-of-directory record (the last few KB of the file) tells
//! the directory's size first, and a directory past [`MAX_ZIP_DIRECTORY_BYTES`] is refused
//! for what it is. Anything else about the package is the reader's to find.

use std::io::{Read, Seek, SeekFrom};

use super::ReadError;

/// The largest central directory a package may have: a workbook of 4,096 sheets has about
/// 10,000 members, about 1 MB.
pub const MAX_ZIP_DIRECTORY_BYTES: u64 = 8 * 1024 * 1024;

/// The end-of-directory record's signature, and its fixed length.
const EOCD: u32 = 0x0605_4b50;
const EOCD_LEN: usize = 22;
/// The zip64 end-of-directory locator and record signatures.
const LOCATOR: u32 = 0x0706_4b50;
const EOCD64: u32 = 0x0606_4b50;

fn u16_at(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from(u16::from_le_bytes(
        b.get(at..at + 2)?.try_into().ok()?,
    )))
}

fn u32_at(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from(u32::from_le_bytes(
        b.get(at..at + 4)?.try_into().ok()?,
    )))
}

fn u64_at(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

/// The size of the central directory the package in `reader` declares, if its end records
/// can be found.
fn directory_size<R: Read + Seek>(reader: &mut R) -> std::io::Result<Option<u64>> {
    let len = reader.seek(SeekFrom::End(0))?;
    // The record, then a comment of at most 64 KB.
    let tail_len = len.min((EOCD_LEN + 0xFFFF) as u64);
    reader.seek(SeekFrom::Start(len - tail_len))?;
    let mut tail = Vec::new();
    reader.by_ref().take(tail_len).read_to_end(&mut tail)?;
    let Some(at) = (0..=tail.len().saturating_sub(EOCD_LEN))
        .rev()
        .find(|&i| u32_at(&tail, i) == Some(u64::from(EOCD)))
    else {
        return Ok(None);
    };
    let size = u32_at(&tail, at + 12);
    let entries = u16_at(&tail, at + 10);
    if size != Some(0xFFFF_FFFF) && entries != Some(0xFFFF) {
        return Ok(size);
    }
    // Zip64: the locator just before the record gives where the zip64 record is.
    let Some(locator) = at.checked_sub(20) else {
        return Ok(size);
    };
    if u32_at(&tail, locator) != Some(u64::from(LOCATOR)) {
        return Ok(size);
    }
    let Some(record_at) = u64_at(&tail, locator + 8).filter(|&r| r < len) else {
        return Ok(size);
    };
    reader.seek(SeekFrom::Start(record_at))?;
    let mut record = [0u8; 56];
    if reader.read_exact(&mut record).is_err() || u32_at(&record, 0) != Some(u64::from(EOCD64)) {
        return Ok(size);
    }
    Ok(u64_at(&record, 40))
}

/// Refuse a package whose central directory is larger than [`MAX_ZIP_DIRECTORY_BYTES`];
/// leaves `reader` at its start.
pub(super) fn check_directory<R: Read + Seek>(reader: &mut R) -> Result<(), ReadError> {
    let size = directory_size(reader).map_err(|e| ReadError::Io(e.to_string()))?;
    reader
        .seek(SeekFrom::Start(0))
        .map_err(|e| ReadError::Io(e.to_string()))?;
    match size {
        Some(size) if size > MAX_ZIP_DIRECTORY_BYTES => Err(ReadError::TooLarge {
            detail: format!(
                "its zip archive's directory takes more than {} MB (a workbook's takes a few KB)",
                MAX_ZIP_DIRECTORY_BYTES / (1024 * 1024)
            ),
        }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Cursor, Write};

    fn zip_of(members: usize) -> Vec<u8> {
        let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
        for i in 0..members {
            zip.start_file(format!("m{i}"), zip::write::SimpleFileOptions::default())
                .unwrap();
            zip.write_all(b"x").unwrap();
        }
        zip.finish().unwrap().into_inner()
    }

    #[test]
    fn the_directory_size_is_read_from_the_end_records() {
        let small = zip_of(3);
        let size = directory_size(&mut Cursor::new(&small)).unwrap().unwrap();
        // Three entries of 46 bytes and a two-byte name.
        assert_eq!(size, 3 * 48);
        assert!(check_directory(&mut Cursor::new(&small)).is_ok());
        assert_eq!(
            directory_size(&mut Cursor::new(b"PK\x03\x04")).unwrap(),
            None
        );
    }
}
