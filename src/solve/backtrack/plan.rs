//! The static part of one search: neighbour tables, which square each constrained move must
//! land on, which squares may be the last one, distances to constrained squares, tie keys.
//!
//! Building a plan also runs the cheap proofs that need no search at all (colour parity,
//! contradictory constraints, constrained squares too far apart): those give `None`.

use std::collections::VecDeque;

use crate::board::{Board, Square};
use crate::solve::Request;

/// "No square" / "no move" in the dense tables.
pub(super) const NONE: u32 = u32::MAX;

/// Distance tables are exact board distances while they fit in this many entries; beyond it the
/// infinite-board formula (a lower bound) is used.
const MAX_TABLE_ENTRIES: usize = 1 << 22;

/// Everything about a request that does not change during the search.
pub(super) struct Plan {
    /// Number of squares.
    pub n: usize,
    /// Neighbours of square `s` are `nbr[8 * s .. 8 * s + nbr_len[s]]`.
    pub nbr: Vec<u32>,
    /// Number of neighbours of each square.
    pub nbr_len: Vec<u8>,
    /// Square of move 1.
    pub start: u32,
    /// Whether the last square must be a knight's move from the start.
    pub closed: bool,
    /// Square of the last move, or [`NONE`].
    pub fixed_end: u32,
    /// Squares that may be the last one (right colour, not reserved for another move, next to
    /// the start for closed tours).
    pub in_endset: Vec<bool>,
    /// Square required at move `k` (index `k`, from 1), or [`NONE`].
    pub required: Vec<u32>,
    /// Move number reserved for each square, 0 if none.
    pub reserved: Vec<u32>,
    /// The smallest constrained move number `>= j` (index `j`), 0 if none.
    pub next_constraint: Vec<u32>,
    /// Distance table index for constrained move `k`, [`NONE`] if it has none.
    table_of: Vec<u32>,
    /// Exact distance tables (empty when the formula is used).
    tables: Vec<Vec<u32>>,
    /// Board for the distance formula.
    board: Board,
    /// Secondary order key of each square (smaller first) among equal onward-degree moves.
    pub tie_key: Vec<u32>,
}

impl Plan {
    /// A plan for `req` with move 1 on `start`; `None` if the request is proved impossible
    /// without search (contradictory or parity-violating constraints).
    pub fn build(req: &Request, start: Square) -> Option<Plan> {
        let board = req.board;
        let n = board.len();
        if !board.contains(start) {
            return None;
        }
        let (nbr, nbr_len) = neighbour_arrays(board);
        let mut required = vec![NONE; n + 2];
        let mut reserved = vec![0u32; n];
        let mut all = req.all_constraints();
        all.push(crate::solve::Constraint {
            move_number: 1,
            square: start,
        });
        for c in &all {
            let k = c.move_number as usize;
            if k == 0 || k > n || !board.contains(c.square) {
                return None;
            }
            let s = board.index(c.square);
            if (required[k] != NONE && required[k] != s)
                || (reserved[s as usize] != 0 && reserved[s as usize] != k as u32)
            {
                return None;
            }
            required[k] = s;
            reserved[s as usize] = k as u32;
        }
        let start_ix = board.index(start);
        if !parity_ok(board, &required, req.closed) {
            return None;
        }
        let fixed_end = required[n];
        if req.closed && fixed_end != NONE && !start.is_knight_move(board.square_at(fixed_end)) {
            return None;
        }
        let end_colour = start.is_corner_colour() == (n % 2 == 1);
        let in_endset: Vec<bool> = (0..n as u32)
            .map(|s| {
                let sq = board.square_at(s);
                let free_for_end = reserved[s as usize] == 0 || reserved[s as usize] == n as u32;
                let shape_ok = if req.closed {
                    start.is_knight_move(sq)
                } else {
                    sq.is_corner_colour() == end_colour
                };
                let end_ok = fixed_end == NONE || fixed_end == s;
                (free_for_end && shape_ok && end_ok) || n == 1
            })
            .collect();
        let mut next_constraint = vec![0u32; n + 2];
        for j in (1..=n).rev() {
            next_constraint[j] = if required[j] != NONE {
                j as u32
            } else {
                next_constraint[j + 1]
            };
        }
        let constrained: Vec<usize> = (2..=n).filter(|&k| required[k] != NONE).collect();
        let mut table_of = vec![NONE; n + 2];
        let mut tables = Vec::new();
        if n.saturating_mul(constrained.len()) <= MAX_TABLE_ENTRIES {
            for &k in &constrained {
                table_of[k] = tables.len() as u32;
                tables.push(bfs_distances(&nbr, &nbr_len, required[k]));
            }
        }
        let tie_key = tie_keys(board, fixed_end);
        let plan = Plan {
            n,
            nbr,
            nbr_len,
            start: start_ix,
            closed: req.closed,
            fixed_end,
            in_endset,
            required,
            reserved,
            next_constraint,
            table_of,
            tables,
            board,
            tie_key,
        };
        plan.constraints_reachable().then_some(plan)
    }

