//! A scene rasterised to PNG with tiny-skia. Shapes that share a paint are
//! drawn as one path (thousands of edges in one call), and labels are
//! written in boardbot's own bitmap font ([`crate::art::font`]), so no
//! font file is needed.

use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use image::{ImageEncoder, Rgb as Pixel, RgbImage};
use tiny_skia::{
    Color, FillRule, LineCap, Paint as SkPaint, PathBuilder, Pixmap, Rect, Stroke, Transform,
};

use super::scene::{Anchor, Paint, Pt, Rgb, Scene, Shape};
use crate::art::font;

/// The largest side drawn, in pixels.
const MAX_SIDE: u32 = 16_000;

/// The PNG file's bytes.
pub fn render(scene: &Scene) -> Result<Vec<u8>, String> {
    let (w, h) = (scene.width.ceil() as u32, scene.height.ceil() as u32);
    if w > MAX_SIDE || h > MAX_SIDE {
        return Err(format!(
            "the picture would be {w}×{h} pixels; the largest side is {MAX_SIDE} (draw it as .svg)"
        ));
    }
    let mut pixmap = Pixmap::new(w.max(1), h.max(1)).ok_or("cannot allocate the picture")?;
    pixmap.fill(colour(scene.background, 1.0));
    shapes(&mut pixmap, scene);
    let mut img = RgbImage::from_fn(pixmap.width(), pixmap.height(), |x, y| {
        // Opaque everywhere (the background is), so no un-premultiplying.
        let p = pixmap
            .pixel(x, y)
            .map_or([255; 3], |p| [p.red(), p.green(), p.blue()]);
        Pixel(p)
    });
    labels(&mut img, scene);
    let mut out = Vec::new();
    PngEncoder::new_with_quality(&mut out, CompressionType::Fast, FilterType::Adaptive)
        .write_image(
            img.as_raw(),
            img.width(),
            img.height(),
            image::ExtendedColorType::Rgb8,
        )
        .map_err(|e| e.to_string())?;
    Ok(out)
}

fn colour(c: Rgb, opacity: f32) -> Color {
    Color::from_rgba8(
        c.0,
        c.1,
        c.2,
        (opacity.clamp(0.0, 1.0) * 255.0).round() as u8,
    )
}

/// Draws every shape but the text, one path per run of equal paints.
/// Straight hairlines (the thousands of moves of a map) are blended into
/// the pixels directly, several times faster than stroking them.
fn shapes(pixmap: &mut Pixmap, scene: &Scene) {
    let mut run: Option<(Paint, PathBuilder)> = None;
    for item in &scene.items {
        let hair = match (&item.shape, item.paint.fill, item.paint.stroke) {
            (Shape::Line { a, b }, None, Some((c, w))) if w <= 1.0 => Some((*a, *b, c, w)),
            _ => None,
        };
        let ends_run = hair.is_some() || run.as_ref().is_some_and(|(p, _)| *p != item.paint);
        if ends_run {
            if let Some((p, pb)) = run.take() {
                paint_path(pixmap, &p, pb);
            }
        }
        if let Some((a, b, c, w)) = hair {
            hairline(pixmap, a, b, c, item.paint.opacity * w);
            continue;
        }
        if matches!(item.shape, Shape::Text { .. }) {
            continue;
        }
        let (_, pb) = run.get_or_insert_with(|| (item.paint, PathBuilder::new()));
        trace(pb, &item.shape);
    }
    if let Some((p, pb)) = run {
        paint_path(pixmap, &p, pb);
    }
}

/// An anti-aliased line one pixel wide (Xiaolin Wu's), blended at `alpha`
/// over the opaque pixels beneath.
fn hairline(pixmap: &mut Pixmap, a: Pt, b: Pt, c: Rgb, alpha: f32) {
    let (w, h) = (pixmap.width() as i64, pixmap.height() as i64);
    let data = pixmap.data_mut();
    let steep = (b.1 - a.1).abs() > (b.0 - a.0).abs();
    let (mut p, mut q) = if steep {
        ((a.1, a.0), (b.1, b.0))
    } else {
        (a, b)
    };
    if p.0 > q.0 {
        std::mem::swap(&mut p, &mut q);
    }
    let slope = if q.0 - p.0 < 1e-6 {
        0.0
    } else {
        (q.1 - p.1) / (q.0 - p.0)
    };
    // Coverage in 1/256ths, blended in integers: this loop runs for every
    // pixel of every move of the map.
    let alpha = (alpha.clamp(0.0, 1.0) * 256.0) as i32;
    let rgb = [i32::from(c.0), i32::from(c.1), i32::from(c.2)];
    let mut plot = |x: i64, y: i64, cover: i32| {
        let (x, y) = if steep { (y, x) } else { (x, y) };
        if x < 0 || y < 0 || x >= w || y >= h {
            return;
        }
        let k = ((y * w + x) * 4) as usize;
        let t = (cover * alpha) >> 8;
        for (d, v) in data[k..k + 3].iter_mut().zip(rgb) {
            let old = i32::from(*d);
            *d = (old + (((v - old) * t) >> 8)) as u8;
        }
    };
    // Floors by truncation, shifted so that it rounds down off the picture too.
    const SHIFT: f64 = 65_536.0;
    let (p0, p1, slope) = (f64::from(p.0), f64::from(p.1), f64::from(slope));
    for x in p.0 as i64..=q.0 as i64 {
        let y = p1 + slope * (x as f64 - p0) + SHIFT;
        let yi = y as i64;
        let f = ((y - yi as f64) * 256.0) as i32;
        let yi = yi - SHIFT as i64;
        plot(x, yi, 256 - f);
        plot(x, yi + 1, f);
    }
}

