//! `boardbot map` and `boardbot trace`: the state-space map of a position,
//! drawn if asked, and a player's game rated move by move against it. The
//! moves come from `--moves` or from a session a practice window recorded
//! (`--record FILE`), whose start is then the position.

use std::path::PathBuf;

use anyhow::bail;
use clap::Args as ClapArgs;

use crate::tools::options;
use crate::tools::options::Recorded;
use crate::tools::options::{Opt, Options};

/// The position to map or trace, and how to print it.
#[derive(ClapArgs)]
pub struct Position {
    /// The game; with --record, the record's game by default.
    #[arg(long, required_unless_present = "record")]
    game: Option<String>,
    /// The position as text (Rush Hour: 36 characters; rows joined by `/` or newlines).
    #[arg(long, value_name = "TEXT", conflicts_with = "level")]
    board: Option<String>,
    /// A file holding the position.
    #[arg(long, value_name = "FILE")]
    level: Option<PathBuf>,
    /// A session recorded by `practice --record FILE`: its start is the
    /// position (--board or --level, if given, must be the same).
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
    /// Memory the map may use before it gives up.
    #[arg(long, value_name = "SIZE", default_value = "2G")]
    max_memory: crate::solve::Bytes,
    /// When a level counts as won (bitlock): cover or exact.
    #[arg(long, value_enum, value_name = "cover|exact")]
    win: Option<crate::tools::options::Win>,
    /// How moves are counted (klotski): pieces (default) or steps.
    #[arg(long, value_enum, value_name = "steps|pieces")]
    metric: Option<crate::tools::options::Metric>,
}

/// What a command needs: the game, the position's text and its name for
/// messages, and the options.
type Loaded = (&'static dyn crate::game::Game, String, String, Options);

impl Position {
    /// The game, the position and the options; `extra` fills the options
    /// only one command reads.
    fn load(&self, extra: impl FnOnce(&mut Options)) -> anyhow::Result<Loaded> {
        let record = match &self.record {
            Some(path) => Some(Recorded::load(path)?),
            None => None,
        };
        let game = match (&self.game, &record) {
            (Some(g), _) => super::game(g)?,
            (None, Some(r)) if !r.session.game.is_empty() => super::game(&r.session.game)?,
            (None, Some(r)) => bail!("{} does not name its game: give --game NAME", r.origin()),
            (None, None) => bail!("give the game with --game NAME"),
        };
        let (text, origin) = match (&self.board, &self.level, &record) {
            (Some(b), _, _) => (b.clone(), "--board".to_string()),
            (None, Some(p), _) => (super::read_text(p)?, p.display().to_string()),
            (None, None, Some(r)) if !r.session.start.trim().is_empty() => {
                (r.session.start.clone(), format!("{} (start)", r.origin()))
            }
            (None, None, Some(r)) => bail!(
                "{} has no start position; give it with --board TEXT or --level FILE",
                r.origin()
            ),
            (None, None, None) => {
                bail!("give the position with --board TEXT, --level FILE or --record FILE")
            }
        };
        let mut opts = Options {
            max_memory: Some(self.max_memory),
            win: self.win,
            metric: self.metric,
            progress: !self.json,
            record,
            ..Options::default()
        };
        extra(&mut opts);
        // Maps always budget memory, whatever the game's own options.
        options::check(game.id(), game.options(), &opts, &[Opt::MaxMemory])?;
        Ok((game, text, origin, opts))
    }
}

#[derive(ClapArgs)]
pub struct MapArgs {
    #[command(flatten)]
    position: Position,
    /// Write the graph: GraphML (.graphml) or DOT (.dot), plus FILE.nodes.csv and FILE.edges.csv.
    #[arg(long, value_name = "FILE")]
    export: Option<PathBuf>,
    /// Draw the map: SVG (.svg) or PNG (.png), by the extension. With
    /// --record, the player's path is drawn over it.
    #[arg(long, value_name = "OUT.svg|OUT.png")]
    picture: Option<PathBuf>,
}

#[derive(ClapArgs)]
pub struct TraceArgs {
    #[command(flatten)]
    position: Position,
    /// The player's moves, as the game writes them: "B+1,C-2,A+4" (rush), "LLURD" (bitlock).
    #[arg(
        long,
        value_name = "LIST",
        required_unless_present = "record",
        conflicts_with = "record"
    )]
    moves: Option<String>,
}

#[derive(ClapArgs)]
pub struct VerifyArgs {
    #[command(flatten)]
    position: Position,
}

pub fn run_verify(a: VerifyArgs) -> anyhow::Result<i32> {
    let (game, text, origin, opts) = a.position.load(|_| {})?;
    let out = game.verify(&text, &origin, &opts)?;
    out.print(a.position.json);
    Ok(out.exit_code())
}

pub fn run_map(a: MapArgs) -> anyhow::Result<i32> {
    if a.position.record.is_some() && a.picture.is_none() {
        bail!("--record draws a player's path on the picture: give --picture OUT.svg or OUT.png");
    }
    let (game, text, origin, opts) = a.position.load(|o| {
        o.export = a.export;
        o.picture = a.picture;
    })?;
    let out = game.map(&text, &origin, &opts)?;
    out.print(a.position.json);
    Ok(out.exit_code())
}

pub fn run_trace(a: TraceArgs) -> anyhow::Result<i32> {
    let (game, text, origin, opts) = a.position.load(|_| {})?;
    let moves = a.moves.unwrap_or_default();
    let out = game.trace(&text, &origin, &moves, &opts)?;
    out.print(a.position.json);
    Ok(out.exit_code())
}
