//! Seeded random numbers for level generators: splitmix64, small and the
//! same on every machine, so a seed always gives the same level.

/// A splitmix64 stream.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The stream for item `index` of a run seeded with `seed`, so that
    /// parallel workers draw the same items whatever the order.
    pub fn for_item(seed: u64, index: u64) -> Rng {
        let mut r = Rng(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
        r.next_u64();
        r
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (which must be positive).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Takes a random element out of `v` (which must not be empty).
    pub fn take<T>(&mut self, v: &mut Vec<T>) -> T {
        let i = self.below(v.len());
        v.swap_remove(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_repeat_and_items_differ() {
        let a: Vec<u64> = (0..4).map(|_| Rng::new(7).next_u64()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        assert_ne!(
            Rng::for_item(7, 0).next_u64(),
            Rng::for_item(7, 1).next_u64()
        );
        let mut r = Rng::new(1);
        assert!((0..100).all(|_| r.below(6) < 6));
    }
}
