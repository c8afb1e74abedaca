//! Raw bytes into the judges: never a panic, and whatever the fast judge answers (before an
//! error, or in full) is what the reference judge answers. Havannah and the grid game: never a
//! panic, and the same answers and error (message, line, column) on one thread with large
//! blocks as on several threads with tiny blocks, read in blocks or in place; and the grid
//! judge's fast path gives what its plain path gives.
#![no_main]

use bitgames::judge::{self, Options};
use bitgames::{grid, havannah, sequence};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, bytes)) = data.split_first() else {
        return;
    };
    if selector % 4 == 0 {
        let options = Options {
            threads: 1 + usize::from(selector / 4 % 2),
            block: 64 + usize::from(selector / 8) * 16,
        };
        let mut out = Vec::new();
        let fast = judge::run(&sequence::judge::Judge, bytes, &mut out, options);
        let answers: Vec<String> = String::from_utf8(out)
            .expect("answers are ASCII")
            .lines()
            .map(str::to_string)
            .collect();
        match (fast, sequence::reference::judge(bytes)) {
            (Ok(_), Ok(want)) => assert_eq!(answers, want),
            (Err(_), Err(want)) => assert_eq!(answers, want),
            (fast, slow) => panic!("fast {fast:?} vs reference {slow:?}"),
        }
    } else if selector % 4 == 1 {
        agrees_across_blocks_and_threads(&havannah::judge::Judge, selector, bytes);
    } else if selector % 4 == 2 {
        agrees_across_blocks_and_threads(&grid::judge::Judge, selector, bytes);
    } else {
        // The grid judge's fast path (windows cut into numbers first) against its plain path.
        let judge = |format: &dyn Fn(&mut Vec<u8>) -> Result<u64, String>| {
            let mut out = Vec::new();
            let result = format(&mut out);
            (out, result)
        };
        let options = Options {
            threads: 1 + usize::from(selector / 4 % 2),
            block: 64 + usize::from(selector / 8) * 16,
        };
        let fast = judge(&|out| {
            judge::run(&grid::judge::Judge, bytes, out, options)
                .map(|s| s.datasets)
                .map_err(|e| e.to_string())
        });
        let plain = judge(&|out| {
            judge::run(&grid::judge::Plain, bytes, out, Options::single_threaded())
                .map(|s| s.datasets)
                .map_err(|e| e.to_string())
        });
        assert_eq!(fast, plain);
    }
});

/// The same answers and error (message, line, column) on one thread with large blocks as on
/// several threads with tiny blocks, read in blocks or in place; no panic.
fn agrees_across_blocks_and_threads<F: judge::Format>(format: &F, selector: u8, bytes: &[u8]) {
    let options = Options {
        threads: 1 + usize::from(selector / 4 % 3),
        block: 64 + usize::from(selector / 16) * 16,
    };
    let judge = |options, in_place: bool| {
        let mut out = Vec::new();
        let result = if in_place {
            judge::run_bytes(format, bytes, &mut out, options)
        } else {
            judge::run(format, bytes, &mut out, options)
        };
        (out, result.map(|s| s.datasets).map_err(|e| e.to_string()))
    };
    let want = judge(Options::single_threaded(), false);
    assert_eq!(judge(options, false), want);
    assert_eq!(judge(options, true), want);
}
