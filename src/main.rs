//! The `bitgames` command line: argument parsing and dispatch only; each subcommand is a module
//! of [`cli`], and every one of them calls the library for the work.

mod cli;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Fast, verified judges and engines for 3-D Sequence, Havannah and the grid game.
#[derive(Parser)]
#[command(version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Judge "Make a Sequence" datasets (3-D gravity connect-m), ending with `0 0 0`.
    Sequence(cli::judge::JudgeArgs),
    /// Judge Havannah cases (GCJ 2012 Round 3): the first bridge, fork or ring of each.
    Havannah(cli::judge::JudgeArgs),
    /// Judge grid-game cases (Jutge P57928 "A grid game"), tokens until the end of input.
    Grid(cli::judge::JudgeArgs),
    /// Compute the grid game's Grundy values g(a, b) of the a × b rectangles up to a size.
    GridTable(cli::grid_table::GridTableArgs),
    /// A GTP engine on standard input/output (`bitgames gtp havannah`).
    Gtp(cli::gtp::GtpArgs),
    /// Play self-play games of 3-D Sequence between agents and report outcomes and
    /// game-quality metrics.
    Simulate(cli::simulate::SimulateArgs),
    /// Simulate every board size (n, m), 3 <= m <= n <= 7: a table (CSV, JSON) and a figure.
    Sweep(cli::sweep::SweepArgs),
    /// Play a match between two agents (Havannah or 3-D Sequence), colours alternating, on
    /// every core: the win rate with its 95 % interval.
    Duel(cli::duel::DuelArgs),
    /// Solve a 3-D Sequence position exactly: its value (win, draw or loss), a best move and,
    /// for a win, the principal variation.
    Solve(cli::solve::SolveArgs),
    /// Draw a position as SVG: a Havannah board (GTP commands, a list of cells or a judge
    /// case), the Sequence cube or the grid game's grid (a judge case).
    Render(cli::render::RenderArgs),
}

fn main() -> ExitCode {
    let command = Cli::parse().command;
    if let Err(failure) = cli::check_simd_env() {
        eprintln!("error: {failure}");
        return ExitCode::from(failure.code);
    }
    let result = match command {
        Command::Sequence(args) => cli::judge::run(&bitgames::sequence::judge::Judge, &args),
        Command::Havannah(args) => cli::judge::run(&bitgames::havannah::judge::Judge, &args),
        Command::Grid(args) => cli::judge::run(&bitgames::grid::judge::Judge, &args),
        Command::GridTable(args) => cli::grid_table::run(&args),
        Command::Gtp(args) => cli::gtp::run(&args),
        Command::Simulate(args) => cli::simulate::run(&args),
        Command::Sweep(args) => cli::sweep::run(&args),
        Command::Solve(args) => cli::solve::run(&args),
        Command::Duel(args) => cli::duel::run(&args),
        Command::Render(args) => cli::render::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("error: {failure}");
            ExitCode::from(failure.code)
        }
    }
}
