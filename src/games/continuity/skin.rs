//! Continuity through a learned skin: a frame's cells labelled as the
//! reader reports them ([`Shown::rows`]: each scene cell's letter, `_` for
//! the empty slot's cells, and a row or column of `+` for each gap between
//! slots), and a frame back from such labels.
//!
//! A skin is learned on a frame of slots (`skin_slot` gives a slot's
//! side), so the gaps are cells of their own width. No cell shows the
//! jump's height: the skin keeps the taught level's (`jump 3`, as the
//! level text writes it), so that a read plans with the jump of the game
//! it was taught on.

use super::art::{Drawn, EMPTY_LETTER, Shown, gap_letter};
use super::level::{Level, jump_header};
use super::render::shown_of;
use super::rules::{View, World};

/// Slots a frame has a side, as the level format allows.
const FRAME_SLOTS: std::ops::RangeInclusive<usize> = 2..=4;

/// Each cell's label, from a level: its start as the play view shows it.
pub fn labels_of(text: &str) -> Result<Vec<Vec<String>>, String> {
    let level = Level::parse(text).map_err(|e| e.to_string())?;
    let world = World::new(level);
    let shown = shown_of(&world, &world.start());
    Ok(shown
        .rows()
        .iter()
        .map(|r| r.chars().map(String::from).collect())
        .collect())
}

/// A slot's side in cells, from a level.
pub fn slot_of(text: &str) -> Option<usize> {
    Level::parse(text).ok().map(|l| l.size)
}

/// What a level says that no cell shows: its jump, as the level text
/// writes it.
pub fn rules_of(text: &str) -> Option<String> {
    Level::parse(text).ok().map(|l| format!("jump {}", l.jump))
}

/// The jump that a skin's rules give ([`rules_of`]). A skin without
/// rules was calibrated before boardbot kept them: its game's jump is
/// unknown, and guessing it could plan a wrong jump.
pub fn jump_of(rules: Option<&str>) -> Result<u8, String> {
    let Some(r) = rules else {
        return Err("this calibration does not say how high its game's character jumps (it was taught before boardbot kept that): calibrate again".into());
    };
    jump_header(r)
        .ok_or_else(|| format!("the skin's rules {r:?} are not `jump N`: calibrate again"))
}

