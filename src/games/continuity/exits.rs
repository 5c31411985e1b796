//! The exits graph, computed: what the original write-up typed in by hand.
//!
//! - **Openings:** every border cell of a scene that is not solid, per
//!   side (left and right by row, top and bottom by column).
//! - **Reach inside a scene:** from each opening, key and the start, the
//!   steps to every opening, key and door the character can reach inside
//!   that scene alone, by breadth-first search under the real rules
//!   ([`World::step`]). The scene is put in the middle of a 3×3 frame of
//!   open scenes, so that beyond every opening lies air; a route ends at
//!   an opening when the character leaves through it. A character enters
//!   through a side or the top at rest (rise 0), through the bottom while
//!   still rising (J-1 cells of rise left, the best case of a jump from
//!   below); it starts at the start, or at a key, at rest.
//! - **Key orders, no tile moved:** for every order of the keys (up to
//!   [`MAX_ORDERS_KEYS`] keys), the fewest steps from the start that
//!   collect the keys in exactly that order (a route may not pass a key
//!   before its turn) and then enter a door, in the start arrangement
//!   and without toggling; the best and worst order, and the order
//!   "nearest key first" picks, with its cost.

use std::collections::{HashMap, VecDeque};

use serde::Serialize;

use super::level::{Cell, Level, Scene, Spot};
use super::rules::{Action, State, View, World};
use crate::engines::tiles::Tiles;

/// Orders are listed for levels with up to this many keys (6! = 720).
pub const MAX_ORDERS_KEYS: usize = 6;

/// One end of a route inside a scene.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "at")]
pub enum Node {
    /// An opening on the left side, by row.
    Left(u8),
    Right(u8),
    /// An opening on the top side, by column.
    Top(u8),
    Bottom(u8),
    /// A key, by number.
    Key(usize),
    Door,
    Start,
}

impl std::fmt::Display for Node {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Node::Left(r) => write!(f, "left {r}"),
            Node::Right(r) => write!(f, "right {r}"),
            Node::Top(c) => write!(f, "top {c}"),
            Node::Bottom(c) => write!(f, "bottom {c}"),
            Node::Key(k) => write!(f, "key {k}"),
            Node::Door => f.write_str("door"),
            Node::Start => f.write_str("start"),
        }
    }
}

/// Where one node leads, with the steps.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Reach {
    pub from: Node,
    /// Every node reachable from `from`, with the fewest steps, sorted.
    pub to: Vec<(Node, u32)>,
}

/// One scene's openings and reach.
#[derive(Clone, Debug, Serialize)]
pub struct SceneExits {
    pub scene: char,
    pub left: Vec<u8>,
    pub right: Vec<u8>,
    pub top: Vec<u8>,
    pub bottom: Vec<u8>,
    pub reach: Vec<Reach>,
}

/// One order of the keys and its route's steps (`None`: no route).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Order {
    pub keys: Vec<usize>,
    pub steps: Option<u32>,
}

/// The whole exits graph, as `exits` in the JSON.
#[derive(Clone, Debug, Serialize)]
pub struct Exits {
    pub scenes: Vec<SceneExits>,
    /// Every order, when the level has at most [`MAX_ORDERS_KEYS`] keys.
    pub orders: Vec<Order>,
    pub best: Option<Order>,
    pub worst: Option<Order>,
    pub nearest_first: Option<Order>,
}

impl Exits {
    pub fn new(world: &World) -> Exits {
        let scenes = (1..=world.level.scenes.len() as u8)
            .map(|n| scene_exits(&world.level, n))
            .collect();
        let mut orders = Vec::new();
        if world.level.keys.len() <= MAX_ORDERS_KEYS {
            let mut order: Vec<usize> = (0..world.level.keys.len()).collect();
            permutations(&mut order, 0, &mut |o| {
                orders.push(Order {
                    keys: o.to_vec(),
                    steps: ordered_route(world, &world.start(), o),
                })
            });
        }
        let solvable = || orders.iter().filter(|o| o.steps.is_some());
        let best = solvable().min_by_key(|o| o.steps).cloned();
        let worst = solvable().max_by_key(|o| o.steps).cloned();
        Exits {
            scenes,
            best,
            worst,
            nearest_first: nearest_first(world),
            orders,
        }
    }

