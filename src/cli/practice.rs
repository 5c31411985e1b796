//! `boardbot practice`: a playable Troyis-style board in a window, to try
//! boardbot on without the original game.

use std::path::PathBuf;

use anyhow::{anyhow, bail};
use clap::Args as ClapArgs;

use crate::games::troyis::practice::{self, Options};

#[derive(ClapArgs)]
pub struct Args {
    /// Only `troyis` has a practice board.
    #[arg(long, default_value = "troyis")]
    game: String,
    /// Board side (3 to 16); default: the level's own size.
    #[arg(long, allow_hyphen_values = true, value_name = "N")]
    size: Option<usize>,
    /// Seed of the level generator (default: the level number).
    #[arg(long, allow_hyphen_values = true, value_name = "S")]
    seed: Option<u64>,
    /// Level number, from 1; later levels are larger.
    #[arg(
        long,
        allow_hyphen_values = true,
        value_name = "L",
        default_value_t = 3
    )]
    level: u32,
    /// Write {"solved","moves","revisits","clicks",…} here after every click and when the window closes.
    #[arg(long, value_name = "FILE")]
    result: Option<PathBuf>,
    /// Where to put the window's inside on screen, X,Y.
    #[arg(long, allow_hyphen_values = true, value_name = "X,Y")]
    position: Option<String>,
    /// Cell size in pixels.
    #[arg(long, allow_hyphen_values = true, default_value_t = 44.0)]
    pitch: f64,
    /// Drifting clouds over the board.
    #[arg(long, allow_hyphen_values = true, default_value_t = 3)]
    clouds: usize,
    /// After a completed level, go on to the next one.
    #[arg(long)]
    next: bool,
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    if a.game != "troyis" {
        bail!("only troyis has a practice board");
    }
    if let Some(n) = a.size {
        if !(3..=16).contains(&n) {
            bail!("--size must be between 3 and 16");
        }
    }
    if !(16.0..=200.0).contains(&a.pitch) {
        bail!("--pitch must be between 16 and 200 pixels");
    }
    if a.clouds > 30 {
        bail!("--clouds must be at most 30");
    }
    let position = a
        .position
        .as_deref()
        .map(|p| -> anyhow::Result<(i32, i32)> {
            let (x, y) = p
                .split_once(',')
                .ok_or_else(|| anyhow!("--position must be X,Y"))?;
            Ok((x.trim().parse()?, y.trim().parse()?))
        })
        .transpose()
        .map_err(|e| anyhow!("--position must be two whole numbers X,Y: {e}"))?;
    let out = practice::run(Options {
        level: a.level.max(1),
        size: a.size,
        seed: a.seed.unwrap_or(u64::from(a.level)),
        pitch: a.pitch,
        position,
        clouds: a.clouds,
        result: a.result,
        next: a.next,
    })?;
    eprintln!(
        "Level {}: {} ({} moves, {} revisits).",
        out.level,
        if out.solved {
            "completed"
        } else {
            "not completed"
        },
        out.moves,
        out.revisits
    );
    Ok(0)
}
