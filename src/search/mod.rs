//! Game-generic search for two-player games: a small [`Position`] trait (legal moves into a
//! caller's buffer, play, undo, outcome, hash, the player to move, the immediate wins) and the
//! agents written once over it: [`Agent::Random`], [`Agent::Greedy`] and Monte Carlo tree
//! search ([`Mcts`]), chosen by a spec string ([`AgentSpec`]: `random`, `greedy`,
//! `mcts:2000`, `mcts:0.5s`).
//!
//! The decisive and anti-decisive moves of Teytaud & Teytaud ("On the huge benefit of
//! decisive moves in Monte-Carlo tree search algorithms", IEEE CIG 2010) are the greedy
//! agent's policy and shape both the tree and the rollouts of [`Mcts`]: a move that wins at
//! once is played; otherwise an immediate win of the opponent is blocked.
//!
//! ```
//! use bitgames::search::{Agent, AgentSpec, Position};
//! use bitgames::sequence::Game;
//!
//! let spec: AgentSpec = "mcts:300".parse()?;
//! let mut agent = Agent::<Game>::new(&spec, 7);
//! let mut game = Game::new(4, 4)?;
//! let choice = agent.choose(&game);
//! Position::play(&mut game, choice.mv);
//! assert!(choice.value.is_some_and(|v| (0.0..=1.0).contains(&v)));
//! assert!("mcts:fast".parse::<AgentSpec>().is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod agent;
pub mod duel;
mod mcts;

use std::fmt;

use crate::rng::Rng;

pub use agent::{Agent, AgentSpec, Choice, SpecError};
pub use duel::Rate;
pub(crate) use duel::Z;
pub use mcts::{Budget, Mcts, MctsConfig, Rollout};

/// One of the two players, in move order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Player {
    /// Moves first.
    First,
    /// Moves second.
    Second,
}

impl Player {
    /// The other player.
    #[inline]
    pub const fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The player won.
    Win(Player),
    /// Nobody won.
    Draw,
}

impl Outcome {
    /// What the outcome is worth to `player`: 1 for a win, 0.5 for a draw, 0 for a loss.
    #[inline]
    pub fn reward(self, player: Player) -> f32 {
        match self {
            Outcome::Win(p) if p == player => 1.0,
            Outcome::Win(_) => 0.0,
            Outcome::Draw => 0.5,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::First => "first player",
            Player::Second => "second player",
        })
    }
}

/// A position of a two-player game, as the search needs it. Implemented by
/// [`crate::sequence::Game`] and [`crate::havannah::Game`].
///
/// Moves given to [`Position::play`] are ones [`Position::moves`] listed for the position;
/// [`Position::undo`] takes back the last move played. Statistics the search keeps per move
/// (such as RAVE's all-moves-as-first counts) are keyed by `Move`, which is why it is `Eq`.
pub trait Position: Clone + Send {
    /// A move.
    type Move: Copy + Eq + fmt::Debug + Send + Sync;

    /// The player to move.
    fn to_move(&self) -> Player;

    /// `None` while the game goes on.
    fn outcome(&self) -> Option<Outcome>;

    /// Clears `out` and fills it with the legal moves (none once the game is decided).
    fn moves(&self, out: &mut Vec<Self::Move>);

    /// Plays a legal move of the player to move.
    ///
    /// # Panics
    /// May panic on a move that [`Position::moves`] did not list.
    fn play(&mut self, mv: Self::Move);

    /// Takes back the last move (nothing when none was played).
    fn undo(&mut self);

    /// Moves played since the start of the game.
    fn ply(&self) -> u32;

    /// A key of the position (equal positions have equal keys).
    fn hash(&self) -> u64;

    /// A number for `mv`, below [`Position::move_index_bound`] and different for different
    /// moves: the key of the search's per-move statistics (RAVE's all-moves-as-first counts).
    fn move_index(&self, mv: Self::Move) -> usize;

    /// The move whose [`Position::move_index`] is `index` (the search keeps its tree's moves
    /// as these numbers). Any index below [`Position::move_index_bound`] that some move of the
    /// game has.
    fn index_move(&self, index: usize) -> Self::Move;

