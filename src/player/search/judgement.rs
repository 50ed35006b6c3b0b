//! The network's judgement kept in the tree: each node's own judgement of
//! its position (Black's area difference, komi not taken off, and Black's
//! winning chance at the game's komi, where the network gives each), and
//! the sums over the playouts through the node of the judgement each of
//! them met deepest on its way down, added in the same backup as the
//! node's wins (KataGo's nodes carry their value and score averages the
//! same way). The report reads a node's averages; nothing is rebuilt at
//! report time.
//!
//! A playout counts at the deepest judged node of its path: the network is
//! asked at a node before any below it (a node reaches the threshold before
//! its children), so that node's judgement is the most informed one the
//! playout saw. It is added to that node and the nodes above it, not to
//! those below (the judgement of the position before their move is none of
//! theirs); a node's average is over the playouts judged at or below it.
//!
//! The two instruments are kept apart: a network with an ownership head
//! but no value head judges areas alone, and a finished game is judged by
//! its count, where the value is its result.

use std::sync::atomic::{AtomicI64, AtomicU32, Ordering};

/// Relaxed: the sums are independent estimates, like the tree's counters.
const RELAXED: Ordering = Ordering::Relaxed;

/// The bits of an f32 that stand for "no judgement" (a NaN no arithmetic
/// makes: the judgements stored are finite).
const NONE: u32 = u32::MAX;

/// Fixed point of the sums: an area difference to a 256th of a point, a
/// winning chance to a 2^20th. An i64 holds 2^40 playouts of a 361-point
/// board's extreme area, and as many winning chances.
const AREA_ONE: f64 = 256.0;
const CHANCE_ONE: f64 = (1u64 << 20) as f64;

/// A node's judgement and the sums of the judgements its playouts met.
#[derive(Debug)]
pub struct JudgedSums {
    /// The node's own judgement, as f32 bits (NONE: not judged).
    own_area: AtomicU32,
    own_chance: AtomicU32,
    /// Playouts through the node that met a judged area or chance.
    area_count: AtomicU32,
    chance_count: AtomicU32,
    /// Of those, the playouts whose deepest judgement was this node's own.
    own_area_count: AtomicU32,
    own_chance_count: AtomicU32,
    area_sum: AtomicI64,
    chance_sum: AtomicI64,
}

impl Default for JudgedSums {
    fn default() -> JudgedSums {
        JudgedSums {
            own_area: AtomicU32::new(NONE),
            own_chance: AtomicU32::new(NONE),
            area_count: AtomicU32::new(0),
            chance_count: AtomicU32::new(0),
            own_area_count: AtomicU32::new(0),
            own_chance_count: AtomicU32::new(0),
            area_sum: AtomicI64::new(0),
            chance_sum: AtomicI64::new(0),
        }
    }
}

/// Black's judgement of a position: the area difference (komi not taken
/// off) and the winning chance, where the network gave each.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BlackJudgement {
    pub area: Option<f32>,
    pub chance: Option<f32>,
}

fn load(bits: &AtomicU32) -> Option<f32> {
    match bits.load(RELAXED) {
        NONE => None,
        bits => Some(f32::from_bits(bits)),
    }
}

fn mean(sum: &AtomicI64, count: &AtomicU32, one: f64) -> Option<f32> {
    match count.load(RELAXED) {
        0 => None,
        n => Some((sum.load(RELAXED) as f64 / one / n as f64) as f32),
    }
}

impl JudgedSums {
    /// Records the node's own judgement of Black's area difference; a value
    /// that is not finite is none.
    pub fn set_area(&self, black_area: f32) {
        if black_area.is_finite() {
            self.own_area.store(black_area.to_bits(), RELAXED);
        }
    }

    /// Records the node's own judgement of Black's winning chance.
    pub fn set_chance(&self, black_chance: f32) {
        if black_chance.is_finite() {
            let chance = black_chance.clamp(0.0, 1.0);
            self.own_chance.store(chance.to_bits(), RELAXED);
        }
    }

    /// The node's own judgement.
    pub fn own(&self) -> BlackJudgement {
        BlackJudgement {
            area: load(&self.own_area),
            chance: load(&self.own_chance),
        }
    }

