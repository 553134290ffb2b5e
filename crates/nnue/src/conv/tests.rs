use super::kernel::{self, Shape};
use super::*;

/// Sets a fixed scatter of input bits: every point on plane 0, and others by a simple rule.
fn fill_inputs(network: &ConvPolicy, scratch: &mut ConvScratch, seed: usize) {
    scratch.clear();
    let points = network.size() * network.size();
    for index in 0..points {
        scratch.set(0, index);
        for plane in 1..network.planes() {
            if (index * 7 + plane * 13 + seed).is_multiple_of(5) {
                scratch.set(plane, index);
            }
        }
    }
}

/// The input bits `scratch` holds, by point (`y · size + x`) and plane.
fn input_bits(scratch: &ConvScratch) -> Vec<Vec<bool>> {
    let size = scratch.size;
    (0..size * size)
        .map(|index| {
            let (x, y) = (index % size, index / size);
            let at = ((y + 1) * (size + 2) + x + 1) * scratch.planes;
            (0..scratch.planes).map(|plane| scratch.input[at + plane] == 1.0).collect()
        })
        .collect()
}

/// The network computed the plain way, in f64, from the unpadded input bits: the logits, and the
/// value logit if there is a value head.
fn reference(network: &ConvPolicy, bits: &[Vec<bool>]) -> (Vec<f64>, Option<f64>) {
    let size = network.size() as isize;
    let channels = network.channels;
    let at = |x: isize, y: isize| (y * size + x) as usize;
    let convolve = |input: &[Vec<f64>], layer: &Convolution, skip: Option<&[Vec<f64>]>| -> Vec<Vec<f64>> {
        (0..size * size)
            .map(|index| {
                let (x, y) = (index % size, index / size);
                (0..channels)
                    .map(|out| {
                        let mut sum = f64::from(layer.bias[out]);
                        for tap in 0..9 {
                            let (qx, qy) = (x + tap % 3 - 1, y + tap / 3 - 1);
                            if !(0..size).contains(&qx) || !(0..size).contains(&qy) {
                                continue;
                            }
                            for (channel, value) in input[at(qx, qy)].iter().enumerate() {
                                let weight = layer.weights[((tap as usize) * layer.inputs + channel) * channels + out];
                                sum += value * f64::from(weight);
                            }
                        }
                        if let Some(skip) = skip {
                            sum += skip[index as usize][out];
                        }
                        sum.max(0.0)
                    })
                    .collect()
            })
            .collect()
    };
    let input: Vec<Vec<f64>> =
        bits.iter().map(|point| point.iter().map(|&bit| if bit { 1.0 } else { 0.0 }).collect()).collect();
    let mut current = convolve(&input, &network.input, None);
    for pair in network.tower.chunks_exact(2) {
        let middle = convolve(&current, &pair[0], None);
        current = convolve(&middle, &pair[1], Some(&current));
    }
    let logits = current
        .iter()
        .enumerate()
        .map(|(index, values)| {
            let head: f64 = values.iter().zip(&network.head_weights).map(|(v, w)| v * f64::from(*w)).sum();
            head + f64::from(network.head_bias) + f64::from(network.point_bias[index])
        })
        .collect();
    (logits, network.value.as_ref().map(|head| reference_value(head, &current)))
}

/// The value head computed the plain way, in f64, from the tower's output by point.
fn reference_value(head: &ValueHead, tower: &[Vec<f64>]) -> f64 {
    let mut floats = Vec::new();
    head.write(&mut floats);
    let floats: Vec<f64> = floats.into_iter().map(f64::from).collect();
    let (tower_channels, points) = (tower[0].len(), tower.len());
    let (reduce, rest) = floats.split_at(tower_channels * head.channels);
    let (reduce_bias, rest) = rest.split_at(head.channels);
    let (hidden, rest) = rest.split_at(head.hidden * head.channels * points);
    let (hidden_bias, rest) = rest.split_at(head.hidden);
    let (output, output_bias) = rest.split_at(head.hidden);
    let mut features = vec![0.0; head.channels * points];
    for (point, values) in tower.iter().enumerate() {
        for channel in 0..head.channels {
            let sum: f64 =
                values.iter().enumerate().map(|(input, v)| v * reduce[input * head.channels + channel]).sum();
            features[channel * points + point] = (sum + reduce_bias[channel]).max(0.0);
        }
    }
    let units: Vec<f64> = (0..head.hidden)
        .map(|unit| {
            let row = &hidden[unit * features.len()..(unit + 1) * features.len()];
            (row.iter().zip(&features).map(|(w, f)| w * f).sum::<f64>() + hidden_bias[unit]).max(0.0)
        })
        .collect();
    output.iter().zip(&units).map(|(w, u)| w * u).sum::<f64>() + output_bias[0]
}

