//! The hot loop's view of a [`Board`]: every placement as a bitboard of
//! `W` words (one word for the classic boards, six for 19×19), states
//! packed into `K`-word keys, and the flood that finds every position one
//! piece reaches with the others fixed.

use super::bitflood::BitFlood;
use super::board::{Board, NONE};
use super::mirror::Mirror;

/// A board's cells as a bitset of `W` words.
pub type Bits<const W: usize> = [u64; W];

fn overlaps<const W: usize>(a: &Bits<W>, b: &Bits<W>) -> bool {
    a.iter().zip(b).any(|(x, y)| x & y != 0)
}

/// Per class and placement, the union of the cells each one-step move
/// adds to the placement.
fn halos<const W: usize>(board: &Board, masks: &[Vec<Bits<W>>]) -> Vec<Vec<Bits<W>>> {
    board
        .classes
        .iter()
        .zip(masks)
        .map(|(c, m)| {
            c.next
                .iter()
                .zip(m)
                .map(|(next, own)| {
                    let mut h = [0u64; W];
                    for &n in next.iter().filter(|&&n| n != NONE) {
                        for w in 0..W {
                            h[w] |= m[n as usize][w] & !own[w];
                        }
                    }
                    h
                })
                .collect()
        })
        .collect()
}

/// Scratch space for floods, reused across states.
#[derive(Default)]
pub struct Flood {
    stamp: Vec<u32>,
    round: u32,
    /// (placement, steps from the start) in the order reached, the start
    /// first.
    all: Vec<(u16, u32)>,
}

impl Flood {
    /// (placement, steps from the start) in the order reached, the start
    /// excluded.
    pub fn reached(&self) -> &[(u16, u32)] {
        self.all.get(1..).unwrap_or_default()
    }
}

/// Where a slot's placement sits in a packed key: its own field, or, for
/// a class packed as a set ([`super::board::Class::set`]), one bit a
/// placement from the class's offset.
#[derive(Clone, Copy, Debug)]
struct Field {
    word: usize,
    shift: u32,
    /// The field's bits, from bit 0.
    ones: u64,
    /// The field runs on into the next word.
    split: bool,
    /// The bit offset of the field (or of the class's set).
    at: usize,
    /// One past the class's last slot, when the class is a set.
    set_end: Option<usize>,
}

/// Sets or clears bit `i` of a key.
fn flip_bit<const K: usize>(key: &mut [u64; K], i: usize) {
    key[i / 64] ^= 1 << (i % 64);
}

impl Field {
    /// The placement in this field of `key` (a field of a list).
    #[inline(always)]
    fn get<const K: usize>(self, key: &[u64; K]) -> u16 {
        let mut v = key[self.word] >> self.shift;
        // A one-word key has no field that runs on.
        if K > 1 && self.split {
            v |= key[self.word + 1] << (64 - self.shift);
        }
        (v & self.ones) as u16
    }
}

/// A board ready for search. Its tables are flat arrays indexed by a
/// class's first placement plus the placement (`base`), so the hot loop
/// follows one pointer, not two.
pub struct Engine<const W: usize> {
    pub board: Board,
    /// Class base + placement -> cells.
    masks: Vec<Bits<W>>,
    /// Class base + placement -> the cells a one-step move would newly
    /// cover. A piece whose halo is all taken cannot move: most pieces, in
    /// a tight puzzle, so this one test spares most floods.
    halos: Vec<Bits<W>>,
    /// Class base + placement -> the placement one step away, by
    /// [`Dir::ALL`](super::moves::Dir::ALL), or [`NONE`].
    next: Vec<[u16; 4]>,
    /// Class -> the index of its placement 0 in `masks`, `halos` and `next`.
    base: Vec<usize>,
    /// Slot -> class.
    slot_class: Vec<usize>,
    /// Slot -> its class's base.
    slot_base: Vec<usize>,
    /// Slot -> its field in a packed key.
    fields: Vec<Field>,
    /// No class is packed as a set: every slot is a field of its own.
    lists_only: bool,
    /// The board's mirror, when it maps the puzzle onto itself.
    pub mirror: Option<Mirror>,
    /// The flood by shifts, on one-word boards.
    shifts: Option<BitFlood>,
}

