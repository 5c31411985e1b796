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
    #[error(transparent)]
    File(#[from] crate::files::FileError),
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
    crate::files::ensure_dir(dir, "--out")?;
    let mut text = String::new();
    for line in note.lines() {
        let _ = writeln!(text, "# {line}");
    }
    let _ = writeln!(text, "\ngame = {}", quote(game));
    text.push_str(&sections(params));
    // Each template's name carries its content's hash, so that a new one
    // never overwrites one the old file uses: killed half way, the old
    // calibration stays whole. The toml goes last, atomically.
    let mut written = Vec::new();
    for t in templates {
        let file = format!("{game}-{}-{:08x}.png", slug(t.name), pixels_hash(t.image));
        crate::files::write_png(&dir.join(&file), t.image)?;
        written.push(file.clone());
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
    crate::files::write_atomic(&path, text.as_bytes())?;
    remove_stale_templates(dir, game, &written);
    Ok(path)
}

/// A short hash of an image's pixels (FNV-1a), for its file name.
fn pixels_hash(img: &image::RgbImage) -> u32 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in img.as_raw().iter().chain(&img.width().to_le_bytes()) {
        h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
    }
    (h ^ (h >> 32)) as u32
}

/// Removes `game`'s template files in `dir` that the file just written no
/// longer names (those of a calibration it replaced).
fn remove_stale_templates(dir: &Path, game: &str, keep: &[String]) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let ours = name.starts_with(&format!("{game}-")) && name.ends_with(".png");
        if ours && !keep.contains(&name) {
            let _ = std::fs::remove_file(e.path());
        }
    }
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
    if let Some(skin) = &p.skin {
        t.push_str(&skin_section(skin));
    }
    t
}

/// `[skin]` and its `[[skin.look]]`s.
fn skin_section(s: &crate::vision::skin::Skin) -> String {
    let outside: Vec<String> = s
        .outside
        .iter()
        .map(|c| format!("\"#{:02x}{:02x}{:02x}\"", c[0], c[1], c[2]))
        .collect();
    let mut t = format!(
        "\n[skin]\nweights = [{}]\naspect = {:.5}\nmin_pitch = {:.2}\nmax_pitch = {:.2}\noutside = [{}]\nreach = {:.4}\n",
        s.weights
            .iter()
            .map(|w| format!("{w:.3}"))
            .collect::<Vec<_>>()
            .join(", "),
        s.aspect,
        s.min_pitch,
        s.max_pitch,
        outside.join(", "),
        // The learner rounds the reach up to this already; rounding up
        // again could add a step where the product is a hair over.
        s.reach
    );
    if let Some(g) = s.gaps {
        let _ = writeln!(
            t,
            "gaps = {{ every = {}, x = {:.5}, y = {:.5} }}",
            g.every, g.x, g.y
        );
    }
    if let Some(r) = &s.rules {
        let _ = writeln!(t, "rules = {}", quote(r));
    }
    if let Some(l) = s.lines {
        let _ = writeln!(t, "lines = {{ x = {:.5}, y = {:.5} }}", l.x, l.y);
    }
    let hex = |d: &[f32]| -> String {
        crate::vision::skin::descriptor::to_bytes(d)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    };
    for l in &s.looks {
        let _ = write!(
            t,
            "\n[[skin.look]]\nlabel = {}\ntolerance = {:.2}\ncells = \"{}\"\n",
            quote(&l.label),
            l.tolerance,
            hex(&l.cells)
        );
        if let Some(limits) = &l.limits {
            let _ = writeln!(t, "limits = \"{}\"", hex(limits));
        }
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
        let pngs = png_names(dir.path());
        assert_eq!(pngs.len(), 1, "{pngs:?}");
        assert!(pngs[0].starts_with("troyis-knight-"), "{pngs:?}");
        // Written again with another template: the old one is removed once
        // the new file is in place.
        let other = image::RgbImage::from_fn(9, 9, |x, y| {
            image::Rgb([(x * 20) as u8, (y * 20) as u8, 90])
        });
        let t = TemplateFile {
            letter: 'K',
            name: "knight",
            image: &other,
            mirror: false,
            min_score: 0.5,
        };
        write(dir.path(), "troyis", &params, &[t], "again").unwrap();
        let now = png_names(dir.path());
        assert_eq!(now.len(), 1, "{now:?}");
        assert_ne!(now, pngs);
    }

    /// A skin with gaps between slots (Continuity's), the rules its
    /// cells do not show, where its lattice lies from grid lines, and a
    /// look's limits is written and read back whole; gaps or lines out of
    /// range name the line, and so do limits of the wrong length.
    #[test]
    fn a_skin_with_gaps_and_rules_loads_back_the_same() {
        use crate::vision::skin::{Gaps, Skin, descriptor};
        let mut skin = Skin {
            gaps: Some(Gaps {
                every: 8,
                x: 0.5,
                y: 0.75,
            }),
            rules: Some("jump 3".into()),
            lines: Some(crate::vision::skin::lines::Lines {
                x: 0.00098,
                y: -0.02628,
            }),
            ..crate::vision::skin::example()
        };
        skin.looks[1].limits = Some((0..descriptor::LEN).map(|i| (i % 200) as f32).collect());
        let params = crate::vision::ReadParams {
            skin: Some(skin.clone()),
            classes: Vec::new(),
            markers: Vec::new(),
            ..Calibration::embedded(Troyis.looks()[0], "troyis")
                .unwrap()
                .params
        };
        let dir = tempfile::tempdir().unwrap();
        let path = write(dir.path(), "continuity", &params, &[], "gaps").unwrap();
        let back = Calibration::load(&path, "continuity").unwrap();
        assert_eq!(back.params.skin.as_ref(), Some(&skin));
        let text = std::fs::read_to_string(&path).unwrap();
        let short = text.replacen("limits = \"00", "limits = \"", 1);
        std::fs::write(&path, &short).unwrap();
        let e = Calibration::load(&path, "continuity")
            .unwrap_err()
            .to_string();
        let line = 1 + short.lines().position(|l| l.starts_with("limits")).unwrap();
        assert!(
            e.contains("limits") && e.contains(&format!("line {line}:")),
            "{e}"
        );
        let bad = text.replace("every = 8", "every = 0");
        std::fs::write(&path, bad).unwrap();
        let e = Calibration::load(&path, "continuity")
            .unwrap_err()
            .to_string();
        assert!(e.contains("line") && e.contains("gaps"), "{e}");
        let bad = text.replace("y = -0.02628", "y = 0.7");
        std::fs::write(&path, bad).unwrap();
        let e = Calibration::load(&path, "continuity")
            .unwrap_err()
            .to_string();
        assert!(e.contains("line") && e.contains("lines"), "{e}");
    }

    /// The PNG files in `dir`, by name.
    fn png_names(dir: &Path) -> Vec<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".png"))
            .collect()
    }
}
