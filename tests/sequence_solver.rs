//! The Sequence solver against the plain minimax of `solver::reference`: the value, the
//! one-sided answers, the best move (its position has the same value), the principal variation
//! (legal, ending in the winner's sequence) and the proof checker, on random positions; then
//! the errors, the limits and the thread count.

use bitgames::rng::Rng;
use bitgames::sequence::solver::{
    Algorithm, Bounds, Limits, Mode, Options, Phase, ProofError, Solver, SolverError, Stats, Value,
    reference,
};
use bitgames::sequence::{Color, Game, Outcome, Peg, SizeError};
use proptest::prelude::*;

/// A random game in which no ball completes a sequence while a ball that does not is left,
/// played until every legal ball ends the game: the moves.
fn quiet_game(n: u32, m: u32, rng: &mut Rng) -> Vec<Peg> {
    let mut game = Game::new(n, m).unwrap();
    let mut moves = Vec::new();
    loop {
        let quiet: Vec<Peg> = game
            .legal_moves()
            .filter(|p| game.clone().play(p.x, p.y).unwrap().is_none())
            .collect();
        if quiet.is_empty() {
            return moves;
        }
        let p = quiet[rng.below(quiet.len() as u32) as usize];
        game.play(p.x, p.y).unwrap();
        moves.push(p);
    }
}

/// A random undecided position with at most 12 empty cells where random play reaches that far
/// (3×3×3 and 4×4×4 with m = 4), else one of the last five positions of a quiet game
/// (4×4×4 with m = 3, where quiet games end with 17 or more empty cells).
fn position(n: u32, m: u32, seed: u64) -> Vec<Peg> {
    let mut rng = Rng::new(seed);
    let moves = quiet_game(n, m, &mut rng);
    let cells = (n * n * n) as usize;
    let lo = if moves.len() + 12 >= cells {
        cells - 12
    } else {
        moves.len().saturating_sub(4)
    };
    let k = lo + rng.below((moves.len() - lo + 1) as u32) as usize;
    moves[..k].to_vec()
}

fn game_of(n: u32, m: u32, moves: &[Peg]) -> Game {
    let mut game = Game::new(n, m).unwrap();
    for p in moves {
        game.play(p.x, p.y).unwrap();
    }
    game
}

/// Everything the solver says of `moves`' position, checked against the reference minimax
/// (skipped when that tree has more than `budget` positions: `false`).
fn agrees(solver: &mut Solver, moves: &[Peg], budget: u64) -> bool {
    let (n, m) = (solver.n(), solver.m());
    let Some(want) = reference::value_within(n, m, moves, budget).unwrap() else {
        return false;
    };
    let game = game_of(n, m, moves);
    let solution = solver.solve(&game, Mode::Full, Limits::default()).unwrap();
    assert_eq!(solution.value(), Some(want), "{moves:?}\n{game:?}");

    // One-sided answers.
    for player in [Color::Black, Color::White] {
        let one = solver
            .solve(&game, Mode::Wins(player), Limits::default())
            .unwrap();
        if want.winner() == Some(player) {
            assert_eq!(one.value(), Some(want), "{player} wins {moves:?}");
        } else {
            // Not a win for `player`: the bound says so, and the value lies inside it.
            let b = one.bounds;
            assert!(b.lower <= want && want <= b.upper, "{b:?} {want:?}");
            let not_win = if player == Color::Black {
                b.upper <= Value::Draw
            } else {
                b.lower >= Value::Draw
            };
            assert!(not_win, "{player} does not win: {b:?} {moves:?}");
        }
    }

    // The best move keeps the value.
    let best = solution
        .best_move
        .expect("an undecided position has a move");
    let mut after = moves.to_vec();
    after.push(best);
    assert_eq!(
        reference::value(n, m, &after).unwrap(),
        want,
        "best move {best} of {moves:?}"
    );

    // A win: the principal variation is legal and ends in the winner's sequence, and the
    // checker proves it.
    if let Some(winner) = want.winner() {
        let pv = &solution.principal_variation;
        assert_eq!(pv.first(), Some(&best));
        let mut g = game.clone();
        let mut last = None;
        for p in pv {
            assert_eq!(last, None, "the variation goes on after the game ends");
            last = g.play(p.x, p.y).unwrap();
        }
        assert!(
            matches!(last, Some(Outcome::Win { color, .. }) if color == winner),
            "{pv:?} from {moves:?}"
        );
        let proof = solver.check_win(&game, winner, Limits::default()).unwrap();
        assert!(proof.positions >= 1);
        // The loser cannot be proven a winner.
        assert!(matches!(
            solver.check_win(&game, winner.other(), Limits::default()),
            Err(ProofError::NotAWin { .. })
        ));
    } else {
        assert!(solution.principal_variation.is_empty());
    }
    true
}