/// Adds a shape's outline to a path.
fn trace(pb: &mut PathBuilder, shape: &Shape) {
    match shape {
        Shape::Circle { c, r } => pb.push_circle(c.0, c.1, *r),
        Shape::Square { c, half } => {
            if let Some(r) = Rect::from_xywh(c.0 - half, c.1 - half, 2.0 * half, 2.0 * half) {
                pb.push_rect(r);
            }
        }
        Shape::Rect { at, w, h } => {
            if let Some(r) = Rect::from_xywh(at.0, at.1, *w, *h) {
                pb.push_rect(r);
            }
        }
        Shape::Line { a, b } => {
            pb.move_to(a.0, a.1);
            pb.line_to(b.0, b.1);
        }
        Shape::Curve { a, ctrl, b } => {
            pb.move_to(a.0, a.1);
            pb.quad_to(ctrl.0, ctrl.1, b.0, b.1);
        }
        Shape::Polygon(points) => {
            if let Some((first, rest)) = points.split_first() {
                pb.move_to(first.0, first.1);
                for p in rest {
                    pb.line_to(p.0, p.1);
                }
                pb.close();
            }
        }
        Shape::Text { .. } => {}
    }
}

fn paint_path(pixmap: &mut Pixmap, p: &Paint, pb: PathBuilder) {
    let Some(path) = pb.finish() else { return };
    let mut sk = SkPaint {
        anti_alias: true,
        ..SkPaint::default()
    };
    if let Some(fill) = p.fill {
        sk.set_color(colour(fill, p.opacity));
        pixmap.fill_path(&path, &sk, FillRule::Winding, Transform::identity(), None);
    }
    if let Some((c, width)) = p.stroke {
        sk.set_color(colour(c, p.opacity));
        let stroke = Stroke {
            width,
            line_cap: LineCap::Round,
            ..Stroke::default()
        };
        pixmap.stroke_path(&path, &sk, &stroke, Transform::identity(), None);
    }
}

/// Writes the labels in the bitmap font.
fn labels(img: &mut RgbImage, scene: &Scene) {
    for item in &scene.items {
        let Shape::Text {
            at,
            text,
            size,
            anchor,
        } = &item.shape
        else {
            continue;
        };
        let text = plain(text);
        let scale = (size / 9.0).round().max(1.0) as u32;
        let width = font::text_width(&text, scale) as f32;
        let x = match anchor {
            Anchor::Start => at.0,
            Anchor::Middle => at.0 - width / 2.0,
        };
        let y = at.1 - font::text_height(scale) as f32;
        let c = item.paint.fill.unwrap_or(super::scene::INK);
        font::draw_text(
            img,
            x as i64,
            y as i64,
            &text,
            scale,
            Pixel([c.0, c.1, c.2]),
        );
    }
}

/// The text in the characters the bitmap font has.
fn plain(text: &str) -> String {
    text.chars()
        .filter(|&c| c != '\'')
        .map(|c| {
            if c.is_ascii_alphanumeric() || " .-:%#*+/=<>".contains(c) {
                c
            } else {
                ' '
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn white(w: u32, h: u32) -> Pixmap {
        let mut p = Pixmap::new(w, h).unwrap();
        p.fill(Color::WHITE);
        p
    }

    fn red(p: &Pixmap, x: u32, y: u32) -> u8 {
        p.pixel(x, y).unwrap().red()
    }

    #[test]
    fn hairlines_shade_the_pixels_they_cross_and_no_others() {
        let mut p = white(20, 10);
        hairline(&mut p, (2.0, 4.5), (17.0, 4.5), Rgb(0, 0, 0), 1.0);
        // Half way between rows 4 and 5: both half covered.
        assert!((100..=160).contains(&red(&p, 10, 4)), "{}", red(&p, 10, 4));
        assert!((100..=160).contains(&red(&p, 10, 5)));
        assert_eq!((red(&p, 10, 2), red(&p, 19, 4)), (255, 255));
        // A steep line, and one mostly off the picture: no panic, some ink.
        hairline(&mut p, (5.0, -30.0), (6.0, 40.0), Rgb(0, 0, 0), 1.0);
        assert!(red(&p, 5, 0) < 255 || red(&p, 6, 0) < 255);
        hairline(&mut p, (-50.0, -50.0), (-10.0, 100.0), Rgb(0, 0, 0), 1.0);
    }

    #[test]
    fn labels_keep_to_the_fonts_characters() {
        assert_eq!(plain("player's (55) moves, 3→4"), "players  55  moves  3 4");
    }
}
