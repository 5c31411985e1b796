//! GNOME Klotski on the screen: a plan's moves as mouse drags, the boards
//! the live player checks on the way, how fast it plays, and what it does
//! with a held piece or the Congratulations dialog.
//!
//! GNOME follows a drag cell by cell (puzzle-view.vala `on_motion` →
//! `move_piece`): the pointer's cell must be next to the last one it
//! tracked, and a pointer that jumps a cell or moves slantwise is ignored;
//! a drag may turn corners. So each move is one [`Action::DragPath`] from
//! the centre of the grab cell through the centre of every cell where its
//! path turns, in pointer moves of a quarter cell, slow enough that GTK
//! (which merges the pointer moves it has not handled yet into the last
//! one) never sees the pointer skip a cell. Under `--metric pieces` a move
//! is one drag, corners and all; under `steps` every move is one cell, so
//! one drag per step (GNOME's counter adds nothing for several drags of
//! one piece in a row either way).
//!
//! GNOME draws each move at once (no animation), so the player only
//! settles briefly between drags. Every [`CHECK_EVERY`] moves, and after
//! the last, it compares the board it reads with the one the plan
//! predicts ([`checkpoints`]), lettered as the reader letters it, and
//! plans again from what it sees when they differ.
//!
//! Two things only GNOME does:
//! - a press and release that moved nothing leaves the piece *held* (drawn
//!   lighter), and it then follows the bare pointer. The reader refuses a
//!   held piece; [`step`] answers that refusal with a click on the held
//!   piece, which lets it go, and looks again.
//! - once the level is solved GNOME opens its "Congratulations!" dialog
//!   over the board at once, so the last look reads a covered board (or
//!   none: the dialog hides the whole of a small board, frame and all).
//!   [`step`] takes a covered or hidden board as the end of play: nothing
//!   more is sent (on the first look that is a refusal, as any unreadable
//!   board), and play reports what it saw. Whether the level was solved is
//!   for the game's title ("Level completed.") or a look after the dialog
//!   is moved away to tell; boardbot never moves other windows.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::engines::blocks::Move;
use crate::engines::blocks::apply;
use crate::engines::blocks::layout::{Layout, normalise};
use crate::game::{Pacing, Step};
use crate::input::Action;
use crate::report::{Checkpoint, Report, Verdict};
use crate::vision::Lattice;

/// Moves between two looks at the board.
pub const CHECK_EVERY: usize = 4;
/// Time per cell of a drag: four pointer moves, 10 ms apart (plays level 0
/// in about 3 s; half of it still played it, a quarter lost moves).
pub const CELL_MS: u32 = 40;
/// Pointer moves per cell.
pub const MOVES_PER_CELL: f64 = 4.0;

/// The drag that makes `m`: press on the centre of its grab cell, follow
/// its path through the centre of every cell where it turns, release on
/// the centre of the cell the grab cell ends on.
pub fn drag(m: &Move, lattice: &Lattice) -> Action {
    let centre = |(r, c): (usize, usize)| {
        let (x, y) = lattice.cell(r, c).centre();
        [x.round() as i32, y.round() as i32]
    };
    let mut at = m.grab;
    let mut points = vec![centre(at)];
    for (i, d) in m.path.iter().enumerate() {
        let (dr, dc) = d.delta();
        at = (
            at.0.saturating_add_signed(dr),
            at.1.saturating_add_signed(dc),
        );
        let turns = m.path.get(i + 1).is_none_or(|next| next != d);
        if turns {
            points.push(centre(at));
        }
    }
    let (px, py) = lattice.pitch();
    Action::DragPath {
        points,
        duration_ms: CELL_MS * m.path.len().max(1) as u32,
        max_step_px: (px.min(py) / MOVES_PER_CELL).floor().max(1.0) as u32,
    }
}

/// One drag per move.
pub fn actions(moves: &[Move], lattice: &Lattice) -> Vec<Action> {
    moves.iter().map(|m| drag(m, lattice)).collect()
}

