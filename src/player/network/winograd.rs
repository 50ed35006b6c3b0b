//! The winograd backend: fp32 like the reference (`forward`), with the
//! residual blocks' 3x3 convolutions computed by Winograd's minimal
//! filtering F(4x4, 3x3) (Lavin and Gray, "Fast Algorithms for
//! Convolutional Neural Networks", 2015), as Leela Zero's CPU pipe does.
//! Each 4x4 tile of the output is read from the 6x6 patch of the input
//! around it: patch and filter are carried into a space of 36 points where
//! the convolution is a product point by point, so a tile takes 36
//! multiply-adds an input and output channel where im2col takes 144. The
//! 36 products over the channels are 36 matrix products (sgemm), each of
//! the output channels by the input channels by the tiles.
//!
//! The filters are transformed once, when the backend is built; a
//! convolution transforms its input, multiplies and transforms back. The
//! stem, the pooling and the heads are the reference's, but for the
//! ownership head's 3x3 convolution, computed here too. The transforms'
//! constants (up to 8 and 1/24) cost a few bits of fp32's precision:
//! measured against the reference in this file's tests.

use std::sync::Arc;

use super::evaluator::{Evaluation, Evaluator, Heads, Position, Scratch};
use super::forward::{evaluation_of, EvalScratch, Network, NetworkOutput, OwnershipConv};
use super::model::{Conv, Model};

/// Output points a tile a side, and input points its patch a side.
const TILE: usize = 4;
const PATCH: usize = TILE + 2;
/// Points of the transformed space.
const POINTS: usize = PATCH * PATCH;

/// Channels computed together: one AVX register of fp32.
const LANES: usize = 8;
/// A value for `LANES` channels at once.
type Lanes = [f32; LANES];

/// A 3x3 convolution's filters carried into the transformed space.
pub(super) struct WinogradConv {
    out: usize,
    input: usize,
    /// `POINTS` matrices of `input` rows of `out`.
    filters: Vec<f32>,
    bias: Vec<f32>,
}

/// G g for a filter row or column g: its six transformed values.
fn filter_transform(g: [f32; 3]) -> [f32; PATCH] {
    [
        g[0] / 4.0,
        -(g[0] + g[1] + g[2]) / 6.0,
        -(g[0] - g[1] + g[2]) / 6.0,
        g[0] / 24.0 + g[1] / 12.0 + g[2] / 6.0,
        g[0] / 24.0 - g[1] / 12.0 + g[2] / 6.0,
        g[2],
    ]
}

/// B^T d for a patch row or column d, `LANES` channels at once.
#[inline(always)]
fn input_transform(d: &[Lanes; PATCH]) -> [Lanes; PATCH] {
    let mut r = [[0.0f32; LANES]; PATCH];
    for l in 0..LANES {
        r[0][l] = 4.0 * d[0][l] - 5.0 * d[2][l] + d[4][l];
        r[1][l] = -4.0 * (d[1][l] + d[2][l]) + d[3][l] + d[4][l];
        r[2][l] = 4.0 * (d[1][l] - d[2][l]) - d[3][l] + d[4][l];
        r[3][l] = 2.0 * (d[3][l] - d[1][l]) - d[2][l] + d[4][l];
        r[4][l] = 2.0 * (d[1][l] - d[3][l]) - d[2][l] + d[4][l];
        r[5][l] = 4.0 * d[1][l] - 5.0 * d[3][l] + d[5][l];
    }
    r
}

/// A^T m for a transformed row or column m: four output values.
#[inline(always)]
fn output_transform(m: &[Lanes; PATCH]) -> [Lanes; TILE] {
    let mut r = [[0.0f32; LANES]; TILE];
    for l in 0..LANES {
        let (a, b) = (m[1][l] + m[2][l], m[1][l] - m[2][l]);
        let (c, d) = (m[3][l] + m[4][l], m[3][l] - m[4][l]);
        r[0][l] = m[0][l] + a + c;
        r[1][l] = b + 2.0 * d;
        r[2][l] = a + 4.0 * c;
        r[3][l] = b + 8.0 * d + m[5][l];
    }
    r
}

