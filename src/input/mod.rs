//! Input: the actions a plan turns into, in image pixels until the live
//! player maps them to the screen.
//!
//! - [`Action`]: click, drag, drag along a path, key, wait and focus,
//!   typed when the plan is made (a key is a [`key::KeyCode`], never a
//!   string checked later);
//! - [`key`]: key codes and modifiers, parsed from their names (pure);
//! - [`path`]: the pointer moves of a drag, along a path or straight (pure);
//! - [`check`]: the check every plan passes before anything is sent: every
//!   point inside the region, and no key before a focus click (pure);
//! - `replay`: sending actions with enigo (live feature);
//! - `keys`: the global play and abort hotkeys (live feature).

use serde::Serialize;

pub mod check;
pub mod key;
#[cfg(feature = "live")]
pub mod keys;
pub mod path;
#[cfg(feature = "live")]
pub mod replay;

pub use check::{PlanError, check_plan, ensure_focus};
pub use key::{KeyCode, KeyNameError, Modifier};

/// How sending a plan's actions ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Sent {
    Done {
        sent: usize,
        first: Option<std::time::Instant>,
    },
    /// The abort key was pressed.
    Aborted {
        sent: usize,
        first: Option<std::time::Instant>,
    },
    /// The game went away (its window closed, or another covers it)
    /// before the next action, for this reason: nothing more was sent.
    Stopped {
        sent: usize,
        first: Option<std::time::Instant>,
        why: String,
    },
}

/// A drag's defaults: long enough for games that watch the pointer move.
pub const DRAG_MS: u32 = 32;
pub const DRAG_STEPS: u32 = 8;

/// One input event to send.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Action {
    /// A left click at `(x, y)`, optionally on a board cell `[row, col]`.
    Click {
        x: i32,
        y: i32,
        #[serde(skip_serializing_if = "Option::is_none")]
        cell: Option<[usize; 2]>,
    },
    /// Press at `from`, move to `to` in `steps` even moves over
    /// `duration_ms`, release.
    Drag {
        from: [i32; 2],
        to: [i32; 2],
        duration_ms: u32,
        steps: u32,
    },
    /// Press at the first point, move through every point in turn, in
    /// pointer moves of at most `max_step_px` pixels spread evenly over
    /// `duration_ms`, release. For games that follow a drag cell by cell
    /// and ignore a pointer that jumps a whole cell (GNOME Klotski): the
    /// path may turn corners, and every pointer move stays under a cell.
    DragPath {
        points: Vec<[i32; 2]>,
        duration_ms: u32,
        max_step_px: u32,
    },
    /// A key press with the modifiers held, kept down `hold_ms` if given.
    Key {
        key: KeyCode,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        mods: Vec<Modifier>,
        #[serde(skip_serializing_if = "Option::is_none")]
        hold_ms: Option<u32>,
    },
    /// A pause, for a game that animates before it takes the next input.
    Wait { ms: u32 },
    /// A click on a point the game declares safe (it changes nothing), to
    /// give the game's window the keyboard focus before the first key.
    Focus { x: i32, y: i32 },
}

/// The kind of an action, for pacing and messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Click,
    Drag,
    Key,
    Wait,
    Focus,
}

impl Action {
    /// A click at the centre of a fractional-pixel point, on `cell`.
    pub fn click_at(x: f64, y: f64, cell: (usize, usize)) -> Action {
        Action::Click {
            x: x.round() as i32,
            y: y.round() as i32,
            cell: Some([cell.0, cell.1]),
        }
    }

    /// A focus click at a fractional-pixel point.
    pub fn focus_at(x: f64, y: f64) -> Action {
        Action::Focus {
            x: x.round() as i32,
            y: y.round() as i32,
        }
    }

    /// A key press from a name such as `Left` or `ctrl+z`, checked now.
    pub fn key(spec: &str) -> Result<Action, KeyNameError> {
        let (key, mods) = key::parse_chord(spec)?;
        Ok(Action::Key {
            key,
            mods,
            hold_ms: None,
        })
    }

    /// A drag with the default duration and steps.
    pub fn drag(from: [i32; 2], to: [i32; 2]) -> Action {
        Action::Drag {
            from,
            to,
            duration_ms: DRAG_MS,
            steps: DRAG_STEPS,
        }
    }

    pub fn kind(&self) -> Kind {
        match self {
            Action::Click { .. } => Kind::Click,
            Action::Drag { .. } | Action::DragPath { .. } => Kind::Drag,
            Action::Key { .. } => Kind::Key,
            Action::Wait { .. } => Kind::Wait,
            Action::Focus { .. } => Kind::Focus,
        }
    }

    /// Every point the action touches.
    pub fn points(&self) -> Vec<(i32, i32)> {
        match self {
            Action::Click { x, y, .. } | Action::Focus { x, y } => vec![(*x, *y)],
            Action::Drag { from, to, .. } => vec![(from[0], from[1]), (to[0], to[1])],
            // Straight lines between them: inside any rectangle holding them.
            Action::DragPath { points, .. } => points.iter().map(|p| (p[0], p[1])).collect(),
            Action::Key { .. } | Action::Wait { .. } => Vec::new(),
        }
    }

