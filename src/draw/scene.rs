//! The picture of a tour, described once: the board's squares and their colours (a1 dark,
//! squares the path never reached greyed), the path through the square centres, a closed
//! tour's move back to the start, the move numbers, and the start, end and stuck marks with
//! their exact shapes. The SVG writer and the rasteriser (PNG, GIF) only render a [`Scene`];
//! neither decides what the picture shows or how big its parts are.

use crate::board::Square;
use crate::tour::Tour;

use super::geometry::{Geometry, NumberLayout};
use super::DrawOptions;

/// The colours of a picture. Their order is the GIF palette order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Ink {
    /// Light squares.
    Light,
    /// Dark squares (a1 is dark).
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
    /// The inside of the stuck marker.
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

/// A point in pixels from the picture's top-left corner.
pub type Point = (f64, f64);

/// What marks a square, and its exact shape in pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mark {
    /// A filled disc (start or end, when numbers sit in the corner or are not drawn).
    Disc {
        /// Its centre.
        centre: Point,
        /// Its radius.
        radius: f64,
        /// Its colour.
        ink: Ink,
    },
    /// A ring around a centred number (start, end or stuck).
    Ring {
        /// Its centre.
        centre: Point,
        /// Outer radius.
        outer: f64,
        /// Inner radius.
        inner: f64,
        /// Its colour.
        ink: Ink,
    },
    /// Where a partial path got stuck: a white disc with a red rim and a red cross.
    Stuck {
        /// Its centre.
        centre: Point,
        /// Outer radius.
        radius: f64,
        /// Width of the rim and of the cross's strokes.
        stroke: f64,
        /// Half the length of each arm of the cross, along each axis.
        arm: f64,
    },
}

/// What kind of square a mark is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkKind {
    /// The first square.
    Start,
    /// The last square of a complete path.
    End,
    /// The last square of a partial path.
    Stuck,
}

impl MarkKind {
    /// The SVG class of the mark.
    pub fn class(self) -> &'static str {
        match self {
            MarkKind::Start => "start",
            MarkKind::End => "end",
            MarkKind::Stuck => "stuck",
        }
    }
}

/// A tour's picture: everything to draw, in pixels.
pub struct Scene<'t> {
    /// Picture size, square size and positions.
    pub geom: Geometry,
    /// The tour drawn.
    pub tour: &'t Tour,
    /// Move number of every square by board index (0 where the path never went).
    pub numbering: Vec<u32>,
    /// Whether the path is drawn.
    pub path: bool,
    /// How move numbers are drawn, if they are.
    pub numbers: Option<NumberLayout>,
}

impl<'t> Scene<'t> {
    /// The picture of `tour` as `opts` ask for.
    pub fn new(tour: &'t Tour, opts: &DrawOptions) -> Scene<'t> {
        let geom = Geometry::new(tour.board(), opts.size_px);
        Scene {
            numbers: geom.number_layout(tour.len(), opts.numbers, opts.path),
            geom,
            tour,
            numbering: tour.numbering(),
            path: opts.path,
        }
    }

    /// Whether the path reached `sq`.
    pub fn visited(&self, sq: Square) -> bool {
        self.numbering[self.geom.board().index(sq) as usize] != 0
    }

    /// The colour of `sq`: its chessboard colour (a1 dark), greyed unless `visited`.
    pub fn square_ink(&self, sq: Square, visited: bool) -> Ink {
        match (self.geom.board().is_dark(sq), visited) {
            (false, true) => Ink::Light,
            (true, true) => Ink::Dark,
            (false, false) => Ink::LightUnvisited,
            (true, false) => Ink::DarkUnvisited,
        }
    }

    /// Width of the path's line in pixels.
    pub fn line_width(&self) -> f64 {
        self.geom.line_width()
    }

    /// The path's points: the centre of each square in move order (empty when the path is
    /// not drawn).
    pub fn path_points(&self) -> impl Iterator<Item = Point> + '_ {
        self.tour
            .squares()
            .filter(|_| self.path)
            .map(|sq| self.geom.square_centre(sq))
    }

