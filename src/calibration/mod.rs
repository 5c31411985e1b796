//! A game's visual model, loaded from `calibration/<game>.toml`: the
//! lattice's limits, how cells are sampled, the colour of each cell class
//! and the templates of pieces drawn over cells. Loading fills a
//! [`ReadParams`], which vision owns; this module only knows the file
//! format, where the files live, and which one to use ([`resolve`]).
//!
//! The project's own files are compiled into the binary, so boardbot works
//! from any directory. `boardbot calibrate` writes a user's own file into
//! the config directory ([`user_dir`]); `--calibration FILE` names another.
//! Template paths in a file are relative to that file. [`save`] writes a
//! calibration back out.

pub mod save;

use std::path::{Component, Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use crate::vision::cells::SampleParams;
use crate::vision::color::{ColorClass, Rgb};
use crate::vision::lattice::LatticeParams;
use crate::vision::params::{Marker, ReadParams};
use crate::vision::template::Template;

/// A calibration file with the files it refers to, compiled into the binary.
pub struct Embedded {
    /// Path from the project root, for messages and relative lookups.
    pub path: &'static str,
    pub text: &'static str,
    /// `(path from the project root, bytes)` of every file it refers to.
    pub files: &'static [(&'static str, &'static [u8])],
}

/// A look the project ships, compiled in from the project's files:
/// `builtin_look!("calibration/troyis.toml", "templates/troyis/knight.png")`
/// names the calibration file, then every file it refers to.
#[macro_export]
macro_rules! builtin_look {
    ($path:literal $(, $file:literal)* $(,)?) => {
        $crate::calibration::Embedded {
            path: $path,
            text: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/", $path)),
            files: &[$((
                $file,
                include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/", $file)),
            )),*],
        }
    };
}

#[derive(Debug, thiserror::Error)]
pub enum CalibrationError {
    /// Not a file, too large, or unreadable.
    #[error(transparent)]
    File(#[from] crate::files::FileError),
    #[error("{path}: {message}")]
    Syntax { path: String, message: String },
    #[error("{path}, line {line}: {message}")]
    Invalid {
        path: String,
        line: usize,
        message: String,
    },
    #[error(
        "{path}: this calibration is for the game {found:?}, not {expected:?}; pass the file made for {expected:?}"
    )]
    WrongGame {
        path: String,
        found: String,
        expected: String,
    },
    #[error("{game} cannot read screenshots yet: it has no calibration")]
    Missing { game: String },
}

/// Where a calibration came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// Compiled into the binary.
    BuiltIn,
    /// The user's own, in the config directory (from `boardbot calibrate`).
    User(PathBuf),
    /// Named on the command line.
    Explicit(PathBuf),
}

