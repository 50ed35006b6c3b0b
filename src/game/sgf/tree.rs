//! The whole game tree of a file with every property it holds, for a tool
//! that writes the file back with its own additions (`hane analyze`): the
//! game's comments, names, markup and variations survive, which the
//! main-line reader ([`super::read::parse`]) drops on purpose.
//!
//! The nodes live in one arena and are walked with loops, never by
//! recursion, for the reason the module header gives: a deep tree must not
//! overflow the stack. Values are kept as the file's bytes (escapes
//! resolved), so text in any charset is written back as it was read.

use std::borrow::Cow;
use std::ops::Range;

use super::read::read_main_line_node;
use super::syntax::{walk_tree, Event, Keep, Property};
use super::types::{SgfError, SgfGame, MAX_SETUP_POINTS, MAX_TREE_NODES};
use super::write::point;
use crate::game::color::Color;
use crate::game::vertex::{BoardSize, Move};

/// A node of an [`SgfTree`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeId(usize);

/// One game tree, every node and property kept. The first child of a node
/// is its main line; variations follow in file order.
#[derive(Debug)]
pub struct SgfTree<'a> {
    nodes: Vec<TreeNode<'a>>,
}

#[derive(Debug, Default)]
struct TreeNode<'a> {
    properties: Vec<Property<'a>>,
    children: Vec<NodeId>,
}

/// The main line as the game reader sees it, with the node each action
/// comes from.
#[derive(Debug)]
pub struct MainLine {
    /// What [`super::read::parse`] reads from the same text.
    pub game: SgfGame,
    /// Every node of the main line, root first, with the range of
    /// `game.actions` it holds (empty for a node without moves or setup).
    pub nodes: Vec<(NodeId, Range<usize>)>,
}

