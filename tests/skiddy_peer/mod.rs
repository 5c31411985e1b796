//! A second implementation of the Skiddy rules, written for the tests from
//! the "Rules" text and the README, sharing no code with
//! `src/games/skiddy`: a plain cell-by-cell simulation on a grid of tiles,
//! and a breadth-first verifier over its own state graph.
//!
//! One move runs in steps of one cell. In each step the bodies (sticky
//! groups, lone skiddies, ice cubes) still sliding that can all advance
//! are found by striking out, until nothing changes, every body with a
//! member facing a block, a goal it may not enter, a crate it cannot push
//! or a piece that is not advancing. A body struck out stops for the rest
//! of the move. The others advance one cell; then members on their goal
//! leave, and a body that entered a pit or pushed a crate stops.

pub mod graph;

use std::collections::BTreeSet;

/// The four directions, as (row, column) steps.
pub const DIRS: [(char, i64, i64); 4] = [('U', -1, 0), ('D', 1, 0), ('L', 0, -1), ('R', 0, 1)];

/// What a cell of the board is, apart from the pieces on it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Tile {
    Block,
    Floor,
    Pit,
    Goal(u8),
}

/// A position: where every piece is. Skiddies are (colour, cell); each
/// list is sorted, so pieces of one kind are interchangeable.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Pos {
    pub skiddies: Vec<(u8, usize)>,
    pub crates: Vec<usize>,
    pub ice: Vec<usize>,
}

impl Pos {
    /// How many skiddies of each colour (r, b, g, y) are on the board.
    pub fn per_colour(&self) -> [usize; 4] {
        let mut n = [0; 4];
        for &(c, _) in &self.skiddies {
            n[c as usize] += 1;
        }
        n
    }
}

/// A level: the static board, the start and whether skiddies stick.
pub struct Level {
    pub width: usize,
    pub height: usize,
    pub tiles: Vec<Tile>,
    pub sticky: bool,
    pub start: Pos,
}

fn colour(ch: char) -> Option<u8> {
    "rbgy".find(ch.to_ascii_lowercase()).map(|i| i as u8)
}

impl Level {
    /// Reads the text format: `;` comments, an optional `sticky:` line,
    /// then one row per line.
    pub fn parse(text: &str) -> Level {
        let mut sticky = true;
        let mut rows: Vec<Vec<char>> = Vec::new();
        for line in text.lines() {
            let line = line.trim_end();
            if line.is_empty() || line.starts_with(';') {
                continue;
            }
            let flat: String = line.chars().filter(|c| !c.is_whitespace()).collect();
            if rows.is_empty() && flat.to_ascii_lowercase().starts_with("sticky:") {
                sticky = flat.eq_ignore_ascii_case("sticky:yes");
                continue;
            }
            rows.push(line.chars().collect());
        }
        let (height, width) = (rows.len(), rows[0].len());
        let mut tiles = Vec::new();
        let mut start = Pos {
            skiddies: vec![],
            crates: vec![],
            ice: vec![],
        };
        for (i, ch) in rows.iter().flatten().enumerate() {
            tiles.push(match ch {
                '#' => Tile::Block,
                'o' => Tile::Pit,
                'R' | 'B' | 'G' | 'Y' => Tile::Goal(colour(*ch).unwrap()),
                _ => Tile::Floor,
            });
            match ch {
                'r' | 'b' | 'g' | 'y' => start.skiddies.push((colour(*ch).unwrap(), i)),
                'c' => start.crates.push(i),
                'i' => start.ice.push(i),
                _ => {}
            }
        }
        start.skiddies.sort();
        Level {
            width,
            height,
            tiles,
            sticky,
            start,
        }
    }

    /// The cell one step from `cell`, if it is on the board.
    fn step(&self, cell: usize, dr: i64, dc: i64) -> Option<usize> {
        let r = (cell / self.width) as i64 + dr;
        let c = (cell % self.width) as i64 + dc;
        let inside = r >= 0 && c >= 0 && r < self.height as i64 && c < self.width as i64;
        inside.then(|| r as usize * self.width + c as usize)
    }

    fn adjacent(&self, a: usize, b: usize) -> bool {
        DIRS.iter()
            .any(|&(_, dr, dc)| self.step(a, dr, dc) == Some(b))
    }
}

/// A moving piece during a move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Skiddy(u8),
    Ice,
    Crate,
}

#[derive(Clone, Debug)]
struct Piece {
    kind: Kind,
    cell: usize,
    gone: bool,
}

