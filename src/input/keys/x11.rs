//! Hotkeys on X11: each key is grabbed on the root window, and a thread
//! blocks on the X connection for the press. Nothing polls, so a press is
//! seen as soon as the server sends it (global-hotkey polls every 50 ms).

use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use x11rb::connection::Connection;
use x11rb::protocol::Event;
use x11rb::protocol::xproto::{ConnectionExt, GrabMode, ModMask, Window};
use x11rb::rust_connection::RustConnection;

use super::{KeyError, Role};
use crate::input::key::{KeyCode, Modifier, parse_chord};

/// Caps Lock and Num Lock: a grab is made with and without each, so the
/// hotkey works whatever their state.
const LOCKS: [u16; 4] = [0, 1 << 1, 1 << 4, (1 << 1) | (1 << 4)];

pub struct Grabs {
    conn: Arc<RustConnection>,
    root: Window,
    /// Each key: its keycode, modifier mask and role.
    keys: Vec<(u8, u16, Role)>,
    presses: Receiver<(u8, u16, Instant)>,
}

/// The X keysym of a key.
fn keysym(code: KeyCode) -> u32 {
    match code {
        KeyCode::Left => 0xff51,
        KeyCode::Up => 0xff52,
        KeyCode::Right => 0xff53,
        KeyCode::Down => 0xff54,
        KeyCode::Space => 0x20,
        KeyCode::Enter => 0xff0d,
        KeyCode::Escape => 0xff1b,
        KeyCode::Tab => 0xff09,
        KeyCode::Backspace => 0xff08,
        KeyCode::Delete => 0xffff,
        KeyCode::Home => 0xff50,
        KeyCode::End => 0xff57,
        KeyCode::PageUp => 0xff55,
        KeyCode::PageDown => 0xff56,
        KeyCode::Letter(c) => u32::from(c),
        KeyCode::Digit(d) => 0x30 + u32::from(d),
        KeyCode::F(n) => 0xffbe + u32::from(n) - 1,
    }
}

fn mask(mods: &[Modifier]) -> u16 {
    mods.iter()
        .map(|m| match m {
            Modifier::Shift => 1 << 0,
            Modifier::Ctrl => 1 << 2,
            Modifier::Alt => 1 << 3,
            Modifier::Meta => 1 << 6,
        })
        .fold(0, |a, b| a | b)
}

fn err(e: impl std::fmt::Display) -> KeyError {
    KeyError::Manager(format!("X11: {e}"))
}

impl Grabs {
    /// Connects to the X server of `DISPLAY` and starts the thread that
    /// waits for presses.
    pub fn new() -> Result<Grabs, KeyError> {
        let (conn, screen) = x11rb::connect(None).map_err(err)?;
        let root = conn.setup().roots[screen].root;
        let conn = Arc::new(conn);
        let (tx, presses) = channel();
        let reader = Arc::clone(&conn);
        std::thread::Builder::new()
            .name("boardbot-x11-keys".into())
            .spawn(move || {
                while let Ok(e) = reader.wait_for_event() {
                    if let Event::KeyPress(k) = e {
                        let at = Instant::now();
                        if tx.send((k.detail, u16::from(k.state), at)).is_err() {
                            return;
                        }
                    }
                }
            })
            .map_err(err)?;
        Ok(Grabs {
            conn,
            root,
            keys: Vec::new(),
            presses,
        })
    }

    fn keycode(&self, sym: u32) -> Result<Option<u8>, KeyError> {
        let setup = self.conn.setup();
        let (min, max) = (setup.min_keycode, setup.max_keycode);
        let map = self
            .conn
            .get_keyboard_mapping(min, max - min + 1)
            .map_err(err)?
            .reply()
            .map_err(err)?;
        let per = usize::from(map.keysyms_per_keycode.max(1));
        Ok(map
            .keysyms
            .chunks(per)
            .position(|syms| syms.contains(&sym))
            .and_then(|i| u8::try_from(usize::from(min) + i).ok()))
    }

    pub fn listen(&mut self, spec: &str, role: Role) -> Result<(), KeyError> {
        let parse_err = |reason: String| KeyError::Parse {
            spec: spec.into(),
            reason,
        };
        let (code, mods) = parse_chord(spec).map_err(|e| parse_err(e.to_string()))?;
        let Some(kc) = self.keycode(keysym(code))? else {
            return Err(parse_err("the keyboard map has no such key".into()));
        };
        let m = mask(&mods);
        for lock in LOCKS {
            let grabbed = self
                .conn
                .grab_key(
                    false,
                    self.root,
                    ModMask::from(m | lock),
                    kc,
                    GrabMode::ASYNC,
                    GrabMode::ASYNC,
                )
                .map_err(err)?
                .check();
            if let Err(e) = grabbed {
                self.ungrab(kc, m);
                return Err(KeyError::Register {
                    spec: spec.into(),
                    reason: e.to_string(),
                });
            }
        }
        self.keys.push((kc, m, role));
        Ok(())
    }

    fn ungrab(&self, kc: u8, m: u16) {
        for lock in LOCKS {
            let _ = self.conn.ungrab_key(kc, self.root, ModMask::from(m | lock));
        }
        let _ = self.conn.flush();
    }

    pub fn release(&mut self, role: Role) {
        for &(kc, m, _) in self.keys.iter().filter(|k| k.2 == role) {
            self.ungrab(kc, m);
        }
        self.keys.retain(|k| k.2 != role);
    }

    fn role_of(&self, kc: u8, state: u16) -> Option<Role> {
        // Only the modifier bits count, less the locks.
        let mods = state & 0x00ff & !LOCKS[3];
        self.keys
            .iter()
            .find(|k| k.0 == kc && k.1 == mods)
            .map(|k| k.2)
    }

    /// The next press of a grabbed key, waiting up to `left`.
    pub fn next(&self, left: Duration) -> Option<(Role, Instant)> {
        let end = Instant::now() + left;
        loop {
            let left = end.checked_duration_since(Instant::now())?;
            match self.presses.recv_timeout(left) {
                Ok((kc, state, at)) => {
                    if let Some(r) = self.role_of(kc, state) {
                        return Some((r, at));
                    }
                }
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => return None,
            }
        }
    }

    pub fn poll(&self) -> Option<Role> {
        while let Ok((kc, state, _)) = self.presses.try_recv() {
            if let Some(r) = self.role_of(kc, state) {
                return Some(r);
            }
        }
        None
    }

    pub fn drain(&self) {
        while self.presses.try_recv().is_ok() {}
    }
}

impl Drop for Grabs {
    fn drop(&mut self) {
        for &(kc, m, _) in &self.keys {
            self.ungrab(kc, m);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_map_to_their_x_keysyms() {
        assert_eq!(keysym(KeyCode::F(1)), 0xffbe);
        assert_eq!(keysym(KeyCode::F(9)), 0xffc6);
        assert_eq!(keysym(KeyCode::Letter('p')), u32::from(b'p'));
        assert_eq!(keysym(KeyCode::Digit(7)), u32::from(b'7'));
        assert_eq!(mask(&[Modifier::Ctrl, Modifier::Alt]), 0b1100);
    }
}
