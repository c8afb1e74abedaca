//! The Sequence engine additions (Zobrist hash, the 8 symmetries, threats, legal pegs) against
//! plain recomputations, and the simulator's statistics and records.

use bitgames::rng::Rng;
use bitgames::sequence::{Color, Cube, DIRECTIONS, Game, Peg, PegSet, Symmetry};
use proptest::prelude::*;

/// A random undecided game of `len` balls or fewer (stops before the deciding ball).
fn random_game(n: u32, m: u32, len: u32, rng: &mut Rng) -> Game {
    let mut game = Game::new(n, m).unwrap();
    while game.moves_played() < len {
        let pegs: Vec<Peg> = game.legal_moves().collect();
        if pegs.is_empty() {
            break;
        }
        let p = pegs[rng.below(pegs.len() as u32) as usize];
        if game.play(p.x, p.y).unwrap().is_some() {
            game.undo();
            break;
        }
    }
    game
}

/// The hash recomputed from the balls alone (the identity image).
fn hash_from_balls(game: &Game) -> u64 {
    game.symmetric_hashes()[0]
}

/// Is the empty cell `(x, y, z)` (from 1) a threat of `color`: walking the board from it in both
/// senses of some direction, `color`'s balls and the cell make m in a row.
fn brute_threat(game: &Game, color: Color, (x, y, z): (u32, u32, u32)) -> bool {
    let n = game.n() as i64;
    DIRECTIONS.iter().any(|&(dx, dy, dz)| {
        let mut run = 1;
        for sign in [-1i64, 1] {
            let (mut a, mut b, mut c) = (x as i64, y as i64, z as i64);
            loop {
                a += sign * i64::from(dx);
                b += sign * i64::from(dy);
                c += sign * i64::from(dz);
                let inside = (1..=n).contains(&a) && (1..=n).contains(&b) && (1..=n).contains(&c);
                if !inside || game.ball(a as u32, b as u32, c as u32) != Some(color) {
                    break;
                }
                run += 1;
            }
        }
        run >= game.m()
    })
}

