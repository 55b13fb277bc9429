//! The workbook writer, checked by reading its files back: with calamine (values, fills, sheet
//! visibility) and, for what calamine does not expose (charts, conditional formats, links,
//! document properties), by reading the XML parts of the zip.

#[path = "../../../examples/support/knight_paths.rs"]
mod knight_paths;

use std::collections::BTreeSet;

use crate::support::xlsx_bytes::{self, drawn_moves, moves_of, open, part, write};
use std::io::Cursor;

use calamine::{Data, DataType, Reader, SheetVisible};
use knights_tour::board::{Board, Square};
use knights_tour::generate::workbook::{
    save_workbook, sheet_name, write_workbook, Outcome, PathDrawing, WorkbookSpec,
};
use knights_tour::output::write_budget::WriteBudget;
use knights_tour::solve::{Attempt, Method, Tiebreak};
use knights_tour::tour::Tour;
use knights_tour::workbook::cellref::{CellRef, SHEET_COLS};
use knights_tour::workbook::write::names::{
    PATH_DATA_SHEET, SUMMARY_COLUMNS, SUMMARY_HEADER_ROW, SUMMARY_SHEET,
};
use knights_tour::workbook::write::{check_fits, WriteError};

fn has_part(bytes: &[u8], name: &str) -> bool {
    let zip = zip::ZipArchive::new(Cursor::new(bytes)).unwrap();
    zip.index_for_name(name).is_some()
}

fn eight() -> Board {
    Board::new(8, 8).unwrap()
}

fn a1(board: Board) -> Square {
    Square::new(board.rows() - 1, 0)
}

/// A complete Warnsdorff tour (checked here, so a change in the helper cannot hide).
fn full_tour(board: Board) -> Tour {
    let t = knight_paths::warnsdorff(board, a1(board));
    assert!(t.is_complete() && t.check().is_ok());
    t
}

/// A random walk until the knight is stuck, shorter than the board.
fn stuck_walk(board: Board, seed: u64) -> Tour {
    let t = knight_paths::random_walk(board, a1(board), seed);
    assert!(!t.is_complete() && t.check().is_ok());
    t
}

/// Check that the numeric cells of `sheet` are exactly `tour`'s numbering placed with the
/// board's top-left square at `top_left`, and that every other cell is text.
fn assert_board_is(bytes: &[u8], sheet: &str, tour: &Tour, top_left: CellRef) {
    let mut wb = open(bytes);
    let range = wb.worksheet_range(sheet).unwrap();
    assert_range_is(&range, sheet, tour, top_left);
}

/// [`assert_board_is`] on a range read from any workbook format.
fn assert_range_is(range: &calamine::Range<Data>, sheet: &str, tour: &Tour, top_left: CellRef) {
    let board = tour.board();
    let grid = tour.numbering();
    let mut numbers = 0;
    for (r, c, value) in range.used_cells() {
        let (row, col) = (
            r as u32 + range.start().unwrap().0,
            c as u32 + range.start().unwrap().1,
        );
        match value {
            Data::Float(_) | Data::Int(_) => {
                let inside = row >= top_left.row
                    && col >= top_left.col
                    && row < top_left.row + board.rows()
                    && col < top_left.col + board.cols();
                assert!(
                    inside,
                    "{sheet}: number {value:?} outside the board at ({row}, {col})"
                );
                let sq = Square::new(row - top_left.row, col - top_left.col);
                let want = grid[board.index(sq) as usize];
                assert_ne!(want, 0, "{sheet}: unvisited {sq:?} holds {value:?}");
                assert_eq!(value.as_f64(), Some(f64::from(want)), "{sheet} {sq:?}");
                numbers += 1;
            }
            Data::String(_) | Data::Empty => {}
            other => panic!("{sheet}: unexpected cell {other:?} at ({row}, {col})"),
        }
    }
    assert_eq!(numbers, tour.len(), "{sheet}: every move is on the board");
}

/// The solid fill colour of a cell as `0xRRGGBB`, if any.
fn fill_at(bytes: &[u8], sheet: &str, cell: CellRef) -> Option<u32> {
    xlsx_bytes::fill_at(bytes, sheet, cell.row, cell.col)
}

