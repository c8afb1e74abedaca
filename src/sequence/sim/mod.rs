//! The simulator the "Make a Sequence" problem asks for: self-play between agents
//! ([`crate::search`]), the game-quality metrics of every game ([`metrics`]), and the sweep
//! over every board size n and row length m ([`sweep`]).
//!
//! Every game is played from its own seeds, derived from the run's seed, the board size and
//! the game's index ([`game_seed`]), so a set of games gives the same records whatever the
//! number of threads or the slices it is cut into.

pub mod metrics;
pub mod sweep;

use std::io::{self, Write};

use rayon::prelude::*;

use super::{Color, Game, Outcome, Peg, SMALL_MAX_N, SizeError, SmallGame};
use crate::rng::{GOLDEN, mix64};
use crate::search::{self, Agent, AgentSpec, Player, Position};

/// A finished self-play game: its moves, outcome and the evaluations the agents made.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// Board side.
    pub n: u32,
    /// Winning length.
    pub m: u32,
    /// The pegs played, in order.
    pub moves: Vec<Peg>,
    /// How the game ended.
    pub outcome: Outcome,
    /// `values[i]`: the value of the position before move `i + 1` for the player to move
    /// there, as estimated by that player's agent (`None` for agents that do not search).
    pub values: Vec<Option<f32>>,
}

impl Record {
    /// Black's evaluation of the position before each move (`None` where the agent gave
    /// none): the mover's value, or one minus it when White moves.
    pub fn black_values(&self) -> impl Iterator<Item = Option<f64>> + '_ {
        self.values.iter().enumerate().map(|(i, v)| {
            v.map(|v| {
                let v = f64::from(v).clamp(0.0, 1.0);
                if i % 2 == 0 { v } else { 1.0 - v }
            })
        })
    }

    /// Writes the game as one dataset of the judge format (`n m p`, then the p moves); the
    /// judge's answer for it is [`Record::outcome`].
    ///
    /// # Errors
    /// Those of `out`.
    pub fn write_dataset(&self, out: &mut impl Write) -> io::Result<()> {
        writeln!(out, "{} {} {}", self.n, self.m, self.moves.len())?;
        for p in &self.moves {
            writeln!(out, "{} {}", p.x, p.y)?;
        }
        Ok(())
    }
}

/// The seed of one agent in one game: game `index` of board (n, m) in a run seeded `seed`,
/// for `color` (splitmix64 of the four).
pub fn game_seed(seed: u64, n: u32, m: u32, index: u64, color: Color) -> u64 {
    let z = seed
        ^ (u64::from(n) << 56)
        ^ (u64::from(m) << 48)
        ^ index.wrapping_mul(GOLDEN)
        ^ (color as u64) << 40;
    mix64(mix64(z.wrapping_add(GOLDEN)).wrapping_add(GOLDEN))
}

/// What to simulate: the board, the two agents and the seed.
#[derive(Debug, Clone, PartialEq)]
pub struct Match {
    /// Board side, 3..=7 in the problem (any size [`Game::new`] accepts works).
    pub n: u32,
    /// Winning length.
    pub m: u32,
    /// Black's agent (moves first).
    pub black: AgentSpec,
    /// White's agent.
    pub white: AgentSpec,
    /// The run's seed.
    pub seed: u64,
}

impl Match {
    /// Plays game number `index` of this match. Boards of n ≤ 4 are played on a
    /// [`SmallGame`] (one `u64` a colour), the others on a [`Game`]: the same moves either way,
    /// as the engines are move for move equal.
    ///
    /// # Errors
    /// [`SizeError`] when n and m make no board.
    pub fn play(&self, index: u64) -> Result<Record, SizeError> {
        Game::new(self.n, self.m)?;
        if self.n <= SMALL_MAX_N {
            Ok(self.play_on(SmallGame::new(self.n, self.m)?, index))
        } else {
            Ok(self.play_on(Game::new(self.n, self.m)?, index))
        }
    }

