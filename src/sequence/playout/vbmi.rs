//! [`Game::playout`] on AVX-512 VBMI: each colour's cube held in one 512-bit register (lane z
//! the layer z, bit `x + 8y` the cell), a ball's 13 directions tested on it without the line
//! bytes:
//!
//! - the 8 directions that climb a layer a step (`dz = 1`, `dx, dy` not both 0): one
//!   `vpmultishiftqb` gathers, for every layer z' and direction, the bit of the cell where
//!   the direction's line through the ball crosses layer z'; a run of m set bits down the
//!   layers is a sequence;
//! - the 4 directions within the ball's layer: the layer's runs by rotate-and steps;
//! - the column: the layers where the ball's peg holds the colour.
//!
//! Rows and columns 7 of every layer are off the board (n ≤ 7) and empty, so a line that
//! leaves the board through a side, rotated round the 64 bits, meets an empty cell first.
//!
//! The decisive playout reads a ball's new threats off the runs beside each ray cell. For
//! m = n and m = n − 1, where a line of the board holds one or two windows of m cells, it
//! counts the colour's cells in each window through the ball instead (the climbing rays turned by one `vpermb` into a lane a
//! direction, then each lane summed by `vpsadbw`, as are the lines of the ball's layer): a
//! win is m of them, a threat m − 1 and an empty cell.
//!
//! Only the cube (the x lines, the first 64 line bytes) is written back: the other line bytes
//! are left without the playout's balls, and [`Game::undo`] marks them when it takes the game
//! back to an undecided position (see `Game::unmarked`).

use std::arch::x86_64::*;

use super::decisive::{choose, decided, refresh_peg};
use super::{OpenPegs, PEGS, SHIFTS, ended, open_peg};
use crate::rng::Rng;
use crate::sequence::cube::{BOARDS, Cube, RUNS};
use crate::sequence::game::{Game, MAX_MOVES};
use crate::sequence::zobrist;
use crate::sequence::{Color, Outcome};
use crate::simd::x86::Avx512Vbmi;

/// The steps `(dx, dy)` within a layer of the 8 climbing directions (`dz = 1`).
const CLIMB_XY: [(i32, i32); 8] = [
    (1, 0),
    (0, 1),
    (1, 1),
    (-1, 1),
    (-1, 0),
    (0, -1),
    (-1, -1),
    (1, -1),
];

/// The in-layer step of each of the 8 climbing directions (`dx + 8 dy`).
const CLIMB: [i32; 8] = {
    let mut steps = [0; 8];
    let mut i = 0;
    while i < 8 {
        steps[i] = CLIMB_XY[i].0 + 8 * CLIMB_XY[i].1;
        i += 1;
    }
    steps
};

/// `GATHER[z]`, byte `8 z' + i`: where (mod 64) direction `i`'s line through a ball of layer
/// z crosses layer z', less the ball's own bit `x + 8y`.
#[repr(C, align(64))]
struct Gather([[u8; 64]; 8]);

static GATHER: Gather = {
    let mut table = [[0u8; 64]; 8];
    let mut z = 0;
    while z < 8 {
        let mut layer = 0;
        while layer < 8 {
            let mut i = 0;
            while i < 8 {
                let k = layer as i32 - z as i32;
                table[z][8 * layer + i] = (k * CLIMB[i]).rem_euclid(64) as u8;
                i += 1;
            }
            layer += 1;
        }
        z += 1;
    }
    Gather(table)
};

/// The rotations of the in-layer run test for m, `ROTATIONS[m][step]`: lane `i` rotates by
/// `k × [1, 8, 9, 7][i % 4]` (x, y and the two diagonals), k the step's shift of
/// [`SHIFTS`].
#[repr(C, align(64))]
struct Rotations([[[u64; 8]; 3]; 9]);

static ROTATIONS: Rotations = {
    const STEP: [u64; 4] = [1, 8, 9, 7];
    let mut table = [[[0u64; 8]; 3]; 9];
    let mut m = 0;
    while m < 9 {
        let mut step = 0;
        while step < 3 {
            let mut lane = 0;
            while lane < 8 {
                table[m][step][lane] = (SHIFTS[m][step] as u64 * STEP[lane % 4]) % 64;
                lane += 1;
            }
            step += 1;
        }
        m += 1;
    }
    Rotations(table)
};

/// [`Game::playout`] on AVX-512 VBMI, for `3 ≤ m` (an undecided game).
pub(super) fn playout(game: &mut Game, rng: &mut Rng, token: Avx512Vbmi) -> Outcome {
    // SAFETY: `token` exists, so the CPU has AVX-512 F, BW and VBMI.
    unsafe { playout_vbmi(game, rng, token) }
}

