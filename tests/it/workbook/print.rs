//! Workbooks and pictures people read, print and trust: a1 is dark everywhere, closed tours
//! draw their closing move, sheets carry text rank/file labels and a print setup, start and end
//! are marked by cell styles, and the creation time is real (or `SOURCE_DATE_EPOCH`).

use std::io::Cursor;

use calamine::{Data, Reader};
use knights_tour::board::{Board, Square};
use knights_tour::draw::{self, raster::Ink, DrawOptions, Geometry, Numbers};
use knights_tour::generate::workbook::{PathDrawing, WorkbookSpec};
use knights_tour::solve::{Attempt, Method};
use knights_tour::tour::Tour;
use knights_tour::verify::{verify_path, Verdict, VerifyOptions};

use crate::support::cmd;
use crate::support::xlsx_bytes::{drawn_moves, fill_at, moves_of, open, part, write};
use crate::support::CLOSED_8X8;

fn closed_8x8() -> Tour {
    let squares = CLOSED_8X8.iter().map(|&(r, c)| Square::new(r, c));
    let tour = Tour::from_squares(Board::new(8, 8).unwrap(), squares).unwrap();
    assert!(tour.is_closed());
    tour
}

#[test]
fn a1_is_dark_in_pictures_of_odd_and_even_boards() {
    let opts = DrawOptions {
        size_px: Some(300),
        numbers: Numbers::Off,
        path: false,
        ..DrawOptions::default()
    };
    for (rows, cols) in [(5, 5), (8, 8), (5, 6), (6, 5), (3, 4)] {
        let board = Board::new(rows, cols).unwrap();
        let tour = Tour::from_squares(board, [Square::new(0, 0)]).unwrap();
        let geom = Geometry::new(board, opts.size_px);
        let mut png = Vec::new();
        draw::png(&tour, &opts, &mut png).unwrap();
        let decoder = png::Decoder::new(Cursor::new(&png));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        let at = |sq: Square| {
            // A corner pixel of the square, away from any marker at its centre.
            let (x0, y0, _, _) = geom.square_pixels(sq);
            let i = ((y0 as usize + 1) * info.width as usize + x0 as usize + 1) * 3;
            [buf[i], buf[i + 1], buf[i + 2]]
        };
        let a1 = Square::new(rows - 1, 0);
        let b1 = Square::new(rows - 1, 1);
        let dark = |sq| [Ink::Dark.rgb(), Ink::DarkUnvisited.rgb()].contains(&at(sq));
        assert!(dark(a1), "{rows}x{cols}: a1 is {:?}", at(a1));
        assert!(!dark(b1), "{rows}x{cols}: b1 is {:?}", at(b1));
        // The SVG pattern starts with the top-left square's colour.
        let svg = draw::svg(&tour, &opts);
        let first_fill = svg
            .split("<pattern")
            .nth(1)
            .and_then(|p| p.split("fill=\"").nth(1))
            .map(|f| f[..7].to_string())
            .unwrap();
        let top_left_dark = board.is_dark(Square::new(0, 0));
        let want = if top_left_dark { Ink::Dark } else { Ink::Light };
        assert_eq!(first_fill, want.hex(), "{rows}x{cols}");
    }
}

#[test]
fn a1_is_dark_on_odd_and_even_templates() {
    for (rows, cols, a1_cell, b1_cell) in [
        (8u32, 8u32, (9u32, 2u32), (9u32, 3u32)),
        (5, 6, (6, 2), (6, 3)),
        (5, 5, (6, 2), (6, 3)),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let (r, c) = (rows.to_string(), cols.to_string());
        cmd()
            .current_dir(dir.path())
            .args(["template", "--rows", &r, "--cols", &c, "-o", "t.xlsx"])
            .assert()
            .success();
        let bytes = std::fs::read(dir.path().join("t.xlsx")).unwrap();
        let a1 = fill_at(&bytes, "Tour", a1_cell.0, a1_cell.1).unwrap();
        let b1 = fill_at(&bytes, "Tour", b1_cell.0, b1_cell.1).unwrap();
        assert_eq!(a1, 0xD9C3A5, "{rows}x{cols}: a1 dark");
        assert_eq!(b1, 0xF7F0E1, "{rows}x{cols}: b1 light");
    }
}

