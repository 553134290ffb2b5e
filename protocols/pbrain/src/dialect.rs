//! What the protocol needs from the game: boards by size and rule, coordinates, forbidden points.

use tessera_core::Game;

/// The rule numbers managers and GUIs send (`INFO rule`), decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleCode {
    /// Five or more wins (0; Yixin's 5 and 6 are freestyle with a swap opening).
    Freestyle,
    /// Exactly five wins (bit 1).
    Standard,
    /// Renju (bit 4; Yixin-Board and Rapfi send 2).
    Renju,
    /// Caro: a five blocked at both ends does not win (bit 8).
    Caro,
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
            n if n & 8 != 0 => RuleCode::Caro,
            n if n & 1 != 0 => RuleCode::Standard,
            _ => RuleCode::Freestyle,
        }
    }
}

/// The game as the pbrain session sees it. Coordinates are `(x, y)`, 0-based from the top-left.
pub trait Dialect: Send + Sync + 'static {
    /// The game played.
    type Game: Game;

    /// An empty board of `width` × `height` under `rule`.
    ///
    /// # Errors
    /// A message for `ERROR` when the size or rule is not supported.
    fn new_game(&self, width: u32, height: u32, rule: RuleCode) -> Result<Self::Game, String>;

    /// Places a stone for the side to move at `(x, y)` (a manager's move: renju fouls are the
    /// manager's business, so only off-board and occupied points fail).
    ///
    /// # Errors
    /// A message for `ERROR`.
    fn place(&self, game: &mut Self::Game, x: u32, y: u32) -> Result<(), String>;

    /// The coordinates of a move.
    fn coordinates(&self, mv: <Self::Game as Game>::Move) -> (u32, u32);

    /// The renju-forbidden points for black (empty in other rules).
    fn forbidden_points(&self, game: &Self::Game) -> Vec<(u32, u32)>;

    /// The `ABOUT` line: `name="…", version="…", …`.
    fn about(&self) -> String;
}

#[cfg(test)]
mod tests {
    use super::RuleCode;

    #[test]
    fn rule_numbers_in_the_wild() {
        let decoded: Vec<RuleCode> = [0, 1, 2, 3, 4, 5, 6, 8, 9].into_iter().map(RuleCode::from_number).collect();
        use RuleCode::*;
        assert_eq!(decoded, [Freestyle, Standard, Renju, Standard, Renju, Freestyle, Freestyle, Caro, Caro]);
    }
}
