//! Continuity's rules: one [`State`] of the whole game (the frame's
//! arrangement, the character, the keys held, the view) and what every
//! input does to it.
//!
//! The fine points, as the planner, the practice window and the peer
//! check in `tests/continuity_peer` all read them:
//! - **Cells.** `k`, `D` and the start are air for movement; only `#` is
//!   solid. Outside the frame, the empty slot, and a solid cell of the
//!   neighbouring scene are all walls: moving across a scene border
//!   enters the next scene at the matching cell (same row going left or
//!   right, same column going up or down) only if that cell is air.
//! - **Standing** means the cell below is not enterable (solid, the
//!   frame's bottom, the empty slot, or solid in the scene below).
//! - **A step** (Left, Right, Jump or Wait) first moves sideways (Left
//!   and Right, one cell if it is enterable, in the air too), then
//!   vertically, at most one cell:
//!   - Jump, pressed while standing, sets the rise to J (even mid-rise,
//!     if the sideways move put solid ground underneath); pressed in the
//!     air it does nothing, like Wait;
//!   - while rise is left, the character rises one cell and the rise
//!     drops by one; at a ceiling the rise ends and it does not move
//!     up that step. A Jump therefore rises on the step it is pressed;
//!   - with no rise left it falls one cell if the cell below is
//!     enterable.
//! - **Keys and the door.** A key is collected when its cell is entered,
//!   on the sideways or the vertical part of a step. Entering a door
//!   with every key held wins; nothing moves after that.
//! - **The tile view.** Space (Toggle) switches the view at any time,
//!   mid-air included; time stands still in the tile view. There an
//!   arrow key slides the scene on that side of the empty slot into it,
//!   the way [`Slide`] says, carrying the character (its spot is
//!   relative to its scene) and its rise.
//! - **Costs:** a step 1, a toggle 1, a slide the slide cost (default 5).

use std::fmt;

use serde::Serialize;

use super::level::{Cell, Level, Spot};
use crate::engines::tiles::{Slide, Tiles};

/// The default cost of one tile slide.
pub const DEFAULT_SLIDE_COST: u32 = 5;

/// Which view the game shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum View {
    /// The character runs and jumps.
    Play,
    /// Zoomed out: arrows slide scenes.
    Tiles,
}

/// One input of a plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Left,
    Right,
    Jump,
    Wait,
    /// Space: switch the view.
    Toggle,
    /// In the tile view, an arrow: the scene beside the gap moves this way.
    Slide(Slide),
}

impl Action {
    /// The four platform steps.
    pub const STEPS: [Action; 4] = [Action::Left, Action::Right, Action::Jump, Action::Wait];

    /// Whether it is a platform step (Left, Right, Jump, Wait).
    pub fn is_step(self) -> bool {
        !matches!(self, Action::Toggle | Action::Slide(_))
    }

    /// The key that makes it: Jump is Up, Wait is Down, a toggle Space,
    /// a slide the arrow of its direction.
    pub fn key(self) -> Key {
        match self {
            Action::Left | Action::Slide(Slide::Left) => Key::Left,
            Action::Right | Action::Slide(Slide::Right) => Key::Right,
            Action::Jump | Action::Slide(Slide::Up) => Key::Up,
            Action::Wait | Action::Slide(Slide::Down) => Key::Down,
            Action::Toggle => Key::Space,
        }
    }
}

/// `L`, `R`, `J`, `W` for steps, `space` for a toggle, `slide-L` &c.
impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Left => f.write_str("L"),
            Action::Right => f.write_str("R"),
            Action::Jump => f.write_str("J"),
            Action::Wait => f.write_str("W"),
            Action::Toggle => f.write_str("space"),
            Action::Slide(s) => write!(f, "slide-{}", s.letter()),
        }
    }
}

/// A key on the keyboard, as the game reads them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Key {
    Left,
    Right,
    Up,
    Down,
    Space,
}

