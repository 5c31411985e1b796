//! Global hotkeys: the key that starts a play and the key that aborts
//! one, heard whichever window has the focus.
//!
//! On X11 boardbot grabs the keys on the root window itself and blocks on
//! the press (`x11`); elsewhere, or when that connection cannot be made,
//! it uses the global-hotkey crate (`portable`).

use std::time::{Duration, Instant};

mod portable;
#[cfg(all(unix, not(target_os = "macos")))]
mod x11;

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

/// A press of a hotkey, and when it arrived.
#[derive(Clone, Copy, Debug)]
pub struct Press {
    pub role: Role,
    pub at: Instant,
}

enum Backend {
    #[cfg(all(unix, not(target_os = "macos")))]
    X11(x11::Grabs),
    Portable(portable::Hotkeys),
}

/// The registered hotkeys.
pub struct Keys {
    backend: Backend,
    names: Vec<(Role, String)>,
}

impl Keys {
    pub fn new() -> Result<Keys, KeyError> {
        #[cfg(all(unix, not(target_os = "macos")))]
        if let Ok(g) = x11::Grabs::new() {
            return Ok(Keys {
                backend: Backend::X11(g),
                names: Vec::new(),
            });
        }
        Ok(Keys {
            backend: Backend::Portable(portable::Hotkeys::new()?),
            names: Vec::new(),
        })
    }

    /// Listens for `spec` (`F9`, `Escape`, `ctrl+alt+KeyP`) as `role`.
    pub fn listen(&mut self, spec: &str, role: Role) -> Result<(), KeyError> {
        match &mut self.backend {
            #[cfg(all(unix, not(target_os = "macos")))]
            Backend::X11(g) => g.listen(spec, role)?,
            Backend::Portable(h) => h.listen(spec, role)?,
        }
        self.names.push((role, spec.to_string()));
        Ok(())
    }

    /// Stops listening for the keys of `role`.
    pub fn release(&mut self, role: Role) {
        match &mut self.backend {
            #[cfg(all(unix, not(target_os = "macos")))]
            Backend::X11(g) => g.release(role),
            Backend::Portable(h) => h.release(role),
        }
        self.names.retain(|n| n.0 != role);
    }

    /// The name a role's key was given as.
    pub fn name(&self, role: Role) -> Option<&str> {
        self.names
            .iter()
            .find(|n| n.0 == role)
            .map(|n| n.1.as_str())
    }

    /// A key pressed since the last call, if any; does not wait.
    pub fn poll(&self) -> Option<Role> {
        match &self.backend {
            #[cfg(all(unix, not(target_os = "macos")))]
            Backend::X11(g) => g.poll(),
            Backend::Portable(h) => h.poll(),
        }
    }

    /// Waits up to `timeout` (forever with `None`) for a press.
    pub fn wait_press(&self, timeout: Option<Duration>) -> Option<Press> {
        let end = timeout.map(|t| Instant::now() + t);
        loop {
            let left = match end {
                Some(end) => end.checked_duration_since(Instant::now())?,
                None => Duration::from_secs(3600),
            };
            let got = match &self.backend {
                #[cfg(all(unix, not(target_os = "macos")))]
                Backend::X11(g) => g.next(left),
                Backend::Portable(h) => h.next(left),
            };
            match got {
                Some((role, at)) => return Some(Press { role, at }),
                None if end.is_some() => return None,
                None => {}
            }
        }
    }

    /// Waits up to `timeout` (forever with `None`) for a key.
    pub fn wait(&self, timeout: Option<Duration>) -> Option<Role> {
        self.wait_press(timeout).map(|p| p.role)
    }

    /// Forgets presses that came before now.
    pub fn drain(&self) {
        match &self.backend {
            #[cfg(all(unix, not(target_os = "macos")))]
            Backend::X11(g) => g.drain(),
            Backend::Portable(h) => h.drain(),
        }
    }
}
