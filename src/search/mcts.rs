//! UCT (Kocsis & Szepesvári, "Bandit based Monte-Carlo planning", ECML 2006) over a
//! [`Position`], with decisive and anti-decisive moves in the tree and the rollouts, RAVE
//! (Gelly & Silver, "Combining online and offline knowledge in UCT", ICML 2007), proven wins
//! and losses backed up the tree (Winands, Björnsson & Saito, "Monte-Carlo tree search
//! solver", CG 2008), an arena-allocated tree, tree reuse between moves, and root parallelism
//! over threads.

use std::time::{Duration, Instant};

use super::agent::Choice;
use super::{Outcome, Player, Position};
use crate::rng::Rng;

/// How long a search runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// A fixed number of iterations (one rollout each; 0 counts as 1): deterministic for a
    /// seed.
    Iterations(u32),
    /// A time per move (at least one iteration): depends on the machine.
    Time(Duration),
}

/// How a rollout chooses its moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rollout {
    /// Uniformly random moves, except that a winning move is played and an immediate win of
    /// the opponent is blocked ([`Position::playout_decisive`]).
    Decisive,
    /// Uniformly random moves ([`Position::playout`]).
    Random,
    /// [`Rollout::Decisive`], and in Havannah a probe of a bridge answered
    /// ([`crate::havannah::Game::playout_bridges`]); in other games the same as
    /// [`Rollout::Decisive`].
    Bridges,
}

/// The settings of a search.
#[derive(Debug, Clone, PartialEq)]
pub struct MctsConfig {
    /// Iterations or time per move.
    pub budget: Budget,
    /// The UCT exploration constant `c` in `q + c·sqrt(ln N / n)` (rewards are in 0..=1).
    pub exploration: f32,
    /// The rollout policy.
    pub rollout: Rollout,
    /// The most nodes the tree holds (each thread's tree); once full, leaves are no longer
    /// expanded. A node takes 48 bytes (and as much again, briefly, while a reused subtree
    /// is copied): the default, 2²⁴, is up to 768 MiB a tree. A tree grows by about a node
    /// per legal move for each expansion.
    pub max_nodes: u32,
    /// The visits a leaf has had before an iteration that reaches it expands it (makes its
    /// children); until then the iteration rolls out from the leaf. 0 expands a leaf the
    /// first time it is reached; 1 on its second visit (as the morat engine does), which
    /// makes half as many nodes for the same iterations. The root is always expanded.
    pub expand: u32,
    /// RAVE's equivalence parameter k, 0 for none: a child's value mixes its own mean reward
    /// `q` with its all-moves-as-first mean `q̃` (the rewards of every iteration through its
    /// parent in which its move was played later by the same player) as
    /// `(1 − β)·q + β·q̃`, with `β = sqrt(k / (3n + k))` after `n` visits (Gelly & Silver
    /// 2007). A child not yet visited and without AMAF statistics comes first.
    pub rave: f32,
    /// Independent trees searched at once, one per thread (root parallelism: Chaslot, Winands
    /// & van den Herik, "Parallel Monte-Carlo tree search", 2008); their root statistics are
    /// summed to choose the move. An iteration budget is shared among them, a time budget is
    /// each one's.
    pub threads: u32,
    /// MCTS-Solver (Winands, Björnsson & Saito 2008): a node whose move wins at once, or
    /// after which every reply loses, is proven a win for the player who made it; a node with
    /// a reply proven a win is proven a loss. Proven losses are never selected while another
    /// move is open, an iteration that reaches a proven node backs up its value without a
    /// rollout, a search whose root is proven stops, and a move proven to win is chosen.
    /// Draws are not proven. Off by default, so that the searches of published results replay.
    ///
    /// The proofs read the tree as it is expanded: where the opponent could win at once, the
    /// block ([`Position::winning_move`]) is a node's only child, so a proven loss of the block
    /// proves the node lost. That is exact when only taking the cell defends, as in Sequence
    /// and under the official Havannah rules (tested against a full search). Under Havannah's
    /// Code Jam ring rule a stone on the last empty cell inside a ring about to close defends
    /// too, which such a proof misses.
    pub solver: bool,
    /// The weight of the game's prior knowledge ([`Position::priors`]), 0 for none: a move with
    /// a bonus `p` (0 to 255) adds `prior · p / sqrt(max(n, 1))` to its value after `n` visits,
    /// as the morat engine adds its knowledge (`0.01` there). Its value without visits but
    /// with AMAF statistics (RAVE) has the full bonus; a move with neither is still taken
    /// first. The position is asked once per expansion with more than one child.
    pub prior: f32,
}

impl Default for MctsConfig {
    /// 1000 iterations, c = 0.7, decisive rollouts, up to 2²⁴ nodes, leaves expanded the first
    /// time they are reached, no RAVE, one thread, no solver, no prior knowledge.
    fn default() -> MctsConfig {
        MctsConfig {
            budget: Budget::Iterations(1000),
            exploration: 0.7,
            rollout: Rollout::Decisive,
            max_nodes: 1 << 24,
            expand: 0,
            rave: 0.0,
            threads: 1,
            solver: false,
            prior: 0.0,
        }
    }
}

/// What the move into a node is proven to be worth to the player who made it
/// ([`MctsConfig::solver`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(u8)]
enum Proof {
    /// Not proven (or a draw).
    #[default]
    Open,
    /// The move wins: it ends the game, or every reply is proven a loss.
    Win,
    /// The move loses: a reply is proven a win.
    Loss,
}

/// A node of the tree: its children (contiguous in the arena) and the statistics of the move
/// that leads to it, from the point of view of the player who made it. The move itself, and
/// what the selection and the RAVE pass read of every child, are in the node's [`Head`].
#[derive(Debug, Clone, Copy)]
struct Node {
    /// Index of the first child in the arena.
    first: u32,
    /// Number of children, 0 until the node is expanded (an expanded node has at least one:
    /// only undecided positions are expanded).
    count: u32,
    visits: u32,
    /// Sum of the rewards (1 win, ½ draw, 0 loss) of the player who made the move.
    reward: f32,
    /// RAVE: iterations through the parent in which the move was played later by the same
    /// player.
    amaf_visits: u32,
    /// RAVE: the sum of their rewards, for the player who made the move.
    amaf_reward: f32,
    /// RAVE: β and `(1 − β)·q` as of the last visit, for [`Node::refresh_amaf`] (an AMAF
    /// update changes only `q̃`).
    beta: f32,
    base: f32,
    /// The solver's proof; a proven node's [`Head::value`] is +∞ (a win, taken first) or −∞ (a
    /// loss, taken last) and stays so.
    proof: Proof,
    /// The move's prior bonus ([`Position::priors`], [`MctsConfig::prior`]).
    prior: u8,
}

