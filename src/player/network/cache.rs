//! Wrappers over any evaluator: `Timed` measures what an evaluation costs,
//! `Cached` keeps its answers so that the root, the pass check's second
//! search, pondering and the turns of an analysis reuse an evaluation
//! rather than run it again. A player evaluates through both, one
//! `SharedEvaluator` its threads share.

use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use super::backend;
use super::evaluator::{Evaluation, Evaluator, Heads, Position, Scratch};
use super::forward::Network;
use super::model::Model;
use super::planes::RecentMoves;
use crate::game::{BoardSize, Color};
use crate::player::board::{PlayoutBoard, Point};

/// What a player evaluates with: a backend, its cost measured, behind a
/// cache its threads share.
pub type SharedEvaluator = Cached<Timed<Box<dyn Evaluator>>>;

/// `backend` timed and cached, for a player.
pub fn shared(backend: Box<dyn Evaluator>) -> Arc<SharedEvaluator> {
    Arc::new(Cached::new(Timed::new(backend)))
}

/// The network shipped with hane: what a player evaluates with unless
/// told otherwise.
pub fn shipped_evaluator() -> Arc<SharedEvaluator> {
    let backend = backend::build(Model::shipped()).unwrap_or_else(|why| {
        log::warn!("network: {why}: on fp32");
        Box::new(Network::shipped())
    });
    log::debug!("network: {}", backend.description());
    shared(backend)
}

