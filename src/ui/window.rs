//! A window that shows an RGB frame and reports mouse and key events.

use std::num::NonZeroU32;
use std::rc::Rc;
use std::time::{Duration, Instant};

use image::RgbImage;
use winit::application::ApplicationHandler;
use winit::dpi::{PhysicalPosition, PhysicalSize};
use winit::event::{ElementState, MouseButton, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::{Key, NamedKey};
use winit::window::{Window, WindowAttributes, WindowId};

#[derive(Debug, thiserror::Error)]
pub enum UiError {
    #[error(
        "no display to open a window on: neither DISPLAY nor WAYLAND_DISPLAY is set; run boardbot on a desktop (or under Xvfb)"
    )]
    NoDisplay,
    #[error("cannot open a window: {0}. Is a display available (DISPLAY or WAYLAND_DISPLAY)?")]
    Open(String),
    #[error("cannot draw into the window: {0}")]
    Draw(String),
}

/// What to open.
#[derive(Clone, Debug)]
pub struct WindowSpec {
    pub title: String,
    /// Top left of the window's inside, in screen pixels; `None` lets the
    /// desktop place it.
    pub position: Option<(i32, i32)>,
    /// Inside size in pixels.
    pub size: (u32, u32),
    pub decorations: bool,
    /// Stay above other windows (the selection overlay).
    pub on_top: bool,
}

/// Something happened in the window. Positions are in the window's pixels
/// and, for `screen`, in the screen's pixels.
#[derive(Clone, Debug, PartialEq)]
pub enum UiEvent {
    MouseDown {
        x: f64,
        y: f64,
        screen: (i32, i32),
    },
    MouseUp {
        x: f64,
        y: f64,
        screen: (i32, i32),
    },
    MouseMove {
        x: f64,
        y: f64,
    },
    /// A key, by name: `Escape`, `Enter`, or the character typed.
    Key(String),
    /// A key let go, named as when it was pressed.
    KeyUp(String),
    /// The window's inside is now at this screen position.
    Placed {
        x: i32,
        y: i32,
    },
    /// A timer set by [`App::next_tick`] fired.
    Tick,
    /// The user asked to close the window.
    Close,
}

/// The X window id of `w`, on X11.
#[cfg(target_os = "linux")]
fn xid_of(w: &Window) -> Option<u32> {
    use winit::raw_window_handle::{HasWindowHandle, RawWindowHandle};
    match w.window_handle().ok()?.as_raw() {
        RawWindowHandle::Xlib(h) => u32::try_from(h.window).ok(),
        RawWindowHandle::Xcb(h) => Some(h.window.get()),
        _ => None,
    }
}

/// Sets the X keyboard focus on `w`: without a window manager (Xvfb),
/// winit's own request goes unanswered and key presses never reach it.
#[cfg(target_os = "linux")]
fn take_x11_focus(w: &Window) {
    use x11rb::connection::Connection;
    use x11rb::protocol::xproto::{ConnectionExt, InputFocus};
    let Some(xid) = xid_of(w) else { return };
    if let Some(conn) = x11_connection() {
        let _ = conn.set_input_focus(InputFocus::PARENT, xid, x11rb::CURRENT_TIME);
        let _ = conn.flush();
    }
}

/// Waits, up to half a second, until the X server shows window `xid` no
/// more: a window closed when its loop ends may linger on a bare X server
/// (no window manager), and catch the clicks meant for the game under it.
#[cfg(target_os = "linux")]
fn wait_unmapped(xid: u32) {
    use x11rb::protocol::xproto::{ConnectionExt, MapState};
    let Some(conn) = x11_connection() else { return };
    let t = Instant::now();
    while t.elapsed() < Duration::from_millis(500) {
        let shown = conn
            .get_window_attributes(xid)
            .ok()
            .and_then(|c| c.reply().ok())
            .is_some_and(|a| a.map_state == MapState::VIEWABLE);
        if !shown {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// One X connection for the focus requests, opened when the window opens:
/// connecting on the click itself would delay the focus by milliseconds,
/// and keys sent meanwhile would be lost.
#[cfg(target_os = "linux")]
fn x11_connection() -> Option<&'static x11rb::rust_connection::RustConnection> {
    static CONN: std::sync::OnceLock<Option<x11rb::rust_connection::RustConnection>> =
        std::sync::OnceLock::new();
    CONN.get_or_init(|| x11rb::connect(None).ok().map(|(conn, _)| conn))
        .as_ref()
}

/// What the app wants after an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    Continue,
    Redraw,
    Exit,
}

/// The program behind a window.
pub trait App {
    /// Fills the frame, which has the window's inside size.
    fn draw(&mut self, frame: &mut RgbImage);
    fn event(&mut self, event: UiEvent) -> Control;
    /// When to send the next [`UiEvent::Tick`], for animation.
    fn next_tick(&self) -> Option<Duration> {
        None
    }
}

struct Runner<'a, A: App> {
    spec: WindowSpec,
    app: &'a mut A,
    window: Option<Rc<Window>>,
    surface: Option<softbuffer::Surface<Rc<Window>, Rc<Window>>>,
    frame: RgbImage,
    cursor: (f64, f64),
    next_tick: Option<Instant>,
    error: Option<UiError>,
    placed: Option<(i32, i32)>,
    /// The X window id, to check it is gone once the loop ends.
    xid: Option<u32>,
}

