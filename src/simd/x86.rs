//! x86_64 back ends: AVX2 (two 256-bit registers) and AVX-512F (one 512-bit register).
//!
//! The vector types [`V256x2`] and [`V512`] are private and only ever created inside the
//! `#[target_feature]` leaf functions below, which are entered only through a token
//! ([`Avx2`], [`Avx512`]) whose constructor checked the CPU. That is the safety argument of
//! every `unsafe` block in this file.

use std::arch::x86_64::*;

use super::{Vector, has_run};
use crate::grid::Grid;
use crate::grid::batch::{Kernel, Tokens};
use crate::grid::judge::Outcome;
use crate::grid::position::{LINE_WORDS, MAX_SIDE, Marker};

/// Proof that the CPU has AVX2.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Avx2(());

impl Avx2 {
    /// `Some` when the CPU has AVX2.
    pub(crate) fn new() -> Option<Avx2> {
        is_x86_feature_detected!("avx2").then_some(Avx2(()))
    }

    /// The shift-and detector on AVX2.
    pub(crate) fn has_run(self, words: &[u64; 8], strides: &[u32], m: u32) -> bool {
        // SAFETY: `self` exists, so the CPU has AVX2 (checked in `Avx2::new`).
        unsafe { has_run_avx2(words, strides, m) }
    }

    /// `words >> bits` on AVX2.
    #[cfg(test)]
    pub(crate) fn shr(self, words: &[u64; 8], bits: u32) -> [u64; 8] {
        // SAFETY: `self` exists, so the CPU has AVX2.
        unsafe { shr_avx2(words, bits) }
    }

    /// Occurrences of `needle` in `haystack` on AVX2.
    pub(crate) fn count_byte(self, haystack: &[u8], needle: u8) -> u64 {
        // SAFETY: `self` exists, so the CPU has AVX2.
        unsafe { count_byte_avx2(haystack, needle) }
    }
}

/// Occurrences of `needle`: per 32-byte block one compare (all ones, that is -1, on a match)
/// subtracted from 32 byte-wide counters, summed with `vpsadbw` every 255 blocks, before a
/// counter can overflow; the tail of fewer than 32 bytes byte by byte.
#[target_feature(enable = "avx2")]
fn count_byte_avx2(haystack: &[u8], needle: u8) -> u64 {
    const BLOCK: usize = 32;
    let wanted = _mm256_set1_epi8(needle as i8);
    let mut total = 0u64;
    let mut rounds = haystack.chunks_exact(255 * BLOCK);
    let sum_round = |blocks: &[u8]| {
        let mut counts = _mm256_setzero_si256();
        for block in blocks.chunks_exact(BLOCK) {
            // SAFETY: `block` is 32 readable bytes; the load is unaligned.
            let bytes = unsafe { _mm256_loadu_si256(block.as_ptr().cast()) };
            counts = _mm256_sub_epi8(counts, _mm256_cmpeq_epi8(bytes, wanted));
        }
        let sums = _mm256_sad_epu8(counts, _mm256_setzero_si256());
        let mut lanes = [0u64; 4];
        // SAFETY: `lanes` has room for one unaligned 256-bit store.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), sums) };
        lanes.iter().sum::<u64>()
    };
    for round in rounds.by_ref() {
        total += sum_round(round);
    }
    let rest = rounds.remainder();
    let whole = rest.len() / BLOCK * BLOCK;
    total += sum_round(&rest[..whole]);
    total + rest[whole..].iter().filter(|&&b| b == needle).count() as u64
}

/// Proof that the CPU has AVX-512F.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Avx512(());

impl Avx512 {
    /// `Some` when the CPU has AVX-512F.
    pub(crate) fn new() -> Option<Avx512> {
        is_x86_feature_detected!("avx512f").then_some(Avx512(()))
    }

    /// The shift-and detector on AVX-512F.
    pub(crate) fn has_run(self, words: &[u64; 8], strides: &[u32], m: u32) -> bool {
        // SAFETY: `self` exists, so the CPU has AVX-512F (checked in `Avx512::new`).
        unsafe { has_run_avx512(words, strides, m) }
    }

    /// `words >> bits` on AVX-512F.
    #[cfg(test)]
    pub(crate) fn shr(self, words: &[u64; 8], bits: u32) -> [u64; 8] {
        // SAFETY: `self` exists, so the CPU has AVX-512F.
        unsafe { shr_avx512(words, bits) }
    }
}

#[target_feature(enable = "avx2")]
fn has_run_avx2(words: &[u64; 8], strides: &[u32], m: u32) -> bool {
    has_run(V256x2::load(words), strides, m)
}

