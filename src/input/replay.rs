//! Sends actions as real input with enigo, stopping at once when the abort
//! key is pressed. Pauses (between actions, inside a `wait`, a held key or
//! a drag) ask the abort key every 2 ms.

use std::time::{Duration, Instant};

use enigo::{Button, Coordinate, Direction, Enigo, Key, Keyboard, Mouse, Settings};

use super::{Action, KeyCode, Kind, Modifier, path};

#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error(
        "cannot send input: {0}. On X11 check DISPLAY; on Wayland input needs the libei portal"
    )]
    Connect(String),
    #[error("sending input failed after {sent} action(s): {reason}")]
    Send { sent: usize, reason: String },
}

/// How a replay ended: the same as a play's [`super::Sent`].
pub use super::Sent as Replayed;

/// The input device.
pub struct Input {
    enigo: Enigo,
}

fn key_of(code: KeyCode) -> Key {
    match code {
        KeyCode::Left => Key::LeftArrow,
        KeyCode::Right => Key::RightArrow,
        KeyCode::Up => Key::UpArrow,
        KeyCode::Down => Key::DownArrow,
        KeyCode::Space => Key::Space,
        KeyCode::Enter => Key::Return,
        KeyCode::Escape => Key::Escape,
        KeyCode::Tab => Key::Tab,
        KeyCode::Backspace => Key::Backspace,
        KeyCode::Delete => Key::Delete,
        KeyCode::Home => Key::Home,
        KeyCode::End => Key::End,
        KeyCode::PageUp => Key::PageUp,
        KeyCode::PageDown => Key::PageDown,
        KeyCode::Letter(c) => Key::Unicode(c),
        KeyCode::Digit(d) => Key::Unicode(char::from(b'0' + d.min(9))),
        KeyCode::F(n) => f_key(n),
    }
}

fn f_key(n: u8) -> Key {
    const F: [Key; 20] = [
        Key::F1,
        Key::F2,
        Key::F3,
        Key::F4,
        Key::F5,
        Key::F6,
        Key::F7,
        Key::F8,
        Key::F9,
        Key::F10,
        Key::F11,
        Key::F12,
        Key::F13,
        Key::F14,
        Key::F15,
        Key::F16,
        Key::F17,
        Key::F18,
        Key::F19,
        Key::F20,
    ];
    F[usize::from(n.clamp(1, 20) - 1)]
}

fn modifier_key(m: Modifier) -> Key {
    match m {
        Modifier::Shift => Key::Shift,
        Modifier::Ctrl => Key::Control,
        Modifier::Alt => Key::Alt,
        Modifier::Meta => Key::Meta,
    }
}

/// Sleeps `d`, asking `abort` every 2 ms; true when it said yes.
fn pause(d: Duration, abort: &mut impl FnMut() -> bool) -> bool {
    let until = Instant::now() + d;
    loop {
        if abort() {
            return true;
        }
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return false;
        }
        std::thread::sleep(Duration::from_millis(2).min(left));
    }
}

type Sent = Result<bool, String>;

/// `ms` shared evenly between `moves` pointer moves.
fn spread(ms: u32, moves: usize) -> Duration {
    Duration::from_millis(u64::from(ms)) / u32::try_from(moves.max(1)).unwrap_or(u32::MAX)
}

impl Input {
    pub fn new() -> Result<Input, ReplayError> {
        Input::connect(Settings::default())
    }

    /// The input device of the X display `name`, whatever `DISPLAY` says
    /// (the tests drive their own X server).
    pub fn on_display(name: &str) -> Result<Input, ReplayError> {
        Input::connect(Settings {
            x11_display: Some(name.to_string()),
            ..Settings::default()
        })
    }

    fn connect(settings: Settings) -> Result<Input, ReplayError> {
        // boardbot paces the input itself; enigo's own per-event delay
        // would only add latency.
        let settings = Settings {
            linux_delay: 1,
            ..settings
        };
        Enigo::new(&settings)
            .map(|enigo| Input { enigo })
            .map_err(|e| ReplayError::Connect(e.to_string()))
    }

    /// The mouse's position, in input coordinates.
    pub fn mouse(&self) -> Result<(i32, i32), ReplayError> {
        self.enigo
            .location()
            .map_err(|e| ReplayError::Connect(e.to_string()))
    }

    fn click(&mut self, x: i32, y: i32) -> Result<(), String> {
        let e = |x: enigo::InputError| x.to_string();
        self.enigo.move_mouse(x, y, Coordinate::Abs).map_err(e)?;
        self.enigo.button(Button::Left, Direction::Click).map_err(e)
    }

