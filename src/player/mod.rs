//! Move generation: fast playouts and Monte Carlo tree search.
//!
//! The player runs one `Search` per thread (root parallelism), adds up their
//! root statistics and picks the most visited move. It passes only once the
//! board is scored out: when the Tromp-Taylor count of the board as it
//! stands is what the playouts expect from continued play (every point's
//! owner now is its owner at the end of the playouts), or when the opponent
//! has just passed and the count as it stands already wins.

pub mod analysis;
pub mod bench;
pub mod patterns;
pub mod playout;
pub mod playout_board;
pub mod reply;
pub mod rng;
pub mod search;
pub mod tactics;
pub mod time;
pub mod tree;

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use log::info;

use crate::game::{Color, Game, Move, Vertex};
use playout_board::Point;
use search::{Limits, Search, SearchParams};
use tree::PASS;

/// What the player answers to `genmove`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Play(Vertex),
    Pass,
    Resign,
}

impl Decision {
    pub fn as_move(self) -> Option<Move> {
        match self {
            Decision::Play(v) => Some(Move::Play(v)),
            Decision::Pass => Some(Move::Pass),
            Decision::Resign => None,
        }
    }
}

impl From<Move> for Decision {
    fn from(mv: Move) -> Decision {
        match mv {
            Move::Pass => Decision::Pass,
            Move::Play(v) => Decision::Play(v),
        }
    }
}

impl std::fmt::Display for Decision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Decision::Play(v) => v.fmt(f),
            Decision::Pass => f.write_str("pass"),
            Decision::Resign => f.write_str("resign"),
        }
    }
}

/// Settings from the command line.
#[derive(Clone, Debug)]
pub struct PlayerConfig {
    /// Search threads.
    pub threads: usize,
    /// Playouts per move; when set, the search stops after that many (per
    /// thread) unless the clock says stop first.
    pub playouts: Option<u64>,
    /// Seconds per move when no time control is set.
    pub seconds_per_move: Option<f64>,
    pub seed: Option<u64>,
    /// Resign when the winning chance is below this on two moves running
    /// (0 never resigns).
    pub resign_threshold: f64,
    /// Search on the opponent's time after genmove, until the next command.
    pub ponder: bool,
    pub search: SearchParams,
}

impl Default for PlayerConfig {
    fn default() -> PlayerConfig {
        PlayerConfig {
            threads: 1,
            playouts: None,
            seconds_per_move: None,
            seed: None,
            resign_threshold: 0.05,
            ponder: false,
            search: SearchParams::default(),
        }
    }
}

/// How long one move may take: aim for `target`, never pass `hard_limit`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveBudget {
    pub target: Duration,
    pub hard_limit: Duration,
}

/// The statistics of one root move after a search, summed over threads.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    pub visits: u32,
    /// Winning chance for the side to move.
    pub win_rate: f32,
    /// The tree's prior for the move, a share of 1 over the root's moves.
    pub prior: f32,
    /// Black's mean final margin over this search's playouts through the
    /// move; None before any.
    pub black_margin: Option<f32>,
    /// The principal variation, starting with this move.
    pub pv: Vec<Move>,
}

/// What a finished search knows, for genmove and for analysis.
#[derive(Clone, Debug)]
pub struct SearchReport {
    /// Best first.
    pub moves: Vec<RootMove>,
    /// Per vertex of the board, row-major from A1: +1 Black owns it, -1 White.
    pub ownership: Vec<f32>,
    /// Black's mean final margin over the playouts (komi included).
    pub black_margin: f32,
    pub playouts: u64,
    pub elapsed: Duration,
}

/// Longest principal variation reported.
const MAX_PV_MOVES: usize = 20;

/// How a search runs: until a deadline and a playout count per thread
/// (whichever first) or until stopped; with a look at its statistics every
/// `interval` when one is given.
pub struct SearchLimits {
    pub deadline: Option<Instant>,
    pub playouts: u64,
    pub interval: Option<Duration>,
}

/// Called with the statistics every interval while a search runs; returns
/// false to end the search there.
pub type Snapshot<'a> = &'a mut dyn FnMut(&SearchReport) -> bool;

pub struct Player {
    config: PlayerConfig,
    /// One search per thread, kept between moves for tree reuse.
    searches: Vec<Option<Search>>,
    seed_counter: u64,
    /// The winning chance of our last genmove, for the resign rule.
    last_win_rate: Option<f32>,
}

