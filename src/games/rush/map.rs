//! The state-space map of a Rush Hour puzzle: every position reachable
//! from a board, each one's distance to the nearest solved position, and
//! the graph exported for igraph, networkx or Gephi (GraphML or DOT, plus
//! CSV files of nodes and edges). Also the trace of a player's game,
//! rating each move against the map.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::board::{Puzzle, State};
use crate::solve::{Budget, Progress, StateMap, distance_map};

/// Maps the cluster of `start`.
pub fn map(
    p: &Puzzle,
    start: State,
    budget: &Budget,
    progress: &mut Progress,
) -> Result<StateMap<State>, String> {
    distance_map(
        start,
        |s, out| p.neighbours(*s, out),
        |s| p.is_goal(*s),
        budget,
        progress,
    )
    .map_err(|st| {
        format!(
            "the map outgrew the memory budget after {} states",
            st.states
        )
    })
}

/// The map's summary, as `boardbot map --json` prints it.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    pub states: usize,
    pub goal_states: usize,
    /// Moves from the start to the nearest solved position; `null` when unsolvable.
    pub distance: Option<u32>,
    pub max_distance: Option<u32>,
    /// Every board at the largest distance.
    pub hardest: Vec<String>,
    /// How many positions lie at each distance, from 0.
    pub histogram: Vec<usize>,
    /// Positions from which the red car can never leave.
    pub dead_states: usize,
    pub edges: usize,
}

pub fn summary(p: &Puzzle, m: &StateMap<State>) -> Summary {
    let max = m.max_distance();
    let finite = |d: u32| d != u32::MAX;
    let mut histogram = vec![0; max.map_or(0, |x| x as usize + 1)];
    for &d in m.dist.iter().filter(|&&d| finite(d)) {
        histogram[d as usize] += 1;
    }
    Summary {
        states: m.states.len(),
        goal_states: m.goals.len(),
        distance: Some(m.dist[0]).filter(|&d| finite(d)),
        max_distance: max,
        hardest: max.map_or(Vec::new(), |mx| {
            m.states
                .iter()
                .zip(&m.dist)
                .filter(|(_, d)| **d == mx)
                .map(|(s, _)| p.board_string(*s))
                .collect()
        }),
        histogram,
        dead_states: m.dist.iter().filter(|&&d| !finite(d)).count(),
        edges: m.edges() / 2,
    }
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The moves between neighbouring states, each pair once (slides can be undone).
fn edges(p: &Puzzle, m: &StateMap<State>) -> Vec<(u32, u32, String)> {
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for i in 0..m.states.len() as u32 {
        moves.clear();
        p.successors(m.states[i as usize], &mut moves);
        for (mv, n) in &moves {
            let j = m
                .successors(i)
                .iter()
                .copied()
                .find(|&j| m.states[j as usize] == *n);
            if let Some(j) = j.filter(|&j| j > i) {
                out.push((i, j, mv.to_string()));
            }
        }
    }
    out
}

/// Writes the graph to `path` (GraphML for `.graphml`/`.xml`, DOT for
/// `.dot`/`.gv`), and beside it `<stem>.nodes.csv` and `<stem>.edges.csv`.
/// Returns the paths written.
pub fn export(p: &Puzzle, m: &StateMap<State>, path: &Path) -> Result<Vec<PathBuf>, String> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    let dist = |i: usize| {
        if m.dist[i] == u32::MAX {
            -1
        } else {
            i64::from(m.dist[i])
        }
    };
    let es = edges(p, m);
    let mut text = String::new();
    match ext.as_str() {
        "graphml" | "xml" => {
            text.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
            text.push_str("<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n");
            text.push_str(
                "  <key id=\"board\" for=\"node\" attr.name=\"board\" attr.type=\"string\"/>\n",
            );
            text.push_str(
                "  <key id=\"distance\" for=\"node\" attr.name=\"distance\" attr.type=\"int\"/>\n",
            );
            text.push_str(
                "  <key id=\"goal\" for=\"node\" attr.name=\"goal\" attr.type=\"boolean\"/>\n",
            );
            text.push_str(
                "  <key id=\"move\" for=\"edge\" attr.name=\"move\" attr.type=\"string\"/>\n",
            );
            text.push_str("  <graph id=\"rush\" edgedefault=\"undirected\">\n");
            for (i, s) in m.states.iter().enumerate() {
                let _ = writeln!(
                    text,
                    "    <node id=\"n{i}\"><data key=\"board\">{}</data><data key=\"distance\">{}</data><data key=\"goal\">{}</data></node>",
                    xml_escape(&p.board_string(*s)),
                    dist(i),
                    m.dist[i] == 0
                );
            }
            for (k, (a, b, mv)) in es.iter().enumerate() {
                let _ = writeln!(
                    text,
                    "    <edge id=\"e{k}\" source=\"n{a}\" target=\"n{b}\"><data key=\"move\">{mv}</data></edge>"
                );
            }
            text.push_str("  </graph>\n</graphml>\n");
        }
        "dot" | "gv" => {
            text.push_str("graph rush {\n  node [shape=box, fontname=monospace];\n");
            for (i, s) in m.states.iter().enumerate() {
                let _ = writeln!(
                    text,
                    "  n{i} [board=\"{}\", distance={}, label=\"{}\"];",
                    p.board_string(*s),
                    dist(i),
                    dist(i)
                );
            }
            for (a, b, mv) in &es {
                let _ = writeln!(text, "  n{a} -- n{b} [move=\"{mv}\"];");
            }
            text.push_str("}\n");
        }
        _ => {
            return Err(format!(
                "{}: export to .graphml or .dot (GraphML or Graphviz DOT)",
                path.display()
            ));
        }
    }
    let write = |p: &Path, s: &str| -> Result<(), String> {
        std::fs::File::create(p)
            .and_then(|mut f| f.write_all(s.as_bytes()))
            .map_err(|e| format!("cannot write {}: {e}", p.display()))
    };
    write(path, &text)?;
    let stem = path.with_extension("");
    let nodes_path = PathBuf::from(format!("{}.nodes.csv", stem.display()));
    let edges_path = PathBuf::from(format!("{}.edges.csv", stem.display()));
    let mut nodes = String::from("id,board,distance,goal\n");
    for (i, s) in m.states.iter().enumerate() {
        let _ = writeln!(
            nodes,
            "n{i},{},{},{}",
            p.board_string(*s),
            dist(i),
            m.dist[i] == 0
        );
    }
    let mut edges_csv = String::from("source,target,move\n");
    for (a, b, mv) in &es {
        let _ = writeln!(edges_csv, "n{a},n{b},{mv}");
    }
    write(&nodes_path, &nodes)?;
    write(&edges_path, &edges_csv)?;
    Ok(vec![path.to_path_buf(), nodes_path, edges_path])
}