/// The boards after every [`CHECK_EVERY`] moves and after the last, played
/// from `start` and lettered as the reader letters them ([`canonical`]
/// against `level`, the level's start), in the rows the report gives (the
/// pieces' rows, without the `% floor` block). Stops at the first move that does
/// not apply (none does in a plan from the engine).
pub fn checkpoints(start: &Layout, level: &Layout, moves: &[Move]) -> Vec<Checkpoint> {
    let mut at = start.clone();
    let mut out = Vec::new();
    for (k, m) in moves.iter().enumerate() {
        let Ok(next) = apply(&at, m) else {
            break;
        };
        at = next;
        let after = k + 1;
        if after % CHECK_EVERY == 0 || after == moves.len() {
            // The pieces' rows only, as the board is reported.
            let mut rows = canonical(&at, level).rows();
            rows.truncate(at.height);
            out.push(Checkpoint { after, rows });
        }
    }
    out
}

/// Pieces that look alike: special or not, and the shape.
type Key = (bool, Vec<(usize, usize)>);
/// A level's piece: its first cell and its letter.
type Named = ((usize, usize), char);

/// `layout` lettered as the reader letters a board of `level`: pieces of
/// one shape (and kind: special or not) look alike on the screen, so they
/// take the level's letters for that shape in the order of their first
/// cells, row by row, as the level's own pieces of that shape are ordered.
/// A plan tracks each piece by its letter, so after two same-shaped pieces
/// pass each other its letters differ from the reader's.
pub fn canonical(layout: &Layout, level: &Layout) -> Layout {
    let mut labels: BTreeMap<Key, Vec<Named>> = BTreeMap::new();
    for p in &level.pieces {
        let first = p.cells.first().copied().unwrap_or_default();
        labels
            .entry((p.special, normalise(&p.cells)))
            .or_default()
            .push((first, p.label));
    }
    let mut out = layout.clone();
    let mut groups: BTreeMap<Key, Vec<usize>> = BTreeMap::new();
    for (i, p) in layout.pieces.iter().enumerate() {
        groups
            .entry((p.special, normalise(&p.cells)))
            .or_default()
            .push(i);
    }
    for (key, mut pieces) in groups {
        let Some(names) = labels.get_mut(&key) else {
            continue;
        };
        names.sort();
        pieces.sort_by_key(|&i| layout.pieces[i].cells.first().copied());
        for (&i, &(_, label)) in pieces.iter().zip(names.iter()) {
            out.pieces[i].label = label;
        }
    }
    let order = |label: char| level.pieces.iter().position(|q| q.label == label);
    out.pieces.sort_by_key(|p| order(p.label));
    out
}

/// Live pacing: GNOME draws a move at once, so a short pause after each
/// drag lets it take the release before the next press.
pub fn pacing() -> Pacing {
    let ms = Duration::from_millis;
    Pacing {
        drag: ms(60),
        click: ms(60),
        settle_gap: ms(30),
        settle_max: ms(800),
        verify: ms(1500),
        ..Pacing::default()
    }
}

/// Why a cell could not be read, as the reader says it of a held piece and
/// of a board covered by another window.
const HELD: &str = "held piece";
const COVERED: &str = "black";

/// The next step from a read: the plan when playable; a click on a held
/// piece to let it go; the end of play on a board covered by a window, in
/// part or whole (GNOME's Congratulations dialog once solved: waiting
/// would not uncover it); else as any game.
pub fn step(report: &Report) -> Step {
    if report.state == Verdict::NoBoard {
        return Step::Done;
    }
    if report.state == Verdict::Uncertain && !report.unreadable.is_empty() {
        let all = |what: &str| report.unreadable.iter().all(|i| i.why.contains(what));
        if all(HELD) {
            if let Some(click) = release_click(report) {
                return Step::Act {
                    actions: vec![click],
                    checkpoints: Vec::new(),
                };
            }
        }
        if report.unreadable.iter().any(|i| i.why.contains(COVERED)) {
            return Step::Done;
        }
    }
    Step::from_report(report)
}

