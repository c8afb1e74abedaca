//! The fast sequence engine against the reference: incremental check, full-board detector and
//! the plain full scan must agree after every ball.

use bitgames::rng::Rng;
use bitgames::sequence::reference::Board;
use bitgames::sequence::{Color, Cube, DIRECTIONS, Game, Outcome, Peg, PlayError};
use proptest::prelude::*;

mod common;
use common::backends;

/// Plays `pegs` (indices into the n×n pegs, full pegs skipped) on both engines, comparing after
/// every ball; returns the fast game.
fn play_both(n: u32, m: u32, pegs: &[u32]) -> Game {
    let mut game = Game::new(n, m).unwrap();
    let mut board = Board::new(n, m);
    let backends = backends("play_both");
    for &i in pegs {
        let (x, y) = (i % n + 1, i / n % n + 1);
        let fast = game.play(x, y);
        let slow = board.play(x, y);
        // The same outcome, or the same error.
        assert_eq!(fast, slow, "move ({x}, {y})\n{game:?}");
        assert_eq!(game.outcome(), board.outcome());
        for color in [Color::Black, Color::White] {
            let want = board.has_sequence(color);
            for &backend in &backends {
                assert_eq!(
                    game.cube(color).has_line_on(backend, m),
                    want,
                    "{backend:?}"
                );
            }
        }
        for (x, y, z) in cells(n) {
            assert_eq!(game.ball(x, y, z), board.ball(x, y, z));
        }
    }
    game
}

fn cells(n: u32) -> impl Iterator<Item = (u32, u32, u32)> {
    (1..=n).flat_map(move |x| (1..=n).flat_map(move |y| (1..=n).map(move |z| (x, y, z))))
}

fn size() -> impl Strategy<Value = (u32, u32)> {
    (3u32..=7).prop_flat_map(|n| (Just(n), 3u32..=n))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    #[cfg_attr(miri, ignore)]
    fn fast_and_reference_agree_after_every_ball(
        (n, m) in size(),
        pegs in proptest::collection::vec(0u32..49, 0..400),
    ) {
        play_both(n, m, &pegs);
    }

    #[test]
    #[cfg_attr(miri, ignore)]
    fn undo_restores_the_exact_state(
        (n, m) in size(),
        pegs in proptest::collection::vec(0u32..49, 0..120),
        split in 0usize..120,
    ) {
        let split = split.min(pegs.len());
        let mut game = play_both(n, m, &pegs[..split]);
        let before = game.clone();
        let mut played = 0;
        for &i in &pegs[split..] {
            if game.play(i % n + 1, i / n % n + 1).is_ok() {
                played += 1;
            }
        }
        for _ in 0..played {
            prop_assert!(game.undo().is_some());
        }
        prop_assert!(game == before, "{game:?}\nvs\n{before:?}");
    }
}

/// The directions (indices into [`DIRECTIONS`]) in which the ball at `(x, y, z)` lies on a run
/// of at least m balls of its colour, counted by walking the reference board.
fn winning_directions(board: &Board, m: u32, (x, y, z): (u32, u32, u32)) -> Vec<usize> {
    let color = board.ball(x, y, z);
    let mut found = Vec::new();
    for (d, &(dx, dy, dz)) in DIRECTIONS.iter().enumerate() {
        let mut run = 1;
        for sign in [-1i64, 1] {
            let (mut a, mut b, mut c) = (x as i64, y as i64, z as i64);
            loop {
                a += sign * i64::from(dx);
                b += sign * i64::from(dy);
                c += sign * i64::from(dz);
                if a < 1 || b < 1 || c < 1 {
                    break;
                }
                if board.ball(a as u32, b as u32, c as u32) != color {
                    break;
                }
                run += 1;
            }
        }
        if run >= m {
            found.push(d);
        }
    }
    found
}

#[test]
#[cfg_attr(miri, ignore)]
fn random_games_win_in_all_13_directions_and_agree() {
    let mut rng = Rng::new(2026);
    let mut seen = [0u32; 13];
    for round in 0..4000 {
        let n = 4 + round % 4;
        let m = 3 + round / 4 % 2;
        let mut game = Game::new(n, m).unwrap();
        let mut board = Board::new(n, m);
        while game.outcome().is_none() {
            let (x, y) = (rng.range(1, n), rng.range(1, n));
            let fast = game.play(x, y);
            assert_eq!(fast, board.play(x, y));
            if let Ok(Some(Outcome::Win { .. })) = fast {
                let z = game.height(x, y).unwrap();
                for d in winning_directions(&board, m, (x, y, z)) {
                    seen[d] += 1;
                }
            }
        }
    }
    assert!(seen.iter().all(|&c| c > 0), "wins per direction: {seen:?}");
}

