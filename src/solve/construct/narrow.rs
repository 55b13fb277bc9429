//! Open tours of boards 3 or 4 squares high that start on a given square, in linear time and
//! memory.
//!
//! **3 x n.** The board is cut across into `left | window | right`. The window holds the start
//! and is 4 to 16 columns wide; each side (possibly empty) is a U-turn made of the two-lane
//! strips of `lanes` (`q` middles and the turning strip, as in `lanes::assemble` without its
//! first strip), entered and left through two squares next to the window. A small seeded search
//! (deterministic, bounded) finds a path through the window's squares and those entry and exit
//! squares, from the start, that uses each region's entry-to-exit "jump"; the tour is that path
//! with every jump replaced by its region's U-turn. Windows are tried narrowest first; the
//! search only ever sees a window and where the U-turns attach, so every long board meets the
//! same few searches.
//!
//! **4 x n.** Outer squares only lead to inner ones, so a tour covers one *half* (the outer
//! squares of one colour and the inner squares of the other) before a single inner-to-inner move
//! switches to the other half. Within a half, outer square `O_d` and inner square `I_e` (`d`, `e`
//! columns) are a knight's move apart exactly when `|d - e|` is 1 or 2: a graph two squares a
//! column wide. The tour is a path through the start's half from the start, the switch from its
//! last (inner) square two columns along, and a path through the other half from there. Each
//! half's path is the window idea again, in that graph: a few columns around its first square
//! searched, each side either an out-and-back lane (zigzags `O_0 I_1 O_2 ...` out and
//! `... O_1 I_0` back, joined at the far end) or a sweep `O_0 I_1 O_2 I_0 O_1 I_2` repeated
//! every three columns to the far end (where that half's path ends); the far ends come from a
//! tiny exhaustive search.
//!
//! Used for boards with only open tours (3 x 4, 3 x 8, 3 x n odd, 4 x n), where a tour cannot
//! just be started anywhere on a cycle.

use super::lane_strips::{LaneSet, THREE_CLOSED};
use super::tile_search::{find_in, Graph};
use super::END;

/// Narrowest and widest windows searched.
const MIN_WINDOW: u32 = 4;
const MAX_WINDOW: u32 = 16;
/// Seeded restarts and nodes per restart for one window.
const ATTEMPTS: u32 = 12;
const BUDGET: u64 = 1_500;

/// One side region: `q` middle strips then the turning strip, read outward from the window,
/// rows turned upside down when `flip`.
#[derive(Clone, Copy)]
struct Region {
    set: &'static LaneSet,
    q: u32,
    flip: bool,
}

