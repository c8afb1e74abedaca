//! The cross-cutting grid game (Jutge P57928 "A grid game", by Salvador Roura).
//!
//! Two players alternate on an r × c grid; a move picks a permitted cell and forbids it and the
//! permitted cells of its row and column, in each direction up to the first forbidden cell or the
//! border. Whoever cannot move loses. Every position is a disjoint sum of rectangles, so its
//! Grundy value is the XOR of the rectangles' values g(a, b) ([`grundy`]).
//!
//! - [`Grid`]: a position on row and column bitboards (r, c ≤ 128), O(1) rectangle lookup and
//!   Grundy update per move, [`Grid::winning_moves`].
//! - [`grundy`]: the table of g(a, b), shared up to 128, and larger tables on every core.
//! - [`reference`](mod@reference): the plain executable specification the engine is tested
//!   against.
//! - [`judge`]: the judge format, for [`crate::judge::run`].
//!
//! ```
//! use bitgames::grid::Grid;
//!
//! let mut grid = Grid::new(2, 2)?;
//! assert!(!grid.is_winning()); // 2 × 2 is lost for the first player
//! grid.play(1, 1)?;
//! assert!(grid.is_winning());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

// The judge's fast path runs on x86-64 with AVX-512 only (`batch::run_best`); on other
// CPUs the module is still compiled, as the specification its tests check.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) mod batch;
pub mod grundy;
pub mod judge;
pub(crate) mod position;
pub mod reference;

pub use position::{Cell, Grid, MAX_SIDE, PlayError, Rect, SizeError, Undo, UndoError};
