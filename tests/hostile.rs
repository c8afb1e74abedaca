//! Hostile conditions around the judges' command line: a reader that stops early, a full disk,
//! gigabytes through standard input in bounded memory, and bad flags. Each test checks what the
//! user gets (exit status, message) and that nothing before the problem was lost.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command as Process, Stdio};
use std::thread;

use common::bitgames;
use predicates::prelude::*;

/// The datasets of the sequence sample without its end marker, and their answers.
fn sequence_block() -> (String, String) {
    let input = include_str!("data/sequence.in");
    let body = input
        .strip_suffix("0 0 0\n")
        .expect("the sample ends with its end marker");
    (
        body.to_string(),
        include_str!("data/sequence.out").to_string(),
    )
}

/// The path of the binary under test (for spawning it with pipes of our own).
fn binary() -> std::path::PathBuf {
    assert_cmd::cargo::cargo_bin("bitgames")
}

/// A reader that takes one line of a long output and closes the pipe (`bitgames … | head -1`)
/// is not a failure: exit status 0, nothing on standard error.
#[test]
#[cfg_attr(miri, ignore)]
fn a_reader_that_stops_early_is_not_an_error() {
    let (body, answers) = sequence_block();
    let input = body.repeat(20_000) + "0 0 0\n";
    let mut child = Process::new(binary())
        .args(["sequence", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bitgames starts");
    let mut stdin = child.stdin.take().expect("piped");
    let writer = thread::spawn(move || {
        // The judge may stop reading once its output is closed: a broken pipe here is fine.
        let _ = stdin.write_all(input.as_bytes());
    });
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("piped"))
        .read_line(&mut first)
        .expect("one line of output");
    // Dropping the reader closes the pipe.
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .expect("piped")
        .read_to_string(&mut stderr)
        .expect("stderr");
    let status = child.wait().expect("bitgames ends");
    writer.join().expect("writer thread");
    assert_eq!(first, answers.lines().next().unwrap().to_string() + "\n");
    assert!(status.success(), "status {status}, stderr {stderr:?}");
    assert_eq!(stderr, "");
}

/// A full disk (`> /dev/full`): exit status 1 and a message naming standard output.
#[test]
#[cfg_attr(miri, ignore)]
fn a_full_disk_is_a_clear_error() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        common::skipped(
            "a_full_disk_is_a_clear_error",
            "/dev/full is not on this system",
        );
        return;
    };
    for game in ["sequence", "havannah", "grid"] {
        let output = Process::new(binary())
            .args([game, &format!("tests/data/{game}.in")])
            .stdout(full.try_clone().expect("dup"))
            .stderr(Stdio::piped())
            .output()
            .expect("bitgames runs");
        assert_eq!(output.status.code(), Some(1), "{game}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.starts_with("error: <stdout>: ") && stderr.contains("No space left on device"),
            "{game}: {stderr:?}"
        );
    }
}

/// The peak resident memory of a running process (`VmHWM` of `/proc/PID/status`), in KiB.
fn peak_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Gigabytes of datasets through standard input: every answer right, in order, and the judge's
/// peak memory bounded (it reads in blocks). `BITGAMES_HOSTILE_GB` sets the size (default
/// 0.1 GB so that the test suite stays quick; the reliability table quotes a 5 GB run).
#[test]
#[cfg_attr(miri, ignore)]
fn gigabytes_through_standard_input_in_bounded_memory() {
    let gigabytes: f64 = std::env::var("BITGAMES_HOSTILE_GB")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0.1);
    let (body, answers) = sequence_block();
    // Blocks of the sample's datasets, about 1 MiB each.
    let chunk = body.repeat((1 << 20) / body.len() + 1);
    let repeats_per_chunk = chunk.len() / body.len();
    let chunks = ((gigabytes * 1e9) as usize).div_ceil(chunk.len());
    let mut child = Process::new(binary())
        .args(["sequence"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bitgames starts");
    let pid = child.id();
    let mut stdin = child.stdin.take().expect("piped");
    let writer = thread::spawn(move || {
        let mut peak = 0;
        for i in 0..chunks {
            stdin
                .write_all(chunk.as_bytes())
                .expect("the judge reads it all");
            if i % 64 == 0 {
                peak = peak.max(peak_kib(pid).unwrap_or(0));
            }
        }
        peak = peak.max(peak_kib(pid).unwrap_or(0));
        stdin.write_all(b"0 0 0\n").expect("end marker");
        peak
    });
    // Check the answers as they come: the sample's answers, over and over.
    let want: Vec<String> = answers.lines().map(str::to_string).collect();
    let mut lines = 0usize;
    for line in BufReader::new(child.stdout.take().expect("piped")).lines() {
        let line = line.expect("utf-8 answers");
        assert_eq!(line, want[lines % want.len()], "answer {}", lines + 1);
        lines += 1;
    }
    let peak = writer.join().expect("writer");
    let output = child.wait_with_output().expect("bitgames ends");
    assert!(output.status.success(), "{:?}", output);
    assert_eq!(lines, chunks * repeats_per_chunk * want.len());
    // Blocks of 1 MiB per thread and their answers: far below 100 MiB whatever the input size.
    assert!(peak > 0 && peak < 100 * 1024, "peak memory {peak} KiB");
    let _ = writeln!(
        std::io::stderr(),
        "note: {gigabytes} GB through standard input: {lines} answers, peak memory {peak} KiB"
    );
}

/// Every bad flag of the judges and of grid-table: clap's message and exit status 2, nothing
/// on standard output.
#[test]
fn bad_flags_are_usage_errors() {
    let cases: &[&[&str]] = &[
        &["sequence", "--threads", "0"],
        &["sequence", "--threads", "257"],
        &["havannah", "--threads", "x"],
        &["grid", "-j"],
        &["grid", "--no-such-flag"],
        &["sequence", "a.in", "b.in"],
        &["grid-table"],
        &["grid-table", "--max", "0"],
        &["grid-table", "--max", "99999"],
        &["no-such-command"],
        &[],
    ];
    for args in cases {
        bitgames()
            .args(*args)
            .env_remove("BITGAMES_SIMD")
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::starts_with("error: ").or(predicate::str::contains("Usage:")));
    }
}

/// A `BITGAMES_SIMD` value that means nothing is a usage error naming the expected values, not a
/// silent fall-back to the best back end; the known values (any case) are accepted.
#[test]
fn an_unknown_simd_cap_is_a_usage_error() {
    for value in ["avx3", "sse", "1"] {
        bitgames()
            .args(["sequence", "tests/data/sequence.in"])
            .env("BITGAMES_SIMD", value)
            .assert()
            .code(2)
            .stdout("")
            .stderr(format!(
                "error: BITGAMES_SIMD={value}: expected avx512, avx2 or portable (or unset, for \
                 the best back end of the CPU)\n"
            ));
    }
    for value in ["", "AVX512", "avx2", "Portable"] {
        bitgames()
            .args(["sequence", "tests/data/sequence.in"])
            .env("BITGAMES_SIMD", value)
            .assert()
            .success()
            .stdout(include_str!("data/sequence.out"));
    }
}
