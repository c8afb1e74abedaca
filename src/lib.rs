//! # bitgames
//!
//! Fast, verified bitboard engines and judges for three board games. Each game is an engine
//! you play and undo on in tight loops; the judges of the three programming-contest problems
//! are built on those engines.
//!
//! - [`sequence`]: 3-D Sequence, gravity connect-m on an n×n×n cube (n ≤ 7): "Make a
//!   Sequence", ICPC Asia Regional Ehime 2004, Problem B
//!   ([AOJ 1249](https://onlinejudge.u-aizu.ac.jp/problems/1249)).
//!   - [`sequence::Game`] has an O(13) win check per ball (one byte per line).
//!   - [`sequence::Cube`] is the 512-bit board, with an independent full-board detector.
//!   - The engine also has a Zobrist hash, the 8 symmetries of the base, threats and random
//!     or decisive playouts.
//!   - [`sequence::sim`] is the simulator: self-play between agents, game-quality metrics,
//!     and the sweep over n and m.
//!   - [`sequence::solver`] is an exact solver: null-window negamax on its own bitboards,
//!     threat rules, a lock-free transposition table, Lazy SMP and a proof checker.
//! - [`havannah`]: Havannah on boards of any size.
//!   - [`havannah::Game`] is a two-player engine (White first): play, undo, legal moves,
//!     Zobrist hash, the swap rule, and both ring rules ([`havannah::RingRule`]: the official
//!     rule, or the Code Jam rule, where the ring must enclose an empty cell).
//!   - [`havannah::gtp`] is a GTP engine that Havannah controllers can drive.
//!   - [`havannah::Stones`] is the one-player structure finder of the Google Code Jam 2012
//!     Round 3 problem "Havannah", on boards up to S = 2³⁰.
//! - [`grid`]: the cross-cutting grid game
//!   ([Jutge P57928 "A grid game"](https://jutge.org/problems/P57928_en)).
//!   - [`grid::Game`] keeps one `u128` per row and per column, finds a move's rectangle in
//!     O(1), updates the Grundy value by XOR, and undoes moves.
//!   - [`grid::grundy`] holds the rectangle values g(a, b), embedded up to 128. Beyond that,
//!     [`grid::grundy::Census`] computes them on every core, with checkpoints.
//!
//! Every game has the same anatomy and speaks the same API dialect (`new`, `reset`, `play`,
//! `undo`, `outcome`, `legal_moves`, `hash`). Errors leave the state unchanged, and nothing
//! allocates after warm-up. Each game has a plain `reference` module, the executable
//! specification its fast code is tested and fuzzed against. Its `judge` module streams the
//! problem's judge format through the shared parallel driver.
//!
//! The shared parts:
//!
//! - [`judge`]: the streaming, multi-threaded driver ([`judge::run`]).
//! - [`input`]: the scanner with typed errors.
//! - [`search`]: random, greedy and UCT agents (RAVE, tree reuse, root-parallel threads) over
//!   the small [`search::Position`] trait, which Sequence and Havannah implement;
//!   [`search::duel`] matches.
//! - [`rng`]: a seeded generator.
//! - [`simd`]: the run-time choice of SIMD back end.
//! - [`render`]: SVG pictures of a position of each game, with the winning structure marked.
//!
//! ```
//! use bitgames::sequence::{Color, Game, Outcome};
//!
//! let mut game = Game::new(4, 3)?;
//! for (x, y) in [(1, 1), (1, 2), (2, 1), (2, 2)] {
//!     assert_eq!(game.play(x, y)?, None);
//! }
//! assert_eq!(game.play(3, 1)?, Some(Outcome::Win { color: Color::Black, at: 5 }));
//! assert_eq!(game.undo().map(|peg| (peg.x, peg.y)), Some((3, 1)));
//! assert_eq!(game.outcome(), None); // undone: the game goes on
//!
//! let mut hex = bitgames::havannah::Game::new(10)?;
//! assert_eq!(hex.play(1, 1)?, None);
//! assert!(hex.play(1, 1).is_err()); // occupied: refused, nothing changed
//!
//! let mut grid = bitgames::grid::Game::new(2, 2)?;
//! assert!(!grid.is_winning()); // 2 × 2 is lost for the player to move
//! grid.play(1, 1)?;
//! assert!(grid.is_winning());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Features
//!
//! - `cli` (default): the `bitgames` binary, with its judges, `grid-table`, `gtp`,
//!   `simulate` and `sweep` commands. It adds clap, indicatif, memmap2, plotters (SVG only)
//!   and serde_json. A library user turns it off with `default-features = false`; the
//!   library then depends on bitvec, bytecount, memchr, rayon and rustc-hash only.
//!
//! ## SIMD
//!
//! The hot kernels are chosen once per process, at run time ([`simd::Backend::detect`]), from
//! what the CPU offers:
//!
//! - the Sequence full-board detector: AVX-512F, AVX2 or portable;
//! - the Sequence playout: SSE4.1 or portable;
//! - the grid judge's fast path: AVX-512 VBMI2, AVX2 or portable;
//! - the Grundy census: AVX2 or portable.
//!
//! The environment variable `BITGAMES_SIMD` caps the choice: `portable` or `avx2`. Every back
//! end gives the same answers (the tests compare each one with the portable code, which is
//! also what Miri and non-x86-64 targets run). Target features are reached only through
//! token types whose constructors check the CPU, so no build flag such as
//! `-C target-cpu=native` is needed.
//!
//! ## Costs
//!
//! - The judges read input in blocks of 1 MiB per thread and judge the blocks' pieces on all
//!   cores (see [`judge::Options`]); memory does not grow with the input.
//! - Game values are small and `Copy` where they can be. The engines' fixed tables (line
//!   runs, Zobrist keys, Havannah's arcs) are built at compile time; the grid game's table up
//!   to 128 is embedded in the binary; the solver builds the tables of its (n, m) when it is
//!   made.
//! - Havannah's memory follows the stones, not the board's area. The solver's transposition
//!   table has the size the caller sets ([`sequence::solver::Options`]).

#![warn(missing_docs)]

pub mod grid;
pub mod havannah;
pub mod input;
pub mod judge;
pub mod render;
pub mod rng;
pub mod search;
pub mod sequence;
pub mod simd;

pub use judge::{JudgeError, Options};

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