impl Player {
    pub fn new(config: &PlayerConfig) -> Player {
        let threads = config.threads.max(1);
        Player {
            config: config.clone(),
            searches: (0..threads).map(|_| None).collect(),
            seed_counter: config.seed.unwrap_or_else(rand::random),
            last_win_rate: None,
        }
    }

    pub fn config(&self) -> &PlayerConfig {
        &self.config
    }

    /// Forgets the trees (after a new game, say).
    pub fn clear(&mut self) {
        for s in &mut self.searches {
            *s = None;
        }
        self.last_win_rate = None;
    }

    /// The default thinking time per move when no clock is set: about a
    /// second on 9x9, a little more on larger boards.
    fn default_budget(&self, size: usize) -> MoveBudget {
        let seconds = self
            .config
            .seconds_per_move
            .unwrap_or_else(|| (size as f64 / 9.0).max(0.5));
        // Any f64 may come from the command line: `Duration` panics on
        // values past about 1.8e19 seconds, and on NaN.
        let seconds = if seconds.is_nan() { 1.0 } else { seconds };
        let target = Duration::from_secs_f64(seconds.clamp(0.001, time::MAX_SECONDS));
        MoveBudget {
            target,
            hard_limit: target,
        }
    }

    /// Chooses a move for `color`.
    pub fn genmove(
        &mut self,
        game: &Game,
        color: Color,
        budget: Option<MoveBudget>,
        stop: &AtomicBool,
    ) -> Decision {
        self.genmove_watched(game, color, budget, stop, None)
    }

    /// Chooses a move for `color`, showing the search's statistics to
    /// `watch` every interval while it thinks.
    pub fn genmove_watched(
        &mut self,
        game: &Game,
        color: Color,
        budget: Option<MoveBudget>,
        stop: &AtomicBool,
        watch: Option<(Duration, Snapshot)>,
    ) -> Decision {
        let legal: Vec<Vertex> = game.legal_vertices(color);
        if legal.is_empty() {
            return Decision::Pass;
        }
        let (interval, snapshot) = match watch {
            Some((interval, snapshot)) => (Some(interval), Some(snapshot)),
            None => (None, None),
        };
        let limits = SearchLimits {
            interval,
            ..self.move_limits(game, budget)
        };
        let report = self.run_search(game, color, limits, stop, snapshot);
        info!(
            "{} playouts in {:.2}s, best {:?}",
            report.playouts,
            report.elapsed.as_secs_f64(),
            report.moves.first()
        );
        let decision = self.decide(game, color, &report);
        self.last_win_rate = report.moves.first().map(|m| m.win_rate);
        decision
    }

    /// Runs the search for `color` at the game's position as genmove would
    /// (same time or playouts) and reports, without choosing a move.
    pub fn search(
        &mut self,
        game: &Game,
        color: Color,
        budget: Option<MoveBudget>,
        stop: &AtomicBool,
    ) -> SearchReport {
        let limits = self.move_limits(game, budget);
        self.run_search(game, color, limits, stop, None)
    }

    /// Searches for `color` until `stop` is raised (or `deadline`), with no
    /// playout limit: for analysis and pondering. `snapshot` sees the
    /// statistics every `interval`.
    pub fn analyze(
        &mut self,
        game: &Game,
        color: Color,
        deadline: Option<Instant>,
        stop: &AtomicBool,
        watch: Option<(Duration, Snapshot)>,
    ) -> SearchReport {
        let (interval, snapshot) = match watch {
            Some((interval, snapshot)) => (Some(interval), Some(snapshot)),
            None => (None, None),
        };
        let limits = SearchLimits {
            deadline,
            playouts: u64::MAX,
            interval,
        };
        self.run_search(game, color, limits, stop, snapshot)
    }

    /// The limits of a genmove search: the clock's budget, else the
    /// command line's playouts or time per move.
    fn move_limits(&self, game: &Game, budget: Option<MoveBudget>) -> SearchLimits {
        let start = Instant::now();
        let deadline = match (self.config.playouts, budget) {
            // A fixed playout count with no clock is deterministic: no deadline.
            (Some(_), None) => None,
            // A fixed count under a clock stops at the clock's hard limit.
            (Some(_), Some(b)) => Some(start + b.hard_limit),
            (None, Some(b)) => Some(start + b.target),
            (None, None) => Some(start + self.default_budget(game.size()).target),
        };
        SearchLimits {
            deadline,
            playouts: self.config.playouts.unwrap_or(u64::MAX),
            interval: None,
        }
    }

