//! What a search reports: per root move its visits, win rate and prior
//! (from the tree the threads share), mean margin (summed over the threads)
//! and principal variation, and for the board its ownership and expected
//! score (summed over the threads; where the network has an ownership head,
//! its judgement of the tree's positions mixed in). Numbers only: the
//! protocol layer turns them into text.

use std::time::Duration;

use super::judgement::BlackJudgement;
use super::margins::Margins;
use super::search::Search;
use super::tree::{chance_for, NodeId, Tree, PASS};
use super::worker::Worker;
use crate::game::{BoardSize, Color, Game, Move, Vertex};
use crate::player::board::Point;

/// Longest principal variation reported.
const MAX_PV_MOVES: usize = 20;

/// The z value of the lower confidence bound (95%, one-sided 97.5%).
const LCB_Z: f32 = 1.96;

/// The statistics of one root move after a search.
#[derive(Clone, Debug, PartialEq)]
pub struct RootMove {
    pub mv: Move,
    pub visits: u32,
    /// Winning chance for the side to move: the playouts' through the
    /// move, the prior's virtual ones left out (0.5 before any). The
    /// tree's, counted against the search's komi: what the search's own
    /// choices read.
    pub win_rate: f32,
    /// The side to move's winning chance after the move against the
    /// game's komi, where the tree's `win_rate` is not what a client is
    /// shown: with the value head's judgement at that komi mixed into
    /// the results (`value_share` above 0), the value head's judgement
    /// over the playouts through the move (`judgement.rs`), not mixed with
    /// their share won, which sits near one half in a middle game (the
    /// calibration of docs/judgement.md); with a dynamic
    /// komi or a komi-blind value mixed in, the share of this search's
    /// playouts through the move that won against the game's komi. None
    /// where the tree's `win_rate` is the measurement, or there is none.
    pub game_win_rate: Option<f32>,
    /// The tree's prior for the move, a share of 1 over the root's moves.
    pub prior: f32,
    /// Black's lead after the move: the margin at which this search's
    /// playouts through it split evenly (`Margins::lead`); None before
    /// any.
    pub black_margin: Option<f32>,
    /// The spread (standard deviation) of those playouts' margins; None
    /// before any.
    pub score_stdev: Option<f32>,
    /// The principal variation, starting with this move.
    pub pv: Vec<Move>,
    /// Per move of `pv`, the playouts of the position it leads to (KataGo's
    /// `pvVisits`; in a tree also its `pvEdgeVisits`).
    pub pv_visits: Vec<u32>,
    /// Per vertex, as `SearchReport::ownership`, over the playouts that
    /// began with this move; only when the search was asked for it
    /// (`Player::set_move_ownership`) and the move was played out.
    pub ownership: Option<Vec<f32>>,
}

impl RootMove {
    /// For the log: `D4 (412 visits, 57.3% for black)`, the win rate being
    /// that of `color`, the side the search was for.
    pub fn describe(&self, color: Color) -> String {
        format!(
            "{} ({} visits, {:.1}% for {color})",
            self.mv,
            self.visits,
            100.0 * self.win_rate
        )
    }

    /// The win rate a client is shown: the measurement against the game's
    /// komi (`game_win_rate` where the tree's is not that).
    pub fn shown_win_rate(&self) -> f32 {
        self.game_win_rate.unwrap_or(self.win_rate)
    }

    /// The lower bound of the shown win rate's 95% confidence interval:
    /// Wilson's score interval of a binomial, from the rate it is shown
    /// beside, so never above it; 0 with no visits. The normal
    /// approximation it replaces read a spread of 0 from a rate of 0 or 1,
    /// so a move won in its one playout had an lcb of 1 and came first for
    /// a client that ranks by it; Wilson's gives it 0.21, and agrees with
    /// the normal one where the visits are many.
    pub fn lcb(&self) -> f32 {
        if self.visits == 0 {
            return 0.0;
        }
        let p = self.shown_win_rate().clamp(0.0, 1.0);
        let n = self.visits as f32;
        let z2 = LCB_Z * LCB_Z;
        let centre = p + z2 / (2.0 * n);
        let spread = LCB_Z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        ((centre - spread) / (1.0 + z2 / n)).clamp(0.0, p)
    }
}

