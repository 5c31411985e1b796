//! B.i.t.Lock (Block in the Lock): every tile steps one cell per arrow key.
//!
//! - [`level`]: the map format;
//! - [`rules`]: one move, on layouts packed into a few bytes;
//! - [`solver`]: the fewest moves, by A* with a memory-bounded IDA* fallback;
//! - [`art`] and [`motion`]: boardbot's own look, and which piece went where
//!   in a move (for animation);
//! - [`read`]: the level from a screenshot of that art;
//! - [`screen`]: render, solve a screenshot, and the plan as arrow keys;
//! - [`generate`] and `practice`: generated levels, and the practice window.
//!
//! This module puts the rules on the shared puzzle core ([`Lock`]); solve,
//! walkthrough, map, trace and their JSON come from [`crate::tools`].
//! Layouts pack into 8, 16 or 32 bytes; the game picks the narrowest key
//! the level's pieces fit.

pub mod art;
pub mod generate;
pub mod level;
pub mod motion;
#[cfg(feature = "live")]
pub mod practice;
pub mod read;
pub mod rules;
pub mod screen;
pub mod solver;

use self::level::Level;
use self::rules::{Dir, Key, Rules};
use self::solver::Solver;
use crate::art::render::Art;
use crate::calibration::{Calibration, Embedded};
use crate::game::screen::wall_or_corner;
use crate::game::{Game, GameError, OnScreen, Pacing, ScreenGame};
use crate::report::{Output, Report};
use crate::solve::{Budget, Found, Progress, Solution, Stats};
use crate::tools;
use crate::tools::TextPuzzle;
use crate::tools::options::{Opt, Options};
use crate::vision::skin::{Layers, Skin};
use crate::vision::{GridRead, NotLegal};

pub struct BitLock;

pub(crate) const ID: &str = "bitlock";

static LOOKS: [&Embedded; 1] = [&crate::builtin_look!("calibration/bitlock.toml")];

/// Visits IDA* may make after A* runs out of memory, unless `--max-nodes` says otherwise.
const DEFAULT_IDA_VISITS: u64 = 4_000_000_000;

/// Parses a level and its rules, with errors naming `origin`.
pub fn load(text: &str, origin: &str) -> Result<Rules, GameError> {
    parse_rules(text).map_err(|message| GameError::Parse {
        origin: origin.to_string(),
        message,
    })
}

fn parse_rules(text: &str) -> Result<Rules, String> {
    let level = Level::parse(text).map_err(|e| e.to_string())?;
    Rules::new(level).map_err(|e| e.to_string())
}

/// A level on the puzzle core, with layouts packed into `N` bytes.
pub struct Lock<const N: usize> {
    solver: Solver,
}

impl<const N: usize> crate::solve::Puzzle for Lock<N> {
    type State = Key<N>;
    type Move = Dir;

    fn successors(&self, s: &Key<N>, out: &mut Vec<(Dir, Key<N>)>) {
        self.solver.successors(s, out);
    }

    fn is_goal(&self, s: &Key<N>) -> bool {
        self.solver.is_goal(s)
    }

    fn heuristic(&self, s: &Key<N>) -> Option<u32> {
        Some(self.solver.heuristic(s))
    }

    fn rows(&self, s: &Key<N>) -> Vec<String> {
        self.solver.rules.render_rows(s)
    }

    fn split_moves<'t>(&self, text: &'t str) -> Vec<&'t str> {
        tools::single_letters(text)
    }

    /// A* first; when it outgrows the memory budget, IDA* goes on from the
    /// bound A* proved, for up to `budget.max_states` visits.
    fn solve(&self, start: &Key<N>, budget: &Budget, progress: &mut Progress) -> Solution<Dir> {
        let visits = match budget.max_states {
            u64::MAX => DEFAULT_IDA_VISITS,
            n => n,
        };
        let tables = Budget {
            max_states: u64::MAX,
            ..*budget
        };
        let out = solver::solve_n::<N>(&self.solver, *start, &tables, visits, progress);
        let found = match (&out.moves, out.unsolvable) {
            (Some(m), _) => Found::Path(m.chars().filter_map(Dir::from_char).collect()),
            (None, true) => Found::Exhausted,
            (None, false) => Found::OverBudget {
                proven: out.lower_bound,
            },
        };
        let stats = Stats { ..out.stats };
        let mut sol = Solution::new(found, stats, |_| 1);
        sol.optimal = out.proven;
        sol.lower_bound = u64::from(out.lower_bound);
        sol.notes.push(("fell_back_to_ida", out.fell_back.into()));
        sol
    }
}

