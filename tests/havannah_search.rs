//! The game-generic search on Havannah: MCTS (with and without RAVE, on one and two threads)
//! takes and blocks immediate wins, is deterministic for a seed and an iteration budget,
//! reuses its tree, and is stronger than greedy and than plain UCT; `duel` counts right.

use bitgames::havannah::{Cell, Color, Game, Move, Rules};
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

/// A [`Game`] whose rollouts play on the game itself ([`Position::rollout`]'s default), for
/// comparing with the [`Playouts`](bitgames::havannah::Playouts) rollouts `Game` uses.
#[derive(Clone)]
struct InPlace(Game);

impl Position for InPlace {
    type Move = Move;
    fn to_move(&self) -> bitgames::search::Player {
        Position::to_move(&self.0)
    }
    fn outcome(&self) -> Option<bitgames::search::Outcome> {
        Position::outcome(&self.0)
    }
    fn moves(&self, out: &mut Vec<Move>) {
        Position::moves(&self.0, out)
    }
    fn play(&mut self, mv: Move) {
        Position::play(&mut self.0, mv)
    }
    fn undo(&mut self) {
        Position::undo(&mut self.0)
    }
    fn ply(&self) -> u32 {
        self.0.moves_played()
    }
    fn hash(&self) -> u64 {
        self.0.hash()
    }
    fn move_index(&self, mv: Move) -> usize {
        self.0.move_index(mv)
    }
    fn index_move(&self, index: usize) -> Move {
        self.0.index_move(index)
    }
    fn move_index_bound(&self) -> usize {
        self.0.move_index_bound()
    }
    fn moves_since(&self, ply: u32, out: &mut Vec<Move>) {
        Position::moves_since(&self.0, ply, out)
    }
    fn winning_move(&self, player: bitgames::search::Player) -> Option<Move> {
        self.0.winning_move(player)
    }
    fn playout(&mut self, rng: &mut bitgames::rng::Rng) -> bitgames::search::Outcome {
        Position::playout(&mut self.0, rng)
    }
    fn playout_decisive(&mut self, rng: &mut bitgames::rng::Rng) -> bitgames::search::Outcome {
        Position::playout_decisive(&mut self.0, rng)
    }
    fn priors(&self, moves: &[Move], out: &mut [u8]) {
        Position::priors(&self.0, moves, out)
    }
    /// On the game itself, the moves left in its history (the trait's default), with the
    /// game's own bridge playouts.
    fn rollout(
        &mut self,
        policy: bitgames::search::Rollout,
        rng: &mut bitgames::rng::Rng,
        moves: Option<&mut Vec<u32>>,
    ) -> bitgames::search::Outcome {
        if let Some(moves) = moves {
            moves.clear();
        }
        self.0.playout_with(policy, rng).into()
    }
}

/// The rollouts on a copy give the search exactly what rollouts on the game give: the same
/// move, value, visits and tree, with and without RAVE, random, decisive and bridge-saving
/// rollouts, with and without priors, both ring rules, over several moves of one game (tree
/// reuse included).
#[test]
fn rollouts_on_a_copy_search_exactly_as_rollouts_on_the_game() {
    use bitgames::havannah::RingRule;
    use bitgames::search::Rollout;
    for (rule, rollout, rave, prior) in [
        (RingRule::Official, Rollout::Random, 0.0, 0.0),
        (RingRule::Official, Rollout::Decisive, 200.0, 0.0),
        (RingRule::CodeJam, Rollout::Decisive, 1000.0, 0.0),
        (RingRule::CodeJam, Rollout::Random, 200.0, 0.0),
        (RingRule::Official, Rollout::Bridges, 200.0, 0.01),
        (RingRule::CodeJam, Rollout::Bridges, 0.0, 0.01),
    ] {
        let config = MctsConfig {
            budget: Budget::Iterations(1500),
            rollout,
            rave,
            prior,
            ..MctsConfig::default()
        };
        let mut game = Game::with_rules(5, Rules::default().ring(rule)).unwrap();
        let mut copy = Mcts::new(config.clone(), 9);
        let mut in_place = Mcts::new(config, 9);
        for _ in 0..6 {
            let a = copy.choose(&game);
            let b = in_place.choose(&InPlace(game.clone()));
            assert_eq!(a, b, "{rule:?} {rollout:?} rave {rave}");
            assert_eq!(copy.root_visits(), in_place.root_visits());
            assert_eq!(copy.tree_size(), in_place.tree_size());
            if game.play_move(a.mv).unwrap().is_some() {
                break;
            }
        }
    }
}

/// The exact value of `game` for the player to move, by negamax over every move (`memo` by
/// hash): 1 a win, 0 a draw, −1 a loss.
fn exact(game: &mut Game, memo: &mut std::collections::HashMap<u64, i8>) -> i8 {
    if let Some(&v) = memo.get(&game.hash()) {
        return v;
    }
    let mut moves = Vec::new();
    Position::moves(game, &mut moves);
    let mut best = -1;
    for mv in moves {
        Position::play(game, mv);
        let v = match Position::outcome(game) {
            Some(bitgames::search::Outcome::Draw) => 0,
            Some(bitgames::search::Outcome::Win(_)) => 1,
            None => -exact(game, memo),
        };
        Position::undo(game);
        best = best.max(v);
        if best == 1 {
            break;
        }
    }
    memo.insert(game.hash(), best);
    best
}

