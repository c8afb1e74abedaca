//! x86_64 back ends: AVX2 (two 256-bit registers) and AVX-512F (one 512-bit register).
//!
//! The vector types [`V256x2`] and [`V512`] are private and only ever created inside the
//! `#[target_feature]` leaf functions below, which are entered only through a token
//! ([`Avx2`], [`Avx512`]) whose constructor checked the CPU. That is the safety argument of
//! every `unsafe` block in this file.

use std::arch::x86_64::*;

use super::{Vector, has_run};
use crate::grid::Grid;
use crate::grid::batch::{Kernel, Tokens, Work};
use crate::grid::judge::Outcome;
use crate::grid::position::{LINE_WORDS, MAX_SIDE};

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
/// VBMI2 for the tokenizer, AVX-512F, BMI1, BMI2 and LZCNT for the hand-written move, and
/// POPCNT.
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
        work: &mut Work,
        bytes: &[u8],
        stop: usize,
        limit: usize,
        answers: &mut Vec<Outcome>,
    ) -> (usize, usize) {
        // SAFETY: `self` exists, so the CPU has these features (checked in `GridAvx512::new`).
        unsafe { grid_batch_avx512(self, grid, work, bytes, stop, limit, answers) }
    }
}

#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,bmi1,bmi2,lzcnt,popcnt")]
fn grid_batch_avx512(
    kernel: GridAvx512,
    grid: &mut Grid,
    work: &mut Work,
    bytes: &[u8],
    stop: usize,
    limit: usize,
    answers: &mut Vec<Outcome>,
) -> (usize, usize) {
    crate::grid::batch::run(kernel, grid, work, bytes, stop, limit, answers)
}

impl Kernel for GridAvx512 {
    fn tokenize(self, window: &[u8], tokens: &mut Tokens) {
        // SAFETY: `self` exists, so the CPU has AVX-512 F, BW, VBMI, VBMI2 and POPCNT.
        unsafe { tokenize_avx512(window, tokens) }
    }

    #[inline(always)]
    fn play_moves(self, grid: &mut Grid, moves: &[u16]) -> bool {
        // SAFETY: `self` exists, so the CPU has AVX-512F, BMI1, BMI2 and LZCNT.
        unsafe { play_moves_avx512(grid, moves) }
    }

    #[inline(always)]
    fn play_pair(self, grids: [&mut Grid; 2], moves: [&[u16]; 2]) -> Result<(), (usize, usize)> {
        // SAFETY: as for `play_moves`.
        unsafe { play_pair_avx512(grids, moves) }
    }
}

/// Byte offsets `grid_move!` uses: the high row words from the low ones, the column words, the
/// grid's sides (all from the start of a [`Grid`], where its row words are); the tables.
const RHI: usize = LINE_WORDS * 8;
const CLO: usize = crate::grid::position::COL_WORDS_OFFSET;
const CHI: usize = CLO + RHI;
const ROWS: usize = crate::grid::position::ROWS_OFFSET;
const COLS: usize = crate::grid::position::COLS_OFFSET;
const THI: usize = std::mem::offset_of!(MoveTables, hi);
const BLO: usize = std::mem::offset_of!(MoveTables, bit_lo);
const BHI: usize = std::mem::offset_of!(MoveTables, bit_hi);
const SQ: usize = std::mem::offset_of!(MoveTables, square);
const ONE: usize = BLO + 8;
const LANE: usize = std::mem::offset_of!(MoveTables, lane);
const HALF: usize = std::mem::offset_of!(MoveTables, half);
const ONES: usize = 64 * 8;
const _: () = assert!(
    LINE_WORDS >= MAX_SIDE + 16
        && std::mem::offset_of!(MoveTables, lo) == 0
        && std::mem::align_of::<Grid>() >= 64
);

/// The masks and the Grundy table the hand-written move reads, at fixed offsets from one
/// register.
#[repr(C, align(64))]
struct MoveTables {
    /// Bits `0..n` of a line: its low words, for `n` up to 135 (all 128 bits from 128 on;
    /// `lo[64]`, all ones, is also a shift's source: `{ones}`).
    lo: [u64; 136],
    /// Their high words.
    hi: [u64; 136],
    /// Bit `n − 1` of a line (none for 0 and from 129 on): low words (`bit_lo[1]`, 1, is also
    /// a shift's source: `{one}`).
    bit_lo: [u64; 136],
    /// Their high words.
    bit_hi: [u64; 136],
    /// Lane `x % 8` of a group of eight rows, as a mask: `1 << (x % 8)`.
    lane: [u16; 128],
    /// The offset of the row words' half holding column `y`: 0, or [`RHI`] from 64 on.
    half: [u32; 128],
    /// The Grundy values, 256 × 256 ([`crate::grid::grundy`]'s padded table).
    square: [[u8; 256]; 256],
}

