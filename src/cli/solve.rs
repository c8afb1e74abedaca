//! `bitgames solve`: the exact value of a 3-D Sequence position (the empty board, or one reached
//! by a list of moves), with a best move and, for a win, the principal variation.

use std::fs;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use bitgames::sequence::solver::{
    Algorithm, Bounds, Limits, Mode, Monitor, Options, Phase, Proof, ProofError, Solution, Solver,
    Value,
};
use bitgames::sequence::{Color, Game, Outcome, Peg};
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};

use super::Failure;

/// What to solve and how.
#[derive(Args)]
pub struct SolveArgs {
    /// Board side n (1..=7).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=7))]
    n: u32,
    /// Winning length m (1..=n).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=7))]
    m: u32,
    /// The moves played so far, Black first: pegs "x y" (from 1) separated by commas, as in
    /// "1 1,2 2,1 1". Without --moves or --position, the empty board.
    #[arg(long, value_parser = parse_moves, conflicts_with = "position")]
    moves: Option<Moves>,
    /// Read the moves from FILE instead: pegs "x y", one a line or separated by commas; `#`
    /// starts a comment.
    #[arg(long, value_name = "FILE")]
    position: Option<PathBuf>,
    /// Search threads (Lazy SMP over one shared table); the value does not depend on them.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: u16,
    /// The transposition table's size: bytes, or a number with K, M or G (KiB, MiB, GiB),
    /// rounded down to a power of two.
    #[arg(long, default_value = "256MiB", value_parser = parse_size)]
    tt_size: usize,
    /// Stop after this long (as 30s, 500ms, 10m, 1h) and report what is proven: "unknown" with
    /// the bounds, never a guess.
    #[arg(long, value_parser = parse_duration)]
    time_limit: Option<Duration>,
    /// Ask only "does the first player (Black) win?", a draw counting as a loss (the question
    /// the TUM Score Four solver answers). Faster than the full value.
    #[arg(long)]
    one_sided: bool,
    /// The main thread's search: alpha-beta, or proof numbers (df-pn) over the first plies
    /// (helper threads search by alpha-beta). The value does not depend on it.
    #[arg(long, value_enum, default_value_t = AlgorithmArg::AlphaBeta)]
    algorithm: AlgorithmArg,
    /// Re-check a win by replaying it against every defence (the proof checker).
    #[arg(long)]
    check: bool,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
}

/// The search of `--algorithm`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AlgorithmArg {
    /// Negamax alpha-beta as null-window probes.
    AlphaBeta,
    /// Depth-first proof-number search over the first plies, alpha-beta beyond.
    ProofNumber,
}

impl From<AlgorithmArg> for Algorithm {
    fn from(a: AlgorithmArg) -> Algorithm {
        match a {
            AlgorithmArg::AlphaBeta => Algorithm::AlphaBeta,
            AlgorithmArg::ProofNumber => Algorithm::ProofNumber,
        }
    }
}

/// The moves of `--moves`, parsed but not yet played.
#[derive(Clone, Debug)]
pub struct Moves(Vec<Peg>);

/// Reads one move, "x y"; `what` names it in the message.
fn parse_peg(item: &str, what: &str) -> Result<Peg, String> {
    let numbers: Vec<&str> = item.split_whitespace().collect();
    let number = |s: &str| s.parse::<u32>().ok();
    match numbers[..] {
        [x, y] => match (number(x), number(y)) {
            (Some(x), Some(y)) => Ok(Peg::new(x, y)),
            _ => Err(format!(
                "{what} ({item:?}): expected two whole numbers \"x y\""
            )),
        },
        _ => Err(format!(
            "{what} ({item:?}): expected two numbers \"x y\" (moves are separated by commas)"
        )),
    }
}

/// Reads `--moves` for clap: pegs "x y" separated by commas (an empty list is the empty board).
fn parse_moves(text: &str) -> Result<Moves, String> {
    if text.trim().is_empty() {
        return Ok(Moves(Vec::new()));
    }
    text.split(',')
        .enumerate()
        .map(|(i, item)| parse_peg(item, &format!("move {}", i + 1)))
        .collect::<Result<_, _>>()
        .map(Moves)
}

