//! Where an xlsx workbook's parts are: its main part named by the package relationships, its
//! sheets named by the main part and found through its relationships. The rules are calamine
//! 0.38's (`read_package_relationships`, `read_relationships`, `read_workbook`), so that this
//! reader sees the sheets calamine and a spreadsheet program see. Where a file could be read two
//! ways (two main parts, two relationships with one id, a sheet with two ids) it is refused.

use std::collections::HashMap;
use std::io::Read;

use quick_xml::events::Event;

use super::super::budget::{OpenCost, MAX_SHEETS};
use super::super::xmlpart::{
    decode_attr, get_attrs, local_name_matches, raw_attributes, PartResult, XmlPart,
};
use super::super::ReadError;

/// The main part's folder (`xl/`, with its `/`) and file name (`workbook.xml`).
pub(super) struct MainPart {
    pub(super) dir: String,
    pub(super) file: String,
}

impl MainPart {
    /// A part next to the main part (`sharedStrings.xml`, `theme/theme1.xml`...).
    pub(super) fn sibling(&self, name: &str) -> String {
        format!("{}{name}", self.dir)
    }

    /// The main part itself.
    pub(super) fn path(&self) -> String {
        self.sibling(&self.file)
    }

    /// The main part's relationships.
    pub(super) fn rels(&self) -> String {
        format!("{}_rels/{}.rels", self.dir, self.file)
    }
}

/// What a sheet is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum SheetKind {
    /// A worksheet (or a dialog sheet, laid out like one).
    Cells,
    /// A chart sheet: a chart, no cells.
    Chart,
}

/// A sheet as the main part lists it.
pub(super) struct SheetEntry {
    pub(super) name: String,
    /// Its part's path, as calamine builds it.
    pub(super) path: String,
    pub(super) kind: SheetKind,
    /// Hidden from the workbook's reader (`state` hidden or very hidden).
    pub(super) hidden: bool,
}

/// The main part, from the package relationships (`_rels/.rels`): the target of the last
/// `officeDocument` relationship, refused when two name different parts.
pub(super) fn main_part<R: Read>(part: &mut XmlPart<R>) -> PartResult<MainPart> {
    let mut buf = Vec::new();
    loop {
        match part.event(&mut buf)? {
            Event::Start(e) if e.local_name().as_ref() == "Relationships" => break,
            Event::Eof => return Err(part.ended_early("Relationships")),
            _ => {}
        }
    }
    let mut target: Option<String> = None;
    loop {
        match part.event(&mut buf)? {
            Event::Start(e) if e.local_name().as_ref() == "Relationship" => {
                let [typ, to] = get_attrs(&e, ["Type", "Target"]).map_err(|d| part.damaged(d))?;
                let main = typ.is_some_and(|t| t.ends_with("/relationships/officeDocument"));
                if let (true, Some(to)) = (main, to) {
                    let to = decode_attr(to).map_err(|d| part.damaged(d))?;
                    if let Some(before) = target.as_ref().filter(|t| **t != to) {
                        return Err(part.damaged(format!(
                            "it names two main workbook parts ('{before}' and '{to}'), so readers may take different ones"
                        )));
                    }
                    target = Some(to);
                }
            }
            Event::End(e) if e.local_name().as_ref() == "Relationships" => break,
            Event::Eof => return Err(part.ended_early("Relationships")),
            _ => {}
        }
    }
    let Some(target) = target else {
        return Err(part.damaged("it names no main workbook part (officeDocument)".into()));
    };
    let (dir, file) = match target.rfind('/') {
        Some(i) => target.split_at(i + 1),
        None => ("", target.as_str()),
    };
    Ok(MainPart {
        dir: dir.strip_prefix('/').unwrap_or(dir).to_string(),
        file: if file.is_empty() {
            "workbook.xml".to_string()
        } else {
            file.to_string()
        },
    })
}

/// A relationship of the main part: its raw target and type.
pub(super) type Relationships = HashMap<String, (String, String)>;