    /// Press at `from`, move through `moves` one every `gap`, release. The
    /// button is released even when the abort key cuts the drag short.
    fn drag(
        &mut self,
        from: [i32; 2],
        moves: &[[i32; 2]],
        gap: Duration,
        abort: &mut impl FnMut() -> bool,
    ) -> Sent {
        let e = |x: enigo::InputError| x.to_string();
        self.enigo
            .move_mouse(from[0], from[1], Coordinate::Abs)
            .map_err(e)?;
        self.enigo
            .button(Button::Left, Direction::Press)
            .map_err(e)?;
        let mut stopped = false;
        for m in moves {
            self.enigo
                .move_mouse(m[0], m[1], Coordinate::Abs)
                .map_err(e)?;
            if pause(gap, abort) {
                stopped = true;
                break;
            }
        }
        self.enigo
            .button(Button::Left, Direction::Release)
            .map_err(e)?;
        Ok(stopped)
    }

    /// A key with its modifiers, held `hold` if given. Every key pressed is
    /// released, in reverse order, even when the abort key comes mid-hold.
    fn key(
        &mut self,
        code: KeyCode,
        mods: &[Modifier],
        hold: Option<u32>,
        abort: &mut impl FnMut() -> bool,
    ) -> Sent {
        let e = |x: enigo::InputError| x.to_string();
        for m in mods {
            self.enigo
                .key(modifier_key(*m), Direction::Press)
                .map_err(e)?;
        }
        let k = key_of(code);
        let stopped = match hold {
            None => {
                self.enigo.key(k, Direction::Click).map_err(e)?;
                false
            }
            Some(ms) => {
                self.enigo.key(k, Direction::Press).map_err(e)?;
                let stopped = pause(Duration::from_millis(u64::from(ms)), abort);
                self.enigo.key(k, Direction::Release).map_err(e)?;
                stopped
            }
        };
        for m in mods.iter().rev() {
            self.enigo
                .key(modifier_key(*m), Direction::Release)
                .map_err(e)?;
        }
        Ok(stopped)
    }

    /// Sends one action; `Ok(true)` when the abort key cut it short.
    fn send_one(&mut self, a: &Action, abort: &mut impl FnMut() -> bool) -> Sent {
        match a {
            Action::Click { x, y, .. } | Action::Focus { x, y } => {
                self.click(*x, *y).map(|()| false)
            }
            Action::Drag {
                from,
                to,
                duration_ms,
                steps,
            } => {
                let moves = path::straight(*from, *to, *steps);
                self.drag(*from, &moves, spread(*duration_ms, moves.len()), abort)
            }
            Action::DragPath {
                points,
                duration_ms,
                max_step_px,
            } => {
                let Some(&from) = points.first() else {
                    return Ok(false);
                };
                let moves = path::moves(points, *max_step_px);
                self.drag(from, &moves, spread(*duration_ms, moves.len()), abort)
            }
            Action::Key { key, mods, hold_ms } => self.key(*key, mods, *hold_ms, abort),
            Action::Wait { ms } => Ok(pause(Duration::from_millis(u64::from(*ms)), abort)),
        }
    }

    /// Sends `actions`, pausing `gap(kind)` after each one of that kind
    /// (not after the last). `abort` is asked before every action and every
    /// few milliseconds while pausing; once it says yes, nothing more is
    /// sent. `guard` is asked just before each action: a reason stops the
    /// replay there.
    pub fn replay(
        &mut self,
        actions: &[Action],
        gap: impl Fn(Kind) -> Duration,
        mut abort: impl FnMut() -> bool,
        mut guard: impl FnMut(&Action) -> Option<String>,
    ) -> Result<Replayed, ReplayError> {
        let mut first = None;
        for (i, a) in actions.iter().enumerate() {
            if i > 0 && pause(gap(actions[i - 1].kind()), &mut abort) || abort() {
                return Ok(Replayed::Aborted { sent: i, first });
            }
            if let Some(why) = guard(a) {
                return Ok(Replayed::Stopped {
                    sent: i,
                    first,
                    why,
                });
            }
            // When the first move's input starts (a drag's press, not its
            // release); a focus click only prepares the keys.
            if !matches!(a.kind(), Kind::Wait | Kind::Focus) {
                first.get_or_insert_with(Instant::now);
            }
            let stopped = self
                .send_one(a, &mut abort)
                .map_err(|reason| ReplayError::Send { sent: i, reason })?;
            if stopped {
                return Ok(Replayed::Aborted { sent: i + 1, first });
            }
        }
        Ok(Replayed::Done {
            sent: actions.len(),
            first,
        })
    }
}
