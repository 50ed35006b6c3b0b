//! The bf16 backend's convolutions on AMX tiles (Intel's Advanced Matrix
//! Extensions, `tdpbf16ps`): a convolution as a sum over its kernel's
//! offsets of matrix products, 16 board points by 32 input channels (bf16)
//! times 32 input channels by 16 output channels, accumulated in fp32.
//! The activations are laid out points by channels (NHWC) on a board
//! padded with zeros, so the 16 points of a product at one offset are 16
//! consecutive rows of the buffer: no im2col, no packing at evaluation
//! time (the weights are packed once, when the backend is built).
//!
//! Measured on this project's Xeon (docs/benchmarks.md, issue 73): AMX
//! tiles about 265 GMAC/s with their loads, fp32 AVX-512 FMA about 107,
//! AVX512-BF16's `vdpbf16ps` about 30-50: the dot-product instruction is
//! slower than fp32 there, so the bf16 backend runs on the tiles only.
//! The AMX instructions have no stable intrinsics in Rust 1.95, hence the
//! inline assembly; the CPU's support is read from CPUID and the kernel's
//! permission asked once (`available`).

use std::arch::asm;
use std::sync::OnceLock;

/// Whether this CPU has AMX-BF16 and the kernel lets this process use its
/// tiles (asked once: Linux gives a process the tiles' state on request).
pub(super) fn available() -> bool {
    static AVAILABLE: OnceLock<bool> = OnceLock::new();
    *AVAILABLE.get_or_init(|| cpu_has_amx_bf16() && kernel_grants_tiles())
}

fn cpu_has_amx_bf16() -> bool {
    // SAFETY: CPUID exists on every x86-64 processor.
    let leaf7 = std::arch::x86_64::__cpuid_count(7, 0);
    let (amx_bf16, amx_tile) = (leaf7.edx & (1 << 22) != 0, leaf7.edx & (1 << 24) != 0);
    amx_bf16 && amx_tile
}

#[cfg(target_os = "linux")]
fn kernel_grants_tiles() -> bool {
    const ARCH_REQ_XCOMP_PERM: libc::c_long = 0x1023;
    const XFEATURE_XTILEDATA: libc::c_long = 18;
    // SAFETY: arch_prctl with these arguments only asks for a permission.
    unsafe {
        libc::syscall(
            libc::SYS_arch_prctl,
            ARCH_REQ_XCOMP_PERM,
            XFEATURE_XTILEDATA,
        ) == 0
    }
}

#[cfg(not(target_os = "linux"))]
fn kernel_grants_tiles() -> bool {
    false
}

/// An fp32 value as bf16, rounded to the nearest (ties to even).
pub(super) fn bf16(x: f32) -> u16 {
    let bits = x.to_bits();
    ((bits + 0x7fff + ((bits >> 16) & 1)) >> 16) as u16
}

/// An fp32 value as two bf16, the nearest and the nearest to what it
/// leaves: together 16 significant bits where one bf16 keeps 8.
pub(super) fn bf16_pair(x: f32) -> (u16, u16) {
    let high = bf16(x);
    let rest = x - f32::from_bits((high as u32) << 16);
    (high, bf16(rest))
}

/// `n` rounded up to a multiple of `m`.
pub(super) fn round_up(n: usize, m: usize) -> usize {
    n.div_ceil(m) * m
}

/// A convolution's weights as the tiles read them: for each kernel offset,
/// each 32 input channels and each 16 output channels, a 16 x 32 block of
/// bf16 (a row per pair of input channels, each output channel's pair side
/// by side), zeros where the channels are padded to 32.
pub(super) struct PackedConv {
    pub(super) kernel: usize,
    /// Input channels padded to 32, output channels padded to 32.
    pub(super) input: usize,
    pub(super) out: usize,
    /// The output channels before the padding.
    pub(super) real_out: usize,
    /// The weights' nearest bf16, and the nearest bf16 to what those
    /// leave (`bf16_pair`).
    pub(super) blocks: Vec<u16>,
    pub(super) low: Vec<u16>,
    /// The real output channels' biases, zeros after.
    pub(super) bias: Vec<f32>,
}

/// bf16 values in a block of the packed weights.
const BLOCK: usize = 16 * 32;

impl PackedConv {
    /// `weights` (`out` rows of `input * kernel * kernel`, PyTorch's order)
    /// packed.
    pub(super) fn new(
        out: usize,
        input: usize,
        kernel: usize,
        weights: &[f32],
        bias: &[f32],
    ) -> Self {
        let (input_p, out_p) = (round_up(input, 32), round_up(out, 32));
        let offsets = kernel * kernel;
        let mut blocks = vec![0u16; offsets * (input_p / 32) * (out_p / 16) * BLOCK];
        let mut low = blocks.clone();
        for co in 0..out {
            for ci in 0..input {
                for k in 0..offsets {
                    let w = weights[(co * input + ci) * offsets + k];
                    let block = (k * (input_p / 32) + ci / 32) * (out_p / 16) + co / 16;
                    let row = (ci % 32) / 2;
                    let at = block * BLOCK + row * 32 + (co % 16) * 2 + ci % 2;
                    (blocks[at], low[at]) = bf16_pair(w);
                }
            }
        }
        let mut padded_bias = vec![0.0; out_p];
        padded_bias[..out].copy_from_slice(bias);
        PackedConv {
            kernel,
            input: input_p,
            out: out_p,
            real_out: out,
            blocks,
            low,
            bias: padded_bias,
        }
    }
}

/// A padded board's shape: `pad` zero points on each side.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Padded {
    pub(super) width: usize,
    pub(super) height: usize,
    pub(super) pad: usize,
}

impl Padded {
    pub(super) fn stride(&self) -> usize {
        self.width + 2 * self.pad
    }