/// The main part's relationships, by id; two with one id are refused.
pub(super) fn relationships<R: Read>(
    part: &mut XmlPart<R>,
    cost: &mut OpenCost,
) -> PartResult<Relationships> {
    let mut out = Relationships::new();
    let mut buf = Vec::new();
    loop {
        match part.event(&mut buf)? {
            Event::Start(e) if e.local_name().as_ref() == "Relationship" => {
                let [id, typ, target] =
                    get_attrs(&e, ["Id", "Type", "Target"]).map_err(|d| part.damaged(d))?;
                if let Some(id) = id {
                    let (typ, target) = (typ.unwrap_or_default(), target.unwrap_or_default());
                    cost.add(
                        (id.len() + typ.len() + target.len() + 128) as u64,
                        "its relationships",
                    )?;
                    let entry = (target.to_string(), typ.to_string());
                    if out.insert(id.to_string(), entry).is_some() {
                        return Err(part.damaged(format!(
                            "two relationships have the id '{id}', so readers may take different ones"
                        )));
                    }
                }
            }
            Event::End(e) if e.local_name().as_ref() == "Relationships" => return Ok(out),
            Event::Eof => return Err(part.ended_early("Relationships")),
            _ => {}
        }
    }
}

/// The sheets the main part lists, in order, each found through `rels`; at most
/// [`MAX_SHEETS`]. A sheet with two relationship ids is refused.
pub(super) fn sheets<R: Read>(
    part: &mut XmlPart<R>,
    main: &MainPart,
    rels: &Relationships,
    cost: &mut OpenCost,
) -> PartResult<Vec<SheetEntry>> {
    let mut sheets = Vec::new();
    let (mut buf, mut value_buf) = (Vec::new(), Vec::new());
    loop {
        match part.event(&mut buf)? {
            Event::Start(e) if e.local_name().as_ref() == "sheet" => {
                let mut name = String::new();
                let mut hidden = false;
                let mut ids = Vec::new();
                for attr in raw_attributes(&e) {
                    let (key, value) = attr.map_err(|d| part.damaged(d))?;
                    match key {
                        "name" => name = decode_attr(value).map_err(|d| part.damaged(d))?,
                        "state" => match value {
                            "visible" => hidden = false,
                            "hidden" | "veryHidden" => hidden = true,
                            _ => return Err(part.damaged(format!("a sheet's state is '{value}'"))),
                        },
                        key if local_name_matches(key, "id") => ids.push((key, value)),
                        _ => {}
                    }
                }
                if let [(a, _), (b, _), ..] = ids[..] {
                    return Err(part.damaged(format!(
                        "sheet '{name}' has two relationship ids ({a} and {b}), so readers may take different ones"
                    )));
                }
                let id = ids.first().map_or("", |(_, v)| v);
                let Some((target, typ)) = rels.get(id) else {
                    return Err(part.damaged(format!(
                        "sheet '{name}' names the relationship '{id}', which does not exist"
                    )));
                };
                let path = match target.strip_prefix('/') {
                    Some(absolute) => absolute.to_string(),
                    None => main.sibling(target),
                };
                let kind = match typ.rsplit('/').next() {
                    Some("worksheet" | "dialogsheet") => SheetKind::Cells,
                    Some("chartsheet") => SheetKind::Chart,
                    _ => {
                        return Err(
                            part.damaged(format!("sheet '{name}' is of the unknown type '{typ}'"))
                        )
                    }
                };
                if sheets.len() >= MAX_SHEETS {
                    return Err(ReadError::TooLarge {
                        detail: format!("the workbook lists more than {MAX_SHEETS} sheets"),
                    });
                }
                cost.add((2 * name.len() + path.len() + 64) as u64, "its sheet list")?;
                sheets.push(SheetEntry {
                    name,
                    path,
                    kind,
                    hidden,
                });
            }
            Event::Start(e) if e.local_name().as_ref() == "workbookPr" => {
                super::super::xmlpart::raw_attr(&e, "date1904").map_err(|d| part.damaged(d))?;
            }
            Event::Start(e) if e.local_name().as_ref() == "definedName" => {
                // Read through as calamine does (its value is kept by nobody here).
                let name =
                    super::super::xmlpart::raw_attr(&e, "name").map_err(|d| part.damaged(d))?;
                if let Some(name) = name {
                    decode_attr(name).map_err(|d| part.damaged(d))?;
                    let end = e.name().as_ref().to_string();
                    loop {
                        match part.event(&mut value_buf)? {
                            Event::GeneralRef(r) => {
                                super::super::xmlpart::entity(&r).map_err(|d| part.damaged(d))?;
                            }
                            Event::End(x) if x.name().as_ref() == end => break,
                            Event::Eof => return Err(part.ended_early("definedName")),
                            _ => {}
                        }
                    }
                }
            }
            Event::End(e) if e.local_name().as_ref() == "workbook" => return Ok(sheets),
            Event::Eof => return Err(part.ended_early("workbook")),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workbook::read::Format;

    fn part(xml: &str) -> XmlPart<&[u8]> {
        XmlPart::new(xml.as_bytes(), "part".into(), 1 << 20, Format::Xlsx)
    }

    const OFFICE: &str =
        "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument";
    const SHEET: &str =
        "http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet";

    #[test]
    fn the_main_part_is_the_office_document_target() {
        let xml = format!(
            r#"<Relationships><Relationship Id="a" Type="x/thumbnail" Target="t.png"/><Relationship Id="b" Type="{OFFICE}" Target="/xl/book.xml"/></Relationships>"#
        );
        let main = main_part(&mut part(&xml)).unwrap();
        assert_eq!(
            (main.path(), main.rels()),
            ("xl/book.xml".into(), "xl/_rels/book.xml.rels".into())
        );
        let two = format!(
            r#"<Relationships><Relationship Type="{OFFICE}" Target="a.xml"/><Relationship Type="{OFFICE}" Target="b.xml"/></Relationships>"#
        );
        assert!(main_part(&mut part(&two)).is_err());
    }

    #[test]
    fn sheets_are_found_through_their_relationship_and_two_ids_are_refused() {
        let rels_xml = format!(
            r#"<Relationships><Relationship Id="rId1" Type="{SHEET}" Target="worksheets/sheet1.xml"/></Relationships>"#
        );
        let mut cost = OpenCost::default();
        let rels = relationships(&mut part(&rels_xml), &mut cost).unwrap();
        let main = MainPart {
            dir: "xl/".into(),
            file: "workbook.xml".into(),
        };
        let wb = r#"<workbook><sheets><sheet name="A &amp; B" r:id="rId1"/></sheets><definedNames><definedName name="x">S!A1</definedName></definedNames></workbook>"#;
        let got = sheets(&mut part(wb), &main, &rels, &mut cost).unwrap();
        assert_eq!(got.len(), 1);
        assert_eq!(
            (got[0].name.as_str(), got[0].path.as_str()),
            ("A & B", "xl/worksheets/sheet1.xml")
        );
        let two = r#"<workbook><sheet name="S" x:id="rId9" r:id="rId1"/></workbook>"#;
        let err = sheets(&mut part(two), &main, &rels, &mut cost)
            .err()
            .unwrap();
        assert!(err.to_string().contains("two relationship ids"), "{err}");
    }

    #[test]
    fn more_sheets_than_the_cap_are_refused() {
        let rels_xml = format!(
            r#"<Relationships><Relationship Id="r" Type="{SHEET}" Target="s.xml"/></Relationships>"#
        );
        let mut cost = OpenCost::default();
        let rels = relationships(&mut part(&rels_xml), &mut cost).unwrap();
        let main = MainPart {
            dir: "xl/".into(),
            file: "workbook.xml".into(),
        };
        let wb = format!(
            "<workbook>{}</workbook>",
            r#"<sheet name="S" r:id="r"/>"#.repeat(MAX_SHEETS + 1)
        );
        let err = sheets(&mut part(&wb), &main, &rels, &mut cost)
            .err()
            .unwrap();
        assert!(err.to_string().contains("more than 4096 sheets"), "{err}");
    }
}
