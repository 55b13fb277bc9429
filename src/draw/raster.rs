//! Rasterising: a pixel canvas (true colour for PNG, palette indices for GIF) and the few
//! shapes a tour picture needs: squares, thick anti-aliased segments, discs and rings.
//!
//! Shapes report coverage per pixel (0..1); the RGB canvas blends by it (anti-aliasing), the
//! indexed canvas paints pixels at least half covered (plain lines, a fixed palette).

use std::io;

use crate::output::write_budget::{TimedOut, Work, WriteBudget};

use crate::board::Square;
use crate::english::{a_board, with_article};

use super::font::Font;
use super::geometry::Geometry;
use super::scene::{Mark, Point, Scene};

/// Largest raster side in pixels (GIF allows 65535; memory is the real limit).
pub const MAX_RASTER_SIDE: u32 = 16_384;
/// Largest raster area in pixels (64 megapixels, 192 MB as RGB).
pub const MAX_RASTER_PIXELS: u64 = 64 * 1024 * 1024;

pub use super::scene::Ink;

/// Something shapes can be painted on.
pub(crate) trait Canvas {
    /// Width and height in pixels.
    fn size(&self) -> (u32, u32);

    /// Paint pixel `(x, y)` (on the canvas) with `ink` covering `coverage` (0..=1) of it.
    fn paint(&mut self, x: u32, y: u32, ink: Ink, coverage: f32);

    /// Fill the rectangle `x0..x1, y0..y1`, clipped to the canvas.
    fn fill_rect(&mut self, x0: u32, y0: u32, x1: u32, y1: u32, ink: Ink) {
        let (w, h) = self.size();
        for y in y0..y1.min(h) {
            for x in x0..x1.min(w) {
                self.paint(x, y, ink, 1.0);
            }
        }
    }
}

/// Refuse rasters too large to hold in memory, with the sizes in the message.
pub fn check_raster_size(geom: &Geometry) -> io::Result<()> {
    let (w, h) = (geom.width(), geom.height());
    if w > MAX_RASTER_SIDE || h > MAX_RASTER_SIDE || u64::from(w) * u64::from(h) > MAX_RASTER_PIXELS
    {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{} pixel picture of {} is too large to rasterise \
                 (at most {MAX_RASTER_SIDE} px a side and {MAX_RASTER_PIXELS} pixels); \
                 choose a smaller size or SVG",
                with_article(&format!("{w}x{h}")),
                a_board(geom.board())
            ),
        ));
    }
    Ok(())
}

/// True-colour pixels, RGB, row-major.
pub(crate) struct RgbCanvas {
    width: u32,
    height: u32,
    /// 3 bytes a pixel.
    pub data: Vec<u8>,
}

impl RgbCanvas {
    pub fn new(width: u32, height: u32) -> RgbCanvas {
        RgbCanvas {
            width,
            height,
            data: vec![255; width as usize * height as usize * 3],
        }
    }
}

impl Canvas for RgbCanvas {
    fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    fn paint(&mut self, x: u32, y: u32, ink: Ink, coverage: f32) {
        let i = (y as usize * self.width as usize + x as usize) * 3;
        let src = ink.rgb();
        let px = &mut self.data[i..i + 3];
        if coverage >= 1.0 {
            px.copy_from_slice(&src);
        } else {
            for (d, s) in px.iter_mut().zip(src) {
                let v = f32::from(*d) + (f32::from(s) - f32::from(*d)) * coverage;
                *d = (v + 0.5) as u8;
            }
        }
    }
}

/// Palette-index pixels that remember which pixels changed since [`IndexCanvas::begin`], so
/// an animation frame can be just the changed rectangle.
pub(crate) struct IndexCanvas {
    width: u32,
    height: u32,
    /// One palette index a pixel.
    pub data: Vec<u8>,
    stamp: Vec<u32>,
    frame: u32,
    dirty: Option<(u32, u32, u32, u32)>,
}

impl IndexCanvas {
    pub fn new(width: u32, height: u32) -> IndexCanvas {
        let n = width as usize * height as usize;
        IndexCanvas {
            width,
            height,
            data: vec![0; n],
            stamp: vec![0; n],
            frame: 0,
            dirty: None,
        }
    }

    /// Start a new frame: forget what changed before.
    pub fn begin(&mut self) {
        self.frame += 1;
        self.dirty = None;
    }

    /// The rectangle `(x0, y0, x1, y1)` (end exclusive) painted since [`IndexCanvas::begin`].
    pub fn dirty(&self) -> Option<(u32, u32, u32, u32)> {
        self.dirty
    }

    /// The pixels of `rect`, those not painted this frame replaced by `transparent`.
    pub fn changes(&self, rect: (u32, u32, u32, u32), transparent: u8) -> Vec<u8> {
        let (x0, y0, x1, y1) = rect;
        let mut out = Vec::with_capacity(((x1 - x0) * (y1 - y0)) as usize);
        for y in y0..y1 {
            let row = y as usize * self.width as usize;
            for x in x0..x1 {
                let i = row + x as usize;
                out.push(if self.stamp[i] == self.frame {
                    self.data[i]
                } else {
                    transparent
                });
            }
        }
        out
    }
}

