//! The two-player engine against the flood-fill reference (both ring rules, with undos and
//! swaps), undo against replaying from scratch, and hand-drawn positions where the two ring
//! rules differ.

use bitgames::havannah::geometry::NEIGHBOURS;
use bitgames::havannah::reference::Reference;
use bitgames::havannah::{
    Cell, Color, Game, Move, Outcome, PlayError, Playouts, RingRule, Rules, Wins,
};
use bitgames::rng::Rng;
use bitgames::search::Rollout;
use proptest::prelude::*;

mod common;
use common::winning_cells;

/// One step of a test game.
#[derive(Debug, Clone, Copy)]
enum Op {
    Play(u32, u32),
    Undo,
    Swap,
}

/// A fresh game replaying `game`'s history.
fn replayed(game: &Game) -> Game {
    let mut fresh = Game::with_rules(game.board().side(), game.rules()).unwrap();
    for m in game.history().collect::<Vec<_>>() {
        fresh.play_move(m).unwrap();
    }
    fresh
}

/// Runs `ops` on the engine and the reference, comparing after every step: the result, the
/// outcome, whose turn, every cell; after an undo, the whole state against a replay.
fn differential(side: u32, rules: Rules, ops: &[Op]) {
    let mut game = Game::with_rules(side, rules).unwrap();
    // The hash-table layout of large boards, on the same moves.
    let mut hashed = Game::with_hash_table(side, rules).unwrap();
    let mut slow = Reference::new(side, rules).unwrap();
    let n = 2 * side - 1;
    for (k, &op) in ops.iter().enumerate() {
        let before = game.clone();
        let failed = match op {
            Op::Play(x, y) => {
                let fast = game.play(x, y);
                assert_eq!(fast, slow.play(x, y), "step {k}: {op:?} on S = {side}");
                assert_eq!(fast, hashed.play(x, y), "step {k}: hash table");
                fast.is_err()
            }
            Op::Swap => {
                let fast = game.swap();
                assert_eq!(fast, slow.swap(), "step {k}: swap");
                assert_eq!(fast, hashed.swap());
                fast.is_err()
            }
            Op::Undo => {
                let fast = game.undo();
                assert_eq!(fast, slow.undo(), "step {k}: undo");
                assert_eq!(fast, hashed.undo());
                assert_eq!(
                    game,
                    replayed(&game),
                    "step {k}: undo differs from a replay"
                );
                assert_eq!(game.hash(), replayed(&game).hash());
                false
            }
        };
        if failed {
            assert_eq!(game, before, "step {k}: a refused move changed the game");
        }
        assert_eq!(game, hashed, "step {k}: the layouts differ");
        assert_eq!(game.outcome(), slow.outcome(), "step {k}");
        assert_eq!(game.to_move(), slow.to_move());
        assert_eq!(game.moves_played() as usize, slow.moves().len());
        assert_eq!(game.history().collect::<Vec<_>>(), slow.moves());
        for x in 0..=n + 1 {
            for y in 0..=n + 1 {
                assert_eq!(game.stone(x, y), slow.stone(x, y), "({x}, {y})");
                assert_eq!(
                    hashed.stone(x, y),
                    slow.stone(x, y),
                    "hash table: ({x}, {y})"
                );
            }
        }
        let legal = game.legal_moves().count();
        let expected = if game.outcome().is_some() {
            0
        } else {
            let empty = game
                .board()
                .iter()
                .filter(|c| game.stone(c.x, c.y).is_none())
                .count();
            empty + usize::from(game.can_swap())
        };
        assert_eq!(legal, expected);
        // The list form, on both layouts, is the same list.
        let mut list = vec![Move::Swap];
        for g in [&game, &hashed] {
            g.legal_moves_into(&mut list);
            assert_eq!(list, g.legal_moves().collect::<Vec<_>>());
        }
        if let Some(Outcome::Win { color, .. }) = game.outcome() {
            let group = game.winning_group();
            assert!(group.iter().all(|c| game.stone(c.x, c.y) == Some(color)));
        }
    }
}

fn rules(code_jam: bool, swap: bool) -> Rules {
    let ring = if code_jam {
        RingRule::CodeJam
    } else {
        RingRule::Official
    };
    Rules::default().ring(ring).swap(swap)
}

