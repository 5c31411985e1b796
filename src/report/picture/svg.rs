//! A scene as SVG text. Every shape carries its role as a class (`state`,
//! `state goal`, `start`, `step`, `layer`, …) and its facts as `data-`
//! attributes, so a script can find the states, their distances and the
//! player's moves in the file.

use std::fmt::Write as _;

use super::scene::{Anchor, Data, Item, Paint, Pt, Scene, Shape};

/// The whole picture as an SVG document.
pub fn render(scene: &Scene) -> String {
    let mut s = String::with_capacity(128 * scene.items.len() + 512);
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}" font-family="sans-serif">"#,
        w = scene.width,
        h = scene.height
    );
    let _ = writeln!(
        s,
        r#"<rect class="background" width="100%" height="100%" fill="{}"/>"#,
        scene.background.hex()
    );
    for item in &scene.items {
        element(&mut s, item);
    }
    s.push_str("</svg>\n");
    s
}

fn element(s: &mut String, item: &Item) {
    let attrs = format!(
        r#"class="{}"{}{}"#,
        item.role.class(),
        data(item.data),
        paint(&item.paint)
    );
    let _ = match &item.shape {
        Shape::Circle { c, r } => writeln!(
            s,
            r#"<circle {attrs} cx="{:.1}" cy="{:.1}" r="{r:.2}"/>"#,
            c.0, c.1
        ),
        Shape::Square { c, half } => writeln!(
            s,
            r#"<rect {attrs} x="{:.1}" y="{:.1}" width="{w:.2}" height="{w:.2}"/>"#,
            c.0 - half,
            c.1 - half,
            w = 2.0 * half
        ),
        Shape::Rect { at, w, h } => writeln!(
            s,
            r#"<rect {attrs} x="{:.1}" y="{:.1}" width="{w:.1}" height="{h:.1}"/>"#,
            at.0, at.1
        ),
        Shape::Line { a, b } => writeln!(
            s,
            r#"<line {attrs} x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}"/>"#,
            a.0, a.1, b.0, b.1
        ),
        Shape::Curve { a, ctrl, b } => writeln!(
            s,
            r#"<path {attrs} d="M{:.1},{:.1} Q{:.1},{:.1} {:.1},{:.1}"/>"#,
            a.0, a.1, ctrl.0, ctrl.1, b.0, b.1
        ),
        Shape::Polygon(points) => writeln!(s, r#"<polygon {attrs} points="{}"/>"#, pts(points)),
        Shape::Text {
            at,
            text,
            size,
            anchor,
        } => writeln!(
            s,
            r#"<text {attrs} x="{:.1}" y="{:.1}" font-size="{size:.0}"{}>{}</text>"#,
            at.0,
            at.1,
            match anchor {
                Anchor::Start => "",
                Anchor::Middle => r#" text-anchor="middle""#,
            },
            escape(text)
        ),
    };
}

fn pts(points: &[Pt]) -> String {
    let list: Vec<String> = points
        .iter()
        .map(|p| format!("{:.1},{:.1}", p.0, p.1))
        .collect();
    list.join(" ")
}

fn paint(p: &Paint) -> String {
    let mut s = format!(
        r#" fill="{}""#,
        p.fill.map_or("none".to_string(), |c| c.hex())
    );
    if let Some((c, w)) = p.stroke {
        let _ = write!(s, r#" stroke="{}" stroke-width="{w:.2}""#, c.hex());
    }
    if p.opacity < 1.0 {
        let _ = write!(s, r#" opacity="{:.2}""#, p.opacity);
    }
    s
}

fn data(d: Option<Data>) -> String {
    let dist = |d: Option<u32>| d.map_or("none".to_string(), |d| d.to_string());
    match d {
        None => String::new(),
        Some(Data::State { index, distance }) => {
            format!(
                r#" data-state="{index}" data-distance="{}""#,
                dist(distance)
            )
        }
        Some(Data::Step(k)) => format!(r#" data-move="{k}""#),
        Some(Data::Layer { distance, states }) => {
            format!(
                r#" data-distance="{}" data-states="{states}""#,
                dist(distance)
            )
        }
        Some(Data::Link { moves }) => format!(r#" data-moves="{moves}""#),
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::super::scene::{INK, Role};
    use super::*;

    #[test]
    fn writes_roles_data_and_escaped_text() {
        let scene = Scene {
            width: 100.0,
            height: 50.0,
            background: INK,
            items: vec![
                Item {
                    role: Role::State,
                    shape: Shape::Circle {
                        c: (1.0, 2.0),
                        r: 3.0,
                    },
                    paint: Paint::fill(INK),
                    data: Some(Data::State {
                        index: 7,
                        distance: None,
                    }),
                },
                Item {
                    role: Role::Title,
                    shape: Shape::Text {
                        at: (0.0, 0.0),
                        text: "a<b".into(),
                        size: 10.0,
                        anchor: Anchor::Middle,
                    },
                    paint: Paint::fill(INK),
                    data: None,
                },
            ],
            nodes: 1,
            links: 0,
        };
        let svg = render(&scene);
        assert!(
            svg.contains(r#"<circle class="state" data-state="7" data-distance="none""#),
            "{svg}"
        );
        assert!(svg.contains("a&lt;b</text>"), "{svg}");
        assert!(svg.ends_with("</svg>\n"));
    }
}
