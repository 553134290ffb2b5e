//! The network: a residual convolutional network (`tessera_nnue::conv`) trained on 9-dan games
//! of the TYGEM server to predict the next move from [`crate::features`], with a value head
//! trained on the same games' results. The tree asks it for the priors of the children of nodes
//! it visits often, and for who is winning there ([`tessera_core::Playout::refined_priors`]):
//! about a millisecond a position, too costly for every new node, but far sharper than the shape
//! priors (docs/go.md gives the figures). Learned on 19×19, it plays on every board from 9×9 up
//! ([`for_board`]); the value head only on 19×19.

use std::cell::RefCell;
use std::sync::OnceLock;

use tessera_core::Refined;
use tessera_nnue::conv::{ConvPolicy, ConvScratch};

use crate::board::MAX_SIZE;
use crate::features::{plane_index, planes, PLANES};
use crate::position::{Move, Position};

/// The shipped network (`scripts/train-go-policy.py` made it; docs/go.md says from what).
const SHIPPED: &[u8] = include_bytes!("../data/policy19.bin");

/// The share of the priors a pass keeps when the network ranks the stones (it never saw a pass).
const PASS_SHARE: f32 = 0.1;

/// The shipped network, read once.
///
/// # Panics
/// Panics if the shipped bytes were not a network for [`PLANES`] planes, which a test rules out.
#[must_use]
pub fn shipped() -> &'static ConvPolicy {
    static NETWORK: OnceLock<ConvPolicy> = OnceLock::new();
    NETWORK.get_or_init(|| {
        let network = ConvPolicy::from_bytes(SHIPPED, "policy19.bin").expect("the shipped network is valid");
        assert_eq!(network.planes(), PLANES, "the shipped network reads the planes of crate::features");
        network
    })
}

/// The smallest board the network plays on. It learned 19×19 shapes; its convolutions slide over
/// any board ([`ConvPolicy::for_board`]), and on 9×9 its priors measured better than the shape
/// priors alone (docs/go.md, strength log 2026-12-07).
pub const SMALLEST_BOARD: usize = 9;

/// The shipped network for a board of `size` (itself on 19×19, built once for another size), or
/// `None` outside [`SMALLEST_BOARD`]`..=`[`MAX_SIZE`]. Only the 19×19 board has a value head.
#[must_use]
pub fn for_board(size: usize) -> Option<&'static ConvPolicy> {
    static RESIZED: [OnceLock<ConvPolicy>; MAX_SIZE + 1] = [const { OnceLock::new() }; MAX_SIZE + 1];
    if size == shipped().size() {
        return Some(shipped());
    }
    (SMALLEST_BOARD..=MAX_SIZE).contains(&size).then(|| RESIZED[size].get_or_init(|| shipped().for_board(size)))
}

thread_local! {
    /// Each search thread's evaluation buffers and logits.
    static SCRATCH: RefCell<Option<(ConvScratch, Vec<f32>)>> = const { RefCell::new(None) };
}

/// Evaluates `position`: the network's probability for each of `moves` (summing to 1 over them),
/// written to `priors`, and with `with_value` the chance that the player to move wins (the value
/// head runs only then, on 19×19); `None`, and nothing written, on boards the network does not
/// play on ([`for_board`]).
pub fn evaluate(position: &Position, moves: &[Move], priors: &mut [f32], with_value: bool) -> Option<Refined> {
    let size = position.size();
    let network = for_board(size)?;
    SCRATCH.with_borrow_mut(|buffers| {
        // A thread keeps the buffers of the last board size it evaluated.
        if buffers.as_ref().is_some_and(|(_, logits)| logits.len() != size * size) {
            *buffers = None;
        }
        let (scratch, logits) = buffers.get_or_insert_with(|| (network.scratch(), vec![0.0; size * size]));
        scratch.clear();
        planes(position, |plane, index| scratch.set(plane, index));
        let value = if with_value {
            network.logits_and_value(scratch, logits).map(sigmoid)
        } else {
            network.logits(scratch, logits);
            None
        };
        let logit = |mv: &Move| mv.point().map(|p| logits[plane_index(size, p)]);
        let highest = moves.iter().filter_map(logit).fold(f32::NEG_INFINITY, f32::max);
        let mut total = 0.0;
        for (mv, prior) in moves.iter().zip(priors.iter_mut()) {
            *prior = logit(mv).map_or(0.0, |logit| exp(logit - highest));
            total += *prior;
        }
        // The best stone scores e^0 = 1, so the total is 0 only when the pass is the one move.
        let pass_share = if total > 0.0 { PASS_SHARE } else { 1.0 };
        let stone_share = if moves.iter().any(|mv| mv.is_pass()) { 1.0 - pass_share } else { 1.0 };
        for (mv, prior) in moves.iter().zip(priors.iter_mut()) {
            *prior = if mv.is_pass() { pass_share } else { *prior / total * stone_share };
        }
        Some(Refined { value })
    })
}

