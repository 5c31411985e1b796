//! `cargo bench --bench inertia`: the time to plan an Inertia board of the
//! default size (10x8), over the 50 sgt-made game IDs of
//! tests/fixtures/inertia/ids.txt: the median and the slowest board's median,
//! for the A* solver and, as a baseline in the same process, for a plain
//! breadth-first search over the same states (no bound).

mod common;

use std::hint::black_box;
use std::time::Duration;

use boardbot::games::inertia::Board;
use boardbot::solve::{Budget, Progress, Puzzle, bfs};
use common::{median, ms, runs};

/// Each board's median time, sorted.
fn per_board(boards: &[Board], f: impl Fn(&Board)) -> Vec<Duration> {
    let mut t: Vec<Duration> = boards
        .iter()
        .map(|b| median(&runs(Duration::from_millis(200), || f(b))))
        .collect();
    t.sort();
    t
}

fn row(name: &str, t: &[Duration], baseline: Option<&[Duration]>) {
    let ratio = baseline.map_or(String::new(), |b| {
        format!(
            "  = {:.2}× the baseline",
            median(t).as_secs_f64() / median(b).as_secs_f64()
        )
    });
    println!(
        "{name:<36} median {:>8.3} ms  slowest board {:>8.3} ms  boards={}{ratio}",
        ms(median(t)),
        ms(*t.last().expect("boards")),
        t.len()
    );
}

fn main() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/inertia/ids.txt"
    );
    let text = std::fs::read_to_string(path).expect("ids.txt");
    let boards: Vec<Board> = text
        .lines()
        .map(|l| Board::new(l).expect("an ID"))
        .collect();
    let budget = Budget::default();
    let bfs_t = per_board(&boards, |b| {
        black_box(bfs(
            b.rules.start,
            |s, out| b.successors(s, out),
            |s| b.is_goal(s),
            &budget,
            &mut Progress::quiet(),
        ));
    });
    let astar_t = per_board(&boards, |b| {
        // `search`, not `solve`: that would reuse the route it found last.
        black_box(b.search(b.rules.start, &budget, &mut Progress::quiet()));
    });
    row("baseline: breadth-first, no bound", &bfs_t, None);
    row("plan (A*, gem-distance bound)", &astar_t, Some(&bfs_t));
}
