//! An exact solver for 3-D Sequence: who wins an n×n×n gravity connect-m position (n ≤ 7)
//! with perfect play, with a best move and, for a win, the principal variation.
//!
//! n = m = 4 is the game known as Score Four (Connect Four 3D), unsolved from the empty board;
//! see the TUM project [Towards Solving Connect Four 3D](https://tum-csc.github.io/c43d/), whose
//! solver this one is measured against.
//!
//! - The position is kept on the solver's own bitboards (one `u64` per colour for n ≤ 4, wider
//!   words beyond), each peg's column as consecutive bits, so the lowest empty cell of every peg
//!   is one shift away, and a ball's new threats come from the windows through its cell.
//! - The search is negamax alpha-beta as null-window probes ([`Mode::Full`] takes two at the
//!   root, [`Mode::Wins`] one), with threat reasoning before any move: a playable winning cell
//!   wins now; one playable opponent threat forces the reply; two lose; a cell under an
//!   opponent threat is never played (the gravity zugzwang); a player with no window left free
//!   of the opponent's balls cannot win.
//! - A transposition table of 64-bit atomic entries in buckets of two (TWOBIG: the most
//!   expensive and the most recent entry), keyed by the compact key (the balls of Black and a
//!   marker at the lowest empty cell of every peg: n³ + n² bits) made canonical under the 8
//!   symmetries of the square base, where the search can meet a position and its image: a
//!   root that disagrees with each of its images on some ball (most positions of twenty balls
//!   or more) keeps the identity's key alone, at an eighth of the keys' cost. Its size is set
//!   by [`Options::table_bytes`]; the positions with fewer than 14 empty cells, most of the
//!   probes, go to a second table of at most 8 MiB that stays in the caches.
//! - [`Options::algorithm`] can put a depth-first proof-number search (df-pn) over the first
//!   plies in place of the main thread's alpha-beta ([`Algorithm::ProofNumber`]): the same
//!   values, fewer nodes on some positions and more on others (measured in BENCHMARKS.md).
//! - [`Options::threads`] threads search the same root over the shared table (Lazy SMP). The
//!   value does not depend on the thread count, and the best move is chosen deterministically:
//!   the first move that reaches the value in an order fixed by the position alone (a ball that
//!   wins at once, then by the threats it makes, then by peg).
//! - [`Solver::check_win`] re-proves a win by replaying it against every defence;
//!   [`reference`](mod@reference) is the plain minimax the solver is tested against.
//!
//! ```
//! use bitgames::sequence::solver::{Mode, Options, Solver, Value};
//! use bitgames::sequence::{Game, Peg};
//!
//! // On 3×3×3, three in a row: the first player wins.
//! let game = Game::new(3, 3)?;
//! let mut solver = Solver::new(3, 3, Options::default())?;
//! let solution = solver.solve(&game, Mode::Full, Default::default())?;
//! assert_eq!(solution.value(), Some(Value::BlackWins));
//! let first = solution.best_move.expect("a won position has a winning move");
//! // The principal variation starts with the best move and ends with Black's winning ball.
//! assert_eq!(solution.principal_variation[0], first);
//! assert_eq!(solution.principal_variation.len() % 2, 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod bits;
mod dfpn;
mod geometry;
mod proof;
pub mod reference;
mod search;
mod table;

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bits::{Bits, Wide};
use dfpn::{NumberTable, Prover};
use geometry::{Geometry, SYMMETRIES};
use search::{Counts, Limit, Pos, Searcher, Shared};
use table::{Bound, Table, Tables};

pub use proof::{Proof, ProofError};

use super::{Color, Game, Peg, SizeError, check_size};

/// The value of a position under perfect play. Ordered as Black sees them: `WhiteWins <
/// Draw < BlackWins`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Value {
    /// The second player wins.
    WhiteWins,
    /// Neither can force a win.
    Draw,
    /// The first player wins.
    BlackWins,
}

impl Value {
    /// The value of a score (−1, 0, 1) for `mover`.
    fn of_score(score: i8, mover: Color) -> Value {
        match (score, mover) {
            (0, _) => Value::Draw,
            (1, Color::Black) | (-1, Color::White) => Value::BlackWins,
            _ => Value::WhiteWins,
        }
    }

