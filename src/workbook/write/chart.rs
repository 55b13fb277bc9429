//! Drawing the knight's path: transparent line charts laid exactly over the board, their
//! values on the hidden `Path data` sheet, and a colour scale by move number.
//!
//! A path is naturally a scatter chart, but rust_xlsxwriter (0.102) writes a scatter series'
//! marker before its shape properties whenever both are set, out of the schema's order
//! (`docs/upstream.md`), and a formatted line without markers needs both. A line chart's
//! series are written in order, and a knight's path fits one: every move changes column, so the
//! path splits into *runs* whose columns only grow or only shrink, and a run is a function of
//! the column. The category axis has `2 * cols + 1` categories on its tick marks, from the
//! board's left edge to its right: category `2c + 1` is the centre of column `c`, a move to the
//! next column spans two categories and one over two columns four, each category between
//! holding the height the move passes at. Runs share a series (a row of `Path data`) when a
//! blank category keeps them apart, since a blank is a gap in the line.
//!
//! The value axis runs `0..rows` and the plot area fills the whole chart, which is exactly as
//! big as the board's cells, so square `(row, col)` is drawn at category `2 * col + 1`, height
//! `rows - row - 0.5`.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rust_xlsxwriter::{
    Chart, ChartFormat, ChartLayout, ChartLine, ChartMarker, ChartMarkerType, ChartSolidFill,
    ChartType, ConditionalFormat2ColorScale, Workbook, Worksheet, XlsxError,
};

use super::board_layout::{col16, Look};
use super::names::PATH_DATA_SHEET;
use super::styles::{PATH_LINE, SCALE_HIGH, SCALE_LOW};
use crate::board::{Board, Square};
use crate::solve::Attempt;
use crate::tour::Tour;
use crate::workbook::cellref::{CellRef, SHEET_COLS, SHEET_ROWS};

/// Path-data sheets with more values than this are written in constant-memory mode (the charts
/// then carry no cached values; Excel and LibreOffice read the cells when opening).
const IN_MEMORY_VALUES: usize = 200_000;

/// Series in one chart: Excel draws at most 255; a path with more lanes gets several charts,
/// laid over one another.
const MAX_SERIES: usize = 255;

/// The widest board whose path is drawn: `2 * cols + 1` categories and a label fill a row of
/// the sheet's 16,384 columns.
pub(crate) const MAX_DRAWN_COLS: u32 = (SHEET_COLS - 2) / 2;

/// Whether `tour` has a line to draw on a board the sheet can chart.
pub(crate) fn drawable(tour: &Tour) -> bool {
    path_points(tour) >= 2 && tour.board().cols() <= MAX_DRAWN_COLS
}

/// Points of the drawn path: every square in move order, and for a closed tour the start once
/// more, so the line draws the closing move.
pub(crate) fn path_points(tour: &Tour) -> usize {
    tour.len() + usize::from(tour.is_closed())
}

/// How a path is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Drawing {
    /// Transparent, over the board's own cells.
    OverCells,
    /// On a board of its own: the squares' grid, and a dot on each square visited (a tour
    /// written as a list has no board on the sheet).
    Picture,
}

/// Point `k` of the drawn path as (category, height).
fn point(tour: &Tour, k: usize) -> (u32, f64) {
    let indices = tour.indices();
    let idx = indices.get(k).or(indices.first()).copied().unwrap_or(0);
    let sq = tour.board().square_at(idx);
    (
        2 * sq.col + 1,
        f64::from(tour.board().rows() - sq.row) - 0.5,
    )
}

/// A run: points `from..=to` of the path, whose categories only grow or only shrink.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Run {
    from: usize,
    to: usize,
}

/// The path cut into runs at every change of direction (neighbouring runs share a point).
fn runs(tour: &Tour) -> Vec<Run> {
    let n = path_points(tour);
    let mut out = Vec::new();
    let mut from = 0;
    for k in 1..n.saturating_sub(1) {
        let (a, b, c) = (point(tour, k - 1).0, point(tour, k).0, point(tour, k + 1).0);
        if (b > a) != (c > b) {
            out.push(Run { from, to: k });
            from = k;
        }
    }
    if n >= 2 {
        out.push(Run { from, to: n - 1 });
    }
    out
}

