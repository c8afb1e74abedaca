//! The transposition table: buckets of two 64-bit atomic entries (TWOBIG replacement), shared
//! by every search thread without locks.
//!
//! A position key (the canonical compact key, [`super::geometry::Geometry::key_bits`] bits) is
//! first mapped by a bijection of its bit range: its low word (or all of it, up to 64 bits),
//! mixed with the high word, times an odd number modulo 2^bits. The top bits of the image pick
//! the bucket; the rest, and the high word, are stored in the entry as its check. When the bucket index and the check together
//! cover every bit of the key, two positions can never be confused (for Score Four, 80-bit keys,
//! from 2^28 buckets, a 4 GiB table); otherwise a false match needs the check bits to agree by
//! chance.
//!
//! An entry is one word, read and written atomically: `check | work | move | bound`, where
//! `bound` (3 bits, 0 for an empty slot) is what is proven of the value for the player to move,
//! `move` the peg that proved it (in the key's symmetry frame) and `work` the log2 of the nodes
//! spent. The first slot of a bucket keeps the most expensive entry, the second the most recent.

use std::alloc::{self, Layout};
use std::sync::atomic::{AtomicU64, Ordering};

/// What is proven of a position's value for the player to move (−1 loss, 0 draw, 1 win).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Bound {
    /// The value is at least this.
    pub(crate) lower: i8,
    /// The value is at most this.
    pub(crate) upper: i8,
}

impl Bound {
    /// Nothing proven.
    pub(crate) const UNKNOWN: Bound = Bound {
        lower: -1,
        upper: 1,
    };

    /// What the answer `yes` to "is the value at least `t`?" proves.
    #[inline(always)]
    pub(crate) fn of_answer(t: i8, yes: bool) -> Bound {
        if yes {
            Bound { lower: t, upper: 1 }
        } else {
            Bound {
                lower: -1,
                upper: t - 1,
            }
        }
    }

    /// The answer this bound gives to "is the value at least `t`?", if it gives one.
    #[inline(always)]
    pub(crate) fn answer(self, t: i8) -> Option<bool> {
        if self.lower >= t {
            Some(true)
        } else if self.upper < t {
            Some(false)
        } else {
            None
        }
    }

    /// Both facts.
    #[inline]
    pub(crate) fn and(self, other: Bound) -> Bound {
        Bound {
            lower: self.lower.max(other.lower),
            upper: self.upper.min(other.upper),
        }
    }

    /// The 3-bit code (1..=5; 0 is an empty slot and [`Bound::UNKNOWN`], never stored).
    fn code(self) -> u64 {
        match (self.lower, self.upper) {
            (-1, -1) => 1,
            (-1, 0) => 2,
            (0, 0) => 3,
            (0, 1) => 4,
            (1, 1) => 5,
            _ => 0,
        }
    }

    fn of_code(code: u64) -> Bound {
        let (lower, upper) = match code {
            1 => (-1, -1),
            2 => (-1, 0),
            3 => (0, 0),
            4 => (0, 1),
            5 => (1, 1),
            _ => (-1, 1),
        };
        Bound { lower, upper }
    }
}

/// A table hit: the proven bound and the move that proved it (a peg in the key's frame).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Hit {
    pub(crate) bound: Bound,
    pub(crate) peg: usize,
}

#[repr(C, align(16))]
struct Bucket([AtomicU64; 2]);

/// Why a table cannot be made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct OutOfMemory {
    pub(crate) bytes: usize,
}

const BOUND_BITS: u32 = 3;
const WORK_BITS: u32 = 5;

/// The shared table.
pub(crate) struct Table {
    buckets: Box<[Bucket]>,
    move_bits: u32,
    check_bits: u32,
    /// The key's low word's bits: the key's bits, at most 64.
    low_mask: u64,
    /// The low word's image bits below the bucket index (kept in the check).
    shift: u32,
    /// Does every key have its own (bucket, check) pair? Then the check is the image bits
    /// under the index and `hi`, else a product of all of them (see [`Table::place`]).
    exact: bool,
}

