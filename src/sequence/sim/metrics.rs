//! Game-quality metrics of self-play games, after the Ludii evaluation metrics
//! (`Evaluation/src/metrics` of <https://github.com/Ludeme/Ludii>, Stephenson, Piette, Soemers,
//! Browne) and Browne's aesthetic criteria (C. Browne, "Automatic Generation and Evaluation of
//! Recombination Games", PhD thesis, QUT 2008). Each is defined here; where ours differs
//! from Ludii's code, the doc says how.
//!
//! **Outcome metrics** (over the N games of a run; B, W, D the Black wins, White wins and
//! draws):
//! - *Balance* = 1 − |B − W| / N (Ludii `Balance`: one minus the largest difference of win
//!   rates).
//! - *AdvantageP1* = B / N (Ludii: the first player's win rate, draws not counted).
//! - *Completion* = (B + W) / N, *Drawishness* = D / N.
//! - *Duration* = the mean number of moves (balls) of a game.
//!
//! **Evaluation metrics** use, before each move i of a game of L moves, the state evaluation
//! `v_i` ∈ [0, 1]: Black's probability of winning (a draw counting ½) as the moving agent's
//! search estimates it ([`super::Record::black_values`]; Ludii uses a UCT search's estimate
//! the same way). White's is `1 − v_i`; the leader is the side above ½ (both at ½). Each is
//! computed per game, then averaged over the games where it is defined (games whose agents
//! all search):
//! - *LeadChange* = the number of i ≥ 1 whose leader differs from that of i − 1, over L − 1
//!   (Ludii also counts the first state as a change and divides by L).
//! - *Drama* = the mean over i of `max(v_i, 1 − v_i) − w_i`, `w_i` the eventual winner's
//!   evaluation (for a draw, the mean over both players: `|2v_i − 1| / 2`) (Ludii's
//!   `Drama`, its average form).
//! - *DecisivenessThreshold* = the highest evaluation the eventual loser ever had; defined
//!   for decided games only (Ludii returns −1 for draws).
//! - *DecisivenessMoves* = the first i at which the eventual winner's evaluation exceeds the
//!   threshold, over L (1 when it never does); decided games only (Ludii's code divides two
//!   integers there, which rounds every game but those at 1 down to 0).
//! - *Uncertainty* = the mean over i of `1 − |2v_i − 1|`: 1 while the outcome looks even,
//!   0 when one side is sure to win (after Browne's criterion that the outcome should stay
//!   uncertain for long).

use super::Record;
use crate::sequence::{Color, Outcome};

/// The per-game quantities the summaries are built from: what a record reduces to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GameStats {
    /// The winner, `None` for a draw.
    pub winner: Option<Color>,
    /// Moves played.
    pub length: u32,
    /// *LeadChange* of the game, if every move had an evaluation.
    pub lead_change: Option<f64>,
    /// *Drama* of the game.
    pub drama: Option<f64>,
    /// *DecisivenessThreshold* (decided games).
    pub decisiveness_threshold: Option<f64>,
    /// *DecisivenessMoves* (decided games).
    pub decisiveness_moves: Option<f64>,
    /// *Uncertainty* of the game.
    pub uncertainty: Option<f64>,
}

