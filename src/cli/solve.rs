//! `boardbot solve`: read a position from a screenshot or from text, solve
//! it, and print the plan (text, or one JSON document with `--json`).

use std::path::PathBuf;

use anyhow::{Context, bail};

use clap::Args as ClapArgs;

use crate::game::recognise::Lineup;
use crate::report::{Report, Verdict};
use crate::tools::options;
use crate::tools::options::{Options, Win};
use crate::vision::debug;

#[derive(ClapArgs)]
pub struct Args {
    /// The game (see `boardbot games`). Optional with --image: without it,
    /// every game looks and the one that reads the board for sure plays it.
    #[arg(long, required_unless_present = "image")]
    game: Option<String>,
    /// A screenshot of the board (what a selection would capture).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["board", "level"])]
    image: Option<PathBuf>,
    /// The board as text, rows joined by `/` (Troyis: K knight, W target, V visited, . dark; klotski: also `gnome:N` or `gnome:NAME`, a bundled GNOME level).
    #[arg(long, value_name = "TEXT", conflicts_with = "level")]
    board: Option<String>,
    /// A file holding the position as text.
    #[arg(long, value_name = "FILE")]
    level: Option<PathBuf>,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
    /// Write the input overlaid with the lattice, each cell's letter and confidence, and the plan.
    #[arg(long, value_name = "OUT.png")]
    debug_image: Option<PathBuf>,
    /// Use this calibration file instead of the built-in one.
    #[arg(long, value_name = "FILE")]
    calibration: Option<PathBuf>,
    /// Stop searching after this many nodes and keep the best plan found.
    #[arg(long, value_name = "N")]
    max_nodes: Option<u64>,
    /// When a level counts as won (bitlock): cover (every target holds its type, as in the game) or exact (and no other tile remains).
    #[arg(long, value_enum, value_name = "cover|exact")]
    win: Option<Win>,
    /// Memory the search may use before it switches to a memory-bounded search or gives up (every game that searches; default 2G).
    #[arg(long, value_name = "SIZE")]
    max_memory: Option<crate::solve::Bytes>,
    /// Print the board after each move.
    #[arg(long)]
    walkthrough: bool,
    /// What one tile slide costs (continuity; default 5, steps and view toggles cost 1; at most 10000).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=10_000))]
    slide_cost: Option<u32>,
    /// Print the exits graph: each scene's openings and what reaches what (continuity).
    #[arg(long)]
    exits: bool,
    /// How moves are counted (klotski): pieces (one piece along any path, as GNOME counts; default) or steps (one cell).
    #[arg(long, value_enum, value_name = "steps|pieces")]
    metric: Option<crate::tools::options::Metric>,
    /// Search from scratch even where boardbot ships a plan for the position (klotski: GNOME's levels), to time or check the search.
    #[arg(long)]
    no_book: bool,
    /// Keep the optimal search's older layers in unnamed files in this directory, so a proof needs memory for its widest layers only (klotski; the files go when the search ends).
    #[arg(long, value_name = "DIR")]
    spill_dir: Option<PathBuf>,
    /// Solve every line of a file of `moves position [more fields]` lines and report the ones that differ (one-line positions, such as Rush Hour's).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["image", "board", "level"])]
    batch: Option<PathBuf>,
}