/// A loaded, checked calibration: the reading parameters and where they
/// came from.
#[derive(Clone, Debug)]
pub struct Calibration {
    /// Where it came from, for messages.
    pub origin: String,
    pub source: Source,
    pub game: String,
    pub params: ReadParams,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileModel {
    game: String,
    #[serde(default)]
    lattice: LatticeSection,
    #[serde(default)]
    cells: CellsSection,
    #[serde(default, rename = "class")]
    classes: Vec<ClassSection>,
    #[serde(default, rename = "marker")]
    markers: Vec<MarkerSection>,
    skin: Option<Spanned<SkinSection>>,
}

/// The longest `rules` a `[skin]` may have, in bytes: a line of a level's
/// headers.
const MAX_RULES: usize = 200;

/// `[skin]`: a look learned from labelled screenshots.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SkinSection {
    weights: Vec<f32>,
    aspect: f64,
    min_pitch: f64,
    max_pitch: f64,
    outside: Vec<Spanned<String>>,
    reach: f64,
    /// For a board of slots: cells a slot side, and the gaps' width and
    /// height in pitches.
    #[serde(default)]
    gaps: Option<GapsSection>,
    /// What the taught positions say that no cell shows, in the game's
    /// level text.
    #[serde(default)]
    rules: Option<String>,
    /// Where the lattice lies from the grid lines the taught shots showed,
    /// in pitches.
    #[serde(default)]
    lines: Option<LinesSection>,
    #[serde(rename = "look")]
    looks: Vec<Spanned<LookSection>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GapsSection {
    every: usize,
    x: f64,
    y: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LinesSection {
    x: f64,
    y: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LookSection {
    label: String,
    tolerance: f32,
    /// The look's boxes as hex bytes, row-major, three a box.
    cells: Spanned<String>,
    /// Per value of `cells`, the farthest a taught sample strayed, as hex
    /// bytes (absent in skins taught before they were kept).
    #[serde(default)]
    limits: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, default)]
struct LatticeSection {
    min_cells: usize,
    max_cells: usize,
    min_pitch: f64,
    max_pitch: f64,
    edge_threshold: u8,
    square_cells: bool,
    square_board: bool,
}

impl Default for LatticeSection {
    fn default() -> Self {
        let d = LatticeParams::default();
        LatticeSection {
            min_cells: d.min_cells,
            max_cells: d.max_cells,
            min_pitch: d.min_pitch,
            max_pitch: d.max_pitch,
            edge_threshold: d.edge_threshold,
            square_cells: d.square_cells,
            square_board: d.square_board,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, default)]
struct CellsSection {
    inset: f64,
    percentile: f32,
    sharp_step: u8,
    max_plain_marks: f32,
    min_confidence: f32,
    haze_color: Option<Spanned<String>>,
    max_haze: f32,
}

impl Default for CellsSection {
    fn default() -> Self {
        let d = SampleParams::default();
        CellsSection {
            inset: d.inset,
            percentile: d.percentile,
            sharp_step: d.sharp_step,
            max_plain_marks: 0.6,
            min_confidence: 0.6,
            haze_color: None,
            max_haze: 0.0,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClassSection {
    letter: Spanned<String>,
    name: String,
    colors: Vec<Spanned<String>>,
    tolerance: f32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MarkerSection {
    letter: Spanned<String>,
    name: String,
    template: Spanned<String>,
    min_score: f32,
    #[serde(default)]
    mirror: bool,
}

fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())]
        .bytes()
        .filter(|&b| b == b'\n')
        .count()
        + 1
}

/// Joins `rel` to `base` and removes `.` and `..` without touching the disk.
fn join_lexically(base: &Path, rel: &str) -> PathBuf {
    let mut out = PathBuf::new();
    for comp in base.join(rel).components() {
        match comp {
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The text being parsed, to turn a span or a section into an error with
/// the file and line.
struct Ctx<'a> {
    text: &'a str,
    origin: &'a str,
}

impl Ctx<'_> {
    fn invalid(&self, span: std::ops::Range<usize>, message: String) -> CalibrationError {
        CalibrationError::Invalid {
            path: self.origin.to_string(),
            line: line_of(self.text, span.start),
            message,
        }
    }

    /// An error on the line of a section header, such as `[cells]`.
    fn in_section(&self, section: &str, message: String) -> CalibrationError {
        let line = self
            .text
            .lines()
            .position(|s| s.trim() == section)
            .map_or(1, |i| i + 1);
        CalibrationError::Invalid {
            path: self.origin.to_string(),
            line,
            message,
        }
    }

    fn check(&self, ok: bool, section: &str, message: &str) -> Result<(), CalibrationError> {
        if ok {
            Ok(())
        } else {
            Err(self.in_section(section, message.to_string()))
        }
    }

    fn letter(&self, s: &Spanned<String>) -> Result<char, CalibrationError> {
        let mut chars = s.get_ref().chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) if !c.is_whitespace() => Ok(c),
            _ => Err(self.invalid(
                s.span(),
                format!("a letter must be one character, not {:?}", s.get_ref()),
            )),
        }
    }

    fn color(&self, s: &Spanned<String>) -> Result<Rgb, CalibrationError> {
        Rgb::parse_hex(s.get_ref()).ok_or_else(|| {
            self.invalid(
                s.span(),
                format!("{:?} is not a colour; write it as \"#rrggbb\"", s.get_ref()),
            )
        })
    }
}

/// `[lattice]`: the limits of the grid to look for.
fn lattice_section(l: &LatticeSection, ctx: &Ctx) -> Result<LatticeParams, CalibrationError> {
    ctx.check(
        l.min_cells >= 1
            && l.min_cells <= l.max_cells
            && l.min_pitch.is_finite()
            && l.max_pitch.is_finite()
            && l.min_pitch > 0.0
            && l.min_pitch <= l.max_pitch,
        "[lattice]",
        "[lattice] needs 1 <= min_cells <= max_cells and 0 < min_pitch <= max_pitch (finite)",
    )?;
    Ok(LatticeParams {
        min_cells: l.min_cells,
        max_cells: l.max_cells,
        min_pitch: l.min_pitch,
        max_pitch: l.max_pitch,
        edge_threshold: l.edge_threshold,
        square_cells: l.square_cells,
        square_board: l.square_board,
    })
}

/// `[cells]`: sampling, thresholds, and the haze every class may be seen through.
struct CellsParams {
    sample: SampleParams,
    max_plain_marks: f32,
    min_confidence: f32,
    haze: Option<(Rgb, f32)>,
}

fn cells_section(c: &CellsSection, ctx: &Ctx) -> Result<CellsParams, CalibrationError> {
    ctx.check(
        (0.0..0.5).contains(&c.inset) && (0.0..=1.0).contains(&c.percentile),
        "[cells]",
        "[cells] needs 0 <= inset < 0.5 and 0 <= percentile <= 1",
    )?;
    // A zero threshold would let the reader act on cells that match nothing.
    ctx.check(
        c.min_confidence > 0.0
            && c.min_confidence <= 1.0
            && c.max_plain_marks.is_finite()
            && c.max_plain_marks >= 0.0,
        "[cells]",
        "[cells] needs 0 < min_confidence <= 1 and max_plain_marks >= 0",
    )?;
    ctx.check(
        (0.0..=1.0).contains(&c.max_haze),
        "[cells]",
        "[cells] needs 0 <= max_haze <= 1",
    )?;
    let haze = match &c.haze_color {
        Some(h) => Some((ctx.color(h)?, c.max_haze)),
        None => None,
    };
    Ok(CellsParams {
        sample: SampleParams {
            inset: c.inset,
            percentile: c.percentile,
            sharp_step: c.sharp_step,
        },
        max_plain_marks: c.max_plain_marks,
        min_confidence: c.min_confidence,
        haze,
    })
}

/// `[[class]]`: the cell colours.
fn class_sections(
    sections: &[ClassSection],
    haze: Option<(Rgb, f32)>,
    ctx: &Ctx,
) -> Result<Vec<ColorClass>, CalibrationError> {
    let mut classes = Vec::new();
    for c in sections {
        let stops = c
            .colors
            .iter()
            .map(|col| ctx.color(col))
            .collect::<Result<Vec<_>, _>>()?;
        let problem = if stops.is_empty() {
            Some("lists no colours")
        } else if !c.tolerance.is_finite() || c.tolerance <= 0.0 {
            Some("needs a finite tolerance above 0")
        } else {
            None
        };
        if let Some(p) = problem {
            return Err(ctx.invalid(c.letter.span(), format!("class {:?} {p}", c.name)));
        }
        classes.push(ColorClass {
            letter: ctx.letter(&c.letter)?,
            name: c.name.clone(),
            stops,
            tolerance: c.tolerance,
            haze,
        });
    }
    Ok(classes)
}

/// `[[marker]]`: the pieces, each with its template image.
fn marker_sections(
    sections: &[MarkerSection],
    fetch: &dyn Fn(&str) -> Result<Vec<u8>, String>,
    ctx: &Ctx,
) -> Result<Vec<Marker>, CalibrationError> {
    let mut markers = Vec::new();
    for m in sections {
        ctx.check(
            (-1.0..=1.0).contains(&m.min_score),
            "[[marker]]",
            &format!(
                "marker {:?} needs -1 <= min_score <= 1 (a correlation)",
                m.name
            ),
        )?;
        let t = m.template.get_ref();
        let at = |message: String| ctx.invalid(m.template.span(), message);
        let bytes = fetch(t).map_err(|e| at(format!("template {t:?}: {e}")))?;
        // Checked from its header, as any image boardbot reads.
        let img = crate::vision::image_file::decode(&bytes, t)
            .map_err(|e| at(format!("template {t:?} is not a readable image: {e}")))?;
        let template = Template::from_image(&img, m.mirror)
            .ok_or_else(|| at(format!("template {t:?} is a flat image")))?;
        markers.push(Marker {
            letter: ctx.letter(&m.letter)?,
            name: m.name.clone(),
            template,
            min_score: m.min_score,
        });
    }
    Ok(markers)
}

impl Calibration {
    /// Loads the calibration compiled into the binary.
    pub fn embedded(e: &Embedded, game: &str) -> Result<Calibration, CalibrationError> {
        let origin = format!("{} (built in)", e.path);
        let dir = Path::new(e.path).parent().unwrap_or(Path::new(""));
        Self::parse(e.text, &origin, game, |rel| {
            let want = join_lexically(dir, rel);
            e.files
                .iter()
                .find(|(p, _)| Path::new(p) == want)
                .map(|(_, b)| b.to_vec())
                .ok_or_else(|| format!("{} is not among the built-in files", want.display()))
        })
    }

    /// Loads a calibration file from disk.
    /// Loads the user's own file (from [`user_file`]), marked as theirs.
    pub fn load_user(path: &Path, game: &str) -> Result<Calibration, CalibrationError> {
        let mut c = Calibration::load(path, game)?;
        c.source = Source::User(path.to_path_buf());
        Ok(c)
    }

    pub fn load(path: &Path, game: &str) -> Result<Calibration, CalibrationError> {
        let origin = path.display().to_string();
        let text = crate::files::read_text(path, crate::files::Limit::Calibration)?;
        let dir = path.parent().unwrap_or(Path::new(""));
        let mut cal = Self::parse(&text, &origin, game, |rel| {
            crate::files::read_bytes(&dir.join(rel), crate::files::Limit::Template)
                .map_err(|e| e.to_string())
        })?;
        cal.source = Source::Explicit(path.to_path_buf());
        Ok(cal)
    }

    /// Parses calibration text, one section at a time; `fetch` reads a
    /// file named relative to it. The source is [`Source::BuiltIn`] until
    /// the caller says otherwise.
    pub fn parse(
        text: &str,
        origin: &str,
        game: &str,
        fetch: impl Fn(&str) -> Result<Vec<u8>, String>,
    ) -> Result<Calibration, CalibrationError> {
        let file: FileModel = toml::from_str(text).map_err(|e| CalibrationError::Syntax {
            path: origin.to_string(),
            message: e.to_string().trim_end().to_string(),
        })?;
        if file.game != game {
            return Err(CalibrationError::WrongGame {
                path: origin.to_string(),
                found: file.game,
                expected: game.to_string(),
            });
        }
        let ctx = Ctx { text, origin };
        let lattice = lattice_section(&file.lattice, &ctx)?;
        let cells = cells_section(&file.cells, &ctx)?;
        let classes = class_sections(&file.classes, cells.haze, &ctx)?;
        let markers = marker_sections(&file.markers, &fetch, &ctx)?;
        let skin = match &file.skin {
            Some(sk) => Some(skin_section(sk, &ctx)?),
            None => None,
        };
        if skin.is_none() && classes.is_empty() {
            return Err(CalibrationError::Invalid {
                path: origin.to_string(),
                line: 1,
                message: "no [[class]] sections and no [skin]: list at least one cell colour, or learn a skin with `boardbot calibrate`".into(),
            });
        }
        Ok(Calibration {
            origin: origin.to_string(),
            source: Source::BuiltIn,
            game: file.game,
            params: ReadParams {
                lattice,
                sample: cells.sample,
                max_plain_marks: cells.max_plain_marks,
                min_confidence: cells.min_confidence,
                classes,
                markers,
                skin,
            },
        })
    }
}

/// `[skin]`, checked: every look whole, every number in range.
fn skin_section(
    sk: &Spanned<SkinSection>,
    ctx: &Ctx,
) -> Result<crate::vision::skin::Skin, CalibrationError> {
    use crate::vision::skin::{Skin, descriptor};
    let s = sk.get_ref();
    let sane = s.aspect.is_finite()
        && (0.1..=10.0).contains(&s.aspect)
        && s.min_pitch.is_finite()
        && s.max_pitch.is_finite()
        && s.min_pitch >= 4.0
        && s.min_pitch <= s.max_pitch
        && s.reach.is_finite()
        && (0.0..=0.5).contains(&s.reach)
        && s.weights.len() == descriptor::LEN
        && s.weights.iter().all(|w| w.is_finite() && *w >= 0.0)
        && s.weights.iter().any(|w| *w > 0.0)
        && s.gaps.as_ref().is_none_or(|g| {
            let width = |v: f64| crate::vision::skin::grid::GAP_WIDTHS.contains(&v);
            (1..=64).contains(&g.every) && width(g.x) && width(g.y)
        })
        && s.rules
            .as_ref()
            .is_none_or(|r| r.len() <= MAX_RULES && !r.contains('\n'))
        && s.lines
            .as_ref()
            .is_none_or(|l| [l.x, l.y].iter().all(|v| (-0.5..=0.5).contains(v)));
    if !sane {
        return Err(ctx.invalid(
            sk.span(),
            format!("[skin] needs 0.1 <= aspect <= 10, 4 <= min_pitch <= max_pitch, 0 <= reach <= 0.5, {} weights of 0 or more, gaps (if any) every 1 to 64 cells, 0.05 to 10 pitches wide, lines (if any) at x and y from -0.5 to 0.5, and rules (if any) of one line of at most {MAX_RULES} bytes", descriptor::LEN),
        ));
    }
    let outside = s
        .outside
        .iter()
        .map(|c| ctx.color(c).map(|rgb| rgb.to_u8()))
        .collect::<Result<Vec<_>, _>>()?;
    let mut looks = Vec::new();
    for l in &s.looks {
        looks.push(look(ctx, l)?);
    }
    if looks.is_empty() {
        return Err(ctx.invalid(sk.span(), "[skin] has no [[skin.look]]".into()));
    }
    Ok(Skin {
        looks,
        weights: s.weights.clone(),
        aspect: s.aspect,
        outside,
        reach: s.reach,
        min_pitch: s.min_pitch,
        max_pitch: s.max_pitch,
        gaps: s.gaps.as_ref().map(|g| crate::vision::skin::Gaps {
            every: g.every,
            x: g.x,
            y: g.y,
        }),
        rules: s.rules.clone(),
        lines: s
            .lines
            .as_ref()
            .map(|l| crate::vision::skin::lines::Lines { x: l.x, y: l.y }),
        memo: Default::default(),
    })
}

/// One `[[skin.look]]`; a bad `cells` or `limits` names its own line.
fn look(
    ctx: &Ctx<'_>,
    l: &Spanned<LookSection>,
) -> Result<crate::vision::skin::Look, CalibrationError> {
    use crate::vision::skin::{Look, descriptor};
    let look = l.get_ref();
    let values = |h: &Spanned<String>, what: &str| {
        hex_bytes(h.get_ref())
            .filter(|b| b.len() == descriptor::LEN)
            .map(|b| descriptor::from_bytes(&b))
            .ok_or_else(|| {
                ctx.invalid(
                    h.span(),
                    format!(
                        "a [[skin.look]]'s {what} must be {} hex digits",
                        2 * descriptor::LEN
                    ),
                )
            })
    };
    if !(look.tolerance.is_finite() && look.tolerance > 0.0) {
        return Err(ctx.invalid(l.span(), "a [[skin.look]] needs a tolerance above 0".into()));
    }
    Ok(Look {
        label: look.label.clone(),
        cells: values(&look.cells, "cells")?,
        tolerance: look.tolerance,
        limits: look
            .limits
            .as_ref()
            .map(|h| values(h, "limits"))
            .transpose()?,
    })
}

fn hex_bytes(s: &str) -> Option<Vec<u8>> {
    let s = s.trim();
    if s.len() % 2 != 0 || !s.is_ascii() {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).ok())
        .collect()
}

/// boardbot's config directory: `BOARDBOT_CONFIG_DIR` when set (tests use
/// it), else the platform's (`~/.config/boardbot` on Linux).
pub fn config_dir() -> Option<PathBuf> {
    match std::env::var_os("BOARDBOT_CONFIG_DIR") {
        Some(d) => Some(PathBuf::from(d)),
        None => {
            directories::ProjectDirs::from("", "", "boardbot").map(|d| d.config_dir().to_path_buf())
        }
    }
}

/// Where `boardbot calibrate` writes, and `solve` and `play` look for, the
/// user's calibrations: `<config dir>/calibration/`.
pub fn user_dir() -> Option<PathBuf> {
    config_dir().map(|d| d.join("calibration"))
}

/// Picks a game's calibration: `explicit` (`--calibration FILE`) first,
/// then the user's file `<config dir>/calibration/<game>.toml`, then the
/// one built into the binary. Says on stderr which one it used when it
/// is not the built-in one.
/// The user's own calibration of a game, from `boardbot calibrate`, when
/// there is one.
pub fn user_file(game_id: &str) -> Option<PathBuf> {
    user_dir()
        .map(|d| d.join(format!("{game_id}.toml")))
        .filter(|p| p.is_file())
}

pub fn resolve(
    game_id: &str,
    embedded: Option<&'static Embedded>,
    explicit: Option<&Path>,
) -> Result<Calibration, CalibrationError> {
    let cal = match (explicit, user_file(game_id), embedded) {
        (Some(p), _, _) => Calibration::load(p, game_id)?,
        (None, Some(p), _) => Calibration::load_user(&p, game_id)?,
        (None, None, Some(e)) => return Calibration::embedded(e, game_id),
        (None, None, None) => {
            return Err(CalibrationError::Missing {
                game: game_id.to_string(),
            });
        }
    };
    let whose = match cal.source {
        Source::User(_) => " (yours, from `boardbot calibrate`)",
        _ => "",
    };
    eprintln!(
        "boardbot: reading {game_id} with the calibration {}{whose}",
        cal.origin
    );
    Ok(cal)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r##"
game = "demo"
[[class]]
letter = "W"
name = "white"
colors = ["#ffffff"]
tolerance = 20
"##;

    fn parse(text: &str) -> Result<Calibration, CalibrationError> {
        Calibration::parse(text, "demo.toml", "demo", |_| Err("no files".into()))
    }

    #[test]
    fn loads_a_minimal_file() {
        let c = parse(GOOD).unwrap();
        assert_eq!(c.params.classes[0].letter, 'W');
        assert_eq!(c.params.lattice.min_cells, 3);
        assert_eq!(c.source, Source::BuiltIn);
    }

    #[test]
    fn errors_name_the_file_and_line() {
        let bad = GOOD.replace("#ffffff", "#fffff");
        let e = parse(&bad).unwrap_err().to_string();
        assert!(e.starts_with("demo.toml, line 6:"), "{e}");
        let e = parse("game = \n").unwrap_err().to_string();
        assert!(e.contains("demo.toml") && e.contains("line 1"), "{e}");
        let e = parse(&GOOD.replace("\"demo\"", "\"other\""))
            .unwrap_err()
            .to_string();
        assert!(e.contains("not \"demo\""), "{e}");
        let missing = format!(
            "{GOOD}\n[[marker]]\nletter = \"K\"\nname = \"k\"\ntemplate = \"k.png\"\nmin_score = 0.5\n"
        );
        let e = parse(&missing).unwrap_err().to_string();
        assert!(e.contains("line 12") && e.contains("k.png"), "{e}");
    }

    #[test]
    fn joins_paths_lexically() {
        assert_eq!(
            join_lexically(Path::new("calibration"), "../templates/troyis/knight.png"),
            PathBuf::from("templates/troyis/knight.png")
        );
    }
}
