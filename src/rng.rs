//! A tiny, fast, seedable pseudo-random generator for playouts, generators and benchmarks.
//!
//! Not for cryptography. [`Rng`] is wyrand: one 64-bit multiply per number, full period 2^64,
//! and the same stream for the same seed on every platform.

/// wyrand pseudo-random generator.
///
/// ```
/// use bitgames::rng::Rng;
/// let mut a = Rng::new(7);
/// let mut b = Rng::new(7);
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert!(a.below(10) < 10);
/// ```
#[derive(Debug, Clone)]
pub struct Rng(u64);

/// splitmix64's state increment, 2⁶⁴ divided by the golden ratio (odd).
pub const GOLDEN: u64 = 0x9e37_79b9_7f4a_7c15;

/// splitmix64's output function (Steele, Lea & Flood, "Fast splittable pseudorandom number
/// generators", OOPSLA 2014): a bijection of 64-bit words in which every input bit reaches
/// every output bit. `mix64(state + GOLDEN)` is splitmix64's next number; the crate's seeds,
/// Zobrist keys and position hashes are made with it.
///
/// ```
/// use bitgames::rng::{GOLDEN, mix64};
/// assert_eq!(mix64(GOLDEN), 0xe220_a839_7b1d_cdaf); // splitmix64's first output for seed 0
/// ```
#[inline(always)]
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Rng {
    /// A generator seeded with `seed`.
    pub const fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0xa076_1d64_78bd_642f);
        let t = u128::from(self.0) * u128::from(self.0 ^ 0xe703_7ed1_a0b4_28db);
        (t >> 64) as u64 ^ t as u64
    }

    /// Steps the generator back over one [`Rng::next_u64`] (which [`Rng::below`] draws
    /// once): the next number is the last one again.
    #[inline]
    pub(crate) fn step_back(&mut self) {
        self.0 = self.0.wrapping_sub(0xa076_1d64_78bd_642f);
    }

    /// A number in `0..bound` (0 when `bound` is 0), by Lemire's multiply-shift.
    #[inline]
    pub fn below(&mut self, bound: u32) -> u32 {
        ((u64::from(self.next_u64() as u32) * u64::from(bound)) >> 32) as u32
    }

    /// A number in `lo..=hi`.
    ///
    /// # Panics
    /// When `lo > hi`.
    #[inline]
    pub fn range(&mut self, lo: u32, hi: u32) -> u32 {
        assert!(lo <= hi, "empty range {lo}..={hi}");
        lo + ((u128::from(self.next_u64()) * (u128::from(hi - lo) + 1)) >> 64) as u32
    }

    /// Shuffles `items` (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = ((u128::from(self.next_u64()) * (i as u128 + 1)) >> 64) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn below_and_range_stay_in_bounds_and_cover_them() {
        let mut rng = Rng::new(1);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            let v = rng.below(7);
            seen[v as usize] += 1;
            let r = rng.range(3, 9);
            assert!((3..=9).contains(&r));
        }
        assert!(seen.iter().all(|&c| c > 800), "{seen:?}");
        assert_eq!(rng.below(0), 0);
        assert_eq!(rng.range(u32::MAX, u32::MAX), u32::MAX);
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut v: Vec<u32> = (0..100).collect();
        Rng::new(9).shuffle(&mut v);
        assert_ne!(v, (0..100).collect::<Vec<_>>());
        v.sort_unstable();
        assert_eq!(v, (0..100).collect::<Vec<_>>());
    }
}
