//! Monte Carlo tree search with RAVE (all-moves-as-first) statistics, in the
//! manner of Michi and Pachi's UCT engine.
//!
//! A `Search` is the tree and the position at its root, shared by every
//! search thread (`player/player.rs` runs them); a `Worker` is one thread's
//! own state (its random stream, readers, last good replies and the sums it
//! reports). Each iteration copies the root board, walks down the tree
//! choosing the child with the best blend of its own and its RAVE win rate,
//! expands the leaf it reaches, finishes the game with a playout (the
//! policy playout by default, the light random one when `heavy_playouts` is
//! off) and scores it by the Tromp-Taylor count.
//!
//! Threads searching one tree would all follow the same best line; a
//! virtual loss (`SearchParams::virtual_loss`) on every node an iteration
//! runs through makes that line look worse to the others until the
//! iteration's result replaces it, so that they spread out.
//!
//! Pass is a move of the tree. Two passes in a row end the game: such a node
//! is terminal and is valued by the exact count of its board, which is how
//! the search learns that passing with dead stones on the board loses under
//! these rules. The game's superko is enforced on every tree move: a move
//! whose superko key (the colouring's hash; under situational superko with
//! the side to move) occurred in the game or earlier on the path is
//! marked illegal and never chosen again (a hash match is taken as a
//! repetition here; the move finally played is checked exactly by the game).

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use super::filter::MoveFilter;
use super::judgement;
use super::margins::Margins;
use super::network_prior::{lead_share, recent_moves, NetworkPrior};
use super::priors::candidates;
use super::selection::select;
use super::tree::{Expansion, HalfWins, NodeId, Tree, PASS};
use super::value_share::mixed_result;
use super::worker::{ownership_len, Descent, IterationBuffers, Step, Worker};
use crate::game::{Action, Color, Game, Move, Rules, Superko, Vertex};
use crate::player::board::{board_of, winner, PlayoutBoard, Point, TacticalReader, DEEP_BUDGET};
use crate::player::network::{Judgement, RecentMoves, Scratch, SharedEvaluator, RECENT_MOVES};
use crate::player::params::SearchParams;
use crate::player::playout::{
    first_code, light_playout, policy_playout, PlayoutRecords, Policy, PolicyPlayout, FIRST_NONE,
};

/// Playouts a search thread makes even when told to stop at once.
const MIN_PLAYOUTS_ON_STOP: u64 = 64;

/// The search every thread runs together: owns the tree, the board at the
/// root (a `PlayoutBoard`, copied at the start of every iteration), the
/// colouring hashes of the game for superko and the client's move filter.
/// Read-only during a search but for the tree's atomics, so the threads
/// share it by reference (`run`). It borrows nothing: the player keeps it
/// from move to move for tree reuse.
pub struct Search {
    params: SearchParams,
    /// The playouts' policy for this board's size (`policy_for`).
    policy: Policy,
    tree: Tree,
    root_board: PlayoutBoard,
    root_to_move: Color,
    root_passes: u32,
    /// The moves that led to the root, the last first.
    root_recent: RecentMoves,
    /// The policy network's prior, where it applies.
    network: Option<NetworkPrior>,
    /// The komi the playouts count with: the game's or a dynamic one. The
    /// game's scoring, which the network and the report read, is `rules`.
    playout_komi: f32,
    /// Superko keys of the game so far: tree moves may not repeat them.
    history: HashSet<u64>,
    /// The game's rules: its superko rule makes the keys, and its suicide
    /// option says which moves the tree may make.
    rules: Rules,
    /// The client's avoid / allow rules, applied where children are made.
    filter: MoveFilter,
    /// The game's record this tree was built for, to recognise reuse.
    actions_seen: Vec<Action>,
    /// Whether the workers sum the ownership per root move as well (for
    /// KataGo's `movesOwnership`); off unless a client asks.
    move_ownership: bool,
    /// Whether the report judges the positions after root moves whose
    /// subtrees the network has not (`SearchRequest::judge_moves`).
    move_judgement: bool,
    /// The root's priors, worked out at the first report that asks: the
    /// root's position and the parameters are fixed for the search's
    /// life, and with the network each costs an evaluation (some 5 ms on
    /// 19x19), once per info line before.
    root_priors: OnceLock<Vec<(Point, f32)>>,
}

