//! The grid judge's fast path on x86-64: with AVX-512, the window tokenizer of
//! [`crate::input::window`] and the move written out in assembly; with AVX2, the AVX2
//! tokenizer and the same move in its AVX2 form (only the vertical marking differs). Both are
//! compared word for word with the portable move ([`Board::cut`]) after every move in the
//! tests.

use super::{Kernel, Work};
use crate::grid::board::Board;
use crate::grid::judge::Answer;
use crate::grid::lines::{LINE_WORDS, SIDE as MAX_SIDE};
use crate::input::window::{self, Tokens};
use crate::simd::x86::{Avx2Bmi, Avx512Bmi, Avx512Vbmi2};

/// The AVX-512 kernel: holding one proves the CPU has the tokenizer's instructions and the
/// hand-written move's.
#[derive(Debug, Clone, Copy)]
pub(crate) struct GridAvx512 {
    tokenizer: Avx512Vbmi2,
    moves: Avx512Bmi,
}

impl GridAvx512 {
    /// `Some` when the CPU has all of it.
    pub(crate) fn new() -> Option<GridAvx512> {
        Some(GridAvx512 {
            tokenizer: Avx512Vbmi2::new()?,
            moves: Avx512Bmi::new()?,
        })
    }

    /// [`super::run`] with this kernel, compiled for these features.
    pub(crate) fn batch(
        self,
        grid: &mut Board,
        work: &mut Work,
        bytes: &[u8],
        stop: usize,
        limit: usize,
        answers: &mut Vec<Answer>,
    ) -> (usize, usize) {
        // SAFETY: `self` exists, so the CPU has these features (checked in `GridAvx512::new`).
        unsafe { batch_avx512(self, grid, work, bytes, stop, limit, answers) }
    }
}

/// The AVX2 kernel: holding one proves the CPU has AVX2, BMI1, BMI2, LZCNT and POPCNT.
#[derive(Debug, Clone, Copy)]
pub(crate) struct GridAvx2(Avx2Bmi);

impl GridAvx2 {
    /// `Some` when the CPU has all of it.
    pub(crate) fn new() -> Option<GridAvx2> {
        Avx2Bmi::new().map(GridAvx2)
    }

    /// [`super::run`] with this kernel, compiled for these features.
    pub(crate) fn batch(
        self,
        grid: &mut Board,
        work: &mut Work,
        bytes: &[u8],
        stop: usize,
        limit: usize,
        answers: &mut Vec<Answer>,
    ) -> (usize, usize) {
        // SAFETY: `self` exists, so the CPU has these features (checked in `Avx2Bmi::new`).
        unsafe { batch_avx2(self, grid, work, bytes, stop, limit, answers) }
    }
}

impl GridAvx2 {
    /// [`super::play_streams`] with this kernel, compiled for these features.
    pub(crate) fn play(
        self,
        grids: [&mut Board; 2],
        values: &[u16],
        cases: &[(u32, u32)],
        answers: &mut Vec<Answer>,
    ) -> usize {
        // SAFETY: as for `batch`.
        unsafe { play_avx2(self, grids, values, cases, answers) }
    }
}

#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn play_avx2(
    kernel: GridAvx2,
    grids: [&mut Board; 2],
    values: &[u16],
    cases: &[(u32, u32)],
    answers: &mut Vec<Answer>,
) -> usize {
    super::play_streams(kernel, grids, values, cases, answers)
}

impl GridAvx512 {
    /// [`super::play_streams`] with this kernel, compiled for these features.
    pub(crate) fn play(
        self,
        grids: [&mut Board; 2],
        values: &[u16],
        cases: &[(u32, u32)],
        answers: &mut Vec<Answer>,
    ) -> usize {
        // SAFETY: `self` exists, so the CPU has these features (checked in `new`).
        unsafe { play_avx512(self, grids, values, cases, answers) }
    }
}

#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,bmi1,bmi2,lzcnt,popcnt")]
fn play_avx512(
    kernel: GridAvx512,
    grids: [&mut Board; 2],
    values: &[u16],
    cases: &[(u32, u32)],
    answers: &mut Vec<Answer>,
) -> usize {
    super::play_streams(kernel, grids, values, cases, answers)
}

