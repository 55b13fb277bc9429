//! Tours with "move k on X" constraints on large boards, by rearranging a whole tour until every
//! constrained square sits at its move: Pósa's rotations and 2-opt reversals.
//!
//! A knight's path `v0 … v(n-1)` stays a path when a stretch `va … vb` is reversed, provided the
//! squares on either side of the stretch are a knight's move from its new ends (`v(a-1)` from
//! `vb`, `va` from `v(b+1)`; a stretch at either end of the path needs only its inner side).
//! Reversing moves every square inside to `a + b - i`. So a square can be carried to any move
//! without ever leaving the set of complete paths; the constraints are met one at a time in
//! move order, each freezing the path up to its move. A goal that cannot be met sends the
//! search back to the latest piece next to its square, the one that walled it in
//! (conflict-directed backjumping). Attempts alternate between move order and its reverse
//! (the tour walked from its last move), since the goals an attempt fails on are its late
//! ones, in what the frozen prefix leaves of the board.
//!
//! The segment search ([`segments`](super::segments)) grows the tour and has to leave the rest
//! of the board coverable; on boards of thousands of squares it dies when two constrained moves
//! fall close together. Here the rest of the board is always covered (every state is a complete
//! path); the only question is whether the next square can be brought to its move, which is
//! easiest exactly where the segment search struggles: long gaps on big boards. This is not
//! exhaustive; the runner keeps the other searches beside it.
//!
//! An attempt starts from a walk steered through the constraints
//! ([`steered`]), which meets many of them at once and covers the board in the
//! order they imply; a plain Warnsdorff path when no steered walk completes.

mod rotating_path;

use std::collections::HashSet;
use std::time::Instant;

use rand::Rng as _;

use crate::board::{Board, Square};
use crate::solve::race::{Race, COPIES};
use crate::solve::search::{self, Answer, Search};
use crate::solve::steered;
use crate::solve::{warnsdorff::Warnsdorff, Budget, Method, Request, Rng, Tiebreak};
use crate::tour::Tour;

use rotating_path::State;

/// Moves tried to bring one constrained square to its move before the one before it is freed.
const STEPS_PER_GOAL: u32 = 400;

/// What a later goal's square left at or before the goal's move costs, in moves off target.
const EARLY_COST: usize = 16;

/// Work one attempt may do, per square, before it starts again from a new path.
const WORK_PER_SQUARE: u64 = 20000;

/// Random reversals made when a goal is tried again (or the goal to blame for it is), each
/// starting within the piece ending at that goal's move (up to [`NEAR`] past it): reversals
/// anywhere in a tail thousands of moves long rarely touch the piece, and the goal fails the
/// same way again.
const SCRAMBLES: u32 = 50;

/// Warnsdorff attempts at a starting path with each tie-break.
const PATH_TRIES: u32 = 6;

/// Random reversals that make the construction, when no Warnsdorff attempt completes, a
/// starting path of its own (the construction is the same every time).
const CONSTRUCTION_SCRAMBLES: u32 = 2000;

/// How far past the goal's move a reshaping reversal may start.
const NEAR: usize = 64;

/// Attempts at a goal, after the first, before the goal before it is placed again: an attempt
/// stuck on a late goal goes back soon.
const RETRIES: u32 = 1;

/// Knight's moves around a goal's square within which the backtracking looks for the piece to
/// blame when the goal cannot be met ([`State::culprit`]).
const CULPRIT_RADIUS: u32 = 4;

/// Fewer reversals than this carry the goal's square: reshape the path instead.
const FEW_MOVES: usize = 4;

/// The largest board the search takes. An attempt holds its path, where each square is on it
/// and its moves, and Warnsdorff's board, about 11 bytes a square: 275 MB on 5000x5000
/// through the CLI; on 10000x10000 a single copy would take about 1.1 GB.
pub const MAX_SQUARES: usize = 25_000_000;

/// The rotation search raced on threads ([`Race`]), `--method rotations`: two copies, the
/// second's first attempt walking the tour from its last move (each copy's attempts alternate
/// ways after that); one copy on boards over 4,000,000 squares, so that two attempts' memory
/// stays small.
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::solve::{rotations, Request};
/// let req = |side| Request { end: Some(knights_tour::board::Square::new(0, 0)), ..Request::open(Board::new(side, side).unwrap()) };
/// assert_eq!(rotations::raced(&req(100)).len(), 2);
/// assert_eq!(rotations::raced(&req(5000)).len(), 1);
/// ```
pub fn raced(request: &Request) -> Race<'_, Rotations<'_>> {
    let copies = if request.board.len() <= TWO_COPIES_MAX_SQUARES {
        COPIES
    } else {
        1
    };
    Race::new(copies, move |i| Rotations::new(request, i % 2 == 1))
}

