//! "Evaluate this position": the one interface the search asks a network
//! through (`Evaluator`), what it answers (`Evaluation`), and the cache of
//! answers (`CachedEvaluator`) that the player owns and its threads share,
//! so that the root, the pass check's second search, pondering and the
//! turns of an analysis reuse an evaluation rather than run it again.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use super::forward::{EvalScratch, Network};
use super::planes::RecentMoves;
use crate::game::Color;
use crate::player::board::{PlayoutBoard, Point};

/// What an evaluator says of a position, for the side to move.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// One logit per point in `BoardSize::index` order, then pass's.
    pub logits: Vec<f32>,
    /// The side to move's chance of winning, where the evaluator judges
    /// positions (a value head); None where it only ranks moves.
    pub win_chance: Option<f32>,
    /// Per point in `BoardSize::index` order, who owns it at the game's
    /// end, from -1 (the opponent) to +1 (the side to move), where the
    /// evaluator has an ownership head.
    pub ownership: Option<Vec<f32>>,
}

impl Evaluation {
    /// The side to move's expected area less the opponent's at the game's
    /// end (komi not taken off): the ownership summed over the board.
    pub fn area_difference(&self) -> Option<f32> {
        self.ownership.as_ref().map(|o| o.iter().sum())
    }
}

/// How often a cache answered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheUse {
    pub lookups: u64,
    pub hits: u64,
}

impl CacheUse {
    /// The uses since `earlier`.
    pub fn since(self, earlier: CacheUse) -> CacheUse {
        CacheUse {
            lookups: self.lookups.saturating_sub(earlier.lookups),
            hits: self.hits.saturating_sub(earlier.hits),
        }
    }
}

/// Evaluates positions: a network, cached or not, or anything that ranks
/// moves and judges positions in its place.
pub trait Evaluator: Send + Sync {
    /// `to_move`'s position on `board` (left as it was), `recent` the
    /// moves before it, the most recent first; `scratch` is the calling
    /// thread's buffers.
    fn evaluate(
        &self,
        board: &mut PlayoutBoard,
        to_move: Color,
        recent: &RecentMoves,
        scratch: &mut EvalScratch,
    ) -> Arc<Evaluation>;

    /// What it is, in words, for the log and for clients that ask.
    fn description(&self) -> String;

    /// Whether its evaluations carry a win chance.
    fn has_value(&self) -> bool;

    /// Whether its evaluations carry each point's owner (an ownership
    /// head); most evaluators have none.
    fn has_ownership(&self) -> bool {
        false
    }

    /// How often its cache answered, where it has one.
    fn cache_use(&self) -> Option<CacheUse> {
        None
    }

    /// The evaluator behind any cache: what a benchmark times.
    fn uncached(&self) -> &dyn Evaluator;

    /// What one evaluation of a board of `points` points costs, as far as
    /// it has been measured: what a search on a short clock weighs before
    /// it asks for one.
    fn cost(&self, points: usize) -> Option<Duration> {
        let _ = points;
        None
    }

    /// Forgets what its cache holds, where it has one (KataGo's
    /// `clear_cache`, so that a client can time or compare fresh
    /// evaluations).
    fn clear_cache(&self) {}
}

impl fmt::Debug for dyn Evaluator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Evaluator({})", self.description())
    }
}

/// A logit to its probability.
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// An evaluation with only numbers in it. Weights checked finite can
/// still overflow (a file of huge weights): a logit that is not a number
/// becomes the lowest (its move never preferred), all of them 0 (no
/// preference), and a win chance that is not a number none, so that no
/// client is ever shown NaN.
fn finite(mut evaluation: Evaluation) -> Evaluation {
    if evaluation.logits.iter().all(|l| !l.is_finite()) {
        evaluation.logits.fill(0.0);
    }
    for logit in &mut evaluation.logits {
        if !logit.is_finite() {
            *logit = f32::MIN;
        }
    }
    evaluation.win_chance = evaluation.win_chance.filter(|w| w.is_finite());
    evaluation.ownership = evaluation
        .ownership
        .filter(|o| o.iter().all(|v| v.is_finite()));
    evaluation
}

