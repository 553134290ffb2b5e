//! Opening-rule decisions of Tessera's gomoku player: the stones it proposes in swap2, when it
//! swaps (or changes colours) after a search, and which first stones are worth taking over.
//! The protocols (pbrain's `SWAP2BOARD`, AGI's `FIRSTCHANGE` / `THIRDCHANGE`) ask; the answers
//! live here, with the game.

use tessera_core::Score;

use crate::point::Point;

/// The three stones we propose when asked to open a swap2 game on a `width` × `height` board:
/// the centre and two diagonal neighbours, a balanced start.
#[must_use]
pub fn swap2_opening(width: u32, height: u32) -> [Point; 3] {
    let (x, y) = (narrow(width / 2), narrow(height / 2));
    [Point::new(x, y), Point::new(x + 1, y + 1), Point::new(x + 1, y.saturating_sub(1))]
}

/// Board coordinates stay below 32, so the conversion never saturates on a real board.
fn narrow(value: u32) -> u8 {
    u8::try_from(value.min(30)).unwrap_or(30)
}

/// Whether the side to move, with `score` from its search, stands worse than the other side by
/// enough to prefer the other colour (swap2's `SWAP`, AGI's `CHANGE`).
#[must_use]
pub fn prefers_other_side(score: Score) -> bool {
    match score {
        Score::Centipawns(value) => value < -30,
        Score::Mate(moves) => moves <= 0,
        Score::WinRate(rate) => rate < 0.485,
    }
}

/// Whether black's first stone at `stone` on a 15×15 board is worth taking over (AGI's
/// `FIRSTCHANGE`): near the centre, where the first move is strongest.
#[must_use]
pub fn first_stone_worth_taking(stone: Point) -> bool {
    stone.x().abs_diff(7) <= 2 && stone.y().abs_diff(7) <= 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swap2_stones_sit_at_the_centre() {
        assert_eq!(swap2_opening(15, 15), [Point::new(7, 7), Point::new(8, 8), Point::new(8, 6)]);
        assert!(prefers_other_side(Score::Centipawns(-31)) && !prefers_other_side(Score::Centipawns(-30)));
        assert!(prefers_other_side(Score::Mate(-2)) && !prefers_other_side(Score::Mate(3)));
        assert!(first_stone_worth_taking(Point::new(9, 5)) && !first_stone_worth_taking(Point::new(10, 7)));
    }
}
