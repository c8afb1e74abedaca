//! The search: null-window probes ("is the value at least t?") of a negamax alpha-beta over
//! the solver's bitboards, with threat reasoning before any move is tried, move ordering by
//! threats created and history, and the shared transposition table.
//!
//! With three values (loss −1, draw 0, win 1) every alpha-beta window is a null window, and a
//! probe of threshold t at a node asks its children the other threshold: "do I win?" becomes
//! "does some move leave the opponent unable to draw?". The full value takes two probes at the
//! root; the one-sided question ("does Black win?") one.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use super::bits::Bits;
use super::geometry::{Geometry, SYMMETRIES};
use super::table::{Bound, Tables};
use crate::sequence::{Color, Game, Peg};
#[cfg(target_arch = "x86_64")]
use crate::simd::x86::Bmi;

/// A position as the search sees it, from the side of the player to move, with its key under
/// the first `SYMS` symmetries: all [`SYMMETRIES`] where the search may meet a position and its
/// image, the identity alone where it cannot ([`Geometry::images_can_meet`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pos<B, const SYMS: usize> {
    /// The balls of the player to move.
    pub(crate) me: B,
    /// The balls of the other player.
    pub(crate) opp: B,
    /// The cells that complete a window for the player to move (some may be occupied).
    pub(crate) t_me: B,
    /// The same for the other player.
    pub(crate) t_opp: B,
    /// The position key under each symmetry kept.
    pub(crate) keys: [u128; SYMS],
    /// Colour of the player to move: 0 Black, 1 White.
    pub(crate) colour: u8,
    /// Empty cells.
    pub(crate) empties: u32,
}

impl<B: Bits, const SYMS: usize> Pos<B, SYMS> {
    /// The position of a game that is not decided.
    pub(crate) fn of_game(g: &Geometry<B>, game: &Game) -> Pos<B, SYMS> {
        const { assert!(SYMS == 1 || SYMS == SYMMETRIES) };
        let mut stones = [B::ZERO; 2];
        let mut keys = [0u128; SYMS];
        for y in 0..g.n {
            for x in 0..g.n {
                let peg = (x + g.n * y) as usize;
                for z in 0..game.height(x + 1, y + 1).unwrap_or(0) {
                    let colour = match game.ball(x + 1, y + 1, z + 1) {
                        Some(Color::Black) => 0,
                        _ => 1,
                    };
                    let c = g.cell(peg, z);
                    stones[colour] |= B::bit(c);
                    for (k, d) in keys.iter_mut().zip(g.delta(c, colour)) {
                        *k = k.wrapping_add(*d);
                    }
                }
            }
        }
        let colour = match game.to_move() {
            Color::Black => 0,
            Color::White => 1,
        };
        let (me, opp) = (stones[colour], stones[1 - colour]);
        Pos {
            me,
            opp,
            t_me: g.threats(me, opp),
            t_opp: g.threats(opp, me),
            keys,
            colour: colour as u8,
            empties: (g.cells - game.moves_played() as usize) as u32,
        }
    }

    #[inline(always)]
    pub(crate) fn occupied(&self) -> B {
        self.me | self.opp
    }

    /// The position after the player to move drops a ball on cell `c` (playable, and not a
    /// win), given the mover's threats afterwards.
    #[inline(always)]
    pub(crate) fn play_with(&self, g: &Geometry<B>, c: usize, t_me: B) -> Pos<B, SYMS> {
        let delta = g.delta(c, usize::from(self.colour));
        Pos {
            me: self.opp,
            opp: self.me | B::bit(c),
            t_me: self.t_opp,
            t_opp: t_me,
            keys: std::array::from_fn(|s| self.keys[s].wrapping_add(delta[s])),
            colour: self.colour ^ 1,
            empties: self.empties - 1,
        }
    }

    /// The position after the player to move drops a ball on cell `c`.
    #[inline(always)]
    pub(crate) fn play(&self, g: &Geometry<B>, c: usize) -> Pos<B, SYMS> {
        let me = self.me | B::bit(c);
        self.play_with(g, c, self.t_me | g.new_threats(c, me, self.opp))
    }

    /// The key of the position's class under the symmetries kept (the least of the keys) and
    /// the symmetry that gives it.
    #[inline(always)]
    pub(crate) fn canonical(&self) -> (u128, usize) {
        let mut best = (self.keys[0], 0);
        for s in 1..SYMS {
            if self.keys[s] < best.0 {
                best = (self.keys[s], s);
            }
        }
        best
    }
}

/// A position below the table's depth: no keys, no colour.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lean<B> {
    me: B,
    opp: B,
    t_me: B,
    t_opp: B,
}

