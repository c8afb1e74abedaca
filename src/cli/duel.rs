//! `bitgames duel`: a match between two agents on one game and board, colours alternating, on
//! every core; the win rate with its 95 % interval.

use std::io::Write;

use bitgames::havannah::{self, Rules};
use bitgames::search::AgentSpec;
use bitgames::search::duel::{self, Duel};
use bitgames::sequence;
use clap::{Args, ValueEnum};
use serde_json::json;

use super::Failure;
use super::simulate::parse_agent;

/// The games a duel can be played on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DuelGame {
    /// Havannah (official rules unless --ring says otherwise), side --side.
    Havannah,
    /// 3-D Sequence on --n and --m.
    Sequence,
}

/// What to play.
#[derive(Args)]
pub struct DuelArgs {
    /// The game.
    game: DuelGame,
    /// Agent A: random, greedy, mcts:<iterations> or mcts:<seconds>s, with options (see
    /// `bitgames simulate --help`).
    #[arg(long, value_parser = parse_agent)]
    a: AgentSpec,
    /// Agent B.
    #[arg(long, value_parser = parse_agent)]
    b: AgentSpec,
    /// Games to play; A moves first in games 1, 3, 5, ..., B in the others.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// The match's seed (each game's agents are seeded from it).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Havannah: the board's side.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(2..=127))]
    side: u32,
    /// Havannah: the ring rule.
    #[arg(long, value_enum, default_value_t = super::gtp::RingArg::Official)]
    ring: super::gtp::RingArg,
    /// Sequence: the board side n.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=7))]
    n: u32,
    /// Sequence: the winning length m.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=7))]
    m: u32,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
}

/// Plays the match and prints its result.
pub fn run(args: &DuelArgs) -> Result<(), Failure> {
    let result = match args.game {
        DuelGame::Havannah => {
            let start =
                havannah::Game::with_rules(args.side, Rules::default().ring(args.ring.into()))
                    .map_err(|e| Failure::usage(e.to_string()))?;
            duel::play(&start, &args.a, &args.b, args.games, args.seed)
        }
        DuelGame::Sequence => {
            let start =
                sequence::Game::new(args.n, args.m).map_err(|e| Failure::usage(e.to_string()))?;
            duel::play(&start, &args.a, &args.b, args.games, args.seed)
        }
    };
    let text = report(args, &result);
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| Failure::run(format!("<stdout>: {e}")))
}

/// The result as text or JSON.
fn report(args: &DuelArgs, d: &Duel) -> String {
    let rate = d.a_rate();
    let board = match args.game {
        DuelGame::Havannah => format!("havannah side {}", args.side),
        DuelGame::Sequence => format!("sequence n {} m {}", args.n, args.m),
    };
    if args.json {
        let value = json!({
            "game": board,
            "a": args.a.to_string(),
            "b": args.b.to_string(),
            "seed": args.seed,
            "games": d.games,
            "a_wins": d.a_wins,
            "b_wins": d.b_wins,
            "draws": d.draws,
            "first_player_wins": d.first_player_wins,
            "mean_length": d.mean_length(),
            "a_win_rate": {"value": rate.value, "low": rate.low, "high": rate.high},
        });
        return format!("{value}\n");
    }
    format!(
        "{board}: A = {} against B = {}, {} games (seed {})\n\
         A wins {}, B wins {}, draws {}; the first player won {}\n\
         A's win rate {:.1} % (95 % interval {:.1} .. {:.1} %), mean length {:.1} moves\n",
        args.a,
        args.b,
        d.games,
        args.seed,
        d.a_wins,
        d.b_wins,
        d.draws,
        d.first_player_wins,
        100.0 * rate.value,
        100.0 * rate.low,
        100.0 * rate.high,
        d.mean_length(),
    )
}