/// The Grundy table of [`MOVE_TABLES`], which is also [`crate::grid::grundy`]'s padded square.
#[inline(always)]
pub(crate) fn grundy_square() -> &'static [[u8; 256]; 256] {
    &MOVE_TABLES.square
}

static MOVE_TABLES: MoveTables = {
    let mut t = MoveTables {
        lo: [0; 136],
        hi: [0; 136],
        bit_lo: [0; 136],
        bit_hi: [0; 136],
        lane: [0; 128],
        half: [0; 128],
        square: crate::grid::grundy::padded_square(),
    };
    let mut n = 0;
    while n < 136 {
        let m = if n >= 128 { 128 } else { n };
        let below: u128 = if m == 0 { 0 } else { u128::MAX >> (128 - m) };
        t.lo[n] = below as u64;
        t.hi[n] = (below >> 64) as u64;
        if n >= 1 && n <= 128 {
            let bit: u128 = 1 << (n - 1);
            t.bit_lo[n] = bit as u64;
            t.bit_hi[n] = (bit >> 64) as u64;
        }
        if n < 128 {
            t.lane[n] = 1 << (n % 8);
            t.half[n] = if n < 64 { 0 } else { RHI as u32 };
        }
        n += 1;
    }
    t
};

/// `$wide` for a `wide` move of `grid_move!`, `$narrow` for a `narrow` one.
macro_rules! wide_or {
    (wide, $wide:expr, $narrow:expr $(,)?) => {
        $wide
    };
    (narrow, $wide:expr, $narrow:expr $(,)?) => {
        $narrow
    };
}

