//! Input: the actions a plan turns into (clicks, drags, key presses), in
//! image pixels until the live player maps them to the screen.
//!
//! - [`Action`] and the region check (pure);
//! - `replay`: sending actions with enigo (live feature);
//! - `keys`: the global play and abort hotkeys (live feature).

use serde::Serialize;

use crate::geom::Rect;

#[cfg(feature = "live")]
pub mod keys;
#[cfg(feature = "live")]
pub mod replay;

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
    /// Press at `from`, move to `to`, release.
    Drag { from: [i32; 2], to: [i32; 2] },
    /// A key press, by name (`Left`, `Up`, …).
    Key { key: String },
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

    /// Every point the action touches.
    pub fn points(&self) -> Vec<(i32, i32)> {
        match self {
            Action::Click { x, y, .. } => vec![(*x, *y)],
            Action::Drag { from, to } => vec![(from[0], from[1]), (to[0], to[1])],
            Action::Key { .. } => Vec::new(),
        }
    }

    /// The same action with every point passed through `f`.
    pub fn map_points(&self, f: impl Fn(i32, i32) -> (i32, i32)) -> Action {
        match self {
            Action::Click { x, y, cell } => {
                let (x, y) = f(*x, *y);
                Action::Click { x, y, cell: *cell }
            }
            Action::Drag { from, to } => {
                let (a, b) = (f(from[0], from[1]), f(to[0], to[1]));
                Action::Drag {
                    from: [a.0, a.1],
                    to: [b.0, b.1],
                }
            }
            Action::Key { key } => Action::Key { key: key.clone() },
        }
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
            Action::Drag { from, to } => write!(
                f,
                "drag ({}, {}) → ({}, {})",
                from[0], from[1], to[0], to[1]
            ),
            Action::Key { key } => write!(f, "key {key}"),
        }
    }
}

/// An action whose point falls outside the selected region.
#[derive(Debug, thiserror::Error, PartialEq)]
#[error(
    "action {index} ({action}) would land at ({x}, {y}), outside the selected region {region}; nothing was sent"
)]
pub struct Outside {
    pub index: usize,
    pub action: String,
    pub x: i32,
    pub y: i32,
    pub region: Rect,
}

/// Checks that every point of every action lies inside `region`, before
/// anything is sent: no input may land outside the user's selection.
pub fn check_inside(actions: &[Action], region: Rect) -> Result<(), Outside> {
    for (index, a) in actions.iter().enumerate() {
        for (x, y) in a.points() {
            if !region.contains(x, y) {
                return Err(Outside {
                    index: index + 1,
                    action: a.to_string(),
                    x,
                    y,
                    region,
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_any_point_outside_the_region() {
        let r = Rect::new(100, 100, 50, 50);
        let inside = [
            Action::click_at(100.0, 100.0, (0, 0)),
            Action::click_at(149.0, 149.0, (1, 1)),
        ];
        assert!(check_inside(&inside, r).is_ok());
        let out = [
            Action::click_at(120.0, 120.0, (0, 0)),
            Action::Drag {
                from: [110, 110],
                to: [150, 120],
            },
        ];
        let e = check_inside(&out, r).unwrap_err();
        assert_eq!((e.index, e.x, e.y), (2, 150, 120));
        assert!(check_inside(&[Action::Key { key: "Left".into() }], r).is_ok());
    }

    #[test]
    fn serialises_in_the_documented_shape() {
        let a = Action::click_at(10.4, 20.6, (1, 2));
        assert_eq!(
            serde_json::to_string(&a).unwrap(),
            r#"{"kind":"click","x":10,"y":21,"cell":[1,2]}"#
        );
        assert_eq!(a.map_points(|x, y| (x + 1, y * 2)).points(), vec![(11, 42)]);
    }
}