/// Reference trees above this many positions are skipped (a few per cent of the cases; the
/// reference costs tens of microseconds a position in test builds).
const BUDGET: u64 = 1 << 15;

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 1500,
        max_global_rejects: 1500,
        ..ProptestConfig::default()
    })]
    #[test]
    fn agrees_with_minimax_on_3x3x3(seed in any::<u64>()) {
        let mut solver = Solver::new(3, 3, Options::default()).unwrap();
        prop_assume!(agrees(&mut solver, &position(3, 3, seed), BUDGET));
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 300,
        max_global_rejects: 600,
        ..ProptestConfig::default()
    })]
    #[test]
    fn agrees_with_minimax_on_score_four(seed in any::<u64>()) {
        // A small table, so that entries are replaced all the time.
        let options = Options::default().with_table_bytes(1 << 12);
        let mut solver = Solver::new(4, 4, options).unwrap();
        prop_assume!(agrees(&mut solver, &position(4, 4, seed), BUDGET));
    }

    #[test]
    fn agrees_with_minimax_on_4x4x4_three_in_a_row(seed in any::<u64>()) {
        let mut solver = Solver::new(4, 3, Options::default()).unwrap();
        prop_assume!(agrees(&mut solver, &position(4, 3, seed), BUDGET));
    }

    #[test]
    fn proof_numbers_agree_with_minimax_on_3x3x3(seed in any::<u64>()) {
        let options = Options::default().with_algorithm(Algorithm::ProofNumber);
        let mut solver = Solver::new(3, 3, options).unwrap();
        prop_assume!(agrees(&mut solver, &position(3, 3, seed), BUDGET));
    }

    #[test]
    fn proof_numbers_agree_with_minimax_on_score_four(seed in any::<u64>()) {
        // Small tables: the bound table's and the proof numbers' entries are replaced all the
        // time.
        let options = Options::default()
            .with_table_bytes(1 << 12)
            .with_algorithm(Algorithm::ProofNumber);
        let mut solver = Solver::new(4, 4, options).unwrap();
        prop_assume!(agrees(&mut solver, &position(4, 4, seed), BUDGET));
    }
}

#[test]
fn most_positions_are_compared() {
    // The skipped share is small: the comparison is not reduced to easy positions.
    for (n, m) in [(3, 3), (4, 4), (4, 3)] {
        let mut solver = Solver::new(n, m, Options::default()).unwrap();
        let compared = (0..100)
            .filter(|&seed| agrees(&mut solver, &position(n, m, seed), BUDGET))
            .count();
        assert!(compared >= 85, "({n}, {m}): {compared} of 100 compared");
    }
}

#[test]
fn small_boards_from_empty_against_minimax() {
    // Whole games from the empty board where the plain tree is small enough.
    for (n, m) in [(1, 1), (2, 1), (2, 2), (3, 1), (3, 2)] {
        let mut solver = Solver::new(n, m, Options::default()).unwrap();
        assert!(agrees(&mut solver, &[], u64::MAX), "({n}, {m})");
    }
}