impl GameStats {
    /// The statistics of one game. The evaluation metrics are `None` unless every move of
    /// the game has a value.
    ///
    /// ```
    /// use bitgames::sequence::{Color, Outcome, Peg, sim::{Record, metrics::GameStats}};
    /// // Black leads, then White, then Black wins with the third move.
    /// let record = Record {
    ///     n: 3, m: 3,
    ///     moves: vec![Peg::new(1, 1), Peg::new(2, 2), Peg::new(1, 1)],
    ///     outcome: Outcome::Win { color: Color::Black, at: 3 },
    ///     values: vec![Some(0.75), Some(0.75), Some(1.0)],
    /// };
    /// let stats = GameStats::of(&record);
    /// assert_eq!(stats.lead_change, Some(1.0));
    /// assert_eq!(stats.decisiveness_threshold, Some(0.75));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn of(record: &Record) -> GameStats {
        let winner = match record.outcome {
            Outcome::Win { color, .. } => Some(color),
            Outcome::Draw => None,
        };
        let length = record.moves.len() as u32;
        let values: Option<Vec<f64>> = record.black_values().collect();
        let mut stats = GameStats {
            winner,
            length,
            lead_change: None,
            drama: None,
            decisiveness_threshold: None,
            decisiveness_moves: None,
            uncertainty: None,
        };
        let Some(v) = values.filter(|v| !v.is_empty()) else {
            return stats;
        };
        let len = v.len() as f64;
        let leader = |x: f64| x.partial_cmp(&0.5);
        let changes = v
            .windows(2)
            .filter(|w| leader(w[0]) != leader(w[1]))
            .count();
        stats.lead_change = Some(if v.len() > 1 {
            changes as f64 / (len - 1.0)
        } else {
            0.0
        });
        // The winner's evaluation at each state.
        let winner_value = |x: f64| match winner {
            Some(Color::Black) => x,
            Some(Color::White) => 1.0 - x,
            None => 0.5,
        };
        stats.drama = Some(
            v.iter()
                .map(|&x| match winner {
                    Some(_) => x.max(1.0 - x) - winner_value(x),
                    None => (2.0 * x - 1.0).abs() / 2.0,
                })
                .sum::<f64>()
                / len,
        );
        stats.uncertainty = Some(v.iter().map(|&x| 1.0 - (2.0 * x - 1.0).abs()).sum::<f64>() / len);
        if winner.is_some() {
            let threshold = v
                .iter()
                .map(|&x| 1.0 - winner_value(x))
                .fold(f64::NEG_INFINITY, f64::max);
            let first = v
                .iter()
                .position(|&x| winner_value(x) > threshold)
                .unwrap_or(v.len());
            stats.decisiveness_threshold = Some(threshold);
            stats.decisiveness_moves = Some(first as f64 / len);
        }
        stats
    }
}

pub use crate::search::Rate;
use crate::search::Z;

/// A mean with its 95 % confidence interval (normal approximation, `1.96 s / sqrt(k)`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mean {
    /// The mean of the samples.
    pub value: f64,
    /// Half the width of the 95 % interval.
    pub ci: f64,
    /// The number of samples.
    pub count: u64,
}

impl Mean {
    /// The mean of `samples` (`None` when there are none).
    pub fn of(samples: impl Iterator<Item = f64> + Clone) -> Option<Mean> {
        let count = samples.clone().count() as u64;
        if count == 0 {
            return None;
        }
        let k = count as f64;
        let mean = samples.clone().sum::<f64>() / k;
        let var = if count > 1 {
            samples.map(|x| (x - mean) * (x - mean)).sum::<f64>() / (k - 1.0)
        } else {
            0.0
        };
        Some(Mean {
            value: mean,
            ci: Z * (var / k).sqrt(),
            count,
        })
    }
}

/// Everything a run reports: outcomes, lengths and the quality metrics.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// Games played.
    pub games: u64,
    /// Black wins, White wins, draws.
    pub black_wins: u64,
    /// White wins.
    pub white_wins: u64,
    /// Draws.
    pub draws: u64,
    /// Black's win rate (= *AdvantageP1*).
    pub black: Rate,
    /// White's win rate.
    pub white: Rate,
    /// The draw rate (= *Drawishness*).
    pub draw: Rate,
    /// The decided games' rate (= *Completion*).
    pub completion: Rate,
    /// *Balance*, with the half-width of its 95 % interval (delta method).
    pub balance: (f64, f64),
    /// Game length (= *Duration*).
    pub length: Mean,
    /// Median and quartiles of the game length (nearest rank): q1, median, q3.
    pub length_quartiles: (u32, u32, u32),
    /// *LeadChange*.
    pub lead_change: Option<Mean>,
    /// *Drama*.
    pub drama: Option<Mean>,
    /// *DecisivenessThreshold*.
    pub decisiveness_threshold: Option<Mean>,
    /// *DecisivenessMoves*.
    pub decisiveness_moves: Option<Mean>,
    /// *Uncertainty*.
    pub uncertainty: Option<Mean>,
}

