//! Depth-first proof-number search (df-pn) for the solver's probes: the alternative to the
//! alpha-beta probe of [`super::search`], chosen by [`super::Algorithm::ProofNumber`].
//!
//! A probe asks "is the value at least t for the player to move?". In negamax form a position
//! is *proven* when some move leads to a position disproven for the opponent's threshold
//! 1 − t, and *disproven* when every move leads to a proven one. Its proof number (pn) is the
//! least number of positions still to decide to prove it, its disproof number (dn) the least
//! to disprove it: pn = min over the moves of the child's dn, dn = the sum of the children's
//! pn. The search always expands a most-proving position, depth first while the numbers stay
//! under thresholds (Nagai's df-pn), with the 1 + ε widening of the second-best child's
//! threshold (Pawlewicz and Lew), so that it does not switch back and forth between two
//! children whose numbers are close.
//!
//! What it shares with the alpha-beta search:
//! - The same threat rules decide a position before any move ([`forced`], and "a player with
//!   no window left cannot win").
//! - df-pn searches the first [`PLIES`] plies from the root; the alpha-beta probe, with its
//!   tables and move order, decides the positions beyond when df-pn selects them. Near the end
//!   of the game alpha-beta is cheaper per node, and its move order is better informed than
//!   the proof numbers of a naive expansion (measured: docs/perf-log.md).
//! - Every position df-pn proves or disproves goes into the bound table ([`Tables`]) with the
//!   move that proved it, so the best move and the principal variation searched after the value
//!   (by alpha-beta) find it there; the table also answers df-pn's own look-ups.
//!
//! The numbers of positions not yet decided go to a table of their own ([`NumberTable`]).

use super::bits::Bits;
use super::geometry::Geometry;
use super::search::{Forced, Pos, Searcher, forced, threat_score, window_answer};
use super::table::{Bound, Tables};

/// A proof or disproof number that stands for "infinite": a proven position has dn = INF, a
/// disproven one pn = INF, and no other number reaches it (sums stop at INF − 1).
const INF: u32 = u32::MAX / 4;

/// df-pn searches the positions up to this many balls past the root; alpha-beta decides the
/// positions beyond when df-pn selects them (measured best among 8 to 14 plies and among
/// frontiers of 20 to 24 empty cells: docs/perf-log.md).
const PLIES: u32 = 8;

/// One slot of the [`NumberTable`].
#[derive(Debug, Clone, Copy, Default)]
#[repr(C)]
struct Entry {
    key: u128,
    pn: u32,
    dn: u32,
    /// log2 of the nodes spent on the position, plus one; 0 for an empty slot.
    work: u16,
    /// The threshold the numbers are for (0 or 1).
    t: i8,
}

/// The proof and disproof numbers of the positions df-pn has expanded but not decided:
/// buckets of two entries (the one that cost the most to compute, and the most recent),
/// owned by one search.
pub(crate) struct NumberTable {
    buckets: Vec<[Entry; 2]>,
    shift: u32,
}

impl NumberTable {
    /// A table of about `bytes` bytes (a power of two of 64-byte buckets, at least one).
    pub(crate) fn new(bytes: usize) -> NumberTable {
        let count = (bytes / size_of::<[Entry; 2]>()).max(1);
        let bits = count.ilog2();
        NumberTable {
            buckets: vec![[Entry::default(); 2]; 1 << bits],
            shift: 64 - bits,
        }
    }

    /// Forgets every entry.
    pub(crate) fn clear(&mut self) {
        self.buckets.fill([Entry::default(); 2]);
    }

    #[inline(always)]
    fn index(&self, key: u128) -> usize {
        let mixed = (key as u64 ^ (key >> 64) as u64 ^ (key >> 64) as u64 >> 29)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
        // A shift by 64 (a one-bucket table) would overflow: take the top bit and drop it.
        ((mixed >> 1) >> (self.shift - 1)) as usize
    }

    /// The numbers of `key` for threshold `t`, if known.
    #[inline]
    fn get(&self, key: u128, t: i8) -> Option<(u32, u32)> {
        self.buckets[self.index(key)]
            .iter()
            .find(|e| e.work != 0 && e.key == key && e.t == t)
            .map(|e| (e.pn, e.dn))
    }