/// `LANES` values from `from` on.
#[inline(always)]
fn load(values: &[f32], from: usize) -> Lanes {
    let mut lanes = [0.0f32; LANES];
    lanes.copy_from_slice(&values[from..from + LANES]);
    lanes
}

/// The board's tiling: tiles across and down, and the padded board the
/// patches are read from (one row and column of zeros before the board,
/// and after it to the tiles' edge and one more).
#[derive(Clone, Copy)]
struct Tiling {
    width: usize,
    height: usize,
    across: usize,
    down: usize,
}

impl Tiling {
    fn of((width, height): (usize, usize)) -> Tiling {
        Tiling {
            width,
            height,
            across: width.div_ceil(TILE),
            down: height.div_ceil(TILE),
        }
    }

    fn tiles(self) -> usize {
        self.across * self.down
    }

    fn padded_width(self) -> usize {
        self.across * TILE + 2
    }

    fn padded_points(self) -> usize {
        self.padded_width() * (self.down * TILE + 2)
    }

    /// The padded row of board point (x, y).
    fn padded(self, x: usize, y: usize) -> usize {
        (y + 1) * self.padded_width() + x + 1
    }
}

impl WinogradConv {
    /// `conv`'s filters transformed (G g G^T), or None where it is not a
    /// 3x3 convolution or its channels are not whole lanes.
    fn runs(conv: &Conv) -> bool {
        conv.kernel == 3 && conv.out % LANES == 0 && conv.input % LANES == 0
    }

    pub(super) fn new(conv: &Conv) -> Option<WinogradConv> {
        if !WinogradConv::runs(conv) {
            return None;
        }
        let (out, input) = (conv.out, conv.input);
        let mut filters = vec![0.0; POINTS * input * out];
        for o in 0..out {
            for i in 0..input {
                let g = &conv.weights[(o * input + i) * 9..][..9];
                // G g: each column of the filter (a fixed x) transformed.
                let mut columns = [[0.0f32; PATCH]; 3];
                for (x, column) in columns.iter_mut().enumerate() {
                    *column = filter_transform([g[x], g[3 + x], g[6 + x]]);
                }
                // (G g) G^T: each row of that transformed along x.
                for y in 0..PATCH {
                    let row = filter_transform([columns[0][y], columns[1][y], columns[2][y]]);
                    for (x, &value) in row.iter().enumerate() {
                        filters[((y * PATCH + x) * input + i) * out + o] = value;
                    }
                }
            }
        }
        Some(WinogradConv {
            out,
            input,
            filters,
            bias: conv.bias.clone(),
        })
    }

    /// The convolution of `input` (`self.input` channels of `width *
    /// height` points), zero padding at the edges, into `out` (`self.out`
    /// channels of as many points), its bias added; `buffer` is scratch.
    pub(super) fn convolve(
        &self,
        input: &[f32],
        shape: (usize, usize),
        buffer: &mut Vec<f32>,
        out: &mut [f32],
    ) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
        {
            // SAFETY: the CPU has AVX2 and FMA, just checked.
            unsafe { self.convolve_avx2(input, shape, buffer, out) };
            return;
        }
        self.convolve_portable(input, shape, buffer, out);
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    unsafe fn convolve_avx2(
        &self,
        input: &[f32],
        shape: (usize, usize),
        buffer: &mut Vec<f32>,
        out: &mut [f32],
    ) {
        self.convolve_with(input, shape, buffer, out, |f, v, m, t| {
            // SAFETY: this function's caller checked AVX2 and FMA.
            unsafe { multiply_avx2(f, v, m, t, (self.input, self.out)) }
        });
    }