    /// The same action with every point passed through `f`.
    pub fn map_points(&self, f: impl Fn(i32, i32) -> (i32, i32)) -> Action {
        let mut out = self.clone();
        match &mut out {
            Action::Click { x, y, .. } | Action::Focus { x, y } => (*x, *y) = f(*x, *y),
            Action::Drag { from, to, .. } => {
                let (a, b) = (f(from[0], from[1]), f(to[0], to[1]));
                (*from, *to) = ([a.0, a.1], [b.0, b.1]);
            }
            Action::DragPath { points, .. } => {
                for p in points.iter_mut() {
                    let (x, y) = f(p[0], p[1]);
                    *p = [x, y];
                }
            }
            Action::Key { .. } | Action::Wait { .. } => {}
        }
        out
    }
}

impl std::fmt::Display for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Action::Click {
                x,
                y,
                cell: Some([r, c]),
            } => write!(f, "click ({x}, {y})  cell ({r},{c})"),
            Action::Click { x, y, cell: None } => write!(f, "click ({x}, {y})"),
            Action::Drag {
                from,
                to,
                duration_ms,
                steps,
            } => write!(
                f,
                "drag ({}, {}) → ({}, {}) in {steps} steps over {duration_ms} ms",
                from[0], from[1], to[0], to[1]
            ),
            Action::DragPath {
                points,
                duration_ms,
                max_step_px,
            } => {
                f.write_str("drag")?;
                for (i, p) in points.iter().enumerate() {
                    let sep = if i == 0 { " " } else { " → " };
                    write!(f, "{sep}({}, {})", p[0], p[1])?;
                }
                write!(
                    f,
                    " in moves of at most {max_step_px} px over {duration_ms} ms"
                )
            }
            Action::Key { key, mods, hold_ms } => {
                f.write_str("key ")?;
                for m in mods {
                    write!(f, "{m}+")?;
                }
                write!(f, "{key}")?;
                match hold_ms {
                    Some(ms) => write!(f, " held {ms} ms"),
                    None => Ok(()),
                }
            }
            Action::Wait { ms } => write!(f, "wait {ms} ms"),
            Action::Focus { x, y } => write!(f, "focus click ({x}, {y})"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialises_every_kind_in_the_documented_shape() {
        let a = Action::click_at(10.4, 20.6, (1, 2));
        assert_eq!(
            serde_json::to_string(&a).unwrap(),
            r#"{"kind":"click","x":10,"y":21,"cell":[1,2]}"#
        );
        assert_eq!(a.map_points(|x, y| (x + 1, y * 2)).points(), vec![(11, 42)]);
        let json = |a: &Action| serde_json::to_string(a).unwrap();
        assert_eq!(
            json(&Action::key("shift+ctrl+Left").unwrap()),
            r#"{"kind":"key","key":"Left","mods":["shift","ctrl"]}"#
        );
        assert_eq!(
            json(&Action::drag([1, 2], [3, 4])),
            r#"{"kind":"drag","from":[1,2],"to":[3,4],"duration_ms":32,"steps":8}"#
        );
        assert_eq!(json(&Action::Wait { ms: 40 }), r#"{"kind":"wait","ms":40}"#);
        assert_eq!(
            json(&Action::focus_at(5.0, 6.0)),
            r#"{"kind":"focus","x":5,"y":6}"#
        );
    }

    #[test]
    fn a_drag_along_a_path_keeps_its_shape_and_names_every_corner() {
        let d = Action::DragPath {
            points: vec![[10, 10], [58, 10], [58, 58]],
            duration_ms: 120,
            max_step_px: 12,
        };
        assert_eq!(
            serde_json::to_string(&d).unwrap(),
            r#"{"kind":"drag_path","points":[[10,10],[58,10],[58,58]],"duration_ms":120,"max_step_px":12}"#
        );
        assert_eq!(d.kind(), Kind::Drag);
        assert_eq!(
            d.to_string(),
            "drag (10, 10) → (58, 10) → (58, 58) in moves of at most 12 px over 120 ms"
        );
        let moved = d.map_points(|x, y| (x + 100, y));
        assert_eq!(moved.points(), vec![(110, 10), (158, 10), (158, 58)]);
        // The region guard sees the corner too.
        let r = crate::geom::Rect::new(0, 0, 60, 30);
        let e = check_plan(&[d], r).unwrap_err();
        assert!(matches!(e, PlanError::Outside { x: 58, y: 58, .. }), "{e}");
    }

    #[test]
    fn maps_the_points_of_drags_and_focus_clicks() {
        let d = Action::drag([1, 2], [3, 4]).map_points(|x, y| (x * 10, y * 10));
        assert_eq!(d.points(), vec![(10, 20), (30, 40)]);
        let f = Action::focus_at(1.0, 1.0).map_points(|x, y| (x - 5, y));
        assert_eq!(f, Action::Focus { x: -4, y: 1 });
        assert!(Action::key("Space").unwrap().points().is_empty());
        assert!(Action::key("Spacebar").is_err());
    }
}
