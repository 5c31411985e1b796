//! GNOME Klotski: slide the blocks until the special one (`*`) sits on the
//! goal, in as few moves as the game counts (piece moves) or in single-cell
//! steps. The rules and the search are the shared engine in
//! [`crate::engines::blocks`]; this module is the game: the bundled levels and
//! the text commands.
//!
//! - [`levels`]: GNOME's 28 levels, by GSettings index or name.
//! - [`screen`]: live play: moves as drags along their paths, checkpoints,
//!   pacing, a held piece let go, the Congratulations dialog.
//!
//! `solve --game klotski` takes `--level FILE`, `--board 'rows/joined/by/slash'`
//! or `--board gnome:6` / `--board 'gnome:Red Donkey'` (a bundled level),
//! and `--metric steps|pieces`. Its JSON plan adds `metric`, `steps` (cells
//! moved), `pieces` (piece moves) and `detail` (each move's label, grab
//! cell and path) to the core's shape.

pub mod levels;
pub mod plans;
pub mod screen;

pub mod identify;
pub mod learn;
pub mod look;
pub mod read;

use serde::Serialize;

use crate::engines::blocks::board::Board;
use crate::engines::blocks::plan::MAX_KEY_BITS;
use crate::engines::blocks::rules::Blocks;
use crate::engines::blocks::{Dir, Layout, Metric, Move};
use crate::game::{Game, GameError, OnScreen, PuzzleGame, ScreenGame};
use crate::report::Report;
use crate::tools::TextPuzzle;
use crate::tools::options::{Opt, Options};
use crate::vision::GridRead;

pub(crate) const ID: &str = "klotski";

/// The prefix that names a bundled level instead of rows.
pub const BUNDLED: &str = "gnome:";

/// The text commands, as for any text puzzle.
static TEXT: PuzzleGame<Blocks> = PuzzleGame::new(
    "GNOME Klotski: slide blocks until `*` covers the goal; optimal plans in piece moves or cell steps",
);

/// The text of a position: a bundled level (`gnome:6`, `gnome:Red Donkey`)
/// or rows, joined by `/` when written on one line.
pub fn position_text(text: &str) -> Result<String, String> {
    if let Some(key) = text.trim().strip_prefix(BUNDLED) {
        return levels::find(key).map(|l| l.layout().rows().join("\n")).ok_or_else(|| {
            format!(
                "no bundled level {key:?}: give a GSettings index 0 to {} or a name (Red Donkey, Sunshine...)",
                levels::all().len().saturating_sub(1)
            )
        });
    }
    if text.contains('\n') {
        Ok(text.to_string())
    } else {
        Ok(text.replace('/', "\n"))
    }
}

impl TextPuzzle for Blocks {
    const ID: &'static str = ID;
    const OPTIONS: &'static [Opt] = &[
        Opt::MaxMemory,
        Opt::MaxNodes,
        Opt::Walkthrough,
        Opt::Metric,
        Opt::NoBook,
        Opt::SpillDir,
    ];

    fn parse(text: &str, opts: &Options) -> Result<(Blocks, Self::State), String> {
        let text = position_text(text)?;
        // The origin is added by the caller; the message keeps the line.
        let layout = Layout::parse(&text, "").map_err(|e| match e.line {
            Some(l) => format!("line {l}: {}", e.message),
            None => e.message,
        })?;
        let board = Board::new(&layout);
        let bits = board.key_bits;
        if bits > MAX_KEY_BITS {
            return Err(format!(
                "the position needs {bits} bits per state and the engine packs at most \
                 {MAX_KEY_BITS}: too many pieces that can move"
            ));
        }
        let book = plans::book_for(&layout);
        let (mut p, start) = Blocks::new(layout, opts.metric.unwrap_or_default());
        if !opts.no_book {
            p.book = book;
        }
        if let Some(dir) = &opts.spill_dir {
            crate::engines::blocks::spill::spill_to(dir.clone());
        }
        p.compiled = Some(board);
        Ok((p, start))
    }

    fn reversible(&self) -> bool {
        true
    }
}

/// One move for scripts.
#[derive(Serialize)]
struct Detail {
    label: char,
    grab: [usize; 2],
    path: Vec<&'static str>,
}