/// The categories `run` spans, `(lowest, highest)`.
fn span(tour: &Tour, run: Run) -> (u32, u32) {
    let (a, b) = (point(tour, run.from).0, point(tour, run.to).0);
    (a.min(b), a.max(b))
}

/// The runs packed into lanes (one series each), fewest lanes first: runs sorted by their
/// lowest category go to the lane that ended longest ago when a blank category is left between
/// (interval partitioning, which needs as many lanes as runs overlap at worst).
fn lanes(tour: &Tour) -> Vec<Vec<Run>> {
    let mut all = runs(tour);
    all.sort_by_key(|&r| (span(tour, r).0, r.from));
    let mut lanes: Vec<Vec<Run>> = Vec::new();
    let mut ends: BinaryHeap<Reverse<(u32, usize)>> = BinaryHeap::new();
    for run in all {
        let (lo, hi) = span(tour, run);
        let lane = match ends.peek() {
            Some(&Reverse((end, lane))) if end + 2 <= lo => {
                ends.pop();
                lane
            }
            _ => {
                lanes.push(Vec::new());
                lanes.len() - 1
            }
        };
        lanes[lane].push(run);
        ends.push(Reverse((hi, lane)));
    }
    lanes
}

/// The values of one lane, `(category, height)` in category order: every category its runs
/// span, the heights between two points on the straight line joining them.
fn lane_values(tour: &Tour, lane: &[Run]) -> Vec<(u32, f64)> {
    let mut out = Vec::new();
    for &run in lane {
        let mut points: Vec<(u32, f64)> = (run.from..=run.to).map(|k| point(tour, k)).collect();
        if points.first().map(|p| p.0) > points.last().map(|p| p.0) {
            points.reverse();
        }
        for pair in points.windows(2) {
            let ((c1, y1), (c2, y2)) = (pair[0], pair[1]);
            for c in c1..c2 {
                out.push((c, y1 + (y2 - y1) * f64::from(c - c1) / f64::from(c2 - c1)));
            }
        }
        out.extend(points.last().copied());
    }
    out
}

/// One path's rows on the hidden sheet.
struct Planned<'a> {
    label: &'a str,
    tour: &'a Tour,
    drawing: Drawing,
    first_row: u32,
    lanes: Vec<Vec<Run>>,
}

impl Planned<'_> {
    /// The board rows holding a square of the path, for the dots of a picture.
    fn dot_rows(&self) -> Vec<u32> {
        if self.drawing != Drawing::Picture {
            return Vec::new();
        }
        let mut rows: Vec<u32> = self.tour.squares().map(|s| s.row).collect();
        rows.sort_unstable();
        rows.dedup();
        rows
    }

    /// Rows this path takes: its frame, its lanes, and for a picture one row of dots per
    /// board row visited and one for the grid.
    fn row_count(&self) -> usize {
        let extra = match self.drawing {
            Drawing::OverCells => 0,
            Drawing::Picture => self.dot_rows().len() + 1,
        };
        1 + self.lanes.len() + extra
    }

    /// The series of the path's line charts, in the order of its rows.
    fn series(&self) -> Vec<Series> {
        let mut series = vec![Series::Frame];
        series.extend(self.lanes.iter().map(|_| Series::Line));
        if self.drawing == Drawing::Picture {
            series.extend(self.dot_rows().iter().map(|_| Series::Dots));
        }
        series
    }

    /// Charts drawing the path: its series [`MAX_SERIES`] a chart, and a picture's grid.
    fn charts(&self) -> usize {
        let grid = usize::from(self.drawing == Drawing::Picture);
        self.series().len().div_ceil(MAX_SERIES) + grid
    }
}

/// The hidden `Path data` sheet, planned before the sheets that draw from it are written (each
/// chart names its rows). Each row is one series, its value for category `k` in column `k`
/// (blank where it has none), then a label.
#[derive(Default)]
pub(crate) struct PathData<'a> {
    paths: Vec<Planned<'a>>,
    rows: usize,
    values: usize,
}

