//! The move policy network: a small residual convolutional network trained
//! on strong players' games (scripts/train_policy.py) that gives every
//! point, and pass, a logit for being the move played. The tree's priors
//! read it (`search/priors.rs`).
//!
//! The forward pass is plain: each convolution is an im2col (the input's
//! k x k neighbourhoods laid out as columns) and one matrix product
//! (`matrixmultiply`'s sgemm), with batch norm already folded into the
//! weights by the exporter. The same weights run on every board size. An
//! `Evaluator` keeps the buffers, so a search thread allocates nothing per
//! evaluation once warm.
//!
//! The weights file: the 8 bytes `HANEPOL1`, five little-endian u32
//! (format version 1, input planes, channels, residual blocks, the first
//! convolution's kernel side), then little-endian f32 tensors in PyTorch's
//! (out, in, row, column) order: the first convolution's weights and bias,
//! each block's two convolutions (weights, bias, weights, bias), the
//! policy head's per-channel weights and bias, the pass logit's
//! per-channel weights (over the trunk's mean over the board) and bias.

use std::fmt;
use std::path::Path;
use std::sync::OnceLock;

use super::planes::{write_planes, RecentMoves, PLANES};
use crate::game::Color;
use crate::player::board::{PlayoutBoard, TacticalReader};

const MAGIC: &[u8; 8] = b"HANEPOL1";
const FORMAT_VERSION: u32 = 1;
/// Bounds that keep a corrupt header from asking for absurd allocations.
const MAX_CHANNELS: usize = 512;
const MAX_BLOCKS: usize = 64;

/// The bytes of the network shipped with hane (data/policy-net.bin).
static SHIPPED: &[u8] = include_bytes!("../../../data/policy-net.bin");

/// Why a weights file was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetworkError {
    NotAWeightsFile,
    Version(u32),
    Shape(String),
    Length { expected: usize, found: usize },
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::NotAWeightsFile => write!(f, "not a hane policy network file"),
            NetworkError::Version(v) => {
                write!(f, "format version {v}, this hane reads {FORMAT_VERSION}")
            }
            NetworkError::Shape(s) => write!(f, "unusable shape: {s}"),
            NetworkError::Length { expected, found } => {
                write!(f, "{found} bytes where the header promises {expected}")
            }
        }
    }
}

/// One convolution, batch norm folded in: `out` filters over `input`
/// channels of `kernel` x `kernel` points.
struct Conv {
    out: usize,
    input: usize,
    kernel: usize,
    /// `out` rows of `input * kernel * kernel`.
    weights: Vec<f32>,
    bias: Vec<f32>,
}

pub struct PolicyNet {
    channels: usize,
    stem: Conv,
    /// Each block's two convolutions.
    blocks: Vec<(Conv, Conv)>,
    head: Vec<f32>,
    head_bias: f32,
    pass: Vec<f32>,
    pass_bias: f32,
}

/// Reads the f32s of a weights file in order.
struct Floats<'a> {
    bytes: &'a [u8],
}

impl Floats<'_> {
    fn take(&mut self, n: usize) -> Vec<f32> {
        let (now, rest) = self.bytes.split_at(4 * n);
        self.bytes = rest;
        now.chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect()
    }

    fn conv(&mut self, out: usize, input: usize, kernel: usize) -> Conv {
        Conv {
            out,
            input,
            kernel,
            weights: self.take(out * input * kernel * kernel),
            bias: self.take(out),
        }
    }
}

impl PolicyNet {
    /// The network of a weights file's bytes, every size checked before
    /// anything is read.
    pub fn from_bytes(bytes: &[u8]) -> Result<PolicyNet, NetworkError> {
        let header = 8 + 5 * 4;
        if bytes.len() < header || &bytes[..8] != MAGIC {
            return Err(NetworkError::NotAWeightsFile);
        }
        let word = |i: usize| {
            let at = 8 + 4 * i;
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]) as usize
        };
        let (version, planes, channels, blocks, kernel) =
            (word(0), word(1), word(2), word(3), word(4));
        if version as u32 != FORMAT_VERSION {
            return Err(NetworkError::Version(version as u32));
        }
        if planes != PLANES {
            return Err(NetworkError::Shape(format!(
                "{planes} input planes, this hane writes {PLANES}"
            )));
        }
        if channels == 0 || channels > MAX_CHANNELS || blocks > MAX_BLOCKS {
            return Err(NetworkError::Shape(format!(
                "{blocks} blocks of {channels} channels"
            )));
        }
        if kernel % 2 == 0 || kernel > 9 {
            return Err(NetworkError::Shape(format!("a first kernel of {kernel}")));
        }
        let floats = channels * (planes * kernel * kernel + 1)
            + blocks * 2 * channels * (channels * 9 + 1)
            + 2 * (channels + 1);
        let expected = header + 4 * floats;
        if bytes.len() != expected {
            return Err(NetworkError::Length {
                expected,
                found: bytes.len(),
            });
        }
        let mut floats = Floats {
            bytes: &bytes[header..],
        };
        let stem = floats.conv(channels, planes, kernel);
        let blocks = (0..blocks)
            .map(|_| {
                (
                    floats.conv(channels, channels, 3),
                    floats.conv(channels, channels, 3),
                )
            })
            .collect();
        let head = floats.take(channels);
        let head_bias = floats.take(1)[0];
        let pass = floats.take(channels);
        let pass_bias = floats.take(1)[0];
        Ok(PolicyNet {
            channels,
            stem,
            blocks,
            head,
            head_bias,
            pass,
            pass_bias,
        })
    }

    /// The network the searches use: the one `use_network_file` chose, or
    /// the shipped one; None when a chosen file could not be read.
    pub fn active() -> Option<&'static PolicyNet> {
        ACTIVE.get_or_init(|| Some(shipped())).as_ref()
    }
}

