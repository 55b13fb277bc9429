//! Speed of Warnsdorff's rule in squares per second (criterion's elements/s; invert for ns a
//! square). Each benchmark runs a fixed batch of attempts with fixed seeds, so the number of
//! squares visited (counted before measuring, stuck attempts included) is exact.
//!
//! Run: `cargo bench --bench warnsdorff`. Target: under 30 ns a square on 1000x1000.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use knights_tour::board::Board;
use knights_tour::solve::warnsdorff::Warnsdorff;
use knights_tour::solve::{rng_from_seed, Tiebreak};

/// `attempts` attempts, attempt `i` from square `i * 7919 mod N` (so attempt 0 from the
/// top-left corner) with seed `i`; returns the squares visited in all.
fn batch(w: &mut Warnsdorff, attempts: u64, tiebreak: Tiebreak) -> u64 {
    let n = w.board().len() as u64;
    (0..attempts)
        .map(|i| {
            let start = w.board().square_at(((i * 7919) % n) as u32);
            let tour = w.attempt(start, tiebreak, &mut rng_from_seed(i));
            black_box(tour).len() as u64
        })
        .sum()
}

fn bench_board(c: &mut Criterion, side: u32, attempts: u64, tiebreak: Tiebreak, samples: usize) {
    let board = Board::square(side).expect("a valid board");
    let mut w = Warnsdorff::new(board);
    let squares = batch(&mut w, attempts, tiebreak);
    let mut group = c.benchmark_group("warnsdorff");
    group
        .throughput(Throughput::Elements(squares))
        .sample_size(samples)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    let id = format!("{side}x{side} {} x{attempts}", tiebreak.name());
    group.bench_function(id, |b| b.iter(|| batch(&mut w, attempts, tiebreak)));
    group.finish();
}

fn warnsdorff(c: &mut Criterion) {
    bench_board(c, 8, 100, Tiebreak::Random, 50);
    bench_board(c, 100, 10, Tiebreak::Random, 20);
    bench_board(c, 100, 10, Tiebreak::Pohl, 20);
    bench_board(c, 1000, 1, Tiebreak::Center, 10);
}

criterion_group!(benches, warnsdorff);
criterion_main!(benches);
