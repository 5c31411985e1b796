//! Inertia, Simon Tatham's (sgt-puzzles): slide a ball in 8 directions to
//! pick up every gem without touching a mine.
//!
//! - [`level`]: sgt's game IDs (`10x8:…`) and our own grid format;
//! - [`rules`]: the moves, checked against `inertia.c`, and the packed state;
//! - [`solver`]: the admissible bound that makes A* fast, for the fewest
//!   moves;
//! - [`read`]: the board from a screenshot of sgt-inertia's window;
//! - [`screen`]: the plan as clicks, with a look after every move;
//! - [`route`]: the last route, reused by those looks.
//!
//! Solve, walkthrough, map and trace of text boards come from
//! [`crate::tools`].

pub mod level;
pub mod read;
pub mod route;
pub mod rules;
pub mod screen;
pub mod solver;

use image::RgbImage;

use self::level::Level;
pub use self::rules::{Dir, Rules, State};
use self::solver::GemDistances;
use crate::calibration::{Calibration, Embedded};
use crate::game::{Game, GameError, OnScreen, Pacing, PuzzleGame, ScreenGame};
use crate::report::Report;
use crate::solve::{Budget, Found, Progress, Solution, astar};
use crate::tools::TextPuzzle;
use crate::tools::options::{Opt, Options};
use crate::vision::GridRead;

pub(crate) const ID: &str = "inertia";

/// A board on the puzzle core.
pub struct Board {
    pub rules: Rules,
    pub dist: GemDistances,
}

impl Board {
    /// Parses a game ID or a grid; the message says what is wrong.
    pub fn new(text: &str) -> Result<Board, String> {
        let level = Level::parse(text).map_err(|e| e.to_string())?;
        Board::from_level(level)
    }

    /// A*; past its budget (without `--max-nodes`, [`solver::DEFAULT_MAX_STATES`]),
    /// the greedy route, marked not proven optimal. Always searches: the
    /// puzzle core's `solve` may reuse the last route instead.
    pub fn search(&self, start: State, budget: &Budget, progress: &mut Progress) -> Solution<Dir> {
        let capped = Budget {
            max_states: budget.max_states.min(solver::DEFAULT_MAX_STATES),
            ..*budget
        };
        let exact = if budget.max_states == u64::MAX {
            &capped
        } else {
            budget
        };
        let (found, stats) = astar(
            start,
            |s, out| crate::solve::Puzzle::successors(self, s, out),
            |s| self.dist.bound(*s),
            |s| self.rules.is_won(*s),
            exact,
            progress,
        );
        let mut sol = Solution::new(found, stats, |_| 1);
        if let Found::OverBudget { proven } = sol.found {
            if let Some(route) = solver::greedy(&self.rules, &self.dist, start) {
                sol.cost = Some(route.len() as u64);
                sol.found = Found::Path(route);
                sol.optimal = false;
                sol.lower_bound = u64::from(proven);
                sol.notes.push((
                    "fallback",
                    "greedy: nearest gems first, after A* hit its budget".into(),
                ));
            }
        }
        sol
    }

    pub fn from_level(level: Level) -> Result<Board, String> {
        let rules = Rules::new(level).map_err(|e| e.to_string())?;
        let dist = GemDistances::new(&rules);
        Ok(Board { rules, dist })
    }
}

/// The text commands.
static TEXT: PuzzleGame<Board> = PuzzleGame::new(
    "Inertia (sgt-puzzles): slide the ball over every gem, never over a mine; fewest moves, maps, traces; reads and plays sgt-inertia's window",
);

static LOOKS: [&Embedded; 1] = [&crate::builtin_look!("calibration/inertia.toml")];

/// Inertia: the text puzzle, plus its reader and clicks.
pub struct Inertia;

/// The game, as registered.
pub static INERTIA: Inertia = Inertia;

impl Game for Inertia {
    fn id(&self) -> &'static str {
        ID
    }

    fn text_commands(&self) -> Option<&'static dyn Game> {
        Some(&TEXT)
    }

    fn screen(&self) -> Option<&dyn OnScreen> {
        Some(self)
    }
}

impl ScreenGame for Inertia {
    type Board = Level;

    fn looks(&self) -> &'static [&'static Embedded] {
        &LOOKS
    }

    fn read(&self, image: &RgbImage, cal: &Calibration) -> read::Read {
        read::read(image, cal)
    }

    fn plan(&self, grid: &GridRead, level: Level, opts: &Options) -> Result<Report, GameError> {
        screen::plan(grid, level, opts)
    }

    fn pacing(&self) -> Pacing {
        screen::pacing()
    }

    /// A game ID or a grid, as the reader's classes: stops read as blanks
    /// in the middle of the cell, the ball as the ball.
    fn calibration_cells(&self, text: &str) -> Result<Vec<Vec<char>>, GameError> {
        let level = Level::parse(text).map_err(|e| GameError::Usage(e.to_string()))?;
        Ok(read::class_rows(&level))
    }
}

impl crate::solve::Puzzle for Board {
    type State = State;
    type Move = Dir;

    fn successors(&self, s: &State, out: &mut Vec<(Dir, State)>) {
        out.extend(
            Dir::ALL
                .into_iter()
                .filter_map(|d| self.rules.play(*s, d).map(|n| (d, n))),
        );
    }

    fn is_goal(&self, s: &State) -> bool {
        self.rules.is_won(*s)
    }

    fn heuristic(&self, s: &State) -> Option<u32> {
        Some(self.dist.bound(*s))
    }

    /// A*; past its budget, the greedy route, marked not proven optimal;
    /// the rest of the last route when `start` is on it ([`route`]).
    fn solve(&self, start: &State, budget: &Budget, progress: &mut Progress) -> Solution<Dir> {
        if let Some(sol) = route::rest(self, *start, budget.max_states) {
            return sol;
        }
        let sol = self.search(*start, budget, progress);
        route::remember(self, *start, budget.max_states, &sol);
        sol
    }

    fn rows(&self, s: &State) -> Vec<String> {
        self.rules
            .level_at(*s)
            .to_string()
            .lines()
            .map(str::to_string)
            .collect()
    }

    fn parse_move(&self, s: &State, text: &str) -> Result<(Dir, State), String> {
        let d = Dir::parse(text).ok_or_else(|| {
            format!(
                "{text:?} is not a direction: N NE E SE S SW W NW, or keypad digits 8 9 6 3 2 1 4 7"
            )
        })?;
        self.rules.play(*s, d).map(|n| (d, n)).ok_or_else(|| {
            format!("{d} is not legal here: blocked by a wall or the edge, or deadly")
        })
    }
}

impl TextPuzzle for Board {
    const ID: &'static str = ID;
    const OPTIONS: &'static [Opt] = &[Opt::MaxMemory, Opt::MaxNodes, Opt::Walkthrough];

    fn parse(text: &str, _opts: &Options) -> Result<(Self, State), String> {
        let board = Board::new(text)?;
        let start = board.rules.start;
        Ok((board, start))
    }
}
