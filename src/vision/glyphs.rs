//! Text as the desktop draws it: the fonts a GTK program's "Sans" may be,
//! and numbers rendered in them, so a reader can know digits it was never
//! shown (sgt-puzzles draws its numbers in bold "Sans", `gtk.c:add_font`).
//!
//! Which font "Sans" is depends on the machine, so boardbot ships no
//! pictures of digits. It asks fontconfig what bold "Sans" is, and adds the
//! common desktop faces that are installed (DejaVu Sans, Cantarell, Noto
//! Sans, Liberation Sans): the font a program draws with is on the machine
//! it runs on. Without fontconfig's tools it looks for those faces' files
//! in the usual font folders.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use ab_glyph::{Font, FontVec, PxScale, ScaleFont, VariableFont, point};
use image::RgbImage;

/// The desktop faces tried besides fontconfig's own choice, as
/// fontconfig names their families.
pub const COMMON_SANS: [&str; 4] = ["DejaVu Sans", "Cantarell", "Noto Sans", "Liberation Sans"];

/// Their bold faces' usual file names, for a machine without `fc-list`.
const FILES: [(&str, &str); 5] = [
    ("DejaVu Sans", "DejaVuSans-Bold.ttf"),
    ("Cantarell", "Cantarell-Bold.otf"),
    ("Cantarell", "Cantarell-VF.otf"),
    ("Noto Sans", "NotoSans-Bold.ttf"),
    ("Liberation Sans", "LiberationSans-Bold.ttf"),
];

/// Bold, as a variable font's weight axis counts.
const BOLD: f32 = 700.0;

/// A font face, loaded and set to bold.
pub struct Face {
    /// Its family, as fontconfig names it.
    pub family: String,
    /// Its file.
    pub path: PathBuf,
    font: FontVec,
}

impl std::fmt::Debug for Face {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.family, self.path.display())
    }
}

impl Face {
    /// The face in `path`, or `None` when it is not a font ab_glyph reads.
    pub fn load(family: &str, path: &Path) -> Option<Face> {
        let data = std::fs::read(path).ok()?;
        let mut font = FontVec::try_from_vec(data).ok()?;
        // A variable font (Cantarell since 0.301) has no separate bold file.
        font.set_variation(b"wght", BOLD);
        // Glyph 0 is the "missing glyph" box: a face without digits.
        if font.glyph_id('0').0 == 0 {
            return None;
        }
        Some(Face {
            family: family.to_string(),
            path: path.to_path_buf(),
            font,
        })
    }

    /// `text` in `ink` on `paper`, its em `em_px` pixels high, as Pango
    /// sizes a font by absolute size; with a margin of half an em.
    pub fn render(&self, text: &str, em_px: f32, ink: [u8; 3], paper: [u8; 3]) -> Rendered {
        let upem = self.font.units_per_em().unwrap_or(1000.0);
        let scale = PxScale::from(em_px * self.font.height_unscaled() / upem);
        let sf = self.font.as_scaled(scale);
        let pad = (em_px / 2.0).ceil();
        let mut x = pad;
        let mut glyphs = Vec::new();
        let mut prev = None;
        for ch in text.chars() {
            let id = self.font.glyph_id(ch);
            if let Some(p) = prev {
                x += sf.kern(p, id).round();
            }
            // Pango, with hinted metrics, puts the baseline and each glyph
            // on whole pixels: so do we, for the same antialiasing.
            glyphs.push(id.with_scale_and_position(scale, point(x, (pad + sf.ascent()).round())));
            x += sf.h_advance(id).round();
            prev = Some(id);
        }
        let w = (x + pad).ceil().max(1.0) as u32;
        let h = (sf.ascent() - sf.descent() + 2.0 * pad).ceil().max(1.0) as u32;
        let mut cover = vec![0f32; (w * h) as usize];
        let mut spans = Vec::new();
        for g in glyphs {
            let Some(o) = self.font.outline_glyph(g) else {
                continue;
            };
            let b = o.px_bounds();
            spans.push((f64::from(b.min.x), f64::from(b.max.x)));
            o.draw(|gx, gy, c| {
                let (px, py) = (
                    b.min.x as i64 + i64::from(gx),
                    b.min.y as i64 + i64::from(gy),
                );
                if (0..i64::from(w)).contains(&px) && (0..i64::from(h)).contains(&py) {
                    let k = (py as u32 * w + px as u32) as usize;
                    cover[k] = (cover[k] + c).min(1.0);
                }
            });
        }
        let image = RgbImage::from_fn(w, h, |px, py| {
            let c = cover[(py * w + px) as usize];
            let mix =
                |i: usize| (f32::from(paper[i]) * (1.0 - c) + f32::from(ink[i]) * c).round() as u8;
            image::Rgb([mix(0), mix(1), mix(2)])
        });
        Rendered { image, spans }
    }

    /// `text` as [`Face::render`] draws it, but drawn `k` times larger and
    /// shrunk: what a screenshot scaled after the program drew it shows,
    /// smooth where the font's own small sizes are crisp.
    pub fn render_resampled(
        &self,
        text: &str,
        em_px: f32,
        ink: [u8; 3],
        paper: [u8; 3],
        k: u32,
    ) -> Rendered {
        let big = self.render(text, em_px * k as f32, ink, paper);
        let (w, h) = (big.image.width() / k, big.image.height() / k);
        let image = image::imageops::resize(
            &big.image,
            w.max(1),
            h.max(1),
            image::imageops::FilterType::Triangle,
        );
        let f = f64::from(k);
        let spans = big.spans.iter().map(|&(a, b)| (a / f, b / f)).collect();
        Rendered { image, spans }
    }
}

