//! Monte Carlo tree search with RAVE (all-moves-as-first) statistics, in the
//! manner of Michi and Pachi's UCT engine.
//!
//! A `Search` is the tree and the position at its root, shared by every
//! search thread (`player/mod.rs` runs them); a `Worker` is one thread's
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
use std::time::Instant;

use super::features::{features, is_empty_area, Recent};
use super::filter::MoveFilter;
use super::gammas::Gammas;
use super::outcome::Valuation;
use super::patterns;
use super::playout::{
    first_code, light_playout, policy_playout, two_liberty_answers, Policy, FIRST_NONE,
};
use super::playout_board::{winner, PlayoutBoard, Point};
use super::reply::Replies;
use super::rng::FastRng;
use super::selfatari::is_bad_self_atari;
use super::tactics::{Reader, DEEP_BUDGET, PLAYOUT_BUDGET};
use super::tree::{Candidate, Expansion, HalfWins, Node, NodeId, Tree, PASS};
use crate::game::{Action, Color, Game, Move, Superko, Vertex};

/// The shortest side on which the third and fourth lines get their
/// opening prior.
const MIN_OPENING_LINE_SIDE: usize = 13;

/// Playouts a search thread makes even when told to stop at once.
const MIN_PLAYOUTS_ON_STOP: u64 = 64;

/// Tuning of the search. The defaults are what the matches were played with.
#[derive(Clone, Debug)]
pub struct SearchParams {
    /// RAVE weight: the number of real visits at which RAVE and real
    /// statistics weigh the same (Michi's RAVE_EQUIV).
    pub rave_equiv: f32,
    /// A leaf is expanded on its this-many-th visit.
    pub expand_visits: u32,
    /// Virtual even playouts every new child starts with.
    pub prior_even: u32,
    /// Extra virtual wins for moves near the last move.
    pub prior_near_last: u32,
    /// Virtual losses for moves on the first two lines far from any stone.
    pub prior_empty_edge: u32,
    /// Virtual wins for moves on the third and fourth lines far from any
    /// stone, on boards of 13 and more: where an opening takes territory
    /// and bases. On 9x9 the centre matters more, so it is not applied.
    pub prior_opening_line: u32,
    /// Virtual playouts of the learned prior (`gammas`; 0: off), won at a
    /// rate that says how the move's strength compares with the others'.
    /// The default, 20, is the one measured; no other value was tried.
    pub prior_learned: u32,
    /// How far from 50% the learned prior's rate goes: 0.5 takes a move
    /// n times stronger than the average of n candidates to 100%.
    pub prior_learned_slope: f32,
    /// The learned prior applies on boards whose shorter side is at least
    /// this: on 19x19 it won 19 of 22 games head to head at 2,000
    /// playouts; on 9x9 it left the match against GNU Go where it was (80
    /// of 100 against 81), so it is kept to the large boards
    /// (docs/strength.md, "Learned prior").
    pub prior_learned_min_side: usize,
    /// Virtual wins for moves that make a good 3x3 shape.
    pub prior_pattern: u32,
    /// Virtual wins for capturing or saving a string in atari.
    pub prior_capture: u32,
    /// Virtual losses for self-ataris.
    pub prior_self_atari: u32,
    /// Virtual losses for multi-stone suicides.
    pub prior_suicide: u32,
    /// Lost visits a thread adds to each node it descends through, taken
    /// back by the iteration's result, so that threads sharing the tree
    /// spread out (0: none). One thread never sees its own.
    pub virtual_loss: u32,
    /// Playouts with the capture and shape rules (true) or light ones.
    pub heavy_playouts: bool,
    /// Policy playouts try the last good reply (LGRF-2) to the last moves.
    pub last_good_reply: bool,
    /// Handicap stones count for Black's searches, fading over the game
    /// (linear dynamic komi, `player::komi`).
    pub handicap_komi: bool,
    /// The search asks for more when winning and less when losing
    /// (adaptive dynamic komi, `player::komi`).
    pub adaptive_komi: bool,
    /// The policy playout's probabilities.
    pub policy: Policy,
    /// Whether tree moves may be suicides of two or more stones (legal under
    /// Tromp-Taylor; engines that forbid suicide reject them).
    pub allow_suicide: bool,
    /// Bound on the number of tree nodes (the one tree of all threads).
    pub max_nodes: usize,
    /// The margin's share of a playout's value (`outcome`; 0: wins only).
    pub margin_weight: f32,
    /// The margin that earns all of that share, as a share of the board's
    /// points.
    pub margin_scale: f32,
    /// Tests only: the search panics, to check what the client is told.
    #[cfg(test)]
    pub panic_in_search: bool,
}

