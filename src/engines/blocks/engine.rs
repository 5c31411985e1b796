//! The hot loop's view of a [`Board`]: every placement as a bitboard of
//! `W` words (one word for the classic boards, six for 19×19), states
//! packed into `K`-word keys, and the flood that finds every position one
//! piece reaches with the others fixed.

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
    /// (placement, steps from the start) in the order reached.
    pub reached: Vec<(u16, u32)>,
}

/// A board ready for search.
pub struct Engine<const W: usize> {
    pub board: Board,
    /// Class -> placement -> cells.
    masks: Vec<Vec<Bits<W>>>,
    /// Class -> placement -> the cells a one-step move would newly cover.
    /// A piece whose halo is all taken cannot move: most pieces, in a tight
    /// puzzle, so this one test spares most floods.
    halos: Vec<Vec<Bits<W>>>,
    /// Slot -> class.
    slot_class: Vec<usize>,
    /// The board's mirror, when it maps the puzzle onto itself.
    pub mirror: Option<Mirror>,
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
        let halos = halos(&board, &masks);
        let mut slot_class = vec![0; board.slots()];
        for (k, c) in board.classes.iter().enumerate() {
            for s in c.slots.clone() {
                slot_class[s] = k;
            }
        }
        let mirror = Mirror::of(&board);
        Engine {
            board,
            masks,
            halos,
            slot_class,
            mirror,
        }
    }

    /// False when the piece in `slot` surely cannot move: every cell it
    /// would newly cover is taken.
    pub fn may_move(&self, s: &[u16], occ: &Bits<W>, slot: usize) -> bool {
        let halo = &self.halos[self.slot_class[slot]][s[slot] as usize];
        halo.iter().zip(occ).any(|(h, o)| h & !o != 0)
    }

    /// True when the placement `p` of class `k` covers a cell of `cells`
    /// (a bitset of any length).
    pub fn covers_any(&self, k: usize, p: u16, cells: &[u64]) -> bool {
        self.masks[k][p as usize]
            .iter()
            .zip(cells)
            .any(|(a, b)| a & b != 0)
    }

    /// `occ` after a piece of class `k` went from placement `from` to `to`.
    pub fn moved_occupancy(&self, occ: &Bits<W>, k: usize, from: u16, to: u16) -> Bits<W> {
        let (a, b) = (&self.masks[k][from as usize], &self.masks[k][to as usize]);
        let mut m = *occ;
        for w in 0..W {
            m[w] = (m[w] & !a[w]) | b[w];
        }
        m
    }

    /// The cells placement `p` of class `k` covers.
    pub fn mask(&self, k: usize, p: u16) -> &Bits<W> {
        &self.masks[k][p as usize]
    }

    pub fn class_of(&self, slot: usize) -> usize {
        self.slot_class[slot]
    }

    /// The cells the movable pieces cover.
    pub fn occupied(&self, s: &[u16]) -> Bits<W> {
        let mut m = [0u64; W];
        for (i, &p) in s.iter().enumerate() {
            let mask = &self.masks[self.slot_class[i]][p as usize];
            for w in 0..W {
                m[w] |= mask[w];
            }
        }
        m
    }

    /// Every placement the piece in `slot` reaches from `s` with the others
    /// fixed, within `limit` steps, into `f.reached` (the start excluded).
    pub fn flood(&self, s: &[u16], occ: &Bits<W>, slot: usize, limit: u32, f: &mut Flood) {
        let k = self.slot_class[slot];
        let class = &self.board.classes[k];
        let masks = &self.masks[k];
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
        f.reached.clear();
        f.stamp[p as usize] = f.round;
        f.reached.push((p, 0));
        let mut head = 0;
        while head < f.reached.len() {
            let (q, d) = f.reached[head];
            head += 1;
            if d >= limit {
                continue;
            }
            for &n in &class.next[q as usize] {
                if n != NONE
                    && f.stamp[n as usize] != f.round
                    && !overlaps(&masks[n as usize], &others)
                {
                    f.stamp[n as usize] = f.round;
                    f.reached.push((n, d + 1));
                }
            }
        }
        f.reached.remove(0);
    }

    /// The state packed into a key.
    pub fn pack<const K: usize>(&self, s: &[u16]) -> [u64; K] {
        let mut key = [0u64; K];
        for (i, &v) in s.iter().enumerate() {
            let off = self.board.offsets[i] as usize;
            let (w, sh) = (off / 64, off % 64);
            key[w] |= u64::from(v) << sh;
            let bits = self.board.classes[self.slot_class[i]].bits as usize;
            if sh + bits > 64 {
                key[w + 1] |= u64::from(v) >> (64 - sh);
            }
        }
        key
    }

    /// Writes `v` into `slot` of a packed key.
    pub fn put<const K: usize>(&self, key: &mut [u64; K], slot: usize, v: u16) {
        let off = self.board.offsets[slot] as usize;
        let bits = self.board.classes[self.slot_class[slot]].bits as usize;
        let (w, sh) = (off / 64, off % 64);
        let ones = (1u64 << bits) - 1;
        key[w] = (key[w] & !(ones << sh)) | (u64::from(v) << sh);
        if sh + bits > 64 {
            let hi = 64 - sh;
            key[w + 1] = (key[w + 1] & !(ones >> hi)) | (u64::from(v) >> hi);
        }
    }

    /// The state from a key.
    pub fn unpack<const K: usize>(&self, key: &[u64; K], s: &mut Vec<u16>) {
        s.clear();
        for i in 0..self.board.slots() {
            let off = self.board.offsets[i] as usize;
            let bits = self.board.classes[self.slot_class[i]].bits as usize;
            let (w, sh) = (off / 64, off % 64);
            let mut v = key[w] >> sh;
            if sh + bits > 64 {
                v |= key[w + 1] << (64 - sh);
            }
            s.push((v & ((1u64 << bits) - 1)) as u16);
        }
    }
}
