//! Writes a random, valid "Make a Sequence" judge input to standard output.
//!
//! `cargo run --release --example gen_sequence -- DATASETS [N] [SEED] > big.in`

use std::io::{self, BufWriter};

fn main() -> io::Result<()> {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| {
            a.parse()
                .expect("arguments are numbers: DATASETS [N] [SEED]")
        })
        .collect();
    let datasets = args.first().copied().unwrap_or(1000) as usize;
    let n = args.get(1).copied().unwrap_or(7) as u32;
    let mut rng = bitgames::rng::Rng::new(args.get(2).copied().unwrap_or(1));
    let mut out = BufWriter::new(io::stdout().lock());
    bitgames::sequence::judge::generate(&mut out, &mut rng, datasets, n)
}