/// What a scan of a node's children reads of each, kept in an arena of its own beside the
/// nodes (same index): the selection reads `value` and `explore`, the RAVE pass `key`, which
/// is also the node's move. (A select reads every child of every node on its path, a back-up
/// changes a few nodes: the divisions and roots are made once per change, by
/// [`Node::refresh`].)
#[derive(Debug, Clone, Copy)]
struct Head {
    /// The move's [`Position::move_index`] ([`Position::index_move`] gives it back).
    key: u32,
    /// The selection's value of the node's statistics: the mean reward `q`, or with RAVE
    /// `(1 − β)·q + β·q̃`; +∞ for a node without statistics (plain UCT: no visit; RAVE: no
    /// visit and no AMAF count), which the selection takes first.
    value: f32,
    /// The selection's exploration factor: `1 / sqrt(n)`, or with RAVE `1 / sqrt(n + 1)`.
    explore: f32,
}

impl Head {
    fn new(key: usize) -> Head {
        Head {
            key: key as u32,
            value: f32::INFINITY,
            explore: 1.0,
        }
    }
}

impl Default for Node {
    /// A node without children or statistics (β = 1, as without visits).
    fn default() -> Node {
        Node {
            first: 0,
            count: 0,
            visits: 0,
            reward: 0.0,
            amaf_visits: 0,
            amaf_reward: 0.0,
            beta: 1.0,
            base: 0.0,
            proof: Proof::Open,
            prior: 0,
        }
    }
}

impl Node {
    #[inline]
    fn expanded(&self) -> bool {
        self.count > 0
    }

    /// The prior bonus after `n` visits, for the weight `w` ([`MctsConfig::prior`]).
    #[inline]
    fn bonus(&self, w: f32) -> f32 {
        if self.prior == 0 {
            0.0
        } else {
            w * f32::from(self.prior) / (self.visits.max(1) as f32).sqrt()
        }
    }

    /// Recomputes the node's [`Head::value`] and [`Head::explore`] from its statistics, for
    /// RAVE's equivalence parameter `k` (0 for plain UCT) and the prior's weight `w`.
    #[inline]
    fn refresh(&mut self, head: &mut Head, k: f32, w: f32) {
        if self.proof != Proof::Open {
            return;
        }
        let (n, na) = (self.visits as f32, self.amaf_visits as f32);
        let bonus = self.bonus(w);
        let q = if self.visits == 0 {
            0.0
        } else {
            self.reward / n
        };
        if k > 0.0 {
            let qa = if self.amaf_visits == 0 {
                0.0
            } else {
                self.amaf_reward / na
            };
            // β once the node has AMAF statistics.
            self.beta = if self.visits == 0 {
                1.0
            } else {
                (k / (3.0 * n + k)).sqrt()
            };
            self.base = (1.0 - self.beta) * q + bonus;
            head.value = if self.amaf_visits > 0 {
                self.base + self.beta * qa
            } else if self.visits > 0 {
                // β = 0 without AMAF statistics.
                q + bonus
            } else {
                f32::INFINITY
            };
            head.explore = 1.0 / (n + 1.0).sqrt();
        } else if self.visits == 0 {
            *head = Head::new(head.key as usize);
        } else {
            head.value = q + bonus;
            head.explore = 1.0 / n.sqrt();
        }
    }

    /// [`Node::refresh`] after an AMAF update (RAVE), which changes only `q̃`: the same value
    /// from the β and `(1 − β)·q` (and the prior's bonus) the last visit left, with one
    /// division.
    #[inline]
    fn refresh_amaf(&self, head: &mut Head) {
        if self.proof == Proof::Open {
            head.value = self.base + self.beta * (self.amaf_reward / self.amaf_visits as f32);
        }
    }
}

/// Monte Carlo tree search with UCT selection.
///
/// - **Tree**: every node is in one arena (`Vec`), children contiguous; a leaf is expanded the
///   first time an iteration reaches it. Memory is reused across iterations and moves: after
///   warm-up, an iteration allocates nothing.
/// - **Decisive and anti-decisive moves**: a node whose player to move can win at once gets
///   that move as its only child; else, when the opponent threatens to win at once, the block
///   is the only child. Rollouts do the same by default ([`Rollout::Decisive`]).
/// - **Tree reuse**: the next search starts from the subtree of the position reached (found
///   among the children and grandchildren of the last root by its hash), compacted into the
///   second arena.
/// - **RAVE** ([`MctsConfig::rave`]): all-moves-as-first statistics per child, from the moves
///   of the tree and of the rollout ([`Position::moves_since`], [`Position::rollout`]), mixed
///   into the UCT value.
/// - **Threads** ([`MctsConfig::threads`]): root parallelism, one tree per thread, each with
///   its own seed and its own tree reuse; the move is chosen on the summed root statistics.
/// - **Solver** ([`MctsConfig::solver`]): proven wins and losses carried up the tree; a
///   proven win is chosen, a proven loss avoided, and a proven root ends the search
///   ([`Mcts::proven_winner`]).
/// - **Priors** ([`MctsConfig::prior`]): the game's knowledge of each child of an expansion
///   ([`Position::priors`]) added to its value, fading with its visits.
/// - **Value**: [`Choice::value`] is the chosen move's mean reward (with the solver, 1 for a
///   proven win and 0 for a proven loss), the estimate the simulator's metrics use as the
///   state evaluation.
///
/// Deterministic for a seed and an iteration budget, whatever the threads' timing.
pub struct Mcts<G: Position> {
    config: MctsConfig,
    rng: Rng,
    nodes: Vec<Node>,
    /// The nodes' heads, `heads[i]` for `nodes[i]`.
    heads: Vec<Head>,
    spare: Vec<Node>,
    spare_heads: Vec<Head>,
    /// The position at `nodes[0]`, for tree reuse.
    root: Option<G>,
    moves: Vec<G::Move>,
    path: Vec<u32>,
    iterations: u64,
    /// RAVE: the moves of one iteration, tree and rollout, as move indices.
    played: Vec<u32>,
    /// RAVE: the tree's moves of one iteration.
    tree_moves: Vec<G::Move>,
    /// RAVE: the moves of a rollout played on a copy of the position
    /// ([`Position::rollout`]), as move indices.
    rollout_moves: Vec<u32>,
    /// RAVE: per move index and parity of the ply, 1 + the last ply (from the root) at which
    /// the move was played in this iteration, 0 for none.
    last: Vec<[u32; 2]>,
    /// RAVE: the children of one node that an iteration's update counts.
    hits: Vec<u32>,
    /// The prior bonuses of an expansion's moves.
    priors: Vec<u8>,
    /// The other threads' searches (root parallelism).
    helpers: Vec<Mcts<G>>,
}

