//! The playout's ball recording on SSE4.1: the 13 line bytes of a ball are gathered into one
//! register (`pinsrb`), updated together, scattered back (`pextrb`) and tested for a run of m
//! together, by shifts instead of 13 table look-ups.

use std::arch::x86_64::*;

use super::{Recorder, SHIFTS, run};
use crate::rng::Rng;
use crate::sequence::cube::{LiveLines, SLOTS};
use crate::sequence::{Game, Outcome};
use crate::simd::x86::Sse41;

/// [`Game::playout`] with the balls recorded on SSE4.1, the whole loop compiled for it.
pub(super) fn playout(game: &mut Game, rng: &mut Rng, sse: Sse41) -> Outcome {
    // SAFETY: `sse` exists, so the CPU has SSE4.1.
    unsafe { playout_sse41(game, rng, sse) }
}

#[target_feature(enable = "sse4.1")]
fn playout_sse41(game: &mut Game, rng: &mut Rng, sse: Sse41) -> Outcome {
    run(game, rng, SseRecorder(sse))
}

/// The SSE4.1 [`Recorder`]: holding one proves the CPU has SSE4.1.
#[derive(Debug, Clone, Copy)]
struct SseRecorder(Sse41);

impl Recorder for SseRecorder {
    #[inline(always)]
    fn mark<const CHECK: bool>(
        self,
        lines: &mut [u8; SLOTS],
        live: &LiveLines,
        b: usize,
        _: &[u8; 256],
        steps: &RunSteps,
    ) -> bool {
        // SAFETY: `self.0` exists, so the CPU has SSE4.1.
        unsafe { mark::<CHECK>(lines, live, b, steps) }
    }
}

/// The run test for one m: three doubling steps `t &= (t >> k) & (0xff >> k)` per byte, after
/// which a byte is non-zero exactly when it held m consecutive set bits.
#[repr(C, align(16))]
pub(crate) struct RunSteps {
    /// The shift `k` of each step (as `psrlw` takes it: the count in the low 64 bits).
    counts: [[u64; 2]; 3],
    /// `0xff >> k` in every byte: the bits shifted in from the next byte are cleared.
    masks: [[u8; 16]; 3],
}

/// `RUN_STEPS[m]` for `m ≤ 8`, the steps of [`SHIFTS`].
pub(crate) static RUN_STEPS: [RunSteps; 9] = {
    let mut table = [const {
        RunSteps {
            counts: [[0; 2]; 3],
            masks: [[0; 16]; 3],
        }
    }; 9];
    let mut m = 0;
    while m < 9 {
        let mut step = 0;
        while step < 3 {
            let k = SHIFTS[m][step];
            table[m].counts[step][0] = k as u64;
            table[m].masks[step] = [0xff >> k; 16];
            step += 1;
        }
        m += 1;
    }
    table
};

/// [`crate::sequence::game::mark`] on SSE4.1: records a ball at cell bit `b` in its colour's line bytes and,
/// when `CHECK`, says whether it completes a run of the length `steps` test for.
#[inline]
#[target_feature(enable = "sse4.1")]
pub(super) fn mark<const CHECK: bool>(
    lines: &mut [u8; SLOTS],
    live: &LiveLines,
    b: usize,
    steps: &RunSteps,
) -> bool {
    // The lanes past the cell's live lines read and write a dead lane's slot
    // ([`dead_lane`](crate::sequence::cube::dead_lane)), which stays 0: their bits are 0.
    let (slots, bits) = (&live.slot[b & 511], &live.bit[b & 511]);
    let slot = |d: usize| usize::from(slots[d]) & (SLOTS - 1);
    // Two registers of alternate lanes, for two short dependency chains instead of one long.
    let (mut even, mut odd) = (_mm_setzero_si128(), _mm_setzero_si128());
    macro_rules! gather {
        ($($d:literal $reg:ident),*) => {
            $($reg = _mm_insert_epi8::<$d>($reg, i32::from(lines[slot($d)]));)*
        };
    }
    gather!(0 even, 1 odd, 2 even, 3 odd, 4 even, 5 odd, 6 even, 7 odd, 8 even, 9 odd,
        10 even, 11 odd, 12 even);
    // SAFETY: `bits` is 16 bytes (`_mm_loadu_si128` takes any alignment).
    let bits = unsafe { _mm_loadu_si128(bits.as_ptr().cast()) };
    let v = _mm_or_si128(_mm_or_si128(even, odd), bits);
    macro_rules! scatter {
        ($($d:literal),*) => {
            $(lines[slot($d)] = _mm_extract_epi8::<$d>(v) as u8;)*
        };
    }
    scatter!(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
    if !CHECK {
        return false;
    }
    // Lanes 13..16 hold the table's padding bits, which are 0: no run there.
    let mut t = v;
    for step in 0..3 {
        // SAFETY: `RunSteps` is 16-byte aligned, and so are its 16-byte fields.
        let (count, mask) = unsafe {
            (
                _mm_load_si128(steps.counts[step].as_ptr().cast()),
                _mm_load_si128(steps.masks[step].as_ptr().cast()),
            )
        };
        t = _mm_and_si128(t, _mm_and_si128(_mm_srl_epi16(t, count), mask));
    }
    _mm_testz_si128(t, t) == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sequence::cube::RUNS;

    /// The SSE4.1 playout called directly (whatever `BITGAMES_SIMD` says, and under Miri when
    /// built with `-C target-feature=+sse4.1`, which checks its unsafe code): the portable
    /// playout's moves, outcome and generator state.
    #[test]
    fn sse_playout_is_the_portable_playout() {
        let Some(sse) = Sse41::new() else {
            eprintln!("skipped: this CPU has no SSE4.1, the SSE playout cannot run");
            return;
        };
        let mut rng = Rng::new(21);
        let games = if cfg!(miri) { 2 } else { 200 };
        for (n, m) in [(7, 4), (7, 7), (5, 3), (3, 1)] {
            for _ in 0..games {
                let mut fast = Game::new(n, m).unwrap();
                let mut portable = fast.clone();
                let mut portable_rng = rng.clone();
                let outcome = playout(&mut fast, &mut rng, sse);
                assert_eq!(portable.playout_portable(&mut portable_rng), outcome);
                assert!(fast == portable, "n {n} m {m}\n{fast:?}");
                assert_eq!(rng.next_u64(), portable_rng.next_u64());
            }
        }
    }

    #[test]
    fn run_steps_find_the_runs_of_the_table() {
        for m in 1..=8 {
            let steps = &RUN_STEPS[m];
            for v in 0..=255u8 {
                let mut t = v;
                for step in 0..3 {
                    let k = steps.counts[step][0];
                    t &= (t >> k) & steps.masks[step][0];
                }
                assert_eq!(t != 0, RUNS[m][usize::from(v)] == 1, "m {m} v {v:08b}");
            }
        }
    }
}
