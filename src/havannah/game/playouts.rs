//! [`Playouts`]: random and decisive playouts on a dense copy of a [`Game`]'s position.
//!
//! A playout needs no undo, no hash and no history, only the colours, the groups and the
//! empty cells. So it runs on its own arrays, one entry per cell of the padded square (the
//! layout of the dense [`Cells`](super::cells::Cells): cell (x, y) at `x · width + y`, a frame
//! of off-board cells around the board, neighbours at fixed offsets): a colour byte, a
//! union-find parent (path halving, no undo log) and, at a root, the group's corners and
//! edges. Loading a position copies the empty board's colours and writes the game's stones and
//! roots; the moves then follow the same rules and the same random choices as
//! [`Game::playout`] and [`Game::playout_decisive`], which are its reference: for the same
//! position and generator both give the same moves and the same outcome (tested).

use super::enclosure::{Enclosure, Kind};
use super::{ARC_STARTS, Game, OFF_BOARD, Record, triples};
use crate::havannah::geometry::{Board, Border, Cell, NEIGHBOURS};
use crate::havannah::position::move_index;
use crate::havannah::{Color, Move, Outcome, RingRule, Wins};
use crate::rng::Rng;
use crate::search::Rollout;

/// A cell's colour byte: no stone.
const EMPTY: u8 = 0;
/// A cell's colour byte: not on the board (the frame and the square's cut corners). Each
/// colour byte has its own bit: a stone of byte `c` is bit `c − 1` of its byte.
const OFF: u8 = 4;

/// The colour byte of a stone of `color`: 1 for White, 2 for Black.
#[inline(always)]
const fn byte(color: Color) -> u8 {
    color as u8 + 1
}

/// The colour of a stone's [`byte`].
#[inline(always)]
const fn color_of(c: u8) -> Color {
    if c == 1 { Color::White } else { Color::Black }
}

/// The largest side [`Playouts`] plays on its dense arrays (cell numbers fit in 16 bits);
/// larger boards play on a copy of the [`Game`] instead.
pub const DENSE_MAX_SIDE: u32 = 127;

/// A reusable playout engine for [`Game`] positions: [`Playouts::random`] and
/// [`Playouts::decisive`] play a game out from a position without changing it, and
/// [`Playouts::moves`] lists the moves of the last playout.
///
/// On boards up to side [`DENSE_MAX_SIDE`] the playout runs on the engine's own dense arrays
/// (no undo log, no hash, path halving in the union-find), about twice as fast as playing the
/// moves on the [`Game`] (BENCHMARKS.md); on larger boards on a kept copy of the game. Either way the moves
/// and the outcome are exactly those of [`Game::playout`] / [`Game::playout_decisive`] on a
/// copy of the game with the same generator. Nothing allocates once the arrays have grown to
/// the board's size; the engine may be reused for any board, the geometry is rebuilt when the
/// side changes.
///
/// ```
/// use bitgames::havannah::{Game, Outcome, Playouts};
/// use bitgames::rng::Rng;
///
/// let mut game = Game::new(8)?;
/// game.play(8, 8)?;
/// let mut playouts = Playouts::new();
/// let outcome = playouts.random(&game, &mut Rng::new(1));
/// assert_eq!(game.moves_played(), 1); // the game is unchanged
///
/// // The same playout on the game itself:
/// let mut copy = game.clone();
/// assert_eq!(copy.playout(&mut Rng::new(1)), outcome);
/// let played: Vec<_> = copy.history().skip(1).collect();
/// assert_eq!(playouts.moves().collect::<Vec<_>>(), played);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Default)]
pub struct Playouts {
    /// The board the geometry below was built for.
    board: Option<Board>,
    /// `n + 2`.
    width: usize,
    /// The neighbour offsets in [`NEIGHBOURS`] order (wrapping, as cell numbers are `u16`).
    offsets: [u16; 6],
    /// Every board cell's number, by x then y (the order of [`Board::iter`]).
    cells: Vec<u16>,
    /// For every cell number of the board, its place in `cells`.
    rank: Vec<u16>,
    /// For every cell number of the board, its move's index (`search::Position::move_index`:
    /// `(x − 1)·n + y − 1`).
    move_index: Vec<u32>,
    /// A set of places in `cells`, 64 a word: the stones of the position being loaded.
    taken: Vec<u64>,
    /// The empty board's colours and links (its `width²` cells).
    template: (Vec<u8>, Vec<Link>),
    /// The empty board's [`Arrays::around`] (its `width²` cells).
    template_around: Vec<u32>,
    /// The position, made on the first playout.
    dense: Option<Dense>,
    /// How many cells the last load found empty.
    empties: usize,
    /// Moves of the last playout.
    played: usize,
    /// The Code Jam rule's search of a newly closed inside.
    enclosure: Enclosure,
    /// Large boards: the copy of the game the playout runs on, and its length before it.
    copy: Option<Box<Game>>,
    copy_from: u32,
    /// Whether the last playout ran on `copy`.
    on_copy: bool,
}

/// Every cell number that a `u16` can hold: the arrays are indexed by a `u16` without a bounds
/// check.
const SQUARE: usize = 1 << 16;

/// Where cell number 0's colour byte is in [`Arrays::color`]: more than the largest width
/// plus one.
const PAD: usize = 256;

/// A stone's links, one per cell of the padded square.
#[derive(Debug, Clone, Copy, Default)]
struct Link {
    /// A stone's union-find parent (a root is its own parent).
    parent: u16,
    /// At a root: its group's corners and edges; at an empty cell, its own corner or edges.
    group: u16,
}