    /// Counts one playout through the node that met `met` deepest on its
    /// way; `own` says, per instrument, whether that was this node's.
    pub fn add(&self, met: BlackJudgement, own: (bool, bool)) {
        if let Some(area) = met.area {
            self.area_count.fetch_add(1, RELAXED);
            let fixed = (area as f64 * AREA_ONE).round() as i64;
            self.area_sum.fetch_add(fixed, RELAXED);
            if own.0 {
                self.own_area_count.fetch_add(1, RELAXED);
            }
        }
        if let Some(chance) = met.chance {
            self.chance_count.fetch_add(1, RELAXED);
            let fixed = (chance as f64 * CHANCE_ONE).round() as i64;
            self.chance_sum.fetch_add(fixed, RELAXED);
            if own.1 {
                self.own_chance_count.fetch_add(1, RELAXED);
            }
        }
    }

    /// The mean over the node's judged playouts of Black's area difference
    /// and winning chance they met.
    pub fn mean(&self) -> BlackJudgement {
        BlackJudgement {
            area: mean(&self.area_sum, &self.area_count, AREA_ONE),
            chance: mean(&self.chance_sum, &self.chance_count, CHANCE_ONE),
        }
    }

    /// The mean as `mean`, with the node's own judgement replaced by
    /// `better` (the analysis's judgement over the board's symmetries)
    /// in the playouts that counted it; where the node was judged by no
    /// playout, `better` itself.
    pub fn mean_with_own(&self, better: BlackJudgement) -> BlackJudgement {
        let replaced = |sum: &AtomicI64,
                        count: &AtomicU32,
                        own_count: &AtomicU32,
                        own: Option<f32>,
                        better: Option<f32>,
                        one: f64| {
            let (n, k) = (count.load(RELAXED), own_count.load(RELAXED));
            let Some(better) = better else {
                return mean(sum, count, one);
            };
            if n == 0 {
                return Some(better);
            }
            let own = own.unwrap_or(better) as f64;
            let total = sum.load(RELAXED) as f64 / one + k as f64 * (better as f64 - own);
            Some((total / n as f64) as f32)
        };
        BlackJudgement {
            area: replaced(
                &self.area_sum,
                &self.area_count,
                &self.own_area_count,
                load(&self.own_area),
                better.area,
                AREA_ONE,
            ),
            chance: replaced(
                &self.chance_sum,
                &self.chance_count,
                &self.own_chance_count,
                load(&self.own_chance),
                better.chance,
                CHANCE_ONE,
            ),
        }
    }

    /// Copies another node's judgement and sums (a reused tree's).
    pub fn copy_from(&self, other: &JudgedSums) {
        for (to, from) in [
            (&self.own_area, &other.own_area),
            (&self.own_chance, &other.own_chance),
            (&self.area_count, &other.area_count),
            (&self.chance_count, &other.chance_count),
            (&self.own_area_count, &other.own_area_count),
            (&self.own_chance_count, &other.own_chance_count),
        ] {
            to.store(from.load(RELAXED), RELAXED);
        }
        self.area_sum.store(other.area_sum.load(RELAXED), RELAXED);
        self.chance_sum
            .store(other.chance_sum.load(RELAXED), RELAXED);
    }
}

/// The judgement a playout met deepest on `path` (the nodes' sums, the
/// root first), per instrument, and the index in `path` of the node each
/// came from.
fn deepest<'a>(
    path: impl DoubleEndedIterator<Item = &'a JudgedSums> + ExactSizeIterator,
) -> (BlackJudgement, Option<usize>, Option<usize>) {
    let mut met = BlackJudgement::default();
    let (mut area_at, mut chance_at) = (None, None);
    for (i, sums) in path.enumerate().rev() {
        let own = sums.own();
        if met.area.is_none() && own.area.is_some() {
            met.area = own.area;
            area_at = Some(i);
        }
        if met.chance.is_none() && own.chance.is_some() {
            met.chance = own.chance;
            chance_at = Some(i);
        }
        if met.area.is_some() && met.chance.is_some() {
            break;
        }
    }
    (met, area_at, chance_at)
}

