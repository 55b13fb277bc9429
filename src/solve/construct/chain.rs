//! Open tours between two given squares of any board whose sides are both at least 5, in
//! linear time: a chain of blocks carries the path from the start's block to the end's block,
//! and every other block's closed tile is spliced into it.
//!
//! The board is cut into blocks as in `fill` (sides 5..=12; on an odd side the odd block is
//! placed on the start's block-row, or on the end's block-column, so the one odd x odd block of
//! an odd x odd board lies on the chain). The chain runs along the start's block-row to the
//! end's block-column, then along that column to the end's block. Each chain block gets a
//! Hamiltonian path of its own squares, searched in that block only (a few dozen squares, seeded
//! and deterministic, results cached: a long chain of equal blocks repeats a handful of
//! searches): from its entry square (the start, or a knight's move from the previous block's
//! exit) to an exit square beside the next block (or to the end), holding the join edges its
//! neighbours need. Every other block keeps its base tile's closed tour and hangs on a tree
//! towards the chain: along the start's block-row towards the chain, elsewhere along its
//! block-column towards that row. Splicing a cycle into a path by swapping two edges (as `fill`
//! joins blocks) keeps the path's two ends, so the result runs from the start to the end.
//!
//! Colours decide which exits can work: a path through a block with an even number of squares
//! ends on the other colour, through the odd block on the same (corner) colour; candidates are
//! filtered so, and the search only ever sees one block.

use std::collections::{HashMap, VecDeque};

use super::fill::{odd_cuts, parts};
use super::tile_search::{find_in, knight_neighbours, Graph};
use super::tiles::TILES;
use super::END;
use crate::board::KNIGHT_MOVES;

/// Seeded restarts and nodes per restart for one block's path.
const ATTEMPTS: u32 = 24;
const BUDGET: u64 = 4_000;

/// Exits banned (and blocks searched again) before a cut is given up.
const MAX_RETRIES: u32 = 12;

/// End-block paths (each banning the previous one's exit) tried before a cut is given up.
const MAX_TAILS: usize = 4;

/// Ways of cutting the board tried before giving up.
const MAX_CUTS: usize = 6;

/// Successors of an open tour of the `rows x cols` board (both at least 5) from `start` to
/// `end` (`(row, col)`, different squares), the start being move 1; `None` if no tried cut
/// gives one (the caller then searches).
pub(super) fn between(
    rows: u32,
    cols: u32,
    start: (u32, u32),
    end: (u32, u32),
) -> Option<Vec<u32>> {
    if rows < 5 || cols < 5 || start == end {
        return None;
    }
    let row_cuts = cuts(rows, start.0);
    let col_cuts = cuts(cols, end.1);
    let mut combos: Vec<(usize, usize)> = (0..row_cuts.len())
        .flat_map(|i| (0..col_cuts.len()).map(move |j| (i, j)))
        .collect();
    combos.sort_by_key(|&(i, j)| (i + j, i));
    let mut searches = Searches::default();
    for (i, j) in combos.into_iter().take(MAX_CUTS) {
        let grid = Grid::new(&row_cuts[i], &col_cuts[j], cols);
        if let Some(succ) = grid.build(start, end, &mut searches) {
            return Some(succ);
        }
    }
    None
}

/// Cuts of a side `len` into blocks; on an odd side the odd block covers position `at`.
fn cuts(len: u32, at: u32) -> Vec<Vec<u32>> {
    if len % 2 == 1 {
        return odd_cuts(len, at).into_iter().map(|(cut, _)| cut).collect();
    }
    let mut out: Vec<Vec<u32>> = parts(len).into_iter().collect();
    for first in [6u32, 10] {
        if len == first {
            out.push(vec![first]);
        } else if let Some(rest) = len.checked_sub(first).and_then(parts) {
            let mut cut = vec![first];
            cut.extend(rest);
            out.push(cut);
        }
    }
    out
}

/// Which side of a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Side {
    Left,
    Right,
    Top,
    Bottom,
}

/// A block: (block-row, block-column).
type Block = (usize, usize);

/// Each block's children on the splicing tree, with the side of the parent they hang on.
type Children = HashMap<Block, Vec<(Block, Side)>>;

/// The block grid.
struct Grid {
    row_starts: Vec<u32>,
    row_parts: Vec<u32>,
    col_starts: Vec<u32>,
    col_parts: Vec<u32>,
    cols: u32,
}

/// One block's path search, as cached: block size, entry, where it must end, required edges.
/// (The last field: exits banned because the next block could not go on from them.)
type SearchKey = (u32, u32, usize, Ends, Vec<(usize, usize)>, Vec<usize>);