/// A click on the centre of the first held cell, in image pixels.
fn release_click(report: &Report) -> Option<Action> {
    let grid = report.seen.grid.as_ref()?;
    let [r, c] = report.unreadable.first()?.cell;
    if r >= grid.lattice.rows() || c >= grid.lattice.cols() {
        return None;
    }
    let (x, y) = grid.lattice.cell(r, c).centre();
    Some(Action::click_at(x, y, (r, c)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::blocks::Dir;
    use crate::games::klotski::levels;

    fn mv(label: char, grab: (usize, usize), path: &str) -> Move {
        Move {
            label,
            grab,
            path: path.chars().filter_map(Dir::from_letter).collect(),
        }
    }

    #[test]
    fn a_move_is_one_drag_through_the_cells_where_its_path_turns() {
        // Cells of 48 px, cell (0,0) from (162, 86): GNOME's 6x9 levels.
        let lat = Lattice::uniform(162.0, 86.0, 48.0, 48.0, 9, 6);
        let Action::DragPath {
            points,
            duration_ms,
            max_step_px,
        } = drag(&mv('*', (3, 2), "DDDDRR"), &lat)
        else {
            panic!("not a path drag")
        };
        assert_eq!(points, vec![[282, 254], [282, 446], [378, 446]]);
        assert_eq!((duration_ms, max_step_px), (6 * CELL_MS, 12));
        let Action::DragPath { points, .. } = drag(&mv('a', (1, 1), "RDL"), &lat) else {
            panic!()
        };
        assert_eq!(points, vec![[234, 158], [282, 158], [282, 206], [234, 206]]);
        assert_eq!(
            actions(&[mv('a', (1, 1), "R"), mv('b', (2, 2), "U")], &lat).len(),
            2
        );
    }

    #[test]
    fn small_cells_still_take_four_pointer_moves_each() {
        let lat = Lattice::uniform(0.0, 0.0, 10.0, 10.0, 4, 4);
        let Action::DragPath { max_step_px, .. } = drag(&mv('a', (0, 0), "R"), &lat) else {
            panic!()
        };
        assert_eq!(max_step_px, 2);
        let tiny = Lattice::uniform(0.0, 0.0, 3.0, 3.0, 4, 4);
        let Action::DragPath { max_step_px, .. } = drag(&mv('a', (0, 0), "R"), &tiny) else {
            panic!()
        };
        assert_eq!(max_step_px, 1);
    }

    fn level(name: &str) -> Layout {
        levels::all()
            .iter()
            .find(|l| l.name == name)
            .expect("a bundled level")
            .layout()
    }

    #[test]
    fn same_shaped_pieces_are_lettered_by_position_as_the_reader_does() {
        // Only 18 Steps: a, b, m, n are 1x1; swapping two of their letters
        // is undone.
        let start = level("Only 18 Steps");
        let mut swapped = start.clone();
        let (a, b) = (
            swapped.pieces.iter().position(|p| p.label == 'a').unwrap(),
            swapped.pieces.iter().position(|p| p.label == 'b').unwrap(),
        );
        swapped.pieces[a].label = 'b';
        swapped.pieces[b].label = 'a';
        assert_ne!(swapped.rows(), start.rows());
        assert_eq!(canonical(&swapped, &start).rows(), start.rows());
        assert_eq!(canonical(&start, &start), start);
    }

    #[test]
    fn checkpoints_every_few_moves_and_after_the_last() {
        let start = level("Only 18 Steps");
        // k (row 5, col 1) right, then l (row 5, col 4) left; k up is
        // blocked by g.
        let moves = [mv('k', (5, 1), "R"), mv('l', (5, 4), "L")];
        let cps = checkpoints(&start, &start, &moves);
        assert_eq!(cps.iter().map(|c| c.after).collect::<Vec<_>>(), [2]);
        assert_eq!(cps[0].rows[5], "# kl #");
        assert!(checkpoints(&start, &start, &[mv('k', (5, 1), "U")]).is_empty());
    }

    #[test]
    fn a_held_piece_is_clicked_and_a_covered_board_ends_play() {
        use crate::vision::{CellIssue, GridRead};
        let mut r = Report::new("klotski", Verdict::Uncertain, "a piece is held");
        r.unreadable = vec![CellIssue {
            cell: [1, 2],
            why: "part of the held piece".into(),
        }];
        r.seen.grid = Some(GridRead {
            lattice: Lattice::uniform(0.0, 0.0, 20.0, 20.0, 3, 3),
            cells: Vec::new(),
        });
        let Step::Act { actions, .. } = step(&r) else {
            panic!("a held piece is not let go")
        };
        assert_eq!(actions, vec![Action::click_at(50.0, 30.0, (1, 2))]);
        r.unreadable[0].why = "90% of it is black: a dialog".into();
        assert_eq!(step(&r), Step::Done);
        r.unreadable[0].why = "none of the game's looks".into();
        assert!(matches!(step(&r), Step::Refuse(_)));
        let hidden = Report::new("klotski", Verdict::NoBoard, "no frame");
        assert_eq!(step(&hidden), Step::Done);
    }
}