/// What a finished (or watched) search knows, for genmove and analysis.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchReport {
    pub size: BoardSize,
    /// The side the search chose a move for.
    pub to_move: Color,
    /// Most visited first.
    pub moves: Vec<RootMove>,
    /// Per vertex of the board, row-major from A1: +1 Black owns it, -1 White.
    pub ownership: Vec<f32>,
    /// Per vertex as `ownership`: the standard deviation of the owner (+1,
    /// -1, or 0 for a point no one owned) over the playouts, 0 to 1.
    pub ownership_stdev: Vec<f32>,
    /// Black's lead against the game's komi: the network's judgement over
    /// the tree (a finished game's count where the tree reached one),
    /// mixed with the margin at which the playouts split evenly.
    pub black_margin: f32,
    /// As `RootMove::game_win_rate`, for the position: over the whole
    /// tree's judged nodes, or all of this search's playouts.
    pub root_game_win_rate: Option<f32>,
    /// The spread (standard deviation) of the playouts' margins.
    pub score_stdev: f32,
    pub playouts: u64,
    pub elapsed: Duration,
}

impl SearchReport {
    /// The moves the search has played out, most visited first.
    pub fn played_out(&self) -> impl Iterator<Item = &RootMove> {
        self.moves.iter().filter(|m| m.visits > 0)
    }

    /// The most visited move that is a play, searched at least once and
    /// legal in `game` for the side to move: what to play instead of
    /// passing. A move no playout went through is none: among those the
    /// order is the board's, and A1 is no choice.
    pub fn best_play(&self, game: &Game) -> Option<&RootMove> {
        self.played_out()
            .find(|m| m.mv != Move::Pass && game.is_legal(self.to_move, m.mv))
    }

    /// The playouts through the root's moves: the visits of the position
    /// (with a reused tree, more than this search's own playouts).
    pub fn root_visits(&self) -> u64 {
        self.moves.iter().map(|m| m.visits as u64).sum()
    }

    /// The side to move's winning chance over all the root's visits, the
    /// moves weighted by their visits (KataGo's rootInfo `winrate`); 0.5
    /// before any.
    pub fn root_win_rate(&self) -> f32 {
        let visits = self.root_visits();
        if visits == 0 {
            return 0.5;
        }
        let wins: f64 = self
            .moves
            .iter()
            .map(|m| m.win_rate as f64 * m.visits as f64)
            .sum();
        (wins / visits as f64) as f32
    }

    /// Points the side to move leads by in the position: the network's
    /// judgement over the tree where it has an ownership head, mixed with
    /// the playouts' margins by `score_network`.
    pub fn root_score_lead(&self) -> f32 {
        self.to_move.sign() * self.black_margin
    }

    /// Points the side to move leads by after `m`, as for the position
    /// (the position's estimate when nothing below `m` was judged or
    /// played out).
    pub fn score_lead(&self, m: &RootMove) -> f32 {
        self.to_move.sign() * m.black_margin.unwrap_or(self.black_margin)
    }

    /// The position's win rate as a client is shown it: a measurement
    /// against the game's komi (`root_game_win_rate` where the tree's is
    /// not that), never adjusted to agree with the lead beside it. With
    /// the value mixed in, the two are read from the same judged nodes
    /// with the same weights; they may still name different sides (two
    /// heads, or the playouts' share against the network's lead), and a
    /// client sees both as they are.
    pub fn root_shown_win_rate(&self) -> f32 {
        self.root_game_win_rate
            .unwrap_or_else(|| self.root_win_rate())
    }

    /// Black's winning chance in the position, as `root_shown_win_rate`
    /// shows the side to move's.
    pub fn root_black_win_rate(&self) -> f32 {
        chance_for(self.to_move, self.root_shown_win_rate())
    }

    /// `m`'s win rate as a client is shown it (`RootMove::shown_win_rate`).
    pub fn shown_win_rate(&self, m: &RootMove) -> f32 {
        m.shown_win_rate()
    }

    /// The spread of the margins after `m` (the position's when it was
    /// not played out).
    pub fn score_stdev(&self, m: &RootMove) -> f32 {
        m.score_stdev.unwrap_or(self.score_stdev)
    }
}

/// One root move's statistics in the tree the threads share.
pub struct MoveTotals {
    pub point: Point,
    pub visits: u32,
    /// Wins, as the win rate times the visits.
    pub wins: f64,
}

