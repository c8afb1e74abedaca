//! `SmallGame` (n ≤ 4, one `u64` a colour) against `Game` and the reference: the same
//! outcomes, hashes, legal moves and threats after every ball and undo, the same playouts from
//! the same random numbers, and the same choices from a search.

use bitgames::rng::Rng;
use bitgames::search::{Budget, Mcts, MctsConfig, Rollout};
use bitgames::sequence::reference::Board;
use bitgames::sequence::{Color, Game, SizeError, SmallGame};
use proptest::prelude::*;

fn size() -> impl Strategy<Value = (u32, u32)> {
    (1u32..=4).prop_flat_map(|n| (Just(n), 1u32..=n))
}

/// Everything the two engines show of a position, compared.
fn assert_same(small: &SmallGame, game: &Game, at: &str) {
    assert_eq!(small.outcome(), game.outcome(), "{at}\n{game:?}");
    assert_eq!(small.moves_played(), game.moves_played(), "{at}");
    assert_eq!(small.hash(), game.hash(), "{at}");
    assert_eq!(small.legal_pegs(), game.legal_pegs(), "{at}");
    assert!(small.legal_moves().eq(game.legal_moves()), "{at}");
    assert!(small.history().eq(game.history()), "{at}");
    for color in [Color::Black, Color::White] {
        assert_eq!(small.cube(color), game.cube(color), "{at} {color}");
        let (threats, want) = (small.threats(color), game.threats(color));
        for b in 0..64 {
            let (x, y, z) = (b & 3, (b >> 2) & 3, b >> 4);
            let here = threats >> b & 1 == 1;
            assert_eq!(
                here,
                want.contains(x, y, z),
                "{at} {color} threat ({x}, {y}, {z})"
            );
        }
        assert_eq!(
            small.winning_pegs(color),
            game.winning_pegs(color),
            "{at} {color}"
        );
        assert_eq!(
            small.first_winning_peg(color),
            game.first_winning_peg(color),
            "{at} {color}"
        );
    }
    for x in 1..=game.n() {
        for y in 1..=game.n() {
            assert_eq!(small.height(x, y), game.height(x, y), "{at}");
        }
    }
}

fn cells(n: u32) -> impl Iterator<Item = (u32, u32, u32)> {
    (1..=n).flat_map(move |x| (1..=n).flat_map(move |y| (1..=n).map(move |z| (x, y, z))))
}

/// One step of a random session: a ball on a peg (by index, full ones refused), an undo, or a
/// random or decisive playout (undone again by the next undos).
#[derive(Debug, Clone)]
enum Step {
    Play(u32),
    Undo,
    Playout(u64),
    Decisive(u64),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        6 => (0u32..16).prop_map(Step::Play),
        3 => Just(Step::Undo),
        1 => any::<u64>().prop_map(Step::Playout),
        1 => any::<u64>().prop_map(Step::Decisive),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Balls, undos and playouts in any order: after each, SmallGame, Game and (for balls)
    /// the reference agree on everything.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn small_game_and_game_agree_after_every_step(
        (n, m) in size(),
        steps in proptest::collection::vec(step(), 0..200),
    ) {
        let mut small = SmallGame::new(n, m).unwrap();
        let mut game = Game::new(n, m).unwrap();
        for (k, s) in steps.iter().enumerate() {
            let at = format!("n {n} m {m} step {k} {s:?}");
            match *s {
                Step::Play(i) => {
                    let (x, y) = (i % n + 1, i / n % n + 1);
                    let want = game.play(x, y);
                    prop_assert_eq!(small.play(x, y), want, "{}", at);
                }
                Step::Undo => prop_assert_eq!(small.undo(), game.undo(), "{}", at),
                Step::Playout(seed) => {
                    let want = game.playout(&mut Rng::new(seed));
                    // Both compilations of the playout (AVX2, when the CPU has it, and the
                    // baseline) make the same moves.
                    let mut portable = small.clone();
                    prop_assert_eq!(portable.playout_portable(&mut Rng::new(seed)), want);
                    prop_assert_eq!(small.playout(&mut Rng::new(seed)), want, "{}", at);
                    prop_assert!(portable == small, "{}", at);
                }
                Step::Decisive(seed) => {
                    let want = game.playout_decisive(&mut Rng::new(seed));
                    prop_assert_eq!(small.playout_decisive(&mut Rng::new(seed)), want, "{}", at);
                }
            }
            assert_same(&small, &game, &at);
            // And the plain reference, replaying the moves.
            let mut board = Board::new(n, m);
            for p in small.history() {
                board.play(p.x, p.y).unwrap();
            }
            prop_assert_eq!(board.outcome(), small.outcome(), "{}", at);
            for color in [Color::Black, Color::White] {
                let cube = small.cube(color);
                for (x, y, z) in cells(n) {
                    let here = board.ball(x, y, z) == Some(color);
                    prop_assert_eq!(cube.contains(x - 1, y - 1, z - 1), here, "{}", at);
                }
            }
        }
        // Back to the empty board: the empty key, and threats only where one ball wins.
        while small.undo().is_some() {}
        prop_assert_eq!(small.hash(), 0);
        let want = if m == 1 { n.pow(3) } else { 0 };
        for color in [Color::Black, Color::White] {
            prop_assert_eq!(small.threats(color).count_ones(), want);
        }
    }

    /// The random number stream is consumed alike too: after a playout both generators are in
    /// the same state, so a second playout (after undoing the first) matches as well.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn playouts_draw_the_same_random_numbers(
        (n, m) in size(),
        prefix in proptest::collection::vec(0u32..16, 0..20),
        seed in any::<u64>(),
    ) {
        let mut game = Game::new(n, m).unwrap();
        for i in prefix {
            if game.outcome().is_none() {
                let _ = game.play(i % n + 1, i / n % n + 1);
            }
        }
        let mut small = SmallGame::from_game(&game).unwrap();
        let start = small.clone();
        let (mut a, mut b) = (Rng::new(seed), Rng::new(seed));
        for round in 0..4 {
            if round % 2 == 0 {
                prop_assert_eq!(small.playout(&mut a), game.playout(&mut b));
            } else {
                prop_assert_eq!(small.playout_decisive(&mut a), game.playout_decisive(&mut b));
            }
            assert_same(&small, &game, "after a playout");
            prop_assert_eq!(a.next_u64(), b.next_u64());
            small.rewind_to(&start);
            while game.moves_played() > start.moves_played() {
                game.undo();
            }
            assert_same(&small, &game, "rewound");
            prop_assert!(small == start);
        }
    }
}

