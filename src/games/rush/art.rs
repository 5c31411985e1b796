//! Rush Hour art, the project's own: a light floor with thin grid lines in
//! a wooden frame, dark walls, and each vehicle a rounded rectangle over
//! its cells with a band of floor at its ends and sides, so two vehicles
//! that touch stay apart to the eye and to the reader. The red car is the
//! only red vehicle; an exit notch in the frame marks its row.
//!
//! Plain functions over images: the practice window, `boardbot render` and
//! the recorded test screenshots all draw through [`draw`].

use image::{Rgb, RgbImage};

use super::board::{Puzzle, SIZE, State};
use crate::vision::Lattice;

/// The page around the frame.
pub const PAGE: [u8; 3] = [238, 240, 243];
pub const FRAME: [u8; 3] = [122, 90, 60];
pub const FLOOR: [u8; 3] = [217, 211, 197];
pub const LINE: [u8; 3] = [163, 155, 139];
pub const WALL: [u8; 3] = [59, 62, 69];
const WALL_RIM: [u8; 3] = [92, 96, 106];
const ARROW: [u8; 3] = [248, 246, 240];
/// The red car, and nothing else.
pub const RED: [u8; 3] = [212, 42, 42];
/// Every other vehicle's colour, by letter (B the first).
pub const COLOURS: [[u8; 3]; 6] = [
    [62, 155, 79],  // green
    [59, 111, 212], // blue
    [230, 180, 34], // yellow
    [138, 82, 184], // purple
    [35, 163, 168], // teal
    [238, 125, 31], // orange
];

/// Floor left between a vehicle's body and its cells' borders, in pitches.
pub const GAP: f64 = 0.15;
const RADIUS: f64 = 0.12;
/// How much darker a vehicle's outline and its inner seams are.
const SHADE: f32 = 0.72;

/// The colour a vehicle is drawn in.
pub fn colour_of(letter: char) -> [u8; 3] {
    if letter == 'A' {
        return RED;
    }
    let k = (letter as usize).saturating_sub('B' as usize) % COLOURS.len();
    COLOURS[k]
}

/// The grid lines' width at a pitch.
pub fn line_width(pitch: f64) -> f64 {
    (pitch * 0.035).max(1.0)
}

/// The wooden frame's width at a pitch.
pub fn frame_width(pitch: f64) -> f64 {
    (pitch * 0.45).round().max(4.0)
}

/// A vehicle as drawn: `pos` is its offset along its line, in cells, and
/// may be fractional while it moves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Piece {
    pub letter: char,
    pub horizontal: bool,
    pub len: u8,
    pub line: u8,
    pub pos: f64,
}

/// Everything on the board.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    pub walls: u64,
    pub pieces: Vec<Piece>,
    /// The red car's row, where the exit is.
    pub exit_row: usize,
}

impl Scene {
    /// The position `s` of `p`, every vehicle in its cells.
    pub fn of(p: &Puzzle, s: State) -> Scene {
        let pieces = p
            .vehicles
            .iter()
            .enumerate()
            .map(|(v, veh)| Piece {
                letter: veh.letter,
                horizontal: veh.horizontal,
                len: veh.len,
                line: veh.line,
                pos: f64::from(p.offset(s, v)),
            })
            .collect();
        Scene {
            walls: p.walls,
            pieces,
            exit_row: usize::from(p.vehicles[0].line),
        }
    }
}

/// The picture's size and where the board's lattice lands in it, for a
/// pitch and page margins (left, top, right, bottom).
pub fn layout(pitch: f64, margins: [f64; 4]) -> (u32, u32, Lattice) {
    let [l, t, r, b] = margins;
    let (lw, fw) = (line_width(pitch), frame_width(pitch));
    let side = SIZE as f64 * pitch;
    let lattice = Lattice::uniform(
        l + fw + lw / 2.0,
        t + fw + lw / 2.0,
        pitch,
        pitch,
        SIZE,
        SIZE,
    );
    let w = (l + 2.0 * fw + lw + side + r).ceil() as u32;
    let h = (t + 2.0 * fw + lw + side + b).ceil() as u32;
    (w, h, lattice)
}

fn f(c: [u8; 3]) -> [f32; 3] {
    c.map(f32::from)
}

fn mix(a: [f32; 3], b: [f32; 3], t: f32) -> [f32; 3] {
    std::array::from_fn(|i| a[i] + (b[i] - a[i]) * t)
}

fn shade(c: [f32; 3]) -> [f32; 3] {
    c.map(|v| v * SHADE)
}

