//! Every tour a solver makes is re-checked by the verifier's grid logic, fed the numbering as a
//! person would type it at A1 (`solve::runner`, `solve::all_boards`).

use knights_tour::tour::Tour;
use knights_tour::verify::{verify_grid, Verdict, VerifyOptions};
use knights_tour::workbook::read::{CellValue, SheetCells};

/// The verifier's verdict on `tour` typed as a grid of move numbers.
pub fn grid_verdict(tour: &Tour) -> Verdict {
    let board = tour.board();
    let numbering = tour.numbering();
    let cells = SheetCells::from_values(board.squares().map(|sq| {
        let n = numbering[board.index(sq) as usize];
        (sq.row, sq.col, CellValue::Number(f64::from(n)))
    }));
    verify_grid("t", 0, &cells, &VerifyOptions::default()).verdict
}

/// The verdict a complete tour should get: closed or open.
pub fn expected_verdict(tour: &Tour) -> Verdict {
    if tour.is_closed() {
        Verdict::Closed
    } else {
        Verdict::Open
    }
}