/// A position and the tables its moves read, in one block: the hot loop reaches all of it
/// from one pointer.
#[repr(C)]
struct Arrays {
    /// Every cell number's links.
    links: [Link; SQUARE],
    /// The colour bytes, [`EMPTY`], [`OFF`] or a stone's [`byte`]: cell number `i`'s at
    /// `i + PAD` (so that a neighbour's index needs no wrapping), and some more after.
    color: [u8; PAD + SQUARE + 2 * PAD],
    /// For each byte of own neighbours as [`Work::neighbourhood`] gathers them: the offsets
    /// (bits 0–15, 16–31, 32–47) of the first cells of its arcs, in direction order, 0 for none;
    /// bit 48 set when there is a second arc, bit 49 a third, bit 50 when three own neighbours
    /// are in a row (the official rule's filled ring may be complete); bits 56–63 hold the
    /// byte itself.
    arcs: [u64; 256],
    /// For the same bytes, when three own neighbours are in a row: for the first two such
    /// rows, the offsets (bits 0–15, 16–31, 32–47) of the three cells beyond the row's middle
    /// one, which with the row surround that middle cell; bit 48 of the second set when
    /// there is a third row. A missing second row repeats the first.
    rings: [[u64; 2]; 256],
    /// The empty cells; after a playout its first moves are its moves, in order.
    empty: [u16; SQUARE],
    /// [`completes_a_border`] by its argument's low 12 bits (1 for true).
    border_wins: [u8; 4096],
    /// Decisive playouts: for every cell (at `i + PAD`, as the colours), its neighbours by
    /// direction: White's stones in bits 0–5, Black's in 8–13, off-board cells in 16–21.
    around: [u32; PAD + SQUARE + 2 * PAD],
    /// `arcs` by the set of own neighbours in direction order.
    arcs_by_set: [u64; 64],
    /// Decisive playouts: by the set of own neighbours of an empty cell in direction order
    /// and the direction `d` in which the cell lies from an own neighbour `i` (which is
    /// then in direction `d + 3` from it): the offsets from the cell (bits 0–15 and 16–31)
    /// of the first cells of its arcs other than the one holding `i`, 0 for none.
    others: [[u32; 6]; 64],
    /// Decisive playouts: for every board cell, the corners and edges of its neighbours
    /// together.
    near: [u16; SQUARE],
}

/// [`Arrays`] on the heap.
struct Dense(Box<Arrays>);

impl Dense {
    /// All zeros, allocated zeroed (never built on the stack).
    fn new() -> Dense {
        let layout = std::alloc::Layout::new::<Arrays>();
        // SAFETY: `Arrays` is not zero-sized.
        let block = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<Arrays>();
        if block.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        // SAFETY: the block was allocated by the global allocator with the layout of `Arrays`,
        // and every field of `Arrays` is an array of integers, for which all-zero bytes are a
        // valid value.
        let mut d = Dense(unsafe { Box::from_raw(block) });
        for (k, win) in d.0.border_wins.iter_mut().enumerate() {
            *win = u8::from(completes_a_border(k as u16));
        }
        d
    }
}

impl Clone for Dense {
    fn clone(&self) -> Dense {
        let mut copy = Dense::new();
        copy.0.links.copy_from_slice(&self.0.links);
        copy.0.color.copy_from_slice(&self.0.color);
        copy.0.arcs.copy_from_slice(&self.0.arcs);
        copy.0.rings.copy_from_slice(&self.0.rings);
        copy.0.empty.copy_from_slice(&self.0.empty);
        copy.0.border_wins.copy_from_slice(&self.0.border_wins);
        copy.0.around.copy_from_slice(&self.0.around);
        copy.0.arcs_by_set.copy_from_slice(&self.0.arcs_by_set);
        copy.0.others.copy_from_slice(&self.0.others);
        copy.0.near.copy_from_slice(&self.0.near);
        copy
    }
}

/// For the eight bytes of a neighbourhood as [`Work::neighbourhood`] gathers them (bit 7 − k
/// for byte k, the bytes being neighbours 3, 2, 4, the cell, 1, none, 5 and 0), the same set
/// by direction.
const REMAP: [u8; 256] = {
    let mut remap = [0u8; 256];
    let order = [0, 5, 8, 1, 8, 4, 2, 3];
    let mut bits = 0;
    while bits < 256 {
        let mut own = 0;
        let mut k = 0;
        while k < 8 {
            if bits >> k & 1 == 1 && order[k] < 8 {
                own |= 1 << order[k];
            }
            k += 1;
        }
        remap[bits] = own;
        bits += 1;
    }
    remap
};

impl std::fmt::Debug for Playouts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Playouts")
            .field("board", &self.board)
            .field("played", &self.played)
            .finish_non_exhaustive()
    }
}

impl Playouts {
    /// An engine with no arrays yet (they grow on the first playout).
    pub fn new() -> Playouts {
        Playouts::default()
    }

    /// Plays uniformly random stones from `game`'s position until the game ends, as
    /// [`Game::playout`] would, and returns the outcome; `game` is not changed. A game already
    /// over gives its outcome and no moves.
    pub fn random(&mut self, game: &Game, rng: &mut Rng) -> Outcome {
        self.run(game, rng, Rollout::Random)
    }

    /// [`Playouts::random`] with the decisive and anti-decisive moves of
    /// [`Game::playout_decisive`] (a win next to the mover's last stone is played, else a win
    /// of the opponent next to the opponent's last stone is blocked).
    pub fn decisive(&mut self, game: &Game, rng: &mut Rng) -> Outcome {
        self.run(game, rng, Rollout::Decisive)
    }

    /// [`Playouts::decisive`] that also saves bridges, as [`Game::playout_bridges`].
    pub fn bridges(&mut self, game: &Game, rng: &mut Rng) -> Outcome {
        self.run(game, rng, Rollout::Bridges)
    }

    /// The playout of `policy` ([`Playouts::random`], [`Playouts::decisive`] or
    /// [`Playouts::bridges`]), as [`Game::playout_with`] plays it.
    pub fn playout_with(&mut self, game: &Game, policy: Rollout, rng: &mut Rng) -> Outcome {
        self.run(game, rng, policy)
    }

    /// How many moves the last playout played.
    pub fn played(&self) -> usize {
        match self.copy.as_deref() {
            Some(copy) if self.on_copy => (copy.moves_played() - self.copy_from) as usize,
            _ => self.played,
        }
    }

