//! Reading an OOXML package part whole as calamine would (quick-xml with calamine's settings, its
//! raw attribute rules), under caps: the bytes all such parts may take together, and the
//! elements of one part.

use std::io::{BufReader, Read};

use quick_xml::events::{BytesStart, Event};

use super::budget::{Capped, MAX_OPEN_XML_BYTES, MAX_PART_ELEMENTS};
use super::{Format, ReadError};

/// A part being read: an XML reader over the member, its byte cap and its element count.
pub(super) struct XmlPart<R: Read> {
    xml: quick_xml::Reader<BufReader<Capped<R>>>,
    /// The part's name, for messages.
    name: String,
    format: Format,
    elements: u64,
    /// Whether elements are counted (not in the shared strings, whose strings are).
    count_elements: bool,
}

/// Why a part cannot be read: past a cap, or damaged. Both name the part.
pub(super) type PartResult<T> = Result<T, ReadError>;

impl<R: Read> XmlPart<R> {
    /// Read `member` (the part `name` of a workbook in `format`), allowed `max_bytes` of XML:
    /// what is left of [`MAX_OPEN_XML_BYTES`].
    pub(super) fn new(member: R, name: String, max_bytes: u64, format: Format) -> XmlPart<R> {
        let mut xml =
            quick_xml::Reader::from_reader(BufReader::new(Capped::with_limit(member, max_bytes)));
        let config = xml.config_mut();
        // calamine's settings, so that what is read here is what calamine would read.
        config.check_end_names = false;
        config.trim_text(false);
        config.check_comments = false;
        config.expand_empty_elements = true;
        XmlPart {
            xml,
            name,
            format,
            elements: 0,
            count_elements: true,
        }
    }

    /// The next event, read into `buf`.
    pub(super) fn event<'b>(&mut self, buf: &'b mut Vec<u8>) -> PartResult<Event<'b>> {
        buf.clear();
        match self.xml.read_event_into(buf) {
            Ok(event) => {
                if self.count_elements && matches!(event, Event::Start(_)) {
                    self.elements += 1;
                    if self.elements > MAX_PART_ELEMENTS {
                        return Err(ReadError::TooLarge {
                            detail: format!(
                                "its part {} holds more than {MAX_PART_ELEMENTS} elements",
                                self.name
                            ),
                        });
                    }
                }
                Ok(event)
            }
            Err(e) => Err(self.error(e.to_string())),
        }
    }

    /// The error for a part that stops being readable with `detail`: past a cap of [`Capped`]
    /// when one stopped it, else damaged.
    pub(super) fn error(&self, detail: String) -> ReadError {
        let capped = self.xml.get_ref().get_ref();
        match &capped.over {
            Some(_) if capped.over_total() => ReadError::TooLarge {
                detail: format!(
                    "the parts read when it opens ({} and those before it) hold more than {} MB of XML",
                    self.name,
                    MAX_OPEN_XML_BYTES / (1024 * 1024)
                ),
            },
            Some(over) => ReadError::TooLarge {
                detail: format!("its part {} holds {}", self.name, over.0),
            },
            None => self.damaged(detail),
        }
    }

    /// The part is damaged: `detail` says how.
    pub(super) fn damaged(&self, detail: String) -> ReadError {
        ReadError::Damaged {
            format: self.format,
            detail: format!("{}: {detail}", self.name),
        }
    }
}

/// The attributes of a tag as calamine reads them: `(key, raw value)` in order, keys with
/// their prefix, values not unescaped; a malformed attribute is an error and ends the list.
pub(super) fn raw_attributes<'a>(e: &'a BytesStart<'_>) -> RawAttributes<'a> {
    RawAttributes {
        raw: e.attributes_raw(),
        pos: 0,
    }
}

/// An iterator over a tag's raw attributes (see [`raw_attributes`]).
pub(super) struct RawAttributes<'a> {
    raw: &'a str,
    pos: usize,
}

impl<'a> Iterator for RawAttributes<'a> {
    type Item = Result<(&'a str, &'a str), String>;

    fn next(&mut self) -> Option<Self::Item> {
        let (raw, bytes) = (self.raw, self.raw.as_bytes());
        let len = bytes.len();
        let mut pos = self.pos;
        while pos < len && bytes[pos].is_ascii_whitespace() {
            pos += 1;
        }
        if pos >= len {
            self.pos = pos;
            return None;
        }
        let key_start = pos;
        while pos < len && bytes[pos] != b'=' {
            pos += 1;
        }
        if pos >= len {
            self.pos = len;
            return Some(Err(format!("an attribute without a value at {key_start}")));
        }
        let key = raw[key_start..pos].trim_ascii_end();
        pos += 1;
        while pos < len && bytes[pos].is_ascii_whitespace() {
            pos += 1;
        }
        let quote = match bytes.get(pos) {
            Some(&q @ (b'"' | b'\'')) => q,
            _ => {
                self.pos = len;
                return Some(Err(format!("an attribute value without quotes at {pos}")));
            }
        };
        pos += 1;
        let start = pos;
        while pos < len && bytes[pos] != quote {
            pos += 1;
        }
        let value = &raw[start..pos];
        if pos < len {
            pos += 1;
        }
        self.pos = pos;
        Some(Ok((key, value)))
    }
}

/// Several attributes at once, as calamine's `get_attrs!` takes them: in one pass, each key
/// taking the value it last had when every key has been seen (the pass stops there).
pub(super) fn get_attrs<'a, const N: usize>(
    e: &'a BytesStart<'_>,
    keys: [&str; N],
) -> Result<[Option<&'a str>; N], String> {
    let mut out = [None; N];
    let mut found = 0;
    for item in raw_attributes(e) {
        let (k, v) = item?;
        if let Some(i) = keys.iter().position(|&key| key == k) {
            out[i] = Some(v);
            found += 1;
        }
        if found == N {
            break;
        }
    }
    Ok(out)
}

/// An attribute value with its entities replaced (calamine's `decode_attr`).
pub(super) fn decode_attr(value: &str) -> Result<String, String> {
    quick_xml::escape::unescape(value)
        .map(|v| v.into_owned())
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tag(s: &str) -> BytesStart<'_> {
        let name_len = s.find(' ').unwrap_or(s.len());
        BytesStart::from_content(s, name_len)
    }

    #[test]
    fn attributes_are_read_as_calamine_reads_them() {
        let e = tag(r#"sheet name="a &amp; b" x:id="rId9" r:id='rId1'"#);
        let all: Vec<_> = raw_attributes(&e).map(Result::unwrap).collect();
        assert_eq!(
            all,
            [("name", "a &amp; b"), ("x:id", "rId9"), ("r:id", "rId1")]
        );
        assert_eq!(decode_attr("a &amp; b").unwrap(), "a & b");
        let bad = tag("c r=A1");
        assert!(get_attrs(&bad, ["r"]).is_err());
        // get_attrs! stops once it has seen as many matches as keys: a repeated key ends it.
        let twice = tag(r#"Relationship Type="a" Type="b" Target="t""#);
        assert_eq!(
            get_attrs(&twice, ["Type", "Target"]).unwrap(),
            [Some("b"), None]
        );
    }
}