/// Mixes the key's high word into the low word ([`Table::place`]).
const MIX_HIGH: u64 = 0x9e37_79b9_7f4a_7c15;
/// The odd multiplier of [`Table::place`]'s bijection.
const MIX: u64 = 0xd6e8_feb8_6659_fd93;
/// The odd multiplier of the check of a table too small to be exact ([`Table::place`]).
const MIX_CHECK: u64 = 0xa076_1d64_78bd_642f;

/// Asks Linux to back the huge-page-aligned part of `len` bytes from `start` (an allocation
/// just made: for a large table the allocator maps it fresh, so no page of it is in memory yet)
/// with transparent huge pages, where the system leaves that to the program
/// (`/sys/kernel/mm/transparent_hugepage/enabled` set to `madvise`). A probe lands on a random
/// bucket: with 4 KiB pages nearly every probe of a large table misses the TLB and walks the
/// page tables; with 2 MiB pages the TLB covers gigabytes. Advice only: nothing changes when
/// it is refused, on small tables, or on other systems.
fn advise_huge_pages(start: *mut u8, len: usize) {
    const HUGE: usize = 2 << 20;
    #[cfg(target_os = "linux")]
    {
        let first = (start as usize).next_multiple_of(HUGE);
        let end = (start as usize).saturating_add(len) / HUGE * HUGE;
        if end > first {
            // SAFETY: the range lies inside the allocation (`first` ≥ `start`, `end` ≤ its
            // end); `MADV_HUGEPAGE` changes how pages are backed, never their contents.
            unsafe {
                libc::madvise(
                    start.add(first - start as usize).cast(),
                    end - first,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, len, HUGE);
}

impl Table {
    /// The bytes a bucket takes.
    pub(crate) const BUCKET_BYTES: usize = std::mem::size_of::<Bucket>();

    /// A table of at most `bytes` bytes (the largest power of two of buckets that fits, at
    /// least one bucket) for keys of `key_bits` bits and moves among `pegs` pegs.
    pub(crate) fn new(bytes: usize, key_bits: u32, pegs: usize) -> Result<Table, OutOfMemory> {
        let fit = (bytes / Self::BUCKET_BYTES).max(1);
        let index_bits = fit.ilog2();
        let count = 1usize << index_bits;
        let layout = Layout::array::<Bucket>(count).map_err(|_| OutOfMemory { bytes })?;
        // SAFETY: the layout has a non-zero size (count ≥ 1, a bucket is 16 bytes).
        let raw = unsafe { alloc::alloc_zeroed(layout) }.cast::<Bucket>();
        if raw.is_null() {
            return Err(OutOfMemory {
                bytes: layout.size(),
            });
        }
        advise_huge_pages(raw.cast(), layout.size());
        // SAFETY: `raw` is a fresh allocation of `count` buckets with the global allocator and
        // the layout `Box<[Bucket]>` frees; all-zero bits are a valid `Bucket` (two atomics of 0).
        let buckets = unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(raw, count)) };
        Ok(Table::shaped(buckets, index_bits, key_bits, pegs))
    }

    /// A table on `buckets` that places keys as a table of 2^`index_bits` buckets would
    /// (tests shape tables without their memory).
    fn shaped(buckets: Box<[Bucket]>, index_bits: u32, key_bits: u32, pegs: usize) -> Table {
        let move_bits = (pegs.max(2) as u64 - 1).ilog2() + 1;
        let low_bits = key_bits.clamp(1, 64);
        let check_bits = 64 - BOUND_BITS - WORK_BITS - move_bits;
        let exact = index_bits + check_bits >= key_bits;
        Table {
            buckets,
            move_bits,
            check_bits,
            low_mask: u64::MAX >> (64 - low_bits),
            // At most 63: only a one-bucket table with keys of 64 bits or more would need 64,
            // and it is not exact anyway.
            shift: (low_bits - index_bits.min(low_bits)).min(63),
            exact,
        }
    }

    /// The table's size in bytes.
    pub(crate) fn bytes(&self) -> usize {
        self.buckets.len() * Self::BUCKET_BYTES
    }

    /// Does every key have its own (bucket, check) pair, so that no two positions can share an
    /// entry?
    pub(crate) fn is_exact(&self) -> bool {
        self.exact
    }

    /// Empties every slot.
    pub(crate) fn clear(&self) {
        for b in self.buckets.iter() {
            b.0[0].store(0, Ordering::Relaxed);
            b.0[1].store(0, Ordering::Relaxed);
        }
    }

    /// The bucket and the check of a key. The low word `lo` (the key's low `key_bits` bits, at
    /// most 64) becomes `x = (lo ^ hi · MIX_HIGH) · MIX` modulo 2^`key_bits`, a bijection for
    /// each high word `hi` (`MIX` is odd), whose top bits depend on every bit below them: they
    /// pick the bucket. The check is the bits of `x` under them, then `hi`. Both together give
    /// back the key (tested), so a check of enough bits makes the table exact. In a table too
    /// small for that, the check is the top bits of a product of `x` and `hi`, which depend on
    /// all their bits: a bit of `x` depends only on the bits of `lo` at or below it, so cutting
    /// its top bits off would confuse every two positions that differ only in the high cells
    /// (tested).
    #[inline(always)]
    fn place(&self, key: u128) -> (usize, u64) {
        let (index, check) = self.image(key);
        (index as usize & (self.buckets.len() - 1), check)
    }

    /// [`Table::place`] before the index is cut to the bucket count (which changes nothing
    /// unless the table has more buckets than keys).
    #[inline(always)]
    fn image(&self, key: u128) -> (u64, u64) {
        let (lo, hi) = (key as u64 & self.low_mask, (key >> 64) as u64);
        let x = (lo ^ hi.wrapping_mul(MIX_HIGH)).wrapping_mul(MIX) & self.low_mask;
        if self.exact {
            let check = (x & !(u64::MAX << self.shift)) | hi << self.shift;
            (x >> self.shift, check)
        } else {
            // Every bit of the key counts: `x`, and `hi` mixed at another place (an odd product
            // moves a change of its top bit nowhere else, as it does in `x`).
            let c = x ^ hi.wrapping_mul(MIX_HIGH).rotate_left(32);
            let check = c.wrapping_mul(MIX_CHECK) >> (64 - self.check_bits);
            (x >> self.shift, check)
        }
    }

    /// Starts loading the bucket of `key` into the cache.
    #[inline(always)]
    pub(crate) fn prefetch(&self, key: u128) {
        let (index, _) = self.place(key);
        let bucket: *const Bucket = &self.buckets[index];
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is a hint: it never faults and changes no state the program can
        // see, whatever the address (here that of a live bucket). SSE is part of the x86-64
        // baseline.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(bucket.cast());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = bucket;
    }

    #[inline(always)]
    fn check_of(&self, entry: u64) -> u64 {
        entry >> (BOUND_BITS + WORK_BITS + self.move_bits)
    }

    #[inline(always)]
    fn work_of(&self, entry: u64) -> u64 {
        (entry >> (BOUND_BITS + self.move_bits)) & ((1 << WORK_BITS) - 1)
    }

    #[inline(always)]
    fn unpack(&self, entry: u64) -> Hit {
        Hit {
            bound: Bound::of_code(entry & ((1 << BOUND_BITS) - 1)),
            peg: ((entry >> BOUND_BITS) & ((1 << self.move_bits) - 1)) as usize,
        }
    }

    #[inline(always)]
    fn pack(&self, check: u64, work: u64, peg: usize, bound: Bound) -> u64 {
        check << (BOUND_BITS + WORK_BITS + self.move_bits)
            | work.min((1 << WORK_BITS) - 1) << (BOUND_BITS + self.move_bits)
            | (peg as u64 & ((1 << self.move_bits) - 1)) << BOUND_BITS
            | bound.code()
    }

    /// What the table knows of `key`.
    #[inline]
    pub(crate) fn probe(&self, key: u128) -> Option<Hit> {
        let (index, check) = self.place(key);
        let bucket = &self.buckets[index].0;
        for slot in bucket {
            let e = slot.load(Ordering::Relaxed);
            if e != 0 && self.check_of(e) == check {
                return Some(self.unpack(e));
            }
        }
        None
    }

    /// Records `bound` for `key` (joined with what the table already knows of it), with the
    /// move that proved it and `work` (log2 of the nodes spent).
    #[inline]
    pub(crate) fn store(&self, key: u128, bound: Bound, peg: usize, work: u32) {
        let (index, check) = self.place(key);
        let bucket = &self.buckets[index].0;
        let (e0, e1) = (
            bucket[0].load(Ordering::Relaxed),
            bucket[1].load(Ordering::Relaxed),
        );
        let work = u64::from(work);
        let matches = |e: u64| e != 0 && self.check_of(e) == check;
        if matches(e0) {
            let b = bound.and(self.unpack(e0).bound);
            let w = work.max(self.work_of(e0));
            bucket[0].store(self.pack(check, w, peg, b), Ordering::Relaxed);
        } else if matches(e1) {
            let b = bound.and(self.unpack(e1).bound);
            let w = work.max(self.work_of(e1));
            let entry = self.pack(check, w, peg, b);
            if w >= self.work_of(e0) {
                bucket[1].store(e0, Ordering::Relaxed);
                bucket[0].store(entry, Ordering::Relaxed);
            } else {
                bucket[1].store(entry, Ordering::Relaxed);
            }
        } else {
            let entry = self.pack(check, work, peg, bound);
            if work >= self.work_of(e0) {
                bucket[1].store(e0, Ordering::Relaxed);
                bucket[0].store(entry, Ordering::Relaxed);
            } else {
                bucket[1].store(entry, Ordering::Relaxed);
            }
        }
    }
}

/// The tables one search probes: a position with fewer than `near_below` empty cells is kept
/// in `near`, a small table whose buckets stay in the caches and the TLB's reach, the others in
/// `far`. Most probes are of positions near the end of the game; each of them used to be a
/// miss to memory in a large table (docs/perf-log.md).
#[derive(Clone, Copy)]
pub(crate) struct Tables<'a> {
    far: &'a Table,
    near: &'a Table,
    near_below: u32,
}

