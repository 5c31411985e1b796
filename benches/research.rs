//! `cargo bench --bench research`: the GAR researcher's tools.
//!
//! - `trace --record` on the recorded 50-move Rush Hour session of
//!   `tests/fixtures/research/rush_session.json` (a 3,969-position map);
//! - `map --picture`, SVG and PNG, on a map just under the 5,000-state limit
//!   (every state and move drawn), and on a 9,192-state map (drawn by
//!   distance layers): the whole command, and the drawing alone.

use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

use boardbot::games::find;
use boardbot::games::rush::board::Puzzle as Rush;
use boardbot::report::picture::{self, Request};
use boardbot::solve::{Budget, Progress, Puzzle, distance_map};
use boardbot::tools::TextPuzzle;
use boardbot::tools::options::Options;
use boardbot::tools::options::Recorded;

/// 4,999 positions: the largest size drawn state by state.
const NEAR_LIMIT: &str = "oBBBCCooGHoIAAGHoIoFooDDoFoooooEEEoo";
/// 9,192 positions: drawn by distance layers.
const LARGE: &str = "BBoKMxDDDKMoIAALooIoJLEEooJFFNoGGoxN";
const RUNS: usize = 21;

/// The median of `RUNS` timings of `f`, in ms.
fn median_ms(mut f: impl FnMut()) -> f64 {
    let mut ms: Vec<f64> = (0..RUNS)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    ms.sort_by(f64::total_cmp);
    ms[RUNS / 2]
}

fn quiet(record: Option<Recorded>, picture: Option<&Path>) -> Options {
    Options {
        record,
        picture: picture.map(Path::to_path_buf),
        ..Options::default()
    }
}

fn trace() {
    let file =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/research/rush_session.json");
    let rush = find("rush").expect("rush");
    let ms = median_ms(|| {
        let rec = Recorded::load(&file).expect("the session");
        let start = rec.session.start.clone();
        let opts = quiet(Some(rec), None);
        black_box(rush.trace(&start, "--record", "", &opts).expect("trace"));
    });
    println!("trace --record, 55-move Rush session (3,969 positions): median {ms:.2} ms");
}

fn pictures(dir: &Path) {
    let rush = find("rush").expect("rush");
    for (name, board) in [
        ("4,999 states", NEAR_LIMIT),
        ("9,192 states, layers", LARGE),
    ] {
        for ext in ["svg", "png"] {
            let out = dir.join(format!("map.{ext}"));
            let opts = quiet(None, Some(&out));
            let whole = median_ms(|| {
                black_box(rush.map(board, "--board", &opts).expect("map"));
            });
            let (p, start) =
                <Rush as TextPuzzle>::parse(board, &Options::default()).expect("board");
            let m = distance_map(
                start,
                |s, o| Puzzle::successors(&p, s, o),
                |s| Puzzle::is_goal(&p, s),
                &Budget::default(),
                &mut Progress::quiet(),
            )
            .unwrap_or_else(|_| panic!("{board} maps"));
            let req = Request {
                file: &out,
                game: "rush",
                undirected: true,
                path: None,
                record: None,
            };
            let draw = median_ms(|| {
                black_box(picture::draw(&m, &req).expect("draw"));
            });
            println!(
                "map --picture .{ext}, {name}: median {whole:.1} ms for the command, {draw:.1} ms drawing"
            );
        }
    }
}

fn main() {
    let dir = std::env::temp_dir().join(format!("boardbot-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    trace();
    pictures(&dir);
    let _ = std::fs::remove_dir_all(&dir);
}
