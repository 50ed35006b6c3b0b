//! The network's weights file: its format, and every size and value
//! checked before a weight is used. The front-ends read the file (bounded,
//! `frontend::weights_file`); the player only ever sees its bytes.
//!
//! The 8 bytes `HANEPOL1`, then little-endian u32 words (each version's
//! words in order: `HEADER_WORDS`, the table data/weights-format.json
//! holds too, which the exporter writes by): the format version
//! (1 to 6), the input planes, the trunk's channels, its residual
//! blocks, the first convolution's kernel side; version 2 adds two more,
//! the value head's channels V and hidden units H (both 0: no value head);
//! version 3 one more, the ownership head's channels O (0: none); version
//! 4 two more, the global pooling's channels G and its period P (0 and 0:
//! none; else the blocks b with b % P == P - 1 pool); version 5 one more,
//! the score head's bins S (0: the value head gives one logit; else S, odd,
//! one a final margin of the side to move from -(S - 1) / 2 to +(S - 1) /
//! 2 points, `forward::ScoreBelief`); version 6 two more, the lowest and
//! the highest komi (White's, in half points, two's complement) the
//! network was taught at (`KomiRange`; both 0 in a komi-blind file).
//! A file of an earlier version with the komi's plane was taught at the
//! corpus's komis alone (`CORPUS_KOMIS`). Then little-endian
//! f32 tensors in PyTorch's (out, in, row, column) order: the first
//! convolution's weights and bias, each block's two convolutions (weights,
//! bias, weights, bias; in a block that pools, between them its pooling
//! convolution, G x channels x 3 x 3 and G biases, and its map, a row of
//! 2G a channel: the G channels' means over the board, then their
//! maxima), the policy head's per-channel weights
//! and bias, the pass logit's per-channel weights (over the trunk's mean
//! over the board) and bias; with a value head, its 1x1 convolution (V x
//! channels, and V biases), the first fully connected layer (H rows of 2V:
//! the V channels' means over the board, then their maxima; H biases) and
//! the second (H weights, one bias; with a score head S rows of H and S
//! biases); with an ownership head, its 3x3
//! convolution (O x channels x 3 x 3, and O biases) and its 1x1 (O
//! weights, one bias). Batch norm is folded into the convolutions by the
//! one exporter, scripts/hane_train/export.py, which writes version 6.

use std::fmt;

use super::evaluator::{Evaluation, Evaluator, KomiRange, Position, Scratch};
use super::forward::Network;
use super::model::{Block, Conv, GlobalPooling, Model, OwnershipHead, ValueHead};
use super::planes::{KOMI_PLANES, PLANES};