    /// Runs the threads' searches in slices of one interval each (a single
    /// slice without one), reporting between slices; the trees carry on
    /// from slice to slice, so watching costs only the thread restarts.
    fn run_search(
        &mut self,
        game: &Game,
        color: Color,
        limits: SearchLimits,
        stop: &AtomicBool,
        mut snapshot: Option<Snapshot>,
    ) -> SearchReport {
        let start = Instant::now();
        let mut searches = self.prepare_searches(game, color);
        let mut playouts_left = limits.playouts;
        loop {
            let slice_end = limits.interval.map(|i| Instant::now() + i);
            let deadline = match (limits.deadline, slice_end) {
                (Some(d), Some(s)) => Some(d.min(s)),
                (d, s) => d.or(s),
            };
            let before: Vec<u64> = searches.iter().map(Search::playouts).collect();
            let slice = Limits {
                playouts: playouts_left,
                deadline,
            };
            std::thread::scope(|scope| {
                for search in searches.iter_mut() {
                    scope.spawn(move || search.run(slice, stop));
                }
            });
            // The limit is per thread: the thread that did least decides.
            let done = searches
                .iter()
                .zip(&before)
                .map(|(search, before)| search.playouts() - before)
                .min()
                .unwrap_or(0);
            playouts_left = playouts_left.saturating_sub(done.max(1));
            let finished = stop.load(std::sync::atomic::Ordering::Relaxed)
                || playouts_left == 0
                || limits.deadline.is_some_and(|d| Instant::now() >= d);
            let Some(watch) = snapshot.as_mut() else {
                break;
            };
            if finished || !watch(&summarise(&searches, game, start.elapsed())) {
                break;
            }
        }
        let report = summarise(&searches, game, start.elapsed());
        for (slot, search) in self.searches.iter_mut().zip(searches) {
            *slot = Some(search);
        }
        report
    }

    /// Each thread's search moved to the game's position, reusing its tree
    /// where the game followed it.
    fn prepare_searches(&mut self, game: &Game, color: Color) -> Vec<Search> {
        let mut searches: Vec<Search> = Vec::with_capacity(self.searches.len());
        for slot in self.searches.iter_mut() {
            self.seed_counter = self.seed_counter.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let seed = self.seed_counter;
            let search = match slot.take() {
                Some(old) => old.advance(game, color, seed),
                None => Search::new(game, color, self.config.search.clone(), seed),
            };
            searches.push(search);
        }
        searches
    }

    /// From the search's statistics to a move, with the pass and resign rules.
    fn decide(&self, game: &Game, color: Color, report: &SearchReport) -> Decision {
        let Some(best) = report.moves.first() else {
            return Decision::Pass;
        };
        // The opponent passed and the count as it stands wins: end the game,
        // unless a dead opponent string still stands on the board. Capturing
        // it inside our own area costs nothing under area scoring, and
        // leaving it makes the count differ from the one any referee who
        // removes dead stones would give.
        if game.consecutive_passes() >= 1 && wins_as_it_stands(game, color) {
            return match capture_of_dead_string(game, color, report) {
                Some(vertex) => {
                    info!(
                        "opponent passed, the count wins for {color}; capturing dead stones first"
                    );
                    Decision::Play(vertex)
                }
                None => {
                    info!("opponent passed and the count wins for {color}: passing");
                    Decision::Pass
                }
            };
        }
        if self.should_resign(game, best.win_rate) {
            return Decision::Resign;
        }
        let best_play = report
            .moves
            .iter()
            .find(|m| m.mv != Move::Pass && game.is_legal(color, m.mv));
        let scored_out = is_scored_out(game, &report.ownership);
        let pass = report.moves.iter().find(|m| m.mv == Move::Pass);
        log::info!("scored out: {scored_out}; best {best:?}; pass {pass:?}");
        if log::log_enabled!(log::Level::Debug) {
            let size = game.size();
            for row in (0..size).rev() {
                let line: Vec<String> = (0..size)
                    .map(|col| format!("{:+.2}", report.ownership[row * size + col]))
                    .collect();
                log::debug!("ownership row {}: {}", row + 1, line.join(" "));
            }
        }
        // Scored out: the count as it stands is what play would give, so
        // passing gives it too; unless the count loses and the search has
        // found a move that wins, which means the count was misread.
        if scored_out && (wins_as_it_stands(game, color) || best.win_rate < 0.5) {
            return Decision::Pass;
        }
        match (best.mv, best_play) {
            (Move::Play(_), Some(play)) => play.mv.into(),
            (Move::Play(_), None) => Decision::Pass,
            (Move::Pass, _) if scored_out => Decision::Pass,
            // Not scored out: a move that does no worse than passing keeps
            // the game going until the board can be counted as it stands.
            (Move::Pass, Some(play)) if play.win_rate >= best.win_rate - NO_WORSE => play.mv.into(),
            (Move::Pass, _) => Decision::Pass,
        }
    }