/// The result of one move: the new position and how many skiddies of
/// each colour left on it.
pub struct Outcome {
    pub pos: Pos,
    pub left: [usize; 4],
}

/// The pieces of `pos` and its bodies (lists of piece indices): each
/// connected set of same-colour skiddies when sticky, else each skiddy,
/// and each ice cube.
fn bodies(level: &Level, pos: &Pos) -> (Vec<Piece>, Vec<Vec<usize>>) {
    let mut pieces: Vec<Piece> = pos
        .skiddies
        .iter()
        .map(|&(c, cell)| Piece {
            kind: Kind::Skiddy(c),
            cell,
            gone: false,
        })
        .collect();
    let n = pieces.len();
    let mut bodies = components(level, &pieces, &(0..n).collect::<Vec<_>>());
    for &cell in &pos.ice {
        bodies.push(vec![pieces.len()]);
        pieces.push(Piece {
            kind: Kind::Ice,
            cell,
            gone: false,
        });
    }
    for &cell in &pos.crates {
        pieces.push(Piece {
            kind: Kind::Crate,
            cell,
            gone: false,
        });
    }
    (pieces, bodies)
}

/// Splits the skiddies `members` into sticky parts: connected sets of
/// adjacent skiddies of one colour, or singletons when not sticky.
fn components(level: &Level, pieces: &[Piece], members: &[usize]) -> Vec<Vec<usize>> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for &m in members {
        if !seen.insert(m) {
            continue;
        }
        let mut part = vec![m];
        let mut i = 0;
        while level.sticky && i < part.len() {
            let a = part[i];
            for &o in members {
                let joined = pieces[o].kind == pieces[a].kind
                    && level.adjacent(pieces[a].cell, pieces[o].cell);
                if joined && seen.insert(o) {
                    part.push(o);
                }
            }
            i += 1;
        }
        out.push(part);
    }
    out
}

/// What stands in front of one member of a body in one step.
enum Ahead {
    Free,
    Push(usize),
    Stop,
}

/// The piece standing on `cell`, if any.
fn piece_at(pieces: &[Piece], cell: usize) -> Option<usize> {
    pieces.iter().position(|p| !p.gone && p.cell == cell)
}

/// What member `m` meets when it steps by (dr, dc), given which pieces
/// are advancing in this step.
fn ahead(level: &Level, pieces: &[Piece], advancing: &[bool], m: usize, d: (i64, i64)) -> Ahead {
    let Some(next) = level.step(pieces[m].cell, d.0, d.1) else {
        return Ahead::Stop;
    };
    match (level.tiles[next], pieces[m].kind) {
        (Tile::Block, _) => return Ahead::Stop,
        (Tile::Goal(g), Kind::Skiddy(c)) if g == c => {}
        (Tile::Goal(_), _) => return Ahead::Stop,
        _ => {}
    }
    let Some(o) = piece_at(pieces, next) else {
        return Ahead::Free;
    };
    if advancing[o] {
        return Ahead::Free;
    }
    let is_skiddy = matches!(pieces[m].kind, Kind::Skiddy(_));
    if pieces[o].kind != Kind::Crate || !is_skiddy {
        return Ahead::Stop;
    }
    // A crate moves one cell onto floor or an empty pit (or a cell being
    // vacated in this step); never onto a goal, a block or another crate.
    let Some(beyond) = level.step(next, d.0, d.1) else {
        return Ahead::Stop;
    };
    if !matches!(level.tiles[beyond], Tile::Floor | Tile::Pit) {
        return Ahead::Stop;
    }
    match piece_at(pieces, beyond) {
        None => Ahead::Push(o),
        Some(b) if advancing[b] && pieces[b].kind != Kind::Crate => Ahead::Push(o),
        Some(_) => Ahead::Stop,
    }
}

/// The sliding bodies that can all advance in this step, and the crates
/// they push as (body, crate); the others are struck out of `sliding` for
/// good.
fn advancing_set(
    level: &Level,
    pieces: &[Piece],
    bodies: &[Vec<usize>],
    sliding: &mut [bool],
    d: (i64, i64),
) -> Vec<(usize, usize)> {
    loop {
        let mut advancing = vec![false; pieces.len()];
        for (b, body) in bodies.iter().enumerate() {
            for &m in body.iter().filter(|_| sliding[b]) {
                advancing[m] = true;
            }
        }
        let mut pushed = Vec::new();
        let mut changed = false;
        for (b, body) in bodies.iter().enumerate() {
            if !sliding[b] {
                continue;
            }
            let mut mine = Vec::new();
            for &m in body {
                match ahead(level, pieces, &advancing, m, d) {
                    Ahead::Free => {}
                    Ahead::Push(c) => mine.push((b, c)),
                    Ahead::Stop => {
                        sliding[b] = false;
                        changed = true;
                        break;
                    }
                }
            }
            if sliding[b] {
                pushed.extend(mine);
            }
        }
        if !changed {
            return pushed;
        }
    }
}

