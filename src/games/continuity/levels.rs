//! The bundled levels, easiest first: `src/games/continuity/levels/*.txt`,
//! compiled in. Each file's comments say what it teaches.

/// Every bundled level: its file name (without `.txt`) and its text.
pub const LEVELS: &[(&str, &str)] = &[("01-walk", include_str!("levels/01-walk.txt"))];

/// A bundled level's text by its name (`01-walk`) or its number (`1`).
pub fn find(name: &str) -> Option<&'static str> {
    LEVELS
        .iter()
        .enumerate()
        .find(|(i, (n, _))| *n == name || name.parse::<usize>() == Ok(i + 1))
        .map(|(_, (_, t))| *t)
}
