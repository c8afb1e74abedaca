//! UCT (Kocsis & Szepesvári, "Bandit based Monte-Carlo planning", ECML 2006) over a
//! [`Position`], with decisive and anti-decisive moves in the tree and the rollouts, RAVE
//! (Gelly & Silver, "Combining online and offline knowledge in UCT", ICML 2007), an
//! arena-allocated tree, tree reuse between moves, and root parallelism over threads.

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
    /// expanded.
    pub max_nodes: u32,
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
}

impl Default for MctsConfig {
    /// 1000 iterations, c = 0.7, decisive rollouts, up to 2²² nodes, no RAVE, one thread.
    fn default() -> MctsConfig {
        MctsConfig {
            budget: Budget::Iterations(1000),
            exploration: 0.7,
            rollout: Rollout::Decisive,
            max_nodes: 1 << 22,
            rave: 0.0,
            threads: 1,
        }
    }
}

/// A node of the tree: the move that leads to it, its children (contiguous in the arena) and
/// its statistics, from the point of view of the player who made `mv`.
#[derive(Debug, Clone, Copy)]
struct Node<M> {
    mv: M,
    /// Index of the first child in the arena.
    first: u32,
    /// Number of children (valid once `expanded`).
    count: u32,
    expanded: bool,
    visits: u32,
    /// Sum of the rewards (1 win, ½ draw, 0 loss) of the player who made `mv`.
    reward: f32,
    /// RAVE: iterations through the parent in which `mv` was played later by the same player.
    amaf_visits: u32,
    /// RAVE: the sum of their rewards, for the player who made `mv`.
    amaf_reward: f32,
    /// The selection's value of the statistics above, kept by [`Node::refresh`]: the mean
    /// reward `q`, or with RAVE `(1 − β)·q + β·q̃`.
    value: f32,
    /// The selection's exploration factor, kept by [`Node::refresh`]: `1 / sqrt(n)`, or with
    /// RAVE `1 / sqrt(n + 1)`. (A select reads every child of every node on its path, a
    /// back-up changes a few nodes: the divisions and roots are made once per change.)
    explore: f32,
}

impl<M> Node<M> {
    fn new(mv: M) -> Node<M> {
        Node {
            mv,
            first: 0,
            count: 0,
            expanded: false,
            visits: 0,
            reward: 0.0,
            amaf_visits: 0,
            amaf_reward: 0.0,
            value: 0.0,
            explore: 1.0,
        }
    }

    /// Recomputes [`Node::value`] and [`Node::explore`] from the statistics, for RAVE's
    /// equivalence parameter `k` (0 for plain UCT).
    #[inline]
    fn refresh(&mut self, k: f32) {
        let (n, na) = (self.visits as f32, self.amaf_visits as f32);
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
            let beta = if self.visits == 0 {
                1.0
            } else if self.amaf_visits == 0 {
                0.0
            } else {
                (k / (3.0 * n + k)).sqrt()
            };
            self.value = (1.0 - beta) * q + beta * qa;
            self.explore = 1.0 / (n + 1.0).sqrt();
        } else {
            self.value = q;
            self.explore = 1.0 / n.sqrt();
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
/// - **Value**: [`Choice::value`] is the chosen move's mean reward, the estimate the
///   simulator's metrics use as the state evaluation.
///
/// Deterministic for a seed and an iteration budget, whatever the threads' timing.
pub struct Mcts<G: Position> {
    config: MctsConfig,
    rng: Rng,
    nodes: Vec<Node<G::Move>>,
    spare: Vec<Node<G::Move>>,
    /// The position at `nodes[0]`, for tree reuse.
    root: Option<G>,
    moves: Vec<G::Move>,
    path: Vec<u32>,
    iterations: u64,
    /// RAVE: the moves of one iteration, tree and rollout.
    played: Vec<G::Move>,
    /// RAVE: the moves of a rollout played on a copy of the position
    /// ([`Position::rollout`]).
    rollout_moves: Vec<G::Move>,
    /// RAVE: per move index and parity of the ply, 1 + the last ply (from the root) at which
    /// the move was played in this iteration, 0 for none.
    last: Vec<[u32; 2]>,
    /// RAVE: the children of one node that an iteration's update counts.
    hits: Vec<u32>,
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
            spare: Vec::new(),
            root: None,
            moves: Vec::new(),
            path: Vec::new(),
            iterations: 0,
            played: Vec::new(),
            rollout_moves: Vec::new(),
            last: Vec::new(),
            hits: Vec::new(),
            helpers: Vec::new(),
        }
    }

