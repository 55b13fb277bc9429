//! Depth-first search for small tiles' tours that contain given edges: used to generate the
//! hard-coded base tiles (an ignored test) and, at run time, the one odd x odd block of an odd x
//! odd board when the tour must start on a given square.
//!
//! Warnsdorff ordering with random tie-breaks, a node budget per attempt and a fixed number of
//! seeded restarts, so the same input always gives the same tile (or the same `None`).

use rand::{Rng as _, SeedableRng as _};

use crate::board::KNIGHT_MOVES;
use crate::solve::Rng;

/// What to search for on an `rows x cols` tile (both at most 15, so indices fit a `u8`).
pub(super) struct Goal<'a> {
    /// Tile rows.
    pub rows: usize,
    /// Tile columns.
    pub cols: usize,
    /// Square of move 1 (local index).
    pub start: usize,
    /// Edges the tour must contain (local index pairs).
    pub edges: &'a [(usize, usize)],
    /// Whether the tour must be closed.
    pub closed: bool,
    /// Squares an open tour may end on (`None`: any).
    pub ends: Option<&'a [usize]>,
    /// Pairs of squares joined by a made-up move the tour must use: it splits the tour into two
    /// paths (lanes) for strips crossed twice.
    pub jumps: &'a [(usize, usize)],
}

struct Dfs<'a> {
    n: usize,
    closed: bool,
    ends: Option<&'a [usize]>,
    nbrs: Vec<Vec<usize>>,
    req: Vec<Vec<usize>>,
    visited: Vec<bool>,
    path: Vec<usize>,
    budget: u64,
    rng: Rng,
}

impl Dfs<'_> {
    /// Whether entering `v` from `u` keeps every required edge at `v` possible.
    fn allowed(&self, u: usize, v: usize) -> bool {
        self.req[v].iter().all(|&w| {
            w == u
                || !self.visited[w]
                || (self.closed && w == self.path[0] && self.path.len() + 1 == self.n)
        })
    }

    fn run(&mut self) -> bool {
        let Some(&u) = self.path.last() else {
            return false;
        };
        if self.path.len() == self.n {
            let end_ok = self.ends.is_none_or(|e| e.contains(&u));
            return end_ok && (!self.closed || self.nbrs[u].contains(&self.path[0]));
        }
        if self.budget == 0 {
            return false;
        }
        self.budget -= 1;
        let prev = (self.path.len() >= 2).then(|| self.path[self.path.len() - 2]);
        let forced: Vec<usize> = self.req[u]
            .iter()
            .copied()
            .filter(|&v| Some(v) != prev && !(self.closed && v == self.path[0]))
            .collect();
        if forced.len() > 1 {
            return false;
        }
        let pool = if forced.is_empty() {
            self.nbrs[u].clone()
        } else {
            forced
        };
        let mut cands: Vec<(usize, u32, usize)> = Vec::with_capacity(8);
        for v in pool {
            if self.visited[v] || !self.allowed(u, v) {
                continue;
            }
            let onward = self.nbrs[v].iter().filter(|&&x| !self.visited[x]).count();
            cands.push((onward, self.rng.random(), v));
        }
        cands.sort_unstable();
        for (_, _, v) in cands {
            self.visited[v] = true;
            self.path.push(v);
            if self.run() {
                return true;
            }
            self.path.pop();
            self.visited[v] = false;
        }
        false
    }
}

/// Each square's knight moves inside an `h` x `w` block (row-major local indices): the small
/// graphs the window searches run on.
pub(super) fn knight_neighbours(h: usize, w: usize) -> Vec<Vec<usize>> {
    let mut nbrs = vec![Vec::new(); h * w];
    for r in 0..h as i32 {
        for c in 0..w as i32 {
            for (dr, dc) in KNIGHT_MOVES {
                let (r2, c2) = (r + dr, c + dc);
                if r2 >= 0 && c2 >= 0 && r2 < h as i32 && c2 < w as i32 {
                    nbrs[r as usize * w + c as usize].push(r2 as usize * w + c2 as usize);
                }
            }
        }
    }
    nbrs
}

/// A tour meeting `goal` as local indices in move order, or `None` if `attempts` seeded
/// attempts of `budget` nodes each find none.
pub(super) fn find(goal: &Goal, seed: u64, attempts: u32, budget: u64) -> Option<Vec<u8>> {
    let (h, w) = (goal.rows, goal.cols);
    let n = h * w;
    if n > 256 || goal.start >= n {
        return None;
    }
    let mut nbrs = knight_neighbours(h, w);
    for &(a, b) in goal.jumps {
        nbrs[a].push(b);
        nbrs[b].push(a);
    }
    let required: Vec<(usize, usize)> = goal.edges.iter().chain(goal.jumps).copied().collect();
    let graph = Graph {
        nbrs,
        required: &required,
        start: goal.start,
        closed: goal.closed,
        ends: goal.ends,
    };
    find_in(&graph, seed, attempts, budget).map(|p| p.iter().map(|&x| x as u8).collect())
}