impl<const N: usize> TextPuzzle for Lock<N> {
    const ID: &'static str = ID;
    const OPTIONS: &'static [Opt] = &[Opt::Win, Opt::MaxMemory, Opt::MaxNodes, Opt::Walkthrough];
    const JOINED_MOVES: bool = true;

    fn parse(text: &str, opts: &Options) -> Result<(Self, Key<N>), String> {
        let rules = parse_rules(text)?;
        let start = rules.start::<N>().map_err(|e| e.to_string())?;
        let solver = Solver::new(&rules, opts.win.unwrap_or_default());
        Ok((Lock { solver }, start))
    }
}

/// The narrowest key the level's layouts fit: 8, 16 or 32 bytes (a broken
/// text reports the same error at any width).
fn width(text: &str) -> usize {
    match parse_rules(text).map_or(0, |r| r.pieces) {
        0..=8 => 8,
        9..=16 => 16,
        _ => 32,
    }
}

/// Calls a generic tool with the level's narrowest key width.
macro_rules! by_width {
    ($text:expr, $tool:ident ( $($arg:expr),* )) => {
        match width($text) {
            8 => tools::$tool::<Lock<8>>($($arg),*),
            16 => tools::$tool::<Lock<16>>($($arg),*),
            _ => tools::$tool::<Lock<32>>($($arg),*),
        }
    };
}

/// The game's own art: `render` and the practice window.
static ART: Art = Art {
    render: screen::render,
    #[cfg(feature = "live")]
    practice: crate::practice::open::<practice::Practice>,
};

impl Game for BitLock {
    fn id(&self) -> &'static str {
        ID
    }

    fn summary(&self) -> &'static str {
        "B.i.t.Lock: every tile steps one cell per arrow key; optimal move strings, maps, traces; reads screenshots"
    }

    fn art(&self) -> Option<&'static Art> {
        Some(&ART)
    }

    fn options(&self) -> &'static [Opt] {
        <Lock<16> as TextPuzzle>::OPTIONS
    }

    fn solve_text(&self, text: &str, origin: &str, opts: &Options) -> Result<Report, GameError> {
        by_width!(text, solve(text, origin, opts))
    }

    fn map(&self, text: &str, origin: &str, opts: &Options) -> Result<Output, GameError> {
        by_width!(text, map(text, origin, opts))
    }

    fn trace(
        &self,
        text: &str,
        origin: &str,
        moves: &str,
        opts: &Options,
    ) -> Result<Output, GameError> {
        by_width!(text, trace(text, origin, moves, opts))
    }

    fn screen(&self) -> Option<&dyn OnScreen> {
        Some(self)
    }
}

/// The classes of a level's cells after `moves` (arrow letters, `LRUD`)
/// are played from its start: a way to teach a tile standing on a
/// target, which the level text cannot write.
fn labels_after(text: &str, moves: &str) -> Result<Vec<Vec<String>>, GameError> {
    let parse = |origin: &str, message: String| GameError::Parse {
        origin: origin.to_string(),
        message,
    };
    let rules = load(&screen::board_text(text), "the level")?;
    let mut key: Key<32> = rules
        .start()
        .map_err(|e| parse("the level", e.to_string()))?;
    for (i, c) in moves.chars().filter(|c| !c.is_whitespace()).enumerate() {
        let d = Dir::from_char(c).ok_or_else(|| {
            let n = i + 1;
            parse(
                "the moves",
                format!("move {n} is '{c}': B.i.t.Lock's moves are L, R, U and D"),
            )
        })?;
        key = rules.play(&key, d);
    }
    Ok(read::labels_of(&rules.level_at(&key)))
}

