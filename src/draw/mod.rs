//! Pictures of tours: an SVG drawing, a PNG image, or an animated GIF that adds one move per
//! frame.
//!
//! Every picture shows the board (squares the path never reached greyed), the path through the
//! centres of its squares, a green disc on the first square and a red disc on the last; a
//! closed tour's move back to the start is drawn lighter, and a partial tour (a failed attempt)
//! ends in a red ring with a cross where the knight got stuck. Move numbers appear where they
//! are legible ([`Numbers::Auto`]).
//!
//! What a picture shows is described once, as a [`scene::Scene`] (squares, path, closing move,
//! numbers, marks, all in pixels from one [`Geometry`]); the SVG writer and our own rasteriser
//! ([`raster`], digits from an embedded bitmap [`Font`], no image library or font file) only
//! render it.
//!
//! ```
//! use knights_tour::board::{Board, Square};
//! use knights_tour::draw::{self, DrawOptions};
//! use knights_tour::tour::Tour;
//! let board = Board::new(3, 4).unwrap();
//! let path = [(0,0),(1,2),(2,0),(0,1),(1,3),(2,1),(0,2),(2,3),(1,1),(0,3),(2,2),(1,0)];
//! let tour = Tour::from_squares(board, path.iter().map(|&(r, c)| Square::new(r, c))).unwrap();
//! let opts = DrawOptions { size_px: Some(240), ..DrawOptions::default() };
//! let svg = draw::svg(&tour, &opts);
//! assert!(svg.contains(r#"width="240" height="180""#));
//! let mut png = Vec::new();
//! draw::png(&tour, &opts, &mut png).unwrap();
//! assert_eq!(&png[1..4], b"PNG");
//! ```

mod font;
mod geometry;
mod gif;
mod png;
pub mod raster;
pub mod scene;
mod svg;

use std::io::{self, Write};
use std::path::Path;

use crate::output::write_budget::{TimedOut, WriteBudget};
use crate::tour::Tour;

pub use self::font::Font;
pub use self::geometry::{Geometry, NumberLayout, DEFAULT_MAX_PX, DEFAULT_SQUARE_PX};
pub use self::gif::{default_frame_delay, gif, moves_per_frame, MAX_FRAMES};
pub use self::png::png;
pub use self::svg::svg;

/// Whether move numbers are drawn in their squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Numbers {
    /// Only where they are legible: the largest number fits its square.
    #[default]
    Auto,
    /// Always, even if they overflow their squares.
    On,
    /// Never.
    Off,
}

/// What to draw and how big.
///
/// ```
/// use knights_tour::draw::{DrawOptions, Numbers};
/// let opts = DrawOptions { size_px: Some(800), numbers: Numbers::Off, ..DrawOptions::default() };
/// assert!(opts.path);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawOptions {
    /// The picture's longest side in pixels; `None` for [`Geometry::default_size`] (about 60 px
    /// a square, at most 2000 px). Never below one pixel a square.
    pub size_px: Option<u32>,
    /// Whether move numbers are drawn.
    pub numbers: Numbers,
    /// Whether the path (the line through the squares in move order) is drawn.
    pub path: bool,
    /// GIF only: time between frames in hundredths of a second; `None` for
    /// [`default_frame_delay`] (quicker for longer tours).
    pub frame_delay_cs: Option<u16>,
    /// GIF only: how long the last frame stays before the animation loops, in hundredths of
    /// a second.
    pub hold_last_cs: u16,
}

impl Default for DrawOptions {
    fn default() -> Self {
        DrawOptions {
            size_px: None,
            numbers: Numbers::Auto,
            path: true,
            frame_delay_cs: None,
            hold_last_cs: 300,
        }
    }
}

/// The picture formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Scalable vector graphics (text).
    Svg,
    /// A still PNG image.
    Png,
    /// An animated GIF, one move a frame (several on tours over [`MAX_FRAMES`] squares).
    Gif,
}

impl Format {
    /// The format a file name's extension asks for (`.svg`, `.png`, `.gif`, any case).
    ///
    /// ```
    /// use knights_tour::draw::Format;
    /// use std::path::Path;
    /// assert_eq!(Format::from_path(Path::new("tour.GIF")), Some(Format::Gif));
    /// assert_eq!(Format::from_path(Path::new("tour.jpg")), None);
    /// ```
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "svg" => Some(Format::Svg),
            "png" => Some(Format::Png),
            "gif" => Some(Format::Gif),
            _ => None,
        }
    }
}

/// Draw `tour` in `format` to `out`, within `budget` (the deadline and the progress line: see
/// [`crate::output::write_budget`]).
///
/// Fails with [`io::ErrorKind::InvalidInput`] when a raster would be too large (see
/// [`raster::check_raster_size`]), with [`crate::output::write_budget::TimedOut`] (kind
/// [`io::ErrorKind::TimedOut`]) when the deadline comes first, or with the writer's error.
pub fn draw<W: Write>(
    tour: &Tour,
    opts: &DrawOptions,
    format: Format,
    mut out: W,
    budget: &WriteBudget<'_>,
) -> io::Result<()> {
    match format {
        Format::Svg => {
            let doc = svg::svg_within(tour, opts, budget).map_err(TimedOut::into_io)?;
            out.write_all(doc.as_bytes())
        }
        Format::Png => png::png_within(tour, opts, out, budget),
        Format::Gif => gif::gif_within(tour, opts, out, budget),
    }
}
