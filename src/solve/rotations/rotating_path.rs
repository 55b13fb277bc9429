//! A complete knight's path and where each square is on it, with the moves that keep it a
//! path: reversals of a stretch (Pósa's rotations, 2-opt) and blocks moved across a square.

use std::time::Instant;

use rand::Rng as _;

use crate::board::Board;
use crate::solve::Rng;

/// A complete path and where each square is on it.
pub(super) struct State {
    /// For each square, bit `k` set when [`KNIGHT`]`[k]` stays on the board: the search
    /// looks at the neighbours of thousands of squares for each reversal it makes, and this
    /// way finds them without a row, a column or a bounds test.
    moves: Vec<u8>,
    /// [`KNIGHT`]'s moves as differences of square indices.
    offsets: [isize; 8],
    pub(super) path: Vec<u32>,
    pub(super) pos: Vec<u32>,
    /// Squares looked at, the search's nodes.
    pub(super) work: u64,
    /// When the step under way must stop.
    pub(super) deadline: Option<Instant>,
}

impl State {
    pub(super) fn new(board: Board, path: Vec<u32>) -> State {
        let mut pos = vec![0u32; path.len()];
        for (i, &s) in path.iter().enumerate() {
            pos[s as usize] = i as u32;
        }
        let (rows, cols) = (i64::from(board.rows()), i64::from(board.cols()));
        let moves = (0..rows * cols)
            .map(|s| {
                let (r, c) = (s / cols, s % cols);
                KNIGHT.iter().enumerate().fold(0u8, |mask, (k, &(dr, dc))| {
                    let on = (0..rows).contains(&(r + dr)) && (0..cols).contains(&(c + dc));
                    mask | (u8::from(on) << k)
                })
            })
            .collect();
        State {
            moves,
            offsets: KNIGHT.map(|(dr, dc)| (dr * cols + dc) as isize),
            path,
            pos,
            work: 0,
            deadline: None,
        }
    }

