//! A built-in look that is a skin is what `boardbot calibrate` learns from
//! boardbot's own art, so the built-in look and a user's are read by one
//! path. Each test draws its game's lessons with `boardbot render`, teaches
//! them with `boardbot calibrate`, and checks that the file written is the
//! one in `calibration/`, byte for byte past its opening comments.
//!
//! After a change to the art or the learner, write the files again with
//! `BOARDBOT_BLESS=1 cargo test --release --test builtin_looks`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// What a built-in look is taught: positions in the game's own level text,
/// each with the move played onto it before the screenshot (`""` for
/// none; one move, as `render --moving` draws one), drawn at every pitch
/// with a margin round the board.
struct Lesson {
    game: &'static str,
    levels: &'static [(&'static str, &'static str)],
    pitches: &'static [u32],
    margin: u32,
}

/// Rush Hour: five boards that between them show every vehicle colour of
/// the art in every part (ends and middles, both ways round) and a wall,
/// at 24, 48 and 96 px a cell.
const RUSH: Lesson = Lesson {
    game: "rush",
    levels: &[
        ("BBBxooHDDEEEHAAooMIoKFFMIJKLoMoJKLGG", ""),
        ("BBBGHIooFGHIAAFGHJECCCoJEoDDoJoooooo", ""),
        ("BBJCCCDDJoooIAAKooIooKEEIFFFoLGGHHHL", ""),
        ("ooxJCCooIJooAAIKoLDDDKoLoHEEoLxHGGoo", ""),
        ("GGGoBoooCoBoAACooxoDDDooEooFFoEoHHHo", ""),
    ],
    pitches: &[24, 48, 96],
    margin: 8,
};

/// Skiddy: a level without glue and two with, that between them show every
/// kind of cell, and each colour of skiddy joined to its own on every side
/// (a plus and a square, or a line and a corner, in the sticky ones); and
/// every kind of piece sunk in a pit, alone and joined.
const SKIDDY: Lesson = Lesson {
    game: "skiddy",
    levels: &[
        (
            "sticky: no\n##R##B#####\n#r..b..g..#\nG.ci.o..r.Y\n#y.#..rr..#\n#.bb..i.y.#\n#..c.yg.y.#\n###G#######",
            "",
        ),
        (
            "#####R#####\n#.r...b...#\n#rrr.bbb..#\nG.r...b..cB\n#.........#\n#gg...yy.i#\n#gg...yy..#\nY.......o.#\n#...#.....#\n###########",
            "",
        ),
        (
            "#####G#####\n#.g...y...#\n#ggg.yyy..#\nY.g...y..cB\n#.........#\n#rrr..bb.i#\n#..r..b...#\nR.......o.#\n#.#.......#\n###########",
            "",
        ),
        // One move sinks every kind of piece in a pit, which no level
        // text can write.
        (
            "sticky: no\n###R#B####\n#r..o....#\n#b..o....G\n#g..o....#\n#y..o....Y\n#.rco....#\n#i..o....#\n##########",
            "R",
        ),
        // And one joined to its own, across and down, in a sticky level.
        (
            "#####R#B###\n#r..o.....#\n#r........#\n#b..o.....#\n#b........#\n#gg.o.....G\n#yy.o.....Y\n#rr.o.....#\n#bb.o.....#\n#g..o.....#\n#g........#\n#y..o.....#\n#y........#\n###########",
            "R",
        ),
    ],
    pitches: &[24, 48, 96],
    margin: 8,
};

#[test]
fn rush_s_built_in_look_is_what_calibrate_learns_from_its_art() {
    check(&RUSH);
}

#[test]
fn skiddy_s_built_in_look_is_what_calibrate_learns_from_its_art() {
    check(&SKIDDY);
}

fn boardbot(dir: &Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_boardbot"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run boardbot");
    assert!(
        out.status.success(),
        "boardbot {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Draws the lessons into `dir` and teaches them; the file written.
fn learn(l: &Lesson, dir: &Path) -> PathBuf {
    let mut args: Vec<String> = ["calibrate", "--game", l.game, "--out", "look"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let m = l.margin.to_string();
    let margins = [m.as_str(); 4].join(",");
    let any_moves = l.levels.iter().any(|(_, m)| !m.is_empty());
    for (i, (text, moves)) in l.levels.iter().enumerate() {
        let level = format!("l{}.txt", i + 1);
        std::fs::write(dir.join(&level), format!("{text}\n")).unwrap();
        for p in l.pitches {
            let shot = format!("l{}_{p}.png", i + 1);
            let pitch = p.to_string();
            let mut render = vec![
                "render",
                "--game",
                l.game,
                "--level",
                &level,
                "--pitch",
                &pitch,
                "--margins",
                &margins,
                "--out",
                &shot,
            ];
            let moving = format!("{moves}@1");
            if !moves.is_empty() {
                render.extend(["--moving", &moving]);
            }
            boardbot(dir, &render);
            args.extend(["--image".into(), shot, "--level".into(), level.clone()]);
            if any_moves {
                let m = if moves.is_empty() { "-" } else { moves };
                args.extend(["--moves".into(), m.to_string()]);
            }
        }
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    boardbot(dir, &args);
    dir.join("look").join(format!("{}.toml", l.game))
}

/// The file from its first setting on: what the learner decides.
fn body(text: &str) -> &str {
    let start = text
        .split_inclusive('\n')
        .take_while(|l| l.starts_with('#') || l.trim().is_empty())
        .map(str::len)
        .sum::<usize>();
    &text[start..]
}

/// The file's opening comments, which say what it is.
fn head(text: &str) -> &str {
    &text[..text.len() - body(text).len()]
}

fn check(l: &Lesson) {
    let dir = tempfile::tempdir().unwrap();
    let learned = std::fs::read_to_string(learn(l, dir.path())).unwrap();
    let shipped_path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("calibration")
        .join(format!("{}.toml", l.game));
    let shipped = std::fs::read_to_string(&shipped_path)
        .unwrap_or_else(|e| panic!("{}: {e}", shipped_path.display()));
    if std::env::var("BOARDBOT_BLESS").is_ok_and(|v| v == "1") {
        let text = format!("{}{}", head(&shipped), body(&learned));
        std::fs::write(&shipped_path, text).unwrap();
        return;
    }
    if let Some((n, (a, b))) = (body(&shipped).lines().zip(body(&learned).lines()))
        .enumerate()
        .find(|(_, (a, b))| a != b)
    {
        panic!(
            "{} is not what `boardbot calibrate` learns from the art today (line {} of its settings: {a:.80} against {b:.80}): run `BOARDBOT_BLESS=1 cargo test --release --test builtin_looks` to write it again, and run the game's recorded tests",
            shipped_path.display(),
            n + 1
        );
    }
    assert_eq!(
        body(&shipped),
        body(&learned),
        "{} ends differently from what calibrate learns today: BOARDBOT_BLESS=1 writes it again",
        shipped_path.display()
    );
}

#[test]
fn the_body_starts_at_the_first_setting() {
    let text = "# a note\n#\n\ngame = \"rush\"\n# kept\nx = 1\n";
    assert_eq!(body(text), "game = \"rush\"\n# kept\nx = 1\n");
    assert_eq!(head(text), "# a note\n#\n\n");
    let crlf = "# a note\r\n\r\ngame = 1\r\n";
    assert_eq!(body(crlf), "game = 1\r\n");
    assert_eq!(body("# only a note\n"), "");
}
