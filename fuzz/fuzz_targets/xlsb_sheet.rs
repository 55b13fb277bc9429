//! Feeds raw bytes to the xlsb reader as if they were a sheet part: it must give cells or an
//! error, never panic or hang (default abort-on-OOM stays on).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = knights_tour::workbook::read::xlsb::read_sheet_part(data);
});