impl<'a> Tables<'a> {
    /// `far`, and `near` for the positions with fewer than `near_below` empty cells.
    pub(crate) fn new(far: &'a Table, near: &'a Table, near_below: u32) -> Tables<'a> {
        Tables {
            far,
            near,
            near_below,
        }
    }

    /// One table for every position.
    #[cfg(test)]
    pub(crate) fn one(table: &'a Table) -> Tables<'a> {
        Tables::new(table, table, 0)
    }

    /// The table of the positions with `empties` empty cells.
    #[inline(always)]
    pub(crate) fn of(self, empties: u32) -> &'a Table {
        if empties < self.near_below {
            self.near
        } else {
            self.far
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_round_trip_and_join() {
        for (l, u) in [(-1, -1), (-1, 0), (0, 0), (0, 1), (1, 1)] {
            let b = Bound { lower: l, upper: u };
            assert_eq!(Bound::of_code(b.code()), b);
        }
        let b = Bound { lower: 0, upper: 1 }.and(Bound {
            lower: -1,
            upper: 0,
        });
        assert_eq!(b, Bound { lower: 0, upper: 0 });
    }

    /// A large table is backed by transparent huge pages where Linux leaves them to the
    /// program (`madvise`) or gives them to all (`always`): its memory map shows them once the
    /// table is written. Says so and checks nothing where the system has them off.
    #[test]
    #[cfg(target_os = "linux")]
    #[cfg_attr(miri, ignore)]
    fn large_tables_get_huge_pages() {
        let mode = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled");
        let Ok(mode) = mode else {
            eprintln!("skipped: this kernel has no transparent huge pages");
            return;
        };
        if !mode.contains("[madvise]") && !mode.contains("[always]") {
            eprintln!(
                "skipped: transparent huge pages are off here ({})",
                mode.trim()
            );
            return;
        }
        let t = Table::new(64 << 20, 80, 16).unwrap();
        for key in 0..t.buckets.len() as u128 {
            t.store(key << 1, Bound { lower: 0, upper: 1 }, 1, 1);
        }
        let start = t.buckets.as_ptr() as usize;
        let table = start..start + t.bytes();
        let maps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        // The huge-page kilobytes of the mappings the table overlaps (`madvise` splits the
        // allocation's mapping at its huge-page-aligned part).
        let (mut inside, mut huge_kib, mut seen) = (false, 0, false);
        for line in maps.lines() {
            let range = line.split_whitespace().next().unwrap_or("");
            if let Some((lo, hi)) = range.split_once('-')
                && let (Ok(lo), Ok(hi)) =
                    (usize::from_str_radix(lo, 16), usize::from_str_radix(hi, 16))
            {
                inside = lo < table.end && table.start < hi;
                seen |= inside;
            } else if inside && let Some(kib) = line.strip_prefix("AnonHugePages:") {
                let kib = kib.trim().trim_end_matches("kB").trim();
                huge_kib += kib.parse::<usize>().unwrap();
            }
        }
        assert!(seen, "the table's mapping in /proc/self/smaps");
        assert!(
            huge_kib >= 2048,
            "64 MiB table, {huge_kib} KiB of huge pages"
        );
    }

    #[test]
    fn stores_are_found_and_joined() {
        let t = Table::new(1 << 12, 80, 16).unwrap();
        assert_eq!(t.bytes(), 1 << 12);
        assert!(!t.is_exact());
        assert_eq!(t.probe(12345), None);
        t.store(12345, Bound { lower: 0, upper: 1 }, 7, 10);
        assert_eq!(
            t.probe(12345),
            Some(Hit {
                bound: Bound { lower: 0, upper: 1 },
                peg: 7
            })
        );
        t.store(
            12345,
            Bound {
                lower: -1,
                upper: 0,
            },
            3,
            2,
        );
        assert_eq!(t.probe(12345).unwrap().bound, Bound { lower: 0, upper: 0 });
        t.clear();
        assert_eq!(t.probe(12345), None);
    }

    #[test]
    fn a_key_that_fits_is_exact() {
        // 36-bit keys (n = 3): the check alone holds them.
        let t = Table::new(1 << 10, 36, 9).unwrap();
        assert!(t.is_exact());
        // Fill a small table with many keys: a probe never returns another key's entry (fewer
        // under Miri, where each probe costs milliseconds).
        let keys: u128 = if cfg!(miri) { 300 } else { 5000 };
        for k in 0..keys {
            t.store(k * 7919, Bound { lower: 1, upper: 1 }, (k % 9) as usize, 0);
            assert_eq!(t.probe(k * 7919).map(|h| h.peg), Some((k % 9) as usize));
        }
        let hits = (0..keys)
            .filter(|k| t.probe(k * 7919 + 1).is_some())
            .count();
        assert_eq!(hits, 0);
    }

    /// The key of a bucket and a full check under [`Table::place`] (its inverse).
    fn unplace(t: &Table, index: u64, check: u64) -> u128 {
        // The inverse of MIX modulo 2^64, by Newton's iteration (each step doubles the bits).
        let mut inverse = MIX;
        for _ in 0..6 {
            inverse = inverse.wrapping_mul(2u64.wrapping_sub(MIX.wrapping_mul(inverse)));
        }
        assert_eq!(MIX.wrapping_mul(inverse), 1);
        let low = check & !(u64::MAX << t.shift);
        let hi = check >> t.shift;
        let x = index << t.shift | low;
        let lo = (x.wrapping_mul(inverse) ^ hi.wrapping_mul(MIX_HIGH)) & t.low_mask;
        u128::from(hi) << 64 | u128::from(lo)
    }

    #[test]
    fn an_exact_table_s_place_gives_back_the_key() {
        // Exact sizes of Score Four's 80-bit keys (2^28 buckets and more, checked without the
        // allocation) and of 36-bit keys (n = 3): the bucket and the check give back the key,
        // for keys that differ in one or two bits and for random ones.
        let mut rng = crate::rng::Rng::new(5);
        for (key_bits, index_bits, pegs) in [(80, 28, 16), (80, 30, 16), (36, 10, 9), (36, 0, 9)] {
            let t = Table::shaped(Box::new([]), index_bits, key_bits, pegs);
            assert!(t.is_exact());
            let mask = (1u128 << key_bits) - 1;
            let mut keys: Vec<u128> = (0..key_bits)
                .flat_map(|i| (0..key_bits).map(move |j| 1u128 << i | 1u128 << j))
                .collect();
            keys.extend(
                (0..2000).map(|_| {
                    (u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64())) & mask
                }),
            );
            for key in keys {
                let (index, check) = t.image(key);
                assert!(index < 1 << index_bits);
                assert_eq!(unplace(&t, index, check), key, "{key:#x}, {key_bits} bits");
            }
        }
    }

    #[test]
    fn a_small_table_tells_apart_keys_that_differ_in_one_or_two_bits() {
        // Too small to be exact (one bucket to 2^20): no two keys that differ from a random one
        // in one or two bits share both the bucket and the check. Keys that differed only in
        // the low word's top bits once did (their bits were cut off the check).
        let mut rng = crate::rng::Rng::new(8);
        for (key_bits, pegs) in [(80u32, 16), (128, 25)] {
            for index_bits in [0, 1, 4, 10, 20] {
                let t = Table::shaped(Box::new([]), index_bits, key_bits, pegs);
                if t.is_exact() {
                    continue;
                }
                let mask = if key_bits == 128 {
                    u128::MAX
                } else {
                    (1u128 << key_bits) - 1
                };
                let base = (u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64())) & mask;
                let mut seen = std::collections::HashMap::new();
                for i in 0..key_bits {
                    // j = key_bits: one bit only.
                    for j in i + 1..=key_bits {
                        let key = base ^ 1u128 << i ^ 1u128.checked_shl(j).unwrap_or(0) & mask;
                        let (index, check) = t.image(key);
                        let place = (index & ((1 << index_bits) - 1), check);
                        if let Some(other) = seen.insert(place, key) {
                            panic!(
                                "{key:#x} and {other:#x}: {place:?}, {key_bits} bits, 2^{index_bits}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn positions_near_the_end_go_to_the_near_table() {
        let (far, near) = (
            Table::new(1 << 12, 80, 16).unwrap(),
            Table::new(16, 80, 16).unwrap(),
        );
        let tables = Tables::new(&far, &near, 14);
        assert!(std::ptr::eq(tables.of(13), &near) && std::ptr::eq(tables.of(0), &near));
        assert!(std::ptr::eq(tables.of(14), &far) && std::ptr::eq(tables.of(64), &far));
        let one = Tables::one(&far);
        assert!(std::ptr::eq(one.of(0), &far));
    }

    #[test]
    fn the_deeper_entry_survives_a_cheaper_one() {
        // One bucket: every key lands in it.
        let t = Table::new(16, 80, 16).unwrap();
        t.store(1, Bound { lower: 1, upper: 1 }, 1, 20);
        t.store(2, Bound { lower: 1, upper: 1 }, 2, 3);
        t.store(3, Bound { lower: 1, upper: 1 }, 3, 4);
        assert!(t.probe(1).is_some(), "the expensive entry stays");
        assert!(t.probe(2).is_none(), "the older cheap entry is replaced");
        assert!(t.probe(3).is_some(), "the most recent stays");
    }

    #[test]
    fn score_four_is_exact_from_four_gib() {
        // 2^28 buckets of 16 bytes; only the arithmetic is checked (no allocation).
        let move_bits = 4;
        let check_bits = 64 - BOUND_BITS - WORK_BITS - move_bits;
        assert!(28 + check_bits >= 80);
        assert!(27 + check_bits < 80);
    }
}
