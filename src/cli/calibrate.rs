//! `boardbot calibrate`: learns a new skin of a game from one screenshot
//! whose position is given as text, and writes a calibration that `solve`
//! and `play` then use for that game.
//!
//! The learning is `vision::learn`; writing the file is
//! `calibration::save`. This module parses the arguments and says what was
//! learned and where it went.

use std::path::PathBuf;

use anyhow::{Context, anyhow, bail};
use clap::Args as ClapArgs;

use crate::calibration::{self, Calibration, save};
use crate::vision::image_file;
use crate::vision::learn::Learned;

#[derive(ClapArgs)]
pub struct Args {
    /// The game (see `boardbot games`).
    #[arg(long)]
    game: String,
    /// A screenshot of the board in the new skin (select it with a small margin).
    #[arg(long, value_name = "FILE")]
    image: PathBuf,
    /// The screenshot's true position, rows joined by `/` (as `solve --board`).
    #[arg(
        long,
        value_name = "TEXT",
        conflicts_with = "level",
        required_unless_present = "level"
    )]
    board: Option<String>,
    /// A file holding the screenshot's true position as text.
    #[arg(long, value_name = "FILE")]
    level: Option<PathBuf>,
    /// Where to write `<game>.toml` and its templates (default: your config
    /// directory, `<config>/boardbot/calibration/`, which solve and play read).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// When the board lacks a kind of cell (no visited cell, say), keep the
    /// built-in look for it instead of refusing.
    #[arg(long)]
    keep_missing: bool,
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    let game = super::game(&a.game)?;
    let screen = game.screen().ok_or_else(|| {
        anyhow!(
            "{} does not read screenshots: there is nothing to calibrate",
            game.id()
        )
    })?;
    let embedded = screen
        .looks()
        .first()
        .ok_or_else(|| anyhow!("{} ships no look to start from", game.id()))?;
    let base = Calibration::embedded(embedded, game.id())?;
    let text = match (&a.board, &a.level) {
        (Some(t), _) => t.clone(),
        (None, Some(p)) => std::fs::read_to_string(p)
            .with_context(|| format!("cannot read the level {}", p.display()))?,
        (None, None) => bail!("give the screenshot's position: --board TEXT or --level FILE"),
    };
    let img = image_file::open(&a.image)?;
    let learned = screen
        .learn(&img, &text, &base.params, a.keep_missing)
        .with_context(|| format!("cannot calibrate {} on {}", game.id(), a.image.display()))?;
    let (dir, is_user) = match &a.out {
        Some(d) => (d.clone(), false),
        None => (
            calibration::user_dir()
                .ok_or_else(|| anyhow!("no config directory here: pass --out DIR"))?,
            true,
        ),
    };
    let templates: Vec<save::TemplateFile> = learned
        .templates
        .iter()
        .map(|t| save::TemplateFile {
            letter: t.letter,
            name: &t.name,
            image: &t.image,
            mirror: t.mirror,
            min_score: t.min_score,
        })
        .collect();
    let note = format!(
        "boardbot's visual model of {}, learned by `boardbot calibrate` from\n{} ({}×{} cells).\nSee calibration/{}.toml in the project for what each setting means.",
        game.id(),
        a.image.display(),
        learned.lattice.rows(),
        learned.lattice.cols(),
        game.id()
    );
    let path = save::write(&dir, game.id(), &learned.params, &templates, &note)?;
    print_summary(&learned, &path);
    if is_user {
        println!(
            "`boardbot solve` and `boardbot play` now read {} with it.",
            game.id()
        );
    } else {
        println!(
            "Use it with --calibration {}, or calibrate without --out to make it yours for {}.",
            path.display(),
            game.id()
        );
    }
    Ok(0)
}

fn print_summary(l: &Learned, path: &std::path::Path) {
    let (pitch, _) = l.lattice.pitch();
    println!(
        "Learned from a {}×{} board, {:.1} px a cell:",
        l.lattice.rows(),
        l.lattice.cols(),
        pitch
    );
    for c in &l.params.classes {
        let stops: Vec<String> = c.stops.iter().map(|s| s.to_string()).collect();
        let kept = if l.kept.contains(&c.letter) {
            " (kept: not on the board)"
        } else {
            ""
        };
        println!(
            "  '{}' {}: {} ± {:.0}{kept}",
            c.letter,
            c.name,
            stops.join(" → "),
            c.tolerance
        );
    }
    for t in &l.templates {
        println!(
            "  '{}' {}: template cut from the screenshot, {}×{} px",
            t.letter,
            t.name,
            t.image.width(),
            t.image.height()
        );
    }
    let lp = &l.params.lattice;
    println!(
        "  lattice: {}–{} cells a side, {:.0}–{:.0} px a cell",
        lp.min_cells, lp.max_cells, lp.min_pitch, lp.max_pitch
    );
    println!("Wrote {}", path.display());
}
