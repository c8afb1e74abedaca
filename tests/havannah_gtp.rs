//! The Havannah GTP engine: a conformance list through the library, the same through a pipe to
//! `bitgames gtp havannah`, a whole game between two engine processes refereed here as a
//! controller does, and random command lines (every reply `=` or `?`, an error changes
//! nothing).

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use bitgames::havannah::agent;
use bitgames::havannah::gtp::{Engine, parse_cell};
use bitgames::havannah::{Color, Game, Outcome, Rules};
use proptest::prelude::*;

/// (line, expected reply) pairs, played in order on one engine (side 8 at the start).
const CONFORMANCE: &[(&str, &str)] = &[
    ("protocol_version", "= 2\n\n"),
    ("1 name", "=1 bitgames\n\n"),
    ("  2   known_command   genmove  ", "=2 true\n\n"),
    ("3 known_command frobnicate", "=3 false\n\n"),
    ("known_command", "? expected known_command <command>\n\n"),
    ("frobnicate 1 2", "? unknown command: frobnicate\n\n"),
    ("42", "?42 missing command\n\n"),
    ("name extra", "? name takes no arguments\n\n"),
    (
        "boardsize 1",
        "? unacceptable size 1: the side must be in 2..=13\n\n",
    ),
    (
        "boardsize 14",
        "? unacceptable size 14: the side must be in 2..=13\n\n",
    ),
    (
        "boardsize x",
        "? unacceptable size x: the side must be in 2..=13\n\n",
    ),
    ("boardsize", "? expected boardsize N\n\n"),
    ("5 boardsize 4", "=5\n\n"),
    ("havannah-winner", "= none\n\n"),
    ("play b d4", "? it is white's turn\n\n"),
    ("play w d4", "=\n\n"),
    (
        "play b d4",
        "? illegal move d4: cell (4, 4) is already occupied\n\n",
    ),
    (
        "play b a5",
        "? cell a5 is off the board: columns a.. and rows 1.. up to 7, with the column and the row at most 3 apart\n\n",
    ),
    (
        "play b 44",
        "? invalid cell 44: expected a letter and a number, such as c4\n\n",
    ),
    (
        "play x a1",
        "? invalid color x: expected b, w, black or white\n\n",
    ),
    ("play b", "? expected play <b|w> <cell>\n\n"),
    (
        "swap",
        "? swap is allowed only as the second move, and only when the rules allow it\n\n",
    ),
    ("genmove w", "? it is black's turn\n\n"),
    ("play BLACK A1", "=\n\n"),
    ("undo", "=\n\n"),
    ("undo", "=\n\n"),
    ("undo", "? cannot undo: no move has been played\n\n"),
    ("time_settings 300 10 5", "=\n\n"),
    (
        "time_settings 300",
        "? expected time_settings <main time> <byo-yomi time> <byo-yomi stones> (seconds, \
         seconds, a whole number)\n\n",
    ),
    (
        "time_settings 300 10 -1",
        "? expected time_settings <main time> <byo-yomi time> <byo-yomi stones> (seconds, \
         seconds, a whole number)\n\n",
    ),
    (
        "time_left w inf 0",
        "? expected time_left <b|w> <time> <stones> (seconds, a whole number)\n\n",
    ),
    ("time_left w 120 0", "=\n\n"),
    (
        "time_left q 120 0",
        "? invalid color q: expected b, w, black or white\n\n",
    ),
    // A bridge for White along the edge x = 1: a1, a2, a3, a4 (corners a1 and a4).
    ("play w a1", "=\n\n"),
    ("play b g7", "=\n\n"),
    ("play w a2", "=\n\n"),
    ("play b g6", "=\n\n"),
    ("play w a3\t# a tab and a comment", "=\n\n"),
    ("play b f7", "=\n\n"),
    ("winner", "= none\n\n"),
    ("play w a4", "=\n\n"),
    ("7 winner", "=7 white\n\n"),
    ("havannah-winner", "= white\n\n"),
    ("final_score", "= W+\n\n"),
    ("play b b2", "? the game is over\n\n"),
    ("genmove b", "? the game is over\n\n"),
    ("undo", "=\n\n"),
    ("winner", "= none\n\n"),
    ("resign", "=\n\n"),
    ("winner", "= black\n\n"),
    ("undo", "=\n\n"),
    ("winner", "= none\n\n"),
    ("clear_board", "=\n\n"),
    (
        "showboard",
        "= side 4, white to move, move 1
 7 d     . . . . 
 6 c    . . . . . 
 5 b   . . . . . . 
 4 a  . . . . . . . 
 3 a   . . . . . . 
 2 a    . . . . . 
 1 a     . . . . 
winner: none\n\n",
    ),
    ("quit", "=\n\n"),
];

