//! `hane analyze`: a whole game reviewed by the search. Every position of
//! the main line is searched; the file is written back with Black's
//! winning chance on each node (Sabaki's `SBKV`, which draws its win-rate
//! graph from it), a comment on each move that judges it by the searches
//! of the positions before and after it (its win rate and points lost)
//! and names the move hane chose, and hane's principal variation beside
//! each move it would not have played.
//!
//! A tool on top of the two lower layers: it replays the game with `game/`
//! and searches with `player/`; the protocol layer takes no part.

mod interrupt;
mod notes;
mod progress;

use std::fmt;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::frontend::{open_for_writing, read_sgf_file, write_over};
use crate::frontend::{RulesObject, Scoring};
use crate::game::sgf::{count_game_trees, MainLine, NodeId, SgfAction, SgfError, SgfGame, SgfTree};
use crate::game::{Color, Game, IllegalMove, Move, Rules, DEFAULT_KOMI};
use crate::player::{Clock, Player, PlayerConfig, RootMove, SearchReport, SearchRequest};
use notes::{comment, Judged, Verdict};
use progress::Progress;

/// What `hane analyze` is asked to do.
#[derive(Clone, Debug)]
pub struct ReviewOptions {
    pub input: PathBuf,
    pub output: PathBuf,
    /// The rules the game is replayed and searched under (the komi is the
    /// file's, the engine's default when it gives none).
    pub rules: Rules,
    /// Threads, seed and search settings; `playouts` or `seconds_per_move`
    /// is the budget of each position.
    pub player: PlayerConfig,
}

/// How an analysis went, for the closing line.
#[derive(Clone, Copy, Debug)]
pub struct ReviewSummary {
    /// Positions searched and written.
    pub positions: usize,
    /// Positions the whole review has.
    pub planned: usize,
    /// Moves of the game given a comment with their win rate and loss.
    pub moves_judged: usize,
    pub seconds: f64,
    /// The signal that stopped the review (Ctrl-C's SIGINT, SIGTERM or
    /// SIGHUP): the positions before it are written, or, with none,
    /// nothing.
    pub stopped_by: Option<i32>,
}

impl ReviewOptions {
    /// The output of a review when none is named: beside the game,
    /// `game.sgf` -> `game-reviewed.sgf`.
    pub fn default_output(input: &Path) -> PathBuf {
        let stem = input
            .file_stem()
            .map_or_else(|| "game".into(), |s| s.to_string_lossy().into_owned());
        input.with_file_name(format!("{stem}-reviewed.sgf"))
    }
}

/// Why no analysis was written. `Display` is the message the user sees.
#[derive(Debug)]
pub enum ReviewError {
    SameFile,
    Read(PathBuf, String),
    Sgf(PathBuf, SgfError),
    /// A collection of this many games.
    Collection(PathBuf, usize),
    Replay(PathBuf, String),
    Write(PathBuf, std::io::Error),
}

impl fmt::Display for ReviewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReviewError::SameFile => f.write_str(
                "the output is the input file, which analyze never changes: choose another -o",
            ),
            ReviewError::Read(path, why) => write!(f, "cannot read {}: {why}", path.display()),
            ReviewError::Sgf(path, error) => write!(f, "{}: {error}", path.display()),
            ReviewError::Collection(path, games) => write!(
                f,
                "{}: a collection of {games} games; hane analyze reviews one game a file: \
split it into one file a game",
                path.display()
            ),
            ReviewError::Replay(path, why) => {
                write!(
                    f,
                    "{}: the main line does not replay: {why}",
                    path.display()
                )
            }
            ReviewError::Write(path, error) => {
                write!(f, "cannot write {}: {error}", path.display())
            }
        }
    }
}

impl std::error::Error for ReviewError {}

