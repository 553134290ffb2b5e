//! What the protocol needs from the game: boards by size and rule, coordinates, forbidden points.

use tessera_core::{GridNotation, MoveOf, Player, Score};

/// The rule numbers managers and GUIs send (`INFO rule`), decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleCode {
    /// Five or more wins (0; Yixin's 5 and 6 are freestyle with a swap opening).
    Freestyle,
    /// Exactly five wins (bit 1).
    Standard,
    /// Renju (bit 4; Yixin-Board and Rapfi send 2).
    Renju,
    /// Caro: exactly five wins, unless blocked at both ends (bits 8 and 1: Piskvork's 9,
    /// "standard Caro").
    Caro,
    /// Caro with overlines: five or more wins, unless blocked at both ends (bit 8 without bit 1:
    /// Piskvork's 8).
    CaroOverlines,
}

impl RuleCode {
    /// Decodes a rule number: the Gomocup bitmask (1 exact five, 2 continuous game, 4 renju,
    /// 8 caro) and the Yixin-Board values 2 (renju), 5 and 6 (freestyle with swap1/swap2).
    #[must_use]
    pub fn from_number(number: i64) -> RuleCode {
        match number {
            5 | 6 => RuleCode::Freestyle,
            2 => RuleCode::Renju,
            n if n & 4 != 0 => RuleCode::Renju,
            n if n & 8 != 0 && n & 1 != 0 => RuleCode::Caro,
            n if n & 8 != 0 => RuleCode::CaroOverlines,
            n if n & 1 != 0 => RuleCode::Standard,
            _ => RuleCode::Freestyle,
        }
    }
}

/// The game as the pbrain session sees it beyond core's [`Player`] (the game, its searcher, its
/// `x,y` points through a [`GridNotation`], the `ABOUT` line): boards by size and rule, stones,
/// and the player's opening decisions.
pub trait Dialect: Player<Notation: GridNotation> {
    /// Why a board or a stone was refused; its text goes out after `ERROR`.
    type Error: std::error::Error + Send + Sync + 'static;

    /// An empty board of `width` × `height` under `rule`.
    ///
    /// # Errors
    /// When the size or rule is not supported.
    fn new_game(&self, width: u32, height: u32, rule: RuleCode) -> Result<Self::Game, Self::Error>;

    /// Places a stone for the side to move (a manager's move: renju fouls are the manager's
    /// business, so only occupied points fail).
    ///
    /// # Errors
    /// When the point is taken.
    fn place(&self, game: &mut Self::Game, mv: MoveOf<Self>) -> Result<(), Self::Error>;

    /// The renju-forbidden points for black (empty in other rules).
    fn forbidden_points(&self, game: &Self::Game) -> Vec<MoveOf<Self>>;

    /// The three stones we propose when a swap2 game is ours to open.
    fn swap2_opening(&self, game: &Self::Game, width: u32, height: u32) -> Vec<MoveOf<Self>>;

    /// Whether the side to move, with `score` from its search, would rather swap colours.
    fn prefers_swap(&self, score: Score) -> bool;
}

#[cfg(test)]
mod tests {
    use super::RuleCode;

    #[test]
    fn rule_numbers_in_the_wild() {
        let decoded: Vec<RuleCode> = [0, 1, 2, 3, 4, 5, 6, 8, 9].into_iter().map(RuleCode::from_number).collect();
        use RuleCode::*;
        assert_eq!(decoded, [Freestyle, Standard, Renju, Standard, Renju, Freestyle, Freestyle, CaroOverlines, Caro]);
    }
}
