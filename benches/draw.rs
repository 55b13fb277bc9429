//! Pictures of big tours: a 100x100 animated GIF (10,000 frames), and a 1000x1000 tour as PNG
//! (2000 px, 2 px a square) and SVG (one polyline). Sizes are printed once per run.

use criterion::{criterion_group, criterion_main, Criterion};
use knights_tour::board::Board;
use knights_tour::draw::{self, DrawOptions};
use knights_tour::tour::Tour;

/// A Warnsdorff path from the top-left corner (centre ties, deterministic): a fair drawing
/// load whether it completes or not.
fn path(board: Board) -> Tour {
    knights_tour::solve::warnsdorff::attempt(
        board,
        knights_tour::board::Square::new(0, 0),
        knights_tour::solve::Tiebreak::Center,
        &mut knights_tour::solve::rng_from_seed(0),
    )
}

fn pictures(c: &mut Criterion) {
    let mut group = c.benchmark_group("draw");
    group.sample_size(10);
    let opts = DrawOptions::default();

    let t100 = path(Board::new(100, 100).unwrap());
    let mut out = Vec::new();
    draw::gif(&t100, &opts, &mut out).unwrap();
    eprintln!("gif 100x100: {} squares, {} bytes", t100.len(), out.len());
    group.bench_function("gif_100x100", |b| {
        b.iter(|| {
            let mut out = Vec::with_capacity(4 << 20);
            draw::gif(&t100, &opts, &mut out).unwrap();
            out.len()
        })
    });

    let t1000 = path(Board::new(1000, 1000).unwrap());
    let mut out = Vec::new();
    draw::png(&t1000, &opts, &mut out).unwrap();
    let svg = draw::svg(&t1000, &opts);
    eprintln!(
        "1000x1000: {} squares, png {} bytes, svg {} bytes",
        t1000.len(),
        out.len(),
        svg.len()
    );
    group.bench_function("png_1000x1000_2000px", |b| {
        b.iter(|| {
            let mut out = Vec::with_capacity(8 << 20);
            draw::png(&t1000, &opts, &mut out).unwrap();
            out.len()
        })
    });
    group.bench_function("svg_1000x1000", |b| {
        b.iter(|| draw::svg(&t1000, &opts).len())
    });
    group.finish();
}

criterion_group!(benches, pictures);
criterion_main!(benches);
