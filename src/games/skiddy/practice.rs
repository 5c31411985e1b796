//! The Skiddy practice window: a playable level in boardbot's own art.
//!
//! The arrow keys swipe; the window's model is the engine
//! ([`Rules::play`]), so every rule it enforces is the engine's rule. Each
//! move is animated for [`ANIMATION`] (pieces slide at one speed, each
//! stopping at its end, see [`super::motion`]); keys pressed meanwhile are
//! queued and played in order once it ends. A key that changes nothing, or
//! any key after the level is won, is counted as `illegal` and not logged.
//! `--drop-input N` ignores the N-th arrow key (counted from 1), as if it
//! were lost.
//!
//! When every skiddy of a colour leaves on one move, the status line says
//! `COMBO!`; the session's `combo` is true when the level is won and every
//! colour did so. Without `--level`, the level comes from `--seed`
//! ([`super::seeds`]). The session ([`Session`]) is written after every
//! move, once the window is placed, and on close.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use image::{Rgb, RgbImage};

use super::art::{self, Scene, Sprite};
use super::level::{Colour, Piece};
use super::motion::{self, Path};
use super::rules::{Dir, Key, Move, Rules};
use super::screen::{ANIMATION, load};
use super::seeds;
use crate::art::board::{counter, layout};
use crate::game::GameError;
use crate::practice::{ArrowWindow, PracticeState, PracticeWindow, arrow_event};
use crate::practice::{Flag, PracticeOptions, ScreenLattice, Session};
use crate::ui::{App, Control, UiEvent};
use crate::vision::Lattice;

/// A move being drawn.
struct Animation {
    paths: Vec<Path>,
    started: Instant,
}

/// The window's state.
pub struct Practice {
    rules: Rules,
    key: Key,
    anim: Option<Animation>,
    queue: VecDeque<Dir>,
    /// Skiddies of each colour at the start.
    count: [u8; 4],
    /// Colours whose skiddies all left on one move.
    combos: [bool; 4],
    /// The last move was a combo for some colour (the status says so).
    combo_now: bool,
    state: PracticeState,
    lattice: Lattice,
}

/// The level to play: its text, and its shortest length when known.
fn level_text(o: &PracticeOptions) -> Result<(String, Option<u64>), GameError> {
    match &o.level {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| GameError::Usage(format!("cannot read the level file {path}: {e}")))?;
            let rules = load(&text, path)?;
            let best = seeds::shortest(&rules, 2_000_000).map(|m| m.len() as u64);
            Ok((text, best))
        }
        None => {
            let seed = o.seed.unwrap_or(1);
            let s = seeds::seeded(seed).ok_or_else(|| {
                GameError::Usage(format!("no level for seed {seed}; try another --seed"))
            })?;
            Ok((s.text, Some(s.solution.len() as u64)))
        }
    }
}

/// A position in the level format, with its sticky line.
fn position(rules: &Rules, key: &Key) -> String {
    let sticky = if rules.sticky { "yes" } else { "no" };
    format!("sticky: {sticky}\n{}\n", rules.render_rows(key).join("\n"))
}

impl Practice {}

impl PracticeWindow for Practice {
    /// The window's model before it opens: the level, its layout, the session.
    fn new(o: &PracticeOptions) -> Result<Practice, GameError> {
        o.only_with_session(super::ID, &[Flag::Level, Flag::Seed])?;
        let (text, best) = level_text(o)?;
        let rules = load(&text, o.level.as_deref().unwrap_or("the seeded level"))?;
        let pitch = o.pitch_or(48.0)?;
        let margin = (pitch * 0.4).round();
        let bar = (pitch * 0.8).round().max(28.0);
        let (w, h, lattice) = layout(
            rules.height,
            rules.width,
            pitch,
            [margin, bar, margin, margin],
        );
        let mut count = [0u8; 4];
        for p in &rules.slots {
            if let Piece::Skiddy(c) = p {
                count[c.index()] += 1;
            }
        }
        let mut session = Session::new(super::ID, position(&rules, &rules.start), best);
        session.combo = Some(false);
        Ok(Practice {
            state: PracticeState::new("Skiddy", o, session, (w.max(200), h)),
            key: rules.start,
            rules,
            anim: None,
            queue: VecDeque::new(),
            count,
            combos: [false; 4],
            combo_now: false,
            lattice,
        })
    }

    fn state(&mut self) -> &mut PracticeState {
        &mut self.state
    }
}

impl ArrowWindow for Practice {
    type Dir = Dir;

    fn dir(letter: char) -> Option<Dir> {
        Dir::from_char(letter)
    }

    fn placed(&mut self, x: i32, y: i32) {
        self.state.place(ScreenLattice::of((x, y), &self.lattice));
    }

    /// An arrow key: dropped on purpose, queued behind an animation, or played.
    fn arrow(&mut self, d: Dir) {
        if self.state.drops_input() {
            return;
        }
        self.queue.push_back(d);
        if self.anim.is_none() {
            self.next_move();
        }
    }

    /// Ends the animation once its time is up, and plays the next move.
    fn animate(&mut self) {
        let Some(a) = &self.anim else { return };
        if a.started.elapsed() < ANIMATION {
            return;
        }
        self.anim = None;
        self.next_move();
    }
}

impl Practice {
    /// Notes which colours left whole on `m`.
    fn score(&mut self, m: &Move) {
        self.combo_now = false;
        for c in Colour::ALL {
            let n = self.count[c.index()];
            if n > 0 && m.left_of(c) == n {
                self.combos[c.index()] = true;
                self.combo_now = true;
            }
        }
    }