    /// Records the numbers of `key` for threshold `t`, found with `nodes` nodes.
    #[inline]
    fn put(&mut self, key: u128, t: i8, pn: u32, dn: u32, nodes: u64) {
        let work = (nodes.max(1).ilog2() + 1) as u16;
        let entry = Entry {
            key,
            pn,
            dn,
            work,
            t,
        };
        let index = self.index(key);
        let bucket = &mut self.buckets[index];
        if bucket[0].key == key && bucket[0].t == t {
            bucket[0] = Entry {
                work: work.max(bucket[0].work),
                ..entry
            };
        } else if work >= bucket[0].work {
            // The dearer entry moves to the first slot; the one it displaces stays as the
            // most recent unless that is this key's older entry.
            if !(bucket[1].key == key && bucket[1].t == t) {
                bucket[1] = bucket[0];
            }
            bucket[0] = entry;
        } else {
            bucket[1] = entry;
        }
    }
}

/// A move of a position being expanded, with the numbers of the position it leads to.
#[derive(Debug, Clone, Copy)]
struct Child<B> {
    cell: usize,
    /// The mover's threats after the ball.
    t_me: B,
    /// The move's [`threat_score`].
    score: u64,
    pn: u32,
    dn: u32,
}

/// One df-pn search, over an alpha-beta searcher that decides the positions near the end and
/// counts the nodes (so that the limits and the stop signal hold for both).
pub(crate) struct Prover<'s, 'a, B, const SYMS: usize> {
    g: &'a Geometry<B>,
    tables: Tables<'a>,
    numbers: &'s mut NumberTable,
    searcher: &'s mut Searcher<'a, B, SYMS>,
    /// df-pn searches this many plies past the root ([`PLIES`]).
    plies: u32,
    /// Positions with at most this many empty cells are left to alpha-beta: the root's empty
    /// cells less [`Prover::plies`], set by [`Prover::probe`].
    frontier: u32,
    /// The children of every position being expanded: n² slots for each number of empty
    /// cells.
    buffer: Vec<Child<B>>,
}

impl<'s, 'a, B: Bits, const SYMS: usize> Prover<'s, 'a, B, SYMS> {
    pub(crate) fn new(
        g: &'a Geometry<B>,
        tables: Tables<'a>,
        numbers: &'s mut NumberTable,
        searcher: &'s mut Searcher<'a, B, SYMS>,
    ) -> Self {
        Prover {
            g,
            tables,
            numbers,
            searcher,
            plies: PLIES,
            frontier: 0,
            buffer: vec![
                Child {
                    cell: 0,
                    t_me: B::ZERO,
                    score: 0,
                    pn: 0,
                    dn: 0,
                };
                (g.cells + 1) * g.pegs
            ],
        }
    }

    /// These settings with df-pn searching `plies` plies past the root (`u32::MAX`: to the
    /// end of the game).
    #[cfg(test)]
    pub(crate) fn with_plies(mut self, plies: u32) -> Self {
        self.plies = plies;
        self
    }

    /// Is the value of `root` for the player to move at least `t` (0 or 1)? Meaningless once
    /// the searcher has stopped.
    pub(crate) fn probe(&mut self, root: &Pos<B, SYMS>, t: i8) -> bool {
        self.frontier = root.empties.saturating_sub(self.plies);
        if root.empties <= self.frontier {
            return self.searcher.probe(root, t);
        }
        let (pn, dn) = self.look(root, t);
        if pn == 0 || dn == 0 {
            return pn == 0;
        }
        let (pn, _) = self.expand(root, t, INF, INF);
        pn == 0
    }