const MAGIC: &[u8; 8] = b"HANEPOL1";
/// The versions this hane reads: 1 (policy), 2 (policy, and a value head
/// when its sizes are not 0), 3 (version 2, and an ownership head when
/// its channels are not 0), 4 (version 3, and global pooling in the
/// trunk when its channels are not 0), 5 (version 4, and a score head
/// in the value head's place when its bins are not 0) and 6 (version 5,
/// and the komis a network that reads the komi was taught at).
const NEWEST_VERSION: u32 = 6;
/// Each version's header: the words after the version word, in order (a
/// word a version lacks reads as 0; the `_half_points` ones are two's
/// complement). data/weights-format.json is the same table, which
/// scripts/hane_train/weights_format.py reads for the exporter; a test
/// checks that the two agree.
const HEADER_WORDS: [(u32, &[&str]); 6] = [
    (1, &["planes", "channels", "blocks", "kernel"]),
    (
        2,
        &[
            "planes",
            "channels",
            "blocks",
            "kernel",
            "value_channels",
            "hidden",
        ],
    ),
    (
        3,
        &[
            "planes",
            "channels",
            "blocks",
            "kernel",
            "value_channels",
            "hidden",
            "ownership_channels",
        ],
    ),
    (
        4,
        &[
            "planes",
            "channels",
            "blocks",
            "kernel",
            "value_channels",
            "hidden",
            "ownership_channels",
            "gpool_channels",
            "gpool_every",
        ],
    ),
    (
        5,
        &[
            "planes",
            "channels",
            "blocks",
            "kernel",
            "value_channels",
            "hidden",
            "ownership_channels",
            "gpool_channels",
            "gpool_every",
            "score_bins",
        ],
    ),
    (
        6,
        &[
            "planes",
            "channels",
            "blocks",
            "kernel",
            "value_channels",
            "hidden",
            "ownership_channels",
            "gpool_channels",
            "gpool_every",
            "score_bins",
            "komi_low_half_points",
            "komi_high_half_points",
        ],
    ),
];
/// The komis of the games the corpus holds (TYGEM's 6.5, Tom's 7.5): all
/// a network of an earlier version that reads the komi was taught at,
/// since those files came from training that did not vary the komi.
const CORPUS_KOMIS: KomiRange = KomiRange {
    lowest: 6.5,
    highest: 7.5,
};
/// The largest komi (either side's, points) a version 6 file may say it
/// was taught at.
const MAX_TAUGHT_KOMI: f32 = 1000.0;
/// Bounds that keep a corrupt header from asking for absurd allocations.
const MAX_CHANNELS: usize = 512;
const MAX_BLOCKS: usize = 64;
const MAX_VALUE_CHANNELS: usize = 256;
const MAX_VALUE_HIDDEN: usize = 1024;
const MAX_OWNERSHIP_CHANNELS: usize = 256;
/// A 25x25 board's margins, and some.
const MAX_SCORE_BINS: usize = 4095;

/// The bytes of the network shipped with hane (data/policy-net.bin).
static SHIPPED: &[u8] = include_bytes!("../../../data/policy-net.bin");

/// Why a weights file was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetworkError {
    NotAWeightsFile,
    Version(u32),
    Shape(String),
    Length {
        expected: usize,
        found: usize,
    },
    /// A weight that is NaN or infinite: the `index`-th float of the file.
    NotFinite {
        index: usize,
    },
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::NotAWeightsFile => write!(f, "not a hane policy network file"),
            NetworkError::Version(v) => {
                write!(
                    f,
                    "format version {v}, this hane reads 1 to {NEWEST_VERSION}"
                )
            }
            NetworkError::Shape(s) => write!(f, "unusable shape: {s}"),
            NetworkError::Length { expected, found } => {
                write!(f, "{found} bytes where the header promises {expected}")
            }
            NetworkError::NotFinite { index } => {
                write!(f, "weight {index} is not a finite number")
            }
        }
    }
}

/// The sizes a header gives.
#[derive(Clone, Copy)]
struct Header {
    /// Bytes before the first weight.
    len: usize,
    planes: usize,
    channels: usize,
    blocks: usize,
    kernel: usize,
    value_channels: usize,
    value_hidden: usize,
    ownership_channels: usize,
    gpool_channels: usize,
    gpool_every: usize,
    score_bins: usize,
    /// The komis a network that reads the komi was taught at (None:
    /// komi-blind).
    taught_komi: Option<KomiRange>,
}