/// The root moves' statistics, in the order of the root's children.
pub fn root_totals(search: &Search) -> Vec<MoveTotals> {
    search
        .root_children()
        .into_iter()
        .map(|(point, visits, rate)| MoveTotals {
            point,
            visits,
            wins: rate as f64 * visits as f64,
        })
        .collect()
}

/// The search's report for `to_move` at the game's position: the root
/// moves from the tree, and what each thread counted on its own
/// (ownership, margins, playouts) added up over `workers`.
pub fn summarise(
    search: &Search,
    workers: &[Worker],
    game: &Game,
    to_move: Color,
    elapsed: Duration,
) -> SearchReport {
    let size = game.size();
    // Every number a client is shown is against the game's komi: the
    // search may count its playouts with a dynamic one (`Search::komi`),
    // but the margins and the network's areas are counts without komi.
    let komi = game.komi() as f32;
    // Where the tree's win rates are not the playouts' against that komi,
    // the shown ones are read from the margins instead.
    let from_margins = !search.rates_are_against(komi);
    let for_side = |black: f32| chance_for(to_move, black);
    let side_share = |m: &Margins| m.black_wins(komi).filter(|_| from_margins).map(for_side);
    let sums = WorkerSums::of(search, workers, size);
    let (ownership, ownership_stdev) = sums.ownership();
    let leads = Leads {
        search,
        believes_value: search.judged_share_against(komi) > 0.0,
        komi,
    };
    let mut moves: Vec<RootMove> = root_totals(search)
        .iter()
        .map(|t| {
            let counts = sums.margins_after(t.point);
            RootMove {
                ownership: sums.ownership_after(t.point),
                score_stdev: counts.and_then(Margins::stdev),
                game_win_rate: move_win(&leads, t)
                    .map(for_side)
                    .or_else(|| counts.and_then(side_share)),
                ..root_move(
                    t,
                    move_lead(&leads, t, counts),
                    search,
                    search.root_priors(),
                )
            }
        })
        .collect();
    moves.sort_by(|a, b| {
        b.visits
            .cmp(&a.visits)
            .then(b.win_rate.total_cmp(&a.win_rate))
    });
    // The position's lead is the tree's, not the mean of its moves' by
    // visits (KataGo's form): the moves' judgements made for the report
    // are of moves the search tried and left, whose leads pull the mean
    // from the position's value. Measured on strong players' moves
    // (docs/benchmarks.md), the mean read 18.1% of them as losses of 3
    // points or more, the tree's 11.1%.
    let black_margin = leads
        .mixed(leads.judged(Tree::ROOT, None), sums.margins.lead(komi))
        .unwrap_or_else(|| game.score() as f32);
    SearchReport {
        size,
        to_move,
        moves,
        ownership,
        ownership_stdev,
        black_margin,
        root_game_win_rate: leads
            .black_win(leads.judged_win(Tree::ROOT, None))
            .map(for_side)
            .or_else(|| side_share(&sums.margins)),
        score_stdev: sums.margins.stdev().unwrap_or(0.0),
        playouts: sums.playouts,
        elapsed,
    }
}

/// Black's lead after the root move `t`: the network's judgement over its
/// subtree mixed with the margin at which its playouts (`counts`) split
/// evenly, where there is each.
fn move_lead(leads: &Leads, t: &MoveTotals, counts: Option<&Margins>) -> Option<f32> {
    let child = leads.search.tree().child_with_move(Tree::ROOT, t.point);
    let playouts = counts.and_then(|m| m.lead(leads.komi));
    match child.and_then(|c| leads.judged(c, Some(t.point))) {
        Some(judged) => leads.mixed(Some(judged), playouts),
        None if t.visits > 0 => leads.after_move(playouts, t.point).or(playouts),
        None => playouts,
    }
}

/// Black's winning chance after the root move `t`: the value head's
/// judgement over its subtree (or of the position after it, where the
/// search judged that and not the subtree); None where the search's
/// results hold no judgement at the game's komi.
fn move_win(leads: &Leads, t: &MoveTotals) -> Option<f32> {
    let child = leads.search.tree().child_with_move(Tree::ROOT, t.point);
    let network = match child.and_then(|c| leads.judged_win(c, Some(t.point))) {
        Some(judged) => Some(judged),
        None if t.visits > 0 => leads
            .search
            .judgement(Some(t.point))
            .and_then(|j| j.win_chance),
        None => None,
    };
    leads.black_win(network)
}

