//! Fifteen, Simon Tatham's (sgt-puzzles `sgt-fifteen`): slide the tiles
//! into order, `1 … W*H-1` row by row with the gap last.
//!
//! - [`level`]: sgt's game IDs (`4x4:…`), plain grids, Korf's instances;
//! - [`korf`]: Korf's 100 instances solved on one core (`--batch`);
//! - the solver is the shared sliding-tile engine, [`crate::engines::tiles`]:
//!   IDA* with additive pattern databases on 4×4, Manhattan distance with
//!   linear conflicts elsewhere; every plan is optimal.
//! - [`read`]: the board from a screenshot of sgt-fifteen's window;
//! - [`fonts`]: the numbers drawn in the desktop's fonts, for reading with
//!   no calibration;
//! - [`learn`]: `boardbot calibrate`, the numbers' templates from one
//!   screenshot;
//! - [`screen`]: the plan as clicks, with a look every few slides.
//!
//! Solve, walkthrough, map and trace of text positions come from
//! [`crate::tools`]; `solve` adds which tile each slide moves.

pub mod fonts;
pub mod korf;
pub mod learn;
pub mod level;
pub mod read;
pub mod screen;

use crate::engines::tiles::{self, SearchError, Slide, Tiles};
use image::RgbImage;

use crate::calibration::Calibration;
use crate::game::{Game, GameError, OnScreen, PuzzleGame, ScreenGame};
use crate::report::{Output, Report, Verdict};
use crate::solve::{Budget, Found, Progress, Solution, Stats};
use crate::tools;
use crate::tools::options::{Opt, Options};
use crate::tools::{BatchSource, TextPuzzle};
use crate::vision::GridRead;

pub(crate) const ID: &str = "fifteen";

/// A Fifteen position's fixed part: the goal its frame is solved towards.
pub struct Board {
    pub goal: Tiles,
}

impl Board {
    /// The board for a frame of `start`'s size, and `start` itself.
    pub fn new(start: Tiles) -> (Board, Tiles) {
        let goal =
            Tiles::solved(start.width(), start.height()).expect("a parsed frame has a valid size");
        (Board { goal }, start)
    }

    /// Parses a game ID or a grid; the message names the line.
    pub fn parse_text(text: &str) -> Result<(Board, Tiles), String> {
        level::parse(text)
            .map(Board::new)
            .map_err(|e| e.to_string())
    }
}

/// The tile each slide moves, in order, replayed from `start`.
pub fn moved_tiles(start: &Tiles, slides: &[Slide]) -> Vec<u8> {
    let mut t = *start;
    let mut out = Vec::with_capacity(slides.len());
    for &s in slides {
        let Some(from) = t.source(s) else { break };
        out.push(t.get(from));
        t = t.slide(s).unwrap_or(t);
    }
    out
}

impl crate::solve::Puzzle for Board {
    type State = Tiles;
    type Move = Slide;

    fn successors(&self, s: &Tiles, out: &mut Vec<(Slide, Tiles)>) {
        out.extend(s.slides());
    }

    fn is_goal(&self, s: &Tiles) -> bool {
        *s == self.goal
    }

    fn heuristic(&self, s: &Tiles) -> Option<u32> {
        Some(s.manhattan(&self.goal))
    }

    /// One character per slot, as boards are reported: `1`-`9`, `A`-`F`
    /// for 10-15, `.` for the gap; [`level::parse`] reads it back.
    fn rows(&self, s: &Tiles) -> Vec<String> {
        (0..s.height())
            .map(|y| {
                (0..s.width())
                    .map(|x| level::tile_char(s.get(y * s.width() + x)))
                    .collect()
            })
            .collect()
    }

    fn split_moves<'t>(&self, text: &'t str) -> Vec<&'t str> {
        tools::single_letters(text)
    }

    /// IDA* with the engine's best bound for the frame; the plan is optimal.
    fn solve(&self, start: &Tiles, budget: &Budget, _progress: &mut Progress) -> Solution<Slide> {
        let t = std::time::Instant::now();
        let result = tiles::solve(start, &self.goal, budget.max_states);
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let (found, nodes, notes) = match result {
            Ok(f) => {
                let notes = vec![("first_bound", f.first_bound.into())];
                (Found::Path(f.slides), f.nodes, notes)
            }
            Err(SearchError::OverBudget { nodes, proven }) => {
                (Found::OverBudget { proven }, nodes, Vec::new())
            }
            Err(_) => (Found::Exhausted, 0, Vec::new()),
        };
        let stats = Stats {
            states: nodes,
            ms,
            ..Stats::default()
        };
        let mut sol = Solution::new(found, stats, |_| 1);
        sol.notes = notes;
        sol
    }
}