#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn playout_vbmi(game: &mut Game, rng: &mut Rng, _: Avx512Vbmi) -> Outcome {
    debug_assert!(game.outcome.is_none() && game.m >= 3);
    let m = usize::from(game.m);
    let cube = |color: Color| {
        // SAFETY: a `Cube` is eight `u64` words: 64 bytes, any alignment for `loadu`.
        unsafe { _mm512_loadu_si512(game.cube(color).0.as_ptr().cast()) }
    };
    let start = game.len;
    let mut p = Vbmi {
        n: game.n,
        area: u64::from(game.n).pow(2),
        cells: usize::from(game.n).pow(3),
        pegs: &PEGS[usize::from(game.n)],
        len: usize::from(game.len),
        rng: rng.clone(),
        hash: game.hash,
        black: cube(Color::Black),
        white: cube(Color::White),
        runs: &RUNS[m],
        climb_steps: SHIFTS[m].map(|k| 8 * u32::from(k)),
        // SAFETY: `ROTATIONS` rows are 64-byte aligned arrays of eight words.
        rotations: ROTATIONS.0[m]
            .each_ref()
            .map(|row| unsafe { _mm512_load_si512(row.as_ptr().cast()) }),
        heights: &mut game.heights,
        moves: &mut game.moves,
    };
    let quiet = 2 * m - 2;
    while p.len < quiet {
        let r = p.rng.next_u64() as u32;
        if p.len & 1 == 0 {
            p.drop::<0, false>(r);
        } else {
            p.drop::<1, false>(r);
        }
    }
    let won = 'game: {
        if p.len & 1 == 1 {
            let r = p.rng.next_u64() as u32;
            if p.drop::<1, true>(r) {
                break 'game true;
            }
            if p.len == p.cells {
                break 'game false;
            }
        }
        loop {
            let r = p.rng.next_u64();
            if p.drop::<0, true>(r as u32) {
                break true;
            }
            if p.len == p.cells {
                break false;
            }
            if p.drop::<1, true>((r >> 32) as u32) {
                break true;
            }
            if p.len == p.cells {
                break false;
            }
        }
    };
    let (len, hash, black, white) = (p.len as u32, p.hash, p.black, p.white);
    *rng = p.rng;
    for (lines, cube) in game.lines.iter_mut().zip([black, white]) {
        // SAFETY: the first 64 line bytes are the cube; `storeu` takes any alignment.
        unsafe { _mm512_storeu_si512(lines.as_mut_ptr().cast(), cube) };
    }
    game.hash = hash;
    game.len = len as u16;
    game.unmarked = game.unmarked.min(start);
    let outcome = ended(won, len);
    game.outcome = Some(outcome);
    game.threats_valid = false;
    outcome
}

/// The state of the playout's loop, held in locals (the cubes in registers).
struct Vbmi<'a> {
    n: u8,
    area: u64,
    cells: usize,
    pegs: &'a [u8; 64],
    len: usize,
    rng: Rng,
    hash: u64,
    black: __m512i,
    white: __m512i,
    /// `RUNS[m]`: the column test.
    runs: &'static [u8; 256],
    /// The climbing directions' run test: shifts by whole layers (8 bits).
    climb_steps: [u32; 3],
    /// The in-layer run test's rotations, [`ROTATIONS`] of m.
    rotations: [__m512i; 3],
    heights: &'a mut [u8; 64],
    moves: &'a mut [u8; MAX_MOVES],
}

