//! The one way into the solvers (`solve::runner`): every goal (tours, all, completion) streams
//! its attempts to a sink, random starts are random for every method, `--tours K` finds K
//! distinct tours or proves how many exist, and a search that gives up says so. Every tour is
//! re-checked by the verifier's grid logic.

use std::collections::HashSet;
use std::time::Duration;

use knights_tour::board::{Board, Square};
use knights_tour::solve::runner::{self, numbering, run, run_with};
use knights_tour::solve::{existence, rng_from_seed, Ending, Event, Goal, Method, Plan, Request};
use knights_tour::tour::Tour;
use proptest::prelude::*;

use crate::support::grid_check::{expected_verdict, grid_verdict};

/// The verifier, fed the numbering as a person would type it, agrees the tour is complete
/// (closed when it is).
fn verified(tour: &Tour) -> bool {
    grid_verdict(tour) == expected_verdict(tour)
}

fn board(r: u32, c: u32) -> Board {
    Board::new(r, c).unwrap()
}

fn plan(method: Method, goal: Goal) -> Plan {
    Plan {
        method,
        goal,
        ..Plan::default()
    }
}

/// The start of the first tour of each seed.
fn starts(req: &Request, method: Method, seeds: std::ops::Range<u64>) -> HashSet<Square> {
    seeds
        .map(|seed| {
            let outcome = run(
                req,
                &plan(method, Goal::Tours(1)),
                &mut rng_from_seed(seed),
                &mut |_| {},
            );
            let tour = &outcome.tours().next().expect("a tour").tour;
            assert!(req.is_satisfied_by(tour) && verified(tour), "{method:?}");
            tour.start().unwrap()
        })
        .collect()
}

#[test]
fn a_random_start_is_random_for_every_method() {
    let cases = [
        (board(8, 8), false, Method::Construct),
        (board(8, 8), true, Method::Construct),
        (board(300, 300), false, Method::Construct),
        (board(300, 300), false, Method::Auto),
        (board(9, 11), false, Method::Construct),
        (board(4, 10), false, Method::Construct),
        (board(3, 9), false, Method::Construct),
        (board(6, 6), false, Method::Backtrack),
        (board(6, 6), true, Method::Backtrack),
        (board(5, 5), false, Method::Backtrack),
    ];
    for (b, closed, method) in cases {
        let req = Request {
            closed,
            ..Request::open(b)
        };
        let s = starts(&req, method, 1..7);
        assert!(s.len() >= 3, "{b} closed={closed} {method:?}: starts {s:?}");
    }
}

#[test]
fn the_same_seed_gives_the_same_tour_whether_numbered_in_place_or_not() {
    for (b, method) in [
        (board(1000, 1000), Method::Auto),
        (board(101, 99), Method::Construct),
        (board(4, 500), Method::Construct),
    ] {
        let req = Request::open(b);
        let p = plan(method, Goal::Tours(1));
        let numbers = numbering(&req, &p, &mut rng_from_seed(9)).unwrap();
        let outcome = run(&req, &p, &mut rng_from_seed(9), &mut |_| {});
        assert_eq!(outcome.attempts.len(), 1, "{b}");
        assert_eq!(outcome.attempts[0].tour.numbering(), numbers, "{b}");
    }
    // Warnsdorff first on small boards: no in-place numbering, the caller runs the plan.
    let small = Request::open(board(8, 8));
    assert!(numbering(&small, &Plan::default(), &mut rng_from_seed(1)).is_none());
}

#[test]
fn tours_k_finds_every_tour_when_k_exist_and_says_how_many_otherwise() {
    let req = Request {
        start: Some(Square::new(4, 0)), // a1
        ..Request::open(board(5, 5))
    };
    let mut seen = HashSet::new();
    let report = run_with(
        &req,
        &plan(Method::Auto, Goal::Tours(400)),
        &mut rng_from_seed(3),
        &mut |event| {
            if let Event::Attempt(a) = event {
                if a.solved {
                    assert!(req.is_satisfied_by(&a.tour));
                    assert!(seen.insert(a.tour.indices().to_vec()), "a repeated tour");
                }
            }
            true
        },
    );
    assert_eq!(seen.len(), 304);
    assert_eq!(report.tours, 304);
    assert_eq!(report.ending, Ending::NoMore { count: 304 });
    assert!(
        report.reason().contains("only 304 tours"),
        "{}",
        report.reason()
    );

    // Fewer asked than exist: exactly that many, distinct, also for backtracking alone.
    for method in [Method::Backtrack, Method::Auto] {
        let outcome = run(
            &req,
            &plan(method, Goal::Tours(120)),
            &mut rng_from_seed(4),
            &mut |_| {},
        );
        let tours: HashSet<_> = outcome.tours().map(|a| a.tour.indices().to_vec()).collect();
        assert_eq!(tours.len(), 120, "{method:?}");
        assert!(outcome.report.is_done());
    }
}

