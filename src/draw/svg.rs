//! SVG: a text drawing that scales without loss. The board is one rectangle filled with a
//! two-by-two-square pattern and the path is one `<polyline>`, so even a 1000x1000 tour is a
//! handful of elements (the polyline's points dominate the size).

use std::fmt::Write as _;

use crate::board::Square;
use crate::english::a_board;
use crate::output::write_budget::{TimedOut, Work, WriteBudget};
use crate::tour::Tour;

use super::geometry::NumberLayout;
use super::scene::{Ink, Mark, Scene};
use super::DrawOptions;

/// Draw `tour` as an SVG document.
///
/// Elements, by class: `board` (the squares), `unvisited` (one path greying the squares a
/// partial tour never reached), `numbers` (a group of `<text>`, where legible), `closing` (the
/// move back to the start of a closed tour), `path` (a `<polyline>` through the square
/// centres in move order: its points are [`Geometry::square_centre`](super::geometry::Geometry::square_centre) of each square, rounded
/// to 0.01 px), `start`, `end` and `stuck` (markers).
///
/// ```
/// # use knights_tour::board::{Board, Square};
/// # use knights_tour::tour::Tour;
/// use knights_tour::draw::{svg, DrawOptions};
/// let tour = Tour::from_squares(Board::new(5, 5).unwrap(), [Square::new(0, 0), Square::new(1, 2)]).unwrap();
/// let doc = svg(&tour, &DrawOptions { size_px: Some(100), ..DrawOptions::default() });
/// assert!(doc.contains(r#"<polyline class="path""#));
/// assert!(doc.contains(r#"points="10,10 50,30""#));
/// ```
pub fn svg(tour: &Tour, opts: &DrawOptions) -> String {
    // Without a deadline nothing gives up.
    render(&Scene::new(tour, opts), &WriteBudget::unlimited()).unwrap_or_default()
}

/// [`svg`] within `budget`: the path's moves are the steps of its stage (see
/// [`crate::output::write_budget`]).
pub(crate) fn svg_within(
    tour: &Tour,
    opts: &DrawOptions,
    budget: &WriteBudget<'_>,
) -> Result<String, TimedOut> {
    render(&Scene::new(tour, opts), budget)
}

/// The SVG document of `scene`.
fn render(scene: &Scene<'_>, budget: &WriteBudget<'_>) -> Result<String, TimedOut> {
    let geom = &scene.geom;
    let tour = scene.tour;
    let mut s = String::with_capacity(1024 + tour.len() * 14);
    let (w, h, c) = (geom.width(), geom.height(), num(geom.cell()));
    let _ = writeln!(s, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">"#
    );
    let _ = writeln!(s, "<title>{}</title>", title(tour));
    let c2 = num(geom.cell() * 2.0);
    // A two-by-two pattern starting with the top-left square's colour (a1 is dark on any
    // board, so on an odd number of ranks the top-left square is dark too).
    let light = scene.square_ink(Square::new(0, 0), true);
    let dark = if light == Ink::Light {
        Ink::Dark
    } else {
        Ink::Light
    };
    let _ = writeln!(
        s,
        r#"<defs><pattern id="squares" width="{c2}" height="{c2}" patternUnits="userSpaceOnUse"><rect width="{c2}" height="{c2}" fill="{light}"/><rect x="{c}" width="{c}" height="{c}" fill="{dark}"/><rect y="{c}" width="{c}" height="{c}" fill="{dark}"/></pattern></defs>"#,
        light = light.hex(),
        dark = dark.hex(),
    );
    let _ = writeln!(
        s,
        r#"<rect class="board" width="{w}" height="{h}" fill="url(#squares)"/>"#
    );
    unvisited(&mut s, scene);
    path(&mut s, scene, budget)?;
    for (kind, mark) in scene.marks() {
        write_mark(&mut s, kind.class(), mark);
    }
    // Numbers last, each outlined in its square's colour: the path and the marks never
    // cover one.
    if let Some(layout) = scene.numbers {
        numbers(&mut s, scene, layout);
    }
    s.push_str("</svg>\n");
    Ok(s)
}

/// What the picture shows, for `<title>`.
fn title(tour: &Tour) -> String {
    let board = tour.board();
    let kind = if tour.is_closed() {
        "closed knight's tour"
    } else if tour.is_complete() {
        "open knight's tour"
    } else {
        "partial knight's path"
    };
    format!(
        "{kind} on {}, {} of {} squares",
        a_board(board),
        tour.len(),
        board.len()
    )
}

/// A coordinate rounded to 0.01, written as briefly as possible (`25`, `62.5`).
fn num(v: f64) -> String {
    let r = (v * 100.0).round() / 100.0;
    format!("{r}")
}

