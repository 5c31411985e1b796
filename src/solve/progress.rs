//! Progress on long searches, on stderr. On a terminal: a spinner with the
//! states explored and the depth reached, shown after the first half
//! second. Elsewhere (a log, a CI job, a pipe): a plain line every few
//! seconds, so a long run is never silent. Short runs stay quiet either way.

use std::io::Write as _;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How often a plain progress line is printed when stderr is not a terminal.
const PLAIN_EVERY: Duration = Duration::from_secs(5);

/// Where progress goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sink {
    Off,
    Spinner,
    Lines,
}

/// Reports a search's progress.
pub struct Progress {
    bar: Option<ProgressBar>,
    sink: Sink,
    started: Instant,
    last: Instant,
    calls: u64,
}

impl Progress {
    /// A reporter that shows progress when `enabled`: a spinner on a
    /// terminal, a line every few seconds elsewhere.
    pub fn new(enabled: bool) -> Progress {
        let sink = match (
            enabled,
            std::io::IsTerminal::is_terminal(&std::io::stderr()),
        ) {
            (false, _) => Sink::Off,
            (true, true) => Sink::Spinner,
            (true, false) => Sink::Lines,
        };
        Progress {
            bar: None,
            sink,
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
        if self.calls % 1024 == 0 {
            self.report(what, states, depth);
        }
    }

    /// Notes progress from a caller that reports seldom (once per batch of
    /// work): every call may print.
    pub fn report(&mut self, what: &str, states: u64, depth: u32) {
        if self.sink == Sink::Off {
            return;
        }
        let now = Instant::now();
        let gap = match self.sink {
            Sink::Lines => PLAIN_EVERY,
            _ => Duration::from_millis(100),
        };
        if now.duration_since(self.started) < Duration::from_millis(500)
            || now.duration_since(self.last) < gap
        {
            return;
        }
        self.last = now;
        let secs = now.duration_since(self.started).as_secs_f64().max(1e-3);
        let msg = format!(
            "{what}: {states} states, depth {depth}, {:.0} k states/s",
            states as f64 / secs / 1e3
        );
        if self.sink == Sink::Lines {
            let _ = writeln!(std::io::stderr(), "[{secs:.0} s] {msg}");
            return;
        }
        let bar = self.bar.get_or_insert_with(|| {
            let b = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            b.set_style(
                ProgressStyle::with_template("{spinner} {elapsed} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            b.enable_steady_tick(Duration::from_millis(120));
            b
        });
        bar.set_message(msg);
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}