impl Vbmi<'_> {
    /// Drops a ball of colour `C` on a uniformly random open peg (as `Playout::drop` chooses
    /// it) and, when `CHECK`, says whether it makes a sequence.
    #[inline(always)]
    fn drop<const C: usize, const CHECK: bool>(&mut self, r: u32) -> bool {
        let mut peg = usize::from(self.pegs[((u64::from(r) * self.area) >> 32) as usize & 63]) & 63;
        if self.heights[peg] >= self.n {
            peg = open_peg(&mut self.rng, self.heights, self.pegs, self.area, self.n);
        }
        let z = self.heights[peg];
        self.heights[peg] = z + 1;
        self.moves[self.len] = peg as u8;
        self.len += 1;
        let b = peg | usize::from(z) << 6;
        self.hash ^= zobrist::key(C, b);
        // SAFETY: a `Vbmi` is only made in `playout_vbmi`, whose CPU has AVX-512 F, BW and
        // VBMI; `GATHER` rows are 64-byte aligned.
        unsafe {
            let ball = _mm512_set1_epi64((1u64 << peg) as i64);
            let cube = if C == 0 {
                &mut self.black
            } else {
                &mut self.white
            };
            *cube = _mm512_mask_or_epi64(*cube, 1 << (z & 7), *cube, ball);
            if !CHECK {
                return false;
            }
            let cube = *cube;
            // The column: the layers where this peg holds the colour.
            let column = self.runs[usize::from(_mm512_test_epi64_mask(cube, ball))];
            // The climbing directions: bit i of byte z' is direction i's cell in layer z'.
            let at = _mm512_add_epi8(
                _mm512_load_si512(GATHER.0[usize::from(z) & 7].as_ptr().cast()),
                _mm512_set1_epi8(peg as i8),
            );
            let rays = _mm512_multishift_epi64_epi8(at, cube);
            let mut climb = _mm512_test_epi8_mask(rays, _mm512_set1_epi8(1));
            for shift in self.climb_steps {
                climb &= climb >> shift;
            }
            // The ball's layer, four directions (twice) by rotate-and steps.
            let mut flat = _mm512_permutexvar_epi64(_mm512_set1_epi64(i64::from(z)), cube);
            for rotation in self.rotations {
                flat = _mm512_and_si512(flat, _mm512_rorv_epi64(flat, rotation));
            }
            let flat = _mm512_test_epi64_mask(flat, flat);
            (climb | u64::from(flat) | u64::from(column)) != 0
        }
    }
}

/// `FLAT`, byte `4 pos + d` for `pos < 13`: where (mod 64) the ball's line of in-layer
/// direction d (x, y and the two diagonals: steps 1, 8, 9, 7) holds its cell `pos − 6` steps
/// away, less the ball's own bit; bytes 52.. are 0 (their bits are dropped by [`FLAT_USED`]).
static FLAT: Gather = {
    const STEP: [i32; 4] = [1, 8, 9, 7];
    let mut table = [[0u8; 64]; 8];
    let mut j = 0;
    while j < 52 {
        let k = (j / 4) as i32 - 6;
        table[0][j] = (k * STEP[j % 4]).rem_euclid(64) as u8;
        j += 1;
    }
    Gather(table)
};

/// The bits of the 13 × 4 in-layer ray cells.
const FLAT_USED: u64 = (1 << 52) - 1;

/// The in-layer windows (m cells in a row) through each peg of a side-n board, for m = n and
/// m = n − 1, where a line holds at most `w = n − m + 1` of them: `WINDOW_FLAT[w − 1][n − 3]
/// .0[peg]`, lane `w·d + j` (d: x, y, the diagonal, the anti-diagonal; j: the line's j-th
/// window through the peg), byte k: the bit `x + 8y` of the window's cell k; bit 63 (off the
/// board, never set) for the bytes of no cell.
#[repr(C, align(64))]
struct WindowFlat([[u8; 64]; 64]);

/// The in-layer directions of [`WINDOW_FLAT`]'s lanes: x, y, the diagonal, the anti-diagonal.
const FLAT_XY: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

static WINDOW_FLAT: [[WindowFlat; 5]; 2] = {
    let mut tables = [const { [const { WindowFlat([[63; 64]; 64]) }; 5] }; 2];
    let mut w = 1;
    while w <= 2 {
        let mut n = 3;
        while n <= 7 {
            let m = n + 1 - w;
            let mut peg = 0;
            while peg < 64 && m >= 3 {
                let (x, y) = ((peg % 8) as i32, (peg / 8) as i32);
                let mut d = 0;
                while d < 4 && on_board(x, y, n) {
                    let (dx, dy) = FLAT_XY[d];
                    // `back` cells of the line before the peg; its windows of m that hold the
                    // peg start `before` = back, back − 1, ... 0 cells before it.
                    let mut back = 0;
                    while on_board(x - (back + 1) * dx, y - (back + 1) * dy, n) {
                        back += 1;
                    }
                    let mut lane = w * d;
                    let mut before = back;
                    while before >= 0 {
                        let (x0, y0) = (x - before * dx, y - before * dy);
                        let last = m as i32 - 1;
                        if before <= last && on_board(x0 + last * dx, y0 + last * dy, n) {
                            let mut k = 0;
                            while k < m {
                                let (cx, cy) = (x0 + k as i32 * dx, y0 + k as i32 * dy);
                                tables[w - 1][n - 3].0[peg][8 * lane + k] = (cx + 8 * cy) as u8;
                                k += 1;
                            }
                            lane += 1;
                        }
                        before -= 1;
                    }
                    d += 1;
                }
                peg += 1;
            }
            n += 1;
        }
        w += 1;
    }
    tables
};

