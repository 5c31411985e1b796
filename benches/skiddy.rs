//! `cargo bench --bench skiddy`: the Skiddy verifier and generator.
//!
//! - `verify` (map every reachable position, carry wins back, rate) on
//!   8×7 levels with 4 skiddies, 2 crates and an ice cube, with positions
//!   per second; the baseline is the same map built with the lock-step
//!   move path alone (the first engine), in the same process.
//! - the generator on 6×5 levels: candidates placed and verified per
//!   second on one thread, and on every core.

mod common;

use std::hint::black_box;
use std::time::Duration;

use boardbot::games::skiddy::generate;
use boardbot::games::skiddy::level::Level;
use boardbot::games::skiddy::verify::verify;
use boardbot::games::skiddy::{Dir, Key, Move, Rules};
use boardbot::solve::map::distance_map;
use boardbot::solve::{Budget, Progress};
use boardbot::tools::options::GenerateOptions;
use common::{median, ms, runs};

/// A random 8×7 candidate (`generate --seed 1`, candidate 26): 20,061
/// positions, with dead ends, as most random levels have.
const RANDOM: &str = "#####B##\n#i....##\n#.....b#\n#.###..#\n#r.r.c.#\n#cb....R\n########\n";
/// A kept one-star 8×7 level (`generate --static 25 --seed 1`): 399 positions.
const KEPT: &str = "########\n#.#cb..#\n##.#b..#\n#.##..##\n#.c...i#\nRr.#..r#\n######B#\n";

fn rules(text: &str) -> Rules {
    Rules::new(&Level::parse(text).expect("bench level"))
}

/// Maps a level with the lock-step moves only; the number of positions.
fn lockstep_map(r: &Rules) -> usize {
    let next = |s: &Key, out: &mut Vec<(Move, Key)>| {
        out.extend(Dir::ALL.into_iter().filter_map(|d| r.play_lockstep(s, d)));
    };
    distance_map(
        r.start,
        next,
        |s| r.is_won(s),
        &Budget::default(),
        &mut Progress::quiet(),
    )
    .map_or(0, |m| m.len())
}

fn bench_verify(name: &str, text: &str) {
    let r = rules(text);
    let mut states = 0;
    let t = runs(Duration::from_secs(3), || {
        let v = verify(&r, &Budget::default(), &mut Progress::quiet()).expect("fits");
        states = black_box(v.states);
    });
    let base = runs(Duration::from_secs(3), || {
        black_box(lockstep_map(&r));
    });
    println!(
        "verify {name}: {states} positions, median {:.2} ms ({:.0} positions/s, {} runs); \
         lock-step map alone {:.2} ms: {:.2}x faster",
        ms(median(&t)),
        states as f64 / median(&t).as_secs_f64(),
        t.len(),
        ms(median(&base)),
        median(&base).as_secs_f64() / median(&t).as_secs_f64()
    );
}

fn ask(threads: usize) -> GenerateOptions {
    GenerateOptions {
        size: (6, 5),
        colours: 2,
        skiddies: 4,
        crates: 1,
        ice: 1,
        pits: 0,
        static_pct: 10,
        goals_per_colour: 1,
        perfect: None,
        stars: 3,
        // More than the tries allow: every candidate is tried.
        count: usize::MAX,
        seed: 9,
        out: None,
        tries: 4000,
        max_states: 2_000_000,
        threads,
        progress: false,
    }
}

fn bench_generate(threads: usize) {
    let mut per_sec = Vec::new();
    let mut kept = 0;
    for _ in 0..5 {
        let run = generate::run(&ask(threads)).expect("valid request");
        kept = run.kept.len();
        per_sec.push(run.tried as f64 / run.seconds);
    }
    per_sec.sort_by(f64::total_cmp);
    let m = per_sec[per_sec.len() / 2];
    println!(
        "generate 6x5 (2 colours, 4 skiddies, a crate, ice), {threads} thread(s): median {m:.0} candidates/s, \
         {:.0} per thread; {kept} of 4000 kept at 3 stars",
        m / threads as f64
    );
}

fn main() {
    bench_verify("8x7 random candidate", RANDOM);
    bench_verify("8x7 kept level", KEPT);
    bench_generate(1);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if cores > 1 {
        bench_generate(cores);
    }
}
