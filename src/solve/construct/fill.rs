//! Filling a successor array block by block and joining the blocks' cycles.
//!
//! The board is cut into a grid of blocks whose sides come from 5..=12 (see [`parts`]). Every
//! block gets a base tile's tour (a closed tour, or a Hamiltonian path for the one odd x odd
//! block of an odd x odd board), copied as `succ[g] = g + delta` with per-tile deltas, which is
//! a streaming write. Neighbouring blocks are then joined along a comb-shaped spanning tree
//! (left to right along every block-row, top to bottom along the first block-column): each join
//! deletes one tour edge on each side of the boundary and adds the two crossing knight moves.
//! Joining two different cycles (or a cycle and a path) that way always leaves one cycle (path),
//! so after the last join the blocks form a single tour.
//!
//! The join edges, in block-local `(row, col)`:
//! - horizontal, block `A` left of `B`: `A`'s `(1, w-2)-(3, w-1)` and `B`'s corner edge
//!   `(0, 0)-(2, 1)`; the added moves are `A(1, w-2)-B(0, 0)` and `A(3, w-1)-B(2, 1)`;
//! - vertical, block `P` above `Q` (first block-column only): `P`'s corner edge
//!   `(h-1, 0)-(h-2, 2)` and `Q`'s `(1, 1)-(0, 3)`; the added moves are `P(h-1, 0)-Q(1, 1)` and
//!   `P(h-2, 2)-Q(0, 3)`.
//!
//! Corner edges are in every closed tour (a corner has only two moves); the tiles are searched
//! so that they also hold `(1, w-2)-(3, w-1)` and `(1, 1)-(0, 3)`. Successors only run one way,
//! so a block's tour is reversed where the join needs it; which way is decided before filling.

use std::collections::HashMap;

use super::tile_search::{self as search, Goal};
use super::tiles::TILES;
use super::END;

/// Block sides for a board side `len`: mostly 8, with one block of 5..=12 to make up the rest,
/// placed last. `None` below 5 (no blocks that small).
pub(super) fn parts(len: u32) -> Option<Vec<u32>> {
    if len < 5 {
        return None;
    }
    let last = match len % 8 {
        0 => 8,
        1 => 9,
        2 => 10,
        3 => 11,
        4 => 12,
        r => r, // 5, 6, 7
    };
    debug_assert!(last <= len && (len - last).is_multiple_of(8));
    let mut out = vec![8; ((len - last) / 8) as usize];
    out.push(last);
    Some(out)
}

/// A base tile prepared for one board width: its forward successors (local indices, `u8::MAX`
/// for a path's end) and, for each direction, `succ - self` as board index differences.
struct Prepared {
    rows: u32,
    cols: u32,
    succ: Vec<u8>,
    /// Local index of the first square in move order (meaningful for paths).
    first: u32,
    /// Local index of the last square in move order.
    last: u32,
    /// `deltas[rev]`: index difference to the successor, forward (0) or reversed (1); 0 where
    /// there is no successor.
    deltas: [Vec<i32>; 2],
}

impl Prepared {
    fn new(rows: u32, cols: u32, order: &[u8], board_cols: u32) -> Prepared {
        let n = order.len();
        let closed = (rows * cols).is_multiple_of(2);
        let mut succ = vec![u8::MAX; n];
        let mut pred = vec![u8::MAX; n];
        for i in 0..n {
            let a = order[i];
            let b = if i + 1 < n {
                order[i + 1]
            } else if closed {
                order[0]
            } else {
                continue;
            };
            succ[usize::from(a)] = b;
            pred[usize::from(b)] = a;
        }
        let delta = |from: usize, to: u8| -> i32 {
            if to == u8::MAX {
                return 0;
            }
            let (fr, fc) = ((from as u32 / cols) as i32, (from as u32 % cols) as i32);
            let (tr, tc) = ((u32::from(to) / cols) as i32, (u32::from(to) % cols) as i32);
            (tr - fr) * board_cols as i32 + (tc - fc)
        };
        let fwd = succ.iter().enumerate().map(|(i, &t)| delta(i, t)).collect();
        let rev = pred.iter().enumerate().map(|(i, &t)| delta(i, t)).collect();
        Prepared {
            rows,
            cols,
            succ,
            first: u32::from(order[0]),
            last: u32::from(order[n - 1]),
            deltas: [fwd, rev],
        }
    }

    fn local(&self, row: u32, col: u32) -> u8 {
        (row * self.cols + col) as u8
    }

    /// Whether the tour, walked in direction `rev`, moves from `a` to `b`.
    fn goes(&self, rev: bool, a: (u32, u32), b: (u32, u32)) -> bool {
        let (a, b) = (self.local(a.0, a.1), self.local(b.0, b.1));
        if rev {
            self.succ[usize::from(b)] == a
        } else {
            self.succ[usize::from(a)] == b
        }
    }
}

