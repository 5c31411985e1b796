//! Which piece went where in one move, for drawing a move's animation.
//!
//! The engine ([`Rules::play`]) packs layouts canonically: tiles of one
//! type are interchangeable, so a packed layout does not say which tile
//! went where. To animate, the practice window asks the engine itself with
//! every tile made a type of its own (the rules never look at a tile's
//! type, only at its class and direction), so each tile keeps its place in
//! the layout. Moving destroyers all belong to one group; they all step the
//! same way and a line of them moves as a whole or not at all, so which
//! one went where follows from the cells before and after.

use super::art::{Kind, Sprite};
use super::level::{Ground, Level, Tile};
use super::rules::{Dir, GONE, Key, Rules, RulesError};

/// Widest layout the tracker handles.
const N: usize = 64;

/// A piece's path in one move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Path {
    pub kind: Kind,
    pub from: usize,
    /// Where it is drawn going (for a destroyed tile: where it died).
    pub to: usize,
    /// Destroyed at the end of the move.
    pub destroyed: bool,
}

/// The pieces of a level by identity: cell and kind, in a fixed order.
#[derive(Clone, Debug)]
pub struct Pieces {
    pub level: Level,
    /// `(cell, kind)`; destroyed pieces are dropped.
    pub list: Vec<(usize, Kind)>,
}

impl Pieces {
    /// The pieces of `level` as it starts.
    pub fn new(level: &Level) -> Pieces {
        let tiles = level.tiles.iter().map(|t| {
            (
                t.cell,
                Kind::Tile {
                    kind: t.kind,
                    reverse: t.reverse,
                },
            )
        });
        let movers = level.movers.iter().map(|&m| (m, Kind::Mover));
        Pieces {
            level: level.clone(),
            list: tiles.chain(movers).collect(),
        }
    }

    /// Every piece drawn at its cell, or part-way along `paths` at `f`.
    pub fn sprites(&self, moving: Option<(&[Path], f64)>) -> Vec<Sprite> {
        let cols = self.level.cols;
        let rc = |c: usize| ((c / cols) as f64, (c % cols) as f64);
        let at = |from: usize, to: usize, kind, f: f64| {
            let (a, b) = (rc(from), rc(to));
            Sprite {
                row: a.0 + (b.0 - a.0) * f,
                col: a.1 + (b.1 - a.1) * f,
                kind,
            }
        };
        match moving {
            Some((paths, f)) => paths.iter().map(|p| at(p.from, p.to, p.kind, f)).collect(),
            None => self.list.iter().map(|&(c, k)| at(c, c, k, 0.0)).collect(),
        }
    }

    /// The level with one tile type per tile, in list order, at the cells now.
    fn tracking_level(&self) -> Level {
        let mut l = self.level.clone();
        l.tiles.clear();
        l.movers.clear();
        for &(cell, kind) in &self.list {
            match kind {
                Kind::Tile { reverse, .. } => l.tiles.push(Tile {
                    kind: l.tiles.len() as u8,
                    reverse,
                    cell,
                }),
                Kind::Mover => l.movers.push(cell),
            }
        }
        l.movers.sort_unstable();
        l
    }

    /// Plays `dir`: each piece's path, and the pieces after the move.
    pub fn play(&self, dir: Dir) -> Result<(Vec<Path>, Pieces), RulesError> {
        let rules = Rules::new(self.tracking_level())?;
        let key: Key<N> = rules.start()?;
        let after = rules.play(&key, dir);
        let movers: Vec<usize> = self
            .list
            .iter()
            .filter(|p| p.1 == Kind::Mover)
            .map(|p| p.0)
            .collect();
        let mover_cells = cells_of(&rules, &after, rules.level.tiles.len(), movers.len());
        let mut paths = Vec::new();
        let mut tile = 0;
        for &(from, kind) in &self.list {
            let path = match kind {
                Kind::Tile { reverse, .. } => {
                    let b = after[tile];
                    tile += 1;
                    match b {
                        GONE => {
                            let stayed = mover_cells.contains(&from);
                            let d = if reverse { opposite(dir) } else { dir };
                            let to = if stayed {
                                from
                            } else {
                                step(&self.level, from, d)
                            };
                            Path {
                                kind,
                                from,
                                to,
                                destroyed: true,
                            }
                        }
                        b => Path {
                            kind,
                            from,
                            to: rules.cell_of[b as usize],
                            destroyed: false,
                        },
                    }
                }
                Kind::Mover => Path {
                    kind,
                    from,
                    to: mover_path(&self.level, &movers, &mover_cells, from, dir),
                    destroyed: false,
                },
            };
            paths.push(path);
        }
        let list = paths
            .iter()
            .filter(|p| !p.destroyed)
            .map(|p| (p.to, p.kind))
            .collect();
        Ok((
            paths,
            Pieces {
                level: self.level.clone(),
                list,
            },
        ))
    }
}

