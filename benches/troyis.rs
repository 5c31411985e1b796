//! `cargo bench --bench troyis`: medians for Troyis vision and the solver,
//! each with a baseline measured in the same process, so the ratio holds
//! from one machine to another.
//!
//! - vision on a 9×9 capture, against one grayscale pass over the same image;
//! - the solver on the shared boards, on random 8×8 and 10×10 boards and on
//!   full boards, against plain backtracking (Warnsdorff order, no pruning,
//!   no memo), the approach of the original bots.

mod common;

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use boardbot::game::OnScreen;
use boardbot::games::troyis::board::{Board, Square};
use boardbot::games::troyis::render::{Style, render};
use boardbot::games::troyis::solver::{Limits, solve_with_stats};
use boardbot::games::troyis::{Troyis, levels, read};
use boardbot::geom::Cell;
use common::{median, ms, runs};

fn row(name: &str, t: &[Duration], baseline: Option<(&str, Duration)>) {
    let m = median(t);
    let p90 = t[(t.len() * 9 / 10).min(t.len() - 1)];
    let ratio = baseline.map_or(String::new(), |(b, d)| {
        format!("  = {:.2}× {b}", m.as_secs_f64() / d.as_secs_f64())
    });
    println!(
        "{name:<44} median {:>9.3} ms  p90 {:>9.3} ms  n={:<5}{ratio}",
        ms(m),
        ms(p90),
        t.len()
    );
}

/// Plain backtracking for a Hamiltonian path, Warnsdorff order, no pruning;
/// gives up after `limit` nodes.
fn backtrack(board: &Board, limit: u64) -> Option<Vec<Cell>> {
    fn go(
        b: &Board,
        pos: Cell,
        left: &mut Vec<Cell>,
        path: &mut Vec<Cell>,
        nodes: &mut u64,
        limit: u64,
    ) -> bool {
        if left.is_empty() {
            return true;
        }
        *nodes += 1;
        if *nodes > limit {
            return false;
        }
        let mut next: Vec<(usize, Cell)> = b
            .knight_moves(pos)
            .filter(|c| left.contains(c))
            .map(|c| (b.knight_moves(c).filter(|d| left.contains(d)).count(), c))
            .collect();
        next.sort();
        for (_, c) in next {
            let i = left.iter().position(|&x| x == c).expect("in left");
            left.swap_remove(i);
            path.push(c);
            if go(b, c, left, path, nodes, limit) {
                return true;
            }
            path.pop();
            left.push(c);
        }
        false
    }
    let mut left: Vec<Cell> = board.targets().collect();
    let mut path = Vec::new();
    let mut nodes = 0;
    go(
        board,
        board.knight(),
        &mut left,
        &mut path,
        &mut nodes,
        limit,
    )
    .then_some(path)
}

struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

/// A random board whose targets are all reachable (the others turned dark),
/// as a level generator would make it.
fn random_board(rng: &mut Lcg, n: usize, density: u64) -> Board {
    loop {
        let mut rows: Vec<Vec<Square>> = (0..n)
            .map(|_| {
                (0..n)
                    .map(|_| {
                        if rng.next() % 100 < density {
                            Square::Target
                        } else {
                            Square::Dark
                        }
                    })
                    .collect()
            })
            .collect();
        let (kr, kc) = ((rng.next() as usize) % n, (rng.next() as usize) % n);
        rows[kr][kc] = Square::Knight;
        let board = Board::from_squares(rows.clone()).expect("valid");
        let mut seen = vec![board.knight()];
        let mut i = 0;
        while i < seen.len() {
            for c in board.knight_moves(seen[i]) {
                if !seen.contains(&c) {
                    seen.push(c);
                }
            }
            i += 1;
        }
        for (r, row) in rows.iter_mut().enumerate() {
            for (c, sq) in row.iter_mut().enumerate() {
                if *sq == Square::Target && !seen.contains(&(r, c)) {
                    *sq = Square::Dark;
                }
            }
        }
        let board = Board::from_squares(rows).expect("valid");
        if board.targets().count() >= n * n / 3 {
            return board;
        }
    }
}

fn full_board(n: usize) -> Board {
    let mut rows = vec![vec![Square::Target; n]; n];
    rows[0][0] = Square::Knight;
    Board::from_squares(rows).expect("valid")
}

/// The playable boards of the shared set, or the project's own if absent.
fn shared_boards() -> Vec<(String, Board)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/troyis");
    if let Ok(text) = std::fs::read_to_string(dir.join("truth.json")) {
        let truth: serde_json::Value = serde_json::from_str(&text).expect("truth.json");
        let mut out = Vec::new();
        for (name, v) in truth.as_object().expect("object") {
            if let Some(cells) = v.get("cells").and_then(|c| c.as_array()) {
                let rows: Vec<&str> = cells.iter().filter_map(|c| c.as_str()).collect();
                out.push((
                    name.clone(),
                    Board::parse(&rows.join("/")).expect("truth board"),
                ));
            }
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        return out;
    }
    println!("(../shared is absent: using the project's own boards)");
    vec![(
        "k7".into(),
        Board::parse("WW.VW.W/.WWW..W/W.V.WWW/.W.KW.W/WWW..W./W..WW.W/.WW.W..").expect("board"),
    )]
}

