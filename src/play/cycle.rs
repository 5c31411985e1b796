//! The live loop's decisions, over any [`Screen`]: wait for the screen to
//! settle, read it, act, look again, and re-plan when the board is not what
//! the plan predicted.
//!
//! 1. **Settle**: capture until two captures in a row are equal (or
//!    `settle_max` has passed: read the last one anyway).
//! 2. **Read**: the game's [`Step`]. `Refuse` on the first read sends
//!    nothing; `Settle` looks again; `Done` ends.
//! 3. **Check**: a focus click goes before the first key (from the game's
//!    safe point), then every action must pass [`check_plan`].
//! 4. **Act**: the plan is sent in segments that end at its checkpoints.
//!    After each segment the player looks until the board reads as the
//!    checkpoint predicts (or the game is done), for up to `verify`.
//! 5. **Re-plan** from what is seen when the board differs from the
//!    prediction (or, with no checkpoint, whenever the game is not done),
//!    and give up with a clear message after `max_replans` of them in a
//!    row (a board that reads as predicted resets the count).
//!
//! Nothing here touches the real screen, so the tests drive it with a fake.

use std::time::{Duration, Instant};

use crate::game::{Pacing, Step};
use crate::geom::Rect;
use crate::input::{Action, PlanError, check_plan, ensure_focus};
use crate::report::{Checkpoint, Report, Verdict};

/// What the player needs from the screen.
pub trait Screen {
    /// One capture of the region.
    type Shot;
    type Error;

    fn capture(&mut self) -> Result<Self::Shot, Self::Error>;
    /// True when two captures show the same pixels.
    fn same(&self, a: &Self::Shot, b: &Self::Shot) -> bool;
    /// The game's read of a capture, with actions and the safe point in
    /// input coordinates.
    fn read(&mut self, shot: &Self::Shot) -> Result<Seen, Self::Error>;
    /// Sends checked actions, paced.
    fn send(&mut self, actions: &[Action], pacing: &Pacing) -> Result<Sent, Self::Error>;
    /// Waits `d`; true when the abort key was pressed meanwhile.
    fn pause(&mut self, d: Duration) -> bool;
}

/// One read of the screen.
pub struct Seen {
    pub report: Report,
    pub step: Step,
    /// How the game that read it is played; `None` keeps the loop's own
    /// (a game recognised from the picture brings its pacing with it).
    pub pacing: Option<Pacing>,
    /// Where a focus click is safe, when the game declares such a point.
    pub safe_point: Option<(i32, i32)>,
}

/// How sending went.
pub use crate::input::Sent;

/// What the loop did.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The first read gave nothing to act on (refused, or already done).
    Refused,
    /// A dry run: the first plan, checked, nothing sent.
    Planned,
    /// Input was sent; `after` is what the board last read as.
    Played {
        sent: usize,
        after: Option<Verdict>,
        replans: u32,
    },
    /// The abort key stopped the loop.
    Aborted { sent: usize },
    /// The board kept differing from the prediction: stopped.
    GaveUp {
        sent: usize,
        replans: u32,
        why: String,
    },
}

/// Settings of one run of the loop.
pub struct Rules {
    /// The selection, in input coordinates: no action may leave it.
    pub region: Rect,
    pub pacing: Pacing,
    pub dry_run: bool,
}

/// The result: the first read (its actions as checked), the first capture,
/// what happened, and when.
pub struct Cycle<Shot> {
    pub first: Report,
    pub shot: Shot,
    pub outcome: Outcome,
    /// When the first plan had passed its check.
    pub planned: Option<Instant>,
    /// When the first input event was sent.
    pub first_input: Option<Instant>,
}

