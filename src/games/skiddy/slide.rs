//! One move: every skiddy, ice cube and group slides until blocked.
//!
//! The move runs in steps of one cell. A *body* is a sticky group (or a
//! lone skiddy, or an ice cube). At each step the bodies still sliding
//! that can all advance together are found as a fixpoint: assume every
//! sliding body advances, then stop any body with a member whose next cell
//! is a block, a goal it may not enter, or a piece that does not advance,
//! until nothing changes. This is the issue's "front first" resolution:
//! a row of pieces moves and stops together, and it also settles bodies
//! whose shapes interlock. A body that stops stays stopped for the rest
//! of the move.
//!
//! Within a step:
//! - a skiddy body whose next cell holds a crate pushes it one cell if
//!   the cell beyond is floor or a pit and is free (or being vacated in
//!   this step); the body then stops, in the crate's old cell. Crates
//!   never push crates, goals block crates, and ice never pushes;
//! - a member entering a pit stops its whole body there;
//! - a skiddy entering its colour's goal leaves; the rest of its group
//!   splits into its connected parts, which go on sliding in this same
//!   move as separate bodies (they are still sliding and were not blocked).

use super::level::{Ground, Piece};
use super::rules::{Dir, GONE, Key, MAX_PIECES, Move, Rules};

/// A set of key slots.
type Slots = u32;

struct Body {
    members: Slots,
    sliding: bool,
}

/// A layout in the middle of a move.
struct Board<'r> {
    rules: &'r Rules,
    dir: Dir,
    cells: [u8; MAX_PIECES],
    /// Slot + 1 of the piece on each cell, 0 when free.
    occupant: [u8; 256],
    bodies: Vec<Body>,
    left: [u8; 4],
}

/// The slots in `set`, lowest first.
pub(super) fn slots_of(set: Slots) -> impl Iterator<Item = usize> {
    let mut rest = set;
    std::iter::from_fn(move || {
        (rest != 0).then(|| {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            i
        })
    })
}

impl Rules {
    /// Plays `dir` from `key`; `None` when the move changes nothing.
    pub fn play(&self, key: &Key, dir: Dir) -> Option<(Move, Key)> {
        let (m, cells) = self
            .glide(key, dir)
            .unwrap_or_else(|| self.play_stepwise(key, dir));
        let next = self.canonical(cells);
        (next != *key).then_some((m, next))
    }

    /// Plays `dir` with the lock-step path only, as the first engine did:
    /// the baseline of `cargo bench --bench skiddy`.
    pub fn play_lockstep(&self, key: &Key, dir: Dir) -> Option<(Move, Key)> {
        let (m, cells) = self.play_stepwise(key, dir);
        let next = self.canonical(cells);
        (next != *key).then_some((m, next))
    }

    /// Plays `dir` in lock-step, one cell per step: the general path.
    pub(super) fn play_stepwise(&self, key: &Key, dir: Dir) -> (Move, [u8; MAX_PIECES]) {
        let mut board = Board::new(self, key, dir);
        while board.step() {}
        let left = board.left;
        (Move { dir, left }, board.cells)
    }

    pub(super) fn next_cell(&self, cell: usize, dir: Dir) -> usize {
        // Pieces stand inside the ring, so one step never leaves the board.
        match dir {
            Dir::U => cell - self.width,
            Dir::D => cell + self.width,
            Dir::L => cell - 1,
            Dir::R => cell + 1,
        }
    }

    pub(super) fn adjacent(&self, a: u8, b: u8) -> bool {
        let (ra, ca) = self.place[usize::from(a)];
        let (rb, cb) = self.place[usize::from(b)];
        ra.abs_diff(rb) + ca.abs_diff(cb) == 1
    }
}