/// What the threads counted on their own, summed over them: ownership
/// (per vertex, with its squares for the spread), per root move its
/// ownership and margins, and all the margins.
struct WorkerSums {
    size: BoardSize,
    ownership: Vec<f64>,
    squares: Vec<f64>,
    samples: u64,
    /// Per root move whose ownership was summed: the sums and the count.
    move_ownership: Vec<(Point, Vec<f64>, u32)>,
    margins: Margins,
    /// Per root move: Black's margins over the playouts through it.
    move_margins: Vec<(Point, Margins)>,
    playouts: u64,
}

impl WorkerSums {
    fn of(search: &Search, workers: &[Worker], size: BoardSize) -> WorkerSums {
        let mut sums = WorkerSums {
            size,
            ownership: vec![0.0; size.points()],
            squares: vec![0.0; size.points()],
            samples: 0,
            move_ownership: Vec::new(),
            margins: Margins::default(),
            move_margins: Vec::new(),
            playouts: 0,
        };
        for worker in workers {
            sums.add(search, worker);
        }
        sums
    }

    fn add(&mut self, search: &Search, worker: &Worker) {
        let size = self.size;
        self.playouts += worker.playouts();
        let (sums, sums_of_squares) = (worker.ownership_sums(), worker.ownership_squares());
        for (i, v) in Vertex::all(size).enumerate() {
            let point = search.board().point(v) as usize;
            self.ownership[i] += sums[point];
            self.squares[i] += sums_of_squares[point];
        }
        self.samples += worker.ownership_samples();
        for (point, sums, count) in search.root_ownership(worker) {
            let index = match self.move_ownership.iter().position(|m| m.0 == point) {
                Some(index) => index,
                None => {
                    self.move_ownership
                        .push((point, vec![0.0; size.points()], 0));
                    self.move_ownership.len() - 1
                }
            };
            let entry = &mut self.move_ownership[index];
            for (i, v) in Vertex::all(size).enumerate() {
                entry.1[i] += sums[search.board().point(v) as usize];
            }
            entry.2 += count;
        }
        self.margins.merge(worker.margins());
        for (point, counts) in search.root_margins(worker) {
            match self.move_margins.iter_mut().find(|m| m.0 == point) {
                Some(m) => m.1.merge(counts),
                None => self.move_margins.push((point, counts.clone())),
            }
        }
    }

    /// Each vertex's mean owner and the owner's standard deviation.
    fn ownership(&self) -> (Vec<f32>, Vec<f32>) {
        let n = self.samples.max(1) as f64;
        let stdev = self
            .ownership
            .iter()
            .zip(&self.squares)
            .map(|(sum, square)| {
                let mean = sum / n;
                ((square / n - mean * mean).max(0.0).sqrt()) as f32
            })
            .collect();
        let mean = self.ownership.iter().map(|o| (o / n) as f32).collect();
        (mean, stdev)
    }

    /// The mean owners after the root move `point`, where they were summed.
    fn ownership_after(&self, point: Point) -> Option<Vec<f32>> {
        self.move_ownership
            .iter()
            .find(|m| m.0 == point)
            .map(|(_, sums, count)| {
                let n = (*count).max(1) as f64;
                sums.iter().map(|s| (s / n) as f32).collect()
            })
    }

    /// The margins of the playouts through the root move `point`.
    fn margins_after(&self, point: Point) -> Option<&Margins> {
        self.move_margins
            .iter()
            .find(|m| m.0 == point)
            .map(|m| &m.1)
    }
}

/// Black's lead at a node of the tree: the playouts' (the median of their
/// margins) and the network's (its judged area over the playouts through
/// the node, less the komi: `judgement.rs`) mixed by the search's
/// `score_network` share; and Black's winning chance there from the same
/// judged playouts.
struct Leads<'a> {
    search: &'a Search,
    /// Whether the search mixed the value head's judgement into its results
    /// at the game's komi (`Search::judged_share_against` above 0).
    believes_value: bool,
    komi: f32,
}

