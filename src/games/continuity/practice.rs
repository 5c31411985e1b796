//! The Continuity practice window: a playable level in boardbot's own art.
//!
//! The model is contA's rules ([`World`]), so every rule the window
//! enforces is the planner's rule. Keys:
//! - in the play view, Left and Right run, Up jumps and Down waits one
//!   step; Space switches to the tile view;
//! - in the tile view, an arrow slides the scene beside the empty slot
//!   that way; Space switches back. Time stands still there;
//! - `q` or the close button closes the window; Escape does not (it is
//!   boardbot's abort key).
//!
//! **Time.** By default the world advances one step per tick (`--tick-ms`,
//! 125 ms) while a step key is held: a press steps at once when a tick has
//! passed since the last step (else at the next tick), and the key, held,
//! steps again every tick until it is let go. Presses made faster than
//! that are queued and played a tick apart, in order, with the toggles
//! and slides among them. With `--step-on-key` every press is one step,
//! and holding a key does nothing more. Auto-repeated presses of a key
//! already held are ignored in both modes.
//!
//! Without `--level`, `--seed N` picks bundled level N (1 is the first;
//! the default). The session ([`Session`]) logs every input (`L`, `R`,
//! `J`, `W`, `space`, `slide-U`…) and counts steps, slides, toggles and
//! their cost; an input that is not available (a slide with no scene on
//! that side, anything after the win) counts as `illegal`.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use image::RgbImage;

use super::art::{self, Geometry};
use super::levels::LEVELS;
use super::plan;
use super::render::{shown_of, status};
use super::rules::{Action, Key, State, View, World};
use super::screen::TICK;
use crate::engines::tiles::Slide;
use crate::game::GameError;
use crate::practice::{Flag, PracticeOptions, ScreenLattice, Session};
use crate::practice::{PracticeState, PracticeWindow, closes};
use crate::solve::{Found, Progress};
use crate::tools;
use crate::ui::{App, Control, UiEvent};

/// The window's state.
pub struct Practice {
    world: World,
    state: State,
    /// Key presses not played yet, oldest first.
    queue: VecDeque<Key>,
    /// Keys down now, in the order they went down.
    held: Vec<Key>,
    last_step: Option<Instant>,
    tick: Duration,
    /// Presses so far (for `--drop-input`).
    practice: PracticeState,
    play: Geometry,
    tiles: Geometry,
}

/// The level to play: its text and where it came from.
fn level_text(o: &PracticeOptions) -> Result<(String, String), GameError> {
    if let (Some(_), Some(seed)) = (&o.level, o.seed) {
        return Err(GameError::Usage(format!(
            "give --level FILE or --seed {seed} (a bundled level), not both"
        )));
    }
    if let Some(path) = &o.level {
        let text = std::fs::read_to_string(path)
            .map_err(|e| GameError::Usage(format!("cannot read the level file {path}: {e}")))?;
        return Ok((text, path.clone()));
    }
    let seed = o.seed.unwrap_or(1);
    let n = LEVELS.len();
    let i = usize::try_from(seed).ok().filter(|&i| (1..=n).contains(&i));
    let (name, text) = i.map(|i| LEVELS[i - 1]).ok_or_else(|| {
        GameError::Usage(format!(
            "--seed {seed}: Continuity's bundled levels are numbered 1 to {n}"
        ))
    })?;
    Ok((text.to_string(), format!("bundled level {name}")))
}

/// The planner's cheapest cost from the start, when it finds one.
fn cheapest(world: &World) -> Option<u64> {
    let budget = crate::solve::Budget {
        max_states: 3_000_000,
        ..tools::budget(&crate::tools::options::Options::default())
    };
    // The window opens once the level's cheapest cost is known: say so.
    eprintln!("Finding the cheapest plan before the window opens…");
    let sol = plan::search(world, world.start(), 5, &budget, &mut Progress::new(true));
    match sol.found {
        Found::Path(actions) => Some(actions.iter().map(|&a| u64::from(World::cost(a, 5))).sum()),
        _ => None,
    }
}

