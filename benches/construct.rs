//! Construction speed and peak memory on 1000x1000 and 10000x10000 boards, between two fixed
//! squares of 1000x1000, and on a 4 x 1,000,000 board from a middle square.
//!
//! Targets: under 10 ns and under 8 bytes of peak memory per square. Run with
//! `cargo bench --bench construct`; the memory report (from `/proc/self/status`, Linux only) is
//! printed before criterion's timings.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, Criterion, Throughput};
use knights_tour::board::{Board, Square};
use knights_tour::solve::{construct, Request};

/// A `/proc/self/status` field in bytes (0 where unavailable).
/// The construction's tour for `req` numbered in place (4 bytes a square).
fn numbering(req: &Request) -> Option<Vec<u32>> {
    construct::build(req, None).map(construct::Successors::into_numbering)
}

fn status_bytes(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// Peak resident memory `work` adds, in bytes: the high-water mark is reset first (Linux
/// `clear_refs` 5) and compared with the resident size before.
fn peak_added(work: impl FnOnce()) -> u64 {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    let before = status_bytes("VmRSS:");
    work();
    status_bytes("VmHWM:").saturating_sub(before)
}

fn memory_report() {
    for side in [1000u32, 10_000] {
        let board = Board::new(side, side).unwrap();
        let n = board.len() as f64;
        let succ = peak_added(|| {
            black_box(construct::closed_successors(board));
        });
        let numbers = peak_added(|| {
            black_box(numbering(&Request::open(board)));
        });
        let tour = peak_added(|| {
            black_box(construct::closed_tour(board));
        });
        eprintln!(
            "peak memory {board}: closed_successors {:.2} B/square, numbering {:.2} B/square, \
             closed_tour {:.2} B/square",
            succ as f64 / n,
            numbers as f64 / n,
            tour as f64 / n
        );
    }
}

fn bench_construct(c: &mut Criterion) {
    let mut group = c.benchmark_group("construct");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(5));
    for side in [1000u32, 10_000] {
        let board = Board::new(side, side).unwrap();
        group.throughput(Throughput::Elements(board.len() as u64));
        // The floor: allocating the output and writing every entry once.
        group.bench_function(format!("baseline_alloc_and_write/{board}"), |b| {
            b.iter(|| {
                let mut v = vec![0u32; board.len()];
                for (i, x) in v.iter_mut().enumerate() {
                    *x = i as u32 ^ 1;
                }
                black_box(v)
            })
        });
        group.bench_function(format!("closed_successors/{board}"), |b| {
            b.iter(|| black_box(construct::closed_successors(black_box(board))))
        });
        let odd = Board::new(side - 1, side + 1).unwrap();
        group.bench_function(format!("open_successors/{odd}"), |b| {
            b.iter(|| black_box(construct::successors(black_box(odd))))
        });
        group.bench_function(format!("numbering/{board}"), |b| {
            b.iter(|| black_box(numbering(&Request::open(black_box(board)))))
        });
        if side == 1000 {
            // Both ends fixed: the chain of blocks from one to the other.
            let ends = Request {
                start: Some(Square::new(3, 700)),
                end: Some(Square::new(990, 10)),
                ..Request::open(board)
            };
            group.bench_function(format!("numbering_between/{board}"), |b| {
                b.iter(|| black_box(numbering(black_box(&ends))))
            });
        }
    }
    // Open-only narrow boards from a middle square: the tour is built around the start.
    let long = Board::new(4, 1_000_000).unwrap();
    let middle = Request {
        start: Some(Square::new(0, 500_000)),
        ..Request::open(long)
    };
    group.throughput(Throughput::Elements(long.len() as u64));
    group.bench_function(format!("numbering_from_middle/{long}"), |b| {
        b.iter(|| black_box(numbering(black_box(&middle))))
    });
    group.finish();
}

criterion_group!(benches, bench_construct);

fn main() {
    memory_report();
    benches();
    Criterion::default().configure_from_args().final_summary();
}
