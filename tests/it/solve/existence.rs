//! The existence rules against real tours on boards too big for the unit tests' exhaustive
//! search: every square that `open_tour_from` admits must start a tour we can actually find
//! (Warnsdorff attempts first, then a depth-first search), and every board `open_tour` admits
//! must have one.
//!
//! The refusals on these boards are theorems (colour counting, the 4 x n rank argument) or come
//! from `3 x n` boards small enough for the exhaustive unit tests in `solve::existence`.

use std::collections::HashSet;

use knights_tour::board::{Board, Square};
use knights_tour::solve::existence::{open_tour, open_tour_from};
use knights_tour::solve::warnsdorff::Warnsdorff;
use knights_tour::solve::{rng_from_seed, Request, Tiebreak};
use knights_tour::tour::Tour;

/// Depth-first search for a Hamiltonian path on boards of at most 128 squares: bit masks,
/// Warnsdorff move order, pruning by dead ends and connectivity, a memo of failed states.
struct Search {
    nb: Vec<u128>,
    len: usize,
    memo: HashSet<(u128, u8)>,
}

impl Search {
    fn new(board: Board) -> Search {
        assert!(board.len() <= 128);
        let nb = board
            .neighbour_table()
            .iter()
            .map(|ns| ns.iter().fold(0u128, |m, &i| m | 1 << i))
            .collect();
        Search {
            nb,
            len: board.len(),
            memo: HashSet::new(),
        }
    }

    fn connected(&self, u: u128) -> bool {
        let mut seen = u & u.wrapping_neg();
        let mut frontier = seen;
        while frontier != 0 {
            let mut next = 0;
            let mut f = frontier;
            while f != 0 {
                next |= self.nb[f.trailing_zeros() as usize];
                f &= f - 1;
            }
            next &= u & !seen;
            seen |= next;
            frontier = next;
        }
        seen == u
    }

    fn dfs(&mut self, cur: usize, u: u128, path: &mut Vec<u32>) -> bool {
        if u == 0 {
            return true;
        }
        if self.memo.contains(&(u, cur as u8)) {
            return false;
        }
        let cnb = self.nb[cur];
        let many = u.count_ones() > 1;
        let mut ends = 0;
        let mut m = u;
        let mut dead = false;
        while m != 0 {
            let s = m.trailing_zeros() as usize;
            m &= m - 1;
            let adj = (cnb >> s) & 1 == 1;
            let d = (self.nb[s] & u).count_ones() + u32::from(adj);
            if d == 0 || (d == 1 && many && adj) {
                dead = true;
                break;
            }
            if d == 1 && many {
                ends += 1;
            }
        }
        if dead || ends > 1 || !self.connected(u) {
            self.memo.insert((u, cur as u8));
            return false;
        }
        let mut cand: Vec<(u32, usize)> = Vec::with_capacity(8);
        let mut c = cnb & u;
        while c != 0 {
            let s = c.trailing_zeros() as usize;
            c &= c - 1;
            cand.push(((self.nb[s] & u).count_ones(), s));
        }
        cand.sort_unstable();
        for (_, s) in cand {
            path.push(s as u32);
            if self.dfs(s, u & !(1 << s), path) {
                return true;
            }
            path.pop();
        }
        self.memo.insert((u, cur as u8));
        false
    }

    fn tour(&mut self, start: u32) -> Option<Vec<u32>> {
        self.memo.clear();
        let all = if self.len == 128 {
            u128::MAX
        } else {
            (1u128 << self.len) - 1
        };
        let mut path = vec![start];
        self.dfs(start as usize, all & !(1 << start), &mut path)
            .then_some(path)
    }
}

/// A tour from `start`: Warnsdorff with center ties, then up to `tries` random-tie attempts,
/// then (boards up to 64 squares, where its memo stays small) exhaustive search.
fn find_tour(w: &mut Warnsdorff, start: Square, tries: u64) -> Option<Tour> {
    let board = w.board();
    let attempts = std::iter::once((Tiebreak::Center, 0))
        .chain((0..tries).map(|seed| (Tiebreak::Random, seed)));
    if let Some(t) = attempts
        .map(|(tb, seed)| w.attempt(start, tb, &mut rng_from_seed(seed)))
        .find(Tour::is_complete)
    {
        return Some(t);
    }
    if board.len() > 64 {
        return None;
    }
    let path = Search::new(board).tour(board.index(start))?;
    Some(Tour::from_indices(board, path).expect("the search makes knight paths"))
}

/// Every admitted square of every board `rows x cols` in `boards` starts a tour we find.
fn admitted_squares_start_tours(boards: impl IntoIterator<Item = (u32, u32)>, tries: u64) {
    for (r, c) in boards {
        let board = Board::new(r, c).unwrap();
        assert!(open_tour(board).is_ok(), "{board}");
        let mut w = Warnsdorff::new(board);
        for sq in board.squares() {
            if open_tour_from(board, sq).is_err() {
                continue;
            }
            let tour = find_tour(&mut w, sq, tries)
                .unwrap_or_else(|| panic!("{board}: no tour found from {}", board.algebraic(sq)));
            let req = Request {
                start: Some(sq),
                ..Request::open(board)
            };
            assert!(req.is_satisfied_by(&tour), "{board}");
        }
    }
}

#[test]
fn admitted_squares_of_boards_5_to_16_start_tours() {
    let boards = (5..=16).flat_map(|r| (r..=16).map(move |c| (r, c)));
    admitted_squares_start_tours(boards, 200);
}

#[test]
fn admitted_squares_of_narrow_boards_start_tours() {
    // 3 x n has tours for n = 4 and n >= 7, 4 x n for n >= 5.
    let three = [4].into_iter().chain(7..=21).map(|n| (3, n));
    let four = (5..=16).map(|n| (4, n));
    let boards: Vec<(u32, u32)> = three.chain(four).collect();
    admitted_squares_start_tours(boards.iter().flat_map(|&(r, c)| [(r, c), (c, r)]), 50);
}

/// The same on longer narrow boards (3 x 22..42, 4 x 17..32), where Warnsdorff needs up to a few
/// thousand attempts for some squares: about 6 s in a debug build, under 1 s in release, so it
/// is left out of the default run: `cargo test --release --test existence -- --ignored`.
#[test]
#[ignore = "slow in debug builds: run with --release"]
fn admitted_squares_of_long_narrow_boards_start_tours() {
    let narrow = (22..=42).map(|n| (3, n)).chain((17..=32).map(|n| (4, n)));
    admitted_squares_start_tours(narrow, 20_000);
}