    /// The numbers of `pos` for threshold `t` without expanding it: (0, INF) when the threat
    /// rules or the bound table prove it, (INF, 0) when they disprove it, else what the number
    /// table knows, else (1, the number of moves worth trying). Counts one node.
    fn look(&mut self, pos: &Pos<B, SYMS>, t: i8) -> (u32, u32) {
        const PROVEN: (u32, u32) = (0, INF);
        const DISPROVEN: (u32, u32) = (INF, 0);
        if self.searcher.count_node() {
            return (1, 1);
        }
        let numbers = |answer| if answer { PROVEN } else { DISPROVEN };
        let g = self.g;
        let moves = match forced(g, pos.me, pos.opp, pos.t_me, pos.t_opp).moves_or_answer(t) {
            Ok(moves) => moves,
            Err(answer) => return numbers(answer),
        };
        if let Some(answer) = window_answer(g, pos.me, pos.opp, t) {
            return numbers(answer);
        }
        let (key, _) = pos.canonical();
        self.searcher.counts.probes += 1;
        if let Some(hit) = self.tables.of(pos.empties).probe(key) {
            self.searcher.counts.hits += 1;
            if let Some(answer) = hit.bound.answer(t) {
                return numbers(answer);
            }
        }
        if pos.empties > self.frontier
            && let Some(numbers) = self.numbers.get(key, t)
        {
            return numbers;
        }
        (1, moves.count())
    }

    /// Expands `pos` (not decided by [`Prover::look`]) until its proof number reaches `thpn`
    /// or its disproof number `thdn`, or it is decided; returns its numbers then. Records a
    /// decided position in the bound table, an undecided one in the number table.
    fn expand(&mut self, pos: &Pos<B, SYMS>, t: i8, thpn: u32, thdn: u32) -> (u32, u32) {
        let g = self.g;
        let Forced::Moves(moves) = forced(g, pos.me, pos.opp, pos.t_me, pos.t_opp) else {
            // Not reached: `look` decided such a position before it was expanded.
            return self.look(pos, t);
        };
        let before = self.searcher.counts.nodes;
        let base = pos.empties as usize * g.pegs;
        // The children in the alpha-beta search's order of threats made (best first), so that
        // ties of the numbers go to the more threatening move.
        let mut len = 0;
        for c in moves.cells() {
            let (score, t_me) = threat_score(g, pos, c);
            let child = pos.play_with(g, c, t_me);
            let (pn, dn) = self.look(&child, 1 - t);
            let mut i = len;
            while i > 0 && self.buffer[base + i - 1].score < score {
                self.buffer[base + i] = self.buffer[base + i - 1];
                i -= 1;
            }
            self.buffer[base + i] = Child {
                cell: c,
                t_me,
                score,
                pn,
                dn,
            };
            len += 1;
            if dn == 0 || self.searcher.stopped {
                break;
            }
        }
        let (mut pn, mut dn);
        loop {
            // pn: the least child dn; dn: the sum of the children's pn.
            let children = &self.buffer[base..base + len];
            let (mut best, mut second) = (0, INF);
            pn = INF;
            dn = 0u32;
            for (i, child) in children.iter().enumerate() {
                if child.dn < pn {
                    second = pn;
                    pn = child.dn;
                    best = i;
                } else if child.dn < second {
                    second = child.dn;
                }
                dn = dn.saturating_add(child.pn).min(INF - 1);
            }
            if pn == 0 || dn == 0 || pn >= thpn || dn >= thdn || self.searcher.stopped {
                break;
            }
            let Child {
                cell,
                t_me,
                pn: child_pn,
                ..
            } = children[best];
            let child = pos.play_with(g, cell, t_me);
            let (new_pn, new_dn) = if child.empties <= self.frontier {
                if self.searcher.probe(&child, 1 - t) {
                    (0, INF)
                } else {
                    (INF, 0)
                }
            } else {
                // The child's pn adds to this dn: keep the sum under thdn. Its dn is this pn:
                // keep it under thpn and (widened by ε = 1/4) the second best's.
                let child_thpn = (thdn - dn).saturating_add(child_pn).min(INF);
                let widened = second
                    .saturating_add(second / 4)
                    .max(second.saturating_add(1));
                let child_thdn = thpn.min(widened);
                self.expand(&child, 1 - t, child_thpn, child_thdn)
            };
            let slot = &mut self.buffer[base + best];
            (slot.pn, slot.dn) = (new_pn, new_dn);
        }
        if self.searcher.stopped {
            return (pn, dn);
        }
        let (key, sym) = pos.canonical();
        let nodes = self.searcher.counts.nodes - before;
        if pn == 0 || dn == 0 {
            let children = &self.buffer[base..base + len];
            // The move that proved it, or the first move.
            let cell = children
                .iter()
                .find(|c| c.dn == 0)
                .or(children.first())
                .map_or(0, |c| c.cell);
            let bound = Bound::of_answer(t, pn == 0);
            let peg = usize::from(g.sym[sym][g.peg_of(cell)]);
            let work = nodes.max(1).ilog2();
            self.tables.of(pos.empties).store(key, bound, peg, work);
        } else {
            self.numbers.put(key, t, pn, dn, nodes);
        }
        (pn, dn)
    }
}