impl<G: Position> Mcts<G> {
    /// A search with these settings, its random choices seeded by `seed`.
    pub fn new(config: MctsConfig, seed: u64) -> Mcts<G> {
        Mcts {
            config,
            rng: Rng::new(seed),
            nodes: Vec::new(),
            heads: Vec::new(),
            spare: Vec::new(),
            spare_heads: Vec::new(),
            root: None,
            moves: Vec::new(),
            path: Vec::new(),
            iterations: 0,
            played: Vec::new(),
            tree_moves: Vec::new(),
            rollout_moves: Vec::new(),
            last: Vec::new(),
            hits: Vec::new(),
            priors: Vec::new(),
            helpers: Vec::new(),
        }
    }

    /// Forgets the trees (this thread's and the helpers'), keeping their memory: the next
    /// search starts from a new root without allocating what the last ones grew. The
    /// generators go on where they were.
    pub fn clear(&mut self) {
        self.nodes.clear();
        self.heads.clear();
        self.spare.clear();
        self.spare_heads.clear();
        self.root = None;
        for helper in &mut self.helpers {
            helper.clear();
        }
    }

    /// The settings.
    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// Iterations run by all searches so far, on every thread.
    pub fn iterations(&self) -> u64 {
        self.iterations + self.helpers.iter().map(|h| h.iterations).sum::<u64>()
    }

    /// Visits of the root of the last search, summed over the threads' trees: the iterations
    /// it ran plus those its reused subtrees had already received.
    pub fn root_visits(&self) -> u32 {
        let own = self.nodes.first().map_or(0, |n| n.visits);
        own + self.helpers.iter().map(Mcts::root_visits).sum::<u32>()
    }

    /// With the solver ([`MctsConfig::solver`]): the winner of the last searched position
    /// under perfect play, when a tree proved it; `None` while it is open (or a draw).
    pub fn proven_winner(&self) -> Option<Player> {
        let root = self.root.as_ref()?;
        let proof = self.nodes.first().map_or(Proof::Open, |n| n.proof);
        match proof {
            // The move into the root wins: the player to move there loses.
            Proof::Win => Some(root.to_move().other()),
            Proof::Loss => Some(root.to_move()),
            Proof::Open => self.helpers.iter().find_map(Mcts::proven_winner),
        }
    }

    /// Nodes in the trees now, summed over the threads.
    pub fn tree_size(&self) -> usize {
        self.nodes.len() + self.helpers.iter().map(Mcts::tree_size).sum::<usize>()
    }

    /// Searches `position` within the budget and returns the most visited move and its mean
    /// reward. A move that wins at once is returned without a search, with value 1.
    ///
    /// # Panics
    /// When the game is already decided.
    pub fn choose(&mut self, position: &G) -> Choice<G::Move> {
        self.choose_within(position, None)
    }

    /// [`Mcts::choose`], stopping after `limit` at the latest whatever the budget (a game
    /// clock's share for this move, as a GTP controller's `time_left` gives it).
    ///
    /// # Panics
    /// When the game is already decided.
    pub fn choose_within(&mut self, position: &G, limit: Option<Duration>) -> Choice<G::Move> {
        assert!(position.outcome().is_none(), "the game is already decided");
        if let Some(mv) = position.winning_move(position.to_move()) {
            return Choice {
                mv,
                value: Some(1.0),
            };
        }
        let threads = self.config.threads.max(1);
        if threads == 1 {
            self.search(position, self.config.budget, limit);
        } else {
            self.search_parallel(position, threads, limit);
        }
        let root = self.nodes[0];
        let children = root.first as usize..(root.first + root.count) as usize;
        // Each child's visits and reward, summed over the threads' trees (whose roots have the
        // same children, in other orders), and its proof in any of them (proofs are exact:
        // the trees never disagree).
        let summed = |i: usize| {
            let (child, key) = (&self.nodes[i], self.heads[i].key);
            let start = (child.visits, child.reward, child.proof);
            self.helpers.iter().fold(start, |(v, r, proof), h| {
                let root = h.nodes[0];
                let mut range = root.first as usize..(root.first + root.count) as usize;
                match range.find(|&c| h.heads[c].key == key).map(|c| &h.nodes[c]) {
                    Some(same) => {
                        let proof = if proof == Proof::Open {
                            same.proof
                        } else {
                            proof
                        };
                        (v + same.visits, r + same.reward, proof)
                    }
                    None => (v, r, proof),
                }
            })
        };
        // A move proven to win first, then the open moves, a proven loss last; then the most
        // visited, the most rewarded.
        let rank =
            |&(v, _, proof): &(u32, f32, Proof)| (proof == Proof::Win, proof != Proof::Loss, v);
        let (best, summary) = children
            .map(|i| (i, summed(i)))
            .max_by(|(_, a), (_, b)| rank(a).cmp(&rank(b)).then(a.1.total_cmp(&b.1)))
            .expect("an undecided position has a move");
        let (visits, reward, proof) = summary;
        let value = match proof {
            Proof::Win => 1.0,
            Proof::Loss => 0.0,
            Proof::Open => reward / visits.max(1) as f32,
        };
        Choice {
            mv: position.index_move(self.heads[best].key as usize),
            value: Some(value),
        }
    }

