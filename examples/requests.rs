//! Random satisfiable requests sent through the library's one entry into the solvers
//! (`solve::runner`, `--method auto` with its default plan), each answer re-checked:
//!
//! - random (start, end) on boards 5..=400 a side, and on narrow boards 5..=8 x 50..=500;
//! - a few (start, end) on 1000x1000;
//! - 12 "move k on X" constraints sampled from a real tour, on boards 5..=80 a side, with a
//!   10 s time limit;
//! - issue 18's table (`density`): 12, 20, 30, 40 and 80 constraints sampled from a real tour
//!   on boards up to 80, 150, 40, 150 and 60 a side, 10 s each, and the 30x5 request with a
//!   fixed start that issue 12 left unanswered;
//! - issue 43's groups (`sparse`): 40 constraints on boards 40..=80 a side, one constraint per
//!   200 to 400 squares on boards 40..=150 a side, and issue 43's 60x60 request at the
//!   runner's seeds 1 to 8.
//!
//! For each group: how many were answered, the slowest time and the median, the processor
//! time (steadier on a shared machine), and which searches answered.
//!
//! ```text
//! cargo run --release --example requests -- [REQUESTS_PER_GROUP] [SEED]
//! ```
//!
//! `REQUESTS_ONLY=constraints` (or `ends`, `density` or `sparse`) runs one kind of group only, while iterating on a
//! solver; `REQUESTS_VERBOSE=1` prints every request with its time; `REQUESTS_SOURCE=plain`
//! samples the runner's tour as it comes (see `disguised`); `REQUESTS_PIN=first` (or
//! `last`) makes one of each request's 12 constraints the source tour's first (or last) square,
//! so that every request has a fixed end, which random sampling gives only now and then;
//! `REQUESTS_DUMP=DIR` writes every constrained request sent into DIR as a `--constraints`
//! file for `generate`, its command line on the first line, to look at one request alone (and
//! with `REQUESTS_DUMP_ONLY=1`, sends none);
//! `REQUESTS_METHOD=NAME` sends every request with `--method NAME` instead of `auto` (one search
//! alone, to compare with the portfolio); `REQUESTS_RUNS=K` sends every request K times, each run with its own seed for the runner, and
//! counts runs (answered/sent, median over all runs): a group's figures over one run each are a
//! draw.

use std::time::{Duration, Instant};

use rand::Rng as _;

use clap::ValueEnum as _;
use knights_tour::board::{Board, Square};
use knights_tour::solve::runner::run;
use knights_tour::solve::{
    constraints, existence, rng_from_seed, Constraint, Method, Plan, Request, Rng,
};
use knights_tour::tour::Tour;

/// One group's figures.
#[derive(Default)]
struct Figures {
    /// Whether this group's requests are sent (they are drawn either way, so that the other
    /// groups get the same requests whichever groups run).
    run: bool,
    /// Print every request with its time.
    verbose: bool,
    /// Runs of each request, each with its own seed for the runner (`REQUESTS_RUNS`, 1 by
    /// default): one run of a randomised search is a draw, and a group's median over one run
    /// each moves by seconds from one seed to the next.
    runs: u64,
    sent: usize,
    answered: usize,
    slowest: Duration,
    slowest_request: String,
    total: Duration,
    /// Every request's time, for the median.
    times: Vec<Duration>,
    /// How many answers each search gave (the method its tour names).
    methods: std::collections::BTreeMap<&'static str, usize>,
    /// Every request's processor time (both threads of a race), where the system tells it:
    /// steadier than the time on the clock on a machine shared with other work.
    cpu: Vec<Duration>,
}

impl Figures {
    fn send(&mut self, req: &Request, plan: &Plan, seed: u64) {
        if !self.run {
            return;
        }
        if let Some(dir) = std::env::var_os("REQUESTS_DUMP") {
            dump(req, seed, std::path::Path::new(&dir));
            if std::env::var_os("REQUESTS_DUMP_ONLY").is_some() {
                return;
            }
        }
        for r in 0..self.runs {
            self.send_once(req, plan, seed.wrapping_add(r * RUN_SEED_STEP));
        }
    }

