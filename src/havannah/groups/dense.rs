//! The dense layout: one spot per cell of the square around a small board, groups kept by
//! quick-find, and a cell's neighbourhood read in three short loads.

use super::EMPTY;
use super::arcs::{ARCS, BRIDGE_FORK};
use crate::havannah::Wins;
use crate::havannah::geometry::Border;

/// One cell of the dense layout's square. Groups are kept by *quick-find*: every stone knows
/// its group's root exactly, so finding it is one load and no loop; a group's stones form a
/// circular list through `next`, walked only to relabel the smaller group when two merge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Spot {
    /// The root (a cell index) of the stone's group; [`EMPTY`] without a stone.
    pub(super) root: u32,
    /// The next stone of the same group (circular).
    pub(super) next: u32,
    /// At a root: the corners and edges its group touches.
    pub(super) border: Border,
    /// At a root: how many stones its group has.
    pub(super) size: u16,
}

impl Spot {
    pub(super) const EMPTY: Spot = Spot {
        root: EMPTY,
        next: EMPTY,
        border: Border::NONE,
        size: 0,
    };
}

/// Bytes [`gather`] may read past a cell of the square.
pub(super) const GATHER_PAD: usize = 4;

/// The stones around cell `at` of a dense square of width `w` (`occupied` as in [`Groups`],
/// `w < at` and `at + w + 1 < occupied.len() - GATHER_PAD`) as eight bits, from three short
/// reads and one multiply: bit 0 (x−1, y−1), 1 (x−1, y), 2 (x, y−1), 3 the cell itself,
/// 4 (x, y+1), 5 nothing, 6 (x+1, y), 7 (x+1, y+1).
#[inline(always)]
pub(super) fn gather(occupied: &[u8], at: usize, w: usize) -> u32 {
    let read = |i: usize, n: usize| {
        let mut bytes = [0u8; 8];
        bytes[..n].copy_from_slice(&occupied[i..i + n]);
        u64::from_le_bytes(bytes)
    };
    // Bytes: (x−1, y−1), (x−1, y) | (x, y−1), (x, y), (x, y+1), junk | (x+1, y), (x+1, y+1).
    let bytes = read(at - w - 1, 2) | read(at - 1, 4) << 16 | read(at + w, 2) << 48;
    let bytes = bytes & 0xffff_00ff_ffff_ffff;
    // Each byte is 0 or 1: the multiply moves byte i's bit to bit 56 + i, without carries.
    (bytes.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
}

/// [`ARCS`] indexed by [`gather`]'s bits (the cell's own bit ignored).
pub(super) static ARCS_GATHERED: [u16; 256] = {
    // Where gather puts direction d.
    const BIT: [u32; 6] = [7, 4, 1, 0, 2, 6];
    let mut table = [0u16; 256];
    let mut g = 0;
    while g < 256 {
        let mut occ = 0;
        let mut d = 0;
        while d < 6 {
            occ |= (g >> BIT[d] & 1) << d;
            d += 1;
        }
        table[g as usize] = ARCS[occ as usize];
        g += 1;
    }
    table
};

/// Spot `i`, which must be a cell of the square.
#[inline(always)]
fn spot(spots: &[Spot], i: usize) -> &Spot {
    debug_assert!(i < spots.len(), "spot {i} out of range");
    // SAFETY: the dense layout passes only cells of the square: a move's cell (checked
    // against the width in `Groups::play`), its neighbours (an on-board cell's are inside the
    // frame, asserted there), and roots and list links, which are only ever set to cells of
    // this game's stones (a spot is written in full when its stone is placed, before any link
    // to it exists); `Groups::reset` keeps `spots.len()` at the square's area. Unchecked access
    // saves about a fifth of the instructions of a dense move (cachegrind, S = 10 games).
    unsafe { spots.get_unchecked(i) }
}

/// Spot `i`, mutably, under the same condition as [`spot`].
#[inline(always)]
fn spot_mut(spots: &mut [Spot], i: usize) -> &mut Spot {
    debug_assert!(i < spots.len(), "spot {i} out of range");
    // SAFETY: as in `spot`.
    unsafe { spots.get_unchecked_mut(i) }
}

/// Makes cell `at` a stone touching `border`, joins it to the groups of its occupied
/// neighbours (`arcs`: their arcs as in [`Groups::arc_offsets`]) and reports the wins.
#[inline(always)]
pub(super) fn join_dense(spots: &mut [Spot], at: usize, border: Border, arcs: u64) -> Wins {
    let count = arcs & 3;
    let arc = |k: u32| at.wrapping_add_signed(isize::from((arcs >> (16 + 16 * k)) as i16));
    // Unused (and possibly stale) without an arc.
    let r0 = spot(spots, arc(0)).root;
    // No arc: the stone starts its own group.
    let mut root = if count == 0 { at as u32 } else { r0 };
    let mut ring = false;
    if count >= 2 {
        let (r1, r2) = (spot(spots, arc(1)).root, spot(spots, arc(2)).root);
        ring = r1 == r0 || (count == 3 && (r2 == r0 || r2 == r1));
        root = merge(spots, root, r1);
        // Read again: the merge may have relabelled r2's group.
        root = merge(spots, root, spot(spots, arc(2)).root);
    }
    // Into `root`'s circular list, right after the root.
    *spot_mut(spots, at) = Spot {
        root,
        next: at as u32,
        border,
        size: 0,
    };
    let r = root as usize;
    spot_mut(spots, at).next = spot(spots, r).next;
    let root_spot = spot_mut(spots, r);
    root_spot.next = at as u32;
    root_spot.size += 1;
    root_spot.border = root_spot.border.with(border);
    let joined = root_spot.border;
    Wins::from_bits(BRIDGE_FORK[usize::from(joined.bits() & 0xfff)] | u8::from(ring) << 2)
}

/// Joins the groups of roots `a` and `b` (which may be the same) by relabelling the smaller
/// one; returns the root of the whole.
#[inline(always)]
fn merge(spots: &mut [Spot], a: u32, b: u32) -> u32 {
    if a == b {
        return a;
    }
    let (ua, ub) = (a as usize, b as usize);
    let (big, small) = if spot(spots, ua).size >= spot(spots, ub).size {
        (ua, ub)
    } else {
        (ub, ua)
    };
    let mut c = small;
    loop {
        let s = spot_mut(spots, c);
        s.root = big as u32;
        c = s.next as usize;
        if c == small {
            break;
        }
    }
    let small_spot = *spot(spots, small);
    let big_spot = spot_mut(spots, big);
    let next = big_spot.next;
    big_spot.next = small_spot.next;
    big_spot.size += small_spot.size;
    big_spot.border = big_spot.border.with(small_spot.border);
    spot_mut(spots, small).next = next;
    big as u32
}