/// Adds the metric, both counts and each move's detail to the plan, and a
/// readable line per move to the text.
fn describe(r: &mut Report, metric: Metric, moves: &[Move]) {
    let steps: usize = moves.iter().map(|m| m.path.len()).sum();
    let pieces = moves
        .iter()
        .enumerate()
        .filter(|(i, m)| *i == 0 || moves[i - 1].label != m.label)
        .count();
    if let Some(plan) = r.plan.as_mut().and_then(serde_json::Value::as_object_mut) {
        plan.insert("metric".into(), metric.name().into());
        plan.insert("steps".into(), steps.into());
        plan.insert("pieces".into(), pieces.into());
        let detail: Vec<Detail> = moves
            .iter()
            .map(|m| Detail {
                label: m.label,
                grab: [m.grab.0, m.grab.1],
                path: m.path.iter().map(|d| d.word()).collect(),
            })
            .collect();
        plan.insert("detail".into(), crate::report::value(&detail));
    }
    if moves.is_empty() {
        return;
    }
    r.details.push(format!(
        "{pieces} piece moves, {steps} cells moved ({} metric). Rows and columns count from 0:",
        metric.name()
    ));
    for (i, m) in moves.iter().enumerate() {
        let path: Vec<&str> = m.path.iter().map(|d: &Dir| d.word()).collect();
        r.details.push(format!(
            "  {:>3}. {} (row {}, col {}): {}",
            i + 1,
            m.label,
            m.grab.0,
            m.grab.1,
            path.join(", ")
        ));
    }
}

/// How long play may think before it must move: the optimal search gets
/// a share of it, beam search the rest.
const PLAY_WAIT: std::time::Duration = std::time::Duration::from_secs(8);

/// GNOME Klotski.
pub struct Klotski;

/// The game, as registered.
pub static KLOTSKI: Klotski = Klotski;

impl Game for Klotski {
    fn id(&self) -> &'static str {
        ID
    }

    fn text_commands(&self) -> Option<&'static dyn Game> {
        Some(&TEXT)
    }

    fn solve_text(&self, text: &str, origin: &str, opts: &Options) -> Result<Report, GameError> {
        let (p, start) =
            <Blocks as TextPuzzle>::parse(text, opts).map_err(|message| GameError::Parse {
                origin: origin.to_string(),
                message,
            })?;
        let (mut r, moves) = crate::tools::solve_parsed(&p, &start, opts)?;
        describe(&mut r, p.metric, &moves);
        Ok(r)
    }

    fn screen(&self) -> Option<&dyn OnScreen> {
        Some(self)
    }
}

impl ScreenGame for Klotski {
    type Board = read::Board;

    fn looks(&self) -> &'static [&'static crate::calibration::Embedded] {
        &read::LOOKS
    }

    fn read(&self, image: &image::RgbImage, cal: &crate::calibration::Calibration) -> read::Read {
        read::read(image, cal)
    }

    /// Plans from what GNOME Klotski's window shows (`--metric`, as for
    /// text): the moves as drags, and the boards to check on the way.
    fn plan(
        &self,
        grid: &GridRead,
        board: read::Board,
        opts: &Options,
    ) -> Result<Report, GameError> {
        let (mut p, start) = Blocks::new(board.layout.clone(), opts.metric.unwrap_or_default());
        p.book = plans::book_for(&board.layout);
        // A player is waiting: past this, a plan by beam search is played.
        p.wait = Some(PLAY_WAIT);
        let (mut r, m) = crate::tools::solve_parsed(&p, &start, opts)?;
        describe(&mut r, p.metric, &m);
        r.details.insert(
            0,
            format!(
                "read as GNOME Klotski level {} \"{}\" ({} pack)",
                board.level.index, board.level.name, board.level.group
            ),
        );
        r.actions = Some(screen::actions(&m, &grid.lattice));
        r.checkpoints = screen::checkpoints(&board.layout, &board.level.layout(), &m);
        if r.board.is_none() {
            r.board = Some(crate::report::BoardReport::from_rows(board.layout.rows()));
        }
        Ok(r)
    }

    fn pacing(&self) -> crate::game::Pacing {
        screen::pacing()
    }

    fn step(&self, report: &Report) -> crate::game::Step {
        screen::step(report)
    }

    /// Learns the colours from a screenshot of a known level (`6`,
    /// `gnome:Red Donkey`) or position (rows).
    fn learn(
        &self,
        img: &image::RgbImage,
        text: &str,
        base: &crate::vision::ReadParams,
        _keep_missing: bool,
    ) -> Result<crate::vision::learn::Learned, GameError> {
        let want = learn::layout_of(text).map_err(GameError::Usage)?;
        Ok(learn::learn(img, &want, base)?)
    }
}
