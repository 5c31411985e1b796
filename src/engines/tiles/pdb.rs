//! Additive disjoint pattern databases for the 4×4 frame (Korf and Felner,
//! 2002): the tiles split into groups of 6, 6 and 3; each group's table
//! holds, for every placement of its tiles, the fewest slides *of those
//! tiles* that bring them home, the other tiles being interchangeable.
//! Slides of different groups' tiles are different slides, so the three
//! values add up to an admissible bound. Looking the same tables up on
//! the frame mirrored about its main diagonal (which keeps the goal) gives
//! a second bound; the search takes the larger.
//!
//! A table is indexed by its tiles' slots, four bits each (16^6 entries
//! for six tiles, one byte each: 16 MiB); slots two tiles cannot share
//! are never read. It is built by a breadth-first search over the
//! group's tiles and the gap, where a slide of another tile costs nothing.
//! [`super::cache`] keeps the tables on disk.

use super::MAX_SLOTS;
use super::ida::Bound;

/// The frame's side.
const SIDE: usize = 4;

/// The tile groups, in sgt's numbering (tile `t` belongs in slot `t - 1`):
/// the left and right halves of the top three rows, and the bottom row.
/// The second is the first mirrored left to right, tile for tile, so it
/// reads the first's table at mirrored slots (slot `s` -> `s ^ 3`).
pub const GROUPS: [&[u8]; 3] = [&[1, 2, 5, 6, 9, 10], &[4, 3, 8, 7, 12, 11], &[13, 14, 15]];

/// The tables built: the first group's (which the second shares) and the
/// third's.
const BUILT: [usize; 2] = [0, 2];

/// Which table each group reads, and what its slots are XORed with.
const READS: [(usize, u32); 3] = [(0, 0), (0, 3), (1, 0)];

/// A slot's mirror image about the main diagonal.
const fn mirror(slot: usize) -> usize {
    (slot % SIDE) * SIDE + slot / SIDE
}

/// The tile whose home is the mirror image of `tile`'s home.
const fn mirror_tile(tile: u8) -> u8 {
    mirror(tile as usize - 1) as u8 + 1
}

/// Each slot's neighbours on the 4×4 frame; `u8::MAX` ends a list.
fn neighbours() -> [[u8; 4]; MAX_SLOTS] {
    let mut next = [[u8::MAX; 4]; MAX_SLOTS];
    for (slot, list) in next.iter_mut().enumerate() {
        let (x, y) = (slot % SIDE, slot / SIDE);
        let candidates = [
            (y > 0, slot.wrapping_sub(SIDE)),
            (x > 0, slot.wrapping_sub(1)),
            (x + 1 < SIDE, slot + 1),
            (y + 1 < SIDE, slot + SIDE),
        ];
        let mut k = 0;
        for (ok, s) in candidates {
            if ok {
                list[k] = s as u8;
                k += 1;
            }
        }
    }
    next
}

/// The slots on the frame's left and right edges.
const LEFT_EDGE: u16 = 0x1111;
const RIGHT_EDGE: u16 = 0x8888;

/// The slots of `free` connected to `seed` (slot bits, 16 to a frame).
fn flood(free: u16, seed: u16) -> u16 {
    let mut r = seed & free;
    loop {
        let grown =
            (r | ((r << 1) & !LEFT_EDGE) | ((r >> 1) & !RIGHT_EDGE) | (r << 4) | (r >> 4)) & free;
        if grown == r {
            return r;
        }
        r = grown;
    }
}

/// Each slot's neighbours as slot bits.
fn neighbour_masks() -> [u16; MAX_SLOTS] {
    let next = neighbours();
    next.map(|list| {
        list.iter()
            .take_while(|&&q| q != u8::MAX)
            .fold(0u16, |m, &q| m | (1 << q))
    })
}