/// The frame that cells of these labels show under a jump of `jump`, or
/// why none does.
pub fn shown_of_labels(labels: &[Vec<String>], jump: u8) -> Result<Shown, String> {
    let letters: Vec<Vec<char>> = labels
        .iter()
        .map(|r| r.iter().map(|l| l.chars().next().unwrap_or('?')).collect())
        .collect();
    let view = if letters
        .iter()
        .flatten()
        .any(|&c| c == gap_letter(View::Tiles))
    {
        View::Tiles
    } else {
        View::Play
    };
    let gap = gap_letter(view);
    let height = letters.len();
    let width = letters.first().map_or(0, Vec::len);
    if letters.iter().any(|r| r.len() != width) {
        return Err("the rows read differ in length".into());
    }
    let size = (0..height)
        .find(|&r| letters[r].iter().all(|&c| c == gap))
        .ok_or("no gap between slots was read")?;
    let slots_of =
        |len: usize| (size > 0 && (len + 1) % (size + 1) == 0).then_some((len + 1) / (size + 1));
    let (Some(rows), Some(cols)) = (slots_of(height), slots_of(width)) else {
        return Err(format!(
            "a {height}×{width} frame is not made of slots {size} cells a side"
        ));
    };
    if !(FRAME_SLOTS.contains(&rows) && FRAME_SLOTS.contains(&cols)) {
        return Err(format!(
            "a frame of {rows}×{cols} slots: a frame has 2 to 4 a side"
        ));
    }
    for (r, line) in letters.iter().enumerate() {
        for (c, &l) in line.iter().enumerate() {
            let in_gap = r % (size + 1) == size || c % (size + 1) == size;
            if in_gap != (l == gap) {
                return Err(format!(
                    "cell ({r},{c}) reads {l:?} where the frame's slots and gaps do not put one"
                ));
            }
        }
    }
    let slots = (0..rows * cols)
        .map(|k| slot_cells(&letters, size, (k / cols, k % cols)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Shown {
        rows,
        cols,
        size,
        slots,
        view,
        jump,
    })
}

/// One slot's cells, or `None` for the empty slot.
fn slot_cells(
    letters: &[Vec<char>],
    size: usize,
    (sr, sc): (usize, usize),
) -> Result<Option<Vec<Drawn>>, String> {
    let at = |i: usize, j: usize| letters[sr * (size + 1) + i][sc * (size + 1) + j];
    let cells: Vec<char> = (0..size * size).map(|k| at(k / size, k % size)).collect();
    let empty = cells.iter().filter(|&&c| c == EMPTY_LETTER).count();
    match empty {
        0 => cells
            .iter()
            .map(|&c| Drawn::from_letter(c).ok_or(format!("slot ({sr},{sc}) has a cell {c:?}")))
            .collect::<Result<Vec<_>, _>>()
            .map(Some),
        n if n == cells.len() => Ok(None),
        _ => Err(format!(
            "slot ({sr},{sc}) is partly empty: a scene may be sliding"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LEVEL: &str =
        "jump 2\nAB\nC.\n\nA:\n...\n.@.\n###\nB:\n..D\n.k.\n###\nC:\n...\n...\n###\n";

    #[test]
    fn a_frame_reads_back_from_its_labels() {
        let labels = labels_of(LEVEL).unwrap();
        assert_eq!(labels.len(), 7);
        assert_eq!(labels[3].concat(), "+++++++");
        assert_eq!(labels[4].concat(), "...+___");
        assert_eq!(slot_of(LEVEL), Some(3));
        let shown = shown_of_labels(&labels, 2).unwrap();
        let rows: Vec<Vec<String>> = shown
            .rows()
            .iter()
            .map(|r| r.chars().map(String::from).collect())
            .collect();
        assert_eq!(rows, labels);
        assert!(super::super::screen::frame_of(&shown).is_ok());
    }

    #[test]
    fn a_partly_empty_slot_or_a_misplaced_gap_is_refused() {
        let mut labels = labels_of(LEVEL).unwrap();
        labels[4][4] = ".".into();
        assert!(
            shown_of_labels(&labels, 2)
                .unwrap_err()
                .contains("partly empty")
        );
        let mut labels = labels_of(LEVEL).unwrap();
        labels[0][3] = ".".into();
        assert!(shown_of_labels(&labels, 2).is_err());
        let mut labels = labels_of(LEVEL).unwrap();
        labels.pop();
        assert!(shown_of_labels(&labels, 2).is_err());
        let mut labels = labels_of(LEVEL).unwrap();
        labels[5].truncate(3);
        assert!(shown_of_labels(&labels, 2).unwrap_err().contains("length"));
        assert!(shown_of_labels(&[], 2).is_err());
    }

    /// The jump no cell shows comes from the taught level, and a read
    /// takes it; a skin without one takes the format's default.
    #[test]
    fn the_jump_is_the_taught_levels() {
        let three = LEVEL.replace("jump 2", "jump 3");
        assert_eq!(rules_of(&three).as_deref(), Some("jump 3"));
        assert_eq!(rules_of(LEVEL).as_deref(), Some("jump 2"));
        assert_eq!(jump_of(Some("jump 3")), Ok(3));
        for bad in [
            None,
            Some("jump 0"),
            Some("jump 16"),
            Some("fly 3"),
            Some("jump"),
        ] {
            assert!(jump_of(bad).unwrap_err().contains("calibrate"), "{bad:?}");
        }
        let labels = labels_of(&three).unwrap();
        let shown =
            shown_of_labels(&labels, jump_of(rules_of(&three).as_deref()).unwrap()).unwrap();
        assert_eq!(shown.jump, 3);
        let frame = super::super::screen::frame_of(&shown).unwrap();
        let (world, _) = frame.level.expect("a level to play");
        assert_eq!(world.level.jump, 3, "the plan is made with the taught jump");
    }
}