impl Search {
    /// A fresh search at the game's current position, `to_move` to play,
    /// `evaluator` (where there is one) ranking moves and judging
    /// positions.
    pub fn new(
        game: &Game,
        to_move: Color,
        params: SearchParams,
        evaluator: Option<&Arc<SharedEvaluator>>,
    ) -> Search {
        let size = game.size();
        let root_board = board_of(game);
        // The last moves (a pass: none), as far back as the last setup: a
        // move before stones were placed is no move to answer.
        let mut root_recent = [None; RECENT_MOVES];
        let recent = game.actions().iter().rev().map_while(|a| match a {
            Action::Move(_, mv) => Some(mv.vertex().map(|v| root_board.point(v))),
            Action::Setup(_) => None,
        });
        for (slot, m) in root_recent.iter_mut().zip(recent) {
            *slot = m;
        }
        let tree = Tree::new(params.max_nodes);
        let network = NetworkPrior::for_board(&params, &root_board, evaluator, game.komi() as f32);
        Search {
            policy: params.policy_for(size),
            params,
            tree,
            root_board,
            root_to_move: to_move,
            root_passes: game.consecutive_passes().min(1),
            root_recent,
            network,
            playout_komi: game.komi() as f32,
            history: game.superko_keys().collect(),
            rules: game.rules(),
            filter: MoveFilter::default(),
            actions_seen: game.actions().to_vec(),
            move_ownership: false,
            move_judgement: false,
            root_priors: OnceLock::new(),
        }
    }

    /// The network's judgement for Black (area difference and winning
    /// chance) of the root's position, or after the root move `after`,
    /// where the report judges moves and `judge_root` judged that one. A
    /// pass that ends the game (the root one pass from over) is judged by
    /// the count: the game is over, and the network's guess at the board
    /// (which read -2.5 where the count was +1.5 on 9x9) is no judgement
    /// of it.
    pub fn judgement(&self, after: Option<Point>) -> Option<Judgement> {
        let network = self.network.as_ref().filter(|_| self.move_judgement)?;
        if after.is_some_and(|mv| self.ends_the_game(mv)) {
            return Some(network.settled(self.root_board.score(0.0)));
        }
        network.judgement(after)
    }

    /// Whether the root move `mv` ends the game: a pass after a pass.
    /// Its judgement is the count (`judgement`), so `judge_root` spends
    /// no evaluation on it.
    fn ends_the_game(&self, mv: Point) -> bool {
        mv == PASS && self.root_passes >= 1
    }

    /// Where the report judges moves: judges the root's position, then the
    /// positions after its moves, most playouts first, while each fits
    /// before `until` and `stop` is down (`NetworkPrior::judge_root`).
    pub fn judge_root(&self, until: Option<Instant>, stop: &AtomicBool) {
        let Some(network) = self.network.as_ref().filter(|_| self.move_judgement) else {
            return;
        };
        let mut moves: Vec<(u32, Point)> = self
            .tree
            .child_nodes(Tree::ROOT)
            .map(|(_, node)| (node.playouts(), node.mv()))
            .filter(|&(playouts, mv)| playouts > 0 && !self.ends_the_game(mv))
            .collect();
        moves.sort_by_key(|&(playouts, _)| std::cmp::Reverse(playouts));
        let moves: Vec<Point> = moves.into_iter().map(|(_, mv)| mv).collect();
        let root = (&self.root_board, self.root_to_move, &self.root_recent);
        network.judge_root(root, &moves, until, stop);
    }

    /// What judging the root and one move costs (`judge_root`), by the
    /// evaluator's measured cost; None where the report judges none.
    pub fn judgement_cost(&self) -> Option<Duration> {
        let network = self.network.as_ref().filter(|_| self.move_judgement)?;
        network.judgement_cost(&self.root_board)
    }

    /// The search whose report sums the ownership per root move too
    /// (`moves_ownership`, for KataGo's `movesOwnership`: a second sum per
    /// playout, so only when asked) and judges the root's moves
    /// (`judge_moves`: `SearchRequest::judge_moves`).
    pub fn with_report(mut self, moves_ownership: bool, judge_moves: bool) -> Search {
        self.move_ownership = moves_ownership;
        self.move_judgement = judge_moves;
        self
    }

