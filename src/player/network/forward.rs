//! The network: a small residual convolutional network trained on strong
//! players' games (scripts/hane_train) that gives every point, and
//! pass, a logit for being the move played and, when its file has a value
//! head, the side to move's chance of winning, and with an ownership head,
//! who will own each point at the game's end. The search reads it through
//! the `Evaluator` trait (`evaluator.rs`); it is built from a `Model`
//! (`model.rs`, which `network_file.rs` reads): the fp32 backend, the
//! reference the others are checked against.
//! A file whose stem reads `KOMI_PLANES` planes is told the komi as well,
//! within the komis it was taught at (`KomiRange`).
//!
//! The forward pass is plain: each convolution is an im2col (the input's
//! k x k neighbourhoods laid out as columns) and one matrix product
//! (`matrixmultiply`'s sgemm), with batch norm already folded into the
//! weights by the exporter. The same weights run on every board size. An
//! `EvalScratch` keeps the buffers, so a search thread allocates nothing
//! per evaluation but the answer once warm.

use std::sync::Arc;

use super::evaluator::{
    finite, sigmoid, Evaluation, Evaluator, Heads, KomiRange, Position, Scratch,
};
use super::model::{Conv, Model};
use super::planes::{write_komi_plane, write_planes, KOMI_PLANES, PLANES};
use super::score_belief::ScoreBelief;
use crate::game::Color;
use crate::player::board::TacticalReader;

/// Another backend's ownership-head convolution (`run_with_trunk`).
pub(super) type OwnershipConv<'a> = dyn Fn(&[f32], (usize, usize), &mut Vec<f32>, &mut [f32]) + 'a;

/// What a value head says of a position, for the side to move.
#[derive(Clone, Debug, PartialEq)]
pub enum ValueOutput {
    /// The logit of its win (at the komi it reads, or the games' it learnt
    /// from).
    WinLogit(f32),
    /// The distribution of its final margin.
    Margins(ScoreBelief),
}

/// The CPU network in fp32, the reference backend: the model's weights as
/// the file holds them, im2col and one sgemm a convolution.
pub struct Network {
    pub(super) model: Model,
}

impl Network {
    /// The fp32 backend of `model`.
    pub fn new(model: Model) -> Network {
        Network { model }
    }

    /// Its shape in words, for the log and for clients that ask.
    pub fn description(&self) -> String {
        self.model.description()
    }
}

/// One thread's buffers for evaluating a network.
pub struct EvalScratch {
    pub(super) planes: Vec<f32>,
    columns: Vec<f32>,
    /// The trunk's activations, and a block's inner activations and its
    /// output before the skip connection: channels x points each.
    pub(super) trunk: Vec<f32>,
    inner: Vec<f32>,
    residual: Vec<f32>,
    /// A pooling block's channels over the board.
    pooling_points: Vec<f32>,
    /// The value head's channels over the board, and its hidden units.
    value_points: Vec<f32>,
    value_hidden: Vec<f32>,
    /// The ownership head's hidden channels over the board.
    ownership_points: Vec<f32>,
    reader: TacticalReader,
}

impl Default for EvalScratch {
    fn default() -> EvalScratch {
        EvalScratch::new()
    }
}

impl EvalScratch {
    pub fn new() -> EvalScratch {
        EvalScratch {
            planes: Vec::new(),
            columns: Vec::new(),
            trunk: Vec::new(),
            inner: Vec::new(),
            residual: Vec::new(),
            pooling_points: Vec::new(),
            value_points: Vec::new(),
            value_hidden: Vec::new(),
            ownership_points: Vec::new(),
            reader: TacticalReader::new(crate::player::board::DEEP_BUDGET),
        }
    }
}

/// What the network says of one position.
#[derive(Clone, Debug, PartialEq)]
pub struct NetworkOutput {
    /// One logit per point in `BoardSize::index` order, then pass.
    pub logits: Vec<f32>,
    /// The value head's judgement; None without one.
    pub value: Option<ValueOutput>,
    /// Per point in `BoardSize::index` order, its owner at the game's end
    /// from -1 (the opponent's) to +1 (the side to move's); None without
    /// an ownership head.
    pub ownership: Option<Vec<f32>>,
}

