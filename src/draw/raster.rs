//! Rasterising: a pixel canvas (true colour for PNG, palette indices for GIF) and the few
//! shapes a tour picture needs: squares, thick anti-aliased segments, discs and rings.
//!
//! Shapes report coverage per pixel (0..1); the RGB canvas blends by it (anti-aliasing), the
//! indexed canvas paints pixels at least half covered (plain lines, a fixed palette).

use std::io;

use crate::board::Square;
use crate::english::{a_board, with_article};
use crate::tour::Tour;

use super::geometry::{Geometry, NumberLayout};
use super::DrawOptions;

/// Largest raster side in pixels (GIF allows 65535; memory is the real limit).
pub const MAX_RASTER_SIDE: u32 = 16_384;
/// Largest raster area in pixels (64 megapixels, 192 MB as RGB).
pub const MAX_RASTER_PIXELS: u64 = 64 * 1024 * 1024;

/// The colours of a picture. Their order is the GIF palette order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Ink {
    /// Light squares.
    Light,
    /// Dark squares.
    Dark,
    /// Light squares the path never reached.
    LightUnvisited,
    /// Dark squares the path never reached.
    DarkUnvisited,
    /// The path.
    Path,
    /// The move from the last square back to the first of a closed tour.
    Closing,
    /// The start marker.
    Start,
    /// The end marker (and the stuck marker of a partial tour).
    End,
    /// Move numbers.
    Text,
    /// The cross inside the stuck marker.
    White,
}

impl Ink {
    /// Every ink, in palette order.
    pub const ALL: [Ink; 10] = [
        Ink::Light,
        Ink::Dark,
        Ink::LightUnvisited,
        Ink::DarkUnvisited,
        Ink::Path,
        Ink::Closing,
        Ink::Start,
        Ink::End,
        Ink::Text,
        Ink::White,
    ];

    /// The ink's colour as RGB.
    pub const fn rgb(self) -> [u8; 3] {
        match self {
            Ink::Light => [240, 217, 181],
            Ink::Dark => [181, 136, 99],
            Ink::LightUnvisited => [205, 205, 205],
            Ink::DarkUnvisited => [150, 150, 150],
            Ink::Path => [20, 60, 170],
            Ink::Closing => [110, 150, 230],
            Ink::Start => [20, 150, 60],
            Ink::End => [210, 30, 30],
            Ink::Text => [30, 30, 30],
            Ink::White => [255, 255, 255],
        }
    }

    /// The colour as `#rrggbb` for SVG.
    pub fn hex(self) -> String {
        let [r, g, b] = self.rgb();
        format!("#{r:02x}{g:02x}{b:02x}")
    }
}

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

/// The parts of a tour picture, drawn the same way on any canvas.
pub(crate) struct Painter<'a> {
    pub geom: &'a Geometry,
    pub numbers: Option<NumberLayout>,
}