/// Reads the game, searches every position of its main line and writes the
/// annotated game to the output. Everything the input can get wrong is
/// found before the first search, and the output is opened then too, so a
/// long analysis never ends in an error. Ctrl-C (SIGINT), SIGTERM or SIGHUP
/// from then on stops the review: the positions reviewed so far are
/// written, or, with none, nothing (an output file made for the review is
/// removed again).
pub fn review_file(options: &ReviewOptions) -> Result<ReviewSummary, ReviewError> {
    let start = Instant::now();
    if same_file(&options.input, &options.output) {
        return Err(ReviewError::SameFile);
    }
    let text = read_sgf_file(&options.input)
        .map_err(|why| ReviewError::Read(options.input.clone(), why))?;
    let sgf_error = |e| ReviewError::Sgf(options.input.clone(), e);
    let mut tree = SgfTree::parse(&text).map_err(sgf_error)?;
    // Only the first game would be reviewed and written: the others are
    // refused with their number rather than dropped without a word. (A
    // review takes minutes a game, and a collection may hold hundreds.)
    let games = count_game_trees(&text);
    if games > 1 {
        return Err(ReviewError::Collection(options.input.clone(), games));
    }
    // A move in the root has no node for the position before it: given one,
    // it is judged like every other move, hane's line beside it.
    if tree.split_root_move().is_some() {
        log::info!(
            "{}: the root's move is written in a node of its own",
            options.input.display()
        );
    }
    let main_line = tree.main_line().map_err(sgf_error)?;
    let (plan, broken) = plan(&main_line, options.rules)
        .map_err(|why| ReviewError::Replay(options.input.clone(), why))?;
    for note in rules_note(&main_line.game, options.rules)
        .into_iter()
        .chain(broken)
    {
        log::warn!("{}: {note}", options.input.display());
        tree.append_comment(tree.root(), &format!("hane analyze: {note}"));
    }
    // Caught before the output is made, so that no signal leaves an empty
    // file behind.
    interrupt::catch();
    let existed = options.output.exists();
    let mut output = open_output(&options.output)?;
    let searches = plan.iter().filter(|step| step.search_for.is_some()).count();
    let mut review = Review {
        player: Player::new(&options.player),
        clock: Clock::with_settings(options.player.playouts, options.player.seconds_per_move),
        rules: options.rules,
        progress: Progress::new(searches as u64),
    };
    let (reviewed, judged) = review
        .annotate(&mut tree, &main_line, &plan)
        .map_err(|why| ReviewError::Replay(options.input.clone(), why))?;
    review.progress.finish();
    let stopped_by = interrupt::signal();
    if stopped_by.is_some() && reviewed == 0 {
        drop(output);
        if !existed {
            let _ = std::fs::remove_file(&options.output);
        }
    } else {
        write_over(&mut output, &tree.write())
            .map_err(|e| ReviewError::Write(options.output.clone(), e))?;
    }
    Ok(ReviewSummary {
        positions: reviewed,
        planned: searches,
        moves_judged: judged,
        seconds: start.elapsed().as_secs_f64(),
        stopped_by,
    })
}

/// Whether the two paths name one file (through links too). An output
/// that does not exist yet is no input.
fn same_file(input: &Path, output: &Path) -> bool {
    let (Ok(a), Ok(b)) = (std::fs::metadata(input), std::fs::metadata(output)) else {
        return false;
    };
    same_inode(&a, &b)
        || matches!(
            (input.canonicalize(), output.canonicalize()),
            (Ok(a), Ok(b)) if a == b
        )
}

/// A hard link has a path of its own: only the inode tells.
#[cfg(unix)]
fn same_inode(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    (a.dev(), a.ino()) == (b.dev(), b.ino())
}

#[cfg(not(unix))]
fn same_inode(_: &std::fs::Metadata, _: &std::fs::Metadata) -> bool {
    false
}

/// Opens the output for writing without emptying it yet: a file that
/// cannot be written is reported before the analysis, not after it.
fn open_output(path: &Path) -> Result<File, ReviewError> {
    open_for_writing(path).map_err(|e| ReviewError::Write(path.to_path_buf(), e))
}

/// What to do at one node of the main line, found by replaying it once
/// before any search.
#[derive(Clone, Copy, Debug)]
struct Step {
    /// The side whose move the position after the node is searched for (the
    /// colour of the next move of the game when the next node holds one);
    /// None when two passes ended the game there.
    search_for: Option<Color>,
    /// The node's move when the node is one move and nothing else.
    game_move: Option<(Color, Move)>,
}

