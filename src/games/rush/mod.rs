//! Rush Hour (and the "Game About Rectangles"): slide cars until the red
//! one can leave.
//!
//! - [`board`]: the model, Fogleman's 36-character format, bitboard moves;
//! - [`solver`]: the puzzle's rules on the shared core, the fast length-only
//!   search for batch checks, and the puzzle-file format;
//! - [`art`] and [`render`]: the project's own Rush Hour art, for the
//!   practice window, `boardbot render` and the recorded screenshots;
//! - [`read`] and [`letters`]: the board from a screenshot, canonically
//!   lettered;
//! - [`plan`]: a solution as drags, with checkpoints for live play;
//! - [`boards`] and `practice`: the bundled boards and the practice window.
//!
//! Solve, walkthrough, batch, map, trace and export of text boards come
//! from [`crate::tools`].

pub mod art;
pub mod board;
pub mod boards;
pub mod letters;
pub mod plan;
#[cfg(feature = "live")]
pub mod practice;
pub mod read;
pub mod render;
pub mod skin;
pub mod slide;
pub mod solver;

use std::time::Duration;

use image::RgbImage;

use self::board::Puzzle;
use crate::art::render::Art;
use crate::calibration::{Calibration, Embedded};
use crate::game::{Game, GameError, OnScreen, Pacing, PuzzleGame, ScreenGame};
use crate::report::{BoardReport, Report, Verdict};
use crate::tools::options::Options;
use crate::vision::skin::Skin;
use crate::vision::{GridRead, NotLegal, Reading};

pub(crate) const ID: &str = "rush";

/// The text commands, as for any text puzzle.
static TEXT: PuzzleGame<Puzzle> = PuzzleGame::new(
    "Rush Hour: slide cars until the red one leaves; optimal slides, state-space maps, traces; reads screenshots",
);

static LOOKS: [&Embedded; 1] = [&crate::builtin_look!("calibration/rush.toml")];

/// Rush Hour: the text puzzle, plus its art, reader and practice window.
pub struct Rush;

/// The game, as registered.
pub static RUSH: Rush = Rush;

/// Solves a board read for sure and plans its drags.
fn plan_board(board: &str, grid: &GridRead, opts: &Options) -> Result<Report, GameError> {
    let (p, start) = Puzzle::parse(board).map_err(|e| GameError::Parse {
        origin: "the screenshot".into(),
        message: e.to_string(),
    })?;
    let (mut r, moves) = crate::tools::solve_parsed(&p, &start, opts)?;
    r.board = Some(BoardReport::from_rows(p.board_rows(start)));
    let names: Vec<String> = moves.iter().map(ToString::to_string).collect();
    let slides = plan::replay(&p, start, &names).unwrap_or_default();
    r.actions = Some(match r.state {
        Verdict::Playable => slides
            .iter()
            .map(|&(m, s)| plan::drag(&p, s, m, &grid.lattice))
            .collect(),
        _ => Vec::new(),
    });
    r.checkpoints = plan::checkpoints(&p, start, &names);
    Ok(r)
}

/// The game's own art: `render` and the practice window.
static ART: Art = Art {
    render: render::render,
    #[cfg(feature = "live")]
    practice: crate::practice::open::<practice::Window>,
};

impl Game for Rush {
    fn id(&self) -> &'static str {
        ID
    }

    fn text_commands(&self) -> Option<&'static dyn Game> {
        Some(&TEXT)
    }

    fn art(&self) -> Option<&'static Art> {
        Some(&ART)
    }

    fn screen(&self) -> Option<&dyn OnScreen> {
        Some(self)
    }
}

impl ScreenGame for Rush {
    /// The board in Fogleman's 36-character format.
    type Board = String;

    fn looks(&self) -> &'static [&'static Embedded] {
        &LOOKS
    }

    fn read(&self, image: &RgbImage, cal: &Calibration) -> Reading<String> {
        read::read(image, cal)
    }

    fn skin_labels(&self, text: &str) -> Option<Result<Vec<Vec<String>>, GameError>> {
        Some(skin::labels_of(text).map_err(|message| GameError::Parse {
            origin: "the board".into(),
            message: format!("{message}{}", skin::colour_rows_hint(text)),
        }))
    }

    fn skin_board(&self, labels: &[Vec<String>], _skin: &Skin) -> Result<String, NotLegal> {
        skin::board_of(labels).map_err(NotLegal::from)
    }

    fn plan(&self, grid: &GridRead, board: String, opts: &Options) -> Result<Report, GameError> {
        plan_board(&board, grid, opts)
    }

    fn pacing(&self) -> Pacing {
        let ms = Duration::from_millis;
        Pacing {
            // The window snaps a released vehicle to its cell in about 60 ms.
            drag: ms(90),
            settle_gap: ms(15),
            settle_max: ms(600),
            verify: ms(1500),
            ..Pacing::default()
        }
    }
}