/// Where a chain block's path may end.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Ends {
    /// On one of these squares (local indices).
    At(Vec<usize>),
    /// Beside this side, on squares of this colour (`(row + col) % 2` in the block).
    Beside(Side, u32),
}

/// Block paths searched so far (local indices in move order), shared by every cut tried.
#[derive(Default)]
struct Searches(HashMap<SearchKey, Option<Vec<usize>>>);

impl Searches {
    fn path(&mut self, key: SearchKey) -> Option<Vec<usize>> {
        if let Some(found) = self.0.get(&key) {
            return found.clone();
        }
        let found = search_block(&key);
        self.0.insert(key, found.clone());
        found
    }
}

/// The path one chain block needs, or `None`.
fn search_block(key: &SearchKey) -> Option<Vec<usize>> {
    let (h, w, entry, ends, required, banned) = key;
    let (h, w) = (*h as usize, *w as usize);
    let nbrs = knight_neighbours(h, w);
    let allowed: Vec<usize> = match ends {
        Ends::At(e) => e.clone(),
        &Ends::Beside(side, colour) => (0..h * w)
            .filter(|&l| {
                let (r, c) = (l / w, l % w);
                let near = match side {
                    Side::Left => c < 2,
                    Side::Right => c + 2 >= w,
                    Side::Top => r < 2,
                    Side::Bottom => r + 2 >= h,
                };
                near && ((r + c) % 2) as u32 == colour && l != *entry && !banned.contains(&l)
            })
            .collect(),
    };
    let graph = Graph {
        nbrs,
        required,
        start: *entry,
        closed: false,
        ends: Some(&allowed),
    };
    let seed = (h * 16 + w) as u64 ^ ((*entry as u64) << 8);
    find_in(&graph, seed, ATTEMPTS, BUDGET)
}

impl Grid {
    fn new(row_parts: &[u32], col_parts: &[u32], cols: u32) -> Grid {
        let starts = |p: &[u32]| {
            p.iter()
                .scan(0u32, |acc, &x| {
                    let s = *acc;
                    *acc += x;
                    Some(s)
                })
                .collect::<Vec<u32>>()
        };
        Grid {
            row_starts: starts(row_parts),
            row_parts: row_parts.to_vec(),
            col_starts: starts(col_parts),
            col_parts: col_parts.to_vec(),
            cols,
        }
    }

    fn block_of(&self, sq: (u32, u32)) -> (usize, usize) {
        let find = |starts: &[u32], x: u32| starts.iter().rposition(|&s| s <= x).unwrap_or(0);
        (find(&self.row_starts, sq.0), find(&self.col_starts, sq.1))
    }

    fn size(&self, b: (usize, usize)) -> (u32, u32) {
        (self.row_parts[b.0], self.col_parts[b.1])
    }

    /// Global index of block `b`'s local square `l`.
    fn global(&self, b: (usize, usize), l: usize) -> u32 {
        let w = self.col_parts[b.1] as usize;
        (self.row_starts[b.0] + (l / w) as u32) * self.cols + self.col_starts[b.1] + (l % w) as u32
    }

    /// Local index in block `b` of global `(row, col)`, if it lies there.
    fn local(&self, b: (usize, usize), sq: (u32, u32)) -> Option<usize> {
        let (r0, c0) = (self.row_starts[b.0], self.col_starts[b.1]);
        let (h, w) = self.size(b);
        let inside = sq.0 >= r0 && sq.0 < r0 + h && sq.1 >= c0 && sq.1 < c0 + w;
        inside.then(|| ((sq.0 - r0) * w + sq.1 - c0) as usize)
    }

    /// A block's join edge on `side` (local indices), as `fill` joins blocks.
    fn join_edge(&self, b: (usize, usize), side: Side) -> (usize, usize) {
        let (h, w) = self.size(b);
        let (h, w) = (h as usize, w as usize);
        let at = |r: usize, c: usize| r * w + c;
        match side {
            Side::Left => (at(0, 0), at(2, 1)),
            Side::Right => (at(1, w - 2), at(3, w - 1)),
            Side::Top => (at(1, 1), at(0, 3)),
            Side::Bottom => (at(h - 1, 0), at(h - 2, 2)),
        }
    }

