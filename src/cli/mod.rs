//! The command line. This is the only place that uses `anyhow`: library
//! modules return typed errors, and here they become messages and exit
//! codes.
//!
//! Exit codes: 0 when the position was read and answered; 1 when a batch
//! has answers that differ from its file; 2 for usage and file errors; 3
//! when there is nothing to act on (no board, an uncertain read, no
//! solution, a search that gave up); 4 when the abort key stopped a replay.

mod calibrate;
mod demo;
mod generate;
mod map;
#[cfg(feature = "live")]
mod play;
#[cfg(feature = "live")]
mod practice;
mod render;
mod solve;

use clap::{Parser, Subcommand};

/// Exit code for usage and file errors.
pub const EXIT_ERROR: i32 = 2;

#[derive(Parser)]
#[command(
    name = "boardbot",
    version,
    about = "Plays grid puzzle games by looking at the screen",
    long_about = "Plays grid puzzle games by looking at the screen: it captures a region, reads the board, \
                  solves it and replays the solution as input. `solve` works on screenshots and text; \
                  see README.md for the quick start."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// See boardbot work: solve a bundled Troyis screenshot and show the clicks.
    #[command(allow_negative_numbers = true)]
    Demo(Lazy<demo::Args>),
    /// Read a position (screenshot or text) and print the plan.
    #[command(allow_negative_numbers = true)]
    Solve(Lazy<solve::Args>),
    /// Play on the live screen: select the board, press the hotkey, watch it play.
    #[cfg(feature = "live")]
    #[command(allow_negative_numbers = true)]
    Play(Lazy<play::Args>),
    /// Open a game's practice window (boardbot's own art) to try boardbot on or to record a session.
    #[cfg(feature = "live")]
    #[command(allow_negative_numbers = true)]
    Practice(Lazy<practice::Args>),
    /// Map every position reachable from a board, with distances to a solution.
    #[command(allow_negative_numbers = true)]
    Map(Lazy<map::MapArgs>),
    /// Check a level against its game's design rules (Skiddy: dead ends, combos, stars).
    #[command(allow_negative_numbers = true)]
    Verify(Lazy<map::VerifyArgs>),
    /// Make new levels, each verified before it is kept (Skiddy).
    Generate(Lazy<generate::Args>),
    /// Rate a player's moves against the map.
    #[command(allow_negative_numbers = true)]
    Trace(Lazy<map::TraceArgs>),
    /// List the games boardbot knows.
    Games,
    /// Draw a position with boardbot's own art (test screenshots).
    #[command(allow_negative_numbers = true)]
    Render(Lazy<render::Args>),
    /// Learn a new skin of a game from one screenshot whose position you give.
    Calibrate(Lazy<calibrate::Args>),
}

/// A subcommand's arguments, built only when that subcommand is parsed or
/// its help shown: clap otherwise builds every subcommand's arguments at
/// each start, which cost more than solving a small puzzle.
struct Lazy<A>(A);

impl<A: clap::FromArgMatches> clap::FromArgMatches for Lazy<A> {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
        A::from_arg_matches(m).map(Lazy)
    }

    fn from_arg_matches_mut(m: &mut clap::ArgMatches) -> Result<Self, clap::Error> {
        A::from_arg_matches_mut(m).map(Lazy)
    }

    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches(m)
    }

    fn update_from_arg_matches_mut(&mut self, m: &mut clap::ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches_mut(m)
    }
}

impl<A: clap::Args> clap::Args for Lazy<A> {
    fn group_id() -> Option<clap::Id> {
        A::group_id()
    }

    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.defer(A::augment_args)
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        cmd.defer(A::augment_args_for_update)
    }
}

/// Games added by a program that embeds the command line
/// ([`main_with`]), looked up after the built-in ones.
static EXTRA: std::sync::OnceLock<&'static [&'static dyn crate::game::Game]> =
    std::sync::OnceLock::new();

/// Runs the command line with `extra` games beside the built-in ones (see
/// `examples/eight_puzzle.rs`), and returns the process exit code.
pub fn main_with(extra: &'static [&'static dyn crate::game::Game]) -> i32 {
    let _ = EXTRA.set(extra);
    main()
}

/// Runs the command line and returns the process exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_ERROR } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    let result = match cli.command {
        Command::Demo(Lazy(a)) => demo::run(a),
        Command::Solve(Lazy(a)) => solve::run(a),
        Command::Map(Lazy(a)) => map::run_map(a),
        Command::Trace(Lazy(a)) => map::run_trace(a),
        Command::Verify(Lazy(a)) => map::run_verify(a),
        Command::Generate(Lazy(a)) => generate::run(a),
        #[cfg(feature = "live")]
        Command::Play(Lazy(a)) => play::run(a),
        #[cfg(feature = "live")]
        Command::Practice(Lazy(a)) => practice::run(a),
        Command::Games => {
            for g in boardbot_games() {
                println!("{:<10} {}", g.id(), g.summary());
            }
            Ok(0)
        }
        Command::Render(Lazy(a)) => render::run(a).map(|()| 0),
        Command::Calibrate(Lazy(a)) => calibrate::run(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", message(&e));
            EXIT_ERROR
        }
    }
}

/// An error and its causes on one line, each cause once: many library
/// errors already quote their cause ("cannot read F: No such file"), and
/// printing the chain as well would say it twice.
fn message(e: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if out.contains(&text) {
            continue;
        }
        if !out.is_empty() {
            out.push_str(": ");
        }
        out.push_str(&text);
    }
    out
}

/// Every game: the built-in registry, then any added by [`main_with`].
pub(crate) fn boardbot_games() -> Vec<&'static dyn crate::game::Game> {
    let extra = EXTRA.get().copied().unwrap_or(&[]);
    crate::games::REGISTRY
        .iter()
        .chain(extra)
        .copied()
        .collect()
}

/// Reads a level file, within [`crate::files::Limit::Level`], saying which
/// file failed and why.
pub(crate) fn read_text(path: &std::path::Path) -> anyhow::Result<String> {
    Ok(crate::files::read_text(path, crate::files::Limit::Level)?)
}

/// Looks a game up, or explains which ones exist.
pub(crate) fn game(id: &str) -> anyhow::Result<&'static dyn crate::game::Game> {
    let extra = EXTRA.get().copied().unwrap_or(&[]);
    let found = crate::games::find(id).or_else(|| crate::games::find_in(extra, id));
    found.ok_or_else(|| {
        let ids: Vec<&str> = boardbot_games().iter().map(|g| g.id()).collect();
        anyhow::anyhow!("unknown game {id:?}; boardbot knows: {}", ids.join(", "))
    })
}
