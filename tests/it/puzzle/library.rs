//! Knight's-tour puzzles (issue 18): a puzzle's answer is unique, re-checked here by a second,
//! plain exhaustive count (the backtracking search, not the joint search that proved it), and
//! the answer typed in verifies as a complete tour.

use knights_tour::board::Board;
use knights_tour::puzzle::{clues_for, make, Difficulty, PuzzleError};
use knights_tour::solve::backtrack;
use knights_tour::solve::{rng_from_seed, Budget};

use crate::support::grid_check::{expected_verdict, grid_verdict};

#[test]
fn a_puzzles_answer_is_the_only_one_by_a_plain_count() {
    for (size, clues, seed) in [(6, 12, 1), (6, 10, 2), (8, 24, 3)] {
        let board = Board::new(size, size).unwrap();
        let puzzle = make(
            board,
            clues,
            &mut rng_from_seed(seed),
            &Budget::nodes(200_000_000),
        )
        .unwrap_or_else(|e| panic!("{size}x{size}, {clues} clues: {e}"));
        assert_eq!(puzzle.clues.len(), clues);
        let req = puzzle.request();
        assert!(req.is_satisfied_by(&puzzle.solution));
        let plain = backtrack::enumerate(&req, Some(2), &Budget::nodes(500_000_000), |t| {
            assert!(req.is_satisfied_by(t));
            true
        });
        assert!(
            plain.exhaustive,
            "{size}x{size}: the plain count did not finish"
        );
        assert_eq!(plain.count, 1, "{size}x{size} seed {seed}");
        // The answer, typed in, is a complete tour to the verifier.
        assert_eq!(
            grid_verdict(&puzzle.solution),
            expected_verdict(&puzzle.solution)
        );
    }
}

#[test]
fn the_same_seed_gives_the_same_puzzle() {
    let board = Board::new(6, 6).unwrap();
    let make_one = || {
        make(
            board,
            12,
            &mut rng_from_seed(9),
            &Budget::nodes(100_000_000),
        )
    };
    assert_eq!(make_one(), make_one());
}

#[test]
fn impossible_asks_are_refused_and_limits_are_honest() {
    let board = Board::new(6, 6).unwrap();
    let rng = &mut rng_from_seed(1);
    assert!(matches!(
        make(board, 0, rng, &Budget::nodes(1000)),
        Err(PuzzleError::Clues { .. })
    ));
    assert!(matches!(
        make(board, 37, rng, &Budget::nodes(1000)),
        Err(PuzzleError::Clues { .. })
    ));
    assert!(matches!(
        make(Board::new(4, 4).unwrap(), 5, rng, &Budget::nodes(1000)),
        Err(PuzzleError::NoTour(_))
    ));
    // One clue cannot pin a 6x6 tour down: the limit ends the search, and says so.
    assert_eq!(
        make(board, 1, rng, &Budget::nodes(100_000)),
        Err(PuzzleError::TimeLimit)
    );
}

#[test]
fn difficulty_sets_the_share_of_squares_given() {
    let board = Board::new(8, 8).unwrap();
    let (e, m, h) = (
        clues_for(board, Difficulty::Easy),
        clues_for(board, Difficulty::Medium),
        clues_for(board, Difficulty::Hard),
    );
    assert!(e > m && m > h && h >= 1, "{e} {m} {h}");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(12))]

    /// Puzzles from any seed on small boards: the answer meets the clues, the verifier reads it
    /// as the complete tour it is, and the plain count finds no other.
    #[test]
    fn any_seeds_puzzle_has_one_answer_that_verifies(
        seed in 0u64..1_000_000,
        rows in 5u32..=6,
        cols in 5u32..=6,
        difficulty in proptest::sample::select(vec![Difficulty::Easy, Difficulty::Medium, Difficulty::Hard]),
    ) {
        let board = Board::new(rows, cols).unwrap();
        let clues = clues_for(board, difficulty);
        let Ok(puzzle) = make(board, clues, &mut rng_from_seed(seed), &Budget::nodes(50_000_000)) else {
            return Ok(()); // the node limit: honest, and not what this property is about
        };
        let req = puzzle.request();
        proptest::prop_assert!(req.is_satisfied_by(&puzzle.solution));
        proptest::prop_assert_eq!(grid_verdict(&puzzle.solution), expected_verdict(&puzzle.solution));
        let plain = backtrack::enumerate(&req, Some(2), &Budget::nodes(200_000_000), |_| true);
        proptest::prop_assert!(plain.exhaustive);
        proptest::prop_assert_eq!(plain.count, 1);
    }
}