/// The largest board on which two copies of the search run at once (about 40 MB each).
const TWO_COPIES_MAX_SQUARES: usize = 4_000_000;

/// The rotation search as a [`Search`]: each step makes a new attempt's starting path or
/// tries one goal of the attempt under way; the attempt, and which way the next one goes,
/// carry over from one step to the next. Its nodes are squares looked at.
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::solve::construct::open_tour;
/// use knights_tour::solve::rotations::Rotations;
/// use knights_tour::solve::search::{Answer, Search};
/// use knights_tour::solve::{rng_from_seed, Budget, Constraint, Request};
/// let board = Board::new(20, 20).unwrap();
/// let source = open_tour(board).unwrap();
/// let at = |k: u32| Constraint { move_number: k, square: source.squares().nth(k as usize - 1).unwrap() };
/// let req = Request { constraints: vec![at(90), at(250), at(330)], ..Request::open(board) };
/// for turned in [false, true] {
///     let mut search = Rotations::new(&req, turned);
///     let (found, _) = search.run(&Budget::nodes(100_000_000), &mut rng_from_seed(1));
///     let Answer::Found { tour, .. } = found else { panic!("{found:?}") };
///     assert!(req.is_satisfied_by(&tour));
/// }
/// ```
pub struct Rotations<'a> {
    req: &'a Request,
    /// The goals (move index, square) in move order, and for the tour walked from its end.
    forwards: Vec<(usize, u32)>,
    backwards: Vec<(usize, u32)>,
    /// Whether the attempt under way (or the next) walks the tour from its end.
    reversed: bool,
    warnsdorff: Warnsdorff,
    attempt: Option<Attempt>,
    /// No starting path could be made: the search can do nothing more.
    gave_up: bool,
}

/// One attempt: a complete path, the goal it is at, and the tries used on each goal.
struct Attempt {
    state: State,
    goal: usize,
    fails: Vec<u32>,
}

impl<'a> Rotations<'a> {
    /// A search for `req` (which it takes: [`search::declines`] is `None`), its first attempt walking
    /// the tour from the last move when `turned` (attempts alternate between meeting the goals
    /// from move 1 and from the last move, see `first_reversed`).
    pub fn new(req: &'a Request, turned: bool) -> Rotations<'a> {
        let n = req.board.len();
        let mut forwards: Vec<(usize, u32)> = req
            .all_constraints()
            .iter()
            .map(|c| (c.move_number as usize - 1, req.board.index(c.square)))
            .collect();
        forwards.sort_unstable();
        forwards.dedup();
        // The same goals for the tour walked from its other end: move k becomes move n + 1 - k.
        let mut backwards: Vec<(usize, u32)> =
            forwards.iter().map(|&(i, s)| (n - 1 - i, s)).collect();
        backwards.sort_unstable();
        let reversed = first_reversed(&forwards, n) != turned;
        Rotations {
            req,
            forwards,
            backwards,
            reversed,
            warnsdorff: Warnsdorff::new(req.board),
            attempt: None,
            gave_up: search::declines(Method::Rotations, req).is_some(),
        }
    }
}

impl Search for Rotations<'_> {
    fn method(&self) -> Method {
        Method::Rotations
    }

    fn exhaustive(&self) -> bool {
        false
    }

    /// A new attempt's starting path, or one goal of the attempt under way tried; the tour
    /// when the attempt meets its last goal. [`Answer::Spent`] once no starting path can be
    /// made.
    fn step(&mut self, budget: &Budget, rng: &mut Rng) -> (Answer, u64) {
        if self.gave_up {
            return (Answer::Spent, 0);
        }
        let goals = if self.reversed {
            &self.backwards
        } else {
            &self.forwards
        };
        let Some(attempt) = self.attempt.as_mut() else {
            return self.start(budget.deadline, rng);
        };
        let state = &mut attempt.state;
        state.deadline = budget.deadline;
        let before = state.work;
        let outcome = state.meet_one(goals, &mut attempt.goal, &mut attempt.fails, rng);
        let work = state.work - before;
        let Some(met) = outcome else {
            return (Answer::Unfinished, work);
        };
        // The attempt is over, met or given up; the next goes the other way.
        let mut path = std::mem::take(&mut state.path);
        let reversed = self.reversed;
        self.next_attempt();
        if met {
            if reversed {
                path.reverse();
            }
            let tour = Tour::from_indices_unchecked(self.req.board, path);
            if self.req.is_satisfied_by(&tour) {
                return (
                    Answer::Found {
                        tour,
                        by: Method::Rotations,
                    },
                    work,
                );
            }
        }
        (Answer::Unfinished, work)
    }
}

