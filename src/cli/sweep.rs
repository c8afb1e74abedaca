//! `bitgames sweep`: every (n, m) with 3 <= m <= n <= 7 (or a chosen list), its games in
//! slices that an interrupted run resumes from and that `--merge` combines; the table as CSV
//! and JSON and a heat-map figure (SVG).

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use bitgames::search::AgentSpec;
use bitgames::sequence::sim::Match;
use bitgames::sequence::sim::metrics::GameStats;
use bitgames::sequence::sim::sweep::{self, Row, Shard, Slice, SliceHeader};
use clap::Args;
use plotters::prelude::*;

use super::Failure;
use super::simulate::{CSV_HEADER, csv_row, parse_agent, pool, progress, table_json};

/// What to sweep and where the slices and the table go.
#[derive(Args)]
pub struct SweepArgs {
    /// The pairs: `all` (the 15 pairs 3 <= m <= n <= 7) or a list such as 4x4,5x4.
    #[arg(long, default_value = "all", value_parser = parse_pairs)]
    pairs: Pairs,
    /// Games per pair.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// The agent of both sides (see `simulate --black`).
    #[arg(long, default_value = "mcts:1000", value_parser = parse_agent)]
    agents: AgentSpec,
    /// Black's agent, instead of --agents.
    #[arg(long, value_parser = parse_agent)]
    black: Option<AgentSpec>,
    /// White's agent, instead of --agents.
    #[arg(long, value_parser = parse_agent)]
    white: Option<AgentSpec>,
    /// The seed: the same seed gives the same table, whatever the threads and slices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The directory of the slices and of the table (sweep.csv, sweep.json, sweep.svg).
    #[arg(long, default_value = "sweep")]
    out: PathBuf,
    /// Play only slice I of K (the games whose index is I - 1 modulo K); merge the slices
    /// afterwards with --merge.
    #[arg(long, value_name = "I/K", value_parser = parse_shard)]
    shard: Option<Shard>,
    /// Do not play: merge the slices found in --out into the table.
    #[arg(long, conflicts_with = "shard")]
    merge: bool,
    /// Threads playing at the same time [default: one per core].
    #[arg(short = 'j', long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
}

/// A list of pairs (n, m), for clap.
#[derive(Clone)]
pub struct Pairs(Vec<(u32, u32)>);

fn parse_pairs(text: &str) -> Result<Pairs, String> {
    sweep::parse_pairs(text).map(Pairs)
}

fn parse_shard(text: &str) -> Result<Shard, String> {
    text.parse()
}

/// The file of one pair's slice.
fn slice_path(dir: &Path, n: u32, m: u32, shard: Shard) -> PathBuf {
    dir.join(format!(
        "slice-{n}x{m}-{}of{}.csv",
        shard.index, shard.count
    ))
}

/// Runs the command.
pub fn run(args: &SweepArgs) -> Result<(), Failure> {
    let dir = &args.out;
    let dir_name = dir.display().to_string();
    fs::create_dir_all(dir).map_err(|e| Failure::run(format!("{dir_name}: {e}")))?;
    if args.merge {
        return merge_and_write(dir);
    }
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    let black = args.black.clone().unwrap_or_else(|| args.agents.clone());
    let white = args.white.clone().unwrap_or_else(|| args.agents.clone());
    let pool = pool(args.threads)?;
    let started = Instant::now();
    for &(n, m) in &args.pairs.0 {
        let header = SliceHeader {
            game: Match {
                n,
                m,
                black: black.clone(),
                white: white.clone(),
                seed: args.seed,
            },
            games: args.games,
            shard,
        };
        let path = slice_path(dir, n, m, shard);
        let name = path.display().to_string();
        if let Ok(text) = fs::read_to_string(&path) {
            match Slice::parse(&text) {
                Ok(slice) if slice.header == header => {
                    let _ = writeln!(io::stderr(), "{n}x{m}: slice {shard} already written");
                    continue;
                }
                Ok(slice) => {
                    return Err(Failure::run(format!(
                        "{name}: holds another sweep (`{}`); use another --out or remove it",
                        slice.header
                    )));
                }
                // A slice cut short by an interruption is played again.
                Err(_) => {}
            }
        }
        let indices = shard.games(args.games);
        let bar = progress(indices.len() as u64, &format!("{n}x{m}"));
        let records = pool
            .install(|| header.game.play_all(&indices, &|| bar.inc(1)))
            .map_err(|e| Failure::usage(e.to_string()))?;
        bar.finish_and_clear();
        let slice = Slice {
            header,
            games: indices
                .iter()
                .zip(&records)
                .map(|(&i, r)| (i, GameStats::of(r)))
                .collect(),
        };
        // Written whole, then renamed: a slice file is complete or absent.
        let partial = path.with_extension("csv.part");
        fs::write(&partial, slice.to_text())
            .and_then(|()| fs::rename(&partial, &path))
            .map_err(|e| Failure::run(format!("{name}: {e}")))?;
        let _ = writeln!(
            io::stderr(),
            "{n}x{m}: {} games, {:.0} s so far",
            indices.len(),
            started.elapsed().as_secs_f64()
        );
    }
    if shard == Shard::WHOLE {
        merge_and_write(dir)
    } else {
        let _ = writeln!(
            io::stderr(),
            "slice {shard} written to {dir_name}; merge all {} slices with --merge",
            shard.count
        );
        Ok(())
    }
}