/// Grey the squares the path never reached (a grey veil that keeps a hint of the
/// checkerboard), one subpath per horizontal run.
fn unvisited(s: &mut String, scene: &Scene<'_>) {
    if scene.tour.is_complete() {
        return;
    }
    let board = scene.geom.board();
    let c = scene.geom.cell();
    let _ = write!(
        s,
        r##"<path class="unvisited" fill="#a0a0a0" fill-opacity="0.8" d=""##
    );
    for row in 0..board.rows() {
        let mut col = 0;
        while col < board.cols() {
            let empty = |col: u32| !scene.visited(Square::new(row, col));
            if !empty(col) {
                col += 1;
                continue;
            }
            let start = col;
            while col < board.cols() && empty(col) {
                col += 1;
            }
            let _ = write!(
                s,
                "M{} {}h{}v{}h-{}z",
                num(f64::from(start) * c),
                num(f64::from(row) * c),
                num(f64::from(col - start) * c),
                num(c),
                num(f64::from(col - start) * c),
            );
        }
    }
    s.push_str("\"/>\n");
}

/// Move numbers, laid out as the scene says.
fn numbers(s: &mut String, scene: &Scene<'_>, layout: NumberLayout) {
    let geom = &scene.geom;
    let c = geom.cell();
    let (size, anchor) = if layout.centred {
        (c * 0.4, "middle")
    } else {
        (c * 0.26, "start")
    };
    let _ = writeln!(
        s,
        r#"<g class="numbers" font-family="sans-serif" font-size="{}" text-anchor="{anchor}" fill="{}">"#,
        num(size),
        Ink::Text.hex()
    );
    for (i, sq) in scene.tour.squares().enumerate() {
        let (cx, cy) = geom.square_centre(sq);
        let (x, y) = if layout.centred {
            (cx, cy + size * 0.35)
        } else {
            (cx - c * 0.42, cy - c * 0.5 + c * 0.08 + size * 0.8)
        };
        let halo = scene.square_ink(sq, true).hex();
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" stroke="{halo}" stroke-width="{}" paint-order="stroke">{}</text>"#,
            num(x),
            num(y),
            num(size * 0.2),
            i + 1
        );
    }
    s.push_str("</g>\n");
}

/// The closing move (closed tours) and the path as one polyline.
fn path(s: &mut String, scene: &Scene<'_>, budget: &WriteBudget<'_>) -> Result<(), TimedOut> {
    if !scene.path {
        return Ok(());
    }
    let _stage = budget.stage(Work::Moves, scene.tour.len().saturating_sub(1) as u64);
    let lw = num(scene.line_width());
    if let Some(((x1, y1), (x2, y2))) = scene.closing() {
        let _ = writeln!(
            s,
            r#"<line class="closing" x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="{lw}" stroke-linecap="round"/>"#,
            num(x1),
            num(y1),
            num(x2),
            num(y2),
            Ink::Closing.hex()
        );
    }
    let _ = write!(
        s,
        r#"<polyline class="path" fill="none" stroke="{}" stroke-width="{lw}" stroke-linejoin="round" stroke-linecap="round" points=""#,
        Ink::Path.hex()
    );
    for (i, (x, y)) in scene.path_points().enumerate() {
        if i > 0 {
            s.push(' ');
            // `i` moves written.
            if i % MOVES_A_STEP == 0 {
                budget.step(MOVES_A_STEP as u64)?;
            }
        }
        let _ = write!(s, "{},{}", num(x), num(y));
    }
    s.push_str("\"/>\n");
    Ok(())
}

/// Moves written between two looks at the budget.
const MOVES_A_STEP: usize = 4096;

/// One mark, shaped as the scene says: a disc, a ring (a circle stroked between its radii),
/// or the stuck mark (a white disc with a red rim and a cross).
fn write_mark(s: &mut String, class: &str, mark: Mark) {
    let _ = match mark {
        Mark::Disc {
            centre,
            radius,
            ink,
        } => writeln!(
            s,
            r#"<circle class="{class}" cx="{}" cy="{}" r="{}" fill="{}"/>"#,
            num(centre.0),
            num(centre.1),
            num(radius),
            ink.hex()
        ),
        Mark::Ring {
            centre,
            outer,
            inner,
            ink,
        } => writeln!(
            s,
            r#"<circle class="{class}" cx="{}" cy="{}" r="{}" fill="none" stroke="{}" stroke-width="{}"/>"#,
            num(centre.0),
            num(centre.1),
            num((outer + inner) / 2.0),
            ink.hex(),
            num(outer - inner)
        ),
        Mark::Stuck {
            centre: (x, y),
            radius: r,
            stroke: w,
            arm: k,
        } => writeln!(
            s,
            r#"<g class="{class}" stroke="{red}" stroke-width="{}" stroke-linecap="round"><circle cx="{}" cy="{}" r="{}" fill="{white}"/><path d="M{} {}L{} {}M{} {}L{} {}"/></g>"#,
            num(w),
            num(x),
            num(y),
            num(r - w / 2.0),
            num(x - k),
            num(y - k),
            num(x + k),
            num(y + k),
            num(x - k),
            num(y + k),
            num(x + k),
            num(y - k),
            red = Ink::End.hex(),
            white = Ink::White.hex(),
        ),
    };
}
