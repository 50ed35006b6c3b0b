//! The search tree that every search thread grows together: nodes in one
//! arena of fixed-size chunks, children side by side, a bound on the number
//! of nodes. Pass is a child like any move.
//!
//! Threads share the tree by reference (`&Tree`), so everything a thread
//! writes is an atomic:
//!
//! - statistics are counters updated with relaxed ordering: they are
//!   estimates that nothing else depends on, and a reader that sees a visit
//!   counted a moment before its win only misjudges one playout;
//! - a node's children are published once, by the one thread that wins the
//!   right to expand it (`expand`): it writes the children and the node's
//!   `first_child` / `child_count`, then stores the state `EXPANDED` with
//!   Release; readers load the state with Acquire before they look at the
//!   children, so they see them whole or not at all;
//! - the arena hands out node ids from an atomic counter (a compare and
//!   swap that keeps within the bound) and allocates each chunk of nodes on
//!   first use (`OnceLock`), so no lock is taken on the hot path and the
//!   memory follows the nodes used, not the bound.
//!
//! No `unsafe`: the atomics cost nothing on reads (a relaxed load is a
//! plain load on x86-64 and ARM) and make every shared write sound.

use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU8, AtomicUsize, Ordering};
use std::sync::OnceLock;

use super::judgement::{BlackJudgement, JudgedSums};
use crate::game::Color;
use crate::player::board::Point;

pub use crate::player::board::PASS;

/// A counter at this value is full: the node stops counting (see `Node`).
/// Threads that pass the check together overshoot it by a few, far from
/// overflowing.
const FULL: u32 = u32::MAX / 2;

/// Relaxed ordering: the statistics are independent counters (module doc).
const RELAXED: Ordering = Ordering::Relaxed;

/// Expansion states of a node.
const UNEXPANDED: u8 = 0;
const EXPANDING: u8 = 1;
const EXPANDED: u8 = 2;

/// Bits of a node's `flags`.
const ILLEGAL: u8 = 1;
const NETWORK: u8 = 2;

/// A node's statistics are from the point of view of the player who made
/// its move: `win_rate` is that player's winning rate.
///
/// Wins are counted in halves (a playout scored exactly even is half a
/// win) as integers: exact up to 2^31 playouts through a node, where an f32
/// stops counting at 2^24 (17 million, reached by long analyses and
/// pondering). Once a counter is full the node stops counting, so its rate
/// stays what it was.
///
/// While a thread's iteration runs through a node, the node carries that
/// thread's virtual loss: visits with no win, which lower its rate so that
/// the other threads look elsewhere (`add_virtual_loss`); the backup
/// replaces them by the real result (`add_result`).
#[derive(Debug, Default)]
pub struct Node {
    /// Set once, before the node is published.
    mv: AtomicU16,
    child_count: AtomicU16,
    /// The prior's virtual playouts (low 16 bits) and their half wins
    /// (high 16 bits), both included in `visits` and `half_wins`; set once.
    prior: AtomicU32,
    /// Playouts through this node, plus the prior's virtual ones and the
    /// virtual losses of the iterations running through it.
    visits: AtomicU32,
    /// Twice the wins, prior included.
    half_wins: AtomicU32,
    /// All-moves-as-first statistics: playouts through the parent in which
    /// this move's player played this point first.
    amaf_visits: AtomicU32,
    amaf_half_wins: AtomicU32,
    first_child: AtomicU32,
    /// UNEXPANDED, EXPANDING or EXPANDED.
    state: AtomicU8,
    /// ILLEGAL (refused by superko when tried: never selected again) and
    /// NETWORK (a thread has taken on adding the policy network's prior to
    /// the children, done or under way), each set once.
    flags: AtomicU8,
}

// Thirty-two bytes (two of them padding), as the plain node was; the
// judgement beside it (`JudgedSums`) forty more: `--max-tree-mb` divides
// by both (`NODE_BYTES`).
const _: () = assert!(std::mem::size_of::<Node>() == 32);

/// What one node of the tree takes: itself and its judgement.
pub const NODE_BYTES: usize = std::mem::size_of::<Node>() + std::mem::size_of::<JudgedSums>();

/// A playout's result for one player, in half wins: 0 lost, 1 even, 2 won.
pub type HalfWins = u32;