impl<A: App> Runner<'_, A> {
    fn screen_of(&self, x: f64, y: f64) -> (i32, i32) {
        let origin = self
            .window
            .as_ref()
            .and_then(|w| w.inner_position().ok())
            .map_or((0, 0), |p| (p.x, p.y));
        (origin.0 + x.round() as i32, origin.1 + y.round() as i32)
    }

    /// A `Placed` event when the window's inside moved since the last one
    /// (`first`: also when none was reported yet).
    fn moved(&mut self, first: bool) -> Option<UiEvent> {
        let pos = self
            .window
            .as_ref()?
            .inner_position()
            .ok()
            .map(|p| (p.x, p.y))?;
        if self.placed == Some(pos) || (self.placed.is_none() && !first) {
            return None;
        }
        self.placed = Some(pos);
        Some(UiEvent::Placed { x: pos.0, y: pos.1 })
    }

    fn apply(&mut self, control: Control, event_loop: &ActiveEventLoop) {
        match control {
            Control::Continue => {}
            Control::Redraw => {
                if let Some(w) = &self.window {
                    w.request_redraw();
                }
            }
            Control::Exit => {
                // Closed while the loop still runs, so that the X server
                // unmaps it before anything else happens on the screen.
                self.surface = None;
                self.window = None;
                event_loop.exit();
            }
        }
    }

    fn redraw(&mut self) -> Result<(), UiError> {
        let (Some(window), Some(surface)) = (&self.window, &mut self.surface) else {
            return Ok(());
        };
        let size = window.inner_size();
        let (w, h) = (size.width.max(1), size.height.max(1));
        if self.frame.dimensions() != (w, h) {
            self.frame = RgbImage::new(w, h);
        }
        self.app.draw(&mut self.frame);
        let (nw, nh) = (
            NonZeroU32::new(w).expect("w >= 1"),
            NonZeroU32::new(h).expect("h >= 1"),
        );
        surface
            .resize(nw, nh)
            .map_err(|e| UiError::Draw(e.to_string()))?;
        let mut buf = surface
            .buffer_mut()
            .map_err(|e| UiError::Draw(e.to_string()))?;
        for (dst, px) in buf.iter_mut().zip(self.frame.pixels()) {
            let [r, g, b] = px.0;
            *dst = (u32::from(r) << 16) | (u32::from(g) << 8) | u32::from(b);
        }
        buf.present().map_err(|e| UiError::Draw(e.to_string()))
    }
}

