//! Feeds raw bytes to the ods reader as if they were a `content.xml`: it must never panic,
//! hang or allocate by what the bytes declare (default abort-on-OOM stays on).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = knights_tour::workbook::read::ods::read_content(data);
});
