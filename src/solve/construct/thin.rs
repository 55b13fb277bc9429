//! Open tours of boards 3 squares high (and any length), by chaining paths of strips.
//!
//! The board is cut across into strips `L | M | M | ... | M | R`. Every strip gets a
//! Hamiltonian path, and each path's last square is a knight's move from the next path's first
//! square, so together they are one open tour. `M` (width `k`) runs from an entry square `e` in
//! its first two columns to an exit one knight's move from `e` in the next strip, so copies of it
//! repeat; `L` ends next to `e` and `R` starts on `e`. Widths of `L` and `R` are picked so that
//! `L + q k + R` is the board's length. The three paths come from a small seeded search
//! (deterministic); short boards are searched whole.
//!
//! Boards 4 high cannot be chained this way (see `four`).

use super::tile_search::{self as search, Goal};
use super::END;

/// Seeded restarts and nodes per restart for one strip.
const ATTEMPTS: u32 = 6;
const BUDGET: u64 = 20_000;

/// Boards up to this length are searched whole.
const SEARCH_WHOLE: u32 = 16;

/// A path through an `m x w` strip, as local indices `row * w + col` in move order.
pub(super) struct Strip {
    pub w: u32,
    pub path: Vec<u8>,
}

/// A piece of a tour: squares of the strip at column `c0`, `w` wide, local indices in move
/// order.
pub(super) struct Segment<'a> {
    pub c0: u32,
    pub w: u32,
    pub squares: &'a [u8],
}

fn knight(a: (i64, i64), b: (i64, i64)) -> bool {
    let (dr, dc) = ((a.0 - b.0).abs(), (a.1 - b.1).abs());
    (dr == 1 && dc == 2) || (dr == 2 && dc == 1)
}

fn path(m: u32, w: u32, start: u32, ends: Option<&[usize]>) -> Option<Vec<u8>> {
    let goal = Goal {
        rows: m as usize,
        cols: w as usize,
        start: start as usize,
        edges: &[],
        closed: false,
        ends,
        jumps: &[],
    };
    search::find(&goal, u64::from(m * 64 + w), ATTEMPTS, BUDGET)
}

/// Squares in the last two columns of an `m x w` strip one knight's move from local square
/// `(row, col)` of the strip to its right.
fn exits_to(m: u32, w: u32, row: u32, col: u32) -> Vec<usize> {
    let target = (i64::from(row), i64::from(w + col));
    (0..m)
        .flat_map(|r| [w - 2, w - 1].map(|c| (r, c)))
        .filter(|&(r, c)| knight((i64::from(r), i64::from(c)), target))
        .map(|(r, c)| (r * w + c) as usize)
        .collect()
}

/// The repeating strip: its path and entry square `(row, col)`.
fn middle(m: u32) -> Option<(Strip, (u32, u32))> {
    // 3 x 5 and 3 x 6 strips have no paths at all; 7 is the first width that works.
    for k in 7..=10 {
        for col in 0..2 {
            for row in 0..m {
                let exits = exits_to(m, k, row, col);
                if let Some(p) = path(m, k, row * k + col, Some(&exits)) {
                    return Some((Strip { w: k, path: p }, (row, col)));
                }
            }
        }
    }
    None
}

/// A first strip of width `a` ending next to the entry `e` of the strip after it.
fn left(m: u32, a: u32, e: (u32, u32)) -> Option<Strip> {
    if a < 2 {
        return None;
    }
    exits_to(m, a, e.0, e.1).into_iter().find_map(|x| {
        let mut p = path(m, a, x as u32, None)?;
        p.reverse();
        Some(Strip { w: a, path: p })
    })
}

/// An open tour of the `m x n` board (made for `m = 3`) as its first square and successors,
/// `None` if none was found.
pub(super) fn open(m: u32, n: u32) -> Option<(u32, Vec<u32>)> {
    let strips = if n <= SEARCH_WHOLE {
        whole(m, n)?
    } else {
        chained(m, n)?
    };
    let mut c0 = 0;
    let segments: Vec<Segment> = strips
        .iter()
        .map(|s| {
            let seg = Segment {
                c0,
                w: s.w,
                squares: &s.path,
            };
            c0 += s.w;
            seg
        })
        .collect();
    Some(link(m, n, &segments))
}

/// The `m x n` board searched whole, as one strip.
pub(super) fn whole(m: u32, n: u32) -> Option<Vec<Strip>> {
    (0..m * n)
        .find_map(|s| path(m, n, s, None))
        .map(|p| vec![Strip { w: n, path: p }])
}

fn chained(m: u32, n: u32) -> Option<Vec<Strip>> {
    let (mid, e) = middle(m)?;
    let k = mid.w;
    // 3 x 3, 3 x 5 and 3 x 6 strips have no Hamiltonian paths: skip them.
    let widths = |from: u32, to: u32| (from..to).filter(|&w| w == 4 || w >= 7);
    for b in widths(4, 4 + k) {
        let Some(r) = path(m, b, e.0 * b + e.1, None) else {
            continue;
        };
        for a in widths(4, 4 + 2 * k).filter(|&a| a + b <= n && (n - a - b).is_multiple_of(k)) {
            let Some(l) = left(m, a, e) else { continue };
            let q = (n - a - b) / k;
            let mut strips = vec![l];
            strips.extend((0..q).map(|_| Strip {
                w: k,
                path: mid.path.clone(),
            }));
            strips.push(Strip { w: b, path: r });
            return Some(strips);
        }
    }
    None
}

/// Walk the segments in order, linking each one's last square to the next one's first.
pub(super) fn link(m: u32, n: u32, segments: &[Segment]) -> (u32, Vec<u32>) {
    let mut next = vec![END; (m * n) as usize];
    let mut prev_end: Option<u32> = None;
    let mut start = 0;
    for seg in segments {
        let global = |l: u8| (u32::from(l) / seg.w) * n + seg.c0 + u32::from(l) % seg.w;
        let Some(&first) = seg.squares.first() else {
            continue;
        };
        match prev_end {
            Some(p) => next[p as usize] = global(first),
            None => start = global(first),
        }
        for pair in seg.squares.windows(2) {
            next[global(pair[0]) as usize] = global(pair[1]);
        }
        prev_end = seg.squares.last().map(|&l| global(l));
    }
    (start, next)
}
