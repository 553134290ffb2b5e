//! The optional value head of a convolutional network: who is winning, as one logit.
//!
//! From the tower's last activations: a 1×1 convolution to a few channels and a ReLU, a fully
//! connected hidden layer over every point of those channels and a ReLU, then one output, the
//! log-odds that the player to move wins. Every product and sum is a separate `f32` operation
//! in a fixed order (no fused multiply-add, which machines without FMA would emulate slowly), so
//! the same inputs give the same bits everywhere.

/// The value head's weights.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct ValueHead {
    /// Channels of the 1×1 convolution.
    pub(super) channels: usize,
    /// Units of the hidden layer.
    pub(super) hidden: usize,
    /// The 1×1 convolution: `[tower channel][value channel]`, then one bias per value channel.
    reduce_weights: Vec<f32>,
    reduce_bias: Vec<f32>,
    /// The hidden layer: `[unit][value channel · points + point]`, then one bias per unit.
    hidden_weights: Vec<f32>,
    hidden_bias: Vec<f32>,
    output_weights: Vec<f32>,
    output_bias: f32,
}

use crate::random::SplitMix;

/// Accumulators of [`dot`]: independent sums that a compiler may keep in one vector register.
const ACCUMULATORS: usize = 8;

impl ValueHead {
    /// The floats a head of this shape stores, after a tower of `tower_channels` channels on a
    /// board of `points` points.
    pub(super) fn floats(tower_channels: usize, channels: usize, hidden: usize, points: usize) -> usize {
        tower_channels * channels + channels + hidden * channels * points + hidden + hidden + 1
    }

    /// A head read from `take` (which yields the next `count` floats of the file, in the order
    /// [`ValueHead::write`] writes them).
    pub(super) fn read(
        take: &mut impl FnMut(usize) -> Vec<f32>,
        tower_channels: usize,
        channels: usize,
        hidden: usize,
        points: usize,
    ) -> ValueHead {
        ValueHead {
            channels,
            hidden,
            reduce_weights: take(tower_channels * channels),
            reduce_bias: take(channels),
            hidden_weights: take(hidden * channels * points),
            hidden_bias: take(hidden),
            output_weights: take(hidden),
            output_bias: take(1)[0],
        }
    }

    /// Appends the head's floats in file order.
    pub(super) fn write(&self, floats: &mut Vec<f32>) {
        for part in
            [&self.reduce_weights, &self.reduce_bias, &self.hidden_weights, &self.hidden_bias, &self.output_weights]
        {
            floats.extend_from_slice(part);
        }
        floats.push(self.output_bias);
    }

    /// A head of this shape with weights drawn from `rng`.
    pub(super) fn random(
        rng: &mut SplitMix,
        tower_channels: usize,
        channels: usize,
        hidden: usize,
        points: usize,
    ) -> ValueHead {
        let mut draw = |count: usize, scale: f32| (0..count).map(|_| rng.symmetric() * scale).collect::<Vec<f32>>();
        let features = channels * points;
        ValueHead {
            channels,
            hidden,
            reduce_weights: draw(tower_channels * channels, (2.0 / tower_channels as f32).sqrt()),
            reduce_bias: draw(channels, 0.1),
            hidden_weights: draw(hidden * features, (2.0 / features as f32).sqrt()),
            hidden_bias: draw(hidden, 0.1),
            output_weights: draw(hidden, (1.0 / hidden as f32).sqrt()),
            output_bias: draw(1, 0.1)[0],
        }
    }

    /// The value logit from the tower's output `tower` (a board padded by a ring of zeros,
    /// `tower_channels` channels innermost), using `features` (`channels · size²` values) and
    /// `units` (`hidden` values) as buffers.
    pub(super) fn logit(
        &self,
        tower: &[f32],
        size: usize,
        tower_channels: usize,
        features: &mut [f32],
        units: &mut [f32],
    ) -> f32 {
        let points = size * size;
        for y in 0..size {
            for x in 0..size {
                let at = ((y + 1) * (size + 2) + x + 1) * tower_channels;
                let inputs = &tower[at..at + tower_channels];
                for channel in 0..self.channels {
                    let mut sum = self.reduce_bias[channel];
                    for (input, value) in inputs.iter().enumerate() {
                        sum += value * self.reduce_weights[input * self.channels + channel];
                    }
                    features[channel * points + y * size + x] = sum.max(0.0);
                }
            }
        }
        let width = self.channels * points;
        for (unit, output) in units.iter_mut().enumerate() {
            let weights = &self.hidden_weights[unit * width..(unit + 1) * width];
            *output = (self.hidden_bias[unit] + dot(weights, features)).max(0.0);
        }
        self.output_bias + dot(&self.output_weights, units)
    }
}

/// `Σ a[i]·b[i]` in a fixed order: [`ACCUMULATORS`] interleaved partial sums (element `i` into
/// sum `i mod ACCUMULATORS`), the elements past the last whole group after, then the partial sums
/// added pairwise. Each step is an `f32` product or sum, so every machine gives the same bits.
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut sums = [0.0f32; ACCUMULATORS];
    let (whole_a, rest_a) = a.split_at(a.len() / ACCUMULATORS * ACCUMULATORS);
    let (whole_b, rest_b) = b.split_at(whole_a.len());
    for (group_a, group_b) in whole_a.chunks_exact(ACCUMULATORS).zip(whole_b.chunks_exact(ACCUMULATORS)) {
        for lane in 0..ACCUMULATORS {
            sums[lane] += group_a[lane] * group_b[lane];
        }
    }
    for (lane, (x, y)) in rest_a.iter().zip(rest_b).enumerate() {
        sums[lane] += x * y;
    }
    let [s0, s1, s2, s3, s4, s5, s6, s7] = sums;
    ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
}

#[cfg(test)]
mod tests {
    use super::dot;

    #[test]
    fn the_dot_product_is_exact_on_small_integers_of_any_length() {
        for length in [0, 1, 7, 8, 9, 17, 1444] {
            let a: Vec<f32> = (0..length).map(|i| (i % 13) as f32 - 6.0).collect();
            let b: Vec<f32> = (0..length).map(|i| (i % 5) as f32).collect();
            let exact: f32 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
            assert_eq!(dot(&a, &b), exact, "length {length}");
        }
    }
}
