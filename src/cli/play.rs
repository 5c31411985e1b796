//! `boardbot play`: play a game on the live screen.
//!
//! The region comes from `--region`, else from the region remembered for
//! the game, else from a selection (the drag overlay, or the keyboard
//! fallback). Each press of the hotkey (or once, with `--once`) captures
//! the region, reads it, solves it and replays the input; the abort key
//! stops a replay within one action.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clap::{Args as ClapArgs, ValueEnum};

use crate::capture::regions::Regions;
use crate::capture::screen::Grabber;
use crate::capture::select;
use crate::game::Game;
use crate::game::recognise::Lineup;
use crate::geom::Rect;
use crate::input::keys::{Keys, Role};
use crate::play::cycle::Outcome;
use crate::play::live::{Player, Reader, Round, Timings};
use crate::report::Verdict;

/// Exit code when the abort key stopped a replay.
pub const EXIT_ABORTED: i32 = 4;

#[derive(Clone, Copy, ValueEnum)]
enum Select {
    /// A frozen full-screen capture to drag a rectangle on.
    Overlay,
    /// Hover a corner and press the hotkey, twice.
    Keys,
}

#[derive(ClapArgs)]
pub struct Args {
    /// The game (see `boardbot games`). Without it, boardbot recognises the
    /// game from the selection at every play, and selects anew at every
    /// press of the hotkey unless --region is given.
    #[arg(long)]
    game: Option<String>,
    /// The region to play in, X,Y,W,H in screen coordinates; overrides the remembered one.
    #[arg(long, allow_hyphen_values = true, value_name = "X,Y,W,H")]
    region: Option<Rect>,
    /// The key that starts a play.
    #[arg(long, default_value = "F9")]
    hotkey: String,
    /// The key that stops a replay at once.
    #[arg(long, default_value = "Escape")]
    abort_key: String,
    /// Pause between input events (default: tuned to the game).
    #[arg(long, allow_hyphen_values = true, value_name = "N")]
    delay_ms: Option<u64>,
    /// Print the planned input in screen coordinates; send nothing.
    #[arg(long)]
    dry_run: bool,
    /// Print one JSON document per play, in the shape of `solve --json`, with screen coordinates.
    #[arg(long)]
    json: bool,
    /// After a level, keep watching and play each new board that appears.
    #[arg(long = "loop")]
    keep_going: bool,
    /// Play once now, without waiting for the hotkey.
    #[arg(long)]
    once: bool,
    /// How to select the region when none is given or remembered.
    #[arg(long, value_enum, default_value = "overlay")]
    select: Select,
    /// Select a new region even if one is remembered.
    #[arg(long)]
    reselect: bool,
    /// Use this calibration file instead of the built-in one.
    #[arg(long, value_name = "FILE")]
    calibration: Option<PathBuf>,
    /// Print how long capture, vision, solving and the first input took.
    #[arg(long)]
    timings: bool,
    /// With --dry-run: play N times and print the median timings.
    #[arg(
        long,
        allow_hyphen_values = true,
        value_name = "N",
        requires = "dry_run"
    )]
    repeat: Option<usize>,
    /// Where to save what was seen when the board cannot be read (default: the user's cache directory).
    #[arg(long, value_name = "DIR")]
    save_dir: Option<PathBuf>,
}

fn save_dir(a: &Args) -> Option<PathBuf> {
    a.save_dir
        .clone()
        .or_else(|| std::env::var_os("BOARDBOT_SAVE_DIR").map(PathBuf::from))
        .or_else(|| {
            directories::ProjectDirs::from("", "", "boardbot").map(|d| d.cache_dir().join("seen"))
        })
}

/// The overlay's selection, with a word on what to do: the overlay
/// itself says nothing where stderr is all the user watches.
fn overlay() -> Result<Option<Rect>, select::SelectError> {
    eprintln!("Drag a rectangle over the board (Escape cancels).");
    select::with_overlay()
}