#[cfg(test)]
mod tests {
    use super::super::geometry::SYMMETRIES;
    use super::super::search::tests::{quiet_game, shared, unlimited};
    use super::super::table::Table;
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn proof_numbers_answer_every_probe_as_alpha_beta() {
        // df-pn to the end of the game, and df-pn for two plies over alpha-beta, each on fresh
        // tables, then again on one-bucket tables (every entry soon overwritten): the same
        // answer as the alpha-beta probe, for both thresholds.
        let mut rng = Rng::new(23);
        let (mut yes, mut no) = (0, 0);
        for (n, m, range, count) in [(3, 3, 8..20, 150), (4, 3, 8..16, 60), (4, 4, 8..17, 60)] {
            let g = Geometry::<u64>::new(n, m);
            for _ in 0..count {
                let empties = rng.range(range.start, range.end);
                let game = quiet_game(n, m, empties, rng.below(2) == 0, &mut rng);
                let pos: Pos<u64, SYMMETRIES> = Pos::of_game(&g, &game);
                for t in [0, 1] {
                    let shared = shared();
                    let table = Table::new(1 << 16, g.key_bits, g.pegs).unwrap();
                    let mut alpha_beta =
                        Searcher::new(&g, Tables::one(&table), &shared, unlimited(), 0);
                    let want = alpha_beta.probe(&pos, t);
                    for (plies, bytes, nbytes) in [
                        (u32::MAX, 1 << 16, 1 << 16),
                        (2, 1 << 16, 1 << 16),
                        (u32::MAX, 0, 1 << 16),
                        (u32::MAX, 1 << 16, 0),
                    ] {
                        let table = Table::new(bytes, g.key_bits, g.pegs).unwrap();
                        let mut numbers = NumberTable::new(nbytes);
                        let mut searcher =
                            Searcher::new(&g, Tables::one(&table), &shared, unlimited(), 0);
                        let got = Prover::new(&g, Tables::one(&table), &mut numbers, &mut searcher)
                            .with_plies(plies)
                            .probe(&pos, t);
                        assert_eq!(
                            got, want,
                            "({n}, {m}) t = {t}, {plies} plies, {bytes} bytes, {nbytes} for numbers\n{game:?}"
                        );
                    }
                    if want {
                        yes += 1;
                    } else {
                        no += 1;
                    }
                }
            }
        }
        // Both answers were asked often.
        assert!(yes > 100 && no > 100, "{yes} yes, {no} no");
    }

    #[test]
    fn the_number_table_keeps_the_dearer_entry_and_the_threshold() {
        let mut table = NumberTable::new(0);
        assert_eq!(table.buckets.len(), 1);
        table.put(7, 1, 3, 4, 1000);
        assert_eq!(table.get(7, 1), Some((3, 4)));
        // The other threshold's numbers are another position's.
        assert_eq!(table.get(7, 0), None);
        // A cheaper entry takes the second slot; the dear one stays.
        table.put(8, 1, 5, 6, 10);
        assert_eq!(
            (table.get(7, 1), table.get(8, 1)),
            (Some((3, 4)), Some((5, 6)))
        );
        // The next cheap one replaces the second slot only.
        table.put(9, 0, 1, 2, 10);
        assert_eq!(table.get(8, 1), None);
        assert_eq!(
            (table.get(7, 1), table.get(9, 0)),
            (Some((3, 4)), Some((1, 2)))
        );
        // New numbers for a key replace its old ones, keeping the larger work.
        table.put(7, 1, 9, 9, 1);
        assert_eq!(table.get(7, 1), Some((9, 9)));
        assert_eq!(table.buckets[0][0].key, 7);
        // A dearer entry moves the first slot's to the second.
        table.put(10, 1, 1, 1, 1 << 20);
        assert_eq!(
            (table.get(10, 1), table.get(7, 1)),
            (Some((1, 1)), Some((9, 9)))
        );
        table.clear();
        assert_eq!(table.get(10, 1), None);
    }
}
