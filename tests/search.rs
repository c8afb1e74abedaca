//! The game-generic search on Sequence: agent specs, immediate wins and blocks, tree reuse,
//! determinism, and strength (greedy over random, MCTS over greedy, more iterations over
//! fewer).

use bitgames::search::{Agent, AgentSpec, Budget, Mcts, MctsConfig, Player, Position};
use bitgames::sequence::{Color, Game, Outcome, Peg};

/// Plays one game between two agents from the empty (n, m) board; the first agent is Black.
fn play(n: u32, m: u32, black: &mut Agent<Game>, white: &mut Agent<Game>) -> Outcome {
    let mut game = Game::new(n, m).unwrap();
    loop {
        if let Some(outcome) = game.outcome() {
            return outcome;
        }
        let agent = if game.to_move() == Color::Black {
            &mut *black
        } else {
            &mut *white
        };
        let choice = agent.choose(&game);
        game.play(choice.mv.x, choice.mv.y).unwrap();
    }
}

/// Games won by `strong` out of `games`, colours alternating; returns (wins, draws).
fn score(n: u32, m: u32, strong: &str, weak: &str, games: u64) -> (u64, u64) {
    let (strong, weak): (AgentSpec, AgentSpec) = (strong.parse().unwrap(), weak.parse().unwrap());
    let (mut wins, mut draws) = (0, 0);
    for g in 0..games {
        let mut a = Agent::new(&strong, 2 * g + 1);
        let mut b = Agent::new(&weak, 2 * g + 2);
        let strong_color = if g % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let outcome = if strong_color == Color::Black {
            play(n, m, &mut a, &mut b)
        } else {
            play(n, m, &mut b, &mut a)
        };
        match outcome {
            Outcome::Win { color, .. } if color == strong_color => wins += 1,
            Outcome::Draw => draws += 1,
            _ => {}
        }
    }
    (wins, draws)
}

#[test]
fn specs_parse_print_and_refuse_with_a_reason() {
    for (text, shown) in [
        ("random", "random"),
        ("greedy", "greedy"),
        ("mcts:2000", "mcts:2000"),
        ("mcts:4k", "mcts:4000"),
        ("mcts:0.5s", "mcts:0.5s"),
        (
            "mcts:100,rollout=random,c=1.5",
            "mcts:100,c=1.5,rollout=random",
        ),
        ("mcts:1s,threads=2,rave=1000", "mcts:1s,rave=1000,threads=2"),
        ("mcts:10,rave=0,threads=1", "mcts:10"),
        (
            "mcts:1s,nodes=32M,expand=1,rave=200",
            "mcts:1s,rave=200,expand=1,nodes=32M",
        ),
        ("mcts:10,nodes=3k", "mcts:10,nodes=3k"),
        ("mcts:10,nodes=1000", "mcts:10,nodes=1000"),
        ("mcts:10,nodes=16384k,expand=0", "mcts:10"),
        ("mcts:10,nodes=4M", "mcts:10,nodes=4M"),
        ("mcts:10,nodes=2048M", "mcts:10,nodes=2048M"),
        ("mcts:1s,solve=on,c=0.2", "mcts:1s,c=0.2,solve=on"),
        ("mcts:10,solve=off", "mcts:10"),
        (
            "mcts:1s,prior=0.01,rollout=bridges",
            "mcts:1s,rollout=bridges,prior=0.01",
        ),
        ("mcts:10,prior=0,rollout=decisive", "mcts:10"),
        // The GTP default is written as it is shown.
        (
            bitgames::havannah::gtp::DEFAULT_AGENT,
            bitgames::havannah::gtp::DEFAULT_AGENT,
        ),
    ] {
        let spec: AgentSpec = text.parse().unwrap();
        assert_eq!(spec.to_string(), shown);
        assert_eq!(shown.parse::<AgentSpec>().unwrap(), spec);
    }
    for (bad, why) in [
        ("", "unknown agent"),
        ("mcts", "unknown agent"),
        ("mcts:", "iteration budget"),
        ("mcts:0", "iteration budget"),
        ("mcts:-5", "iteration budget"),
        ("mcts:99999999999", "iteration budget"),
        ("mcts:0s", "time budget"),
        ("mcts:xs", "time budget"),
        ("mcts:10,c=-1", "c = `-1`"),
        ("mcts:10,depth=3", "unknown option"),
        ("mcts:10,rave=-1", "rave = `-1`"),
        ("mcts:10,rave=x", "rave = `x`"),
        ("mcts:10,threads=0", "threads = `0`"),
        ("mcts:10,threads=100000", "threads = `100000`"),
        ("mcts:10,expand=-1", "expand = `-1`"),
        ("mcts:10,expand=", "expand = ``"),
        ("mcts:10,nodes=0", "nodes = `0`"),
        ("mcts:10,nodes=2049M", "nodes = `2049M`"),
        ("mcts:10,nodes=4G", "nodes = `4G`"),
        ("mcts:10,nodes=M", "nodes = `M`"),
        ("mcts:10,solve=1", "solve = `1` is not on or off"),
        ("mcts:10,solve", "unknown option `solve`"),
        ("mcts:10,prior=-0.5", "prior = `-0.5` is not a number >= 0"),
        ("mcts:10,prior=inf", "prior = `inf`"),
        ("mcts:10,rollout=bridge", "unknown option `rollout=bridge`"),
        ("solver", "not available"),
        ("Greedy", "unknown agent"),
    ] {
        let e = bad.parse::<AgentSpec>().unwrap_err();
        let message = e.to_string();
        assert!(message.contains(why), "{bad}: {message}");
        assert!(message.contains("expected random, greedy"), "{message}");
    }
}

