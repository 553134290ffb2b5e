//! The network in `f32` for training: forward and backward passes over sparse inputs, AdamW, and
//! the quantised export.

use crate::network::{Network, Quantisation};
use crate::random::SplitMix;

/// Output weights stay within this, so that quantised they fit the `i16` product of inference
/// (`127 / QB` with `QB = 64`).
pub const OUTPUT_WEIGHT_LIMIT: f32 = 1.98;
/// Feature-transformer weights stay within this (quantised accumulators then cannot overflow).
pub const FEATURE_WEIGHT_LIMIT: f32 = 1.98;

/// The trainable values of a perspective network, or a gradient of the same shape.
#[derive(Clone, Debug, PartialEq)]
pub struct Parameters {
    /// Input count.
    pub inputs: usize,
    /// Hidden size (one perspective).
    pub hidden: usize,
    /// Feature-transformer weights, input-major (`inputs × hidden`).
    pub feature_weights: Vec<f32>,
    /// Feature-transformer biases (`hidden`).
    pub feature_biases: Vec<f32>,
    /// Output weights (`2 × hidden`, the side to move's half first).
    pub output_weights: Vec<f32>,
    /// Output bias.
    pub output_bias: f32,
}

impl Parameters {
    /// All zeros (a gradient buffer).
    #[must_use]
    pub fn zeros(inputs: usize, hidden: usize) -> Parameters {
        Parameters {
            inputs,
            hidden,
            feature_weights: vec![0.0; inputs * hidden],
            feature_biases: vec![0.0; hidden],
            output_weights: vec![0.0; 2 * hidden],
            output_bias: 0.0,
        }
    }

    /// Small random weights, zero biases.
    #[must_use]
    pub fn random(inputs: usize, hidden: usize, seed: u64) -> Parameters {
        let mut rng = SplitMix(seed);
        let mut parameters = Parameters::zeros(inputs, hidden);
        for weight in &mut parameters.feature_weights {
            *weight = 0.1 * rng.symmetric();
        }
        let output_range = 1.0 / (2.0 * hidden as f32).sqrt();
        for weight in &mut parameters.output_weights {
            *weight = output_range * rng.symmetric();
        }
        parameters
    }

    /// The values a quantised network stands for (each integer divided by its scale), to train
    /// further from. Quantising the result with the network's own constants gives it back exactly.
    #[must_use]
    pub fn from_network(network: &Network) -> Parameters {
        let Quantisation { qa, qb, .. } = network.quantisation();
        let (qa, qb) = (qa as f32, qb as f32);
        let feature_weights =
            (0..network.inputs()).flat_map(|feature| network.column(feature)).map(|&value| f32::from(value) / qa);
        Parameters {
            inputs: network.inputs(),
            hidden: network.hidden(),
            feature_weights: feature_weights.collect(),
            feature_biases: network.biases().iter().map(|&value| f32::from(value) / qa).collect(),
            output_weights: network.output_weights().iter().map(|&value| f32::from(value) / qb).collect(),
            output_bias: network.output_bias() as f32 / (qa * qb),
        }
    }