    /// Plays the next queued move, if any, and starts its animation.
    fn next_move(&mut self) {
        while let Some(d) = self.queue.pop_front() {
            let played = self.rules.play(&self.key, d);
            let Some((m, after)) = played.filter(|_| !self.state.session.solved) else {
                self.state.session.illegal += 1;
                continue;
            };
            let paths = motion::paths(&self.rules, &self.key, &after, d);
            self.key = after;
            self.score(&m);
            self.state.log(m.to_string());
            let s = &mut self.state.session;
            s.board = position(&self.rules, &self.key);
            s.solved = self.rules.is_won(&self.key);
            s.combo = Some(
                s.solved
                    && Colour::ALL
                        .into_iter()
                        .all(|c| self.count[c.index()] == 0 || self.combos[c.index()]),
            );
            self.state.save();
            self.anim = Some(Animation {
                paths,
                started: Instant::now(),
            });
            return;
        }
    }

    fn sprites(&self) -> Vec<Sprite> {
        match &self.anim {
            Some(a) => {
                let f = a.started.elapsed().as_secs_f64() / ANIMATION.as_secs_f64();
                motion::sprites_at(&self.rules, &a.paths, f.min(1.0))
            }
            None => art::sprites_of(&self.rules, &self.key),
        }
    }

    fn status(&self) -> String {
        let s = &self.state.session;
        let combo = if self.combo_now { "  COMBO!" } else { "" };
        if s.solved {
            format!("WON IN {} MOVES{combo}", s.moves)
        } else {
            format!("MOVES {}{combo}", s.moves)
        }
    }
}

impl App for Practice {
    fn draw(&mut self, frame: &mut RgbImage) {
        for p in frame.pixels_mut() {
            *p = Rgb(art::PAGE);
        }
        let sprites = self.sprites();
        let scene = Scene {
            rules: &self.rules,
            sprites: &sprites,
        };
        art::draw(frame, &scene, &self.lattice);
        counter(frame, &self.lattice, &self.status());
    }

    fn event(&mut self, event: UiEvent) -> Control {
        arrow_event(self, event)
    }

    fn next_tick(&self) -> Option<Duration> {
        self.anim.as_ref().map(|_| Duration::from_millis(16))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Presses `keys` as a player would, letting each animation finish.
    fn press(p: &mut Practice, keys: &[Dir]) {
        for &d in keys {
            p.arrow(d);
            while let Some(a) = &mut p.anim {
                a.started -= ANIMATION;
                p.animate();
            }
        }
    }

    fn window(seed: u64, drop: Option<usize>) -> Practice {
        Practice::new(&PracticeOptions {
            seed: Some(seed),
            drop_input: drop,
            ..PracticeOptions::default()
        })
        .unwrap()
    }

    fn dirs(s: &seeds::Seeded) -> Vec<Dir> {
        s.solution.iter().map(|m| m.dir).collect()
    }

    #[test]
    fn the_solvers_moves_win_the_window_in_as_many_moves() {
        for seed in 1..6 {
            let s = seeds::seeded(seed).unwrap();
            let mut p = window(seed, None);
            assert_eq!(p.state.session.optimal, Some(s.solution.len() as u64));
            press(&mut p, &dirs(&s));
            assert!(
                p.state.session.solved,
                "seed {seed}: {}",
                p.state.session.board
            );
            assert_eq!(p.state.session.moves, s.solution.len());
            assert!(p.status().starts_with("WON"));
        }
    }

    #[test]
    fn a_dropped_key_is_counted_and_not_played() {
        let s = seeds::seeded(3).unwrap();
        let mut p = window(3, Some(2));
        press(&mut p, &dirs(&s));
        assert_eq!(p.state.session.dropped, 1);
        assert_eq!(
            p.state.session.moves + p.state.session.illegal,
            s.solution.len() - 1
        );
        assert_eq!(p.state.session.log[0].mv, s.solution[0].to_string());
    }

    #[test]
    fn keys_during_an_animation_are_queued() {
        let s = seeds::seeded(2).unwrap();
        let mut p = window(2, None);
        for d in dirs(&s) {
            p.arrow(d);
        }
        assert_eq!(p.state.session.moves, 1, "one move plays, the others wait");
        while let Some(a) = &mut p.anim {
            a.started -= ANIMATION;
            p.animate();
        }
        assert!(p.state.session.solved);
    }

    #[test]
    fn combo_is_every_colour_leaving_whole_in_one_move() {
        let dir = tempfile::tempdir().unwrap();
        let open = |name: &str, text: &str| {
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            Practice::new(&PracticeOptions {
                level: Some(path.to_string_lossy().into_owned()),
                ..PracticeOptions::default()
            })
            .unwrap()
        };
        let mut p = open("both.txt", "#R#B#\n#r.b#\n#r..#\n#####\n");
        press(&mut p, &[Dir::U]);
        assert!(p.state.session.solved);
        assert_eq!(
            p.state.session.combo,
            Some(true),
            "both reds and the blue left on U"
        );
        assert!(p.status().contains("COMBO"));
        let mut p = open("apart.txt", "sticky: no\n#R###\n#r.r#\n#...#\n#####\n");
        press(&mut p, &[Dir::U, Dir::L, Dir::U]);
        assert!(p.state.session.solved);
        assert_eq!(
            p.state.session.combo,
            Some(false),
            "the reds left one by one"
        );
        let text = serde_json::to_string(&p.state.session).unwrap();
        assert!(text.contains("\"combo\":false"), "{text}");
    }
}
