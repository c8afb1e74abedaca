//! [`Game`] and [`SmallGame`] as [`search::Position`]s: Black is the first player.

use super::{Color, Game, Outcome, Peg, SmallGame};
use crate::rng::Rng;
use crate::search::{self, Player};

impl From<Color> for Player {
    fn from(color: Color) -> Player {
        match color {
            Color::Black => Player::First,
            Color::White => Player::Second,
        }
    }
}

impl From<Player> for Color {
    fn from(player: Player) -> Color {
        match player {
            Player::First => Color::Black,
            Player::Second => Color::White,
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

/// The `search::Position` methods both engines implement alike, by their inherent methods of
/// the same names (`$game` is `Game` or `SmallGame`).
macro_rules! same_position_methods {
    ($game:ident) => {
        type Move = Peg;

        #[inline]
        fn to_move(&self) -> Player {
            $game::to_move(self).into()
        }

        #[inline]
        fn outcome(&self) -> Option<search::Outcome> {
            $game::outcome(self).map(Into::into)
        }

        fn moves(&self, out: &mut Vec<Peg>) {
            out.clear();
            out.extend(self.legal_pegs().iter());
        }

        /// # Panics
        /// On a move the game's own `play` refuses.
        #[inline]
        fn play(&mut self, mv: Peg) {
            if let Err(e) = $game::play(self, mv.x, mv.y) {
                panic!("search played a refused move: {e}");
            }
        }

        #[inline]
        fn undo(&mut self) {
            $game::undo(self);
        }

        #[inline]
        fn ply(&self) -> u32 {
            self.moves_played()
        }

        #[inline]
        fn hash(&self) -> u64 {
            $game::hash(self)
        }

        #[inline]
        fn move_index(&self, mv: Peg) -> usize {
            ((mv.x - 1) + self.n() * (mv.y - 1)) as usize
        }

        #[inline]
        fn index_move(&self, index: usize) -> Peg {
            let (n, i) = (self.n() as usize, index);
            Peg {
                x: (i % n) as u32 + 1,
                y: (i / n) as u32 + 1,
            }
        }

        fn move_index_bound(&self) -> usize {
            (self.n() * self.n()) as usize
        }

        fn moves_since(&self, ply: u32, out: &mut Vec<Peg>) {
            out.clear();
            out.extend(self.history().skip(ply as usize));
        }

        #[inline]
        fn winning_move(&self, player: Player) -> Option<Peg> {
            self.first_winning_peg(player.into())
        }

        fn playout(&mut self, rng: &mut Rng) -> search::Outcome {
            $game::playout(self, rng).into()
        }

        fn playout_decisive(&mut self, rng: &mut Rng) -> search::Outcome {
            $game::playout_decisive(self, rng).into()
        }
    };
}

impl search::Position for Game {
    same_position_methods!(Game);

    fn prepare_search(&mut self) {
        self.cache_threats();
    }

    fn rewind(&mut self, earlier: &Game) {
        self.rewind_to(earlier);
    }
}

impl search::Position for SmallGame {
    same_position_methods!(SmallGame);

    fn rewind(&mut self, earlier: &SmallGame) {
        self.rewind_to(earlier);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Position;

    #[test]
    fn move_indices_are_distinct_bounded_and_give_the_move_back() {
        for n in 1..=7 {
            let (game, small) = (Game::new(n, n.min(3)).unwrap(), SmallGame::new(n, n.min(3)));
            let mut seen = vec![false; Position::move_index_bound(&game)];
            for y in 1..=n {
                for x in 1..=n {
                    let peg = Peg { x, y };
                    let i = Position::move_index(&game, peg);
                    assert!(!seen[i], "{peg:?} shares index {i}");
                    seen[i] = true;
                    assert_eq!(Position::index_move(&game, i), peg);
                    if let Ok(small) = &small {
                        assert_eq!(Position::move_index(small, peg), i);
                        assert_eq!(Position::index_move(small, i), peg);
                    }
                }
            }
            assert!(seen.iter().all(|&s| s));
        }
    }
}
