//! A window of input cut into numbers in one pass, for judges whose datasets are many small
//! numbers: the values of its tokens, and where they start. The byte-by-byte tokenizer
//! ([`tokenize_bytes`]) is the specification. [`tokenize_swar`] does the same in portable
//! code, 64 bytes per step (bit masks of digits and white space by SWAR, each token's value
//! from the eight bytes before its end); on x86-64, [`x86_64`] does it with AVX2 and with
//! AVX-512 VBMI2. Every one is tested against the specification on random windows. Knows no
//! game: a judge reads its datasets from the values (the grid judge's fast path,
//! `crate::grid::batch`).

#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_64;

#[cfg(test)]
use super::is_space;

/// The most bytes a window holds.
pub(crate) const WINDOW: usize = 1 << 16;

/// Bytes per step of the tokenizers.
pub(crate) const BLOCK: usize = 64;

/// The value of a token of five digits or more: larger than any
/// four-digit value.
pub(crate) const TOO_LONG: u16 = 255 * 100 + 255;

/// The tokens of a window: what a tokenizer makes of it.
///
/// The window is read up to `end`, its first byte that is neither a digit nor white space
/// (or its end). A token is a run of digits; it is *complete* when white space follows it
/// before `end`. `values` holds the complete tokens' values in order ([`TOO_LONG`] for five
/// digits or more), `starts[b]` the number of tokens (complete or not) that start before byte
/// `BLOCK · b`, for every block up to `end`, and then the total.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Tokens {
    /// The values, then room for one more block's worth (`len` counts the values).
    pub(crate) values: Vec<u16>,
    /// Complete tokens.
    pub(crate) len: usize,
    /// Token starts before each block, then the total.
    pub(crate) starts: Vec<u32>,
    /// The bytes read.
    pub(crate) end: usize,
}

impl Tokens {
    /// Values the buffer holds: every complete token of a window (at most one per two bytes)
    /// and a block's worth of slack, which the AVX-512 tokenizer writes whole.
    pub(crate) const CAPACITY: usize = WINDOW / 2 + BLOCK;

    /// Empties the tokens for a window, with room for [`Tokens::CAPACITY`] values.
    pub(crate) fn clear(&mut self) {
        if self.values.len() < Self::CAPACITY {
            self.values.resize(Self::CAPACITY, 0);
        }
        self.len = 0;
        self.starts.clear();
        self.end = 0;
    }

    /// The offset in `window` of the start of token `t`, or `end` when fewer tokens start.
    pub(crate) fn offset_of(&self, window: &[u8], t: usize) -> usize {
        let b = self.starts.partition_point(|&s| s as usize <= t);
        if b == self.starts.len() {
            return self.end;
        }
        let b = b - 1;
        let mut k = t - self.starts[b] as usize;
        let from = b * BLOCK;
        for i in from..(from + BLOCK).min(self.end) {
            if starts_token(window, i) {
                if k == 0 {
                    return i;
                }
                k -= 1;
            }
        }
        self.end
    }

    /// Tokens that start before offset `pos` of `window`.
    pub(crate) fn started_before(&self, window: &[u8], pos: usize) -> usize {
        if pos >= self.end {
            return *self.starts.last().unwrap_or(&0) as usize;
        }
        let b = pos / BLOCK;
        self.starts[b] as usize
            + (b * BLOCK..pos)
                .filter(|&i| starts_token(window, i))
                .count()
    }
}

/// Does a token start at byte `i` (a digit after white space or at the window's start)?
fn starts_token(window: &[u8], i: usize) -> bool {
    window[i].is_ascii_digit() && (i == 0 || !window[i - 1].is_ascii_digit())
}

/// The specification of the tokenizers: byte by byte.
#[cfg(test)]
pub(crate) fn tokenize_bytes(window: &[u8], tokens: &mut Tokens) {
    tokens.clear();
    let (mut value, mut digits, mut started) = (0u16, 0u32, 0u32);
    let mut end = window.len();
    for (i, &c) in window.iter().enumerate() {
        let d = c.wrapping_sub(b'0');
        let space = is_space(c);
        if d > 9 && !space {
            end = i;
            break;
        }
        if i % BLOCK == 0 {
            tokens.starts.push(started);
        }
        if d <= 9 {
            if digits == 0 {
                started += 1;
                value = 0;
            }
            if digits < 4 {
                value = value * 10 + u16::from(d);
            }
            digits += 1;
        } else if digits > 0 {
            tokens.values[tokens.len] = if digits <= 4 { value } else { TOO_LONG };
            tokens.len += 1;
            digits = 0;
        }
    }
    tokens.starts.push(started);
    tokens.end = end;
}