impl ScreenGame for BitLock {
    type Board = read::Seen;

    fn looks(&self) -> &'static [&'static Embedded] {
        &LOOKS
    }

    fn read(&self, image: &image::RgbImage, cal: &Calibration) -> read::Read {
        read::read(image, cal)
    }

    fn skin_labels(&self, text: &str) -> Option<Result<Vec<Vec<String>>, GameError>> {
        Some(load(&screen::board_text(text), "the level").map(|r| read::labels_of(&r.level)))
    }

    fn skin_labels_after(
        &self,
        text: &str,
        moves: &str,
    ) -> Option<Result<Vec<Vec<String>>, GameError>> {
        Some(labels_after(text, moves))
    }

    /// A look never shown a piece on a target cannot know whether it
    /// hides the target, so reads that the rules cannot settle are
    /// refused ([`read::no_target_hidden`]).
    fn skin_caveat(&self, classes: &[&str]) -> Option<String> {
        let missing: Vec<String> = classes
            .iter()
            .flat_map(|p| classes.iter().filter_map(move |g| read::stacked(p, g)))
            .filter(|pair| !classes.contains(&pair.as_str()))
            .collect();
        let mut bare: Vec<u8> = classes.iter().filter_map(|l| read::target_of(l)).collect();
        bare.sort_unstable();
        bare.dedup();
        bare.retain(|&k| !classes.iter().any(|l| read::target_under(l) == Some(k)));
        let types: Vec<String> = bare.iter().map(|&k| level::letter(k).to_string()).collect();
        let what = if !types.is_empty() {
            format!(
                "no screenshot shows a tile on a target of type {}",
                types.join(" or ")
            )
        } else if !missing.is_empty() {
            format!(
                "no screenshot shows these pieces on these targets, nor could they be made from the pairs shown: {}",
                missing.join(" ")
            )
        } else {
            return None;
        };
        Some(format!(
            "{what}; where this look draws such a piece over its target whole, it cannot tell it from a bare one, so a board with more tiles of a type than targets of it is refused while such a piece is in sight; teach one with --moves (moves that put a tile on a target), which also teaches how the look shows it"
        ))
    }

    /// A piece over a target: taught one pair, a look that draws it so
    /// learns every pair of the pieces and targets it was shown.
    fn skin_layers(&self) -> Option<Layers> {
        Some(Layers {
            floor: ".",
            stack: read::stacked,
        })
    }

    fn skin_board(&self, labels: &[Vec<String>], skin: &Skin) -> Result<read::Seen, NotLegal> {
        let seen = read::from_labels(labels).map_err(NotLegal::from)?;
        read::no_target_hidden(&seen, |piece, kind| {
            skin.taught(|class| class.strip_prefix(piece).and_then(read::target_of) == Some(kind))
        })?;
        Ok(seen)
    }

    fn plan(
        &self,
        _grid: &GridRead,
        seen: read::Seen,
        opts: &Options,
    ) -> Result<Report, GameError> {
        screen::plan(seen, opts)
    }

    fn pacing(&self) -> Pacing {
        screen::pacing()
    }

    /// A wall cell's centre, or the board's outer line at its top left.
    fn safe_point(&self, report: &Report) -> Option<(f64, f64)> {
        wall_or_corner(report, '#')
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::Puzzle;

    #[test]
    fn solves_from_the_state_it_is_given_not_the_levels_start() {
        let text = "#######\n#a   A#\n#######\n";
        let (lock, start) = Lock::<8>::parse(text, &Options::default()).unwrap();
        let budget = Budget::default();
        let mut progress = Progress::new(false);
        let from_start = lock.solve(&start, &budget, &mut progress);
        assert_eq!(from_start.cost, Some(4));
        let mut next = Vec::new();
        lock.successors(&start, &mut next);
        let (_, one_right) = next.into_iter().find(|(d, _)| *d == Dir::R).unwrap();
        let from_there = lock.solve(&one_right, &budget, &mut progress);
        assert_eq!(from_there.cost, Some(3));
    }
}
