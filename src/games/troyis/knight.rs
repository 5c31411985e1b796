//! The project's own knight glyph: a few polygons in a unit square,
//! rasterised with anti-aliasing. It is drawn by the practice board and the
//! test renderer, and it is the source of `templates/troyis/knight.png`.

/// Points in the unit square, x to the right, y down; the horse faces right.
const HEAD: &[(f64, f64)] = &[
    (0.30, 0.80),
    (0.27, 0.66),
    (0.24, 0.52),
    (0.25, 0.38),
    (0.30, 0.26),
    (0.37, 0.17),
    (0.40, 0.06),
    (0.46, 0.13),
    (0.51, 0.04),
    (0.56, 0.14),
    (0.64, 0.19),
    (0.71, 0.27),
    (0.78, 0.37),
    (0.84, 0.46),
    (0.85, 0.53),
    (0.80, 0.58),
    (0.73, 0.57),
    (0.66, 0.52),
    (0.58, 0.50),
    (0.56, 0.56),
    (0.60, 0.65),
    (0.67, 0.73),
    (0.70, 0.80),
];
const BASE: &[(f64, f64)] = &[
    (0.24, 0.80),
    (0.76, 0.80),
    (0.78, 0.86),
    (0.84, 0.88),
    (0.84, 0.95),
    (0.16, 0.95),
    (0.16, 0.88),
    (0.22, 0.86),
];
const MANE: &[(f64, f64)] = &[(0.30, 0.30), (0.42, 0.45), (0.36, 0.60)];
const EYE: (f64, f64, f64) = (0.63, 0.295, 0.03);
const OUTLINE: f64 = 0.03;

fn inside(poly: &[(f64, f64)], x: f64, y: f64) -> bool {
    let mut odd = false;
    let mut j = poly.len() - 1;
    for i in 0..poly.len() {
        let ((xi, yi), (xj, yj)) = (poly[i], poly[j]);
        if (yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi {
            odd = !odd;
        }
        j = i;
    }
    odd
}

fn segment_distance(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    ((p.0 - a.0 - t * dx).powi(2) + (p.1 - a.1 - t * dy).powi(2)).sqrt()
}

fn near_outline(poly: &[(f64, f64)], closed: bool, p: (f64, f64), half: f64) -> bool {
    let n = poly.len();
    let edges = if closed { n } else { n - 1 };
    (0..edges).any(|i| segment_distance(p, poly[i], poly[(i + 1) % n]) < half)
}

/// What the glyph shows at a point of the unit square.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ink {
    None,
    Body,
    Outline,
}

/// The glyph at `(x, y)` in the unit square.
pub fn ink_at(x: f64, y: f64) -> Ink {
    let p = (x, y);
    let half = OUTLINE / 2.0;
    if near_outline(HEAD, true, p, half)
        || near_outline(BASE, true, p, half)
        || near_outline(MANE, false, p, OUTLINE / 3.0)
        || ((x - EYE.0).powi(2) + (y - EYE.1).powi(2)).sqrt() < EYE.2
    {
        return Ink::Outline;
    }
    if inside(HEAD, x, y) || inside(BASE, x, y) {
        return Ink::Body;
    }
    Ink::None
}

/// Coverage of a `size × size` raster: per pixel, the fraction of body
/// and of outline (4×4 samples per pixel).
pub fn raster(size: usize) -> Vec<(f32, f32)> {
    const SS: usize = 4;
    let mut out = Vec::with_capacity(size * size);
    for py in 0..size {
        for px in 0..size {
            let (mut body, mut line) = (0u32, 0u32);
            for sy in 0..SS {
                for sx in 0..SS {
                    let x = (px as f64 + (sx as f64 + 0.5) / SS as f64) / size as f64;
                    let y = (py as f64 + (sy as f64 + 0.5) / SS as f64) / size as f64;
                    match ink_at(x, y) {
                        Ink::Body => body += 1,
                        Ink::Outline => line += 1,
                        Ink::None => {}
                    }
                }
            }
            let n = (SS * SS) as f32;
            out.push((body as f32 / n, line as f32 / n));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_glyph_has_a_body_an_outline_and_space_around() {
        assert_eq!(ink_at(0.5, 0.6), Ink::Body);
        assert_eq!(ink_at(0.02, 0.02), Ink::None);
        assert_eq!(ink_at(EYE.0, EYE.1), Ink::Outline);
        let r = raster(32);
        let body: f32 = r.iter().map(|p| p.0).sum();
        let line: f32 = r.iter().map(|p| p.1).sum();
        assert!(body > 200.0 && line > 60.0, "{body} {line}");
    }
}
