//! The fast path of a move: each body (a sticky group, a lone skiddy or
//! an ice cube) slides all the way at once, front first.
//!
//! Bodies are taken in an order where every body comes after each body
//! with a member ahead of one of its members in the same lane. A body
//! ahead only ever moves further ahead, and one behind never passes it,
//! so when a body is taken everything in front of it is already where it
//! ends. Sliding it cell by cell against that layout gives the result of
//! [`super::slide`]'s lock-step simulation: a row moves and stops
//! together, a goal left by a skiddy is free for the next one, and the
//! cell beyond a crate is free exactly when its piece moved away (the
//! lock-step rule's "free or being vacated").
//!
//! Two cases go back to the lock-step path: bodies that are each ahead of
//! the other (interlocking shapes), and a group with a member reaching its
//! goal (the group splits mid-move). A unit test checks both paths against
//! each other on random levels.

use super::level::{Ground, Piece};
use super::rules::{Dir, GONE, Key, MAX_PIECES, Move, Rules};
use super::slide::slots_of;

/// A set of key slots, or of bodies.
type Set = u32;

/// A move in progress on the fast path.
struct Glide<'r> {
    rules: &'r Rules,
    dir: Dir,
    cells: [u8; MAX_PIECES],
    /// Slot + 1 of the piece on each cell, 0 when free.
    occupant: [u8; 256],
    /// Members of each body.
    bodies: [Set; MAX_PIECES],
    count: usize,
    left: [u8; 4],
}

impl Rules {
    /// Plays `dir` on the fast path; `None` when the lock-step path must.
    pub(super) fn glide(&self, key: &Key, dir: Dir) -> Option<(Move, [u8; MAX_PIECES])> {
        let mut g = Glide::new(self, key, dir);
        let (order, n) = g.order()?;
        for &b in &order[..n] {
            g.slide(usize::from(b))?;
        }
        Some((Move { dir, left: g.left }, g.cells))
    }

    /// How far along `dir` a cell lies (larger is further in front), and
    /// its lane across `dir`.
    fn along(&self, cell: u8, dir: Dir) -> (u8, u8) {
        let (row, col) = self.place[usize::from(cell)];
        match dir {
            Dir::U => (!row, col),
            Dir::D => (row, col),
            Dir::L => (!col, row),
            Dir::R => (col, row),
        }
    }
}