impl<'a> PathData<'a> {
    /// Plan `tour`'s rows under `label`, to be drawn at a cell with `rows_above` rows above
    /// it; its slot, or `None` when it cannot be drawn (fewer than two points, a board wider
    /// than [`MAX_DRAWN_COLS`], more charts than rows above to anchor them, or the sheet's rows
    /// used up).
    pub(crate) fn add(
        &mut self,
        label: &'a str,
        tour: &'a Tour,
        drawing: Drawing,
        rows_above: u32,
    ) -> Option<usize> {
        if !drawable(tour) {
            return None;
        }
        let lanes = lanes(tour);
        let planned = Planned {
            label,
            tour,
            drawing,
            first_row: self.rows as u32,
            lanes,
        };
        let rows = planned.row_count();
        if self.rows + rows > SHEET_ROWS as usize || planned.charts() > rows_above as usize + 1 {
            return None;
        }
        self.rows += rows;
        self.values += path_points(tour) * 3;
        self.paths.push(planned);
        Some(self.paths.len() - 1)
    }

    /// Whether no path is planned.
    pub(crate) fn is_empty(&self) -> bool {
        self.paths.is_empty()
    }

    /// Lay the charts of path `slot` with their top-left corner at `at`, each square `look`
    /// big: over the board's cells, or as a picture of a board of its own. The rows above
    /// `at` are `row_px` high: a sheet keeps one chart per anchor cell, so the second chart is
    /// anchored a row higher and moved down a row, and so on.
    pub(crate) fn insert(
        &self,
        sheet: &mut Worksheet,
        at: CellRef,
        slot: usize,
        look: Look,
        row_px: u32,
    ) -> Result<(), XlsxError> {
        let Some(path) = self.paths.get(slot) else {
            return Ok(());
        };
        let board = path.tour.board();
        let last_col = 2 * board.cols();
        let crowded = board.rows().max(board.cols()) > 12;
        let line = ChartFormat::new()
            .set_line(
                ChartLine::new()
                    .set_color(PATH_LINE)
                    .set_width(if crowded { 0.5 } else { 0.75 })
                    .set_transparency(30),
            )
            .clone();
        let mut anchors = (0..=at.row).map(|k| (at.row - k, k * row_px));
        let mut put = |sheet: &mut Worksheet, chart: &Chart| match anchors.next() {
            Some((r, y)) => sheet
                .insert_chart_with_offset(r, at.col as u16, chart, 0, y)
                .map(|_| ()),
            None => Ok(()),
        };
        let mut row = path.first_row;
        if path.drawing == Drawing::Picture {
            put(sheet, &grid_chart(board, look, row))?;
            row += 1;
        }
        for chunk in path.series().chunks(MAX_SERIES) {
            let mut chart = board_chart(board, look);
            for kind in chunk {
                let s =
                    chart
                        .add_series()
                        .set_values((PATH_DATA_SHEET, row, 0, row, last_col as u16));
                row += 1;
                match kind {
                    Series::Frame => {}
                    Series::Line => {
                        s.set_format(&mut line.clone());
                    }
                    Series::Dots => {
                        s.set_format(ChartFormat::new().set_no_line()).set_marker(
                            ChartMarker::new()
                                .set_type(ChartMarkerType::Circle)
                                .set_size(3)
                                .set_format(
                                    ChartFormat::new()
                                        .set_solid_fill(ChartSolidFill::new().set_color(PATH_LINE))
                                        .set_border(ChartLine::new().set_color(PATH_LINE)),
                                ),
                        );
                    }
                }
            }
            put(sheet, &chart)?;
        }
        Ok(())
    }

