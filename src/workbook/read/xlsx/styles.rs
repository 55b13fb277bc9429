//! What the verifier needs of an xlsx workbook's cell styles (a visible border, a solid fill's
//! colour), read from `styles.xml` and the theme's colour scheme.
//!
//! The rules are calamine 0.38's (`xlsx::read_styles`, `style_parser`), read the same way:
//! the same elements in the same nesting, the same attribute choice, the same colours (theme
//! and indexed colours, tints applied in HSL), and the same errors, so a workbook reads with
//! the formats calamine gives its cells. Only what a cell format needs is kept: one
//! [`CellFormat`] per cell format (`<xf>` of `<cellXfs>`), at most [`MAX_CELL_FORMATS`].

use std::io::Read;

use quick_xml::events::{BytesStart, Event};

use super::super::budget::{OpenCost, MAX_CELL_FORMATS};
use super::super::xmlpart::{decode_attr, digits, get_attrs, raw_attr, PartResult, XmlPart};
use super::super::{CellFormat, ReadError};

/// A colour as red, green, blue (calamine keeps an alpha the verifier never looks at).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Rgb(u8, u8, u8);

impl Rgb {
    fn value(self) -> u32 {
        u32::from(self.0) << 16 | u32::from(self.1) << 8 | u32::from(self.2)
    }
}

const BLACK: Rgb = Rgb(0, 0, 0);

/// The default Office theme, by `theme` index (the first four swapped from `clrScheme`
/// order, as Excel maps them).
const DEFAULT_THEME: [Rgb; 12] = [
    Rgb(255, 255, 255),
    Rgb(0, 0, 0),
    Rgb(238, 236, 225),
    Rgb(31, 73, 125),
    Rgb(79, 129, 189),
    Rgb(192, 80, 77),
    Rgb(155, 187, 89),
    Rgb(128, 100, 162),
    Rgb(75, 172, 198),
    Rgb(247, 150, 70),
    Rgb(0, 0, 255),
    Rgb(128, 0, 128),
];

/// The default Office theme's colours.
pub(super) fn default_theme() -> Vec<Rgb> {
    DEFAULT_THEME.to_vec()
}

/// The theme's colours from `theme1.xml`; the default theme where the part is damaged or its
/// scheme incomplete (as calamine, which only warns). A cap reached is still an error.
pub(super) fn theme_colors<R: Read>(part: &mut XmlPart<R>) -> PartResult<Vec<Rgb>> {
    match read_theme(part) {
        Ok(colors) if colors.len() >= 4 => {
            let mut colors = colors;
            colors.swap(0, 1);
            colors.swap(2, 3);
            Ok(colors)
        }
        Err(e @ ReadError::TooLarge { .. }) => Err(e),
        _ => Ok(DEFAULT_THEME.to_vec()),
    }
}

