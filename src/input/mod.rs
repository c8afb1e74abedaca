//! The byte scanner shared by every judge.
//!
//! A [`Scanner`] walks one in-memory block of judge input and reads unsigned decimal integers
//! separated by ASCII white space. It never panics and never allocates on the success path. It
//! does not count lines as it goes: a failure carries the byte offset where it happened, and the
//! driver in [`crate::judge`] turns that into a line and a column only when an error is reported.
//!
//! A block is either the *last* one (the input ends with it) or not. Running into the end of a
//! block that is not the last is not an error but [`Stop::Incomplete`]: the driver keeps the
//! unfinished dataset, reads more input behind it and tries again.
//!
//! The crate-internal `window` module cuts a whole window of input into numbers in one pass, for
//! a judge's fast path (the grid judge's).

pub(crate) mod window;

use std::fmt;

/// What was wrong with the input, without the position (see [`Stop::Bad`] for the offset).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Problem {
    /// The input ended where a token was still expected.
    UnexpectedEnd {
        /// What the format expected next, such as `"n"` or `"the x coordinate of move 4"`.
        expected: &'static str,
    },
    /// A token that is not an unsigned decimal number.
    NotANumber {
        /// What the format expected there.
        expected: &'static str,
    },
    /// A number too large for 64 bits.
    TooLarge {
        /// What the format expected there.
        expected: &'static str,
    },
    /// A number outside the range the format allows.
    OutOfRange {
        /// The name of the value, such as `"x"`.
        what: &'static str,
        /// The value read.
        value: u64,
        /// The smallest allowed value.
        min: u64,
        /// The largest allowed value.
        max: u64,
    },
    /// Any other rule of the format that the input breaks (a full peg, a repeated cell...).
    Rule(String),
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::UnexpectedEnd { expected } => {
                write!(f, "unexpected end of input, expected {expected}")
            }
            Problem::NotANumber { expected } => {
                write!(f, "expected {expected}, an unsigned number")
            }
            Problem::TooLarge { expected } => write!(f, "{expected} is too large"),
            Problem::OutOfRange {
                what,
                value,
                min,
                max,
            } => write!(f, "{what} = {value} is outside {min}..={max}"),
            Problem::Rule(message) => f.write_str(message),
        }
    }
}

/// Why the scanner (or a format reading through it) stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// The block ended inside a dataset and more input follows: read more and retry.
    Incomplete,
    /// The input is wrong at a byte offset of the block.
    Bad(Box<BadInput>),
}

/// A problem and the block offset of the token it concerns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadInput {
    /// Byte offset of the offending token (or of the end of input) within the block.
    pub offset: usize,
    /// What is wrong.
    pub problem: Problem,
}

impl Stop {
    /// A [`Stop::Bad`] at `offset`.
    #[cold]
    pub fn bad(offset: usize, problem: Problem) -> Stop {
        Stop::Bad(Box::new(BadInput { offset, problem }))
    }
}

/// Is `c` ASCII white space (space, tab, line feed, vertical tab, form feed, carriage return)?
#[inline(always)]
pub const fn is_space(c: u8) -> bool {
    c == b' ' || (c >= b'\t' && c <= b'\r')
}

/// Reads unsigned integers from one block of input.
///
/// ```
/// use bitgames::input::{Scanner, Stop, Problem};
///
/// let mut sc = Scanner::new(b"  12\n7 x", 0, true);
/// assert_eq!(sc.uint("a"), Ok(12));
/// assert_eq!(sc.uint("b"), Ok(7));
/// assert_eq!(sc.uint("c"), Err(Stop::bad(7, Problem::NotANumber { expected: "c" })));
/// ```
#[derive(Debug, Clone)]
pub struct Scanner<'a> {
    buf: &'a [u8],
    pos: usize,
    token: usize,
    last: bool,
}

