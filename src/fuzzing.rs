//! The entry points of the fuzz targets (`fuzz/`, run with `cargo +nightly
//! fuzz`) and of the test that replays their corpora on stable
//! (`tests/fuzz_corpus.rs`). Each takes arbitrary bytes, as a hostile
//! user's file would be, and must return: no panic, no hang, no memory
//! without bound. What it returns is thrown away; only that it returns
//! counts.
//!
//! - [`text`]: a game's level, board or game-ID text, parsed into the
//!   game's rules (the engine built, no search);
//! - [`calibration`]: a calibration file (TOML) for a game;
//! - [`session`]: a practice session or record (JSON);
//! - [`batch`]: the lines of a batch file;
//! - [`reader`]: a game's reader over a small image made of the bytes.

use crate::game::Game;
use crate::tools::options::Options;

/// The games whose text is fuzzed, as the targets name them.
pub const GAMES: [&str; 8] = [
    "troyis",
    "bitlock",
    "rush",
    "skiddy",
    "inertia",
    "continuity",
    "fifteen",
    "klotski",
];

fn as_text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// Parses `data` as `game`'s text, as `--board` and `--level` would.
pub fn text(game: &str, data: &[u8]) {
    use crate::tools::TextPuzzle;
    let Some(t) = as_text(data) else { return };
    let opts = Options::default();
    match game {
        "troyis" => drop(crate::games::troyis::board::Board::parse(t)),
        "bitlock" => drop(crate::games::bitlock::load(
            &crate::games::bitlock::screen::board_text(t),
            "fuzz",
        )),
        "rush" => drop(crate::games::rush::board::Puzzle::parse(t)),
        "skiddy" => drop(crate::games::skiddy::Skiddy::new(t)),
        "inertia" => drop(crate::games::inertia::Board::new(t)),
        "continuity" => drop(crate::games::continuity::level::Level::parse(t)),
        "fifteen" => drop(crate::games::fifteen::level::parse(t)),
        "klotski" => drop(<crate::engines::blocks::rules::Blocks as TextPuzzle>::parse(t, &opts)),
        _ => {}
    }
}

/// Parses `data` as a calibration file of every game that reads
/// screenshots; a template it names is a small valid image.
pub fn calibration(data: &[u8]) {
    let Some(t) = as_text(data) else { return };
    for g in crate::games::REGISTRY {
        let parsed = crate::calibration::Calibration::parse(t, "fuzz.toml", g.id(), |_| {
            Ok(TEMPLATE_PNG.to_vec())
        });
        // A skin that parses is read with, whatever its numbers, and its
        // rules are taken as a game takes them.
        if let Ok(Some(skin)) = parsed.map(|c| c.params.skin) {
            let _ = crate::vision::skin::locate(&skin_picture(), &skin);
            let _ = crate::games::continuity::skin::jump_of(skin.rules.as_deref());
        }
    }
}

/// A small picture with cells in it, and grid lines between them (so
/// that a skin that starts from lines finds some), for a fuzzed skin to
/// look at.
fn skin_picture() -> image::RgbImage {
    image::RgbImage::from_fn(72, 56, |x, y| {
        let cell = (x / 16 + y / 16) % 3;
        match (x % 16, y % 16) {
            (0, _) | (_, 0) => image::Rgb([20, 20, 20]),
            _ => image::Rgb([40 + 80 * cell as u8, 200 - 60 * cell as u8, 90]),
        }
    })
}

/// A 4×4 PNG, what a fuzzed calibration's templates read as.
const TEMPLATE_PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x04, 0x08, 0x02, 0x00, 0x00, 0x00, 0x26, 0x93, 0x09,
    0x29, 0x00, 0x00, 0x00, 0x29, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x0d, 0xc7, 0x31, 0x01, 0x00,
    0x00, 0x0c, 0xc2, 0x30, 0x84, 0x55, 0x18, 0x67, 0x45, 0x21, 0x70, 0xcb, 0x97, 0x24, 0x12, 0x1b,
    0x17, 0x13, 0x04, 0x8b, 0xe3, 0x53, 0xa9, 0xad, 0xeb, 0x67, 0x32, 0x3b, 0x37, 0x0f, 0xa7, 0x63,
    0x13, 0x41, 0x36, 0x1d, 0x49, 0x3f, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42,
    0x60, 0x82,
];