impl<B: Bits> Lean<B> {
    /// The position after the player to move drops a ball on cell `c` (playable, not a win).
    #[inline(always)]
    fn play(&self, g: &Geometry<B>, c: usize) -> Lean<B> {
        let me = self.me | B::bit(c);
        Lean {
            me: self.opp,
            opp: me,
            t_me: self.t_opp,
            t_opp: self.t_me | g.new_threats(c, me, self.opp),
        }
    }
}

/// What the threats decide before any move is tried.
pub(crate) enum Forced<B> {
    /// The player to move completes a window now.
    Win,
    /// Every move loses at once (two open threats of the opponent, or only moves under one),
    /// or the board is full (`draw`).
    Over {
        /// The board is full: a draw, not a loss.
        draw: bool,
    },
    /// The moves worth trying: the cells that do not hand the opponent a win.
    Moves(B),
}

impl<B> Forced<B> {
    /// The moves worth trying, or the answer to "is the value at least `t`?" when the threats
    /// decide it.
    #[inline(always)]
    pub(crate) fn moves_or_answer(self, t: i8) -> Result<B, bool> {
        match self {
            Forced::Win => Err(true),
            Forced::Over { draw } => Err(draw && t <= 0),
            Forced::Moves(moves) => Ok(moves),
        }
    }
}

/// Lines that can no longer be completed: a player without a window free of the other's balls
/// cannot win. The answer to "is the value of the player to move (`me`) at least `t`?" when that
/// decides it.
#[inline(always)]
pub(crate) fn window_answer<B: Bits>(g: &Geometry<B>, me: B, opp: B, t: i8) -> Option<bool> {
    if t == 1 && !g.open_window(opp) {
        return Some(false);
    }
    if t == 0 && !g.open_window(me) {
        return Some(true);
    }
    None
}

/// The threat rules: a playable winning cell wins now; one playable threat of the opponent
/// forces the reply; two lose; a cell directly under an opponent threat is never played (the
/// opponent would complete the line above it), which also finds the gravity zugzwang of a
/// threat stacked on a playable threat.
#[inline(always)]
pub(crate) fn forced<B: Bits>(g: &Geometry<B>, me: B, opp: B, t_me: B, t_opp: B) -> Forced<B> {
    let occupied = me | opp;
    let play = g.playable(occupied);
    if play.is_zero() {
        return Forced::Over { draw: true };
    }
    if !(t_me & play).is_zero() {
        return Forced::Win;
    }
    let threats = t_opp & play;
    let moves = if threats.is_zero() {
        play
    } else if threats.is_single() {
        threats
    } else {
        return Forced::Over { draw: false };
    };
    let moves = moves & !g.below(t_opp & !occupied);
    if moves.is_zero() {
        Forced::Over { draw: false }
    } else {
        Forced::Moves(moves)
    }
}

/// Shared by the threads of one search: the node count for progress reports and the stop
/// signal.
pub(crate) struct Shared {
    pub(crate) nodes: AtomicU64,
    pub(crate) stop: AtomicBool,
}

/// Ends a search early.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limit {
    pub(crate) deadline: Option<Instant>,
    pub(crate) nodes: Option<u64>,
}

/// Counters of one thread's search.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Counts {
    pub(crate) nodes: u64,
    pub(crate) probes: u64,
    pub(crate) hits: u64,
}

/// Nodes with fewer empty cells than this search without the table, keys or move scores
/// (measured best among 6, 9 and 12 on Score Four positions of 28 balls: docs/perf-log.md).
const TABLE_FROM: u32 = 6;

/// Nodes with at least this many empty cells look their children up in the table before
/// searching any (enhanced transposition cut-offs; measured best among 10, 14 and 20:
/// docs/perf-log.md).
const ETC_FROM: u32 = 14;

/// Nodes between two looks at the clock and the stop signal.
const POLL: u64 = 1 << 12;

/// One thread's search, on positions with `SYMS` keys (see [`Pos`]).
pub(crate) struct Searcher<'a, B, const SYMS: usize> {
    g: &'a Geometry<B>,
    tables: Tables<'a>,
    shared: &'a Shared,
    limit: Limit,
    pub(crate) counts: Counts,
    /// Nodes already added to `shared.nodes`.
    reported: u64,
    /// Set once a limit is reached: every result from then on is meaningless.
    pub(crate) stopped: bool,
    /// History scores of cells, per colour.
    history: Vec<u32>,
    /// Nodes with fewer empty cells use no table.
    table_from: u32,
    /// Varies the move order of helper threads (0 for the main thread).
    helper: usize,
    /// The ordered moves of every depth: `(score, cell, mover's threats after)`, n² slots for
    /// each number of empty cells.
    buffer: Vec<(u64, usize, B)>,
    /// Present when the search runs compiled for POPCNT and BMI (see [`Isa`]).
    #[cfg(target_arch = "x86_64")]
    bmi: Option<Bmi>,
}

