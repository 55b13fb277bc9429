//! The joint search's speed on dense "move k on X" requests (puzzles, dozens of constraints),
//! in search nodes a second, and as a ratio to the plain backtracking search's nodes a second on
//! the same board in the same run (each of its nodes costs a few array reads, so the ratio says
//! what the joint search's rules cost a node, whatever the machine).
//!
//! - a 21x37 request with 80 constraints taken from a tour, as in the `requests` example's
//!   80-constraint group: the repair search, a fixed number of nodes;
//! - the uniqueness count of a 10x10 puzzle (up to two completions), as `puzzle` proves it.

use std::hint::black_box;
use std::time::Instant;

use criterion::{criterion_group, Criterion};
use knights_tour::board::Board;
use knights_tour::solve::backtrack;
use knights_tour::solve::construct::open_tour;
use knights_tour::solve::repair::Repair;
use knights_tour::solve::search::Search;
use knights_tour::solve::{joint, rng_from_seed, Budget, Constraint, Request};

/// `count` constraints spread evenly over a constructed open tour of `board`.
fn dense_request(board: Board, count: usize) -> Request {
    let tour = open_tour(board).expect("an open tour of this board");
    let squares: Vec<_> = tour.squares().collect();
    let step = squares.len() / count;
    let constraints = (0..count)
        .map(|i| {
            let k = i * step + (i * 7) % step.max(1);
            Constraint {
                move_number: k as u32 + 1,
                square: squares[k],
            }
        })
        .collect();
    Request {
        constraints,
        ..Request::open(board)
    }
}

/// Nodes a second of `search`, run once: (nodes, seconds).
fn rate(search: impl FnOnce() -> u64) -> (u64, f64) {
    let started = Instant::now();
    let nodes = search();
    (nodes, started.elapsed().as_secs_f64())
}

fn one_off() {
    let board = Board::new(21, 37).expect("a board");
    let req = dense_request(board, 80);
    let (joint_nodes, joint_s) = rate(|| {
        Repair::new(&req)
            .run(&Budget::nodes(200_000), &mut rng_from_seed(1))
            .1
    });
    // The plain search enumerating the 21x37 tours from a1: it never runs out of work.
    let plain = Request {
        start: Some(board.parse_square("a1").expect("a square")),
        ..Request::open(board)
    };
    let (plain_nodes, plain_s) =
        rate(|| backtrack::enumerate(&plain, None, &Budget::nodes(20_000_000), |_| true).nodes);
    let joint_rate = joint_nodes as f64 / joint_s;
    let plain_rate = plain_nodes as f64 / plain_s;
    println!(
        "21x37, 80 constraints: repair search {joint_nodes} nodes in {joint_s:.2} s ({:.0} nodes/s); \
         plain search {plain_nodes} nodes in {plain_s:.2} s ({:.0} nodes/s); a joint node costs {:.1} plain nodes",
        joint_rate,
        plain_rate,
        plain_rate / joint_rate
    );
}

fn bench_joint(c: &mut Criterion) {
    let req = dense_request(Board::new(21, 37).expect("a board"), 80);
    c.bench_function(
        "21x37, 80 constraints: 20,000 nodes of the repair search",
        |b| {
            b.iter(|| {
                black_box(Repair::new(&req).run(&Budget::nodes(20_000), &mut rng_from_seed(1)))
            })
        },
    );
    let puzzle = dense_request(Board::new(10, 10).expect("a board"), 25);
    c.bench_function("10x10, 25 clues: count completions up to two", |b| {
        b.iter(|| {
            black_box(joint::count(
                &puzzle,
                Some(2),
                &Budget::nodes(2_000_000),
                |_| {},
            ))
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench_joint
}

fn main() {
    one_off();
    benches();
    Criterion::default().configure_from_args().final_summary();
}