/// The network of this process, chosen once before the first search.
static ACTIVE: OnceLock<Option<PolicyNet>> = OnceLock::new();

/// Weights files larger than this are refused unread: the largest network
/// the header bounds allow is far smaller than a corrupt length could ask.
const MAX_FILE_BYTES: u64 = 256 << 20;

/// The network shipped with hane (data/policy-net.bin), compiled in.
fn shipped() -> PolicyNet {
    let net = PolicyNet::from_bytes(SHIPPED).expect("the shipped network is checked by its tests");
    log::info!("policy network: {}", net.description());
    net
}

/// Makes the weights file at `path` the network of every search of this
/// process, in place of the shipped one. Called once, before any search.
/// When the file cannot be used, the searches go on without a network (the
/// pattern prior alone) and the reason comes back for the caller to show.
pub fn use_network_file(path: &Path) -> Result<(), String> {
    let (chosen, outcome) = match read_file(path) {
        Ok(net) => {
            log::info!("policy network {}: {}", path.display(), net.description());
            (Some(net), Ok(()))
        }
        Err(e) => (None, Err(format!("{}: {e}", path.display()))),
    };
    ACTIVE
        .set(chosen)
        .map_err(|_| "the policy network was chosen already".to_string())?;
    outcome
}

/// The network of a weights file, its size bounded before it is read.
fn read_file(path: &Path) -> Result<PolicyNet, String> {
    let size = std::fs::metadata(path).map_err(|e| e.to_string())?.len();
    if size > MAX_FILE_BYTES {
        return Err(format!("{size} bytes, more than any network hane reads"));
    }
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    PolicyNet::from_bytes(&bytes).map_err(|e| e.to_string())
}

impl PolicyNet {
    /// Its shape, for the log.
    fn description(&self) -> String {
        format!(
            "{} residual blocks of {} channels",
            self.blocks.len(),
            self.channels
        )
    }
}

/// One thread's buffers for evaluating a network.
pub struct Evaluator {
    planes: Vec<f32>,
    columns: Vec<f32>,
    /// The trunk's activations, and a block's inner activations and its
    /// output before the skip connection: channels x points each.
    trunk: Vec<f32>,
    inner: Vec<f32>,
    residual: Vec<f32>,
    logits: Vec<f32>,
    reader: TacticalReader,
}

impl Default for Evaluator {
    fn default() -> Evaluator {
        Evaluator::new()
    }
}

impl Evaluator {
    pub fn new() -> Evaluator {
        Evaluator {
            planes: Vec::new(),
            columns: Vec::new(),
            trunk: Vec::new(),
            inner: Vec::new(),
            residual: Vec::new(),
            logits: Vec::new(),
            reader: TacticalReader::new(crate::player::board::DEEP_BUDGET),
        }
    }

    /// The logits of `to_move`'s moves on `board` (left as it was): one
    /// per point in `BoardSize::index` order, then pass.
    pub fn policy(
        &mut self,
        net: &PolicyNet,
        board: &mut PlayoutBoard,
        to_move: Color,
        recent: &RecentMoves,
    ) -> &[f32] {
        let size = board.size();
        let n = size.points();
        self.planes.resize(PLANES * n, 0.0);
        write_planes(board, to_move, recent, &mut self.reader, &mut self.planes);
        self.run(net, size.width, size.height)
    }