    /// The winner, if any.
    pub fn winner(self) -> Option<Color> {
        match self {
            Value::BlackWins => Some(Color::Black),
            Value::WhiteWins => Some(Color::White),
            Value::Draw => None,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Value::BlackWins => "first player (Black) wins",
            Value::Draw => "draw",
            Value::WhiteWins => "second player (White) wins",
        })
    }
}

/// What is proven of a value: `lower ≤ value ≤ upper` (in Black's order, see [`Value`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Bounds {
    /// The value is at least this (for Black).
    pub lower: Value,
    /// The value is at most this (for Black).
    pub upper: Value,
}

impl Bounds {
    /// Nothing proven.
    pub const UNKNOWN: Bounds = Bounds {
        lower: Value::WhiteWins,
        upper: Value::BlackWins,
    };

    /// The value, when the bounds meet.
    pub fn exact(self) -> Option<Value> {
        (self.lower == self.upper).then_some(self.lower)
    }

    fn of_bound(b: Bound, mover: Color) -> Bounds {
        let (a, c) = (
            Value::of_score(b.lower, mover),
            Value::of_score(b.upper, mover),
        );
        Bounds {
            lower: a.min(c),
            upper: a.max(c),
        }
    }
}

impl fmt::Display for Bounds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.lower, self.upper) {
            (l, u) if l == u => write!(f, "{l}"),
            (Value::WhiteWins, Value::BlackWins) => f.write_str("nothing proven"),
            (Value::Draw, Value::BlackWins) => f.write_str("White does not win"),
            (Value::WhiteWins, Value::Draw) => f.write_str("Black does not win"),
            (l, u) => write!(f, "between {l} and {u}"),
        }
    }
}

/// What a search asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Mode {
    /// The exact value: win, draw or loss.
    #[default]
    Full,
    /// One-sided: does this player win? A draw counts as a loss (the question the TUM solver
    /// asks for the first player). The answer is the value, or an upper bound that says it
    /// does not win.
    Wins(Color),
}

/// When a search gives up. A search that gives up reports the bounds proven so far, never a
/// guess.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Limits {
    /// Wall-clock time.
    pub time: Option<Duration>,
    /// Nodes searched, all threads together (checked every few thousand nodes).
    pub nodes: Option<u64>,
}

/// How the main search thread answers the root's questions ("is the value at least t?").
/// Both give the same values (tested); they differ in time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Algorithm {
    /// Negamax alpha-beta as null-window probes, with the transposition table.
    #[default]
    AlphaBeta,
    /// Depth-first proof-number search (df-pn, with the 1 + ε threshold) over the first eight
    /// plies from the root, alpha-beta beyond. Its proof and disproof numbers take a table of
    /// their own, a quarter of [`Options::table_bytes`]. Helper threads ([`Options::threads`]
    /// above 1) search by alpha-beta over the shared table. On Score Four positions of 28 to 32
    /// balls it searched fewer nodes than alpha-beta on some positions and more on others, and
    /// about the same time in all (BENCHMARKS.md): alpha-beta is the default.
    ProofNumber,
}

/// How a solver is set up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// The transposition table's size in bytes, rounded down to a power of two of 16-byte
    /// buckets (at least one). Default 64 MiB. A second table of an eighth of that, at most
    /// 8 MiB, keeps the positions with fewer than 14 empty cells (none when the first table is
    /// large enough to be exact and the second is not: see [`Solver::table_is_exact`]).
    pub table_bytes: usize,
    /// Search threads (Lazy SMP over the shared table), at least 1. Default 1.
    pub threads: usize,
    /// The main thread's search. Default [`Algorithm::AlphaBeta`].
    pub algorithm: Algorithm,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            table_bytes: 64 << 20,
            threads: 1,
            algorithm: Algorithm::AlphaBeta,
        }
    }
}

impl Options {
    /// These options with a table of `bytes` bytes.
    pub const fn with_table_bytes(mut self, bytes: usize) -> Options {
        self.table_bytes = bytes;
        self
    }

    /// These options with `threads` search threads.
    pub const fn with_threads(mut self, threads: usize) -> Options {
        self.threads = threads;
        self
    }