    /// [`Match::play`] on `game` (the empty board of this match's size) with either engine.
    pub fn play_on<G: Position<Move = Peg>>(&self, mut game: G, index: u64) -> Record {
        let mut black = Agent::new(
            &self.black,
            game_seed(self.seed, self.n, self.m, index, Color::Black),
        );
        let mut white = Agent::new(
            &self.white,
            game_seed(self.seed, self.n, self.m, index, Color::White),
        );
        let mut moves = Vec::new();
        let mut values = Vec::new();
        let outcome = loop {
            if let Some(outcome) = game.outcome() {
                break outcome;
            }
            let agent = match game.to_move() {
                Player::First => &mut black,
                Player::Second => &mut white,
            };
            let choice = agent.choose(&game);
            game.play(choice.mv);
            moves.push(choice.mv);
            values.push(choice.value);
        };
        let at = moves.len() as u32;
        let outcome = match outcome {
            search::Outcome::Win(player) => Outcome::Win {
                color: player.into(),
                at,
            },
            search::Outcome::Draw => Outcome::Draw,
        };
        Record {
            n: self.n,
            m: self.m,
            moves,
            outcome,
            values,
        }
    }

    /// Plays the games `indices` on the rayon thread pool (all cores unless the caller
    /// installs a smaller pool), calling `done` after each game; the records come back in
    /// the order of `indices`, the same whatever the number of threads.
    ///
    /// # Errors
    /// [`SizeError`] when n and m make no board.
    pub fn play_all(
        &self,
        indices: &[u64],
        done: &(dyn Fn() + Sync),
    ) -> Result<Vec<Record>, SizeError> {
        Game::new(self.n, self.m)?;
        indices
            .par_iter()
            .map(|&i| {
                let record = self.play(i);
                done();
                record
            })
            .collect()
    }
}

/// One step of a skill trace: how `mcts:2k` fares against `mcts:k`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SkillStep {
    /// The weaker agent's iterations k (the stronger has 2k).
    pub iterations: u32,
    /// The stronger agent's mean score (1 a win, ½ a draw, 0 a loss) with its 95 % interval.
    pub score: metrics::Mean,
}

/// Ludii's SkillTrace, as a table: for each k of `steps` (say 100, 200, 400, ...), `games`
/// games of `mcts:2k` against `mcts:k` on the (n, m) board, the stronger agent Black in the
/// even-numbered games and White in the odd ones. A game where more thinking keeps paying
/// off has scores that stay above ½ as k grows.
///
/// Game `i` of step `k` is game `i` ([`Match::play`]) of the match of those two agents (with
/// [`MctsConfig::default`](crate::search::MctsConfig::default)'s other settings) under the seed
/// `seed ^ k`, so any game of the trace can be replayed on its own.
///
/// # Errors
/// [`SizeError`] when n and m make no board.
///
/// # Panics
/// When `games` is 0.
pub fn skill_trace(
    n: u32,
    m: u32,
    steps: &[u32],
    games: u64,
    seed: u64,
    done: &(dyn Fn() + Sync),
) -> Result<Vec<SkillStep>, SizeError> {
    use crate::search::{Budget, MctsConfig};
    let spec = |k: u32| {
        AgentSpec::Mcts(MctsConfig {
            budget: Budget::Iterations(k),
            ..MctsConfig::default()
        })
    };
    let mut trace = Vec::new();
    for &k in steps {
        let strong_black = Match {
            n,
            m,
            black: spec(2 * k),
            white: spec(k),
            seed: seed ^ u64::from(k),
        };
        let strong_white = Match {
            black: spec(k),
            white: spec(2 * k),
            ..strong_black.clone()
        };
        let indices: Vec<u64> = (0..games).collect();
        let points: Vec<u64> = indices
            .par_iter()
            .map(|&i| {
                let (game, strong) = if i % 2 == 0 {
                    (&strong_black, Color::Black)
                } else {
                    (&strong_white, Color::White)
                };
                let record = game.play(i);
                done();
                record.map(|r| match r.outcome {
                    Outcome::Win { color, .. } if color == strong => 2,
                    Outcome::Draw => 1,
                    Outcome::Win { .. } => 0,
                })
            })
            .collect::<Result<_, _>>()?;
        let score =
            metrics::Mean::of(points.iter().map(|&p| p as f64 / 2.0)).expect("at least one game");
        trace.push(SkillStep {
            iterations: k,
            score,
        });
    }
    Ok(trace)
}
