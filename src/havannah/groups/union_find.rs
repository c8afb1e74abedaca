//! The sparse layout's union-find: union by rank, path halving, each root carrying the corners
//! and edges of its group.

use super::{EMPTY, Groups};
use crate::havannah::geometry::Border;

/// One union-find node: a stone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Node {
    /// The parent node; a root is its own parent ([`EMPTY`] for an empty dense cell).
    pub(super) parent: u32,
    /// For a root, the corners and edges its group touches.
    pub(super) border: Border,
    /// For a root, an upper bound of its tree's height.
    pub(super) rank: u16,
}

impl Node {
    pub(super) const EMPTY: Node = Node {
        parent: EMPTY,
        border: Border::NONE,
        rank: 0,
    };
}

impl Groups {
    /// The root of `a`'s group, halving the path on the way.
    #[inline(always)]
    pub(super) fn find(&mut self, mut a: u32) -> u32 {
        loop {
            let parent = self.node(a).parent;
            if parent == a {
                return a;
            }
            let grand = self.node(parent).parent;
            self.node_mut(a).parent = grand;
            a = grand;
        }
    }

    /// Joins two different roots; returns the new root.
    #[inline(always)]
    pub(super) fn union(&mut self, a: u32, b: u32) -> u32 {
        let (ra, rb) = (self.node(a).rank, self.node(b).rank);
        let (big, small) = if ra < rb { (b, a) } else { (a, b) };
        let moved = self.node(small).border;
        self.node_mut(small).parent = big;
        let root = self.node_mut(big);
        root.border = root.border.with(moved);
        root.rank += u16::from(ra == rb);
        big
    }

    /// Node `i`, which must be a stone of this game (see [`Groups`]'s invariant).
    #[inline(always)]
    pub(super) fn node(&self, i: u32) -> &Node {
        debug_assert!((i as usize) < self.nodes.len(), "node {i} out of range");
        // SAFETY: `i` is a stone's node: the dense layout hands out only in-frame cells
        // (asserted in `play`), the sparse one only indices of pushed nodes, and parents are
        // set only to such nodes; `reset` forgets every one of them. Unchecked access saves
        // ~30 instructions per move in the union-find (cachegrind, S = 10 random games).
        unsafe { self.nodes.get_unchecked(i as usize) }
    }

    /// Node `i`, mutably, under the same condition as [`Groups::node`].
    #[inline(always)]
    pub(super) fn node_mut(&mut self, i: u32) -> &mut Node {
        debug_assert!((i as usize) < self.nodes.len(), "node {i} out of range");
        // SAFETY: as in `node`.
        unsafe { self.nodes.get_unchecked_mut(i as usize) }
    }
}
