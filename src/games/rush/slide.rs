//! The practice window's drag logic, without a window: press on a vehicle,
//! and it follows the pointer along its axis only, stopped by other
//! vehicles, walls and the edges; on release it snaps to the nearest cell.
//! One drag is one move (`B+2`), however many cells; a drag that ends
//! where it started, or starts on no vehicle, is no move.
//!
//! Coordinates are in cells from the board's top left corner (the window
//! divides its pixels by the pitch), so the tests replay plans here
//! exactly as the window would take them.

use super::board::{Move, Puzzle, State};

/// A vehicle held by the pointer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grab {
    pub vehicle: usize,
    /// Its offset when grabbed.
    pub from: u8,
    /// The pointer's coordinate along the vehicle's axis when grabbed.
    pub anchor: f64,
    /// The farthest offsets it can slide to, either way.
    pub lo: u8,
    pub hi: u8,
    /// Where it is drawn now, in cells along its line.
    pub pos: f64,
}

/// What a released drag did.
#[derive(Clone, Debug, PartialEq)]
pub enum Released {
    /// A move, with the position after it.
    Moved(Move),
    /// The vehicle went back where it was, or nothing was held: no move.
    Nothing,
    /// The drag was ignored on purpose (`--drop-input`).
    Dropped,
}

/// The board and the drag in progress.
#[derive(Clone, Debug)]
pub struct Slider {
    pub puzzle: Puzzle,
    pub state: State,
    pub grab: Option<Grab>,
    /// Presses so far, counting from 1.
    pub presses: usize,
    /// Ignore this press (from 1) and its drag, as if lost.
    pub drop: Option<usize>,
    dropping: bool,
}

impl Slider {
    pub fn new(puzzle: Puzzle, state: State, drop: Option<usize>) -> Slider {
        Slider {
            puzzle,
            state,
            grab: None,
            presses: 0,
            drop,
            dropping: false,
        }
    }

    pub fn solved(&self) -> bool {
        self.puzzle.is_goal(self.state)
    }

    /// The vehicle covering the cell under `(x, y)`, if any.
    fn vehicle_at(&self, x: f64, y: f64) -> Option<usize> {
        if !(0.0..6.0).contains(&x) || !(0.0..6.0).contains(&y) {
            return None;
        }
        let (r, c) = (y as usize, x as usize);
        let letter = self
            .puzzle
            .board_string(self.state)
            .chars()
            .nth(r * 6 + c)?;
        self.puzzle.vehicles.iter().position(|v| v.letter == letter)
    }

    /// The pointer went down at `(x, y)`.
    pub fn press(&mut self, x: f64, y: f64) {
        self.presses += 1;
        self.grab = None;
        self.dropping = self.drop == Some(self.presses);
        if self.dropping || self.solved() {
            return;
        }
        let Some(v) = self.vehicle_at(x, y) else {
            return;
        };
        let veh = self.puzzle.vehicles[v];
        let from = self.puzzle.offset(self.state, v);
        let mut moves = Vec::new();
        self.puzzle.successors(self.state, &mut moves);
        let deltas = moves
            .iter()
            .filter(|(m, _)| m.vehicle as usize == v)
            .map(|(m, _)| m.delta);
        let (mut lo, mut hi) = (from, from);
        for d in deltas {
            let to = (i16::from(from) + i16::from(d)) as u8;
            lo = lo.min(to);
            hi = hi.max(to);
        }
        self.grab = Some(Grab {
            vehicle: v,
            from,
            anchor: if veh.horizontal { x } else { y },
            lo,
            hi,
            pos: f64::from(from),
        });
    }

    /// The pointer moved to `(x, y)`: a held vehicle follows along its axis.
    pub fn drag_to(&mut self, x: f64, y: f64) {
        let Some(g) = &mut self.grab else { return };
        let horizontal = self.puzzle.vehicles[g.vehicle].horizontal;
        let along = if horizontal { x } else { y };
        let pos = f64::from(g.from) + along - g.anchor;
        g.pos = pos.clamp(f64::from(g.lo), f64::from(g.hi));
    }

