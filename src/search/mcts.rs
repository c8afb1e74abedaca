//! UCT (Kocsis & Szepesvári, "Bandit based Monte-Carlo planning", ECML 2006) over a
//! [`Position`], with decisive and anti-decisive moves in the tree and the rollouts, an
//! arena-allocated tree and tree reuse between moves.

use std::time::{Duration, Instant};

use super::agent::Choice;
use super::{Outcome, Player, Position};
use crate::rng::Rng;

/// How long a search runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// A fixed number of iterations (one rollout each): deterministic for a seed.
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
    /// The most nodes the tree holds; once full, leaves are no longer expanded.
    pub max_nodes: u32,
}

impl Default for MctsConfig {
    /// 1000 iterations, c = 0.7, decisive rollouts, up to 2²² nodes.
    fn default() -> MctsConfig {
        MctsConfig {
            budget: Budget::Iterations(1000),
            exploration: 0.7,
            rollout: Rollout::Decisive,
            max_nodes: 1 << 22,
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
/// - **Value**: [`Choice::value`] is the chosen move's mean reward, the estimate the
///   simulator's metrics use as the state evaluation.
///
/// Deterministic for a seed and an iteration budget.
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
        }
    }

    /// The settings.
    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// Iterations run by all searches so far.
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// Visits of the root of the last search: the iterations it ran plus those its reused
    /// subtree had already received.
    pub fn root_visits(&self) -> u32 {
        self.nodes.first().map_or(0, |n| n.visits)
    }

    /// Nodes in the tree now.
    pub fn tree_size(&self) -> usize {
        self.nodes.len()
    }

    /// Searches `position` within the budget and returns the most visited move and its mean
    /// reward. A move that wins at once is returned without a search, with value 1.
    ///
    /// # Panics
    /// When the game is already decided.
    pub fn choose(&mut self, position: &G) -> Choice<G::Move> {
        assert!(position.outcome().is_none(), "the game is already decided");
        if let Some(mv) = position.winning_move(position.to_move()) {
            return Choice {
                mv,
                value: Some(1.0),
            };
        }
        self.reuse(position);
        let mut root = position.clone();
        root.prepare_search();
        let mut work = root.clone();
        let started = Instant::now();
        let mut done: u32 = 0;
        loop {
            let more = match self.config.budget {
                Budget::Iterations(n) => done < n,
                Budget::Time(t) => done == 0 || !done.is_multiple_of(32) || started.elapsed() < t,
            };
            if !more {
                break;
            }
            self.iterate(&mut work);
            work.rewind(&root);
            done += 1;
        }
        self.iterations += u64::from(done);
        let root = self.nodes[0];
        let children = &self.nodes[root.first as usize..(root.first + root.count) as usize];
        let best = children
            .iter()
            .max_by(|a, b| a.visits.cmp(&b.visits).then(a.reward.total_cmp(&b.reward)))
            .expect("an undecided position has a move");
        Choice {
            mv: best.mv,
            value: Some(best.reward / best.visits.max(1) as f32),
        }
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
                self.nodes.push(Node {
                    mv: self.moves[0],
                    first: 0,
                    count: 0,
                    expanded: false,
                    visits: 0,
                    reward: 0.0,
                });
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
        self.path.clear();
        self.path.push(0);
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
        for (depth, &i) in self.path.iter().enumerate() {
            let node = &mut self.nodes[i as usize];
            node.visits += 1;
            node.reward += if depth % 2 == 1 { odd } else { even };
        }
    }

    fn rollout(&mut self, work: &mut G) -> Outcome {
        match self.config.rollout {
            Rollout::Decisive => work.playout_decisive(&mut self.rng),
            Rollout::Random => work.playout(&mut self.rng),
        }
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
        self.nodes.extend(self.moves.iter().map(|&mv| Node {
            mv,
            first: 0,
            count: 0,
            expanded: false,
            visits: 0,
            reward: 0.0,
        }));
        let node = &mut self.nodes[at];
        node.first = first;
        node.count = self.moves.len() as u32;
        node.expanded = true;
        true
    }

    /// The child of node `at` with the highest UCT score (an unvisited child first, in the
    /// shuffled order of expansion).
    fn select(&self, at: usize) -> u32 {
        let node = &self.nodes[at];
        let c = self.config.exploration * (node.visits.max(1) as f32).ln().sqrt();
        let first = node.first as usize;
        let children = &self.nodes[first..first + node.count as usize];
        let mut best = 0;
        let mut best_score = f32::NEG_INFINITY;
        for (i, child) in children.iter().enumerate() {
            if child.visits == 0 {
                return (first + i) as u32;
            }
            let n = child.visits as f32;
            let score = child.reward / n + c / n.sqrt();
            if score > best_score {
                best_score = score;
                best = i;
            }
        }
        (first + best) as u32
    }
}