/// Reads `data` as a practice session (the `--result` and `--record` file),
/// then traces its moves where it names a game.
pub fn session(data: &[u8]) {
    let Ok(s) = serde_json::from_slice::<crate::practice::Session>(data) else {
        return;
    };
    let _ = crate::games::find(&s.game).map(|g| g.id());
}

/// Reads `data` as the lines of a batch file, as `--batch` does (the
/// positions are parsed, none is solved).
pub fn batch(data: &[u8]) {
    let Some(t) = as_text(data) else { return };
    let mut src = crate::tools::BatchSource::from_text(t, "fuzz.txt");
    while let Some(Ok((_, line))) = src.next_content() {
        let mut parts = line.split_whitespace();
        if let (Some(n), Some(position)) = (parts.next(), parts.next()) {
            let _ = n.parse::<u64>();
            text("rush", position.as_bytes());
        }
    }
}

/// The largest side of a fuzzed image, in pixels.
const MAX_SIDE: u32 = 96;

/// An image made of `data`: its first two bytes are the width and height
/// (1 to [`MAX_SIDE`]), the rest its pixels, repeated to fill it.
pub fn image_of(data: &[u8]) -> Option<image::RgbImage> {
    let (&w, rest) = data.split_first()?;
    let (&h, pixels) = rest.split_first()?;
    let (w, h) = (u32::from(w) % MAX_SIDE + 1, u32::from(h) % MAX_SIDE + 1);
    if pixels.is_empty() {
        return None;
    }
    Some(image::RgbImage::from_fn(w, h, |x, y| {
        let i = ((y * w + x) * 3) as usize;
        image::Rgb([0, 1, 2].map(|k| pixels[(i + k) % pixels.len()]))
    }))
}

/// Reads an image made of `data` with `game`'s reader and its built-in
/// look, and plans from what it reads (as `solve --image` does).
pub fn reader(game: &str, data: &[u8]) {
    let Some(img) = image_of(data) else { return };
    let Some(screen) = crate::games::find(game).and_then(|g| g.screen()) else {
        return;
    };
    let Some(cal) = screen
        .looks()
        .first()
        .and_then(|e| crate::calibration::Calibration::embedded(e, game).ok())
    else {
        return;
    };
    let opts = Options {
        max_nodes: Some(10_000),
        max_memory: Some(crate::solve::Bytes(16 << 20)),
        progress: false,
        ..Options::default()
    };
    let _ = screen.solve_image(&img, &cal, &opts);
}

/// The game `id`, as the registry has it (for the targets' own checks).
pub fn game(id: &str) -> Option<&'static dyn Game> {
    crate::games::find(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_template_of_a_fuzzed_calibration_is_an_image() {
        let img = crate::vision::image_file::decode(TEMPLATE_PNG, "t").unwrap();
        assert_eq!(img.dimensions(), (4, 4));
    }

    #[test]
    fn every_entry_takes_any_bytes() {
        for g in GAMES {
            text(g, b"");
            text(g, b"K.W/W..");
            reader(g, &[3, 3, 255, 0, 0]);
        }
        calibration(
            b"game = 'troyis'\n[[class]]\nletter='K'\nname='k'\ncolors=['#ffffff']\ntolerance=1\n",
        );
        session(br#"{"solved":true,"moves":1,"log":[],"game":"rush"}"#);
        batch(b"3 AAoooo\n# x\n\nbad");
        assert!(image_of(&[0, 0]).is_none());
        assert_eq!(image_of(&[0, 0, 9]).unwrap().dimensions(), (1, 1));
    }
}
