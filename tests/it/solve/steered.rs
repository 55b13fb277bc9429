//! Steered starting paths for the rotation search: complete knight's paths, constraints
//! passed kept at their moves, and many constraints met outright.

use knights_tour::board::{Board, Square};
use knights_tour::solve::steered;
use knights_tour::solve::{rng_from_seed, warnsdorff, Rng, Tiebreak};
use knights_tour::tour::Tour;
use proptest::prelude::*;
use rand::Rng as _;

/// A complete Warnsdorff path of `board` (one exists with Roth's tie-break from a corner on
/// the boards used here).
fn source(board: Board, rng: &mut Rng) -> Vec<u32> {
    for _ in 0..50 {
        let start = Square::new(
            rng.random_range(0..board.rows()),
            rng.random_range(0..board.cols()),
        );
        let tour = warnsdorff::attempt(board, start, Tiebreak::Center, rng);
        if tour.is_complete() {
            return tour.into_indices();
        }
    }
    panic!("no Warnsdorff path on {board}");
}

/// `count` goals (move index from 0, square) read off `path`, in move order.
fn goals_of(path: &[u32], count: usize, rng: &mut Rng) -> Vec<(usize, u32)> {
    let mut moves: Vec<usize> = (0..count)
        .map(|_| rng.random_range(0..path.len()))
        .collect();
    moves.sort_unstable();
    moves.dedup();
    moves.into_iter().map(|i| (i, path[i])).collect()
}

fn is_complete_knights_path(board: Board, path: &[u32]) -> bool {
    let tour = Tour::from_indices_unchecked(board, path.to_vec());
    tour.check().is_ok() && tour.is_complete()
}

fn met(path: &[u32], goals: &[(usize, u32)]) -> usize {
    goals.iter().filter(|&&(i, s)| path[i] == s).count()
}

/// On a board where a plain Warnsdorff path meets almost none of 20 constraints read off
/// another Warnsdorff path, the steered walks meet most of them. Walked from the other end
/// (the source path's scattered last squares first) fewer walks complete and fewer
/// constraints are met (1 of 8 and 5 of 20 here), but every walk is still a complete path.
#[test]
fn steered_walks_meet_many_constraints() {
    let board = Board::new(40, 40).unwrap();
    let mut rng = rng_from_seed(11);
    let path = source(board, &mut rng);
    let goals = goals_of(&path, 20, &mut rng);
    let n = board.len();
    let backwards: Vec<(usize, u32)> = goals.iter().rev().map(|&(i, s)| (n - 1 - i, s)).collect();
    for (reversed, goals) in [(false, &goals), (true, &backwards)] {
        let mut best = 0;
        let mut complete = 0;
        for _ in 0..8 {
            let (walk, work) = steered::walk(board, goals, None, &mut rng);
            assert!(work >= n as u64 || walk.is_none());
            if let Some(walk) = walk {
                assert!(is_complete_knights_path(board, &walk));
                complete += 1;
                best = best.max(met(&walk, goals));
            }
        }
        eprintln!(
            "reversed {reversed}: {complete} complete, best met {best} of {}",
            goals.len()
        );
        if !reversed {
            assert!(complete >= 2, "{complete} of 8 walks complete");
            assert!(best >= 12, "at most {best} of 20 constraints met");
        }
    }
    let mut plain = 0;
    for _ in 0..8 {
        plain = plain.max(met(&source(board, &mut rng), &goals));
    }
    assert!(plain <= 2, "plain Warnsdorff paths met {plain} of 20");
}

/// A walk stops at its deadline: on 300x300 it would otherwise walk 90,000 squares.
#[test]
fn a_walk_stops_at_its_deadline() {
    let board = Board::new(300, 300).unwrap();
    let goals = [(0, 0), (89_999, board.len() as u32 - 1)];
    let past = std::time::Instant::now();
    let (walk, work) = steered::walk(board, &goals, Some(past), &mut rng_from_seed(1));
    assert!(walk.is_none());
    // The first square, then at most one stretch of steps between looks at the clock.
    assert!(work <= 1 + 4096, "{work} squares walked after the deadline");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Every walk returned is a complete knight's path that starts on move 1's square when
    /// move 1 is fixed, on boards from 5x5 to 24x24 with constraints read off a real path.
    #[test]
    fn walks_are_complete_knights_paths(rows in 5u32..25, cols in 5u32..25, count in 1usize..12, seed in 0u64..1000, first in any::<bool>()) {
        let board = Board::new(rows, cols).unwrap();
        let mut rng = rng_from_seed(seed);
        let path = source(board, &mut rng);
        let mut goals = goals_of(&path, count, &mut rng);
        if first && goals[0].0 != 0 {
            goals.insert(0, (0, path[0]));
        }
        for _ in 0..3 {
            if let (Some(walk), _) = steered::walk(board, &goals, None, &mut rng) {
                prop_assert!(is_complete_knights_path(board, &walk));
                if first {
                    prop_assert_eq!(walk[0], path[0]);
                }
            }
        }
    }
}
