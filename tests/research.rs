//! The GAR researcher's tools: `trace --record` rates a recorded practice
//! session move by move, and `map --picture` draws the state map with the
//! player's path over it.
//!
//! Sessions are made here the way a person plays: mostly moves that bring
//! the goal nearer, some that do not, with longer thinking before the
//! worse moves. Every rating is checked against the map's own distances.

mod common;

#[path = "../examples/eight_puzzle.rs"]
mod eight;

use std::path::{Path, PathBuf};

use boardbot::game::Game;
use boardbot::games::rush::board::Puzzle as Rush;
use boardbot::practice::Session;
use boardbot::report::Output;
use boardbot::solve::{Budget, Progress, Puzzle, StateMap, distance_map};
use boardbot::tools::TextPuzzle;
use boardbot::tools::options::Options;
use boardbot::tools::options::Recorded;
use common::{boardbot, fixtures};
use serde_json::Value;

/// 30 moves from a solution, 3,969 positions: the 50-move session's board.
const SESSION_BOARD: &str = "BBBCCNKxEEoNKAAMooKooMFFooLGGxIILJJo";
/// 8 moves from a solution, 132 positions: small enough to check every node.
const SMALL: &str = "BBBxoooooGoHoAAGoHooFDDDooFoooooxooo";
/// 9,192 positions: drawn by distance layers.
const LARGE: &str = "BBoKMxDDDKMoIAALooIoJLEEooJFFNoGGoxN";
/// A small B.i.t.Lock level: two tiles, two targets.
const LOCK: &str = "#######\n#a   A#\n# b  B#\n#  #  #\n#######\n";

/// A pseudo-random sequence (xorshift), so sessions are the same every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

fn mapped<P: TextPuzzle>(text: &str) -> (P, P::State, StateMap<P::State, P::Move>) {
    let (p, start) = P::parse(text, &Options::default()).unwrap();
    let m = distance_map(
        start.clone(),
        |s, out| p.successors(s, out),
        |s| p.is_goal(s),
        &Budget::default(),
        &mut Progress::quiet(),
    )
    .unwrap_or_else(|_| panic!("{text} maps in the default budget"));
    (p, start, m)
}

/// A person's session on `text`: a move toward the goal with chance
/// `good` in 100, else any legal move, until solved (from `cap` moves on,
/// only moves toward the goal). Thinking takes 0.8–2.8 s before good
/// moves and 2–8 s before the others.
fn play<P: TextPuzzle>(game: &str, text: &str, seed: u64, good: u64, cap: usize) -> Session {
    let (p, start, m) = mapped::<P>(text);
    let dist = |s: &P::State| m.index_of(s).and_then(|i| m.distance(i));
    let mut rng = Rng(seed);
    let mut session = Session::new(game, text.to_string(), dist(&start).map(u64::from));
    let (mut s, mut t) = (start, 0u64);
    let mut next = Vec::new();
    while dist(&s) != Some(0) {
        next.clear();
        p.successors(&s, &mut next);
        let better: Vec<usize> = (0..next.len())
            .filter(|&k| dist(&next[k].1) < dist(&s) && dist(&next[k].1).is_some())
            .collect();
        let wise = !better.is_empty() && (session.log.len() >= cap || rng.below(100) < good);
        let k = if wise {
            better[rng.below(better.len() as u64) as usize]
        } else {
            rng.below(next.len() as u64) as usize
        };
        let was_good = better.contains(&k);
        t += if was_good {
            800 + rng.below(2000)
        } else {
            2000 + rng.below(6000)
        };
        session.push(next[k].0.to_string(), t);
        s = next.swap_remove(k).1;
    }
    session.solved = true;
    session.board = p.key(&s);
    session
}

fn save(session: &Session, dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_string_pretty(session).unwrap()).unwrap();
    path
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = boardbot(args);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `trace --game rush ARGS`.
fn trace_rush(args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["trace", "--game", "rush"];
    all.extend(args);
    run(&all)
}