/// Every win or loss the solver proves is the exact value (negamax over every move), and a
/// move it proves to win wins: random undecided positions of side 3 with 10 to 13 empty
/// cells and of side 4 with 12 to 15, one and two threads.
#[test]
fn the_solver_proves_only_exact_values() {
    use bitgames::rng::Rng;
    let mut rng = Rng::new(11);
    let (mut proven, mut searched) = ([0; 2], 0);
    for k in 0u32..200 {
        if searched == 40 {
            break;
        }
        let side = 3 + k % 2;
        let mut game = Game::new(side).unwrap();
        let cells = game.board().cells() as u32;
        let empty = 10 + 2 * (side - 3) + rng.below(4);
        // Random moves that do not win at once (the positions stay undecided).
        let mut moves = Vec::new();
        while game.moves_played() + empty < cells {
            Position::moves(&game, &mut moves);
            let me = Position::to_move(&game);
            let quiet: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&mv| {
                    let mut after = game.clone();
                    Position::play(&mut after, mv);
                    Position::outcome(&after).is_none()
                })
                .collect();
            if quiet.is_empty() || game.winning_move(me).is_some() && rng.below(2) == 0 {
                break;
            }
            Position::play(&mut game, quiet[rng.below(quiet.len() as u32) as usize]);
        }
        let me = Position::to_move(&game);
        if Position::outcome(&game).is_some() || game.winning_move(me).is_some() {
            continue;
        }
        let config = MctsConfig {
            budget: Budget::Iterations(20_000),
            solver: true,
            rave: if k % 3 == 0 { 0.0 } else { 200.0 },
            expand: k % 2,
            threads: 1 + (k / 2) % 2,
            ..MctsConfig::default()
        };
        let mut mcts = Mcts::new(config, k.into());
        let choice = mcts.choose(&game);
        searched += 1;
        let mut memo = std::collections::HashMap::new();
        let value = exact(&mut game.clone(), &mut memo);
        match mcts.proven_winner() {
            Some(w) if w == me => {
                assert_eq!(value, 1, "{k}: proven a win");
                assert_eq!(choice.value, Some(1.0));
                let mut after = game.clone();
                Position::play(&mut after, choice.mv);
                let won = Position::outcome(&after).is_some() || exact(&mut after, &mut memo) == -1;
                assert!(won, "{k}: the proven move {:?} wins", choice.mv);
                proven[0] += 1;
            }
            Some(_) => {
                assert_eq!(value, -1, "{k}: proven a loss");
                assert_eq!(choice.value, Some(0.0));
                proven[1] += 1;
            }
            None => {}
        }
    }
    // Most of these small positions are proven within the budget, wins and losses.
    assert!(
        searched == 40 && proven[0] + proven[1] > 20,
        "{proven:?} of {searched}"
    );
    assert!(proven[0] > 0 && proven[1] > 0, "{proven:?}");
}

/// The prior knowledge, by hand: 20 for each corner and edge the stone's group would touch,
/// 25 for the answer to a probe of a bridge.
#[test]
fn priors_count_borders_and_bridge_answers() {
    let mut game = Game::new(6).unwrap();
    // White's bridge (3, 3)–(4, 5), probed by Black on (4, 4); White's stone (2, 1) on the
    // edge y = 1.
    for (x, y) in [(3, 3), (9, 9), (2, 1), (10, 10), (4, 5), (4, 4)] {
        game.play(x, y).unwrap();
    }
    let cells = [
        ((3, 4), 25), // the bridge's other cell, an inside cell
        ((5, 5), 0),  // next to White's group, inside
        ((1, 1), 40), // a corner, joined to (2, 1) on the edge y = 1
        ((1, 3), 20), // the edge x = 1
        ((2, 2), 20), // inside, joined to (2, 1) on the edge y = 1
        ((1, 2), 20), // the edge x = 1, not next to (2, 1)
    ];
    let moves: Vec<Move> = cells
        .iter()
        .map(|&((x, y), _)| Move::Place(Cell::new(x, y)))
        .collect();
    let mut out = vec![0xff; moves.len()];
    Position::priors(&game, &moves, &mut out);
    let want: Vec<u8> = cells.iter().map(|&(_, p)| p).collect();
    assert_eq!(out, want);
    // The same from the hash table that large boards use, for every legal move.
    let mut hashed = Game::with_hash_table(6, Rules::default()).unwrap();
    for mv in game.history() {
        hashed.play_move(mv).unwrap();
    }
    let legal: Vec<Move> = game.legal_moves().collect();
    let (mut dense, mut sparse) = (vec![0; legal.len()], vec![1; legal.len()]);
    Position::priors(&game, &legal, &mut dense);
    Position::priors(&hashed, &legal, &mut sparse);
    assert_eq!(dense, sparse);
    assert!(dense.iter().filter(|&&p| p > 0).count() > 20);
    // Black to move has no bridge to save: (3, 4) is just an inside cell for Black.
    game.play(6, 6).unwrap();
    let mut out = vec![0xff; 1];
    Position::priors(&game, &[Move::Place(Cell::new(3, 4))], &mut out);
    assert_eq!(out, [0]);
}

/// The priors steer the search: with a large weight and few iterations, the move the
/// knowledge favours is searched far more than without it.
#[test]
fn priors_steer_the_search() {
    const ITERATIONS: u32 = 200;
    let mut game = Game::new(6).unwrap();
    for (x, y) in [(3, 3), (9, 9), (4, 5), (4, 4)] {
        game.play(x, y).unwrap();
    }
    let answer = Move::Place(Cell::new(3, 4));
    let chosen = |prior: f32| {
        let config = MctsConfig {
            budget: Budget::Iterations(ITERATIONS),
            rave: 200.0,
            exploration: 0.2,
            prior,
            ..MctsConfig::default()
        };
        (0..20)
            .filter(|&seed| Mcts::new(config.clone(), seed).choose(&game).mv == answer)
            .count()
    };
    let (with, without) = (chosen(0.01), chosen(0.0));
    assert!(
        with >= 2 * without.max(3),
        "with priors {with} of 20, without {without}"
    );
}
