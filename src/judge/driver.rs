//! The driver: blocks cut into pieces at guessed dataset starts, judged on worker threads,
//! checked and written in input order.

use std::io::{self, Read, Write};
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::time::{Duration, Instant};

use super::piece::{End, Origin, Piece, count_lines};
use super::source::{Bytes, Source};
use super::{Format, JudgeError, MAX_THREADS, Options, Summary};
use crate::input::{Scanner, Stop};

/// The driver's ends of a worker thread's channels: pieces to judge, judged pieces.
pub(super) type WorkerLink<'a, F> = (Sender<Task<'a, <F as Format>::Header>>, Receiver<Piece<F>>);

/// A piece for a worker thread.
pub(super) struct Task<'a, H> {
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
pub(super) fn receive<T>(from: &Receiver<T>) -> Option<T> {
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
pub(super) fn work<F: Format>(
    format: &F,
    tasks: Receiver<Task<'_, F::Header>>,
    done: Sender<Piece<F>>,
) {
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
pub(super) fn drive<F: Format, R: Read>(
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

pub(super) fn drive_with<'a, F: Format, R: Read>(
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
pub(super) fn worker_lost() -> JudgeError {
    JudgeError::Read(io::Error::other("a judging thread stopped unexpectedly"))
}
