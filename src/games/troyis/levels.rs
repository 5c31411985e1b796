//! Level generation for the practice board: a random knight walk from the
//! top left corner, whose cells become the targets, so every level has a
//! Hamiltonian path, as the game's own levels do.

use super::board::{Board, Square, knight_steps};

/// A small deterministic generator (PCG-style LCG), so a seed always gives
/// the same level.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03)
    }

    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

/// Board side and target count for a practice level number (from 1).
pub fn level_shape(level: u32) -> (usize, usize) {
    let side = (4 + level as usize / 2).min(12);
    (side, side * side * 11 / 20)
}

/// A `side × side` board with `targets` targets reachable by one knight
/// walk from the top left corner. `targets` is capped at what a walk of the
/// board can reach.
pub fn generate(side: usize, targets: usize, seed: u64) -> Board {
    let side = side.clamp(3, super::board::MAX_SIDE);
    let want = targets.clamp(1, side * side - 1);
    let mut rng = Rng::new(seed);
    let mut best: Option<Vec<Vec<Square>>> = None;
    let mut best_len = 0;
    for _ in 0..200 {
        let mut grid = vec![vec![Square::Dark; side]; side];
        grid[0][0] = Square::Knight;
        let (mut r, mut c) = (0usize, 0usize);
        let mut len = 0;
        while len < want {
            let moves: Vec<(usize, usize)> = knight_steps(side, side, (r, c))
                .filter(|&(nr, nc)| grid[nr][nc] == Square::Dark)
                .collect();
            if moves.is_empty() {
                break;
            }
            (r, c) = moves[rng.below(moves.len())];
            grid[r][c] = Square::Target;
            len += 1;
        }
        if len > best_len {
            best_len = len;
            best = Some(grid);
        }
        if len == want {
            break;
        }
    }
    Board::from_squares(best.expect("at least one walk")).expect("one knight")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::troyis::solver::{Limits, solve};

    #[test]
    fn levels_are_deterministic_and_have_hamiltonian_paths() {
        for level in 1..=12 {
            let (side, targets) = level_shape(level);
            let a = generate(side, targets, u64::from(level));
            assert_eq!(a, generate(side, targets, u64::from(level)));
            assert_eq!((a.rows(), a.cols()), (side, side));
            assert_eq!(a.knight(), (0, 0));
            let plan = solve(&a, &Limits::default()).unwrap();
            assert!(plan.hamiltonian, "level {level}: {a}");
        }
    }
}
