//! What `boardbot render` asks of a game: draw a position with the game's
//! own art, as its practice window shows it, and say what a reader must
//! read from the picture. The recorded test screenshots are made this way.

/// How to draw a position.
#[derive(Clone, Debug)]
pub struct RenderOptions {
    /// Cell pitch in pixels.
    pub pitch: f64,
    /// Page around the board: left, top, right, bottom, in pixels.
    pub margins: [f64; 4],
    pub seed: u64,
    /// Draw this move part-way, at this fraction (0–1) of its animation:
    /// the frame a capture may catch while the window animates.
    pub moving: Option<(String, f64)>,
    /// Judge the position too (`state` in the expected reading), which
    /// may take a search; drawing alone never does.
    pub verdict: bool,
}

impl RenderOptions {
    /// A still picture at `pitch` px a cell, with a page of 0.4 pitch all
    /// round, drawn with seed 1 and not judged: a plain screenshot.
    pub fn still(pitch: f64) -> Self {
        RenderOptions {
            pitch,
            margins: [pitch * 0.4; 4],
            seed: 1,
            moving: None,
            verdict: false,
        }
    }

    /// The verdict a reader must give, from `judge`, when asked for;
    /// else `null`: drawing never waits on a search.
    pub fn judged(&self, judge: impl FnOnce() -> &'static str) -> serde_json::Value {
        if self.verdict {
            judge().into()
        } else {
            serde_json::Value::Null
        }
    }
}

/// A drawn position and the reading it must give.
pub struct Rendered {
    pub image: image::RgbImage,
    /// The expected reading, as JSON: `state` (a verdict name, when the
    /// options asked for it; else null), `cells`
    /// (the rows when the board can be read), and `grid` as
    /// `[rows, x0, x1, y0, y1]`.
    pub expect: serde_json::Value,
}

/// A game's own art: how `boardbot render` draws a position, and how
/// `boardbot practice` opens the game's window (both in boardbot's art).
pub struct Art {
    /// Draws a position given as text; `origin` names it in messages.
    pub render: fn(&str, &str, &RenderOptions) -> Result<Rendered, crate::game::GameError>,
    /// Opens the practice window and plays it until it is closed; one line
    /// for the user on how the session went.
    #[cfg(feature = "live")]
    pub practice: fn(&crate::practice::PracticeOptions) -> Result<String, crate::game::GameError>,
}
