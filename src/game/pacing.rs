//! What a game decides after looking at the screen ([`Step`]), and how fast
//! it takes its input and how patiently it looks ([`Pacing`]).

use std::time::Duration;

use crate::input::{Action, Kind};
use crate::report::{Checkpoint, Report, Verdict};

/// A game's next move, from one read of the screen.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// Send these actions (in input coordinates once the player maps them).
    /// `checkpoints` say what the board should read as after some of them;
    /// without one the player looks again after the whole plan.
    Act {
        actions: Vec<Action>,
        checkpoints: Vec<Checkpoint>,
    },
    /// Something is still moving: look again once the screen settles.
    Settle,
    /// Nothing left to do.
    Done,
    /// Do not act, for this reason.
    Refuse(String),
}

impl Step {
    /// The step a `solve_image` report implies: act on a playable plan,
    /// done when solved, refuse anything else with the report's reason.
    pub fn from_report(report: &Report) -> Step {
        match (report.state, report.actions.as_deref()) {
            (Verdict::Playable, Some(actions)) if !actions.is_empty() => Step::Act {
                actions: actions.to_vec(),
                checkpoints: report.checkpoints.clone(),
            },
            (Verdict::Playable, _) => Step::Refuse("the plan has no input to send".into()),
            (Verdict::Solved, _) => Step::Done,
            (s, _) => Step::Refuse(format!("{}: {}", s.name(), report.reason)),
        }
    }
}

/// How a game is played live: the pause after each kind of action, and how
/// the player looks at the screen. `--delay-ms` replaces the four pauses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pacing {
    /// After a click, before the next action.
    pub click: Duration,
    /// After a drag.
    pub drag: Duration,
    /// After a key press.
    pub key: Duration,
    /// After the focus click, so the window has the focus before the first key.
    pub focus: Duration,
    /// Between the two captures that must be equal for the screen to count as settled.
    pub settle_gap: Duration,
    /// Read anyway when the screen is still changing after this long.
    pub settle_max: Duration,
    /// After acting, how long the board may take to show what the plan predicted.
    pub verify: Duration,
    /// Between two looks while waiting for that.
    pub look_gap: Duration,
    /// Re-plans allowed, after boards that differ from the prediction, before giving up.
    pub max_replans: u32,
}

impl Default for Pacing {
    fn default() -> Pacing {
        let ms = Duration::from_millis;
        Pacing {
            click: ms(100),
            drag: ms(100),
            key: ms(60),
            focus: ms(50),
            settle_gap: ms(10),
            settle_max: ms(1000),
            verify: ms(2000),
            look_gap: ms(50),
            max_replans: 3,
        }
    }
}

impl Pacing {
    /// The pause after an action of this kind. A `wait` is its own pause.
    pub fn gap(&self, kind: Kind) -> Duration {
        match kind {
            Kind::Click => self.click,
            Kind::Drag => self.drag,
            Kind::Key => self.key,
            Kind::Focus => self.focus,
            Kind::Wait => Duration::ZERO,
        }
    }

    /// boardbot's arrow-key practice windows: a key once the window has
    /// animated the previous move (`key` after it).
    pub fn arrow_window(key: Duration) -> Pacing {
        let ms = Duration::from_millis;
        Pacing {
            key,
            // The window takes the focus as it handles the click, in a few
            // milliseconds; a first key lost anyway is noticed at the first
            // checkpoint and re-planned.
            focus: ms(10),
            // Two captures 8 ms apart may both catch one frame of an
            // animation; the reader refuses a board caught mid-move and the
            // player looks again, so a short gap only saves time.
            settle_gap: ms(8),
            settle_max: ms(800),
            verify: ms(1500),
            ..Pacing::default()
        }
    }

    /// The same pacing with one pause after every kind of action (`--delay-ms`).
    pub fn with_delay(self, delay: Duration) -> Pacing {
        Pacing {
            click: delay,
            drag: delay,
            key: delay,
            focus: delay,
            ..self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_implies_its_step() {
        let mut r = Report::new("t", Verdict::Playable, "ok");
        r.actions = Some(vec![Action::click_at(1.0, 2.0, (0, 0))]);
        r.checkpoints = vec![Checkpoint {
            after: 1,
            rows: vec!["V".into()],
        }];
        let Step::Act {
            actions,
            checkpoints,
        } = Step::from_report(&r)
        else {
            panic!("a playable plan is not an act")
        };
        assert_eq!((actions.len(), checkpoints.len()), (1, 1));
        r.actions = Some(Vec::new());
        assert!(matches!(Step::from_report(&r), Step::Refuse(_)));
        r.state = Verdict::Solved;
        assert_eq!(Step::from_report(&r), Step::Done);
        let r = Report::new("t", Verdict::Uncertain, "cell (1,2) is unclear");
        let Step::Refuse(why) = Step::from_report(&r) else {
            panic!("an uncertain read is not refused")
        };
        assert!(why.contains("uncertain") && why.contains("(1,2)"), "{why}");
    }

    #[test]
    fn delay_overrides_every_kind_but_waits() {
        let p = Pacing::default().with_delay(Duration::from_millis(7));
        for k in [Kind::Click, Kind::Drag, Kind::Key, Kind::Focus] {
            assert_eq!(p.gap(k), Duration::from_millis(7));
        }
        assert_eq!(p.gap(Kind::Wait), Duration::ZERO);
        assert_eq!(p.verify, Pacing::default().verify);
    }
}
