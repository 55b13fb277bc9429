//! Where things go in a picture: the pixel size of the image and of each square, the centre of
//! every square, how thick the path is and how big the markers and numbers are.
//!
//! SVG, PNG and GIF share one [`Geometry`], so a square's centre is the same point in all
//! three and tests can check any of them against [`Geometry::square_centre`].

use crate::board::{Board, Square};

use super::font::Font;
use super::Numbers;

/// Pixels per square the default size aims for on small boards.
pub const DEFAULT_SQUARE_PX: u32 = 60;
/// The default longest side is capped here (unless the board needs more: 1 px a square).
pub const DEFAULT_MAX_PX: u32 = 2000;

/// The layout of a picture of a board: image size and square size in pixels.
///
/// Squares are `cell` pixels wide (a real number, so the longest side is exactly the size
/// asked for); the picture is at least one pixel per square.
///
/// ```
/// use knights_tour::board::{Board, Square};
/// use knights_tour::draw::Geometry;
/// let g = Geometry::new(Board::new(8, 8).unwrap(), Some(400));
/// assert_eq!((g.width(), g.height()), (400, 400));
/// assert_eq!(g.square_centre(Square::new(0, 0)), (25.0, 25.0));
/// // A 4x8 board keeps square squares: half as high as wide.
/// let g = Geometry::new(Board::new(4, 8).unwrap(), Some(400));
/// assert_eq!((g.width(), g.height()), (400, 200));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Geometry {
    board: Board,
    cell: f64,
    width: u32,
    height: u32,
}

impl Geometry {
    /// The layout of `board` whose longest side is `size_px` pixels, or
    /// [`Geometry::default_size`] when `None`. Sizes below one pixel per square are raised to
    /// one pixel per square.
    pub fn new(board: Board, size_px: Option<u32>) -> Geometry {
        let longest = board.rows().max(board.cols());
        let size = size_px
            .unwrap_or_else(|| Geometry::default_size(board))
            .max(longest);
        let cell = f64::from(size) / f64::from(longest);
        let side = |n: u32| {
            if n == longest {
                size
            } else {
                (f64::from(n) * cell).round() as u32
            }
        };
        Geometry {
            board,
            cell,
            width: side(board.cols()),
            height: side(board.rows()),
        }
    }

    /// The default longest side: [`DEFAULT_SQUARE_PX`] a square, capped at
    /// [`DEFAULT_MAX_PX`], but never below one pixel a square.
    ///
    /// ```
    /// use knights_tour::board::Board;
    /// use knights_tour::draw::Geometry;
    /// assert_eq!(Geometry::default_size(Board::new(8, 8).unwrap()), 480);
    /// assert_eq!(Geometry::default_size(Board::new(100, 100).unwrap()), 2000);
    /// assert_eq!(Geometry::default_size(Board::new(3000, 10).unwrap()), 3000);
    /// ```
    pub fn default_size(board: Board) -> u32 {
        let longest = board.rows().max(board.cols());
        longest
            .saturating_mul(DEFAULT_SQUARE_PX)
            .min(DEFAULT_MAX_PX)
            .max(longest)
    }

    /// The board drawn.
    pub fn board(&self) -> Board {
        self.board
    }

    /// Image width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Image height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Side of a square in pixels (at least 1).
    pub fn cell(&self) -> f64 {
        self.cell
    }

    /// The centre of a square, `(x, y)` in pixels from the top-left corner of the image.
    pub fn square_centre(&self, sq: Square) -> (f64, f64) {
        (
            (f64::from(sq.col) + 0.5) * self.cell,
            (f64::from(sq.row) + 0.5) * self.cell,
        )
    }

    /// The pixels a square covers in a raster image: `(x0, y0, x1, y1)`, end exclusive.
    /// Neighbouring squares share edges exactly, so the board has no gaps.
    pub fn square_pixels(&self, sq: Square) -> (u32, u32, u32, u32) {
        let edge = |i: u32, limit: u32| ((f64::from(i) * self.cell).round() as u32).min(limit);
        (
            edge(sq.col, self.width),
            edge(sq.row, self.height),
            edge(sq.col + 1, self.width),
            edge(sq.row + 1, self.height),
        )
    }

    /// Width of the path line in pixels: 8% of a square, but at least 2.5 pixels where
    /// squares are big enough (so a square's centre pixel is fully covered by a line through
    /// it), and at least one pixel.
    pub fn line_width(&self) -> f64 {
        (self.cell * 0.08).max((self.cell * 0.3).min(2.5)).max(1.0)
    }