/// One move of the judge's play, as assembly text for `asm!`: the move `[r8]` (row and column
/// from 1, two `u16`) on the [`Grid`] at `r10`, its Grundy change XORed into `r12`, with the
/// [`MoveTables`] at `r11`; a jump to `$bad` (with nothing changed) when the move is off the
/// grid or on a forbidden cell. `$w` is `wide` for any grid, or `narrow` for a grid of at most
/// 64 rows and columns ([`grid_is_narrow`]), whose high row and column words are all border:
/// that form neither reads nor writes them (about 25 instructions fewer; 3–5 % on the long
/// benchmark input, where 43 % of the moves are on such grids). Rectangles taller than two
/// groups of rows continue in `grid_move_more!` at local label `$more`, placed after the loop,
/// which returns to local label `$back`. Uses rax, rcx, rdx, rsi, rdi, r13–r15, zmm0–zmm2, zmm4, zmm5 and k1–k3;
/// leaves r8–r12 as they were.
///
/// It is [`Grid::cut`] with the AVX-512 marker, written out (row x's span is ORed into its
/// lane, the vertical line into the rows, separately). The compiled loop had about 200
/// instructions a move, a dozen of them stack spills; this has about 130 and none. The judge
/// plays two games in turn ([`play_pair_avx512`]), and then the time a move takes follows its
/// instruction count (BENCHMARKS.md, grid section).
///
/// Named operands (all `const`): `rhi`, the offset of the high row words from the low ones
/// (the same for the columns); `clo`/`chi`, the column words; `rows`/`cols`, the grid's sides;
/// `thi`, `blo`, `bhi`, `lane`, `half`, `sq`, the tables after [`MoveTables::lo`]; `one` and
/// `ones`, a word 1 and a word of ones in them.
macro_rules! grid_move {
    ($w:tt, $bad:literal, $more:literal, $back:literal) => {
        concat!(
            // x, y from 0; off the grid (or 0) is a bad move.
            "movzx ecx, word ptr [r8]\n",
            "movzx edx, word ptr [r8 + 2]\n",
            "dec ecx\n",
            "dec edx\n",
            "cmp ecx, dword ptr [r10 + {rows}]\n",
            "jae ",
            $bad,
            "\n",
            "cmp edx, dword ptr [r10 + {cols}]\n",
            "jae ",
            $bad,
            "\n",
            // Row x: rsi, rdi; bits up to y (rax, r13) and past y (r14, r15). Then r13d = the
            // leading zeros of the 128-bit (r13:rax) (lzcnt sets CF on a zero source), so that
            // esi = left, one past the last forbidden cell up to y: y itself when it is y + 1.
            // (Narrow: the high words are all border, never searched.)
            "mov rsi, qword ptr [r10 + rcx*8]\n",
            "mov rax, qword ptr [r11 + rdx*8 + 8]\n",
            "andn r14, rax, rsi\n",
            "and rax, rsi\n",
            wide_or!(
                $w,
                concat!(
                    "mov rdi, qword ptr [r10 + rcx*8 + {rhi}]\n",
                    "mov r13, qword ptr [r11 + rdx*8 + {thi} + 8]\n",
                    "andn r15, r13, rdi\n",
                    "and r13, rdi\n",
                    "lzcnt rax, rax\n",
                    "add eax, 64\n",
                    "lzcnt r13, r13\n",
                    "cmovc r13d, eax\n",
                ),
                concat!("lzcnt r13, rax\n", "add r13d, 64\n"),
            ),
            "mov esi, 128\n",
            "sub esi, r13d\n",
            "lea eax, [rdx + 1]\n",
            "cmp esi, eax\n",
            "je ",
            $bad,
            "\n",
            // edi = right, the first forbidden cell past y (tzcnt sets CF on a zero source).
            wide_or!(
                $w,
                concat!(
                    "tzcnt r15, r15\n",
                    "add r15d, 64\n",
                    "tzcnt rdi, r14\n",
                    "cmovc edi, r15d\n",
                ),
                "tzcnt rdi, r14\n",
            ),
            // Column `left` (exact in the rectangle's rows): r15d = top, r14d = bottom.
            wide_or!(
                $w,
                concat!(
                    "mov rax, qword ptr [r10 + rsi*8 + {clo}]\n",
                    "mov r13, qword ptr [r10 + rsi*8 + {chi}]\n",
                    "mov r14, qword ptr [r11 + rcx*8]\n",
                    "mov r15, qword ptr [r11 + rcx*8 + {thi}]\n",
                    "and r14, rax\n",
                    "and r15, r13\n",
                    "lzcnt r14, r14\n",
                    "add r14d, 64\n",
                    "lzcnt r15, r15\n",
                    "cmovc r15d, r14d\n",
                    "neg r15d\n",
                    "add r15d, 128\n",
                    "mov r14, qword ptr [r11 + rcx*8 + 8]\n",
                    "andn rax, r14, rax\n",
                    "mov r14, qword ptr [r11 + rcx*8 + {thi} + 8]\n",
                    "andn r13, r14, r13\n",
                    "tzcnt r13, r13\n",
                    "add r13d, 64\n",
                    "tzcnt r14, rax\n",
                    "cmovc r14d, r13d\n",
                ),
                concat!(
                    "mov rax, qword ptr [r10 + rsi*8 + {clo}]\n",
                    "mov r15, qword ptr [r11 + rcx*8]\n",
                    "and r15, rax\n",
                    "lzcnt r15, r15\n",
                    "neg r15d\n",
                    "add r15d, 64\n",
                    "mov r14, qword ptr [r11 + rcx*8 + 8]\n",
                    "andn rax, r14, rax\n",
                    "tzcnt r14, rax\n",
                ),
            ),
            // The value: g(a, b) ^ g(i, j) ^ g(i, j2) ^ g(i2, j2) ^ g(i2, j), with
            // a = bottom − top, b = right − left, i = x − top, j = y − left,
            // i2 = bottom − x − 1, j2 = right − y − 1 (all below 256: table rows of 256; the
            // values are below 256, so the value is a byte).
            "mov eax, r14d\n",
            "sub eax, r15d\n",
            "shl eax, 8\n",
            "add eax, edi\n",
            "sub eax, esi\n",
            "xor r12b, byte ptr [r11 + rax + {sq}]\n",
            // Row i (rax, with the tables' address) and j (r13), then j2 + 1, then row i2 + 1.
            "mov eax, ecx\n",
            "sub eax, r15d\n",
            "shl eax, 8\n",
            "add rax, r11\n",
            "mov r13d, edx\n",
            "sub r13d, esi\n",
            "xor r12b, byte ptr [rax + r13 + {sq}]\n",
            "mov r13d, edi\n",
            "sub r13d, edx\n",
            "xor r12b, byte ptr [rax + r13 + {sq} - 1]\n",
            "mov eax, r14d\n",
            "sub eax, ecx\n",
            "shl eax, 8\n",
            "add rax, r11\n",
            "xor r12b, byte ptr [rax + r13 + {sq} - 257]\n",
            "mov r13d, edx\n",
            "sub r13d, esi\n",
            "xor r12b, byte ptr [rax + r13 + {sq} - 256]\n",
            // The span of row x, left..right: rax low word, r13 high word.
            "mov rax, qword ptr [r11 + rsi*8]\n",
            "andn rax, rax, qword ptr [r11 + rdi*8]\n",
            wide_or!(
                $w,
                concat!(
                    "mov r13, qword ptr [r11 + rsi*8 + {thi}]\n",
                    "andn r13, r13, qword ptr [r11 + rdi*8 + {thi}]\n",
                ),
                "",
            ),
            // Columns (as `Grid::cut`): the cut row joins column `left`; column y + 1 gets the
            // cut row and the rectangle's two border rows.
            "mov rdi, qword ptr [r11 + rcx*8 + {blo} + 8]\n",
            "or qword ptr [r10 + rsi*8 + {clo}], rdi\n",
            "or rdi, qword ptr [r11 + r15*8 + {blo}]\n",
            "or rdi, qword ptr [r11 + r14*8 + {blo} + 8]\n",
            "or qword ptr [r10 + rdx*8 + {clo} + 8], rdi\n",
            wide_or!(
                $w,
                concat!(
                    "mov rdi, qword ptr [r11 + rcx*8 + {bhi} + 8]\n",
                    "or qword ptr [r10 + rsi*8 + {chi}], rdi\n",
                    "or rdi, qword ptr [r11 + r15*8 + {bhi}]\n",
                    "or rdi, qword ptr [r11 + r14*8 + {bhi} + 8]\n",
                    "or qword ptr [r10 + rdx*8 + {chi} + 8], rdi\n",
                ),
                "",
            ),
            // Row x takes the span: its lane (k1) of its aligned group of eight rows, in both
            // halves.
            "kmovw k1, word ptr [r11 + rcx*2 + {lane}]\n",
            "lea rsi, [r10 + rcx*8]\n",
            "and rsi, -64\n",
            "vpbroadcastq zmm1, rax\n",
            "vmovdqa64 zmm2, zmmword ptr [rsi]\n",
            "vporq zmm2 {{k1}}, zmm2, zmm1\n",
            "vmovdqa64 zmmword ptr [rsi], zmm2\n",
            wide_or!(
                $w,
                concat!(
                    "vpbroadcastq zmm1, r13\n",
                    "vmovdqa64 zmm2, zmmword ptr [rsi + {rhi}]\n",
                    "vporq zmm2 {{k1}}, zmm2, zmm1\n",
                    "vmovdqa64 zmmword ptr [rsi + {rhi}], zmm2\n",
                ),
                "",
            ),
            // Bit y (zmm0) in rows top..bottom of the half of the row words holding column y
            // (rsi), by aligned groups of eight rows from g0 = top & −8 (eax): the first two
            // always (lanes k2, k3), more in a loop ($more).
            wide_or!(
                $w,
                concat!("mov esi, dword ptr [r11 + rdx*4 + {half}]\n", "add rsi, r10\n"),
                "mov rsi, r10\n",
            ),
            "shlx rdi, qword ptr [r11 + {one}], rdx\n",
            "vpbroadcastq zmm0, rdi\n",
            "mov eax, r15d\n",
            "and eax, -8\n",
            "mov r13d, r15d\n",
            "and r13d, 7\n",
            "shlx rdi, qword ptr [r11 + {ones}], r13\n",
            "mov r13d, r14d\n",
            "sub r13d, eax\n",
            "bzhi rdi, rdi, r13\n",
            "kmovw k2, edi\n",
            "kshiftrw k3, k2, 8\n",
            "vmovdqa64 zmm4, zmmword ptr [rsi + rax*8]\n",
            "vporq zmm4 {{k2}}, zmm4, zmm0\n",
            "vmovdqa64 zmmword ptr [rsi + rax*8], zmm4\n",
            "vmovdqa64 zmm5, zmmword ptr [rsi + rax*8 + 64]\n",
            "vporq zmm5 {{k3}}, zmm5, zmm0\n",
            "vmovdqa64 zmmword ptr [rsi + rax*8 + 64], zmm5\n",
            "add eax, 16\n",
            "cmp eax, r14d\n",
            "jb ", $more, "f\n",
            $back, ":\n",
        )
    };
}