/// Reads every slice in `dir`, merges them, writes sweep.csv, sweep.json and sweep.svg there
/// and the CSV table to standard output.
fn merge_and_write(dir: &Path) -> Result<(), Failure> {
    let dir_name = dir.display().to_string();
    let mut paths: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| Failure::run(format!("{dir_name}: {e}")))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|f| f.to_str())
                .is_some_and(|f| f.starts_with("slice-") && f.ends_with(".csv"))
        })
        .collect();
    paths.sort();
    let mut slices = Vec::new();
    for path in &paths {
        let name = path.display().to_string();
        let text = fs::read_to_string(path).map_err(|e| Failure::run(format!("{name}: {e}")))?;
        slices.push(Slice::parse(&text).map_err(|e| Failure::run(format!("{name}: {e}")))?);
    }
    if slices.is_empty() {
        return Err(Failure::run(format!("{dir_name}: no slice files to merge")));
    }
    let rows = sweep::merge(&slices).map_err(|e| Failure::run(format!("{dir_name}: {e}")))?;
    let mut csv = format!("{CSV_HEADER}\n");
    for r in &rows {
        csv += &csv_row(r.n, r.m, &r.summary);
        csv.push('\n');
    }
    let h = &slices[0].header;
    let json = serde_json::json!({
        "black_agent": h.game.black.to_string(),
        "white_agent": h.game.white.to_string(),
        "seed": h.game.seed,
        "games": h.games,
        "rows": rows.iter().map(|r| table_json(r.n, r.m, &r.summary)).collect::<Vec<_>>(),
    });
    let write = |file: &str, text: &str| {
        let path = dir.join(file);
        fs::write(&path, text).map_err(|e| Failure::run(format!("{}: {e}", path.display())))
    };
    write("sweep.csv", &csv)?;
    write("sweep.json", &format!("{json:#}\n"))?;
    let title = format!(
        "Sequence sweep: {} vs {}, {} games a pair, seed {}",
        h.game.black, h.game.white, h.games, h.game.seed
    );
    let svg = dir.join("sweep.svg");
    figure(&rows, &svg, &title).map_err(|e| Failure::run(format!("{}: {e}", svg.display())))?;
    let mut out = io::stdout().lock();
    match out.write_all(csv.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(Failure::run(format!("<stdout>: {e}")))
        }
        _ => Ok(()),
    }
}

/// Four heat maps over (n, m): first-player advantage, draw rate, mean length and drama.
fn figure(rows: &[Row], path: &Path, title: &str) -> Result<(), Box<dyn std::error::Error>> {
    let root = SVGBackend::new(path, (1000, 900)).into_drawing_area();
    root.fill(&WHITE)?;
    let (top, body) = root.split_vertically(40);
    top.titled(title, ("sans-serif", 20))?;
    type Pick = fn(&Row) -> Option<f64>;
    let panels: [(&str, Pick); 4] = [
        ("First-player (Black) win rate", |r| {
            Some(r.summary.black.value)
        }),
        ("Draw rate", |r| Some(r.summary.draw.value)),
        ("Mean game length (moves)", |r| Some(r.summary.length.value)),
        ("Drama", |r| r.summary.drama.map(|d| d.value)),
    ];
    for (area, (name, pick)) in body.split_evenly((2, 2)).iter().zip(panels) {
        let values: Vec<f64> = rows.iter().filter_map(pick).collect();
        let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mut chart = ChartBuilder::on(area)
            .caption(name, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(36)
            .build_cartesian_2d(2.5f64..7.5, 2.5f64..7.5)?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_labels(5)
            .y_labels(5)
            .x_desc("n (board side)")
            .y_desc("m (row length)")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:.0}"))
            .draw()?;
        for r in rows {
            let Some(v) = pick(r) else { continue };
            let t = if hi > lo { (v - lo) / (hi - lo) } else { 0.5 };
            // From a pale yellow (low) to a deep blue (high).
            let mix = |a: f64, b: f64| (a + (b - a) * t).round() as u8;
            let colour = RGBColor(mix(255.0, 33.0), mix(247.0, 102.0), mix(188.0, 172.0));
            let (x, y) = (f64::from(r.n), f64::from(r.m));
            chart.draw_series(std::iter::once(Rectangle::new(
                [(x - 0.5, y - 0.5), (x + 0.5, y + 0.5)],
                colour.filled(),
            )))?;
            let ink = if t > 0.55 { WHITE } else { BLACK };
            let label = if v >= 10.0 {
                format!("{v:.1}")
            } else {
                format!("{v:.2}")
            };
            chart.draw_series(std::iter::once(Text::new(
                label,
                (x - 0.3, y + 0.1),
                ("sans-serif", 15).into_font().color(&ink),
            )))?;
        }
    }
    root.present()?;
    Ok(())
}
