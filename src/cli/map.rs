//! `boardbot map` and `boardbot trace`: the state-space map of a position,
//! and a player's game rated move by move against it.

use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::Args as ClapArgs;

use crate::games::MapOptions;

#[derive(ClapArgs)]
pub struct MapArgs {
    #[arg(long)]
    game: String,
    /// The position as text (Rush Hour: 36 characters).
    #[arg(long, value_name = "TEXT", conflicts_with = "level")]
    board: Option<String>,
    /// A file holding the position.
    #[arg(long, value_name = "FILE")]
    level: Option<PathBuf>,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
    /// Write the graph: GraphML (.graphml) or DOT (.dot), plus FILE.nodes.csv and FILE.edges.csv.
    #[arg(long, value_name = "FILE")]
    export: Option<PathBuf>,
    #[arg(long, value_name = "SIZE", default_value = "2G")]
    max_memory: crate::solve::Bytes,
}

#[derive(ClapArgs)]
pub struct TraceArgs {
    #[arg(long)]
    game: String,
    #[arg(long, value_name = "TEXT", conflicts_with = "level")]
    board: Option<String>,
    #[arg(long, value_name = "FILE")]
    level: Option<PathBuf>,
    /// The player's moves, comma-separated: "B+1,C-2,A+4".
    #[arg(long, value_name = "LIST")]
    moves: String,
    #[arg(long)]
    json: bool,
    #[arg(long, value_name = "SIZE", default_value = "2G")]
    max_memory: crate::solve::Bytes,
}

fn position(board: &Option<String>, level: &Option<PathBuf>) -> anyhow::Result<(String, String)> {
    match (board, level) {
        (Some(b), _) => Ok((b.clone(), "--board".into())),
        (None, Some(p)) => Ok((
            std::fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()))?,
            p.display().to_string(),
        )),
        (None, None) => bail!("give the position with --board TEXT or --level FILE"),
    }
}

pub fn run_map(a: MapArgs) -> anyhow::Result<i32> {
    let game = super::game(&a.game)?;
    let (text, origin) = position(&a.board, &a.level)?;
    let opts = MapOptions {
        export: a.export,
        max_memory: Some(a.max_memory),
        progress: !a.json,
    };
    let doc = game.map(&text, &origin, &opts)?;
    super::print_doc(&doc, a.json);
    Ok(doc.exit_code)
}

pub fn run_trace(a: TraceArgs) -> anyhow::Result<i32> {
    let game = super::game(&a.game)?;
    let (text, origin) = position(&a.board, &a.level)?;
    let opts = MapOptions {
        export: None,
        max_memory: Some(a.max_memory),
        progress: !a.json,
    };
    let doc = game.trace(&text, &origin, &a.moves, &opts)?;
    super::print_doc(&doc, a.json);
    Ok(doc.exit_code)
}