/// Text rendered by [`Face::render`].
pub struct Rendered {
    pub image: RgbImage,
    /// Where each glyph that draws something is, left to right: the first
    /// and last pixel column of its box.
    pub spans: Vec<(f64, f64)>,
}

/// The faces a desktop's bold "Sans" may be, fontconfig's choice first,
/// each file once; loaded on first use.
pub fn desktop_faces() -> &'static [Face] {
    static FACES: OnceLock<Vec<Face>> = OnceLock::new();
    FACES.get_or_init(|| {
        let mut found = fontconfig_sans().into_iter().collect::<Vec<_>>();
        let common = fontconfig_common().unwrap_or_else(common_in_folders);
        found.extend(common);
        let mut faces: Vec<Face> = Vec::new();
        for (family, path) in found {
            let path = path.canonicalize().unwrap_or(path);
            if faces.iter().any(|f| f.path == path) {
                continue;
            }
            faces.extend(Face::load(&family, &path));
        }
        faces
    })
}

/// The output of `program args`, when it ran and succeeded.
fn run(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// What fontconfig makes of bold "Sans": its family and file.
fn fontconfig_sans() -> Option<(String, PathBuf)> {
    let out = run("fc-match", &["-f", "%{family[0]}\t%{file}", "Sans:bold"])?;
    let (family, file) = out.trim().split_once('\t')?;
    Some((family.to_string(), PathBuf::from(file)))
}

/// The common faces fontconfig knows of, upright, bold and of normal width.
fn fontconfig_common() -> Option<Vec<(String, PathBuf)>> {
    let out = run(
        "fc-list",
        &[
            "-f",
            "%{family[0]}\t%{file}\n",
            ":weight=bold:slant=0:width=100",
        ],
    )?;
    let mut found: Vec<(String, PathBuf)> = out
        .lines()
        .filter_map(|l| l.split_once('\t'))
        .filter(|(family, _)| COMMON_SANS.contains(family))
        .map(|(family, file)| (family.to_string(), PathBuf::from(file)))
        .collect();
    found.sort();
    Some(found)
}

/// The common faces' files in the usual font folders (a few levels deep).
fn common_in_folders() -> Vec<(String, PathBuf)> {
    let mut roots = vec![
        PathBuf::from("/usr/share/fonts"),
        PathBuf::from("/usr/local/share/fonts"),
    ];
    if let Some(home) = std::env::var_os("HOME") {
        roots.push(Path::new(&home).join(".local/share/fonts"));
        roots.push(Path::new(&home).join(".fonts"));
    }
    let mut found = Vec::new();
    for root in roots {
        walk(&root, 4, &mut found);
    }
    found.sort();
    found
}

fn walk(dir: &Path, depth: u32, found: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        if path.is_dir() {
            if depth > 0 {
                walk(&path, depth - 1, found);
            }
            continue;
        }
        let name = e.file_name();
        if let Some((family, _)) = FILES.iter().find(|(_, f)| name == **f) {
            found.push((family.to_string(), path));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first installed common face, or `None` (said why).
    fn any_face() -> Option<&'static Face> {
        let face = desktop_faces().first();
        if face.is_none() {
            eprintln!("skipped: no desktop font found (fonts-dejavu-core installs one)");
        }
        face
    }

    #[test]
    fn a_number_is_drawn_in_ink_within_its_margin() {
        let Some(face) = any_face() else { return };
        let drawn = face.render("12", 30.0, [0, 0, 0], [200, 200, 200]);
        assert_eq!(drawn.spans.len(), 2, "{face:?}");
        assert!(
            drawn.spans[0].1 <= drawn.spans[1].0 + 1.0,
            "{face:?}: {:?}",
            drawn.spans
        );
        let img = drawn.image;
        let dark: Vec<(u32, u32)> = img
            .enumerate_pixels()
            .filter(|(_, _, p)| p.0[0] < 100)
            .map(|(x, y, _)| (x, y))
            .collect();
        assert!(dark.len() > 40, "{face:?}: {} dark pixels", dark.len());
        let (x0, x1) = (
            dark.iter().map(|d| d.0).min().unwrap(),
            dark.iter().map(|d| d.0).max().unwrap(),
        );
        let (y0, y1) = (
            dark.iter().map(|d| d.1).min().unwrap(),
            dark.iter().map(|d| d.1).max().unwrap(),
        );
        // Digits are about 0.7 em high, two of them about 1.1 em wide.
        assert!((15..=26).contains(&(y1 - y0)), "{face:?}: {y0}..{y1}");
        assert!((22..=40).contains(&(x1 - x0)), "{face:?}: {x0}..{x1}");
        assert!(x0 >= 10 && y0 >= 10, "{face:?}: the margin");
        assert!(x1 < img.width() - 10 && y1 < img.height() - 10);
        assert_eq!(img.get_pixel(0, 0).0, [200, 200, 200]);
    }

    #[test]
    fn each_file_is_loaded_once() {
        let faces = desktop_faces();
        for (i, f) in faces.iter().enumerate() {
            assert!(!faces[..i].iter().any(|g| g.path == f.path), "{f:?}");
        }
    }

    #[test]
    fn a_file_that_is_no_font_is_not_a_face() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.ttf");
        std::fs::write(&p, b"not a font").unwrap();
        assert!(Face::load("X", &p).is_none());
        assert!(Face::load("X", &dir.path().join("missing.ttf")).is_none());
    }
}
