//! A small pull scanner for a worksheet's XML: tags, text and CDATA, nothing more.
//!
//! A 1000x1000 board is a million `<c r="A1"><v>17</v></c>` elements, five XML events each.
//! A general XML reader copies every event into a buffer, checks each attribute and builds its
//! events; that cost more than all of the verification after it. This scanner hands out
//! slices of its own read buffer instead: the local name and raw attributes of a tag, raw text
//! (entities are decoded by [`decode_text`], once a text run is complete). Comments,
//! processing instructions and the document type are skipped. It checks what a sheet reader
//! needs and no more: every piece of markup must end before the input does.
//!
//! The buffer grows only to hold one tag or one text whole, which [`Capped`] bounds (a run
//! without `<`), and at most [`MAX_MARKUP`] in any case.
//!
//! [`Capped`]: super::budget::Capped

use std::io::{self, Read};

use super::budget::MAX_XML_RUN;

/// The longest single piece of markup held (a tag whose quoted attributes hide `<`).
const MAX_MARKUP: usize = 2 * MAX_XML_RUN as usize;

/// The read size.
const CHUNK: usize = 64 * 1024;

/// One piece of a sheet's XML.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Token<'a> {
    /// `<name ...>` or `<name .../>` (`empty`): the local name (prefix dropped) and the raw
    /// attribute text.
    Start {
        name: &'a [u8],
        attrs: &'a [u8],
        empty: bool,
    },
    /// `</name>`: the local name.
    End { name: &'a [u8] },
    /// Raw text (entities not decoded); one text may come in several pieces.
    Text(&'a [u8]),
    /// The content of `<![CDATA[...]]>`, literal.
    CData(&'a [u8]),
    /// The end of the input.
    Eof,
}

/// Why scanning stopped.
#[derive(Debug)]
pub(super) enum ScanError {
    /// Reading failed (a cap of [`Capped`](super::budget::Capped) included).
    Io(io::Error),
    /// The input ended inside a tag, comment or CDATA section.
    Unterminated(&'static str),
    /// One tag longer than [`MAX_MARKUP`].
    TooLong,
}

impl std::fmt::Display for ScanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ScanError::Io(e) => write!(f, "{e}"),
            ScanError::Unterminated(what) => write!(f, "the XML ends inside {what}"),
            ScanError::TooLong => write!(
                f,
                "a single tag of more than {} MB",
                MAX_MARKUP / (1024 * 1024)
            ),
        }
    }
}

/// The scanner over a reader.
pub(super) struct Scanner<R> {
    src: R,
    buf: Vec<u8>,
    pos: usize,
    end: usize,
    /// How far the current piece of markup has been searched for its end, so that a long tag
    /// arriving in many reads is not searched from its start every time.
    search: Search,
}

/// What kind of markup starts at a `<`, and where its end is looked for.
enum Markup {
    Comment,
    CData,
    Instruction,
    Declaration,
    End,
    Tag,
}

impl<R: Read> Scanner<R> {
    pub(super) fn new(src: R) -> Scanner<R> {
        Scanner {
            src,
            buf: vec![0; CHUNK],
            pos: 0,
            end: 0,
            search: Search::default(),
        }
    }

    /// The reader being scanned.
    pub(super) fn get_ref(&self) -> &R {
        &self.src
    }

    /// The reader being scanned, given back (what was read ahead into the buffer is lost).
    pub(super) fn into_inner(self) -> R {
        self.src
    }

    /// Read more input after what is held; `false` at the end of the input.
    fn fill(&mut self) -> Result<bool, ScanError> {
        if self.pos > 0 {
            self.buf.copy_within(self.pos..self.end, 0);
            self.end -= self.pos;
            self.pos = 0;
        }
        if self.buf.len() - self.end < CHUNK / 2 {
            if self.buf.len() >= MAX_MARKUP {
                return Err(ScanError::TooLong);
            }
            let grown = (self.buf.len() * 2).min(MAX_MARKUP);
            self.buf.resize(grown, 0);
        }
        loop {
            match self.src.read(&mut self.buf[self.end..]) {
                Ok(0) => return Ok(false),
                Ok(n) => {
                    self.end += n;
                    return Ok(true);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(ScanError::Io(e)),
            }
        }
    }

    /// The next piece of the XML.
    pub(super) fn next_token(&mut self) -> Result<Token<'_>, ScanError> {
        loop {
            if self.pos == self.end && !self.fill()? {
                return Ok(Token::Eof);
            }
            let data = &self.buf[self.pos..self.end];
            if data[0] != b'<' {
                let n = data.iter().position(|&b| b == b'<').unwrap_or(data.len());
                let from = self.pos;
                self.pos += n;
                return Ok(Token::Text(&self.buf[from..from + n]));
            }
            let kind = match data.get(1) {
                Some(b'/') => Markup::End,
                Some(b'?') => Markup::Instruction,
                Some(b'!') if data.starts_with(b"<!--") => Markup::Comment,
                Some(b'!') if data.starts_with(b"<![CDATA[") => Markup::CData,
                Some(b'!')
                    if data.len() >= 9 || !(b"<![CDATA[".starts_with(data) || data == b"<!-") =>
                {
                    Markup::Declaration
                }
                Some(b'!') | None => {
                    // Too short to tell what it is: read on.
                    if !self.fill()? {
                        return Err(ScanError::Unterminated("a tag"));
                    }
                    continue;
                }
                Some(_) => Markup::Tag,
            };
            match markup_end(&kind, data, &mut self.search) {
                Some(len) => {
                    let from = self.pos;
                    self.pos += len;
                    self.search = Search::default();
                    if matches!(
                        kind,
                        Markup::Comment | Markup::Instruction | Markup::Declaration
                    ) {
                        continue;
                    }
                    let m = &self.buf[from..from + len];
                    // Comments, instructions and declarations were skipped above.
                    let token = match kind {
                        Markup::CData => Token::CData(&m[9..len - 3]),
                        Markup::End => Token::End {
                            name: local_name(name_of(&m[2..len - 1])),
                        },
                        _ => {
                            let empty = m[len - 2] == b'/' && len > 2;
                            let inner = &m[1..len - if empty { 2 } else { 1 }];
                            let name = name_of(inner);
                            Token::Start {
                                name: local_name(name),
                                attrs: &inner[name.len()..],
                                empty,
                            }
                        }
                    };
                    return Ok(token);
                }
                None => {
                    if !self.fill()? {
                        return Err(ScanError::Unterminated(match kind {
                            Markup::Comment => "a comment",
                            Markup::CData => "a CDATA section",
                            _ => "a tag",
                        }));
                    }
                }
            }
        }
    }
}