#[test]
fn the_first_player_wins_three_in_a_row_up_to_five() {
    // Published for 3×3×3 by a full enumeration of its states; here each is proven by the
    // checker too.
    for n in 3..=5 {
        let mut solver = Solver::new(n, 3, Options::default()).unwrap();
        let game = Game::new(n, 3).unwrap();
        let solution = solver.solve(&game, Mode::Full, Limits::default()).unwrap();
        assert_eq!(solution.value(), Some(Value::BlackWins), "n = {n}");
        solver
            .check_win(&game, Color::Black, Limits::default())
            .unwrap();
    }
}

#[test]
fn errors_change_nothing() {
    assert_eq!(
        Solver::new(8, 4, Options::default()).err(),
        Some(SolverError::Size(SizeError::Side { n: 8 }))
    );
    assert_eq!(
        Solver::new(4, 5, Options::default()).err(),
        Some(SolverError::Size(SizeError::Length { n: 4, m: 5 }))
    );
    assert_eq!(
        Solver::new(4, 4, Options::default().with_threads(0)).err(),
        Some(SolverError::NoThreads)
    );
    let mut solver = Solver::new(3, 3, Options::default()).unwrap();
    let other = Game::new(4, 3).unwrap();
    assert_eq!(
        solver.solve(&other, Mode::Full, Limits::default()),
        Err(SolverError::WrongSize {
            game: (4, 3),
            solver: (3, 3)
        })
    );
    let won = game_of(
        3,
        3,
        &[(1, 1), (2, 1), (1, 1), (2, 1), (1, 1)].map(|(x, y)| Peg::new(x, y)),
    );
    assert_eq!(won.outcome().map(|o| o.to_string()), Some("Black 5".into()));
    assert_eq!(
        solver.solve(&won, Mode::Full, Limits::default()),
        Err(SolverError::Decided)
    );
    assert!(matches!(
        solver.check_win(&won, Color::Black, Limits::default()),
        Err(ProofError::Solver(SolverError::Decided))
    ));
    // The solver still works after the errors.
    let game = Game::new(3, 3).unwrap();
    let solution = solver.solve(&game, Mode::Full, Limits::default()).unwrap();
    assert_eq!(solution.value(), Some(Value::BlackWins));
}

#[test]
fn a_limit_gives_bounds_never_a_guess() {
    // A Score Four position that takes more than 100 000 nodes; its value, then searches cut
    // short at growing node limits: whatever they prove contains the value.
    let mut rng = Rng::new(2024);
    let (game, value) = loop {
        let moves = quiet_game(4, 4, &mut rng);
        if moves.len() < 24 {
            continue;
        }
        let game = game_of(4, 4, &moves[..24]);
        let mut solver = Solver::new(4, 4, Options::default()).unwrap();
        let full = solver.solve(&game, Mode::Full, Limits::default()).unwrap();
        if full.stats.nodes > 100_000 {
            break (game, full.value().unwrap());
        }
    };
    for limit in [1u64, 5000, 20_000, 60_000] {
        let mut fresh = Solver::new(4, 4, Options::default()).unwrap();
        let limits = Limits {
            nodes: Some(limit),
            ..Limits::default()
        };
        let s = fresh.solve(&game, Mode::Full, limits).unwrap();
        assert!(s.bounds.lower <= value && value <= s.bounds.upper, "{s:?}");
        assert_eq!(s.value(), None, "limit {limit}: {s:?}");
        assert!(s.stopped, "limit {limit}: {s:?}");
        assert_eq!(s.best_move, None);
        assert!(s.principal_variation.is_empty());
        // The limit is looked at every few thousand nodes.
        assert!(s.stats.nodes < limit + 10_000, "{limit}: {}", s.stats.nodes);
    }
    assert_eq!(Bounds::UNKNOWN.exact(), None);
}