    fn build(
        &self,
        start: (u32, u32),
        end: (u32, u32),
        searches: &mut Searches,
    ) -> Option<Vec<u32>> {
        let (nr, nc) = (self.row_parts.len(), self.col_parts.len());
        let (s, e) = (self.block_of(start), self.block_of(end));
        // The chain: along the start's block-row, then along the end's block-column.
        let mut chain = vec![s];
        let (mut i, mut j) = s;
        while j != e.1 {
            j = if e.1 > j { j + 1 } else { j - 1 };
            chain.push((i, j));
        }
        while i != e.0 {
            i = if e.0 > i { i + 1 } else { i - 1 };
            chain.push((i, j));
        }
        let on_chain = |b: (usize, usize)| chain.contains(&b);
        // Every other block's parent, one step towards the chain, and the sides joined.
        let mut children: Children = HashMap::new();
        let (lo, hi) = (s.1.min(e.1), s.1.max(e.1));
        for bi in 0..nr {
            for bj in 0..nc {
                let b = (bi, bj);
                if on_chain(b) {
                    continue;
                }
                // (parent, the parent's side facing the child)
                let parent = if bi == s.0 {
                    if bj < lo {
                        ((bi, bj + 1), Side::Left)
                    } else {
                        debug_assert!(bj > hi);
                        ((bi, bj - 1), Side::Right)
                    }
                } else if bi < s.0 {
                    ((bi + 1, bj), Side::Top)
                } else {
                    ((bi - 1, bj), Side::Bottom)
                };
                children.entry(parent.0).or_default().push((b, parent.1));
            }
        }
        let n = (self.row_starts[nr - 1] + self.row_parts[nr - 1]) as usize * self.cols as usize;
        let mut succ = vec![END; n];
        let paths = self.chain_paths(&chain, &children, start, end, searches)?;
        let mut came_from: Option<u32> = None;
        for (&b, path) in chain.iter().zip(&paths) {
            if let Some(from) = came_from {
                succ[from as usize] = self.global(b, path[0]);
            }
            for pair in path.windows(2) {
                succ[self.global(b, pair[0]) as usize] = self.global(b, pair[1]);
            }
            came_from = Some(self.global(b, *path.last()?));
        }
        // Other blocks: their tiles' closed tours, spliced in parents first.
        let mut queue: VecDeque<(usize, usize)> = chain.iter().copied().collect();
        while let Some(parent) = queue.pop_front() {
            for &(child, side) in children.get(&parent).map(Vec::as_slice).unwrap_or(&[]) {
                self.fill_tile(&mut succ, child)?;
                let facing = match side {
                    Side::Left => Side::Right,
                    Side::Right => Side::Left,
                    Side::Top => Side::Bottom,
                    Side::Bottom => Side::Top,
                };
                let (a1, a2) = self.join_edge(parent, side);
                let (b1, b2) = self.join_edge(child, facing);
                let g = |b, l| self.global(b, l) as usize;
                let (h, w) = self.size(child);
                splice(
                    &mut succ,
                    (g(parent, a1), g(parent, a2)),
                    (g(child, b1), g(child, b2)),
                    (h * w) as usize,
                )?;
                queue.push_back(child);
            }
        }
        Some(succ)
    }

    /// Required join edges of chain block `b` (sorted), for its children.
    fn required(&self, b: (usize, usize), children: &Children) -> Vec<(usize, usize)> {
        let mut required: Vec<(usize, usize)> = children
            .get(&b)
            .map(|cs| {
                cs.iter()
                    .map(|&(_, side)| self.join_edge(b, side))
                    .collect()
            })
            .unwrap_or_default();
        required.sort_unstable();
        required
    }

    /// Each chain block's path (local squares in move order). The end's block is searched
    /// first, backwards from the end to a square beside the block before it; the blocks from
    /// the start then go forwards, each from a knight's move after the previous exit (every
    /// such entry tried), the last one to a square a knight's move before the end block's
    /// path. A block that cannot go on bans the previous block's exit and that block is
    /// searched again.
    fn chain_paths(
        &self,
        chain: &[(usize, usize)],
        children: &Children,
        start: (u32, u32),
        end: (u32, u32),
        searches: &mut Searches,
    ) -> Option<Vec<Vec<usize>>> {
        let last_block = *chain.last()?;
        let colour_after = |b: (usize, usize), l: usize| {
            let (h, w) = self.size(b);
            let c = ((l / w as usize + l % w as usize) % 2) as u32;
            if (h * w) % 2 == 0 {
                1 - c
            } else {
                c
            }
        };
        if chain.len() == 1 {
            let (h, w) = self.size(last_block);
            let key = (
                h,
                w,
                self.local(last_block, start)?,
                Ends::At(vec![self.local(last_block, end)?]),
                self.required(last_block, children),
                Vec::new(),
            );
            return Some(vec![searches.path(key)?]);
        }
        let before_last = chain[chain.len() - 2];
        let e_local = self.local(last_block, end)?;
        let mut tail_banned: Vec<usize> = Vec::new();
        for _ in 0..MAX_TAILS {
            let (h, w) = self.size(last_block);
            let back = searches.path((
                h,
                w,
                e_local,
                Ends::Beside(
                    side_towards(last_block, before_last),
                    colour_after(last_block, e_local),
                ),
                self.required(last_block, children),
                tail_banned.clone(),
            ))?;
            let tail_first = *back.last()?;
            // The squares of the block before from which a knight reaches the tail's first.
            let meet = self.entries_after(last_block, tail_first, before_last, false);
            if let Some(mut paths) =
                self.forward(&chain[..chain.len() - 1], children, start, &meet, searches)
            {
                paths.push(back.into_iter().rev().collect());
                return Some(paths);
            }
            tail_banned.push(tail_first);
        }
        None
    }

