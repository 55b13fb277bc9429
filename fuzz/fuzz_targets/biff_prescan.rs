//! Feeds raw bytes to the BIFF pre-scan as if they were an xls Workbook stream: it must never
//! panic, hang or allocate by what the bytes declare (default abort-on-OOM stays on).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = knights_tour::workbook::read::biff::scan_workbook_stream(data);
});