    /// The buffer row of board point (x, y).
    pub(super) fn row(&self, x: usize, y: usize) -> usize {
        (y + self.pad) * self.stride() + x + self.pad
    }

    /// The first row a convolution computes, and how many (a multiple of
    /// 32: the products go 32 rows at a time).
    pub(super) fn computed(&self) -> (usize, usize) {
        let first = self.row(0, 0);
        let last = self.row(self.width - 1, self.height - 1);
        (first, round_up(last - first + 1, 32))
    }

    /// The rows a buffer of this shape needs: every row a product reads at
    /// any offset of a kernel up to 2 * pad + 1 wide.
    pub(super) fn rows(&self) -> usize {
        let (first, count) = self.computed();
        first + count + self.pad * self.stride() + self.pad + 1
    }
}

/// The tiles' configuration: palette 1, the eight tiles of 16 rows of 64
/// bytes.
#[repr(C, align(64))]
struct TileConfig([u8; 64]);

fn tile_config() -> TileConfig {
    let mut config = TileConfig([0; 64]);
    config.0[0] = 1;
    for t in 0..8 {
        config.0[16 + 2 * t] = 64;
        config.0[48 + t] = 16;
    }
    config
}

/// `conv` over `input` (bf16 pairs, `bf16_pair`'s high and low parts in
/// two buffers: `conv.input` channels a row, of `shape`),
/// into `staging` (fp32, `conv.out` channels a row, one row for each
/// computed row of `shape`, from `shape.computed().0`): the sums before
/// the bias: high times high, high times low and low times high, so that
/// the products keep some 16 bits (the low parts' product, below 2^-16 of
/// the whole, is left out). The rows off the board hold sums of nothing the caller reads.
///
/// # Panics
/// Where the buffers are smaller than `shape` asks, or the kernel is wider
/// than the padding allows.
pub(super) fn convolve(
    conv: &PackedConv,
    (high, low): (&[u16], &[u16]),
    shape: Padded,
    staging: &mut Vec<f32>,
) {
    assert!(available(), "AMX tiles asked for on a CPU without them");
    let half = conv.kernel / 2;
    assert!(half <= shape.pad, "a kernel wider than the board's padding");
    assert!(high.len() >= shape.rows() * conv.input && low.len() == high.len());
    let passes = [(high, &conv.blocks), (high, &conv.low), (low, &conv.blocks)];
    let (first, count) = shape.computed();
    staging.resize(count * conv.out, 0.0);
    let stride = shape.stride() as isize;
    let (row_bytes, out_bytes) = (conv.input * 2, conv.out * 4);
    let (input_blocks, out_blocks) = (conv.input / 32, conv.out / 16);
    let config = tile_config();
    // SAFETY: the tiles are configured before use and released after;
    // every tile load reads 16 rows of 64 bytes inside an input (the assert
    // on its length covers the furthest offset of the last computed row)
    // or inside `conv.blocks` or `conv.low` (one block), and every store writes 16 rows
    // of 64 bytes inside `staging` (resized to every computed row).
    unsafe {
        asm!("ldtilecfg [{}]", in(reg) config.0.as_ptr());
        for rows in (0..count).step_by(32) {
            for outs in (0..out_blocks).step_by(2) {
                asm!(
                    "tilezero tmm0",
                    "tilezero tmm1",
                    "tilezero tmm2",
                    "tilezero tmm3"
                );
                for dy in 0..conv.kernel {
                    for dx in 0..conv.kernel {
                        let offset =
                            (dy as isize - half as isize) * stride + dx as isize - half as isize;
                        let row = (first + rows) as isize + offset;
                        let k = dy * conv.kernel + dx;
                        for (ib, &(input, weights)) in (0..input_blocks)
                            .flat_map(|ib| passes.iter().map(move |pass| (ib, pass)))
                        {
                            let a0 = input
                                .as_ptr()
                                .offset(row * conv.input as isize + 32 * ib as isize);
                            let a1 = a0.add(16 * conv.input);
                            let b0 = weights
                                .as_ptr()
                                .add(((k * input_blocks + ib) * out_blocks + outs) * BLOCK);
                            let b1 = b0.add(BLOCK);
                            asm!(
                                "tileloadd tmm4, [{a0} + {rs}]",
                                "tileloadd tmm6, [{b0} + {bs}]",
                                "tdpbf16ps tmm0, tmm4, tmm6",
                                "tileloadd tmm7, [{b1} + {bs}]",
                                "tdpbf16ps tmm1, tmm4, tmm7",
                                "tileloadd tmm5, [{a1} + {rs}]",
                                "tdpbf16ps tmm2, tmm5, tmm6",
                                "tdpbf16ps tmm3, tmm5, tmm7",
                                a0 = in(reg) a0,
                                a1 = in(reg) a1,
                                b0 = in(reg) b0,
                                b1 = in(reg) b1,
                                rs = in(reg) row_bytes,
                                bs = in(reg) 64usize,
                            );
                        }
                    }
                }
                let c0 = staging.as_mut_ptr().add(rows * conv.out + outs * 16);
                let c1 = c0.add(16);
                let c2 = c0.add(16 * conv.out);
                let c3 = c2.add(16);
                asm!(
                    "tilestored [{c0} + {s}], tmm0",
                    "tilestored [{c1} + {s}], tmm1",
                    "tilestored [{c2} + {s}], tmm2",
                    "tilestored [{c3} + {s}], tmm3",
                    c0 = in(reg) c0,
                    c1 = in(reg) c1,
                    c2 = in(reg) c2,
                    c3 = in(reg) c3,
                    s = in(reg) out_bytes,
                );
            }
        }
        asm!("tilerelease");
    }
}
