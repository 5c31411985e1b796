//! Tests of the dedicated search against the generic core over the
//! independent rules ([`super::rules`]): the same optimal counts on random
//! small boards and on the small GNOME levels, under both metrics, and the
//! fewest-steps tie-break against a lexicographic Dijkstra.
#![cfg(test)]

use super::layout::Layout;
use super::moves::{Metric, Move};
use super::rules::{Blocks, State, generic_search};
use crate::rng::Rng;
use crate::solve::{Budget, Found, Progress, Puzzle, dijkstra};

fn generic(l: &Layout, metric: Metric) -> Option<usize> {
    match generic_search(l, metric, &Budget::default()) {
        Found::Path(p) => Some(p.len()),
        _ => None,
    }
}

/// The dedicated plan's length, after checking it replays to the goal.
fn dedicated(l: &Layout, metric: Metric) -> Option<usize> {
    let (b, s) = Blocks::new(l.clone(), metric);
    let sol = b.solve(&s, &Budget::default(), &mut Progress::quiet());
    let Found::Path(p) = &sol.found else {
        return None;
    };
    let states = b.replay(&s, p).expect("the plan replays");
    assert!(b.is_goal(states.last().expect("a state")));
    if metric == Metric::Steps {
        assert!(p.iter().all(|m| m.path.len() == 1));
    } else {
        assert!(
            p.windows(2).all(|w| w[0].label != w[1].label),
            "merged moves"
        );
    }
    Some(p.len())
}

/// A random box of `w`×`h` free cells with a 1×1 or 2×1 special piece, a
/// goal of its shape, and random 1×1, 1×2 and 2×1 pieces.
fn random_board(rng: &mut Rng, w: usize, h: usize) -> Option<Layout> {
    let g_row = |r: usize| -> Vec<char> {
        (0..w + 2)
            .map(|c| {
                if r == 0 || c == 0 || r == h + 1 || c == w + 1 {
                    '#'
                } else {
                    ' '
                }
            })
            .collect()
    };
    let mut g: Vec<Vec<char>> = (0..h + 2).map(g_row).collect();
    let tall = rng.below(2) == 1;
    let cells = |r: usize, c: usize| {
        if tall {
            vec![(r, c), (r + 1, c)]
        } else {
            vec![(r, c)]
        }
    };
    let (gr, gc) = (1 + rng.below(h - 1), 1 + rng.below(w));
    let goal = cells(gr, gc);
    let (sr, sc) = (1 + rng.below(h - 1), 1 + rng.below(w));
    let mut floor_goal = vec![vec![false; w + 2]; h + 2];
    for &(r, c) in &goal {
        floor_goal[r][c] = true;
    }
    for (r, c) in cells(sr, sc) {
        g[r][c] = '*';
    }
    let labels = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    for &label in labels.iter().take(2 + rng.below(5)) {
        let (r, c) = (1 + rng.below(h), 1 + rng.below(w));
        let shape: Vec<(usize, usize)> = match rng.below(3) {
            0 => vec![(r, c)],
            1 => vec![(r, c), (r, c + 1)],
            _ => vec![(r, c), (r + 1, c)],
        };
        if shape.iter().all(|&(r, c)| g[r][c] == ' ') {
            for (r, c) in shape {
                g[r][c] = label;
            }
        }
    }
    let rows: Vec<String> = g.iter().map(|r| r.iter().collect()).collect();
    let floor: Vec<String> = (0..h + 2)
        .map(|r| {
            (0..w + 2)
                .map(|c| {
                    if floor_goal[r][c] {
                        '.'
                    } else if g[r][c] == '#' {
                        '#'
                    } else {
                        ' '
                    }
                })
                .collect()
        })
        .collect();
    // Goal cells not under a piece are written `.` in the first block too.
    let first: Vec<String> = rows
        .iter()
        .zip(&floor)
        .map(|(p, f)| {
            p.chars()
                .zip(f.chars())
                .map(|(p, f)| if p == ' ' && f == '.' { '.' } else { p })
                .collect()
        })
        .collect();
    let text = format!("{}\n% floor\n{}\n", first.join("\n"), floor.join("\n"));
    Layout::parse(&text, "random").ok()
}

#[test]
fn dedicated_and_generic_agree_on_random_boards() {
    let mut rng = Rng::new(11);
    let mut solved = 0;
    for i in 0..120 {
        let Some(l) = random_board(&mut rng, 3 + i % 2, 3 + i % 3) else {
            continue;
        };
        for m in [Metric::Steps, Metric::Pieces] {
            let (d, g) = (dedicated(&l, m), generic(&l, m));
            assert_eq!(d, g, "{m:?} on\n{}", l.rows().join("\n"));
            solved += usize::from(d.is_some());
        }
    }
    assert!(solved > 100, "only {solved} solvable boards");
}

#[test]
fn small_gnome_levels_agree_with_the_generic_search() {
    for i in [0, 9, 11, 15, 18] {
        let l = crate::games::klotski::levels::all()[i].layout();
        for m in [Metric::Steps, Metric::Pieces] {
            assert_eq!(dedicated(&l, m), generic(&l, m), "level {i} {m:?}");
        }
    }
}

/// Fewest piece moves, then fewest cells: Dijkstra over cost
/// 1000 per move + 1 per cell must agree with the dedicated tie-break.
#[test]
fn fewest_steps_among_fewest_piece_moves() {
    let classic = include_str!("../../../tests/fixtures/klotski/classic.txt");
    for text in [
        classic,
        "######\n#a**b#\n#m**n#\n#cdef#\n#ghij#\n#k  l#\n##--##\n    ..\n    ..\n",
    ] {
        let l = Layout::parse(text, "t").unwrap();
        let (b, s) = Blocks::new(l.clone(), Metric::Pieces);
        let (found, _) = dijkstra(
            s.clone(),
            |s: &State, out: &mut Vec<(Move, State)>| b.successors(s, out),
            |m: &Move| 1000 + m.path.len() as u32,
            |_: &State| 0,
            |s: &State| b.is_goal(s),
            &Budget::default(),
            &mut Progress::quiet(),
        );
        let Found::Path(best) = found else {
            panic!("solvable")
        };
        let sol = b.solve(&s, &Budget::default(), &mut Progress::quiet());
        let Found::Path(ours) = sol.found else {
            panic!("solvable")
        };
        let cells = |p: &[Move]| p.iter().map(|m| m.path.len()).sum::<usize>();
        assert_eq!((ours.len(), cells(&ours)), (best.len(), cells(&best)));
    }
}
