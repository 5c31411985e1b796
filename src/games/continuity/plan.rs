//! The planner: the cheapest plan (steps 1, toggles 1, slides the slide
//! cost) over the whole state (arrangement, character, keys, view), by
//! A* with a consistent lower bound, and the plan cut into segments.
//!
//! **Exact, mid-air toggles included.** The search runs over the game's
//! own states ([`World::successors`]), so a toggle may happen anywhere a
//! player could press Space. Its speed comes from the bound
//! ([`Bound`]): the steps still needed in a *relaxed* world where every
//! scene border leads into any scene whose matching cell is enterable.
//! One step moves the character at most one cell across and one down
//! (sideways, then vertically), and slides never move it within its
//! scene, so the relaxed distance never overestimates, whatever the
//! arrangement. With keys left, the plan must still reach each key and
//! then a door: the bound is the largest (to key) + (key to a door), and
//! 1 more in the tile view (a toggle back is needed before any step).
//! Each term drops by at most 1 a step (a graph distance), and by the
//! triangle inequality collecting a key never drops the bound by more
//! than the step cost, so the bound is consistent and A* stays optimal.
//! `tests/continuity.rs` checks the costs against [`super::full`] on many
//! small random levels.

use std::collections::VecDeque;

use serde::Serialize;

use super::level::{Cell, Spot};
use super::rules::{Action, Key, State, View, World};
use crate::solve::{Budget, Progress, Solution};

const FAR: u32 = u32::MAX;

/// Relaxed distances from every cell to each key and to the nearest door.
pub struct Bound {
    size: usize,
    /// `to_key[k][cell]`, cells indexed by [`Bound::index`].
    to_key: Vec<Vec<u32>>,
    to_door: Vec<u32>,
}

impl Bound {
    pub fn new(world: &World) -> Bound {
        let level = &world.level;
        let size = level.size;
        let to_key = level
            .keys
            .iter()
            .map(|&k| relaxed_bfs(world, &[k]))
            .collect();
        let mut doors = Vec::new();
        for (i, s) in level.scenes.iter().enumerate() {
            for (j, c) in s.cells.iter().enumerate() {
                if *c == Cell::Door {
                    doors.push(Spot {
                        scene: i as u8 + 1,
                        x: (j % size) as u8,
                        y: (j / size) as u8,
                    });
                }
            }
        }
        let to_door = relaxed_bfs(world, &doors);
        Bound {
            size,
            to_key,
            to_door,
        }
    }

    fn index(&self, at: Spot) -> usize {
        (usize::from(at.scene) - 1) * self.size * self.size
            + usize::from(at.y) * self.size
            + usize::from(at.x)
    }

    /// A lower bound on the cost left from `s`; `u32::MAX` when the
    /// relaxed world already cannot finish.
    pub fn of(&self, world: &World, s: &State) -> u32 {
        if s.won {
            return 0;
        }
        let here = self.index(s.at);
        let left = world.all_keys() & !s.keys;
        let mut best = self.to_door[here];
        for (k, spot) in world.level.keys.iter().enumerate() {
            if left & (1 << k) == 0 {
                continue;
            }
            let (a, b) = (self.to_key[k][here], self.to_door[self.index(*spot)]);
            if a == FAR || b == FAR {
                return FAR;
            }
            best = best.max(a + b);
        }
        if best == FAR {
            return FAR;
        }
        best + u32::from(s.view == View::Tiles)
    }
}

/// Breadth-first distances in the relaxed world from `from` (any of them)
/// to every cell.
fn relaxed_bfs(world: &World, from: &[Spot]) -> Vec<u32> {
    let level = &world.level;
    let size = level.size as i32;
    let scenes = level.scenes.len();
    let per = (size * size) as usize;
    let index = |sc: usize, x: i32, y: i32| sc * per + (y * size + x) as usize;
    let mut dist = vec![FAR; scenes * per];
    let mut queue = VecDeque::new();
    for f in from {
        let i = index(usize::from(f.scene) - 1, i32::from(f.x), i32::from(f.y));
        dist[i] = 0;
        queue.push_back(i);
    }
    let enterable =
        |sc: usize, x: i32, y: i32| level.scenes[sc].cells[(y * size + x) as usize].enterable();
    while let Some(i) = queue.pop_front() {
        let (sc, x, y) = (i / per, (i % per) as i32 % size, (i % per) as i32 / size);
        for (dx, dy) in NEIGHBOURS {
            let (nx, ny) = (x + dx, y + dy);
            let inside = (0..size).contains(&nx) && (0..size).contains(&ny);
            let (wx, wy) = (nx.rem_euclid(size), ny.rem_euclid(size));
            let targets = if inside { sc..sc + 1 } else { 0..scenes };
            for t in targets {
                let j = index(t, wx, wy);
                if dist[j] == FAR && enterable(t, wx, wy) {
                    dist[j] = dist[i] + 1;
                    queue.push_back(j);
                }
            }
        }
    }
    dist
}

const NEIGHBOURS: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// The cheapest plan from `start`, by A* with [`Bound`].
pub fn search(
    world: &World,
    start: State,
    slide_cost: u32,
    budget: &Budget,
    progress: &mut Progress,
) -> Solution<Action> {
    let bound = Bound::new(world);
    super::full::search(
        world,
        start,
        slide_cost,
        |s| bound.of(world, s),
        budget,
        progress,
    )
}

/// A key a segment collects.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Collected {
    /// The key's number (scene order, then row by row).
    pub key: usize,
    pub scene: char,
    pub x: u8,
    pub y: u8,
}

