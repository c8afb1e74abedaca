//! A GTP (Go Text Protocol, version 2) engine for Havannah, speaking the command set of the
//! Havannah programs (morat, Castro) and their controllers (such as HavannahGui):
//! [the protocol](https://www.lysator.liu.se/~gunnar/gtp/gtp2-spec-draft2/gtp2-spec.html).
//!
//! [`Engine::respond`] takes one line and returns the reply text; the `bitgames gtp havannah`
//! command wires it to standard input and output.
//!
//! # Cells
//!
//! A cell is a letter and a number, such as `c4`: the letter is the column `x` from `a`, the
//! number the row `y + 1`, on the (2N − 1) × (2N − 1) array whose valid cells satisfy
//! |x − y| < N (N the side; the convention of morat and Castro). In this crate's coordinates,
//! which count from 1 as the Code Jam statement does, the cell `c4` is (3, 4): the letter's
//! place in the alphabet is [`Cell::x`], the number is [`Cell::y`]. Both layouts have the same
//! neighbours, (x ± 1, y), (x, y ± 1), (x + 1, y + 1) and (x − 1, y − 1). With letters `a` to
//! `z`, sides go up to 13 here.
//!
//! # Commands
//!
//! `protocol_version`, `name`, `version`, `known_command`, `list_commands`, `quit`,
//! `boardsize N` (N the side), `clear_board`, `play <b|w> <cell|swap|resign>`,
//! `genmove <b|w>`, `undo`, `showboard`, `time_settings`, `time_left` (a searching agent
//! then takes at most its share of the clock: the byo-yomi period's time per stone, or in
//! main time the time left over a quarter of the empty cells, at least 8 moves, less a
//! margin), `havannah-winner` and its morat spelling `winner`
//! (`none`, `white`, `black` or `draw`), `final_score` (`W+`, `B+` or `0`), `swap` (Black swaps, as move 2, when the engine's
//! rules allow it) and `resign` (the player to move gives up).
//!
//! Every malformed or unknown command, illegal move or bad size gets `? message`, and the
//! position is then unchanged. White moves first; a `play` or `genmove` for the player not
//! to move is refused.
//!
//! ```
//! use bitgames::havannah::agent;
//! use bitgames::havannah::gtp::Engine;
//! use bitgames::havannah::Rules;
//!
//! let mut gtp = Engine::new(agent::from_spec(&"random".parse()?, 1), Rules::default());
//! assert_eq!(gtp.respond("1 boardsize 4").as_deref(), Some("=1\n\n"));
//! assert_eq!(gtp.respond("play w d4").as_deref(), Some("=\n\n"));
//! assert_eq!(gtp.respond("play w d5").as_deref(), Some("? it is black's turn\n\n"));
//! assert_eq!(gtp.respond("# a comment"), None);
//! assert_eq!(gtp.respond("havannah-winner").as_deref(), Some("= none\n\n"));
//! # Ok::<(), bitgames::search::SpecError>(())
//! ```

use std::fmt::Write;
use std::time::Duration;

use super::agent::Agent;
use super::geometry::MIN_SIDE;
use super::{Cell, Color, Game, Move, Outcome, Rules};

/// The largest side with one-letter columns (`a` to `y`: 2N − 1 ≤ 26).
pub const MAX_GTP_SIDE: u32 = 13;

/// The side a new engine starts with.
pub const DEFAULT_SIDE: u32 = 8;

/// The agent `bitgames gtp havannah` plays unless told otherwise (a
/// [`crate::search::AgentSpec`]): UCT with RAVE (k = 200, c = 0.2), rollouts with decisive
/// moves that also answer a probe of a bridge, a leaf expanded on its second visit,
/// MCTS-Solver, the morat engine's prior knowledge (stones that reach corners and edges, the
/// answer to a probe of a bridge) at its weight, one second a move. On side 6, expanding on
/// the second visit beat expanding on the first at equal time (60 of 100 games); the solver
/// is about even at equal time (53 of 100) and plays a proven win and avoids a proven loss;
/// the bridge rollouts and the priors are each about even at equal time (53 and 54 of 100),
/// and together they make four times the time worth more: this search at 1 s won 144 of 200
/// games against itself at 0.25 s, where the same search without them won 132. The matches
/// are in BENCHMARKS.md.
pub const DEFAULT_AGENT: &str =
    "mcts:1s,c=0.2,rollout=bridges,rave=200,expand=1,solve=on,prior=0.01";

/// The commands, as `list_commands` gives them.
const COMMANDS: [&str; 19] = [
    "boardsize",
    "clear_board",
    "genmove",
    "havannah-winner",
    "known_command",
    "list_commands",
    "name",
    "play",
    "protocol_version",
    "quit",
    "resign",
    "showboard",
    "swap",
    "time_left",
    "time_settings",
    "undo",
    "version",
    "winner",
    "final_score",
];

