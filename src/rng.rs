//! The one source of randomness: a portable, documented stream, so the same seed gives the same
//! game on any machine and across dependency upgrades.
//!
//! The generator is ChaCha8 (`rand_chacha::ChaCha8Rng`), keyed with `seed_from_u64(seed)`, whose
//! output is fixed by its specification rather than by a crate version. Each purpose reads its own
//! ChaCha stream of that key (see [`Stream`]), so adding a bot never changes the deals.
//! Integers below a bound are drawn with Lemire's multiply-and-reject method over `next_u32`,
//! and shuffles are an explicit Fisher-Yates, both written here and pinned by golden tests
//! (the exact algorithm is in docs/records.md, for anyone who wants to reproduce a deal).

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

/// Which stream of a seed a generator reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// The deals of deal number `n` of a match (a deal is played once from each seat rotation).
    Deal(u64),
    /// A built-in bot's choices in game number `game` of a match, at `seat`.
    Bot { game: u64, seat: usize },
    /// `take5 tune`'s draws (docs/tuning.md): number `n` (below 2^62) is iteration `n`'s
    /// seed and perturbation; the verification's seed has its own number.
    Tune(u64),
}

impl Stream {
    fn number(self) -> u64 {
        match self {
            Stream::Deal(n) => n,
            // Bit 63 keeps bot streams apart from deal streams; 8 bits hold the seat (max 255).
            Stream::Bot { game, seat } => (1 << 63) | (game << 8) | seat as u64,
            // Bit 62 (and not 63) keeps them apart from both.
            Stream::Tune(n) => (1 << 62) | n,
        }
    }
}

/// The 32-byte ChaCha key of a 64-bit seed: eight PCG32 outputs, little-endian. This is what
/// rand_core's `seed_from_u64` does; it is written out here so that no upgrade can change it.
fn key(mut state: u64) -> [u8; 32] {
    const MUL: u64 = 0x5851_F42D_4C95_7F2D;
    const INC: u64 = 0xA176_54E4_6FBE_17F3;
    let mut key = [0u8; 32];
    for chunk in key.chunks_exact_mut(4) {
        state = state.wrapping_mul(MUL).wrapping_add(INC);
        let xorshifted = (((state >> 18) ^ state) >> 27) as u32;
        let output = xorshifted.rotate_right((state >> 59) as u32);
        chunk.copy_from_slice(&output.to_le_bytes());
    }
    key
}

/// A seeded generator for one purpose.
#[derive(Clone, Debug)]
pub struct GameRng(ChaCha8Rng);

impl GameRng {
    pub fn new(seed: u64, stream: Stream) -> GameRng {
        let mut rng = ChaCha8Rng::from_seed(key(seed));
        rng.set_stream(stream.number());
        GameRng(rng)
    }

    /// Moves to the start of `stream` of the same seed: the same generator as
    /// `GameRng::new(seed, stream)`, without deriving the key again nor moving a new generator
    /// into place (a bot starts a stream per game).
    pub fn restart(&mut self, stream: Stream) {
        self.0.set_word_pos(0);
        self.0.set_stream(stream.number());
    }

    /// How far the generator has gone in its stream (in 32-bit words): equal positions before
    /// and after some work mean it drew nothing.
    pub fn position(&self) -> u128 {
        self.0.get_word_pos()
    }

    pub fn next_u32(&mut self) -> u32 {
        self.0.next_u32()
    }

    /// A uniform integer in `0..bound` (`bound` > 0), by Lemire's method: `m = x * bound` as a
    /// 64-bit product of a fresh `x = next_u32()`; while the low 32 bits of `m` are below
    /// `(2^32 - bound) % bound`, draw again; the answer is the high 32 bits of `m`. Always
    /// inlined: a built-in bot draws once a decision, and the call cost a third of the draw
    /// (docs/performance.md, "The classic engine and the compact record doing less").
    #[inline(always)]
    pub fn below(&mut self, bound: u32) -> u32 {
        assert!(bound > 0, "below(0)");
        let mut m = u64::from(self.next_u32()) * u64::from(bound);
        if (m as u32) < bound {
            let threshold = bound.wrapping_neg() % bound;
            while (m as u32) < threshold {
                m = u64::from(self.next_u32()) * u64::from(bound);
            }
        }
        (m >> 32) as u32
    }

