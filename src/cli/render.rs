//! `bitgames render havannah|sequence|grid [INPUT] [-o OUTPUT]`: an SVG picture of one
//! position, drawn by [`bitgames::render`].
//!
//! What the input is:
//!
//! - **havannah**, by default: GTP commands, as a controller sends them (`boardsize 6`,
//!   `play w d4`, `play b e5`, `undo`, `swap`, ...), replayed on `havannah::gtp::Engine`;
//!   `genmove` cannot be replayed (the file does not say what it chose) and is refused.
//! - **havannah** with `--side N`: a bare list of cell names (`d4 e5 swap ...`, one a line or
//!   separated by spaces or commas, `#` to the end of the line a comment), White first.
//! - **havannah** with `--case K`, and always for **sequence** and **grid** (`--case`
//!   defaulting to 1): case K of a judge input. The whole input is judged first by the
//!   game's own judge, so a broken input gets the judge's error (line, column, dataset), and
//!   the judge's answer for case K becomes the picture's title; the case's moves are then
//!   replayed on the engine (Sequence: up to the deciding move, as the judge reads it).

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::PathBuf;

use bitgames::havannah::gtp::{Engine, MAX_GTP_SIDE, parse_cell};
use bitgames::havannah::{self, Rules, Stones};
use bitgames::judge::{self, Format, JudgeError};
use bitgames::render::{self, Options};
use bitgames::{grid, sequence};
use clap::{Args, ValueEnum};

use super::Failure;
use super::gtp::RingArg;

/// The games `render` draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RenderGame {
    /// A Havannah board: from GTP commands, a list of cells (`--side`) or a Code Jam judge
    /// case (`--case`).
    Havannah,
    /// The 3-D Sequence cube, one board per layer: a dataset of a judge input.
    Sequence,
    /// The grid game's grid: a case of a judge input.
    Grid,
}

/// What to draw, and where the picture goes.
#[derive(Args)]
pub struct RenderArgs {
    /// The game.
    game: RenderGame,
    /// The input file; standard input when absent or `-`.
    input: Option<PathBuf>,
    /// Where the SVG goes; standard output when absent or `-`.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Draw case (dataset) K of a judge input, from 1 [default for sequence and grid: 1;
    /// Havannah reads GTP commands without it].
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
    case: Option<u64>,
    /// Havannah: the input is a bare list of cell names (White first) on a board of side N.
    #[arg(long, value_name = "N", conflicts_with = "case",
          value_parser = clap::value_parser!(u32).range(2..=i64::from(MAX_GTP_SIDE)))]
    side: Option<u32>,
    /// Havannah, GTP or --side input: the ring rule [default: official]. A judge case always
    /// follows the Code Jam rule.
    #[arg(long, value_enum, conflicts_with = "case")]
    ring: Option<RingArg>,
    /// Havannah, GTP or --side input: allow Black's swap (pie rule) as move 2.
    #[arg(long, conflicts_with = "case")]
    swap: bool,
    /// The caption's first line [default: the judge's answer for a judge case, none else].
    #[arg(long)]
    title: Option<String>,
    /// Leave the move numbers off the stones, balls and cells.
    #[arg(long)]
    no_numbers: bool,
}

/// The most input read: a picture is of one position.
const MAX_INPUT: u64 = 256 << 20;

