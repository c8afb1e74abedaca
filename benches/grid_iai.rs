//! Instruction counts (callgrind, via gungraun) of the grid hot paths on an 80 × 80 position:
//! one `play` and one `winning_moves()`. Each bench asserts its result.
//!
//! `cargo bench --bench grid_iai` (needs `gungraun-runner` of the same version and valgrind).

use std::hint::black_box;

use bitgames::grid::{Cell, Game, Rect};
use bitgames::rng::Rng;
use gungraun::{library_benchmark, library_benchmark_group, main};

/// An 80 × 80 position after 12 random moves (the shared table already built), boxed so that
/// handing it to the bench moves a pointer, and a permitted cell to play.
fn mid_game() -> (Box<Game>, Cell) {
    let mut rng = Rng::new(3);
    let mut grid = Box::new(Game::new(80, 80).unwrap());
    let mut played = 0;
    while played < 12 {
        let (row, col) = (rng.range(1, 80), rng.range(1, 80));
        played += usize::from(grid.play(row, col).is_ok());
    }
    let rect = grid
        .rectangles()
        .into_iter()
        .max_by_key(|r| r.rows * r.cols)
        .unwrap();
    let cell = Cell {
        row: rect.top + rect.rows / 3,
        col: rect.left + rect.cols / 2,
    };
    (grid, cell)
}

#[library_benchmark]
#[bench::mid_game(setup = mid_game)]
fn play((mut grid, cell): (Box<Game>, Cell)) -> Rect {
    let rect = black_box(grid.play(black_box(cell.row), black_box(cell.col))).unwrap();
    assert!(!grid.is_permitted(cell.row, cell.col));
    rect
}

#[library_benchmark]
#[bench::mid_game(setup = mid_game)]
fn winning_moves((grid, _): (Box<Game>, Cell)) -> usize {
    let hints = black_box(black_box(&grid).winning_moves());
    assert_eq!(hints.is_empty(), !grid.is_winning());
    if let Some(h) = hints.first() {
        let mut after = grid.clone();
        after.play(h.row, h.col).unwrap();
        assert_eq!(after.grundy(), 0);
    }
    hints.len()
}

library_benchmark_group!(
    name = grid;
    benchmarks = play, winning_moves
);

main!(library_benchmark_groups = grid);
