//! [`Game`]: the two-player game, its incremental groups, rings and undo.

mod cells;
mod enclosure;
mod playouts;

pub use playouts::{DENSE_MAX_SIDE, Playouts};

use std::fmt;

use cells::{Cells, EMPTY, OFF_BOARD, Slot, stone_slot};
use enclosure::Enclosure;

use super::geometry::{Board, Border, Cell, NEIGHBOURS};
use super::{Color, Move, Outcome, PlayError, RingRule, Rules, SizeError, Wins};
use crate::rng::{GOLDEN, Rng, mix64};
use crate::search::Rollout;

/// One stone and its union-find node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stone {
    cell: Cell,
    color: Color,
    /// The parent stone; a root is its own parent.
    parent: u32,
    /// At a root: the group's number of stones.
    size: u32,
    /// At a root: the corners and edges the group touches.
    border: Border,
}

/// One union made by a move, enough to take it back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Union {
    /// The root that was hung under `big`.
    small: u32,
    big: u32,
    /// `big`'s border before the union.
    big_border: Border,
}

/// A move in the history, with how many unions it made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Record {
    played: Move,
    unions: u8,
}

/// A game of Havannah between White, who moves first, and Black.
///
/// A move places a stone of the player to move ([`Game::play`]) or, under the swap rule, is
/// Black's [`Move::Swap`] of White's first stone ([`Game::swap`]). The game ends with the
/// first bridge (a group holding two corners), fork (a group touching three edges; corners
/// are no edge) or ring (see [`RingRule`]; the default is the official rule), or in a draw
/// when the board is full; after that every move is refused.
///
/// Stones are joined into groups by a union-find over the stones, union by size without path
/// compression, each root carrying the corners and edges of its group; every union is logged,
/// so [`Game::undo`] restores the exact state. A new stone closes a chain around something
/// exactly when two of its neighbour *arcs* (maximal runs of own stones among its six
/// neighbours, off-board counting as not own) already belong to one group: O(1) per move.
/// The official rule adds one more case, a stone of the mover whose six neighbours are all
/// its own (a filled ring), found among the new stone's neighbours; the Code Jam rule
/// instead searches the newly closed inside for an empty cell (see [`RingRule`]), only when
/// a chain closes.
///
/// The cells live in an array on boards of side up to 127 and in a hash table beyond, so
/// memory follows the stones, not the area, up to side 2³⁰. Nothing allocates after the
/// tables have grown to a game's size.
///
/// ```
/// use bitgames::havannah::{Cell, Color, Game, Move, Outcome, PlayError, Wins};
///
/// let mut game = Game::new(3)?;
/// assert_eq!(game.to_move(), Color::White);
/// game.play(3, 3)?;
/// assert_eq!(game.stone(3, 3), Some(Color::White));
/// assert_eq!(game.play(3, 3), Err(PlayError::Occupied { cell: Cell::new(3, 3) }));
/// assert_eq!(game.undo(), Some(Move::Place(Cell::new(3, 3))));
/// assert_eq!(game.moves_played(), 0);
/// assert_eq!(game.legal_moves().count(), 19);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Game {
    board: Board,
    rules: Rules,
    cells: Cells,
    stones: Vec<Stone>,
    unions: Vec<Union>,
    history: Vec<Record>,
    hash: u64,
    outcome: Option<Outcome>,
    /// The Code Jam rule's search of a newly closed inside.
    enclosure: Enclosure,
    /// [`Game::playout`]'s list of empty cells.
    empty: Vec<Cell>,
    /// [`Game::playout`]'s list of every cell of the board (made on the first playout).
    board_cells: Vec<Cell>,
    /// The search's rollouts ([`search::Position::rollout`](crate::search::Position::rollout)).
    pub(super) scratch: Scratch,
}

/// A [`Playouts`] kept for the search's rollouts: memory, not state, so a clone of the game
/// starts without one (and an equal game may have one or not).
#[derive(Default)]
pub(super) struct Scratch(pub(super) Option<Box<Playouts>>);

impl Clone for Scratch {
    fn clone(&self) -> Scratch {
        Scratch(None)
    }
}

/// The Zobrist key of a stone of `color` on `cell`: a fixed mix of the two (no table, so no
/// memory that grows with the board).
#[inline(always)]
fn zobrist(cell: Cell, color: Color) -> u64 {
    mix64((cell.key() << 1 | color as u64).wrapping_add(GOLDEN))
}