/// What the bytes of a weights file hold, in words (its blocks, channels
/// and any value head), or why they are refused: the whole check a file
/// gets when it is loaded, for tools and the fuzzer.
pub fn describe_weights(bytes: &[u8]) -> Result<String, String> {
    Network::from_bytes(bytes)
        .map(|network| network.description())
        .map_err(|e| e.to_string())
}

/// The evaluation of the empty board of `size` by the network of a
/// weights file's bytes (None when they are refused): for the fuzzer,
/// which checks that any file the loader takes evaluates to numbers.
pub fn evaluate_weights_on_empty_board(bytes: &[u8], size: usize) -> Option<Evaluation> {
    let network = Network::from_bytes(bytes).ok()?;
    let mut board = PlayoutBoard::new(crate::game::BoardSize::square(size));
    let evaluation = network.evaluate(
        &mut board,
        Color::Black,
        &[None; 4],
        &mut EvalScratch::new(),
    );
    Some((*evaluation).clone())
}

impl Evaluator for Network {
    fn evaluate(
        &self,
        board: &mut PlayoutBoard,
        to_move: Color,
        recent: &RecentMoves,
        scratch: &mut EvalScratch,
    ) -> Arc<Evaluation> {
        let output = self.run(scratch, board, to_move, recent);
        Arc::new(finite(Evaluation {
            logits: output.logits,
            win_chance: output.value_logit.map(sigmoid),
            ownership: output.ownership,
        }))
    }

    fn description(&self) -> String {
        Network::description(self)
    }

    fn has_value(&self) -> bool {
        Network::has_value(self)
    }

    fn has_ownership(&self) -> bool {
        self.ownership.is_some()
    }

    fn uncached(&self) -> &dyn Evaluator {
        self
    }
}

/// What a network reads of a position, and so what an evaluation is
/// cached under: the colouring (its hash, and the board's size, since an
/// empty board hashes the same on every size), the side to move, the
/// simple-ko point and the recent moves. The planes are a function of
/// these alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct PositionKey {
    colouring: u64,
    width: usize,
    height: usize,
    to_move: Color,
    ko: Option<Point>,
    recent: RecentMoves,
}

impl PositionKey {
    fn of(board: &PlayoutBoard, to_move: Color, recent: &RecentMoves) -> PositionKey {
        let size = board.size();
        PositionKey {
            colouring: board.hash(),
            width: size.width,
            height: size.height,
            to_move,
            ko: board.ko(),
            recent: *recent,
        }
    }

    /// A slot's index, spread over the whole key.
    fn slot(&self, slots: usize) -> usize {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        self.hash(&mut hasher);
        (hasher.finish() % slots as u64) as usize
    }
}

/// Evaluations this many positions back are kept: on 19x19 about 1.5 KB
/// each for the policy's logits, about 2.9 KB with an ownership head's
/// grid (the shipped network has one), so some 24 MB when every slot is
/// full (a long analysis or a game's worth of genmoves; docs/robustness.md,
/// "Memory"), a few hundred KB for one genmove's search.
const CACHE_SLOTS: usize = 8192;

type Slot = Mutex<Option<(PositionKey, Arc<Evaluation>)>>;

/// A slot's lock. One that a panicking thread left poisoned holds a whole
/// pointer still: the lock guards nothing half-written.
fn lock(slot: &Slot) -> MutexGuard<'_, Option<(PositionKey, Arc<Evaluation>)>> {
    slot.lock().unwrap_or_else(PoisonError::into_inner)
}

/// An evaluator with a cache of its answers in front: a fixed table of
/// slots, each position in the one its key hashes to, a newer position
/// replacing an older one there. Shared by every thread of a player (and
/// every player made from one configuration); a slot's lock is held only
/// to copy a pointer in or out.
///
/// It also keeps the cost of an evaluation, measured on each it runs: a
/// large network file can cost a second a position, and a search on a
/// short clock must know that before it asks.
pub struct CachedEvaluator<E> {
    inner: E,
    slots: Vec<Slot>,
    lookups: AtomicU64,
    hits: AtomicU64,
    /// Nanoseconds an evaluation takes per point of the board, a moving
    /// average over the evaluations run.
    nanos_per_point: AtomicU64,
}

