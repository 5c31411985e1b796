//! Skins nobody in the project drew: boards painted at test time from a
//! style per class of cell, for the skin learner's tests. A style says how
//! the page, frame and grid lines look and, per class, the cell's ground
//! and the piece on it (the part that moves mid-animation).
//!
//! [`Suite`] runs one game's skin through `boardbot calibrate` on one
//! labelled screenshot, then reads other positions at several scales and
//! margins, cut screenshots and frames mid-move.

use std::path::Path;

use boardbot::calibration::Calibration;
use boardbot::game::OnScreen;
use boardbot::vision::Reading;
use image::{Rgb, RgbImage};

pub type Colour = [u8; 3];

/// Grid lines between cells.
#[derive(Clone, Copy)]
pub enum Lines {
    None,
    /// A one-pixel line, a quarter of the way to `colour`.
    Faint(Colour),
    /// A line `width` pitches wide.
    Thick(Colour, f64),
}

/// One layer of a cell, in pitches from its centre.
#[derive(Clone, Copy)]
pub enum Shape {
    Fill(Colour),
    /// Top to bottom.
    Gradient(Colour, Colour),
    /// Light top and left edges, dark bottom and right ones, `width` wide.
    Bevel(Colour, Colour, f64),
    Square {
        half: f64,
        round: f64,
        colour: Colour,
    },
    Circle {
        r: f64,
        colour: Colour,
    },
    Ring {
        r0: f64,
        r1: f64,
        colour: Colour,
    },
    Diamond {
        r: f64,
        colour: Colour,
    },
    Dot {
        dx: f64,
        dy: f64,
        r: f64,
        colour: Colour,
    },
    Cross {
        half: f64,
        width: f64,
        colour: Colour,
    },
    /// From `(x0, y0)` to `(x1, y1)`.
    Rect {
        x0: f64,
        y0: f64,
        x1: f64,
        y1: f64,
        colour: Colour,
    },
}

impl Shape {
    /// The colour at `(x, y)` over `under`.
    fn at(&self, x: f64, y: f64, under: Colour) -> Colour {
        let covered = match *self {
            Shape::Fill(c) => return c,
            Shape::Gradient(a, b) => return mix(a, b, y + 0.5),
            Shape::Bevel(light, dark, w) => {
                if y < -0.5 + w || x < -0.5 + w {
                    return if y - x < 0.0 || x > 0.5 - w || y > 0.5 - w {
                        dark
                    } else {
                        light
                    };
                }
                if y > 0.5 - w || x > 0.5 - w {
                    return dark;
                }
                None
            }
            Shape::Square {
                half,
                round,
                colour,
            } => {
                let (dx, dy) = (
                    (x.abs() - half + round).max(0.0),
                    (y.abs() - half + round).max(0.0),
                );
                (x.abs() <= half && y.abs() <= half && dx.hypot(dy) <= round).then_some(colour)
            }
            Shape::Circle { r, colour } => (x.hypot(y) <= r).then_some(colour),
            Shape::Ring { r0, r1, colour } => (r0..=r1).contains(&x.hypot(y)).then_some(colour),
            Shape::Diamond { r, colour } => (x.abs() + y.abs() <= r).then_some(colour),
            Shape::Dot { dx, dy, r, colour } => ((x - dx).hypot(y - dy) <= r).then_some(colour),
            Shape::Rect {
                x0,
                y0,
                x1,
                y1,
                colour,
            } => (x >= x0 && x <= x1 && y >= y0 && y <= y1).then_some(colour),
            Shape::Cross {
                half,
                width,
                colour,
            } => {
                let on = |a: f64, b: f64| (a - b).abs() <= width / 2.0 && a.abs() <= half;
                (on(x, y) || on(x, -y)).then_some(colour)
            }
        };
        covered.unwrap_or(under)
    }
}

fn mix(a: Colour, b: Colour, t: f64) -> Colour {
    let t = t.clamp(0.0, 1.0);
    [0, 1, 2].map(|k| (f64::from(a[k]) * (1.0 - t) + f64::from(b[k]) * t).round() as u8)
}

