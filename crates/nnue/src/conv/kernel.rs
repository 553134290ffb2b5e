//! The inner loops of the convolutional network: 3×3 convolutions on a board padded by a ring of
//! zeros, channels innermost (`board[(y · (size + 2) + x) · channels + channel]`).
//!
//! Every output value is computed by one fixed sequence of fused multiply-adds, lane by lane:
//! the bias, then the taps in order, each tap's input channels in order, then the skip
//! connection, then the ReLU (`x > 0 ? x : +0`). The SIMD versions (AVX-512 or AVX2 with FMA,
//! chosen at run time) only run many such sequences side by side, several output points at once
//! so that the processor overlaps independent chains, and so give exactly the portable
//! version's bits, which the tests check.

/// Channel counts must be a multiple of this.
pub const LANES: usize = 8;

/// The board side and the channels of the activations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Board side (the padded board is two points wider).
    pub size: usize,
    /// Channels of every activation board.
    pub channels: usize,
}

/// `output = ReLU(bias + Σ taps · input [+ skip])` over the board's points; `weights` are
/// `[tap][input channel][output channel]`, `input`, `skip` and `output` padded activation boards
/// of `shape.channels` channels. The padding ring of `output` is left as it is (zero).
pub fn convolve(shape: Shape, input: &[f32], weights: &[f32], bias: &[f32], skip: Option<&[f32]>, output: &mut [f32]) {
    check(shape, input, shape.channels, weights, bias, output);
    if let Some(skip) = skip {
        assert_eq!(skip.len(), output.len(), "skip board");
    }
    #[cfg(target_arch = "x86_64")]
    if x86::convolve(shape, input, weights, bias, skip, output) {
        return;
    }
    portable::convolve(shape, input, weights, bias, skip, output);
}

/// The first convolution, from `planes` binary input planes (`input` padded, `planes` values a
/// point, each 0 or 1): as [`convolve`] without a skip, but the zeros (most inputs) are skipped,
/// which changes no result.
pub fn convolve_sparse(shape: Shape, input: &[f32], planes: usize, weights: &[f32], bias: &[f32], output: &mut [f32]) {
    check(shape, input, planes, weights, bias, output);
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
        // SAFETY: the processor has AVX2 and FMA.
        return unsafe { x86::convolve_sparse_avx2(shape, input, planes, weights, bias, output) };
    }
    portable::convolve_sparse(shape, input, planes, weights, bias, output);
}

fn check(shape: Shape, input: &[f32], inputs: usize, weights: &[f32], bias: &[f32], output: &[f32]) {
    let padded = (shape.size + 2) * (shape.size + 2);
    assert!(shape.channels.is_multiple_of(LANES) && shape.channels > 0, "channels a multiple of {LANES}");
    assert_eq!(input.len(), padded * inputs, "input board");
    assert_eq!(output.len(), padded * shape.channels, "output board");
    assert_eq!(weights.len(), 9 * inputs * shape.channels, "weights");
    assert_eq!(bias.len(), shape.channels, "biases");
}

/// Offsets of the nine taps on the padded board, row by row from the top-left.
#[inline(always)]
fn tap_offsets(size: usize) -> [isize; 9] {
    let row = (size + 2) as isize;
    [-row - 1, -row, -row + 1, -1, 0, 1, row - 1, row, row + 1]
}

/// The ReLU of the module documentation: `-0` and NaN become `+0`, as the SIMD maximum with a
/// zero second operand gives.
#[inline(always)]
fn relu(value: f32) -> f32 {
    if value > 0.0 {
        value
    } else {
        0.0
    }
}

/// The reference version, for processors without the SIMD extensions (and for the tests).
pub mod portable {
    use super::{relu, tap_offsets, Shape};

