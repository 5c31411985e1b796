//! A toy game in one file: the sliding 8-puzzle, to show what a new game
//! costs. It states only its rules (successors, goal, a heuristic) and its
//! text form; solve, walkthrough, batch, map, trace, export and JSON all
//! come from boardbot's core.
//!
//! ```sh
//! cargo run --release --example eight_puzzle -- solve --game eight --board 867254301 --walkthrough
//! cargo run --release --example eight_puzzle -- map --game eight --board 123456780 --json
//! cargo run --release --example eight_puzzle -- trace --game eight --board 123456708 --moves R,L,R
//! ```
//!
//! A position is nine digits, row by row, `0` the blank (`/` between rows
//! is allowed); the goal is `123456780`. A move names the direction the
//! blank goes: `U`, `D`, `L` or `R`.

use std::fmt;

use boardbot::game::PuzzleGame;
use boardbot::solve::Puzzle;
use boardbot::tools::TextPuzzle;
use boardbot::tools::options::{Opt, Options};

/// The direction the blank moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slide {
    U,
    D,
    L,
    R,
}

impl fmt::Display for Slide {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

/// The 8-puzzle has no fixed parts: the state is the whole position.
pub struct Eight;

/// Tiles row by row, 0 the blank.
pub type Tiles = [u8; 9];

const GOAL: Tiles = [1, 2, 3, 4, 5, 6, 7, 8, 0];

impl Puzzle for Eight {
    type State = Tiles;
    type Move = Slide;

    fn successors(&self, s: &Tiles, out: &mut Vec<(Slide, Tiles)>) {
        let Some(z) = s.iter().position(|&v| v == 0) else {
            return;
        };
        let (r, c) = (z / 3, z % 3);
        for (ok, to, m) in [
            (r > 0, z.wrapping_sub(3), Slide::U),
            (r < 2, z + 3, Slide::D),
            (c > 0, z.wrapping_sub(1), Slide::L),
            (c < 2, z + 1, Slide::R),
        ] {
            if ok {
                let mut n = *s;
                n.swap(z, to);
                out.push((m, n));
            }
        }
    }

    fn is_goal(&self, s: &Tiles) -> bool {
        *s == GOAL
    }

    /// Manhattan distance: admissible and consistent.
    fn heuristic(&self, s: &Tiles) -> Option<u32> {
        let sum = s
            .iter()
            .enumerate()
            .filter(|(_, v)| **v != 0)
            .map(|(i, &v)| {
                let g = usize::from(v) - 1;
                ((i / 3).abs_diff(g / 3) + (i % 3).abs_diff(g % 3)) as u32
            })
            .sum();
        Some(sum)
    }

    fn rows(&self, s: &Tiles) -> Vec<String> {
        s.chunks(3)
            .map(|r| {
                r.iter()
                    .map(|&v| if v == 0 { '.' } else { char::from(b'0' + v) })
                    .collect()
            })
            .collect()
    }

    fn key(&self, s: &Tiles) -> String {
        s.iter().map(|&v| char::from(b'0' + v)).collect()
    }
}

impl TextPuzzle for Eight {
    const ID: &'static str = "eight";
    const OPTIONS: &'static [Opt] = &[Opt::MaxMemory, Opt::Walkthrough];

    fn parse(text: &str, _opts: &Options) -> Result<(Eight, Tiles), String> {
        let digits: Vec<u8> = text
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '/')
            .map(|c| {
                c.to_digit(9)
                    .map(|d| d as u8)
                    .ok_or_else(|| format!("{c:?} is not a digit 0-8"))
            })
            .collect::<Result<_, _>>()?;
        let tiles: Tiles = digits
            .as_slice()
            .try_into()
            .map_err(|_| format!("expected 9 digits, got {}", digits.len()))?;
        let mut seen = [false; 9];
        for &t in &tiles {
            if std::mem::replace(&mut seen[usize::from(t)], true) {
                return Err(format!("digit {t} appears twice"));
            }
        }
        Ok((Eight, tiles))
    }

    fn reversible(&self) -> bool {
        true
    }
}

/// The game, ready for a registry.
pub static EIGHT: PuzzleGame<Eight> = PuzzleGame::new("the sliding 8-puzzle (a toy game)");

/// The registry line: what the game adds to the command line.
pub static GAMES: [&dyn boardbot::game::Game; 1] = [&EIGHT];

#[allow(dead_code)]
fn main() {
    std::process::exit(boardbot::cli::main_with(&GAMES));
}
