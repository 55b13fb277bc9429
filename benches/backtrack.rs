//! Backtracking speed targets.
//!
//! - all 2,048 ordered (start, end) pairs of opposite colours on 8x8 solved as open tours, total
//!   time under 10 s single-threaded (printed once as a one-off full run before the criterion
//!   groups; criterion times a representative subset);
//! - closed 12x12 tours from squares of the first row (nodes printed);
//! - 5x5 and 6x6 enumeration counts;
//! - harder one-off workloads (impossibility proofs, thin and big boards, constraints).
//!
//! `BACKTRACK_FULL_ONLY=1` stops after the pairs and 12x12; `BACKTRACK_PAIR_NODES` sets the
//! node budget per pair (default 10^8).

use std::hint::black_box;
use std::time::Instant;

use criterion::{criterion_group, Criterion};
use knights_tour::board::{Board, Square};
use knights_tour::solve::backtrack::{enumerate, Backtrack, Budget};
use knights_tour::solve::search::{Answer, Search};
use knights_tour::solve::{rng_from_seed, Constraint, Request, Rng};

/// The search's first step, in its fixed order, and its nodes.
fn solve_counted(req: &Request, budget: &Budget) -> (Answer, u64) {
    Backtrack::new(req).step(budget, &mut rng_from_seed(0))
}

fn solve(req: &Request, budget: &Budget) -> Answer {
    solve_counted(req, budget).0
}

/// A step breaking ties with `rng`.
fn solve_with_rng(req: &Request, budget: &Budget, rng: &mut Rng) -> Answer {
    Backtrack::shuffled(req).step(budget, rng).0
}

fn pair_request(start: Square, end: Square) -> Request {
    let mut req = Request::open(Board::new(8, 8).unwrap());
    req.start = Some(start);
    req.end = Some(end);
    req
}

/// All ordered pairs (start, end) of opposite colours on 8x8.
fn all_pairs() -> Vec<(Square, Square)> {
    let board = Board::new(8, 8).unwrap();
    let mut out = Vec::new();
    for s in board.squares() {
        for e in board.squares() {
            if s.is_corner_colour() != e.is_corner_colour() {
                out.push((s, e));
            }
        }
    }
    out
}