    /// See [`super::convolve`].
    pub fn convolve(
        shape: Shape,
        input: &[f32],
        weights: &[f32],
        bias: &[f32],
        skip: Option<&[f32]>,
        output: &mut [f32],
    ) {
        let (size, channels) = (shape.size, shape.channels);
        let padded = size + 2;
        for y in 1..=size {
            for x in 1..=size {
                let p = y * padded + x;
                let sums = &mut output[p * channels..(p + 1) * channels];
                sums.copy_from_slice(bias);
                for (tap, offset) in tap_offsets(size).iter().enumerate() {
                    let q = p.wrapping_add_signed(*offset);
                    for (channel, &value) in input[q * channels..(q + 1) * channels].iter().enumerate() {
                        let row = &weights[(tap * channels + channel) * channels..][..channels];
                        for (sum, weight) in sums.iter_mut().zip(row) {
                            *sum = value.mul_add(*weight, *sum);
                        }
                    }
                }
                if let Some(skip) = skip {
                    for (sum, extra) in sums.iter_mut().zip(&skip[p * channels..(p + 1) * channels]) {
                        *sum += extra;
                    }
                }
                for sum in sums.iter_mut() {
                    *sum = relu(*sum);
                }
            }
        }
    }

    /// See [`super::convolve_sparse`].
    #[inline(always)]
    pub fn convolve_sparse(
        shape: Shape,
        input: &[f32],
        planes: usize,
        weights: &[f32],
        bias: &[f32],
        output: &mut [f32],
    ) {
        let (size, channels) = (shape.size, shape.channels);
        let padded = size + 2;
        for y in 1..=size {
            for x in 1..=size {
                let p = y * padded + x;
                let sums = &mut output[p * channels..(p + 1) * channels];
                sums.copy_from_slice(bias);
                for (tap, offset) in tap_offsets(size).iter().enumerate() {
                    let q = p.wrapping_add_signed(*offset);
                    for (plane, &value) in input[q * planes..(q + 1) * planes].iter().enumerate() {
                        if value != 0.0 {
                            let row = &weights[(tap * planes + plane) * channels..][..channels];
                            for (sum, weight) in sums.iter_mut().zip(row) {
                                *sum = value.mul_add(*weight, *sum);
                            }
                        }
                    }
                }
                for sum in sums.iter_mut() {
                    *sum = relu(*sum);
                }
            }
        }
    }
}