fn size() -> impl Strategy<Value = (u32, u32)> {
    (3u32..=7).prop_flat_map(|n| (Just(n), 3u32..=n))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// The incremental hash equals the one recomputed from the balls after every play, undo
    /// and playout.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn hash_is_kept_by_play_undo_and_playout((n, m) in size(), seed in any::<u64>(), len in 0u32..200) {
        let mut rng = Rng::new(seed);
        let mut game = random_game(n, m, len, &mut rng);
        prop_assert_eq!(game.hash(), hash_from_balls(&game));
        let mut undone = 0;
        while undone < 5 && game.undo().is_some() {
            undone += 1;
            prop_assert_eq!(game.hash(), hash_from_balls(&game));
        }
        game.playout(&mut rng);
        prop_assert_eq!(game.hash(), hash_from_balls(&game));
        let mut portable = random_game(n, m, len, &mut Rng::new(seed));
        portable.playout_portable(&mut rng);
        prop_assert_eq!(portable.hash(), hash_from_balls(&portable));
        game.reset();
        prop_assert_eq!(game.hash(), 0);
    }

    /// Two move orders that reach the same balls (two moves of one colour on different pegs
    /// swapped, no other ball on those pegs between them) give the same hash; the positions
    /// are equal cell for cell.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn transpositions_have_equal_hashes((n, m) in size(), seed in any::<u64>(), len in 4u32..120) {
        let mut rng = Rng::new(seed);
        let game = random_game(n, m, len, &mut rng);
        let moves: Vec<Peg> = game.history().collect();
        let mut swapped = None;
        'find: for i in 0..moves.len() {
            for j in (i + 2..moves.len()).step_by(2) {
                let (a, b) = (moves[i], moves[j]);
                if a != b && !moves[i + 1..j].iter().any(|&p| p == a || p == b) {
                    swapped = Some((i, j));
                    break 'find;
                }
            }
        }
        let Some((i, j)) = swapped else { return Ok(()) };
        let mut order = moves.clone();
        order.swap(i, j);
        let mut other = Game::new(n, m).unwrap();
        for p in &order {
            other.play(p.x, p.y).unwrap();
        }
        for color in [Color::Black, Color::White] {
            prop_assert_eq!(other.cube(color), game.cube(color));
        }
        prop_assert_eq!(other.hash(), game.hash());
    }

    /// The image of a game under each symmetry, played move by move, has the hash
    /// `symmetric_hashes` predicts, the same outcome, and the same canonical key.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn symmetric_games_share_the_canonical_key((n, m) in size(), seed in any::<u64>(), len in 0u32..200) {
        let mut rng = Rng::new(seed);
        let game = random_game(n, m, len, &mut rng);
        let mut rest = game.clone();
        rest.playout(&mut rng);
        let predicted = game.symmetric_hashes();
        for (k, s) in Symmetry::ALL.into_iter().enumerate() {
            let mut image = Game::new(n, m).unwrap();
            let mut whole = Game::new(n, m).unwrap();
            for p in game.history() {
                let q = s.apply(n, p);
                image.play(q.x, q.y).unwrap();
            }
            for p in rest.history() {
                let q = s.apply(n, p);
                whole.play(q.x, q.y).unwrap();
            }
            prop_assert_eq!(image.hash(), predicted[k]);
            prop_assert_eq!(image.canonical_hash(), game.canonical_hash());
            prop_assert_eq!(whole.outcome(), rest.outcome(), "{:?}", s);
        }
    }

    /// Threats, playable cells, winning pegs and legal pegs equal a brute-force scan of the
    /// board.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn threats_equal_a_brute_force_scan((n, m) in size(), seed in any::<u64>(), len in 0u32..250) {
        let mut rng = Rng::new(seed);
        let game = random_game(n, m, len, &mut rng);
        let legal: Vec<Peg> = game.legal_moves().collect();
        prop_assert_eq!(game.legal_pegs().iter().collect::<Vec<_>>(), legal.clone());
        for color in [Color::Black, Color::White] {
            let mut want = Cube::EMPTY;
            let mut playable = Cube::EMPTY;
            let mut winning = PegSet::EMPTY;
            for x in 1..=n {
                for y in 1..=n {
                    let h = game.height(x, y).unwrap();
                    for z in h + 1..=n {
                        if brute_threat(&game, color, (x, y, z)) {
                            want = want.with(x - 1, y - 1, z - 1);
                            if z == h + 1 {
                                winning = winning.with(Peg::new(x, y));
                            }
                        }
                    }
                    if h < n {
                        playable = playable.with(x - 1, y - 1, h);
                    }
                }
            }
            prop_assert_eq!(game.threats(color), want, "{:?} {:?}", color, game);
            prop_assert_eq!(game.playable(), playable);
            prop_assert_eq!(game.winning_pegs(color), winning);
            prop_assert_eq!(game.first_winning_peg(color), winning.first());
        }
        // For the player to move, a winning peg is exactly a move that wins.
        let mover = game.to_move();
        for p in legal {
            let mut g = game.clone();
            let wins = matches!(g.play(p.x, p.y).unwrap(), Some(bitgames::sequence::Outcome::Win { .. }));
            prop_assert_eq!(wins, game.winning_pegs(mover).contains(p));
        }
    }
}

#[test]
fn a_decided_game_has_no_legal_or_winning_pegs() {
    let mut game = Game::new(3, 3).unwrap();
    for (x, y) in [(1, 1), (2, 1), (1, 1), (2, 1), (1, 1)] {
        game.play(x, y).unwrap();
    }
    assert!(game.outcome().is_some());
    assert!(game.legal_pegs().is_empty());
    assert!(game.winning_pegs(Color::White).is_empty());
}
