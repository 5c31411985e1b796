//! `boardbot map` and `boardbot trace`: the state-space map of a position,
//! and a player's game rated move by move against it.

use std::path::PathBuf;

use anyhow::bail;
use clap::Args as ClapArgs;

use crate::games::{Opt, Options, options};

/// The position to map or trace, and how to print it.
#[derive(ClapArgs)]
pub struct Position {
    #[arg(long)]
    game: String,
    /// The position as text (Rush Hour: 36 characters; rows joined by `/` or newlines).
    #[arg(long, value_name = "TEXT", conflicts_with = "level")]
    board: Option<String>,
    /// A file holding the position.
    #[arg(long, value_name = "FILE")]
    level: Option<PathBuf>,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
    /// Memory the map may use before it gives up.
    #[arg(long, value_name = "SIZE", default_value = "2G")]
    max_memory: crate::solve::Bytes,
    /// When a level counts as won (bitlock): cover or exact.
    #[arg(long, value_enum, value_name = "cover|exact")]
    win: Option<crate::games::Win>,
}

impl Position {
    /// The game, the position's text and its name for messages, and the options.
    fn load(
        &self,
        export: Option<PathBuf>,
    ) -> anyhow::Result<(&'static dyn crate::games::Game, String, String, Options)> {
        let game = super::game(&self.game)?;
        let (text, origin) = match (&self.board, &self.level) {
            (Some(b), _) => (b.clone(), "--board".to_string()),
            (None, Some(p)) => (super::read_text(p)?, p.display().to_string()),
            (None, None) => bail!("give the position with --board TEXT or --level FILE"),
        };
        let opts = Options {
            export,
            max_memory: Some(self.max_memory),
            win: self.win,
            progress: !self.json,
            ..Options::default()
        };
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
}

#[derive(ClapArgs)]
pub struct TraceArgs {
    #[command(flatten)]
    position: Position,
    /// The player's moves, as the game writes them: "B+1,C-2,A+4" (rush), "LLURD" (bitlock).
    #[arg(long, value_name = "LIST")]
    moves: String,
}

pub fn run_map(a: MapArgs) -> anyhow::Result<i32> {
    let (game, text, origin, opts) = a.position.load(a.export)?;
    let out = game.map(&text, &origin, &opts)?;
    out.print(a.position.json);
    Ok(out.exit_code())
}

pub fn run_trace(a: TraceArgs) -> anyhow::Result<i32> {
    let (game, text, origin, opts) = a.position.load(None)?;
    let out = game.trace(&text, &origin, &a.moves, &opts)?;
    out.print(a.position.json);
    Ok(out.exit_code())
}
