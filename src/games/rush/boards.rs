//! The practice window's bundled boards: a spread of optimal lengths from
//! Fogleman's database (`boards.txt`), each length checked against the
//! solver by a unit test.

use super::solver::{Line, parse_lines};

const TEXT: &str = include_str!("boards.txt");

/// Every bundled board, shortest first.
pub fn all() -> Vec<Line> {
    // The file is part of the binary and checked by the tests below.
    parse_lines(TEXT).unwrap_or_default()
}

/// The board a seed picks.
pub fn pick(seed: u64) -> Option<Line> {
    let all = all();
    let n = all.len() as u64;
    (n > 0).then(|| all[(seed % n) as usize].clone())
}

#[cfg(test)]
mod tests {
    use super::super::board::Puzzle;
    use super::super::solver::solution_length;
    use super::*;

    #[test]
    fn every_bundled_length_is_the_solvers() {
        let all = all();
        assert!(all.len() >= 20, "{}", all.len());
        for l in &all {
            let (p, s) = Puzzle::parse(&l.board).unwrap();
            assert_eq!(solution_length(&p, s), Some(l.moves), "line {}", l.number);
        }
        assert_eq!(pick(0).map(|l| l.moves), Some(all[0].moves));
        assert_eq!(
            pick(all.len() as u64 + 1).map(|l| l.moves),
            Some(all[1].moves)
        );
    }
}
