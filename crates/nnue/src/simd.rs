//! The two inner loops of NNUE inference, in AVX2 (chosen at run time when the processor has it)
//! and in portable Rust.
//!
//! Both versions use wrapping integer arithmetic: `i16` lanes for the accumulators, `i32` for the
//! output sum. Wrapping addition is associative and commutative, so the order in which SIMD lanes
//! are summed cannot change a result: both versions give identical numbers on every input, which
//! the tests check.
//!
//! Every function here is safe for every input: the slice lengths the SIMD loads and stores rely
//! on are checked with `assert!` (a few comparisons per call, outside the loops), in release
//! builds too, and a wrong length panics.

/// `destination = source + Σ added − Σ removed`, element by element (all slices of one length).
///
/// # Panics
/// When the slices are not all of one length.
pub fn update(destination: &mut [i16], source: &[i16], added: &[&[i16]], removed: &[&[i16]]) {
    check_update(destination, source, added, removed);
    #[cfg(target_arch = "x86_64")]
    if source.len().is_multiple_of(avx2::LANES) && std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor supports AVX2, every slice has the source's length (checked above)
        // and that length is a whole number of vectors.
        unsafe { avx2::update(destination, source, added, removed) };
        return;
    }
    portable::update(destination, source, added, removed);
}

/// `destination += Σ added`, element by element (all slices of one length).
///
/// # Panics
/// When the slices are not all of one length.
pub fn add_in_place(destination: &mut [i16], added: &[&[i16]]) {
    check_add_in_place(destination, added);
    #[cfg(target_arch = "x86_64")]
    if destination.len().is_multiple_of(avx2::LANES) && std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor supports AVX2, every column has the destination's length (checked
        // above) and that length is a whole number of vectors.
        unsafe { avx2::add_in_place(destination, added) };
        return;
    }
    portable::add_in_place(destination, added);
}

/// `Σ c·c·w` over both halves, where `c` is an accumulator value clipped to `0..=clip` (the
/// squared clipped ReLU) and `w` the matching output weight: `us` meets `weights[..n]`, `them`
/// meets `weights[n..]`. `c·w` is computed in `i16` (wrapping), as the SIMD multiply does.
///
/// # Panics
/// When `them` is not as long as `us`, or `weights` not twice as long.
#[must_use]
pub fn screlu_dot(us: &[i16], them: &[i16], weights: &[i16], clip: i16) -> i32 {
    check_screlu_dot(us, them, weights);
    #[cfg(target_arch = "x86_64")]
    if us.len().is_multiple_of(avx2::LANES) && std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor supports AVX2, `them` is as long as `us` and `weights` twice as
        // long (checked above), and that length is a whole number of vectors.
        return unsafe { avx2::screlu_dot(us, them, weights, clip) };
    }
    portable::screlu_dot(us, them, weights, clip)
}

/// The lengths [`update`] needs.
fn check_update(destination: &[i16], source: &[i16], added: &[&[i16]], removed: &[&[i16]]) {
    assert_eq!(destination.len(), source.len(), "update: destination and source lengths");
    assert!(
        added.iter().chain(removed).all(|column| column.len() == source.len()),
        "update: a column of another length than the source's {}",
        source.len()
    );
}

/// The lengths [`add_in_place`] needs.
fn check_add_in_place(destination: &[i16], added: &[&[i16]]) {
    assert!(
        added.iter().all(|column| column.len() == destination.len()),
        "add_in_place: a column of another length than the destination's {}",
        destination.len()
    );
}

/// The lengths [`screlu_dot`] needs.
fn check_screlu_dot(us: &[i16], them: &[i16], weights: &[i16]) {
    assert_eq!(us.len(), them.len(), "screlu_dot: accumulator lengths");
    assert_eq!(weights.len(), 2 * us.len(), "screlu_dot: weights for both accumulators");
}

/// The portable versions, also the reference the AVX2 ones are tested against. They check the
/// lengths as the dispatching functions do, so that a wrong length panics rather than giving a
/// sum over part of the slices.
pub mod portable {
    use super::{check_add_in_place, check_screlu_dot, check_update};

    /// See [`super::update`].
    ///
    /// # Panics
    /// When the slices are not all of one length.
    pub fn update(destination: &mut [i16], source: &[i16], added: &[&[i16]], removed: &[&[i16]]) {
        check_update(destination, source, added, removed);
        for (index, value) in destination.iter_mut().enumerate() {
            let mut sum = source[index];
            for column in added {
                sum = sum.wrapping_add(column[index]);
            }
            for column in removed {
                sum = sum.wrapping_sub(column[index]);
            }
            *value = sum;
        }
    }