/// A Havannah GTP engine: a game, the agent that answers `genmove`, and the protocol.
#[derive(Debug)]
pub struct Engine {
    game: Game,
    agent: Box<dyn Agent>,
    /// The player who resigned, if one did (after the last move of the game).
    resigned: Option<(Color, u32)>,
    quit: bool,
    clock: Clock,
}

/// The game clock, as the controller reports it with `time_settings` and `time_left`.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Clock {
    /// Main time, byo-yomi time (seconds) and byo-yomi stones.
    settings: Option<(f64, f64, u32)>,
    /// Per colour (White, Black): seconds left and stones left in the period (0: main time).
    left: [Option<(f64, u32)>; 2],
}

impl Clock {
    /// How long `color`'s next move may take, with `empty` empty cells on the board; `None`
    /// without a clock or when the settings say there is no limit (byo-yomi time with no
    /// stones, as GTP defines it).
    fn limit(&self, color: Color, empty: u64) -> Option<Duration> {
        let (seconds, stones) = match (self.left[color.index()], self.settings) {
            (_, Some((_, byo, 0))) if byo > 0.0 => return None,
            (Some(left), _) => left,
            (None, Some((main, _, _))) if main > 0.0 => (main, 0),
            (None, Some((_, byo, stones))) if byo > 0.0 => (byo, stones),
            _ => return None,
        };
        // In main time, the moves still to come: games rarely fill the board, so a quarter
        // of the empty cells, and at least 8.
        let moves = if stones > 0 {
            f64::from(stones)
        } else {
            (empty as f64 / 4.0).max(8.0)
        };
        // A margin for the reply's latency.
        Some(Duration::from_secs_f64(
            (0.9 * seconds / moves - 0.05).max(0.01),
        ))
    }
}

/// A command's result: the response text, or the error message.
type Reply = Result<String, String>;

impl Engine {
    /// An engine on an empty board of side [`DEFAULT_SIDE`] under `rules`, asking `agent` for
    /// its moves.
    pub fn new(agent: Box<dyn Agent>, rules: Rules) -> Engine {
        let game = match Game::with_rules(DEFAULT_SIDE, rules) {
            Ok(game) => game,
            Err(e) => unreachable!("the default side is valid: {e}"),
        };
        Engine {
            game,
            agent,
            resigned: None,
            quit: false,
            clock: Clock::default(),
        }
    }

    /// The position.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Has `quit` been answered? (The caller then stops reading.)
    pub fn has_quit(&self) -> bool {
        self.quit
    }

    /// The reply to one line of input: `=[id] response` or `?[id] message`, each ended by an
    /// empty line, or `None` for a line with no command (empty, or only a comment).
    pub fn respond(&mut self, line: &str) -> Option<String> {
        // Control characters go (a tab is a space); a comment runs to the end of the line.
        let clean: String = line
            .chars()
            .filter_map(|c| match c {
                '\t' => Some(' '),
                c if c.is_control() => None,
                c => Some(c),
            })
            .collect();
        let clean = clean.split('#').next().unwrap_or_default();
        let mut words = clean.split_whitespace().peekable();
        let id = words
            .next_if(|w| w.bytes().all(|b| b.is_ascii_digit()))
            .map(str::to_owned);
        let command = words.next();
        if command.is_none() && id.is_none() {
            return None;
        }
        let args: Vec<&str> = words.collect();
        let reply = match command {
            Some(command) => self.command(command, &args),
            None => Err("missing command".to_owned()),
        };
        let id = id.unwrap_or_default();
        Some(match reply {
            Ok(text) if text.is_empty() => format!("={id}\n\n"),
            Ok(text) => format!("={id} {text}\n\n"),
            Err(message) => format!("?{id} {message}\n\n"),
        })
    }