/// A region selected now, the way `--select` says.
fn select_now(a: &Args, keys: &mut Keys) -> anyhow::Result<Rect> {
    let chosen = match a.select {
        Select::Overlay => match overlay() {
            Ok(r) => r,
            Err(e) => {
                eprintln!("The selection overlay failed ({e}); using the keyboard instead.");
                select::with_keys(keys, &a.hotkey, &a.abort_key)?
            }
        },
        Select::Keys => select::with_keys(keys, &a.hotkey, &a.abort_key)?,
    };
    chosen.ok_or_else(|| anyhow::anyhow!("selection cancelled"))
}

/// The region to play in before any press: given, or for a named game
/// remembered or selected now (and then remembered). `None`: with no game
/// named, a region is selected at each press.
fn fixed_region(
    a: &Args,
    game: Option<&dyn Game>,
    keys: &mut Keys,
) -> anyhow::Result<Option<Rect>> {
    if let Some(r) = a.region {
        return Ok(Some(r));
    }
    match game {
        Some(g) => region(a, g, keys).map(Some),
        None => Ok(None),
    }
}

/// A named game's region: remembered, or selected now (and then remembered).
fn region(a: &Args, game: &dyn Game, keys: &mut Keys) -> anyhow::Result<Rect> {
    let store = Regions::open();
    if !a.reselect {
        if let Some(store) = &store {
            match store.get(game.id()) {
                Ok(Some(r)) => {
                    eprintln!(
                        "Using the region remembered for {}: {r} (--reselect to choose again).",
                        game.id()
                    );
                    return Ok(r);
                }
                Ok(None) => {}
                Err(e) => eprintln!("warning: {e}; choosing a region anew"),
            }
        }
    }
    let r = select_now(a, keys)?;
    if let Some(store) = &store {
        match store.set(game.id(), r) {
            Ok(()) => eprintln!(
                "Remembered the region {r} for {} in {}.",
                game.id(),
                store.path().display()
            ),
            Err(e) => eprintln!("warning: {e}"),
        }
    }
    Ok(r)
}

fn print_round(a: &Args, round: &Round, region: Rect) {
    let r = &round.report;
    if a.json {
        let mut v = serde_json::to_value(r).expect("reports serialise");
        if let Some(m) = v.as_object_mut() {
            m.insert(
                "region".into(),
                serde_json::to_value(region).expect("rects serialise"),
            );
            m.insert("outcome".into(), outcome_json(round));
            m.insert(
                "play_timings_ms".into(),
                serde_json::to_value(round.timings).expect("timings serialise"),
            );
            let mon = &round.monitor;
            m.insert(
                "screen".into(),
                serde_json::json!({
                    "scale": (mon.scale() * 1000.0).round() / 1000.0,
                    "monitor": mon.logical,
                    "pixels": [mon.pixels.0, mon.pixels.1],
                }),
            );
        }
        println!("{v}");
        return;
    }
    print!("{}", r.to_text());
    match &round.outcome {
        Outcome::Refused => {
            if let Some((shot, seen)) = &round.saved {
                println!(
                    "Saved what it saw: {} and {}",
                    shot.display(),
                    seen.display()
                );
            }
        }
        Outcome::Planned => {
            super::solve::print_actions(r, "screen coordinates, dry run: nothing sent")
        }
        Outcome::Played {
            sent,
            after,
            replans,
        } => {
            let now = match after {
                Some(Verdict::Solved) => "The board now reads as solved.".to_string(),
                // The game covers its board once it is won (GNOME Klotski's
                // Congratulations dialog): no board is what the plan ends on.
                Some(Verdict::NoBoard) => {
                    "The board is no longer in view: the game shows something else over it (its end-of-level dialog?).".to_string()
                }
                Some(s) => format!("The board now reads as {}, not solved.", s.name()),
                None => "The board could not be captured again to check it.".to_string(),
            };
            let again = match replans {
                0 => String::new(),
                n => format!(" Re-planned {n} time(s) when the board differed from the plan."),
            };
            println!("Sent {sent} action(s). {now}{again}");
        }
        Outcome::Aborted { sent } => println!("Aborted by the abort key after {sent} action(s)."),
        Outcome::GaveUp { sent, why, .. } => println!("Stopped after {sent} action(s): {why}."),
    }
    if a.timings {
        print_timings(&round.timings);
    }
}

