//! The text renderer: every command's document as people read it. The
//! same for every game; a game only fills the typed fields.

use std::fmt::Write as _;

use super::docs::{BatchReport, Distances, MapReport, PictureMode, Rating, TraceReport};
use super::{CellIssue, Frame, Report, Verdict};

/// A board's rows, indented, one space between cells.
pub fn board(rows: &[String]) -> String {
    let mut s = String::new();
    for row in rows {
        let spaced: Vec<String> = row.chars().map(|c| c.to_string()).collect();
        let _ = writeln!(s, "  {}", spaced.join(" "));
    }
    s
}

/// Words joined by spaces, wrapped at 78 columns, indented by two.
fn wrapped(words: &[String]) -> String {
    let mut out = String::new();
    let mut line = String::from(" ");
    for w in words {
        if line.chars().count() + w.chars().count() + 1 > 78 && !line.trim().is_empty() {
            let _ = writeln!(out, "{line}");
            line = String::from(" ");
        }
        line.push(' ');
        line.push_str(w);
    }
    if !line.trim().is_empty() {
        let _ = writeln!(out, "{line}");
    }
    out
}

fn board_header(r: &Report) -> Option<String> {
    let b = r.board.as_ref()?;
    let how = match (r.state, &b.confidence) {
        (Verdict::NoBoard | Verdict::Uncertain, _) => " as read, ? where unsure".to_string(),
        (_, Some(conf)) => {
            let min = conf.iter().flatten().fold(1.0f64, |a, &b| a.min(b));
            format!(" read from the image (lowest cell confidence {min:.2})")
        }
        (_, None) => String::new(),
    };
    Some(format!(
        "Board ({}×{}){how}:\n{}",
        b.rows,
        b.cols,
        board(&b.cells)
    ))
}

fn frames(list: &[Frame]) -> String {
    let mut s = String::new();
    for (i, f) in list.iter().enumerate() {
        match &f.mv {
            None => {
                let _ = write!(s, "\nStart:\n{}", board(&f.board));
            }
            Some(m) => {
                let _ = write!(s, "\n{i}. {m}\n{}", board(&f.board));
            }
        }
    }
    s
}

fn issues(title: &str, list: &[CellIssue]) -> String {
    let mut s = String::new();
    if !list.is_empty() {
        let _ = writeln!(s, "{title}:");
        for i in list {
            let _ = writeln!(s, "  ({},{}): {}", i.cell[0], i.cell[1], i.why);
        }
    }
    s
}

/// Which game a screenshot was recognised as, and what every game that
/// looked saw (only when no game was named).
fn recognised(r: &Report) -> String {
    let mut s = String::new();
    if r.candidates.is_empty() {
        return s;
    }
    match r.game {
        Some(g) => {
            let _ = writeln!(s, "Recognised as {g}.");
        }
        None => {
            let _ = writeln!(s, "No game recognised:");
        }
    }
    if r.game.is_none() || r.state.refuses() {
        for c in &r.candidates {
            let _ = writeln!(s, "  {}: {} ({})", c.game, c.reason, c.state.name());
        }
    }
    s
}

/// A solve's report: the board, the plan or why there is none, the
/// walkthrough and the search's figures.
pub fn report(r: &Report) -> String {
    let mut s = recognised(r);
    s.push_str(&board_header(r).unwrap_or_default());
    if !r.headline.is_empty() {
        let _ = writeln!(s, "{}", r.headline);
    }
    s.push_str(&wrapped(&r.route));
    if let Some(f) = &r.walkthrough {
        s.push_str(&frames(f));
    }
    if r.state.refuses() {
        let _ = writeln!(s, "Not acting ({}): {}.", r.state.name(), r.reason);
        s.push_str(&issues("Cells it could not read", &r.unreadable));
        s.push_str(&issues("Targets it can never reach", &r.unreachable));
    }
    for d in &r.details {
        let _ = writeln!(s, "{d}");
    }
    s
}

