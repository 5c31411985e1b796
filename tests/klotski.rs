//! GNOME Klotski through the command line: the pinned optimal counts of the
//! bundled levels under both metrics, the classic Huarong Dao goal, the
//! JSON plan's shape, bundled levels by name, and refusals.
//! The optima come from the dedicated search, cross-checked by the generic
//! core where it finishes (unit tests in `engines::blocks::check`).

mod common;

use common::{boardbot, fixtures, stdout_json};

/// (GSettings index, piece moves, cells moved) for levels solved in under
/// a second (release); the rest are in the README's table.
const PINNED: &[(usize, u64, u64)] = &[
    (0, 18, 32),
    (1, 28, 51),
    (2, 27, 50),
    (3, 40, 61),
    (4, 28, 51),
    (5, 46, 69),
    (6, 81, 121),
    (7, 102, 143),
    (8, 120, 163),
    (9, 30, 48),
    (10, 25, 42),
    (11, 14, 34),
    (12, 24, 45),
    (13, 29, 48),
    (15, 31, 45),
    (18, 59, 89),
    (23, 23, 47),
    (24, 42, 57),
    (26, 132, 185),
];

fn solve(position: &[&str], metric: &str) -> serde_json::Value {
    let mut args = vec!["solve", "--game", "klotski", "--json", "--metric", metric];
    args.extend_from_slice(position);
    let out = boardbot(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout_json(&out)
}

#[test]
fn bundled_levels_have_their_pinned_optima() {
    for &(i, pieces, steps) in PINNED {
        let level = format!("gnome:{i}");
        let p = solve(&["--board", &level], "pieces");
        assert_eq!(p["plan"]["length"], pieces, "level {i} pieces");
        assert_eq!(p["plan"]["pieces"], pieces, "level {i}");
        assert_eq!(p["plan"]["optimal"], true);
        let s = solve(&["--board", &level], "steps");
        assert_eq!(s["plan"]["length"], steps, "level {i} steps");
        assert_eq!(s["plan"]["steps"], steps, "level {i}");
    }
}

#[test]
fn the_classic_goal_is_116_steps_and_81_moves() {
    let file = fixtures("klotski").join("classic.txt");
    let file = file.to_str().unwrap();
    let p = solve(&["--level", file], "pieces");
    assert_eq!(p["plan"]["length"], 81);
    // The fewest cells among 81-move plans (checked by Dijkstra in the unit tests).
    assert_eq!(p["plan"]["steps"], 118);
    let s = solve(&["--level", file], "steps");
    assert_eq!(s["plan"]["length"], 116);
}

#[test]
fn the_json_plan_has_metric_counts_and_detail() {
    let v = solve(&["--board", "gnome:Only 18 Steps"], "pieces");
    let plan = &v["plan"];
    assert_eq!(plan["metric"], "pieces");
    assert_eq!(plan["length"], 18);
    assert_eq!(plan["steps"], 38);
    let moves = plan["moves"].as_array().unwrap();
    let detail = plan["detail"].as_array().unwrap();
    assert_eq!(moves.len(), 18);
    assert_eq!(detail.len(), 18);
    // The first move is written `h:DR` and grabs h where it starts.
    let first = moves[0].as_str().unwrap();
    let (label, path) = first.split_once(':').unwrap();
    assert_eq!(detail[0]["label"], label);
    assert_eq!(detail[0]["path"].as_array().unwrap().len(), path.len());
    let last = detail.last().unwrap();
    assert_eq!(last["label"], "*");
    // Default metric: pieces.
    let out = boardbot(&["solve", "--game", "klotski", "--json", "--board", "gnome:0"]);
    assert_eq!(stdout_json(&out)["plan"]["metric"], "pieces");
}

#[test]
fn boards_on_one_line_and_refusals() {
    let out = boardbot(&[
        "solve",
        "--game",
        "klotski",
        "--json",
        "--board",
        "#####/#*a.#/#####",
    ]);
    assert!(!out.status.success());
    assert_eq!(stdout_json(&out)["state"], "unsolvable");
    let v = solve(&["--board", "######/#* a.#/##  ##"], "pieces");
    assert_eq!(v["plan"]["length"], 2);
    let crowded = crowded_19x19();
    for (board, says) in [
        ("####/#ab#/#..#", "no special piece"),
        ("####/#*a#/#  #", "no goal"),
        ("#####/#*a*.#", "two separate groups"),
        ("gnome:99", "no bundled level"),
        (&crowded, "bits per state"),
    ] {
        let out = boardbot(&["solve", "--game", "klotski", "--board", board]);
        assert!(!out.status.success(), "{board}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{board}: {err}");
    }
}

#[test]
fn a_beam_plan_as_long_as_the_proven_bound_is_proven_shortest() {
    // Only 18 Steps: 1,070 positions. Stopped at 1,050 the optimal search
    // has proven 18 (the goal's layer is not complete); at 1,000, only 17.
    for (nodes, bound, optimal) in [("1050", 18, true), ("1000", 17, false)] {
        let out = solve(
            &["--board", "gnome:0", "--no-book", "--max-nodes", nodes],
            "pieces",
        );
        assert_eq!(out["plan"]["length"], 18, "{out}");
        assert_eq!(out["stats"]["lower_bound"], bound, "{out}");
        assert_eq!(out["plan"]["optimal"], optimal, "{out}");
        let said = out["stats"]["plan"].as_str().unwrap_or_default();
        assert_eq!(
            said.contains("proven shortest") && !said.contains("not"),
            optimal,
            "{said}"
        );
    }
}

#[test]
fn a_proof_with_its_old_layers_in_files_is_the_same_plan_in_less_memory_and_both_keep_to_the_budget()
 {
    // Solomon under steps: 6 M positions, over half of 90M within a few
    // layers, so the older layers go to files.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let spill = dir.path().to_str().expect("a UTF-8 path");
    let base = ["--board", "gnome:14", "--no-book", "--max-memory", "90M"];
    let held = solve(&base, "steps");
    let spilled = solve(&[&base[..], &["--spill-dir", spill]].concat(), "steps");
    assert_eq!(spilled["plan"], held["plan"]);
    assert_eq!(spilled["plan"]["length"], 51);
    assert_eq!(spilled["plan"]["optimal"], true);
    assert_eq!(spilled["stats"]["states"], held["stats"]["states"]);
    let (a, b) = (
        &spilled["stats"]["table_bytes"],
        &held["stats"]["table_bytes"],
    );
    assert!(a.as_u64() < b.as_u64(), "spilled {a}, held {b}");
    // The whole process stays within the budget, allocator included: the
    // freed runs of the layers once stayed resident (105 MiB here). The
    // peak is the resident size where Linux reports it (glibc's allocator
    // is the one set up).
    let measured = cfg!(all(target_os = "linux", target_env = "gnu"));
    for v in [&held, &spilled].into_iter().filter(|_| measured) {
        let peak = v["stats"]["peak_bytes"].as_u64().expect("a peak");
        assert!(peak <= 90 << 20, "{peak} bytes at the peak under 90M");
    }
    // Nothing is left behind: the files have no names.
    let left = std::fs::read_dir(dir.path())
        .expect("the directory")
        .count();
    assert_eq!(left, 0);
    let out = boardbot(&[
        "solve",
        "--game",
        "klotski",
        "--board",
        "gnome:0",
        "--spill-dir",
        "/no/such/dir",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--spill-dir /no/such/dir: not a directory"),
        "{err}"
    );
}

/// The peak is the resident size where Linux reports it, with glibc's
/// allocator set up by `main`.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn a_beam_keeps_to_the_budget_while_its_set_of_positions_grows() {
    // American Pie under steps: the optimal search stops on the budget,
    // then three beams fail and a fourth finds a plan. A beam's set of
    // positions seen, doubling, once took the process to 158 MiB here.
    let v = solve(
        &["--board", "gnome:25", "--no-book", "--max-memory", "100M"],
        "steps",
    );
    assert_eq!(v["plan"]["optimal"], false, "{}", v["stats"]);
    let peak = v["stats"]["peak_bytes"].as_u64().expect("a peak");
    assert!(peak <= 100 << 20, "{peak} bytes at the peak under 100M");
}

/// A 19x19 floor with 41 movable pieces of each of three shapes (1x1, 1x2,
/// 2x1). Each shape packs as a set of its placements (361, 342 and 342
/// bits, fewer than 41 pieces at 9 bits each): with `*`, 1,054 bits a
/// state, over the engine's 1,024-bit keys.
fn crowded_19x19() -> String {
    let mut grid = vec![vec!['_'; 19]; 19];
    let mut labels = '\u{c0}'..;
    let mut label = || labels.next().expect("enough labels");
    grid[0][0] = '*';
    grid[18][18] = '.';
    let singles = (1..19)
        .map(|c| (0, c))
        .chain((0..19).map(|c| (1, c)))
        .chain((0..4).map(|c| (2, c)));
    for (r, c) in singles {
        grid[r][c] = label();
    }
    for i in 0..41 {
        let (r, c) = (3 + i / 9, 2 * (i % 9));
        let l = label();
        (grid[r][c], grid[r][c + 1]) = (l, l);
    }
    for i in 0..41 {
        let (r, c) = (9 + 2 * (i / 19), i % 19);
        let l = label();
        (grid[r][c], grid[r + 1][c]) = (l, l);
    }
    grid.iter()
        .map(|row| row.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("/")
}
