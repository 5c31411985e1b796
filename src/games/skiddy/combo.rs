//! Among a level's shortest solutions, one that is a **combo**: for every
//! colour, all its skiddies leave on one move. The live plan prefers it.
//!
//! The solver returns one shortest solution. To find a combo among all of
//! the same length, this module walks the positions breadth first up to
//! that length, keeps those that lie on some shortest solution (working
//! back from the won positions at the last layer), and searches that
//! layered graph depth first, remembering the colours that have left
//! whole so far. It gives up (and the plan stays as the solver gave it)
//! when the layers hold more than a given number of positions.

use std::collections::HashSet;

use super::level::{Colour, Piece};
use super::rules::{Dir, Key, Move, Rules};

/// Skiddies of each colour at the start.
fn counts(rules: &Rules) -> [u8; 4] {
    let mut n = [0u8; 4];
    for p in &rules.slots {
        if let Piece::Skiddy(c) = p {
            n[c.index()] += 1;
        }
    }
    n
}

/// The colours (as bits) whose skiddies all left on `m`.
fn whole(count: &[u8; 4], m: &Move) -> u8 {
    Colour::ALL
        .into_iter()
        .filter(|c| count[c.index()] > 0 && m.left_of(*c) == count[c.index()])
        .fold(0, |bits, c| bits | 1 << c.index())
}

/// The colours present, as bits.
fn present(count: &[u8; 4]) -> u8 {
    (0..4).filter(|&i| count[i] > 0).fold(0, |b, i| b | 1 << i)
}

/// True when `moves` from the start is a combo.
pub fn is_combo(rules: &Rules, moves: &[Move]) -> bool {
    let count = counts(rules);
    moves.iter().fold(0, |b, m| b | whole(&count, m)) == present(&count)
}

/// The positions, layer by layer, that lie on a solution of `len` moves;
/// `None` over `max_states` positions.
fn shortest_layers(rules: &Rules, len: usize, max_states: usize) -> Option<Vec<HashSet<Key>>> {
    let mut seen: HashSet<Key> = HashSet::from([rules.start]);
    let mut layers = vec![vec![rules.start]];
    for _ in 0..len {
        let mut next = Vec::new();
        for s in layers.last()? {
            for d in Dir::ALL {
                if let Some((_, t)) = rules.play(s, d)
                    && seen.insert(t)
                {
                    next.push(t);
                }
            }
        }
        if seen.len() > max_states {
            return None;
        }
        layers.push(next);
    }
    let mut good = vec![HashSet::new(); len + 1];
    good[len] = layers[len]
        .iter()
        .filter(|k| rules.is_won(k))
        .copied()
        .collect();
    for d in (0..len).rev() {
        let on_path = |s: &&Key| {
            Dir::ALL.into_iter().any(|dir| {
                rules
                    .play(s, dir)
                    .is_some_and(|(_, t)| good[d + 1].contains(&t))
            })
        };
        good[d] = layers[d].iter().filter(on_path).copied().collect();
    }
    Some(good)
}

/// A shortest solution of `len` moves that is a combo, if there is one
/// (and the layers stay within `max_states` positions).
pub fn shortest_combo(rules: &Rules, len: usize, max_states: usize) -> Option<Vec<Move>> {
    let good = shortest_layers(rules, len, max_states)?;
    let count = counts(rules);
    let mut search = Search {
        rules,
        good: &good,
        count,
        need: present(&count),
        failed: HashSet::new(),
        path: Vec::new(),
    };
    search.from(rules.start, 0).then_some(search.path)
}

/// The depth-first search over the layered graph.
struct Search<'a> {
    rules: &'a Rules,
    good: &'a [HashSet<Key>],
    count: [u8; 4],
    need: u8,
    /// `(position, colours left whole)` pairs known to lead nowhere.
    failed: HashSet<(Key, u8)>,
    path: Vec<Move>,
}

impl Search<'_> {
    fn from(&mut self, s: Key, bits: u8) -> bool {
        let d = self.path.len();
        if d + 1 == self.good.len() {
            return bits == self.need;
        }
        if self.failed.contains(&(s, bits)) {
            return false;
        }
        for dir in Dir::ALL {
            let Some((m, t)) = self.rules.play(&s, dir) else {
                continue;
            };
            if !self.good[d + 1].contains(&t) {
                continue;
            }
            self.path.push(m);
            if self.from(t, bits | whole(&self.count, &m)) {
                return true;
            }
            self.path.pop();
        }
        self.failed.insert((s, bits));
        false
    }
}

#[cfg(test)]
mod tests {
    use super::super::level::Level;
    use super::*;

    fn rules(text: &str) -> Rules {
        Rules::new(&Level::parse(text).unwrap())
    }

    #[test]
    fn finds_the_combo_among_shortest_solutions() {
        // Two loose reds in the right column: L brings both under the
        // goal, and U takes both out together.
        let r = rules("sticky: no\n#R###\n#..r#\n#..r#\n#####\n");
        let moves = shortest_combo(&r, 2, 10_000).expect("a combo in 2");
        assert!(is_combo(&r, &moves));
        let dirs: String = moves.iter().map(ToString::to_string).collect();
        assert_eq!(dirs, "LU");
    }

    #[test]
    fn none_when_no_shortest_solution_is_a_combo() {
        // Two loose reds in one row: they leave one at a time (U L U).
        let r = rules("sticky: no\n#R###\n#r.r#\n#...#\n#####\n");
        assert!(shortest_combo(&r, 3, 10_000).is_none());
        assert!(shortest_combo(&r, 2, 10_000).is_none(), "no solution of 2");
    }

    #[test]
    fn a_combo_of_the_shortest_length_replays_to_a_win() {
        // Practice seed 24: U R U wins in 3 but the reds leave apart; L R U
        // takes them out together.
        let text = "sticky: yes\n#####R##\n#....r.#\n#.r...i#\n#......#\n#......#\n########\n";
        let r = rules(text);
        assert!(!is_combo(&r, &[r.play(&r.start, Dir::U).unwrap().0,]));
        let moves = shortest_combo(&r, 3, 100_000).expect("a combo in 3");
        assert!(is_combo(&r, &moves));
        let mut key = r.start;
        for m in &moves {
            key = r.play(&key, m.dir).unwrap().1;
        }
        assert!(r.is_won(&key));
    }
}