#[test]
fn a_ball_joining_two_runs_makes_a_longer_run_and_wins() {
    // Black: (1,1) (2,1) (4,1) (5,1), then (3,1) joins them into five in a row (m = 3).
    let black = [(1, 1), (2, 1), (4, 1), (5, 1), (3, 1)];
    let white = [(1, 7), (4, 7), (7, 7), (7, 4)];
    let mut game = Game::new(7, 3).unwrap();
    let mut board = Board::new(7, 3);
    for k in 0..9 {
        let (x, y) = if k % 2 == 0 {
            black[k / 2]
        } else {
            white[k / 2]
        };
        let fast = game.play(x, y).unwrap();
        assert_eq!(Ok(fast), board.play(x, y));
        if k < 8 {
            assert_eq!(fast, None, "no sequence before move {}", k + 1);
        } else {
            assert_eq!(
                fast,
                Some(Outcome::Win {
                    color: Color::Black,
                    at: 9
                })
            );
        }
    }
    assert!(game.has_sequence(Color::Black));
}

/// `playout` (its own loop) leaves exactly the game that playing its moves one by one with
/// `play` gives, with the reference's outcome; `reset` then gives back a new game, whether it
/// undoes a few balls or clears the tables. Playouts also continue games already under way.
#[test]
fn playouts_equal_their_moves_played_one_by_one() {
    let mut rng = Rng::new(11);
    // Under Miri (which checks the unchecked line-byte indexing) a few games on the largest
    // board are enough.
    let (sizes, rounds) = if cfg!(miri) { (7..=7, 2) } else { (1..=7, 30) };
    for n in sizes {
        for m in 1..=n {
            let mut game = Game::new(n, m).unwrap();
            for round in 0..rounds {
                game.reset();
                assert!(
                    game == Game::new(n, m).unwrap(),
                    "reset after round {round}"
                );
                // Sometimes start from a few moves played by hand.
                for _ in 0..round % 4 {
                    let (x, y) = (rng.range(1, n), rng.range(1, n));
                    let _ = game.play(x, y);
                }
                let outcome = game.playout(&mut rng);
                assert_eq!(game.outcome(), Some(outcome));
                assert_eq!(
                    game.playout(&mut rng),
                    outcome,
                    "a decided game stays decided"
                );
                let mut replay = Game::new(n, m).unwrap();
                let mut board = Board::new(n, m);
                for peg in game.history() {
                    replay.play(peg.x, peg.y).unwrap();
                    // The reference's full scans are too slow under Miri.
                    if !cfg!(miri) {
                        board.play(peg.x, peg.y).unwrap();
                    }
                }
                assert!(replay == game, "n {n} m {m} round {round}\n{game:?}");
                if !cfg!(miri) {
                    assert_eq!(board.outcome(), Some(outcome), "n {n} m {m}\n{game:?}");
                }
            }
        }
    }
}

/// `playout` (on x86-64 CPUs with SSE4.1 the SIMD recording of balls) and `playout_portable`
/// make the same moves to the same outcome and leave the generator in the same state, from new
/// games and from games under way.
#[test]
fn simd_and_portable_playouts_agree() {
    let mut rng = Rng::new(13);
    let (sizes, rounds) = if cfg!(miri) { (7..=7, 2) } else { (1..=7, 30) };
    for n in sizes {
        for m in 1..=n {
            for round in 0..rounds {
                let mut simd = Game::new(n, m).unwrap();
                for _ in 0..round % 3 {
                    let (x, y) = (rng.range(1, n), rng.range(1, n));
                    let _ = simd.play(x, y);
                }
                let mut portable = simd.clone();
                let mut portable_rng = rng.clone();
                let outcome = simd.playout(&mut rng);
                assert_eq!(portable.playout_portable(&mut portable_rng), outcome);
                assert!(simd == portable, "n {n} m {m} round {round}\n{simd:?}");
                assert_eq!(rng.next_u64(), portable_rng.next_u64());
            }
        }
    }
}

/// Pearson's statistic of `counts` against equal expectations.
fn chi_square(counts: &[u32]) -> f64 {
    let total: u32 = counts.iter().sum();
    let expected = f64::from(total) / counts.len() as f64;
    counts
        .iter()
        .map(|&c| (f64::from(c) - expected).powi(2) / expected)
        .sum()
}

/// `playout` picks every ball uniformly among the open pegs: the first balls of new games (on
/// n = 7 all 49 pegs stay open for a while), whichever half of a random number chose them, and
/// the next ball where many or most pegs are full (the retries and the count of open pegs).
/// The bounds are chi-square quantiles at p = 10⁻⁶ (fixed seeds: the test is deterministic).
#[test]
#[cfg_attr(miri, ignore)]
fn playouts_choose_uniformly_among_the_open_pegs() {
    let mut rng = Rng::new(3);
    for m in [1, 2, 4] {
        // counts[k][peg] for moves k + 1 = 1..=4.
        let mut counts = [[0u32; 49]; 4];
        for _ in 0..30_000 {
            let mut game = Game::new(7, m).unwrap();
            game.playout(&mut rng);
            for (k, peg) in game.history().take(4).enumerate() {
                counts[k][(peg.x - 1 + 7 * (peg.y - 1)) as usize] += 1;
            }
        }
        for (k, counts) in counts.iter().enumerate() {
            if counts.iter().sum::<u32>() > 10_000 {
                assert!(
                    chi_square(counts) < 110.0,
                    "m {m} move {}: {counts:?}",
                    k + 1
                );
            }
        }
    }
    // Fill the first `full` pegs (x-major) at random, taking back any ball that makes 7 in a row.
    for (full, bound) in [(30u32, 62.7), (45, 32.8)] {
        let mut start = Game::new(7, 7).unwrap();
        let mut fill = Rng::new(u64::from(full));
        for _ in 0..100_000 {
            let i = fill.below(full);
            if let Ok(Some(_)) = start.play(i % 7 + 1, i / 7 + 1) {
                start.undo();
            }
        }
        assert_eq!(start.moves_played(), 7 * full);
        let mut counts = vec![0u32; 49 - full as usize];
        for _ in 0..20_000 {
            let mut game = start.clone();
            game.playout(&mut rng);
            let peg = game.history().nth(7 * full as usize).unwrap();
            counts[(peg.x - 1 + 7 * (peg.y - 1) - full) as usize] += 1;
        }
        assert!(chi_square(&counts) < bound, "{full} full pegs: {counts:?}");
    }
}