    /// A bound on [`Position::move_index`] for every move of this game (fixed by the board's
    /// size).
    fn move_index_bound(&self) -> usize;

    /// Clears `out` and fills it with the moves played since move number `ply` (0 = all),
    /// first to last: the tree's moves and a rollout's, for RAVE.
    fn moves_since(&self, ply: u32, out: &mut Vec<Self::Move>);

    /// A move with which `player` would win at once if it were `player`'s turn now, if any
    /// (none once the game is decided). For the player to move it is a winning move; for the
    /// other player, a move the player to move has to block.
    fn winning_move(&self, player: Player) -> Option<Self::Move>;

    /// Prior knowledge for the tree ([`MctsConfig::prior`]): for each of `moves` (legal moves
    /// of this undecided position, in any order), a bonus from 0 to 255 into the same place of
    /// `out` (as long as `moves`), which the search adds to the move's value, scaled by
    /// [`MctsConfig::prior`] and fading as the move gets visits. The default knows nothing:
    /// every bonus is 0.
    fn priors(&self, moves: &[Self::Move], out: &mut [u8]) {
        let _ = moves;
        out.fill(0);
    }

    /// Plays uniformly random legal moves until the game ends and returns the outcome. The
    /// default goes through [`Position::moves`]; a game overrides it with its fast playout.
    fn playout(&mut self, rng: &mut Rng) -> Outcome {
        let mut moves = Vec::new();
        loop {
            if let Some(outcome) = self.outcome() {
                return outcome;
            }
            self.moves(&mut moves);
            let mv = moves[rng.below(moves.len() as u32) as usize];
            self.play(mv);
        }
    }

    /// A playout with decisive and anti-decisive moves: at every step a winning move of the
    /// player to move is played, else an immediate win of the opponent is blocked, else a
    /// uniformly random move is played. The default asks [`Position::winning_move`] at every
    /// step; a game may override it with a cheaper policy that looks for wins only where the
    /// last moves can have made them (Havannah looks next to the last two stones).
    fn playout_decisive(&mut self, rng: &mut Rng) -> Outcome {
        let mut moves = Vec::new();
        loop {
            if let Some(outcome) = self.outcome() {
                return outcome;
            }
            let me = self.to_move();
            let mv = match self
                .winning_move(me)
                .or_else(|| self.winning_move(me.other()))
            {
                Some(mv) => mv,
                None => {
                    self.moves(&mut moves);
                    moves[rng.below(moves.len() as u32) as usize]
                }
            };
            self.play(mv);
        }
    }

    /// A rollout with `policy` from here ([`Position::playout`] or
    /// [`Position::playout_decisive`]); returns its outcome. Either the position is left where
    /// the rollout ended and `moves` (when given) is emptied, the rollout's moves being in the
    /// position's history (the default), or, for a game that plays its rollouts on a copy,
    /// the position is left as it was and the rollout's moves are written to `moves` (when
    /// given) as their [`Position::move_index`] numbers. Either way [`Position::moves_since`]
    /// the ply before the call, followed by the moves of `moves`, lists the rollout's moves,
    /// and [`Position::rewind`] to a position before the call goes back to it.
    fn rollout(&mut self, policy: Rollout, rng: &mut Rng, moves: Option<&mut Vec<u32>>) -> Outcome {
        if let Some(moves) = moves {
            moves.clear();
        }
        match policy {
            Rollout::Decisive | Rollout::Bridges => self.playout_decisive(rng),
            Rollout::Random => self.playout(rng),
        }
    }

    /// Brings whatever the position caches for the search up to date, once before a search
    /// (the default does nothing; Sequence computes its threats here).
    fn prepare_search(&mut self) {}

    /// Takes back moves until the position is `earlier` again, which must be a position this
    /// one was reached from by playing moves.
    fn rewind(&mut self, earlier: &Self) {
        while self.ply() > earlier.ply() {
            self.undo();
        }
    }
}