impl<'a> Painter<'a> {
    /// A painter for `tour` drawn with `opts` at `geom`.
    pub fn new(geom: &'a Geometry, tour: &Tour, opts: &DrawOptions) -> Painter<'a> {
        Painter {
            geom,
            numbers: geom.number_layout(tour.len(), opts.numbers, opts.path),
        }
    }

    /// The move from the last square back to the first, if the tour is closed.
    pub fn closing(&self, canvas: &mut impl Canvas, tour: &Tour) {
        if let (true, Some(a), Some(b)) = (tour.is_closed(), tour.end(), tour.start()) {
            self.segment(canvas, a, b, Ink::Closing);
        }
    }

    /// The start marker, and the end (or stuck) marker.
    pub fn markers(&self, canvas: &mut impl Canvas, tour: &Tour) {
        if let Some(first) = tour.start() {
            self.start(canvas, first);
        }
        if let Some(last) = tour.end() {
            let stuck = !tour.is_complete();
            if stuck || tour.len() > 1 {
                self.end(canvas, last, stuck);
            }
        }
    }

    /// A square in its board colour (a1 dark), greyed if the path never reached it.
    pub fn square(&self, canvas: &mut impl Canvas, sq: Square, visited: bool) {
        let ink = match (self.geom.board().is_dark(sq), visited) {
            (false, true) => Ink::Light,
            (true, true) => Ink::Dark,
            (false, false) => Ink::LightUnvisited,
            (true, false) => Ink::DarkUnvisited,
        };
        let (x0, y0, x1, y1) = self.geom.square_pixels(sq);
        canvas.fill_rect(x0, y0, x1, y1, ink);
    }

    /// Move number `n` in its square (if numbers are drawn).
    pub fn number(&self, canvas: &mut impl Canvas, sq: Square, n: usize) {
        if let Some(layout) = &self.numbers {
            let (x, y, _, _) = layout.text_rect(self.geom.square_pixels(sq), n);
            layout
                .font
                .draw_number(canvas, (x, y), layout.scale, n, Ink::Text);
        }
    }

    /// The move from `a` to `b`.
    pub fn segment(&self, canvas: &mut impl Canvas, a: Square, b: Square, ink: Ink) {
        let g = self.geom;
        stroke(
            canvas,
            g.square_centre(a),
            g.square_centre(b),
            g.line_width(),
            ink,
        );
    }

    /// Markers are outlines around centred numbers (nothing else marks a square then), discs
    /// otherwise. Returns `(outer radius, inner radius)`, inner 0 for a disc.
    fn marker_shape(&self) -> (f64, f64) {
        match self.numbers {
            Some(layout) if layout.centred => {
                let r = self.geom.cell() * 0.45;
                (r, r - (self.geom.cell() * 0.07).max(1.0))
            }
            _ => (self.geom.marker_radius(), 0.0),
        }
    }

    /// The start marker: a green disc (or ring around the number).
    pub fn start(&self, canvas: &mut impl Canvas, sq: Square) {
        let (outer, inner) = self.marker_shape();
        ring(
            canvas,
            self.geom.square_centre(sq),
            outer,
            inner,
            Ink::Start,
        );
    }

    /// The end marker: a red disc (or ring around the number) for a complete tour; for a
    /// partial one (where the knight got stuck) a red ring with a cross.
    pub fn end(&self, canvas: &mut impl Canvas, sq: Square, stuck: bool) {
        let c = self.geom.square_centre(sq);
        let (outer, inner) = self.marker_shape();
        if !stuck || inner > 0.0 {
            ring(canvas, c, outer, inner, Ink::End);
            return;
        }
        let r = outer;
        let w = (r * 0.3).max(1.0);
        ring(canvas, c, r, 0.0, Ink::White);
        ring(canvas, c, r, r - w, Ink::End);
        let k = (r - w) * 0.6;
        stroke(canvas, (c.0 - k, c.1 - k), (c.0 + k, c.1 + k), w, Ink::End);
        stroke(canvas, (c.0 - k, c.1 + k), (c.0 + k, c.1 - k), w, Ink::End);
    }
}

/// The whole picture of `tour` at once: board (unreached squares greyed), path, numbers (on
/// top, to stay legible), markers. PNG draws this; so does the last GIF frame of a partial tour.
pub(crate) fn paint_still(
    canvas: &mut impl Canvas,
    geom: &Geometry,
    tour: &Tour,
    opts: &DrawOptions,
) {
    let board = tour.board();
    let numbering = tour.numbering();
    let painter = Painter::new(geom, tour, opts);
    for sq in board.squares() {
        painter.square(canvas, sq, numbering[board.index(sq) as usize] != 0);
    }
    if opts.path {
        painter.closing(canvas, tour);
        let mut prev = None;
        for sq in tour.squares() {
            if let Some(p) = prev {
                painter.segment(canvas, p, sq, Ink::Path);
            }
            prev = Some(sq);
        }
    }
    for (i, sq) in tour.squares().enumerate() {
        painter.number(canvas, sq, i + 1);
    }
    painter.markers(canvas, tour);
}

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
