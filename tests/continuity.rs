//! Continuity: the bundled levels at their pinned optimal costs, every
//! plan replayed by a second implementation of the rules
//! (`continuity_peer`), the exits graph and key orders checked against
//! two small levels worked out by hand (`tests/fixtures/continuity`), and
//! the planner against the plain full-state search on many random small
//! levels.

mod common;
mod continuity_peer;

use boardbot::games::continuity::exits::{Exits, Node};
use boardbot::games::continuity::level::Level;
use boardbot::games::continuity::plan::{self, Plan};
use boardbot::games::continuity::rules::World;
use boardbot::games::continuity::{full, levels};
use boardbot::rng::Rng;
use boardbot::solve::{Budget, Found, Progress, Solution};
use common::{boardbot, fixtures, stdout_json};

fn bundled(name: &str) -> String {
    format!(
        "{}/src/games/continuity/levels/{name}.txt",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn solve_json(path: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["solve", "--game", "continuity", "--level", path, "--json"];
    args.extend_from_slice(extra);
    let out = boardbot(&args);
    assert_eq!(out.status.code(), Some(0), "{path}: {out:?}");
    stdout_json(&out)
}

/// Replays `plan` with the peer and checks that it wins on its last
/// action at the plan's stated cost.
fn peer_checks(name: &str, text: &str, plan: &serde_json::Value, slide_cost: u64) {
    let g = continuity_peer::replay(text, plan).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(
        g.won,
        "{name}: the peer does not reach the door with every key"
    );
    assert_eq!(Some(g.cost(slide_cost)), plan["cost"].as_u64(), "{name}");
    assert_eq!(Some(g.steps), plan["steps"].as_u64(), "{name}");
    assert_eq!(Some(g.slides), plan["slides"].as_u64(), "{name}");
}

#[test]
fn bundled_levels_solve_at_their_pinned_costs_and_the_peer_agrees() {
    // Level, cost, steps, slides: found by the planner, every one
    // cross-checked by the full search in `bundled_levels_match_the_full_search`.
    let pinned = "\
        01-walk 22 22 0
        02-order 24 24 0
        03-bridge 28 21 1
        04-swap 28 16 2
        05-lift 33 26 1
        06-shuffle 38 16 4
        07-twice 46 17 5
        08-two-keys 46 19 5
        09-detour 52 13 7
        10-three-keys 56 24 6
        11-juggle 64 23 7
        12-climb 69 35 6
        13-long-way 71 44 5";
    let pinned: Vec<Vec<&str>> = pinned
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(pinned.len(), levels::LEVELS.len());
    for (row, (bundled_name, text)) in pinned.iter().zip(levels::LEVELS) {
        let name = row[0];
        let [cost, steps, slides] = [1, 2, 3].map(|i| row[i].parse::<u64>().unwrap());
        assert_eq!(name, *bundled_name);
        let doc = solve_json(&bundled(name), &[]);
        let plan = &doc["plan"];
        assert_eq!(plan["cost"], cost, "{name}");
        assert_eq!(plan["steps"], steps, "{name}");
        assert_eq!(plan["slides"], slides, "{name}");
        assert_eq!(plan["optimal"], true, "{name}");
        peer_checks(name, text, plan, 5);
    }
}

/// The segments' kinds in one word: s steps, t toggle, x slide.
fn shape(plan: &serde_json::Value) -> String {
    plan["segments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| match s["kind"].as_str() {
            Some("steps") => 's',
            Some("toggle") => 't',
            _ => 'x',
        })
        .collect()
}

#[test]
fn the_levels_the_issue_asks_for_are_bundled() {
    // No tile move needed.
    let walk = solve_json(&bundled("01-walk"), &[]);
    assert_eq!(walk["plan"]["slides"], 0);
    // Tiles moved twice in mid-route: steps, tile view, steps, tile view, steps.
    for name in ["07-twice", "09-detour"] {
        let doc = solve_json(&bundled(name), &[]);
        let s = shape(&doc["plan"]);
        let episodes: Vec<&str> = s.split('s').filter(|p| !p.is_empty()).collect();
        assert!(s.starts_with('s') && s.ends_with('s'), "{name}: {s}");
        assert!(episodes.len() >= 2, "{name}: {s}");
        assert!(
            episodes
                .iter()
                .all(|e| e.starts_with("tx") && e.ends_with('t'))
        );
    }
    // The best key order is not the nearest key first (02-order's comment
    // works the figures out by hand).
    let ex = solve_json(&bundled("02-order"), &["--exits"]);
    let ex = &ex["exits"];
    assert_eq!(ex["best"]["keys"], serde_json::json!([1, 0]));
    assert_eq!(ex["best"]["steps"], 24);
    assert_eq!(ex["nearest_first"]["keys"], serde_json::json!([0, 1]));
    assert_eq!(ex["nearest_first"]["steps"], 32);
    assert_eq!(ex["worst"]["steps"], 32);
    let plan = solve_json(&bundled("02-order"), &[]);
    let collects: Vec<u64> = plan["plan"]["segments"][0]["collects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["key"].as_u64().unwrap())
        .collect();
    assert_eq!(collects, vec![1, 0], "the plan takes the best order");
}

fn world_of(text: &str) -> World {
    World::new(Level::parse(text).unwrap())
}

fn reach(ex: &Exits, scene: usize, from: Node) -> Vec<(Node, u32)> {
    ex.scenes[scene]
        .reach
        .iter()
        .find(|r| r.from == from)
        .unwrap_or_else(|| panic!("no {from:?}"))
        .to
        .clone()
}

#[test]
fn exits_graph_of_h1_is_as_worked_out_by_hand() {
    let text = std::fs::read_to_string(fixtures("continuity").join("h1-one-key.txt")).unwrap();
    let ex = Exits::new(&world_of(&text));
    let (a, b, c) = (&ex.scenes[0], &ex.scenes[1], &ex.scenes[2]);
    assert_eq!(
        (a.left.len(), a.right.clone(), a.top.len(), a.bottom.len()),
        (0, vec![1, 2], 0, 0)
    );
    assert_eq!((b.left.clone(), b.right.len()), (vec![1, 2], 0));
    assert!(c.left.is_empty() && c.right.is_empty() && c.top.is_empty() && c.bottom.is_empty());
    use Node::*;
    let expected = [
        (0, Start, vec![(Right(1), 4), (Right(2), 3), (Key(0), 1)]),
        (0, Right(1), vec![(Right(1), 1), (Right(2), 2), (Key(0), 1)]),
        (0, Right(2), vec![(Right(1), 2), (Right(2), 1), (Key(0), 1)]),
        (0, Key(0), vec![(Right(1), 3), (Right(2), 2), (Key(0), 2)]),
        (1, Left(1), vec![(Left(1), 1), (Left(2), 2), (Door, 1)]),
        (1, Left(2), vec![(Left(1), 2), (Left(2), 1), (Door, 1)]),
    ];
    for (scene, from, want) in expected {
        assert_eq!(reach(&ex, scene, from), want, "scene {scene} from {from:?}");
    }
    assert!(c.reach.is_empty());
    assert_eq!(ex.orders.len(), 1);
    for o in [&ex.best, &ex.worst, &ex.nearest_first] {
        assert_eq!(o.as_ref().unwrap().steps, Some(4));
    }
    let doc = solve_json(
        &fixtures("continuity")
            .join("h1-one-key.txt")
            .to_string_lossy(),
        &[],
    );
    assert_eq!(
        (doc["plan"]["cost"].as_u64(), doc["plan"]["slides"].as_u64()),
        (Some(4), Some(0))
    );
}

#[test]
fn exits_graph_and_key_orders_of_h2_are_as_worked_out_by_hand() {
    let path = fixtures("continuity").join("h2-two-keys.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let ex = Exits::new(&world_of(&text));
    assert_eq!(ex.scenes[0].right, vec![1, 2]);
    assert_eq!(
        (ex.scenes[1].left.clone(), ex.scenes[1].right.clone()),
        (vec![1, 2], vec![2])
    );
    use Node::*;
    let a_key = vec![(Right(1), 1), (Right(2), 2), (Key(0), 2)];
    let b_left2 = vec![
        (Left(1), 2),
        (Left(2), 1),
        (Right(2), 4),
        (Key(1), 2),
        (Door, 3),
    ];
    let expected = [
        (0, Start, vec![(Right(1), 4), (Right(2), 3), (Key(0), 3)]),
        (0, Key(0), a_key.clone()),
        (0, Right(1), a_key),
        (0, Right(2), vec![(Right(1), 2), (Right(2), 1), (Key(0), 1)]),
        (
            1,
            Left(1),
            vec![
                (Left(1), 1),
                (Left(2), 2),
                (Right(2), 4),
                (Key(1), 1),
                (Door, 3),
            ],
        ),
        (1, Left(2), b_left2.clone()),
        (1, Key(1), b_left2),
        (
            1,
            Right(2),
            vec![
                (Left(1), 5),
                (Left(2), 4),
                (Right(2), 1),
                (Key(1), 3),
                (Door, 2),
            ],
        ),
    ];
    for (scene, from, want) in expected {
        assert_eq!(reach(&ex, scene, from), want, "scene {scene} from {from:?}");
    }
    let orders: Vec<(Vec<usize>, Option<u32>)> = ex
        .orders
        .iter()
        .map(|o| (o.keys.clone(), o.steps))
        .collect();
    assert_eq!(orders, vec![(vec![0, 1], Some(7)), (vec![1, 0], Some(9))]);
    assert_eq!(ex.best.as_ref().unwrap().keys, vec![0, 1]);
    assert_eq!(ex.worst.as_ref().unwrap().steps, Some(9));
    assert_eq!(ex.nearest_first.as_ref().unwrap().steps, Some(7));
    let doc = solve_json(&path.to_string_lossy(), &[]);
    assert_eq!(doc["plan"]["cost"], 7);
    peer_checks("h2", &text, &doc["plan"], 5);
    let text_out = boardbot(&[
        "solve",
        "--game",
        "continuity",
        "--level",
        &path.to_string_lossy(),
        "--exits",
    ]);
    let shown = String::from_utf8_lossy(&text_out.stdout);
    assert!(
        shown.contains("Order best: 0 1 then the door: 7 steps"),
        "{shown}"
    );
}

/// A random small level: a 2×2, 2×3 or 3×2 frame of S×S scenes (S 3 or
/// 4), cells solid about a third of the time, one or two keys, a door.
fn random_level(rng: &mut Rng) -> String {
    let (rows, cols, s) = [(2, 2, 4), (2, 2, 3), (2, 3, 3), (3, 2, 3)][rng.below(4)];
    let n = rows * cols;
    let names: Vec<char> = "ABCDEFGH".chars().take(n - 1).collect();
    let mut slots: Vec<char> = names.clone();
    slots.push('.');
    let mut frame = String::new();
    for _ in 0..rows {
        for _ in 0..cols {
            frame.push(slots.remove(rng.below(slots.len())));
        }
        frame.push('\n');
    }
    let mut cells: Vec<Vec<char>> = (0..n - 1)
        .map(|_| {
            (0..s * s)
                .map(|_| if rng.below(3) == 0 { '#' } else { '.' })
                .collect()
        })
        .collect();
    let keys = 1 + rng.below(2);
    let mut things = vec!['@', 'D'];
    things.extend(std::iter::repeat_n('k', keys));
    for t in things {
        loop {
            let (sc, i) = (rng.below(n - 1), rng.below(s * s));
            if cells[sc][i] == '.' || cells[sc][i] == '#' {
                cells[sc][i] = t;
                break;
            }
        }
    }
    let jump = 1 + rng.below(2);
    let mut text = format!("jump {jump}\n{frame}");
    for (name, c) in names.iter().zip(&cells) {
        text.push_str(&format!("{name}:\n"));
        for row in c.chunks(s) {
            text.extend(row);
            text.push('\n');
        }
    }
    text
}

fn cost_of(sol: &Solution<boardbot::games::continuity::rules::Action>) -> Option<u64> {
    match sol.found {
        Found::Path(_) => sol.cost,
        Found::Exhausted => None,
        Found::OverBudget { .. } => panic!("over budget"),
    }
}

#[test]
fn the_planner_matches_the_full_search_on_random_small_levels() {
    let mut rng = Rng::new(10);
    let budget = Budget::default();
    let (mut solved, mut with_slides) = (0, 0);
    for i in 0..300 {
        let text = random_level(&mut rng);
        let world = world_of(&text);
        let start = world.start();
        let slide_cost = [1, 2, 5][i % 3];
        let fast = plan::search(&world, start, slide_cost, &budget, &mut Progress::quiet());
        let slow = full::search(
            &world,
            start,
            slide_cost,
            |_| 0,
            &budget,
            &mut Progress::quiet(),
        );
        assert_eq!(cost_of(&fast), cost_of(&slow), "level {i}:\n{text}");
        if let Found::Path(actions) = &fast.found {
            let p = Plan::new(&world, &start, actions, slide_cost);
            let doc = serde_json::to_value(&p).unwrap();
            peer_checks(&format!("random {i}"), &text, &doc, u64::from(slide_cost));
            solved += 1;
            with_slides += usize::from(p.slides > 0);
        }
    }
    // The sample must exercise both kinds of plans.
    assert!(
        solved > 100 && with_slides > 30,
        "{solved} solved, {with_slides} with slides"
    );
}

#[test]
fn the_bound_is_consistent_on_random_small_levels() {
    // On every move of every reachable state: h(s) <= cost + h(s'), and 0
    // at a win. (Consistency is what keeps A* optimal.)
    let mut rng = Rng::new(11);
    let mut edges = 0u64;
    for i in 0..120 {
        let text = random_level(&mut rng);
        let world = world_of(&text);
        let slide_cost = [1, 3, 5][i % 3];
        let mut bound = plan::Bound::new(&world, slide_cost, 256 << 20);
        let mut seen = std::collections::HashSet::from([world.start()]);
        let mut todo = vec![world.start()];
        let mut next = Vec::new();
        while let Some(s) = todo.pop() {
            let h = bound.of(&world, &s);
            if s.won {
                assert_eq!(h, 0);
            }
            next.clear();
            world.successors(&s, &mut next);
            for &(a, n) in &next {
                let hn = bound.of(&world, &n);
                let c = World::cost(a, slide_cost);
                assert!(
                    h == u32::MAX || hn != u32::MAX && h <= c + hn,
                    "level {i}: h {h} > {c} + {hn} on {a}: {s:?} -> {n:?}\n{text}"
                );
                edges += 1;
                if seen.len() < 60_000 && seen.insert(n) {
                    todo.push(n);
                }
            }
        }
    }
    assert!(edges > 100_000, "{edges} moves checked");
}

#[test]
fn bundled_levels_match_the_full_search() {
    let budget = Budget::default();
    for (name, text) in levels::LEVELS {
        let world = world_of(text);
        let fast = plan::search(&world, world.start(), 5, &budget, &mut Progress::quiet());
        let slow = full::search(
            &world,
            world.start(),
            5,
            |_| 0,
            &budget,
            &mut Progress::quiet(),
        );
        assert_eq!(cost_of(&fast), cost_of(&slow), "{name}");
    }
}

#[test]
fn the_slide_cost_changes_the_plan() {
    let cheap = solve_json(&bundled("03-bridge"), &["--slide-cost", "1"]);
    assert_eq!(cheap["plan"]["cost"], 24);
    assert_eq!(cheap["plan"]["slide_cost"], 1);
    let dear = solve_json(&bundled("03-bridge"), &["--slide-cost", "40"]);
    assert_eq!(dear["plan"]["cost"], 63);
}

#[test]
fn bad_levels_are_refused_with_the_file_and_line() {
    let dir = std::env::temp_dir().join(format!("continuity-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.txt");
    let text = levels::LEVELS[0].1.replace("#@......", "#@..x...");
    std::fs::write(&path, text).unwrap();
    let p = path.to_string_lossy();
    let out = boardbot(&["solve", "--game", "continuity", "--level", &p]);
    assert_ne!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.txt") && err.contains("line 34") && err.contains("'x'"),
        "{err}"
    );
    // A door walled in: no plan, said so, exit code 3.
    let shut = fixtures("continuity").join("h1-one-key.txt");
    let text = std::fs::read_to_string(shut)
        .unwrap()
        .replace("...#\n.D.#", "####\n#D##");
    std::fs::write(&path, text).unwrap();
    let out = boardbot(&["solve", "--game", "continuity", "--level", &p, "--json"]);
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(stdout_json(&out)["state"], "unsolvable");
    let out = boardbot(&["solve", "--game", "rush", "--board", "x", "--exits"]);
    assert_ne!(out.status.code(), Some(0));
}

#[test]
fn a_door_without_every_key_is_air_in_the_exits_graph() {
    let text = std::fs::read_to_string(fixtures("continuity").join("door-midway.txt")).unwrap();
    let moved = text.replace("@D..", "@...").replace("k...", "kD..");
    let (with, without) = (Exits::new(&world_of(&text)), Exits::new(&world_of(&moved)));
    for (a, b) in with.scenes[0].reach.iter().zip(&without.scenes[0].reach) {
        let not_door = |r: &Vec<(Node, u32)>| -> Vec<(Node, u32)> {
            r.iter()
                .filter(|(n, _)| *n != Node::Door)
                .cloned()
                .collect()
        };
        assert_eq!(a.from, b.from);
        assert_eq!(not_door(&a.to), not_door(&b.to), "from {:?}", a.from);
    }
}