/// What a segment does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Doing {
    /// Space: the view switches to `to`.
    Toggle { to: View },
    /// One arrow in the tile view: `scene` moves `slide` (U/D/L/R).
    Slide { slide: char, scene: char },
    /// Platform steps, `L`/`R`/`J`/`W` joined.
    Steps { moves: String, steps: usize },
}

/// One piece of a plan.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Segment {
    #[serde(flatten)]
    pub doing: Doing,
    pub cost: u64,
    /// The keys collected during the segment.
    pub collects: Vec<Collected>,
    /// The segment ends the game.
    pub wins: bool,
    /// Indices into the plan's actions: `first..first + len`.
    pub first: usize,
    pub len: usize,
}

/// A plan, as `plan` in the JSON.
#[derive(Clone, Debug, Serialize)]
pub struct Plan {
    pub segments: Vec<Segment>,
    pub cost: u64,
    pub steps: usize,
    pub slides: usize,
    pub toggles: usize,
    pub slide_cost: u32,
    pub optimal: bool,
    /// Every key to press, one per action (Jump is `up`, Wait `down`).
    pub keys: Vec<Key>,
    #[serde(skip)]
    pub actions: Vec<Action>,
}

impl Plan {
    /// Cuts `actions` played from `start` into segments. Actions past
    /// one that is not available are kept but collect nothing.
    pub fn new(world: &World, start: &State, actions: &[Action], slide_cost: u32) -> Plan {
        let states = world
            .replay(start, actions)
            .unwrap_or_else(|_| vec![*start]);
        let mut segments: Vec<Segment> = Vec::new();
        let at = |i: usize| states.get(i).or(states.last()).copied().unwrap_or(*start);
        for (i, &a) in actions.iter().enumerate() {
            let (before, after) = (at(i), at(i + 1));
            let joins = a.is_step()
                && matches!(
                    segments.last(),
                    Some(Segment {
                        doing: Doing::Steps { .. },
                        ..
                    })
                );
            if !joins {
                segments.push(Segment {
                    doing: segment_kind(world, &before, &after, a),
                    cost: 0,
                    collects: Vec::new(),
                    wins: false,
                    first: i,
                    len: 0,
                });
            }
            let Some(seg) = segments.last_mut() else {
                continue;
            };
            if let Doing::Steps { moves, steps } = &mut seg.doing {
                moves.push_str(&a.to_string());
                *steps += 1;
            }
            seg.len += 1;
            seg.cost += u64::from(World::cost(a, slide_cost));
            seg.collects.extend(collected(world, &before, &after));
            seg.wins |= after.won;
        }
        let count = |f: fn(&Action) -> bool| actions.iter().filter(|a| f(a)).count();
        Plan {
            cost: segments.iter().map(|s| s.cost).sum(),
            steps: count(|a| a.is_step()),
            slides: count(|a| matches!(a, Action::Slide(_))),
            toggles: count(|a| *a == Action::Toggle),
            segments,
            slide_cost,
            optimal: true,
            keys: super::rules::keys(actions),
            actions: actions.to_vec(),
        }
    }

    /// One line per segment, for people.
    pub fn lines(&self) -> Vec<String> {
        self.segments
            .iter()
            .map(|s| {
                let what = match &s.doing {
                    Doing::Toggle { to: View::Tiles } => "space: tile view".to_string(),
                    Doing::Toggle { to: View::Play } => "space: play view".to_string(),
                    Doing::Slide { slide, scene } => format!("slide {scene} {slide}"),
                    Doing::Steps { moves, steps } => format!("{steps} steps {moves}"),
                };
                let keys: Vec<String> = s
                    .collects
                    .iter()
                    .map(|k| format!("key {} ({} {},{})", k.key, k.scene, k.x, k.y))
                    .collect();
                let mut line = what;
                if !keys.is_empty() {
                    line.push_str(&format!(", collects {}", keys.join(" and ")));
                }
                if s.wins {
                    line.push_str(", through the door");
                }
                line
            })
            .collect()
    }
}

fn segment_kind(world: &World, before: &State, after: &State, a: Action) -> Doing {
    match a {
        Action::Toggle => Doing::Toggle { to: after.view },
        Action::Slide(d) => {
            let scene = before
                .frame
                .source(d)
                .map_or('?', |slot| world.level.scene_name(before.frame.get(slot)));
            Doing::Slide {
                slide: d.letter(),
                scene,
            }
        }
        _ => Doing::Steps {
            moves: String::new(),
            steps: 0,
        },
    }
}

fn collected(world: &World, before: &State, after: &State) -> Vec<Collected> {
    let new = after.keys & !before.keys;
    world
        .level
        .keys
        .iter()
        .enumerate()
        .filter(|(k, _)| new & (1 << k) != 0)
        .map(|(key, spot)| Collected {
            key,
            scene: world.level.scene_name(spot.scene),
            x: spot.x,
            y: spot.y,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::continuity::{full, level::Level, levels};

    #[test]
    fn the_planner_matches_the_full_search_on_the_first_level() {
        let world = World::new(Level::parse(levels::LEVELS[0].1).unwrap());
        let start = world.start();
        let b = Budget::default();
        let fast = search(&world, start, 5, &b, &mut Progress::quiet());
        let slow = full::search(&world, start, 5, |_| 0, &b, &mut Progress::quiet());
        assert_eq!(fast.cost, slow.cost);
        let crate::solve::Found::Path(actions) = fast.found else {
            panic!("no plan")
        };
        let plan = Plan::new(&world, &start, &actions, 5);
        assert_eq!(Some(plan.cost), fast.cost);
        let end = *world.replay(&start, &actions).unwrap().last().unwrap();
        assert!(end.won);
        assert_eq!(plan.keys.len(), actions.len());
    }
}