/// Builds the table of a group of tiles: entry `Σ slot(tile j) << 4j`
/// holds the fewest slides of the group's tiles that bring them home,
/// wherever the gap is; `u8::MAX` for placements that cannot occur.
///
/// The gap moves through the other tiles for nothing, so what matters of
/// it is only which connected area of the slots the group leaves free it
/// is in: a search state is a placement and that area, named by its
/// lowest slot. Most placements leave one area, so the breadth-first
/// search visits about 6 million states for six tiles, not the 58
/// million of placement and gap slot.
pub fn build(group: &[u8]) -> Vec<u8> {
    let k = group.len();
    let near = neighbour_masks();
    // Per placement, one word: the level it was first reached at (bits
    // 16..24, `UNSEEN` before), and which free areas were reached (a bit
    // per area's lowest slot): one memory access per search step.
    const UNSEEN: u32 = 0xFF << 16;
    let mut cells = vec![UNSEEN; 1usize << (4 * k)];
    let home: u32 = group
        .iter()
        .enumerate()
        .map(|(j, &t)| (u32::from(t) - 1) << (4 * j))
        .sum();
    let lowest = lowest_connected();
    let area_shift = 4 * k as u32;
    let placement_mask = (1u32 << area_shift) - 1;
    let rep = free_area(home, k, 1 << (MAX_SLOTS - 1)).1;
    cells[home as usize] = 1 << rep;
    let mut frontier = vec![home | (rep << area_shift)];
    let mut after = Vec::new();
    let mut level = 0u32;
    while !frontier.is_empty() {
        level += 1;
        for &s in &frontier {
            let placement = s & placement_mask;
            let (free, _) = free_area(placement, k, 0);
            let area = flood(free, 1 << (s >> area_shift));
            for j in 0..k {
                let p = (placement >> (4 * j)) & 0xF;
                let mut into = near[p as usize] & area;
                while into != 0 {
                    let q = into.trailing_zeros();
                    into &= into - 1;
                    let moved = placement ^ ((p ^ q) << (4 * j));
                    let free_after = (free & !(1 << q)) | (1 << p);
                    let rep = u32::from(lowest[(usize::from(free_after) << 4) | p as usize]);
                    let cell = &mut cells[moved as usize];
                    if *cell & (1 << rep) == 0 {
                        *cell |= 1 << rep;
                        if *cell & UNSEEN == UNSEEN {
                            *cell = (*cell & 0xFFFF) | (level << 16);
                        }
                        after.push(moved | (rep << area_shift));
                    }
                }
            }
        }
        std::mem::swap(&mut frontier, &mut after);
        after.clear();
    }
    cells.iter().map(|&c| (c >> 16) as u8).collect()
}

/// For every set of free slots and every slot in it, the lowest slot of
/// that slot's connected area (`[free << 4 | slot]`, 1 MiB). The build
/// asks this for every child, and a lookup is cheaper than a flood fill.
fn lowest_connected() -> Vec<u8> {
    let mut lowest = vec![0u8; 1 << 20];
    for free in 1..=u16::MAX {
        let mut left = free;
        while left != 0 {
            let area = flood(free, left & left.wrapping_neg());
            let rep = area.trailing_zeros() as u8;
            let mut slots = area;
            while slots != 0 {
                lowest[(usize::from(free) << 4) | slots.trailing_zeros() as usize] = rep;
                slots &= slots - 1;
            }
            left &= !area;
        }
    }
    lowest
}

/// The slots a placement leaves free, and the lowest slot of the area of
/// them connected to `seed`.
fn free_area(placement: u32, k: usize, seed: u16) -> (u16, u32) {
    let mut taken = 0u16;
    for j in 0..k {
        taken |= 1 << ((placement >> (4 * j)) & 0xF);
    }
    let free = !taken;
    (free, flood(free, seed).trailing_zeros() & 0xF)
}

/// The groups whose tables are built: the others read these.
pub fn built_groups() -> [&'static [u8]; 2] {
    BUILT.map(|g| GROUPS[g])
}

/// The tables of [`built_groups`].
pub struct Tables {
    pub tables: [Vec<u8>; 2],
}

impl Tables {
    /// Builds every table.
    pub fn build() -> Tables {
        Tables {
            tables: built_groups().map(build),
        }
    }
}

/// The pattern-database bound over [`Tables`], kept up to date slide by
/// slide: a slide changes one group's placement on the frame and one on
/// its mirror image, so two look-ups per node.
pub struct PatternBound<'t> {
    tables: [&'t [u8]; 3],
    /// Each tile's group, and its nibble's shift in that group's index.
    group: [u8; MAX_SLOTS],
    shift: [u8; MAX_SLOTS],
    /// The index and value of each group on the frame (0..3), then on
    /// its mirror image (3..6).
    index: [u32; 6],
    value: [u8; 6],
    sums: [u32; 2],
}

impl<'t> PatternBound<'t> {
    pub fn new(tables: &'t Tables) -> PatternBound<'t> {
        let mut group = [0u8; MAX_SLOTS];
        let mut shift = [0u8; MAX_SLOTS];
        for (g, tiles) in GROUPS.iter().enumerate() {
            for (j, &t) in tiles.iter().enumerate() {
                group[usize::from(t)] = g as u8;
                shift[usize::from(t)] = 4 * j as u8;
            }
        }
        PatternBound {
            tables: READS.map(|(t, _)| tables.tables[t].as_slice()),
            group,
            shift,
            index: [0; 6],
            value: [0; 6],
            sums: [0; 2],
        }
    }

    fn look(&mut self, k: usize) {
        self.value[k] = self.tables[k % 3][self.index[k] as usize];
    }

    /// Moves `tile`'s nibble in group index `k` from `from` to `to`;
    /// returns the old value.
    #[inline(always)]
    fn shift_tile(&mut self, k: usize, tile: usize, from: usize, to: usize) -> u8 {
        let old = self.value[k];
        self.index[k] ^= ((from ^ to) as u32) << self.shift[tile];
        self.look(k);
        let side = k / 3;
        self.sums[side] = self.sums[side] + u32::from(self.value[k]) - u32::from(old);
        old
    }

    fn restore(&mut self, k: usize, tile: usize, from: usize, to: usize, old: u8) {
        self.index[k] ^= ((from ^ to) as u32) << self.shift[tile];
        let side = k / 3;
        self.sums[side] = self.sums[side] + u32::from(old) - u32::from(self.value[k]);
        self.value[k] = old;
    }
}

impl Bound for PatternBound<'_> {
    type Saved = (u8, u8);