    /// Neighbours of square `s`.
    #[inline]
    pub fn neighbours(&self, s: u32) -> &[u32] {
        let b = 8 * s as usize;
        &self.nbr[b..b + self.nbr_len[s as usize] as usize]
    }

    /// Whether a knight on `s` after move `k` can still be on the square of the next constrained
    /// move in time (distance no more than the moves left, matching parity).
    #[inline]
    pub fn can_reach_next(&self, s: u32, k: usize) -> bool {
        let j = self.next_constraint[k + 1] as usize;
        if j == 0 {
            return true;
        }
        let left = (j - k) as u32;
        let d = self.distance(j, s);
        d <= left && (left - d).is_multiple_of(2)
    }

    /// A lower bound on the knight distance from `s` to the square of constrained move `k`.
    fn distance(&self, k: usize, s: u32) -> u32 {
        let t = self.table_of[k];
        if t != NONE {
            return self.tables[t as usize][s as usize];
        }
        let a = self.board.square_at(s);
        let b = self.board.square_at(self.required[k]);
        knight_distance(a.row.abs_diff(b.row), a.col.abs_diff(b.col))
    }

    /// Whether each constrained square can be reached from the previous one in time.
    fn constraints_reachable(&self) -> bool {
        let mut k = 1;
        while k <= self.n {
            let j = self.next_constraint[k + 1] as usize;
            if j == 0 {
                return true;
            }
            if !self.can_reach_next(self.required[k], k) {
                return false;
            }
            k = j;
        }
        true
    }
}

/// Flat neighbour arrays: 8 slots per square (`NONE` in unused slots) and each square's count.
pub(crate) fn neighbour_arrays(board: Board) -> (Vec<u32>, Vec<u8>) {
    let n = board.len();
    let mut nbr = vec![NONE; 8 * n];
    let mut len = vec![0u8; n];
    for sq in board.squares() {
        let s = board.index(sq) as usize;
        for (i, t) in board.knight_moves(sq).enumerate() {
            nbr[8 * s + i] = board.index(t);
            len[s] = i as u8 + 1;
        }
    }
    (nbr, len)
}

/// Colour parity: a knight changes colour every move, so move `k` is on the start's colour iff
/// `k` is odd; on an odd board the start is on the majority (corner) colour; closed tours need an
/// even number of squares.
fn parity_ok(board: Board, required: &[u32], closed: bool) -> bool {
    let n = board.len();
    if closed && (n % 2 == 1 || n < 4) {
        return false;
    }
    let start_colour = board.square_at(required[1]).is_corner_colour();
    if n % 2 == 1 && !start_colour {
        return false;
    }
    (1..=n).all(|k| {
        required[k] == NONE
            || board.square_at(required[k]).is_corner_colour() == (start_colour == (k % 2 == 1))
    })
}