impl<A: App> ApplicationHandler for Runner<'_, A> {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.window.is_some() {
            return;
        }
        #[cfg(target_os = "linux")]
        x11_connection();
        let mut attrs = WindowAttributes::default()
            .with_title(self.spec.title.clone())
            .with_inner_size(PhysicalSize::new(self.spec.size.0, self.spec.size.1))
            .with_resizable(false)
            .with_decorations(self.spec.decorations);
        if let Some((x, y)) = self.spec.position {
            attrs = attrs.with_position(PhysicalPosition::new(x, y));
        }
        if self.spec.on_top {
            attrs = attrs.with_window_level(winit::window::WindowLevel::AlwaysOnTop);
        }
        let made = event_loop
            .create_window(attrs)
            .map_err(|e| UiError::Open(plain(&e)))
            .and_then(|w| {
                let w = Rc::new(w);
                let ctx = softbuffer::Context::new(w.clone())
                    .map_err(|e| UiError::Open(e.to_string()))?;
                let surface = softbuffer::Surface::new(&ctx, w.clone())
                    .map_err(|e| UiError::Open(e.to_string()))?;
                Ok((w, surface))
            });
        match made {
            Ok((w, s)) => {
                w.request_redraw();
                #[cfg(target_os = "linux")]
                {
                    self.xid = xid_of(&w);
                }
                self.window = Some(w);
                self.surface = Some(s);
            }
            Err(e) => {
                self.error = Some(e);
                event_loop.exit();
            }
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let ui = match event {
            WindowEvent::CloseRequested => Some(UiEvent::Close),
            WindowEvent::Destroyed => None,
            WindowEvent::RedrawRequested => {
                if let Err(e) = self.redraw() {
                    self.error = Some(e);
                    event_loop.exit();
                }
                // Report where the window landed once it is on screen.
                self.moved(true)
            }
            WindowEvent::Moved(_) => self.moved(false),
            WindowEvent::CursorMoved { position, .. } => {
                self.cursor = (position.x, position.y);
                Some(UiEvent::MouseMove {
                    x: position.x,
                    y: position.y,
                })
            }
            WindowEvent::MouseInput {
                state,
                button: MouseButton::Left,
                ..
            } => {
                let (x, y) = self.cursor;
                let screen = self.screen_of(x, y);
                // A click gives the window the keyboard, as a window
                // manager would (a bare X server such as Xvfb has none).
                if let (ElementState::Pressed, Some(w)) = (state, &self.window) {
                    w.focus_window();
                    #[cfg(target_os = "linux")]
                    take_x11_focus(w);
                }
                Some(match state {
                    ElementState::Pressed => UiEvent::MouseDown { x, y, screen },
                    ElementState::Released => UiEvent::MouseUp { x, y, screen },
                })
            }
            WindowEvent::KeyboardInput { event, .. } => {
                let name = match &event.logical_key {
                    Key::Named(NamedKey::Escape) => "Escape".to_string(),
                    Key::Named(NamedKey::Enter) => "Enter".to_string(),
                    Key::Named(other) => format!("{other:?}"),
                    Key::Character(c) => c.to_string(),
                    _ => return,
                };
                Some(match event.state {
                    ElementState::Pressed => UiEvent::Key(name),
                    ElementState::Released => UiEvent::KeyUp(name),
                })
            }
            _ => None,
        };
        if let Some(ui) = ui {
            let control = self.app.event(ui);
            self.apply(control, event_loop);
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        let now = Instant::now();
        if self.next_tick.is_some_and(|t| t <= now) {
            self.next_tick = None;
            let control = self.app.event(UiEvent::Tick);
            self.apply(control, event_loop);
        }
        if self.next_tick.is_none() {
            self.next_tick = self.app.next_tick().map(|d| now + d);
        }
        event_loop.set_control_flow(match self.next_tick {
            Some(t) => ControlFlow::WaitUntil(t),
            None => ControlFlow::Wait,
        });
    }
}

thread_local! {
    /// The one event loop: winit makes one per process, and runs it again
    /// for each window (the selection overlay at each press of the hotkey).
    static EVENT_LOOP: std::cell::RefCell<Option<EventLoop<()>>> =
        const { std::cell::RefCell::new(None) };
}

/// An error of winit's in words for people, without the source path it
/// starts with (`os error at …/winit-…/src/….rs:12: …`).
fn plain(e: &impl std::fmt::Display) -> String {
    let text = e.to_string();
    match text.strip_prefix("os error at ") {
        Some(rest) => rest
            .split_once(": ")
            .map_or(rest.to_string(), |(_, why)| why.to_string()),
        None => text,
    }
}

/// Opens the window and runs `app` until it exits or the window closes.
/// The window is gone from the screen when this returns.
pub fn run<A: App>(spec: WindowSpec, app: &mut A) -> Result<(), UiError> {
    use winit::platform::run_on_demand::EventLoopExtRunOnDemand;
    let mut runner = Runner {
        frame: RgbImage::new(spec.size.0.max(1), spec.size.1.max(1)),
        spec,
        app,
        window: None,
        surface: None,
        cursor: (0.0, 0.0),
        next_tick: None,
        error: None,
        placed: None,
        xid: None,
    };
    if std::env::var_os("DISPLAY").is_none() && std::env::var_os("WAYLAND_DISPLAY").is_none() {
        return Err(UiError::NoDisplay);
    }
    EVENT_LOOP.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            *slot = Some(EventLoop::new().map_err(|e| UiError::Open(plain(&e)))?);
        }
        let Some(event_loop) = slot.as_mut() else {
            return Err(UiError::Open("no event loop".into()));
        };
        event_loop
            .run_app_on_demand(&mut runner)
            .map_err(|e| UiError::Open(plain(&e)))
    })?;
    runner.surface = None;
    runner.window = None;
    #[cfg(target_os = "linux")]
    if let Some(xid) = runner.xid {
        wait_unmapped(xid);
    }
    match runner.error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}
