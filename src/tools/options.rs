//! The settings every game command takes, and the one generic check that
//! refuses those a game has no use for. A game lists the options it reads
//! ([`crate::game::Game::options`]); no game names another game's options.

use std::fmt;
use std::path::PathBuf;

use crate::solve::Bytes;

/// How sliding-blocks moves are counted: `steps` (one cell) or `pieces`
/// (one piece along any path, GNOME Klotski's counter; the default).
pub use crate::engines::blocks::Metric;

/// One option a game may read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opt {
    /// `--max-nodes N`: cap on search nodes.
    MaxNodes,
    /// `--max-memory SIZE`: memory the search's tables may use.
    MaxMemory,
    /// `--win cover|exact`: when a level counts as won.
    Win,
    /// `--walkthrough`: print the board after each move.
    Walkthrough,
    /// `--slide-cost N`: what one tile slide costs (Continuity).
    SlideCost,
    /// `--exits`: print the exits graph instead of a plan (Continuity).
    Exits,
    /// `--metric steps|pieces`: how moves are counted (Klotski).
    Metric,
    /// `--no-book`: search even where a plan is shipped (Klotski).
    NoBook,
    /// `--spill-dir DIR`: older search layers in files there (Klotski).
    SpillDir,
}

impl Opt {
    /// The option as typed on the command line.
    pub fn flag(self) -> &'static str {
        match self {
            Opt::MaxNodes => "--max-nodes",
            Opt::MaxMemory => "--max-memory",
            Opt::Win => "--win",
            Opt::Walkthrough => "--walkthrough",
            Opt::SlideCost => "--slide-cost",
            Opt::Exits => "--exits",
            Opt::Metric => "--metric",
            Opt::NoBook => "--no-book",
            Opt::SpillDir => "--spill-dir",
        }
    }
}

impl fmt::Display for Opt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.flag())
    }
}

/// When a level counts as won (B.i.t.Lock's two readings of the rules).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Win {
    /// Every target holds a piece of its type (the real game).
    #[default]
    Cover,
    /// And no other ordinary piece remains (the peer solver's rule).
    Exact,
}

impl Win {
    pub fn name(self) -> &'static str {
        match self {
            Win::Cover => "cover",
            Win::Exact => "exact",
        }
    }
}

/// Settings shared by every game command. `None` and `false` mean "not
/// given": only given options are checked against the game's list.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub max_nodes: Option<u64>,
    pub max_memory: Option<Bytes>,
    pub win: Option<Win>,
    pub walkthrough: bool,
    /// Show progress on long work (on by default, off with `--json`).
    pub progress: bool,
    /// `map --export FILE`: GraphML or DOT by the extension, plus CSV files.
    pub export: Option<PathBuf>,
    /// `map --picture FILE`: the state map drawn, SVG or PNG by the extension.
    pub picture: Option<PathBuf>,
    /// `--record FILE`: a player's recorded session, for `trace` (its
    /// moves) and `map --picture` (its path).
    pub record: Option<Recorded>,
    /// `--slide-cost N`: the cost of one tile slide.
    pub slide_cost: Option<u32>,
    /// `--exits`: the exits graph rather than a plan.
    pub exits: bool,
    /// `--metric steps|pieces`: how moves are counted (default pieces).
    pub metric: Option<Metric>,
    /// `--no-book`: search from scratch even where boardbot ships a plan.
    pub no_book: bool,
    /// `--spill-dir DIR`: where the optimal search may keep its older
    /// layers, so a proof needs memory for the widest layers only.
    pub spill_dir: Option<PathBuf>,
}

/// A session file read back: what a practice window recorded, and where
/// it came from, for messages.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub path: PathBuf,
    pub session: crate::practice::Session,
}

impl Recorded {
    /// Reads a session file; the error names the file.
    pub fn load(path: &std::path::Path) -> Result<Recorded, crate::game::GameError> {
        Ok(Recorded {
            path: path.to_path_buf(),
            session: crate::practice::Session::load(path)?,
        })
    }

    /// The file's name, for messages.
    pub fn origin(&self) -> String {
        self.path.display().to_string()
    }
}

impl Options {
    /// The game-specific options the user gave.
    pub fn given(&self) -> Vec<Opt> {
        let mut out = Vec::new();
        if self.max_nodes.is_some() {
            out.push(Opt::MaxNodes);
        }
        if self.max_memory.is_some() {
            out.push(Opt::MaxMemory);
        }
        if self.win.is_some() {
            out.push(Opt::Win);
        }
        if self.walkthrough {
            out.push(Opt::Walkthrough);
        }
        if self.slide_cost.is_some() {
            out.push(Opt::SlideCost);
        }
        if self.exits {
            out.push(Opt::Exits);
        }
        if self.metric.is_some() {
            out.push(Opt::Metric);
        }
        if self.no_book {
            out.push(Opt::NoBook);
        }
        if self.spill_dir.is_some() {
            out.push(Opt::SpillDir);
        }
        out
    }
}

/// Refuses any given option that `game` does not read, naming the ones it
/// does. `--max-memory` given to a command that always budgets memory
/// (`map`, `trace`) is passed in `always` and never refused.
pub fn check(
    game: &'static str,
    reads: &[Opt],
    opts: &Options,
    always: &[Opt],
) -> Result<(), crate::game::GameError> {
    let stray: Vec<Opt> = opts
        .given()
        .into_iter()
        .filter(|o| !reads.contains(o) && !always.contains(o))
        .collect();
    if stray.is_empty() {
        return Ok(());
    }
    let names: Vec<&str> = stray.iter().map(|o| o.flag()).collect();
    let takes = if reads.is_empty() {
        "none of these options".to_string()
    } else {
        reads
            .iter()
            .map(|o| o.flag())
            .collect::<Vec<_>>()
            .join(", ")
    };
    Err(crate::game::GameError::Usage(format!(
        "{} {} not apply to {game} ({game} takes {takes})",
        names.join(" and "),
        if names.len() == 1 { "does" } else { "do" },
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_options_a_game_does_not_read() {
        let opts = Options {
            win: Some(Win::Exact),
            max_nodes: Some(5),
            ..Options::default()
        };
        assert!(check("a", &[Opt::Win, Opt::MaxNodes], &opts, &[]).is_ok());
        let e = check("rush", &[Opt::MaxNodes], &opts, &[])
            .unwrap_err()
            .to_string();
        assert_eq!(e, "--win does not apply to rush (rush takes --max-nodes)");
        let e = check("x", &[], &opts, &[]).unwrap_err().to_string();
        assert!(e.contains("--max-nodes and --win do not apply to x"), "{e}");
    }
}

/// What `boardbot generate` asks for. A game reads the fields it knows
/// (Skiddy reads them all).
#[derive(Clone, Debug)]
pub struct GenerateOptions {
    /// Width and height, the ring included.
    pub size: (usize, usize),
    pub colours: usize,
    pub skiddies: usize,
    pub crates: usize,
    pub ice: usize,
    pub pits: usize,
    /// Percent of the inner cells that are blocks.
    pub static_pct: u32,
    pub goals_per_colour: usize,
    /// The shortest solution's length must lie in this range.
    pub perfect: Option<(usize, usize)>,
    /// The least star rating kept.
    pub stars: u8,
    pub count: usize,
    pub seed: u64,
    pub out: Option<PathBuf>,
    /// Candidates tried before giving up.
    pub tries: u64,
    /// A candidate whose map passes this many positions is skipped.
    pub max_states: u64,
    /// Worker threads; every core by default.
    pub threads: usize,
    pub progress: bool,
}
