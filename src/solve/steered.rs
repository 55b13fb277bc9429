//! Starting paths for the rotation search ([`rotations`](super::rotations)): Warnsdorff's rule
//! steered through the fixed squares, so that the path already passes many of them at their
//! moves and, above all, covers the board in the order the constraints imply.
//!
//! The rotation search meets the constraints one at a time in move order and keeps the path up
//! to each one it has met. From a plain Warnsdorff path, what it keeps is scattered over the
//! whole board, free squares between its squares, and the late constraints must be met in
//! what is left. A steered walk goes where the constraints say the
//! tour was at each move, so the part kept at each constraint is roughly the part a tour
//! through the constraints covers by then.
//!
//! The walk takes Warnsdorff's move (fewest onward squares, the farthest from the centre on a
//! tie, then at random) among the moves from which the next constraint's square can still be
//! reached in time (on an unbounded board), and never steps on a constrained square before its move;
//! a square about to be cut off (one way left) is taken whatever the constraints say, so that
//! the walk completes. At a dead end it turns the stretch after the last constraint passed
//! (Pósa's rotation), which keeps every constraint passed where it is.

use std::time::Instant;

use rand::Rng as _;

use crate::board::Board;
use crate::solve::backtrack::{from_centre, knight_distance};
use crate::solve::Rng;

/// The largest board a steered walk is tried on; the walk keeps about 14 bytes a square.
pub const MAX_SQUARES: usize = 1_000_000;

/// Squares moved by rotations at dead ends a walk may do, per square of the board, before it
/// gives up.
const ROTATION_WORK_PER_SQUARE: u64 = 2000;

/// Steps of a walk between looks at the clock.
const CLOCK_STEP: u64 = 4096;

/// One walk steered through `goals` (move index from 0, square index, in move order): a
/// complete knight's path as square indices, or `None` when the board is over
/// [`MAX_SQUARES`], a dead end could not be turned, or `deadline` passed; and the work done
/// (squares visited and moved by rotations). "In time" uses the knight distance on an
/// unbounded board (`knight_distance`), a lower bound, so near the edges a walk may take a
/// move that turns out too slow; the rotation search mends what the walk misses.
///
/// ```
/// use knights_tour::board::Board;
/// use knights_tour::solve::{rng_from_seed, steered};
/// let board = Board::new(12, 12).unwrap();
/// // Move 1 on a1 and move 144 on l12.
/// let goals = [(0, 0), (143, 143)];
/// let mut rng = rng_from_seed(1);
/// let path = (0..10).find_map(|_| steered::walk(board, &goals, None, &mut rng).0).unwrap();
/// assert_eq!(path.len(), 144);
/// assert_eq!(path[0], 0);
/// ```
pub fn walk(
    board: Board,
    goals: &[(usize, u32)],
    deadline: Option<Instant>,
    rng: &mut Rng,
) -> (Option<Vec<u32>>, u64) {
    if goals.is_empty() || board.len() > MAX_SQUARES {
        return (None, 0);
    }
    let mut walk = Walk::new(board, goals);
    let path = walk.run(deadline, rng);
    (path, walk.work)
}

/// A walk under way: the path, where each square is on it, and each free square's free
/// neighbours.
struct Walk<'a> {
    board: Board,
    goals: &'a [(usize, u32)],
    /// The move of the goal on each square, `u32::MAX` for none.
    goal_at: Vec<u32>,
    path: Vec<u32>,
    pos: Vec<u32>,
    on: Vec<bool>,
    ways: Vec<u8>,
    /// Squares visited, and moved by rotations.
    work: u64,
}

impl<'a> Walk<'a> {
    fn new(board: Board, goals: &'a [(usize, u32)]) -> Walk<'a> {
        let n = board.len();
        let mut goal_at = vec![u32::MAX; n];
        for &(i, s) in goals {
            goal_at[s as usize] = i as u32;
        }
        let ways = (0..n as u32)
            .map(|x| board.knight_moves(board.square_at(x)).count() as u8)
            .collect();
        Walk {
            board,
            goals,
            goal_at,
            path: Vec::with_capacity(n),
            pos: vec![0; n],
            on: vec![false; n],
            ways,
            work: 0,
        }
    }

    fn neighbours(&self, x: u32) -> impl Iterator<Item = u32> + '_ {
        let b = &self.board;
        b.knight_moves(b.square_at(x)).map(move |y| b.index(y))
    }