/// Text of all string cells of a sheet, joined.
fn sheet_text(bytes: &[u8], sheet: &str) -> String {
    let mut wb = open(bytes);
    let range = wb.worksheet_range(sheet).unwrap();
    range
        .used_cells()
        .filter_map(|(_, _, v)| match v {
            Data::String(s) => Some(s.clone()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn spec_of(attempts: Vec<Attempt>) -> WorkbookSpec {
    let mut spec = WorkbookSpec::new(attempts);
    spec.seed = Some(7);
    spec.title = "Knight's tour test".to_string();
    spec.command_line = "generate --size 8x8 --start a1 --seed 7".to_string();
    // A fixed creation time: tests compare the bytes of two writes.
    spec.created = Some(std::time::UNIX_EPOCH + std::time::Duration::from_secs(946_684_800));
    spec
}

#[test]
fn a_complete_tour_is_written_at_c3_with_a_yellow_start() {
    let tour = full_tour(eight());
    let bytes = write(&spec_of(vec![Attempt::new(
        tour.clone(),
        true,
        Method::Warnsdorff,
    )]));
    let c3 = CellRef::new(2, 2);
    assert_board_is(&bytes, "Tour 1", &tour, c3);
    // a1 is the bottom-left square: C10.
    assert_eq!(
        fill_at(&bytes, "Tour 1", CellRef::new(9, 2)),
        Some(0xFFFF00)
    );
    assert_eq!(fill_at(&bytes, "Tour 1", CellRef::new(2, 2)), None);
    let text = sheet_text(&bytes, "Tour 1");
    assert!(text.contains("Tour 1 of 1: solved"), "{text}");
    assert!(text.contains("Start a1 (yellow)"), "{text}");
}

#[test]
fn a_stuck_attempt_shows_its_partial_path_and_where_it_got_stuck() {
    let board = eight();
    let walk = stuck_walk(board, 1);
    let bytes = write(&spec_of(vec![Attempt::new(
        walk.clone(),
        false,
        Method::Warnsdorff,
    )]));
    let name = "Attempt 1 (stuck)";
    assert_board_is(&bytes, name, &walk, CellRef::new(2, 2));
    let end = walk.end().unwrap();
    let end_cell = CellRef::new(2 + end.row, 2 + end.col);
    assert_eq!(fill_at(&bytes, name, end_cell), Some(0xFF7C80));
    assert_eq!(fill_at(&bytes, name, CellRef::new(9, 2)), Some(0xFFFF00));
    let text = sheet_text(&bytes, name);
    let expected = format!(
        "Stuck after visiting {} of 64 squares: every square a knight's move from {}",
        walk.len(),
        board.algebraic(end)
    );
    assert!(text.contains(&expected), "{text}");
}

#[test]
fn sheets_are_named_by_outcome_in_order_with_summary_and_hidden_path_data() {
    let board = eight();
    let walk = stuck_walk(board, 3);
    let stopped = full_tour(board).truncated(20);
    let attempts = vec![
        Attempt::new(walk, false, Method::Warnsdorff),
        Attempt::new(stopped, false, Method::Backtrack),
        Attempt::new(full_tour(board), true, Method::Warnsdorff),
    ];
    let bytes = write(&spec_of(attempts));
    let wb = open(&bytes);
    let names: Vec<_> = wb
        .sheets_metadata()
        .iter()
        .map(|s| s.name.clone())
        .collect();
    assert_eq!(
        names,
        [
            "Attempt 1 (stuck)",
            "Attempt 2 (stopped)",
            "Tour 3",
            SUMMARY_SHEET,
            PATH_DATA_SHEET
        ]
    );
    for sheet in wb.sheets_metadata() {
        let hidden = sheet.name == PATH_DATA_SHEET;
        assert_eq!(
            sheet.visible != SheetVisible::Visible,
            hidden,
            "{}",
            sheet.name
        );
    }
}

#[test]
fn the_summary_lists_every_attempt_and_the_result() {
    let board = eight();
    let walk = stuck_walk(board, 5);
    let tour = full_tour(board);
    let mut solved = Attempt::new(tour.clone(), true, Method::Warnsdorff);
    solved.tiebreak = Some(Tiebreak::Center);
    solved.note = Some("lucky".into());
    let attempts = vec![
        Attempt::new(walk.clone(), false, Method::Warnsdorff),
        solved,
    ];
    let mut spec = spec_of(attempts);
    spec.seed = Some(u64::MAX);
    let bytes = write(&spec);
    let mut wb = open(&bytes);
    let range = wb.worksheet_range(SUMMARY_SHEET).unwrap();
    let at = |r: u32, c: u32| range.get_value((r, c)).cloned().unwrap_or(Data::Empty);
    let s = |v: &str| Data::String(v.to_string());
    assert_eq!(at(0, 0), s("Knight's tour test"));
    assert_eq!(at(1, 0), s("Solved after 2 attempts"));
    let h = SUMMARY_HEADER_ROW;
    for (c, title) in SUMMARY_COLUMNS.iter().enumerate() {
        assert_eq!(at(h, c as u32), s(title));
    }
    let rows = [
        (
            &walk,
            "Attempt 1 (stuck)",
            "stuck",
            "partial",
            "warnsdorff",
            "",
        ),
        (&tour, "Tour 2", "solved", "open", "warnsdorff", "center"),
    ];
    for (i, (t, name, result, path, method, tie)) in rows.iter().enumerate() {
        let r = h + 1 + i as u32;
        assert_eq!(at(r, 0), s(name));
        assert_eq!(at(r, 1), s("8x8"));
        assert_eq!(at(r, 2), s("a1"));
        assert_eq!(at(r, 3), s(&board.algebraic(t.end().unwrap())));
        assert_eq!(at(r, 4), s(&format!("{} of 64", t.len())));
        assert_eq!(at(r, 5), s(result));
        assert_eq!(at(r, 6), s(path));
        assert_eq!(at(r, 7), s(method));
        if !tie.is_empty() {
            assert_eq!(at(r, 8), s(tie));
        }
        assert_eq!(at(r, 9), s("18446744073709551615"));
    }
    assert_eq!(at(h + 2, 10), s("lucky"));
    // Each name links to its sheet's board.
    let xml = part(&bytes, "xl/worksheets/sheet3.xml");
    assert!(
        xml.contains(r#"location="'Attempt 1 (stuck)'!C3""#),
        "{xml}"
    );
    assert!(xml.contains(r#"location="'Tour 2'!C3""#), "{xml}");
}

#[test]
fn failure_is_reported_as_the_macro_did() {
    let board = eight();
    let attempts = (1..=3)
        .map(|seed| Attempt::new(stuck_walk(board, seed), false, Method::Warnsdorff))
        .collect();
    let bytes = write(&spec_of(attempts));
    let mut wb = open(&bytes);
    let range = wb.worksheet_range(SUMMARY_SHEET).unwrap();
    assert_eq!(
        range.get_value((1, 0)),
        Some(&Data::String("Failed after 3 attempts".into()))
    );
}

#[test]
fn path_data_draws_every_move_of_each_path() {
    let board = Board::new(6, 7).unwrap();
    let walk = knight_paths::random_walk(board, Square::new(0, 0), 11);
    let tour = full_tour(eight());
    let attempts = vec![
        Attempt::new(walk.clone(), false, Method::Warnsdorff),
        Attempt::new(tour.clone(), true, Method::Warnsdorff),
    ];
    let spec = spec_of(attempts);
    let bytes = write(&spec);
    for (i, t) in [&walk, &tour].into_iter().enumerate() {
        let name = sheet_name(i + 1, Outcome::of(&spec.attempts[i], false));
        let drawn = drawn_moves(&bytes, &name, t.board().rows());
        assert_eq!(drawn, moves_of(t), "{name}");
        assert_eq!(drawn.len(), t.len() - 1);
    }
}

#[test]
fn the_chart_covers_the_board_exactly_with_axes_on_the_squares() {
    let board = Board::new(6, 7).unwrap();
    let walk = knight_paths::random_walk(board, Square::new(0, 0), 11);
    let mut spec = spec_of(vec![Attempt::new(walk.clone(), false, Method::Warnsdorff)]);
    spec.top_left = "E4".parse().unwrap();
    let bytes = write(&spec);
    let drawing = part(&bytes, "xl/drawings/drawing1.xml");
    // From E4 (col 4, row 3) to the cell just past the board, both at offset 0.
    let from = "<xdr:from><xdr:col>4</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>3</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from>";
    let to = "<xdr:to><xdr:col>11</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>9</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:to>";
    assert!(drawing.contains(from), "{drawing}");
    assert!(drawing.contains(to), "{drawing}");
    let chart = part(&bytes, "xl/charts/chart1.xml");
    // A line chart (a scatter series would be written out of the schema's order), its
    // categories on the tick marks: category 0 is the board's left edge.
    assert!(chart.contains("<c:lineChart>"), "{chart}");
    assert!(
        chart.contains(r#"<c:crossBetween val="midCat"/>"#),
        "{chart}"
    );
    // No markers over the numbers: start and end are marked by their cells' styles.
    assert!(!chart.contains(r#"<c:symbol val="circle"/>"#), "{chart}");
    assert!(chart.contains(r#"<c:max val="6"/>"#), "{chart}");
    assert_eq!(chart.matches(r#"<c:min val="0"/>"#).count(), 1);
    assert_eq!(
        chart.matches(r#"<c:delete val="1"/>"#).count(),
        2,
        "axes hidden"
    );
    // Every series spans the 15 categories of 7 columns: columns A to O of `Path data`.
    let series = chart.matches("<c:ser>").count();
    assert_eq!(chart.matches("'Path data'!$A$").count(), series, "{chart}");
    assert_eq!(chart.matches(":$O$").count(), series, "{chart}");
    assert!(!chart.contains("<c:legend>"), "legend hidden");
    let sheet = part(&bytes, "xl/worksheets/sheet1.xml");
    assert!(
        sheet.contains("<drawing r:id="),
        "chart attached to the tour sheet"
    );
}

/// Cells named by a `sqref` like `C3:J3 C4 E4:J10`.
fn expand_sqref(sqref: &str) -> BTreeSet<CellRef> {
    let mut out = BTreeSet::new();
    for part in sqref.split(' ') {
        let (a, b) = part.split_once(':').unwrap_or((part, part));
        let (a, b): (CellRef, CellRef) = (a.parse().unwrap(), b.parse().unwrap());
        for r in a.row..=b.row {
            for c in a.col..=b.col {
                out.insert(CellRef::new(r, c));
            }
        }
    }
    out
}

#[test]
fn the_colour_scale_spares_the_start_and_stuck_squares() {
    let board = eight();
    let walk = stuck_walk(board, 2);
    let bytes = write(&spec_of(vec![Attempt::new(
        walk.clone(),
        false,
        Method::Warnsdorff,
    )]));
    let sheet = part(&bytes, "xl/worksheets/sheet1.xml");
    let start = sheet
        .find("<conditionalFormatting sqref=\"")
        .expect("a colour scale")
        + 30;
    let sqref = &sheet[start..start + sheet[start..].find('"').unwrap()];
    assert!(sheet.contains("<colorScale>"), "{sheet}");
    let cells = expand_sqref(sqref);
    let cell = |sq: Square| CellRef::new(2 + sq.row, 2 + sq.col);
    let mut want: BTreeSet<CellRef> = board.squares().map(cell).collect();
    want.remove(&cell(walk.start().unwrap()));
    want.remove(&cell(walk.end().unwrap()));
    assert_eq!(cells, want);
}

#[test]
fn decorations_follow_the_settings() {
    let board = eight();
    let tour = full_tour(board);
    let mut spec = spec_of(vec![Attempt::new(tour.clone(), true, Method::Warnsdorff)]);
    spec.draw_path = PathDrawing::Off;
    spec.colour_scale = PathDrawing::Off;
    let bytes = write(&spec);
    let wb = open(&bytes);
    assert!(!wb.sheet_names().contains(&PATH_DATA_SHEET.to_string()));
    assert!(!has_part(&bytes, "xl/charts/chart1.xml"));
    assert!(!part(&bytes, "xl/worksheets/sheet1.xml").contains("conditionalFormatting"));
    // Auto draws nothing beyond 30 squares a side; On draws anyway.
    let big = Board::new(31, 31).unwrap();
    let walk = knight_paths::random_walk(big, Square::new(0, 0), 1);
    let mut spec = spec_of(vec![Attempt::new(walk, false, Method::Warnsdorff)]);
    assert!(!has_part(&write(&spec), "xl/charts/chart1.xml"));
    spec.draw_path = PathDrawing::On;
    assert!(has_part(&write(&spec), "xl/charts/chart1.xml"));
}

#[test]
fn the_board_goes_wherever_asked() {
    let tour = full_tour(Board::new(5, 6).unwrap());
    for cell in ["A1", "B2", "AA100"] {
        let mut spec = spec_of(vec![Attempt::new(tour.clone(), true, Method::Warnsdorff)]);
        spec.top_left = cell.parse().unwrap();
        let bytes = write(&spec);
        assert_board_is(&bytes, "Tour 1", &tour, spec.top_left);
        let start = tour.start().unwrap();
        let start_cell = spec.top_left.offset(start.row, start.col);
        assert_eq!(fill_at(&bytes, "Tour 1", start_cell), Some(0xFFFF00));
    }
}

#[test]
fn a_board_that_does_not_fit_is_refused_with_the_reason() {
    let tour = full_tour(eight());
    let mut spec = spec_of(vec![Attempt::new(tour, true, Method::Warnsdorff)]);
    spec.top_left = CellRef::new(0, SHEET_COLS - 7);
    let mut out = Cursor::new(Vec::new());
    let err = write_workbook(&spec, &mut out).unwrap_err();
    assert!(matches!(err, WriteError::DoesNotFit { attempt: 1, .. }));
    let msg = err.to_string();
    assert!(msg.contains("8x8 board does not fit"), "{msg}");
    assert!(
        msg.contains("XFD") && msg.contains("at most 7 columns fit"),
        "{msg}"
    );
    assert!(out.get_ref().is_empty(), "nothing written");
    assert!(check_fits(eight(), CellRef::new(0, SHEET_COLS - 8)).is_ok());
    // Saving to a file: a usage error, and no file left behind.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.xlsx");
    let err = save_workbook(&spec, &path, false, &WriteBudget::unlimited()).unwrap_err();
    assert!(matches!(err, knights_tour::error::Error::Usage(_)), "{err}");
    assert!(!path.exists());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn saving_to_a_file_keeps_an_existing_one_unless_forced() {
    let spec = spec_of(vec![Attempt::new(
        full_tour(eight()),
        true,
        Method::Warnsdorff,
    )]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.xlsx");
    std::fs::write(&path, "old").unwrap();
    let err = save_workbook(&spec, &path, false, &WriteBudget::unlimited()).unwrap_err();
    assert!(err.to_string().contains("already exists"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), b"old");
    save_workbook(&spec, &path, true, &WriteBudget::unlimited()).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), write(&spec));
}

/// Issue 20, finding 7: a write the deadline stops is an error saying where it was, and
/// leaves neither the workbook nor the temp file.
#[test]
fn a_workbook_the_deadline_stops_leaves_nothing() {
    // Every stage may run a quarter second past the deadline (`write_budget::MIN_STAGE_TIME`): the
    // board is large enough that writing it takes longer, in the build the test runs in
    // (`generate --size 500 --path off` 0.56 s in a debug build; a release build writes 500
    // within the quarter second, 2,000 in 2.85 s).
    let side = if cfg!(debug_assertions) { 500 } else { 2000 };
    let board = Board::new(side, side).unwrap();
    let tour = knights_tour::solve::construct::open_tour(board).unwrap();
    let spec = spec_of(vec![Attempt::new(tour, true, Method::Construct)]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.xlsx");
    let budget = WriteBudget::new("t.xlsx", Some(std::time::Instant::now()), None);
    let err = save_workbook(&spec, &path, false, &budget).unwrap_err();
    assert!(
        matches!(err, knights_tour::error::Error::TimedOut { file: true, .. }),
        "{err}"
    );
    let msg = err.to_string();
    assert!(
        msg.contains("t.xlsx: not written: the time limit (--timeout) came while "),
        "{msg}"
    );
    assert_eq!(err.exit_code(), knights_tour::exit_codes::FAILURE);
    assert!(budget.fired().is_some());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn the_same_spec_gives_the_same_bytes_and_properties_record_the_command() {
    let board = eight();
    let attempts = vec![
        Attempt::new(stuck_walk(board, 9), false, Method::Warnsdorff),
        Attempt::new(full_tour(board), true, Method::Warnsdorff),
    ];
    let spec = spec_of(attempts);
    let (a, b) = (write(&spec), write(&spec));
    assert!(a == b, "byte-identical");
    let core = part(&a, "docProps/core.xml");
    assert!(
        core.contains("<dc:title>Knight's tour test</dc:title>"),
        "{core}"
    );
    assert!(
        core.contains("generate --size 8x8 --start a1 --seed 7"),
        "{core}"
    );
    assert!(
        core.contains("<dc:subject>Knight's tours on 8x8: Solved after 2 attempts</dc:subject>"),
        "{core}"
    );
    assert!(core.contains("2000-01-01T00:00:00Z"), "{core}");
}

#[test]
fn big_boards_are_written_row_by_row_and_read_back_whole() {
    // 10,000+ squares: constant-memory mode.
    let board = Board::new(101, 103).unwrap();
    let tour = knight_paths::warnsdorff(board, Square::new(0, 0));
    assert!(tour.is_complete());
    let walk = knight_paths::random_walk(board, Square::new(50, 50), 4);
    let attempts = vec![
        Attempt::new(walk.clone(), false, Method::Warnsdorff),
        Attempt::new(tour.clone(), true, Method::Warnsdorff),
    ];
    let bytes = write(&spec_of(attempts));
    assert_board_is(&bytes, "Attempt 1 (stuck)", &walk, CellRef::new(2, 2));
    assert_board_is(&bytes, "Tour 2", &tour, CellRef::new(2, 2));
    let start = walk.start().unwrap();
    let end = walk.end().unwrap();
    let at = |sq: Square| CellRef::new(2 + sq.row, 2 + sq.col);
    assert_eq!(
        fill_at(&bytes, "Attempt 1 (stuck)", at(start)),
        Some(0xFFFF00)
    );
    assert_eq!(
        fill_at(&bytes, "Attempt 1 (stuck)", at(end)),
        Some(0xFF7C80)
    );
}

#[test]
#[cfg_attr(
    not(feature = "external"),
    ignore = "needs LibreOffice (soffice): cargo test --features external"
)]
fn libreoffice_opens_the_workbook_and_keeps_the_board() {
    crate::support::require_program("soffice", "apt-get install -y libreoffice-calc");
    let board = eight();
    let walk = stuck_walk(board, 1);
    let tour = full_tour(board);
    let attempts = vec![
        Attempt::new(walk.clone(), false, Method::Warnsdorff),
        Attempt::new(tour.clone(), true, Method::Warnsdorff),
    ];
    let dir = tempfile::tempdir().unwrap();
    let xlsx = dir.path().join("tour.xlsx");
    std::fs::write(&xlsx, write(&spec_of(attempts))).unwrap();
    let status = std::process::Command::new("soffice")
        .env("HOME", dir.path())
        .args(["--headless", "--convert-to", "ods", "--outdir"])
        .arg(dir.path())
        .arg(&xlsx)
        .status()
        .expect("soffice on PATH");
    assert!(status.success());
    let mut ods: calamine::Ods<_> = calamine::open_workbook(dir.path().join("tour.ods")).unwrap();
    let names = ods.sheet_names();
    assert_eq!(names[..3], ["Attempt 1 (stuck)", "Tour 2", SUMMARY_SHEET]);
    let c3 = CellRef::new(2, 2);
    assert_range_is(
        &ods.worksheet_range("Attempt 1 (stuck)").unwrap(),
        "stuck",
        &walk,
        c3,
    );
    assert_range_is(&ods.worksheet_range("Tour 2").unwrap(), "tour", &tour, c3);
}

#[test]
fn an_attempt_that_never_started_is_written_blank() {
    let empty = Tour::from_indices(eight(), Vec::new()).unwrap();
    let bytes = write(&spec_of(vec![Attempt::new(
        empty.clone(),
        false,
        Method::Warnsdorff,
    )]));
    let name = "Attempt 1 (stopped)";
    assert_board_is(&bytes, name, &empty, CellRef::new(2, 2));
    assert!(sheet_text(&bytes, name).contains("Stopped before the first move"));
    assert!(!has_part(&bytes, "xl/charts/chart1.xml"), "nothing to draw");
    let mut wb = open(&bytes);
    let summary = wb.worksheet_range(SUMMARY_SHEET).unwrap();
    let row = SUMMARY_HEADER_ROW + 1;
    assert_eq!(
        summary.get_value((row, 4)),
        Some(&Data::String("0 of 64".to_string()))
    );
    assert!(matches!(
        summary.get_value((row, 2)),
        None | Some(Data::Empty)
    ));
}

#[test]
fn a_given_creation_time_is_recorded() {
    let mut spec = spec_of(vec![Attempt::new(
        full_tour(eight()),
        true,
        Method::Warnsdorff,
    )]);
    spec.created = Some(std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_700_000_000));
    let core = part(&write(&spec), "docProps/core.xml");
    assert!(core.contains("2023-11-14T22:13:20Z"), "{core}");
}

#[test]
fn a_path_drawn_on_a_big_board_streams_its_coordinates() {
    // More points than the in-memory limit: the hidden sheet is written row by row too.
    let board = Board::new(300, 300).unwrap();
    let tour = knight_paths::warnsdorff(board, Square::new(0, 0));
    assert!(tour.is_complete());
    let mut spec = spec_of(vec![Attempt::new(tour.clone(), true, Method::Warnsdorff)]);
    spec.draw_path = PathDrawing::On;
    spec.colour_scale = PathDrawing::Off;
    let bytes = write(&spec);
    let drawn = drawn_moves(&bytes, "Tour 1", board.rows());
    assert_eq!(drawn, moves_of(&tour));
    // A chart draws at most 255 series: more lanes take more charts, anchored a row higher
    // each and moved down to the board's corner.
    let drawing = part(&bytes, "xl/drawings/drawing1.xml");
    let from = "<xdr:from><xdr:col>2</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>2</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from>";
    let charts = drawing.matches("<xdr:graphicFrame").count();
    assert!(charts >= 2, "{charts} charts");
    assert_eq!(drawing.matches(from).count(), charts, "{drawing}");
    for i in 1..=charts {
        let chart = part(&bytes, &format!("xl/charts/chart{i}.xml"));
        assert!(chart.matches("<c:ser>").count() <= 255);
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

    /// Any board, any offset, any walk: the sheet holds exactly the walk's numbering there,
    /// the start is yellow, and the chart's coordinates are the squares' centres.
    #[test]
    fn any_walk_reads_back_at_any_offset(
        rows in 1u32..12,
        cols in 1u32..12,
        top in 0u32..40,
        left in 0u32..30,
        seed in 0u64..1000,
        start_pick in 0u32..144,
    ) {
        let board = Board::new(rows, cols).unwrap();
        let start = board.square_at(start_pick % (rows * cols));
        let walk = knight_paths::random_walk(board, start, seed);
        proptest::prop_assert!(walk.check().is_ok());
        let mut spec = spec_of(vec![Attempt::new(walk.clone(), walk.is_complete(), Method::Warnsdorff)]);
        spec.top_left = CellRef::new(top, left);
        let bytes = write(&spec);
        let name = knights_tour::generate::workbook::sheet_name(1, knights_tour::generate::workbook::Outcome::of(&spec.attempts[0], false));
        assert_board_is(&bytes, &name, &walk, spec.top_left);
        let start_cell = spec.top_left.offset(start.row, start.col);
        if walk.len() > 1 || walk.is_complete() {
            proptest::prop_assert_eq!(fill_at(&bytes, &name, start_cell), Some(0xFFFF00));
        }
        proptest::prop_assert_eq!(drawn_moves(&bytes, &name, rows), moves_of(&walk));
    }
}