/// One rated move of a player's game.
#[derive(Clone, Debug, Serialize)]
pub struct Step {
    #[serde(rename = "move")]
    pub mv: String,
    pub before: Option<u32>,
    pub after: Option<u32>,
    /// `optimal` (one closer), `wasted` (no closer) or `backwards` (farther).
    pub verdict: &'static str,
    pub board: String,
}

/// Rates each move of `moves` (comma-separated, `B+1,C-2`) against the map.
pub fn trace(
    p: &Puzzle,
    start: State,
    m: &StateMap<State>,
    moves: &str,
) -> Result<Vec<Step>, String> {
    let positions: std::collections::HashMap<State, usize> =
        m.states.iter().enumerate().map(|(i, &s)| (s, i)).collect();
    let index = |s: State| positions.get(&s).copied();
    let dist = |s: State| index(s).map(|i| m.dist[i]).filter(|&d| d != u32::MAX);
    let mut s = start;
    let mut out = Vec::new();
    for (k, text) in moves
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .enumerate()
    {
        let before = dist(s);
        let (mv, next) = p
            .apply(s, text)
            .map_err(|e| format!("move {} ({text}): {e}", k + 1))?;
        let after = dist(next);
        let verdict = match (before, after) {
            (Some(b), Some(a)) if a < b => "optimal",
            (Some(b), Some(a)) if a == b => "wasted",
            (None, None) => "wasted",
            _ => "backwards",
        };
        out.push(Step {
            mv: mv.to_string(),
            before,
            after,
            verdict,
            board: p.board_string(next),
        });
        s = next;
    }
    Ok(out)
}