    /// These options with the main thread searching by `algorithm`.
    pub const fn with_algorithm(mut self, algorithm: Algorithm) -> Options {
        self.algorithm = algorithm;
        self
    }
}

/// Counters of a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Stats {
    /// Positions searched (every probe of every thread, and the best-move and principal
    /// variation searches).
    pub nodes: u64,
    /// Transposition table look-ups.
    pub table_probes: u64,
    /// Look-ups that found the position.
    pub table_hits: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
}

impl Stats {
    /// Nodes per second.
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// The share of table look-ups that found the position (0 without look-ups).
    pub fn hit_rate(&self) -> f64 {
        if self.table_probes == 0 {
            0.0
        } else {
            self.table_hits as f64 / self.table_probes as f64
        }
    }

    fn add(&mut self, c: Counts) {
        self.nodes += c.nodes;
        self.table_probes += c.probes;
        self.table_hits += c.hits;
    }
}

/// The result of [`Solver::solve`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Solution {
    /// What is proven of the value.
    pub bounds: Bounds,
    /// The first move that reaches the proven lower bound of the player to move, in an order
    /// fixed by the position alone (a ball that wins at once, then by the threats the ball
    /// makes, then by peg); when that bound is a loss, the block of the opponent's open threat,
    /// else the first move that does not lose at once (or the first legal move). `None` when
    /// the search stopped before the value was known.
    pub best_move: Option<Peg>,
    /// For a won position: the winner's best moves and the loser's replies (a reply that blocks
    /// the winner's open threat when there is one, else the first that does not lose at once),
    /// ending with the winning ball. Empty otherwise.
    pub principal_variation: Vec<Peg>,
    /// Did a limit end the search before it had found all it was asked (the value, the best
    /// move and, for a win, the principal variation)? What it reports is still proven.
    pub stopped: bool,
    /// Counters.
    pub stats: Stats,
}

impl Solution {
    /// The value, when it is proven.
    pub fn value(&self) -> Option<Value> {
        self.bounds.exact()
    }
}

/// Why a solver cannot be made or a position not solved. Nothing is changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum SolverError {
    /// The board size is not allowed.
    Size(SizeError),
    /// The transposition table could not be allocated.
    OutOfMemory {
        /// The bytes asked for.
        bytes: usize,
    },
    /// The game is over: there is nothing to solve.
    Decided,
    /// The game's size is not the solver's.
    WrongSize {
        /// The game's (n, m).
        game: (u32, u32),
        /// The solver's (n, m).
        solver: (u32, u32),
    },
    /// [`Options::threads`] is 0.
    NoThreads,
}

impl fmt::Display for SolverError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SolverError::Size(e) => e.fmt(f),
            SolverError::OutOfMemory { bytes } => {
                write!(f, "cannot allocate a transposition table of {bytes} bytes")
            }
            SolverError::Decided => f.write_str("the game is already decided"),
            SolverError::WrongSize { game, solver } => write!(
                f,
                "the game is n = {}, m = {} but the solver is for n = {}, m = {}",
                game.0, game.1, solver.0, solver.1
            ),
            SolverError::NoThreads => f.write_str("a search needs at least one thread"),
        }
    }
}

impl std::error::Error for SolverError {}

impl From<SizeError> for SolverError {
    fn from(e: SizeError) -> SolverError {
        SolverError::Size(e)
    }
}

/// What a search is doing, for progress reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Phase {
    /// No search under way.
    Idle,
    /// Probing whether the value is at least this, for the player to move.
    Probe(Value),
    /// Finding the best move.
    BestMove,
    /// Following the principal variation.
    Variation,
    /// Checking a proof.
    Proof,
}

/// A handle on a solver's search, usable from another thread while it runs: nodes so far, the
/// phase, and a stop button.
#[derive(Clone)]
pub struct Monitor(Arc<Watch>);

struct Watch {
    shared: Shared,
    phase: AtomicU8,
}

impl Monitor {
    /// Nodes searched so far in the current (or last) search, updated every few thousand nodes.
    pub fn nodes(&self) -> u64 {
        self.0.shared.nodes.load(Ordering::Relaxed)
    }