/// The rest of `grid_move!`'s marking, for the moves whose rectangle has rows past its first two
/// groups (about one in seven): groups from eax below bottom (r14d), back to `$back` after.
/// Placed after the loop, so that the usual move runs straight through.
macro_rules! grid_move_more {
    ($more:literal, $back:literal) => {
        concat!(
            $more,
            ":\n",
            "mov r13d, r14d\n",
            "sub r13d, eax\n",
            "mov edi, 255\n",
            "bzhi edi, edi, r13d\n",
            "kmovw k2, edi\n",
            "vmovdqa64 zmm4, zmmword ptr [rsi + rax*8]\n",
            "vporq zmm4 {{k2}}, zmm4, zmm0\n",
            "vmovdqa64 zmmword ptr [rsi + rax*8], zmm4\n",
            "add eax, 8\n",
            "cmp eax, r14d\n",
            "jb ",
            $more,
            "b\n",
            "jmp ",
            $back,
            "b\n",
        )
    };
}

/// `asm!` with the registers `grid_move!` changes besides rax and r8–r12 (which each caller
/// names) and the constants it reads, so that both callers name them alike.
macro_rules! grid_asm {
    ($($args:tt)*) => {
        std::arch::asm!(
            // Every constant named, for the narrow moves, which do not read them all.
            "/* {rhi} {clo} {chi} {rows} {cols} {thi} {blo} {bhi} {sq} {one} {ones} {lane} {half} */",
            $($args)*
            out("rcx") _, out("rdx") _, out("rsi") _, out("rdi") _,
            out("r13") _, out("r14") _, out("r15") _,
            out("zmm0") _, out("zmm1") _, out("zmm2") _, out("zmm4") _, out("zmm5") _,
            out("k1") _, out("k2") _, out("k3") _,
            rhi = const RHI, clo = const CLO, chi = const CHI, rows = const ROWS, cols = const COLS,
            thi = const THI, blo = const BLO, bhi = const BHI, sq = const SQ, one = const ONE,
            ones = const ONES, lane = const LANE, half = const HALF,
            options(nostack),
        )
    };
}

