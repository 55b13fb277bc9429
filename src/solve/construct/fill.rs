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

use super::tiles::TILES;
use super::{Tile, END};

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
    fn new(tile: &Tile, board_cols: u32) -> Prepared {
        let (rows, cols) = (u32::from(tile.rows), u32::from(tile.cols));
        let n = tile.order.len();
        let closed = (rows * cols).is_multiple_of(2);
        let mut succ = vec![u8::MAX; n];
        let mut pred = vec![u8::MAX; n];
        for i in 0..n {
            let a = tile.order[i];
            let b = if i + 1 < n {
                tile.order[i + 1]
            } else if closed {
                tile.order[0]
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
            first: u32::from(tile.order[0]),
            last: u32::from(tile.order[n - 1]),
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
                    .map(|t| Prepared::new(t, board_cols));
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

/// The successor array of a tour of a `rows x cols` board (both at least 5) and its first
/// square: a closed tour unless both sides are odd, then an open one ending where
/// `succ[end] == END`. `None` if a needed tile is missing.
pub(super) fn build(rows: u32, cols: u32) -> Option<(u32, Vec<u32>)> {
    let row_parts = parts(rows)?;
    let col_parts = parts(cols)?;
    let kit = Kit::new(&row_parts, &col_parts, cols);
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
    let mut blocks: Vec<(&Prepared, bool)> = Vec::with_capacity(col_parts.len());
    let mut prev_first: Option<(&Prepared, bool)> = None;
    let mut start = 0u32;
    let mut r0 = 0u32;
    for &h in &row_parts {
        blocks.clear();
        for (j, &w) in col_parts.iter().enumerate() {
            let tile = kit.get(h, w)?;
            let rev = match (j, prev_first) {
                (0, None) => false,
                (0, Some((p, rev_p))) => rev_below(p, rev_p, tile),
                _ => {
                    let (a, rev_a) = blocks[j - 1];
                    rev_right(a, rev_a, tile)
                }
            };
            blocks.push((tile, rev));
        }
        fill_strip(&mut succ, c, r0, &col_starts, &blocks);
        // The one odd x odd block (bottom-right) holds the path's ends.
        let (last_tile, last_rev) = blocks[blocks.len() - 1];
        if (last_tile.rows * last_tile.cols) % 2 == 1 {
            let (first, last) = if last_rev {
                (last_tile.last, last_tile.first)
            } else {
                (last_tile.first, last_tile.last)
            };
            let c0 = col_starts[col_starts.len() - 1];
            let global = |l: u32| (r0 + l / last_tile.cols) * cols + c0 + l % last_tile.cols;
            start = global(first);
            succ[global(last) as usize] = END;
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
