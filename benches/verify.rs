//! Verifying 1000x1000 boards next to calamine merely reading the same workbooks.
//!
//! The floor is calamine opening the xlsx and building the board's sheet as a range
//! (`worksheet_range`), the least any calamine-based checker must do; the target is
//! `verify_path` within 1.0x of it (no slower) on each file, and the CLI's peak memory on each
//! under 50 MB. Three files, each a million move numbers:
//! - `plain`: a valid open tour (Warnsdorff with a centre tie-break, computed here), nothing
//!   else on the sheet; a second floor streams its cells (`worksheet_cells_reader`);
//! - `generated`: `knights-tour generate --size 1000 --tiebreak center --seed 1`, the tool's
//!   own workbook (a title, file letters and rank numbers around the board, styles, notes
//!   beside it, a Summary sheet), so detection has labels to strip;
//! - `charted`: the same with `--path on`: the knight's path drawn as a chart over the board,
//!   its million points in the hidden `Path data` sheet (83 MB of XML, not read by `verify`);
//! - `invalid`: the plain tour as a person might leave it: two moves swapped, one number
//!   typed twice, one square blank and one holding text, so detection takes its general path
//!   and the check lists problems.
//!
//! - `text` against `csv`: the plain tour as space-separated text (`8 1 10 13 ...` a line,
//!   read as one cell a line and laid out by the text layer) and as CSV (cells from the
//!   reader): the text layer's cost on a big printed grid, as the ratio of the two.
//!
//! The run ends by printing, for each file, the ratio timed in alternation (the median of seven
//! calamine/ours pairs, each pair under the same load, as the machine may be shared) for
//! `verify_path` in process and for verifying through the reader process as the CLI does, the
//! ratios of criterion's means, and the CLI's peak memory (the command and its reader process
//! together, from /proc); then a 500-workbook class report (`verify DIR -o report.xlsx`: time
//! and peak), and what a reader process costs a small workbook (start-up and protocol), all
//! measured in this run. The workbooks are
//! written once to `bench-verify-*-1000x1000.xlsx` in the target directory's `tmp` folder
//! (`CARGO_TARGET_TMPDIR`, so `CARGO_TARGET_DIR` is honoured) and kept for measurements:
//! `/usr/bin/time -v target/release/knights-tour verify -q target/tmp/bench-verify-generated-1000x1000.xlsx`.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use calamine::{open_workbook, Reader, Xlsx};
use criterion::{criterion_group, criterion_main, Criterion, SamplingMode};
use knights_tour::verify::{verify_path, verify_path_with, Verdict, VerifyOptions};
use knights_tour::workbook::read::watched::{Limits, Opener};

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

/// The benchmark's files: what each is, and the sheet its board is on.
#[derive(Clone, Copy)]
enum File {
    Plain,
    Generated,
    Charted,
    Invalid,
}

impl File {
    const ALL: [File; 4] = [File::Plain, File::Generated, File::Charted, File::Invalid];

    fn name(self) -> &'static str {
        match self {
            File::Plain => "plain",
            File::Generated => "generated",
            File::Charted => "charted",
            File::Invalid => "invalid",
        }
    }

    fn sheet(self) -> &'static str {
        match self {
            File::Generated | File::Charted => "Tour 1",
            File::Plain | File::Invalid => "Tour",
        }
    }

    fn path(self) -> PathBuf {
        Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("bench-verify-{}-1000x1000.xlsx", self.name()))
    }

    /// The criterion group measuring this file.
    fn group(self) -> String {
        format!("verify_1000x1000_{}", self.name())
    }

    /// Write the file (once), then check it reads with the verdict it is made for.
    fn prepare(self) -> PathBuf {
        let path = self.path();
        if !path.exists() {
            match self {
                File::Plain => write_workbook(&path, &tour_numbers()),
                File::Invalid => write_workbook(&path, &spoilt(tour_numbers())),
                File::Generated => generate(&path, &[]),
                File::Charted => generate(&path, &["--path", "on"]),
            }
        }
        let report = verify_path(&path, &VerifyOptions::default());
        let sheet = report
            .sheets
            .iter()
            .find(|s| s.sheet == self.sheet())
            .expect("the board's sheet is reported");
        assert_eq!(sheet.boards.len(), 1, "{}", self.name());
        let b = &sheet.boards[0];
        assert_eq!(
            (b.board.rows, b.board.cols),
            (SIDE, SIDE),
            "{}",
            self.name()
        );
        let valid = matches!(b.verdict, Verdict::Open | Verdict::Closed);
        assert_eq!(
            valid,
            !matches!(self, File::Invalid),
            "{}: {:?} {:?}",
            self.name(),
            b.verdict,
            b.problems.first()
        );
        path
    }
}

