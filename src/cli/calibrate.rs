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
use crate::vision::skin::Shot;

#[derive(ClapArgs)]
pub struct Args {
    /// The game (see `boardbot games`).
    #[arg(long)]
    game: String,
    /// A screenshot of the board in the new skin (select it with a small
    /// margin). Give it again, each with its own --level, to learn from
    /// several screenshots.
    #[arg(long, value_name = "FILE", required = true)]
    image: Vec<PathBuf>,
    /// The screenshot's true position, rows joined by `/` (as `solve --board`).
    #[arg(long, value_name = "TEXT", conflicts_with = "level")]
    board: Option<String>,
    /// A file holding the screenshot's true position in the game's level
    /// text (as `solve --level`); one per --image, in the same order.
    #[arg(long, value_name = "FILE")]
    level: Vec<PathBuf>,
    /// Where to write `<game>.toml` and its templates (default: your config
    /// directory, `<config>/boardbot/calibration/`, which solve and play read).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// When the board lacks a kind of cell (no visited cell, say), keep the
    /// built-in look for it instead of refusing.
    #[arg(long)]
    keep_missing: bool,
}

/// Each screenshot's position as text, paired with its screenshot.
fn positions(a: &Args) -> anyhow::Result<Vec<String>> {
    if let Some(t) = &a.board {
        if a.image.len() != 1 {
            bail!("--board gives one position; with several --image, give each its --level FILE");
        }
        return Ok(vec![t.clone()]);
    }
    if a.level.is_empty() {
        bail!("give the screenshot's position: --board TEXT or --level FILE");
    }
    if a.level.len() != a.image.len() {
        bail!(
            "{} screenshot(s) but {} level(s): give one --level FILE per --image, in the same order",
            a.image.len(),
            a.level.len()
        );
    }
    a.level
        .iter()
        .map(|p| {
            std::fs::read_to_string(p)
                .with_context(|| format!("cannot read the level {}", p.display()))
        })
        .collect()
}

/// Where to write, and whether it is the user's own directory.
fn out_dir(a: &Args) -> anyhow::Result<(PathBuf, bool)> {
    Ok(match &a.out {
        Some(d) => (d.clone(), false),
        None => (
            calibration::user_dir()
                .ok_or_else(|| anyhow!("no config directory here: pass --out DIR"))?,
            true,
        ),
    })
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
    let texts = positions(&a)?;
    let images = a
        .image
        .iter()
        .map(|p| image_file::open(p).map_err(anyhow::Error::from))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let shown: Vec<String> = a.image.iter().map(|p| p.display().to_string()).collect();
    let (dir, is_user) = out_dir(&a)?;
    // A skin is learned whenever the game reads skins; the colour learner
    // (one screenshot, on top of the built-in look) is for the rest, for
    // --keep-missing, and for a skin that could not be learned.
    let skin = (screen.skin_labels(&texts[0]).is_some() && !a.keep_missing)
        .then(|| learn_skin(screen, &images, &texts, &shown, &base.params, &dir));
    let path = match skin {
        Some(Ok(path)) => path,
        Some(Err(e)) if images.len() > 1 => return Err(e),
        skin_error => {
            if images.len() != 1 {
                bail!(
                    "{} learns its look from one screenshot: give one --image",
                    game.id()
                );
            }
            let learned = screen
                .learn(&images[0], &texts[0], &base.params, a.keep_missing)
                .with_context(|| format!("cannot calibrate {} on {}", game.id(), shown[0]));
            match (learned, skin_error) {
                (Ok(l), _) => write_colours(game.id(), &l, &shown[0], &dir)?,
                (Err(_), Some(Err(skin))) => return Err(skin),
                (Err(e), _) => return Err(e),
            }
        }
    };
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

/// Learns a skin from every screenshot and writes it.
fn learn_skin(
    screen: &dyn crate::game::OnScreen,
    images: &[image::RgbImage],
    texts: &[String],
    shown: &[String],
    base: &crate::vision::ReadParams,
    dir: &std::path::Path,
) -> anyhow::Result<PathBuf> {
    let id = screen.id();
    let labels = texts
        .iter()
        .zip(shown)
        .map(|(t, s)| {
            screen
                .skin_labels(t)
                .unwrap_or_else(|| Ok(Vec::new()))
                .with_context(|| format!("the level given for {s}"))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let shots: Vec<Shot> = images
        .iter()
        .zip(&labels)
        .map(|(image, labels)| Shot { image, labels })
        .collect();
    let (skin, lattices) = crate::vision::skin::learn(&shots)
        .with_context(|| format!("cannot calibrate {id} on {}", shown.join(", ")))?;
    let params = crate::vision::ReadParams {
        skin: Some(skin),
        classes: Vec::new(),
        markers: Vec::new(),
        ..base.clone()
    };
    let note = format!(
        "boardbot's skin of {id}, learned by `boardbot calibrate` from\n{}.",
        shown.join(",\n")
    );
    let path = save::write(dir, id, &params, &[], &note)?;
    let skin = params.skin.as_ref().expect("just set");
    for (l, s) in lattices.iter().zip(shown) {
        let (px, py) = l.pitch();
        println!(
            "{s}: a {}×{} board, {px:.1}×{py:.1} px a cell",
            l.rows(),
            l.cols()
        );
    }
    let mut classes: Vec<&str> = Vec::new();
    for l in &skin.looks {
        if !classes.contains(&l.label.as_str()) {
            classes.push(&l.label);
        }
    }
    println!(
        "Learned {} looks of {} classes ({}); every screenshot reads back exactly.",
        skin.looks.len(),
        classes.len(),
        classes
            .iter()
            .map(|c| format!("{c:?}"))
            .collect::<Vec<_>>()
            .join(" ")
    );
    println!("Wrote {}", path.display());
    Ok(path)
}

/// Writes what the colour learner learned.
fn write_colours(
    id: &str,
    learned: &Learned,
    shown: &str,
    dir: &std::path::Path,
) -> anyhow::Result<PathBuf> {
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
        "boardbot's visual model of {id}, learned by `boardbot calibrate` from\n{shown} ({}×{} cells).\nSee calibration/{id}.toml in the project for what each setting means.",
        learned.lattice.rows(),
        learned.lattice.cols(),
    );
    let path = save::write(dir, id, &learned.params, &templates, &note)?;
    print_summary(learned, &path);
    Ok(path)
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