impl Network {
    /// The move logits and each head's judgement of `position` (its board
    /// left as it was).
    pub fn run(&self, scratch: &mut EvalScratch, position: Position<'_>) -> NetworkOutput {
        self.run_with_trunk(scratch, position, |s, shape| self.trunk(s, shape), None)
    }

    /// `run` with the trunk computed by `trunk` (from `scratch.planes` into
    /// `scratch.trunk`, channels by points): another backend's trunk, these
    /// heads; the ownership head's 3x3 convolution by `ownership_conv`
    /// where given (input, shape, scratch, output written whole, bias
    /// added), else by im2col.
    pub(super) fn run_with_trunk(
        &self,
        scratch: &mut EvalScratch,
        position: Position<'_>,
        trunk: impl FnOnce(&mut EvalScratch, (usize, usize)),
        ownership_conv: Option<&OwnershipConv<'_>>,
    ) -> NetworkOutput {
        let size = position.board.size();
        let n = size.points();
        write_inputs(scratch, position, self.model.taught_komi);
        trunk(scratch, (size.width, size.height));
        NetworkOutput {
            logits: self.policy(&scratch.trunk, n),
            value: self.value(scratch, (size.width, size.height)),
            ownership: self.ownership(scratch, (size.width, size.height), ownership_conv),
        }
    }

    /// The trunk over `scratch.planes`, into `scratch.trunk`.
    fn trunk(&self, scratch: &mut EvalScratch, shape: (usize, usize)) {
        self.trunk_with(scratch, shape, |block, second, input, columns, out| {
            let block = &self.model.blocks[block];
            let conv = if second { &block.second } else { &block.first };
            convolve(conv, input, shape, columns, out);
        });
    }

    /// `trunk` with each block's convolutions computed by `block_conv`
    /// (block, whether its second, input, scratch, output: the output
    /// written whole, bias added): another backend's convolutions in this
    /// trunk.
    pub(super) fn trunk_with(
        &self,
        scratch: &mut EvalScratch,
        shape: (usize, usize),
        block_conv: impl Fn(usize, bool, &[f32], &mut Vec<f32>, &mut [f32]),
    ) {
        let n = shape.0 * shape.1;
        let c = self.model.channels;
        let s = scratch;
        s.trunk.resize(c * n, 0.0);
        s.inner.resize(c * n, 0.0);
        s.residual.resize(c * n, 0.0);
        convolve(
            &self.model.stem,
            &s.planes,
            shape,
            &mut s.columns,
            &mut s.trunk,
        );
        relu(&mut s.trunk);
        for (index, block) in self.model.blocks.iter().enumerate() {
            block_conv(index, false, &s.trunk, &mut s.columns, &mut s.inner);
            if let Some(pooling) = &block.pooling {
                let g = pooling.conv.out;
                let pooled = pool_board(
                    &pooling.conv,
                    &s.trunk,
                    shape,
                    &mut s.columns,
                    &mut s.pooling_points,
                );
                for (row, map) in s
                    .inner
                    .chunks_exact_mut(n)
                    .zip(pooling.map.chunks_exact(2 * g))
                {
                    let bias: f32 = map.iter().zip(&pooled).map(|(w, x)| w * x).sum();
                    row.iter_mut().for_each(|x| *x += bias);
                }
            }
            relu(&mut s.inner);
            block_conv(index, true, &s.inner, &mut s.columns, &mut s.residual);
            for (t, r) in s.trunk.iter_mut().zip(&s.residual) {
                *t = (*t + r).max(0.0);
            }
        }
    }

    /// The policy head over the trunk of `n` points: a logit per point,
    /// and pass's from the trunk's mean over the board.
    fn policy(&self, trunk: &[f32], n: usize) -> Vec<f32> {
        let mut logits = vec![self.model.head_bias; n + 1];
        let mut pass = self.model.pass_bias;
        for (k, row) in trunk.chunks_exact(n).enumerate() {
            let (h, p) = (self.model.head[k], self.model.pass[k]);
            let mut sum = 0.0f32;
            for (logit, &x) in logits[..n].iter_mut().zip(row) {
                *logit += h * x;
                sum += x;
            }
            pass += p * sum / n as f32;
        }
        logits[n] = pass;
        logits
    }

