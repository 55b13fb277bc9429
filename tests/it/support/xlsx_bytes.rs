//! Workbooks written to memory and looked into, for the tests of the workbook writer
//! (`workbook::write`, `workbook::print`): the bytes, calamine's view of them, one zip part as text.

use std::io::{Cursor, Read};

use calamine::{Reader, Xlsx};
use knights_tour::generate::workbook::{write_workbook, WorkbookSpec};

/// The workbook `spec` describes, as bytes.
pub fn write(spec: &WorkbookSpec) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    write_workbook(spec, &mut out).unwrap();
    out.into_inner()
}

/// calamine reading `bytes`.
pub fn open(bytes: &[u8]) -> Xlsx<Cursor<Vec<u8>>> {
    Xlsx::new(Cursor::new(bytes.to_vec())).unwrap()
}

/// The text of one part of the xlsx zip.
pub fn part(bytes: &[u8], name: &str) -> String {
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).unwrap();
    let mut text = String::new();
    zip.by_name(name)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .read_to_string(&mut text)
        .unwrap();
    text
}

/// The solid fill colour (RGB) of the cell at `row`, `col` of `sheet`, if any.
pub fn fill_at(bytes: &[u8], sheet: &str, row: u32, col: u32) -> Option<u32> {
    let mut wb = open(bytes);
    let styles = wb.worksheet_style(sheet).unwrap();
    let fill = styles.get((row, col))?.fill.clone()?;
    if !fill.is_visible() {
        return None;
    }
    fill.get_color().map(|c| c.to_argb() & 0xFF_FFFF)
}

/// A knight's move drawn on a board, its two squares `(row, col)` lowest first.
pub type Move = ((u32, u32), (u32, u32));

/// The moves the hidden `Path data` sheet draws for the path labelled `name` on a board of
/// `rows` rows, sorted: each row labelled `{name} path K` is a line-chart series whose category
/// `k` (column `k`) is at `k / 2` squares from the board's left edge, so a square's centre is an
/// odd category at a height ending in .5; a move joins two centres along neighbouring
/// categories.
pub fn drawn_moves(bytes: &[u8], name: &str, rows: u32) -> Vec<Move> {
    use calamine::Data;
    let mut wb = open(bytes);
    let Ok(range) = wb.worksheet_range("Path data") else {
        return Vec::new();
    };
    let prefix = format!("{name} path ");
    let mut out = Vec::new();
    for row in range.rows() {
        let label = row.iter().rev().find_map(|d| match d {
            Data::String(s) => Some(s.as_str()),
            _ => None,
        });
        if !label.is_some_and(|l| {
            l.strip_prefix(&prefix)
                .is_some_and(|k| k.parse::<u32>().is_ok())
        }) {
            continue;
        }
        let mut last: Option<(usize, Option<(u32, u32)>)> = None;
        for (c, d) in row.iter().enumerate() {
            let Data::Float(y) = *d else {
                last = None;
                continue;
            };
            let centre = c % 2 == 1 && (y - 0.5).fract() == 0.0;
            let here = centre.then(|| (rows - (y + 0.5) as u32, (c / 2) as u32));
            match (last, here) {
                (Some((lc, Some(from))), Some(to)) if lc + 1 == c => {
                    out.push((from.min(to), from.max(to)))
                }
                _ => {}
            }
            let keep = here.or_else(|| last.and_then(|(lc, f)| if lc + 1 == c { f } else { None }));
            last = Some((c, keep));
        }
    }
    out.sort();
    out
}

/// The moves of `tour` (the closing one too when it is closed), as [`drawn_moves`] gives them.
pub fn moves_of(tour: &knights_tour::tour::Tour) -> Vec<Move> {
    let squares: Vec<(u32, u32)> = tour.squares().map(|s| (s.row, s.col)).collect();
    let mut out: Vec<Move> = squares
        .windows(2)
        .map(|w| (w[0].min(w[1]), w[0].max(w[1])))
        .collect();
    if tour.is_closed() {
        let (a, b) = (squares[0], squares[squares.len() - 1]);
        out.push((a.min(b), a.max(b)));
    }
    out.sort();
    out
}