/// Reads a position file: pegs "x y", one a line or separated by commas, `#` comments.
fn read_position(path: &PathBuf) -> Result<Vec<Peg>, Failure> {
    let name = path.display();
    let text = fs::read_to_string(path).map_err(|e| Failure::run(format!("{name}: {e}")))?;
    let mut moves = Vec::new();
    for (line, content) in text.lines().enumerate() {
        let content = content.split('#').next().unwrap_or("");
        for item in content.split(',').filter(|s| !s.trim().is_empty()) {
            let what = format!("move {}", moves.len() + 1);
            let peg = parse_peg(item, &what)
                .map_err(|e| Failure::run(format!("{name}:{}: {e}", line + 1)))?;
            moves.push(peg);
        }
    }
    Ok(moves)
}

/// Reads a size such as `4GiB`, `512M`, `65536`: bytes, or K, M, G (also KiB, MiB, GiB, KB,
/// MB, GB), all powers of 1024.
pub fn parse_size(text: &str) -> Result<usize, String> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (digits, unit) = t.split_at(split);
    let expected = || format!("{text:?}: expected a size such as 4GiB, 512MiB or 65536 (bytes)");
    let number: usize = digits.parse().map_err(|_| expected())?;
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        _ => return Err(expected()),
    };
    let bytes = number
        .checked_mul(1 << shift)
        .ok_or_else(|| format!("{text:?}: too large for this machine"))?;
    if bytes < 16 {
        return Err(format!(
            "{text:?}: the table needs at least 16 bytes (one bucket)"
        ));
    }
    Ok(bytes)
}

/// Reads a duration such as `30s`, `1.5s`, `500ms`, `10m`, `1h`.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let expected = || format!("{text:?}: expected a duration such as 30s, 500ms, 10m or 1h");
    let number: f64 = number.parse().map_err(|_| expected())?;
    let seconds = match unit.trim() {
        "ms" => number / 1000.0,
        "s" => number,
        "m" | "min" => number * 60.0,
        "h" => number * 3600.0,
        _ => return Err(expected()),
    };
    Duration::try_from_secs_f64(seconds).map_err(|_| expected())
}

/// Plays `moves` from the empty board; `source` names them in messages, and `failure` makes the
/// error (a usage error for a flag, a run failure for a file).
fn play_moves(
    n: u32,
    m: u32,
    moves: &[Peg],
    source: &str,
    failure: fn(String) -> Failure,
) -> Result<Game, Failure> {
    let mut game = Game::new(n, m).map_err(|e| Failure::usage(e.to_string()))?;
    for (i, p) in moves.iter().enumerate() {
        let k = i + 1;
        if let Some(outcome) = game.outcome() {
            return Err(failure(format!(
                "{source}: move {k} ({} {}): the game is already decided ({})",
                p.x,
                p.y,
                describe(outcome)
            )));
        }
        game.play(p.x, p.y)
            .map_err(|e| failure(format!("{source}: move {k} ({} {}): {e}", p.x, p.y)))?;
    }
    if let Some(outcome) = game.outcome() {
        return Err(failure(format!(
            "{source}: the moves end the game ({}): nothing is left to solve",
            describe(outcome)
        )));
    }
    Ok(game)
}

/// An outcome in words.
fn describe(outcome: Outcome) -> String {
    match outcome {
        Outcome::Win { color, at } => format!("{color} won with move {at}"),
        Outcome::Draw => "the board is full: a draw".into(),
    }
}

/// Has the search answered the question asked?
fn answered(bounds: Bounds, mode: Mode) -> bool {
    match mode {
        Mode::Wins(_) => bounds.lower == Value::BlackWins || bounds.upper <= Value::Draw,
        _ => bounds.exact().is_some(),
    }
}

/// A value's short name in JSON.
fn value_key(v: Value) -> &'static str {
    match v {
        Value::BlackWins => "black",
        Value::Draw => "draw",
        Value::WhiteWins => "white",
    }
}

/// A size in bytes as `--tt-size` takes it: GiB, MiB or KiB when it is a whole number of them.
fn size_text(bytes: usize) -> String {
    [(30, "GiB"), (20, "MiB"), (10, "KiB")]
        .into_iter()
        .find(|&(shift, _)| bytes >= 1 << shift && bytes.is_multiple_of(1 << shift))
        .map_or(format!("{bytes} bytes"), |(shift, unit)| {
            format!("{} {unit}", bytes >> shift)
        })
}