impl<'a> SgfTree<'a> {
    /// Reads the first game tree of `text`, borrowing its values.
    pub fn parse(text: &'a [u8]) -> Result<SgfTree<'a>, SgfError> {
        let mut nodes: Vec<TreeNode<'a>> = Vec::new();
        // The node the next one follows, and where each open variation
        // started from.
        let mut current: Option<NodeId> = None;
        let mut branch_points: Vec<Option<NodeId>> = Vec::new();
        walk_tree(text, Keep::All, |event| {
            match event {
                Event::Node(properties) => {
                    if nodes.len() == MAX_TREE_NODES {
                        return Err(SgfError::TreeTooLarge);
                    }
                    let id = NodeId(nodes.len());
                    nodes.push(TreeNode {
                        properties,
                        children: Vec::new(),
                    });
                    if let Some(parent) = current {
                        nodes[parent.0].children.push(id);
                    }
                    current = Some(id);
                }
                Event::VariationStart => branch_points.push(current),
                Event::VariationEnd => current = branch_points.pop().flatten(),
            }
            Ok(())
        })?;
        // The grammar makes every game tree start with a node.
        if nodes.is_empty() {
            return Err(SgfError::NoGameTree);
        }
        Ok(SgfTree { nodes })
    }

    pub fn root(&self) -> NodeId {
        NodeId(0)
    }

    /// The node's main line first, then its variations.
    pub fn children(&self, node: NodeId) -> &[NodeId] {
        &self.nodes[node.0].children
    }

    /// The first value of the node's property `ident`, as the file's bytes.
    pub fn property(&self, node: NodeId, ident: &str) -> Option<&[u8]> {
        self.nodes[node.0]
            .properties
            .iter()
            .find(|p| *p.ident == *ident.as_bytes())
            .and_then(|p| p.values.first())
            .map(|value| &**value)
    }

    /// Reads the main line (the first child at every node) as the game
    /// reader does, with the same bounds.
    pub fn main_line(&self) -> Result<MainLine, SgfError> {
        let mut game = SgfGame::default();
        let mut setup_points_left = MAX_SETUP_POINTS;
        let mut nodes = Vec::new();
        let mut node = Some(self.root());
        while let Some(id) = node {
            let start = game.actions.len();
            let properties = &self.nodes[id.0].properties;
            read_main_line_node(
                &mut game,
                properties,
                id == self.root(),
                &mut setup_points_left,
            )?;
            nodes.push((id, start..game.actions.len()));
            node = self.children(id).first().copied();
        }
        Ok(MainLine { game, nodes })
    }

    /// Moves a move stored in the root (`(;SZ[19]B[pd];W[dp])`, which the
    /// SGF spec allows) into a node of its own between the root and its
    /// children, with the properties that annotate a move (SGF FF[4]'s
    /// move properties: BM, DO, IT, TE, KO, MN, and the times BL, WL, OB,
    /// OW). The root keeps the game's information and setup, so the
    /// position before the move has a node: a review judges the move
    /// there and can put its alternative beside it as a variation. The
    /// node made, or None when the root holds no move.
    pub fn split_root_move(&mut self) -> Option<NodeId> {
        const MOVE_PROPERTIES: [&[u8]; 12] = [
            b"B", b"W", b"BM", b"DO", b"IT", b"TE", b"KO", b"MN", b"BL", b"WL", b"OB", b"OW",
        ];
        let root = self.root();
        let properties = &mut self.nodes[root.0].properties;
        if !properties.iter().any(|p| matches!(&*p.ident, b"B" | b"W")) {
            return None;
        }
        let (moved, kept): (Vec<_>, Vec<_>) = std::mem::take(properties)
            .into_iter()
            .partition(|p| MOVE_PROPERTIES.contains(&&*p.ident));
        *properties = kept;
        let children = std::mem::take(&mut self.nodes[root.0].children);
        let id = NodeId(self.nodes.len());
        self.nodes.push(TreeNode {
            properties: moved,
            children,
        });
        self.nodes[root.0].children.push(id);
        Some(id)
    }

    /// Sets the node's property `ident` to the one `value`, in place of any
    /// it had.
    pub fn set_property(&mut self, node: NodeId, ident: &str, value: &str) {
        let properties = &mut self.nodes[node.0].properties;
        let new = Property {
            ident: Cow::Owned(ident.as_bytes().to_vec()),
            values: vec![Cow::Owned(value.as_bytes().to_vec())],
        };
        let first = properties
            .iter()
            .position(|p| *p.ident == *ident.as_bytes());
        properties.retain(|p| *p.ident != *ident.as_bytes());
        // Where the first one stood: nothing before it was removed.
        properties.insert(first.unwrap_or(properties.len()), new);
    }

    /// Adds `text` to the node's comment, after a blank line when it has
    /// one already, so that the game's own comment stays first.
    pub fn append_comment(&mut self, node: NodeId, text: &str) {
        let properties = &mut self.nodes[node.0].properties;
        let existing = properties
            .iter_mut()
            .find(|p| *p.ident == *b"C")
            .and_then(|p| p.values.first_mut())
            .filter(|value| !value.is_empty());
        match existing {
            Some(value) => {
                let value = value.to_mut();
                value.extend_from_slice(b"\n\n");
                value.extend_from_slice(text.as_bytes());
            }
            None => {
                properties.retain(|p| *p.ident != *b"C");
                properties.push(Property {
                    ident: Cow::Borrowed(b"C"),
                    values: vec![Cow::Owned(text.as_bytes().to_vec())],
                });
            }
        }
    }

    /// Adds a variation of `moves` from `parent`, after the variations it
    /// has, and returns its first node (None for no moves).
    pub fn add_variation(
        &mut self,
        parent: NodeId,
        moves: &[(Color, Move)],
        size: BoardSize,
    ) -> Option<NodeId> {
        let mut previous = parent;
        for (color, a_move) in moves {
            let mut value = String::new();
            if let Move::Play(vertex) = a_move {
                point(&mut value, size, *vertex);
            }
            let id = NodeId(self.nodes.len());
            self.nodes.push(TreeNode {
                properties: vec![Property {
                    ident: Cow::Owned(color.letter().to_string().into_bytes()),
                    values: vec![Cow::Owned(value.into_bytes())],
                }],
                children: Vec::new(),
            });
            self.nodes[previous.0].children.push(id);
            previous = id;
        }
        self.children(parent)
            .last()
            .copied()
            .filter(|_| !moves.is_empty())
    }

    /// The tree as SGF text: a node a line, variations in parentheses.
    pub fn write(&self) -> Vec<u8> {
        enum Step {
            Open,
            Node(NodeId),
            Close,
        }
        let mut out = b"(".to_vec();
        let mut steps = vec![Step::Node(self.root())];
        while let Some(step) = steps.pop() {
            match step {
                Step::Open => out.push(b'('),
                Step::Close => out.push(b')'),
                Step::Node(id) => {
                    self.write_node(&mut out, id);
                    match self.children(id) {
                        [only] => steps.push(Step::Node(*only)),
                        children => {
                            for child in children.iter().rev() {
                                steps.extend([Step::Close, Step::Node(*child), Step::Open]);
                            }
                        }
                    }
                }
            }
        }
        out.extend_from_slice(b")\n");
        out
    }

    fn write_node(&self, out: &mut Vec<u8>, node: NodeId) {
        out.push(b';');
        for property in &self.nodes[node.0].properties {
            out.extend_from_slice(&property.ident);
            for value in &property.values {
                out.push(b'[');
                for &byte in value.iter() {
                    if matches!(byte, b']' | b'\\') {
                        out.push(b'\\');
                    }
                    out.push(byte);
                }
                out.push(b']');
            }
        }
        out.push(b'\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::sgf::parse;
    use crate::game::vertex::Vertex;

    const GAME: &[u8] = b"(;FF[4]GM[1]SZ[9]KM[7]PB[Ann]C[Opening \\] note]\
        AB[cc]AW[gg];B[ee]C[first]LB[dd:x\\:y](;W[dc];B[])(;W[cd]N[other]));";

    fn vertex(gtp: &str) -> Move {
        Move::Play(Vertex::parse_gtp(gtp).expect("vertex"))
    }

    #[test]
    fn written_back_the_tree_keeps_every_property_and_variation() {
        let tree = SgfTree::parse(GAME).unwrap();
        let text = tree.write();
        let again = SgfTree::parse(&text).unwrap();
        assert_eq!(again.write(), text, "writing is stable");
        let root = again.root();
        assert_eq!(again.property(root, "PB"), Some(&b"Ann"[..]));
        assert_eq!(again.property(root, "C"), Some(&b"Opening ] note"[..]));
        let first = again.children(root)[0];
        assert_eq!(again.property(first, "LB"), Some(&b"dd:x:y"[..]));
        let branches = again.children(first);
        assert_eq!(branches.len(), 2);
        assert_eq!(again.property(branches[0], "W"), Some(&b"dc"[..]));
        assert_eq!(again.property(branches[1], "N"), Some(&b"other"[..]));
        assert_eq!(again.children(again.children(branches[0])[0]), &[]);
    }

    #[test]
    fn the_main_line_is_what_the_game_reader_reads() {
        let tree = SgfTree::parse(GAME).unwrap();
        let main_line = tree.main_line().unwrap();
        assert_eq!(main_line.game, parse(GAME).unwrap());
        let ranges: Vec<Range<usize>> = main_line.nodes.iter().map(|(_, r)| r.clone()).collect();
        // Root: one setup; then B E5, W D7, B pass.
        assert_eq!(ranges, vec![0..1, 1..2, 2..3, 3..4]);
    }

    #[test]
    fn additions_keep_the_game_comment_first_and_replace_a_value() {
        let mut tree = SgfTree::parse(GAME).unwrap();
        let first = tree.children(tree.root())[0];
        tree.append_comment(first, "hane: D5");
        tree.set_property(first, "SBKV", "55.5");
        tree.set_property(first, "SBKV", "60");
        let root = tree.root();
        tree.append_comment(tree.children(first)[1], "new");
        let added = tree.add_variation(
            root,
            &[(Color::Black, vertex("D5")), (Color::White, Move::Pass)],
            BoardSize::square(9),
        );
        let text = String::from_utf8(tree.write()).unwrap();
        assert!(
            text.contains(";B[ee]C[first\n\nhane: D5]LB[dd:x:y]SBKV[60]\n"),
            "{text}"
        );
        assert!(text.contains(";W[cd]N[other]C[new]\n"), "{text}");
        assert!(text.ends_with(")(;B[de]\n;W[]\n))\n"), "{text}");
        assert_eq!(added, tree.children(root).last().copied());
        assert_eq!(tree.children(root).len(), 2, "the game's move stays first");
        assert_eq!(parse(text.as_bytes()).unwrap(), parse(GAME).unwrap());
    }

    #[test]
    fn a_move_in_the_root_gets_a_node_of_its_own_and_the_game_is_unchanged() {
        let text = b"(;FF[4]SZ[9]KM[7]C[game]AB[cc]B[ee]BL[30]TE[1];W[dc]C[second])";
        let mut tree = SgfTree::parse(text).unwrap();
        let node = tree.split_root_move().expect("the root holds a move");
        assert_eq!(tree.children(tree.root()), &[node]);
        let written = String::from_utf8(tree.write()).unwrap();
        assert_eq!(
            written,
            "(;FF[4]SZ[9]KM[7]C[game]AB[cc]\n;B[ee]BL[30]TE[1]\n;W[dc]C[second]\n)\n"
        );
        assert_eq!(parse(written.as_bytes()).unwrap(), parse(text).unwrap());
        let main_line = tree.main_line().unwrap();
        assert_eq!(main_line.nodes.len(), 3);
        assert_eq!(main_line.nodes[0].1, 0..1, "the root: its setup alone");
        assert_eq!(tree.split_root_move(), None, "no move is left in the root");
        let plain = SgfTree::parse(GAME).unwrap().split_root_move();
        assert_eq!(plain, None, "a root of setup alone is left as it is");
    }

    #[test]
    fn deep_trees_are_read_and_written_without_recursion() {
        let depth = 200_000;
        let mut text = b"(;SZ[9]".to_vec();
        for _ in 0..depth {
            text.extend_from_slice(b"(;C[x]");
        }
        text.extend(std::iter::repeat_n(b')', depth + 1));
        let tree = SgfTree::parse(&text).unwrap();
        let written = tree.write();
        assert_eq!(
            SgfTree::parse(&written)
                .unwrap()
                .main_line()
                .unwrap()
                .nodes
                .len(),
            depth + 1
        );
    }

    #[test]
    fn too_many_nodes_is_an_error_not_an_allocation() {
        let mut text = b"(".to_vec();
        text.extend(std::iter::repeat_n(b';', MAX_TREE_NODES + 1));
        text.push(b')');
        assert_eq!(SgfTree::parse(&text).unwrap_err(), SgfError::TreeTooLarge);
    }
}
