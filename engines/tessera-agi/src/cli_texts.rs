//! What this engine's command line says where it differs from the other gomoku engine's
//! (read by the shared `gomoku_cli`).

/// `--hash`'s help.
pub(crate) const HASH_HELP: &str = "Transposition table in MiB";
/// `--log-level`'s default.
pub(crate) const LOG_LEVEL: &str = "warn";
/// `--log-level`'s help.
pub(crate) const LOG_LEVEL_HELP: &str = "Log level (to stderr or --log-file, never stdout)";
