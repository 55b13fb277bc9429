//! Every search through its one interface (`solve::search`): built from a request or declining
//! it, stepped under a budget and a seed, exhaustive or not, its tours naming it; the portfolio
//! (`--method auto`) naming the search that found each tour, which run alone with the same seed
//! answers too; and `generate --method X` reporting X in every output. Every tour is re-checked
//! against its request.

use predicates::prelude::*;
use serde_json::Value;

use knights_tour::board::Board;
use knights_tour::solve::runner::run;
use knights_tour::solve::search::{self, Answer, Declined, Search};
use knights_tour::solve::{rng_from_seed, Budget, Constraint, Method, Plan, Request};

use crate::support::sampled::sampled;
use crate::support::workdir::WorkDir;

/// `method` alone on `req` through the interface, stepped until it answers or `nodes` are
/// spent: the answer, after checking that a tour meets the request and names `method`.
fn alone(method: Method, req: &Request, nodes: u64, seed: u64) -> Answer {
    let mut search = search::build(method, req, &Plan::default()).expect("it takes the request");
    assert_eq!(search.method(), method);
    let (answer, _) = search.run(&Budget::nodes(nodes), &mut rng_from_seed(seed));
    if let Answer::Found { tour, by } = &answer {
        assert!(req.is_satisfied_by(tour), "{method:?}");
        assert_eq!(*by, method);
    }
    answer
}

fn board(rows: u32, cols: u32) -> Board {
    Board::new(rows, cols).unwrap()
}

#[test]
fn warnsdorff_attempts_show_their_misses_and_are_spent_after_their_number() {
    let req = Request::open(board(8, 8));
    let mut attempts = search::build(
        Method::Warnsdorff,
        &req,
        &Plan {
            attempts: 3,
            ..Plan::default()
        },
    )
    .unwrap();
    assert!(!attempts.exhaustive());
    let mut rng = rng_from_seed(1);
    let mut seen = 0;
    loop {
        match attempts.step(&Budget::unlimited(), &mut rng).0 {
            Answer::Found { tour, by } => {
                assert!(req.is_satisfied_by(&tour) && by == Method::Warnsdorff);
                break;
            }
            Answer::Missed { path, by } => {
                assert!(!req.is_satisfied_by(&path) && by == Method::Warnsdorff);
                seen += 1;
            }
            Answer::Spent => {
                assert_eq!(seen, 3);
                break;
            }
            other => panic!("{other:?}"),
        }
    }
    // A tour it cannot reach by luck: its attempts miss, then it is spent.
    let b = board(5, 5);
    let far = Request {
        constraints: vec![Constraint {
            move_number: 25,
            square: b.parse_square("a1").unwrap(),
        }],
        start: b.parse_square("e5").ok(),
        ..Request::open(b)
    };
    let mut once = knights_tour::solve::warnsdorff::Attempts::new(
        &far,
        knights_tour::solve::Tiebreak::Center,
        1,
    );
    let mut rng = rng_from_seed(1);
    assert!(matches!(
        once.step(&Budget::unlimited(), &mut rng).0,
        Answer::Missed { .. } | Answer::Found { .. }
    ));
    assert_eq!(once.step(&Budget::unlimited(), &mut rng).0, Answer::Spent);
}

#[test]
fn the_construction_builds_any_board_and_declines_constraints() {
    let req = Request::open(board(301, 300));
    assert!(matches!(
        alone(Method::Construct, &req, 1, 1),
        Answer::Found { .. }
    ));
    let constrained = sampled(board(8, 8), 3, 1);
    assert_eq!(
        search::declines(Method::Construct, &constrained),
        Some(Declined::Constraints)
    );
    assert!(search::build(Method::Construct, &constrained, &Plan::default()).is_err());
}

