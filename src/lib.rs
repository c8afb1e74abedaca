//! # bitgames
//!
//! Fast, verified engines and judges for three board games, built on bitboards:
//!
//! - [`sequence`]: 3-D gravity connect-m on an n×n×n cube (n ≤ 7), the ICPC 2004 problem
//!   "Make a Sequence". The cube is one 512-bit board per colour ([`sequence::Cube`]), with an
//!   O(13) incremental win check per ball and an independent full-board shift-and detector that
//!   runs on AVX-512, AVX2 or portable code, chosen at run time ([`simd`]).
//! - [`havannah`]: the first bridge, fork or ring in a sequence of Havannah moves (GCJ 2012,
//!   Round 3) on boards of any size: union-find over a hash table of stones, exact O(1) rings.
//! - [`grid`]: the cross-cutting grid game (Jutge P57928). Positions are sums of rectangles;
//!   one `u128` per row and per column finds a move's rectangle in O(1), and the position's
//!   Grundy value is updated by XOR from a shared table of rectangle values.
//!
//! Every game has the same anatomy: a value type to play and undo on in tight loops (no
//! allocation, errors leave the state unchanged), a plain `reference` module that is the
//! executable specification the fast code is tested and fuzzed against, and a `judge` module that
//! streams the published judge format through the shared parallel driver in [`judge`].
//!
//! ## Costs
//! - The judges read input in blocks of 1 MiB per thread and judge the blocks' pieces on all
//!   cores (see [`judge::Options`]); memory does not grow with the input.
//! - Game values are small and `Copy` where they can be; tables are built at compile time.
//!
//! ```
//! use bitgames::sequence::{Color, Game, Outcome};
//!
//! let mut game = Game::new(4, 3)?;
//! for (x, y) in [(1, 1), (1, 2), (2, 1), (2, 2)] {
//!     assert_eq!(game.play(x, y)?, None);
//! }
//! assert_eq!(game.play(3, 1)?, Some(Outcome::Win { color: Color::Black, at: 5 }));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

pub mod grid;
pub mod havannah;
pub mod input;
pub mod judge;
pub mod rng;
pub mod search;
pub mod sequence;
pub mod simd;

pub use judge::{JudgeError, Options};

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
