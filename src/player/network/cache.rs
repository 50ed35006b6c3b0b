//! The evaluations a player's threads share: a fixed table that the
//! root, the pass check's second search, pondering, the turns of an
//! analysis and the orientations of a symmetric judgement look up before
//! they run the network. `SharedEvaluator` (`shared`) asks it; nothing
//! else does.

use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use super::evaluator::{Evaluation, Position};
use super::planes::RecentMoves;
use crate::game::Color;
use crate::player::board::Point;

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

/// What an evaluator reads of a position, and so what an evaluation is
/// cached under: the colouring (its hash, and the board's size, since an
/// empty board hashes the same on every size), the side to move, the
/// simple-ko point, the recent moves and the komi. The planes are a
/// function of these alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PositionKey {
    colouring: u64,
    width: usize,
    height: usize,
    to_move: Color,
    ko: Option<Point>,
    recent: RecentMoves,
    komi_bits: u32,
}

impl PositionKey {
    pub fn of(position: &Position<'_>) -> PositionKey {
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

/// A cache of evaluations: a fixed table of slots, each position in the
/// one its key hashes to, a newer position replacing an older one there.
/// A slot's lock is held only to copy a pointer in or out.
pub struct EvaluationCache {
    slots: Vec<Slot>,
    lookups: AtomicU64,
    hits: AtomicU64,
}

impl Default for EvaluationCache {
    fn default() -> EvaluationCache {
        EvaluationCache {
            slots: (0..CACHE_SLOTS).map(|_| Mutex::new(None)).collect(),
            lookups: AtomicU64::new(0),
            hits: AtomicU64::new(0),
        }
    }
}

impl EvaluationCache {
    /// The evaluation held for `key`, counted as a lookup (and a hit).
    pub fn get(&self, key: &PositionKey) -> Option<Arc<Evaluation>> {
        self.lookups.fetch_add(1, Ordering::Relaxed);
        let held = lock(self.slot(key)).clone();
        let (k, evaluation) = held?;
        (k == *key).then(|| {
            self.hits.fetch_add(1, Ordering::Relaxed);
            evaluation
        })
    }

    /// Keeps `evaluation` as `key`'s, in place of what its slot held.
    pub fn put(&self, key: PositionKey, evaluation: &Arc<Evaluation>) {
        *lock(self.slot(&key)) = Some((key, Arc::clone(evaluation)));
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

    fn slot(&self, key: &PositionKey) -> &Slot {
        &self.slots[key.slot(self.slots.len())]
    }
}