    /// The value head over `scratch.trunk`, where the network has one.
    fn value(&self, scratch: &mut EvalScratch, shape: (usize, usize)) -> Option<ValueOutput> {
        let head = self.model.value.as_ref()?;
        let v = head.conv.out;
        let pooled = pool_board(
            &head.conv,
            &scratch.trunk,
            shape,
            &mut scratch.columns,
            &mut scratch.value_points,
        );
        let hidden = &mut scratch.value_hidden;
        hidden.clear();
        hidden.extend(
            head.fc1
                .chunks_exact(2 * v)
                .zip(&head.fc1_bias)
                .map(|(weights, &bias)| {
                    let x: f32 = weights.iter().zip(&pooled).map(|(w, x)| w * x).sum();
                    (bias + x).max(0.0)
                }),
        );
        let mut out: Vec<f32> = head
            .fc2
            .chunks_exact(head.hidden)
            .zip(&head.fc2_bias)
            .map(|(weights, &bias)| {
                bias + weights
                    .iter()
                    .zip(hidden.iter())
                    .map(|(w, x)| w * x)
                    .sum::<f32>()
            })
            .collect();
        Some(if head.bins == 0 {
            ValueOutput::WinLogit(out.pop().unwrap_or(0.0))
        } else {
            ValueOutput::Margins(ScoreBelief::new(out))
        })
    }
}

impl Network {
    /// The ownership head over `scratch.trunk`, where the network has one.
    fn ownership(
        &self,
        scratch: &mut EvalScratch,
        shape: (usize, usize),
        conv: Option<&OwnershipConv<'_>>,
    ) -> Option<Vec<f32>> {
        let head = self.model.ownership.as_ref()?;
        let n = shape.0 * shape.1;
        scratch.ownership_points.resize(head.conv.out * n, 0.0);
        let (input, columns, out) = (
            &scratch.trunk,
            &mut scratch.columns,
            &mut scratch.ownership_points,
        );
        match conv {
            Some(conv) => conv(input, shape, columns, out),
            None => convolve(&head.conv, input, shape, columns, out),
        }
        relu(&mut scratch.ownership_points);
        let mut owners = vec![0.0f32; n];
        convolve(
            &head.out,
            &scratch.ownership_points,
            shape,
            &mut scratch.columns,
            &mut owners,
        );
        for o in &mut owners {
            *o = o.tanh();
        }
        Some(owners)
    }
}

/// The input planes of `position` into `scratch.planes`: the written ones,
/// then, where the network reads the komi (`taught`), the komi's: the
/// taught komi nearest the position's.
fn write_inputs(scratch: &mut EvalScratch, position: Position<'_>, taught: Option<KomiRange>) {
    let n = position.board.size().points();
    let planes = if taught.is_some() {
        KOMI_PLANES
    } else {
        PLANES
    };
    scratch.planes.resize(planes * n, 0.0);
    let (written, komi) = scratch.planes.split_at_mut(PLANES * n);
    write_planes(
        position.board,
        position.to_move,
        position.recent,
        &mut scratch.reader,
        written,
    );
    if let Some(range) = taught {
        write_komi_plane(position.to_move, range.clamp(position.komi), komi);
    }
}

/// `conv` over `input` with a ReLU, into `points` (its channels over the
/// board), and those channels' means over the board, then their maxima:
/// what the value head and a block's global pooling read.
fn pool_board(
    conv: &Conv,
    input: &[f32],
    shape: (usize, usize),
    columns: &mut Vec<f32>,
    points: &mut Vec<f32>,
) -> Vec<f32> {
    let n = shape.0 * shape.1;
    points.resize(conv.out * n, 0.0);
    convolve(conv, input, shape, columns, points);
    relu(points);
    means_and_maxima(points, n)
}

/// The means over the board of channels of `n` points each (after a
/// ReLU: none below 0), then their maxima.
fn means_and_maxima(channels: &[f32], n: usize) -> Vec<f32> {
    let c = channels.len() / n;
    let mut pooled = vec![0.0f32; 2 * c];
    for (k, row) in channels.chunks_exact(n).enumerate() {
        pooled[k] = row.iter().sum::<f32>() / n as f32;
        pooled[c + k] = row.iter().copied().fold(0.0, f32::max);
    }
    pooled
}

fn relu(values: &mut [f32]) {
    for v in values {
        *v = v.max(0.0);
    }
}

