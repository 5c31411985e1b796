//! The level verifier, after the makers' tool: build every state reachable
//! from a level, carry wins backwards through the reversed graph, reject
//! dead ends, and rate the rest against the combo rules.
//!
//! A solution is a *combo* when, for every colour, all its skiddies leave
//! in one and the same move. A move breaks the combo exactly when some
//! colour has skiddies leaving on it but not all of them, so combo
//! solutions are the winning paths that avoid those edges: their shortest
//! is a breadth-first pass back from the wins over the other edges. The
//! shortest non-combo solution is the best of `start → u`, one breaking
//! edge `u → v`, then `v → win` by any path.

use serde::Serialize;

use super::level::{Colour, Level, Piece};
use super::rules::{Key, Move, Rules};
use crate::game::GameError;
use crate::report::{Custom, Output};
use crate::solve::map::{OverBudget, StateMap, distance_map};
use crate::solve::progress::Progress;
use crate::solve::search::{Budget, Stats};
use crate::tools;
use crate::tools::options::Options;

/// A rule of the star rating that a level fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// No win can be reached from the start.
    Unsolvable,
    /// Some reachable state cannot reach a win.
    DeadEnds,
    /// No solution is a combo.
    NoComboSolution,
    /// Every solution is a combo.
    NoNonComboSolution,
    /// A non-combo solution is shorter than every combo solution.
    NonComboShorter,
}

impl Reason {
    pub fn says(self) -> &'static str {
        match self {
            Reason::Unsolvable => "no solution",
            Reason::DeadEnds => "a reachable position cannot be won (a dead end)",
            Reason::NoComboSolution => "no combo solution",
            Reason::NoNonComboSolution => "no non-combo solution",
            Reason::NonComboShorter => "a non-combo solution is shorter than every combo solution",
        }
    }
}

/// A solution: its moves, joined (`RUL`), and its length.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Line {
    pub moves: String,
    pub length: usize,
}

impl Line {
    fn of<'m>(moves: impl IntoIterator<Item = &'m Move>) -> Line {
        let moves: String = moves.into_iter().map(|m| m.dir.letter()).collect();
        Line {
            length: moves.len(),
            moves,
        }
    }
}

/// Figures on the graph behind the verdict.
#[derive(Clone, Debug, Serialize)]
pub struct VerifyStats {
    pub edges: usize,
    pub goal_states: usize,
    /// The most moves any reachable state needs to win.
    pub max_distance: Option<u32>,
    pub ms: f64,
    pub states_per_sec: f64,
    pub peak_bytes: u64,
}

/// The verdict on a level: the JSON contract.
#[derive(Clone, Debug, Serialize)]
pub struct Verdict {
    pub stars: u8,
    pub reasons: Vec<Reason>,
    pub states: usize,
    pub dead_ends: usize,
    pub dead_end_example: Option<String>,
    pub shortest: Option<Line>,
    pub shortest_combo: Option<Line>,
    pub shortest_non_combo: Option<Line>,
    pub stats: VerifyStats,
}

/// How many skiddies of each colour the level holds.
pub fn colour_counts(rules: &Rules) -> [u8; 4] {
    let mut n = [0u8; 4];
    for p in &rules.slots {
        if let Piece::Skiddy(c) = p {
            n[c.index()] += 1;
        }
    }
    n
}

/// True when `m` takes some but not all skiddies of a colour off the board.
pub fn breaks_combo(m: &Move, counts: &[u8; 4]) -> bool {
    Colour::ALL.iter().any(|c| {
        let left = m.left_of(*c);
        left > 0 && left < counts[c.index()]
    })
}

/// Verifies a level: maps it whole and rates it.
pub fn verify(
    rules: &Rules,
    budget: &Budget,
    progress: &mut Progress,
) -> Result<Verdict, OverBudget> {
    let t = std::time::Instant::now();
    let map = distance_map(
        rules.start,
        |s: &Key, out: &mut Vec<(Move, Key)>| rules.successors(s, out),
        |s| rules.is_won(s),
        budget,
        progress,
    )?;
    let counts = colour_counts(rules);
    let mut v = rate(&map, &counts);
    v.stats.ms = t.elapsed().as_secs_f64() * 1e3;
    v.stats.states_per_sec = map.len() as f64 / t.elapsed().as_secs_f64().max(1e-9);
    Ok(v)
}

