//! A game on the screen: what each game declares ([`ScreenGame`]), and what
//! is written once for all of them ([`OnScreen`]).
//!
//! A game declares its reader (a typed board with a confidence per cell,
//! or a refusal naming the cells and why), its plan from that board, its
//! pacing and safe focus point, and the looks it ships. Everything around
//! them is written here once: the reader's timing, finding the calibration
//! (named, the user's own, or built in), the trust step that turns a
//! refusal into a report with no input, the board on its lattice in the
//! report, and the debug image's data. `solve --image`, `play`,
//! `calibrate` and the recogniser ([`super::recognise`]) call only
//! [`OnScreen`], the object-safe face every [`ScreenGame`] gets.
//!
//! The typed board crosses [`OnScreen`] as a [`Look`], so that the
//! recogniser can let every game read a screenshot and plan only for the
//! one whose read is trusted, without reading twice.

use std::any::Any;
use std::path::Path;
use std::time::Instant;

use image::RgbImage;

use super::{Game, GameError, Pacing, Step};
use crate::calibration::{self, Calibration, Embedded};
use crate::report::{BoardReport, Report, ms_since};
use crate::tools::options::Options;
use crate::vision::learn::Learned;
use crate::vision::skin::{Layers, Skin};
use crate::vision::{GridRead, NotLegal, ReadParams, Reading};

/// A game's board, typed by the game, carried through [`OnScreen`].
pub type AnyBoard = Box<dyn Any + Send>;

/// One game's read of a screenshot with one calibration.
pub struct Look {
    pub game: &'static str,
    /// The read: no board, a board not to act on, or a board read for sure.
    pub reading: Reading<AnyBoard>,
    /// How long the reader took, in milliseconds.
    pub vision_ms: f64,
    /// Which calibration it read with, for messages.
    pub calibration: String,
}

impl Look {
    /// True when the board was read for sure: only then may it be played.
    pub fn trusted(&self) -> bool {
        matches!(self.reading, Reading::Board { .. })
    }
}

/// What a game read from screenshots declares; [`OnScreen`] is the rest.
pub trait ScreenGame: Game {
    /// The board as the reader gives it when every cell was read for sure.
    type Board: Send + 'static;

    /// The looks it ships: calibrations for boardbot's own art or for the
    /// real game's. The first is the one `--calibration` replaces.
    fn looks(&self) -> &'static [&'static Embedded];

    /// Refuses, before any reading, a calibration this game cannot read
    /// with at all (the error says what to do). By default every one will do.
    fn check_calibration(&self, _cal: &Calibration) -> Result<(), GameError> {
        Ok(())
    }

    /// Reads a screenshot with one calibration. Never a board it is unsure
    /// of: a cell it cannot read makes the whole read uncertain.
    fn read(&self, img: &RgbImage, cal: &Calibration) -> Reading<Self::Board>;

    /// The plan for a board read for sure, with its input in image pixels.
    /// The report's `board` holds the rows read; the lattice is added here.
    fn plan(
        &self,
        grid: &GridRead,
        board: Self::Board,
        opts: &Options,
    ) -> Result<Report, GameError>;

    /// How fast to send each kind of input live, and how patiently to look.
    fn pacing(&self) -> Pacing {
        Pacing::default()
    }

    /// The next step of live play from a report: by default its plan.
    fn step(&self, report: &Report) -> Step {
        Step::from_report(report)
    }

    /// A point, in image pixels, where a click changes nothing: it gives
    /// the game's window the keyboard focus before the first key.
    fn safe_point(&self, _report: &Report) -> Option<(f64, f64)> {
        None
    }

    /// Each cell's class as a skin learns it, from a position written as
    /// the game writes it; `None` when this game reads no skins.
    fn skin_labels(&self, _text: &str) -> Option<Result<Vec<Vec<String>>, GameError>> {
        None
    }

    /// [`ScreenGame::skin_labels`] of the position after `moves` (in the
    /// game's plan text) are played from the one written: a position the
    /// level text cannot write, such as a tile on its target. `None` when
    /// this game cannot play moves onto a taught position.
    fn skin_labels_after(
        &self,
        _text: &str,
        _moves: &str,
    ) -> Option<Result<Vec<Vec<String>>, GameError>> {
        None
    }

    /// For a board of slots with gaps between them (each gap a row or
    /// column of [`ScreenGame::skin_labels`]), a slot's side in cells;
    /// `None` for a board of one pitch throughout.
    fn skin_slot(&self, _text: &str) -> Option<usize> {
        None
    }

    /// What a position written as the game writes it says that no cell
    /// shows (Continuity's jump), in the level text's own words; `None`
    /// when its cells show everything. A skin keeps it from the taught
    /// positions, and every read through the skin takes it.
    fn skin_rules(&self, _text: &str) -> Option<String> {
        None
    }

    /// Refuses a set of taught screenshots that cannot teach this game a
    /// safe skin (each shot's cell classes), saying what to add. By
    /// default any will do.
    fn skin_taught(&self, _shots: &[Vec<Vec<String>>]) -> Result<(), String> {
        Ok(())
    }

    /// What a skin of these classes (those taught, and those made from
    /// them, [`ScreenGame::skin_layers`]) cannot know, for `calibrate` to
    /// tell the user; `None` when nothing.
    fn skin_caveat(&self, _classes: &[&str]) -> Option<String> {
        None
    }

    /// How this game's cells stack (a piece over a ground), for a skin to
    /// learn pairs never shown from one that was; `None` when they do not.
    fn skin_layers(&self) -> Option<Layers> {
        None
    }

    /// True when `calibrate` learns a skin first and the colour learner
    /// only when no skin can be learned; false for the other way round
    /// (a game whose colour learner copes with something skins do not
    /// yet, such as clouds over cells).
    fn skin_first(&self) -> bool {
        true
    }

    /// The board that cells of these classes show through `skin` (under
    /// its taught rules, [`ScreenGame::skin_rules`], knowing which classes
    /// it was taught), checked by the rules, or why no legal position
    /// looks like that.
    fn skin_board(&self, _labels: &[Vec<String>], _skin: &Skin) -> Result<Self::Board, NotLegal> {
        Err(format!("{} reads no skins", Game::id(self)).into())
    }

    /// The colour-class letter of every cell of a position written as the
    /// game writes it, for `boardbot calibrate`. By default the text's own
    /// characters are the letters.
    fn calibration_cells(&self, text: &str) -> Result<Vec<Vec<char>>, GameError> {
        crate::vision::learn::board_cells(text).map_err(|e| GameError::Usage(e.to_string()))
    }

    /// What `boardbot calibrate` learns from `img`, which shows `text`,
    /// starting from the game's `base` look. By default the generic learner
    /// over [`ScreenGame::calibration_cells`].
    fn learn(
        &self,
        img: &RgbImage,
        text: &str,
        base: &ReadParams,
        keep_missing: bool,
    ) -> Result<Learned, GameError> {
        let board = self.calibration_cells(text)?;
        Ok(crate::vision::learn::learn(
            img,
            &board,
            base,
            keep_missing,
        )?)
    }
}

