//! `bitgames sequence|havannah|grid [FILE]`: a judge over a file or standard input.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use bitgames::judge::{self, Format, JudgeError, Options};
use clap::Args;

use super::Failure;

/// Where a judge reads and how it works.
#[derive(Args)]
pub struct JudgeArgs {
    /// Input file in the judge format; standard input when absent or `-`.
    file: Option<PathBuf>,
    /// Threads judging at the same time [default: one per core].
    #[arg(short = 'j', long, value_parser = clap::value_parser!(u16).range(1..=judge::MAX_THREADS as i64))]
    threads: Option<u16>,
}

/// Runs `format` over the input named in `args`, answers to standard output.
pub fn run<F: Format>(format: &F, args: &JudgeArgs) -> Result<(), Failure> {
    let mut options = Options::default();
    if let Some(threads) = args.threads {
        options.threads = usize::from(threads);
    }
    let stdout = io::stdout().lock();
    let mut out = BufWriter::with_capacity(1 << 16, stdout);
    let (name, result) = match &args.file {
        Some(path) if path.as_os_str() != "-" => {
            let name = path.display().to_string();
            let file = File::open(path).map_err(|e| Failure::run(format!("{name}: {e}")))?;
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
        Err(JudgeError::Write(e)) => Err(Failure::run(format!("<stdout>: {e}"))),
        Err(JudgeError::Read(e)) => Err(Failure::run(format!("{name}: {e}"))),
        Err(e) => Err(Failure::run(format!("{name}:{e}"))),
    }
}