/// Reads the input, draws it, writes the SVG.
pub fn run(args: &RenderArgs) -> Result<(), Failure> {
    if args.game != RenderGame::Havannah
        && (args.side.is_some() || args.ring.is_some() || args.swap)
    {
        return Err(Failure::usage(
            "--side, --ring and --swap are for `render havannah` only",
        ));
    }
    let (name, input) = read_input(args)?;
    let mut options = Options::default().numbers(!args.no_numbers);
    let title = |default: Option<String>| args.title.clone().or(default);
    let svg = match (args.game, args.case) {
        (RenderGame::Havannah, Some(case)) => {
            let answer = judged(&havannah::judge::Judge, &name, &input, case)?;
            if let Some(title) = title(Some(answer)) {
                options = options.title(title);
            }
            let stones = havannah_case(&name, &input, case)?;
            render::havannah::stones_svg(&stones, &options)
                .map_err(|e| Failure::run(format!("{name}: case {case}: {e}")))?
        }
        (RenderGame::Havannah, None) => {
            let ring = args.ring.unwrap_or(RingArg::Official);
            let rules = Rules::default().ring(ring.into()).swap(args.swap);
            let text = String::from_utf8_lossy(&input);
            let (game, note) = match args.side {
                Some(side) => (moves(&name, &text, side, rules)?, None),
                None => gtp(&name, &text, rules)?,
            };
            if let Some(title) = title(note) {
                options = options.title(title);
            }
            render::havannah::svg(&game, &options)
                .map_err(|e| Failure::run(format!("{name}: {e}")))?
        }
        (RenderGame::Sequence, case) => {
            let case = case.unwrap_or(1);
            let answer = judged(&sequence::judge::Judge, &name, &input, case)?;
            let (game, ignored) = sequence_case(&name, &input, case)?;
            let mut default = format!("Dataset {case}: {answer}");
            match ignored {
                0 => {}
                1 => default.push_str(" (1 later move ignored, as the judge does)"),
                k => default.push_str(&format!(" ({k} later moves ignored, as the judge does)")),
            }
            if let Some(title) = title(Some(default)) {
                options = options.title(title);
            }
            render::sequence::svg(&game, &options)
        }
        (RenderGame::Grid, case) => {
            let case = case.unwrap_or(1);
            let answer = judged(&grid::judge::Judge, &name, &input, case)?;
            let game = grid_case(&name, &input, case)?;
            if let Some(title) = title(Some(format!("Case {case}: {answer}"))) {
                options = options.title(title);
            }
            render::grid::svg(&game, &options)
        }
    };
    let (out_name, mut out) = super::output(args.output.as_deref())?;
    match out.write_all(svg.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure::run(format!("{out_name}: {e}"))),
    }
}

/// The input's name for messages and its bytes (at most [`MAX_INPUT`]).
fn read_input(args: &RenderArgs) -> Result<(String, Vec<u8>), Failure> {
    let (name, reader): (String, Box<dyn Read>) = match &args.input {
        Some(path) if path.as_os_str() != "-" => {
            let name = path.display().to_string();
            let file = File::open(path).map_err(|e| Failure::run(format!("{name}: {e}")))?;
            (name, Box::new(file))
        }
        _ => ("<stdin>".to_owned(), Box::new(io::stdin().lock())),
    };
    let mut bytes = Vec::new();
    reader
        .take(MAX_INPUT + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::run(format!("{name}: {e}")))?;
    if bytes.len() as u64 > MAX_INPUT {
        return Err(Failure::run(format!(
            "{name}: the input is larger than {} MiB; render draws one position",
            MAX_INPUT >> 20
        )));
    }
    Ok((name, bytes))
}

/// The judge's answer for case `case` (without its line feed). The whole input is judged:
/// an error in case `case` or before it is the judge's error; an input with fewer cases says
/// how many it has.
fn judged<F: Format>(format: &F, name: &str, input: &[u8], case: u64) -> Result<String, Failure> {
    let mut answers = Vec::new();
    let result = judge::run_bytes(
        format,
        input,
        &mut answers,
        judge::Options::single_threaded(),
    );
    let text = String::from_utf8_lossy(&answers);
    if let Some(answer) = text.lines().nth((case - 1) as usize) {
        return Ok(answer.to_owned());
    }
    match result {
        Err(e @ JudgeError::Input { .. }) => Err(Failure::run(format!("{name}:{e}"))),
        Err(e) => Err(Failure::run(format!("{name}: {e}"))),
        Ok(_) => Err(Failure::run(format!(
            "{name}: there is no case {case}: the input has {} case{}",
            text.lines().count(),
            if text.lines().count() == 1 { "" } else { "s" }
        ))),
    }
}

