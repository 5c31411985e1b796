//! The Rush Hour practice window: a playable board with the project's own
//! art ([`super::art`]) and the drag logic of [`super::slide`]. It lets a
//! newcomer watch boardbot play, and it is the target of the end-to-end
//! test, which judges the play by the window's session file.
//!
//! Drag a vehicle with the mouse; it snaps to the nearest cell on release
//! (a short animation). The board is solved when the red car reaches the
//! exit. The session (`--result`, `--record`) is written once the window
//! is placed, after every move and on close.

use std::time::{Duration, Instant};

use image::{Rgb, RgbImage};

use super::art::{self, Scene};
use super::board::{Puzzle, State};
use super::boards;
use super::slide::{Released, Slider};
use super::solver::solution_length;
use crate::art::font::draw_bar;
use crate::game::GameError;
use crate::practice::{Flag, PracticeOptions, ScreenLattice, Session};
use crate::practice::{PracticeState, PracticeWindow, closes};
use crate::ui::{App, Control, UiEvent};
use crate::vision::Lattice;

const ID: &str = "rush";
/// How long a released vehicle takes to snap to its cell.
const SNAP: Duration = Duration::from_millis(60);

/// A released vehicle on its way to its cell.
struct Snap {
    vehicle: usize,
    from: f64,
    to: f64,
    start: Instant,
}

pub struct Window {
    slider: Slider,
    state: PracticeState,
    pitch: f64,
    lattice: Lattice,
    bar: u32,
    snap: Option<Snap>,
}

/// The board to play and its optimal length: `--board`, or a bundled board
/// picked by `--seed`.
fn start(opts: &PracticeOptions) -> Result<(Puzzle, State, Option<u64>), GameError> {
    if let Some(text) = &opts.board {
        let (p, s) = Puzzle::parse(text).map_err(|e| GameError::Parse {
            origin: "--board".into(),
            message: e.to_string(),
        })?;
        let optimal = solution_length(&p, s).map(u64::from);
        return Ok((p, s, optimal));
    }
    let line = boards::pick(opts.seed.unwrap_or(0))
        .ok_or_else(|| GameError::Usage("no bundled boards".into()))?;
    let (p, s) = Puzzle::parse(&line.board).map_err(|e| GameError::Parse {
        origin: format!("bundled board, line {}", line.number),
        message: e.to_string(),
    })?;
    Ok((p, s, Some(u64::from(line.moves))))
}

impl Window {
    /// Window pixels to board cells.
    fn cells(&self, x: f64, y: f64) -> (f64, f64) {
        (
            (x - self.lattice.xs[0]) / self.pitch,
            (y - self.lattice.ys[0]) / self.pitch,
        )
    }

    fn released(&mut self, x: f64, y: f64) {
        let held = self.slider.grab;
        let (cx, cy) = self.cells(x, y);
        match self.slider.release(cx, cy) {
            Released::Moved(m) => {
                if let Some(g) = held {
                    self.snap = Some(Snap {
                        vehicle: g.vehicle,
                        from: g.pos,
                        to: f64::from(self.slider.puzzle.offset(self.slider.state, g.vehicle)),
                        start: Instant::now(),
                    });
                }
                self.state.log(m.to_string());
                self.state.session.board = self.slider.puzzle.board_string(self.slider.state);
                self.state.session.solved = self.slider.solved();
            }
            Released::Nothing => self.state.session.illegal += 1,
            Released::Dropped => self.state.session.dropped += 1,
        }
        self.state.save();
    }

    /// The board as drawn now: a held vehicle where the pointer has it, a
    /// released one on its way to its cell.
    fn scene(&self) -> Scene {
        let mut scene = Scene::of(&self.slider.puzzle, self.slider.state);
        if let Some(g) = &self.slider.grab {
            scene.pieces[g.vehicle].pos = g.pos;
        }
        if let Some(s) = &self.snap {
            let t = (s.start.elapsed().as_secs_f64() / SNAP.as_secs_f64()).min(1.0);
            scene.pieces[s.vehicle].pos = s.from + (s.to - s.from) * t;
        }
        scene
    }

    fn status(&self) -> String {
        let optimal = self
            .state
            .session
            .optimal
            .map_or(String::new(), |n| format!("  OPTIMAL {n}"));
        if self.state.session.solved {
            format!("SOLVED IN {} MOVES{optimal}", self.state.session.moves)
        } else {
            format!("MOVES {}{optimal}", self.state.session.moves)
        }
    }

    fn draw_bar(&self, frame: &mut RgbImage) {
        let colour = if self.state.session.solved {
            Rgb([255, 220, 90])
        } else {
            Rgb([240, 234, 222])
        };
        draw_bar(frame, self.bar, Rgb([52, 40, 30]), &self.status(), colour);
    }
}

impl App for Window {
    fn draw(&mut self, frame: &mut RgbImage) {
        for p in frame.pixels_mut() {
            *p = Rgb(art::PAGE);
        }
        art::draw(frame, &self.scene(), &self.lattice);
        self.draw_bar(frame);
    }

    fn event(&mut self, event: UiEvent) -> Control {
        match event {
            UiEvent::Placed { x, y } => {
                self.state.place(ScreenLattice::of((x, y), &self.lattice));
                Control::Continue
            }
            UiEvent::MouseDown { x, y, .. } => {
                self.snap = None;
                let (cx, cy) = self.cells(x, y);
                self.slider.press(cx, cy);
                Control::Redraw
            }
            UiEvent::MouseMove { x, y } if self.slider.grab.is_some() => {
                let (cx, cy) = self.cells(x, y);
                self.slider.drag_to(cx, cy);
                Control::Redraw
            }
            UiEvent::MouseUp { x, y, .. } => {
                self.released(x, y);
                Control::Redraw
            }
            UiEvent::Tick => {
                if self
                    .snap
                    .as_ref()
                    .is_some_and(|s| s.start.elapsed() >= SNAP)
                {
                    self.snap = None;
                }
                if self.state.error.is_some() {
                    Control::Exit
                } else {
                    Control::Redraw
                }
            }
            e if closes(&e) => {
                self.state.save();
                Control::Exit
            }
            _ => Control::Continue,
        }
    }

    fn next_tick(&self) -> Option<Duration> {
        (self.snap.is_some() || self.state.error.is_some()).then_some(Duration::from_millis(15))
    }
}

impl PracticeWindow for Window {
    fn new(opts: &PracticeOptions) -> Result<Window, GameError> {
        opts.only_with_session(ID, &[Flag::Board, Flag::Seed])?;
        let (p, s, optimal) = start(opts)?;
        let pitch = opts.pitch_or(64.0)?;
        let margin = (pitch * 0.25).round();
        let (w, h, lattice) = art::layout(pitch, [margin; 4]);
        let bar = (pitch * 0.6).round().max(22.0) as u32;
        let mut session = Session::new(ID, p.board_string(s), optimal);
        session.solved = p.is_goal(s);
        Ok(Window {
            slider: Slider::new(p, s, opts.drop_input),
            state: PracticeState::new("Rush Hour", opts, session, (w.max(200), h + bar)),
            pitch,
            lattice,
            bar,
            snap: None,
        })
    }

    fn state(&mut self) -> &mut PracticeState {
        &mut self.state
    }
}
