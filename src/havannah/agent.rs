//! Players for [`Game`]: the [`Agent`] trait the [GTP engine](super::gtp) asks for moves, and
//! two simple agents, [`Random`] and [`Greedy`]. A search agent plugs in by implementing
//! [`Agent`].
//!
//! ```
//! use bitgames::havannah::agent::{Agent, Greedy};
//! use bitgames::havannah::{Game, Move};
//!
//! let mut game = Game::new(2)?;
//! game.play(1, 1)?;
//! game.play(2, 2)?;
//! // White can join (1, 1) to a second corner: Greedy takes the win.
//! let mut greedy = Greedy::new(1);
//! let Some(Move::Place(cell)) = greedy.choose(&game) else { panic!("a move") };
//! assert!(game.play(cell.x, cell.y)?.is_some());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use super::{Cell, Game, Move};
use crate::rng::Rng;

/// Something that picks moves.
pub trait Agent: fmt::Debug {
    /// The agent's name, as the GTP engine reports it.
    fn name(&self) -> &'static str;

    /// A legal move for the player to move in `game`, or `None` when the game is over.
    fn choose(&mut self, game: &Game) -> Option<Move>;
}

/// Plays a uniformly random empty cell (never the swap).
#[derive(Debug, Clone)]
pub struct Random {
    rng: Rng,
    empty: Vec<Cell>,
}

impl Random {
    /// A random agent drawing from the seed `seed`.
    pub fn new(seed: u64) -> Random {
        Random {
            rng: Rng::new(seed),
            empty: Vec::new(),
        }
    }
}

/// The empty cells of `game` (none once it is over) into `empty`.
fn empty_cells(game: &Game, empty: &mut Vec<Cell>) {
    empty.clear();
    empty.extend(game.legal_moves().filter_map(|m| match m {
        Move::Place(cell) => Some(cell),
        Move::Swap => None,
    }));
}

impl Agent for Random {
    fn name(&self) -> &'static str {
        "random"
    }

    fn choose(&mut self, game: &Game) -> Option<Move> {
        empty_cells(game, &mut self.empty);
        if self.empty.is_empty() {
            return None;
        }
        let i = self.rng.below(self.empty.len() as u32) as usize;
        Some(Move::Place(self.empty[i]))
    }
}

/// Wins at once where it can; otherwise blocks a cell where the opponent would win at once;
/// otherwise plays at random. (One ply each way: a double threat still loses.)
#[derive(Debug, Clone)]
pub struct Greedy {
    random: Random,
    scratch: Option<Game>,
}

impl Greedy {
    /// A greedy agent whose random moves come from the seed `seed`.
    pub fn new(seed: u64) -> Greedy {
        Greedy {
            random: Random::new(seed),
            scratch: None,
        }
    }
}

impl Agent for Greedy {
    fn name(&self) -> &'static str {
        "greedy"
    }

    fn choose(&mut self, game: &Game) -> Option<Move> {
        empty_cells(game, &mut self.random.empty);
        let scratch = match &mut self.scratch {
            Some(scratch) => {
                scratch.clone_from(game);
                scratch
            }
            slot @ None => slot.insert(game.clone()),
        };
        let me = game.to_move();
        for color in [me, me.other()] {
            let decisive = self.random.empty.iter().find(|c| {
                scratch
                    .wins_with(color, c.x, c.y)
                    .is_ok_and(|wins| !wins.is_empty())
            });
            if let Some(&cell) = decisive {
                return Some(Move::Place(cell));
            }
        }
        self.random.choose(game)
    }
}
