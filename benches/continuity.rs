//! `cargo bench --bench continuity`: the time to plan each bundled
//! Continuity level (3×3 frames of 8×8 scenes) from its start: each
//! level's median, for the planner (A* with the relaxed bound) and, as a
//! baseline in the same process, the plain full-state Dijkstra.

mod common;

use std::hint::black_box;
use std::time::Duration;

use boardbot::games::continuity::level::Level;
use boardbot::games::continuity::rules::{Action, State, World};
use boardbot::games::continuity::{full, levels, plan};
use boardbot::solve::{Budget, Progress, Solution};
use common::{median, ms, runs};

fn main() {
    let budget = Budget::default();
    let mut plans = Vec::new();
    let mut fulls = Vec::new();
    println!(
        "{:<16} {:>10} {:>10} {:>8}",
        "level", "plan ms", "full ms", "ratio"
    );
    for (name, text) in levels::LEVELS {
        let world = World::new(Level::parse(text).expect("a bundled level"));
        let start = world.start();
        type Search = fn(&World, State, u32, &Budget, &mut Progress) -> Solution<Action>;
        let time = |search: Search| {
            median(&runs(Duration::from_millis(300), || {
                black_box(search(&world, start, 5, &budget, &mut Progress::quiet()));
            }))
        };
        let (p, f) = (
            time(plan::search),
            time(|w, s, c, b, p| full::search(w, s, c, |_| 0, b, p)),
        );
        println!(
            "{name:<16} {:>10.3} {:>10.3} {:>7.1}×",
            ms(p),
            ms(f),
            f.as_secs_f64() / p.as_secs_f64()
        );
        plans.push(p);
        fulls.push(f);
    }
    plans.sort();
    fulls.sort();
    println!(
        "median over {} levels: plan {:.3} ms (slowest {:.3} ms), full search {:.3} ms (slowest {:.3} ms)",
        plans.len(),
        ms(median(&plans)),
        ms(*plans.last().expect("levels")),
        ms(median(&fulls)),
        ms(*fulls.last().expect("levels")),
    );
}