/// Whether `ours` is within the rounding of f32 arithmetic of `reference`.
fn close(ours: f32, reference: f64) -> bool {
    (f64::from(ours) - reference).abs() < 1e-3 * (1.0 + reference.abs())
}

#[test]
fn the_network_computes_what_its_definition_says() {
    for (channels, blocks, value) in [(16, 2, None), (24, 1, Some((2, 8))), (32, 3, Some((4, 24)))] {
        let network = match value {
            None => ConvPolicy::random(5, channels, blocks, 7, 3),
            Some((value_channels, hidden)) => {
                ConvPolicy::random_with_value([5, channels, blocks, 7], value_channels, hidden, 3)
            }
        };
        let mut scratch = network.scratch();
        fill_inputs(&network, &mut scratch, 1);
        let mut logits = vec![0.0; 49];
        let value = network.logits_and_value(&mut scratch, &mut logits);
        let (expected, expected_value) = reference(&network, &input_bits(&scratch));
        for (ours, reference) in logits.iter().zip(&expected) {
            assert!(close(*ours, *reference), "{ours} against {reference}");
        }
        assert_eq!(value.is_some(), expected_value.is_some());
        if let (Some(ours), Some(reference)) = (value, expected_value) {
            assert!(close(ours, reference), "value {ours} against {reference}");
        }
    }
}

#[test]
fn every_instruction_set_gives_the_same_bits() {
    for channels in [16, 32, 40, 48, 64] {
        let network = ConvPolicy::random(23, channels, 1, 19, u64::try_from(channels).unwrap());
        let shape = Shape { size: 19, channels };
        let mut scratch = network.scratch();
        fill_inputs(&network, &mut scratch, channels);
        let mut first = vec![0.0; 21 * 21 * channels];
        kernel::portable::convolve_sparse(
            shape,
            &scratch.input,
            23,
            &network.input.weights,
            &network.input.bias,
            &mut first,
        );
        let layer = &network.tower[0];
        let mut portable = vec![0.0; first.len()];
        kernel::portable::convolve(shape, &first, &layer.weights, &layer.bias, Some(&first), &mut portable);
        let mut dispatched = vec![0.0; first.len()];
        kernel::convolve(shape, &first, &layer.weights, &layer.bias, Some(&first), &mut dispatched);
        assert!(portable.iter().zip(&dispatched).all(|(a, b)| a.to_bits() == b.to_bits()), "{channels} channels");
        let mut sparse = vec![0.0; first.len()];
        kernel::convolve_sparse(shape, &scratch.input, 23, &network.input.weights, &network.input.bias, &mut sparse);
        assert!(first.iter().zip(&sparse).all(|(a, b)| a.to_bits() == b.to_bits()), "{channels} channels, sparse");
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
            let mut avx2 = vec![0.0; first.len()];
            // SAFETY: the processor has AVX2 and FMA (checked above).
            let inputs = (&first[..], &layer.weights[..], &layer.bias[..], Some(&first[..]));
            match channels {
                16 => unsafe { kernel::x86::avx2::dense::<2, 4>(19, inputs, &mut avx2) },
                32 => unsafe { kernel::x86::avx2::dense::<4, 2>(19, inputs, &mut avx2) },
                48 => unsafe { kernel::x86::avx2::dense::<6, 2>(19, inputs, &mut avx2) },
                64 => unsafe { kernel::x86::avx2::dense::<8, 1>(19, inputs, &mut avx2) },
                _ => continue,
            }
            assert!(portable.iter().zip(&avx2).all(|(a, b)| a.to_bits() == b.to_bits()), "{channels} channels, AVX2");
        }
    }
}

#[test]
fn the_file_form_reads_back_and_damage_is_refused() {
    let network = ConvPolicy::random(4, 8, 2, 5, 9);
    let bytes = network.to_bytes();
    assert_eq!(ConvPolicy::from_bytes(&bytes, "net").unwrap(), network);
    assert_eq!(ConvPolicy::from_bytes(b"nonsense", "net"), Err(ConvError::NotANetwork("net".into())));
    let mut corrupt = bytes.clone();
    corrupt[40] ^= 1;
    assert_eq!(ConvPolicy::from_bytes(&corrupt, "net"), Err(ConvError::Checksum("net".into())));
    assert!(matches!(ConvPolicy::from_bytes(&bytes[..bytes.len() - 4], "net"), Err(ConvError::Shape { .. })));
    assert_eq!(bytes[4], 1, "no value head: version 1");
    let mut version = bytes.clone();
    version[4] = 3;
    assert_eq!(ConvPolicy::from_bytes(&version, "net"), Err(ConvError::Version { path: "net".into(), found: 3 }));
    let mut channels = bytes;
    channels[12] = 7;
    assert!(matches!(ConvPolicy::from_bytes(&channels, "net"), Err(ConvError::Shape { .. })));
}