/// A search over SmallGame makes exactly the choices of the same search over Game: same
/// moves, values and visit counts, with random and decisive rollouts, with RAVE and tree
/// reuse over a whole game.
#[test]
#[cfg_attr(miri, ignore)]
fn mcts_chooses_alike_on_both_engines() {
    for (n, m, rollout, rave) in [
        (4, 4, Rollout::Random, 0.0),
        (4, 4, Rollout::Decisive, 0.0),
        (4, 3, Rollout::Decisive, 100.0),
        (3, 3, Rollout::Random, 300.0),
    ] {
        let config = MctsConfig {
            budget: Budget::Iterations(400),
            rollout,
            rave,
            ..MctsConfig::default()
        };
        let mut fast = Mcts::<SmallGame>::new(config.clone(), 11);
        let mut slow = Mcts::<Game>::new(config, 11);
        let mut small = SmallGame::new(n, m).unwrap();
        let mut game = Game::new(n, m).unwrap();
        while game.outcome().is_none() {
            let a = fast.choose(&small);
            let b = slow.choose(&game);
            assert_eq!(a, b, "n {n} m {m} {rollout:?} move {}", game.moves_played());
            assert_eq!(fast.root_visits(), slow.root_visits());
            assert_eq!(fast.tree_size(), slow.tree_size());
            small.play(a.mv.x, a.mv.y).unwrap();
            game.play(b.mv.x, b.mv.y).unwrap();
        }
        assert_eq!(small.outcome(), game.outcome());
    }
}

#[test]
fn sizes_above_four_are_refused() {
    assert_eq!(
        SmallGame::new(5, 4).unwrap_err(),
        SizeError::NotSmall { n: 5 }
    );
    assert_eq!(
        SmallGame::new(4, 5).unwrap_err(),
        SizeError::Length { n: 4, m: 5 }
    );
    assert_eq!(SmallGame::new(0, 0).unwrap_err(), SizeError::Side { n: 0 });
    let big = Game::new(7, 4).unwrap();
    assert_eq!(
        SmallGame::from_game(&big).unwrap_err(),
        SizeError::NotSmall { n: 7 }
    );
    assert!(
        SizeError::NotSmall { n: 5 }
            .to_string()
            .contains("at most 4")
    );
    // A refused resize leaves the game as it was; an accepted one empties the board.
    let mut game = SmallGame::new(4, 4).unwrap();
    game.play(1, 1).unwrap();
    let before = game.clone();
    assert_eq!(game.resize(6, 4), Err(SizeError::NotSmall { n: 6 }));
    assert!(game == before);
    game.resize(3, 2).unwrap();
    assert_eq!((game.n(), game.m(), game.moves_played()), (3, 2, 0));
    assert_eq!(game.legal_moves().count(), 9);
}

/// The simulator plays n ≤ 4 on SmallGame: its records equal those of the same match played
/// on Game, agent for agent.
#[test]
#[cfg_attr(miri, ignore)]
fn simulator_records_are_the_same_on_both_engines() {
    use bitgames::sequence::sim::Match;
    for (n, m, black, white) in [
        (4, 4, "mcts:200", "greedy"),
        (4, 3, "mcts:100,rollout=random,rave=50", "mcts:100"),
        (3, 3, "random", "mcts:100,rollout=random"),
    ] {
        let game = Match {
            n,
            m,
            black: black.parse().unwrap(),
            white: white.parse().unwrap(),
            seed: 3,
        };
        for index in 0..6 {
            let fast = game.play(index).unwrap();
            let slow = game.play_on(Game::new(n, m).unwrap(), index);
            assert_eq!(fast, slow, "n {n} m {m} game {index}");
        }
    }
}