fn median(mut v: Vec<u64>) -> Option<f64> {
    v.sort_unstable();
    let n = v.len();
    (n > 0).then(|| (v[(n - 1) / 2] + v[n / 2]) as f64 / 2.0)
}

/// Checks a trace's JSON against the map's distances and the session.
fn check_trace<P: TextPuzzle>(v: &Value, text: &str, session: &Session) {
    let (p, start, m) = mapped::<P>(text);
    let dist = |s: &P::State| m.index_of(s).and_then(|i| m.distance(i));
    let steps = v["moves"].as_array().unwrap();
    let optimum = dist(&start).unwrap();
    assert_eq!(steps.len(), session.log.len());
    assert_eq!(v["moves_made"], session.log.len());
    assert_eq!(v["optimum"], optimum);
    let mut s = start;
    let (mut good_think, mut other_think, mut good) = (Vec::new(), Vec::new(), 0);
    for (step, logged) in steps.iter().zip(&session.log) {
        let (_, next) = p.parse_move(&s, &logged.mv).unwrap();
        let (before, after) = (dist(&s), dist(&next));
        assert_eq!(step["before"], serde_json::json!(before), "{step}");
        assert_eq!(step["after"], serde_json::json!(after), "{step}");
        let (rating, verdict) = match (before, after) {
            (Some(b), Some(a)) if a < b => ("optimal", "optimal"),
            (Some(b), Some(a)) if a == b => ("neutral", "wasted"),
            _ => ("step_back", "backwards"),
        };
        assert_eq!(
            (step["rating"].as_str(), step["verdict"].as_str()),
            (Some(rating), Some(verdict))
        );
        assert_eq!(step["think_ms"], logged.think_ms);
        assert_eq!(step["t_ms"], logged.t_ms);
        if rating == "optimal" {
            good += 1;
            good_think.push(logged.think_ms);
        } else {
            other_think.push(logged.think_ms);
        }
        s = next;
    }
    assert_eq!(v["optimal"], good);
    assert_eq!(v["neutral"], v["wasted"]);
    assert_eq!(v["step_back"], v["backwards"]);
    let share = v["optimal_share"].as_f64().unwrap();
    assert!((share - good as f64 / steps.len() as f64).abs() < 1e-9);
    assert_eq!(v["median_think_optimal_ms"].as_f64(), median(good_think));
    assert_eq!(v["median_think_other_ms"].as_f64(), median(other_think));
    assert_eq!(v["solved"], true);
    assert_eq!(v["excess"], steps.len() - optimum as usize);
}

