//! Write a big tour workbook, or the same numbers as plain integers (the format's floor), to
//! compare speed and memory:
//!
//! ```text
//! cargo build --release --example write_big
//! /usr/bin/time -v target/release/examples/write_big ours 1000 /tmp/ours.xlsx
//! /usr/bin/time -v target/release/examples/write_big floor 1000 /tmp/floor.xlsx
//! ```
//!
//! The tour is built first with Warnsdorff's rule (Roth's tie-break), then only the writing is
//! timed. `floor` writes the same move numbers to the same cells with rust_xlsxwriter in
//! constant-memory mode, without formats or anything else.

#[path = "support/floor.rs"]
mod floor;
#[path = "support/knight_paths.rs"]
mod knight_paths;

use std::time::Instant;

use knights_tour::board::{Board, Square};
use knights_tour::generate::workbook::{write_workbook, WorkbookSpec};
use knights_tour::solve::{Attempt, Method};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = args.first().map_or("ours", String::as_str).to_string();
    let n: u32 = args.get(1).map_or(Ok(1000), |s| s.parse())?;
    let out = args
        .get(2)
        .map_or("/tmp/write_big.xlsx", String::as_str)
        .to_string();
    let board = Board::new(n, n)?;
    let t0 = Instant::now();
    let tour = knight_paths::warnsdorff(board, Square::new(0, 0));
    eprintln!(
        "tour: {} of {} squares in {:?}",
        tour.len(),
        board.len(),
        t0.elapsed()
    );
    let t1 = Instant::now();
    let file = std::io::BufWriter::new(std::fs::File::create(&out)?);
    match mode.as_str() {
        "floor" => floor::write_floor(&tour, file)?,
        "ours" => {
            let solved = tour.is_complete();
            let spec = WorkbookSpec::new(vec![Attempt::new(tour, solved, Method::Warnsdorff)]);
            write_workbook(&spec, file)?;
        }
        other => return Err(format!("mode must be 'ours' or 'floor', not '{other}'").into()),
    }
    eprintln!("{mode}: wrote {out} in {:?}", t1.elapsed());
    Ok(())
}
