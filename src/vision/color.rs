//! Colours: parsing `#rrggbb`, distances, and colour classes described by a
//! few colour stops (a class's colour may drift along a gradient, as Troyis's
//! dark cells do from the top of the board to the bottom).

use std::fmt;

/// An RGB colour with float channels in 0..=255.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Rgb(pub [f32; 3]);

impl Rgb {
    pub fn from_u8(p: [u8; 3]) -> Self {
        Rgb([f32::from(p[0]), f32::from(p[1]), f32::from(p[2])])
    }

    pub fn to_u8(self) -> [u8; 3] {
        self.0.map(|v| v.round().clamp(0.0, 255.0) as u8)
    }

    /// Parses `#rrggbb` or `rrggbb`.
    pub fn parse_hex(s: &str) -> Option<Rgb> {
        let h = s.trim().trim_start_matches('#');
        if h.len() != 6 || !h.is_ascii() {
            return None;
        }
        let ch = |i: usize| u8::from_str_radix(&h[i..i + 2], 16).ok();
        Some(Rgb::from_u8([ch(0)?, ch(2)?, ch(4)?]))
    }

    pub fn distance(self, other: Rgb) -> f32 {
        let d: f32 = (0..3).map(|i| (self.0[i] - other.0[i]).powi(2)).sum();
        d.sqrt()
    }

    /// Distance to the segment from `a` to `b`.
    pub fn distance_to_segment(self, a: Rgb, b: Rgb) -> f32 {
        let ab: [f32; 3] = std::array::from_fn(|i| b.0[i] - a.0[i]);
        let ap: [f32; 3] = std::array::from_fn(|i| self.0[i] - a.0[i]);
        let len2: f32 = ab.iter().map(|v| v * v).sum();
        if len2 <= f32::EPSILON {
            return self.distance(a);
        }
        let t = (ab.iter().zip(&ap).map(|(u, v)| u * v).sum::<f32>() / len2).clamp(0.0, 1.0);
        self.distance(Rgb(std::array::from_fn(|i| a.0[i] + t * ab[i])))
    }
}

impl fmt::Display for Rgb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [r, g, b] = self.to_u8();
        write!(f, "#{r:02x}{g:02x}{b:02x}")
    }
}

/// One class of plain cells, recognised by colour.
#[derive(Clone, Debug)]
pub struct ColorClass {
    /// The letter the class is written as in boards (`W`, `.`, …).
    pub letter: char,
    pub name: String,
    /// Colour stops; the class covers the polyline through them.
    pub stops: Vec<Rgb>,
    /// Distance (0–441) at which a colour stops counting as this class.
    pub tolerance: f32,
    /// A translucent haze (clouds, a highlight) that may lie over the
    /// cell: its colour and its strongest opacity (0–1).
    pub haze: Option<(Rgb, f32)>,
}

impl ColorClass {
    /// Distance from the class's polyline, as seen through any haze up to
    /// its strongest opacity.
    pub fn distance(&self, c: Rgb) -> f32 {
        let plain = |stops: &[Rgb]| match stops {
            [] => f32::INFINITY,
            [one] => c.distance(*one),
            stops => stops
                .windows(2)
                .map(|w| c.distance_to_segment(w[0], w[1]))
                .fold(f32::INFINITY, f32::min),
        };
        let Some((haze, max)) = self.haze.filter(|h| h.1 > 0.0) else {
            return plain(&self.stops);
        };
        const STEPS: usize = 10;
        (0..=STEPS)
            .map(|k| {
                let a = max * k as f32 / STEPS as f32;
                let hazed: Vec<Rgb> = self
                    .stops
                    .iter()
                    .map(|s| Rgb(std::array::from_fn(|i| s.0[i] + a * (haze.0[i] - s.0[i]))))
                    .collect();
                plain(&hazed)
            })
            .fold(f32::INFINITY, f32::min)
    }
}

