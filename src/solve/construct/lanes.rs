//! Tours of boards 3 or 4 squares high built from strips crossed twice, in two lanes.
//!
//! The tour runs left to right along the first lanes of `L | M | ... | M`, turns round inside
//! the last strip `R`, and comes back right to left along the second lanes of the `M`s:
//! - **4 x n open tours** need this: such a tour covers one half of the board (outer squares of
//!   one colour, inner squares of the other) before a single inner-to-inner move switches to the
//!   other half, so strips cannot just repeat with one way in and one way out. `L` holds both
//!   ends: its first lane starts the tour, its second ends it.
//! - **3 x n closed tours** (n even, at least 10): `L` turns round too (one lane), closing the
//!   cycle.
//!
//! The strips are hard-coded (`lane_strips.rs`, searched once by an ignored test, every tour
//! built from them re-checked by the tests); `L`'s width is picked from a few so that
//! `L + q M + R` is the board's length.

use super::lane_strips::{LaneSet, LaneStrip, FOUR_OPEN, THREE_CLOSED};
use super::thin::{link, whole, Segment};
use super::tile_search::{self as search, Goal};
use super::END;

/// 4 x n boards up to this length are searched whole.
const SEARCH_WHOLE: u32 = 16;

/// An open tour of the `4 x n` board as its first square and successors.
pub(super) fn four_open(n: u32) -> Option<(u32, Vec<u32>)> {
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
    assemble(&FOUR_OPEN, n)
}

/// Closed tours of the 3 x 10 and 3 x 12 boards (squares `row * n + col` in move order), shorter
/// than the strips: found by the search below once (it takes a while in debug builds) and
/// re-checked by the tests.
const THREE_SHORT_CLOSED: [(u32, &[u8]); 2] = [
    (
        10,
        &[
            0, 21, 2, 10, 22, 14, 6, 18, 26, 5, 24, 3, 11, 23, 15, 7, 19, 27, 8, 29, 17, 9, 28, 16,
            4, 25, 13, 1, 20, 12,
        ],
    ),
    (
        12,
        &[
            0, 25, 2, 12, 26, 16, 30, 20, 34, 11, 21, 35, 10, 33, 23, 9, 19, 5, 28, 3, 13, 27, 4,
            18, 8, 22, 32, 7, 17, 31, 6, 29, 15, 1, 24, 14,
        ],
    ),
];

/// A closed tour of the `3 x n` board (n even, at least 10) as successors (a cycle); the
/// shortest boards are searched whole.
pub(super) fn three_closed(n: u32) -> Option<Vec<u32>> {
    let shortest = THREE_CLOSED.left.iter().map(|l| l.w).min()? + THREE_CLOSED.right.w;
    if let Some((_, order)) = THREE_SHORT_CLOSED.iter().find(|(len, _)| *len == n) {
        let segment = [Segment {
            c0: 0,
            w: n,
            squares: order,
        }];
        let (start, mut next) = link(3, n, &segment);
        next[usize::from(*order.last()?)] = start;
        return Some(next);
    }
    if n < u32::from(shortest) {
        let goal = Goal {
            rows: 3,
            cols: n as usize,
            start: 0,
            edges: &[],
            closed: true,
            ends: None,
            jumps: &[],
        };
        let path = search::find(&goal, u64::from(n), 30, 100_000)?;
        let segment = [Segment {
            c0: 0,
            w: n,
            squares: &path,
        }];
        let (start, mut next) = link(3, n, &segment);
        next[usize::from(*path.last()?)] = start;
        return Some(next);
    }
    let (start, mut next) = assemble(&THREE_CLOSED, n)?;
    let last = next.iter().position(|&x| x == END)?;
    next[last] = start;
    Some(next)
}

