//! Capture: choosing a region of the screen, grabbing it, and mapping its
//! pixels back to the coordinates input is sent in.
//!
//! - [`geometry`]: pixels, logical units and input coordinates (pure, tested
//!   at every scale);
//! - `screen`: grabbing a region with xcap, or on X11 the region alone
//!   with GetImage (`x11`) (live feature);
//! - `select`: the drag-select overlay and the keyboard fallback (live);
//! - `regions`: the region remembered per game (live).

pub mod geometry;
#[cfg(feature = "live")]
pub mod regions;
#[cfg(feature = "live")]
pub mod screen;
#[cfg(feature = "live")]
pub mod select;
#[cfg(all(feature = "live", unix, not(target_os = "macos")))]
pub mod x11;

pub use geometry::{InputSpace, MonitorGeometry};