/// Backs one playout's judgement up `path` (the nodes' sums, the root
/// first): each node counts what the playout met deepest.
pub fn back_up<'a, P>(path: P)
where
    P: DoubleEndedIterator<Item = &'a JudgedSums> + ExactSizeIterator + Clone,
{
    let (met, area_at, chance_at) = deepest(path.clone());
    // The judged node and those above it count it; those below it do
    // not: the judgement of a position before their move is none of
    // theirs (it would give every move of a node the node's own).
    for (i, sums) in path.enumerate() {
        let counted = BlackJudgement {
            area: met.area.filter(|_| area_at.is_some_and(|at| i <= at)),
            chance: met.chance.filter(|_| chance_at.is_some_and(|at| i <= at)),
        };
        sums.add(counted, (area_at == Some(i), chance_at == Some(i)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(area: Option<f32>, chance: Option<f32>) -> JudgedSums {
        let sums = JudgedSums::default();
        if let Some(a) = area {
            sums.set_area(a);
        }
        if let Some(c) = chance {
            sums.set_chance(c);
        }
        sums
    }

    #[test]
    fn each_playout_counts_at_its_deepest_judged_node() {
        let root = judged(Some(0.0), Some(0.5));
        let child = judged(Some(10.0), Some(0.9));
        let grandchild = JudgedSums::default();
        // 30 playouts through the child (and a grandchild not judged),
        // 20 through the root alone.
        for _ in 0..30 {
            back_up([&root, &child, &grandchild].into_iter());
        }
        for _ in 0..20 {
            back_up([&root].into_iter());
        }
        let at_root = root.mean();
        assert_eq!(at_root.area, Some(6.0));
        assert!((at_root.chance.expect("judged") - 0.74).abs() < 1e-5);
        assert_eq!(child.mean().area, Some(10.0));
        // The grandchild, not judged, has no judgement of its own: its
        // parent's is of the position before its move.
        assert_eq!(grandchild.mean(), BlackJudgement::default());
        assert_eq!(grandchild.own(), BlackJudgement::default());
    }

    #[test]
    fn the_instruments_are_kept_apart() {
        // The root has a value alone (a finished game's result, say), the
        // child an area alone: each is counted where it was met and above.
        let root = judged(None, Some(1.0));
        let child = judged(Some(-4.0), None);
        back_up([&root, &child].into_iter());
        let mean = root.mean();
        assert_eq!(mean.area, Some(-4.0));
        assert_eq!(mean.chance, Some(1.0));
        assert_eq!(child.mean().area, Some(-4.0));
        assert_eq!(child.mean().chance, None);
        // No judgement on the way: nothing counted.
        let lone = JudgedSums::default();
        back_up([&lone].into_iter());
        assert_eq!(lone.mean(), BlackJudgement::default());
    }

    #[test]
    fn a_better_own_judgement_replaces_the_node_s_own_where_it_was_counted() {
        let root = judged(Some(2.0), Some(0.4));
        let child = judged(Some(8.0), Some(0.8));
        for _ in 0..10 {
            back_up([&root].into_iter());
        }
        for _ in 0..30 {
            back_up([&root, &child].into_iter());
        }
        // 10 at the root's 2, 30 at the child's 8: 6.5.
        assert_eq!(root.mean().area, Some(6.5));
        // The symmetric judgement of the root reads 6: 10 at 6, 30 at 8.
        let better = BlackJudgement {
            area: Some(6.0),
            chance: None,
        };
        let mean = root.mean_with_own(better);
        assert_eq!(mean.area, Some(7.5));
        // The chance not given better: the plain mean.
        assert_eq!(mean.chance, root.mean().chance);
        // A node no playout judged reads the better judgement itself.
        assert_eq!(JudgedSums::default().mean_with_own(better).area, Some(6.0));
    }

    #[test]
    fn a_judgement_that_is_not_finite_is_none() {
        let sums = judged(Some(f32::NAN), Some(f32::INFINITY));
        assert_eq!(sums.own(), BlackJudgement::default());
        let copy = JudgedSums::default();
        let root = judged(Some(3.0), None);
        back_up([&root].into_iter());
        copy.copy_from(&root);
        assert_eq!(copy.mean().area, Some(3.0));
        assert_eq!(copy.own().area, Some(3.0));
    }
}
