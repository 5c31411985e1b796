//! A new game gets every tool from the core: the toy 8-puzzle of
//! `examples/eight_puzzle.rs` states only its rules and text form, and
//! here it is solved (with a walkthrough), batch-checked, mapped and
//! traced, as text and JSON, through the same `Game` trait the CLI uses.

#[path = "../examples/eight_puzzle.rs"]
mod eight;

use boardbot::game::Game;
use boardbot::report::{Output, Verdict};
use boardbot::tools::options::Options;
use eight::EIGHT;

fn opts() -> Options {
    Options::default()
}

#[test]
fn solves_with_a_walkthrough_as_text_and_json() {
    let o = Options {
        walkthrough: true,
        ..opts()
    };
    // One of the two positions 31 moves from the goal.
    let r = EIGHT.solve_text("867/254/301", "--board", &o).unwrap();
    assert_eq!(r.state, Verdict::Playable);
    let v: serde_json::Value = serde_json::from_str(&r.to_json()).unwrap();
    assert_eq!(v["state"], "playable");
    assert_eq!(v["plan"]["length"], 31);
    assert_eq!(v["plan"]["optimal"], true);
    let frames = v["walkthrough"].as_array().unwrap();
    assert_eq!(frames.len(), 32);
    assert_eq!(
        frames[31]["board"],
        serde_json::json!(["123", "456", "78."])
    );
    let text = r.to_text();
    assert!(text.contains("Solved in 31 moves (optimal)"), "{text}");
    assert!(
        text.contains("\nStart:\n") && text.contains("\n31. "),
        "{text}"
    );
    // Already solved: nothing to do, and a distinct verdict.
    let done = EIGHT.solve_text("123456780", "--board", &opts()).unwrap();
    assert_eq!(done.state, Verdict::Solved);
    // The other half of the permutations can never be solved.
    let odd = EIGHT.solve_text("213456780", "--board", &opts()).unwrap();
    assert_eq!(odd.state, Verdict::Unsolvable);
    assert_eq!(odd.state.exit_code(), 3);
}

#[test]
fn batch_checks_known_answers_and_names_the_lines_that_differ() {
    let file = "# moves position\n1 123456708\n31 867254301\n\n4 123456780\n2 12345678\n";
    let mut src = boardbot::tools::BatchSource::from_text(file, "toy.txt");
    let out = EIGHT.batch(&mut src, &opts()).unwrap();
    assert_eq!(out.exit_code(), 1);
    let v: serde_json::Value = serde_json::from_str(&out.to_json()).unwrap();
    assert_eq!(v["puzzles"], 4);
    let bad = v["mismatches"].as_array().unwrap();
    assert_eq!(bad.len(), 2, "{v}");
    assert_eq!(
        (bad[0]["line"].as_u64(), bad[0]["got"].as_u64()),
        (Some(5), Some(0))
    );
    assert!(
        bad[1]["got"]
            .as_str()
            .unwrap()
            .contains("expected 9 digits")
    );
    assert!(
        out.to_text()
            .contains("line 5: 123456780 expected 4, got 0")
    );
}

#[test]
fn maps_the_whole_state_space_and_exports_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("eight.dot");
    let o = Options {
        export: Some(path.clone()),
        ..opts()
    };
    let out = EIGHT.map("123456780", "--board", &o).unwrap();
    let Output::Map(m) = &out else {
        panic!("not a map")
    };
    // Half of 9! positions, the hardest 31 moves away.
    assert_eq!(m.states, 181_440);
    assert_eq!(m.max_distance, Some(31));
    assert_eq!(m.hardest.len(), 2);
    assert_eq!(m.dead_states, 0);
    assert_eq!(m.histogram.iter().sum::<usize>(), 181_440);
    let dot = std::fs::read_to_string(&path).unwrap();
    assert!(dot.starts_with("graph eight {"));
    assert_eq!(dot.matches(" -- ").count(), m.edges);
    let nodes = std::fs::read_to_string(dir.path().join("eight.nodes.csv")).unwrap();
    assert_eq!(nodes.lines().count(), 181_441);
}

#[test]
fn traces_a_game_move_by_move() {
    let out = EIGHT
        .trace("123456708", "--board", "R, L, U, D, R", &opts())
        .unwrap();
    let v: serde_json::Value = serde_json::from_str(&out.to_json()).unwrap();
    let verdicts: Vec<&str> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(
        verdicts,
        ["optimal", "backwards", "backwards", "optimal", "optimal"]
    );
    assert_eq!(v["start_distance"], 1);
    assert_eq!(v["solved"], true);
    let err = EIGHT
        .trace("123456708", "--board", "R, R", &opts())
        .unwrap_err()
        .to_string();
    assert!(err.contains("move 2 (R)") && err.contains("legal"), "{err}");
}

#[test]
fn refuses_options_it_does_not_read() {
    let o = Options {
        win: Some(boardbot::tools::options::Win::Exact),
        ..opts()
    };
    let e = boardbot::tools::options::check(EIGHT.id(), EIGHT.options(), &o, &[])
        .unwrap_err()
        .to_string();
    assert!(e.contains("--win does not apply to eight"), "{e}");
}
