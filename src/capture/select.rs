//! Choosing the region to play in.
//!
//! - The overlay: a frozen capture of the monitor under the mouse, shown
//!   full-screen without borders; drag a rectangle over the board, Esc
//!   cancels.
//! - The keyboard fallback, with no window at all: hover one corner of the
//!   board and press the hotkey, then hover the opposite corner and press it
//!   again. The abort key cancels.

use image::{Rgb, RgbImage};

use super::geometry::MonitorGeometry;
use super::screen::{CaptureError, capture_monitor_at};
use crate::art::font::{draw_text, text_height, text_width};
use crate::geom::Rect;
use crate::input::keys::{Keys, Role};
use crate::input::replay::{Input, ReplayError};
use crate::ui::{self, App, Control, UiError, UiEvent, WindowSpec};

#[derive(Debug, thiserror::Error)]
pub enum SelectError {
    #[error(transparent)]
    Capture(#[from] CaptureError),
    #[error(transparent)]
    Ui(#[from] UiError),
    #[error(transparent)]
    Input(#[from] ReplayError),
    #[error("the selection is empty: drag over the whole board")]
    Empty,
    #[error(transparent)]
    Keys(#[from] crate::input::keys::KeyError),
}

struct Overlay {
    shot: RgbImage,
    dimmed: RgbImage,
    start: Option<(f64, f64)>,
    end: Option<(f64, f64)>,
    done: bool,
}

impl Overlay {
    fn rect(&self) -> Option<(u32, u32, u32, u32)> {
        let (a, b) = (self.start?, self.end?);
        let (x0, x1) = (a.0.min(b.0).max(0.0), a.0.max(b.0));
        let (y0, y1) = (a.1.min(b.1).max(0.0), a.1.max(b.1));
        let (w, h) = (self.shot.width(), self.shot.height());
        let (x0, y0) = (x0.round() as u32, y0.round() as u32);
        let (x1, y1) = ((x1.round() as u32).min(w), (y1.round() as u32).min(h));
        (x1 > x0 + 4 && y1 > y0 + 4).then(|| (x0, y0, x1 - x0, y1 - y0))
    }
}

impl App for Overlay {
    fn draw(&mut self, frame: &mut RgbImage) {
        let (fw, fh) = frame.dimensions();
        for (x, y, p) in frame.enumerate_pixels_mut() {
            *p = if x < self.dimmed.width() && y < self.dimmed.height() {
                *self.dimmed.get_pixel(x, y)
            } else {
                Rgb([0, 0, 0])
            };
        }
        let hint = "DRAG OVER THE BOARD - ESC CANCELS";
        let s = (fw / 700).max(2);
        draw_text(
            frame,
            i64::from(fw.saturating_sub(text_width(hint, s)) / 2),
            20,
            hint,
            s,
            Rgb([255, 255, 255]),
        );
        if let Some((x, y, w, h)) = self.rect() {
            for yy in y..(y + h).min(fh) {
                for xx in x..(x + w).min(fw) {
                    let edge = xx < x + 2 || yy < y + 2 || xx + 2 >= x + w || yy + 2 >= y + h;
                    let p = if edge {
                        Rgb([255, 40, 200])
                    } else {
                        *self.shot.get_pixel(xx, yy)
                    };
                    frame.put_pixel(xx, yy, p);
                }
            }
            let label = format!("{w}X{h}");
            let ly = i64::from(y + h) + 6;
            let ly = if ly + i64::from(text_height(s)) > i64::from(fh) {
                i64::from(y) - 6 - i64::from(text_height(s))
            } else {
                ly
            };
            draw_text(frame, i64::from(x), ly, &label, s, Rgb([255, 255, 255]));
        }
    }

    fn event(&mut self, event: UiEvent) -> Control {
        match event {
            UiEvent::MouseDown { x, y, .. } => {
                self.start = Some((x, y));
                self.end = Some((x, y));
                Control::Redraw
            }
            UiEvent::MouseMove { x, y } if self.start.is_some() && !self.done => {
                self.end = Some((x, y));
                Control::Redraw
            }
            UiEvent::MouseUp { x, y, .. } if self.start.is_some() => {
                self.end = Some((x, y));
                if self.rect().is_some() {
                    self.done = true;
                    Control::Exit
                } else {
                    self.start = None;
                    Control::Redraw
                }
            }
            UiEvent::Key(k) if k == "Escape" => {
                self.start = None;
                self.done = false;
                Control::Exit
            }
            UiEvent::Close => Control::Exit,
            _ => Control::Continue,
        }
    }
}

/// Shows the overlay on the monitor under the mouse. `None` when cancelled.
pub fn with_overlay() -> Result<Option<Rect>, SelectError> {
    let mouse = Input::new()?.mouse()?;
    let (shot, monitor) = capture_monitor_at(mouse.0, mouse.1)?;
    let dimmed = RgbImage::from_fn(shot.width(), shot.height(), |x, y| {
        let p = shot.get_pixel(x, y).0;
        Rgb(p.map(|v| (u16::from(v) * 2 / 5) as u8))
    });
    let origin = monitor.input_bounds();
    let mut app = Overlay {
        shot,
        dimmed,
        start: None,
        end: None,
        done: false,
    };
    let spec = WindowSpec {
        title: "boardbot: select the board".into(),
        position: Some((origin.x, origin.y)),
        size: (app.shot.width(), app.shot.height()),
        decorations: false,
        on_top: true,
    };
    ui::run(spec, &mut app)?;
    if !app.done {
        return Ok(None);
    }
    let (x, y, w, h) = app.rect().ok_or(SelectError::Empty)?;
    Ok(Some(region_of(&monitor, x, y, w, h)))
}

/// The input-coordinate region covering pixels `(x, y, w, h)` of a monitor.
fn region_of(m: &MonitorGeometry, x: u32, y: u32, w: u32, h: u32) -> Rect {
    let (x0, y0) = m.to_input(f64::from(x), f64::from(y));
    let (x1, y1) = m.to_input(f64::from(x + w), f64::from(y + h));
    Rect::new(x0, y0, (x1 - x0).max(1) as u32, (y1 - y0).max(1) as u32)
}

/// The keyboard fallback: two presses of `hotkey` at opposite corners.
/// `None` when `abort_key` cancels. The keys are held only meanwhile.
pub fn with_keys(
    keys: &mut Keys,
    hotkey: &str,
    abort_key: &str,
) -> Result<Option<Rect>, SelectError> {
    let mut borrowed = Vec::new();
    for (spec, role) in [(hotkey, Role::Play), (abort_key, Role::Abort)] {
        if keys.name(role).is_none() {
            keys.listen(spec, role)?;
            borrowed.push(role);
        }
    }
    let picked = corners(keys);
    for role in borrowed {
        keys.release(role);
    }
    picked
}

fn corners(keys: &Keys) -> Result<Option<Rect>, SelectError> {
    let input = Input::new()?;
    let play = keys.name(Role::Play).unwrap_or("the hotkey").to_string();
    let abort = keys
        .name(Role::Abort)
        .unwrap_or("the abort key")
        .to_string();
    keys.drain();
    let mut corners = Vec::new();
    for which in ["one corner", "the opposite corner"] {
        eprintln!("Hover the mouse over {which} of the board and press {play} ({abort} cancels).");
        match keys.wait(None) {
            Some(Role::Play) => corners.push(input.mouse()?),
            _ => return Ok(None),
        }
    }
    let (a, b) = (corners[0], corners[1]);
    let r = Rect::new(
        a.0.min(b.0),
        a.1.min(b.1),
        a.0.abs_diff(b.0),
        a.1.abs_diff(b.1),
    );
    if r.w < 8 || r.h < 8 {
        return Err(SelectError::Empty);
    }
    Ok(Some(r))
}
