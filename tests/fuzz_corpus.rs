//! The fuzz targets' corpora, replayed on stable Rust: every input the
//! fuzzers kept (`fuzz/corpus/<target>/`) and every input that once made
//! one fail (`fuzz/regressions/<target>/`) goes through the same entry
//! point as in `fuzz/fuzz_targets/<target>.rs` ([`boardbot::fuzzing`]),
//! and must come back: no panic. `cargo +nightly fuzz run <target>` grows
//! a corpus; see docs/testing.md.
//!
//! `cargo test --test fuzz_corpus -- --ignored` writes the seed inputs the
//! corpora started from, from the project's own files and art.

use std::path::{Path, PathBuf};

use boardbot::fuzzing;

/// Runs one input through target `name`; false for an unknown target.
fn run(name: &str, data: &[u8]) -> bool {
    if let Some(game) = name.strip_prefix("text_") {
        fuzzing::text(game, data);
    } else if let Some(game) = name.strip_prefix("reader_") {
        fuzzing::reader(game, data);
    } else {
        match name {
            "calibration" => fuzzing::calibration(data),
            "session" => fuzzing::session(data),
            "batch" => fuzzing::batch(data),
            _ => return false,
        }
    }
    true
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz")
}

/// The files under `fuzz/<kind>/<target>/`, by target.
fn inputs(kind: &str) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    let Ok(targets) = std::fs::read_dir(root().join(kind)) else {
        return out;
    };
    for t in targets.flatten() {
        let name = t.file_name().to_string_lossy().into_owned();
        for f in std::fs::read_dir(t.path()).into_iter().flatten().flatten() {
            out.push((name.clone(), f.path()));
        }
    }
    out.sort();
    out
}

#[test]
fn every_kept_input_of_every_fuzz_target_runs_clean() {
    let targets: Vec<String> = std::fs::read_dir(root().join("fuzz_targets"))
        .expect("fuzz/fuzz_targets")
        .flatten()
        .map(|e| {
            e.file_name()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_string()
        })
        .collect();
    assert_eq!(targets.len(), 19, "{targets:?}");
    let mut per_target = std::collections::BTreeMap::new();
    for (name, path) in inputs("corpus").into_iter().chain(inputs("regressions")) {
        let data = std::fs::read(&path).expect("an input");
        assert!(
            run(&name, &data),
            "no fuzz target {name} for {}",
            path.display()
        );
        *per_target.entry(name).or_insert(0) += 1;
    }
    for t in &targets {
        assert!(
            per_target.get(t).is_some_and(|&n| n > 0),
            "the corpus of {t} is empty: run this test with --ignored to seed it"
        );
    }
    let total: usize = per_target.values().sum();
    println!(
        "replayed {total} inputs of {} fuzz targets",
        per_target.len()
    );
}

/// Writes `data` as a seed of `target`.
fn seed(target: &str, name: &str, data: &[u8]) {
    let dir = root().join("corpus").join(target);
    std::fs::create_dir_all(&dir).expect("corpus dir");
    std::fs::write(dir.join(name), data).expect("seed");
}

/// The seeds of the text targets: the project's own levels and boards.
fn text_seeds() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    for (i, l) in boardbot::games::continuity::levels::LEVELS
        .iter()
        .enumerate()
    {
        seed("text_continuity", &format!("level{i}"), l.1.as_bytes());
    }
    for (i, line) in boardbot::games::rush::boards::all()
        .iter()
        .take(20)
        .enumerate()
    {
        seed("text_rush", &format!("board{i}"), line.board.as_bytes());
        let batch = format!("{} {}\n# a comment\n\n", line.moves, line.board);
        seed("batch", &format!("line{i}"), batch.as_bytes());
    }
    for (i, l) in boardbot::games::klotski::levels::all().iter().enumerate() {
        seed(
            "text_klotski",
            &format!("level{i}"),
            l.layout().rows().join("\n").as_bytes(),
        );
    }
    for seed_n in 1..6 {
        if let Some(g) = boardbot::games::bitlock::generate::generate(seed_n) {
            seed("text_bitlock", &format!("gen{seed_n}"), g.text.as_bytes());
        }
        if let Some(s) = boardbot::games::skiddy::seeds::seeded(seed_n) {
            seed("text_skiddy", &format!("seed{seed_n}"), s.text.as_bytes());
        }
        let b = boardbot::games::troyis::levels::generate(5 + seed_n as usize, 10, seed_n);
        seed(
            "text_troyis",
            &format!("gen{seed_n}"),
            b.row_strings().join("/").as_bytes(),
        );
    }
    for (game, file) in [
        ("inertia", "inertia/ids.txt"),
        ("fifteen", "fifteen/ids.txt"),
    ] {
        let text = std::fs::read_to_string(fixtures.join(file)).expect("ids");
        for (i, id) in text.lines().filter(|l| !l.trim().is_empty()).enumerate() {
            seed(&format!("text_{game}"), &format!("id{i}"), id.as_bytes());
        }
    }
}

#[test]
#[ignore = "writes the seed corpora into fuzz/corpus"]
fn write_seed_corpora() {
    text_seeds();
    let project = Path::new(env!("CARGO_MANIFEST_DIR"));
    for e in std::fs::read_dir(project.join("calibration"))
        .expect("calibration/")
        .flatten()
    {
        let data = std::fs::read(e.path()).expect("a calibration");
        seed("calibration", &e.file_name().to_string_lossy(), &data);
    }
    let session = project.join("tests/fixtures/research/rush_session.json");
    seed(
        "session",
        "rush",
        &std::fs::read(session).expect("a session"),
    );
    // The readers: each art game drawn small, as `[width, height, pixels…]`.
    for g in fuzzing::GAMES {
        let Some(game) = fuzzing::game(g) else {
            continue;
        };
        let text = match g {
            "troyis" => "K.W.W/W.W.W/.W.W./W.W.W/.W.W.".to_string(),
            "rush" => boardbot::games::rush::boards::all()[0].board.clone(),
            "bitlock" => {
                boardbot::games::bitlock::generate::generate(2)
                    .expect("a level")
                    .text
            }
            "skiddy" => {
                boardbot::games::skiddy::seeds::seeded(2)
                    .expect("a level")
                    .text
            }
            "continuity" => boardbot::games::continuity::levels::LEVELS[0].1.to_string(),
            _ => String::new(),
        };
        let opts = boardbot::art::render::RenderOptions {
            pitch: 7.0,
            margins: [2.0; 4],
            seed: 1,
            moving: None,
            verdict: false,
        };
        let mut img = match game.render(&text, "seed", &opts) {
            Ok(r) => r.image,
            Err(_) => image::RgbImage::from_fn(24, 24, |x, y| {
                image::Rgb([(x * 10) as u8, (y * 10) as u8, 200])
            }),
        };
        if img.width() > 95 || img.height() > 95 {
            img = image::imageops::resize(
                &img,
                95.min(img.width()),
                95.min(img.height()),
                image::imageops::FilterType::Triangle,
            );
        }
        let mut data = vec![(img.width() - 1) as u8, (img.height() - 1) as u8];
        data.extend_from_slice(img.as_raw());
        seed(&format!("reader_{g}"), "drawn", &data);
        seed(&format!("reader_{g}"), "plain", &[7, 7, 200, 200, 200]);
    }
}
