//! The templates under `templates/` are drawn by boardbot's own renderer.
//! This test keeps them in step with it; run with `BOARDBOT_BLESS=1` to
//! redraw them after changing the art.

use boardbot::games::troyis::render::knight_template;

#[test]
fn knight_template_is_drawn_by_the_renderer() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/templates/troyis/knight.png");
    let want = knight_template(64);
    if std::env::var_os("BOARDBOT_BLESS").is_some() {
        want.save(path).expect("write the template");
    }
    let have = image::open(path).expect("read the template").to_rgb8();
    assert_eq!(have.dimensions(), want.dimensions());
    let worst = have
        .as_raw()
        .iter()
        .zip(want.as_raw())
        .map(|(a, b)| a.abs_diff(*b))
        .max()
        .unwrap_or(0);
    assert!(
        worst <= 2,
        "templates/troyis/knight.png differs from the renderer by {worst}; rerun with BOARDBOT_BLESS=1"
    );
}