/// The `outcome` object of `--json`: `kind`, `sent`, `after`, `replans`.
fn outcome_json(round: &Round) -> serde_json::Value {
    let (kind, sent, after, replans) = match &round.outcome {
        Outcome::Refused if round.report.state.exit_code() == 0 => ("nothing_to_do", 0, None, 0),
        Outcome::Refused => ("refused", 0, None, 0),
        Outcome::Planned => ("dry_run", 0, None, 0),
        Outcome::Played {
            sent,
            after,
            replans,
        } => ("played", *sent, *after, *replans),
        Outcome::Aborted { sent } => ("aborted", *sent, None, 0),
        Outcome::GaveUp { sent, replans, .. } => ("gave_up", *sent, None, *replans),
    };
    let mut v = serde_json::json!({"kind": kind, "sent": sent, "after": after.map(Verdict::name)});
    if let Outcome::GaveUp { why, .. } = &round.outcome {
        v["why"] = why.as_str().into();
    }
    v["replans"] = replans.into();
    v
}

fn print_timings(t: &Timings) {
    let first = t.to_first_input.map_or(String::new(), |f| {
        format!("; trigger to first input {f:.1} ms")
    });
    println!(
        "Timings: capture {:.1} ms, vision {:.1} ms, solve {:.2} ms; trigger to plan {:.1} ms{first}.",
        t.capture, t.vision, t.solve, t.to_plan
    );
}

/// Exit code when live play gave up after failed re-plans.
pub const EXIT_GAVE_UP: i32 = 3;

