//! Throughput of the two-player Havannah engine: random playouts to the end with win
//! detection on side 8 (playouts/s and moves/s; listing the empty cells and drawing the moves
//! included), decisive and bridge-saving playouts, play + undo pairs in a mid-game position, and MCTS
//! iterations per second on sides 4, 6, 8 and 10 (the sides of morat's published figures),
//! the GTP engine's default search among them.
//!
//! `cargo bench --bench havannah_game`

use std::hint::black_box;

use bitgames::havannah::gtp::DEFAULT_AGENT;
use bitgames::havannah::{Game, Outcome, Playouts, RingRule, Rules};
use bitgames::rng::Rng;
use bitgames::search::{AgentSpec, Budget, Mcts, MctsConfig, Rollout};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// Playouts per batch.
const PLAYOUTS: u64 = 1000;

/// Plays a fixed batch of random games from the empty board; returns the moves and the
/// number of games won by White, Black and drawn.
fn batch(game: &mut Game, policy: Rollout) -> (u64, [u64; 3]) {
    let mut rng = Rng::new(42);
    let mut moves = 0;
    let mut tally = [0; 3];
    for _ in 0..PLAYOUTS {
        game.reset();
        let outcome = game.playout_with(policy, &mut rng);
        moves += u64::from(game.moves_played());
        tally[match outcome {
            Outcome::Win { color, .. } => color.index(),
            Outcome::Draw => 2,
        }] += 1;
    }
    (moves, tally)
}

/// [`batch`] on the dense playout engine: the same games from the empty `game`, which stays
/// empty.
fn dense_batch(game: &Game, playouts: &mut Playouts, policy: Rollout) -> (u64, [u64; 3]) {
    let mut rng = Rng::new(42);
    let mut moves = 0;
    let mut tally = [0; 3];
    for _ in 0..PLAYOUTS {
        let outcome = playouts.playout_with(game, policy, &mut rng);
        moves += playouts.played() as u64;
        tally[match outcome {
            Outcome::Win { color, .. } => color.index(),
            Outcome::Draw => 2,
        }] += 1;
    }
    (moves, tally)
}

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("havannah_playouts");
    for (name, rule, policy) in [
        ("s8", RingRule::Official, Rollout::Random),
        ("s8_code_jam", RingRule::CodeJam, Rollout::Random),
        ("s8_decisive", RingRule::Official, Rollout::Decisive),
        ("s8_bridges", RingRule::Official, Rollout::Bridges),
    ] {
        let mut game = Game::with_rules(8, Rules::default().ring(rule)).unwrap();
        let (moves, tally) = batch(&mut game, policy);
        // Every game ends, both colours win some.
        assert_eq!(tally.iter().sum::<u64>(), PLAYOUTS);
        assert!(tally[0] > 0 && tally[1] > 0, "{tally:?}");
        assert!(moves > PLAYOUTS * 10 && moves < PLAYOUTS * 169, "{moves}");
        group.throughput(Throughput::Elements(PLAYOUTS));
        group.bench_function(format!("{name}_playouts"), |b| {
            b.iter(|| assert_eq!(batch(black_box(&mut game), policy), (moves, tally)))
        });
        group.throughput(Throughput::Elements(moves));
        group.bench_function(format!("{name}_moves"), |b| {
            b.iter(|| assert_eq!(batch(black_box(&mut game), policy).0, moves))
        });
        // The dense engine plays exactly the same games.
        game.reset();
        let mut dense = Playouts::new();
        assert_eq!(dense_batch(&game, &mut dense, policy), (moves, tally));
        group.throughput(Throughput::Elements(PLAYOUTS));
        group.bench_function(format!("{name}_dense_playouts"), |b| {
            b.iter(|| assert_eq!(dense_batch(black_box(&game), &mut dense, policy).0, moves))
        });
    }
    group.finish();
}

