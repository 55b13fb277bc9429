//! The promise of `--method auto`: on every board up to 16x16 and from every start square, a
//! tour is produced exactly when the existence rules say one exists, and a closed tour on every
//! board where Schwenk's theorem allows one. Every tour is re-checked by the verifier's logic.

use knights_tour::board::Board;
use knights_tour::solve::runner::{self, Plan};
use knights_tour::solve::{existence, rng_from_seed, Request};
use knights_tour::tour::Tour;
use knights_tour::verify::Verdict;

use crate::support::grid_check::{expected_verdict, grid_verdict};

fn plan() -> Plan {
    Plan {
        attempts: 2,
        ..Plan::default()
    }
}

/// The verifier, fed the numbering as a person would type it at A1, agrees it is a complete
/// tour (closed when asked for).
fn assert_verifies(tour: &Tour, closed: bool) {
    let board = tour.board();
    if board.len() == 1 {
        return; // a lone number on a sheet is no board to a verifier
    }
    let (verdict, expected) = (grid_verdict(tour), expected_verdict(tour));
    assert_eq!(verdict, expected, "{board} tour from {:?}", tour.start());
    if closed {
        assert_eq!(verdict, Verdict::Closed);
    }
}

#[test]
fn open_tours_from_every_square_of_every_board_up_to_16x16() {
    let mut rng = rng_from_seed(2026);
    let mut produced = 0usize;
    for rows in 1..=16 {
        for cols in 1..=16 {
            let board = Board::new(rows, cols).unwrap();
            for start in board.squares() {
                let request = Request {
                    start: Some(start),
                    ..Request::open(board)
                };
                let allowed = existence::check_request(&request).is_ok();
                assert_eq!(
                    allowed,
                    existence::open_tour(board).is_ok()
                        && existence::open_tour_from(board, start).is_ok()
                );
                if !allowed {
                    continue;
                }
                let outcome = runner::run(&request, &plan(), &mut rng, &mut |_| {});
                let tour = outcome
                    .tours()
                    .next()
                    .unwrap_or_else(|| panic!("no tour on {board} from {}", board.algebraic(start)))
                    .tour
                    .clone();
                assert!(request.is_satisfied_by(&tour));
                assert_verifies(&tour, false);
                produced += 1;
            }
        }
    }
    assert!(produced > 15_000, "{produced}");
}

#[test]
fn closed_tours_on_every_board_schwenk_allows_up_to_16x16() {
    let mut rng = rng_from_seed(1991);
    for rows in 1..=16 {
        for cols in 1..=16 {
            let board = Board::new(rows, cols).unwrap();
            let request = Request {
                closed: true,
                ..Request::open(board)
            };
            let (m, n) = (rows.min(cols), rows.max(cols));
            let both_odd = m % 2 == 1 && n % 2 == 1;
            let schwenk =
                !(both_odd || [1, 2, 4].contains(&m) || (m == 3 && [4, 6, 8].contains(&n)));
            assert_eq!(existence::closed_tour(board).is_ok(), schwenk, "{board}");
            if !schwenk {
                assert!(existence::check_request(&request).is_err());
                continue;
            }
            let outcome = runner::run(&request, &plan(), &mut rng, &mut |_| {});
            let tour = &outcome.tours().next().expect("closed tour").tour;
            assert!(tour.is_closed(), "{board}");
            assert_verifies(tour, true);
        }
    }
}