/// A peg as typed on the command line.
fn peg_text(p: Peg) -> String {
    format!("{} {}", p.x, p.y)
}

/// Shows the search's phase and nodes on standard error while `done` is false, when standard
/// error is a terminal.
fn show_progress(monitor: &Monitor, done: &AtomicBool, start: Instant) {
    if !io::stderr().is_terminal() {
        return;
    }
    let bar = ProgressBar::new_spinner();
    bar.set_style(ProgressStyle::with_template("{spinner} {msg}").expect("a valid template"));
    while !done.load(Ordering::Relaxed) {
        let nodes = monitor.nodes();
        let seconds = start.elapsed().as_secs_f64();
        let phase = match monitor.phase() {
            Phase::Probe(v) => format!("probing \"{v}\""),
            Phase::BestMove => "best move".into(),
            Phase::Variation => "principal variation".into(),
            Phase::Proof => "checking the proof".into(),
            _ => "starting".into(),
        };
        bar.set_message(format!(
            "{phase}: {nodes} nodes, {:.1} M nodes/s, {seconds:.0} s",
            nodes as f64 / seconds.max(1e-9) / 1e6
        ));
        bar.tick();
        thread::sleep(Duration::from_millis(200));
    }
    bar.finish_and_clear();
}

/// Runs `f` with a progress line on standard error.
fn with_progress<T: Send>(monitor: &Monitor, f: impl FnOnce() -> T + Send) -> T {
    let done = AtomicBool::new(false);
    let start = Instant::now();
    thread::scope(|s| {
        s.spawn(|| show_progress(monitor, &done, start));
        let result = f();
        done.store(true, Ordering::Relaxed);
        result
    })
}

/// Runs the command.
pub fn run(args: &SolveArgs) -> Result<(), Failure> {
    if args.m > args.n {
        return Err(Failure::usage(format!(
            "--m {} is larger than --n {}: the row length must be at most the board side",
            args.m, args.n
        )));
    }
    let (moves, game) = match (&args.moves, &args.position) {
        (_, Some(path)) => {
            let moves = read_position(path)?;
            let game = play_moves(
                args.n,
                args.m,
                &moves,
                &path.display().to_string(),
                Failure::run,
            )?;
            (moves, game)
        }
        (Some(Moves(moves)), None) => {
            let game = play_moves(args.n, args.m, moves, "--moves", Failure::usage)?;
            (moves.clone(), game)
        }
        (None, None) => (
            Vec::new(),
            play_moves(args.n, args.m, &[], "", Failure::usage)?,
        ),
    };
    let options = Options::default()
        .with_table_bytes(args.tt_size)
        .with_threads(usize::from(args.threads))
        .with_algorithm(args.algorithm.into());
    let mut solver =
        Solver::new(args.n, args.m, options).map_err(|e| Failure::run(e.to_string()))?;
    let mode = if args.one_sided {
        Mode::Wins(Color::Black)
    } else {
        Mode::Full
    };
    let limits = Limits {
        time: args.time_limit,
        ..Limits::default()
    };
    let monitor = solver.monitor();
    let solution = with_progress(&monitor, || solver.solve(&game, mode, limits))
        .map_err(|e| Failure::run(e.to_string()))?;
    let proof = match solution.value().and_then(Value::winner) {
        Some(winner) if args.check => Some(with_progress(&monitor, || {
            solver.check_win(&game, winner, limits)
        })),
        _ => None,
    };
    if let Some(Err(e @ (ProofError::NotAWin { .. } | ProofError::Solver(_)))) = &proof {
        return Err(Failure::run(format!(
            "the proof checker did not confirm the win: {e}"
        )));
    }
    let report = Report {
        args,
        moves: &moves,
        game: &game,
        mode,
        solution: &solution,
        proof: proof.as_ref(),
        table_bytes: solver.table_bytes(),
    };
    let text = if args.json {
        let mut text = report.json().to_string();
        text.push('\n');
        text
    } else {
        report.text()
    };
    io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .map_err(|e| Failure::run(format!("<stdout>: {e}")))
}

/// What the command prints.
struct Report<'a> {
    args: &'a SolveArgs,
    moves: &'a [Peg],
    game: &'a Game,
    mode: Mode,
    solution: &'a Solution,
    proof: Option<&'a Result<Proof, ProofError>>,
    table_bytes: usize,
}

