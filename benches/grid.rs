//! Throughput of the grid judge (MB/s of judge input), of its moves alone on each kernel
//! (moves/s, no tokenizer) and of its tokenizer alone, of `Game::play` in whole random games
//! (moves/s, what a program linking the library gets; and of `play` with `undo`) and in games
//! of adversarial move orders, and the time of the Grundy table.
//!
//! `cargo bench --bench grid`. Tables for N = 1024 and 2048 take seconds to minutes: they are
//! timed once with the CLI (`bitgames grid-table --max N`), see BENCHMARKS.md.

mod common;

use std::hint::black_box;

use bitgames::grid::grundy::Table;
use bitgames::grid::judge::{Cases, Judge, generate, random_game};
use bitgames::grid::{Cell, Game};
use bitgames::rng::Rng;
use bitgames::simd::Backend;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn judge_throughput(c: &mut Criterion) {
    // 400 000 random partial games on grids up to 80 × 80 (about 200 MB).
    const CASES: u64 = 400_000;
    let mut input = Vec::new();
    generate(&mut input, &mut Rng::new(1), CASES as usize, 80, usize::MAX).unwrap();
    common::judge_throughput(c, "grid_judge", &Judge, &input, CASES);
}

/// The judge's moves without its tokenizer, on each grid kernel this CPU has: the cases of
/// `judge_throughput`'s input (a tenth of them) as numbers, played as the judge plays them.
fn kernel_moves(c: &mut Criterion) {
    let mut cases = Cases::generate(&mut Rng::new(1), 40_000, 80, usize::MAX);
    let mut group = c.benchmark_group("grid_moves");
    group.throughput(Throughput::Elements(cases.moves() as u64));
    for backend in Backend::ALL.into_iter().filter(|b| b.is_available()) {
        group.bench_function(format!("{backend:?}").to_lowercase(), |b| {
            b.iter(|| black_box(cases.play(backend)))
        });
    }
    group.finish();
}

/// The window tokenizer alone, on each back end this CPU has, over the text of
/// `kernel_moves`' cases (MB/s of judge input).
fn tokenizer(c: &mut Criterion) {
    let mut input = Vec::new();
    generate(&mut input, &mut Rng::new(1), 40_000, 80, usize::MAX).unwrap();
    let mut group = c.benchmark_group("grid_tokens");
    group.throughput(Throughput::Bytes(input.len() as u64));
    for backend in Backend::ALL.into_iter().filter(|b| b.is_available()) {
        group.bench_function(format!("{backend:?}").to_lowercase(), |b| {
            b.iter(|| black_box(bitgames::grid::judge::count_tokens(backend, &input)))
        });
    }
    group.finish();
}

/// Whole random games replayed through the library's `Game::play`, the position reset between
/// games; the games are drawn before timing.
fn play_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("grid_play");
    for side in [20u32, 80] {
        let mut rng = Rng::new(3);
        let games: Vec<Vec<Cell>> = (0..200)
            .map(|_| {
                let mut moves = Vec::new();
                random_game(&mut rng, side, side, &mut moves);
                moves
            })
            .collect();
        let total: usize = games.iter().map(Vec::len).sum();
        group.throughput(Throughput::Elements(total as u64));
        let mut grid = Game::new(side, side).unwrap();
        group.bench_function(format!("random_games_{side}x{side}"), |b| {
            b.iter(|| {
                let mut winning = 0;
                for game in &games {
                    grid.reset();
                    for cell in game {
                        grid.play(cell.row, cell.col).unwrap();
                        winning += usize::from(grid.is_winning());
                    }
                    assert!(grid.outcome().is_some());
                }
                black_box(winning)
            })
        });
        // The same moves played, then all taken back: a search's pair.
        group.bench_function(format!("play_and_undo_{side}x{side}"), |b| {
            b.iter(|| {
                for game in &games {
                    grid.reset();
                    for cell in game {
                        grid.play(cell.row, cell.col).unwrap();
                    }
                    while grid.undo().is_some() {}
                    assert_eq!(grid.permitted(), side * side);
                }
                black_box(grid.grundy())
            })
        });
    }
    group.finish();
}

