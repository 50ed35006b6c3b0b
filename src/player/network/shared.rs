//! What a player evaluates with: one `SharedEvaluator` over a backend,
//! which its threads (and every player made from one configuration)
//! share. It owns what the search and the analysis need beyond a
//! backend's answers, in one place: the cache of evaluations (`cache`),
//! the measured cost of an evaluation (a large network file can cost a
//! second a position, and a search on a short clock must know that
//! before it asks), and the judgement averaged over the board's
//! symmetries (`symmetric`), asked of the backend as one batch. The
//! player and the search name this type and no stack of wrappers; a
//! backend is any `Evaluator`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::backend;
use super::cache::{CacheUse, EvaluationCache, PositionKey};
use super::evaluator::{Evaluation, Evaluator, Heads, Position, Scratch};
use super::forward::Network;
use super::model::Model;
use super::planes::RecentMoves;
use super::symmetric::{mean_judgement, orientations, Judgement};
use crate::game::{BoardSize, Color};
use crate::player::board::PlayoutBoard;

/// A backend, its cost measured, behind a cache that every thread of a
/// player shares.
pub struct SharedEvaluator {
    backend: Box<dyn Evaluator>,
    cache: EvaluationCache,
    /// Nanoseconds an evaluation takes per point of the board, a moving
    /// average over the batches run.
    nanos_per_point: AtomicU64,
}