/// A board of slots: `cells` a side, with a gap `gap` pitches wide after
/// each, which the labels give as a row or column of its own.
#[derive(Clone, Copy)]
pub struct Slots {
    pub cells: usize,
    pub gap: f64,
}

/// Along one axis of a board of `n` columns (or rows), at `u` pitches from
/// its edge: the column there, where across it (-0.5 to 0.5), and its
/// width in pitches; `None` past the board.
fn column_at(u: f64, n: usize, slots: Option<Slots>) -> Option<(usize, f64, f64)> {
    if u < 0.0 {
        return None;
    }
    let (c, x, w) = match slots {
        None => (u.floor() as usize, u - u.floor() - 0.5, 1.0),
        Some(s) => {
            let period = s.cells as f64 + s.gap;
            let k = (u / period).floor();
            let t = u - k * period;
            let first = k as usize * (s.cells + 1);
            if t < s.cells as f64 {
                (first + t.floor() as usize, t - t.floor() - 0.5, 1.0)
            } else {
                (first + s.cells, (t - s.cells as f64) / s.gap - 0.5, s.gap)
            }
        }
    };
    (c < n).then_some((c, x, w))
}

/// The width of the first `n` columns, in pitches: where column `n` starts.
fn span(n: usize, slots: Option<Slots>) -> f64 {
    match slots {
        None => n as f64,
        Some(s) => {
            (n / (s.cells + 1)) as f64 * (s.cells as f64 + s.gap) + (n % (s.cells + 1)) as f64
        }
    }
}

/// How a skin draws a board.
pub struct Style {
    pub name: &'static str,
    pub page: Colour,
    /// For a board of slots (Continuity), their size and gaps.
    pub slots: Option<Slots>,
    /// A frame around the board: its colour and width in pitches.
    pub frame: Option<(Colour, f64)>,
    pub lines: Lines,
    /// A class's ground, then its piece.
    pub look: &'static (dyn Fn(&str) -> Layers + Sync),
}

/// A piece caught between two cells: the one in `from`, `frac` of the way
/// along `step`; its cell shows `ground`'s ground meanwhile.
pub struct Moving<'a> {
    pub from: (usize, usize),
    pub step: (i32, i32),
    pub frac: f64,
    pub ground: &'a str,
}

/// The board of `labels`, `pitch` px a cell, `margins` (left, top, right,
/// bottom) px of page around it.
pub fn paint(
    labels: &[Vec<String>],
    style: &Style,
    pitch: f64,
    margins: [f64; 4],
    moving: Option<&Moving>,
) -> RgbImage {
    let (rows, cols) = (labels.len(), labels[0].len());
    let looks = looks_of(labels, style);
    let moved = moving.map(|m| {
        (
            m,
            (style.look)(&labels[m.from.0][m.from.1]).1,
            (style.look)(m.ground).0,
        )
    });
    supersampled((rows, cols), style, pitch, margins, |u, v| {
        sample(
            u,
            v,
            rows,
            cols,
            style,
            &looks,
            moved.as_ref().map(|(m, p, g)| (*m, p, g)),
        )
    })
}

/// A board of slots with the slot at `slot` (row, column of slots) caught
/// `frac` of the way along `step` towards the empty slot, whose cells
/// are labelled `empty`: the slot it leaves shows empty meanwhile.
pub fn paint_slide(
    labels: &[Vec<String>],
    style: &Style,
    pitch: f64,
    margins: [f64; 4],
    (slot, step, frac): ((usize, usize), (i32, i32), f64),
    empty: &str,
) -> RgbImage {
    let s = style.slots.expect("a board of slots");
    let (rows, cols) = (labels.len(), labels[0].len());
    let first = (slot.0 * (s.cells + 1), slot.1 * (s.cells + 1));
    let mut left = labels.to_vec();
    for row in &mut left[first.0..first.0 + s.cells] {
        for l in &mut row[first.1..first.1 + s.cells] {
            *l = empty.to_string();
        }
    }
    let (before, after) = (looks_of(labels, style), looks_of(&left, style));
    let period = s.cells as f64 + s.gap;
    let (du, dv) = (
        f64::from(step.1) * period * frac,
        f64::from(step.0) * period * frac,
    );
    let (u0, v0) = (span(first.1, style.slots), span(first.0, style.slots));
    let side = s.cells as f64;
    supersampled((rows, cols), style, pitch, margins, |u, v| {
        let (su, sv) = (u - du, v - dv);
        if (u0..u0 + side).contains(&su) && (v0..v0 + side).contains(&sv) {
            sample(su, sv, rows, cols, style, &before, None)
        } else {
            sample(u, v, rows, cols, style, &after, None)
        }
    })
}