impl Canvas for IndexCanvas {
    fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    fn paint(&mut self, x: u32, y: u32, ink: Ink, coverage: f32) {
        if coverage < 0.5 {
            return;
        }
        let i = y as usize * self.width as usize + x as usize;
        self.data[i] = ink as u8;
        self.stamp[i] = self.frame;
        self.dirty = Some(match self.dirty {
            None => (x, y, x + 1, y + 1),
            Some((x0, y0, x1, y1)) => (x0.min(x), y0.min(y), x1.max(x + 1), y1.max(y + 1)),
        });
    }
}

/// Pixels whose centres lie within `reach` of the box `lo..hi`, clipped to the canvas.
fn pixel_box(size: (u32, u32), lo: (f64, f64), hi: (f64, f64), reach: f64) -> (u32, u32, u32, u32) {
    let clip = |v: f64, max: u32| v.clamp(0.0, f64::from(max)) as u32;
    (
        clip((lo.0 - reach - 1.0).floor(), size.0),
        clip((lo.1 - reach - 1.0).floor(), size.1),
        clip((hi.0 + reach + 1.0).ceil(), size.0),
        clip((hi.1 + reach + 1.0).ceil(), size.1),
    )
}

/// A segment `a`-`b`, `width` pixels thick with round ends.
pub(crate) fn stroke(canvas: &mut impl Canvas, a: (f64, f64), b: (f64, f64), width: f64, ink: Ink) {
    let half = width / 2.0;
    let lo = (a.0.min(b.0), a.1.min(b.1));
    let hi = (a.0.max(b.0), a.1.max(b.1));
    let (x0, y0, x1, y1) = pixel_box(canvas.size(), lo, hi, half);
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let inv_len2 = if len2 > 0.0 { 1.0 / len2 } else { 0.0 };
    let reach = half + 0.5;
    for y in y0..y1 {
        let py = f64::from(y) + 0.5 - a.1;
        for x in x0..x1 {
            let px = f64::from(x) + 0.5 - a.0;
            let t = ((px * dx + py * dy) * inv_len2).clamp(0.0, 1.0);
            let (ex, ey) = (px - t * dx, py - t * dy);
            let d2 = ex * ex + ey * ey;
            if d2 < reach * reach {
                let cover = (reach - d2.sqrt()).min(1.0);
                canvas.paint(x, y, ink, cover as f32);
            }
        }
    }
}

/// A ring between radii `inner` and `outer` around `c`; `inner = 0` gives a disc.
pub(crate) fn ring(canvas: &mut impl Canvas, c: (f64, f64), outer: f64, inner: f64, ink: Ink) {
    let (x0, y0, x1, y1) = pixel_box(canvas.size(), c, c, outer);
    for y in y0..y1 {
        for x in x0..x1 {
            let (ex, ey) = (f64::from(x) + 0.5 - c.0, f64::from(y) + 0.5 - c.1);
            let d = (ex * ex + ey * ey).sqrt();
            let mut cover = (outer + 0.5 - d).clamp(0.0, 1.0);
            if inner > 0.0 {
                cover = cover.min((d - inner + 0.5).clamp(0.0, 1.0));
            }
            if cover > 0.0 {
                canvas.paint(x, y, ink, cover as f32);
            }
        }
    }
}

/// A square in its colour from the scene, greyed unless `visited`.
pub(crate) fn paint_square(canvas: &mut impl Canvas, scene: &Scene<'_>, sq: Square, visited: bool) {
    let (x0, y0, x1, y1) = scene.geom.square_pixels(sq);
    canvas.fill_rect(x0, y0, x1, y1, scene.square_ink(sq, visited));
}

/// One move of the path (or the closing move) from `a` to `b`.
pub(crate) fn paint_segment(
    canvas: &mut impl Canvas,
    scene: &Scene<'_>,
    a: Point,
    b: Point,
    ink: Ink,
) {
    stroke(canvas, a, b, scene.line_width(), ink);
}

/// Move number `n` in its square, if the scene draws numbers, on a patch of the square's own
/// colour a font pixel wider than the digits: the path and the marks under it never cover it.
pub(crate) fn paint_number(canvas: &mut impl Canvas, scene: &Scene<'_>, sq: Square, n: usize) {
    if let Some(layout) = &scene.numbers {
        let square = scene.geom.square_pixels(sq);
        let (x, y, x1, y1) = layout.text_rect(square, n);
        let pad = layout.scale;
        canvas.fill_rect(
            x.saturating_sub(pad).max(square.0),
            y.saturating_sub(pad).max(square.1),
            (x1 + pad).min(square.2),
            (y1 + pad).min(square.3),
            scene.square_ink(sq, scene.visited(sq)),
        );
        draw_digits(canvas, &layout.font, (x, y), layout.scale, n, Ink::Text);
    }
}