/// Where the search for the end of a piece of markup stopped, and the quoting and bracket
/// depth there.
#[derive(Clone, Copy, Debug, Default)]
struct Search {
    /// Bytes from the markup's `<` searched so far.
    done: usize,
    /// The quote character of the attribute value (or literal) being read.
    quote: Option<u8>,
    /// How deep in `[...]` a declaration is.
    depth: u32,
}

/// The length of the markup at the start of `data`, or `None` when it does not end in `data`
/// (`search` then records how far it was searched).
fn markup_end(kind: &Markup, data: &[u8], search: &mut Search) -> Option<usize> {
    let mut find = |pat: &[u8], skip: usize| {
        let from = search.done.max(skip);
        let found = data
            .get(from..)
            .and_then(|d| d.windows(pat.len()).position(|w| w == pat));
        match found {
            Some(i) => Some(from + i + pat.len()),
            None => {
                search.done = data.len().saturating_sub(pat.len() - 1).max(from);
                None
            }
        }
    };
    match kind {
        Markup::Comment => find(b"-->", 4),
        Markup::CData => find(b"]]>", 9),
        Markup::Instruction => find(b"?>", 2),
        Markup::End => {
            let from = search.done.max(2);
            match data
                .get(from..)
                .and_then(|d| d.iter().position(|&b| b == b'>'))
            {
                Some(i) => Some(from + i + 1),
                None => {
                    search.done = data.len().max(from);
                    None
                }
            }
        }
        Markup::Declaration | Markup::Tag => {
            let brackets = matches!(kind, Markup::Declaration);
            let from = search.done.max(1);
            for (i, &b) in data.iter().enumerate().skip(from) {
                match (search.quote, b) {
                    (Some(q), b) if b == q => search.quote = None,
                    (Some(_), _) => {}
                    (None, b'"' | b'\'') => search.quote = Some(b),
                    (None, b'[') if brackets => search.depth += 1,
                    (None, b']') if brackets => search.depth = search.depth.saturating_sub(1),
                    (None, b'>') if search.depth == 0 => return Some(i + 1),
                    _ => {}
                }
            }
            search.done = data.len().max(from);
            None
        }
    }
}

/// The qualified name at the start of a tag's inside.
fn name_of(inner: &[u8]) -> &[u8] {
    let n = inner
        .iter()
        .position(|&b| b.is_ascii_whitespace() || b == b'/' || b == b'>')
        .unwrap_or(inner.len());
    &inner[..n]
}

/// `x:c` -> `c`.
fn local_name(name: &[u8]) -> &[u8] {
    match name.iter().position(|&b| b == b':') {
        Some(i) => &name[i + 1..],
        None => name,
    }
}

/// The attributes of a tag as `(qualified name, raw value)`; stops at the first malformed one.
pub(super) fn attributes(attrs: &[u8]) -> impl Iterator<Item = (&[u8], &[u8])> {
    let mut rest = attrs;
    std::iter::from_fn(move || {
        rest = skip_ws(rest);
        let n = rest
            .iter()
            .position(|&b| b == b'=' || b.is_ascii_whitespace())?;
        let key = &rest[..n];
        let after = skip_ws(&rest[n..]);
        let after = skip_ws(after.strip_prefix(b"=")?);
        let quote = *after.first().filter(|&&q| q == b'"' || q == b'\'')?;
        let len = after[1..].iter().position(|&b| b == quote)?;
        let value = &after[1..1 + len];
        rest = &after[len + 2..];
        (!key.is_empty()).then_some((key, value))
    })
}