    /// The moves of the last playout, first to last (stones only: a playout never swaps).
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        let (dense, copied) = self.last_moves();
        let width = self.width;
        dense
            .iter()
            .map(move |&i| {
                let i = usize::from(i);
                Move::Place(Cell::new((i / width) as u32, (i % width) as u32))
            })
            .chain(copied.iter().map(|r| r.played))
    }

    /// The moves of the last playout as [`crate::search::Position::move_index`] numbers, as
    /// [`Playouts::moves`] lists them.
    pub(crate) fn move_indices(&self) -> impl Iterator<Item = u32> + '_ {
        let (dense, copied) = self.last_moves();
        let n = self.copy.as_deref().map_or(0, |g| g.board.n());
        dense
            .iter()
            .map(|&i| self.move_index[usize::from(i)])
            .chain(copied.iter().map(move |r| move_index(n, r.played)))
    }

    /// The last playout's moves: its cells on the dense arrays, or its records in the copy's
    /// history (one of the two is empty).
    fn last_moves(&self) -> (&[u16], &[Record]) {
        match (&self.dense, self.copy.as_deref()) {
            (_, Some(g)) if self.on_copy => (&[], &g.history[self.copy_from as usize..]),
            (Some(dense), _) if !self.on_copy => (&dense.0.empty[..self.played], &[]),
            _ => (&[], &[]),
        }
    }

    fn run(&mut self, game: &Game, rng: &mut Rng, policy: Rollout) -> Outcome {
        let decisive = policy != Rollout::Random;
        self.played = 0;
        self.on_copy = false;
        if let Some(outcome) = game.outcome {
            return outcome;
        }
        if game.board.side() > DENSE_MAX_SIDE {
            return self.run_on_copy(game, rng, policy);
        }
        self.load(game);
        if decisive {
            self.load_around(game);
        }
        let first = game.to_move();
        let ply = game.moves_played();
        let rule = game.rules.ring_rule();
        // The decisive playouts look next to the newest stone of each colour.
        let last = if decisive {
            game.newest_stones().map(|c| c.map(|c| self.index(c)))
        } else {
            [None, None]
        };
        let Playouts {
            board,
            width,
            offsets,
            dense,
            empties,
            enclosure,
            ..
        } = self;
        let Some(Dense(d)) = dense.as_mut() else {
            unreachable!("load made the arrays")
        };
        let mut work = Work {
            d,
            offsets: *offsets,
            rule,
            board: *board,
            width: *width,
            enclosure,
        };
        let (outcome, played) = if decisive {
            work.play_decisive(*empties, first, ply, last, policy == Rollout::Bridges, rng)
        } else {
            work.play_random(*empties, first, ply, rng)
        };
        self.played = played;
        outcome
    }

    /// Large boards: the playout on a copy of the game.
    #[cold]
    fn run_on_copy(&mut self, game: &Game, rng: &mut Rng, policy: Rollout) -> Outcome {
        let copy = match &mut self.copy {
            Some(copy) => {
                copy.as_mut().clone_from(game);
                copy
            }
            None => self.copy.insert(Box::new(game.clone())),
        };
        self.copy_from = game.moves_played();
        self.on_copy = true;
        copy.playout_with(policy, rng)
    }

    /// The number of on-board `cell`.
    #[inline(always)]
    fn index(&self, cell: Cell) -> u16 {
        (cell.x as usize * self.width + cell.y as usize) as u16
    }

    /// Builds the geometry of `board`.
    fn shape(&mut self, board: Board) {
        let width = board.n() as usize + 2;
        self.board = Some(board);
        self.width = width;
        self.move_index.clear();
        self.move_index.resize(width * width, 0);
        for x in 1..=board.n() {
            for y in 1..=board.n() {
                let mv = Move::Place(Cell::new(x, y));
                self.move_index[x as usize * width + y as usize] = move_index(board.n(), mv);
            }
        }
        for (d, (dx, dy)) in NEIGHBOURS.into_iter().enumerate() {
            self.offsets[d] = (dx as isize * width as isize + dy as isize) as u16;
        }
        let d = &mut self.dense.get_or_insert_with(Dense::new).0;
        for (byte, &own) in REMAP.iter().enumerate() {
            let own = usize::from(own);
            let mut starts = ARC_STARTS[own];
            let mut entry = 0u64;
            let mut k = 0;
            while starts != 0 {
                let d = starts.trailing_zeros() as usize;
                starts &= starts - 1;
                entry |= u64::from(self.offsets[d]) << (16 * k);
                k += 1;
            }
            entry |= u64::from(k >= 2) << 48 | u64::from(k >= 3) << 49;
            let rows = triples(own);
            entry |= u64::from(rows != 0) << 50 | (byte as u64) << 56;
            d.arcs[byte] = entry;
            d.arcs_by_set[own] = entry;
            d.rings[byte] = [0; 2];
            if rows != 0 {
                let o = |k: usize| self.offsets[k % 6];
                let ring = |m: usize| {
                    let beyond = [o(m + 5), o(m), o(m + 1)].map(|t| o(m).wrapping_add(t));
                    u64::from(beyond[0]) | u64::from(beyond[1]) << 16 | u64::from(beyond[2]) << 32
                };
                let first = rows.trailing_zeros() as usize;
                let rest = rows & (rows - 1);
                let second = if rest == 0 {
                    first
                } else {
                    rest.trailing_zeros() as usize
                };
                let more = rest & (rest.wrapping_sub(1)) != 0;
                d.rings[byte] = [ring(first), ring(second) | u64::from(more) << 48];
            }
        }
        for (own, others) in d.others.iter_mut().enumerate() {
            for (dir, entry) in others.iter_mut().enumerate() {
                // The own neighbour is in direction `dir + 3` from the cell.
                let from = (dir + 3) % 6;
                *entry = 0;
                if own >> from & 1 == 0 {
                    // Not a set seen from an own neighbour in that direction: never read.
                    continue;
                }
                let mut starts = ARC_STARTS[own];
                let mut k = 0;
                while starts != 0 {
                    let s = starts.trailing_zeros() as usize;
                    starts &= starts - 1;
                    // The arc from `s` on, while the neighbours are own.
                    let mut holds = false;
                    let mut t = s;
                    for _ in 0..6 {
                        if own >> t & 1 == 0 {
                            break;
                        }
                        holds |= t == from;
                        t = (t + 1) % 6;
                    }
                    if !holds {
                        *entry |= u32::from(self.offsets[s]) << (16 * k);
                        k += 1;
                    }
                }
            }
        }
        let (colors, links) = &mut self.template;
        colors.clear();
        colors.resize(width * width, OFF);
        links.clear();
        links.resize(width * width, Link::default());
        self.cells.clear();
        self.rank.clear();
        self.rank.resize(width * width, 0);
        for cell in board.iter() {
            let i = cell.x as usize * width + cell.y as usize;
            self.rank[i] = self.cells.len() as u16;
            colors[i] = EMPTY;
            // An empty cell's link: its own root, with its border (so a new stone is one).
            links[i] = Link {
                parent: i as u16,
                group: board.border(cell).bits(),
            };
            self.cells.push(i as u16);
        }
        // The off-board neighbours of every board cell, and its neighbours' borders.
        self.template_around.clear();
        self.template_around.resize(width * width, 0);
        for &i in &self.cells {
            d.near[usize::from(i)] = 0;
            for (k, &o) in self.offsets.iter().enumerate() {
                let n = usize::from(i.wrapping_add(o));
                self.template_around[usize::from(i)] |= u32::from(colors[n] == OFF) << (16 + k);
                d.near[usize::from(i)] |= links[n].group;
            }
        }
    }

    /// Decisive playouts: fills [`Arrays::around`] for `game`'s stones (after
    /// [`Playouts::load`]).
    fn load_around(&mut self, game: &Game) {
        let width = self.width;
        let Some(Dense(d)) = self.dense.as_mut() else {
            unreachable!("load made the arrays")
        };
        let template = &self.template_around;
        d.around[PAD..PAD + template.len()].copy_from_slice(template);
        for stone in &game.stones {
            let i = (stone.cell.x as usize * width + stone.cell.y as usize) as u16;
            mark_around(d, &self.offsets, i, byte(stone.color), 0);
        }
    }

    /// Copies `game`'s stones and groups into the arrays and lists the empty cells.
    fn load(&mut self, game: &Game) {
        if self.board != Some(game.board) {
            self.shape(game.board);
        }
        let Dense(d) = self.dense.get_or_insert_with(Dense::new);
        let Arrays {
            color,
            links,
            empty,
            ..
        } = &mut **d;
        let (template_colors, template_links) = &self.template;
        color[PAD..PAD + template_colors.len()].copy_from_slice(template_colors);
        links[..template_links.len()].copy_from_slice(template_links);
        let width = self.width;
        let index = |cell: Cell| usize::from((cell.x as usize * width + cell.y as usize) as u16);
        for (k, stone) in game.stones.iter().enumerate() {
            let root = game.find(k as u32) as usize;
            let i = index(stone.cell);
            color[PAD + i] = byte(stone.color);
            links[i].parent = index(game.stones[root].cell) as u16;
            if root == k {
                links[i].group = stone.border.bits();
            }
        }
        // The empty cells in board order.
        let cells = &self.cells;
        if game.stones.len() * 8 < cells.len() {
            // Few stones: the runs of cells between them are copied whole.
            self.taken.clear();
            self.taken.resize(cells.len().div_ceil(64), 0);
            for stone in &game.stones {
                let r = usize::from(self.rank[index(stone.cell)]);
                self.taken[r / 64] |= 1 << (r % 64);
            }
            let (mut len, mut from) = (0, 0);
            for (w, &word) in self.taken.iter().enumerate() {
                let mut word = word;
                while word != 0 {
                    let r = w * 64 + word.trailing_zeros() as usize;
                    word &= word - 1;
                    empty[len..len + (r - from)].copy_from_slice(&cells[from..r]);
                    len += r - from;
                    from = r + 1;
                }
            }
            let rest = &cells[from..];
            empty[len..len + rest.len()].copy_from_slice(rest);
            self.empties = len + rest.len();
        } else {
            // Branch-free compaction (cell numbers are `u16`: no bounds checks).
            let mut len: u16 = 0;
            for &c in cells {
                empty[usize::from(len)] = c;
                len += u16::from(color[PAD + usize::from(c)] == EMPTY);
            }
            self.empties = usize::from(len);
        }
    }
}

