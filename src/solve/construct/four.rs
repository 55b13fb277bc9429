//! Open tours of boards 4 squares high (and any length at least 5).
//!
//! A 4 x n open tour covers one half of the board (outer squares of one colour, inner squares
//! of the other) before a single inner-to-inner move switches to the other half, so strips
//! cannot just repeat with one way in and one way out as for 3 x n. Instead every strip is
//! crossed twice, in two lanes: the tour runs left to right along the first lanes of
//! `L | M | ... | M`, turns round inside the last strip `R`, and comes back right to left along
//! the second lanes, ending in `L`. The strips' lanes are hard-coded (searched once by an ignored
//! test, re-checked by the tests); `L`'s width is picked from a few so that `L + q M + R` is the
//! board's length. Short boards are searched whole.

use super::four_strips::{FourStrip, LEFT, MIDDLE, RIGHT};
use super::thin::{link, whole, Segment};

/// Boards up to this length are searched whole.
const SEARCH_WHOLE: u32 = 16;

/// An open tour of the `4 x n` board as its first square and successors.
pub(super) fn open(n: u32) -> Option<(u32, Vec<u32>)> {
    if n <= SEARCH_WHOLE {
        let strips = whole(4, n)?;
        let segments: Vec<Segment> = strips
            .iter()
            .map(|s| Segment {
                c0: 0,
                w: s.w,
                squares: &s.path,
            })
            .collect();
        return Some(link(4, n, &segments));
    }
    let k = u32::from(MIDDLE.w);
    let r = &RIGHT[0];
    let b = u32::from(r.w);
    let l = LEFT
        .iter()
        .filter(|l| u32::from(l.w) + b <= n && (n - u32::from(l.w) - b).is_multiple_of(k))
        .min_by_key(|l| l.w)?;
    let a = u32::from(l.w);
    let q = (n - a - b) / k;
    let (first, second) = lanes(l);
    let (m_first, m_second) = lanes(&MIDDLE);
    let mut segments = Vec::with_capacity(2 * q as usize + 3);
    segments.push(Segment {
        c0: 0,
        w: a,
        squares: first,
    });
    for i in 0..q {
        segments.push(Segment {
            c0: a + i * k,
            w: k,
            squares: m_first,
        });
    }
    segments.push(Segment {
        c0: a + q * k,
        w: b,
        squares: r.path,
    });
    for i in (0..q).rev() {
        segments.push(Segment {
            c0: a + i * k,
            w: k,
            squares: m_second,
        });
    }
    segments.push(Segment {
        c0: 0,
        w: a,
        squares: second,
    });
    Some(link(4, n, &segments))
}

fn lanes(strip: &FourStrip) -> (&'static [u8], &'static [u8]) {
    strip.path.split_at(usize::from(strip.split))
}

#[cfg(test)]
mod tests {
    use super::super::search::{find, Goal};
    use super::*;
    use crate::board::Board;
    use crate::tour::Tour;

    fn knight(a: (i64, i64), b: (i64, i64)) -> bool {
        let (dr, dc) = ((a.0 - b.0).abs(), (a.1 - b.1).abs());
        (dr == 1 && dc == 2) || (dr == 2 && dc == 1)
    }

    fn rc(w: u32, l: u8) -> (i64, i64) {
        (i64::from(u32::from(l) / w), i64::from(u32::from(l) % w))
    }

    /// Squares `(row, col)` of a `4 x w` strip (cols in `cols`) a knight's move from `target`.
    fn next_to(w: u32, cols: [u32; 2], target: (i64, i64)) -> Vec<usize> {
        (0..4u32)
            .flat_map(|r| cols.map(|c| (r, c)))
            .filter(|&(r, c)| c < w && knight((i64::from(r), i64::from(c)), target))
            .map(|(r, c)| (r * w + c) as usize)
            .collect()
    }

    /// A path using the jump `x -> y` in that direction, split there into two lanes.
    fn split_at_jump(path: Vec<u8>, x: usize, y: usize) -> Option<(Vec<u8>, usize)> {
        let i = path.iter().position(|&s| usize::from(s) == x)?;
        (path.get(i + 1).map(|&s| usize::from(s)) == Some(y)).then_some((path, i + 1))
    }

    fn search(
        w: u32,
        start: usize,
        jumps: &[(usize, usize)],
        ends: Option<&[usize]>,
    ) -> Option<Vec<u8>> {
        let goal = Goal {
            rows: 4,
            cols: w as usize,
            start,
            edges: &[],
            closed: false,
            ends,
            jumps,
        };
        find(&goal, u64::from(w), 30, 100_000)
    }