/// The keys that play `actions`, one per action.
pub fn keys(actions: &[Action]) -> Vec<Key> {
    actions.iter().map(|a| a.key()).collect()
}

/// Everything that changes during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub frame: Tiles,
    /// The character, relative to its scene.
    pub at: Spot,
    /// Cells of rise left of the current jump.
    pub rise: u8,
    /// Bit `i` set: key `i` is held.
    pub keys: u16,
    pub view: View,
    pub won: bool,
}

/// A level's rules.
#[derive(Clone, Debug)]
pub struct World {
    pub level: Level,
}

impl World {
    pub fn new(level: Level) -> World {
        World { level }
    }

    pub fn start(&self) -> State {
        State {
            frame: self.level.frame,
            at: self.level.start,
            rise: 0,
            keys: 0,
            view: View::Play,
            won: false,
        }
    }

    /// Every key's bit.
    pub fn all_keys(&self) -> u16 {
        ((1u32 << self.level.keys.len()) - 1) as u16
    }

    /// How many keys are still to collect.
    pub fn keys_left(&self, s: &State) -> usize {
        (self.all_keys() & !s.keys).count_ones() as usize
    }

    /// The cell of a spot, ignoring collected keys (they are air too).
    pub fn cell(&self, at: Spot) -> Cell {
        self.level
            .cell(at.scene, usize::from(at.x), usize::from(at.y))
    }

    /// The frame slot (row-major) of the character's scene.
    pub fn slot(&self, s: &State) -> usize {
        s.frame.find(s.at.scene).unwrap_or(0)
    }

    /// The character's cell in the whole frame: (column, row), counting
    /// every slot as S cells.
    pub fn position(&self, s: &State) -> (usize, usize) {
        let slot = self.slot(s);
        let size = self.level.size;
        (
            (slot % self.level.cols) * size + usize::from(s.at.x),
            (slot / self.level.cols) * size + usize::from(s.at.y),
        )
    }

    /// The spot one cell away (`dx`, `dy` in -1..=1, one of them 0) in
    /// `frame`, if the character may enter it.
    pub fn open(&self, frame: &Tiles, at: Spot, dx: i32, dy: i32) -> Option<Spot> {
        let size = self.level.size as i32;
        let (x, y) = (i32::from(at.x) + dx, i32::from(at.y) + dy);
        let spot = if (0..size).contains(&x) && (0..size).contains(&y) {
            Spot {
                x: x as u8,
                y: y as u8,
                ..at
            }
        } else {
            let slot = frame.find(at.scene)?;
            let cols = self.level.cols as i32;
            let col = (slot as i32 % cols) + dx;
            let row = (slot as i32 / cols) + dy;
            if !(0..cols).contains(&col) || !(0..self.level.rows as i32).contains(&row) {
                return None;
            }
            let scene = frame.get((row * cols + col) as usize);
            if scene == 0 {
                return None;
            }
            Spot {
                scene,
                x: x.rem_euclid(size) as u8,
                y: y.rem_euclid(size) as u8,
            }
        };
        self.cell(spot).enterable().then_some(spot)
    }

    /// Whether the character stands: the cell below is not enterable.
    pub fn standing(&self, s: &State) -> bool {
        self.open(&s.frame, s.at, 0, 1).is_none()
    }

    /// Moves the character into `to` and collects what is there.
    fn enter(&self, s: &mut State, to: Spot) {
        s.at = to;
        match self.cell(to) {
            Cell::Key => {
                if let Some(k) = self.level.key_at(to) {
                    s.keys |= 1 << k;
                }
            }
            Cell::Door if s.keys == self.all_keys() => s.won = true,
            _ => {}
        }
    }

