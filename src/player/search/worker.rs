//! One search thread's own state (`Worker`): its random stream, tactical
//! readers, last good replies, the buffers an iteration works in, and the
//! sums the report adds over the threads. The search (`search.rs`) uses it;
//! the tree stays shared.

use super::margins::Margins;
use super::tree::NodeId;
use crate::game::{Color, Vertex};
use crate::player::board::{PlayoutBoard, Point, TacticalReader, DEEP_BUDGET, PLAYOUT_BUDGET};
use crate::player::network::Scratch;
use crate::player::playout::Replies;
use crate::player::rng::FastRng;

/// One search thread's own state: its random stream, tactical readers and
/// last good replies, and the statistics the player sums over the threads
/// after a run (ownership, margins, playouts). Made afresh for every
/// search (`Worker::new`).
pub struct Worker {
    pub(super) rng: FastRng,
    /// The playouts' tactical reader (short reading).
    pub(super) reader: TacticalReader,
    /// The playouts' last good replies.
    pub(super) replies: Replies,
    /// What an iteration works in, kept from one to the next; None only
    /// while an iteration has it.
    pub(super) buffers: Option<IterationBuffers>,
    /// The priors' tactical reader (ladders read across the board).
    pub(super) deep_reader: TacticalReader,
    /// The network's buffers.
    pub(super) scratch: Scratch,
    /// Per point, the sum over playouts of +1 (Black owns it) / -1 (White).
    /// f64 so that long analyses (more than 2^24 playouts) still add up.
    pub(super) ownership: Vec<f64>,
    /// Per point, the sum over playouts of the square of that value (the
    /// playouts that left it someone's), for the ownership's spread.
    pub(super) ownership_squares: Vec<f64>,
    pub(super) ownership_samples: u64,
    /// Per root child (by its offset, as `root_scores`), when the search
    /// asks for it: the ownership sums of the playouts through that move
    /// and their count.
    pub(super) root_ownership: Vec<(Vec<f64>, u32)>,
    /// Black's final margins over this thread's playouts.
    pub(super) margins: Margins,
    /// Per root child (by its offset among the root's children): Black's
    /// margins over this thread's playouts through it. Kept apart from the
    /// nodes so the tree stays small; a reused tree's root children start
    /// again from nothing here.
    pub(super) root_margins: Vec<Margins>,
    pub(super) playouts: u64,
}

/// Where a descent of the tree stands: the node reached, the side to move
/// there, the passes in a row that led to it, and the last move on the
/// board (None after a pass).
pub(super) struct Descent {
    pub(super) node: NodeId,
    pub(super) to_move: Color,
    pub(super) passes: u32,
    pub(super) last_move: Option<Point>,
}

/// What one iteration works in, reused by the next so that an iteration
/// allocates nothing once warm.
pub(super) struct IterationBuffers {
    /// The board, copied over from the root: a copy of the used part is
    /// cheaper than a clone of a 25x25 board's room.
    pub(super) board: Box<PlayoutBoard>,
    /// The moves for the last good replies, pass as PASS, from the move
    /// before the root on.
    pub(super) moves: Vec<Point>,
    /// The nodes descended through, with their virtual losses.
    pub(super) path: Vec<Step>,
    /// The superko keys of the positions along the path.
    pub(super) path_hashes: Vec<u64>,
}

impl IterationBuffers {
    pub(super) fn new(root: &PlayoutBoard) -> IterationBuffers {
        IterationBuffers {
            board: Box::new(root.clone()),
            moves: Vec::new(),
            path: Vec::with_capacity(32),
            path_hashes: Vec::with_capacity(32),
        }
    }
}

impl Worker {
    /// A thread's state for searching from `root` (the search's root
    /// board), its random stream seeded with `seed`.
    pub fn new(root: &PlayoutBoard, seed: u64) -> Worker {
        Worker {
            rng: FastRng::new(seed),
            reader: TacticalReader::new(PLAYOUT_BUDGET),
            replies: Replies::new(root.points_used()),
            buffers: Some(IterationBuffers::new(root)),
            deep_reader: TacticalReader::new(DEEP_BUDGET),
            scratch: Scratch::new(),
            ownership: vec![0.0; ownership_len(root)],
            ownership_squares: vec![0.0; ownership_len(root)],
            ownership_samples: 0,
            root_ownership: Vec::new(),
            margins: Margins::default(),
            root_margins: Vec::new(),
            playouts: 0,
        }
    }

    /// Playouts this thread has finished.
    pub fn playouts(&self) -> u64 {
        self.playouts
    }

    /// Per point (indexed by `Point`), the sum over this thread's playouts
    /// of +1 where Black owned it and -1 where White did; the report adds
    /// the threads' sums and divides by all their samples.
    pub fn ownership_sums(&self) -> &[f64] {
        &self.ownership
    }

    pub fn ownership_samples(&self) -> u64 {
        self.ownership_samples
    }

    /// Per point (indexed by `Point`), the sum of the squares of the values
    /// `ownership_sums` adds: the playouts that left the point someone's.
    pub fn ownership_squares(&self) -> &[f64] {
        &self.ownership_squares
    }

    /// Black's final margins over this thread's playouts.
    pub fn margins(&self) -> &Margins {
        &self.margins
    }

    pub(super) fn record_ownership(&mut self, board: &PlayoutBoard) {
        let size = board.size();
        for vertex in Vertex::all(size) {
            let point = board.point(vertex);
            match board.owner(point) {
                Some(Color::Black) => self.ownership[point as usize] += 1.0,
                Some(Color::White) => self.ownership[point as usize] -= 1.0,
                None => continue,
            }
            self.ownership_squares[point as usize] += 1.0;
        }
        self.ownership_samples += 1;
    }
}

/// A node of an iteration's path and the virtual loss it carries for it.
pub(super) type Step = (NodeId, u32);

pub(super) fn ownership_len(board: &PlayoutBoard) -> usize {
    let size = board.size();
    Vertex::all(size)
        .map(|v| board.point(v) as usize + 1)
        .max()
        .unwrap_or(1)
}
