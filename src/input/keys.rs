//! Global hotkeys: the key that starts a play and the key that aborts
//! one, heard whichever window has the focus (X11, Windows, macOS).

use std::str::FromStr;
use std::time::{Duration, Instant};

use global_hotkey::hotkey::HotKey;
use global_hotkey::{GlobalHotKeyEvent, GlobalHotKeyManager, HotKeyState};

#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error("cannot listen for global hotkeys: {0}")]
    Manager(String),
    #[error(
        "{spec:?} is not a key boardbot can listen for ({reason}); try F9, Escape, or ctrl+alt+KeyP"
    )]
    Parse { spec: String, reason: String },
    #[error(
        "cannot register {spec} as a global hotkey: {reason}. Another program may hold it; pick another key"
    )]
    Register { spec: String, reason: String },
}

/// What a key is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Play,
    Abort,
}

/// The registered hotkeys.
pub struct Keys {
    manager: GlobalHotKeyManager,
    keys: Vec<(HotKey, Role, String)>,
}

impl Keys {
    pub fn new() -> Result<Keys, KeyError> {
        Ok(Keys {
            manager: GlobalHotKeyManager::new().map_err(|e| KeyError::Manager(e.to_string()))?,
            keys: Vec::new(),
        })
    }

    /// Listens for `spec` (`F9`, `Escape`, `ctrl+alt+KeyP`) as `role`.
    pub fn listen(&mut self, spec: &str, role: Role) -> Result<(), KeyError> {
        let key = HotKey::from_str(spec).map_err(|e| KeyError::Parse {
            spec: spec.to_string(),
            reason: e.to_string(),
        })?;
        self.manager.register(key).map_err(|e| KeyError::Register {
            spec: spec.to_string(),
            reason: e.to_string(),
        })?;
        self.keys.push((key, role, spec.to_string()));
        Ok(())
    }

    /// Stops listening for the keys of `role`.
    pub fn release(&mut self, role: Role) {
        for (key, _, _) in self.keys.iter().filter(|k| k.1 == role) {
            let _ = self.manager.unregister(*key);
        }
        self.keys.retain(|k| k.1 != role);
    }

    /// The name a role's key was given as.
    pub fn name(&self, role: Role) -> Option<&str> {
        self.keys.iter().find(|k| k.1 == role).map(|k| k.2.as_str())
    }

    fn role_of(&self, e: &GlobalHotKeyEvent) -> Option<Role> {
        if e.state() != HotKeyState::Pressed {
            return None;
        }
        self.keys.iter().find(|k| k.0.id() == e.id()).map(|k| k.1)
    }

    /// A key pressed since the last call, if any; does not wait.
    pub fn poll(&self) -> Option<Role> {
        while let Ok(e) = GlobalHotKeyEvent::receiver().try_recv() {
            if let Some(r) = self.role_of(&e) {
                return Some(r);
            }
        }
        None
    }

    /// Waits up to `timeout` (forever with `None`) for a key.
    pub fn wait(&self, timeout: Option<Duration>) -> Option<Role> {
        let end = timeout.map(|t| Instant::now() + t);
        loop {
            let left = match end {
                Some(end) => end.checked_duration_since(Instant::now())?,
                None => Duration::from_secs(3600),
            };
            match GlobalHotKeyEvent::receiver().recv_timeout(left) {
                Ok(e) => {
                    if let Some(r) = self.role_of(&e) {
                        return Some(r);
                    }
                }
                Err(_) if end.is_some() => return None,
                Err(_) => {}
            }
        }
    }

    /// Forgets presses that came before now.
    pub fn drain(&self) {
        while GlobalHotKeyEvent::receiver().try_recv().is_ok() {}
    }
}

impl Drop for Keys {
    fn drop(&mut self) {
        for (key, _, _) in &self.keys {
            let _ = self.manager.unregister(*key);
        }
    }
}