    /// The node of this tree that stands for the game's position with
    /// `to_move` to play, reached by the moves played since the tree was
    /// made (the root when none was); None when the game left the tree.
    /// The komi is not checked here: a tree counted with another komi is
    /// the caller's to refuse (`Search::komi`).
    pub fn node_at(&self, game: &Game, to_move: Color) -> Option<NodeId> {
        let now = game.actions();
        let seen = self.actions_seen.len();
        let reusable = now.len() >= seen
            && now[..seen] == self.actions_seen[..]
            && self.root_board.size() == game.size();
        if !reusable {
            return None;
        }
        let mut node = Tree::ROOT;
        let mut expected = self.root_to_move;
        for action in &now[seen..] {
            let Action::Move(color, mv) = *action else {
                return None;
            };
            let point = match mv {
                Move::Pass => PASS,
                Move::Play(v) => self.root_board.point(v),
            };
            match self.tree.child_with_move(node, point) {
                Some(child) if color == expected => node = child,
                _ => return None,
            }
            expected = expected.opponent();
        }
        (expected == to_move).then_some(node)
    }

    /// The same search growing `tree` instead (a reused one, whose root
    /// is this search's position).
    pub fn with_tree(mut self, tree: Tree) -> Search {
        self.tree = tree;
        self
    }

    /// The tree, for reuse by the next search.
    pub fn into_tree(self) -> Tree {
        self.tree
    }

    /// The search under the client's move filter. Its depths count from
    /// this root, so the player starts a new tree when the filter changes
    /// or the game moves on under one.
    pub fn with_filter(mut self, filter: MoveFilter) -> Search {
        self.filter = filter;
        self
    }

    pub fn filter(&self) -> &MoveFilter {
        &self.filter
    }

    /// Whether this search's root is the game's position now.
    pub fn is_at(&self, game: &Game) -> bool {
        self.actions_seen == game.actions()
    }

    /// The komi the playouts count with: the game's, or `player::komi`'s dynamic one.
    pub fn playout_komi(&self) -> f32 {
        self.playout_komi
    }

    /// The same search counting its playouts with `komi`.
    pub fn with_playout_komi(mut self, komi: f32) -> Search {
        self.playout_komi = komi;
        self
    }

    pub fn tree(&self) -> &Tree {
        &self.tree
    }

    /// Whether the tree's win rates are the playouts' shares won against
    /// `komi`: counted with that komi, and any value head's judgement
    /// mixed into their results (`value_share`) made at it too (a network
    /// that reads the komi is given the game's), or none mixed in at all
    /// (on a board where no value is believed, 9x9 among them, the nodes
    /// keep none whatever `value_share` asks).
    pub fn rates_are_against(&self, komi: f32) -> bool {
        let values_at_komi = self.params.value_share == 0
            || self
                .network
                .as_ref()
                .is_none_or(|n| n.mixed_values_judge_the_game());
        self.playout_komi == komi && values_at_komi
    }

    /// The share (0 to 1) of each playout's result that the value head's
    /// judgement gave (`value_share`), where those judgements were made at
    /// `komi` (a network that reads the komi, told the game's, and the
    /// playouts counted with it); 0 elsewhere: then the tree's results
    /// hold no judgement at `komi` for the report to read.
    pub fn judged_share_against(&self, komi: f32) -> f32 {
        let judges = self
            .network
            .as_ref()
            .is_some_and(|n| n.judges_value() && n.values_judge_the_game());
        if judges && self.playout_komi == komi {
            self.params.value_share.min(100) as f32 / 100.0
        } else {
            0.0
        }
    }

    /// The share (0 to 1) of the reported lead the ownership head gives.
    pub fn score_network_share(&self) -> f32 {
        lead_share(self.network.as_ref(), self.params.score_network)
    }

    pub fn board(&self) -> &PlayoutBoard {
        &self.root_board
    }