impl Header {
    fn read(bytes: &[u8]) -> Result<Header, NetworkError> {
        if bytes.len() < 8 + 5 * 4 || &bytes[..8] != MAGIC {
            return Err(NetworkError::NotAWeightsFile);
        }
        let word = |i: usize| {
            let at = 8 + 4 * i;
            bytes
                .get(at..at + 4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
        };
        let version = word(0).unwrap_or(0) as u32;
        let Some(&(_, names)) = HEADER_WORDS.iter().find(|(v, _)| *v == version) else {
            return Err(NetworkError::Version(version));
        };
        let read: Vec<usize> = (1..=names.len()).map_while(word).collect();
        if read.len() != names.len() {
            return Err(NetworkError::NotAWeightsFile);
        }
        let named = |name: &str| names.iter().position(|n| *n == name).map_or(0, |i| read[i]);
        // Two's complement: the words are read as u32.
        let taught_half_points = names.contains(&"komi_low_half_points").then(|| {
            (
                named("komi_low_half_points") as u32 as i32,
                named("komi_high_half_points") as u32 as i32,
            )
        });
        let header = Header {
            len: 8 + 4 * (1 + names.len()),
            planes: named("planes"),
            channels: named("channels"),
            blocks: named("blocks"),
            kernel: named("kernel"),
            value_channels: named("value_channels"),
            value_hidden: named("hidden"),
            ownership_channels: named("ownership_channels"),
            gpool_channels: named("gpool_channels"),
            gpool_every: named("gpool_every"),
            score_bins: named("score_bins"),
            taught_komi: None,
        };
        header.check()?;
        Ok(Header {
            taught_komi: header.taught_komi(taught_half_points)?,
            ..header
        })
    }

    fn check(&self) -> Result<(), NetworkError> {
        let shape = |s: String| Err(NetworkError::Shape(s));
        if self.planes != PLANES && self.planes != KOMI_PLANES {
            return shape(format!(
                "{} input planes, this hane writes {PLANES} (or {KOMI_PLANES} with the komi's)",
                self.planes
            ));
        }
        if self.channels == 0 || self.channels > MAX_CHANNELS || self.blocks > MAX_BLOCKS {
            return shape(format!(
                "{} blocks of {} channels",
                self.blocks, self.channels
            ));
        }
        if self.kernel % 2 == 0 || self.kernel > 9 {
            return shape(format!("a first kernel of {}", self.kernel));
        }
        let (v, h) = (self.value_channels, self.value_hidden);
        if (v == 0) != (h == 0) || v > MAX_VALUE_CHANNELS || h > MAX_VALUE_HIDDEN {
            return shape(format!("a value head of {v} channels and {h} hidden units"));
        }
        if self.ownership_channels > MAX_OWNERSHIP_CHANNELS {
            return shape(format!(
                "an ownership head of {} channels",
                self.ownership_channels
            ));
        }
        let (g, p) = (self.gpool_channels, self.gpool_every);
        if (g == 0) != (p == 0) || g > self.channels || p > MAX_BLOCKS {
            return shape(format!("global pooling of {g} channels every {p} blocks"));
        }
        let s = self.score_bins;
        if s > 0 && (s % 2 == 0 || s > MAX_SCORE_BINS || v == 0) {
            return shape(format!(
                "a score head of {s} margins (an odd count, up to {MAX_SCORE_BINS}, on a value head)"
            ));
        }
        Ok(())
    }

    /// The komis a network of this header that reads the komi was taught
    /// at (None: komi-blind), from version 6's words (`half_points`, None
    /// before it).
    fn taught_komi(
        &self,
        half_points: Option<(i32, i32)>,
    ) -> Result<Option<KomiRange>, NetworkError> {
        let (low, high) = match (self.planes == KOMI_PLANES, half_points) {
            (false, None | Some((0, 0))) => return Ok(None),
            (false, Some((low, high))) => {
                return Err(NetworkError::Shape(format!(
                    "komis taught ({low} to {high} half points) to a network that does not read the komi"
                )))
            }
            (true, None) => return Ok(Some(CORPUS_KOMIS)),
            (true, Some(words)) => words,
        };
        let range = KomiRange {
            lowest: low as f32 / 2.0,
            highest: high as f32 / 2.0,
        };
        if range.lowest > range.highest
            || range.lowest < -MAX_TAUGHT_KOMI
            || range.highest > MAX_TAUGHT_KOMI
        {
            return Err(NetworkError::Shape(format!(
                "komis taught from {} to {}",
                range.lowest, range.highest
            )));
        }
        Ok(Some(range))
    }

    /// Whether block `b` (from 0) pools the board.
    fn pools(&self, b: usize) -> bool {
        self.gpool_every > 0 && b % self.gpool_every == self.gpool_every - 1
    }

    /// The f32s the tensors take.
    fn floats(&self) -> usize {
        let (c, v, h) = (self.channels, self.value_channels, self.value_hidden);
        let value = if v == 0 {
            0
        } else {
            v * (c + 1) + h * (2 * v + 1) + self.score_bins.max(1) * (h + 1)
        };
        let o = self.ownership_channels;
        let ownership = if o == 0 { 0 } else { o * (c * 9 + 1) + o + 1 };
        let g = self.gpool_channels;
        let pooling = (0..self.blocks).filter(|&b| self.pools(b)).count();
        c * (self.planes * self.kernel * self.kernel + 1)
            + self.blocks * 2 * c * (c * 9 + 1)
            + pooling * (g * (c * 9 + 1) + c * 2 * g)
            + 2 * (c + 1)
            + value
            + ownership
    }
}

/// Reads the f32s of a weights file in order; the caller checked the
/// length, so every `take` is within the bytes.
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