fn looks_of(labels: &[Vec<String>], style: &Style) -> Vec<Vec<Layers>> {
    labels
        .iter()
        .map(|r| r.iter().map(|l| (style.look)(l)).collect())
        .collect()
}

/// A picture of a `rows × cols` board at `pitch` with `margins`, each
/// pixel the mean of 3×3 samples of `at` (in pitches from the board's
/// corner).
fn supersampled(
    (rows, cols): (usize, usize),
    style: &Style,
    pitch: f64,
    margins: [f64; 4],
    at: impl Fn(f64, f64) -> Colour,
) -> RgbImage {
    let w = (margins[0] + margins[2] + pitch * span(cols, style.slots)).round() as u32;
    let h = (margins[1] + margins[3] + pitch * span(rows, style.slots)).round() as u32;
    const SS: u32 = 3;
    RgbImage::from_fn(w, h, |px, py| {
        let mut sum = [0u32; 3];
        for sy in 0..SS {
            for sx in 0..SS {
                let x = f64::from(px) + (f64::from(sx) + 0.5) / f64::from(SS);
                let y = f64::from(py) + (f64::from(sy) + 0.5) / f64::from(SS);
                let c = at((x - margins[0]) / pitch, (y - margins[1]) / pitch);
                for k in 0..3 {
                    sum[k] += u32::from(c[k]);
                }
            }
        }
        Rgb(sum.map(|s| (s / (SS * SS)) as u8))
    })
}

/// A cell's ground, then its piece.
pub type Layers = (Vec<Shape>, Vec<Shape>);

fn sample(
    u: f64,
    v: f64,
    rows: usize,
    cols: usize,
    style: &Style,
    looks: &[Vec<Layers>],
    moving: Option<(&Moving, &Vec<Shape>, &Vec<Shape>)>,
) -> Colour {
    let (fw, fh) = (span(cols, style.slots), span(rows, style.slots));
    let (Some((c, x, cw)), Some((r, y, rh))) = (
        column_at(u, cols, style.slots),
        column_at(v, rows, style.slots),
    ) else {
        return match style.frame {
            Some((c, t)) if u > -t && v > -t && u < fw + t && v < fh + t => c,
            _ => style.page,
        };
    };
    let (ground, piece) = &looks[r][c];
    let is_from = moving.is_some_and(|(m, ..)| m.from == (r, c));
    let ground = if is_from {
        moving.map_or(ground, |m| m.2)
    } else {
        ground
    };
    let mut col = style.page;
    for s in ground {
        col = s.at(x, y, col);
    }
    if !is_from {
        for s in piece {
            col = s.at(x, y, col);
        }
    }
    if let Some((m, shapes, _)) = moving {
        // The piece's cell lies in a slot: its neighbours are a pitch away.
        let centre = |k: usize| span(k, style.slots) + 0.5;
        let cu = centre(m.from.1) + f64::from(m.step.1) * m.frac;
        let cv = centre(m.from.0) + f64::from(m.step.0) * m.frac;
        let (mx, my) = (u - cu, v - cv);
        if mx.abs() < 0.5 && my.abs() < 0.5 {
            for s in shapes {
                col = s.at(mx, my, col);
            }
        }
    }
    // How far the point is from its cell's nearest edge, in pitches.
    let edge = ((0.5 - x.abs()) * cw).min((0.5 - y.abs()) * rh);
    match style.lines {
        Lines::None => col,
        Lines::Faint(l) => {
            if edge * 40.0 < 1.0 {
                mix(col, l, 0.25)
            } else {
                col
            }
        }
        Lines::Thick(l, width) => {
            if edge < width / 2.0 {
                l
            } else {
                col
            }
        }
    }
}