/// Coverage (0–1) of a pixel by a shape whose signed distance is `d` pixels.
fn cover(d: f64) -> f32 {
    (0.5 - d).clamp(0.0, 1.0) as f32
}

/// A rectangle as `(x0, y0, x1, y1)`, in board pixels.
type Bounds = (f64, f64, f64, f64);

/// Signed distance from `(x, y)` to a rounded rectangle.
fn rounded_box(x: f64, y: f64, (x0, y0, x1, y1): Bounds, r: f64) -> f64 {
    let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
    let (hx, hy) = ((x1 - x0) / 2.0 - r, (y1 - y0) / 2.0 - r);
    let (qx, qy) = ((x - cx).abs() - hx, (y - cy).abs() - hy);
    let outside = qx.max(0.0).hypot(qy.max(0.0));
    outside + qx.max(qy).min(0.0) - r
}

/// What one pixel of the board shows; `(u, v)` from the first grid line's
/// centre, in pixels.
struct Board<'a> {
    scene: &'a Scene,
    pitch: f64,
    lw: f64,
    /// Vehicles' boxes in board pixels, with their colours.
    boxes: Vec<(Bounds, [f32; 3])>,
}

impl<'a> Board<'a> {
    fn new(scene: &'a Scene, pitch: f64) -> Self {
        let boxes = scene
            .pieces
            .iter()
            .map(|pc| {
                let a0 = (pc.pos + GAP) * pitch;
                let a1 = (pc.pos + f64::from(pc.len) - GAP) * pitch;
                let b0 = (f64::from(pc.line) + GAP) * pitch;
                let b1 = (f64::from(pc.line) + 1.0 - GAP) * pitch;
                let rect = if pc.horizontal {
                    (a0, b0, a1, b1)
                } else {
                    (b0, a0, b1, a1)
                };
                (rect, f(colour_of(pc.letter)))
            })
            .collect();
        Board {
            scene,
            pitch,
            lw: line_width(pitch),
            boxes,
        }
    }

    /// How much of the pixel a grid line covers.
    fn line(&self, t: f64) -> f32 {
        let side = SIZE as f64 * self.pitch;
        let t = t.clamp(0.0, side);
        let k = (t / self.pitch).round() * self.pitch;
        cover((t - k).abs() - self.lw / 2.0)
    }

    fn pixel(&self, u: f64, v: f64) -> [f32; 3] {
        let p = self.pitch;
        let lines = self.line(u).max(self.line(v));
        let mut c = mix(f(FLOOR), f(LINE), lines);
        let (row, col) = ((v / p).floor(), (u / p).floor());
        if (0.0..SIZE as f64).contains(&row) && (0.0..SIZE as f64).contains(&col) {
            let i = row as usize * SIZE + col as usize;
            if self.scene.walls >> i & 1 == 1 {
                let sq = (col * p, row * p, (col + 1.0) * p, (row + 1.0) * p);
                let inset = (
                    sq.0 + 0.06 * p,
                    sq.1 + 0.06 * p,
                    sq.2 - 0.06 * p,
                    sq.3 - 0.06 * p,
                );
                let d = rounded_box(u, v, inset, 0.04 * p);
                let wall = mix(f(WALL_RIM), f(WALL), cover(d + 0.1 * p));
                c = mix(c, wall, cover(d));
            }
        }
        for &(rect, body) in &self.boxes {
            let d = rounded_box(u, v, rect, RADIUS * p);
            if d > 1.0 {
                continue;
            }
            let edge = (0.035 * p).max(1.0);
            let inner = mix(shade(body), body, cover(d + edge));
            let seamed = mix(inner, shade(body), lines);
            c = mix(c, seamed, cover(d));
        }
        c
    }
}

/// The exit notch and its arrow, in the frame beside the red car's row;
/// `None` where they do not reach.
fn exit_pixel(u: f64, v: f64, pitch: f64, row: usize) -> Option<[f32; 3]> {
    let side = SIZE as f64 * pitch;
    let fw = frame_width(pitch);
    let (y0, y1) = ((row as f64 + 0.12) * pitch, (row as f64 + 0.88) * pitch);
    if u < side || u > side + fw || v < y0 || v > y1 {
        return None;
    }
    // A chevron pointing out of the board.
    let (cx, cy) = (side + fw * 0.5, (y0 + y1) / 2.0);
    let dx = u - cx + fw * 0.2;
    let dy = (v - cy).abs();
    let arm = (dx - (fw * 0.35 - dy)).abs();
    let on = dx > -fw * 0.25 && dy < fw * 0.4 && arm < (0.06 * pitch).max(1.0);
    Some(if on { f(ARROW) } else { f(FLOOR) })
}

