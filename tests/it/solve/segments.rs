//! "Move k on X" constraints (issues 12 and 18): the segment search (`solve::segments`), the
//! rotation search (`solve::rotations`) and the runner's dispatch to them. Constraints are sampled from a real tour, as the `requests` example
//! does, so a tour meeting them exists; every tour produced is re-checked against the request.
//! No timing here: the speed figures come from `examples/requests.rs`.

use knights_tour::board::Board;
use knights_tour::solve::rotations::Rotations;
use knights_tour::solve::runner::run;
use knights_tour::solve::search::{self, Answer, Search};
use knights_tour::solve::{
    existence, rng_from_seed, Budget, Constraint, Ending, Method, Plan, Request,
};
use proptest::prelude::*;

use crate::support::grid_check::{expected_verdict, grid_verdict};
use crate::support::sampled::{sampled, source_tour};

/// Far more search nodes than any request here needs (a few 10^5 at most, measured), so a
/// regression fails instead of hanging.
const BOUND: Budget = Budget {
    max_nodes: Some(50_000_000),
    deadline: None,
    meter: None,
};

/// `method`'s search alone on `req`, through the interface, ties broken by `seed`.
fn alone(method: Method, req: &Request, budget: &Budget, seed: u64) -> (Answer, u64) {
    let mut search = search::build(method, req, &Plan::default()).expect("it takes the request");
    search.run(budget, &mut rng_from_seed(seed))
}

#[test]
fn twelve_sampled_constraints_on_large_boards_are_met_by_the_segment_search() {
    for (rows, cols, seed) in [(30, 30, 1), (41, 57, 2), (80, 80, 3)] {
        let req = sampled(Board::new(rows, cols).unwrap(), 12, seed);
        let (answer, nodes) = alone(Method::Segments, &req, &BOUND, seed);
        match answer {
            Answer::Found { tour, by } => {
                assert!(req.is_satisfied_by(&tour), "{rows}x{cols}");
                assert_eq!(by, Method::Segments);
            }
            other => panic!("{rows}x{cols}: {other:?} after {nodes} nodes"),
        }
    }
}

#[test]
fn the_runner_answers_sampled_constraints_with_a_tour_that_meets_them() {
    for (rows, cols, seed) in [(33, 47, 4), (60, 35, 5)] {
        let req = sampled(Board::new(rows, cols).unwrap(), 12, seed);
        let outcome = run(
            &req,
            &Plan::default(),
            &mut rng_from_seed(seed),
            &mut |_| {},
        );
        assert!(
            outcome.report.is_done(),
            "{rows}x{cols}: {:?}",
            outcome.report
        );
        let tour = &outcome.tours().next().expect("a tour").tour;
        assert!(req.is_satisfied_by(tour), "{rows}x{cols}");
    }
}

#[test]
fn the_same_seed_gives_the_same_constrained_tour() {
    let req = sampled(Board::new(40, 40).unwrap(), 12, 6);
    let tour = |seed| match alone(Method::Segments, &req, &BOUND, seed) {
        (Answer::Found { tour, .. }, _) => tour,
        other => panic!("{other:?}"),
    };
    assert_eq!(tour(7), tour(7));
}

#[test]
fn a_fixed_start_and_end_are_kept_with_the_constraints() {
    let board = Board::new(36, 36).unwrap();
    let mut req = sampled(board, 12, 8);
    let n = board.len() as u32;
    req.constraints
        .retain(|c| c.move_number != 1 && c.move_number != n);
    let source = source_tour(board, 8);
    req.start = source.start();
    req.end = source.end();
    let outcome = run(&req, &Plan::default(), &mut rng_from_seed(9), &mut |_| {});
    let tour = &outcome.tours().next().expect("a tour").tour;
    assert!(req.is_satisfied_by(tour));
}

#[test]
fn constraints_no_tour_can_meet_are_proved_impossible_by_the_runner() {
    // Move 1 on a1 and move 3 on f6: more than two knight's moves apart.
    let req = constrained(Board::new(6, 6).unwrap(), &[(1, "a1"), (3, "f6")]);
    let outcome = run(&req, &Plan::default(), &mut rng_from_seed(1), &mut |_| {});
    assert_eq!(outcome.tours_found(), 0);
    assert_eq!(outcome.report.ending, Ending::NoTour);
}