    /// Paths through `chain` (not the end's block) from `start`, the last one ending on one of
    /// `meet`.
    fn forward(
        &self,
        chain: &[(usize, usize)],
        children: &Children,
        start: (u32, u32),
        meet: &[usize],
        searches: &mut Searches,
    ) -> Option<Vec<Vec<usize>>> {
        let mut paths: Vec<Vec<usize>> = Vec::with_capacity(chain.len());
        let mut entries: Vec<Vec<usize>> = vec![vec![self.local(chain[0], start)?]];
        let mut banned: Vec<Vec<usize>> = vec![Vec::new(); chain.len()];
        let mut retries = 0;
        let mut k = 0;
        while k < chain.len() {
            let b = chain[k];
            let (h, w) = self.size(b);
            let required = self.required(b, children);
            let next = chain.get(k + 1).copied();
            let found = entries[k].iter().find_map(|&entry| {
                let entry_colour = ((entry / w as usize + entry % w as usize) % 2) as u32;
                let exit_colour = if (h * w) % 2 == 0 {
                    1 - entry_colour
                } else {
                    entry_colour
                };
                let ends = match next {
                    None => {
                        let ok: Vec<usize> = meet
                            .iter()
                            .copied()
                            .filter(|&l| {
                                ((l / w as usize + l % w as usize) % 2) as u32 == exit_colour
                                    && l != entry
                            })
                            .collect();
                        if ok.is_empty() {
                            return None;
                        }
                        Ends::At(ok)
                    }
                    Some(nb) => Ends::Beside(side_towards(b, nb), exit_colour),
                };
                searches.path((h, w, entry, ends, required.clone(), banned[k].clone()))
            });
            match found {
                Some(path) => {
                    if let Some(nb) = next {
                        let last = *path.last()?;
                        entries.truncate(k + 1);
                        entries.push(self.entries_after(b, last, nb, true));
                    }
                    paths.truncate(k);
                    paths.push(path);
                    k += 1;
                }
                None => {
                    if k == 0 || retries >= MAX_RETRIES {
                        return None;
                    }
                    retries += 1;
                    let exit = *paths[k - 1].last()?;
                    banned[k - 1].push(exit);
                    banned[k].clear();
                    k -= 1;
                }
            }
        }
        Some(paths)
    }

    /// The entry squares (local to `next`) after `exit` (local to `b`): knight's moves across,
    /// on the colour a path through `next` can start on (the corners' colour for an odd block).
    fn entries_after(
        &self,
        b: (usize, usize),
        exit: usize,
        next: (usize, usize),
        starts: bool,
    ) -> Vec<usize> {
        let w = self.col_parts[b.1] as usize;
        let (r, c) = (
            self.row_starts[b.0] as i64 + (exit / w) as i64,
            self.col_starts[b.1] as i64 + (exit % w) as i64,
        );
        let (h2, w2) = self.size(next);
        let odd = starts && (h2 * w2) % 2 == 1;
        KNIGHT_MOVES
            .iter()
            .filter_map(|&(dr, dc)| {
                let (r2, c2) = (r + i64::from(dr), c + i64::from(dc));
                if r2 < 0 || c2 < 0 {
                    return None;
                }
                let l = self.local(next, (r2 as u32, c2 as u32))?;
                let (lr, lc) = (l / w2 as usize, l % w2 as usize);
                (!odd || (lr + lc) % 2 == 0).then_some(l)
            })
            .collect()
    }

