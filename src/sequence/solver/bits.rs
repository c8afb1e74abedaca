//! Cell sets of the solver's boards: one word for n ≤ 4 (`u64`), two for n = 5 (`u128`), and
//! [`Wide`] arrays of words beyond. The search is written once over [`Bits`].

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Shl, Shr};

/// A set of cells: bit `i` is cell `i` of the solver's layout (see [`super::geometry`]).
pub(crate) trait Bits:
    Copy
    + Eq
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + BitAndAssign
    + BitOrAssign
{
    /// The most cells a set holds.
    const CAPACITY: usize;
    /// No cell.
    const ZERO: Self;

    /// The set of cell `i` alone (`i < CAPACITY`).
    fn bit(i: usize) -> Self;
    /// Is the set empty?
    fn is_zero(self) -> bool;
    /// The number of cells.
    fn count(self) -> u32;
    /// The lowest cell (the set is not empty).
    fn lowest(self) -> usize;
    /// The set without its lowest cell.
    fn without_lowest(self) -> Self;
    /// Does the set hold exactly one cell?
    fn is_single(self) -> bool;
    /// Does the set hold cell `i`?
    #[inline]
    fn has(self, i: usize) -> bool {
        !(self & Self::bit(i)).is_zero()
    }
    /// The cells, lowest first.
    #[inline]
    fn cells(self) -> CellIter<Self> {
        CellIter(self)
    }
}

/// The cells of a set, lowest first.
pub(crate) struct CellIter<B>(B);

impl<B: Bits> Iterator for CellIter<B> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_zero() {
            return None;
        }
        let i = self.0.lowest();
        self.0 = self.0.without_lowest();
        Some(i)
    }
}

macro_rules! primitive_bits {
    ($t:ty) => {
        impl Bits for $t {
            const CAPACITY: usize = <$t>::BITS as usize;
            const ZERO: Self = 0;

            #[inline(always)]
            fn bit(i: usize) -> Self {
                debug_assert!(i < Self::CAPACITY);
                1 << i
            }
            #[inline(always)]
            fn is_zero(self) -> bool {
                self == 0
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline(always)]
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline(always)]
            fn is_single(self) -> bool {
                self != 0 && self & self.wrapping_sub(1) == 0
            }
        }
    };
}

primitive_bits!(u64);
primitive_bits!(u128);

/// `W` 64-bit words, least significant first: the cell sets of boards of more than 128 cells.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Wide<const W: usize>(pub(crate) [u64; W]);

impl<const W: usize> Debug for Wide<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Wide[")?;
        for (i, w) in self.0.iter().enumerate().rev() {
            if i + 1 < W {
                f.write_str("_")?;
            }
            write!(f, "{w:016x}")?;
        }
        f.write_str("]")
    }
}

impl<const W: usize> BitAnd for Wide<W> {
    type Output = Self;
    #[inline(always)]
    fn bitand(self, o: Self) -> Self {
        Wide(std::array::from_fn(|i| self.0[i] & o.0[i]))
    }
}

impl<const W: usize> BitOr for Wide<W> {
    type Output = Self;
    #[inline(always)]
    fn bitor(self, o: Self) -> Self {
        Wide(std::array::from_fn(|i| self.0[i] | o.0[i]))
    }
}

impl<const W: usize> BitXor for Wide<W> {
    type Output = Self;
    #[inline(always)]
    fn bitxor(self, o: Self) -> Self {
        Wide(std::array::from_fn(|i| self.0[i] ^ o.0[i]))
    }
}

impl<const W: usize> Not for Wide<W> {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        Wide(self.0.map(|w| !w))
    }
}

impl<const W: usize> BitAndAssign for Wide<W> {
    #[inline(always)]
    fn bitand_assign(&mut self, o: Self) {
        *self = *self & o;
    }
}

impl<const W: usize> BitOrAssign for Wide<W> {
    #[inline(always)]
    fn bitor_assign(&mut self, o: Self) {
        *self = *self | o;
    }
}

impl<const W: usize> Shl<u32> for Wide<W> {
    type Output = Self;
    /// Towards the higher cells; bits shifted past the last word are lost.
    #[inline(always)]
    fn shl(self, s: u32) -> Self {
        let (words, bits) = ((s / 64) as usize, s % 64);
        Wide(std::array::from_fn(|i| {
            let at = |j: usize| if j < W { self.0[j] } else { 0 };
            if i < words {
                return 0;
            }
            let hi = at(i - words) << bits;
            if bits == 0 || i == words {
                hi
            } else {
                hi | at(i - words - 1) >> (64 - bits)
            }
        }))
    }
}

