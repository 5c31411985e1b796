//! Screenshots are opened by their content, not their name, and a path
//! that is not a readable image gets a message that says what it is.

mod common;

use common::{boardbot, fixtures};

fn solve(path: &std::path::Path) -> std::process::Output {
    boardbot(&[
        "solve",
        "--game",
        "troyis",
        "--image",
        path.to_str().unwrap(),
        "--json",
    ])
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_png_named_otherwise_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let shot = dir.path().join("shot.jpeg");
    std::fs::copy(fixtures("troyis").join("k16_p26.png"), &shot).unwrap();
    let out = solve(&shot);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn a_folder_or_a_text_file_is_named_for_what_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let out = solve(dir.path());
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("is a folder, not an image file"), "{err}");
    let text = dir.path().join("board.png");
    std::fs::write(&text, "KW.W/.WW.\n").unwrap();
    let out = solve(&text);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("not PNG") && err.contains("looks like text"),
        "{err}"
    );
}