    /// Every value in one order (weights, biases, output weights, output bias), for the optimiser
    /// and for checkpoints.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.feature_weights
            .iter_mut()
            .chain(self.feature_biases.iter_mut())
            .chain(self.output_weights.iter_mut())
            .chain(std::iter::once(&mut self.output_bias))
    }

    /// See [`Self::values_mut`].
    pub fn values(&self) -> impl Iterator<Item = f32> + '_ {
        self.feature_weights
            .iter()
            .chain(&self.feature_biases)
            .chain(&self.output_weights)
            .chain(std::iter::once(&self.output_bias))
            .copied()
    }

    /// Number of values.
    #[must_use]
    pub fn len(&self) -> usize {
        self.feature_weights.len() + self.feature_biases.len() + self.output_weights.len() + 1
    }

    /// Whether there are no values (never, for a real network).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Sets every value to zero.
    pub fn clear(&mut self) {
        for value in self.values_mut() {
            *value = 0.0;
        }
    }

    /// Adds `other` (a gradient of the same shape) to this one.
    pub fn add(&mut self, other: &Parameters) {
        for (value, added) in self.values_mut().zip(other.values()) {
            *value += added;
        }
    }

    /// The raw output (in units of the quantised `scale`) for one position's active features.
    /// `accumulators` receives the two accumulators before activation (side to move's first).
    pub fn forward(&self, us: &[usize], them: &[usize], accumulators: &mut [f32]) -> f32 {
        let hidden = self.hidden;
        let (ours, theirs) = accumulators.split_at_mut(hidden);
        for (accumulator, features) in [(ours, us), (theirs, them)] {
            accumulator.copy_from_slice(&self.feature_biases);
            for &feature in features {
                let column = &self.feature_weights[feature * hidden..(feature + 1) * hidden];
                for (value, weight) in accumulator.iter_mut().zip(column) {
                    *value += weight;
                }
            }
        }
        let mut output = self.output_bias;
        for (&value, &weight) in accumulators.iter().zip(&self.output_weights) {
            let clipped = value.clamp(0.0, 1.0);
            output += clipped * clipped * weight;
        }
        output
    }

    /// Adds to `gradient` the derivative of the loss with respect to every parameter, given the
    /// derivative `output_gradient` of the loss with respect to this position's output.
    pub fn backward(
        &self,
        us: &[usize],
        them: &[usize],
        accumulators: &[f32],
        output_gradient: f32,
        gradient: &mut Parameters,
        scratch: &mut [f32],
    ) {
        let hidden = self.hidden;
        gradient.output_bias += output_gradient;
        for (index, &value) in accumulators.iter().enumerate() {
            let clipped = value.clamp(0.0, 1.0);
            gradient.output_weights[index] += output_gradient * clipped * clipped;
            // d(clip(x)²)/dx = 2x inside (0, 1), else 0.
            scratch[index] = if value > 0.0 && value < 1.0 {
                output_gradient * self.output_weights[index] * 2.0 * value
            } else {
                0.0
            };
        }
        let (ours, theirs) = scratch.split_at(hidden);
        for (bias, (a, b)) in gradient.feature_biases.iter_mut().zip(ours.iter().zip(theirs)) {
            *bias += a + b;
        }
        for (features, delta) in [(us, ours), (them, theirs)] {
            for &feature in features {
                let column = &mut gradient.feature_weights[feature * hidden..(feature + 1) * hidden];
                for (value, change) in column.iter_mut().zip(delta) {
                    *value += change;
                }
            }
        }
    }

    /// Keeps the weights within what quantisation can represent.
    pub fn clip(&mut self) {
        for weight in self.feature_weights.iter_mut().chain(self.feature_biases.iter_mut()) {
            *weight = weight.clamp(-FEATURE_WEIGHT_LIMIT, FEATURE_WEIGHT_LIMIT);
        }
        for weight in &mut self.output_weights {
            *weight = weight.clamp(-OUTPUT_WEIGHT_LIMIT, OUTPUT_WEIGHT_LIMIT);
        }
    }

    /// The quantised network for inference.
    #[must_use]
    pub fn quantise(&self, feature_set: &str, quantisation: Quantisation) -> Network {
        let (qa, qb) = (quantisation.qa as f32, quantisation.qb as f32);
        let round = |value: f32, scale: f32| (value * scale).round() as i16;
        Network::from_parts(
            feature_set,
            quantisation,
            self.feature_weights.iter().map(|&value| round(value, qa)).collect(),
            self.feature_biases.iter().map(|&value| round(value, qa)).collect(),
            self.output_weights.iter().map(|&value| round(value, qb)).collect(),
            (self.output_bias * qa * qb).round() as i32,
        )
    }
}

/// AdamW: Adam with decoupled weight decay.
#[derive(Clone, Debug, PartialEq)]
pub struct AdamW {
    /// First moments, in [`Parameters::values`] order.
    pub first: Vec<f32>,
    /// Second moments.
    pub second: Vec<f32>,
    /// Steps taken.
    pub steps: u64,
}

