//! Where the judge's blocks of input come from: a reader or bytes in memory.

use std::io::{self, Read};
use std::sync::Arc;

/// Where the blocks come from: a reader copied into one reusable buffer (shared with the
/// worker threads while they judge it), or bytes already in memory (a memory-mapped file) cut
/// into windows without copying.
pub(super) enum Source<'a, R> {
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
pub(super) enum Bytes<'a> {
    Borrowed(&'a [u8]),
    Shared(Arc<Vec<u8>>, usize),
}

impl Bytes<'_> {
    pub(super) fn as_slice(&self) -> &[u8] {
        match self {
            Bytes::Borrowed(bytes) => bytes,
            Bytes::Shared(data, filled) => &data[..*filled],
        }
    }
}

impl<'a, R: Read> Source<'a, R> {
    /// Makes the next block available; returns whether it is the last one and how many new
    /// bytes it brought.
    pub(super) fn load(&mut self) -> io::Result<(bool, u64)> {
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
    pub(super) fn block(&self) -> Bytes<'a> {
        match self {
            Source::Reader { data, filled, .. } => Bytes::Shared(Arc::clone(data), *filled),
            Source::Memory { data, start, size } => {
                Bytes::Borrowed(&data[*start..start.saturating_add(*size).min(data.len())])
            }
        }
    }

    /// Drops the first `pos` bytes of the block; the rest starts the next one.
    pub(super) fn consume(&mut self, pos: usize) {
        match self {
            Source::Reader { data, filled, .. } => {
                Arc::make_mut(data).copy_within(pos..*filled, 0);
                *filled -= pos;
            }
            Source::Memory { start, .. } => *start += pos,
        }
    }

    /// Doubles the block size.
    pub(super) fn grow(&mut self) {
        match self {
            Source::Reader { data, .. } => {
                let data = Arc::make_mut(data);
                data.resize(data.len() * 2, 0);
            }
            Source::Memory { size, .. } => *size = size.saturating_mul(2),
        }
    }
}
