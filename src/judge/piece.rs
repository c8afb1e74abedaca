//! A piece of a block judged by one thread, and the line and column bookkeeping of errors.

use super::{Format, JudgeError};
use crate::input::{BadInput, Scanner, Stop, is_space};

/// How a piece of a block ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum End {
    /// Reached the start of the next piece (or the announced number of datasets).
    Reached,
    /// The block ended inside a dataset.
    Incomplete,
    /// The format's end marker, or the end of input.
    Finished,
    /// Bad input.
    Bad(Box<BadInput>),
}

/// One piece of a block and what judging it gave. The working memory stays with the thread
/// that judges; only this travels between threads.
pub(super) struct Piece<F: Format> {
    pub(super) start: usize,
    pub(super) stop_at: usize,
    pub(super) end: usize,
    pub(super) outcome: End,
    pub(super) answers: Vec<F::Answer>,
    pub(super) lines: u64,
}

impl<F: Format> Piece<F> {
    pub(super) fn new() -> Self {
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
    pub(super) fn judge(
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

/// Line feeds in `bytes`.
pub(super) fn count_lines(bytes: &[u8]) -> u64 {
    crate::simd::count_byte(bytes, b'\n')
}

/// Position bookkeeping for error messages: line and column of the block's first byte.
#[derive(Debug, Clone, Copy)]
pub(super) struct Origin {
    pub(super) line: u64,
    pub(super) column: u64,
}

impl Origin {
    /// Moves the origin past `consumed`, which holds `lines` line feeds.
    pub(super) fn advance(&mut self, consumed: &[u8], lines: u64) {
        match memchr::memrchr(b'\n', consumed) {
            Some(nl) => {
                self.line += lines;
                self.column = (consumed.len() - nl) as u64;
            }
            None => self.column += consumed.len() as u64,
        }
    }

    /// The error for `bad` in `buf` (this origin's block) during dataset `dataset`.
    pub(super) fn error(&self, buf: &[u8], bad: &BadInput, dataset: u64) -> JudgeError {
        let offset = bad.offset.min(buf.len());
        let before = &buf[..offset];
        let mut at = *self;
        at.advance(before, count_lines(before));
        let token: Vec<u8> = buf[offset..]
            .iter()
            .copied()
            .take_while(|&c| !is_space(c))
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