/// `backend` timed and cached, for a player.
pub fn shared(backend: Box<dyn Evaluator>) -> Arc<SharedEvaluator> {
    Arc::new(SharedEvaluator::new(backend))
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

impl SharedEvaluator {
    /// `backend` with an empty cache, its cost measured on one evaluation
    /// of the empty 19x19 board after an untimed one. The first evaluation
    /// of a process pays for cold caches and the scratch's allocation:
    /// timed alone on 9x9 it read 12 ms a 19x19 evaluation against the 5 ms
    /// it takes, and a 60 s sudden-death 19x19 game (about 200 ms a move,
    /// under 20 evaluations at 12 ms) then went without the network from
    /// its first move to its last, since an evaluation never run never
    /// corrects the average.
    pub fn new(backend: Box<dyn Evaluator>) -> SharedEvaluator {
        let shared = SharedEvaluator {
            backend,
            cache: EvaluationCache::default(),
            nanos_per_point: AtomicU64::new(0),
        };
        let mut board = PlayoutBoard::new(BoardSize::square(19));
        let mut scratch = Scratch::new();
        shared
            .backend
            .evaluate(Position::black_first(&mut board), &mut scratch);
        shared.run(vec![Position::black_first(&mut board)], &mut scratch);
        shared
    }

    /// The evaluation of `position` (the cache's where it holds one);
    /// `scratch` is the calling thread's.
    pub fn evaluate(&self, position: Position<'_>, scratch: &mut Scratch) -> Arc<Evaluation> {
        let key = PositionKey::of(&position);
        if let Some(evaluation) = self.cache.get(&key) {
            return evaluation;
        }
        let points = position.board.size().points();
        let evaluation = self.run(vec![position], scratch).pop();
        let evaluation = evaluation.unwrap_or_else(|| knowing_nothing(points));
        self.cache.put(key, &evaluation);
        evaluation
    }

    /// The evaluations of `positions`, in their order: those the cache
    /// holds from it, the others asked of the backend as one batch, each
    /// position once however often the batch holds it (the empty board's
    /// eight orientations are one position).
    pub fn evaluate_batch(
        &self,
        positions: Vec<Position<'_>>,
        scratch: &mut Scratch,
    ) -> Vec<Arc<Evaluation>> {
        let keys: Vec<PositionKey> = positions.iter().map(PositionKey::of).collect();
        let points: Vec<usize> = positions.iter().map(|p| p.board.size().points()).collect();
        let mut answers: Vec<Option<Arc<Evaluation>>> = Vec::with_capacity(keys.len());
        // For each position the cache lacks, the index in `asked` of the
        // position the backend is asked in its place.
        let mut asked_for: Vec<Option<usize>> = Vec::with_capacity(keys.len());
        let (mut asked, mut asked_keys) = (Vec::new(), Vec::new());
        for (position, key) in positions.into_iter().zip(&keys) {
            let held = self.cache.get(key);
            let mut place = None;
            if held.is_none() {
                place = asked_keys.iter().position(|k| k == key).or_else(|| {
                    asked.push(position);
                    asked_keys.push(*key);
                    Some(asked_keys.len() - 1)
                });
            }
            answers.push(held);
            asked_for.push(place);
        }
        let fresh = if asked.is_empty() {
            Vec::new()
        } else {
            self.run(asked, scratch)
        };
        for (key, evaluation) in asked_keys.iter().zip(&fresh) {
            self.cache.put(*key, evaluation);
        }
        answers
            .into_iter()
            .zip(asked_for)
            .zip(points)
            .map(|((held, place), points)| {
                held.or_else(|| place.and_then(|i| fresh.get(i).cloned()))
                    .unwrap_or_else(|| knowing_nothing(points))
            })
            .collect()
    }

    /// `to_move`'s judgement of `board` with `komi` to count, averaged
    /// over the symmetries that keep the board's shape (eight on a square,
    /// four on a rectangle), asked as one batch through the cache; None
    /// where the backend has no ownership head or judged a number that is
    /// not one.
    pub fn symmetric_judgement(
        &self,
        (board, to_move, recent): (&PlayoutBoard, Color, &RecentMoves),
        komi: f32,
        scratch: &mut Scratch,
    ) -> Option<Judgement> {
        if !self.heads().ownership {
            return None;
        }
        let mut images = orientations(board, recent);
        let positions = images
            .iter_mut()
            .map(|(image, recent)| Position {
                board: image,
                to_move,
                recent,
                komi,
            })
            .collect();
        mean_judgement(&self.evaluate_batch(positions, scratch))
    }

    /// What one evaluation of a board of `points` points costs, as far as
    /// it has been measured (a cached one costs nothing).
    pub fn cost(&self, points: usize) -> Option<Duration> {
        let per_point = self.nanos_per_point.load(Ordering::Relaxed);
        (per_point > 0).then(|| Duration::from_nanos(per_point.saturating_mul(points as u64)))
    }

    /// How often its cache answered.
    pub fn cache_use(&self) -> CacheUse {
        self.cache.cache_use()
    }

    /// Forgets the evaluations it holds (KataGo's `clear_cache`).
    pub fn clear(&self) {
        self.cache.clear();
    }

    /// The backend behind the cache and the timing: what a benchmark times.
    pub fn backend(&self) -> &dyn Evaluator {
        &*self.backend
    }

    /// What its backend is, in words.
    pub fn description(&self) -> String {
        self.backend.description()
    }

    /// The judgements its evaluations carry.
    pub fn heads(&self) -> Heads {
        self.backend.heads()
    }

    /// `positions` asked of the backend as one batch, its cost measured
    /// per point over the whole batch.
    fn run(&self, positions: Vec<Position<'_>>, scratch: &mut Scratch) -> Vec<Arc<Evaluation>> {
        let asked = positions.len();
        let points: usize = positions.iter().map(|p| p.board.size().points()).sum();
        let start = Instant::now();
        let evaluations = self.backend.evaluate_batch(positions, scratch);
        if evaluations.len() != asked {
            log::error!(
                "network: {} answered {} evaluations of {asked}",
                self.backend.description(),
                evaluations.len()
            );
        }
        let per_point = (start.elapsed().as_nanos() as u64 / points.max(1) as u64).max(1);
        // Races between threads lose an update at worst.
        let old = self.nanos_per_point.load(Ordering::Relaxed);
        let average = if old == 0 {
            per_point
        } else {
            (3 * old + per_point) / 4
        };
        self.nanos_per_point.store(average, Ordering::Relaxed);
        evaluations
    }
}

/// What stands for an evaluation a backend did not answer (a defect in
/// the backend, logged by `run`) on a board of `points` points: every
/// move alike and no judgement, so that the search goes on rather than
/// stop.
fn knowing_nothing(points: usize) -> Arc<Evaluation> {
    Arc::new(Evaluation {
        logits: vec![0.0; points + 1],
        win_chance: None,
        final_margin: None,
        ownership: None,
    })
}

impl std::fmt::Debug for SharedEvaluator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SharedEvaluator({})", self.backend.description())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

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

    fn one_stone(stone: &str) -> (PlayoutBoard, RecentMoves) {
        let board = board_with(19, &[(stone, Color::Black)]);
        let point = board.point_of(stone);
        (board, [Some(point), None, None, None])
    }

    fn ask(
        evaluator: &SharedEvaluator,
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

    /// A backend that knows nothing and writes down the size of each batch
    /// it is asked, answering at most `answers` evaluations of one.
    struct Counting {
        batches: Arc<Mutex<Vec<usize>>>,
        answers: usize,
    }

    /// A SharedEvaluator over a `Counting` that answers at most `answers`
    /// a batch, and the sizes of the batches asked of it since it was made
    /// (its warm-up's left out).
    fn counting(answers: usize) -> (SharedEvaluator, impl Fn() -> Vec<usize>) {
        let batches = Arc::new(Mutex::new(Vec::new()));
        let backend = Counting {
            batches: Arc::clone(&batches),
            answers,
        };
        let shared = SharedEvaluator::new(Box::new(backend));
        let warm_up = batches.lock().expect("lock").len();
        (shared, move || {
            batches.lock().expect("lock")[warm_up..].to_vec()
        })
    }

    impl Evaluator for Counting {
        fn evaluate(&self, position: Position<'_>, scratch: &mut Scratch) -> Arc<Evaluation> {
            let knowing_nothing = Uniform {
                black_ownership: Some(0.0),
                ..Uniform::default()
            };
            knowing_nothing.evaluate(position, scratch)
        }

        fn evaluate_batch(
            &self,
            positions: Vec<Position<'_>>,
            scratch: &mut Scratch,
        ) -> Vec<Arc<Evaluation>> {
            self.batches.lock().expect("lock").push(positions.len());
            let answers = positions.into_iter().take(self.answers);
            answers.map(|p| self.evaluate(p, scratch)).collect()
        }

        fn description(&self) -> String {
            "counting".to_string()
        }

        fn heads(&self) -> Heads {
            Heads {
                ownership: true,
                ..Heads::default()
            }
        }
    }

    #[test]
    fn the_cache_answers_a_position_it_has_seen_and_no_other() {
        let cached = SharedEvaluator::new(Box::new(Network::shipped()));
        let mut scratch = Scratch::new();
        let mut board = board_with(19, &[("D4", Color::Black), ("Q16", Color::White)]);
        let recent = [Some(board.point_of("Q16")), None, None, None];
        let mut asked = |board: &mut PlayoutBoard, to_move, recent: &RecentMoves, komi| {
            ask(&cached, board, to_move, recent, komi, &mut scratch)
        };
        let first = asked(&mut board, Color::Black, &recent, 7.5);
        let again = asked(&mut board, Color::Black, &recent, 7.5);
        assert!(Arc::ptr_eq(&first, &again));
        // The same stones with the other side to move, other recent moves,
        // another komi or on another board size are other positions.
        let white = asked(&mut board, Color::White, &recent, 7.5);
        let none = [None; 4];
        let no_recent = asked(&mut board, Color::Black, &none, 7.5);
        assert_ne!(first.logits, white.logits);
        assert_ne!(first.logits, no_recent.logits);
        let other_komi = asked(&mut board, Color::Black, &recent, 0.5);
        assert!(!Arc::ptr_eq(&first, &other_komi));
        let mut small = PlayoutBoard::new(BoardSize::square(9));
        let mut large = PlayoutBoard::new(BoardSize::square(13));
        let a = asked(&mut small, Color::Black, &none, 7.5);
        let b = asked(&mut large, Color::Black, &none, 7.5);
        assert_eq!((a.logits.len(), b.logits.len()), (82, 170));
        assert_eq!(
            cached.cache_use(),
            CacheUse {
                lookups: 7,
                hits: 1
            }
        );
        // What the cache answers is what the network says.
        let plain = Network::shipped().evaluate(
            Position {
                board: &mut board,
                to_move: Color::Black,
                recent: &recent,
                komi: 7.5,
            },
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
    fn its_cost_is_measured_and_a_cache_hit_adds_none() {
        let shared = shared(Box::new(Uniform::default()));
        assert!(shared.cost(361).is_some_and(|c| c > Duration::ZERO));
        assert_eq!(shared.description(), Uniform::default().description());
        let mut board = PlayoutBoard::new(BoardSize::square(9));
        let mut scratch = Scratch::new();
        let none = [None; 4];
        ask(&shared, &mut board, Color::Black, &none, 7.5, &mut scratch);
        ask(&shared, &mut board, Color::Black, &none, 7.5, &mut scratch);
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

    #[test]
    fn the_symmetric_judgement_of_a_position_is_its_mirror_images() {
        let shared = SharedEvaluator::new(Box::new(Network::shipped()));
        let mut scratch = Scratch::new();
        let mut judged = |stone: &str| {
            let (board, recent) = one_stone(stone);
            let position = (&board, Color::White, &recent);
            shared
                .symmetric_judgement(position, 7.5, &mut scratch)
                .expect("an ownership head")
        };
        // R16's 8 images: mirrored, turned, transposed (Q17). The win
        // chance is the same evaluations' mean, and the same for all.
        let r16 = judged("R16");
        let chance = r16.win_chance.expect("a value head");
        assert!(chance > 0.0 && chance < 1.0, "{chance}");
        for image in ["Q17", "C16", "D17", "R4", "Q3", "C4", "D3"] {
            let other = judged(image);
            assert!((other.area - r16.area).abs() < 1e-3, "{image}");
            let other_chance = other.win_chance.expect("a value head");
            assert!((other_chance - chance).abs() < 1e-4, "{image}");
        }
        // One orientation alone judges them apart (what the average is for).
        let mut plain = |stone: &str| {
            let (mut board, recent) = one_stone(stone);
            ask(
                &shared,
                &mut board,
                Color::White,
                &recent,
                7.5,
                &mut scratch,
            )
            .area_difference()
            .expect("an ownership head")
        };
        let (one, other) = (plain("Q16"), plain("D16"));
        assert!((one - other).abs() > 0.1, "{one} {other}");
        // A rectangle's four.
        let rectangle = PlayoutBoard::new(BoardSize::new(13, 9).expect("size"));
        let judged =
            shared.symmetric_judgement((&rectangle, Color::Black, &[None; 4]), 7.5, &mut scratch);
        assert!(judged.is_some_and(|j| j.area.is_finite()));
    }

    #[test]
    fn the_orientations_are_one_batch_through_the_cache() {
        let (shared, batches) = counting(usize::MAX);
        let mut scratch = Scratch::new();
        // R16: off the diagonals, so its eight images are eight positions.
        let (mut board, recent) = one_stone("R16");
        // The search's own evaluation of the position, then the judgement:
        // that orientation is the cache's already, and the backend is
        // asked the other seven at once.
        ask(
            &shared,
            &mut board,
            Color::White,
            &recent,
            7.5,
            &mut scratch,
        );
        let judged = (&board, Color::White, &recent);
        let first = shared.symmetric_judgement(judged, 7.5, &mut scratch);
        assert_eq!(batches(), [1, 7]);
        let used = shared.cache_use();
        assert_eq!((used.lookups, used.hits), (9, 1));
        // A second judgement of the position costs no evaluation.
        let again = shared.symmetric_judgement(judged, 7.5, &mut scratch);
        assert_eq!(first, again);
        assert_eq!(batches(), [1, 7]);
        let used = shared.cache_use();
        assert_eq!((used.lookups, used.hits), (17, 9));
        // The empty board's eight orientations are one position: one
        // evaluation, given to all eight.
        let empty = PlayoutBoard::new(BoardSize::square(19));
        let judged =
            shared.symmetric_judgement((&empty, Color::Black, &[None; 4]), 7.5, &mut scratch);
        assert!(judged.is_some());
        assert_eq!(batches(), [1, 7, 1]);
    }

    #[test]
    fn a_backend_that_answers_too_few_leaves_moves_alike_and_no_judgement() {
        let (shared, batches) = counting(3);
        let mut scratch = Scratch::new();
        let (board, recent) = one_stone("R16");
        let mut images = orientations(&board, &recent);
        let positions = images
            .iter_mut()
            .map(|(image, recent)| Position {
                board: image,
                to_move: Color::White,
                recent,
                komi: 7.5,
            })
            .collect();
        let evaluations = shared.evaluate_batch(positions, &mut scratch);
        assert_eq!(evaluations.len(), 8);
        for evaluation in &evaluations[3..] {
            assert_eq!(evaluation.logits, vec![0.0; 362]);
            assert_eq!(evaluation.area_difference(), None);
        }
        assert!(evaluations[..3]
            .iter()
            .all(|e| e.area_difference() == Some(0.0)));
        assert_eq!(batches(), [8]);
    }
}