#[test]
fn the_answer_does_not_depend_on_threads_table_size_or_algorithm() {
    let mut rng = Rng::new(99);
    for _ in 0..12 {
        let moves = quiet_game(4, 4, &mut rng);
        let moves = &moves[..moves.len().min(34)];
        let game = game_of(4, 4, moves);
        let mut answers = Vec::new();
        for (threads, bytes, algorithm) in [
            (1, 1 << 20, Algorithm::AlphaBeta),
            (2, 1 << 20, Algorithm::AlphaBeta),
            (2, 1 << 14, Algorithm::AlphaBeta),
            (1, 1 << 24, Algorithm::AlphaBeta),
            (1, 1 << 20, Algorithm::ProofNumber),
            (2, 1 << 14, Algorithm::ProofNumber),
        ] {
            let options = Options::default()
                .with_threads(threads)
                .with_table_bytes(bytes)
                .with_algorithm(algorithm);
            let mut solver = Solver::new(4, 4, options).unwrap();
            let s = solver.solve(&game, Mode::Full, Limits::default()).unwrap();
            assert!(!s.stopped, "{s:?}");
            answers.push((s.value(), s.best_move, s.principal_variation));
        }
        assert!(answers.windows(2).all(|w| w[0] == w[1]), "{answers:?}");
    }
}

#[test]
fn a_small_solve_fits_a_small_stack() {
    // A one-thread solve of at most 32 empty cells runs on the caller's thread (no thread is
    // started for it): here on a thread of 512 KiB, a quarter of a spawned thread's default
    // (this search ran in 64 KiB and not in 32 KiB, in the test profile). A stack overflow
    // aborts the test binary.
    // A position of 32 empty cells whose search goes deep: 10 000 to 300 000 nodes.
    let mut rng = Rng::new(7);
    let moves = loop {
        let moves = quiet_game(4, 4, &mut rng);
        if moves.len() >= 32 {
            let moves = moves[..32].to_vec();
            let mut solver = Solver::new(4, 4, Options::default()).unwrap();
            let s = solver.solve(&game_of(4, 4, &moves), Mode::Full, Limits::default());
            if (10_000..300_000).contains(&s.unwrap().stats.nodes) {
                break moves;
            }
        }
    };
    let (value, proof) = std::thread::Builder::new()
        .stack_size(512 << 10)
        .spawn(move || {
            let game = game_of(4, 4, &moves);
            let mut solver =
                Solver::new(4, 4, Options::default().with_table_bytes(1 << 20)).unwrap();
            let s = solver.solve(&game, Mode::Full, Limits::default()).unwrap();
            let value = s.value().unwrap();
            let proof = value
                .winner()
                .map(|w| solver.check_win(&game, w, Limits::default()).is_ok());
            (value, proof)
        })
        .unwrap()
        .join()
        .unwrap();
    assert_ne!(proof, Some(false), "{value:?}");
}

/// A position of a careful random game on Score Four with `empties` empty cells: each ball
/// random among those that neither win nor let the opponent win with its next ball (among the
/// balls that do not win when every ball does); `None` when the game ends first.
fn careful_position(empties: u32, rng: &mut Rng) -> Option<Game> {
    let mut game = Game::new(4, 4).unwrap();
    while 64 - game.moves_played() > empties {
        let me = game.to_move();
        let quiet: Vec<Peg> = game
            .legal_moves()
            .filter(|p| game.clone().play(p.x, p.y).unwrap().is_none())
            .collect();
        let safe: Vec<Peg> = quiet
            .iter()
            .copied()
            .filter(|p| {
                let mut after = game.clone();
                after.play(p.x, p.y).unwrap();
                after.winning_pegs(me.other()).is_empty()
            })
            .collect();
        let choice = if safe.is_empty() { &quiet } else { &safe };
        let p = *choice.get(rng.below(choice.len() as u32) as usize)?;
        game.play(p.x, p.y).unwrap();
    }
    Some(game)
}

