//! The bf16 backend: the trunk's convolutions (the stem and each block's
//! two) in bf16 on AMX tiles (`amx`), accumulated in fp32, with the bias,
//! the ReLU and the skip connection applied as each product's sums are
//! read out, and the trunk kept in fp32 between blocks; the heads are the
//! fp32 backend's (`forward`), on the trunk it hands them. Built from the
//! same `Model` as the fp32 backend, checked against the same golden files
//! within bf16's precision (forward.rs's tests).

use std::sync::Arc;

use super::amx::{self, bf16_pair, round_up, PackedConv, Padded};
use super::evaluator::{Evaluation, Evaluator, Heads, Position, Scratch};
use super::forward::{evaluation_of, EvalScratch, Network, NetworkOutput};
use super::model::{Conv, Model};

/// How far a bf16 logit may be from fp32's. One bf16 keeps 8 significant
/// bits (a relative rounding of up to 2^-9, 0.2%): weights and activations
/// each rounded once moved logits by up to 0.11 and the first choice in
/// 8 of 228 self-play positions (96.5%, under the 98% asked). Each value
/// is therefore carried as two bf16 (`amx::bf16_pair`, 16 bits, a
/// relative error of 2^-17) and three products summed: measured within
/// 2.7e-4 of fp32 on those positions (100% the same first choice); 1e-3
/// leaves room for other positions and networks.
#[cfg(test)]
pub(super) const LOGIT_TOLERANCE: f32 = 1e-3;
/// And a win chance's or an owner's (measured within 2.4e-5).
#[cfg(test)]
const CHANCE_TOLERANCE: f32 = 2e-4;

/// The bf16 backend of a model.
pub struct Bf16Network {
    /// The fp32 backend, whose input planes and heads this one uses.
    reference: Network,
    stem: PackedConv,
    blocks: Vec<(PackedConv, PackedConv)>,
    channels: usize,
}

fn packed(conv: &Conv) -> PackedConv {
    PackedConv::new(conv.out, conv.input, conv.kernel, &conv.weights, &conv.bias)
}

impl Bf16Network {
    /// The bf16 backend of `model`, or why this CPU or this model cannot
    /// run it.
    pub fn new(model: Model) -> Result<Bf16Network, String> {
        if !amx::available() {
            return Err(
                "the bf16 backend needs Intel AMX tiles (amx-bf16, amx-tile), which this CPU \
                        lacks or the kernel does not grant"
                    .to_string(),
            );
        }
        if model.blocks.iter().any(|b| b.pooling.is_some()) {
            return Err("the bf16 backend does not compute global pooling yet".to_string());
        }
        if model.stem.kernel > 9 {
            return Err(format!("a stem of {} points", model.stem.kernel));
        }
        let stem = packed(&model.stem);
        let blocks = model
            .blocks
            .iter()
            .map(|b| (packed(&b.first), packed(&b.second)))
            .collect();
        Ok(Bf16Network {
            channels: model.channels,
            stem,
            blocks,
            reference: Network::new(model),
        })
    }

    /// The trunk over `eval.planes` into `eval.trunk` (channels by points,
    /// fp32, as the heads read it).
    fn trunk(
        &self,
        eval: &mut EvalScratch,
        buffers: &mut Buffers,
        (width, height): (usize, usize),
    ) {
        let c = self.channels;
        let n = width * height;
        let outer = Padded {
            width,
            height,
            pad: (self.stem.kernel / 2).max(1),
        };
        let inner = Padded { pad: 1, ..outer };
        buffers.fit(outer, inner, self.stem.input, round_up(c, 32), n * c);
        let Buffers {
            input,
            input_low,
            trunk_bf16,
            trunk_low,
            inner_bf16,
            inner_low,
            trunk,
            staging,
            ..
        } = buffers;
        // The planes, points by channels on the wider padding.
        let planes = self.stem.input;
        for (k, plane) in eval.planes.chunks_exact(n).enumerate() {
            for (p, &value) in plane.iter().enumerate() {
                let at = outer.row(p % width, p / width) * planes + k;
                (input[at], input_low[at]) = bf16_pair(value);
            }
        }
        let cp = round_up(c, 32);
        amx::convolve(&self.stem, (input, input_low), outer, staging);
        read_out(&self.stem, staging, outer, inner, |p, row, co, sum| {
            let v = sum.max(0.0);
            trunk[p * c + co] = v;
            (trunk_bf16[row * cp + co], trunk_low[row * cp + co]) = bf16_pair(v);
        });
        for (first, second) in &self.blocks {
            amx::convolve(first, (trunk_bf16, trunk_low), inner, staging);
            read_out(first, staging, inner, inner, |_, row, co, sum| {
                (inner_bf16[row * cp + co], inner_low[row * cp + co]) = bf16_pair(sum.max(0.0));
            });
            amx::convolve(second, (inner_bf16, inner_low), inner, staging);
            read_out(second, staging, inner, inner, |p, row, co, sum| {
                let v = (sum + trunk[p * c + co]).max(0.0);
                trunk[p * c + co] = v;
                (trunk_bf16[row * cp + co], trunk_low[row * cp + co]) = bf16_pair(v);
            });
        }
        eval.trunk.resize(c * n, 0.0);
        for (p, point) in trunk.chunks_exact(c).enumerate() {
            for (co, &v) in point.iter().enumerate() {
                eval.trunk[co * n + p] = v;
            }
        }
    }
}