/// Whether `(x, y)` is on a side-n board.
const fn on_board(x: i32, y: i32, n: usize) -> bool {
    0 <= x && x < n as i32 && 0 <= y && y < n as i32
}

/// The windows of m cells through each cell of a side-n board that count, for m = n and
/// m = n − 1 (`w = n − m + 1`): `WINDOW_LINES[w − 1][n − 3][cell]`, bit `8i + j`: the window
/// of climbing direction i ([`CLIMB`]) from layer j to layer `j + m − 1` holds the cell and
/// lies on the board; bit `8l + w` for every lane l of [`WINDOW_FLAT`] (whose lanes of no
/// window hold no cell).
static WINDOW_LINES: [[[u64; 512]; 5]; 2] = {
    let mut tables = [[[0u64; 512]; 5]; 2];
    let mut w = 1;
    while w <= 2 {
        let mut n = 3;
        while n <= 7 {
            let m = n + 1 - w;
            let mut cell = 0;
            while cell < 512 && m >= 3 {
                let (x, y, z) = ((cell % 8) as i32, (cell / 8 % 8) as i32, (cell / 64) as i32);
                if on_board(x, y, n) && z < n as i32 {
                    tables[w - 1][n - 3][cell] = 0x0101_0101_0101_0101 << w;
                    let mut i = 0;
                    while i < 8 {
                        let (dx, dy) = CLIMB_XY[i];
                        let mut j = 0;
                        while j < w as i32 {
                            // The window's ends, in layers from the cell.
                            let (low, high) = (j - z, j + m as i32 - 1 - z);
                            if low <= 0
                                && 0 <= high
                                && on_board(x + low * dx, y + low * dy, n)
                                && on_board(x + high * dx, y + high * dy, n)
                            {
                                tables[w - 1][n - 3][cell] |= 1 << (8 * i as i32 + j);
                            }
                            j += 1;
                        }
                        i += 1;
                    }
                }
                cell += 1;
            }
            n += 1;
        }
        w += 1;
    }
    tables
};

/// `TRANSPOSE`, byte `8i + z`: `8z + i`, the index that turns the climbing rays' lanes of
/// layers into lanes of directions (`vpermb`).
static TRANSPOSE: Gather = {
    let mut table = [[0u8; 64]; 8];
    let mut j = 0;
    while j < 64 {
        table[0][j] = ((j % 8) * 8 + j / 8) as u8;
        j += 1;
    }
    Gather(table)
};

