//! Drawing the knight's path: a transparent scatter chart laid exactly over the board, its
//! coordinates on the hidden `Path data` sheet, and a colour scale by move number.
//!
//! The chart's axes run `0..cols` and `0..rows` and its plot area fills the whole chart, which
//! is exactly as big as the board's cells, so the point `(col + 0.5, rows - row - 0.5)` lands
//! on the centre of square `(row, col)`.

use rust_xlsxwriter::{
    Chart, ChartAxis, ChartFormat, ChartLayout, ChartLine, ChartMarker, ChartType,
    ConditionalFormat2ColorScale, Workbook, Worksheet, XlsxError,
};

use super::layout::{col16, Look};
use super::styles::{PATH_LINE, SCALE_HIGH, SCALE_LOW};
use super::{
    PathDrawing, WorkbookSpec, AUTO_CHART_MAX_SIDE, AUTO_COLOUR_SCALE_MAX_SQUARES,
    MAX_CHARTED_ATTEMPTS, PATH_DATA_SHEET,
};
use crate::board::{Board, Square};
use crate::solve::Attempt;
use crate::workbook::cellref::CellRef;

/// Path-data sheets with more points than this are written in constant-memory mode (the charts
/// then carry no cached values; Excel and LibreOffice read the cells when opening).
const IN_MEMORY_POINTS: usize = 200_000;

/// Indices of the attempts whose path is drawn, in order.
pub(crate) fn charted_attempts(spec: &WorkbookSpec) -> Vec<usize> {
    spec.attempts
        .iter()
        .enumerate()
        .filter(|(_, a)| !a.tour.is_empty() && wanted(spec.draw_path, chart_auto(a.tour.board())))
        .map(|(i, _)| i)
        .take(MAX_CHARTED_ATTEMPTS)
        .collect()
}

fn chart_auto(board: Board) -> bool {
    board.rows() <= AUTO_CHART_MAX_SIDE && board.cols() <= AUTO_CHART_MAX_SIDE
}

fn wanted(setting: PathDrawing, auto: bool) -> bool {
    match setting {
        PathDrawing::Auto => auto,
        PathDrawing::On => true,
        PathDrawing::Off => false,
    }
}

/// Whether `attempt`'s board gets the colour scale.
pub(crate) fn colour_scale_wanted(spec: &WorkbookSpec, attempt: &Attempt) -> bool {
    let auto = attempt.tour.board().len() <= AUTO_COLOUR_SCALE_MAX_SQUARES;
    attempt.tour.len() >= 2 && wanted(spec.colour_scale, auto)
}

/// The centre of `sq` in chart coordinates: `(col + 0.5, rows - row - 0.5)`.
pub(crate) fn centre(board: Board, sq: Square) -> (f64, f64) {
    (
        f64::from(sq.col) + 0.5,
        f64::from(board.rows() - sq.row) - 0.5,
    )
}

/// Add the hidden `Path data` sheet for `paths` (each a label and a path): path `j`'s x in
/// column `2j` and y in column `2j + 1`, move `k` in row `k`; row 0 holds text headers.
pub(crate) fn add_path_data(
    workbook: &mut Workbook,
    paths: &[(&str, &crate::tour::Tour)],
) -> Result<(), XlsxError> {
    let total: usize = paths.iter().map(|(_, t)| t.len()).sum();
    let sheet = if total > IN_MEMORY_POINTS {
        workbook.add_worksheet_with_constant_memory()?
    } else {
        workbook.add_worksheet()
    };
    sheet.set_name(PATH_DATA_SHEET)?;
    sheet.set_hidden(true);
    for (j, (name, _)) in paths.iter().enumerate() {
        let col = (2 * j) as u16;
        sheet.write_string(0, col, format!("{name} x"))?;
        sheet.write_string(0, col + 1, format!("{name} y"))?;
    }
    let longest = paths.iter().map(|(_, t)| path_points(t)).max().unwrap_or(0);
    for k in 0..longest {
        for (j, (_, tour)) in paths.iter().enumerate() {
            // A closed tour's point after the last is the start again (the closing move).
            let idx = tour
                .indices()
                .get(k)
                .or_else(|| tour.indices().first().filter(|_| k < path_points(tour)));
            if let Some(&idx) = idx {
                let (x, y) = centre(tour.board(), tour.board().square_at(idx));
                let col = (2 * j) as u16;
                sheet.write_number(k as u32 + 1, col, x)?;
                sheet.write_number(k as u32 + 1, col + 1, y)?;
            }
        }
    }
    Ok(())
}

