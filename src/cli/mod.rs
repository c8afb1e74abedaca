//! The subcommands of the `bitgames` binary, one module each: argument types (clap derive) and a
//! `run` function. No game logic lives here; every command calls the library.

pub mod duel;
pub mod grid_table;
pub mod gtp;
pub mod judge;
pub mod render;
pub mod simulate;
pub mod solve;
pub mod sweep;

use std::fmt;
use std::fs::File;
use std::io::{self, Write};
use std::path::Path;

/// Why a command failed: the message printed after `error: `, and the exit status.
#[derive(Debug)]
pub struct Failure {
    /// The exit status: 1 for bad input or a failed run, 2 for a bad combination of flags
    /// (as clap's own usage errors).
    pub code: u8,
    /// What went wrong, and where.
    pub message: String,
}

impl Failure {
    /// A run that failed (bad input, a read or write error): exit status 1.
    pub fn run(message: impl Into<String>) -> Failure {
        Failure {
            code: 1,
            message: message.into(),
        }
    }

    /// Flags that clap accepted one by one but that do not go together: exit status 2.
    pub fn usage(message: impl Into<String>) -> Failure {
        Failure {
            code: 2,
            message: message.into(),
        }
    }
}

/// Checks the `BITGAMES_SIMD` cap before any work ([`bitgames::simd::check_env`]): a value
/// that means nothing is a usage error rather than a silent default.
pub fn check_simd_env() -> Result<(), Failure> {
    bitgames::simd::check_env().map_err(Failure::usage)
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// What a command's output file argument names: a file, or standard output for `None` and `-`.
/// Returns the name to use in messages and the sink.
pub fn output(path: Option<&Path>) -> Result<(String, Box<dyn Write>), Failure> {
    match path {
        Some(path) if path.as_os_str() != "-" => {
            let file =
                File::create(path).map_err(|e| Failure::run(format!("{}: {e}", path.display())))?;
            Ok((path.display().to_string(), Box::new(file)))
        }
        _ => Ok(("<stdout>".into(), Box::new(io::stdout().lock()))),
    }
}