#[test]
fn a_closed_tours_chart_draws_the_closing_move() {
    let tour = closed_8x8();
    let mut spec = WorkbookSpec::new(vec![Attempt::new(tour.clone(), true, Method::Warnsdorff)]);
    spec.created = Some(std::time::UNIX_EPOCH);
    spec.draw_path = PathDrawing::On;
    let bytes = write(&spec);
    let drawn = drawn_moves(&bytes, "Tour 1", 8);
    assert_eq!(drawn, moves_of(&tour));
    assert_eq!(drawn.len(), 64, "the closing move too");
    let chart = part(&bytes, "xl/charts/chart1.xml");
    // No markers over the digits: only the path line.
    assert!(!chart.contains("<c:symbol val=\"circle\""), "{chart}");
    // An open tour stops at its last square.
    let open_tour = tour.truncated(63);
    let mut spec = WorkbookSpec::new(vec![Attempt::new(
        open_tour.clone(),
        true,
        Method::Warnsdorff,
    )]);
    spec.created = Some(std::time::UNIX_EPOCH);
    spec.draw_path = PathDrawing::On;
    let drawn = drawn_moves(&write(&spec), "Tour 1", 8);
    assert_eq!(drawn, moves_of(&open_tour));
    assert_eq!(drawn.len(), 62);
}

#[test]
fn start_and_end_are_marked_by_cell_styles_and_labels_are_text() {
    let tour = closed_8x8();
    let mut spec = WorkbookSpec::new(vec![Attempt::new(tour.clone(), true, Method::Warnsdorff)]);
    spec.created = Some(std::time::UNIX_EPOCH);
    let bytes = write(&spec);
    let (s, e) = (tour.start().unwrap(), tour.end().unwrap());
    assert_eq!(
        fill_at(&bytes, "Tour 1", 2 + s.row, 2 + s.col),
        Some(0xFFFF00)
    );
    assert_eq!(
        fill_at(&bytes, "Tour 1", 2 + e.row, 2 + e.col),
        Some(0xD9C2EC)
    );
    let mut wb = open(&bytes);
    let cells = wb.worksheet_range("Tour 1").unwrap();
    for r in 0..8u32 {
        let want = (8 - r).to_string();
        assert_eq!(cells.get_value((2 + r, 1)), Some(&Data::String(want)));
    }
    for c in 0..8u32 {
        let want = ((b'a' + c as u8) as char).to_string();
        assert_eq!(cells.get_value((1, 2 + c)), Some(&Data::String(want)));
    }
}

/// The print setup of a sheet: `(landscape, fit to width, fit to height, scale)` and its
/// print area.
fn print_setup(bytes: &[u8], sheet_index: usize) -> (String, String) {
    let sheet = part(bytes, &format!("xl/worksheets/sheet{sheet_index}.xml"));
    let setup = sheet
        .split("<pageSetup")
        .nth(1)
        .map(|s| s.split("/>").next().unwrap_or("").to_string())
        .unwrap_or_default();
    let fit = if sheet.contains("<pageSetUpPr fitToPage=\"1\"/>") {
        " fitToPage"
    } else {
        ""
    };
    let workbook = part(bytes, "xl/workbook.xml");
    (format!("{setup}{fit}"), workbook)
}

