//! Cell formats and colours of tour sheets, built once per sheet so the hot loop that writes a
//! million squares only picks a prepared format.

use rust_xlsxwriter::{Color, Format, FormatAlign, FormatBorder};

/// Fill of the start square, as in the macro.
pub(crate) const START_FILL: u32 = 0xFFFF00;
/// Fill of the square where a failed attempt got stuck.
pub(crate) const STUCK_FILL: u32 = 0xFF7C80;
/// Thin grid between squares.
const GRID: u32 = 0xA6A6A6;
/// Colour-scale ends: pale green for early moves, pale blue for late ones (far from yellow,
/// and light enough for black numbers).
pub(crate) const SCALE_LOW: u32 = 0xE2EFDA;
/// See [`SCALE_LOW`].
pub(crate) const SCALE_HIGH: u32 = 0x9DC3E6;
/// The path line and its markers.
pub(crate) const PATH_LINE: u32 = 0x1F4E79;
/// Fill of the last square of a complete path (light purple: black digits stay readable).
pub(crate) const END_FILL: u32 = 0xD9C2EC;
/// Border of the last square of a complete path.
pub(crate) const END_MARK: u32 = 0x7030A0;
/// Border of the square where a stuck path ended.
pub(crate) const STUCK_MARK: u32 = 0xC00000;

/// What a board square is, for its format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SquareKind {
    /// Any square.
    Plain = 0,
    /// Move 1.
    Start = 1,
    /// The last square of a failed partial path.
    Stuck = 2,
    /// The last square of a complete path.
    End = 3,
}

/// The 4 x 16 formats of a board: by [`SquareKind`] and by which outer edges the square lies
/// on (bit 0 top, 1 bottom, 2 left, 3 right), which get a medium black border.
pub(crate) struct BoardFormats {
    formats: Vec<Format>,
}

impl BoardFormats {
    /// Formats with numbers in `font_size` points.
    pub(crate) fn new(font_size: f64) -> BoardFormats {
        let mut formats = Vec::with_capacity(64);
        for kind in [
            SquareKind::Plain,
            SquareKind::Start,
            SquareKind::Stuck,
            SquareKind::End,
        ] {
            for edges in 0u8..16 {
                formats.push(square_format(font_size, kind, edges));
            }
        }
        BoardFormats { formats }
    }

    /// The format of a square of `kind` on the given outer `edges`.
    #[inline]
    pub(crate) fn get(&self, kind: SquareKind, edges: u8) -> &Format {
        &self.formats[kind as usize * 16 + usize::from(edges & 15)]
    }
}

/// Outer-edge bits of the square at `(row, col)` on a `rows x cols` board.
#[inline]
pub(crate) fn edges(row: u32, col: u32, rows: u32, cols: u32) -> u8 {
    u8::from(row == 0)
        | u8::from(row + 1 == rows) << 1
        | u8::from(col == 0) << 2
        | u8::from(col + 1 == cols) << 3
}

fn square_format(font_size: f64, kind: SquareKind, edges: u8) -> Format {
    let f = square_base(font_size, edges);
    match kind {
        SquareKind::Plain => f,
        SquareKind::Start => f.set_background_color(Color::RGB(START_FILL)).set_bold(),
        SquareKind::End => ringed(f.set_background_color(Color::RGB(END_FILL)), END_MARK),
        SquareKind::Stuck => ringed(f.set_background_color(Color::RGB(STUCK_FILL)), STUCK_MARK),
    }
}

/// A board square's number, centred, with a thin grid inside the board and a medium black
/// border on its outer `edges` (bits as in [`edges`]).
pub(crate) fn square_base(font_size: f64, edges: u8) -> Format {
    let side = |bit: u8| {
        if edges & (1 << bit) != 0 {
            (FormatBorder::Medium, Color::Black)
        } else {
            (FormatBorder::Thin, Color::RGB(GRID))
        }
    };
    let (top, top_c) = side(0);
    let (bottom, bottom_c) = side(1);
    let (left, left_c) = side(2);
    let (right, right_c) = side(3);
    Format::new()
        .set_font_size(font_size)
        .set_align(FormatAlign::Center)
        .set_align(FormatAlign::VerticalCenter)
        .set_border_top(top)
        .set_border_top_color(top_c)
        .set_border_bottom(bottom)
        .set_border_bottom_color(bottom_c)
        .set_border_left(left)
        .set_border_left_color(left_c)
        .set_border_right(right)
        .set_border_right_color(right_c)
}

/// `f` in bold with a medium border all round in `colour`.
pub(crate) fn ringed(f: Format, colour: u32) -> Format {
    f.set_bold()
        .set_border_top(FormatBorder::Medium)
        .set_border_top_color(Color::RGB(colour))
        .set_border_bottom(FormatBorder::Medium)
        .set_border_bottom_color(Color::RGB(colour))
        .set_border_left(FormatBorder::Medium)
        .set_border_left_color(Color::RGB(colour))
        .set_border_right(FormatBorder::Medium)
        .set_border_right_color(Color::RGB(colour))
}

/// Formats of the text around the board.
pub(crate) struct TextFormats {
    /// The sheet's title line.
    pub title: Format,
    /// The file letters above the board.
    pub letters: Format,
    /// A notes line that reports success.
    pub good: Format,
    /// A notes line that reports failure.
    pub bad: Format,
    /// Other notes lines.
    pub plain: Format,
}

impl TextFormats {
    pub(crate) fn new() -> TextFormats {
        TextFormats {
            title: Format::new().set_bold().set_font_size(12),
            letters: Format::new()
                .set_align(FormatAlign::Center)
                .set_align(FormatAlign::VerticalCenter)
                .set_font_color(Color::RGB(0x595959)),
            good: Format::new()
                .set_bold()
                .set_font_color(Color::RGB(0x00803C)),
            bad: Format::new()
                .set_bold()
                .set_font_color(Color::RGB(STUCK_MARK)),
            plain: Format::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edge_bits_mark_the_outline() {
        assert_eq!(edges(0, 0, 8, 8), 0b0101);
        assert_eq!(edges(7, 7, 8, 8), 0b1010);
        assert_eq!(edges(3, 3, 8, 8), 0);
        assert_eq!(edges(0, 0, 1, 1), 0b1111);
    }

    #[test]
    fn kinds_get_distinct_formats() {
        let f = BoardFormats::new(11.0);
        assert_ne!(f.get(SquareKind::Plain, 0), f.get(SquareKind::Start, 0));
        assert_ne!(f.get(SquareKind::Start, 0), f.get(SquareKind::Stuck, 0));
        assert_ne!(f.get(SquareKind::Plain, 0), f.get(SquareKind::Plain, 1));
    }
}
