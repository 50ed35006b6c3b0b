//! The model: what a weights file describes, apart from any backend. The
//! trunk (a stem convolution and residual blocks, some pooling the board)
//! and each head (policy and pass, value or score, ownership), every
//! convolution's weights as the file holds them (fp32, batch norm folded
//! in), and the komis the network was taught at. `network_file` parses it
//! from a file's bytes; each backend (`forward`'s fp32 `Network`, `fast`'s
//! bf16 one) is built from it and lays the weights out as it computes.
//! A new head is described here once, read once in `network_file`, and
//! computed by each backend.

use super::evaluator::{Heads, KomiRange};

/// One convolution, batch norm folded in: `out` filters over `input`
/// channels of `kernel` x `kernel` points.
pub(super) struct Conv {
    pub(super) out: usize,
    pub(super) input: usize,
    pub(super) kernel: usize,
    /// `out` rows of `input * kernel * kernel`.
    pub(super) weights: Vec<f32>,
    pub(super) bias: Vec<f32>,
}

/// A residual block: two 3x3 convolutions, ReLU after the first and after
/// the sum with the block's input; where it pools, a bias the whole board
/// sets added to the first's channels before their ReLU.
pub(super) struct Block {
    pub(super) first: Conv,
    pub(super) pooling: Option<GlobalPooling>,
    pub(super) second: Conv,
}

/// A block's global pooling (KataGo's): a 3x3 convolution of the block's
/// input to a few channels, ReLU, their means and maxima over the board,
/// and a linear map of those to one bias a channel of the trunk, so that
/// a point's features can depend on the whole board (a ko threat, the
/// count, the komi).
pub(super) struct GlobalPooling {
    pub(super) conv: Conv,
    /// A row a trunk channel of the pooled features: the channels' means,
    /// then their maxima.
    pub(super) map: Vec<f32>,
}

/// The value head: a 1x1 convolution of the trunk to a few channels,
/// their means and maxima over the board, two fully connected layers to
/// one logit of the side to move's win or, as a score head, to a logit of
/// each final margin (`ScoreBelief`).
pub(super) struct ValueHead {
    pub(super) conv: Conv,
    pub(super) hidden: usize,
    /// `hidden` rows of the pooled features: the channels' means, then
    /// their maxima.
    pub(super) fc1: Vec<f32>,
    pub(super) fc1_bias: Vec<f32>,
    /// The score head's margins (odd), or 0 where the head gives one win
    /// logit.
    pub(super) bins: usize,
    /// `bins.max(1)` rows of `hidden`.
    pub(super) fc2: Vec<f32>,
    /// `bins.max(1)` biases.
    pub(super) fc2_bias: Vec<f32>,
}

/// The ownership head: a 3x3 convolution of the trunk, ReLU, and a 1x1
/// convolution to one channel, whose tanh is the point's owner (+1: the
/// side to move).
pub(super) struct OwnershipHead {
    pub(super) conv: Conv,
    pub(super) out: Conv,
}

/// A network as its weights file describes it.
pub struct Model {
    pub(super) channels: usize,
    pub(super) stem: Conv,
    pub(super) blocks: Vec<Block>,
    /// The policy head: a weight a trunk channel and a bias, a logit a
    /// point; pass's logit from the trunk's mean over the board.
    pub(super) head: Vec<f32>,
    pub(super) head_bias: f32,
    pub(super) pass: Vec<f32>,
    pub(super) pass_bias: f32,
    pub(super) value: Option<ValueHead>,
    pub(super) ownership: Option<OwnershipHead>,
    /// The komis it was taught at, where its stem reads the komi's plane.
    pub(super) taught_komi: Option<KomiRange>,
}

impl Model {
    /// Its shape in words, for the log and for clients that ask.
    pub fn description(&self) -> String {
        let value = match &self.value {
            Some(v) if v.bins > 0 => format!(
                ", a value head of {} channels and {} hidden units giving the final margin's \
                 distribution ({} margins)",
                v.conv.out, v.hidden, v.bins
            ),
            Some(v) => format!(
                ", a value head of {} channels and {} hidden units",
                v.conv.out, v.hidden
            ),
            None => String::new(),
        };
        let ownership = match &self.ownership {
            Some(o) => format!(", an ownership head of {} channels", o.conv.out),
            None => String::new(),
        };
        let komi = match self.taught_komi {
            Some(range) => format!(
                ", reading the komi (taught {} to {})",
                range.lowest, range.highest
            ),
            None => String::new(),
        };
        let pooling: Vec<&GlobalPooling> = self
            .blocks
            .iter()
            .filter_map(|b| b.pooling.as_ref())
            .collect();
        let pooling = match pooling.first() {
            Some(first) => format!(
                " ({} of them pooling the board over {} channels)",
                pooling.len(),
                first.conv.out
            ),
            None => String::new(),
        };
        format!(
            "{} residual blocks of {} channels{pooling}{value}{ownership}{komi}",
            self.blocks.len(),
            self.channels
        )
    }

    /// The judgements its evaluations carry.
    pub fn heads(&self) -> Heads {
        Heads {
            value: self.value.is_some(),
            ownership: self.ownership.is_some(),
            komi: self.taught_komi,
        }
    }
}
