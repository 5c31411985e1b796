//! Skiddy: on each swipe every skiddy, ice cube and sticky group slides
//! until blocked, and skiddies leave through goals of their colour.
//!
//! - [`level`]: the text format;
//! - [`rules`]: the static board, the packed state key, moves;
//! - [`slide`]: one move, step by step (the general path), and [`glide`]:
//!   the same move with each body sliding all the way at once, front first
//!   (the fast path, which hands the rare hard cases back to `slide`);
//! - [`verify`]: the makers' level check: dead ends, combos, stars;
//! - [`generate`]: random levels, verified, kept or discarded.
//!
//! The rules are those of issue 9 ("Rules"). Where that text leaves a case
//! open, boardbot decides as follows (each is tested):
//! - **Order.** Bodies (groups, lone skiddies, ice) advance one cell per
//!   step; in each step the largest set of sliding bodies that can advance
//!   together does, so a row moves and stops together, and interlocking
//!   groups do not deadlock each other.
//! - **Groups and crates.** A group pushes crates like a lone skiddy: when
//!   members run into crates, every one of those crates must be able to
//!   move, then the group advances one cell and stops; otherwise it stops
//!   in front. A crate never moves into a pit that holds a piece, onto a
//!   goal or onto another crate; it may be pushed into an empty pit, and
//!   out of a pit later.
//! - **Groups and pits.** A member entering a pit stops its whole group.
//! - **Leaving mid-move.** When a member leaves, the rest of its group
//!   splits into its connected parts, which keep sliding in the same move;
//!   same-colour parts adjacent when the move ends join again.
//! - **Groups are positions.** Joined skiddies are exactly the connected
//!   sets of adjacent same-colour skiddies, so the state stores positions
//!   only (see [`rules`]).
//! - **Pieces of one kind are interchangeable** in the state key.
//! - **A level needs a skiddy**; a goal in a ring corner is allowed.
//!
//! On the screen:
//! - [`art`] and [`motion`]: boardbot's own look, and which piece went
//!   where in a move (for animation);
//! - [`read`]: the position from a screenshot of that art;
//! - [`screen`]: render, solve a screenshot, the plan as arrow keys;
//! - `practice` and [`seeds`]: the practice window, with small seeded levels.
//!
//! Walkthrough, map and trace come from [`crate::tools`]; `solve`
//! is the core's search with one twist (a combo wins ties among the
//! shortest plans). Play stops at the win: a won position has no moves.
//! Each [`Move`] says how many skiddies of each colour left on it, for the
//! combo rule.

pub mod art;
pub mod generate;
pub mod glide;
pub mod level;
pub mod motion;
#[cfg(feature = "live")]
pub mod practice;
pub mod read;
pub mod rules;
pub mod screen;
pub mod seeds;
pub mod slide;
pub mod verify;

use image::RgbImage;

use self::level::Level;
pub use self::rules::{Dir, Key, Move, Rules};
use crate::art::render::Art;
use crate::calibration::{Calibration, Embedded};
use crate::game::screen::wall_or_corner;
use crate::game::{Game, GameError, PuzzleGame};
use crate::game::{OnScreen, Pacing, ScreenGame};
use crate::report::Report;
use crate::solve::costs::dijkstra;
use crate::solve::progress::Progress;
use crate::solve::puzzle::Solution;
use crate::solve::search::{Budget, Found};
use crate::tools::TextPuzzle;
use crate::tools::options::{Opt, Options};
use crate::vision::skin::Skin;
use crate::vision::{GridRead, NotLegal};

pub(crate) const ID: &str = "skiddy";

static LOOKS: [&Embedded; 1] = [&crate::builtin_look!("calibration/skiddy.toml")];

/// A position, and whether the combo is broken on the way to it.
type Tagged = (Key, bool);

/// A level on the puzzle core.
pub struct Skiddy {
    pub rules: Rules,
}

impl Skiddy {
    /// Parses a level; the message names line and column.
    pub fn new(text: &str) -> Result<Skiddy, String> {
        let level = Level::parse(text).map_err(|e| e.to_string())?;
        Ok(Skiddy {
            rules: Rules::new(&level),
        })
    }
}

/// The text commands, as for any text puzzle.
static TEXT: PuzzleGame<Skiddy> = PuzzleGame::new(
    "Skiddy: swipe to slide every skiddy home through its goal; optimal swipes, state-space maps, traces; reads screenshots",
);

/// Skiddy: the text puzzle, plus its art, reader and practice window.
pub struct SkiddyGame;

/// The game, as registered.
pub static SKIDDY: SkiddyGame = SkiddyGame;

/// The game's own art: `render` and the practice window.
static ART: Art = Art {
    render: screen::render,
    #[cfg(feature = "live")]
    practice: crate::practice::open::<practice::Practice>,
};

impl Game for SkiddyGame {
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

impl ScreenGame for SkiddyGame {
    type Board = read::Seen;

    fn looks(&self) -> &'static [&'static Embedded] {
        &LOOKS
    }

    fn read(&self, image: &RgbImage, cal: &Calibration) -> read::Read {
        read::read(image, cal)
    }

    fn skin_labels(&self, text: &str) -> Option<Result<Vec<Vec<String>>, GameError>> {
        Some(
            level::Level::parse(text)
                .map(|l| read::labels_of(&l))
                .map_err(|e| GameError::Parse {
                    origin: "the level".into(),
                    message: e.to_string(),
                }),
        )
    }