impl Node {
    /// Gives a node fresh from its chunk (all zero) its move and prior.
    /// Only the thread that allocated it calls this, before publishing it.
    fn init(&self, mv: Point, prior_visits: u32, prior_wins: f32) {
        // A prior is worth at most a few hundred playouts; 16 bits each.
        let prior_visits = prior_visits.min(u16::MAX as u32 / 2);
        let half_wins = (2.0 * prior_wins)
            .round()
            .clamp(0.0, 2.0 * prior_visits as f32) as u32;
        self.mv.store(mv, RELAXED);
        self.prior.store(prior_visits | half_wins << 16, RELAXED);
        self.visits.store(prior_visits, RELAXED);
        self.half_wins.store(half_wins, RELAXED);
    }

    /// Copies the move and statistics of `other`, not its children.
    fn copy_statistics(&self, other: &Node) {
        self.mv.store(other.mv(), RELAXED);
        for (to, from) in [
            (&self.prior, &other.prior),
            (&self.visits, &other.visits),
            (&self.half_wins, &other.half_wins),
            (&self.amaf_visits, &other.amaf_visits),
            (&self.amaf_half_wins, &other.amaf_half_wins),
        ] {
            to.store(from.load(RELAXED), RELAXED);
        }
        self.flags.store(other.flags.load(RELAXED), RELAXED);
    }

    /// Claims the right to add the policy network's prior to this node's
    /// children: true for the one thread that gets it, once per node.
    pub fn claim_network(&self) -> bool {
        !self.has_network() && self.flags.fetch_or(NETWORK, RELAXED) & NETWORK == 0
    }

    /// Whether the children have the network's prior (or are getting it).
    pub fn has_network(&self) -> bool {
        self.flags.load(RELAXED) & NETWORK != 0
    }

    /// Adds `visits` virtual playouts, `wins` of them won, to a prior set
    /// before: the policy network's, added once the node's parent has
    /// earned it. Its statistics and its prior (for `playouts` and the
    /// report) both grow, the prior within its 16 bits.
    pub fn add_prior(&self, visits: u32, wins: u32) {
        let (before, _) = self.prior();
        let visits = visits.min(u16::MAX as u32 / 2 - before);
        let half_wins = 2 * wins.min(visits);
        if visits == 0 {
            return;
        }
        self.prior.fetch_add(visits | half_wins << 16, RELAXED);
        self.visits.fetch_add(visits, RELAXED);
        self.half_wins.fetch_add(half_wins, RELAXED);
    }

    pub fn mv(&self) -> Point {
        self.mv.load(RELAXED)
    }

    pub fn is_expanded(&self) -> bool {
        self.state.load(Ordering::Acquire) == EXPANDED
    }

    /// Refused by superko when tried: never selected again.
    pub fn is_illegal(&self) -> bool {
        self.flags.load(RELAXED) & ILLEGAL != 0
    }

    pub fn mark_illegal(&self) {
        self.flags.fetch_or(ILLEGAL, RELAXED);
    }

    /// Playouts through this node plus the prior's virtual ones (and the
    /// virtual losses of iterations under way).
    pub fn visits(&self) -> u32 {
        self.visits.load(RELAXED)
    }

    /// Playouts through this node, the prior left out (virtual losses of
    /// iterations under way included).
    pub fn playouts(&self) -> u32 {
        self.visits().saturating_sub(self.prior().0)
    }

    /// The prior's virtual playouts and their half wins.
    fn prior(&self) -> (u32, HalfWins) {
        let prior = self.prior.load(RELAXED);
        (prior & 0xffff, prior >> 16)
    }

    /// The winning rate, prior included: what the selection trusts.
    pub fn win_rate(&self) -> f32 {
        rate(self.half_wins.load(RELAXED), self.visits())
    }

    /// The winning rate of the playouts (with the value head's share of
    /// their results, `value_share`), the prior left out: what the search
    /// measured, as a client is shown it (0.5 before any playout).
    pub fn reported_win_rate(&self) -> f32 {
        let half_wins = self.half_wins.load(RELAXED).saturating_sub(self.prior().1);
        rate(half_wins, self.playouts()).min(1.0)
    }

    /// All-moves-as-first playouts and their winning rate (at most 1,
    /// even if a lost update left more wins than visits).
    pub fn amaf(&self) -> (u32, f32) {
        let visits = self.amaf_visits.load(RELAXED);
        (
            visits,
            rate(self.amaf_half_wins.load(RELAXED), visits).min(1.0),
        )
    }