/// Lay out `L`, `q` middles and `R` along a `rows x n` board and link their lanes.
fn assemble(set: &LaneSet, n: u32) -> Option<(u32, Vec<u32>)> {
    let m = u32::from(set.rows);
    let k = u32::from(set.middle.w);
    let b = u32::from(set.right.w);
    let l = set
        .left
        .iter()
        .filter(|l| u32::from(l.w) + b <= n && (n - u32::from(l.w) - b).is_multiple_of(k))
        .min_by_key(|l| l.w)?;
    let a = u32::from(l.w);
    let q = (n - a - b) / k;
    let (first, second) = lanes(l);
    let (m_first, m_second) = lanes(&set.middle);
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
        squares: set.right.path,
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
    Some(link(m, n, &segments))
}

fn lanes(strip: &LaneStrip) -> (&'static [u8], &'static [u8]) {
    strip.path.split_at(usize::from(strip.split))
}

#[cfg(test)]
mod tests {
    use super::search::find;
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

    /// Squares of an `m x w` strip in columns `cols` a knight's move from `target`.
    fn next_to(m: u32, w: u32, cols: [u32; 2], target: (i64, i64)) -> Vec<usize> {
        (0..m)
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
        m: u32,
        w: u32,
        start: usize,
        jumps: &[(usize, usize)],
        ends: Option<&[usize]>,
    ) -> Option<Vec<u8>> {
        let goal = Goal {
            rows: m as usize,
            cols: w as usize,
            start,
            edges: &[],
            closed: false,
            ends,
            jumps,
        };
        find(&goal, u64::from(w), 30, 100_000)
    }

