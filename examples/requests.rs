//! Random satisfiable requests sent through the library's one entry into the solvers
//! (`solve::runner`, `--method auto` with its default plan), each answer re-checked:
//!
//! - random (start, end) on boards 5..=400 a side, and on narrow boards 5..=8 x 50..=500;
//! - a few (start, end) on 1000x1000;
//! - 12 "move k on X" constraints sampled from a real tour, on boards 5..=80 a side, with a
//!   10 s time limit.
//!
//! For each group: how many were answered and the slowest time.
//!
//! ```text
//! cargo run --release --example requests -- [REQUESTS_PER_GROUP] [SEED]
//! ```
//!
//! `REQUESTS_ONLY=constraints` (or `ends`) runs one kind of group only, while iterating on a
//! solver; `REQUESTS_VERBOSE=1` prints every request with its time; `REQUESTS_PIN=first` (or
//! `last`) makes one of each request's 12 constraints the source tour's first (or last) square,
//! so that every request has a fixed end, which random sampling gives only now and then.

use std::time::{Duration, Instant};

use rand::Rng as _;

use knights_tour::board::{Board, Square};
use knights_tour::solve::runner::run;
use knights_tour::solve::{existence, rng_from_seed, Constraint, Plan, Request, Rng};

/// One group's figures.
#[derive(Default)]
struct Figures {
    /// Whether this group's requests are sent (they are drawn either way, so that the other
    /// groups get the same requests whichever groups run).
    run: bool,
    /// Print every request with its time.
    verbose: bool,
    sent: usize,
    answered: usize,
    slowest: Duration,
    slowest_request: String,
    total: Duration,
}

impl Figures {
    fn send(&mut self, req: &Request, plan: &Plan, seed: u64) {
        if !self.run {
            return;
        }
        let started = Instant::now();
        let outcome = run(req, plan, &mut rng_from_seed(seed), &mut |_| {});
        let took = started.elapsed();
        let ok = outcome.tours().any(|a| req.is_satisfied_by(&a.tour));
        self.sent += 1;
        self.answered += usize::from(ok);
        self.total += took;
        if took >= self.slowest {
            self.slowest = took;
            self.slowest_request = describe(req);
        }
        if !ok {
            println!(
                "  not answered: {} ({})",
                describe(req),
                outcome.report.reason()
            );
            if self.verbose {
                let b = req.board;
                let list: Vec<String> = req
                    .constraints
                    .iter()
                    .map(|c| format!("{}@{}", c.move_number, b.algebraic(c.square)))
                    .collect();
                println!("    constraints: {}", list.join(" "));
            }
        } else if self.verbose {
            println!("  {:.3} s: {}", took.as_secs_f64(), describe(req));
        }
    }

    /// Figures for a group of `kind` ("ends" or "constraints"), sent unless `REQUESTS_ONLY`
    /// names the other kind.
    fn new(kind: &str) -> Figures {
        let only = std::env::var("REQUESTS_ONLY").ok();
        Figures {
            run: only.as_deref().is_none_or(|o| o == kind),
            verbose: std::env::var_os("REQUESTS_VERBOSE").is_some(),
            ..Figures::default()
        }
    }

    fn print(&self, name: &str) {
        if !self.run {
            return;
        }
        println!(
            "{name}: {}/{} answered, slowest {:.3} s ({}), mean {:.3} s",
            self.answered,
            self.sent,
            self.slowest.as_secs_f64(),
            self.slowest_request,
            self.total.as_secs_f64() / self.sent.max(1) as f64,
        );
    }
}

fn describe(req: &Request) -> String {
    let b = req.board;
    let sq = |s: Option<Square>| s.map(|s| b.algebraic(s)).unwrap_or_else(|| "-".into());
    let mut text = format!("{b} {} -> {}", sq(req.start), sq(req.end));
    if !req.constraints.is_empty() {
        text.push_str(&format!(", {} constraints", req.constraints.len()));
    }
    text
}

/// A random (start, end) request on `board` that passes the existence rules.
fn ends_request(board: Board, rng: &mut Rng) -> Request {
    loop {
        let pick = |rng: &mut Rng| board.square_at(rng.random_range(0..board.len() as u32));
        let req = Request {
            start: Some(pick(rng)),
            end: Some(pick(rng)),
            ..Request::open(board)
        };
        if existence::check_request(&req).is_ok() {
            return req;
        }
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let per_group: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(40);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2026);
    let mut rng = rng_from_seed(seed);
    let plan = Plan::default();
    println!("{per_group} requests per group, seed {seed}");

    let mut square = Figures::new("ends");
    for i in 0..per_group {
        let board = Board::new(rng.random_range(5..=400), rng.random_range(5..=400)).unwrap();
        square.send(&ends_request(board, &mut rng), &plan, i as u64);
    }
    square.print("(start, end) on boards 5..=400 a side");

    let mut narrow = Figures::new("ends");
    for i in 0..per_group {
        let (short, long) = (rng.random_range(5..=8), rng.random_range(50..=500));
        let board = if rng.random_bool(0.5) {
            Board::new(short, long)
        } else {
            Board::new(long, short)
        }
        .unwrap();
        narrow.send(&ends_request(board, &mut rng), &plan, i as u64);
    }
    let named = Board::new(5, 400).unwrap();
    let a1_b5 = Request {
        start: Some(named.parse_square("a1").unwrap()),
        end: Some(named.parse_square("b5").unwrap()),
        ..Request::open(named)
    };
    narrow.send(&a1_b5, &plan, 0);
    narrow.print("(start, end) on narrow boards 5..=8 x 50..=500");

    let mut huge = Figures::new("ends");
    let board = Board::new(1000, 1000).unwrap();
    for i in 0..per_group.min(5) {
        huge.send(&ends_request(board, &mut rng), &plan, i as u64);
    }
    huge.print("(start, end) on 1000x1000");

    let mut constrained = Figures::new("constraints");
    let pin: Option<fn(u32) -> u32> = match std::env::var("REQUESTS_PIN").as_deref() {
        Ok("first") => Some(|_| 1),
        Ok("last") => Some(|n| n),
        _ => None,
    };
    let ten = Plan {
        timeout: Some(Duration::from_secs(10)),
        ..Plan::default()
    };
    for i in 0..per_group {
        let board = Board::new(rng.random_range(5..=80), rng.random_range(5..=80)).unwrap();
        let Ok(()) = existence::open_tour(board) else {
            continue;
        };
        // A real tour to sample from (any method; a random start).
        let source = run(
            &Request::open(board),
            &plan,
            &mut rng_from_seed(i as u64),
            &mut |_| {},
        );
        let Some(tour) = source.tours().next().map(|a| a.tour.clone()) else {
            continue;
        };
        let n = board.len() as u32;
        let mut constraints: Vec<Constraint> = pin
            .map(|k| Constraint {
                move_number: k(n),
                square: board.square_at(tour.indices()[k(n) as usize - 1]),
            })
            .into_iter()
            .collect();
        while constraints.len() < 12.min(n as usize) {
            let k = rng.random_range(1..=n);
            if constraints.iter().all(|c| c.move_number != k) {
                constraints.push(Constraint {
                    move_number: k,
                    square: board.square_at(tour.indices()[k as usize - 1]),
                });
            }
        }
        let req = Request {
            constraints,
            ..Request::open(board)
        };
        // Another seed than the source tour's, so the answer is not that tour by luck.
        constrained.send(&req, &ten, 1_000_000 + i as u64);
    }
    constrained.print("12 constraints from a real tour on boards 5..=80 a side (10 s limit)");
}