/// Bit i: bit 8i of `x`.
#[inline(always)]
fn byte_bits(x: u64) -> u64 {
    ((x & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

/// The cells with a run of `M − 1` cells of `own` beside them along their direction, on one
/// side or split between both, in a ray mask `own` (bit `stride × pos + d`: the cell `pos`
/// steps along direction d): the empty ones are threats, and the ball's own cell is there
/// when it completes a run of M.
#[inline(always)]
fn beside_runs<const M: usize>(own: u64, stride: u32) -> u64 {
    // below[j]: the j cells before are own; above[j]: the j cells after.
    let (mut below, mut above) = ([!0u64; 8], [!0u64; 8]);
    for j in 1..M {
        below[j] = below[j - 1] & own << (stride * j as u32);
        above[j] = above[j - 1] & own >> (stride * j as u32);
    }
    let mut found = 0;
    for j in 0..M {
        found |= below[j] & above[M - 1 - j];
    }
    found
}

/// [`Game::playout_decisive`]'s loop on AVX-512 VBMI, for `3 ≤ m`: the same balls, the
/// cubes in registers, a ball's win and new threats from its rays (see the module's
/// documentation). Returns whether the game was won; `game`'s length, key, heights, moves,
/// cube bytes and (with the cells filled left in them) threats are updated.
pub(super) fn decisive(
    game: &mut Game,
    open: OpenPegs,
    playable: [u64; 2],
    rng: &mut Rng,
    token: Avx512Vbmi,
) -> bool {
    // SAFETY: `token` exists, so the CPU has AVX-512 F, BW and VBMI.
    unsafe {
        match game.m {
            // m = n and m = n − 1: a line holds at most one or two windows of m.
            3 if game.n == 3 => decisive_vbmi::<3, 1>(game, open, playable, rng, token),
            3 if game.n == 4 => decisive_vbmi::<3, 2>(game, open, playable, rng, token),
            4 if game.n == 4 => decisive_vbmi::<4, 1>(game, open, playable, rng, token),
            4 if game.n == 5 => decisive_vbmi::<4, 2>(game, open, playable, rng, token),
            5 if game.n == 5 => decisive_vbmi::<5, 1>(game, open, playable, rng, token),
            5 if game.n == 6 => decisive_vbmi::<5, 2>(game, open, playable, rng, token),
            6 if game.n == 6 => decisive_vbmi::<6, 1>(game, open, playable, rng, token),
            6 if game.n == 7 => decisive_vbmi::<6, 2>(game, open, playable, rng, token),
            7 => decisive_vbmi::<7, 1>(game, open, playable, rng, token),
            3 => decisive_vbmi::<3, 0>(game, open, playable, rng, token),
            4 => decisive_vbmi::<4, 0>(game, open, playable, rng, token),
            _ => decisive_vbmi::<5, 0>(game, open, playable, rng, token),
        }
    }
}

#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn decisive_vbmi<const M: usize, const W: usize>(
    game: &mut Game,
    open: OpenPegs,
    playable: [u64; 2],
    rng: &mut Rng,
    _: Avx512Vbmi,
) -> bool {
    debug_assert!(game.outcome.is_none() && usize::from(game.m) == M);
    let cube = |color: Color| {
        // SAFETY: a `Cube` is eight `u64` words: 64 bytes, any alignment for `loadu`.
        unsafe { _mm512_loadu_si512(game.cube(color).0.as_ptr().cast()) }
    };
    let board = BOARDS[usize::from(game.n) & 7];
    let start = game.len;
    let mut p = VbmiDecisive {
        n: game.n,
        cells: usize::from(game.n).pow(3),
        len: usize::from(game.len),
        hash: game.hash,
        cubes: [cube(Color::Black), cube(Color::White)],
        // SAFETY: a `Cube` is 64 bytes.
        board: unsafe { _mm512_loadu_si512(board.0.as_ptr().cast()) },
        threats: game.threats,
        playable,
        open,
        heights: &mut game.heights,
        moves: &mut game.moves,
    };
    let mut local = rng.clone();
    let won = 'game: {
        if p.len & 1 == 1
            && let Some(won) = p.step::<1, M, W>(&mut local)
        {
            break 'game won;
        }
        loop {
            if let Some(won) = p.step::<0, M, W>(&mut local) {
                break 'game won;
            }
            if let Some(won) = p.step::<1, M, W>(&mut local) {
                break 'game won;
            }
        }
    };
    *rng = local;
    let (len, hash, cubes, threats) = (p.len, p.hash, p.cubes, p.threats);
    for (lines, cube) in game.lines.iter_mut().zip(cubes) {
        // SAFETY: the first 64 line bytes are the cube; `storeu` takes any alignment.
        unsafe { _mm512_storeu_si512(lines.as_mut_ptr().cast(), cube) };
    }
    game.len = len as u16;
    game.hash = hash;
    game.threats = threats;
    game.unmarked = game.unmarked.min(start);
    won
}

/// The state of the decisive loop, held in locals (the cubes in registers).
struct VbmiDecisive<'a> {
    n: u8,
    cells: usize,
    len: usize,
    hash: u64,
    cubes: [__m512i; 2],
    /// The board's cells, by layer.
    board: __m512i,
    /// Each colour's threats, and (not cleared until the end) cells filled since the start.
    threats: [Cube; 2],
    /// Per colour, the pegs whose next cell is a threat of that colour: exact after every
    /// ball.
    playable: [u64; 2],
    open: OpenPegs,
    heights: &'a mut [u8; 64],
    moves: &'a mut [u8; MAX_MOVES],
}

