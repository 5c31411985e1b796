//! The B.i.t.Lock practice window: a playable level in boardbot's own art.
//!
//! The arrow keys move every tile one step; the window's model is the
//! engine ([`Rules::play`] on a packed layout), so every rule it enforces
//! is the engine's rule. Each move is animated for [`ANIMATION`]; keys
//! pressed meanwhile are queued and played in order once it ends. A key
//! that changes nothing, or any key after the level is solved, is counted
//! as `illegal` and not logged as a move. `--drop-input N` ignores the
//! N-th arrow key (counted from 1), as if it were lost.
//!
//! Without `--level`, the level is generated from `--seed` with a known
//! optimal length. The session ([`Session`]) is written after every move,
//! once the window is placed, and on close.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use image::{Rgb, RgbImage};

use super::art::{self, Scene};
use super::generate;
use super::motion::{Path, Pieces};
use super::rules::{Dir, Key, Rules};
use super::screen::{ANIMATION, optimal_with};
use super::solver::Solver;
use crate::game::GameError;
use crate::practice::{ArrowWindow, PracticeState, PracticeWindow, arrow_event};
use crate::practice::{Flag, PracticeOptions, ScreenLattice, Session};
use crate::tools::options::Win;
use crate::ui::{App, Control, UiEvent};
use crate::vision::Lattice;

/// A move being drawn.
struct Animation {
    paths: Vec<Path>,
    next: Pieces,
    started: Instant,
}

/// The window's state.
pub struct Practice {
    rules: Rules,
    goal: Solver,
    key: Key<32>,
    pieces: Pieces,
    anim: Option<Animation>,
    queue: VecDeque<Dir>,
    state: PracticeState,
    lattice: Lattice,
}

/// The level to play: `(text, optimal length if known)`.
fn level_text(o: &PracticeOptions, win: Win) -> Result<(String, Option<u64>), GameError> {
    match &o.level {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| GameError::Usage(format!("cannot read the level file {path}: {e}")))?;
            let rules = super::load(&text, path)?;
            // The window opens once the level's optimum is known: say so.
            eprintln!("Finding the fewest moves for {path} before the window opens…");
            let mut progress = crate::solve::Progress::new(true);
            let best = optimal_with(&rules, win, 50_000_000, &mut progress).filter(|o| o.1);
            Ok((text, best.map(|(m, _)| m.len() as u64)))
        }
        None => {
            let seed = o.seed.unwrap_or(1);
            let g = generate::generate(seed).ok_or_else(|| {
                GameError::Usage(format!(
                    "no level with a known optimum for seed {seed}; try another --seed"
                ))
            })?;
            Ok((g.text, Some(g.solution.len() as u64)))
        }
    }
}

impl Practice {}

impl PracticeWindow for Practice {
    /// The window's model before it opens: the level, its layout, the session.
    fn new(o: &PracticeOptions) -> Result<Practice, GameError> {
        o.only_with_session(super::ID, &[Flag::Level, Flag::Win, Flag::Seed])?;
        let win = o.win.unwrap_or_default();
        let (text, best) = level_text(o, win)?;
        let rules = super::load(&text, o.level.as_deref().unwrap_or("the generated level"))?;
        let key: Key<32> = rules.start().map_err(|e| GameError::Usage(e.to_string()))?;
        let pitch = o.pitch_or(48.0)?;
        let margin = (pitch * 0.4).round();
        let bar = (pitch * 0.8).round().max(28.0);
        let margins = [margin, bar, margin, margin];
        let (w, h, lattice) = art::layout(rules.level.rows, rules.level.cols, pitch, margins);
        Ok(Practice {
            goal: Solver::new(&rules, win),
            pieces: Pieces::new(&rules.level),
            state: PracticeState::new(
                "B.i.t.Lock",
                o,
                Session::new(super::ID, rules.render(&key), best),
                (w.max(160), h),
            ),
            key,
            rules,
            anim: None,
            queue: VecDeque::new(),
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
        if let Some(a) = self.anim.take() {
            self.pieces = a.next;
        }
        self.next_move();
    }
}

impl Practice {
    /// Plays the next queued move, if any, and starts its animation.
    fn next_move(&mut self) {
        while let Some(d) = self.queue.pop_front() {
            let after = self.rules.play(&self.key, d);
            if self.state.session.solved || after == self.key {
                self.state.session.illegal += 1;
                continue;
            }
            let (paths, next) = match self.pieces.play(d) {
                Ok(p) => p,
                Err(e) => {
                    self.state.error = Some(GameError::Output(e.to_string()));
                    return;
                }
            };
            self.key = after;
            self.state.log(d.to_string());
            self.state.session.board = self.rules.render(&self.key);
            self.state.session.solved = self.goal.is_goal(&self.key);
            self.state.save();
            self.anim = Some(Animation {
                paths,
                next,
                started: Instant::now(),
            });
            return;
        }
    }
}

impl App for Practice {
    fn draw(&mut self, frame: &mut RgbImage) {
        for p in frame.pixels_mut() {
            *p = Rgb(art::PAGE);
        }
        let sprites = match &self.anim {
            Some(a) => {
                let f = a.started.elapsed().as_secs_f64() / ANIMATION.as_secs_f64();
                self.pieces.sprites(Some((&a.paths, f.min(1.0))))
            }
            None => self.pieces.sprites(None),
        };
        let scene = Scene {
            level: &self.rules.level,
            sprites: &sprites,
        };
        art::draw(frame, &scene, &self.lattice);
        let s = &self.state.session;
        let text = if s.solved {
            format!("SOLVED IN {} MOVES", s.moves)
        } else {
            format!("MOVES {}", s.moves)
        };
        art::counter(frame, &self.lattice, &text);
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
    fn press(p: &mut Practice, keys: &str) {
        for c in keys.chars() {
            p.arrow(Dir::from_char(c).unwrap());
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

    #[test]
    fn engine_plans_solve_the_window_in_the_optimal_number_of_moves() {
        for seed in 1..8 {
            let g = generate::generate(seed).unwrap();
            let mut p = window(seed, None);
            assert_eq!(p.state.session.optimal, Some(g.solution.len() as u64));
            press(&mut p, &g.solution);
            assert!(
                p.state.session.solved,
                "seed {seed}: {}",
                p.state.session.board
            );
            assert_eq!(p.state.session.moves, g.solution.len());
            let drawn: Vec<(usize, art::Kind)> = p.pieces.list.clone();
            assert_eq!(
                drawn.len(),
                p.rules.tiles(&p.key).count() + p.rules.level.movers.len()
            );
        }
    }

    #[test]
    fn a_dropped_key_is_counted_and_not_played() {
        let g = generate::generate(3).unwrap();
        let mut p = window(3, Some(2));
        press(&mut p, &g.solution);
        assert_eq!(p.state.session.dropped, 1);
        assert_eq!(
            p.state.session.moves + p.state.session.illegal,
            g.solution.len() - 1
        );
        assert_eq!(p.state.session.log[0].mv, g.solution[0..1]);
    }

    #[test]
    fn keys_during_an_animation_are_queued() {
        let g = generate::generate(2).unwrap();
        let mut p = window(2, None);
        for c in g.solution.chars() {
            p.arrow(Dir::from_char(c).unwrap());
        }
        assert_eq!(p.state.session.moves, 1, "one move plays, the others wait");
        while let Some(a) = &mut p.anim {
            a.started -= ANIMATION;
            p.animate();
        }
        assert!(p.state.session.solved);
    }
}
