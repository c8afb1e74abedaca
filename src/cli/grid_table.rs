//! `bitgames grid-table --max N [--zeros] [--resume FILE] [OUTPUT]`: the grid game's Grundy
//! values.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bitgames::grid::grundy::{Census, Table};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::Failure;

/// Seconds between two checkpoints of a run with `--resume`.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(20);

/// What `grid-table` computes and where it writes it.
#[derive(Args)]
pub struct GridTableArgs {
    /// The largest side: the table covers 1 ≤ a, b ≤ MAX.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=8192))]
    max: u16,
    /// Write only the losing rectangles (g = 0) with a ≤ b, as `a,b` lines, not the table.
    #[arg(long)]
    zeros: bool,
    /// A checkpoint file: the run goes on from it when it exists (a census to the same MAX),
    /// and saves its rows to it as it goes (every 20 seconds and at the end), so that an
    /// interrupted run resumes.
    #[arg(long, value_name = "FILE")]
    resume: Option<PathBuf>,
    /// Output file; standard output when absent or `-`.
    output: Option<PathBuf>,
}

/// Computes the grid game's table up to `args.max` on all cores, with a progress bar on a
/// terminal (and checkpoints with `--resume`), and writes it as CSV or as the list of zeros.
pub fn run(args: &GridTableArgs) -> Result<(), Failure> {
    let max = usize::from(args.max);
    let mut census = match &args.resume {
        Some(path) if path.exists() => resume(path, max)?,
        _ => Census::new(max),
    };
    // Row a costs about a · (max² − a²): the bar advances by work, not by rows.
    let n2 = (max * max) as f64;
    let work = |a: usize| {
        let s = (a * (a + 1) / 2) as f64;
        n2 * s - s * s
    };
    let total = work(max).max(1.0);
    let bar = if io::stderr().is_terminal() {
        ProgressBar::with_draw_target(Some(1_000_000), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("grid-table {bar:30} {msg} {elapsed} (eta {eta})")
            .map_err(|e| Failure::run(e.to_string()))?,
    );
    let (start, first) = (Instant::now(), census.rows_done());
    let mut saved = Instant::now();
    loop {
        let a = census.rows_done();
        bar.set_position((work(a) / total * 1e6) as u64);
        let rate = (a - first) as f64 / start.elapsed().as_secs_f64().max(1e-3);
        bar.set_message(format!("rows {a}/{max}, {rate:.1} rows/s"));
        if let Some(path) = &args.resume
            && (saved.elapsed() >= CHECKPOINT_EVERY || a == max)
        {
            checkpoint(&census, path)?;
            saved = Instant::now();
        }
        if !census.next_row().map_err(|e| Failure::run(e.to_string()))? {
            break;
        }
    }
    bar.finish_and_clear();
    write(&census.into_table(), args)
}

/// The census saved in `path`, which must be one to `max`.
fn resume(path: &Path, max: usize) -> Result<Census, Failure> {
    let name = path.display();
    let file = File::open(path).map_err(|e| Failure::run(format!("{name}: {e}")))?;
    let census = Census::load(&mut BufReader::new(file))
        .map_err(|e| Failure::run(format!("{name}: {e}")))?;
    if census.max() != max {
        return Err(Failure::usage(format!(
            "{name} holds a census to {}, not to --max {max}",
            census.max()
        )));
    }
    Ok(census)
}

/// Saves `census` to `path`, through a file beside it that replaces it whole.
fn checkpoint(census: &Census, path: &Path) -> Result<(), Failure> {
    let mut part = path.as_os_str().to_owned();
    part.push(".part");
    let part = PathBuf::from(part);
    let failed = |e: io::Error| Failure::run(format!("{}: {e}", part.display()));
    let mut out = BufWriter::new(File::create(&part).map_err(failed)?);
    census.save(&mut out).map_err(failed)?;
    out.into_inner()
        .map_err(|e| failed(e.into_error()))?
        .sync_all()
        .map_err(failed)?;
    std::fs::rename(&part, path).map_err(|e| Failure::run(format!("{}: {e}", path.display())))
}

/// Writes the table, or its zeros, where `args` says.
fn write(table: &Table, args: &GridTableArgs) -> Result<(), Failure> {
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
