//! Running out of memory or threads is an error like any other: a message, exit code 2, and
//! no temp file left behind.
//!
//! Rust ends the process when an allocation that cannot fail fails: it prints "memory
//! allocation of N bytes failed" and aborts (SIGABRT, exit 134, a core dump), leaving the temp
//! file being written. And `thread::spawn` panics when a thread cannot be started, as
//! rust_xlsxwriter's packager does under a tight `ulimit -v`. Neither can come back as an error
//! from deep inside a writer, so [`install`] catches both where they end the run: a SIGABRT
//! handler and a panic hook remove the temp files being written, say what ran out, and exit
//! with [`exit_codes::ERROR`]. Allocations that can fail
//! (`try_reserve`) still return their error to the code that asked.

use std::io::Write;
use std::sync::Once;

use crate::exit_codes;

/// Install both, once per process (from the command line's `main`).
pub fn install() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let payload = info.payload();
            let text = payload
                .downcast_ref::<&str>()
                .copied()
                .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
                .unwrap_or("");
            if text.contains("failed to spawn thread") {
                end(b"knights-tour: a thread could not be started: the system's limit on memory or threads is reached");
            }
            previous(info);
        }));
        // SAFETY: the action only removes files through paths already built (no allocation for
        // paths under 384 bytes), writes a fixed message and calls `_exit`: all of it
        // async-signal-safe in practice, and it never returns into the aborting code.
        let registered = unsafe {
            signal_hook::low_level::register(signal_hook::consts::SIGABRT, || {
                end(b"knights-tour: out of memory: the system's memory limit is reached")
            })
        };
        // Without the handler an abort ends the run as before.
        drop(registered);
    });
}

/// Remove the temp files being written, print `what`, and exit with code 2.
fn end(what: &[u8]) -> ! {
    crate::output::remove_temp_files_now();
    let mut err = std::io::stderr();
    let _ = err.write_all(what);
    let _ = err.write_all(
        b"; nothing was written (try a smaller board, or give the program more memory)\n",
    );
    signal_hook::low_level::exit(i32::from(exit_codes::ERROR))
}
