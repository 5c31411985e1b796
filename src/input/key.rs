//! Key codes and modifiers, parsed and checked when a plan is made, so a
//! plan never holds a key that cannot be sent.
//!
//! Names are the ones people write: `Left`, `Space`, `Enter`, `a`, `7`,
//! `F5`, and with modifiers `ctrl+shift+Left`. In JSON a key is its name
//! (`"Left"`) and modifiers a list (`["ctrl", "shift"]`).

use std::fmt;
use std::str::FromStr;

use serde::{Serialize, Serializer};

/// A key, independent of the platform.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeyCode {
    Left,
    Right,
    Up,
    Down,
    Space,
    Enter,
    Escape,
    Tab,
    Backspace,
    Delete,
    Home,
    End,
    PageUp,
    PageDown,
    /// A letter `a`–`z`, held lower case (shift is a modifier).
    Letter(char),
    /// A digit 0–9 on the main row.
    Digit(u8),
    /// F1–F20, the function keys every platform sends.
    F(u8),
}

/// A key held down while another is pressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Modifier {
    Shift,
    Ctrl,
    Alt,
    /// The Windows, Command or Super key.
    Meta,
}

/// A key name that is not a key boardbot can send.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{name:?} is not a key boardbot can send: use an arrow (Left, Right, Up, Down), Space, Enter, Escape, Tab, \
     Backspace, Delete, Home, End, PageUp, PageDown, a letter, a digit or F1-F20, with optional \
     shift+, ctrl+, alt+ or meta+ before it"
)]
pub struct KeyNameError {
    pub name: String,
}

const NAMED: &[(&str, KeyCode)] = &[
    ("left", KeyCode::Left),
    ("right", KeyCode::Right),
    ("up", KeyCode::Up),
    ("down", KeyCode::Down),
    ("space", KeyCode::Space),
    ("enter", KeyCode::Enter),
    ("return", KeyCode::Enter),
    ("escape", KeyCode::Escape),
    ("esc", KeyCode::Escape),
    ("tab", KeyCode::Tab),
    ("backspace", KeyCode::Backspace),
    ("delete", KeyCode::Delete),
    ("home", KeyCode::Home),
    ("end", KeyCode::End),
    ("pageup", KeyCode::PageUp),
    ("pagedown", KeyCode::PageDown),
];

impl FromStr for KeyCode {
    type Err = KeyNameError;

    /// A key by name, case-insensitive; `ArrowLeft` and `KeyA` are accepted too.
    fn from_str(s: &str) -> Result<KeyCode, KeyNameError> {
        let err = || KeyNameError { name: s.into() };
        let lower = s.trim().to_ascii_lowercase();
        let name = lower
            .strip_prefix("arrow")
            .or_else(|| lower.strip_prefix("key").filter(|r| r.len() == 1))
            .or_else(|| lower.strip_prefix("digit").filter(|r| r.len() == 1))
            .unwrap_or(&lower);
        if let Some((_, k)) = NAMED.iter().find(|(n, _)| *n == name) {
            return Ok(*k);
        }
        let mut chars = name.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_lowercase() => return Ok(KeyCode::Letter(c)),
            (Some(c), None) if c.is_ascii_digit() => return Ok(KeyCode::Digit(c as u8 - b'0')),
            _ => {}
        }
        match name.strip_prefix('f').map(str::parse::<u8>) {
            Some(Ok(n)) if (1..=20).contains(&n) => Ok(KeyCode::F(n)),
            _ => Err(err()),
        }
    }
}

impl fmt::Display for KeyCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            KeyCode::Letter(c) => return write!(f, "{c}"),
            KeyCode::Digit(d) => return write!(f, "{d}"),
            KeyCode::F(n) => return write!(f, "F{n}"),
            KeyCode::Left => "Left",
            KeyCode::Right => "Right",
            KeyCode::Up => "Up",
            KeyCode::Down => "Down",
            KeyCode::Space => "Space",
            KeyCode::Enter => "Enter",
            KeyCode::Escape => "Escape",
            KeyCode::Tab => "Tab",
            KeyCode::Backspace => "Backspace",
            KeyCode::Delete => "Delete",
            KeyCode::Home => "Home",
            KeyCode::End => "End",
            KeyCode::PageUp => "PageUp",
            KeyCode::PageDown => "PageDown",
        };
        f.write_str(name)
    }
}

impl Serialize for KeyCode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl FromStr for Modifier {
    type Err = KeyNameError;

    fn from_str(s: &str) -> Result<Modifier, KeyNameError> {
        Ok(match s.trim().to_ascii_lowercase().as_str() {
            "shift" => Modifier::Shift,
            "ctrl" | "control" | "cmdorctrl" | "commandorcontrol" => Modifier::Ctrl,
            "alt" | "option" => Modifier::Alt,
            "meta" | "super" | "cmd" | "command" | "win" => Modifier::Meta,
            _ => return Err(KeyNameError { name: s.into() }),
        })
    }
}

impl fmt::Display for Modifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Modifier::Shift => "shift",
            Modifier::Ctrl => "ctrl",
            Modifier::Alt => "alt",
            Modifier::Meta => "meta",
        })
    }
}

/// Parses `ctrl+shift+Left` into the key and its modifiers (sorted, once each).
pub fn parse_chord(spec: &str) -> Result<(KeyCode, Vec<Modifier>), KeyNameError> {
    let err = || KeyNameError { name: spec.into() };
    let parts: Vec<&str> = spec.split('+').collect();
    let (key, mods) = parts.split_last().ok_or_else(err)?;
    let key = key.parse::<KeyCode>().map_err(|_| err())?;
    let mut mods = mods
        .iter()
        .map(|m| m.parse::<Modifier>().map_err(|_| err()))
        .collect::<Result<Vec<_>, _>>()?;
    mods.sort();
    mods.dedup();
    Ok((key, mods))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_names_people_write() {
        for (s, k) in [
            ("Left", KeyCode::Left),
            ("ArrowUp", KeyCode::Up),
            ("return", KeyCode::Enter),
            ("a", KeyCode::Letter('a')),
            ("KeyQ", KeyCode::Letter('q')),
            ("7", KeyCode::Digit(7)),
            ("F12", KeyCode::F(12)),
            ("pagedown", KeyCode::PageDown),
        ] {
            assert_eq!(s.parse::<KeyCode>(), Ok(k), "{s}");
            // Display gives a name that parses back to the same key.
            assert_eq!(k.to_string().parse::<KeyCode>(), Ok(k));
        }
        for bad in ["", "F0", "F21", "Lefty", "ab", "é", "+"] {
            assert!(bad.parse::<KeyCode>().is_err(), "{bad:?} was accepted");
        }
    }

    #[test]
    fn parses_chords_with_sorted_modifiers() {
        let (k, m) = parse_chord("shift+ctrl+Left").unwrap();
        assert_eq!(k, KeyCode::Left);
        assert_eq!(m, vec![Modifier::Shift, Modifier::Ctrl]);
        assert_eq!(parse_chord("ctrl+ctrl+x").unwrap().1, vec![Modifier::Ctrl]);
        let e = parse_chord("hyper+x").unwrap_err();
        assert!(e.to_string().contains("hyper+x"), "{e}");
        assert!(parse_chord("ctrl+").is_err());
    }
}
