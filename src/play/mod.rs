//! Live play: a game played through a step function over what is seen.
//!
//! ```text
//! settle (two equal captures) → read → Step ─┬─ Act: check, send a segment, look again ─┐
//!                                             ├─ Settle: look again                       │
//!                                             ├─ Done / Refuse: stop                      │
//!                                             └──────── re-plan when the board differs ◄──┘
//! ```
//!
//! - the [`crate::game::Step`] a game returns and its
//!   [`crate::game::Pacing`] live in [`crate::game`], so games never import `play`;
//! - [`cycle`]: the loop's decisions over any [`cycle::Screen`] (pure,
//!   tested with a fake screen);
//! - `live`: the real screen (xcap or X11 capture, enigo input, the abort
//!   key), the [`live::Player`] and what it reports (live feature).

pub mod cycle;
#[cfg(feature = "live")]
pub mod live;