#[target_feature(enable = "avx512f")]
fn has_run_avx512(words: &[u64; 8], strides: &[u32], m: u32) -> bool {
    has_run(V512::load(words), strides, m)
}

#[cfg(test)]
#[target_feature(enable = "avx2")]
fn shr_avx2(words: &[u64; 8], bits: u32) -> [u64; 8] {
    let v = V256x2::load(words).shr(bits);
    let mut out = [0u64; 8];
    // SAFETY: `out` has room for two unaligned 256-bit stores; AVX2 is enabled here.
    unsafe {
        _mm256_storeu_si256(out.as_mut_ptr().cast(), v.lo);
        _mm256_storeu_si256(out.as_mut_ptr().add(4).cast(), v.hi);
    }
    out
}

#[cfg(test)]
#[target_feature(enable = "avx512f")]
fn shr_avx512(words: &[u64; 8], bits: u32) -> [u64; 8] {
    let v = V512::load(words).shr(bits);
    let mut out = [0u64; 8];
    // SAFETY: `out` has room for one unaligned 512-bit store; AVX-512F is enabled here.
    unsafe { _mm512_storeu_epi64(out.as_mut_ptr().cast(), v.0) };
    out
}

/// Words 0..4 (`lo`) and 4..8 (`hi`) of the 512-bit value.
#[derive(Clone, Copy)]
struct V256x2 {
    lo: __m256i,
    hi: __m256i,
}

/// For `shift4(a, b, j)`: 32-bit lane `l` takes lane `(l + 2j) % 8`.
const ROTATE: [[i32; 8]; 4] = {
    let mut t = [[0; 8]; 4];
    let mut j = 0;
    while j < 4 {
        let mut l = 0;
        while l < 8 {
            t[j][l] = ((l + 2 * j) % 8) as i32;
            l += 1;
        }
        j += 1;
    }
    t
};

/// For `shift4(a, b, j)`: 64-bit lane `i` comes from `a` (all ones) when `i + j < 4`.
const FROM_A: [[i64; 4]; 4] = {
    let mut t = [[0; 4]; 4];
    let mut j = 0;
    while j < 4 {
        let mut i = 0;
        while i + j < 4 {
            t[j][i] = -1;
            i += 1;
        }
        j += 1;
    }
    t
};

impl V256x2 {
    /// Words `j..j + 4` of the eight words `a ++ b` (`j < 4`).
    #[inline(always)]
    fn shift4(a: __m256i, b: __m256i, j: usize) -> __m256i {
        // SAFETY: only called inside AVX2 leaf functions (see the module docs); the tables are
        // read with unaligned loads within their bounds (`j < 4`).
        unsafe {
            let idx = _mm256_loadu_si256(ROTATE[j].as_ptr().cast());
            let pick = _mm256_loadu_si256(FROM_A[j].as_ptr().cast());
            let pa = _mm256_permutevar8x32_epi32(a, idx);
            let pb = _mm256_permutevar8x32_epi32(b, idx);
            _mm256_blendv_epi8(pb, pa, pick)
        }
    }

    /// Words `k..k + 4` of the value followed by zeros.
    #[inline(always)]
    fn words_from(self, k: u32) -> __m256i {
        // SAFETY: only called inside AVX2 leaf functions (see the module docs).
        let zero = unsafe { _mm256_setzero_si256() };
        match k {
            0..4 => Self::shift4(self.lo, self.hi, k as usize),
            4..8 => Self::shift4(self.hi, zero, k as usize - 4),
            _ => zero,
        }
    }
}

impl V256x2 {
    /// Words `k..k + 4` shifted right by `right` bits, the bits of the next word coming in at
    /// the top (`left = 64 - right`).
    #[inline(always)]
    fn funnel(self, k: u32, right: __m256i, left: __m256i) -> __m256i {
        // SAFETY: only called inside AVX2 leaf functions. Variable shifts by 64 give zero.
        unsafe {
            _mm256_or_si256(
                _mm256_srlv_epi64(self.words_from(k), right),
                _mm256_sllv_epi64(self.words_from(k + 1), left),
            )
        }
    }
}

impl Vector for V256x2 {
    #[inline(always)]
    fn load(words: &[u64; 8]) -> Self {
        // SAFETY: only called inside AVX2 leaf functions; `words` holds two 256-bit halves.
        unsafe {
            V256x2 {
                lo: _mm256_loadu_si256(words.as_ptr().cast()),
                hi: _mm256_loadu_si256(words.as_ptr().add(4).cast()),
            }
        }
    }