    /// The graph for people.
    pub fn lines(&self, level: &Level) -> Vec<String> {
        let mut out = Vec::new();
        for s in &self.scenes {
            out.push(format!(
                "Scene {}: openings left {}, right {}, top {}, bottom {}",
                s.scene,
                list(&s.left),
                list(&s.right),
                list(&s.top),
                list(&s.bottom)
            ));
            for r in &s.reach {
                let to: Vec<String> = r.to.iter().map(|(n, d)| format!("{n} ({d})")).collect();
                let to = if to.is_empty() {
                    "nothing".to_string()
                } else {
                    to.join(", ")
                };
                out.push(format!("  {} -> {to}", r.from));
            }
        }
        let keys: Vec<String> = level
            .keys
            .iter()
            .enumerate()
            .map(|(i, k)| format!("{i} = {} {},{}", level.scene_name(k.scene), k.x, k.y))
            .collect();
        out.push(format!(
            "Key orders with no tile moved (keys: {}):",
            keys.join("; ")
        ));
        if level.keys.len() > MAX_ORDERS_KEYS {
            out.push(format!(
                "  more than {MAX_ORDERS_KEYS} keys: orders not listed"
            ));
        }
        for o in &self.orders {
            out.push(format!("  {}", order_text(o)));
        }
        for (name, o) in [
            ("best", &self.best),
            ("worst", &self.worst),
            ("nearest key first", &self.nearest_first),
        ] {
            let text = o.as_ref().map_or("no route".to_string(), order_text);
            out.push(format!("Order {name}: {text}"));
        }
        out
    }
}