#[test]
fn the_backtracking_search_finds_or_proves() {
    let b = board(5, 5);
    let req = Request {
        start: b.parse_square("a1").ok(),
        ..Request::open(b)
    };
    assert!(matches!(
        alone(Method::Backtrack, &req, 1_000_000, 1),
        Answer::Found { .. }
    ));
    // 5x5 from b1: the corners' colour only starts a tour; b1 is the other colour, refused
    // by the theorems, so ask instead for move 2 on a square a knight cannot reach from a1.
    let impossible = Request {
        constraints: vec![Constraint {
            move_number: 2,
            square: b.parse_square("c3").unwrap(),
        }],
        ..req
    };
    let search = search::build(Method::Backtrack, &impossible, &Plan::default()).unwrap();
    assert!(search.exhaustive());
    assert_eq!(
        alone(Method::Backtrack, &impossible, 1_000_000, 1),
        Answer::NoTour
    );
    let huge = Request::open(board(2001, 2000));
    assert!(matches!(
        search::declines(Method::Backtrack, &huge),
        Some(Declined::TooLarge { .. })
    ));
}

#[test]
fn the_segment_search_meets_sampled_constraints() {
    let req = sampled(board(30, 30), 12, 2);
    let search = search::build(Method::Segments, &req, &Plan::default()).unwrap();
    assert!(!search.exhaustive());
    assert!(matches!(
        alone(Method::Segments, &req, 50_000_000, 3),
        Answer::Found { .. }
    ));
    assert_eq!(
        search::declines(Method::Segments, &Request::open(board(8, 8))),
        Some(Declined::NothingFixed)
    );
}

/// A request no attempt can start on (moves 1 and 400 on squares of one colour) is given up
/// at once, not retried until the budget is spent.
#[test]
fn the_segment_search_is_spent_on_a_request_it_cannot_start() {
    let b = board(20, 20);
    let at = |k, name| Constraint {
        move_number: k,
        square: b.parse_square(name).unwrap(),
    };
    let req = Request {
        constraints: vec![at(1, "a1"), at(400, "t20")],
        ..Request::open(b)
    };
    assert_eq!(alone(Method::Segments, &req, 10_000, 1), Answer::Spent);
}

#[test]
fn the_joint_search_meets_dense_constraints_and_proves_impossible_ones() {
    let b = board(12, 12);
    let req = sampled(b, 36, 4);
    let search = search::build(Method::Joint, &req, &Plan::default()).unwrap();
    assert!(search.exhaustive() && search.copies() == 2);
    assert!(matches!(
        alone(Method::Joint, &req, 50_000_000, 5),
        Answer::Found { .. }
    ));
    // Moves 1 and 4 three moves apart, but four knight's moves away.
    let six = board(6, 6);
    let impossible = Request {
        constraints: vec![
            Constraint {
                move_number: 1,
                square: six.parse_square("a1").unwrap(),
            },
            Constraint {
                move_number: 4,
                square: six.parse_square("f6").unwrap(),
            },
        ],
        ..Request::open(six)
    };
    assert_eq!(
        alone(Method::Joint, &impossible, 1_000_000, 1),
        Answer::NoTour
    );
    let closed = Request {
        closed: true,
        ..req.clone()
    };
    assert_eq!(
        search::declines(Method::Joint, &closed),
        Some(Declined::Closed)
    );
}

#[test]
fn the_rotation_search_meets_long_pieces() {
    let req = sampled(board(50, 50), 8, 6);
    let search = search::build(Method::Rotations, &req, &Plan::default()).unwrap();
    assert!(!search.exhaustive());
    assert!(matches!(
        alone(Method::Rotations, &req, 4_000_000_000, 7),
        Answer::Found { .. }
    ));
}

#[test]
fn the_hand_method_builds_a_closed_tour_with_its_steps() {
    let req = Request::open(board(8, 8));
    let mut hand = search::build(Method::Hand, &req, &Plan::default()).unwrap();
    let (answer, _) = hand.run(&Budget::unlimited(), &mut rng_from_seed(1));
    let Answer::Built(built) = answer else {
        panic!("{answer:?}")
    };
    assert!(built.tour.is_closed() && !built.insertions.is_empty());
}