/// `conv` over `input` (its `conv.input` channels of `width * height`
/// points each), zero padding at the edges, into `out` (`conv.out`
/// channels of as many points); `columns` is scratch.
pub(super) fn convolve(
    conv: &Conv,
    input: &[f32],
    (width, height): (usize, usize),
    columns: &mut Vec<f32>,
    out: &mut [f32],
) {
    let n = width * height;
    let k = conv.kernel;
    let depth = conv.input * k * k;
    assert_eq!(input.len(), conv.input * n);
    assert_eq!(out.len(), conv.out * n);
    // Every element is written below, so the buffer is only resized: an
    // evaluation zeroes no more than the board's edges.
    columns.resize(depth * n, 0.0);
    let half = k / 2;
    // Row r of `columns` is input channel r / (k*k) shifted by the offset
    // r % (k*k): each point's neighbour, or zero off the board.
    for (r, column_row) in columns.chunks_exact_mut(n).enumerate() {
        let channel = &input[(r / (k * k)) * n..][..n];
        shift_into(
            channel,
            (width, height),
            (r % k, r % (k * k) / k),
            half,
            column_row,
        );
    }
    for (row, &b) in out.chunks_exact_mut(n).zip(&conv.bias) {
        row.fill(b);
    }
    // out (conv.out x n) += weights (conv.out x depth) * columns (depth x n)
    assert_eq!(conv.weights.len(), conv.out * depth);
    assert_eq!(columns.len(), depth * n);
    // SAFETY: every matrix lies inside its slice: the asserts above check
    // the weights (conv.out x depth), the columns (depth x n) and the
    // output (conv.out x n), each stored row-major with the strides given.
    unsafe {
        matrixmultiply::sgemm(
            conv.out,
            depth,
            n,
            1.0,
            conv.weights.as_ptr(),
            depth as isize,
            1,
            columns.as_ptr(),
            n as isize,
            1,
            1.0,
            out.as_mut_ptr(),
            n as isize,
            1,
        );
    }
}

/// Writes `channel` (one plane of `width * height`) into `out` shifted by
/// (`dx`, `dy`) - `half`: each point gets its neighbour at that offset,
/// zero where the neighbour is off the board. Row by row, as one copy of
/// the columns on the board between the zeros of the edges.
fn shift_into(
    channel: &[f32],
    (width, height): (usize, usize),
    (dx, dy): (usize, usize),
    half: usize,
    out: &mut [f32],
) {
    // The points x whose neighbour x + dx - half is on the board.
    let x_from = half.saturating_sub(dx).min(width);
    let x_to = (width + half).saturating_sub(dx).clamp(x_from, width);
    for (y, row) in out.chunks_exact_mut(width).enumerate() {
        let sy = (y + dy).wrapping_sub(half);
        if sy >= height {
            row.fill(0.0);
            continue;
        }
        let source = &channel[sy * width..][..width];
        row[..x_from].fill(0.0);
        row[x_to..].fill(0.0);
        if x_from < x_to {
            // x_from + dx >= half here: a neighbour of x_from is on the board.
            let sx = x_from + dx - half;
            row[x_from..x_to].copy_from_slice(&source[sx..sx + (x_to - x_from)]);
        }
    }
}

/// A network's output as an evaluation for `to_move`, White's komi
/// `komi` (a score head's win chance read at the side to move's komi).
pub(super) fn evaluation_of(output: NetworkOutput, to_move: Color, komi: f32) -> Evaluation {
    // The side to move's komi: White's komi, Black's its negative.
    let komi = match to_move {
        Color::White => komi,
        Color::Black => -komi,
    };
    let (win_chance, final_margin) = match output.value {
        Some(ValueOutput::WinLogit(logit)) => (Some(sigmoid(logit)), None),
        Some(ValueOutput::Margins(belief)) => {
            (Some(belief.win_chance(komi)), Some(belief.median()))
        }
        None => (None, None),
    };
    finite(Evaluation {
        logits: output.logits,
        win_chance,
        final_margin,
        ownership: output.ownership,
    })
}

/// The CPU network: its buffers are an `EvalScratch` in the thread's
/// scratch.
impl Evaluator for Network {
    fn evaluate(&self, position: Position<'_>, scratch: &mut Scratch) -> Arc<Evaluation> {
        let (to_move, komi) = (position.to_move, position.komi);
        let output = self.run(scratch.get::<EvalScratch>(), position);
        Arc::new(evaluation_of(output, to_move, komi))
    }