/// Tiles prepared for one board, by `(rows - 5) * 8 + (cols - 5)`.
struct Kit {
    tiles: Vec<Option<Prepared>>,
}

impl Kit {
    fn new(row_parts: &[u32], col_parts: &[u32], board_cols: u32) -> Kit {
        let mut tiles: Vec<Option<Prepared>> = (0..64).map(|_| None).collect();
        let mut heights: Vec<u32> = row_parts.to_vec();
        heights.sort_unstable();
        heights.dedup();
        let mut widths: Vec<u32> = col_parts.to_vec();
        widths.sort_unstable();
        widths.dedup();
        for &h in &heights {
            for &w in &widths {
                let key = Kit::key(h, w);
                tiles[key] = TILES
                    .iter()
                    .find(|t| u32::from(t.rows) == h && u32::from(t.cols) == w)
                    .map(|t| Prepared::new(h, w, t.order, board_cols));
            }
        }
        Kit { tiles }
    }

    fn key(h: u32, w: u32) -> usize {
        ((h - 5) * 8 + (w - 5)) as usize
    }

    fn get(&self, h: u32, w: u32) -> Option<&Prepared> {
        self.tiles[Kit::key(h, w)].as_ref()
    }
}

/// Direction of block `B` right of `A` (walked `rev_a`) that makes their join consistent.
fn rev_right(a: &Prepared, rev_a: bool, b: &Prepared) -> bool {
    let w = a.cols;
    let a_pq = a.goes(rev_a, (1, w - 2), (3, w - 1));
    // The crossing moves pair p=(1,w-2) with s=(0,0) and q=(3,w-1) with t=(2,1): A must run
    // p->q exactly when B runs t->s.
    a_pq != b.goes(false, (2, 1), (0, 0))
}

/// Direction of block `Q` below `P` (walked `rev_p`) that makes their join consistent.
fn rev_below(p: &Prepared, rev_p: bool, q: &Prepared) -> bool {
    let h = p.rows;
    let p_pq = p.goes(rev_p, (h - 1, 0), (h - 2, 2));
    // p=(h-1,0) pairs with s=(1,1), q=(h-2,2) with t=(0,3).
    p_pq != q.goes(false, (0, 3), (1, 1))
}

/// Swap edges `p-q` and `s-t` (global indices, each a tour edge in some direction) for the
/// crossing moves `p-s` and `q-t`, keeping successors consistent.
fn join(succ: &mut [u32], p: usize, q: usize, s: usize, t: usize) {
    if succ[p] == q as u32 {
        debug_assert_eq!(succ[t], s as u32);
        succ[p] = s as u32;
        succ[t] = q as u32;
    } else {
        debug_assert_eq!(succ[q], p as u32);
        debug_assert_eq!(succ[s], t as u32);
        succ[q] = t as u32;
        succ[s] = p as u32;
    }
}

/// How the board is cut: block sides down and across, and where the one odd x odd block of an
/// odd x odd board sits, with its own tile.
pub(super) struct Layout {
    row_parts: Vec<u32>,
    col_parts: Vec<u32>,
    odd: Option<(usize, usize, Prepared)>,
}

impl Layout {
    /// The default cut: blocks of 8 with the odd-sized ones last, hard-coded tiles only.
    pub(super) fn standard(rows: u32, cols: u32) -> Option<Layout> {
        let row_parts = parts(rows)?;
        let col_parts = parts(cols)?;
        let odd = if rows % 2 == 1 && cols % 2 == 1 {
            let (h, w) = (
                row_parts[row_parts.len() - 1],
                col_parts[col_parts.len() - 1],
            );
            let tile = TILES
                .iter()
                .find(|t| u32::from(t.rows) == h && u32::from(t.cols) == w)?;
            let prepared = Prepared::new(h, w, tile.order, cols);
            Some((row_parts.len() - 1, col_parts.len() - 1, prepared))
        } else {
            None
        };
        Some(Layout {
            row_parts,
            col_parts,
            odd,
        })
    }