/// For each set of own neighbours (bit d for direction d of [`NEIGHBOURS`]): bit d is set
/// when neighbour d starts an arc (it is own and the one before it is not). All six own is one
/// arc, from direction 0.
const ARC_STARTS: [u8; 64] = {
    let mut starts = [0u8; 64];
    let mut occ = 0;
    while occ < 64 {
        starts[occ] = if occ == 0x3f {
            1
        } else {
            (occ & !(((occ << 1) | (occ >> 5)) & 0x3f)) as u8
        };
        occ += 1;
    }
    starts
};

impl Game {
    /// An empty board with `side` cells per side, under the official rules without swap.
    ///
    /// # Errors
    /// [`SizeError`] if `side` is outside `2..=`[`MAX_SIDE`](super::geometry::MAX_SIDE).
    pub fn new(side: u32) -> Result<Game, SizeError> {
        Game::with_rules(side, Rules::default())
    }

    /// An empty board with `side` cells per side, under `rules`.
    ///
    /// # Errors
    /// [`SizeError`] if `side` is outside `2..=`[`MAX_SIDE`](super::geometry::MAX_SIDE).
    pub fn with_rules(side: u32, rules: Rules) -> Result<Game, SizeError> {
        let board = Board::new(side).ok_or(SizeError { side })?;
        Ok(Game {
            board,
            rules,
            cells: Cells::new(board),
            stones: Vec::new(),
            unions: Vec::new(),
            history: Vec::new(),
            hash: 0,
            outcome: None,
            enclosure: Enclosure::default(),
            empty: Vec::new(),
            board_cells: Vec::new(),
            scratch: Scratch::default(),
        })
    }

    /// [`Game::with_rules`], with the cells in the hash table that large boards use, whatever
    /// the side: for differential tests of that layout on small boards.
    ///
    /// # Errors
    /// As [`Game::with_rules`].
    #[doc(hidden)]
    pub fn with_hash_table(side: u32, rules: Rules) -> Result<Game, SizeError> {
        let mut game = Game::with_rules(side, rules)?;
        game.cells = Cells::sparse();
        Ok(game)
    }

    /// Empties the board, keeping its side, the rules and the memory.
    pub fn reset(&mut self) {
        self.cells.clear(self.stones.iter().map(|s| s.cell));
        self.stones.clear();
        self.unions.clear();
        self.history.clear();
        self.hash = 0;
        self.outcome = None;
    }

    /// Empties the board and gives it `side` cells per side (same rules), keeping memory where
    /// it can.
    ///
    /// # Errors
    /// [`SizeError`] if `side` is out of range; the game is then unchanged.
    pub fn resize(&mut self, side: u32) -> Result<(), SizeError> {
        let board = Board::new(side).ok_or(SizeError { side })?;
        self.board = board;
        self.board_cells.clear();
        self.cells.resize(board);
        self.stones.clear();
        self.unions.clear();
        self.history.clear();
        self.hash = 0;
        self.outcome = None;
        Ok(())
    }

    /// The board's shape.
    #[inline]
    pub fn board(&self) -> Board {
        self.board
    }

    /// The rules.
    #[inline]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Moves played so far (a swap counts as one).
    #[inline]
    pub fn moves_played(&self) -> u32 {
        self.history.len() as u32
    }