    fn description(&self) -> String {
        Network::description(self)
    }

    fn heads(&self) -> Heads {
        self.model.heads()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::sgf::{self, SgfAction};
    use crate::game::{Color, Move};
    use crate::player::board::PlayoutBoard;
    use crate::player::network::model::ValueHead;
    use crate::player::network::{play_and_remember, RecentMoves, RECENT_MOVES};

    /// `net` on `to_move`'s position, at the golden game's komi (7.5).
    fn run(
        net: &Network,
        scratch: &mut EvalScratch,
        board: &mut PlayoutBoard,
        to_move: Color,
        recent: &RecentMoves,
    ) -> NetworkOutput {
        let position = Position {
            board,
            to_move,
            recent,
            komi: 7.5,
        };
        net.run(scratch, position)
    }

    #[test]
    fn the_win_chance_is_the_value_logits_sigmoid() {
        assert!((sigmoid(0.0) - 0.5).abs() < 1e-6);
        assert!(sigmoid(4.0) > 0.98 && sigmoid(-4.0) < 0.02);
        let mut board = PlayoutBoard::new(crate::game::BoardSize::square(9));
        let network = Network::shipped();
        let position = Position {
            board: &mut board,
            to_move: Color::Black,
            recent: &[None; 4],
            komi: 7.5,
        };
        let evaluation = network.evaluate(position, &mut Scratch::new());
        assert_eq!(evaluation.win_chance.is_some(), network.heads().value);
    }

    #[test]
    fn a_komi_it_was_not_taught_is_read_as_the_nearest_taught() {
        // data/training's network, taught at 6.5 and 7.5 alone.
        let network = Network::from_bytes(include_bytes!("../../../data/training/net.bin"))
            .expect("the candidate's weights");
        let judged = |komi: f32| {
            let mut board = PlayoutBoard::new(crate::game::BoardSize::square(9));
            let position = Position {
                board: &mut board,
                to_move: Color::Black,
                recent: &[None; 4],
                komi,
            };
            network.evaluate(position, &mut Scratch::new())
        };
        assert_eq!(judged(150.0), judged(7.5));
        assert_eq!(judged(-150.0), judged(6.5));
        assert_eq!(judged(0.5), judged(6.5));
        // Within the taught komis, the komi it is given.
        assert_ne!(judged(7.0), judged(7.5));
    }

    #[test]
    fn the_shipped_network_reproduces_the_training_frameworks_logits() {
        reproduces_golden(
            &Network::shipped(),
            include_str!("../../../data/policy-net-golden.json"),
        );
    }

    #[test]
    fn the_komi_reading_candidate_reproduces_the_training_frameworks_logits() {
        // data/training's network (issue 56), not shipped: its twentieth
        // plane, the komi, made by planes.rs here and by hane_train there.
        let net = Network::from_bytes(include_bytes!("../../../data/training/net.bin"))
            .expect("the candidate's weights");
        // Session 23's file, version 3: taught at the corpus's komis alone.
        assert_eq!(
            net.heads().komi,
            Some(KomiRange {
                lowest: 6.5,
                highest: 7.5
            })
        );
        reproduces_golden(&net, include_str!("../../../data/training/net-golden.json"));
    }

    #[test]
    fn the_pooling_check_network_reproduces_the_training_frameworks_logits() {
        // A small seeded network of version 5 (reference.py's
        // --make-pooling-net): a block with global pooling whose map is not
        // 0, so a pooling computed wrong moves its logits by 0.08, and a
        // score head whose 723 margins' logits are checked too.
        let net = Network::from_bytes(include_bytes!("../../../data/pooling-net.bin"))
            .expect("the pooling check's weights");
        assert!(net
            .description()
            .contains("1 of them pooling the board over 8 channels"));
        reproduces_golden(&net, include_str!("../../../data/pooling-net-golden.json"));
    }

    #[test]
    fn a_score_heads_win_chance_is_read_at_the_side_to_moves_komi() {
        let net = Network::from_bytes(include_bytes!("../../../data/pooling-net.bin"))
            .expect("the pooling check's weights");
        let size = crate::game::BoardSize::square(9);
        let mut board = PlayoutBoard::new(size);
        board.play(
            board.point(crate::game::Vertex::parse_gtp("E5").expect("E5")),
            Color::Black,
        );
        for (to_move, komi, side_komi) in [
            (Color::White, 7.5, 7.5),
            (Color::Black, 7.5, -7.5),
            (Color::Black, -3.0, 3.0),
        ] {
            let mut scratch = Scratch::new();
            let position = Position {
                board: &mut board,
                to_move,
                recent: &[None; 4],
                komi,
            };
            let judged = net.evaluate(position, &mut scratch);
            let position = Position {
                board: &mut board,
                to_move,
                recent: &[None; 4],
                komi,
            };
            let Some(ValueOutput::Margins(belief)) =
                net.run(scratch.get::<EvalScratch>(), position).value
            else {
                panic!("a score head");
            };
            assert_eq!(judged.win_chance, Some(belief.win_chance(side_komi)));
            assert_eq!(judged.final_margin, Some(belief.median()));
        }
    }

    /// `net`'s logits, values and ownership on the golden game's positions
    /// (at its komi, 7.5) are the golden file's, within 1e-4.
    fn reproduces_golden(net: &Network, golden: &str) {
        let mut scratch = EvalScratch::new();
        reproduces_golden_on(
            net,
            &mut |board, color, recent| run(net, &mut scratch, board, color, recent),
            golden,
            1e-4,
        );
    }

    /// Every golden file with its network, for the backends that must
    /// reproduce them all.
    const GOLDEN_FILES: [(&[u8], &str); 4] = [
        (
            include_bytes!("../../../data/policy-net.bin"),
            include_str!("../../../data/policy-net-golden.json"),
        ),
        (
            include_bytes!("../../../data/training/net.bin"),
            include_str!("../../../data/training/net-golden.json"),
        ),
        (
            include_bytes!("../../../data/pooling-net.bin"),
            include_str!("../../../data/pooling-net-golden.json"),
        ),
        (
            include_bytes!("../../../data/training/cpu/net.bin"),
            include_str!("../../../data/training/cpu/net-golden.json"),
        ),
    ];

    /// A backend built by `build` from each of `files`' networks, run by
    /// `run`, reproduces its golden file within `tolerance`.
    fn backend_reproduces_golden<B>(
        files: &[(&[u8], &str)],
        build: impl Fn(Model) -> B,
        run: impl Fn(&B, &mut Scratch, Position) -> NetworkOutput,
        tolerance: f32,
    ) {
        for &(bytes, golden) in files {
            let reference = Network::from_bytes(bytes).expect("fp32");
            let backend = build(Model::from_bytes(bytes).expect("model"));
            let mut scratch = Scratch::new();
            let mut evaluate = |board: &mut PlayoutBoard, to_move: Color, recent: &RecentMoves| {
                let position = Position {
                    board,
                    to_move,
                    recent,
                    komi: 7.5,
                };
                run(&backend, &mut scratch, position)
            };
            reproduces_golden_on(&reference, &mut evaluate, golden, tolerance);
        }
    }

    /// The winograd backend within fp32's 1e-4 of every golden file the
    /// reference is checked against.
    #[test]
    fn the_winograd_backend_reproduces_the_golden_files() {
        use crate::player::network::winograd::WinogradNetwork;
        backend_reproduces_golden(
            &GOLDEN_FILES,
            |model| WinogradNetwork::new(model).expect("winograd"),
            |fast, scratch, position| fast.run(scratch, position),
            1e-4,
        );
    }

    /// The bf16 backend on the networks it was first checked on: the
    /// shipped one and the lent GPU's.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_bf16_backend_reproduces_the_golden_files_within_its_precision() {
        use crate::player::network::bf16::{Bf16Network, LOGIT_TOLERANCE};
        if !crate::player::network::amx::available() {
            eprintln!("no AMX tiles on this CPU: the bf16 backend is refused (backend.rs's test)");
            return;
        }
        backend_reproduces_golden(
            &GOLDEN_FILES[..2],
            |model| Bf16Network::new(model).expect("bf16"),
            |fast, scratch, position| fast.run(scratch, position),
            LOGIT_TOLERANCE,
        );
    }