/// A pitch that fits the frame on a 1280×1024 screen, unless one is given.
fn default_pitch(world: &World) -> f64 {
    let lv = &world.level;
    let cells = (lv.rows.max(lv.cols) * (lv.size + 1)) as f64;
    (860.0 / cells).floor().clamp(16.0, 30.0)
}

impl Practice {}

impl PracticeWindow for Practice {
    /// The window's model before it opens: the level, its layout, the session.
    fn new(o: &PracticeOptions) -> Result<Practice, GameError> {
        o.only_with_session(
            super::ID,
            &[Flag::Level, Flag::Seed, Flag::TickMs, Flag::StepOnKey],
        )?;
        let (text, origin) = level_text(o)?;
        let world = World::new(super::parse(&text, &origin)?);
        let pitch = o.pitch_or(default_pitch(&world))?;
        let margin = (pitch * 0.5).round();
        let bar = (pitch * 1.2).round().max(28.0);
        let lv = &world.level;
        let (w, h, play, tiles) = art::layout(
            (lv.rows, lv.cols, lv.size),
            pitch,
            [margin, bar, margin, margin],
        );
        let mut session = Session::new(super::ID, text.clone(), None);
        session.optimal_cost = cheapest(&world);
        session.steps = Some(0);
        session.slides = Some(0);
        session.toggles = Some(0);
        session.cost = Some(0);
        let tick = o.tick_ms.map_or(TICK, Duration::from_millis);
        if tick < Duration::from_millis(10) {
            return Err(GameError::Usage("--tick-ms must be at least 10".into()));
        }
        Ok(Practice {
            practice: PracticeState::new("Continuity", o, session, (w.max(240), h)),
            state: world.start(),
            world,
            queue: VecDeque::new(),
            held: Vec::new(),
            last_step: None,
            tick,
            play,
            tiles,
        })
    }

    fn state(&mut self) -> &mut PracticeState {
        &mut self.practice
    }
}

/// The key a window key name stands for.
fn key_of(name: &str) -> Option<Key> {
    match name {
        "ArrowLeft" => Some(Key::Left),
        "ArrowRight" => Some(Key::Right),
        "ArrowUp" => Some(Key::Up),
        "ArrowDown" => Some(Key::Down),
        "Space" | " " => Some(Key::Space),
        _ => None,
    }
}

/// What a key does in a view.
fn action_of(k: Key, view: View) -> Action {
    match (k, view) {
        (Key::Space, _) => Action::Toggle,
        (Key::Left, View::Play) => Action::Left,
        (Key::Right, View::Play) => Action::Right,
        (Key::Up, View::Play) => Action::Jump,
        (Key::Down, View::Play) => Action::Wait,
        (Key::Left, View::Tiles) => Action::Slide(Slide::Left),
        (Key::Right, View::Tiles) => Action::Slide(Slide::Right),
        (Key::Up, View::Tiles) => Action::Slide(Slide::Up),
        (Key::Down, View::Tiles) => Action::Slide(Slide::Down),
    }
}

impl Practice {
    /// A key went down: queued and played as soon as it may be; a repeat
    /// of a key already down is ignored.
    fn press(&mut self, k: Key, now: Instant) {
        if self.held.contains(&k) {
            return;
        }
        self.held.push(k);
        if self.practice.drops_input() {
            return;
        }
        self.queue.push_back(k);
        self.pump(now);
    }

    fn release(&mut self, k: Key) {
        self.held.retain(|&h| h != k);
    }

    /// Whether a step may be played now: at once with `--step-on-key`,
    /// else once a tick has passed since the last one.
    fn may_step(&self, now: Instant) -> bool {
        self.practice.opts.step_on_key
            || self
                .last_step
                .is_none_or(|t| now.duration_since(t) >= self.tick)
    }