/// A search on any graph: a Hamiltonian path (or cycle when `closed`) from `start` that uses
/// every `required` edge (which must also be in `nbrs`).
pub(super) struct Graph<'a> {
    /// Neighbours of each node.
    pub nbrs: Vec<Vec<usize>>,
    /// Edges the path must use.
    pub required: &'a [(usize, usize)],
    /// Node of move 1.
    pub start: usize,
    /// Whether the path must close.
    pub closed: bool,
    /// Nodes the path may end on (`None`: any).
    pub ends: Option<&'a [usize]>,
}

/// A path meeting `graph` as node indices in order, or `None` if `attempts` seeded attempts
/// of `budget` nodes each find none.
pub(super) fn find_in(graph: &Graph, seed: u64, attempts: u32, budget: u64) -> Option<Vec<usize>> {
    let n = graph.nbrs.len();
    if graph.start >= n {
        return None;
    }
    let mut req = vec![Vec::new(); n];
    for &(a, b) in graph.required {
        req[a].push(b);
        req[b].push(a);
    }
    let mut seeds = Rng::seed_from_u64(seed);
    for _ in 0..attempts {
        let mut dfs = Dfs {
            n,
            closed: graph.closed,
            ends: graph.ends,
            nbrs: graph.nbrs.clone(),
            req: req.clone(),
            visited: vec![false; n],
            path: Vec::with_capacity(n),
            budget,
            rng: Rng::seed_from_u64(seeds.random()),
        };
        dfs.visited[graph.start] = true;
        dfs.path.push(graph.start);
        if dfs.run() {
            return Some(dfs.path);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regenerates `tiles.rs`: run `cargo test --lib generate_tiles -- --ignored`, then
    /// `cargo fmt`.
    #[test]
    #[ignore = "rewrites src/solve/construct/tiles.rs; run by hand"]
    fn generate_tiles() {
        use std::fmt::Write as _;
        let mut out = String::from(
            "//! Base tiles, generated by `cargo test --lib generate_tiles -- --ignored`.\n\
             //! Every one is re-checked move by move by the module's tests.\n\n\
             use super::Tile;\n\n\
             /// One tour per tile size: closed tours for sizes with an even side, open ones for\n\
             /// odd x odd sizes.\n\
             pub(super) const TILES: &[Tile] = &[\n",
        );
        for h in 5..=12usize {
            for w in 5..=12usize {
                let closed = (h * w).is_multiple_of(2);
                let idx = |r: usize, c: usize| r * w + c;
                let edges = if closed {
                    vec![(idx(1, w - 2), idx(3, w - 1)), (idx(1, 1), idx(0, 3))]
                } else {
                    vec![(idx(0, 0), idx(2, 1)), (idx(1, 1), idx(0, 3))]
                };
                let order = (0..n_starts(h, w))
                    .find_map(|k| {
                        let start = if closed { idx(1, 1) } else { 2 * k };
                        let goal = Goal {
                            rows: h,
                            cols: w,
                            start,
                            edges: &edges,
                            closed,
                            ends: None,
                            jumps: &[],
                        };
                        find(&goal, (h * 100 + w) as u64, 100, 20_000)
                    })
                    .unwrap_or_else(|| panic!("no tile {h}x{w}"));
                let list: Vec<String> = order.iter().map(|x| x.to_string()).collect();
                writeln!(
                    out,
                    "    Tile {{ rows: {h}, cols: {w}, order: &[{}] }},",
                    list.join(", ")
                )
                .unwrap();
            }
        }
        out.push_str("];\n");
        std::fs::write(
            concat!(env!("CARGO_MANIFEST_DIR"), "/src/solve/construct/tiles.rs"),
            out,
        )
        .unwrap();
    }

    fn n_starts(h: usize, w: usize) -> usize {
        (h * w).div_ceil(2)
    }

    #[test]
    fn found_paths_are_tours_with_their_edges() {
        let edges = [(0, 11), (6, 3)];
        let goal = Goal {
            rows: 5,
            cols: 5,
            start: 12,
            edges: &edges,
            closed: false,
            ends: None,
            jumps: &[],
        };
        let order = find(&goal, 1, 50, 20_000).unwrap();
        assert_eq!(order[0], 12);
        let board = crate::board::Board::new(5, 5).unwrap();
        let tour =
            crate::tour::Tour::from_indices(board, order.iter().map(|&x| x.into()).collect())
                .unwrap();
        assert!(tour.is_complete());
        for (a, b) in edges {
            assert!(order
                .windows(2)
                .any(|p| (p[0] as usize, p[1] as usize) == (a, b)
                    || (p[0] as usize, p[1] as usize) == (b, a)));
        }
    }
}