#[test]
#[cfg_attr(miri, ignore)]
fn full_board_draws_and_wins_by_the_last_ball() {
    let mut rng = Rng::new(7);
    let (mut draws, mut last_ball_wins) = (0, 0);
    // On 6×6×6 with m = 6 about 1.3 % of random games are drawn and 0.15 % won by the last ball.
    for _ in 0..40_000 {
        let mut game = Game::new(6, 6).unwrap();
        let outcome = game.playout(&mut rng);
        let history: Vec<Peg> = game.history().collect();
        let last = history.len() == 216;
        let interesting = match outcome {
            Outcome::Draw => last,
            Outcome::Win { at, .. } => at == 216,
        };
        if !interesting {
            continue;
        }
        // Replay on the reference: the same outcome at the same move.
        let mut board = Board::new(6, 6);
        let mut result = None;
        for peg in &history {
            result = board.play(peg.x, peg.y).unwrap();
        }
        assert_eq!(result, Some(outcome));
        match outcome {
            Outcome::Draw => draws += 1,
            Outcome::Win { .. } => last_ball_wins += 1,
        }
        if draws >= 3 && last_ball_wins >= 2 {
            break;
        }
    }
    assert!(draws > 0, "no full-board draw found");
    assert!(last_ball_wins > 0, "no win by the last ball found");
}

#[test]
fn every_line_of_every_length_is_found_by_every_backend() {
    for (d, &(dx, dy, dz)) in DIRECTIONS.iter().enumerate() {
        let backends = backends("every_line_of_every_length_is_found_by_every_backend");
        for m in 2u32..=7 {
            for (x, y, z) in cells(7) {
                let (x, y, z) = (x as i32 - 1, y as i32 - 1, z as i32 - 1);
                let line: Vec<(i32, i32, i32)> = (0..m as i32)
                    .map(|k| {
                        (
                            x + k * i32::from(dx),
                            y + k * i32::from(dy),
                            z + k * i32::from(dz),
                        )
                    })
                    .collect();
                if !line.iter().all(|&(a, b, c)| {
                    (0..7).contains(&a) && (0..7).contains(&b) && (0..7).contains(&c)
                }) {
                    continue;
                }
                let cube = line.iter().fold(Cube::EMPTY, |c, &(a, b, z)| {
                    c.with(a as u32, b as u32, z as u32)
                });
                let (a, b, c) = line[1];
                let broken = cube.without(a as u32, b as u32, c as u32);
                for &backend in &backends {
                    assert!(
                        cube.has_line_on(backend, m),
                        "{backend:?} d={d} m={m}\n{cube:?}"
                    );
                    assert!(!cube.has_line_on(backend, m + 1), "{backend:?} d={d} m={m}");
                    assert!(!broken.has_line_on(backend, m), "{backend:?} d={d} m={m}");
                }
            }
        }
    }
}

#[test]
fn errors_leave_the_game_unchanged() {
    let mut game = Game::new(3, 3).unwrap();
    for _ in 0..3 {
        game.play(2, 2).unwrap();
    }
    let before = game.clone();
    assert_eq!(
        game.play(2, 2),
        Err(PlayError::PegFull {
            peg: Peg::new(2, 2)
        })
    );
    assert_eq!(
        game.play(0, 1),
        Err(PlayError::OffBoard {
            peg: Peg::new(0, 1),
            n: 3
        })
    );
    assert_eq!(
        game.play(1, 4).unwrap_err().to_string(),
        "peg (1, 4) is not on the board: x and y must be in 1..=3"
    );
    assert!(game == before);
    assert_eq!(game.legal_moves().count(), 8);
    assert!(Game::new(8, 3).is_err());
    assert!(Game::new(5, 6).is_err());
    assert!(Game::new(0, 0).is_err());
}

#[test]
#[cfg_attr(miri, ignore)]
fn every_judge_size_agrees_with_the_reference() {
    let mut rng = Rng::new(99);
    for n in 3u32..=7 {
        for m in 3u32..=n {
            for _ in 0..12 {
                let pegs: Vec<u32> = (0..n.pow(3) + 20).map(|_| rng.below(n * n)).collect();
                play_both(n, m, &pegs);
            }
        }
    }
}
