//! Which piece went where in one move, for drawing its animation.
//!
//! The engine's keys are canonical (pieces of one kind are
//! interchangeable), so a move's before and after do not say which piece
//! went where. They need not: every piece moves along its own row (or
//! column) in the move's direction, and no piece passes another of its
//! line, so within one line the pieces of one kind keep their order.
//! Matching them front first gives each its path; the skiddies of a line
//! that left are its front ones, and each goes to the goal of its colour
//! ahead of it.
//!
//! Every piece slides at the same speed and stops at its end, so a frame
//! at fraction `f` of the animation has moved each piece
//! `min(its distance, f × the longest distance)` cells.

use super::art::Sprite;
use super::level::{Ground, Piece};
use super::rules::{Dir, GONE, Key, Rules};

/// One piece's path in a move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Path {
    pub piece: Piece,
    pub from: usize,
    /// Its cell after the move; for a skiddy that left, its goal.
    pub to: usize,
    /// The skiddy left through its goal.
    pub leaves: bool,
}

/// `(line, position along the move)` of a cell: larger is further ahead.
fn line_pos(rules: &Rules, cell: usize, dir: Dir) -> (usize, i64) {
    let (r, c) = (cell / rules.width, cell % rules.width);
    match dir {
        Dir::L => (r, -(c as i64)),
        Dir::R => (r, c as i64),
        Dir::U => (c, -(r as i64)),
        Dir::D => (c, r as i64),
    }
}

/// The goal of `piece`'s colour ahead of `cell`, or the last cell before
/// the board's edge when there is none.
fn exit(rules: &Rules, piece: Piece, cell: usize, dir: Dir) -> usize {
    let mut at = cell;
    loop {
        let (r, c) = ((at / rules.width) as i64, (at % rules.width) as i64);
        let (nr, nc) = match dir {
            Dir::U => (r - 1, c),
            Dir::D => (r + 1, c),
            Dir::L => (r, c - 1),
            Dir::R => (r, c + 1),
        };
        if nr < 0 || nc < 0 || nr >= rules.height as i64 || nc >= rules.width as i64 {
            return at;
        }
        at = nr as usize * rules.width + nc as usize;
        if let (Ground::Goal(g), Piece::Skiddy(s)) = (rules.ground[at], piece)
            && g == s
        {
            return at;
        }
    }
}

/// The cells of every piece of `kind` on `line`, front first.
fn on_line(rules: &Rules, key: &Key, kind: Piece, line: usize, dir: Dir) -> Vec<usize> {
    let mut cells: Vec<usize> = rules
        .slots
        .iter()
        .zip(key.0)
        .filter(|&(&p, c)| p == kind && c != GONE && line_pos(rules, usize::from(c), dir).0 == line)
        .map(|(_, c)| usize::from(c))
        .collect();
    cells.sort_by_key(|&c| std::cmp::Reverse(line_pos(rules, c, dir).1));
    cells
}

/// The paths of every piece from `before` to `after` in a move `dir`.
pub fn paths(rules: &Rules, before: &Key, after: &Key, dir: Dir) -> Vec<Path> {
    let mut kinds = rules.slots.clone();
    kinds.dedup();
    let lines = match dir {
        Dir::L | Dir::R => rules.height,
        Dir::U | Dir::D => rules.width,
    };
    let mut out = Vec::new();
    for &kind in &kinds {
        for line in 0..lines {
            let from = on_line(rules, before, kind, line, dir);
            let to = on_line(rules, after, kind, line, dir);
            let gone = from.len().saturating_sub(to.len());
            for (i, &f) in from.iter().enumerate() {
                let (to, leaves) = match i.checked_sub(gone) {
                    None => (exit(rules, kind, f, dir), true),
                    Some(j) => (to.get(j).copied().unwrap_or(f), false),
                };
                out.push(Path {
                    piece: kind,
                    from: f,
                    to,
                    leaves,
                });
            }
        }
    }
    out
}

