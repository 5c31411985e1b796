//! What a game is, to the rest of boardbot: the object-safe [`Game`]
//! trait the command line and the live player call, the errors games
//! return, and [`PuzzleGame`], which makes any text puzzle a game.
//!
//! - [`screen`]: a game read from screenshots ([`ScreenGame`] declares its
//!   reader, plan, pacing and looks; [`OnScreen`] is written once for all);
//! - [`recognise`]: which game a screenshot shows, when none is named;
//! - [`pacing`]: how fast a game takes its input live ([`Pacing`]) and
//!   what it decides after one look at the screen ([`Step`]).

pub mod pacing;
pub mod recognise;
pub mod screen;

use std::marker::PhantomData;

use crate::art::render::{Art, RenderOptions, Rendered};
#[cfg(feature = "live")]
use crate::practice::PracticeOptions;
use crate::report::{Output, Report};
use crate::tools::options::{GenerateOptions, Opt, Options};
use crate::tools::{BatchSource, TextPuzzle};

pub use pacing::{Pacing, Step};
pub use screen::{OnScreen, ScreenGame};

#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// The position's text is malformed; the message says where.
    #[error("{origin}: {message}")]
    Parse { origin: String, message: String },
    #[error("{game} cannot {what}")]
    Unsupported {
        game: &'static str,
        what: &'static str,
    },
    /// An option that does not fit this game or this command.
    #[error("{0}")]
    Usage(String),
    /// Writing an output file failed.
    #[error("{0}")]
    Output(String),
    /// A practice window could not be opened or drawn.
    #[cfg(feature = "live")]
    #[error(transparent)]
    Window(#[from] crate::ui::UiError),
    #[error(transparent)]
    Calibration(#[from] crate::calibration::CalibrationError),
    #[error(transparent)]
    Learn(#[from] crate::vision::learn::LearnError),
}

fn unsupported<T>(game: &'static str, what: &'static str) -> Result<T, GameError> {
    Err(GameError::Unsupported { game, what })
}

/// One game, as the command line and the live player see it.
pub trait Game: Sync {
    /// The name used on the command line, as in `--game troyis`.
    fn id(&self) -> &'static str;

    /// One line for `boardbot games` (by default, its text puzzle's).
    fn summary(&self) -> &'static str {
        self.text_commands().map_or("", |t| t.summary())
    }

    /// The options this game reads; any other given option is refused
    /// (by default, its text puzzle's).
    fn options(&self) -> &'static [Opt] {
        self.text_commands().map_or(&[], |t| t.options())
    }

    /// Solves a position written as text; `origin` names it in messages
    /// (a file path, or `--board`). By default, its text puzzle does.
    fn solve_text(&self, text: &str, origin: &str, opts: &Options) -> Result<Report, GameError> {
        match self.text_commands() {
            Some(t) => t.solve_text(text, origin, opts),
            None => unsupported(self.id(), "solve text positions"),
        }
    }

    /// The text puzzle whose commands (batch, map, trace, verify,
    /// generate) this game answers with, when it is a screen game built
    /// around one: each of those defaults to it.
    fn text_commands(&self) -> Option<&'static dyn Game> {
        None
    }

    /// Solves every position of a file of positions with known answers,
    /// and reports the ones whose answer differs.
    fn batch(&self, src: &mut BatchSource, opts: &Options) -> Result<Output, GameError> {
        match self.text_commands() {
            Some(t) => t.batch(src, opts),
            None => unsupported(self.id(), "solve batches"),
        }
    }

    /// `boardbot generate`: new levels, verified.
    fn generate(&self, opts: &GenerateOptions) -> Result<Output, GameError> {
        match self.text_commands() {
            Some(t) => t.generate(opts),
            None => unsupported(self.id(), "generate"),
        }
    }

    /// `boardbot verify`: checks a level against the game's design rules.
    fn verify(&self, text: &str, origin: &str, opts: &Options) -> Result<Output, GameError> {
        match self.text_commands() {
            Some(t) => t.verify(text, origin, opts),
            None => unsupported(self.id(), "verify"),
        }
    }

    /// The map of every position reachable from this one, with each one's
    /// distance to a solution.
    fn map(&self, text: &str, origin: &str, opts: &Options) -> Result<Output, GameError> {
        match self.text_commands() {
            Some(t) => t.map(text, origin, opts),
            None => unsupported(self.id(), "map state spaces"),
        }
    }

    /// Rates a player's moves, one by one, against the map.
    fn trace(
        &self,
        text: &str,
        origin: &str,
        moves: &str,
        opts: &Options,
    ) -> Result<Output, GameError> {
        match self.text_commands() {
            Some(t) => t.trace(text, origin, moves, opts),
            None => unsupported(self.id(), "trace games"),
        }
    }

    /// The game's own art (its drawing and its practice window), for the
    /// games boardbot draws itself.
    fn art(&self) -> Option<&'static Art> {
        None
    }

    /// Draws `text` with the game's own art, as its practice window does.
    fn render(
        &self,
        text: &str,
        origin: &str,
        opts: &RenderOptions,
    ) -> Result<Rendered, GameError> {
        match self.art() {
            Some(art) => (art.render)(text, origin, opts),
            None => unsupported(self.id(), "draw positions"),
        }
    }

    /// Opens the game's practice window and plays it until it is closed.
    /// Returns one line for the user on how the session went.
    #[cfg(feature = "live")]
    fn practice(&self, opts: &PracticeOptions) -> Result<String, GameError> {
        match self.art() {
            Some(art) => (art.practice)(opts),
            None => unsupported(self.id(), "open a practice window"),
        }
    }

    /// The game on the screen, for games read from screenshots: its
    /// reader, plan, pacing and looks ([`ScreenGame`] declares them).
    fn screen(&self) -> Option<&dyn OnScreen> {
        None
    }
}

