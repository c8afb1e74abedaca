//! The proof checker: a claimed win replayed on [`Game`] against every defence.
//!
//! At the winner's turns the solver names a move (a ball that wins at once when there is one);
//! at the loser's turns every legal move is tried. [`Game`] alone judges the outcome of every
//! ball, so a wrong move from the solver (a table confusion, a bug in the threat rules) shows up
//! as a line of play that does not end in the winner's sequence. Positions proven once (keyed
//! by both colours' full cubes, an exact key) are not proven again.

use std::fmt;
use std::time::Duration;

use rustc_hash::FxHashSet;

use super::bits::Bits;
use super::geometry::Geometry;
use super::search::{Pos, Searcher, peg_of_index};
use super::{SolverError, best_move};
use crate::sequence::{Color, Game, Outcome, Peg};

/// A checked win: the size of the proof tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Proof {
    /// Distinct positions proven.
    pub positions: u64,
    /// Moves of the winner played (one per proven position where it moves).
    pub winner_moves: u64,
    /// Defences tried (every legal move at every proven position of the loser).
    pub defences: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
}

/// Why a win was not confirmed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProofError {
    /// The position cannot be solved.
    Solver(SolverError),
    /// After these moves (from the checked position) the claimed winner did not win: the game
    /// ended otherwise, or the solver found no winning move.
    NotAWin {
        /// The line of play, from the checked position.
        line: Vec<Peg>,
    },
    /// A limit stopped the solver before the proof was complete.
    Stopped,
}

impl fmt::Display for ProofError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProofError::Solver(e) => e.fmt(f),
            ProofError::NotAWin { line } => {
                f.write_str("the win is not proven: after the moves")?;
                for p in line {
                    write!(f, " {} {}", p.x, p.y)?;
                }
                f.write_str(" the claimed winner does not win")
            }
            ProofError::Stopped => f.write_str("stopped at a limit before the proof was complete"),
        }
    }
}

impl std::error::Error for ProofError {}

/// The walk over the proof tree.
struct Checker<'s, 'a, B, const SYMS: usize> {
    g: &'a Geometry<B>,
    searcher: &'s mut Searcher<'a, B, SYMS>,
    winner: Color,
    proven: FxHashSet<[u64; 16]>,
    line: Vec<Peg>,
    proof: Proof,
}

/// Checks that `winner` wins `game` (undecided, of the geometry's size).
pub(crate) fn check<'a, B: Bits, const SYMS: usize>(
    g: &'a Geometry<B>,
    searcher: &mut Searcher<'a, B, SYMS>,
    game: &Game,
    winner: Color,
) -> Result<Proof, ProofError> {
    let mut checker = Checker {
        g,
        searcher,
        winner,
        proven: FxHashSet::default(),
        line: Vec::new(),
        proof: Proof::default(),
    };
    let mut game = game.clone();
    let pos: Pos<B, SYMS> = Pos::of_game(g, &game);
    checker.prove(&mut game, &pos)?;
    Ok(checker.proof)
}

impl<B: Bits, const SYMS: usize> Checker<'_, '_, B, SYMS> {
    fn not_a_win(&self) -> ProofError {
        ProofError::NotAWin {
            line: self.line.clone(),
        }
    }

    /// Plays peg `p` on both boards: the game's outcome, and the solver's position after it
    /// (meaningless once the game is over).
    fn play(
        &mut self,
        game: &mut Game,
        pos: &Pos<B, SYMS>,
        p: Peg,
    ) -> (Option<Outcome>, Pos<B, SYMS>) {
        let outcome = game
            .play(p.x, p.y)
            .expect("the checker plays legal moves only");
        self.line.push(p);
        let g = self.g;
        let peg = (p.x - 1 + g.n * (p.y - 1)) as usize;
        let z = game.height(p.x, p.y).expect("on the board") - 1;
        let next = if outcome.is_some() {
            *pos
        } else {
            pos.play(g, g.cell(peg, z))
        };
        (outcome, next)
    }

    fn take_back(&mut self, game: &mut Game) {
        game.undo();
        self.line.pop();
    }

    fn prove(&mut self, game: &mut Game, pos: &Pos<B, SYMS>) -> Result<(), ProofError> {
        let key = {
            let (b, w) = (game.cube(Color::Black).0, game.cube(Color::White).0);
            let mut k = [0; 16];
            k[..8].copy_from_slice(&b);
            k[8..].copy_from_slice(&w);
            k
        };
        if self.proven.contains(&key) {
            return Ok(());
        }
        if game.to_move() == self.winner {
            // A ball that wins at once, else the solver's move.
            let pegs: Vec<Peg> = game.legal_moves().collect();
            let mut won = false;
            for &p in &pegs {
                let (outcome, _) = self.play(game, pos, p);
                self.take_back(game);
                if matches!(outcome, Some(Outcome::Win { color, .. }) if color == self.winner) {
                    won = true;
                    break;
                }
            }
            if !won {
                let choice = best_move(self.g, self.searcher, pos, 1);
                if self.searcher.stopped {
                    return Err(ProofError::Stopped);
                }
                let Some(peg) = choice else {
                    return Err(self.not_a_win());
                };
                let p = peg_of_index(self.g.n, peg);
                let (outcome, next) = self.play(game, pos, p);
                let result = match outcome {
                    None => self.prove(game, &next),
                    Some(Outcome::Win { color, .. }) if color == self.winner => Ok(()),
                    Some(_) => Err(self.not_a_win()),
                };
                self.take_back(game);
                result?;
            }
            self.proof.winner_moves += 1;
        } else {
            let pegs: Vec<Peg> = game.legal_moves().collect();
            if pegs.is_empty() {
                return Err(self.not_a_win());
            }
            for p in pegs {
                self.proof.defences += 1;
                let (outcome, next) = self.play(game, pos, p);
                let result = match outcome {
                    None => self.prove(game, &next),
                    Some(_) => Err(self.not_a_win()),
                };
                self.take_back(game);
                result?;
            }
        }
        self.proof.positions += 1;
        self.proven.insert(key);
        Ok(())
    }
}