/// Can `grid_move!` play on `grid` in its `narrow` form: at most 64 rows and columns, so that
/// the high row and column words are all border, which that form neither reads nor writes?
#[inline(always)]
fn grid_is_narrow(grid: &Grid) -> bool {
    grid.rows() <= 64 && grid.cols() <= 64
}

/// [`Kernel::play_moves`] by `grid_move!`.
#[target_feature(enable = "avx512f,bmi1,bmi2,lzcnt")]
#[inline]
fn play_moves_avx512(grid: &mut Grid, moves: &[u16]) -> bool {
    let moves = &moves[..moves.len() & !1];
    if moves.is_empty() {
        return true;
    }
    let range = moves.as_ptr_range();
    let mut at = range.start;
    // A narrow grid (at most 64 rows and columns) has all-border high words.
    let narrow = grid_is_narrow(grid);
    let (base, value) = grid.raw_parts();
    let mut v = u64::from(*value);
    // SAFETY: `grid_move!` reads the tokens from `at` to `range.end` (two at a time, an even
    // number of them), the tables, and the grid's words at the offsets `position` exports
    // (`CLO`, `ROWS`, ...), at word indices below `LINE_WORDS` (144) by construction: x, y
    // below the sides, which are at most 128 (a `Grid`'s invariant; checked first), left,
    // right, top, bottom at most 128, groups from g0 ≤ 120 up to two past it, or below
    // bottom; table indices at most 129, Grundy indices below 256. It writes only the grid's
    // row and column words. The CPU has the instructions (`target_feature`).
    macro_rules! moves {
        ($w:tt) => {
            grid_asm!(
                "2:",
                grid_move!($w, "8f", "5", "3"),
                "add r8, 4",
                "cmp r8, r9",
                "jne 2b",
                "jmp 8f",
                grid_move_more!("5", "3"),
                "8:",
                inout("r8") at,
                in("r9") range.end,
                in("r10") base,
                in("r11") &raw const MOVE_TABLES,
                inout("r12") v,
                out("rax") _,
            )
        };
    }
    unsafe {
        if narrow {
            moves!(narrow);
        } else {
            moves!(wide);
        }
    }
    *value = v as u16;
    at == range.end
}