    /// Plays the queued presses that may be played now, in order.
    fn pump(&mut self, now: Instant) {
        while let Some(&k) = self.queue.front() {
            let a = action_of(k, self.state.view);
            if a.is_step() && !self.practice.session.solved && !self.may_step(now) {
                return;
            }
            self.queue.pop_front();
            self.play(a, now);
        }
        self.repeat(now);
    }

    /// In the timed mode, the key held longest ago that still is steps
    /// again every tick (once the queue is empty).
    fn repeat(&mut self, now: Instant) {
        if self.practice.opts.step_on_key
            || self.state.view != View::Play
            || self.practice.session.solved
        {
            return;
        }
        let Some(&k) = self.held.iter().rev().find(|&&k| k != Key::Space) else {
            return;
        };
        if self
            .last_step
            .is_some_and(|t| now.duration_since(t) >= self.tick)
        {
            self.play(action_of(k, View::Play), now);
        }
    }

    /// Plays one input and logs it.
    fn play(&mut self, a: Action, now: Instant) {
        let Some(next) = self.world.act(&self.state, a) else {
            self.practice.session.illegal += 1;
            self.practice.save();
            return;
        };
        if a.is_step() {
            self.last_step = Some(now);
        }
        self.state = next;
        self.practice.log(a.to_string());
        let s = &mut self.practice.session;
        let count = |n: &mut Option<usize>| *n = Some(n.unwrap_or(0) + 1);
        match a {
            Action::Toggle => count(&mut s.toggles),
            Action::Slide(_) => count(&mut s.slides),
            _ => count(&mut s.steps),
        }
        s.cost = Some(s.cost.unwrap_or(0) + u64::from(World::cost(a, 5)));
        s.board = self.world.rows(&self.state).join("\n");
        s.solved = self.state.won;
        self.practice.save();
    }

    fn placed(&mut self, x: i32, y: i32) {
        let (w, h) = self.play.extent();
        let cells = (w.max(h) / self.play.pitch).ceil() as usize;
        self.practice.place(ScreenLattice::placed(
            (x, y),
            (self.play.x0, self.play.y0),
            self.play.pitch,
            cells,
            cells,
        ));
    }

    /// When the next step may come, while one is waiting.
    fn wait(&self) -> Option<Duration> {
        let stepping = self.state.view == View::Play && !self.practice.session.solved;
        let waiting = !self.queue.is_empty()
            || (!self.practice.opts.step_on_key
                && stepping
                && self.held.iter().any(|&k| k != Key::Space));
        if !waiting {
            return None;
        }
        let due = self
            .last_step
            .map_or(Duration::ZERO, |t| self.tick.saturating_sub(t.elapsed()));
        Some(due.max(Duration::from_millis(2)))
    }

    fn status_line(&self) -> String {
        let s = &self.practice.session;
        let text = status(
            &self.world,
            &self.state,
            (s.steps.unwrap_or(0), s.slides.unwrap_or(0)),
        );
        let mode = if self.practice.opts.step_on_key {
            "STEP ON KEY".to_string()
        } else {
            format!("TICK {} MS", self.tick.as_millis())
        };
        format!("{text}  {mode}")
    }
}

impl App for Practice {
    fn draw(&mut self, frame: &mut RgbImage) {
        let view = self.state.view;
        art::page(frame, view);
        let g = match view {
            View::Play => self.play,
            View::Tiles => self.tiles,
        };
        art::draw(frame, &shown_of(&self.world, &self.state), &g);
        art::status(frame, &self.play, view, &self.status_line());
    }

    fn event(&mut self, event: UiEvent) -> Control {
        let now = Instant::now();
        match event {
            UiEvent::Placed { x, y } => {
                self.placed(x, y);
                Control::Continue
            }
            e if closes(&e) => Control::Exit,
            UiEvent::Key(name) => match key_of(&name) {
                Some(k) => {
                    self.press(k, now);
                    Control::Redraw
                }
                None => Control::Continue,
            },
            UiEvent::KeyUp(name) => {
                if let Some(k) = key_of(&name) {
                    self.release(k);
                }
                Control::Continue
            }
            UiEvent::Tick => {
                self.pump(now);
                if self.practice.error.is_some() {
                    Control::Exit
                } else {
                    Control::Redraw
                }
            }
            _ => Control::Continue,
        }
    }

