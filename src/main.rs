//! The `bitgames` command line: argument parsing and dispatch only.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use bitgames::judge::{self, Format, JudgeError, Options};
use clap::{Args, Parser, Subcommand};

/// Fast, verified judges and engines for 3-D Sequence, Havannah and the grid game.
#[derive(Parser)]
#[command(version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Judge "Make a Sequence" datasets (3-D gravity connect-m), ending with `0 0 0`.
    Sequence(JudgeArgs),
    /// Judge Havannah cases (GCJ 2012 Round 3): the first bridge, fork or ring of each.
    Havannah(JudgeArgs),
    /// Judge grid-game cases (Jutge P57928 "A grid game"), tokens until the end of input.
    Grid(JudgeArgs),
    /// Compute the grid game's Grundy values g(a, b) of the a × b rectangles up to a size.
    GridTable(GridTableArgs),
}

/// What `grid-table` computes and where it writes it.
#[derive(Args)]
struct GridTableArgs {
    /// The largest side: the table covers 1 ≤ a, b ≤ MAX.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=8192))]
    max: u16,
    /// Write only the losing rectangles (g = 0) with a ≤ b, as `a,b` lines, not the table.
    #[arg(long)]
    zeros: bool,
    /// Output file; standard output when absent or `-`.
    output: Option<PathBuf>,
}

/// Where a judge reads and how it works.
#[derive(Args)]
struct JudgeArgs {
    /// Input file in the judge format; standard input when absent or `-`.
    file: Option<PathBuf>,
    /// Threads judging at the same time [default: one per core].
    #[arg(short = 'j', long, value_parser = clap::value_parser!(u16).range(1..=judge::MAX_THREADS as i64))]
    threads: Option<u16>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Sequence(args) => judge_with(&bitgames::sequence::judge::Judge, &args),
        Command::Havannah(args) => judge_with(&bitgames::havannah::judge::Judge, &args),
        Command::Grid(args) => judge_with(&bitgames::grid::judge::Judge, &args),
        Command::GridTable(args) => grid_table(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Runs `format` over the input named in `args`, answers to standard output.
fn judge_with<F: Format>(format: &F, args: &JudgeArgs) -> Result<(), String> {
    let mut options = Options::default();
    if let Some(threads) = args.threads {
        options.threads = usize::from(threads);
    }
    let stdout = io::stdout().lock();
    let mut out = BufWriter::with_capacity(1 << 16, stdout);
    let (name, result) = match &args.file {
        Some(path) if path.as_os_str() != "-" => {
            let name = path.display().to_string();
            let file = File::open(path).map_err(|e| format!("{name}: {e}"))?;
            // A regular file is judged in place through a read-only memory map; anything else
            // (a pipe, a device, a file that cannot be mapped) is read in blocks.
            let map = if file.metadata().is_ok_and(|m| m.is_file() && m.len() > 0) {
                // SAFETY: the map is read-only and private to this process. Another process
                // truncating or rewriting the file while it is judged is outside what this
                // tool supports, as for every tool that maps its input.
                unsafe { memmap2::Mmap::map(&file) }.ok()
            } else {
                None
            };
            let result = match &map {
                Some(bytes) => judge::run_bytes(format, bytes, &mut out, options),
                None => judge::run(format, file, &mut out, options),
            };
            (name, result)
        }
        _ => (
            "<stdin>".to_string(),
            judge::run(format, io::stdin().lock(), &mut out, options),
        ),
    };
    match result.and_then(|_| out.flush().map_err(JudgeError::Write)) {
        Ok(()) => Ok(()),
        // A reader that stopped early (`bitgames ... | head`) is not a failure.
        Err(JudgeError::Write(e)) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(JudgeError::Write(e)) => Err(format!("<stdout>: {e}")),
        Err(JudgeError::Read(e)) => Err(format!("{name}: {e}")),
        Err(e) => Err(format!("{name}:{e}")),
    }
}

/// Computes the grid game's table up to `args.max` on all cores, with a progress bar on a
/// terminal, and writes it as CSV or as the list of zeros.
fn grid_table(args: &GridTableArgs) -> Result<(), String> {
    use bitgames::grid::grundy::Table;
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    use std::io::IsTerminal;

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
            .map_err(|e| e.to_string())?,
    );
    let table = Table::compute(max, |a| bar.set_position((done(a) / total * 1000.0) as u64))
        .map_err(|e| e.to_string())?;
    bar.finish_and_clear();

    let (name, sink): (String, Box<dyn Write>) = match &args.output {
        Some(path) if path.as_os_str() != "-" => {
            let file = File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
            (path.display().to_string(), Box::new(file))
        }
        _ => ("<stdout>".into(), Box::new(io::stdout().lock())),
    };
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
        .map_err(|e| format!("{name}: {e}"))
}