/// The portable tokenizer, 64 bytes per step: the bytes' masks of digits and of white space
/// by SWAR ([`masks`]), then the value of each token that ends in the block from the eight
/// bytes before its end ([`value_before`]).
#[inline(always)]
pub(crate) fn tokenize_swar(window: &[u8], tokens: &mut Tokens) {
    tokens.clear();
    let n = window.len();
    // A copy of the first block and of the last one: eight zeros (no digits) before the
    // window's start, then the block, zeros past the window's end.
    let mut buf;
    let (mut prev_digit, mut started, mut len) = (0u64, 0u32, 0usize);
    let mut end = n;
    let mut at = 0;
    while at < n {
        let take = (n - at).min(BLOCK);
        // `bytes`: the eight bytes before the block, then the block. The blocks in between
        // are read in place (a copy made each block's loads wait on its stores).
        let (bytes, lanes): (&[u8; 8 + BLOCK], u64) = if at >= 8 && take == BLOCK {
            let bytes = window[at - 8..at + BLOCK].try_into().expect("a block");
            (bytes, u64::MAX)
        } else {
            buf = [0; 8 + BLOCK];
            if at >= 8 {
                buf[..8].copy_from_slice(&window[at - 8..at]);
            }
            buf[8..8 + take].copy_from_slice(&window[at..at + take]);
            (&buf, u64::MAX >> (BLOCK - take))
        };
        let block: &[u8; BLOCK] = bytes[8..].try_into().expect("a block");
        let (mut digit, mut white) = masks(block);
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
        // Bit p of d_k: byte p − k is a digit (from the block before for p < k).
        let d1 = digit << 1 | prev_digit >> 63;
        let d2 = digit << 2 | prev_digit >> 62;
        let d3 = digit << 3 | prev_digit >> 61;
        started += (digit & !d1).count_ones();
        // Token ends after at least three digits.
        let three = d1 & d2 & d3;
        // White space right after a digit: the end of a complete token.
        let mut ends = white & d1;
        while ends != 0 {
            let p = ends.trailing_zeros() as usize;
            ends &= ends - 1;
            // Tokens of one or two digits (nearly all of a grid judge's) from their two
            // bytes by [`PAIRS`]; longer ones from the eight bytes before their end.
            tokens.values[len] = if three >> p & 1 == 0 {
                let pair = u16::from_le_bytes(bytes[6 + p..8 + p].try_into().expect("two"));
                u16::from(PAIRS[usize::from(pair)])
            } else {
                value_before(u64::from_le_bytes(
                    bytes[p..p + 8].try_into().expect("eight bytes"),
                ))
            };
            len += 1;
        }
        prev_digit = digit;
        at += BLOCK;
        if last {
            break;
        }
    }
    tokens.starts.push(started);
    tokens.len = len;
    tokens.end = end;
}

/// The value of a token of one or two digits from its last two bytes: `PAIRS[b | c << 8]`,
/// where `c` is the last digit and `b` the byte before it, is `10 (b − '0') + (c − '0')`
/// when `b` is a digit, `c − '0'` when it is not. (A look-up takes fewer instructions than
/// the arithmetic, and a window's tokens touch some twenty of the table's lines.)
static PAIRS: [u8; 1 << 16] = {
    let mut table = [0u8; 1 << 16];
    let mut i = 0;
    while i < table.len() {
        let (b, c) = ((i & 0xff) as u8, (i >> 8) as u8);
        let (b, c) = (b.wrapping_sub(b'0'), c.wrapping_sub(b'0'));
        if c < 10 {
            table[i] = if b < 10 { 10 * b + c } else { c };
        }
        i += 1;
    }
    table
};

/// Bytes of `x` that are at least `k` (< 128), as the high bit of each byte.
#[inline(always)]
const fn at_least(x: u64, k: u8) -> u64 {
    const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    // No carry between bytes: (b & 0x7f) + 0x80 − k < 0x100.
    (((x & LOW) + (0x80 - k as u64) * 0x0101_0101_0101_0101) | x) & !LOW
}

