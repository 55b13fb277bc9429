//! Small knight's paths for examples, tests and benches (the real solvers live in
//! `knights_tour::solve`; this keeps the workbook writer's checks independent of them).

#![allow(dead_code)]

use knights_tour::board::{Board, Square};
use knights_tour::tour::Tour;

/// Warnsdorff's rule from `start`: always jump to the unvisited square with the fewest onward
/// moves, ties to the square farthest from the centre (Roth), then to the first in
/// `KNIGHT_MOVES` order. Returns the path, complete or stuck.
pub fn warnsdorff(board: Board, start: Square) -> Tour {
    let n = board.len();
    // Neighbours are computed on the fly: a 1000x1000 board's neighbour table would take more
    // memory than the workbook writer whose peak memory the examples measure.
    let mut degree: Vec<u8> = board.squares().map(|s| board.degree(s) as u8).collect();
    let mut visited = vec![false; n];
    let mut path = Vec::with_capacity(n);
    let (cr, cc) = (
        f64::from(board.rows() - 1) / 2.0,
        f64::from(board.cols() - 1) / 2.0,
    );
    let dist = |s: Square| {
        let (dr, dc) = (f64::from(s.row) - cr, f64::from(s.col) - cc);
        dr * dr + dc * dc
    };
    let mut cur = start;
    loop {
        visited[board.index(cur) as usize] = true;
        path.push(board.index(cur));
        let mut best: Option<(u8, f64, Square)> = None;
        for nb in board.knight_moves(cur) {
            let i = board.index(nb) as usize;
            degree[i] -= 1;
            if visited[i] {
                continue;
            }
            let key = (degree[i], dist(nb));
            let better = match best {
                None => true,
                Some((d, r, _)) => key.0 < d || (key.0 == d && key.1 > r),
            };
            if better {
                best = Some((key.0, key.1, nb));
            }
        }
        match best {
            Some((_, _, nb)) => cur = nb,
            None => break,
        }
    }
    Tour::from_indices(board, path).expect("Warnsdorff makes knight moves")
}

/// A knight's walk from `start` choosing among unvisited squares with a fixed pseudo-random
/// sequence from `seed`, until it is stuck (every square a knight's move away visited).
pub fn random_walk(board: Board, start: Square, seed: u64) -> Tour {
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut visited = vec![false; board.len()];
    let mut path = vec![board.index(start)];
    visited[board.index(start) as usize] = true;
    let mut cur = start;
    loop {
        let options: Vec<Square> = board
            .knight_moves(cur)
            .filter(|s| !visited[board.index(*s) as usize])
            .collect();
        if options.is_empty() {
            break;
        }
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        cur = options[(state >> 33) as usize % options.len()];
        visited[board.index(cur) as usize] = true;
        path.push(board.index(cur));
    }
    Tour::from_indices(board, path).expect("a walk makes knight moves")
}
