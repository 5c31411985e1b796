//! Writes that survive a crash: boardbot killed (SIGKILL) in the middle
//! of writing a large export and in the middle of a calibration. Each
//! kill waits until boardbot has started a file (its temporary file shows
//! beside the target), then lands at a different moment of the write. The
//! files it was replacing are never left half written: each is its old
//! content, whole, or the new one, whole.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// When a kill landed.
#[derive(Debug, PartialEq)]
enum Kill {
    /// While a temporary file of boardbot's was being written.
    Writing,
    /// Boardbot had ended by itself first.
    Ended,
}

/// True when `dir` holds a temporary file of an atomic write.
fn writing(dir: &Path) -> bool {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .any(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
}

/// Removes the temporary files a killed run left in `dir`.
fn clear_temporaries(dir: &Path) {
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        if e.file_name().to_string_lossy().ends_with(".tmp") {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// Starts boardbot with `args`, waits until it writes a file into `dir`,
/// then kills it `after` that.
fn kill_while_writing(args: &[&str], config: &Path, dir: &Path, after: Duration) -> Kill {
    clear_temporaries(dir);
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardbot"))
        .args(args)
        .env("BOARDBOT_CONFIG_DIR", config)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start boardbot");
    let limit = Instant::now() + Duration::from_secs(60);
    while !writing(dir) {
        if child.try_wait().expect("wait").is_some() || Instant::now() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return Kill::Ended;
        }
        std::thread::sleep(Duration::from_micros(200));
    }
    std::thread::sleep(after);
    let ended = child.try_wait().expect("wait").is_some();
    let _ = child.kill();
    let _ = child.wait();
    clear_temporaries(dir);
    if ended { Kill::Ended } else { Kill::Writing }
}

/// Runs boardbot with `args` to its end.
fn run(args: &[&str], config: &Path) {
    let out = Command::new(env!("CARGO_BIN_EXE_boardbot"))
        .args(args)
        .env("BOARDBOT_CONFIG_DIR", config)
        .output()
        .expect("run boardbot");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Kill delays after the write starts: 0 to 30 ms.
fn delays() -> impl Iterator<Item = Duration> {
    (0..16).map(|k| Duration::from_micros(2_000 * k))
}

#[test]
fn a_killed_export_leaves_the_old_files_whole() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("map.graphml");
    let nodes = dir.path().join("map.nodes.csv");
    // Every position of the 3x3 sliding puzzle: 181,440 states, a graph
    // of some 40 MB.
    let out_s = out.to_str().unwrap();
    let args = [
        "map",
        "--game",
        "fifteen",
        "--board",
        "3x3:8,6,7,2,5,4,3,0,1",
        "--export",
        out_s,
    ];
    run(&args, dir.path());
    let new_graph = std::fs::read_to_string(&out).unwrap();
    let new_nodes = std::fs::read_to_string(&nodes).unwrap();
    assert!(
        new_graph.trim_end().ends_with("</graphml>"),
        "a whole graph"
    );
    let mut mid_write = 0;
    for after in delays() {
        std::fs::write(&out, "old graph\n").unwrap();
        std::fs::write(&nodes, "old nodes\n").unwrap();
        if kill_while_writing(&args, dir.path(), dir.path(), after) == Kill::Writing {
            mid_write += 1;
        }
        let graph = std::fs::read_to_string(&out).unwrap();
        let csv = std::fs::read_to_string(&nodes).unwrap();
        assert!(
            graph == "old graph\n" || graph == new_graph,
            "killed {after:?} into the write: a broken graph"
        );
        assert!(
            csv == "old nodes\n" || csv == new_nodes,
            "killed {after:?} into the write: broken nodes"
        );
    }
    println!("{mid_write} of 16 kills landed mid-write");
    assert!(mid_write >= 8, "only {mid_write} kills landed mid-write");
}

/// `calibrate --game troyis` on fixture `name`, writing into `out`.
fn calibrate_args(name: &str, out: &Path) -> Vec<String> {
    let shot = common::fixtures("troyis").join(format!("{name}.png"));
    let want: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(common::fixtures("troyis").join(format!("{name}.json"))).unwrap(),
    )
    .unwrap();
    let rows: Vec<String> = serde_json::from_value(want["cells"].clone()).unwrap();
    [
        "calibrate",
        "--game",
        "troyis",
        "--image",
        shot.to_str().unwrap(),
        "--board",
        &rows.join("/"),
        "--keep-missing",
        "--out",
        out.to_str().unwrap(),
    ]
    .map(String::from)
    .to_vec()
}

#[test]
fn a_killed_calibration_leaves_the_old_one_whole() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("cal");
    let file = out.join("troyis.toml");
    let first = calibrate_args("k9_p36_margin_purple", &out);
    let second = calibrate_args("k7_mid_p58_yellow", &out);
    let (first, second): (Vec<&str>, Vec<&str>) = (
        first.iter().map(String::as_str).collect(),
        second.iter().map(String::as_str).collect(),
    );
    run(&second, dir.path());
    let new = std::fs::read_to_string(&file).unwrap();
    run(&first, dir.path());
    let old = std::fs::read_to_string(&file).unwrap();
    assert_ne!(old, new, "two screenshots, two calibrations");
    let loads = || {
        boardbot::calibration::Calibration::load(&file, "troyis")
            .map(|_| ())
            .map_err(|e| e.to_string())
    };
    let mut mid_write = 0;
    for after in delays().map(|d| d / 8) {
        if kill_while_writing(&second, dir.path(), &out, after) == Kill::Writing {
            mid_write += 1;
        }
        let now = std::fs::read_to_string(&file).expect("the calibration is still there");
        assert!(
            now == old || now == new,
            "killed {after:?} into the write: a calibration half written"
        );
        loads()
            .unwrap_or_else(|e| panic!("killed {after:?} into the write: it no longer loads: {e}"));
        if now == new {
            // Back to the first, for the next kill.
            run(&first, dir.path());
        }
    }
    println!("{mid_write} of 16 kills landed mid-write");
    assert!(mid_write >= 4, "only {mid_write} kills landed mid-write");
}