/// A screen game as the command line, the live player and the recogniser
/// see it: object-safe, with the shared steps written once.
pub trait OnScreen: Sync {
    fn id(&self) -> &'static str;
    fn looks(&self) -> &'static [&'static Embedded];
    /// An error when `cal` cannot read this game's boards at all.
    fn check_calibration(&self, cal: &Calibration) -> Result<(), GameError>;
    /// Reads `img` with `cal`, timed; nothing is planned yet.
    fn look(&self, img: &RgbImage, cal: &Calibration) -> Look;
    /// The report on a look: a refusal with no input, or the plan.
    fn plan_look(&self, look: Look, opts: &Options) -> Result<Report, GameError>;
    fn pacing(&self) -> Pacing;
    fn step(&self, report: &Report) -> Step;
    fn safe_point(&self, report: &Report) -> Option<(f64, f64)>;
    fn calibration_cells(&self, text: &str) -> Result<Vec<Vec<char>>, GameError>;
    /// Each cell's class as a skin learns it; `None` when the game reads no skins.
    fn skin_labels(&self, text: &str) -> Option<Result<Vec<Vec<String>>, GameError>>;
    /// The classes after moves are played; `None` when the game cannot.
    fn skin_labels_after(
        &self,
        text: &str,
        moves: &str,
    ) -> Option<Result<Vec<Vec<String>>, GameError>>;
    /// A slot's side in cells, for a board of slots with gaps between.
    fn skin_slot(&self, text: &str) -> Option<usize>;
    /// What a position says that no cell shows, for a skin to keep.
    fn skin_rules(&self, text: &str) -> Option<String>;
    /// Whether `calibrate` tries a skin before the colour learner.
    fn skin_first(&self) -> bool;
    /// How the cells stack, for a skin to learn pairs never shown.
    fn skin_layers(&self) -> Option<Layers>;
    /// Refuses taught screenshots that cannot teach a safe skin.
    fn skin_taught(&self, shots: &[Vec<Vec<String>>]) -> Result<(), String>;
    /// What a skin of these classes cannot know, to tell the user.
    fn skin_caveat(&self, classes: &[&str]) -> Option<String>;
    fn learn(
        &self,
        img: &RgbImage,
        text: &str,
        base: &ReadParams,
        keep_missing: bool,
    ) -> Result<Learned, GameError>;

    /// Reads a screenshot, solves what it shows and plans the input, in
    /// image pixels. Never plans input on a read it is unsure of.
    fn solve_image(
        &self,
        img: &RgbImage,
        cal: &Calibration,
        opts: &Options,
    ) -> Result<Report, GameError> {
        self.check_calibration(cal)?;
        self.plan_look(self.look(img, cal), opts)
    }

    /// The calibration: `path` if given, else the user's own (from
    /// `boardbot calibrate`), else the first built-in look.
    fn load_calibration(&self, path: Option<&Path>) -> Result<Calibration, GameError> {
        let builtin = self.looks().first().copied();
        Ok(calibration::resolve(self.id(), builtin, path)?)
    }

    /// Every look to try on a screenshot whose game is not named: the
    /// user's own calibration first (when there is one), then the built-in
    /// ones, each only if this game can read with it. A user's file that
    /// does not load is skipped with a warning on stderr: the built-in
    /// looks still read.
    fn all_calibrations(&self) -> Vec<Calibration> {
        let mut out = Vec::new();
        if let Some(path) = calibration::user_file(self.id()) {
            match Calibration::load_user(&path, self.id()) {
                Ok(c) => out.push(c),
                Err(e) => eprintln!("warning: {e}; using the built-in look"),
            }
        }
        for e in self.looks() {
            match Calibration::embedded(e, self.id()) {
                Ok(c) => out.push(c),
                Err(e) => eprintln!("warning: {e}"),
            }
        }
        out.retain(|c| self.check_calibration(c).is_ok());
        out
    }
}