    /// `evaluate`'s outputs (a backend of `net`'s weights) on the golden
    /// game's positions are the golden file's, within `tolerance`.
    fn reproduces_golden_on(
        net: &Network,
        evaluate: &mut dyn FnMut(&mut PlayoutBoard, Color, &RecentMoves) -> NetworkOutput,
        golden: &str,
        tolerance: f32,
    ) {
        let golden: serde_json::Value = serde_json::from_str(golden).expect("golden file");
        let record = sgf::parse(include_bytes!("../../../data/selfplay/19x19/game-0000.sgf"))
            .expect("the golden game");
        let moves: Vec<(Color, Move)> = record
            .actions
            .iter()
            .filter_map(|a| match a {
                SgfAction::Play(c, m) => Some((*c, *m)),
                _ => None,
            })
            .collect();
        let positions: Vec<usize> = golden["positions"]
            .as_array()
            .expect("positions")
            .iter()
            .map(|p| p.as_u64().expect("a position") as usize)
            .collect();
        let logits = golden["logits"].as_array().expect("logits");
        assert!(positions.len() >= 4);
        let values = golden.get("values").and_then(|v| v.as_array());
        let score = golden.get("score").and_then(|v| v.as_array());
        let owners = golden.get("ownership").and_then(|v| v.as_array());
        assert_eq!(
            net.heads().value,
            values.is_some() || score.is_some(),
            "a value for each position"
        );
        assert_eq!(
            net.model.ownership.is_some(),
            owners.is_some(),
            "an ownership for each position"
        );
        let mut board = PlayoutBoard::new(record.size);
        let mut recent: RecentMoves = [None; RECENT_MOVES];
        let mut worst = 0.0f32;
        for (i, &(color, mv)) in moves.iter().enumerate() {
            if let Some(k) = positions.iter().position(|&p| p == i) {
                let output = evaluate(&mut board, color, &recent);
                match (&output.value, values, score) {
                    (Some(ValueOutput::WinLogit(ours)), Some(values), None) => {
                        let theirs = values[k].as_f64().expect("a value logit") as f32;
                        worst = worst.max((ours - theirs).abs());
                    }
                    (Some(ValueOutput::Margins(ours)), None, Some(score)) => {
                        let theirs = score[k].as_array().expect("a position's margins");
                        let ours = ours.logits();
                        assert_eq!(ours.len(), theirs.len());
                        for (a, b) in ours.iter().zip(theirs) {
                            let b = b.as_f64().expect("a margin's logit") as f32;
                            worst = worst.max((a - b).abs());
                        }
                    }
                    (None, None, None) => {}
                    _ => panic!("the golden file's value is not the network's kind"),
                }
                if let (Some(owners), Some(ours)) = (owners, &output.ownership) {
                    let theirs = owners[k].as_array().expect("a position's ownership");
                    assert_eq!(ours.len(), theirs.len());
                    for (a, b) in ours.iter().zip(theirs) {
                        let b = b.as_f64().expect("an owner") as f32;
                        worst = worst.max((a - b).abs());
                    }
                }
                let ours = output.logits;
                let theirs = logits[k].as_array().expect("a position's logits");
                assert_eq!(ours.len(), theirs.len());
                for (a, b) in ours.iter().zip(theirs) {
                    let b = b.as_f64().expect("a logit") as f32;
                    worst = worst.max((a - b).abs());
                }
            }
            let point = mv.vertex().map(|v| board.point(v));
            play_and_remember(&mut board, color, point, &mut recent);
        }
        assert!(worst <= tolerance, "largest difference {worst}");
    }

