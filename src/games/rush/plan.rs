//! From a solution to live input: one drag per slide, from the middle of
//! the vehicle to where that point ends up, and checkpoints (the boards
//! the engine predicts, canonically lettered) every few slides so the live
//! player notices a lost drag and re-plans.

use super::board::{Move, Puzzle, State};
use super::letters;
use crate::input::Action;
use crate::report::Checkpoint;
use crate::vision::Lattice;

/// Slides between two checkpoints.
pub const CHECK_EVERY: usize = 3;

/// The slides of a plan written as `B+2` names, replayed from `start`:
/// each move with the position before it. `None` if a name is not legal.
pub fn replay(p: &Puzzle, start: State, names: &[String]) -> Option<Vec<(Move, State)>> {
    let mut s = start;
    let mut out = Vec::new();
    for n in names {
        let (m, next) = p.apply(s, n).ok()?;
        out.push((m, s));
        s = next;
    }
    Some(out)
}

/// How long a drag over `cells` takes, and in how many pointer moves: slow
/// enough for a window that follows the pointer.
pub fn drag_timing(cells: u32) -> (u32, u32) {
    ((140 + 30 * cells).min(250), cells * 6 + 4)
}

/// The drag that makes move `m` from position `s`: from the middle of the
/// vehicle to where that point is after the slide.
pub fn drag(p: &Puzzle, s: State, m: Move, lattice: &Lattice) -> Action {
    let v = &p.vehicles[m.vehicle as usize];
    let (pitch, _) = lattice.pitch();
    let off = f64::from(p.offset(s, m.vehicle as usize));
    let along = off + f64::from(v.len) / 2.0;
    let across = f64::from(v.line) + 0.5;
    let (x, y) = if v.horizontal {
        (along, across)
    } else {
        (across, along)
    };
    let from = (lattice.xs[0] + x * pitch, lattice.ys[0] + y * pitch);
    let shift = f64::from(m.delta) * pitch;
    let to = if v.horizontal {
        (from.0 + shift, from.1)
    } else {
        (from.0, from.1 + shift)
    };
    let (duration_ms, steps) = drag_timing(m.delta.unsigned_abs().into());
    let pt = |(x, y): (f64, f64)| [x.round() as i32, y.round() as i32];
    Action::Drag {
        from: pt(from),
        to: pt(to),
        duration_ms,
        steps,
    }
}

/// The boards after every [`CHECK_EVERY`] slides and after the last,
/// canonically lettered as the reader letters them.
pub fn checkpoints(p: &Puzzle, start: State, names: &[String]) -> Vec<Checkpoint> {
    let mut s = start;
    let mut out = Vec::new();
    for (k, n) in names.iter().enumerate() {
        let Ok((_, next)) = p.apply(s, n) else {
            return Vec::new();
        };
        s = next;
        let after = k + 1;
        if after % CHECK_EVERY == 0 || after == names.len() {
            out.push(Checkpoint {
                after,
                rows: letters::rows(&letters::canonical(&p.board_string(s))),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drags_go_from_the_vehicles_middle_along_its_axis() {
        let (p, s) = Puzzle::parse("ooooooooooooAAooooooooBoooooBooooooo").unwrap();
        let lat = Lattice::uniform(10.0, 20.0, 50.0, 50.0, 6, 6);
        let (m, _) = p.apply(s, "A+2").unwrap();
        let Action::Drag { from, to, .. } = drag(&p, s, m, &lat) else {
            panic!()
        };
        assert_eq!((from, to), ([60, 145], [160, 145]));
        let (m, _) = p.apply(s, "B-3").unwrap();
        let Action::Drag { from, to, .. } = drag(&p, s, m, &lat) else {
            panic!()
        };
        assert_eq!((from, to), ([235, 220], [235, 70]));
    }

    #[test]
    fn checkpoints_every_three_slides_and_at_the_end() {
        let (p, s) = Puzzle::parse("ooooooooooooAAooooooooBoooooBooooooo").unwrap();
        let names: Vec<String> = ["B-1", "B+1", "B-3", "A+4"].map(String::from).to_vec();
        let cps = checkpoints(&p, s, &names);
        assert_eq!(cps.iter().map(|c| c.after).collect::<Vec<_>>(), [3, 4]);
        assert_eq!(cps[1].rows[2], "ooooAA");
        assert_eq!(replay(&p, s, &names).map(|r| r.len()), Some(4));
    }
}