impl dyn Game {
    /// The game on the screen, or the error that says it has none.
    pub fn on_screen(&self) -> Result<&dyn OnScreen, GameError> {
        self.screen().ok_or(GameError::Unsupported {
            game: self.id(),
            what: "read screenshots yet",
        })
    }
}

/// A text puzzle as a [`Game`]: every command comes from [`tools`].
pub struct PuzzleGame<P> {
    summary: &'static str,
    rules: PhantomData<fn() -> P>,
}

impl<P> PuzzleGame<P> {
    pub const fn new(summary: &'static str) -> Self {
        PuzzleGame {
            summary,
            rules: PhantomData,
        }
    }
}

impl<P: TextPuzzle> Game for PuzzleGame<P> {
    fn id(&self) -> &'static str {
        P::ID
    }

    fn summary(&self) -> &'static str {
        self.summary
    }

    fn options(&self) -> &'static [Opt] {
        P::OPTIONS
    }

    fn solve_text(&self, text: &str, origin: &str, opts: &Options) -> Result<Report, GameError> {
        crate::tools::solve::<P>(text, origin, opts)
    }

    fn batch(&self, src: &mut BatchSource, opts: &Options) -> Result<Output, GameError> {
        crate::tools::batch::<P>(src, opts)
    }

    fn map(&self, text: &str, origin: &str, opts: &Options) -> Result<Output, GameError> {
        crate::tools::map::<P>(text, origin, opts)
    }

    fn verify(&self, text: &str, origin: &str, opts: &Options) -> Result<Output, GameError> {
        P::verify(text, origin, opts)
    }

    fn generate(&self, opts: &GenerateOptions) -> Result<Output, GameError> {
        P::generate(opts)
    }

    fn trace(
        &self,
        text: &str,
        origin: &str,
        moves: &str,
        opts: &Options,
    ) -> Result<Output, GameError> {
        crate::tools::trace::<P>(text, origin, moves, opts)
    }
}