#[test]
fn mcts_plays_an_immediate_win_and_blocks_one() {
    // Black: (1,1) (2,1) (3,1) on the floor; White (1,4) (2,4) (3,4): Black to move wins at
    // (4,1). (`Mcts::choose` plays a winning move without searching, with value 1.)
    let mut game = Game::new(4, 4).unwrap();
    for (x, y) in [(1, 1), (1, 4), (2, 1), (2, 4), (3, 1), (3, 4)] {
        game.play(x, y).unwrap();
    }
    for spec in ["mcts:50", "mcts:50,rollout=random", "greedy"] {
        let mut agent = Agent::<Game>::new(&spec.parse().unwrap(), 3);
        assert_eq!(agent.choose(&game).mv, Peg::new(4, 1), "{spec}");
    }
    // Black instead plays elsewhere: White must now win at (4, 4), and does.
    game.play(2, 2).unwrap();
    for spec in ["mcts:50", "mcts:200,rollout=random", "greedy"] {
        let mut agent = Agent::<Game>::new(&spec.parse().unwrap(), 4);
        assert_eq!(agent.choose(&game).mv, Peg::new(4, 4), "{spec}");
    }
    // Before that, with Black to move and White threatening (4, 4) only if Black does not win:
    // take Black's win away and see Black block.
    let mut game = Game::new(4, 4).unwrap();
    for (x, y) in [(1, 1), (1, 4), (2, 2), (2, 4), (1, 2), (3, 4)] {
        game.play(x, y).unwrap();
    }
    assert_eq!(
        game.winning_pegs(Color::White).iter().collect::<Vec<_>>(),
        [Peg::new(4, 4)]
    );
    assert!(game.winning_pegs(Color::Black).is_empty());
    for spec in ["mcts:50", "greedy"] {
        let mut agent = Agent::<Game>::new(&spec.parse().unwrap(), 5);
        assert_eq!(agent.choose(&game).mv, Peg::new(4, 4), "{spec}");
    }
}

#[test]
fn mcts_is_deterministic_for_a_seed_and_reuses_its_tree() {
    let config = MctsConfig {
        budget: Budget::Iterations(300),
        ..MctsConfig::default()
    };
    let run = |seed| {
        let mut black = Mcts::<Game>::new(config.clone(), seed);
        let mut white = Mcts::<Game>::new(config.clone(), seed + 1);
        let mut game = Game::new(5, 4).unwrap();
        let mut trace = Vec::new();
        let mut reused = 0;
        while game.outcome().is_none() {
            let agent = if game.to_move() == Color::Black {
                &mut black
            } else {
                &mut white
            };
            let choice = agent.choose(&game);
            // A reused subtree had visits before this search's 300.
            if agent.root_visits() > 300 {
                reused += 1;
            }
            trace.push((choice.mv, choice.value.map(f32::to_bits)));
            Position::play(&mut game, choice.mv);
        }
        (trace, game.outcome(), reused, black.iterations())
    };
    let (a, outcome, reused, iterations) = run(10);
    assert_eq!(run(10).0, a);
    assert_ne!(run(20).0, a, "another seed plays another game");
    assert!(outcome.is_some() && reused > 0);
    assert!(iterations > 0);
}

#[test]
fn the_position_trait_on_sequence() {
    let mut game = Game::new(3, 3).unwrap();
    let mut moves = Vec::new();
    Position::moves(&game, &mut moves);
    assert_eq!(moves.len(), 9);
    assert_eq!(Position::to_move(&game), Player::First);
    let root = game.clone();
    Position::play(&mut game, Peg::new(2, 2));
    Position::play(&mut game, Peg::new(2, 2));
    assert_eq!(Position::ply(&game), 2);
    game.rewind(&root);
    assert!(game == root);
    let outcome = Position::playout_decisive(&mut game, &mut bitgames::rng::Rng::new(1));
    assert_eq!(Position::outcome(&game), Some(outcome));
}