#[derive(Debug, thiserror::Error)]
pub enum CycleError<E> {
    #[error(transparent)]
    Screen(E),
    #[error(transparent)]
    Plan(#[from] PlanError),
}

/// The loop's state across plans.
struct Run {
    first: Report,
    planned: Option<Instant>,
    sent: usize,
    /// Re-plans in all, and in a row since the board last read as predicted.
    replans: u32,
    misses: u32,
    /// What the last segment predicted the board would read as.
    expected: Option<Vec<String>>,
    first_input: Option<Instant>,
}

/// One settled look: the capture, its read, and whether the abort key was
/// pressed while waiting for it.
struct Look<Shot> {
    shot: Shot,
    seen: Seen,
    aborted: bool,
}

/// Captures until two captures in a row are equal, or `settle_max` has
/// passed, and reads the last capture.
fn settled<S: Screen>(screen: &mut S, p: &Pacing) -> Result<Look<S::Shot>, CycleError<S::Error>> {
    let mut last = screen.capture().map_err(CycleError::Screen)?;
    let mut waited = Duration::ZERO;
    let mut aborted = false;
    while waited < p.settle_max {
        if screen.pause(p.settle_gap) {
            aborted = true;
            break;
        }
        waited += p.settle_gap.max(Duration::from_millis(1));
        let next = screen.capture().map_err(CycleError::Screen)?;
        let same = screen.same(&last, &next);
        last = next;
        if same {
            break;
        }
    }
    let seen = screen.read(&last).map_err(CycleError::Screen)?;
    Ok(Look {
        shot: last,
        seen,
        aborted,
    })
}

/// True when the read matches the prediction (`None`: no prediction).
fn as_predicted(seen: &Seen, rows: Option<&[String]>) -> bool {
    let read = seen.report.board.as_ref().map(|b| b.cells.as_slice());
    rows.is_some_and(|r| read == Some(r))
}

/// Waits `look_gap` (added to `waited`), then takes a settled look;
/// `None` when the abort key was pressed.
fn look_later<S: Screen>(
    screen: &mut S,
    p: &Pacing,
    waited: &mut Duration,
) -> Result<Option<Seen>, CycleError<S::Error>> {
    if screen.pause(p.look_gap) {
        return Ok(None);
    }
    *waited += p.look_gap.max(Duration::from_millis(1));
    let look = settled(screen, p)?;
    Ok((!look.aborted).then_some(look.seen))
}

/// After acting: looks until the board reads as `rows` or the game is
/// done, for up to `verify`. With no prediction, the first settled read
/// that is not `Settle` is taken. `None` when the abort key was pressed;
/// the bool says the prediction held.
fn look_again<S: Screen>(
    screen: &mut S,
    p: &Pacing,
    rows: Option<&[String]>,
) -> Result<Option<(Seen, bool)>, CycleError<S::Error>> {
    let mut waited = Duration::ZERO;
    loop {
        let Some(seen) = look_later(screen, p, &mut waited)? else {
            return Ok(None);
        };
        let held = as_predicted(&seen, rows) || seen.step == Step::Done;
        let taken = rows.is_none() && seen.step != Step::Settle;
        if held || taken || waited >= p.verify {
            return Ok(Some((seen, held)));
        }
    }
}

/// The plan's segments: `(end, predicted rows)`, the last ending at `len`.
fn segments(len: usize, checkpoints: &[Checkpoint]) -> Vec<(usize, Option<&[String]>)> {
    let mut cps: Vec<&Checkpoint> = checkpoints
        .iter()
        .filter(|c| c.after >= 1 && c.after <= len)
        .collect();
    cps.sort_by_key(|c| c.after);
    cps.dedup_by_key(|c| c.after);
    let mut out: Vec<_> = cps
        .iter()
        .map(|c| (c.after, Some(c.rows.as_slice())))
        .collect();
    if out.last().is_none_or(|l| l.0 < len) {
        out.push((len, None));
    }
    out
}

/// What ended one plan.
enum PlanEnd {
    Aborted,
    /// The screen could not be read again after acting.
    Unseen,
    /// The last look, and whether it was as predicted.
    Looked(Box<Seen>, bool),
    /// The game went away (its window closed or covered): nothing more sent.
    Stopped(String),
}

impl Run {
    /// Sends a checked plan segment by segment, looking again after each.
    fn act<S: Screen>(
        &mut self,
        screen: &mut S,
        p: &Pacing,
        actions: &[Action],
        checkpoints: &[Checkpoint],
    ) -> Result<PlanEnd, CycleError<S::Error>> {
        let mut start = 0;
        for (end, rows) in segments(actions.len(), checkpoints) {
            let sent = screen
                .send(&actions[start..end], p)
                .map_err(CycleError::Screen)?;
            let (n, first, aborted, stopped) = match sent {
                Sent::Done { sent, first } => (sent, first, false, None),
                Sent::Aborted { sent, first } => (sent, first, true, None),
                Sent::Stopped { sent, first, why } => (sent, first, false, Some(why)),
            };
            self.sent += n;
            self.first_input = self.first_input.or(first);
            if aborted {
                return Ok(PlanEnd::Aborted);
            }
            if let Some(why) = stopped {
                return Ok(PlanEnd::Stopped(why));
            }
            // Input was sent: a failed look must not hide that, so it ends
            // the play with the board unknown rather than as an error.
            let (seen, held) = match look_again(screen, p, rows) {
                Ok(Some(looked)) => looked,
                Ok(None) => return Ok(PlanEnd::Aborted),
                Err(CycleError::Screen(_)) => return Ok(PlanEnd::Unseen),
                Err(e) => return Err(e),
            };
            self.expected = rows.map(<[String]>::to_vec);
            if held {
                self.misses = 0;
            }
            // A look that says "nothing left to do" before the plan's end
            // (solved early, or the board covered by another window) stops
            // the plan: the rest would land on a board nobody sees.
            if !held || end == actions.len() || seen.step == Step::Done {
                return Ok(PlanEnd::Looked(Box::new(seen), held));
            }
            start = end;
        }
        Ok(PlanEnd::Unseen)
    }