    /// The squares a knight's move from `s`.
    pub(super) fn neighbours(&self, s: u32) -> impl Iterator<Item = usize> + '_ {
        let mask = self.moves[s as usize];
        let s = s as isize;
        (0..8)
            .filter(move |k| mask & (1 << k) != 0)
            .map(move |k| s.wrapping_add(self.offsets[k]) as usize)
    }

    /// Whether `s` and `t` are a knight's move apart: `t - s` is the offset of a move that
    /// stays on the board from `s` (two such moves never share an offset: they would land on
    /// one square).
    pub(super) fn adjacent(&self, s: u32, t: u32) -> bool {
        let d = (t as isize).wrapping_sub(s as isize);
        let mask = self.moves[s as usize];
        (0..8).any(|k| self.offsets[k] == d && mask & (1 << k) != 0)
    }

    /// Whether reversing `a..=b` keeps the path a knight's path, the path before `lo` untouched.
    pub(super) fn valid(&self, a: usize, b: usize, lo: usize) -> bool {
        let n = self.path.len();
        a >= lo
            && a < b
            && b < n
            && (a == 0 || self.adjacent(self.path[a - 1], self.path[b]))
            && (b == n - 1 || self.adjacent(self.path[a], self.path[b + 1]))
    }

    pub(super) fn reverse(&mut self, a: usize, b: usize) {
        self.path[a..=b].reverse();
        for i in a..=b {
            self.pos[self.path[i] as usize] = i as u32;
        }
        self.work += (b - a + 1) as u64;
    }

    /// Whether the deadline has passed: checked at every reversal, where the caller's node
    /// budget is checked between goals only (a goal under way is finished, which the runner's
    /// node shares were measured with).
    pub(super) fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|t| Instant::now() >= t)
    }

    /// A block of squares moved across `square`'s position `q` so that it lands on `p`, the
    /// later goals' squares all after `p` (one drawn at random among those found).
    pub(super) fn exact_shift(
        &mut self,
        q: usize,
        p: usize,
        lo: usize,
        later: &[(usize, u32)],
        rng: &mut Rng,
    ) -> Option<Shift> {
        let n = self.path.len();
        let v = &self.path;
        let mut found: Vec<Shift> = Vec::new();
        if q == p {
            return None;
        }
        if q > p {
            // A block of q - p squares before the square, moved after position j >= q.
            let len = q - p;
            for c in lo..=q - len {
                if c == 0 || self.adjacent(v[c - 1], v[c + len]) {
                    for flip in [false, true] {
                        let (first, last) = if flip {
                            (v[c + len - 1], v[c])
                        } else {
                            (v[c], v[c + len - 1])
                        };
                        for t in self.neighbours(first) {
                            let j = self.pos[t] as usize;
                            if j >= q && (j == n - 1 || self.adjacent(v[j + 1], last)) {
                                found.push(Shift {
                                    start: c,
                                    len,
                                    at: j,
                                    flip,
                                    forward: true,
                                });
                            }
                        }
                    }
                }
            }
            self.work += (q - lo) as u64;
        } else {
            // A block of p - q squares after the square, moved before it (after position j).
            let len = p - q;
            for c in q + 1..=n - len {
                if c + len == n || self.adjacent(v[c - 1], v[c + len]) {
                    for flip in [false, true] {
                        let (first, last) = if flip {
                            (v[c + len - 1], v[c])
                        } else {
                            (v[c], v[c + len - 1])
                        };
                        if lo == 0 && self.adjacent(last, v[0]) {
                            found.push(Shift {
                                start: c,
                                len,
                                at: usize::MAX,
                                flip,
                                forward: false,
                            });
                        }
                        for t in self.neighbours(first) {
                            let j = self.pos[t] as usize;
                            if j + 1 >= lo.max(1) && j < q && self.adjacent(v[j + 1], last) {
                                found.push(Shift {
                                    start: c,
                                    len,
                                    at: j,
                                    flip,
                                    forward: false,
                                });
                            }
                        }
                    }
                }
            }
            self.work += (n - q) as u64;
        }
        found.retain(|sh| {
            later
                .iter()
                .all(|&(_, y)| sh.new_index(self.pos[y as usize] as usize) > p)
        });
        (!found.is_empty()).then(|| found[rng.random_range(0..found.len())])
    }

    pub(super) fn apply(&mut self, sh: Shift) {
        let (from, to) = sh.range();
        if sh.forward {
            self.path[from..=to].rotate_left(sh.len);
            if sh.flip {
                self.path[to + 1 - sh.len..=to].reverse();
            }
        } else {
            self.path[from..=to].rotate_right(sh.len);
            if sh.flip {
                self.path[from..from + sh.len].reverse();
            }
        }
        for i in from..=to {
            self.pos[self.path[i] as usize] = i as u32;
        }
        self.work += (to - from + 1) as u64;
    }

    /// Random reversals after `lo`, so that a goal placed again is placed differently.
    pub(super) fn scramble(&mut self, lo: usize, hi: usize, times: u32, rng: &mut Rng) {
        let n = self.path.len();
        if lo + 2 >= n {
            return;
        }
        for _ in 0..times {
            if self.out_of_time() {
                return;
            }
            let a = rng.random_range(lo.max(1)..hi.clamp(lo.max(1) + 1, n - 1));
            let options: Vec<usize> = self
                .neighbours(self.path[a - 1])
                .map(|t| self.pos[t] as usize)
                .filter(|&b| b > a && self.valid(a, b, lo))
                .collect();
            if !options.is_empty() {
                let b = options[rng.random_range(0..options.len())];
                self.reverse(a, b);
            } else {
                self.shake(lo, rng);
            }
        }
    }

    /// A random rotation at the free end of the path.
    pub(super) fn shake(&mut self, lo: usize, rng: &mut Rng) {
        let n = self.path.len();
        let mut options = Vec::new();
        for t in self.neighbours(self.path[n - 1]) {
            let i = self.pos[t] as usize;
            if i + 1 >= lo && i + 2 < n {
                options.push(i + 1);
            }
        }
        if !options.is_empty() {
            let a = options[rng.random_range(0..options.len())];
            self.reverse(a, n - 1);
        }
    }
}

const KNIGHT: [(i64, i64); 8] = [
    (1, 2),
    (2, 1),
    (-1, 2),
    (-2, 1),
    (1, -2),
    (2, -1),
    (-1, -2),
    (-2, -1),
];

/// A block of `len` squares from `start` moved: `forward`, to just after position `at` (which
/// is after the block); otherwise to just after position `at` before it (`usize::MAX`: to the
/// front). `flip` reverses the block.
#[derive(Clone, Copy, Debug)]
pub(super) struct Shift {
    pub(super) start: usize,
    pub(super) len: usize,
    pub(super) at: usize,
    pub(super) flip: bool,
    pub(super) forward: bool,
}

impl Shift {
    /// The positions the move rearranges.
    pub(super) fn range(&self) -> (usize, usize) {
        if self.forward {
            (self.start, self.at)
        } else {
            (self.at.wrapping_add(1), self.start + self.len - 1)
        }
    }

    /// Where the square at position `i` goes.
    pub(super) fn new_index(&self, i: usize) -> usize {
        let (from, to) = self.range();
        if i < from || i > to {
            return i;
        }
        let in_block = i >= self.start && i < self.start + self.len;
        let k = i.wrapping_sub(self.start);
        if self.forward {
            let base = to + 1 - self.len;
            if in_block {
                if self.flip {
                    base + self.len - 1 - k
                } else {
                    base + k
                }
            } else {
                i - self.len
            }
        } else if in_block {
            if self.flip {
                from + self.len - 1 - k
            } else {
                from + k
            }
        } else {
            i + self.len
        }
    }
}