impl Rotations<'_> {
    /// A new attempt's starting path, scrambled when it is the construction.
    fn start(&mut self, deadline: Option<Instant>, rng: &mut Rng) -> (Answer, u64) {
        let goals = if self.reversed {
            &self.backwards
        } else {
            &self.forwards
        };
        let board = self.req.board;
        let start = goals
            .first()
            .filter(|&&(i, _)| i == 0)
            .map(|&(_, s)| board.square_at(s));
        let mut steer_work = 0;
        let steered = (0..STEER_TRIES).find_map(|_| {
            let (path, work) = steered::walk(board, goals, deadline, &mut *rng);
            steer_work += work;
            path
        });
        let found = match steered {
            Some(path) => Some((path, false)),
            None => any_path(&mut self.warnsdorff, board, start, deadline, rng),
        };
        let Some((path, constructed)) = found else {
            // Out of time, or no path at all (then the search can do nothing more).
            self.gave_up = deadline.is_none_or(|t| Instant::now() < t);
            return (Answer::Unfinished, steer_work);
        };
        let n = path.len();
        let mut state = State::new(board, path);
        state.work = n as u64;
        if constructed {
            state.scramble(0, n, CONSTRUCTION_SCRAMBLES.min(n as u32), rng);
        }
        let work = state.work + steer_work;
        self.attempt = Some(Attempt {
            state,
            goal: 0,
            fails: vec![0; goals.len()],
        });
        (Answer::Unfinished, work)
    }

    /// The next attempt goes the other way.
    fn next_attempt(&mut self) {
        self.attempt = None;
        self.reversed = !self.reversed;
    }
}

/// Whether the first attempt meets the goals from the tour's last move backwards. Attempts
/// alternate between the two ways: the goals a forward attempt fails on are the late ones, in
/// what is left of the board after the frozen prefix, and walked backwards they come first.
/// Forwards goes first unless only the last move is fixed (a fixed end goes first: its
/// Warnsdorff path meets it at once); easy requests are met by the first forward attempt.
fn first_reversed(goals: &[(usize, u32)], n: usize) -> bool {
    let first_fixed = goals.first().is_some_and(|&(i, _)| i == 0);
    let last_fixed = goals.last().is_some_and(|&(i, _)| i == n - 1);
    last_fixed && !first_fixed
}

/// A complete open path from `start` (the request's, which meets its first goal at once) or a
/// random one: Warnsdorff's rule, its ties broken by Roth's rule (which completes far more
/// often on big boards), then Pohl's, then at random; and `true` when the path is the
/// construction instead, the same every time, which the caller scrambles. `None` when there is
/// none, or when `deadline` passes between tries (a try on a big board takes a fraction of a
/// second).
fn any_path(
    w: &mut Warnsdorff,
    board: Board,
    start: Option<Square>,
    deadline: Option<Instant>,
    rng: &mut Rng,
) -> Option<(Vec<u32>, bool)> {
    for tiebreak in [Tiebreak::Center, Tiebreak::Pohl, Tiebreak::Random] {
        for _ in 0..PATH_TRIES {
            if deadline.is_some_and(|t| Instant::now() >= t) {
                return None;
            }
            let start =
                start.unwrap_or_else(|| board.square_at(rng.random_range(0..board.len() as u32)));
            let tour = w.attempt(start, tiebreak, rng);
            if tour.is_complete() {
                return Some((tour.into_indices(), false));
            }
        }
    }
    crate::solve::construct::open_tour(board).map(|t| (t.into_indices(), true))
}

/// Steered walks ([`steered`](super::steered)) tried for a starting path before plain
/// Warnsdorff ones.
const STEER_TRIES: u32 = 4;

