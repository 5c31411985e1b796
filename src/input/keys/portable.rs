//! Hotkeys through the global-hotkey crate: Windows, macOS, and X11 when
//! boardbot cannot open its own X connection. Its X11 thread polls every
//! 50 ms, which is why X11 has its own backend.

use std::str::FromStr;
use std::time::{Duration, Instant};

use global_hotkey::hotkey::HotKey;
use global_hotkey::{GlobalHotKeyEvent, GlobalHotKeyManager, HotKeyState};

use super::{KeyError, Role};

pub struct Hotkeys {
    manager: GlobalHotKeyManager,
    keys: Vec<(HotKey, Role)>,
}

impl Hotkeys {
    pub fn new() -> Result<Hotkeys, KeyError> {
        Ok(Hotkeys {
            manager: GlobalHotKeyManager::new().map_err(|e| KeyError::Manager(e.to_string()))?,
            keys: Vec::new(),
        })
    }

    pub fn listen(&mut self, spec: &str, role: Role) -> Result<(), KeyError> {
        let key = HotKey::from_str(spec).map_err(|e| KeyError::Parse {
            spec: spec.to_string(),
            reason: e.to_string(),
        })?;
        self.manager.register(key).map_err(|e| KeyError::Register {
            spec: spec.to_string(),
            reason: e.to_string(),
        })?;
        self.keys.push((key, role));
        Ok(())
    }

    pub fn release(&mut self, role: Role) {
        for (key, _) in self.keys.iter().filter(|k| k.1 == role) {
            let _ = self.manager.unregister(*key);
        }
        self.keys.retain(|k| k.1 != role);
    }

    fn role_of(&self, e: &GlobalHotKeyEvent) -> Option<Role> {
        if e.state() != HotKeyState::Pressed {
            return None;
        }
        self.keys.iter().find(|k| k.0.id() == e.id()).map(|k| k.1)
    }

    /// The next press of a registered key, waiting up to `left`.
    pub fn next(&self, left: Duration) -> Option<(Role, Instant)> {
        let end = Instant::now() + left;
        loop {
            let left = end.checked_duration_since(Instant::now())?;
            let e = GlobalHotKeyEvent::receiver().recv_timeout(left).ok()?;
            if let Some(r) = self.role_of(&e) {
                return Some((r, Instant::now()));
            }
        }
    }

    pub fn poll(&self) -> Option<Role> {
        while let Ok(e) = GlobalHotKeyEvent::receiver().try_recv() {
            if let Some(r) = self.role_of(&e) {
                return Some(r);
            }
        }
        None
    }

    pub fn drain(&self) {
        while GlobalHotKeyEvent::receiver().try_recv().is_ok() {}
    }
}

impl Drop for Hotkeys {
    fn drop(&mut self) {
        for (key, _) in &self.keys {
            let _ = self.manager.unregister(*key);
        }
    }
}
