//! Plain geometry shared by every stage: rectangles in image or screen
//! pixels, and grid cells.

use serde::Serialize;

/// A grid cell as `(row, column)`, both from zero at the top left.
pub type Cell = (usize, usize);

/// An axis-aligned rectangle in whole pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Rect {
    pub x: i32,
    pub y: i32,
    pub w: u32,
    pub h: u32,
}

impl Rect {
    pub fn new(x: i32, y: i32, w: u32, h: u32) -> Self {
        Rect { x, y, w, h }
    }

    /// True when the point lies inside, counting the left and top edges but
    /// not the right and bottom ones.
    pub fn contains(&self, x: i32, y: i32) -> bool {
        x >= self.x
            && y >= self.y
            && i64::from(x) < i64::from(self.x) + i64::from(self.w)
            && i64::from(y) < i64::from(self.y) + i64::from(self.h)
    }

    pub fn right(&self) -> i64 {
        i64::from(self.x) + i64::from(self.w)
    }

    pub fn bottom(&self) -> i64 {
        i64::from(self.y) + i64::from(self.h)
    }
}

impl std::fmt::Display for Rect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{},{},{},{}", self.x, self.y, self.w, self.h)
    }
}

impl std::str::FromStr for Rect {
    type Err = String;

    /// Parses `X,Y,W,H`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let parts: Vec<&str> = s.split(',').map(str::trim).collect();
        let [x, y, w, h] = parts.as_slice() else {
            return Err(format!("expected X,Y,W,H (four numbers), got {s:?}"));
        };
        let num = |name: &str, v: &str| -> Result<i64, String> {
            v.parse::<i64>()
                .map_err(|_| format!("{name} in {s:?} is not a whole number: {v:?}"))
        };
        let (x, y, w, h) = (num("X", x)?, num("Y", y)?, num("W", w)?, num("H", h)?);
        if w <= 0 || h <= 0 {
            return Err(format!(
                "the region {s:?} has no area: W and H must be positive"
            ));
        }
        let fit = |v: i64| i32::try_from(v).map_err(|_| format!("{v} is out of range in {s:?}"));
        Ok(Rect::new(fit(x)?, fit(y)?, fit(w)? as u32, fit(h)? as u32))
    }
}

/// A rectangle in fractional pixels, for lattice cells.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RectF {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

impl RectF {
    pub fn width(&self) -> f64 {
        self.x1 - self.x0
    }

    pub fn height(&self) -> f64 {
        self.y1 - self.y0
    }

    pub fn centre(&self) -> (f64, f64) {
        ((self.x0 + self.x1) / 2.0, (self.y0 + self.y1) / 2.0)
    }

    /// Shrinks each side by `frac` of the width (left, right) or height (top, bottom).
    pub fn inset(&self, frac: f64) -> RectF {
        let dx = self.width() * frac;
        let dy = self.height() * frac;
        RectF {
            x0: self.x0 + dx,
            y0: self.y0 + dy,
            x1: self.x1 - dx,
            y1: self.y1 - dy,
        }
    }

    pub fn contains(&self, x: f64, y: f64) -> bool {
        x >= self.x0 && x < self.x1 && y >= self.y0 && y < self.y1
    }

    /// Whole-pixel span `[x0, x1) × [y0, y1)` clamped to an image of `w × h`.
    pub fn pixels(&self, w: u32, h: u32) -> (u32, u32, u32, u32) {
        let clamp = |v: f64, max: u32| v.round().clamp(0.0, f64::from(max)) as u32;
        (
            clamp(self.x0, w),
            clamp(self.y0, h),
            clamp(self.x1, w),
            clamp(self.y1, h),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_regions() {
        assert_eq!(
            "10, 20,30,40".parse::<Rect>(),
            Ok(Rect::new(10, 20, 30, 40))
        );
        assert!("10,20,30".parse::<Rect>().is_err());
        assert!("10,20,0,5".parse::<Rect>().is_err());
        assert!("a,20,3,5".parse::<Rect>().is_err());
    }

    #[test]
    fn contains_is_half_open() {
        let r = Rect::new(0, 0, 10, 10);
        assert!(r.contains(0, 0) && r.contains(9, 9));
        assert!(!r.contains(10, 5) && !r.contains(-1, 5));
    }
}
