//! Requests with "move k on X" constraints sampled from a real tour, so a tour meeting them
//! exists (`solve::joint`, `solve::segments`), as the `requests` example makes them.

use knights_tour::board::Board;
use knights_tour::solve::runner::run;
use knights_tour::solve::{rng_from_seed, Constraint, Plan, Request};
use knights_tour::tour::Tour;
use rand::Rng as _;

/// A tour the runner finds on `board`.
pub fn source_tour(board: Board, seed: u64) -> Tour {
    let source = run(
        &Request::open(board),
        &Plan::default(),
        &mut rng_from_seed(seed),
        &mut |_| {},
    );
    let tour = source.tours().next().expect("a source tour").tour.clone();
    tour
}

/// `count` constraints (distinct move numbers) sampled from [`source_tour`].
pub fn sampled(board: Board, count: usize, seed: u64) -> Request {
    let tour = source_tour(board, seed);
    let n = board.len() as u32;
    let mut rng = rng_from_seed(seed ^ 0x5eed);
    let mut constraints: Vec<Constraint> = Vec::new();
    while constraints.len() < count.min(n as usize) {
        let k = rng.random_range(1..=n);
        if constraints.iter().all(|c| c.move_number != k) {
            constraints.push(Constraint {
                move_number: k,
                square: board.square_at(tour.indices()[k as usize - 1]),
            });
        }
    }
    Request {
        constraints,
        ..Request::open(board)
    }
}
