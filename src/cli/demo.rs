//! `boardbot demo`: boardbot at work with nothing to set up. It reads a
//! bundled screenshot of a Troyis board (drawn by boardbot's own
//! renderer), prints the board, the plan and the clicks it would make, and
//! saves the debug image of what it saw.

use std::path::PathBuf;

use anyhow::Context;
use clap::Args as ClapArgs;

use crate::games::troyis::Troyis;
use crate::games::{Game, SolveOptions};
use crate::vision::debug;

/// A 9×9 level with page margins and clouds, from `tests/fixtures/troyis`.
const SCREENSHOT: &[u8] = include_bytes!("../../tests/fixtures/troyis/k9_p36_margin_purple.png");

#[derive(ClapArgs)]
pub struct Args {
    /// Where to write the debug image (default: boardbot-demo-seen.png in the temp directory).
    #[arg(long, value_name = "OUT.png")]
    debug_image: Option<PathBuf>,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    let img = image::load_from_memory(SCREENSHOT)
        .context("the bundled screenshot")?
        .to_rgb8();
    let cal = Troyis.load_calibration(None)?;
    let report = Troyis.solve_image(&img, &cal, &SolveOptions::default())?;
    let out = a
        .debug_image
        .unwrap_or_else(|| std::env::temp_dir().join("boardbot-demo-seen.png"));
    let seen = &report.seen;
    debug::render(&img, seen.grid.as_ref(), seen.start, &seen.path)
        .save(&out)
        .with_context(|| format!("cannot write the debug image {}", out.display()))?;
    if !a.json {
        println!(
            "boardbot demo: reading a bundled {}×{} screenshot of a Troyis board.\n",
            img.width(),
            img.height()
        );
    }
    super::solve::print(&report, a.json, true);
    if !a.json {
        println!(
            "\nWhat it saw (lattice, each cell's letter and confidence, the route): {}",
            out.display()
        );
    }
    Ok(report.state.exit_code())
}
