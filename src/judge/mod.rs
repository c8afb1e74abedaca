//! The streaming, parallel judge driver shared by the three games.
//!
//! A game describes its judge format once, as a [`Format`]: how to read and solve one dataset,
//! how to write one answer, and how to *guess* where a dataset starts in the middle of a block
//! ([`Format::resync`]). [`run`] does the rest:
//!
//! - input is read in large blocks (memory stays bounded, however long the stream);
//! - each block is cut into one piece per thread at guessed dataset starts, and the pieces are
//!   judged at the same time;
//! - the pieces are then checked in order: a piece counts only if the piece before it ended
//!   exactly where the guess said it would start; otherwise it is judged again from the right
//!   place. A bad guess costs time, never correctness;
//! - answers are written in input order; on bad input every earlier answer is written, then
//!   [`run`] returns a [`JudgeError`] with line, column and dataset number.

mod driver;
mod piece;
mod source;

use std::fmt;
use std::io::{self, Read, Write};
use std::sync::Arc;

use crate::input::{Problem, Scanner, Stop};
use driver::drive;
use source::Source;

/// A judge input format: the per-game part of [`run`].
pub trait Format: Sync + sealed::Sealed {
    /// What is read once before the datasets (Havannah's number of cases); `()` if nothing.
    type Header: Copy + Send + Sync;
    /// The answer to one dataset, kept compact until it is written.
    type Answer: Copy + Send;
    /// Working memory of one thread, reused from dataset to dataset.
    type Scratch: Default + Send;

    /// Reads the header at the start of the input.
    ///
    /// # Errors
    /// [`Stop`] as for [`Format::dataset`].
    fn header(&self, sc: &mut Scanner<'_>) -> Result<Self::Header, Stop>;

    /// The number of datasets the header announces, if it announces one.
    fn count(&self, header: &Self::Header) -> Option<u64>;

    /// Reads and judges one dataset; `Ok(None)` at the format's end marker (or end of input).
    ///
    /// # Errors
    /// [`Stop::Incomplete`] when the block ends inside the dataset and is not the last one,
    /// [`Stop::Bad`] when the input breaks the format.
    fn dataset(
        &self,
        header: &Self::Header,
        scratch: &mut Self::Scratch,
        sc: &mut Scanner<'_>,
    ) -> Result<Option<Self::Answer>, Stop>;

    /// Judges whole datasets on a fast path from the scanner's position, which is at a token
    /// (or at the end of the block), pushing their answers onto `answers`, and returns how
    /// many it judged. It stops before a dataset that starts at or after byte `stop_at`, when
    /// `answers` holds `limit` answers, and before any dataset it cannot judge fast (a bad
    /// one, one the block cuts off, the end of the input), leaving the scanner at that
    /// dataset's first token for [`Format::dataset`] to read. Each answer must be the one
    /// [`Format::dataset`] gives. The default judges none.
    fn batch(
        &self,
        _header: &Self::Header,
        _scratch: &mut Self::Scratch,
        _sc: &mut Scanner<'_>,
        _stop_at: usize,
        _limit: usize,
        _answers: &mut Vec<Self::Answer>,
    ) -> usize {
        0
    }

    /// Writes the answer of dataset `index` (counting from 1).
    fn write(&self, index: u64, answer: Self::Answer, out: &mut Vec<u8>);

    /// A guess at the offset of a token that starts a dataset, at or after `from` in `buf`,
    /// or `None`. Any answer is safe; good answers let the threads share the work.
    fn resync(&self, header: &Self::Header, buf: &[u8], from: usize) -> Option<usize>;
}

/// The most threads [`run`] uses, whatever [`Options::threads`] says.
pub const MAX_THREADS: usize = 256;

/// How [`run`] works.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Threads judging at the same time (1 to [`MAX_THREADS`]; other values are clamped).
    pub threads: usize,
    /// Bytes read per thread and block (the block grows when one dataset is larger).
    pub block: usize,
}

impl Default for Options {
    /// One thread per available core, 1 MiB per thread.
    fn default() -> Self {
        Options {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            block: 1 << 20,
        }
    }
}

impl Options {
    /// Single-threaded judging.
    pub fn single_threaded() -> Options {
        Options {
            threads: 1,
            ..Options::default()
        }
    }
}

/// What [`run`] judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Summary {
    /// Datasets answered.
    pub datasets: u64,
    /// Bytes of input read.
    pub bytes: u64,
}

/// Why [`run`] stopped early.
#[derive(Debug)]
#[non_exhaustive]
pub enum JudgeError {
    /// The input breaks the format.
    Input {
        /// Line of the offending token, from 1.
        line: u64,
        /// Column (byte) of the offending token, from 1.
        column: u64,
        /// The dataset being read, from 1 (0 for the header before the first dataset).
        dataset: u64,
        /// What is wrong.
        problem: Problem,
        /// The offending token as text (shortened), if there is one.
        found: Option<String>,
    },
    /// Reading the input failed.
    Read(io::Error),
    /// Writing the answers failed.
    Write(io::Error),
}

impl fmt::Display for JudgeError {
    /// `LINE:COL: dataset K: what was expected`, ready to follow a file name and a colon.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JudgeError::Input {
                line,
                column,
                dataset,
                problem,
                found,
            } => {
                write!(f, "{line}:{column}: ")?;
                if *dataset == 0 {
                    write!(f, "header: ")?;
                } else {
                    write!(f, "dataset {dataset}: ")?;
                }
                write!(f, "{problem}")?;
                match (problem, found) {
                    (Problem::NotANumber { .. }, Some(token)) => write!(f, ", found `{token}`"),
                    _ => Ok(()),
                }
            }
            JudgeError::Read(e) => write!(f, "reading the input: {e}"),
            JudgeError::Write(e) => write!(f, "writing the answers: {e}"),
        }
    }
}

impl std::error::Error for JudgeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            JudgeError::Read(e) | JudgeError::Write(e) => Some(e),
            JudgeError::Input { .. } => None,
        }
    }
}

/// Judges `input` (bytes already in memory, such as a memory-mapped file) like [`run`], but
/// reads the blocks in place instead of copying them.
///
/// # Errors
/// As [`run`].
pub fn run_bytes<F: Format>(
    format: &F,
    input: &[u8],
    output: impl Write,
    options: Options,
) -> Result<Summary, JudgeError> {
    let threads = options.threads.clamp(1, MAX_THREADS);
    let source: Source<'_, io::Empty> = Source::Memory {
        data: input,
        start: 0,
        size: options.block.max(64) * threads,
    };
    let summary = drive(format, source, output, options)?;
    Ok(Summary {
        bytes: input.len() as u64,
        ..summary
    })
}

/// Judges all of `input` in `format`, writing the answers to `output` in input order.
///
/// # Errors
/// [`JudgeError::Input`] at the first input that breaks the format (every answer before it
/// has been written and flushed), [`JudgeError::Read`] or [`JudgeError::Write`] when reading the
/// input or writing the answers fails.
pub fn run<F: Format>(
    format: &F,
    input: impl Read,
    output: impl Write,
    options: Options,
) -> Result<Summary, JudgeError> {
    let threads = options.threads.clamp(1, MAX_THREADS);
    let source = Source::Reader {
        input,
        data: Arc::new(vec![0; options.block.max(64) * threads]),
        filled: 0,
    };
    drive(format, source, output, options)
}

/// Only this crate's judges implement [`Format`]: the driver's contract with a format is
/// internal and may change.
mod sealed {
    /// The seal on [`super::Format`].
    pub trait Sealed {}
}

pub(crate) use sealed::Sealed;