impl VbmiDecisive<'_> {
    /// Plays one ball of colour `C` as `Decisive::step` does: a win if it can, else a block,
    /// else a random open peg. `Some(won)` when the game is decided.
    #[inline(always)]
    fn step<const C: usize, const M: usize, const W: usize>(
        &mut self,
        rng: &mut Rng,
    ) -> Option<bool> {
        let b = choose::<C>(&self.playable, self.heights, &self.open, rng);
        let (peg, z) = (b & 63, b >> 6);
        self.heights[peg] = z as u8 + 1;
        self.moves[self.len] = peg as u8;
        self.len += 1;
        self.hash ^= zobrist::key(C, b);
        let above = z + 1 < usize::from(self.n);
        if !above {
            self.open.remove(peg);
        }
        // SAFETY: a `VbmiDecisive` is only made in `decisive_vbmi`, whose CPU has AVX-512 F,
        // BW and VBMI; `GATHER` and `FLAT` rows are 64-byte aligned.
        let (won, climb, flat, column) = unsafe {
            let ball = _mm512_set1_epi64((1u64 << peg) as i64);
            let own = _mm512_mask_or_epi64(self.cubes[C], 1 << (z & 7), self.cubes[C], ball);
            self.cubes[C] = own;
            let filled = _mm512_or_si512(own, self.cubes[C ^ 1]);
            let ones = _mm512_set1_epi8(1);
            let rays = |at: __m512i, cube: __m512i| {
                _mm512_test_epi8_mask(_mm512_multishift_epi64_epi8(at, cube), ones)
            };
            // The column: the run of the colour down from the ball.
            let column = u64::from(_mm512_test_epi64_mask(own, ball));
            let run = (!(column << (63 - z))).leading_zeros() as usize;
            // The 8 climbing directions, through every layer.
            let at = _mm512_add_epi8(
                _mm512_load_si512(GATHER.0[z & 7].as_ptr().cast()),
                _mm512_set1_epi8(peg as i8),
            );
            let layer = _mm512_set1_epi64(z as i64);
            let (won, climb, flat) = if W > 0 {
                window_rays::<M, W>(own, filled, self.board, at, layer, peg, b, run)
            } else {
                let mine = rays(at, own);
                let climb = beside_runs::<M>(mine, 8);
                // The 4 directions in the ball's layer, 6 cells either side.
                let flat_at = _mm512_add_epi8(
                    _mm512_load_si512(FLAT.0[0].as_ptr().cast()),
                    _mm512_set1_epi8(peg as i8),
                );
                let flat_mine = rays(flat_at, _mm512_permutexvar_epi64(layer, own)) & FLAT_USED;
                let flat = beside_runs::<M>(flat_mine, 4);
                // The ball's cells in the ray masks: byte z of the climbing rays, cell 6 of
                // the layer's. The other cells found are threats when empty and on the board:
                // mostly there are none, and the empty cells are not gathered.
                let (climb_ball, flat_ball) = (0xff << (8 * (z & 7)), 0xf << 24);
                let won = run >= M || climb & climb_ball | flat & flat_ball != 0;
                let (mut climb, mut flat) = (climb & !climb_ball, flat & !flat_ball);
                if climb | flat != 0 {
                    let open = _mm512_andnot_si512(filled, self.board);
                    climb &= rays(at, open);
                    flat &= rays(flat_at, _mm512_permutexvar_epi64(layer, open)) & FLAT_USED;
                }
                (won, climb, flat)
            };
            (won, climb, flat, above && run >= M - 1)
        };
        if climb | flat != 0 || column {
            // The in-layer cells' table: offsets from the peg, or the peg's windows of m.
            let flat_cells = if W > 0 {
                (&WINDOW_FLAT[W - 1][usize::from(self.n) - 3].0[peg], 0)
            } else {
                (&FLAT.0[0], peg)
            };
            self.playable[C] |= add_threats(
                &mut self.threats[C],
                self.heights,
                (peg, z),
                (climb, flat, column),
                flat_cells,
            );
        }
        refresh_peg(&mut self.playable, &self.threats, peg, z, above);
        decided(won, self.len, self.cells)
    }
}