    /// A cut of an odd x odd board whose odd block holds `start` (a corner-coloured square),
    /// with a tile searched to begin there; `None` if no tried cut gives one.
    pub(super) fn starting_at(rows: u32, cols: u32, start: (u32, u32)) -> Option<Layout> {
        let row_options = odd_cuts(rows, start.0);
        let col_options = odd_cuts(cols, start.1);
        let mut combos: Vec<(usize, usize)> = (0..row_options.len())
            .flat_map(|i| (0..col_options.len()).map(move |j| (i, j)))
            .collect();
        combos.sort_by_key(|&(i, j)| (i + j, i));
        for (i, j) in combos {
            let (row_parts, bi) = &row_options[i];
            let (col_parts, bj) = &col_options[j];
            let (h, w) = (row_parts[*bi], col_parts[*bj]);
            let local = |r: u32, c: u32| (r * w + c) as usize;
            let r0: u32 = row_parts[..*bi].iter().sum();
            let c0: u32 = col_parts[..*bj].iter().sum();
            let mut edges = Vec::new();
            if *bj > 0 {
                edges.push((local(0, 0), local(2, 1)));
            }
            if *bj + 1 < col_parts.len() {
                edges.push((local(1, w - 2), local(3, w - 1)));
            }
            if *bj == 0 && *bi > 0 {
                edges.push((local(1, 1), local(0, 3)));
            }
            if *bj == 0 && *bi + 1 < row_parts.len() {
                edges.push((local(h - 1, 0), local(h - 2, 2)));
            }
            let goal = Goal {
                rows: h as usize,
                cols: w as usize,
                start: local(start.0 - r0, start.1 - c0),
                edges: &edges,
                closed: false,
                ends: None,
                jumps: &[],
            };
            if let Some(order) = search::find(&goal, u64::from(h * 16 + w), 20, 20_000) {
                let prepared = Prepared::new(h, w, &order, cols);
                return Some(Layout {
                    row_parts: row_parts.clone(),
                    col_parts: col_parts.clone(),
                    odd: Some((*bi, *bj, prepared)),
                });
            }
        }
        None
    }
}

/// Ways to cut an odd side `len` so that the odd part (5, 7, 9 or 11) covers position `s`:
/// the parts and the odd part's index, the most central placement of `s` first.
pub(super) fn odd_cuts(len: u32, s: u32) -> Vec<(Vec<u32>, usize)> {
    let even_ok = |x: u32| x == 0 || (x >= 6 && x.is_multiple_of(2));
    let mut found: Vec<(u32, Vec<u32>, usize)> = Vec::new();
    for o in [7u32, 9, 5, 11] {
        if o > len {
            continue;
        }
        for p in (s + 1).saturating_sub(o)..=s.min(len - o) {
            let q = len - p - o;
            if !even_ok(p) || !even_ok(q) {
                continue;
            }
            let mut cut = if p == 0 {
                Vec::new()
            } else {
                parts(p).unwrap_or_default()
            };
            let at = cut.len();
            cut.push(o);
            if q > 0 {
                cut.extend(parts(q).unwrap_or_default());
            }
            let off_centre = (2 * (s - p) + 1).abs_diff(o);
            found.push((off_centre, cut, at));
        }
    }
    found.sort_by_key(|f| f.0);
    found
        .into_iter()
        .map(|(_, cut, at)| (cut, at))
        .take(6)
        .collect()
}