/// What [`Work::plan_with`] found for a stone: its cell, the roots of its arcs (the cell itself
/// for a missing arc), whether two arcs have one root, the corners and edges of the group it
/// makes, and its neighbourhood entry.
#[derive(Clone, Copy)]
struct Plan {
    i: u16,
    roots: [u16; 3],
    closed: bool,
    joined: u16,
    arcs: u64,
}

/// The playout's view of the arrays, for the hot loop.
struct Work<'a> {
    d: &'a mut Arrays,
    offsets: [u16; 6],
    rule: RingRule,
    board: Option<Board>,
    width: usize,
    enclosure: &'a mut Enclosure,
}

impl Work<'_> {
    /// The root of the stone on cell `i`, halving the path on the way.
    #[inline(always)]
    fn find(&mut self, i: u16) -> u16 {
        // Most stones are roots or a root's children: one test for both.
        let p = self.d.links[usize::from(i)].parent;
        let g = self.d.links[usize::from(p)].parent;
        if g == p {
            return p;
        }
        let mut i = i;
        loop {
            let p = self.d.links[usize::from(i)].parent;
            if p == i {
                return i;
            }
            let g = self.d.links[usize::from(p)].parent;
            self.d.links[usize::from(i)].parent = g;
            i = g;
        }
    }

    /// The six neighbours of on-board cell `i`, in [`NEIGHBOURS`] order.
    #[inline(always)]
    fn around(&self, i: u16) -> [u16; 6] {
        self.offsets.map(|o| i.wrapping_add(o))
    }

    #[inline(always)]
    fn color(&self, i: u16) -> u8 {
        self.d.color[PAD + usize::from(i)]
    }

    /// The set of the cells of `around` holding a stone of colour byte `c` (bit d for d).
    #[inline(always)]
    fn own(&self, around: &[u16; 6], c: u8) -> usize {
        let mut own = 0;
        for (d, &j) in around.iter().enumerate() {
            own |= usize::from(self.color(j) == c) << d;
        }
        own & 0x3f
    }

    /// The neighbourhood of `i` for a stone of colour byte `c`: the entry of [`Work::arcs`]
    /// for its own neighbours, read in three loads (bytes `i − w − 1, i − w`, `i − 1 ..= i + 2`
    /// and `i + w, i + w + 1`, `w` the width), compared with `c` eight at a time and gathered
    /// into one byte.
    #[inline(always)]
    fn neighbourhood(&self, i: u16, c: u8) -> u64 {
        let bytes = self.gather(i);
        // A stone of byte `c` is bit `c − 1` of its byte. The cell itself (byte 3) and the
        // byte after its right neighbour (byte 5) are no neighbours.
        let same = bytes >> (c - 1) & 0x0101_0001_0001_0101;
        self.d.arcs[(same.wrapping_mul(0x8040_2010_0804_0201) >> 56) as usize]
    }

    /// The colour bytes around cell `i` in three loads: `i − w − 1, i − w` (bytes 0 and 1),
    /// `i − 1 ..= i + 2` (bytes 2 to 5) and `i + w, i + w + 1` (bytes 6 and 7), `w` the
    /// width.
    #[inline(always)]
    fn gather(&self, i: u16) -> u64 {
        // The width is below `PAD`: no index wraps or leaves the array.
        let w = self.width.min(PAD - 1);
        let i = usize::from(i);
        let low = PAD - w - 1 + i;
        let low = u16::from_le_bytes([self.d.color[low], self.d.color[low + 1]]);
        let mid = PAD - 1 + i;
        let mid = u32::from_le_bytes([
            self.d.color[mid],
            self.d.color[mid + 1],
            self.d.color[mid + 2],
            self.d.color[mid + 3],
        ]);
        let high = PAD + w + i;
        let high = u16::from_le_bytes([self.d.color[high], self.d.color[high + 1]]);
        u64::from(low) | u64::from(mid) << 16 | u64::from(high) << 48
    }

    /// For a stone on `i` with the neighbourhood `arcs`: the roots of its (up to three) arcs,
    /// `i` for a missing one, whether two arcs have one root (the stone closes a chain), and
    /// the corners and edges of the group the stone would make.
    #[inline(always)]
    fn roots(&mut self, i: u16, arcs: u64) -> ([u16; 3], bool, u16) {
        let r1 = self.find(i.wrapping_add(arcs as u16));
        let r2 = self.find(i.wrapping_add((arcs >> 16) as u16));
        let r3 = self.find(i.wrapping_add((arcs >> 32) as u16));
        let (second, third) = (arcs >> 48 & 1 != 0, arcs >> 49 & 1 != 0);
        let closed = (second & (r2 == r1)) | (third & ((r3 == r1) | (r3 == r2)));
        let joined = self.d.links[usize::from(r1)].group
            | self.d.links[usize::from(r2)].group
            | self.d.links[usize::from(r3)].group
            | self.d.links[usize::from(i)].group;
        ([r1, r2, r3], closed, joined)
    }

    /// The lookups for a stone on the empty cell `i` whose [`Work::neighbourhood`] entry is
    /// `arcs`, before anything is written. Only the stones of the stone's colour are read,
    /// so a stone of the other colour placed in between leaves the plan valid.
    #[inline(always)]
    fn plan_with(&mut self, i: u16, arcs: u64) -> Plan {
        let (roots, closed, joined) = self.roots(i, arcs);
        Plan {
            i,
            roots,
            closed,
            joined,
            arcs,
        }
    }

    /// Puts a stone of colour byte `c` on the empty cell `i` (neighbourhood entry `arcs`),
    /// joins its groups and returns what it completes. A stone with one arc or none (most
    /// stones) joins one group, if any, and cannot close a chain: it takes one root's search
    /// and no test of a closed chain.
    #[inline(always)]
    fn place_with<const OFFICIAL: bool>(&mut self, i: u16, c: u8, arcs: u64) -> Wins {
        if arcs >> 48 & 1 != 0 {
            let plan = self.plan_with(i, arcs);
            return self.commit::<OFFICIAL>(plan, c);
        }
        self.d.color[PAD + usize::from(i)] = c;
        // A missing arc's offset is 0: `r` is then `i` itself.
        let r = self.find(i.wrapping_add(arcs as u16));
        let joined = self.d.links[usize::from(r)].group | self.d.links[usize::from(i)].group;
        self.d.links[usize::from(r)].group = joined;
        self.d.links[usize::from(i)].parent = r;
        let border = self.border_wins(joined);
        let filled = OFFICIAL && arcs >> 50 & 1 != 0 && self.may_fill(i, c, arcs);
        if !(border | filled) {
            Wins::NONE
        } else {
            self.wins(i, c, Border::from_raw(joined), false)
        }
    }

    /// Writes a [`Plan`]'s stone of colour byte `c` and returns what it completes (as
    /// [`Game`]'s `place`).
    ///
    /// Branch-free but for the roots' search: the arcs' first cells come from
    /// [`Work::neighbourhood`] as offsets, a missing arc's being 0 (the new stone itself, an
    /// empty cell's link being its own root with its border, as loaded); every arc's group
    /// goes under the first arc's root, and two arcs with one root close a chain. Only a move
    /// that may win (a bridge's or fork's border, a closed chain, or, under the official rule,
    /// a surrounded cell next to three own neighbours in a row) takes the branch to the full
    /// test.
    #[inline(always)]
    fn commit<const OFFICIAL: bool>(&mut self, plan: Plan, c: u8) -> Wins {
        let Plan {
            i,
            roots: [r1, r2, r3],
            closed,
            joined,
            arcs,
        } = plan;
        self.d.color[PAD + usize::from(i)] = c;
        self.d.links[usize::from(r1)].group = joined;
        self.d.links[usize::from(r2)].parent = r1;
        self.d.links[usize::from(r3)].parent = r1;
        self.d.links[usize::from(i)].parent = r1;
        let border = self.border_wins(joined);
        let filled = OFFICIAL && arcs >> 50 & 1 != 0 && self.may_fill(i, c, arcs);
        if !(border | closed | filled) {
            Wins::NONE
        } else {
            self.wins(i, c, Border::from_raw(joined), closed)
        }
    }

    /// [`completes_a_border`], read from its table.
    #[inline(always)]
    fn border_wins(&self, joined: u16) -> bool {
        self.d.border_wins[usize::from(joined) & 0xfff] != 0
    }

    /// Official rule, for a stone of byte `c` on `i` (neighbourhood entry `arcs`) with three
    /// own neighbours in a row: may it fill a ring? False when neither of the first two
    /// rows' middle cells is surrounded and there is no third row; otherwise [`Work::wins`]
    /// decides.
    #[inline(always)]
    fn may_fill(&self, i: u16, c: u8, arcs: u64) -> bool {
        let [first, second] = self.d.rings[(arcs >> 56) as usize];
        let at = |ring: u64, shift: u32| {
            self.d.color[PAD + usize::from(i.wrapping_add((ring >> shift) as u16))]
        };
        let surrounded = |ring: u64| at(ring, 0) & at(ring, 16) & at(ring, 32) == c;
        second >> 48 != 0 || surrounded(first) || surrounded(second)
    }

    /// What a stone that may win completes: the full test.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn wins(&mut self, i: u16, c: u8, joined: Border, closed: bool) -> Wins {
        let color = color_of(c);
        let around = self.around(i);
        let own = self.own(&around, c);
        let around = &around;
        let mut wins = Wins::NONE;
        if joined.is_bridge() {
            wins = wins.with(Wins::BRIDGE);
        }
        if joined.is_fork() {
            wins = wins.with(Wins::FORK);
        }
        let ring = match self.rule {
            RingRule::Official => closed || self.fills_a_ring(around, c, own),
            RingRule::CodeJam => closed && self.encloses_an_empty_cell(i, color, own),
        };
        if ring {
            wins = wins.with(Wins::RING);
        }
        wins
    }

    /// Official rule: with a stone of byte `c` on the cell whose neighbours are `around` (own
    /// ones `own`), are all six neighbours of one of its own neighbours `c`? (As [`Game`]'s.)
    #[inline(always)]
    fn fills_a_ring(&self, around: &[u16; 6], c: u8, own: usize) -> bool {
        let triples = triples(own);
        triples != 0 && self.fills_around(around, c, triples)
    }

    #[inline(never)]
    fn fills_around(&self, around: &[u16; 6], c: u8, triples: usize) -> bool {
        (0..6).any(|d| {
            triples >> d & 1 == 1
                && [5, 0, 1].iter().all(|&turn| {
                    let far = around[d].wrapping_add(self.offsets[(d + turn) % 6]);
                    self.color(far) == c
                })
        })
    }

    /// Code Jam rule, after a stone of `color` on `i` (own neighbours `own`) closed a chain:
    /// does a region it cut off hold an empty cell? The search of [`Game`]'s rule, on these
    /// arrays.
    #[cold]
    fn encloses_an_empty_cell(&mut self, i: u16, color: Color, own: usize) -> bool {
        let Some(board) = self.board else {
            unreachable!("a loaded board")
        };
        let width = self.width;
        let cell = Cell::new(
            (usize::from(i) / width) as u32,
            (usize::from(i) % width) as u32,
        );
        // The neighbours' slots as the search reads them: only off-board and empty matter.
        let around = self.around(i).map(|j| match self.color(j) {
            OFF => OFF_BOARD,
            EMPTY => super::EMPTY,
            _ => 0,
        });
        let (colors, c) = (&self.d.color, byte(color));
        self.enclosure
            .holds_empty(board, cell, own as u32, &around, |n| {
                match colors[PAD + usize::from((n.x as usize * width + n.y as usize) as u16)] {
                    OFF => Kind::OffBoard,
                    EMPTY => Kind::Empty,
                    b if b == c => Kind::Own,
                    _ => Kind::Other,
                }
            })
    }

    /// Random moves from the loaded position (its `len` empty cells), `first` to move, `ply`
    /// moves played; the outcome and the number of moves.
    fn play_random(
        &mut self,
        len: usize,
        first: Color,
        ply: u32,
        rng: &mut Rng,
    ) -> (Outcome, usize) {
        match self.rule {
            RingRule::Official => self.random_moves::<true>(len, first, ply, rng),
            RingRule::CodeJam => self.random_moves::<false>(len, first, ply, rng),
        }
    }

    /// [`Work::play_random`] under one ring rule.
    ///
    /// The move after the current one is drawn, and its cell's neighbourhood read, before
    /// the current stone is placed: the generator's numbers do not depend on the board, and
    /// the next stone, of the other colour, looks only at stones of its own. So the next
    /// move's loads are under way while this stone's groups are looked up. On a win the
    /// generator is stepped back over that extra number.
    #[inline(always)]
    fn random_moves<const OFFICIAL: bool>(
        &mut self,
        len: usize,
        first: Color,
        ply: u32,
        rng: &mut Rng,
    ) -> (Outcome, usize) {
        if len == 0 || len > SQUARE {
            return (Outcome::Draw, 0);
        }
        let mut draw = rng.clone();
        let mut j = draw.below(len as u32) as usize;
        // The mover's colour byte; the other's is `c ^ 3`.
        let mut c = byte(first);
        let mut arcs = self.neighbourhood(self.d.empty[j], c);
        for k in 0..len {
            // `j` is in `k..len`: `below` gives a number under `len − k`.
            self.d.empty.swap(k, j);
            let i = self.d.empty[k];
            // After the last move `j` is `len`, whose entry is read and not used.
            j = (k + 1 + draw.below((len - k - 1) as u32) as usize) & (SQUARE - 1);
            let next = self.neighbourhood(self.d.empty[j], c ^ 3);
            let wins = self.place_with::<OFFICIAL>(i, c, arcs);
            arcs = next;
            if !wins.is_empty() {
                draw.step_back();
                *rng = draw;
                let color = color_of(c);
                let at = ply + k as u32 + 1;
                return (Outcome::Win { color, wins, at }, k + 1);
            }
            c ^= 3;
        }
        // The last move drew one number too many (`below(0)`).
        draw.step_back();
        *rng = draw;
        (Outcome::Draw, len)
    }

    /// Decisive moves from the loaded position, saving bridges with `bridges`; `last` holds
    /// the newest stone of each colour.
    fn play_decisive(
        &mut self,
        len: usize,
        first: Color,
        ply: u32,
        last: [Option<u16>; 2],
        bridges: bool,
        rng: &mut Rng,
    ) -> (Outcome, usize) {
        match (self.rule, bridges) {
            (RingRule::Official, false) => {
                self.decisive_moves::<true, false>(len, first, ply, last, rng)
            }
            (RingRule::CodeJam, false) => {
                self.decisive_moves::<false, false>(len, first, ply, last, rng)
            }
            (RingRule::Official, true) => {
                self.decisive_moves::<true, true>(len, first, ply, last, rng)
            }
            (RingRule::CodeJam, true) => {
                self.decisive_moves::<false, true>(len, first, ply, last, rng)
            }
        }
    }

    /// [`Work::play_decisive`] under one ring rule, saving bridges or not.
    #[inline(always)]
    fn decisive_moves<const OFFICIAL: bool, const BRIDGES: bool>(
        &mut self,
        len: usize,
        first: Color,
        ply: u32,
        mut last: [Option<u16>; 2],
        rng: &mut Rng,
    ) -> (Outcome, usize) {
        let mut me = first;
        // As in `Game::playout_decisive`: set when the last move found no threat of the player
        // now to move and blocked none.
        let mut no_threat = false;
        // For the newest stone of each colour: its neighbours that a win next to it needs a
        // closer look at ([`Work::closer_around`]). Only a stone of the same colour changes
        // them, and it takes its own.
        let mut looks = [Color::White, Color::Black].map(|color| {
            last[color as usize].map_or(0, |i| self.closer_around::<OFFICIAL>(i, color))
        });
        let mut draw = rng.clone();
        for k in 0..len {
            let them = me.other();
            let c = byte(me);
            // The random move is drawn, and its neighbourhood read, before the threats are
            // searched (which write no stone): its loads are under way meanwhile. When a
            // threat decides the move instead, the generator is stepped back over the number.
            let mut j = k + draw.below((len - k) as u32) as usize;
            let cell = self.d.empty[j & (SQUARE - 1)];
            let mut arcs = self.arcs_around(cell, c);
            let mine = if no_threat {
                None
            } else {
                last[me as usize]
                    .and_then(|i| self.winning_neighbour::<OFFICIAL>(i, me, looks[me as usize]))
            };
            let theirs = if mine.is_some() {
                None
            } else {
                last[them as usize]
                    .and_then(|i| self.winning_neighbour::<OFFICIAL>(i, them, looks[them as usize]))
            };
            let reply = if BRIDGES && mine.is_none() && theirs.is_none() {
                last[them as usize].and_then(|i| self.bridge_reply(i, me, ply + k as u32))
            } else {
                None
            };
            if let Some(i) = mine.or(theirs).or(reply) {
                draw.step_back();
                j = match self.d.empty[k..len].iter().position(|&e| e == i) {
                    Some(p) => k + p,
                    None => unreachable!("an empty cell is in the list of empty cells"),
                };
                arcs = self.arcs_around(i, c);
            }
            self.d.empty.swap(k, j);
            let i = self.d.empty[k];
            last[me as usize] = Some(i);
            let wins = self.place_with::<OFFICIAL>(i, c, arcs);
            looks[me as usize] =
                mark_around(self.d, &self.offsets, i, c, Self::closer_sets::<OFFICIAL>());
            if !wins.is_empty() {
                *rng = draw;
                let at = ply + k as u32 + 1;
                return (
                    Outcome::Win {
                        color: me,
                        wins,
                        at,
                    },
                    k + 1,
                );
            }
            no_threat = theirs.is_none();
            me = them;
        }
        *rng = draw;
        (Outcome::Draw, len)
    }

    /// An empty neighbour of the stone on `i` where a stone of `color` would win at once, in
    /// [`NEIGHBOURS`] order.
    ///
    /// The group of `i` does not win (the game would be over), so a neighbour whose only arc
    /// of `color` is the one holding `i` wins only with its own border (interior cells have
    /// none) or, under the official rule, by filling a ring. The neighbours whose border
    /// completes the group's are sought only when all their borders together do (rarely);
    /// those that need a closer look (two or more arcs, or three own neighbours in a row:
    /// `closer`, the directions [`Work::closer_around`] gives, found when the stone was
    /// placed) are looked at one by one, only the empty ones before the first border win. A
    /// neighbour with more arcs joins `i`'s group, whose root is known, to the groups of its
    /// other arcs: only those take a search.
    #[inline(always)]
    fn winning_neighbour<const OFFICIAL: bool>(
        &mut self,
        i: u16,
        color: Color,
        closer: u32,
    ) -> Option<u16> {
        let c = byte(color);
        let root = self.find(i);
        let group = self.d.links[usize::from(root)].group;
        let around = self.d.around[PAD + usize::from(i)];
        let empty = !(around | around >> 8 | around >> 16) & 0x3f;
        // No neighbour's border wins unless all of them together do (mostly not).
        let border = if self.border_wins(group | self.d.near[usize::from(i)]) {
            self.border_wins_next_to(i, group) & empty
        } else {
            0
        };
        // The neighbours before the first border win (all when there is none).
        let before = (border & border.wrapping_neg()).wrapping_sub(1);
        let mut closer = closer & empty & before;
        while closer != 0 {
            let d = closer.trailing_zeros() as usize;
            closer &= closer - 1;
            let j = i.wrapping_add(self.offsets[d]);
            if self.joins_a_win::<OFFICIAL>(j, d, c, root, group) {
                return Some(j);
            }
        }
        (border != 0).then(|| i.wrapping_add(self.offsets[border.trailing_zeros() as usize]))
    }

    /// [`Game::playout_bridges`]' answer to the stone on `i` for `me`, `ply` moves played:
    /// an empty neighbour whose two neighbours next to it around `i` hold `me`'s stones or are
    /// off the board, the first from direction `ply mod 6` on.
    #[inline(always)]
    fn bridge_reply(&self, i: u16, me: Color, ply: u32) -> Option<u16> {
        let around = self.d.around[PAD + usize::from(i)];
        let empty = !(around | around >> 8 | around >> 16) & 0x3f;
        let holds = (around >> (8 * u32::from(byte(me) - 1)) | around >> 16) & 0x3f;
        // Bit d of the first: d − 1 holds; of the second: d + 1 holds.
        let replies = empty & (holds << 1 | holds >> 5) & (holds >> 1 | holds << 5) & 0x3f;
        if replies == 0 {
            return None;
        }
        let from = ply % 6;
        let d = (from + ((replies | replies << 6) >> from).trailing_zeros()) % 6;
        Some(i.wrapping_add(self.offsets[d as usize]))
    }

    /// The sets of own neighbours (bit k for the set k, in direction order) of an empty cell
    /// that [`Work::winning_neighbour`] looks at closer: two or more arcs, and under the
    /// official rule three own neighbours in a row.
    const fn closer_sets<const OFFICIAL: bool>() -> u64 {
        if OFFICIAL { MULTI | FILLS } else { MULTI }
    }

    /// The directions from the stone on `i` of the neighbours whose sets of neighbours of
    /// `color` are [`Work::closer_sets`] (whether empty or not).
    fn closer_around<const OFFICIAL: bool>(&self, i: u16, color: Color) -> u32 {
        let shift = 8 * u32::from(byte(color) - 1);
        let mut closer = 0;
        for (d, &o) in self.offsets.iter().enumerate() {
            let own = self.d.around[PAD + usize::from(i.wrapping_add(o))] >> shift & 0x3f;
            closer |= ((Self::closer_sets::<OFFICIAL>() >> own & 1) as u32) << d;
        }
        closer
    }

    /// The directions from `i` of the cells whose corners and edges, with `group`, win.
    #[inline(never)]
    fn border_wins_next_to(&self, i: u16, group: u16) -> u32 {
        let mut border = 0;
        for (d, &o) in self.offsets.iter().enumerate() {
            let j = usize::from(i.wrapping_add(o));
            border |= u32::from(self.border_wins(group | self.d.links[j].group)) << d;
        }
        border
    }

    /// [`Work::winning_neighbour`]'s closer look at the empty cell `j`, in direction `d` from
    /// a stone of colour byte `c` whose root is `root` and group's corners and edges `group`
    /// (which do not win with `j`'s own): would a stone there win?
    #[inline(always)]
    fn joins_a_win<const OFFICIAL: bool>(
        &mut self,
        j: u16,
        d: usize,
        c: u8,
        root: u16,
        group: u16,
    ) -> bool {
        let own = self.d.around[PAD + usize::from(j)] >> (8 * u32::from(c - 1)) & 0x3f;
        let arcs = self.d.arcs_by_set[own as usize];
        let mut joined = group;
        let mut closed = false;
        if arcs >> 48 & 1 != 0 {
            let others = self.d.others[own as usize][d];
            let r2 = self.find(j.wrapping_add(others as u16));
            closed = r2 == root;
            joined |= self.d.links[usize::from(r2)].group | self.d.links[usize::from(j)].group;
            if arcs >> 49 & 1 != 0 {
                let r3 = self.find(j.wrapping_add((others >> 16) as u16));
                closed |= (r3 == root) | (r3 == r2);
                joined |= self.d.links[usize::from(r3)].group;
            }
            if self.border_wins(joined) {
                return true;
            }
        }
        if OFFICIAL {
            closed || (arcs >> 50 & 1 != 0 && self.may_fill(j, c, arcs) && self.fills_at(j, c))
        } else {
            closed && {
                let own = self.own(&self.around(j), c);
                self.d.color[PAD + usize::from(j)] = c;
                let ring = self.encloses_an_empty_cell(j, color_of(c), own);
                self.d.color[PAD + usize::from(j)] = EMPTY;
                ring
            }
        }
    }

    /// Decisive playouts: the [`Work::neighbourhood`] entry of cell `i` for a stone of
    /// colour byte `c`, from [`Arrays::around`].
    #[inline(always)]
    fn arcs_around(&self, i: u16, c: u8) -> u64 {
        let own = self.d.around[PAD + usize::from(i)] >> (8 * u32::from(c - 1)) & 0x3f;
        self.d.arcs_by_set[own as usize]
    }

    /// [`Work::fills_a_ring`] for a stone of byte `c` on `i`.
    #[cold]
    fn fills_at(&self, i: u16, c: u8) -> bool {
        let around = self.around(i);
        let own = self.own(&around, c);
        self.fills_a_ring(&around, c, own)
    }
}