impl<const W: usize> Engine<W> {
    pub fn new(board: Board) -> Self {
        let masks: Vec<Vec<Bits<W>>> = board
            .classes
            .iter()
            .map(|c| {
                c.cells
                    .iter()
                    .map(|cells| {
                        let mut m = [0u64; W];
                        for &i in cells {
                            m[i / 64] |= 1 << (i % 64);
                        }
                        m
                    })
                    .collect()
            })
            .collect();
        let halos = halos(&board, &masks).concat();
        let base: Vec<usize> = masks
            .iter()
            .scan(0, |at, m| {
                let b = *at;
                *at += m.len();
                Some(b)
            })
            .collect();
        let mut slot_class = vec![0; board.slots()];
        for (k, c) in board.classes.iter().enumerate() {
            for s in c.slots.clone() {
                slot_class[s] = k;
            }
        }
        let slot_base = slot_class.iter().map(|&k| base[k]).collect();
        let fields = (0..board.slots())
            .map(|i| {
                let off = board.offsets[i];
                let c = &board.classes[slot_class[i]];
                Field {
                    word: off as usize / 64,
                    shift: off % 64,
                    ones: (1u64 << c.bits) - 1,
                    split: off % 64 + c.bits > 64,
                    at: off as usize,
                    set_end: c.set.then_some(c.slots.end),
                }
            })
            .collect();
        let mirror = Mirror::of(&board);
        let lists_only = board.classes.iter().all(|c| !c.set);
        let next = board
            .classes
            .iter()
            .flat_map(|c| c.next.iter().copied())
            .collect();
        let shifts = if W == 1 { BitFlood::new(&board) } else { None };
        Engine {
            shifts,
            board,
            masks: masks.concat(),
            halos,
            next,
            base,
            slot_class,
            slot_base,
            fields,
            lists_only,
            mirror,
        }
    }

    /// False when the piece in `slot` surely cannot move: every cell it
    /// would newly cover is taken.
    pub fn may_move(&self, s: &[u16], occ: &Bits<W>, slot: usize) -> bool {
        let halo = &self.halos[self.slot_base[slot] + s[slot] as usize];
        halo.iter().zip(occ).any(|(h, o)| h & !o != 0)
    }

    /// True when the placement `p` of class `k` covers a cell of `cells`
    /// (a bitset of any length).
    pub fn covers_any(&self, k: usize, p: u16, cells: &[u64]) -> bool {
        self.masks[self.base[k] + p as usize]
            .iter()
            .zip(cells)
            .any(|(a, b)| a & b != 0)
    }

    /// `occ` after a piece of class `k` went from placement `from` to `to`.
    pub fn moved_occupancy(&self, occ: &Bits<W>, k: usize, from: u16, to: u16) -> Bits<W> {
        let (a, b) = (self.mask(k, from), self.mask(k, to));
        let mut m = *occ;
        for w in 0..W {
            m[w] = (m[w] & !a[w]) | b[w];
        }
        m
    }

    /// The cells placement `p` of class `k` covers.
    pub fn mask(&self, k: usize, p: u16) -> &Bits<W> {
        &self.masks[self.base[k] + p as usize]
    }

    pub fn class_of(&self, slot: usize) -> usize {
        self.slot_class[slot]
    }

    /// Placement `p` of the piece in `slot`, numbered across every class
    /// (`0..placements()`): the class's base plus `p`.
    pub fn placement_index(&self, slot: usize, p: u16) -> usize {
        self.slot_base[slot] + usize::from(p)
    }

    /// Placements of every class, in all.
    pub fn placements(&self) -> usize {
        self.masks.len()
    }

    /// The cells the movable pieces cover.
    pub fn occupied(&self, s: &[u16]) -> Bits<W> {
        let mut m = [0u64; W];
        for (&b, &p) in self.slot_base.iter().zip(s) {
            let mask = &self.masks[b + p as usize];
            for w in 0..W {
                m[w] |= mask[w];
            }
        }
        m
    }

    /// Every placement the piece in `slot` reaches from `s` with the others
    /// fixed, within `limit` steps, into `f` ([`Flood::reached`]).
    pub fn flood(&self, s: &[u16], occ: &Bits<W>, slot: usize, limit: u32, f: &mut Flood) {
        if let Some(b) = &self.shifts {
            let k = self.slot_class[slot];
            let at = self.base[k] + s[slot] as usize;
            let others = occ[0] & !self.masks[at][0];
            f.all.clear();
            f.all.push((s[slot], 0));
            b.flood(k, at, others, limit, |q, d| f.all.push((q, d)));
            return;
        }
        self.flood_placements(s, occ, slot, limit, f);
    }