impl<E: Evaluator> CachedEvaluator<E> {
    /// `inner` with an empty cache, its cost measured on one evaluation of
    /// the empty 19x19 board after an untimed one. The first evaluation of
    /// a process pays for cold caches and the scratch's allocation: timed
    /// alone on 9x9 it read 12 ms a 19x19 evaluation against the 5 ms it
    /// takes, and a 60 s sudden-death 19x19 game (about 200 ms a move, under
    /// 20 evaluations at 12 ms) then went without the network from its first
    /// move to its last, since an evaluation never run never corrects the
    /// average.
    pub fn new(inner: E) -> CachedEvaluator<E> {
        let cached = CachedEvaluator {
            inner,
            slots: (0..CACHE_SLOTS).map(|_| Mutex::new(None)).collect(),
            lookups: AtomicU64::new(0),
            hits: AtomicU64::new(0),
            nanos_per_point: AtomicU64::new(0),
        };
        let mut board = PlayoutBoard::new(crate::game::BoardSize::square(19));
        let mut scratch = EvalScratch::new();
        cached
            .inner
            .evaluate(&mut board, Color::Black, &[None; 4], &mut scratch);
        cached.run_timed(&mut board, Color::Black, &[None; 4], &mut scratch);
        cached
    }

    /// The inner evaluation, its time added to the cost's average.
    fn run_timed(
        &self,
        board: &mut PlayoutBoard,
        to_move: Color,
        recent: &RecentMoves,
        scratch: &mut EvalScratch,
    ) -> Arc<Evaluation> {
        let start = Instant::now();
        let evaluation = self.inner.evaluate(board, to_move, recent, scratch);
        let points = board.size().points().max(1) as u64;
        let per_point = (start.elapsed().as_nanos() as u64 / points).max(1);
        // Races between threads lose an update at worst.
        let old = self.nanos_per_point.load(Ordering::Relaxed);
        let average = if old == 0 {
            per_point
        } else {
            (3 * old + per_point) / 4
        };
        self.nanos_per_point.store(average, Ordering::Relaxed);
        evaluation
    }

    fn slot(&self, key: &PositionKey) -> &Slot {
        &self.slots[key.slot(self.slots.len())]
    }
}

impl<E: Evaluator> Evaluator for CachedEvaluator<E> {
    fn evaluate(
        &self,
        board: &mut PlayoutBoard,
        to_move: Color,
        recent: &RecentMoves,
        scratch: &mut EvalScratch,
    ) -> Arc<Evaluation> {
        let key = PositionKey::of(board, to_move, recent);
        self.lookups.fetch_add(1, Ordering::Relaxed);
        let slot = self.slot(&key);
        let cached = lock(slot).clone();
        if let Some((k, evaluation)) = cached {
            if k == key {
                self.hits.fetch_add(1, Ordering::Relaxed);
                return evaluation;
            }
        }
        let evaluation = self.run_timed(board, to_move, recent, scratch);
        let entry = Some((key, Arc::clone(&evaluation)));
        *lock(slot) = entry;
        evaluation
    }

    fn description(&self) -> String {
        self.inner.description()
    }

    fn has_value(&self) -> bool {
        self.inner.has_value()
    }

    fn has_ownership(&self) -> bool {
        self.inner.has_ownership()
    }

    fn cache_use(&self) -> Option<CacheUse> {
        Some(CacheUse {
            lookups: self.lookups.load(Ordering::Relaxed),
            hits: self.hits.load(Ordering::Relaxed),
        })
    }

    fn uncached(&self) -> &dyn Evaluator {
        self.inner.uncached()
    }

    fn cost(&self, points: usize) -> Option<Duration> {
        let per_point = self.nanos_per_point.load(Ordering::Relaxed);
        (per_point > 0).then(|| Duration::from_nanos(per_point.saturating_mul(points as u64)))
    }

    fn clear_cache(&self) {
        for slot in &self.slots {
            *lock(slot) = None;
        }
    }
}

/// The network shipped with hane, behind a cache of its own: what a
/// player evaluates with unless told otherwise.
pub fn shipped_evaluator() -> Arc<dyn Evaluator> {
    let network = Network::shipped();
    log::debug!("network: {}", network.description());
    Arc::new(CachedEvaluator::new(network))
}