fn play_undo(c: &mut Criterion) {
    let mut group = c.benchmark_group("havannah_play_undo");
    for side in [8u32, 3000] {
        // A position of 40 random stones (no end yet) and every empty cell near them.
        let mut game = Game::new(side).unwrap();
        let mut rng = Rng::new(7);
        let n = game.board().n();
        let (lo, hi) = if side == 8 {
            (1, n)
        } else {
            (side - 6, side + 6)
        };
        while game.moves_played() < 40 {
            let (x, y) = (rng.range(lo, hi), rng.range(lo, hi));
            if game.play(x, y).is_ok_and(|o| o.is_some()) {
                game.undo();
            }
        }
        let cells: Vec<_> = game
            .board()
            .iter()
            .filter(|c| (lo..=hi).contains(&c.x) && (lo..=hi).contains(&c.y))
            .filter(|c| game.stone(c.x, c.y).is_none())
            .collect();
        let hash = game.hash();
        group.throughput(Throughput::Elements(cells.len() as u64));
        group.bench_function(format!("s{side}_pairs"), |b| {
            b.iter(|| {
                for c in &cells {
                    let _ = black_box(game.play(c.x, c.y));
                    game.undo();
                }
                assert_eq!(game.hash(), hash);
            })
        });
    }
    group.finish();
}

/// One search of 5 000 iterations from the empty board (a new tree each time), on one
/// thread: iterations (simulations) per second, by side, rollout policy and RAVE (k = 1000,
/// leaves expanded the first time they are reached, or on their second visit for
/// `_expand1`), and the search `bitgames gtp havannah`
/// plays by default (`gtp_default`: [`DEFAULT_AGENT`] with this budget). Cold: a new search
/// each time (its arena's memory is new); warm (`_warm`): one search whose tree is cleared
/// before each search.
fn mcts_iterations(c: &mut Criterion) {
    const ITERATIONS: u32 = 5_000;
    let mut group = c.benchmark_group("havannah_mcts");
    group.throughput(Throughput::Elements(u64::from(ITERATIONS)));
    group.sample_size(10);
    let AgentSpec::Mcts(default) = DEFAULT_AGENT.parse().unwrap() else {
        unreachable!("the GTP default is a search")
    };
    for side in [4u32, 6, 8, 10] {
        for (rollout, rave, name) in [
            (Rollout::Random, 0.0, "random"),
            (Rollout::Random, 1000.0, "random_rave"),
            (Rollout::Decisive, 0.0, "decisive"),
            (Rollout::Decisive, 1000.0, "decisive_rave"),
            (Rollout::Random, 1000.0, "random_rave_expand1"),
            (Rollout::Random, 1000.0, "random_rave_expand1_knowledge"),
            (default.rollout, default.rave, "gtp_default"),
        ] {
            let game = Game::new(side).unwrap();
            let config = if name == "gtp_default" {
                MctsConfig {
                    budget: Budget::Iterations(ITERATIONS),
                    ..default.clone()
                }
            } else {
                MctsConfig {
                    budget: Budget::Iterations(ITERATIONS),
                    rollout,
                    rave,
                    // Leaves expanded on their second visit, as morat does by default; with
                    // its knowledge (the GTP default's priors) and a solver, as morat's.
                    expand: u32::from(name.contains("expand1")),
                    prior: if name.ends_with("knowledge") {
                        default.prior
                    } else {
                        0.0
                    },
                    solver: name.ends_with("knowledge"),
                    ..MctsConfig::default()
                }
            };
            group.bench_function(format!("s{side}_{name}"), |b| {
                b.iter(|| {
                    let mut mcts = Mcts::<Game>::new(config.clone(), 1);
                    let choice = mcts.choose(black_box(&game));
                    assert_eq!(mcts.iterations(), u64::from(ITERATIONS));
                    choice
                })
            });
            if side >= 6 && name != "decisive" {
                // Warm: one search kept, its tree cleared before each search, so the arena's
                // memory is reused (as in a GTP engine after its first move).
                let mut mcts = Mcts::<Game>::new(config.clone(), 1);
                group.bench_function(format!("s{side}_{name}_warm"), |b| {
                    b.iter(|| {
                        mcts.clear();
                        let before = mcts.iterations();
                        let choice = mcts.choose(black_box(&game));
                        assert_eq!(mcts.iterations() - before, u64::from(ITERATIONS));
                        choice
                    })
                });
            }
        }
    }
    group.finish();
}

criterion_group!(benches, playouts, play_undo, mcts_iterations);
criterion_main!(benches);
