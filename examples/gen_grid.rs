//! Writes a random grid-game judge input to standard output; or, with `table128`, the Grundy
//! table the library embeds (`src/grid/table128.bin`: g(a, b) for 0 ≤ a, b ≤ 128 as bytes,
//! row-major).
//!
//! `cargo run --release --example gen_grid -- [CASES] [SEED] [MAX_SIDE] [MAX_MOVES]`
//! (defaults 400000, 1, 80, no limit): each case is a prefix of uniform length of a random game.
//!
//! `cargo run --release --example gen_grid -- table128 > src/grid/table128.bin`

use std::io::Write;

use bitgames::grid::MAX_SIDE;
use bitgames::grid::grundy::Table;
use bitgames::grid::judge::generate;
use bitgames::rng::Rng;

fn main() -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if std::env::args().nth(1).as_deref() == Some("table128") {
        let max = MAX_SIDE as usize;
        let table = Table::new(max);
        let bytes: Vec<u8> = (0..=max)
            .flat_map(|a| (0..=max).map(move |b| (a, b)))
            .map(|(a, b)| u8::try_from(table.get(a, b)).expect("values up to 128 fit a byte"))
            .collect();
        out.write_all(&bytes)?;
        return out.flush();
    }
    let mut args = std::env::args().skip(1).map(|a| a.parse::<u64>());
    let mut next = |default| args.next().and_then(Result::ok).unwrap_or(default);
    let (cases, seed, max_side, max_moves) = (next(400_000), next(1), next(80), next(u64::MAX));
    generate(
        &mut out,
        &mut Rng::new(seed),
        cases as usize,
        u32::try_from(max_side).unwrap_or(u32::MAX),
        usize::try_from(max_moves).unwrap_or(usize::MAX),
    )?;
    out.flush()
}