/// Rates a finished map.
fn rate(map: &StateMap<Key, Move>, counts: &[u8; 4]) -> Verdict {
    let clean = |m: &Move| !breaks_combo(m, counts);
    let dist = map.distances();
    let combo_dist = map.distances_using(clean);
    let from_start = map.from_start();
    let shortest_combo =
        (combo_dist[0] != u32::MAX).then(|| Line::of(map.descend(0, &combo_dist, clean)));
    // Among the shortest solutions, prefer a combo.
    let shortest = match (&shortest_combo, map.distance(0)) {
        (Some(c), Some(d)) if c.length == d as usize => Some(c.clone()),
        (_, Some(_)) => Some(Line::of(map.descend(0, dist, |_| true))),
        (_, None) => None,
    };
    let shortest_non_combo = shortest_non_combo(map, &from_start, counts);
    let dead: Vec<u32> = (0..map.len() as u32)
        .filter(|&i| map.distance(i).is_none())
        .collect();
    let nearest_dead = dead
        .iter()
        .copied()
        .min_by_key(|&i| from_start.dist[i as usize]);
    let reasons = reasons(
        &shortest,
        &shortest_combo,
        &shortest_non_combo,
        !dead.is_empty(),
    );
    Verdict {
        stars: stars(&reasons),
        reasons,
        states: map.len(),
        dead_ends: dead.len(),
        dead_end_example: nearest_dead.map(|i| Line::of(map.path_from_start(&from_start, i)).moves),
        shortest,
        shortest_combo,
        shortest_non_combo,
        stats: stats_of(map),
    }
}

/// The shortest solution with at least one move that breaks the combo.
fn shortest_non_combo(
    map: &StateMap<Key, Move>,
    from_start: &crate::solve::map::FromStart,
    counts: &[u8; 4],
) -> Option<Line> {
    let dist = map.distances();
    let mut best: Option<(u32, u32, u32)> = None;
    for u in 0..map.len() as u32 {
        let du = from_start.dist[u as usize];
        for k in map.edge_ids(u) {
            let (m, v) = map.edge(k);
            let dv = dist[v as usize];
            if dv == u32::MAX || !breaks_combo(m, counts) {
                continue;
            }
            let length = du + 1 + dv;
            if best.is_none_or(|(b, _, _)| length < b) {
                best = Some((length, u, k));
            }
        }
    }
    let (_, u, k) = best?;
    let (m, v) = map.edge(k);
    let mut path = map.path_from_start(from_start, u);
    path.push(m);
    path.extend(map.descend(v, dist, |_| true));
    Some(Line::of(path))
}

/// Every rule of the rating that fails.
fn reasons(
    shortest: &Option<Line>,
    combo: &Option<Line>,
    non_combo: &Option<Line>,
    dead_ends: bool,
) -> Vec<Reason> {
    let mut r = Vec::new();
    if shortest.is_none() {
        r.push(Reason::Unsolvable);
    }
    if dead_ends {
        r.push(Reason::DeadEnds);
    }
    if combo.is_none() {
        r.push(Reason::NoComboSolution);
    }
    if non_combo.is_none() {
        r.push(Reason::NoNonComboSolution);
    }
    if let (Some(c), Some(n)) = (combo, non_combo)
        && n.length < c.length
    {
        r.push(Reason::NonComboShorter);
    }
    r
}

/// ★ solvable without dead ends; ★★ also both kinds of solution; ★★★
/// also no non-combo solution shorter than the shortest combo.
fn stars(reasons: &[Reason]) -> u8 {
    let fails = |rs: &[Reason]| rs.iter().any(|r| reasons.contains(r));
    if fails(&[Reason::Unsolvable, Reason::DeadEnds]) {
        0
    } else if fails(&[Reason::NoComboSolution, Reason::NoNonComboSolution]) {
        1
    } else if fails(&[Reason::NonComboShorter]) {
        2
    } else {
        3
    }
}

fn stats_of(map: &StateMap<Key, Move>) -> VerifyStats {
    let Stats { peak_bytes, .. } = map.stats;
    VerifyStats {
        edges: map.edges(),
        goal_states: map.goals.len(),
        max_distance: map.max_distance(),
        ms: 0.0,
        states_per_sec: 0.0,
        peak_bytes,
    }
}

/// `boardbot verify --game skiddy`: the verdict as JSON and text.
pub fn command(text: &str, origin: &str, opts: &Options) -> Result<Output, GameError> {
    let level = Level::parse(text).map_err(|e| GameError::Parse {
        origin: origin.to_string(),
        message: e.to_string(),
    })?;
    let rules = Rules::new(&level);
    let mut progress = Progress::new(opts.progress);
    let verdict = match verify(&rules, &tools::budget(opts), &mut progress) {
        Ok(v) => v,
        Err(over) => return Ok(Output::GaveUp(tools::gave_up("skiddy", &over))),
    };
    Ok(Output::Custom(Custom {
        json: document(&verdict, origin, true)?,
        text: describe(&verdict, origin),
        code: 0,
    }))
}