    /// Draws `count` items at random without replacement: the first `count` steps of a
    /// Fisher-Yates shuffle from the back (for i = len-1 down: swap item i with item
    /// below(i+1)). Returns the drawn items, the last of the slice first: the first drawn
    /// item is the slice's last. Drawing every item is a full shuffle.
    pub fn draw<'a, T>(&mut self, items: &'a mut [T], count: usize) -> &'a [T] {
        let len = items.len();
        assert!(count <= len, "cannot draw {count} of {len}");
        for i in (len - count..len).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
        &items[len - count..]
    }

    /// Draws `count` items as [`GameRng::draw`] does and gives them in the order drawn (the
    /// first drawn first), in place at the end of `items`: how every variant deals.
    pub fn draw_in_order<'a, T>(&mut self, items: &'a mut [T], count: usize) -> &'a mut [T] {
        self.draw(items, count);
        let len = items.len();
        let drawn = &mut items[len - count..];
        drawn.reverse();
        drawn
    }

    /// A full Fisher-Yates shuffle from the back.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        let len = items.len();
        self.draw(items, len.saturating_sub(1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Golden values: if these change, every recorded game changes. Never update them lightly.
    #[test]
    fn streams_are_pinned() {
        let mut rng = GameRng::new(42, Stream::Deal(0));
        let first: Vec<u32> = (0..4).map(|_| rng.next_u32()).collect();
        let mut deck: Vec<u16> = (1..=10).collect();
        GameRng::new(7, Stream::Deal(0)).shuffle(&mut deck);
        let mut bot = GameRng::new(7, Stream::Bot { game: 0, seat: 1 });
        let picks: Vec<u32> = (0..6).map(|_| bot.below(10)).collect();
        let mut cards: Vec<u16> = (1..=104).collect();
        let drawn = GameRng::new(7, Stream::Deal(0))
            .draw(&mut cards, 5)
            .to_vec();
        insta::assert_debug_snapshot!((first, deck, picks, drawn));
    }

    #[test]
    fn below_stays_in_range_and_reaches_every_value() {
        let mut rng = GameRng::new(1, Stream::Deal(3));
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[rng.below(7) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| n > 800), "{seen:?}");
    }

    #[test]
    fn the_key_is_rand_cores_seed_from_u64() {
        for seed in [0, 1, 7, 42, u64::MAX] {
            let ours = ChaCha8Rng::from_seed(key(seed));
            assert_eq!(ours, ChaCha8Rng::seed_from_u64(seed), "seed {seed}");
        }
    }

    #[test]
    fn a_restarted_generator_is_a_new_one() {
        let mut rng = GameRng::new(7, Stream::Bot { game: 0, seat: 0 });
        for (used, stream) in [
            (0, Stream::Bot { game: 3, seat: 1 }),
            (5, Stream::Deal(2)),
            (64, Stream::Bot { game: 9, seat: 0 }),
            (100, Stream::Bot { game: 9, seat: 0 }),
        ] {
            for _ in 0..used {
                rng.next_u32();
            }
            rng.restart(stream);
            let mut fresh = GameRng::new(7, stream);
            for _ in 0..200 {
                assert_eq!(rng.next_u32(), fresh.next_u32(), "{stream:?} after {used}");
            }
        }
    }

    #[test]
    fn streams_differ() {
        let a = GameRng::new(7, Stream::Deal(0)).next_u32();
        let b = GameRng::new(7, Stream::Deal(1)).next_u32();
        let c = GameRng::new(7, Stream::Bot { game: 0, seat: 0 }).next_u32();
        assert!(a != b && b != c && a != c);
    }
}