    fn convolve_portable(
        &self,
        input: &[f32],
        shape: (usize, usize),
        buffer: &mut Vec<f32>,
        out: &mut [f32],
    ) {
        self.convolve_with(input, shape, buffer, out, |f, v, m, t| {
            multiply_portable(f, v, m, t, (self.input, self.out))
        });
    }

    /// The convolution with each transformed point's product computed by
    /// `multiply` (filters, transformed input, products, tiles).
    #[inline(always)]
    fn convolve_with(
        &self,
        input: &[f32],
        shape: (usize, usize),
        buffer: &mut Vec<f32>,
        out: &mut [f32],
        multiply: impl Fn(&[f32], &[f32], &mut [f32], usize),
    ) {
        let tiling = Tiling::of(shape);
        let (n, tiles) = (shape.0 * shape.1, tiling.tiles());
        let (ci, co) = (self.input, self.out);
        assert_eq!(input.len(), ci * n);
        assert_eq!(out.len(), co * n);
        let padded_len = tiling.padded_points() * ci;
        // Every value of the transformed input and the products is written
        // before it is read; the padded board's zeros are its edges.
        buffer.resize(padded_len + POINTS * tiles * (ci + co), 0.0);
        let (padded, rest) = buffer.split_at_mut(padded_len);
        padded.fill(0.0);
        let (transformed, products) = rest.split_at_mut(POINTS * tiles * ci);
        // The input points by channels on the padded board, point by
        // point, its channels written in a row: the reads stride
        // over the channels but stay in the cache lines of the points next
        // to it (a channel at a time, the writes strided, was slower).
        for y in 0..shape.1 {
            for x in 0..shape.0 {
                let at = tiling.padded(x, y) * ci;
                let p = y * shape.0 + x;
                for (c, value) in padded[at..at + ci].iter_mut().enumerate() {
                    *value = input[c * n + p];
                }
            }
        }
        transform_input(padded, tiling, ci, transformed);
        for p in 0..POINTS {
            multiply(
                &self.filters[p * ci * co..][..ci * co],
                &transformed[p * tiles * ci..][..tiles * ci],
                &mut products[p * tiles * co..][..tiles * co],
                tiles,
            );
        }
        self.transform_output(products, tiling, out);
    }

    /// Each tile's products back to its outputs, the bias added, into
    /// `out` (channels by points).
    #[inline(always)]
    fn transform_output(&self, products: &[f32], tiling: Tiling, out: &mut [f32]) {
        let (co, tiles) = (self.out, tiling.tiles());
        let n = tiling.width * tiling.height;
        for t in 0..tiles {
            let (x0, y0) = ((t % tiling.across) * TILE, (t / tiling.across) * TILE);
            for o in (0..co).step_by(LANES) {
                // A^T m: each column of the 6x6 (a fixed x) first.
                let mut columns = [[[0.0f32; LANES]; TILE]; PATCH];
                for (x, column) in columns.iter_mut().enumerate() {
                    let mut m = [[0.0f32; LANES]; PATCH];
                    for (y, m) in m.iter_mut().enumerate() {
                        *m = load(products, ((y * PATCH + x) * tiles + t) * co + o);
                    }
                    *column = output_transform(&m);
                }
                for y in 0..TILE.min(tiling.height - y0) {
                    let mut m = [[0.0f32; LANES]; PATCH];
                    for (m, column) in m.iter_mut().zip(&columns) {
                        *m = column[y];
                    }
                    let row = output_transform(&m);
                    for (x, value) in row.iter().enumerate().take(tiling.width - x0) {
                        let point = (y0 + y) * tiling.width + x0 + x;
                        for (l, &v) in value.iter().enumerate() {
                            out[(o + l) * n + point] = v + self.bias[o + l];
                        }
                    }
                }
            }
        }
    }
}