    /// Forgets the trees (this thread's and the helpers'), keeping their memory: the next
    /// search starts from a new root without allocating what the last ones grew. The
    /// generators go on where they were.
    pub fn clear(&mut self) {
        self.nodes.clear();
        self.spare.clear();
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
        let children = &self.nodes[root.first as usize..(root.first + root.count) as usize];
        // Each child's visits and reward, summed over the threads' trees (whose roots have the
        // same children, in other orders).
        let summed = |child: &Node<G::Move>| {
            self.helpers
                .iter()
                .fold((child.visits, child.reward), |(v, r), h| {
                    let root = h.nodes[0];
                    let theirs = &h.nodes[root.first as usize..(root.first + root.count) as usize];
                    match theirs.iter().find(|c| c.mv == child.mv) {
                        Some(c) => (v + c.visits, r + c.reward),
                        None => (v, r),
                    }
                })
        };
        let (best, (visits, reward)) = children
            .iter()
            .map(|c| (c, summed(c)))
            .max_by(|(_, a), (_, b)| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)))
            .expect("an undecided position has a move");
        Choice {
            mv: best.mv,
            value: Some(reward / visits.max(1) as f32),
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
                position.moves(&mut self.moves);
                self.nodes.push(Node::new(self.moves[0]));
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
        let children = |n: &Node<G::Move>| n.first..n.first + if n.expanded { n.count } else { 0 };
        for c in children(&self.nodes[0]) {
            old.play(self.nodes[c as usize].mv);
            if depth == 1 && same(&old) {
                return Some(c);
            }
            if depth == 2 {
                for g in children(&self.nodes[c as usize]) {
                    old.play(self.nodes[g as usize].mv);
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
        self.spare.push(self.nodes[at as usize]);
        let mut i = 0;
        while i < self.spare.len() {
            let node = self.spare[i];
            if node.expanded {
                let first = self.spare.len() as u32;
                let from = node.first as usize..(node.first + node.count) as usize;
                self.spare.extend_from_slice(&self.nodes[from]);
                self.spare[i].first = first;
            }
            i += 1;
        }
        std::mem::swap(&mut self.nodes, &mut self.spare);
    }

    /// One iteration: select down the tree, expand a leaf, roll out, back up the result.
    fn iterate(&mut self, work: &mut G) {
        let root_player = work.to_move();
        let root_ply = work.ply();
        self.path.clear();
        self.path.push(0);
        self.rollout_moves.clear();
        let mut at = 0usize;
        let outcome = loop {
            if let Some(outcome) = work.outcome() {
                break outcome;
            }
            if !self.nodes[at].expanded {
                if !self.expand(at, work) {
                    break self.rollout(work);
                }
                let child = self.nodes[at].first;
                work.play(self.nodes[child as usize].mv);
                self.path.push(child);
                break match work.outcome() {
                    Some(outcome) => outcome,
                    None => self.rollout(work),
                };
            }
            at = self.select(at) as usize;
            work.play(self.nodes[at].mv);
            self.path.push(at as u32);
        };
        // The move into a node at odd depth was the root player's.
        let (odd, even) = (
            outcome.reward(root_player),
            outcome.reward(root_player.other()),
        );
        let k = self.config.rave;
        for (depth, &i) in self.path.iter().enumerate() {
            let node = &mut self.nodes[i as usize];
            node.visits += 1;
            node.reward += if depth % 2 == 1 { odd } else { even };
            node.refresh(k);
        }
        if self.config.rave > 0.0 {
            self.update_amaf(work, root_ply, odd, even);
        }
    }

    /// RAVE: every child of a node on the path whose move the player to move there played
    /// then or later in this iteration (tree or rollout) counts the iteration as its own.
    /// `odd` and `even` are the rewards of the players who move at even and odd depths.
    fn update_amaf(&mut self, work: &G, root_ply: u32, odd: f32, even: f32) {
        work.moves_since(root_ply, &mut self.played);
        self.played.extend_from_slice(&self.rollout_moves);
        let bound = work.move_index_bound();
        if self.last.len() < bound {
            self.last.resize(bound, [0, 0]);
        }
        for (j, &mv) in self.played.iter().enumerate() {
            self.last[work.move_index(mv)][j & 1] = j as u32 + 1;
        }
        let k = self.config.rave;
        for (depth, &i) in self.path.iter().enumerate() {
            let node = self.nodes[i as usize];
            if !node.expanded {
                continue;
            }
            // The children's moves are made at depth `depth` by the player to move there,
            // who is the root player at even depths.
            let reward = if depth % 2 == 0 { odd } else { even };
            let parity = depth & 1;
            let first = node.first as usize;
            let children = &mut self.nodes[first..first + node.count as usize];
            // The children played later are listed first, without a branch per child, then
            // updated.
            if self.hits.len() < children.len() {
                self.hits.resize(children.len(), 0);
            }
            let mut hits = 0;
            for (c, child) in children.iter().enumerate() {
                self.hits[hits] = c as u32;
                hits += usize::from(self.last[work.move_index(child.mv)][parity] > depth as u32);
            }
            for &c in &self.hits[..hits] {
                let child = &mut children[c as usize];
                child.amaf_visits += 1;
                child.amaf_reward += reward;
                child.refresh(k);
            }
        }
        for &mv in &self.played {
            self.last[work.move_index(mv)] = [0, 0];
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
        self.nodes
            .resize(first as usize + self.moves.len(), Node::new(self.moves[0]));
        for (node, &mv) in self.nodes[first as usize..].iter_mut().zip(&self.moves) {
            node.mv = mv;
        }
        let node = &mut self.nodes[at];
        node.first = first;
        node.count = self.moves.len() as u32;
        node.expanded = true;
        true
    }

    /// The child of node `at` with the highest UCT score (an unvisited child first, in the
    /// shuffled order of expansion), or with RAVE the highest mixed score.
    fn select(&self, at: usize) -> u32 {
        let node = &self.nodes[at];
        let c = self.config.exploration * (node.visits.max(1) as f32).ln().sqrt();
        let first = node.first as usize;
        let children = &self.nodes[first..first + node.count as usize];
        if self.config.rave > 0.0 {
            return (first + self.select_rave(children, c)) as u32;
        }
        let mut best = 0;
        let mut best_score = f32::NEG_INFINITY;
        for (i, child) in children.iter().enumerate() {
            if child.visits == 0 {
                return (first + i) as u32;
            }
            // q + c / sqrt(n), from the node's kept value and factor.
            let score = child.value + c * child.explore;
            if score > best_score {
                best_score = score;
                best = i;
            }
        }
        (first + best) as u32
    }

    /// The index among `children` of the highest `(1 − β)·q + β·q̃ + c / sqrt(n + 1)` (`c`
    /// holds the parent's `sqrt(ln N)`); a child with no visit and no AMAF statistics first.
    fn select_rave(&self, children: &[Node<G::Move>], c: f32) -> usize {
        let mut best = 0;
        let mut best_score = f32::NEG_INFINITY;
        for (i, child) in children.iter().enumerate() {
            if child.visits == 0 && child.amaf_visits == 0 {
                return i;
            }
            // (1 − β)·q + β·q̃ + c / sqrt(n + 1), from the node's kept value and factor.
            let score = child.value + c * child.explore;
            if score > best_score {
                best_score = score;
                best = i;
            }
        }
        best
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

    impl Position for FirstWins {
        type Move = u8;

        fn to_move(&self) -> Player {
            if self.taken.len().is_multiple_of(2) {
                Player::First
            } else {
                Player::Second
            }
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
            if !node.expanded {
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

    /// A search over a root whose children have these (visits, reward, AMAF visits, AMAF
    /// reward), the root visited `visits` times.
    fn tree(config: MctsConfig, visits: u32, children: &[(u32, f32, u32, f32)]) -> Mcts<FirstWins> {
        let mut mcts = Mcts::<FirstWins>::new(config, 1);
        let mut root = Node::new(0);
        root.expanded = true;
        root.first = 1;
        root.count = children.len() as u32;
        root.visits = visits;
        mcts.nodes.push(root);
        for (k, &(v, r, av, ar)) in children.iter().enumerate() {
            let mut child = Node::new(k as u8 + 1);
            (
                child.visits,
                child.reward,
                child.amaf_visits,
                child.amaf_reward,
            ) = (v, r, av, ar);
            child.refresh(mcts.config.rave);
            mcts.nodes.push(child);
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
}
