//! Agents chosen by a spec string: `random`, `greedy`, `mcts:<iterations>`, `mcts:<seconds>s`.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use super::mcts::{Budget, Mcts, MctsConfig, Rollout};
use super::{Player, Position};
use crate::rng::Rng;

/// The most threads an `mcts` spec may ask for.
pub const MAX_THREADS: u32 = 256;

/// What an agent is, as written on a command line.
///
/// - `random`: a uniformly random legal move;
/// - `greedy`: a winning move if there is one, else a move that blocks the opponent's
///   immediate win, else a random move;
/// - `mcts:N` (N iterations a move, `2k` = 2000) or `mcts:Ts` (T seconds a move, `0.5s`),
///   optionally followed by `,c=C` (the UCT exploration constant, default 0.7),
///   `,rollout=decisive|random|bridges` (default decisive; `bridges` also answers a probe of a
///   bridge in Havannah), `,rave=K` (RAVE's equivalence parameter,
///   default 0: no RAVE), `,expand=E` (the visits a leaf has before it is expanded, default
///   0), `,nodes=N` (the most nodes a tree holds, `4M` = 4·2²⁰, default 16M), `,solve=on|off`
///   (MCTS-Solver: proven wins and losses, default off), `,prior=W` (the weight of the game's
///   prior knowledge, default 0: none) and `,threads=T` (root-parallel trees, default 1); see
///   [`MctsConfig`].
///
/// ```
/// use bitgames::search::AgentSpec;
/// let spec: AgentSpec = "mcts:2k,c=1.0".parse()?;
/// assert_eq!(spec.to_string(), "mcts:2000,c=1");
/// assert_eq!("mcts:0.5s".parse::<AgentSpec>()?.to_string(), "mcts:0.5s");
/// assert!("solver".parse::<AgentSpec>().is_err());
/// # Ok::<(), bitgames::search::SpecError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum AgentSpec {
    /// A uniformly random legal move.
    Random,
    /// Win now, else block, else random.
    Greedy,
    /// Monte Carlo tree search.
    Mcts(MctsConfig),
}

/// Why a spec string names no agent.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SpecError {
    /// The spec as given.
    pub spec: String,
    /// What was wrong with it.
    pub problem: String,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "agent `{}`: {}; expected random, greedy, mcts:<iterations> (e.g. mcts:2000, \
             mcts:2k) or mcts:<seconds>s (e.g. mcts:0.5s), optionally with ,c=<exploration>, \
             ,rollout=decisive|random|bridges, ,rave=<k>, ,expand=<visits>, ,nodes=<n> (e.g. 4M), \
             ,solve=on|off, ,prior=<weight> and ,threads=<n>",
            self.spec, self.problem
        )
    }
}

impl std::error::Error for SpecError {}