/// A mark as the scene shapes it.
pub(crate) fn paint_mark(canvas: &mut impl Canvas, mark: Mark) {
    match mark {
        Mark::Disc {
            centre,
            radius,
            ink,
        } => ring(canvas, centre, radius, 0.0, ink),
        Mark::Ring {
            centre,
            outer,
            inner,
            ink,
        } => ring(canvas, centre, outer, inner, ink),
        Mark::Stuck {
            centre: c,
            radius,
            stroke: w,
            arm: k,
        } => {
            ring(canvas, c, radius, 0.0, Ink::White);
            ring(canvas, c, radius, radius - w, Ink::End);
            stroke(canvas, (c.0 - k, c.1 - k), (c.0 + k, c.1 + k), w, Ink::End);
            stroke(canvas, (c.0 - k, c.1 + k), (c.0 + k, c.1 - k), w, Ink::End);
        }
    }
}

/// Draw the decimal digits of `n` in `font` with their top-left corner at `(x, y)`, each font
/// pixel a `scale x scale` block; pixels off the canvas are skipped.
fn draw_digits(
    canvas: &mut impl Canvas,
    font: &Font,
    (x, y): (u32, u32),
    scale: u32,
    n: usize,
    ink: Ink,
) {
    let (w, h) = font.text_size(1, 1);
    for (i, ch) in n.to_string().bytes().enumerate() {
        let left = x + i as u32 * (w + 1) * scale;
        for fy in 0..h {
            for fx in 0..w {
                if font.pixel(ch - b'0', fx, fy) {
                    let (px, py) = (left + fx * scale, y + fy * scale);
                    canvas.fill_rect(px, py, px + scale, py + scale, ink);
                }
            }
        }
    }
}

/// The whole picture at once: board (unreached squares greyed), closing move and path, marks,
/// numbers (on top, each on a patch of its square's colour, to stay legible). PNG draws this;
/// so does the last GIF frame of a partial tour.
///
/// A stage of `budget` counting the path's moves (see [`crate::output::write_budget`]): the squares and
/// numbers are checked against its deadline too, a batch at a time.
pub(crate) fn paint_still(
    canvas: &mut impl Canvas,
    scene: &Scene<'_>,
    budget: &WriteBudget<'_>,
) -> Result<(), TimedOut> {
    let board = scene.geom.board();
    let _stage = budget.stage(Work::Moves, scene.tour.len().saturating_sub(1) as u64);
    for (i, sq) in board.squares().enumerate() {
        if i % BATCH == 0 {
            budget.step(0)?;
        }
        paint_square(canvas, scene, sq, scene.visited(sq));
    }
    if let Some((a, b)) = scene.closing() {
        paint_segment(canvas, scene, a, b, Ink::Closing);
    }
    let mut prev = None;
    for (i, p) in scene.path_points().enumerate() {
        if let Some(q) = prev {
            paint_segment(canvas, scene, q, p, Ink::Path);
            // `i` moves painted.
            if i % BATCH == 0 {
                budget.step(BATCH as u64)?;
            }
        }
        prev = Some(p);
    }
    for (_, mark) in scene.marks() {
        paint_mark(canvas, mark);
    }
    for (i, sq) in scene.tour.squares().enumerate() {
        if i % BATCH == 0 {
            budget.step(0)?;
        }
        paint_number(canvas, scene, sq, i + 1);
    }
    Ok(())
}

/// Squares or moves painted between two looks at the budget.
const BATCH: usize = 4096;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thick_segment_covers_its_axis_and_spares_the_rest() {
        let mut c = RgbCanvas::new(20, 20);
        stroke(&mut c, (2.5, 10.5), (17.5, 10.5), 3.0, Ink::Path);
        let at = |c: &RgbCanvas, x: usize, y: usize| {
            let i = (y * 20 + x) * 3;
            [c.data[i], c.data[i + 1], c.data[i + 2]]
        };
        for x in 2..18 {
            assert_eq!(at(&c, x, 10), Ink::Path.rgb(), "x={x}");
        }
        assert_eq!(at(&c, 10, 5), [255, 255, 255]);
        assert_eq!(at(&c, 10, 15), [255, 255, 255]);
    }

    #[test]
    fn indexed_canvas_tracks_changed_rectangle() {
        let mut c = IndexCanvas::new(10, 10);
        c.begin();
        c.fill_rect(0, 0, 10, 10, Ink::Light);
        c.begin();
        ring(&mut c, (5.0, 5.0), 2.0, 0.0, Ink::Start);
        let (x0, y0, x1, y1) = c.dirty().unwrap();
        assert!(x0 >= 2 && y0 >= 2 && x1 <= 8 && y1 <= 8);
        let px = c.changes((0, 0, 10, 10), 255);
        assert_eq!(px[5 * 10 + 5], Ink::Start as u8);
        assert_eq!(px[0], 255, "unchanged pixels are transparent");
    }
}
