//! Throughput of the Havannah judge (MB/s of judge input) and of random games on S = 10
//! played to the first win (moves/s and games/s, shuffling included).
//!
//! `cargo bench --bench havannah`

mod common;

use std::hint::black_box;

use bitgames::havannah::Stones;
use bitgames::havannah::geometry::Cell;
use bitgames::havannah::judge::{Judge, generate};
use bitgames::rng::Rng;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn judge_throughput(c: &mut Criterion) {
    // The judge's large set, scaled: 400 cases, S = 3000, 10 000 scattered moves (about 39 MB).
    let mut input = Vec::new();
    generate(&mut input, &mut Rng::new(1), 400, 3000, 10_000).unwrap();
    common::judge_throughput(c, "havannah_judge", &Judge, &input, 400);
}

/// Plays one random game on `game`'s board until the first win (or a full board), drawing
/// each move by one step of a Fisher–Yates shuffle of `cells`; returns the moves played.
fn random_game(game: &mut Stones, cells: &mut [Cell], rng: &mut Rng) -> u32 {
    game.resize(10, cells.len()).unwrap();
    for i in 0..cells.len() {
        let j = i + rng.below((cells.len() - i) as u32) as usize;
        cells.swap(i, j);
        let c = cells[i];
        if !game.play(c.x, c.y).unwrap().is_empty() {
            return i as u32 + 1;
        }
    }
    cells.len() as u32
}

fn random_games(c: &mut Criterion) {
    // A fixed batch of 1000 games: the same moves every iteration.
    const GAMES: u64 = 1000;
    let mut game = Stones::new(10).unwrap();
    let start: Vec<Cell> = game.board().iter().collect();
    let mut cells = start.clone();
    let mut batch = |game: &mut Stones| {
        let mut rng = Rng::new(42);
        cells.copy_from_slice(&start);
        (0..GAMES)
            .map(|_| u64::from(random_game(game, &mut cells, &mut rng)))
            .sum::<u64>()
    };
    let moves = batch(&mut game);
    assert!(moves > GAMES * 10 && moves < GAMES * 271, "{moves}");
    let mut group = c.benchmark_group("havannah_random_games");
    group.throughput(Throughput::Elements(moves));
    group.bench_function("s10_1000_games_moves", |b| {
        b.iter(|| assert_eq!(batch(black_box(&mut game)), moves))
    });
    group.throughput(Throughput::Elements(GAMES));
    group.bench_function("s10_1000_games_games", |b| {
        b.iter(|| assert_eq!(batch(black_box(&mut game)), moves))
    });
    group.finish();
}

criterion_group!(benches, judge_throughput, random_games);
criterion_main!(benches);
