//! A picture as a list of shapes, before it becomes SVG or PNG: the map's
//! nodes coloured by distance, its moves, the start and goal marks, the
//! player's path, a title and a legend. Both backends draw the same scene,
//! in order (later shapes on top).

use super::layout::{self, Columns, LayerGraph};
use super::{FULL_LIMIT, Net, Request};
use crate::report::docs::{MoveVerdict, Rating};

/// A colour, 8 bits per channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

pub const INK: Rgb = Rgb(20, 20, 20);
const EDGE: Rgb = Rgb(120, 120, 130);
/// States from which no goal can be reached.
pub const DEAD: Rgb = Rgb(170, 170, 170);
/// The player's path, and its optimal moves.
pub const PATH: Rgb = Rgb(220, 20, 60);
/// The player's moves that bring the goal no nearer.
const NEUTRAL: Rgb = Rgb(245, 130, 48);
/// The player's steps back.
const BACK: Rgb = Rgb(0, 110, 230);

/// A move's colour on the path, by its rating (as `trace` rates it).
fn step_colour(before: Option<u32>, after: Option<u32>) -> Rgb {
    match Rating::from(MoveVerdict::rate(before, after)) {
        Rating::Optimal => PATH,
        Rating::Neutral => NEUTRAL,
        Rating::StepBack => BACK,
    }
}
const PAPER: Rgb = Rgb(255, 255, 255);

/// Viridis-like stops from the goal (yellow) to the farthest (purple).
const STOPS: [Rgb; 5] = [
    Rgb(253, 231, 37),
    Rgb(94, 201, 98),
    Rgb(33, 145, 140),
    Rgb(59, 82, 139),
    Rgb(68, 1, 84),
];

/// The colour of a state `d` moves from a goal, on a map whose farthest
/// state is `max` moves away.
pub fn colour(d: Option<u32>, max: u32) -> Rgb {
    let Some(d) = d else { return DEAD };
    let t = if max == 0 { 0.0 } else { d as f32 / max as f32 } * (STOPS.len() - 1) as f32;
    let k = (t.floor() as usize).min(STOPS.len() - 2);
    let f = t - k as f32;
    let mix = |a: u8, b: u8| (a as f32 + (b as f32 - a as f32) * f).round() as u8;
    let (a, b) = (STOPS[k], STOPS[k + 1]);
    Rgb(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

pub type Pt = (f32, f32);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    Circle {
        c: Pt,
        r: f32,
    },
    /// A square centred on `c`.
    Square {
        c: Pt,
        half: f32,
    },
    Rect {
        at: Pt,
        w: f32,
        h: f32,
    },
    Line {
        a: Pt,
        b: Pt,
    },
    /// A quadratic curve through `ctrl`.
    Curve {
        a: Pt,
        ctrl: Pt,
        b: Pt,
    },
    /// A closed polygon (arrowheads).
    Polygon(Vec<Pt>),
    /// `at` is the baseline's left end or middle.
    Text {
        at: Pt,
        text: String,
        size: f32,
        anchor: Anchor,
    },
}

/// How a shape is painted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Paint {
    pub fill: Option<Rgb>,
    pub stroke: Option<(Rgb, f32)>,
    pub opacity: f32,
}

impl Paint {
    pub fn fill(c: Rgb) -> Paint {
        Paint {
            fill: Some(c),
            stroke: None,
            opacity: 1.0,
        }
    }

    pub fn stroke(c: Rgb, width: f32) -> Paint {
        Paint {
            fill: None,
            stroke: Some((c, width)),
            opacity: 1.0,
        }
    }

    fn faint(mut self, opacity: f32) -> Paint {
        self.opacity = opacity;
        self
    }

    fn outlined(mut self, c: Rgb, width: f32) -> Paint {
        self.stroke = Some((c, width));
        self
    }
}

/// What a shape stands for: its class in the SVG.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Title,
    Notice,
    Axis,
    Legend,
    /// A move between two states.
    Edge,
    /// A state; `data` holds its index and distance.
    State,
    /// A goal state (drawn as a square).
    Goal,
    /// The mark around the start state.
    Start,
    /// A ring around a state the player visited.
    Visited,
    /// One of the player's moves, with its arrowhead.
    Step,
    /// A distance layer (layer pictures); `data` holds its distance and size.
    Layer,
    /// The moves between two layers.
    Link,
}