    /// What the search is doing.
    pub fn phase(&self) -> Phase {
        match self.0.phase.load(Ordering::Relaxed) {
            1 => Phase::Probe(Value::BlackWins),
            2 => Phase::Probe(Value::Draw),
            3 => Phase::Probe(Value::WhiteWins),
            4 => Phase::BestMove,
            5 => Phase::Variation,
            6 => Phase::Proof,
            _ => Phase::Idle,
        }
    }

    /// Stops the search under way: it returns what it has proven.
    pub fn stop(&self) {
        self.0.shared.stop.store(true, Ordering::Relaxed);
    }

    fn set_phase(&self, phase: Phase) {
        let code = match phase {
            Phase::Idle => 0,
            Phase::Probe(Value::BlackWins) => 1,
            Phase::Probe(Value::Draw) => 2,
            Phase::Probe(Value::WhiteWins) => 3,
            Phase::BestMove => 4,
            Phase::Variation => 5,
            Phase::Proof => 6,
        };
        self.0.phase.store(code, Ordering::Relaxed);
    }
}

/// The bitboard width of each board size.
enum Engine {
    One(Geometry<u64>),
    Two(Geometry<u128>),
    Four(Geometry<Wide<4>>),
    Six(Geometry<Wide<6>>),
}

/// Runs `$body` with `$g` the engine's geometry, whatever its width.
macro_rules! with_geometry {
    ($engine:expr, $g:ident => $body:expr) => {
        match $engine {
            Engine::One($g) => $body,
            Engine::Two($g) => $body,
            Engine::Four($g) => $body,
            Engine::Six($g) => $body,
        }
    };
}

/// Stack for a search thread: one frame per empty cell, at most 343 deep.
const STACK_BYTES: usize = 64 << 20;

/// Empty cells up to which a one-thread search runs on the caller's thread instead of a
/// thread of its own with a [`STACK_BYTES`] stack: starting a thread (and mapping its stack)
/// costs more than a whole search of a small position. A release build takes under 1 KiB of
/// stack per empty cell (a search of the 64-cell Score Four board runs in 48 KiB and not in
/// 32 KiB), so this needs well under the 2 MiB of a spawned thread's default stack, even in a
/// debug build.
const INLINE_EMPTIES: u32 = 32;

/// The second table's largest size ([`Options::table_bytes`]): 8 MiB, in the L3 cache and the
/// TLB's reach of most CPUs.
const NEAR_BYTES: usize = 8 << 20;

/// Positions with fewer empty cells than this are kept in the second table (measured best among
/// 10, 12, 14 and 16 on Score Four positions of 28 and 30 balls: docs/perf-log.md).
const NEAR_BELOW: u32 = 14;

/// A solver for one board size: its tables and its transposition tables, kept from one solve to
/// the next (every entry stays true: the rules do not change).
pub struct Solver {
    n: u32,
    m: u32,
    engine: Engine,
    table: Table,
    /// The second table, for the positions with fewer than `near_below` empty cells.
    near: Table,
    near_below: u32,
    threads: usize,
    algorithm: Algorithm,
    /// The proof and disproof numbers of [`Algorithm::ProofNumber`] (one bucket otherwise).
    numbers: Mutex<NumberTable>,
    monitor: Monitor,
}

