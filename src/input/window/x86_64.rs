//! The window tokenizer on AVX-512 (F, BW, VBMI, VBMI2 and POPCNT) and on AVX2, 64 bytes
//! per step.

use std::arch::x86_64::*;

use super::Tokens;
use crate::simd::x86::{Avx2, Avx512Vbmi2};

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
pub(crate) fn tokenize_avx2(token: Avx2, window: &[u8], tokens: &mut Tokens) {
    let _ = token;
    // SAFETY: `token` exists, so the CPU has AVX2.
    unsafe { tokenize_avx2_inner(window, tokens) }
}

/// The AVX2 tokenizer, 64 bytes per step as two halves of 32: masks of digits and white space
/// by compares, and for every byte the value of the (at most four) digits before it, from the
/// bytes shifted in from the half before (a digit's value, or 0x80 for any other byte, so that
/// the first byte that is not a digit clears the ones before it); the values of the token
/// ends are then read from those, one by one.
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
    // times_ten[d] = 10 d for d < 10, in both 128-bit lanes (`vpshufb` looks up per lane).
    let times_ten = _mm256_setr_epi8(
        0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 0, 0, 0, 0, 0, 0, 0, 10, 20, 30, 40, 50, 60, 70, 80,
        90, 0, 0, 0, 0, 0, 0,
    );
    // The byte values of the previous half: digits' values, 0x80 for the others.
    let mut prev = other;
    let (mut prev_digit, mut started, mut len) = (0u64, 0u32, 0usize);
    // The values before each byte of a block: low two digits, then high two.
    let mut low = [0u8; 64];
    let mut high = [0u8; 64];
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
            let cur = _mm256_blendv_epi8(other, d, is_digit);
            // Bytes k before each byte (k ≤ 5), from this half and the one before.
            let joined = _mm256_permute2x128_si256::<0x21>(prev, cur);
            let s1 = _mm256_alignr_epi8::<15>(cur, joined);
            let s2 = _mm256_alignr_epi8::<14>(cur, joined);
            let s3 = _mm256_alignr_epi8::<13>(cur, joined);
            let s4 = _mm256_alignr_epi8::<12>(cur, joined);
            let s5 = _mm256_alignr_epi8::<11>(cur, joined);
            // any_k: the high bit is set when one of the k bytes before is not a digit.
            let any2 = _mm256_or_si256(s1, s2);
            let any3 = _mm256_or_si256(any2, s3);
            let any4 = _mm256_or_si256(any3, s4);
            let any5 = _mm256_or_si256(any4, s5);
            let t2 = _mm256_blendv_epi8(s2, zero, any2);
            let t3 = _mm256_blendv_epi8(s3, zero, any3);
            let t4 = _mm256_blendv_epi8(s4, zero, any4);
            let lo = _mm256_add_epi8(s1, _mm256_shuffle_epi8(times_ten, t2));
            let hi = _mm256_add_epi8(t3, _mm256_shuffle_epi8(times_ten, t4));
            // Five digits or more (no byte of the five before is other): all ones.
            let lo = _mm256_blendv_epi8(ones, lo, any5);
            let hi = _mm256_blendv_epi8(ones, hi, any5);
            // SAFETY: 32 bytes fit from offset 32 h of the 64-byte arrays.
            unsafe {
                _mm256_storeu_si256(low[32 * h..].as_mut_ptr().cast(), lo);
                _mm256_storeu_si256(high[32 * h..].as_mut_ptr().cast(), hi);
            }
            prev = cur;
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
        started += (digit & !d1).count_ones();
        let mut ends = white & d1;
        while ends != 0 {
            let p = ends.trailing_zeros() as usize;
            ends &= ends - 1;
            tokens.values[len] = u16::from(low[p]) + 100 * u16::from(high[p]);
            len += 1;
        }
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