/// Adds a stone of colour byte `c` on cell `i` to its neighbours' [`Arrays::around`], and
/// returns the directions of the neighbours whose set of own neighbours is then in `sets`
/// (bit k for the set k, as [`MULTI`]).
#[inline(always)]
fn mark_around(d: &mut Arrays, offsets: &[u16; 6], i: u16, c: u8, sets: u64) -> u32 {
    let shift = 8 * u32::from(c - 1);
    let mut found = 0;
    for (k, &o) in offsets.iter().enumerate() {
        // Seen from the neighbour in direction k, the stone is in the opposite direction.
        let n = PAD + usize::from(i.wrapping_add(o));
        let around = d.around[n] | 1 << (shift + (k as u32 + 3) % 6);
        d.around[n] = around;
        found |= ((sets >> (around >> shift & 0x3f) & 1) as u32) << k;
    }
    found
}

/// Bit k set when the set k of own neighbours (in direction order) makes two or more arcs.
const MULTI: u64 = {
    let mut mask = 0;
    let mut own = 0;
    while own < 64 {
        if ARC_STARTS[own].count_ones() >= 2 {
            mask |= 1 << own;
        }
        own += 1;
    }
    mask
};

/// Bit k set when the set k of own neighbours (in direction order) holds three in a row.
const FILLS: u64 = {
    let mut mask = 0;
    let mut own = 0;
    while own < 64 {
        if triples(own) != 0 {
            mask |= 1 << own;
        }
        own += 1;
    }
    mask
};

