//! Progress for work that can take more than a second: a spinner with a message, the search
//! nodes spent so far and the elapsed time on standard error, shown only when standard error is
//! a terminal (never in pipes, files or CI logs).

use std::io::IsTerminal;
use std::sync::atomic::AtomicU64;
use std::sync::Mutex;
use std::time::Duration;

use crate::solve::Meter;

/// Search nodes spent by this process's searches (the solvers add to it through [`meter`]).
static SEARCH_NODES: AtomicU64 = AtomicU64::new(0);

/// The progress line on the terminal now, if any: what standard output must clear first.
static SHOWN: Mutex<Option<indicatif::ProgressBar>> = Mutex::new(None);

fn shown() -> std::sync::MutexGuard<'static, Option<indicatif::ProgressBar>> {
    SHOWN.lock().unwrap_or_else(|e| e.into_inner())
}

/// Run `write` (a write to standard output) with the progress line out of the way: when
/// both go to the same terminal, text written beside the line would land after it ("⠁ reading
/// f5.xlsx \[0s]file header"), and the line's next redraw would wipe the text. The line is
/// cleared, `write` runs, and the line is drawn again below it. The command line hands this to
/// [`crate::output::set_step_aside`], so the library's writers need not know of progress lines.
pub fn step_aside(write: &mut dyn FnMut()) {
    let bar = shown().clone();
    match bar {
        Some(bar) => bar.suspend(write),
        None => write(),
    }
}

/// The meter the solvers add their nodes to, for [`Spinner`] to show.
pub fn meter() -> Meter {
    Meter::new(&SEARCH_NODES)
}

/// "1.2M nodes": a count a person takes in at a glance.
fn nodes_text(nodes: u64) -> String {
    match nodes {
        0 => String::new(),
        n if n < 10_000 => format!(" · {n} nodes"),
        n if n < 10_000_000 => format!(" · {:.0}k nodes", n as f64 / 1e3),
        n if n < 10_000_000_000 => format!(" · {:.1}M nodes", n as f64 / 1e6),
        n => format!(" · {:.1}G nodes", n as f64 / 1e9),
    }
}

/// A spinner naming the current step; invisible when stderr is not a terminal.
pub struct Spinner(Option<indicatif::ProgressBar>);

impl Spinner {
    /// Start spinning (or do nothing off a terminal).
    pub fn new() -> Spinner {
        if !std::io::stderr().is_terminal() {
            return Spinner(None);
        }
        let bar = indicatif::ProgressBar::new_spinner();
        // The nodes and the elapsed time show a long search is alive and how far it got.
        let from = meter().read();
        let style = indicatif::ProgressStyle::with_template("{spinner} {msg}{nodes} [{elapsed}]")
            .map(|s| {
                s.with_key(
                    "nodes",
                    move |_: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                        let _ = w.write_str(&nodes_text(meter().read().saturating_sub(from)));
                    },
                )
            });
        if let Ok(style) = style {
            bar.set_style(style);
        }
        bar.enable_steady_tick(Duration::from_millis(120));
        *shown() = Some(bar.clone());
        Spinner(Some(bar))
    }

    /// Name the current step.
    pub fn set(&self, msg: &str) {
        if let Some(bar) = &self.0 {
            bar.set_message(msg.to_string());
        }
    }

    /// Clear the spinner before the command prints its result.
    pub fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
            shown().take();
        }
    }
}

impl Default for Spinner {
    fn default() -> Self {
        Spinner::new()
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        self.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_counts_read_at_a_glance() {
        assert_eq!(nodes_text(0), "");
        assert_eq!(nodes_text(4096), " · 4096 nodes");
        assert_eq!(nodes_text(81_920), " · 82k nodes");
        assert_eq!(nodes_text(12_345_678), " · 12.3M nodes");
        assert_eq!(nodes_text(45_000_000_000), " · 45.0G nodes");
    }
}