    /// One tree's search of `position` within `budget` and, if given, `limit`.
    fn search(&mut self, position: &G, budget: Budget, limit: Option<Duration>) {
        self.reuse(position);
        let mut root = position.clone();
        root.prepare_search();
        let mut work = root.clone();
        // The time this search may take: the budget's, cut to the clock's limit.
        let time = match (budget, limit) {
            (Budget::Time(t), Some(l)) => Some(t.min(l)),
            (Budget::Time(t), None) => Some(t),
            (Budget::Iterations(_), l) => l,
        };
        let started = Instant::now();
        let mut done: u32 = 0;
        loop {
            let more = match budget {
                // At least one iteration, as for a time budget: the root needs its children.
                Budget::Iterations(n) => done < n.max(1),
                Budget::Time(_) => true,
            } && (done == 0
                || !done.is_multiple_of(32)
                || time.is_none_or(|t| started.elapsed() < t));
            if !more {
                break;
            }
            self.iterate(&mut work);
            work.rewind(&root);
            done += 1;
            // A proven root is decided: more iterations would only replay the proof.
            if self.nodes[0].proof != Proof::Open {
                break;
            }
        }
        self.iterations += u64::from(done);
    }

    /// `threads` trees searched at once, this one and `threads − 1` helpers, each seeded from
    /// this search's generator when first made. An iteration budget is split among them.
    fn search_parallel(&mut self, position: &G, threads: u32, limit: Option<Duration>) {
        while self.helpers.len() < threads as usize - 1 {
            let config = MctsConfig {
                threads: 1,
                ..self.config.clone()
            };
            let seed = self.rng.next_u64();
            self.helpers.push(Mcts::new(config, seed));
        }
        let share = |t: u32| match self.config.budget {
            Budget::Iterations(n) => {
                Budget::Iterations((n / threads + u32::from(t < n % threads)).max(1))
            }
            time => time,
        };
        let budgets: Vec<Budget> = (0..threads).map(share).collect();
        let mut helpers = std::mem::take(&mut self.helpers);
        std::thread::scope(|scope| {
            for (helper, &budget) in helpers.iter_mut().zip(&budgets[1..]) {
                let position = position.clone();
                scope.spawn(move || helper.search(&position, budget, limit));
            }
            self.search(position, budgets[0], limit);
        });
        self.helpers = helpers;
    }

    /// Makes `nodes[0]` the node of `position`: the old tree's node for it when the position
    /// is the last root or a child or grandchild of it, else a new root.
    fn reuse(&mut self, position: &G) {
        let found = self.root.take().and_then(|old| self.find(old, position));
        match found {
            Some(0) => {}
            Some(at) => self.compact(at),
            None => {
                self.nodes.clear();
                self.heads.clear();
                position.moves(&mut self.moves);
                self.nodes.push(Node::default());
                self.heads
                    .push(Head::new(position.move_index(self.moves[0])));
            }
        }
        self.root = Some(position.clone());
    }

    /// The node of the old tree (root `old`) whose position is `position`, looked for up to two
    /// moves deep by hash and move count.
    fn find(&self, mut old: G, position: &G) -> Option<u32> {
        let same = |p: &G| p.ply() == position.ply() && p.hash() == position.hash();
        if self.nodes.is_empty() {
            return None;
        }
        if same(&old) {
            return Some(0);
        }
        let depth = position.ply().checked_sub(old.ply())?;
        if !(1..=2).contains(&depth) {
            return None;
        }
        let children = |n: &Node| n.first..n.first + n.count;
        let mv = |old: &G, i: u32| old.index_move(self.heads[i as usize].key as usize);
        for c in children(&self.nodes[0]) {
            old.play(mv(&old, c));
            if depth == 1 && same(&old) {
                return Some(c);
            }
            if depth == 2 {
                for g in children(&self.nodes[c as usize]) {
                    old.play(mv(&old, g));
                    let hit = same(&old);
                    old.undo();
                    if hit {
                        return Some(g);
                    }
                }
            }
            old.undo();
        }
        None
    }

    /// Copies the subtree of node `at` into the spare arena (breadth first, children kept
    /// contiguous) and makes it the tree.
    fn compact(&mut self, at: u32) {
        self.spare.clear();
        self.spare_heads.clear();
        self.spare.push(self.nodes[at as usize]);
        self.spare_heads.push(self.heads[at as usize]);
        let mut i = 0;
        while i < self.spare.len() {
            let node = self.spare[i];
            if node.expanded() {
                let first = self.spare.len() as u32;
                let from = node.first as usize..(node.first + node.count) as usize;
                self.spare.extend_from_slice(&self.nodes[from.clone()]);
                self.spare_heads.extend_from_slice(&self.heads[from]);
                self.spare[i].first = first;
            }
            i += 1;
        }
        std::mem::swap(&mut self.nodes, &mut self.spare);
        std::mem::swap(&mut self.heads, &mut self.spare_heads);
    }

    /// One iteration: select down the tree, expand a leaf, roll out, back up the result.
    fn iterate(&mut self, work: &mut G) {
        let root_player = work.to_move();
        let root_ply = work.ply();
        self.path.clear();
        self.path.push(0);
        self.rollout_moves.clear();
        let solver = self.config.solver;
        let mut at = 0usize;
        let outcome = loop {
            if let Some(outcome) = work.outcome() {
                if solver {
                    self.prove_end(root_player, outcome);
                }
                break outcome;
            }
            if solver && self.nodes[at].proof != Proof::Open {
                break self.proven_outcome(root_player);
            }
            if !self.nodes[at].expanded() {
                if (at != 0 && self.nodes[at].visits < self.config.expand) || !self.expand(at, work)
                {
                    break self.rollout(work);
                }
                let child = self.nodes[at].first;
                work.play(work.index_move(self.heads[child as usize].key as usize));
                self.path.push(child);
                break match work.outcome() {
                    Some(outcome) => {
                        if solver {
                            self.prove_end(root_player, outcome);
                        }
                        outcome
                    }
                    None => self.rollout(work),
                };
            }
            at = self.select(at) as usize;
            work.play(work.index_move(self.heads[at].key as usize));
            self.path.push(at as u32);
        };
        // The move into a node at odd depth was the root player's.
        let (odd, even) = (
            outcome.reward(root_player),
            outcome.reward(root_player.other()),
        );
        let (k, w) = (self.config.rave, self.config.prior);
        for (depth, &i) in self.path.iter().enumerate() {
            let node = &mut self.nodes[i as usize];
            node.visits += 1;
            node.reward += if depth % 2 == 1 { odd } else { even };
            node.refresh(&mut self.heads[i as usize], k, w);
        }
        if self.config.rave > 0.0 {
            self.update_amaf(work, root_ply, odd, even);
        }
        if solver {
            self.back_up_proofs();
        }
    }