pub fn map(m: &MapReport) -> String {
    let mut s = format!(
        "{} positions reachable ({} solved, {} dead ends), {} moves between them.\n\
         This board is {} from a solution; the farthest positions are {} away ({} of them).\n",
        m.states,
        m.goal_states,
        m.dead_states,
        m.edges,
        m.distance
            .map_or("unsolvable, never".to_string(), |d| format!("{d} moves")),
        m.max_distance.map_or("-".to_string(), |d| d.to_string()),
        m.hardest.len(),
    );
    for b in m.hardest.iter().take(5) {
        let _ = writeln!(s, "  {b}");
    }
    if let Some(files) = &m.files {
        let _ = writeln!(s, "Wrote {}.", files.join(", "));
    }
    if let Some(p) = &m.picture {
        let what = match p.mode {
            PictureMode::States => format!("every state ({}) and move ({})", p.nodes, p.edges),
            PictureMode::Layers => format!(
                "{} distance layers and {} links between them (too many states to draw one by one)",
                p.nodes, p.edges
            ),
        };
        let path = p
            .path_moves
            .map_or(String::new(), |n| format!(", with the player's {n} moves"));
        let _ = writeln!(s, "Drew {}: {what}{path}.", p.file);
    }
    s
}

pub fn trace(t: &TraceReport) -> String {
    let fmt = |d: Option<u32>| d.map_or("-".to_string(), |d| d.to_string());
    let mut s = String::new();
    if let Some(r) = &t.record {
        let _ = writeln!(s, "Session {r}.");
    }
    if let Distances::Search { mapped } = t.distances {
        let _ = writeln!(
            s,
            "The map outgrew the memory budget after {mapped} positions: each position reached was solved on its own."
        );
    }
    let _ = writeln!(s, "Start: {} moves from a solution.", fmt(t.start_distance));
    let timed = t.moves.iter().any(|m| m.think_ms.is_some());
    for (i, m) in t.moves.iter().enumerate() {
        let think = match m.think_ms {
            Some(ms) => format!("  thought {:.1} s", ms as f64 / 1e3),
            None => String::new(),
        };
        let _ = writeln!(
            s,
            "{:>3}. {:<5} {:>3} -> {:<3} {:<9}{think}",
            i + 1,
            m.mv,
            fmt(m.before),
            fmt(m.after),
            m.rating.name(),
        );
    }
    let _ = writeln!(
        s,
        "{} moves: {} {}, {} {}, {} {}; {}.",
        t.moves.len(),
        t.optimal,
        Rating::Optimal.name(),
        t.neutral,
        Rating::Neutral.name(),
        t.step_back,
        Rating::StepBack.name(),
        if t.solved { "solved" } else { "not solved" }
    );
    s.push_str(&trace_summary(t, timed));
    s
}

/// The moves against the optimum, the share of optimal moves and the
/// thinking times.
fn trace_summary(t: &TraceReport, timed: bool) -> String {
    let mut s = String::new();
    if let (Some(best), Some(share)) = (t.optimum, t.optimal_share) {
        let excess = t
            .excess
            .map_or(String::new(), |e| format!(" ({e} more than needed)"));
        let _ = writeln!(
            s,
            "Made {} moves against an optimum of {best}{excess}; {:.0}% of them optimal.",
            t.moves_made,
            share * 100.0
        );
    }
    if timed {
        let ms = |m: Option<f64>| m.map_or("-".to_string(), |v| format!("{:.1} s", v / 1e3));
        let _ = writeln!(
            s,
            "Median thinking time: {} before optimal moves, {} before the others.",
            ms(t.median_think_optimal_ms),
            ms(t.median_think_other_ms)
        );
    }
    s
}

pub fn batch(b: &BatchReport) -> String {
    let mut s = format!(
        "{}: {} puzzles solved in {:.2} s on {} threads (median {:.3} ms per puzzle); {} mismatch(es).\n",
        b.origin,
        b.puzzles,
        b.total_ms / 1e3,
        b.threads,
        b.median_ms,
        b.mismatches.len()
    );
    for m in b.mismatches.iter().take(20) {
        let _ = writeln!(
            s,
            "  line {}: {} expected {}, got {}",
            m.line, m.board, m.expected, m.got
        );
    }
    s
}