    #[test]
    fn a_shifted_plane_holds_each_points_neighbour_and_zero_off_the_board() {
        for (width, height) in [(1, 1), (2, 2), (3, 5), (9, 9), (19, 19), (7, 2)] {
            let channel: Vec<f32> = (0..width * height).map(|i| i as f32 + 1.0).collect();
            for k in [1, 3, 5] {
                let half = k / 2;
                for (dx, dy) in (0..k).flat_map(|dx| (0..k).map(move |dy| (dx, dy))) {
                    let mut out = vec![-1.0; width * height];
                    shift_into(&channel, (width, height), (dx, dy), half, &mut out);
                    for (i, &got) in out.iter().enumerate() {
                        let sx = (i % width) as isize + dx as isize - half as isize;
                        let sy = (i / width) as isize + dy as isize - half as isize;
                        let on_board =
                            (0..width as isize).contains(&sx) && (0..height as isize).contains(&sy);
                        let want = if on_board {
                            channel[sy as usize * width + sx as usize]
                        } else {
                            0.0
                        };
                        assert_eq!(got, want, "{width}x{height} k {k} ({dx}, {dy}) at {i}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_network_runs_on_every_board_size_and_prefers_sensible_moves() {
        let net = &Network::shipped();
        let mut scratch = EvalScratch::new();
        for size in [2, 9, 13, 19, 25] {
            let mut board = PlayoutBoard::new(size);
            let logits = run(net, &mut scratch, &mut board, Color::Black, &[None; 4]).logits;
            assert_eq!(logits.len(), size * size + 1);
            assert!(logits.iter().all(|l| l.is_finite()));
        }
        // On the empty 19x19 board strong players open on the third or
        // fourth line: the best point is there, never on the edge.
        let size = crate::game::BoardSize::square(19);
        let mut board = PlayoutBoard::new(size);
        let logits = run(net, &mut scratch, &mut board, Color::Black, &[None; 4]).logits;
        let best = crate::game::Vertex::all(size)
            .max_by(|&a, &b| logits[size.index(a)].total_cmp(&logits[size.index(b)]))
            .expect("points");
        let line = best.col.min(best.row).min(18 - best.col).min(18 - best.row);
        assert!((2..=3).contains(&line), "{best}");
    }

    #[test]
    fn the_value_head_pools_its_channels_means_and_maxima() {
        // A value head of random weights, checked against the definition
        // written out point by point from the trunk.
        let mut net = Network::shipped();
        let (v, h, c) = (3, 5, net.model.channels);
        let mut seed = 12345u32;
        let mut random = move || {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (seed >> 8) as f32 / (1u32 << 24) as f32 - 0.5
        };
        let mut take = |n: usize| (0..n).map(|_| random()).collect::<Vec<f32>>();
        net.model.value = Some(ValueHead {
            conv: Conv {
                out: v,
                input: c,
                kernel: 1,
                weights: take(v * c),
                bias: take(v),
            },
            hidden: h,
            fc1: take(h * 2 * v),
            fc1_bias: take(h),
            bins: 0,
            fc2: take(h),
            fc2_bias: vec![0.25],
        });
        let size = crate::game::BoardSize::square(9);
        let mut board = PlayoutBoard::new(size);
        for (i, color) in [(20, Color::Black), (60, Color::White), (40, Color::Black)] {
            let vertex = crate::game::Vertex::all(size).nth(i).expect("a point");
            board.play(board.point(vertex), color);
        }
        let mut scratch = EvalScratch::new();
        let output = run(&net, &mut scratch, &mut board, Color::White, &[None; 4]);
        let head = net.model.value.as_ref().expect("the head");
        let n = size.points();
        let trunk = &scratch.trunk;
        let mut pooled = vec![0.0f32; 2 * v];
        for k in 0..v {
            let at: Vec<f32> = (0..n)
                .map(|p| {
                    let sum: f32 = (0..c)
                        .map(|i| head.conv.weights[k * c + i] * trunk[i * n + p])
                        .sum();
                    (sum + head.conv.bias[k]).max(0.0)
                })
                .collect();
            pooled[k] = at.iter().sum::<f32>() / n as f32;
            pooled[v + k] = at.iter().copied().fold(0.0, f32::max);
        }
        let mut want = head.fc2_bias[0];
        for j in 0..h {
            let x: f32 = (0..2 * v)
                .map(|i| head.fc1[j * 2 * v + i] * pooled[i])
                .sum();
            want += head.fc2[j] * (x + head.fc1_bias[j]).max(0.0);
        }
        let Some(ValueOutput::WinLogit(got)) = output.value else {
            panic!("a win logit");
        };
        assert!((got - want).abs() < 1e-4, "{got} against {want}");
        // The policy is the same with or without the head.
        let mut without = Network::shipped();
        without.model.value = None;
        let plain = run(&without, &mut scratch, &mut board, Color::White, &[None; 4]);
        assert_eq!(plain.logits, output.logits);
        assert_eq!(plain.value, None);
    }
}