impl Default for SearchParams {
    fn default() -> SearchParams {
        SearchParams {
            rave_equiv: 3500.0,
            expand_visits: 8,
            prior_even: 10,
            prior_near_last: 10,
            prior_empty_edge: 10,
            prior_opening_line: 0,
            prior_learned: 20,
            prior_learned_slope: 0.5,
            prior_learned_min_side: 13,
            prior_pattern: 10,
            prior_capture: 20,
            prior_self_atari: 10,
            prior_suicide: 40,
            virtual_loss: 1,
            heavy_playouts: true,
            last_good_reply: true,
            handicap_komi: false,
            adaptive_komi: false,
            policy: Policy::default(),
            allow_suicide: true,
            // 256 MB when full: what two threads' trees of 4,000,000 took
            // before they shared one, which fills twice as fast.
            max_nodes: 8_000_000,
            margin_weight: 0.0,
            margin_scale: 0.5,
            #[cfg(test)]
            panic_in_search: false,
        }
    }
}

impl SearchParams {
    /// Sets one tuning parameter by name, for experiments from the command
    /// line (`--param NAME=VALUE`): the numbers of this struct and of the
    /// playout policy.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        fn parse<T: std::str::FromStr>(name: &str, value: &str) -> Result<T, String> {
            value
                .parse()
                .map_err(|_| format!("bad value '{value}' for parameter {name}"))
        }
        match name {
            "rave_equiv" => self.rave_equiv = parse(name, value)?,
            "expand_visits" => self.expand_visits = parse(name, value)?,
            "prior_even" => self.prior_even = parse(name, value)?,
            "prior_near_last" => self.prior_near_last = parse(name, value)?,
            "prior_empty_edge" => self.prior_empty_edge = parse(name, value)?,
            "prior_opening_line" => self.prior_opening_line = parse(name, value)?,
            "prior_pattern" => self.prior_pattern = parse(name, value)?,
            "prior_learned" => self.prior_learned = parse(name, value)?,
            "prior_learned_slope" => self.prior_learned_slope = parse(name, value)?,
            "prior_learned_min_side" => self.prior_learned_min_side = parse(name, value)?,
            "prior_capture" => self.prior_capture = parse(name, value)?,
            "prior_self_atari" => self.prior_self_atari = parse(name, value)?,
            "virtual_loss" => self.virtual_loss = parse(name, value)?,
            "heavy_playouts" => self.heavy_playouts = parse(name, value)?,
            "last_good_reply" => self.last_good_reply = parse(name, value)?,
            "handicap_komi" => self.handicap_komi = parse(name, value)?,
            "adaptive_komi" => self.adaptive_komi = parse(name, value)?,
            "policy_capture" => self.policy.capture = parse(name, value)?,
            "policy_two_liberties" => self.policy.two_liberties = parse(name, value)?,
            "policy_nakade" => self.policy.nakade = parse(name, value)?,
            "policy_race" => self.policy.race = parse(name, value)?,
            "policy_pattern" => self.policy.pattern = parse(name, value)?,
            "policy_reject_self_atari" => self.policy.reject_self_atari = parse(name, value)?,
            "policy_throw_ins" => self.policy.throw_ins = parse(name, value)?,
            "policy_mercy" => self.policy.mercy = parse(name, value)?,
            "margin_weight" => {
                let weight: f32 = parse(name, value)?;
                if !(0.0..=1.0).contains(&weight) {
                    return Err(format!("bad value '{value}' for parameter {name}"));
                }
                self.margin_weight = weight;
            }
            "margin_scale" => {
                let scale: f32 = parse(name, value)?;
                if !(scale > 0.0 && scale <= 1.0) {
                    return Err(format!("bad value '{value}' for parameter {name}"));
                }
                self.margin_scale = scale;
            }
            _ => return Err(format!("unknown parameter {name}")),
        }
        Ok(())
    }
}