/// The x86-64 versions: AVX-512 (16 lanes) or AVX2 (8 lanes), both with FMA.
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86 {
    use super::Shape;

    /// Runs [`super::convolve`] with the widest instructions the processor has, for the channel
    /// counts with a kernel; false (nothing done) otherwise.
    pub(crate) fn convolve(
        shape: Shape,
        input: &[f32],
        weights: &[f32],
        bias: &[f32],
        skip: Option<&[f32]>,
        output: &mut [f32],
    ) -> bool {
        use std::arch::is_x86_feature_detected as has;
        let (size, arguments) = (shape.size, (input, weights, bias, skip));
        if has!("avx512f") && has!("fma") {
            // SAFETY (each arm): the processor has AVX-512F and FMA, and `super::convolve`
            // checked every length for `shape`, whose channels are the kernel's.
            match shape.channels {
                16 => unsafe { avx512::dense::<1, 8>(size, arguments, output) },
                32 => unsafe { avx512::dense::<2, 4>(size, arguments, output) },
                48 => unsafe { avx512::dense::<3, 4>(size, arguments, output) },
                64 => unsafe { avx512::dense::<4, 4>(size, arguments, output) },
                _ => return false,
            }
            return true;
        }
        if has!("avx2") && has!("fma") {
            // SAFETY (each arm): as above, with AVX2 and FMA.
            match shape.channels {
                16 => unsafe { avx2::dense::<2, 4>(size, arguments, output) },
                32 => unsafe { avx2::dense::<4, 2>(size, arguments, output) },
                48 => unsafe { avx2::dense::<6, 2>(size, arguments, output) },
                64 => unsafe { avx2::dense::<8, 1>(size, arguments, output) },
                _ => return false,
            }
            return true;
        }
        false
    }

    /// [`super::portable::convolve_sparse`] compiled with AVX2 and FMA.
    ///
    /// # Safety
    /// The processor must have AVX2 and FMA.
    #[target_feature(enable = "avx2,fma")]
    pub(crate) unsafe fn convolve_sparse_avx2(
        shape: Shape,
        input: &[f32],
        planes: usize,
        weights: &[f32],
        bias: &[f32],
        output: &mut [f32],
    ) {
        super::portable::convolve_sparse(shape, input, planes, weights, bias, output);
    }

    /// The input board, the weights, the biases and the skip board of a dense convolution.
    type Inputs<'a> = (&'a [f32], &'a [f32], &'a [f32], Option<&'a [f32]>);

    /// A dense kernel for one vector type: `V` vectors of channels per point, `P` points of a row
    /// side by side (each row ends with single points).
    macro_rules! dense_kernel {
        ($module:ident, $features:literal, $vector:ident, $lanes:literal,
         $load:ident, $store:ident, $fmadd:ident, $add:ident, $max:ident, $set1:ident, $zero:ident) => {
            pub(crate) mod $module {
                use std::arch::x86_64::{$add, $fmadd, $load, $max, $set1, $store, $vector, $zero};

                use super::super::tap_offsets;
                use super::Inputs;

                /// Lanes of one vector.
                const LANES: usize = $lanes;

                /// [`super::super::convolve`] for `V · LANES` channels.
                ///
                /// # Safety
                /// The processor must have the module's features, and the boards, weights and
                /// biases the lengths [`super::super::convolve`] checks for `V · LANES` channels.
                #[target_feature(enable = $features)]
                pub(crate) unsafe fn dense<const V: usize, const P: usize>(
                    size: usize,
                    inputs: Inputs<'_>,
                    output: &mut [f32],
                ) {
                    let padded = size + 2;
                    for y in 1..=size {
                        let mut x = 1;
                        while x + P <= size + 1 {
                            // SAFETY: the points are on the board; the lengths are the caller's.
                            unsafe { run::<V, P>(size, y * padded + x, inputs, output) };
                            x += P;
                        }
                        while x <= size {
                            // SAFETY: as above.
                            unsafe { run::<V, 1>(size, y * padded + x, inputs, output) };
                            x += 1;
                        }
                    }
                }

                /// The `P` output points from `first` on.
                ///
                /// # Safety
                /// As [`dense`], with `first .. first + P` points of one row of the board.
                #[target_feature(enable = $features)]
                #[inline]
                unsafe fn run<const V: usize, const P: usize>(
                    size: usize,
                    first: usize,
                    (input, weights, bias, skip): Inputs<'_>,
                    output: &mut [f32],
                ) {
                    let channels = V * LANES;
                    let (input, weights) = (input.as_ptr(), weights.as_ptr());
                    // SAFETY (every pointer below): the offsets stay within the lengths the
                    // caller guarantees: a tap of a board point is on the padded board, and
                    // `tap · channels² + channel · channels + v · LANES` within the weights.
                    let mut sums: [[$vector; V]; P] = [[$zero(); V]; P];
                    for v in 0..V {
                        let start = unsafe { $load(bias.as_ptr().add(v * LANES)) };
                        for point in 0..P {
                            sums[point][v] = start;
                        }
                    }
                    for (tap, offset) in tap_offsets(size).iter().enumerate() {
                        let q = first.wrapping_add_signed(*offset);
                        for channel in 0..channels {
                            let row = unsafe { weights.add((tap * channels + channel) * channels) };
                            let row: [$vector; V] = std::array::from_fn(|v| unsafe { $load(row.add(v * LANES)) });
                            for point in 0..P {
                                let value = $set1(unsafe { *input.add((q + point) * channels + channel) });
                                for v in 0..V {
                                    sums[point][v] = $fmadd(value, row[v], sums[point][v]);
                                }
                            }
                        }
                    }
                    for point in 0..P {
                        let at = (first + point) * channels;
                        for v in 0..V {
                            let mut sum = sums[point][v];
                            if let Some(skip) = skip {
                                sum = $add(sum, unsafe { $load(skip.as_ptr().add(at + v * LANES)) });
                            }
                            unsafe { $store(output.as_mut_ptr().add(at + v * LANES), $max(sum, $zero())) };
                        }
                    }
                }
            }
        };
    }

    dense_kernel!(
        avx512,
        "avx512f,fma",
        __m512,
        16,
        _mm512_loadu_ps,
        _mm512_storeu_ps,
        _mm512_fmadd_ps,
        _mm512_add_ps,
        _mm512_max_ps,
        _mm512_set1_ps,
        _mm512_setzero_ps
    );
    dense_kernel!(
        avx2,
        "avx2,fma",
        __m256,
        8,
        _mm256_loadu_ps,
        _mm256_storeu_ps,
        _mm256_fmadd_ps,
        _mm256_add_ps,
        _mm256_max_ps,
        _mm256_set1_ps,
        _mm256_setzero_ps
    );
}
