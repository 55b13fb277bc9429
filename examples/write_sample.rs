//! Write a sample workbook as `knights-tour generate` would: two attempts that get stuck, then
//! a Warnsdorff tour. Used to look at the result in Excel or LibreOffice.
//!
//! ```text
//! cargo run --example write_sample -- /tmp/sample.xlsx 8 8
//! ```

#[path = "support/knight_paths.rs"]
mod knight_paths;

use knights_tour::board::{Board, Square};
use knights_tour::generate::workbook::{write_workbook, WorkbookSpec};
use knights_tour::solve::{Attempt, Method, Tiebreak};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let out = args.first().map_or("sample.xlsx", String::as_str);
    let rows: u32 = args.get(1).map_or(Ok(8), |s| s.parse())?;
    let cols: u32 = args.get(2).map_or(Ok(rows), |s| s.parse())?;
    let board = Board::new(rows, cols)?;
    let start = Square::new(rows - 1, 0);
    let mut attempts = Vec::new();
    for seed in 1..=2 {
        let mut a = Attempt::new(
            knight_paths::random_walk(board, start, seed),
            false,
            Method::Warnsdorff,
        );
        a.note = Some(format!("a random walk with seed {seed}"));
        attempts.push(a);
    }
    let tour = knight_paths::warnsdorff(board, start);
    let solved = tour.is_complete();
    let mut a = Attempt::new(tour, solved, Method::Warnsdorff);
    a.tiebreak = Some(Tiebreak::Center);
    attempts.push(a);
    let mut spec = WorkbookSpec::new(attempts);
    spec.seed = Some(42);
    spec.command_line = format!("generate --size {rows}x{cols} --start a1 --seed 42");
    let file = std::fs::File::create(out)?;
    write_workbook(&spec, std::io::BufWriter::new(file))?;
    println!("{out}: {}", spec.result_line());
    Ok(())
}