#[test]
fn the_segment_search_gives_up_within_its_budget() {
    let req = sampled(Board::new(50, 50).unwrap(), 12, 10);
    let (answer, nodes) = alone(Method::Segments, &req, &Budget::nodes(1000), 1);
    assert_eq!(answer, Answer::Unfinished);
    assert!(nodes <= 1000, "{nodes}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// On small boards, whatever the segment search or the runner produces meets every
    /// constraint (and the start and end when they are fixed too).
    #[test]
    fn every_constrained_tour_produced_meets_its_request(
        rows in 5u32..9,
        cols in 5u32..9,
        count in 1usize..6,
        seed in 0u64..1000,
        closed in any::<bool>(),
    ) {
        let board = Board::new(rows, cols).unwrap();
        let mut req = sampled(board, count, seed);
        req.closed = closed;
        prop_assume!(existence::check_request(&req).is_ok());
        if let (Answer::Found { tour, .. }, _) =
            alone(Method::Segments, &req, &Budget::nodes(200_000), seed)
        {
            prop_assert!(req.is_satisfied_by(&tour));
        }
        // Both ways: from move 1, and turned (from the last move, the path reversed after).
        for turned in [false, true].into_iter().filter(|_| !req.closed) {
            let budget = Budget::nodes(2_000_000);
            if let (Answer::Found { tour, .. }, _) =
                Rotations::new(&req, turned).run(&budget, &mut rng_from_seed(seed))
            {
                prop_assert!(req.is_satisfied_by(&tour) && tour.check().is_ok());
            }
        }
        let plan = Plan { method: Method::Auto, max_nodes: Some(1_000_000), ..Plan::default() };
        let outcome = run(&req, &plan, &mut rng_from_seed(seed), &mut |_| {});
        for attempt in outcome.tours() {
            prop_assert!(req.is_satisfied_by(&attempt.tour));
        }
    }
}

proptest! {
    // A fixed seed: the search is not exhaustive, so every run (CI's included) checks the same
    // requests; `PROPTEST_RNG_SEED=N` draws others.
    #![proptest_config(ProptestConfig {
        cases: 12,
        rng_seed: std::env::var("PROPTEST_RNG_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .map_or(proptest::test_runner::RngSeed::Fixed(18), proptest::test_runner::RngSeed::Fixed),
        ..ProptestConfig::default()
    })]

    /// On boards of a thousand squares and more, with pieces averaging 64 moves or more (where the runner uses it), the
    /// rotation search meets constraints sampled from a real tour, and its tour is a knight's
    /// tour meeting them.
    #[test]
    fn the_rotation_search_meets_long_pieces_on_big_boards(
        rows in 32u32..60,
        cols in 32u32..60,
        count in 2usize..16,
        seed in 0u64..1000,
    ) {
        let board = Board::new(rows, cols).unwrap();
        let req = sampled(board, count, seed);
        // Half the requests start the other way round (from the last move).
        let budget = Budget::nodes(4_000_000_000);
        let turned = seed % 2 == 1;
        let (answer, work) =
            Rotations::new(&req, turned).run(&budget, &mut rng_from_seed(seed + 1));
        match answer {
            Answer::Found { tour, .. } => {
                prop_assert!(req.is_satisfied_by(&tour) && tour.is_complete());
                // The verifier, reading the tour as a grid, calls it the tour it is.
                prop_assert_eq!(grid_verdict(&tour), expected_verdict(&tour));
            }
            other => prop_assert!(false, "{rows}x{cols}, {count}: {other:?} after {work}"),
        }
    }
}

/// A request for the constraints `pairs` (move number, square name) on `board`.
fn constrained(board: Board, pairs: &[(u32, &str)]) -> Request {
    Request {
        constraints: pairs
            .iter()
            .map(|&(move_number, name)| Constraint {
                move_number,
                square: board.parse_square(name).unwrap(),
            })
            .collect(),
        ..Request::open(board)
    }
}

/// Fails unless the segment search, ties broken by `seed`, meets `req` within `nodes`.
fn assert_met_within(req: &Request, nodes: u64, seed: u64) {
    let (answer, used) = alone(Method::Segments, req, &Budget::nodes(nodes), seed);
    match answer {
        Answer::Found { tour, .. } => assert!(req.is_satisfied_by(&tour)),
        other => panic!("{other:?} after {used} nodes"),
    }
}

/// A request on a long narrow board that the segment search did not meet in 10 s growing from
/// move 1 (the `requests` example, seed 4): its hard segments are the last ones, and growing it
/// from its end (move k as move n + 1 - k) meets it.
#[test]
fn a_request_hard_from_its_start_is_met_growing_from_its_end() {
    let req = constrained(
        Board::new(44, 5).unwrap(),
        &[
            (3, "b31"),
            (39, "b17"),
            (42, "d14"),
            (70, "c9"),
            (84, "e1"),
            (101, "c10"),
            (112, "d4"),
            (131, "c22"),
            (140, "c21"),
            (186, "c41"),
            (195, "c42"),
            (196, "a41"),
        ],
    );
    // Growing forward only, 3,000,000 nodes were not enough (seed 1 needed about 35 s). Growing
    // both ways, as now, seeds 1-10 needed 0.5 to 10.9 million nodes (measured; the search is
    // random and its tail is long): seed 1, 523,000.
    assert_met_within(&req, 3_000_000, 1);
}

/// A request whose last move is fixed, on a board wide enough that segments need room later on
/// (the `requests` example, seed 3): grown from its fixed end only, as the search did before,
/// it was met in 2 of 16 tries of 10 s by the CLI; grown from move 1 towards that end, in
/// well under a second.
#[test]
fn a_request_with_a_fixed_end_is_met_growing_towards_that_end() {
    let req = constrained(
        Board::new(62, 26).unwrap(),
        &[
            (173, "z56"),
            (247, "s39"),
            (289, "f60"),
            (350, "u2"),
            (545, "s53"),
            (777, "b42"),
            (872, "j43"),
            (933, "c29"),
            (1016, "a22"),
            (1474, "e20"),
            (1583, "g11"),
            (1612, "e4"),
        ],
    );
    // Growing both ways met it within 7,000 to 335,000 nodes (seeds 1-6, measured); growing
    // from the end only, 3,000,000 were not enough (seeds 1-3).
    assert_met_within(&req, 3_000_000, 1);
}