    fn reset(&mut self, board: &[u8; MAX_SLOTS]) -> u32 {
        self.index = [0; 6];
        for (slot, &tile) in board.iter().enumerate() {
            if tile == 0 {
                continue;
            }
            let t = usize::from(tile);
            let g = usize::from(self.group[t]);
            self.index[g] |= (slot as u32 ^ READS[g].1) << self.shift[t];
            let m = usize::from(mirror_tile(tile));
            let g = usize::from(self.group[m]);
            self.index[3 + g] |= (mirror(slot) as u32 ^ READS[g].1) << self.shift[m];
        }
        for k in 0..6 {
            self.look(k);
        }
        self.sums = [0, 3].map(|s| self.value[s..s + 3].iter().map(|&v| u32::from(v)).sum());
        self.sums[0].max(self.sums[1])
    }

    #[inline(always)]
    fn apply(&mut self, tile: u8, from: usize, to: usize) -> (u32, (u8, u8)) {
        let t = usize::from(tile);
        let a = self.shift_tile(usize::from(self.group[t]), t, from, to);
        let m = usize::from(mirror_tile(tile));
        let b = self.shift_tile(3 + usize::from(self.group[m]), m, mirror(from), mirror(to));
        (self.sums[0].max(self.sums[1]), (a, b))
    }

    #[inline(always)]
    fn undo(&mut self, tile: u8, from: usize, to: usize, saved: (u8, u8)) {
        let t = usize::from(tile);
        self.restore(usize::from(self.group[t]), t, from, to, saved.0);
        let m = usize::from(mirror_tile(tile));
        self.restore(
            3 + usize::from(self.group[m]),
            m,
            mirror(from),
            mirror(to),
            saved.1,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_split_the_tiles_and_mirror_keeps_the_goal() {
        let mut all: Vec<u8> = GROUPS.concat();
        all.sort();
        assert_eq!(all, (1..16).collect::<Vec<u8>>());
        for t in 1..16u8 {
            assert_eq!(mirror_tile(mirror_tile(t)), t);
        }
        assert_eq!(mirror(MAX_SLOTS - 1), MAX_SLOTS - 1);
        // The second group is the first, mirrored left to right.
        for (a, b) in GROUPS[0].iter().zip(GROUPS[1]) {
            assert_eq!((usize::from(*a) - 1) ^ 3, usize::from(*b) - 1);
        }
    }

    #[test]
    fn the_mirrored_group_reads_the_first_table() {
        let a = build(GROUPS[0]);
        let b = build(GROUPS[1]);
        for (i, &v) in b.iter().enumerate() {
            assert_eq!(v, a[i ^ 0x33_3333], "entry {i:x}");
        }
    }

    /// The table of a small group by the plain way: a 0-1 search over
    /// placement and gap slot, then the least over gap slots.
    fn plain(group: &[u8]) -> Vec<u8> {
        let k = group.len();
        let next = neighbours();
        let mut dist = vec![u8::MAX; 1 << (4 * k + 4)];
        let home: usize = group
            .iter()
            .enumerate()
            .map(|(j, &t)| (usize::from(t) - 1) << (4 * j))
            .sum();
        let start = home | 15 << (4 * k);
        dist[start] = 0;
        let mut queue = std::collections::VecDeque::from([start]);
        while let Some(s) = queue.pop_front() {
            let (placement, gap) = (s & ((1 << (4 * k)) - 1), s >> (4 * k));
            for &q in next[gap].iter().take_while(|&&q| q != u8::MAX) {
                let q = usize::from(q);
                let j = (0..k).find(|&j| (placement >> (4 * j)) & 0xF == q);
                let (t, w) = match j {
                    Some(j) => (placement ^ ((q ^ gap) << (4 * j)) | q << (4 * k), 1),
                    None => (placement | q << (4 * k), 0),
                };
                let d = dist[s] + w;
                if d < dist[t] {
                    dist[t] = d;
                    if w == 0 {
                        queue.push_front(t)
                    } else {
                        queue.push_back(t)
                    }
                }
            }
        }
        let mut table = vec![u8::MAX; 1 << (4 * k)];
        for (s, &d) in dist.iter().enumerate() {
            let e = &mut table[s & ((1 << (4 * k)) - 1)];
            *e = (*e).min(d);
        }
        table
    }

    #[test]
    fn tables_match_the_plain_search_over_the_gap() {
        for group in [&[13u8, 14, 15][..], &[1, 2, 5], &[6, 7, 10, 11]] {
            assert_eq!(build(group), plain(group), "group {group:?}");
        }
    }

    #[test]
    fn a_small_table_matches_manhattan_for_one_tile() {
        // One tile alone: its fewest slides are its Manhattan distance.
        let t = build(&[6]);
        for (slot, &v) in t.iter().enumerate() {
            let d = (slot % 4).abs_diff(1) + (slot / 4).abs_diff(1);
            assert_eq!(usize::from(v), d, "slot {slot}");
        }
    }
}
