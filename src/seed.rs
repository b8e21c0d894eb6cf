//! Seeds and stable hashes: what makes every result a function of the seed alone.
//!
//! Why it sits at the bottom, beside [`crate::dice`]: the engine seeds each batch (and each
//! duel trial) from `(seed, stream, k)`, but rulesets seed their replay games and their own
//! studies' streams the same way, and configs hash their text with the same FNV-1a. Keeping
//! the functions here lets every layer name them without importing the engine
//! (`sim`) above the rulesets.
//!
//! Layer: bottom (beside `dice`, `stats`, `config`); imports nothing of this crate.

/// A hash map with a fixed, fast hash function (FxHash from `rustc-hash`: no random keys), so
/// its iteration order depends only on what was inserted, in what order, on any run and in any
/// process. The exact solvers sum probabilities while iterating their state maps: with std's
/// random hasher the sums' last digits would differ from call to call. (FxHash, unlike std's
/// SipHash, is also several times faster on the solvers' small integer keys.)
pub type FixedHashMap<K, V> = rustc_hash::FxHashMap<K, V>;

/// SplitMix64's finaliser: a bijective mixer of 64-bit values.
#[inline]
pub fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of batch `batch` of stream `stream` under master seed `seed`.
pub fn batch_seed(seed: u64, stream: u64, batch: u64) -> u64 {
    splitmix64(splitmix64(splitmix64(seed) ^ stream) ^ batch.wrapping_mul(0xD6E8_FEB8_6659_FD93))
}

/// The seed of trial `trial` (0-based, counted over the whole run) of stream `stream` under
/// master seed `seed`: a generator of its own for every trial.
///
/// Why: common random numbers that hold. A duel's batch generator would be shared by its
/// trials one after another, so as soon as one trial uses a different number of draws (a
/// squad one model larger at another price, a battle one turn longer at another distance)
/// every later trial of the batch plays different dice. With one generator per trial, trial
/// `k` at two prices or two distances starts from the same dice, and only the trials whose
/// squads (or battles) actually differ differ. The seed depends on the trial alone, not on
/// the batch size. A domain constant keeps these seeds apart from [`batch_seed`]'s.
#[inline]
pub fn trial_seed(seed: u64, stream: u64, trial: u64) -> u64 {
    const TRIAL_DOMAIN: u64 = 0x7472_6961_6c5f_6469; // "trial_di"
    splitmix64(batch_seed(seed, stream, trial) ^ TRIAL_DOMAIN)
}

/// A stable 64-bit id for a matchup or any named stream: FNV-1a of the parts joined by `|`.
///
/// Use the same key for variants of one matchup (cost sweeps, rule variants) so they share
/// seeds: common random numbers (see [`trial_seed`] for duels).
pub fn stream_id(parts: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            h ^= b'|' as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        for b in p.bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stream_ids_differ_by_part_boundaries() {
        assert_ne!(stream_id(&["ab", "c"]), stream_id(&["a", "bc"]));
        assert_ne!(batch_seed(1, 2, 3), batch_seed(1, 2, 4));
        assert_ne!(trial_seed(1, 2, 3), trial_seed(1, 2, 4));
        assert_ne!(trial_seed(1, 2, 3), batch_seed(1, 2, 3), "trial and batch generators differ");
    }
}
