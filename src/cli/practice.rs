//! `boardbot practice`: a game's practice window, in boardbot's own art, to
//! try boardbot on (or to record a human's session) without the original game.

use std::path::PathBuf;

use anyhow::anyhow;
use clap::Args as ClapArgs;

use crate::practice::PracticeOptions;
use crate::tools::options::Win;

#[derive(ClapArgs)]
pub struct Args {
    /// The game: one with its own art (troyis, bitlock, rush, skiddy, continuity).
    #[arg(long, default_value = "troyis")]
    game: String,
    /// Troyis: the level number, from 1 (later levels are larger; default 3).
    /// B.i.t.Lock: a level file (default: a generated level).
    #[arg(long, allow_hyphen_values = true, value_name = "L|FILE")]
    level: Option<String>,
    /// Rush Hour: the board, 36 characters (default: one of a bundled set).
    #[arg(long, value_name = "TEXT")]
    board: Option<String>,
    /// Troyis: board side (3 to 16); default: the level's own size.
    #[arg(long, allow_hyphen_values = true, value_name = "N")]
    size: Option<usize>,
    /// Seed of the level generator or of the choice of board.
    #[arg(long, allow_hyphen_values = true, value_name = "S")]
    seed: Option<u64>,
    /// Write {"solved","moves","log":[{"move","t_ms","think_ms"}…],…} here after every move and when the window closes (Troyis: {"solved","moves","revisits","clicks",…}).
    #[arg(long, value_name = "FILE")]
    result: Option<PathBuf>,
    /// Record the session for `boardbot trace --record`: the same document, with the start position.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Where to put the window's inside on screen, X,Y.
    #[arg(long, allow_hyphen_values = true, value_name = "X,Y")]
    position: Option<String>,
    /// Cell size in pixels (16 to 200).
    #[arg(long, allow_hyphen_values = true)]
    pitch: Option<f64>,
    /// Troyis: drifting clouds over the board (default 3).
    #[arg(long, allow_hyphen_values = true)]
    clouds: Option<usize>,
    /// Troyis: after a completed level, go on to the next one.
    #[arg(long)]
    next: bool,
    /// B.i.t.Lock: when a level counts as won.
    #[arg(long, value_enum, value_name = "cover|exact")]
    win: Option<Win>,
    /// Ignore the N-th move input, as if it were lost (for testing re-planning).
    #[arg(long, value_name = "N")]
    drop_input: Option<usize>,
    /// Continuity: milliseconds per step while a key is held (default 125).
    #[arg(long, value_name = "MS")]
    tick_ms: Option<u64>,
    /// Continuity: one step per key press, not per tick.
    #[arg(long)]
    step_on_key: bool,
}

fn position(text: Option<&str>) -> anyhow::Result<Option<(i32, i32)>> {
    text.map(|p| -> anyhow::Result<(i32, i32)> {
        let (x, y) = p
            .split_once(',')
            .ok_or_else(|| anyhow!("a comma is missing"))?;
        Ok((x.trim().parse()?, y.trim().parse()?))
    })
    .transpose()
    .map_err(|e| anyhow!("--position must be two whole numbers, X,Y ({e})"))
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    let game = super::game(&a.game)?;
    let opts = PracticeOptions {
        position: position(a.position.as_deref())?,
        level: a.level,
        board: a.board,
        size: a.size,
        seed: a.seed,
        pitch: a.pitch,
        clouds: a.clouds,
        result: a.result,
        record: a.record,
        next: a.next,
        win: a.win,
        drop_input: a.drop_input,
        tick_ms: a.tick_ms,
        step_on_key: a.step_on_key,
    };
    let summary = game.practice(&opts)?;
    eprintln!("{summary}");
    Ok(0)
}
