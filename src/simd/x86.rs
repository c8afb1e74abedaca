//! x86_64 back ends: AVX2 (two 256-bit registers) and AVX-512F (one 512-bit register), and
//! the tokens that prove a CPU feature to the games' own kernels ([`Sse41`], [`Avx512Vbmi2`],
//! [`Avx512Bmi`]): each constructor checks the CPU, so holding one is the proof.
//!
//! The vector types [`V256x2`] and [`V512`] are made only from a token ([`Avx2`],
//! [`Avx512`]) whose constructor checked the CPU, and they keep it: an existing vector proves
//! its instructions exist. That is the safety argument of every `unsafe` block on them. They
//! are used inside `#[target_feature]` leaf functions, so that the intrinsics inline.

use std::arch::x86_64::*;

use super::{Vector, has_run};

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
        unsafe { has_run_avx2(self, words, strides, m) }
    }

    /// `words >> bits` on AVX2.
    #[cfg(test)]
    pub(crate) fn shr(self, words: &[u64; 8], bits: u32) -> [u64; 8] {
        // SAFETY: `self` exists, so the CPU has AVX2.
        unsafe { shr_avx2(self, words, bits) }
    }
}

/// Proof that the CPU has SSE4.1.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Sse41(());

impl Sse41 {
    /// `Some` when the CPU has SSE4.1.
    pub(crate) fn new() -> Option<Sse41> {
        is_x86_feature_detected!("sse4.1").then_some(Sse41(()))
    }
}

/// Proof that the CPU has POPCNT, BMI1, BMI2 and LZCNT: bit counts and bit searches in one
/// instruction each (the Sequence solver's search, `crate::sequence::solver`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bmi(());

impl Bmi {
    /// `Some` when the CPU has all of them.
    pub(crate) fn new() -> Option<Bmi> {
        (is_x86_feature_detected!("popcnt")
            && is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("bmi2")
            && is_x86_feature_detected!("lzcnt"))
        .then_some(Bmi(()))
    }
}

/// Proof that the CPU has AVX-512 F, BW, VBMI, VBMI2 and POPCNT (the window tokenizer's
/// instructions, [`crate::input::window`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Avx512Vbmi2(());

impl Avx512Vbmi2 {
    /// `Some` when the CPU has all of them.
    pub(crate) fn new() -> Option<Avx512Vbmi2> {
        (is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512bw")
            && is_x86_feature_detected!("avx512vbmi")
            && is_x86_feature_detected!("avx512vbmi2")
            && is_x86_feature_detected!("popcnt"))
        .then_some(Avx512Vbmi2(()))
    }
}

/// Proof that the CPU has AVX-512 F, BW and VBMI (the Sequence playout's ray gathers,
/// `vpmultishiftqb`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Avx512Vbmi(());

impl Avx512Vbmi {
    /// `Some` when the CPU has all of them.
    pub(crate) fn new() -> Option<Avx512Vbmi> {
        (is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512bw")
            && is_x86_feature_detected!("avx512vbmi"))
        .then_some(Avx512Vbmi(()))
    }
}

/// Proof that the CPU has AVX-512F, BMI1, BMI2 and LZCNT (the grid judge's hand-written move).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Avx512Bmi(());

impl Avx512Bmi {
    /// `Some` when the CPU has all of them.
    pub(crate) fn new() -> Option<Avx512Bmi> {
        (is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("bmi2")
            && is_x86_feature_detected!("lzcnt"))
        .then_some(Avx512Bmi(()))
    }
}

/// Proof that the CPU has AVX2, BMI1, BMI2, LZCNT and POPCNT (the grid judge's AVX2 kernel).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Avx2Bmi(());

impl Avx2Bmi {
    /// `Some` when the CPU has all of them.
    pub(crate) fn new() -> Option<Avx2Bmi> {
        (is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("bmi2")
            && is_x86_feature_detected!("lzcnt")
            && is_x86_feature_detected!("popcnt"))
        .then_some(Avx2Bmi(()))
    }
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
        unsafe { has_run_avx512(self, words, strides, m) }
    }

    /// `words >> bits` on AVX-512F.
    #[cfg(test)]
    pub(crate) fn shr(self, words: &[u64; 8], bits: u32) -> [u64; 8] {
        // SAFETY: `self` exists, so the CPU has AVX-512F.
        unsafe { shr_avx512(self, words, bits) }
    }
}

#[target_feature(enable = "avx2")]
fn has_run_avx2(token: Avx2, words: &[u64; 8], strides: &[u32], m: u32) -> bool {
    has_run(V256x2::load(token, words), strides, m)
}

#[target_feature(enable = "avx512f")]
fn has_run_avx512(token: Avx512, words: &[u64; 8], strides: &[u32], m: u32) -> bool {
    has_run(V512::load(token, words), strides, m)
}

