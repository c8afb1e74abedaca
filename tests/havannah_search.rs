//! The game-generic search on Havannah: MCTS (with and without RAVE, on one and two threads)
//! takes and blocks immediate wins, is deterministic for a seed and an iteration budget,
//! reuses its tree, and is stronger than greedy and than plain UCT; `duel` counts right.

use bitgames::havannah::{Cell, Color, Game, Move};
use bitgames::search::duel;
use bitgames::search::{Agent, AgentSpec, Budget, Mcts, MctsConfig, Position};

mod common;
use common::winning_cells;

fn spec(text: &str) -> AgentSpec {
    text.parse().unwrap()
}

/// Side 4, White to move: White's stones run along the edge y = 1 from corner (1, 1) to
/// (3, 1), so corner (4, 1) completes a bridge, the only winning cell; Black's three stones
/// hold the far corner (7, 7) and two edges, and no immediate win.
fn threat_position() -> (Game, Cell) {
    let mut game = Game::new(4).unwrap();
    for (x, y) in [(1, 1), (7, 7), (2, 1), (6, 7), (3, 1), (7, 6)] {
        game.play(x, y).unwrap();
    }
    (game, Cell::new(4, 1))
}

#[test]
fn the_threat_position_has_one_winning_cell() {
    let (game, win) = threat_position();
    assert_eq!(game.to_move(), Color::White);
    assert_eq!(game.winning_cell(Color::White), Some(win));
    assert_eq!(winning_cells(&game, Color::White), [win]);
}

#[test]
fn mcts_takes_and_blocks_immediate_wins() {
    let (game, win) = threat_position();
    let specs = [
        "greedy",
        "mcts:200",
        "mcts:200,rave=1000",
        "mcts:200,rave=1000,threads=2",
        "mcts:200,rollout=random,rave=1000,c=0.2",
    ];
    for text in specs {
        let mut agent = Agent::<Game>::new(&spec(text), 3);
        assert_eq!(agent.choose(&game).mv, Move::Place(win), "{text} wins");
    }
    // White plays the centre instead: now Black is to move and must block (4, 1).
    let mut game = game;
    game.play(4, 4).unwrap();
    assert_eq!(game.to_move(), Color::Black);
    assert_eq!(game.winning_cell(Color::White), Some(win));
    assert_eq!(game.winning_cell(Color::Black), None);
    for text in specs {
        let mut agent = Agent::<Game>::new(&spec(text), 4);
        assert_eq!(agent.choose(&game).mv, Move::Place(win), "{text} blocks");
    }
}

#[test]
fn mcts_is_deterministic_on_two_threads_and_counts_every_iteration() {
    let game = Game::new(5).unwrap();
    for (threads, rave) in [(1, 0.0), (1, 1000.0), (2, 1000.0), (3, 0.0)] {
        let config = MctsConfig {
            budget: Budget::Iterations(900),
            rave,
            threads,
            ..MctsConfig::default()
        };
        let run = || {
            let mut mcts = Mcts::<Game>::new(config.clone(), 11);
            let choice = mcts.choose(&game);
            assert_eq!(mcts.iterations(), 900, "{threads} threads");
            assert_eq!(mcts.root_visits(), 900);
            choice
        };
        let first = run();
        assert_eq!(first, run(), "{threads} threads, rave {rave}");
        let v = first.value.unwrap();
        assert!((0.0..=1.0).contains(&v));
    }
}

#[test]
fn mcts_reuses_its_tree_after_the_reply() {
    let config = MctsConfig {
        budget: Budget::Iterations(2000),
        rave: 1000.0,
        ..MctsConfig::default()
    };
    let mut mcts = Mcts::<Game>::new(config, 5);
    let mut game = Game::new(4).unwrap();
    let mine = mcts.choose(&game).mv;
    Position::play(&mut game, mine);
    let mut moves = Vec::new();
    game.moves(&mut moves);
    Position::play(&mut game, moves[0]);
    mcts.choose(&game);
    // The grandchild's earlier visits are kept: more visits than this search's iterations.
    assert!(mcts.root_visits() > 2000, "{}", mcts.root_visits());
}

#[test]
#[cfg_attr(miri, ignore)]
fn duel_counts_every_game_and_alternates_colours() {
    let start = Game::new(4).unwrap();
    let d = duel::play(&start, &spec("greedy"), &spec("random"), 30, 9);
    assert_eq!(d.games, 30);
    assert_eq!(d.a_wins + d.b_wins + d.draws, 30);
    assert!(
        d.a_wins >= 24,
        "greedy won {} of 30 against random",
        d.a_wins
    );
    // The same agent on both sides: the first player's wins are counted whoever it is.
    let same = duel::play(&start, &spec("random"), &spec("random"), 30, 9);
    assert_eq!(same.games, 30);
    assert!(same.first_player_wins <= same.a_wins + same.b_wins);
    assert_eq!(
        d,
        duel::play(&start, &spec("greedy"), &spec("random"), 30, 9)
    );
}

#[test]
#[cfg_attr(miri, ignore)]
fn mcts_beats_greedy_on_side_6() {
    let start = Game::new(6).unwrap();
    let d = duel::play(
        &start,
        &spec("mcts:1000,rave=1000,c=0.2"),
        &spec("greedy"),
        20,
        1,
    );
    assert!(
        d.a_wins >= 19,
        "mcts:1000 with RAVE won {} of 20 against greedy",
        d.a_wins
    );
}

#[test]
#[cfg_attr(miri, ignore)]
fn rave_beats_plain_uct_at_equal_iterations() {
    let start = Game::new(5).unwrap();
    let d = duel::play(
        &start,
        &spec("mcts:600,rave=1000,c=0.2"),
        &spec("mcts:600"),
        30,
        2,
    );
    let rate = d.a_rate();
    assert!(
        rate.low > 0.5,
        "RAVE against plain UCT: {} wins, {} losses, {} draws of 30 (interval {:.2}..{:.2})",
        d.a_wins,
        d.b_wins,
        d.draws,
        rate.low,
        rate.high
    );
}