#[test]
fn a_lost_position_s_best_move_does_not_lose_at_once_when_it_can() {
    // In a lost position without an open threat of the winner to block, the best move is the
    // first that does not let the winner complete a sequence with its next ball, when there is
    // one: checked with the game's own rules (`winning_pegs` after the move).
    let mut solver = Solver::new(4, 4, Options::default()).unwrap();
    let mut rng = Rng::new(8);
    let mut checked = 0;
    for _ in 0..400 {
        let Some(game) = careful_position(rng.range(12, 20), &mut rng) else {
            continue;
        };
        let mover = game.to_move();
        let s = solver.solve(&game, Mode::Full, Limits::default()).unwrap();
        if s.value().and_then(Value::winner) != Some(mover.other())
            || !game.winning_pegs(mover.other()).is_empty()
        {
            continue;
        }
        let loses_at_once = |p: Peg| {
            let mut after = game.clone();
            after.play(p.x, p.y).unwrap();
            !after.winning_pegs(mover.other()).is_empty()
        };
        let safe: Vec<Peg> = game.legal_moves().filter(|&p| !loses_at_once(p)).collect();
        if safe.is_empty() {
            continue;
        }
        let best = s.best_move.unwrap();
        assert!(safe.contains(&best), "{best} of {game:?}: safe {safe:?}");
        checked += 1;
    }
    assert!(checked >= 15, "{checked} positions checked");
}

#[test]
fn the_hit_rate_is_hits_over_probes() {
    // A position that takes a search (not settled by the threat rules at the root), solved
    // first with an empty table.
    let mut rng = Rng::new(3);
    let (mut solver, game, first) = loop {
        let Some(game) = careful_position(20, &mut rng) else {
            continue;
        };
        let mut solver = Solver::new(4, 4, Options::default()).unwrap();
        let first = solver.solve(&game, Mode::Full, Limits::default()).unwrap();
        if first.stats.nodes > 1000 {
            break (solver, game, first);
        }
    };
    // Solved again with the table kept: the root's own entry is found at once.
    let again = solver.solve(&game, Mode::Full, Limits::default()).unwrap();
    for s in [first, again.clone()] {
        let st = s.stats;
        assert!(
            st.table_probes > 0 && st.table_hits <= st.table_probes,
            "{st:?}"
        );
        assert_eq!(st.hit_rate(), st.table_hits as f64 / st.table_probes as f64);
    }
    assert!(
        again.stats.table_hits > 0 && again.stats.hit_rate() > 0.0,
        "{again:?}"
    );
    assert_eq!(Stats::default().hit_rate(), 0.0);
}

#[test]
#[cfg_attr(miri, ignore)]
fn a_monitor_stops_a_search_from_another_thread() {
    // Score Four from the empty board: far beyond a test's time. Stopped once it has reported
    // nodes, it returns soon with what it proved (nothing exact). Searches look at the stop
    // signal every 4096 nodes, and report their nodes as often, so it searches at most about
    // two such rounds after the count read just after the stop. The time limit is only a
    // backstop for a stop that does not work.
    let mut solver = Solver::new(4, 4, Options::default().with_table_bytes(1 << 20)).unwrap();
    let monitor = solver.monitor();
    let game = Game::new(4, 4).unwrap();
    let search = std::thread::spawn(move || {
        let limits = Limits {
            time: Some(std::time::Duration::from_secs(5)),
            ..Limits::default()
        };
        solver.solve(&game, Mode::Full, limits).unwrap()
    });
    // (A search that ended before reporting, or panicked, fails below instead of hanging.)
    while monitor.nodes() == 0 && !search.is_finished() {
        std::thread::yield_now();
    }
    assert!(matches!(monitor.phase(), Phase::Probe(_)));
    monitor.stop();
    let at_stop = monitor.nodes();
    let s = search.join().unwrap();
    assert!(s.stopped, "{s:?}");
    assert_eq!(s.value(), None);
    assert_eq!(s.best_move, None);
    assert!(
        s.stats.nodes <= at_stop + 3 * 4096,
        "{} after {at_stop}",
        s.stats.nodes
    );
    assert_eq!(monitor.phase(), Phase::Idle);
}