    fn one(&mut self) -> f32 {
        self.take(1)[0]
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

impl Model {
    /// The model of a weights file's bytes, every size checked before
    /// anything is read and every weight checked to be a finite number.
    pub fn from_bytes(bytes: &[u8]) -> Result<Model, NetworkError> {
        let header = Header::read(bytes)?;
        let expected = header.len + 4 * header.floats();
        if bytes.len() != expected {
            return Err(NetworkError::Length {
                expected,
                found: bytes.len(),
            });
        }
        let weights = &bytes[header.len..];
        if let Some(index) = weights
            .chunks_exact(4)
            .position(|b| !f32::from_le_bytes([b[0], b[1], b[2], b[3]]).is_finite())
        {
            return Err(NetworkError::NotFinite { index });
        }
        let mut floats = Floats { bytes: weights };
        let c = header.channels;
        let stem = floats.conv(c, header.planes, header.kernel);
        let blocks = (0..header.blocks)
            .map(|b| Block {
                first: floats.conv(c, c, 3),
                pooling: header.pools(b).then(|| GlobalPooling {
                    conv: floats.conv(header.gpool_channels, c, 3),
                    map: floats.take(c * 2 * header.gpool_channels),
                }),
                second: floats.conv(c, c, 3),
            })
            .collect();
        let head = floats.take(c);
        let head_bias = floats.one();
        let pass = floats.take(c);
        let pass_bias = floats.one();
        let value = (header.value_channels > 0).then(|| {
            let (v, h) = (header.value_channels, header.value_hidden);
            ValueHead {
                conv: floats.conv(v, c, 1),
                hidden: h,
                fc1: floats.take(h * 2 * v),
                fc1_bias: floats.take(h),
                bins: header.score_bins,
                fc2: floats.take(h * header.score_bins.max(1)),
                fc2_bias: floats.take(header.score_bins.max(1)),
            }
        });
        let ownership = (header.ownership_channels > 0).then(|| {
            let o = header.ownership_channels;
            OwnershipHead {
                conv: floats.conv(o, c, 3),
                out: floats.conv(1, o, 1),
            }
        });
        Ok(Model {
            channels: c,
            stem,
            blocks,
            head,
            head_bias,
            pass,
            pass_bias,
            value,
            ownership,
            taught_komi: header.taught_komi,
        })
    }

    /// The model shipped with hane (data/policy-net.bin), compiled in.
    pub fn shipped() -> Model {
        Model::from_bytes(SHIPPED).expect("the shipped network is checked by its tests")
    }
}

impl Network {
    /// The fp32 backend of a weights file's bytes (`Model::from_bytes`).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        Model::from_bytes(bytes).map(Network::new)
    }

    /// The fp32 backend of the network shipped with hane.
    pub fn shipped() -> Network {
        Network::new(Model::shipped())
    }
}

/// What the bytes of a weights file hold, in words (its blocks, channels
/// and any value head), or why they are refused: the whole check a file
/// gets when it is loaded, for tools and the fuzzer.
pub fn describe_weights(bytes: &[u8]) -> Result<String, String> {
    Network::from_bytes(bytes)
        .map(|network| network.description())
        .map_err(|e| e.to_string())
}

/// The evaluation of the empty board of `size` by the network of a
/// weights file's bytes (None when they are refused): for the fuzzer,
/// which checks that any file the loader takes evaluates to numbers.
pub fn evaluate_weights_on_empty_board(bytes: &[u8], size: usize) -> Option<Evaluation> {
    let network = Network::from_bytes(bytes).ok()?;
    let mut board = crate::player::board::PlayoutBoard::new(crate::game::BoardSize::square(size));
    let evaluation = network.evaluate(Position::black_first(&mut board), &mut Scratch::new());
    Some((*evaluation).clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bytes of a version 2 file of the shipped network with a value
    /// head of `v` channels and `h` hidden units whose weights are `fill`.
    pub(crate) fn with_value_head(v: usize, h: usize, fill: f32) -> Vec<u8> {
        let shipped = Header::read(SHIPPED).expect("the shipped header");
        let policy = Header {
            value_channels: 0,
            value_hidden: 0,
            ownership_channels: 0,
            ..shipped
        };
        let mut bytes = MAGIC.to_vec();
        for word in [
            2,
            policy.planes,
            policy.channels,
            policy.blocks,
            policy.kernel,
            v,
            h,
        ] {
            bytes.extend((word as u32).to_le_bytes());
        }
        bytes.extend(&SHIPPED[shipped.len..][..4 * policy.floats()]);
        let with_head = Header {
            value_channels: v,
            value_hidden: h,
            ..policy
        };
        for _ in policy.floats()..with_head.floats() {
            bytes.extend(fill.to_le_bytes());
        }
        bytes
    }

    /// The bytes of a version 3 file: the shipped network's trunk, policy
    /// and value head, and an ownership head of `o` channels whose weights
    /// are `fill`.
    pub(crate) fn with_ownership_head(o: usize, fill: f32) -> Vec<u8> {
        let shipped = Header::read(SHIPPED).expect("the shipped header");
        let without = Header {
            ownership_channels: 0,
            ..shipped
        };
        let mut bytes = MAGIC.to_vec();
        for word in [
            3,
            without.planes,
            without.channels,
            without.blocks,
            without.kernel,
            without.value_channels,
            without.value_hidden,
            o,
        ] {
            bytes.extend((word as u32).to_le_bytes());
        }
        bytes.extend(&SHIPPED[shipped.len..][..4 * without.floats()]);
        let with_head = Header {
            ownership_channels: o,
            ..without
        };
        for _ in without.floats()..with_head.floats() {
            bytes.extend(fill.to_le_bytes());
        }
        bytes
    }

    /// The bytes of a version 4 file: the shipped network with global
    /// pooling of `g` channels every `every` blocks, its convolutions'
    /// weights and biases `conv_fill` and its maps' `map_fill`.
    fn with_pooling(g: usize, every: usize, conv_fill: f32, map_fill: f32) -> Vec<u8> {
        let shipped = Header::read(SHIPPED).expect("the shipped header");
        let mut bytes = MAGIC.to_vec();
        for word in [
            4,
            shipped.planes,
            shipped.channels,
            shipped.blocks,
            shipped.kernel,
            shipped.value_channels,
            shipped.value_hidden,
            shipped.ownership_channels,
            g,
            every,
        ] {
            bytes.extend((word as u32).to_le_bytes());
        }
        let c = shipped.channels;
        let (stem, conv) = (
            c * (shipped.planes * shipped.kernel * shipped.kernel + 1),
            c * (c * 9 + 1),
        );
        let mut floats = &SHIPPED[shipped.len..];
        let rest = floats.len() / 4 - stem - 2 * shipped.blocks * conv;
        let mut copy = |n: usize, bytes: &mut Vec<u8>| {
            bytes.extend(&floats[..4 * n]);
            floats = &floats[4 * n..];
        };
        copy(stem, &mut bytes);
        let pooling = Header {
            gpool_channels: g,
            gpool_every: every,
            ..shipped
        };
        for b in 0..shipped.blocks {
            copy(conv, &mut bytes);
            if pooling.pools(b) {
                let fills = [(conv_fill, g * (c * 9 + 1)), (map_fill, c * 2 * g)];
                for (fill, n) in fills {
                    (0..n).for_each(|_| bytes.extend(fill.to_le_bytes()));
                }
            }
            copy(conv, &mut bytes);
        }
        copy(rest, &mut bytes);
        bytes
    }

    #[test]
    fn version_4_files_carry_global_pooling_or_none() {
        let shipped = evaluate_weights_on_empty_board(SHIPPED, 19).expect("shipped");
        // Its map at 0 (as training starts it): the network unchanged.
        let bytes = with_pooling(4, 2, 0.01, 0.0);
        let net = Network::from_bytes(&bytes).expect("version 4");
        let blocks = Header::read(SHIPPED).expect("header").blocks;
        assert!(net.description().contains(&format!(
            "({} of them pooling the board over 4 channels)",
            blocks / 2
        )));
        assert_eq!(
            evaluate_weights_on_empty_board(&bytes, 19),
            Some(shipped.clone())
        );
        // A map that is not 0 moves every output.
        let pooled =
            evaluate_weights_on_empty_board(&with_pooling(4, 2, 0.01, 0.05), 19).expect("pooled");
        assert_ne!(pooled.logits, shipped.logits);
        // None, and shapes that make no sense.
        assert!(!Network::from_bytes(&with_pooling(0, 0, 0.0, 0.0))
            .expect("none")
            .description()
            .contains("pooling"));
        for (g, every) in [(0, 2), (4, 0), (MAX_CHANNELS + 1, 2), (4, MAX_BLOCKS + 1)] {
            assert!(
                matches!(
                    Network::from_bytes(&with_pooling(g, every, 0.0, 0.0)).err(),
                    Some(NetworkError::Shape(_))
                ),
                "{g} channels every {every} blocks"
            );
        }
        let mut bytes = with_pooling(4, 2, 0.01, 0.0);
        bytes.pop();
        assert!(matches!(
            Network::from_bytes(&bytes).err(),
            Some(NetworkError::Length { .. })
        ));
    }

    /// data/pooling-net.bin (version 5, a score head of 723 margins on a
    /// value head of 8 channels and 16 hidden units) with header word `i`
    /// set to `word`.
    fn pooling_net_with_word(i: usize, word: u32) -> Vec<u8> {
        pooling_net_with_words(&[(i, word)])
    }

    /// data/pooling-net.bin with each `(i, word)` of `words` in its header.
    fn pooling_net_with_words(words: &[(usize, u32)]) -> Vec<u8> {
        let mut bytes = include_bytes!("../../../data/pooling-net.bin").to_vec();
        for &(i, word) in words {
            bytes[8 + 4 * i..12 + 4 * i].copy_from_slice(&word.to_le_bytes());
        }
        bytes
    }

    #[test]
    fn version_5_files_carry_a_score_head_or_none() {
        let bytes = pooling_net_with_word(10, 723);
        let net = Network::from_bytes(&bytes).expect("version 5");
        assert!(net.description().contains("(723 margins)"));
        let judged = evaluate_weights_on_empty_board(&bytes, 19).expect("judged");
        let (chance, margin) = (
            judged.win_chance.expect("a win chance"),
            judged.final_margin.expect("a final margin"),
        );
        assert!((0.0..=1.0).contains(&chance), "{chance}");
        assert!(margin.abs() <= 361.0, "{margin}");
        // The lead is the score head's, not the ownership's sum.
        assert_eq!(judged.area_difference(), Some(margin));
        // Bins that are not the file's, or not odd, or without a value head.
        for bins in [721, 725, 0] {
            assert!(
                matches!(
                    Network::from_bytes(&pooling_net_with_word(10, bins)).err(),
                    Some(NetworkError::Length { .. })
                ),
                "{bins} margins"
            );
        }
        let no_value_head: &[(usize, u32)] = &[(5, 0), (6, 0)];
        for words in [
            &[(10, 722)],
            &[(10, MAX_SCORE_BINS as u32 + 2)],
            no_value_head,
        ] {
            assert!(
                matches!(
                    Network::from_bytes(&pooling_net_with_words(words)).err(),
                    Some(NetworkError::Shape(_))
                ),
                "header words {words:?}"
            );
        }
    }

    #[test]
    fn version_3_files_carry_an_ownership_head_or_none() {
        let net = Network::from_bytes(&with_ownership_head(4, 0.01)).expect("version 3");
        assert!(net
            .description()
            .contains("an ownership head of 4 channels"));
        let none = Network::from_bytes(&with_ownership_head(0, 0.0)).expect("no head");
        assert!(!none.description().contains("ownership"));
        let mut bytes = with_ownership_head(4, 0.01);
        bytes.pop();
        assert!(matches!(
            Network::from_bytes(&bytes).err(),
            Some(NetworkError::Length { .. })
        ));
        assert!(matches!(
            Network::from_bytes(&with_ownership_head(MAX_OWNERSHIP_CHANNELS + 1, 0.0)).err(),
            Some(NetworkError::Shape(_))
        ));
    }

    #[test]
    fn the_loaders_versions_are_the_format_files() {
        // data/weights-format.json: the table the exporter writes by.
        let format: serde_json::Value =
            serde_json::from_str(include_str!("../../../data/weights-format.json"))
                .expect("the format file");
        assert_eq!(format["magic"].as_str(), std::str::from_utf8(MAGIC).ok());
        let versions = format["versions"].as_array().expect("versions");
        let theirs: Vec<(u32, Vec<&str>)> = versions
            .iter()
            .map(|v| {
                let words = v["words"].as_array().expect("words");
                (
                    v["version"].as_u64().expect("a version") as u32,
                    words.iter().map(|w| w.as_str().expect("a word")).collect(),
                )
            })
            .collect();
        let ours: Vec<(u32, Vec<&str>)> = HEADER_WORDS
            .iter()
            .map(|(v, words)| (*v, words.to_vec()))
            .collect();
        assert_eq!(ours, theirs);
        assert_eq!(ours.last().map(|(v, _)| *v), Some(NEWEST_VERSION));
        // Every word the loader reads is one the table names.
        for (version, words) in &ours {
            let mut bytes = MAGIC.to_vec();
            bytes.extend(version.to_le_bytes());
            for word in words {
                let value: u32 = match *word {
                    "planes" => PLANES as u32,
                    "channels" => 8,
                    "blocks" => 1,
                    "kernel" => 3,
                    _ => 0,
                };
                bytes.extend(value.to_le_bytes());
            }
            let header = Header::read(&bytes).expect("a header of the table's words");
            assert_eq!(header.len, bytes.len(), "version {version}");
            assert_eq!(
                (header.planes, header.channels, header.blocks),
                (PLANES, 8, 1)
            );
        }
    }

    #[test]
    fn the_shipped_files_bytes_are_the_shipped_network() {
        let shipped = include_bytes!("../../../data/policy-net.bin");
        let net = Network::from_bytes(shipped).expect("the shipped file");
        assert_eq!(net.description(), Network::shipped().description());
        let readme = include_bytes!("../../../README.md");
        assert_eq!(
            Network::from_bytes(readme).err(),
            Some(NetworkError::NotAWeightsFile)
        );
    }

    #[test]
    fn broken_files_are_refused_with_the_reason() {
        assert_eq!(
            Network::from_bytes(b"not a network").err(),
            Some(NetworkError::NotAWeightsFile)
        );
        let mut bytes = SHIPPED.to_vec();
        bytes.pop();
        assert!(matches!(
            Network::from_bytes(&bytes).err(),
            Some(NetworkError::Length { .. })
        ));
        let mut bytes = SHIPPED.to_vec();
        bytes[8] = 9;
        assert_eq!(
            Network::from_bytes(&bytes).err(),
            Some(NetworkError::Version(9))
        );
        let mut bytes = SHIPPED.to_vec();
        bytes[12] = 3;
        assert!(matches!(
            Network::from_bytes(&bytes).err(),
            Some(NetworkError::Shape(_))
        ));
        // A header that asks for a huge network is refused before any
        // allocation.
        let mut bytes = SHIPPED.to_vec();
        bytes[16..20].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(
            Network::from_bytes(&bytes).err(),
            Some(NetworkError::Shape(_))
        ));
        // Version 2 with only one of the value head's sizes.
        let mut bytes = with_value_head(4, 8, 0.0);
        bytes[32..36].copy_from_slice(&0u32.to_le_bytes());
        assert!(matches!(
            Network::from_bytes(&bytes).err(),
            Some(NetworkError::Shape(_))
        ));
    }

    #[test]
    fn a_weight_that_is_not_a_number_refuses_the_file() {
        // The last weight of the shipped file.
        let header = Header::read(SHIPPED).expect("the shipped header");
        for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            let mut bytes = SHIPPED.to_vec();
            let at = bytes.len() - 4;
            bytes[at..].copy_from_slice(&bad.to_le_bytes());
            let floats = (bytes.len() - header.len) / 4;
            assert_eq!(
                Network::from_bytes(&bytes).err(),
                Some(NetworkError::NotFinite { index: floats - 1 })
            );
        }
        let mut bytes = with_value_head(2, 3, 0.5);
        let at = bytes.len() - 4;
        bytes[at..].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(matches!(
            Network::from_bytes(&bytes).err(),
            Some(NetworkError::NotFinite { .. })
        ));
    }