/// For m = n (`W` = 1) and m = n − 1 (`W` = 2), where a line of the board holds at most `W`
/// windows of m cells: the win and the new threats of a ball at `peg`, layer z (cell `b`),
/// whose colour's cube is now `own` (`filled`: both colours'), from the count of its colour in
/// each window through it. `at` gathers the climbing rays ([`GATHER`]), `layer` is z in every
/// lane and `run` the colour's run down the column. Returns the win and the threats, in the
/// climbing rays' layout (bit `8z' + i`) and in the lanes of [`WINDOW_FLAT`] (bit
/// `8·lane + k`).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn window_rays<const M: usize, const W: usize>(
    own: __m512i,
    filled: __m512i,
    board: __m512i,
    at: __m512i,
    layer: __m512i,
    peg: usize,
    b: usize,
    run: usize,
) -> (bool, u64, u64) {
    // SAFETY: the caller's CPU has AVX-512 F, BW and VBMI; `WINDOW_FLAT` and `TRANSPOSE`
    // rows are 64-byte aligned.
    unsafe {
        let n = M + W - 1;
        let ones = _mm512_set1_epi8(1);
        let zero = _mm512_setzero_si512();
        // Window j of a climbing line takes layers j..j + M.
        let layers = |j: usize| ((1u64 << (8 * M)) - 1) << (8 * j);
        // The climbing directions: byte i of lane z' is 1 when direction i's cell in layer z'
        // is the colour's; transposed (lane i, byte z'), a lane's bytes summed count them.
        let climb_rays = _mm512_and_si512(_mm512_multishift_epi64_epi8(at, own), ones);
        let transpose = _mm512_load_si512(TRANSPOSE.0[0].as_ptr().cast());
        let by_direction = _mm512_permutexvar_epi8(transpose, climb_rays);
        let window = |j: usize| {
            let bytes = _mm512_set1_epi64(layers(j) as i64);
            _mm512_sad_epu8(_mm512_and_si512(by_direction, bytes), zero)
        };
        // The windows of the ball's layer: byte k of a lane is 1 when the window's cell k is
        // the colour's; a lane's bytes summed count them.
        let flat_at = _mm512_load_si512(WINDOW_FLAT[W - 1][n - 3].0[peg & 63].as_ptr().cast());
        let flat_rays = _mm512_and_si512(
            _mm512_multishift_epi64_epi8(flat_at, _mm512_permutexvar_epi64(layer, own)),
            ones,
        );
        let flat_counts = _mm512_sad_epu8(flat_rays, zero);
        // Byte 8i + j of lane i: climbing direction i's window j count; byte 8l + W: the
        // layer's window l (0 for the lanes of none). Only the climbing windows on the board
        // that hold the ball count (the other rays wrap round the layers).
        let counts = if W == 1 {
            let climb = _mm512_sad_epu8(by_direction, zero);
            _mm512_or_si512(climb, _mm512_slli_epi64::<8>(flat_counts))
        } else {
            let climb = _mm512_or_si512(window(0), _mm512_slli_epi64::<8>(window(1)));
            _mm512_or_si512(climb, _mm512_slli_epi64::<16>(flat_counts))
        };
        let lines = WINDOW_LINES[W - 1][n - 3][b & 511];
        let count = |k: usize| _mm512_cmpeq_epi8_mask(counts, _mm512_set1_epi8(k as i8)) & lines;
        let (full, near) = (count(M), count(M - 1));
        let won = run >= M || full != 0;
        let (mut climb, mut flat) = (0, 0);
        if near != 0 {
            // A window with M − 1 of the colour: its other cell, a threat when it is empty.
            let holes = !_mm512_test_epi8_mask(climb_rays, climb_rays);
            for j in 0..W {
                let directions = byte_bits(near >> j);
                climb |= holes & directions.wrapping_mul(0x0101_0101_0101_0101) & layers(j);
            }
            let want = _mm512_maskz_mov_epi64(
                byte_bits(near >> W) as u8,
                _mm512_set1_epi64((layers(0) & 0x0101_0101_0101_0101) as i64),
            );
            flat = _mm512_test_epi8_mask(_mm512_andnot_si512(flat_rays, want), ones);
            let open = _mm512_andnot_si512(filled, board);
            climb &= _mm512_test_epi8_mask(_mm512_multishift_epi64_epi8(at, open), ones);
            flat &= _mm512_test_epi8_mask(
                _mm512_multishift_epi64_epi8(flat_at, _mm512_permutexvar_epi64(layer, open)),
                ones,
            );
        }
        (won, climb, flat)
    }
}

