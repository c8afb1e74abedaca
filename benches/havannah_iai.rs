//! Instruction counts (callgrind, via gungraun) of Havannah's hot paths: the judge engine's
//! `Stones::play` on a mid-game S = 10 board (dense layout, joining groups) and on a sparse
//! S = 3000 board (hash table), next to a stone and away from every stone; and one random
//! two-player playout of `Game` on S = 8 from the empty board, under each ring rule, and the
//! same playouts on `Playouts` (its arrays made by a first playout). Each bench asserts its
//! result.
//!
//! `cargo bench --bench havannah_iai` (needs `gungraun-runner` of the same version and valgrind).

use std::hint::black_box;

use bitgames::havannah::geometry::Cell;
use bitgames::havannah::{Game, Outcome, Playouts, RingRule, Rules, Stones, Wins};
use bitgames::rng::Rng;
use gungraun::{library_benchmark, library_benchmark_group, main};

/// A position, the cell to play next and what that move completes.
struct Position {
    game: Stones,
    cell: Cell,
    wins: Wins,
}

/// `stones` random stones on a board of side `side` without a win, and an empty cell with at
/// least `neighbours` stones around it (checked against a copy of the game).
fn position(side: u32, stones: usize, neighbours: usize, seed: u64) -> Position {
    let mut rng = Rng::new(seed);
    loop {
        let mut game = Stones::with_capacity(side, stones + 1).unwrap();
        let n = game.board().n();
        while game.stones().len() < stones && game.first_win().is_none() {
            let _ = game.play(rng.range(1, n), rng.range(1, n));
        }
        if game.first_win().is_some() {
            continue;
        }
        let around = |c: Cell| {
            (0..6)
                .filter_map(|d| c.neighbour(d))
                .filter(|c| game.is_occupied(c.x, c.y))
                .count()
        };
        let stone = *game.stones().last().unwrap();
        let free = (0..6)
            .filter_map(|d| stone.neighbour(d))
            .filter(|&c| game.board().contains(c) && !game.is_occupied(c.x, c.y))
            .max_by_key(|&c| around(c));
        if let Some(cell) = free.filter(|&c| around(c) >= neighbours) {
            let wins = game.clone().play(cell.x, cell.y).unwrap();
            return Position { game, cell, wins };
        }
    }
}

/// S = 10 after 60 random stones: the next stone touches at least two of them.
fn mid_game() -> Position {
    position(10, 60, 2, 5)
}

/// S = 3000 after 10 000 scattered stones: the next stone touches one of them.
fn sparse_board() -> Position {
    position(3000, 10_000, 1, 7)
}

/// S = 3000 after 10 000 scattered stones: the next stone lands away from every stone, the
/// judge's usual case on this board (the filter answers without reading the table).
fn sparse_alone() -> Position {
    let mut p = sparse_board();
    let mut rng = Rng::new(9);
    let n = p.game.board().n();
    let alone = |game: &Stones, c: Cell| {
        game.board().contains(c)
            && !game.is_occupied(c.x, c.y)
            && (0..6)
                .filter_map(|d| c.neighbour(d))
                .all(|c| !game.is_occupied(c.x, c.y))
    };
    p.cell = loop {
        let c = Cell::new(rng.range(2, n - 1), rng.range(2, n - 1));
        if alone(&p.game, c) {
            break c;
        }
    };
    p.wins = Wins::NONE;
    p
}

#[library_benchmark]
#[bench::mid_game_s10(setup = mid_game)]
#[bench::sparse_s3000(setup = sparse_board)]
#[bench::sparse_s3000_alone(setup = sparse_alone)]
fn play(mut p: Position) -> Position {
    let before = p.game.stones().len();
    let wins = black_box(p.game.play(black_box(p.cell.x), black_box(p.cell.y))).unwrap();
    assert_eq!(wins, p.wins);
    assert_eq!(p.game.stones().len(), before + 1);
    // Returned, so that freeing the game is not counted.
    p
}