    fn visit(&mut self, x: u32) {
        self.pos[x as usize] = self.path.len() as u32;
        self.path.push(x);
        self.on[x as usize] = true;
        let b = self.board;
        for y in b.knight_moves(b.square_at(x)) {
            self.ways[b.index(y) as usize] -= 1;
        }
    }

    /// Knight moves from `x` to `y` on an unbounded board.
    fn distance(&self, x: u32, y: u32) -> usize {
        let (a, b) = (self.board.square_at(x), self.board.square_at(y));
        knight_distance(a.row.abs_diff(b.row), a.col.abs_diff(b.col)) as usize
    }

    /// The first square: the first goal's when it is move 1, otherwise a random free square
    /// from which the first goal's square can be reached by its move.
    fn start(&self, rng: &mut Rng) -> Option<u32> {
        let (p0, s0) = self.goals[0];
        if p0 == 0 {
            return Some(s0);
        }
        let options: Vec<u32> = (0..self.board.len() as u32)
            .filter(|&x| {
                let d = self.distance(x, s0);
                d <= p0 && d % 2 == p0 % 2 && self.goal_at[x as usize] == u32::MAX
            })
            .collect();
        options
            .get(rng.random_range(0..options.len().max(1)))
            .copied()
    }

    fn run(&mut self, deadline: Option<Instant>, rng: &mut Rng) -> Option<Vec<u32>> {
        let n = self.board.len();
        let start = self.start(rng)?;
        self.visit(start);
        self.work = 1;
        let board = self.board;
        let centre = |x: u32| from_centre(board, board.square_at(x));
        let mut work_left = ROTATION_WORK_PER_SQUARE * n as u64;
        let mut steps = 0u64;
        let mut moves: Vec<u32> = Vec::with_capacity(8);
        while self.path.len() < n {
            self.work += 1;
            steps += 1;
            if steps.is_multiple_of(CLOCK_STEP) && deadline.is_some_and(|t| Instant::now() >= t) {
                return None;
            }
            let next = self.path.len();
            // The next goal, and the move of the last one passed.
            let gi = self.goals.partition_point(|&(i, _)| i < next);
            let floor = if gi == 0 { 0 } else { self.goals[gi - 1].0 };
            let cur = self.path[next - 1];
            moves.clear();
            moves.extend(self.neighbours(cur).filter(|&y| {
                let at = self.goal_at[y as usize];
                !self.on[y as usize]
                    && (at == u32::MAX || at as usize <= next || self.ways[y as usize] <= 1)
            }));
            if let Some(&(p, goal)) = self.goals.get(gi) {
                let in_time =
                    |y: u32| self.ways[y as usize] <= 1 || self.distance(y, goal) <= p - next;
                if moves.iter().any(|&y| in_time(y)) {
                    moves.retain(|&y| in_time(y));
                }
            }
            let key = |y: u32| (self.ways[y as usize], std::cmp::Reverse(centre(y)));
            if let Some(best) = moves.iter().map(|&y| key(y)).min() {
                moves.retain(|&y| key(y) == best);
                let y = moves[rng.random_range(0..moves.len())];
                self.visit(y);
                continue;
            }
            let cost = self.turn(cur, floor, rng)?;
            self.work += cost;
            work_left = work_left.checked_sub(cost)?;
        }
        Some(std::mem::take(&mut self.path))
    }

    /// Pósa's rotation at the dead end `cur`: a neighbour on the path after move `floor`
    /// becomes the end's predecessor, the stretch after it reversed. Prefers the latest such
    /// neighbour whose next square has a way on. The squares moved, or `None` if there is none.
    fn turn(&mut self, cur: u32, floor: usize, rng: &mut Rng) -> Option<u64> {
        let len = self.path.len();
        let options: Vec<usize> = self
            .neighbours(cur)
            .filter(|&y| self.on[y as usize])
            .map(|y| self.pos[y as usize] as usize)
            .filter(|&i| i + 2 < len && i >= floor)
            .collect();
        let onward = options
            .iter()
            .copied()
            .filter(|&i| self.ways[self.path[i + 1] as usize] > 0)
            .max();
        let i = match onward {
            Some(i) => i,
            None => *options.get(rng.random_range(0..options.len().max(1)))?,
        };
        self.path[i + 1..].reverse();
        for k in i + 1..len {
            self.pos[self.path[k] as usize] = k as u32;
        }
        Some((len - i) as u64)
    }
}
