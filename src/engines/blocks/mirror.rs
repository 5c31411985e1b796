//! The board's left-right mirror, when it maps the puzzle onto itself (the
//! classic Huarong Dao box and its goal are symmetric): a state and its
//! mirror image are then equally far from a goal, so the search stores
//! only one of the two and explores about half the states.

use super::board::Board;
use super::layout::normalise;

/// Each class's mirror class, and each placement's mirror placement.
#[derive(Clone, Debug)]
pub struct Mirror {
    pub class: Vec<usize>,
    pub placement: Vec<Vec<u16>>,
    /// Slot -> (the slot its mirror image takes, before sorting, and where
    /// its class's flipped placements start in `flat`): flat maps, as the
    /// search mirrors every state it expands.
    slots: Vec<(usize, usize)>,
    /// Every class's `placement`, one after another.
    flat: Vec<u16>,
    /// The slots of the classes with more than one piece, to sort.
    sort: Vec<std::ops::Range<usize>>,
    /// Of those, the classes packed as lists: a class packed as a set
    /// packs to the same bits in any order.
    sort_lists: Vec<std::ops::Range<usize>>,
}

impl Mirror {
    /// The mirror of `board`, when every class's placements (which already
    /// say where walls, doors and frozen pieces are) map onto a class's
    /// placements, the goal onto itself, and frozen pieces onto frozen
    /// pieces; `None` otherwise.
    pub fn of(board: &Board) -> Option<Mirror> {
        let w = board.width;
        let mut class = Vec::with_capacity(board.classes.len());
        let mut placement = Vec::with_capacity(board.classes.len());
        for c in &board.classes {
            let flipped: Vec<(usize, usize)> =
                c.shape.iter().map(|&(r, x)| (r, w - 1 - x)).collect();
            let shape = normalise(&flipped);
            let k = board.classes.iter().position(|d| {
                d.shape == shape
                    && d.special == c.special
                    && d.frozen == c.frozen
                    && d.slots.len() == c.slots.len()
                    && d.anchors.len() == c.anchors.len()
            })?;
            let box_width = c.shape.iter().map(|&(_, x)| x + 1).max()?;
            let d = &board.classes[k];
            let map = c
                .anchors
                .iter()
                .map(|&(r, x)| d.placement((r, (w - x).checked_sub(box_width)?)))
                .collect::<Option<Vec<u16>>>()?;
            class.push(k);
            placement.push(map);
        }
        let mut slots = vec![(0, 0); board.slots()];
        let mut flat = Vec::with_capacity(placement.iter().map(Vec::len).sum());
        for (k, c) in board.classes.iter().enumerate() {
            let to = board.classes[class[k]].slots.clone();
            for (i, j) in c.slots.clone().zip(to) {
                slots[i] = (j, flat.len());
            }
            flat.extend_from_slice(&placement[k]);
        }
        let many = || board.classes.iter().filter(|c| c.slots.len() > 1);
        let sort = many().map(|c| c.slots.clone()).collect();
        let sort_lists = many().filter(|c| !c.set).map(|c| c.slots.clone()).collect();
        let m = Mirror {
            class,
            placement,
            slots,
            flat,
            sort,
            sort_lists,
        };
        let goal_kept = board.goal.is_none_or(|g| {
            m.class[board.special] == board.special && m.placement[board.special][g as usize] == g
        });
        (goal_kept && m.keeps_frozen_pieces(board)).then_some(m)
    }

    /// Frozen pieces never move, so their mirror images must be frozen
    /// pieces too.
    fn keeps_frozen_pieces(&self, board: &Board) -> bool {
        board.classes.iter().enumerate().all(|(k, c)| {
            if !c.frozen {
                return true;
            }
            let starts = |class: usize| {
                board
                    .pieces
                    .iter()
                    .filter(move |p| p.class == class)
                    .map(|p| p.start)
            };
            let mut a: Vec<u16> = starts(k).map(|p| self.placement[k][p as usize]).collect();
            let mut b: Vec<u16> = starts(self.class[k]).collect();
            a.sort_unstable();
            b.sort_unstable();
            a == b
        })
    }

    /// The mirror image of state `s`, each class's slots sorted.
    pub fn state(&self, s: &[u16], out: &mut Vec<u16>) {
        self.image(s, out, &self.sort);
    }