#[test]
fn all_streams_and_counts_undirected_closed_tours() {
    // 6x6 has 9,862 undirected closed tours; the sink sees each as it is found and can stop.
    let req = Request {
        closed: true,
        ..Request::open(board(6, 6))
    };
    let mut got = 0;
    let report = run_with(
        &req,
        &plan(Method::Auto, Goal::All { limit: Some(50) }),
        &mut rng_from_seed(1),
        &mut |event| {
            if let Event::Attempt(a) = event {
                assert!(a.tour.is_closed() && verified(&a.tour));
                got += 1;
            }
            true
        },
    );
    assert_eq!((got, report.tours), (50, 50));
    assert_eq!(report.ending, Ending::Limit);
    assert!(report.undirected);

    let mut got = 0;
    let report = run_with(
        &req,
        &plan(Method::Auto, Goal::All { limit: None }),
        &mut rng_from_seed(1),
        &mut |event| {
            got += usize::from(matches!(event, Event::Attempt(_)));
            got < 7
        },
    );
    assert_eq!((got, report.ending), (7, Ending::Stopped));

    // 5x5 from a1: all 304.
    let corner = Request {
        start: Some(Square::new(4, 0)),
        ..Request::open(board(5, 5))
    };
    let all = run(
        &corner,
        &plan(Method::Backtrack, Goal::All { limit: None }),
        &mut rng_from_seed(1),
        &mut |_| {},
    );
    assert_eq!((all.attempts.len(), all.report.is_done()), (304, true));
}

#[test]
fn a_search_that_gives_up_says_so_and_a_proof_is_a_proof() {
    // Every tour of 8x8: stopped by the time limit with what it found.
    let req = Request::open(board(8, 8));
    let p = Plan {
        timeout: Some(Duration::from_millis(300)),
        ..plan(Method::Backtrack, Goal::All { limit: None })
    };
    let outcome = run(&req, &p, &mut rng_from_seed(1), &mut |_| {});
    assert!(matches!(outcome.report.ending, Ending::TimeLimit { .. }));
    assert!(outcome.report.tours > 0);
    assert!(outcome.gave_up().unwrap().contains("time limit"));

    // A search allowed almost nothing: "no tour found within the time limit; one may exist".
    let mut hard = Request::open(board(30, 30));
    hard.start = Some(Square::new(0, 0));
    hard.end = Some(Square::new(29, 28));
    let p = Plan {
        max_nodes: Some(10),
        ..plan(Method::Backtrack, Goal::Tours(1))
    };
    let outcome = run(&hard, &p, &mut rng_from_seed(1), &mut |_| {});
    assert!(matches!(outcome.report.ending, Ending::NodeLimit { .. }));
    assert!(outcome.report.reason().contains("one may exist"));
    // Constraints on a board only the rotation search takes (over a million squares), with a
    // node budget of a node or three: the run ends, saying the node limit came first.
    let big = board(1001, 1001);
    let mut constrained = Request::open(big);
    constrained.constraints = vec![knights_tour::solve::Constraint {
        move_number: 500,
        square: Square::new(500, 500),
    }];
    for max_nodes in [1, 3] {
        let p = Plan {
            max_nodes: Some(max_nodes),
            ..plan(Method::Auto, Goal::Tours(1))
        };
        let outcome = run(&constrained, &p, &mut rng_from_seed(1), &mut |_| {});
        assert!(
            matches!(outcome.report.ending, Ending::NodeLimit { .. }),
            "{:?}",
            outcome.report.ending
        );
    }
    let p = Plan {
        timeout: Some(Duration::ZERO),
        ..plan(Method::Backtrack, Goal::Tours(1))
    };
    let outcome = run(&hard, &p, &mut rng_from_seed(1), &mut |_| {});
    assert_eq!(
        outcome.report.reason(),
        "no tour found within the time limit; one may exist"
    );

    // A request that passes the instant checks but has no tour: the search proves it.
    let b = board(5, 5);
    let impossible = (2..25u32)
        .flat_map(|k| b.squares().map(move |sq| (k, sq)))
        .map(|(move_number, square)| Request {
            start: Some(Square::new(4, 0)),
            constraints: vec![knights_tour::solve::Constraint {
                move_number,
                square,
            }],
            ..Request::open(b)
        })
        .find(|r| {
            existence::check_request(r).is_ok()
                && knights_tour::solve::backtrack::enumerate(
                    r,
                    Some(1),
                    &knights_tour::solve::Budget::unlimited(),
                    |_| true,
                )
                .count
                    == 0
        })
        .expect("some move k on some square of 5x5 is in no tour from a1");
    let outcome = run(
        &impossible,
        &plan(Method::Backtrack, Goal::Tours(1)),
        &mut rng_from_seed(1),
        &mut |_| {},
    );
    assert_eq!(outcome.report.ending, Ending::NoTour);
    assert!(outcome.report.reason().contains("proved"));
}