    fn should_resign(&self, game: &Game, win_rate: f32) -> bool {
        let threshold = self.config.resign_threshold as f32;
        if threshold <= 0.0 {
            return false;
        }
        // Early in a game on a large board low values are noise.
        let size = game.size();
        let early = game.moves().count() < size * size / 4;
        !early && win_rate < threshold && self.last_win_rate.is_some_and(|w| w < threshold)
    }
}

/// One root move's statistics summed over the threads.
struct MoveTotals {
    point: Point,
    visits: u32,
    wins: f32,
    margin_sum: f64,
    margin_count: u32,
    /// The thread whose tree explored the move most, for its PV.
    best_thread: usize,
    best_thread_visits: u32,
}

/// Adds up the root statistics of every thread's search.
fn summarise(searches: &[Search], game: &Game, elapsed: Duration) -> SearchReport {
    let size = game.size();
    let mut totals: Vec<MoveTotals> = Vec::new();
    let mut ownership = vec![0.0f64; size * size];
    let mut samples = 0u64;
    let mut margin_sum = 0.0f64;
    let mut playouts = 0;
    for (thread, search) in searches.iter().enumerate() {
        playouts += search.playouts();
        for (point, visits, rate) in search.root_children() {
            let index = match totals.iter().position(|t| t.point == point) {
                Some(index) => index,
                None => {
                    totals.push(MoveTotals {
                        point,
                        visits: 0,
                        wins: 0.0,
                        margin_sum: 0.0,
                        margin_count: 0,
                        best_thread: thread,
                        best_thread_visits: 0,
                    });
                    totals.len() - 1
                }
            };
            let t = &mut totals[index];
            t.visits += visits;
            t.wins += rate * visits as f32;
            if visits > t.best_thread_visits {
                t.best_thread = thread;
                t.best_thread_visits = visits;
            }
        }
        for (point, sum, count) in search.root_scores() {
            if let Some(t) = totals.iter_mut().find(|t| t.point == point) {
                t.margin_sum += sum;
                t.margin_count += count;
            }
        }
        let own = search.ownership();
        let n = search.ownership_samples();
        for (i, v) in Vertex::all(size).enumerate() {
            ownership[i] += own[search.board().point(v) as usize] as f64 * n as f64;
        }
        samples += n;
        margin_sum += search.score_sum();
    }
    let ownership = ownership
        .iter()
        .map(|o| (o / samples.max(1) as f64) as f32)
        .collect();
    let priors = searches
        .first()
        .map(Search::root_priors)
        .unwrap_or_default();
    let mut moves: Vec<RootMove> = totals
        .iter()
        .map(|t| root_move(t, searches, &priors))
        .collect();
    moves.sort_by(|a, b| {
        b.visits
            .cmp(&a.visits)
            .then(b.win_rate.total_cmp(&a.win_rate))
    });
    let black_margin = if samples > 0 {
        (margin_sum / samples as f64) as f32
    } else {
        // No playout yet: the count of the board as it stands.
        game.score() as f32
    };
    SearchReport {
        moves,
        ownership,
        black_margin,
        playouts,
        elapsed,
    }
}

/// One move of the report from its summed statistics.
fn root_move(t: &MoveTotals, searches: &[Search], priors: &[(Point, f32)]) -> RootMove {
    let search = &searches[t.best_thread];
    let to_move = |p: Point| {
        if p == PASS {
            Move::Pass
        } else {
            Move::Play(search.board().vertex(p))
        }
    };
    RootMove {
        mv: to_move(t.point),
        visits: t.visits,
        win_rate: if t.visits > 0 {
            t.wins / t.visits as f32
        } else {
            0.5
        },
        prior: priors
            .iter()
            .find(|(p, _)| *p == t.point)
            .map_or(0.0, |&(_, prior)| prior),
        black_margin: (t.margin_count > 0).then(|| (t.margin_sum / t.margin_count as f64) as f32),
        pv: search
            .principal_variation(t.point, MAX_PV_MOVES)
            .into_iter()
            .map(to_move)
            .collect(),
    }
}