    /// Write block `b`'s base tile (a closed tour) into `succ`.
    fn fill_tile(&self, succ: &mut [u32], b: (usize, usize)) -> Option<()> {
        let (h, w) = self.size(b);
        let tile = TILES
            .iter()
            .find(|t| u32::from(t.rows) == h && u32::from(t.cols) == w)?;
        if (h * w) % 2 == 1 {
            return None;
        }
        let order = tile.order;
        for (k, &l) in order.iter().enumerate() {
            let next = order[(k + 1) % order.len()];
            succ[self.global(b, usize::from(l)) as usize] = self.global(b, usize::from(next));
        }
        Some(())
    }
}

/// The side of block `b` facing the neighbouring block `nb`.
fn side_towards(b: (usize, usize), nb: (usize, usize)) -> Side {
    if nb.1 > b.1 {
        Side::Right
    } else if nb.1 < b.1 {
        Side::Left
    } else if nb.0 > b.0 {
        Side::Bottom
    } else {
        Side::Top
    }
}

/// Splice the cycle through `child` (of `len` squares, holding edge `b1-b2`) into the path or
/// cycle holding edge `a1-a2`, where `a1-b1` and `a2-b2` are knight's moves: the two edges go,
/// the two crossing moves come, and the child's cycle is turned round first if its direction
/// does not fit. `None` if either edge is missing.
fn splice(succ: &mut [u32], a: (usize, usize), b: (usize, usize), len: usize) -> Option<()> {
    let (a1, a2) = a;
    let (b1, b2) = b;
    let forward = if succ[a1] == a2 as u32 {
        true
    } else if succ[a2] == a1 as u32 {
        false
    } else {
        return None;
    };
    // Forward (a1 -> a2): the child must run b2 -> b1 so that a1 -> b1 ... b2 -> a2.
    let (from, to) = if forward { (b2, b1) } else { (b1, b2) };
    if succ[from] != to as u32 {
        if succ[to] != from as u32 {
            return None;
        }
        reverse_cycle(succ, from, len);
    }
    if forward {
        succ[a1] = b1 as u32;
        succ[b2] = a2 as u32;
    } else {
        succ[a2] = b2 as u32;
        succ[b1] = a1 as u32;
    }
    Some(())
}

/// Turn round the cycle of `len` squares through `at`.
fn reverse_cycle(succ: &mut [u32], at: usize, len: usize) {
    let mut prev = at as u32;
    for _ in 0..len - 1 {
        prev = succ[prev as usize];
    }
    let mut cur = at as u32;
    for _ in 0..len {
        let next = succ[cur as usize];
        succ[cur as usize] = prev;
        prev = cur;
        cur = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Square};
    use crate::tour::Tour;

    fn check(rows: u32, cols: u32, s: (u32, u32), e: (u32, u32)) -> bool {
        let Some(succ) = between(rows, cols, s, e) else {
            return false;
        };
        let board = Board::new(rows, cols).unwrap();
        let mut order = Vec::with_capacity(board.len());
        let mut cur = s.0 * cols + s.1;
        while cur != END && order.len() <= board.len() {
            order.push(cur);
            cur = succ[cur as usize];
        }
        let tour = Tour::from_indices(board, order).unwrap();
        assert!(tour.is_complete(), "{rows}x{cols} {s:?} {e:?}");
        assert_eq!(tour.end(), Some(Square::new(e.0, e.1)));
        true
    }

    #[test]
    fn corner_to_corner_and_middles() {
        assert!(check(8, 8, (0, 0), (7, 0)));
        assert!(check(20, 30, (3, 4), (17, 3)));
        assert!(check(21, 23, (0, 0), (20, 22)));
        assert!(check(5, 60, (0, 0), (4, 1)));
    }

    #[test]
    #[ignore = "survey"]
    fn survey() {
        use rand::Rng as _;
        let mut rng = crate::solve::rng_from_seed(1);
        let mut fails = 0;
        for _ in 0..400 {
            let rows = rng.random_range(5..9);
            let cols = rng.random_range(5..300);
            let odd = (rows * cols) % 2 == 1;
            let pick = |rng: &mut crate::solve::Rng| {
                (rng.random_range(0..rows), rng.random_range(0..cols))
            };
            let s = pick(&mut rng);
            let e = pick(&mut rng);
            let (cs, ce) = ((s.0 + s.1) % 2, (e.0 + e.1) % 2);
            if s == e || (odd && (cs != 0 || ce != 0)) || (!odd && cs == ce) {
                continue;
            }
            if !check(rows, cols, s, e) && !check(rows, cols, e, s) {
                fails += 1;
                println!("fail {rows}x{cols} {s:?} {e:?}");
            }
        }
        println!("fails {fails}");
    }
}
