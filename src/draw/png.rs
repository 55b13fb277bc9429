//! PNG: the whole picture rasterised in true colour with anti-aliased lines.

use std::io::{self, Write};

use crate::output::write_budget::{TimedOut, WriteBudget};
use crate::tour::Tour;

use super::raster::{check_raster_size, paint_still, RgbCanvas};
use super::scene::Scene;
use super::DrawOptions;

/// Draw `tour` as a PNG image (8-bit RGB) to `out`.
///
/// Fails with [`io::ErrorKind::InvalidInput`] if the picture is too large to rasterise, or
/// with the writer's error.
///
/// ```
/// # use knights_tour::board::{Board, Square};
/// # use knights_tour::tour::Tour;
/// use knights_tour::draw::{png, DrawOptions};
/// let tour = Tour::from_squares(Board::new(5, 5).unwrap(), [Square::new(0, 0), Square::new(1, 2)]).unwrap();
/// let mut out = Vec::new();
/// png(&tour, &DrawOptions { size_px: Some(100), ..DrawOptions::default() }, &mut out).unwrap();
/// assert!(out.starts_with(b"\x89PNG"));
/// ```
pub fn png<W: Write>(tour: &Tour, opts: &DrawOptions, out: W) -> io::Result<()> {
    png_within(tour, opts, out, &WriteBudget::unlimited())
}

/// [`png`] within `budget` (see [`crate::output::write_budget`]).
pub(crate) fn png_within<W: Write>(
    tour: &Tour,
    opts: &DrawOptions,
    out: W,
    budget: &WriteBudget<'_>,
) -> io::Result<()> {
    let scene = Scene::new(tour, opts);
    let geom = scene.geom;
    check_raster_size(&geom)?;
    let mut canvas = RgbCanvas::new(geom.width(), geom.height());
    paint_still(&mut canvas, &scene, budget).map_err(TimedOut::into_io)?;
    let mut encoder = ::png::Encoder::new(out, geom.width(), geom.height());
    encoder.set_color(::png::ColorType::Rgb);
    encoder.set_depth(::png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(png_err)?;
    writer.write_image_data(&canvas.data).map_err(png_err)?;
    writer.finish().map_err(png_err)
}

fn png_err(e: ::png::EncodingError) -> io::Error {
    match e {
        ::png::EncodingError::IoError(e) => e,
        other => io::Error::other(other),
    }
}