    /// See [`super::add_in_place`].
    ///
    /// # Panics
    /// When the slices are not all of one length.
    pub fn add_in_place(destination: &mut [i16], added: &[&[i16]]) {
        check_add_in_place(destination, added);
        for (index, value) in destination.iter_mut().enumerate() {
            for column in added {
                *value = value.wrapping_add(column[index]);
            }
        }
    }

    /// See [`super::screlu_dot`].
    ///
    /// # Panics
    /// When `them` is not as long as `us`, or `weights` not twice as long.
    #[must_use]
    pub fn screlu_dot(us: &[i16], them: &[i16], weights: &[i16], clip: i16) -> i32 {
        check_screlu_dot(us, them, weights);
        let half = us.len();
        let mut sum = 0i32;
        for (values, weights) in [(us, &weights[..half]), (them, &weights[half..])] {
            for (&value, &weight) in values.iter().zip(weights) {
                let clipped = value.clamp(0, clip);
                let product = clipped.wrapping_mul(weight);
                sum = sum.wrapping_add(i32::from(product) * i32::from(clipped));
            }
        }
        sum
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::{
        __m256i, _mm256_add_epi16, _mm256_add_epi32, _mm256_castsi256_si128, _mm256_extracti128_si256,
        _mm256_loadu_si256, _mm256_madd_epi16, _mm256_max_epi16, _mm256_min_epi16, _mm256_mullo_epi16,
        _mm256_set1_epi16, _mm256_setzero_si256, _mm256_storeu_si256, _mm256_sub_epi16, _mm_add_epi32,
        _mm_cvtsi128_si32, _mm_shuffle_epi32,
    };

    /// `i16` values in one AVX2 vector.
    pub const LANES: usize = 16;

    /// # Safety
    /// The processor must support AVX2; slices as in [`super::update`], of a length divisible by
    /// [`LANES`].
    #[target_feature(enable = "avx2")]
    pub unsafe fn update(destination: &mut [i16], source: &[i16], added: &[&[i16]], removed: &[&[i16]]) {
        let mut index = 0;
        while index < source.len() {
            // SAFETY: `index + LANES <= len` for every slice (all have the source's length, a multiple
            // of LANES);
            // unaligned loads and stores accept any address.
            unsafe {
                let mut sum = _mm256_loadu_si256(source.as_ptr().add(index).cast::<__m256i>());
                for column in added {
                    sum = _mm256_add_epi16(sum, _mm256_loadu_si256(column.as_ptr().add(index).cast::<__m256i>()));
                }
                for column in removed {
                    sum = _mm256_sub_epi16(sum, _mm256_loadu_si256(column.as_ptr().add(index).cast::<__m256i>()));
                }
                _mm256_storeu_si256(destination.as_mut_ptr().add(index).cast::<__m256i>(), sum);
            }
            index += LANES;
        }
    }

    /// # Safety
    /// The processor must support AVX2; slices as in [`super::add_in_place`], of a length divisible
    /// by [`LANES`].
    #[target_feature(enable = "avx2")]
    pub unsafe fn add_in_place(destination: &mut [i16], added: &[&[i16]]) {
        let mut index = 0;
        while index < destination.len() {
            // SAFETY: `index + LANES <= len` for every slice (all have the destination's length, a
            // multiple of LANES).
            unsafe {
                let pointer = destination.as_mut_ptr().add(index).cast::<__m256i>();
                let mut sum = _mm256_loadu_si256(pointer);
                for column in added {
                    sum = _mm256_add_epi16(sum, _mm256_loadu_si256(column.as_ptr().add(index).cast::<__m256i>()));
                }
                _mm256_storeu_si256(pointer, sum);
            }
            index += LANES;
        }
    }

    /// # Safety
    /// The processor must support AVX2; slices as in [`super::screlu_dot`], `us` of a length
    /// divisible by [`LANES`].
    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_dot(us: &[i16], them: &[i16], weights: &[i16], clip: i16) -> i32 {
        let half = us.len();
        let zero = _mm256_setzero_si256();
        let ceiling = _mm256_set1_epi16(clip);
        let mut total = _mm256_setzero_si256();
        for (values, weights) in [(us, &weights[..half]), (them, &weights[half..])] {
            let mut index = 0;
            while index < half {
                // SAFETY: `index + LANES <= half`, the length of `values` and `weights`.
                unsafe {
                    let value = _mm256_loadu_si256(values.as_ptr().add(index).cast::<__m256i>());
                    let weight = _mm256_loadu_si256(weights.as_ptr().add(index).cast::<__m256i>());
                    let clipped = _mm256_min_epi16(_mm256_max_epi16(value, zero), ceiling);
                    let product = _mm256_mullo_epi16(clipped, weight);
                    total = _mm256_add_epi32(total, _mm256_madd_epi16(product, clipped));
                }
                index += LANES;
            }
        }
        let high = _mm256_extracti128_si256::<1>(total);
        let sum = _mm_add_epi32(_mm256_castsi256_si128(total), high);
        let sum = _mm_add_epi32(sum, _mm_shuffle_epi32::<0b01_00_11_10>(sum));
        let sum = _mm_add_epi32(sum, _mm_shuffle_epi32::<0b10_11_00_01>(sum));
        _mm_cvtsi128_si32(sum)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic pseudo-random `i16` sequence covering the whole range.
    fn values(seed: u64, count: usize) -> Vec<i16> {
        let mut state = seed;
        (0..count)
            .map(|_| {
                state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                (state >> 48) as i16
            })
            .collect()
    }

    #[test]
    fn both_versions_agree_on_random_inputs_of_any_length() {
        for (seed, length) in [(1, 256), (2, 16), (3, 37), (4, 512), (5, 1), (6, 1024)] {
            let source = values(seed, length);
            let columns: Vec<Vec<i16>> = (0..4).map(|index| values(seed * 10 + index, length)).collect();
            let added = [columns[0].as_slice(), columns[1].as_slice()];
            let removed = [columns[2].as_slice(), columns[3].as_slice()];
            let mut fast = vec![0; length];
            let mut reference = vec![0; length];
            update(&mut fast, &source, &added, &removed);
            portable::update(&mut reference, &source, &added, &removed);
            assert_eq!(fast, reference, "update, length {length}");
            add_in_place(&mut fast, &removed);
            portable::add_in_place(&mut reference, &removed);
            assert_eq!(fast, reference, "add_in_place, length {length}");

            let weights = values(seed * 100, 2 * length);
            for clip in [255, 127, i16::MAX] {
                assert_eq!(
                    screlu_dot(&source, &columns[0], &weights, clip),
                    portable::screlu_dot(&source, &columns[0], &weights, clip),
                    "screlu_dot, length {length}, clip {clip}"
                );
            }
        }
    }

    // Wrong lengths, each a whole number of AVX2 vectors so that the SIMD path would be taken:
    // without the checks a release build would read or write past the shorter slice. CI runs
    // these in a release build too, where `debug_assert!` would be gone.
    const SHORT: usize = 16;
    const LONG: usize = 32;

    #[test]
    #[should_panic(expected = "update: destination and source")]
    fn update_refuses_a_short_destination() {
        update(&mut [0; SHORT], &[1; LONG], &[&[1; LONG]], &[]);
    }

    #[test]
    #[should_panic(expected = "update: a column")]
    fn update_refuses_a_short_added_column() {
        update(&mut [0; LONG], &[1; LONG], &[&[1; LONG], &[1; SHORT]], &[]);
    }

    #[test]
    #[should_panic(expected = "update: a column")]
    fn update_refuses_a_short_removed_column() {
        update(&mut [0; LONG], &[1; LONG], &[], &[&[1; SHORT]]);
    }

    #[test]
    #[should_panic(expected = "add_in_place: a column")]
    fn add_in_place_refuses_a_short_column() {
        add_in_place(&mut [0; LONG], &[&[1; LONG], &[1; SHORT]]);
    }

    #[test]
    #[should_panic(expected = "screlu_dot: accumulator lengths")]
    fn screlu_dot_refuses_accumulators_of_two_lengths() {
        let _ = screlu_dot(&[1; LONG], &[1; SHORT], &[1; 2 * LONG], 255);
    }

    #[test]
    #[should_panic(expected = "screlu_dot: weights")]
    fn screlu_dot_refuses_short_weights() {
        let _ = screlu_dot(&[1; LONG], &[1; LONG], &[1; LONG], 255);
    }

    #[test]
    #[should_panic(expected = "update: a column")]
    fn the_portable_update_refuses_a_long_column() {
        portable::update(&mut [0; SHORT], &[1; SHORT], &[&[1; LONG]], &[]);
    }

    #[test]
    #[should_panic(expected = "add_in_place: a column")]
    fn the_portable_add_in_place_refuses_a_long_column() {
        portable::add_in_place(&mut [0; SHORT], &[&[1; LONG]]);
    }

    #[test]
    #[should_panic(expected = "screlu_dot: weights")]
    fn the_portable_screlu_dot_refuses_long_weights() {
        let _ = portable::screlu_dot(&[1; SHORT], &[1; SHORT], &[1; 4 * SHORT], 255);
    }

    #[test]
    fn the_portable_version_computes_what_it_says() {
        let mut destination = [0i16; 2];
        portable::update(&mut destination, &[10, 20], &[&[1, 2], &[3, 4]], &[&[5, 6]]);
        assert_eq!(destination, [9, 20]);
        // clip(−3) = 0, clip(300) = 255, clip(10) = 10, clip(2) = 2.
        assert_eq!(portable::screlu_dot(&[-3, 300], &[10, 2], &[7, 1, 2, -1], 255), 255 * 255 + 100 * 2 - 4);
    }
}
