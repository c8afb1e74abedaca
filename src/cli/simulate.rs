//! `bitgames simulate`: self-play games of one board size on all cores, summarised.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::time::Instant;

use bitgames::search::AgentSpec;
use bitgames::sequence::sim::metrics::{GameStats, Mean, Summary};
use bitgames::sequence::sim::{self, Match};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use super::Failure;

/// What to simulate and how to report it.
#[derive(Args)]
pub struct SimulateArgs {
    /// Board side n (3..=7).
    #[arg(long, value_parser = clap::value_parser!(u32).range(3..=7))]
    n: u32,
    /// Winning length m (3..=n).
    #[arg(long, value_parser = clap::value_parser!(u32).range(3..=7))]
    m: u32,
    /// Games to play.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// Black's agent (moves first): random, greedy, mcts:<iterations> or mcts:<seconds>s.
    #[arg(long, default_value = "mcts:1000", value_parser = parse_agent)]
    black: AgentSpec,
    /// White's agent.
    #[arg(long, default_value = "mcts:1000", value_parser = parse_agent)]
    white: AgentSpec,
    /// The seed: the same seed gives the same games, whatever the number of threads.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads playing at the same time [default: one per core].
    #[arg(short = 'j', long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
    /// Print the summary as JSON.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// Print the summary as CSV (a header and one row).
    #[arg(long)]
    csv: bool,
    /// Write every game to FILE in the judge format (`bitgames sequence FILE` answers each
    /// game's result).
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Also measure a skill trace: this many games of mcts:2k against mcts:k for each k of
    /// --skill-steps.
    #[arg(long, value_name = "GAMES", value_parser = clap::value_parser!(u64).range(1..))]
    skill_trace: Option<u64>,
    /// The k of the skill trace.
    #[arg(long, value_delimiter = ',', default_value = "100,200,400,800")]
    skill_steps: Vec<u32>,
}

/// Reads an agent spec for clap.
pub fn parse_agent(text: &str) -> Result<AgentSpec, String> {
    text.parse()
        .map_err(|e: bitgames::search::SpecError| e.to_string())
}

/// A rayon pool of `threads` threads (all cores for `None`).
pub fn pool(threads: Option<u16>) -> Result<rayon::ThreadPool, Failure> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        builder = builder.num_threads(usize::from(t));
    }
    builder
        .build()
        .map_err(|e| Failure::run(format!("cannot start the threads: {e}")))
}

/// A progress bar on standard error (hidden when it is not a terminal).
pub fn progress(len: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} games, {per_sec}, ETA {eta}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar.set_prefix(what.to_string());
    bar
}

/// Runs the command.
pub fn run(args: &SimulateArgs) -> Result<(), Failure> {
    if args.m > args.n {
        return Err(Failure::usage(format!(
            "--m {} is larger than --n {}: the row length must be at most the board side",
            args.m, args.n
        )));
    }
    let game = Match {
        n: args.n,
        m: args.m,
        black: args.black.clone(),
        white: args.white.clone(),
        seed: args.seed,
    };
    let pool = pool(args.threads)?;
    let indices: Vec<u64> = (0..args.games).collect();
    let bar = progress(args.games, &format!("{}x{}", args.n, args.m));
    let started = Instant::now();
    let records = pool
        .install(|| game.play_all(&indices, &|| bar.inc(1)))
        .map_err(|e| Failure::usage(e.to_string()))?;
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let _ = writeln!(
        io::stderr(),
        "{} games in {seconds:.1} s ({:.1} games/s)",
        args.games,
        args.games as f64 / seconds
    );
    if let Some(path) = &args.record {
        let name = path.display().to_string();
        let fail = |e: io::Error| Failure::run(format!("{name}: {e}"));
        let mut out = BufWriter::new(File::create(path).map_err(fail)?);
        for r in &records {
            r.write_dataset(&mut out).map_err(fail)?;
        }
        writeln!(out, "0 0 0").map_err(fail)?;
        out.flush().map_err(fail)?;
    }
    let stats: Vec<GameStats> = records.iter().map(GameStats::of).collect();
    let summary = Summary::of(&stats);
    let trace = match args.skill_trace {
        Some(games) => {
            let total = games * args.skill_steps.len() as u64;
            let bar = progress(total, "skill trace");
            let trace = pool
                .install(|| {
                    sim::skill_trace(args.n, args.m, &args.skill_steps, games, args.seed, &|| {
                        bar.inc(1)
                    })
                })
                .map_err(|e| Failure::usage(e.to_string()))?;
            bar.finish_and_clear();
            trace
        }
        None => Vec::new(),
    };
    let mut out = io::stdout().lock();
    let text = if args.json {
        let mut value = table_json(args.n, args.m, &summary);
        value["black_agent"] = args.black.to_string().into();
        value["white_agent"] = args.white.to_string().into();
        value["seed"] = args.seed.into();
        if !trace.is_empty() {
            value["skill_trace"] = trace
                .iter()
                .map(|s| {
                    serde_json::json!({
                        "k": s.iterations, "score": s.score.value, "ci": s.score.ci,
                        "games": s.score.count,
                    })
                })
                .collect();
        }
        format!("{value:#}\n")
    } else if args.csv {
        format!("{}\n{}\n", CSV_HEADER, csv_row(args.n, args.m, &summary))
    } else {
        let mut text = format!(
            "Sequence n = {}, m = {}: {} games, Black {} against White {}, seed {}\n",
            args.n, args.m, args.games, args.black, args.white, args.seed
        );
        text += &human(&summary);
        if !trace.is_empty() {
            text += "\nSkillTrace (mcts:2k against mcts:k, score of mcts:2k, 95 % CI):\n";
            for s in &trace {
                text += &format!(
                    "  k = {:>6}: {:.3} ± {:.3} ({} games)\n",
                    s.iterations, s.score.value, s.score.ci, s.score.count
                );
            }
        }
        text
    };
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(Failure::run(format!("<stdout>: {e}")))
        }
        _ => Ok(()),
    }
}