/// The verdict of [`classify`]: the nearest class, the runner-up, and a
/// confidence in 0..=1.
#[derive(Clone, Debug)]
pub struct ColorVerdict {
    pub best: usize,
    pub distance: f32,
    pub runner_up: Option<(usize, f32)>,
    pub confidence: f32,
}

/// Finds the nearest colour class.
///
/// Confidence is the product of how well the colour fits its class (1 at
/// the class's colour, 0.5 at its tolerance) and how clearly it beats the
/// runner-up (0.5 when equally near both, near 1 once a tolerance apart).
pub fn classify(classes: &[ColorClass], c: Rgb) -> Option<ColorVerdict> {
    let mut ds: Vec<(usize, f32)> = classes.iter().map(|k| k.distance(c)).enumerate().collect();
    ds.sort_by(|a, b| a.1.total_cmp(&b.1));
    let &(best, d1) = ds.first()?;
    let tol = classes[best].tolerance.max(1.0);
    let fit = 1.0 / (1.0 + (d1 / tol).powi(4));
    // Classes may share a letter (one per tint); the rival is the nearest
    // class with another letter.
    let letter = classes[best].letter;
    let runner_up = ds
        .iter()
        .copied()
        .find(|&(i, _)| classes[i].letter != letter);
    let separation = runner_up.map_or(f32::INFINITY, |(_, d2)| d2 - d1);
    let margin = 0.5 + 0.5 * (1.0 - (-2.0 * separation / tol).exp());
    Some(ColorVerdict {
        best,
        distance: d1,
        runner_up,
        confidence: (fit * margin).clamp(0.0, 1.0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(letter: char, stops: &[&str], tol: f32) -> ColorClass {
        ColorClass {
            letter,
            name: letter.to_string(),
            stops: stops.iter().map(|s| Rgb::parse_hex(s).unwrap()).collect(),
            tolerance: tol,
            haze: None,
        }
    }

    #[test]
    fn hex_round_trip() {
        let c = Rgb::parse_hex("#1a2B3c").unwrap();
        assert_eq!(c.to_string(), "#1a2b3c");
        assert!(Rgb::parse_hex("#12345").is_none());
        assert!(Rgb::parse_hex("zzzzzz").is_none());
    }

    #[test]
    fn gradient_classes_cover_their_polyline() {
        let dark = class('.', &["#6464e6", "#a0a0e6"], 28.0);
        let mid = Rgb::parse_hex("#8282e6").unwrap();
        assert!(dark.distance(mid) < 0.01);
    }

    #[test]
    fn haze_lightens_a_class_towards_its_colour() {
        let mut red = class('V', &["#c6405a"], 20.0);
        let clouded = Rgb::parse_hex("#d57285").unwrap();
        assert!(red.distance(clouded) > 40.0);
        red.haze = Some((Rgb([255.0; 3]), 0.45));
        assert!(red.distance(clouded) < 8.0, "{}", red.distance(clouded));
        // Haze only lightens: a darker red is still far.
        assert!(red.distance(Rgb::parse_hex("#601020").unwrap()) > 60.0);
    }

    #[test]
    fn confidence_is_high_at_a_class_and_low_between_classes() {
        let classes = [
            class('W', &["#e1e1fa"], 28.0),
            class('.', &["#6464e6", "#a0a0e6"], 28.0),
        ];
        let sure = classify(&classes, Rgb::parse_hex("#e3e3fa").unwrap()).unwrap();
        assert_eq!(sure.best, 0);
        assert!(sure.confidence > 0.95, "{sure:?}");
        let between = classify(&classes, Rgb::parse_hex("#c0c0f0").unwrap()).unwrap();
        assert!(between.confidence < 0.5, "{between:?}");
        let alien = classify(&classes, Rgb::parse_hex("#20a020").unwrap()).unwrap();
        assert!(alien.confidence < 0.1, "{alien:?}");
    }
}
