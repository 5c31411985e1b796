//! B.i.t.Lock against the peer solver's levels in `../shared/data/bitlock`
//! and their reference optimal lengths, each plan replayed by a second,
//! independent implementation of the rules written here.

mod common;

use boardbot::games::bitlock::load;
use boardbot::games::bitlock::solver::{Win, solve};
use boardbot::solve::{Budget, Progress};
use common::{cli, shared, stdout_json};

/// The rules again, written straight from the issue, on a char grid.
struct Board {
    ground: Vec<Vec<char>>,
    targets: Vec<(usize, usize, u8)>,
    /// (row, col, type, reverse)
    tiles: Vec<(i64, i64, u8, bool)>,
    movers: Vec<(i64, i64)>,
}

impl Board {
    fn parse(text: &str) -> Board {
        let lines: Vec<&str> = text.lines().collect();
        let width = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
        let mut b = Board {
            ground: Vec::new(),
            targets: Vec::new(),
            tiles: Vec::new(),
            movers: Vec::new(),
        };
        for (r, l) in lines.iter().enumerate() {
            let mut row = vec![' '; width];
            for (c, ch) in l.chars().enumerate() {
                match ch {
                    '#' | '+' => row[c] = ch,
                    '*' => b.movers.push((r as i64, c as i64)),
                    'a'..='m' => b.tiles.push((r as i64, c as i64, ch as u8 - b'a', false)),
                    'n'..='z' => b.tiles.push((r as i64, c as i64, b'z' - ch as u8, true)),
                    'A'..='Z' => b.targets.push((r, c, ch as u8 - b'A')),
                    _ => {}
                }
            }
            b.ground.push(row);
        }
        b
    }

    fn at(&self, r: i64, c: i64) -> char {
        if r < 0 || c < 0 {
            return '#';
        }
        self.ground
            .get(r as usize)
            .and_then(|row| row.get(c as usize))
            .copied()
            .unwrap_or('#')
    }

    /// One class steps: `pos` with per-piece direction; returns new positions.
    fn step_class(&self, pos: &[(i64, i64)], dirs: &[(i64, i64)], movers: bool) -> Vec<(i64, i64)> {
        let n = pos.len();
        let want: Vec<(i64, i64)> = (0..n)
            .map(|i| (pos[i].0 + dirs[i].0, pos[i].1 + dirs[i].1))
            .collect();
        let mut blocked: Vec<bool> = (0..n)
            .map(|i| {
                let g = self.at(want[i].0, want[i].1);
                g == '#' || (movers && g == '+')
            })
            .collect();
        // Claims are settled all at once, among the tiles free to move:
        // two wanting one cell, or two wanting each other's cells.
        let free = blocked.clone();
        for i in 0..n {
            for j in 0..n {
                if i != j
                    && !free[i]
                    && !free[j]
                    && (want[i] == want[j] || (want[i] == pos[j] && want[j] == pos[i]))
                {
                    blocked[i] = true;
                }
            }
        }
        // Then a tile held up by one that stays, stays, until nothing changes.
        loop {
            let before = blocked.clone();
            for i in 0..n {
                if !blocked[i] && (0..n).any(|j| j != i && blocked[j] && pos[j] == want[i]) {
                    blocked[i] = true;
                }
            }
            if blocked == before {
                break;
            }
        }
        (0..n)
            .map(|i| if blocked[i] { pos[i] } else { want[i] })
            .collect()
    }

    fn play(&mut self, m: char) {
        let d = match m {
            'L' => (0, -1),
            'R' => (0, 1),
            'U' => (-1, 0),
            'D' => (1, 0),
            _ => panic!("bad move {m}"),
        };
        let pos: Vec<(i64, i64)> = self.tiles.iter().map(|t| (t.0, t.1)).collect();
        let dirs: Vec<(i64, i64)> = self
            .tiles
            .iter()
            .map(|t| if t.3 { (-d.0, -d.1) } else { d })
            .collect();
        let new = self.step_class(&pos, &dirs, false);
        let movers = self.step_class(&self.movers, &vec![d; self.movers.len()], true);
        for (t, p) in self.tiles.iter_mut().zip(new) {
            t.0 = p.0;
            t.1 = p.1;
        }
        self.movers = movers;
        let (ground, movers) = (&self.ground, &self.movers);
        self.tiles
            .retain(|t| ground[t.0 as usize][t.1 as usize] != '+' && !movers.contains(&(t.0, t.1)));
    }

    fn won(&self, exact: bool) -> bool {
        let covered = self.targets.iter().all(|&(r, c, k)| {
            self.tiles
                .iter()
                .any(|t| t.0 == r as i64 && t.1 == c as i64 && t.2 == k)
        });
        covered && (!exact || self.tiles.len() == self.targets.len())
    }
}