#[test]
fn every_sheet_prints_one_page_wide_with_its_labels_and_notes() {
    let tour = closed_8x8();
    let mut spec = WorkbookSpec::new(vec![
        Attempt::new(tour.truncated(20), false, Method::Warnsdorff),
        Attempt::new(tour, true, Method::Warnsdorff),
    ]);
    spec.created = Some(std::time::UNIX_EPOCH);
    let bytes = write(&spec);
    for i in 1..=3 {
        let (setup, workbook) = print_setup(&bytes, i);
        assert!(
            setup.contains("orientation=\"landscape\""),
            "sheet {i}: {setup}"
        );
        if i == 3 {
            // The Summary: one page wide, as many tall as it takes.
            assert!(setup.contains("fitToPage"), "sheet {i}: {setup}");
            assert!(setup.contains("fitToHeight=\"0\""), "sheet {i}: {setup}");
        } else {
            // A small board is enlarged to fill the page, or fitted to its width.
            assert!(
                setup.contains("scale=\"") || setup.contains("fitToPage"),
                "sheet {i}: {setup}"
            );
        }
        assert!(workbook.contains("_xlnm.Print_Area"), "{workbook}");
    }
    let workbook = part(&bytes, "xl/workbook.xml");
    // Tour sheets print from the rank labels (column B) and the title (row 1).
    assert!(workbook.contains("'Tour 2'!$B$1:"), "{workbook}");
    assert!(
        workbook.contains("_xlnm.Print_Titles"),
        "Summary repeats its header"
    );
}

#[test]
fn source_date_epoch_fixes_the_creation_time_and_otherwise_it_is_now() {
    let dir = tempfile::tempdir().unwrap();
    // Two runs with the same command line (it is recorded) in two folders.
    for sub in ["a", "b"] {
        std::fs::create_dir(dir.path().join(sub)).unwrap();
        cmd()
            .current_dir(dir.path().join(sub))
            .env("SOURCE_DATE_EPOCH", "1700000000")
            .args(["generate", "--size", "6", "--seed", "5", "-o", "t.xlsx"])
            .assert()
            .success();
        std::thread::sleep(std::time::Duration::from_millis(1100));
    }
    let a = std::fs::read(dir.path().join("a/t.xlsx")).unwrap();
    let b = std::fs::read(dir.path().join("b/t.xlsx")).unwrap();
    assert!(a == b, "byte-identical with SOURCE_DATE_EPOCH");
    let core = part(&a, "docProps/core.xml");
    assert!(core.contains("2023-11-14T22:13:20Z"), "{core}");
    cmd()
        .current_dir(dir.path())
        .env("SOURCE_DATE_EPOCH", "1700000000")
        .args(["template", "-o", "t.xlsx"])
        .assert()
        .success();
    let t = std::fs::read(dir.path().join("t.xlsx")).unwrap();
    assert!(part(&t, "docProps/core.xml").contains("2023-11-14T22:13:20Z"));
    // Without it: the real time of writing.
    cmd()
        .current_dir(dir.path())
        .env_remove("SOURCE_DATE_EPOCH")
        .args(["generate", "--size", "6", "--seed", "5", "-o", "c.xlsx"])
        .assert()
        .success();
    let c = std::fs::read(dir.path().join("c.xlsx")).unwrap();
    let core = part(&c, "docProps/core.xml");
    let stamp = core
        .split("<dcterms:created xsi:type=\"dcterms:W3CDTF\">")
        .nth(1)
        .and_then(|s| s.get(..4))
        .unwrap();
    let year: u32 = stamp.parse().unwrap();
    let now_year = 1970
        + (std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs()
            / 31_556_952) as u32;
    assert!(year == now_year || year + 1 == now_year, "{core}");
    assert!(!core.contains("2000-01-01"), "{core}");
}

#[test]
fn labelled_sheets_verify_with_the_verdict_they_claim() {
    let dir = tempfile::tempdir().unwrap();
    cmd()
        .current_dir(dir.path())
        .args([
            "generate", "--size", "8", "--closed", "--seed", "2", "-o", "g.xlsx",
        ])
        .assert()
        .success();
    let report = verify_path(&dir.path().join("g.xlsx"), &VerifyOptions::default());
    let tour = report
        .sheets
        .iter()
        .find(|s| s.sheet.starts_with("Tour"))
        .unwrap();
    assert_eq!(tour.verdict, Verdict::Closed);
    let board = tour.board.as_ref().unwrap();
    assert_eq!(
        (board.top_left.to_string().as_str(), board.rows, board.cols),
        ("C3", 8, 8)
    );
}
