//! Game-agnostic SIMD: the run-time choice of back end ([`Backend`]), the 512-bit vectors the
//! cube detector is written over, byte counting, and (in `x86`) the tokens that prove a CPU
//! feature. Knows no game: a game's own kernels live in that game's folder and enter their
//! `#[target_feature]` code through these tokens.
//!
//! Following memchr's pattern, the algorithm is written once, generic over the internal
//! `Vector` trait, and compiled for each back end:
//!
//! - `Portable` ([`Backend::Portable`]): eight `u64` words, runs everywhere (and under Miri);
//! - `Avx2` and `Avx512` ([`Backend::Avx2`], [`Backend::Avx512`]; x86_64 only): constructed through `new() -> Option<Self>`, which checks
//!   the CPU at run time, so holding one proves the instructions exist.
//!
//! [`Backend::detect`] picks the best back end once per process; every back end is tested
//! against the portable one on random vectors and every shift.

#[cfg(target_arch = "x86_64")]
pub(crate) mod x86;

use std::sync::atomic::{AtomicU8, Ordering};

/// The 512-bit operations the shift-and detector needs. Bit `i` of the vector is bit `i % 64` of
/// word `i / 64`.
///
/// A vector is made only from a [`Vector::Token`], the proof that the CPU has its
/// instructions, and keeps it: so every method of an existing vector is sound to call.
pub(crate) trait Vector: Copy {
    /// What proves the instructions exist (`()` for the portable back end).
    type Token: Copy;
    /// Loads eight words.
    fn load(token: Self::Token, words: &[u64; 8]) -> Self;
    /// Bitwise and.
    fn and(self, other: Self) -> Self;
    /// Shifts the whole 512-bit value towards bit 0 by `bits` (< 512); zeros come in at the top.
    fn shr(self, bits: u32) -> Self;
    /// Are all bits zero?
    fn is_zero(self) -> bool;
}

/// The portable back end: eight `u64` words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Portable([u64; 8]);

impl Vector for Portable {
    type Token = ();

    #[inline(always)]
    fn load((): (), words: &[u64; 8]) -> Self {
        Portable(*words)
    }

    #[inline(always)]
    fn and(self, other: Self) -> Self {
        let mut out = self.0;
        for (o, b) in out.iter_mut().zip(other.0) {
            *o &= b;
        }
        Portable(out)
    }

    #[inline(always)]
    fn shr(self, bits: u32) -> Self {
        let q = (bits / 64) as usize;
        let r = bits % 64;
        let word = |i: usize| self.0.get(i).copied().unwrap_or(0);
        let mut out = [0; 8];
        for (i, o) in out.iter_mut().enumerate() {
            let lo = word(i + q) >> r;
            let hi = if r == 0 {
                0
            } else {
                word(i + q + 1) << (64 - r)
            };
            *o = lo | hi;
        }
        Portable(out)
    }

    #[inline(always)]
    fn is_zero(self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
}

/// A SIMD back end for the 512-bit operations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Backend {
    /// Eight `u64` words; always available.
    Portable,
    /// Two 256-bit AVX2 registers (x86_64 with AVX2).
    Avx2,
    /// One 512-bit AVX-512F register (x86_64 with AVX-512F).
    Avx512,
}

static DETECTED: AtomicU8 = AtomicU8::new(u8::MAX);

impl Backend {
    /// Every back end, best last.
    pub const ALL: [Backend; 3] = [Backend::Portable, Backend::Avx2, Backend::Avx512];

