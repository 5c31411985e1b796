//! Which GNOME Klotski level a board read from the screen is, and so
//! which of its blue drawings are walls.
//!
//! GNOME draws walls `#` with exactly the tiles it draws pieces with, and
//! draws nothing of a goal or a door under a piece. The pixels alone cannot
//! tell a wall from a piece, nor say what floor a piece hides. But pieces
//! never change shape, and walls and floor never change at all: so a board
//! is one of GNOME's 28 levels ([`super::levels::all`]) when
//! - it has the level's width and height,
//! - every wall cell of the level is blue, drawn joined with wall cells
//!   only,
//! - every visible free, goal and door cell is free, goal or door in the
//!   level, and a special-piece cell shows a green dot exactly where the
//!   level has a goal,
//! - the other blue drawings are exactly the level's pieces' shapes (a
//!   multiset), the special piece's cells being the ones with its marker.
//!
//! The level that matches gives the walls and hidden floor; the pieces'
//! places come from the screen, their labels from the level (pieces of
//! one shape take the level's labels in reading order). A board that
//! matches no level, or more than one, is refused with the reason: a
//! property of GNOME's art, which boardbot does not guess past.

use std::collections::BTreeMap;

use super::levels::{self, Level};
use super::look::Look;
use crate::engines::blocks::layout::{Floor, Layout, PieceSpec};

/// Cells as (row, col).
pub type Cells = Vec<(usize, usize)>;

/// What the screen shows, before the level is known.
pub struct Seen<'a> {
    pub width: usize,
    pub height: usize,
    /// Row-major looks.
    pub looks: &'a [Look],
    /// The blue drawings: each a set of joined cells, sorted.
    pub drawings: &'a [Cells],
}

/// The level a board matched, and the position on it.
#[derive(Clone, Debug)]
pub struct Identified {
    pub level: &'static Level,
    pub layout: Layout,
}

/// Why a board is not read as a level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoMatch {
    pub reason: String,
    /// The cells at issue (row, col), when the nearest level names some.
    pub cells: Cells,
}

/// A shape: its cells moved to the top-left corner.
fn shape(cells: &[(usize, usize)]) -> Cells {
    let r0 = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let c0 = cells.iter().map(|c| c.1).min().unwrap_or(0);
    let mut s: Cells = cells.iter().map(|&(r, c)| (r - r0, c - c0)).collect();
    s.sort_unstable();
    s
}

