//! `boardbot render`: draws a position with the project's own art, and
//! optionally the truth file the reader must reproduce. This is how the
//! recorded screenshots under `tests/fixtures/` are made. Troyis has its
//! own flags (skins, clouds, messages); other games draw through
//! [`crate::game::Game::render`].

use std::path::PathBuf;

use anyhow::{anyhow, bail};
use clap::Args as ClapArgs;
use serde_json::json;

use crate::art::render::RenderOptions;
use crate::games::troyis::board::Board;
use crate::games::troyis::render::{self, Skin, Style, palette};
use crate::vision::color::Rgb;

#[derive(ClapArgs)]
pub struct Args {
    /// The game: one with its own art (troyis, bitlock, rush, skiddy, continuity).
    #[arg(long, default_value = "troyis")]
    game: String,
    /// The position as text: rows joined by `/` (Troyis, B.i.t.Lock), 36 characters (Rush Hour).
    #[arg(long, required_unless_present = "level", default_value = "")]
    board: String,
    /// The position from a level file (B.i.t.Lock, Skiddy), instead of --board.
    #[arg(long, value_name = "FILE", conflicts_with = "board")]
    level: Option<PathBuf>,
    /// Where to write the PNG.
    #[arg(long, value_name = "OUT.png")]
    out: PathBuf,
    /// Cell pitch in pixels.
    #[arg(long, default_value_t = 45.0)]
    pitch: f64,
    /// Page margins around the board: LEFT,TOP,RIGHT,BOTTOM in pixels.
    #[arg(long, default_value = "4,4,4,4")]
    margins: String,
    /// Number of clouds drifting over the board.
    #[arg(long, default_value_t = 0)]
    clouds: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The colours of everything: classic (the original game) or ember
    /// (another look, to try `boardbot calibrate` on).
    #[arg(long, default_value = "classic")]
    skin: String,
    /// The knight cell's colour: blue, yellow, purple, red or #rrggbb (default: the skin's).
    #[arg(long)]
    knight_bg: Option<String>,
    /// Visited cells' tint: red, magenta, green or #rrggbb (default: the skin's).
    #[arg(long)]
    visited: Option<String>,
    /// Write this message across the board, as the game's end-of-level screens do.
    #[arg(long, value_name = "TEXT")]
    message: Option<String>,
    /// Darken everything, as behind the game's level splash.
    #[arg(long)]
    dim: bool,
    /// Also write the expected reading as JSON: state, cells, and the grid as [n, x0, x1, y0, y1].
    #[arg(long, value_name = "OUT.json")]
    expect: Option<PathBuf>,
    /// Draw this move part-way through its animation, MOVE@FRACTION (e.g. `B+2@0.5`, `L@0.3`).
    #[arg(long, value_name = "MOVE@F")]
    moving: Option<String>,
}

/// A colour by name (from the game's palette) or as `#rrggbb`.
fn colour(name: &str, what: &str) -> anyhow::Result<[u8; 3]> {
    palette::named(name)
        .or_else(|| {
            Rgb::parse_hex(name)
                .filter(|_| name.starts_with('#'))
                .map(Rgb::to_u8)
        })
        .ok_or_else(|| anyhow!("unknown {what} colour {name:?}; give a name or #rrggbb"))
}

/// The drawing style the arguments ask for, checked.
fn style(a: &Args) -> anyhow::Result<Style> {
    let [l, t, r, b] = margins(&a.margins)?;
    if !(4.0..=1000.0).contains(&a.pitch) {
        bail!("--pitch must be between 4 and 1000 pixels");
    }
    if a.clouds > 100 {
        bail!("--clouds must be at most 100");
    }
    let skin = Skin::named(&a.skin).ok_or_else(|| {
        anyhow!(
            "unknown skin {:?}; the skins are {}",
            a.skin,
            Skin::NAMES.join(", ")
        )
    })?;
    Ok(Style {
        margins: [l, t, r, b],
        knight_bg: match &a.knight_bg {
            Some(n) if n == "red" => palette::KNIGHT_RED,
            Some(n) => colour(n, "knight")?,
            None => skin.knight_bg,
        },
        visited: match &a.visited {
            Some(n) => colour(n, "visited")?,
            None => skin.visited,
        },
        skin,
        clouds: a.clouds,
        seed: a.seed,
        ..Style::new(a.pitch)
    })
}

/// Margins as LEFT,TOP,RIGHT,BOTTOM, checked.
fn margins(text: &str) -> anyhow::Result<[f64; 4]> {
    let m: Vec<f64> = text
        .split(',')
        .map(|v| v.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| anyhow!("--margins must be four numbers, LEFT,TOP,RIGHT,BOTTOM"))?;
    let [l, t, r, b] = m[..] else {
        bail!("--margins must be four numbers, LEFT,TOP,RIGHT,BOTTOM");
    };
    if m.iter().any(|v| !(0.0..=10_000.0).contains(v)) {
        bail!("--margins must each be between 0 and 10000 pixels");
    }
    Ok([l, t, r, b])
}

