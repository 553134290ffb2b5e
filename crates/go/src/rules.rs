//! The rules of a game as a value: komi, suicide, superko. Scoring is always by area
//! (Chinese / Tromp-Taylor): stones plus empty regions bordered by one colour only.

use std::fmt;
use std::str::FromStr;

/// Which repetitions superko forbids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Superko {
    /// No board position may repeat (Chinese, Tromp-Taylor, AGA).
    Positional,
    /// No board position may repeat with the same player to move (New Zealand, AGA variant).
    Situational,
}

/// Rules of one game of go.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rules {
    /// Points given to White.
    pub komi: f32,
    /// Whether a move may remove its own string (suicide), as in Tromp-Taylor and New Zealand rules.
    pub suicide_allowed: bool,
    /// The superko rule.
    pub superko: Superko,
}

impl Rules {
    /// Chinese rules: komi 7.5, suicide forbidden, positional superko.
    pub const CHINESE: Rules = Rules { komi: 7.5, suicide_allowed: false, superko: Superko::Positional };
    /// Tromp-Taylor: komi 7.5, suicide allowed, positional superko.
    pub const TROMP_TAYLOR: Rules = Rules { komi: 7.5, suicide_allowed: true, superko: Superko::Positional };
    /// New Zealand: komi 7, suicide allowed, situational superko.
    pub const NEW_ZEALAND: Rules = Rules { komi: 7.0, suicide_allowed: true, superko: Superko::Situational };

    /// The same rules with another komi.
    #[must_use]
    pub const fn with_komi(self, komi: f32) -> Rules {
        Rules { komi, ..self }
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules::CHINESE
    }
}

impl fmt::Display for Rules {
    /// `komi=7.5 suicide=no superko=positional`: the round trip of [`Rules::from_str`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let superko = match self.superko {
            Superko::Positional => "positional",
            Superko::Situational => "situational",
        };
        let suicide = if self.suicide_allowed { "yes" } else { "no" };
        write!(f, "komi={} suicide={suicide} superko={superko}", self.komi)
    }
}

/// A rules text was not understood.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown rules: {0}")]
pub struct RulesError(pub String);

impl FromStr for Rules {
    type Err = RulesError;

    /// A preset name (`chinese`, `tromp-taylor`, `new-zealand`) or `key=value` pairs as written by
    /// `Display`, applied over the Chinese preset.
    fn from_str(text: &str) -> Result<Rules, RulesError> {
        let bad = || RulesError(text.to_string());
        match text.trim().to_ascii_lowercase().as_str() {
            "chinese" => return Ok(Rules::CHINESE),
            "tromp-taylor" | "tromp_taylor" => return Ok(Rules::TROMP_TAYLOR),
            "new-zealand" | "new_zealand" | "nz" => return Ok(Rules::NEW_ZEALAND),
            _ => {}
        }
        let mut rules = Rules::CHINESE;
        for pair in text.split_whitespace() {
            let (key, value) = pair.split_once('=').ok_or_else(bad)?;
            match (key, value) {
                ("komi", value) => rules.komi = value.parse().map_err(|_| bad())?,
                ("suicide", "yes") => rules.suicide_allowed = true,
                ("suicide", "no") => rules.suicide_allowed = false,
                ("superko", "positional") => rules.superko = Superko::Positional,
                ("superko", "situational") => rules.superko = Superko::Situational,
                _ => return Err(bad()),
            }
        }
        Ok(rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_round_trip_through_text() {
        for rules in [Rules::CHINESE, Rules::TROMP_TAYLOR, Rules::NEW_ZEALAND.with_komi(0.5)] {
            assert_eq!(rules.to_string().parse::<Rules>().unwrap(), rules);
        }
        assert_eq!("tromp-taylor".parse::<Rules>().unwrap(), Rules::TROMP_TAYLOR);
        assert!("komi=x".parse::<Rules>().is_err());
    }
}
