//! The fast engine against the flood-fill reference, and named positions.

use bitgames::havannah::geometry::{Cell, NEIGHBOURS};
use bitgames::havannah::judge::Judge;
use bitgames::havannah::reference::Stones as Reference;
use bitgames::havannah::{Stones, Wins};
use bitgames::judge::{Options, run};
use proptest::prelude::*;

/// Plays `moves` on both engines, comparing every result, the occupancy and the first win.
fn differential(side: u32, moves: &[(u32, u32)]) {
    let mut game = Stones::new(side).unwrap();
    let mut sparse = Stones::with_capacity(side, 1).unwrap();
    let mut slow = Reference::new(side).unwrap();
    for (k, &(x, y)) in moves.iter().enumerate() {
        let expected = slow.play(x, y);
        assert_eq!(
            game.play(x, y),
            expected,
            "move {k} ({x}, {y}) on S = {side}"
        );
        assert_eq!(sparse.play(x, y), expected, "sparse: move {k} ({x}, {y})");
        assert_eq!(game.first_win(), slow.first_win(), "after move {k}");
        assert_eq!(sparse.first_win(), slow.first_win());
        assert_eq!(game.is_occupied(x, y), slow.is_occupied(x, y));
    }
    let n = 2 * side - 1;
    for x in 0..=n + 1 {
        for y in 0..=n + 1 {
            assert_eq!(game.is_occupied(x, y), slow.is_occupied(x, y));
        }
    }
    assert_eq!(game.stones().len(), sparse.stones().len());
}

/// A walk: each step goes to a neighbour (0..6) or jumps (6, 7) to (jx, jy).
fn walk(side: u32, start: (u32, u32), steps: &[(u8, u32, u32)]) -> Vec<(u32, u32)> {
    let n = 2 * side - 1;
    let (mut x, mut y) = start;
    let mut out = vec![(x, y)];
    for &(d, jx, jy) in steps {
        if d < 6 {
            let (dx, dy) = NEIGHBOURS[d as usize];
            x = x.saturating_add_signed(dx).min(n + 1);
            y = y.saturating_add_signed(dy).min(n + 1);
        } else {
            (x, y) = (jx % (n + 2), jy % (n + 2));
        }
        out.push((x, y));
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 2 } else { 300 }))]

    #[test]
    #[cfg_attr(miri, ignore)]
    fn random_moves_agree_with_the_reference(
        side in 2u32..=12,
        raw in prop::collection::vec((0u32..25, 0u32..25), 0..250),
    ) {
        let n = 2 * side - 1;
        let moves: Vec<(u32, u32)> = raw.iter().map(|&(x, y)| (x % (n + 2), y % (n + 2))).collect();
        differential(side, &moves);
    }

    #[test]
    #[cfg_attr(miri, ignore)]
    fn clustered_walks_agree_with_the_reference(
        side in 2u32..=12,
        start in (1u32..24, 1u32..24),
        steps in prop::collection::vec((0u8..8, 0u32..25, 0u32..25), 0..300),
    ) {
        let n = 2 * side - 1;
        let start = (start.0.min(n), start.1.min(n));
        differential(side, &walk(side, start, &steps));
    }

    /// Boards of side 33 to 45 reach y = 63, 64 and 127, 128: walks there cross the sparse
    /// layout's 64-cell row segments.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn walks_across_row_segments_agree(
        side in 33u32..=45,
        start in (55u32..75, 55u32..75),
        steps in prop::collection::vec((0u8..8, 50u32..90, 50u32..90), 0..200),
    ) {
        let n = 2 * side - 1;
        let start = (start.0.min(n), start.1.min(n));
        differential(side, &walk(side, start, &steps));
    }

    #[test]
    #[cfg_attr(miri, ignore)]
    fn whole_boards_in_random_order_agree(side in 2u32..=9, seed in any::<u64>()) {
        let mut cells: Vec<(u32, u32)> = Stones::new(side).unwrap().board().iter().map(|c| (c.x, c.y)).collect();
        bitgames::rng::Rng::new(seed).shuffle(&mut cells);
        differential(side, &cells);
    }
}

/// Plays `moves`, expecting no win before the last one and `wins` on it.
fn expect_last(side: u32, moves: &[(u32, u32)], wins: Wins) {
    differential(side, moves);
    let mut game = Stones::new(side).unwrap();
    let (last, before) = moves.split_last().unwrap();
    for &(x, y) in before {
        assert_eq!(game.play(x, y), Ok(Wins::NONE), "({x}, {y})");
    }
    assert_eq!(game.play(last.0, last.1), Ok(wins));
    let expected = (!wins.is_empty()).then_some((wins, moves.len() as u32));
    assert_eq!(game.first_win(), expected);
}

#[test]
fn loop_around_an_occupied_centre_is_no_ring() {
    let around = [(2, 2), (2, 3), (3, 4), (4, 4), (4, 3), (3, 2)];
    let mut filled = vec![(3, 3)];
    filled.extend(around);
    expect_last(3, &filled, Wins::NONE);
    let mut open = around.to_vec();
    open.push((3, 3));
    let mut game = Stones::new(3).unwrap();
    for (x, y) in around {
        game.play(x, y).unwrap();
    }
    assert_eq!(game.first_win(), Some((Wins::RING, 6)));
    // Filling the hole closes nothing new.
    assert_eq!(game.play(3, 3), Ok(Wins::NONE));
    differential(3, &open);
}

#[test]
fn ring_touching_the_border() {
    // Around (2, 2) on S = 3: three of the six are border cells, one a corner.
    expect_last(
        3,
        &[(1, 1), (1, 2), (2, 3), (3, 3), (3, 2), (2, 1)],
        Wins::RING,
    );
}

