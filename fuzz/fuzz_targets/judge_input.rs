//! Raw bytes into the judges: never a panic, and whatever the fast judge answers (before an
//! error, or in full) is what the reference judge answers.
#![no_main]

use bitgames::judge::{self, Options};
use bitgames::sequence;
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
    }
});