fn tour_numbers() -> Vec<u32> {
    [(0, 0), (0, 1), (1, 0), (2, 3), (500, 500)]
        .into_iter()
        .find_map(|s| warnsdorff(SIDE, s))
        .expect("Warnsdorff found a 1000x1000 tour from one of the starts")
}

/// The tour with mistakes: two moves swapped, a number typed twice, a square left blank
/// (0 here) and one holding text (`u32::MAX`), all inside the board.
fn spoilt(mut numbers: Vec<u32>) -> Vec<u32> {
    let at = |r: u32, c: u32| (r * SIDE + c) as usize;
    numbers.swap(at(100, 100), at(700, 300));
    numbers[at(400, 400)] = numbers[at(400, 401)];
    numbers[at(500, 500)] = 0;
    numbers[at(600, 600)] = u32::MAX;
    numbers
}

/// Move numbers by square as a sheet `Tour` from A1 (0 is a blank square, `u32::MAX` text).
fn write_workbook(path: &Path, numbers: &[u32]) {
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet_with_constant_memory().unwrap();
    sheet.set_name("Tour").unwrap();
    for r in 0..SIDE {
        for c in 0..SIDE as u16 {
            match numbers[(r * SIDE + u32::from(c)) as usize] {
                0 => {}
                u32::MAX => {
                    sheet.write_string(r, c, "x").unwrap();
                }
                n => {
                    sheet.write_number(r, c, f64::from(n)).unwrap();
                }
            }
        }
    }
    book.save(path).unwrap();
}

/// The tool's own workbook, written by the CLI.
fn generate(path: &Path, extra: &[&str]) {
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_knights-tour"))
        .args(["generate", "--size", "1000", "--tiebreak", "center"])
        .args(["--seed", "1", "--force"])
        .args(extra)
        .arg("-o")
        .arg(path)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .expect("knights-tour generate runs");
    assert!(status.success(), "generate --size 1000 failed");
}

/// The mean time criterion measured for `function` in `group`, in nanoseconds.
fn mean_ns(group: &str, function: &str) -> Option<f64> {
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).parent()?;
    let path = target
        .join("criterion")
        .join(group)
        .join(function)
        .join("new/estimates.json");
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
    json["mean"]["point_estimate"].as_f64()
}

/// The peak resident memory of a process (`VmHWM`), in KB, while it runs (Linux).
fn peak_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The children of a process (Linux).
fn children(pid: u32) -> Vec<u32> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    tasks
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join("children")).ok())
        .flat_map(|c| {
            c.split_whitespace()
                .filter_map(|p| p.parse().ok())
                .collect::<Vec<u32>>()
        })
        .collect()
}