/// Distinct colours for `n` kinds, around the hue circle.
pub fn hues(n: usize, sat: f64, val: f64) -> Vec<Colour> {
    (0..n)
        .map(|i| {
            let h = i as f64 / n as f64 * 6.0;
            let c = val * sat;
            let x = c * (1.0 - (h % 2.0 - 1.0).abs());
            let (r, g, b) = match h as usize {
                0 => (c, x, 0.0),
                1 => (x, c, 0.0),
                2 => (0.0, c, x),
                3 => (0.0, x, c),
                4 => (x, 0.0, c),
                _ => (c, 0.0, x),
            };
            let m = val - c;
            [r, g, b].map(|v| ((v + m) * 255.0).round() as u8)
        })
        .collect()
}

/// One game's skin tests.
pub struct Suite<'a> {
    pub screen: &'static dyn OnScreen,
    pub style: &'a Style,
    /// The positions of the one or two calibration shots, in the game's
    /// text: between them they show every class of cell.
    pub taught: Vec<String>,
    /// Other positions, read after the calibration.
    pub levels: Vec<String>,
}

/// What a read gave, in a form to compare: the cells' labels' first
/// letters, or why it refused.
fn rows_read(look: &boardbot::game::screen::Look) -> Result<Vec<String>, String> {
    match &look.reading {
        Reading::Board { grid, .. } => Ok(grid.rows()),
        Reading::Uncertain { reason, issues, .. } => Err(format!("uncertain: {reason} {issues:?}")),
        Reading::NoBoard { reason, .. } => Err(format!("no board: {reason}")),
    }
}

fn first_letters(labels: &[Vec<String>]) -> Vec<String> {
    labels
        .iter()
        .map(|r| r.iter().map(|l| l.chars().next().unwrap()).collect())
        .collect()
}