impl Role {
    pub fn class(self) -> &'static str {
        match self {
            Role::Title => "title",
            Role::Notice => "notice",
            Role::Axis => "axis",
            Role::Legend => "legend",
            Role::Edge => "edge",
            Role::State => "state",
            Role::Goal => "state goal",
            Role::Start => "start",
            Role::Visited => "visited",
            Role::Step => "step",
            Role::Layer => "layer",
            Role::Link => "link",
        }
    }
}

/// Facts about a shape, written as `data-` attributes in the SVG.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Data {
    State {
        index: u32,
        distance: Option<u32>,
    },
    Step(usize),
    Layer {
        distance: Option<u32>,
        states: usize,
    },
    Link {
        moves: u64,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    pub role: Role,
    pub shape: Shape,
    pub paint: Paint,
    pub data: Option<Data>,
}

/// A whole picture.
pub struct Scene {
    pub width: f32,
    pub height: f32,
    pub background: Rgb,
    pub items: Vec<Item>,
    /// Nodes and edges of the map drawn (for the report).
    pub nodes: usize,
    pub links: usize,
}

impl Scene {
    fn new() -> Scene {
        Scene {
            width: 0.0,
            height: 0.0,
            background: PAPER,
            items: Vec::new(),
            nodes: 0,
            links: 0,
        }
    }

    fn add(&mut self, role: Role, shape: Shape, paint: Paint) {
        self.items.push(Item {
            role,
            shape,
            paint,
            data: None,
        });
    }

    fn add_with(&mut self, role: Role, shape: Shape, paint: Paint, data: Data) {
        self.items.push(Item {
            role,
            shape,
            paint,
            data: Some(data),
        });
    }

    fn text(&mut self, role: Role, at: Pt, text: String, size: f32, anchor: Anchor) {
        let shape = Shape::Text {
            at,
            text,
            size,
            anchor,
        };
        self.add(role, shape, Paint::fill(INK));
    }
}

/// Room above the drawing for the title, and below it for the legend.
const TOP: f32 = 84.0;
const BOTTOM: f32 = 96.0;
const SIDE: f32 = 24.0;

/// Every state and every move of a small map.
pub fn states(net: &Net, req: &Request) -> Scene {
    let mut sc = Scene::new();
    let p = layout::states(net, (SIDE, TOP));
    let max = p.cols.max().unwrap_or(0);
    sc.width = (p.width + 2.0 * SIDE).max(720.0);
    sc.height = TOP + p.height + BOTTOM;
    column_heads(&mut sc, &p.cols, &p.col_x);
    edges(&mut sc, net, &p);
    for (i, &d) in net.dist.iter().enumerate() {
        let c = p.pos[i];
        let data = Data::State {
            index: i as u32,
            distance: d,
        };
        let paint = Paint::fill(colour(d, max));
        if d == Some(0) {
            let shape = Shape::Square { c, half: p.radius };
            sc.add_with(Role::Goal, shape, paint.outlined(INK, 0.8), data);
        } else {
            sc.add_with(Role::State, Shape::Circle { c, r: p.radius }, paint, data);
        }
    }
    sc.nodes = net.dist.len();
    sc.links = net.edges.len();
    if let Some(path) = req.path {
        let at: Vec<Pt> = path.iter().map(|&i| p.pos[i as usize]).collect();
        player_path(&mut sc, &at, path, &net.dist, p.radius);
    }
    start_mark(&mut sc, p.pos[0], p.radius);
    let notice = format!(
        "every state and every move is drawn: maps up to {FULL_LIMIT} states are drawn in full"
    );
    titles(
        &mut sc,
        net.dist.len(),
        net.edges.len(),
        net.dist[0],
        req,
        notice,
    );
    legend(&mut sc, &p.cols, req.path.is_some());
    fit_text(&mut sc);
    sc
}

/// Each column's distance, above it.
fn column_heads(sc: &mut Scene, cols: &Columns, col_x: &[f32]) {
    let gap = col_x.get(1).map_or(100.0, |x| x - col_x[0]);
    let every = (24.0 / gap).ceil().max(1.0) as usize;
    for (c, &x) in col_x.iter().enumerate() {
        let label = match cols.distance(c) {
            Some(d) if d % every as u32 == 0 => d.to_string(),
            Some(_) => continue,
            None => "none".to_string(),
        };
        sc.text(Role::Axis, (x, TOP - 10.0), label, 11.0, Anchor::Middle);
    }
}

