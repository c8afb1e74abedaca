//! The Havannah GTP engine on any sequence of lines: no panic, every reply starts with `=` or
//! `?` and ends with one empty line, and an error reply leaves the position unchanged.
#![no_main]

use bitgames::havannah::Rules;
use bitgames::havannah::agent;
use bitgames::havannah::gtp::Engine;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut engine = Engine::new(
        agent::from_spec(&"greedy".parse().unwrap(), 1),
        Rules::default().swap(true),
    );
    let text = String::from_utf8_lossy(data);
    for line in text.split('\n').take(300) {
        let before = engine.game().clone();
        let winner = engine.respond("winner");
        let Some(reply) = engine.respond(line) else {
            continue;
        };
        assert!(reply.ends_with("\n\n") && !reply[..reply.len() - 2].contains("\n\n"));
        match reply.as_bytes()[0] {
            b'=' => {}
            b'?' => {
                assert_eq!(engine.game(), &before, "{line:?} changed the game");
                assert_eq!(engine.respond("winner"), winner);
            }
            _ => panic!("reply {reply:?}"),
        }
        if engine.has_quit() {
            break;
        }
    }
});