/// The search every thread runs together: owns the tree, the board at the
/// root (a `PlayoutBoard`, copied at the start of every iteration), the
/// colouring hashes of the game for superko and the client's move filter.
/// Read-only during a search but for the tree's atomics, so the threads
/// share it by reference (`run`). It borrows nothing: the player keeps it
/// from move to move for tree reuse.
pub struct Search {
    params: SearchParams,
    tree: Tree,
    root_board: PlayoutBoard,
    root_to_move: Color,
    root_passes: u32,
    root_last_move: Option<Point>,
    /// The move before it, for the learned prior's distances.
    root_last2_move: Option<Point>,
    komi: f32,
    /// What a playout's result is worth to the tree.
    valuation: Valuation,
    /// Superko keys of the game so far: tree moves may not repeat them.
    history: HashSet<u64>,
    /// The game's superko rule, which makes the keys.
    superko: Superko,
    /// The client's avoid / allow rules, applied where children are made.
    filter: MoveFilter,
    /// The game's record this tree was built for, to recognise reuse.
    actions_seen: Vec<Action>,
    /// Whether the workers sum the ownership per root move as well (for
    /// KataGo's `movesOwnership`); off unless a client asks.
    move_ownership: bool,
}

/// One search thread's own state: its random stream, tactical readers and
/// last good replies, and the statistics the player sums over the threads
/// after a run (ownership, margins, playouts). Made afresh for every
/// search (`Worker::new`).
pub struct Worker {
    rng: FastRng,
    /// The playouts' tactical reader (short reading).
    reader: Reader,
    /// The playouts' last good replies.
    replies: Replies,
    /// The moves of the current iteration (kept to reuse its room).
    moves: Vec<Point>,
    /// The priors' tactical reader (ladders read across the board).
    deep_reader: Reader,
    /// Per point, the sum over playouts of +1 (Black owns it) / -1 (White).
    /// f64 so that long analyses (more than 2^24 playouts) still add up.
    ownership: Vec<f64>,
    /// Per point, the sum over playouts of the square of that value (the
    /// playouts that left it someone's), for the ownership's spread.
    ownership_squares: Vec<f64>,
    ownership_samples: u64,
    /// Per root child (by its offset, as `root_scores`), when the search
    /// asks for it: the ownership sums of the playouts through that move
    /// and their count.
    root_ownership: Vec<(Vec<f64>, u32)>,
    /// Sum of Black's final margins over this thread's playouts.
    score_sum: f64,
    /// Per root child (by its offset among the root's children): the sum of
    /// Black's margins and the number of this thread's playouts through it.
    /// Kept apart from the nodes so the tree stays small; a reused tree's
    /// root children start again from zero here.
    root_scores: Vec<(f64, u32)>,
    playouts: u64,
}

