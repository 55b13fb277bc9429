//! What people get when they print: LibreOffice converts our workbooks to PDF and poppler's
//! `pdfinfo`/`pdftotext` measure the pages. Ignored by default (it needs LibreOffice, poppler
//! and Gnumeric, and takes a minute); run with
//! `cargo test --test libreoffice_print -- --ignored --nocapture`.
//!
//! Checked: each tour sheet and the Summary print one page wide (a 100x100 board on one or two
//! of pages one above the other, an 8x8 board and the Summary on one page each), tour sheets
//! print landscape, a class report's Results and marked sheets print on a page each, the template's board is at least 5 inches wide, and Gnumeric's `ssconvert`
//! converts every file to .ods without an error. PNGs of the pages are left in
//! `target/print-check/` to look at.

use std::path::{Path, PathBuf};
use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;
use knights_tour::board::{Board, Square};
use knights_tour::tour::Tour;
use knights_tour::verify::completion::{write_completions, CompletedSheet, SheetResult};
use knights_tour::workbook::cellref::CellRef;

use crate::support::CLOSED_8X8;

fn out_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("print-check");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn knights_tour(dir: &Path, args: &[&str]) {
    let status = Command::cargo_bin("knights-tour")
        .unwrap()
        .current_dir(dir)
        .env("SOURCE_DATE_EPOCH", "1700000000")
        .args(args)
        .status()
        .unwrap();
    assert!(status.code().is_some_and(|c| c <= 1), "{args:?}: {status}");
}

/// `soffice --headless --convert-to pdf`, niced, with a profile of its own (other LibreOffice
/// runs on the machine must not share it).
fn to_pdf(file: &Path) -> PathBuf {
    let dir = file.parent().unwrap();
    let profile = format!("file://{}/lo-profile", dir.display());
    let status = Command::new("nice")
        .args(["-n", "10", "soffice"])
        .arg(format!("-env:UserInstallation={profile}"))
        .args(["--headless", "--convert-to", "pdf", "--outdir"])
        .arg(dir)
        .arg(file)
        .status()
        .unwrap();
    assert!(status.success(), "soffice on {}", file.display());
    let pdf = file.with_extension("pdf");
    assert!(pdf.exists(), "{}", pdf.display());
    pdf
}

/// Page sizes `(width, height)` in points, from `pdfinfo -f 1 -l N`.
fn page_sizes(pdf: &Path) -> Vec<(f64, f64)> {
    let out = Command::new("pdfinfo")
        .args(["-f", "1", "-l", "100000"])
        .arg(pdf)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .filter(|l| l.starts_with("Page") && l.contains(" size: "))
        .map(|l| {
            let dims = l.split(" size: ").nth(1).unwrap();
            let mut it = dims.split_whitespace();
            let w: f64 = it.next().unwrap().parse().unwrap();
            it.next();
            let h: f64 = it.next().unwrap().parse().unwrap();
            (w, h)
        })
        .collect()
}