#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn batch_avx2(
    kernel: GridAvx2,
    grid: &mut Board,
    work: &mut Work,
    bytes: &[u8],
    stop: usize,
    limit: usize,
    answers: &mut Vec<Answer>,
) -> (usize, usize) {
    super::run(kernel, grid, work, bytes, stop, limit, answers)
}

impl Kernel for GridAvx2 {
    #[inline(always)]
    fn tokenize(self, window: &[u8], tokens: &mut Tokens) {
        window::x86_64::tokenize_avx2(self.0, window, tokens);
    }

    /// `grid_move!` in its AVX2 form.
    #[inline(always)]
    fn play_moves(self, grid: &mut Board, moves: &[u16]) -> bool {
        // SAFETY: `self` exists, so the CPU has AVX2, BMI1, BMI2 and LZCNT.
        unsafe { play_moves_avx2(grid, moves) }
    }

    #[inline(always)]
    fn play_pair(self, grids: [&mut Board; 2], moves: [&[u16]; 2]) -> Result<(), (usize, usize)> {
        // SAFETY: as for `play_moves`.
        unsafe { play_pair_avx2(grids, moves) }
    }
}

#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,bmi1,bmi2,lzcnt,popcnt")]
fn batch_avx512(
    kernel: GridAvx512,
    grid: &mut Board,
    work: &mut Work,
    bytes: &[u8],
    stop: usize,
    limit: usize,
    answers: &mut Vec<Answer>,
) -> (usize, usize) {
    super::run(kernel, grid, work, bytes, stop, limit, answers)
}

impl Kernel for GridAvx512 {
    fn tokenize(self, window: &[u8], tokens: &mut Tokens) {
        window::x86_64::tokenize(self.tokenizer, window, tokens);
    }

    #[inline(always)]
    fn play_moves(self, grid: &mut Board, moves: &[u16]) -> bool {
        let _ = self.moves;
        // SAFETY: `self.moves` exists, so the CPU has AVX-512F, BMI1, BMI2 and LZCNT.
        unsafe { play_moves_avx512(grid, moves) }
    }

    #[inline(always)]
    fn play_pair(self, grids: [&mut Board; 2], moves: [&[u16]; 2]) -> Result<(), (usize, usize)> {
        // SAFETY: as for `play_moves`.
        unsafe { play_pair_avx512(grids, moves) }
    }
}

/// Byte offsets `grid_move!` uses: the high row words from the low ones, the column words, the
/// grid's sides (all from the start of a [`Board`], where its row words are); the tables.
const RHI: usize = LINE_WORDS * 8;
const CLO: usize = crate::grid::board::COL_WORDS_OFFSET;
const CHI: usize = CLO + RHI;
const ROWS: usize = crate::grid::board::ROWS_OFFSET;
const COLS: usize = crate::grid::board::COLS_OFFSET;
const THI: usize = std::mem::offset_of!(MoveTables, hi);
const BLO: usize = std::mem::offset_of!(MoveTables, bit_lo);
const BHI: usize = std::mem::offset_of!(MoveTables, bit_hi);
const SQ: usize = std::mem::offset_of!(MoveTables, square);
const ONE: usize = BLO + 8;
const LANE: usize = std::mem::offset_of!(MoveTables, lane);
const HALF: usize = std::mem::offset_of!(MoveTables, half);
const UNDER: usize = std::mem::offset_of!(MoveTables, under);
const FROM: usize = std::mem::offset_of!(MoveTables, from);
const BIT: usize = std::mem::offset_of!(MoveTables, bit);
const ONES: usize = 64 * 8;
const _: () = assert!(
    LINE_WORDS >= MAX_SIDE + 16
        && std::mem::offset_of!(MoveTables, lo) == 0
        && std::mem::align_of::<Board>() >= 64
        && UNDER.is_multiple_of(32)
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
    /// All ones for the first [`MAX_SIDE`] words, then 16 zeros: the AVX2 move's masks of the rows
    /// below the rectangle's bottom, from the window at `MAX_SIDE − (bottom − g)` for the group of
    /// rows from `g`.
    under: [u64; MAX_SIDE + 16],
    /// All ones from the fifth word: the AVX2 move's masks of the rows from the rectangle's top
    /// in its first group, from the window at `4 − (top − g0)`.
    from: [u64; 8],
    /// Bit `y % 64`, `y` below 128: the vertical line's bit in its half of the row words.
    bit: [u64; 128],
    /// The Grundy values, 256 × 256: a copy of [`crate::grid::grundy`]'s padded table, here
    /// so that one register reaches every table.
    square: [[u8; 256]; 256],
}