#[test]
#[cfg_attr(miri, ignore)]
fn genmove_keeps_to_the_clock() {
    // A search of 1000 s a move: the clock cuts it to its share of 3 s (2.6 s for one stone
    // of byo-yomi, after a margin), then to a share of 20 s of main time.
    let mut engine = Engine::new(
        agent::from_spec(&"mcts:1000s".parse().unwrap(), 1),
        Rules::default(),
    );
    assert_eq!(engine.respond("boardsize 5").as_deref(), Some("=\n\n"));
    assert_eq!(
        engine.respond("time_settings 0 3 1").as_deref(),
        Some("=\n\n")
    );
    let started = std::time::Instant::now();
    assert!(engine.respond("genmove w").unwrap().starts_with("= "));
    let took = started.elapsed();
    assert!(
        took < std::time::Duration::from_secs(20),
        "genmove took {took:?}"
    );
    assert!(
        took > std::time::Duration::from_secs(1),
        "genmove took {took:?}"
    );
    assert_eq!(engine.respond("time_left b 20 0").as_deref(), Some("=\n\n"));
    let started = std::time::Instant::now();
    assert!(engine.respond("genmove b").unwrap().starts_with("= "));
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
}

#[test]
fn conformance_through_the_library() {
    let mut engine = Engine::new(
        agent::from_spec(&"greedy".parse().unwrap(), 1),
        Rules::default(),
    );
    for &(line, expected) in CONFORMANCE {
        assert_eq!(engine.respond(line).as_deref(), Some(expected), "{line:?}");
    }
    assert!(engine.has_quit());
    for blank in ["", "   ", "# only a comment", "\t\r"] {
        assert_eq!(engine.respond(blank), None);
    }
}

/// A `bitgames gtp havannah` process and its pipes.
struct Process {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Process {
    fn start(args: &[&str]) -> Process {
        let mut child = Command::new(env!("CARGO_BIN_EXE_bitgames"))
            .args(["gtp", "havannah"])
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("bitgames starts");
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Process {
            child,
            input,
            output,
        }
    }

    /// Sends `line`, returns the reply up to (without) its empty line.
    fn ask(&mut self, line: &str) -> String {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
        let mut reply = String::new();
        loop {
            let mut next = String::new();
            assert!(
                self.output.read_line(&mut next).unwrap() > 0,
                "reply to {line:?} cut off"
            );
            if next == "\n" {
                return reply;
            }
            reply += &next;
        }
    }

    /// Sends `line`, expects a success and returns its text.
    fn ok(&mut self, line: &str) -> String {
        let reply = self.ask(line);
        let text = reply
            .strip_prefix('=')
            .unwrap_or_else(|| panic!("{line}: {reply}"));
        text.trim().to_owned()
    }