impl<const W: usize> Shr<u32> for Wide<W> {
    type Output = Self;
    /// Towards the lower cells; bits shifted below cell 0 are lost.
    #[inline(always)]
    fn shr(self, s: u32) -> Self {
        let (words, bits) = ((s / 64) as usize, s % 64);
        Wide(std::array::from_fn(|i| {
            let at = |j: usize| if j < W { self.0[j] } else { 0 };
            let lo = at(i + words) >> bits;
            if bits == 0 {
                lo
            } else {
                lo | at(i + words + 1) << (64 - bits)
            }
        }))
    }
}

impl<const W: usize> Bits for Wide<W> {
    const CAPACITY: usize = 64 * W;
    const ZERO: Self = Wide([0; W]);

    #[inline(always)]
    fn bit(i: usize) -> Self {
        debug_assert!(i < Self::CAPACITY);
        let mut w = [0; W];
        w[i / 64] = 1 << (i % 64);
        Wide(w)
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        self.0.iter().fold(0, |a, &w| a | w) == 0
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline(always)]
    fn lowest(self) -> usize {
        for (i, &w) in self.0.iter().enumerate() {
            if w != 0 {
                return 64 * i + w.trailing_zeros() as usize;
            }
        }
        Self::CAPACITY
    }
    #[inline(always)]
    fn without_lowest(mut self) -> Self {
        for w in &mut self.0 {
            if *w != 0 {
                *w &= *w - 1;
                break;
            }
        }
        self
    }
    #[inline(always)]
    fn is_single(self) -> bool {
        self.count() == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plain bit vector to check the word arrays against.
    fn naive(cells: &[usize], cap: usize) -> Vec<bool> {
        let mut v = vec![false; cap];
        for &c in cells {
            v[c] = true;
        }
        v
    }

    fn to_vec<B: Bits>(b: B) -> Vec<bool> {
        (0..B::CAPACITY).map(|i| b.has(i)).collect()
    }

    fn check_shifts<B: Bits>() {
        let mut rng = crate::rng::Rng::new(5);
        for _ in 0..200 {
            let cells: Vec<usize> = (0..20)
                .map(|_| rng.below(B::CAPACITY as u32) as usize)
                .collect();
            let b = cells.iter().fold(B::ZERO, |a, &c| a | B::bit(c));
            let want = naive(&cells, B::CAPACITY);
            assert_eq!(to_vec(b), want);
            assert_eq!(b.count() as usize, want.iter().filter(|&&x| x).count());
            assert_eq!(b.cells().collect::<Vec<_>>(), {
                let mut c = cells.clone();
                c.sort_unstable();
                c.dedup();
                c
            });
            for s in 0..B::CAPACITY as u32 {
                let left = to_vec(b << s);
                let right = to_vec(b >> s);
                for i in 0..B::CAPACITY {
                    let l = i >= s as usize && want[i - s as usize];
                    let r = i + (s as usize) < B::CAPACITY && want[i + s as usize];
                    assert_eq!(left[i], l, "<< {s} at {i}");
                    assert_eq!(right[i], r, ">> {s} at {i}");
                }
            }
        }
    }

    #[test]
    fn word_arrays_agree_with_a_plain_bit_vector() {
        check_shifts::<u64>();
        check_shifts::<u128>();
        check_shifts::<Wide<4>>();
        check_shifts::<Wide<6>>();
    }

    #[test]
    fn debug_prints_the_words_most_significant_first() {
        // Bit 0 is the last digit of the last word, bit 64 · 3 + 4 the 0x10 of the first.
        let w = Wide::<4>::bit(0) | Wide::bit(64 * 3 + 4);
        let zeros = "0".repeat(16);
        assert_eq!(
            format!("{w:?}"),
            format!(
                "Wide[{}10_{zeros}_{zeros}_{}1]",
                "0".repeat(14),
                "0".repeat(15)
            )
        );
        assert_eq!(format!("{:?}", Wide::<1>::ZERO), format!("Wide[{zeros}]"));
    }

    #[test]
    fn single_and_lowest() {
        let w = Wide::<6>::bit(300);
        assert!(w.is_single());
        assert_eq!(w.lowest(), 300);
        assert!(!(w | Wide::bit(3)).is_single());
        assert_eq!((w | Wide::bit(3)).without_lowest(), w);
        assert!(!0u64.is_single());
        assert!(0b100u64.is_single());
    }
}