impl Solver {
    /// A solver for n×n×n boards where m in a row wins.
    ///
    /// # Errors
    /// [`SolverError::Size`] unless `1 ≤ m ≤ n ≤ 7`; [`SolverError::NoThreads`] for
    /// `options.threads == 0`; [`SolverError::OutOfMemory`] when the table cannot be allocated.
    pub fn new(n: u32, m: u32, options: Options) -> Result<Solver, SolverError> {
        check_size(n, m)?;
        if options.threads == 0 {
            return Err(SolverError::NoThreads);
        }
        let engine = match n {
            ..=4 => Engine::One(Geometry::new(n, m)),
            5 => Engine::Two(Geometry::new(n, m)),
            6 => Engine::Four(Geometry::new(n, m)),
            _ => Engine::Six(Geometry::new(n, m)),
        };
        let key_bits = with_geometry!(&engine, g => g.key_bits);
        let new_table = |bytes| {
            Table::new(bytes, key_bits, (n * n) as usize)
                .map_err(|e| SolverError::OutOfMemory { bytes: e.bytes })
        };
        let table = new_table(options.table_bytes)?;
        let mut near = new_table((options.table_bytes / 8).min(NEAR_BYTES))?;
        let mut near_below = NEAR_BELOW;
        if table.is_exact() && !near.is_exact() {
            // A table large enough to be exact stays so: no second table.
            (near, near_below) = (new_table(0)?, 0);
        }
        Ok(Solver {
            n,
            m,
            engine,
            table,
            near,
            near_below,
            threads: options.threads,
            algorithm: options.algorithm,
            numbers: Mutex::new(NumberTable::new(match options.algorithm {
                Algorithm::ProofNumber => options.table_bytes / 4,
                Algorithm::AlphaBeta => 0,
            })),
            monitor: Monitor(Arc::new(Watch {
                shared: Shared {
                    nodes: AtomicU64::new(0),
                    stop: AtomicBool::new(false),
                },
                phase: AtomicU8::new(0),
            })),
        })
    }

    /// The board side.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// The winning length.
    pub fn m(&self) -> u32 {
        self.m
    }

    /// The transposition table's size in bytes (the second table of
    /// [`Options::table_bytes`] not counted).
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Are the tables large enough that every position has its own slot key (no two positions
    /// can ever be confused)? True for n ≤ 3, and for n = 4 from a 4 GiB table (which then
    /// has no second table).
    pub fn table_is_exact(&self) -> bool {
        self.table.is_exact() && (self.near_below == 0 || self.near.is_exact())
    }

    /// Forgets every table entry.
    pub fn clear(&mut self) {
        self.table.clear();
        self.near.clear();
        self.numbers
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }

    /// The tables a search probes.
    fn tables(&self) -> Tables<'_> {
        Tables::new(&self.table, &self.near, self.near_below)
    }

    /// A handle to watch or stop the searches of this solver from another thread.
    pub fn monitor(&self) -> Monitor {
        self.monitor.clone()
    }

    fn check(&self, game: &Game) -> Result<(), SolverError> {
        if (game.n(), game.m()) != (self.n, self.m) {
            return Err(SolverError::WrongSize {
                game: (game.n(), game.m()),
                solver: (self.n, self.m),
            });
        }
        if game.outcome().is_some() {
            return Err(SolverError::Decided);
        }
        Ok(())
    }

    /// Solves `game`'s position: its value (or, for [`Mode::Wins`], whether that player wins),
    /// a best move, and for a win the principal variation.
    ///
    /// The search runs on threads of its own, with stacks deep enough for any board, except
    /// that searches of a position with at most 32 empty cells run on the calling thread: a
    /// one-thread solve then starts no thread (a multi-thread one still starts its helpers for
    /// the value; its best move and variation are found on the caller's thread), and so does
    /// [`Solver::check_win`]. The caller's thread should then have about 256 KiB of stack free
    /// (measured: under 64 KiB on the 4×4×4 board in this crate's builds; larger boards and
    /// unoptimised builds take more).
    ///
    /// # Errors
    /// [`SolverError::Decided`] for a game that is over, [`SolverError::WrongSize`] for a game
    /// of another size.
    pub fn solve(
        &mut self,
        game: &Game,
        mode: Mode,
        limits: Limits,
    ) -> Result<Solution, SolverError> {
        self.check(game)?;
        let start = Instant::now();
        let limit = Limit {
            deadline: limits.time.map(|t| start + t),
            nodes: limits.nodes,
        };
        let watch = &self.monitor.0;
        watch.shared.nodes.store(0, Ordering::Relaxed);
        watch.shared.stop.store(false, Ordering::Relaxed);
        let setup = Setup {
            tables: self.tables(),
            monitor: &self.monitor,
            limit,
            threads: self.threads,
            numbers: (self.algorithm == Algorithm::ProofNumber).then_some(&self.numbers),
        };
        let mut solution = with_geometry!(&self.engine, g => solve_on(g, &setup, game, mode));
        self.monitor.set_phase(Phase::Idle);
        solution.stats.elapsed = start.elapsed();
        Ok(solution)
    }

