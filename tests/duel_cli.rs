//! `bitgames duel` end to end: the counts add up, the output is the same for a seed whatever
//! the thread count, and bad flags exit 2 with a message.

mod common;

use common::bitgames;

fn run(args: &[&str], threads: &str) -> String {
    let out = bitgames()
        .args(args)
        .env("RAYON_NUM_THREADS", threads)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

#[test]
#[cfg_attr(miri, ignore)]
fn a_havannah_duel_reports_counts_that_add_up_on_any_thread_count() {
    let args = [
        "duel", "havannah", "--side", "4", "--games", "12", "--a", "mcts:200", "--b", "random",
        "--seed", "5", "--json",
    ];
    let one = run(&args, "1");
    assert_eq!(one, run(&args, "2"), "the thread count changed the result");
    let value: serde_json::Value = serde_json::from_str(&one).unwrap();
    let count = |k: &str| value[k].as_u64().unwrap();
    assert_eq!(count("games"), 12);
    assert_eq!(count("a_wins") + count("b_wins") + count("draws"), 12);
    assert!(count("a_wins") >= 10, "{one}");
    assert_eq!(value["a"], "mcts:200");
    let rate = &value["a_win_rate"];
    assert!(rate["low"].as_f64().unwrap() <= rate["value"].as_f64().unwrap());
}

#[test]
#[cfg_attr(miri, ignore)]
fn a_sequence_duel_prints_a_table() {
    let text = run(
        &[
            "duel", "sequence", "--n", "4", "--m", "4", "--games", "10", "--a", "greedy", "--b",
            "random",
        ],
        "2",
    );
    assert!(text.starts_with("sequence n 4 m 4: A = greedy against B = random, 10 games"));
    assert!(text.contains("A's win rate"), "{text}");
}

#[test]
#[cfg_attr(miri, ignore)]
fn bad_flags_exit_2_with_a_reason() {
    for (args, why) in [
        (vec!["--a", "greedy", "--b", "mcts:0"], "iteration budget"),
        (vec!["--a", "chess", "--b", "random"], "unknown agent"),
        (
            vec!["--a", "greedy", "--b", "random", "--games", "0"],
            "--games",
        ),
        (
            vec!["--a", "greedy", "--b", "random", "--side", "1"],
            "--side",
        ),
        (vec!["--a", "greedy"], "--b"),
    ] {
        let out = bitgames()
            .args(["duel", "havannah"])
            .args(&args)
            .assert()
            .code(2)
            .get_output()
            .stderr
            .clone();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains(why), "{args:?}: {text}");
    }
}
