//! Instruction counts (callgrind, via gungraun) of the sequence hot paths: one `play` with the
//! incremental check, one full-board detector call and a batch of random playouts. Each bench
//! asserts its result.
//!
//! `cargo bench --bench sequence_iai` (needs `gungraun-runner` of the same version and valgrind).

use std::hint::black_box;

use bitgames::rng::Rng;
use bitgames::search::{Budget, Mcts, MctsConfig, Rollout};
use bitgames::sequence::{Color, Cube, Game, Outcome, SmallGame};
use bitgames::simd::Backend;
use gungraun::{library_benchmark, library_benchmark_group, main};

/// A mid-game position on n = 7, m = 4: 40 random balls, no sequence yet, Black to move.
/// Leaked, so that the bench receives a pointer (not a copy of the 9 KiB value) and frees
/// nothing inside the measured code.
fn mid_game() -> &'static mut Game {
    let mut rng = Rng::new(5);
    loop {
        let mut game = Game::new(7, 4).unwrap();
        while game.moves_played() < 40 && game.outcome().is_none() {
            let (x, y) = (rng.range(1, 7), rng.range(1, 7));
            let _ = game.play(x, y);
        }
        if game.outcome().is_none() && game.height(4, 4) < Some(7) {
            return Box::leak(Box::new(game));
        }
    }
}

/// Black's balls of a full random n = 7 board without a 5-sequence of Black's. The SIMD back
/// end is detected here, so the bench counts the detector alone.
fn crowded_cube() -> Cube {
    Backend::detect();
    let mut rng = Rng::new(9);
    loop {
        let mut game = Game::new(7, 7).unwrap();
        game.playout(&mut rng);
        let cube = game.cube(Color::Black);
        if !cube.has_line(5) {
            return cube;
        }
    }
}

#[library_benchmark]
#[bench::mid_game(setup = mid_game)]
fn play_with_incremental_check(game: &'static mut Game) -> Option<Outcome> {
    let before = game.moves_played();
    let result = black_box(game.play(black_box(4), black_box(4))).unwrap();
    assert_eq!(game.moves_played(), before + 1);
    result
}

#[library_benchmark]
#[bench::crowded(setup = crowded_cube)]
fn full_board_detector(cube: Cube) -> bool {
    let found = black_box(black_box(cube).has_line(black_box(5)));
    assert!(!found);
    found
}

/// A new n = 7, m = 4 game and its generator, for a batch of playouts.
fn new_game() -> (Game, Rng) {
    (Game::new(7, 4).unwrap(), Rng::new(42))
}

// 100 random games (n = 7, m = 4) played out, as in the criterion bench (whose batch is 1000):
// the count divided by the balls played is the cost of a ball, peg choice included.
#[library_benchmark]
#[bench::hundred_games(setup = new_game)]
fn playouts((mut game, mut rng): (Game, Rng)) -> u32 {
    let mut balls = 0;
    for _ in 0..100 {
        game.reset();
        black_box(game.playout(black_box(&mut rng)));
        balls += game.moves_played();
    }
    assert!(balls > 3000);
    balls
}

/// A new n = 4, m = 4 game and its generator.
fn new_small_game() -> (Game, Rng) {
    (Game::new(4, 4).unwrap(), Rng::new(42))
}

// 1000 random games on 4×4×4 (m = 4), `reset` included: the count over 1000 is the cost of
// a playout.
#[library_benchmark]
#[bench::thousand_games(setup = new_small_game)]
fn small_playouts((mut game, mut rng): (Game, Rng)) -> u32 {
    let mut balls = 0;
    for _ in 0..1000 {
        game.reset();
        black_box(game.playout(black_box(&mut rng)));
        balls += game.moves_played();
    }
    assert!(balls > 20_000);
    balls
}

/// A search of 2000 iterations with random rollouts and its empty 4×4×4 root.
fn small_search() -> (Mcts<Game>, Game) {
    let config = MctsConfig {
        budget: Budget::Iterations(2000),
        rollout: Rollout::Random,
        ..MctsConfig::default()
    };
    (Mcts::new(config, 1), Game::new(4, 4).unwrap())
}

// One MCTS search of 2000 iterations (random rollouts) from the empty 4×4×4 board, a new
// tree: the count over 2000 is the cost of an iteration, tree growth included.
#[library_benchmark]
#[bench::two_thousand_iterations(setup = small_search)]
fn mcts_iterations((mut mcts, game): (Mcts<Game>, Game)) -> u64 {
    black_box(mcts.choose(black_box(&game)));
    assert_eq!(mcts.iterations(), 2000);
    mcts.iterations()
}

/// A new 4×4×4 SmallGame and its generator.
fn new_small_game_u64() -> (SmallGame, Rng) {
    (SmallGame::new(4, 4).unwrap(), Rng::new(42))
}

// The same 1000 games on SmallGame (one u64 a colour; valgrind runs the AVX2 build when the
// CPU has it, as the program would).
#[library_benchmark]
#[bench::thousand_games(setup = new_small_game_u64)]
fn small_game_playouts((mut game, mut rng): (SmallGame, Rng)) -> u32 {
    let mut balls = 0;
    for _ in 0..1000 {
        game.reset();
        black_box(game.playout(black_box(&mut rng)));
        balls += game.moves_played();
    }
    assert!(balls > 20_000);
    balls
}

/// The search of `small_search` over SmallGame.
fn small_game_search() -> (Mcts<SmallGame>, SmallGame) {
    let config = MctsConfig {
        budget: Budget::Iterations(2000),
        rollout: Rollout::Random,
        ..MctsConfig::default()
    };
    (Mcts::new(config, 1), SmallGame::new(4, 4).unwrap())
}

// The same search over SmallGame: the same tree, fewer instructions.
#[library_benchmark]
#[bench::two_thousand_iterations(setup = small_game_search)]
fn small_game_mcts((mut mcts, game): (Mcts<SmallGame>, SmallGame)) -> u64 {
    black_box(mcts.choose(black_box(&game)));
    assert_eq!(mcts.iterations(), 2000);
    mcts.iterations()
}

library_benchmark_group!(
    name = sequence;
    benchmarks = play_with_incremental_check, full_board_detector, playouts, small_playouts,
        mcts_iterations, small_game_playouts, small_game_mcts
);

main!(library_benchmark_groups = sequence);
