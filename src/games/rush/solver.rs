//! Optimal Rush Hour solutions by breadth-first search, one at a time or
//! a whole file of puzzles on every core.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use super::board::{Move, Puzzle, State};
use crate::solve::{Budget, Found, Progress, Stats, bfs, bfs_length};

/// The fewest slides that let the red car out (an empty search result
/// when it never can), within `budget`.
pub fn solve(
    p: &Puzzle,
    start: State,
    budget: &Budget,
    progress: &mut Progress,
) -> (Found<Move>, Stats) {
    bfs(
        start,
        |s, out| p.successors(*s, out),
        |s| p.is_goal(*s),
        budget,
        progress,
    )
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

/// The answer for one line.
#[derive(Clone, Debug)]
pub struct Checked {
    pub line: usize,
    /// The solver's move count (`None`: unsolvable), or the board's parse error.
    pub got: Result<Option<u32>, String>,
    pub ms: f64,
}

/// Runs `check` over every line on `threads` threads; results in line order.
pub fn run_parallel<T: Send>(
    lines: &[Line],
    threads: usize,
    check: impl Fn(&Line) -> T + Sync,
) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let mut done: Vec<(usize, T)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.max(1))
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(line) = lines.get(i) else { break };
                        mine.push((i, check(line)));
                    }
                    mine
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, t)| t).collect()
}

/// Solves every line, on every core.
pub fn solve_lines(lines: &[Line]) -> Vec<Checked> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    run_parallel(lines, threads, |line| {
        let t = Instant::now();
        let got = Puzzle::parse(&line.board)
            .map(|(p, s)| solution_length(&p, s))
            .map_err(|e| e.to_string());
        Checked {
            line: line.number,
            got,
            ms: t.elapsed().as_secs_f64() * 1e3,
        }
    })
}
