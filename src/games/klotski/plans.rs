//! The plans boardbot ships for GNOME's 28 levels (`plans.txt`), so play
//! starts at once from any position along them. Every plan was found by
//! boardbot's own search (`.ci/klotski-book` writes the file), and
//! `tests/klotski_peers.rs` replays each one under the independent rules
//! and checks its length against a fresh search where one is quick.
//!
//! A line is `INDEX METRIC PROOF BOUND MOVES…`: the level's GSettings
//! index, `pieces` or `steps`, `optimal` (proven shortest) or `best` (the
//! shortest found), the proven lower bound, then the moves (`a:DR`).

use std::sync::OnceLock;

use super::levels;
use crate::engines::blocks::book::{Book, Entry};
use crate::engines::blocks::moves::parse_move;
use crate::engines::blocks::{Layout, Metric};

const TEXT: &str = include_str!("plans.txt");

/// The shipped plans (none if the file does not parse, which a test
/// rules out).
pub fn book() -> &'static Book {
    static BOOK: OnceLock<Book> = OnceLock::new();
    BOOK.get_or_init(|| parse(TEXT).unwrap_or_default())
}

/// The shipped plans where they may apply: on a board of a level's size.
/// Others (a Huarong Dao box, a puzzle of the user's) skip parsing them,
/// which costs more than solving a small puzzle.
pub fn book_for(l: &Layout) -> Option<&'static Book> {
    levels::has_size(l.width, l.height).then(book)
}

/// Reads a plans file; errors name the line.
pub fn parse(text: &str) -> Result<Book, String> {
    let mut book = Book::default();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let entry = entry(line).map_err(|e| format!("plans.txt, line {}: {e}", n + 1))?;
        book.entries.push(entry);
    }
    Ok(book)
}

fn entry(line: &str) -> Result<Entry, String> {
    let mut f = line.split_whitespace();
    let mut field = |what: &str| f.next().ok_or_else(|| format!("no {what}"));
    let index = field("level index")?;
    let level = levels::find(index).ok_or_else(|| format!("no level {index}"))?;
    let metric = match field("metric")? {
        "pieces" => Metric::Pieces,
        "steps" => Metric::Steps,
        m => return Err(format!("{m:?} is not a metric (pieces or steps)")),
    };
    let optimal = match field("proof")? {
        "optimal" => true,
        "best" => false,
        p => return Err(format!("{p:?} is not `optimal` or `best`")),
    };
    let bound = field("lower bound")?;
    let bound: u32 = bound
        .parse()
        .map_err(|_| format!("{bound:?} is not a lower bound"))?;
    let moves = f.map(parse_move).collect::<Result<Vec<_>, _>>()?;
    let name = format!("GNOME level {} ({})", level.index, level.name);
    Ok(Entry::new(
        &name,
        level.layout(),
        metric,
        moves,
        optimal,
        bound,
    ))
}