impl<'r> Board<'r> {
    fn new(rules: &'r Rules, key: &Key, dir: Dir) -> Board<'r> {
        let mut board = Board {
            rules,
            dir,
            cells: key.0,
            occupant: [0; 256],
            bodies: Vec::new(),
            left: [0; 4],
        };
        let mut skiddies: Slots = 0;
        for (slot, piece) in rules.slots.iter().enumerate() {
            let cell = key.0[slot];
            if cell == GONE {
                continue;
            }
            board.occupant[usize::from(cell)] = slot as u8 + 1;
            match piece {
                Piece::Skiddy(_) => skiddies |= 1 << slot,
                Piece::Ice => board.add_body(1 << slot, true),
                Piece::Crate => {}
            }
        }
        board.split(skiddies, true);
        board
    }

    fn add_body(&mut self, members: Slots, sliding: bool) {
        self.bodies.push(Body { members, sliding });
    }

    /// Adds the bodies of `set`: its sticky groups, or one body per piece.
    fn split(&mut self, mut set: Slots, sliding: bool) {
        while set != 0 {
            let seed = set & set.wrapping_neg();
            let mut group = seed;
            if self.rules.sticky {
                while let Some(s) = slots_of(set & !group).find(|&s| self.joins(group, s)) {
                    group |= 1 << s;
                }
            }
            set &= !group;
            self.add_body(group, sliding);
        }
    }

    /// True when slot `s` is a same-colour neighbour of a member of `group`.
    fn joins(&self, group: Slots, s: usize) -> bool {
        let kind = self.rules.slots[s];
        slots_of(group).any(|m| {
            self.rules.slots[m] == kind && self.rules.adjacent(self.cells[m], self.cells[s])
        })
    }

    /// The body holding `slot`, if a body does.
    fn body_of(&self, slot: usize) -> Option<usize> {
        self.bodies
            .iter()
            .position(|b| b.members & (1 << slot) != 0)
    }

    /// The piece on `cell` advances in this step (or the cell is free).
    fn vacated(&self, cell: usize, advancing: &[bool]) -> bool {
        match self.occupant[cell] {
            0 => true,
            o => self
                .body_of(usize::from(o - 1))
                .is_some_and(|b| advancing[b]),
        }
    }

    /// The crates body `b` pushes if it advances, or `None` when a member
    /// is blocked.
    fn advance(&self, b: usize, advancing: &[bool]) -> Option<Slots> {
        let mut pushed = 0;
        for m in slots_of(self.bodies[b].members) {
            let piece = self.rules.slots[m];
            let to = self.rules.next_cell(usize::from(self.cells[m]), self.dir);
            match self.rules.ground[to] {
                Ground::Block => return None,
                Ground::Goal(c) if piece != Piece::Skiddy(c) => return None,
                _ => {}
            }
            if self.vacated(to, advancing) {
                continue;
            }
            let crate_slot = usize::from(self.occupant[to] - 1);
            if !matches!(piece, Piece::Skiddy(_)) || self.rules.slots[crate_slot] != Piece::Crate {
                return None;
            }
            let beyond = self.rules.next_cell(to, self.dir);
            let open = matches!(self.rules.ground[beyond], Ground::Floor | Ground::Pit);
            if !open || !self.vacated(beyond, advancing) {
                return None;
            }
            pushed |= 1 << crate_slot;
        }
        Some(pushed)
    }

    /// Which sliding bodies advance in this step: the largest set that can
    /// all advance together.
    fn advancing(&self) -> Vec<bool> {
        let mut advancing: Vec<bool> = self.bodies.iter().map(|b| b.sliding).collect();
        loop {
            let blocked: Vec<usize> = (0..self.bodies.len())
                .filter(|&b| advancing[b] && self.advance(b, &advancing).is_none())
                .collect();
            if blocked.is_empty() {
                return advancing;
            }
            for b in blocked {
                advancing[b] = false;
            }
        }
    }

    /// Plays one step; false when nothing slides any more.
    fn step(&mut self) -> bool {
        let advancing = self.advancing();
        let mut moving: Slots = 0;
        let mut stops = vec![false; self.bodies.len()];
        for b in 0..self.bodies.len() {
            if !advancing[b] {
                self.bodies[b].sliding = false;
                continue;
            }
            let pushed = self.advance(b, &advancing).unwrap_or(0);
            moving |= self.bodies[b].members | pushed;
            stops[b] = pushed != 0;
        }
        if moving == 0 {
            return false;
        }
        let gone = self.shift(moving);
        for (b, body) in self.bodies.iter_mut().enumerate() {
            let in_pit = slots_of(body.members & !gone)
                .any(|m| self.rules.ground[usize::from(self.cells[m])] == Ground::Pit);
            if stops[b] || in_pit {
                body.sliding = false;
            }
        }
        if gone != 0 {
            self.regroup(gone);
        }
        true
    }

    /// Moves the pieces of `moving` one cell; returns the skiddies that
    /// left through their goal.
    fn shift(&mut self, moving: Slots) -> Slots {
        let r = self.rules;
        shift(
            r,
            self.dir,
            moving,
            &mut self.cells,
            &mut self.occupant,
            &mut self.left,
        )
    }

    /// Drops the skiddies in `gone` from their bodies; what is left of each
    /// body goes on as its connected parts.
    fn regroup(&mut self, gone: Slots) {
        let bodies = std::mem::take(&mut self.bodies);
        for body in bodies {
            let rest = body.members & !gone;
            if rest == body.members {
                self.bodies.push(body);
            } else {
                self.split(rest, body.sliding);
            }
        }
    }
}

/// Moves the pieces of `moving` one cell along `dir`, keeping `occupant`
/// in step; a skiddy that reaches its goal leaves and is counted in
/// `left`. Returns the slots that left. Both move paths use it.
pub(super) fn shift(
    rules: &Rules,
    dir: Dir,
    moving: Slots,
    cells: &mut [u8; MAX_PIECES],
    occupant: &mut [u8; 256],
    left: &mut [u8; 4],
) -> Slots {
    for m in slots_of(moving) {
        occupant[usize::from(cells[m])] = 0;
    }
    let mut gone = 0;
    for m in slots_of(moving) {
        let to = rules.next_cell(usize::from(cells[m]), dir);
        if let (Ground::Goal(c), Piece::Skiddy(_)) = (rules.ground[to], rules.slots[m]) {
            cells[m] = GONE;
            left[c.index()] += 1;
            gone |= 1 << m;
        } else {
            // `to` is inside a 16×16 board.
            cells[m] = to as u8;
            occupant[to] = m as u8 + 1;
        }
    }
    gone
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::skiddy::level::Level;

    fn rules(text: &str) -> Rules {
        Rules::new(&Level::parse(text).unwrap())
    }

    /// The board after `moves` (each must change something), and how many
    /// skiddies of each colour left on the last move.
    fn after(text: &str, moves: &str) -> (String, [u8; 4]) {
        let r = rules(text);
        let mut key = r.start;
        let mut left = [0; 4];
        for c in moves.chars() {
            let dir = Dir::from_char(c).unwrap();
            let (m, next) = r
                .play(&key, dir)
                .unwrap_or_else(|| panic!("{c} changes nothing"));
            assert_eq!(m.dir, dir);
            key = next;
            left = m.left;
        }
        (r.render_rows(&key).join("\n"), left)
    }

    fn board(rows: &[&str]) -> String {
        rows.join("\n")
    }

    /// Asserts the board after `moves`; returns who left on the last one.
    fn expect(text: &str, moves: &str, rows: &[&str]) -> [u8; 4] {
        let (b, left) = after(text, moves);
        assert_eq!(b, board(rows), "{text}after {moves}");
        left
    }

    #[test]
    fn slides_until_blocked_and_a_no_op_is_not_a_move() {
        let t = "######\n#r...#\n######\n";
        expect(t, "R", &["######", "#...r#", "######"]);
        let r = rules(t);
        assert_eq!(r.play(&r.start, Dir::L), None);
        assert_eq!(r.play(&r.start, Dir::U), None);
    }

    #[test]
    fn a_row_moves_and_stops_together() {
        let t = "sticky: no\n#######\n#rbi..#\n#.....#\n#######\n";
        expect(t, "R", &["#######", "#..rbi#", "#.....#", "#######"]);
        // The front piece stopped by a piece that cannot move stops the row.
        let t = "#######\n#.rb.c#\n#######\n";
        expect(t, "R", &["#######", "#..rbc#", "#######"]);
    }

    #[test]
    fn leaving_and_goals_of_other_colours() {
        // Both reds leave in one move (the goal stays free for the second);
        // blue stops at the red goal.
        let t = "sticky: no\n#######\n#r.r..R\n#b....R\n#######\n";
        assert_eq!(
            expect(t, "R", &["#######", "#.....R", "#....bR", "#######"]),
            [2, 0, 0, 0]
        );
        assert_eq!(after(t, "RL").1, [0; 4]);
    }

    #[test]
    fn a_skiddy_pushes_a_crate_one_cell_and_stops_in_its_place() {
        let t = "########\n#r.c...#\n########\n";
        expect(t, "R", &["########", "#..rc..#", "########"]);
        // The crate moves one cell per push, never slides.
        expect(t, "RLR", &["########", "#...rc.#", "########"]);
    }

    #[test]
    fn a_crate_that_cannot_move_stops_the_skiddy_in_front() {
        // Against a block, a goal (even the skiddy's own), another crate,
        // and a pit that already holds a piece.
        for (t, want) in [
            ("#####\n#r.c#\n#####\n", "#.rc#"),
            ("#####\n#r.cR\n#####\n", "#.rcR"),
            ("#######\n#r.cc.#\n#######\n", "#.rcc.#"),
        ] {
            assert_eq!(after(t, "R").0.lines().nth(1), Some(want), "{t}");
        }
        let t = "######\n#r.co#\n#...i#\n######\n";
        // Up sends the ice into the pit; the crate then has nowhere to go.
        expect(t, "UR", &["######", "#.rci#", "#....#", "######"]);
    }

    #[test]
    fn ice_slides_but_never_pushes_nor_leaves() {
        let t = "#######\n#i.c..#\n#i....R\n#b....#\n#######\n";
        expect(
            t,
            "R",
            &["#######", "#.ic..#", "#....iR", "#....b#", "#######"],
        );
    }

    #[test]
    fn a_pit_holds_one_piece_which_leaves_on_a_later_move() {
        let t = "sticky: no\n########\n#.ri.o.#\n########\n";
        let r = rules(t);
        let (_, once) = r.play(&r.start, Dir::R).unwrap();
        assert_eq!(r.render_rows(&once)[1], "#...ri.#");
        assert_eq!(r.ground[13], Ground::Pit);
        assert_eq!(once.0[..2], [12, 13], "red behind, ice in the pit");
        expect(t, "RR", &["########", "#....ri#", "########"]);
        // A pushed crate drops into an empty pit, and is pushed out later.
        let t = "########\n#r.co..#\n########\n";
        expect(t, "RLR", &["########", "#...rc.#", "########"]);
    }

    #[test]
    fn a_sticky_group_slides_rigidly_and_forms_when_a_move_ends() {
        let t = "#######\n#r....#\n#..#..#\n#r....#\n#######\n";
        // Up joins the two reds; right then moves them as one body, which
        // stops when the lower one meets the block.
        expect(
            t,
            "UR",
            &["#######", "#.r...#", "#.r#..#", "#.....#", "#######"],
        );
        let loose = format!("sticky: no\n{t}");
        expect(
            &loose,
            "UR",
            &["#######", "#....r#", "#.r#..#", "#.....#", "#######"],
        );
        // Colours never stick together.
        let mixed = "#######\n#r....#\n#b.#..#\n#######\n";
        expect(mixed, "R", &["#######", "#....r#", "#.b#..#", "#######"]);
    }

    #[test]
    fn members_leaving_split_the_group_into_parts() {
        // One red group of six: the front three leave together; what is
        // left falls into {two on the left} and {one on the right}. The
        // left part is blocked by the ring; the right one goes on, alone,
        // to the goal its neighbour left through.
        let t = "##RRR##\n#.rrr.#\n#rr.r.#\n#######\n";
        assert_eq!(
            expect(t, "U", &["##RRR##", "#rr...#", "#.....#", "#######"]),
            [4, 0, 0, 0]
        );
        assert_eq!(
            expect(
                &format!("sticky: no\n{t}"),
                "U",
                &["##RRR##", "#r....#", "#.....#", "#######"]
            ),
            [5, 0, 0, 0]
        );
    }

    #[test]
    fn a_group_pushes_crates_only_when_all_can_move() {
        let t = "#######\n#rc...#\n#rc...#\n#######\n";
        expect(t, "R", &["#######", "#.rc..#", "#.rc..#", "#######"]);
        let stuck = "#######\n#rc...#\n#rcc..#\n#######\n";
        let r = rules(stuck);
        assert_eq!(r.play(&r.start, Dir::R), None);
    }

    #[test]
    fn a_pit_stops_the_whole_group() {
        let t = "#######\n#r.o..#\n#r....#\n#######\n";
        expect(t, "R", &["#######", "#..r..#", "#..r..#", "#######"]);
    }

    #[test]
    fn interlocking_groups_move_together() {
        // Red (left column and top) and green wrap around each other in
        // row 2: each is in front of the other there, yet both slide.
        let t = "#########\n#.ggg...#\n#rgrg...#\n#rrr....#\n#########\n";
        let r = rules(t);
        let (_, k) = r.play(&r.start, Dir::R).unwrap();
        assert_eq!(
            r.render_rows(&k),
            [
                "#########",
                "#....ggg#",
                "#...rgrg#",
                "#...rrr.#",
                "#########"
            ]
        );
    }

    /// A random level: a ring with a few goals, then random cells inside.
    fn random_level(seed: &mut u64) -> String {
        let mut next = |n: u64| {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            (*seed % n) as usize
        };
        let (w, h) = (4 + next(5), 4 + next(4));
        let mut rows = vec![vec!['#'; w]; h];
        for _ in 0..4 {
            let c = ['R', 'B', 'G', 'Y'][next(2)];
            match next(4) {
                0 => rows[0][1 + next(w as u64 - 2)] = c,
                1 => rows[h - 1][1 + next(w as u64 - 2)] = c,
                2 => rows[1 + next(h as u64 - 2)][0] = c,
                _ => rows[1 + next(h as u64 - 2)][w - 1] = c,
            }
        }
        let inner = "....rrbbci#o";
        for row in rows.iter_mut().take(h - 1).skip(1) {
            for cell in row.iter_mut().take(w - 1).skip(1) {
                *cell = inner.as_bytes()[next(inner.len() as u64)] as char;
            }
        }
        rows[1][1] = 'r';
        let sticky = if next(2) == 0 { "sticky: no\n" } else { "" };
        let body: Vec<String> = rows.iter().map(|r| r.iter().collect()).collect();
        format!("{sticky}{}\n", body.join("\n"))
    }

    #[test]
    fn the_fast_path_agrees_with_the_stepwise_one() {
        let mut seed = 0x2545_f491_4f6c_dd1d;
        let (mut compared, mut grouped) = (0, 0);
        for _ in 0..400 {
            let text = random_level(&mut seed);
            let r = rules(&text);
            let mut key = r.start;
            for step in 0..16 {
                let dir = Dir::ALL[(seed as usize + step * 7) % 4];
                if let Some((m1, c1)) = r.glide(&key, dir) {
                    let (m2, c2) = r.play_stepwise(&key, dir);
                    assert_eq!(
                        (m1, r.canonical(c1)),
                        (m2, r.canonical(c2)),
                        "{text}{dir:?}"
                    );
                    compared += 1;
                    grouped += usize::from(r.has_groups(&key));
                }
                if let Some((_, next)) = r.play(&key, dir) {
                    key = next;
                }
            }
        }
        assert!(compared > 3000 && grouped > 500, "{compared}, {grouped}");
    }

    #[test]
    fn random_moves_keep_the_pieces_whole() {
        let mut seed = 0x9e37_79b9_7f4a_7c15;
        let (mut moves, mut left) = (0, 0);
        for _ in 0..300 {
            let text = random_level(&mut seed);
            let r = rules(&text);
            let mut key = r.start;
            for step in 0..12 {
                let dir = Dir::ALL[(seed as usize + step) % 4];
                let Some((m, next)) = r.play(&key, dir) else {
                    continue;
                };
                assert_eq!(next, r.canonical(next.0), "{text}");
                let mut seen = std::collections::HashSet::new();
                for (slot, (&was, &now)) in key.0.iter().zip(&next.0).enumerate() {
                    let piece = r.slots.get(slot);
                    if now == GONE {
                        assert!(
                            matches!(piece, Some(Piece::Skiddy(_))) || piece.is_none(),
                            "{text}"
                        );
                        continue;
                    }
                    assert_ne!(was, GONE, "{text}");
                    assert!(seen.insert(now), "two pieces share a cell:\n{text}");
                    let ground = r.ground[usize::from(now)];
                    assert!(matches!(ground, Ground::Floor | Ground::Pit), "{text}");
                }
                let gone = |k: &Key| {
                    let mut n = [0u8; 4];
                    for (p, &c) in r.slots.iter().zip(&k.0) {
                        if let (Piece::Skiddy(col), GONE) = (p, c) {
                            n[col.index()] += 1;
                        }
                    }
                    n
                };
                let (before, after) = (gone(&key), gone(&next));
                for c in 0..4 {
                    assert_eq!(after[c] - before[c], m.left[c], "{text}");
                }
                moves += 1;
                left += m.left.iter().map(|&n| usize::from(n)).sum::<usize>();
                key = next;
            }
        }
        assert!(moves > 1000 && left > 100, "{moves} moves, {left} left");
    }
}