impl State {
    /// One goal of `goals` tried, `g` the goal under way and `fails` the tries each has used:
    /// `Some(true)` when every goal is met, `Some(false)` when the attempt gives up (its first
    /// goal out of tries, or its work spent), `None` while it goes on.
    fn meet_one(
        &mut self,
        goals: &[(usize, u32)],
        g: &mut usize,
        fails: &mut [u32],
        rng: &mut Rng,
    ) -> Option<bool> {
        if *g >= goals.len() {
            return Some(true);
        }
        if self.work > self.path.len() as u64 * WORK_PER_SQUARE {
            return Some(false);
        }
        // The path up to the previous goal's move is kept.
        let lo = |g: usize| if g == 0 { 0 } else { goals[g - 1].0 + 1 };
        if self.place(goals[*g], &goals[*g + 1..], lo(*g), rng) {
            *g += 1;
            if *g < goals.len() {
                fails[*g] = 0;
                return None;
            }
            return Some(true);
        }
        fails[*g] += 1;
        // Go back to the piece to blame while each goal has used its retries.
        while fails[*g] > RETRIES {
            if *g == 0 {
                return Some(false);
            }
            fails[*g] = 0;
            *g = self.culprit(goals, *g);
            fails[*g] += 1;
        }
        // Reshape the piece to be placed again, not the whole tail (see [`SCRAMBLES`]).
        let piece_end = (goals[*g].0 + NEAR).min(self.path.len());
        self.scramble(lo(*g), piece_end, SCRAMBLES, rng);
        None
    }

    /// The goal to place again when goal `g` (not the first) has used its retries: the latest
    /// one whose piece (its moves after the goal before it, up to its own) has a square within
    /// [`CULPRIT_RADIUS`] knight's moves of goal `g`'s square, or `g - 1` when none has. A piece
    /// far from the square did not wall it in; placing it again changes nothing there, and
    /// going back one goal at a time, each tried twice, never gets back past a few goals.
    fn culprit(&self, goals: &[(usize, u32)], g: usize) -> usize {
        let frozen = goals[g - 1].0;
        let mut seen = HashSet::from([goals[g].1]);
        let mut ring = vec![goals[g].1];
        for _ in 0..CULPRIT_RADIUS {
            ring = ring
                .iter()
                .flat_map(|&x| self.neighbours(x))
                .map(|t| t as u32)
                .filter(|&t| seen.insert(t))
                .collect();
        }
        seen.iter()
            .map(|&x| self.pos[x as usize] as usize)
            .filter(|&i| i <= frozen)
            .map(|i| goals.partition_point(|&(m, _)| m < i))
            .max()
            .unwrap_or(g - 1)
    }

    /// The reversals carrying the square at `q` to exactly `p` (at most one for each start
    /// `a` in `lo..=q`, since its end is `p + q - a`), in the order of [`State::carrying`].
    fn landing(&self, q: usize, p: usize, lo: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        let n = self.path.len();
        (lo..=q.min(p)).filter_map(move |a| {
            let b = p + q - a;
            let fits = b < n
                && if a == 0 {
                    // A rotation at the head: path[0] next to path[b + 1], or the whole path.
                    b == n - 1 || self.adjacent(self.path[0], self.path[b + 1])
                } else {
                    b > a
                        && self.adjacent(self.path[a - 1], self.path[b])
                        && (b == n - 1 || self.adjacent(self.path[a], self.path[b + 1]))
                };
            fits.then_some((a, b))
        })
    }

    /// Every reversal carrying the square at `q` (`a` in `lo..=q`, `b >= q` with `path[b]` next
    /// to `path[a - 1]`) into `moves`, stopping once it holds `limit`.
    fn carrying(&self, q: usize, lo: usize, limit: usize, moves: &mut Vec<(usize, usize)>) {
        let n = self.path.len();
        moves.clear();
        for a in lo..=q {
            if moves.len() >= limit {
                return;
            }
            if a == 0 {
                moves.push((0, n - 1));
                for t in self.neighbours(self.path[0]) {
                    let b = self.pos[t] as usize;
                    if b > q && b >= 1 {
                        moves.push((0, b - 1));
                    }
                }
                continue;
            }
            // `path[b]` is next to `path[a - 1]`: the reversal needs `path[a]` next to
            // `path[b + 1]` only.
            let next = self.path[a];
            for t in self.neighbours(self.path[a - 1]) {
                let b = self.pos[t] as usize;
                if b >= q && b > a && (b == n - 1 || self.adjacent(next, self.path[b + 1])) {
                    moves.push((a, b));
                }
            }
        }
    }