/// A game of [`play_pair_avx512`] as its assembly reads it.
#[repr(C)]
struct PairGame {
    /// The next move.
    at: *const u16,
    /// The grid's words ([`Grid::raw_parts`]).
    base: *mut u64,
    /// The value.
    value: u64,
}

/// What [`play_pair_avx512`]'s assembly reads and writes: the two games (24 bytes each),
/// then the first game's end.
#[repr(C)]
struct PairState {
    games: [PairGame; 2],
    end: *const u16,
}

/// [`Kernel::play_pair`] by `grid_move!`: one move of each game in turn, the two games'
/// pointers and values swapped through memory between moves (two copies of the move, so
/// each game has its own branch history).
#[target_feature(enable = "avx512f,bmi1,bmi2,lzcnt")]
#[inline]
fn play_pair_avx512(grids: [&mut Grid; 2], moves: [&[u16]; 2]) -> Result<(), (usize, usize)> {
    let n = moves[0].len() & !1;
    assert_eq!(moves[1].len() & !1, n, "as many moves in both games");
    if n == 0 {
        return Ok(());
    }
    let [g0, g1] = grids;
    let narrow = [grid_is_narrow(g0), grid_is_narrow(g1)];
    let (base0, value0) = g0.raw_parts();
    let (base1, value1) = g1.raw_parts();
    let start = moves[0].as_ptr();
    let mut state = PairState {
        games: [
            PairGame {
                at: start,
                base: base0,
                value: u64::from(*value0),
            },
            PairGame {
                at: moves[1].as_ptr(),
                base: base1,
                value: u64::from(*value1),
            },
        ],
        end: start.wrapping_add(n),
    };
    let status: u64;
    // SAFETY: as in `play_moves_avx512`, for each game; `state` is read and written at the
    // offsets of `PairState`, and its `end` is the first game's end (both games have `n`
    // tokens, so the second game's moves stay within its slice).
    macro_rules! pair {
        ($a:tt, $b:tt) => {
            grid_asm!(
                "mov r8, qword ptr [r9]",
                "mov r10, qword ptr [r9 + 8]",
                "mov r12, qword ptr [r9 + 16]",
                "2:",
                grid_move!($a, "8f", "5", "3"),
                "add r8, 4",
                "mov qword ptr [r9], r8",
                "mov qword ptr [r9 + 16], r12",
                "mov r8, qword ptr [r9 + 24]",
                "mov r10, qword ptr [r9 + 32]",
                "mov r12, qword ptr [r9 + 40]",
                grid_move!($b, "9f", "15", "13"),
                "add r8, 4",
                "mov qword ptr [r9 + 24], r8",
                "mov qword ptr [r9 + 40], r12",
                "mov r8, qword ptr [r9]",
                "mov r10, qword ptr [r9 + 8]",
                "mov r12, qword ptr [r9 + 16]",
                "cmp r8, qword ptr [r9 + 48]",
                "jne 2b",
                "xor eax, eax",
                "jmp 7f",
                "8:",
                "mov qword ptr [r9], r8",
                "mov qword ptr [r9 + 16], r12",
                "mov eax, 1",
                "jmp 7f",
                "9:",
                "mov qword ptr [r9 + 24], r8",
                "mov qword ptr [r9 + 40], r12",
                "mov eax, 2",
                "jmp 7f",
                grid_move_more!("5", "3"),
                grid_move_more!("15", "13"),
                "7:",
                in("r9") &raw mut state,
                in("r11") &raw const MOVE_TABLES,
                out("rax") status,
                out("r8") _, out("r10") _, out("r12") _,
            )
        };
    }
    unsafe {
        match narrow {
            [true, true] => pair!(narrow, narrow),
            [true, false] => pair!(narrow, wide),
            [false, true] => pair!(wide, narrow),
            [false, false] => pair!(wide, wide),
        }
    }
    let [first, second] = state.games;
    *value0 = first.value as u16;
    *value1 = second.value as u16;
    // SAFETY: the first game's pointer stays within its slice (or one past its end).
    let played = unsafe { first.at.offset_from(start) } as usize;
    match status {
        0 => Ok(()),
        1 => Err((0, played)),
        _ => Err((1, played)),
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
