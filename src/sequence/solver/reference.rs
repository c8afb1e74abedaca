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
/// // 2×2×2 with two in a row: Black's second ball always completes a pair.
/// assert_eq!(reference::value(2, 2, &[])?, Value::BlackWins);
/// // Black has (1, 1) and (2, 1) at the bottom of a 3×3×3 board: it completes the row or the
/// // peg next move whatever White does.
/// let moves = [Peg::new(1, 1), Peg::new(3, 3), Peg::new(2, 1), Peg::new(3, 3)];
/// assert_eq!(reference::value(3, 3, &moves)?, Value::BlackWins);
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
    Ok(minimax(&board, n, mover, &mut nodes, max_nodes))
}

/// The value of `board` with `mover` to move, or `None` past `max_nodes` positions.
fn minimax(board: &Board, n: u32, mover: Color, nodes: &mut u64, max_nodes: u64) -> Option<Value> {
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
            let mut child = board.clone();
            if child.play(x, y).is_err() {
                continue;
            }
            let v = minimax(&child, n, mover.other(), nodes, max_nodes)?;
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
