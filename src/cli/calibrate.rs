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
    /// Moves played from that position before the screenshot was taken,
    /// in the game's plan text (B.i.t.Lock: `RRDL`): a way to show what
    /// the level text cannot write, such as a tile standing on its target
    /// (B.i.t.Lock) or a piece sunk in a pit (Skiddy, `R`).
    /// One per --level, in the same order, `-` for none; teaches a skin.
    #[arg(long, value_name = "MOVES")]
    moves: Vec<String>,
    /// Where to write `<game>.toml` and its templates (default: your config
    /// directory, `<config>/boardbot/calibration/`, which solve and play read).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// When the board lacks a kind of cell (no visited cell, say), keep the
    /// built-in look for it instead of refusing. Only where the built-in
    /// look is made of colours: a skin learns the classes shown, and
    /// refuses a cell of any other when it reads.
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

/// The moves played onto each screenshot's position, if any.
fn moves(a: &Args, shots: usize) -> anyhow::Result<Vec<Option<String>>> {
    if a.moves.is_empty() {
        return Ok(vec![None; shots]);
    }
    if a.moves.len() != shots {
        bail!(
            "{shots} screenshot(s) but {} --moves: give one per position (--level or --board), in the same order (`-` for none)",
            a.moves.len()
        );
    }
    Ok(a.moves
        .iter()
        .map(|m| (m != "-" && !m.trim().is_empty()).then(|| m.clone()))
        .collect())
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
    let moves = moves(&a, texts.len())?;
    let images = a
        .image
        .iter()
        .map(|p| image_file::open(p).map_err(anyhow::Error::from))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let shown: Vec<String> = a.image.iter().map(|p| p.display().to_string()).collect();
    let (dir, is_user) = out_dir(&a)?;
    let taught = Taught {
        images: &images,
        texts: &texts,
        moves: &moves,
        shown: &shown,
    };
    let path = learn_either(screen, &taught, &base, &a, &dir)?;
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

/// Learns the look and writes it: a skin when the game reads skins, the
/// colour learner (one screenshot, on top of the built-in look) for the
/// rest and for `--keep-missing`, where the built-in look is made of
/// colours (a game whose built-in look is a skin learns skins only); each
/// game says which to try first, and the other is tried when the first
/// cannot learn from the screenshots.
fn learn_either(
    screen: &dyn crate::game::OnScreen,
    taught: &Taught,
    base: &Calibration,
    a: &Args,
    dir: &std::path::Path,
) -> anyhow::Result<PathBuf> {
    let id = screen.id();
    let Taught {
        images,
        texts,
        shown,
        ..
    } = *taught;
    // A built-in look that is a skin has no colours to keep: its game
    // learns skins only.
    let builtin_skin = base.params.skin.is_some();
    let skins = screen.skin_labels(&texts[0]).is_some() && (!a.keep_missing || builtin_skin);
    if a.keep_missing && builtin_skin {
        eprintln!(
            "note: --keep-missing keeps nothing: {id}'s built-in look is a skin too, and a skin learns only the classes shown; a cell of any other is refused when read, never guessed"
        );
    }
    let skin = || learn_skin(screen, taught, &base.params, dir);
    let colours = || -> anyhow::Result<PathBuf> {
        if builtin_skin {
            bail!(
                "{id}'s built-in look is a skin, which learns from the position in {id}'s own level text"
            );
        }
        if images.len() != 1 {
            bail!("{id} learns its look from one screenshot: give one --image");
        }
        if taught.has_moves() {
            bail!(
                "--moves teaches a skin, which {id} does not learn here: give the position itself"
            );
        }
        let learned = screen
            .learn(&images[0], &texts[0], &base.params, a.keep_missing)
            .with_context(|| format!("cannot calibrate {id} on {}", shown[0]))?;
        if skins {
            holds_at_other_scales(screen, &images[0], &texts[0], &learned)
                .with_context(|| format!("cannot calibrate {id} on {}", shown[0]))?;
        }
        write_colours(id, &learned, &shown[0], dir)
    };
    if !skins {
        return colours();
    }
    if images.len() > 1 || taught.has_moves() {
        return skin();
    }
    let (first, second): (
        &dyn Fn() -> anyhow::Result<PathBuf>,
        &dyn Fn() -> anyhow::Result<PathBuf>,
    ) = if screen.skin_first() {
        (&skin, &colours)
    } else {
        (&colours, &skin)
    };
    match first() {
        Ok(path) => Ok(path),
        // A screenshot that lacks a kind of cell teaches neither learner
        // that kind: say so rather than learn a look that refuses it.
        Err(e) if lacks_a_class(&e) => Err(e),
        Err(e) => second().map_err(|_| e),
    }
}

/// Reads the screenshot scaled to half and to twice its size with what the
/// colour learner learned: a look that only holds at the scale it was
/// learned at (colours sampled where boardbot's own art puts them) is no
/// look for this skin, and a skin is learned instead.
fn holds_at_other_scales(
    screen: &dyn crate::game::OnScreen,
    img: &image::RgbImage,
    text: &str,
    learned: &Learned,
) -> anyhow::Result<()> {
    let cal = Calibration {
        origin: "the calibration being learnt".into(),
        source: calibration::Source::BuiltIn,
        game: screen.id().into(),
        params: learned.params.clone(),
    };
    let want: Vec<String> = screen
        .calibration_cells(text)?
        .iter()
        .map(|r| r.iter().collect())
        .collect();
    for scale in [0.5, 2.0] {
        let (w, h) = (
            f64::from(img.width()) * scale,
            f64::from(img.height()) * scale,
        );
        let scaled = image::imageops::resize(
            img,
            w as u32,
            h as u32,
            image::imageops::FilterType::Triangle,
        );
        let read = match screen.look(&scaled, &cal).reading {
            crate::vision::Reading::Board { grid, .. } => Some(grid.rows()),
            _ => None,
        };
        if read.as_ref() != Some(&want) {
            bail!("the colours learned do not read the screenshot back at {scale}× its size");
        }
    }
    Ok(())
}

fn lacks_a_class(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        matches!(
            c.downcast_ref::<crate::game::GameError>(),
            Some(crate::game::GameError::Learn(
                crate::vision::learn::LearnError::Missing(_)
            ))
        )
    })
}

