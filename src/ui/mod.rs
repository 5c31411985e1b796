//! Windows boardbot draws itself: the drag-select overlay and the practice
//! board. Both are a frame of pixels plus mouse and key events, so this
//! module offers exactly that, over winit and softbuffer.

mod window;

pub use window::{App, Control, UiError, UiEvent, WindowSpec, run};