/// The CLI run with `args`: its time, and the peak memory of the command and of its reader
/// processes added together (each one's own peak, sampled every millisecond while it runs: an
/// upper bound of what they hold at once), in KB.
fn cli_run(args: &[&std::ffi::OsStr]) -> (Duration, Option<u64>) {
    let started = Instant::now();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_knights-tour"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the CLI starts");
    let mut peaks = std::collections::HashMap::new();
    while child.try_wait().ok().flatten().is_none() {
        for pid in std::iter::once(child.id()).chain(children(child.id())) {
            if let Some(kb) = peak_kb(pid) {
                let peak = peaks.entry(pid).or_insert(0);
                *peak = kb.max(*peak);
            }
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let elapsed = started.elapsed();
    (elapsed, (!peaks.is_empty()).then(|| peaks.values().sum()))
}

/// The CLI's peak memory verifying `path` (the command and its reader together), in KB.
fn cli_peak_kb(path: &Path) -> Option<u64> {
    cli_run(&["verify".as_ref(), "-q".as_ref(), path.as_os_str()]).1
}

/// Verifying `path` as the command line does: the workbook parsed in a reader process.
fn watched(opener: &mut Opener, path: &Path) -> knights_tour::verify::FileReport {
    verify_path_with(opener, path, &VerifyOptions::default())
}

/// A reader process for the benchmark: this build's CLI.
fn opener() -> Opener {
    Opener::watched_with(
        PathBuf::from(env!("CARGO_BIN_EXE_knights-tour")),
        Limits::default(),
    )
}

/// A class's folder: `n` small workbooks, an 8x8 tour in each, every third with two moves
/// swapped, every fifth cut short (written once).
fn class_folder(n: usize) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("bench-verify-class-{n}"));
    if dir.join(format!("{:03}.xlsx", n - 1)).exists() {
        return dir;
    }
    std::fs::create_dir_all(&dir).unwrap();
    let tour = [(0, 0), (0, 1), (2, 3), (3, 3)]
        .into_iter()
        .find_map(|s| warnsdorff(8, s))
        .expect("an 8x8 tour from one of the starts");
    for i in 0..n {
        let mut numbers = tour.clone();
        if i % 3 == 1 {
            numbers.swap(10, 20);
        }
        if i % 5 == 2 {
            for v in numbers.iter_mut().filter(|v| **v > 50) {
                *v = 0;
            }
        }
        let mut book = rust_xlsxwriter::Workbook::new();
        let sheet = book.add_worksheet();
        sheet.set_name("Tour").unwrap();
        for (k, &v) in numbers.iter().enumerate() {
            if v > 0 {
                let (r, c) = ((k / 8) as u32 + 1, (k % 8) as u16 + 1);
                sheet.write_number(r, c, f64::from(v)).unwrap();
            }
        }
        book.save(dir.join(format!("{i:03}.xlsx"))).unwrap();
    }
    dir
}

/// Microseconds a file of `files` small workbooks costs: read in this process, through one
/// reader process reused (the CLI's way), and through a new reader process for each.
fn per_file_costs(files: &[PathBuf]) -> (f64, f64, f64) {
    let per_file = |t: Instant| t.elapsed().as_secs_f64() * 1e6 / files.len() as f64;
    let t = Instant::now();
    for f in files {
        black_box(verify_path(f, &VerifyOptions::default()));
    }
    let in_process = per_file(t);
    let t = Instant::now();
    let mut reused = opener();
    for f in files {
        black_box(watched(&mut reused, f));
    }
    let reused = per_file(t);
    let t = Instant::now();
    for f in files {
        black_box(watched(&mut opener(), f));
    }
    (in_process, reused, per_file(t))
}

/// calamine's dense read of the board's sheet: the floor.
fn calamine_range(path: &Path, sheet: &str) -> (usize, usize) {
    let mut book: Xlsx<_> = open_workbook(path).unwrap();
    book.worksheet_range(sheet).unwrap().get_size()
}

fn ours(path: &Path) -> knights_tour::verify::FileReport {
    verify_path(path, &VerifyOptions::default())
}

