//! The last line of defence: every calamine call runs under [`catch_unwind`], so a reader bug
//! on a hostile file becomes an "unreadable" report, never a crash.

use std::panic::{catch_unwind, AssertUnwindSafe};

use super::{Format, ReadError};

thread_local! {
    /// Set while a calamine call runs under [`guarded`].
    static IN_GUARD: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Keep the panic messages of guarded calamine calls (reported as unreadable files) off the
/// terminal, while any other panic still prints through the previous hook. For programs.
pub fn quiet_guarded_panics() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !IN_GUARD.with(|g| g.get()) {
            previous(info);
        }
    }));
}

/// Run a calamine call, turning a panic into [`ReadError::ReaderCrashed`].
pub(super) fn guarded<T>(format: Format, f: impl FnOnce() -> T) -> Result<T, ReadError> {
    let outer = IN_GUARD.with(|g| g.replace(true));
    let result = catch_unwind(AssertUnwindSafe(f));
    IN_GUARD.with(|g| g.set(outer));
    result.map_err(|payload| {
        let detail = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_string());
        ReadError::ReaderCrashed { format, detail }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panicking_reader_becomes_an_error() {
        let r: Result<(), ReadError> = guarded(Format::Xls, || panic!("boom"));
        assert_eq!(
            r,
            Err(ReadError::ReaderCrashed {
                format: Format::Xls,
                detail: "boom".into()
            })
        );
        assert!(!IN_GUARD.with(|g| g.get()), "the guard flag is reset");
    }
}
