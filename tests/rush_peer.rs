//! Rush Hour against `../shared/data/rush/rush_18k.txt`: every optimal
//! move count, every cluster size, and the farthest-state property of
//! every line. Release builds check all 18,068 lines; debug builds a
//! sample, since unoptimised searches are many times slower.

mod common;

use boardbot::games::rush::board::Puzzle;
use boardbot::games::rush::solver::parse_lines;
use boardbot::solve::{Budget, Progress, distance_map};
use boardbot::tools::run_parallel;
use common::{cli, shared, stdout_json};

fn lines() -> Option<(std::path::PathBuf, Vec<boardbot::games::rush::solver::Line>)> {
    let dir = shared("rush")?;
    let path = dir.join("rush_18k.txt");
    let all = parse_lines(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(all.len(), 18_068);
    let step = if cfg!(debug_assertions) { 40 } else { 1 };
    if step > 1 {
        println!(
            "debug build: checking every {step}th line; `cargo test --release` checks them all"
        );
    }
    Some((path, all.into_iter().step_by(step).collect()))
}

#[test]
fn batch_matches_every_move_count() {
    let Some((path, lines)) = lines() else { return };
    let file = if lines.len() == 18_068 {
        path
    } else {
        let dir = tempfile::tempdir().unwrap().keep();
        let p = dir.join("sample.txt");
        let text: String = lines
            .iter()
            .map(|l| format!("{:02} {} {}\n", l.moves, l.board, l.cluster))
            .collect();
        std::fs::write(&p, text).unwrap();
        p
    };
    let out = cli(
        "solve --game rush --batch",
        &[file.to_str().unwrap(), "--json"],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let v = stdout_json(&out);
    assert_eq!(v["puzzles"], lines.len());
    assert_eq!(v["mismatches"], serde_json::json!([]));
    assert!(v["median_ms"].is_number() && v["total_ms"].is_number());
}

#[test]
fn maps_match_every_cluster_and_every_board_is_its_clusters_farthest() {
    let Some((_, lines)) = lines() else { return };
    let problems = run_parallel(&lines, 2, |line| {
        let (p, s) =
            Puzzle::parse(&line.board).map_err(|e| format!("line {}: {e}", line.number))?;
        let m = distance_map(
            s,
            |s, out| p.successors(*s, out),
            |s| p.is_goal(*s),
            &Budget::default(),
            &mut Progress::quiet(),
        )
        .map_err(|e| {
            format!(
                "line {}: over budget after {} states",
                line.number, e.states
            )
        })?;
        let (distance, max) = (m.distance(0), m.max_distance());
        let hardest = max.is_some_and(|d| {
            m.at_distance(d)
                .any(|i| p.board_string(*m.state(i)) == line.board)
        });
        let ok = m.len() as u64 == line.cluster
            && distance == Some(line.moves)
            && max == Some(line.moves)
            && hardest;
        if ok {
            Ok(())
        } else {
            Err(format!(
                "line {}: states {} (file {}), distance {distance:?}, max {max:?}, moves {}",
                line.number,
                m.len(),
                line.cluster,
                line.moves
            ))
        }
    });
    let bad: Vec<String> = problems.into_iter().filter_map(Result::err).collect();
    assert!(
        bad.is_empty(),
        "{} lines differ, first: {:?}",
        bad.len(),
        &bad[..bad.len().min(5)]
    );
}

#[test]
fn solve_prints_an_optimal_plan_that_works() {
    let board = "GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo";
    let out = cli("solve --game rush --board", &[board, "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let v = stdout_json(&out);
    assert_eq!(v["plan"]["length"], 51);
    let (p, mut s) = Puzzle::parse(board).unwrap();
    for m in v["plan"]["moves"].as_array().unwrap() {
        s = p.apply(s, m.as_str().unwrap()).unwrap().1;
    }
    assert!(p.is_goal(s));
    // A board where the red car is walled in.
    let out = cli(
        "solve --game rush --board ooooooooooooAAoxoooooooooooooooooooo --json",
        &[],
    );
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(stdout_json(&out)["state"], "unsolvable");
}

#[test]
fn map_exports_graphml_dot_and_csv() {
    let dir = tempfile::tempdir().unwrap();
    let board = "GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo";
    for ext in ["graphml", "dot"] {
        let path = dir.path().join(format!("cluster.{ext}"));
        let out = cli(
            "map --game rush --board",
            &[board, "--json", "--export", path.to_str().unwrap()],
        );
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v = stdout_json(&out);
        assert_eq!(v["states"], 4780);
        assert_eq!(v["distance"], 51);
        assert_eq!(v["max_distance"], 51);
        assert!(v["goal_states"].as_u64().unwrap() > 0);
        assert!(v["hardest"].as_array().unwrap().iter().any(|b| b == board));
        let text = std::fs::read_to_string(&path).unwrap();
        let edges = v["edges"].as_u64().unwrap() as usize;
        if ext == "graphml" {
            assert!(text.starts_with("<?xml") && text.contains("<graphml"));
            assert_eq!(text.matches("<node ").count(), 4780);
            assert_eq!(text.matches("<edge ").count(), edges);
        } else {
            assert!(text.starts_with("graph rush {"));
            assert_eq!(text.matches(" -- ").count(), edges);
        }
        let nodes = std::fs::read_to_string(dir.path().join("cluster.nodes.csv")).unwrap();
        assert_eq!(nodes.lines().count(), 4781);
        assert!(nodes.starts_with("id,board,distance,goal\n"));
        let e = std::fs::read_to_string(dir.path().join("cluster.edges.csv")).unwrap();
        assert_eq!(e.lines().count(), edges + 1);
    }
    let bad = dir.path().join("cluster.png");
    let out = cli(
        "map --game rush --board",
        &[board, "--export", bad.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains(".graphml or .dot"));
}

#[test]
fn trace_rates_each_move() {
    // Two moves from a solution: C out of the red car's row, then A out.
    let board = "ooooooooooCoAAooCoooooooooooooooBBoo";
    let out = cli(
        "trace --game rush --board",
        &[board, "--moves", "B+1, C-1, C+1, C+2, A+4", "--json"],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = stdout_json(&out);
    let verdicts: Vec<&str> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(
        verdicts,
        ["wasted", "optimal", "backwards", "optimal", "optimal"]
    );
    assert_eq!(v["start_distance"], 2);
    assert_eq!(v["solved"], true);
    assert_eq!(v["moves"][3]["before"], 2);
    assert_eq!(v["moves"][4]["after"], 0);
    let out = cli("trace --game rush --board", &[board, "--moves", "B+1, C+3"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("move 2 (C+3)"), "{err}");
}

#[test]
fn bad_boards_say_what_and_where() {
    for (board, needle) in [
        ("ooooo", "36"),
        (
            "ooooooo\noooooo\nAAoooo\noooooo\noooooo\noooooo",
            "row 1 has 7 cells",
        ),
        ("oooooooooooooooooooooooooooooooooooo", "no red car"),
        ("BooBooBoooooAAoooooooooooooooooooooo", "vehicle B"),
        ("BoooooBoooooAAoooooooooooooooooooooC", "1 cell(s) long"),
        ("ooooooooooooAAoooo#ooooooooooooooooo", "row 4, column 1"),
    ] {
        let out = cli("solve --game rush --board", &[board]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{board}: {err}");
        assert!(
            err.contains(needle) && !err.contains("panicked"),
            "{board}: {err}"
        );
    }
}