    /// [`Engine::flood`] placement by placement, on any board.
    fn flood_placements(&self, s: &[u16], occ: &Bits<W>, slot: usize, limit: u32, f: &mut Flood) {
        let k = self.slot_class[slot];
        let span = self.base[k]..self.base[k] + self.board.classes[k].anchors.len();
        let (masks, next) = (&self.masks[span.clone()], &self.next[span]);
        let p = s[slot];
        let own = &masks[p as usize];
        let mut others = *occ;
        for w in 0..W {
            others[w] &= !own[w];
        }
        if f.stamp.len() < masks.len() {
            f.stamp.resize(masks.len(), 0);
        }
        f.round = f.round.wrapping_add(1);
        if f.round == 0 {
            f.stamp.iter_mut().for_each(|x| *x = 0);
            f.round = 1;
        }
        let (stamp, round) = (&mut f.stamp[..masks.len()], f.round);
        f.all.clear();
        stamp[p as usize] = round;
        f.all.push((p, 0));
        let mut head = 0;
        while let Some(&(q, d)) = f.all.get(head) {
            head += 1;
            if d >= limit {
                continue;
            }
            for &n in &next[q as usize] {
                let Some(seen) = stamp.get_mut(n as usize) else {
                    continue; // NONE: no placement that way
                };
                if *seen != round && !overlaps(&masks[n as usize], &others) {
                    *seen = round;
                    f.all.push((n, d + 1));
                }
            }
        }
    }

    /// The state packed into a key.
    pub fn pack<const K: usize>(&self, s: &[u16]) -> [u64; K] {
        let mut key = [0u64; K];
        for (f, &v) in self.fields.iter().zip(s) {
            if f.set_end.is_some() {
                flip_bit(&mut key, f.at + usize::from(v));
                continue;
            }
            key[f.word] |= u64::from(v) << f.shift;
            if K > 1 && f.split {
                key[f.word + 1] |= u64::from(v) >> (64 - f.shift);
            }
        }
        key
    }

    /// Writes `v` into `slot` of a packed key (a slot of a class packed
    /// as a list).
    #[inline(always)]
    fn put<const K: usize>(&self, key: &mut [u64; K], slot: usize, v: u16) {
        let f = self.fields[slot];
        let ones = f.ones;
        key[f.word] = (key[f.word] & !(ones << f.shift)) | (u64::from(v) << f.shift);
        if K > 1 && f.split {
            let hi = 64 - f.shift;
            key[f.word + 1] = (key[f.word + 1] & !(ones >> hi)) | (u64::from(v) >> hi);
        }
    }

    /// `key` (the state `s`) after the piece in `slot` of the class whose
    /// slots are `range` moved to placement `q`. A class's slots hold its
    /// placements in ascending order, so the piece's field is taken out,
    /// the fields between its old rank and its new one shift by one, and
    /// `q` goes in at its rank: no sort, and no other field is rewritten.
    #[inline]
    pub fn reslot<const K: usize>(
        &self,
        key: &mut [u64; K],
        range: std::ops::Range<usize>,
        s: &[u16],
        slot: usize,
        q: u16,
    ) {
        let p = s[slot];
        let f = self.fields[slot];
        if f.set_end.is_some() {
            flip_bit(key, f.at + usize::from(p));
            flip_bit(key, f.at + usize::from(q));
            return;
        }
        let mut at = slot;
        if q > p {
            while at + 1 < range.end && s[at + 1] < q {
                self.put(key, at, s[at + 1]);
                at += 1;
            }
        } else {
            while at > range.start && s[at - 1] > q {
                self.put(key, at, s[at - 1]);
                at -= 1;
            }
        }
        self.put(key, at, q);
    }

    /// `key` after a piece of class `k` went from placement `from` to
    /// `to`, when the class is packed as a set (two bits flip, wherever
    /// the piece's slot is); false, with `key` untouched, when it is
    /// packed as a list ([`Engine::reslot`] then).
    #[inline]
    pub fn move_in_set<const K: usize>(
        &self,
        key: &mut [u64; K],
        k: usize,
        from: u16,
        to: u16,
    ) -> bool {
        let f = self.fields[self.board.classes[k].slots.start];
        if f.set_end.is_none() {
            return false;
        }
        flip_bit(key, f.at + usize::from(from));
        flip_bit(key, f.at + usize::from(to));
        true
    }