    #[inline(always)]
    fn and(self, other: Self) -> Self {
        // SAFETY: only called inside AVX2 leaf functions.
        unsafe {
            V256x2 {
                lo: _mm256_and_si256(self.lo, other.lo),
                hi: _mm256_and_si256(self.hi, other.hi),
            }
        }
    }

    #[inline(always)]
    fn shr(self, bits: u32) -> Self {
        let q = bits / 64;
        let r = i64::from(bits % 64);
        // SAFETY: only called inside AVX2 leaf functions.
        let (right, left) = unsafe { (_mm256_set1_epi64x(r), _mm256_set1_epi64x(64 - r)) };
        V256x2 {
            lo: self.funnel(q, right, left),
            hi: self.funnel(q + 4, right, left),
        }
    }

    #[inline(always)]
    fn is_zero(self) -> bool {
        // SAFETY: only called inside AVX2 leaf functions.
        unsafe {
            let any = _mm256_or_si256(self.lo, self.hi);
            _mm256_testz_si256(any, any) == 1
        }
    }
}

/// The 512-bit value in one AVX-512 register.
#[derive(Clone, Copy)]
struct V512(__m512i);

impl Vector for V512 {
    #[inline(always)]
    fn load(words: &[u64; 8]) -> Self {
        // SAFETY: only called inside AVX-512F leaf functions; `words` is 64 bytes.
        unsafe { V512(_mm512_loadu_epi64(words.as_ptr().cast())) }
    }

    #[inline(always)]
    fn and(self, other: Self) -> Self {
        // SAFETY: only called inside AVX-512F leaf functions.
        unsafe { V512(_mm512_and_si512(self.0, other.0)) }
    }

    #[inline(always)]
    fn shr(self, bits: u32) -> Self {
        let q = i64::from(bits / 64);
        let r = i64::from(bits % 64);
        // SAFETY: only called inside AVX-512F leaf functions. Lanes whose source word is past
        // the top are zeroed by the masks; variable shifts by 64 give zero.
        unsafe {
            let lanes = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
            let idx = _mm512_add_epi64(lanes, _mm512_set1_epi64(q));
            let idx1 = _mm512_add_epi64(idx, _mm512_set1_epi64(1));
            let lo = _mm512_maskz_permutexvar_epi64((0xffu32 >> q.min(8)) as u8, idx, self.0);
            let hi =
                _mm512_maskz_permutexvar_epi64((0xffu32 >> (q + 1).min(8)) as u8, idx1, self.0);
            V512(_mm512_or_si512(
                _mm512_srlv_epi64(lo, _mm512_set1_epi64(r)),
                _mm512_sllv_epi64(hi, _mm512_set1_epi64(64 - r)),
            ))
        }
    }

    #[inline(always)]
    fn is_zero(self) -> bool {
        // SAFETY: only called inside AVX-512F leaf functions.
        unsafe { _mm512_test_epi64_mask(self.0, self.0) == 0 }
    }
}

/// Proof that the CPU has what the grid judge's fast path uses: AVX-512 F, BW, VBMI and
/// VBMI2 for the tokenizer and the marker, and BMI1, BMI2, LZCNT and POPCNT, which the play
/// loop is compiled with.
#[derive(Debug, Clone, Copy)]
pub(crate) struct GridAvx512(());

impl GridAvx512 {
    /// `Some` when the CPU has all of it.
    pub(crate) fn new() -> Option<GridAvx512> {
        (is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512bw")
            && is_x86_feature_detected!("avx512vbmi")
            && is_x86_feature_detected!("avx512vbmi2")
            && is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("bmi2")
            && is_x86_feature_detected!("lzcnt")
            && is_x86_feature_detected!("popcnt"))
        .then_some(GridAvx512(()))
    }

    /// [`crate::grid::batch::run`] with this kernel, compiled for these features.
    pub(crate) fn batch(
        self,
        grid: &mut Grid,
        tokens: &mut Tokens,
        bytes: &[u8],
        stop: usize,
        limit: usize,
        answers: &mut Vec<Outcome>,
    ) -> (usize, usize) {
        // SAFETY: `self` exists, so the CPU has these features (checked in `GridAvx512::new`).
        unsafe { grid_batch_avx512(self, grid, tokens, bytes, stop, limit, answers) }
    }
}

#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,bmi1,bmi2,lzcnt,popcnt")]
fn grid_batch_avx512(
    kernel: GridAvx512,
    grid: &mut Grid,
    tokens: &mut Tokens,
    bytes: &[u8],
    stop: usize,
    limit: usize,
    answers: &mut Vec<Outcome>,
) -> (usize, usize) {
    crate::grid::batch::run(kernel, grid, tokens, bytes, stop, limit, answers)
}

