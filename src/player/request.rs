//! What a caller asks of the player: one value that says everything a
//! search needs (the position, for whom, how long, the client's move rules,
//! what to report and to whom, whether the tree is kept), built by each
//! front-end and handed to `Player::search` or `Player::genmove`. The
//! player keeps no mode that a caller switches on and off: a request's
//! settings end with its search.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::clock::Budget;
use super::search::{MoveFilter, SearchReport};
use crate::game::{Color, Game};

/// A look at a running search: every `interval`, `on_report` gets the
/// statistics so far and returns false to end the search there. (Boxed so
/// that a request borrowing the game for a shorter time than the watcher
/// lives can still hold it.)
pub struct Watch<'a> {
    pub interval: Duration,
    pub on_report: Box<dyn FnMut(&SearchReport) -> bool + 'a>,
}

impl<'a> Watch<'a> {
    /// `on_report` every `interval`.
    pub fn every(
        interval: Duration,
        on_report: impl FnMut(&SearchReport) -> bool + 'a,
    ) -> Watch<'a> {
        Watch {
            interval,
            on_report: Box::new(on_report),
        }
    }
}

/// One search asked of the player.
pub struct SearchRequest<'a> {
    /// The position searched.
    pub game: &'a Game,
    /// The side to play there.
    pub color: Color,
    pub budget: Budget,
    /// Raised by the caller to end the search early (a new input line, an
    /// interrupt, a terminated query).
    pub stop: &'a AtomicBool,
    /// The client's avoid / allow rules at the root (none by default).
    pub filter: MoveFilter,
    /// Whether the report carries each root move's own ownership
    /// (KataGo's `movesOwnership`): a second sum per playout, so off by
    /// default.
    pub moves_ownership: bool,
    /// Whether each root move searched whose subtree the network has not
    /// judged gets the lead of the network's judgement of the position
    /// after it, an evaluation a move when the report is made (KataGo
    /// evaluates every move it visits): for analysis, where a candidate of
    /// a few visits otherwise shows the median of its few playouts' margins
    /// (tens of points off on 19x19). Off by default: a genmove's time is
    /// for its move.
    pub judge_moves: bool,
    /// Who sees the statistics while the search runs (nobody by default).
    pub watch: Option<Watch<'a>>,
    /// Whether the tree grown is kept for the next search (the default).
    /// A genmove that keeps nothing (`reg_genmove`) leaves no trace at
    /// all: the tree kept before, the random stream and the resign rule's
    /// memory stay as they were.
    pub keep_tree: bool,
}

impl<'a> SearchRequest<'a> {
    /// A search of `game`'s position for `color` within `budget`: no move
    /// rules, no per-move ownership, nobody watching, the tree kept.
    pub fn new(
        game: &'a Game,
        color: Color,
        budget: Budget,
        stop: &'a AtomicBool,
    ) -> SearchRequest<'a> {
        SearchRequest {
            game,
            color,
            budget,
            stop,
            filter: MoveFilter::default(),
            moves_ownership: false,
            judge_moves: false,
            watch: None,
            keep_tree: true,
        }
    }

    /// The search kept to the client's move rules.
    pub fn filtered(mut self, filter: &MoveFilter) -> SearchRequest<'a> {
        self.filter = filter.clone();
        self
    }

    /// The report with (or without) each root move's ownership.
    pub fn with_moves_ownership(mut self, on: bool) -> SearchRequest<'a> {
        self.moves_ownership = on;
        self
    }

    /// The report with (or without) the network's judgement of each root
    /// move searched (see `judge_moves`).
    pub fn judging_moves(mut self, on: bool) -> SearchRequest<'a> {
        self.judge_moves = on;
        self
    }

    /// The search shown to `watch` while it runs (nobody when None).
    pub fn watched(mut self, watch: Option<Watch<'a>>) -> SearchRequest<'a> {
        self.watch = watch;
        self
    }

    /// A search that leaves no trace (see `keep_tree`).
    pub fn keeping_no_tree(mut self) -> SearchRequest<'a> {
        self.keep_tree = false;
        self
    }
}