/// Each board point's sums in `staging` (rows of `from`'s computed rows),
/// its bias added, handed to `write` as (point, its row in `to`, output
/// channel, value) for the real output channels.
fn read_out(
    conv: &PackedConv,
    staging: &[f32],
    from: Padded,
    to: Padded,
    mut write: impl FnMut(usize, usize, usize, f32),
) {
    let (first, _) = from.computed();
    let channels = conv.real_out;
    for y in 0..from.height {
        for x in 0..from.width {
            let sums = &staging[(from.row(x, y) - first) * conv.out..][..channels];
            let (p, row) = (y * from.width + x, to.row(x, y));
            for (co, (&sum, &b)) in sums.iter().zip(&conv.bias).enumerate() {
                write(p, row, co, sum + b);
            }
        }
    }
}

/// One thread's buffers for the bf16 trunk, zeroed whenever the board's
/// shape changes (the padding must read as zeros, and only the board's
/// points are ever written).
#[derive(Default)]
struct Buffers {
    shape: Option<(Padded, usize, usize)>,
    input: Vec<u16>,
    input_low: Vec<u16>,
    trunk_bf16: Vec<u16>,
    trunk_low: Vec<u16>,
    inner_bf16: Vec<u16>,
    inner_low: Vec<u16>,
    trunk: Vec<f32>,
    staging: Vec<f32>,
}

impl Buffers {
    fn fit(&mut self, outer: Padded, inner: Padded, planes: usize, channels: usize, trunk: usize) {
        if self.shape == Some((outer, planes, channels)) {
            return;
        }
        self.shape = Some((outer, planes, channels));
        let zeros = |v: &mut Vec<u16>, n: usize| {
            v.clear();
            v.resize(n, 0);
        };
        for (v, n) in [
            (&mut self.input, outer.rows() * planes),
            (&mut self.input_low, outer.rows() * planes),
            (&mut self.trunk_bf16, inner.rows() * channels),
            (&mut self.trunk_low, inner.rows() * channels),
            (&mut self.inner_bf16, inner.rows() * channels),
            (&mut self.inner_low, inner.rows() * channels),
        ] {
            zeros(v, n);
        }
        self.trunk.clear();
        self.trunk.resize(trunk, 0.0);
    }
}

/// The fp32 backend's buffers and the bf16 trunk's.
#[derive(Default)]
struct Bf16Scratch {
    eval: EvalScratch,
    buffers: Buffers,
}

impl Bf16Network {
    /// The move logits and each head's judgement of `position`.
    pub(super) fn run(&self, scratch: &mut Scratch, position: Position<'_>) -> NetworkOutput {
        let Bf16Scratch { eval, buffers } = scratch.get::<Bf16Scratch>();
        self.reference.run_with_trunk(
            eval,
            position,
            |eval, shape| self.trunk(eval, buffers, shape),
            None,
        )
    }
}

impl Evaluator for Bf16Network {
    fn evaluate(&self, position: Position<'_>, scratch: &mut Scratch) -> Arc<Evaluation> {
        let (to_move, komi) = (position.to_move, position.komi);
        Arc::new(evaluation_of(self.run(scratch, position), to_move, komi))
    }

    fn description(&self) -> String {
        self.reference.description()
    }

    fn heads(&self) -> Heads {
        self.reference.heads()
    }
}