/// The portfolio names the search that found each tour, and that search, run alone with the
/// same seed, answers too: on dense, middling (pieces of about 100 moves, where the joint and
/// rotation searches share each round) and sparse constraints, where the portfolio's answers
/// come from different searches.
#[test]
fn the_search_a_tour_names_answers_alone_with_the_same_seed() {
    let mut named = std::collections::HashSet::new();
    for (rows, cols, count, seed) in [
        (12, 12, 30, 1),
        (20, 20, 12, 2),
        (30, 40, 6, 3),
        (40, 40, 4, 4),
        (40, 40, 15, 4),
    ] {
        let req = sampled(board(rows, cols), count, seed);
        let plan = |method| Plan {
            method,
            timeout: None,
            max_nodes: Some(2_000_000_000),
            ..Plan::default()
        };
        let auto = run(
            &req,
            &plan(Method::Auto),
            &mut rng_from_seed(9),
            &mut |_| {},
        );
        let found = auto.tours().next().expect("the portfolio answers");
        assert!(req.is_satisfied_by(&found.tour));
        assert_ne!(found.method, Method::Auto);
        named.insert(found.method);
        let alone = run(
            &req,
            &plan(found.method),
            &mut rng_from_seed(9),
            &mut |_| {},
        );
        let again = alone
            .tours()
            .next()
            .expect("the search named answers alone");
        assert!(req.is_satisfied_by(&again.tour));
        assert_eq!(again.method, found.method);
    }
    assert!(named.len() >= 2, "{named:?}");
}

/// `generate --method X --json` names X as the method and on every tour, for every search;
/// `--method auto` names the search on each sheet.
#[test]
fn generate_reports_the_method_that_found_each_tour() {
    let w = WorkDir::new();
    let constraints = "1 a1\n200 j9\n";
    std::fs::write(w.path("c.txt"), constraints).unwrap();
    for (method, args) in [
        ("warnsdorff", &["--size", "8"][..]),
        ("construct", &["--size", "40"]),
        ("backtrack", &["--size", "6"]),
        ("hand", &["--size", "8"]),
        ("segments", &["--size", "20", "--constraints", "c.txt"]),
        ("joint", &["--size", "20", "--constraints", "c.txt"]),
        ("rotations", &["--size", "20", "--constraints", "c.txt"]),
    ] {
        let out = format!("{method}.json");
        let mut all = vec!["--method", method, "--seed", "1", "--json", "-o", &out];
        all.extend(args);
        let stdout = w
            .generate(&all)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let v: Value = serde_json::from_slice(&stdout).unwrap();
        assert_eq!(v["method"], method, "{method}");
        let sheets = v["sheets"].as_array().unwrap();
        assert!(sheets.iter().any(|s| s["solved"] == true), "{method}");
        for sheet in sheets.iter().filter(|s| s["solved"] == true) {
            assert_eq!(sheet["method"], method, "{method}");
        }
    }
    // The portfolio: the summary says auto, each tour the search that found it, and so does
    // the message.
    let stdout = w
        .generate(&[
            "--size",
            "20",
            "--constraints",
            "c.txt",
            "--seed",
            "1",
            "--json",
            "-o",
            "auto.json",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: Value = serde_json::from_slice(&stdout).unwrap();
    assert_eq!(v["method"], "auto");
    let sheet = v["sheets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["solved"] == true)
        .unwrap();
    let by = sheet["method"].as_str().unwrap();
    assert!(["joint", "rotations", "segments", "backtrack", "warnsdorff"].contains(&by));
    assert!(v["message"].as_str().unwrap().contains("found by"), "{v}");
}

/// A method that does not take the request is a usage error saying why, and naming one that
/// does.
#[test]
fn a_method_that_cannot_take_the_request_says_why() {
    let w = WorkDir::new();
    std::fs::write(w.path("c.txt"), "1 a1\n").unwrap();
    for (args, why) in [
        (
            &["--method", "rotations", "--closed", "--size", "8"][..],
            "open tours only",
        ),
        (&["--method", "joint", "--size", "8"], "fixed squares"),
        (
            &["--method", "construct", "--constraints", "c.txt"],
            "\"move k on X\"",
        ),
    ] {
        let mut all = args.to_vec();
        all.extend(["-o", "x.csv"]);
        w.generate(&all)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("does not take this request"))
            .stderr(predicate::str::contains(why))
            .stderr(predicate::str::contains("--method auto takes it"));
    }
    assert_eq!(w.files(), ["c.txt"]);
}