fn reference() -> Option<(std::path::PathBuf, serde_json::Value)> {
    let dir = shared("bitlock")?;
    let v =
        serde_json::from_str(&std::fs::read_to_string(dir.join("optimal.json")).unwrap()).unwrap();
    Some((dir, v))
}

fn check(dir: &std::path::Path, name: &str, expect: Option<u64>, win: Win) {
    let text = std::fs::read_to_string(dir.join(name)).unwrap();
    let rules = load(&text, name).unwrap();
    let out = solve(
        &rules,
        win,
        &Budget::default(),
        u64::MAX,
        &mut Progress::quiet(),
    )
    .unwrap();
    match expect {
        None => assert!(out.unsolvable && out.proven, "{name}: {out:?}"),
        Some(n) => {
            let moves = out
                .moves
                .clone()
                .unwrap_or_else(|| panic!("{name}: no solution: {out:?}"));
            assert_eq!(moves.len() as u64, n, "{name}: {moves}");
            assert!(out.proven);
            let mut b = Board::parse(&text);
            for m in moves.chars() {
                b.play(m);
            }
            assert!(
                b.won(win == Win::Exact),
                "{name}: the plan {moves} does not win when replayed"
            );
        }
    }
}

#[test]
fn every_reference_level_gets_its_optimal_length_under_exact() {
    let Some((dir, v)) = reference() else { return };
    let exact = v["exact"].as_object().unwrap();
    assert!(exact.len() >= 15);
    for (name, n) in exact {
        check(&dir, name, n.as_u64(), Win::Exact);
    }
}

#[test]
fn the_levels_the_peer_could_not_solve() {
    let Some((dir, _)) = reference() else { return };
    // 23 moves: found in about 1.5 s and 50 MiB.
    check(&dir, "world_1/level_4.txt", Some(23), Win::Exact);
    if cfg!(debug_assertions) {
        println!(
            "skipped world_1/world_1.txt in a debug build (a minute in release, far longer unoptimised)"
        );
        return;
    }
    // 34 moves: about 34 million layouts, under 1.5 GiB, within the 2G budget.
    check(&dir, "world_1/world_1.txt", Some(34), Win::Exact);
}

#[test]
fn cover_plans_win_and_are_never_longer_than_exact_ones() {
    let Some((dir, v)) = reference() else { return };
    for (name, n) in v["exact"].as_object().unwrap() {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let rules = load(&text, name).unwrap();
        let out = solve(
            &rules,
            Win::Cover,
            &Budget::default(),
            u64::MAX,
            &mut Progress::quiet(),
        )
        .unwrap();
        if let Some(moves) = &out.moves {
            let mut b = Board::parse(&text);
            moves.chars().for_each(|m| b.play(m));
            assert!(b.won(false), "{name}");
            if let Some(n) = n.as_u64() {
                assert!(
                    moves.len() as u64 <= n,
                    "{name}: cover {} > exact {n}",
                    moves.len()
                );
            }
        }
    }
}

#[test]
fn world_2_reverse_tiles_solve_and_pushers_are_refused() {
    let Some(dir) = shared("bitlock") else { return };
    for entry in std::fs::read_dir(dir.join("world_2")).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path.display().to_string();
        let pushers = text.contains(['=', '>', '<', '/']);
        let out = cli(
            "solve --game bitlock --level",
            &[&name, "--win", "exact", "--json"],
        );
        if pushers {
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{name}");
            assert!(
                err.contains("not supported yet")
                    && err.contains("line ")
                    && err.contains("column "),
                "{name}: {err}"
            );
        } else {
            assert_eq!(out.status.code(), Some(0), "{name}");
            let v = stdout_json(&out);
            assert_eq!(v["state"], "playable", "{name}");
            let moves = v["plan"]["moves"].as_str().unwrap();
            let mut b = Board::parse(&text);
            moves.chars().for_each(|m| b.play(m));
            assert!(b.won(true), "{name}: {moves}");
        }
    }
}

