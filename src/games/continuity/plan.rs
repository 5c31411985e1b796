//! The planner: the cheapest plan (steps 1, toggles 1, slides the slide
//! cost) over the whole state (arrangement, character, keys, view), by
//! A* with a consistent lower bound, and the plan cut into segments.
//!
//! **Exact, mid-air toggles included.** The search runs over the game's
//! own states ([`World::successors`]), so a toggle may happen anywhere a
//! player could press Space. Its speed comes from the bound ([`Bound`]),
//! the steps still needed in *relaxed* worlds where a step may go to any
//! of the 8 cells around that is not solid (a step moves at most one cell
//! across, then one up or down) and a scene border opens into other
//! scenes more freely than the frame allows:
//! - in the loosest, into any scene whose matching cell is not solid;
//! - in layer `t` (0 to [`LAYERS`] - 1, computed once per arrangement
//!   met), only into a scene that `t` slides or fewer from the current
//!   arrangement can put on that side (a breadth-first search over the
//!   tiles).
//!
//! A plan whose crossings need up to `t` slides to line up makes at least
//! `t` slides, so the bound is the least over layers of (steps in that
//! layer) + `t` slides + the toggles they need (2 from play, 1 back from
//! the tile view); the loosest layer counts [`LAYERS`] slides. With keys
//! left, a layer's steps are the largest (to a key) + (that key to a
//! door) - 1 (a step may enter a key on its sideways part and move on
//! down in the same step). The bound is consistent: a step changes each
//! distance by at most one; the term of a key it collects was at most the
//! key's distance to a door, at most one more than the door term after;
//! and one slide makes a pair line up at most one slide
//! sooner, so layer `t` after it allows no more than layer `t + 1` before:
//! the bound drops by at most the slide's cost. A* stays optimal;
//! `tests/continuity.rs` checks the costs against [`super::full`] with no
//! bound on many small random levels.

use std::collections::{HashMap, VecDeque};

use serde::Serialize;

use super::level::{Cell, Spot};
use super::rules::{Action, Key, State, View, World};
use crate::engines::tiles::Tiles;
use crate::solve::{Budget, Progress, Solution};

const FAR: u32 = u32::MAX;
const FAR16: u16 = u16::MAX;

/// Layers of the bound per arrangement: crossings that take at most
/// 0, 1, … slides from it to line up.
const LAYERS: usize = 3;

/// The sides of a scene: left, right, up, down.
const SIDES: usize = 4;

/// For the relaxed worlds: whether the scene `z` may lie on `side` of `a`.
type Crossing<'a> = &'a dyn Fn(usize, usize, usize) -> bool;

/// Relaxed distances from every cell to each key and to the nearest door.
struct Layer {
    /// `to_key[k][cell]`, cells indexed by [`Bound::index`].
    to_key: Vec<Vec<u16>>,
    to_door: Vec<u16>,
}

impl Layer {
    fn new(world: &World, doors: &[Spot], crossing: Crossing) -> Layer {
        let beyond = Beyond::new(world.level.scenes.len(), crossing);
        Layer {
            to_key: world
                .level
                .keys
                .iter()
                .map(|&k| relaxed_bfs(world, &[k], &beyond))
                .collect(),
            to_door: relaxed_bfs(world, doors, &beyond),
        }
    }

    /// The steps still needed from cell `here` with `left` keys to take:
    /// to a door, and for each key, to it then to a door, less one; the
    /// largest; `FAR` when impossible.
    fn need(&self, world: &World, here: usize, left: u16, index: impl Fn(Spot) -> usize) -> u32 {
        let far = |d: u16| if d == FAR16 { FAR } else { u32::from(d) };
        let mut best = far(self.to_door[here]);
        for (k, spot) in world.level.keys.iter().enumerate() {
            if left & (1 << k) == 0 {
                continue;
            }
            let (a, b) = (far(self.to_key[k][here]), far(self.to_door[index(*spot)]));
            if a == FAR || b == FAR {
                return FAR;
            }
            // A step may enter the key sideways and then fall one more
            // cell on the way: one step covers two moves of the sum.
            best = best.max((a + b).saturating_sub(1));
        }
        best
    }
}

