//! Writes a calibration file (and its template images) from reading
//! parameters: what `boardbot calibrate` learned, in the format
//! `Calibration::load` reads back.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use image::RgbImage;

use crate::vision::color::ColorClass;
use crate::vision::params::ReadParams;

#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    #[error("cannot write {path}: {source}")]
    Write {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot write the template {path}: {message}")]
    Image { path: String, message: String },
}

/// A template image to save beside the file, and what it marks.
pub struct TemplateFile<'a> {
    pub letter: char,
    pub name: &'a str,
    pub image: &'a RgbImage,
    pub mirror: bool,
    pub min_score: f32,
}

/// Writes `<dir>/<game>.toml` and its templates `<dir>/<game>-<name>.png`;
/// returns the path of the TOML file. `note` heads the file as a comment.
pub fn write(
    dir: &Path,
    game: &str,
    params: &ReadParams,
    templates: &[TemplateFile],
    note: &str,
) -> Result<PathBuf, SaveError> {
    let io = |path: &Path| {
        let path = path.display().to_string();
        move |source| SaveError::Write { path, source }
    };
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let mut text = String::new();
    for line in note.lines() {
        let _ = writeln!(text, "# {line}");
    }
    let _ = writeln!(text, "\ngame = {}", quote(game));
    text.push_str(&sections(params));
    for t in templates {
        let file = format!("{game}-{}.png", slug(t.name));
        let path = dir.join(&file);
        t.image.save(&path).map_err(|e| SaveError::Image {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        let _ = write!(
            text,
            "\n[[marker]]\nletter = {}\nname = {}\ntemplate = {}\nmin_score = {}\nmirror = {}\n",
            quote(&t.letter.to_string()),
            quote(t.name),
            quote(&file),
            t.min_score,
            t.mirror
        );
    }
    let path = dir.join(format!("{game}.toml"));
    std::fs::write(&path, text).map_err(io(&path))?;
    Ok(path)
}

/// `[lattice]`, `[cells]` and the `[[class]]` sections.
fn sections(p: &ReadParams) -> String {
    let l = &p.lattice;
    let s = &p.sample;
    let mut t = format!(
        "\n[lattice]\nmin_cells = {}\nmax_cells = {}\nmin_pitch = {:.1}\nmax_pitch = {:.1}\nedge_threshold = {}\nsquare_cells = {}\nsquare_board = {}\n",
        l.min_cells,
        l.max_cells,
        l.min_pitch,
        l.max_pitch,
        l.edge_threshold,
        l.square_cells,
        l.square_board
    );
    let _ = write!(
        t,
        "\n[cells]\ninset = {}\npercentile = {}\nsharp_step = {}\nmax_plain_marks = {:.3}\nmin_confidence = {}\n",
        s.inset, s.percentile, s.sharp_step, p.max_plain_marks, p.min_confidence
    );
    if let Some((haze, max)) = p.classes.iter().find_map(|c| c.haze) {
        let _ = writeln!(t, "haze_color = \"{haze}\"\nmax_haze = {max}");
    }
    for c in &p.classes {
        t.push_str(&class(c));
    }
    t
}

fn class(c: &ColorClass) -> String {
    let stops: Vec<String> = c.stops.iter().map(|s| format!("\"{s}\"")).collect();
    format!(
        "\n[[class]]\nletter = {}\nname = {}\ncolors = [{}]\ntolerance = {:.1}\n",
        quote(&c.letter.to_string()),
        quote(&c.name),
        stops.join(", "),
        c.tolerance
    )
}

/// A TOML basic string.
fn quote(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// A file-name-safe form of a name.
fn slug(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let s = s.trim_matches('-').to_string();
    if s.is_empty() { "mark".into() } else { s }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calibration::Calibration;
    use crate::game::OnScreen;
    use crate::games::troyis::Troyis;

    #[test]
    fn what_is_written_loads_back_the_same() {
        let builtin = Troyis.looks()[0];
        let cal = Calibration::embedded(builtin, "troyis").unwrap();
        let knight = image::open(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/templates/troyis/knight.png"
        ))
        .unwrap()
        .to_rgb8();
        let dir = tempfile::tempdir().unwrap();
        let t = TemplateFile {
            letter: 'K',
            name: "knight",
            image: &knight,
            mirror: true,
            min_score: 0.45,
        };
        let mut params = cal.params.clone();
        params.markers.clear();
        let path = write(dir.path(), "troyis", &params, &[t], "a test\nof two lines").unwrap();
        let back = Calibration::load(&path, "troyis").unwrap();
        assert_eq!(back.params.classes.len(), cal.params.classes.len());
        for (a, b) in back.params.classes.iter().zip(&cal.params.classes) {
            assert_eq!(
                (a.letter, &a.name, a.stops.len()),
                (b.letter, &b.name, b.stops.len())
            );
            assert!((a.tolerance - b.tolerance).abs() < 0.1);
            assert_eq!(a.haze, b.haze);
        }
        assert_eq!(back.params.markers.len(), 1);
        assert!(back.params.markers[0].template.mirrors());
        assert_eq!(back.params.lattice.max_cells, 16);
        assert!(dir.path().join("troyis-knight.png").is_file());
    }
}