    /// The pointer went up at `(x, y)`: the held vehicle snaps to the
    /// nearest cell, and that is the move.
    pub fn release(&mut self, x: f64, y: f64) -> Released {
        if std::mem::take(&mut self.dropping) {
            return Released::Dropped;
        }
        self.drag_to(x, y);
        let Some(g) = self.grab.take() else {
            return Released::Nothing;
        };
        let to = g.pos.round() as i16;
        let delta = to - i16::from(g.from);
        if delta == 0 {
            return Released::Nothing;
        }
        let letter = self.puzzle.vehicles[g.vehicle].letter;
        match self.puzzle.apply(self.state, &format!("{letter}{delta:+}")) {
            Ok((m, next)) => {
                self.state = next;
                Released::Moved(m)
            }
            // The clamp keeps every snap legal; this is only a guard.
            Err(_) => Released::Nothing,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slider(board: &str) -> Slider {
        let (p, s) = Puzzle::parse(board).unwrap();
        Slider::new(p, s, None)
    }

    #[test]
    fn a_vehicle_follows_its_axis_and_stops_at_blockers() {
        // A at row 2, columns 0-1; B upright at column 4, rows 1-3.
        let mut w = slider("ooooooooooBoAAooBoooooBooooooooooooo");
        w.press(1.5, 2.5);
        w.drag_to(5.5, 3.9);
        let g = w.grab.unwrap();
        assert_eq!((g.lo, g.hi, g.pos), (0, 2, 2.0));
        assert!(matches!(w.release(5.5, 2.5), Released::Moved(m) if m.to_string() == "A+2"));
        // Back where it started: no move.
        w.press(2.5, 2.5);
        w.drag_to(2.9, 2.5);
        assert_eq!(w.release(2.6, 2.5), Released::Nothing);
        // B, held at its lowest cell, goes up past the top edge: it stops
        // there, one cell up.
        w.press(4.5, 3.5);
        assert!(matches!(w.release(4.5, 1.9), Released::Moved(m) if m.to_string() == "B-1"));
    }

    #[test]
    fn a_dropped_press_is_ignored_and_empty_cells_hold_nothing() {
        let (p, s) = Puzzle::parse("ooooooooooooAAoooooooooooooooooooooo").unwrap();
        let mut w = Slider::new(p, s, Some(1));
        w.press(0.5, 2.5);
        assert_eq!(w.release(5.5, 2.5), Released::Dropped);
        w.press(3.5, 3.5);
        assert_eq!(w.release(5.5, 3.5), Released::Nothing);
        w.press(0.5, 2.5);
        assert!(matches!(w.release(4.5, 2.5), Released::Moved(_)));
        assert!(w.solved());
    }
}

#[cfg(test)]
mod replays {
    use super::super::{boards, plan};
    use super::*;
    use crate::input::Action;
    use crate::solve::{Budget, Found, Progress, Puzzle as _};
    use crate::vision::Lattice;

    /// A planned drag, fed to the window's model as the pointer would move.
    fn send(w: &mut Slider, a: &Action, lat: &Lattice) -> Released {
        let Action::Drag {
            from, to, steps, ..
        } = a
        else {
            panic!("{a:?} is not a drag")
        };
        let (pitch, _) = lat.pitch();
        let cell = |x: f64, y: f64| ((x - lat.xs[0]) / pitch, (y - lat.ys[0]) / pitch);
        let (x0, y0) = cell(f64::from(from[0]), f64::from(from[1]));
        let (x1, y1) = cell(f64::from(to[0]), f64::from(to[1]));
        w.press(x0, y0);
        for i in 1..=*steps {
            let t = f64::from(i) / f64::from(*steps);
            w.drag_to(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t);
        }
        w.release(x1, y1)
    }

    #[test]
    fn engine_plans_played_as_drags_solve_every_bundled_board_optimally() {
        let lat = Lattice::uniform(37.5, 21.5, 47.0, 47.0, 6, 6);
        for line in boards::all() {
            let (p, s) = Puzzle::parse(&line.board).unwrap();
            let sol = p.solve(&s, &Budget::default(), &mut Progress::quiet());
            let Found::Path(moves) = sol.found else {
                panic!("line {}: no plan", line.number)
            };
            let mut w = Slider::new(p.clone(), s, None);
            let mut made = 0;
            for m in &moves {
                let a = plan::drag(&p, w.state, *m, &lat);
                match send(&mut w, &a, &lat) {
                    Released::Moved(got) => assert_eq!(got, *m, "line {}", line.number),
                    other => panic!("line {}: {m} gave {other:?}", line.number),
                }
                made += 1;
            }
            assert!(w.solved(), "line {}", line.number);
            assert_eq!(made, line.moves as usize, "line {}", line.number);
        }
    }
}