    fn next_tick(&self) -> Option<Duration> {
        self.wait()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(step_on_key: bool) -> Practice {
        Practice::new(&PracticeOptions {
            seed: Some(1),
            step_on_key,
            ..PracticeOptions::default()
        })
        .unwrap()
    }

    /// The cheapest plan of the window's level, as keys.
    fn plan_keys(p: &Practice) -> Vec<Key> {
        let sol = plan::search(
            &p.world,
            p.world.start(),
            5,
            &tools::budget(&crate::tools::options::Options::default()),
            &mut Progress::new(false),
        );
        let Found::Path(actions) = sol.found else {
            panic!("no plan")
        };
        actions.iter().map(|a| a.key()).collect()
    }

    #[test]
    fn step_on_key_plays_one_step_per_press_and_the_plan_wins() {
        let mut p = window(true);
        let keys = plan_keys(&p);
        let t = Instant::now();
        for &k in &keys {
            p.press(k, t);
            p.release(k);
        }
        assert!(p.practice.session.solved, "{}", p.practice.session.board);
        assert_eq!(p.practice.session.moves, keys.len());
        assert_eq!(p.practice.session.cost, p.practice.session.optimal_cost);
        assert!(p.status_line().starts_with("WON"));
    }

    #[test]
    fn timed_presses_are_played_a_tick_apart_and_a_held_key_repeats() {
        let mut p = window(false);
        let t = Instant::now();
        p.press(Key::Right, t);
        p.release(Key::Right);
        p.press(Key::Right, t + Duration::from_millis(10));
        p.release(Key::Right);
        assert_eq!(
            p.practice.session.steps,
            Some(1),
            "the second press waits for the tick"
        );
        assert!(p.wait().is_some());
        p.pump(t + TICK);
        assert_eq!(p.practice.session.steps, Some(2));
        // Held: one step at once, then one per tick, none after release.
        let t = t + TICK * 2;
        p.press(Key::Down, t);
        p.pump(t + TICK / 2);
        assert_eq!(p.practice.session.steps, Some(3));
        p.pump(t + TICK);
        p.pump(t + TICK * 2);
        assert_eq!(p.practice.session.steps, Some(5));
        p.press(Key::Down, t + TICK * 2);
        assert_eq!(
            p.practice.session.steps,
            Some(5),
            "an auto-repeat is not a press"
        );
        p.release(Key::Down);
        p.pump(t + TICK * 5);
        assert_eq!(p.practice.session.steps, Some(5));
        assert_eq!(p.wait(), None, "nothing moves without a key");
    }

    #[test]
    fn space_toggles_and_arrows_slide_in_the_tile_view() {
        let mut p = window(true);
        let t = Instant::now();
        let frame = p.state.frame;
        p.press(Key::Space, t);
        p.release(Key::Space);
        assert_eq!(p.state.view, View::Tiles);
        for k in [Key::Left, Key::Right, Key::Up, Key::Down] {
            p.press(k, t);
            p.release(k);
        }
        assert!(
            p.practice.session.slides.unwrap() >= 2,
            "{:?}",
            p.practice.session.slides
        );
        assert!(
            p.practice.session.illegal >= 1,
            "a slide with no scene on that side"
        );
        assert_eq!(
            p.practice.session.steps,
            Some(0),
            "no steps in the tile view"
        );
        assert!(p.state.frame != frame || p.practice.session.slides.unwrap() % 2 == 0);
    }

    #[test]
    fn seeds_pick_bundled_levels_and_flags_are_checked() {
        let o = PracticeOptions {
            seed: Some(9999),
            ..PracticeOptions::default()
        };
        assert!(Practice::new(&o).is_err());
        let o = PracticeOptions {
            board: Some("x".into()),
            ..PracticeOptions::default()
        };
        assert!(Practice::new(&o).is_err());
    }
}