/// The numbers of a judge input, in order. Only called on input the judge has accepted up to
/// the case wanted, so running out or a bad token means the judge and this reader disagree.
struct Numbers<'a> {
    tokens: std::str::SplitAsciiWhitespace<'a>,
    name: &'a str,
    case: u64,
}

impl<'a> Numbers<'a> {
    fn new(name: &'a str, input: &'a [u8], case: u64) -> Result<Numbers<'a>, Failure> {
        let text = std::str::from_utf8(input)
            .map_err(|e| Failure::run(format!("{name}: the input is not text: {e}")))?;
        Ok(Numbers {
            tokens: text.split_ascii_whitespace(),
            name,
            case,
        })
    }

    fn next(&mut self) -> Result<u32, Failure> {
        self.tokens
            .next()
            .and_then(|t| t.parse().ok())
            .ok_or_else(|| {
                Failure::run(format!(
                    "{}: case {}: the judge accepted the input, but it ends early or holds a \
                     number beyond 32 bits before this case's moves",
                    self.name, self.case
                ))
            })
    }

    /// Skips `count` numbers.
    fn skip(&mut self, count: u64) -> Result<(), Failure> {
        for _ in 0..count {
            self.next()?;
        }
        Ok(())
    }

    /// Skips the cases before this one, each `header` numbers, a move count and that many
    /// moves of two numbers.
    fn skip_cases(&mut self, header: u64) -> Result<(), Failure> {
        for _ in 1..self.case {
            self.skip(header)?;
            let moves = self.next()?;
            self.skip(2 * u64::from(moves))?;
        }
        Ok(())
    }
}

/// Case `case` of a Code Jam Havannah input (`T`, then `S M` and M moves per case): every
/// move on [`Stones`], which records the first winning move.
fn havannah_case(name: &str, input: &[u8], case: u64) -> Result<Stones, Failure> {
    let mut numbers = Numbers::new(name, input, case)?;
    numbers.next()?;
    numbers.skip_cases(1)?;
    let (side, moves) = (numbers.next()?, numbers.next()?);
    let fail = |e: &dyn std::fmt::Display| Failure::run(format!("{name}: case {case}: {e}"));
    let mut stones = Stones::with_capacity(side, moves as usize).map_err(|e| fail(&e))?;
    for k in 1..=moves {
        let (x, y) = (numbers.next()?, numbers.next()?);
        stones
            .play(x, y)
            .map_err(|e| fail(&format!("move {k}: {e}")))?;
    }
    Ok(stones)
}

/// Dataset `case` of a Sequence input (`n m p` and p moves, until `0 0 0`), played up to its
/// deciding move; also the number of moves after it, which the judge ignores.
fn sequence_case(name: &str, input: &[u8], case: u64) -> Result<(sequence::Game, u64), Failure> {
    let mut numbers = Numbers::new(name, input, case)?;
    numbers.skip_cases(2)?;
    let (n, m, moves) = (numbers.next()?, numbers.next()?, numbers.next()?);
    let fail = |e: &dyn std::fmt::Display| Failure::run(format!("{name}: dataset {case}: {e}"));
    let mut game = sequence::Game::new(n, m).map_err(|e| fail(&e))?;
    for k in 1..=moves {
        let (x, y) = (numbers.next()?, numbers.next()?);
        let decided = game
            .play(x, y)
            .map_err(|e| fail(&format!("move {k}: {e}")))?;
        if let Some(sequence::Outcome::Win { .. }) = decided {
            return Ok((game, u64::from(moves - k)));
        }
    }
    Ok((game, 0))
}