impl Summary {
    /// Summarises the games (in the order given: the sums, hence the last bits of the
    /// means, follow it).
    ///
    /// # Panics
    /// When `games` is empty.
    pub fn of(games: &[GameStats]) -> Summary {
        assert!(!games.is_empty(), "a summary of no games");
        let n = games.len() as u64;
        let count = |c: Option<Color>| games.iter().filter(|g| g.winner == c).count() as u64;
        let (b, w, d) = (
            count(Some(Color::Black)),
            count(Some(Color::White)),
            count(None),
        );
        let (pb, pw) = (b as f64 / n as f64, w as f64 / n as f64);
        let diff = pb - pw;
        let var = ((pb + pw) - diff * diff) / n as f64;
        let mut lengths: Vec<u32> = games.iter().map(|g| g.length).collect();
        lengths.sort_unstable();
        let rank = |q: f64| lengths[((q * n as f64).ceil() as usize).clamp(1, lengths.len()) - 1];
        let metric = |f: fn(&GameStats) -> Option<f64>| Mean::of(games.iter().filter_map(f));
        Summary {
            games: n,
            black_wins: b,
            white_wins: w,
            draws: d,
            black: Rate::of(b, n),
            white: Rate::of(w, n),
            draw: Rate::of(d, n),
            completion: Rate::of(b + w, n),
            balance: (1.0 - diff.abs(), Z * var.max(0.0).sqrt()),
            length: Mean::of(games.iter().map(|g| f64::from(g.length))).expect("at least one game"),
            length_quartiles: (rank(0.25), rank(0.5), rank(0.75)),
            lead_change: metric(|g| g.lead_change),
            drama: metric(|g| g.drama),
            decisiveness_threshold: metric(|g| g.decisiveness_threshold),
            decisiveness_moves: metric(|g| g.decisiveness_moves),
            uncertainty: metric(|g| g.uncertainty),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sequence::Peg;

    fn record(outcome: Outcome, values: &[Option<f32>]) -> Record {
        Record {
            n: 4,
            m: 4,
            moves: vec![Peg::new(1, 1); values.len()],
            outcome,
            values: values.to_vec(),
        }
    }

    fn close(a: Option<f64>, b: f64) {
        let a = a.expect("defined");
        // The agents give f32 values: equal to single precision.
        assert!((a - b).abs() < 1e-6, "{a} != {b}");
    }

    #[test]
    fn a_white_comeback_has_known_metrics() {
        // Mover's values; Black's evaluations are 0.8, 1 - 0.4 = 0.6, 0.3, 1 - 0.9 = 0.1.
        let r = record(
            Outcome::Win {
                color: Color::White,
                at: 4,
            },
            &[Some(0.8), Some(0.4), Some(0.3), Some(0.9)],
        );
        let s = GameStats::of(&r);
        assert_eq!(s.winner, Some(Color::White));
        assert_eq!(s.length, 4);
        // Leaders: B, B, W, W: one change in three steps.
        close(s.lead_change, 1.0 / 3.0);
        // White's evaluations 0.2, 0.4, 0.7, 0.9; the maxima 0.8, 0.6, 0.7, 0.9.
        close(s.drama, (0.6 + 0.2 + 0.0 + 0.0) / 4.0);
        // Black (the loser) peaked at 0.8; White first exceeds 0.8 at state 3 of 4.
        close(s.decisiveness_threshold, 0.8);
        close(s.decisiveness_moves, 3.0 / 4.0);
        // 1 - |2v - 1|: 0.4, 0.8, 0.6, 0.2.
        close(s.uncertainty, (0.4 + 0.8 + 0.6 + 0.2) / 4.0);
    }

    #[test]
    fn a_draw_has_no_decisiveness_and_half_drama() {
        let r = record(Outcome::Draw, &[Some(0.5), Some(0.3), Some(0.5)]);
        let s = GameStats::of(&r);
        // Black: 0.5, 0.7, 0.5. Leaders: both, B, both: two changes in two steps.
        close(s.lead_change, 1.0);
        close(s.drama, (0.0 + 0.2 + 0.0) / 3.0);
        assert_eq!(s.decisiveness_threshold, None);
        assert_eq!(s.decisiveness_moves, None);
        close(s.uncertainty, (1.0 + 0.6 + 1.0) / 3.0);
    }

    #[test]
    fn a_winner_who_never_passes_the_threshold_scores_one() {
        // Black wins though White was always ahead in the evaluations.
        let r = record(
            Outcome::Win {
                color: Color::Black,
                at: 2,
            },
            &[Some(0.4), Some(0.6)],
        );
        let s = GameStats::of(&r);
        // Black: 0.4, 0.4; White peaked at 0.6; Black never above it.
        close(s.decisiveness_threshold, 0.6);
        close(s.decisiveness_moves, 1.0);
        close(s.drama, (0.2 + 0.2) / 2.0);
        close(s.lead_change, 0.0);
    }

    #[test]
    fn agents_without_values_leave_the_evaluation_metrics_undefined() {
        let r = record(Outcome::Draw, &[None, Some(0.5)]);
        let s = GameStats::of(&r);
        assert_eq!(s.lead_change, None);
        assert_eq!(s.drama, None);
        assert_eq!(s.uncertainty, None);
    }

    #[test]
    fn summaries_count_rates_quartiles_and_balance() {
        let game = |winner, length| GameStats {
            winner,
            length,
            lead_change: Some(0.5),
            drama: None,
            decisiveness_threshold: None,
            decisiveness_moves: None,
            uncertainty: None,
        };
        let games = [
            game(Some(Color::Black), 10),
            game(Some(Color::Black), 20),
            game(Some(Color::White), 30),
            game(None, 40),
        ];
        let s = Summary::of(&games);
        assert_eq!((s.black_wins, s.white_wins, s.draws), (2, 1, 1));
        assert_eq!(s.black.value, 0.5);
        assert_eq!(s.completion.value, 0.75);
        assert_eq!(s.draw.value, 0.25);
        assert_eq!(s.balance.0, 0.75);
        // Its half-width: 1.96 · sqrt(((pb + pw) - (pb - pw)²) / n), the normal interval of a
        // difference of two shares of one multinomial: pb = 0.5, pw = 0.25, n = 4, so
        // 1.96 · sqrt((0.75 - 0.0625) / 4) = 1.96 · 0.41458 = 0.81256.
        assert!((s.balance.1 - 0.81256).abs() < 1e-4, "{:?}", s.balance);
        assert_eq!(s.length.value, 25.0);
        // 1.96 · sqrt(s² / n) with the sample variance s² = (15² + 5² + 5² + 15²) / 3 = 166.67:
        // 1.96 · sqrt(41.667) = 12.6517.
        assert!((s.length.ci - 12.6517).abs() < 1e-3, "{:?}", s.length);
        assert_eq!(s.length_quartiles, (10, 20, 30));
        assert_eq!(
            s.lead_change.map(|m| (m.value, m.ci, m.count)),
            Some((0.5, 0.0, 4))
        );
        assert_eq!(s.drama, None);
        // Wilson interval of 2 in 4 (a textbook value): 0.150 .. 0.850.
        assert!((s.black.low - 0.1500).abs() < 1e-3 && (s.black.high - 0.8500).abs() < 1e-3);
    }
}
