//! Telling a workbook's format from its bytes, never from its name.

use std::io::{Read, Seek, SeekFrom};

use super::delimited::{sniff_dialect, Dialect};
use super::generated::{looks_like_json, looks_like_text_grid};
use super::Format;

/// How many bytes of the start and of the end of a file [`sniff`] looks at.
const SNIFF_BYTES: u64 = 256 * 1024;
/// OLE files up to this size are searched whole for their stream names.
const OLE_SNIFF_ALL: u64 = 64 * 1024 * 1024;

/// What the first and last bytes of a file say it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sniffed {
    /// A workbook in this format.
    Workbook(Format),
    /// An OLE compound file holding an encrypted OOXML package (a password-protected workbook).
    Encrypted,
    /// Zero bytes.
    Empty,
    /// A zip archive that holds no workbook (a Word document, a plain archive...).
    OtherZip,
    /// A zip archive cut short: no workbook member found and no central directory at the end.
    TruncatedZip,
    /// An OLE compound file that is not an Excel workbook (a Word 97 document...).
    OtherOle,
    /// Neither zip nor OLE: text, an image, anything else.
    NotASpreadsheet,
}

pub(super) const ZIP_MAGIC: &[u8] = b"PK\x03\x04";
const ZIP_EMPTY_MAGIC: &[u8] = b"PK\x05\x06";
pub(super) const OLE_MAGIC: &[u8] = &[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];

/// Tell the format from a file's bytes: `head` is its start, `tail` its end (they may overlap
/// or be the same slice for small files). The names of zip members are stored in clear both in
/// the local headers (at the start) and in the central directory (at the end).
///
/// ```
/// use knights_tour::workbook::read::{sniff, Sniffed};
/// assert_eq!(sniff(b"", b""), Sniffed::Empty);
/// assert_eq!(sniff(b"hello", b"hello"), Sniffed::NotASpreadsheet);
/// ```
pub fn sniff(head: &[u8], tail: &[u8]) -> Sniffed {
    if head.is_empty() {
        return Sniffed::Empty;
    }
    let has = |needle: &[u8]| contains(head, needle) || contains(tail, needle);
    if head.starts_with(ZIP_MAGIC) || head.starts_with(ZIP_EMPTY_MAGIC) {
        return if has(b"xl/workbook.bin") {
            Sniffed::Workbook(Format::Xlsb)
        } else if has(b"xl/workbook.xml") {
            if has(b"macroEnabled") || has(b"vbaProject.bin") {
                Sniffed::Workbook(Format::Xlsm)
            } else {
                Sniffed::Workbook(Format::Xlsx)
            }
        } else if has(b"opendocument.spreadsheet")
            || (has(b"content.xml") && !has(b"opendocument.text"))
        {
            Sniffed::Workbook(Format::Ods)
        } else if !has(b"PK\x05\x06") {
            Sniffed::TruncatedZip
        } else {
            Sniffed::OtherZip
        };
    }
    if head.starts_with(OLE_MAGIC) {
        let utf16 = |s: &str| -> Vec<u8> { s.encode_utf16().flat_map(u16::to_le_bytes).collect() };
        return if has(&utf16("EncryptionInfo")) || has(&utf16("EncryptedPackage")) {
            Sniffed::Encrypted
        } else if has(&utf16("Workbook")) || has(&utf16("Book")) {
            Sniffed::Workbook(Format::Xls)
        } else {
            Sniffed::OtherOle
        };
    }
    if is_flat_ods(head) {
        return Sniffed::Workbook(Format::Ods);
    }
    Sniffed::NotASpreadsheet
}

/// A flat OpenDocument spreadsheet (`.fods`): one XML document, `office:document` with the
/// spreadsheet mimetype, near its start.
fn is_flat_ods(head: &[u8]) -> bool {
    let start = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let start = &start[start.iter().take_while(|b| b.is_ascii_whitespace()).count()..];
    let near = &start[..start.len().min(64 * 1024)];
    start.starts_with(b"<")
        && contains(near, b"office:document")
        && contains(near, b"application/vnd.oasis.opendocument.spreadsheet")
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    !needle.is_empty() && haystack.windows(needle.len()).any(|w| w == needle)
}

pub(super) fn head_and_tail<RS: Read + Seek>(
    reader: &mut RS,
) -> std::io::Result<(Vec<u8>, Vec<u8>)> {
    let len = reader.seek(SeekFrom::End(0))?;
    reader.seek(SeekFrom::Start(0))?;
    let mut head = Vec::new();
    reader.by_ref().take(SNIFF_BYTES).read_to_end(&mut head)?;
    let mut tail = Vec::new();
    if head.starts_with(OLE_MAGIC) && len <= OLE_SNIFF_ALL {
        // An OLE directory can sit anywhere: read it all to find `EncryptionInfo`.
        reader.read_to_end(&mut head)?;
    } else if len > SNIFF_BYTES {
        reader.seek(SeekFrom::Start(
            len.saturating_sub(SNIFF_BYTES).max(SNIFF_BYTES),
        ))?;
        reader.by_ref().take(SNIFF_BYTES).read_to_end(&mut tail)?;
    }
    Ok((head, tail))
}