impl FromStr for AgentSpec {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<AgentSpec, SpecError> {
        let fail = |problem: String| SpecError {
            spec: s.to_string(),
            problem,
        };
        match s {
            "random" => return Ok(AgentSpec::Random),
            "greedy" => return Ok(AgentSpec::Greedy),
            "solver" => {
                return Err(fail(
                    "the solver agent is not available in this build".into(),
                ));
            }
            _ => {}
        }
        let Some(rest) = s.strip_prefix("mcts:") else {
            return Err(fail("unknown agent".into()));
        };
        let mut parts = rest.split(',');
        let budget = parts.next().unwrap_or("");
        let mut config = MctsConfig {
            budget: parse_budget(budget).map_err(fail)?,
            ..MctsConfig::default()
        };
        for option in parts {
            match option.split_once('=') {
                Some(("c", c)) => match c.parse::<f32>() {
                    Ok(c) if c.is_finite() && c >= 0.0 => config.exploration = c,
                    _ => return Err(fail(format!("c = `{c}` is not a number >= 0"))),
                },
                Some(("rave", k)) => match k.parse::<f32>() {
                    Ok(k) if k.is_finite() && k >= 0.0 => config.rave = k,
                    _ => return Err(fail(format!("rave = `{k}` is not a number >= 0"))),
                },
                Some(("threads", t)) => match t.parse::<u32>() {
                    Ok(t) if (1..=MAX_THREADS).contains(&t) => config.threads = t,
                    _ => {
                        return Err(fail(format!(
                            "threads = `{t}` is not a whole number from 1 to {MAX_THREADS}"
                        )));
                    }
                },
                Some(("expand", e)) => match e.parse::<u32>() {
                    Ok(e) => config.expand = e,
                    _ => return Err(fail(format!("expand = `{e}` is not a whole number >= 0"))),
                },
                Some(("nodes", n)) => match parse_nodes(n) {
                    Some(n) => config.max_nodes = n,
                    None => {
                        return Err(fail(format!(
                            "nodes = `{n}` is not a whole number from 1 to {MAX_NODES} \
                             (with an optional k or M: 2^10, 2^20)"
                        )));
                    }
                },
                Some(("prior", w)) => match w.parse::<f32>() {
                    Ok(w) if w.is_finite() && w >= 0.0 => config.prior = w,
                    _ => return Err(fail(format!("prior = `{w}` is not a number >= 0"))),
                },
                Some(("solve", "on")) => config.solver = true,
                Some(("solve", "off")) => config.solver = false,
                Some(("solve", v)) => return Err(fail(format!("solve = `{v}` is not on or off"))),
                Some(("rollout", "decisive")) => config.rollout = Rollout::Decisive,
                Some(("rollout", "random")) => config.rollout = Rollout::Random,
                Some(("rollout", "bridges")) => config.rollout = Rollout::Bridges,
                _ => return Err(fail(format!("unknown option `{option}`"))),
            }
        }
        Ok(AgentSpec::Mcts(config))
    }
}

/// The most nodes an `mcts` spec's tree may hold (`nodes=`): 2³¹ (96 GiB at 48 bytes a node).
pub const MAX_NODES: u32 = 1 << 31;

/// `1000`, `64k` (2¹⁶) or `4M` (2²²): a node count from 1 to [`MAX_NODES`].
fn parse_nodes(text: &str) -> Option<u32> {
    let (digits, scale) = match text.as_bytes().last() {
        Some(b'k') => (&text[..text.len() - 1], 1 << 10),
        Some(b'M') => (&text[..text.len() - 1], 1 << 20),
        _ => (text, 1),
    };
    digits
        .parse::<u32>()
        .ok()
        .and_then(|v| v.checked_mul(scale))
        .filter(|n| (1..=MAX_NODES).contains(n))
}

/// `2000`, `2k` (iterations) or `0.5s` (seconds).
fn parse_budget(text: &str) -> Result<Budget, String> {
    if let Some(seconds) = text.strip_suffix('s') {
        return match seconds.parse::<f64>() {
            Ok(t) if t.is_finite() && t > 0.0 && t <= 86_400.0 => {
                Ok(Budget::Time(Duration::from_secs_f64(t)))
            }
            _ => Err(format!(
                "time budget `{text}` is not a number of seconds in (0, 86400]"
            )),
        };
    }
    let (digits, scale) = match text.strip_suffix('k') {
        Some(d) => (d, 1000),
        None => (text, 1),
    };
    match digits
        .parse::<u32>()
        .ok()
        .and_then(|v| v.checked_mul(scale))
    {
        Some(n) if n > 0 => Ok(Budget::Iterations(n)),
        _ => Err(format!(
            "iteration budget `{text}` is not a whole number from 1 to {}",
            u32::MAX
        )),
    }
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentSpec::Random => f.write_str("random"),
            AgentSpec::Greedy => f.write_str("greedy"),
            AgentSpec::Mcts(c) => {
                match c.budget {
                    Budget::Iterations(n) => write!(f, "mcts:{n}")?,
                    Budget::Time(t) => write!(f, "mcts:{}s", t.as_secs_f64())?,
                }
                let default = MctsConfig::default();
                if c.exploration != default.exploration {
                    write!(f, ",c={}", c.exploration)?;
                }
                match c.rollout {
                    _ if c.rollout == default.rollout => {}
                    Rollout::Random => f.write_str(",rollout=random")?,
                    Rollout::Bridges => f.write_str(",rollout=bridges")?,
                    Rollout::Decisive => f.write_str(",rollout=decisive")?,
                }
                if c.rave != default.rave {
                    write!(f, ",rave={}", c.rave)?;
                }
                if c.expand != default.expand {
                    write!(f, ",expand={}", c.expand)?;
                }
                if c.max_nodes != default.max_nodes {
                    match c.max_nodes {
                        n if n % (1 << 20) == 0 => write!(f, ",nodes={}M", n >> 20)?,
                        n if n % (1 << 10) == 0 => write!(f, ",nodes={}k", n >> 10)?,
                        n => write!(f, ",nodes={n}")?,
                    }
                }
                if c.solver != default.solver {
                    f.write_str(if c.solver { ",solve=on" } else { ",solve=off" })?;
                }
                if c.prior != default.prior {
                    write!(f, ",prior={}", c.prior)?;
                }
                if c.threads != default.threads {
                    write!(f, ",threads={}", c.threads)?;
                }
                Ok(())
            }
        }
    }
}