#[test]
fn traces_a_recorded_rush_session() {
    let dir = tempfile::tempdir().unwrap();
    let session = play::<Rush>("rush", SESSION_BOARD, 7, 70, 80);
    let file = save(&session, dir.path(), "rush.json");
    let f = file.to_str().unwrap();
    let (code, out, err) = trace_rush(&["--record", f, "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["record"], f);
    check_trace::<Rush>(&v, SESSION_BOARD, &session);
    // The record names its game: --game may be left out.
    let (code, again, err) = run(&["trace", "--record", f, "--json"]);
    assert_eq!((code, again), (0, out), "{err}");
    // The same position given as --board is accepted, and text says it all.
    let (code, text, err) = trace_rush(&["--record", f, "--board", SESSION_BOARD]);
    assert_eq!(code, 0, "{err}");
    for needle in [
        "step_back",
        "thought",
        "against an optimum of 30",
        "Median thinking time",
    ] {
        assert!(text.contains(needle), "{needle}: {text}");
    }
}

#[test]
fn traces_a_recorded_bitlock_session() {
    let dir = tempfile::tempdir().unwrap();
    type Lock = boardbot::games::bitlock::Lock<8>;
    let session = play::<Lock>("bitlock", LOCK, 11, 50, 30);
    assert!(
        session.log.iter().all(|m| "LRUD".contains(m.mv.as_str())),
        "{session:?}"
    );
    let file = save(&session, dir.path(), "lock.json");
    let (code, out, err) = run(&[
        "trace",
        "--game",
        "bitlock",
        "--record",
        file.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    check_trace::<Lock>(&serde_json::from_str(&out).unwrap(), LOCK, &session);
}

#[test]
fn a_broken_record_names_the_file_and_the_move() {
    let dir = tempfile::tempdir().unwrap();
    let mut session = play::<Rush>("rush", SMALL, 3, 80, 20);
    session.log[2].mv = "Z+1".into();
    let file = save(&session, dir.path(), "broken.json");
    let f = file.to_str().unwrap();
    let (code, _, err) = trace_rush(&["--record", f]);
    assert_eq!(code, 2);
    assert!(err.contains(f) && err.contains("move 3 (Z+1)"), "{err}");
    // The picture refuses it too, before drawing anything.
    let svg = dir.path().join("p.svg");
    let (code, _, err) = run(&[
        "map",
        "--game",
        "rush",
        "--record",
        f,
        "--picture",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("move 3 (Z+1)") && !svg.exists(), "{err}");
    // Not JSON.
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"solved\": true,\n\"moves\": ").unwrap();
    let (code, _, err) = trace_rush(&["--record", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains(bad.to_str().unwrap()) && err.contains("line 2"),
        "{err}"
    );
    // Another game, another position, and both --moves and --record.
    let good = save(
        &play::<Rush>("rush", SMALL, 3, 80, 20),
        dir.path(),
        "good.json",
    );
    let g = good.to_str().unwrap();
    let (code, _, err) = run(&["trace", "--game", "bitlock", "--record", g]);
    assert_eq!(code, 2);
    assert!(err.contains("records a game of rush, not bitlock"), "{err}");
    let (code, _, err) = trace_rush(&["--record", g, "--board", SESSION_BOARD]);
    assert_eq!(code, 2);
    assert!(err.contains("starts from another position"), "{err}");
    let (code, _, _) = trace_rush(&["--record", g, "--moves", "A+1"]);
    assert_eq!(code, 2);
    let (code, _, err) = trace_rush(&["--board", SMALL]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn a_map_too_large_is_traced_by_solving_each_position() {
    type Lock = boardbot::games::bitlock::Lock<8>;
    let dir = tempfile::tempdir().unwrap();
    let session = play::<Lock>("bitlock", LOCK, 23, 40, 30);
    let path = save(&session, dir.path(), "lock.json");
    let lock = boardbot::games::find("bitlock").unwrap();
    let trace = |max_nodes: Option<u64>| {
        let opts = Options {
            record: Some(Recorded::load(&path).unwrap()),
            max_nodes,
            ..Options::default()
        };
        let Output::Trace(t) = lock.trace(LOCK, "--level", "", &opts).unwrap() else {
            panic!("a trace")
        };
        serde_json::to_value(&t).unwrap()
    };
    // The level has 128 positions: a cap of 40 stops the map, not A*.
    let (whole, searched) = (trace(None), trace(Some(40)));
    assert_eq!(whole["distances"]["by"], "map");
    assert_eq!(searched["distances"]["by"], "search", "{searched}");
    assert_eq!(whole["moves"], searched["moves"]);
    check_trace::<Lock>(&searched, LOCK, &session);
    // When the searches outgrow the budget too, it says so, as map does.
    let opts = Options {
        record: Some(Recorded::load(&path).unwrap()),
        max_nodes: Some(3),
        ..Options::default()
    };
    let out = lock.trace(LOCK, "--level", "", &opts).unwrap();
    assert_eq!(out.exit_code(), 3);
    let v: Value = serde_json::from_str(&out.to_json()).unwrap();
    assert_eq!(v["state"], "gave_up");
    assert!(
        v["reason"]
            .as_str()
            .unwrap()
            .contains("one by one gave up too"),
        "{v}"
    );
}

/// Attribute values of every element of `class` in an SVG.
fn attrs(svg: &str, class: &str, attr: &str) -> Vec<String> {
    let tag = format!("class=\"{class}\"");
    svg.lines()
        .filter(|l| l.contains(&tag))
        .filter_map(|l| {
            let key = format!(" {attr}=\"");
            let at = l.find(&key)? + key.len();
            Some(l[at..at + l[at..].find('"')?].to_string())
        })
        .collect()
}

fn count(svg: &str, class: &str) -> usize {
    let tag = format!("class=\"{class}\"");
    svg.lines().filter(|l| l.contains(&tag)).count()
}

/// Runs `map ARGS --picture DIR/map.svg --json`: the JSON and the SVG.
fn map_svg(dir: &Path, args: &[&str]) -> (Value, String) {
    let svg_file = dir.join("map.svg");
    let mut all = vec!["map"];
    all.extend(args);
    all.extend(["--picture", svg_file.to_str().unwrap(), "--json"]);
    let (code, out, err) = run(&all);
    assert_eq!(code, 0, "{err}");
    let v = serde_json::from_str(&out).unwrap();
    (v, std::fs::read_to_string(&svg_file).unwrap())
}

/// Plays a session on `board` and draws its map with the path: the
/// session, the map's JSON and the SVG.
fn drawn(board: &str, seed: u64, good: u64, cap: usize) -> (Session, Value, String) {
    let dir = tempfile::tempdir().unwrap();
    let session = play::<Rush>("rush", board, seed, good, cap);
    let rec = save(&session, dir.path(), "session.json");
    let (v, svg) = map_svg(
        dir.path(),
        &["--game", "rush", "--record", rec.to_str().unwrap()],
    );
    (session, v, svg)
}

#[test]
fn draws_a_small_rush_map_with_the_players_path() {
    let (session, v, svg) = drawn(SMALL, 9, 60, 30);
    assert_eq!(v["picture"]["mode"], "states");
    assert_eq!(v["picture"]["path_moves"], session.log.len());
    // One node per state, goals as squares, each with its distance.
    let states = count(&svg, "state") + count(&svg, "state goal");
    assert_eq!(states, v["states"].as_u64().unwrap() as usize);
    assert_eq!(
        count(&svg, "state goal"),
        v["goal_states"].as_u64().unwrap() as usize
    );
    assert_eq!(count(&svg, "edge"), v["edges"].as_u64().unwrap() as usize);
    let mut per_distance = vec![0u64; v["histogram"].as_array().unwrap().len()];
    for d in attrs(&svg, "state", "data-distance").iter().chain(&attrs(
        &svg,
        "state goal",
        "data-distance",
    )) {
        per_distance[d.parse::<usize>().unwrap()] += 1;
    }
    assert_eq!(serde_json::json!(per_distance), v["histogram"]);
    // The start is marked where state 0 is drawn.
    let start_x = attrs(&svg, "state", "cx")[attrs(&svg, "state", "data-state")
        .iter()
        .position(|i| i == "0")
        .unwrap()]
    .clone();
    assert_eq!(attrs(&svg, "start", "cx"), [start_x]);
    assert!(svg.contains(">start</text>"));
    // The path: one arrow per move, in order, and a ring per state visited.
    let moves: Vec<usize> = attrs(&svg, "step", "data-move")
        .iter()
        .map(|k| k.parse().unwrap())
        .collect();
    assert_eq!(moves, (1..=session.log.len()).collect::<Vec<_>>());
    let (p, mut s, m) = mapped::<Rush>(SMALL);
    let mut visited = std::collections::BTreeSet::from([0]);
    for logged in &session.log {
        s = p.parse_move(&s, &logged.mv).unwrap().1;
        visited.insert(m.index_of(&s).unwrap());
    }
    assert_eq!(count(&svg, "visited"), visited.len());
    // The same as PNG: a real image with the path's red in it.
    let dir = tempfile::tempdir().unwrap();
    let rec = save(&session, dir.path(), "small.json");
    let png_file = dir.path().join("small.png");
    let (code, text, err) = run(&[
        "map",
        "--game",
        "rush",
        "--board",
        SMALL,
        "--record",
        rec.to_str().unwrap(),
        "--picture",
        png_file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        text.contains("Drew ") && text.contains("with the player's"),
        "{text}"
    );
    let img = image::open(&png_file).unwrap().to_rgb8();
    assert!(img.width() >= 700 && img.height() >= 200);
    assert!(img.pixels().any(|p| p.0 == [220, 20, 60]), "no path drawn");
}

#[test]
fn draws_maps_above_the_limit_by_distance_layers() {
    let (session, v, svg) = drawn(LARGE, 5, 80, 70);
    assert_eq!(v["picture"]["mode"], "layers");
    assert!(svg.contains("DISTANCE LAYERS: over 5000 states are too many to draw one by one"));
    let sizes: Vec<u64> = attrs(&svg, "layer", "data-states")
        .iter()
        .chain(&attrs(&svg, "state goal", "data-states"))
        .map(|k| k.parse().unwrap())
        .collect();
    assert_eq!(sizes.len(), v["histogram"].as_array().unwrap().len());
    assert_eq!(sizes.iter().sum::<u64>(), v["states"].as_u64().unwrap());
    let moves: u64 = attrs(&svg, "link", "data-moves")
        .iter()
        .map(|k| k.parse::<u64>().unwrap())
        .sum();
    assert_eq!(moves, v["edges"].as_u64().unwrap());
    assert_eq!(count(&svg, "step"), session.log.len());
    assert_eq!(
        count(&svg, "state"),
        0,
        "no single states in a layer picture"
    );
}

#[test]
fn draws_bitlock_and_the_toy_game() {
    let dir = tempfile::tempdir().unwrap();
    let level = dir.path().join("lock.txt");
    std::fs::write(&level, LOCK).unwrap();
    let (v, svg) = map_svg(
        dir.path(),
        &["--game", "bitlock", "--level", level.to_str().unwrap()],
    );
    assert_eq!(
        count(&svg, "state") + count(&svg, "state goal"),
        v["states"].as_u64().unwrap() as usize
    );
    // The 8-puzzle (181,440 positions from any start) through the Game trait.
    let png = dir.path().join("eight.png");
    let opts = Options {
        picture: Some(png.clone()),
        ..Options::default()
    };
    let Output::Map(report) = eight::EIGHT.map("123456708", "--board", &opts).unwrap() else {
        panic!("a map")
    };
    let pic = report.picture.unwrap();
    assert_eq!(
        (report.states, pic.nodes),
        (181_440, report.histogram.len())
    );
    assert!(image::open(&png).is_ok());
}

#[test]
fn a_picture_needs_svg_or_png() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("map.jpg");
    let (code, _, err) = run(&[
        "map",
        "--game",
        "rush",
        "--board",
        SMALL,
        "--picture",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("map.jpg") && err.contains(".svg or .png"),
        "{err}"
    );
    assert!(!file.exists());
    let (code, _, err) = run(&[
        "map", "--game", "rush", "--board", SMALL, "--record", "x.json",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--picture"), "{err}");
}

/// The 50-move session that `benches/research.rs` and the README's figure
/// trace. `BLESS=1 cargo test --release --test research` writes it anew.
#[test]
fn the_benchmark_session_is_current() {
    let session = play::<Rush>("rush", SESSION_BOARD, 2026, 65, 60);
    assert!(session.log.len() >= 50, "{} moves", session.log.len());
    let file = fixtures("research").join("rush_session.json");
    let text = serde_json::to_string_pretty(&session).unwrap() + "\n";
    if std::env::var_os("BLESS").is_some() {
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, &text).unwrap();
    }
    let saved = Recorded::load(&file).unwrap_or_else(|e| panic!("{e}: run with BLESS=1"));
    assert_eq!(
        saved.session,
        session,
        "{} is stale: run with BLESS=1",
        file.display()
    );
}