/// The `verify --json` document; `timed` keeps the timings, which differ
/// from run to run.
pub fn document(v: &Verdict, origin: &str, timed: bool) -> Result<serde_json::Value, GameError> {
    let mut json = serde_json::to_value(v).map_err(|e| GameError::Output(e.to_string()))?;
    json["game"] = "skiddy".into();
    json["level"] = origin.into();
    if !timed && let Some(stats) = json["stats"].as_object_mut() {
        stats.remove("ms");
        stats.remove("states_per_sec");
    }
    Ok(json)
}

/// The verdict for a reader.
pub fn describe(v: &Verdict, origin: &str) -> String {
    let stars: String = (0..3)
        .map(|i| if i < v.stars { '★' } else { '☆' })
        .collect();
    let line = |l: &Option<Line>| {
        l.as_ref().map_or("none".to_string(), |l| {
            let s = if l.length == 1 { "" } else { "s" };
            format!("{} ({} move{s})", l.moves, l.length)
        })
    };
    let mut out = format!(
        "{origin}: {stars} ({} star{})\n  positions: {}, dead ends: {}",
        v.stars,
        if v.stars == 1 { "" } else { "s" },
        v.states,
        v.dead_ends
    );
    match v.dead_end_example.as_deref() {
        Some("") => out += " (the start is one)",
        Some(e) => out += &format!(" (the nearest: {e})"),
        None => {}
    }
    out += &format!(
        "\n  shortest: {}\n  shortest combo: {}\n  shortest non-combo: {}\n",
        line(&v.shortest),
        line(&v.shortest_combo),
        line(&v.shortest_non_combo)
    );
    for r in &v.reasons {
        out += &format!("  fails: {}\n", r.says());
    }
    out += &format!(
        "  verified in {:.1} ms ({:.0} positions/s)\n",
        v.stats.ms, v.stats.states_per_sec
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(text: &str) -> Verdict {
        let rules = Rules::new(&Level::parse(text).unwrap());
        verify(&rules, &Budget::default(), &mut Progress::quiet()).unwrap()
    }

    #[test]
    fn a_move_breaks_the_combo_when_a_colour_leaves_in_part() {
        let counts = [2, 1, 0, 0];
        let m = |left| Move {
            dir: super::super::rules::Dir::U,
            left,
        };
        assert!(breaks_combo(&m([1, 0, 0, 0]), &counts));
        assert!(!breaks_combo(&m([2, 1, 0, 0]), &counts));
        assert!(!breaks_combo(&m([0, 1, 0, 0]), &counts));
    }

    #[test]
    fn stars_follow_the_first_rule_that_fails() {
        use Reason::*;
        assert_eq!(stars(&[]), 3);
        assert_eq!(stars(&[NonComboShorter]), 2);
        assert_eq!(stars(&[NoNonComboSolution]), 1);
        assert_eq!(stars(&[DeadEnds, NoComboSolution]), 0);
        assert_eq!(stars(&[Unsolvable]), 0);
    }

    #[test]
    fn two_loose_reds_rate_both_kinds_of_solution() {
        // Two loose reds side by side under one goal (see
        // tests/fixtures/skiddy/loose_pair.txt): a red leaves alone on
        // every way out, so no solution is a combo.
        let v = verdict("sticky: no\n#R#####\n#rr...#\n#.....#\n#######\n");
        assert_eq!(v.shortest_combo, None);
        assert_eq!(v.shortest_non_combo.as_ref().map(|l| l.length), Some(3));
        assert_eq!(v.reasons, [Reason::NoComboSolution]);
        assert_eq!((v.stars, v.dead_ends), (1, 0));
        // A corridor: the start, red at the left end, and the win. One red
        // always leaves alone, which is a combo: no non-combo solution.
        let v = verdict("#######\n#.r...R\n#######\n");
        assert_eq!((v.states, v.dead_ends, v.dead_end_example), (3, 0, None));
        assert_eq!(v.shortest.map(|l| l.moves), Some("R".to_string()));
        assert_eq!((v.stars, v.reasons), (1, vec![Reason::NoNonComboSolution]));
    }

    #[test]
    fn a_pushed_crate_that_hides_the_goal_is_a_dead_end() {
        // R is the only move: red pushes the crate over the goal's cell
        // and stops where it stood. After that red only runs between the
        // left end and the crate: three positions, none can win.
        let v = verdict("######\n#r.c.#\n####R#\n");
        assert_eq!((v.states, v.dead_ends), (3, 3));
        assert_eq!(v.dead_end_example.as_deref(), Some(""), "the start is one");
        assert_eq!(v.shortest, None);
        use Reason::*;
        assert_eq!(
            v.reasons,
            [Unsolvable, DeadEnds, NoComboSolution, NoNonComboSolution]
        );
        assert_eq!(v.stars, 0);
    }
}
