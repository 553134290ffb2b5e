//! Opening positions for a match when no opening file is given: short random legal lines.

use tessera_core::{Game, Rng};

/// `count` positions reached from `start` by `plies` random legal moves each (fixed by `seed`),
/// all different and none already finished. Fewer when the game has fewer such lines.
#[must_use]
pub fn random_openings<G: Game>(start: &G, count: usize, plies: usize, seed: u64) -> Vec<G> {
    let mut rng = Rng::new(seed);
    let mut openings: Vec<G> = Vec::with_capacity(count);
    let mut moves = G::Moves::default();
    for _ in 0..count * 20 {
        if openings.len() == count {
            break;
        }
        let mut position = start.clone();
        for _ in 0..plies {
            position.generate_legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            position.play(moves[rng.below(moves.len())]);
        }
        let fresh = openings.iter().all(|other| other.hash() != position.hash());
        if fresh && position.outcome().is_none() {
            openings.push(position);
        }
    }
    openings
}

#[cfg(test)]
mod tests {
    use super::random_openings;
    use tessera_core::toys::ConnectFour;
    use tessera_core::Game;

    #[test]
    fn openings_are_distinct_live_and_reproducible() {
        let openings = random_openings(&ConnectFour::new(), 10, 4, 7);
        assert_eq!(openings.len(), 10);
        assert!(openings.iter().all(|opening| opening.ply() == 4 && opening.outcome().is_none()));
        let again = random_openings(&ConnectFour::new(), 10, 4, 7);
        assert_eq!(
            openings.iter().map(Game::hash).collect::<Vec<_>>(),
            again.iter().map(Game::hash).collect::<Vec<_>>()
        );
    }
}