impl Report<'_> {
    /// The answer in words.
    fn answer(&self) -> String {
        let bounds = self.solution.bounds;
        if !answered(bounds, self.mode) {
            let why = match self.args.time_limit {
                Some(t) => format!("the time limit of {} s ended the search", t.as_secs_f64()),
                None => "the search stopped".into(),
            };
            return format!("unknown ({why}); proven: {bounds}");
        }
        match (self.mode, bounds.exact()) {
            (_, Some(v)) => v.to_string(),
            _ => "first player (Black) does not win (a draw or a loss: one-sided search)".into(),
        }
    }

    fn text(&self) -> String {
        let s = self.solution;
        let mut out = format!(
            "position: n = {}, m = {}, {} balls played, {} to move\n",
            self.args.n,
            self.args.m,
            self.moves.len(),
            self.game.to_move()
        );
        out += match self.mode {
            Mode::Full => "question: the value (win, draw or loss)\n",
            _ => {
                "question: does the first player (Black) win? (one-sided, a draw counts as a loss)\n"
            }
        };
        out += &format!("value: {}\n", self.answer());
        match s.best_move {
            Some(p) => out += &format!("best move: {}\n", peg_text(p)),
            None if answered(s.bounds, self.mode) => {
                out += "best move: not found before the search stopped\n";
            }
            None => {}
        }
        if !s.principal_variation.is_empty() {
            let pv: Vec<String> = s.principal_variation.iter().map(|&p| peg_text(p)).collect();
            out += &format!("principal variation: {}\n", pv.join(", "));
        }
        match self.proof {
            Some(Ok(p)) => {
                out += &format!(
                    "proof: checked ({} positions, {} defences, {:.3} s)\n",
                    p.positions,
                    p.defences,
                    p.elapsed.as_secs_f64()
                );
            }
            Some(Err(_)) => out += "proof: not finished before the time limit\n",
            None => {}
        }
        out += &format!("nodes: {}\n", s.stats.nodes);
        out += &format!(
            "nodes/s: {:.2} M ({} thread(s))\n",
            s.stats.nodes_per_second() / 1e6,
            self.args.threads
        );
        out += &format!(
            "table hit rate: {:.1} % of {} probes ({} table)\n",
            100.0 * s.stats.hit_rate(),
            s.stats.table_probes,
            size_text(self.table_bytes)
        );
        out += &format!("time: {:.3} s\n", s.stats.elapsed.as_secs_f64());
        out
    }

    fn json(&self) -> serde_json::Value {
        let s = self.solution;
        let peg = |p: Peg| serde_json::json!([p.x, p.y]);
        let proof = match self.proof {
            Some(Ok(p)) => serde_json::json!({
                "checked": true,
                "positions": p.positions,
                "winner_moves": p.winner_moves,
                "defences": p.defences,
                "seconds": p.elapsed.as_secs_f64(),
            }),
            Some(Err(_)) => serde_json::json!({ "checked": false }),
            None => serde_json::Value::Null,
        };
        serde_json::json!({
            "n": self.args.n,
            "m": self.args.m,
            "moves": self.moves.iter().map(|&p| peg(p)).collect::<Vec<_>>(),
            "to_move": self.game.to_move().to_string(),
            "mode": if self.mode == Mode::Full { "full" } else { "one-sided" },
            "answered": answered(s.bounds, self.mode),
            "answer": self.answer(),
            "value": s.value().map(value_key),
            "lower": value_key(s.bounds.lower),
            "upper": value_key(s.bounds.upper),
            "stopped": s.stopped,
            "best_move": s.best_move.map(peg),
            "principal_variation": s.principal_variation.iter().map(|&p| peg(p)).collect::<Vec<_>>(),
            "proof": proof,
            "nodes": s.stats.nodes,
            "nodes_per_second": s.stats.nodes_per_second(),
            "table_probes": s.stats.table_probes,
            "table_hits": s.stats.table_hits,
            "hit_rate": s.stats.hit_rate(),
            "table_bytes": self.table_bytes,
            "threads": self.args.threads,
            "algorithm": self.args.algorithm.to_possible_value().map(|v| v.get_name().to_owned()),
            "seconds": s.stats.elapsed.as_secs_f64(),
        })
    }
}
