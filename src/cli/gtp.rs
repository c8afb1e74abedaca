//! `bitgames gtp havannah`: a GTP engine on standard input and output.

use std::io::{self, BufRead, Write};

use bitgames::havannah::agent::{Agent, Greedy, Random};
use bitgames::havannah::gtp::Engine;
use bitgames::havannah::{RingRule, Rules};
use clap::{Args, ValueEnum};

use super::Failure;

/// The games with a GTP engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GtpGame {
    /// Havannah, with morat/Castro cell names (letter = column x, number = row y + 1).
    Havannah,
}

/// Who answers `genmove`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AgentKind {
    /// A uniformly random empty cell.
    Random,
    /// Win at once if possible, else block the opponent's immediate win, else random.
    Greedy,
}

/// The ring rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RingArg {
    /// A closed chain around any cells, empty or occupied (Freeling's rule).
    Official,
    /// The inside must hold an empty cell (the Code Jam problem's rule).
    CodeJam,
}

/// How the GTP engine plays.
#[derive(Args)]
pub struct GtpArgs {
    /// The game.
    game: GtpGame,
    /// The agent that chooses the engine's moves.
    #[arg(long, value_enum, default_value_t = AgentKind::Greedy)]
    agent: AgentKind,
    /// The seed of the agent's random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The ring rule.
    #[arg(long, value_enum, default_value_t = RingArg::Official)]
    ring: RingArg,
    /// Allow Black's swap (pie rule) as move 2.
    #[arg(long)]
    swap: bool,
}

/// Answers GTP commands from standard input until `quit` or the end of the input.
pub fn run(args: &GtpArgs) -> Result<(), Failure> {
    let GtpGame::Havannah = args.game;
    let agent: Box<dyn Agent> = match args.agent {
        AgentKind::Random => Box::new(Random::new(args.seed)),
        AgentKind::Greedy => Box::new(Greedy::new(args.seed)),
    };
    let ring = match args.ring {
        RingArg::Official => RingRule::Official,
        RingArg::CodeJam => RingRule::CodeJam,
    };
    let mut engine = Engine::new(agent, Rules::default().ring(ring).swap(args.swap));
    let stdin = io::stdin().lock();
    let mut stdout = io::stdout().lock();
    for line in stdin.split(b'\n') {
        let line = line.map_err(|e| Failure::run(format!("<stdin>: {e}")))?;
        // Bytes that are not UTF-8 cannot form a command: the engine answers with an error.
        let line = String::from_utf8_lossy(&line);
        if let Some(reply) = engine.respond(&line) {
            let written = stdout
                .write_all(reply.as_bytes())
                .and_then(|()| stdout.flush());
            match written {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(()),
                Err(e) => return Err(Failure::run(format!("<stdout>: {e}"))),
            }
        }
        if engine.has_quit() {
            break;
        }
    }
    Ok(())
}