    /// Add the hidden sheet holding every planned path's values.
    pub(crate) fn write(&self, workbook: &mut Workbook) -> Result<(), XlsxError> {
        let sheet = if self.values > IN_MEMORY_VALUES {
            workbook.add_worksheet_with_constant_memory()?
        } else {
            workbook.add_worksheet()
        };
        sheet.set_name(PATH_DATA_SHEET)?;
        sheet.set_hidden(true);
        for path in &self.paths {
            let mut row = path.first_row;
            let label_col = (2 * path.tour.board().cols() + 1) as u16;
            let mut put = |sheet: &mut Worksheet, label: String, values: &[(u32, f64)]| {
                for &(c, y) in values {
                    sheet.write_number(row, c as u16, y)?;
                }
                sheet.write_string(row, label_col, label)?;
                row += 1;
                Ok::<(), XlsxError>(())
            };
            if path.drawing == Drawing::Picture {
                let columns = path.tour.board().cols();
                let full: Vec<(u32, f64)> = (0..columns)
                    .map(|c| (c, f64::from(path.tour.board().rows())))
                    .collect();
                put(sheet, format!("{} grid", path.label), &full)?;
            }
            // Two lone points on the board's edges, which draw nothing: Gnumeric spreads the
            // categories only as far as the longest series' last value, and no lane has one
            // on the right edge.
            let edges = [(0, 0.0), (2 * path.tour.board().cols(), 0.0)];
            put(sheet, format!("{} frame", path.label), &edges)?;
            for (i, lane) in path.lanes.iter().enumerate() {
                let label = format!("{} path {}", path.label, i + 1);
                put(sheet, label, &lane_values(path.tour, lane))?;
            }
            if path.drawing == Drawing::Picture {
                let board = path.tour.board();
                for r in path.dot_rows() {
                    let mut cols: Vec<u32> = path
                        .tour
                        .squares()
                        .filter(|s| s.row == r)
                        .map(|s| s.col)
                        .collect();
                    cols.sort_unstable();
                    let y = f64::from(board.rows() - r) - 0.5;
                    let values: Vec<(u32, f64)> = cols.iter().map(|&c| (2 * c + 1, y)).collect();
                    put(sheet, format!("{} squares", path.label), &values)?;
                }
            }
        }
        Ok(())
    }
}

/// What a series of a path's chart draws.
#[derive(Clone, Copy)]
enum Series {
    /// Two lone points on the board's left and right edges.
    Frame,
    /// A lane of the path.
    Line,
    /// The squares of one board row visited.
    Dots,
}

fn grid_line() -> ChartLine {
    ChartLine::new().set_color(0xA6A6A6).set_width(0.5).clone()
}

/// A chart exactly over `board`'s cells: transparent, no axes, title or legend shown.
fn overlay(chart_type: ChartType, board: Board, look: Look) -> Chart {
    let mut chart = Chart::new(chart_type);
    chart
        .set_name("Knight's path")
        .set_alt_text("The knight's path over the board, from the yellow start square")
        .set_width(board.cols() * look.cell_px)
        .set_height(board.rows() * look.row_px)
        .show_hidden_data();
    chart
        .x_axis()
        .set_hidden(true)
        .set_major_gridlines(false)
        .set_minor_gridlines(false);
    chart
        .y_axis()
        .set_min(0)
        .set_max(board.rows())
        .set_hidden(true)
        .set_major_gridlines(false)
        .set_minor_gridlines(false);
    chart.title().set_hidden();
    chart.legend().set_hidden();
    let transparent = ChartFormat::new().set_no_fill().set_no_border().clone();
    chart.chart_area().set_format(&mut transparent.clone());
    chart
        .plot_area()
        .set_format(&mut transparent.clone())
        .set_layout(
            &ChartLayout::new()
                .set_offset(0.0, 0.0)
                .set_dimensions(1.0, 1.0),
        );
    chart
}

/// The line chart a path's series go in: categories on the tick marks, so category 0 is the
/// board's left edge.
fn board_chart(board: Board, look: Look) -> Chart {
    let mut chart = overlay(ChartType::Line, board, look);
    chart.x_axis().set_position_between_ticks(false);
    chart
}