/// The level among GNOME's that `seen` shows, with the pieces placed.
pub fn identify(seen: &Seen) -> Result<Identified, NoMatch> {
    let mut matched = Vec::new();
    let mut nearest: Option<(usize, NoMatch, &'static Level)> = None;
    let mut sizes = Vec::new();
    for level in levels::all() {
        let layout = level.layout();
        if (layout.width, layout.height) != (seen.width, seen.height) {
            if !sizes.contains(&(layout.width, layout.height)) {
                sizes.push((layout.width, layout.height));
            }
            continue;
        }
        match fit(seen, &layout) {
            Ok(pieces) => matched.push((level, Layout { pieces, ..layout })),
            Err((rank, why)) => {
                if nearest.as_ref().is_none_or(|n| rank > n.0) {
                    nearest = Some((rank, why, level));
                }
            }
        }
    }
    // Levels that are one puzzle (Trail and Ambush: the same walls, floor
    // and shapes of pieces) read alike: the first one's labels are used.
    if matched.len() > 1
        && matched
            .iter()
            .all(|(l, _)| same_puzzle(&l.layout(), &matched[0].0.layout()))
    {
        matched.truncate(1);
    }
    match matched.len() {
        1 => {
            let (level, layout) = matched.remove(0);
            Ok(Identified { level, layout })
        }
        0 => Err(match nearest {
            Some((_, why, level)) => NoMatch {
                reason: format!(
                    "the board matches none of GNOME Klotski's {} levels (the nearest, {} \"{}\": {}); boardbot reads only GNOME's own levels, as walls and pieces are drawn alike",
                    levels::all().len(),
                    level.index,
                    level.name,
                    why.reason
                ),
                cells: why.cells,
            },
            None => NoMatch {
                reason: format!(
                    "a {}x{} board: no GNOME Klotski level has that size (they are {}); boardbot reads only GNOME's own levels, as walls and pieces are drawn alike",
                    seen.width,
                    seen.height,
                    sizes
                        .iter()
                        .map(|(w, h)| format!("{w}x{h}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                cells: Vec::new(),
            },
        }),
        _ => Err(NoMatch {
            reason: format!(
                "the board matches {} GNOME Klotski levels ({}): cannot tell which walls are walls",
                matched.len(),
                matched
                    .iter()
                    .map(|(l, _)| format!("\"{}\"", l.name))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            cells: Vec::new(),
        }),
    }
}

/// Whether two levels are one puzzle: the same floor and the same shapes
/// of pieces (their starts may differ).
fn same_puzzle(a: &Layout, b: &Layout) -> bool {
    let shapes = |l: &Layout| {
        let mut s: Vec<(bool, Cells)> = l
            .pieces
            .iter()
            .map(|p| (p.special, shape(&p.cells)))
            .collect();
        s.sort();
        s
    };
    a.floor == b.floor && shapes(a) == shapes(b)
}

/// A mismatch, ranked by how far the check got (walls first, then floor,
/// then pieces): the level that got furthest is named as the nearest.
type Miss = (usize, NoMatch);

fn miss(rank: usize, reason: String, cells: Cells) -> Miss {
    (rank, NoMatch { reason, cells })
}

/// The level's pieces placed as `seen` shows them, or why not.
fn fit(seen: &Seen, level: &Layout) -> Result<Vec<PieceSpec>, Miss> {
    let w = seen.width;
    let wall = |r: usize, c: usize| level.floor[r * w + c] == Floor::Wall;
    walls(seen, level)?;
    floors(seen, level)?;
    let pieces: Vec<&Cells> = seen
        .drawings
        .iter()
        .filter(|d| !d.iter().any(|&(r, c)| wall(r, c)))
        .collect();
    place(seen, level, &pieces)
}

/// Every wall cell is blue and drawn with wall cells only.
fn walls(seen: &Seen, level: &Layout) -> Result<(), Miss> {
    let w = seen.width;
    let is_wall = |(r, c): (usize, usize)| level.floor[r * w + c] == Floor::Wall;
    let not_blue: Cells = (0..seen.height)
        .flat_map(|r| (0..w).map(move |c| (r, c)))
        .filter(|&rc| is_wall(rc) && !seen.looks[rc.0 * w + rc.1].is_blue())
        .collect();
    if !not_blue.is_empty() {
        let n = not_blue.len();
        return Err(miss(
            0,
            format!(
                "{n} of its wall cells are not blue, first {:?}",
                not_blue[0]
            ),
            not_blue,
        ));
    }
    for d in seen.drawings {
        let walls = d.iter().filter(|&&rc| is_wall(rc)).count();
        if walls > 0 && walls < d.len() {
            let odd: Cells = d.iter().copied().filter(|&rc| !is_wall(rc)).collect();
            return Err(miss(
                1,
                format!(
                    "a wall is drawn joined with non-wall cells, first {:?}",
                    odd[0]
                ),
                odd,
            ));
        }
    }
    Ok(())
}

/// Every visible floor cell agrees with the level's floor.
fn floors(seen: &Seen, level: &Layout) -> Result<(), Miss> {
    let w = seen.width;
    let mut odd = Vec::new();
    for (i, look) in seen.looks.iter().enumerate() {
        let floor = level.floor[i];
        let ok = match look {
            Look::Free => floor == Floor::Free,
            Look::Goal => floor == Floor::Goal,
            Look::Door => floor == Floor::Door,
            Look::Blue {
                special: true,
                on_goal,
                ..
            } => (floor == Floor::Goal) == *on_goal && floor != Floor::Wall,
            // Only the special piece may stand on a door.
            Look::Blue { .. } => floor != Floor::Door,
        };
        if !ok {
            odd.push((i / w, i % w, *look, floor));
        }
    }
    match odd.first() {
        None => Ok(()),
        Some(&(r, c, look, floor)) => Err(miss(
            2,
            format!(
                "{} cell(s) disagree with its floor, first ({r},{c}) shows '{}' where the level has '{}'",
                odd.len(),
                look.letter(),
                floor.symbol()
            ),
            odd.iter().map(|o| (o.0, o.1)).collect(),
        )),
    }
}

/// The level's pieces, each moved to the drawing of its shape (same
/// shapes in reading order); the special piece to the drawing with the
/// special marker.
fn place(seen: &Seen, level: &Layout, drawings: &[&Cells]) -> Result<Vec<PieceSpec>, Miss> {
    let w = seen.width;
    let special = |d: &Cells| {
        let n = d
            .iter()
            .filter(|&&(r, c)| matches!(seen.looks[r * w + c], Look::Blue { special: true, .. }))
            .count();
        (n, d.len())
    };
    let mut by_shape: BTreeMap<(bool, Cells), Vec<&Cells>> = BTreeMap::new();
    for d in drawings {
        let (n, len) = special(d);
        if n != 0 && n != len {
            return Err(miss(
                3,
                format!(
                    "a piece at {:?} has the special marker on {n} of its {len} cells",
                    d[0]
                ),
                d.to_vec(),
            ));
        }
        by_shape.entry((n > 0, shape(d))).or_default().push(d);
    }
    let mut want: BTreeMap<(bool, Cells), Vec<&PieceSpec>> = BTreeMap::new();
    for p in &level.pieces {
        want.entry((p.special, shape(&p.cells)))
            .or_default()
            .push(p);
    }
    let have: Vec<(&(bool, Cells), usize)> = by_shape.iter().map(|(k, v)| (k, v.len())).collect();
    let need: Vec<(&(bool, Cells), usize)> = want.iter().map(|(k, v)| (k, v.len())).collect();
    if have != need {
        let have: usize = by_shape.values().map(Vec::len).sum();
        return Err(miss(
            4,
            format!(
                "its pieces have other shapes ({have} drawn apart from the walls, the level has {})",
                level.pieces.len()
            ),
            Vec::new(),
        ));
    }
    let mut out = Vec::with_capacity(level.pieces.len());
    for (key, specs) in &want {
        let mut specs = specs.clone();
        specs.sort_by_key(|p| p.cells[0]);
        let mut at = by_shape[key].clone();
        at.sort_by_key(|d| d[0]);
        for (p, d) in specs.iter().zip(at) {
            out.push(PieceSpec {
                label: p.label,
                special: p.special,
                cells: d.clone(),
            });
        }
    }
    out.sort_by_key(|p| level.pieces.iter().position(|q| q.label == p.label));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the screen shows of `l`: its walls as drawings (4-connected
    /// groups), its pieces as drawings, the floor where nothing stands.
    fn seen_of(l: &Layout) -> (Vec<Look>, Vec<Cells>) {
        let w = l.width;
        let mut looks: Vec<Look> = l
            .floor
            .iter()
            .map(|f| match f {
                Floor::Wall => Look::Blue {
                    special: false,
                    on_goal: false,
                    held: false,
                },
                Floor::Free => Look::Free,
                Floor::Goal => Look::Goal,
                Floor::Door => Look::Door,
            })
            .collect();
        let mut drawings: Vec<Cells> = Vec::new();
        for p in &l.pieces {
            for &(r, c) in &p.cells {
                looks[r * w + c] = Look::Blue {
                    special: p.special,
                    on_goal: p.special && l.floor[r * w + c] == Floor::Goal,
                    held: false,
                };
            }
            drawings.push(p.cells.clone());
        }
        let mut seen = vec![false; l.floor.len()];
        for start in 0..l.floor.len() {
            if l.floor[start] != Floor::Wall || seen[start] {
                continue;
            }
            let (mut group, mut todo) = (Vec::new(), vec![start]);
            seen[start] = true;
            while let Some(i) = todo.pop() {
                group.push((i / w, i % w));
                let (r, c) = (i / w, i % w);
                let near = [
                    (r > 0).then(|| i - w),
                    (r + 1 < l.height).then(|| i + w),
                    (c > 0).then(|| i - 1),
                    (c + 1 < w).then(|| i + 1),
                ];
                for j in near.into_iter().flatten() {
                    if l.floor[j] == Floor::Wall && !seen[j] {
                        seen[j] = true;
                        todo.push(j);
                    }
                }
            }
            group.sort_unstable();
            drawings.push(group);
        }
        (looks, drawings)
    }

    fn identify_layout(l: &Layout) -> Result<Identified, NoMatch> {
        let (looks, drawings) = seen_of(l);
        identify(&Seen {
            width: l.width,
            height: l.height,
            looks: &looks,
            drawings: &drawings,
        })
    }

    #[test]
    fn every_level_at_its_start_is_itself() {
        for level in levels::all() {
            let want = level.layout();
            let got =
                identify_layout(&want).unwrap_or_else(|e| panic!("{}: {}", level.name, e.reason));
            // Trail and Ambush are one puzzle: read with Trail's labels.
            if level.name == "Ambush" {
                assert_eq!(got.level.name, "Trail");
                let cells = |l: &Layout| {
                    let mut c: Vec<Cells> = l.pieces.iter().map(|p| p.cells.clone()).collect();
                    c.sort();
                    c
                };
                assert_eq!(
                    (&got.layout.floor, cells(&got.layout)),
                    (&want.floor, cells(&want))
                );
            } else {
                assert_eq!(got.layout, want, "{}", level.name);
                assert_eq!(got.level.index, level.index, "{}", level.name);
            }
        }
    }

    #[test]
    fn a_board_of_no_level_is_refused_with_the_nearest() {
        let mut l = levels::find("Red Donkey").expect("bundled").layout();
        // Glue the two 1x1 pieces of row 4 into one 1x2: no level has it.
        let f = l.pieces.iter().position(|p| p.label == 'f').expect("f");
        let g = l.pieces.iter().position(|p| p.label == 'g').expect("g");
        let cells = l.pieces[g].cells.clone();
        l.pieces[f].cells.extend(cells);
        l.pieces[f].cells.sort_unstable();
        l.pieces.remove(g);
        let e = identify_layout(&l).expect_err("not a level");
        assert!(e.reason.contains("matches none"), "{}", e.reason);
        assert!(e.reason.contains("other shapes"), "{}", e.reason);
        // A board of a size no level has.
        let small = Layout::parse("####\n#* #\n#. #\n####\n", "t").expect("layout");
        let e = identify_layout(&small).expect_err("no 4x4 level");
        assert!(
            e.reason.contains("no GNOME Klotski level has that size"),
            "{}",
            e.reason
        );
    }
}