/// The one-off full run: every pair, printed totals and the worst pairs.
fn full_pairs_run() {
    let board = Board::new(8, 8).unwrap();
    let pairs = all_pairs();
    let budget_nodes: u64 = std::env::var("BACKTRACK_PAIR_NODES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000_000);
    let t0 = Instant::now();
    let (mut solved, mut unsolved, mut total_nodes) = (0u32, Vec::new(), 0u64);
    let mut max_nodes = 0u64;
    let mut worst: Vec<(u64, String)> = Vec::new();
    for &(s, e) in &pairs {
        let req = pair_request(s, e);
        let t = Instant::now();
        let (answer, nodes) = solve_counted(&req, &Budget::nodes(budget_nodes));
        total_nodes += nodes;
        max_nodes = max_nodes.max(nodes);
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        let name = format!("{}-{} ({ms:.1} ms)", board.algebraic(s), board.algebraic(e));
        match answer {
            Answer::Found { tour, .. } => {
                assert!(req.is_satisfied_by(&tour));
                solved += 1;
                worst.push(((ms * 1000.0) as u64, name));
            }
            Answer::NoTour => unsolved.push(format!("{name}: no tour?!")),
            _ => unsolved.push(format!("{name}: out of budget")),
        }
    }
    worst.sort();
    worst.reverse();
    worst.truncate(5);
    println!(
        "8x8 all {} opposite-colour (start, end) pairs: {solved} solved, {} unsolved at {budget_nodes} nodes each, total {:.2} s, {total_nodes} nodes (max {max_nodes} for one pair)",
        pairs.len(),
        unsolved.len(),
        t0.elapsed().as_secs_f64()
    );
    println!(
        "  slowest: {:?}",
        worst.iter().map(|w| &w.1).collect::<Vec<_>>()
    );
    for u in unsolved.iter().take(20) {
        println!("  unsolved {u}");
    }
}

fn closed_12x12_nodes() {
    let board = Board::new(12, 12).unwrap();
    for col in 0..6 {
        let mut req = Request::open(board);
        req.closed = true;
        req.start = Some(Square::new(0, col));
        let t = Instant::now();
        let (answer, nodes) = solve_counted(&req, &Budget::nodes(10_000_000));
        let found = matches!(&answer, Answer::Found { tour: t, .. } if req.is_satisfied_by(t));
        println!(
            "closed 12x12 from {}: found={found} {nodes} nodes, {:.2} ms",
            board.algebraic(Square::new(0, col)),
            t.elapsed().as_secs_f64() * 1000.0
        );
    }
}

fn enumeration_counts() {
    let t = Instant::now();
    let req = Request::open(Board::new(5, 5).unwrap());
    let e = enumerate(&req, None, &Budget::unlimited(), |_| true);
    println!(
        "5x5 all directed open tours: {} (exhaustive {}), {} nodes, {:.2} s",
        e.count,
        e.exhaustive,
        e.nodes,
        t.elapsed().as_secs_f64()
    );
    let t = Instant::now();
    let mut req = Request::open(Board::new(6, 6).unwrap());
    req.closed = true;
    req.start = Some(Square::new(0, 0));
    let e = enumerate(&req, None, &Budget::unlimited(), |_| true);
    println!(
        "6x6 closed tours from a1: {} directed = {} undirected (exhaustive {}), {} nodes, {:.2} s",
        e.count,
        e.count / 2,
        e.exhaustive,
        e.nodes,
        t.elapsed().as_secs_f64()
    );
}

/// Harder one-off workloads: impossibility proofs, thin boards, constraints, big boards.
fn hard_workloads() {
    let show = |name: &str, req: &Request| {
        let t = Instant::now();
        let (answer, nodes) = solve_counted(req, &Budget::nodes(200_000_000));
        let what = match answer {
            Answer::Found { tour, .. } => {
                format!("found (meets request: {})", req.is_satisfied_by(&tour))
            }
            other => format!("{other:?}"),
        };
        println!(
            "{name}: {what}, {nodes} nodes, {:.2} s",
            t.elapsed().as_secs_f64()
        );
    };
    for (rows, cols) in [(4, 10), (3, 40), (200, 200)] {
        let mut req = Request::open(Board::new(rows, cols).unwrap());
        req.closed = true;
        req.start = Some(Square::new(0, 0));
        show(&format!("closed {rows}x{cols} from the corner"), &req);
    }
    // 200 requests on 8x8: a start and 4 constraints taken from a random tour.
    let board = Board::new(8, 8).unwrap();
    let (t, mut nodes, mut unsolved) = (Instant::now(), 0u64, 0);
    for seed in 0..200u64 {
        let mut base = Request::open(board);
        base.start = Some(board.square_at((seed % 64) as u32));
        let Answer::Found { tour: known, .. } =
            solve_with_rng(&base, &Budget::unlimited(), &mut rng_from_seed(seed))
        else {
            panic!("no open 8x8 tour from {:?}", base.start);
        };
        let mut req = base.clone();
        for j in 0..4u32 {
            let k = 2 + ((seed as u32 * 17 + j * 13) % 62);
            let square = board.square_at(known.indices()[k as usize - 1]);
            req.constraints.push(Constraint {
                move_number: k,
                square,
            });
        }
        let (answer, n) = solve_counted(&req, &Budget::nodes(20_000_000));
        nodes += n;
        match answer {
            Answer::Found { tour, .. } => assert!(req.is_satisfied_by(&tour)),
            _ => unsolved += 1,
        }
    }
    println!(
        "8x8 start + 4 constraints from a known tour, 200 requests: {unsolved} unsolved at 2*10^7 nodes, {nodes} nodes, {:.2} s",
        t.elapsed().as_secs_f64()
    );
}

fn bench_subset(c: &mut Criterion) {
    // Every 64th pair: 32 pairs spread over the board.
    let pairs: Vec<_> = all_pairs().into_iter().step_by(64).collect();
    c.bench_function("8x8 open, 32 (start, end) pairs", |b| {
        b.iter(|| {
            for &(s, e) in &pairs {
                let answer = solve(&pair_request(s, e), &Budget::unlimited());
                black_box(matches!(answer, Answer::Found { .. }));
            }
        })
    });
    let mut req = Request::open(Board::new(12, 12).unwrap());
    req.closed = true;
    req.start = Some(Square::new(0, 0));
    c.bench_function("12x12 closed from a12", |b| {
        b.iter(|| black_box(solve(&req, &Budget::unlimited())))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench_subset
}

fn main() {
    let only_full = std::env::var("BACKTRACK_FULL_ONLY").is_ok();
    full_pairs_run();
    closed_12x12_nodes();
    if only_full {
        return;
    }
    enumeration_counts();
    hard_workloads();
    benches();
    Criterion::default().configure_from_args().final_summary();
}