impl<S: ScreenGame> OnScreen for S {
    fn id(&self) -> &'static str {
        Game::id(self)
    }

    fn looks(&self) -> &'static [&'static Embedded] {
        ScreenGame::looks(self)
    }

    fn check_calibration(&self, cal: &Calibration) -> Result<(), GameError> {
        ScreenGame::check_calibration(self, cal)
    }

    fn look(&self, img: &RgbImage, cal: &Calibration) -> Look {
        let t = Instant::now();
        let reading = match &cal.params.skin {
            Some(skin) => crate::vision::skin::read::read(img, skin, |l| self.skin_board(l, skin)),
            None => self.read(img, cal),
        }
        .map(|b| Box::new(b) as AnyBoard);
        Look {
            game: Game::id(self),
            reading,
            vision_ms: ms_since(t),
            calibration: cal.origin.clone(),
        }
    }

    fn plan_look(&self, look: Look, opts: &Options) -> Result<Report, GameError> {
        let id = Game::id(self);
        let mut r = Report::from_reading(id, look.reading, |grid, board| {
            let board = board.downcast::<S::Board>().map_err(|_| {
                GameError::Output(format!("{id} was given another game's board to plan"))
            })?;
            let mut r = self.plan(&grid, *board, opts)?;
            let rows = r.board.take().map_or_else(|| grid.rows(), |b| b.cells);
            r.board = Some(BoardReport::from_grid(&grid, rows));
            r.seen.grid = Some(grid);
            Ok::<_, GameError>(r)
        })?;
        r.timing_ms.vision = Some(look.vision_ms);
        Ok(r)
    }

    fn pacing(&self) -> Pacing {
        ScreenGame::pacing(self)
    }

    fn step(&self, report: &Report) -> Step {
        ScreenGame::step(self, report)
    }

    fn safe_point(&self, report: &Report) -> Option<(f64, f64)> {
        ScreenGame::safe_point(self, report)
    }

    fn calibration_cells(&self, text: &str) -> Result<Vec<Vec<char>>, GameError> {
        ScreenGame::calibration_cells(self, text)
    }

    fn skin_labels(&self, text: &str) -> Option<Result<Vec<Vec<String>>, GameError>> {
        ScreenGame::skin_labels(self, text)
    }

    fn skin_labels_after(
        &self,
        text: &str,
        moves: &str,
    ) -> Option<Result<Vec<Vec<String>>, GameError>> {
        ScreenGame::skin_labels_after(self, text, moves)
    }

    fn skin_slot(&self, text: &str) -> Option<usize> {
        ScreenGame::skin_slot(self, text)
    }

    fn skin_rules(&self, text: &str) -> Option<String> {
        ScreenGame::skin_rules(self, text)
    }

    fn skin_first(&self) -> bool {
        ScreenGame::skin_first(self)
    }

    fn skin_layers(&self) -> Option<Layers> {
        ScreenGame::skin_layers(self)
    }

    fn skin_taught(&self, shots: &[Vec<Vec<String>>]) -> Result<(), String> {
        ScreenGame::skin_taught(self, shots)
    }

    fn skin_caveat(&self, classes: &[&str]) -> Option<String> {
        ScreenGame::skin_caveat(self, classes)
    }

    fn learn(
        &self,
        img: &RgbImage,
        text: &str,
        base: &ReadParams,
        keep_missing: bool,
    ) -> Result<Learned, GameError> {
        ScreenGame::learn(self, img, text, base, keep_missing)
    }
}

/// A point where a click changes nothing on boards with walls: the centre
/// of the first cell that reads as `wall`, else the board's outer line at
/// its top left corner.
pub fn wall_or_corner(report: &Report, wall: char) -> Option<(f64, f64)> {
    let lattice = &report.seen.grid.as_ref()?.lattice;
    let cells = &report.board.as_ref()?.cells;
    let found = cells
        .iter()
        .enumerate()
        .find_map(|(r, row)| row.chars().position(|c| c == wall).map(|c| (r, c)));
    Some(match found {
        Some((r, c)) => lattice.cell(r, c).centre(),
        None => (lattice.xs[0], lattice.ys[0]),
    })
}
