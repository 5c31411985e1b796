//! GNOME Klotski end to end on a real X server: the game runs on a private
//! Xvfb display under its own D-Bus session with private settings
//! (tests/common/klotski.rs).
//!
//! When Xvfb, xdotool, dbus-run-session or gnome-klotski is missing the
//! tests say so and skip, except in CI (.ci/deps installs them).
#![cfg(feature = "live")]

mod common;

use common::display::xvfb;
use common::klotski::{self, Klotski};

#[test]
fn the_launcher_opens_the_level_asked_for_in_a_window_of_the_size_asked_for() {
    if !klotski::available() {
        return;
    }
    let Some(d) = xvfb(81) else {
        return;
    };
    let small = Klotski::open(&d.name, 0, None);
    assert_eq!(small.title(), "Only 18 Steps");
    // 6x9 cells of 48 px in the default window (research: 600x500).
    assert_eq!((small.frame.2, small.frame.3), (6 * 48 + 4, 9 * 48 + 4));
    assert_eq!(small.cells(6, 9).2, 48.0);
    assert!(!small.solved() && small.dialog().is_none() && small.score().is_none());
    drop(small);
    let big = Klotski::open(&d.name, 27, Some((1200, 960)));
    assert_eq!(big.title(), "Sunshine");
    assert!(big.rect.2 >= 1200, "window-width was not taken: {:?}", big.rect);
    let (_, _, pitch) = big.cells(17, 22);
    assert!(pitch >= 40.0, "Sunshine's cells are {pitch} px in a 1200x960 window");
}