/// Lay the chart of `tour` (coordinates in column pair `slot` of `Path data`) over its board
/// at `top_left`.
pub(crate) fn insert_path_chart(
    sheet: &mut Worksheet,
    top_left: CellRef,
    tour: &crate::tour::Tour,
    slot: usize,
    look: Look,
) -> Result<(), XlsxError> {
    let chart = path_chart(tour, slot, look, false);
    sheet.insert_chart(top_left.row, top_left.col as u16, &chart)?;
    Ok(())
}

/// Draw the path of `tour` (coordinates in column pair `slot` of `Path data`) on a board of
/// its own, a grid of `look`-sized squares, with its top-left corner at `at`: a picture of
/// a tour written as a list, which has no board on the sheet.
pub(crate) fn insert_board_picture(
    sheet: &mut Worksheet,
    at: CellRef,
    tour: &crate::tour::Tour,
    slot: usize,
    look: Look,
) -> Result<(), XlsxError> {
    let chart = path_chart(tour, slot, look, true);
    sheet.insert_chart(at.row, at.col as u16, &chart)?;
    Ok(())
}

/// The chart of the path: transparent over a board, or (`squares`) drawing the squares'
/// grid and the board's outline itself.
fn path_chart(tour: &crate::tour::Tour, slot: usize, look: Look, squares: bool) -> Chart {
    let board = tour.board();
    let points = path_points(tour) as u32;
    let (xc, yc) = ((2 * slot) as u16, (2 * slot + 1) as u16);
    let mut chart = Chart::new(ChartType::ScatterStraight);
    chart
        .set_name("Knight's path")
        .set_alt_text("The knight's path over the board, from the yellow start square")
        .set_width(board.cols() * look.cell_px)
        .set_height(board.rows() * look.row_px)
        .show_hidden_data();
    // A thin line, lighter on crowded boards, and no markers: the numbers under it stay
    // readable (the start and end squares are marked by their cells' styles instead).
    let crowded = board.rows().max(board.cols()) > 12;
    let line_width = if crowded { 0.5 } else { 0.75 };
    let series = chart
        .add_series()
        .set_name("Path")
        .set_categories((PATH_DATA_SHEET, 1, xc, points, xc))
        .set_values((PATH_DATA_SHEET, 1, yc, points, yc))
        .set_format(
            ChartFormat::new().set_line(
                ChartLine::new()
                    .set_color(PATH_LINE)
                    .set_width(line_width)
                    .set_transparency(30),
            ),
        );
    if squares {
        // With no numbers under it, a dot on each square shows the moves, a bigger one the start.
        series.set_marker(
            ChartMarker::new()
                .set_type(rust_xlsxwriter::ChartMarkerType::Circle)
                .set_size(3)
                .set_format(
                    ChartFormat::new().set_solid_fill(
                        rust_xlsxwriter::ChartSolidFill::new().set_color(PATH_LINE),
                    ),
                ),
        );
    } else {
        series.set_marker(ChartMarker::new().set_none());
    }
    hide_axis(chart.x_axis(), board.cols());
    hide_axis(chart.y_axis(), board.rows());
    if squares {
        let mut grid = ChartLine::new();
        grid.set_color(0xA6A6A6).set_width(0.5);
        for x in [true, false] {
            let axis = if x { chart.x_axis() } else { chart.y_axis() };
            axis.set_major_unit(1)
                .set_major_gridlines(true)
                .set_major_gridlines_line(&grid);
        }
    }
    chart.title().set_hidden();
    chart.legend().set_hidden();
    let transparent = ChartFormat::new().set_no_fill().set_no_border().clone();
    chart.chart_area().set_format(&mut transparent.clone());
    let mut plot = match squares {
        true => ChartFormat::new()
            .set_no_fill()
            .set_border(ChartLine::new().set_color(0x000000).set_width(1.5))
            .clone(),
        false => transparent.clone(),
    };
    chart.plot_area().set_format(&mut plot).set_layout(
        &ChartLayout::new()
            .set_offset(0.0, 0.0)
            .set_dimensions(1.0, 1.0),
    );
    chart
}

/// An axis from 0 to `max`, not shown.
fn hide_axis(axis: &mut ChartAxis, max: u32) {
    axis.set_min(0)
        .set_max(max)
        .set_hidden(true)
        .set_major_gridlines(false)
        .set_minor_gridlines(false);
}

/// Points of the drawn path: every square in move order, and for a closed tour the start once
/// more, so the line draws the closing move.
pub(crate) fn path_points(tour: &crate::tour::Tour) -> usize {
    tour.len() + usize::from(tour.is_closed())
}

