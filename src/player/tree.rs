//! The search tree: nodes in one arena, children stored side by side, a
//! bound on the number of nodes. Pass is a child like any move.

use super::playout_board::Point;

/// The move of a node that stands for a pass. Point 0 is a border point of
/// the padded board, never a move.
pub const PASS: Point = 0;

/// A node's statistics are from the point of view of the player who made
/// its move: `win_rate` is that player's winning rate.
///
/// Wins are counted in halves (a playout scored exactly even is half a
/// win) as integers: exact up to 2^31 playouts through a node, where an f32
/// stops counting at 2^24 (17 million, reached by long analyses and
/// pondering). Once a counter is full the node stops counting, so its rate
/// stays what it was.
#[derive(Clone, Copy, Debug, Default)]
pub struct Node {
    pub mv: Point,
    /// Playouts through this node plus the virtual ones of its prior.
    visits: u32,
    /// The virtual playouts of the prior, included in `visits`.
    prior_visits: u32,
    /// Twice the wins, prior included.
    half_wins: u32,
    /// All-moves-as-first statistics: playouts through the parent in which
    /// this move's player played this point first.
    amaf_visits: u32,
    amaf_half_wins: u32,
    first_child: u32,
    child_count: u16,
    expanded: bool,
    /// Refused by superko when tried: never selected again.
    pub illegal: bool,
}

/// A playout's result for one player, in half wins: 0 lost, 1 even, 2 won.
pub type HalfWins = u32;

impl Node {
    fn new(mv: Point, prior_visits: u32, prior_wins: f32) -> Node {
        Node {
            mv,
            visits: prior_visits,
            prior_visits,
            half_wins: (2.0 * prior_wins)
                .round()
                .clamp(0.0, 2.0 * prior_visits as f32) as u32,
            ..Node::default()
        }
    }

    pub fn is_expanded(&self) -> bool {
        self.expanded
    }

    /// Playouts through this node plus the prior's virtual ones.
    pub fn visits(&self) -> u32 {
        self.visits
    }

    /// Real playouts through this node, the prior left out.
    pub fn playouts(&self) -> u32 {
        self.visits - self.prior_visits
    }

    /// The winning rate, prior included.
    pub fn win_rate(&self) -> f32 {
        rate(self.half_wins, self.visits)
    }

    /// All-moves-as-first playouts and their winning rate.
    pub fn amaf(&self) -> (u32, f32) {
        (
            self.amaf_visits,
            rate(self.amaf_half_wins, self.amaf_visits),
        )
    }

    /// Counts one playout through this node.
    pub fn add_result(&mut self, result: HalfWins) {
        if self.visits < u32::MAX / 2 {
            self.visits += 1;
            self.half_wins += result;
        }
    }

    /// Counts one playout in which this move's player played its point
    /// first.
    pub fn add_amaf_result(&mut self, result: HalfWins) {
        if self.amaf_visits < u32::MAX / 2 {
            self.amaf_visits += 1;
            self.amaf_half_wins += result;
        }
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

/// The search tree of one thread: owns every node in one arena (`Vec`,
/// children side by side, addressed by `NodeId`), never more than
/// `max_nodes` of them. Node 0 is the root.
pub struct Tree {
    nodes: Vec<Node>,
    max_nodes: usize,
}

pub type NodeId = u32;

impl Tree {
    pub const ROOT: NodeId = 0;

    pub fn new(max_nodes: usize) -> Tree {
        let mut nodes = Vec::with_capacity(max_nodes.min(1 << 16));
        nodes.push(Node::new(PASS, 0, 0.0));
        Tree {
            nodes,
            max_nodes: max_nodes.max(2),
        }
    }

    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id as usize]
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn children(&self, id: NodeId) -> std::ops::Range<NodeId> {
        let node = &self.nodes[id as usize];
        node.first_child..node.first_child + node.child_count as u32
    }

    /// Whether `count` more nodes fit under the bound.
    pub fn has_room(&self, count: usize) -> bool {
        self.nodes.len() + count <= self.max_nodes
    }

    /// Gives a leaf its children. Returns false, changing nothing, when the
    /// tree is full: the search then keeps answering from what it has.
    pub fn expand(&mut self, id: NodeId, candidates: &[Candidate]) -> bool {
        if self.nodes[id as usize].expanded || !self.has_room(candidates.len()) {
            return false;
        }
        self.reserve_within_bound(candidates.len());
        let first = self.nodes.len() as u32;
        self.nodes.extend(
            candidates
                .iter()
                .map(|c| Node::new(c.mv, c.prior_visits, c.prior_wins)),
        );
        let node = &mut self.nodes[id as usize];
        node.first_child = first;
        node.child_count = candidates.len() as u16;
        node.expanded = true;
        true
    }

    /// Makes room for `count` more nodes, doubling as a Vec does but never
    /// past the bound: with plain doubling a tree of 4.2 M nodes would hold
    /// room for 8.4 M.
    fn reserve_within_bound(&mut self, count: usize) {
        let needed = self.nodes.len() + count;
        if needed <= self.nodes.capacity() {
            return;
        }
        let target = (self.nodes.capacity() * 2).min(self.max_nodes).max(needed);
        self.nodes.reserve_exact(target - self.nodes.len());
    }

    /// The memory the nodes take, room reserved for more included.
    #[cfg(test)]
    pub fn memory_bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>()
    }

