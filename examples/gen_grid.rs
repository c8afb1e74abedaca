//! Writes a random grid-game judge input to standard output.
//!
//! `cargo run --release --example gen_grid -- [CASES] [SEED] [MAX_SIDE] [MAX_MOVES]`
//! (defaults 400000, 1, 80, no limit): each case is a prefix of uniform length of a random game.

use std::io::Write;

use bitgames::grid::judge::generate;
use bitgames::rng::Rng;

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<u64>());
    let mut next = |default| args.next().and_then(Result::ok).unwrap_or(default);
    let (cases, seed, max_side, max_moves) = (next(400_000), next(1), next(80), next(u64::MAX));
    let mut out = Vec::new();
    let max_moves = usize::try_from(max_moves).unwrap_or(usize::MAX);
    generate(
        &mut Rng::new(seed),
        cases as usize,
        max_side as usize,
        max_moves,
        &mut out,
    );
    std::io::stdout().lock().write_all(&out)
}