/// An empty S = 8 game under `rule` (its cell list already made by a first playout), the
/// generator for the next playout, and that playout's outcome and length, found on copies.
fn empty_s8(rule: RingRule) -> (Game, Rng, Outcome, u32) {
    let mut game = Game::with_rules(8, Rules::default().ring(rule)).unwrap();
    let mut rng = Rng::new(3);
    game.playout(&mut rng);
    game.reset();
    let mut copy = game.clone();
    let outcome = copy.playout(&mut rng.clone());
    (game, rng, outcome, copy.moves_played())
}

fn official() -> (Game, Rng, Outcome, u32) {
    empty_s8(RingRule::Official)
}

fn code_jam() -> (Game, Rng, Outcome, u32) {
    empty_s8(RingRule::CodeJam)
}

#[library_benchmark]
#[bench::s8_official(setup = official)]
#[bench::s8_code_jam(setup = code_jam)]
fn playout((mut game, mut rng, outcome, moves): (Game, Rng, Outcome, u32)) -> Game {
    assert_eq!(black_box(game.playout(black_box(&mut rng))), outcome);
    assert_eq!(game.moves_played(), moves);
    game
}

/// Ten decisive playouts, one after another, from the empty S = 8 board (official rings).
const DECISIVE: u32 = 10;

/// The empty S = 8 game (its cell list made), the generator for the ten decisive playouts,
/// and their total length, found on copies.
fn decisive_s8() -> (Game, Rng, u32) {
    let (game, rng, _, _) = empty_s8(RingRule::Official);
    let (mut copy, mut r) = (game.clone(), rng.clone());
    let mut moves = 0;
    for _ in 0..DECISIVE {
        copy.reset();
        copy.playout_decisive(&mut r);
        moves += copy.moves_played();
    }
    (game, rng, moves)
}

#[library_benchmark]
#[bench::s8_ten(setup = decisive_s8)]
fn playout_decisive((mut game, mut rng, moves): (Game, Rng, u32)) -> Game {
    let mut total = 0;
    for _ in 0..DECISIVE {
        game.reset();
        black_box(game.playout_decisive(black_box(&mut rng)));
        total += game.moves_played();
    }
    assert_eq!(total, moves);
    game
}

/// [`empty_s8`] with a `Playouts` whose arrays a first playout has made.
fn dense_s8(rule: RingRule) -> (Game, Playouts, Rng, Outcome, u32) {
    let (game, rng, outcome, moves) = empty_s8(rule);
    let mut playouts = Playouts::new();
    playouts.random(&game, &mut Rng::new(1));
    (game, playouts, rng, outcome, moves)
}

fn dense_official() -> (Game, Playouts, Rng, Outcome, u32) {
    dense_s8(RingRule::Official)
}

fn dense_code_jam() -> (Game, Playouts, Rng, Outcome, u32) {
    dense_s8(RingRule::CodeJam)
}

// The playout of `playout` on `Playouts`: the same outcome and length.
#[library_benchmark]
#[bench::s8_official(setup = dense_official)]
#[bench::s8_code_jam(setup = dense_code_jam)]
fn dense_playout(
    (game, mut playouts, mut rng, outcome, moves): (Game, Playouts, Rng, Outcome, u32),
) -> Playouts {
    assert_eq!(
        black_box(playouts.random(black_box(&game), black_box(&mut rng))),
        outcome
    );
    assert_eq!(playouts.played(), moves as usize);
    playouts
}

// The ten playouts of `playout_decisive` on `Playouts`.
#[library_benchmark]
#[bench::s8_ten(setup = decisive_s8)]
fn dense_playout_decisive((game, mut rng, moves): (Game, Rng, u32)) -> Playouts {
    let mut playouts = Playouts::new();
    let mut total = 0;
    for _ in 0..DECISIVE {
        black_box(playouts.decisive(black_box(&game), black_box(&mut rng)));
        total += playouts.played() as u32;
    }
    assert_eq!(total, moves);
    playouts
}

library_benchmark_group!(
    name = havannah;
    benchmarks = play, playout, playout_decisive, dense_playout, dense_playout_decisive
);

main!(library_benchmark_groups = havannah);
