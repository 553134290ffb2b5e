//! The rules as a value type: the variant (freestyle, standard, renju, caro) and the board size.

use std::fmt;
use std::str::FromStr;

use tessera_core::Side;

/// The smallest board side we play on.
pub const MIN_SIDE: u8 = 5;
/// The largest board side we play on (Gomocup needs 20; Yixin-Board offers up to 22).
pub const MAX_SIDE: u8 = 22;

/// Which rule set decides a win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Five or more in a row wins, for both sides.
    Freestyle,
    /// Exactly five wins; six or more does not.
    Standard,
    /// Black wins with exactly five and may not play double-three, double-four or overline;
    /// white wins with five or more.
    Renju,
    /// Exactly five wins, but not when both cells beyond its ends hold opponent stones
    /// (the board edge does not block): Gomocup's rule 9, Piskvork's "standard Caro".
    Caro,
    /// Five or more wins, but not when both cells beyond the run hold opponent stones: Gomocup's
    /// rule 8, Piskvork's "Caro with overlines".
    CaroOverlines,
}

impl Variant {
    /// Every variant, in index order (the packed form and the network features number them so).
    pub const ALL: [Variant; 5] =
        [Variant::Freestyle, Variant::Standard, Variant::Renju, Variant::Caro, Variant::CaroOverlines];

    /// The variant's place in [`Variant::ALL`].
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// How a run of stones wins for one side (the pattern tables are built per kind).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinKind {
    /// Five or more.
    FiveOrMore,
    /// Exactly five.
    ExactlyFive,
    /// Exactly five, not blocked at both ends by opponent stones.
    UnblockedFive,
    /// Five or more, not blocked at both ends by opponent stones.
    UnblockedFiveOrMore,
}

impl WinKind {
    /// How many kinds there are ([`WinKind::index`] is below this).
    pub const COUNT: usize = 4;

    /// Index into per-kind tables.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// The rules of one game: variant and board size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// The rule set.
    pub variant: Variant,
    /// Columns (x), 5–22.
    pub width: u8,
    /// Rows (y), 5–22.
    pub height: u8,
}

/// Rules that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// The board is smaller than 5 or larger than 22 on a side.
    #[error("unsupported board size {width}x{height} (5 to 22 per side)")]
    UnsupportedSize {
        /// Requested columns.
        width: u32,
        /// Requested rows.
        height: u32,
    },
    /// The text names no variant.
    #[error("unknown rule {0:?} (freestyle, standard, renju, caro, caro-overlines)")]
    UnknownVariant(String),
    /// The text is not `<variant> <w>x<h>`.
    #[error("bad rules text {0:?}: expected e.g. \"renju 15x15\"")]
    Syntax(String),
}

impl Rules {
    /// Rules of `variant` on a `width` × `height` board.
    ///
    /// # Errors
    /// [`RulesError::UnsupportedSize`] outside 5–22 per side.
    pub fn new(variant: Variant, width: u32, height: u32) -> Result<Rules, RulesError> {
        let range = u32::from(MIN_SIDE)..=u32::from(MAX_SIDE);
        if !range.contains(&width) || !range.contains(&height) {
            return Err(RulesError::UnsupportedSize { width, height });
        }
        // In range above, so the casts cannot truncate.
        Ok(Rules { variant, width: width as u8, height: height as u8 })
    }

    /// Freestyle on a 15×15 board.
    pub const FREESTYLE_15: Rules = Rules { variant: Variant::Freestyle, width: 15, height: 15 };
    /// Freestyle on a 20×20 board (Gomocup's main league).
    pub const FREESTYLE_20: Rules = Rules { variant: Variant::Freestyle, width: 20, height: 20 };
    /// Standard gomoku on 15×15.
    pub const STANDARD_15: Rules = Rules { variant: Variant::Standard, width: 15, height: 15 };
    /// Renju on 15×15.
    pub const RENJU_15: Rules = Rules { variant: Variant::Renju, width: 15, height: 15 };
    /// Caro on 15×15.
    pub const CARO_15: Rules = Rules { variant: Variant::Caro, width: 15, height: 15 };

    /// The same rules on another board size.
    ///
    /// # Errors
    /// As [`Rules::new`].
    pub fn with_size(self, width: u32, height: u32) -> Result<Rules, RulesError> {
        Rules::new(self.variant, width, height)
    }

    /// The same board with another variant.
    #[must_use]
    pub fn with_variant(self, variant: Variant) -> Rules {
        Rules { variant, ..self }
    }

    /// How `side` (First = black) wins under these rules.
    #[must_use]
    pub fn win_kind(&self, side: Side) -> WinKind {
        match (self.variant, side) {
            (Variant::Freestyle, _) | (Variant::Renju, Side::Second) => WinKind::FiveOrMore,
            (Variant::Standard, _) | (Variant::Renju, Side::First) => WinKind::ExactlyFive,
            (Variant::Caro, _) => WinKind::UnblockedFive,
            (Variant::CaroOverlines, _) => WinKind::UnblockedFiveOrMore,
        }
    }

    /// Whether `side` has forbidden moves (renju black).
    #[must_use]
    pub fn has_forbidden(&self, side: Side) -> bool {
        self.variant == Variant::Renju && side == Side::First
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Variant::Freestyle => "freestyle",
            Variant::Standard => "standard",
            Variant::Renju => "renju",
            Variant::Caro => "caro",
            Variant::CaroOverlines => "caro-overlines",
        })
    }
}

impl FromStr for Variant {
    type Err = RulesError;
    fn from_str(text: &str) -> Result<Variant, RulesError> {
        match text.to_ascii_lowercase().as_str() {
            "freestyle" | "gomoku" => Ok(Variant::Freestyle),
            "standard" | "exact" => Ok(Variant::Standard),
            "renju" => Ok(Variant::Renju),
            "caro" => Ok(Variant::Caro),
            "caro-overlines" => Ok(Variant::CaroOverlines),
            _ => Err(RulesError::UnknownVariant(text.to_string())),
        }
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}x{}", self.variant, self.width, self.height)
    }
}

impl FromStr for Rules {
    type Err = RulesError;
    fn from_str(text: &str) -> Result<Rules, RulesError> {
        let syntax = || RulesError::Syntax(text.to_string());
        let (variant, size) = text.trim().split_once(' ').ok_or_else(syntax)?;
        let (width, height) = size.trim().split_once(['x', 'X']).ok_or_else(syntax)?;
        let width = width.parse().map_err(|_| syntax())?;
        let height = height.parse().map_err(|_| syntax())?;
        Rules::new(variant.parse()?, width, height)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_round_trip_and_sizes_are_checked() {
        for rules in [Rules::FREESTYLE_15, Rules::FREESTYLE_20, Rules::STANDARD_15, Rules::RENJU_15, Rules::CARO_15] {
            assert_eq!(rules.to_string().parse::<Rules>(), Ok(rules));
        }
        assert_eq!("renju 15x15".parse::<Rules>(), Ok(Rules::RENJU_15));
        assert!(matches!(Rules::new(Variant::Freestyle, 23, 15), Err(RulesError::UnsupportedSize { .. })));
        assert!(matches!(Rules::new(Variant::Freestyle, 4, 4), Err(RulesError::UnsupportedSize { .. })));
        assert!(Rules::new(Variant::Caro, 22, 7).is_ok());
        assert_eq!(Rules::RENJU_15.win_kind(Side::First), WinKind::ExactlyFive);
        assert_eq!(Rules::RENJU_15.win_kind(Side::Second), WinKind::FiveOrMore);
    }
}
