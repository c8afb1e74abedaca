//! `bitgames grid-table --max N [--zeros] [OUTPUT]`: the grid game's Grundy values.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::PathBuf;

use bitgames::grid::grundy::Table;
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::Failure;

/// What `grid-table` computes and where it writes it.
#[derive(Args)]
pub struct GridTableArgs {
    /// The largest side: the table covers 1 ≤ a, b ≤ MAX.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=8192))]
    max: u16,
    /// Write only the losing rectangles (g = 0) with a ≤ b, as `a,b` lines, not the table.
    #[arg(long)]
    zeros: bool,
    /// Output file; standard output when absent or `-`.
    output: Option<PathBuf>,
}

/// Computes the grid game's table up to `args.max` on all cores, with a progress bar on a
/// terminal, and writes it as CSV or as the list of zeros.
pub fn run(args: &GridTableArgs) -> Result<(), Failure> {
    let max = usize::from(args.max);
    // Row a costs about a · (max² − a²): the bar advances by work, not by rows.
    let n2 = (max * max) as f64;
    let done = |a: usize| {
        let s = (a * (a + 1) / 2) as f64;
        n2 * s - s * s
    };
    let total = done(max).max(1.0);
    let bar = if io::stderr().is_terminal() {
        ProgressBar::with_draw_target(Some(1000), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("grid-table {bar:40} {percent}% {elapsed} (eta {eta})")
            .map_err(|e| Failure::run(e.to_string()))?,
    );
    let table = Table::compute(max, |a| bar.set_position((done(a) / total * 1000.0) as u64))
        .map_err(|e| Failure::run(e.to_string()))?;
    bar.finish_and_clear();

    let (name, sink) = super::output(args.output.as_deref())?;
    let mut out = BufWriter::with_capacity(1 << 16, sink);
    let written = if args.zeros {
        writeln!(out, "a,b").and_then(|()| {
            table
                .zeros()
                .iter()
                .try_for_each(|(a, b)| writeln!(out, "{a},{b}"))
        })
    } else {
        table.write_csv(&mut out)
    };
    written
        .and_then(|()| out.flush())
        .map_err(|e| Failure::run(format!("{name}: {e}")))
}