/// A strip's squares crossed in one go: its first column (from the window outward), width and
/// local squares (`row * w + col`) in move order.
type Piece = (u32, u32, &'static [u8]);

impl Region {
    /// The pieces in move order from the entry square to the exit square.
    fn pieces(self) -> Vec<Piece> {
        let k = u32::from(self.set.middle.w);
        let (first, second) = self
            .set
            .middle
            .path
            .split_at(usize::from(self.set.middle.split));
        let mut out = Vec::with_capacity(2 * self.q as usize + 1);
        out.extend((0..self.q).map(|i| (i * k, k, first)));
        out.push((self.q * k, u32::from(self.set.right.w), self.set.right.path));
        out.extend((0..self.q).rev().map(|i| (i * k, k, second)));
        out
    }

    /// `(row, column from the window outward)` of a piece's local square.
    fn place(self, piece: Piece, local: u8) -> (u32, u32) {
        let (c0, w, _) = piece;
        let (r, c) = (u32::from(local) / w, u32::from(local) % w);
        let rows = u32::from(self.set.rows);
        (if self.flip { rows - 1 - r } else { r }, c0 + c)
    }

    /// The U-turn's squares in move order, as `d * rows + row`.
    fn squares(self) -> Vec<u32> {
        let m = u32::from(self.set.rows);
        let mut squares = Vec::new();
        for p in self.pieces() {
            squares.extend(p.2.iter().map(|&l| {
                let (r, d) = self.place(p, l);
                d * m + r
            }));
        }
        squares
    }

    /// The first and last squares (as in [`Region::squares`]) without building the rest.
    fn ends(self) -> Option<Lane> {
        let m = u32::from(self.set.rows);
        let k = u32::from(self.set.middle.w);
        let right: Piece = (self.q * k, u32::from(self.set.right.w), self.set.right.path);
        let (out, back) = self
            .set
            .middle
            .path
            .split_at(usize::from(self.set.middle.split));
        let (first, last) = if self.q == 0 {
            (right, right)
        } else {
            ((0, k, out), (0, k, back))
        };
        let code = |(r, d): (u32, u32)| d * m + r;
        Some(Lane {
            region: self,
            first: code(self.place(first, *first.2.first()?)),
            last: code(self.place(last, *last.2.last()?)),
        })
    }
}

/// Writes successors in move order.
struct Linker {
    next: Vec<u32>,
    first: u32,
    prev: Option<u32>,
}

impl Linker {
    fn push(&mut self, square: u32) {
        match self.prev {
            Some(p) => self.next[p as usize] = square,
            None => self.first = square,
        }
        self.prev = Some(square);
    }
}

/// A side region and its first and last squares, as `d * rows + row` (`d` counted from the
/// window outward).
struct Lane {
    region: Region,
    first: u32,
    last: u32,
}

/// A square of one half of a 4-high region: outer (`O`) or inner, and its column `d`.
type Half = (bool, u32);

/// The row of a half-`h` square (see the module docs): half `h` is the outer squares of colour
/// `h` and the inner squares of the other colour.
fn half_row(h: u32, (outer, d): Half) -> u32 {
    match (outer, d % 2 == h) {
        (true, true) => 0,
        (true, false) => 3,
        (false, true) => 1,
        (false, false) => 2,
    }
}

fn half_adjacent(a: Half, b: Half) -> bool {
    a.0 != b.0 && matches!(a.1.abs_diff(b.1), 1 | 2)
}

/// A path through every square of one half in columns `lo..hi`, from a square `first` allows to
/// one `last` allows (depth-first, in a fixed order: at most 12 squares).
fn half_path(
    lo: u32,
    hi: u32,
    first: impl Fn(Half) -> bool,
    last: impl Fn(Half) -> bool,
) -> Option<Vec<Half>> {
    fn grow(
        path: &mut Vec<Half>,
        lo: u32,
        hi: u32,
        total: usize,
        last: &dyn Fn(Half) -> bool,
    ) -> bool {
        let Some(&(outer, d)) = path.last() else {
            return false;
        };
        if path.len() == total {
            return last((outer, d));
        }
        for e in [d.wrapping_sub(2), d.wrapping_sub(1), d + 1, d + 2] {
            let v = (!outer, e);
            if (lo..hi).contains(&e) && !path.contains(&v) {
                path.push(v);
                if grow(path, lo, hi, total, last) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    let total = 2 * (hi - lo) as usize;
    for d in lo..hi {
        for outer in [true, false] {
            if !first((outer, d)) {
                continue;
            }
            let mut path = vec![(outer, d)];
            if grow(&mut path, lo, hi, total, &last) {
                return Some(path);
            }
        }
    }
    None
}

/// Half `h` of an `a`-wide region out and back: zigzag `O_0 I_1 O_2 ...` out, a searched turn
/// in the last columns, zigzag `... O_1 I_0` back.
fn out_and_back(a: u32) -> Option<Vec<Half>> {
    let z1 = |d: u32| (d.is_multiple_of(2), d);
    let z2 = |d: u32| (!d.is_multiple_of(2), d);
    let k = a.saturating_sub(6);
    let turn = if k == 0 {
        half_path(0, a, |v| v == z1(0), |v| v == z2(0))?
    } else {
        half_path(
            k,
            a,
            |v| half_adjacent(v, z1(k - 1)),
            |v| half_adjacent(v, z2(k - 1)),
        )?
    };
    let mut out: Vec<Half> = (0..k).map(z1).collect();
    out.extend(turn);
    out.extend((0..k).rev().map(z2));
    Some(out)
}

/// The other half of an `a`-wide region in one sweep outward: `O_0 I_1 O_2 I_0 O_1 I_2` repeated
/// every 3 columns, then a searched end.
fn sweep(a: u32) -> Option<Vec<Half>> {
    const STEP: [Half; 6] = [
        (true, 0),
        (false, 1),
        (true, 2),
        (false, 0),
        (true, 1),
        (false, 2),
    ];
    let q = a.saturating_sub(3) / 3;
    let mut out: Vec<Half> = (0..q)
        .flat_map(|i| STEP.iter().map(move |&(o, d)| (o, d + 3 * i)))
        .collect();
    let tail = if q == 0 {
        half_path(0, a, |v| v == (true, 0), |_| true)?
    } else {
        half_path(3 * q, a, |v| half_adjacent(v, (false, 3 * q - 1)), |_| true)?
    };
    out.extend(tail);
    Some(out)
}

/// What fills one side of the window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    /// Nothing: the window reaches the board's edge.
    Empty,
    /// A U-turn of lane strips (`q` middles), rows turned when `flip`.
    UTurn { q: u32, flip: bool },
}

impl Side {
    fn lanes(self, set: &'static LaneSet) -> Option<Vec<Lane>> {
        Some(match self {
            Side::Empty => Vec::new(),
            Side::UTurn { q, flip } => vec![Region { set, q, flip }.ends()?],
        })
    }
}

/// The ways to fill a side `width` wide.
fn side_options(set: &LaneSet, width: u32) -> Vec<Side> {
    let (k, b) = (u32::from(set.middle.w), u32::from(set.right.w));
    let mut out = Vec::new();
    if width == 0 {
        out.push(Side::Empty);
    }
    if width >= b && (width - b).is_multiple_of(k) {
        let q = (width - b) / k;
        out.extend([false, true].map(|flip| Side::UTurn { q, flip }));
    }
    out
}

/// One way to cut the board: the window `w` wide after `a` columns, and the lanes on each side.
struct Cut {
    m: u32,
    n: u32,
    a: u32,
    w: u32,
    left: Vec<Lane>,
    right: Vec<Lane>,
}

impl Cut {
    /// `(row, column)` relative to the window of a lane square.
    fn place(&self, right: bool, code: u32) -> (i64, i64) {
        let (r, d) = (i64::from(code % self.m), i64::from(code / self.m));
        (r, if right { i64::from(self.w) + d } else { -1 - d })
    }

    /// The search graph: window squares (`row * w + col`), then each lane's first and last
    /// square (a pendant lane's last square has no other neighbour), with the required jumps.
    fn graph(&self) -> (Vec<Vec<usize>>, Vec<(usize, usize)>) {
        let (m, w) = (i64::from(self.m), i64::from(self.w));
        let mut coords: Vec<Option<(i64, i64)>> =
            (0..m * w).map(|i| Some((i / w, i % w))).collect();
        let inside = coords.len();
        let mut required = Vec::new();
        for (lanes, right) in [(&self.left, false), (&self.right, true)] {
            for lane in lanes {
                required.push((coords.len(), coords.len() + 1));
                coords.push(Some(self.place(right, lane.first)));
                coords.push(Some(self.place(right, lane.last)));
            }
        }
        let mut nbrs = vec![Vec::new(); coords.len()];
        for (i, a) in coords.iter().enumerate() {
            for (j, b) in coords.iter().enumerate() {
                let (Some((r, c)), Some((r2, c2))) = (a, b) else {
                    continue;
                };
                let same_lane = i >= inside && j >= inside && (i - inside) / 2 == (j - inside) / 2;
                let knight = matches!(((r - r2).abs(), (c - c2).abs()), (1, 2) | (2, 1));
                if knight && !same_lane {
                    nbrs[i].push(j);
                }
            }
        }
        for &(x, y) in &required {
            nbrs[x].push(y);
            nbrs[y].push(x);
        }
        (nbrs, required)
    }

    /// The tour a search path through the window gives, as its first square and successors.
    fn tour(&self, path: &[usize]) -> (u32, Vec<u32>) {
        let (m, n, w) = (self.m, self.n, self.w);
        let mut out = Linker {
            next: vec![END; (m * n) as usize],
            first: 0,
            prev: None,
        };
        let inside = (m * w) as usize;
        let lanes: Vec<(&Lane, bool)> = self
            .left
            .iter()
            .map(|l| (l, false))
            .chain(self.right.iter().map(|l| (l, true)))
            .collect();
        let mut i = 0;
        while i < path.len() {
            let u = path[i];
            if u < inside {
                out.push(u as u32 / w * n + self.a + u as u32 % w);
                i += 1;
                continue;
            }
            let (lane, right) = lanes[(u - inside) / 2];
            let to_board = |code: u32| {
                let (r, d) = (code % m, code / m);
                r * n
                    + if right {
                        self.a + w + d
                    } else {
                        self.a - 1 - d
                    }
            };
            let squares = lane.region.squares();
            if (u - inside).is_multiple_of(2) {
                squares.iter().for_each(|&q| out.push(to_board(q)));
            } else {
                squares.iter().rev().for_each(|&q| out.push(to_board(q)));
            }
            i += 2;
        }
        (out.first, out.next)
    }
}

/// An open tour of the `m x n` board (`m` is 3 or 4, rows across, columns along) starting on
/// `(row, col)`, as its first square and successors; `None` if no cut's search finds one
/// (then no tour starts there, or the search was unlucky).
pub(super) fn open_from(m: u32, n: u32, row: u32, col: u32) -> Option<(u32, Vec<u32>)> {
    if row >= m || col >= n {
        return None;
    }
    // Odd boards: tours start on the corners' colour.
    if (m * n) % 2 == 1 && (row + col) % 2 == 1 {
        return None;
    }
    let set: &'static LaneSet = match m {
        3 => &THREE_CLOSED,
        4 => return four_from(n, row, col),
        _ => return None,
    };
    // Every (left width, right width, left side, right side) whose window fits, narrowest
    // window first.
    let mut cuts: Vec<(u32, u32, Side, Side)> = Vec::new();
    for w in MIN_WINDOW..=MAX_WINDOW.min(n) {
        for x in 0..w {
            // The start is `x` columns into the window.
            let Some(a) = col.checked_sub(x) else { break };
            let Some(b) = n.checked_sub(a + w) else {
                continue;
            };
            for left in side_options(set, a) {
                for right in side_options(set, b) {
                    cuts.push((a, b, left, right));
                }
            }
        }
    }
    // A quick pass over every cut, then a thorough one (short boards have few cuts).
    for (attempts, budget) in [(ATTEMPTS, BUDGET), (4, 20 * BUDGET)] {
        if let Some(tour) = first_cut(m, n, row, col, set, &cuts, attempts, budget) {
            return Some(tour);
        }
    }
    None
}

/// The tour of the first cut whose search succeeds.
#[allow(clippy::too_many_arguments)]
fn first_cut(
    m: u32,
    n: u32,
    row: u32,
    col: u32,
    set: &'static LaneSet,
    cuts: &[(u32, u32, Side, Side)],
    attempts: u32,
    budget: u64,
) -> Option<(u32, Vec<u32>)> {
    for &(a, b, left, right) in cuts {
        let w = n - a - b;
        let (Some(l), Some(r)) = (left.lanes(set), right.lanes(set)) else {
            continue;
        };
        let cut = Cut {
            m,
            n,
            a,
            w,
            left: l,
            right: r,
        };
        let start = (row * w + col - a) as usize;
        let (nbrs, required) = cut.graph();
        let graph = Graph {
            nbrs,
            required: &required,
            start,
            closed: false,
            ends: None,
        };
        // The seed depends on the window alone, so every long board sees the same searches.
        let seed = [m, w, start as u32].iter().fold(0u64, |h, &x| {
            h.wrapping_mul(1_000_003).wrapping_add(u64::from(x))
        });
        if let Some(path) = find_in(&graph, seed, attempts, budget) {
            return Some(cut.tour(&path));
        }
    }
    None
}

/// What covers one side of a window in one half of a 4-high board.
#[derive(Clone, Copy, PartialEq, Eq)]
enum HalfSide {
    Empty,
    OutAndBack,
    Sweep,
}

fn half_sides(width: u32) -> Vec<HalfSide> {
    match width {
        0 => vec![HalfSide::Empty],
        3 => vec![HalfSide::Sweep],
        w if w >= 4 => vec![HalfSide::OutAndBack, HalfSide::Sweep],
        _ => Vec::new(),
    }
}

/// A path through every square of one half of the `4 x n` board from `v` (columns global): a
/// window around `v` searched, with an out-and-back lane or a sweep on each side.
fn half_tour(n: u32, v: Half) -> Option<Vec<Half>> {
    for w in MIN_WINDOW..=MAX_WINDOW.min(n) {
        for x in 0..w {
            let Some(lo) = v.1.checked_sub(x) else { break };
            let hi = lo + w;
            if hi > n {
                continue;
            }
            for left in half_sides(lo) {
                for right in half_sides(n - hi) {
                    if left == HalfSide::Sweep && right == HalfSide::Sweep {
                        continue;
                    }
                    if let Some(path) = half_window(n, lo, hi, v, left, right) {
                        return Some(path);
                    }
                }
            }
        }
    }
    None
}

/// One half's path from `v` for the window `lo..hi` and the given sides, if the window's
/// search finds one.
fn half_window(
    n: u32,
    lo: u32,
    hi: u32,
    v: Half,
    left: HalfSide,
    right: HalfSide,
) -> Option<Vec<Half>> {
    let lane = |side: HalfSide,
                width: u32,
                to: &dyn Fn(u32) -> u32|
     -> Option<Option<(Vec<Half>, bool)>> {
        let local = match side {
            HalfSide::Empty => return Some(None),
            HalfSide::OutAndBack => out_and_back(width)?,
            HalfSide::Sweep => sweep(width)?,
        };
        let global = local.into_iter().map(|(o, d)| (o, to(d))).collect();
        Some(Some((global, side == HalfSide::Sweep)))
    };
    let lanes: Vec<(Vec<Half>, bool)> = [
        lane(left, lo, &|d| lo - 1 - d)?,
        lane(right, n - hi, &|d| hi + d)?,
    ]
    .into_iter()
    .flatten()
    .collect();
    let mut nodes: Vec<Option<Half>> = (lo..hi)
        .flat_map(|d| [Some((true, d)), Some((false, d))])
        .collect();
    let inside = nodes.len();
    let mut required = Vec::new();
    for (squares, pendant) in &lanes {
        required.push((nodes.len(), nodes.len() + 1));
        nodes.push(squares.first().copied());
        nodes.push(if *pendant {
            None
        } else {
            squares.last().copied()
        });
    }
    let mut nbrs = vec![Vec::new(); nodes.len()];
    for (i, a) in nodes.iter().enumerate() {
        for (j, b) in nodes.iter().enumerate() {
            let same_lane = i >= inside && j >= inside && (i - inside) / 2 == (j - inside) / 2;
            if let (Some(a), Some(b)) = (a, b) {
                if half_adjacent(*a, *b) && !same_lane {
                    nbrs[i].push(j);
                }
            }
        }
    }
    for &(x, y) in &required {
        nbrs[x].push(y);
        nbrs[y].push(x);
    }
    let start = nodes.iter().position(|&u| u == Some(v))?;
    let mut partner = vec![None; nodes.len()];
    for &(x, y) in &required {
        partner[x] = Some(y);
        partner[y] = Some(x);
    }
    let mut path = vec![start];
    let mut seen = vec![false; nodes.len()];
    seen[start] = true;
    if !jump_path(&nbrs, &partner, &mut path, &mut seen, BUDGET) {
        return None;
    }
    let mut out = Vec::with_capacity(2 * n as usize);
    let mut i = 0;
    while i < path.len() {
        let u = path[i];
        if u < inside {
            out.push(nodes[u]?);
            i += 1;
            continue;
        }
        let (squares, _) = &lanes[(u - inside) / 2];
        if (u - inside).is_multiple_of(2) {
            out.extend(squares.iter().copied());
        } else {
            out.extend(squares.iter().rev().copied());
        }
        i += 2;
    }
    Some(out)
}

/// Depth-first search (fixed order, at most `budget` more steps) for a path through every node
/// that goes straight to a node's `partner` whenever it enters the node another way.
fn jump_path(
    nbrs: &[Vec<usize>],
    partner: &[Option<usize>],
    path: &mut Vec<usize>,
    seen: &mut [bool],
    budget: u64,
) -> bool {
    let mut left = budget;
    grow_jumps(nbrs, partner, path, seen, &mut left)
}

fn grow_jumps(
    nbrs: &[Vec<usize>],
    partner: &[Option<usize>],
    path: &mut Vec<usize>,
    seen: &mut [bool],
    left: &mut u64,
) -> bool {
    if path.len() == nbrs.len() {
        return true;
    }
    if *left == 0 {
        return false;
    }
    *left -= 1;
    let Some(&u) = path.last() else {
        return false;
    };
    let came = path.len().checked_sub(2).map(|i| path[i]);
    let forced = partner[u].filter(|&p| Some(p) != came && !seen[p]);
    if partner[u].is_some_and(|p| Some(p) != came) && forced.is_none() {
        // Entered another way while the partner was already used: the jump cannot be made.
        return false;
    }
    let choices: Vec<usize> = match forced {
        Some(p) => vec![p],
        None => nbrs[u].clone(),
    };
    for v in choices {
        if seen[v] {
            continue;
        }
        seen[v] = true;
        path.push(v);
        if grow_jumps(nbrs, partner, path, seen, left) {
            return true;
        }
        path.pop();
        seen[v] = false;
    }
    false
}

/// An open tour of the `4 x n` board from `(row, col)` (an outer square): one half from the
/// start, the inner-to-inner switch, then the other half.
fn four_from(n: u32, row: u32, col: u32) -> Option<(u32, Vec<u32>)> {
    if row == 1 || row == 2 {
        return None;
    }
    // The start's half: outer squares of its colour.
    let h = (row + col) % 2;
    let first = half_tour(n, (true, col))?;
    let &(outer, t) = first.last()?;
    if outer {
        return None;
    }
    let second = [t.checked_sub(2), Some(t + 2).filter(|&u| u < n)]
        .into_iter()
        .flatten()
        .find_map(|u| half_tour(n, (false, u)))?;
    let mut out = Linker {
        next: vec![END; (4 * n) as usize],
        first: 0,
        prev: None,
    };
    for (half, path) in [(h, &first), (1 - h, &second)] {
        for &(o, d) in path.iter() {
            let r = half_row(half, (o, d));
            out.push(r * n + d);
        }
    }
    Some((out.first, out.next))
}
