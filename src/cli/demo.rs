//! `boardbot demo`: boardbot at work with nothing to set up.
//!
//! With a display, it opens the practice board and plays it live, clicking
//! the real mouse. Without one (or with `--offline`), it reads a bundled
//! screenshot of a Troyis board drawn by boardbot's own renderer, prints
//! the board, the plan and the clicks it would make, and saves the debug
//! image of what it saw.

use std::path::PathBuf;

use anyhow::Context;
use clap::Args as ClapArgs;

use crate::game::OnScreen;
use crate::games::troyis::Troyis;
use crate::tools::options::Options;
use crate::vision::debug;

/// A 9×9 level with page margins and clouds, from `tests/fixtures/troyis`.
const SCREENSHOT: &[u8] = include_bytes!("../../tests/fixtures/troyis/k9_p36_margin_purple.png");

#[derive(ClapArgs)]
pub struct Args {
    /// Solve the bundled screenshot even when a display is available.
    #[arg(long)]
    offline: bool,
    /// Where to write the debug image (default: boardbot-demo-seen.png in the temp directory).
    #[arg(long, value_name = "OUT.png")]
    debug_image: Option<PathBuf>,
    /// Print one JSON document instead of text (offline demo).
    #[arg(long)]
    json: bool,
    /// Live demo: close the practice window this many seconds after the play
    /// (default: leave it open until you close it).
    #[arg(long, value_name = "SECS")]
    close_after: Option<u64>,
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    #[cfg(feature = "live")]
    if !a.offline && !a.json && live::display_available() {
        match live::run(a.close_after) {
            Ok(code) => return Ok(code),
            Err(e) => eprintln!(
                "The live demo could not run ({e:#}); solving a bundled screenshot instead.\n"
            ),
        }
    }
    offline(&a)
}

fn offline(a: &Args) -> anyhow::Result<i32> {
    let img = image::load_from_memory(SCREENSHOT)
        .context("the bundled screenshot")?
        .to_rgb8();
    let cal = Troyis.load_calibration(None)?;
    let report = Troyis.solve_image(&img, &cal, &Options::default())?;
    let out = a
        .debug_image
        .clone()
        .unwrap_or_else(|| std::env::temp_dir().join("boardbot-demo-seen.png"));
    let seen = &report.seen;
    let drawn = debug::render(
        &img,
        seen.grid.as_ref(),
        report.actions.as_deref().unwrap_or(&[]),
    );
    crate::files::write_png(&out, &drawn).context("the debug image")?;
    if !a.json {
        println!(
            "boardbot demo: no display here, so it reads a bundled {}×{} screenshot of a Troyis board.\n",
            img.width(),
            img.height()
        );
    }
    super::solve::print(&report, a.json, true);
    if !a.json {
        println!(
            "\nWhat it saw (lattice, each cell's letter and confidence, the clicks in order): {}",
            out.display()
        );
    }
    Ok(report.state.exit_code())
}

#[cfg(feature = "live")]
mod live {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    use anyhow::{Context, bail};

    use crate::game::OnScreen;
    use crate::games::troyis::Troyis;
    use crate::geom::Rect;
    use crate::input::keys::{Keys, Role};
    use crate::play::cycle::Outcome;
    use crate::play::live::{Player, Reader};

    pub fn display_available() -> bool {
        std::env::var_os("DISPLAY").is_some() || std::env::var_os("WAYLAND_DISPLAY").is_some()
    }

    /// Opens the practice board in a child process and waits for it to
    /// say where its lattice is; returns the child and the region around it.
    fn open_practice(result: &std::path::Path) -> anyhow::Result<(std::process::Child, Rect)> {
        let exe = std::env::current_exe().context("cannot find boardbot's own executable")?;
        let mut child = Command::new(exe)
            .args([
                "practice",
                "--level",
                "5",
                "--position",
                "80,80",
                "--result",
            ])
            .arg(result)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .context("cannot start the practice board")?;
        let t = Instant::now();
        let lattice = loop {
            let doc: Option<serde_json::Value> = std::fs::read_to_string(result)
                .ok()
                .and_then(|s| serde_json::from_str(&s).ok());
            if let Some(l) = doc.map(|d| d["lattice"].clone()).filter(|l| !l.is_null()) {
                break l;
            }
            if child.try_wait()?.is_some() || t.elapsed() > Duration::from_secs(10) {
                let _ = child.kill();
                bail!("the practice window did not open");
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        let num = |k: &str| lattice[k].as_f64().unwrap_or(0.0);
        let side = num("pitch") * num("cols");
        let margin = 16.0;
        let region = Rect::new(
            (num("x") - margin) as i32,
            (num("y") - margin) as i32,
            (side + 2.0 * margin) as u32,
            (side + 2.0 * margin) as u32,
        );
        Ok((child, region))
    }

    /// Opens the practice board in a child process and plays it.
    pub fn run(close_after: Option<u64>) -> anyhow::Result<i32> {
        let dir = tempfile_dir()?;
        let (mut child, region) = open_practice(&dir.join("practice.json"))?;
        println!(
            "boardbot demo: opened a practice board. In two seconds boardbot will select {region} and play it"
        );
        println!("with the real mouse; press Escape to stop it.\n");
        std::thread::sleep(Duration::from_secs(2));
        let cal = Troyis.load_calibration(None)?;
        let mut keys = Keys::new()?;
        keys.listen("Escape", Role::Abort)?;
        let mut player = Player {
            reader: Reader::Named {
                screen: &Troyis,
                calibration: &cal,
            },
            region,
            delay: None,
            dry_run: false,
            save_dir: Some(dir.clone()),
            grabber: Default::default(),
            warned_save: false,
        };
        let round = player.play(Instant::now(), Some(&keys))?;
        let code = match round.outcome {
            Outcome::Aborted { .. } => super::super::play::EXIT_ABORTED,
            _ => round.report.state.exit_code(),
        };
        print!("{}", round.report.to_text());
        let t = &round.timings;
        match round.outcome {
            Outcome::Played { sent, after, .. } => println!(
                "Sent {sent} clicks; the board now reads as {}. Capture {:.0} ms, vision {:.1} ms, solve {:.2} ms.",
                after.map_or("unknown", |s| s.name()),
                t.capture,
                t.vision,
                t.solve
            ),
            Outcome::Aborted { sent } => println!("Stopped by Escape after {sent} clicks."),
            Outcome::Refused | Outcome::Planned | Outcome::GaveUp { .. } => {
                println!("boardbot did not play: {}", round.report.reason)
            }
        }
        match close_after {
            Some(s) => {
                std::thread::sleep(Duration::from_secs(s));
                let _ = child.kill();
            }
            None => println!("\nClose the practice window when you are done."),
        }
        let _ = child.wait();
        Ok(code)
    }

    fn tempfile_dir() -> anyhow::Result<std::path::PathBuf> {
        let dir = std::env::temp_dir().join(format!("boardbot-demo-{}", std::process::id()));
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
        Ok(dir)
    }
}