#[test]
fn completion_goes_through_the_runner() {
    let b = board(6, 6);
    let full = match run(
        &Request::open(b),
        &plan(Method::Backtrack, Goal::Tours(1)),
        &mut rng_from_seed(2),
        &mut |_| {},
    )
    .attempts
    .pop()
    {
        Some(a) => a.tour,
        None => panic!("no 6x6 tour"),
    };
    let prefix = full.truncated(10);
    let outcome = run(
        &Request::open(b),
        &plan(Method::Backtrack, Goal::Complete(prefix.clone())),
        &mut rng_from_seed(0),
        &mut |_| {},
    );
    let done = &outcome.attempts[0].tour;
    assert_eq!(&done.indices()[..10], prefix.indices());
    assert!(verified(done));
}

#[test]
fn methods_that_cannot_do_a_goal_say_why() {
    use knights_tour::solve::search::Declined;
    let req = Request::open(board(5, 5));
    let outcome = run(
        &req,
        &plan(Method::Construct, Goal::All { limit: None }),
        &mut rng_from_seed(1),
        &mut |_| {},
    );
    assert_eq!(
        outcome.report.ending,
        Ending::Declined(Method::Construct, Declined::NotExhaustive)
    );
    // Construction repeats itself on a fixed request: it says so, after the one tour it has.
    let fixed = Request {
        start: Some(Square::new(4, 0)),
        ..req
    };
    let outcome = run(
        &fixed,
        &plan(Method::Construct, Goal::Tours(3)),
        &mut rng_from_seed(1),
        &mut |_| {},
    );
    assert_eq!(outcome.tours_found(), 1);
    assert_eq!(
        outcome.report.ending,
        Ending::Spent {
            method: Method::Construct,
            tours: 1
        }
    );
    assert!(outcome.report.reason().contains("no further distinct tour"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Whatever the board, method and seed, every tour handed over meets the request and
    /// verifies; `auto` always finds one where one exists.
    #[test]
    fn every_tour_handed_over_verifies(
        rows in 5u32..13, cols in 5u32..13, seed in 0u64..1000,
        method in prop_oneof![Just(Method::Auto), Just(Method::Construct), Just(Method::Backtrack), Just(Method::Warnsdorff)],
        closed in any::<bool>(), k in 1u32..4,
    ) {
        let req = Request { closed, ..Request::open(board(rows, cols)) };
        prop_assume!(existence::check_request(&req).is_ok());
        let p = Plan { timeout: Some(Duration::from_secs(20)), ..plan(method, Goal::Tours(k)) };
        let outcome = run(&req, &p, &mut rng_from_seed(seed), &mut |_| {});
        for a in outcome.tours() {
            prop_assert!(req.is_satisfied_by(&a.tour));
            prop_assert!(verified(&a.tour));
        }
        if method == Method::Auto {
            prop_assert_eq!(outcome.tours_found(), k as usize);
        }
    }
}

#[test]
fn default_plan_has_a_time_limit() {
    assert_eq!(Plan::default().timeout, Some(runner::DEFAULT_TIMEOUT));
}

/// A random (start, end) request on `b` that passes the existence rules.
fn ends_request(b: Board, rng: &mut knights_tour::solve::Rng) -> Request {
    use rand::Rng as _;
    loop {
        let pick =
            |rng: &mut knights_tour::solve::Rng| b.square_at(rng.random_range(0..b.len() as u32));
        let req = Request {
            start: Some(pick(rng)),
            end: Some(pick(rng)),
            ..Request::open(b)
        };
        if existence::check_request(&req).is_ok() {
            return req;
        }
    }
}

#[test]
fn construct_builds_tours_between_fixed_ends_on_every_board_at_least_5() {
    // The cases: e4 to a1 on 8x8, and a1 to b5 on 5x400 (once a 10-minute search).
    for (rows, cols, s, e) in [
        (8, 8, "e4", "a1"),
        (5, 400, "a1", "b5"),
        (400, 5, "a1", "e2"),
    ] {
        let b = board(rows, cols);
        let req = Request {
            start: Some(b.parse_square(s).unwrap()),
            end: Some(b.parse_square(e).unwrap()),
            ..Request::open(b)
        };
        let outcome = run(
            &req,
            &plan(Method::Construct, Goal::Tours(1)),
            &mut rng_from_seed(1),
            &mut |_| {},
        );
        let a = outcome
            .tours()
            .next()
            .unwrap_or_else(|| panic!("{b} {s}-{e}"));
        assert_eq!(a.method, Method::Construct);
        assert!(req.is_satisfied_by(&a.tour) && verified(&a.tour), "{b}");
    }
    let mut rng = rng_from_seed(12);
    let mut boards = vec![
        board(5, 5),
        board(6, 7),
        board(9, 9),
        board(13, 21),
        board(40, 33),
    ];
    for (short, long) in [(5, 50), (6, 77), (7, 120), (8, 61), (5, 201)] {
        boards.push(board(short, long));
        boards.push(board(long, short));
    }
    for b in boards {
        for _ in 0..4 {
            let req = ends_request(b, &mut rng);
            match constructed(&req) {
                Some(tour) => assert!(req.is_satisfied_by(&tour) && verified(&tour), "{b}"),
                // Only where no such tour exists (small boards, proved by search).
                None => assert_eq!(
                    run(
                        &req,
                        &plan(Method::Backtrack, Goal::Tours(1)),
                        &mut rng_from_seed(1),
                        &mut |_| {}
                    )
                    .report
                    .ending,
                    Ending::NoTour,
                    "{b} {:?} -> {:?}",
                    req.start,
                    req.end
                ),
            }
        }
    }
    // Closed when the ends are a knight's move apart.
    let b = board(10, 12);
    let req = Request {
        start: Some(Square::new(0, 0)),
        end: Some(Square::new(2, 1)),
        closed: true,
        ..Request::open(b)
    };
    assert!(req.is_satisfied_by(&constructed(&req).unwrap()));
}

/// The construction's tour for `req`, from the start it fixes (no random draw).
fn constructed(req: &Request) -> Option<Tour> {
    knights_tour::solve::construct::build(req, None).map(|s| s.to_tour())
}

#[test]
fn construct_between_fixed_ends_on_a_million_squares() {
    let b = board(1000, 1000);
    let req = ends_request(b, &mut rng_from_seed(3));
    let tour = constructed(&req).expect("a tour");
    assert!(req.is_satisfied_by(&tour));
}

/// A long search shows it is alive: the nodes it spends reach the plan's meter as it goes (the
/// progress line reads them from another thread), never more than the run reports.
#[test]
fn searches_add_their_nodes_to_the_plans_meter() {
    use knights_tour::solve::{Meter, METER_STEP};
    use std::sync::atomic::AtomicU64;
    static NODES: AtomicU64 = AtomicU64::new(0);
    let meter = Meter::new(&NODES);
    let mut req = Request::open(board(6, 6));
    req.start = Some(Square::new(5, 0));
    let p = Plan {
        meter: Some(meter),
        ..plan(Method::Backtrack, Goal::All { limit: Some(5000) })
    };
    let outcome = run(&req, &p, &mut rng_from_seed(1), &mut |_| {});
    assert_eq!(outcome.report.tours, 5000);
    let (metered, spent) = (meter.read(), outcome.report.nodes);
    assert!(spent >= 2 * METER_STEP, "{spent} nodes");
    assert!(metered > 0 && metered <= spent, "{metered} of {spent}");
    assert!(spent - metered < METER_STEP, "{metered} of {spent}");
}

/// Issue 20, finding 8: "only 1 tour meets", not "only 1 tour meet"; no parenthesis inside the
/// message's own parenthesis.
#[test]
fn endings_read_as_english() {
    use knights_tour::solve::runner::Ending;
    assert_eq!(
        Ending::NoMore { count: 1 }.to_string(),
        "only 1 tour meets the request, by exhaustive search"
    );
    assert_eq!(
        Ending::NoMore { count: 304 }.to_string(),
        "only 304 tours meet the request, by exhaustive search"
    );
}
