//! Players for [`Game`]: the [`Agent`] trait the [GTP engine](super::gtp) asks for moves, and
//! its implementation by the game-generic [`search::Agent`]: `random`, `greedy` and `mcts`
//! (UCT with RAVE, decisive rollouts, tree reuse and threads), chosen by a spec string
//! ([`AgentSpec`]).
//!
//! ```
//! use bitgames::havannah::agent::{self, Agent};
//! use bitgames::havannah::{Game, Move};
//!
//! let mut game = Game::new(2)?;
//! game.play(1, 1)?;
//! game.play(2, 2)?;
//! // White can join (1, 1) to a second corner: greedy takes the win.
//! let mut greedy = agent::from_spec(&"greedy".parse()?, 1);
//! let Some(Move::Place(cell)) = greedy.choose(&game) else { panic!("a move") };
//! assert!(game.play(cell.x, cell.y)?.is_some());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::time::Duration;

use super::{Game, Move};
use crate::search::{self, AgentSpec};

/// Something that picks moves.
pub trait Agent: fmt::Debug + Send {
    /// The agent's name, as the GTP engine reports it.
    fn name(&self) -> &'static str;

    /// A legal move for the player to move in `game`, or `None` when the game is over.
    fn choose(&mut self, game: &Game) -> Option<Move> {
        self.choose_within(game, None)
    }

    /// [`Agent::choose`], taking `limit` at most (the share of a game clock for this move).
    fn choose_within(&mut self, game: &Game, limit: Option<Duration>) -> Option<Move>;
}

/// The agent `spec` describes, its random choices seeded by `seed`.
pub fn from_spec(spec: &AgentSpec, seed: u64) -> Box<dyn Agent> {
    Box::new(Searcher(search::Agent::new(spec, seed)))
}

/// A [`search::Agent`] playing Havannah.
struct Searcher(search::Agent<Game>);

impl fmt::Debug for Searcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Agent({})", self.name())
    }
}

impl Agent for Searcher {
    fn name(&self) -> &'static str {
        match &self.0 {
            search::Agent::Random(_) => "random",
            search::Agent::Greedy(_) => "greedy",
            search::Agent::Mcts(_) => "mcts",
        }
    }

    fn choose_within(&mut self, game: &Game, limit: Option<Duration>) -> Option<Move> {
        if game.outcome().is_some() {
            return None;
        }
        Some(self.0.choose_within(game, limit).mv)
    }
}