#[test]
#[should_panic(expected = "out of range")]
fn an_input_off_the_board_is_refused() {
    ConvPolicy::random(2, 8, 0, 3, 1).scratch().set(0, 9);
}

#[test]
fn a_value_head_reads_back_and_bad_value_shapes_are_refused() {
    let network = ConvPolicy::random_with_value([4, 8, 1, 5], 2, 16, 9);
    assert!(network.value.is_some() && ConvPolicy::random(4, 8, 1, 5, 9).value.is_none());
    let bytes = network.to_bytes();
    assert_eq!(bytes[4], 2, "a value head: version 2");
    assert_eq!(ConvPolicy::from_bytes(&bytes, "net").unwrap(), network);
    // The head's shape words, changed, no longer match the file's length; 0 channels with units
    // (or the reverse) is no head at all.
    for (offset, value) in [(24, 3), (28, 17), (24, 0), (28, 0), (24, 200)] {
        let mut changed = bytes.clone();
        changed[offset..offset + 4].copy_from_slice(&u32::to_le_bytes(value));
        assert!(
            matches!(ConvPolicy::from_bytes(&changed, "net"), Err(ConvError::Shape { .. })),
            "word at {offset} set to {value}"
        );
    }
    // A version 1 header before a version 2 body: the lengths disagree.
    let mut version_1 = bytes;
    version_1[4] = 1;
    assert!(matches!(ConvPolicy::from_bytes(&version_1, "net"), Err(ConvError::Shape { .. })));
}

#[test]
fn the_value_is_the_same_bits_twice_and_the_logits_do_not_depend_on_the_head() {
    let with_value = ConvPolicy::random_with_value([23, 32, 2, 19], 4, 64, 5);
    let without = ConvPolicy { value: None, ..with_value.clone() };
    let (mut scratch, mut plain) = (with_value.scratch(), without.scratch());
    fill_inputs(&with_value, &mut scratch, 2);
    fill_inputs(&without, &mut plain, 2);
    let (mut logits, mut again, mut plain_logits) = (vec![0.0; 361], vec![0.0; 361], vec![0.0; 361]);
    let value = with_value.logits_and_value(&mut scratch, &mut logits).expect("a value head");
    assert_eq!(with_value.logits_and_value(&mut scratch, &mut again).map(f32::to_bits), Some(value.to_bits()));
    assert_eq!(without.logits_and_value(&mut plain, &mut plain_logits), None);
    assert!(logits.iter().zip(&plain_logits).all(|(a, b)| a.to_bits() == b.to_bits()));
}

#[test]
fn a_network_plays_on_other_boards_with_the_bias_of_points_as_far_from_the_edges() {
    let trained = ConvPolicy::random_with_value([5, 16, 2, 7], 2, 8, 11);
    assert_eq!(trained.for_board(7), trained);
    // On 7×7 the middle is 3: a 5×5 board's points keep their distances, an 11×11 board's
    // centre takes the middle's.
    assert_eq!((0..5).map(|c| edge_matched(c, 5, 7)).collect::<Vec<_>>(), [0, 1, 2, 5, 6]);
    assert_eq!((0..11).map(|c| edge_matched(c, 11, 7)).collect::<Vec<_>>(), [0, 1, 2, 3, 3, 3, 3, 3, 4, 5, 6]);
    for size in [5, 11] {
        let network = trained.for_board(size);
        assert_eq!((network.size(), network.planes()), (size, 5));
        assert!(network.value.is_none(), "the value head reads the trained board only");
        assert_eq!((&network.input, &network.tower), (&trained.input, &trained.tower));
        for (index, bias) in network.point_bias.iter().enumerate() {
            let [x, y] = [index % size, index / size].map(|c| edge_matched(c, size, 7));
            assert_eq!(*bias, trained.point_bias[y * 7 + x]);
        }
        let mut scratch = network.scratch();
        fill_inputs(&network, &mut scratch, 2);
        let mut logits = vec![0.0; size * size];
        assert_eq!(network.logits_and_value(&mut scratch, &mut logits), None);
        let (expected, _) = reference(&network, &input_bits(&scratch));
        for (ours, reference) in logits.iter().zip(&expected) {
            assert!(close(*ours, *reference), "{ours} against {reference} on {size}×{size}");
        }
    }
}