/// Moves from raw numbers: mostly plays (inside the square around the board, so some are off
/// it), some undos and swaps.
fn ops(side: u32, raw: &[(u8, u32, u32)]) -> Vec<Op> {
    let n = 2 * side - 1;
    raw.iter()
        .map(|&(kind, x, y)| match kind {
            0..=1 => Op::Undo,
            2 => Op::Swap,
            _ => Op::Play(x % (n + 2), y % (n + 2)),
        })
        .collect()
}

/// A walk of plays: each step goes to a neighbour (0..6), jumps (6) or undoes (7).
fn walk(side: u32, steps: &[(u8, u32, u32)]) -> Vec<Op> {
    let n = 2 * side - 1;
    let (mut x, mut y) = (side, side);
    let mut out = Vec::new();
    for &(d, jx, jy) in steps {
        match d {
            0..=5 => {
                let (dx, dy) = NEIGHBOURS[d as usize];
                x = x.saturating_add_signed(dx).min(n + 1);
                y = y.saturating_add_signed(dy).min(n + 1);
            }
            6 => (x, y) = (jx % (n + 2), jy % (n + 2)),
            _ => {
                out.push(Op::Undo);
                continue;
            }
        }
        out.push(Op::Play(x, y));
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 2 } else { 200 }))]

    #[test]
    #[cfg_attr(miri, ignore)]
    fn random_games_with_undos_agree(
        side in 2u32..=10,
        code_jam in any::<bool>(),
        swap in any::<bool>(),
        raw in prop::collection::vec((0u8..16, 0u32..25, 0u32..25), 0..200),
    ) {
        differential(side, rules(code_jam, swap), &ops(side, &raw));
    }

    #[test]
    #[cfg_attr(miri, ignore)]
    fn clustered_games_agree(
        side in 2u32..=10,
        code_jam in any::<bool>(),
        steps in prop::collection::vec((0u8..8, 0u32..25, 0u32..25), 0..250),
    ) {
        differential(side, rules(code_jam, false), &walk(side, &steps));
    }

    #[test]
    #[cfg_attr(miri, ignore)]
    fn whole_boards_with_undos_agree(
        side in 2u32..=8,
        code_jam in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let mut rng = Rng::new(seed);
        let mut cells: Vec<Cell> = Game::new(side).unwrap().board().iter().collect();
        rng.shuffle(&mut cells);
        let mut ops = Vec::new();
        for c in cells {
            ops.push(Op::Play(c.x, c.y));
            if rng.below(8) == 0 {
                ops.push(Op::Undo);
                ops.push(Op::Play(c.x, c.y));
            }
        }
        differential(side, rules(code_jam, false), &ops);
    }
}

/// Plays `white` and `black` alternately, White first, expecting no end; returns the game.
fn position(side: u32, rule: RingRule, white: &[(u32, u32)], black: &[(u32, u32)]) -> Game {
    assert!(black.len() <= white.len());
    let mut game = Game::with_rules(side, Rules::default().ring(rule)).unwrap();
    for (i, &(x, y)) in white.iter().enumerate() {
        assert_eq!(game.play(x, y), Ok(None), "White ({x}, {y}) in {game:?}");
        if let Some(&(bx, by)) = black.get(i) {
            assert_eq!(game.play(bx, by), Ok(None), "Black ({bx}, {by})");
        }
    }
    game
}

/// The six cells around (5, 5) on S = 5, White's closing stone last.
const AROUND_CENTRE: [(u32, u32); 6] = [(6, 6), (5, 6), (4, 5), (4, 4), (5, 4), (6, 5)];
/// Black's far-away stones, none touching anything White builds near the centre.
const FAR: [(u32, u32); 8] = [
    (1, 1),
    (1, 2),
    (2, 1),
    (9, 9),
    (9, 8),
    (8, 9),
    (1, 5),
    (9, 5),
];

