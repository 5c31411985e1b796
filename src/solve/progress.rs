//! Progress on long searches: a spinner on stderr with the states explored
//! and the depth reached, shown only after the first half second and only
//! when stderr is a terminal, so short runs and scripts stay quiet.

use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Reports a search's progress.
pub struct Progress {
    bar: Option<ProgressBar>,
    enabled: bool,
    started: Instant,
    last: Instant,
    calls: u64,
}

impl Progress {
    /// A reporter that shows a spinner when `enabled` and stderr is a terminal.
    pub fn new(enabled: bool) -> Progress {
        Progress {
            bar: None,
            enabled: enabled && std::io::IsTerminal::is_terminal(&std::io::stderr()),
            started: Instant::now(),
            last: Instant::now(),
            calls: 0,
        }
    }

    /// No output at all.
    pub fn quiet() -> Progress {
        Progress::new(false)
    }

    /// Notes progress; cheap enough to call for every state.
    pub fn update(&mut self, what: &str, states: u64, depth: u32) {
        self.calls += 1;
        if !self.enabled || self.calls % 1024 != 0 {
            return;
        }
        let now = Instant::now();
        if now.duration_since(self.started) < Duration::from_millis(500)
            || now.duration_since(self.last) < Duration::from_millis(100)
        {
            return;
        }
        self.last = now;
        let bar = self.bar.get_or_insert_with(|| {
            let b = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            b.set_style(
                ProgressStyle::with_template("{spinner} {elapsed} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            b.enable_steady_tick(Duration::from_millis(120));
            b
        });
        let secs = now.duration_since(self.started).as_secs_f64().max(1e-3);
        bar.set_message(format!(
            "{what}: {states} states, depth {depth}, {:.0} k states/s",
            states as f64 / secs / 1e3
        ));
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}