/// The bf16 backend against the golden files and the fp32 backend.
#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;
    use crate::game::sgf::{self, SgfAction};
    use crate::game::{BoardSize, Color, Vertex};
    use crate::player::board::PlayoutBoard;
    use crate::player::network::{play_and_remember, RecentMoves, RECENT_MOVES};

    /// Every `every`-th position of data/selfplay's 19x19 games, with the
    /// side to move and its recent moves, handed to `visit`.
    fn selfplay_positions(
        every: usize,
        mut visit: impl FnMut(&mut PlayoutBoard, Color, &RecentMoves),
    ) {
        let games = [
            include_bytes!("../../../data/selfplay/19x19/game-0000.sgf").as_slice(),
            include_bytes!("../../../data/selfplay/19x19/game-0001.sgf"),
            include_bytes!("../../../data/selfplay/19x19/game-0002.sgf"),
            include_bytes!("../../../data/selfplay/19x19/game-0003.sgf"),
        ];
        for game in games {
            let record = sgf::parse(game).expect("a self-play game");
            let mut board = PlayoutBoard::new(record.size);
            let mut recent: RecentMoves = [None; RECENT_MOVES];
            let moves = record.actions.iter().filter_map(|a| match a {
                SgfAction::Play(c, m) => Some((*c, *m)),
                _ => None,
            });
            for (i, (color, mv)) in moves.enumerate() {
                if i % every == 0 {
                    visit(&mut board, color, &recent);
                }
                let point = mv.vertex().map(|v| board.point(v));
                play_and_remember(&mut board, color, point, &mut recent);
            }
        }
    }

    fn evaluate(
        net: &dyn Evaluator,
        board: &mut PlayoutBoard,
        to_move: Color,
        recent: &RecentMoves,
    ) -> Evaluation {
        let position = Position {
            board,
            to_move,
            recent,
            komi: 7.5,
        };
        (*net.evaluate(position, &mut Scratch::new())).clone()
    }

    /// The index of the largest of `logits`.
    fn first_choice(logits: &[f32]) -> usize {
        (0..logits.len())
            .max_by(|&a, &b| logits[a].total_cmp(&logits[b]))
            .unwrap_or(0)
    }

    #[test]
    fn the_bf16_backend_agrees_with_fp32_within_bf16s_precision() {
        if !amx::available() {
            eprintln!("no AMX tiles on this CPU: the bf16 backend is refused (backend.rs's test)");
            return;
        }
        for bytes in [
            include_bytes!("../../../data/policy-net.bin").as_slice(),
            include_bytes!("../../../data/training/net.bin"),
        ] {
            let fp32 = Network::from_bytes(bytes).expect("fp32");
            let fast = Bf16Network::new(Model::from_bytes(bytes).expect("model")).expect("bf16");
            let (mut positions, mut same, mut worst, mut worst_chance, mut worst_owner) =
                (0, 0, 0.0f32, 0.0f32, 0.0f32);
            selfplay_positions(3, |board, to_move, recent| {
                let a = evaluate(&fp32, board, to_move, recent);
                let b = evaluate(&fast, board, to_move, recent);
                positions += 1;
                same += usize::from(first_choice(&a.logits) == first_choice(&b.logits));
                for (x, y) in a.logits.iter().zip(&b.logits) {
                    worst = worst.max((x - y).abs());
                }
                worst_chance = worst_chance
                    .max((a.win_chance.unwrap_or(0.0) - b.win_chance.unwrap_or(0.0)).abs());
                if let (Some(x), Some(y)) = (&a.ownership, &b.ownership) {
                    for (x, y) in x.iter().zip(y) {
                        worst_owner = worst_owner.max((x - y).abs());
                    }
                }
            });
            let agreement = same as f64 / positions as f64;
            eprintln!(
                "bf16 against fp32, {positions} positions: first choice the same in {same} ({:.1}%), \
                 logits within {worst}, win chance within {worst_chance}, ownership within {worst_owner}",
                100.0 * agreement
            );
            assert!(agreement >= 0.98, "{same} of {positions}");
            assert!(worst <= LOGIT_TOLERANCE, "logits {worst}");
            assert!(
                worst_chance <= CHANCE_TOLERANCE,
                "win chance {worst_chance}"
            );
            assert!(worst_owner <= CHANCE_TOLERANCE, "ownership {worst_owner}");
        }
    }

    #[test]
    fn the_bf16_backend_runs_on_every_board_size_and_opens_sensibly() {
        if !amx::available() {
            return;
        }
        let fast = Bf16Network::new(Model::shipped()).expect("bf16");
        for size in [2, 5, 9, 13, 19, 25] {
            let mut board = PlayoutBoard::new(BoardSize::square(size));
            let e = evaluate(&fast, &mut board, Color::Black, &[None; 4]);
            assert_eq!(e.logits.len(), size * size + 1);
            assert!(e.logits.iter().all(|l| l.is_finite()));
        }
        let size = BoardSize::square(19);
        let mut board = PlayoutBoard::new(size);
        let logits = evaluate(&fast, &mut board, Color::Black, &[None; 4]).logits;
        let best = Vertex::all(size)
            .max_by(|&a, &b| logits[size.index(a)].total_cmp(&logits[size.index(b)]))
            .expect("points");
        let line = best.col.min(best.row).min(18 - best.col).min(18 - best.row);
        assert!((2..=3).contains(&line), "{best}");
    }
}