    fn skin_labels_after(
        &self,
        text: &str,
        moves: &str,
    ) -> Option<Result<Vec<Vec<String>>, GameError>> {
        let parse = |origin: &str, message: String| GameError::Parse {
            origin: origin.into(),
            message,
        };
        Some(
            level::Level::parse(text)
                .map_err(|e| parse("the level", e.to_string()))
                .and_then(|l| read::labels_after(&l, moves).map_err(|m| parse("the moves", m))),
        )
    }

    /// A skin must have seen both kinds of block: one taught only sticky
    /// levels would read a level without glue as sticky when the skin
    /// draws glue no differently.
    fn skin_taught(&self, shots: &[Vec<Vec<String>>]) -> Result<(), String> {
        read::taught_both_blocks(shots)
    }

    fn skin_board(&self, labels: &[Vec<String>], _skin: &Skin) -> Result<read::Seen, NotLegal> {
        read::from_labels(labels)
    }

    fn plan(
        &self,
        _grid: &GridRead,
        seen: read::Seen,
        opts: &Options,
    ) -> Result<Report, GameError> {
        Ok(screen::plan(seen, opts))
    }

    fn pacing(&self) -> Pacing {
        screen::pacing()
    }

    /// A block's centre (`#`), or the board's corner.
    fn safe_point(&self, report: &Report) -> Option<(f64, f64)> {
        wall_or_corner(report, '#')
    }

    /// A level file's rows, without its comments and `sticky:` line: each
    /// cell's middle shows the colour of its letter.
    fn calibration_cells(&self, text: &str) -> Result<Vec<Vec<char>>, GameError> {
        // A board on one line (`--board`) has its rows joined by `/`.
        let lines: Vec<&str> = if text.trim().contains('\n') {
            text.lines().collect()
        } else {
            text.trim().split('/').collect()
        };
        let rows: Vec<&str> = lines
            .into_iter()
            .map(str::trim_end)
            .filter(|l| !l.starts_with(';') && !l.to_ascii_lowercase().starts_with("sticky"))
            .collect();
        crate::vision::learn::board_cells(&rows.join("\n"))
            .map_err(|e| GameError::Usage(e.to_string()))
    }
}

impl crate::solve::Puzzle for Skiddy {
    type State = Key;
    type Move = Move;

    fn successors(&self, s: &Key, out: &mut Vec<(Move, Key)>) {
        self.rules.successors(s, out);
    }

    fn is_goal(&self, s: &Key) -> bool {
        self.rules.is_won(s)
    }

    fn rows(&self, s: &Key) -> Vec<String> {
        self.rules.render_rows(s)
    }

    fn split_moves<'t>(&self, text: &'t str) -> Vec<&'t str> {
        crate::tools::single_letters(text)
    }

    /// The shortest plan, a combo one when a shortest plan can be. The
    /// search runs over (position, combo broken yet) with each move
    /// costing 2 and the move that first breaks the combo 3, so length
    /// comes first and a combo wins ties.
    fn solve(&self, start: &Key, budget: &Budget, progress: &mut Progress) -> Solution<Move> {
        let counts = verify::colour_counts(&self.rules);
        let mut plain = Vec::with_capacity(4);
        let next = |(s, broken): &Tagged, out: &mut Vec<((Move, bool), Tagged)>| {
            plain.clear();
            self.rules.successors(s, &mut plain);
            for (m, n) in plain.drain(..) {
                let breaks = verify::breaks_combo(&m, &counts);
                out.push(((m, breaks && !*broken), (n, *broken || breaks)));
            }
        };
        let (found, stats) = dijkstra(
            (*start, false),
            next,
            |(_, first_break)| 2 + u32::from(*first_break),
            |_| 0,
            |(s, _)| self.rules.is_won(s),
            budget,
            progress,
        );
        let found = match found {
            Found::Path(p) => Found::Path(p.into_iter().map(|(m, _)| m).collect()),
            Found::Exhausted => Found::Exhausted,
            Found::OverBudget { proven } => Found::OverBudget { proven: proven / 2 },
        };
        let mut sol = Solution::new(found, stats, |_| 1);
        if let Found::Path(p) = &sol.found {
            let combo = !p.iter().any(|m| verify::breaks_combo(m, &counts));
            sol.notes.push(("combo", combo.into()));
        }
        sol
    }
}

impl TextPuzzle for Skiddy {
    const ID: &'static str = ID;
    const OPTIONS: &'static [Opt] = &[Opt::MaxMemory, Opt::MaxNodes, Opt::Walkthrough];
    const JOINED_MOVES: bool = true;

    fn verify(
        text: &str,
        origin: &str,
        opts: &Options,
    ) -> Result<crate::report::Output, crate::game::GameError> {
        verify::command(text, origin, opts)
    }

    fn generate(
        opts: &crate::tools::options::GenerateOptions,
    ) -> Result<crate::report::Output, crate::game::GameError> {
        generate::command(opts)
    }

    fn parse(text: &str, _opts: &Options) -> Result<(Self, Key), String> {
        let game = Skiddy::new(text)?;
        let start = game.rules.start;
        Ok((game, start))
    }
}
