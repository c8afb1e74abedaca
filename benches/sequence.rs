//! Throughput of the sequence judge (MB/s of judge input) and of random playouts (moves/s).
//!
//! `cargo bench --bench sequence`

mod common;

use std::hint::black_box;

use bitgames::rng::Rng;
use bitgames::sequence::{Game, judge::Judge, judge::generate};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn judge_throughput(c: &mut Criterion) {
    // 50 000 games on n = 7, every game recorded to the full board (about 70 MB).
    let mut input = Vec::new();
    generate(&mut input, &mut Rng::new(1), 50_000, 7).unwrap();
    common::judge_throughput(c, "sequence_judge", &Judge, &input, 50_000);
}

fn playouts(c: &mut Criterion) {
    // A fixed batch of 1000 random games (n = 7, m = 4): the same moves every iteration.
    const GAMES: usize = 1000;
    let batch = |game: &mut Game| {
        let mut rng = Rng::new(42);
        let mut moves = 0;
        for _ in 0..GAMES {
            game.reset();
            game.playout(&mut rng);
            moves += u64::from(game.moves_played());
        }
        moves
    };
    let mut game = Game::new(7, 4).unwrap();
    let moves = batch(&mut game);
    let mut group = c.benchmark_group("sequence_playout");
    group.throughput(Throughput::Elements(moves));
    group.bench_function("n7_m4_1000_games", |b| {
        b.iter(|| assert_eq!(batch(black_box(&mut game)), moves))
    });
    group.finish();
}

criterion_group!(benches, judge_throughput, playouts);
criterion_main!(benches);