    /// One run of `req` with the runner's generator seeded with `seed`.
    fn send_once(&mut self, req: &Request, plan: &Plan, seed: u64) {
        let (started, cpu) = (Instant::now(), cpu_time());
        let outcome = run(req, plan, &mut rng_from_seed(seed), &mut |_| {});
        let took = started.elapsed();
        if let (Some(before), Some(after)) = (cpu, cpu_time()) {
            self.cpu.push(after.saturating_sub(before));
        }
        let answer = outcome.tours().find(|a| req.is_satisfied_by(&a.tour));
        let ok = answer.is_some();
        if let Some(a) = answer {
            *self.methods.entry(a.method.name()).or_default() += 1;
        }
        self.sent += 1;
        self.answered += usize::from(ok);
        self.total += took;
        self.times.push(took);
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
            runs: std::env::var("REQUESTS_RUNS")
                .ok()
                .and_then(|r| r.parse().ok())
                .unwrap_or(1)
                .max(1),
            ..Figures::default()
        }
    }

    fn print(&self, name: &str) {
        if !self.run {
            return;
        }
        let mut times = self.times.clone();
        times.sort_unstable();
        let median = times.get(times.len() / 2).copied().unwrap_or_default();
        let by: Vec<String> = self
            .methods
            .iter()
            .map(|(method, n)| format!("{method} {n}"))
            .collect();
        let mut cpu = self.cpu.clone();
        cpu.sort_unstable();
        let cpu_median = cpu.get(cpu.len() / 2).copied().unwrap_or_default();
        let cpu_total: Duration = cpu.iter().sum();
        println!(
            "{name}: {}/{} answered, slowest {:.3} s ({}), median {:.3} s, mean {:.3} s; \
             processor time median {:.2} s, total {:.1} s; by {}",
            self.answered,
            self.sent,
            self.slowest.as_secs_f64(),
            self.slowest_request,
            median.as_secs_f64(),
            self.total.as_secs_f64() / self.sent.max(1) as f64,
            cpu_median.as_secs_f64(),
            cpu_total.as_secs_f64(),
            by.join(", "),
        );
    }
}

/// How far apart the runner's seeds of one request's runs are (`REQUESTS_RUNS`): far from the
/// next request's seed, which is one more.
const RUN_SEED_STEP: u64 = 1_000_003;

