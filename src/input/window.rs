//! A window of input cut into numbers in one pass, for judges whose datasets are many small
//! numbers: the values of its tokens, and where they start. The portable tokenizer, byte by
//! byte, is the specification; on x86-64 CPUs with AVX-512 VBMI2, [`x86_64`] does the same 64
//! bytes per step (tested against it on random windows). Knows no game: a judge reads its
//! datasets from the values (the grid judge's fast path, `crate::grid::batch`).

#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_64;

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

/// The portable tokenizer: byte by byte.
pub(crate) fn tokenize_portable(window: &[u8], tokens: &mut Tokens) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    fn tokens(window: &[u8]) -> Tokens {
        let mut t = Tokens::default();
        tokenize_portable(window, &mut t);
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

    /// The AVX-512 tokenizer gives exactly what the portable one gives.
    #[test]
    #[cfg(target_arch = "x86_64")]
    #[cfg_attr(miri, ignore)]
    fn tokenizers_agree() {
        let Some(vbmi2) = crate::simd::x86::Avx512Vbmi2::new() else {
            eprintln!("skipped: this CPU has no AVX-512 VBMI2, the fast tokenizer cannot run");
            return;
        };
        let mut rng = Rng::new(5);
        let mut fast = Tokens::default();
        for _ in 0..20_000 {
            let w = random_window(&mut rng);
            let plain = tokens(&w);
            x86_64::tokenize(vbmi2, &w, &mut fast);
            assert_eq!(
                (&fast.values[..fast.len], &fast.starts, fast.end),
                (&plain.values[..plain.len], &plain.starts, plain.end),
                "{:?}",
                String::from_utf8_lossy(&w)
            );
        }
    }
}
