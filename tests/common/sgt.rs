//! sgt-puzzles' Inertia as the tests use it: where the program is, and its
//! own solver's answer for a game ID (from `--save … --with-solutions`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The installed `sgt-inertia` (Debian puts it in /usr/games, often off
/// PATH), or `None` with the reason printed; in CI it must be there.
pub fn inertia() -> Option<PathBuf> {
    let on_path = Command::new("sh")
        .args(["-c", "command -v sgt-inertia"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    let found = on_path.or_else(|| {
        let p = Path::new("/usr/games/sgt-inertia");
        p.exists().then(|| p.to_path_buf())
    });
    assert!(
        found.is_some() || !super::in_ci(),
        "sgt-inertia is not installed, and CI=true: .ci/deps must install sgt-puzzles"
    );
    if found.is_none() {
        println!("skipped: sgt-inertia is not installed (sudo .ci/deps installs sgt-puzzles)");
    }
    found
}

/// sgt's own solver's moves for `id`, as its direction numbers (0 = up,
/// clockwise): the `SOLVE` line of the save file it writes.
pub fn solve(program: &Path, id: &str, dir: &Path) -> Vec<usize> {
    let prefix = dir.join("sgt-");
    let mut child = Command::new(program)
        .arg("--save")
        .arg(&prefix)
        .args(["--save-suffix", ".sav", "--with-solutions"])
        .stdin(Stdio::piped())
        .spawn()
        .expect("run sgt-inertia");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        writeln!(stdin, "{id}").expect("write the ID");
    }
    assert!(child.wait().expect("sgt-inertia").success());
    let save = std::fs::read_to_string(dir.join("sgt-0.sav")).expect("the save file");
    let line = save
        .lines()
        .find(|l| l.starts_with("SOLVE"))
        .expect("a SOLVE line");
    let moves = line.rsplit(':').next().expect("a value");
    moves
        .trim()
        .trim_start_matches('S')
        .bytes()
        .map(|b| usize::from(b - b'0'))
        .collect()
}
