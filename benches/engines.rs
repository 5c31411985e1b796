//! `cargo bench --bench engines`: states per second for the B.i.t.Lock and
//! Rush Hour engines, each against a baseline run in the same process.
//!
//! - Rush Hour: breadth-first search over packed `u64` states and
//!   bitboard moves, against a plain breadth-first search over 36-character
//!   strings with a standard hash set (how a first solver is often written).
//! - B.i.t.Lock: A* with the direction and distance bounds, against
//!   breadth-first search over the same packed layouts.

use std::collections::{HashSet, VecDeque};
use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

use boardbot::games::bitlock::load;
use boardbot::games::bitlock::rules::{Dir, Key};
use boardbot::games::bitlock::solver::{Solver, Win};
use boardbot::games::rush::board::Puzzle;
use boardbot::games::rush::solver::solution_length;
use boardbot::solve::{Budget, Found, Progress, astar, bfs};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Times `f` (which returns how many states it visited) `n` times; median
/// seconds and the states of one run.
fn time(n: usize, mut f: impl FnMut() -> u64) -> (f64, u64) {
    let mut secs = Vec::new();
    let mut states = 0;
    for _ in 0..n {
        let t = Instant::now();
        states = black_box(f());
        secs.push(t.elapsed().as_secs_f64());
    }
    (median(secs), states)
}

