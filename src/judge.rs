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

use std::fmt;
use std::io::{self, Read, Write};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::time::{Duration, Instant};

use crate::input::{Problem, Scanner, Stop};

/// A judge input format: the per-game part of [`run`].
pub trait Format: Sync {
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

/// How a piece of a block ended.
#[derive(Debug, Clone, PartialEq, Eq)]
enum End {
    /// Reached the start of the next piece (or the announced number of datasets).
    Reached,
    /// The block ended inside a dataset.
    Incomplete,
    /// The format's end marker, or the end of input.
    Finished,
    /// Bad input.
    Bad(Box<crate::input::BadInput>),
}

/// One piece of a block and what judging it gave. The working memory stays with the thread
/// that judges; only this travels between threads.
struct Piece<F: Format> {
    start: usize,
    stop_at: usize,
    end: usize,
    outcome: End,
    answers: Vec<F::Answer>,
    lines: u64,
}

impl<F: Format> Piece<F> {
    fn new() -> Self {
        Piece {
            start: 0,
            stop_at: 0,
            end: 0,
            outcome: End::Reached,
            answers: Vec::new(),
            lines: 0,
        }
    }

    /// Judges datasets from `self.start` until the next token is at or past `self.stop_at`,
    /// `limit` answers are found, or the block, the input or the format ends.
    fn judge(
        &mut self,
        format: &F,
        header: &F::Header,
        scratch: &mut F::Scratch,
        buf: &[u8],
        last: bool,
        limit: u64,
    ) {
        self.answers.clear();
        let room = usize::try_from(limit).unwrap_or(usize::MAX);
        let mut sc = Scanner::new(buf, self.start, last);
        self.outcome = loop {
            sc.skip_space();
            let at = sc.pos();
            self.end = at;
            if at >= self.stop_at || self.answers.len() as u64 >= limit {
                break End::Reached;
            }
            if format.batch(
                header,
                scratch,
                &mut sc,
                self.stop_at,
                room,
                &mut self.answers,
            ) > 0
            {
                continue;
            }
            match format.dataset(header, scratch, &mut sc) {
                Ok(Some(answer)) => self.answers.push(answer),
                Ok(None) => {
                    self.end = sc.pos();
                    break End::Finished;
                }
                Err(Stop::Incomplete) => break End::Incomplete,
                Err(Stop::Bad(bad)) => break End::Bad(bad),
            }
        };
        self.lines = count_lines(&buf[self.start..self.end]);
    }
}

/// Line feeds in `bytes`, on the best SIMD back end of the CPU.
fn count_lines(bytes: &[u8]) -> u64 {
    crate::simd::count_byte_on(crate::simd::Backend::detect(), bytes, b'\n')
}

/// Position bookkeeping for error messages: line and column of the block's first byte.
#[derive(Debug, Clone, Copy)]
struct Origin {
    line: u64,
    column: u64,
}

impl Origin {
    /// Moves the origin past `consumed`, which holds `lines` line feeds.
    fn advance(&mut self, consumed: &[u8], lines: u64) {
        match memchr::memrchr(b'\n', consumed) {
            Some(nl) => {
                self.line += lines;
                self.column = (consumed.len() - nl) as u64;
            }
            None => self.column += consumed.len() as u64,
        }
    }

    /// The error for `bad` in `buf` (this origin's block) during dataset `dataset`.
    fn error(&self, buf: &[u8], bad: &crate::input::BadInput, dataset: u64) -> JudgeError {
        let offset = bad.offset.min(buf.len());
        let before = &buf[..offset];
        let mut at = *self;
        at.advance(before, count_lines(before));
        let token: Vec<u8> = buf[offset..]
            .iter()
            .copied()
            .take_while(|&c| !crate::input::is_space(c))
            .take(24)
            .collect();
        JudgeError::Input {
            line: at.line,
            column: at.column,
            dataset,
            problem: bad.problem.clone(),
            found: (!token.is_empty()).then(|| String::from_utf8_lossy(&token).into_owned()),
        }
    }
}

/// Where the blocks come from: a reader copied into one reusable buffer (shared with the
/// worker threads while they judge it), or bytes already in memory (a memory-mapped file) cut
/// into windows without copying.
enum Source<'a, R> {
    Reader {
        input: R,
        /// `filled` bytes of `data` hold input; `data` only grows.
        data: Arc<Vec<u8>>,
        filled: usize,
    },
    Memory {
        data: &'a [u8],
        /// The window is `data[start..start + size]` (clipped to the end).
        start: usize,
        size: usize,
    },
}

/// One block of input, as the threads see it.
#[derive(Clone)]
enum Bytes<'a> {
    Borrowed(&'a [u8]),
    Shared(Arc<Vec<u8>>, usize),
}

impl Bytes<'_> {
    fn as_slice(&self) -> &[u8] {
        match self {
            Bytes::Borrowed(bytes) => bytes,
            Bytes::Shared(data, filled) => &data[..*filled],
        }
    }
}