#[test]
#[cfg_attr(miri, ignore)]
fn greedy_beats_random_at_4_4() {
    let (wins, _) = score(4, 4, "greedy", "random", 200);
    assert!(wins >= 180, "greedy won {wins} of 200 against random");
}

#[test]
#[cfg_attr(miri, ignore)]
fn mcts_1000_beats_greedy_at_4_4() {
    let (wins, _) = score(4, 4, "mcts:1000", "greedy", 40);
    assert!(wins >= 32, "mcts:1000 won {wins} of 40 against greedy");
}

#[test]
#[cfg_attr(miri, ignore)]
fn mcts_4k_beats_mcts_1k_at_4_4() {
    let (wins, draws) = score(4, 4, "mcts:4k", "mcts:1k", 40);
    let losses = 40 - wins - draws;
    assert!(
        wins > losses,
        "mcts:4k against mcts:1k: {wins} wins, {draws} draws, {losses} losses"
    );
}

#[test]
fn a_budget_of_zero_iterations_searches_once() {
    // A library caller may build `Budget::Iterations(0)` (the spec parser refuses it): one
    // iteration, a legal move, no panic, on one thread and on several.
    for threads in [1, 3] {
        let config = MctsConfig {
            budget: Budget::Iterations(0),
            threads,
            ..MctsConfig::default()
        };
        let mut agent = Mcts::<Game>::new(config, 5);
        let mut game = Game::new(4, 4).unwrap();
        while game.outcome().is_none() {
            let choice = agent.choose(&game);
            assert!(
                game.legal_moves().any(|p| p == choice.mv),
                "{threads}: {choice:?}"
            );
            Position::play(&mut game, choice.mv);
        }
    }
}

#[test]
fn a_time_limit_is_looked_at_every_32_iterations() {
    // The clock is read only between batches of 32 iterations (reading it at every iteration
    // would cost a visible share of a short search): a limit already past when the search
    // starts still lets it run its first 32, or the whole budget when that is smaller.
    let game = Game::new(4, 4).unwrap();
    for (budget, want) in [
        (Budget::Iterations(1000), 32),
        (Budget::Iterations(10), 10),
        (Budget::Time(std::time::Duration::from_secs(60)), 32),
    ] {
        let config = MctsConfig {
            budget,
            ..MctsConfig::default()
        };
        let mut mcts = Mcts::<Game>::new(config, 1);
        let choice = mcts.choose_within(&game, Some(std::time::Duration::ZERO));
        assert!(game.legal_moves().any(|p| p == choice.mv));
        assert_eq!(mcts.iterations(), want, "{budget:?}");
    }
}

#[test]
fn a_time_budget_is_searched_to_its_end() {
    // The search stops at the first batch of 32 iterations that ends with the budget spent,
    // never before: the time it took is at least the budget (a lower bound only, which no load
    // can break), and far more than one batch ran.
    let game = Game::new(4, 4).unwrap();
    let budget = std::time::Duration::from_millis(300);
    let config = MctsConfig {
        budget: Budget::Time(budget),
        ..MctsConfig::default()
    };
    let mut mcts = Mcts::<Game>::new(config, 1);
    let started = std::time::Instant::now();
    let choice = mcts.choose(&game);
    assert!(started.elapsed() >= budget, "{:?}", started.elapsed());
    assert!(game.legal_moves().any(|p| p == choice.mv));
    assert!(mcts.iterations() > 32, "{}", mcts.iterations());
}

#[test]
fn a_match_counts_every_outcome() {
    // Greedy against greedy on 7×7×7 with seven in a row: decided games and draws (15 of these
    // 40 are drawn). Every game is counted once, as A's win, B's win or a draw.
    let start = Game::new(7, 7).unwrap();
    let greedy: AgentSpec = "greedy".parse().unwrap();
    let d = bitgames::search::duel::play(&start, &greedy, &greedy, 40, 1);
    assert_eq!(d.games, 40);
    assert!(d.draws > 0 && d.a_wins + d.b_wins > 0, "{d:?}");
    assert_eq!(d.a_wins + d.b_wins + d.draws, d.games, "{d:?}");
    assert!(d.first_player_wins <= d.a_wins + d.b_wins, "{d:?}");
    assert_eq!(d.moves as f64 / 40.0, d.mean_length());
}
