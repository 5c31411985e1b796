//! The bundled levels, easiest first: `src/games/continuity/levels/*.txt`,
//! compiled in. Each file's comments say what it teaches.

/// Every bundled level: its file name (without `.txt`) and its text.
pub const LEVELS: &[(&str, &str)] = &[
    ("01-walk", include_str!("levels/01-walk.txt")),
    ("02-order", include_str!("levels/02-order.txt")),
    ("03-bridge", include_str!("levels/03-bridge.txt")),
    ("04-swap", include_str!("levels/04-swap.txt")),
    ("05-lift", include_str!("levels/05-lift.txt")),
    ("06-shuffle", include_str!("levels/06-shuffle.txt")),
    ("07-twice", include_str!("levels/07-twice.txt")),
    ("08-two-keys", include_str!("levels/08-two-keys.txt")),
    ("09-detour", include_str!("levels/09-detour.txt")),
    ("10-three-keys", include_str!("levels/10-three-keys.txt")),
    ("11-juggle", include_str!("levels/11-juggle.txt")),
    ("12-climb", include_str!("levels/12-climb.txt")),
    ("13-long-way", include_str!("levels/13-long-way.txt")),
];

/// A bundled level's text by its name (`01-walk`) or its number (`1`).
pub fn find(name: &str) -> Option<&'static str> {
    LEVELS
        .iter()
        .enumerate()
        .find(|(i, (n, _))| *n == name || name.parse::<usize>() == Ok(i + 1))
        .map(|(_, (_, t))| *t)
}