    /// The mirror image of state `s` as far as packing it needs: the
    /// classes packed as lists sorted, those packed as sets in any order.
    /// The search mirrors every state it expands, and a set of fourteen
    /// 1x1 pieces (Only 18 Steps) took most of that time in its sort.
    pub fn state_to_pack(&self, s: &[u16], out: &mut Vec<u16>) {
        self.image(s, out, &self.sort_lists);
    }

    fn image(&self, s: &[u16], out: &mut Vec<u16>, sort: &[std::ops::Range<usize>]) {
        out.clear();
        out.resize(s.len(), 0);
        for (&(to, base), &v) in self.slots.iter().zip(s) {
            out[to] = self.flat[base + v as usize];
        }
        for r in sort {
            let v = &mut out[r.clone()];
            if v.len() <= SHORT {
                insertion_sort(v);
            } else {
                v.sort_unstable();
            }
        }
    }
}

/// A class of at most this many pieces is sorted by insertion.
const SHORT: usize = 12;

/// Sorts a class's few slots: a handful of values, where the standard
/// sort's set-up costs more than the sorting (the search mirrors every
/// state it expands).
fn insertion_sort(v: &mut [u16]) {
    for i in 1..v.len() {
        let x = v[i];
        let mut j = i;
        while j > 0 && v[j - 1] > x {
            v[j] = v[j - 1];
            j -= 1;
        }
        v[j] = x;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::blocks::layout::Layout;

    fn board(text: &str) -> Board {
        Board::new(&Layout::parse(text, "t").unwrap())
    }

    #[test]
    fn the_classic_box_is_symmetric_and_gnome_red_donkey_is_not() {
        let classic = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/klotski/classic.txt"
        ))
        .unwrap();
        let b = board(&classic);
        let m = Mirror::of(&b).expect("the classic is symmetric");
        let start = b.start();
        let mut once = Vec::new();
        let mut twice = Vec::new();
        m.state(&start, &mut once);
        m.state(&once, &mut twice);
        assert_eq!(twice, start, "mirroring twice gives the state back");
        assert_eq!(once, start, "the classic layout is its own mirror image");
        let donkey = "######\n#a**b#\n#a**b#\n#cdde#\n#cfge#\n#h  i#\n##--##\n    ..\n    ..\n";
        assert!(
            Mirror::of(&board(donkey)).is_none(),
            "its goal is on the right"
        );
    }

    #[test]
    fn an_image_to_pack_packs_as_the_sorted_image_does() {
        use crate::engines::blocks::engine::Engine;
        // Only 18 Steps' box with its free cells to one side: fourteen 1x1
        // pieces, packed as a set, in a position unlike its mirror image.
        let b = board("######\n#a**b#\n#m**n#\n#cdef#\n#ghij#\n#kl  #\n##--##\n  ..  \n  ..  \n");
        assert!(b.classes.iter().any(|c| c.set), "the 1x1 pieces are a set");
        let e = Engine::<1>::new(b);
        let m = e.mirror.as_ref().expect("the box is symmetric");
        let s = e.board.start();
        let (mut sorted, mut packed) = (Vec::new(), Vec::new());
        m.state(&s, &mut sorted);
        m.state_to_pack(&s, &mut packed);
        assert_ne!(e.pack::<1>(&sorted), e.pack::<1>(&s));
        assert_eq!(e.pack::<1>(&sorted), e.pack::<1>(&packed));
    }

    #[test]
    fn insertion_sort_sorts_as_the_standard_sort_does() {
        for v in [
            vec![],
            vec![3],
            vec![5, 1, 4, 1, 9, 2, 6],
            vec![9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
        ] {
            let (mut a, mut b) = (v.clone(), v);
            insertion_sort(&mut a);
            b.sort_unstable();
            assert_eq!(a, b);
        }
    }

    #[test]
    fn chiral_shapes_map_to_their_mirror_class() {
        let b = board("#####\n#a  #\n#aa #\n#  b#\n# bb#\n# * #\n##.##\n");
        assert!(Mirror::of(&b).is_some());
        let b = board("#####\n#a  #\n#aa #\n#   #\n# * #\n##.##\n");
        assert!(Mirror::of(&b).is_none(), "an L with no J");
    }
}
