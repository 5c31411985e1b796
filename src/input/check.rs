//! The check every plan passes before anything is sent.
//!
//! - Every point of every action (clicks, drags, focus clicks) lies inside
//!   the user's selection.
//! - Keys go to whatever window has the keyboard focus, so a key is sent
//!   only after a `focus` click inside the region. [`ensure_focus`] puts
//!   one before the first key from the game's declared safe point; a plan
//!   that still has a key before any focus click is refused.

use crate::geom::Rect;

use super::{Action, Kind};

/// Why a plan is refused; nothing of it was sent.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum PlanError {
    #[error(
        "action {index} ({action}) would land at ({x}, {y}), outside the selected region {region}; nothing was sent"
    )]
    Outside {
        index: usize,
        action: String,
        x: i32,
        y: i32,
        region: Rect,
    },
    #[error(
        "action {index} ({action}) is a key, but no focus click inside the region comes before it \
         (the game declares no safe point to click); nothing was sent"
    )]
    KeyWithoutFocus { index: usize, action: String },
}

/// Puts a focus click at `safe` before the first key, unless a focus click
/// already comes before it. Plans without keys are left alone. The index
/// the focus click was put at, if one was.
pub fn ensure_focus(actions: &mut Vec<Action>, safe: Option<(i32, i32)>) -> Option<usize> {
    let first_key = actions.iter().position(|a| a.kind() == Kind::Key)?;
    let first_focus = actions.iter().position(|a| a.kind() == Kind::Focus);
    let (x, y) = safe?;
    if first_focus.is_some_and(|f| f < first_key) {
        return None;
    }
    actions.insert(first_key, Action::Focus { x, y });
    Some(first_key)
}

/// Checks the whole plan against `region` before anything is sent.
pub fn check_plan(actions: &[Action], region: Rect) -> Result<(), PlanError> {
    let mut focused = false;
    for (i, a) in actions.iter().enumerate() {
        for (x, y) in a.points() {
            if !region.contains(x, y) {
                return Err(PlanError::Outside {
                    index: i + 1,
                    action: a.to_string(),
                    x,
                    y,
                    region,
                });
            }
        }
        match a.kind() {
            Kind::Focus => focused = true,
            Kind::Key if !focused => {
                return Err(PlanError::KeyWithoutFocus {
                    index: i + 1,
                    action: a.to_string(),
                });
            }
            _ => {}
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
        assert!(check_plan(&inside, r).is_ok());
        let out = [
            Action::click_at(120.0, 120.0, (0, 0)),
            Action::drag([110, 110], [150, 120]),
        ];
        let Err(PlanError::Outside { index, x, y, .. }) = check_plan(&out, r) else {
            panic!("a drag ending outside was accepted")
        };
        assert_eq!((index, x, y), (2, 150, 120));
        let focus_out = [Action::focus_at(99.0, 120.0), Action::key("Left").unwrap()];
        assert!(matches!(
            check_plan(&focus_out, r),
            Err(PlanError::Outside { index: 1, .. })
        ));
    }

    #[test]
    fn keys_need_a_focus_click_first() {
        let r = Rect::new(0, 0, 50, 50);
        let left = Action::key("Left").unwrap();
        let e = check_plan(std::slice::from_ref(&left), r).unwrap_err();
        assert!(
            matches!(e, PlanError::KeyWithoutFocus { index: 1, .. }),
            "{e}"
        );
        // A focus click after the key does not count.
        let late = [left.clone(), Action::focus_at(5.0, 5.0)];
        assert!(check_plan(&late, r).is_err());

        let mut plan = vec![Action::Wait { ms: 5 }, left.clone(), left.clone()];
        ensure_focus(&mut plan, None);
        assert!(
            check_plan(&plan, r).is_err(),
            "no safe point: still refused"
        );
        assert_eq!(ensure_focus(&mut plan, Some((10, 10))), Some(1));
        assert_eq!(plan[1], Action::Focus { x: 10, y: 10 });
        assert_eq!(plan.len(), 4);
        assert!(check_plan(&plan, r).is_ok());
        // Already focused: nothing added.
        assert_eq!(ensure_focus(&mut plan, Some((20, 20))), None);
        assert_eq!(plan.len(), 4);
        // Clicks alone need no focus.
        let mut clicks = vec![Action::click_at(1.0, 1.0, (0, 0))];
        ensure_focus(&mut clicks, Some((2, 2)));
        assert_eq!(clicks.len(), 1);
    }
}
