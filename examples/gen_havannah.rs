//! Writes a random valid Havannah judge input to standard output.
//!
//! `cargo run --release --example gen_havannah -- [CASES [SIDE [MOVES [SEED]]]]`
//! (default: 400 cases, S = 3000, 10 000 scattered moves, seed 1).

use std::io::{self, BufWriter};

fn main() -> io::Result<()> {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("arguments are unsigned numbers"))
        .collect();
    let arg = |i: usize, default: u64| args.get(i).copied().unwrap_or(default);
    let side = u32::try_from(arg(1, 3000)).expect("SIDE fits in u32");
    let mut out = BufWriter::new(io::stdout().lock());
    bitgames::havannah::judge::generate(
        &mut out,
        &mut bitgames::rng::Rng::new(arg(3, 1)),
        u32::try_from(arg(0, 400)).expect("CASES fits in u32"),
        side,
        u32::try_from(arg(2, 10_000)).expect("MOVES fits in u32"),
    )
}