/// The planner's lower bound (see the module doc): relaxed distances with
/// every crossing allowed, and, per arrangement met, with only the
/// crossings that line up within 0, 1, … slides.
pub struct Bound {
    size: usize,
    slide_cost: u32,
    doors: Vec<Spot>,
    any: Layer,
    near: HashMap<u64, Vec<Layer>>,
    /// Bytes held in `near`: past `near_cap` it is emptied (the layers are
    /// recomputed when needed: slower, never wrong).
    near_bytes: usize,
    near_cap: usize,
}

/// The share of the memory budget the bound's cache may hold; the search
/// gets the rest.
const NEAR_SHARE: u64 = 4;

impl Bound {
    /// The bound for `world`, its cache of layers held to `cap` bytes.
    pub fn new(world: &World, slide_cost: u32, cap: u64) -> Bound {
        let level = &world.level;
        let size = level.size;
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
        Bound {
            size,
            slide_cost,
            any: Layer::new(world, &doors, &|_, _, _| true),
            doors,
            near: HashMap::new(),
            near_bytes: 0,
            near_cap: usize::try_from(cap).unwrap_or(usize::MAX),
        }
    }

    fn index(&self, at: Spot) -> usize {
        (usize::from(at.scene) - 1) * self.size * self.size
            + usize::from(at.y) * self.size
            + usize::from(at.x)
    }

    /// A lower bound on the cost left from `s`; `u32::MAX` when the
    /// relaxed world already cannot finish.
    pub fn of(&mut self, world: &World, s: &State) -> u32 {
        if s.won {
            return 0;
        }
        let key = s.frame.key();
        if !self.near.contains_key(&key) {
            let layers = self.layers(world, &s.frame);
            let cells = |l: &Layer| l.to_door.len() * (l.to_key.len() + 1);
            self.near_bytes += layers.iter().map(cells).sum::<usize>() * 2;
            if self.near_bytes > self.near_cap {
                self.near.clear();
                self.near_bytes = 0;
            }
            self.near.insert(key, layers);
        }
        let here = self.index(s.at);
        let left = world.all_keys() & !s.keys;
        let index = |at: Spot| self.index(at);
        // Toggles: back to play from the tile view; there and back for slides.
        let toggles = |t: usize| match (s.view, t) {
            (View::Tiles, _) => 1,
            (View::Play, 0) => 0,
            (View::Play, _) => 2,
        };
        let mut best = FAR;
        let layers = self.near[&key].iter().chain(std::iter::once(&self.any));
        for (t, layer) in layers.enumerate() {
            let need = layer.need(world, here, left, index);
            if need != FAR {
                best = best.min(need + t as u32 * self.slide_cost + toggles(t));
            }
        }
        best
    }

    /// The layers for one arrangement.
    fn layers(&self, world: &World, frame: &Tiles) -> Vec<Layer> {
        let slides = slides_to_line_up(world, frame);
        let n = world.level.scenes.len();
        (0..LAYERS)
            .map(|t| {
                let m = |a: usize, side: usize, z: usize| {
                    usize::from(slides[(a * SIDES + side) * n + z]) <= t
                };
                Layer::new(world, &self.doors, &m)
            })
            .collect()
    }
}

/// For every scene `a`, side and scene `z` (0-based): the fewest slides
/// from `frame` that put `z` on that side of `a`, [`LAYERS`] when more
/// than `LAYERS - 1` are needed.
fn slides_to_line_up(world: &World, frame: &Tiles) -> Vec<u8> {
    let n = world.level.scenes.len();
    let cols = world.level.cols;
    let mut m = vec![LAYERS as u8; n * SIDES * n];
    let mut seen = vec![*frame];
    let mut ring = vec![*frame];
    for depth in 0..LAYERS as u8 {
        for f in &ring {
            for i in 0..f.len() {
                let a = usize::from(f.get(i));
                let right = (i % cols + 1 < cols).then(|| (1, i + 1));
                let down = (i + cols < f.len()).then(|| (3, i + cols));
                for (side, j) in [right, down].into_iter().flatten() {
                    let z = usize::from(f.get(j));
                    if a == 0 || z == 0 {
                        continue;
                    }
                    let (a, z) = (a - 1, z - 1);
                    let there = &mut m[(a * SIDES + side) * n + z];
                    *there = (*there).min(depth);
                    let back = &mut m[(z * SIDES + (side - 1)) * n + a];
                    *back = (*back).min(depth);
                }
            }
        }
        let mut next = Vec::new();
        for f in &ring {
            for (_, g) in f.slides() {
                if !seen.contains(&g) {
                    seen.push(g);
                    next.push(g);
                }
            }
        }
        ring = next;
    }
    m
}

