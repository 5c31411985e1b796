//! Rush Hour on the shared puzzle core: the rules as a
//! [`crate::solve::Puzzle`], optimal plans by breadth-first search, and a
//! faster length-only search for checking whole files of puzzles.

use super::board::{Move, Puzzle, State};
use crate::report::docs::Got;
use crate::solve::{Budget, bfs_length};
use crate::tools::TextPuzzle;
use crate::tools::options::{Opt, Options};

impl crate::solve::Puzzle for Puzzle {
    type State = State;
    type Move = Move;

    fn successors(&self, s: &State, out: &mut Vec<(Move, State)>) {
        Puzzle::successors(self, *s, out);
    }

    fn is_goal(&self, s: &State) -> bool {
        Puzzle::is_goal(self, *s)
    }

    fn rows(&self, s: &State) -> Vec<String> {
        self.board_rows(*s)
    }

    fn key(&self, s: &State) -> String {
        self.board_string(*s)
    }

    fn parse_move(&self, s: &State, text: &str) -> Result<(Move, State), String> {
        self.apply(*s, text)
    }
}

impl TextPuzzle for Puzzle {
    const ID: &'static str = "rush";
    const OPTIONS: &'static [Opt] = &[Opt::MaxMemory, Opt::MaxNodes, Opt::Walkthrough];

    fn parse(text: &str, _opts: &Options) -> Result<(Puzzle, State), String> {
        Puzzle::parse(text).map_err(|e| e.to_string())
    }

    fn reversible(&self) -> bool {
        true
    }

    fn optimal_cost(&self, start: &State, _budget: &Budget) -> Got {
        solution_length(self, *start).map_or(Got::Unsolvable, |n| Got::Cost(u64::from(n)))
    }
}

/// Only the number of slides: faster, for checking files of puzzles.
pub fn solution_length(p: &Puzzle, start: State) -> Option<u32> {
    bfs_length(start, |s, out| p.neighbours(*s, out), |s| p.is_goal(*s))
}

/// One line of a puzzle file: `moves board cluster_size`.
#[derive(Clone, Debug)]
pub struct Line {
    /// 1-based line number in the file.
    pub number: usize,
    pub moves: u32,
    pub board: String,
    pub cluster: u64,
}

/// Parses a file in the format of Fogleman's database. Blank lines and
/// lines starting with `#` are skipped; anything else malformed is an error
/// naming the line.
pub fn parse_lines(text: &str) -> Result<Vec<Line>, String> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let parts: Vec<&str> = line.split_whitespace().collect();
        let [moves, board, cluster] = parts[..] else {
            return Err(format!(
                "line {}: expected `moves board cluster_size`, got {line:?}",
                i + 1
            ));
        };
        let moves = moves
            .parse()
            .map_err(|_| format!("line {}: {moves:?} is not a move count", i + 1))?;
        let cluster = cluster
            .parse()
            .map_err(|_| format!("line {}: {cluster:?} is not a cluster size", i + 1))?;
        out.push(Line {
            number: i + 1,
            moves,
            board: board.to_string(),
            cluster,
        });
    }
    Ok(out)
}
