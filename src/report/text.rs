//! The text renderer: every command's document as people read it. The
//! same for every game; a game only fills the typed fields.

use std::fmt::Write as _;

use super::docs::{BatchReport, MapReport, MoveVerdict, TraceReport};
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
            let min = conf.iter().flatten().fold(1.0f32, |a, &b| a.min(b));
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

/// A solve's report: the board, the plan or why there is none, the
/// walkthrough and the search's figures.
pub fn report(r: &Report) -> String {
    let mut s = board_header(r).unwrap_or_default();
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
    s
}

pub fn trace(t: &TraceReport) -> String {
    let fmt = |d: Option<u32>| d.map_or("-".to_string(), |d| d.to_string());
    let mut s = format!("Start: {} moves from a solution.\n", fmt(t.start_distance));
    for (i, m) in t.moves.iter().enumerate() {
        let _ = writeln!(
            s,
            "{:>3}. {:<5} {:>3} -> {:<3} {}",
            i + 1,
            m.mv,
            fmt(m.before),
            fmt(m.after),
            m.verdict.name()
        );
    }
    let _ = writeln!(
        s,
        "{} moves: {} {}, {} {}, {} {}; {}.",
        t.moves.len(),
        t.optimal,
        MoveVerdict::Optimal.name(),
        t.wasted,
        MoveVerdict::Wasted.name(),
        t.backwards,
        MoveVerdict::Backwards.name(),
        if t.solved { "solved" } else { "not solved" }
    );
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