    /// Runs iterations on this thread, with `worker`'s state, until the
    /// `deadline`, until `playouts_left` (shared by the threads: each
    /// finished playout takes one) runs out, or until `stop` is raised.
    ///
    /// A stop that comes at once (GoGui's interrupt written with the
    /// command) still leaves `MIN_PLAYOUTS_ON_STOP` playouts, and a deadline
    /// already past still leaves one: the root is then expanded and its
    /// most visited child is the heuristics' choice, never a pass that
    /// nothing chose.
    pub fn run(
        &self,
        worker: &mut Worker,
        deadline: Option<Instant>,
        playouts_left: &AtomicU64,
        stop: &AtomicBool,
    ) {
        #[cfg(test)]
        if self.params.panic_in_search {
            panic!("a test's panic in a search thread");
        }
        let mut done = 0u64;
        loop {
            // A playout takes tens of microseconds: looking at the clock,
            // the flag and the shared count before each costs nothing that
            // shows.
            if done >= MIN_PLAYOUTS_ON_STOP && stop.load(Ordering::Relaxed) {
                break;
            }
            if done >= 1 && deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            let taken = playouts_left
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1));
            if taken.is_err() {
                break;
            }
            if !self.iterate(worker) {
                // Refused by superko: no playout was made, so the count
                // gets it back (a refusal marks a node for good, so this
                // ends). The budget counts finished playouts, as it did
                // before the threads shared it.
                playouts_left.fetch_add(1, Ordering::Relaxed);
            }
            done += 1;
        }
    }

    /// The root's children with their statistics: (move, playouts, the
    /// playouts' win rate for the side to move, the prior left out),
    /// illegal ones left out.
    pub fn root_children(&self) -> Vec<(Point, u32, f32)> {
        self.tree
            .children(Tree::ROOT)
            .map(|id| self.tree.node(id))
            .filter(|n| !n.is_illegal())
            .map(|n| {
                let rate = n.reported_win_rate();
                (n.mv(), n.playouts(), rate)
            })
            .collect()
    }

    /// For each root child that `worker` played out: the move and Black's
    /// margins over those playouts.
    pub fn root_margins<'a>(&self, worker: &'a Worker) -> Vec<(Point, &'a Margins)> {
        self.tree
            .children(Tree::ROOT)
            .zip(&worker.root_margins)
            .filter(|(_, margins)| margins.total() > 0)
            .map(|(id, margins)| (self.tree.node(id).mv(), margins))
            .collect()
    }

    /// The prior of each root move, as its share of the virtual wins the
    /// tree's heuristics (shape, captures, nearness) hand out: a rough
    /// policy that sums to 1 over the root's moves.
    pub fn root_priors(&self) -> &[(Point, f32)] {
        self.root_priors.get_or_init(|| self.work_out_root_priors())
    }

    fn work_out_root_priors(&self) -> Vec<(Point, f32)> {
        let candidates = candidates(
            &self.params,
            self.rules.allow_suicide,
            self.filter.confines(self.root_to_move, 0),
            &mut TacticalReader::new(DEEP_BUDGET),
            &mut self.root_board.clone(),
            self.root_to_move,
            [self.root_recent[0], self.root_recent[1]],
        );
        if let Some(network) = &self.network {
            let moves: Vec<Point> = candidates.iter().map(|c| c.mv).collect();
            let policy = network.policy(
                &mut Scratch::new(),
                &mut self.root_board.clone(),
                self.root_to_move,
                &self.root_recent,
                &moves,
            );
            return moves.into_iter().zip(policy).collect();
        }
        let total: f32 = candidates.iter().map(|c| c.prior_wins).sum();
        candidates
            .iter()
            .map(|c| (c.mv, c.prior_wins / total.max(f32::MIN_POSITIVE)))
            .collect()
    }

    /// One iteration: descend, expand, play out, back up. False when a
    /// tree move was refused by superko, which ends it with no playout.
    fn iterate(&self, w: &mut Worker) -> bool {
        // Lent out for the iteration: the playout borrows the worker beside
        // the board.
        let mut buffers = w
            .buffers
            .take()
            .unwrap_or_else(|| IterationBuffers::new(&self.root_board));
        let played = self.iterate_in(w, &mut buffers);
        w.buffers = Some(buffers);
        played
    }

    /// `iterate`, in `buffers`: the descent to a leaf (expanding it when it
    /// has earned it), the playout from there unless two passes ended the
    /// game in the tree, and the result recorded.
    fn iterate_in(&self, w: &mut Worker, buffers: &mut IterationBuffers) -> bool {
        let mut amaf = [FIRST_NONE; crate::player::board::MAX_POINTS];
        let Some(leaf) = self.descend(w, buffers, &mut amaf) else {
            return false;
        };
        if leaf.passes < 2 {
            let IterationBuffers { board, moves, .. } = buffers;
            self.play_out(w, board, leaf.to_move, leaf.last_move, &mut amaf, moves);
        } else {
            self.judge_finished(leaf.node, &buffers.board);
        }
        self.record_playout(w, buffers, &amaf);
        w.playouts += 1;
        true
    }

    /// Gives the node `id`, where two passes ended the game on `board`,
    /// its count as its judged area and its result at the game's komi as
    /// its value, once: the lead and the value's share of the results
    /// read the deepest judged node on a playout's way (`judgement`,
    /// `value_share`), and the network's guess one pass before had read
    /// -229 for a filled 19x19 board's count of +11.5.
    fn judge_finished(&self, id: NodeId, board: &PlayoutBoard) {
        let judged = self.tree.judged(id);
        if judged.own().chance.is_none() {
            // At the game's komi, as the network's values are judged.
            let winner = winner(board.score(self.rules.komi as f32));
            judged.set_chance(winner.map_or(0.5, |w| f32::from(u8::from(w == Color::Black))));
        }
        let judges = self.network.as_ref().is_some_and(NetworkPrior::judges_area);
        if judges && self.tree.node(id).claim_network() {
            judged.set_area(board.score(0.0));
        }
    }

    /// Walks from the root to a leaf on `buffers`'s board, choosing children
    /// by `select`, expanding nodes that have earned it and giving nodes
    /// due the network's prior; `amaf` gets the first mover of each point
    /// played. None when a tree move repeated a position (superko): the
    /// child is marked and the iteration ends with no playout.
    fn descend(
        &self,
        w: &mut Worker,
        buffers: &mut IterationBuffers,
        amaf: &mut [u8],
    ) -> Option<Descent> {
        let mut at = self.start_descent(buffers);
        while at.passes < 2 {
            if !self.make_ready(w, buffers, &at) {
                break;
            }
            let Some(child) = select(&self.tree, at.node, &self.params) else {
                break;
            };
            if !self.step(buffers, &mut at, child, amaf) {
                return None;
            }
        }
        Some(at)
    }

    /// Sets `buffers` at the root, for a walk down from it.
    fn start_descent(&self, buffers: &mut IterationBuffers) -> Descent {
        buffers.board.copy_from(&self.root_board);
        buffers.moves.clear();
        buffers.moves.push(self.root_recent[0].unwrap_or(PASS));
        // The root carries no virtual loss: no thread chooses it.
        buffers.path.clear();
        buffers.path_hashes.clear();
        buffers.path.push((Tree::ROOT, 0));
        Descent {
            node: Tree::ROOT,
            to_move: self.root_to_move,
            passes: self.root_passes,
            last_move: self.root_recent[0],
        }
    }

    /// Makes the node `at` stands on ready to choose a child: expanded
    /// when it has earned it, and given the network's prior when due.
    /// False when it stays a leaf.
    fn make_ready(&self, w: &mut Worker, buffers: &mut IterationBuffers, at: &Descent) -> bool {
        if !self.tree.node(at.node).is_expanded() && !self.expand(w, buffers, at) {
            return false;
        }
        if let Some(network) = self
            .network
            .as_ref()
            .filter(|n| n.is_due(&self.tree, at.node))
        {
            let recent = recent_moves(&buffers.moves, &self.root_recent);
            let board: &mut PlayoutBoard = &mut buffers.board;
            network.add(
                &self.tree,
                at.node,
                &mut w.scratch,
                board,
                at.to_move,
                &recent,
            );
        }
        true
    }

    /// Makes the root ready (expanded, with the network's prior) on this
    /// thread before the threads start: a thread that found the root being
    /// expanded by another played out from the root itself, a visit that
    /// reached no root move (8 threads asked for 25 visits gave the root's
    /// moves 1), and the network's prior came after the heuristics' had
    /// drawn the first visits.
    pub fn prepare_root(&self, w: &mut Worker) {
        let mut buffers = w
            .buffers
            .take()
            .unwrap_or_else(|| IterationBuffers::new(&self.root_board));
        let at = self.start_descent(&mut buffers);
        if at.passes < 2 {
            self.make_ready(w, &mut buffers, &at);
        }
        w.buffers = Some(buffers);
    }

    /// Expands the leaf `at` stands on once it has `expand_visits`
    /// playouts (the root at once): its moves with their priors, kept to
    /// the client's filter. False when it stays a leaf (too few visits, or
    /// another thread expanding it).
    fn expand(&self, w: &mut Worker, buffers: &mut IterationBuffers, at: &Descent) -> bool {
        let IterationBuffers {
            board, moves, path, ..
        } = buffers;
        let board: &mut PlayoutBoard = board;
        // This iteration's own virtual loss is no visit: one thread
        // expands exactly when it did before virtual losses. Those of
        // other threads count, as the visits they are about to be.
        let own = path.last().map_or(0, |&(_, loss)| loss);
        let playouts = self.tree.node(at.node).playouts().saturating_sub(own);
        if at.node != Tree::ROOT && playouts < self.params.expand_visits {
            return false;
        }
        let expansion = self.tree.expand(at.node, || {
            // The move before the last: the path's, or the root's.
            let last2 = match moves.len() {
                0 | 1 => self.root_recent[1],
                n => Some(moves[n - 2]).filter(|&m| m != PASS),
            };
            // An allow list may name an own eye, which the tree else skips.
            let depth = path.len() - 1;
            let mut candidates = candidates(
                &self.params,
                self.rules.allow_suicide,
                self.filter.confines(at.to_move, depth),
                &mut w.deep_reader,
                board,
                at.to_move,
                [at.last_move, last2],
            );
            self.filter
                .retain(&mut candidates, board, at.to_move, depth);
            candidates
        });
        expansion == Expansion::Expanded
    }

    /// Plays `child`'s move on `buffers`'s board and moves `at` down to it,
    /// with this thread's virtual loss. False when the move repeats a
    /// position the rules' superko forbids: the child is marked illegal
    /// and the path's virtual losses are taken back.
    fn step(
        &self,
        buffers: &mut IterationBuffers,
        at: &mut Descent,
        child: NodeId,
        amaf: &mut [u8],
    ) -> bool {
        let c = self.tree.node(child);
        let mv = c.mv();
        let to_move = at.to_move;
        if mv == PASS {
            buffers.board.pass();
            at.passes += 1;
            at.last_move = None;
            // A pass leaves a new situation (the colouring, the other
            // side to move) that situational superko remembers.
            if self.rules.superko == Superko::Situational {
                let key = self
                    .rules
                    .superko
                    .key(buffers.board.hash(), to_move.opponent());
                buffers.path_hashes.push(key);
            }
        } else {
            buffers.board.play(mv, to_move);
            at.passes = 0;
            let hash = self
                .rules
                .superko
                .key(buffers.board.hash(), to_move.opponent());
            if self.history.contains(&hash) || buffers.path_hashes.contains(&hash) {
                // A repetition: this child can never be played here.
                c.mark_illegal();
                for &(id, loss) in buffers.path.iter() {
                    self.tree.node(id).remove_virtual_loss(loss);
                }
                return false;
            }
            buffers.path_hashes.push(hash);
            if amaf[mv as usize] == FIRST_NONE {
                amaf[mv as usize] = first_code(to_move);
            }
            at.last_move = Some(mv);
        }
        buffers
            .path
            .push((child, c.add_virtual_loss(self.params.virtual_loss)));
        buffers.moves.push(mv);
        at.node = child;
        at.to_move = to_move.opponent();
        true
    }

    /// Counts the finished game on `buffers`'s board: the thread's ownership
    /// and margin sums, the result backed up the path (with `amaf`'s
    /// first movers for RAVE), and the last good replies learnt.
    fn record_playout(&self, w: &mut Worker, buffers: &IterationBuffers, amaf: &[u8]) {
        let IterationBuffers {
            board, moves, path, ..
        } = buffers;
        let score = board.score(self.playout_komi);
        w.record_ownership(board);
        self.record_score(w, path, score);
        if self.move_ownership {
            self.record_move_ownership(w, path, board);
        }
        let winner = winner(score);
        let share = self.params.value_share;
        let result = mixed_result(&self.tree, path, share, winner, &mut w.rng);
        self.back_up(path, result, amaf);
        if let (true, Some(winner)) = (self.params.last_good_reply, winner) {
            w.replies.learn(moves, self.root_to_move.opponent(), winner);
        }
    }

    /// Finishes the game on `board` from a leaf, `to_move` to play: the
    /// policy playout, or the light one when `heavy_playouts` is off.
    fn play_out(
        &self,
        w: &mut Worker,
        board: &mut PlayoutBoard,
        to_move: Color,
        last_move: Option<Point>,
        amaf: &mut [u8],
        moves: &mut Vec<Point>,
    ) {
        if !self.params.heavy_playouts {
            let records = PlayoutRecords {
                first_mover: Some(amaf),
                record: None,
            };
            light_playout(board, to_move, &mut w.rng, records);
            return;
        }
        let learning = self.params.last_good_reply;
        let mut playout = PolicyPlayout {
            policy: &self.policy,
            rng: &mut w.rng,
            reader: &mut w.reader,
            replies: learning.then_some(&w.replies),
        };
        let records = PlayoutRecords {
            first_mover: Some(amaf),
            record: learning.then_some(moves),
        };
        policy_playout(board, to_move, last_move, &mut playout, records);
    }

    fn record_score(&self, w: &mut Worker, path: &[Step], score: f32) {
        // The board's count difference: a whole number once the komi is
        // added back.
        let difference = (score + self.playout_komi).round() as i32;
        let points = self.root_board.size().points();
        w.margins.add(difference, points);
        let Some(&(child, _)) = path.get(1) else {
            return;
        };
        let children = self.tree.children(Tree::ROOT);
        let index = (child - children.start) as usize;
        if w.root_margins.len() < children.len() {
            w.root_margins.resize(children.len(), Margins::default());
        }
        if let Some(margins) = w.root_margins.get_mut(index) {
            margins.add(difference, points);
        }
    }

    /// Adds the playout's owners to the sums of the root move it began
    /// with (`with_report`).
    fn record_move_ownership(&self, w: &mut Worker, path: &[Step], board: &PlayoutBoard) {
        let Some(&(child, _)) = path.get(1) else {
            return;
        };
        let children = self.tree.children(Tree::ROOT);
        let index = (child - children.start) as usize;
        if w.root_ownership.len() < children.len() {
            w.root_ownership.resize(children.len(), (Vec::new(), 0));
        }
        let Some((sums, count)) = w.root_ownership.get_mut(index) else {
            return;
        };
        if sums.is_empty() {
            *sums = vec![0.0; ownership_len(&self.root_board)];
        }
        for vertex in Vertex::all(board.size()) {
            let point = board.point(vertex);
            match board.owner(point) {
                Some(Color::Black) => sums[point as usize] += 1.0,
                Some(Color::White) => sums[point as usize] -= 1.0,
                None => {}
            }
        }
        *count += 1;
    }

    /// For each root child whose ownership `worker` summed: (move, the sums
    /// indexed by `Point`, playouts counted).
    pub fn root_ownership<'a>(&self, worker: &'a Worker) -> Vec<(Point, &'a [f64], u32)> {
        self.tree
            .children(Tree::ROOT)
            .zip(&worker.root_ownership)
            .filter(|(_, (_, count))| *count > 0)
            .map(|(id, (sums, count))| (self.tree.node(id).mv(), &sums[..], *count))
            .collect()
    }

    /// Adds one result to every node of the path in place of its virtual
    /// loss, and to the RAVE statistics of the siblings whose move was
    /// played first by the same colour later in the iteration.
    fn back_up(&self, path: &[Step], black_result: HalfWins, amaf: &[u8]) {
        judgement::back_up(path.iter().map(|&(id, _)| self.tree.judged(id)));
        let mut mover = self.root_to_move.opponent();
        for &(id, virtual_loss) in path {
            let result = if mover == Color::Black {
                black_result
            } else {
                2 - black_result
            };
            self.tree.node(id).add_result(result, virtual_loss);
            // Children of this node are moves of the opponent of `mover`.
            let child_mover = mover.opponent();
            let child_result = 2 - result;
            let code = first_code(child_mover);
            self.tree.child_nodes(id).for_each(|(_, c)| {
                let mv = c.mv();
                if mv != PASS && amaf[mv as usize] == code {
                    c.add_amaf_result(child_result);
                }
            });
            mover = mover.opponent();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::search::run_threads;

    fn game_with(size: usize, komi: f64, black: &[&str], white: &[&str]) -> Game {
        let mut game = Game::new(size, komi);
        let mut stones = Vec::new();
        for (list, color) in [(black, Color::Black), (white, Color::White)] {
            for s in list {
                stones.push((Vertex::parse_gtp(s).expect("vertex"), Some(color)));
            }
        }
        game.setup(&stones).expect("legal setup");
        game
    }

    fn most_visited(search: &Search) -> Point {
        search
            .root_children()
            .into_iter()
            .max_by_key(|&(_, visits, _)| visits)
            .map(|(mv, _, _)| mv)
            .expect("root children")
    }

    fn searched(game: &Game, to_move: Color, playouts: u64) -> Search {
        searched_with(game, to_move, SearchParams::default(), playouts)
    }

    fn searched_with(game: &Game, to_move: Color, params: SearchParams, playouts: u64) -> Search {
        let search = Search::new(game, to_move, params, None);
        let mut worker = Worker::new(search.board(), 7);
        search.run(
            &mut worker,
            None,
            &AtomicU64::new(playouts),
            &AtomicBool::new(false),
        );
        search
    }

    #[test]
    fn with_the_learned_prior_the_search_still_finds_the_deciding_capture() {
        // The position of the test below.
        let game = game_with(
            5,
            0.5,
            &["B1", "B2", "B3", "B4", "D2", "D3", "D4", "C1"],
            &["C2", "C3", "C4", "A5", "E5"],
        );
        let params = SearchParams {
            prior_learned: 20,
            ..SearchParams::default()
        };
        let search = searched_with(&game, Color::Black, params, 3000);
        let c5 = search
            .board()
            .point(Vertex::parse_gtp("C5").expect("vertex"));
        assert_eq!(most_visited(&search), c5);
    }

    #[test]
    fn the_search_captures_the_string_whose_capture_decides_the_game() {
        // 5x5: the White string C2-C3-C4 is in atari at C5; capturing it
        // wins the board for Black, anything else lets White connect out.
        let game = game_with(
            5,
            0.5,
            &["B1", "B2", "B3", "B4", "D2", "D3", "D4", "C1"],
            &["C2", "C3", "C4", "A5", "E5"],
        );
        let search = searched(&game, Color::Black, 3000);
        let c5 = search
            .board()
            .point(Vertex::parse_gtp("C5").expect("vertex"));
        assert_eq!(most_visited(&search), c5);
        let (_, _, rate) = search
            .root_children()
            .into_iter()
            .find(|&(mv, _, _)| mv == c5)
            .expect("C5 searched");
        assert!(rate > 0.8, "win rate after the capture {rate}");
    }

    #[test]
    fn threads_sharing_a_search_count_every_playout_once() {
        // Three threads, a large virtual loss: once they are done, every
        // node's visits are its real playouts (no virtual loss left behind),
        // and the tree's counts agree with the threads' own.
        let game = Game::new(7, 7.5);
        let params = SearchParams {
            virtual_loss: 3,
            ..SearchParams::default()
        };
        let search = Search::new(&game, Color::Black, params, None);
        let mut workers: Vec<Worker> = (1..=3)
            .map(|seed| Worker::new(search.board(), seed))
            .collect();
        let left = AtomicU64::new(3000);
        run_threads(&search, &mut workers, None, &left, &AtomicBool::new(false));
        assert_eq!(left.load(Ordering::Relaxed), 0);
        let playouts: u64 = workers.iter().map(Worker::playouts).sum();
        assert_eq!(playouts, 3000);
        let tree = search.tree();
        assert_eq!(tree.node(Tree::ROOT).playouts() as u64, playouts);
        let scored: u64 = workers
            .iter()
            .flat_map(|w| search.root_margins(w))
            .map(|(_, margins)| margins.total())
            .sum();
        let through_children: u64 = tree
            .children(Tree::ROOT)
            .map(|c| tree.node(c).playouts() as u64)
            .sum();
        // Every playout's margin is counted.
        assert_eq!(scored, through_children);
        for id in 0..tree.len() as NodeId {
            let below: u32 = tree.children(id).map(|c| tree.node(c).playouts()).sum();
            assert!(below <= tree.node(id).playouts(), "node {id}");
        }
    }

    #[test]
    fn a_fixed_seed_gives_the_same_search() {
        let game = Game::new(7, 7.5);
        let a = searched(&game, Color::Black, 500).root_children();
        let b = searched(&game, Color::Black, 500).root_children();
        assert_eq!(a, b);
    }

    #[test]
    fn a_move_that_repeats_a_colouring_is_never_chosen() {
        // A ko: White's A1 has just captured Black's B1, and Black's
        // retake at B1 would recreate the colouring before it.
        let mut game = Game::new(4, 0.5);
        for (c, v) in [
            (Color::Black, "B1"),
            (Color::White, "C1"),
            (Color::Black, "A2"),
            (Color::White, "B2"),
            (Color::Black, "D4"),
            (Color::White, "A1"),
        ] {
            game.play(c, Move::Play(Vertex::parse_gtp(v).expect("vertex")))
                .expect("legal move");
        }
        let search = searched(&game, Color::Black, 2000);
        let b1 = search
            .board()
            .point(Vertex::parse_gtp("B1").expect("vertex"));
        assert!(search.root_children().iter().all(|&(mv, _, _)| mv != b1));
    }
}