/// The grid cells of `len` key entries from `start`.
fn cells_of(rules: &Rules, key: &Key<N>, start: usize, len: usize) -> Vec<usize> {
    key[start..start + len]
        .iter()
        .filter(|&&b| b != GONE)
        .map(|&b| rules.cell_of[b as usize])
        .collect()
}

fn opposite(d: Dir) -> Dir {
    match d {
        Dir::L => Dir::R,
        Dir::R => Dir::L,
        Dir::U => Dir::D,
        Dir::D => Dir::U,
    }
}

/// The cell one step from `cell` in `d`, or `cell` when that is off the
/// map or a wall.
pub fn step(level: &Level, cell: usize, d: Dir) -> usize {
    let (dr, dc) = match d {
        Dir::L => (0, -1),
        Dir::R => (0, 1),
        Dir::U => (-1, 0),
        Dir::D => (1, 0),
    };
    level
        .neighbour(cell, dr, dc)
        .filter(|&n| level.ground[n] != Ground::Wall)
        .unwrap_or(cell)
}

/// Where the moving destroyer at `from` went: a line of them moves as a
/// whole, so it moved exactly when the cell past the line's head is taken
/// after the move.
fn mover_path(level: &Level, before: &[usize], after: &[usize], from: usize, d: Dir) -> usize {
    let mut head = from;
    loop {
        let next = step(level, head, d);
        if next != head && before.contains(&next) {
            head = next;
        } else {
            break;
        }
    }
    let past = step(level, head, d);
    if past != head && after.contains(&past) {
        step(level, from, d)
    } else {
        from
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays `moves` by identity and checks every layout against the engine's.
    fn agree(text: &str, moves: &str) {
        let level = Level::parse(text).unwrap();
        let rules = Rules::new(level.clone()).unwrap();
        let mut key: Key<32> = rules.start().unwrap();
        let mut pieces = Pieces::new(&level);
        for c in moves.chars() {
            let d = Dir::from_char(c).unwrap();
            key = rules.play(&key, d);
            let (paths, next) = pieces.play(d).unwrap();
            for p in &paths {
                let (a, b) = (p.from, p.to);
                let (ra, ca, rb, cb) = (
                    a / level.cols,
                    a % level.cols,
                    b / level.cols,
                    b % level.cols,
                );
                assert!(ra.abs_diff(rb) + ca.abs_diff(cb) <= 1, "{p:?} jumps");
            }
            pieces = next;
            let mut tracked = Level { ..level.clone() };
            tracked.tiles = pieces
                .list
                .iter()
                .filter_map(|&(cell, k)| match k {
                    Kind::Tile { kind, reverse } => Some(Tile {
                        kind,
                        reverse,
                        cell,
                    }),
                    Kind::Mover => None,
                })
                .collect();
            tracked.tiles.sort();
            tracked.movers = pieces
                .list
                .iter()
                .filter(|p| p.1 == Kind::Mover)
                .map(|p| p.0)
                .collect();
            tracked.movers.sort_unstable();
            let r = Rules::new(tracked).unwrap();
            let k2: Key<32> = r.start().unwrap();
            assert_eq!(r.render(&k2), rules.render(&key), "after {c} of {moves}");
        }
    }

    #[test]
    fn identities_follow_the_engine() {
        agree("#######\n#aa   #\n#A  z #\n#######", "RRLLUDRL");
        agree(
            "########\n#* *a  #\n#A+  b #\n#  *B  #\n########",
            "RRDLLURDDLLRRUU",
        );
        agree("#######\n# a z #\n#A *  #\n#######", "RLRRLLUDL");
    }
}