    /// The child of `id` that plays `mv`, if the node is expanded.
    pub fn child_with_move(&self, id: NodeId, mv: Point) -> Option<NodeId> {
        self.children(id).find(|&c| self.nodes[c as usize].mv == mv)
    }

    /// A new tree whose root is the subtree at `id`, for reuse after the
    /// game moved on. Nodes are copied breadth first.
    pub fn subtree(&self, id: NodeId) -> Tree {
        let mut tree = Tree {
            nodes: Vec::with_capacity(self.nodes.len().min(1 << 20)),
            max_nodes: self.max_nodes,
        };
        let mut root = self.nodes[id as usize];
        root.mv = PASS;
        tree.nodes.push(root);
        let mut queue = std::collections::VecDeque::from([(id, 0u32)]);
        while let Some((old, new)) = queue.pop_front() {
            let old_node = self.nodes[old as usize];
            if !old_node.expanded {
                tree.nodes[new as usize].expanded = false;
                tree.nodes[new as usize].child_count = 0;
                continue;
            }
            let first = tree.nodes.len() as u32;
            for child in self.children(old) {
                tree.nodes.push(self.nodes[child as usize]);
                queue.push_back((child, first + (child - old_node.first_child)));
            }
            let node = &mut tree.nodes[new as usize];
            node.first_child = first;
            node.child_count = old_node.child_count;
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

    #[test]
    fn expansion_respects_the_node_bound() {
        let mut tree = Tree::new(4);
        assert!(tree.expand(Tree::ROOT, &candidates(&[10, 11, 12])));
        assert_eq!(tree.len(), 4);
        assert!(!tree.expand(1, &candidates(&[20])));
        assert!(!tree.node(1).is_expanded());
    }

    #[test]
    fn reserved_room_stays_within_the_bound() {
        let max = 100_000;
        let mut tree = Tree::new(max);
        let moves: Vec<Point> = (1..=361).collect();
        let mut leaf = Tree::ROOT;
        while tree.expand(leaf, &candidates(&moves)) {
            leaf = tree.children(leaf).start;
        }
        assert!(tree.len() > max - 361, "{}", tree.len());
        assert!(tree.memory_bytes() <= max * std::mem::size_of::<Node>());
    }

    #[test]
    fn win_rates_stay_exact_past_two_to_the_twenty_four_playouts() {
        // An f32 count of wins stops growing at 2^24: a node winning every
        // playout would drift below 100%.
        let mut node = Node::new(10, 0, 0.0);
        for _ in 0..(1u32 << 24) + 1000 {
            node.add_result(2);
        }
        assert_eq!(node.win_rate(), 1.0);
        for _ in 0..1000 {
            node.add_result(0);
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
        let mut node = Node::new(10, 0, 0.0);
        node.visits = u32::MAX / 2;
        node.half_wins = u32::MAX / 2;
        let before = node.win_rate();
        node.add_result(2);
        node.add_result(2);
        assert_eq!(node.visits(), u32::MAX / 2);
        assert_eq!(node.win_rate(), before);
    }

    #[test]
    fn subtree_keeps_statistics_and_shape() {
        let mut tree = Tree::new(100);
        tree.expand(Tree::ROOT, &candidates(&[10, 11]));
        let child = tree.child_with_move(Tree::ROOT, 11).unwrap();
        for _ in 0..6 {
            tree.node_mut(child).add_result(2);
        }
        tree.expand(child, &candidates(&[20, 21, 22]));
        let grandchild = tree.child_with_move(child, 21).unwrap();
        tree.node_mut(grandchild).add_result(2);
        tree.expand(grandchild, &candidates(&[30]));

        let sub = tree.subtree(child);
        assert_eq!(sub.len(), 5);
        assert_eq!(sub.node(Tree::ROOT).visits(), 7);
        let g = sub.child_with_move(Tree::ROOT, 21).unwrap();
        assert_eq!(sub.node(g).visits(), 2);
        assert_eq!(sub.node(g).win_rate(), 0.75);
        assert_eq!(sub.children(g).len(), 1);
        assert_eq!(sub.node(sub.children(g).start).mv, 30);
    }
}