    fn quit(mut self) {
        assert_eq!(self.ok("quit"), "");
        let status = self.child.wait().unwrap();
        assert!(status.success());
    }
}

#[test]
#[cfg_attr(miri, ignore)]
fn conformance_through_a_pipe() {
    let mut gtp = Process::start(&["--agent", "greedy"]);
    for &(line, expected) in CONFORMANCE {
        if line == "quit" {
            continue;
        }
        assert_eq!(gtp.ask(line) + "\n", expected, "{line:?}");
    }
    // A line that is not UTF-8 is answered, not fatal.
    gtp.input.write_all(b"\xff\xfe name").unwrap();
    assert!(gtp.ask("").starts_with("? unknown command"));
    assert_eq!(gtp.ok("name"), "bitgames");
    // An over-long line (4 MiB, past the 1 MiB limit) gets an error reply, is skipped, and
    // changes nothing: the position before it is still there.
    assert_eq!(gtp.ok("boardsize 4"), "");
    assert_eq!(gtp.ok("play w a1"), "");
    let long = format!("play b {}", "b".repeat(4 << 20));
    assert_eq!(
        gtp.ask(&long).trim_end(),
        "? line too long: a command has at most 1048576 bytes"
    );
    assert_eq!(gtp.ok("name"), "bitgames");
    assert!(gtp.ask("play b a1").starts_with("? "), "a1 is still taken");
    gtp.quit();
}

#[test]
#[cfg_attr(miri, ignore)]
fn two_engines_play_a_whole_game_under_a_controller() {
    for (side, swap) in [(5u32, false), (6, true)] {
        let swap_flag = if swap { "--swap" } else { "--ring=official" };
        // An MCTS engine (two threads) against a greedy one.
        let mcts = "mcts:300,rave=1000,c=0.2,threads=2";
        let mut white = Process::start(&["--agent", mcts, "--seed", "3", swap_flag]);
        let mut black = Process::start(&["--agent", "greedy", "--seed", "4", swap_flag]);
        for engine in [&mut white, &mut black] {
            assert_eq!(engine.ok(&format!("boardsize {side}")), "");
            assert_eq!(engine.ok("clear_board"), "");
        }
        let rules = Rules::default().swap(swap);
        let mut referee = Game::with_rules(side, rules).unwrap();
        let mut moves = 0;
        loop {
            let (mover, other, color) = match referee.to_move() {
                Color::White => (&mut white, &mut black, "w"),
                Color::Black => (&mut black, &mut white, "b"),
            };
            let vertex = if swap && moves == 1 {
                // Black swaps, told by the controller, on both engines.
                assert_eq!(mover.ok("play b swap"), "");
                referee.swap().unwrap();
                "swap".to_owned()
            } else {
                let vertex = mover.ok(&format!("genmove {color}"));
                let cell = parse_cell(&vertex, side).unwrap();
                referee.play(cell.x, cell.y).unwrap();
                vertex
            };
            if vertex != "swap" {
                assert_eq!(other.ok(&format!("play {color} {vertex}")), "");
            } else {
                assert_eq!(other.ok("play b swap"), "");
            }
            moves += 1;
            let verdicts = [white.ok("havannah-winner"), black.ok("winner")];
            assert_eq!(verdicts[0], verdicts[1]);
            let expected = match referee.outcome() {
                None => "none",
                Some(Outcome::Draw) => "draw",
                Some(Outcome::Win { color, .. }) => match color {
                    Color::White => "white",
                    Color::Black => "black",
                },
            };
            assert_eq!(verdicts[0], expected, "after {moves} moves");
            if referee.outcome().is_some() {
                break;
            }
            assert!(moves < 200);
        }
        assert!(white.ask("genmove w").starts_with('?'));
        let board = white.ok("showboard");
        assert!(board.contains("winner: ") && !board.contains("winner: none"));
        white.quit();
        black.quit();
    }
}

#[test]
#[cfg_attr(miri, ignore)]
fn the_cli_rejects_bad_flags() {
    common::bitgames()
        .args(["gtp", "havannah", "--agent", "mcts"])
        .assert()
        .code(2);
    common::bitgames().args(["gtp", "chess"]).assert().code(2);
    common::bitgames()
        .args(["gtp", "havannah"])
        .write_stdin("boardsize 3\ngenmove w\n")
        .assert()
        .success();
}

/// A random command line from the engine's vocabulary, with random arguments.
fn line() -> impl Strategy<Value = String> {
    let words = prop::sample::select(vec![
        "play",
        "genmove",
        "undo",
        "boardsize",
        "clear_board",
        "showboard",
        "winner",
        "swap",
        "resign",
        "known_command",
        "list_commands",
        "time_left",
        "time_settings",
        "name",
        "12",
        "b",
        "w",
        "white",
        "B",
        "a1",
        "c3",
        "e5",
        "z9",
        "swap",
        "resign",
        "3",
        "4",
        "0",
        "#",
        "\t",
        "x",
        "",
        "99999999999999999999",
    ]);
    prop::collection::vec(words, 0..5).prop_map(|w| w.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 2 } else { 300 }))]

    #[test]
    #[cfg_attr(miri, ignore)]
    fn every_line_gets_a_reply_and_errors_change_nothing(
        lines in prop::collection::vec(line(), 0..60),
        swap in any::<bool>(),
    ) {
        let mut engine = Engine::new(agent::from_spec(&"random".parse().unwrap(), 5), Rules::default().swap(swap));
        for line in &lines {
            let before = engine.game().clone();
            let winner_before = engine.respond("winner");
            let Some(reply) = engine.respond(line) else {
                continue;
            };
            prop_assert!(reply.ends_with("\n\n") && !reply[..reply.len() - 2].contains("\n\n"));
            match reply.as_bytes()[0] {
                b'=' => {}
                b'?' => {
                    prop_assert_eq!(engine.game(), &before, "{}", line);
                    prop_assert_eq!(engine.respond("winner"), winner_before);
                }
                _ => prop_assert!(false, "{reply:?}"),
            }
        }
    }
}