    /// The player who made the move into the node at `depth` on the path: the root player at
    /// odd depths.
    fn mover(root_player: Player, depth: usize) -> Player {
        if depth % 2 == 1 {
            root_player
        } else {
            root_player.other()
        }
    }

    /// Solver: the last node of the path ends the game with `outcome`; a win is proven for
    /// whoever won.
    fn prove_end(&mut self, root_player: Player, outcome: Outcome) {
        let depth = self.path.len() - 1;
        let proof = match outcome {
            Outcome::Win(p) if p == Self::mover(root_player, depth) => Proof::Win,
            Outcome::Win(_) => Proof::Loss,
            Outcome::Draw => return,
        };
        self.prove(self.path[depth] as usize, proof);
    }

    /// Solver: the outcome of perfect play from the last node of the path, which is proven.
    fn proven_outcome(&self, root_player: Player) -> Outcome {
        let depth = self.path.len() - 1;
        let mover = Self::mover(root_player, depth);
        match self.nodes[self.path[depth] as usize].proof {
            Proof::Win => Outcome::Win(mover),
            _ => Outcome::Win(mover.other()),
        }
    }

    /// Marks node `i` proven, its head taken first (a win) or last (a loss) from now on.
    fn prove(&mut self, i: usize, proof: Proof) {
        self.nodes[i].proof = proof;
        self.heads[i].value = match proof {
            Proof::Win => f32::INFINITY,
            _ => f32::NEG_INFINITY,
        };
    }

    /// Solver: carries a proof at the end of the path up it, as far as it decides the nodes
    /// above: a reply proven to win makes the move before it a loss, and a move whose every
    /// reply is proven to lose is a win.
    fn back_up_proofs(&mut self) {
        for d in (1..self.path.len()).rev() {
            let (i, parent) = (self.path[d] as usize, self.path[d - 1] as usize);
            let proof = match self.nodes[i].proof {
                Proof::Open => return,
                Proof::Win => Proof::Loss,
                Proof::Loss => {
                    let p = self.nodes[parent];
                    let children = &self.nodes[p.first as usize..(p.first + p.count) as usize];
                    if children.iter().all(|c| c.proof == Proof::Loss) {
                        Proof::Win
                    } else {
                        return;
                    }
                }
            };
            if self.nodes[parent].proof == proof {
                return;
            }
            self.prove(parent, proof);
        }
    }

    /// RAVE: every child of a node on the path whose move the player to move there played
    /// then or later in this iteration (tree or rollout) counts the iteration as its own.
    /// `odd` and `even` are the rewards of the players who move at even and odd depths.
    fn update_amaf(&mut self, work: &G, root_ply: u32, odd: f32, even: f32) {
        work.moves_since(root_ply, &mut self.tree_moves);
        self.played.clear();
        let tree = self.tree_moves.iter().map(|&mv| work.move_index(mv) as u32);
        self.played.extend(tree);
        self.played.extend_from_slice(&self.rollout_moves);
        let bound = work.move_index_bound();
        if self.last.len() < bound {
            self.last.resize(bound, [0, 0]);
        }
        for (j, &index) in self.played.iter().enumerate() {
            self.last[index as usize][j & 1] = j as u32 + 1;
        }
        for (depth, &i) in self.path.iter().enumerate() {
            let node = self.nodes[i as usize];
            if !node.expanded() {
                continue;
            }
            // The children's moves are made at depth `depth` by the player to move there,
            // who is the root player at even depths.
            let reward = if depth % 2 == 0 { odd } else { even };
            let parity = depth & 1;
            let first = node.first as usize;
            let range = first..first + node.count as usize;
            let (children, heads) = (&mut self.nodes[range.clone()], &mut self.heads[range]);
            // The children played later are listed first, without a branch per child, then
            // updated.
            if self.hits.len() < heads.len() {
                self.hits.resize(heads.len(), 0);
            }
            let mut hits = 0;
            for (c, head) in heads.iter().enumerate() {
                self.hits[hits] = c as u32;
                hits += usize::from(self.last[head.key as usize][parity] > depth as u32);
            }
            for &c in &self.hits[..hits] {
                let child = &mut children[c as usize];
                child.amaf_visits += 1;
                child.amaf_reward += reward;
                child.refresh_amaf(&mut heads[c as usize]);
            }
        }
        for &index in &self.played {
            self.last[index as usize] = [0, 0];
        }
    }

    fn rollout(&mut self, work: &mut G) -> Outcome {
        let moves = (self.config.rave > 0.0).then_some(&mut self.rollout_moves);
        work.rollout(self.config.rollout, &mut self.rng, moves)
    }

    /// Gives node `at` (position `work`, undecided) its children; `false` when the arena is
    /// full.
    fn expand(&mut self, at: usize, work: &G) -> bool {
        let me: Player = work.to_move();
        self.moves.clear();
        if let Some(mv) = work
            .winning_move(me)
            .or_else(|| work.winning_move(me.other()))
        {
            self.moves.push(mv);
        } else {
            work.moves(&mut self.moves);
            self.rng.shuffle(&mut self.moves);
        }
        if self.nodes.len() + self.moves.len() > self.config.max_nodes as usize {
            return false;
        }
        let first = self.nodes.len() as u32;
        // A copy of one new node, then each child's move: the nodes are written in place.
        let end = first as usize + self.moves.len();
        self.nodes.resize(end, Node::default());
        self.heads.resize(end, Head::new(0));
        for (head, &mv) in self.heads[first as usize..].iter_mut().zip(&self.moves) {
            head.key = work.move_index(mv) as u32;
        }
        let w = self.config.prior;
        if w > 0.0 && self.moves.len() > 1 {
            self.priors.resize(self.moves.len(), 0);
            work.priors(&self.moves, &mut self.priors);
            for (node, &p) in self.nodes[first as usize..].iter_mut().zip(&self.priors) {
                node.prior = p;
                // The value a first AMAF update gives (no visit yet: β = 1).
                node.base = node.bonus(w);
            }
        }
        let node = &mut self.nodes[at];
        node.first = first;
        node.count = self.moves.len() as u32;
        true
    }

