//! Writing a 1000x1000 tour workbook against the format's floor: rust_xlsxwriter writing the
//! same 1,000,000 move numbers as plain integers at the same cells (constant-memory mode).
//! The target is at most 1.3x the floor.
//!
//! The tour is a real one (Warnsdorff's rule with Roth's tie-break from a corner), built once
//! outside the timing. Both write through `std::io::sink()`, so the zip compression is timed
//! but not the disk.
//!
//! ```text
//! cargo bench --bench workbook
//! ```

#[path = "../examples/support/floor.rs"]
mod floor;
#[path = "../examples/support/knight_paths.rs"]
mod knight_paths;

use criterion::{criterion_group, criterion_main, Criterion};
use knights_tour::board::{Board, Square};
use knights_tour::generate::workbook::{write_workbook, WorkbookSpec};
use knights_tour::solve::{Attempt, Method};

fn bench_write(c: &mut Criterion) {
    let board = Board::new(1000, 1000).unwrap();
    let tour = knight_paths::warnsdorff(board, Square::new(0, 0));
    assert!(tour.is_complete(), "the bench needs a complete tour");
    let spec = WorkbookSpec::new(vec![Attempt::new(tour.clone(), true, Method::Warnsdorff)]);
    let mut group = c.benchmark_group("write_1000x1000");
    group.sample_size(10);
    group.bench_function("floor_plain_integers", |b| {
        b.iter(|| floor::write_floor(&tour, std::io::sink()).unwrap())
    });
    group.bench_function("tour_workbook", |b| {
        b.iter(|| write_workbook(&spec, std::io::sink()).unwrap())
    });
    group.finish();
}

criterion_group!(benches, bench_write);
criterion_main!(benches);
