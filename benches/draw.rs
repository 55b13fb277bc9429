//! Pictures of big tours: a 100x100 animated GIF (10,000 frames), and a 1000x1000 tour as PNG
//! (2000 px, 2 px a square) and SVG (one polyline). Sizes are printed once per run.

use criterion::{criterion_group, criterion_main, Criterion};
use knights_tour::board::Board;
use knights_tour::draw::{self, DrawOptions};
use knights_tour::tour::Tour;

/// A Warnsdorff path (fewest onward moves, ties by move order) from the top-left corner:
/// complete on 100x100, long but partial on 1000x1000; either is a fair drawing load.
fn path(board: Board) -> Tour {
    let table = board.neighbour_table();
    let mut seen = vec![false; board.len()];
    let mut squares = vec![0u32];
    seen[0] = true;
    let onward = |seen: &[bool], i: u32| {
        table[i as usize]
            .iter()
            .filter(|&&n| !seen[n as usize])
            .count()
    };
    while let Some(&last) = squares.last() {
        let next = table[last as usize]
            .iter()
            .copied()
            .filter(|&n| !seen[n as usize])
            .min_by_key(|&n| onward(&seen, n));
        let Some(next) = next else { break };
        seen[next as usize] = true;
        squares.push(next);
    }
    Tour::from_indices_unchecked(board, squares)
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
