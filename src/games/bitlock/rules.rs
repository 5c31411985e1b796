//! One move of B.i.t.Lock, and the packed layout it works on.
//!
//! Every tile steps one cell per move: normal tiles and moving destroyers
//! in the move's direction, reverse tiles against it. A tile stays put when
//! the cell ahead is a wall (for a moving destroyer, also a fixed
//! destroyer), when the cell ahead holds a tile of its class that stays
//! put, when another tile of its class steps into the same cell (then
//! neither enters), or when the tile ahead steps into its cell (tiles never
//! swap). The classes are ordinary tiles (normal and reverse) and moving
//! destroyers; the two classes pass through each other. After the step,
//! every ordinary tile on a fixed destroyer or on a moving destroyer is
//! destroyed.
//!
//! A layout is packed into `N` bytes ([`Key`]): one byte per tile, the
//! floor cell it stands on, grouped by kind (type and direction, then the
//! moving destroyers) and sorted within a group, `0xFF` for a destroyed
//! tile. Tiles of one kind are interchangeable, so this is canonical.

use std::fmt;

use super::level::{Ground, Level, Tile, letter};

/// A move: every tile steps left, right, up or down.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    L,
    R,
    U,
    D,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::L, Dir::R, Dir::U, Dir::D];

    fn delta(self) -> (i64, i64) {
        match self {
            Dir::L => (0, -1),
            Dir::R => (0, 1),
            Dir::U => (-1, 0),
            Dir::D => (1, 0),
        }
    }

    fn index(self) -> usize {
        self as usize
    }

    fn opposite(self) -> Dir {
        match self {
            Dir::L => Dir::R,
            Dir::R => Dir::L,
            Dir::U => Dir::D,
            Dir::D => Dir::U,
        }
    }

    pub fn from_char(c: char) -> Option<Dir> {
        match c.to_ascii_uppercase() {
            'L' => Some(Dir::L),
            'R' => Some(Dir::R),
            'U' => Some(Dir::U),
            'D' => Some(Dir::D),
            _ => None,
        }
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

/// Byte of a destroyed tile in a key.
pub const GONE: u8 = 0xFF;

/// A packed layout of up to `N` tiles.
pub type Key<const N: usize> = [u8; N];

/// A group of interchangeable tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    /// `None` for moving destroyers.
    pub kind: Option<u8>,
    pub reverse: bool,
    pub start: usize,
    pub len: usize,
}

/// The rules of one level, with its cells numbered for packing.
#[derive(Clone)]
pub struct Rules {
    pub level: Level,
    pub groups: Vec<Group>,
    /// Floor cell number of each grid cell (`GONE` for walls and destroyers).
    floor_of: Vec<u8>,
    /// Grid cell of each floor cell number.
    pub cell_of: Vec<usize>,
    /// next[cell][dir]: the grid cell one step away, if not a wall.
    next: Vec<[Option<usize>; 4]>,
    /// Total tiles, moving destroyers included.
    pub pieces: usize,
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum RulesError {
    #[error("the map has {0} open cells; the solver handles up to 255")]
    TooBig(usize),
    #[error("the map has {found} tiles and moving destroyers; the solver handles up to {max}")]
    TooMany { found: usize, max: usize },
}

impl Rules {
    pub fn new(level: Level) -> Result<Rules, RulesError> {
        let mut floor_of = vec![GONE; level.ground.len()];
        let mut cell_of = Vec::new();
        for (cell, g) in level.ground.iter().enumerate() {
            if *g == Ground::Floor {
                if cell_of.len() >= GONE as usize {
                    return Err(RulesError::TooBig(
                        level.ground.iter().filter(|g| **g == Ground::Floor).count(),
                    ));
                }
                floor_of[cell] = cell_of.len() as u8;
                cell_of.push(cell);
            }
        }
        let next = (0..level.ground.len())
            .map(|cell| {
                Dir::ALL.map(|d| {
                    let (dr, dc) = d.delta();
                    level
                        .neighbour(cell, dr, dc)
                        .filter(|&n| level.ground[n] != Ground::Wall)
                })
            })
            .collect();
        let mut groups: Vec<Group> = Vec::new();
        for (i, t) in level.tiles.iter().enumerate() {
            match groups.last_mut() {
                Some(g) if g.kind == Some(t.kind) && g.reverse == t.reverse => g.len += 1,
                _ => groups.push(Group {
                    kind: Some(t.kind),
                    reverse: t.reverse,
                    start: i,
                    len: 1,
                }),
            }
        }
        if !level.movers.is_empty() {
            groups.push(Group {
                kind: None,
                reverse: false,
                start: level.tiles.len(),
                len: level.movers.len(),
            });
        }
        let pieces = level.tiles.len() + level.movers.len();
        Ok(Rules {
            level,
            groups,
            floor_of,
            cell_of,
            next,
            pieces,
        })
    }