#[test]
fn malformed_maps_get_clear_errors() {
    let Some(dir) = shared("bitlock") else { return };
    for (name, needle) in [
        ("test_nodest", "no targets"),
        ("test_nostart", "no tiles"),
        ("test_nostartfordest", "line 4, column 4: target C"),
    ] {
        let path = dir.join(format!("test/{name}.txt"));
        let out = cli("solve --game bitlock --level", &[path.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(needle) && err.contains(name), "{name}: {err}");
    }
    // An open border: cells outside the map are walls, so it still solves.
    for name in ["test_notsurrounded", "test_noobstacles"] {
        let path = dir.join(format!("test/{name}.txt"));
        let out = cli(
            "solve --game bitlock --level",
            &[path.to_str().unwrap(), "--json"],
        );
        assert_eq!(out.status.code(), Some(0), "{name}");
        assert_eq!(stdout_json(&out)["plan"]["length"], 1, "{name}");
    }
}

#[test]
fn the_cli_prints_the_documented_json_and_a_walkthrough() {
    let Some(dir) = shared("bitlock") else { return };
    let path = dir.join("test/mini_test_map.txt");
    let out = cli(
        "solve --game bitlock --level",
        &[path.to_str().unwrap(), "--win", "exact", "--json"],
    );
    assert_eq!(out.status.code(), Some(0));
    let v = stdout_json(&out);
    assert_eq!(v["game"], "bitlock");
    // A plan to play is `playable`; `solved` means there is nothing to do.
    assert_eq!(v["state"], "playable");
    assert_eq!(v["plan"]["length"], 8);
    assert_eq!(v["plan"]["moves"].as_str().unwrap().len(), 8);
    for k in ["states", "ms", "peak_bytes"] {
        assert!(v["stats"][k].is_number(), "stats.{k}");
    }
    let out = cli(
        "solve --game bitlock --level",
        &[path.to_str().unwrap(), "--win", "exact", "--walkthrough"],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Start:") && text.contains("\n8. "), "{text}");
    let imp = dir.join("test/impossible.txt");
    let out = cli(
        "solve --game bitlock --level",
        &[imp.to_str().unwrap(), "--win", "exact", "--json"],
    );
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(stdout_json(&out)["state"], "unsolvable");
}

#[test]
fn a_tiny_memory_budget_falls_back_to_ida_and_stays_optimal() {
    let Some(dir) = shared("bitlock") else { return };
    let path = dir.join("world_1/level_6.txt");
    let level = path.to_str().unwrap();
    let solve = |extra: &str| {
        let words = format!("--win exact --max-memory 700K --json {extra}");
        let mut args = vec![level];
        args.extend(words.split_whitespace());
        cli("solve --game bitlock --level", &args)
    };
    let out = solve("");
    assert_eq!(out.status.code(), Some(0));
    let v = stdout_json(&out);
    assert_eq!(v["plan"]["length"], 28);
    assert_eq!(v["plan"]["optimal"], true);
    assert_eq!(v["stats"]["fell_back_to_ida"], true);
    // With too few visits allowed, it says it gave up, and how far it proved.
    let out = solve("--max-nodes 1000");
    assert_eq!(out.status.code(), Some(3));
    let v = stdout_json(&out);
    assert_eq!(v["state"], "gave_up");
    assert!(v["stats"]["lower_bound"].as_u64().unwrap() >= 20);
}

#[test]
fn maps_and_traces_come_from_the_core() {
    let Some(dir) = shared("bitlock") else { return };
    let small = dir.join("world_1/level_1_small.txt");
    let small = small.to_str().unwrap();
    let out = cli("map --game bitlock --level", &[small, "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let v = stdout_json(&out);
    assert_eq!(v["states"], 208_928);
    assert_eq!(v["distance"], 12);
    assert_eq!(v["goal_states"], 1);
    let hist = v["histogram"].as_array().unwrap();
    assert_eq!(
        hist.iter().map(|h| h.as_u64().unwrap()).sum::<u64>() as usize
            + v["dead_states"].as_u64().unwrap() as usize,
        208_928
    );
    // The optimal plan, traced, is optimal at every move.
    let plan = stdout_json(&cli("solve --game bitlock --level", &[small, "--json"]));
    let moves = plan["plan"]["moves"].as_str().unwrap();
    let out = cli(
        "trace --game bitlock --level",
        &[small, "--moves", moves, "--json"],
    );
    let v = stdout_json(&out);
    assert_eq!(v["optimal"], moves.len(), "{v}");
    assert_eq!(v["solved"], true);
    // A full-size level is too big for a small budget: the map says what it
    // found by then, the nearest goal included, as JSON.
    let big = dir.join("world_1/level_1.txt");
    let out = cli(
        "map --game bitlock --level",
        &[big.to_str().unwrap(), "--json", "--max-memory", "1G"],
    );
    assert_eq!(out.status.code(), Some(3));
    let v = stdout_json(&out);
    assert_eq!(v["state"], "gave_up");
    assert_eq!(v["distance"], 19);
    assert!(v["states"].as_u64().unwrap() > 1_000_000);
}