fn main() {
    let budget = Duration::from_millis(if std::env::args().any(|a| a == "--quick") {
        200
    } else {
        1500
    });
    println!("Troyis benchmarks (release build, one thread)\n");

    // Vision on a 9×9 capture.
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/troyis/13.png");
    let (label, img) = match image::open(&shared) {
        Ok(i) => ("shared 13.png, 9×9, 412×410", i.to_rgb8()),
        Err(_) => {
            let b = Board::parse("K..W.W.WW/W..W...../.WWW..W../W.WWWWWWW/WWW.WW..W/W....WW../..W..W.W./..WWWWWW./.......W.")
                .expect("board");
            (
                "rendered 9×9, pitch 45",
                render(
                    &b,
                    &Style {
                        clouds: 4,
                        ..Style::new(45.0)
                    },
                ),
            )
        }
    };
    let cal = Troyis.load_calibration(None).expect("built-in calibration");
    let gray = runs(budget, || {
        black_box(image::imageops::grayscale(black_box(&img)));
    });
    row("baseline: grayscale pass over the capture", &gray, None);
    let vision = runs(budget, || {
        black_box(read::read(black_box(&img), &cal));
    });
    row(
        &format!("vision: {label}"),
        &vision,
        Some(("grayscale", median(&gray))),
    );
    for (s, name) in [(0.6, "0.6×"), (2.0, "2×")] {
        let scaled = image::imageops::resize(
            &img,
            (f64::from(img.width()) * s) as u32,
            (f64::from(img.height()) * s) as u32,
            image::imageops::FilterType::Triangle,
        );
        let g = runs(budget, || {
            black_box(image::imageops::grayscale(black_box(&scaled)));
        });
        let v = runs(budget, || {
            black_box(read::read(black_box(&scaled), &cal));
        });
        row(
            &format!("vision: the same at {name}"),
            &v,
            Some(("its grayscale", median(&g))),
        );
    }
    println!();

    let limits = Limits::default();
    for (name, board) in shared_boards() {
        let base = runs(budget, || {
            black_box(backtrack(black_box(&board), 50_000_000));
        });
        let t = runs(budget, || {
            black_box(solve_with_stats(black_box(&board), &limits).ok());
        });
        let (plan, _) = solve_with_stats(&board, &limits).expect("solvable");
        row(
            &format!("solve shared {name} ({} moves)", plan.moves),
            &t,
            Some(("backtracking", median(&base))),
        );
    }
    println!();

    for &(n, len) in &[(8usize, 36usize), (10, 50), (12, 70)] {
        let boards: Vec<Board> = (0..50u64)
            .map(|i| levels::generate(n, len, 1000 * n as u64 + i))
            .collect();
        let mut times = Vec::new();
        let mut base = Vec::new();
        let mut ham = 0;
        for b in &boards {
            times.extend(runs(budget / 50, || {
                black_box(solve_with_stats(black_box(b), &limits).ok());
            }));
            base.extend(runs(budget / 50, || {
                black_box(backtrack(black_box(b), 2_000_000));
            }));
            ham += usize::from(solve_with_stats(b, &limits).is_ok_and(|(p, _)| p.hamiltonian));
        }
        times.sort();
        base.sort();
        row(
            &format!("solve 50 random {n}×{n} levels, {len} targets"),
            &times,
            Some(("backtracking", median(&base))),
        );
        println!(
            "    (levels from the practice generator: a random knight walk from the corner, so each has a Hamiltonian path; found on {ham} of 50)"
        );
    }
    println!();

    for &(n, count) in &[(8usize, 20usize), (10, 20)] {
        let mut rng = Lcg(n as u64);
        let boards: Vec<Board> = (0..count).map(|_| random_board(&mut rng, n, 60)).collect();
        let mut times = Vec::new();
        let mut base_times = Vec::new();
        let (mut ham, mut proven, mut unreachable, mut base_gave_up) = (0, 0, 0, 0);
        let mut nodes = Vec::new();
        for b in &boards {
            let t = Instant::now();
            let r = solve_with_stats(b, &limits);
            times.push(t.elapsed());
            match r {
                Ok((p, st)) => {
                    nodes.push(st.nodes);
                    ham += usize::from(p.hamiltonian);
                    proven += usize::from(p.optimal);
                }
                Err(_) => unreachable += 1,
            }
            let t = Instant::now();
            let found = backtrack(b, 2_000_000);
            base_times.push(t.elapsed());
            base_gave_up += usize::from(found.is_none());
        }
        times.sort();
        base_times.sort();
        nodes.sort();
        row(
            &format!("solve {count} random {n}×{n} boards (60% targets)"),
            &times,
            Some(("backtracking", median(&base_times))),
        );
        println!(
            "    {ham} Hamiltonian, {proven} proven optimal, {unreachable} unsolvable; median {} search nodes; backtracking found no path on {base_gave_up} (2M-node cap)",
            nodes.get(nodes.len() / 2).copied().unwrap_or(0)
        );
    }
    println!();

    for n in [8, 10, 12, 16] {
        let b = full_board(n);
        let base = runs(budget, || {
            black_box(backtrack(black_box(&b), 50_000_000));
        });
        let t = runs(budget, || {
            black_box(solve_with_stats(black_box(&b), &limits).ok());
        });
        row(
            &format!("solve full {n}×{n} board"),
            &t,
            Some(("backtracking", median(&base))),
        );
    }
}
