//! The live screen: capture the region, read it with the game, send input
//! with the abort key armed, and report what happened.
//!
//! [`Player::play`] runs [`cycle::run`] over the real screen. When the
//! first read is not playable, nothing is sent: the capture and the debug
//! image are saved, and the reason is reported.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::cycle::{self, CycleError, Outcome, Rules, Screen, Seen, Sent};
use image::RgbImage;

use crate::calibration::Calibration;
use crate::capture::MonitorGeometry;
use crate::capture::screen::{Capture, CaptureError, Grabber};
use crate::game::recognise::Lineup;
use crate::game::{GameError, OnScreen, Pacing, Step};
use crate::geom::Rect;
use crate::input::keys::{Keys, Role};
use crate::input::replay::{Input, ReplayError};
use crate::input::{Action, PlanError};
use crate::report::{Report, Verdict, ms_since};
use crate::tools::options::Options;
use crate::vision::debug;

#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    #[error(transparent)]
    Capture(#[from] CaptureError),
    #[error(transparent)]
    Game(#[from] GameError),
    #[error(transparent)]
    Plan(#[from] PlanError),
    #[error(transparent)]
    Replay(#[from] ReplayError),
}

impl From<CycleError<PlayError>> for PlayError {
    fn from(e: CycleError<PlayError>) -> PlayError {
        match e {
            CycleError::Screen(e) => e,
            CycleError::Plan(e) => PlayError::Plan(e),
        }
    }
}

/// What reads each capture: the game the user named, or every game, the
/// one on the screen recognised at each play.
#[derive(Clone, Copy)]
pub enum Reader<'a> {
    Named {
        screen: &'static dyn OnScreen,
        calibration: &'a Calibration,
    },
    Any(&'a Lineup),
}

impl Reader<'_> {
    /// The pacing before a game is known: the named game's, else the default.
    fn pacing(&self) -> Pacing {
        match self {
            Reader::Named { screen, .. } => screen.pacing(),
            Reader::Any(_) => Pacing::default(),
        }
    }
}

/// Settings for playing, and the capture state kept between plays.
pub struct Player<'a> {
    pub reader: Reader<'a>,
    /// The selection, in input coordinates.
    pub region: Rect,
    /// `--delay-ms`: one pause after every action, in place of the game's.
    pub delay: Option<Duration>,
    pub dry_run: bool,
    /// Where to save what was seen when the read is not playable.
    pub save_dir: Option<PathBuf>,
    pub grabber: Grabber,
    /// A failed save is reported once, not on every play.
    pub warned_save: bool,
}

/// How long each step took, in milliseconds.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct Timings {
    pub capture: f64,
    pub vision: f64,
    pub solve: f64,
    /// From the trigger (the hotkey's press, or the start with `--once`) to
    /// the first move's input: a click, a drag's press or a key (the focus
    /// click before keys does not count).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_first_input: Option<f64>,
    /// From the trigger to the plan being ready (all a dry run does).
    pub to_plan: f64,
}

/// The report (actions in input coordinates), what happened, and how long it took.
pub struct Round {
    pub report: Report,
    pub outcome: Outcome,
    /// The saved capture and debug image, when the read was refused.
    pub saved: Option<(PathBuf, PathBuf)>,
    pub timings: Timings,
    /// The cells that were read, to tell a new level from the old one.
    pub cells: Option<Vec<String>>,
    /// The monitor the region was captured from.
    pub monitor: MonitorGeometry,
}

/// The real screen, for one play.
struct Live<'p> {
    reader: Reader<'p>,
    /// The game recognised at the first look, which reads the rest of the
    /// play (a play is one game's).
    locked: Option<&'static dyn OnScreen>,
    delay: Option<Duration>,
    region: Rect,
    grabber: &'p mut Grabber,
    keys: Option<&'p Keys>,
    input: Option<Input>,
    guard: WindowGuard,
}

/// Reads a capture: with the named game, or with every game (only the
/// `locked` one once a game has been recognised in this play). The report,
/// and the game that read the board, if one did.
fn read_with(
    reader: Reader<'_>,
    locked: &mut Option<&'static dyn OnScreen>,
    img: &RgbImage,
) -> Result<(Report, Option<&'static dyn OnScreen>), GameError> {
    let opts = Options::default();
    match reader {
        Reader::Named {
            screen,
            calibration,
        } => Ok((screen.solve_image(img, calibration, &opts)?, Some(screen))),
        Reader::Any(lineup) => {
            let rec = lineup.solve(img, &opts, locked.map(|s| s.id()))?;
            if locked.is_none() {
                *locked = rec.screen;
            }
            Ok((rec.report, rec.screen))
        }
    }
}