/// Colour the board by move number with a 2-colour scale over the board minus the start
/// and end squares, whose own fills must show.
pub(crate) fn add_colour_scale(
    sheet: &mut Worksheet,
    top_left: CellRef,
    attempt: &Attempt,
) -> Result<(), XlsxError> {
    let tour = &attempt.tour;
    let board = tour.board();
    // The start, and the end (marked end or stuck square), keep their own fills.
    let mut excluded: Vec<Square> = tour.start().into_iter().collect();
    excluded.extend(tour.end());
    let rects = rectangles_without(board, &excluded);
    let Some(&(r1, c1, r2, c2)) = rects.first() else {
        return Ok(());
    };
    let sqref = rects
        .iter()
        .map(|&(a, b, c, d)| board_range(top_left, a, b, c, d))
        .collect::<Vec<_>>()
        .join(" ");
    let scale = ConditionalFormat2ColorScale::new()
        .set_minimum_color(SCALE_LOW)
        .set_maximum_color(SCALE_HIGH)
        .set_multi_range(sqref);
    sheet.add_conditional_format(
        top_left.row + r1,
        (top_left.col + c1) as u16,
        top_left.row + r2,
        (top_left.col + c2) as u16,
        &scale,
    )?;
    Ok(())
}

/// `C3` or `C3:J10` for board rectangle rows `r1..=r2`, cols `c1..=c2`.
fn board_range(top_left: CellRef, r1: u32, c1: u32, r2: u32, c2: u32) -> String {
    let a = top_left.offset(r1, c1);
    let b = top_left.offset(r2, c2);
    rust_xlsxwriter::utility::cell_range(a.row, col16(a.col), b.row, col16(b.col))
}

/// The board as rectangles `(r1, c1, r2, c2)` (inclusive, board coordinates) covering every
/// square except `excluded`: full-width bands between the rows holding excluded squares, and
/// the pieces of those rows between the excluded squares.
pub(crate) fn rectangles_without(board: Board, excluded: &[Square]) -> Vec<(u32, u32, u32, u32)> {
    let mut rows: Vec<u32> = excluded.iter().map(|s| s.row).collect();
    rows.sort_unstable();
    rows.dedup();
    let last_col = board.cols() - 1;
    let mut out = Vec::new();
    let mut band_start = 0;
    for &r in &rows {
        if r > band_start {
            out.push((band_start, 0, r - 1, last_col));
        }
        let mut cols: Vec<u32> = excluded
            .iter()
            .filter(|s| s.row == r)
            .map(|s| s.col)
            .collect();
        cols.sort_unstable();
        cols.dedup();
        let mut from = 0;
        for c in cols {
            if c > from {
                out.push((r, from, r, c - 1));
            }
            from = c + 1;
        }
        if from <= last_col {
            out.push((r, from, r, last_col));
        }
        band_start = r + 1;
    }
    if band_start < board.rows() {
        out.push((band_start, 0, board.rows() - 1, last_col));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn covered(board: Board, rects: &[(u32, u32, u32, u32)]) -> Vec<u32> {
        let mut count = vec![0u32; board.len()];
        for &(r1, c1, r2, c2) in rects {
            for r in r1..=r2 {
                for c in c1..=c2 {
                    count[board.index(Square::new(r, c)) as usize] += 1;
                }
            }
        }
        count
    }

    #[test]
    fn rectangles_cover_everything_but_the_excluded_once() {
        let board = Board::new(5, 6).unwrap();
        for excluded in [
            vec![],
            vec![Square::new(0, 0)],
            vec![Square::new(4, 5)],
            vec![Square::new(2, 3), Square::new(2, 1)],
            vec![Square::new(1, 0), Square::new(3, 5)],
            vec![Square::new(2, 2), Square::new(2, 2)],
        ] {
            let rects = rectangles_without(board, &excluded);
            let count = covered(board, &rects);
            for sq in board.squares() {
                let want = u32::from(!excluded.contains(&sq));
                assert_eq!(count[board.index(sq) as usize], want, "{sq:?} {excluded:?}");
            }
        }
        let one = Board::new(1, 1).unwrap();
        assert!(rectangles_without(one, &[Square::new(0, 0)]).is_empty());
    }

    #[test]
    fn sqref_parts_are_a1_ranges() {
        let c3 = CellRef::new(2, 2);
        assert_eq!(board_range(c3, 0, 0, 7, 7), "C3:J10");
        assert_eq!(board_range(c3, 1, 1, 1, 1), "D4");
    }

    #[test]
    fn centres_put_row_zero_at_the_top() {
        let board = Board::new(8, 5).unwrap();
        assert_eq!(centre(board, Square::new(0, 0)), (0.5, 7.5));
        assert_eq!(centre(board, Square::new(7, 4)), (4.5, 0.5));
    }
}