    /// The repeating strip: width, path, lane split. On 4-high boards the first lane enters on
    /// an outer square and the second on an inner one: lanes alternate outer and inner squares
    /// within one half of the board and the turn is an inner-to-inner move.
    fn middle(m: u32) -> (u32, Vec<u8>, usize) {
        let (rows1, rows2): (Vec<u32>, Vec<u32>) = if m == 4 {
            (vec![0, 3], vec![1, 2])
        } else {
            ((0..m).collect(), (0..m).collect())
        };
        for k in [6u32, 8, 5, 7, 9, 10] {
            for e1 in rows1.iter().flat_map(|r| [r * k, r * k + 1]) {
                let e1rc = rc(k, e1 as u8);
                for x1 in next_to(m, k, [k - 2, k - 1], (e1rc.0, e1rc.1 + i64::from(k))) {
                    for e2 in rows2.iter().flat_map(|r| [r * k + k - 2, r * k + k - 1]) {
                        let e2rc = rc(k, e2 as u8);
                        let ends = next_to(m, k, [0, 1], (e2rc.0, e2rc.1 - i64::from(k)));
                        let jump = [(x1, e2 as usize)];
                        let Some(p) = search(m, k, e1 as usize, &jump, Some(&ends)) else {
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

    fn strip_source(w: u32, path: &[u8], split: usize) -> String {
        let list: Vec<String> = path.iter().map(|x| x.to_string()).collect();
        format!(
            "LaneStrip {{ w: {w}, split: {split}, path: &[{}] }}",
            list.join(", ")
        )
    }

    /// Strips for `m`-high boards, as Rust source for a `LaneSet` constant.
    fn lane_set(name: &str, m: u32, closed: bool) -> String {
        let (k, mid, split) = middle(m);
        let e1 = rc(k, mid[0]);
        let e2 = rc(k, mid[split]);
        let x2 = rc(k, mid[mid.len() - 1]);
        eprintln!("{name}: middle k={k} e1={e1:?} e2={e2:?} x2={x2:?}");
        let mut right = None;
        for b in 4..20u32 {
            let ends = next_to(m, b, [0, 1], (e2.0, e2.1 - i64::from(k)));
            let start = (e1.0 * i64::from(b) + e1.1) as usize;
            if let Some(p) = search(m, b, start, &[], Some(&ends)) {
                right = Some((b, p));
                break;
            }
        }
        let (b, right) = right.expect("no right strip");
        eprintln!("{name}: right b={b}");
        let mut left: Vec<(u32, Vec<u8>, usize)> = Vec::new();
        for a in 4..4 + 3 * k {
            if left.iter().any(|l| (l.0 + b) % k == (a + b) % k) {
                continue;
            }
            // The first lane ends next to the middle's entry; the second starts next to the
            // middle's last square.
            let xs = next_to(m, a, [a - 2, a - 1], (e1.0, e1.1 + i64::from(a)));
            let ys = next_to(m, a, [a - 2, a - 1], (x2.0, x2.1 + i64::from(a)));
            let found = if closed {
                ys.iter().find_map(|&y| {
                    let p = search(m, a, y, &[], Some(&xs))?;
                    let len = p.len();
                    // One lane, from `y` round to `x`, walked first; the cycle closes on `y`.
                    Some((p, len))
                })
            } else {
                (0..(m * a) as usize).find_map(|s| {
                    xs.iter().find_map(|&x| {
                        ys.iter()
                            .find_map(|&y| split_at_jump(search(m, a, s, &[(x, y)], None)?, x, y))
                    })
                })
            };
            if let Some((p, split)) = found {
                eprintln!("{name}: left a={a}");
                left.push((a, p, split));
            }
        }
        let mut out = format!(
            "/// Strips for {m}-high boards ({}).\npub(super) const {name}: LaneSet = LaneSet {{\n    rows: {m},\n    middle: {},\n    right: {},\n    left: &[\n",
            if closed { "closed tours" } else { "open tours" },
            strip_source(k, &mid, split),
            strip_source(b, &right, right.len()),
        );
        for (a, p, split) in &left {
            out.push_str(&format!("        {},\n", strip_source(*a, p, *split)));
        }
        out.push_str("    ],\n};\n\n");
        out
    }

    /// Regenerates `lane_strips.rs`: run
    /// `cargo test --release --lib generate_lane_strips -- --ignored`, then `cargo fmt`.
    #[test]
    #[ignore = "rewrites src/solve/construct/lane_strips.rs; run by hand"]
    fn generate_lane_strips() {
        let mut out = String::from(
            "//! Two-lane strips, generated by\n\
             //! `cargo test --release --lib generate_lane_strips -- --ignored`; every tour built\n\
             //! from them is re-checked by the tests.\n\n\
             /// A path through an `m x w` strip (local `row * w + col`), crossed in two lanes:\n\
             /// `path[..split]` and `path[split..]` (one lane when `split` is the length).\n\
             pub(super) struct LaneStrip {\n    pub w: u8,\n    pub split: u8,\n    pub path: &'static [u8],\n}\n\n\
             /// The strips for one board height: `middle` repeats (first lane left to right, second\n\
             /// right to left), `right` turns round, `left` has one strip per width mod the middle's.\n\
             pub(super) struct LaneSet {\n    pub rows: u8,\n    pub middle: LaneStrip,\n    pub right: LaneStrip,\n    pub left: &'static [LaneStrip],\n}\n\n",
        );
        out.push_str(&lane_set("FOUR_OPEN", 4, false));
        out.push_str(&lane_set("THREE_CLOSED", 3, true));
        std::fs::write(
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/src/solve/construct/lane_strips.rs"
            ),
            out,
        )
        .unwrap();
    }

    #[test]
    fn strips_are_paths_with_knight_moves_inside_each_lane() {
        for set in [&FOUR_OPEN, &THREE_CLOSED] {
            let m = u32::from(set.rows);
            for strip in set.left.iter().chain([&set.right, &set.middle]) {
                let w = u32::from(strip.w);
                let board = Board::new(m, w).unwrap();
                let (a, b) = lanes(strip);
                for lane in [a, b] {
                    let squares = lane.iter().map(|&x| u32::from(x)).collect();
                    assert!(Tour::from_indices(board, squares).is_ok(), "{m}x{w}");
                }
                assert_eq!(strip.path.len(), (m * w) as usize);
            }
        }
    }
}
