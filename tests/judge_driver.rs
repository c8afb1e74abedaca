//! The parallel streaming driver: any block size and thread count gives the answers of the
//! single-threaded run and of the reference judge, errors included.

use bitgames::judge::{self, Options};
use bitgames::rng::Rng;
use bitgames::sequence::judge::{Judge, generate};
use bitgames::sequence::reference;

/// Judges `input` read in blocks and in place (as a memory-mapped file is); both must agree.
fn run(input: &[u8], threads: usize, block: usize) -> (String, Option<String>) {
    let options = Options { threads, block };
    let mut out = Vec::new();
    let result = judge::run(&Judge, input, &mut out, options);
    let read = (
        String::from_utf8(out).unwrap(),
        result.err().map(|e| e.to_string()),
    );
    let mut out = Vec::new();
    let result = judge::run_bytes(&Judge, input, &mut out, options);
    let in_place = (
        String::from_utf8(out).unwrap(),
        result.err().map(|e| e.to_string()),
    );
    assert_eq!(read, in_place, "threads {threads} block {block}");
    read
}

/// Random records with short games, odd white space and occasional long runs of blanks.
fn messy_input(rng: &mut Rng, datasets: usize) -> Vec<u8> {
    let mut text = String::new();
    for _ in 0..datasets {
        let n = rng.range(3, 7);
        let m = rng.range(3, n);
        let p = rng.range(1, n * n * n);
        let mut heights = vec![0; (n * n) as usize];
        text.push_str(&format!("{n} {m} {p}\n"));
        for _ in 0..p {
            let (x, y) = loop {
                let (x, y) = (rng.range(1, n), rng.range(1, n));
                let h = &mut heights[((x - 1) * n + y - 1) as usize];
                if *h < n {
                    *h += 1;
                    break (x, y);
                }
            };
            let sep = match rng.below(50) {
                0 => " \t ".to_string(),
                1 => " ".repeat(rng.range(1, 300) as usize),
                _ => " ".to_string(),
            };
            text.push_str(&format!("{x}{sep}{y}\n"));
        }
    }
    text.push_str("0 0 0\n");
    text.into_bytes()
}

#[test]
#[cfg_attr(miri, ignore)]
fn every_block_size_and_thread_count_agrees_with_the_reference() {
    let mut rng = Rng::new(11);
    for round in 0..6 {
        let input = messy_input(&mut rng, 40 + round * 30);
        let want = reference::judge(&input).expect("valid input");
        let want = want.join("\n") + "\n";
        for threads in [1, 2, 3, 4] {
            for block in [64, 100, 1000, 4096, 1 << 16] {
                let (out, err) = run(&input, threads, block);
                assert_eq!(err, None, "threads {threads} block {block}");
                assert_eq!(out, want, "threads {threads} block {block}");
            }
        }
    }
}

#[test]
#[cfg_attr(miri, ignore)]
fn an_error_deep_in_a_large_input_keeps_every_earlier_answer() {
    let mut input = Vec::new();
    generate(&mut input, &mut bitgames::rng::Rng::new(5), 3000, 7).unwrap();
    let clean_lines = input.iter().filter(|&&b| b == b'\n').count();
    let want = reference::judge(&input).expect("valid input");
    // Replace the end marker by a bad dataset header: n = 9.
    input.truncate(input.len() - "0 0 0\n".len());
    input.extend_from_slice(b"7 4 1\n9 1\n");
    let expected_line = clean_lines + 1;
    for threads in [1, 2] {
        for block in [4096, 1 << 20] {
            let (out, err) = run(&input, threads, block);
            assert_eq!(out.lines().count(), 3000);
            assert_eq!(out, want.join("\n") + "\n");
            assert_eq!(
                err.as_deref(),
                Some(format!("{expected_line}:1: dataset 3001: x = 9 is outside 1..=7").as_str()),
                "threads {threads} block {block}"
            );
        }
    }
}

#[test]
#[cfg_attr(miri, ignore)]
fn truncated_inputs_fail_after_the_same_answers_as_the_reference() {
    let mut rng = Rng::new(12);
    let input = messy_input(&mut rng, 30);
    for cut in (0..input.len()).step_by(input.len() / 40 + 1) {
        let part = &input[..cut];
        let reference = reference::judge(part);
        for threads in [1, 2] {
            let (out, err) = run(part, threads, 128);
            let answers: Vec<String> = out.lines().map(str::to_string).collect();
            match &reference {
                Ok(want) => panic!("a cut input cannot be valid: {want:?}"),
                Err(want) => assert_eq!(&answers, want, "cut {cut}"),
            }
            assert!(err.is_some(), "cut {cut}");
        }
    }
}