/// The network of a weights file's bytes, timed and cached, or why they
/// cannot be used (`frontend::weights_file` reads the file).
pub fn evaluator_from_bytes(bytes: &[u8]) -> Result<Arc<SharedEvaluator>, String> {
    let model = Model::from_bytes(bytes).map_err(|e| e.to_string())?;
    Ok(shared(backend::build(model)?))
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

/// An evaluator whose evaluations are timed: a large network file can cost
/// a second a position, and a search on a short clock must know that
/// before it asks.
pub struct Timed<E> {
    inner: E,
    /// Nanoseconds an evaluation takes per point of the board, a moving
    /// average over the evaluations run.
    nanos_per_point: AtomicU64,
}

impl<E: Evaluator> Timed<E> {
    /// `inner`, its cost measured on one evaluation of the empty 19x19
    /// board after an untimed one. The first evaluation of a process pays
    /// for cold caches and the scratch's allocation: timed alone on 9x9 it
    /// read 12 ms a 19x19 evaluation against the 5 ms it takes, and a 60 s
    /// sudden-death 19x19 game (about 200 ms a move, under 20 evaluations
    /// at 12 ms) then went without the network from its first move to its
    /// last, since an evaluation never run never corrects the average.
    pub fn new(inner: E) -> Timed<E> {
        let timed = Timed {
            inner,
            nanos_per_point: AtomicU64::new(0),
        };
        let mut board = PlayoutBoard::new(BoardSize::square(19));
        let mut scratch = Scratch::new();
        timed
            .inner
            .evaluate(Position::black_first(&mut board), &mut scratch);
        timed.evaluate(Position::black_first(&mut board), &mut scratch);
        timed
    }

    /// What one evaluation of a board of `points` points costs, as far as
    /// it has been measured.
    pub fn cost(&self, points: usize) -> Option<Duration> {
        let per_point = self.nanos_per_point.load(Ordering::Relaxed);
        (per_point > 0).then(|| Duration::from_nanos(per_point.saturating_mul(points as u64)))
    }

    /// The evaluator it times.
    pub fn inner(&self) -> &E {
        &self.inner
    }
}

impl<E: Evaluator> Evaluator for Timed<E> {
    fn evaluate(&self, position: Position<'_>, scratch: &mut Scratch) -> Arc<Evaluation> {
        let start = Instant::now();
        let points = position.board.size().points().max(1) as u64;
        let evaluation = self.inner.evaluate(position, scratch);
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

    fn description(&self) -> String {
        self.inner.description()
    }

    fn heads(&self) -> Heads {
        self.inner.heads()
    }
}

/// What an evaluator reads of a position, and so what an evaluation is
/// cached under: the colouring (its hash, and the board's size, since an
/// empty board hashes the same on every size), the side to move, the
/// simple-ko point, the recent moves and the komi. The planes are a
/// function of these alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct PositionKey {
    colouring: u64,
    width: usize,
    height: usize,
    to_move: Color,
    ko: Option<Point>,
    recent: RecentMoves,
    komi_bits: u32,
}

impl PositionKey {
    fn of(position: &Position<'_>) -> PositionKey {
        let board = &position.board;
        let size = board.size();
        PositionKey {
            colouring: board.hash(),
            width: size.width,
            height: size.height,
            to_move: position.to_move,
            ko: board.ko(),
            recent: *position.recent,
            komi_bits: position.komi.to_bits(),
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
pub struct Cached<E> {
    inner: E,
    slots: Vec<Slot>,
    lookups: AtomicU64,
    hits: AtomicU64,
}

impl<E: Evaluator> Cached<E> {
    /// `inner` with an empty cache.
    pub fn new(inner: E) -> Cached<E> {
        Cached {
            inner,
            slots: (0..CACHE_SLOTS).map(|_| Mutex::new(None)).collect(),
            lookups: AtomicU64::new(0),
            hits: AtomicU64::new(0),
        }
    }

    /// How often it answered.
    pub fn cache_use(&self) -> CacheUse {
        CacheUse {
            lookups: self.lookups.load(Ordering::Relaxed),
            hits: self.hits.load(Ordering::Relaxed),
        }
    }

    /// Forgets what it holds (KataGo's `clear_cache`, so that a client can
    /// time or compare fresh evaluations).
    pub fn clear(&self) {
        for slot in &self.slots {
            *lock(slot) = None;
        }
    }

    /// The evaluator it caches.
    pub fn inner(&self) -> &E {
        &self.inner
    }

    fn slot(&self, key: &PositionKey) -> &Slot {
        &self.slots[key.slot(self.slots.len())]
    }
}

impl<E: Evaluator> std::fmt::Debug for Cached<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Cached({})", self.inner.description())
    }
}

impl Cached<Timed<Box<dyn Evaluator>>> {
    /// What one evaluation of a board of `points` points costs, as far as
    /// it has been measured (a cached one costs nothing).
    pub fn cost(&self, points: usize) -> Option<Duration> {
        self.inner.cost(points)
    }

    /// The backend behind the cache and the timing: what a benchmark times.
    pub fn backend(&self) -> &dyn Evaluator {
        &**self.inner.inner()
    }
}

impl<E: Evaluator> Evaluator for Cached<E> {
    fn evaluate(&self, position: Position<'_>, scratch: &mut Scratch) -> Arc<Evaluation> {
        let key = PositionKey::of(&position);
        self.lookups.fetch_add(1, Ordering::Relaxed);
        let slot = self.slot(&key);
        let cached = lock(slot).clone();
        if let Some((k, evaluation)) = cached {
            if k == key {
                self.hits.fetch_add(1, Ordering::Relaxed);
                return evaluation;
            }
        }
        let evaluation = self.inner.evaluate(position, scratch);
        let entry = Some((key, Arc::clone(&evaluation)));
        *lock(slot) = entry;
        evaluation
    }

    fn description(&self) -> String {
        self.inner.description()
    }

    fn heads(&self) -> Heads {
        self.inner.heads()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Vertex;
    use crate::player::network::uniform::Uniform;

    fn board_with(size: usize, stones: &[(&str, Color)]) -> PlayoutBoard {
        let mut board = PlayoutBoard::new(BoardSize::square(size));
        for &(v, color) in stones {
            let vertex = Vertex::parse_gtp(v).expect("vertex");
            board.play(board.point(vertex), color);
        }
        board
    }

    fn ask<E: Evaluator>(
        evaluator: &E,
        board: &mut PlayoutBoard,
        to_move: Color,
        recent: &RecentMoves,
        komi: f32,
        scratch: &mut Scratch,
    ) -> Arc<Evaluation> {
        let position = Position {
            board,
            to_move,
            recent,
            komi,
        };
        evaluator.evaluate(position, scratch)
    }

    #[test]
    fn the_cache_answers_a_position_it_has_seen_and_no_other() {
        let cached = Cached::new(Network::shipped());
        let mut scratch = Scratch::new();
        let mut board = board_with(19, &[("D4", Color::Black), ("Q16", Color::White)]);
        let recent = [
            Some(board.point(Vertex::parse_gtp("Q16").expect("v"))),
            None,
            None,
            None,
        ];
        let first = ask(
            &cached,
            &mut board,
            Color::Black,
            &recent,
            7.5,
            &mut scratch,
        );
        let again = ask(
            &cached,
            &mut board,
            Color::Black,
            &recent,
            7.5,
            &mut scratch,
        );
        assert!(Arc::ptr_eq(&first, &again));
        assert_eq!(
            cached.cache_use(),
            CacheUse {
                lookups: 2,
                hits: 1
            }
        );
        // The same stones with the other side to move, other recent moves,
        // another komi or on another board size are other positions.
        let white = ask(
            &cached,
            &mut board,
            Color::White,
            &recent,
            7.5,
            &mut scratch,
        );
        let none = [None; 4];
        let no_recent = ask(&cached, &mut board, Color::Black, &none, 7.5, &mut scratch);
        assert_ne!(first.logits, white.logits);
        assert_ne!(first.logits, no_recent.logits);
        let other_komi = ask(
            &cached,
            &mut board,
            Color::Black,
            &recent,
            0.5,
            &mut scratch,
        );
        assert!(!Arc::ptr_eq(&first, &other_komi));
        let mut small = PlayoutBoard::new(BoardSize::square(9));
        let mut large = PlayoutBoard::new(BoardSize::square(13));
        let a = ask(&cached, &mut small, Color::Black, &none, 7.5, &mut scratch);
        let b = ask(&cached, &mut large, Color::Black, &none, 7.5, &mut scratch);
        assert_eq!((a.logits.len(), b.logits.len()), (82, 170));
        assert_eq!(cached.cache_use().hits, 1);
        // What the cache answers is what the network says.
        let network = Network::shipped();
        let plain = ask(
            &network,
            &mut board,
            Color::Black,
            &recent,
            7.5,
            &mut scratch,
        );
        assert_eq!(*plain, *first);
        // Cleared, it answers nothing it held.
        cached.clear();
        let fresh = ask(
            &cached,
            &mut board,
            Color::Black,
            &recent,
            7.5,
            &mut scratch,
        );
        assert!(!Arc::ptr_eq(&first, &fresh));
        assert_eq!(*fresh, *first);
    }

    #[test]
    fn a_timed_evaluator_knows_its_cost_and_a_cache_hit_adds_none() {
        let shared = shared(Box::new(Uniform::default()));
        assert!(shared.cost(361).is_some_and(|c| c > Duration::ZERO));
        assert_eq!(
            shared.backend().description(),
            Uniform::default().description()
        );
        let mut board = PlayoutBoard::new(BoardSize::square(9));
        let mut scratch = Scratch::new();
        let none = [None; 4];
        ask(&*shared, &mut board, Color::Black, &none, 7.5, &mut scratch);
        ask(&*shared, &mut board, Color::Black, &none, 7.5, &mut scratch);
        assert_eq!(
            shared.cache_use(),
            CacheUse {
                lookups: 2,
                hits: 1
            }
        );
    }

    #[test]
    fn bytes_that_are_no_network_say_why() {
        let error = evaluator_from_bytes(b"HANEPOL1").err();
        assert_eq!(error.as_deref(), Some("not a hane policy network file"));
        let shipped = include_bytes!("../../../data/policy-net.bin");
        let evaluator = evaluator_from_bytes(shipped).expect("the shipped file");
        let heads = evaluator.heads();
        assert!(heads.ownership && heads.value);
    }
}