/// Does a group with these corners and edges hold two corners or three edges?
#[inline(always)]
fn completes_a_border(joined: u16) -> bool {
    // Bit k of these masks: k (6 bits of corners or of edges) holds two corners or three
    // edges.
    const TWO: u64 = two_or_more(2);
    const THREE: u64 = two_or_more(3);
    ((TWO >> (joined & 0x3f)) | (THREE >> (joined >> 6 & 0x3f))) & 1 != 0
}

/// Bit k set when `k` (below 64) has at least `count` bits set.
const fn two_or_more(count: u32) -> u64 {
    let mut mask = 0;
    let mut k = 0;
    while k < 64 {
        if (k as u64).count_ones() >= count {
            mask |= 1 << k;
        }
        k += 1;
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The arrays' block (allocated zeroed, its tables filled) and its clone, on a small
    /// board: a playout on the engine and on a clone of it plays the game's own playout.
    #[test]
    fn the_arrays_play_the_game_s_playouts_and_clone_whole() {
        let mut game = Game::new(3).unwrap();
        game.play(3, 3).unwrap();
        let mut playouts = Playouts::new();
        for (seed, decisive) in [(5, false), (6, true)] {
            let outcome = if decisive {
                playouts.decisive(&game, &mut Rng::new(seed))
            } else {
                playouts.random(&game, &mut Rng::new(seed))
            };
            let mut copy = game.clone();
            let expected = if decisive {
                copy.playout_decisive(&mut Rng::new(seed))
            } else {
                copy.playout(&mut Rng::new(seed))
            };
            assert_eq!(outcome, expected);
            let played: Vec<Move> = copy.history().skip(1).collect();
            assert_eq!(playouts.moves().collect::<Vec<_>>(), played);
            let mut clone = playouts.clone();
            assert_eq!(clone.moves().collect::<Vec<_>>(), played);
            assert_eq!(
                clone.random(&game, &mut Rng::new(seed)),
                copy_random(&game, seed)
            );
        }
    }

    /// The playout's moves as the search's move indices, on the dense arrays (several sides
    /// on one engine) and on a copy of a board too large for them.
    #[test]
    fn move_indices_are_the_moves_indices() {
        use crate::search::Position;
        let mut playouts = Playouts::new();
        for side in [2, 5, 3, 8, DENSE_MAX_SIDE + 1] {
            let mut game = Game::new(side).unwrap();
            game.play(side, side).unwrap();
            for seed in 0..3 {
                if seed == 1 {
                    playouts.decisive(&game, &mut Rng::new(seed));
                } else {
                    playouts.random(&game, &mut Rng::new(seed));
                }
                let want: Vec<u32> = playouts
                    .moves()
                    .map(|mv| game.move_index(mv) as u32)
                    .collect();
                assert!(!want.is_empty());
                assert_eq!(playouts.move_indices().collect::<Vec<_>>(), want, "{side}");
            }
        }
    }

    fn copy_random(game: &Game, seed: u64) -> Outcome {
        game.clone().playout(&mut Rng::new(seed))
    }

    #[test]
    fn the_border_win_table_is_the_test() {
        let d = Dense::new();
        for joined in 0..4096u16 {
            assert_eq!(
                d.0.border_wins[usize::from(joined)] != 0,
                completes_a_border(joined)
            );
        }
    }
}
