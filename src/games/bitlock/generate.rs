//! Generated practice levels with a known optimal length.
//!
//! A level is an 8 × 8 map with a wall ring, a few inner walls, sometimes a
//! fixed destroyer, two to four tiles of one or two types (sometimes a
//! reverse one) and a target per tile. The engine's solver solves each
//! candidate; only levels whose proven optimum lies in
//! [`MIN_MOVES`]`..=`[`MAX_MOVES`] are kept. The same seed gives the same level.

use super::level::Level;
use super::rules::Rules;
use super::screen::optimal;
use crate::rng::Rng;
use crate::tools::options::Win;

pub const MIN_MOVES: usize = 6;
pub const MAX_MOVES: usize = 20;
const SIDE: usize = 8;
/// Candidates tried before giving up on a seed (each a few milliseconds).
const TRIES: usize = 5000;

/// A generated level and its optimal solution.
#[derive(Clone, Debug, PartialEq)]
pub struct Generated {
    /// The level in the engine's text format.
    pub text: String,
    /// One optimal solution, `LURD…`.
    pub solution: String,
}

/// One random candidate map, as text.
fn candidate(rng: &mut Rng) -> String {
    let mut g = vec![vec![' '; SIDE]; SIDE];
    for (r, row) in g.iter_mut().enumerate() {
        for (c, ch) in row.iter_mut().enumerate() {
            if r == 0 || c == 0 || r == SIDE - 1 || c == SIDE - 1 {
                *ch = '#';
            }
        }
    }
    let mut free: Vec<(usize, usize)> = (1..SIDE - 1)
        .flat_map(|r| (1..SIDE - 1).map(move |c| (r, c)))
        .collect();
    let mut take = |rng: &mut Rng| free.swap_remove(rng.below(free.len()));
    for _ in 0..rng.below(6) {
        let (r, c) = take(rng);
        g[r][c] = '#';
    }
    if rng.below(3) == 0 {
        let (r, c) = take(rng);
        g[r][c] = '+';
    }
    let types = 1 + rng.below(2);
    let tiles = 2 + rng.below(3);
    for i in 0..tiles {
        let kind = (i % types) as u8;
        let reverse = i == tiles - 1 && rng.below(3) == 0;
        let (r, c) = take(rng);
        g[r][c] = if reverse {
            char::from(b'z' - kind)
        } else {
            char::from(b'a' + kind)
        };
        let (r, c) = take(rng);
        g[r][c] = char::from(b'A' + kind);
    }
    g.iter()
        .map(|row| row.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The level of a seed: the first candidate whose optimum is in range.
pub fn generate(seed: u64) -> Option<Generated> {
    let mut rng = Rng::new(seed ^ 0xB17_10C);
    for _ in 0..TRIES {
        let text = candidate(&mut rng);
        let Ok(rules) = Level::parse(&text)
            .map_err(|_| ())
            .and_then(|l| Rules::new(l).map_err(|_| ()))
        else {
            continue;
        };
        if let Some((solution, true)) = optimal(&rules, Win::Cover, 200_000) {
            if (MIN_MOVES..=MAX_MOVES).contains(&solution.len()) {
                return Some(Generated { text, solution });
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bitlock::solver::replay;

    #[test]
    fn seeds_give_levels_with_a_known_optimum() {
        for seed in 1..6 {
            let g = generate(seed).expect("a level");
            assert_eq!(
                generate(seed).as_ref(),
                Some(&g),
                "the same seed, the same level"
            );
            assert!((MIN_MOVES..=MAX_MOVES).contains(&g.solution.len()), "{g:?}");
            let rules = Rules::new(Level::parse(&g.text).unwrap()).unwrap();
            let states = replay(&rules, &g.solution).unwrap();
            assert_eq!(states.len(), g.solution.len() + 1);
        }
    }
}