    /// Adds `amount` lost visits while an iteration runs through this node;
    /// returns the amount added, 0 when the counter is full (the node no
    /// longer counts). Pass what it returns to `add_result` or
    /// `remove_virtual_loss`.
    pub fn add_virtual_loss(&self, amount: u32) -> u32 {
        if amount == 0 || self.visits() >= FULL {
            return 0;
        }
        self.visits.fetch_add(amount, RELAXED);
        amount
    }

    /// Takes back a virtual loss of an iteration that ends without a
    /// result (a superko refusal).
    pub fn remove_virtual_loss(&self, amount: u32) {
        if amount > 0 {
            self.visits.fetch_sub(amount, RELAXED);
        }
    }

    /// Counts one playout through this node, replacing the `virtual_loss`
    /// that `add_virtual_loss` added for it. Without one, a full node
    /// counts nothing; with one, the node was not full when it was added.
    pub fn add_result(&self, result: HalfWins, virtual_loss: u32) {
        if virtual_loss > 0 {
            // One real visit stands where `virtual_loss` virtual ones were.
            self.visits.fetch_sub(virtual_loss - 1, RELAXED);
        } else if self.visits() < FULL {
            self.visits.fetch_add(1, RELAXED);
        } else {
            return;
        }
        self.half_wins.fetch_add(result, RELAXED);
    }

    /// Counts one playout in which this move's player played its point
    /// first.
    ///
    /// A load and a store, not an atomic add: a backup updates the AMAF
    /// counts of about half of every path node's children (some 400 a 9x9
    /// playout), and as many locked adds made light playouts 10-15%
    /// slower on one thread. Two threads adding to the same counter at the
    /// same instant may lose one update; an estimate made of thousands of
    /// them does not feel it, and one thread loses nothing.
    pub fn add_amaf_result(&self, result: HalfWins) {
        let visits = self.amaf_visits.load(RELAXED);
        if visits < FULL {
            self.amaf_visits.store(visits + 1, RELAXED);
            let half_wins = self.amaf_half_wins.load(RELAXED);
            self.amaf_half_wins.store(half_wins + result, RELAXED);
        }
    }
}

/// `color`'s winning chance where Black's is `black_chance`, or Black's
/// where `color`'s is: White's is 1 less Black's, so the one mapping goes
/// both ways. A node's statistics are its mover's.
pub fn chance_for(color: Color, black_chance: f32) -> f32 {
    match color {
        Color::Black => black_chance,
        Color::White => 1.0 - black_chance,
    }
}

fn rate(half_wins: u32, visits: u32) -> f32 {
    if visits == 0 {
        0.5
    } else {
        (half_wins as f64 / (2.0 * visits as f64)) as f32
    }
}

/// A candidate move at expansion, with its prior as virtual playouts.
#[derive(Clone, Copy, Debug)]
pub struct Candidate {
    pub mv: Point,
    pub prior_visits: u32,
    pub prior_wins: f32,
}

/// What became of a request to expand a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expansion {
    /// The node has its children (made now, or by another thread before).
    Expanded,
    /// Another thread is making them: this iteration plays out from here.
    Busy,
    /// The tree is full: the node stays a leaf, and the search keeps
    /// answering from what it has.
    Full,
}

/// log2 of the nodes in a chunk: 65,536 nodes, 2 MiB.
const CHUNK_BITS: u32 = 16;
const CHUNK_LEN: usize = 1 << CHUNK_BITS;

/// The search tree that the threads share: owns every node in an arena of
/// chunks, addressed by `NodeId`, never more than `max_nodes` of them (the
/// last chunk is cut to the bound). Node 0 is the root. A node's children
/// have consecutive ids; they may straddle two chunks, since each id finds
/// its own chunk.
pub struct Tree {
    /// Allocated on first use: a tree takes the memory of its nodes, not of
    /// its bound.
    chunks: Box<[OnceLock<Box<[Node]>>]>,
    /// Node ids handed out: the next free one.
    len: AtomicUsize,
    max_nodes: usize,
    /// Each node's judgement (`judgement.rs`), in chunks of the same ids,
    /// allocated with the nodes': the hot loops over children read the
    /// nodes alone.
    judged: Box<[OnceLock<Box<[JudgedSums]>>]>,
}

