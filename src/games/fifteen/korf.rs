//! Korf's 100 random 15-puzzle instances, solved one after the other on
//! one core: `solve --game fifteen --batch korf100.txt` and the bench.
//! The first 4×4 solve of a process builds or loads the pattern
//! databases, so a run's total includes them.

use std::time::Instant;

use super::Board;
use super::level::{KorfInstance, is_korf, parse_korf};
use crate::engines::tiles::{self, SearchError, Tiles};
use crate::game::GameError;
use crate::report::Output;
use crate::report::docs::{BatchReport, Got, Mismatch};
use crate::tools::BatchSource;
use crate::tools::options::Options;

/// One instance's outcome.
#[derive(Clone, Debug)]
pub struct Solved {
    pub instance: KorfInstance,
    /// The plan's length, or why there is none.
    pub got: Result<usize, SearchError>,
    pub nodes: u64,
    pub ms: f64,
}

/// Solves each instance in turn, towards sgt's goal.
pub fn solve_all(instances: &[KorfInstance], max_nodes: u64) -> Vec<Solved> {
    let goal = Tiles::solved(4, 4).expect("4x4 is a frame");
    instances
        .iter()
        .map(|inst| {
            let t = Instant::now();
            let result = tiles::solve(&inst.start, &goal, max_nodes);
            let ms = t.elapsed().as_secs_f64() * 1e3;
            let nodes = match &result {
                Ok(f) => f.nodes,
                Err(SearchError::OverBudget { nodes, .. }) => *nodes,
                Err(_) => 0,
            };
            Solved {
                instance: inst.clone(),
                got: result.map(|f| f.slides.len()),
                nodes,
                ms,
            }
        })
        .collect()
}

/// The median of some times.
pub fn median(times: &mut [f64]) -> f64 {
    times.sort_by(f64::total_cmp);
    times.get(times.len() / 2).copied().unwrap_or(0.0)
}

/// Korf's instances in a batch: at most this many (his file has 100).
const MAX_KORF: usize = 100_000;

/// `solve --batch`: a file in Korf's format (`ID OPTIMAL NODES` lines,
/// each followed by the tiles) is checked instance by instance against its
/// published optimal lengths, on one core; any other batch as every text
/// puzzle's.
pub fn batch(src: &mut BatchSource, opts: &Options) -> Result<Output, GameError> {
    let Some(first) = src.next_content() else {
        return crate::tools::batch::<Board>(src, opts);
    };
    let (number, line) = first?;
    if !is_korf(&line) {
        src.push_back(number, line);
        return crate::tools::batch::<Board>(src, opts);
    }
    src.push_back(number, line);
    // Each content line at its own line number, for the messages.
    let (mut text, mut at, mut count) = (String::new(), 1, 0);
    while let Some(next) = src.next_content() {
        let (n, l) = next?;
        count += 1;
        if count > 2 * MAX_KORF {
            return Err(src.error(n, format!("more than {MAX_KORF} instances")));
        }
        while at < n {
            text.push('\n');
            at += 1;
        }
        text.push_str(&l);
        text.push('\n');
        at += 1;
    }
    let origin = src.origin.clone();
    let max_nodes = crate::tools::budget(opts).max_states;
    let instances = parse_korf(&text).map_err(|e| GameError::Parse {
        origin: origin.clone(),
        message: e.to_string(),
    })?;
    let t = Instant::now();
    let solved = solve_all(&instances, max_nodes);
    let total_ms = t.elapsed().as_secs_f64() * 1e3;
    let mut times: Vec<f64> = solved.iter().map(|s| s.ms).collect();
    let mismatches = solved
        .iter()
        .filter_map(|s| {
            let expected = u64::from(s.instance.optimal);
            let got = match &s.got {
                Ok(len) => Got::Cost(*len as u64),
                Err(SearchError::OverBudget { .. }) => Got::GaveUp,
                Err(_) => Got::Unsolvable,
            };
            (got != Got::Cost(expected)).then(|| Mismatch {
                line: s.instance.line,
                board: s.instance.start.to_string(),
                expected,
                got,
            })
        })
        .collect();
    let round = |v: f64| (v * 1000.0).round() / 1000.0;
    Ok(Output::Batch(BatchReport {
        game: super::ID,
        puzzles: instances.len(),
        mismatches,
        total_ms: round(total_ms),
        median_ms: round(median(&mut times)),
        origin,
        threads: 1,
    }))
}
