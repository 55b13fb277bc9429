//! Warnsdorff's rule (`solve::warnsdorff`): every attempt is a knight's path that obeys the
//! rule and its tie-break and stops only where the knight is stuck; ties are reproducible from
//! the seed, Roth's ties ignore it; reused buffers give the paths fresh ones give.

use knights_tour::board::{Board, Square};
use knights_tour::solve::warnsdorff::{attempt, Warnsdorff};
use knights_tour::solve::{rng_from_seed, Tiebreak};
use knights_tour::tour::Tour;
use proptest::prelude::*;

fn board(r: u32, c: u32) -> Board {
    Board::new(r, c).unwrap()
}

/// Unvisited neighbours of `sq` given the visited set, counted the slow way.
fn onward(b: Board, sq: Square, visited: &[bool]) -> Vec<Square> {
    b.knight_moves(sq)
        .filter(|n| !visited[b.index(*n) as usize])
        .collect()
}

/// Replays `tour` and checks each move obeys Warnsdorff's rule and the tie-break, and that
/// the attempt stopped only where the knight was stuck.
fn obeys_rule(tour: &Tour, tiebreak: Tiebreak) -> Result<(), String> {
    let b = tour.board();
    let mut visited = vec![false; b.len()];
    let squares: Vec<Square> = tour.squares().collect();
    for (i, &sq) in squares.iter().enumerate() {
        visited[b.index(sq) as usize] = true;
        let cands = onward(b, sq, &visited);
        let Some(&next) = squares.get(i + 1) else {
            return match cands.is_empty() {
                true => Ok(()),
                false => Err(format!("stopped at move {} with moves left", i + 1)),
            };
        };
        let count = |s: Square| onward(b, s, &visited).len();
        let least = cands.iter().map(|&s| count(s)).min().unwrap();
        if count(next) != least {
            return Err(format!(
                "move {} is not to a least-constrained square",
                i + 2
            ));
        }
        let tied: Vec<Square> = cands.into_iter().filter(|&s| count(s) == least).collect();
        let centre = |s: Square| {
            let r = 2 * i64::from(s.row) - i64::from(b.rows()) + 1;
            let c = 2 * i64::from(s.col) - i64::from(b.cols()) + 1;
            r * r + c * c
        };
        let pohl = |s: Square| -> usize { onward(b, s, &visited).iter().map(|&t| count(t)).sum() };
        let ok = match tiebreak {
            Tiebreak::Random => true,
            // `tied` is in KNIGHT_MOVES order; the first of the farthest wins.
            Tiebreak::Center => {
                let far = tied.iter().map(|&s| centre(s)).max().unwrap();
                tied.iter().find(|&&s| centre(s) == far) == Some(&next)
            }
            Tiebreak::Pohl => pohl(next) == tied.iter().map(|&s| pohl(s)).min().unwrap(),
        };
        if !ok {
            return Err(format!(
                "move {} breaks the {tiebreak:?} tie wrongly",
                i + 2
            ));
        }
    }
    Ok(())
}

const ALL: [Tiebreak; 3] = [Tiebreak::Random, Tiebreak::Center, Tiebreak::Pohl];

#[test]
fn center_ties_ignore_the_generator() {
    let b = board(12, 9);
    let mut w = Warnsdorff::new(b);
    for sq in [Square::new(0, 0), Square::new(5, 4), Square::new(11, 3)] {
        let a = w.attempt(sq, Tiebreak::Center, &mut rng_from_seed(1));
        let c = w.attempt(sq, Tiebreak::Center, &mut rng_from_seed(99));
        assert_eq!(a, c);
        obeys_rule(&a, Tiebreak::Center).unwrap();
    }
}

#[test]
fn random_ties_are_reproducible_and_vary_with_the_seed() {
    let b = board(30, 30);
    let mut w = Warnsdorff::new(b);
    for tb in [Tiebreak::Random, Tiebreak::Pohl] {
        let run =
            |w: &mut Warnsdorff, seed| w.attempt(Square::new(0, 0), tb, &mut rng_from_seed(seed));
        assert_eq!(run(&mut w, 5), run(&mut w, 5));
        let distinct: std::collections::HashSet<Vec<u32>> =
            (0..5).map(|s| run(&mut w, s).into_indices()).collect();
        assert!(distinct.len() > 1, "{tb:?}: five seeds gave one path");
    }
}

#[test]
fn center_ties_tour_8x8_from_every_square() {
    let b = board(8, 8);
    let mut w = Warnsdorff::new(b);
    let mut rng = rng_from_seed(0);
    let failed: Vec<String> = b
        .squares()
        .filter(|&sq| !w.attempt(sq, Tiebreak::Center, &mut rng).is_complete())
        .map(|sq| b.algebraic(sq))
        .collect();
    assert!(failed.is_empty(), "stuck from {failed:?}");
}

#[test]
fn the_empty_corners_of_tiny_boards() {
    let mut rng = rng_from_seed(0);
    let one = attempt(board(1, 1), Square::new(0, 0), Tiebreak::Random, &mut rng);
    assert!(one.is_complete());
    let stuck = attempt(board(3, 3), Square::new(1, 1), Tiebreak::Random, &mut rng);
    assert_eq!(stuck.len(), 1);
    let off = attempt(board(3, 3), Square::new(3, 0), Tiebreak::Random, &mut rng);
    assert!(off.is_empty());
}

#[test]
fn reused_buffers_give_the_same_paths_as_fresh_ones() {
    let b = board(20, 17);
    let mut w = Warnsdorff::new(b);
    for tb in ALL {
        for seed in 0..3 {
            let sq = Square::new(seed as u32 * 5, 3);
            let reused = w.attempt(sq, tb, &mut rng_from_seed(seed));
            let fresh = attempt(b, sq, tb, &mut rng_from_seed(seed));
            assert_eq!(reused, fresh);
        }
    }
}

proptest! {
    #[test]
    fn attempts_are_valid_paths_that_obey_the_rule(
        rows in 1u32..=12, cols in 1u32..=12, pick in any::<u32>(),
        t in 0usize..3, seed in any::<u64>(),
    ) {
        let b = board(rows, cols);
        let start = b.square_at(pick % b.len() as u32);
        let tour = attempt(b, start, ALL[t], &mut rng_from_seed(seed));
        prop_assert_eq!(tour.check(), Ok(()));
        prop_assert_eq!(tour.start(), Some(start));
        if tour.is_complete() {
            let req = knights_tour::solve::Request {
                start: Some(start),
                ..knights_tour::solve::Request::open(b)
            };
            prop_assert!(req.is_satisfied_by(&tour));
        }
        if let Err(e) = obeys_rule(&tour, ALL[t]) {
            prop_assert!(false, "{} from {}: {}", b, b.algebraic(start), e);
        }
    }
}
