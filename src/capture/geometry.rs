//! Screen coordinates: from pixels of a captured monitor image to the
//! coordinates the input layer (`enigo`) expects, on each platform.
//!
//! Three spaces meet here:
//! - **logical** units, in which xcap reports a monitor's position and size
//!   (real pixels divided by the desktop's scale factor);
//! - **pixels** of the captured image (always real pixels);
//! - **input** coordinates, what `enigo` moves the mouse to and reports as
//!   the mouse's location: real pixels on X11 and on Windows (boardbot is
//!   DPI-aware there), points (logical units) on macOS.
//!
//! Regions (`--region X,Y,W,H`) are in input coordinates, so a region read
//! from the mouse's position is used as is.
//!
//! The scale is measured, not trusted: captured image width over the
//! monitor's logical width.

use crate::geom::Rect;

/// How a platform's input coordinates relate to pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputSpace {
    /// X11 and DPI-aware Windows: input coordinates are real pixels.
    Pixels,
    /// macOS: input coordinates are points (logical units).
    Points,
}

impl InputSpace {
    /// The input space of the platform boardbot was built for.
    pub fn native() -> InputSpace {
        if cfg!(target_os = "macos") {
            InputSpace::Points
        } else {
            InputSpace::Pixels
        }
    }
}

/// A captured monitor: where it sits and how its pixels map to input.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MonitorGeometry {
    /// Position and size in logical units, as xcap reports them.
    pub logical: Rect,
    /// Size of the captured image in pixels.
    pub pixels: (u32, u32),
    pub space: InputSpace,
    /// The scale the desktop reports, if any. xcap truncates logical sizes,
    /// so the measured scale is a little off; the reported one, when it
    /// agrees, places a monitor's origin exactly.
    pub reported_scale: Option<f64>,
}

impl MonitorGeometry {
    /// Real pixels per logical unit.
    pub fn scale(&self) -> f64 {
        if self.logical.w == 0 {
            return 1.0;
        }
        f64::from(self.pixels.0) / f64::from(self.logical.w)
    }

    /// Input units per pixel of the captured image.
    fn input_per_pixel(&self) -> f64 {
        match self.space {
            InputSpace::Pixels => 1.0,
            InputSpace::Points => 1.0 / self.scale(),
        }
    }

    /// The monitor's top left corner in input coordinates.
    fn origin(&self) -> (f64, f64) {
        let (x, y) = (f64::from(self.logical.x), f64::from(self.logical.y));
        let measured = self.scale();
        let scale = self
            .reported_scale
            .filter(|r| (r - measured).abs() <= 0.03 * measured)
            .unwrap_or(measured);
        match self.space {
            InputSpace::Pixels => ((x * scale).round(), (y * scale).round()),
            InputSpace::Points => (x, y),
        }
    }

    /// The monitor's extent in input coordinates.
    pub fn input_bounds(&self) -> Rect {
        let (ox, oy) = self.origin();
        let k = self.input_per_pixel();
        Rect::new(
            ox.round() as i32,
            oy.round() as i32,
            (f64::from(self.pixels.0) * k).round() as u32,
            (f64::from(self.pixels.1) * k).round() as u32,
        )
    }

    /// A position in the captured image (in pixels from its top left
    /// corner; pixel `i` spans `i..i+1`, its centre is `i + 0.5`) as the
    /// input coordinate unit that contains it.
    pub fn to_input(&self, px: f64, py: f64) -> (i32, i32) {
        let (ox, oy) = self.origin();
        let k = self.input_per_pixel();
        // A hair of slack so that exact unit boundaries do not fall back
        // through float error.
        (
            (ox + px * k + 1e-9).floor() as i32,
            (oy + py * k + 1e-9).floor() as i32,
        )
    }