impl Marker for GridAvx512 {
    /// One masked OR per 64-byte-aligned group of eight rows, row `x`'s span merged into its
    /// group: a move's loads then either match an earlier move's store exactly or miss it, so
    /// store-to-load forwarding never fails (a wide load over a narrow recent store waits for
    /// the store to reach the cache). The first two groups without a branch, as
    /// [`Chunks`](crate::grid::position::Chunks) does.
    #[inline(always)]
    fn cross(
        self,
        words: &mut [[u64; LINE_WORDS]; 2],
        x: usize,
        span: [u64; 2],
        from: usize,
        to: usize,
        y: usize,
    ) {
        // SAFETY: `self` exists, so the CPU has AVX-512F and BMI2.
        unsafe { cross_avx512(words, x, span, from, to, y) }
    }
}

#[target_feature(enable = "avx512f,bmi2")]
#[inline]
fn cross_avx512(
    words: &mut [[u64; LINE_WORDS]; 2],
    x: usize,
    span: [u64; 2],
    from: usize,
    to: usize,
    y: usize,
) {
    const _: () = assert!(LINE_WORDS >= MAX_SIDE + 16 && LINE_WORDS.is_multiple_of(8));
    debug_assert!(from <= x && x < to && to <= MAX_SIDE);
    debug_assert!(words.as_ptr().cast::<__m512i>().is_aligned());
    let (x, from, y) = (x % MAX_SIDE, from % MAX_SIDE, y % MAX_SIDE);
    let (near, far) = (y / 64, 1 - y / 64);
    let bit = 1u64 << (y % 64);
    // ORs the eight words from `g` (a multiple of 8): `lanes` of them with `v`.
    let or_group = |words: &mut [u64; LINE_WORDS], g: usize, lanes: u8, v: __m512i| {
        let group: &mut [u64; 8] = (&mut words[g..g + 8]).try_into().expect("padded");
        let p = group.as_mut_ptr().cast::<__m512i>();
        // SAFETY: `p` points to eight words of `words`, 64-byte aligned (`Lines` is, its
        // halves are multiples of 64 bytes long, and g is a multiple of 8).
        unsafe {
            let w = _mm512_load_si512(p);
            _mm512_store_si512(p, _mm512_mask_or_epi64(w, lanes, w, v));
        }
    };
    let gx = x & !7;
    let at_x = 1u8 << (x % 8);
    or_group(
        &mut words[far],
        gx,
        at_x,
        _mm512_set1_epi64(span[far] as i64),
    );
    // Rows from..to as bits from the group of `from`, as far as 64 rows go; row x's bit.
    let g0 = from & !7;
    let rows = _bzhi_u64(u64::MAX << (from - g0), (to - g0) as u32);
    let xs = 1u64.checked_shl((x - g0) as u32).unwrap_or(0);
    let plain = _mm512_set1_epi64(bit as i64);
    let with_x = _mm512_mask_set1_epi64(plain, at_x, (bit | span[near]) as i64);
    let near = &mut words[near];
    // Row x's lane (if it is in the group) takes `with_x`: a masked move, not a branch, which
    // would mispredict on every other move.
    let mut group = |g: usize, lanes: u8, x_lane: u8| {
        or_group(near, g, lanes, _mm512_mask_mov_epi64(plain, x_lane, with_x));
    };
    group(g0, rows as u8, xs as u8);
    group(g0 + 8, (rows >> 8) as u8, (xs >> 8) as u8);
    let mut g = g0 + 16;
    while g < to {
        let lanes = _bzhi_u32(0xff, (to - g) as u32) as u8;
        group(g, lanes, at_x & u8::from(g == gx).wrapping_neg());
        g += 8;
    }
}

impl Kernel for GridAvx512 {
    fn tokenize(self, window: &[u8], tokens: &mut Tokens) {
        // SAFETY: `self` exists, so the CPU has AVX-512 F, BW, VBMI, VBMI2 and POPCNT.
        unsafe { tokenize_avx512(window, tokens) }
    }
}