/// Whole games of adversarial move orders on 80 × 80, per move against random games: the cost
/// of a move should not depend on the order or pattern of the moves.
///
/// - `random`: uniformly random permitted cells;
/// - `largest_center`: the center of the largest rectangle (long cuts first, each splitting the
///   largest rectangle into four);
/// - `largest_corner`: the upper-left cell of the largest rectangle (the longest cuts, one
///   rectangle left each time);
/// - `row_sweep`: every permitted cell in row-major order;
/// - `diagonals`: every permitted cell by anti-diagonals (row + column), then along each.
fn patterns(c: &mut Criterion) {
    const SIDE: u32 = 80;
    let largest = |game: &Game| {
        game.rectangles()
            .into_iter()
            .max_by_key(|r| (r.rows * r.cols, std::cmp::Reverse((r.top, r.left))))
    };
    let play_all = |order: &mut dyn FnMut(&Game) -> Option<Cell>| {
        let mut game = Game::new(SIDE, SIDE).unwrap();
        let mut moves = Vec::new();
        while let Some(cell) = order(&game) {
            game.play(cell.row, cell.col).unwrap();
            moves.push(cell);
        }
        assert!(game.outcome().is_some());
        moves
    };
    let cells: Vec<Cell> = (1..=SIDE)
        .flat_map(|r| (1..=SIDE).map(move |c| Cell::new(r, c)))
        .collect();
    let mut diagonal = cells.clone();
    diagonal.sort_by_key(|c| (c.row + c.col, c.row));
    let first_permitted = |list: &[Cell], game: &Game| {
        list.iter()
            .copied()
            .find(|c| game.is_permitted(c.row, c.col))
    };
    let mut rng = Rng::new(5);
    let mut random = Vec::new();
    let games: Vec<(&str, Vec<Vec<Cell>>)> = vec![
        (
            "random",
            (0..20)
                .map(|_| {
                    random_game(&mut rng, SIDE, SIDE, &mut random);
                    random.clone()
                })
                .collect(),
        ),
        (
            "largest_center",
            vec![play_all(&mut |g| {
                largest(g).map(|r| Cell::new(r.top + r.rows / 2, r.left + r.cols / 2))
            })],
        ),
        (
            "largest_corner",
            vec![play_all(&mut |g| {
                largest(g).map(|r| Cell::new(r.top, r.left))
            })],
        ),
        (
            "row_sweep",
            vec![play_all(&mut |g| first_permitted(&cells, g))],
        ),
        (
            "diagonals",
            vec![play_all(&mut |g| first_permitted(&diagonal, g))],
        ),
    ];
    let mut group = c.benchmark_group("grid_patterns");
    let mut game = Game::new(SIDE, SIDE).unwrap();
    for (name, games) in &games {
        let total: usize = games.iter().map(Vec::len).sum();
        group.throughput(Throughput::Elements(total as u64));
        group.bench_function(*name, |b| {
            b.iter(|| {
                for moves in games {
                    game.reset();
                    for cell in moves {
                        game.play(cell.row, cell.col).unwrap();
                    }
                    assert!(game.outcome().is_some());
                }
                black_box(game.grundy())
            })
        });
    }
    group.finish();
}

fn table(c: &mut Criterion) {
    let mut group = c.benchmark_group("grid_table");
    group.sample_size(10);
    for max in [80, 256] {
        group.bench_function(format!("compute_{max}"), |b| {
            b.iter(|| {
                let table = Table::compute(black_box(max), |_| ()).unwrap();
                assert_eq!(table.zeros().len(), 5);
                table
            })
        });
    }
    group.bench_function("plain_128", |b| {
        b.iter(|| {
            let table = Table::new(black_box(128));
            assert_eq!(table.largest(), 133);
            table
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    judge_throughput,
    kernel_moves,
    tokenizer,
    play_games,
    patterns,
    table
);
criterion_main!(benches);