    /// One platform step (Left, Right, Jump or Wait). In the tile view,
    /// after a win, or given a toggle or slide, nothing changes.
    pub fn step(&self, s: &State, a: Action) -> State {
        let mut n = *s;
        if s.won || s.view != View::Play || !a.is_step() {
            return n;
        }
        let dx = match a {
            Action::Left => -1,
            Action::Right => 1,
            _ => 0,
        };
        if dx != 0 {
            if let Some(to) = self.open(&n.frame, n.at, dx, 0) {
                self.enter(&mut n, to);
            }
        }
        if n.won {
            return n;
        }
        if a == Action::Jump && self.standing(&n) {
            n.rise = self.level.jump;
        }
        if n.rise > 0 {
            match self.open(&n.frame, n.at, 0, -1) {
                Some(to) => {
                    n.rise -= 1;
                    self.enter(&mut n, to);
                }
                None => n.rise = 0,
            }
        } else if let Some(to) = self.open(&n.frame, n.at, 0, 1) {
            self.enter(&mut n, to);
        }
        n
    }

    /// Space: the other view.
    pub fn toggle(&self, s: &State) -> State {
        let view = match s.view {
            View::Play => View::Tiles,
            View::Tiles => View::Play,
        };
        State { view, ..*s }
    }

    /// An arrow in the tile view; `None` when not in the tile view, after
    /// a win, or when no scene lies on that side of the gap.
    pub fn slide(&self, s: &State, d: Slide) -> Option<State> {
        if s.view != View::Tiles || s.won {
            return None;
        }
        let frame = s.frame.slide(d)?;
        Some(State { frame, ..*s })
    }

    /// Any action, as the searches play it: `None` when it is not
    /// available in this view (a step in the tile view, a slide in play)
    /// or the game is won.
    pub fn act(&self, s: &State, a: Action) -> Option<State> {
        if s.won {
            return None;
        }
        match (a, s.view) {
            (Action::Toggle, _) => Some(self.toggle(s)),
            (Action::Slide(d), View::Tiles) => self.slide(s, d),
            (_, View::Play) if a.is_step() => Some(self.step(s, a)),
            _ => None,
        }
    }

    /// Every available action and where it leads, skipping those that
    /// change nothing or do what an earlier one does.
    pub fn successors(&self, s: &State, out: &mut Vec<(Action, State)>) {
        if s.won {
            return;
        }
        out.push((Action::Toggle, self.toggle(s)));
        match s.view {
            View::Play => {
                // Wait first, so that of two steps with the same effect
                // (Left against a wall while falling, Jump in the air)
                // plans show the Wait.
                let first = out.len();
                for a in [Action::Wait, Action::Left, Action::Right, Action::Jump] {
                    let n = self.step(s, a);
                    if n != *s && !out[first..].iter().any(|(_, m)| *m == n) {
                        out.push((a, n));
                    }
                }
            }
            View::Tiles => {
                for d in Slide::ALL {
                    if let Some(n) = self.slide(s, d) {
                        out.push((Action::Slide(d), n));
                    }
                }
            }
        }
    }

    /// An action's cost.
    pub fn cost(a: Action, slide_cost: u32) -> u32 {
        match a {
            Action::Slide(_) => slide_cost,
            _ => 1,
        }
    }

    /// Plays `actions` from `s`: every state in turn, the start first;
    /// `Err` names the first action that is not available.
    pub fn replay(&self, s: &State, actions: &[Action]) -> Result<Vec<State>, String> {
        let mut out = vec![*s];
        for (i, &a) in actions.iter().enumerate() {
            let last = out[out.len() - 1];
            let n = self
                .act(&last, a)
                .ok_or_else(|| format!("action {} ({a}) is not available", i + 1))?;
            out.push(n);
        }
        Ok(out)
    }