    /// Bring `square` to move index `p` by reversals starting at `lo` or later, the later goals'
    /// squares all after `p`; `false` after [`STEPS_PER_GOAL`] reversals.
    fn place(
        &mut self,
        (p, square): (usize, u32),
        later: &[(usize, u32)],
        lo: usize,
        rng: &mut Rng,
    ) -> bool {
        // Later goals' squares at or before `p` once `a..=b` is reversed (`(0, 0)`: as it is).
        let early = |st: &State, a: usize, b: usize| {
            later
                .iter()
                .filter(|&&(_, y)| {
                    let i = st.pos[y as usize] as usize;
                    (if a <= i && i <= b { a + b - i } else { i }) <= p
                })
                .count()
        };
        let clean = |st: &State, a: usize, b: usize| early(st, a, b) == 0;
        let mut moves: Vec<(usize, usize)> = Vec::new();
        for _ in 0..STEPS_PER_GOAL {
            if self.out_of_time() {
                return false;
            }
            let q = self.pos[square as usize] as usize;
            if q == p && clean(self, 0, 0) {
                return true;
            }
            self.work += (q - lo + 1) as u64;
            let exact: Vec<(usize, usize)> = self
                .landing(q, p, lo)
                .filter(|&(a, b)| clean(self, a, b))
                .collect();
            if !exact.is_empty() {
                let (a, b) = exact[rng.random_range(0..exact.len())];
                self.reverse(a, b);
                return true;
            }
            if let Some(shift) = self.exact_shift(q, p, lo, later, rng) {
                self.apply(shift);
                return true;
            }
            // Every reversal carrying the square is listed only when one is picked: a scramble
            // needs only to know there are a few.
            self.carrying(q, lo, FEW_MOVES, &mut moves);
            let pick = if moves.len() < FEW_MOVES || rng.random_bool(0.2) {
                None
            } else {
                self.carrying(q, lo, usize::MAX, &mut moves);
                Some(if rng.random_bool(0.6) {
                    // How far the square lands from its move, and each later goal's square
                    // left at or before it (counted only for a move landing no farther than
                    // the best so far).
                    let cost = |st: &State, (a, b): (usize, usize), bound: usize| {
                        let off = (a + b - q).abs_diff(p);
                        (off <= bound).then(|| off + EARLY_COST * early(st, a, b))
                    };
                    let best = moves.iter().fold(usize::MAX, |best, &m| {
                        cost(self, m, best).map_or(best, |c| c.min(best))
                    });
                    let near: Vec<_> = moves
                        .iter()
                        .copied()
                        .filter(|&m| cost(self, m, best) == Some(best))
                        .collect();
                    near[rng.random_range(0..near.len())]
                } else {
                    moves[rng.random_range(0..moves.len())]
                })
            };
            match pick {
                Some((a, b)) => self.reverse(a, b),
                None => self.scramble(lo, q.max(p) + NEAR, 1, rng),
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::rotating_path::State;
    use super::*;
    use crate::solve::rng_from_seed;
    use proptest::prelude::*;

    proptest! {
        /// Neighbours and adjacency read off the move masks agree with rows and columns, on
        /// narrow boards too (where two moves can share an offset).
        #[test]
        fn neighbours_match_rows_and_columns(rows in 1u32..12, cols in 1u32..12, pick in any::<u32>()) {
            let board = Board::new(rows, cols).unwrap();
            let state = State::new(board, (0..rows * cols).collect());
            let s = pick % (rows * cols);
            let mut expected: Vec<usize> = board
                .knight_moves(board.square_at(s))
                .map(|t| board.index(t) as usize)
                .collect();
            let mut found: Vec<usize> = state.neighbours(s).collect();
            expected.sort_unstable();
            found.sort_unstable();
            prop_assert_eq!(&found, &expected);
            for t in 0..rows * cols {
                prop_assert_eq!(state.adjacent(s, t), expected.contains(&(t as usize)));
            }
        }
    }

    #[test]
    fn backtracking_goes_back_to_the_piece_next_to_the_failed_goal() {
        // A path that is not a knight's path, but numbers the squares row by row, so that each
        // piece is a run of rows; the culprit looks only at where squares are.
        let board = Board::new(20, 20).unwrap();
        let state = State::new(board, (0..400).collect());
        // The last goal's square is row 19, column 19. The first piece (moves 1 to 341) holds
        // rows 0 to 16, two moves away; the second (row 17, columns 1 to 5) is seven or more.
        assert_eq!(state.culprit(&[(340, 340), (345, 345), (399, 399)], 2), 0);
        // The piece before the goal is within reach: going back one goal, as before.
        assert_eq!(state.culprit(&[(300, 300), (345, 345), (399, 399)], 2), 1);
        // No frozen square within four moves: going back one goal.
        assert_eq!(state.culprit(&[(10, 10), (20, 20), (399, 399)], 2), 1);
    }

    fn is_knights_path(st: &State) -> bool {
        st.path.windows(2).all(|w| st.adjacent(w[0], w[1]))
            && st
                .path
                .iter()
                .enumerate()
                .all(|(i, &s)| st.pos[s as usize] as usize == i)
    }

    fn a_path(side: u32, seed: u64) -> State {
        let board = Board::new(side, side).unwrap();
        let (path, _) = any_path(
            &mut Warnsdorff::new(board),
            board,
            None,
            None,
            &mut rng_from_seed(seed),
        )
        .unwrap();
        State::new(board, path)
    }

    /// Every block move found lands the square on its move, keeps the path a knight's path,
    /// and moves every other square where `new_index` says.
    #[test]
    fn block_moves_land_the_square_and_keep_the_path() {
        let mut rng = rng_from_seed(7);
        let mut st = a_path(30, 7);
        let n = st.path.len();
        let mut found = 0;
        for _ in 0..1200 {
            let (q, p) = (rng.random_range(1..n), rng.random_range(1..n));
            let lo = rng.random_range(0..q.min(p));
            let Some(shift) = st.exact_shift(q, p, lo, &[], &mut rng) else {
                continue;
            };
            found += 1;
            let before = st.path.clone();
            st.apply(shift);
            assert!(is_knights_path(&st), "{shift:?}");
            assert_eq!(st.path[p], before[q], "{shift:?}");
            assert_eq!(st.path[..lo], before[..lo], "{shift:?}");
            for (i, &s) in before.iter().enumerate() {
                assert_eq!(st.pos[s as usize] as usize, shift.new_index(i), "{shift:?}");
            }
        }
        assert!(found >= 40, "only {found} block moves found");
    }

    /// The reversals landing the square exactly, found one for each start, are those of every
    /// reversal carrying it that land it there, in the same order (the search draws among them).
    #[test]
    fn landing_reversals_are_the_carrying_ones_that_land() {
        let mut rng = rng_from_seed(9);
        let st = a_path(20, 9);
        let n = st.path.len();
        let (mut moves, mut landed) = (Vec::new(), 0);
        for _ in 0..3000 {
            let lo = rng.random_range(0..n / 2);
            let (q, p) = (rng.random_range(lo..n), rng.random_range(lo..n));
            st.carrying(q, lo, usize::MAX, &mut moves);
            let expected: Vec<_> = moves
                .iter()
                .copied()
                .filter(|&(a, b)| a + b - q == p)
                .collect();
            assert_eq!(st.landing(q, p, lo).collect::<Vec<_>>(), expected);
            landed += expected.len();
            // Listing stopped after a few: the same first moves, and a few when there are.
            let all = moves.clone();
            st.carrying(q, lo, FEW_MOVES, &mut moves);
            assert_eq!(moves[..], all[..moves.len()]);
            assert!(moves.len() >= FEW_MOVES.min(all.len()));
        }
        assert!(landed > 50, "only {landed} landing reversals");
    }

    /// Reversals the search accepts keep the path a knight's path and leave `lo..` alone.
    #[test]
    fn valid_reversals_keep_the_path() {
        let mut rng = rng_from_seed(8);
        let mut st = a_path(25, 8);
        let n = st.path.len();
        let mut done = 0;
        for _ in 0..2000 {
            let lo = rng.random_range(0..n / 2);
            let a = rng.random_range(lo.max(1)..n - 1);
            let b = rng.random_range(a..n);
            if st.valid(a, b, lo) {
                st.reverse(a, b);
                assert!(is_knights_path(&st));
                done += 1;
            }
        }
        st.scramble(0, n, 200, &mut rng);
        assert!(is_knights_path(&st));
        assert!(done > 0);
    }
}