/// Plays one move; `None` when it changes nothing.
pub fn play(level: &Level, pos: &Pos, dir: char) -> Option<Outcome> {
    let &(_, dr, dc) = DIRS.iter().find(|d| d.0 == dir)?;
    let (mut pieces, mut bodies) = bodies(level, pos);
    let mut sliding = vec![true; bodies.len()];
    let mut left = [0; 4];
    loop {
        let pushed = advancing_set(level, &pieces, &bodies, &mut sliding, (dr, dc));
        if !sliding.iter().any(|&s| s) {
            break;
        }
        for &(_, c) in &pushed {
            pieces[c].cell = level.step(pieces[c].cell, dr, dc).unwrap();
        }
        let mut next_bodies = Vec::new();
        let mut next_sliding = Vec::new();
        for (b, body) in bodies.iter().enumerate() {
            if !sliding[b] {
                next_bodies.push(body.clone());
                next_sliding.push(false);
                continue;
            }
            let (parts, goes_on) = advance(level, &mut pieces, body, (dr, dc), &mut left);
            let pushes = pushed.iter().any(|&(p, _)| p == b);
            for part in parts {
                next_bodies.push(part);
                next_sliding.push(goes_on && !pushes);
            }
        }
        bodies = next_bodies;
        sliding = next_sliding;
    }
    let after = position(&pieces);
    (after != *pos).then_some(Outcome { pos: after, left })
}

/// Moves one advancing body a cell: members on their goal leave, the rest
/// splits into its connected parts. The parts go on sliding unless the
/// body entered a pit.
fn advance(
    level: &Level,
    pieces: &mut [Piece],
    body: &[usize],
    d: (i64, i64),
    left: &mut [usize; 4],
) -> (Vec<Vec<usize>>, bool) {
    let mut goes_on = true;
    for &m in body {
        let next = level.step(pieces[m].cell, d.0, d.1).unwrap();
        pieces[m].cell = next;
        match (level.tiles[next], pieces[m].kind) {
            (Tile::Goal(g), Kind::Skiddy(c)) if g == c => {
                pieces[m].gone = true;
                left[c as usize] += 1;
            }
            (Tile::Pit, _) => goes_on = false,
            _ => {}
        }
    }
    let rest: Vec<usize> = body.iter().copied().filter(|&m| !pieces[m].gone).collect();
    (components(level, pieces, &rest), goes_on)
}

/// The position the pieces stand in.
fn position(pieces: &[Piece]) -> Pos {
    let mut pos = Pos {
        skiddies: vec![],
        crates: vec![],
        ice: vec![],
    };
    for p in pieces.iter().filter(|p| !p.gone) {
        match p.kind {
            Kind::Skiddy(c) => pos.skiddies.push((c, p.cell)),
            Kind::Crate => pos.crates.push(p.cell),
            Kind::Ice => pos.ice.push(p.cell),
        }
    }
    pos.skiddies.sort();
    pos.crates.sort();
    pos.ice.sort();
    pos
}

/// A plan replayed: the position it ends in, the move index on which
/// each skiddy left, per colour, and whether every move was legal.
pub struct Replay {
    pub end: Pos,
    pub leaves: [Vec<usize>; 4],
}

impl Replay {
    /// Combo: for every colour, all its skiddies left on one move.
    pub fn combo(&self, start: &Pos) -> bool {
        let n = start.per_colour();
        (0..4).all(|c| n[c] == 0 || (self.leaves[c].len() == 1 && self.end.per_colour()[c] == 0))
    }
}

/// Replays `moves` from the start; an error names the first illegal move.
pub fn replay(level: &Level, moves: &str) -> Result<Replay, String> {
    let mut pos = level.start.clone();
    let mut leaves: [Vec<usize>; 4] = Default::default();
    for (i, dir) in moves.chars().enumerate() {
        let out = play(level, &pos, dir).ok_or(format!("move {i} ({dir}) changes nothing"))?;
        for (moves, &left) in leaves.iter_mut().zip(&out.left) {
            if left > 0 {
                moves.push(i);
            }
        }
        pos = out.pos;
    }
    Ok(Replay { end: pos, leaves })
}