/// The columns of [`csv_row`].
pub const CSV_HEADER: &str = "n,m,games,black_wins,white_wins,draws,\
black_rate,black_low,black_high,white_rate,white_low,white_high,draw_rate,draw_low,draw_high,\
balance,balance_ci,advantage_p1,completion,drawishness,duration,duration_ci,\
length_q1,length_median,length_q3,lead_change,lead_change_ci,drama,drama_ci,\
decisiveness_threshold,decisiveness_threshold_ci,decisiveness_moves,decisiveness_moves_ci,\
uncertainty,uncertainty_ci";

fn mean_fields(m: Option<Mean>) -> String {
    m.map_or(",".into(), |m| format!("{:.6},{:.6}", m.value, m.ci))
}

/// One CSV row of a summary (fixed decimals, so the text depends on the numbers only).
pub fn csv_row(n: u32, m: u32, s: &Summary) -> String {
    let (q1, q2, q3) = s.length_quartiles;
    format!(
        "{n},{m},{},{},{},{},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},\
         {:.6},{:.6},{:.6},{:.6},{:.6},{q1},{q2},{q3},{},{},{},{},{}",
        s.games,
        s.black_wins,
        s.white_wins,
        s.draws,
        s.black.value,
        s.black.low,
        s.black.high,
        s.white.value,
        s.white.low,
        s.white.high,
        s.draw.value,
        s.draw.low,
        s.draw.high,
        s.balance.0,
        s.balance.1,
        s.black.value,
        s.completion.value,
        s.draw.value,
        s.length.value,
        s.length.ci,
        mean_fields(s.lead_change),
        mean_fields(s.drama),
        mean_fields(s.decisiveness_threshold),
        mean_fields(s.decisiveness_moves),
        mean_fields(s.uncertainty),
    )
}

/// A summary as a JSON object (numbers rounded to 6 decimals, as in the CSV).
pub fn table_json(n: u32, m: u32, s: &Summary) -> serde_json::Value {
    let r = |x: f64| (x * 1e6).round() / 1e6;
    let rate = |x: &bitgames::sequence::sim::metrics::Rate| serde_json::json!({"value": r(x.value), "low": r(x.low), "high": r(x.high)});
    let mean = |x: Option<Mean>| {
        x.map_or(
            serde_json::Value::Null,
            |x| serde_json::json!({"value": r(x.value), "ci": r(x.ci), "games": x.count}),
        )
    };
    serde_json::json!({
        "n": n, "m": m, "games": s.games,
        "black_wins": s.black_wins, "white_wins": s.white_wins, "draws": s.draws,
        "black": rate(&s.black), "white": rate(&s.white), "draw": rate(&s.draw),
        "balance": {"value": r(s.balance.0), "ci": r(s.balance.1)},
        "advantage_p1": r(s.black.value),
        "completion": rate(&s.completion),
        "drawishness": r(s.draw.value),
        "duration": {"value": r(s.length.value), "ci": r(s.length.ci)},
        "length_quartiles": [s.length_quartiles.0, s.length_quartiles.1, s.length_quartiles.2],
        "lead_change": mean(s.lead_change),
        "drama": mean(s.drama),
        "decisiveness_threshold": mean(s.decisiveness_threshold),
        "decisiveness_moves": mean(s.decisiveness_moves),
        "uncertainty": mean(s.uncertainty),
    })
}

/// The summary table for people.
fn human(s: &Summary) -> String {
    let rate = |name: &str, k: u64, r: &bitgames::sequence::sim::metrics::Rate| {
        format!(
            "  {name:<22} {:>7.3}  [{:.3}, {:.3}]  ({k})\n",
            r.value, r.low, r.high
        )
    };
    let mean = |name: &str, m: Option<Mean>| match m {
        Some(m) => format!(
            "  {name:<22} {:>7.3}  ± {:.3}  ({} games)\n",
            m.value, m.ci, m.count
        ),
        None => format!("  {name:<22}     n/a  (needs searching agents on both sides)\n"),
    };
    let (q1, q2, q3) = s.length_quartiles;
    let mut t = String::from("  outcome                  rate  95 % CI\n");
    t += &rate("Black wins", s.black_wins, &s.black);
    t += &rate("White wins", s.white_wins, &s.white);
    t += &rate("draws", s.draws, &s.draw);
    t += &format!(
        "  length                 {:>7.2}  ± {:.2} (mean), median {q2}, quartiles {q1}..{q3}\n",
        s.length.value, s.length.ci
    );
    t += "  metric                  value\n";
    t += &format!(
        "  {:<22} {:>7.3}  ± {:.3}\n",
        "Balance", s.balance.0, s.balance.1
    );
    t += &rate("AdvantageP1", s.black_wins, &s.black);
    t += &rate("Completion", s.black_wins + s.white_wins, &s.completion);
    t += &rate("Drawishness", s.draws, &s.draw);
    t += &mean("Duration", Some(s.length));
    t += &mean("LeadChange", s.lead_change);
    t += &mean("Drama", s.drama);
    t += &mean("DecisivenessThreshold", s.decisiveness_threshold);
    t += &mean("DecisivenessMoves", s.decisiveness_moves);
    t += &mean("Uncertainty", s.uncertainty);
    t
}