    /// Checks a win by replaying it: from `game`'s position, `winner` plays the solver's move
    /// at each of its turns and every reply of the other player is tried, until every line of
    /// play ends in a win for `winner`, judged by [`Game`] (not by the solver's bitboards).
    /// Positions already proven are not proven again.
    ///
    /// # Errors
    /// [`ProofError`] when a line of play does not end in a win for `winner` (the proof is
    /// wrong, or the solver stopped at `limits`), or `game` cannot be solved.
    pub fn check_win(
        &mut self,
        game: &Game,
        winner: Color,
        limits: Limits,
    ) -> Result<Proof, ProofError> {
        self.check(game).map_err(ProofError::Solver)?;
        let start = Instant::now();
        let limit = Limit {
            deadline: limits.time.map(|t| start + t),
            nodes: limits.nodes,
        };
        let watch = &self.monitor.0;
        watch.shared.nodes.store(0, Ordering::Relaxed);
        watch.shared.stop.store(false, Ordering::Relaxed);
        self.monitor.set_phase(Phase::Proof);
        let result = with_geometry!(&self.engine, g => {
            if images_can_meet(g, game) {
                check_on::<_, SYMMETRIES>(g, self.tables(), &watch.shared, limit, game, winner)
            } else {
                check_on::<_, 1>(g, self.tables(), &watch.shared, limit, game, winner)
            }
        });
        self.monitor.set_phase(Phase::Idle);
        result.map(|mut p| {
            p.elapsed = start.elapsed();
            p
        })
    }
}

/// Runs `f`, a search from a position with `empties` empty cells, on a stack deep enough for
/// it: the caller's up to [`INLINE_EMPTIES`], else a thread's with [`STACK_BYTES`].
fn on_big_stack<T: Send>(empties: u32, f: impl FnOnce() -> T + Send) -> T {
    if empties <= INLINE_EMPTIES {
        return f();
    }
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(STACK_BYTES)
            .spawn_scoped(s, f)
            .expect("a search thread can be started")
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// Can a search from `game` meet a position and its image under a symmetry
/// ([`Geometry::images_can_meet`])? Then its table keys are made canonical under all of
/// them, else the identity's key serves.
fn images_can_meet<B: Bits>(g: &Geometry<B>, game: &Game) -> bool {
    let pos: Pos<B, 1> = Pos::of_game(g, game);
    g.images_can_meet(pos.me, pos.opp)
}

/// [`Solver::check_win`] on one width, with `SYMS` keys a position.
fn check_on<B: Bits, const SYMS: usize>(
    g: &Geometry<B>,
    tables: Tables<'_>,
    shared: &Shared,
    limit: Limit,
    game: &Game,
    winner: Color,
) -> Result<Proof, ProofError> {
    let mut searcher = Searcher::<B, SYMS>::new(g, tables, shared, limit, 0);
    let empties = g.cells as u32 - game.moves_played();
    let result = on_big_stack(empties, || proof::check(g, &mut searcher, game, winner));
    searcher.flush();
    result
}

/// What a solve runs with besides the position and the question.
struct Setup<'a> {
    tables: Tables<'a>,
    monitor: &'a Monitor,
    limit: Limit,
    threads: usize,
    /// The proof-number search's table, when the main thread searches by df-pn.
    numbers: Option<&'a Mutex<NumberTable>>,
}

/// The solve on one width: the value on `setup.threads` threads, then (on one) the best move
/// and the principal variation.
fn solve_on<B: Bits>(g: &Geometry<B>, setup: &Setup<'_>, game: &Game, mode: Mode) -> Solution {
    if images_can_meet(g, game) {
        solve_with::<B, SYMMETRIES>(g, setup, game, mode)
    } else {
        solve_with::<B, 1>(g, setup, game, mode)
    }
}