impl<'a, R: Read> Source<'a, R> {
    /// Makes the next block available; returns whether it is the last one and how many new
    /// bytes it brought.
    fn load(&mut self) -> io::Result<(bool, u64)> {
        match self {
            Source::Reader {
                input,
                data,
                filled,
            } => {
                // Unique again: every thread dropped its view of the previous block.
                let data = Arc::make_mut(data);
                let before = *filled;
                while *filled < data.len() {
                    match input.read(&mut data[*filled..]) {
                        Ok(0) => return Ok((true, (*filled - before) as u64)),
                        Ok(n) => *filled += n,
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(e) => return Err(e),
                    }
                }
                Ok((false, (*filled - before) as u64))
            }
            Source::Memory { data, start, size } => {
                let end = start.saturating_add(*size).min(data.len());
                Ok((end == data.len(), 0))
            }
        }
    }

    /// The current block.
    fn block(&self) -> Bytes<'a> {
        match self {
            Source::Reader { data, filled, .. } => Bytes::Shared(Arc::clone(data), *filled),
            Source::Memory { data, start, size } => {
                Bytes::Borrowed(&data[*start..start.saturating_add(*size).min(data.len())])
            }
        }
    }

    /// Drops the first `pos` bytes of the block; the rest starts the next one.
    fn consume(&mut self, pos: usize) {
        match self {
            Source::Reader { data, filled, .. } => {
                Arc::make_mut(data).copy_within(pos..*filled, 0);
                *filled -= pos;
            }
            Source::Memory { start, .. } => *start += pos,
        }
    }

    /// Doubles the block size.
    fn grow(&mut self) {
        match self {
            Source::Reader { data, .. } => {
                let data = Arc::make_mut(data);
                data.resize(data.len() * 2, 0);
            }
            Source::Memory { size, .. } => *size = size.saturating_mul(2),
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

/// The driver's ends of a worker thread's channels: pieces to judge, judged pieces.
type WorkerLink<'a, F> = (Sender<Task<'a, <F as Format>::Header>>, Receiver<Piece<F>>);

/// A piece for a worker thread.
struct Task<'a, H> {
    block: Bytes<'a>,
    last: bool,
    header: H,
    start: usize,
    stop_at: usize,
}

/// Waits for the next message: polling at first, since a sleeping thread on a virtual CPU can
/// take milliseconds to wake (longer than judging a piece), then sleeping when the input is
/// slow. Each poll yields the CPU, so that on a machine busy with other work the thread being
/// waited for gets the core instead of a spinning one. `None` once the other side is gone.
fn receive<T>(from: &Receiver<T>) -> Option<T> {
    let start = Instant::now();
    loop {
        match from.try_recv() {
            Ok(message) => return Some(message),
            Err(TryRecvError::Disconnected) => return None,
            Err(TryRecvError::Empty) if start.elapsed() < Duration::from_millis(5) => {
                std::thread::yield_now();
            }
            Err(TryRecvError::Empty) => return from.recv().ok(),
        }
    }
}

/// A worker thread: judges the pieces it is sent with its own scratch memory, until the driver
/// hangs up.
fn work<F: Format>(format: &F, tasks: Receiver<Task<'_, F::Header>>, done: Sender<Piece<F>>) {
    let mut scratch = F::Scratch::default();
    while let Some(task) = receive(&tasks) {
        let mut piece = Piece::<F>::new();
        piece.start = task.start;
        piece.stop_at = task.stop_at;
        let block = task.block.as_slice();
        piece.judge(
            format,
            &task.header,
            &mut scratch,
            block,
            task.last,
            u64::MAX,
        );
        // Let go of the block before handing the result back: the driver reuses its buffer.
        drop(task);
        if done.send(piece).is_err() {
            return;
        }
    }
}

/// The loop of [`run`] and [`run_bytes`]: workers for every thread but this one, which reads,
/// judges the first piece of each block and writes.
fn drive<F: Format, R: Read>(
    format: &F,
    source: Source<'_, R>,
    output: impl Write,
    options: Options,
) -> Result<Summary, JudgeError> {
    let threads = options.threads.clamp(1, MAX_THREADS);
    std::thread::scope(|scope| {
        // As many workers as the system lets us start (no more than asked).
        let workers: Vec<WorkerLink<'_, F>> = (1..threads)
            .map_while(|_| {
                let (task_tx, task_rx) = mpsc::channel();
                let (done_tx, done_rx) = mpsc::channel();
                std::thread::Builder::new()
                    .name("bitgames-judge".into())
                    .spawn_scoped(scope, move || work(format, task_rx, done_tx))
                    .ok()?;
                Some((task_tx, done_rx))
            })
            .collect();
        drive_with(format, source, output, &workers)
        // Dropping `workers` hangs up: the threads end and the scope joins them.
    })
}