impl AdamW {
    const BETA1: f32 = 0.9;
    const BETA2: f32 = 0.999;
    const EPSILON: f32 = 1e-8;
    const DECAY: f32 = 0.01;

    /// A fresh optimiser for `count` parameters.
    #[must_use]
    pub fn new(count: usize) -> AdamW {
        AdamW { first: vec![0.0; count], second: vec![0.0; count], steps: 0 }
    }

    /// One step of size `rate` against `gradient`.
    pub fn step(&mut self, parameters: &mut Parameters, gradient: &Parameters, rate: f32) {
        self.steps += 1;
        let correction1 = 1.0 - Self::BETA1.powi(self.steps.min(100_000) as i32);
        let correction2 = 1.0 - Self::BETA2.powi(self.steps.min(100_000) as i32);
        let moments = self.first.iter_mut().zip(self.second.iter_mut());
        for ((value, grad), (first, second)) in parameters.values_mut().zip(gradient.values()).zip(moments) {
            *first = Self::BETA1 * *first + (1.0 - Self::BETA1) * grad;
            *second = Self::BETA2 * *second + (1.0 - Self::BETA2) * grad * grad;
            let update = (*first / correction1) / ((*second / correction2).sqrt() + Self::EPSILON);
            *value -= rate * (update + Self::DECAY * *value);
        }
        parameters.clip();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gradients_match_finite_differences() {
        let mut parameters = Parameters::random(6, 16, 7);
        // Biases that put accumulators inside (0, 1), where the activation has a slope.
        for bias in &mut parameters.feature_biases {
            *bias = 0.45;
        }
        let (us, them) = ([0usize, 2, 5], [1usize, 3]);
        let mut accumulators = vec![0.0; 32];
        let loss = |parameters: &Parameters| {
            let mut scratch = vec![0.0; 32];
            let output = parameters.forward(&us, &them, &mut scratch);
            0.5 * output * output
        };
        let output = parameters.forward(&us, &them, &mut accumulators);
        let mut gradient = Parameters::zeros(6, 16);
        parameters.backward(&us, &them, &accumulators, output, &mut gradient, &mut [0.0; 32]);
        let analytic: Vec<f32> = gradient.values().collect();
        let step = 1e-3;
        for index in [0, 5, 16 * 2 + 3, 16 * 6 + 4, 16 * 7 + 2, 16 * 7 + 20, 16 * 9] {
            let mut plus = parameters.clone();
            *plus.values_mut().nth(index).unwrap() += step;
            let mut minus = parameters.clone();
            *minus.values_mut().nth(index).unwrap() -= step;
            let numeric = (loss(&plus) - loss(&minus)) / (2.0 * step);
            assert!((numeric - analytic[index]).abs() < 2e-3, "parameter {index}: {numeric} vs {}", analytic[index]);
        }
    }

    #[test]
    fn a_network_read_back_as_parameters_quantises_to_itself() {
        let network = Parameters::random(20, 32, 5).quantise("toy-20", Quantisation::STANDARD);
        let parameters = Parameters::from_network(&network);
        assert_eq!((parameters.inputs, parameters.hidden), (20, 32));
        assert_eq!(parameters.quantise("toy-20", Quantisation::STANDARD), network);
    }

    #[test]
    fn quantised_inference_follows_the_float_network() {
        let parameters = Parameters::random(20, 32, 3);
        let network = parameters.quantise("toy-20", Quantisation::STANDARD);
        let (us, them) = ([1usize, 4, 7, 19], [0usize, 2, 4, 8, 15]);
        let mut accumulators = vec![0.0; 64];
        let float = parameters.forward(&us, &them, &mut accumulators) * 400.0;
        let column_sum = |features: &[usize]| -> Vec<i16> {
            let mut values = network.biases().to_vec();
            for &feature in features {
                for (value, weight) in values.iter_mut().zip(network.column(feature)) {
                    *value += weight;
                }
            }
            values
        };
        let integer = network.evaluate(&column_sum(&us), &column_sum(&them));
        assert!((integer as f32 - float).abs() < 3.0, "{integer} vs {float}");
    }
}