/// The tokenizer of [`crate::grid::batch`], 64 bytes per step: masks of digits, white space
/// and token ends, and the value of every token that ends in the block from its last four
/// digits (shifted in from the block before when needed), compressed to the front and
/// widened to 16 bits.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt")]
fn tokenize_avx512(window: &[u8], tokens: &mut Tokens) {
    tokens.clear();
    let n = window.len();
    let zero = _mm512_set1_epi8(b'0' as i8);
    let ten = _mm512_set1_epi8(10);
    let space = _mm512_set1_epi8(b' ' as i8);
    let tab = _mm512_set1_epi8(b'\t' as i8);
    let five = _mm512_set1_epi8(5);
    let ones = _mm512_set1_epi8(-1);
    let hundred = _mm512_set1_epi16(100);
    // times_ten[d] = 10 d for d < 10.
    let times_ten = _mm512_set_epi8(
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 90, 80, 70, 60, 50,
        40, 30, 20, 10, 0,
    );
    // back[k]: lane p takes byte p − k of the block, or of the block before for p < k
    // (index 64 + p − k: bit 6 picks the second operand of `vpermt2b`).
    let back = |k: i8| {
        let mut idx = [0i8; 64];
        for (p, x) in idx.iter_mut().enumerate() {
            *x = 64 + p as i8 - k;
        }
        // SAFETY: reading 64 bytes from a 64-byte array.
        unsafe { _mm512_loadu_si512(idx.as_ptr().cast()) }
    };
    let (back1, back2, back3, back4) = (back(1), back(2), back(3), back(4));
    let (mut prev_digits, mut prev_mask) = (_mm512_setzero_si512(), 0u64);
    let (mut len, mut started) = (0usize, 0u32);
    let mut end = n;
    let mut at = 0;
    while at < n {
        // A whole block is read by a plain load: on this Zen 5 a masked load in the loop made
        // the whole tokenizer 2.7× slower (60 against 22 ms on the long benchmark input).
        let p = window[at..].as_ptr();
        // SAFETY: 64 bytes from `at` are in `window`, or the mask keeps the load within it
        // (masked-off bytes are not read).
        let (lanes, v) = unsafe {
            if n - at >= 64 {
                (u64::MAX, _mm512_loadu_si512(p.cast()))
            } else {
                let lanes = (1u64 << (n - at)) - 1;
                (lanes, _mm512_maskz_loadu_epi8(lanes, p.cast()))
            }
        };
        let d = _mm512_sub_epi8(v, zero);
        let mut digit = _mm512_mask_cmplt_epu8_mask(lanes, d, ten);
        // White space: ' ' and '\t'..='\r'.
        let mut white = _mm512_mask_cmpeq_epi8_mask(lanes, v, space)
            | _mm512_mask_cmplt_epu8_mask(lanes, _mm512_sub_epi8(v, tab), five);
        let bad = lanes & !(digit | white);
        let last = bad != 0;
        if last {
            let valid = (1u64 << bad.trailing_zeros()) - 1;
            digit &= valid;
            white &= valid;
            end = at + bad.trailing_zeros() as usize;
        }
        if last && end == at {
            break;
        }
        tokens.starts.push(started);
        let before = |k: u32| digit << k | prev_mask >> (64 - k);
        let d1 = before(1);
        started += (digit & !d1).count_ones();
        // White space right after a digit: the end of a complete token.
        let ends = white & d1;
        let digits = _mm512_maskz_mov_epi8(digit, d);
        if ends != 0 {
            let m2 = before(2);
            let m3 = m2 & before(3);
            let m4 = m3 & before(4);
            let long = m4 & before(5);
            let s1 = _mm512_permutex2var_epi8(prev_digits, back1, digits);
            let s2 = _mm512_maskz_permutex2var_epi8(m2, prev_digits, back2, digits);
            let s3 = _mm512_maskz_permutex2var_epi8(m3, prev_digits, back3, digits);
            let s4 = _mm512_maskz_permutex2var_epi8(m4, prev_digits, back4, digits);
            let low = _mm512_add_epi8(s1, _mm512_permutexvar_epi8(s2, times_ten));
            let high = _mm512_add_epi8(s3, _mm512_permutexvar_epi8(s4, times_ten));
            let low = _mm512_mask_mov_epi8(low, long, ones);
            let high = _mm512_mask_mov_epi8(high, long, ones);
            let low = _mm512_castsi512_si256(_mm512_maskz_compress_epi8(ends, low));
            let high = _mm512_castsi512_si256(_mm512_maskz_compress_epi8(ends, high));
            let values = _mm512_add_epi16(
                _mm512_cvtepu8_epi16(low),
                _mm512_mullo_epi16(_mm512_cvtepu8_epi16(high), hundred),
            );
            let out = &mut tokens.values[len..len + 32];
            // SAFETY: 32 values fit `out`.
            unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), values) };
            len += ends.count_ones() as usize;
        }
        prev_digits = digits;
        prev_mask = digit;
        at += 64;
        if last {
            break;
        }
    }
    tokens.starts.push(started);
    tokens.len = len;
    tokens.end = end;
}
