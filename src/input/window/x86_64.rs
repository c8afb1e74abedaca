//! The window tokenizer on AVX-512 (F, BW, VBMI, VBMI2 and POPCNT) and on AVX2, 64 bytes
//! per step.

use std::arch::x86_64::*;

use super::Tokens;
use crate::simd::x86::{Avx2Bmi, Avx512Vbmi2};

/// [`super::tokenize_bytes`] on AVX-512 VBMI2: the same tokens, 64 bytes per step.
pub(crate) fn tokenize(token: Avx512Vbmi2, window: &[u8], tokens: &mut Tokens) {
    let _ = token;
    // SAFETY: `token` exists, so the CPU has AVX-512 F, BW, VBMI, VBMI2 and POPCNT.
    unsafe { tokenize_avx512(window, tokens) }
}

/// The tokenizer, 64 bytes per step: masks of digits, white space
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

/// [`super::tokenize_bytes`] on AVX2: the same tokens, 64 bytes per step.
pub(crate) fn tokenize_avx2(token: Avx2Bmi, window: &[u8], tokens: &mut Tokens) {
    let _ = token;
    // SAFETY: `token` exists, so the CPU has AVX2, BMI1 and POPCNT (and BMI2 and LZCNT).
    unsafe { tokenize_avx2_inner(window, tokens) }
}