/// Ours (`ours`) over calamine's, timed in alternation.
fn paired_ratio(file: File, ours: &mut dyn FnMut(&Path)) -> (f64, f64, f64) {
    let path = file.path();
    alternate(&mut || ours(&path), &mut || {
        black_box(calamine_range(&path, file.sheet()));
    })
}

/// `a`'s time over `b`'s, timed in alternation (b, a, b, a, ...) `PAIRS` times: the median of
/// the pairs' ratios and the two median times in ms. On a shared machine the load drifts
/// between criterion's blocks of one function and the next; a pair sees the same load.
fn alternate(a: &mut dyn FnMut(), b: &mut dyn FnMut()) -> (f64, f64, f64) {
    const PAIRS: usize = 7;
    let time = |f: &mut dyn FnMut()| {
        let t = Instant::now();
        f();
        t.elapsed().as_secs_f64() * 1e3
    };
    let mut pairs: Vec<(f64, f64)> = (0..PAIRS)
        .map(|_| {
            let second = time(b);
            (time(a), second)
        })
        .collect();
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let mut ratios: Vec<f64> = pairs.iter().map(|(x, y)| x / y).collect();
    let mut x: Vec<f64> = pairs.iter().map(|p| p.0).collect();
    let mut y: Vec<f64> = pairs.drain(..).map(|p| p.1).collect();
    (median(&mut ratios), median(&mut x), median(&mut y))
}

/// The plain tour as text: `.csv` (comma-separated) or `.txt` (space-separated).
fn text_path(ext: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("bench-verify-plain-1000x1000.{ext}"))
}

/// Write the plain tour as CSV and as space-separated text (once), and check both read.
fn prepare_text() -> (PathBuf, PathBuf) {
    let (csv, txt) = (text_path("csv"), text_path("txt"));
    if !csv.exists() || !txt.exists() {
        let numbers = tour_numbers();
        for (path, sep) in [(&csv, ","), (&txt, " ")] {
            let mut out = String::with_capacity(numbers.len() * 7);
            for row in numbers.chunks(SIDE as usize) {
                let cells: Vec<String> = row.iter().map(u32::to_string).collect();
                out.push_str(&cells.join(sep));
                out.push('\n');
            }
            std::fs::write(path, out).unwrap();
        }
    }
    for path in [&csv, &txt] {
        let report = verify_path(path, &VerifyOptions::default());
        let b = &report.sheets[0].boards;
        assert_eq!(b.len(), 1, "{}", path.display());
        assert!(b[0].verdict.is_complete_tour(), "{}", path.display());
        assert_eq!((b[0].board.rows, b[0].board.cols), (SIDE, SIDE));
    }
    (csv, txt)
}

