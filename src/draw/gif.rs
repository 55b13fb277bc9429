//! Animated GIF: the board, then one move added per frame, the last frame held, looping. A
//! tour longer than [`MAX_FRAMES`] squares adds several moves a frame, so that every
//! animation plays in about ten seconds (a 100x100 tour one move a frame took 203 s).
//!
//! Frames after the first are only the rectangle that changed, with unchanged pixels
//! transparent and "keep" disposal, so a 100x100 tour stays small and quick.
//! Colours come from a fixed 16-entry palette (the [`Ink`]s), lines are not anti-aliased.

use std::borrow::Cow;
use std::io::{self, Write};

use ::gif::{DisposalMethod, Encoder, EncodingError, Frame, Repeat};

use crate::board::Square;
use crate::output::write_budget::{TimedOut, Work, WriteBudget};
use crate::tour::Tour;

use super::raster::{
    check_raster_size, paint_mark, paint_number, paint_segment, paint_square, paint_still,
    IndexCanvas, Ink,
};
use super::scene::{MarkKind, Scene};
use super::DrawOptions;

/// The palette index of transparent pixels (after the inks).
const TRANSPARENT: u8 = Ink::ALL.len() as u8;
/// Palette entries (a power of two).
const PALETTE_LEN: usize = 16;

/// At most this many frames: at the fastest delay browsers honour (2 hundredths of a second)
/// they play in ten seconds.
pub const MAX_FRAMES: usize = 500;

/// How many moves each frame adds to a tour of `squares` squares: 1 up to [`MAX_FRAMES`]
/// squares, then as many as keep the frames within it.
///
/// ```
/// use knights_tour::draw::moves_per_frame;
/// assert_eq!(moves_per_frame(64), 1);
/// assert_eq!(moves_per_frame(500), 1);
/// assert_eq!(moves_per_frame(501), 2);
/// assert_eq!(moves_per_frame(10_000), 20);
/// ```
pub fn moves_per_frame(squares: usize) -> usize {
    squares.div_ceil(MAX_FRAMES).max(1)
}

/// The default time between frames of an animation of `frames` frames, in hundredths of a
/// second: about ten seconds in all, between 2 (the fastest browsers honour) and 25.
///
/// ```
/// use knights_tour::draw::default_frame_delay;
/// assert_eq!(default_frame_delay(64), 15);
/// assert_eq!(default_frame_delay(500), 2);
/// assert_eq!(default_frame_delay(12), 25);
/// ```
pub fn default_frame_delay(squares: usize) -> u16 {
    (1000 / squares.max(1)).clamp(2, 25) as u16
}

/// Draw `tour` as an animated GIF to `out`: frame 1 shows the board and the first square,
/// frame `k` adds move `k` (so there is one frame per square of the tour, or one frame for an
/// empty tour; a tour over [`MAX_FRAMES`] squares adds [`moves_per_frame`] moves a frame,
/// the first frame included); the last frame also shows the end marker (or, for a partial tour, where the
/// knight got stuck and which squares it never reached) and is held for
/// [`DrawOptions::hold_last_cs`]. The animation loops forever.
///
/// Fails with [`io::ErrorKind::InvalidInput`] if the picture is too large to rasterise, or
/// with the writer's error.
///
/// ```
/// # use knights_tour::board::{Board, Square};
/// # use knights_tour::tour::Tour;
/// use knights_tour::draw::{gif, DrawOptions};
/// let tour = Tour::from_squares(Board::new(5, 5).unwrap(), [Square::new(0, 0), Square::new(1, 2)]).unwrap();
/// let mut out = Vec::new();
/// gif(&tour, &DrawOptions::default(), &mut out).unwrap();
/// assert!(out.starts_with(b"GIF89a"));
/// ```
pub fn gif<W: Write>(tour: &Tour, opts: &DrawOptions, out: W) -> io::Result<()> {
    gif_within(tour, opts, out, &WriteBudget::unlimited())
}