    /// The whole frame as text, one row per line: scenes' cells, spaces
    /// for the empty slot, `@` the character, collected keys as air.
    pub fn rows(&self, s: &State) -> Vec<String> {
        let size = self.level.size;
        let me = self.position(s);
        (0..self.level.rows * size)
            .map(|y| {
                (0..self.level.cols * size)
                    .map(|x| {
                        let slot = (y / size) * self.level.cols + x / size;
                        let scene = s.frame.get(slot);
                        let spot = Spot {
                            scene,
                            x: (x % size) as u8,
                            y: (y % size) as u8,
                        };
                        if (x, y) == me {
                            '@'
                        } else if scene == 0 {
                            ' '
                        } else {
                            match (self.cell(spot), self.level.key_at(spot)) {
                                (Cell::Key, Some(k)) if s.keys & (1 << k) != 0 => '.',
                                (c, _) => c.char(),
                            }
                        }
                    })
                    .collect()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A: start standing on the floor, a key two cells right; B to its
    /// right is open on row 1; C below B holds the door.
    const LEVEL: &str = "\
jump 2
AB
.C
A:
....
....
@.k.
####
B:
....
....
....
#...
C:
....
...D
.#..
####
";

    fn world() -> World {
        World::new(Level::parse(LEVEL).unwrap())
    }

    fn run(w: &World, s: State, acts: &[Action]) -> State {
        *w.replay(&s, acts).unwrap().last().unwrap()
    }

    #[test]
    fn walks_collects_and_jumps_to_the_ceiling_of_the_frame() {
        let w = world();
        let s = w.start();
        assert!(w.standing(&s));
        let s = run(&w, s, &[Action::Right, Action::Right]);
        assert_eq!((s.at.x, s.at.y, s.keys), (2, 2, 1));
        // Jump rises on the step it is pressed, two cells, then falls.
        let s = w.step(&s, Action::Jump);
        assert_eq!((s.at.y, s.rise), (1, 1));
        let s = w.step(&s, Action::Wait);
        assert_eq!((s.at.y, s.rise), (0, 0));
        let s = w.step(&s, Action::Wait);
        assert_eq!((s.at.y, s.rise), (1, 0));
        // In the air, Jump is a Wait: the character falls.
        let mut top = s;
        top.at.y = 0;
        assert_eq!(w.step(&top, Action::Jump), w.step(&top, Action::Wait));
        assert_eq!(w.step(&top, Action::Jump).at.y, 1);
    }

    #[test]
    fn crosses_borders_only_into_air_and_falls_into_the_scene_below() {
        let w = world();
        let s = run(&w, w.start(), &[Action::Right; 4]);
        // Row 2 of B is air: crossed at (0,2), then fell onto B's solid (0,3)?
        // No: B's (0,3) is solid, so it stands at B(0,2).
        assert_eq!((s.at.scene, s.at.x, s.at.y), (2, 0, 2));
        assert!(w.standing(&s));
        // One more right: B(1,2), above air B(1,3), then falls into C(1,0).
        let s = run(&w, s, &[Action::Right, Action::Wait]);
        assert_eq!((s.at.scene, s.at.x, s.at.y), (3, 1, 0));
        let s = run(&w, s, &[Action::Right, Action::Right]);
        assert_eq!((s.at.x, s.at.y), (3, 1));
        assert!(s.won, "the door with the only key held");
        assert!(w.act(&s, Action::Left).is_none());
    }

    #[test]
    fn the_gap_is_a_wall_and_scenes_carry_the_character() {
        let w = world();
        let s = w.start();
        assert_eq!(w.open(&s.frame, s.at, -1, 0), None, "frame edge");
        let under = Spot {
            scene: 1,
            x: 0,
            y: 3,
        };
        assert_eq!(w.open(&s.frame, under, 0, 1), None, "the empty slot");
        let t = w.toggle(&s);
        assert!(w.act(&t, Action::Left).is_none(), "no steps in tile view");
        // The gap is bottom left: Down moves A (above it) down.
        let moved = w.slide(&t, Slide::Down).unwrap();
        assert_eq!(moved.frame.slots(), vec![0, 2, 1, 3]);
        assert_eq!(moved.at, s.at);
        assert_eq!(w.position(&moved), (0, 6));
        let back = w.toggle(&moved);
        assert!(w.standing(&back));
        assert_eq!(
            keys(&[
                Action::Jump,
                Action::Wait,
                Action::Toggle,
                Action::Slide(Slide::Left)
            ]),
            vec![Key::Up, Key::Down, Key::Space, Key::Left]
        );
    }
}
