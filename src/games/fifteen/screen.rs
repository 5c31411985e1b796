//! Fifteen on the screen: solving a screenshot of sgt-fifteen, and the
//! plan as clicks.
//!
//! sgt-fifteen slides every tile between the gap and a clicked cell in the
//! gap's row or column (`interpret_move`, `execute_move`). The plan is in
//! single-tile slides, so each slide is one click on the centre of the
//! tile that moves, which is next to the gap: always on the board, inside
//! the selection. A click also gives the window the focus. Every
//! [`CHECK_EVERY`] slides the live player looks again and compares the
//! board with the one predicted ([`Checkpoint`]); a board that differs is
//! planned again from what is seen.

use std::time::Duration;

use super::read;
use super::{Board, solve_frame};
use crate::calibration::{Calibration, Embedded};
use crate::engines::tiles::{Slide, Tiles};
use crate::game::GameError;
use crate::game::Pacing;
use crate::input::Action;
use crate::report::{BoardReport, Checkpoint, Report, Verdict};
use crate::tools::options::Options;
use crate::vision::GridRead;
use crate::vision::Lattice;

/// The look boardbot starts from; without number templates: they are
/// rendered in the desktop's fonts ([`super::fonts`]).
pub static LOOKS: [&Embedded; 1] = [&crate::builtin_look!("calibration/fifteen.toml")];

/// sgt's slide animation (`ANIM_TIME`, 0.13 s) with room to spare; the
/// win flash takes two frames of 0.13 s more.
pub const ANIMATION: Duration = Duration::from_millis(150);
/// Slides between two looks at the board.
pub const CHECK_EVERY: usize = 5;

/// The click that makes `slide` from `tiles`: on the centre of the tile
/// that moves; `None` when there is no tile on that side of the gap.
pub fn click(tiles: &Tiles, lattice: &Lattice, slide: Slide) -> Option<Action> {
    let from = tiles.source(slide)?;
    let (r, c) = (from / tiles.width(), from % tiles.width());
    let (x, y) = lattice.cell(r, c).centre();
    Some(Action::click_at(x, y, (r, c)))
}

/// One click per slide, and the predicted board every [`CHECK_EVERY`]
/// slides and after the last.
pub fn clicks_into(report: &mut Report, start: &Tiles, lattice: &Lattice, slides: &[Slide]) {
    let mut t = *start;
    let mut actions = Vec::with_capacity(slides.len());
    let mut checkpoints = Vec::new();
    for (i, &s) in slides.iter().enumerate() {
        let (Some(a), Some(next)) = (click(&t, lattice, s), t.slide(s)) else {
            break;
        };
        actions.push(a);
        t = next;
        if (i + 1) % CHECK_EVERY == 0 || i + 1 == slides.len() {
            checkpoints.push(Checkpoint {
                after: i + 1,
                rows: read::rows(&t),
            });
        }
    }
    report.actions = Some(actions);
    report.checkpoints = checkpoints;
}

/// Refuses, before reading, a calibration with no number templates on a
/// machine with none of the desktop fonts boardbot renders them in.
pub fn check_templates(cal: &Calibration) -> Result<(), GameError> {
    let calibrated = cal
        .params
        .markers
        .iter()
        .any(|m| read::number(m.letter).is_some());
    if calibrated || !crate::vision::glyphs::desktop_faces().is_empty() {
        return Ok(());
    }
    Err(GameError::Usage(format!(
        "{} has no templates of sgt-fifteen's numbers, and no desktop font was found to draw them \
         (boardbot looks for what fontconfig's `fc-match Sans:bold` gives, and for DejaVu Sans, Cantarell, Noto Sans and Liberation Sans): \
         install one (fonts-dejavu-core), or calibrate once on a screenshot of a game whose ID you know \
         (Game > Specific in sgt-fifteen shows it), ideally 4x4 so that all fifteen numbers show: \
         boardbot calibrate --game fifteen --image SHOT.png --board 4x4:…",
        cal.origin
    )))
}

/// The plan for tiles read for sure: the fewest slides, as clicks.
pub fn plan(grid: &GridRead, tiles: Tiles, opts: &Options) -> Result<Report, GameError> {
    let (board, start) = Board::new(tiles);
    // A board that reads as the goal is done: say so plainly (the solver
    // would give an empty plan without touching its tables).
    let (mut r, slides) = if start == board.goal {
        let r = Report::new(super::ID, Verdict::Solved, "already solved: nothing to do");
        (r, Vec::new())
    } else {
        solve_frame(&board, &start, opts)?
    };
    r.board = Some(BoardReport::from_rows(read::rows(&start)));
    clicks_into(&mut r, &start, &grid.lattice, &slides);
    Ok(r)
}

/// Live pacing: a click once sgt has drawn the previous slide.
pub fn pacing() -> Pacing {
    Pacing {
        click: ANIMATION,
        // A tile mid-slide is refused by the reader, so a short gap between
        // the two captures that must agree is enough.
        settle_gap: Duration::from_millis(30),
        settle_max: Duration::from_millis(1000),
        verify: Duration::from_millis(2000),
        ..Pacing::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_slide_clicks_the_centre_of_the_tile_that_moves() {
        // 1 2 3 / 4 . 5 / 6 7 8, cells 30 px from (10, 20).
        let t = Tiles::new(3, 3, &[1, 2, 3, 4, 0, 5, 6, 7, 8]).unwrap();
        let lattice = Lattice::uniform(10.0, 20.0, 30.0, 30.0, 3, 3);
        let at = |s| match click(&t, &lattice, s) {
            Some(Action::Click { x, y, cell }) => (x, y, cell),
            other => panic!("{other:?}"),
        };
        assert_eq!(at(Slide::Left), (85, 65, Some([1, 2])));
        assert_eq!(at(Slide::Down), (55, 35, Some([0, 1])));
        let corner = Tiles::new(2, 2, &[0, 1, 2, 3]).unwrap();
        assert_eq!(click(&corner, &lattice, Slide::Down), None);
    }

    #[test]
    fn a_plan_is_checked_every_few_slides_and_at_its_end() {
        let t = Tiles::new(3, 2, &[1, 2, 3, 4, 5, 0]).unwrap();
        let lattice = Lattice::uniform(0.0, 0.0, 20.0, 20.0, 2, 3);
        let mut r = Report::new("fifteen", Verdict::Playable, "");
        let slides = [
            Slide::Right,
            Slide::Right,
            Slide::Down,
            Slide::Left,
            Slide::Left,
            Slide::Up,
            Slide::Right,
        ];
        clicks_into(&mut r, &t, &lattice, &slides);
        assert_eq!(r.actions.map(|a| a.len()), Some(7));
        let after: Vec<usize> = r.checkpoints.iter().map(|c| c.after).collect();
        assert_eq!(after, vec![CHECK_EVERY, 7]);
        // The gap went along the bottom row, up, along the top row, down
        // and back one.
        assert_eq!(r.checkpoints[0].rows, vec!["23.", "145"]);
        assert_eq!(r.checkpoints[1].rows, vec!["235", "1.4"]);
    }
}