/// The successor array of a tour of a `rows x cols` board (both at least 5) cut as `layout`,
/// and its first square: a closed tour unless both sides are odd, then an open one that starts
/// and ends in the odd block, ending where `succ[end] == END`. `None` if a tile is missing.
pub(super) fn build(rows: u32, cols: u32, layout: &Layout) -> Option<(u32, Vec<u32>)> {
    let (row_parts, col_parts) = (&layout.row_parts, &layout.col_parts);
    let kit = Kit::new(row_parts, col_parts, cols);
    let tile_at = |i: usize, j: usize| -> Option<&Prepared> {
        match &layout.odd {
            Some((oi, oj, t)) if (*oi, *oj) == (i, j) => Some(t),
            _ => kit.get(row_parts[i], col_parts[j]),
        }
    };
    // Walk the tree from the top-left block to the odd block, so the whole tour can be turned
    // to run that block's path forwards (from its first square).
    let mut root_rev = false;
    if let Some((oi, oj, _)) = &layout.odd {
        let mut rev = false;
        for i in 1..=*oi {
            rev = rev_below(tile_at(i - 1, 0)?, rev, tile_at(i, 0)?);
        }
        for j in 1..=*oj {
            rev = rev_right(tile_at(*oi, j - 1)?, rev, tile_at(*oi, j)?);
        }
        root_rev = rev;
    }
    let n = rows as usize * cols as usize;
    let c = cols as usize;
    let mut succ = vec![0u32; n];
    let col_starts: Vec<u32> = col_parts
        .iter()
        .scan(0, |acc, &w| {
            let s = *acc;
            *acc += w;
            Some(s)
        })
        .collect();
    // Block-rows of the same height whose first block runs the same way repeat one pattern of
    // deltas: on tall boards it is built once and each row becomes one vectorised pass. (Short
    // boards copy tile by tile, so the patterns never cost more than a sliver of the output.)
    let mut strips: Option<HashMap<(u32, bool, bool), Vec<i32>>> =
        (row_parts.len() >= PATTERN_MIN_BLOCK_ROWS).then(HashMap::new);
    let mut blocks: Vec<(&Prepared, bool)> = Vec::with_capacity(col_parts.len());
    let mut prev_first: Option<(&Prepared, bool)> = None;
    let mut start = 0u32;
    let mut r0 = 0u32;
    for (i, &h) in row_parts.iter().enumerate() {
        blocks.clear();
        for j in 0..col_parts.len() {
            let tile = tile_at(i, j)?;
            let rev = match (j, prev_first) {
                (0, None) => root_rev,
                (0, Some((p, rev_p))) => rev_below(p, rev_p, tile),
                _ => {
                    let (a, rev_a) = blocks[j - 1];
                    rev_right(a, rev_a, tile)
                }
            };
            blocks.push((tile, rev));
        }
        let odd_row = layout.odd.as_ref().is_some_and(|o| o.0 == i);
        if let Some(cache) = strips.as_mut() {
            let pattern = cache
                .entry((h, blocks[0].1, odd_row))
                .or_insert_with(|| strip_pattern(c, &col_starts, &blocks));
            fill_from_pattern(&mut succ, c, r0, pattern);
        } else {
            fill_strip(&mut succ, c, r0, &col_starts, &blocks);
        }
        if let Some((oi, oj, odd)) = &layout.odd {
            if *oi == i {
                debug_assert!(!blocks[*oj].1, "the odd block runs forwards");
                let c0 = col_starts[*oj];
                let global = |l: u32| (r0 + l / odd.cols) * cols + c0 + l % odd.cols;
                start = global(odd.first);
                succ[global(odd.last) as usize] = END;
            }
        }
        let at = |row: u32, col: u32| row as usize * c + col as usize;
        if prev_first.is_some() {
            join(
                &mut succ,
                at(r0 - 1, 0),
                at(r0 - 2, 2),
                at(r0 + 1, 1),
                at(r0, 3),
            );
        }
        for &b0 in &col_starts[1..] {
            join(
                &mut succ,
                at(r0 + 1, b0 - 2),
                at(r0 + 3, b0 - 1),
                at(r0, b0),
                at(r0 + 2, b0 + 1),
            );
        }
        prev_first = Some(blocks[0]);
        r0 += h;
    }
    Some((start, succ))
}

/// Boards with at least this many block-rows fill from cached strip patterns.
const PATTERN_MIN_BLOCK_ROWS: usize = 32;

/// The deltas of one block-row, `h` rows of `c`, from its blocks' tiles.
fn strip_pattern(c: usize, col_starts: &[u32], blocks: &[(&Prepared, bool)]) -> Vec<i32> {
    let h = blocks[0].0.rows as usize;
    let mut pattern = vec![0i32; h * c];
    for (&(tile, rev), &c0) in blocks.iter().zip(col_starts) {
        let w = tile.cols as usize;
        for t in 0..h {
            let src = &tile.deltas[usize::from(rev)][t * w..(t + 1) * w];
            let at = t * c + c0 as usize;
            pattern[at..at + w].copy_from_slice(src);
        }
    }
    pattern
}

/// Fill the block-row with top row `r0` from its pattern: `succ[g] = g + delta`.
fn fill_from_pattern(succ: &mut [u32], c: usize, r0: u32, pattern: &[i32]) {
    let first = r0 as usize * c;
    let dst = &mut succ[first..first + pattern.len()];
    for (k, (out, &d)) in dst.iter_mut().zip(pattern).enumerate() {
        *out = (first as u32 + k as u32).wrapping_add(d as u32);
    }
}

/// Copy the tiles of one block-row (top row `r0`) into the successor array.
fn fill_strip(
    succ: &mut [u32],
    c: usize,
    r0: u32,
    col_starts: &[u32],
    blocks: &[(&Prepared, bool)],
) {
    let h = blocks[0].0.rows;
    for t in 0..h {
        let row_base = (r0 + t) as usize * c;
        let row = &mut succ[row_base..row_base + c];
        for (&(tile, rev), &c0) in blocks.iter().zip(col_starts) {
            let w = tile.cols as usize;
            let deltas = &tile.deltas[usize::from(rev)][t as usize * w..(t as usize + 1) * w];
            let first = row_base as u32 + c0;
            let dst = &mut row[c0 as usize..c0 as usize + w];
            for (k, (out, &d)) in dst.iter_mut().zip(deltas).enumerate() {
                *out = (first + k as u32).wrapping_add(d as u32);
            }
        }
    }
}