    fn command(&mut self, command: &str, args: &[&str]) -> Reply {
        const NO_ARGUMENTS: [&str; 13] = [
            "protocol_version",
            "name",
            "version",
            "list_commands",
            "quit",
            "clear_board",
            "undo",
            "showboard",
            "havannah-winner",
            "winner",
            "final_score",
            "swap",
            "resign",
        ];
        if NO_ARGUMENTS.contains(&command) && !args.is_empty() {
            return Err(format!("{command} takes no arguments"));
        }
        match command {
            "protocol_version" => Ok("2".into()),
            "name" => Ok("bitgames".into()),
            "version" => Ok(format!(
                "{} ({} agent)",
                env!("CARGO_PKG_VERSION"),
                self.agent.name()
            )),
            "known_command" => match args {
                [name] => Ok(COMMANDS.contains(name).to_string()),
                _ => Err("expected known_command <command>".into()),
            },
            "list_commands" => Ok(COMMANDS.join("\n")),
            "quit" => {
                self.quit = true;
                Ok(String::new())
            }
            "boardsize" => self.boardsize(args),
            "clear_board" => {
                self.game.reset();
                self.resigned = None;
                Ok(String::new())
            }
            "play" => self.play(args),
            "genmove" => self.genmove(args),
            "undo" => self.undo(),
            "showboard" => Ok(self.showboard()),
            "time_settings" => {
                let usage = "expected time_settings <main time> <byo-yomi time> <byo-yomi \
                             stones> (seconds, seconds, a whole number)";
                match args {
                    [main, byo, stones] => {
                        let settings = (seconds(main), seconds(byo), stones.parse::<u32>());
                        let (Some(main), Some(byo), Ok(stones)) = settings else {
                            return Err(usage.into());
                        };
                        self.clock = Clock {
                            settings: Some((main, byo, stones)),
                            left: [None; 2],
                        };
                        Ok(String::new())
                    }
                    _ => Err(usage.into()),
                }
            }
            "time_left" => {
                let usage = "expected time_left <b|w> <time> <stones> (seconds, a whole number)";
                match args {
                    [color, time, stones] => {
                        let color = parse_color(color)?;
                        let (Some(time), Ok(stones)) = (seconds(time), stones.parse::<u32>())
                        else {
                            return Err(usage.into());
                        };
                        self.clock.left[color.index()] = Some((time, stones));
                        Ok(String::new())
                    }
                    _ => Err(usage.into()),
                }
            }
            "havannah-winner" | "winner" => Ok(self.winner().into()),
            "final_score" => match self.winner_color() {
                Some(Color::White) => Ok("W+".into()),
                Some(Color::Black) => Ok("B+".into()),
                None if self.over() => Ok("0".into()),
                None => Err("the game is not over".into()),
            },
            "swap" => self.place(self.game.to_move(), "swap"),
            "resign" => self.place(self.game.to_move(), "resign"),
            _ => Err(format!("unknown command: {command}")),
        }
    }

    fn boardsize(&mut self, args: &[&str]) -> Reply {
        let [size] = args else {
            return Err("expected boardsize N".into());
        };
        let side = size
            .parse::<u32>()
            .ok()
            .filter(|s| (MIN_SIDE..=MAX_GTP_SIDE).contains(s))
            .ok_or_else(|| {
                format!("unacceptable size {size}: the side must be in {MIN_SIDE}..={MAX_GTP_SIDE}")
            })?;
        self.game
            .resize(side)
            .map_err(|e| format!("unacceptable size: {e}"))?;
        self.resigned = None;
        Ok(String::new())
    }

    fn play(&mut self, args: &[&str]) -> Reply {
        let [color, vertex] = args else {
            return Err("expected play <b|w> <cell>".into());
        };
        let color = parse_color(color)?;
        self.place(color, vertex)
    }

    /// Plays `vertex` (a cell, `swap` or `resign`) for `color`.
    fn place(&mut self, color: Color, vertex: &str) -> Reply {
        if self.over() {
            return Err("the game is over".into());
        }
        if color != self.game.to_move() {
            return Err(format!("it is {}'s turn", self.game.to_move()));
        }
        match vertex.to_ascii_lowercase().as_str() {
            "resign" => {
                self.resigned = Some((color, self.game.moves_played()));
                Ok(String::new())
            }
            "swap" => self
                .game
                .swap()
                .map(|()| String::new())
                .map_err(|e| e.to_string()),
            text => {
                let cell = parse_cell(text, self.game.board().side())?;
                self.game
                    .play(cell.x, cell.y)
                    .map(|_| String::new())
                    .map_err(|e| format!("illegal move {text}: {e}"))
            }
        }
    }

    fn genmove(&mut self, args: &[&str]) -> Reply {
        let [color] = args else {
            return Err("expected genmove <b|w>".into());
        };
        let color = parse_color(color)?;
        if self.over() {
            return Err("the game is over".into());
        }
        if color != self.game.to_move() {
            return Err(format!("it is {}'s turn", self.game.to_move()));
        }
        let empty = self.game.board().cells() - u64::from(self.game.moves_played());
        let limit = self.clock.limit(color, empty);
        let Some(chosen) = self.agent.choose_within(&self.game, limit) else {
            return Err("no legal move".into());
        };
        self.game
            .play_move(chosen)
            .map_err(|e| format!("the agent chose an illegal move: {e}"))?;
        Ok(match chosen {
            Move::Place(cell) => cell_name(cell),
            Move::Swap => "swap".into(),
        })
    }

