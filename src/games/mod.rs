//! The games, each a module behind the [`Game`] trait, and the registry
//! that names them on the command line.
//!
//! A game module holds its board model, its screen reader, its solver and
//! the step that turns a plan into input. Adding a game means adding a
//! folder here and one line to [`REGISTRY`].

use image::RgbImage;

use crate::calibration::{Calibration, Embedded};
use crate::report::Report;

pub mod bitlock;
pub mod rush;
pub mod troyis;

use crate::report::Doc;
use crate::solve::Bytes;

/// Settings shared by every game's commands; a game says so when given one
/// it has no use for.
#[derive(Clone, Debug, Default)]
pub struct SolveOptions {
    /// Cap on search nodes, for games whose search can run long.
    pub max_nodes: Option<u64>,
    /// Show progress on long searches.
    pub progress: bool,
    /// B.i.t.Lock's win rule: `cover` or `exact`.
    pub win: Option<String>,
    /// Memory the search may use before it changes strategy.
    pub max_memory: Option<Bytes>,
    /// Print the board after each move.
    pub walkthrough: bool,
}

/// Settings of `boardbot map`.
#[derive(Clone, Debug, Default)]
pub struct MapOptions {
    /// Write the graph here: GraphML or DOT by the extension, plus CSV files.
    pub export: Option<std::path::PathBuf>,
    pub max_memory: Option<Bytes>,
    pub progress: bool,
}

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
    #[error(transparent)]
    Calibration(#[from] crate::calibration::CalibrationError),
}

fn unsupported(game: &'static str, what: &'static str) -> GameError {
    GameError::Unsupported { game, what }
}

/// One game.
pub trait Game: Sync {
    /// The name used on the command line, as in `--game troyis`.
    fn id(&self) -> &'static str;

    /// One line for `boardbot games`.
    fn summary(&self) -> &'static str;

    /// The calibration compiled into the binary, for games read from screenshots.
    fn calibration(&self) -> Option<&'static Embedded> {
        None
    }

    /// Solves a position written as text; `origin` names it in messages
    /// (a file path, or `--board`).
    fn solve_text(
        &self,
        text: &str,
        origin: &str,
        opts: &SolveOptions,
    ) -> Result<Report, GameError>;

    /// Reads a screenshot, solves what it shows and plans the input, in
    /// image pixels. Never plans input on a read it is unsure of.
    fn solve_image(
        &self,
        _image: &RgbImage,
        _cal: &Calibration,
        _opts: &SolveOptions,
    ) -> Result<Report, GameError> {
        Err(unsupported(self.id(), "read screenshots yet"))
    }

    /// Pause between input events when playing live, in milliseconds.
    fn default_delay_ms(&self) -> u64 {
        100
    }

    /// Solves every position of a file of positions with known answers,
    /// and reports the ones whose answer differs.
    fn batch(&self, _text: &str, _origin: &str, _opts: &SolveOptions) -> Result<Doc, GameError> {
        Err(unsupported(self.id(), "solve batches"))
    }

    /// The map of every position reachable from this one, with each one's
    /// distance to a solution.
    fn map(&self, _text: &str, _origin: &str, _opts: &MapOptions) -> Result<Doc, GameError> {
        Err(unsupported(self.id(), "map state spaces"))
    }

    /// Rates a player's moves, one by one, against the map.
    fn trace(
        &self,
        _text: &str,
        _origin: &str,
        _moves: &str,
        _opts: &MapOptions,
    ) -> Result<Doc, GameError> {
        Err(unsupported(self.id(), "trace games"))
    }

    /// Loads the calibration: `path` if given, else the user's own (from
    /// `boardbot calibrate`), else the built-in one.
    fn load_calibration(&self, path: Option<&std::path::Path>) -> Result<Calibration, GameError> {
        Ok(crate::calibration::resolve(
            self.id(),
            self.calibration(),
            path,
        )?)
    }
}

/// Every game boardbot knows, one line each.
pub static REGISTRY: &[&dyn Game] = &[&troyis::Troyis, &bitlock::BitLock, &rush::Rush];

/// Looks a game up by its id.
pub fn find(id: &str) -> Option<&'static dyn Game> {
    REGISTRY
        .iter()
        .copied()
        .find(|g| g.id().eq_ignore_ascii_case(id))
}

/// The ids of every game, for messages.
pub fn ids() -> Vec<&'static str> {
    REGISTRY.iter().map(|g| g.id()).collect()
}