    fn played(&self, after: Option<&Seen>) -> Outcome {
        Outcome::Played {
            sent: self.sent,
            after: after.map(|s| s.report.state),
            replans: self.replans,
        }
    }

    /// Before anything is sent, a game may ask to look again until it is
    /// ready; `None` when the abort key was pressed.
    fn wait_ready<S: Screen>(
        &mut self,
        screen: &mut S,
        p: &Pacing,
        mut seen: Seen,
    ) -> Result<Option<Seen>, CycleError<S::Error>> {
        let mut waited = Duration::ZERO;
        while seen.step == Step::Settle && waited < p.verify {
            let Some(next) = look_later(screen, p, &mut waited)? else {
                return Ok(None);
            };
            seen = next;
            self.first = seen.report.clone();
        }
        Ok(Some(seen))
    }

    /// Plays from the first read until done, refused, aborted or given up.
    fn drive<S: Screen>(
        &mut self,
        screen: &mut S,
        rules: &Rules,
        seen: Seen,
    ) -> Result<Outcome, CycleError<S::Error>> {
        let pacing = seen.pacing.unwrap_or(rules.pacing);
        let p = &pacing;
        let Some(mut seen) = self.wait_ready(screen, p, seen)? else {
            return Ok(Outcome::Aborted { sent: 0 });
        };
        loop {
            let Step::Act {
                actions,
                mut checkpoints,
            } = seen.step
            else {
                return Ok(if self.sent == 0 {
                    Outcome::Refused
                } else {
                    self.played(Some(&seen))
                });
            };
            let actions = checked(actions, &mut checkpoints, seen.safe_point, rules.region)?;
            if self.planned.is_none() {
                self.planned = Some(Instant::now());
                self.first.actions = Some(actions.clone());
                if rules.dry_run {
                    return Ok(Outcome::Planned);
                }
            }
            let (next, held) = match self.act(screen, p, &actions, &checkpoints)? {
                PlanEnd::Looked(next, held) => (*next, held),
                PlanEnd::Aborted => return Ok(Outcome::Aborted { sent: self.sent }),
                PlanEnd::Unseen => return Ok(self.played(None)),
                PlanEnd::Stopped(why) => {
                    return Ok(Outcome::GaveUp {
                        sent: self.sent,
                        replans: self.replans,
                        why,
                    });
                }
            };
            if !held && matches!(next.step, Step::Act { .. }) {
                if self.misses == p.max_replans {
                    return Ok(Outcome::GaveUp {
                        sent: self.sent,
                        replans: self.replans,
                        why: gave_up_why(&next, self.misses, self.expected.as_deref()),
                    });
                }
                self.misses += 1;
                self.replans += 1;
            }
            seen = next;
        }
    }
}

/// The actions of an `Act` step with the focus click in place (the
/// checkpoints after it move one on), checked.
fn checked(
    mut actions: Vec<Action>,
    checkpoints: &mut [Checkpoint],
    safe: Option<(i32, i32)>,
    region: Rect,
) -> Result<Vec<Action>, PlanError> {
    if let Some(at) = ensure_focus(&mut actions, safe) {
        for c in checkpoints.iter_mut().filter(|c| c.after > at) {
            c.after += 1;
        }
    }
    check_plan(&actions, region)?;
    Ok(actions)
}

/// How long the first look keeps looking while the board cannot be read:
/// the windows under a selection overlay that has just closed repaint in
/// their own time, and until they do the screen may still show the
/// overlay's pixels, unchanging.
const FIRST_LOOK_PATIENCE: Duration = Duration::from_millis(600);
/// The pause between two of those looks.
const FIRST_LOOK_GAP: Duration = Duration::from_millis(100);

/// The first settled look; looked at again, for up to
/// [`FIRST_LOOK_PATIENCE`], while it shows no board read for sure.
fn first_look<S: Screen>(
    screen: &mut S,
    p: &Pacing,
) -> Result<Look<S::Shot>, CycleError<S::Error>> {
    let mut look = settled(screen, p)?;
    let mut waited = Duration::ZERO;
    let unread =
        |l: &Look<S::Shot>| matches!(l.seen.report.state, Verdict::NoBoard | Verdict::Uncertain);
    while !look.aborted && unread(&look) && waited < FIRST_LOOK_PATIENCE {
        if screen.pause(FIRST_LOOK_GAP) {
            look.aborted = true;
            break;
        }
        waited += FIRST_LOOK_GAP;
        look = settled(screen, p)?;
    }
    Ok(look)
}

/// Runs the loop until done, refused, aborted or given up.
pub fn run<S: Screen>(
    screen: &mut S,
    rules: &Rules,
) -> Result<Cycle<S::Shot>, CycleError<S::Error>> {
    let look = first_look(screen, &rules.pacing)?;
    let mut run = Run {
        first: look.seen.report.clone(),
        planned: None,
        sent: 0,
        replans: 0,
        misses: 0,
        expected: None,
        first_input: None,
    };
    let outcome = if look.aborted {
        Outcome::Aborted { sent: 0 }
    } else {
        run.drive(screen, rules, look.seen)?
    };
    Ok(Cycle {
        first: run.first,
        shot: look.shot,
        outcome,
        planned: run.planned,
        first_input: run.first_input,
    })
}

fn gave_up_why(seen: &Seen, misses: u32, expected: Option<&[String]>) -> String {
    let read = seen
        .report
        .board
        .as_ref()
        .map_or("no board".to_string(), |b| b.cells.join("/"));
    let expected = expected.map_or("the game to be done".to_string(), |r| r.join("/"));
    format!(
        "after {misses} re-plan(s) in a row the board still does not show what the plan predicted \
         (expected {expected}, read {read}): input may be lost, or the game may move on its own"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::BoardReport;

    /// A fake capture: the animation frame and the targets left.
    type Shot = (u64, usize);

    /// A toy game on a fake screen: `left` targets, each click takes one.
    /// Some clicks are lost; after a click the screen animates for a few
    /// captures before it settles.
    struct Fake {
        left: usize,
        /// Indices (counting every click sent) of clicks the game never gets.
        lost: Vec<usize>,
        clicks: usize,
        /// Captures still to show a moving frame.
        moving: u32,
        /// Moving frames after each batch of input.
        animation: u32,
        frame: u64,
        checkpoint: bool,
        safe: Option<(i32, i32)>,
        keys: bool,
        batches: Vec<usize>,
        /// The shots that were read, and whether each equalled the capture before it.
        reads: Vec<bool>,
        /// The capture before the last one, and the last one.
        last_two: [Option<Shot>; 2],
        abort_after_pauses: Option<u32>,
        pauses: u32,
        /// Captures fail once input has been sent.
        blind_after_input: bool,
        /// A checkpoint after every click, not only after the last.
        every_click: bool,
        /// From this many clicks on, the board reads as covered: nothing
        /// left to do, though targets remain.
        covered_after: Option<usize>,
        /// This many reads come first that show no board (a screen still
        /// being repainted).
        unread_first: usize,
    }

    fn fake(left: usize) -> Fake {
        Fake {
            left,
            lost: Vec::new(),
            clicks: 0,
            moving: 0,
            animation: 0,
            frame: 0,
            checkpoint: true,
            safe: None,
            keys: false,
            batches: Vec::new(),
            reads: Vec::new(),
            last_two: [None, None],
            abort_after_pauses: None,
            pauses: 0,
            blind_after_input: false,
            every_click: false,
            covered_after: None,
            unread_first: 0,
        }
    }

    fn rows(n: usize) -> Vec<String> {
        vec![n.to_string()]
    }

    impl Screen for Fake {
        type Shot = Shot;
        type Error = String;

        fn capture(&mut self) -> Result<Shot, String> {
            if self.blind_after_input && !self.batches.is_empty() {
                return Err("the display went away".into());
            }
            if self.moving > 0 {
                self.moving -= 1;
                self.frame += 1;
            }
            let shot = (self.frame, self.left);
            self.last_two = [self.last_two[1], Some(shot)];
            Ok(shot)
        }

        fn same(&self, a: &Shot, b: &Shot) -> bool {
            a == b
        }

        fn read(&mut self, shot: &Shot) -> Result<Seen, String> {
            self.reads.push(self.last_two[0] == Some(*shot));
            let n = shot.1;
            let mut report = Report::new("toy", Verdict::Playable, "");
            report.board = Some(BoardReport::from_rows(rows(n)));
            let covered = self.covered_after.is_some_and(|c| self.clicks >= c);
            let step = if self.reads.len() <= self.unread_first {
                report.state = Verdict::NoBoard;
                report.board = None;
                Step::Done
            } else if n == 0 {
                report.state = Verdict::Solved;
                Step::Done
            } else if covered {
                report.state = Verdict::Uncertain;
                Step::Done
            } else {
                let mut actions: Vec<Action> = (0..n)
                    .map(|i| Action::click_at(10.0 + i as f64, 10.0, (0, i)))
                    .collect();
                if self.keys {
                    actions.insert(0, Action::key("Space").unwrap());
                }
                let checkpoints = match (self.checkpoint, self.every_click) {
                    (false, _) => Vec::new(),
                    (true, false) => vec![Checkpoint {
                        after: actions.len(),
                        rows: rows(0),
                    }],
                    (true, true) => (1..=n)
                        .map(|after| Checkpoint {
                            after,
                            rows: rows(n - after),
                        })
                        .collect(),
                };
                Step::Act {
                    actions,
                    checkpoints,
                }
            };
            Ok(Seen {
                report,
                step,
                pacing: None,
                safe_point: self.safe,
            })
        }

        fn send(&mut self, actions: &[Action], _: &Pacing) -> Result<Sent, String> {
            self.batches.push(actions.len());
            for a in actions {
                if let Action::Click { .. } = a {
                    if !self.lost.contains(&self.clicks) {
                        self.left = self.left.saturating_sub(1);
                    }
                    self.clicks += 1;
                }
            }
            self.moving = self.animation;
            Ok(Sent::Done {
                sent: actions.len(),
                first: Some(Instant::now()),
            })
        }

        fn pause(&mut self, _: Duration) -> bool {
            self.pauses += 1;
            self.abort_after_pauses.is_some_and(|n| self.pauses > n)
        }
    }

    fn solved(sent: usize, replans: u32) -> Outcome {
        Outcome::Played {
            sent,
            after: Some(Verdict::Solved),
            replans,
        }
    }

    fn rules() -> Rules {
        Rules {
            region: Rect::new(0, 0, 100, 100),
            pacing: Pacing::default(),
            dry_run: false,
        }
    }

    #[test]
    fn plays_to_the_end_when_nothing_is_lost() {
        let mut f = fake(4);
        let c = run(&mut f, &rules()).unwrap();
        assert_eq!(c.outcome, solved(4, 0));
        assert_eq!(f.batches, vec![4]);
        assert!(c.first_input.is_some() && c.planned.is_some());
        assert_eq!(c.first.actions.as_ref().map(Vec::len), Some(4));
    }

    #[test]
    fn a_board_covered_at_a_checkpoint_stops_the_plan() {
        let mut f = fake(4);
        f.every_click = true;
        f.covered_after = Some(1);
        let c = run(&mut f, &rules()).unwrap();
        assert_eq!(f.batches, vec![1], "no input after the board was covered");
        assert!(matches!(c.outcome, Outcome::Played { sent: 1, .. }));
    }

    #[test]
    fn re_plans_after_a_lost_click() {
        let mut f = fake(5);
        f.lost = vec![1];
        let c = run(&mut f, &rules()).unwrap();
        // The second click was lost: the board shows one target left where
        // none was predicted, and a one-click plan finishes it.
        assert_eq!(c.outcome, solved(6, 1));
        assert_eq!(f.batches, vec![5, 1]);
    }

    #[test]
    fn gives_up_after_too_many_failed_re_plans() {
        let mut f = fake(3);
        f.lost = (0..100).collect();
        let mut r = rules();
        r.pacing.max_replans = 2;
        let c = run(&mut f, &r).unwrap();
        let Outcome::GaveUp { sent, replans, why } = c.outcome else {
            panic!("did not give up: {:?}", c.outcome)
        };
        assert_eq!((sent, replans), (9, 2));
        assert!(why.contains("expected 0, read 3"), "{why}");
        assert_eq!(f.batches, vec![3, 3, 3]);
    }

    #[test]
    fn only_misses_in_a_row_count_toward_giving_up() {
        let mut f = fake(5);
        f.every_click = true;
        f.lost = vec![0, 2, 4];
        let mut r = rules();
        r.pacing.max_replans = 1;
        let c = run(&mut f, &r).unwrap();
        // Three re-plans in all, but a checkpoint that held came between
        // each two, so it never gave up.
        assert_eq!(c.outcome, solved(8, 3));
        assert_eq!(f.batches, vec![1, 1, 1, 1, 1, 1, 1, 1]);
    }

    #[test]
    fn reads_only_once_two_captures_agree() {
        let mut f = fake(2);
        f.moving = 4;
        f.animation = 3;
        let c = run(&mut f, &rules()).unwrap();
        assert!(matches!(c.outcome, Outcome::Played { replans: 0, .. }));
        assert!(!f.reads.is_empty());
        assert!(
            f.reads.iter().all(|same| *same),
            "a read came before the screen settled: {:?}",
            f.reads
        );
        // The first shot read is the settled one after the animation.
        assert_eq!(c.shot, (4, 2));
    }

    #[test]
    fn reads_anyway_when_the_screen_never_settles() {
        let mut f = fake(1);
        f.moving = u32::MAX;
        let c = run(&mut f, &rules()).unwrap();
        assert!(matches!(c.outcome, Outcome::Played { .. }));
        assert_eq!(f.reads.first(), Some(&false));
    }

    #[test]
    fn without_a_checkpoint_it_looks_again_after_the_whole_plan() {
        let mut f = fake(3);
        f.checkpoint = false;
        f.lost = vec![0];
        let c = run(&mut f, &rules()).unwrap();
        assert_eq!(c.outcome, solved(4, 1));
    }

    #[test]
    fn sends_in_segments_that_end_at_checkpoints() {
        let cps = [
            Checkpoint {
                after: 2,
                rows: rows(1),
            },
            Checkpoint {
                after: 9,
                rows: rows(0),
            },
        ];
        let s = segments(5, &cps);
        assert_eq!(s.iter().map(|x| x.0).collect::<Vec<_>>(), vec![2, 5]);
        assert_eq!(s[1].1, None, "a checkpoint past the end is ignored");
        assert_eq!(segments(3, &[]), vec![(3, None)]);
    }

    #[test]
    fn a_dry_run_or_a_refusal_sends_nothing() {
        let mut f = fake(3);
        let mut r = rules();
        r.dry_run = true;
        let c = run(&mut f, &r).unwrap();
        assert_eq!(c.outcome, Outcome::Planned);
        assert!(f.batches.is_empty());
        let mut f = fake(0);
        let c = run(&mut f, &rules()).unwrap();
        assert_eq!(c.outcome, Outcome::Refused);
        assert!(f.batches.is_empty() && c.planned.is_none());
    }

    #[test]
    fn the_first_look_waits_a_moment_for_a_board_it_can_read() {
        let mut f = fake(3);
        f.unread_first = 3;
        let c = run(&mut f, &rules()).unwrap();
        assert!(
            matches!(
                c.outcome,
                Outcome::Played {
                    sent: 3,
                    after: Some(Verdict::Solved),
                    ..
                }
            ),
            "{:?}",
            c.outcome
        );
        assert_eq!(f.left, 0);
        // Never read: refused after a bounded wait, with nothing sent.
        let mut f = fake(3);
        f.unread_first = usize::MAX;
        let c = run(&mut f, &rules()).unwrap();
        assert_eq!(c.outcome, Outcome::Refused);
        assert!(f.batches.is_empty());
        let looks = (FIRST_LOOK_PATIENCE.as_millis() / FIRST_LOOK_GAP.as_millis()) as usize + 1;
        assert_eq!(f.reads.len(), looks);
    }

    #[test]
    fn keys_go_after_a_focus_click_or_not_at_all() {
        let mut f = fake(2);
        f.keys = true;
        let e = run(&mut f, &rules())
            .err()
            .expect("keys without focus were sent");
        assert!(matches!(
            e,
            CycleError::Plan(PlanError::KeyWithoutFocus { .. })
        ));
        assert!(f.batches.is_empty());
        let mut f = fake(2);
        f.keys = true;
        f.safe = Some((50, 50));
        let c = run(&mut f, &rules()).unwrap();
        let acts = c.first.actions.unwrap();
        assert_eq!(acts[0], Action::Focus { x: 50, y: 50 });
        // A safe point outside the region is refused like any other point.
        let mut f = fake(2);
        f.keys = true;
        f.safe = Some((500, 50));
        assert!(run(&mut f, &rules()).is_err());
    }

    #[test]
    fn a_failed_look_after_acting_still_reports_what_was_sent() {
        let mut f = fake(3);
        f.blind_after_input = true;
        let c = run(&mut f, &rules()).unwrap();
        assert_eq!(
            c.outcome,
            Outcome::Played {
                sent: 3,
                after: None,
                replans: 0
            }
        );
        // Before anything is sent, a failed capture is an error.
        let mut f = fake(3);
        f.blind_after_input = true;
        f.batches.push(0);
        assert!(matches!(run(&mut f, &rules()), Err(CycleError::Screen(_))));
    }

    #[test]
    fn the_abort_key_stops_the_look() {
        let mut f = fake(3);
        f.abort_after_pauses = Some(1);
        let c = run(&mut f, &rules()).unwrap();
        assert_eq!(c.outcome, Outcome::Aborted { sent: 3 });
    }
}