/// Write a constrained request to `dir` as a `--constraints` file, named after its board,
/// constraint count and seed, whose first line is the `generate` command that sends it
/// (through the same runner, though not with the same random draws).
fn dump(req: &Request, seed: u64, dir: &std::path::Path) {
    if req.constraints.is_empty() {
        return;
    }
    let b = req.board;
    let name = format!("{b}-{}c-{seed}.txt", req.constraints.len());
    let mut text = format!(
        "# knights-tour generate --rows {} --cols {} --constraints {name} --timeout 10 -o {b}.csv\n",
        b.rows(),
        b.cols()
    );
    for c in &req.constraints {
        text.push_str(&format!("{} {}\n", c.move_number, b.algebraic(c.square)));
    }
    if let Err(e) =
        std::fs::create_dir_all(dir).and_then(|()| std::fs::write(dir.join(&name), text))
    {
        eprintln!(
            "REQUESTS_DUMP: cannot write {name} in {}: {e}",
            dir.display()
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
        method: method_from_env(),
        ..Plan::default()
    };
    for i in 0..per_group {
        let board = Board::new(rng.random_range(5..=80), rng.random_range(5..=80)).unwrap();
        let Some(req) = sampled(board, 12, pin, &mut rng, i as u64) else {
            continue;
        };
        // Another seed than the source tour's, so the answer is not that tour by luck.
        constrained.send(&req, &ten, 1_000_000 + i as u64);
    }
    constrained.print("12 constraints from a real tour on boards 5..=80 a side (10 s limit)");

    // Issue 18's table: more constraints on larger boards, drawn after the groups above so
    // that they keep their requests.
    for (count, sides, requests) in DENSITY_TABLE {
        let mut group = Figures::new("density");
        for i in 0..requests {
            let board = Board::new(
                rng.random_range(sides.clone()),
                rng.random_range(sides.clone()),
            )
            .unwrap();
            let Some(req) = sampled(board, count, pin, &mut rng, i as u64) else {
                continue;
            };
            group.send(&req, &ten, 2_000_000 + i as u64);
        }
        group.print(&format!(
            "{count} constraints from a real tour on boards {}..={} a side (10 s limit)",
            sides.start(),
            sides.end()
        ));
    }
    let mut named = Figures::new("density");
    named.send(&thirty_by_five(), &ten, 0);
    named.print("30x5 with a fixed start and 12 constraints (issue 18; 10 s limit)");

    // Issue 43's groups, drawn after every group above so that those keep their requests:
    // 40 constraints on boards of 1,600 to 6,400 squares, and sparse requests (one constraint
    // per 200 to 400 squares) on boards up to 150 a side, where pieces are hundreds of moves
    // long; then issue 43's own request at the runner's seeds 1 to 8.
    let mut forty = Figures::new("sparse");
    for i in 0..per_group.min(12) {
        let board = Board::new(rng.random_range(40..=80), rng.random_range(40..=80)).unwrap();
        if let Some(req) = sampled(board, 40, pin, &mut rng, i as u64) {
            forty.send(&req, &ten, 3_000_000 + i as u64);
        }
    }
    forty.print("40 constraints from a real tour on boards 40..=80 a side (10 s limit)");
    let mut sparse = Figures::new("sparse");
    for i in 0..per_group.min(12) {
        let board = Board::new(rng.random_range(40..=150), rng.random_range(40..=150)).unwrap();
        let count = board.len() / rng.random_range(200..=400);
        if let Some(req) = sampled(board, count, pin, &mut rng, i as u64) {
            sparse.send(&req, &ten, 4_000_000 + i as u64);
        }
    }
    sparse.print("one constraint per 200..=400 squares from a real tour, boards 40..=150 a side (10 s limit)");
    let mut issue = Figures::new("sparse");
    for runner_seed in 1..=8 {
        issue.send(&issue_43(), &ten, runner_seed);
    }
    issue.print("issue 43's 40 constraints on 60x60, runner seeds 1..=8 (10 s limit)");
}

/// Issue 43's request: 40 constraints sampled from `generate --size 60 --seed 3`'s tour
/// (squares as `row,col` from 1 at the top-left), which `--method auto` took 39 to 45 s over.
fn issue_43() -> Request {
    let board = Board::new(60, 60).unwrap();
    let text = "54 41,14; 119 40,18; 213 2,52; 418 60,53; 464 55,44; 643 52,18; 654 53,18; \
        746 55,40; 888 49,40; 1010 35,4; 1021 37,7; 1022 36,5; 1047 1,11; 1145 2,46; \
        1469 32,58; 1523 17,59; 1560 5,54; 1596 5,44; 1672 10,53; 1908 10,41; 1922 4,31; \
        2172 6,17; 2228 32,5; 2351 7,25; 2552 27,12; 2659 34,18; 2671 35,19; 2829 43,51; \
        2995 19,47; 3031 17,31; 3039 21,41; 3121 36,46; 3137 29,49; 3179 24,16; 3258 32,41; \
        3266 26,47; 3443 25,29; 3447 27,31; 3554 32,21; 3558 30,17";
    let lines = text.replace(';', "\n");
    Request {
        constraints: constraints::parse(board, &lines).expect("issue 43's constraints"),
        ..Request::open(board)
    }
}

/// The processor time this process has used (Linux: `/proc/self/stat`, in ticks of 10 ms),
/// `None` elsewhere.
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit(')').next()?.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

/// `REQUESTS_METHOD`, or `auto`.
fn method_from_env() -> Method {
    match std::env::var("REQUESTS_METHOD") {
        Ok(name) => {
            Method::from_str(&name, true).unwrap_or_else(|e| panic!("REQUESTS_METHOD: {e}"))
        }
        Err(_) => Method::Auto,
    }
}

/// `tour` numbered from its other end and mirrored at random (seed `i`), unless
/// `REQUESTS_SOURCE=plain`. On boards too big for Warnsdorff's attempts the runner's tour is
/// the construction, the same every time, and a search that starts from that construction
/// would meet constraints read off it for free (measured: a 127x128 request with 40 of them met
/// in under a millisecond); the disguised tour is one no search here starts from.
fn disguised(tour: Tour, i: u64) -> Tour {
    if std::env::var("REQUESTS_SOURCE").as_deref() == Ok("plain") {
        return tour;
    }
    let board = tour.board();
    let mut rng = rng_from_seed(i ^ 0xd15_9015e);
    let (flip_rows, flip_cols) = (rng.random_bool(0.5), rng.random_bool(0.5));
    let squares: Vec<Square> = tour
        .reversed()
        .squares()
        .map(|sq| {
            let row = if flip_rows {
                board.rows() - 1 - sq.row
            } else {
                sq.row
            };
            let col = if flip_cols {
                board.cols() - 1 - sq.col
            } else {
                sq.col
            };
            Square::new(row, col)
        })
        .collect();
    Tour::from_squares(board, squares).expect("a mirrored tour is a tour")
}

/// Issue 18's table: constraints per request, board sides, requests.
const DENSITY_TABLE: [(usize, std::ops::RangeInclusive<u32>, usize); 5] = [
    (12, 5..=80, 20),
    (20, 5..=150, 12),
    (30, 5..=40, 12),
    (40, 5..=150, 12),
    (80, 5..=60, 8),
];

/// `count` constraints (distinct moves; all of them on a board with fewer squares) sampled
/// from a real tour of `board` (the runner's, seed `i`); with `pin`, one of them is the tour's
/// first or last square. `None` when the board has no open tour.
fn sampled(
    board: Board,
    count: usize,
    pin: Option<fn(u32) -> u32>,
    rng: &mut Rng,
    i: u64,
) -> Option<Request> {
    existence::open_tour(board).ok()?;
    // A real tour to sample from (any method; a random start).
    let source = run(
        &Request::open(board),
        &Plan::default(),
        &mut rng_from_seed(i),
        &mut |_| {},
    );
    let tour = disguised(source.tours().next().map(|a| a.tour.clone())?, i);
    let n = board.len() as u32;
    let mut constraints: Vec<Constraint> = pin
        .map(|k| Constraint {
            move_number: k(n),
            square: board.square_at(tour.indices()[k(n) as usize - 1]),
        })
        .into_iter()
        .collect();
    while constraints.len() < count.min(n as usize) {
        let k = rng.random_range(1..=n);
        if constraints.iter().all(|c| c.move_number != k) {
            constraints.push(Constraint {
                move_number: k,
                square: board.square_at(tour.indices()[k as usize - 1]),
            });
        }
    }
    Some(Request {
        constraints,
        ..Request::open(board)
    })
}

/// The request issue 12 left unanswered: 30x5, a fixed start (move 1 on a15) and 11 more
/// constraints (`REQUESTS_PIN=first`, seed 4).
fn thirty_by_five() -> Request {
    let board = Board::new(30, 5).unwrap();
    let constraints =
        "1@a15 149@a25 47@a9 120@d5 14@e20 135@c21 35@c19 89@b30 74@c14 49@a5 96@c30 127@b10"
            .split_whitespace()
            .map(|pair| {
                let (k, sq) = pair.split_once('@').expect("move@square");
                Constraint {
                    move_number: k.parse().expect("a move number"),
                    square: board.parse_square(sq).expect("a square"),
                }
            })
            .collect();
    Request {
        constraints,
        ..Request::open(board)
    }
}