/// The instructions a search is compiled for. The search is written once
/// ([`Searcher::probe_as`], [`Searcher::lean_as`]) and its recursion goes through these, so a
/// whole search stays in the code of one instruction set: [`Baseline`] everywhere, [`Bmi`] on
/// x86-64 CPUs with POPCNT, BMI1, BMI2 and LZCNT (a bit count is one instruction there, not
/// a dozen), unless `BITGAMES_SIMD=portable`. Both search the same nodes (tested).
pub(crate) trait Isa: Copy {
    /// [`Searcher::probe_as`] on this instruction set.
    fn probe<B: Bits, const SYMS: usize>(
        self,
        s: &mut Searcher<'_, B, SYMS>,
        pos: &Pos<B, SYMS>,
        t: i8,
    ) -> bool;
    /// [`Searcher::lean_as`] on this instruction set.
    fn lean<B: Bits, const SYMS: usize>(
        self,
        s: &mut Searcher<'_, B, SYMS>,
        p: &Lean<B>,
        t: i8,
    ) -> bool;
}

/// The baseline instruction set of the target.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Baseline;

impl Isa for Baseline {
    fn probe<B: Bits, const SYMS: usize>(
        self,
        s: &mut Searcher<'_, B, SYMS>,
        pos: &Pos<B, SYMS>,
        t: i8,
    ) -> bool {
        s.probe_as(self, pos, t)
    }
    fn lean<B: Bits, const SYMS: usize>(
        self,
        s: &mut Searcher<'_, B, SYMS>,
        p: &Lean<B>,
        t: i8,
    ) -> bool {
        s.lean_as(self, p, t)
    }
}