/// The AVX2 tokenizer, 64 bytes per step as two halves of 32: masks of digits and white space
/// by compares; then for every byte the value of the (at most four) digits before it, from the
/// bytes shifted in from the half before (a digit's value, or 0x80 for any other byte), widened
/// to 16 bits; then the values at the token ends packed to the front eight bytes at a time, by
/// a byte shuffle looked up from the eight bits of token ends ([`PACK`]). A block in which no
/// token of three digits or more ends (nearly every block of a grid judge's input) takes a
/// shorter path: the value of the two bytes before each byte.
#[target_feature(enable = "avx2,bmi1,popcnt")]
fn tokenize_avx2_inner(window: &[u8], tokens: &mut Tokens) {
    tokens.clear();
    let n = window.len();
    let zero = _mm256_setzero_si256();
    let ascii_zero = _mm256_set1_epi8(b'0' as i8);
    let nine = _mm256_set1_epi8(9);
    let four = _mm256_set1_epi8(4);
    let tab = _mm256_set1_epi8(b'\t' as i8);
    let space = _mm256_set1_epi8(b' ' as i8);
    let other = _mm256_set1_epi8(0x80u8 as i8);
    let ones = _mm256_set1_epi8(-1);
    // times_ten[d] = 10 d for d < 10, in both 128-bit lanes (`vpshufb` looks up per lane; an
    // index with its high bit set, 0x80 for a byte that is not a digit, gives 0).
    let times_ten = _mm256_setr_epi8(
        0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 0, 0, 0, 0, 0, 0, 0, 10, 20, 30, 40, 50, 60, 70, 80,
        90, 0, 0, 0, 0, 0, 0,
    );
    // (lo, hi) byte pairs to lo + 100 hi (at most 255 + 100 · 255, no saturation).
    let weights = _mm256_set1_epi16(1 + (100 << 8));
    // The byte values of the previous half: digits' values, 0x80 for the others.
    let mut prev = other;
    let (mut prev_digit, mut started, mut len) = (0u64, 0u32, 0usize);
    let mut tail;
    let mut end = n;
    let mut at = 0;
    while at < n {
        let (bytes, lanes) = if n - at >= 64 {
            (&window[at..at + 64], u64::MAX)
        } else {
            tail = [0; 64];
            tail[..n - at].copy_from_slice(&window[at..]);
            (&tail[..], (1u64 << (n - at)) - 1)
        };
        let (mut digit, mut white) = (0u64, 0u64);
        // Each half's byte values: digits' values, 0x80 for the others.
        let mut cur = [other; 2];
        for h in 0..2 {
            // SAFETY: `bytes` holds 64 bytes; the load is unaligned.
            let v = unsafe { _mm256_loadu_si256(bytes[32 * h..].as_ptr().cast()) };
            let d = _mm256_sub_epi8(v, ascii_zero);
            let is_digit = _mm256_cmpeq_epi8(_mm256_min_epu8(d, nine), d);
            let c = _mm256_sub_epi8(v, tab);
            let is_white = _mm256_or_si256(
                _mm256_cmpeq_epi8(v, space),
                _mm256_cmpeq_epi8(_mm256_min_epu8(c, four), c),
            );
            digit |= u64::from(_mm256_movemask_epi8(is_digit) as u32) << (32 * h);
            white |= u64::from(_mm256_movemask_epi8(is_white) as u32) << (32 * h);
            cur[h] = _mm256_blendv_epi8(other, d, is_digit);
        }
        digit &= lanes;
        white &= lanes;
        let bad = lanes & !(digit | white);
        let last = bad != 0;
        if last {
            let valid = (1u64 << bad.trailing_zeros()) - 1;
            digit &= valid;
            white &= valid;
            end = at + bad.trailing_zeros() as usize;
            if end == at {
                break;
            }
        }
        tokens.starts.push(started);
        let d1 = digit << 1 | prev_digit >> 63;
        let d2 = digit << 2 | prev_digit >> 62;
        let d3 = digit << 3 | prev_digit >> 61;
        started += (digit & !d1).count_ones();
        let ends = white & d1;
        // Does a token of three digits or more end here?
        let long = ends & d2 & d3 != 0;
        for h in 0..2 {
            // Bytes k before each byte of the half (k ≤ 5), from this half and the one before.
            let before = if h == 0 { prev } else { cur[0] };
            let joined = _mm256_permute2x128_si256::<0x21>(before, cur[h]);
            let s1 = _mm256_alignr_epi8::<15>(cur[h], joined);
            let s2 = _mm256_alignr_epi8::<14>(cur[h], joined);
            // At a token's end the byte before is a digit: its value is s1 + 10 s2, s2
            // counting only when it is a digit (`vpshufb` gives 0 for 0x80).
            let mut lo = _mm256_add_epi8(s1, _mm256_shuffle_epi8(times_ten, s2));
            let mut hi = zero;
            if long {
                let s3 = _mm256_alignr_epi8::<13>(cur[h], joined);
                let s4 = _mm256_alignr_epi8::<12>(cur[h], joined);
                let s5 = _mm256_alignr_epi8::<11>(cur[h], joined);
                // any_k: the high bit is set when one of the k bytes before is not a digit.
                let any2 = _mm256_or_si256(s1, s2);
                let any3 = _mm256_or_si256(any2, s3);
                let any4 = _mm256_or_si256(any3, s4);
                let any5 = _mm256_or_si256(any4, s5);
                let t3 = _mm256_blendv_epi8(s3, zero, any3);
                let t4 = _mm256_blendv_epi8(s4, zero, any4);
                hi = _mm256_add_epi8(t3, _mm256_shuffle_epi8(times_ten, t4));
                // Five digits or more (no byte of the five before is other): all ones.
                lo = _mm256_blendv_epi8(ones, lo, any5);
                hi = _mm256_blendv_epi8(ones, hi, any5);
            }
            // The 16-bit values lo + 100 hi, by `vpmaddubsw` on (lo, hi) pairs: bytes 0..8 and
            // 16..24 of the half (`vpunpcklbw` works within each 128-bit lane), then 8..16
            // and 24..32.
            let first = _mm256_maddubs_epi16(_mm256_unpacklo_epi8(lo, hi), weights);
            let second = _mm256_maddubs_epi16(_mm256_unpackhi_epi8(lo, hi), weights);
            let groups = [
                _mm256_castsi256_si128(first),
                _mm256_castsi256_si128(second),
                _mm256_extracti128_si256::<1>(first),
                _mm256_extracti128_si256::<1>(second),
            ];
            for (g, eight) in groups.into_iter().enumerate() {
                let e = (ends >> (32 * h + 8 * g)) as u8;
                let packed = _mm_shuffle_epi8(eight, PACK[usize::from(e)]);
                // Eight values written, those of the ends kept: `CAPACITY` leaves room past
                // every complete token.
                let out = &mut tokens.values[len..len + 8];
                // SAFETY: 16 bytes fit `out`; the store is unaligned.
                unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), packed) };
                len += e.count_ones() as usize;
            }
        }
        prev = cur[1];
        prev_digit = digit;
        at += 64;
        if last {
            break;
        }
    }
    tokens.starts.push(started);
    tokens.len = len;
    tokens.end = end;
}

/// `PACK[e]`: the byte shuffle that moves the 16-bit lanes whose bits are set in `e` to the
/// front, in order (the other bytes are zeroed).
static PACK: [__m128i; 256] = {
    let mut t = [[0x80u8; 16]; 256];
    let mut e = 0;
    while e < 256 {
        let (mut k, mut p) = (0, 0);
        while p < 8 {
            if e >> p & 1 == 1 {
                t[e][2 * k] = 2 * p as u8;
                t[e][2 * k + 1] = 2 * p as u8 + 1;
                k += 1;
            }
            p += 1;
        }
        e += 1;
    }
    // SAFETY: `[u8; 16]` and `__m128i` have the same size, and every bit pattern is valid
    // for both.
    unsafe { std::mem::transmute::<[[u8; 16]; 256], [__m128i; 256]>(t) }
};
