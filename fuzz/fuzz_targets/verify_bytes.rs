//! Feeds raw bytes to the verifier's reader entry point, as if they were a workbook file.
//!
//! Panics inside calamine are caught by the library (catch_unwind) and reported as an
//! unreadable file, so libFuzzer's aborting panic hook is bypassed for them only
//! (`quiet_guarded_panics`); any other panic still reaches it and is reported as a crash.
#![no_main]

use std::sync::Once;

use knights_tour::verify::{verify_bytes, VerifyOptions};
use libfuzzer_sys::fuzz_target;

static QUIET: Once = Once::new();

fuzz_target!(|data: &[u8]| {
    QUIET.call_once(knights_tour::workbook::read::quiet_guarded_panics);
    let report = verify_bytes(data, "fuzz-input", &VerifyOptions::default());
    // The report must always serialise.
    let _ = serde_json::to_string(&report);
});