/// Breadth-first knight distances from `from` over the whole board ([`NONE`] if unreachable).
fn bfs_distances(nbr: &[u32], nbr_len: &[u8], from: u32) -> Vec<u32> {
    let mut dist = vec![NONE; nbr_len.len()];
    let mut queue = VecDeque::from([from]);
    dist[from as usize] = 0;
    while let Some(s) = queue.pop_front() {
        let b = 8 * s as usize;
        for &t in &nbr[b..b + nbr_len[s as usize] as usize] {
            if dist[t as usize] == NONE {
                dist[t as usize] = dist[s as usize] + 1;
                queue.push_back(t);
            }
        }
    }
    dist
}

/// Knight distance on an infinite board between squares `dr` rows and `dc` columns apart: a
/// lower bound for any finite board.
pub(crate) fn knight_distance(dr: u32, dc: u32) -> u32 {
    let (x, y) = (i64::from(dr.max(dc)), i64::from(dr.min(dc)));
    if x == 1 && y == 0 {
        return 3;
    }
    if x == 2 && y == 2 {
        return 4;
    }
    let delta = x - y;
    let d = if y > delta {
        delta - 2 * (delta - y).div_euclid(3)
    } else {
        delta - 2 * (delta - y).div_euclid(4)
    };
    d as u32
}

/// Secondary move order keys, smaller first: farther from the centre first (Roth), then
/// farther from the end square (on all 2,048 8x8 (start, end) pairs this needs at most 92
/// nodes a pair; "farther from the end first" left 8 pairs unsolved at 10^8 nodes).
fn tie_keys(board: Board, fixed_end: u32) -> Vec<u32> {
    let end = (fixed_end != NONE).then(|| board.square_at(fixed_end));
    let from_end = |sq: Square| {
        end.map_or(0, |e| {
            let dr = 2 * (i64::from(sq.row) - i64::from(e.row));
            let dc = 2 * (i64::from(sq.col) - i64::from(e.col));
            dr * dr + dc * dc
        })
    };
    let raw: Vec<(i64, i64)> = board
        .squares()
        .map(|sq| (-from_centre(board, sq), -from_end(sq)))
        .collect();
    rank(&raw)
}

/// How far `sq` is from the board's centre, as a squared distance in half squares: the key of
/// Roth's rule (farther from the centre first), which every search here breaks ties by.
pub(crate) fn from_centre(board: Board, sq: Square) -> i64 {
    let dr = 2 * i64::from(sq.row) - (i64::from(board.rows()) - 1);
    let dc = 2 * i64::from(sq.col) - (i64::from(board.cols()) - 1);
    dr * dr + dc * dc
}

/// Replace values by their rank (0 for the smallest), keeping ties equal.
pub(crate) fn rank<T: Ord + Clone>(raw: &[T]) -> Vec<u32> {
    let mut sorted = raw.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    raw.iter()
        .map(|v| sorted.partition_point(|x| x < v) as u32)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formula_matches_bfs_away_from_the_edges() {
        let board = Board::new(41, 41).unwrap();
        let (nbr, len) = neighbour_arrays(board);
        let centre = board.index(Square::new(20, 20));
        let dist = bfs_distances(&nbr, &len, centre);
        for r in 10..31u32 {
            for c in 10..31u32 {
                let s = board.index(Square::new(r, c));
                assert_eq!(
                    knight_distance(r.abs_diff(20), c.abs_diff(20)),
                    dist[s as usize],
                    "({r},{c})"
                );
            }
        }
    }

    #[test]
    fn same_colour_ends_on_an_even_board_are_refused_without_search() {
        let board = Board::new(8, 8).unwrap();
        let mut req = Request::open(board);
        req.end = Some(Square::new(7, 7));
        assert!(Plan::build(&req, Square::new(0, 0)).is_none());
        req.end = Some(Square::new(7, 6));
        assert!(Plan::build(&req, Square::new(0, 0)).is_some());
    }
}