impl Leads<'_> {
    /// Black's judgement over the playouts through `node`, the root's
    /// position (`after` None) or the position after the root move
    /// `after`: the tree's averages, that node's own judgement replaced by
    /// the analysis's over the board's symmetries where it made one (the
    /// search's own, of one orientation, judged the four 4-4 points of the
    /// empty board 5 points apart).
    fn judgement(&self, node: NodeId, after: Option<Point>) -> BlackJudgement {
        let sums = self.search.tree().judged(node);
        match self.search.judgement(after) {
            // A chance is read only where the tree's results mix it in
            // (`black_win`): a value not believed is no judgement to show.
            Some(better) => sums.mean_with_own(BlackJudgement {
                area: Some(better.area),
                chance: better.win_chance,
            }),
            None => sums.mean(),
        }
    }

    /// The network's lead for Black over the playouts through `node`,
    /// where it judged a position on their way.
    fn judged(&self, node: NodeId, after: Option<Point>) -> Option<f32> {
        self.judgement(node, after)
            .area
            .map(|area| area - self.komi)
    }

    /// The value head's winning chance for Black over the playouts through
    /// `node`, where it judged a position on their way.
    fn judged_win(&self, node: NodeId, after: Option<Point>) -> Option<f32> {
        self.judgement(node, after).chance
    }

    /// Black's winning chance as shown: the value head's judgement
    /// (`network`) alone, whatever share of the results the search gave
    /// it. Measured against the outcomes of held-out strong games, the
    /// judgement alone is the calibrated one and a mixture with the
    /// playouts' share won is squeezed towards one half
    /// (docs/judgement.md). None where the search mixed in no judgement
    /// at the game's komi (a value not believed), or there is none.
    fn black_win(&self, network: Option<f32>) -> Option<f32> {
        network.filter(|_| self.believes_value)
    }

    /// Black's lead after the root move `mv` from the network's judgement
    /// of the position after it, made now (where the search judges moves).
    fn after_move(&self, playouts: Option<f32>, mv: Point) -> Option<f32> {
        if self.search.score_network_share() == 0.0 {
            return None;
        }
        let network = self.search.judgement(Some(mv))?.area - self.komi;
        self.mixed(Some(network), playouts)
    }

    fn mixed(&self, network: Option<f32>, playouts: Option<f32>) -> Option<f32> {
        let share = self.search.score_network_share();
        if share == 0.0 {
            return playouts;
        }
        match (network, playouts) {
            (Some(network), Some(playouts)) => Some(share * network + (1.0 - share) * playouts),
            (Some(network), None) => Some(network),
            (None, playouts) => playouts,
        }
    }
}

/// One move of the report from its statistics and Black's lead after it.
fn root_move(
    t: &MoveTotals,
    black_margin: Option<f32>,
    search: &Search,
    priors: &[(Point, f32)],
) -> RootMove {
    let to_move = |p: Point| {
        if p == PASS {
            Move::Pass
        } else {
            Move::Play(search.board().vertex(p))
        }
    };
    let pv = search.tree().principal_variation(t.point, MAX_PV_MOVES);
    RootMove {
        mv: to_move(t.point),
        visits: t.visits,
        win_rate: if t.visits > 0 {
            (t.wins / t.visits as f64) as f32
        } else {
            0.5
        },
        prior: priors
            .iter()
            .find(|(p, _)| *p == t.point)
            .map_or(0.0, |&(_, prior)| prior),
        black_margin,
        game_win_rate: None,
        score_stdev: None,
        pv: pv.iter().map(|&(point, _)| to_move(point)).collect(),
        pv_visits: pv.iter().map(|&(_, visits)| visits).collect(),
        ownership: None,
    }
}

