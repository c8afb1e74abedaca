//! The Score Four table by stones placed: positions reached by random play with no win yet,
//! solved one by one (one thread, the table emptied before each), time and nodes averaged per count, next
//! to the TUM minimax solver's published times.
//!
//! `cargo bench --bench solver_table -- [--stones 40,36,32,30,28] [--positions 10]
//! [--mode one-sided|full] [--positions-from plain|careful] [--seed 1] [--tt-size-mib 1024]
//! [--threads 1] [--algorithm alpha-beta|proof-number] [--check]`
//!
//! A position is the first k moves of a seeded random game (the same positions on every run):
//! `plain` play never completes a line while a ball that does not is left (no win yet; the
//! player to move can often win at once), `careful` play also never lets the opponent complete
//! one with its next ball (the player to move cannot win at once). The mode says what was asked:
//! `one-sided` (does Black win? a draw counts as a loss, the question the TUM solver answers) or
//! `full` (win, draw or loss). With `--check`, every win is then re-proven by the proof
//! checker ([`Solver::check_win`], not timed): the bench stops if one is not confirmed. The
//! algorithm is the main thread's search ([`Algorithm`]).

use std::time::Instant;

use bitgames::rng::Rng;
use bitgames::sequence::solver::{Algorithm, Limits, Mode, Options, Solver};
use bitgames::sequence::{Color, Game, Peg};

/// The TUM solver's published total solve times by stones placed (one CPU), in seconds.
const TUM: [(u32, f64); 4] = [(36, 6.0), (33, 35.0), (30, 190.0), (28, 600.0)];

struct Args {
    stones: Vec<u32>,
    positions: usize,
    mode: String,
    seed: u64,
    table_mib: usize,
    threads: usize,
    careful: bool,
    check: bool,
    algorithm: Algorithm,
}

fn args() -> Args {
    let mut a = Args {
        stones: vec![40, 36, 32, 30, 28],
        positions: 10,
        mode: "one-sided".into(),
        seed: 1,
        table_mib: 1024,
        threads: 1,
        careful: false,
        check: false,
        algorithm: Algorithm::AlphaBeta,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--stones" => {
                a.stones = value()
                    .split(',')
                    .map(|s| s.parse().expect("--stones: numbers"))
                    .collect()
            }
            "--positions" => a.positions = value().parse().expect("--positions: a number"),
            "--mode" => a.mode = value(),
            "--seed" => a.seed = value().parse().expect("--seed: a number"),
            "--tt-size-mib" => a.table_mib = value().parse().expect("--tt-size-mib: a number"),
            "--threads" => a.threads = value().parse().expect("--threads: a number"),
            "--positions-from" => a.careful = value() == "careful",
            "--check" => a.check = true,
            "--algorithm" => {
                a.algorithm = match value().as_str() {
                    "alpha-beta" => Algorithm::AlphaBeta,
                    "proof-number" => Algorithm::ProofNumber,
                    other => panic!("--algorithm: alpha-beta or proof-number, not {other}"),
                }
            }
            // cargo bench passes --bench; criterion-style filters are ignored.
            _ => {}
        }
    }
    a
}

/// Can the player to move complete a line with its next ball?
fn wins_at_once(game: &Game) -> bool {
    game.legal_moves()
        .any(|p| game.clone().play(p.x, p.y).unwrap().is_some())
}

/// A random game on Score Four in which no ball completes a line (and, when `careful`, no ball
/// lets the opponent complete one with its next ball), until no ball is left that keeps to
/// that.
fn random_game(rng: &mut Rng, careful: bool) -> Vec<Peg> {
    let mut game = Game::new(4, 4).unwrap();
    let mut moves = Vec::new();
    loop {
        let quiet: Vec<Peg> = game
            .legal_moves()
            .filter(|p| {
                let mut next = game.clone();
                next.play(p.x, p.y).unwrap().is_none() && !(careful && wins_at_once(&next))
            })
            .collect();
        if quiet.is_empty() {
            return moves;
        }
        let p = quiet[rng.below(quiet.len() as u32) as usize];
        game.play(p.x, p.y).unwrap();
        moves.push(p);
    }
}

fn main() {
    let a = args();
    let mode = match a.mode.as_str() {
        "full" => Mode::Full,
        _ => Mode::Wins(Color::Black),
    };
    println!(
        "mode {}, positions from {} random play, {} per count, seed {}, table {} MiB, {} thread(s), {:?}",
        a.mode,
        if a.careful { "careful" } else { "plain" },
        a.positions,
        a.seed,
        a.table_mib,
        a.threads,
        a.algorithm
    );
    println!(
        "| stones | positions | mean time (s) | median (s) | max (s) | mean nodes | M nodes/s | Black wins | wins checked | TUM (s) | speed-up |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    let options = Options::default()
        .with_table_bytes(a.table_mib << 20)
        .with_threads(a.threads)
        .with_algorithm(a.algorithm);
    let mut solver = Solver::new(4, 4, options).unwrap();
    for &stones in &a.stones {
        let mut rng = Rng::new(a.seed ^ u64::from(stones) << 32);
        let (mut times, mut nodes, mut wins, mut checked) = (Vec::new(), 0u64, 0, 0);
        while times.len() < a.positions {
            let moves = random_game(&mut rng, a.careful);
            if moves.len() < stones as usize {
                continue;
            }
            let mut game = Game::new(4, 4).unwrap();
            for p in &moves[..stones as usize] {
                game.play(p.x, p.y).unwrap();
            }
            // Every position starts from an empty table; clearing it (outside the timed part)
            // also touches every page, as a long-running solver's table would be.
            solver.clear();
            let start = Instant::now();
            let s = solver.solve(&game, mode, Limits::default()).unwrap();
            let t = start.elapsed().as_secs_f64();
            let won = s.value().and_then(|v| v.winner()) == Some(Color::Black);
            eprintln!(
                "  {stones} stones #{}: {} in {t:.3} s, {} nodes ({:.1} M/s), hit rate {:.2}, probes/node {:.2}",
                times.len() + 1,
                s.bounds,
                s.stats.nodes,
                s.stats.nodes_per_second() / 1e6,
                s.stats.hit_rate(),
                s.stats.table_probes as f64 / s.stats.nodes as f64
            );
            if let Some(winner) = s.value().and_then(|v| v.winner()).filter(|_| a.check) {
                let proof = solver
                    .check_win(&game, winner, Limits::default())
                    .unwrap_or_else(|e| panic!("{stones} stones: {e}"));
                eprintln!(
                    "    {winner} wins: checked, {} positions, {} defences",
                    proof.positions, proof.defences
                );
                checked += 1;
            }
            times.push(t);
            nodes += s.stats.nodes;
            wins += usize::from(won);
        }
        let total: f64 = times.iter().sum();
        let mean = total / times.len() as f64;
        let mut sorted = times.clone();
        sorted.sort_by(f64::total_cmp);
        let median = sorted[sorted.len() / 2];
        let tum = TUM.iter().find(|(s, _)| *s == stones).map(|t| t.1);
        println!(
            "| {stones} | {} | {mean:.4} | {median:.4} | {:.4} | {} | {:.1} | {wins} | {} | {} | {} |",
            times.len(),
            sorted[sorted.len() - 1],
            nodes / times.len() as u64,
            nodes as f64 / total / 1e6,
            if a.check {
                checked.to_string()
            } else {
                "-".into()
            },
            tum.map_or("".into(), |t| format!("{t}")),
            tum.map_or("".into(), |t| format!("{:.0}x", t / mean)),
        );
    }
}
