//! GNOME Klotski's 28 levels, compiled in from `levels.txt` (transcribed
//! verbatim from GNOME/gnome-klotski 3.38.2, GPL-3.0-or-later; see the
//! file's header). A level is found by its GSettings index or its name.

use std::sync::OnceLock;

use crate::engines::blocks::Layout;
use crate::engines::blocks::layout::parse_levels;

const TEXT: &str = include_str!("levels.txt");

/// The packs, by GNOME's group number.
const GROUPS: [&str; 3] = ["Huarong Trail", "Challenge", "Skill"];

/// One bundled level.
#[derive(Clone, Debug)]
pub struct Level {
    /// GSettings `level` value, 0..=27: the index in GNOME's array.
    pub index: usize,
    pub name: &'static str,
    /// The pack: Huarong Trail, Challenge or Skill.
    pub group: &'static str,
    layout: Layout,
}

impl Level {
    /// The start position.
    pub fn layout(&self) -> Layout {
        self.layout.clone()
    }
}

/// Every bundled level, by index.
pub fn all() -> &'static [Level] {
    static LEVELS: OnceLock<Vec<Level>> = OnceLock::new();
    LEVELS.get_or_init(load)
}

/// Reads `levels.txt`; a bad file is a build defect (the tests read it).
fn load() -> Vec<Level> {
    let entries = parse_levels(TEXT, "klotski/levels.txt").unwrap_or_default();
    entries
        .into_iter()
        .map(|e| {
            let mut layout = e.layout.clone();
            let width = e
                .get("size")
                .and_then(|s| s.split_once('x'))
                .and_then(|(w, _)| w.parse().ok())
                .unwrap_or(layout.width);
            layout.widen(width);
            let group = e
                .get("group")
                .and_then(|g| g.split_whitespace().next())
                .and_then(|g| g.parse::<usize>().ok())
                .and_then(|g| GROUPS.get(g).copied())
                .unwrap_or("");
            Level {
                index: e
                    .get("index")
                    .and_then(|i| i.parse().ok())
                    .unwrap_or(usize::MAX),
                name: Box::leak(e.get("name").unwrap_or("").to_string().into_boxed_str()),
                group,
                layout,
            }
        })
        .collect()
}

/// True when one of the levels is `width` by `height` cells. It looks for
/// that `% size` line in the text, so a board of no level's size costs no
/// parse of the levels or of the shipped plans (nor a pass over every
/// line, which cost more than solving Only 18 Steps' box).
pub fn has_size(width: usize, height: usize) -> bool {
    let line = format!("% size: {width}x{height}");
    TEXT.match_indices(&line)
        .any(|(i, _)| TEXT[i + line.len()..].starts_with(['\n', '\r']))
}

/// A level by its GSettings index (`6`) or its name (`Red Donkey`, any case).
pub fn find(key: &str) -> Option<&'static Level> {
    let key = key.trim();
    all()
        .iter()
        .find(|l| key.parse::<usize>() == Ok(l.index) || l.name.eq_ignore_ascii_case(key))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::blocks::Floor;

    #[test]
    fn a_size_is_a_levels_exactly() {
        assert!(has_size(6, 9));
        assert!(has_size(17, 22));
        assert!(has_size(19, 19));
        // Only 18 Steps' 4x5 box, and sizes that begin or end like a level's.
        assert!(!has_size(4, 5));
        assert!(!has_size(6, 1));
        assert!(!has_size(7, 1));
        assert!(!has_size(9, 19));
    }

    #[test]
    fn all_28_levels_load_with_their_sizes() {
        let text_levels = parse_levels(TEXT, "levels.txt").expect("levels.txt parses");
        assert_eq!(text_levels.len(), 28);
        let all = all();
        assert_eq!(all.len(), 28);
        let sizes: Vec<(usize, usize)> = all
            .iter()
            .map(|l| (l.layout.width, l.layout.height))
            .collect();
        assert_eq!(sizes[19], (19, 19));
        assert_eq!(sizes[27], (17, 22));
        for (i, l) in all.iter().enumerate() {
            assert_eq!(l.index, i);
            assert!(!l.name.is_empty() && !l.group.is_empty(), "{i}");
        }
        let counts: Vec<usize> = all.iter().map(|l| l.layout.pieces.len()).collect();
        assert_eq!(
            counts,
            [
                15, 13, 12, 12, 11, 11, 10, 10, 10, 9, 12, 9, 10, 13, 13, 10, 20, 12, 9, 58, 10,
                14, 12, 10, 13, 25, 14, 68
            ]
        );
    }

    #[test]
    fn every_level_has_its_size_and_other_sizes_are_no_level() {
        for l in all() {
            assert!(has_size(l.layout.width, l.layout.height), "{}", l.name);
        }
        // The classic box (6x7) and the Huarong Dao interior (4x5).
        assert!(!has_size(6, 7));
        assert!(!has_size(4, 5));
    }

    #[test]
    fn finds_levels_by_index_or_name() {
        let l = find("6").unwrap();
        assert_eq!(l.name, "Red Donkey");
        assert_eq!(l.group, "Huarong Trail");
        assert_eq!(find("red donkey").unwrap().index, 6);
        assert_eq!(find("Sunshine").unwrap().group, "Skill");
        assert!(find("28").is_none());
        // Agatka's first row keeps its trailing free cells.
        let a = find("Agatka").unwrap().layout();
        assert_eq!(a.width, 7);
        assert_eq!(a.floor_at(0, 6), Floor::Free);
    }
}