/// Plays the loop around (5, 5) with `centre` on it first (if any), the last loop stone
/// closing; returns the closing move's result under `rule`.
fn close_loop(rule: RingRule, centre: Option<Color>) -> Result<Option<Outcome>, PlayError> {
    let mut white: Vec<(u32, u32)> = Vec::new();
    let mut black: Vec<(u32, u32)> = Vec::new();
    let mut far = FAR.iter().copied();
    match centre {
        Some(Color::White) => white.push((5, 5)),
        Some(Color::Black) => {
            white.push((5, 1));
            black.push((5, 5));
        }
        None => {}
    }
    let (last, rest) = AROUND_CENTRE.split_last().unwrap();
    white.extend(rest);
    while black.len() < white.len() {
        black.push(far.next().unwrap());
    }
    let mut game = position(5, rule, &white, &black);
    let closing = game.play(last.0, last.1);
    // Undo restores the open loop, and playing again gives the same answer.
    game.undo();
    assert_eq!(game.outcome(), None);
    assert_eq!(game.play(last.0, last.1), closing);
    closing
}

fn ring_by_white(at: u32) -> Option<Outcome> {
    Some(Outcome::Win {
        color: Color::White,
        wins: Wins::RING,
        at,
    })
}

#[test]
fn a_ring_around_an_empty_cell_counts_under_both_rules() {
    for rule in [RingRule::Official, RingRule::CodeJam] {
        assert_eq!(close_loop(rule, None), Ok(ring_by_white(11)), "{rule:?}");
    }
}

#[test]
fn a_ring_around_an_own_stone_counts_only_officially() {
    // The filled ring: seven White stones in a hexagon.
    assert_eq!(
        close_loop(RingRule::Official, Some(Color::White)),
        Ok(ring_by_white(13))
    );
    assert_eq!(close_loop(RingRule::CodeJam, Some(Color::White)), Ok(None));
}

#[test]
fn a_ring_around_an_opponent_stone_counts_only_officially() {
    assert_eq!(
        close_loop(RingRule::Official, Some(Color::Black)),
        Ok(ring_by_white(13))
    );
    assert_eq!(close_loop(RingRule::CodeJam, Some(Color::Black)), Ok(None));
}

/// The cells at distance `r` from `centre`, walking around once.
fn hex_loop(centre: (u32, u32), r: u32) -> Vec<Cell> {
    let (dx, dy) = NEIGHBOURS[4];
    let mut at = Cell::new(
        centre.0.wrapping_add_signed(dx * r as i32),
        centre.1.wrapping_add_signed(dy * r as i32),
    );
    let mut cells = Vec::new();
    for (dx, dy) in NEIGHBOURS {
        for _ in 0..r {
            cells.push(at);
            at = Cell::new(at.x.wrapping_add_signed(dx), at.y.wrapping_add_signed(dy));
        }
    }
    assert_eq!(at, cells[0]);
    cells
}

#[test]
fn code_jam_rings_need_an_empty_cell_anywhere_inside() {
    // S = 6, centre (6, 6): White's loop at distance 2 closes around the centre and its six
    // neighbours: one White (joined to the loop), the others Black, and one of those left
    // empty or not. Black's spare moves go far away, touching nothing.
    let ring = hex_loop((6, 6), 2);
    let white_inside = Cell::new(7, 7);
    let spare = [
        (2, 2),
        (2, 4),
        (4, 2),
        (10, 10),
        (10, 8),
        (8, 10),
        (2, 6),
        (6, 2),
    ];
    for empty_inside in [true, false] {
        let black_inside = [(6, 6), (5, 6), (6, 5), (6, 7), (7, 6), (5, 5)];
        let black_inside = &black_inside[..6 - usize::from(empty_inside)];
        for rule in [RingRule::Official, RingRule::CodeJam] {
            let rules = Rules::default().ring(rule);
            let mut game = Game::with_rules(6, rules).unwrap();
            let mut slow = Reference::new(6, rules).unwrap();
            let white: Vec<Cell> = std::iter::once(white_inside)
                .chain(ring.iter().copied())
                .collect();
            let mut black = black_inside
                .iter()
                .chain(&spare)
                .map(|&(x, y)| Cell::new(x, y));
            for (i, &w) in white.iter().enumerate() {
                let closing = i + 1 == white.len();
                let result = game.play(w.x, w.y);
                assert_eq!(result, slow.play(w.x, w.y));
                let ring_now = matches!(
                    result,
                    Ok(Some(Outcome::Win { wins, .. })) if wins.contains(Wins::RING)
                );
                let expected = closing && (empty_inside || rule == RingRule::Official);
                assert_eq!(
                    ring_now, expected,
                    "{rule:?}, empty inside {empty_inside}, stone {i}"
                );
                if !closing {
                    let b = black.next().unwrap();
                    assert_eq!(game.play(b.x, b.y), Ok(None), "{b}");
                    slow.play(b.x, b.y).unwrap();
                }
            }
        }
    }
}