    /// Packs the starting layout.
    pub fn start<const N: usize>(&self) -> Result<Key<N>, RulesError> {
        if self.pieces > N {
            return Err(RulesError::TooMany {
                found: self.pieces,
                max: N,
            });
        }
        let mut key = [GONE; N];
        for (i, t) in self.level.tiles.iter().enumerate() {
            key[i] = self.floor_of[t.cell];
        }
        for (i, &m) in self.level.movers.iter().enumerate() {
            key[self.level.tiles.len() + i] = self.floor_of[m];
        }
        for g in &self.groups {
            key[g.start..g.start + g.len].sort_unstable();
        }
        Ok(key)
    }

    /// Steps one class of pieces: `cells[i]` moves one cell in `dir`
    /// (against it where `reverse[i]`) unless blocked. `movers` selects
    /// the moving destroyers' rules (fixed destroyers block them).
    fn step_class(&self, cells: &mut [u16], reverse: &[bool], dir: Dir, movers: bool) {
        let n = cells.len();
        let mut to = [0u16; 64];
        let mut stays = [false; 64];
        for i in 0..n {
            let d = if reverse[i] { dir.opposite() } else { dir };
            match self.next[cells[i] as usize][d.index()] {
                Some(c) if !(movers && self.level.ground[c] == Ground::Destroyer) => {
                    to[i] = c as u16
                }
                _ => stays[i] = true,
            }
        }
        // Two step into one cell: neither enters. Two step into each
        // other's cells: tiles never swap.
        let moving: [bool; 64] = std::array::from_fn(|i| i < n && !stays[i]);
        for a in 0..n {
            if !moving[a] {
                continue;
            }
            for b in a + 1..n {
                if moving[b] && (to[a] == to[b] || (to[a] == cells[b] && to[b] == cells[a])) {
                    stays[a] = true;
                    stays[b] = true;
                }
            }
        }
        // A tile whose way is held by a tile that stays, stays too.
        loop {
            let mut changed = false;
            for a in 0..n {
                if !stays[a] && (0..n).any(|b| b != a && stays[b] && cells[b] == to[a]) {
                    stays[a] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for i in 0..n {
            if !stays[i] {
                cells[i] = to[i];
            }
        }
    }

    /// Plays `dir` on a packed layout.
    pub fn play<const N: usize>(&self, key: &Key<N>, dir: Dir) -> Key<N> {
        // Ordinary tiles, in group order, and the moving destroyers.
        let mut oc = [0u16; 64];
        let mut og = [0u8; 64];
        let mut orev = [false; 64];
        let mut on = 0;
        let mut mc = [0u16; 64];
        let mut mn = 0;
        for (gi, g) in self.groups.iter().enumerate() {
            for &b in &key[g.start..g.start + g.len] {
                if b == GONE {
                    continue;
                }
                let cell = self.cell_of[b as usize] as u16;
                if g.kind.is_none() {
                    mc[mn] = cell;
                    mn += 1;
                } else {
                    oc[on] = cell;
                    og[on] = gi as u8;
                    orev[on] = g.reverse;
                    on += 1;
                }
            }
        }
        self.step_class(&mut oc[..on], &orev[..on], dir, false);
        self.step_class(&mut mc[..mn], &[false; 64][..mn], dir, true);
        let mut out = [GONE; N];
        let mut fill = [0usize; 64];
        for i in 0..on {
            let c = oc[i] as usize;
            let destroyed = self.level.ground[c] == Ground::Destroyer || mc[..mn].contains(&oc[i]);
            if !destroyed {
                let g = &self.groups[og[i] as usize];
                out[g.start + fill[og[i] as usize]] = self.floor_of[c];
                fill[og[i] as usize] += 1;
            }
        }
        if let Some(g) = self.groups.last().filter(|g| g.kind.is_none()) {
            for (k, &c) in mc[..mn].iter().enumerate() {
                out[g.start + k] = self.floor_of[c as usize];
            }
        }
        for g in &self.groups {
            out[g.start..g.start + g.len].sort_unstable();
        }
        out
    }

    /// `(grid cell, type)` of every ordinary tile left.
    pub fn tiles<const N: usize>(&self, key: &Key<N>) -> impl Iterator<Item = (usize, u8)> + '_ {
        let key = *key;
        self.groups
            .iter()
            .filter_map(|g| g.kind.map(|k| (g, k)))
            .flat_map(move |(g, k)| {
                (g.start..g.start + g.len)
                    .filter(move |&i| key[i] != GONE)
                    .map(move |i| (self.cell_of[key[i] as usize], k))
            })
    }

    /// The level with its pieces where `key` has them (a destroyed tile
    /// gone): the same ground and targets, so a piece may stand on one.
    pub fn level_at<const N: usize>(&self, key: &Key<N>) -> Level {
        let mut level = Level {
            tiles: Vec::new(),
            movers: Vec::new(),
            ..self.level.clone()
        };
        for g in &self.groups {
            for &b in key[g.start..g.start + g.len].iter().filter(|&&b| b != GONE) {
                let cell = self.cell_of[b as usize];
                match g.kind {
                    None => level.movers.push(cell),
                    Some(kind) => level.tiles.push(Tile {
                        kind,
                        reverse: g.reverse,
                        cell,
                    }),
                }
            }
        }
        level
    }

    /// The level as loaded, one full-width string per row.
    pub fn level_rows(&self) -> Vec<String> {
        fn go<const N: usize>(r: &Rules) -> Vec<String> {
            r.start::<N>()
                .map(|k| r.render_rows(&k))
                .unwrap_or_default()
        }
        if self.pieces <= 16 {
            go::<16>(self)
        } else {
            go::<32>(self)
        }
    }

    /// The board, one full-width string per row, in the map format.
    pub fn render_rows<const N: usize>(&self, key: &Key<N>) -> Vec<String> {
        let l = &self.level;
        let mut chars: Vec<char> = l
            .ground
            .iter()
            .map(|g| match g {
                Ground::Wall => '#',
                Ground::Destroyer => '+',
                Ground::Floor => ' ',
            })
            .collect();
        for &(cell, kind) in &l.targets {
            chars[cell] = letter(kind);
        }
        for g in &self.groups {
            for &b in &key[g.start..g.start + g.len] {
                if b == GONE {
                    continue;
                }
                let cell = self.cell_of[b as usize];
                chars[cell] = match g.kind {
                    None => '*',
                    Some(k) if g.reverse => char::from(b'z' - k),
                    Some(k) => char::from(b'a' + k),
                };
            }
        }
        chars
            .chunks(l.cols)
            .map(|r| r.iter().collect::<String>())
            .collect()
    }

    /// The board as text, in the map format, without trailing spaces.
    pub fn render<const N: usize>(&self, key: &Key<N>) -> String {
        self.render_rows(key)
            .iter()
            .map(|r| r.trim_end())
            .collect::<Vec<_>>()
            .join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(map: &str) -> Rules {
        Rules::new(Level::parse(map).unwrap()).unwrap()
    }

    fn after(map: &str, moves: &str) -> String {
        let r = rules(map);
        let mut k: Key<16> = r.start().unwrap();
        for c in moves.chars() {
            k = r.play(&k, Dir::from_char(c).unwrap());
        }
        r.render(&k)
    }

    #[test]
    fn tiles_step_together_and_block_each_other() {
        assert_eq!(
            after("#######\n#aa   #\n#A    #\n#######", "R"),
            "#######\n# aa  #\n#A    #\n#######"
        );
        // A train against a wall stays whole.
        assert_eq!(
            after("#######\n#  aaa#\n#A    #\n#######", "R"),
            "#######\n#  aaa#\n#A    #\n#######"
        );
        // Reverse tiles step against the move.
        assert_eq!(
            after("#######\n# a z #\n#A    #\n#######", "L"),
            "#######\n#a   z#\n#A    #\n#######"
        );
    }

    #[test]
    fn no_swaps_and_no_shared_cells() {
        // Facing each other one apart: both want the middle cell, neither enters.
        assert_eq!(
            after("#######\n# a z #\n#A    #\n#######", "R"),
            "#######\n# a z #\n#A    #\n#######"
        );
        // Side by side, facing: they would swap, so both stay.
        assert_eq!(
            after("######\n# az #\n#A   #\n######", "R"),
            "######\n# az #\n#A   #\n######"
        );
    }

    #[test]
    fn destroyers_destroy_ordinary_tiles() {
        assert_eq!(
            after("######\n#a+  #\n#A   #\n######", "R"),
            "######\n# +  #\n#A   #\n######"
        );
        // A moving destroyer passes through tiles, destroying the one it lands on.
        assert_eq!(
            after("######\n#*a  #\n#A   #\n######", "R"),
            "######\n# *a #\n#A   #\n######"
        );
        assert_eq!(
            after("######\n#*  a#\n#A   #\n######", "R"),
            "######\n# * a#\n#A   #\n######"
        );
        // …and the tile it lands on, when that tile could not move away.
        assert_eq!(
            after("#####\n#*a##\n#A  #\n#####", "R"),
            "#####\n# *##\n#A  #\n#####"
        );
        // Moving destroyers stop at fixed destroyers.
        assert_eq!(
            after("######\n#*+  #\n#Aa  #\n######", "R"),
            "######\n#*+  #\n#A a #\n######"
        );
    }
}