impl<'a> Scanner<'a> {
    /// A scanner over `buf` starting at byte `pos`; `last` says that the input ends with `buf`.
    pub fn new(buf: &'a [u8], pos: usize, last: bool) -> Scanner<'a> {
        let pos = pos.min(buf.len());
        Scanner {
            buf,
            pos,
            token: pos,
            last,
        }
    }

    /// The current byte offset.
    #[inline]
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// The offset where the most recent token started (for errors about its value).
    #[inline]
    pub fn token_start(&self) -> usize {
        self.token
    }

    /// The block being scanned.
    #[inline]
    pub fn buf(&self) -> &'a [u8] {
        self.buf
    }

    /// The bytes not read yet, for format-specific fast paths.
    #[inline(always)]
    pub fn remaining(&self) -> &'a [u8] {
        &self.buf[self.pos..]
    }

    /// Consumes `k` bytes (at most the rest) that a fast path has checked itself; the token
    /// start moves to the old position.
    #[inline(always)]
    pub fn consume(&mut self, k: usize) {
        self.token = self.pos;
        self.pos = (self.pos + k).min(self.buf.len());
    }

    /// Skips white space.
    #[inline(always)]
    pub fn skip_space(&mut self) {
        while let Some(&c) = self.buf.get(self.pos) {
            if !is_space(c) {
                break;
            }
            self.pos += 1;
        }
    }

    /// Skips white space and tells whether the input ends here.
    ///
    /// # Errors
    /// [`Stop::Incomplete`] when the block ends here but it is not the last one.
    #[inline]
    pub fn at_end(&mut self) -> Result<bool, Stop> {
        self.skip_space();
        if self.pos < self.buf.len() {
            Ok(false)
        } else if self.last {
            Ok(true)
        } else {
            Err(Stop::Incomplete)
        }
    }

    /// Reads the next unsigned decimal integer; `expected` names it in error messages.
    ///
    /// # Errors
    /// [`Stop::Incomplete`] at the end of a block that is not the last; [`Stop::Bad`] with
    /// [`Problem::UnexpectedEnd`], [`Problem::NotANumber`] or [`Problem::TooLarge`] otherwise.
    #[inline(always)]
    pub fn uint(&mut self, expected: &'static str) -> Result<u64, Stop> {
        self.skip_space();
        let buf = self.buf;
        let start = self.pos;
        self.token = start;
        let Some(&first) = buf.get(start) else {
            return Err(self.ended(expected));
        };
        let mut value = u64::from(first.wrapping_sub(b'0'));
        if value > 9 {
            return Err(self.not_a_number(start, expected));
        }
        let mut i = start + 1;
        loop {
            match buf.get(i) {
                Some(&c) if c.is_ascii_digit() => {
                    value = match value
                        .checked_mul(10)
                        .and_then(|v| v.checked_add(u64::from(c - b'0')))
                    {
                        Some(v) => v,
                        None => return Err(Stop::bad(start, Problem::TooLarge { expected })),
                    };
                    i += 1;
                }
                Some(&c) if is_space(c) => break,
                Some(_) => return Err(self.not_a_number(start, expected)),
                None if self.last => break,
                None => return Err(Stop::Incomplete),
            }
        }
        self.pos = i;
        Ok(value)
    }

    /// Reads an integer and checks that it lies in `min..=max`; `what` names it.
    ///
    /// # Errors
    /// As [`Scanner::uint`], plus [`Problem::OutOfRange`] at the token.
    #[inline(always)]
    pub fn uint_in(&mut self, what: &'static str, min: u64, max: u64) -> Result<u64, Stop> {
        let value = self.uint(what)?;
        if value < min || value > max {
            return Err(Stop::bad(
                self.token,
                Problem::OutOfRange {
                    what,
                    value,
                    min,
                    max,
                },
            ));
        }
        Ok(value)
    }

    /// A [`Stop::Bad`] about the most recent token.
    #[cold]
    pub fn bad_token(&self, problem: Problem) -> Stop {
        Stop::bad(self.token, problem)
    }

    /// The token at `start` is not a number; if it runs into the end of a block that is not
    /// the last, read more first, so that the error can quote the whole token.
    #[cold]
    fn not_a_number(&self, start: usize, expected: &'static str) -> Stop {
        let token_ends = self.buf[start..].iter().any(|&c| is_space(c));
        if token_ends || self.last {
            Stop::bad(start, Problem::NotANumber { expected })
        } else {
            Stop::Incomplete
        }
    }

    #[cold]
    fn ended(&self, expected: &'static str) -> Stop {
        if self.last {
            Stop::bad(self.pos, Problem::UnexpectedEnd { expected })
        } else {
            Stop::Incomplete
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8]) -> Vec<Result<u64, Stop>> {
        let mut sc = Scanner::new(input, 0, true);
        let mut out = Vec::new();
        loop {
            match sc.at_end() {
                Ok(true) => return out,
                Ok(false) => {}
                Err(e) => panic!("last block cannot be incomplete: {e:?}"),
            }
            let r = sc.uint("v");
            let stop = r.is_err();
            out.push(r);
            if stop {
                return out;
            }
        }
    }

    #[test]
    fn reads_numbers_across_any_white_space() {
        assert_eq!(
            all(b"1 22\t333\r\n4444\x0b\x0c5\n"),
            vec![Ok(1), Ok(22), Ok(333), Ok(4444), Ok(5)]
        );
        assert_eq!(all(b"007"), vec![Ok(7)]);
        assert_eq!(all(b""), vec![]);
    }

    #[test]
    fn rejects_signs_letters_and_glued_tokens() {
        let nan = |offset| Err(Stop::bad(offset, Problem::NotANumber { expected: "v" }));
        assert_eq!(all(b"-1"), vec![nan(0)]);
        assert_eq!(all(b"3 12a"), vec![Ok(3), nan(2)]);
        assert_eq!(all(b"+4"), vec![nan(0)]);
        assert_eq!(all("é".as_bytes()), vec![nan(0)]);
    }

    #[test]
    fn overflow_is_too_large_not_a_panic() {
        assert_eq!(all(b"18446744073709551615"), vec![Ok(u64::MAX)]);
        assert_eq!(
            all(b" 18446744073709551616"),
            vec![Err(Stop::bad(1, Problem::TooLarge { expected: "v" }))]
        );
    }

    #[test]
    fn block_end_is_incomplete_unless_last() {
        let mut sc = Scanner::new(b"12 3", 0, false);
        assert_eq!(sc.uint("a"), Ok(12));
        assert_eq!(sc.uint("b"), Err(Stop::Incomplete));
        let mut sc = Scanner::new(b"12 ", 0, false);
        assert_eq!(sc.uint("a"), Ok(12));
        assert_eq!(sc.at_end(), Err(Stop::Incomplete));
        let mut sc = Scanner::new(b"12 ", 0, true);
        assert_eq!(sc.uint("a"), Ok(12));
        assert_eq!(
            sc.uint("b"),
            Err(Stop::bad(3, Problem::UnexpectedEnd { expected: "b" }))
        );
    }

    #[test]
    fn a_bad_token_at_the_end_of_a_block_waits_for_the_rest() {
        let mut sc = Scanner::new(b"1 ab", 0, false);
        assert_eq!(sc.uint("a"), Ok(1));
        assert_eq!(sc.uint("b"), Err(Stop::Incomplete));
        let mut sc = Scanner::new(b"1 ab ", 0, false);
        assert_eq!(sc.uint("a"), Ok(1));
        assert_eq!(
            sc.uint("b"),
            Err(Stop::bad(2, Problem::NotANumber { expected: "b" }))
        );
    }

    #[test]
    fn range_errors_point_at_the_token() {
        let mut sc = Scanner::new(b"  9", 0, true);
        assert_eq!(
            sc.uint_in("x", 1, 7),
            Err(Stop::bad(
                2,
                Problem::OutOfRange {
                    what: "x",
                    value: 9,
                    min: 1,
                    max: 7
                }
            ))
        );
        assert_eq!(
            Problem::OutOfRange {
                what: "x",
                value: 9,
                min: 1,
                max: 7
            }
            .to_string(),
            "x = 9 is outside 1..=7"
        );
    }
}