/// Adds the threats that a ball at `peg`, layer `z` found (ray masks `climb` and `flat`, and
/// the cell above it when `column`) to its colour's threat cube; returns the pegs of those
/// that are playable. Out of line: the loop's state stays in registers.
#[inline(never)]
fn add_threats(
    threats: &mut Cube,
    heights: &[u8; 64],
    (peg, z): (usize, usize),
    (mut climb, mut flat, column): (u64, u64, bool),
    (flat_cells, flat_base): (&[u8; 64], usize),
) -> u64 {
    let mut playable = 0;
    let mut add = |q: usize, layer: usize| {
        let q = q & 63;
        threats.0[layer & 7] |= 1 << q;
        if usize::from(heights[q]) == layer {
            playable |= 1 << q;
        }
    };
    while climb != 0 {
        let j = climb.trailing_zeros() as usize;
        climb &= climb - 1;
        add(peg + usize::from(GATHER.0[z & 7][j]), j >> 3);
    }
    while flat != 0 {
        let j = flat.trailing_zeros() as usize;
        flat &= flat - 1;
        add(flat_base + usize::from(flat_cells[j]), z);
    }
    if column {
        add(peg, z + 1);
    }
    playable
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The AVX-512 playout called directly (whatever `BITGAMES_SIMD` says): the portable
    /// playout's moves, outcome, key, cube and generator state from every size and from
    /// positions part played; after an undo, the same line bytes, every one marked.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn vbmi_playout_is_the_portable_playout() {
        let Some(token) = Avx512Vbmi::new() else {
            eprintln!("skipped: this CPU has no AVX-512 VBMI");
            return;
        };
        let mut rng = Rng::new(5);
        let mut games = 0;
        for n in 3..=7 {
            for m in 3..=n {
                for trial in 0..200u32 {
                    let mut start = Game::new(n, m).unwrap();
                    for _ in 0..trial % 23 {
                        let open: Vec<_> = start.legal_moves().collect();
                        let p = open[rng.below(open.len() as u32) as usize];
                        if start.play(p.x, p.y).unwrap().is_some() {
                            start.undo();
                            break;
                        }
                    }
                    let seed = rng.next_u64();
                    let (mut fast, mut slow) = (start.clone(), start.clone());
                    let (mut fast_rng, mut slow_rng) = (Rng::new(seed), Rng::new(seed));
                    let outcome = playout(&mut fast, &mut fast_rng, token);
                    assert_eq!(outcome, slow.playout_portable(&mut slow_rng));
                    assert_eq!(fast_rng.next_u64(), slow_rng.next_u64());
                    assert!(fast == slow, "n {n} m {m} trial {trial}");
                    assert_eq!(fast.unmarked, start.len);
                    for color in [Color::Black, Color::White] {
                        assert_eq!(fast.cube(color), slow.cube(color));
                    }
                    // Back to an undecided position: every line byte as the portable game's.
                    let back = (trial % 3 + 1).min(u32::from(fast.len - start.len));
                    for _ in 0..back {
                        assert_eq!(fast.undo(), slow.undo());
                    }
                    assert!(fast.lines == slow.lines, "n {n} m {m} trial {trial}");
                    fast.rewind_to(&start);
                    assert!(fast.lines == start.lines && fast == start);
                    games += 1;
                }
            }
        }
        assert_eq!(games, 15 * 200);
    }

    /// The AVX-512 decisive playout (through [`Game::playout_decisive`], which takes it on
    /// this CPU unless `BITGAMES_SIMD` caps it): the line bytes' moves, outcome, key, cube,
    /// threats and generator state from every size and from positions part played; after an
    /// undo, the same line bytes.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn vbmi_decisive_playout_is_the_line_bytes_playout() {
        if Avx512Vbmi::new().is_none()
            || crate::simd::Backend::detect() != crate::simd::Backend::Avx512
        {
            eprintln!("skipped: this CPU has no AVX-512 VBMI, or BITGAMES_SIMD caps it");
            return;
        }
        let mut rng = Rng::new(6);
        for n in 3..=7 {
            for m in 3..=n {
                for trial in 0..200u32 {
                    let mut start = Game::new(n, m).unwrap();
                    for _ in 0..trial % 29 {
                        let open: Vec<_> = start.legal_moves().collect();
                        let p = open[rng.below(open.len() as u32) as usize];
                        if start.play(p.x, p.y).unwrap().is_some() {
                            start.undo();
                            break;
                        }
                    }
                    if trial % 2 == 0 {
                        start.cache_threats();
                    }
                    let seed = rng.next_u64();
                    let (mut fast, mut slow) = (start.clone(), start.clone());
                    let (mut fast_rng, mut slow_rng) = (Rng::new(seed), Rng::new(seed));
                    let outcome = fast.playout_decisive(&mut fast_rng);
                    assert_eq!(outcome, slow.playout_decisive_portable(&mut slow_rng));
                    assert_eq!(fast_rng.next_u64(), slow_rng.next_u64());
                    assert!(fast == slow, "n {n} m {m} trial {trial}");
                    assert_eq!(fast.unmarked, start.len);
                    assert_eq!(fast.threats, slow.threats, "n {n} m {m} trial {trial}");
                    let back = (trial % 3 + 1).min(u32::from(fast.len - start.len));
                    for _ in 0..back {
                        assert_eq!(fast.undo(), slow.undo());
                    }
                    assert!(fast.lines == slow.lines, "n {n} m {m} trial {trial}");
                    // Both play on alike: the line bytes the undo marked are the right ones.
                    assert_eq!(
                        fast.playout_decisive_portable(&mut fast_rng),
                        slow.playout_decisive_portable(&mut slow_rng)
                    );
                    assert!(fast == slow);
                }
            }
        }
    }
}