#[test]
fn bridges_forks_and_the_winning_group() {
    // S = 3: White joins corners (1, 1) and (1, 3) along the edge x = 1.
    let mut game = position(3, RingRule::Official, &[(1, 1), (1, 2)], &[(5, 5), (5, 4)]);
    let win = game.play(1, 3).unwrap();
    assert_eq!(
        win,
        Some(Outcome::Win {
            color: Color::White,
            wins: Wins::BRIDGE,
            at: 5
        })
    );
    assert_eq!(game.winner(), Some(Color::White));
    let mut group = game.winning_group();
    group.sort();
    assert_eq!(group, [Cell::new(1, 1), Cell::new(1, 2), Cell::new(1, 3)]);
    assert_eq!(game.play(3, 3), Err(PlayError::GameOver));
    assert_eq!(game.legal_moves().count(), 0);
    // S = 4: a fork of edges x = 1, y = 1 and x - y = 3, no corner.
    let fork = [(1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (2, 1)];
    let black = [(7, 7), (7, 6), (6, 7), (7, 5), (5, 7)];
    let mut game = position(4, RingRule::Official, &fork[..5], &black);
    assert_eq!(
        game.play(fork[5].0, fork[5].1).unwrap(),
        Some(Outcome::Win {
            color: Color::White,
            wins: Wins::FORK,
            at: 11
        })
    );
}

#[test]
fn a_full_board_without_a_structure_is_a_draw() {
    // Random games on S = 3 until one fills the board without a win.
    let mut rng = Rng::new(1);
    let mut game = Game::new(3).unwrap();
    let draws = (0..20_000)
        .filter(|_| {
            game.reset();
            game.playout(&mut rng) == Outcome::Draw
        })
        .count();
    assert!(draws > 0);
    // Replayed on the reference, such a game is a draw too.
    let mut rng = Rng::new(1);
    loop {
        game.reset();
        if game.playout(&mut rng) == Outcome::Draw {
            break;
        }
    }
    assert_eq!(game.moves_played(), 19);
    let mut slow = Reference::new(3, Rules::default()).unwrap();
    let moves: Vec<Move> = game.history().collect();
    for (i, m) in moves.iter().enumerate() {
        let Move::Place(c) = m else { unreachable!() };
        let expected = if i + 1 == moves.len() {
            Some(Outcome::Draw)
        } else {
            None
        };
        assert_eq!(slow.play(c.x, c.y), Ok(expected));
    }
}

#[test]
fn swap_gives_white_s_stone_to_black() {
    let mut game = Game::with_rules(4, Rules::default().swap(true)).unwrap();
    assert_eq!(game.swap(), Err(PlayError::NoSwap));
    game.play(4, 4).unwrap();
    let before = game.hash();
    assert!(game.legal_moves().any(|m| m == Move::Swap));
    game.swap().unwrap();
    assert_eq!(game.stone(4, 4), Some(Color::Black));
    assert_eq!(game.to_move(), Color::White);
    assert_ne!(game.hash(), before);
    assert_eq!(game.swap(), Err(PlayError::NoSwap));
    assert_eq!(game.undo(), Some(Move::Swap));
    assert_eq!(
        (game.stone(4, 4), game.hash()),
        (Some(Color::White), before)
    );
    let mut plain = Game::new(4).unwrap();
    plain.play(4, 4).unwrap();
    assert_eq!(plain.swap(), Err(PlayError::NoSwap));
    assert!(!plain.legal_moves().any(|m| m == Move::Swap));
}

#[test]
fn the_hash_depends_on_the_position_not_the_order() {
    let mut a = Game::new(5).unwrap();
    let mut b = Game::new(5).unwrap();
    for (x, y) in [(2, 2), (5, 5), (3, 4), (7, 7)] {
        a.play(x, y).unwrap();
    }
    for (x, y) in [(3, 4), (7, 7), (2, 2), (5, 5)] {
        b.play(x, y).unwrap();
    }
    assert_eq!(a.hash(), b.hash());
    // Same cells, colours exchanged.
    let mut c = Game::new(5).unwrap();
    for (x, y) in [(5, 5), (2, 2), (7, 7), (3, 4)] {
        c.play(x, y).unwrap();
    }
    assert_ne!(a.hash(), c.hash());
    while a.undo().is_some() {}
    assert_eq!(a.hash(), 0);
}

#[test]
#[cfg_attr(miri, ignore)]
fn large_boards_play_and_undo_with_memory_for_the_stones_only() {
    // S = 3000 (about 27 million cells): a loop around the centre with scattered stones,
    // under both rules, each move taken back and played again.
    for rule in [RingRule::Official, RingRule::CodeJam] {
        let mut game = Game::with_rules(3000, Rules::default().ring(rule)).unwrap();
        let mut rng = Rng::new(2);
        let (last, loop_cells) = AROUND_CENTRE.split_last().unwrap();
        let shift = |(x, y): (u32, u32)| (x + 2995, y + 2995);
        for &w in loop_cells {
            let (x, y) = shift(w);
            assert_eq!(game.play(x, y), Ok(None));
            let (bx, by) = (rng.range(1, 2000), rng.range(1, 2000));
            assert_eq!(game.play(bx, by), Ok(None));
            let hash = game.hash();
            game.undo();
            game.play(bx, by).unwrap();
            assert_eq!(game.hash(), hash);
        }
        let (x, y) = shift(*last);
        assert_eq!(game.play(x, y), Ok(ring_by_white(11)), "{rule:?}");
        assert_eq!(game.winning_group().len(), 6);
        // Emptied, the board holds nothing, and the same game plays out the same way.
        let history: Vec<Move> = game.history().collect();
        let hash = game.hash();
        game.reset();
        assert_eq!(
            (game.moves_played(), game.hash(), game.outcome()),
            (0, 0, None)
        );
        assert_eq!(game.stone(x, y), None);
        assert!(history.iter().all(|m| match m {
            Move::Place(c) => game.stone(c.x, c.y).is_none(),
            Move::Swap => false,
        }));
        for &m in &history {
            game.play_move(m).unwrap();
        }
        assert_eq!(game.hash(), hash);
        assert_eq!(
            game.outcome(),
            Some(Outcome::Win {
                color: Color::White,
                wins: Wins::RING,
                at: 11
            })
        );
    }
}

/// A position reached by random stones from the empty board (stopping before the end), with
/// `stones` stones at most.
fn random_position(side: u32, rule: RingRule, stones: u32, seed: u64) -> Game {
    let mut game = Game::with_rules(side, Rules::default().ring(rule)).unwrap();
    let mut rng = Rng::new(seed);
    let cells: Vec<Cell> = game.board().iter().collect();
    for _ in 0..stones {
        let empty: Vec<Cell> = cells
            .iter()
            .copied()
            .filter(|c| game.stone(c.x, c.y).is_none())
            .collect();
        let c = empty[rng.below(empty.len() as u32) as usize];
        if game.play(c.x, c.y).unwrap().is_some() {
            game.undo();
            break;
        }
    }
    game
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// `winning_cell` (read-only, on the union-find) finds a win exactly when trying every
    /// empty cell with `wins_with` (which plays it) finds one, and names one of them.
    #[test]
    fn winning_cell_finds_exactly_the_immediate_wins(
        side in 2u32..=7,
        code_jam in any::<bool>(),
        stones in 0u32..60,
        seed in any::<u64>(),
    ) {
        let rule = if code_jam { RingRule::CodeJam } else { RingRule::Official };
        let game = random_position(side, rule, stones, seed);
        for color in [Color::White, Color::Black] {
            let all = winning_cells(&game, color);
            match game.winning_cell(color) {
                Some(cell) => prop_assert!(all.contains(&cell), "{cell} not in {all:?}\n{game:?}"),
                None => prop_assert!(all.is_empty(), "missed {all:?} for {color:?}\n{game:?}"),
            }
        }
    }

    /// A decisive playout is a legal game the reference agrees with, and at every move it
    /// takes a win next to the mover's last stone if there is one, else blocks the
    /// opponent's win next to the opponent's last stone if there is one.
    #[test]
    fn decisive_playouts_win_and_block_next_to_the_last_stones(
        side in 2u32..=7,
        code_jam in any::<bool>(),
        stones in 0u32..20,
        seed in any::<u64>(),
    ) {
        let rule = if code_jam { RingRule::CodeJam } else { RingRule::Official };
        let start = random_position(side, rule, stones, seed);
        let mut game = start.clone();
        let outcome = game.playout_decisive(&mut Rng::new(seed ^ 1));
        prop_assert_eq!(game.outcome(), Some(outcome));
        let history: Vec<Move> = game.history().collect();
        let mut slow = Reference::new(side, Rules::default().ring(rule)).unwrap();
        let mut replay = Game::with_rules(side, Rules::default().ring(rule)).unwrap();
        let mut last: [Option<Cell>; 2] = [None, None];
        for (i, &m) in history.iter().enumerate() {
            let Move::Place(cell) = m else { unreachable!("playouts place stones") };
            if i >= start.moves_played() as usize {
                let me = replay.to_move();
                let near = |color: Color, from: Option<Cell>| -> Vec<Cell> {
                    let Some(from) = from else { return Vec::new() };
                    winning_cells(&replay, color)
                        .into_iter()
                        .filter(|c| NEIGHBOURS.iter().any(|&(dx, dy)| {
                            from.x.checked_add_signed(dx) == Some(c.x)
                                && from.y.checked_add_signed(dy) == Some(c.y)
                        }))
                        .collect()
                };
                let wins = near(me, last[me.index()]);
                let blocks = near(me.other(), last[me.other().index()]);
                if !wins.is_empty() {
                    prop_assert!(wins.contains(&cell), "move {i}: {cell} is no win of {wins:?}");
                } else if !blocks.is_empty() {
                    prop_assert!(blocks.contains(&cell), "move {i}: {cell} blocks none of {blocks:?}");
                }
            }
            last[replay.to_move().index()] = Some(cell);
            let fast = replay.play(cell.x, cell.y).unwrap();
            prop_assert_eq!(fast, slow.play(cell.x, cell.y).unwrap(), "move {}", i);
        }
        prop_assert_eq!(replay.outcome(), Some(outcome));
    }
}

/// `Playouts` against the game's own playouts (its reference): from the same position with
/// the same generator, the same moves and the same outcome, random and decisive, both ring
/// rules. (`Playouts` reads the game through `&Game`, so it cannot change it.)
fn playouts_agree(start: &Game, seed: u64, playouts: &mut Playouts) -> Result<(), TestCaseError> {
    for policy in [Rollout::Random, Rollout::Decisive, Rollout::Bridges] {
        let mut game = start.clone();
        let mut rng = Rng::new(seed);
        let expected = game.playout_with(policy, &mut rng);
        let mut fast_rng = Rng::new(seed);
        let outcome = playouts.playout_with(start, policy, &mut fast_rng);
        prop_assert_eq!(outcome, expected, "{:?}\n{:?}", policy, start);
        let moves: Vec<Move> = game.history().skip(start.moves_played() as usize).collect();
        prop_assert_eq!(playouts.played(), moves.len());
        prop_assert_eq!(playouts.moves().collect::<Vec<_>>(), moves);
        // Both generators drew the same numbers.
        prop_assert_eq!(fast_rng.next_u64(), rng.next_u64());
    }
    Ok(())
}

/// The first move of a playout from `start` with `policy`, on the game and on the dense
/// arrays (which must agree).
fn first_playout_move(start: &Game, policy: Rollout, seed: u64) -> Move {
    let mut game = start.clone();
    game.playout_with(policy, &mut Rng::new(seed));
    let first = game.history().nth(start.moves_played() as usize).unwrap();
    let mut playouts = Playouts::new();
    playouts.playout_with(start, policy, &mut Rng::new(seed));
    assert_eq!(playouts.moves().next(), Some(first));
    first
}

/// White's bridge (3, 3)–(4, 5) over (4, 4) and (3, 4), and a bridge of White's stone (2, 3)
/// to the edge over (1, 2) and (1, 3): Black probes one, and the bridge playouts take the
/// other cell at once, whatever the generator; the decisive ones do not.
#[test]
fn bridge_playouts_answer_a_probe() {
    for (white, probe, answer) in [
        ([(3, 3), (4, 5)], (4, 4), (3, 4)),
        ([(3, 3), (4, 5)], (3, 4), (4, 4)),
        ([(2, 3), (9, 4)], (1, 3), (1, 2)),
    ] {
        let mut start = Game::new(6).unwrap();
        for (w, b) in [(white[0], (9, 9)), (white[1], probe)] {
            start.play(w.0, w.1).unwrap();
            start.play(b.0, b.1).unwrap();
        }
        let answer = Move::Place(Cell::new(answer.0, answer.1));
        let mut decisive_elsewhere = 0;
        for seed in 0..40 {
            assert_eq!(
                first_playout_move(&start, Rollout::Bridges, seed),
                answer,
                "{start:?}"
            );
            decisive_elsewhere +=
                usize::from(first_playout_move(&start, Rollout::Decisive, seed) != answer);
        }
        assert!(decisive_elsewhere > 30, "{decisive_elsewhere}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn dense_playouts_agree_with_the_game_s_playouts(
        side in 2u32..=10,
        code_jam in any::<bool>(),
        swap in any::<bool>(),
        stones in 0u32..40,
        seed in any::<u64>(),
    ) {
        let rule = if code_jam { RingRule::CodeJam } else { RingRule::Official };
        let mut start = random_position(side, rule, stones, seed);
        if swap && start.moves_played() == 1 {
            // The swapped position: White's first stone is Black's, White to move.
            let mut swapped = Game::with_rules(side, Rules::default().ring(rule).swap(true)).unwrap();
            let Some(Move::Place(c)) = start.history().next() else { unreachable!() };
            swapped.play(c.x, c.y).unwrap();
            swapped.swap().unwrap();
            start = swapped;
        }
        // One engine for several boards and positions: its geometry follows the board.
        let mut playouts = Playouts::new();
        playouts_agree(&start, seed ^ 0x5eed, &mut playouts)?;
        let other = random_position(side % 9 + 2, rule, stones / 2, seed ^ 1);
        playouts_agree(&other, seed ^ 7, &mut playouts)?;
        playouts_agree(&start, seed ^ 8, &mut playouts)?;
    }
}

#[test]
fn playouts_from_a_finished_game_play_nothing() {
    let mut game = Game::new(2).unwrap();
    for (x, y) in [(1, 1), (2, 2), (1, 2)] {
        game.play(x, y).unwrap();
    }
    let over = game.outcome().expect("White's bridge");
    let mut playouts = Playouts::new();
    assert_eq!(playouts.random(&game, &mut Rng::new(1)), over);
    assert_eq!(playouts.moves().count(), 0);
    assert_eq!(playouts.decisive(&game, &mut Rng::new(1)), over);
    assert_eq!(playouts.moves().count(), 0);
}

/// Beyond `DENSE_MAX_SIDE` the playout runs on a copy of the game: still the game's moves.
#[test]
fn playouts_on_a_board_too_large_for_the_dense_arrays_use_a_copy() {
    let side = bitgames::havannah::DENSE_MAX_SIDE + 1;
    let mut start = Game::new(side).unwrap();
    start.play(side, side).unwrap();
    start.play(side + 1, side).unwrap();
    let mut playouts = Playouts::new();
    for seed in 0..2 {
        playouts_agree(&start, seed, &mut playouts).unwrap();
    }
    // And back to a small board with the same engine.
    playouts_agree(
        &random_position(5, RingRule::Official, 9, 3),
        4,
        &mut playouts,
    )
    .unwrap();
}