/// The high bits of the bytes of `h` (only high bits set) as eight bits, byte 0 lowest.
#[inline(always)]
const fn gather(h: u64) -> u64 {
    (h >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// The digits and the white space of `block` as bit masks (bit i for byte i).
#[inline(always)]
fn masks(block: &[u8; BLOCK]) -> (u64, u64) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let (mut digit, mut white) = (0, 0);
    for (i, word) in block.chunks_exact(8).enumerate() {
        let x = u64::from_le_bytes(word.try_into().expect("eight bytes"));
        // A digit: x ^ '0' below 10. White space: ' ', or '\t'..='\r' (9 to 13).
        let non_digit = at_least(x ^ (ONES * u64::from(b'0')), 10);
        let not_space = at_least(x ^ (ONES * u64::from(b' ')), 1);
        let control = at_least(x, 9) & !at_least(x, 14);
        digit |= gather(!non_digit & 0x8080_8080_8080_8080) << (8 * i);
        white |= gather(!not_space & 0x8080_8080_8080_8080 | control) << (8 * i);
    }
    (digit, white)
}

/// The value of the token whose last digit is the top byte of `x` (the eight bytes before
/// its end, the last one highest): the number its last digits make, [`TOO_LONG`] from five
/// digits on.
#[inline(always)]
fn value_before(x: u64) -> u16 {
    let t = x ^ 0x3030_3030_3030_3030;
    // The digits right before the end: up to the first byte that is not one.
    let run = at_least(t, 10).leading_zeros() / 8;
    // The last four bytes, those before the run cleared: 1000 b0 + 100 b1 + 10 b2 + b3.
    let v = ((t >> 32) as u32) & (u32::MAX << (8 * (4 - run.min(4))));
    let pairs = v.wrapping_mul(10) + (v >> 8);
    let value = ((pairs & 0x00ff_00ff).wrapping_mul(1 + (100 << 16)) >> 16) as u16;
    if run > 4 { TOO_LONG } else { value }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;
    use crate::rng::Rng;

    fn tokens(window: &[u8]) -> Tokens {
        let mut t = Tokens::default();
        tokenize_bytes(window, &mut t);
        t
    }

    #[test]
    fn portable_tokens() {
        let w = b"12 7\n123456 0042\t9x 5 ";
        let t = tokens(w);
        assert_eq!(&t.values[..t.len], &[12, 7, TOO_LONG, 42]);
        assert_eq!(t.end, 18);
        assert_eq!(t.starts, vec![0, 5]);
        assert_eq!(t.offset_of(w, 0), 0);
        assert_eq!(t.offset_of(w, 3), 12);
        assert_eq!(t.offset_of(w, 4), 17);
        assert_eq!(t.offset_of(w, 5), 18);
        assert_eq!(t.started_before(w, 3), 1);
        assert_eq!(t.started_before(w, 12), 3);
        assert_eq!(t.started_before(w, 40), 5);
    }

    #[test]
    fn incomplete_last_token() {
        let t = tokens(b"5 6 78");
        assert_eq!(&t.values[..t.len], &[5, 6]);
        assert_eq!(t.end, 6);
        assert_eq!(t.offset_of(b"5 6 78", 2), 4);
    }

    #[test]
    fn starts_per_block() {
        let w: Vec<u8> = b"1 ".repeat(40);
        let t = tokens(&w);
        assert_eq!(t.len, 40);
        assert_eq!(t.starts, vec![0, 32, 40]);
        assert_eq!(t.offset_of(&w, 33), 66);
        assert_eq!(t.started_before(&w, 65), 33);
    }

    /// Random windows of digits (long runs too), every kind of white space, and stray bytes.
    fn random_window(rng: &mut Rng) -> Vec<u8> {
        let len = rng.below(300) as usize;
        let bad = rng.below(4) == 0;
        (0..len)
            .map(|_| match rng.below(20) {
                0..=10 => b'0' + rng.below(10) as u8,
                11..=15 => b' ',
                16 => b"\t\n\x0b\x0c\r"[rng.below(5) as usize],
                17 if bad => b"x-\0\xff"[rng.below(4) as usize],
                _ => b'1',
            })
            .collect()
    }

    /// A window like a judge's input: tokens of one or two digits, a few of three to six
    /// (so that some blocks have only short tokens and some a long one), single spaces and
    /// newlines.
    fn judge_like_window(rng: &mut Rng) -> Vec<u8> {
        let mut w = Vec::new();
        while w.len() < 600 {
            let digits = match rng.below(40) {
                0 => 3 + rng.below(4),
                k => 1 + k % 2,
            };
            for _ in 0..digits {
                w.push(b'0' + rng.below(10) as u8);
            }
            w.push(if rng.below(12) == 0 { b'\n' } else { b' ' });
        }
        w
    }

    /// `tokenize` gives exactly what the specification gives, on random windows, on windows
    /// like a judge's input, and on every prefix of a few long ones (windows that end in
    /// every position of a block).
    fn agrees(tokenize: impl Fn(&[u8], &mut Tokens)) {
        let mut rng = Rng::new(5);
        let mut fast = Tokens::default();
        let mut check = |w: &[u8]| {
            let plain = tokens(w);
            tokenize(w, &mut fast);
            assert_eq!(
                (&fast.values[..fast.len], &fast.starts, fast.end),
                (&plain.values[..plain.len], &plain.starts, plain.end),
                "{:?}",
                String::from_utf8_lossy(w)
            );
        };
        for _ in 0..20_000 {
            check(&random_window(&mut rng));
        }
        for _ in 0..2_000 {
            let mut w = judge_like_window(&mut rng);
            if rng.below(8) == 0 {
                // A stray byte somewhere.
                let at = rng.below(w.len() as u32) as usize;
                w[at] = b"x-\0\xff"[rng.below(4) as usize];
            }
            check(&w);
        }
        for _ in 0..2 {
            let w = judge_like_window(&mut rng);
            for n in 0..w.len() {
                check(&w[..n]);
            }
        }
        // A whole window at the densest: a token every two bytes.
        check(&b"1 ".repeat(WINDOW / 2));
        check(&b"12 ".repeat(WINDOW / 3));
        for _ in 0..20 {
            let w: Vec<u8> = (0..10).flat_map(|_| random_window(&mut rng)).collect();
            for n in 0..w.len().min(400) {
                check(&w[..n]);
            }
            check(&w);
        }
    }

    #[test]
    #[cfg_attr(miri, ignore)]
    fn swar_tokenizer_agrees() {
        agrees(tokenize_swar);
    }

    #[test]
    fn swar_values() {
        for (text, want) in [
            (&b"xxxxxxx7"[..], 7),
            (b"xxxxxx12", 12),
            (b"  \t  905", 905),
            (b"xxxx1234", 1234),
            (b"xxx12345", TOO_LONG),
            (b"00000042", TOO_LONG),
            (b"xxxx0042", 42),
            (b"1 3 5 79", 79),
        ] {
            let x = u64::from_le_bytes(text[text.len() - 8..].try_into().unwrap());
            assert_eq!(value_before(x), want, "{:?}", String::from_utf8_lossy(text));
        }
    }

    /// Every byte value in every position of a word: the masks are those of a byte loop.
    #[test]
    fn swar_masks() {
        for c in 0..=255u8 {
            for i in 0..BLOCK {
                let mut block = [b'x'; BLOCK];
                block[i] = c;
                let (digit, white) = masks(&block);
                let bit = 1u64 << i;
                assert_eq!(digit, if c.is_ascii_digit() { bit } else { 0 }, "{c}");
                assert_eq!(white, if is_space(c) { bit } else { 0 }, "{c}");
            }
        }
    }

    /// The AVX2 tokenizer gives exactly what the specification gives.
    #[test]
    #[cfg(target_arch = "x86_64")]
    #[cfg_attr(miri, ignore)]
    fn avx2_tokenizer_agrees() {
        let Some(avx2) = crate::simd::x86::Avx2Bmi::new() else {
            let _ = writeln!(
                std::io::stderr(),
                "note: avx2_tokenizer_agrees: skipped, this CPU lacks AVX2, BMI1, BMI2, LZCNT or POPCNT"
            );
            return;
        };
        agrees(|w, t| x86_64::tokenize_avx2(avx2, w, t));
    }

    /// The AVX-512 tokenizer gives exactly what the specification gives.
    #[test]
    #[cfg(target_arch = "x86_64")]
    #[cfg_attr(miri, ignore)]
    fn avx512_tokenizer_agrees() {
        let Some(vbmi2) = crate::simd::x86::Avx512Vbmi2::new() else {
            let _ = writeln!(
                std::io::stderr(),
                "note: avx512_tokenizer_agrees: skipped, this CPU has no AVX-512 VBMI2"
            );
            return;
        };
        agrees(|w, t| x86_64::tokenize(vbmi2, w, t));
    }
}