    /// The state from a key.
    pub fn unpack<const K: usize>(&self, key: &[u64; K], s: &mut Vec<u16>) {
        s.clear();
        if self.lists_only {
            s.extend(self.fields.iter().map(|f| f.get(key)));
            return;
        }
        let mut i = 0;
        while let Some(&f) = self.fields.get(i) {
            if let Some(end) = f.set_end {
                let span = self.board.classes[self.slot_class[i]].anchors.len();
                set_bits(key, f.at, span, |p| s.push(p));
                i = end;
                continue;
            }
            s.push(f.get(key));
            i += 1;
        }
    }
}

/// Calls `f` with the index of every set bit among the `len` bits of `key`
/// from bit `at`, in ascending order.
fn set_bits<const K: usize>(key: &[u64; K], at: usize, len: usize, mut f: impl FnMut(u16)) {
    let mut done = 0;
    while done < len {
        let bit = at + done;
        let take = (64 - bit % 64).min(len - done);
        let mut chunk = key[bit / 64] >> (bit % 64);
        if take < 64 {
            chunk &= (1u64 << take) - 1;
        }
        while chunk != 0 {
            f((done + chunk.trailing_zeros() as usize) as u16);
            chunk &= chunk - 1;
        }
        done += take;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::blocks::layout::Layout;

    /// Every placement of every 1x1 piece, on a board with two of them
    /// (packed as a list) and one with seven (packed as a set): `reslot`
    /// gives the key of the re-sorted state, as packing it afresh does, and
    /// the key unpacks to that state.
    #[test]
    fn reslot_packs_what_a_fresh_sort_packs_as_a_list_and_as_a_set() {
        for (text, singles, set) in [
            ("######\n#*ab #\n#    #\n#    #\n#   .#\n######\n", 2, false),
            ("######\n#*abc#\n#defg#\n#    #\n#   .#\n######\n", 7, true),
        ] {
            let e = Engine::<1>::new(Board::new(&Layout::parse(text, "t").unwrap()));
            let s = e.board.start();
            let key = e.pack::<1>(&s);
            let k = (0..e.board.classes.len())
                .find(|&k| e.board.classes[k].slots.len() == singles)
                .expect("the 1x1 pieces are one class");
            assert_eq!(e.board.classes[k].set, set, "{text}");
            let range = e.board.classes[k].slots.clone();
            let placements = e.board.classes[k].anchors.len() as u16;
            let mut checked = 0;
            let mut back = Vec::new();
            for slot in range.clone() {
                for q in (0..placements).filter(|q| !s[range.clone()].contains(q)) {
                    let mut want = s.clone();
                    want[slot] = q;
                    want[range.clone()].sort_unstable();
                    let mut got = key;
                    e.reslot(&mut got, range.clone(), &s, slot, q);
                    assert_eq!(got, e.pack::<1>(&want), "slot {slot} to {q}");
                    e.unpack(&got, &mut back);
                    assert_eq!(back, want);
                    checked += 1;
                }
            }
            assert_eq!(checked, singles * (16 - singles));
        }
    }

    /// On GNOME's one-word levels, from every position within a few moves
    /// of the start: the flood by shifts reaches exactly what the flood
    /// placement by placement reaches, at the same distances, under both
    /// metrics.
    #[test]
    fn the_flood_by_shifts_reaches_what_the_flood_by_placements_reaches() {
        let mut boards = 0;
        for level in crate::games::klotski::levels::all() {
            let board = Board::new(&level.layout());
            if board.width * board.height > 64 {
                continue;
            }
            let e = Engine::<1>::new(board);
            assert!(e.shifts.is_some(), "{}", level.name);
            boards += 1;
            let mut seen = std::collections::HashSet::new();
            let mut todo = vec![e.board.start()];
            let (mut a, mut b) = (Flood::default(), Flood::default());
            while let Some(s) = todo.pop() {
                if seen.len() > 3000 || !seen.insert(s.clone()) {
                    continue;
                }
                let occ = e.occupied(&s);
                for slot in 0..s.len() {
                    for limit in [1, u32::MAX] {
                        e.flood(&s, &occ, slot, limit, &mut a);
                        e.flood_placements(&s, &occ, slot, limit, &mut b);
                        let mut x = a.reached().to_vec();
                        let mut y = b.reached().to_vec();
                        x.sort_unstable();
                        y.sort_unstable();
                        assert_eq!(x, y, "{} slot {slot} limit {limit}", level.name);
                    }
                    let range = e.board.classes[e.class_of(slot)].slots.clone();
                    for &(q, _) in a.reached() {
                        let mut n = s.clone();
                        n[slot] = q;
                        n[range.clone()].sort_unstable();
                        todo.push(n);
                    }
                }
            }
        }
        assert!(boards >= 15, "{boards} one-word levels");
    }
}
