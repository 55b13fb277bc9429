//! A tiny embedded bitmap font for the digits 0-9, so pictures can show move numbers without a
//! font file. Each glyph is a grid of on/off pixels drawn as `scale x scale` blocks.

/// 5x7 digits, one row per byte, the leftmost pixel in bit 4.
const DIGITS_5X7: [[u8; 7]; 10] = [
    [
        0b01110, 0b10001, 0b10011, 0b10101, 0b11001, 0b10001, 0b01110,
    ],
    [
        0b00100, 0b01100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110,
    ],
    [
        0b01110, 0b10001, 0b00001, 0b00010, 0b00100, 0b01000, 0b11111,
    ],
    [
        0b11111, 0b00010, 0b00100, 0b00010, 0b00001, 0b10001, 0b01110,
    ],
    [
        0b00010, 0b00110, 0b01010, 0b10010, 0b11111, 0b00010, 0b00010,
    ],
    [
        0b11111, 0b10000, 0b11110, 0b00001, 0b00001, 0b10001, 0b01110,
    ],
    [
        0b00110, 0b01000, 0b10000, 0b11110, 0b10001, 0b10001, 0b01110,
    ],
    [
        0b11111, 0b00001, 0b00010, 0b00100, 0b01000, 0b01000, 0b01000,
    ],
    [
        0b01110, 0b10001, 0b10001, 0b01110, 0b10001, 0b10001, 0b01110,
    ],
    [
        0b01110, 0b10001, 0b10001, 0b01111, 0b00001, 0b00010, 0b01100,
    ],
];

/// 3x5 digits for small squares, the leftmost pixel in bit 2 (rows 5 and 6 unused).
const DIGITS_3X5: [[u8; 7]; 10] = [
    [0b111, 0b101, 0b101, 0b101, 0b111, 0, 0],
    [0b010, 0b110, 0b010, 0b010, 0b111, 0, 0],
    [0b111, 0b001, 0b111, 0b100, 0b111, 0, 0],
    [0b111, 0b001, 0b111, 0b001, 0b111, 0, 0],
    [0b101, 0b101, 0b111, 0b001, 0b001, 0, 0],
    [0b111, 0b100, 0b111, 0b001, 0b111, 0, 0],
    [0b111, 0b100, 0b111, 0b101, 0b111, 0, 0],
    [0b111, 0b001, 0b001, 0b001, 0b001, 0, 0],
    [0b111, 0b101, 0b111, 0b101, 0b111, 0, 0],
    [0b111, 0b101, 0b111, 0b001, 0b111, 0, 0],
];

/// A digits-only bitmap font.
///
/// ```
/// use knights_tour::draw::Font;
/// let font = Font::standard();
/// // Two digits of 5 pixels with a 1-pixel gap, at scale 2.
/// assert_eq!(font.text_size(2, 2), (22, 14));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Font {
    width: u32,
    height: u32,
    glyphs: &'static [[u8; 7]; 10],
}

impl Font {
    /// Clear 5x7 digits, for squares of about 12 pixels and more.
    pub fn standard() -> Font {
        Font {
            width: 5,
            height: 7,
            glyphs: &DIGITS_5X7,
        }
    }

    /// Blocky 3x5 digits that still read in squares of about 8 pixels.
    pub fn small() -> Font {
        Font {
            width: 3,
            height: 5,
            glyphs: &DIGITS_3X5,
        }
    }

    /// Size in pixels of `digits` digits at `scale`, with one font pixel between digits.
    pub fn text_size(&self, digits: u32, scale: u32) -> (u32, u32) {
        let w = (digits * (self.width + 1)).saturating_sub(1);
        (w * scale, self.height * scale)
    }

    /// Whether font pixel `(x, y)` of digit `d` is on.
    pub fn pixel(&self, d: u8, x: u32, y: u32) -> bool {
        let row = self.glyphs[usize::from(d % 10)][y as usize % 7];
        row >> (self.width - 1 - x) & 1 == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_digit_is_distinct_and_inked() {
        for font in [Font::standard(), Font::small()] {
            let bitmaps: Vec<Vec<bool>> = (0..10)
                .map(|d| {
                    (0..font.height)
                        .flat_map(|y| (0..font.width).map(move |x| (x, y)))
                        .map(|(x, y)| font.pixel(d, x, y))
                        .collect()
                })
                .collect();
            for (d, b) in bitmaps.iter().enumerate() {
                assert!(b.iter().any(|&p| p), "digit {d} is blank");
                for other in &bitmaps[d + 1..] {
                    assert_ne!(b, other);
                }
            }
        }
    }
}