#[test]
fn line_numbers_count_blank_lines_before_a_header_across_blocks() {
    // Havannah input: blank lines, T, then 40 one-move cases and a move off the board.
    let mut input = String::from("\n\n\n41\n");
    for _ in 0..40 {
        input.push_str("2 1\n1 1\n");
    }
    input.push_str("2 1\n9 9\n");
    let bad_line = 3 + 1 + 40 * 2 + 2;
    for threads in [1, 2] {
        for block in [64, 100, 1 << 16] {
            let mut out = Vec::new();
            let result = judge::run(
                &bitgames::havannah::judge::Judge,
                input.as_bytes(),
                &mut out,
                Options { threads, block },
            );
            let message = result.unwrap_err().to_string();
            assert!(
                message.starts_with(&format!("{bad_line}:1: dataset 41: ")),
                "threads {threads} block {block}: {message}"
            );
            assert_eq!(String::from_utf8(out).unwrap().lines().count(), 40);
        }
    }
}

#[test]
fn a_bad_token_across_a_block_end_is_quoted_whole() {
    let input = format!("3 3 1\n1 1\n3 3 2\n1 1\n{}7 1\n0 0 0\n", "x".repeat(200));
    for block in [64, 100, 1 << 16] {
        let (out, err) = run(input.as_bytes(), 1, block);
        assert_eq!(out, "Draw\n");
        let err = err.unwrap();
        assert!(
            err.ends_with(&format!("found `{}`", "x".repeat(24))) && err.starts_with("5:1:"),
            "block {block}: {err}"
        );
    }
}

#[test]
#[cfg_attr(miri, ignore)]
fn a_piece_cut_at_a_wrong_guess_is_judged_again_in_the_last_block() {
    // The tokens of valid datasets laid out three to a line: the Sequence judge guesses a
    // dataset start at a line of three tokens, and here most such lines are moves, so the
    // pieces after the first start at wrong guesses and the driver judges them again. With a
    // block larger than the input the only block is the last one: the answers after a wrong
    // guess must still all be written.
    let mut clean = Vec::new();
    generate(&mut clean, &mut Rng::new(21), 400, 5).unwrap();
    let want = reference::judge(&clean).expect("valid input");
    let tokens: Vec<&[u8]> = clean
        .split(|c| c.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .collect();
    let mut input = Vec::new();
    for line in tokens.chunks(3) {
        input.extend_from_slice(&line.join(&b' '));
        input.push(b'\n');
    }
    // Large enough to be cut for four threads (the driver cuts from 4 KiB a thread).
    assert!(input.len() >= 4 * 4096, "{}", input.len());
    assert_eq!(reference::judge(&input).as_ref(), Ok(&want));
    let want = want.join("\n") + "\n";
    for threads in [2, 3, 4] {
        for block in [1 << 20, 1 << 13] {
            let (out, err) = run(&input, threads, block);
            assert_eq!(err, None, "threads {threads} block {block}");
            assert_eq!(out, want, "threads {threads} block {block}");
        }
    }
}

/// A reader that reports an interruption (`ErrorKind::Interrupted`, as a signal gives)
/// before every read, and hands out at most `step` bytes at a time.
struct Interrupted<'a> {
    data: &'a [u8],
    step: usize,
    interrupt: bool,
}

impl std::io::Read for Interrupted<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.interrupt = !self.interrupt;
        if self.interrupt {
            return Err(std::io::ErrorKind::Interrupted.into());
        }
        let n = buf.len().min(self.step).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

#[test]
fn an_interrupted_read_is_retried() {
    // Interrupted is not a failure (std's read_to_end retries it too): the answers are those
    // of the input read in one go.
    let mut rng = Rng::new(13);
    let input = messy_input(&mut rng, 20);
    let want = reference::judge(&input).expect("valid input").join("\n") + "\n";
    for threads in [1, 2] {
        for (block, step) in [(64, 7), (1 << 16, 1000)] {
            let reader = Interrupted {
                data: &input,
                step,
                interrupt: false,
            };
            let mut out = Vec::new();
            let summary = judge::run(&Judge, reader, &mut out, Options { threads, block })
                .unwrap_or_else(|e| panic!("threads {threads} block {block}: {e}"));
            assert_eq!(String::from_utf8(out).unwrap(), want);
            assert_eq!(summary.bytes, input.len() as u64);
        }
    }
}