    /// The child of node `at` with the highest UCT score, `q + c·sqrt(ln N / n)`, or with RAVE
    /// `(1 − β)·q + β·q̃ + c·sqrt(ln N / (n + 1))`; a child without statistics (plain UCT: no
    /// visit; RAVE: no visit and no AMAF count) first, in the shuffled order of expansion.
    fn select(&self, at: usize) -> u32 {
        let node = &self.nodes[at];
        let c = self.config.exploration * (node.visits.max(1) as f32).ln().sqrt();
        let first = node.first as usize;
        let heads = &self.heads[first..first + node.count as usize];
        let mut best = 0;
        let mut best_score = f32::NEG_INFINITY;
        for (i, head) in heads.iter().enumerate() {
            if head.value == f32::INFINITY {
                return (first + i) as u32;
            }
            // From the node's kept value and factor.
            let score = head.value + c * head.explore;
            if score > best_score {
                best_score = score;
                best = i;
            }
        }
        (first + best) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy game whose outcome is fixed: the players take turns taking one of `TOKENS`
    /// distinct tokens until all are taken, and then the first player has won.
    #[derive(Clone)]
    struct FirstWins {
        taken: Vec<u8>,
    }

    const TOKENS: u8 = 6;

    /// The player to move after `ply` moves of the toy games: the first one after an even
    /// number.
    fn to_move_after(ply: usize) -> Player {
        if ply.is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        }
    }

    impl Position for FirstWins {
        type Move = u8;

        fn to_move(&self) -> Player {
            to_move_after(self.taken.len())
        }

        fn outcome(&self) -> Option<Outcome> {
            (self.taken.len() == usize::from(TOKENS)).then_some(Outcome::Win(Player::First))
        }

        fn moves(&self, out: &mut Vec<u8>) {
            out.clear();
            if self.outcome().is_none() {
                out.extend((0..TOKENS).filter(|t| !self.taken.contains(t)));
            }
        }

        fn play(&mut self, mv: u8) {
            self.taken.push(mv);
        }

        fn undo(&mut self) {
            self.taken.pop();
        }

        fn ply(&self) -> u32 {
            self.taken.len() as u32
        }

        fn hash(&self) -> u64 {
            self.taken.iter().fold(0, |h, &t| h | 1 << t)
        }

        fn move_index(&self, mv: u8) -> usize {
            usize::from(mv)
        }

        fn index_move(&self, index: usize) -> u8 {
            index as u8
        }

        fn move_index_bound(&self) -> usize {
            usize::from(TOKENS)
        }

        fn moves_since(&self, ply: u32, out: &mut Vec<u8>) {
            out.clear();
            out.extend_from_slice(&self.taken[ply as usize..]);
        }

        fn winning_move(&self, player: Player) -> Option<u8> {
            // The last token wins for the first player, whoever takes it.
            let mut left = (0..TOKENS).filter(|t| !self.taken.contains(t));
            let last = left.next().filter(|_| left.next().is_none());
            last.filter(|_| player == Player::First)
        }
    }

    #[test]
    fn clear_forgets_the_tree_and_keeps_its_memory() {
        let config = MctsConfig {
            budget: Budget::Iterations(200),
            ..MctsConfig::default()
        };
        let start = FirstWins { taken: Vec::new() };
        let mut mcts = Mcts::<FirstWins>::new(config.clone(), 1);
        mcts.choose(&start);
        // Without `clear` the same root is searched on from its 200 visits.
        mcts.choose(&start);
        assert_eq!(mcts.root_visits(), 400);
        let (capacity, grown) = (mcts.nodes.capacity(), mcts.tree_size());
        mcts.clear();
        assert_eq!(mcts.tree_size(), 0);
        mcts.choose(&start);
        assert_eq!(mcts.root_visits(), 200);
        assert!(
            mcts.tree_size() < grown,
            "{} against {grown}",
            mcts.tree_size()
        );
        assert_eq!(mcts.nodes.capacity(), capacity);
        // Its helpers' trees too.
        let mut parallel = Mcts::<FirstWins>::new(
            MctsConfig {
                threads: 2,
                ..config
            },
            1,
        );
        parallel.choose(&start);
        parallel.clear();
        assert_eq!(parallel.tree_size(), 0);
        parallel.choose(&start);
        assert_eq!(parallel.root_visits(), 200);
    }

    #[test]
    fn rave_statistics_are_those_of_the_player_who_moves() {
        // Every game is the first player's: each child's mean reward, its own and its
        // all-moves-as-first one, is 1 for a move of the first player and 0 for one of the
        // second, at every depth of the tree.
        let config = MctsConfig {
            budget: Budget::Iterations(300),
            rave: 100.0,
            ..MctsConfig::default()
        };
        let mut mcts = Mcts::<FirstWins>::new(config, 1);
        mcts.choose(&FirstWins { taken: Vec::new() });
        let mut checked = [0; 2];
        // (node, depth): the children of a node at depth d are moves made at depth d, by the
        // first player at even depths.
        let mut stack = vec![(0usize, 0usize)];
        while let Some((at, depth)) = stack.pop() {
            let node = mcts.nodes[at];
            if !node.expanded() {
                continue;
            }
            let want = if depth % 2 == 0 { 1.0 } else { 0.0 };
            for i in node.first..node.first + node.count {
                let child = mcts.nodes[i as usize];
                if child.visits > 0 {
                    assert_eq!(child.reward, want * child.visits as f32, "depth {depth}");
                }
                if child.amaf_visits > 0 {
                    assert_eq!(
                        child.amaf_reward,
                        want * child.amaf_visits as f32,
                        "depth {depth}"
                    );
                    checked[depth % 2] += 1;
                }
                stack.push((i as usize, depth + 1));
            }
        }
        // Both players' moves, at several depths.
        assert!(checked[0] > 20 && checked[1] > 20, "{checked:?}");
    }