    fn middle() -> (u32, Vec<u8>, usize) {
        for k in [6u32, 8, 5, 7, 9, 10] {
            // Lanes alternate outer and inner squares within one half of the board, and the
            // turn in the last strip is an inner-to-inner move: so the first lane enters on an
            // outer square and the second on an inner one.
            for e1 in [0, 3].into_iter().flat_map(|r| [r * k, r * k + 1]) {
                let e1rc = rc(k, e1 as u8);
                for x1 in next_to(k, [k - 2, k - 1], (e1rc.0, e1rc.1 + i64::from(k))) {
                    for e2 in [1, 2]
                        .into_iter()
                        .flat_map(|r| [r * k + k - 2, r * k + k - 1])
                    {
                        let e2rc = rc(k, e2 as u8);
                        let ends = next_to(k, [0, 1], (e2rc.0, e2rc.1 - i64::from(k)));
                        let Some(p) = search(k, e1 as usize, &[(x1, e2 as usize)], Some(&ends))
                        else {
                            continue;
                        };
                        if let Some((p, split)) = split_at_jump(p, x1, e2 as usize) {
                            return (k, p, split);
                        }
                    }
                }
            }
        }
        panic!("no middle strip");
    }

    fn strip_source(name: &str, w: u32, path: &[u8], split: usize) -> String {
        let list: Vec<String> = path.iter().map(|x| x.to_string()).collect();
        format!(
            "{name}FourStrip {{ w: {w}, split: {split}, path: &[{}] }}",
            list.join(", ")
        )
    }

    /// Regenerates `four_strips.rs`: run
    /// `cargo test --release --lib generate_four_strips -- --ignored`, then `cargo fmt`.
    #[test]
    #[ignore = "rewrites src/solve/construct/four_strips.rs; run by hand"]
    fn generate_four_strips() {
        let (k, mid, split) = middle();
        let e1 = rc(k, mid[0]);
        let e2 = rc(k, mid[split]);
        let x2 = rc(k, mid[mid.len() - 1]);
        eprintln!("middle k={k} e1={e1:?} e2={e2:?} x2={x2:?}");
        let mut right = None;
        for b in 4..20u32 {
            let ends = next_to(b, [0, 1], (e2.0, e2.1 - i64::from(k)));
            let start = (e1.0 * i64::from(b) + e1.1) as usize;
            if let Some(p) = search(b, start, &[], Some(&ends)) {
                right = Some((b, p));
                break;
            }
        }
        let (b, right) = right.expect("no right strip");
        eprintln!("right b={b}");
        let mut left: Vec<(u32, Vec<u8>, usize)> = Vec::new();
        for a in 4..4 + 3 * k {
            if left.iter().any(|l| (l.0 + b) % k == (a + b) % k) {
                continue;
            }
            let xs = next_to(a, [a - 2, a - 1], (e1.0, e1.1 + i64::from(a)));
            let ys = next_to(a, [a - 2, a - 1], (x2.0, x2.1 + i64::from(a)));
            'found: for s in 0..(4 * a) as usize {
                for &x in &xs {
                    for &y in &ys {
                        if let Some(p) = search(a, s, &[(x, y)], None) {
                            if let Some((p, split)) = split_at_jump(p, x, y) {
                                eprintln!("left a={a}");
                                left.push((a, p, split));
                                break 'found;
                            }
                        }
                    }
                }
            }
        }
        let mut out = String::from(
            "//! Strips of 4-high boards, generated by\n\
             //! `cargo test --release --lib generate_four_strips -- --ignored`; every tour built\n\
             //! from them is re-checked by the tests.\n\n\
             /// A path through a `4 x w` strip (local `row * w + col`), crossed in two lanes:\n\
             /// `path[..split]` and `path[split..]` (one lane when `split` is the length).\n\
             pub(super) struct FourStrip {\n    pub w: u8,\n    pub split: u8,\n    pub path: &'static [u8],\n}\n\n",
        );
        out.push_str("/// The repeating strip: first lane left to right, second right to left.\n");
        out.push_str(&strip_source(
            "pub(super) const MIDDLE: FourStrip = ",
            k,
            &mid,
            split,
        ));
        out.push_str(";\n\n/// The turning strip: enters beside the middle's first lane's end, leaves next to its second lane's start.\n");
        out.push_str("pub(super) const RIGHT: &[FourStrip] = &[");
        out.push_str(&strip_source("", b, &right, right.len()));
        out.push_str("];\n\n/// First strips, one per width mod the middle's: the first lane starts the tour, the second ends it.\n");
        out.push_str("pub(super) const LEFT: &[FourStrip] = &[\n");
        for (a, p, split) in &left {
            out.push_str(&strip_source("", *a, p, *split));
            out.push_str(",\n");
        }
        out.push_str("];\n");
        std::fs::write(
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/src/solve/construct/four_strips.rs"
            ),
            out,
        )
        .unwrap();
    }

    #[test]
    fn strips_are_paths_with_knight_moves_inside_each_lane() {
        for strip in LEFT.iter().chain(RIGHT).chain([&MIDDLE]) {
            let w = u32::from(strip.w);
            let board = Board::new(4, w).unwrap();
            let (a, b) = lanes(strip);
            for lane in [a, b] {
                let squares = lane.iter().map(|&x| u32::from(x)).collect();
                assert!(Tour::from_indices(board, squares).is_ok(), "4x{w}");
            }
            assert_eq!(strip.path.len(), 4 * w as usize);
        }
    }
}
