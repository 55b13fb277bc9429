//! An xlsx workbook's shared strings (`sharedStrings.xml`), read under the caps.
//!
//! `uniqueCount` is never trusted: a workbook declaring or holding more than
//! [`MAX_DISTINCT_STRINGS`] strings or [`MAX_STRING_BYTES`] of text is refused. Each string is
//! kept cut to [`MAX_TEXT_KEPT`] bytes, all in one buffer, and its cost is counted in the
//! workbook's [`OpenCost`].

use std::io::Read;

use quick_xml::events::Event;

use super::super::budget::{
    keep_text, OpenCost, MAX_DISTINCT_STRINGS, MAX_STRING_BYTES, MAX_TEXT_KEPT,
};
use super::super::xmlpart::{digits, raw_attr, PartResult, XmlPart};
use super::super::ReadError;

/// The shared strings as kept: each cut to [`MAX_TEXT_KEPT`] bytes, all in one buffer.
#[derive(Default)]
pub(super) struct SharedStrings {
    text: String,
    ends: Vec<u32>,
}

impl SharedStrings {
    /// The `i`-th string (from 0).
    pub(super) fn get(&self, i: usize) -> Option<&str> {
        let end = *self.ends.get(i)? as usize;
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        self.text.get(start..end)
    }

    fn push(&mut self, s: &str, cost: &mut OpenCost) -> PartResult<()> {
        if self.ends.len() as u64 >= MAX_DISTINCT_STRINGS {
            return Err(too_many());
        }
        let kept = keep_text(s);
        cost.add(kept.len() as u64 + 4, "its shared strings")?;
        self.text.push_str(&kept);
        self.ends.push(self.text.len() as u32);
        Ok(())
    }
}

fn too_many() -> ReadError {
    ReadError::TooLarge {
        detail: format!(
            "its shared strings hold more than {MAX_DISTINCT_STRINGS} distinct strings"
        ),
    }
}

/// Read the shared strings of `part`.
pub(super) fn read<R: Read>(
    part: &mut XmlPart<R>,
    cost: &mut OpenCost,
) -> PartResult<SharedStrings> {
    part.uncap_elements();
    let mut strings = SharedStrings::default();
    let mut buf = Vec::new();
    let mut bytes = 0u64;
    let mut current = String::new();
    let (mut in_si, mut in_t, mut phonetic) = (false, false, 0u32);
    loop {
        match part.event(&mut buf)? {
            Event::Start(e) => match e.local_name().as_ref() {
                "sst" => {
                    let declared = raw_attr(&e, "uniqueCount")
                        .ok()
                        .flatten()
                        .and_then(|v| digits(v.trim()))
                        .unwrap_or(0);
                    if declared > MAX_DISTINCT_STRINGS {
                        return Err(ReadError::TooLarge {
                            detail: format!(
                                "its shared strings declare {declared} distinct strings (uniqueCount), more than {MAX_DISTINCT_STRINGS}"
                            ),
                        });
                    }
                }
                "si" => (in_si, current) = (true, String::new()),
                "t" if in_si && phonetic == 0 => in_t = true,
                "rPh" => phonetic += 1,
                _ => {}
            },
            Event::End(e) => match e.local_name().as_ref() {
                "si" if in_si => {
                    in_si = false;
                    strings.push(&current, cost)?;
                }
                "t" => in_t = false,
                "rPh" => phonetic = phonetic.saturating_sub(1),
                _ => {}
            },
            Event::Text(t) if in_t => {
                let t = t.xml10_content();
                bytes += t.len() as u64;
                push_capped(&mut current, &t);
            }
            Event::CData(t) if in_t => {
                bytes += t.len() as u64;
                push_capped(&mut current, &t.xml10_content());
            }
            Event::GeneralRef(r) if in_t => {
                bytes += 1;
                push_capped(&mut current, &resolve_ref(&r));
            }
            Event::Eof => return Ok(strings),
            _ => {}
        }
        if bytes > MAX_STRING_BYTES {
            return Err(ReadError::TooLarge {
                detail: format!(
                    "its shared strings hold more than {} MB of text",
                    MAX_STRING_BYTES / (1024 * 1024)
                ),
            });
        }
    }
}

/// Append up to a little more than [`MAX_TEXT_KEPT`] bytes (enough for [`keep_text`] to see
/// the text is long and mark it cut).
pub(super) fn push_capped(to: &mut String, s: &str) {
    let room = (MAX_TEXT_KEPT + 8).saturating_sub(to.len());
    if s.len() <= room {
        to.push_str(s);
    } else {
        let mut end = room;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        to.push_str(&s[..end]);
        // Make sure the result is seen as longer than the cap even if `end` fell short.
        while to.len() <= MAX_TEXT_KEPT {
            to.push(' ');
        }
    }
}

fn resolve_ref(r: &quick_xml::events::BytesRef<'_>) -> String {
    let name: String = r.as_ref().to_string();
    if let Some(s) = quick_xml::escape::resolve_xml_entity(&name) {
        return s.to_string();
    }
    match r.resolve_char_ref() {
        Ok(Some(c)) => c.to_string(),
        _ => format!("&{name};"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workbook::read::Format;

    fn read_xml(xml: &str) -> PartResult<SharedStrings> {
        let mut part = XmlPart::new(
            xml.as_bytes(),
            "sharedStrings.xml".into(),
            1 << 30,
            Format::Xlsx,
        );
        read(&mut part, &mut OpenCost::default())
    }

    #[test]
    fn strings_are_read_with_rich_runs_and_without_phonetics() {
        let s = read_xml(
            "<sst uniqueCount=\"3\"><si><t>a&amp;b</t></si><si/><si><r><t>x</t></r><r><t>y</t></r><rPh><t>no</t></rPh></si></sst>",
        )
        .unwrap();
        assert_eq!(
            (s.get(0), s.get(1), s.get(2), s.get(3)),
            (Some("a&b"), Some(""), Some("xy"), None)
        );
    }

    #[test]
    fn a_declared_count_past_the_cap_is_refused_before_any_string() {
        let err = read_xml("<sst uniqueCount=\"1000000000000\">")
            .err()
            .unwrap();
        assert!(err.to_string().contains("uniqueCount"), "{err}");
    }
}