/// The moves: straight between columns, bowed within one.
fn edges(sc: &mut Scene, net: &Net, p: &layout::Placed) {
    let width = (p.radius * 0.25).clamp(0.3, 1.0);
    let paint = Paint::stroke(EDGE, width).faint(0.45);
    for &(a, b) in &net.edges {
        let (pa, pb) = (p.pos[a as usize], p.pos[b as usize]);
        let shape = if (pa.0 - pb.0).abs() < 1e-3 {
            let bow = ((pb.1 - pa.1).abs() * 0.25).min(40.0) + p.radius * 2.0;
            Shape::Curve {
                a: pa,
                ctrl: (pa.0 + bow, (pa.1 + pb.1) / 2.0),
                b: pb,
            }
        } else {
            Shape::Line { a: pa, b: pb }
        };
        sc.add(Role::Edge, shape, paint);
    }
}

/// The player's moves as arrows from state to state, and a ring on every
/// state visited.
fn player_path(sc: &mut Scene, at: &[Pt], path: &[u32], dist: &[Option<u32>], r: f32) {
    let width = (r * 0.6).clamp(1.5, 3.0);
    for (k, w) in at.windows(2).enumerate() {
        let (a, b) = (w[0], w[1]);
        let c = step_colour(dist[path[k] as usize], dist[path[k + 1] as usize]);
        if let Some(step) = arrow(a, b, r + 1.0, width * 3.0) {
            let (line, head) = step;
            sc.add_with(Role::Step, line, Paint::stroke(c, width), Data::Step(k + 1));
            sc.add(Role::Step, head, Paint::fill(c));
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    for (&i, &c) in path.iter().zip(at) {
        if seen.insert(i) {
            let ring = Paint::stroke(PATH, (r * 0.4).clamp(1.0, 2.0));
            sc.add(Role::Visited, Shape::Circle { c, r: r + 2.0 }, ring);
        }
    }
}

/// A line from `a` to `b` stopping `gap` short of `b`, and its head.
fn arrow(a: Pt, b: Pt, gap: f32, head: f32) -> Option<(Shape, Shape)> {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt();
    if len <= gap + 0.5 {
        return None;
    }
    let (ux, uy) = (dx / len, dy / len);
    let tip = (b.0 - ux * gap, b.1 - uy * gap);
    let back = (tip.0 - ux * head, tip.1 - uy * head);
    let side = (-uy * head * 0.45, ux * head * 0.45);
    let tri = Shape::Polygon(vec![
        tip,
        (back.0 + side.0, back.1 + side.1),
        (back.0 - side.0, back.1 - side.1),
    ]);
    Some((Shape::Line { a, b: back }, tri))
}

fn start_mark(sc: &mut Scene, c: Pt, r: f32) {
    let ring = Paint::stroke(INK, 2.0);
    sc.add(Role::Start, Shape::Circle { c, r: r + 5.0 }, ring);
    // Above the ring, unless that is where the column heads are.
    let above = c.1 - r - 9.0;
    let y = if above < TOP + 4.0 {
        c.1 + r + 20.0
    } else {
        above
    };
    sc.text(Role::Start, (c.0, y), "start".into(), 12.0, Anchor::Middle);
}

/// Widens the picture so that every label fits, in either backend.
fn fit_text(sc: &mut Scene) {
    let right = sc
        .items
        .iter()
        .filter_map(|i| match &i.shape {
            Shape::Text {
                at,
                text,
                size,
                anchor: Anchor::Start,
            } => {
                // The bitmap font's cell is 6 px at scale round(size / 9).
                let per_char = (6.0 * (size / 9.0).round().max(1.0)).max(0.6 * size);
                Some(at.0 + per_char * text.chars().count() as f32)
            }
            _ => None,
        })
        .fold(0.0f32, f32::max);
    sc.width = sc.width.max(right + SIDE);
}

/// The title line, and the notice saying how the map is drawn.
fn titles(
    sc: &mut Scene,
    states: usize,
    moves: usize,
    start: Option<u32>,
    req: &Request,
    notice: String,
) {
    let from = match start {
        None => "the start cannot reach a goal".to_string(),
        Some(1) => "start 1 move from a goal".to_string(),
        Some(d) => format!("start {d} moves from a goal"),
    };
    let title = format!(
        "{} state map: {states} states - {moves} moves - {from}",
        req.game
    );
    sc.text(Role::Title, (SIDE, 26.0), title, 18.0, Anchor::Start);
    sc.text(Role::Notice, (SIDE, 48.0), notice, 14.0, Anchor::Start);
    let mut axis = "distance to the goal: farthest on the left - goals on the right".to_string();
    if let (Some(path), Some(file)) = (req.path, &req.record) {
        axis.push_str(&format!(
            " - arrows: the player's {} moves from {file}",
            path.len().saturating_sub(1)
        ));
    }
    sc.text(Role::Notice, (SIDE, 66.0), axis, 12.0, Anchor::Start);
}

/// Colour swatches by distance, and the marks' meanings.
fn legend(sc: &mut Scene, cols: &Columns, path: bool) {
    let y = sc.height - BOTTOM + 30.0;
    let title = "distance to the goal".to_string();
    sc.text(Role::Legend, (SIDE, y - 8.0), title, 11.0, Anchor::Start);
    let mut x = SIDE;
    let swatch = |sc: &mut Scene, fill: Rgb, label: String, x: f32| {
        let rect = Shape::Rect {
            at: (x, y),
            w: 26.0,
            h: 12.0,
        };
        sc.add(Role::Legend, rect, Paint::fill(fill));
        sc.text(
            Role::Legend,
            (x + 13.0, y + 26.0),
            label,
            11.0,
            Anchor::Middle,
        );
    };
    // At most a dozen swatches; none by distance when no goal is reachable.
    if let Some(max) = cols.max() {
        let step = max.div_ceil(12).max(1) as usize;
        for d in (0..=max).step_by(step) {
            swatch(sc, colour(Some(d), max), d.to_string(), x);
            x += 30.0;
        }
    }
    if cols.dead() {
        swatch(sc, DEAD, "none".into(), x + 10.0);
        x += 40.0;
    }
    let mut key = "square: goal - ring: start".to_string();
    if path {
        key.push_str(
            " - player's moves: red optimal - orange neutral - blue step back - rings: states visited",
        );
    }
    sc.text(Role::Legend, (x + 24.0, y + 11.0), key, 11.0, Anchor::Start);
}

/// A map too large to draw state by state: one node per distance, sized by
/// its states, with the moves between layers as weighted links.
pub fn layers(g: &LayerGraph, states: usize, req: &Request) -> Scene {
    let mut sc = Scene::new();
    let n = g.cols.count().max(1);
    // Wide enough to read, narrow enough for a PNG of any number of layers.
    let gap = (1400.0 / n as f32)
        .clamp(44.0, 140.0)
        .min(15_000.0 / n as f32);
    let r_max = (gap * 0.42).min(48.0);
    let cy = TOP + 40.0 + 2.5 * r_max;
    let col_x: Vec<f32> = (0..n).map(|c| SIDE + gap * (c as f32 + 0.5)).collect();
    let biggest = g.counts.iter().copied().max().unwrap_or(1).max(1) as f32;
    let radius: Vec<f32> = g
        .counts
        .iter()
        .map(|&k| (r_max * (k as f32 / biggest).sqrt()).max(2.5))
        .collect();
    let max = g.cols.max().unwrap_or(0);
    sc.width = (gap * n as f32 + 2.0 * SIDE).max(1300.0);
    column_heads(&mut sc, &g.cols, &col_x);
    links(&mut sc, g, &col_x, &radius, cy);
    layer_nodes(&mut sc, g, &col_x, &radius, cy, max);
    let mut bottom = cy + r_max + 40.0;
    if let Some(path) = &g.path {
        bottom = trajectory(&mut sc, path, &g.cols, &col_x, bottom);
    }
    start_mark(&mut sc, (col_x[g.start], cy), radius[g.start]);
    sc.height = bottom + BOTTOM;
    sc.nodes = g.counts.len();
    sc.links = g.links.len();
    let moves = g.links.iter().map(|l| l.2 as usize).sum();
    let notice = format!(
        "DISTANCE LAYERS: over {FULL_LIMIT} states are too many to draw one by one - one node per distance - sized by its states"
    );
    let from = g.cols.distance(g.start);
    titles(&mut sc, states, moves, from, req, notice);
    legend(&mut sc, &g.cols, g.path.is_some());
    fit_text(&mut sc);
    sc
}

/// The moves between layers: straight between neighbours, arcs otherwise,
/// thicker for more moves.
fn links(sc: &mut Scene, g: &LayerGraph, col_x: &[f32], radius: &[f32], cy: f32) {
    let most = g.links.iter().map(|l| l.2).max().unwrap_or(1).max(1) as f32;
    for &(a, b, k) in &g.links {
        let width = 1.0 + 9.0 * (k as f32 / most).sqrt();
        let paint = Paint::stroke(EDGE, width).faint(0.5);
        let (xa, xb) = (col_x[a], col_x[b]);
        let shape = if a == b {
            // Moves within a layer: a loop on top of its node.
            let loop_r = 5.0 + radius[a] * 0.3;
            Shape::Circle {
                c: (xa, cy - radius[a] - loop_r),
                r: loop_r,
            }
        } else if a.abs_diff(b) == 1 {
            Shape::Line {
                a: (xa, cy),
                b: (xb, cy),
            }
        } else {
            let lift = (xb - xa).abs() * 0.25 + 10.0;
            let ctrl_y = if a < b { cy - lift } else { cy + lift };
            Shape::Curve {
                a: (xa, cy),
                ctrl: ((xa + xb) / 2.0, ctrl_y),
                b: (xb, cy),
            }
        };
        sc.add_with(Role::Link, shape, paint, Data::Link { moves: k });
    }
}

fn layer_nodes(sc: &mut Scene, g: &LayerGraph, col_x: &[f32], radius: &[f32], cy: f32, max: u32) {
    for (c, &k) in g.counts.iter().enumerate() {
        let d = g.cols.distance(c);
        let data = Data::Layer {
            distance: d,
            states: k,
        };
        let (x, r) = (col_x[c], radius[c]);
        let paint = Paint::fill(colour(d, max)).outlined(INK, 0.8);
        let role = if d == Some(0) {
            Role::Goal
        } else {
            Role::Layer
        };
        let shape = if d == Some(0) {
            Shape::Square {
                c: (x, cy),
                half: r,
            }
        } else {
            Shape::Circle { c: (x, cy), r }
        };
        sc.add_with(role, shape, paint, data);
        sc.text(
            Role::Axis,
            (x, cy + r + 14.0),
            k.to_string(),
            10.0,
            Anchor::Middle,
        );
    }
}

/// The player's path over the layers: move k is a row, at the column of
/// the state it reached. Returns the bottom of the drawing.
fn trajectory(sc: &mut Scene, path: &[usize], cols: &Columns, col_x: &[f32], top: f32) -> f32 {
    let dy = (900.0 / path.len().max(1) as f32).clamp(3.0, 18.0);
    let at: Vec<Pt> = path
        .iter()
        .enumerate()
        .map(|(k, &c)| (col_x[c], top + 20.0 + k as f32 * dy))
        .collect();
    sc.text(
        Role::Axis,
        (SIDE, top + 8.0),
        "player's path: move 0 at the top".into(),
        11.0,
        Anchor::Start,
    );
    for (k, w) in at.windows(2).enumerate() {
        let c = step_colour(cols.distance(path[k]), cols.distance(path[k + 1]));
        let paint = Paint::stroke(c, 2.0);
        sc.add_with(
            Role::Step,
            Shape::Line { a: w[0], b: w[1] },
            paint,
            Data::Step(k + 1),
        );
    }
    for &c in &at {
        sc.add(
            Role::Visited,
            Shape::Circle { c, r: 2.5 },
            Paint::fill(PATH),
        );
    }
    at.last().map_or(top, |p| p.1) + 20.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_run_from_the_goal_to_the_farthest() {
        assert_eq!(colour(Some(0), 10), STOPS[0]);
        assert_eq!(colour(Some(10), 10), STOPS[4]);
        assert_eq!(colour(Some(0), 0), STOPS[0]);
        assert_eq!(colour(None, 10), DEAD);
        assert_ne!(colour(Some(3), 10), colour(Some(4), 10));
    }

    #[test]
    fn arrows_stop_short_of_the_state_they_reach() {
        let Some((Shape::Line { b, .. }, Shape::Polygon(head))) =
            arrow((0.0, 0.0), (100.0, 0.0), 10.0, 6.0)
        else {
            panic!("an arrow")
        };
        assert_eq!(head[0], (90.0, 0.0));
        assert!((b.0 - 84.0).abs() < 1e-4);
        assert!(arrow((0.0, 0.0), (5.0, 0.0), 10.0, 6.0).is_none());
    }
}