    /// The pixels of the captured image that a region in input coordinates
    /// covers, clipped to the monitor: `(x, y, w, h)`, or `None` when the
    /// region lies outside it.
    pub fn region_pixels(&self, region: Rect) -> Option<(u32, u32, u32, u32)> {
        let (ox, oy) = self.origin();
        let k = self.input_per_pixel();
        let to_px = |v: f64, o: f64| (v - o) / k;
        let x0 = to_px(f64::from(region.x), ox).round().max(0.0);
        let y0 = to_px(f64::from(region.y), oy).round().max(0.0);
        let x1 = to_px(region.right() as f64, ox)
            .round()
            .min(f64::from(self.pixels.0));
        let y1 = to_px(region.bottom() as f64, oy)
            .round()
            .min(f64::from(self.pixels.1));
        (x1 > x0 && y1 > y0).then_some((x0 as u32, y0 as u32, (x1 - x0) as u32, (y1 - y0) as u32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A monitor of `w × h` real pixels at real position `(x, y)` under `scale`.
    fn monitor(x: i32, y: i32, w: u32, h: u32, scale: f64, space: InputSpace) -> MonitorGeometry {
        MonitorGeometry {
            logical: Rect::new(
                (f64::from(x) / scale) as i32,
                (f64::from(y) / scale) as i32,
                (f64::from(w) / scale) as u32,
                (f64::from(h) / scale) as u32,
            ),
            pixels: (w, h),
            space,
            reported_scale: None,
        }
    }

    #[test]
    fn pixels_space_maps_pixels_one_to_one_at_every_scale() {
        for scale in [1.0, 1.25, 1.5, 2.0] {
            let m = monitor(2000, 0, 2000, 1200, scale, InputSpace::Pixels);
            // xcap truncates logical sizes, so the measured scale is close, not exact.
            assert!((m.scale() - scale).abs() < 1e-3, "{scale}");
            // X11 and Windows: a captured pixel is an input pixel, offset by the monitor's origin.
            assert_eq!(m.to_input(0.5, 0.5), (2000, 0), "{scale}");
            assert_eq!(m.to_input(100.5, 50.5), (2100, 50), "{scale}");
            let region = Rect::new(2100, 40, 300, 200);
            assert_eq!(
                m.region_pixels(region),
                Some((100, 40, 300, 200)),
                "{scale}"
            );
        }
    }

    #[test]
    fn points_space_divides_by_the_scale() {
        for scale in [1.0, 1.25, 1.5, 2.0] {
            // macOS: the monitor at (1440, 0) points, captured at `scale` pixels per point.
            let m = MonitorGeometry {
                logical: Rect::new(1440, 0, 1440, 900),
                pixels: ((1440.0 * scale) as u32, (900.0 * scale) as u32),
                space: InputSpace::Points,
                reported_scale: Some(scale),
            };
            assert!((m.scale() - scale).abs() < 1e-9);
            let (x, y) = m.to_input(400.0 * scale + 0.5, 300.0 * scale + 0.5);
            assert_eq!((x, y), (1840, 300), "{scale}");
            // A region in points covers scale× as many pixels.
            let px = m.region_pixels(Rect::new(1540, 100, 200, 100)).unwrap();
            let s = |v: f64| (v * scale).round() as u32;
            assert_eq!(px, (s(100.0), s(100.0), s(200.0), s(100.0)), "{scale}");
            assert_eq!(m.input_bounds(), Rect::new(1440, 0, 1440, 900));
        }
    }

    #[test]
    fn round_trip_stays_inside_the_region() {
        for scale in [1.0, 1.25, 1.5, 2.0] {
            for space in [InputSpace::Pixels, InputSpace::Points] {
                let m = monitor(0, 0, 2560, 1600, scale, space);
                let region = Rect::new(301, 207, 411, 389);
                let (x, y, w, h) = m.region_pixels(region).unwrap();
                // Every pixel of the crop maps back inside the region.
                for (px, py) in [(x, y), (x + w - 1, y + h - 1), (x + w / 2, y + h / 2)] {
                    let (ix, iy) = m.to_input(f64::from(px) + 0.5, f64::from(py) + 0.5);
                    assert!(
                        region.contains(ix, iy),
                        "{scale} {space:?}: ({ix},{iy}) outside {region}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_second_monitor_at_a_fractional_scale_keeps_its_exact_origin() {
        // 2560 real pixels at x = 1920, scale 1.5: xcap reports x 1280 and
        // a width truncated to 1706, so the measured scale is 1.5006.
        let mut m = MonitorGeometry {
            logical: Rect::new(1280, 0, 1706, 960),
            pixels: (2560, 1440),
            space: InputSpace::Pixels,
            reported_scale: None,
        };
        m.reported_scale = Some(1.5);
        assert_eq!(m.to_input(0.5, 0.5), (1920, 0));
        assert_eq!(
            m.region_pixels(Rect::new(2000, 100, 50, 50)),
            Some((80, 100, 50, 50))
        );
        // A reported scale that disagrees with the capture is not trusted.
        m.reported_scale = Some(2.0);
        assert_eq!(m.to_input(0.5, 0.5), (1921, 0));
    }

    #[test]
    fn regions_off_the_monitor_are_clipped_or_refused() {
        let m = monitor(0, 0, 1280, 1024, 1.0, InputSpace::Pixels);
        assert_eq!(
            m.region_pixels(Rect::new(1200, 1000, 200, 200)),
            Some((1200, 1000, 80, 24))
        );
        assert_eq!(m.region_pixels(Rect::new(1300, 0, 10, 10)), None);
    }
}