/// The network of a weights file's bytes, behind a cache of its own, or
/// why they cannot be used (`frontend::weights_file` reads the file).
pub fn evaluator_from_bytes(bytes: &[u8]) -> Result<Arc<dyn Evaluator>, String> {
    let network = Network::from_bytes(bytes).map_err(|e| e.to_string())?;
    Ok(Arc::new(CachedEvaluator::new(network)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{BoardSize, Vertex};

    fn board_with(size: usize, stones: &[(&str, Color)]) -> PlayoutBoard {
        let mut board = PlayoutBoard::new(BoardSize::square(size));
        for &(v, color) in stones {
            let vertex = Vertex::parse_gtp(v).expect("vertex");
            board.play(board.point(vertex), color);
        }
        board
    }

    #[test]
    fn the_cache_answers_a_position_it_has_seen_and_no_other() {
        let cached = CachedEvaluator::new(Network::shipped());
        let mut scratch = EvalScratch::new();
        let mut board = board_with(19, &[("D4", Color::Black), ("Q16", Color::White)]);
        let recent = [
            Some(board.point(Vertex::parse_gtp("Q16").expect("v"))),
            None,
            None,
            None,
        ];
        let first = cached.evaluate(&mut board, Color::Black, &recent, &mut scratch);
        let again = cached.evaluate(&mut board, Color::Black, &recent, &mut scratch);
        assert!(Arc::ptr_eq(&first, &again));
        assert_eq!(
            cached.cache_use(),
            Some(CacheUse {
                lookups: 2,
                hits: 1
            })
        );
        // The same stones with the other side to move, other recent moves
        // or on another board size are other positions to the network.
        let white = cached.evaluate(&mut board, Color::White, &recent, &mut scratch);
        let no_recent = cached.evaluate(&mut board, Color::Black, &[None; 4], &mut scratch);
        assert_ne!(first.logits, white.logits);
        assert_ne!(first.logits, no_recent.logits);
        let mut small = PlayoutBoard::new(BoardSize::square(9));
        let mut large = PlayoutBoard::new(BoardSize::square(13));
        let a = cached.evaluate(&mut small, Color::Black, &[None; 4], &mut scratch);
        let b = cached.evaluate(&mut large, Color::Black, &[None; 4], &mut scratch);
        assert_eq!((a.logits.len(), b.logits.len()), (82, 170));
        assert_eq!(cached.cache_use().map(|u| u.hits), Some(1));
        // What the cache answers is what the network says.
        let plain = Network::shipped().evaluate(&mut board, Color::Black, &recent, &mut scratch);
        assert_eq!(*plain, *first);
    }

    #[test]
    fn the_win_chance_is_the_value_logits_sigmoid() {
        assert!((sigmoid(0.0) - 0.5).abs() < 1e-6);
        assert!(sigmoid(4.0) > 0.98 && sigmoid(-4.0) < 0.02);
        let mut board = PlayoutBoard::new(BoardSize::square(9));
        let evaluation = Network::shipped().evaluate(
            &mut board,
            Color::Black,
            &[None; 4],
            &mut EvalScratch::new(),
        );
        assert_eq!(
            evaluation.win_chance.is_some(),
            Network::shipped().has_value()
        );
    }

    #[test]
    fn an_evaluation_that_overflows_holds_numbers_only() {
        let evaluation = finite(Evaluation {
            logits: vec![1.0, f32::INFINITY, f32::NAN, -2.0],
            win_chance: Some(f32::NAN),
            ownership: Some(vec![0.5, f32::NAN]),
        });
        assert_eq!(evaluation.logits, [1.0, f32::MIN, f32::MIN, -2.0]);
        assert_eq!(evaluation.win_chance, None);
        assert_eq!(evaluation.ownership, None);
        let all_bad = finite(Evaluation {
            logits: vec![f32::NAN; 3],
            win_chance: Some(0.25),
            ownership: Some(vec![1.0, -0.5, 0.25]),
        });
        assert_eq!(all_bad.logits, [0.0; 3]);
        assert_eq!(all_bad.win_chance, Some(0.25));
        assert_eq!(all_bad.area_difference(), Some(0.75));
    }

    #[test]
    fn bytes_that_are_no_network_say_why() {
        let error = evaluator_from_bytes(b"HANEPOL1").err();
        assert_eq!(error.as_deref(), Some("not a hane policy network file"));
        let shipped = include_bytes!("../../../data/policy-net.bin");
        let evaluator = evaluator_from_bytes(shipped).expect("the shipped file");
        assert!(evaluator.has_ownership() && evaluator.has_value());
    }
}