fn bench(c: &mut Criterion) {
    for file in File::ALL {
        let path = file.prepare();
        let mut group = c.benchmark_group(file.group());
        group.sample_size(10);
        group.sampling_mode(SamplingMode::Flat);
        group.measurement_time(Duration::from_secs(10));
        group.bench_function("calamine_worksheet_range", |b| {
            b.iter(|| black_box(calamine_range(&path, file.sheet())))
        });
        if matches!(file, File::Plain) {
            group.bench_function("calamine_cells_reader", |b| {
                b.iter(|| {
                    let mut book: Xlsx<_> = open_workbook(&path).unwrap();
                    let mut reader = book.worksheet_cells_reader(file.sheet()).unwrap();
                    let mut count = 0usize;
                    while let Some(cell) = reader.next_cell().unwrap() {
                        count += usize::from(!matches!(cell.get_value(), calamine::DataRef::Empty));
                    }
                    black_box(count)
                })
            });
        }
        group.bench_function("verify_path", |b| b.iter(|| black_box(ours(&path))));
        let mut reader = opener();
        group.bench_function("verify_watched", |b| {
            b.iter(|| black_box(watched(&mut reader, &path)))
        });
        group.finish();
    }
    let (csv, txt) = prepare_text();
    let mut group = c.benchmark_group("verify_1000x1000_text");
    group.sample_size(10);
    group.sampling_mode(SamplingMode::Flat);
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("csv", |b| b.iter(|| black_box(ours(&csv))));
    group.bench_function("txt", |b| b.iter(|| black_box(ours(&txt))));
    group.finish();
    println!(
        "verify (in process; through the reader process as the CLI reads) / calamine_worksheet_range on each file, measured in this run (target <= 1.0x, CLI peak < 50 MB for the command and its reader together):"
    );
    let mut reader = opener();
    for file in File::ALL {
        let group = file.group();
        let means = ["verify_path", "verify_watched"].map(|f| {
            match (
                mean_ns(&group, f),
                mean_ns(&group, "calamine_worksheet_range"),
            ) {
                (Some(ours), Some(floor)) => format!(
                    "{:.2}x ({:.0} ms / {:.0} ms)",
                    ours / floor,
                    ours / 1e6,
                    floor / 1e6
                ),
                _ => "not found".to_string(),
            }
        });
        let (ratio, ours, floor) = paired_ratio(file, &mut |p| {
            black_box(verify_path(p, &VerifyOptions::default()));
        });
        let (wratio, wours, _) = paired_ratio(file, &mut |p| {
            black_box(watched(&mut reader, p));
        });
        let peak = cli_peak_kb(&file.path()).map_or("not measured (no /proc)".to_string(), |kb| {
            format!("{:.1} MB", kb as f64 / 1000.0)
        });
        println!(
            "  {:<9} in process {ratio:.2}x ({ours:.0} ms / {floor:.0} ms); reader process {wratio:.2}x ({wours:.0} ms); criterion means {} / {}; CLI peak (command + reader) {peak}",
            file.name(),
            means[0],
            means[1],
        );
    }
    let (ratio, t, c) = alternate(
        &mut || {
            black_box(ours(&txt));
        },
        &mut || {
            black_box(ours(&csv));
        },
    );
    let means = match (
        mean_ns("verify_1000x1000_text", "txt"),
        mean_ns("verify_1000x1000_text", "csv"),
    ) {
        (Some(t), Some(c)) => format!("{:.2}x", t / c),
        _ => "not found".to_string(),
    };
    let peak = |path: &Path| {
        cli_peak_kb(path).map_or("not measured".to_string(), |kb| {
            format!("{:.1} MB", kb as f64 / 1000.0)
        })
    };
    println!(
        "  the plain tour as space-separated text over CSV (target: about 1x): {ratio:.2}x in process ({t:.0} ms / {c:.0} ms); criterion means {means}; CLI peak (command + reader) txt {}, csv {}",
        peak(&txt),
        peak(&csv)
    );
    // A class's folder: 500 small workbooks into a class report (target: 30 s, 200 MB).
    let class = class_folder(500);
    let report = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-verify-class-report.xlsx");
    let (took, peak) = cli_run(&[
        "verify".as_ref(),
        class.as_os_str(),
        "-o".as_ref(),
        report.as_os_str(),
        "--force".as_ref(),
    ]);
    println!(
        "  class report of 500 workbooks (verify DIR -o report.xlsx): {:.1} s, peak (command + readers) {}",
        took.as_secs_f64(),
        peak.map_or("not measured".into(), |kb| format!("{:.1} MB", kb as f64 / 1000.0))
    );
    // What a reader process costs a file: start-up, and reading through the protocol.
    let files: Vec<PathBuf> = (0..200)
        .map(|i| class.join(format!("{i:03}.xlsx")))
        .collect();
    let (in_process, reused, fresh) = per_file_costs(&files);
    println!(
        "  a small workbook: {in_process:.0} us in process, {reused:.0} us through the reused reader process (the CLI's way), {fresh:.0} us with a new reader each: start-up {:.0} us a reader, {:.0} us a file for the protocol",
        fresh - reused,
        reused - in_process
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
