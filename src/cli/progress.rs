//! Progress for work that can take more than a second: a spinner with a message on standard
//! error, shown only when standard error is a terminal (never in pipes, files or CI logs).

use std::io::IsTerminal;
use std::time::Duration;

/// A spinner naming the current step; invisible when stderr is not a terminal.
pub struct Spinner(Option<indicatif::ProgressBar>);

impl Spinner {
    /// Start spinning (or do nothing off a terminal).
    pub fn new() -> Spinner {
        if !std::io::stderr().is_terminal() {
            return Spinner(None);
        }
        let bar = indicatif::ProgressBar::new_spinner();
        // The elapsed time shows a long search is alive and how long it has run.
        if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} {msg} [{elapsed}]") {
            bar.set_style(style);
        }
        bar.enable_steady_tick(Duration::from_millis(120));
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