/// `1 / (1 + e^-x)`, the same bits on every machine (through [`exp`] of a value ≤ 0).
fn sigmoid(x: f32) -> f32 {
    let small = exp(-x.abs());
    if x >= 0.0 {
        1.0 / (1.0 + small)
    } else {
        small / (1.0 + small)
    }
}

/// `e^x` for `x ≤ 0`, the same bits on every machine (the platform's `exp` may differ in the
/// last bit, and the priors feed a search that must repeat exactly): `x = k·ln 2 + r` with
/// `|r| ≤ ln 2 / 2`, then `2^k` times the Taylor polynomial of `e^r` to degree 7 (relative error
/// below 3·10⁻⁷), every step a correctly rounded `f32` operation.
fn exp(x: f32) -> f32 {
    if x < -87.0 {
        return 0.0;
    }
    let k = (x * std::f32::consts::LOG2_E).round();
    // ln 2 in two parts, so that k·ln 2 is subtracted without losing r's bits.
    let r = (-k).mul_add(6.931_457_5e-1, x);
    let r = (-k).mul_add(1.428_606_8e-6, r);
    let taylor = [1.0 / 5040.0, 1.0 / 720.0, 1.0 / 120.0, 1.0 / 24.0, 1.0 / 6.0, 0.5, 1.0, 1.0];
    let p = taylor.iter().skip(1).fold(taylor[0], |sum: f32, &c| sum.mul_add(r, c));
    p * f32::from_bits(((k as i32 + 127) as u32) << 23)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;
    use tessera_core::Game;

    #[test]
    fn the_exponential_is_accurate() {
        for step in 0..=870 {
            let x = -(step as f32) / 10.0;
            let ours = f64::from(exp(x));
            let exact = f64::from(x).exp();
            assert!((ours - exact).abs() <= 3e-7 * exact, "e^{x}: {ours} against {exact}");
        }
        assert_eq!(exp(-100.0), 0.0);
    }

    #[test]
    fn the_shipped_network_reads_our_planes_and_ranks_corners_first_on_an_empty_board() {
        let network = shipped();
        assert_eq!((network.planes(), network.size()), (PLANES, 19));
        let position = Position::new(19, Rules::CHINESE);
        let mut moves = crate::position::Moves::default();
        position.generate_legal_moves(&mut moves);
        let mut priors = vec![0.0; moves.len()];
        assert!(evaluate(&position, &moves, &mut priors, false).is_some());
        assert!((priors.iter().sum::<f32>() - 1.0).abs() < 1e-4);
        let best = moves[priors.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)).unwrap().0];
        let (x, y) = crate::board::coordinates(best.point().unwrap());
        let line = |v: usize| v.min(18 - v);
        assert!((2..=3).contains(&line(x)) && (2..=3).contains(&line(y)), "{x},{y}: a corner point");
    }

    #[test]
    fn the_network_plays_from_9x9_up_with_a_value_on_19x19_only() {
        for size in [7, 9, 13, 19] {
            let position = Position::new(size, Rules::CHINESE);
            let mut moves = crate::position::Moves::default();
            position.generate_legal_moves(&mut moves);
            let mut priors = vec![0.0; moves.len()];
            let refined = evaluate(&position, &moves, &mut priors, true);
            assert_eq!(refined.is_some(), size >= SMALLEST_BOARD, "{size}×{size}");
            if let Some(refined) = refined {
                assert!((priors.iter().sum::<f32>() - 1.0).abs() < 1e-4, "{size}×{size}");
                assert_eq!(refined.value.is_some(), size == 19, "{size}×{size}");
            }
        }
        // 19×19 shares the shipped network; another size builds its copy once.
        assert!(std::ptr::eq(for_board(19).unwrap(), shipped()));
        assert!(std::ptr::eq(for_board(9).unwrap(), for_board(9).unwrap()));
    }

    /// The network's favourite among the legal moves after `line` is played from the empty board.
    fn favourite_after(size: usize, line: &[&str]) -> (String, f32) {
        let mut position = Position::new(size, Rules::CHINESE);
        for vertex in line {
            position.play(crate::parse_vertex(size, vertex).expect("the test's vertices are valid"));
        }
        let mut moves = crate::position::Moves::default();
        position.generate_legal_moves(&mut moves);
        let mut priors = vec![0.0; moves.len()];
        assert!(evaluate(&position, &moves, &mut priors, false).is_some());
        let best = priors.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)).unwrap().0;
        (crate::format_vertex(size, moves[best]), priors[best])
    }

    #[test]
    fn the_shipped_network_blocks_an_invasion_and_saves_stones_in_atari() {
        // White's 3-3 invasion under Black's 4-4 stone: Black blocks on either side.
        let (block, _) = favourite_after(19, &["Q16", "R17"]);
        assert!(["Q17", "R16"].contains(&block.as_str()), "blocked at {block}");
        // White E4 ataris Black's D4 (C4, D5 and E4 around it): Black connects at D3.
        let atari = ["Q16", "D16", "D4", "C4", "Q4", "D5", "C3", "E4"];
        assert_eq!(favourite_after(19, &atari).0, "D3");
        // Then Black B4 ataris White's C4: White runs out at C5, nearly certain of it.
        let (run, prior) = favourite_after(19, &[&atari[..], &["D3", "E3", "B4"]].concat());
        assert_eq!(run, "C5");
        assert!(prior > 0.8, "C5 at {prior}");
        // The same atari on 9×9, where the network never trained: Black connects at D3 there too.
        assert_eq!(favourite_after(9, &["G7", "C7", "D4", "C4", "G3", "D5", "C3", "E4"]).0, "D3");
    }

    /// The network's value for the player to move in `position`.
    fn value(position: &Position) -> f32 {
        let mut moves = crate::position::Moves::default();
        position.generate_legal_moves(&mut moves);
        let mut priors = vec![0.0; moves.len()];
        evaluate(position, &moves, &mut priors, true).expect("a 19×19 board").value.expect("the shipped value head")
    }

    #[test]
    fn the_shipped_value_sees_a_won_board_and_calls_the_empty_one_even() {
        let mut position = crate::test_positions::black_holds_columns(19, 14);
        let black = value(&position);
        assert!(black > 0.8, "Black to move, far ahead: {black}");
        assert_eq!(value(&position).to_bits(), black.to_bits(), "the same bits again");
        position.set_to_move(crate::Cell::White);
        let white = value(&position);
        assert!(white < 0.2, "White to move, far behind: {white}");
        let empty = Position::new(19, Rules::CHINESE);
        assert!((0.35..0.65).contains(&value(&empty)), "the empty board: {}", value(&empty));
        let mut moves = crate::position::Moves::default();
        empty.generate_legal_moves(&mut moves);
        let mut priors = vec![0.0; moves.len()];
        assert_eq!(evaluate(&empty, &moves, &mut priors, false), Some(Refined { value: None }), "unasked, none");
    }
}