/// Reads a capture, with actions and the safe point in input coordinates.
fn read_capture(
    reader: Reader<'_>,
    locked: &mut Option<&'static dyn OnScreen>,
    delay: Option<Duration>,
    cap: &Capture,
) -> Result<Seen, GameError> {
    let (mut report, screen) = read_with(reader, locked, &cap.image)?;
    report.timing_ms.capture = Some(cap.ms);
    let to_input =
        |a: &Action| a.map_points(|x, y| cap.to_input(f64::from(x) + 0.5, f64::from(y) + 0.5));
    let mut step = screen.map_or_else(|| Step::from_report(&report), |s| s.step(&report));
    if let Step::Act { actions, .. } = &mut step {
        *actions = actions.iter().map(to_input).collect();
    }
    if let Some(actions) = &mut report.actions {
        *actions = actions.iter().map(to_input).collect();
    }
    let safe_point = screen
        .and_then(|s| s.safe_point(&report))
        .map(|(x, y)| cap.to_input(x, y));
    let pacing = screen.map(|s| with_delay(s.pacing(), delay));
    Ok(Seen {
        report,
        step,
        pacing,
        safe_point,
    })
}

/// A game's pacing, with `--delay-ms` in place of its pauses when given.
fn with_delay(p: Pacing, delay: Option<Duration>) -> Pacing {
    delay.map_or(p, |d| p.with_delay(d))
}

/// Stops a play when the game goes away: it remembers the top-level
/// window under the first point acted on, and refuses any later action
/// whose point (for keys, the last point) lies in another window, or on
/// the bare desktop: the game's window closed, or something covers it.
/// Where the windows cannot be asked (not X11), it lets everything pass.
#[derive(Default)]
struct WindowGuard {
    #[cfg(all(unix, not(target_os = "macos")))]
    at: Option<crate::capture::x11::WindowAt>,
    /// The game's window, once known.
    game: Option<u32>,
    last: Option<(i32, i32)>,
    opened: bool,
}

impl WindowGuard {
    fn check(&mut self, a: &Action) -> Option<String> {
        let point = a.points().first().copied().or(self.last)?;
        self.last = Some(point);
        let now = self.window_at(point)?;
        match (self.game, now) {
            (None, Some(w)) => {
                self.game = Some(w);
                None
            }
            (None, None) => None,
            (Some(g), Some(w)) if g == w => None,
            (Some(_), _) => Some(format!(
                "the game's window is gone from under ({}, {}): it closed, or another window covers it; nothing more was sent",
                point.0, point.1
            )),
        }
    }

    /// The window at `p`: `Some(None)` for the bare desktop, `None` when
    /// it cannot be told.
    #[cfg(all(unix, not(target_os = "macos")))]
    fn window_at(&mut self, p: (i32, i32)) -> Option<Option<u32>> {
        if !self.opened {
            self.opened = true;
            self.at = crate::capture::x11::WindowAt::open().ok();
        }
        Some(self.at.as_ref()?.at(p.0, p.1))
    }

    #[cfg(not(all(unix, not(target_os = "macos"))))]
    fn window_at(&mut self, _p: (i32, i32)) -> Option<Option<u32>> {
        None
    }
}

fn aborted(keys: Option<&Keys>) -> bool {
    keys.is_some_and(|k| k.poll() == Some(Role::Abort))
}