    /// Whose turn it is: White on odd move numbers, Black on even ones (also after a swap,
    /// which is Black's move 2).
    #[inline]
    pub fn to_move(&self) -> Color {
        if self.history.len().is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        }
    }

    /// How the game ended, or `None` while it goes on.
    #[inline]
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The winner, if the game is won.
    #[inline]
    pub fn winner(&self) -> Option<Color> {
        match self.outcome {
            Some(Outcome::Win { color, .. }) => Some(color),
            _ => None,
        }
    }

    /// The stones of the winning group (the group of the deciding stone, which holds the
    /// bridge's corners, the fork's edges or the ring's chain), in the order they were played;
    /// empty unless the game is won.
    pub fn winning_group(&self) -> Vec<Cell> {
        if self.winner().is_none() {
            return Vec::new();
        }
        let last = self.stones.len() as u32 - 1;
        let root = self.find(last);
        (0..self.stones.len() as u32)
            .filter(|&k| self.find(k) == root)
            .map(|k| self.stones[k as usize].cell)
            .collect()
    }

    /// The position's Zobrist key: the XOR of one fixed 64-bit key per stone (cell and
    /// colour), updated incrementally; whose turn it is follows from the stones.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The colour of the stone on (x, y), if any (`None` off the board too).
    pub fn stone(&self, x: u32, y: u32) -> Option<Color> {
        let cell = Cell::new(x, y);
        if !self.board.contains(cell) {
            return None;
        }
        match self.cells.get(self.board, cell) {
            EMPTY | OFF_BOARD => None,
            slot => Some(slot_color(slot)),
        }
    }

    /// The moves played, first to last.
    pub fn history(&self) -> impl Iterator<Item = Move> + '_ {
        self.history.iter().map(|r| r.played)
    }

    /// Every legal move: the empty cells by x then y, and [`Move::Swap`] where the rules allow
    /// it; nothing once the game is over. Lazy: on a large board it walks the whole board.
    pub fn legal_moves(&self) -> impl Iterator<Item = Move> + '_ {
        let over = self.outcome.is_some();
        let swap = !over && self.can_swap();
        self.board
            .iter()
            .filter(move |&c| !over && self.cells.get(self.board, c) == EMPTY)
            .map(Move::Place)
            .chain(swap.then_some(Move::Swap))
    }

    /// Clears `out` and fills it with [`Game::legal_moves`], the same moves in the same order,
    /// several times faster on boards up to side 127 (each row's cells read in one run).
    ///
    /// ```
    /// use bitgames::havannah::{Game, Move};
    /// let mut game = Game::new(4)?;
    /// game.play(4, 4)?;
    /// let mut moves = vec![Move::Swap];
    /// game.legal_moves_into(&mut moves);
    /// assert_eq!(moves, game.legal_moves().collect::<Vec<_>>());
    /// assert_eq!(moves.len(), 36);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn legal_moves_into(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        self.cells
            .for_each_empty(self.board, |cell| out.push(Move::Place(cell)));
        if self.can_swap() {
            out.push(Move::Swap);
        }
    }

    /// May the player to move swap now? (Under the swap rule, as Black's first move.)
    #[inline]
    pub fn can_swap(&self) -> bool {
        self.rules.allows_swap() && self.history.len() == 1 && self.outcome.is_none()
    }

    /// Plays `played`: a stone on its cell, or the swap.
    ///
    /// # Errors
    /// As [`Game::play`] and [`Game::swap`]; the game is then unchanged.
    pub fn play_move(&mut self, played: Move) -> Result<Option<Outcome>, PlayError> {
        match played {
            Move::Place(cell) => self.play(cell.x, cell.y),
            Move::Swap => self.swap().map(|()| None),
        }
    }

    /// Black's swap (pie rule): White's first stone becomes Black's, and White moves again.
    ///
    /// # Errors
    /// [`PlayError::NoSwap`] unless the rules allow it and this is move 2 (and
    /// [`PlayError::GameOver`] after the end); the game is then unchanged.
    pub fn swap(&mut self) -> Result<(), PlayError> {
        if self.outcome.is_some() {
            return Err(PlayError::GameOver);
        }
        if !self.can_swap() {
            return Err(PlayError::NoSwap);
        }
        self.flip_first();
        self.history.push(Record {
            played: Move::Swap,
            unions: 0,
        });
        Ok(())
    }

    /// Gives the first stone (alone on the board) the other colour.
    fn flip_first(&mut self) {
        let stone = &mut self.stones[0];
        let (cell, old) = (stone.cell, stone.color);
        stone.color = old.other();
        self.hash ^= zobrist(cell, old) ^ zobrist(cell, old.other());
        self.cells.set(cell, stone_slot(0, old.other()));
    }

    /// Places a stone of the player to move on (x, y); returns the outcome if the move ends
    /// the game (a win of the mover, or a draw on a full board).
    ///
    /// # Errors
    /// [`PlayError::OffBoard`], [`PlayError::Occupied`] or [`PlayError::GameOver`]; the game
    /// is then unchanged.
    #[inline]
    pub fn play(&mut self, x: u32, y: u32) -> Result<Option<Outcome>, PlayError> {
        let cell = self.check(x, y)?;
        Ok(self.play_unchecked(cell))
    }

    /// [`Game::play`] on `cell`, which is on the board and empty, in a game still going on.
    #[inline(always)]
    fn play_unchecked(&mut self, cell: Cell) -> Option<Outcome> {
        let color = self.to_move();
        let around = self.cells.around(self.board, cell);
        let wins = self.place(cell, color, &around);
        let outcome = if !wins.is_empty() {
            Some(Outcome::Win {
                color,
                wins,
                at: self.moves_played(),
            })
        } else if self.stones.len() as u64 == self.board.cells() {
            Some(Outcome::Draw)
        } else {
            None
        };
        // Returned from the local, not read back from `self` (a store-forwarding stall).
        self.outcome = outcome;
        outcome
    }

    /// What a stone of `color` on (x, y) would complete, whoever is to move (for agents
    /// looking for a winning move, or for the opponent's, to block it). The game is unchanged.
    ///
    /// ```
    /// use bitgames::havannah::{Color, Game, Wins};
    /// let mut game = Game::new(2)?;
    /// game.play(1, 1)?;
    /// assert_eq!(game.wins_with(Color::White, 1, 2)?, Wins::BRIDGE);
    /// assert_eq!(game.wins_with(Color::Black, 1, 2)?, Wins::NONE);
    /// assert_eq!(game.moves_played(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`Game::play`].
    pub fn wins_with(&mut self, color: Color, x: u32, y: u32) -> Result<Wins, PlayError> {
        let cell = self.check(x, y)?;
        let around = self.cells.around(self.board, cell);
        let wins = self.place(cell, color, &around);
        self.undo();
        Ok(wins)
    }

    /// A cell where a stone of `color` would win at once, whoever is to move (`None` once the
    /// game is over, or when there is none): for the player to move a winning move, for the
    /// other player a cell the player to move must block. The game is unchanged.
    ///
    /// Only cells next to a stone of `color` can win (a lone stone is no structure on a side
    /// of 2 or more); each is tested in O(1) on the union-find (its arcs' roots, their corners
    /// and edges, a closed chain), so a call costs O(stones of `color`). Under the Code Jam
    /// rule a cell that closes a chain is tested on a copy of the game, which searches the
    /// inside for an empty cell. Deterministic: the first such cell next to the earliest
    /// stone, in [`NEIGHBOURS`] order.
    ///
    /// ```
    /// use bitgames::havannah::{Cell, Color, Game};
    /// let mut game = Game::new(2)?;
    /// game.play(1, 1)?;
    /// game.play(3, 3)?;
    /// // On side 2 every border cell is a corner: a stone next to one's own corner stone
    /// // makes a bridge. White's first such neighbour of (1, 1) is (1, 2); Black's of (3, 3)
    /// // is (2, 3).
    /// assert_eq!(game.winning_cell(Color::White), Some(Cell::new(1, 2)));
    /// assert_eq!(game.winning_cell(Color::Black), Some(Cell::new(2, 3)));
    /// game.play(1, 2)?;
    /// assert_eq!(game.winning_cell(Color::Black), None); // the game is over
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn winning_cell(&self, color: Color) -> Option<Cell> {
        if self.outcome.is_some() {
            return None;
        }
        self.stones
            .iter()
            .filter(|s| s.color == color)
            .find_map(|s| self.winning_neighbour(s.cell, color))
    }

    /// An empty neighbour of the on-board `cell` where a stone of `color` would win at once.
    #[inline]
    fn winning_neighbour(&self, cell: Cell, color: Color) -> Option<Cell> {
        let around = self.cells.around(self.board, cell);
        (0..6).find_map(|d| {
            if around[d] != EMPTY {
                return None;
            }
            let (dx, dy) = NEIGHBOURS[d];
            let next = Cell::new(
                cell.x.wrapping_add_signed(dx),
                cell.y.wrapping_add_signed(dy),
            );
            self.would_win(next, color).then_some(next)
        })
    }

    /// Would a stone of `color` on the empty on-board `cell` complete a bridge, fork or ring?
    /// The same test as [`Game::place`], read-only.
    fn would_win(&self, cell: Cell, color: Color) -> bool {
        let (own, joined, closed) = self.joining(cell, color);
        if own == 0 {
            return false;
        }
        if joined.is_bridge() || joined.is_fork() {
            return true;
        }
        match self.rules.ring_rule() {
            RingRule::Official => closed || self.fills_a_ring(cell, color, own),
            RingRule::CodeJam => {
                closed
                    && self
                        .clone()
                        .wins_with(color, cell.x, cell.y)
                        .is_ok_and(|wins| !wins.is_empty())
            }
        }
    }

    /// What a stone of `color` on the empty on-board `cell` would join, read-only (the joins
    /// [`Game::place`] makes): its own neighbours (bit d for direction d), the corners and edges
    /// of the group it would make, and whether two of its arcs are in one group already (it
    /// would close a chain).
    #[inline(always)]
    fn joining(&self, cell: Cell, color: Color) -> (u32, Border, bool) {
        let around = self.cells.around(self.board, cell);
        let mut own = 0u32;
        for (d, &slot) in around.iter().enumerate() {
            if slot < OFF_BOARD && slot_color(slot) == color {
                own |= 1 << d;
            }
        }
        let mut roots = [u32::MAX; 3];
        let mut count = 0;
        let mut closed = false;
        let mut joined = self.cells.border(self.board, cell);
        let mut starts = u32::from(ARC_STARTS[own as usize]);
        while starts != 0 {
            let d = starts.trailing_zeros() as usize;
            starts &= starts - 1;
            let root = self.find(around[d] >> 1);
            if roots[..count].contains(&root) {
                closed = true;
            } else {
                roots[count] = root;
                count += 1;
                joined = joined.with(self.stones[root as usize].border);
            }
        }
        (own, joined, closed)
    }

    /// The search's prior knowledge ([`crate::search::Position::priors`]), the two kinds the
    /// morat engine uses by default, with its weights: for each of `moves`, 20 for each corner
    /// and edge that the group a stone there would make touches, and 25 when the move answers
    /// a probe of a bridge (the opponent's last stone on one of the two cells between two
    /// stones of the player to move, or between such a stone and the edge of the board; the
    /// move takes the other), at most 255. A swap gets 0.
    pub(crate) fn priors(&self, moves: &[Move], out: &mut [u8]) {
        let me = self.to_move();
        let replies = self.bridge_replies(me);
        for (out, &mv) in out.iter_mut().zip(moves) {
            let Move::Place(cell) = mv else {
                *out = 0;
                continue;
            };
            let (_, joined, _) = self.joining(cell, me);
            let reply = replies.contains(&Some(cell));
            let bonus = 20 * (joined.corners() + joined.edges()) + if reply { 25 } else { 0 };
            *out = bonus.min(255) as u8;
        }
    }

    /// The cells that answer the opponent's last stone where it probes a bridge of `me`: its
    /// empty neighbours whose two neighbours next to them around it hold `me`'s stones or are
    /// off the board.
    fn bridge_replies(&self, me: Color) -> [Option<Cell>; 6] {
        let mut replies = [None; 6];
        if let Some(Move::Place(last)) = self.history.last().map(|r| r.played) {
            let mask = self.bridge_mask(last, me);
            for (d, reply) in replies.iter_mut().enumerate() {
                if mask >> d & 1 != 0 {
                    *reply = last.neighbour(d);
                }
            }
        }
        replies
    }

    /// The cell (x, y) if a stone may go there now.
    #[inline(always)]
    fn check(&self, x: u32, y: u32) -> Result<Cell, PlayError> {
        if self.outcome.is_some() {
            return Err(PlayError::GameOver);
        }
        let cell = Cell::new(x, y);
        match self.cells.get(self.board, cell) {
            EMPTY => Ok(cell),
            OFF_BOARD => Err(PlayError::OffBoard {
                cell,
                side: self.board.side(),
            }),
            _ => Err(PlayError::Occupied { cell }),
        }
    }

    /// Puts a stone of `color` on the empty `cell` whose neighbours hold `around`, joins its
    /// groups, records the move and returns what it completes.
    #[inline(always)]
    fn place(&mut self, cell: Cell, color: Color, around: &[Slot; 6]) -> Wins {
        let k = self.stones.len() as u32;
        let border = self.cells.border(self.board, cell);
        self.stones.push(Stone {
            cell,
            color,
            parent: k,
            size: 1,
            border,
        });
        self.cells.insert(cell, stone_slot(k, color));
        self.hash ^= zobrist(cell, color);

        let mut own = 0u32;
        for (d, &slot) in around.iter().enumerate() {
            if slot < OFF_BOARD && slot_color(slot) == color {
                own |= 1 << d;
            }
        }
        // The roots of the arcs; a root met twice closes a chain.
        let mut roots = [u32::MAX; 3];
        let mut count = 0;
        let mut closed = false;
        let mut starts = u32::from(ARC_STARTS[own as usize]);
        while starts != 0 {
            let d = starts.trailing_zeros() as usize;
            starts &= starts - 1;
            let root = self.find(around[d] >> 1);
            if roots[..count].contains(&root) {
                closed = true;
            } else {
                roots[count] = root;
                count += 1;
            }
        }
        let mut root = k;
        for &other in &roots[..count] {
            root = self.union(root, other);
        }
        self.history.push(Record {
            played: Move::Place(cell),
            unions: count as u8,
        });

        let joined = self.stones[root as usize].border;
        let mut wins = Wins::NONE;
        if joined.is_bridge() {
            wins = wins.with(Wins::BRIDGE);
        }
        if joined.is_fork() {
            wins = wins.with(Wins::FORK);
        }
        let ring = match self.rules.ring_rule() {
            RingRule::Official => closed || self.fills_a_ring(cell, color, own),
            RingRule::CodeJam => closed && self.encloses_an_empty_cell(cell, color, own, around),
        };
        if ring {
            wins = wins.with(Wins::RING);
        }
        wins
    }

    /// Official rule: does the new stone on `cell` (own neighbours `own`) complete the six
    /// neighbours of one of its own neighbours? That stone is then inside a ring of its own
    /// colour. Neighbour d's six neighbours are `cell`, its neighbours d − 1 and d + 1, and the
    /// three cells one step further in directions d − 1, d and d + 1.
    #[inline(always)]
    fn fills_a_ring(&self, cell: Cell, color: Color, own: u32) -> bool {
        let triples = triples(own as usize) as u32;
        triples != 0 && self.fills_around(cell, color, triples)
    }

    /// [`Game::fills_a_ring`] for the neighbours d of `cell` with bit d of `triples` set.
    #[inline(never)]
    fn fills_around(&self, cell: Cell, color: Color, triples: u32) -> bool {
        (0..6).any(|d| {
            triples >> d & 1 == 1 && {
                let (dx, dy) = NEIGHBOURS[d];
                let y = Cell::new(
                    cell.x.wrapping_add_signed(dx),
                    cell.y.wrapping_add_signed(dy),
                );
                [5, 0, 1].iter().all(|&turn| {
                    let (dx, dy) = NEIGHBOURS[(d + turn) % 6];
                    let far = Cell::new(y.x.wrapping_add_signed(dx), y.y.wrapping_add_signed(dy));
                    let slot = self.cells.get(self.board, far);
                    slot < OFF_BOARD && slot_color(slot) == color
                })
            }
        })
    }

    /// Code Jam rule, after the new stone closed a chain: does one of the regions it cut off
    /// from the border hold an empty cell?
    fn encloses_an_empty_cell(
        &mut self,
        cell: Cell,
        color: Color,
        own: u32,
        around: &[Slot; 6],
    ) -> bool {
        let Game {
            board,
            cells,
            enclosure,
            ..
        } = self;
        enclosure.holds_empty(*board, cell, own, around, |c| {
            let slot = cells.get(*board, c);
            if slot == OFF_BOARD {
                enclosure::Kind::OffBoard
            } else if slot == EMPTY {
                enclosure::Kind::Empty
            } else if slot_color(slot) == color {
                enclosure::Kind::Own
            } else {
                enclosure::Kind::Other
            }
        })
    }

    /// The root of stone `k`'s group.
    #[inline(always)]
    fn find(&self, mut k: u32) -> u32 {
        loop {
            let parent = self.stones[k as usize].parent;
            if parent == k {
                return k;
            }
            k = parent;
        }
    }

    /// Joins the groups of roots `a` and `b` (different), the smaller under the larger; logs
    /// the union and returns the new root.
    #[inline(always)]
    fn union(&mut self, a: u32, b: u32) -> u32 {
        let (sa, sb) = (self.stones[a as usize].size, self.stones[b as usize].size);
        let (big, small) = if sa < sb { (b, a) } else { (a, b) };
        let moved = self.stones[small as usize];
        let root = &mut self.stones[big as usize];
        self.unions.push(Union {
            small,
            big,
            big_border: root.border,
        });
        root.size += moved.size;
        root.border = root.border.with(moved.border);
        self.stones[small as usize].parent = big;
        big
    }

    /// Takes back the last move and returns it (`None` before the first move). The state is
    /// then exactly as before that move: stones, groups, hash, outcome and history.
    pub fn undo(&mut self) -> Option<Move> {
        let record = self.history.pop()?;
        self.outcome = None;
        match record.played {
            Move::Swap => self.flip_first(),
            Move::Place(cell) => {
                for _ in 0..record.unions {
                    let Some(u) = self.unions.pop() else {
                        unreachable!("every union of a move is logged")
                    };
                    let small = self.stones[u.small as usize];
                    let big = &mut self.stones[u.big as usize];
                    big.size -= small.size;
                    big.border = u.big_border;
                    self.stones[u.small as usize].parent = u.small;
                }
                let Some(stone) = self.stones.pop() else {
                    unreachable!("a placed move has its stone")
                };
                self.cells.remove_newest(cell);
                self.hash ^= zobrist(cell, stone.color);
            }
        }
        Some(record.played)
    }

    /// Plays random legal stones (never a swap) until the game ends, and returns the outcome
    /// (the game is left at the end: undo the moves, or [`Game::reset`], to go on). On a large
    /// board this walks every cell once to list the empty ones.
    pub fn playout(&mut self, rng: &mut Rng) -> Outcome {
        if let Some(outcome) = self.outcome {
            return outcome;
        }
        let mut empty = self.take_empty_cells();
        let mut outcome = None;
        for i in 0..empty.len() {
            let j = i + rng.below((empty.len() - i) as u32) as usize;
            empty.swap(i, j);
            if let Some(o) = self.play_unchecked(empty[i]) {
                outcome = Some(o);
                break;
            }
        }
        self.empty = empty;
        // A board with no empty cell left ends in a draw or a win on its last stone.
        outcome.unwrap_or(Outcome::Draw)
    }

    /// [`Game::playout`] with decisive and anti-decisive moves near the last stones: before
    /// each move, an empty neighbour of the mover's last stone that wins at once is played;
    /// else an empty neighbour of the opponent's last stone where the opponent would win at
    /// once is taken; else a random empty cell. A rollout policy, O(1) per move: threats away
    /// from the last two stones are not looked for ([`Game::winning_cell`] finds them all).
    ///
    /// ```
    /// use bitgames::havannah::{Game, Outcome};
    /// use bitgames::rng::Rng;
    /// let mut game = Game::new(6)?;
    /// let outcome = game.playout_decisive(&mut Rng::new(3));
    /// assert_eq!(game.outcome(), Some(outcome));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn playout_decisive(&mut self, rng: &mut Rng) -> Outcome {
        self.decisive_playout(rng, false)
    }

    /// [`Game::playout_decisive`] that also saves bridges: when neither player has a win next
    /// to the last stones, and the opponent's last stone probes a bridge of the mover (it is
    /// on one of the two empty cells between two of the mover's stones, or between one and the
    /// edge of the board), the mover takes the other cell; else a random empty cell. Several
    /// such cells are taken in direction order ([`NEIGHBOURS`]) from direction `ply mod 6`,
    /// `ply` being the moves played, so that no direction is preferred. (The morat engine's
    /// `rolloutpattern`.)
    ///
    /// ```
    /// use bitgames::havannah::{Game, Outcome};
    /// use bitgames::rng::Rng;
    /// let mut game = Game::new(6)?;
    /// let outcome = game.playout_bridges(&mut Rng::new(3));
    /// assert_eq!(game.outcome(), Some(outcome));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn playout_bridges(&mut self, rng: &mut Rng) -> Outcome {
        self.decisive_playout(rng, true)
    }

    /// The playout of `policy`: [`Game::playout`], [`Game::playout_decisive`] or
    /// [`Game::playout_bridges`], for a policy chosen at run time.
    pub fn playout_with(&mut self, policy: Rollout, rng: &mut Rng) -> Outcome {
        match policy {
            Rollout::Random => self.playout(rng),
            Rollout::Decisive => self.playout_decisive(rng),
            Rollout::Bridges => self.playout_bridges(rng),
        }
    }

    /// [`Game::playout_decisive`], and with `bridges` [`Game::playout_bridges`].
    fn decisive_playout(&mut self, rng: &mut Rng, bridges: bool) -> Outcome {
        if let Some(outcome) = self.outcome {
            return outcome;
        }
        let mut empty = self.take_empty_cells();
        let mut last = self.newest_stones();
        // Set when the last move found no threat of the player now to move next to that
        // player's last stone and did not block one: a stone of the other colour creates no
        // win, so there is still none and the search is skipped. After a block it is redone
        // (there may be a second threat).
        let mut no_threat = false;
        let mut outcome = None;
        for i in 0..empty.len() {
            let me = self.to_move();
            let them = me.other();
            // My own threat: known from the opponent's turn unless it was blocked there.
            let mine = if no_threat {
                None
            } else {
                last[me as usize].and_then(|c| self.winning_neighbour(c, me))
            };
            let theirs = if mine.is_some() {
                None
            } else {
                last[them as usize].and_then(|c| self.winning_neighbour(c, them))
            };
            let reply = if bridges && mine.is_none() && theirs.is_none() {
                last[them as usize].and_then(|c| self.bridge_reply(c, me))
            } else {
                None
            };
            let j = match mine.or(theirs).or(reply) {
                Some(cell) => match empty[i..].iter().position(|&e| e == cell) {
                    Some(k) => i + k,
                    None => unreachable!("an empty cell is in the list of empty cells"),
                },
                None => i + rng.below((empty.len() - i) as u32) as usize,
            };
            empty.swap(i, j);
            last[me as usize] = Some(empty[i]);
            if let Some(o) = self.play_unchecked(empty[i]) {
                outcome = Some(o);
                break;
            }
            no_threat = theirs.is_none();
        }
        self.empty = empty;
        outcome.unwrap_or(Outcome::Draw)
    }

    /// The directions from `last` of its empty neighbours that answer a probe of a bridge of
    /// `me` by the stone on `last`: those whose two neighbours next to them around `last` hold
    /// a stone of `me` or are off the board (bit d for direction d).
    fn bridge_mask(&self, last: Cell, me: Color) -> u32 {
        let around = self.cells.around(self.board, last);
        let (mut empty, mut holds) = (0u32, 0u32);
        for (d, &slot) in around.iter().enumerate() {
            if slot == EMPTY {
                empty |= 1 << d;
            } else if slot == OFF_BOARD || (slot < OFF_BOARD && slot_color(slot) == me) {
                holds |= 1 << d;
            }
        }
        // Bit d of the first: d − 1 holds; of the second: d + 1 holds.
        empty & (holds << 1 | holds >> 5) & (holds >> 1 | holds << 5) & 0x3f
    }

    /// [`Game::playout_bridges`]' answer to the stone on `last`, for `me`.
    fn bridge_reply(&self, last: Cell, me: Color) -> Option<Cell> {
        let replies = self.bridge_mask(last, me);
        if replies == 0 {
            return None;
        }
        let from = self.history.len() as u32 % 6;
        let d = (from + ((replies | replies << 6) >> from).trailing_zeros()) % 6;
        last.neighbour(d as usize)
    }

    /// The newest stone of each colour, White then Black (the decisive playouts look next to
    /// them).
    fn newest_stones(&self) -> [Option<Cell>; 2] {
        let mut last = [None, None];
        for stone in self.stones.iter().rev() {
            let slot = &mut last[stone.color as usize];
            if slot.is_none() {
                *slot = Some(stone.cell);
            }
            if last.iter().all(Option::is_some) {
                break;
            }
        }
        last
    }

    /// The empty cells, in a list taken from `self.empty` (give it back when done).
    fn take_empty_cells(&mut self) -> Vec<Cell> {
        if self.board_cells.len() as u64 != self.board.cells() {
            self.board_cells.clear();
            self.board_cells.extend(self.board.iter());
        }
        let mut empty = std::mem::take(&mut self.empty);
        empty.clear();
        empty.extend(
            self.board_cells
                .iter()
                .filter(|&&c| self.cells.get(self.board, c) == EMPTY),
        );
        empty
    }

    /// The moves played from move number `ply` on (0 = all of them), into `out`.
    pub(super) fn moves_since(&self, ply: u32, out: &mut Vec<Move>) {
        out.clear();
        let from = (ply as usize).min(self.history.len());
        out.extend(self.history[from..].iter().map(|r| r.played));
    }
}

