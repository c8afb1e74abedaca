//! The executable specification of 3-D Sequence: a plain 3-D array, each ball's runs counted
//! in all 13 directions when it is dropped, and a full scan from every ball in every direction
//! ([`Board::has_sequence`]) for comparing whole boards. No bit tricks; slow on purpose; short
//! enough to check by eye against the problem statement
//! ([AOJ 1249 "Make a Sequence"](https://onlinejudge.u-aizu.ac.jp/problems/1249)). The fast
//! [`Game`](super::Game) is trusted only as far as it agrees with this.

use super::{Color, Outcome, Peg, PlayError};

/// The 13 directions of a line (one of each pair of opposite directions).
const DIRECTIONS: [(i32, i32, i32); 13] = [
    (1, 0, 0),
    (0, 1, 0),
    (0, 0, 1),
    (1, 1, 0),
    (1, -1, 0),
    (1, 0, 1),
    (1, 0, -1),
    (0, 1, 1),
    (0, 1, -1),
    (1, 1, 1),
    (1, 1, -1),
    (1, -1, 1),
    (1, -1, -1),
];

/// A board of any side n ≥ 1 (not limited to 7), the ball at (x, y, z) (from 0) in
/// `cells[(x * n + y) * n + z]`: one allocation, so that a clone is cheap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    n: u32,
    m: u32,
    cells: Vec<Option<Color>>,
    moves: u32,
    outcome: Option<Outcome>,
}

impl Board {
    /// An empty n×n×n board where m in a row wins.
    pub fn new(n: u32, m: u32) -> Board {
        let side = n as usize;
        Board {
            n,
            m,
            cells: vec![None; side * side * side],
            moves: 0,
            outcome: None,
        }
    }

    /// The index of (x, y, z), coordinates from 0, in `cells`.
    fn at(&self, x: u32, y: u32, z: u32) -> usize {
        let n = self.n as usize;
        (x as usize * n + y as usize) * n + z as usize
    }

    /// The ball at `(x, y, z)`, coordinates from 1; `None` when empty or off the board.
    pub fn ball(&self, x: u32, y: u32, z: u32) -> Option<Color> {
        if x == 0 || y == 0 || z == 0 || x > self.n || y > self.n || z > self.n {
            return None;
        }
        self.cells[self.at(x - 1, y - 1, z - 1)]
    }

    /// The outcome so far.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Drops a ball of the player to move on peg `(x, y)` (from 1): the outcome when this
    /// ball decides the game.
    ///
    /// # Errors
    /// [`PlayError`], the engine's, for a decided game, a peg off the board or a full peg (in
    /// that order of precedence); the board is then unchanged.
    pub fn play(&mut self, x: u32, y: u32) -> Result<Option<Outcome>, PlayError> {
        let peg = Peg::new(x, y);
        if self.outcome.is_some() {
            return Err(PlayError::GameOver);
        }
        if x == 0 || y == 0 || x > self.n || y > self.n {
            return Err(PlayError::OffBoard { peg, n: self.n });
        }
        let bottom = self.at(x - 1, y - 1, 0);
        let balls = &mut self.cells[bottom..bottom + self.n as usize];
        let Some(z) = balls.iter().position(|c| c.is_none()) else {
            return Err(PlayError::PegFull { peg });
        };
        self.moves += 1;
        let color = Color::of_move(self.moves);
        balls[z] = Some(color);
        if self.has_sequence_through(x - 1, y - 1, z as u32) {
            self.outcome = Some(Outcome::Win {
                color,
                at: self.moves,
            });
        } else if self.moves == self.n * self.n * self.n {
            self.outcome = Some(Outcome::Draw);
        }
        Ok(self.outcome)
    }

    /// Takes back the top ball of peg `(x, y)` (from 1), which must be the last ball played,
    /// onto a game that was undecided before it (as every game is before its last legal
    /// play): the board is then as it was before that play. Off-board or empty pegs are
    /// left alone.
    pub(crate) fn undo(&mut self, x: u32, y: u32) {
        if x == 0 || y == 0 || x > self.n || y > self.n {
            return;
        }
        let bottom = self.at(x - 1, y - 1, 0);
        let balls = &mut self.cells[bottom..bottom + self.n as usize];
        if let Some(top) = balls.iter().rposition(Option::is_some) {
            debug_assert_eq!(
                balls[top],
                Some(Color::of_move(self.moves)),
                "the last ball"
            );
            balls[top] = None;
            self.moves -= 1;
            self.outcome = None;
        }
    }

    /// The balls of `color` in a row from `(x, y, z)` (from 0, itself included) stepping by
    /// `d`, until the first other cell or the edge.
    fn run(&self, (x, y, z): (i32, i32, i32), d: (i32, i32, i32), color: Color) -> u32 {
        let n = self.n as i32;
        let (mut a, mut b, mut c) = (x, y, z);
        let mut run = 0;
        while (0..n).contains(&a)
            && (0..n).contains(&b)
            && (0..n).contains(&c)
            && self.cells[self.at(a as u32, b as u32, c as u32)] == Some(color)
        {
            run += 1;
            a += d.0;
            b += d.1;
            c += d.2;
        }
        run
    }

    /// Is the ball at `(x, y, z)` (from 0) in m or more balls of its colour in a row? Counts
    /// the run through it in each of the 13 directions, both ways.
    ///
    /// [`Board::play`] asks only this of the ball it drops: the game ends at the first
    /// sequence, so before that ball there was none, and balls never move, so a sequence
    /// after it holds it. [`Board::has_sequence`] is the full scan, for comparing boards.
    fn has_sequence_through(&self, x: u32, y: u32, z: u32) -> bool {
        let Some(color) = self.cells[self.at(x, y, z)] else {
            return false;
        };
        let at = (x as i32, y as i32, z as i32);
        DIRECTIONS.iter().any(|&(dx, dy, dz)| {
            // The ball itself is in both runs.
            self.run(at, (dx, dy, dz), color) + self.run(at, (-dx, -dy, -dz), color) > self.m
        })
    }

