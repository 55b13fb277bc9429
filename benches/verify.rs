//! Verifying a 1000x1000 board next to calamine merely reading the same workbook.
//!
//! The floor is calamine opening the xlsx and building the sheet's range (`worksheet_range`),
//! the least any calamine-based checker must do; the target is `verify_path` within 1.0x of it
//! (no slower), and the CLI's peak memory on the file under 50 MB. A second floor streams the
//! cells (`worksheet_cells_reader`). The run ends by printing the ratio of the two means and
//! the CLI's peak memory (through `/usr/bin/time`, when present), all measured in this run.
//!
//! The workbook (a valid open tour, Warnsdorff with a centre tie-break, computed here) is
//! written once to `bench-verify-1000x1000.xlsx` in the target directory's `tmp` folder
//! (`CARGO_TARGET_TMPDIR`, so `CARGO_TARGET_DIR` is honoured) and kept for measurements:
//! `/usr/bin/time -v target/release/knights-tour verify -q target/tmp/bench-verify-1000x1000.xlsx`.

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
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-verify-1000x1000.xlsx")
}

/// The mean time criterion measured for `function` in `verify_1000x1000`, in nanoseconds.
fn mean_ns(function: &str) -> Option<f64> {
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).parent()?;
    let path = target
        .join("criterion/verify_1000x1000")
        .join(function)
        .join("new/estimates.json");
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
    json["mean"]["point_estimate"].as_f64()
}

/// The CLI's peak resident memory verifying `path`, in KB, measured by `/usr/bin/time`.
fn cli_peak_kb(path: &Path) -> Option<u64> {
    let out = std::process::Command::new("/usr/bin/time")
        .args(["-f", "%M"])
        .arg(env!("CARGO_BIN_EXE_knights-tour"))
        .args(["verify", "-q"])
        .arg(path)
        .output()
        .ok()?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    stderr.lines().last()?.trim().parse().ok()
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
    if let (Some(ours), Some(floor)) = (mean_ns("verify_path"), mean_ns("calamine_worksheet_range"))
    {
        println!(
            "verify_path / calamine_worksheet_range = {:.2}x ({:.0} ms / {:.0} ms; target <= 1.0x)",
            ours / floor,
            ours / 1e6,
            floor / 1e6
        );
    }
    match cli_peak_kb(&path) {
        Some(kb) => println!(
            "knights-tour verify -q {}: peak RSS {:.1} MB (target < 50 MB)",
            path.display(),
            kb as f64 / 1000.0
        ),
        None => println!("peak RSS not measured (/usr/bin/time -f %M did not run)"),
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