impl Screen for Live<'_> {
    type Shot = Capture;
    type Error = PlayError;

    fn capture(&mut self) -> Result<Capture, PlayError> {
        Ok(self.grabber.capture(self.region)?)
    }

    fn same(&self, a: &Capture, b: &Capture) -> bool {
        a.image == b.image
    }

    fn read(&mut self, shot: &Capture) -> Result<Seen, PlayError> {
        Ok(read_capture(
            self.reader,
            &mut self.locked,
            self.delay,
            shot,
        )?)
    }

    fn send(&mut self, actions: &[Action], pacing: &Pacing) -> Result<Sent, PlayError> {
        let keys = self.keys;
        let input = match &mut self.input {
            Some(i) => i,
            None => {
                // Presses from before the first input are not meant for it.
                if let Some(k) = keys {
                    k.drain();
                }
                self.input.insert(Input::new()?)
            }
        };
        let guard = &mut self.guard;
        Ok(input.replay(
            actions,
            |k| pacing.gap(k),
            || aborted(keys),
            |a| guard.check(a),
        )?)
    }

    fn pause(&mut self, d: Duration) -> bool {
        let Some(keys) = self.keys else {
            std::thread::sleep(d);
            return false;
        };
        let end = Instant::now() + d;
        while let Some(left) = end.checked_duration_since(Instant::now()) {
            match keys.wait(Some(left)) {
                Some(Role::Abort) => return true,
                Some(_) => {}
                None => return false,
            }
        }
        false
    }
}

fn ms_between(from: Instant, to: Option<Instant>) -> Option<f64> {
    to.map(|t| (t.saturating_duration_since(from).as_secs_f64() * 100_000.0).round() / 100.0)
}

impl Player<'_> {
    /// Captures and reads the region once.
    pub fn look(&mut self) -> Result<(Capture, Report), PlayError> {
        let cap = self.grabber.capture(self.region)?;
        let seen = read_capture(self.reader, &mut None, self.delay, &cap)?;
        Ok((cap, seen.report))
    }

    /// Saves the capture and the debug image of a refused read.
    fn save_seen(&mut self, cap: &Capture, report: &Report) -> Option<(PathBuf, PathBuf)> {
        let dir = self.save_dir.clone()?;
        match save_files(&dir, report.game.unwrap_or("unrecognised"), cap, report) {
            Ok(paths) => Some(paths),
            Err(e) => {
                if !self.warned_save {
                    eprintln!(
                        "warning: cannot save what was seen in {}: {e}",
                        dir.display()
                    );
                    self.warned_save = true;
                }
                None
            }
        }
    }

    /// One play, from `trigger` (when the hotkey was pressed). `keys`
    /// arms the abort key while looking and acting.
    pub fn play(&mut self, trigger: Instant, keys: Option<&Keys>) -> Result<Round, PlayError> {
        let rules = Rules {
            region: self.region,
            pacing: with_delay(self.reader.pacing(), self.delay),
            dry_run: self.dry_run,
        };
        let mut screen = Live {
            reader: self.reader,
            locked: None,
            delay: self.delay,
            region: self.region,
            grabber: &mut self.grabber,
            keys,
            input: None,
            guard: WindowGuard::default(),
        };
        let c = cycle::run(&mut screen, &rules)?;
        let report = c.first;
        let timings = Timings {
            capture: c.shot.ms,
            vision: report.timing_ms.vision.unwrap_or(0.0),
            solve: report.timing_ms.solve,
            to_first_input: ms_between(trigger, c.first_input),
            to_plan: ms_between(trigger, c.planned).unwrap_or_else(|| ms_since(trigger)),
        };
        let saved = match c.outcome {
            Outcome::Refused if report.state.exit_code() != 0 => self.save_seen(&c.shot, &report),
            _ => None,
        };
        Ok(Round {
            cells: report.board.as_ref().map(|b| b.cells.clone()),
            report,
            outcome: c.outcome,
            saved,
            timings,
            monitor: c.shot.monitor,
        })
    }

    /// Waits until the region shows a playable board other than `last`,
    /// looking every `every`. `None` when the abort key is pressed.
    pub fn wait_for_new_board(
        &mut self,
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
            if report.state == Verdict::Playable && cells != last {
                return Ok(Some(t));
            }
        }
    }
}

fn save_files(
    dir: &Path,
    game: &str,
    cap: &Capture,
    report: &Report,
) -> Result<(PathBuf, PathBuf), String> {
    crate::files::ensure_dir(dir, "--save-dir").map_err(|e| e.to_string())?;
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    let shot = dir.join(format!("{game}-{stamp}-capture.png"));
    let seen = dir.join(format!("{game}-{stamp}-seen.png"));
    crate::files::write_png(&shot, &cap.image).map_err(|e| e.to_string())?;
    let drawn = debug::render(&cap.image, report.seen.grid.as_ref(), &[]);
    crate::files::write_png(&seen, &drawn).map_err(|e| e.to_string())?;
    Ok((shot, seen))
}