    #[test]
    fn leaves_are_expanded_after_their_visits() {
        for expand in [0, 1, 3] {
            let config = MctsConfig {
                budget: Budget::Iterations(400),
                expand,
                ..MctsConfig::default()
            };
            let mut mcts = Mcts::<FirstWins>::new(config, 5);
            mcts.choose(&FirstWins { taken: Vec::new() });
            let (mut expanded, mut stack) = (0, vec![(0usize, 0u8)]);
            while let Some((at, depth)) = stack.pop() {
                let node = mcts.nodes[at];
                if node.expanded() {
                    if at != 0 {
                        // Expanded by the iteration that found `expand` visits, which then
                        // counted its own.
                        assert!(node.visits > expand, "{expand}: {node:?}");
                        expanded += 1;
                    }
                    for i in node.first..node.first + node.count {
                        stack.push((i as usize, depth + 1));
                    }
                } else if depth < TOKENS {
                    // A leaf of an undecided position is expanded by its next visit (the first
                    // child of an expansion is visited once, by that iteration).
                    assert!(node.visits <= expand.max(1), "{expand}: {node:?}");
                }
            }
            assert!(expanded > 10, "{expand}: {expanded}");
        }
    }

    #[test]
    fn a_node_takes_the_bytes_the_docs_say() {
        // `MctsConfig::max_nodes` gives the memory a tree may take from this.
        assert_eq!(size_of::<Node>() + size_of::<Head>(), 48);
    }

    #[test]
    fn an_amaf_refresh_gives_the_value_of_a_full_refresh() {
        // Visits and AMAF updates in a seeded random order, from a new node: after each AMAF
        // update the short refresh equals the full one, bit for bit (a node with AMAF counts
        // and no visit included).
        // With and without a prior bonus, whose expansion leaves it in `base`.
        let mut rng = Rng::new(3);
        for (k, prior) in [
            (1.0, 0),
            (200.0, 0),
            (1000.0, 0),
            (200.0, 45),
            (1000.0, 255),
        ] {
            let w = 0.01;
            for _ in 0..50 {
                let (mut node, mut head) = (Node::default(), Head::new(0));
                node.prior = prior;
                node.base = node.bonus(w);
                for _ in 0..40 {
                    let reward = [0.0, 0.5, 1.0][rng.below(3) as usize];
                    if rng.below(4) == 0 {
                        node.visits += 1;
                        node.reward += reward;
                        node.refresh(&mut head, k, w);
                    } else {
                        node.amaf_visits += 1;
                        node.amaf_reward += reward;
                        node.refresh_amaf(&mut head);
                        let (mut full, mut copy) = (head, node);
                        copy.refresh(&mut full, k, w);
                        assert_eq!(head.value.to_bits(), full.value.to_bits(), "{node:?}");
                    }
                }
            }
        }
    }

    /// A search over a root whose children have these (visits, reward, AMAF visits, AMAF
    /// reward), the root visited `visits` times.
    fn tree(config: MctsConfig, visits: u32, children: &[(u32, f32, u32, f32)]) -> Mcts<FirstWins> {
        let mut mcts = Mcts::<FirstWins>::new(config, 1);
        mcts.nodes.push(Node {
            first: 1,
            count: children.len() as u32,
            visits,
            ..Node::default()
        });
        mcts.heads.push(Head::new(0));
        for (k, &(v, r, av, ar)) in children.iter().enumerate() {
            let mut child = Node {
                visits: v,
                reward: r,
                amaf_visits: av,
                amaf_reward: ar,
                ..Node::default()
            };
            let mut head = Head::new(k + 1);
            child.refresh(&mut head, mcts.config.rave, mcts.config.prior);
            mcts.nodes.push(child);
            mcts.heads.push(head);
        }
        mcts
    }

    #[test]
    fn uct_selects_the_highest_mean_plus_exploration() {
        // c = 0.7 after N = 100 visits: 0.7 · sqrt(ln 100) = 1.502. A child of 50 visits and
        // mean 0.8 scores 0.8 + 1.502 / sqrt(50) = 1.012; one of 5 visits and mean 0.2 scores
        // 0.2 + 1.502 / sqrt(5) = 0.872: the first is chosen. (With a larger exploration term
        // the second would be: 0.7 + sqrt(ln 100) = 2.846 gives 1.202 against 1.473.)
        let mcts = tree(
            MctsConfig::default(),
            100,
            &[(5, 1.0, 0, 0.0), (50, 40.0, 0, 0.0)],
        );
        assert_eq!(mcts.select(0), 2);
        // The exploration term decides the other way: 5 visits of mean 0.6 score
        // 0.6 + 1.502 / sqrt(5) = 1.272, 50 of mean 0.75 score 0.75 + 1.502 / sqrt(50) = 0.962.
        // (With a smaller term, 0.7 / sqrt(ln 100) = 0.326, the second would be chosen: 0.746
        // against 0.796.)
        let mcts = tree(
            MctsConfig::default(),
            100,
            &[(5, 3.0, 0, 0.0), (50, 37.5, 0, 0.0)],
        );
        assert_eq!(mcts.select(0), 1);
        // An unvisited child comes first.
        let mcts = tree(
            MctsConfig::default(),
            100,
            &[(50, 40.0, 0, 0.0), (0, 0.0, 0, 0.0)],
        );
        assert_eq!(mcts.select(0), 2);
    }

    #[test]
    fn rave_mixes_the_mean_and_the_amaf_mean() {
        // k = 1000, no exploration: score (1 − β)·q + β·q̃ with β = sqrt(k / (3n + k)). A child
        // of 1 visit lost (q = 0) but 10 AMAF wins (q̃ = 1): β = sqrt(1000 / 1003) = 0.9985,
        // score 0.9985. One of 10 visits won (q = 1) and 10 AMAF losses (q̃ = 0): β = sqrt(1000
        // / 1030) = 0.9853, score 0.0147. The first is chosen. (With (1 − β) + q in place of
        // (1 − β)·q the second would be: 1.0000 against 1.0147.)
        let config = MctsConfig {
            rave: 1000.0,
            exploration: 0.0,
            ..MctsConfig::default()
        };
        let children = [(1, 0.0, 10, 10.0), (10, 10.0, 10, 0.0)];
        let mcts = tree(config.clone(), 11, &children);
        assert_eq!(mcts.select(0), 1);
        // A child with neither visits nor AMAF statistics comes first.
        let mcts = tree(config, 11, &[children[0], (0, 0.0, 0, 0.0)]);
        assert_eq!(mcts.select(0), 2);
    }