/// [`gif`] within `budget`: each frame a step of its stage (see [`crate::output::write_budget`]).
pub(crate) fn gif_within<W: Write>(
    tour: &Tour,
    opts: &DrawOptions,
    out: W,
    budget: &WriteBudget<'_>,
) -> io::Result<()> {
    let scene = Scene::new(tour, opts);
    let geom = scene.geom;
    check_raster_size(&geom)?;
    let (w, h) = (side(geom.width())?, side(geom.height())?);
    let mut encoder = Encoder::new(out, w, h, &palette()).map_err(gif_err)?;
    encoder.set_repeat(Repeat::Infinite).map_err(gif_err)?;
    let squares: Vec<Square> = tour.squares().collect();
    let step = moves_per_frame(squares.len());
    let frames = squares.len().div_ceil(step).max(1);
    let delay = opts
        .frame_delay_cs
        .unwrap_or_else(|| default_frame_delay(frames));
    let mut animation = Animation {
        canvas: IndexCanvas::new(geom.width(), geom.height()),
        scene,
    };
    let stage = budget.stage(Work::Frames, frames as u64);
    for f in 1..=frames {
        budget.step(1).map_err(TimedOut::into_io)?;
        animation.canvas.begin();
        let moves = (f - 1) * step + 1..=(f * step).min(squares.len()).max(1);
        for k in moves {
            animation.paint_frame(&squares, k);
        }
        let (k, last) = (f, f == frames);
        if last {
            animation.paint_finish(budget)?;
        }
        let frame = animation.frame(k == 1, if last { opts.hold_last_cs } else { delay });
        encoder.write_frame(&frame).map_err(gif_err)?;
    }
    drop(stage);
    encoder.into_inner().map_err(gif_err)?.flush()
}

/// The state of an animation being drawn.
struct Animation<'a> {
    scene: Scene<'a>,
    canvas: IndexCanvas,
}

impl Animation<'_> {
    /// What frame `k` (from 1) adds: the board and square 1, or move `k`.
    fn paint_frame(&mut self, squares: &[Square], k: usize) {
        let (s, c) = (&self.scene, &mut self.canvas);
        if k == 1 {
            for sq in s.geom.board().squares() {
                paint_square(c, s, sq, true);
            }
        }
        let Some(&sq) = squares.get(k - 1) else {
            return;
        };
        if k > 1 && s.path {
            let (a, b) = (
                s.geom.square_centre(squares[k - 2]),
                s.geom.square_centre(sq),
            );
            paint_segment(c, s, a, b, Ink::Path);
        }
        paint_number(c, s, sq, k);
        if k <= 2 {
            paint_mark(c, s.mark(MarkKind::Start, squares[0]));
        }
    }

    /// The last frame's extras: a complete tour gets its closing move and end marker; a
    /// partial one is redrawn whole, unreached squares greyed and the stuck square marked.
    fn paint_finish(&mut self, budget: &WriteBudget<'_>) -> io::Result<()> {
        let (s, c) = (&self.scene, &mut self.canvas);
        if s.tour.is_complete() {
            if let Some((a, b)) = s.closing() {
                paint_segment(c, s, a, b, Ink::Closing);
            }
            for (_, mark) in s.marks() {
                paint_mark(c, mark);
            }
            // The moves drawn after a number crossed it: the frame that stays shows them all.
            for (i, sq) in s.tour.squares().enumerate() {
                paint_number(c, s, sq, i + 1);
            }
        } else {
            paint_still(c, s, budget).map_err(TimedOut::into_io)?;
        }
        Ok(())
    }

    /// The frame for what was painted since the canvas' `begin`: the whole canvas for the
    /// first frame, else the changed rectangle with unchanged pixels transparent.
    fn frame(&self, first: bool, delay: u16) -> Frame<'static> {
        let full = (0, 0, self.scene.geom.width(), self.scene.geom.height());
        let rect = if first {
            full
        } else {
            self.canvas.dirty().unwrap_or((0, 0, 1, 1))
        };
        let (x0, y0, x1, y1) = rect;
        let buffer = if first {
            self.canvas.data.clone()
        } else {
            self.canvas.changes(rect, TRANSPARENT)
        };
        Frame {
            delay,
            dispose: DisposalMethod::Keep,
            transparent: (!first).then_some(TRANSPARENT),
            left: x0 as u16,
            top: y0 as u16,
            width: (x1 - x0) as u16,
            height: (y1 - y0) as u16,
            buffer: Cow::Owned(buffer),
            ..Frame::default()
        }
    }
}

/// The global palette: the inks, then transparent (white), padded to [`PALETTE_LEN`].
fn palette() -> Vec<u8> {
    let mut p: Vec<u8> = Ink::ALL.iter().flat_map(|ink| ink.rgb()).collect();
    p.resize(PALETTE_LEN * 3, 255);
    p
}

fn side(px: u32) -> io::Result<u16> {
    u16::try_from(px).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("a GIF is at most 65535 pixels a side, not {px}"),
        )
    })
}

fn gif_err(e: EncodingError) -> io::Error {
    match e {
        EncodingError::Io(e) => e,
        other => io::Error::other(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn palette_holds_every_ink_and_transparency() {
        let p = palette();
        assert_eq!(p.len(), PALETTE_LEN * 3);
        assert!(usize::from(TRANSPARENT) < PALETTE_LEN);
        for ink in Ink::ALL {
            let i = ink as usize * 3;
            assert_eq!(p[i..i + 3], ink.rgb());
        }
    }
}