    /// The move from the last square back to the first, for a closed tour with its path drawn.
    pub fn closing(&self) -> Option<(Point, Point)> {
        match (
            self.path && self.tour.is_closed(),
            self.tour.end(),
            self.tour.start(),
        ) {
            (true, Some(a), Some(b)) => {
                Some((self.geom.square_centre(a), self.geom.square_centre(b)))
            }
            _ => None,
        }
    }

    /// Whether numbers are centred in their squares (then marks are rings around them).
    fn rings(&self) -> bool {
        self.numbers.is_some_and(|l| l.centred)
    }

    /// The mark of `kind` on `sq`.
    pub fn mark(&self, kind: MarkKind, sq: Square) -> Mark {
        let centre = self.geom.square_centre(sq);
        let cell = self.geom.cell();
        let ink = match kind {
            MarkKind::Start => Ink::Start,
            MarkKind::End | MarkKind::Stuck => Ink::End,
        };
        if self.rings() {
            let outer = cell * 0.45;
            return Mark::Ring {
                centre,
                outer,
                inner: outer - (cell * 0.07).max(1.0),
                ink,
            };
        }
        let radius = self.geom.marker_radius();
        match kind {
            MarkKind::Stuck => {
                let stroke = (radius * 0.3).max(1.0);
                Mark::Stuck {
                    centre,
                    radius,
                    stroke,
                    arm: (radius - stroke) * 0.6,
                }
            }
            _ => Mark::Disc {
                centre,
                radius,
                ink,
            },
        }
    }

    /// The marks: the start, then the end of a complete path of two squares or more, or the
    /// square where a partial path got stuck.
    pub fn marks(&self) -> Vec<(MarkKind, Mark)> {
        let mut out = Vec::new();
        if let Some(first) = self.tour.start() {
            out.push((MarkKind::Start, self.mark(MarkKind::Start, first)));
        }
        if let Some(last) = self.tour.end() {
            if !self.tour.is_complete() {
                out.push((MarkKind::Stuck, self.mark(MarkKind::Stuck, last)));
            } else if self.tour.len() > 1 {
                out.push((MarkKind::End, self.mark(MarkKind::End, last)));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    fn path(board: Board, squares: &[(u32, u32)]) -> Tour {
        Tour::from_squares(board, squares.iter().map(|&(r, c)| Square::new(r, c))).unwrap()
    }

    #[test]
    fn a_partial_path_is_marked_stuck_and_a_closed_tour_closes() {
        let b = Board::new(5, 5).unwrap();
        let t = path(b, &[(0, 0), (1, 2)]);
        let scene = Scene::new(&t, &DrawOptions::default());
        let kinds: Vec<MarkKind> = scene.marks().iter().map(|m| m.0).collect();
        assert_eq!(kinds, [MarkKind::Start, MarkKind::Stuck]);
        assert!(scene.closing().is_none());
        assert_eq!(scene.path_points().count(), 2);
        assert!(scene.visited(Square::new(1, 2)) && !scene.visited(Square::new(4, 4)));
        // a1 is dark; greyed when never reached.
        assert_eq!(
            scene.square_ink(Square::new(4, 0), false),
            Ink::DarkUnvisited
        );
        assert_eq!(scene.square_ink(Square::new(4, 1), true), Ink::Light);
    }

    #[test]
    fn without_the_path_there_are_no_points_and_no_closing_move() {
        let b = Board::new(3, 4).unwrap();
        let t = crate::tour::tests::tour_3x4();
        assert_eq!(t.board(), b);
        let opts = DrawOptions {
            path: false,
            ..DrawOptions::default()
        };
        let scene = Scene::new(&t, &opts);
        assert_eq!(scene.path_points().count(), 0);
        assert!(scene.closing().is_none());
    }
}