    /// The forward pass over `self.planes`.
    fn run(&mut self, net: &PolicyNet, width: usize, height: usize) -> &[f32] {
        let n = width * height;
        let c = net.channels;
        self.trunk.resize(c * n, 0.0);
        self.inner.resize(c * n, 0.0);
        self.residual.resize(c * n, 0.0);
        let shape = (width, height);
        convolve(
            &net.stem,
            &self.planes,
            shape,
            &mut self.columns,
            &mut self.trunk,
        );
        relu(&mut self.trunk);
        for (first, second) in &net.blocks {
            convolve(
                first,
                &self.trunk,
                shape,
                &mut self.columns,
                &mut self.inner,
            );
            relu(&mut self.inner);
            convolve(
                second,
                &self.inner,
                shape,
                &mut self.columns,
                &mut self.residual,
            );
            for (t, r) in self.trunk.iter_mut().zip(&self.residual) {
                *t = (*t + r).max(0.0);
            }
        }
        self.logits.clear();
        self.logits.resize(n + 1, net.head_bias);
        let mut pass = net.pass_bias;
        for (k, row) in self.trunk.chunks_exact(n).enumerate() {
            let (h, p) = (net.head[k], net.pass[k]);
            let mut sum = 0.0f32;
            for (logit, &x) in self.logits[..n].iter_mut().zip(row) {
                *logit += h * x;
                sum += x;
            }
            pass += p * sum / n as f32;
        }
        self.logits[n] = pass;
        &self.logits
    }
}

fn relu(values: &mut [f32]) {
    for v in values {
        *v = v.max(0.0);
    }
}

/// `conv` over `input` (its `conv.input` channels of `width * height`
/// points each), zero padding at the edges, into `out` (`conv.out`
/// channels of as many points); `columns` is scratch.
fn convolve(
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::sgf::{self, SgfAction};
    use crate::game::Move;
    use crate::player::knowledge::{play_and_remember, RECENT_MOVES};

    #[test]
    fn the_shipped_network_reproduces_the_training_frameworks_logits() {
        let golden: serde_json::Value =
            serde_json::from_str(include_str!("../../../data/policy-net-golden.json"))
                .expect("golden file");
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
        let net = &shipped();
        let mut evaluator = Evaluator::new();
        let mut board = PlayoutBoard::new(record.size);
        let mut recent: RecentMoves = [None; RECENT_MOVES];
        let mut worst = 0.0f32;
        for (i, &(color, mv)) in moves.iter().enumerate() {
            if let Some(k) = positions.iter().position(|&p| p == i) {
                let ours = evaluator.policy(net, &mut board, color, &recent).to_vec();
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
        assert!(worst <= 1e-4, "largest difference {worst}");
    }

    #[test]
    fn weights_files_are_read_or_refused_with_the_reason() {
        let net = read_file(Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/data/policy-net.bin"
        )))
        .expect("the shipped file");
        assert_eq!(net.description(), shipped().description());
        let missing = read_file(Path::new("/nonexistent/net.bin")).err();
        assert!(missing.is_some_and(|e| e.contains("No such file")));
        let folder = read_file(Path::new(env!("CARGO_MANIFEST_DIR"))).err();
        assert!(folder.is_some());
        let text = read_file(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))).err();
        assert_eq!(text.as_deref(), Some("not a hane policy network file"));
    }

    #[test]
    fn broken_files_are_refused_with_the_reason() {
        assert_eq!(
            PolicyNet::from_bytes(b"not a network").err(),
            Some(NetworkError::NotAWeightsFile)
        );
        let mut bytes = SHIPPED.to_vec();
        bytes.pop();
        assert!(matches!(
            PolicyNet::from_bytes(&bytes).err(),
            Some(NetworkError::Length { .. })
        ));
        let mut bytes = SHIPPED.to_vec();
        bytes[8] = 9;
        assert_eq!(
            PolicyNet::from_bytes(&bytes).err(),
            Some(NetworkError::Version(9))
        );
        let mut bytes = SHIPPED.to_vec();
        bytes[12] = 3;
        assert!(matches!(
            PolicyNet::from_bytes(&bytes).err(),
            Some(NetworkError::Shape(_))
        ));
        // A header that asks for a huge network is refused before any
        // allocation.
        let mut bytes = SHIPPED.to_vec();
        bytes[16..20].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(
            PolicyNet::from_bytes(&bytes).err(),
            Some(NetworkError::Shape(_))
        ));
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
        let net = &shipped();
        let mut evaluator = Evaluator::new();
        for size in [2, 9, 13, 19, 25] {
            let mut board = PlayoutBoard::new(size);
            let logits = evaluator.policy(net, &mut board, Color::Black, &[None; 4]);
            assert_eq!(logits.len(), size * size + 1);
            assert!(logits.iter().all(|l| l.is_finite()));
        }
        // On the empty 19x19 board strong players open on the third or
        // fourth line: the best point is there, never on the edge.
        let size = crate::game::BoardSize::square(19);
        let mut board = PlayoutBoard::new(size);
        let logits = evaluator
            .policy(net, &mut board, Color::Black, &[None; 4])
            .to_vec();
        let best = crate::game::Vertex::all(size)
            .max_by(|&a, &b| logits[size.index(a)].total_cmp(&logits[size.index(b)]))
            .expect("points");
        let line = best.col.min(best.row).min(18 - best.col).min(18 - best.row);
        assert!((2..=3).contains(&line), "{best}");
    }
}