fn skip_ws(s: &[u8]) -> &[u8] {
    let n = s
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(s.len());
    &s[n..]
}

/// Append raw XML text to `out`: entities decoded (an unknown one kept as written), line ends
/// normalised as XML 1.0 says, invalid UTF-8 replaced.
pub(super) fn decode_text(raw: &[u8], out: &mut String) {
    if !raw.iter().any(|&b| b == b'&' || b == b'\r') {
        match std::str::from_utf8(raw) {
            Ok(s) => out.push_str(s),
            Err(_) => out.push_str(&String::from_utf8_lossy(raw)),
        }
        return;
    }
    let text = String::from_utf8_lossy(raw);
    let mut rest: &str = &text;
    while let Some(i) = rest.find(['&', '\r']) {
        out.push_str(&rest[..i]);
        if rest.as_bytes()[i] == b'\r' {
            out.push('\n');
            rest = &rest[i + 1..];
            if rest.starts_with('\n') {
                rest = &rest[1..];
            }
            continue;
        }
        let after = &rest[i + 1..];
        match after.find(';').filter(|&n| n <= 16) {
            Some(n) => {
                let name = &after[..n];
                match entity(name) {
                    Some(c) => out.push(c),
                    None => {
                        out.push('&');
                        out.push_str(name);
                        out.push(';');
                    }
                }
                rest = &after[n + 1..];
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
}

/// A predefined entity or a character reference.
fn entity(name: &str) -> Option<char> {
    match name {
        "lt" => Some('<'),
        "gt" => Some('>'),
        "amp" => Some('&'),
        "apos" => Some('\''),
        "quot" => Some('"'),
        _ => {
            let num = name.strip_prefix('#')?;
            let code = match num.strip_prefix('x') {
                Some(hex) if !hex.starts_with(['+', '-']) => u32::from_str_radix(hex, 16).ok()?,
                None if !num.starts_with(['+', '-']) => num.parse::<u32>().ok()?,
                _ => return None,
            };
            (code != 0).then(|| char::from_u32(code)).flatten()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out one byte at a time, to split every token.
    struct Trickle<'a>(&'a [u8]);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            match (self.0.split_first(), buf.first_mut()) {
                (Some((&b, rest)), Some(slot)) => {
                    *slot = b;
                    self.0 = rest;
                    Ok(1)
                }
                _ => Ok(0),
            }
        }
    }

    fn tokens(xml: &[u8], trickle: bool) -> Result<Vec<String>, String> {
        let mut out = Vec::new();
        let mut text = Vec::new();
        let mut run = |s: &mut Scanner<Box<dyn Read + '_>>| -> Result<(), String> {
            loop {
                let t = s.next_token().map_err(|e| e.to_string())?;
                if !matches!(t, Token::Text(_)) && !text.is_empty() {
                    let mut d = String::new();
                    decode_text(&text, &mut d);
                    out.push(format!("text {d}"));
                    text.clear();
                }
                let s = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
                match t {
                    Token::Start { name, attrs, empty } => {
                        let a: Vec<String> = attributes(attrs)
                            .map(|(k, v)| format!("{}={}", s(k), s(v)))
                            .collect();
                        out.push(format!("start {} {} {empty}", s(name), a.join(",")));
                    }
                    Token::End { name } => out.push(format!("end {}", s(name))),
                    Token::Text(t) => text.extend_from_slice(t),
                    Token::CData(t) => out.push(format!("cdata {}", s(t))),
                    Token::Eof => return Ok(()),
                }
            }
        };
        let src: Box<dyn Read> = if trickle {
            Box::new(Trickle(xml))
        } else {
            Box::new(xml)
        };
        run(&mut Scanner::new(src))?;
        Ok(out)
    }

    #[test]
    fn tags_text_and_cdata_come_out_whole_however_the_input_is_split() {
        let xml = br#"<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e "v">]><!-- a > b --><x:row r="1" a='q>"'><c r="A1" t="s"><v>1&amp;2&#x41;&bogus;&#0;</v></c><c/><![CDATA[<&>]]>"#;
        let xml = &[&xml[..], b"a\r\nb</x:row>"].concat();
        let want = vec![
            "start row r=1,a=q>\" false",
            "start c r=A1,t=s false",
            "start v  false",
            "text 1&2A&bogus;&#0;",
            "end v",
            "end c",
            "start c  true",
            "cdata <&>",
            "text a\nb",
            "end row",
        ];
        assert_eq!(tokens(xml, false).unwrap(), want);
        assert_eq!(tokens(xml, true).unwrap(), want);
    }

    #[test]
    fn markup_cut_short_is_an_error() {
        for xml in [
            &b"<a><b r=\"1"[..],
            b"<a><!-- x",
            b"<a><![CDATA[x]]",
            b"<a></a",
            b"<!-",
        ] {
            assert!(
                tokens(xml, false).is_err(),
                "{}",
                String::from_utf8_lossy(xml)
            );
            assert!(
                tokens(xml, true).is_err(),
                "{}",
                String::from_utf8_lossy(xml)
            );
        }
        assert_eq!(
            tokens(b"<a>x", false).unwrap(),
            vec!["start a  false", "text x"]
        );
    }
}