/// Every piece of `paths` drawn at fraction `f` (0–1) of the animation;
/// a skiddy that reached its goal is gone.
pub fn sprites_at(rules: &Rules, paths: &[Path], f: f64) -> Vec<Sprite> {
    let w = rules.width;
    let rc = |c: usize| ((c / w) as f64, (c % w) as f64);
    let dist = |p: &Path| {
        let ((r0, c0), (r1, c1)) = (rc(p.from), rc(p.to));
        (r1 - r0).abs() + (c1 - c0).abs()
    };
    let longest = paths.iter().map(dist).fold(0.0, f64::max);
    paths
        .iter()
        .filter_map(|p| {
            let d = dist(p);
            let moved = (f * longest).min(d);
            if p.leaves && moved >= d {
                return None;
            }
            let ((r0, c0), (r1, c1)) = (rc(p.from), rc(p.to));
            let t = if d > 0.0 { moved / d } else { 0.0 };
            let (row, col) = (r0 + (r1 - r0) * t, c0 + (c1 - c0) * t);
            let still = moved == 0.0 || moved == d;
            let cell = if moved == d { p.to } else { p.from };
            Some(Sprite {
                row,
                col,
                piece: p.piece,
                sunk: still && rules.ground[cell] == Ground::Pit,
            })
        })
        .collect()
}

/// How far off its cell a piece may be drawn and still show that cell:
/// the reader tells pieces further off ([`super::read`]).
pub const ON_CELL: f64 = 0.06;

/// The rows a frame shows when every piece is on a cell (within
/// [`ON_CELL`]), in the level format; `None` mid-slide.
pub fn rows_shown(rules: &Rules, sprites: &[Sprite]) -> Option<Vec<String>> {
    let blank = Key([GONE; super::rules::MAX_PIECES]);
    let mut rows: Vec<Vec<char>> = rules
        .render_rows(&blank)
        .into_iter()
        .map(|r| r.chars().collect())
        .collect();
    for s in sprites {
        let on_cell =
            (s.row - s.row.round()).abs() < ON_CELL && (s.col - s.col.round()).abs() < ON_CELL;
        if !on_cell {
            return None;
        }
        rows[s.row.round() as usize][s.col.round() as usize] = s.piece.letter();
    }
    Some(rows.into_iter().map(|r| r.into_iter().collect()).collect())
}

#[cfg(test)]
mod tests {
    use super::super::art::sprites_of;
    use super::super::level::Level;
    use super::*;

    fn rules(text: &str) -> Rules {
        Rules::new(&Level::parse(text).unwrap())
    }

    #[test]
    fn every_move_ends_where_the_engine_says() {
        let r = rules("sticky: yes\n###R####\n#r..c.o#\n#.rr.i.#\n#..o..b#\n###B####\n");
        for d in Dir::ALL {
            let Some((_, after)) = r.play(&r.start, d) else {
                continue;
            };
            let p = paths(&r, &r.start, &after, d);
            let at_start = sprites_at(&r, &p, 0.0);
            let at_end = sprites_at(&r, &p, 1.0);
            assert_eq!(rows_shown(&r, &at_start), Some(r.render_rows(&r.start)));
            assert_eq!(
                rows_shown(&r, &at_end),
                Some(r.render_rows(&after)),
                "{d:?}"
            );
            assert_eq!(at_end.len(), sprites_of(&r, &after).len());
        }
    }

    #[test]
    fn a_skiddy_that_leaves_goes_to_its_goal_and_a_mid_frame_is_between_cells() {
        let r = rules("##R##\n#...#\n#.r.#\n#####\n");
        let (m, after) = r.play(&r.start, Dir::U).unwrap();
        assert_eq!(m.left, [1, 0, 0, 0]);
        let p = paths(&r, &r.start, &after, Dir::U);
        assert_eq!(p.len(), 1);
        assert!(p[0].leaves);
        assert_eq!(p[0].to, 2);
        assert!(rows_shown(&r, &sprites_at(&r, &p, 0.25)).is_none());
        assert!(sprites_at(&r, &p, 1.0).is_empty());
    }
}