/// Each tile's patch carried into the transformed space (B^T d B), for
/// every channel: `transformed` holds `POINTS` matrices of tiles by
/// channels.
#[inline(always)]
fn transform_input(padded: &[f32], tiling: Tiling, channels: usize, transformed: &mut [f32]) {
    let (tiles, row) = (tiling.tiles(), tiling.padded_width());
    for t in 0..tiles {
        let (x0, y0) = ((t % tiling.across) * TILE, (t / tiling.across) * TILE);
        for c in (0..channels).step_by(LANES) {
            // B^T d: each column of the patch first.
            let mut columns = [[[0.0f32; LANES]; PATCH]; PATCH];
            for (x, column) in columns.iter_mut().enumerate() {
                let mut d = [[0.0f32; LANES]; PATCH];
                for (y, d) in d.iter_mut().enumerate() {
                    *d = load(padded, ((y0 + y) * row + x0 + x) * channels + c);
                }
                *column = input_transform(&d);
            }
            for y in 0..PATCH {
                let mut d = [[0.0f32; LANES]; PATCH];
                for (d, column) in d.iter_mut().zip(&columns) {
                    *d = column[y];
                }
                let v = input_transform(&d);
                for (x, value) in v.iter().enumerate() {
                    let to = ((y * PATCH + x) * tiles + t) * channels + c;
                    transformed[to..to + LANES].copy_from_slice(value);
                }
            }
        }
    }
}

/// products (tiles x out) = transformed (tiles x input) * filters (input
/// x out), plainly: the reference for the vector kernel, and the kernel
/// where there is none.
fn multiply_portable(
    filters: &[f32],
    transformed: &[f32],
    products: &mut [f32],
    tiles: usize,
    (input, out): (usize, usize),
) {
    for t in 0..tiles {
        let row = &mut products[t * out..][..out];
        row.fill(0.0);
        for (i, &v) in transformed[t * input..][..input].iter().enumerate() {
            for (p, &f) in row.iter_mut().zip(&filters[i * out..][..out]) {
                *p += v * f;
            }
        }
    }
}

/// Tiles a block of the AVX2 kernel: six by two registers of outputs are
/// twelve accumulators, with the two filter registers and the broadcast
/// fifteen of AVX2's sixteen; eight loads a step for twelve multiply-adds
/// (four tiles, six loads for eight, measured slower).
const BLOCK_TILES: usize = 6;

/// `multiply_portable` on AVX2 registers: blocks of six tiles (fewer at
/// the end) by sixteen output channels (eight at the end), an accumulator
/// each, the filters read in place (no packing: they were laid out input
/// by out when the backend was built).
///
/// # Safety
/// The CPU must have AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn multiply_avx2(
    filters: &[f32],
    transformed: &[f32],
    products: &mut [f32],
    tiles: usize,
    (input, out): (usize, usize),
) {
    assert!(filters.len() >= input * out && transformed.len() >= tiles * input);
    assert!(products.len() >= tiles * out && out % LANES == 0);
    let matrices = Matrices {
        filters: filters.as_ptr(),
        transformed: transformed.as_ptr(),
        products: products.as_mut_ptr(),
        input,
        out,
    };
    let mut t = 0;
    while t < tiles {
        let mut o = 0;
        while o < out {
            let wide = out - o >= 2 * LANES;
            // SAFETY: the blocks lie inside the matrices asserted above.
            unsafe {
                match (tiles - t, wide) {
                    (6.., true) => block_avx2::<6, 2>(&matrices, t, o),
                    (6.., false) => block_avx2::<6, 1>(&matrices, t, o),
                    (5, true) => block_avx2::<5, 2>(&matrices, t, o),
                    (5, false) => block_avx2::<5, 1>(&matrices, t, o),
                    (4, true) => block_avx2::<4, 2>(&matrices, t, o),
                    (4, false) => block_avx2::<4, 1>(&matrices, t, o),
                    (3, true) => block_avx2::<3, 2>(&matrices, t, o),
                    (3, false) => block_avx2::<3, 1>(&matrices, t, o),
                    (2, true) => block_avx2::<2, 2>(&matrices, t, o),
                    (2, false) => block_avx2::<2, 1>(&matrices, t, o),
                    (_, true) => block_avx2::<1, 2>(&matrices, t, o),
                    (_, false) => block_avx2::<1, 1>(&matrices, t, o),
                }
            }
            o += if wide { 2 * LANES } else { LANES };
        }
        t += BLOCK_TILES;
    }
}