static MOVE_TABLES: MoveTables = {
    let mut t = MoveTables {
        lo: [0; 136],
        hi: [0; 136],
        bit_lo: [0; 136],
        bit_hi: [0; 136],
        lane: [0; 128],
        half: [0; 128],
        under: [0; MAX_SIDE + 16],
        from: [0, 0, 0, 0, u64::MAX, u64::MAX, u64::MAX, u64::MAX],
        bit: [0; 128],
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
        if n < MAX_SIDE {
            t.under[n] = u64::MAX;
        }
        if n < 128 {
            t.bit[n] = 1 << (n % 64);
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

/// `$avx512` in a move for AVX-512 (`grid_move!`'s `avx512`), `$avx2` in one for AVX2.
macro_rules! isa_or {
    (avx512, $avx512:expr, $avx2:expr $(,)?) => {
        $avx512
    };
    (avx2, $avx512:expr, $avx2:expr $(,)?) => {
        $avx2
    };
}

/// One move of the judge's play, as assembly text for `asm!`: the move `[r8]` (row and column
/// from 1, two `u16`) on the [`Board`] at `r10`, its Grundy change XORed into `r12`, with the
/// [`MoveTables`] at `r11`; a jump to `$bad` (with nothing changed) when the move is off the
/// grid or on a forbidden cell. `$isa` is `avx512` or `avx2`: the instructions of its
/// vertical marking (and of row x's span), the rest being the same. `$w` is `wide` for any grid, or `narrow` for a grid of at most
/// 64 rows and columns ([`grid_is_narrow`]), whose high row and column words are all border:
/// that form neither reads nor writes them (about 25 instructions fewer; 3–5 % on the long
/// benchmark input, where 43 % of the moves are on such grids). Rectangles taller than two
/// groups of rows continue in `grid_move_more!` at local label `$more`, placed after the loop,
/// which returns to local label `$back`. Uses rax, rcx, rdx, rsi, rdi, r13–r15, and
/// zmm0–zmm2, zmm4, zmm5 and k1–k3 (`avx512`) or ymm0–ymm4 (`avx2`); leaves r8–r12 as they
/// were.
///
/// It is [`Board::cut`] written out with AVX-512 stores (row x's span is ORed into its
/// lane, the vertical line into the rows, separately). The compiled loop had about 200
/// instructions a move, a dozen of them stack spills; this has about 130 and none. The judge
/// plays two games in turn ([`play_pair_avx512`]), and then the time a move takes follows its
/// instruction count (docs/perf-log.md, the grid judge's `asm!` move and two streams).
///
/// The AVX2 form ORs row x's span in with scalar instructions and marks the vertical line by
/// groups of four rows, four groups always, each group's lanes from unaligned windows of two
/// tables (`{under}` at the rectangle's bottom, `{from}` at its top), one `vpand` a group:
/// about 140 instructions a move against the compiled portable move's 220 (docs/perf-log.md,
/// sessions 16 and 18).
///
/// Named operands (all `const`): `rhi`, the offset of the high row words from the low ones
/// (the same for the columns); `clo`/`chi`, the column words; `rows`/`cols`, the grid's sides;
/// `thi`, `blo`, `bhi`, `lane`, `half`, `under`, `from`, `bit`, `sq`, the tables after
/// [`MoveTables::lo`]; `one` and `ones`, a word 1 and a word of ones in them; `side`,
/// [`MAX_SIDE`].
macro_rules! grid_move {
    ($isa:tt, $w:tt, $bad:literal, $more:literal, $back:literal) => {
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
            // Columns (as `Board::cut`): the cut row joins column `left`; column y + 1 gets the
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
            isa_or!(
                $isa,
                concat!(
                    // Row x takes the span: its lane (k1) of its aligned group of eight rows,
                    // in both halves.
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
                ),
                concat!(
                    // Row x takes the span, in both halves.
                    "or qword ptr [r10 + rcx*8], rax\n",
                    wide_or!($w, "or qword ptr [r10 + rcx*8 + {rhi}], r13\n", ""),
                ),
            ),
            // Bit y (zmm0 or ymm0) in rows top..bottom of the half of the row words
            // holding column y (rsi), by aligned groups of rows from g0 (eax).
            wide_or!(
                $w,
                concat!("mov esi, dword ptr [r11 + rdx*4 + {half}]\n", "add rsi, r10\n"),
                "mov rsi, r10\n",
            ),
            isa_or!(
                $isa,
                concat!(
                    // Groups of eight rows from g0 = top & −8: the first two always (lanes
                    // k2, k3), more in a loop ($more).
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
                ),
                concat!(
                    // Groups of four rows from g0 = top & −4: the first four always, their
                    // lanes from windows of `{under}` (below bottom: from SIDE − (bottom − g0),
                    // rdi) and, for the first group, `{from}` (from top: from 4 − (top − g0),
                    // r13); more in a loop ($more).
                    "vpbroadcastq ymm0, qword ptr [r11 + rdx*8 + {bit}]\n",
                    "mov eax, r15d\n",
                    "and eax, -4\n",
                    "mov r13, rax\n",
                    "sub r13, r15\n",
                    "mov rdi, rax\n",
                    "sub rdi, r14\n",
                    "vpand ymm3, ymm0, ymmword ptr [r11 + rdi*8 + {under} + {side}*8]\n",
                    "vpand ymm3, ymm3, ymmword ptr [r11 + r13*8 + {from} + 32]\n",
                    "vpor ymm3, ymm3, ymmword ptr [rsi + rax*8]\n",
                    "vmovdqa ymmword ptr [rsi + rax*8], ymm3\n",
                    "vpand ymm4, ymm0, ymmword ptr [r11 + rdi*8 + {under} + {side}*8 + 32]\n",
                    "vpor ymm4, ymm4, ymmword ptr [rsi + rax*8 + 32]\n",
                    "vmovdqa ymmword ptr [rsi + rax*8 + 32], ymm4\n",
                    "vpand ymm3, ymm0, ymmword ptr [r11 + rdi*8 + {under} + {side}*8 + 64]\n",
                    "vpor ymm3, ymm3, ymmword ptr [rsi + rax*8 + 64]\n",
                    "vmovdqa ymmword ptr [rsi + rax*8 + 64], ymm3\n",
                    "vpand ymm4, ymm0, ymmword ptr [r11 + rdi*8 + {under} + {side}*8 + 96]\n",
                    "vpor ymm4, ymm4, ymmword ptr [rsi + rax*8 + 96]\n",
                    "vmovdqa ymmword ptr [rsi + rax*8 + 96], ymm4\n",
                ),
            ),
            "add eax, 16\n",
            "cmp eax, r14d\n",
            "jb ", $more, "f\n",
            $back, ":\n",
        )
    };
}

/// The rest of `grid_move!`'s marking, for the moves whose rectangle has rows past the 16 it
/// marks always (about one in seven): groups from eax below bottom (r14d), back to `$back` after.
/// Placed after the loop, so that the usual move runs straight through.
macro_rules! grid_move_more {
    ($isa:tt, $more:literal, $back:literal) => {
        concat!(
            $more,
            ":\n",
            isa_or!(
                $isa,
                concat!(
                    // A group of eight rows: lanes below bottom − eax.
                    "mov r13d, r14d\n",
                    "sub r13d, eax\n",
                    "mov edi, 255\n",
                    "bzhi edi, edi, r13d\n",
                    "kmovw k2, edi\n",
                    "vmovdqa64 zmm4, zmmword ptr [rsi + rax*8]\n",
                    "vporq zmm4 {{k2}}, zmm4, zmm0\n",
                    "vmovdqa64 zmmword ptr [rsi + rax*8], zmm4\n",
                    "add eax, 8\n",
                ),
                concat!(
                    // A group of four rows: lanes l with l < bottom − eax, from the window of
                    // `{under}` at SIDE − (bottom − eax).
                    "mov rdi, rax\n",
                    "sub rdi, r14\n",
                    "vpand ymm4, ymm0, ymmword ptr [r11 + rdi*8 + {under} + {side}*8]\n",
                    "vpor ymm4, ymm4, ymmword ptr [rsi + rax*8]\n",
                    "vmovdqa ymmword ptr [rsi + rax*8], ymm4\n",
                    "add eax, 4\n",
                ),
            ),
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
/// names) and the constants it reads, so that both callers name them alike: for `avx512`,
/// zmm0–zmm2, zmm4, zmm5 and k1–k3; for `avx2`, ymm0–ymm4.
macro_rules! grid_asm {
    (avx512; $($args:tt)*) => {
        grid_asm!(@ $($args)* out("zmm0") _, out("zmm1") _, out("zmm2") _, out("zmm4") _,
            out("zmm5") _, out("k1") _, out("k2") _, out("k3") _,)
    };
    (avx2; $($args:tt)*) => {
        grid_asm!(@ $($args)* out("ymm0") _, out("ymm1") _, out("ymm2") _, out("ymm3") _,
            out("ymm4") _,)
    };
    (@ $($args:tt)*) => {
        std::arch::asm!(
            // Every constant named, for the moves that do not read them all.
            "/* {rhi} {clo} {chi} {rows} {cols} {thi} {blo} {bhi} {sq} {one} {ones} {lane} {half} {under} {from} {bit} {side} */",
            $($args)*
            out("rcx") _, out("rdx") _, out("rsi") _, out("rdi") _,
            out("r13") _, out("r14") _, out("r15") _,
            rhi = const RHI, clo = const CLO, chi = const CHI, rows = const ROWS, cols = const COLS,
            thi = const THI, blo = const BLO, bhi = const BHI, sq = const SQ, one = const ONE,
            ones = const ONES, lane = const LANE, half = const HALF, under = const UNDER,
            from = const FROM, bit = const BIT, side = const MAX_SIDE,
            options(nostack),
        )
    };
}

/// Can `grid_move!` play on `grid` in its `narrow` form: at most 64 rows and columns, so that
/// the high row and column words are all border, which that form neither reads nor writes?
#[inline(always)]
fn grid_is_narrow(grid: &Board) -> bool {
    grid.rows() <= 64 && grid.cols() <= 64
}

/// A game of [`play_pair_avx512`] as its assembly reads it.
#[repr(C)]
struct PairGame {
    /// The next move.
    at: *const u16,
    /// The grid's words ([`Board::raw_parts`]).
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

/// [`Kernel::play_moves`] and [`Kernel::play_pair`] by `grid_move!` for the instructions
/// `$isa` (`avx512` or `avx2`), compiled for `$features`.
// rustfmt re-indents the macros inside this one on every run, never settling.
#[rustfmt::skip]
macro_rules! play_by_asm {
    ($isa:tt, $features:literal, $play_moves:ident, $play_pair:ident, $d:tt) => {
        /// [`Kernel::play_moves`] by `grid_move!`.
        #[target_feature(enable = $features)]
        #[inline]
        fn $play_moves(grid: &mut Board, moves: &[u16]) -> bool {
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
            macro_rules! moves {
                ($d w:tt) => {
                    grid_asm!($isa;
                        "2:",
                        grid_move!($isa, $d w, "8f", "5", "3"),
                        "add r8, 4",
                        "cmp r8, r9",
                        "jne 2b",
                        "jmp 8f",
                        grid_move_more!($isa, "5", "3"),
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
            // SAFETY: `grid_move!` reads the tokens from `at` to `range.end` (two at a time, an even
            // number of them), the tables, and the grid's words at the offsets `position` exports
            // (`CLO`, `ROWS`, ...), at word indices below `LINE_WORDS` (144) by construction: x, y
            // below the sides, which are at most 128 (a `Board`'s invariant; checked first), left,
            // right, top, bottom at most 128, groups from g0 ≤ 120 up to two past it, or below
            // bottom; table indices at most 129, Grundy indices below 256. It writes only the grid's
            // row and column words. The CPU has the instructions (`target_feature`).
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

        /// [`Kernel::play_pair`] by `grid_move!`: one move of each game in turn, the two games'
        /// pointers and values swapped through memory between moves (two copies of the move, so
        /// each game has its own branch history).
        #[target_feature(enable = $features)]
        #[inline]
        fn $play_pair(grids: [&mut Board; 2], moves: [&[u16]; 2]) -> Result<(), (usize, usize)> {
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
            macro_rules! pair {
                ($d a:tt, $d b:tt) => {
                    grid_asm!($isa;
                        "mov r8, qword ptr [r9]",
                        "mov r10, qword ptr [r9 + 8]",
                        "mov r12, qword ptr [r9 + 16]",
                        "2:",
                        grid_move!($isa, $d a, "8f", "5", "3"),
                        "add r8, 4",
                        "mov qword ptr [r9], r8",
                        "mov qword ptr [r9 + 16], r12",
                        "mov r8, qword ptr [r9 + 24]",
                        "mov r10, qword ptr [r9 + 32]",
                        "mov r12, qword ptr [r9 + 40]",
                        grid_move!($isa, $d b, "9f", "15", "13"),
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
                        grid_move_more!($isa, "5", "3"),
                        grid_move_more!($isa, "15", "13"),
                        "7:",
                        in("r9") &raw mut state,
                        in("r11") &raw const MOVE_TABLES,
                        out("rax") status,
                        out("r8") _, out("r10") _, out("r12") _,
                    )
                };
            }
            // SAFETY: as in the one-game move, for each game; `state` is read and written at the
            // offsets of `PairState`, and its `end` is the first game's end (both games have `n`
            // tokens, so the second game's moves stay within its slice).
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
    };
}

play_by_asm!(avx512, "avx512f,bmi1,bmi2,lzcnt", play_moves_avx512, play_pair_avx512, $);
play_by_asm!(avx2, "avx2,bmi1,bmi2,lzcnt", play_moves_avx2, play_pair_avx2, $);

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;
    use crate::grid::judge::random_game;
    use crate::rng::Rng;

    /// Plays whole random games on grids with every side 1..=80 (64 and 65 among them), one
    /// move at a time, on the portable move ([`Board::cut`]) and on `play`, and compares every word of the two
    /// boards (the padding included) and the values after every move; then a forbidden and an
    /// off-grid move, which both must refuse.
    fn same_words_as_portable(play: impl Fn(&mut Board, &[u16]) -> bool) {
        let mut rng = Rng::new(23);
        let mut moves = Vec::new();
        for side in 1..=80u32 {
            for other in [side, 81 - side, rng.range(1, 80)] {
                for (rows, cols) in [(side, other), (other, side)] {
                    random_game(&mut rng, rows, cols, &mut moves);
                    let (mut plain, mut fast) = (Board::new(), Board::new());
                    plain.reset(rows as usize, cols as usize);
                    fast.reset(rows as usize, cols as usize);
                    for (k, cell) in moves.iter().enumerate() {
                        let mv = [cell.row as u16, cell.col as u16];
                        assert!(super::super::play_each::<true>(&mut plain, &mv));
                        assert!(play(&mut fast, &mv), "{rows} × {cols}, move {k}");
                        assert!(
                            plain.words() == fast.words() && plain.value() == fast.value(),
                            "{rows} × {cols}, move {k} at {cell}:\n{plain:?}\n{fast:?}"
                        );
                    }
                    if let Some(cell) = moves.first() {
                        assert!(!play(&mut fast, &[cell.row as u16, cell.col as u16]));
                    }
                    assert!(!play(&mut fast, &[rows as u16 + 1, 1]));
                    assert!(!play(&mut fast, &[1, 0]));
                }
            }
        }
    }

    #[test]
    #[cfg_attr(miri, ignore)]
    fn avx512_move_has_the_portable_words_after_every_move() {
        let Some(kernel) = GridAvx512::new() else {
            let _ = writeln!(
                std::io::stderr(),
                "note: avx512_move_has_the_portable_words_after_every_move: skipped, this CPU \
                 has no AVX-512 (F, BW, VBMI, VBMI2) with BMI2 and LZCNT"
            );
            return;
        };
        same_words_as_portable(|board, mv| kernel.play_moves(board, mv));
    }

    #[test]
    #[cfg_attr(miri, ignore)]
    fn avx2_move_has_the_portable_words_after_every_move() {
        let Some(kernel) = GridAvx2::new() else {
            let _ = writeln!(
                std::io::stderr(),
                "note: avx2_move_has_the_portable_words_after_every_move: skipped, this CPU \
                 has no AVX2 with BMI2 and LZCNT"
            );
            return;
        };
        same_words_as_portable(|board, mv| {
            // SAFETY: `kernel` exists, so the CPU has the features.
            unsafe { play_avx2(kernel, board, mv) }
        });
    }

    /// [`GridAvx2::play_moves`] compiled as in [`batch_avx2`].
    ///
    /// # Safety
    /// The CPU must have AVX2, BMI1, BMI2, LZCNT and POPCNT.
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    unsafe fn play_avx2(kernel: GridAvx2, board: &mut Board, moves: &[u16]) -> bool {
        kernel.play_moves(board, moves)
    }
}
