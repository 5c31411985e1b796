//! A fixed 256-bit set: the bitboard used by solvers over at most 256
//! cells (a 16×16 board). Copy, hashable, and cheap to compare.

/// A set of indices in `0..256`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bits256(pub [u64; 4]);

impl Bits256 {
    pub fn single(i: usize) -> Self {
        let mut s = Self::default();
        s.insert(i);
        s
    }

    pub fn insert(&mut self, i: usize) {
        self.0[i >> 6] |= 1 << (i & 63);
    }

    pub fn remove(&mut self, i: usize) {
        self.0[i >> 6] &= !(1 << (i & 63));
    }

    pub fn without(mut self, i: usize) -> Self {
        self.remove(i);
        self
    }

    pub fn contains(&self, i: usize) -> bool {
        self.0[i >> 6] >> (i & 63) & 1 == 1
    }

    pub fn and(&self, o: &Self) -> Self {
        Bits256(std::array::from_fn(|k| self.0[k] & o.0[k]))
    }

    pub fn or(&self, o: &Self) -> Self {
        Bits256(std::array::from_fn(|k| self.0[k] | o.0[k]))
    }

    pub fn and_not(&self, o: &Self) -> Self {
        Bits256(std::array::from_fn(|k| self.0[k] & !o.0[k]))
    }

    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Smallest member.
    pub fn first(&self) -> Option<usize> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, w)| **w != 0)
            .map(|(k, w)| k * 64 + w.trailing_zeros() as usize)
    }

    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(k, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let b = w.trailing_zeros() as usize;
                    w &= w - 1;
                    k * 64 + b
                })
            })
        })
    }
}

impl FromIterator<usize> for Bits256 {
    fn from_iter<I: IntoIterator<Item = usize>>(iter: I) -> Self {
        let mut s = Bits256::default();
        for i in iter {
            s.insert(i);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let a: Bits256 = [0, 5, 64, 200, 255].into_iter().collect();
        let b: Bits256 = [5, 200].into_iter().collect();
        assert_eq!(a.len(), 5);
        assert_eq!(a.and(&b), b);
        assert_eq!(a.and_not(&b).iter().collect::<Vec<_>>(), vec![0, 64, 255]);
        assert_eq!(a.or(&b), a);
        assert_eq!(a.first(), Some(0));
        assert!(a.contains(255) && !a.contains(254));
        assert!(
            a.without(0)
                .without(5)
                .without(64)
                .without(200)
                .without(255)
                .is_empty()
        );
    }
}