impl Args {
    fn options(&self) -> Options {
        Options {
            max_nodes: self.max_nodes,
            max_memory: self.max_memory,
            win: self.win,
            walkthrough: self.walkthrough,
            slide_cost: self.slide_cost,
            exits: self.exits,
            metric: self.metric,
            no_book: self.no_book,
            spill_dir: self.spill_dir.clone(),
            progress: !self.json,
            ..Options::default()
        }
    }
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    let opts = a.options();
    let Some(id) = &a.game else {
        return recognise(&a, &opts);
    };
    let game = super::game(id)?;
    options::check(game.id(), game.options(), &opts, &[])?;
    if let Some(dir) = a.spill_dir.as_ref().filter(|d| !d.is_dir()) {
        bail!(
            "--spill-dir {}: not a directory (create it first)",
            dir.display()
        );
    }
    if a.image.is_none() && (a.debug_image.is_some() || a.calibration.is_some()) {
        bail!("--debug-image and --calibration apply to screenshots: add --image FILE");
    }
    if let Some(path) = &a.batch {
        let mut src = crate::tools::BatchSource::from_file(path)?;
        let out = game.batch(&mut src, &opts)?;
        out.print(a.json);
        return Ok(out.exit_code());
    }
    let report = if let Some(path) = &a.image {
        let screen = game.on_screen()?;
        let cal = screen.load_calibration(a.calibration.as_deref())?;
        let img = crate::vision::image_file::open(path)?;
        let report = screen.solve_image(&img, &cal, &opts)?;
        write_debug_image(&img, &report, a.debug_image.as_deref())?;
        report
    } else if let Some(text) = &a.board {
        game.solve_text(text, "--board", &opts)?
    } else if let Some(path) = &a.level {
        let text = super::read_text(path)?;
        game.solve_text(&text, &path.display().to_string(), &opts)?
    } else {
        bail!(
            "say what to solve: --image FILE (a screenshot), --board TEXT, --level FILE or --batch FILE"
        );
    };
    print(&report, a.json, a.debug_image.is_some());
    Ok(report.state.exit_code())
}

/// `solve --image` with no `--game`: every game looks, and the one that
/// reads the board for sure plans it.
fn recognise(a: &Args, opts: &Options) -> anyhow::Result<i32> {
    let Some(path) = &a.image else {
        bail!(
            "name the game with --game: a position written as text does not say which game it is"
        );
    };
    if a.calibration.is_some() {
        bail!("--calibration is one game's look: name the game with --game");
    }
    let games = super::boardbot_games();
    // Each option goes to the game recognised, if it reads it.
    let read_by_none = opts.given().into_iter().find(|o| {
        !games
            .iter()
            .any(|g| g.screen().is_some() && g.options().contains(o))
    });
    if let Some(o) = read_by_none {
        bail!("{o} applies to no game that reads screenshots");
    }
    let img = crate::vision::image_file::open(path)?;
    let lineup = Lineup::new(&games);
    let report = lineup.solve(&img, opts, None)?.report;
    write_debug_image(&img, &report, a.debug_image.as_deref())?;
    print(&report, a.json, a.debug_image.is_some());
    Ok(report.state.exit_code())
}

/// Writes what was seen and planned over the screenshot, when asked.
fn write_debug_image(
    img: &image::RgbImage,
    report: &Report,
    out: Option<&std::path::Path>,
) -> anyhow::Result<()> {
    let Some(out) = out else { return Ok(()) };
    let acts = report.actions.as_deref().unwrap_or(&[]);
    let overlay = debug::render(img, report.seen.grid.as_ref(), acts);
    crate::files::write_png(out, &overlay).context("--debug-image")
}

/// Prints a report as text or JSON.
pub(crate) fn print(report: &Report, json: bool, have_debug_image: bool) {
    if json {
        println!("{}", report.to_json());
        return;
    }
    print!("{}", report.to_text());
    print_actions(report, "image pixels");
    if let Some(v) = report.timing_ms.vision {
        println!(
            "Time: vision {v:.1} ms, solve {:.1} ms.",
            report.timing_ms.solve
        );
    } else {
        println!("Time: solve {:.1} ms.", report.timing_ms.solve);
    }
    let unsure = matches!(report.state, Verdict::NoBoard | Verdict::Uncertain);
    if unsure && report.seen.grid.is_some() && !have_debug_image {
        println!("Run again with --debug-image OUT.png to see what was read.");
    }
}

/// Lists a report's actions, if it has any, saying which coordinates they are in.
pub(crate) fn print_actions(report: &Report, unit: &str) {
    let Some(acts) = report.actions.as_ref().filter(|a| !a.is_empty()) else {
        return;
    };
    let kind = if acts
        .iter()
        .all(|a| matches!(a, crate::input::Action::Click { .. }))
    {
        "Clicks"
    } else {
        "Input"
    };
    println!("{kind} ({unit}), {} in all:", acts.len());
    for (i, a) in acts.iter().enumerate() {
        println!("  {:>3}. {a}", i + 1);
    }
}
