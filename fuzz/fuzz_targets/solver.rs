//! The solver against the plain minimax on fuzzed positions: a move list played on the engine
//! (refused moves and moves after the game ends skipped), then the value, the best move and,
//! for a win, the proof checker, wherever the minimax tree is small enough to compare; with
//! either search (alpha-beta or proof numbers).
#![no_main]

use arbitrary::Arbitrary;
use bitgames::sequence::solver::{Algorithm, Limits, Mode, Options, ProofError, Solver, reference};
use bitgames::sequence::{Game, Peg};
use libfuzzer_sys::fuzz_target;

#[derive(Debug, Arbitrary)]
struct Input {
    n: u8,
    m: u8,
    table_log2: u8,
    proof_numbers: bool,
    moves: Vec<(u8, u8)>,
}

/// Positions with larger minimax trees are skipped.
const BUDGET: u64 = 3_000;

/// Solver nodes the proof checker may spend; a proof stopped there is neither right nor wrong.
/// (Unbounded, one proof of a (4, 4) win could take a minute under AddressSanitizer.)
const PROOF_BUDGET: u64 = 50_000;

fuzz_target!(|input: Input| {
    let n = u32::from(input.n % 4) + 1;
    let m = u32::from(input.m) % n + 1;
    let mut game = Game::new(n, m).unwrap();
    let mut moves = Vec::new();
    for &(x, y) in &input.moves {
        let (x, y) = (u32::from(x) % n + 1, u32::from(y) % n + 1);
        let mut next = game.clone();
        if let Ok(None) = next.play(x, y) {
            game = next;
            moves.push(Peg::new(x, y));
        }
    }
    // The ways to fill the cube from here, wins ignored: e! / (h_1! ... h_k!) for e empty
    // cells in pegs of h_i free cells. Far past the budget, the minimax is not tried at all
    // (it would mostly stop at the budget; wins cut a tree, hence the margin, and positions
    // whose wins would keep the tree small are lost to this: the price of the rate). With
    // m <= 2 almost every line wins at once and trees stay tiny whatever the count.
    if m >= 3 {
        let (mut ways, mut filled) = (1f64, 0u32);
        for y in 1..=n {
            for x in 1..=n {
                for k in 1..=n - game.height(x, y).unwrap() {
                    filled += 1;
                    ways = ways * f64::from(filled) / f64::from(k);
                }
            }
        }
        if ways > 20.0 * BUDGET as f64 {
            return;
        }
    }
    let Some(want) = reference::value_within(n, m, &moves, BUDGET).unwrap() else {
        return;
    };
    let bytes = 16usize << (input.table_log2 % 16);
    let algorithm = if input.proof_numbers {
        Algorithm::ProofNumber
    } else {
        Algorithm::AlphaBeta
    };
    let options = Options::default()
        .with_table_bytes(bytes)
        .with_algorithm(algorithm);
    let mut solver = Solver::new(n, m, options).unwrap();
    let solution = solver.solve(&game, Mode::Full, Limits::default()).unwrap();
    assert_eq!(solution.value(), Some(want), "{moves:?}");
    let best = solution.best_move.unwrap();
    moves.push(best);
    assert_eq!(reference::value(n, m, &moves).unwrap(), want, "best {best}");
    if let Some(winner) = want.winner() {
        let limits = Limits {
            nodes: Some(PROOF_BUDGET),
            ..Limits::default()
        };
        match solver.check_win(&game, winner, limits) {
            Ok(_) | Err(ProofError::Stopped) => {}
            Err(e) => panic!("{moves:?}: {e}"),
        }
    }
});