/// Case `case` of a grid-game input (`r c m` and m moves, to the end of the input).
fn grid_case(name: &str, input: &[u8], case: u64) -> Result<grid::Game, Failure> {
    let mut numbers = Numbers::new(name, input, case)?;
    numbers.skip_cases(2)?;
    let (rows, cols, moves) = (numbers.next()?, numbers.next()?, numbers.next()?);
    let fail = |e: &dyn std::fmt::Display| Failure::run(format!("{name}: case {case}: {e}"));
    let mut game = grid::Game::new(rows, cols).map_err(|e| fail(&e))?;
    for k in 1..=moves {
        let (row, col) = (numbers.next()?, numbers.next()?);
        game.play(row, col)
            .map_err(|e| fail(&format!("move {k}: {e}")))?;
    }
    Ok(game)
}

/// A bare move list on a board of side `side`: cell names and `swap`, White first.
fn moves(name: &str, text: &str, side: u32, rules: Rules) -> Result<havannah::Game, Failure> {
    let mut game = havannah::Game::with_rules(side, rules)
        .map_err(|e| Failure::usage(format!("--side {side}: {e}")))?;
    let mut k = 0;
    for (l, line) in text.lines().enumerate() {
        let code = line.split('#').next().unwrap_or_default();
        let mut rest = code;
        while let Some(start) = rest.find(|c: char| !c.is_whitespace() && c != ',') {
            let token_and_after = &rest[start..];
            let end = token_and_after
                .find(|c: char| c.is_whitespace() || c == ',')
                .unwrap_or(token_and_after.len());
            let token = &token_and_after[..end];
            let column = code.len() - rest.len() + start + 1;
            k += 1;
            let at = format!("{name}:{}:{column}: move {k} ({token})", l + 1);
            let played = if token.eq_ignore_ascii_case("swap") {
                game.play_move(havannah::Move::Swap).map(|_| ())
            } else {
                let cell =
                    parse_cell(token, side).map_err(|e| Failure::run(format!("{at}: {e}")))?;
                game.play(cell.x, cell.y).map(|_| ())
            };
            played.map_err(|e| Failure::run(format!("{at}: {e}")))?;
            rest = &token_and_after[end..];
        }
    }
    Ok(game)
}

/// GTP commands replayed on the engine; also a note when the record ends in a resignation
/// (the picture's default title).
fn gtp(name: &str, text: &str, rules: Rules) -> Result<(havannah::Game, Option<String>), Failure> {
    let mut engine = Engine::new(
        havannah::agent::from_spec(&bitgames::search::AgentSpec::Random, 1),
        rules,
    );
    for (l, line) in text.lines().enumerate() {
        let at = format!("{name}:{}", l + 1);
        let code = line.split('#').next().unwrap_or_default();
        let mut words = code.split_whitespace();
        let command = words
            .next()
            .filter(|w| !w.bytes().all(|b| b.is_ascii_digit()))
            .or_else(|| words.next());
        if command.is_some_and(|c| c.eq_ignore_ascii_case("genmove")) {
            return Err(Failure::run(format!(
                "{at}: genmove cannot be replayed (the file does not say which move it \
                 chose): write the move as `play <b|w> <cell>`"
            )));
        }
        let Some(reply) = engine.respond(line) else {
            continue;
        };
        if let Some(message) = reply.strip_prefix('?') {
            // `?[id] message`: drop the id.
            let message = message
                .trim_start_matches(|c: char| c.is_ascii_digit())
                .trim();
            let hint = if message.starts_with("swap") && !rules.allows_swap() {
                " (--swap turns the swap rule on)"
            } else {
                ""
            };
            return Err(Failure::run(format!("{at}: {message}{hint}")));
        }
        if engine.has_quit() {
            break;
        }
    }
    let game = engine.game().clone();
    let winner = engine.respond("havannah-winner").unwrap_or_default();
    let note = match (game.outcome(), winner.trim()) {
        (None, "= white") => Some("Black resigned: White wins".to_owned()),
        (None, "= black") => Some("White resigned: Black wins".to_owned()),
        _ => None,
    };
    Ok((game, note))
}