fn read_theme<R: Read>(part: &mut XmlPart<R>) -> PartResult<Vec<Rgb>> {
    const SLOTS: &[&str] = &[
        "dk1", "lt1", "dk2", "lt2", "accent1", "accent2", "accent3", "accent4", "accent5",
        "accent6", "hlink", "folHlink",
    ];
    let mut colors = Vec::new();
    let (mut in_scheme, mut slot_open) = (false, false);
    let mut buf = Vec::new();
    loop {
        match part.event(&mut buf)? {
            Event::Start(e) => {
                let local = e.local_name();
                if local.as_ref() == "clrScheme" {
                    in_scheme = true;
                } else if in_scheme {
                    if SLOTS.contains(&local.as_ref()) {
                        slot_open = true;
                    } else if slot_open && matches!(local.as_ref(), "srgbClr" | "sysClr") {
                        let [val, last] =
                            get_attrs(&e, ["val", "lastClr"]).map_err(|d| part.damaged(d))?;
                        if let Some(c) =
                            last.and_then(hex_color).or_else(|| val.and_then(hex_color))
                        {
                            colors.push(c);
                            slot_open = false;
                        }
                    }
                }
            }
            Event::End(e) => {
                let local = e.local_name();
                if local.as_ref() == "clrScheme" {
                    break;
                }
                if slot_open && SLOTS.contains(&local.as_ref()) {
                    colors.push(BLACK);
                    slot_open = false;
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(colors)
}

/// A fill as calamine keeps it: visible when its pattern is one Excel names.
#[derive(Clone, Copy, Default)]
struct Fill {
    visible: bool,
    foreground: Option<Rgb>,
    background: Option<Rgb>,
}

/// The cell formats of `styles.xml`, by style id (the `s` of a cell). `cost` counts what is
/// kept while reading.
pub(super) fn palette<R: Read>(
    part: &mut XmlPart<R>,
    theme: &[Rgb],
    cost: &mut OpenCost,
) -> PartResult<Vec<CellFormat>> {
    let mut fills: Vec<Fill> = Vec::new();
    let mut borders: Vec<bool> = Vec::new();
    let mut palette: Vec<CellFormat> = Vec::new();
    let (mut buf, mut inner) = (Vec::new(), Vec::new());
    let what = "its cell styles";
    loop {
        let list = match part.event(&mut buf)? {
            Event::Start(e) => e.local_name().as_ref().to_string(),
            Event::End(e) if e.local_name().as_ref() == "styleSheet" => break,
            Event::Eof => return Err(part.ended_early("styleSheet")),
            _ => continue,
        };
        let item = match list.as_str() {
            "numFmts" => "numFmt",
            "fonts" => "font",
            "fills" => "fill",
            "borders" => "border",
            "cellXfs" => "xf",
            _ => continue,
        };
        loop {
            let e = match part.event(&mut inner)? {
                Event::Start(e) if e.local_name().as_ref() == item => e.into_owned(),
                Event::End(e) if e.local_name().as_ref() == list => break,
                Event::Eof => return Err(part.ended_early(&list)),
                _ => continue,
            };
            match item {
                "numFmt" => {
                    let [id, code] =
                        get_attrs(&e, ["numFmtId", "formatCode"]).map_err(|d| part.damaged(d))?;
                    if let (Some(_), Some(code)) = (id, code) {
                        decode_attr(code).map_err(|d| part.damaged(d))?;
                    }
                }
                "font" => font(part, theme)?,
                "fill" => {
                    cost.add(16, what)?;
                    fills.push(fill(part, theme)?);
                }
                "border" => {
                    cost.add(8, what)?;
                    borders.push(border(part, &e, theme)?);
                }
                _ => {
                    if palette.len() as u64 >= MAX_CELL_FORMATS {
                        return Err(ReadError::TooLarge {
                            detail: format!(
                                "its styles define more than {MAX_CELL_FORMATS} cell formats (Excel's most)"
                            ),
                        });
                    }
                    cost.add(16, what)?;
                    palette.push(cell_format(part, &e, &fills, &borders)?);
                }
            }
        }
    }
    Ok(palette)
}

/// An index attribute (`fillId`...) as calamine reads it.
fn index(value: Option<&str>) -> Option<usize> {
    value.and_then(digits).and_then(|v| usize::try_from(v).ok())
}

/// One `<xf>`: its fill and border, then its body (alignment, protection) read through.
fn cell_format<R: Read>(
    part: &mut XmlPart<R>,
    e: &BytesStart<'_>,
    fills: &[Fill],
    borders: &[bool],
) -> PartResult<CellFormat> {
    raw_attr(e, "numFmtId").map_err(|d| part.damaged(d))?;
    let [_, _, fill_id, border_id] =
        get_attrs(e, ["numFmtId", "fontId", "fillId", "borderId"]).map_err(|d| part.damaged(d))?;
    let fill = index(fill_id).and_then(|i| fills.get(i));
    let format = CellFormat {
        bordered: index(border_id).and_then(|i| borders.get(i)) == Some(&true),
        fill: fill
            .filter(|f| f.visible)
            .and_then(|f| f.foreground.or(f.background))
            .map(Rgb::value),
    };
    let mut buf = Vec::new();
    loop {
        match part.event(&mut buf)? {
            Event::Start(c) => match c.local_name().as_ref() {
                "alignment" => {
                    get_attrs(
                        &c,
                        [
                            "horizontal",
                            "vertical",
                            "wrapText",
                            "textRotation",
                            "indent",
                            "shrinkToFit",
                        ],
                    )
                    .map_err(|d| part.damaged(d))?;
                }
                "protection" => {
                    get_attrs(&c, ["locked", "hidden"]).map_err(|d| part.damaged(d))?;
                }
                _ => {}
            },
            Event::End(c) if c.local_name().as_ref() == "xf" => return Ok(format),
            Event::Eof => return Err(part.ended_early("xf")),
            _ => {}
        }
    }
}

/// A `<font>`, read through (the verifier keeps nothing of it, but its errors are calamine's).
fn font<R: Read>(part: &mut XmlPart<R>, theme: &[Rgb]) -> PartResult<()> {
    let mut buf = Vec::new();
    loop {
        match part.event(&mut buf)? {
            Event::Start(e) => match e.local_name().as_ref() {
                "name" => {
                    if let Some(v) = raw_attr(&e, "val").map_err(|d| part.damaged(d))? {
                        decode_attr(v).map_err(|d| part.damaged(d))?;
                    }
                }
                "sz" | "b" | "i" | "u" | "strike" | "family" => {
                    raw_attr(&e, "val").map_err(|d| part.damaged(d))?;
                }
                "color" => {
                    color(&e, theme).map_err(|d| part.damaged(d))?;
                }
                _ => {}
            },
            Event::End(e) if e.local_name().as_ref() == "font" => return Ok(()),
            Event::Eof => return Err(part.ended_early("font")),
            _ => {}
        }
    }
}

/// A `<fill>`.
fn fill<R: Read>(part: &mut XmlPart<R>, theme: &[Rgb]) -> PartResult<Fill> {
    let mut fill = Fill::default();
    let mut buf = Vec::new();
    loop {
        match part.event(&mut buf)? {
            Event::Start(e) => match e.local_name().as_ref() {
                "patternFill" => {
                    if let Some(p) = raw_attr(&e, "patternType").map_err(|d| part.damaged(d))? {
                        fill.visible = visible_pattern(p);
                    }
                }
                "fgColor" => {
                    if let Some(c) = color(&e, theme).map_err(|d| part.damaged(d))? {
                        fill.foreground = Some(c);
                    }
                }
                "bgColor" => {
                    if let Some(c) = color(&e, theme).map_err(|d| part.damaged(d))? {
                        fill.background = Some(c);
                    }
                }
                _ => {}
            },
            Event::End(e) if e.local_name().as_ref() == "fill" => return Ok(fill),
            Event::Eof => return Err(part.ended_early("fill")),
            _ => {}
        }
    }
}

/// Whether a `patternType` is a pattern calamine knows (any other reads as no fill).
fn visible_pattern(p: &str) -> bool {
    matches!(
        p,
        "solid"
            | "darkGray"
            | "mediumGray"
            | "lightGray"
            | "gray125"
            | "gray0625"
            | "darkHorizontal"
            | "darkVertical"
            | "darkDown"
            | "darkUp"
            | "darkGrid"
            | "darkTrellis"
            | "lightHorizontal"
            | "lightVertical"
            | "lightDown"
            | "lightUp"
            | "lightGrid"
            | "lightTrellis"
    )
}

/// Whether a border `style` is one calamine knows (any other reads as no border).
fn visible_border(style: &str) -> bool {
    matches!(
        style,
        "thin"
            | "medium"
            | "thick"
            | "double"
            | "hair"
            | "dashed"
            | "dotted"
            | "mediumDashed"
            | "dashDot"
            | "mediumDashDot"
            | "dashDotDot"
            | "mediumDashDotDot"
            | "slantDashDot"
    )
}

/// A `<border>` (its start tag `start`): whether any side, or a diagonal it turns on, shows.
fn border<R: Read>(
    part: &mut XmlPart<R>,
    start: &BytesStart<'_>,
    theme: &[Rgb],
) -> PartResult<bool> {
    let [down, up] =
        get_attrs(start, ["diagonalDown", "diagonalUp"]).map_err(|d| part.damaged(d))?;
    let on = |v: Option<&str>| v.is_some_and(|v| !matches!(v, "0" | "false"));
    let diagonal = on(down) || on(up);
    let mut visible = [false; 5];
    let (mut buf, mut side_buf) = (Vec::new(), Vec::new());
    loop {
        let (side, style) = match part.event(&mut buf)? {
            Event::Start(e) => {
                let side = match e.local_name().as_ref() {
                    "left" => 0,
                    "right" => 1,
                    "top" => 2,
                    "bottom" => 3,
                    "diagonal" => 4,
                    _ => continue,
                };
                let style = raw_attr(&e, "style").map_err(|d| part.damaged(d))?;
                (side, style.is_some_and(visible_border))
            }
            Event::End(e) if e.local_name().as_ref() == "border" => break,
            Event::Eof => return Err(part.ended_early("border")),
            _ => continue,
        };
        let name = ["left", "right", "top", "bottom", "diagonal"][side];
        loop {
            match part.event(&mut side_buf)? {
                Event::Start(c) if c.local_name().as_ref() == "color" => {
                    color(&c, theme).map_err(|d| part.damaged(d))?;
                }
                Event::End(end) if end.local_name().as_ref() == name => break,
                Event::Eof => return Err(part.ended_early(name)),
                _ => {}
            }
        }
        visible[side] = style;
    }
    Ok(visible[..4].iter().any(|&v| v) || (diagonal && visible[4]))
}

/// A colour element (`fgColor`, `color`...): `rgb`, else `theme`, else `indexed`, then `tint`.
fn color(e: &BytesStart<'_>, theme: &[Rgb]) -> Result<Option<Rgb>, String> {
    let [rgb, theme_index, indexed, tint] = get_attrs(e, ["rgb", "theme", "indexed", "tint"])?;
    let small = |v: &str| digits(v).and_then(|n| u8::try_from(n).ok());
    let color = if let Some(rgb) = rgb {
        hex_color(rgb)
    } else if let Some(t) = theme_index {
        small(t).map(|t| theme.get(usize::from(t)).copied().unwrap_or(BLACK))
    } else if let Some(i) = indexed {
        small(i).map(indexed_color)
    } else {
        None
    };
    let tint = tint.and_then(|t| t.parse::<f64>().ok());
    Ok(color.map(|c| match tint {
        Some(t) if t != 0.0 => apply_tint(c, t),
        _ => c,
    }))
}

/// `RRGGBB` or `AARRGGBB`.
fn hex_color(v: &str) -> Option<Rgb> {
    let pair = |at: usize| u8::from_str_radix(v.get(at..at + 2)?, 16).ok();
    match v.len() {
        6 => Some(Rgb(pair(0)?, pair(2)?, pair(4)?)),
        8 => {
            pair(0)?;
            Some(Rgb(pair(2)?, pair(4)?, pair(6)?))
        }
        _ => None,
    }
}

/// Excel's default indexed palette (ECMA-376 18.8.27); 64 and 65 are the system foreground
/// and background.
fn indexed_color(i: u8) -> Rgb {
    const PALETTE: [u32; 64] = [
        0x000000, 0xFFFFFF, 0xFF0000, 0x00FF00, 0x0000FF, 0xFFFF00, 0xFF00FF, 0x00FFFF, 0x000000,
        0xFFFFFF, 0xFF0000, 0x00FF00, 0x0000FF, 0xFFFF00, 0xFF00FF, 0x00FFFF, 0x800000, 0x008000,
        0x000080, 0x808000, 0x800080, 0x008080, 0xC0C0C0, 0x808080, 0x9999FF, 0x993366, 0xFFFFCC,
        0xCCFFFF, 0x660066, 0xFF8080, 0x0066CC, 0xCCCCFF, 0x000080, 0xFF00FF, 0xFFFF00, 0x00FFFF,
        0x800080, 0x800000, 0x008080, 0x0000FF, 0x00CCFF, 0xCCFFFF, 0xCCFFCC, 0xFFFF99, 0x99CCFF,
        0xFF99CC, 0xCC99FF, 0xFFCC99, 0x3366FF, 0x33CCCC, 0x99CC00, 0xFFCC00, 0xFF9900, 0xFF6600,
        0x666699, 0x969696, 0x003366, 0x339966, 0x003300, 0x333300, 0x993300, 0x993366, 0x333399,
        0x333333,
    ];
    match i {
        0..=63 => {
            let v = PALETTE[usize::from(i)];
            Rgb((v >> 16) as u8, (v >> 8) as u8, v as u8)
        }
        65 => Rgb(255, 255, 255),
        _ => BLACK,
    }
}

/// A tint applied to the colour's luminance in HSL (ECMA-376 18.8.19).
fn apply_tint(c: Rgb, tint: f64) -> Rgb {
    let (hue, sat, lum) = rgb_to_hsl(c);
    let lum = if tint < 0.0 {
        lum * (1.0 + tint)
    } else {
        lum * (1.0 - tint) + tint
    };
    hsl_to_rgb(hue, sat, lum.clamp(0.0, 1.0))
}

fn rgb_to_hsl(c: Rgb) -> (f64, f64, f64) {
    let (r, g, b) = (
        f64::from(c.0) / 255.0,
        f64::from(c.1) / 255.0,
        f64::from(c.2) / 255.0,
    );
    let max = r.max(g).max(b);
    let min = r.min(g).min(b);
    let lum = (max + min) / 2.0;
    if max == min {
        return (0.0, 0.0, lum);
    }
    let delta = max - min;
    let sat = if lum > 0.5 {
        delta / (2.0 - max - min)
    } else {
        delta / (max + min)
    };
    let hue = if max == r {
        (g - b) / delta + if g < b { 6.0 } else { 0.0 }
    } else if max == g {
        (b - r) / delta + 2.0
    } else {
        (r - g) / delta + 4.0
    };
    (hue / 6.0, sat, lum)
}

fn hsl_to_rgb(hue: f64, sat: f64, lum: f64) -> Rgb {
    let channel = |v: f64| (v * 255.0).round().clamp(0.0, 255.0) as u8;
    if sat == 0.0 {
        let grey = channel(lum);
        return Rgb(grey, grey, grey);
    }
    let q = if lum < 0.5 {
        lum * (1.0 + sat)
    } else {
        lum + sat - lum * sat
    };
    let p = 2.0 * lum - q;
    let of_hue = |hue: f64| {
        let hue = hue.rem_euclid(1.0);
        channel(if hue < 1.0 / 6.0 {
            p + (q - p) * 6.0 * hue
        } else if hue < 0.5 {
            q
        } else if hue < 2.0 / 3.0 {
            p + (q - p) * (2.0 / 3.0 - hue) * 6.0
        } else {
            p
        })
    };
    Rgb(
        of_hue(hue + 1.0 / 3.0),
        of_hue(hue),
        of_hue(hue - 1.0 / 3.0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workbook::read::Format;

    fn part(xml: &str) -> XmlPart<&[u8]> {
        XmlPart::new(xml.as_bytes(), "styles.xml".into(), 1 << 20, Format::Xlsx)
    }

    #[test]
    fn fills_and_borders_read_as_calamine_reads_them() {
        let xml = r#"<styleSheet><fills count="3">
            <fill><patternFill patternType="none"/></fill>
            <fill><patternFill patternType="solid"><fgColor rgb="FFFF0000"/></patternFill></fill>
            <fill><patternFill patternType="solid"><fgColor theme="4" tint="0.5"/></patternFill></fill>
          </fills><borders count="2"><border><left/><right/></border>
            <border diagonalUp="1"><diagonal style="thin"><color indexed="64"/></diagonal></border>
          </borders><cellXfs count="4"><xf fillId="0" borderId="0"/><xf fillId="1" borderId="1"/>
            <xf fillId="2"><alignment horizontal="center"/></xf><xf fillId="9" borderId="x"/></cellXfs>
          </styleSheet>"#;
        let got = palette(&mut part(xml), &DEFAULT_THEME, &mut OpenCost::default()).unwrap();
        assert_eq!(got.len(), 4);
        assert_eq!(got[0], CellFormat::default());
        assert_eq!(
            got[1],
            CellFormat {
                bordered: true,
                fill: Some(0xFF0000)
            }
        );
        // accent1 4F81BD lightened by half.
        assert_eq!(got[2].fill, Some(0xA7C0DE));
        assert_eq!(got[3], CellFormat::default());
    }

    #[test]
    fn more_than_excels_cell_formats_are_refused() {
        let xml = format!(
            "<styleSheet><cellXfs>{}</cellXfs></styleSheet>",
            "<xf/>".repeat(MAX_CELL_FORMATS as usize + 1)
        );
        let err = palette(&mut part(&xml), &DEFAULT_THEME, &mut OpenCost::default()).unwrap_err();
        assert!(err.to_string().contains("64000 cell formats"), "{err}");
    }

    #[test]
    fn a_styles_part_cut_short_is_damaged() {
        let err = palette(
            &mut part("<styleSheet><fills><fill>"),
            &DEFAULT_THEME,
            &mut OpenCost::default(),
        )
        .unwrap_err();
        assert!(matches!(err, ReadError::Damaged { .. }), "{err}");
    }
}