pub type NodeId = u32;

impl Tree {
    pub const ROOT: NodeId = 0;

    pub fn new(max_nodes: usize) -> Tree {
        // Ids are u32: a larger bound could not be addressed anyway.
        let max_nodes = max_nodes.clamp(2, NodeId::MAX as usize);
        let chunks = max_nodes.div_ceil(CHUNK_LEN);
        let tree = Tree {
            chunks: (0..chunks).map(|_| OnceLock::new()).collect(),
            len: AtomicUsize::new(0),
            max_nodes,
            judged: (0..chunks).map(|_| OnceLock::new()).collect(),
        };
        let root = tree.allocate(1);
        debug_assert_eq!(root, Some(Tree::ROOT));
        tree
    }

    /// The node `id`. Ids come from this tree (the root, `children`,
    /// `child_with_move`), and an id is handed out only once its chunk is
    /// allocated, so the chunk is there.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.chunk((id >> CHUNK_BITS) as usize)[id as usize & (CHUNK_LEN - 1)]
    }

    /// The children of `id` with their ids, read chunk by chunk (one
    /// lookup a chunk instead of one a child, for the loops over every
    /// child that each iteration makes; `for_each` and `fold` on it run
    /// one tight loop a chunk).
    pub fn child_nodes(&self, id: NodeId) -> impl Iterator<Item = (NodeId, &Node)> {
        let range = self.children(id);
        let (start, end) = (range.start as usize, range.end as usize);
        let (first, second): (&[Node], &[Node]) = if start == end {
            (&[], &[])
        } else {
            // A block of children lies in at most two chunks.
            let chunk = start >> CHUNK_BITS;
            let split = end.min((chunk + 1) << CHUNK_BITS);
            let offset = chunk << CHUNK_BITS;
            let first = &self.chunk(chunk)[start - offset..split - offset];
            let second = if split < end {
                &self.chunk(chunk + 1)[..end - split]
            } else {
                &[]
            };
            (first, second)
        };
        let split = range.start + first.len() as NodeId;
        (range.start..split)
            .zip(first)
            .chain((split..range.end).zip(second))
    }

    /// The chunk `index`, which holds nodes handed out.
    fn chunk(&self, index: usize) -> &[Node] {
        self.chunks[index]
            .get()
            .expect("a node id of this tree lies in an allocated chunk")
    }

    /// The judgement of node `id` and of the playouts through it.
    pub fn judged(&self, id: NodeId) -> &JudgedSums {
        let chunk = self.judged[(id >> CHUNK_BITS) as usize]
            .get()
            .expect("a node id of this tree lies in an allocated chunk");
        &chunk[id as usize & (CHUNK_LEN - 1)]
    }

    /// Records the network's judgement of `id`'s position for Black (what
    /// of it there is): once, by the thread that judged it.
    pub fn set_judgement(&self, id: NodeId, black: BlackJudgement) {
        let judged = self.judged(id);
        if let Some(area) = black.area {
            judged.set_area(area);
        }
        if let Some(chance) = black.chance {
            judged.set_chance(chance);
        }
    }

    /// Nodes handed out.
    pub fn len(&self) -> usize {
        self.len.load(RELAXED)
    }

    /// The children of `id`: none until it is expanded.
    pub fn children(&self, id: NodeId) -> std::ops::Range<NodeId> {
        let node = self.node(id);
        if !node.is_expanded() {
            return 0..0;
        }
        // The Acquire load above makes these, written before the Release
        // store of EXPANDED, visible.
        let first = node.first_child.load(RELAXED);
        first..first + node.child_count.load(RELAXED) as u32
    }

    /// `count` consecutive fresh nodes, or None when they do not fit under
    /// the bound. A compare and swap on the counter, so that a failed
    /// request takes nothing (a plain fetch_add would have to be undone,
    /// and another thread could see the counter past the bound meanwhile).
    fn allocate(&self, count: usize) -> Option<NodeId> {
        let start = self
            .len
            .fetch_update(RELAXED, RELAXED, |len| {
                (len + count <= self.max_nodes).then_some(len + count)
            })
            .ok()?;
        if count > 0 {
            let first_chunk = start >> CHUNK_BITS;
            let last_chunk = (start + count - 1) >> CHUNK_BITS;
            for index in first_chunk..=last_chunk {
                let len = CHUNK_LEN.min(self.max_nodes - index * CHUNK_LEN);
                // The judgements first: a node id is handed out once both
                // of its chunks are there.
                self.judged[index]
                    .get_or_init(|| (0..len).map(|_| JudgedSums::default()).collect());
                self.chunks[index].get_or_init(|| (0..len).map(|_| Node::default()).collect());
            }
        }
        Some(start as NodeId)
    }

    /// Gives the leaf `id` its children, the moves `candidates` makes. Of
    /// the threads that ask at once, one wins the right (a compare and swap
    /// on the node's state) and only it calls `candidates`; the others get
    /// `Busy` and play out from the leaf. A full tree makes nothing and
    /// answers `Full` (and the node may be expanded on a later visit, if
    /// room is found then: it never is, as a tree never shrinks).
    pub fn expand(&self, id: NodeId, candidates: impl FnOnce() -> Vec<Candidate>) -> Expansion {
        let node = self.node(id);
        if self.len() >= self.max_nodes {
            // No child fits: not even worth reading the candidates.
            return if node.is_expanded() {
                Expansion::Expanded
            } else {
                Expansion::Full
            };
        }
        match node
            .state
            .compare_exchange(UNEXPANDED, EXPANDING, Ordering::Acquire, RELAXED)
        {
            Ok(_) => {}
            Err(EXPANDED) => return Expansion::Expanded,
            Err(_) => return Expansion::Busy,
        }
        let candidates = candidates();
        let Some(first) = self.allocate(candidates.len()) else {
            node.state.store(UNEXPANDED, Ordering::Release);
            return Expansion::Full;
        };
        for (child, c) in (first..).zip(&candidates) {
            self.node(child).init(c.mv, c.prior_visits, c.prior_wins);
        }
        node.first_child.store(first, RELAXED);
        node.child_count.store(candidates.len() as u16, RELAXED);
        // Publishes the children and the two fields above (see `children`).
        node.state.store(EXPANDED, Ordering::Release);
        Expansion::Expanded
    }

    /// The memory the nodes take: the chunks allocated so far.
    #[cfg(test)]
    pub fn memory_bytes(&self) -> usize {
        let nodes: usize = self
            .chunks
            .iter()
            .filter_map(OnceLock::get)
            .map(|chunk| std::mem::size_of_val(&chunk[..]))
            .sum();
        let judged: usize = self
            .judged
            .iter()
            .filter_map(OnceLock::get)
            .map(|chunk| std::mem::size_of_val(&chunk[..]))
            .sum();
        nodes + judged
    }

    /// The child of `id` that plays `mv`, if the node is expanded.
    pub fn child_with_move(&self, id: NodeId, mv: Point) -> Option<NodeId> {
        self.children(id).find(|&c| self.node(c).mv() == mv)
    }

    /// The principal variation that starts with the root move `first`: at
    /// each node the child with the most playouts, as long as one has any;
    /// each move with the playouts of the node it leads to (the tree is a
    /// tree: the visits of the position after it and of the move are one).
    /// Empty when `first` is not a root child.
    pub fn principal_variation(&self, first: Point, max_len: usize) -> Vec<(Point, u32)> {
        let Some(mut node) = self.child_with_move(Tree::ROOT, first) else {
            return Vec::new();
        };
        let mut line = vec![(first, self.node(node).playouts())];
        while line.len() < max_len {
            let best = self
                .children(node)
                .filter(|&c| !self.node(c).is_illegal() && self.node(c).playouts() > 0)
                .max_by_key(|&c| self.node(c).playouts());
            let Some(child) = best else { break };
            let c = self.node(child);
            line.push((c.mv(), c.playouts()));
            node = child;
        }
        line
    }

    /// A new tree whose root is the subtree at `id`, for reuse after the
    /// game moved on. Nodes are copied breadth first. Called between
    /// searches, with no thread running in this tree.
    pub fn subtree(&self, id: NodeId) -> Tree {
        let tree = Tree::new(self.max_nodes);
        let root = tree.node(Tree::ROOT);
        root.copy_statistics(self.node(id));
        root.mv.store(PASS, RELAXED);
        tree.judged(Tree::ROOT).copy_from(self.judged(id));
        let mut queue = std::collections::VecDeque::from([(id, Tree::ROOT)]);
        while let Some((old, new)) = queue.pop_front() {
            let children = self.children(old);
            if children.is_empty() {
                continue;
            }
            // The subtree has fewer nodes than this tree, which fits the
            // same bound: there is always room.
            let Some(first) = tree.allocate(children.len()) else {
                break;
            };
            for (child, copy) in children.clone().zip(first..) {
                tree.node(copy).copy_statistics(self.node(child));
                tree.judged(copy).copy_from(self.judged(child));
                queue.push_back((child, copy));
            }
            let node = tree.node(new);
            node.first_child.store(first, RELAXED);
            node.child_count.store(children.len() as u16, RELAXED);
            node.state.store(EXPANDED, Ordering::Release);
        }
        tree
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn candidates(moves: &[Point]) -> Vec<Candidate> {
        moves
            .iter()
            .map(|&mv| Candidate {
                mv,
                prior_visits: 1,
                prior_wins: 0.5,
            })
            .collect()
    }

    fn expand(tree: &Tree, id: NodeId, moves: &[Point]) -> Expansion {
        tree.expand(id, || candidates(moves))
    }

    fn node(mv: Point) -> Node {
        let node = Node::default();
        node.init(mv, 0, 0.0);
        node
    }

    #[test]
    fn expansion_respects_the_node_bound() {
        let tree = Tree::new(4);
        assert_eq!(
            expand(&tree, Tree::ROOT, &[10, 11, 12]),
            Expansion::Expanded
        );
        assert_eq!(tree.len(), 4);
        assert_eq!(expand(&tree, 1, &[20]), Expansion::Full);
        assert!(!tree.node(1).is_expanded());
        assert!(tree.memory_bytes() <= 4 * NODE_BYTES);
    }

    #[test]
    fn a_refused_expansion_leaves_the_node_expandable() {
        // Room for the root, two children and one more node: a child's
        // three candidates do not fit, its one candidate does.
        let tree = Tree::new(4);
        expand(&tree, Tree::ROOT, &[10, 11]);
        assert_eq!(expand(&tree, 1, &[20, 21, 22]), Expansion::Full);
        assert_eq!(tree.len(), 3);
        assert_eq!(expand(&tree, 1, &[20]), Expansion::Expanded);
        assert_eq!(tree.children(1).len(), 1);
    }

    #[test]
    fn an_expanded_node_is_not_expanded_again() {
        let tree = Tree::new(100);
        expand(&tree, Tree::ROOT, &[10, 11]);
        let asked = std::cell::Cell::new(false);
        let again = tree.expand(Tree::ROOT, || {
            asked.set(true);
            candidates(&[12])
        });
        assert_eq!(again, Expansion::Expanded);
        assert!(!asked.get(), "the candidates were read again");
        assert_eq!(tree.children(Tree::ROOT).len(), 2);
    }

    #[test]
    fn memory_follows_the_nodes_used_not_the_bound() {
        let tree = Tree::new(4_000_000);
        expand(&tree, Tree::ROOT, &(1..=361).collect::<Vec<_>>());
        assert_eq!(tree.memory_bytes(), CHUNK_LEN * NODE_BYTES);
    }

    #[test]
    fn allocated_memory_stays_within_the_bound() {
        let max = 100_000;
        let tree = Tree::new(max);
        let moves: Vec<Point> = (1..=361).collect();
        let mut leaf = Tree::ROOT;
        while expand(&tree, leaf, &moves) == Expansion::Expanded {
            leaf = tree.children(leaf).start;
        }
        assert!(tree.len() > max - 361, "{}", tree.len());
        assert!(tree.memory_bytes() <= max * NODE_BYTES);
        // Children straddling two chunks are still found.
        let straddling = (1..tree.len() as NodeId)
            .find(|&id| {
                let c = tree.children(id);
                !c.is_empty() && (c.start >> CHUNK_BITS) != ((c.end - 1) >> CHUNK_BITS)
            })
            .expect("a block of children across a chunk's end");
        let moves_back: Vec<Point> = tree
            .children(straddling)
            .map(|c| tree.node(c).mv())
            .collect();
        assert_eq!(moves_back, moves);
        let read_by_chunks: Vec<(NodeId, Point)> = tree
            .child_nodes(straddling)
            .map(|(id, node)| (id, node.mv()))
            .collect();
        let read_one_by_one: Vec<(NodeId, Point)> = tree
            .children(straddling)
            .map(|id| (id, tree.node(id).mv()))
            .collect();
        assert_eq!(read_by_chunks, read_one_by_one);
    }

    #[test]
    fn win_rates_stay_exact_past_two_to_the_twenty_four_playouts() {
        // An f32 count of wins stops growing at 2^24: a node winning every
        // playout would drift below 100%.
        let node = node(10);
        for _ in 0..(1u32 << 24) + 1000 {
            node.add_result(2, 0);
        }
        assert_eq!(node.win_rate(), 1.0);
        for _ in 0..1000 {
            node.add_result(0, 0);
        }
        let expected = ((1u64 << 24) + 1000) as f64 / ((1u64 << 24) + 2000) as f64;
        assert!(
            (node.win_rate() as f64 - expected).abs() < 1e-7,
            "{}",
            node.win_rate()
        );
    }

    #[test]
    fn a_full_counter_stops_counting_and_keeps_its_rate() {
        let node = node(10);
        node.visits.store(FULL, RELAXED);
        node.half_wins.store(FULL, RELAXED);
        let before = node.win_rate();
        node.add_result(2, 0);
        let loss = node.add_virtual_loss(3);
        assert_eq!(loss, 0, "no virtual loss on a full node");
        node.add_result(2, loss);
        assert_eq!(node.visits(), FULL);
        assert_eq!(node.win_rate(), before);
    }

    #[test]
    fn the_playouts_win_rate_leaves_the_prior_out() {
        let node = Node::default();
        // A prior of 10 virtual playouts, 7 of them won.
        node.init(10, 10, 7.0);
        assert_eq!((node.playouts(), node.reported_win_rate()), (0, 0.5));
        for _ in 0..30 {
            node.add_result(0, 0);
        }
        // Thirty lost playouts: 7 wins in 40 with the prior, none without.
        assert_eq!(node.win_rate(), 7.0 / 40.0);
        assert_eq!((node.playouts(), node.reported_win_rate()), (30, 0.0));
        node.add_result(2, 0);
        node.add_result(1, 0);
        assert_eq!(node.reported_win_rate(), 1.5 / 32.0);
    }

    #[test]
    fn a_virtual_loss_lowers_the_rate_until_the_result_replaces_it() {
        let node = node(10);
        node.add_result(2, 0);
        node.add_result(2, 0);
        assert_eq!(node.win_rate(), 1.0);
        let loss = node.add_virtual_loss(2);
        assert_eq!(node.visits(), 4);
        assert_eq!(node.win_rate(), 0.5);
        node.add_result(2, loss);
        assert_eq!((node.visits(), node.win_rate()), (3, 1.0));
        let loss = node.add_virtual_loss(2);
        node.remove_virtual_loss(loss);
        assert_eq!((node.visits(), node.win_rate()), (3, 1.0));
    }

    #[test]
    fn subtree_keeps_statistics_and_shape() {
        let tree = Tree::new(100);
        expand(&tree, Tree::ROOT, &[10, 11]);
        let child = tree.child_with_move(Tree::ROOT, 11).expect("child");
        for _ in 0..6 {
            tree.node(child).add_result(2, 0);
        }
        expand(&tree, child, &[20, 21, 22]);
        let grandchild = tree.child_with_move(child, 21).expect("grandchild");
        tree.node(grandchild).add_result(2, 0);
        tree.node(tree.child_with_move(child, 22).expect("22"))
            .mark_illegal();
        expand(&tree, grandchild, &[30]);

        let sub = tree.subtree(child);
        assert_eq!(sub.len(), 5);
        assert_eq!(sub.node(Tree::ROOT).visits(), 7);
        assert_eq!(sub.node(Tree::ROOT).mv(), PASS);
        let g = sub.child_with_move(Tree::ROOT, 21).expect("copied");
        assert_eq!(sub.node(g).visits(), 2);
        assert_eq!(sub.node(g).win_rate(), 0.75);
        assert_eq!(sub.children(g).len(), 1);
        assert_eq!(sub.node(sub.children(g).start).mv(), 30);
        let illegal = sub.child_with_move(Tree::ROOT, 22).expect("copied");
        assert!(sub.node(illegal).is_illegal());
    }

    /// Every expanded node's children: ids handed out, within the tree,
    /// each node the child of one parent only, with the moves it was given.
    fn check_shape(tree: &Tree, moves: &[Point]) {
        let mut parent_of = vec![None; tree.len()];
        for id in 0..tree.len() as NodeId {
            let children = tree.children(id);
            if children.is_empty() {
                continue;
            }
            assert!(children.end as usize <= tree.len());
            let got: Vec<Point> = children.clone().map(|c| tree.node(c).mv()).collect();
            assert_eq!(got, moves, "children of {id}");
            for c in children {
                assert_eq!(parent_of[c as usize], None, "{c} has two parents");
                parent_of[c as usize] = Some(id);
            }
        }
        // Every node but the root has a parent: none was lost to a race.
        assert!(parent_of.iter().skip(1).all(Option::is_some));
    }

    #[test]
    fn threads_growing_one_tree_count_every_result_once() {
        // Four threads descend at random through the same tree, expanding
        // every leaf they reach, with virtual losses: every node's visits
        // must come out as exactly the playouts through it.
        const THREADS: u32 = 4;
        const ITERATIONS: u32 = 20_000;
        let moves: Vec<Point> = (1..=6).collect();
        let tree = Tree::new(30_000);
        std::thread::scope(|scope| {
            for t in 0..THREADS {
                let (tree, moves) = (&tree, &moves);
                scope.spawn(move || {
                    let mut rng = crate::player::rng::FastRng::new(t as u64 + 1);
                    for _ in 0..ITERATIONS {
                        let mut path = vec![(Tree::ROOT, 0)];
                        let mut node = Tree::ROOT;
                        loop {
                            if tree.expand(node, || candidates(moves)) != Expansion::Expanded {
                                break;
                            }
                            let children = tree.children(node);
                            let pick = rng.below(children.len()) as NodeId;
                            node = children.start + pick;
                            let loss = tree.node(node).add_virtual_loss(3);
                            path.push((node, loss));
                        }
                        for (id, loss) in path {
                            tree.node(id).add_result(2, loss);
                            for child in tree.children(id) {
                                tree.node(child).add_amaf_result(1);
                            }
                        }
                    }
                });
            }
        });
        assert!(tree.len() <= 30_000);
        assert!(tree.len() > 30_000 - moves.len(), "the tree filled");
        check_shape(&tree, &moves);
        let root = tree.node(Tree::ROOT);
        assert_eq!(root.visits(), THREADS * ITERATIONS);
        assert_eq!(root.win_rate(), 1.0);
        for id in 0..tree.len() as NodeId {
            let n = tree.node(id);
            // Playouts through a node: those through its children, plus
            // those that ended at it (as a leaf, or Busy / Full there).
            let through_children: u32 = tree.children(id).map(|c| tree.node(c).playouts()).sum();
            assert!(n.playouts() >= through_children, "node {id}");
            // No virtual loss is left, and every result was a win (2): the
            // half wins are twice the visits less the prior's (1 visit,
            // 1 half win).
            let prior = if id == Tree::ROOT { 0 } else { 1 };
            assert_eq!(
                n.half_wins.load(RELAXED) - prior,
                2 * n.playouts(),
                "node {id}"
            );
            // The parent's playouts since the expansion reached every
            // child's AMAF count (at most once: two threads adding at
            // once may lose one).
            for (_, child) in tree.child_nodes(id) {
                assert!(child.amaf().0 <= n.playouts());
            }
        }
    }

    #[test]
    fn a_reused_tree_keeps_its_nodes_judgements() {
        let tree = Tree::new(1000);
        expand(&tree, Tree::ROOT, &[10, 11]);
        let a = tree.children(Tree::ROOT).start;
        let judged = BlackJudgement {
            area: Some(7.5),
            chance: Some(0.25),
        };
        tree.set_judgement(a, judged);
        super::super::judgement::back_up([tree.judged(Tree::ROOT), tree.judged(a)].into_iter());
        let kept = tree.subtree(a);
        assert_eq!(kept.judged(Tree::ROOT).own(), judged);
        assert_eq!(kept.judged(Tree::ROOT).mean(), judged);
        // The old root's judgement is not the new one's.
        assert_eq!(tree.judged(Tree::ROOT).own(), BlackJudgement::default());
    }
}
