//! xlsx and xlsm, read by our own reader under the reading budget; calamine reads none of it.
//!
//! calamine reads an xlsx workbook's shared strings, styles, theme, relationships and main part
//! whole when it opens it, through parts it finds by its own rules, and then streams a sheet
//! only after reading everything before its cells. Each of those reads was a way past our
//! caps (a main part under another name, a sheet stored with `\`, a sheet with two ids, text
//! before `<sheetData>`, a million cell formats). So this reader does it all itself, with
//! calamine's rules for finding parts ([`Package`], [`workbook`]) and for reading styles
//! ([`styles`]), so that it reads the sheets, cells and formats calamine would, and counts
//! every byte first: the parts read at open share [`MAX_OPEN_XML_BYTES`], what is kept of them
//! is counted in an [`OpenCost`], and each sheet is streamed under its own caps and the
//! workbook's ([`sheet`]). The test comparing this reader with calamine's runs on every sample.

mod sheet;
mod strings;
mod styles;
mod workbook;

use std::io::{Read, Seek};

use super::budget::{OpenCost, SheetBudget, MAX_OPEN_XML_BYTES};
use super::package::{Metered, Package};
use super::xmlpart::{PartResult, XmlPart};
use super::{CellFormat, Format, ReadError};
use strings::SharedStrings;
use workbook::{SheetEntry, SheetKind};

/// An open xlsx or xlsm workbook.
pub(super) struct Book<RS: Read + Seek> {
    package: Package<RS>,
    strings: SharedStrings,
    /// What the verifier needs of each cell format, by style id.
    palette: Vec<CellFormat>,
    /// The sheets in workbook order, each with the member holding it (`None`: missing).
    sheets: Vec<(SheetEntry, Option<usize>)>,
}

impl<RS: Read + Seek> Book<RS> {
    /// Open the workbook in `reader`, reading the parts a workbook opens with. Returns what
    /// they keep in memory alongside.
    pub(super) fn open(reader: RS, format: Format) -> Result<(Book<RS>, OpenCost), ReadError> {
        let mut cost = OpenCost::default();
        let mut package = Package::open(reader, format, &mut cost)?;
        let mut opened = Opening {
            package: &mut package,
            xml_bytes: 0,
        };
        let main = opened
            .part("_rels/.rels", workbook::main_part)?
            .ok_or_else(|| ReadError::Damaged {
                format,
                detail: "its package has no _rels/.rels, which names the workbook's main part"
                    .into(),
            })?;
        let strings = opened
            .part(&main.sibling("sharedStrings.xml"), |p| {
                strings::read(p, &mut cost)
            })?
            .unwrap_or_default();
        let theme = opened
            .part(&main.sibling("theme/theme1.xml"), styles::theme_colors)
            .or_else(|e| match e {
                ReadError::TooLarge { .. } => Err(e),
                // As calamine: a theme that cannot be read is the default theme.
                _ => Ok(None),
            })?
            .unwrap_or_else(styles::default_theme);
        let palette = opened
            .part(&main.sibling("styles.xml"), |p| {
                styles::palette(p, &theme, &mut cost)
            })?
            .unwrap_or_default();
        let rels_path = main.rels();
        let rels = opened
            .part(&rels_path, |p| workbook::relationships(p, &mut cost))?
            .ok_or_else(|| ReadError::Damaged {
                format,
                detail: format!(
                    "its part {rels_path}, which says where the sheets are, is missing"
                ),
            })?;
        let sheets = opened
            .part(&main.path(), |p| {
                workbook::sheets(p, &main, &rels, &mut cost)
            })?
            .unwrap_or_default();
        let sheets = sheets
            .into_iter()
            .map(|entry| {
                let member = package.find(&entry.path);
                (entry, member)
            })
            .collect();
        let book = Book {
            package,
            strings,
            palette,
            sheets,
        };
        Ok((book, cost))
    }

    /// Sheet names in workbook order.
    pub(super) fn sheet_names(&self) -> Vec<String> {
        self.sheets.iter().map(|(s, _)| s.name.clone()).collect()
    }

    /// The names of the sheets the workbook hides (hidden or very hidden).
    pub(super) fn hidden_sheets(&self) -> Vec<String> {
        self.sheets
            .iter()
            .filter(|(s, _)| s.hidden)
            .map(|(s, _)| s.name.clone())
            .collect()
    }

    /// Stream the first sheet named `name` (a chart sheet has no cells).
    pub(super) fn read_sheet(
        &mut self,
        name: &str,
        budget: &mut SheetBudget<'_>,
    ) -> Result<(), ReadError> {
        let format = self.package.format();
        let Some((entry, member)) = self.sheets.iter().find(|(s, _)| s.name == name) else {
            return Err(ReadError::Damaged {
                format,
                detail: format!("no sheet named '{name}'"),
            });
        };
        if entry.kind == SheetKind::Chart {
            return Ok(());
        }
        let Some(index) = *member else {
            return Err(ReadError::Damaged {
                format,
                detail: format!("the sheet's part {} is missing", entry.path),
            });
        };
        let member = self.package.open_member(index)?;
        sheet::read(member, &self.strings, &self.palette, budget)
    }
}

/// The parts read at open, sharing [`MAX_OPEN_XML_BYTES`].
struct Opening<'p, RS: Read + Seek> {
    package: &'p mut Package<RS>,
    xml_bytes: u64,
}

impl<RS: Read + Seek> Opening<'_, RS> {
    /// Read the part calamine would find at `path` with `read`; `None` when there is none.
    fn part<'z, T>(
        &'z mut self,
        path: &str,
        read: impl FnOnce(&mut XmlPart<zip::read::ZipFile<'z, Metered<RS>>>) -> PartResult<T>,
    ) -> PartResult<Option<T>> {
        let Some(index) = self.package.find(path) else {
            return Ok(None);
        };
        let (name, format) = (self.package.name(index), self.package.format());
        let member = self.package.open_member(index)?;
        let left = MAX_OPEN_XML_BYTES.saturating_sub(self.xml_bytes);
        let mut part = XmlPart::new(member, name, left, format);
        let result = read(&mut part);
        self.xml_bytes += part.bytes_read();
        result.map(Some)
    }
}