/// [`solve_on`] with `SYMS` keys a position.
fn solve_with<B: Bits, const SYMS: usize>(
    g: &Geometry<B>,
    setup: &Setup<'_>,
    game: &Game,
    mode: Mode,
) -> Solution {
    let Setup {
        tables,
        monitor,
        limit,
        ..
    } = *setup;
    let shared = &monitor.0.shared;
    let mover = game.to_move();
    let root: Pos<B, SYMS> = Pos::of_game(g, game);
    // The mover's bound to prove: everything, or the half that answers the one-sided question.
    let mut want = Bound::UNKNOWN;
    if let Mode::Wins(player) = mode {
        // "Does `player` win?" is "is the value at least 1" for the mover when `player` moves,
        // else "is it at least 0".
        want = if player == mover {
            Bound { lower: 0, upper: 1 }
        } else {
            Bound {
                lower: -1,
                upper: 0,
            }
        };
    }
    let mut stats = Stats::default();
    let (proven, complete) = value_on_threads(g, setup, &root, want, &mut stats);
    let mut solution = Solution {
        bounds: Bounds::of_bound(proven, mover),
        best_move: None,
        principal_variation: Vec::new(),
        stopped: !complete,
        stats,
    };
    if !complete {
        return solution;
    }
    let mut searcher = Searcher::new(g, tables, shared, limit, 0);
    let (best, pv) = on_big_stack(root.empties, || {
        monitor.set_phase(Phase::BestMove);
        let best = best_move(g, &mut searcher, &root, proven.lower);
        monitor.set_phase(Phase::Variation);
        let pv = match (best, proven.lower == proven.upper) {
            (Some(_), true) if proven.lower != 0 => {
                variation(g, &mut searcher, &root, proven.lower)
            }
            _ => Vec::new(),
        };
        (best, pv)
    });
    searcher.flush();
    solution.stats.add(searcher.counts);
    solution.stopped = searcher.stopped;
    solution.best_move = best.map(|p| search::peg_of_index(g.n, p));
    solution.principal_variation = pv
        .into_iter()
        .map(|p| search::peg_of_index(g.n, p))
        .collect();
    solution
}

/// The proven bound of the root for the mover, searched by `threads` threads until one of them
/// settles `want` (then `true`), or a limit stops them all (`false`, and the join of what every
/// thread had proven).
fn value_on_threads<B: Bits, const SYMS: usize>(
    g: &Geometry<B>,
    setup: &Setup<'_>,
    root: &Pos<B, SYMS>,
    want: Bound,
    stats: &mut Stats,
) -> (Bound, bool) {
    let Setup {
        tables,
        monitor,
        limit,
        threads,
        numbers,
    } = *setup;
    let shared = &monitor.0.shared;
    let mover = if root.colour == 0 {
        Color::Black
    } else {
        Color::White
    };
    // The first thread to finish publishes the bound it proved; a limit leaves the join of
    // what every thread had proven.
    let done: Mutex<Option<Bound>> = Mutex::new(None);
    let partial: Mutex<Bound> = Mutex::new(Bound::UNKNOWN);
    let counts: Mutex<Counts> = Mutex::new(Counts::default());
    // One helper's search; each runs on a thread of its own, or on this one for a one-thread
    // search of a small position (see `INLINE_EMPTIES`).
    let search = |helper: usize| {
        let (done, partial, counts) = (&done, &partial, &counts);
        let mut searcher = Searcher::<B, SYMS>::new(g, tables, shared, limit, helper);
        let mut bound = want;
        loop {
            if bound.lower >= bound.upper {
                break;
            }
            let t = bound.upper;
            if helper == 0 {
                monitor.set_phase(Phase::Probe(Value::of_score(t, mover)));
            }
            let yes = match numbers.filter(|_| helper == 0) {
                Some(numbers) => {
                    let mut numbers = numbers.lock().unwrap_or_else(|e| e.into_inner());
                    Prover::new(g, tables, &mut numbers, &mut searcher).probe(root, t)
                }
                None => searcher.probe(root, t),
            };
            if searcher.stopped {
                break;
            }
            bound = bound.and(Bound::of_answer(t, yes));
        }
        searcher.flush();
        if bound.lower >= bound.upper {
            let mut d = done.lock().unwrap_or_else(|e| e.into_inner());
            if d.is_none() {
                *d = Some(bound);
                // The others stop: the answer is known.
                shared.stop.store(true, Ordering::Relaxed);
            }
        } else {
            let mut p = partial.lock().unwrap_or_else(|e| e.into_inner());
            *p = p.and(proven_part(bound, want));
        }
        let mut c = counts.lock().unwrap_or_else(|e| e.into_inner());
        c.nodes += searcher.counts.nodes;
        c.probes += searcher.counts.probes;
        c.hits += searcher.counts.hits;
    };
    if threads == 1 && root.empties <= INLINE_EMPTIES {
        search(0);
    } else {
        std::thread::scope(|s| {
            for helper in 0..threads {
                let search = &search;
                std::thread::Builder::new()
                    .stack_size(STACK_BYTES)
                    .spawn_scoped(s, move || search(helper))
                    .expect("a search thread can be started");
            }
        });
    }
    stats.add(counts.into_inner().unwrap_or_else(|e| e.into_inner()));
    let done = done.into_inner().unwrap_or_else(|e| e.into_inner());
    match done {
        Some(bound) => {
            // The answer is known: clear the stop the finishing thread set.
            shared.stop.store(false, Ordering::Relaxed);
            (proven_part(bound, want), true)
        }
        None => (
            partial.into_inner().unwrap_or_else(|e| e.into_inner()),
            false,
        ),
    }
}