    #[test]
    fn version_2_files_carry_a_value_head_or_none() {
        let net = Network::from_bytes(&with_value_head(4, 8, 0.01)).expect("a value head");
        assert!(net.heads().value);
        assert!(net.description().contains("value head"));
        let none = Network::from_bytes(&with_value_head(0, 0, 0.0)).expect("no value head");
        assert!(!none.heads().value);
    }

    /// data/pooling-net.bin (version 5, reading the komi) as a version 6
    /// file taught at komis from `low` to `high` half points (header words,
    /// two's complement).
    fn taught_from(low: i32, high: i32) -> Vec<u8> {
        let mut bytes = pooling_net_with_word(0, 6);
        let header_end = 8 + 4 * 11;
        let words: Vec<u8> = [low, high].iter().flat_map(|w| w.to_le_bytes()).collect();
        bytes.splice(header_end..header_end, words);
        bytes
    }

    #[test]
    fn version_6_files_say_the_komis_they_were_taught_at() {
        let net = Network::from_bytes(&taught_from(-500, 500)).expect("version 6");
        assert_eq!(
            net.heads().komi,
            Some(KomiRange {
                lowest: -250.0,
                highest: 250.0
            })
        );
        assert!(net
            .description()
            .ends_with("reading the komi (taught -250 to 250)"));
        // One komi alone is a range too.
        let one = Network::from_bytes(&taught_from(15, 15)).expect("one komi");
        assert_eq!(one.heads().komi.map(|k| k.highest), Some(7.5));
        // Earlier versions that read the komi were taught the corpus's.
        let version_5 = Network::from_bytes(include_bytes!("../../../data/pooling-net.bin"))
            .expect("version 5");
        assert_eq!(version_5.heads().komi, Some(CORPUS_KOMIS));
        assert!(version_5
            .description()
            .ends_with("reading the komi (taught 6.5 to 7.5)"));
        // Refused: a range upside down, or past any board's, or komis for a
        // network that does not read the komi.
        for (low, high) in [(16, 14), (-2001, 0), (0, 2001)] {
            assert!(
                matches!(
                    Network::from_bytes(&taught_from(low, high)).err(),
                    Some(NetworkError::Shape(_))
                ),
                "{low} to {high}"
            );
        }
        let blind_words = |low: i32, high: i32| {
            let mut bytes = taught_from(low, high);
            bytes[12..16].copy_from_slice(&(PLANES as u32).to_le_bytes());
            // The stem reads one plane fewer: the file is one plane's
            // kernels a channel shorter (which weights go is no matter to
            // the header's check).
            let header = Header::read(&taught_from(0, 0)).expect("header");
            let cut = header.channels * header.kernel * header.kernel;
            bytes.truncate(bytes.len() - 4 * cut);
            bytes
        };
        let blind = Network::from_bytes(&blind_words(0, 0)).expect("komi-blind, version 6");
        assert_eq!(blind.heads().komi, None);
        assert!(matches!(
            Network::from_bytes(&blind_words(13, 15)).err(),
            Some(NetworkError::Shape(_))
        ));
    }
}
