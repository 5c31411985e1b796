//! A game's visual model, loaded from `calibration/<game>.toml`: the
//! lattice's limits, how cells are sampled, the colour of each cell class
//! and the templates of pieces drawn over cells.
//!
//! The project's own files are compiled into the binary, so boardbot works
//! from any directory; `--calibration FILE` loads another. Template paths
//! in a file are relative to that file.

use std::path::{Component, Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use crate::vision::cells::SampleParams;
use crate::vision::color::{ColorClass, Rgb};
use crate::vision::lattice::LatticeParams;
use crate::vision::template::Template;

/// A calibration file with the files it refers to, compiled into the binary.
pub struct Embedded {
    /// Path from the project root, for messages and relative lookups.
    pub path: &'static str,
    pub text: &'static str,
    /// `(path from the project root, bytes)` of every file it refers to.
    pub files: &'static [(&'static str, &'static [u8])],
}

#[derive(Debug, thiserror::Error)]
pub enum CalibrationError {
    #[error("{path}: cannot read the calibration file: {source}")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
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
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileModel {
    game: String,
    #[serde(default)]
    lattice: LatticeSection,
    #[serde(default)]
    cells: CellsSection,
    #[serde(rename = "class")]
    classes: Vec<ClassSection>,
    #[serde(default, rename = "marker")]
    markers: Vec<MarkerSection>,
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

/// A piece recognised by its template.
#[derive(Clone, Debug)]
pub struct Marker {
    pub letter: char,
    pub name: String,
    pub template: Template,
    pub min_score: f32,
}

/// A loaded, checked calibration.
#[derive(Clone, Debug)]
pub struct Calibration {
    /// Where it came from, for messages.
    pub origin: String,
    pub game: String,
    pub lattice: LatticeParams,
    pub sample: SampleParams,
    /// A cell with more sharp marks than this is not plain: it holds a
    /// piece, or something unreadable.
    pub max_plain_marks: f32,
    /// Cells read with less confidence make the whole read uncertain.
    pub min_confidence: f32,
    pub classes: Vec<ColorClass>,
    pub markers: Vec<Marker>,
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
    pub fn load(path: &Path, game: &str) -> Result<Calibration, CalibrationError> {
        let origin = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| CalibrationError::Read {
            path: origin.clone(),
            source,
        })?;
        let dir = path.parent().unwrap_or(Path::new(""));
        Self::parse(&text, &origin, game, |rel| {
            let p = dir.join(rel);
            std::fs::read(&p).map_err(|e| format!("cannot read {}: {e}", p.display()))
        })
    }

    /// Parses calibration text; `fetch` reads a file named relative to it.
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
        let invalid = |span: std::ops::Range<usize>, message: String| CalibrationError::Invalid {
            path: origin.to_string(),
            line: line_of(text, span.start),
            message,
        };
        if file.game != game {
            return Err(CalibrationError::WrongGame {
                path: origin.to_string(),
                found: file.game,
                expected: game.to_string(),
            });
        }
        let letter = |s: &Spanned<String>| -> Result<char, CalibrationError> {
            let mut chars = s.get_ref().chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) if !c.is_whitespace() => Ok(c),
                _ => Err(invalid(
                    s.span(),
                    format!("a letter must be one character, not {:?}", s.get_ref()),
                )),
            }
        };
        let haze = match &file.cells.haze_color {
            Some(h) => Some((
                Rgb::parse_hex(h.get_ref()).ok_or_else(|| {
                    invalid(
                        h.span(),
                        format!("{:?} is not a colour; write it as \"#rrggbb\"", h.get_ref()),
                    )
                })?,
                file.cells.max_haze,
            )),
            None => None,
        };
        let mut classes = Vec::new();
        for c in &file.classes {
            let mut stops = Vec::new();
            for col in &c.colors {
                stops.push(Rgb::parse_hex(col.get_ref()).ok_or_else(|| {
                    invalid(
                        col.span(),
                        format!(
                            "{:?} is not a colour; write it as \"#rrggbb\"",
                            col.get_ref()
                        ),
                    )
                })?);
            }
            if stops.is_empty() {
                return Err(invalid(
                    c.letter.span(),
                    format!("class {:?} lists no colours", c.name),
                ));
            }
            if c.tolerance.is_nan() || c.tolerance <= 0.0 {
                return Err(invalid(
                    c.letter.span(),
                    format!("class {:?} needs a tolerance above 0", c.name),
                ));
            }
            classes.push(ColorClass {
                letter: letter(&c.letter)?,
                name: c.name.clone(),
                stops,
                tolerance: c.tolerance,
                haze,
            });
        }
        if classes.is_empty() {
            return Err(CalibrationError::Invalid {
                path: origin.to_string(),
                line: 1,
                message: "no [[class]] sections: list at least one cell colour".into(),
            });
        }
        let mut markers = Vec::new();
        for m in &file.markers {
            let t = m.template.get_ref();
            let bytes =
                fetch(t).map_err(|e| invalid(m.template.span(), format!("template {t:?}: {e}")))?;
            let img = image::load_from_memory(&bytes)
                .map_err(|e| {
                    invalid(
                        m.template.span(),
                        format!("template {t:?} is not a readable image: {e}"),
                    )
                })?
                .to_rgb8();
            let template = Template::from_image(&img, m.mirror).ok_or_else(|| {
                invalid(m.template.span(), format!("template {t:?} is a flat image"))
            })?;
            markers.push(Marker {
                letter: letter(&m.letter)?,
                name: m.name.clone(),
                template,
                min_score: m.min_score,
            });
        }
        let section_line = |name: &str| {
            text.lines()
                .position(|s| s.trim() == name)
                .map_or(1, |i| i + 1)
        };
        let check = |ok: bool, section: &str, message: &str| -> Result<(), CalibrationError> {
            if ok {
                Ok(())
            } else {
                Err(CalibrationError::Invalid {
                    path: origin.to_string(),
                    line: section_line(section),
                    message: message.to_string(),
                })
            }
        };
        let l = &file.lattice;
        check(
            l.min_cells >= 1
                && l.min_cells <= l.max_cells
                && l.min_pitch.is_finite()
                && l.max_pitch.is_finite()
                && l.min_pitch > 0.0
                && l.min_pitch <= l.max_pitch,
            "[lattice]",
            "[lattice] needs 1 <= min_cells <= max_cells and 0 < min_pitch <= max_pitch (finite)",
        )?;
        let c = &file.cells;
        check(
            (0.0..0.5).contains(&c.inset) && (0.0..=1.0).contains(&c.percentile),
            "[cells]",
            "[cells] needs 0 <= inset < 0.5 and 0 <= percentile <= 1",
        )?;
        // A zero threshold would let the reader act on cells that match nothing.
        check(
            c.min_confidence > 0.0
                && c.min_confidence <= 1.0
                && c.max_plain_marks.is_finite()
                && c.max_plain_marks >= 0.0,
            "[cells]",
            "[cells] needs 0 < min_confidence <= 1 and max_plain_marks >= 0",
        )?;
        check(
            (0.0..=1.0).contains(&c.max_haze),
            "[cells]",
            "[cells] needs 0 <= max_haze <= 1",
        )?;
        for k in &classes {
            check(
                k.tolerance.is_finite(),
                "[[class]]",
                &format!("class {:?} needs a finite tolerance", k.name),
            )?;
        }
        for m in &file.markers {
            check(
                (-1.0..=1.0).contains(&m.min_score),
                "[[marker]]",
                &format!(
                    "marker {:?} needs -1 <= min_score <= 1 (a correlation)",
                    m.name
                ),
            )?;
        }
        Ok(Calibration {
            origin: origin.to_string(),
            game: file.game,
            lattice: LatticeParams {
                min_cells: l.min_cells,
                max_cells: l.max_cells,
                min_pitch: l.min_pitch,
                max_pitch: l.max_pitch,
                edge_threshold: l.edge_threshold,
                square_cells: l.square_cells,
                square_board: l.square_board,
            },
            sample: SampleParams {
                inset: c.inset,
                percentile: c.percentile,
                sharp_step: c.sharp_step,
            },
            max_plain_marks: c.max_plain_marks,
            min_confidence: c.min_confidence,
            classes,
            markers,
        })
    }
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
        assert_eq!(c.classes[0].letter, 'W');
        assert_eq!(c.lattice.min_cells, 3);
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
