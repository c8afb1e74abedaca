//! Writes a random grid-game judge input to standard output.
//!
//! `cargo run --release --example gen_grid -- [CASES] [SEED] [MAX_SIDE]` (defaults 400000, 1, 80).

use std::io::Write;

use bitgames::grid::judge::generate;
use bitgames::rng::Rng;

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<u64>());
    let mut next = |default| args.next().and_then(Result::ok).unwrap_or(default);
    let (cases, seed, max_side) = (next(400_000), next(1), next(80));
    let mut out = Vec::new();
    generate(
        &mut Rng::new(seed),
        cases as usize,
        max_side as usize,
        &mut out,
    );
    std::io::stdout().lock().write_all(&out)
}