/// The three matrices of one transformed point's product, row-major:
/// filters input x out, transformed tiles x input, products tiles x out.
#[cfg(target_arch = "x86_64")]
struct Matrices {
    filters: *const f32,
    transformed: *const f32,
    products: *mut f32,
    input: usize,
    out: usize,
}

/// Products of tiles `t..t + T` by output channels `o..o + 8 V`.
///
/// # Safety
/// AVX2 and FMA; those tiles and channels inside the matrices.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
#[inline]
unsafe fn block_avx2<const T: usize, const V: usize>(m: &Matrices, t: usize, o: usize) {
    use std::arch::x86_64::*;
    // SAFETY: the caller's: every pointer below is inside its matrix.
    unsafe {
        let mut acc = [[_mm256_setzero_ps(); V]; T];
        for i in 0..m.input {
            let row = m.filters.add(i * m.out + o);
            let f: [__m256; V] = std::array::from_fn(|v| _mm256_loadu_ps(row.add(v * LANES)));
            for (k, acc) in acc.iter_mut().enumerate() {
                let x = _mm256_set1_ps(*m.transformed.add((t + k) * m.input + i));
                for v in 0..V {
                    acc[v] = _mm256_fmadd_ps(x, f[v], acc[v]);
                }
            }
        }
        for (k, acc) in acc.iter().enumerate() {
            for (v, &sum) in acc.iter().enumerate() {
                _mm256_storeu_ps(m.products.add((t + k) * m.out + o + v * LANES), sum);
            }
        }
    }
}

/// The winograd backend of a model.
pub struct WinogradNetwork {
    /// The fp32 backend, whose stem, pooling and heads this one uses.
    reference: Network,
    /// Each block's two convolutions.
    blocks: Vec<(WinogradConv, WinogradConv)>,
    /// The ownership head's 3x3 convolution, where it has one of whole
    /// lanes.
    ownership: Option<WinogradConv>,
}

impl WinogradNetwork {
    /// Whether it runs `model`: every block convolution 3x3, its channels
    /// whole lanes.
    pub fn runs(model: &Model) -> bool {
        model
            .blocks
            .iter()
            .all(|b| [&b.first, &b.second].iter().all(|c| WinogradConv::runs(c)))
    }

    /// The winograd backend of `model`, or why it cannot run it (a block
    /// convolution that is not 3x3, or channels not a multiple of 8).
    pub fn new(model: Model) -> Result<WinogradNetwork, String> {
        let blocks = model
            .blocks
            .iter()
            .map(|b| Some((WinogradConv::new(&b.first)?, WinogradConv::new(&b.second)?)))
            .collect::<Option<Vec<_>>>()
            .ok_or("the winograd backend computes 3x3 block convolutions of a multiple of 8 channels only")?;
        let ownership = model
            .ownership
            .as_ref()
            .and_then(|head| WinogradConv::new(&head.conv));
        Ok(WinogradNetwork {
            blocks,
            ownership,
            reference: Network::new(model),
        })
    }
}

