//! Grabs a region of the screen: with xcap, and on X11 after the first
//! capture with GetImage of the region alone ([`Grabber`]).
//!
//! xcap's own `capture_region` is not used: with a DPI scale set it checks
//! bounds in scaled units but offsets in real pixels, and rejects valid
//! regions. Instead the whole monitor is captured and cropped here. Some
//! X servers (Xvfb among them) report no primary monitor, so the monitor is
//! chosen by the region's position, not by primacy.

use std::time::{Duration, Instant};

use image::RgbImage;

use super::geometry::{InputSpace, MonitorGeometry};
use crate::geom::Rect;

#[derive(Debug, thiserror::Error)]
pub enum CaptureError {
    #[error(
        "cannot list the screen's monitors: {0}. On Wayland, boardbot captures through the desktop portal: \
         allow it when asked; on X11, check DISPLAY"
    )]
    Monitors(String),
    #[error("no monitor shows the region {region} (monitors: {monitors})")]
    NoMonitor { region: Rect, monitors: String },
    #[error("screen capture failed {attempts} times: {last}")]
    Failed { attempts: u32, last: String },
    #[error("the region {region} lies outside its monitor {monitor}")]
    OffScreen { region: Rect, monitor: Rect },
}

/// A captured region.
pub struct Capture {
    /// The region's pixels.
    pub image: RgbImage,
    /// The monitor it came from.
    pub monitor: MonitorGeometry,
    /// Where the crop sits in the monitor's image: `(x, y)` pixels.
    pub offset: (u32, u32),
    pub ms: f64,
}

impl Capture {
    /// A pixel of the crop in input coordinates.
    pub fn to_input(&self, x: f64, y: f64) -> (i32, i32) {
        self.monitor
            .to_input(f64::from(self.offset.0) + x, f64::from(self.offset.1) + y)
    }
}

struct Found {
    monitor: xcap::Monitor,
    logical: Rect,
    scale: f64,
}

fn describe(monitors: &[Found]) -> String {
    monitors
        .iter()
        .map(|m| format!("{} at scale {}", m.logical, m.scale))
        .collect::<Vec<_>>()
        .join(", ")
}

fn monitors() -> Result<Vec<Found>, CaptureError> {
    let all = xcap::Monitor::all().map_err(|e| CaptureError::Monitors(e.to_string()))?;
    let mut out = Vec::new();
    for m in all {
        let get = || -> Result<Found, xcap::XCapError> {
            Ok(Found {
                logical: Rect::new(m.x()?, m.y()?, m.width()?, m.height()?),
                scale: f64::from(m.scale_factor()?).max(0.1),
                monitor: m.clone(),
            })
        };
        if let Ok(f) = get() {
            out.push(f);
        }
    }
    if out.is_empty() {
        return Err(CaptureError::Monitors(
            "the display reports no monitor".into(),
        ));
    }
    Ok(out)
}

/// The monitor whose input extent holds the centre of `region` (or, failing
/// that, overlaps it most).
fn pick(region: Rect, found: Vec<Found>) -> Result<Found, CaptureError> {
    let space = InputSpace::native();
    let bounds = |f: &Found| {
        MonitorGeometry {
            logical: f.logical,
            pixels: (
                (f64::from(f.logical.w) * f.scale).round() as u32,
                (f64::from(f.logical.h) * f.scale).round() as u32,
            ),
            space,
            reported_scale: Some(f.scale),
        }
        .input_bounds()
    };
    let mid = |a: i32, len: u32| {
        (i64::from(a) + i64::from(len) / 2).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    };
    let (cx, cy) = (mid(region.x, region.w), mid(region.y, region.h));
    let overlap = |b: Rect| {
        let w = (region.right().min(b.right()) - i64::from(region.x.max(b.x))).max(0);
        let h = (region.bottom().min(b.bottom()) - i64::from(region.y.max(b.y))).max(0);
        w * h
    };
    let text = describe(&found);
    let best = found
        .into_iter()
        .map(|f| {
            let b = bounds(&f);
            (b.contains(cx, cy), overlap(b), f)
        })
        .filter(|(inside, area, _)| *inside || *area > 0)
        .max_by_key(|(inside, area, _)| (*inside, *area));
    best.map(|(_, _, f)| f).ok_or(CaptureError::NoMonitor {
        region,
        monitors: text,
    })
}

