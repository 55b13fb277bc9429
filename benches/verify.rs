//! Verifying a 1000x1000 board next to calamine merely reading the same workbook.
//!
//! The floor is calamine opening the xlsx and building the sheet's range (`worksheet_range`),
//! the least any calamine-based checker must do; the target is `verify_path` within 1.3x of it.
//! A second floor streams the cells (`worksheet_cells_reader`), which is how the verifier reads.
//! The workbook (a valid open tour, Warnsdorff with a centre tie-break, computed here) is
//! written once to target/bench-verify-1000x1000.xlsx and kept for memory measurements:
//! `/usr/bin/time -v target/release/knights-tour verify target/bench-verify-1000x1000.xlsx`.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

use calamine::{open_workbook, Reader, Xlsx};
use criterion::{criterion_group, criterion_main, Criterion};
use knights_tour::verify::{verify_path, Verdict, VerifyOptions};

const SIDE: u32 = 1000;

/// Warnsdorff's rule: go to the square with the fewest onward moves, ties to the square
/// farthest from the centre (Roth's rule). Returns move numbers by square, or None if stuck.
fn warnsdorff(n: u32, start: (u32, u32)) -> Option<Vec<u32>> {
    const MOVES: [(i32, i32); 8] = [
        (-2, 1),
        (-1, 2),
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
    ];
    let size = (n * n) as usize;
    let mut number = vec![0u32; size];
    let inside = |r: i64, c: i64| r >= 0 && c >= 0 && r < i64::from(n) && c < i64::from(n);
    let idx = |r: i64, c: i64| (r * i64::from(n) + c) as usize;
    let mut degree = vec![0u8; size];
    for r in 0..i64::from(n) {
        for c in 0..i64::from(n) {
            degree[idx(r, c)] = MOVES
                .iter()
                .filter(|(dr, dc)| inside(r + i64::from(*dr), c + i64::from(*dc)))
                .count() as u8;
        }
    }
    let centre = (f64::from(n) - 1.0) / 2.0;
    let (mut r, mut c) = (i64::from(start.0), i64::from(start.1));
    for k in 1..=size as u32 {
        number[idx(r, c)] = k;
        for (dr, dc) in MOVES {
            let (nr, nc) = (r + i64::from(dr), c + i64::from(dc));
            if inside(nr, nc) {
                degree[idx(nr, nc)] -= 1;
            }
        }
        if k == size as u32 {
            break;
        }
        let mut best: Option<(u8, f64, i64, i64)> = None;
        for (dr, dc) in MOVES {
            let (nr, nc) = (r + i64::from(dr), c + i64::from(dc));
            if !inside(nr, nc) || number[idx(nr, nc)] != 0 {
                continue;
            }
            let d = degree[idx(nr, nc)];
            let dist = (nr as f64 - centre).powi(2) + (nc as f64 - centre).powi(2);
            if best.is_none_or(|(bd, bdist, _, _)| d < bd || (d == bd && dist > bdist)) {
                best = Some((d, dist, nr, nc));
            }
        }
        let (_, _, nr, nc) = best?;
        (r, c) = (nr, nc);
    }
    Some(number)
}

fn workbook_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-verify-1000x1000.xlsx")
}

fn write_workbook(path: &Path) {
    let numbers = [(0, 0), (0, 1), (1, 0), (2, 3), (500, 500)]
        .into_iter()
        .find_map(|s| warnsdorff(SIDE, s))
        .expect("Warnsdorff found a 1000x1000 tour from one of the starts");
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet_with_constant_memory().unwrap();
    sheet.set_name("Tour").unwrap();
    for r in 0..SIDE {
        for c in 0..SIDE as u16 {
            let n = numbers[(r * SIDE + u32::from(c)) as usize];
            sheet.write_number(r, c, f64::from(n)).unwrap();
        }
    }
    book.save(path).unwrap();
}

fn bench(c: &mut Criterion) {
    let path = workbook_path();
    if !path.exists() {
        write_workbook(&path);
    }
    let report = verify_path(&path, &VerifyOptions::default());
    assert_eq!(report.sheets.len(), 1);
    assert!(
        matches!(report.sheets[0].verdict, Verdict::Open | Verdict::Closed),
        "{:?}",
        report.sheets[0].problems.first()
    );

    let mut group = c.benchmark_group("verify_1000x1000");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(30));
    group.bench_function("calamine_worksheet_range", |b| {
        b.iter(|| {
            let mut book: Xlsx<_> = open_workbook(&path).unwrap();
            let range = book.worksheet_range("Tour").unwrap();
            black_box(range.get_size())
        })
    });
    group.bench_function("calamine_cells_reader", |b| {
        b.iter(|| {
            let mut book: Xlsx<_> = open_workbook(&path).unwrap();
            let mut reader = book.worksheet_cells_reader("Tour").unwrap();
            let mut count = 0usize;
            while let Some(cell) = reader.next_cell().unwrap() {
                count += usize::from(!matches!(cell.get_value(), calamine::DataRef::Empty));
            }
            black_box(count)
        })
    });
    group.bench_function("verify_path", |b| {
        b.iter(|| black_box(verify_path(&path, &VerifyOptions::default())))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
