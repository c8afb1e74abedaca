//! `bitgames gtp havannah`: a GTP engine on standard input and output.

use std::io::{self, BufRead, Read, Write};

use bitgames::havannah::agent;
use bitgames::havannah::gtp::{DEFAULT_AGENT, Engine};
use bitgames::havannah::{RingRule, Rules};
use bitgames::search::AgentSpec;
use clap::{Args, ValueEnum};

use super::Failure;

/// The games with a GTP engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GtpGame {
    /// Havannah, with morat/Castro cell names (letter = column x, number = row y + 1).
    Havannah,
}

/// The ring rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RingArg {
    /// A closed chain around any cells, empty or occupied (Freeling's rule).
    Official,
    /// The inside must hold an empty cell (the Code Jam problem's rule).
    CodeJam,
}

impl From<RingArg> for RingRule {
    fn from(ring: RingArg) -> RingRule {
        match ring {
            RingArg::Official => RingRule::Official,
            RingArg::CodeJam => RingRule::CodeJam,
        }
    }
}

/// How the GTP engine plays.
#[derive(Args)]
pub struct GtpArgs {
    /// The game.
    game: GtpGame,
    /// The agent that chooses the engine's moves: `random`, `greedy` (win at once, else block,
    /// else random) or `mcts:<iterations>` / `mcts:<seconds>s` with options `,c=`, `,rave=`,
    /// `,rollout=decisive|random|bridges`, `,expand=`, `,nodes=`, `,solve=on|off`, `,prior=`,
    /// `,threads=`.
    #[arg(long, default_value = DEFAULT_AGENT, value_parser = super::simulate::parse_agent)]
    agent: AgentSpec,
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

/// The longest command line read (bytes, line feed included); a longer line gets an error reply.
const MAX_LINE: usize = 1 << 20;

/// Answers GTP commands from standard input until `quit` or the end of the input.
pub fn run(args: &GtpArgs) -> Result<(), Failure> {
    let GtpGame::Havannah = args.game;
    let agent = agent::from_spec(&args.agent, args.seed);
    let rules = Rules::default().ring(args.ring.into()).swap(args.swap);
    let mut engine = Engine::new(agent, rules);
    let mut stdin = io::stdin().lock();
    let mut stdout = io::stdout().lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        let read = (&mut stdin)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut line)
            .map_err(|e| Failure::run(format!("<stdin>: {e}")))?;
        if read == 0 {
            break;
        }
        let reply = if line.len() > MAX_LINE && line.last() != Some(&b'\n') {
            // Memory stays bounded whatever the input: the rest of the line is skipped unread.
            skip_line(&mut stdin).map_err(|e| Failure::run(format!("<stdin>: {e}")))?;
            Some(format!(
                "? line too long: a command has at most {MAX_LINE} bytes\n\n"
            ))
        } else {
            // Bytes that are not UTF-8 cannot form a command: the engine answers with an error.
            let command = line.strip_suffix(b"\n").unwrap_or(&line);
            engine.respond(&String::from_utf8_lossy(command))
        };
        if let Some(reply) = reply {
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

/// Consumes input up to and including the next line feed (or to the end).
fn skip_line(input: &mut impl BufRead) -> io::Result<()> {
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        if let Some(end) = buf.iter().position(|&b| b == b'\n') {
            input.consume(end + 1);
            return Ok(());
        }
        let all = buf.len();
        input.consume(all);
    }
}