fn page_text(pdf: &Path, page: usize) -> String {
    let out = Command::new("pdftotext")
        .args(["-layout", "-f", &page.to_string(), "-l", &page.to_string()])
        .arg(pdf)
        .arg("-")
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// How many pages each sheet prints on: a page starts a new sheet when it carries one of the
/// `titles` (in sheet order); later pages without a title continue the sheet before.
fn pages_per_sheet(pdf: &Path, titles: &[&str]) -> Vec<usize> {
    let pages = page_sizes(pdf).len();
    let mut counts = vec![0; titles.len()];
    let mut current = None;
    for p in 1..=pages {
        let text = page_text(pdf, p);
        if let Some(i) = titles.iter().position(|t| text.contains(t)) {
            current = Some(i);
        }
        let i = current.unwrap_or_else(|| panic!("page {p} of {} before any title", pdf.display()));
        counts[i] += 1;
    }
    counts
}

/// Render the PDF's pages as PNGs (60 dpi) beside it, to look at.
fn to_png(pdf: &Path) {
    let prefix = pdf.with_extension("");
    let status = Command::new("pdftoppm")
        .args(["-png", "-r", "60"])
        .arg(pdf)
        .arg(&prefix)
        .status()
        .unwrap();
    assert!(status.success());
}

fn ssconvert_to_ods(file: &Path) {
    let ods = file.with_extension("ods");
    let out = Command::new("nice")
        .args(["-n", "10", "ssconvert"])
        .arg(file)
        .arg(&ods)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!("ssconvert {}: {}", file.display(), stderr.trim());
    assert!(
        out.status.success(),
        "ssconvert {}: {stderr}",
        file.display()
    );
    // Gnumeric warns about what it does not support (colour scales, the element that hides
    // Excel's "number stored as text" flags); an error is something else.
    let errors = stderr
        .to_lowercase()
        .replace("ignorederrors", "")
        .contains("error");
    assert!(!errors, "ssconvert {}: {stderr}", file.display());
    assert!(ods.exists());
}

fn landscape((w, h): (f64, f64)) -> bool {
    w > h
}

#[test]
#[cfg_attr(
    not(feature = "external"),
    ignore = "needs LibreOffice, poppler-utils and gnumeric: cargo test --features external"
)]
fn printed_pages_are_one_page_wide_and_the_template_board_is_big() {
    for (tool, package) in [
        ("soffice", "libreoffice-calc fonts-crosextra-carlito"),
        ("pdfinfo", "poppler-utils"),
        ("pdftotext", "poppler-utils"),
        ("pdftoppm", "poppler-utils"),
        ("ssconvert", "gnumeric"),
    ] {
        crate::support::require_program(tool, &format!("apt-get install -y {package}"));
    }
    let dir = out_dir();

    // The default 8x8 workbook: one tour sheet and the Summary, one page each, landscape.
    knights_tour(&dir, &["generate", "--seed", "1", "-o", "tour-8x8.xlsx"]);
    let pdf = to_pdf(&dir.join("tour-8x8.xlsx"));
    to_png(&pdf);
    let sizes = page_sizes(&pdf);
    let counts = pages_per_sheet(&pdf, &["Tour 1 of 1", "Solved after"]);
    eprintln!("8x8: pages {sizes:?}, per sheet {counts:?}");
    assert_eq!(counts, [1, 1], "8x8 tour and Summary on a page each");
    assert!(sizes.iter().copied().all(landscape), "{sizes:?}");

    // 100x100 with failed attempts (seed 7: two stuck attempts, then a tour).
    knights_tour(
        &dir,
        &["generate", "--size", "100", "--seed", "7", "-o", "big.xlsx"],
    );
    let pdf = to_pdf(&dir.join("big.xlsx"));
    let sizes = page_sizes(&pdf);
    let titles = [
        "Attempt 1 of 3",
        "Attempt 2 of 3",
        "Tour 3 of 3",
        "Failed after",
        "Solved after",
    ];
    let counts = pages_per_sheet(&pdf, &titles);
    eprintln!("100x100: pages {sizes:?}, per sheet {counts:?}");
    // One page wide, so a sheet takes only the pages it needs downwards: 100 rows at the
    // scale that fits 100 columns are 1-2 pages. Two pages wide would double that at least.
    for (t, &n) in titles.iter().zip(&counts).take(3) {
        assert!((1..=2).contains(&n), "{t}: {n} pages");
    }
    assert_eq!(counts[3] + counts[4], 1, "the Summary on one page");
    assert!(sizes.iter().copied().all(landscape), "{sizes:?}");
    to_png(&pdf);

    // The template: one portrait page, the board at least 5 inches wide. The file letters
    // a and h are the centres of the first and last columns: 7 squares apart.
    knights_tour(&dir, &["template", "-o", "template.xlsx"]);
    let pdf = to_pdf(&dir.join("template.xlsx"));
    to_png(&pdf);
    let sizes = page_sizes(&pdf);
    assert_eq!(sizes.len(), 1, "{sizes:?}");
    let out = Command::new("pdftotext")
        .args(["-bbox"])
        .arg(&pdf)
        .arg("-")
        .output()
        .unwrap();
    let html = String::from_utf8_lossy(&out.stdout);
    let centre_of = |word: &str| -> f64 {
        let line = html
            .lines()
            .find(|l| l.contains(&format!(">{word}</word>")))
            .unwrap_or_else(|| panic!("no word {word} in {html}"));
        let attr = |name: &str| -> f64 {
            line.split(&format!("{name}=\""))
                .nth(1)
                .and_then(|s| s.split('"').next())
                .unwrap()
                .parse()
                .unwrap()
        };
        (attr("xMin") + attr("xMax")) / 2.0
    };
    let board_in = (centre_of("h") - centre_of("a")) * 8.0 / 7.0 / 72.0;
    eprintln!("template: page {sizes:?}, board {board_in:.2} inches wide");
    assert!(
        board_in >= 5.0,
        "the template's board is {board_in:.2} in wide"
    );

    // A completed workbook: the completed sheet and its Summary, one page each.
    let squares = CLOSED_8X8.iter().map(|&(r, c)| Square::new(r, c));
    let tour = Tour::from_squares(Board::new(8, 8).unwrap(), squares).unwrap();
    let item = CompletedSheet {
        file: "class-3b.xlsx".into(),
        sheet: "Attempt 2 (stuck)".into(),
        top_left: CellRef::new(2, 2),
        result: SheetResult::Completed { tour, kept: 20 },
    };
    let completed = dir.join("completed.xlsx");
    write_completions(&[item], std::fs::File::create(&completed).unwrap()).unwrap();
    let pdf = to_pdf(&completed);
    to_png(&pdf);
    let counts = pages_per_sheet(&pdf, &["Completed: 'Attempt 2", "Completions of failed"]);
    let sizes = page_sizes(&pdf);
    eprintln!("completed: pages {sizes:?}, per sheet {counts:?}");
    assert_eq!(counts, [1, 1]);
    assert!(
        page_text(&pdf, 1).contains("Numbers are move numbers"),
        "the notes print with the board"
    );

    // A class report (issue 19): the Results sheet and each marked sheet (a failed attempt,
    // an invalid grid, an invalid list of 64 squares) on one page each.
    let class = dir.join("class");
    std::fs::create_dir_all(&class).unwrap();
    knights_tour(
        &class,
        &["generate", "--size", "5", "--seed", "1", "-o", "ann.xlsx"],
    );
    std::fs::write(class.join("ben.csv"), "1,4,7,10\n12,8,2,5\n3,6,11,9\n").unwrap();
    let mut squares: Vec<String> = CLOSED_8X8
        .iter()
        .map(|&(r, c)| format!("{}{}", (b'a' + c as u8) as char, 8 - r))
        .collect();
    squares[10] = squares[3].clone();
    std::fs::write(class.join("cy.csv"), squares.join("\n") + "\n").unwrap();
    knights_tour(&dir, &["verify", "class", "-o", "class-report.xlsx"]);
    let pdf = to_pdf(&dir.join("class-report.xlsx"));
    to_png(&pdf);
    let titles = [
        "Knight's tour class report",
        "ann.xlsx, sheet",
        "ben.csv, sheet",
        "cy.csv, sheet",
    ];
    let counts = pages_per_sheet(&pdf, &titles);
    eprintln!("class report: per sheet {counts:?}");
    assert_eq!(counts, [1, 1, 1, 1]);

    for name in [
        "tour-8x8.xlsx",
        "big.xlsx",
        "template.xlsx",
        "completed.xlsx",
        "class-report.xlsx",
    ] {
        ssconvert_to_ods(&dir.join(name));
    }
    eprintln!("PNGs in {}", dir.display());
}