    /// A subtraction game: the players take 1, 2 or 3 tokens from a pile, and whoever takes
    /// the last one wins. The player to move loses exactly when the pile is a multiple of 4.
    #[derive(Clone)]
    struct Take {
        pile: u32,
        taken: Vec<u8>,
    }

    impl Take {
        fn new(pile: u32) -> Take {
            Take {
                pile,
                taken: Vec::new(),
            }
        }
    }

    impl Position for Take {
        /// How many tokens the move takes.
        type Move = u8;

        fn to_move(&self) -> Player {
            to_move_after(self.taken.len())
        }

        fn outcome(&self) -> Option<Outcome> {
            // The player who took the last token, who is not the one to move.
            (self.pile == 0).then(|| Outcome::Win(self.to_move().other()))
        }

        fn moves(&self, out: &mut Vec<u8>) {
            out.clear();
            out.extend((1..=3).filter(|&t| u32::from(t) <= self.pile));
        }

        fn play(&mut self, mv: u8) {
            self.pile -= u32::from(mv);
            self.taken.push(mv);
        }

        fn undo(&mut self) {
            if let Some(t) = self.taken.pop() {
                self.pile += u32::from(t);
            }
        }

        fn ply(&self) -> u32 {
            self.taken.len() as u32
        }

        fn hash(&self) -> u64 {
            u64::from(self.pile)
        }

        fn move_index(&self, mv: u8) -> usize {
            usize::from(mv - 1)
        }

        fn index_move(&self, index: usize) -> u8 {
            index as u8 + 1
        }

        fn move_index_bound(&self) -> usize {
            3
        }

        fn moves_since(&self, ply: u32, out: &mut Vec<u8>) {
            out.clear();
            out.extend_from_slice(&self.taken[ply as usize..]);
        }

        fn winning_move(&self, _: Player) -> Option<u8> {
            // Whoever moves with at most 3 tokens left takes them all; the player to move is
            // asked first, so no block is ever asked for.
            (1..=3).contains(&self.pile).then_some(self.pile as u8)
        }
    }

    fn solver(iterations: u32) -> MctsConfig {
        MctsConfig {
            budget: Budget::Iterations(iterations),
            solver: true,
            ..MctsConfig::default()
        }
    }

    #[test]
    fn the_solver_proves_the_subtraction_game() {
        for pile in 4..=24 {
            for (seed, rave) in [(1, 0.0), (2, 0.0), (3, 100.0)] {
                let config = MctsConfig {
                    rave,
                    ..solver(100_000)
                };
                let mut mcts = Mcts::<Take>::new(config, seed);
                let choice = mcts.choose(&Take::new(pile));
                // Proven, and stopped there, before the budget.
                assert!(mcts.iterations() < 100_000, "{pile}: {}", mcts.iterations());
                if pile % 4 == 0 {
                    // Every move loses: the root, the move that led to it, is a win.
                    assert_eq!(mcts.nodes[0].proof, Proof::Win, "{pile}");
                    assert_eq!(choice.value, Some(0.0), "{pile}");
                } else {
                    assert_eq!(mcts.nodes[0].proof, Proof::Loss, "{pile}");
                    assert_eq!(choice.mv, (pile % 4) as u8, "{pile}");
                    assert_eq!(choice.value, Some(1.0), "{pile}");
                }
                // Every proof in the tree is right.
                let mut stack = vec![(0usize, pile)];
                while let Some((at, left)) = stack.pop() {
                    let node = mcts.nodes[at];
                    // The player to move at `left` loses when it is a multiple of 4: the
                    // move into the node won.
                    match node.proof {
                        Proof::Win => assert_eq!(left % 4, 0, "{pile}: {left}"),
                        Proof::Loss => assert_ne!(left % 4, 0, "{pile}: {left}"),
                        Proof::Open => {}
                    }
                    for c in node.first..node.first + node.count {
                        let took = mcts.heads[c as usize].key + 1;
                        stack.push((c as usize, left - took));
                    }
                }
            }
        }
    }

    #[test]
    fn without_the_solver_nothing_is_proven() {
        let config = MctsConfig {
            solver: false,
            ..solver(3000)
        };
        let mut mcts = Mcts::<Take>::new(config, 1);
        mcts.choose(&Take::new(10));
        assert_eq!(mcts.iterations(), 3000);
        assert!(mcts.nodes.iter().all(|n| n.proof == Proof::Open));
    }

    #[test]
    fn proofs_of_the_threads_trees_choose_together() {
        // Two trees, an iteration budget shared: each stops when its root is proven.
        let config = MctsConfig {
            threads: 2,
            ..solver(100_000)
        };
        for pile in [9, 10, 11, 13] {
            let mut mcts = Mcts::<Take>::new(config.clone(), 7);
            let choice = mcts.choose(&Take::new(pile));
            assert_eq!(choice.mv, (pile % 4) as u8, "{pile}");
            assert_eq!(choice.value, Some(1.0));
            assert!(mcts.iterations() < 40_000);
        }
    }

    #[test]
    fn a_proof_is_never_overwritten_by_statistics() {
        // The first player wins every game of `FirstWins`: the search proves the root (every
        // move of the first player wins) and stops.
        let mut mcts = Mcts::<FirstWins>::new(
            MctsConfig {
                rave: 100.0,
                ..solver(100_000)
            },
            3,
        );
        let choice = mcts.choose(&FirstWins { taken: Vec::new() });
        assert_eq!(choice.value, Some(1.0));
        assert!(mcts.iterations() < 100_000);
        for (node, head) in mcts.nodes.iter().zip(&mcts.heads) {
            match node.proof {
                Proof::Win => assert_eq!(head.value, f32::INFINITY),
                Proof::Loss => assert_eq!(head.value, f32::NEG_INFINITY),
                Proof::Open => {}
            }
        }
    }
}