impl Suite<'_> {
    pub fn labels(&self, text: &str) -> Vec<Vec<String>> {
        self.screen
            .skin_labels(text)
            .expect("the game reads skins")
            .expect("a legal level")
    }

    /// Calibrates with one `boardbot calibrate` on the taught positions,
    /// drawn at 40 px a cell; the calibration.
    pub fn calibrate(&self, dir: &Path) -> Calibration {
        self.calibrate_at(dir, 40.0)
    }

    /// Calibrates on the taught positions drawn at `pitch` px a cell.
    pub fn calibrate_at(&self, dir: &Path, pitch: f64) -> Calibration {
        self.try_calibrate_at(dir, pitch)
            .unwrap_or_else(|why| panic!("{}: {why}", self.style.name))
    }

    /// Calibrates on the taught positions drawn at `pitch` px a cell, or
    /// says why `calibrate` refused.
    pub fn try_calibrate_at(&self, dir: &Path, pitch: f64) -> Result<Calibration, String> {
        let mut args: Vec<String> = ["calibrate", "--game", self.screen.id()]
            .map(String::from)
            .to_vec();
        for (i, text) in self.taught.iter().enumerate() {
            let labels = self.labels(text);
            // Room past a wide frame: the learner must see the surroundings.
            let frame = self
                .style
                .frame
                .map_or(0.0, |(_, w)| (w * pitch - 9.0).max(0.0));
            let margins = match self.style.slots {
                Some(_) => [11.0, 9.0, 13.0, 10.0].map(|m| self.margin(pitch, m)),
                None => [11.0, 9.0, 13.0, 10.0].map(|m| m + frame),
            };
            let shot = paint(&labels, self.style, pitch, margins, None);
            let png = dir.join(format!("shot{i}.png"));
            let txt = dir.join(format!("shot{i}.txt"));
            shot.save(&png).unwrap();
            std::fs::write(&txt, text).unwrap();
            args.extend([
                "--image".into(),
                png.display().to_string(),
                "--level".into(),
                txt.display().to_string(),
            ]);
        }
        let out = dir.join("look");
        args.extend(["--out".into(), out.display().to_string()]);
        let run = super::boardbot(&args.iter().map(String::as_str).collect::<Vec<_>>());
        if !run.status.success() {
            return Err(format!(
                "calibrate failed: {}{}",
                String::from_utf8_lossy(&run.stdout),
                String::from_utf8_lossy(&run.stderr)
            ));
        }
        let path = out.join(format!("{}.toml", self.screen.id()));
        Ok(Calibration::load(&path, self.screen.id()).expect("the written calibration loads"))
    }

    /// Calibrates, then every check: levels at every scale and margin,
    /// cuts, and pieces mid-move into a `ground` cell.
    pub fn run(&self, ground: &str, is_piece: fn(&str) -> bool) {
        let dir = tempfile::tempdir().unwrap();
        let cal = self.calibrate(dir.path());
        // Thick lines between cells of one pitch are where a skin's reader
        // starts; a board of slots has no such lines (its gaps differ).
        // (A game may learn another kind of look from lined shots.)
        if let Some(skin) = &cal.params.skin
            && matches!(self.style.lines, Lines::Thick(..))
            && self.style.slots.is_none()
        {
            assert!(
                skin.lines.is_some(),
                "{}: no grid lines learned",
                self.style.name
            );
        }
        self.reads_every_level(&cal);
        self.refuses_cuts(&cal);
        self.refuses_mid_moves(&cal, ground, is_piece);
    }

    /// Every level, at half, one and twice the calibration's
    /// scale, with a tight and a wide margin, reads exactly.
    pub fn reads_every_level(&self, cal: &Calibration) {
        // Around a board of slots the page must show: a frame alone, the
        // colour of the gaps, cannot be told from a cut inside a gap.
        let past_frame = self.style.slots.is_some();
        let (_, refused) =
            self.reads_levels_at(cal, self.levels.len(), &[20.0, 40.0, 80.0], past_frame);
        assert!(refused.is_empty(), "{refused:#?}");
    }

    /// Cells of 16 to 200 px: calibrated at 32 px, the first `levels`
    /// levels at 16, 32 and 64 px; calibrated at 100 px, at 50, 100 and
    /// 200 px. Each read exactly or refused, never misread: how many read,
    /// and why the others were refused.
    pub fn reads_small_and_large_cells(&self, levels: usize) -> (usize, Vec<String>) {
        let (mut exact, mut refused) = (0, Vec::new());
        for (taught, read) in [(32.0, [16.0, 32.0, 64.0]), (100.0, [50.0, 100.0, 200.0])] {
            let dir = tempfile::tempdir().unwrap();
            let cal = self.calibrate_at(dir.path(), taught);
            let (e, r) = self.reads_levels_at(&cal, levels, &read, true);
            exact += e;
            refused.extend(r);
        }
        (exact, refused)
    }

    /// The first `levels` levels at each pitch, with a tight margin (3 px,
    /// or 3 px `past_frame`) and a wide one: each read exactly or refused,
    /// never as another position. How many read, and why the others
    /// were refused.
    pub fn reads_levels_at(
        &self,
        cal: &Calibration,
        levels: usize,
        pitches: &[f64],
        past_frame: bool,
    ) -> (usize, Vec<String>) {
        let (mut exact, mut refused) = (0, Vec::new());
        for (i, text) in self.levels.iter().take(levels).enumerate() {
            let labels = self.labels(text);
            for &pitch in pitches {
                let frame = match self.style.frame {
                    Some((_, width)) if past_frame => width * pitch,
                    _ => 0.0,
                };
                // Past the frame on a board of slots, as the tight one is.
                let wide = match self.style.slots {
                    Some(_) => [30.0, 17.0, 22.0, 41.0].map(|m| m + frame),
                    None => [30.0, 17.0, 22.0, 41.0],
                };
                for margins in [[3.0 + frame; 4], wide] {
                    let img = paint(&labels, self.style, pitch, margins, None);
                    // To look at by hand: `RANDOM_SKIN_DUMP=DIR`.
                    if let Ok(dir) = std::env::var("RANDOM_SKIN_DUMP") {
                        let name = self.style.name.replace(' ', "-");
                        let m = margins[0] as u32;
                        img.save(format!("{dir}/{name}-read-{i}-{pitch}-{m}.png"))
                            .unwrap();
                    }
                    let look = self.screen.look(&img, cal);
                    let what = format!(
                        "{}: level {i} at {pitch} px, margins {margins:?}",
                        self.style.name
                    );
                    match rows_read(&look) {
                        Ok(rows) => {
                            assert_eq!(rows, first_letters(&labels), "{what}");
                            assert!(look.trusted(), "{what}");
                            exact += 1;
                        }
                        Err(why) => refused.push(format!("{what}: {why}")),
                    }
                }
            }
        }
        (exact, refused)
    }

    /// `m` px of page around a board at `pitch`: past its frame on a board
    /// of slots, whose frame alone is the colour of its gaps.
    fn margin(&self, pitch: f64, m: f64) -> f64 {
        match (self.style.slots, self.style.frame) {
            (Some(_), Some((_, width))) => m + width * pitch,
            _ => m,
        }
    }

    /// Screenshots that cut the board are refused.
    pub fn refuses_cuts(&self, cal: &Calibration) {
        let labels = self.labels(&self.levels[1]);
        let pitch = 36.0;
        let m = self.margin(pitch, 12.0);
        let img = paint(&labels, self.style, pitch, [m; 4], None);
        let (w, h) = (img.width(), img.height());
        let cut = |x: u32, y: u32, cw: u32, ch: u32| {
            image::imageops::crop_imm(&img, x, y, cw, ch).to_image()
        };
        let mid = (m + pitch * 1.5) as u32;
        let edge = (m + pitch) as u32;
        let b = m as u32;
        let cuts = [
            ("left, mid-cell", cut(mid, 0, w - mid, h)),
            ("left, on a cell's edge", cut(edge, 0, w - edge, h)),
            ("top, on a cell's edge", cut(0, edge, w, h - edge)),
            ("right, mid-cell", cut(0, 0, w - mid, h)),
            ("bottom, on a cell's edge", cut(0, 0, w, h - edge)),
            ("at the board's edge", cut(b, b, w - 2 * b, h - 2 * b)),
        ];
        if let Some(s) = self.style.slots {
            // Inside the first gap: past the first slots, only gap colour.
            // Refused as a cut, not merely because the slots left make no
            // legal level (here they may or may not).
            let gap = (m + pitch * (s.cells as f64 + s.gap / 2.0)) as u32;
            for (name, part) in [
                ("left, mid-gap", cut(gap, 0, w - gap, h)),
                ("right, mid-gap", cut(0, 0, gap, h)),
                ("top, mid-gap", cut(0, gap, w, h - gap)),
                ("bottom, mid-gap", cut(0, 0, w, gap)),
            ] {
                let look = self.screen.look(&part, cal);
                assert!(
                    matches!(look.reading, Reading::NoBoard { .. }),
                    "{}: a board cut {name} was not refused as cut: {:?}",
                    self.style.name,
                    rows_read(&look)
                );
            }
        }
        for (name, part) in cuts {
            // Cut at the board's edge, the whole board still shows: it may
            // be read, but only as itself.
            let read = rows_read(&self.screen.look(&part, cal));
            assert!(
                read.is_err() || read == Ok(first_letters(&labels)),
                "{}: a board cut {name} was read as {read:?}",
                self.style.name,
            );
        }
    }

    /// On a board of slots, every slot beside the empty one caught a
    /// quarter, half and three quarters of the way into it is refused or
    /// read as the position before or after the slide.
    pub fn refuses_slides(&self, cal: &Calibration, empty: &str) {
        let s = self.style.slots.expect("a board of slots");
        let labels = self.labels(&self.levels[1]);
        let n = s.cells + 1;
        let (slot_rows, slot_cols) = ((labels.len() + 1) / n, (labels[0].len() + 1) / n);
        let is_empty = |r: usize, c: usize| labels[r * n][c * n] == empty;
        let hole = (0..slot_rows * slot_cols)
            .map(|k| (k / slot_cols, k % slot_cols))
            .find(|&(r, c)| is_empty(r, c))
            .expect("an empty slot");
        let mut tried = 0;
        for step in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
            let (r, c) = (hole.0 as i32 - step.0, hole.1 as i32 - step.1);
            if r < 0 || c < 0 || r as usize >= slot_rows || c as usize >= slot_cols {
                continue;
            }
            let slot = (r as usize, c as usize);
            let mut after = labels.clone();
            for i in 0..s.cells {
                for j in 0..s.cells {
                    let (from, to) = (
                        (slot.0 * n + i, slot.1 * n + j),
                        (hole.0 * n + i, hole.1 * n + j),
                    );
                    after[to.0][to.1] = labels[from.0][from.1].clone();
                    after[from.0][from.1] = empty.to_string();
                }
            }
            for frac in [0.25, 0.5, 0.75] {
                let img = paint_slide(
                    &labels,
                    self.style,
                    30.0,
                    [self.margin(30.0, 10.0); 4],
                    (slot, step, frac),
                    empty,
                );
                let what = format!("slot {slot:?} sliding {step:?} at {frac}");
                self.before_or_after(&img, cal, (&labels, &after), &what);
                tried += 1;
            }
        }
        assert!(tried >= 6, "{}: only {tried} slides", self.style.name);
    }

    /// A frame caught mid-move is refused, or read as the position before
    /// or after the move.
    fn before_or_after(
        &self,
        img: &RgbImage,
        cal: &Calibration,
        (before, after): (&[Vec<String>], &[Vec<String>]),
        what: &str,
    ) {
        let read = rows_read(&self.screen.look(img, cal));
        assert!(
            read.is_err() || read == Ok(first_letters(before)) || read == Ok(first_letters(after)),
            "{}: {what} read as {read:?}",
            self.style.name
        );
    }

    /// Every piece caught between cells, a quarter, half and three
    /// quarters of the way, is refused or read as the position before or
    /// after the move.
    pub fn refuses_mid_moves(&self, cal: &Calibration, ground: &str, is_piece: fn(&str) -> bool) {
        let labels = self.labels(&self.levels[1]);
        let (rows, cols) = (labels.len(), labels[0].len());
        let mut tried = 0;
        for r in 0..rows {
            for c in 0..cols {
                if !is_piece(&labels[r][c]) {
                    continue;
                }
                for step in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                    let (tr, tc) = (r as i32 + step.0, c as i32 + step.1);
                    if tr < 0
                        || tc < 0
                        || tr as usize >= rows
                        || tc as usize >= cols
                        || labels[tr as usize][tc as usize] != ground
                    {
                        continue;
                    }
                    let mut after = labels.clone();
                    after[tr as usize][tc as usize] = labels[r][c].clone();
                    after[r][c] = ground.to_string();
                    for frac in [0.25, 0.5, 0.75] {
                        let m = Moving {
                            from: (r, c),
                            step,
                            frac,
                            ground,
                        };
                        let margins = [self.margin(40.0, 10.0); 4];
                        let img = paint(&labels, self.style, 40.0, margins, Some(&m));
                        let what = format!("({r},{c}) moving {step:?} at {frac}");
                        self.before_or_after(&img, cal, (&labels, &after), &what);
                        tried += 1;
                    }
                }
            }
        }
        assert!(
            tried >= 3,
            "{}: only {tried} mid-move frames",
            self.style.name
        );
    }
}