/// Whether the start of a file reads as text: no control characters but tab and line breaks
/// (bytes of UTF-8 or another 8-bit encoding allowed).
fn is_texty(head: &[u8]) -> bool {
    head[..head.len().min(4096)]
        .iter()
        .all(|&b| b == b'\n' || b == b'\r' || b == b'\t' || (0x20..0x7f).contains(&b) || b >= 0x80)
}

/// How a text file is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TextKind {
    /// `generate`'s JSON tour documents.
    Json,
    /// `generate`'s text grids.
    TextGrid,
    /// CSV or TSV.
    Delimited(Dialect),
    /// Plain text: one cell a line down column A, as a spreadsheet pastes it.
    Lines,
}

/// What a file that is neither zip nor OLE holds, if it is text a reader takes: `generate`'s
/// JSON or text grid (by their first bytes), delimited text, or plain lines.
///
/// - Text that starts with a bracket but is not a JSON object (or a list of them) holds
///   arrays (`[[11,8,5,0],[0,3,10,7]]`, `[1, 6, 15]` a line, `(0,0)` a line): plain lines,
///   whatever the name says, since splitting it at its commas would cut the arrays apart.
/// - A delimiter that splits most lines into the same number of fields makes it CSV or TSV.
///   A text file whose name claims a workbook format (`claimed`) is read so only when most of
///   its lines split alike (a CSV renamed `.xls`, as some web sites export); otherwise it is
///   a renamed text file, not a spreadsheet.
/// - Anything else is plain lines, except that a file named `.csv` or `.tsv` stays a table
///   of one column.
pub(super) fn classify_text(head: &[u8], claimed: Option<Format>) -> Option<(Format, TextKind)> {
    if !is_texty(head) {
        return None;
    }
    if looks_like_json(head) {
        return Some((Format::Json, TextKind::Json));
    }
    if looks_like_text_grid(head) {
        return Some((Format::Text, TextKind::TextGrid));
    }
    let named_workbook = claimed.is_some_and(Format::is_workbook);
    let named_table = matches!(claimed, Some(Format::Csv | Format::Tsv));
    let lines = || {
        let format = claimed.filter(|_| named_table).unwrap_or(Format::Text);
        Some((format, TextKind::Lines))
    };
    if starts_with_bracket(head) && !named_workbook {
        return lines();
    }
    let dialect = match sniff_dialect(head) {
        Some((d, share)) if !named_workbook || share >= 0.8 => d,
        _ if named_workbook => return None,
        _ if claimed == Some(Format::Tsv) => Dialect::TSV,
        _ if named_table => Dialect::CSV,
        _ => return lines(),
    };
    let format = if dialect == Dialect::TSV {
        Format::Tsv
    } else {
        Format::Csv
    };
    Some((format, TextKind::Delimited(dialect)))
}

/// Whether the first character that is not a space (or a byte order mark) opens a bracket.
fn starts_with_bracket(head: &[u8]) -> bool {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    head.iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|&b| matches!(b, b'[' | b'(' | b'{'))
}

pub(super) fn describe_content(head: &[u8]) -> String {
    if is_texty(head) {
        "the file holds plain text (perhaps CSV or a renamed text file), not a workbook".into()
    } else {
        "the content is neither a zip-based workbook (xlsx, xlsm, xlsb, ods) nor an OLE compound file (xls)".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffing_tells_formats_from_member_names() {
        let zip = |names: &str| {
            let mut v = ZIP_MAGIC.to_vec();
            v.extend_from_slice(names.as_bytes());
            v
        };
        let x = zip("[Content_Types].xml xl/workbook.xml");
        assert_eq!(sniff(&x, &x), Sniffed::Workbook(Format::Xlsx));
        let b = zip("xl/workbook.bin");
        assert_eq!(sniff(&b, &b), Sniffed::Workbook(Format::Xlsb));
        let o = zip("mimetypeapplication/vnd.oasis.opendocument.spreadsheet");
        assert_eq!(sniff(&o, &o), Sniffed::Workbook(Format::Ods));
        let w = zip("word/document.xml PK\x05\x06");
        assert_eq!(sniff(&w, &w), Sniffed::OtherZip);
        let cut = zip("[Content_Types].xml docProps/app.xml");
        assert_eq!(sniff(&cut, &cut), Sniffed::TruncatedZip);
        let mut ole = OLE_MAGIC.to_vec();
        ole.extend("EncryptionInfo".encode_utf16().flat_map(u16::to_le_bytes));
        assert_eq!(sniff(&ole, &ole), Sniffed::Encrypted);
    }
}
