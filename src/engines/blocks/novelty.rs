//! Novelty, as best-first width search measures it (Lipovetzky and
//! Geffner, 2017): a position is novel when some piece stands on a
//! placement that no position met before with the same estimate had it
//! on. Where the estimate is flat over a wide plateau, a beam that keeps
//! novel positions first spreads over the plateau instead of circling in
//! one corner of it: on GNOME's Ithaca, the beam that keeps only the best
//! estimates stalls where the pieces around the special piece must all
//! change places, and the one that keeps novel positions first gets
//! through. As in best-first width search, every successor judged leaves
//! its placements noted, kept by the beam or not.

use rustc_hash::FxHashMap;

use super::engine::Engine;
use crate::solve::memory;

/// The placements seen so far, per estimate: one bit per (class,
/// placement), whichever piece of the class stands there.
pub struct Novelty {
    /// Bits in all: [`Engine::placements`].
    atoms: usize,
    seen: FxHashMap<u32, Vec<u64>>,
}

impl Novelty {
    pub fn new<const W: usize>(e: &Engine<W>) -> Self {
        Novelty {
            atoms: e.placements(),
            seen: FxHashMap::default(),
        }
    }

    /// True when some piece of `s` stands where no position with this
    /// `estimate` had one of its class; its placements are noted either
    /// way.
    pub fn note<const W: usize>(&mut self, e: &Engine<W>, s: &[u16], estimate: u32) -> bool {
        let words = self.atoms.div_ceil(64);
        let seen = self.seen.entry(estimate).or_insert_with(|| vec![0; words]);
        let mut novel = false;
        for (slot, &p) in s.iter().enumerate() {
            let a = e.placement_index(slot, p);
            let (w, bit) = (a / 64, 1u64 << (a % 64));
            novel |= seen[w] & bit == 0;
            seen[w] |= bit;
        }
        novel
    }

    /// The bytes its tables hold: the map (a key and a vector's header a
    /// bucket) and each estimate's bits.
    pub fn bytes(&self) -> usize {
        let entry = std::mem::size_of::<(u32, Vec<u64>)>();
        memory::hash_map_bytes(self.seen.capacity(), entry) as usize
            + self.seen.len() * self.atoms.div_ceil(64) * 8
    }
}

#[cfg(test)]
mod tests {
    use super::Novelty;
    use crate::engines::blocks::Layout;
    use crate::engines::blocks::board::Board;
    use crate::engines::blocks::engine::Engine;

    #[test]
    fn a_position_is_novel_until_each_of_its_placements_was_seen_at_its_estimate() {
        let l = Layout::parse("######\n#*a  #\n#b  .#\n######\n", "t").expect("a layout");
        let e = Engine::<1>::new(Board::new(&l));
        let mut n = Novelty::new(&e);
        let start = e.board.start();
        assert!(n.note(&e, &start, 7));
        assert!(!n.note(&e, &start, 7), "the same position again");
        assert!(n.note(&e, &start, 8), "another estimate has its own table");
        // One piece moved: that placement is new at estimate 7.
        let mut moved = start.clone();
        let k = e
            .board
            .classes
            .iter()
            .position(|c| !c.special && c.anchors.len() > 1);
        let k = k.expect("a piece that moves");
        let slot = e.board.classes[k].slots.start;
        let to = e.board.classes[k].next[usize::from(start[slot])]
            .into_iter()
            .find(|&q| q != super::super::board::NONE)
            .expect("a step");
        moved[slot] = to;
        assert!(n.note(&e, &moved, 7));
        assert!(!n.note(&e, &moved, 7));
        // Two estimates noted, one word of bits each (a board this small
        // has under 64 placements), in a map of at least 2 buckets.
        assert!(n.atoms <= 64);
        let entry = std::mem::size_of::<(u32, Vec<u64>)>();
        let map = crate::solve::memory::hash_map_bytes(n.seen.capacity(), entry) as usize;
        assert_eq!(n.bytes(), map + 2 * 8);
    }
}