/// Draws `scene` onto `img`, the board's first grid line centred at the
/// lattice's `(xs[0], ys[0])`: frame, exit, floor, walls, vehicles. Pixels
/// outside the frame are left alone.
pub fn draw(img: &mut RgbImage, scene: &Scene, lattice: &Lattice) {
    let (pitch, _) = lattice.pitch();
    let (x0, y0) = (lattice.xs[0], lattice.ys[0]);
    let (lw, fw) = (line_width(pitch), frame_width(pitch));
    let side = SIZE as f64 * pitch;
    let board = Board::new(scene, pitch);
    let (w, h) = (f64::from(img.width()), f64::from(img.height()));
    let px0 = (x0 - lw / 2.0 - fw).floor().clamp(0.0, w) as u32;
    let py0 = (y0 - lw / 2.0 - fw).floor().clamp(0.0, h) as u32;
    let px1 = (x0 + side + lw / 2.0 + fw).ceil().clamp(0.0, w) as u32;
    let py1 = (y0 + side + lw / 2.0 + fw).ceil().clamp(0.0, h) as u32;
    for y in py0..py1 {
        for x in px0..px1 {
            let (u, v) = (f64::from(x) + 0.5 - x0, f64::from(y) + 0.5 - y0);
            let inside = |t: f64| t >= -lw / 2.0 && t < side + lw / 2.0;
            let c = if inside(u) && inside(v) {
                board.pixel(u, v)
            } else if let Some(c) = exit_pixel(u, v, pitch, scene.exit_row) {
                c
            } else {
                f(FRAME)
            };
            img.put_pixel(x, y, Rgb(c.map(|v| v.round().clamp(0.0, 255.0) as u8)));
        }
    }
}

/// The whole picture: page, frame and board.
pub fn picture(scene: &Scene, pitch: f64, margins: [f64; 4]) -> (RgbImage, Lattice) {
    let (w, h, lattice) = layout(pitch, margins);
    let mut img = RgbImage::from_pixel(w, h, Rgb(PAGE));
    draw(&mut img, scene, &lattice);
    (img, lattice)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOARD: &str = "BBoCooxoDCooAADCoooEEEoooooFoooGGFoo";

    fn at(img: &RgbImage, lat: &Lattice, r: f64, c: f64) -> [u8; 3] {
        let (p, _) = lat.pitch();
        let x = lat.xs[0] + c * p;
        let y = lat.ys[0] + r * p;
        img.get_pixel(x as u32, y as u32).0
    }

    #[test]
    fn vehicles_have_floor_between_them_and_their_colours() {
        let (p, s) = Puzzle::parse(BOARD).unwrap();
        let (img, lat) = picture(&Scene::of(&p, s), 40.0, [5.0; 4]);
        // The red car A at row 2, columns 0-1.
        assert_eq!(at(&img, &lat, 2.5, 0.5), RED);
        assert_eq!(at(&img, &lat, 2.5, 1.5), RED);
        // Its body runs on across the border between its own cells ...
        assert_eq!(at(&img, &lat, 2.5, 0.95), RED);
        assert_eq!(at(&img, &lat, 2.5, 1.05), RED);
        // ... and stops short of D's, at column 2.
        assert_eq!(at(&img, &lat, 2.5, 1.95), FLOOR);
        assert_eq!(at(&img, &lat, 2.5, 2.05), FLOOR);
        assert_eq!(at(&img, &lat, 0.5, 4.5), FLOOR);
        assert_eq!(at(&img, &lat, 1.5, 0.5), WALL);
        // No vehicle but A is red.
        for (l, _) in p.vehicles.iter().map(|v| (v.letter, ())).skip(1) {
            assert_ne!(colour_of(l), RED);
        }
        // The exit notch beside row 2, in the frame.
        let fw = frame_width(40.0);
        let ex = (lat.xs[6] + fw / 2.0) as u32;
        assert_ne!(img.get_pixel(ex, (lat.ys[2] + 20.0) as u32).0, FRAME);
        assert_eq!(img.get_pixel(ex, (lat.ys[4] + 20.0) as u32).0, FRAME);
    }

    #[test]
    fn a_moving_vehicle_is_drawn_between_cells() {
        let (p, s) = Puzzle::parse(BOARD).unwrap();
        let mut scene = Scene::of(&p, s);
        scene.pieces[0].pos += 0.5;
        let (img, lat) = picture(&scene, 40.0, [0.0; 4]);
        assert_eq!(at(&img, &lat, 2.5, 0.3), FLOOR);
        assert_eq!(at(&img, &lat, 2.5, 0.8), RED);
    }
}