#[test]
fn ring_closed_together_with_a_bridge() {
    // The loop around (2, 2) holds corner (1, 3); the corner (1, 1) closes it.
    expect_last(
        3,
        &[(1, 3), (1, 2), (2, 3), (3, 3), (3, 2), (2, 1), (1, 1)],
        Wins::BRIDGE.with(Wins::RING),
    );
}

#[test]
fn ring_closed_together_with_a_fork() {
    // S = 4: a loop around (3, 2) touching edges y = 1 and x = 1; (4, 2) closes it and
    // joins (5, 2) on the edge x - y = 3.
    expect_last(
        4,
        &[
            (1, 2),
            (2, 2),
            (2, 1),
            (3, 1),
            (3, 3),
            (4, 3),
            (5, 2),
            (4, 2),
        ],
        Wins::FORK.with(Wins::RING),
    );
}

/// Hexagonal distance between two cells.
fn distance(a: (i64, i64), b: (i64, i64)) -> i64 {
    let (dx, dy) = (a.0 - b.0, a.1 - b.1);
    (dx.abs() + dy.abs() + (dx - dy).abs()) / 2
}

/// The cells at distance `r` from `centre`, walking around once.
fn hex_loop(centre: (i64, i64), r: i64) -> Vec<(u32, u32)> {
    let (dx, dy) = NEIGHBOURS[4];
    let mut at = (centre.0 + r * i64::from(dx), centre.1 + r * i64::from(dy));
    let mut cells = Vec::new();
    for (dx, dy) in NEIGHBOURS {
        for _ in 0..r {
            assert_eq!(distance(at, centre), r);
            cells.push((at.0 as u32, at.1 as u32));
            at = (at.0 + i64::from(dx), at.1 + i64::from(dy));
        }
    }
    assert_eq!(at, (cells[0].0.into(), cells[0].1.into()));
    cells
}

#[test]
#[cfg_attr(miri, ignore)]
fn big_loops_close_on_the_last_stone() {
    for side in [5u32, 8, 12] {
        let centre = (i64::from(side), i64::from(side));
        for r in 1..=i64::from(side) - 2 {
            let cells = hex_loop(centre, r);
            assert_eq!(cells.len() as i64, 6 * r);
            expect_last(side, &cells, Wins::RING);
            // With every enclosed cell filled first, closing the loop is no ring.
            let mut inside: Vec<(u32, u32)> = Stones::new(side)
                .unwrap()
                .board()
                .iter()
                .filter(|c| distance((c.x.into(), c.y.into()), centre) < r)
                .map(|c| (c.x, c.y))
                .collect();
            inside.extend(&cells);
            expect_last(side, &inside, Wins::NONE);
        }
    }
}

#[test]
#[cfg_attr(miri, ignore)]
fn huge_board_loop_around_a_huge_empty_area() {
    let side = 3000u32;
    let centre = (3000i64, 3000i64);
    let ring = hex_loop(centre, 1500);
    assert_eq!(ring.len(), 9000);
    // 1000 scattered stones away from the loop and the border, then the loop, interleaved.
    let mut rng = bitgames::rng::Rng::new(5);
    let mut scattered = Vec::new();
    let mut seen = std::collections::HashSet::new();
    while scattered.len() < 1000 {
        let c = (rng.range(1, 5999), rng.range(1, 5999));
        let d = distance((c.0.into(), c.1.into()), centre);
        if ((3..1490).contains(&d) || (1510..2990).contains(&d)) && seen.insert(c) {
            scattered.push(c);
        }
    }
    let mut moves = Vec::with_capacity(10_000);
    let mut rest = scattered.into_iter();
    for (i, &cell) in ring.iter().enumerate() {
        moves.push(cell);
        if i % 9 == 0 {
            moves.extend(rest.next());
        }
    }
    moves.extend(rest);
    let last = moves
        .iter()
        .position(|&c| c == ring[ring.len() - 1])
        .unwrap();
    moves.remove(last);
    moves.push(ring[ring.len() - 1]);
    assert_eq!(moves.len(), 10_000);

    let start = std::time::Instant::now();
    let mut game = Stones::with_capacity(side, moves.len()).unwrap();
    for (k, &(x, y)) in moves.iter().enumerate() {
        let wins = game.play(x, y).unwrap();
        assert_eq!(wins.is_empty(), k + 1 < moves.len(), "move {}", k + 1);
    }
    assert_eq!(game.first_win(), Some((Wins::RING, 10_000)));

    let mut input = format!("1\n{side} {}\n", moves.len());
    for (x, y) in &moves {
        input += &format!("{x} {y}\n");
    }
    let mut out = Vec::new();
    run(&Judge, input.as_bytes(), &mut out, Options::default()).unwrap();
    assert_eq!(out, b"Case #1: ring in move 10000\n");
    assert!(start.elapsed().as_secs() < 10, "{:?}", start.elapsed());
}

#[test]
fn after_a_win_play_goes_on_and_reports_per_move() {
    let mut game = Stones::new(3).unwrap();
    for (x, y) in [(1, 1), (1, 2)] {
        game.play(x, y).unwrap();
    }
    assert_eq!(game.play(1, 3), Ok(Wins::BRIDGE));
    assert_eq!(game.first_win(), Some((Wins::BRIDGE, 3)));
    // A separate group with one corner: no bridge for this move.
    assert_eq!(game.play(5, 5), Ok(Wins::NONE));
    assert_eq!(game.first_win(), Some((Wins::BRIDGE, 3)));
    assert_eq!(game.stones().last(), Some(&Cell::new(5, 5)));
}
