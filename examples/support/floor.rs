//! The format's floor for speed comparisons: rust_xlsxwriter writing a tour's move numbers as
//! plain integers at the same cells (board at C3), in constant-memory mode, with nothing else.

use knights_tour::tour::Tour;

/// Write `tour`'s numbering as plain numbers, row by row, and save to `out`.
pub fn write_floor(
    tour: &Tour,
    out: impl std::io::Write + Send,
) -> Result<(), rust_xlsxwriter::XlsxError> {
    let board = tour.board();
    let grid = tour.numbering();
    let mut workbook = rust_xlsxwriter::Workbook::new();
    let sheet = workbook.add_worksheet_with_constant_memory()?;
    for r in 0..board.rows() {
        for c in 0..board.cols() {
            let v = grid[(r * board.cols() + c) as usize];
            if v > 0 {
                sheet.write_number(r + 2, (c + 2) as u16, v)?;
            }
        }
    }
    workbook.save_to_writer(out)?;
    Ok(())
}