impl<'r> Glide<'r> {
    fn new(rules: &'r Rules, key: &Key, dir: Dir) -> Glide<'r> {
        let mut g = Glide {
            rules,
            dir,
            cells: key.0,
            occupant: [0; 256],
            bodies: [0; MAX_PIECES],
            count: 0,
            left: [0; 4],
        };
        let mut skiddies: Set = 0;
        for (slot, piece) in rules.slots.iter().enumerate() {
            let cell = key.0[slot];
            if cell == GONE {
                continue;
            }
            g.occupant[usize::from(cell)] = slot as u8 + 1;
            match piece {
                Piece::Skiddy(_) => skiddies |= 1 << slot,
                Piece::Ice => g.add(1 << slot),
                Piece::Crate => {}
            }
        }
        while skiddies != 0 {
            let group = g.group_of(skiddies.trailing_zeros() as usize, skiddies);
            skiddies &= !group;
            g.add(group);
        }
        g
    }

    fn add(&mut self, members: Set) {
        self.bodies[self.count] = members;
        self.count += 1;
    }

    /// The sticky group of `seed` among the skiddies `pool`.
    fn group_of(&self, seed: usize, pool: Set) -> Set {
        let mut group: Set = 1 << seed;
        if !self.rules.sticky {
            return group;
        }
        let mut frontier = group;
        while frontier != 0 {
            let m = frontier.trailing_zeros() as usize;
            frontier &= frontier - 1;
            for s in slots_of(pool & !group) {
                if self.rules.slots[s] == self.rules.slots[m]
                    && self.rules.adjacent(self.cells[s], self.cells[m])
                {
                    group |= 1 << s;
                    frontier |= 1 << s;
                }
            }
        }
        group
    }

    /// The bodies front first; `None` when two are each ahead of the other.
    fn order(&self) -> Option<([u8; MAX_PIECES], usize)> {
        let n = self.count;
        let mut order = [0u8; MAX_PIECES];
        let mut spots = [(0u8, 0u8, 0usize); MAX_PIECES];
        let mut k = 0;
        for (b, (slot, &body)) in order.iter_mut().zip(&self.bodies[..n]).enumerate() {
            *slot = b as u8;
            for m in slots_of(body) {
                let (progress, lane) = self.rules.along(self.cells[m], self.dir);
                spots[k] = (progress, lane, b);
                k += 1;
            }
        }
        if k == n {
            // Single pieces: front first is simply by progress.
            order[..n].sort_unstable_by_key(|&b| std::cmp::Reverse(spots[usize::from(b)].0));
            return Some((order, n));
        }
        // `before[b]`: the bodies with a member ahead of one of b's, lane by lane.
        let mut before = [0 as Set; MAX_PIECES];
        for &(p, lane, b) in &spots[..k] {
            for &(q, other, a) in &spots[..k] {
                if a != b && other == lane && q > p {
                    before[b] |= 1 << a;
                }
            }
        }
        let mut done: Set = 0;
        for slot in order.iter_mut().take(n) {
            let next = (0..n).find(|&b| done & (1 << b) == 0 && before[b] & !done == 0)?;
            done |= 1 << next;
            *slot = next as u8;
        }
        Some((order, n))
    }

    /// Slides body `b` until it stops; `None` when a member of a group
    /// would leave.
    fn slide(&mut self, b: usize) -> Option<()> {
        let body = self.bodies[b];
        loop {
            let Some(pushed) = self.advance(body)? else {
                return Some(());
            };
            let gone = self.shift(body, pushed);
            let in_pit = slots_of(body & !gone)
                .any(|m| self.rules.ground[usize::from(self.cells[m])] == Ground::Pit);
            if gone != 0 || pushed != 0 || in_pit {
                return Some(());
            }
        }
    }

    /// Whether `body` can advance one cell: `Some(Some(crates pushed))`
    /// when it can, `Some(None)` when it is blocked, `None` when a member
    /// of a group would leave.
    fn advance(&self, body: Set) -> Option<Option<Set>> {
        let r = self.rules;
        let mut pushed = 0;
        for m in slots_of(body) {
            let piece = r.slots[m];
            let to = r.next_cell(usize::from(self.cells[m]), self.dir);
            match r.ground[to] {
                Ground::Block => return Some(None),
                Ground::Goal(c) if piece == Piece::Skiddy(c) => {
                    if body.count_ones() > 1 {
                        return None;
                    }
                    continue;
                }
                Ground::Goal(_) => return Some(None),
                Ground::Floor | Ground::Pit => {}
            }
            let free = |cell: usize| match self.occupant[cell] {
                0 => true,
                o => body & (1 << (o - 1)) != 0,
            };
            if free(to) {
                continue;
            }
            let other = usize::from(self.occupant[to] - 1);
            let beyond = r.next_cell(to, self.dir);
            let pushable = matches!(piece, Piece::Skiddy(_))
                && r.slots[other] == Piece::Crate
                && matches!(r.ground[beyond], Ground::Floor | Ground::Pit)
                && free(beyond);
            if !pushable {
                return Some(None);
            }
            pushed |= 1 << other;
        }
        Some(Some(pushed))
    }

    /// Moves `body` and the crates it pushes one cell; returns the members
    /// that left through their goal.
    fn shift(&mut self, body: Set, pushed: Set) -> Set {
        let r = self.rules;
        super::slide::shift(
            r,
            self.dir,
            body | pushed,
            &mut self.cells,
            &mut self.occupant,
            &mut self.left,
        )
    }
}

impl Rules {
    /// True when some sticky group has more than one member.
    #[cfg(test)]
    pub(super) fn has_groups(&self, key: &Key) -> bool {
        let g = Glide::new(self, key, Dir::U);
        g.bodies[..g.count].iter().any(|b| b.count_ones() > 1)
    }
}