/// Replays the main line and says per node what to search, with a note
/// for each move the rules in force forbid, replayed as played (a
/// repetition the game's own rules allowed, as `hane analysis` replays
/// one); the text of the first move the board cannot take or bad setup
/// otherwise.
fn plan(main_line: &MainLine, rules: Rules) -> Result<(Vec<Step>, Vec<String>), String> {
    let record = &main_line.game;
    let mut game = game_for(record, rules)?;
    let mut moves_played = 0;
    let mut steps = Vec::with_capacity(main_line.nodes.len());
    let mut broken = Vec::new();
    for (index, (_, actions)) in main_line.nodes.iter().enumerate() {
        for action in &record.actions[actions.clone()] {
            let rule = game
                .replay_sgf_action_as_given(action, record.handicap, &mut moves_played)
                .map_err(|e| e.to_string())?;
            if let (Some(rule), SgfAction::Play(color, mv)) = (rule, action) {
                let what = match rule {
                    IllegalMove::Suicide => "is a suicide, which the rules forbid".to_string(),
                    _ => format!(
                        "repeats an earlier position, which {} superko forbids",
                        rules.superko
                    ),
                };
                broken.push(format!(
                    "move {moves_played}: {color} {mv} {what}; reviewed as played"
                ));
            }
        }
        let next_move = main_line
            .nodes
            .get(index + 1)
            .and_then(|(_, next)| single_move(record, next.clone()));
        steps.push(Step {
            search_for: (!game.is_over())
                .then(|| next_move.map_or(game.to_move(), |(color, _)| color)),
            game_move: single_move(record, actions.clone()),
        });
    }
    Ok((steps, broken))
}

/// What to say when the game names rules (RU) that hane does not play,
/// in the words `hane analysis` warns with: a territory count (japanese,
/// korean) or rules KataGo's names do not cover. Rules that count area
/// (chinese, tromp-taylor, aga, new-zealand, ...) give the same result as
/// Tromp-Taylor on a finished board: nothing needs saying.
fn rules_note(record: &SgfGame, rules: Rules) -> Option<String> {
    let named = record.rules.as_deref()?.trim();
    if named.is_empty() {
        return None;
    }
    let komi = record.komi.unwrap_or(DEFAULT_KOMI);
    match RulesObject::parse(named) {
        Ok(asked) if asked.scoring == Scoring::Area => None,
        Ok(asked) => {
            let why = asked.played(komi).err().unwrap_or_default();
            Some(format!(
                "the game's rules RU[{named}] count territory; {why}; reviewed under {rules}"
            ))
        }
        Err(_) => Some(format!(
            "the game's rules RU[{named}] are none hane knows; reviewed under {rules}"
        )),
    }
}

/// The game of `record` before its first action, under `rules` with the
/// record's komi.
fn game_for(record: &SgfGame, rules: Rules) -> Result<Game, String> {
    let game = Game::for_sgf(record, DEFAULT_KOMI, rules.superko).map_err(|e| e.to_string())?;
    let komi = game.komi();
    Ok(game.with_rules(rules.with_komi(komi)))
}

/// The node's move, when its actions are exactly one move.
fn single_move(record: &SgfGame, actions: std::ops::Range<usize>) -> Option<(Color, Move)> {
    match &record.actions[actions] {
        [SgfAction::Play(color, a_move)] => Some((*color, *a_move)),
        _ => None,
    }
}

/// The search and its settings, going through the game.
struct Review {
    player: Player,
    clock: Clock,
    rules: Rules,
    progress: Progress,
}

