//! `boardbot generate`: new levels for a game, each verified before it is
//! kept (Skiddy: placed at random under the ring rules, rated by stars).

use std::path::PathBuf;

use anyhow::{Context, anyhow};
use clap::Args as ClapArgs;

use crate::tools::options::GenerateOptions;

#[derive(ClapArgs)]
pub struct Args {
    /// The game (skiddy).
    #[arg(long)]
    game: String,
    /// Board size, the ring included, as WxH (5x4 to 8x7 in the original).
    #[arg(long, value_name = "WxH")]
    size: String,
    /// How many colours of skiddies (1 to 4).
    #[arg(long, alias = "colors", value_name = "N")]
    colours: usize,
    /// How many skiddies, shared out among the colours.
    #[arg(long, value_name = "N")]
    skiddies: usize,
    #[arg(long, value_name = "N", default_value_t = 0)]
    crates: usize,
    #[arg(long, value_name = "N", default_value_t = 0)]
    ice: usize,
    #[arg(long, value_name = "N", default_value_t = 0)]
    pits: usize,
    /// Percent of the inner cells that are blocks.
    #[arg(long = "static", value_name = "PCT", default_value_t = 0)]
    static_pct: u32,
    #[arg(long, value_name = "N", default_value_t = 1)]
    goals_per_colour: usize,
    /// Keep levels whose shortest solution has MIN to MAX moves.
    #[arg(long, value_name = "MIN-MAX")]
    perfect: Option<String>,
    /// Keep levels rated at least this many stars (1: solvable, no dead end).
    #[arg(long, value_name = "0-3", default_value_t = 1)]
    stars: u8,
    /// Levels to keep.
    #[arg(long, value_name = "N", default_value_t = 10)]
    count: usize,
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Write each level (DIR/*.txt) with its verification (DIR/*.json).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Candidates to try before giving up.
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    tries: u64,
    /// Skip a candidate whose map passes this many positions.
    #[arg(long, value_name = "N", default_value_t = 2_000_000)]
    max_states: u64,
    /// Worker threads (default: every core).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
}

/// `WxH`.
fn size(text: &str) -> anyhow::Result<(usize, usize)> {
    let (w, h) = text
        .split_once(['x', 'X', '×'])
        .ok_or_else(|| anyhow!("--size {text}: write it as WxH, e.g. 8x7"))?;
    let n = |s: &str| {
        s.trim()
            .parse::<usize>()
            .with_context(|| format!("--size {text}: {s:?} is not a number"))
    };
    Ok((n(w)?, n(h)?))
}

/// `MIN-MAX`, or one number for both.
fn range(text: &str) -> anyhow::Result<(usize, usize)> {
    let n = |s: &str| {
        s.trim()
            .parse::<usize>()
            .with_context(|| format!("--perfect {text}: write MIN-MAX, e.g. 4-9"))
    };
    let (lo, hi) = match text.split_once('-') {
        Some((a, b)) => (n(a)?, n(b)?),
        None => (n(text)?, n(text)?),
    };
    anyhow::ensure!(lo <= hi, "--perfect {text}: MIN is above MAX");
    Ok((lo, hi))
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    let game = super::game(&a.game)?;
    let threads = a
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let opts = GenerateOptions {
        size: size(&a.size)?,
        colours: a.colours,
        skiddies: a.skiddies,
        crates: a.crates,
        ice: a.ice,
        pits: a.pits,
        static_pct: a.static_pct,
        goals_per_colour: a.goals_per_colour,
        perfect: a.perfect.as_deref().map(range).transpose()?,
        stars: a.stars,
        count: a.count,
        seed: a.seed,
        out: a.out,
        tries: a.tries,
        max_states: a.max_states,
        threads,
        progress: !a.json,
    };
    let out = game.generate(&opts)?;
    out.print(a.json);
    Ok(out.exit_code())
}