/// The naive baseline: boards as strings, moves by editing the string.
fn string_bfs(board: &str) -> (Option<u32>, u64) {
    let start: Vec<u8> = board
        .bytes()
        .map(|b| if b == b'.' { b'o' } else { b })
        .collect();
    let goal = |b: &[u8]| b[16] == b'A' && b[17] == b'A';
    let mut seen: HashSet<Vec<u8>> = HashSet::new();
    let mut q = VecDeque::from([(start.clone(), 0u32)]);
    seen.insert(start);
    while let Some((b, d)) = q.pop_front() {
        if goal(&b) {
            return (Some(d), seen.len() as u64);
        }
        let mut letters: Vec<u8> = b
            .iter()
            .copied()
            .filter(|c| c.is_ascii_uppercase())
            .collect();
        letters.sort();
        letters.dedup();
        for l in letters {
            let cells: Vec<usize> = (0..36).filter(|&i| b[i] == l).collect();
            let horizontal = cells[1] == cells[0] + 1;
            let step: i32 = if horizontal { 1 } else { 6 };
            for dir in [-1i32, 1] {
                let mut cur = b.clone();
                let mut pos: Vec<i32> = cells.iter().map(|&c| c as i32).collect();
                loop {
                    let head = if dir > 0 {
                        *pos.last().unwrap() + step
                    } else {
                        pos[0] - step
                    };
                    let same_line = if horizontal {
                        (0..36).contains(&head) && head / 6 == pos[0] / 6
                    } else {
                        (0..36).contains(&head)
                    };
                    if !same_line || cur[head as usize] != b'o' {
                        break;
                    }
                    let tail = if dir > 0 {
                        pos[0]
                    } else {
                        *pos.last().unwrap()
                    };
                    cur[head as usize] = l;
                    cur[tail as usize] = b'o';
                    for p in &mut pos {
                        *p += dir * step;
                    }
                    if seen.insert(cur.clone()) {
                        q.push_back((cur.clone(), d + 1));
                    }
                }
            }
        }
    }
    (None, seen.len() as u64)
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    println!("Engine benchmarks (release build, one thread)\n");

    // Rush Hour.
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/rush/rush_18k.txt");
    let boards: Vec<(String, u32)> = match std::fs::read_to_string(&shared) {
        Ok(text) => text
            .lines()
            .step_by(if quick { 200 } else { 40 })
            .filter_map(|l| {
                let mut p = l.split_whitespace();
                let moves = p.next()?.parse().ok()?;
                Some((p.next()?.to_string(), moves))
            })
            .collect(),
        Err(_) => {
            println!("(../shared is absent: using two known puzzles)");
            vec![
                ("GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo".into(), 51),
                ("IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM".into(), 60),
            ]
        }
    };
    let puzzles: Vec<(Puzzle, u64, u32)> = boards
        .iter()
        .map(|(b, m)| {
            let (p, s) = Puzzle::parse(b).expect("valid");
            (p, s, *m)
        })
        .collect();
    let (fast, fast_states) = time(3, || {
        let mut states = 0;
        for (p, s, m) in &puzzles {
            let (found, st) = bfs(
                *s,
                |x, out| p.successors(*x, out),
                |x| p.is_goal(*x),
                &Budget::default(),
                &mut Progress::quiet(),
            );
            assert!(matches!(found, Found::Path(ref v) if v.len() == *m as usize));
            states += st.states;
        }
        states
    });
    let (count_only, _) = time(3, || {
        for (p, s, m) in &puzzles {
            assert_eq!(solution_length(p, *s), Some(*m));
        }
        0
    });
    let (naive, naive_states) = time(1, || {
        let mut states = 0;
        for ((b, m), _) in boards.iter().zip(&puzzles) {
            let (d, n) = string_bfs(b);
            assert_eq!(d, Some(*m));
            states += n;
        }
        states
    });
    let rate = |states: u64, s: f64| states as f64 / s / 1e6;
    println!(
        "Rush Hour, {} puzzles from the 18k file:\n  packed BFS with plans    {:>8.2} M states/s  ({:.0} ms for all)\n  packed BFS, length only  {:>8.2} M states/s  ({:.0} ms)\n  baseline: string BFS     {:>8.2} M states/s  ({:.0} ms)  -> packed is {:.1}x faster per state",
        puzzles.len(),
        rate(fast_states, fast),
        fast * 1e3,
        rate(fast_states, count_only),
        count_only * 1e3,
        rate(naive_states, naive),
        naive * 1e3,
        rate(fast_states, fast) / rate(naive_states, naive)
    );

    // B.i.t.Lock.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/bitlock/world_1");
    let levels: Vec<(&str, String)> = [
        "level_1.txt",
        "level_2.txt",
        "level_4_small.txt",
        "level_6.txt",
    ]
    .iter()
    .filter_map(|n| std::fs::read_to_string(dir.join(n)).ok().map(|t| (*n, t)))
    .collect();
    let levels = if levels.is_empty() {
        println!("(../shared is absent: using a level of the project's own)");
        vec![(
            "own",
            "##########\n#        #\n#  aa AA #\n#  a  A  #\n#        #\n##########\n".to_string(),
        )]
    } else {
        levels
    };
    println!("\nB.i.t.Lock, win rule exact:");
    for (name, text) in &levels {
        let rules = load(text, name).expect("level");
        let s = Solver::new(&rules, Win::Exact);
        let start: Key<16> = rules.start().expect("fits");
        let (ta, sa) = time(3, || {
            let (f, st) = astar(
                start,
                |k, out| s.successors(k, out),
                |k| s.heuristic(k),
                |k| s.is_goal(k),
                &Budget::default(),
                &mut Progress::quiet(),
            );
            assert!(matches!(f, Found::Path(_)));
            st.states
        });
        let (tb, sb) = time(if quick { 1 } else { 3 }, || {
            let (f, st) = bfs(
                start,
                |k, out| s.successors(k, out),
                |k| s.is_goal(k),
                &Budget::default(),
                &mut Progress::quiet(),
            );
            assert!(matches!(f, Found::Path(_)));
            st.states
        });
        let (tm, moves) = time(3, || {
            let mut k = start;
            let mut n = 0;
            for i in 0..200_000u32 {
                k = rules.play(&k, Dir::ALL[(i % 4) as usize]);
                n += 1;
            }
            black_box(k);
            n
        });
        println!(
            "  {name:<18} A* {:>8} states in {:>8.1} ms ({:.2} M/s) | baseline BFS {:>9} states in {:>8.1} ms ({:.2} M/s) | A* {:.1}x faster | moves {:.1} M/s",
            sa,
            ta * 1e3,
            rate(sa, ta),
            sb,
            tb * 1e3,
            rate(sb, tb),
            tb / ta,
            rate(moves, tm)
        );
    }
}
