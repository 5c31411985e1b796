//! `cargo bench --bench fifteen`: the optimal sliding-tile solver.
//!
//! - the 4×4 pattern databases built from scratch (no cache);
//! - all of Korf's 100 instances (`../shared/data/fifteen/korf100.txt`)
//!   solved one after the other on one core, with the tables already in
//!   memory and, in one run, including building them: total and median,
//!   and nodes against Korf's published IDA* with Manhattan distance;
//! - random 3×3 boards: median time per optimal plan.
//!
//! `FIFTEEN_KORF=FILE` reads another file; without one the 4×4 part is
//! skipped with a message.

mod common;

use std::time::{Duration, Instant};

use boardbot::engines::tiles::{self, Slide, Tiles, cache, ida, pdb};
use boardbot::games::fifteen::korf::{median, solve_all};
use boardbot::games::fifteen::level::{KorfInstance, parse_korf};
use boardbot::rng::Rng;
use common::{ms, runs};

fn korf_file() -> Option<Vec<KorfInstance>> {
    let path = std::env::var("FIFTEEN_KORF")
        .unwrap_or_else(|_| "../shared/data/fifteen/korf100.txt".to_string());
    let text = std::fs::read_to_string(&path).ok()?;
    Some(parse_korf(&text).expect("Korf's file parses"))
}

/// Solves every instance with `tables`; (total ms, median ms, nodes).
fn korf_run(instances: &[KorfInstance], tables: &pdb::Tables) -> (f64, f64, u64) {
    let goal = Tiles::solved(4, 4).expect("frame");
    let t = Instant::now();
    let mut times = Vec::new();
    let mut nodes = 0;
    for inst in instances {
        let t1 = Instant::now();
        let mut bound = pdb::PatternBound::new(tables);
        let found = ida::search(&inst.start, &goal, &mut bound, u64::MAX).expect("solvable");
        assert_eq!(
            found.slides.len() as u32,
            inst.optimal,
            "instance {}",
            inst.id
        );
        times.push(ms(t1.elapsed()));
        nodes += found.nodes;
    }
    (ms(t.elapsed()), median(&mut times), nodes)
}

fn bench_korf(instances: &[KorfInstance]) {
    let t = Instant::now();
    let tables = pdb::Tables::build();
    let build = ms(t.elapsed());
    let (total, med, nodes) = korf_run(instances, &tables);
    let korf: u64 = instances.iter().map(|i| i.manhattan_nodes).sum();
    println!("pattern databases built in {build:.0} ms");
    println!(
        "Korf100 on one core, tables built first: total {:.0} ms (build {build:.0} + solve {total:.0}), median {med:.1} ms",
        build + total
    );
    let (total, med, _) = korf_run(instances, &tables);
    println!("Korf100 on one core, tables in memory: total {total:.0} ms, median {med:.1} ms");
    println!(
        "nodes: {nodes} in all, {} per instance on average; Korf's Manhattan IDA*: {korf} ({:.0}x more)",
        nodes / instances.len() as u64,
        korf as f64 / nodes as f64
    );
    let dir = std::env::temp_dir().join(format!("boardbot-bench-pdb-{}", std::process::id()));
    cache::load_or_build(Some(&dir));
    let t = Instant::now();
    let (tables, prov) = cache::load_or_build(Some(&dir));
    assert_eq!(prov.loaded, 2);
    let load = ms(t.elapsed());
    let (total, med, _) = korf_run(instances, &tables);
    println!(
        "Korf100 on one core, tables from the cache: total {:.0} ms (load {load:.0} + solve {total:.0}), median {med:.1} ms",
        load + total
    );
    let _ = std::fs::remove_dir_all(dir);
    let all = solve_all(&instances[..1], u64::MAX);
    assert!(all[0].got.is_ok());
}

/// A random reachable 3×3 frame: a long random walk from the goal.
fn random_3x3(rng: &mut Rng) -> Tiles {
    let mut t = Tiles::solved(3, 3).expect("frame");
    for _ in 0..200 {
        let s = Slide::ALL[rng.below(4)];
        t = t.slide(s).unwrap_or(t);
    }
    t
}

fn bench_3x3() {
    let goal = Tiles::solved(3, 3).expect("frame");
    let mut rng = Rng::new(7);
    let boards: Vec<Tiles> = (0..200).map(|_| random_3x3(&mut rng)).collect();
    let mut each = Vec::new();
    for b in &boards {
        let t = runs(Duration::from_millis(20), || {
            std::hint::black_box(tiles::solve(b, &goal, u64::MAX).expect("solvable"));
        });
        each.push(ms(common::median(&t)));
    }
    let worst = each.iter().copied().fold(0.0, f64::max);
    println!(
        "3x3, 200 random boards: median {:.3} ms per optimal plan, slowest {worst:.3} ms",
        median(&mut each)
    );
}

fn main() {
    bench_3x3();
    match korf_file() {
        Some(instances) => bench_korf(&instances),
        None => println!(
            "skipped Korf100: ../shared/data/fifteen/korf100.txt not found (set FIFTEEN_KORF)"
        ),
    }
}