/// What a search that narrowed `want` to `bound` proved: `want`'s own limits were a question,
/// not facts, so only the sides the search moved count.
fn proven_part(bound: Bound, want: Bound) -> Bound {
    Bound {
        lower: if bound.lower > want.lower {
            bound.lower
        } else {
            -1
        },
        upper: if bound.upper < want.upper {
            bound.upper
        } else {
            1
        },
    }
}

/// The first peg (from 0) in [`search::fixed_order`] whose move reaches `lower` for the mover;
/// for a loss, the block of the opponent's open threat if there is one, else the first peg that
/// does not lose at once, else the first legal peg. `None` if stopped.
pub(crate) fn best_move<B: Bits, const SYMS: usize>(
    g: &Geometry<B>,
    searcher: &mut Searcher<'_, B, SYMS>,
    pos: &Pos<B, SYMS>,
    lower: i8,
) -> Option<usize> {
    let play = g.playable(pos.occupied());
    let legal = search::fixed_order(g, pos);
    if lower > -1 {
        for &p in &legal {
            if searcher.move_reaches(pos, p, lower)? {
                return Some(p);
            }
        }
        // Unreachable when the bound is true; a table confusion would land here.
        return None;
    }
    let first = *legal.first()?;
    let block = pos.t_opp & play;
    if !block.is_zero() {
        return Some(g.peg_of(block.lowest()));
    }
    Some(
        legal
            .iter()
            .copied()
            .find(|&p| !loses_at_once(g, pos, p))
            .unwrap_or(first),
    )
}

/// Does the mover's ball on peg `p` let the opponent win with its next ball?
fn loses_at_once<B: Bits, const SYMS: usize>(
    g: &Geometry<B>,
    pos: &Pos<B, SYMS>,
    p: usize,
) -> bool {
    let play = g.playable(pos.occupied());
    let Some(c) = (0..g.n).map(|z| g.cell(p, z)).find(|&c| play.has(c)) else {
        return true;
    };
    if pos.t_me.has(c) {
        return false;
    }
    let child = pos.play(g, c);
    !(child.t_me & g.playable(child.occupied())).is_zero()
}

/// The principal variation of a won (`score` 1) or lost (−1) root, to the winning ball.
fn variation<B: Bits, const SYMS: usize>(
    g: &Geometry<B>,
    searcher: &mut Searcher<'_, B, SYMS>,
    root: &Pos<B, SYMS>,
    score: i8,
) -> Vec<usize> {
    let mut pos = *root;
    let mut winner_moves = score == 1;
    let mut line = Vec::new();
    while pos.empties > 0 {
        let play = g.playable(pos.occupied());
        let Some(peg) = best_move(g, searcher, &pos, if winner_moves { 1 } else { -1 }) else {
            return line;
        };
        line.push(peg);
        let Some(c) = (0..g.n).map(|z| g.cell(peg, z)).find(|&c| play.has(c)) else {
            return line;
        };
        if pos.t_me.has(c) {
            // A ball that completes a window ends the game.
            return line;
        }
        pos = pos.play(g, c);
        winner_moves = !winner_moves;
    }
    line
}