/// Indices as runs: `0-3 6`.
fn list(v: &[u8]) -> String {
    if v.is_empty() {
        return "-".into();
    }
    let mut runs: Vec<(u8, u8)> = Vec::new();
    for &i in v {
        match runs.last_mut() {
            Some((_, end)) if *end + 1 == i => *end = i,
            _ => runs.push((i, i)),
        }
    }
    let s: Vec<String> = runs
        .iter()
        .map(|(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect();
    s.join(" ")
}

fn order_text(o: &Order) -> String {
    let keys: Vec<String> = o.keys.iter().map(usize::to_string).collect();
    let keys = if keys.is_empty() {
        "(no keys)".to_string()
    } else {
        keys.join(" ")
    };
    match o.steps {
        Some(s) => format!("{keys} then the door: {s} steps"),
        None => format!("{keys} then the door: no route"),
    }
}

/// Calls `f` with every permutation of `v[at..]` after `v[..at]`.
fn permutations(v: &mut Vec<usize>, at: usize, f: &mut impl FnMut(&[usize])) {
    if at >= v.len() {
        f(v);
        return;
    }
    for i in at..v.len() {
        v.swap(at, i);
        permutations(v, at + 1, f);
        v.swap(at, i);
    }
}

/// The scene alone, in the middle of a 3×3 frame of open scenes.
fn isolated(level: &Level, scene: u8) -> World {
    let n = level.size;
    let open = |name| Scene {
        name,
        cells: vec![Cell::Air; n * n],
    };
    let mut middle = level.scenes[usize::from(scene) - 1].clone();
    // Keep only its keys (renumbered).
    let keys: Vec<Spot> = (0..n * n)
        .filter(|&j| middle.cells[j] == Cell::Key)
        .map(|j| Spot {
            scene: 5,
            x: (j % n) as u8,
            y: (j / n) as u8,
        })
        .collect();
    middle.name = 'E';
    // A door is air until every key is held: here it must never end a
    // route (the real level's doors are found by `cell_node`).
    for c in &mut middle.cells {
        if *c == Cell::Door {
            *c = Cell::Air;
        }
    }
    let mut scenes: Vec<Scene> = "ABCD".chars().map(open).collect();
    scenes.push(middle);
    scenes.extend("FGH".chars().map(open));
    let frame = Tiles::new(3, 3, &[1, 2, 3, 4, 5, 6, 7, 8, 0]).expect("a valid 3x3 frame");
    World::new(Level {
        name: None,
        rows: 3,
        cols: 3,
        size: n,
        jump: level.jump,
        scenes,
        frame,
        start: Spot {
            scene: 5,
            x: 0,
            y: 0,
        },
        keys,
    })
}

fn scene_exits(level: &Level, scene: u8) -> SceneExits {
    let n = level.size;
    let cells = &level.scenes[usize::from(scene) - 1].cells;
    let open = |x: usize, y: usize| cells[y * n + x].enterable();
    let side = |f: &dyn Fn(usize) -> bool| (0..n).filter(|&i| f(i)).map(|i| i as u8).collect();
    let left: Vec<u8> = side(&|y| open(0, y));
    let right: Vec<u8> = side(&|y| open(n - 1, y));
    let top: Vec<u8> = side(&|x| open(x, 0));
    let bottom: Vec<u8> = side(&|x| open(x, n - 1));
    let world = isolated(level, scene);
    let last = (n - 1) as u8;
    let mut sources: Vec<(Node, u8, u8, u8)> = Vec::new();
    sources.extend(left.iter().map(|&y| (Node::Left(y), 0, y, 0)));
    sources.extend(right.iter().map(|&y| (Node::Right(y), last, y, 0)));
    sources.extend(top.iter().map(|&x| (Node::Top(x), x, 0, 0)));
    let rise = level.jump.saturating_sub(1);
    sources.extend(bottom.iter().map(|&x| (Node::Bottom(x), x, last, rise)));
    for (k, spot) in level.keys.iter().enumerate() {
        if spot.scene == scene {
            sources.push((Node::Key(k), spot.x, spot.y, 0));
        }
    }
    if level.start.scene == scene {
        let s = level.start;
        sources.push((Node::Start, s.x, s.y, 0));
    }
    let reach = sources
        .into_iter()
        .map(|(from, x, y, rise)| Reach {
            from,
            to: reach_from(level, scene, &world, Spot { scene: 5, x, y }, rise),
        })
        .collect();
    SceneExits {
        scene: level.scene_name(scene),
        left,
        right,
        top,
        bottom,
        reach,
    }
}

/// What the character reaches from `at` inside the isolated scene.
fn reach_from(level: &Level, scene: u8, world: &World, at: Spot, rise: u8) -> Vec<(Node, u32)> {
    let start = State {
        frame: world.level.frame,
        at,
        rise,
        keys: 0,
        view: View::Play,
        won: false,
    };
    let mut seen: HashMap<State, u32> = HashMap::from([(start, 0)]);
    let mut queue = VecDeque::from([start]);
    let mut found: HashMap<Node, u32> = HashMap::new();
    while let Some(s) = queue.pop_front() {
        let d = seen[&s];
        for a in Action::STEPS {
            let mut n = world.step(&s, a);
            for node in nodes_on(level, scene, world, &s, a, &n) {
                found.entry(node).or_insert(d + 1);
            }
            if n.at.scene != 5 {
                continue; // left through an opening: the route ends
            }
            n.won = false; // doors do not stop the search
            n.keys = 0;
            if let std::collections::hash_map::Entry::Vacant(e) = seen.entry(n) {
                e.insert(d + 1);
                queue.push_back(n);
            }
        }
    }
    let mut to: Vec<(Node, u32)> = found.into_iter().collect();
    to.sort();
    to
}

/// The nodes a step `a` from `s` to `n` reaches: a key or door entered on
/// the way, or the opening it left through.
fn nodes_on(level: &Level, scene: u8, world: &World, s: &State, a: Action, n: &State) -> Vec<Node> {
    let dx = match a {
        Action::Left => -1,
        Action::Right => 1,
        _ => 0,
    };
    let mut out = Vec::new();
    let mut col = s.at.x;
    if dx != 0 {
        if let Some(h) = world.open(&s.frame, s.at, dx, 0) {
            if h.scene != 5 {
                out.push(if dx < 0 {
                    Node::Left(s.at.y)
                } else {
                    Node::Right(s.at.y)
                });
                return out;
            }
            col = h.x;
            out.extend(cell_node(level, scene, h));
        }
    }
    if n.at.scene != 5 {
        out.push(if n.at.scene == 2 {
            Node::Top(col)
        } else {
            Node::Bottom(col)
        });
    } else if n.at != s.at {
        out.extend(cell_node(level, scene, n.at));
    }
    out
}

/// The key or door at a spot of the isolated scene, in the level's terms.
fn cell_node(level: &Level, scene: u8, at: Spot) -> Option<Node> {
    let spot = Spot { scene, ..at };
    match level.cell(scene, usize::from(spot.x), usize::from(spot.y)) {
        Cell::Key => level.key_at(spot).map(Node::Key),
        Cell::Door => Some(Node::Door),
        _ => None,
    }
}

/// The fewest steps from `start` (no toggles, no slides) that collect the
/// keys in exactly `order` and then enter a door; `None` if none does.
pub fn ordered_route(world: &World, start: &State, order: &[usize]) -> Option<u32> {
    let (steps, _) = ordered_bfs(world, start, order, true)?;
    Some(steps)
}

/// Breadth-first search over the start arrangement: collecting any key
/// other than the next of `order` is forbidden. With `to_door`, the goal
/// is a win; else collecting the whole of `order`. Returns the steps and
/// the state reached.
fn ordered_bfs(
    world: &World,
    start: &State,
    order: &[usize],
    to_door: bool,
) -> Option<(u32, State)> {
    let base = start.keys;
    let done = |s: &State| {
        if to_door {
            s.won
        } else {
            (s.keys & !base).count_ones() as usize == order.len()
        }
    };
    if done(start) {
        return Some((0, *start));
    }
    let mut seen: HashMap<State, u32> = HashMap::from([(*start, 0)]);
    let mut queue = VecDeque::from([*start]);
    while let Some(s) = queue.pop_front() {
        let d = seen[&s];
        for a in Action::STEPS {
            let n = world.step(&s, a);
            if !in_order(base, order, &s, &n) || seen.contains_key(&n) {
                continue;
            }
            if done(&n) {
                return Some((d + 1, n));
            }
            seen.insert(n, d + 1);
            queue.push_back(n);
        }
    }
    None
}

/// Whether the keys collected from `s` to `n` are the next ones of `order`.
fn in_order(base: u16, order: &[usize], s: &State, n: &State) -> bool {
    let new = n.keys & !s.keys;
    if new == 0 {
        return true;
    }
    let had = (s.keys & !base).count_ones() as usize;
    let take = new.count_ones() as usize;
    let want = order
        .iter()
        .skip(had)
        .take(take)
        .fold(0u16, |m, &k| m | (1 << k));
    had + take <= order.len() && want == new
}

/// The order "nearest key first" picks: from where the character is, the
/// key with the fewest steps next, then the door.
fn nearest_first(world: &World) -> Option<Order> {
    let mut s = world.start();
    let mut keys = Vec::new();
    let mut total = 0;
    let n = world.level.keys.len();
    while keys.len() < n {
        let best = (0..n)
            .filter(|k| !keys.contains(k))
            .filter_map(|k| ordered_bfs(world, &s, &[k], false).map(|(d, st)| (d, k, st)))
            .min_by_key(|(d, k, _)| (*d, *k));
        let (d, k, st) = best?;
        total += d;
        keys.push(k);
        s = st;
    }
    let (d, _) = ordered_bfs(world, &s, &[], true)?;
    Some(Order {
        keys,
        steps: Some(total + d),
    })
}