/// The rules no cell shows that every taught level gives alike, or why a
/// skin cannot keep one set: a skin reads one game, with one set of rules.
fn taught_rules(mut all: impl Iterator<Item = Option<String>>) -> Result<Option<String>, String> {
    let first = all.next().flatten();
    match all.find(|r| *r != first) {
        None => Ok(first),
        Some(other) => {
            let say = |r: Option<String>| r.unwrap_or_else(|| "none".into());
            Err(format!(
                "the levels given differ in what no cell shows ({} and {}): teach one game's look, with levels of its rules",
                say(first),
                say(other)
            ))
        }
    }
}

/// The screenshots taught, with each one's position: its level text and
/// the moves played onto it, and the name it is shown by.
struct Taught<'a> {
    images: &'a [image::RgbImage],
    texts: &'a [String],
    moves: &'a [Option<String>],
    shown: &'a [String],
}

impl Taught<'_> {
    /// True when moves are played onto some position (a skin's lesson).
    fn has_moves(&self) -> bool {
        self.moves.iter().any(Option::is_some)
    }
}

/// Each taught screenshot's cell classes.
fn taught_labels(
    screen: &dyn crate::game::OnScreen,
    t: &Taught,
) -> anyhow::Result<Vec<Vec<Vec<String>>>> {
    let id = screen.id();
    (t.texts.iter().zip(t.moves).zip(t.shown))
        .map(|((text, moves), s)| {
            let labels = match moves {
                None => screen.skin_labels(text),
                Some(m) => Some(screen.skin_labels_after(text, m).ok_or_else(|| {
                    anyhow!("{id} cannot play --moves onto a position: give the position itself")
                })?),
            };
            labels
                .unwrap_or_else(|| Ok(Vec::new()))
                .with_context(|| format!("the level given for {s}"))
        })
        .collect()
}

/// Learns a skin from every screenshot and writes it.
fn learn_skin(
    screen: &dyn crate::game::OnScreen,
    taught: &Taught,
    base: &crate::vision::ReadParams,
    dir: &std::path::Path,
) -> anyhow::Result<PathBuf> {
    let id = screen.id();
    let Taught {
        images,
        texts,
        shown,
        ..
    } = *taught;
    let labels = taught_labels(screen, taught)?;
    screen
        .skin_taught(&labels)
        .map_err(|e| anyhow!("cannot calibrate {id} on {}: {e}", shown.join(", ")))?;
    let rules = taught_rules(texts.iter().map(|t| screen.skin_rules(t)))
        .map_err(|e| anyhow!("cannot calibrate {id} on {}: {e}", shown.join(", ")))?;
    let shots: Vec<Shot> = images
        .iter()
        .zip(&labels)
        .zip(texts)
        .map(|((image, labels), text)| Shot {
            image,
            labels,
            slot: screen.skin_slot(text),
        })
        .collect();
    let (mut skin, lattices) =
        crate::vision::skin::learn_layered(&shots, screen.skin_layers().as_ref())
            .with_context(|| format!("cannot calibrate {id} on {}", shown.join(", ")))?;
    skin.rules = rules;
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
    print_skin(screen, skin, &lattices, shown, &labels);
    println!("Wrote {}", path.display());
    Ok(path)
}

/// What a skin learned: each shot's board, its looks and classes (those
/// made from their layers named), and what it cannot know.
fn print_skin(
    screen: &dyn crate::game::OnScreen,
    skin: &crate::vision::skin::Skin,
    lattices: &[crate::vision::Lattice],
    shown: &[String],
    labels: &[Vec<Vec<String>>],
) {
    for (l, s) in lattices.iter().zip(shown) {
        // A cell's size: on a board of slots the gaps are wider or narrower.
        let cell = l.cell(0, 0);
        let (px, py) = (cell.width(), cell.height());
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
    let quoted = |cs: &[&str]| {
        cs.iter()
            .map(|c| format!("{c:?}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    println!(
        "Learned {} looks of {} classes ({}); every screenshot reads back exactly.",
        skin.looks.len(),
        classes.len(),
        quoted(&classes)
    );
    let made: Vec<&str> = classes
        .iter()
        .copied()
        .filter(|c| !labels.iter().flatten().flatten().any(|l| l == c))
        .collect();
    if !made.is_empty() {
        println!(
            "Of those, {} no screenshot shows were made from the pairs shown, as a piece drawn over its ground: {}",
            made.len(),
            quoted(&made)
        );
    }
    if let Some(caveat) = screen.skin_caveat(&classes) {
        eprintln!("note: {caveat}");
    }
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

#[cfg(test)]
mod tests {
    use super::taught_rules;

    #[test]
    fn a_skin_keeps_the_rules_every_taught_level_gives_alike() {
        let some = |r: &str| Some(r.to_string());
        assert_eq!(
            taught_rules([some("jump 3"), some("jump 3")].into_iter()),
            Ok(some("jump 3"))
        );
        assert_eq!(taught_rules([None, None].into_iter()), Ok(None));
        let e = taught_rules([some("jump 2"), some("jump 3")].into_iter()).unwrap_err();
        assert!(e.contains("jump 2 and jump 3"), "{e}");
        assert!(taught_rules([some("jump 2"), None].into_iter()).is_err());
    }
}
