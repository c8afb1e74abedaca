//! The `bitgames` command line: argument parsing and dispatch only.

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
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
}

/// Where a judge reads and how it works.
#[derive(Args)]
struct JudgeArgs {
    /// Input file in the judge format; standard input when absent or `-`.
    file: Option<PathBuf>,
    /// Threads judging at the same time [default: one per core].
    #[arg(short = 'j', long, value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Sequence(args) => judge_with(&bitgames::sequence::judge::Judge, &args),
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
    let (name, input): (String, Box<dyn Read>) = match &args.file {
        None => ("<stdin>".into(), Box::new(io::stdin().lock())),
        Some(path) if path.as_os_str() == "-" => ("<stdin>".into(), Box::new(io::stdin().lock())),
        Some(path) => {
            let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
            (path.display().to_string(), Box::new(file))
        }
    };
    let stdout = io::stdout().lock();
    let mut out = BufWriter::with_capacity(1 << 16, stdout);
    let result = judge::run(format, input, &mut out, options)
        .and_then(|_| out.flush().map_err(JudgeError::Write));
    match result {
        Ok(()) => Ok(()),
        // A reader that stopped early (`bitgames ... | head`) is not a failure.
        Err(JudgeError::Write(e)) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(JudgeError::Write(e)) => Err(format!("<stdout>: {e}")),
        Err(JudgeError::Read(e)) => Err(format!("{name}: {e}")),
        Err(e) => Err(format!("{name}:{e}")),
    }
}