impl Worker {
    /// A thread's state for searching `search`, its random stream seeded
    /// with `seed`.
    pub fn new(search: &Search, seed: u64) -> Worker {
        Worker {
            rng: FastRng::new(seed),
            reader: Reader::new(PLAYOUT_BUDGET),
            replies: Replies::new(),
            moves: Vec::new(),
            deep_reader: Reader::new(DEEP_BUDGET),
            ownership: vec![0.0; ownership_len(&search.root_board)],
            ownership_squares: vec![0.0; ownership_len(&search.root_board)],
            ownership_samples: 0,
            root_ownership: Vec::new(),
            score_sum: 0.0,
            root_scores: Vec::new(),
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

    /// Sum of Black's margins over this thread's playouts (divide by
    /// `ownership_samples` for the mean).
    pub fn score_sum(&self) -> f64 {
        self.score_sum
    }

    fn record_ownership(&mut self, board: &PlayoutBoard) {
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
type Step = (NodeId, u32);

impl Search {
    /// A fresh search at the game's current position, `to_move` to play.
    pub fn new(game: &Game, to_move: Color, params: SearchParams) -> Search {
        let size = game.size();
        let mut root_board = PlayoutBoard::new(size);
        for vertex in Vertex::all(size) {
            if let Some(color) = game.board().get(vertex) {
                root_board.set_stone(vertex, color);
            }
        }
        // The last two moves (a pass: none), as far back as the last
        // setup: a move before stones were placed is no move to answer.
        let mut recent = game.actions().iter().rev().map_while(|a| match a {
            Action::Move(_, mv) => Some(mv.vertex().map(|v| root_board.point(v))),
            Action::Setup(_) => None,
        });
        let root_last_move = recent.next().flatten();
        let root_last2_move = recent.next().flatten();
        let tree = Tree::new(params.max_nodes);
        let valuation = Valuation::new(
            params.margin_weight,
            params.margin_scale * size.points() as f32,
        );
        Search {
            params,
            valuation,
            tree,
            root_board,
            root_to_move: to_move,
            root_passes: game.consecutive_passes().min(1),
            root_last_move,
            root_last2_move,
            komi: game.komi() as f32,
            history: game.superko_keys().collect(),
            superko: game.superko(),
            filter: MoveFilter::default(),
            actions_seen: game.actions().to_vec(),
            move_ownership: false,
        }
    }

    /// The search with the ownership summed per root move too (`on`), for
    /// KataGo's `movesOwnership`: a second sum per playout, so only when
    /// asked.
    pub fn with_move_ownership(mut self, on: bool) -> Search {
        self.move_ownership = on;
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

    /// The komi the playouts are counted with: the game's, or the dynamic
    /// komi the player chose (`player::komi`).
    pub fn komi(&self) -> f32 {
        self.komi
    }

    /// The same search counting its playouts with `komi`.
    pub fn with_komi(mut self, komi: f32) -> Search {
        self.komi = komi;
        self
    }

    pub fn tree(&self) -> &Tree {
        &self.tree
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
            .map(|n| (n.mv(), n.playouts(), n.playout_win_rate()))
            .collect()
    }

    /// For each root child that `worker` played out: (move, sum of Black's
    /// margins, playouts counted).
    pub fn root_scores(&self, worker: &Worker) -> Vec<(Point, f64, u32)> {
        self.tree
            .children(Tree::ROOT)
            .zip(&worker.root_scores)
            .filter(|(_, &(_, count))| count > 0)
            .map(|(id, &(sum, count))| (self.tree.node(id).mv(), sum, count))
            .collect()
    }

    /// The prior of each root move, as its share of the virtual wins the
    /// tree's heuristics (shape, captures, nearness) hand out: a rough
    /// policy that sums to 1 over the root's moves.
    pub fn root_priors(&self) -> Vec<(Point, f32)> {
        let candidates = candidates(
            &self.params,
            &mut Reader::new(DEEP_BUDGET),
            &self.root_board,
            self.root_to_move,
            [self.root_last_move, self.root_last2_move],
        );
        let total: f32 = candidates.iter().map(|c| c.prior_wins).sum();
        candidates
            .iter()
            .map(|c| (c.mv, c.prior_wins / total.max(f32::MIN_POSITIVE)))
            .collect()
    }

    /// The principal variation that starts with the root move `first`: at
    /// each node the child with the most playouts, as long as one has any;
    /// each move with the playouts of the node it leads to (the tree is a
    /// tree: the visits of the position after it and of the move are one).
    /// Empty when `first` is not a root child.
    pub fn principal_variation(&self, first: Point, max_len: usize) -> Vec<(Point, u32)> {
        let Some(mut node) = self.tree.child_with_move(Tree::ROOT, first) else {
            return Vec::new();
        };
        let mut line = vec![(first, self.tree.node(node).playouts())];
        while line.len() < max_len {
            let best = self
                .tree
                .children(node)
                .filter(|&c| !self.tree.node(c).is_illegal() && self.tree.node(c).playouts() > 0)
                .max_by_key(|&c| self.tree.node(c).playouts());
            let Some(child) = best else { break };
            let c = self.tree.node(child);
            line.push((c.mv(), c.playouts()));
            node = child;
        }
        line
    }

    /// One iteration: descend, expand, play out, back up. False when a
    /// tree move was refused by superko, which ends it with no playout.
    fn iterate(&self, w: &mut Worker) -> bool {
        let mut board = self.root_board.clone();
        let mut amaf = [FIRST_NONE; super::playout_board::MAX_POINTS];
        // The iteration's moves for the last good replies, pass as PASS,
        // from the move before the root on.
        let mut moves = std::mem::take(&mut w.moves);
        moves.clear();
        moves.push(self.root_last_move.unwrap_or(PASS));
        // The root carries no virtual loss: no thread chooses it.
        let mut path: Vec<Step> = Vec::with_capacity(32);
        let mut path_hashes: Vec<u64> = Vec::with_capacity(32);
        let mut to_move = self.root_to_move;
        let mut passes = self.root_passes;
        let mut last_move = self.root_last_move;
        let mut node = Tree::ROOT;
        path.push((node, 0));
        let mut terminal = false;
        loop {
            let n = self.tree.node(node);
            if !n.is_expanded() {
                // This iteration's own virtual loss is no visit: one thread
                // expands exactly when it did before virtual losses. Those
                // of other threads count, as the visits they are about to be.
                let own = path.last().map_or(0, |&(_, loss)| loss);
                let playouts = n.playouts().saturating_sub(own);
                if node != Tree::ROOT && playouts < self.params.expand_visits {
                    break;
                }
                let expansion = self.tree.expand(node, || {
                    // The move before the last: the path's, or the root's.
                    let last2 = match moves.len() {
                        0 | 1 => self.root_last2_move,
                        n => Some(moves[n - 2]).filter(|&m| m != PASS),
                    };
                    let mut candidates = candidates(
                        &self.params,
                        &mut w.deep_reader,
                        &board,
                        to_move,
                        [last_move, last2],
                    );
                    if !self.filter.is_empty() {
                        let depth = path.len() - 1;
                        self.filter.retain(&mut candidates, &board, to_move, depth);
                    }
                    candidates
                });
                if expansion != Expansion::Expanded {
                    break;
                }
            }
            let Some(child) = self.select(node) else {
                break;
            };
            let c = self.tree.node(child);
            let mv = c.mv();
            if mv == PASS {
                board.pass();
                passes += 1;
                last_move = None;
                // A pass leaves a new situation (the colouring, the other
                // side to move) that situational superko remembers.
                if self.superko == Superko::Situational {
                    path_hashes.push(self.superko.key(board.hash(), to_move.opponent()));
                }
            } else {
                board.play(mv, to_move);
                passes = 0;
                let hash = self.superko.key(board.hash(), to_move.opponent());
                if self.history.contains(&hash) || path_hashes.contains(&hash) {
                    // A repetition: this child can never be played here.
                    c.mark_illegal();
                    for &(id, loss) in &path {
                        self.tree.node(id).remove_virtual_loss(loss);
                    }
                    w.moves = moves;
                    return false;
                }
                path_hashes.push(hash);
                if amaf[mv as usize] == FIRST_NONE {
                    amaf[mv as usize] = first_code(to_move);
                }
                last_move = Some(mv);
            }
            path.push((child, c.add_virtual_loss(self.params.virtual_loss)));
            moves.push(mv);
            node = child;
            to_move = to_move.opponent();
            if passes >= 2 {
                terminal = true;
                break;
            }
        }
        let mut mercy = None;
        if !terminal {
            if self.params.heavy_playouts {
                mercy = policy_playout(
                    &self.params.policy,
                    &mut board,
                    self.komi,
                    to_move,
                    last_move,
                    &mut w.rng,
                    &mut w.reader,
                    Some(&mut amaf[..]),
                    self.params
                        .last_good_reply
                        .then_some((&w.replies, &mut moves)),
                )
                .mercy;
            } else {
                light_playout(&mut board, to_move, &mut w.rng, Some(&mut amaf[..]));
            }
        }
        let score = board.score(self.komi);
        // A playout the mercy rule cut short is the leader's, whatever
        // the unfinished board counts; its board, where dead stones may
        // still stand, tells nothing of who owns what, nor the margin.
        if mercy.is_none() {
            w.record_ownership(&board);
            self.record_score(w, &path, score);
            if self.move_ownership {
                self.record_move_ownership(w, &path, &board);
            }
        }
        let winner = mercy.or_else(|| winner(score));
        let margin = mercy.is_none().then_some(score);
        let black_result = self.valuation.black_half_wins(winner, margin, &mut w.rng);
        self.back_up(&path, black_result, &amaf);
        if let (true, Some(winner)) = (self.params.last_good_reply, winner) {
            w.replies
                .learn(&moves, self.root_to_move.opponent(), winner);
        }
        w.moves = moves;
        w.playouts += 1;
        true
    }

    /// The child of `node` with the best RAVE-blended win rate.
    fn select(&self, node: NodeId) -> Option<NodeId> {
        let mut best = None;
        let mut best_value = f32::NEG_INFINITY;
        self.tree.child_nodes(node).for_each(|(child, c)| {
            if c.is_illegal() {
                return;
            }
            let value = self.value(c);
            if value > best_value {
                best_value = value;
                best = Some(child);
            }
        });
        best
    }

    /// The RAVE blend of a child's own win rate and its all-moves-as-first
    /// rate, the latter weighing less as real visits grow (Michi's form).
    /// Virtual losses under way count as lost visits.
    fn value(&self, child: &Node) -> f32 {
        let n = child.visits() as f32;
        let q = child.win_rate();
        let (amaf_visits, amaf_rate) = child.amaf();
        if amaf_visits == 0 {
            return q;
        }
        let rn = amaf_visits as f32;
        let beta = rn / (rn + n + n * rn / self.params.rave_equiv);
        (1.0 - beta) * q + beta * amaf_rate
    }

    fn record_score(&self, w: &mut Worker, path: &[Step], score: f32) {
        w.score_sum += score as f64;
        let Some(&(child, _)) = path.get(1) else {
            return;
        };
        let children = self.tree.children(Tree::ROOT);
        let index = (child - children.start) as usize;
        if w.root_scores.len() < children.len() {
            w.root_scores.resize(children.len(), (0.0, 0));
        }
        if let Some(entry) = w.root_scores.get_mut(index) {
            entry.0 += score as f64;
            entry.1 += 1;
        }
    }

    /// Adds the playout's owners to the sums of the root move it began
    /// with (`with_move_ownership`).
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

/// The moves a new node gets: every point where `to_move` may play that
/// is not one of its own eyes, and pass; each with a prior in virtual
/// playouts from the heuristics (nearness to the last move, shape,
/// tactics: captures, saves and ladders read out; self-ataris, escapes
/// into a working ladder and lonely edge moves discouraged).
fn candidates(
    p: &SearchParams,
    reader: &mut Reader,
    board: &PlayoutBoard,
    to_move: Color,
    [last_move, last2]: [Option<Point>; 2],
) -> Vec<Candidate> {
    let mut out = Vec::with_capacity(board.empty_points().len() + 1);
    let size = board.size();
    let (width, height) = (size.width as i32, size.height as i32);
    let last = last_move.map(|m| board.vertex(m));
    let tactics = Tactics::read(board, to_move, last_move, reader);
    let learned = (p.prior_learned > 0 && size.shorter_side() >= p.prior_learned_min_side)
        .then(|| Gammas::shipped(size));
    let recent = Recent {
        last,
        last2: last2.map(|m| board.vertex(m)),
    };
    let mut strengths = Vec::new();
    for &point in board.empty_points() {
        if board.is_eye(point, to_move) {
            continue;
        }
        let suicide = !board.is_playout_legal(point, to_move);
        if suicide && !(p.allow_suicide && is_multi_stone_suicide(board, point, to_move)) {
            continue;
        }
        let v = board.vertex(point);
        let mut visits = p.prior_even;
        let mut wins = p.prior_even as f32 / 2.0;
        if let Some(l) = last {
            let d = (v.col as i32 - l.col as i32).abs() + (v.row as i32 - l.row as i32).abs();
            if d <= 2 {
                visits += p.prior_near_last;
                wins += p.prior_near_last as f32;
            }
        }
        let line = (v.col as i32)
            .min(v.row as i32)
            .min(width - 1 - v.col as i32)
            .min(height - 1 - v.row as i32);
        // On a narrow board the edge is where the game is: only where both
        // sides are 9 or more is an empty first or second line a waste.
        if line <= 1 && size.shorter_side() >= 9 && is_empty_area(board, v) {
            visits += p.prior_empty_edge;
        }
        if (2..=3).contains(&line)
            && p.prior_opening_line > 0
            && size.shorter_side() >= MIN_OPENING_LINE_SIDE
            && is_empty_area(board, v)
        {
            visits += p.prior_opening_line;
            wins += p.prior_opening_line as f32;
        }
        if tactics.urgent.contains(&point) {
            visits += p.prior_capture;
            wins += p.prior_capture as f32;
        }
        if tactics.futile.contains(&point) {
            visits += p.prior_self_atari;
        }
        if patterns::matches(board.neighbourhood(point)) {
            visits += p.prior_pattern;
            wins += p.prior_pattern as f32;
        }
        if is_bad_self_atari(board, point, to_move, p.policy.throw_ins) {
            visits += p.prior_self_atari;
        }
        if suicide {
            // Legal and now and then right, but it surprises clients
            // and opponents: the search must really prefer it.
            visits += p.prior_suicide;
        }
        if let Some(gammas) = learned {
            strengths.push(gammas.strength(&features(board, point, to_move, recent)));
        }
        out.push(Candidate {
            mv: point,
            prior_visits: visits,
            prior_wins: wins,
        });
    }
    add_learned_prior(p, &mut out, &strengths);
    out.push(Candidate {
        mv: PASS,
        prior_visits: p.prior_even,
        prior_wins: p.prior_even as f32 / 2.0,
    });
    out
}

/// The learned prior (`gammas`) on top of the others: `prior_learned`
/// virtual playouts for each of `candidates` (the board points, pass not
/// among them), won at a rate that grows with the log of the move's share
/// of the candidates' total strength: 50% for an average share (1/n), up
/// to 50% more or less (by `prior_learned_slope`) for a share n times
/// the average or an n-th of it.
fn add_learned_prior(p: &SearchParams, candidates: &mut [Candidate], strengths: &[f32]) {
    let n = candidates.len();
    if strengths.len() != n || n < 2 {
        return;
    }
    let total: f32 = strengths.iter().sum();
    let scale = (n as f32).ln();
    for (c, &s) in candidates.iter_mut().zip(strengths) {
        let share = (s / total * n as f32).max(f32::MIN_POSITIVE);
        let rate = (0.5 + p.prior_learned_slope * share.ln() / scale).clamp(0.02, 0.98);
        c.prior_visits += p.prior_learned;
        c.prior_wins += p.prior_learned as f32 * rate;
    }
}

/// What tactical reading says about a position for the side to move.
struct Tactics {
    /// Captures anywhere, saves that work anywhere, and the two-liberty
    /// answers around the last move.
    urgent: Vec<Point>,
    /// Extensions of our strings in atari that a ladder still catches.
    futile: Vec<Point>,
}

impl Tactics {
    fn read(
        board: &PlayoutBoard,
        to_move: Color,
        last_move: Option<Point>,
        reader: &mut Reader,
    ) -> Tactics {
        let mut urgent = Vec::new();
        let mut futile = Vec::new();
        let mut seen = Vec::new();
        for &e in board.empty_points() {
            for q in board.adjacent(e) {
                if board.color_at(q).is_none() || seen.contains(&board.string_id(q)) {
                    continue;
                }
                let (liberties, liberty) = board.liberties_up_to_two(q);
                if liberties != 1 {
                    continue;
                }
                seen.push(board.string_id(q));
                if board.color_at(q) == Some(to_move) {
                    let before = urgent.len();
                    reader.saving_moves(board, q, &mut urgent);
                    if !urgent[before..].contains(&liberty) {
                        futile.push(liberty);
                    }
                } else if !urgent.contains(&liberty) {
                    urgent.push(liberty);
                }
            }
        }
        // The ataris around the last move are among those read above.
        if let Some(m) = last_move {
            two_liberty_answers(board, to_move, m, reader, &mut urgent);
        }
        futile.retain(|f| !urgent.contains(f));
        Tactics { urgent, futile }
    }
}

/// An empty point next to one of the mover's strings where the move is
/// not otherwise legal: playing it clears a string of two or more stones.
fn is_multi_stone_suicide(board: &PlayoutBoard, point: Point, color: Color) -> bool {
    board.ko() != Some(point)
        && board
            .adjacent(point)
            .iter()
            .any(|&n| board.color_at(n) == Some(color))
}

fn ownership_len(board: &PlayoutBoard) -> usize {
    let size = board.size();
    Vertex::all(size)
        .map(|v| board.point(v) as usize + 1)
        .max()
        .unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let search = Search::new(game, to_move, params);
        let mut worker = Worker::new(&search, 7);
        search.run(
            &mut worker,
            None,
            &AtomicU64::new(playouts),
            &AtomicBool::new(false),
        );
        search
    }

    #[test]
    fn the_learned_prior_rates_moves_by_their_share_of_the_strength() {
        let params = SearchParams {
            prior_learned: 20,
            prior_learned_slope: 0.5,
            ..SearchParams::default()
        };
        let mut candidates: Vec<Candidate> = (0..4)
            .map(|mv| Candidate {
                mv,
                prior_visits: 10,
                prior_wins: 5.0,
            })
            .collect();
        // Shares of the total of 4 candidates: 2.5, 1, 1/4 and 1/4 times
        // the average.
        add_learned_prior(&params, &mut candidates, &[2.5, 1.0, 0.25, 0.25]);
        let rates: Vec<f32> = candidates
            .iter()
            .map(|c| (c.prior_wins - 5.0) / (c.prior_visits - 10) as f32)
            .collect();
        // 50% and half the slope's log ratio more; the average 50%; an
        // n-th of it 0%, held to 2%.
        let expected = [0.5 + 0.5 * 2.5f32.ln() / 4f32.ln(), 0.5, 0.02, 0.02];
        for (rate, expected) in rates.iter().zip(expected) {
            assert!((rate - expected).abs() < 1e-4, "{rates:?}");
        }
        // With the strengths missing (the prior off): nothing added.
        let before: Vec<u32> = candidates.iter().map(|c| c.prior_visits).collect();
        add_learned_prior(&params, &mut candidates, &[1.0]);
        let after: Vec<u32> = candidates.iter().map(|c| c.prior_visits).collect();
        assert_eq!(before, after);
    }

    #[test]
    fn the_learned_prior_is_on_by_default_from_13x13_only() {
        let priors = |size: usize, params: &SearchParams| -> Vec<(u32, f32)> {
            let board = PlayoutBoard::new(size);
            candidates(
                params,
                &mut Reader::new(DEEP_BUDGET),
                &board,
                Color::Black,
                [None, None],
            )
            .iter()
            .map(|c| (c.prior_visits, c.prior_wins))
            .collect()
        };
        let off = SearchParams {
            prior_learned: 0,
            ..SearchParams::default()
        };
        let default = SearchParams::default();
        assert_eq!(priors(9, &default), priors(9, &off));
        assert_ne!(priors(13, &default), priors(13, &off));
        // Everywhere when asked for.
        let everywhere = SearchParams {
            prior_learned_min_side: 2,
            ..SearchParams::default()
        };
        assert_ne!(priors(9, &everywhere), priors(9, &off));
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
            prior_learned_min_side: 2,
            ..SearchParams::default()
        };
        let search = searched_with(&game, Color::Black, params, 3000);
        let c5 = search
            .board()
            .point(Vertex::parse_gtp("C5").expect("vertex"));
        assert_eq!(most_visited(&search), c5);
    }

    /// The best root move's rate after a search of `game` with the margin
    /// weighing `margin_weight` of a playout's value.
    fn best_rate_with_margin_weight(game: &Game, margin_weight: f32) -> f32 {
        let params = SearchParams {
            margin_weight,
            margin_scale: 1.0,
            ..SearchParams::default()
        };
        let search = searched_with(game, Color::Black, params, 2000);
        let best = most_visited(&search);
        let (_, _, rate) = search
            .root_children()
            .into_iter()
            .find(|&(mv, _, _)| mv == best)
            .expect("best move");
        rate
    }

    #[test]
    fn with_a_margin_weight_a_larger_lead_is_worth_more() {
        // 5x5: a Black wall across the middle row, nothing of White's: Black
        // owns the board whatever the playouts do there, winning by 35 at
        // komi -10 and by 15 at komi 10.
        let wall = ["A3", "B3", "C3", "D3", "E3"];
        let by_35 = game_with(5, -10.0, &wall, &[]);
        let by_15 = game_with(5, 10.0, &wall, &[]);
        // Counting wins only, both are won outright.
        let (plain_35, plain_15) = (
            best_rate_with_margin_weight(&by_35, 0.0),
            best_rate_with_margin_weight(&by_15, 0.0),
        );
        assert!(plain_35 > 0.95 && plain_15 > 0.95, "{plain_35} {plain_15}");
        assert!((plain_35 - plain_15).abs() < 0.01, "{plain_35} {plain_15}");
        // With a fifth of the value from the margin (the whole of it at 25
        // points), the larger lead rates higher: by 0.2 x 0.2 for the
        // playouts, less for the prior's share.
        let (weighted_35, weighted_15) = (
            best_rate_with_margin_weight(&by_35, 0.2),
            best_rate_with_margin_weight(&by_15, 0.2),
        );
        assert!(
            weighted_35 > weighted_15 + 0.02,
            "{weighted_35} {weighted_15}"
        );
        assert!(weighted_15 > 0.8, "{weighted_15}");
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
        let search = Search::new(&game, Color::Black, params);
        let mut workers: Vec<Worker> = (1..=3).map(|seed| Worker::new(&search, seed)).collect();
        let left = AtomicU64::new(3000);
        super::super::run_threads(&search, &mut workers, None, &left, &AtomicBool::new(false));
        assert_eq!(left.load(Ordering::Relaxed), 0);
        let playouts: u64 = workers.iter().map(Worker::playouts).sum();
        assert_eq!(playouts, 3000);
        let tree = search.tree();
        assert_eq!(tree.node(Tree::ROOT).playouts() as u64, playouts);
        let scored: u64 = workers
            .iter()
            .flat_map(|w| search.root_scores(w))
            .map(|(_, _, count)| count as u64)
            .sum();
        let through_children: u64 = tree
            .children(Tree::ROOT)
            .map(|c| tree.node(c).playouts() as u64)
            .sum();
        // Every playout's margin is counted, but those the mercy rule cut
        // short (their boards are unfinished).
        if search.params.policy.mercy > 0.0 {
            assert!(scored <= through_children, "{scored} {through_children}");
        } else {
            assert_eq!(scored, through_children);
        }
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