/// An agent's move and, for a searching agent, its estimate of the position's value to the
/// player who moves (the win probability, a draw counting one half).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Choice<M> {
    /// The move chosen.
    pub mv: M,
    /// The value estimate of the position before the move, for the player to move: the mean
    /// reward of the chosen move's subtree. `None` for agents that do not search.
    pub value: Option<f32>,
}

/// A player of games of `G`: chosen from an [`AgentSpec`], seeded, deterministic.
pub enum Agent<G: Position> {
    /// A uniformly random move.
    Random(Rng),
    /// Win now, else block, else random.
    Greedy(Rng),
    /// Monte Carlo tree search (boxed: it holds the tree).
    Mcts(Box<Mcts<G>>),
}

impl<G: Position> Agent<G> {
    /// The agent `spec` describes, its random choices seeded by `seed`.
    pub fn new(spec: &AgentSpec, seed: u64) -> Agent<G> {
        match spec {
            AgentSpec::Random => Agent::Random(Rng::new(seed)),
            AgentSpec::Greedy => Agent::Greedy(Rng::new(seed)),
            AgentSpec::Mcts(config) => Agent::Mcts(Box::new(Mcts::new(config.clone(), seed))),
        }
    }

    /// Chooses a move for the player to move.
    ///
    /// # Panics
    /// When the game is already decided (there is no move to choose).
    pub fn choose(&mut self, position: &G) -> Choice<G::Move> {
        self.choose_within(position, None)
    }

    /// [`Agent::choose`] within `limit` at most (a searching agent stops its search then;
    /// the others are instant).
    ///
    /// # Panics
    /// When the game is already decided (there is no move to choose).
    pub fn choose_within(&mut self, position: &G, limit: Option<Duration>) -> Choice<G::Move> {
        assert!(position.outcome().is_none(), "the game is already decided");
        match self {
            Agent::Random(rng) => Choice {
                mv: random_move(position, rng),
                value: None,
            },
            Agent::Greedy(rng) => Choice {
                mv: greedy_move(position, rng),
                value: None,
            },
            Agent::Mcts(mcts) => mcts.choose_within(position, limit),
        }
    }
}

/// A uniformly random legal move of an undecided position.
fn random_move<G: Position>(position: &G, rng: &mut Rng) -> G::Move {
    let mut moves = Vec::new();
    position.moves(&mut moves);
    moves[rng.below(moves.len() as u32) as usize]
}

/// Win now, else block the opponent's immediate win, else random.
fn greedy_move<G: Position>(position: &G, rng: &mut Rng) -> G::Move {
    let me: Player = position.to_move();
    position
        .winning_move(me)
        .or_else(|| position.winning_move(me.other()))
        .unwrap_or_else(|| random_move(position, rng))
}