fn exit_code(round: &Round) -> i32 {
    match round.outcome {
        Outcome::Aborted { .. } => EXIT_ABORTED,
        Outcome::GaveUp { .. } => EXIT_GAVE_UP,
        // Played from a first read the game could act on though it was not
        // playable (GNOME Klotski lets a held piece go first).
        Outcome::Played { .. } => 0,
        _ => round.report.state.exit_code(),
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

/// Plays once from `trigger` and, with `--loop`, every new board after it,
/// until the abort key or a board that is not playable. The exit code of
/// the last play.
fn session(
    a: &Args,
    player: &mut Player<'_>,
    keys: &Keys,
    region: Rect,
    mut trigger: Instant,
) -> anyhow::Result<i32> {
    loop {
        if !a.json && !a.dry_run {
            eprintln!("Playing in {region}; press {} to stop.", a.abort_key);
        }
        let round = player.play(trigger, Some(keys)).context("play")?;
        print_round(a, &round, region);
        let code = exit_code(&round);
        if matches!(round.outcome, Outcome::Aborted { .. }) || !a.keep_going {
            return Ok(code);
        }
        eprintln!(
            "Watching {region} for the next board; press {} to stop.",
            a.abort_key
        );
        match player.wait_for_new_board(
            round.cells.as_deref(),
            Duration::from_millis(250),
            Some(keys),
        )? {
            Some(t) => trigger = t,
            None => return Ok(code),
        }
    }
}

/// `--dry-run --repeat N`: N dry runs, and their median timings.
fn repeat_dry_runs(player: &mut Player<'_>, n: usize, region: Rect) -> anyhow::Result<i32> {
    let mut rounds = Vec::new();
    for _ in 0..n.max(1) {
        rounds.push(player.play(Instant::now(), None)?.timings);
    }
    let m = |f: fn(&Timings) -> f64| median(rounds.iter().map(f).collect());
    println!(
        "Medians over {} dry runs on {region}: capture {:.1} ms, vision {:.2} ms, solve {:.3} ms; \
         trigger to plan {:.1} ms (waiting for two equal captures included).",
        rounds.len(),
        m(|t| t.capture),
        m(|t| t.vision),
        m(|t| t.solve),
        m(|t| t.to_plan),
    );
    Ok(0)
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    if a.hotkey.trim().eq_ignore_ascii_case(a.abort_key.trim()) {
        bail!(
            "--hotkey and --abort-key are both {}: one key cannot both start and stop a play; give the abort key another (Escape by default)",
            a.hotkey
        );
    }
    if a.delay_ms.is_some_and(|d| d > 60_000) {
        bail!("--delay-ms must be at most 60000 (a minute)");
    }
    let games = super::boardbot_games();
    let named = a.game.as_deref().map(super::game).transpose()?;
    let lineup;
    let cal;
    let reader = match named {
        Some(g) => {
            let screen = g.on_screen()?;
            cal = screen.load_calibration(a.calibration.as_deref())?;
            Reader::Named {
                screen,
                calibration: &cal,
            }
        }
        None => {
            if a.calibration.is_some() {
                bail!("--calibration is one game's look: name the game with --game");
            }
            lineup = Lineup::new(&games);
            Reader::Any(&lineup)
        }
    };
    let mut keys = Keys::new()?;
    let fixed = fixed_region(&a, named, &mut keys)?;
    let mut player = Player {
        reader,
        region: fixed.unwrap_or(Rect::new(0, 0, 1, 1)),
        delay: a.delay_ms.map(Duration::from_millis),
        dry_run: a.dry_run,
        save_dir: save_dir(&a),
        grabber: Grabber::new(),
        warned_save: false,
    };
    if a.repeat.is_some() || a.once {
        player.region = match fixed {
            Some(r) => r,
            None => select_now(&a, &mut keys)?,
        };
    }
    if let Some(n) = a.repeat {
        let region = player.region;
        return repeat_dry_runs(&mut player, n, region);
    }
    if a.once {
        keys.listen(&a.abort_key, Role::Abort)?;
        let region = player.region;
        return session(&a, &mut player, &keys, region, Instant::now());
    }
    serve(&a, &mut player, &mut keys, fixed)
}

/// The long-running bot: each press of the hotkey plays the region (the
/// fixed one, or one selected after the press).
fn serve(
    a: &Args,
    player: &mut Player<'_>,
    keys: &mut Keys,
    fixed: Option<Rect>,
) -> anyhow::Result<i32> {
    // Between plays only the play key is held, so the abort key (Escape,
    // say) keeps working in other programs; it is armed while boardbot acts.
    keys.listen(&a.hotkey, Role::Play)?;
    let place = match fixed {
        Some(region) => {
            // One capture now learns the monitor, so that each play captures
            // only the region; a failure here shows again, with its message, on play.
            let _ = player.grabber.capture(region);
            region.to_string()
        }
        None => "the board you select after each press (any game)".to_string(),
    };
    eprintln!(
        "Ready on {place}. Press {} to play, {} to stop a replay, Ctrl+C to quit.",
        a.hotkey, a.abort_key
    );
    loop {
        // The trigger is the press's arrival, so `--timings` counts the
        // time from the key to the first click.
        let mut trigger = loop {
            match keys.wait_press(None) {
                Some(p) if p.role == Role::Play => break p.at,
                _ => {}
            }
        };
        if fixed.is_none() {
            match select_now(a, keys) {
                Ok(r) => player.region = r,
                Err(e) => {
                    eprintln!("error: {e:#}");
                    continue;
                }
            }
            trigger = Instant::now();
        }
        keys.listen(&a.abort_key, Role::Abort)?;
        let region = player.region;
        let code = session(a, player, keys, region, trigger);
        keys.release(Role::Abort);
        if let Err(e) = code {
            eprintln!("error: {e:#}");
        }
        eprintln!("Press {} to play again, Ctrl+C to quit.", a.hotkey);
    }
}
