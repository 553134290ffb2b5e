//! The Syzygy options Arena and cutechess users set (`SyzygyPath`, `SyzygyProbeDepth`,
//! `Syzygy50MoveRule`, `SyzygyProbeLimit`, with Stockfish's names and defaults), applied to
//! tessera-chess's process-wide tables.

use tessera_chess::syzygy;
use tessera_chess::Chess as Position;
use tessera_core::{GameOption, GameOptions, OptionKind, OptionRefused, OptionValue};

const PATH: &str = "SyzygyPath";
const PROBE_DEPTH: &str = "SyzygyProbeDepth";
const FIFTY_MOVE_RULE: &str = "Syzygy50MoveRule";
const PROBE_LIMIT: &str = "SyzygyProbeLimit";

/// The largest tables that exist (Syzygy covers up to seven pieces).
const MOST_PIECES: i64 = 7;

/// The tablebase options: the path of the tables loaded (none at first). The probe settings
/// live in tessera-chess's tables, whose defaults are the options' (Stockfish's).
#[derive(Default)]
pub struct Tablebases {
    path: String,
}

impl Tablebases {
    /// Loads the tables of `path` (none for an empty path or `<empty>`) and says what it found.
    fn load(&mut self, path: &str) -> Result<Option<String>, OptionRefused> {
        match syzygy::load(path) {
            Ok(0) => {
                self.path.clear();
                Ok(Some("no Syzygy tablebases".to_owned()))
            }
            Ok(largest) => {
                path.trim().clone_into(&mut self.path);
                Ok(Some(format!("Syzygy tablebases up to {largest} pieces from {}", self.path)))
            }
            // A failed load leaves no tables: say so rather than keep a path that is not used.
            Err(error) => {
                self.path.clear();
                Err(OptionRefused { kept: "no tablebases".to_owned(), reason: Box::new(error) })
            }
        }
    }
}

impl GameOptions<Position> for Tablebases {
    fn options(&self) -> Vec<GameOption> {
        vec![
            GameOption { name: PATH, kind: OptionKind::Text(self.path.clone()) },
            GameOption { name: PROBE_DEPTH, kind: OptionKind::Spin { default: 1, min: 1, max: 100 } },
            GameOption { name: FIFTY_MOVE_RULE, kind: OptionKind::Check(true) },
            GameOption { name: PROBE_LIMIT, kind: OptionKind::Spin { default: MOST_PIECES, min: 0, max: MOST_PIECES } },
        ]
    }

    fn set(&mut self, option: &GameOption, value: OptionValue<'_>) -> Result<Option<String>, OptionRefused> {
        match (option.name, value) {
            (PATH, OptionValue::Text(path)) => return self.load(path),
            // The protocol keeps spins within their declared bounds (1..=100, 0..=7), so the casts
            // keep their values.
            (PROBE_DEPTH, OptionValue::Spin(depth)) => syzygy::set_probe_depth(depth as i32),
            (PROBE_LIMIT, OptionValue::Spin(limit)) => syzygy::set_probe_limit(limit as u32),
            (FIFTY_MOVE_RULE, OptionValue::Check(on)) => syzygy::set_fifty_move_rule(on),
            // The protocol reads a value of each option's kind.
            _ => {}
        }
        Ok(None)
    }

    fn prepare(&self, _position: &mut Position) {}
}

#[cfg(test)]
mod tests {
    use tessera_chess::syzygy::SyzygyError;

    use super::*;

    #[test]
    fn a_missing_folder_is_refused_by_name_and_leaves_no_tables() {
        let mut tablebases = Tablebases::default();
        let path = GameOption { name: PATH, kind: OptionKind::Text(String::new()) };
        let refused = tablebases.set(&path, OptionValue::Text("/no/such/folder")).unwrap_err();
        assert!(refused.to_string().contains("/no/such/folder"), "{refused}");
        assert_eq!(syzygy::largest(), 0);
        assert!(refused.reason.downcast_ref::<SyzygyError>().is_some());
        assert_eq!(tablebases.set(&path, OptionValue::Text("<empty>")).unwrap().unwrap(), "no Syzygy tablebases");
    }
}
