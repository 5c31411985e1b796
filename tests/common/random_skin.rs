//! Skins drawn from a seed: the page, frame, lines, floor and walls, and
//! each class's mark (its shape, size and colour) chosen at random, so the
//! skin learner meets looks nobody chose. A game says only what each of
//! its labels is ([`Role`]); two labels of one colour key share a colour,
//! two of one kind share a shape, as a game's art does (a tile and its
//! target one colour, every tile one shape).

use super::skins::{Colour, Layers, Lines, Shape, Slots, Style};

/// What a label is, for drawing it.
#[derive(Clone, Copy, Debug)]
pub enum Role {
    Floor,
    Wall,
    /// A mark on the wall's ground.
    WallMark {
        colour: usize,
        kind: usize,
    },
    /// A mark on the floor that stays when pieces move.
    Mark {
        colour: usize,
        kind: usize,
    },
    /// A piece on the floor.
    Piece {
        colour: usize,
        kind: usize,
    },
    /// A ground of its own colour, with a mark of its kind.
    Plain {
        colour: usize,
        kind: usize,
    },
    /// A hole: a dark ground.
    Hole,
    /// The colour of the board's frame (Continuity's filler cells).
    Frame,
    /// A Rush Hour vehicle's part: bars with a gap at its ends; `side` is
    /// the part's character (`<`, `-`, `>`, `^`, `|`, `v`).
    Part {
        colour: usize,
        side: char,
    },
}

/// A small deterministic generator (xorshift64*), so a seed names a skin.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `[lo, hi)`.
    pub fn f(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn grey(&mut self, lo: f64, hi: f64) -> Colour {
        let v = self.f(lo, hi);
        let tint = [
            self.f(-12.0, 12.0),
            self.f(-12.0, 12.0),
            self.f(-12.0, 12.0),
        ];
        [0, 1, 2].map(|k| (v + tint[k]).clamp(0.0, 255.0) as u8)
    }
}

/// How a mark of one kind is drawn: its shape and size, and an accent
/// (a light or dark dot, eyes) or none.
#[derive(Clone, Copy, Debug)]
struct Kind {
    shape: usize,
    size: f64,
    accent: usize,
}

/// A skin's choices.
pub struct Skin {
    page: Colour,
    floor: Vec<Shape>,
    wall: Vec<Shape>,
    hole: Colour,
    frame: Colour,
    palette: Vec<Colour>,
    kinds: Vec<Kind>,
    accent_light: bool,
    /// Rush parts: the bars' half width and the gap at a vehicle's ends.
    bar: (f64, f64),
    /// Every vehicle one colour (as fogleman/rush draws them).
    one_colour: bool,
}

const SHAPES: usize = 6;

