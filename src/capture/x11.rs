//! Region capture on X11: GetImage of just the region from the root
//! window, instead of the whole monitor. Only the common 24-bit true-colour
//! layout (32 bits a pixel, little-endian BGRX) is read here; anything else
//! says so, and the caller falls back to capturing the whole monitor.

use image::RgbImage;
use x11rb::connection::Connection;
use x11rb::protocol::xproto::{ConnectionExt, ImageFormat, ImageOrder, Window};
use x11rb::rust_connection::RustConnection;

use crate::geom::Rect;

/// An X connection whose root window can be read.
pub struct RootImage {
    conn: RustConnection,
    root: Window,
}

impl RootImage {
    /// Connects to `DISPLAY` and checks the root window's pixel layout.
    pub fn open() -> Result<RootImage, String> {
        let (conn, n) = x11rb::connect(None).map_err(|e| e.to_string())?;
        let setup = conn.setup();
        let screen = &setup.roots[n];
        let bpp = setup
            .pixmap_formats
            .iter()
            .find(|f| f.depth == screen.root_depth)
            .map(|f| f.bits_per_pixel);
        let visual = screen
            .allowed_depths
            .iter()
            .flat_map(|d| &d.visuals)
            .find(|v| v.visual_id == screen.root_visual);
        let bgrx = visual
            .is_some_and(|v| (v.red_mask, v.green_mask, v.blue_mask) == (0xff_0000, 0xff00, 0xff));
        if bpp != Some(32) || !bgrx || setup.image_byte_order != ImageOrder::LSB_FIRST {
            return Err(format!(
                "the root window's pixel layout (depth {}, {bpp:?} bits a pixel) is not read here",
                screen.root_depth
            ));
        }
        let root = screen.root;
        Ok(RootImage { conn, root })
    }

    /// The pixels of `r`, in root-window pixels.
    pub fn grab(&self, r: Rect) -> Result<RgbImage, String> {
        let fit = |v: i32| i16::try_from(v).map_err(|_| format!("{r} is beyond X11's range"));
        let size = |v: u32| u16::try_from(v).map_err(|_| format!("{r} is beyond X11's range"));
        let reply = self
            .conn
            .get_image(
                ImageFormat::Z_PIXMAP,
                self.root,
                fit(r.x)?,
                fit(r.y)?,
                size(r.w)?,
                size(r.h)?,
                u32::MAX,
            )
            .map_err(|e| e.to_string())?
            .reply()
            .map_err(|e| e.to_string())?;
        let need = r.w as usize * r.h as usize * 4;
        if reply.data.len() < need {
            return Err(format!(
                "GetImage gave {} bytes for {r}, not {need}",
                reply.data.len()
            ));
        }
        let mut rgb = Vec::with_capacity(need / 4 * 3);
        for px in reply.data[..need].chunks_exact(4) {
            rgb.extend_from_slice(&[px[2], px[1], px[0]]);
        }
        RgbImage::from_raw(r.w, r.h, rgb).ok_or_else(|| "image size mismatch".to_string())
    }
}

/// Which top-level window is under a point of the screen: the guard that
/// stops a play when the game's window closes or another one covers it.
pub struct WindowAt {
    conn: RustConnection,
    root: Window,
}

impl WindowAt {
    /// Connects to `DISPLAY`.
    pub fn open() -> Result<WindowAt, String> {
        let (conn, n) = x11rb::connect(None).map_err(|e| e.to_string())?;
        let root = conn.setup().roots[n].root;
        Ok(WindowAt { conn, root })
    }

    /// The topmost window (a child of the root: the application's window,
    /// or its window manager's frame) that holds the point `(x, y)` of the
    /// screen; `None` where there is only the desktop, or on error.
    pub fn at(&self, x: i32, y: i32) -> Option<Window> {
        let (x, y) = (i16::try_from(x).ok()?, i16::try_from(y).ok()?);
        let reply = self
            .conn
            .translate_coordinates(self.root, self.root, x, y)
            .ok()?
            .reply()
            .ok()?;
        (reply.child != x11rb::NONE).then_some(reply.child)
    }
}
