//! The executable specification of the solver: plain minimax over the reference board
//! ([`crate::sequence::reference::Board`]), every move of every position tried, no pruning, no
//! table, no threat rules. Exponential, and short enough to check by eye; the fast solver is
//! trusted only as far as it agrees with this.

use super::Value;
use crate::sequence::reference::Board;
use crate::sequence::{Color, Outcome, Peg, PlayError};

/// The value of the position reached by `moves` from the empty n×n×n board where m in a row
/// wins (the outcome itself when the moves decide the game).
///
/// # Errors
/// The [`PlayError`] of the first move the reference board refuses.
///
/// ```
/// use bitgames::sequence::Peg;
/// use bitgames::sequence::solver::{Value, reference};
///
/// // 2×2×2 with two in a row: any two cells are in a line, so Black's second ball wins.
/// assert_eq!(reference::value(2, 2, &[])?, Value::BlackWins);
/// // Moves that decide the game: the value is their outcome (White's three on peg (2, 1)).
/// let moves = [(1, 1), (2, 1), (3, 3), (2, 1), (1, 1), (2, 1)].map(|(x, y)| Peg::new(x, y));
/// assert_eq!(reference::value(3, 3, &moves)?, Value::WhiteWins);
/// # Ok::<(), bitgames::sequence::PlayError>(())
/// ```
pub fn value(n: u32, m: u32, moves: &[Peg]) -> Result<Value, PlayError> {
    Ok(value_within(n, m, moves, u64::MAX)?.expect("an unbounded search finishes"))
}

/// As [`value`], but gives up (`Ok(None)`) once the game tree has more than `max_nodes`
/// positions.
///
/// # Errors
/// The [`PlayError`] of the first move the reference board refuses.
pub fn value_within(
    n: u32,
    m: u32,
    moves: &[Peg],
    max_nodes: u64,
) -> Result<Option<Value>, PlayError> {
    let mut board = Board::new(n, m);
    for p in moves {
        board.play(p.x, p.y)?;
    }
    let mover = Color::of_move(moves.len() as u32 + 1);
    let mut nodes = 0;
    Ok(minimax(&mut board, n, mover, &mut nodes, max_nodes))
}

/// The value of `board` with `mover` to move, or `None` past `max_nodes` positions. Each
/// move is played on `board` and taken back before the next; `board` ends as it was.
fn minimax(
    board: &mut Board,
    n: u32,
    mover: Color,
    nodes: &mut u64,
    max_nodes: u64,
) -> Option<Value> {
    *nodes += 1;
    if *nodes > max_nodes {
        return None;
    }
    match board.outcome() {
        Some(Outcome::Win {
            color: Color::Black,
            ..
        }) => return Some(Value::BlackWins),
        Some(Outcome::Win {
            color: Color::White,
            ..
        }) => return Some(Value::WhiteWins),
        Some(Outcome::Draw) => return Some(Value::Draw),
        None => {}
    }
    let mut best: Option<Value> = None;
    for y in 1..=n {
        for x in 1..=n {
            if board.play(x, y).is_err() {
                continue;
            }
            let v = minimax(board, n, mover.other(), nodes, max_nodes);
            board.undo(x, y);
            let v = v?;
            best = Some(match (best, mover) {
                (None, _) => v,
                (Some(b), Color::Black) => b.max(v),
                (Some(b), Color::White) => b.min(v),
            });
        }
    }
    // An undecided board has a free peg; a full one is a draw (already returned above).
    Some(best.unwrap_or(Value::Draw))
}