/// Captures the monitor showing `region`, retrying a failed capture a few
/// times with a short back-off.
fn grab(region: Rect) -> Result<(image::RgbaImage, MonitorGeometry), CaptureError> {
    let found = pick(region, monitors()?)?;
    const ATTEMPTS: u32 = 4;
    let mut last = String::new();
    for attempt in 0..ATTEMPTS {
        match found.monitor.capture_image() {
            Ok(shot) => {
                let monitor = MonitorGeometry {
                    logical: found.logical,
                    pixels: shot.dimensions(),
                    space: InputSpace::native(),
                    reported_scale: Some(found.scale),
                };
                return Ok((shot, monitor));
            }
            Err(e) => {
                last = e.to_string();
                std::thread::sleep(Duration::from_millis(30 << attempt));
            }
        }
    }
    Err(CaptureError::Failed {
        attempts: ATTEMPTS,
        last,
    })
}

fn rgb_crop(shot: &image::RgbaImage, x: u32, y: u32, w: u32, h: u32) -> RgbImage {
    RgbImage::from_fn(w, h, |px, py| {
        let p = shot.get_pixel(x + px, y + py).0;
        image::Rgb([p[0], p[1], p[2]])
    })
}

/// Captures `region`, given in input coordinates.
pub fn capture(region: Rect) -> Result<Capture, CaptureError> {
    let t = Instant::now();
    let (shot, monitor) = grab(region)?;
    let (x, y, w, h) = monitor
        .region_pixels(region)
        .ok_or(CaptureError::OffScreen {
            region,
            monitor: monitor.input_bounds(),
        })?;
    Ok(Capture {
        image: rgb_crop(&shot, x, y, w, h),
        monitor,
        offset: (x, y),
        ms: crate::report::ms_since(t),
    })
}

/// Captures the whole monitor under a point (for the selection overlay).
pub fn capture_monitor_at(x: i32, y: i32) -> Result<(RgbImage, MonitorGeometry), CaptureError> {
    let (shot, monitor) = grab(Rect::new(x, y, 1, 1))?;
    let (w, h) = shot.dimensions();
    Ok((rgb_crop(&shot, 0, 0, w, h), monitor))
}

/// What a full capture of a region taught: its monitor and where the
/// region sits in that monitor's pixels.
#[derive(Clone, Copy)]
struct Known {
    region: Rect,
    monitor: MonitorGeometry,
    crop: (u32, u32, u32, u32),
}

/// Captures regions. The first capture of a region grabs the whole monitor
/// and crops it (which also measures the monitor's scale); after that, on
/// X11, only the region is read (GetImage), with the monitor remembered.
/// If region capture fails, it falls back to the whole monitor for good.
#[derive(Default)]
pub struct Grabber {
    known: Option<Known>,
    #[cfg(all(unix, not(target_os = "macos")))]
    root: Option<Result<super::x11::RootImage, String>>,
}

impl Grabber {
    /// A grabber with its X connection (on X11) already open, so that the
    /// first play does not pay for opening it.
    pub fn new() -> Grabber {
        Grabber {
            known: None,
            #[cfg(all(unix, not(target_os = "macos")))]
            root: Some(super::x11::RootImage::open()),
        }
    }

    /// Captures `region`, given in input coordinates.
    pub fn capture(&mut self, region: Rect) -> Result<Capture, CaptureError> {
        if let Some(k) = self.known.filter(|k| k.region == region) {
            if let Some(cap) = self.region_only(&k) {
                return Ok(cap);
            }
        }
        let cap = capture(region)?;
        self.known = Some(Known {
            region,
            monitor: cap.monitor,
            crop: (
                cap.offset.0,
                cap.offset.1,
                cap.image.width(),
                cap.image.height(),
            ),
        });
        Ok(cap)
    }

    /// The region alone, where the platform can: `None` to fall back.
    #[cfg(all(unix, not(target_os = "macos")))]
    fn region_only(&mut self, k: &Known) -> Option<Capture> {
        let t = Instant::now();
        let root = self
            .root
            .get_or_insert_with(super::x11::RootImage::open)
            .as_ref()
            .ok()?;
        let (x, y, w, h) = k.crop;
        // X11 input coordinates are root-window pixels.
        let (rx, ry) = k.monitor.to_input(f64::from(x) + 0.5, f64::from(y) + 0.5);
        match root.grab(Rect::new(rx, ry, w, h)) {
            Ok(image) => Some(Capture {
                image,
                monitor: k.monitor,
                offset: (x, y),
                ms: crate::report::ms_since(t),
            }),
            Err(e) => {
                self.root = Some(Err(e));
                None
            }
        }
    }

    #[cfg(not(all(unix, not(target_os = "macos"))))]
    fn region_only(&mut self, _: &Known) -> Option<Capture> {
        None
    }
}