/// Any other game: its own art through the `Game` trait.
fn run_game(a: &Args, game: &dyn crate::game::Game) -> anyhow::Result<()> {
    let troyis_only = [
        ("--clouds", a.clouds != 0),
        ("--skin", a.skin != "classic"),
        ("--knight-bg", a.knight_bg.is_some()),
        ("--visited", a.visited.is_some()),
        ("--message", a.message.is_some()),
        ("--dim", a.dim),
    ];
    if let Some((flag, _)) = troyis_only.iter().find(|f| f.1) {
        bail!("{flag} is for troyis only");
    }
    if !(4.0..=1000.0).contains(&a.pitch) {
        bail!("--pitch must be between 4 and 1000 pixels");
    }
    let moving = match &a.moving {
        None => None,
        Some(m) => {
            let (mv, f) = m
                .rsplit_once('@')
                .ok_or_else(|| anyhow!("--moving must be MOVE@FRACTION, e.g. B+2@0.5"))?;
            let f: f64 = f
                .parse()
                .ok()
                .filter(|f| (0.0..=1.0).contains(f))
                .ok_or_else(|| anyhow!("--moving: the fraction must be between 0 and 1"))?;
            Some((mv.to_string(), f))
        }
    };
    let opts = crate::art::render::RenderOptions {
        pitch: a.pitch,
        margins: margins(&a.margins)?,
        seed: a.seed,
        moving,
        verdict: false,
    };
    let (text, origin) = match &a.level {
        Some(path) => (super::read_text(path)?, path.display().to_string()),
        None => (a.board.clone(), "--board".to_string()),
    };
    check_size(&a.pitch, |pitch| {
        let probe = RenderOptions {
            pitch,
            ..opts.clone()
        };
        game.render(&text, &origin, &probe)
            .map(|r| r.image.dimensions())
    })?;
    // Drawing never waits on a search: the picture is written first, and
    // only `--expect` judges the position.
    let out = game.render(&text, &origin, &opts)?;
    crate::files::write_png(&a.out, &out.image)?;
    if let Some(path) = &a.expect {
        eprintln!("Judging the position for {} (a search)…", path.display());
        let judged = RenderOptions {
            verdict: true,
            ..opts
        };
        let doc = game.render(&text, &origin, &judged)?.expect;
        let text = serde_json::to_string_pretty(&doc)? + "\n";
        crate::files::write_atomic(path, text.as_bytes())?;
    }
    Ok(())
}

/// The largest picture `render` writes: a side of 16,384 pixels, and
/// 64 million pixels in all (a screenshot is refused above 50 million).
const MAX_SIDE: f64 = 16_384.0;
const MAX_RENDER_PIXELS: f64 = 64_000_000.0;

/// Refuses a picture too large to write, before it is drawn: its size at
/// the asked pitch, from two small drawings (every game's picture grows
/// in step with the pitch).
fn check_size(
    pitch: &f64,
    draw: impl Fn(f64) -> Result<(u32, u32), crate::game::GameError>,
) -> anyhow::Result<()> {
    let (a, b) = (draw(4.0)?, draw(8.0)?);
    let at = |small: u32, big: u32| {
        let per = (f64::from(big) - f64::from(small)) / 4.0;
        f64::from(small) + per * (pitch - 4.0)
    };
    let (w, h) = (at(a.0, b.0), at(a.1, b.1));
    if w > MAX_SIDE || h > MAX_SIDE || w * h > MAX_RENDER_PIXELS {
        bail!(
            "the picture would be about {w:.0}×{h:.0} pixels, more than render writes \
             ({MAX_SIDE:.0} a side, {:.0} million in all): lower --pitch",
            MAX_RENDER_PIXELS / 1e6
        );
    }
    Ok(())
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let game = super::game(&a.game)?;
    if game.id() != "troyis" {
        return run_game(&a, game);
    }
    if a.moving.is_some() {
        bail!("--moving is not drawn for troyis");
    }
    if a.level.is_some() {
        bail!("--level is not read for troyis: give the board with --board");
    }
    let board = Board::parse(&a.board).map_err(|e| anyhow!("--board: {e}"))?;
    let style = style(&a)?;
    let [l, t, r, b] = style.margins;
    check_size(&a.pitch, |pitch| {
        let (w, h, _) = render::layout(
            board.rows(),
            board.cols(),
            &Style::new(pitch).with_margins(style.margins),
        );
        Ok((w, h))
    })?;
    let mut img = render::render(&board, &style);
    if a.dim {
        render::dim(&mut img);
    }
    if let Some(m) = &a.message {
        render::overlay_message(&mut img, m);
    }
    crate::files::write_png(&a.out, &img)?;
    if let Some(path) = &a.expect {
        let state = if a.dim {
            "no_board"
        } else if a.message.is_some() {
            "uncertain"
        } else {
            render::state_of(&board)
        };
        let state = serde_json::Value::from(state);
        let mut doc = render::expect(&board, &style, state);
        doc["render"] = json!({
            "pitch": a.pitch, "margins": [l, t, r, b], "clouds": a.clouds, "seed": a.seed,
            "knight_bg": a.knight_bg.as_deref().unwrap_or("blue"),
            "visited": a.visited.as_deref().unwrap_or("red"),
            "skin": a.skin, "message": a.message, "dim": a.dim,
        });
        let text = serde_json::to_string_pretty(&doc)? + "\n";
        crate::files::write_atomic(path, text.as_bytes())?;
    }
    Ok(())
}
