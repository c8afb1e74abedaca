//! [`Game`] as a [`search::Position`]: White is the first player.
//!
//! The search sees [`Move`]s: the empty cells and, under the swap rule, [`Move::Swap`] as
//! Black's first move. Rollouts play stones only, as [`Game::playout`] and
//! [`Game::playout_decisive`] do, on a [`Playouts`](super::Playouts) engine kept in the game (boards up to
//! side [`DENSE_MAX_SIDE`]) or on the game itself.

use super::{Cell, Color, DENSE_MAX_SIDE, Game, Move, Outcome};
use crate::rng::Rng;
use crate::search::{self, Player, Rollout};

impl From<Color> for Player {
    fn from(color: Color) -> Player {
        match color {
            Color::White => Player::First,
            Color::Black => Player::Second,
        }
    }
}

impl From<Player> for Color {
    fn from(player: Player) -> Color {
        match player {
            Player::First => Color::White,
            Player::Second => Color::Black,
        }
    }
}

impl From<Outcome> for search::Outcome {
    fn from(outcome: Outcome) -> search::Outcome {
        match outcome {
            Outcome::Win { color, .. } => search::Outcome::Win(color.into()),
            Outcome::Draw => search::Outcome::Draw,
        }
    }
}

/// [`search::Position::move_index`] of `mv` on a board of n × n cells (n = 2S − 1): cells by x
/// then y, then the swap.
#[inline]
pub(super) fn move_index(n: u32, mv: Move) -> u32 {
    match mv {
        Move::Place(c) => (c.x - 1) * n + (c.y - 1),
        Move::Swap => n * n,
    }
}

impl search::Position for Game {
    type Move = Move;

    #[inline]
    fn to_move(&self) -> Player {
        Game::to_move(self).into()
    }

    #[inline]
    fn outcome(&self) -> Option<search::Outcome> {
        Game::outcome(self).map(Into::into)
    }

    fn moves(&self, out: &mut Vec<Move>) {
        self.legal_moves_into(out);
    }

    /// # Panics
    /// On a move [`Game::play_move`] refuses.
    #[inline]
    fn play(&mut self, mv: Move) {
        if let Err(e) = self.play_move(mv) {
            panic!("search played a refused move: {e}");
        }
    }

    #[inline]
    fn undo(&mut self) {
        Game::undo(self);
    }

    #[inline]
    fn ply(&self) -> u32 {
        self.moves_played()
    }

    #[inline]
    fn hash(&self) -> u64 {
        Game::hash(self)
    }

    /// Cells of the (2S − 1)² array by x then y, then the swap.
    #[inline]
    fn move_index(&self, mv: Move) -> usize {
        move_index(self.board().n(), mv) as usize
    }

    #[inline]
    fn index_move(&self, index: usize) -> Move {
        let n = self.board().n() as usize;
        if index == n * n {
            Move::Swap
        } else {
            Move::Place(Cell::new((index / n) as u32 + 1, (index % n) as u32 + 1))
        }
    }

    fn move_index_bound(&self) -> usize {
        let n = self.board().n() as usize;
        n * n + 1
    }

    fn moves_since(&self, ply: u32, out: &mut Vec<Move>) {
        Game::moves_since(self, ply, out);
    }

    #[inline]
    fn winning_move(&self, player: Player) -> Option<Move> {
        self.winning_cell(player.into()).map(Move::Place)
    }

    /// Stones that touch more corners and edges, and answers to a probe of a bridge
    /// ([`Game`]'s `priors`).
    fn priors(&self, moves: &[Move], out: &mut [u8]) {
        Game::priors(self, moves, out);
    }

    fn playout(&mut self, rng: &mut Rng) -> search::Outcome {
        Game::playout(self, rng).into()
    }

    fn playout_decisive(&mut self, rng: &mut Rng) -> search::Outcome {
        Game::playout_decisive(self, rng).into()
    }

    /// On boards up to [`DENSE_MAX_SIDE`], on a kept [`Playouts`](super::Playouts): the game
    /// is left as it was and the moves go to `moves`. Larger boards play on the game itself.
    fn rollout(
        &mut self,
        policy: Rollout,
        rng: &mut Rng,
        moves: Option<&mut Vec<u32>>,
    ) -> search::Outcome {
        if self.board().side() > DENSE_MAX_SIDE {
            if let Some(moves) = moves {
                moves.clear();
            }
            return Game::playout_with(self, policy, rng).into();
        }
        let mut playouts = self.scratch.0.take().unwrap_or_default();
        let outcome = playouts.playout_with(self, policy, rng);
        if let Some(moves) = moves {
            moves.clear();
            moves.extend(playouts.move_indices());
        }
        self.scratch.0 = Some(playouts);
        outcome.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::havannah::{Cell, Rules};
    use crate::search::Position;

    #[test]
    fn a_swap_changes_the_key() {
        let mut game = Game::with_rules(4, Rules::default().swap(true)).unwrap();
        game.play(4, 4).unwrap();
        let before = Position::hash(&game);
        game.swap().unwrap();
        assert_ne!(Position::hash(&game), before);
        assert_eq!(game.stone(4, 4), Some(Color::Black));
    }

    #[test]
    fn move_indices_are_distinct_and_bounded() {
        let game = Game::with_rules(5, Rules::default().swap(true)).unwrap();
        let mut seen = vec![false; game.move_index_bound()];
        let mut moves: Vec<Move> = game.legal_moves().collect();
        moves.push(Move::Swap);
        for mv in moves {
            let i = game.move_index(mv);
            assert!(!seen[i], "{mv:?} shares index {i}");
            seen[i] = true;
            assert_eq!(game.index_move(i), mv);
        }
        assert_eq!(game.move_index(Move::Place(Cell::new(1, 1))), 0);
    }

    #[test]
    fn moves_since_lists_the_tail_of_the_history() {
        let mut game = Game::new(4).unwrap();
        for (x, y) in [(1, 1), (4, 4), (2, 3)] {
            game.play(x, y).unwrap();
        }
        let mut out = vec![Move::Swap];
        game.moves_since(1, &mut out);
        assert_eq!(
            out,
            [Move::Place(Cell::new(4, 4)), Move::Place(Cell::new(2, 3))]
        );
        game.moves_since(9, &mut out);
        assert!(out.is_empty());
    }
}
