//! The random number generator of the playouts: xorshift64*, a few
//! instructions per number, seeded explicitly so a seeded search repeats.

#[derive(Clone, Debug)]
pub struct FastRng {
    state: u64,
}

impl FastRng {
    pub fn new(seed: u64) -> FastRng {
        // xorshift must not start at zero; mix the seed so close seeds differ.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        FastRng {
            state: if z == 0 { 0x2545_F491_4F6C_DD1D } else { z },
        }
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.state;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.state = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in 0..n (n > 0), by multiply-shift: the bias is below
    /// n / 2^32, far under anything a playout can notice.
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }

    /// True with probability `p`.
    #[inline]
    pub fn chance(&mut self, p: f32) -> bool {
        ((self.next_u64() >> 40) as f32) < p * (1u64 << 24) as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = FastRng::new(0);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[rng.below(7)] += 1;
        }
        assert!(seen.iter().all(|&n| n > 800 && n < 1200), "{seen:?}");
    }

    #[test]
    fn same_seed_same_stream() {
        let (mut a, mut b) = (FastRng::new(42), FastRng::new(42));
        assert!((0..100).all(|_| a.next_u64() == b.next_u64()));
        assert_ne!(FastRng::new(1).next_u64(), FastRng::new(2).next_u64());
    }
}