impl TextPuzzle for Board {
    const ID: &'static str = ID;
    const OPTIONS: &'static [Opt] = &[Opt::MaxNodes, Opt::Walkthrough];
    const JOINED_MOVES: bool = true;

    fn parse(text: &str, _opts: &Options) -> Result<(Self, Tiles), String> {
        Board::parse_text(text)
    }

    fn reversible(&self) -> bool {
        true
    }
}

/// The text commands.
static TEXT: PuzzleGame<Board> = PuzzleGame::new(
    "Fifteen (sgt-puzzles): slide the tiles into order; optimal plans for any frame up to 4x4 (IDA* with pattern databases)",
);

/// Fifteen: the text puzzle with the tiles each slide moves.
pub struct Fifteen;

/// The game, as registered.
pub static FIFTEEN: Fifteen = Fifteen;

impl Game for Fifteen {
    fn id(&self) -> &'static str {
        ID
    }

    fn text_commands(&self) -> Option<&'static dyn Game> {
        Some(&TEXT)
    }

    /// The optimal plan, with `plan.tiles`: the tile each slide moves.
    fn solve_text(&self, text: &str, origin: &str, opts: &Options) -> Result<Report, GameError> {
        let (board, start) = Board::parse_text(text).map_err(|message| GameError::Parse {
            origin: origin.to_string(),
            message,
        })?;
        solve_frame(&board, &start, opts).map(|(r, _)| r)
    }

    /// Korf's format (`ID OPTIMAL NODES`, then the tiles) on one core;
    /// otherwise the usual `optimal position` lines.
    fn batch(&self, src: &mut BatchSource, opts: &Options) -> Result<Output, GameError> {
        korf::batch(src, opts)
    }

    fn screen(&self) -> Option<&dyn OnScreen> {
        Some(self)
    }
}

impl ScreenGame for Fifteen {
    type Board = Tiles;

    fn looks(&self) -> &'static [&'static crate::calibration::Embedded] {
        &screen::LOOKS
    }

    fn check_calibration(&self, cal: &Calibration) -> Result<(), GameError> {
        screen::check_templates(cal)
    }

    fn read(&self, image: &RgbImage, cal: &Calibration) -> read::Read {
        read::read(image, cal)
    }

    fn plan(&self, grid: &GridRead, tiles: Tiles, opts: &Options) -> Result<Report, GameError> {
        screen::plan(grid, tiles, opts)
    }

    fn pacing(&self) -> crate::game::Pacing {
        screen::pacing()
    }

    /// Learns the numbers' templates from a screenshot of game ID `text`.
    fn learn(
        &self,
        img: &RgbImage,
        text: &str,
        base: &crate::vision::ReadParams,
        _keep_missing: bool,
    ) -> Result<crate::vision::learn::Learned, GameError> {
        let tiles = level::parse(text).map_err(|e| GameError::Usage(e.to_string()))?;
        Ok(learn::learn(img, &tiles, base)?)
    }
}

/// Solves a frame: the report (plan with `tiles`, or why there is none)
/// and the slides.
pub fn solve_frame(
    board: &Board,
    start: &Tiles,
    opts: &Options,
) -> Result<(Report, Vec<Slide>), GameError> {
    let (mut report, slides) = tools::solve_parsed(board, start, opts)?;
    if let Some(serde_json::Value::Object(plan)) = report.plan.as_mut() {
        plan.insert("tiles".into(), moved_tiles(start, &slides).into());
    }
    if report.state == Verdict::Unsolvable {
        report.reason = format!(
            "unsolvable: no slides can turn {start} into {}: the tiles' order has the wrong parity for where the gap is (two tiles swapped)",
            board.goal
        );
    }
    Ok((report, slides))
}
