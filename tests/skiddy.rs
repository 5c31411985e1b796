//! Skiddy through the command line: the hand-made levels in
//! `tests/fixtures/skiddy` (each file's comment shows by hand why its
//! shortest plan has that length), and the core's map and trace on them.

mod common;

use common::{boardbot, fixtures, stdout_json};

fn level(name: &str) -> String {
    fixtures("skiddy").join(name).to_string_lossy().into_owned()
}

/// The exit code and JSON of `solve --json` on a fixture.
fn solve(name: &str) -> (Option<i32>, serde_json::Value) {
    let path = level(name);
    let out = boardbot(&["solve", "--game", "skiddy", "--level", &path, "--json"]);
    (out.status.code(), stdout_json(&out))
}

#[test]
fn hand_made_levels_solve_in_their_checked_lengths() {
    // (file, the shortest plan, whose length the file's comment proves)
    let cases = [
        ("two_colours.txt", "RU"),
        ("crate.txt", "RD"),
        ("pit.txt", "RU"),
        ("loose_pair.txt", "ULU"),
        ("sticky_column.txt", "LU"),
    ];
    for (name, moves) in cases {
        let (code, v) = solve(name);
        assert_eq!(code, Some(0), "{name}: {v}");
        assert_eq!(v["plan"]["length"], moves.len(), "{name}: {v}");
        assert_eq!(v["plan"]["optimal"], true, "{name}");
        // These plans are the only shortest ones, so the text is fixed too.
        assert_eq!(v["plan"]["moves"], moves, "{name}: {v}");
    }
}

#[test]
fn a_sticky_pair_under_one_goal_has_no_solution() {
    let (code, v) = solve("sticky_pair.txt");
    assert_ne!(code, Some(0), "{v}");
    assert_eq!(v["state"], "unsolvable", "{v}");
    assert!(v["plan"].is_null(), "{v}");
}

#[test]
fn map_and_trace_come_from_the_core() {
    let path = level("loose_pair.txt");
    let out = boardbot(&["map", "--game", "skiddy", "--level", &path, "--json"]);
    assert!(out.status.success(), "{out:?}");
    let map = stdout_json(&out);
    assert_eq!(map["distance"], 3, "{map}");
    assert_eq!(map["goal_states"], 1, "{map}");
    let out = boardbot(&[
        "trace", "--game", "skiddy", "--level", &path, "--moves", "DULU", "--json",
    ]);
    assert!(out.status.success(), "{out:?}");
    let trace = stdout_json(&out);
    assert_eq!(trace["solved"], true, "{trace}");
    assert_eq!(trace["wasted"], 1, "D gains nothing: {trace}");
    assert_eq!(trace["optimal"], 3, "{trace}");
    // A move that changes nothing is not a move.
    let out = boardbot(&[
        "trace", "--game", "skiddy", "--level", &path, "--moves", "L",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a legal move"));
}

#[test]
fn a_broken_level_names_line_and_column() {
    let dir = std::env::temp_dir().join(format!("skiddy-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.txt");
    std::fs::write(&path, "; x\n#R#\n#x#\n###\n").unwrap();
    let out = boardbot(&[
        "solve",
        "--game",
        "skiddy",
        "--level",
        &path.to_string_lossy(),
    ]);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 3, column 2"), "{err}");
}