#[cfg(test)]
#[target_feature(enable = "avx2")]
fn shr_avx2(token: Avx2, words: &[u64; 8], bits: u32) -> [u64; 8] {
    let v = V256x2::load(token, words).shr(bits);
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
fn shr_avx512(token: Avx512, words: &[u64; 8], bits: u32) -> [u64; 8] {
    let v = V512::load(token, words).shr(bits);
    let mut out = [0u64; 8];
    // SAFETY: `out` has room for one unaligned 512-bit store; AVX-512F is enabled here.
    unsafe { _mm512_storeu_epi64(out.as_mut_ptr().cast(), v.0) };
    out
}

/// Words 0..4 (`lo`) and 4..8 (`hi`) of the 512-bit value, and the proof of AVX2.
#[derive(Clone, Copy)]
struct V256x2 {
    lo: __m256i,
    hi: __m256i,
    avx2: Avx2,
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
    /// Words `j..j + 4` of the eight words `a ++ b` (`j < 4`), `self` being the proof of AVX2.
    #[inline(always)]
    fn shift4(self, a: __m256i, b: __m256i, j: usize) -> __m256i {
        // SAFETY: `self.avx2` proves the CPU has AVX2; the tables are read with unaligned loads
        // within their bounds (`j < 4`).
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
        // SAFETY: `self.avx2` proves the CPU has AVX2.
        let zero = unsafe { _mm256_setzero_si256() };
        match k {
            0..4 => self.shift4(self.lo, self.hi, k as usize),
            4..8 => self.shift4(self.hi, zero, k as usize - 4),
            _ => zero,
        }
    }
}

impl V256x2 {
    /// Words `k..k + 4` shifted right by `right` bits, the bits of the next word coming in at
    /// the top (`left = 64 - right`).
    #[inline(always)]
    fn funnel(self, k: u32, right: __m256i, left: __m256i) -> __m256i {
        // SAFETY: `self.avx2` proves the CPU has AVX2. Variable shifts by 64 give zero.
        unsafe {
            _mm256_or_si256(
                _mm256_srlv_epi64(self.words_from(k), right),
                _mm256_sllv_epi64(self.words_from(k + 1), left),
            )
        }
    }
}

impl Vector for V256x2 {
    type Token = Avx2;

    #[inline(always)]
    fn load(avx2: Avx2, words: &[u64; 8]) -> Self {
        // SAFETY: `avx2` proves the CPU has AVX2; `words` holds two 256-bit halves.
        unsafe {
            V256x2 {
                lo: _mm256_loadu_si256(words.as_ptr().cast()),
                hi: _mm256_loadu_si256(words.as_ptr().add(4).cast()),
                avx2,
            }
        }
    }

    #[inline(always)]
    fn and(self, other: Self) -> Self {
        // SAFETY: `self.avx2` proves the CPU has AVX2.
        unsafe {
            V256x2 {
                lo: _mm256_and_si256(self.lo, other.lo),
                hi: _mm256_and_si256(self.hi, other.hi),
                avx2: self.avx2,
            }
        }
    }

    #[inline(always)]
    fn shr(self, bits: u32) -> Self {
        let q = bits / 64;
        let r = i64::from(bits % 64);
        // SAFETY: `self.avx2` proves the CPU has AVX2.
        let (right, left) = unsafe { (_mm256_set1_epi64x(r), _mm256_set1_epi64x(64 - r)) };
        V256x2 {
            lo: self.funnel(q, right, left),
            hi: self.funnel(q + 4, right, left),
            avx2: self.avx2,
        }
    }

    #[inline(always)]
    fn is_zero(self) -> bool {
        // SAFETY: `self.avx2` proves the CPU has AVX2.
        unsafe {
            let any = _mm256_or_si256(self.lo, self.hi);
            _mm256_testz_si256(any, any) == 1
        }
    }
}

/// The 512-bit value in one AVX-512 register, and the proof of AVX-512F.
#[derive(Clone, Copy)]
struct V512(__m512i, Avx512);

impl Vector for V512 {
    type Token = Avx512;

    #[inline(always)]
    fn load(avx512: Avx512, words: &[u64; 8]) -> Self {
        // SAFETY: `avx512` proves the CPU has AVX-512F; `words` is 64 bytes.
        unsafe { V512(_mm512_loadu_epi64(words.as_ptr().cast()), avx512) }
    }

    #[inline(always)]
    fn and(self, other: Self) -> Self {
        // SAFETY: `self.1` proves the CPU has AVX-512F.
        unsafe { V512(_mm512_and_si512(self.0, other.0), self.1) }
    }

    #[inline(always)]
    fn shr(self, bits: u32) -> Self {
        let q = i64::from(bits / 64);
        let r = i64::from(bits % 64);
        // SAFETY: `self.1` proves the CPU has AVX-512F. Lanes whose source word is past the
        // top are zeroed by the masks; variable shifts by 64 give zero.
        unsafe {
            let lanes = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
            let idx = _mm512_add_epi64(lanes, _mm512_set1_epi64(q));
            let idx1 = _mm512_add_epi64(idx, _mm512_set1_epi64(1));
            let lo = _mm512_maskz_permutexvar_epi64((0xffu32 >> q.min(8)) as u8, idx, self.0);
            let hi =
                _mm512_maskz_permutexvar_epi64((0xffu32 >> (q + 1).min(8)) as u8, idx1, self.0);
            V512(
                _mm512_or_si512(
                    _mm512_srlv_epi64(lo, _mm512_set1_epi64(r)),
                    _mm512_sllv_epi64(hi, _mm512_set1_epi64(64 - r)),
                ),
                self.1,
            )
        }
    }

    #[inline(always)]
    fn is_zero(self) -> bool {
        // SAFETY: `self.1` proves the CPU has AVX-512F.
        unsafe { _mm512_test_epi64_mask(self.0, self.0) == 0 }
    }
}