#[cfg(target_arch = "x86_64")]
impl Isa for Bmi {
    #[inline(always)]
    fn probe<B: Bits, const SYMS: usize>(
        self,
        s: &mut Searcher<'_, B, SYMS>,
        pos: &Pos<B, SYMS>,
        t: i8,
    ) -> bool {
        // SAFETY: `self` exists, so the CPU has the instructions (checked in `Bmi::new`).
        unsafe { probe_bmi(self, s, pos, t) }
    }
    #[inline(always)]
    fn lean<B: Bits, const SYMS: usize>(
        self,
        s: &mut Searcher<'_, B, SYMS>,
        p: &Lean<B>,
        t: i8,
    ) -> bool {
        // SAFETY: as above.
        unsafe { lean_bmi(self, s, p, t) }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
fn probe_bmi<B: Bits, const SYMS: usize>(
    bmi: Bmi,
    s: &mut Searcher<'_, B, SYMS>,
    pos: &Pos<B, SYMS>,
    t: i8,
) -> bool {
    s.probe_as(bmi, pos, t)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
fn lean_bmi<B: Bits, const SYMS: usize>(
    bmi: Bmi,
    s: &mut Searcher<'_, B, SYMS>,
    p: &Lean<B>,
    t: i8,
) -> bool {
    s.lean_as(bmi, p, t)
}

impl<'a, B: Bits, const SYMS: usize> Searcher<'a, B, SYMS> {
    pub(crate) fn new(
        g: &'a Geometry<B>,
        tables: Tables<'a>,
        shared: &'a Shared,
        limit: Limit,
        helper: usize,
    ) -> Searcher<'a, B, SYMS> {
        Searcher {
            g,
            tables,
            shared,
            limit,
            counts: Counts::default(),
            reported: 0,
            stopped: false,
            history: vec![0; 2 * g.cells],
            table_from: TABLE_FROM,
            helper,
            buffer: vec![(0, 0, B::ZERO); (g.cells + 1) * g.pegs],
            #[cfg(target_arch = "x86_64")]
            bmi: (crate::simd::Backend::detect() != crate::simd::Backend::Portable)
                .then(Bmi::new)
                .flatten(),
        }
    }

    /// The same search on the baseline instructions, as on a CPU without them (tests).
    #[cfg(test)]
    fn on_baseline(self) -> Self {
        #[cfg(target_arch = "x86_64")]
        return Searcher { bmi: None, ..self };
        #[cfg(not(target_arch = "x86_64"))]
        self
    }

    /// Looks at the stop signal and the limits; reports the nodes.
    #[cold]
    fn poll(&mut self) {
        let fresh = self.counts.nodes - self.reported;
        self.reported = self.counts.nodes;
        let total = self.shared.nodes.fetch_add(fresh, Ordering::Relaxed) + fresh;
        let over = self.shared.stop.load(Ordering::Relaxed)
            || self.limit.nodes.is_some_and(|n| total >= n)
            || self.limit.deadline.is_some_and(|d| Instant::now() >= d);
        if over {
            self.stopped = true;
            self.shared.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Counts a node (of either search), with a look at the limits every few thousand nodes;
    /// `true` once stopped.
    #[inline(always)]
    pub(crate) fn count_node(&mut self) -> bool {
        self.counts.nodes += 1;
        if self.counts.nodes & (POLL - 1) == 0 {
            self.poll();
        }
        self.stopped
    }

    /// Adds the last nodes to the shared count.
    pub(crate) fn flush(&mut self) {
        let fresh = self.counts.nodes - self.reported;
        self.reported = self.counts.nodes;
        self.shared.nodes.fetch_add(fresh, Ordering::Relaxed);
    }

    /// Is the value of `pos` for the player to move at least `t` (0 or 1)? Meaningless once
    /// [`Searcher::stopped`].
    pub(crate) fn probe(&mut self, pos: &Pos<B, SYMS>, t: i8) -> bool {
        #[cfg(target_arch = "x86_64")]
        if let Some(bmi) = self.bmi {
            return bmi.probe(self, pos, t);
        }
        Baseline.probe(self, pos, t)
    }

    /// [`Searcher::lean_as`] on the instructions chosen.
    #[cfg(test)]
    fn lean(&mut self, p: &Lean<B>, t: i8) -> bool {
        #[cfg(target_arch = "x86_64")]
        if let Some(bmi) = self.bmi {
            return bmi.lean(self, p, t);
        }
        Baseline.lean(self, p, t)
    }

    /// [`Searcher::probe`] compiled for `isa`.
    #[inline(always)]
    fn probe_as<I: Isa>(&mut self, isa: I, pos: &Pos<B, SYMS>, t: i8) -> bool {
        if self.count_node() {
            return false;
        }
        let g = self.g;
        let moves = match forced(g, pos.me, pos.opp, pos.t_me, pos.t_opp).moves_or_answer(t) {
            Ok(moves) => moves,
            Err(answer) => return answer,
        };
        if moves.is_single() {
            let c = moves.lowest();
            let me = pos.me | B::bit(c);
            return !self.child(isa, pos, c, pos.t_me | g.new_threats(c, me, pos.opp), t);
        }
        if let Some(answer) = window_answer(g, pos.me, pos.opp, t) {
            return answer;
        }

        let (key, sym) = pos.canonical();
        let mut hint = usize::MAX;
        self.counts.probes += 1;
        let table = self.tables.of(pos.empties);
        if let Some(hit) = table.probe(key) {
            self.counts.hits += 1;
            if let Some(answer) = hit.bound.answer(t) {
                return answer;
            }
            hint = usize::from(g.sym[usize::from(g.inverse[sym])][hit.peg]);
        }

        // Do the children probe the table (`child`, and the enhanced transposition cut-off
        // below)? Then their buckets start loading now, while the moves are ordered: nearly
        // every probe of a large table misses the caches.
        let colour = usize::from(pos.colour);
        let child_key = |c: usize| {
            let delta = g.delta(c, colour);
            (0..SYMS)
                .map(|s| pos.keys[s].wrapping_add(delta[s]))
                .min()
                .unwrap_or(0)
        };
        let child_table = self.tables.of(pos.empties - 1);
        if pos.empties > self.table_from {
            for c in moves.cells() {
                child_table.prefetch(child_key(c));
            }
        }

        // Order the moves: the table's move, then by threats made, then by history. Each
        // depth has its own stretch of the move buffer (indexed by the empty cells).
        let base = pos.empties as usize * g.pegs;
        let mut len = 0;
        for c in moves.cells() {
            let (threat_score, t_me) = threat_score(g, pos, c);
            let mut score = threat_score | u64::from(self.history[2 * c + colour]);
            if g.peg_of(c) == hint {
                score = u64::MAX;
            }
            if self.helper != 0 {
                // Helper threads perturb the order (below the table's move).
                score ^= ((c as u64 + self.helper as u64).wrapping_mul(0x9e37_79b9) & 0xff) << 32;
            }
            // Insertion sort, best first.
            let list = &mut self.buffer[base..base + g.pegs];
            let mut i = len;
            while i > 0 && list[i - 1].0 < score {
                list[i] = list[i - 1];
                i -= 1;
            }
            list[i] = (score, c, t_me);
            len += 1;
        }

        let before = self.counts.nodes;
        let mut proved = None;
        if pos.empties >= ETC_FROM {
            // Enhanced transposition cut-off: a child the table already refutes proves this node
            // without a search (the children's buckets are on their way, above).
            for i in 0..len {
                let c = self.buffer[base + i].1;
                self.counts.probes += 1;
                if let Some(hit) = child_table.probe(child_key(c)) {
                    self.counts.hits += 1;
                    if hit.bound.upper < 1 - t {
                        proved = Some(c);
                        break;
                    }
                }
            }
        }
        for i in 0..len {
            if proved.is_some() {
                break;
            }
            let (_, c, t_me) = self.buffer[base + i];
            if !self.child(isa, pos, c, t_me, t) {
                proved = Some(c);
                break;
            }
            if self.stopped {
                return false;
            }
        }
        if self.stopped {
            return false;
        }
        if let Some(c) = proved {
            let h = &mut self.history[2 * c + colour];
            *h = h.saturating_add(pos.empties * pos.empties);
        }
        {
            let bound = Bound::of_answer(t, proved.is_some());
            let c = proved.unwrap_or(self.buffer[base].1);
            let peg = usize::from(g.sym[sym][g.peg_of(c)]);
            let work = (self.counts.nodes - before).max(1).ilog2();
            table.store(key, bound, peg, work);
        }
        proved.is_some()
    }

    /// Probes the position after the mover's ball on `c` (with the mover's threats after it
    /// `t_me`) for the other threshold `1 - t`: deep while the table is used, lean below.
    #[inline(always)]
    fn child<I: Isa>(&mut self, isa: I, pos: &Pos<B, SYMS>, c: usize, t_me: B, t: i8) -> bool {
        if pos.empties > self.table_from {
            let child = pos.play_with(self.g, c, t_me);
            isa.probe(self, &child, 1 - t)
        } else {
            let child = Lean {
                me: pos.opp,
                opp: pos.me | B::bit(c),
                t_me: pos.t_opp,
                t_opp: t_me,
            };
            isa.lean(self, &child, 1 - t)
        }
    }

    /// [`Searcher::probe`] near the end of the game: the threat rules, then every move, the
    /// cells on the most windows first; no table, no ordering.
    #[inline(always)]
    fn lean_as<I: Isa>(&mut self, isa: I, p: &Lean<B>, t: i8) -> bool {
        if self.count_node() {
            return false;
        }
        let g = self.g;
        let moves = match forced(g, p.me, p.opp, p.t_me, p.t_opp).moves_or_answer(t) {
            Ok(moves) => moves,
            Err(answer) => return answer,
        };
        for part in [moves & g.rich, moves & !g.rich] {
            for c in part.cells() {
                if !isa.lean(self, &p.play(g, c), 1 - t) {
                    return true;
                }
                if self.stopped {
                    return false;
                }
            }
        }
        false
    }

    /// Does the move at `peg` reach at least `v` for the player to move? `None` when the peg is
    /// full or the search stopped.
    pub(crate) fn move_reaches(&mut self, pos: &Pos<B, SYMS>, peg: usize, v: i8) -> Option<bool> {
        let g = self.g;
        let play = g.playable(pos.occupied());
        let c = (0..g.n).map(|z| g.cell(peg, z)).find(|&c| play.has(c))?;
        if pos.t_me.has(c) {
            return Some(true);
        }
        let child = pos.play(g, c);
        // -child ≥ v  ⟺  child ≤ -v  ⟺  not (child ≥ 1 - v); every value is at least -1.
        if v <= -1 {
            return Some(true);
        }
        let yes = !self.probe(&child, 1 - v);
        if self.stopped { None } else { Some(yes) }
    }
}

/// How much a ball of the mover on cell `c` (playable, not a win) threatens, as the high bits
/// of a move score: its playable threats afterwards (up to 3), then all its threats; with the
/// mover's threats after the ball.
#[inline(always)]
pub(crate) fn threat_score<B: Bits, const SYMS: usize>(
    g: &Geometry<B>,
    pos: &Pos<B, SYMS>,
    c: usize,
) -> (u64, B) {
    let me = pos.me | B::bit(c);
    let t_me = pos.t_me | g.new_threats(c, me, pos.opp);
    let after = pos.occupied() | B::bit(c);
    let threats = (t_me & !after).count();
    let playable = (t_me & g.playable(after)).count();
    (
        u64::from(playable.min(3)) << 56 | u64::from(threats) << 40,
        t_me,
    )
}

/// The legal pegs (from 0) in a fixed order that depends on the position alone: pegs whose ball
/// wins at once first, then by [`threat_score`], then by peg.
pub(crate) fn fixed_order<B: Bits, const SYMS: usize>(
    g: &Geometry<B>,
    pos: &Pos<B, SYMS>,
) -> Vec<usize> {
    let play = g.playable(pos.occupied());
    let mut pegs: Vec<(u64, usize)> = play
        .cells()
        .map(|c| {
            let score = if pos.t_me.has(c) {
                u64::MAX
            } else {
                threat_score(g, pos, c).0
            };
            (score, g.peg_of(c))
        })
        .collect();
    pegs.sort_by_key(|&(score, peg)| (std::cmp::Reverse(score), peg));
    pegs.into_iter().map(|(_, peg)| peg).collect()
}

/// The peg (from 0, `x + n·y`) as the API's [`Peg`].
pub(crate) fn peg_of_index(n: u32, p: usize) -> Peg {
    Peg::new(p as u32 % n + 1, p as u32 / n + 1)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::table::Table;
    use super::*;
    use crate::rng::Rng;
    use rustc_hash::FxHashSet;

    fn searcher<'a>(
        g: &'a Geometry<u64>,
        table: &'a Table,
        shared: &'a Shared,
    ) -> Searcher<'a, u64, SYMMETRIES> {
        let limit = unlimited();
        Searcher::new(g, Tables::one(table), shared, limit, 0)
    }

    /// A Score Four game of `balls` random balls, or fewer: it stops before a ball that wins.
    fn random_game(balls: u32, rng: &mut Rng) -> Game {
        let mut game = Game::new(4, 4).unwrap();
        for _ in 0..balls {
            let pegs: Vec<Peg> = game.legal_moves().collect();
            let p = pegs[rng.below(pegs.len() as u32) as usize];
            if game.clone().play(p.x, p.y).unwrap().is_some() {
                break;
            }
            game.play(p.x, p.y).unwrap();
        }
        game
    }

    /// A game of random balls on n×n×n (m in a row) down to `empties` empty cells: none
    /// completes a line and, when `careful`, none lets the opponent complete one next. Fewer
    /// balls where none is left that keeps to that: never decided.
    pub(crate) fn quiet_game(n: u32, m: u32, empties: u32, careful: bool, rng: &mut Rng) -> Game {
        let mut game = Game::new(n, m).unwrap();
        while n * n * n - game.moves_played() > empties {
            let other = game.to_move().other();
            let pegs: Vec<Peg> = game
                .legal_moves()
                .filter(|p| {
                    let mut next = game.clone();
                    next.play(p.x, p.y).unwrap().is_none()
                        && (!careful || next.winning_pegs(other).is_empty())
                })
                .collect();
            let Some(&p) = pegs.get(rng.below(pegs.len() as u32) as usize) else {
                break;
            };
            game.play(p.x, p.y).unwrap();
        }
        game
    }

    /// A Score Four game of careful random play (no ball that wins or lets the opponent win at
    /// once) down to `empties` empty cells, or fewer balls where no careful ball is left.
    fn careful_game(empties: u32, rng: &mut Rng) -> Game {
        quiet_game(4, 4, empties, true, rng)
    }

    pub(crate) fn unlimited() -> Limit {
        Limit {
            deadline: None,
            nodes: None,
        }
    }

    pub(crate) fn shared() -> Shared {
        Shared {
            nodes: AtomicU64::new(0),
            stop: AtomicBool::new(false),
        }
    }

    #[test]
    fn lean_moves_keep_both_players_threats() {
        // From positions of random games, random lean moves (playable, not a win): the threat
        // sets carried from move to move must be those computed from scratch from the balls
        // (on the empty cells: a threat filled by the opponent stays in the set, harmlessly).
        let g = Geometry::<u64>::new(4, 4);
        let mut rng = Rng::new(17);
        let mut carried = 0;
        for _ in 0..300 {
            let game = random_game(rng.range(0, 30), &mut rng);
            let pos: Pos<u64, 1> = Pos::of_game(&g, &game);
            let mut p = Lean {
                me: pos.me,
                opp: pos.opp,
                t_me: pos.t_me,
                t_opp: pos.t_opp,
            };
            loop {
                let occupied = p.me | p.opp;
                assert_eq!(p.t_me & !occupied, g.threats(p.me, p.opp));
                assert_eq!(p.t_opp & !occupied, g.threats(p.opp, p.me));
                if (p.t_me | p.t_opp) & !occupied != 0 {
                    carried += 1;
                }
                let quiet = g.playable(occupied) & !p.t_me;
                if quiet == 0 {
                    break;
                }
                let cells: Vec<usize> = quiet.cells().collect();
                p = p.play(&g, cells[rng.below(cells.len() as u32) as usize]);
            }
        }
        // Most positions checked carry threats.
        assert!(carried > 1000, "{carried}");
    }

    #[test]
    fn lean_counts_every_position_it_visits() {
        // A 3×3×3 board (m = 3) full but for the top cells of pegs (1, 0) and (1, 2), coloured
        // so that neither empty cell completes a window for either player. The lean search
        // then visits, for "does the mover win?" (t = 1), the position, and for each of its two
        // moves the position after it and the full board after the last ball (a draw, so no
        // move wins and both are tried): 1 + 2 · 2 = 5 positions. For "does the mover draw?"
        // (t = 0) the first move already draws: 1 + 2 = 3.
        let g = Geometry::<u64>::new(3, 3);
        let empty = 1u64 << g.cell(1, 2) | 1 << g.cell(7, 2);
        let mut rng = Rng::new(3);
        let (me, opp) = loop {
            let mut colour = [0u64; 2];
            for c in (0..g.cells).filter(|&c| empty >> c & 1 == 0) {
                colour[rng.below(2) as usize] |= 1 << c;
            }
            let [me, opp] = colour;
            if (g.threats(me, opp) | g.threats(opp, me)) & empty == 0 {
                break (me, opp);
            }
        };
        assert_eq!(g.playable(me | opp), empty);
        let p = Lean {
            me,
            opp,
            t_me: g.threats(me, opp),
            t_opp: g.threats(opp, me),
        };
        let table = Table::new(1 << 12, g.key_bits, g.pegs).unwrap();
        let shared = shared();
        for (t, value, nodes) in [(1, false, 5), (0, true, 3)] {
            let mut s = searcher(&g, &table, &shared);
            assert_eq!(s.lean(&p, t), value, "t = {t}");
            assert_eq!(s.counts.nodes, nodes, "t = {t}");
        }
    }

    #[test]
    fn a_proof_credits_the_history_of_the_proving_move() {
        // Positions where the mover has a fork (a ball after which the opponent faces two
        // winning pegs and has none of its own): the search tries a fork first (it makes the
        // most playable threats), the child is lost by the threat rules, and the probe visits
        // those two positions only. The one history update is then the root's: empties² on the
        // slot of the fork's cell for the mover's colour. (About 50 of these 400 positions.)
        let g = Geometry::<u64>::new(4, 4);
        let shared = shared();
        let mut rng = Rng::new(23);
        let mut checked = 0;
        for _ in 0..400 {
            let empties = rng.range(10, 40);
            let game = careful_game(empties, &mut rng);
            let (mover, other) = (game.to_move(), game.to_move().other());
            if game.outcome().is_some()
                || !game.winning_pegs(mover).is_empty()
                || !game.winning_pegs(other).is_empty()
            {
                continue;
            }
            let after = |p: Peg| {
                let mut a = game.clone();
                a.play(p.x, p.y).unwrap();
                a
            };
            let safe = game
                .legal_moves()
                .filter(|&p| after(p).winning_pegs(other).is_empty())
                .count();
            let forks: Vec<Peg> = game
                .legal_moves()
                .filter(|&p| {
                    let a = after(p);
                    a.winning_pegs(mover).len() >= 2 && a.winning_pegs(other).is_empty()
                })
                .collect();
            if forks.is_empty() || safe < 2 {
                continue;
            }
            let pos = Pos::of_game(&g, &game);
            let table = Table::new(1 << 12, g.key_bits, g.pegs).unwrap();
            let mut s = searcher(&g, &table, &shared);
            assert!(s.probe(&pos, 1), "{game:?}");
            if s.counts.nodes != 2 {
                continue;
            }
            let credited: Vec<(usize, u32)> = s
                .history
                .iter()
                .copied()
                .enumerate()
                .filter(|&(_, h)| h != 0)
                .collect();
            let [(slot, h)] = credited[..] else {
                panic!("{credited:?} for {game:?}");
            };
            assert_eq!(h, pos.empties * pos.empties);
            assert_eq!(slot % 2, usize::from(pos.colour));
            let peg = peg_of_index(4, g.peg_of(slot / 2));
            assert!(forks.contains(&peg), "{peg} not in {forks:?}: {game:?}");
            checked += 1;
        }
        assert!(checked >= 10, "{checked}");
    }

    /// Every position reachable from (`a`, `b`) by dropping balls of either colour (a superset
    /// of the positions a search can meet: wins do not stop it), as (Black-or-first, second).
    fn beyond(g: &Geometry<u64>, a: u64, b: u64, to_move: usize) -> FxHashSet<(u64, u64)> {
        let mut seen = FxHashSet::default();
        let mut stack = vec![(a, b, to_move)];
        while let Some((a, b, k)) = stack.pop() {
            if !seen.insert((a, b)) {
                continue;
            }
            for c in g.playable(a | b).cells() {
                let bit = 1u64 << c;
                stack.push(if k == 0 {
                    (a | bit, b, 1)
                } else {
                    (a, b | bit, 0)
                });
            }
        }
        seen
    }

    #[test]
    fn no_position_meets_its_image_when_the_root_forbids_it() {
        // 3×3×3 positions of 17 to 21 balls from random play: where `images_can_meet` says no,
        // no position beyond the root is the image of another under a symmetry (nor of itself).
        let g = Geometry::<u64>::new(3, 3);
        let mut rng = Rng::new(31);
        let (mut apart, mut meeting) = (0, 0);
        for _ in 0..120 {
            let mut balls = [0u64; 2];
            let stones = rng.range(17, 22);
            for k in 0..stones as usize {
                let cells: Vec<usize> = g.playable(balls[0] | balls[1]).cells().collect();
                balls[k % 2] |= 1 << cells[rng.below(cells.len() as u32) as usize];
            }
            if g.images_can_meet(balls[0], balls[1]) {
                meeting += 1;
                continue;
            }
            apart += 1;
            let seen = beyond(&g, balls[0], balls[1], stones as usize % 2);
            for &(a, b) in &seen {
                for s in 1..SYMMETRIES {
                    let image = (g.image(s, a), g.image(s, b));
                    assert!(!seen.contains(&image), "{balls:?}: {a:#x} {b:#x} under {s}");
                }
            }
        }
        assert!(
            apart > 60 && meeting > 0,
            "{apart} apart, {meeting} meeting"
        );
        // The empty board and a lone centre ball meet their images.
        assert!(g.images_can_meet(0, 0));
        assert!(g.images_can_meet(1 << g.cell(4, 0), 0));
    }

    #[test]
    fn identity_keys_search_as_the_eight_keys_where_images_cannot_meet() {
        // Score Four positions of 20 to 40 balls from random play: the probes with the
        // identity key alone give the values the eight keys give.
        let g = Geometry::<u64>::new(4, 4);
        let shared = shared();
        let limit = unlimited();
        let mut rng = Rng::new(37);
        let mut compared = 0;
        for _ in 0..300 {
            let game = random_game(rng.range(20, 40), &mut rng);
            let one: Pos<u64, 1> = Pos::of_game(&g, &game);
            let eight: Pos<u64, SYMMETRIES> = Pos::of_game(&g, &game);
            if g.images_can_meet(one.me, one.opp) || one.empties > 34 {
                continue;
            }
            for t in [0, 1] {
                let (table1, table8) = (
                    Table::new(1 << 20, g.key_bits, g.pegs).unwrap(),
                    Table::new(1 << 20, g.key_bits, g.pegs).unwrap(),
                );
                let mut s1 = Searcher::<u64, 1>::new(&g, Tables::one(&table1), &shared, limit, 0);
                let mut s8 =
                    Searcher::<u64, SYMMETRIES>::new(&g, Tables::one(&table8), &shared, limit, 0);
                assert_eq!(s1.probe(&one, t), s8.probe(&eight, t), "{game:?}, t = {t}");
            }
            compared += 1;
        }
        assert!(compared > 50, "{compared} compared");
    }

    #[test]
    fn the_bmi_search_visits_the_baseline_search_s_nodes() {
        // The same probes compiled for the two instruction sets: the same answers after the
        // same number of nodes, on Score Four positions of 40 to 52 balls.
        #[cfg(target_arch = "x86_64")]
        let bmi = Bmi::new().is_some();
        #[cfg(not(target_arch = "x86_64"))]
        let bmi = false;
        if !bmi {
            eprintln!("skipped: no POPCNT, BMI1, BMI2 and LZCNT here (or not x86-64)");
            return;
        }
        let g = Geometry::<u64>::new(4, 4);
        let shared = shared();
        let mut rng = Rng::new(41);
        let mut compared = 0;
        for _ in 0..60 {
            let game = careful_game(rng.range(12, 25), &mut rng);
            let pos: Pos<u64, 1> = Pos::of_game(&g, &game);
            for t in [0, 1] {
                let mut answers = Vec::new();
                for baseline in [false, true] {
                    let table = Table::new(1 << 20, g.key_bits, g.pegs).unwrap();
                    let limit = unlimited();
                    let mut s = Searcher::<u64, 1>::new(&g, Tables::one(&table), &shared, limit, 0);
                    if baseline {
                        s = s.on_baseline();
                    }
                    answers.push((s.probe(&pos, t), s.counts.nodes));
                }
                assert_eq!(answers[0], answers[1], "{game:?}, t = {t}");
            }
            compared += 1;
        }
        assert!(compared > 30, "{compared} compared");
    }

    #[test]
    fn a_second_table_near_the_end_changes_no_value() {
        // Score Four positions of 40 to 48 balls: the probes with the positions of fewer than
        // 14 empty cells in a second, small table give the values of one table.
        let g = Geometry::<u64>::new(4, 4);
        let shared = shared();
        let limit = unlimited();
        let mut rng = Rng::new(43);
        for _ in 0..40 {
            let game = careful_game(rng.range(16, 25), &mut rng);
            let pos: Pos<u64, 1> = Pos::of_game(&g, &game);
            for t in [0, 1] {
                let (far, near, one) = (
                    Table::new(1 << 20, g.key_bits, g.pegs).unwrap(),
                    Table::new(1 << 12, g.key_bits, g.pegs).unwrap(),
                    Table::new(1 << 20, g.key_bits, g.pegs).unwrap(),
                );
                let split = Tables::new(&far, &near, 14);
                let mut a = Searcher::<u64, 1>::new(&g, split, &shared, limit, 0);
                let mut b = Searcher::<u64, 1>::new(&g, Tables::one(&one), &shared, limit, 0);
                assert_eq!(a.probe(&pos, t), b.probe(&pos, t), "{game:?}, t = {t}");
            }
        }
    }
}