    /// Does `color` have m or more balls in a row anywhere? Tries every ball of that colour as
    /// the start of a line in every direction.
    pub fn has_sequence(&self, color: Color) -> bool {
        let n = self.n as i32;
        for x in 0..n {
            for y in 0..n {
                for z in 0..n {
                    if self.cells[self.at(x as u32, y as u32, z as u32)] != Some(color) {
                        continue;
                    }
                    if DIRECTIONS
                        .iter()
                        .any(|&d| self.run((x, y, z), d, color) >= self.m)
                    {
                        return true;
                    }
                }
            }
        }
        false
    }
}

/// Judges a whole input in the judge format the plain way: split on white space, play every
/// dataset on a [`Board`]. Returns the answer lines of the datasets judged, and `Err` with
/// those lines when the input breaks the format (the fast judge must then fail too, after the
/// same answers).
pub fn judge(input: &[u8]) -> Result<Vec<String>, Vec<String>> {
    // Tokens are separated by ASCII white space (C's isspace); a token is decimal digits only.
    let mut tokens = input
        .split(|&c| c == b' ' || (b'\t'..=b'\r').contains(&c))
        .filter(|t| !t.is_empty())
        .map(|t| {
            let digits = std::str::from_utf8(t).ok()?;
            if !digits.bytes().all(|c| c.is_ascii_digit()) {
                return None;
            }
            digits.parse::<u64>().ok()
        });
    let mut answers = Vec::new();
    loop {
        let mut next = || tokens.next().flatten();
        let (Some(n), Some(m), Some(p)) = (next(), next(), next()) else {
            return Err(answers);
        };
        if (n, m, p) == (0, 0, 0) {
            return Ok(answers);
        }
        if !(3..=7).contains(&n) || !(3..=n).contains(&m) || !(1..=n * n * n).contains(&p) {
            return Err(answers);
        }
        let mut board = Board::new(n as u32, m as u32);
        let mut heights = vec![0u64; (n * n) as usize];
        let mut outcome = None;
        for _ in 0..p {
            let (Some(x), Some(y)) = (next(), next()) else {
                return Err(answers);
            };
            if !(1..=n).contains(&x) || !(1..=n).contains(&y) {
                return Err(answers);
            }
            let h = &mut heights[((x - 1) * n + (y - 1)) as usize];
            if *h == n {
                return Err(answers);
            }
            *h += 1;
            if outcome.is_none() {
                outcome = board
                    .play(x as u32, y as u32)
                    .expect("checked move on an undecided board");
            }
        }
        answers.push(match outcome {
            Some(Outcome::Win { color, at }) => format!("{color} {at}"),
            _ => "Draw".to_string(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_example_three_in_a_row() {
        // Black balls at (5,1,2), (5,2,2), (5,3,2) form a 3-sequence.
        let mut b = Board::new(5, 3);
        for (x, y, z) in [(5, 1, 2), (5, 2, 2), (5, 3, 2)] {
            let at = b.at(x as u32 - 1, y as u32 - 1, z as u32 - 1);
            b.cells[at] = Some(Color::Black);
        }
        assert!(b.has_sequence(Color::Black));
        assert!(!b.has_sequence(Color::White));
    }

    #[test]
    fn undo_restores_the_board_before_the_play() {
        // Random games on sides 1 to 4 with m from 1 to n: at every position, each legal play
        // taken back gives the board before it, outcome and move count included; an undo on
        // an empty or off-board peg changes nothing.
        let mut rng = crate::rng::Rng::new(7);
        for _ in 0..200 {
            let n = rng.range(1, 4);
            let mut board = Board::new(n, rng.range(1, n));
            while board.outcome().is_none() {
                for y in 0..=n + 1 {
                    for x in 0..=n + 1 {
                        let before = board.clone();
                        if before.ball(x, y, 1).is_none() {
                            board.undo(x, y);
                            assert_eq!(board, before, "peg ({x}, {y}) empty or off the board");
                        }
                        if board.play(x, y).is_ok() {
                            board.undo(x, y);
                            assert_eq!(board, before, "peg ({x}, {y})");
                        }
                    }
                }
                let (x, y) = (rng.below(n) + 1, rng.below(n) + 1);
                let _ = board.play(x, y);
            }
        }
    }

    #[test]
    fn the_runs_through_the_ball_dropped_agree_with_the_full_scan() {
        let mut rng = crate::rng::Rng::new(11);
        for _ in 0..300 {
            let n = rng.range(1, 6);
            let m = rng.range(1, n);
            let mut board = Board::new(n, m);
            while board.outcome().is_none() {
                let (x, y) = (rng.below(n) + 1, rng.below(n) + 1);
                let mover = Color::of_move(board.moves + 1);
                if let Ok(outcome) = board.play(x, y) {
                    let won = matches!(outcome, Some(Outcome::Win { .. }));
                    assert_eq!(won, board.has_sequence(mover), "n {n}, m {m}");
                }
            }
        }
    }

    #[test]
    fn sample_through_the_reference_judge() {
        let input = include_bytes!("../../tests/data/sequence.in");
        let want = include_str!("../../tests/data/sequence.out");
        assert_eq!(
            judge(input).expect("sample is valid").join("\n") + "\n",
            want
        );
    }
}