impl WinogradNetwork {
    /// The move logits and each head's judgement of `position`.
    pub(super) fn run(&self, scratch: &mut Scratch, position: Position<'_>) -> NetworkOutput {
        let ownership = self.ownership.as_ref().map(|conv| {
            move |input: &[f32], shape, buffer: &mut Vec<f32>, out: &mut [f32]| {
                conv.convolve(input, shape, buffer, out)
            }
        });
        self.reference.run_with_trunk(
            scratch.get::<EvalScratch>(),
            position,
            |eval, shape| {
                self.reference
                    .trunk_with(eval, shape, |block, second, input, buffer, out| {
                        let (first, after) = &self.blocks[block];
                        let conv = if second { after } else { first };
                        conv.convolve(input, shape, buffer, out);
                    })
            },
            ownership.as_ref().map(|c| c as &OwnershipConv<'_>),
        )
    }
}

impl Evaluator for WinogradNetwork {
    fn evaluate(&self, position: Position<'_>, scratch: &mut Scratch) -> Arc<Evaluation> {
        let (to_move, komi) = (position.to_move, position.komi);
        Arc::new(evaluation_of(self.run(scratch, position), to_move, komi))
    }

    fn description(&self) -> String {
        self.reference.description()
    }

    fn heads(&self) -> Heads {
        self.reference.model.heads()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::network::forward::convolve;
    use rand::{Rng, SeedableRng};

    fn random_conv(rng: &mut rand::rngs::StdRng, out: usize, input: usize) -> Conv {
        Conv {
            out,
            input,
            kernel: 3,
            weights: (0..out * input * 9)
                .map(|_| rng.gen_range(-0.5..0.5))
                .collect(),
            bias: (0..out).map(|_| rng.gen_range(-0.5..0.5)).collect(),
        }
    }

    /// The largest difference between the winograd convolution (`fast`)
    /// and im2col's, relative to the largest output, on random filters and
    /// inputs of every board shape a tile can cut badly.
    fn worst_against_im2col(
        fast: impl Fn(&WinogradConv, &[f32], (usize, usize), &mut Vec<f32>, &mut [f32]),
    ) -> f32 {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let mut worst = 0.0f32;
        for (out, input) in [(64, 64), (32, 64), (8, 16)] {
            let conv = random_conv(&mut rng, out, input);
            let winograd = WinogradConv::new(&conv).expect("3x3, whole lanes");
            for shape in [
                (1, 1),
                (2, 3),
                (4, 4),
                (5, 5),
                (7, 3),
                (9, 9),
                (13, 13),
                (19, 19),
                (25, 25),
            ] {
                let n = shape.0 * shape.1;
                let x: Vec<f32> = (0..input * n).map(|_| rng.gen_range(0.0..2.0)).collect();
                let (mut reference, mut ours) = (vec![0.0; out * n], vec![f32::NAN; out * n]);
                convolve(&conv, &x, shape, &mut Vec::new(), &mut reference);
                // A buffer left dirty by a larger board first.
                let mut buffer = vec![f32::NAN; 100_000];
                fast(&winograd, &x, shape, &mut buffer, &mut ours);
                let scale = reference.iter().fold(1.0f32, |m, v| m.max(v.abs()));
                for (a, b) in reference.iter().zip(&ours) {
                    assert!(b.is_finite(), "{shape:?}: {b}");
                    worst = worst.max((a - b).abs() / scale);
                }
            }
        }
        worst
    }

    #[test]
    fn the_winograd_convolution_is_im2cols_within_fp32s_rounding() {
        let portable = worst_against_im2col(WinogradConv::convolve_portable);
        let chosen = worst_against_im2col(WinogradConv::convolve);
        eprintln!("relative difference: portable {portable}, the CPU's kernel {chosen}");
        assert!(portable < 1e-5, "{portable}");
        assert!(chosen < 1e-5, "{chosen}");
    }

    #[test]
    fn a_convolution_that_is_not_3x3_or_not_whole_lanes_is_left_to_im2col() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        let mut five = random_conv(&mut rng, 8, 8);
        five.kernel = 5;
        assert!(WinogradConv::new(&five).is_none());
        assert!(WinogradConv::new(&random_conv(&mut rng, 12, 8)).is_none());
        assert!(WinogradConv::new(&random_conv(&mut rng, 8, 8)).is_some());
    }
}