/// The squares of a picture: a column chart of one column per board column, each as high as
/// the board, outlined and not filled, side by side (their outlines are the grid's vertical
/// lines), with the value axis' gridlines for the horizontal ones. Error bars, drop lines and
/// category gridlines would do the same in Excel, but LibreOffice or Gnumeric do not draw them.
/// Its values are path-data row `row`.
fn grid_chart(board: Board, look: Look, row: u32) -> Chart {
    let mut chart = overlay(ChartType::Column, board, look);
    chart
        .y_axis()
        .set_major_unit(1)
        .set_major_gridlines(true)
        .set_major_gridlines_line(&grid_line());
    chart.plot_area().set_format(
        ChartFormat::new()
            .set_no_fill()
            .set_border(ChartLine::new().set_color(0x000000).set_width(1.5)),
    );
    chart
        .add_series()
        .set_values((PATH_DATA_SHEET, row, 0, row, (board.cols() - 1) as u16))
        .set_gap(0)
        .set_format(ChartFormat::new().set_no_fill().set_line(&grid_line()));
    chart
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
    use crate::solve::{construct, warnsdorff, Tiebreak};

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

    /// The moves a lane's values draw, each as a pair of squares (lowest first): the
    /// stretches of neighbouring categories, cut at the square centres they pass (odd
    /// categories at a height ending in .5).
    fn drawn_moves(board: Board, values: &[(u32, f64)]) -> Vec<(Square, Square)> {
        let mut out = Vec::new();
        let mut last: Option<(u32, Square)> = None;
        for &(c, y) in values {
            if last.is_some_and(|(lc, _)| lc + 1 != c) {
                last = None;
            }
            let centre = c % 2 == 1 && (y - 0.5).fract() == 0.0;
            if centre {
                let sq = Square::new(board.rows() - (y + 0.5) as u32, c / 2);
                if let Some((_, from)) = last {
                    out.push((from.min(sq), from.max(sq)));
                }
                last = Some((c, sq));
            } else if let Some((_, from)) = last {
                last = Some((c, from));
            }
        }
        out
    }

    fn moves_of(tour: &Tour) -> Vec<(Square, Square)> {
        let board = tour.board();
        let mut out: Vec<(Square, Square)> = (1..path_points(tour))
            .map(|k| {
                let a = board.square_at(tour.indices()[k - 1]);
                let b = board.square_at(tour.indices()[k % tour.len()]);
                (a.min(b), a.max(b))
            })
            .collect();
        out.sort();
        out
    }

    #[test]
    fn lanes_draw_every_move_once_and_keep_their_runs_apart() {
        for (rows, cols, seed) in [(8, 8, 1), (5, 6, 2), (3, 4, 3), (12, 9, 4), (1, 1, 5)] {
            let board = Board::new(rows, cols).unwrap();
            let mut rng = crate::solve::rng_from_seed(seed);
            let walk = warnsdorff::attempt(board, Square::new(0, 0), Tiebreak::Random, &mut rng);
            let lanes = lanes(&walk);
            let mut drawn = Vec::new();
            for lane in &lanes {
                let values = lane_values(&walk, lane);
                assert!(values.windows(2).all(|w| w[0].0 < w[1].0), "{values:?}");
                drawn.extend(drawn_moves(board, &values));
            }
            drawn.sort();
            assert_eq!(drawn, moves_of(&walk), "{rows}x{cols}");
        }
    }

    #[test]
    fn a_closed_tour_draws_its_closing_move() {
        let open = crate::tour::tests::tour_3x4();
        let closed = construct::closed_tour(Board::new(6, 6).unwrap()).unwrap();
        assert!(closed.is_closed());
        for t in [open, closed] {
            let mut drawn: Vec<_> = lanes(&t)
                .iter()
                .flat_map(|l| drawn_moves(t.board(), &lane_values(&t, l)))
                .collect();
            drawn.sort();
            assert_eq!(drawn, moves_of(&t));
            assert_eq!(drawn.len(), t.len() - 1 + usize::from(t.is_closed()));
        }
    }

    #[test]
    fn an_8x8_tour_takes_a_few_lanes() {
        let board = Board::new(8, 8).unwrap();
        let mut rng = crate::solve::rng_from_seed(7);
        let walk = warnsdorff::attempt(board, Square::new(0, 0), Tiebreak::Random, &mut rng);
        let n = lanes(&walk).len();
        assert!((2..40).contains(&n), "{n} lanes");
    }
}