    /// Can this back end run on this CPU?
    pub fn is_available(self) -> bool {
        match self {
            Backend::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 => x86::Avx2::new().is_some(),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 => x86::Avx512::new().is_some(),
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// The best back end this CPU runs, found once and cached. Under Miri, and when the
    /// environment variable `BITGAMES_SIMD` is `portable`, it is [`Backend::Portable`];
    /// `avx2` caps it at AVX2.
    pub fn detect() -> Backend {
        match DETECTED.load(Ordering::Relaxed) {
            0 => return Backend::Portable,
            1 => return Backend::Avx2,
            2 => return Backend::Avx512,
            _ => {}
        }
        // A value that means nothing caps nothing here; the CLI refuses it (`check_env`).
        let cap = std::env::var("BITGAMES_SIMD")
            .ok()
            .and_then(|v| cap_of(&v))
            .flatten();
        let best = if cfg!(miri) || cap == Some(Backend::Portable) {
            Backend::Portable
        } else {
            let wanted: &[Backend] = if cap == Some(Backend::Avx2) {
                &[Backend::Avx2]
            } else {
                &[Backend::Avx512, Backend::Avx2]
            };
            wanted
                .iter()
                .copied()
                .find(|b| b.is_available())
                .unwrap_or(Backend::Portable)
        };
        DETECTED.store(best as u8, Ordering::Relaxed);
        best
    }
}

/// The cap a value of `BITGAMES_SIMD` sets (any case): `Some(None)` for none (empty or
/// `avx512`: the best back end of the CPU), `Some(Some(b))` for `avx2` or `portable`, and
/// `None` for a value that means nothing.
fn cap_of(value: &str) -> Option<Option<Backend>> {
    [
        ("", None),
        ("avx512", None),
        ("avx2", Some(Backend::Avx2)),
        ("portable", Some(Backend::Portable)),
    ]
    .into_iter()
    .find(|(name, _)| value.eq_ignore_ascii_case(name))
    .map(|(_, cap)| cap)
}

/// Checks the environment variable `BITGAMES_SIMD` before any work: unset, empty, `avx512`,
/// `avx2` or `portable` (any case).
///
/// # Errors
/// A message naming the accepted values when it is set to anything else ([`Backend::detect`]
/// would ignore such a value and choose the best back end).
pub fn check_env() -> Result<(), String> {
    let Some(value) = std::env::var_os("BITGAMES_SIMD") else {
        return Ok(());
    };
    match value.to_str().and_then(cap_of) {
        Some(_) => Ok(()),
        None => Err(format!(
            "BITGAMES_SIMD={}: expected avx512, avx2 or portable (or unset, for the best back \
             end of the CPU)",
            value.to_string_lossy()
        )),
    }
}

/// Does `board` hold a run of at least `m` (≥ 2) set bits spaced `stride` apart, for any of
/// `strides`? Written once for every back end: per stride, doubling shift-and chains
/// (`r = b & b >> s` has runs of 2, `r & r >> 2s` runs of 4, ...).
#[inline(always)]
pub(crate) fn has_run<V: Vector>(board: V, strides: &[u32], m: u32) -> bool {
    debug_assert!(m >= 2);
    strides.iter().any(|&s| {
        // `acc` marks the starts of runs of length `len`, which doubles while it fits.
        let mut acc = board;
        let mut len = 1;
        while len * 2 <= m {
            acc = acc.and(acc.shr(len * s));
            len *= 2;
        }
        if len < m {
            acc = acc.and(acc.shr((m - len) * s));
        }
        !acc.is_zero()
    })
}

/// [`has_run`] on the back end `backend`, falling back to [`Portable`] when it is not available.
pub(crate) fn has_run_on(backend: Backend, words: &[u64; 8], strides: &[u32], m: u32) -> bool {
    #[cfg(target_arch = "x86_64")]
    match backend {
        Backend::Avx512 => {
            if let Some(v) = x86::Avx512::new() {
                return v.has_run(words, strides, m);
            }
        }
        Backend::Avx2 => {
            if let Some(v) = x86::Avx2::new() {
                return v.has_run(words, strides, m);
            }
        }
        Backend::Portable => {}
    }
    let _ = backend;
    has_run(Portable::load((), words), strides, m)
}

/// Occurrences of `needle` in `haystack` (the judges count line feeds with it, for the line
/// numbers of error messages), by `bytecount`, which picks AVX2, SSE2 or a word-at-a-time loop
/// at run time by itself. `BITGAMES_SIMD` does not cap that choice: the cap exists to exercise
/// this crate's own kernels, and `bytecount` tests its paths itself.
pub(crate) fn count_byte(haystack: &[u8], needle: u8) -> u64 {
    bytecount::count(haystack, needle) as u64
}

/// `words` shifted right by `bits` on `backend` (for testing the back ends against each other).
#[cfg(test)]
fn shr_on(backend: Backend, words: &[u64; 8], bits: u32) -> [u64; 8] {
    #[cfg(target_arch = "x86_64")]
    match backend {
        Backend::Avx512 => {
            if let Some(v) = x86::Avx512::new() {
                return v.shr(words, bits);
            }
        }
        Backend::Avx2 => {
            if let Some(v) = x86::Avx2::new() {
                return v.shr(words, bits);
            }
        }
        Backend::Portable => {}
    }
    let _ = backend;
    Portable::load((), words).shr(bits).0
}

/// The back ends this CPU runs, for tests: each one it cannot run is named on the test output
/// (written to the process's standard error, which the test harness does not capture), so
/// that no test passes silently without checking a back end.
#[cfg(test)]
pub(crate) fn available_backends(test: &str) -> Vec<Backend> {
    use std::io::Write;
    Backend::ALL
        .into_iter()
        .filter(|&b| {
            let ok = b.is_available();
            if !ok {
                let _ = writeln!(
                    std::io::stderr(),
                    "note: {test}: skipped the {b:?} back end: not on this CPU"
                );
            }
            ok
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// The count is the naive loop's, for every length around `bytecount`'s block and round
    /// sizes and every offset (alignment).
    #[test]
    fn byte_counts_match_the_naive_count_for_every_length_and_offset() {
        let text: Vec<u8> = (0..20_000u32)
            .map(|i| {
                if i % 7 == 0 || i % 13 == 0 {
                    b'\n'
                } else {
                    b'x'
                }
            })
            .collect();
        let all_newlines = vec![b'\n'; 255 * 32 * 3 + 5];
        for start in 0..40 {
            for len in [
                0,
                1,
                31,
                32,
                33,
                255 * 32 - 1,
                255 * 32,
                255 * 32 + 1,
                19_000,
            ] {
                let part = &text[start..start + len];
                let naive = part.iter().filter(|&&b| b == b'\n').count() as u64;
                assert_eq!(count_byte(part, b'\n'), naive, "{start} {len}");
            }
        }
        let n = all_newlines.len() as u64;
        assert_eq!(count_byte(&all_newlines, b'\n'), n);
        assert_eq!(count_byte(&all_newlines, b'x'), 0);
    }

    /// The one-line naive version: bit by bit.
    fn naive_shr(words: &[u64; 8], bits: u32) -> [u64; 8] {
        let mut out = [0u64; 8];
        for i in 0..512u32 {
            let from = i + bits;
            if from < 512 && words[(from / 64) as usize] >> (from % 64) & 1 == 1 {
                out[(i / 64) as usize] |= 1 << (i % 64);
            }
        }
        out
    }

    fn naive_has_run(words: &[u64; 8], strides: &[u32], m: u32) -> bool {
        let bit = |i: u32| i < 512 && words[(i / 64) as usize] >> (i % 64) & 1 == 1;
        strides
            .iter()
            .any(|&s| (0..512).any(|p| (0..m).all(|k| bit(p + k * s))))
    }

    fn random_words(rng: &mut Rng, density: u32) -> [u64; 8] {
        let mut w = [0u64; 8];
        for word in &mut w {
            for _ in 0..density {
                *word |= 1 << rng.below(64);
            }
        }
        w
    }

    #[test]
    #[cfg_attr(miri, ignore)]
    fn every_backend_shifts_like_the_naive_loop() {
        let backends = available_backends("every_backend_shifts_like_the_naive_loop");
        let mut rng = Rng::new(3);
        for round in 0..40 {
            let words = random_words(&mut rng, 1 + round % 40);
            for bits in 0..512 {
                let want = naive_shr(&words, bits);
                for &backend in &backends {
                    assert_eq!(shr_on(backend, &words, bits), want, "{backend:?} >> {bits}");
                }
            }
        }
    }

    #[test]
    #[cfg_attr(miri, ignore)]
    fn every_backend_finds_runs_like_the_naive_scan() {
        let backends = available_backends("every_backend_finds_runs_like_the_naive_scan");
        let mut rng = Rng::new(4);
        let strides = [1, 7, 8, 9, 55, 56, 57, 63, 64, 65, 71, 72, 73];
        for round in 0..300 {
            let words = random_words(&mut rng, 4 + round % 24);
            for m in 2..=8 {
                for s in strides {
                    let want = naive_has_run(&words, &[s], m);
                    for &backend in &backends {
                        assert_eq!(
                            has_run_on(backend, &words, &[s], m),
                            want,
                            "{backend:?} m={m} s={s}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn portable_shift_small_cases() {
        let mut words = [0u64; 8];
        words[7] = 1 << 63;
        words[1] = 3;
        for bits in [0, 1, 63, 64, 65, 200, 511] {
            assert_eq!(
                Portable::load((), &words).shr(bits).0,
                naive_shr(&words, bits)
            );
        }
    }

    #[test]
    fn detection_is_stable_and_available() {
        let b = Backend::detect();
        assert!(b.is_available());
        assert_eq!(Backend::detect(), b);
        assert!(Backend::Portable.is_available());
    }
}
