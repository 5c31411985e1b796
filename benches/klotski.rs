//! `cargo bench --bench klotski`: time to an optimal plan for GNOME
//! Klotski's levels under both metrics, against the generic core search
//! (breadth-first over the independent rules in `blocks::rules`, the same
//! canonical states) in the same process, and the classic Huarong Dao goal
//! (116 steps / 81 moves), the puzzle the peer solvers are timed on.
//!
//! Last, the Rush Hour batch (`../shared/data/rush/rush_18k.txt`, every
//! `RUSH_STEP`-th line, default 20) through both engines: Rush Hour's own
//! (packed u64 states, bitboards) and the blocks engine on the same boards
//! (`blocks::rush`): median time per board and the ratio.
//!
//! `KLOTSKI_RUNS` (default 5) sets the runs per level; `KLOTSKI_LEVELS=all`
//! adds the levels that take seconds (Solomon, Rome) and skips the
//! baseline on them. Levels the search does not finish in the default
//! budget (Shark, Ithaca, Pelopones, Transeuropa, Lodzianka, American Pie,
//! Sunshine) are not timed.

mod common;

use std::time::{Duration, Instant};

use boardbot::engines::blocks::rules::generic_search;
use boardbot::engines::blocks::{Layout, Metric, plan};
use boardbot::games::klotski::levels;
use boardbot::solve::{Budget, Found, Progress};

const CLASSIC: &str = include_str!("../tests/fixtures/klotski/classic.txt");

/// Levels that finish in under a second; `all` adds the slow ones.
const QUICK: &[usize] = &[
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 18, 23, 24, 26,
];
const SLOW: &[usize] = &[14, 17];

fn runs() -> usize {
    std::env::var("KLOTSKI_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5)
}

/// Median seconds of `n` runs of `f`, and what the last run returned.
fn timed<T>(n: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut times = Vec::new();
    let mut last = f();
    for _ in 0..n {
        let t = Instant::now();
        last = std::hint::black_box(f());
        times.push(t.elapsed());
    }
    times.sort();
    (common::median(&times), last)
}

/// The dedicated plan's length and states.
fn dedicated(l: &Layout, m: Metric) -> (usize, u64) {
    let p = plan(l, m, &Budget::default(), &mut Progress::quiet()).expect("plannable");
    let n = p.plan.map_or(0, |p| p.moves.len());
    (n, p.outcome.states)
}

/// The generic core's breadth-first search over the independent rules.
fn generic(l: &Layout, m: Metric) -> usize {
    match generic_search(l, m, &Budget::default()) {
        Found::Path(p) => p.len(),
        _ => 0,
    }
}

fn row(name: &str, l: &Layout, m: Metric, n: usize, baseline: bool) {
    let (t, (len, states)) = timed(n, || dedicated(l, m));
    let base = baseline.then(|| timed(n.min(3), || generic(l, m)));
    if let Some((_, g)) = &base {
        assert_eq!(*g, len, "{name} {m:?}: generic and dedicated differ");
    }
    let ratio = base.map_or(String::new(), |(b, _)| {
        format!(
            "  generic {:>9.1} ms  = {:>5.1}× slower",
            common::ms(b),
            b.as_secs_f64() / t.as_secs_f64()
        )
    });
    println!(
        "{name:<26} {:<6} {len:>4} moves {states:>8} states  median {:>9.2} ms{ratio}",
        m.name(),
        common::ms(t)
    );
}

/// Median time per board of `solve` over `boards`, checking each answer.
fn per_board(boards: &[(u32, String)], solve: impl Fn(&str) -> Option<usize>) -> Duration {
    let mut times = Vec::with_capacity(boards.len());
    for (want, b) in boards {
        let t = Instant::now();
        let got = std::hint::black_box(solve(b));
        times.push(t.elapsed());
        assert_eq!(got, Some(*want as usize), "{b}");
    }
    times.sort();
    common::median(&times)
}

fn rush_batch() {
    let path = std::path::Path::new("../shared/data/rush/rush_18k.txt");
    let Ok(text) = std::fs::read_to_string(path) else {
        println!("rush: {} is absent; skipped", path.display());
        return;
    };
    let step = std::env::var("RUSH_STEP")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    let lines = boardbot::games::rush::solver::parse_lines(&text).expect("the batch parses");
    let boards: Vec<(u32, String)> = lines
        .iter()
        .step_by(step)
        .map(|l| (l.moves, l.board.clone()))
        .collect();
    let rush = per_board(&boards, |b| {
        let (p, s) = boardbot::games::rush::board::Puzzle::parse(b).ok()?;
        boardbot::games::rush::solver::solution_length(&p, s).map(|n| n as usize)
    });
    let blocks = per_board(&boards, |b| {
        boardbot::engines::blocks::rush::solution_length(b)
            .ok()
            .flatten()
    });
    println!(
        "rush batch, {} boards (every {step}th): rush engine median {:.3} ms/board, blocks engine {:.3} ms/board = {:.1}× slower",
        boards.len(),
        common::ms(rush),
        common::ms(blocks),
        blocks.as_secs_f64() / rush.as_secs_f64()
    );
}

fn main() {
    let n = runs();
    let all = std::env::var("KLOTSKI_LEVELS").is_ok_and(|v| v == "all");
    if std::env::var("KLOTSKI_ONLY").is_ok_and(|v| v == "rush") {
        rush_batch();
        return;
    }
    println!(
        "klotski: median of {n} runs per level; baseline: the generic core BFS, same rules and states"
    );
    let classic = Layout::parse(CLASSIC, "classic.txt").expect("the classic fixture parses");
    for m in [Metric::Pieces, Metric::Steps] {
        row("classic Huarong Dao", &classic, m, n.max(20), true);
    }
    let mut ids: Vec<usize> = QUICK.to_vec();
    if all {
        ids.extend_from_slice(SLOW);
    }
    for i in ids {
        let level = &levels::all()[i];
        let name = format!("{i:>2} {}", level.name);
        for m in [Metric::Pieces, Metric::Steps] {
            row(&name, &level.layout(), m, n, !SLOW.contains(&i));
        }
    }
    rush_batch();
}