fn drive_with<'a, F: Format, R: Read>(
    format: &F,
    mut source: Source<'a, R>,
    mut output: impl Write,
    workers: &[WorkerLink<'a, F>],
) -> Result<Summary, JudgeError> {
    let threads = workers.len() + 1;
    let mut mine = Piece::<F>::new();
    let mut scratch = F::Scratch::default();
    let mut pieces: Vec<Piece<F>> = Vec::with_capacity(threads);
    let mut text = Vec::with_capacity(1 << 16);
    let mut origin = Origin { line: 1, column: 1 };
    let mut done: u64 = 0;
    let mut bytes: u64 = 0;
    let mut header: Option<F::Header> = None;
    let mut limit = u64::MAX;

    loop {
        let (last, new) = source.load().map_err(JudgeError::Read)?;
        bytes += new;
        let block = source.block();
        let buf = block.as_slice();
        let mut pos = 0;

        let header = match header {
            Some(h) => h,
            None => {
                let mut sc = Scanner::new(buf, 0, last);
                match format.header(&mut sc) {
                    Ok(h) => {
                        header = Some(h);
                        limit = format.count(&h).unwrap_or(u64::MAX);
                        pos = sc.pos();
                        h
                    }
                    Err(Stop::Incomplete) => {
                        drop(block);
                        source.grow();
                        continue;
                    }
                    Err(Stop::Bad(bad)) => return Err(origin.error(buf, &bad, 0)),
                }
            }
        };

        // Cut the block at guessed dataset starts, one piece per thread.
        let len = buf.len();
        let mut starts = vec![pos];
        if threads > 1 && len - pos >= 4096 * threads {
            for k in 1..threads {
                let from = pos + (len - pos) * k / threads;
                if let Some(g) = format.resync(&header, buf, from)
                    && g > *starts.last().unwrap_or(&pos)
                    && g < len
                {
                    starts.push(g);
                }
            }
        }
        // The other pieces go to the workers; the first, the only one that knows how many
        // datasets remain, is judged here.
        for (k, (tasks, _)) in workers.iter().enumerate().take(starts.len() - 1) {
            let task = Task {
                block: block.clone(),
                last,
                header,
                start: starts[k + 1],
                stop_at: starts.get(k + 2).copied().unwrap_or(usize::MAX),
            };
            if tasks.send(task).is_err() {
                return Err(worker_lost());
            }
        }
        mine.start = pos;
        mine.stop_at = starts.get(1).copied().unwrap_or(usize::MAX);
        mine.judge(format, &header, &mut scratch, buf, last, limit - done);
        pieces.clear();
        for (_, results) in workers.iter().take(starts.len() - 1) {
            pieces.push(receive(results).ok_or_else(worker_lost)?);
        }

        // Accept the pieces in order, judging again any piece that started at a wrong guess.
        // Line feeds before the first piece (around a header) count too.
        let mut lines = count_lines(&buf[..starts[0]]);
        let mut finished = false;
        let mut failure = None;
        for k in 0..starts.len() {
            let piece = match k {
                0 => &mut mine,
                _ if pieces[k - 1].start == pos => &mut pieces[k - 1],
                _ => {
                    mine.start = pos;
                    mine.stop_at = starts.get(k + 1).copied().unwrap_or(usize::MAX);
                    mine.judge(format, &header, &mut scratch, buf, last, limit - done);
                    &mut mine
                }
            };
            let take = piece.answers.len().min((limit - done) as usize);
            for answer in &piece.answers[..take] {
                done += 1;
                format.write(done, *answer, &mut text);
            }
            lines += piece.lines;
            pos = piece.end;
            if done == limit {
                finished = true;
                break;
            }
            match &piece.outcome {
                End::Reached => {}
                End::Incomplete => break,
                End::Finished => {
                    finished = true;
                    break;
                }
                End::Bad(bad) => {
                    failure = Some(origin.error(buf, bad, done + 1));
                    break;
                }
            }
        }
        output.write_all(&text).map_err(JudgeError::Write)?;
        text.clear();
        if let Some(error) = failure {
            output.flush().map_err(JudgeError::Write)?;
            return Err(error);
        }
        // The scanner never reports the last block as incomplete, so `last` implies `finished`.
        debug_assert!(finished || !last, "the last block ended without an outcome");
        if finished || last {
            output.flush().map_err(JudgeError::Write)?;
            return Ok(Summary {
                datasets: done,
                bytes,
            });
        }
        origin.advance(&buf[..pos], lines);
        drop(block);
        if pos == 0 {
            source.grow();
        }
        source.consume(pos);
    }
}

/// A worker thread ended early: it panicked, which the judges never do.
#[cold]
fn worker_lost() -> JudgeError {
    JudgeError::Read(io::Error::other("a judging thread stopped unexpectedly"))
}

#[cfg(test)]
mod tests {
    use super::count_lines;

    #[test]
    fn line_count_matches_the_naive_count() {
        let text = b"1 2\n\n3 4 5\n6";
        for start in 0..text.len() {
            let naive = text[start..].iter().filter(|&&b| b == b'\n').count() as u64;
            assert_eq!(count_lines(&text[start..]), naive);
        }
    }
}