    fn undo(&mut self) -> Reply {
        if let Some((_, at)) = self.resigned
            && at == self.game.moves_played()
        {
            self.resigned = None;
            return Ok(String::new());
        }
        self.game
            .undo()
            .map(|_| String::new())
            .ok_or_else(|| "cannot undo: no move has been played".into())
    }

    /// Is the game over, by a structure, a full board or a resignation?
    fn over(&self) -> bool {
        self.game.outcome().is_some() || self.resigned.is_some()
    }

    fn winner_color(&self) -> Option<Color> {
        match (self.resigned, self.game.outcome()) {
            (Some((loser, _)), _) => Some(loser.other()),
            (None, Some(Outcome::Win { color, .. })) => Some(color),
            _ => None,
        }
    }

    fn winner(&self) -> &'static str {
        match (self.winner_color(), self.game.outcome()) {
            (Some(Color::White), _) => "white",
            (Some(Color::Black), _) => "black",
            (None, Some(Outcome::Draw)) => "draw",
            _ => "none",
        }
    }

    /// The board as an ASCII hexagon, row `y` = N at the middle, rows from the largest number
    /// down; each row starts with its number and the letter of its first cell, `W` and `B` are
    /// the stones, `.` an empty cell.
    fn showboard(&self) -> String {
        let board = self.game.board();
        let (s, n) = (board.side(), board.n());
        let mut text = String::new();
        let _ = write!(
            text,
            "side {s}, {} to move, move {}",
            self.game.to_move(),
            self.game.moves_played() + 1
        );
        for y in (1..=n).rev() {
            let lo = y.saturating_sub(s - 1).max(1);
            let hi = (y + s - 1).min(n);
            // Cell (x, y) sits at column 2x - y + S: (x + 1, y + 1) is one to the right.
            let indent = (2 * lo + s - y) as usize;
            let _ = write!(text, "\n{y:>2} {}{:indent$}", letter(lo), "");
            for x in lo..=hi {
                let c = match self.game.stone(x, y) {
                    Some(Color::White) => 'W',
                    Some(Color::Black) => 'B',
                    None => '.',
                };
                let _ = write!(text, "{c} ");
            }
        }
        let _ = write!(text, "\nwinner: {}", self.winner());
        text
    }
}

/// `b`, `black`, `w` or `white`, in any case.
fn parse_color(text: &str) -> Result<Color, String> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Color::Black),
        "w" | "white" => Ok(Color::White),
        _ => Err(format!(
            "invalid color {text}: expected b, w, black or white"
        )),
    }
}

/// Numbers for `count` arguments, or the usage `usage`.
/// A number of seconds: finite, at least 0, at most a year.
fn seconds(text: &str) -> Option<f64> {
    text.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && (0.0..=31_536_000.0).contains(v))
}

/// The letter of column `x` (from 1).
fn letter(x: u32) -> char {
    char::from(b'a' + (x - 1) as u8)
}

/// A cell's GTP name, such as `c4` for (3, 4).
///
/// ```
/// use bitgames::havannah::Cell;
/// use bitgames::havannah::gtp::{cell_name, parse_cell};
/// assert_eq!(cell_name(Cell::new(3, 4)), "c4");
/// assert_eq!(parse_cell("C4", 4), Ok(Cell::new(3, 4)));
/// assert!(parse_cell("a5", 4).is_err()); // |x − y| = 4 is off a side-4 board
/// ```
pub fn cell_name(cell: Cell) -> String {
    format!("{}{}", letter(cell.x), cell.y)
}

/// The cell a GTP name (a letter and a number, any case) stands for on a board of side `side`.
///
/// # Errors
/// A message saying what was expected when `text` is no cell name or the cell is off the
/// board.
pub fn parse_cell(text: &str, side: u32) -> Result<Cell, String> {
    let lower = text.to_ascii_lowercase();
    let mut chars = lower.chars();
    let column = chars.next().filter(char::is_ascii_lowercase);
    let row = chars.as_str();
    let (Some(column), true) = (
        column,
        !row.is_empty() && row.bytes().all(|b| b.is_ascii_digit()),
    ) else {
        return Err(format!(
            "invalid cell {text}: expected a letter and a number, such as c4"
        ));
    };
    let x = u32::from(column as u8 - b'a') + 1;
    let y = row.parse::<u32>().unwrap_or(0);
    let cell = Cell::new(x, y);
    match super::Board::new(side) {
        Some(board) if board.contains(cell) => Ok(cell),
        _ => Err(format!(
            "cell {text} is off the board: columns a.. and rows 1.. up to {}, with the column and \
             the row at most {} apart",
            2 * side - 1,
            side - 1
        )),
    }
}
