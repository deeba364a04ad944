//! A small seeded random generator (SplitMix64): the same seed gives the same
//! puzzles on every machine and in every satdoku version that keeps it.

/// SplitMix64 (Steele, Lea & Flood 2014): 64 bits of state, every seed good,
/// passes BigCrush; plenty for shuffling cells and picking values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The generator of the `index`-th item of a run seeded with `seed`:
    /// each item draws from its own stream, so the items do not depend on
    /// the order (or the threads) they are made in.
    pub fn for_item(seed: u64, index: u64) -> Rng {
        let mut mixer = Rng(seed ^ index.wrapping_mul(0xA076_1D64_78BD_642F));
        Rng(mixer.next_u64() ^ index)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in `0..bound` (Lemire's multiply-shift with rejection,
    /// so without modulo bias); 0 when `bound` is 0.
    pub fn below(&mut self, bound: usize) -> usize {
        if bound <= 1 {
            return 0;
        }
        let bound = bound as u64;
        let threshold = bound.wrapping_neg() % bound;
        loop {
            let product = (self.next_u64() as u128) * (bound as u128);
            if (product as u64) >= threshold {
                return (product >> 64) as usize;
            }
        }
    }

    /// A uniform number in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Shuffle `items` uniformly (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }

    /// A uniformly random permutation of `0..n`.
    pub fn permutation(&mut self, n: usize) -> Vec<usize> {
        let mut p: Vec<usize> = (0..n).collect();
        self.shuffle(&mut p);
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_is_in_range_and_hits_every_value() {
        let mut rng = Rng::new(7);
        let mut seen = [0usize; 6];
        for _ in 0..6000 {
            seen[rng.below(6)] += 1;
        }
        assert!(seen.iter().all(|&k| (800..1200).contains(&k)), "{seen:?}");
    }

    #[test]
    fn items_have_their_own_streams() {
        let a: Vec<u64> = (0..4).map(|i| Rng::for_item(1, i).next_u64()).collect();
        let b: Vec<u64> = (0..4).map(|i| Rng::for_item(1, i).next_u64()).collect();
        assert_eq!(a, b);
        assert_ne!(a[0], a[1]);
        assert_ne!(Rng::for_item(1, 0).next_u64(), Rng::for_item(2, 0).next_u64());
    }
}