/// A report on a 3x3 board for White to move, for the tests of what reads
/// it: a played-out move B2, pass, and an unvisited A1.
#[cfg(test)]
pub fn sample_report() -> SearchReport {
    let vertex = |text: &str| Move::Play(Vertex::parse_gtp(text).expect("vertex"));
    let mut ownership = vec![0.5f32; 9];
    ownership[8] = -1.0; // C3
    SearchReport {
        size: BoardSize::square(3),
        to_move: Color::White,
        moves: vec![
            RootMove {
                mv: vertex("B2"),
                visits: 300,
                win_rate: 0.6,
                prior: 0.2,
                black_margin: Some(-2.5),
                game_win_rate: None,
                score_stdev: None,
                pv: vec![vertex("B2"), vertex("C2"), Move::Pass],
                pv_visits: vec![300, 120, 40],
                ownership: Some(vec![0.25; 9]),
            },
            RootMove {
                mv: Move::Pass,
                visits: 50,
                win_rate: 0.3,
                prior: 0.1,
                black_margin: Some(3.0),
                game_win_rate: None,
                score_stdev: None,
                pv: vec![Move::Pass],
                pv_visits: vec![50],
                ownership: None,
            },
            RootMove {
                mv: vertex("A1"),
                visits: 0,
                win_rate: 0.5,
                prior: 0.05,
                black_margin: None,
                game_win_rate: None,
                score_stdev: None,
                pv: vec![vertex("A1")],
                pv_visits: vec![0],
                ownership: None,
            },
        ],
        ownership,
        ownership_stdev: vec![0.5; 9],
        black_margin: -1.0,
        root_game_win_rate: None,
        score_stdev: 12.5,
        playouts: 350,
        elapsed: Duration::from_millis(10),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_from_the_side_to_move() {
        let report = sample_report();
        let played: Vec<&RootMove> = report.played_out().collect();
        assert_eq!(played.len(), 2, "unvisited moves are left out");
        assert_eq!(report.score_lead(played[0]), 2.5);
        // White trails by 3 after passing, and wins 30%.
        assert_eq!(report.score_lead(played[1]), -3.0);
        assert_eq!(report.shown_win_rate(played[1]), 0.3);
        assert!(played[0].lcb() < 0.6 && played[0].lcb() > 0.5);
    }

    #[test]
    fn the_shown_win_rate_is_the_measurement_whatever_the_lead_says() {
        let mut report = sample_report();
        // The root: 59% for White over 350 visits; Black leads by 3.5.
        // The two are different measurements, both shown as they are (a
        // 50% put in the win rate's place read "winrate 5000" for most of
        // Lizzie's candidates).
        report.black_margin = 3.5;
        let rate = report.root_win_rate();
        assert!(rate > 0.5);
        assert_eq!(report.root_score_lead(), -3.5);
        assert_eq!(report.root_shown_win_rate(), rate);
        // A move: 60% for White, and White trails by 2 after it.
        report.moves[0].black_margin = Some(2.0);
        assert_eq!(report.score_lead(&report.moves[0]), -2.0);
        assert_eq!(report.shown_win_rate(&report.moves[0]), 0.6);
        // The lcb is below the rate it is shown beside.
        assert!(report.moves[0].lcb() < 0.6);
        // An unvisited move (50%) shows the position's lead.
        assert_eq!(report.score_lead(&report.moves[2]), -3.5);
        assert_eq!(report.shown_win_rate(&report.moves[2]), 0.5);
    }

    #[test]
    fn a_rate_against_the_game_s_komi_is_the_one_shown_and_its_lcb_s() {
        // The tree counted against a dynamic komi (60% for White); the
        // playouts through B2 won 20% of the time against the game's.
        let mut report = sample_report();
        report.moves[0].game_win_rate = Some(0.2);
        report.root_game_win_rate = Some(0.25);
        assert_eq!(report.shown_win_rate(&report.moves[0]), 0.2);
        assert!(report.moves[0].lcb() < 0.2);
        assert_eq!(report.root_shown_win_rate(), 0.25);
        // The search's own choices still read the tree's.
        assert_eq!(report.moves[0].win_rate, 0.6);
    }

    #[test]
    fn a_move_won_in_its_few_playouts_has_a_low_lcb() {
        let mut report = sample_report();
        let lcb = |report: &SearchReport| report.moves[0].lcb();
        report.moves[0].visits = 1;
        report.moves[0].win_rate = 1.0;
        assert!((lcb(&report) - 0.2065).abs() < 0.001, "{}", lcb(&report));
        report.moves[0].win_rate = 0.0;
        assert_eq!(lcb(&report), 0.0);
        report.moves[0].visits = 10;
        report.moves[0].win_rate = 1.0;
        assert!((lcb(&report) - 0.7225).abs() < 0.001, "{}", lcb(&report));
        // Many visits: the normal approximation's bound, nearly.
        report.moves[0].visits = 10_000;
        report.moves[0].win_rate = 0.6;
        let normal = 0.6 - LCB_Z * (0.24f32 / 10_000.0).sqrt();
        assert!((lcb(&report) - normal).abs() < 0.0005, "{}", lcb(&report));
    }
}