/// Bit d set when neighbours d − 1, d and d + 1 (cyclically) are all in `own`.
#[inline(always)]
const fn triples(own: usize) -> usize {
    let rotated = own * 0x1041;
    own & (rotated >> 5) & (rotated >> 1) & 0x3f
}

/// The colour of a stone's slot.
#[inline(always)]
fn slot_color(slot: Slot) -> Color {
    if slot & 1 == 0 {
        Color::White
    } else {
        Color::Black
    }
}

impl PartialEq for Game {
    /// Same board, rules, moves in the same order and the same groups (the structure the
    /// union-find has built, which replaying the moves rebuilds).
    fn eq(&self, other: &Game) -> bool {
        self.board == other.board
            && self.rules == other.rules
            && self.history == other.history
            && self.stones == other.stones
            && self.unions == other.unions
            && self.hash == other.hash
            && self.outcome == other.outcome
    }
}

impl Eq for Game {}

impl fmt::Debug for Game {
    /// Draws boards up to side 20 as rows of constant x (`W` White, `B` Black, `.` empty),
    /// from x = n at the top, each row shifted so that neighbours touch; larger boards as a
    /// summary.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (s, n) = (self.board.side(), self.board.n());
        writeln!(
            f,
            "Game {{ side: {s}, moves: {}, to_move: {:?}, outcome: {:?} }}",
            self.moves_played(),
            self.to_move(),
            self.outcome
        )?;
        if s > 20 {
            return Ok(());
        }
        for x in (1..=n).rev() {
            let lo = x.saturating_sub(s - 1).max(1);
            let hi = (x + s - 1).min(n);
            let indent = (2 * lo + n - x) as usize;
            write!(f, "{:indent$}", "")?;
            for y in lo..=hi {
                let c = match self.stone(x, y) {
                    Some(Color::White) => 'W',
                    Some(Color::Black) => 'B',
                    None => '.',
                };
                write!(f, "{c} ")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Union by size: a stone joining a group goes under the group's root, so a line of
    /// stones played one after the other is a tree of depth one, not a chain.
    #[test]
    fn groups_stay_shallow_as_a_line_grows() {
        let mut game = Game::new(10).unwrap();
        // Two lines inside the board, away from its edges and corners: White's along y = 10,
        // Black's along y = 5, one stone of each in turn.
        for x in 2..=13 {
            assert_eq!(game.play(x, 10), Ok(None));
            assert_eq!(game.play(x, 5), Ok(None));
        }
        let depth = |mut k: u32| {
            let mut d = 0;
            while game.stones[k as usize].parent != k {
                k = game.stones[k as usize].parent;
                d += 1;
            }
            d
        };
        let deepest = (0..game.stones.len() as u32).map(depth).max();
        assert_eq!(deepest, Some(1));
    }
}