impl Skin {
    /// A skin from `seed`: a dark floor with light walls as often as the
    /// other way round.
    pub fn new(seed: u64) -> Self {
        let mut r = Rng::new(seed);
        let dark_floor = r.below(2) == 0;
        let (floor_c, wall_c) = if dark_floor {
            (r.grey(20.0, 70.0), r.grey(130.0, 200.0))
        } else {
            (r.grey(180.0, 245.0), r.grey(40.0, 110.0))
        };
        let floor = match r.below(3) {
            0 => vec![Shape::Fill(floor_c)],
            1 => vec![Shape::Gradient(floor_c, shade(floor_c, r.f(-30.0, 30.0)))],
            _ => vec![
                Shape::Fill(floor_c),
                Shape::Dot {
                    dx: 0.0,
                    dy: 0.0,
                    r: 0.05,
                    colour: shade(floor_c, if dark_floor { 35.0 } else { -35.0 }),
                },
            ],
        };
        let wall = match r.below(3) {
            0 => vec![Shape::Fill(wall_c)],
            1 => vec![
                Shape::Fill(wall_c),
                Shape::Bevel(shade(wall_c, 45.0), shade(wall_c, -45.0), r.f(0.08, 0.15)),
            ],
            _ => vec![Shape::Gradient(shade(wall_c, 25.0), shade(wall_c, -25.0))],
        };
        let offset = r.f(0.0, 1.0);
        let (sat, val) = (r.f(0.6, 0.9), r.f(0.75, 0.95));
        let mut palette = super::skins::hues(16, sat, val);
        palette.rotate_left((offset * 16.0) as usize);
        // Shapes without repeats, so two kinds differ in shape.
        let mut order: Vec<usize> = (0..SHAPES).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, r.below(i + 1));
        }
        let kinds = (0..8)
            .map(|i| Kind {
                shape: order[i % SHAPES],
                size: r.f(0.3, 0.42),
                accent: r.below(3),
            })
            .collect();
        // A page that shows where the board ends, as a game's does.
        let mut page = r.grey(0.0, 255.0);
        if (0..3).all(|k| page[k].abs_diff(floor_c[k]) < 40) {
            page = shade(page, if dark_floor { 90.0 } else { -90.0 });
        }
        let mut skin = Skin {
            page,
            floor,
            wall,
            hole: r.grey(5.0, 30.0),
            frame: [r.below(256) as u8, r.below(256) as u8, r.below(256) as u8],
            palette,
            kinds,
            accent_light: r.below(2) == 0,
            bar: (r.f(0.3, 0.4), r.f(0.08, 0.14)),
            one_colour: r.below(2) == 0,
        };
        // One skin in four has a page close to its floor, as a dark game on
        // a dark desktop has: where the board ends is then only where the
        // floor's own shade or texture stops. Drawn last, so the others
        // keep what their seeds gave before.
        if r.below(4) == 0 {
            let near = r.f(8.0, 24.0);
            skin.page = shade(floor_c, if dark_floor { -near } else { near });
        }
        skin
    }

    /// The layers of a label of role `role`.
    pub fn layers(&self, role: Role) -> Layers {
        match role {
            Role::Floor => (self.floor.clone(), vec![]),
            Role::Wall => (self.wall.clone(), vec![]),
            Role::Hole => (vec![Shape::Fill(self.hole)], vec![]),
            Role::Frame => (vec![Shape::Fill(self.frame)], vec![]),
            Role::WallMark { colour, kind } => {
                let mut g = self.wall.clone();
                g.extend(self.mark(colour, kind, 0.8));
                (g, vec![])
            }
            Role::Mark { colour, kind } => {
                let mut g = self.floor.clone();
                g.extend(self.mark(colour, kind, 0.8));
                (g, vec![])
            }
            Role::Plain { colour, kind } => {
                let c = shade(self.palette[colour % 16], -40.0);
                let mut g = vec![Shape::Fill(c)];
                g.extend(self.mark(colour + 5, kind, 0.6));
                (g, vec![])
            }
            Role::Piece { colour, kind } => (self.floor.clone(), self.mark(colour, kind, 1.0)),
            Role::Part { colour, side } => {
                let c = if self.one_colour && colour != 0 {
                    8
                } else {
                    colour
                };
                (self.floor.clone(), self.part(self.palette[c % 16], side))
            }
        }
    }

    /// A mark of `kind` in colour `colour`, scaled by `scale`.
    fn mark(&self, colour: usize, kind: usize, scale: f64) -> Vec<Shape> {
        let k = self.kinds[kind % self.kinds.len()];
        let colour = self.palette[colour % 16];
        let s = k.size * scale;
        let main = match k.shape {
            0 => Shape::Circle { r: s, colour },
            1 => Shape::Square {
                half: s,
                round: s / 4.0,
                colour,
            },
            2 => Shape::Diamond { r: s * 1.2, colour },
            3 => Shape::Ring {
                r0: s * 0.6,
                r1: s,
                colour,
            },
            4 => Shape::Cross {
                half: s,
                width: 0.1,
                colour,
            },
            _ => Shape::Square {
                half: s,
                round: 0.0,
                colour,
            },
        };
        let light = if self.accent_light {
            [245, 245, 245]
        } else {
            [25, 25, 25]
        };
        let dot = |dx: f64, dy: f64| Shape::Dot {
            dx,
            dy,
            r: 0.07,
            colour: light,
        };
        match k.accent {
            1 if k.shape != 4 => vec![main, dot(0.0, 0.0)],
            2 if k.shape != 4 && k.shape != 3 => vec![main, dot(-0.11, -0.08), dot(0.11, -0.08)],
            _ => vec![main],
        }
    }

    /// A vehicle's part: a bar across its cell, stopping short of the
    /// cell's edge at the vehicle's ends.
    fn part(&self, colour: Colour, side: char) -> Vec<Shape> {
        let (half, gap) = self.bar;
        let (lo, hi) = (-0.5 + gap, 0.5 - gap);
        let bar = |x0, x1, y0, y1| Shape::Rect {
            x0,
            y0,
            x1,
            y1,
            colour,
        };
        vec![match side {
            '<' => bar(lo, 0.5, -half, half),
            '-' => bar(-0.5, 0.5, -half, half),
            '>' => bar(-0.5, hi, -half, half),
            '^' => bar(-half, half, lo, 0.5),
            '|' => bar(-half, half, -0.5, 0.5),
            _ => bar(-half, half, -0.5, hi),
        }]
    }

    /// A style for this skin: lines, frame and slots drawn from `seed`
    /// too, the looks from `roles`.
    pub fn style(
        seed: u64,
        name: &'static str,
        slots: Option<Slots>,
        roles: fn(&str) -> Role,
    ) -> &'static Style {
        let skin: &'static Skin = Box::leak(Box::new(Skin::new(seed)));
        let mut r = Rng::new(seed ^ 0xA5A5);
        let line = r.grey(0.0, 255.0);
        let lines = match r.below(3) {
            0 => Lines::None,
            1 => Lines::Faint(line),
            _ => Lines::Thick(line, r.f(0.04, 0.09)),
        };
        let frame = match (slots, r.below(2)) {
            // A board of slots is framed in its filler cells' colour.
            (Some(_), _) => Some((skin.frame, r.f(0.3, 0.5))),
            (None, 0) => None,
            (None, _) => Some((r.grey(0.0, 255.0), r.f(0.1, 0.4))),
        };
        let look: &'static (dyn Fn(&str) -> Layers + Sync) =
            Box::leak(Box::new(move |label: &str| skin.layers(roles(label))));
        Box::leak(Box::new(Style {
            name,
            page: skin.page,
            slots,
            frame,
            lines,
            look,
        }))
    }
}

/// `c` made lighter (positive) or darker by `by`.
fn shade(c: Colour, by: f64) -> Colour {
    c.map(|v| (f64::from(v) + by).clamp(0.0, 255.0) as u8)
}
