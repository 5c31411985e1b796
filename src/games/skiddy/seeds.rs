//! Small seeded levels for the practice window (`--seed S`).
//!
//! A candidate is a 7 × 6 to 8 × 7 board: a block ring, a goal on the ring
//! for each of one or two colours, one or two skiddies of each, a few inner
//! blocks, and sometimes a crate, an ice cube or a pit; sticky or not at
//! random. The solver solves each; the first whose shortest solution takes
//! [`MIN_MOVES`]`..=`[`MAX_MOVES`] moves is the seed's level. The same seed
//! gives the same level. (The full level generator is `boardbot generate`;
//! this one only has to give the window something to play.)

use super::Skiddy;
use super::level::{Colour, Level};
use super::rules::{Move, Rules};
use crate::report::Verdict;
use crate::rng::Rng;
use crate::tools;
use crate::tools::options::Options;

pub const MIN_MOVES: usize = 3;
pub const MAX_MOVES: usize = 12;
/// Candidates tried before giving up on a seed.
const TRIES: usize = 3000;
/// Positions the solver may visit per candidate.
const BUDGET: u64 = 100_000;

/// A seed's level and one shortest solution.
#[derive(Clone, Debug)]
pub struct Seeded {
    pub text: String,
    pub solution: Vec<Move>,
}

/// Where goals may go: the ring without its corners.
fn ring_cells(w: usize, h: usize) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = (1..w - 1).flat_map(|c| [(0, c), (h - 1, c)]).collect();
    out.extend((1..h - 1).flat_map(|r| [(r, 0), (r, w - 1)]));
    out
}

/// One random candidate, as level text.
fn candidate(rng: &mut Rng) -> String {
    let (w, h) = (7 + rng.below(2), 6 + rng.below(2));
    let mut g = vec![vec!['#'; w]; h];
    let mut free: Vec<(usize, usize)> = (1..h - 1)
        .flat_map(|r| (1..w - 1).map(move |c| (r, c)))
        .collect();
    for &(r, c) in &free {
        g[r][c] = '.';
    }
    let mut ring = ring_cells(w, h);
    let mut put = |rng: &mut Rng, g: &mut Vec<Vec<char>>, ch: char| {
        let (r, c) = free.swap_remove(rng.below(free.len()));
        g[r][c] = ch;
    };
    for _ in 0..rng.below(4) {
        put(rng, &mut g, '#');
    }
    for colour in &Colour::ALL[..1 + rng.below(2)] {
        let (r, c) = ring.swap_remove(rng.below(ring.len()));
        g[r][c] = colour.letter().to_ascii_uppercase();
        for _ in 0..1 + rng.below(2) {
            put(rng, &mut g, colour.letter());
        }
    }
    for (ch, odds) in [('c', 2), ('c', 4), ('i', 3), ('o', 3)] {
        if rng.below(odds) == 0 {
            put(rng, &mut g, ch);
        }
    }
    let sticky = if rng.below(2) == 0 { "yes" } else { "no" };
    let rows: Vec<String> = g.iter().map(|r| r.iter().collect()).collect();
    format!("sticky: {sticky}\n{}\n", rows.join("\n"))
}

/// A level's shortest solution within a small budget.
pub fn shortest(rules: &Rules, max_nodes: u64) -> Option<Vec<Move>> {
    let game = Skiddy {
        rules: rules.clone(),
    };
    let opts = Options {
        max_nodes: Some(max_nodes),
        ..Options::default()
    };
    let (r, moves) = tools::solve_parsed(&game, &rules.start, &opts).ok()?;
    (r.state == Verdict::Playable).then_some(moves)
}

/// The level of a seed.
pub fn seeded(seed: u64) -> Option<Seeded> {
    let mut rng = Rng::new(seed ^ 0x5C1D_D1E5);
    for _ in 0..TRIES {
        let text = candidate(&mut rng);
        let Ok(level) = Level::parse(&text) else {
            continue;
        };
        let rules = Rules::new(&level);
        if let Some(solution) = shortest(&rules, BUDGET)
            && (MIN_MOVES..=MAX_MOVES).contains(&solution.len())
        {
            return Some(Seeded { text, solution });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_give_solvable_levels_of_a_few_moves() {
        for seed in 1..6 {
            let s = seeded(seed).expect("a level");
            assert_eq!(
                seeded(seed).unwrap().text,
                s.text,
                "the same seed, the same level"
            );
            assert!(
                (MIN_MOVES..=MAX_MOVES).contains(&s.solution.len()),
                "{}",
                s.text
            );
            let rules = Rules::new(&Level::parse(&s.text).unwrap());
            let mut key = rules.start;
            for m in &s.solution {
                key = rules.play(&key, m.dir).unwrap().1;
            }
            assert!(rules.is_won(&key));
        }
    }
}
