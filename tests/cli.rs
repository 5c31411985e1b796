//! The command line as a user meets it: exit codes, messages that say what
//! is wrong and where, and no panics on bad input.

mod common;

use common::{boardbot, fixtures, stdout_json};

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn assert_clean_error(out: &std::process::Output, needles: &[&str]) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "stderr: {err}");
    assert!(!err.contains("panicked"), "{err}");
    for n in needles {
        assert!(err.contains(n), "{n:?} not in: {err}");
    }
}

#[test]
fn solves_a_text_board() {
    let out = boardbot(&[
        "solve",
        "--game",
        "troyis",
        "--board",
        "KW.W/.WW./W.W./W...",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v = stdout_json(&out);
    assert_eq!(v["state"], "playable");
    assert_eq!(v["plan"]["moves"], 7);
    assert_eq!(v["plan"]["hamiltonian"], true);
    assert!(
        v.get("actions").is_none(),
        "a text board has nothing to click on"
    );
    let text = boardbot(&[
        "solve",
        "--game",
        "troyis",
        "--board",
        "KW.W/.WW./W.W./W...",
    ]);
    let s = String::from_utf8_lossy(&text.stdout);
    assert!(
        s.contains("Plan: 7 moves") && s.contains("(0,0) → (1,2)"),
        "{s}"
    );
}

#[test]
fn unreachable_targets_exit_3_and_are_named() {
    let out = boardbot(&[
        "solve",
        "--game",
        "troyis",
        "--board",
        "K.W/.../W.W",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(3));
    let v = stdout_json(&out);
    assert_eq!(v["state"], "unsolvable");
    assert!(
        v["reason"].as_str().unwrap().contains("(0,2)"),
        "{}",
        v["reason"]
    );
}

#[test]
fn bad_boards_say_where() {
    let out = boardbot(&["solve", "--game", "troyis", "--board", "KW/WX"]);
    assert_clean_error(&out, &["--board", "row 2, column 2", "'X'"]);
    let out = boardbot(&["solve", "--game", "troyis", "--board", "KW/W"]);
    assert_clean_error(&out, &["row 2 has 1 cells"]);
}

#[test]
fn usage_errors_exit_2() {
    assert_clean_error(
        &boardbot(&["solve", "--game", "chess", "--board", "K"]),
        &["unknown game", "troyis"],
    );
    assert_clean_error(
        &boardbot(&["solve", "--game", "troyis"]),
        &["--image", "--board"],
    );
    assert_eq!(boardbot(&["solve"]).status.code(), Some(2));
    assert_eq!(boardbot(&["frobnicate"]).status.code(), Some(2));
}

#[test]
fn missing_and_corrupt_images_are_file_errors() {
    assert_clean_error(
        &boardbot(&[
            "solve",
            "--game",
            "troyis",
            "--image",
            "/nonexistent/board.png",
        ]),
        &["cannot read the image /nonexistent/board.png"],
    );
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("corrupt.png");
    std::fs::write(&bad, b"\x89PNG\r\n\x1a\nthis is not really a png").unwrap();
    assert_clean_error(
        &boardbot(&[
            "solve",
            "--game",
            "troyis",
            "--image",
            bad.to_str().unwrap(),
        ]),
        &["cannot read the image", "corrupt.png"],
    );
}

#[test]
fn broken_calibrations_name_the_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let img = fixtures("troyis").join("k5_p24_clouds.png");
    let cal = dir.path().join("troyis.toml");
    let good = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/calibration/troyis.toml"
    ))
    .unwrap();

    std::fs::write(&cal, good.replace("#e1e1fa", "#e1e1f")).unwrap();
    let line = good.lines().position(|l| l.contains("#e1e1fa")).unwrap() + 1;
    assert_clean_error(
        &boardbot(&[
            "solve",
            "--game",
            "troyis",
            "--image",
            img.to_str().unwrap(),
            "--calibration",
            cal.to_str().unwrap(),
        ]),
        &["troyis.toml", &format!("line {line}"), "#e1e1f"],
    );

    std::fs::write(&cal, good.replace("[cells]", "[cells")).unwrap();
    assert_clean_error(
        &boardbot(&[
            "solve",
            "--game",
            "troyis",
            "--image",
            img.to_str().unwrap(),
            "--calibration",
            cal.to_str().unwrap(),
        ]),
        &["troyis.toml", "line"],
    );

    std::fs::write(&cal, good.replace("game = \"troyis\"", "game = \"rush\"")).unwrap();
    assert_clean_error(
        &boardbot(&[
            "solve",
            "--game",
            "troyis",
            "--image",
            img.to_str().unwrap(),
            "--calibration",
            cal.to_str().unwrap(),
        ]),
        &["for the game \"rush\""],
    );

    // Template paths are relative to the file; a copy elsewhere must say which template is missing.
    std::fs::write(&cal, &good).unwrap();
    assert_clean_error(
        &boardbot(&[
            "solve",
            "--game",
            "troyis",
            "--image",
            img.to_str().unwrap(),
            "--calibration",
            cal.to_str().unwrap(),
        ]),
        &["knight.png"],
    );

    // A calibration that reads no cell: the reader refuses, it does not guess.
    let blind = good
        .replace("#e1e1fa", "#00ff00")
        .replace("#f0f0fa", "#00ff00")
        .replace(
            "\"../templates/troyis/knight.png\"",
            &format!(
                "{:?}",
                concat!(env!("CARGO_MANIFEST_DIR"), "/templates/troyis/knight.png")
            ),
        );
    std::fs::write(&cal, blind).unwrap();
    let out = boardbot(&[
        "solve",
        "--game",
        "troyis",
        "--image",
        img.to_str().unwrap(),
        "--calibration",
        cal.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(stdout_json(&out)["actions"], serde_json::json!([]));
}

#[test]
fn lists_games() {
    let out = boardbot(&["games"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("troyis"));
}
