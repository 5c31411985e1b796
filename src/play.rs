//! The live loop: capture the region, read it, solve it, check every
//! point lies in the region, replay the input with the abort key armed,
//! and look again to see whether the board now reads as solved.
//!
//! When the read is not playable, nothing is sent: the capture and the
//! debug image are saved, and the reason is reported.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::calibration::Calibration;
use crate::capture::MonitorGeometry;
use crate::capture::screen::{Capture, CaptureError, capture};
use crate::games::{Game, GameError, SolveOptions};
use crate::geom::Rect;
use crate::input::keys::{Keys, Role};
use crate::input::replay::{Input, ReplayError, Replayed};
use crate::input::{Outside, check_inside};
use crate::report::{Report, State, ms_since};
use crate::vision::debug;

#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    #[error(transparent)]
    Capture(#[from] CaptureError),
    #[error(transparent)]
    Game(#[from] GameError),
    #[error(transparent)]
    Outside(#[from] Outside),
    #[error(transparent)]
    Replay(#[from] ReplayError),
}

/// Settings for one play.
pub struct Player<'a> {
    pub game: &'static dyn Game,
    pub calibration: &'a Calibration,
    /// The selection, in input coordinates.
    pub region: Rect,
    /// Pause between actions.
    pub delay: Duration,
    pub dry_run: bool,
    /// Where to save what was seen when the read is not playable.
    pub save_dir: Option<PathBuf>,
    /// After the last action, look again for up to this long (games
    /// animate their moves) until the board reads as solved.
    pub settle: Duration,
}

/// How long each step took, in milliseconds.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct Timings {
    pub capture: f64,
    pub vision: f64,
    pub solve: f64,
    /// From the trigger (hotkey, or start with `--once`) to the first input event.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_first_input: Option<f64>,
    /// From the trigger to the plan being ready (all a dry run does).
    pub to_plan: f64,
}

/// What one play did.
pub enum Outcome {
    /// Not playable: nothing was sent. The paths of the saved capture and
    /// debug image, when saving worked.
    Refused { saved: Option<(PathBuf, PathBuf)> },
    /// `--dry-run`: the plan, nothing sent.
    Planned,
    /// Every action was sent; `after` is what the board reads as now.
    Played { sent: usize, after: Option<State> },
    /// The abort key stopped the replay.
    Aborted { sent: usize },
}

/// The report (actions in input coordinates), what happened, and how long it took.
pub struct Round {
    pub report: Report,
    pub outcome: Outcome,
    pub timings: Timings,
    /// The cells that were read, to tell a new level from the old one.
    pub cells: Option<Vec<String>>,
    /// The monitor the region was captured from.
    pub monitor: MonitorGeometry,
}

impl Player<'_> {
    /// Captures and reads the region.
    pub fn look(&self) -> Result<(Capture, Report), PlayError> {
        let cap = capture(self.region)?;
        let report =
            self.game
                .solve_image(&cap.image, self.calibration, &SolveOptions::default())?;
        Ok((cap, report))
    }

    fn save_seen(&self, cap: &Capture, report: &Report) -> Option<(PathBuf, PathBuf)> {
        let dir = self.save_dir.as_ref()?;
        std::fs::create_dir_all(dir).ok()?;
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        let shot = dir.join(format!("{}-{stamp}-capture.png", self.game.id()));
        let seen = dir.join(format!("{}-{stamp}-seen.png", self.game.id()));
        cap.image.save(&shot).ok()?;
        let s = &report.seen;
        debug::render(&cap.image, s.grid.as_ref(), &[])
            .save(&seen)
            .ok()?;
        Some((shot, seen))
    }

    /// One play, from `trigger` (when the hotkey was pressed). `keys`
    /// arms the abort key during replay.
    pub fn play(&self, trigger: Instant, keys: Option<&Keys>) -> Result<Round, PlayError> {
        let (cap, mut report) = self.look()?;
        let mut timings = Timings {
            capture: cap.ms,
            vision: report.timing_ms.vision.unwrap_or(0.0),
            solve: report.timing_ms.solve,
            to_first_input: None,
            to_plan: ms_since(trigger),
        };
        report.timing_ms.capture = Some(cap.ms);
        let cells = report.board.as_ref().map(|b| b.cells.clone());
        // Into input coordinates.
        let actions: Vec<_> = report
            .actions
            .take()
            .unwrap_or_default()
            .iter()
            .map(|a| a.map_points(|x, y| cap.to_input(f64::from(x) + 0.5, f64::from(y) + 0.5)))
            .collect();
        report.actions = Some(actions.clone());
        if report.state != State::Playable || actions.is_empty() {
            let saved = if report.state.exit_code() != 0 {
                self.save_seen(&cap, &report)
            } else {
                None
            };
            return Ok(Round {
                report,
                outcome: Outcome::Refused { saved },
                timings,
                cells,
                monitor: cap.monitor,
            });
        }
        check_inside(&actions, self.region)?;
        if self.dry_run {
            return Ok(Round {
                report,
                outcome: Outcome::Planned,
                timings,
                cells,
                monitor: cap.monitor,
            });
        }
        let mut input = Input::new()?;
        if let Some(k) = keys {
            k.drain();
        }
        let replayed = input.replay(&actions, self.delay, || {
            keys.is_some_and(|k| k.poll() == Some(Role::Abort))
        })?;
        let first = match replayed {
            Replayed::Done { first, .. } | Replayed::Aborted { first, .. } => first,
        };
        timings.to_first_input =
            first.map(|f| (f.duration_since(trigger).as_secs_f64() * 100_000.0).round() / 100.0);
        let outcome = match replayed {
            Replayed::Aborted { sent, .. } => Outcome::Aborted { sent },
            Replayed::Done { sent, .. } => Outcome::Played {
                sent,
                after: self.settled_state(),
            },
        };
        Ok(Round {
            report,
            outcome,
            timings,
            cells,
            monitor: cap.monitor,
        })
    }

    /// What the board reads as once it stops changing into a solved one:
    /// looks every 150 ms until it reads as solved or `settle` has passed.
    fn settled_state(&self) -> Option<State> {
        let end = Instant::now() + self.settle;
        loop {
            std::thread::sleep(Duration::from_millis(150));
            let state = self.look().ok().map(|(_, r)| r.state);
            if state == Some(State::Solved) || Instant::now() >= end {
                return state;
            }
        }
    }

    /// Waits until the region shows a playable board other than `last`,
    /// looking every `every`. `None` when the abort key is pressed.
    pub fn wait_for_new_board(
        &self,
        last: Option<&[String]>,
        every: Duration,
        keys: Option<&Keys>,
    ) -> Result<Option<Instant>, PlayError> {
        loop {
            if keys.is_some_and(|k| k.wait(Some(every)) == Some(Role::Abort)) {
                return Ok(None);
            }
            if keys.is_none() {
                std::thread::sleep(every);
            }
            let t = Instant::now();
            let (_, report) = self.look()?;
            let cells = report.board.as_ref().map(|b| b.cells.as_slice());
            if report.state == State::Playable && cells != last {
                return Ok(Some(t));
            }
        }
    }
}