/// Whether `color` wins by the Tromp-Taylor count of the board as it stands.
fn wins_as_it_stands(game: &Game, color: Color) -> bool {
    let score = game.score();
    match color {
        Color::Black => score > 0.0,
        Color::White => score < 0.0,
    }
}

/// Where `color` should play to take off the board an opponent string the
/// playouts say is dead (its points end as `color`'s in nearly all of
/// them): the liberty of such a string that the search rates highest, as
/// long as the search rates it no worse than passing. None when there is no
/// dead opponent string or no such liberty.
fn capture_of_dead_string(game: &Game, color: Color, report: &SearchReport) -> Option<Vertex> {
    let board = game.board();
    let ours = |i: usize| report.ownership.get(i).copied().unwrap_or(0.0) * side_sign(color);
    let liberties_of_dead: Vec<Vertex> = Vertex::all(game.size())
        .enumerate()
        .filter(|&(i, v)| board.get(v) == Some(color.opponent()) && ours(i) > SURE_OWNER)
        .flat_map(|(_, v)| board.neighbours(v).filter(|&n| board.get(n).is_none()))
        .collect();
    if liberties_of_dead.is_empty() {
        return None;
    }
    let pass_rate = report
        .moves
        .iter()
        .find(|m| m.mv == Move::Pass)
        .map_or(0.0, |m| m.win_rate);
    report.moves.iter().find_map(|m| match m.mv {
        Move::Play(v)
            if liberties_of_dead.contains(&v)
                && m.win_rate >= pass_rate - NO_WORSE
                && game.is_legal(color, m.mv) =>
        {
            Some(v)
        }
        _ => None,
    })
}

/// +1 for Black, -1 for White: turns Black's view into the mover's.
pub(crate) fn side_sign(color: Color) -> f32 {
    match color {
        Color::Black => 1.0,
        Color::White => -1.0,
    }
}

/// A move whose win rate is within this of passing's is taken as no worse
/// than passing: the two are within the search's noise.
const NO_WORSE: f32 = 0.05;

/// How sure the playouts must be of a point's owner for the board to count
/// as scored out, or for a stone to count as dead.
const SURE_OWNER: f32 = 0.8;

/// Whether the count of the board as it stands is what play would give:
/// every point a colour owns now (its stone, or an empty point reaching only
/// that colour) is owned by that colour at the end of nearly all playouts,
/// and every point nobody owns now is dame, an empty point between stones of
/// both colours. An open area (an empty point with no stone beside it, say
/// on the empty board) is never scored out, however the playouts split it.
pub fn is_scored_out(game: &Game, ownership: &[f32]) -> bool {
    let board = game.board();
    Vertex::all(game.size()).enumerate().all(|(i, v)| {
        let expected = ownership.get(i).copied().unwrap_or(0.0);
        match board.owner(v) {
            Some(Color::Black) => expected > SURE_OWNER,
            Some(Color::White) => expected < -SURE_OWNER,
            None => {
                let beside: Vec<Color> = board.neighbours(v).filter_map(|n| board.get(n)).collect();
                beside.contains(&Color::Black) && beside.contains(&Color::White)
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game_with(size: usize, stones: &[(&str, Color)]) -> Game {
        let mut game = Game::new(size, 0.5);
        for &(v, c) in stones {
            let v = Vertex::parse_gtp(v).expect("vertex");
            game.play(c, Move::Play(v)).expect("legal");
        }
        game
    }

    #[test]
    fn an_open_board_is_never_scored_out() {
        let game = Game::new(9, 7.5);
        assert!(!is_scored_out(&game, &[0.0; 81]));
        assert!(!is_scored_out(&game, &[-1.0; 81]));
    }

    #[test]
    fn settled_walls_with_dame_are_scored_out() {
        use Color::{Black as B, White as W};
        // 3x3: Black column A, White column C, dame column B.
        let game = game_with(
            3,
            &[
                ("A1", B),
                ("C1", W),
                ("A2", B),
                ("C2", W),
                ("A3", B),
                ("C3", W),
            ],
        );
        let mut ownership = [0.0f32; 9];
        for row in 0..3 {
            ownership[row * 3] = 1.0;
            ownership[row * 3 + 2] = -1.0;
        }
        assert!(is_scored_out(&game, &ownership));
        // A stone the playouts say dies is not scored out.
        ownership[0] = -0.5;
        assert!(!is_scored_out(&game, &ownership));
    }
}