    /// Radius of the start and end markers: under a third of a square so that no other move's
    /// line (which passes at least 0.447 squares from any centre it does not end at) touches it.
    pub fn marker_radius(&self) -> f64 {
        (self.cell * 0.28).max(1.0)
    }

    /// How move numbers are drawn, or `None` when they are not: with [`Numbers::Auto`] only when
    /// the largest number fits its square at least at a font's natural size (the 5x7 font,
    /// else the 3x5 one); [`Numbers::On`] draws them even if they overflow.
    ///
    /// With the path drawn, numbers sit small in the top-left corner of their squares so that
    /// the path's corners stay visible; without it they are centred and larger.
    pub fn number_layout(
        &self,
        largest: usize,
        numbers: Numbers,
        path: bool,
    ) -> Option<NumberLayout> {
        if numbers == Numbers::Off || largest == 0 {
            return None;
        }
        let digits = largest.to_string().len() as u32;
        let (share_w, share_h) = if path { (0.55, 0.3) } else { (0.8, 0.5) };
        let fit = |font: &Font| {
            let (w, h) = font.text_size(digits, 1);
            (self.cell * share_w / f64::from(w))
                .min(self.cell * share_h / f64::from(h))
                .floor()
        };
        let layout = |font: Font, scale: f64| NumberLayout {
            font,
            scale: scale.max(1.0) as u32,
            centred: !path,
        };
        for font in [Font::standard(), Font::small()] {
            let scale = fit(&font);
            if scale >= 1.0 {
                return Some(layout(font, scale));
            }
        }
        (numbers == Numbers::On).then(|| layout(Font::small(), 1.0))
    }
}

/// How numbers are drawn in their squares (see [`Geometry::number_layout`]).
#[derive(Clone, Copy, Debug)]
pub struct NumberLayout {
    /// The bitmap font.
    pub font: Font,
    /// Font pixels are `scale x scale` image pixels.
    pub scale: u32,
    /// Centred in the square (no path) or in its top-left corner (path drawn).
    pub centred: bool,
}

impl NumberLayout {
    /// The pixels `(x0, y0, x1, y1)` number `n` covers in a square spanning `rect`.
    pub fn text_rect(&self, rect: (u32, u32, u32, u32), n: usize) -> (u32, u32, u32, u32) {
        let (x0, y0, x1, y1) = rect;
        let digits = n.to_string().len() as u32;
        let (w, h) = self.font.text_size(digits, self.scale);
        let (x, y) = if self.centred {
            (
                x0 + (x1 - x0).saturating_sub(w) / 2,
                y0 + (y1 - y0).saturating_sub(h) / 2,
            )
        } else {
            let pad = ((x1 - x0) / 12).max(1).min((x1 - x0).saturating_sub(1));
            (x0 + pad, y0 + pad)
        };
        (x, y, x + w, y + h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_tile_the_image_without_gaps() {
        let board = Board::new(7, 13).unwrap();
        let g = Geometry::new(board, Some(500));
        assert_eq!(g.width(), 500);
        let mut covered = vec![0u8; (g.width() * g.height()) as usize];
        for sq in board.squares() {
            let (x0, y0, x1, y1) = g.square_pixels(sq);
            assert!(x1 > x0 && y1 > y0, "{sq:?} is empty");
            for y in y0..y1 {
                for x in x0..x1 {
                    covered[(y * g.width() + x) as usize] += 1;
                }
            }
            let (cx, cy) = g.square_centre(sq);
            assert!((x0..x1).contains(&(cx as u32)) && (y0..y1).contains(&(cy as u32)));
        }
        assert!(covered.iter().all(|&c| c == 1));
    }

    #[test]
    fn tiny_sizes_are_raised_to_one_pixel_a_square() {
        let g = Geometry::new(Board::new(1000, 1000).unwrap(), Some(10));
        assert_eq!((g.width(), g.height()), (1000, 1000));
        assert_eq!(g.cell(), 1.0);
    }

    #[test]
    fn auto_numbers_only_where_they_fit() {
        let small = Geometry::new(Board::new(8, 8).unwrap(), None);
        assert!(small.number_layout(64, Numbers::Auto, true).is_some());
        let huge = Geometry::new(Board::new(1000, 1000).unwrap(), None);
        assert!(huge.number_layout(1_000_000, Numbers::Auto, true).is_none());
        assert!(huge.number_layout(1_000_000, Numbers::On, true).is_some());
        assert!(small.number_layout(64, Numbers::Off, false).is_none());
    }
}
