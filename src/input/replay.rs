//! Sends actions as real input with enigo, stopping at once when the abort
//! key is pressed.

use std::time::{Duration, Instant};

use enigo::{Button, Coordinate, Direction, Enigo, Key, Keyboard, Mouse, Settings};

use super::Action;

#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error(
        "cannot send input: {0}. On X11 check DISPLAY; on Wayland input needs the libei portal"
    )]
    Connect(String),
    #[error("sending input failed after {sent} action(s): {reason}")]
    Send { sent: usize, reason: String },
    #[error("unknown key name {0:?}")]
    Key(String),
}

/// How a replay ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Replayed {
    Done { sent: usize, first: Option<Instant> },
    Aborted { sent: usize, first: Option<Instant> },
}

/// The input device.
pub struct Input {
    enigo: Enigo,
}

fn key_of(name: &str) -> Option<Key> {
    Some(match name {
        "Left" => Key::LeftArrow,
        "Right" => Key::RightArrow,
        "Up" => Key::UpArrow,
        "Down" => Key::DownArrow,
        "Escape" => Key::Escape,
        "Enter" | "Return" => Key::Return,
        "Space" => Key::Space,
        s if s.chars().count() == 1 => Key::Unicode(s.chars().next()?),
        _ => return None,
    })
}

impl Input {
    pub fn new() -> Result<Input, ReplayError> {
        // boardbot paces the input itself; enigo's own per-event delay
        // would only add latency.
        let settings = Settings {
            linux_delay: 1,
            ..Settings::default()
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

    fn send_one(&mut self, a: &Action) -> Result<(), String> {
        let e = |x: enigo::InputError| x.to_string();
        match a {
            Action::Click { x, y, .. } => {
                self.enigo.move_mouse(*x, *y, Coordinate::Abs).map_err(e)?;
                self.enigo.button(Button::Left, Direction::Click).map_err(e)
            }
            Action::Drag { from, to } => {
                self.enigo
                    .move_mouse(from[0], from[1], Coordinate::Abs)
                    .map_err(e)?;
                self.enigo
                    .button(Button::Left, Direction::Press)
                    .map_err(e)?;
                for i in 1..=8 {
                    let t = f64::from(i) / 8.0;
                    let x = f64::from(from[0]) + (f64::from(to[0] - from[0])) * t;
                    let y = f64::from(from[1]) + (f64::from(to[1] - from[1])) * t;
                    self.enigo
                        .move_mouse(x.round() as i32, y.round() as i32, Coordinate::Abs)
                        .map_err(e)?;
                    std::thread::sleep(Duration::from_millis(4));
                }
                self.enigo
                    .button(Button::Left, Direction::Release)
                    .map_err(e)
            }
            Action::Key { key } => {
                let k = key_of(key).ok_or_else(|| format!("unknown key name {key:?}"))?;
                self.enigo.key(k, Direction::Click).map_err(e)
            }
        }
    }

    /// Sends `actions` with `delay` between them. `abort` is asked before
    /// every action and every few milliseconds while waiting; once it says
    /// yes, nothing more is sent.
    pub fn replay(
        &mut self,
        actions: &[Action],
        delay: Duration,
        mut abort: impl FnMut() -> bool,
    ) -> Result<Replayed, ReplayError> {
        let mut first = None;
        for (i, a) in actions.iter().enumerate() {
            if i > 0 {
                let until = Instant::now() + delay;
                while Instant::now() < until {
                    if abort() {
                        return Ok(Replayed::Aborted { sent: i, first });
                    }
                    std::thread::sleep(
                        Duration::from_millis(2)
                            .min(until.saturating_duration_since(Instant::now())),
                    );
                }
            }
            if abort() {
                return Ok(Replayed::Aborted { sent: i, first });
            }
            self.send_one(a)
                .map_err(|reason| ReplayError::Send { sent: i, reason })?;
            first.get_or_insert_with(Instant::now);
        }
        Ok(Replayed::Done {
            sent: actions.len(),
            first,
        })
    }
}
