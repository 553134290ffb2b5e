//! Compile-time Zobrist key tables, so every game hashes with fixed, reproducible keys.

/// `N` pseudo-random 64-bit keys from `seed` (SplitMix64), computable in a `const` item:
/// `static KEYS: [u64; 90 * 14] = zobrist_keys(0x5EED);`.
#[must_use]
pub const fn zobrist_keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut keys = [0u64; N];
    let mut state = seed;
    let mut index = 0;
    while index < N {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        keys[index] = z ^ (z >> 31);
        index += 1;
    }
    keys
}

#[cfg(test)]
mod tests {
    #[test]
    fn keys_are_distinct_and_fixed() {
        const KEYS: [u64; 64] = super::zobrist_keys(1);
        let mut sorted = KEYS.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 64);
        assert_eq!(KEYS, super::zobrist_keys::<64>(1));
    }
}