/// Breadth-first distances in a relaxed world from `from` (any of them)
/// to every cell: a step moves to any of the 8 cells around that is not
/// solid; across a border, into any scene `beyond` lists there.
fn relaxed_bfs(world: &World, from: &[Spot], beyond: &Beyond) -> Vec<u16> {
    let level = &world.level;
    let size = level.size as i32;
    let scenes = level.scenes.len();
    let per = (size * size) as usize;
    let index = |sc: usize, x: i32, y: i32| sc * per + (y * size + x) as usize;
    let mut dist = vec![FAR16; scenes * per];
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
            let (wx, wy) = (nx.rem_euclid(size), ny.rem_euclid(size));
            let across = (nx != wx, ny != wy);
            for t in beyond.scenes(sc, (dx, dy), across) {
                let j = index(t, wx, wy);
                if dist[j] == FAR16 && enterable(t, wx, wy) {
                    dist[j] = dist[i] + 1;
                    queue.push_back(j);
                }
            }
        }
    }
    dist
}

/// The scenes a relaxed step may end in, worked out once per scene and
/// way out (so the search walks only those): inside a scene, the scene
/// itself; across one side, those `crossing` allows; across a corner,
/// those reached through some scene between, either way round. A frame
/// holds at most 15 scenes ([`Tiles`]), so each set is a bit mask.
struct Beyond {
    /// `[scene][way]`, the way by [`Beyond::way`].
    masks: Vec<[u32; 9]>,
}

impl Beyond {
    fn new(scenes: usize, crossing: Crossing) -> Beyond {
        let side = |a: usize, w: usize| {
            (0..scenes)
                .filter(|&z| crossing(a, w, z))
                .fold(0u32, |m, z| m | 1 << z)
        };
        let sides: Vec<[u32; 4]> = (0..scenes)
            .map(|a| std::array::from_fn(|w| side(a, w)))
            .collect();
        // A corner: one side, then the other from the scene between.
        let through = |a: usize, first: usize, then: usize| {
            bits(sides[a][first]).fold(0, |m, b| m | sides[b][then])
        };
        let masks = (0..scenes)
            .map(|a| {
                std::array::from_fn(|w| match w {
                    8 => 1 << a,
                    0..4 => sides[a][w],
                    _ => {
                        let (h, v) = ((w - 4) / 2, 2 + (w - 4) % 2);
                        through(a, h, v) | through(a, v, h)
                    }
                })
            })
            .collect();
        Beyond { masks }
    }

    /// Which set: 0–3 one side (left, right, up, down), 4–7 a corner
    /// (left or right, then up or down), 8 inside the scene.
    fn way((dx, dy): (i32, i32), across: (bool, bool)) -> usize {
        let h = usize::from(dx >= 0);
        let v = 2 + usize::from(dy >= 0);
        match across {
            (false, false) => 8,
            (true, false) => h,
            (false, true) => v,
            (true, true) => 4 + h * 2 + (v - 2),
        }
    }

    fn scenes(
        &self,
        a: usize,
        step: (i32, i32),
        across: (bool, bool),
    ) -> impl Iterator<Item = usize> {
        bits(self.masks[a][Self::way(step, across)])
    }
}

/// The indices of the set bits of `m`, lowest first.
fn bits(mut m: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            i
        })
    })
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
    // The bound's cache and the search share the memory budget.
    let cache = budget.max_bytes / NEAR_SHARE;
    let mut bound = Bound::new(world, slide_cost, cache);
    let rest = Budget {
        max_bytes: budget.max_bytes - cache,
        ..*budget
    };
    super::full::search(
        world,
        start,
        slide_cost,
        |s| bound.of(world, s),
        &rest,
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
    /// What the plan does, counted: `3 steps, 1 slide, 2 toggles`.
    pub fn counts(&self) -> String {
        use crate::report::count;
        format!(
            "{}, {}, {}",
            count(self.steps as u64, "step"),
            count(self.slides as u64, "slide"),
            count(self.toggles as u64, "toggle")
        )
    }

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
                    Doing::Steps { moves, steps } => {
                        format!("{steps} step{} {moves}", if *steps == 1 { "" } else { "s" })
                    }
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
