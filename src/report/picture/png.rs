//! A scene rasterised to PNG with tiny-skia. Shapes that share a paint are
//! drawn as one path (thousands of edges in one call), and labels are
//! written in boardbot's own bitmap font ([`crate::vision::font`]), so no
//! font file is needed.

use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use image::{ImageEncoder, Rgb as Pixel, RgbImage};
use tiny_skia::{
    Color, FillRule, LineCap, Paint as SkPaint, PathBuilder, Pixmap, Rect, Stroke, Transform,
};

use super::scene::{Anchor, Paint, Rgb, Scene, Shape};
use crate::vision::font;

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
fn shapes(pixmap: &mut Pixmap, scene: &Scene) {
    let mut run: Option<(Paint, PathBuilder)> = None;
    for item in &scene.items {
        if matches!(item.shape, Shape::Text { .. }) {
            continue;
        }
        if run.as_ref().is_some_and(|(p, _)| *p != item.paint) {
            if let Some((p, pb)) = run.take() {
                paint_path(pixmap, &p, pb);
            }
        }
        let (_, pb) = run.get_or_insert_with(|| (item.paint, PathBuilder::new()));
        trace(pb, &item.shape);
    }
    if let Some((p, pb)) = run {
        paint_path(pixmap, &p, pb);
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
