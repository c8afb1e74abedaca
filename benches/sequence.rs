//! Throughput of the sequence judge (MB/s of judge input), of random playouts (moves/s, and
//! playouts/s on 4×4×4), of decisive playouts and of MCTS iterations (iterations/s).
//!
//! `cargo bench --bench sequence`

mod common;

use std::hint::black_box;

use bitgames::rng::Rng;
use bitgames::search::{Budget, Mcts, MctsConfig, Rollout};
use bitgames::sequence::{Game, SmallGame, judge::Judge, judge::generate};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn judge_throughput(c: &mut Criterion) {
    // 50 000 games on n = 7, every game recorded to the full board (about 70 MB).
    let mut input = Vec::new();
    generate(&mut input, &mut Rng::new(1), 50_000, 7).unwrap();
    common::judge_throughput(c, "sequence_judge", &Judge, &input, 50_000);
}

type Playout = fn(&mut Game, &mut Rng) -> bitgames::sequence::Outcome;

/// The moves of `games` playouts of `game`, each from the empty board, the generator seeded
/// with `seed`: the same moves on every call.
fn playout_moves(game: &mut Game, playout: Playout, games: u64, seed: u64) -> u64 {
    let mut rng = Rng::new(seed);
    let mut moves = 0;
    for _ in 0..games {
        game.reset();
        playout(game, &mut rng);
        moves += u64::from(game.moves_played());
    }
    moves
}

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("sequence_playout");
    // 1000 random games (n = 7, m = 4), and 200 decisive ones on 7×7×7 with m = 7, the
    // sweep's longest games, whose decisive rollouts are nearly all of an MCTS iteration's
    // time there (moves/s).
    let batches: [(&str, u32, Playout, u64, u64); 2] = [
        ("n7_m4_1000_games", 4, Game::playout, 1000, 42),
        (
            "n7_m7_decisive_200_games",
            7,
            Game::playout_decisive,
            200,
            43,
        ),
    ];
    for (name, m, playout, games, seed) in batches {
        let mut game = Game::new(7, m).unwrap();
        let moves = playout_moves(&mut game, playout, games, seed);
        group.throughput(Throughput::Elements(moves));
        group.bench_function(name, |b| {
            b.iter(|| {
                assert_eq!(
                    playout_moves(black_box(&mut game), playout, games, seed),
                    moves
                )
            })
        });
    }
    group.finish();
}

/// Whole random games on 4×4×4 (m = 4): playouts per second, random and decisive.
fn small_playouts(c: &mut Criterion) {
    const GAMES: u64 = 10_000;
    let mut group = c.benchmark_group("sequence_playout_4x4");
    group.throughput(Throughput::Elements(GAMES));
    let mut game = Game::new(4, 4).unwrap();
    let kinds: [(&str, Playout); 2] = [
        ("random_10000_games", Game::playout),
        ("decisive_10000_games", Game::playout_decisive),
    ];
    for (name, playout) in kinds {
        let moves = playout_moves(&mut game, playout, GAMES, 7);
        group.bench_function(name, |b| {
            b.iter(|| {
                assert_eq!(
                    playout_moves(black_box(&mut game), playout, GAMES, 7),
                    moves
                )
            })
        });
    }
    // The same games on SmallGame (one u64 a colour): the same moves, so the same count.
    let mut small = SmallGame::new(4, 4).unwrap();
    type SmallPlayout = fn(&mut SmallGame, &mut Rng) -> bitgames::sequence::Outcome;
    let kinds: [(&str, SmallPlayout); 2] = [
        ("small_random_10000_games", SmallGame::playout),
        ("small_decisive_10000_games", SmallGame::playout_decisive),
    ];
    for (name, playout) in kinds {
        let batch = |game: &mut SmallGame| {
            let mut rng = Rng::new(7);
            let mut moves = 0u64;
            for _ in 0..GAMES {
                game.reset();
                playout(game, &mut rng);
                moves += u64::from(game.moves_played());
            }
            moves
        };
        let moves = batch(&mut small);
        group.bench_function(name, |b| {
            b.iter(|| assert_eq!(batch(black_box(&mut small)), moves))
        });
    }
    group.finish();
}

/// One search of 20 000 iterations from the empty board (a new tree each time): iterations
/// per second, with random and with decisive rollouts, on 4×4×4 and 7×7×7 (m = 4), and on
/// 4×4×4 over SmallGame.
fn mcts_iterations(c: &mut Criterion) {
    const ITERATIONS: u32 = 20_000;
    let mut group = c.benchmark_group("sequence_mcts");
    group.throughput(Throughput::Elements(u64::from(ITERATIONS)));
    group.sample_size(20);
    for (n, rollout, name) in [
        (4, Rollout::Random, "n4_m4_random_rollouts"),
        (4, Rollout::Decisive, "n4_m4_decisive_rollouts"),
        (7, Rollout::Decisive, "n7_m4_decisive_rollouts"),
    ] {
        let game = Game::new(n, 4).unwrap();
        let config = MctsConfig {
            budget: Budget::Iterations(ITERATIONS),
            rollout,
            ..MctsConfig::default()
        };
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut mcts = Mcts::<Game>::new(config.clone(), 1);
                let choice = mcts.choose(black_box(&game));
                assert_eq!(mcts.iterations(), u64::from(ITERATIONS));
                choice
            })
        });
    }
    for (rollout, name) in [
        (Rollout::Random, "small_n4_m4_random_rollouts"),
        (Rollout::Decisive, "small_n4_m4_decisive_rollouts"),
    ] {
        let game = SmallGame::new(4, 4).unwrap();
        let config = MctsConfig {
            budget: Budget::Iterations(ITERATIONS),
            rollout,
            ..MctsConfig::default()
        };
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut mcts = Mcts::<SmallGame>::new(config.clone(), 1);
                let choice = mcts.choose(black_box(&game));
                assert_eq!(mcts.iterations(), u64::from(ITERATIONS));
                choice
            })
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    judge_throughput,
    playouts,
    small_playouts,
    mcts_iterations
);
criterion_main!(benches);