impl Review {
    /// Replays the main line again, searching where the plan says, and
    /// writes what each search found into the tree: the position's value
    /// on its node and, on each move, the comment that judges it by the
    /// searches of the positions before and after it. The positions
    /// searched and written, and the moves judged. Ctrl-C ends it there,
    /// the search it cut short unwritten.
    fn annotate(
        &mut self,
        tree: &mut SgfTree,
        main_line: &MainLine,
        plan: &[Step],
    ) -> Result<(usize, usize), String> {
        let record = &main_line.game;
        let mut game = game_for(record, self.rules)?;
        let mut moves_played = 0;
        let (mut reviewed, mut judged) = (0, 0);
        // The search of the node before, with hane's line where the next
        // move of the game differs from its choice.
        let mut before: Option<Searched> = None;
        for (index, ((node, actions), step)) in main_line.nodes.iter().zip(plan).enumerate() {
            if interrupt::raised() {
                break;
            }
            for action in &record.actions[actions.clone()] {
                game.replay_sgf_action_as_given(action, record.handicap, &mut moves_played)
                    .map_err(|e| e.to_string())?;
            }
            let searched = match step.search_for {
                None => None,
                Some(color) => {
                    let report = self.search(&game, color, moves_played);
                    if interrupt::raised() {
                        break;
                    }
                    reviewed += 1;
                    (!report.moves.is_empty()).then_some(report)
                }
            };
            let value = match &searched {
                None if step.search_for.is_none() => Some(Verdict::over(&game)),
                None => None,
                Some(report) => Some(Verdict::new(report)),
            };
            if let Some(value) = &value {
                notes::write_value(tree, *node, value);
            }
            let previous = before.take();
            if let (Some(previous), Some(value), Some(played)) = (previous, value, step.game_move) {
                if previous.write_judgement(tree, *node, played, value, searched.as_ref()) {
                    judged += 1;
                }
            }
            let next_move = plan.get(index + 1).and_then(|next| next.game_move);
            before = searched.map(|report| Searched::new(&mut game, *node, report, next_move));
        }
        Ok((reviewed, judged))
    }

    /// One position's search within the budget the command line set.
    fn search(&mut self, game: &Game, color: Color, moves_played: u64) -> SearchReport {
        self.progress.searching(moves_played);
        let budget = self.clock.untimed_budget(game.size());
        let request = SearchRequest::new(game, color, budget, interrupt::flag());
        let report = self.player.search(request);
        self.progress.searched();
        report
    }
}

/// A position searched, waiting for the search after the game's next move
/// to judge that move.
struct Searched {
    node: NodeId,
    report: SearchReport,
    /// hane's principal variation, where its choice is not the game's next
    /// move.
    variation: Vec<(Color, Move)>,
}

impl Searched {
    /// The search of `node`'s position (`game`, left as it was), with
    /// hane's line where `next_move` is not its choice.
    fn new(
        game: &mut Game,
        node: NodeId,
        report: SearchReport,
        next_move: Option<(Color, Move)>,
    ) -> Searched {
        let variation = match (report.moves.first(), next_move) {
            (Some(best), Some((color, played))) if color == report.to_move && best.mv != played => {
                legal_prefix(game, report.to_move, best)
            }
            _ => Vec::new(),
        };
        Searched {
            node,
            report,
            variation,
        }
    }

    /// Comments on the game's move `played` at `node`, a child of this
    /// one, from this search and the value after it (`after`, from the
    /// search `after_search` or the count), and adds hane's line beside
    /// it. Whether the move was judged: not when the search was for the
    /// other colour.
    fn write_judgement(
        self,
        tree: &mut SgfTree,
        node: NodeId,
        played: (Color, Move),
        after: Verdict,
        after_search: Option<&SearchReport>,
    ) -> bool {
        if played.0 != self.report.to_move {
            return false;
        }
        let judged = Judged {
            before: &self.report,
            value_before: Verdict::new(&self.report),
            value_after: after,
            playouts_after: after_search.map(|report| report.playouts),
        };
        tree.append_comment(node, &comment(&judged, played.1));
        if !self.variation.is_empty() {
            tree.add_variation(self.node, &self.variation, self.report.size);
        }
        true
    }
}

/// The principal variation as moves of alternate colours, cut at the first
/// move the game would refuse (the tree's moves are checked by the search,
/// but only the game's rules are exact). The game is left as it was.
fn legal_prefix(game: &mut Game, to_move: Color, best: &RootMove) -> Vec<(Color, Move)> {
    let mut moves = Vec::new();
    let mut color = to_move;
    for &a_move in &best.pv {
        if game.play(color, a_move).is_err() {
            break;
        }
        moves.push((color, a_move));
        color = color.opponent();
    }
    for _ in &moves {
        // Each was a move just played: undo takes it back.
        let _ = game.undo();
    }
    moves
}
