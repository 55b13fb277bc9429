//! Feeds raw bytes to the xlsb pre-scan as each kind of part it walks (shared strings, styles,
//! main part, sheet): it must never panic, hang or allocate by what the bytes declare past its
//! record cap (default abort-on-OOM stays on).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = knights_tour::workbook::read::xlsb::prescan_parts(data);
});
